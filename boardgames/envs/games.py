"""Any registered game as the environments see it, free of PettingZoo, Gymnasium and
OpenSpiel: a :class:`Setup` (the game with its action codec, the reward, the opening),
checking options and actions (one-line ``ValueError``), final rewards and the board as text.

The PettingZoo (:mod:`~boardgames.envs.aec`), Gymnasium (:mod:`~boardgames.envs.single`)
and OpenSpiel (:mod:`~boardgames.envs.spiel`) adapters are written once over a
:class:`Setup`; a game reaches them by offering the ``actions`` capability
(:class:`boardgames.core.capabilities.ActionCodec`) and registering its plugin.

**A game's extras.** A plugin may name, in its ``envs`` field, a module of the game with
what the adapters ask a game for beyond its rules. Every name is optional, and the module
imports no learning library (each adapter reads it, with only its own library loaded):

- ``rgb(game, state) -> RGB``: the game's picture for ``render_mode="rgb_array"`` (else
  :func:`~boardgames.envs.boards.grid_rgb`);
- ``setup(**options) -> Setup``: the game's own environment options, one-line
  ``ValueError`` when bad. The module ``boardgames.envs.<name>_v0`` (when the package
  has one), the Gymnasium id ``boardgames/<Name>-v0`` and the OpenSpiel game
  ``python_boardgames_<name>`` take them instead of the plugin's options (Kalah and Nim
  keep theirs from before the registry this way); :func:`boardgames.envs.make` always
  takes the plugin's;
- ``SPIEL_PARAMETERS``: the defaults (int, bool or str) of the OpenSpiel parameters,
  passed to ``setup``;
- ``OPPONENT``: the Gymnasium opponent by default (else ``program``);
- ``opponent(spec, depth) -> Opponent | None``: the game's own Gymnasium opponents (an
  :class:`Opponent`); None for the generic ones, :data:`OPPONENTS`; a one-line
  ``ValueError`` for a spec it refuses;
- ``random_state(game, rng, mover) -> State``: a random position with ``mover`` to move,
  for the Gymnasium option ``start="random"``;
- ``labeller(game) -> Labeller``: exact labels of positions, for
  :class:`~boardgames.envs.labels.PerfectPlayLoss`.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from types import ModuleType
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
from rich.console import Console

from boardgames.core.capabilities import capabilities, legal_mask, require
from boardgames.core.protocol import State
from boardgames.core.registry import GAME, plugin, two_player
from boardgames.envs.boards import RGB, grid_rgb

PLAYERS = ("player_0", "player_1")
"""Agent names: ``player_0`` moves first (Kalah's A), ``player_1`` second."""
REWARDS = ("margin", "result")
"""``margin``: the final margin (Kalah: in stones); ``result``: +1 win, 0 draw, -1 loss."""
OPPONENTS = ("program", "random")
"""The Gymnasium opponents every game has (a game's ``opponent`` hook adds its own)."""
MAX_OPENING = 200
DEFAULT_MAX_GAME_LENGTH = 10_000
"""OpenSpiel's bound on a game's length for a game that declares none
(``max_game_length``); a longer game stops with an error rather than break the bound."""


class Opponent(Protocol):
    """A Gymnasium opponent: its next moves (protocol moves, played in order) in ``state``."""

    def __call__(self, game: Any, state: State, rng: np.random.Generator) -> Sequence[int]: ...


def check_int(name: str, value: object, lo: int, hi: int) -> int:
    """``value`` as an int in ``lo..hi``, else a one-line ValueError with the range."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise ValueError(f"{name} must be a whole number from {lo} to {hi}, got {value!r}")
    if not lo <= int(value) <= hi:
        raise ValueError(f"{name} must be from {lo} to {hi}, got {value}")
    return int(value)


def check_choice(name: str, value: object, allowed: Sequence[str]) -> str:
    """``value`` if it is one of ``allowed``, else a one-line ValueError listing them."""
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(allowed)}, got {value!r}")
    return value


def action_id(action: object) -> int:
    """``action`` as an int: an ``int``, a numpy integer or a 0-d integer array. Anything
    else (a float, even a whole one, text, None, a bool) is a one-line ValueError: an
    action is never rounded or parsed."""
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action[()]
    if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
        shown = repr(action)
        shown = shown if len(shown) <= 30 else shown[:30] + "..."
        raise ValueError(
            f"an action is an integer id (int or numpy integer), got {shown} "
            f"of type {type(action).__name__}"
        )
    return int(action)


def random_opening(game: Any, rng: np.random.Generator, plies: int) -> State:
    """The start position after ``plies`` random moves drawn from ``rng`` (fewer if the next
    one would end the game)."""
    state: State = game.initial_state()
    for _ in range(plies):
        legal = game.legal_moves(state)
        if not legal:
            break
        child, _ = game.play(state, int(legal[int(rng.integers(len(legal)))]))
        if game.outcome(child) is not None:
            break
        state = child
    return state


def board_text(game: Any, state: State, names: Sequence[str] = PLAYERS) -> str:
    """The game's own board (its rich ``render``) as plain text, then who moves or how
    the game ended."""
    console = Console(file=io.StringIO(), width=100, color_system=None, highlight=False)
    with console.capture() as captured:
        console.print(game.render(state))
    margin = game.outcome(state)
    mover = game.to_move(state)
    if margin is None:
        status = f"{names[mover]} to move"
    elif margin == 0:
        status = "game over: a draw"
    else:
        status = f"game over: {names[mover if margin > 0 else 1 - mover]} wins"
    return f"{captured.get().rstrip()}\n{status}"


@dataclass(frozen=True)
class Setup:
    """A game with the action codec as an environment plays it.

    ``reward``: ``result`` (+1/0/-1) or ``margin`` (the game's final margin, which lies in
    ``-max_margin..max_margin``). ``opening``: random moves played at each reset.
    ``max_game_length``: a proven bound on a game's moves (OpenSpiel needs one).
    ``draw``: the game's own picture of a state, else
    :func:`~boardgames.envs.boards.grid_rgb` (:func:`setup` and :func:`own_setup` fill it
    from the game's ``rgb`` hook).
    """

    game: Any
    reward: str = "result"
    max_margin: int = 1
    opening: int = 0
    max_game_length: int | None = None
    draw: Callable[[State], RGB] | None = None

    @property
    def name(self) -> str:
        return str(self.game.name)

    @property
    def low(self) -> float:
        """The lowest reward (an illegal move's penalty)."""
        return -float(self.max_margin) if self.reward == "margin" else -1.0

    def first_state(self, rng: np.random.Generator) -> State:
        """The position a reset starts from; a ValueError if the game is already over."""
        state = random_opening(self.game, rng, self.opening)
        if self.game.outcome(state) is not None:
            raise ValueError(f"{self.name}: this game is over before its first move")
        return state

    def margin(self, state: State, player: int) -> int:
        """The final margin of a finished game for ``player``."""
        margin = self.game.outcome(state)
        assert margin is not None, "the game is not over"
        return int(margin) if self.game.to_move(state) == player else -int(margin)

    def reward_of(self, state: State, player: int) -> float:
        """``player``'s reward in a finished game."""
        margin = self.margin(state, player)
        return float(margin) if self.reward == "margin" else float(np.sign(margin))

    def mask(self, state: State, player: int | None = None) -> npt.NDArray[np.int8]:
        """The legal actions (int8); all 0 when it is not ``player``'s turn."""
        if player is not None and self.game.to_move(state) != player:
            return np.zeros(self.game.num_actions, dtype=np.int8)
        return legal_mask(self.game, state)

    def legal_text(self, state: State) -> str:
        return ", ".join(map(str, np.flatnonzero(self.mask(state)))) or "none"

    def text(self, state: State) -> str:
        return board_text(self.game, state)

    def picture(self, state: State) -> RGB:
        return self.draw(state) if self.draw is not None else grid_rgb(self.game, state)


def setup(name: str, options: dict[str, Any], *, opening: int = 0) -> Setup:
    """The :class:`Setup` of registered game ``name`` with its plugin's ``options`` (each
    checked by its :class:`~boardgames.core.registry.Option`): one-line errors for an
    unknown game or option, a bad value, a puzzle, or a game without action ids."""
    spec = plugin(name)
    if spec.kind != GAME:
        raise ValueError(f"{name} is a {spec.kind}, not a two-player game: it has no environment")
    game = spec.make(**options)
    require(game, "actions", "a learning environment")
    board = Setup(
        game,
        opening=check_int("opening", opening, 0, MAX_OPENING),
        max_game_length=getattr(game, "max_game_length", None),
    )
    return with_picture(board)


def own_setup(name: str, options: dict[str, Any]) -> Setup:
    """The :class:`Setup` of registered game ``name`` from the options its ``<name>_v0``
    module, Gymnasium id and OpenSpiel game take: those of its extras' ``setup`` hook (an
    unknown one is a one-line ValueError listing them) when it has one, else the plugin's
    options and ``opening`` (:func:`setup`)."""
    own = hook(name, "setup")
    if own is None:
        rest = dict(options)
        return setup(name, rest, opening=rest.pop("opening", 0))
    params = inspect.signature(own).parameters
    if not any(p.kind == p.VAR_KEYWORD for p in params.values()):
        unknown = sorted(set(options) - set(params))
        if unknown:
            known = ", ".join(params) or "none"
            raise ValueError(f"{name} has no option {unknown[0]!r}; its options: {known}")
    board = own(**options)
    if not isinstance(board, Setup):
        raise TypeError(f"{name}'s setup hook returned {type(board).__name__}, not a Setup")
    return with_picture(board)


def with_picture(board: Setup) -> Setup:
    """``board`` drawn by its game's ``rgb`` hook when it has one and no ``draw`` yet."""
    if board.draw is not None:
        return board
    rgb = hook(board.name, "rgb")
    return board if rgb is None else dataclasses.replace(board, draw=partial(rgb, board.game))


def extras(name: str) -> ModuleType | None:
    """The module of game ``name``'s environment extras (its plugin's ``envs``), or None
    when it has none or ``name`` is not registered (module docstring)."""
    try:
        path = plugin(name).envs
    except LookupError:
        return None
    return None if path is None else importlib.import_module(path)


def hook(name: str, attr: str) -> Any:
    """``attr`` of game ``name``'s extras (module docstring), or None."""
    module = extras(name)
    return None if module is None else getattr(module, attr, None)


def games_with(attr: str) -> list[str]:
    """The games with action ids whose extras define ``attr``."""
    return [name for name in games_with_actions() if hook(name, attr) is not None]


def games_with_actions() -> list[str]:
    """The registered two-player games that offer action ids (every environment serves
    them), by name; a game whose default setup fails is left out."""
    names = []
    for name, spec in two_player().items():
        try:
            game = spec.make()
        except Exception:  # a broken plugin is reported by the registry, not here
            continue
        if "actions" in capabilities(game):
            names.append(name)
    return names


def title(name: str) -> str:
    """``kalah`` -> ``Kalah``: the name in Gymnasium ids and class names."""
    return name[:1].upper() + name[1:]
