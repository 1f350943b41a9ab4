"""Players: named move choosers, the one idea of "an opponent" in the toolkit.

A player chooses the move (or, where the same side moves again, the whole turn) of the
side to move. ``boardgames play GAME --first/--second``, the web page's player menus,
``compare``/``match`` and the learning environments' ``opponent=`` all take a player by
name from :func:`find_player`.

Every two-player game has the generic players:

- ``random``: a legal move drawn uniformly (seeded: repeatable);
- the program levels ``easy``, ``medium``, ``strong`` and ``perfect``
  (:data:`boardgames.core.engine.LEVELS`, :func:`boardgames.core.engine.think`: the
  game's exact solver first where it has one, then the fastest search it has);
- ``depth=N`` and ``time=S``: the program searching exactly N plies, or S seconds a move.

A game adds players of its own through its plugin's ``players`` path, an object of
:class:`GamePlayers`: named players (Kalah's ``classic``, ``tseitin`` and ``rechenberg``;
Nim's ``bouton``), stronger programs under a generic level's name (a game's own entry
replaces the generic one), and specs of its own (Kalah's ``depth=5,eval=store``).

This module imports no game and no numba.
"""

from __future__ import annotations

import random as _random
from dataclasses import dataclass, field
from typing import Any

from boardgames.core.engine import LEVELS, Answer, think
from boardgames.core.hooks import PROGRAM
from boardgames.core.hooks import GamePlayers as GamePlayers
from boardgames.core.hooks import Player as Player
from boardgames.core.hooks import Stop as Stop
from boardgames.core.protocol import THINK_SECONDS, Game, GameError, State, quote
from boardgames.core.registry import plugin_of


@dataclass(frozen=True)
class Level:
    """The generic program at one level (:func:`boardgames.core.engine.think`)."""

    name: str
    description: str
    seconds: float | None = None
    depth: int | None = None

    def choose(self, game: Any, state: State, *, stop: Stop = None) -> Answer:
        return think(game, state, seconds=self.seconds, depth=self.depth, stop=stop)


@dataclass
class RandomPlayer:
    """A legal move drawn uniformly at random; the same ``seed`` draws the same moves."""

    seed: int | None = None
    name: str = "random"
    description: str = "a legal move drawn at random"
    uses_kernels: bool = False
    _rng: _random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._rng = _random.Random(self.seed)

    def choose(self, game: Any, state: State, *, stop: Stop = None) -> Answer:
        moves = game.legal_moves(state)
        if not moves:
            raise GameError("the game is over: there is no move to find")
        move = moves[self._rng.randrange(len(moves))]
        return Answer(move, 0, False, 0, 0, 0.0, "random", [move])


def level_description(name: str) -> str:
    """A level in plain words: ``3 plies``, ``1 s a move, the exact solver first``."""
    level = LEVELS[name]
    if level["depth"] is not None:
        plies = level["depth"]
        return f"the program searching {plies} {'ply' if plies == 1 else 'plies'} deep"
    return f"the program thinking {level['seconds']:g} s a move (the exact solver first)"


def generic_players(seed: int | None = None) -> dict[str, Player]:
    """The players every two-player game has: ``random``, the program levels and
    ``program`` (the strong level)."""
    found: dict[str, Player] = {"random": RandomPlayer(seed)}
    for name, level in LEVELS.items():
        found[name] = Level(name, level_description(name), level["seconds"], level["depth"])
    strong = LEVELS["strong"]
    found[PROGRAM] = Level(
        PROGRAM, "the program at the strong level", strong["seconds"], strong["depth"]
    )
    return found


def own_players(game: Any) -> GamePlayers | None:
    """The game's own :class:`GamePlayers` (its plugin's ``players``), or None."""
    return plugin_of(game).game_players()


def players(game: Game, seed: int | None = None) -> dict[str, Player]:
    """Every named player of ``game``: the generic ones, then the game's own (which
    replace a generic one of the same name). ``program`` is the ``strong`` level (the
    program ``play`` gives a side by default): the game's own ``strong`` where it has one
    and no ``program`` of its own."""
    found = generic_players(seed)
    own = own_players(game)
    if own is not None:
        mine = own.named(game)
        found.update(mine)
        if "strong" in mine and PROGRAM not in mine:
            found[PROGRAM] = mine["strong"]
    return found


def _generic_spec(text: str) -> Player | None:
    """``depth=N`` or ``time=S`` (the program with that limit), else None."""
    key, sep, value = text.partition("=")
    if not sep or key.strip() not in ("depth", "time"):
        return None
    value = value.strip()
    if key.strip() == "depth":
        if not (value.isascii() and value.isdigit()) or not 1 <= int(value) <= 60:
            raise GameError(
                f"depth= takes a whole number of plies from 1 to 60, got {quote(value)}"
            )
        plies = int(value)
        return Level(text, f"the program searching {plies} plies deep", None, plies)
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    low, high = THINK_SECONDS
    if not low <= seconds <= high:
        raise GameError(f"time= takes seconds from {low:g} to {high:g}, got {quote(value)}")
    return Level(text, f"the program thinking {seconds:g} s a move", seconds, None)


def find_player(game: Game, text: str, *, seed: int | None = None) -> Player:
    """The player ``text`` names for ``game``: a name of :func:`players`, a spec of the
    game's own, or ``depth=N`` / ``time=S``; GameError (one line, listing the names) if
    none."""
    word = text.strip()
    named = players(game, seed)
    if word.lower() in named:
        return named[word.lower()]
    own = own_players(game)
    if own is not None:
        found = own.parse(game, word)
        if found is not None:
            return found
    generic = _generic_spec(word)
    if generic is not None:
        return generic
    raise GameError(
        f"no player {quote(word)} for {game.name}; players: {', '.join(named)}, "
        "or depth=N, time=SECONDS"
    )


def player_names(game: Game) -> list[str]:
    """The names :func:`find_player` knows for ``game`` (for help texts and menus)."""
    return list(players(game))
