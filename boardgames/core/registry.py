"""The game registry: every game is a plugin found through the entry-point group
``boardgames.games``.

An entry point names one :class:`GamePlugin`, a typed description of the game made of
plain values and ``"module:attribute"`` paths: importing it must stay cheap (no numpy, no
numba), because ``boardgames --help`` reads every plugin to list the games' own commands.
Its capabilities are reached through its typed methods, one per hook
(:meth:`GamePlugin.kernel_spec`, :meth:`~GamePlugin.exact_solver`, ...), each importing
its path only when called, checking what it found and returning the hook's type
(:mod:`boardgames.core.hooks`); :attr:`GamePlugin.provides` lists them without importing
anything.
Kalah, Nim, N queens and Connect Four register in this package's ``pyproject.toml``
exactly as an outside package does (``examples/tictactoe-plugin/``)::

    [project.entry-points."boardgames.games"]
    connect4 = "boardgames.connect4.plugin:PLUGIN"

The registry contains faults: each plugin is loaded with its output captured and
whatever its import does (raising, ``sys.exit``, printing) caught, then checked (names,
options, player names, path shapes). A bad plugin is one short escaped line on stderr
naming its distribution, and is left out; a game name already taken is refused for the
newcomer (a built-in game is always kept). A path that turns out not to import when it is
first used, or names the wrong kind of object (a function where an object with methods is
due, something not callable where a function is), is a :class:`PluginError`, one line
naming the plugin.

This module imports neither numpy, click nor any game.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import io
import re
import sys
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from types import TracebackType
from typing import TYPE_CHECKING, Any, Final, Literal, cast

from boardgames.core.hooks import (
    BATCH_WARM_STEP,
    COMMENTARY_METHODS,
    GENERIC_WARM_STEP,
    NAMED_WARM_STEPS,
    Commentary,
    EnvExtras,
    GamePlayers,
    KernelSpec,
    RecordFormat,
    Solve,
    WarmStep,
    complete_commentary,
)

if TYPE_CHECKING:
    import click

    from boardgames.core.cachefiles import CacheFiles
    from boardgames.web.extras import WebExtras

ENTRY_POINT_GROUP = "boardgames.games"
BUILT_IN = "boardgames"
"""The distribution of the built-in games: a game name it registers is never replaced."""

GAME: Final = "game"
"""A two-player game: play, analyse and compare work on it."""
PUZZLE: Final = "puzzle"
"""A one-player puzzle (N queens): it has its own commands only."""

Hook = Literal[
    "kernels",
    "solver",
    "cli",
    "compare",
    "web",
    "cache",
    "envs",
    "players",
    "commentary",
    "records",
]
"""The optional capabilities a plugin names by an import path (see :class:`GamePlugin`)."""
HOOKS: Final[tuple[Hook, ...]] = (
    "kernels",
    "solver",
    "players",
    "commentary",
    "records",
    "cli",
    "compare",
    "web",
    "cache",
    "envs",
)

NAME = re.compile(r"[a-z][a-z0-9_]{0,31}\Z")
PATH = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*\Z")
MESSAGE_LIMIT = 200
"""Characters of a plugin's problem shown on stderr (a hostile plugin's error can be huge)."""


class PluginError(Exception):
    """A plugin that cannot do what it declares (a path that does not import, a factory
    that fails): one line naming the plugin."""


def one_line(text: object, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` as one short line: control characters (newlines, terminal colours)
    escaped, cut to ``limit`` characters."""
    raw = str(text)
    shown = "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in raw)
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."


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
            # each number is checked alone: say what one number is (Nim's rows: chips)
            return tuple(self._int(w, label, f" ({self.help})") for w in words)
        return self._int(value, label)

    def _int(self, value: Any, label: str, what: str = "") -> int:
        """``value`` as a whole number in range: an int, or text of the digits 0-9 with an
        optional sign; anything else (``--3``, ``٣``, thousands of digits) is refused in
        this option's own words, never with ``int()``'s message."""
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise ValueError(f"{label} must be a whole number, got {str(value)[:20]!r}")
        if isinstance(value, int):
            number = int(value)  # never str(): a huge int would pass Python's digit limit
        else:
            text = value.strip()
            if not _WHOLE_NUMBER.fullmatch(text):
                raise ValueError(f"{label} must be a whole number, got {text[:20]!r}")
            number = int(text)
        if (self.low is not None and number < self.low) or (
            self.high is not None and number > self.high
        ):
            shown = (
                str(number)
                if abs(number) < 10**12
                else ("a huge number" if number > 0 else "a huge negative number")
            )
            raise ValueError(
                f"{label} must be between {self.low} and {self.high}, got {shown}{what}"
            )
        return number


