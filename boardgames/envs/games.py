"""Any registered game as the environments see it, free of PettingZoo, Gymnasium and
OpenSpiel: a :class:`Setup` (the game with its action codec, the reward, the opening)
made from one option set, checking options and actions (one-line ``ValueError``), final
rewards and the board as text.

The PettingZoo (:mod:`~boardgames.envs.aec`), Gymnasium (:mod:`~boardgames.envs.single`)
and OpenSpiel (:mod:`~boardgames.envs.spiel`) adapters are written once over a
:class:`Setup`; a game reaches them by offering the ``actions`` capability
(:class:`boardgames.core.capabilities.ActionCodec`) and registering its plugin.

**Options.** Every environment of a game takes the same options (:func:`setup`): the
game's plugin options (:class:`boardgames.core.registry.Option`, each checked by its
``convert``), the options every environment has (:func:`env_options`: ``reward``,
``opening``), and the adapter's own (``render_mode``; Gymnasium's ``opponent``,
``learner``, ``depth`` and ``start``).

**A game's extras.** A plugin may name in its ``envs`` field an :class:`EnvExtras`
(``"package.module:ENVS"``): what the adapters ask a game for beyond its rules. The
adapters read it in one place, :func:`extras`; a game without one gets the defaults.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt
from rich.console import Console

from boardgames.core.capabilities import capabilities, legal_mask, require
from boardgames.core.hooks import PROGRAM as PROGRAM
from boardgames.core.hooks import REWARDS as REWARDS
from boardgames.core.hooks import EnvExtras as EnvExtras
from boardgames.core.protocol import State
from boardgames.core.registry import GAME, Option, plugin, two_player
from boardgames.envs.boards import RGB, grid_rgb

PLAYERS = ("player_0", "player_1")
"""Agent names: ``player_0`` moves first (Kalah's A), ``player_1`` second."""
MAX_OPENING = 200
DEFAULT_MAX_GAME_LENGTH = 10_000
"""OpenSpiel's bound on a game's length for a game that declares none
(``max_game_length``); a longer game stops with an error rather than break the bound."""


NO_EXTRAS = EnvExtras()


def extras(name: str) -> EnvExtras:
    """Game ``name``'s :class:`EnvExtras` (its plugin's ``envs``), else the defaults; a
    plugin whose ``envs`` names something else is a one-line PluginError."""
    try:
        spec = plugin(name)
    except LookupError:
        return NO_EXTRAS
    return spec.env_extras() or NO_EXTRAS


def env_options(own: EnvExtras) -> tuple[Option, ...]:
    """The options every environment of a game with extras ``own`` takes beyond the
    game's plugin options."""
    return (
        Option(
            "reward",
            "choice",
            own.default_reward,
            "margin: the final margin; result: +1 win, 0 draw, -1 loss",
            choices=own.rewards,
        ),
        Option("opening", "int", 0, "random moves played at each reset", 0, MAX_OPENING),
    )


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
    number = int(action)
    return _HugeId(number) if abs(number) >= HUGE_ID else number


HUGE_ID = 10**18
"""Action ids at least this far from 0 are beyond every game's (and numpy's int64)."""


class _HugeId(int):
    """An absurd action id (thousands of digits): compares as itself, so every adapter
    refuses it as it refuses any other id out of range, but is written short (Python will
    not write an int of more than 4,300 digits as text, and the message would be pages)."""

    def __repr__(self) -> str:
        digits = math.floor(math.log10(2) * (abs(self).bit_length() - 1)) + 1
        return f"<{'a negative' if self < 0 else 'an'} integer of {digits:,}+ digits>"

    __str__ = __repr__


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
    ``draw``: the game's own picture of a state (its extras' ``rgb``), else
    :func:`~boardgames.envs.boards.grid_rgb`.
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


def plain(value: Any) -> Any:
    """A numpy scalar or array as the Python value an :class:`Option` reads."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    return value.item() if isinstance(value, np.generic) else value


def setup(name: str, options: Mapping[str, Any], adapter: Sequence[str] = ()) -> Setup:
    """The :class:`Setup` of registered game ``name`` from ``options``: its plugin's
    options and :func:`env_options`, each checked by its ``Option.convert``. One-line
    errors for an unknown game or option (listing the allowed ones, with the names of the
    ``adapter``'s own keywords), a bad value, a puzzle, or a game without action ids."""
    spec = plugin(name)
    if spec.kind != GAME:
        raise ValueError(f"{name} is a {spec.kind}, not a two-player game: it has no environment")
    own = extras(name)
    general = {o.name: o for o in env_options(own)}
    values = {key: plain(value) for key, value in options.items()}
    mine = [o.name for o in spec.options]
    unknown = sorted(set(values) - set(mine) - set(general))
    if unknown:
        allowed = ", ".join([*mine, *general, *adapter])
        raise ValueError(f"{name} has no option {unknown[0]!r}; its options: {allowed}")
    chosen = {
        key: o.default if values.get(key) is None else o.convert(values[key])
        for key, o in general.items()
    }
    game = spec.make(**{key: value for key, value in values.items() if key in mine})
    require(game, "actions", "a learning environment")
    return Setup(
        game,
        reward=chosen["reward"],
        max_margin=1 if own.max_margin is None else own.max_margin(game),
        opening=chosen["opening"],
        max_game_length=(
            spec.length_bound(game)  # the plugin's bound, else the game's attribute
            if own.max_game_length is None
            else own.max_game_length(game)
        ),
        draw=None if own.rgb is None else partial(own.rgb, game),
    )


def games_with(field: str) -> list[str]:
    """The games with action ids whose extras set ``field`` (``labeller``, ...)."""
    return [name for name in games_with_actions() if getattr(extras(name), field) is not None]


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
