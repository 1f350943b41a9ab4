"""Capabilities: the small optional protocols a game may offer beyond its rules.

Every two-player game implements :class:`boardgames.core.protocol.Game` (the rules, its
move notation ``format_move``/``parse_move`` and a text board ``render``). The rest is
optional; a game offers what it has, and a generic feature that needs a capability the
game lacks says so in one line (:func:`require`):

- :class:`PositionNotation`: a position as one string and back (``analyse GAME POSITION``,
  the web page's links). Without it, a position is written as the moves from the start;
- :class:`Drawing`: an SVG picture in which every legal move is an element carrying
  ``data-move="<the protocol move>"`` (the CLI's ``--svg``, Jupyter and the web page,
  where a click on such an element plays the move), with the last move and any
  :class:`Mark` (the best move, a hint, a winning line) drawn on it;
- :class:`ActionCodec`: action ids, a legal-action mask and an observation array, from
  which one PettingZoo, one Gymnasium and one OpenSpiel adapter serve every game;
- kernels and an exact solver: import paths in the game's plugin
  (:class:`boardgames.core.registry.GamePlugin`), since they load numba.

This module imports no game and no numba.
"""

from __future__ import annotations

import operator
import re
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from boardgames.core.protocol import Game, GameError, State, quote
from boardgames.core.registry import plugin_of


@runtime_checkable
class PositionNotation(Protocol):
    """A position as one line of text (Connect Four's ``4453``, Kalah's board)."""

    def parse_position(self, text: str) -> State:
        """The position ``text`` names; :class:`GameError` with one line if it names none."""
        ...

    def format_position(self, state: State) -> str:
        """``state`` as text that :meth:`parse_position` reads back."""
        ...


@runtime_checkable
class SizedPositions(Protocol):
    """A position notation whose text fixes some of the game's options (a board's size):
    ``analyse nim "7 7"`` then needs no ``--rows``."""

    def position_options(self, text: str) -> dict[str, Any]:
        """The option values the position ``text`` implies where they differ from this
        game's (Kalah's ``pits`` from the count of holes); ``{}`` when it implies none or
        is not a position (:meth:`PositionNotation.parse_position` then says why)."""
        ...


def game_for_position(
    spec: Any,
    game: Any,
    text: str,
    values: dict[str, Any] | None = None,
    given: Iterable[str] = (),
) -> Any:
    """``game`` (made by ``spec`` with the option ``values``), or the same game with the
    options that the position ``text`` implies (:class:`SizedPositions`); the options
    named in ``given`` (set by the user) are kept as they are. Without ``values`` they are
    read back from the game's attributes of the options' names."""
    if not text.strip() or not isinstance(game, SizedPositions):
        return game
    implied = {k: v for k, v in game.position_options(text).items() if k not in set(given)}
    if not implied:
        return game
    if values is None:
        values = {o.name: getattr(game, o.name) for o in spec.options if hasattr(game, o.name)}
    return spec.make(**{**values, **implied})


MARK_KINDS = ("best", "hint", "threat", "win", "arrow")
"""What a :class:`Mark` says: the best move, a hint, a threat, a won line, an arrow."""


@dataclass(frozen=True)
class Mark:
    """A move to highlight on a picture, and why (``kind``, one of :data:`MARK_KINDS`).

    ``move`` is a protocol move, or a tuple where the game says so (Kalah: a compound
    move's pits in order; Connect Four's ``win`` and ``threat``: board cells)."""

    move: int | tuple[int, ...]
    kind: str = "best"

    def __post_init__(self) -> None:
        if self.kind not in MARK_KINDS:
            raise GameError(f"no mark kind {self.kind!r}; the kinds: {', '.join(MARK_KINDS)}")
        move = self.move
        norm = tuple(map(int, move)) if isinstance(move, Iterable) else operator.index(move)
        object.__setattr__(self, "move", norm)

    @property
    def moves(self) -> tuple[int, ...]:
        """``move`` as a tuple (one element for a single move)."""
        return self.move if isinstance(self.move, tuple) else (self.move,)


@runtime_checkable
class Drawing(Protocol):
    """An SVG picture of a position. Every legal move is an element with ``data-move``
    (the protocol move), top-most at its centre so that a click there reaches it; what is
    drawn over it has ``pointer-events="none"``.

    ``last`` is the move played last (class ``last-move``), ``marks`` the moves to
    highlight (class ``mark mark-<kind>``), ``heading`` a title. A game adds optional
    keywords of its own (Nim's ``binary``, Kalah's ``before``)."""

    def svg(
        self,
        state: State,
        *,
        last: Any = None,
        marks: Sequence[Mark] = (),
        heading: str | None = None,
    ) -> str: ...


def as_marks(marks: Iterable[Mark | tuple[Any, str]]) -> tuple[Mark, ...]:
    """``marks`` as :class:`Mark` objects (a ``(move, kind)`` pair is one too)."""
    return tuple(m if isinstance(m, Mark) else Mark(*m) for m in marks)


def deprecated_keyword(game: str, old: str, new: str) -> None:
    """Warn that ``game.svg(old=...)`` is an old spelling of ``new``."""
    warnings.warn(
        f"{game}.svg({old}=...) is deprecated; use {new}", DeprecationWarning, stacklevel=3
    )


