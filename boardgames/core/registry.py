"""The game registry: every game is a plugin found through the entry-point group
``boardgames.games``.

An entry point names a :class:`GamePlugin`, a small description of the game made of plain
values and ``"module:attribute"`` strings: importing it must stay cheap (no numpy, no
numba), because ``boardgames --help`` reads every plugin to list the games' own commands.
Kalah, Nim and N queens register in this package's ``pyproject.toml`` exactly as an
outside package does (``examples/tictactoe-plugin/``)::

    [project.entry-points."boardgames.games"]
    connect4 = "boardgames.connect4.plugin:PLUGIN"

Everything that used to be a hand-kept table of games (the CLI's game groups, ``compare``'s
subcommands, ``cache warm``'s groups, the numba engine's kernels, the web page's games, the
learning environments) is derived from :func:`plugins`. A plugin that fails to load is one
line on stderr naming it; the rest of the toolkit works.

This module imports neither numpy nor any game.
"""

from __future__ import annotations

import functools
import importlib
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Literal

ENTRY_POINT_GROUP = "boardgames.games"

GAME: Final = "game"
"""A two-player game: play, analyse and compare work on it."""
PUZZLE: Final = "puzzle"
"""A one-player puzzle (N queens): it has its own commands only."""


@dataclass(frozen=True)
class Option:
    """One setting of a game (``--pits``, ``rows`` ...), from which the CLI option, the web
    form's field and the environment's keyword argument are all built.

    ``kind`` is ``"int"``, ``"bool"``, ``"choice"`` (one of ``choices``) or ``"ints"``
    (whole numbers separated by spaces or commas, such as Nim's rows ``3 4 5``).
    """

    name: str
    kind: Literal["int", "bool", "choice", "ints"]
    default: Any
    help: str
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()

    @property
    def flag(self) -> str:
        """The command-line flag: ``--max-chips`` for ``max_chips``."""
        return "--" + self.name.replace("_", "-")

    def describe(self) -> str:
        """What values are allowed, in a few words: ``4..9``, ``classic|etudes``."""
        if self.kind == "choice":
            return "|".join(self.choices)
        if self.kind == "bool":
            return "on|off"
        span = f"{self.low}..{self.high}" if self.low is not None else "whole numbers"
        return f"{span}, several" if self.kind == "ints" else span

    def convert(self, value: Any) -> Any:
        """``value`` (text from a command line, a URL or JSON) as this option's type; a
        one-line ValueError that says what is allowed when it is not."""
        label = self.name.replace("_", " ")
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in ("1", "true", "yes", "on"):
                return True
            if text in ("0", "false", "no", "off", ""):
                return False
            raise ValueError(f"{label} must be on or off, got {str(value)[:20]!r}")
        if self.kind == "choice":
            if value not in self.choices:
                raise ValueError(
                    f"{label} must be one of {', '.join(self.choices)}, got {str(value)[:20]!r}"
                )
            return value
        if self.kind == "ints":
            words = (
                value.replace(",", " ").split()
                if isinstance(value, str)
                else list(value)
                if isinstance(value, list | tuple)
                else [value]
            )
            if not words:
                raise ValueError(f"{label}: give at least one whole number")
            return tuple(self._int(w, label) for w in words)
        return self._int(value, label)

    def _int(self, value: Any, label: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise ValueError(f"{label} must be a whole number, got {str(value)[:20]!r}")
        text = str(value).strip()
        if not text.lstrip("-").isascii() or not text.lstrip("-").isdigit() or len(text) > 12:
            raise ValueError(f"{label} must be a whole number, got {text[:20]!r}")
        number = int(text)
        if (self.low is not None and number < self.low) or (
            self.high is not None and number > self.high
        ):
            raise ValueError(f"{label} must be between {self.low} and {self.high}, got {number}")
        return number


@dataclass(frozen=True)
class GamePlugin:
    """What a game tells the toolkit about itself: plain values and import paths only.

    ``factory`` builds the game (an object of :class:`boardgames.core.protocol.Game` and the
    optional capabilities of :mod:`boardgames.core.capabilities`) from the options' values
    as keyword arguments. The other paths are optional capabilities that need heavy
    imports, loaded only when used:

    - ``kernels``: ``kernel_spec(game) -> KernelSpec`` for the numba engine (every numba
      strategy, MCTS and ``compare`` then run on the game);
    - ``solver``: ``solve(game, state, *, weak=False, stop=None) -> SearchResult`` whose
      result is exact (``exact=True``);
    - ``cli``: the game's own click group (``boardgames kalah ...``);
    - ``compare``: the game's own ``compare`` command, else the generic one;
    - ``warm``: ``cache warm``'s steps, ``(label, "module:function")``;
    - ``web``: the game's own additions to the web page (``boardgames serve``: tabs,
      scripts, routes under ``/api/<name>/``), a :class:`boardgames.web.extras.WebExtras`;
      the generic Play tab needs none;
    - ``cache``: the game's own files in the cache folder (Kalah's endgame tables), an
      object that ``boardgames cache list|clean|verify`` asks (see ``cli/cache.py``);
    - ``players``: the game's own players (named move choosers: Kalah's presets, Nim's
      ``bouton``), a :class:`boardgames.core.players.GamePlayers`;
    - ``commentary``: what the play loop and the page say after a move beyond the move
      itself ("A moves again", Bouton's why), a
      :class:`boardgames.core.commentary.Commentary`;
    - ``records``: the game's own record format (Kalah's ``.klh``), a
      :class:`boardgames.core.records.RecordFormat`;
    - ``envs``: a module of the game's environment extras (``"package.module"``, no
      attribute): its own options, opponents and picture for the learning environments,
      read by :mod:`boardgames.envs` (the hooks are listed in ``envs/games.py``).
    """

    name: str
    title: str
    kind: Literal["game", "puzzle"]
    summary: str
    factory: str
    options: tuple[Option, ...] = ()
    kernels: str | None = None
    solver: str | None = None
    cli: str | None = None
    compare: str | None = None
    warm: tuple[tuple[str, str], ...] = ()
    web: str | None = None
    cache: str | None = None
    envs: str | None = None
    players: str | None = None
    commentary: str | None = None
    records: str | None = None
    player_names: tuple[str, str] = ("first player", "second player")
    examples: tuple[str, ...] = field(default=())
    """Positions in the game's notation, for help texts and tests."""

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        raise KeyError(name)

    def defaults(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}

    def make(self, **values: Any) -> Any:
        """The game with these option values (the rest at their defaults).

        Unknown names and values out of range are a one-line ValueError; the game's own
        checks (a GameError) pass through.
        """
        known = {o.name: o for o in self.options}
        unknown = sorted(set(values) - set(known))
        if unknown:
            allowed = ", ".join(known) or "none"
            raise ValueError(f"{self.name} has no option {unknown[0]!r}; its options: {allowed}")
        kwargs = {
            name: known[name].convert(value) for name, value in values.items() if value is not None
        }
        return load(self.factory)(**kwargs)


def load(path: str) -> Any:
    """The object named by ``"module:attribute"``."""
    module, _, attr = path.partition(":")
    obj: Any = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


class UnknownGame(LookupError):
    """A game name that no installed plugin registers."""

    def __init__(self, name: str) -> None:
        known = ", ".join(plugins()) or "none"
        super().__init__(f"no game {name[:30]!r} is installed; installed: {known}")


@functools.cache
def _loaded() -> tuple[dict[str, GamePlugin], tuple[str, ...]]:
    from importlib.metadata import entry_points

    found: dict[str, GamePlugin] = {}
    problems: list[str] = []
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        try:
            plugin = ep.load()
        except Exception as e:  # a broken plugin must not take the toolkit down
            problems.append(f"plugin {ep.name!r} ({ep.value}) failed to load: {e}")
            continue
        if not isinstance(plugin, GamePlugin):
            problems.append(f"plugin {ep.name!r} ({ep.value}) is not a GamePlugin")
            continue
        if plugin.name in found:
            problems.append(f"plugin {ep.name!r}: the game name {plugin.name!r} is taken")
            continue
        found[plugin.name] = plugin
    return found, tuple(problems)


_warned = False


def plugins() -> dict[str, GamePlugin]:
    """Every installed game by name (sorted); a plugin that fails to load is reported
    once, one line on stderr, and left out."""
    global _warned
    found, problems = _loaded()
    if problems and not _warned:
        _warned = True
        for line in problems:
            if sys.stderr is not None:
                sys.stderr.write(f"Warning: {line}\n")
    return found


def plugin(name: str) -> GamePlugin:
    """The plugin of game ``name``; :class:`UnknownGame` if none is installed."""
    found = plugins()
    if name not in found:
        raise UnknownGame(name)
    return found[name]


def two_player() -> dict[str, GamePlugin]:
    """The installed two-player games (those ``play``, ``analyse`` and ``compare`` run)."""
    return {n: p for n, p in plugins().items() if p.kind == GAME}


def plugin_of(game: Any) -> GamePlugin:
    """The plugin of a game object (by its ``name``)."""
    return plugin(str(game.name))


def make_game(name: str, **values: Any) -> Any:
    """Game ``name`` with these option values (see :meth:`GamePlugin.make`)."""
    return plugin(name).make(**values)


def capability(game: Any, path_field: str) -> Callable[..., Any] | None:
    """The loaded function of an optional import-path capability (``"kernels"``,
    ``"solver"``) of ``game``'s plugin, or None when the game does not offer it."""
    path = getattr(plugin_of(game), path_field)
    return None if path is None else load(path)


def reset() -> None:
    """Forget what was loaded (tests that install or break a plugin)."""
    global _warned
    _warned = False
    _loaded.cache_clear()
