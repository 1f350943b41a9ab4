"""Gymnasium environments: one learner against a fixed opponent, for any registered game
with action ids.

:class:`GameEnv` serves every such game. Its options: the game's plugin options, and

- ``opponent``: ``program`` (a short alpha-beta search of ``depth`` moves,
  :func:`boardgames.core.search.alphabeta_tt`, pure Python, on the game's evaluation) or
  ``random``; a game's extras (:mod:`boardgames.envs.games`) add their own and may name
  another default (Kalah: any ``kalah match`` player spec, default ``classic``; Nim:
  ``bouton``, the default);
- ``learner``: ``first``, ``second`` or ``random`` (drawn at each reset);
- ``depth`` (1-6, default 2), ``opening`` (random moves at each reset), ``start``
  (``initial``, or ``random`` for a game whose extras draw random positions: Nim),
  ``render_mode`` (``ansi`` or ``rgb_array``).

The id ``boardgames/<Name>-v0`` (``Kalah-v0``, ``Nim-v0``, ``Connect4-v0`` ...) makes a
``<Name>Env`` (:func:`env_class`, a :class:`GameEnv`) through :func:`environment`; its
options are the same, except that a game whose extras have a ``setup`` hook takes that
hook's options instead of the plugin's (Kalah's and Nim's from before the registry:
Kalah's those of :mod:`~boardgames.envs.kalah_v0`, with margin rewards).

One ``step`` is one move of the learner (after an extra turn the learner acts again); the
opponent's replies are played inside the step and listed, as action ids from the
opponent's side, in ``info["opponent_moves"]``. The observation is the game's observation
for the learner, ``info["action_mask"]`` the int8 mask of its legal actions. The reward is
0 until the game ends, then +1/0/-1 (Kalah: the margin unless ``reward="result"``), and
``info["margin"]`` the learner's final margin. An illegal action (any integer that is not
a legal action id) ends the episode with the lowest reward and ``info["illegal"] = True``;
an action that is not an integer id, and a step after the end, are a ``ValueError`` (the
latter says to reset). A reset that would start a finished episode is a ``ValueError``.
Importing this module registers the Gymnasium ids.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, cast

import numpy as np

from boardgames.core.capabilities import require as require_capability
from boardgames.core.protocol import State
from boardgames.core.search import alphabeta_tt
from boardgames.envs.games import (
    OPPONENTS,
    Opponent,
    Setup,
    action_id,
    check_choice,
    check_int,
    games_with_actions,
    hook,
    own_setup,
    setup,
    title,
)
from boardgames.envs.libs import register_gymnasium, require

require("gymnasium")
import gymnasium  # noqa: E402
from gymnasium import spaces  # noqa: E402

RENDER_MODES = ("ansi", "rgb_array")
SIDES = ("first", "second", "random")
"""Which side the learner plays: first (Kalah's A), second (B), or drawn at each reset."""
STARTS = ("initial", "random")
"""``initial``: the game's start (after ``opening`` random moves); ``random``: the game's
``random_state`` hook, the learner to move."""
RESET_TRIES = 20
"""Resets tried (sides, openings and random replies drawn anew) before refusing a board
on which the game ends before the learner moves."""


@dataclass(frozen=True)
class RandomOpponent:
    """A uniformly random legal move."""

    def __call__(self, game: Any, state: State, rng: np.random.Generator) -> Sequence[int]:
        legal = game.legal_moves(state)
        return [legal[int(rng.integers(len(legal)))]]


@dataclass(frozen=True)
class SearchOpponent:
    """The best move of a ``depth``-move alpha-beta search on the game's evaluation."""

    depth: int

    def __call__(self, game: Any, state: State, rng: np.random.Generator) -> Sequence[int]:
        best = alphabeta_tt(game, state, self.depth).best_move
        return [game.legal_moves(state)[0] if best is None else best]


class GameEnv(gymnasium.Env):  # type: ignore[misc]
    """The learner against an opponent on any game with action ids (module docstring).

    ``game``: a registered game's name (``options`` are then its plugin's options) or a
    ready :class:`~boardgames.envs.games.Setup`.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 2}  # noqa: RUF012

    def __init__(
        self,
        game: str | Setup,
        *,
        opponent: Any = None,
        learner: str = "first",
        depth: int = 2,
        opening: int = 0,
        start: str = "initial",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if isinstance(game, Setup):
            if options or opening:
                raise ValueError("give a Setup or a game name with options, not both")
            self.setup = game
        else:
            self.setup = setup(game, options, opening=opening)
        self.game: Any = self.setup.game
        self.learner_option = check_choice("learner", learner, SIDES)
        if opponent is None:
            opponent = hook(self.setup.name, "OPPONENT") or "program"
        self.opponent: Opponent = self.make_opponent(opponent, check_int("depth", depth, 1, 6))
        self.start = check_choice("start", start, STARTS)
        self.random_state = hook(self.setup.name, "random_state")
        if self.start == "random" and self.random_state is None:
            raise ValueError(f"{self.setup.name} has no random start: start must be initial")
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(
            low=0,
            high=self.game.observation_high,
            shape=self.game.observation_shape,
            dtype=np.int64,
        )
        self.action_space = spaces.Discrete(self.game.num_actions)
        self.state: State = self.game.initial_state()
        self.side = 0
        self.over = True  # until reset

    def make_opponent(self, spec: Any, depth: int) -> Opponent:
        """The opponent ``spec`` names: the game's own (its ``opponent`` hook), ``program``
        or ``random``."""
        own = hook(self.setup.name, "opponent")
        found = None if own is None else own(spec, depth)
        if found is not None:
            return cast(Opponent, found)
        if spec == "random":
            return RandomOpponent()
        if spec == "program":
            require_capability(self.game, "evaluation", "the program opponent")
            return SearchOpponent(depth)
        raise ValueError(f"opponent must be one of {', '.join(OPPONENTS)}, got {spec!r}")

    def first_state(self) -> State:
        """The position an episode starts from, before the opponent's first replies."""
        if self.start == "random":
            return cast(State, self.random_state(self.game, self.np_random, self.side))
        return self.setup.first_state(self.np_random)

    def _reply(self) -> list[int]:
        """The opponent moves until the learner is to move or the game is over; its moves
        as action ids."""
        actions: list[int] = []
        game = self.game
        while game.outcome(self.state) is None and game.to_move(self.state) != self.side:
            mover = game.to_move(self.state)
            for move in self.opponent(game, self.state, self.np_random):
                if game.outcome(self.state) is not None or game.to_move(self.state) != mover:
                    break
                actions.append(game.action_of(self.state, move))
                self.state, _ = game.play(self.state, move)
        return actions

    def _obs(self) -> np.ndarray:
        return np.asarray(self.game.observation(self.state, self.side))

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"action_mask": self.setup.mask(self.state, self.side), **extra}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        for _ in range(RESET_TRIES):
            self.side = (
                int(self.np_random.integers(2))
                if self.learner_option == "random"
                else SIDES.index(self.learner_option)
            )
            self.state = self.first_state()
            replies = self._reply()
            if self.game.outcome(self.state) is None:
                break
        else:
            raise ValueError(
                f"{self.setup.name}: on this board the game ends before the learner moves"
            )
        self.over = False
        return self._obs(), self._info(opponent_moves=replies, side=self.side)

    def step(self, action: object) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.over:
            raise ValueError("no episode is under way (over or not begun): call reset()")
        number = action_id(action)
        in_range = 0 <= number < self.game.num_actions
        move = self.game.move_of(self.state, number) if in_range else None
        if move is None:
            self.over = True
            legal = np.flatnonzero(self.setup.mask(self.state)).tolist()
            return self._obs(), self.setup.low, True, False, self._info(illegal=True, legal=legal)
        self.state, _ = self.game.play(self.state, move)
        replies = self._reply()
        if self.game.outcome(self.state) is None:
            return self._obs(), 0.0, False, False, self._info(opponent_moves=replies)
        self.over = True
        margin = self.setup.margin(self.state, self.side)
        info = self._info(opponent_moves=replies, margin=margin)
        return self._obs(), self.setup.reward_of(self.state, self.side), True, False, info

    def render(self) -> str | np.ndarray | None:
        if self.render_mode == "ansi":
            return self.setup.text(self.state)
        if self.render_mode == "rgb_array":
            return self.setup.picture(self.state)
        return None