@runtime_checkable
class ActionCodec(Protocol):
    """Moves as action ids ``0 .. num_actions - 1`` and a position as an array, for learning
    agents. An action id means the same thing whoever moves (Kalah: the n-th pit of the
    mover's row), so one policy can play both sides."""

    @property
    def num_actions(self) -> int: ...

    @property
    def observation_shape(self) -> tuple[int, ...]: ...

    @property
    def observation_high(self) -> int:
        """The largest value an observation cell may hold (cells are >= 0)."""
        ...

    def action_of(self, state: State, move: int) -> int:
        """The action id of the legal ``move`` in ``state``."""
        ...

    def move_of(self, state: State, action: int) -> int | None:
        """The protocol move of ``action`` in ``state``, or None when it is not legal."""
        ...

    def observation(self, state: State, player: int) -> npt.NDArray[np.int64]:
        """``state`` seen by ``player`` (0 or 1), of shape :attr:`observation_shape`."""
        ...


CAPABILITIES = {
    "rules": "legal moves, play, outcome (the shared Game protocol)",
    "text": "a text board for the terminal",
    "notation": "moves as text and back",
    "position": "a position as one line of text and back",
    "svg": "an SVG picture whose legal moves can be clicked",
    "actions": "action ids, masks and observations (PettingZoo, Gymnasium, OpenSpiel)",
    "evaluation": "a heuristic evaluation for depth-limited search",
    "kernels": "numba rule kernels (the fast engine, MCTS, every strategy)",
    "solver": "an exact solver",
    "commands": "commands of its own (boardgames NAME ...)",
}
"""Each capability a game may offer, in a few words (``boardgames games`` shows them)."""


def capabilities(game: Any) -> list[str]:
    """The capabilities ``game`` offers, in the order of :data:`CAPABILITIES`."""
    found = []
    if isinstance(game, Game):
        found += ["rules", "text", "notation"]
    if isinstance(game, PositionNotation):
        found.append("position")
    if isinstance(game, Drawing):
        found.append("svg")
    if isinstance(game, ActionCodec):
        found.append("actions")
    if hasattr(game, "evaluate") and getattr(game, "has_evaluation", True):
        found.append("evaluation")
    spec = plugin_of(game)
    if spec.kernels:
        found.append("kernels")
    if spec.solver:
        found.append("solver")
    if spec.cli:
        found.append("commands")
    return found


class MissingCapability(GameError):
    """A generic feature asked a game for a capability it does not offer."""


def require(game: Any, name: str, feature: str) -> None:
    """Raise :class:`MissingCapability` (one line) unless ``game`` offers ``name``."""
    if name not in capabilities(game):
        raise MissingCapability(
            f"{game.name} lacks the '{name}' capability ({CAPABILITIES.get(name, name)}), "
            f"which {feature} needs"
        )


_SEPARATORS = re.compile(r"[\s,;]+")


def parse_position(game: Any, text: str) -> State:
    """The position ``text`` names: the game's own notation when it has one, else the
    moves from the start separated by spaces, commas or semicolons (``start`` or an empty
    text is the start position)."""
    if not text.strip():
        start: State = game.initial_state()
        return start
    if isinstance(game, PositionNotation):
        return game.parse_position(text)
    return parse_moves(game, text)[0]


def parse_moves(
    game: Any, text: str, *, commas: bool = False, start: State | None = None
) -> tuple[State, list[int]]:
    """The position reached by the moves ``text`` lists from the start (``start``, else
    the game's), and those moves (``start`` or an empty text: the start position, no
    moves). ``commas``: the moves are separated by commas only (a move's notation may hold
    a space: Nim's ``1 2, 3 1``)."""
    state: State = game.initial_state() if start is None else start
    parts = text.split(",") if commas else _SEPARATORS.split(text.strip())
    words = [w.strip() for w in parts if w.strip()]
    if words == ["start"]:
        return state, []
    moves: list[int] = []
    for i, word in enumerate(words, 1):
        if game.outcome(state) is not None:
            raise GameError(f"move {i} ({quote(word)}) comes after the end of the game")
        try:
            move = game.parse_move(word, state)
        except GameError as e:
            raise GameError(f"move {i} ({quote(word)}): {e}") from None
        moves.append(move)
        state, _ = game.play(state, move)
    return state, moves


def moves_of(game: Any, text: str) -> list[int] | None:
    """The moves from the start that ``text`` lists, when a position is written that way
    (a game without its own notation); None when the game's notation writes it."""
    if isinstance(game, PositionNotation):
        return None
    return parse_moves(game, text)[1]


def format_position(game: Any, state: State, moves: list[int] | None = None) -> str:
    """``state`` as text :func:`parse_position` reads: the game's own notation, else the
    ``moves`` that lead to it from the start (None: not writable, an empty string)."""
    if isinstance(game, PositionNotation):
        return game.format_position(state)
    if moves is None:
        return ""
    return " ".join(game.format_move(m) for m in moves) or "start"


def legal_mask(game: Any, state: State) -> npt.NDArray[np.int8]:
    """The legal-action mask of ``state`` (1 for each legal action) from the codec."""
    mask = np.zeros(game.num_actions, dtype=np.int8)
    for move in game.legal_moves(state):
        mask[game.action_of(state, move)] = 1
    return mask
