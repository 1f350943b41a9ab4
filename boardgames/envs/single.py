"""Gymnasium environments: one learner against a fixed opponent, for any registered game
with action ids.

:class:`GameEnv` serves every such game. Its options are those of every environment of
the game (:func:`boardgames.envs.games.setup`: the game's plugin options, ``reward``,
``opening``), and

- ``opponent``: any player of the game (:func:`boardgames.core.players.find_player`):
  ``random`` (drawn from the environment's seeded generator), ``easy``, ``medium``,
  ``strong``, ``perfect``, ``depth=N``, ``time=S`` and the game's own (Kalah's
  ``classic``, ``tseitin``, ``depth=5,eval=store``, ...; Nim's ``bouton``); ``program``
  is the player ``depth=N`` with N the ``depth`` option (1-6, default 2). The default is
  the game's (its extras' ``default_opponent``: Kalah ``classic``, Nim ``bouton``), else
  ``program``;
- ``learner``: ``first``, ``second`` or ``random`` (drawn at each reset);
- ``start``: ``initial``, or ``random`` for a game whose extras draw random positions
  (Nim); ``render_mode``: ``ansi`` or ``rgb_array``.

The id ``boardgames/<Name>-v0`` (``Kalah-v0``, ``Nim-v0``, ``Connect4-v0`` ...) makes a
``<Name>Env`` (:func:`env_class`, a :class:`GameEnv`) through :func:`environment`, with
the same options.

One ``step`` is one move of the learner (after an extra turn the learner acts again); the
opponent's replies (its whole turn) are played inside the step and listed, as action ids
from the opponent's side, in ``info["opponent_moves"]``. The observation is the game's
observation for the learner, ``info["action_mask"]`` the int8 mask of its legal actions.
The reward is 0 until the game ends, then the ``reward`` of the learner, and
``info["margin"]`` its final margin. An illegal action (any integer that is not a legal
action id) ends the episode with the lowest reward and ``info["illegal"] = True``; an
action that is not an integer id, and a step after the end, are a ``ValueError`` (the
latter says to reset). A reset that would start a finished episode is a ``ValueError``.
Importing this module registers the Gymnasium ids.
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

import numpy as np

from boardgames.core.players import Player, find_player
from boardgames.core.protocol import State
from boardgames.envs.games import (
    PROGRAM,
    Setup,
    action_id,
    check_choice,
    check_int,
    extras,
    games_with_actions,
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
``random_state`` extra, the learner to move."""
RESET_TRIES = 20
"""Resets tried (sides, openings and random replies drawn anew) before refusing a board
on which the game ends before the learner moves."""
OWN_KEYWORDS = ("render_mode", "opponent", "learner", "depth", "start")
"""The Gymnasium environment's own options (listed when an option is unknown)."""


class GameEnv(gymnasium.Env):  # type: ignore[misc]
    """The learner against an opponent on any game with action ids (module docstring).

    ``game``: a registered game's name with its ``options``
    (:func:`~boardgames.envs.games.setup`) or a ready :class:`~boardgames.envs.games.Setup`
    of a registered game.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 2}  # noqa: RUF012

    def __init__(
        self,
        game: str | Setup,
        *,
        opponent: str | None = None,
        learner: str = "first",
        depth: int = 2,
        start: str = "initial",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if isinstance(game, Setup):
            if options:
                raise ValueError("give a Setup or a game name with options, not both")
            self.setup = game
        else:
            self.setup = setup(game, options, adapter=OWN_KEYWORDS)
        self.game: Any = self.setup.game
        own = extras(self.setup.name)
        self.learner_option = check_choice("learner", learner, SIDES)
        self.opponent_spec = self.player_spec(
            own.default_opponent if opponent is None else opponent, check_int("depth", depth, 1, 6)
        )
        self.opponent: Player = self.find_opponent(None)
        self.start = check_choice("start", start, STARTS)
        self.random_state = own.random_state
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

    @staticmethod
    def player_spec(opponent: object, depth: int) -> str:
        """The player spec the ``opponent`` option names (``program``: ``depth=N``)."""
        if not isinstance(opponent, str):
            raise ValueError(f"opponent must be a player's name or spec, got {opponent!r}")
        return f"depth={depth}" if opponent.strip() == PROGRAM else opponent

    def find_opponent(self, seed: int | None) -> Player:
        """The opponent, :func:`~boardgames.core.players.find_player`'s player of
        :attr:`opponent_spec` (a random one drawing from ``seed``); one-line ValueError."""
        try:
            return find_player(self.game, self.opponent_spec, seed=seed)
        except ValueError as e:
            raise ValueError(f"opponent: {e}") from None

    def first_state(self) -> State:
        """The position an episode starts from, before the opponent's first replies."""
        if self.random_state is not None and self.start == "random":
            return self.random_state(self.game, self.np_random, self.side)
        return self.setup.first_state(self.np_random)

    def _reply(self) -> list[int]:
        """The opponent moves until the learner is to move or the game is over; its moves
        as action ids."""
        actions: list[int] = []
        game = self.game
        while game.outcome(self.state) is None and game.to_move(self.state) != self.side:
            mover = game.to_move(self.state)
            moves = self.opponent.choose(game, self.state).moves()
            if not moves:
                raise RuntimeError(f"the opponent {self.opponent.name} chose no move")
            for move in moves:
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
        # a new player each episode, a random one drawing from the seeded generator
        self.opponent = self.find_opponent(int(self.np_random.integers(2**63)))
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


class NamedEnv(GameEnv):
    """The environment of one game, named in ``game_name`` (:func:`env_class` makes one
    subclass a game), taking the same options as :class:`GameEnv`."""

    game_name: ClassVar[str]

    def __init__(self, **options: Any) -> None:
        super().__init__(self.game_name, **options)


_CLASSES: dict[str, type[NamedEnv]] = {}


def env_class(name: str) -> type[NamedEnv]:
    """The class of the id ``boardgames/<Name>-v0``, ``<Name>Env`` in this module (made
    once; it pickles by that name)."""
    if name not in _CLASSES:
        attributes = {
            "game_name": name,
            "__module__": __name__,
            "__doc__": f"{name} against an opponent (its Gymnasium id).",
        }
        cls = type(f"{title(name)}Env", (NamedEnv,), attributes)
        _CLASSES[name] = cast("type[NamedEnv]", cls)
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