class OwnOptionsEnv(GameEnv):
    """A game with the options its Gymnasium id takes (its extras' ``setup`` hook, else the
    plugin's): :func:`env_class` makes one subclass a game, naming it in ``game_name``."""

    game_name: ClassVar[str]

    def __init__(
        self,
        *,
        opponent: Any = None,
        learner: str = "first",
        depth: int = 2,
        start: str = "initial",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__(
            own_setup(self.game_name, options),
            opponent=opponent,
            learner=learner,
            depth=depth,
            start=start,
            render_mode=render_mode,
        )


_CLASSES: dict[str, type[OwnOptionsEnv]] = {}


def env_class(name: str) -> type[OwnOptionsEnv]:
    """The class of the id ``boardgames/<Name>-v0``, ``<Name>Env`` in this module (made
    once; it pickles by that name)."""
    if name not in _CLASSES:
        attributes = {
            "game_name": name,
            "__module__": __name__,
            "__doc__": f"{name} against an opponent, with the options of its Gymnasium id.",
        }
        cls = type(f"{title(name)}Env", (OwnOptionsEnv,), attributes)
        _CLASSES[name] = cast("type[OwnOptionsEnv]", cls)
    return _CLASSES[name]


def environment(game: str, **options: Any) -> GameEnv:
    """The environment of the id ``boardgames/<Name>-v0`` (:func:`env_class`)."""
    return env_class(game)(**options)


def __getattr__(attr: str) -> Any:
    """``<Name>Env``: the class of a registered game's Gymnasium id (:func:`env_class`)."""
    for name in games_with_actions() if attr.endswith("Env") else ():
        if f"{title(name)}Env" == attr:
            return env_class(name)
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")


register_gymnasium()