_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,12}")
"""A whole number as text: ASCII digits, an optional sign, at most 12 digits."""


@dataclass(frozen=True)
class GamePlugin:
    """What a game tells the toolkit about itself: plain values and import paths only.

    ``factory`` builds the game (an object of :class:`boardgames.core.protocol.Game` and the
    optional capabilities of :mod:`boardgames.core.capabilities`) from the options' values
    as keyword arguments. The other paths are optional hooks that need heavy imports; each
    is reached through one typed method, which imports the path when called, checks the
    object it names (a :class:`PluginError` naming the plugin when it is the wrong kind)
    and returns it typed (:mod:`boardgames.core.hooks`), or None when the plugin names
    none:

    - ``kernels``: a function ``kernel_spec(game) -> KernelSpec`` for the numba engine
      (every numba strategy, MCTS and ``compare`` then run on the game):
      :meth:`kernel_spec` ``(game)`` calls it;
    - ``solver``: ``solve(game, state, *, weak=False, stop=None) -> SearchResult`` whose
      result is exact (``exact=True``): :meth:`exact_solver`;
    - ``players``: a :class:`~boardgames.core.hooks.GamePlayers` (named move choosers):
      :meth:`game_players`;
    - ``commentary``: an object with some of the
      :class:`~boardgames.core.hooks.Commentary` methods (what is said after a move beyond
      the move itself): :meth:`game_commentary`, whose missing methods answer None;
    - ``records``: a :class:`~boardgames.core.hooks.RecordFormat` (a record format of the
      game's own): :meth:`record_format`;
    - ``cli``: the game's own click group (``boardgames kalah ...``): :meth:`command`;
    - ``compare``: the game's own ``compare`` click command, else the generic one:
      :meth:`compare_command`;
    - ``web``: a :class:`boardgames.web.extras.WebExtras` (the page's extras):
      :meth:`web_extras`;
    - ``cache``: a :class:`boardgames.core.cachefiles.CacheFiles` (the game's own files in
      the cache folder): :meth:`cache_files`;
    - ``envs``: an :class:`~boardgames.core.hooks.EnvExtras` (what the environments ask
      beyond the rules): :meth:`env_extras`;
    - ``warm``: ``cache warm``'s steps, ``(label, "module:function")``, each function
      called with no argument: :meth:`warm_steps` (a game with kernels and no steps gets
      the generic one).

    ``max_game_length`` is a proven bound on a game's moves (OpenSpiel needs one): an int,
    or a function of the game (its options decide it); None when the game object says
    (its ``max_game_length`` attribute) or no bound is known.
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
    max_game_length: int | Callable[[Any], int] | None = None

    @property
    def provides(self) -> frozenset[str]:
        """The optional hooks this plugin names (and ``"warm"``), without importing any."""
        named = {h for h in HOOKS if getattr(self, h) is not None}
        return frozenset(named | ({"warm"} if self.warm else set()))

    # --- the typed hooks: each imports its path when called and checks what it found ---

    def kernel_spec(self, game: Any) -> KernelSpec | None:
        """The numba engine's :class:`~boardgames.core.hooks.KernelSpec` for ``game``
        (the ``kernels`` function called on it), or None when the plugin names none."""
        make = self._callable("kernels")
        if make is None:
            return None
        spec = make(game)
        if not isinstance(spec, KernelSpec):
            raise self._wrong("kernels", f"returned {_kind(spec)}, not a KernelSpec")
        return spec

    def exact_solver(self) -> Solve | None:
        """The game's exact solver (``solver``), or None."""
        return cast("Solve | None", self._callable("solver"))

    def game_players(self) -> GamePlayers | None:
        """The game's own players (``players``), or None."""
        found = self._with_methods("players", ("named", "parse"), "a GamePlayers")
        return cast("GamePlayers | None", found)

    def game_commentary(self) -> Commentary | None:
        """The game's commentary (``commentary``), or None; a method its object leaves
        out answers None, its other attributes (a game's extra words) stay reachable."""
        found = self._loaded("commentary")
        if found is None:
            return None
        methods = [getattr(found, m, None) for m in COMMENTARY_METHODS]
        plain = type(found).__module__ == "builtins" and not isinstance(found, type)
        if plain or not all(m is None or callable(m) for m in methods):
            raise self._wrong(
                "commentary",
                f"is {_kind(found)}, not an object with {'/'.join(COMMENTARY_METHODS)}",
            )
        return complete_commentary(found)

    def record_format(self) -> RecordFormat | None:
        """The game's own record format (``records``), or None."""
        found = self._with_methods("records", ("text", "read"), "a RecordFormat")
        if found is not None and not isinstance(getattr(found, "suffix", None), str):
            raise self._wrong("records", "has no text suffix, so it is not a RecordFormat")
        return cast("RecordFormat | None", found)

    def command(self) -> click.Command | None:
        """The game's own click group (``cli``: ``boardgames GAME ...``), or None."""
        import click

        found = self._loaded("cli")
        if found is not None and not isinstance(found, click.Command):
            raise self._wrong("cli", f"is {_kind(found)}, not a click group")
        return found

    def compare_command(self) -> click.Command | None:
        """The game's own ``compare`` click command (``compare``), or None."""
        import click

        found = self._loaded("compare")
        if found is not None and not isinstance(found, click.Command):
            raise self._wrong("compare", f"is {_kind(found)}, not a click command")
        return found

    def web_extras(self) -> WebExtras | None:
        """The page's extras for the game (``web``), or None."""
        from boardgames.web.extras import WebExtras

        found = self._loaded("web")
        if found is not None and not isinstance(found, WebExtras):
            raise self._wrong("web", f"is {_kind(found)}, not a WebExtras")
        return found

    def cache_files(self) -> CacheFiles | None:
        """The game's own files in the cache folder (``cache``), or None."""
        found = self._with_methods("cache", _CACHE_METHODS, "a CacheFiles")
        if found is not None and not all(
            isinstance(getattr(found, a, None), str) for a in _CACHE_TEXTS
        ):
            raise self._wrong("cache", f"lacks one of {', '.join(_CACHE_TEXTS)} (text)")
        return cast("CacheFiles | None", found)

    def env_extras(self) -> EnvExtras | None:
        """What the environments ask the game for beyond its rules (``envs``), or None."""
        found = self._loaded("envs")
        if found is not None and not isinstance(found, EnvExtras):
            raise self._wrong("envs", f"is {_kind(found)}, not an EnvExtras")
        return found

    def warm_steps(self) -> tuple[WarmStep, ...]:
        """``cache warm GAME``'s steps (``warm``; for a game with kernels and no steps,
        the generic one), then for a two-player game with kernels the batched
        environment's (:data:`~boardgames.core.hooks.BATCH_WARM_STEP`, unless listed),
        imported only when a step runs; none for a game without kernels or steps."""
        listed = list(self.warm)
        if not listed and self.kernels is not None:
            listed.append(GENERIC_WARM_STEP)
        two_player = self.kind == "game" and self.kernels is not None
        if two_player and all(path != BATCH_WARM_STEP[1] for _, path in listed):
            listed.append(BATCH_WARM_STEP)
        return tuple(WarmStep(label, path, self._step(path)) for label, path in listed)

    def typed_hook(self, name: Hook, game: Any) -> Any:
        """Hook ``name`` through its typed method (``kernels`` asks ``game``): the object a
        command would get, or a :class:`PluginError` saying what is wrong with it."""
        typed: dict[str, Callable[[], Any]] = {
            "kernels": lambda: self.kernel_spec(game),
            "solver": self.exact_solver,
            "players": self.game_players,
            "commentary": self.game_commentary,
            "records": self.record_format,
            "cli": self.command,
            "compare": self.compare_command,
            "web": self.web_extras,
            "cache": self.cache_files,
            "envs": self.env_extras,
        }
        return typed[name]()

    def hook(self, name: Hook) -> Any:
        """Deprecated (use the typed method of the hook: :meth:`exact_solver`, ...): the
        object a hook's path names, imported now, or None."""
        warnings.warn(
            f"GamePlugin.hook({name!r}) is deprecated: use the hook's typed method "
            "(kernel_spec, exact_solver, game_players, ...)",
            DeprecationWarning,
            stacklevel=2,
        )
        return self._loaded(name)

    def load(self, path: str, what: str) -> Any:
        """The object at ``path``; :class:`PluginError` naming this plugin if it fails."""
        try:
            return load(path)
        except Exception as e:
            raise PluginError(
                one_line(f"game {self.name!r}: its {what} {path!r} does not load: {_said(e)}")
            ) from None

    def _loaded(self, name: Hook) -> Any:
        path = getattr(self, name)
        return None if path is None else self.load(path, name)

    def _wrong(self, name: str, why: str) -> PluginError:
        path = getattr(self, name, None)
        return PluginError(one_line(f"game {self.name!r}: its {name} {path!r} {why}"))

    def _callable(self, name: Hook) -> Callable[..., Any] | None:
        found = self._loaded(name)
        if found is not None and not callable(found):
            raise self._wrong(name, f"is {_kind(found)}, not a function")
        return cast("Callable[..., Any] | None", found)

    def _with_methods(self, name: Hook, methods: tuple[str, ...], what: str) -> object | None:
        found: object | None = self._loaded(name)
        if found is not None and not all(callable(getattr(found, m, None)) for m in methods):
            raise self._wrong(name, f"is {_kind(found)}, not {what} (methods {', '.join(methods)})")
        return found

    def _step(self, path: str) -> Callable[[], object]:
        """The step at ``path``, run with no argument; the generic steps (which a plugin
        may also list beside its own) are given this game's name."""
        if path in NAMED_WARM_STEPS:
            return functools.partial(self._run_generic_step, path)

        def run() -> object:
            function = self.load(path, "warm step")
            if not callable(function):
                raise PluginError(
                    one_line(f"game {self.name!r}: its warm step {path!r} is not a function")
                )
            return function()

        return run

    def _run_generic_step(self, path: str) -> object:
        function: Callable[[str], object] = self.load(path, "warm step")
        return function(self.name)

    def length_bound(self, game: Any) -> int | None:
        """``max_game_length`` for this game object (see the class doc), or None."""
        bound = self.max_game_length
        if callable(bound):
            return int(bound(game))
        if bound is not None:
            return bound
        own = getattr(game, "max_game_length", None)
        return None if own is None else int(own)

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
        checks (a GameError, a ValueError) pass through; any other failure of the factory
        is a one-line :class:`PluginError`.
        """
        known = {o.name: o for o in self.options}
        unknown = sorted(set(values) - set(known))
        if unknown:
            allowed = ", ".join(known) or "none"
            raise ValueError(f"{self.name} has no option {unknown[0]!r}; its options: {allowed}")
        kwargs = {
            name: known[name].convert(value) for name, value in values.items() if value is not None
        }
        factory = self.load(self.factory, "factory")
        try:
            game = factory(**kwargs)
        except ValueError:  # the rules' own refusal (GameError is one)
            raise
        except Exception as e:
            raise PluginError(
                one_line(f"game {self.name!r}: its factory failed: {_said(e)}")
            ) from None
        named = getattr(game, "name", None)
        if named != self.name:  # the toolkit finds a game's plugin by the game's name
            raise PluginError(
                one_line(f"game {self.name!r}: its factory builds a game named {named!r}")
            )
        return game


_CACHE_TEXTS = ("kind", "detail", "name_help", "rebuilt_by")
_CACHE_METHODS = ("scan", "select", "checksum", "verify", "stamp_problem", "stamp")


def _kind(found: object) -> str:
    """What ``found`` is, in a few words: ``a function``, ``a str``, ``class Foo``."""
    if isinstance(found, type):
        return f"class {found.__name__}"
    if callable(found) and hasattr(found, "__name__"):
        return "a function"
    kind = type(found).__name__
    return f"{'an' if kind[:1] in tuple('AEIOUaeiou') else 'a'} {kind}"


def _said(error: BaseException) -> str:
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def load(path: str) -> Any:
    """The object named by ``"module:attribute"``."""
    module, _, attr = path.partition(":")
    obj: Any = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


def problems_of(p: GamePlugin) -> list[str]:
    """What is wrong with plugin ``p`` (empty when it is usable), short and one line each."""
    found: list[str] = []

    def text(value: object, what: str) -> bool:
        ok = isinstance(value, str) and value.strip() != ""
        if not ok:
            found.append(f"its {what} is not text")
        return ok

    if not isinstance(p.name, str) or not NAME.match(p.name):
        found.append(f"its name {p.name!r} is not lower-case letters, digits and _")
    text(p.title, "title")
    text(p.summary, "summary")
    if p.kind not in (GAME, PUZZLE):
        found.append(f"its kind {p.kind!r} is neither 'game' nor 'puzzle'")
    if not isinstance(p.factory, str) or not PATH.match(p.factory):
        found.append(f"its factory {p.factory!r} is not a 'module:attribute' path")
    for h in HOOKS:
        path = getattr(p, h)
        if path is not None and (not isinstance(path, str) or not PATH.match(path)):
            found.append(f"its {h} {path!r} is not a 'module:attribute' path")
    if not isinstance(p.warm, tuple) or not all(
        isinstance(w, tuple)
        and len(w) == 2
        and isinstance(w[0], str)
        and isinstance(w[1], str)
        and PATH.match(w[1])
        for w in p.warm
    ):
        found.append("its warm steps are not (label, 'module:function') pairs")
    names = p.player_names
    if (
        not isinstance(names, tuple)
        or len(names) != 2
        or not all(isinstance(n, str) and n.strip() for n in names)
        or names[0] == names[1]
    ):
        found.append("its player_names are not two different names")
    if not isinstance(p.examples, tuple) or not all(isinstance(e, str) for e in p.examples):
        found.append("its examples are not text")
    bound = p.max_game_length
    if bound is not None and not callable(bound) and not (isinstance(bound, int) and bound > 0):
        found.append("its max_game_length is not a positive whole number or a function")
    if not isinstance(p.options, tuple) or not all(isinstance(o, Option) for o in p.options):
        found.append("its options are not a tuple of Option")
    else:
        seen: set[str] = set()
        for o in p.options:
            found += [f"option {o.name!r}: {why}" for why in _option_problems(o, seen)]
    return found


def _option_problems(o: Option, seen: set[str]) -> Iterable[str]:
    if not isinstance(o.name, str) or not NAME.match(o.name):
        yield "the name is not lower-case letters, digits and _"
        return
    if o.name in seen:
        yield "declared twice"
    seen.add(o.name)
    if o.kind not in ("int", "bool", "choice", "ints"):
        yield f"kind {o.kind!r} is not int, bool, choice or ints"
        return
    if not isinstance(o.help, str):
        yield "its help is not text"
    if o.kind == "choice" and not (
        isinstance(o.choices, tuple) and o.choices and all(isinstance(c, str) for c in o.choices)
    ):
        yield "a choice with no choices"
        return
    if o.kind in ("int", "ints"):
        for bound in (o.low, o.high):
            if bound is not None and (isinstance(bound, bool) or not isinstance(bound, int)):
                yield "its bounds are not whole numbers"
                return
        if o.low is not None and o.high is not None and o.low > o.high:
            yield f"low {o.low} is above high {o.high}"
            return
    try:
        o.convert(o.default)
    except Exception as e:
        yield f"its default is not allowed: {e}"


class UnknownGame(LookupError):
    """A game name that no installed plugin registers."""

    def __init__(self, name: str) -> None:
        known = ", ".join(plugins()) or "none"
        super().__init__(f"no game {name[:30]!r} is installed; installed: {known}")


def _distribution(ep: Any) -> str:
    dist = getattr(ep, "dist", None)
    name = getattr(dist, "name", None) if dist is not None else None
    return str(name) if name else "an unknown distribution"


def _import(ep: Any) -> object:
    """``ep.load()`` with its output captured and whatever its import does caught
    (``sys.exit`` included): the plugin, or a PluginError saying what happened."""
    captured = io.StringIO()
    try:
        with contextlib.redirect_stdout(captured), contextlib.redirect_stderr(captured):
            return ep.load()
    except KeyboardInterrupt:
        raise
    except SystemExit as e:
        raise PluginError(f"its import called sys.exit({e.code!r})") from None
    except BaseException as e:
        missing = _missing_object(ep) if isinstance(e, AttributeError) else None
        raise PluginError(missing or f"its import failed: {_said(e)}") from None


def _missing_object(ep: Any) -> str | None:
    """What an entry point whose module imported but lacks the object it names says, else
    None (the AttributeError came from the module's own code)."""
    module, _, attr = str(getattr(ep, "value", "")).partition(":")
    obj = sys.modules.get(module.strip())
    if obj is None or not attr.strip():
        return None
    for part in attr.strip().split("."):
        if not hasattr(obj, part):
            value = one_line(f"{module.strip()}:{attr.strip()}", 80)
            return f"its entry point names {value}, and {one_line(part, 40)!r} is not there"
        obj = getattr(obj, part)
    return None


@functools.cache
def _loaded() -> tuple[dict[str, GamePlugin], tuple[str, ...]]:
    from importlib.metadata import entry_points

    found: dict[str, GamePlugin] = {}
    owner: dict[str, str] = {}
    outside: dict[str, str] = {}
    problems: list[str] = []
    # the built-in games first: a newcomer cannot take their names
    ordered = sorted(
        entry_points(group=ENTRY_POINT_GROUP),
        key=lambda e: (_distribution(e) != BUILT_IN, e.name, _distribution(e)),
    )
    for ep in ordered:
        dist = _distribution(ep)
        where = f"plugin {one_line(ep.name, 40)!r} (distribution {one_line(dist, 60)})"
        try:
            loaded = _import(ep)
        except PluginError as e:
            problems.append(one_line(f"{where} is left out: {e}"))
            continue
        if not isinstance(loaded, GamePlugin):
            problems.append(one_line(f"{where} is left out: it is not a GamePlugin"))
            continue
        wrong = problems_of(loaded)
        if wrong:
            problems.append(one_line(f"{where} is left out: {'; '.join(wrong)}"))
            continue
        if loaded.name in found:
            problems.append(
                one_line(
                    f"{where} is left out: the game name {loaded.name!r} is taken by "
                    f"{owner[loaded.name]}"
                )
            )
            continue
        found[loaded.name] = loaded
        owner[loaded.name] = dist
        if dist != BUILT_IN:  # where its code lives: the entry point's and the factory's
            for path in (str(getattr(ep, "module", "")), loaded.factory.partition(":")[0]):
                top = path.partition(".")[0]
                if top and top != _TOOLKIT:  # a factory may be one of the toolkit's
                    outside[top] = loaded.name
    _owners.clear()
    _owners.update(owner)
    _outside_packages.clear()
    _outside_packages.update(outside)
    return dict(sorted(found.items())), tuple(problems)


_owners: dict[str, str] = {}
_outside_packages: dict[str, str] = {}
"""The top-level packages of the games not built in (never the toolkit's own), and the
game of each."""
_TOOLKIT = __name__.partition(".")[0]


def innermost(error: BaseException, keep: Callable[[Any], bool]) -> TracebackType | None:
    """The innermost entry of ``error``'s traceback whose frame ``keep`` keeps (None:
    none); :func:`place` says where it is."""
    found = None
    tb = error.__traceback__
    while tb is not None:
        if keep(tb.tb_frame):
            found = tb
        tb = tb.tb_next
    return found


def place(tb: TracebackType) -> str:
    """``FILE, line N, in NAME`` of a traceback entry."""
    code = tb.tb_frame.f_code
    return f"{code.co_filename}, line {tb.tb_lineno}, in {code.co_name}"


def _game_of(frame: Any) -> str | None:
    """The outside game whose code ``frame`` runs (None: the toolkit's, or a library's)."""
    return _outside_packages.get(str(frame.f_globals.get("__name__", "")).partition(".")[0])


def blame(error: BaseException) -> str | None:
    """One line for an exception raised in an outside game's own code (its rules, its
    hooks), naming the game, its distribution and the innermost line of its code that the
    exception passed through; None if no frame of its traceback is a plugin's (a fault of
    the toolkit's own keeps its traceback)."""
    if isinstance(error, PluginError):
        return one_line(str(error))
    tb = innermost(error, lambda frame: _game_of(frame) is not None)
    if tb is None:
        return None
    game = _game_of(tb.tb_frame)
    said = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    return one_line(
        f"game {game!r} (distribution {_owners.get(str(game), 'unknown')}) failed in its "
        f"own code: {said} ({place(tb)})",
        2 * MESSAGE_LIMIT,
    )


def distribution(name: str) -> str:
    """The distribution that registers game ``name`` (``boardgames`` for a built-in)."""
    plugin(name)
    return _owners[name]


_warned = False


def plugins() -> dict[str, GamePlugin]:
    """Every installed game by name (sorted); a plugin that fails to load or to validate
    is reported once, one line on stderr, and left out."""
    global _warned
    found, problems = _loaded()
    if problems and not _warned:
        _warned = True
        for line in problems:
            if sys.stderr is not None:
                sys.stderr.write(f"Warning: {line}\n")
    return found


def load_problems() -> tuple[str, ...]:
    """The plugins left out and why (the lines :func:`plugins` writes on stderr)."""
    return _loaded()[1]


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


def reset() -> None:
    """Forget what was loaded (tests that install or break a plugin)."""
    global _warned
    _warned = False
    _loaded.cache_clear()
