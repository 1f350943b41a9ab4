"""Gymnasium's vector API on the batched kernels: ``gymnasium.make_vec("boardgames/<Name>-v0",
num_envs=n, vectorization_mode="vector_entry_point")`` is a :class:`BatchVectorEnv`.

``n`` learners, each against the opponent in its own game, stepped together by
:class:`boardgames.envs.batch.BatchEnv`. The options are the single environment's
(:mod:`boardgames.envs.single`: the game's, ``reward``, ``opening``, ``opponent``,
``learner``, ``depth``) and the batch's ``parallel``. ``opponent="random"`` plays in numpy
(uniform over the legal actions, from the generator ``reset(seed=...)`` seeds); any other
player (:func:`boardgames.core.players.find_player`: ``program``, ``depth=N``, Kalah's
``classic``, Nim's ``bouton`` ...) chooses its moves in Python, game by game (right, and
as fast as that player). The opponent plays its whole turn inside ``step``.

What a step returns: the learners' observations ``(n, *shape)``, rewards ``(n,)`` (the
learner's, at the end of a game), terminated and truncated ``(n,)``; ``info``:
``action_mask`` ``(n, A)`` int8, ``illegal`` ``(n,)`` bool, ``margin`` ``(n,)``. A finished
game restarts in the same step (``AutoresetMode.SAME_STEP``): ``info["final_obs"]`` holds
its last observation where ``info["_final_obs"]`` is set. An illegal action ends that game
with the lowest reward, as the single environment does.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from boardgames.core.players import Player, find_player
from boardgames.envs.batch import BatchEnv
from boardgames.envs.games import PROGRAM, check_choice, check_int, extras, setup
from boardgames.envs.libs import require
from boardgames.envs.single import RESET_TRIES

require("gymnasium")
import gymnasium  # noqa: E402
from gymnasium import spaces  # noqa: E402
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402
from gymnasium.vector.utils import batch_space  # noqa: E402

SIDES = ("first", "second", "random")
OWN_KEYWORDS = ("opponent", "learner", "depth", "parallel", "render_mode", "max_episode_steps")


class BatchVectorEnv(VectorEnv):  # type: ignore[misc]
    """``num_envs`` learners against an opponent on game ``game`` (module docstring)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        num_envs: int = 1,
        *,
        opponent: str | None = None,
        learner: str = "first",
        depth: int = 2,
        parallel: bool | str = "auto",
        render_mode: str | None = None,
        max_episode_steps: int | None = None,
        **options: Any,
    ) -> None:
        if render_mode is not None:
            raise ValueError("the vector environment draws nothing: render_mode must be None")
        self.setup = setup(game, options, adapter=OWN_KEYWORDS)
        self.batch = BatchEnv(self.setup, num_envs, parallel=parallel)
        self.max_steps = (
            None
            if max_episode_steps is None
            else check_int("max_episode_steps", max_episode_steps, 1, 10**9)
        )
        self.game: Any = self.setup.game
        self.num_envs = self.batch.num_envs
        self.learner = check_choice("learner", learner, SIDES)
        spec = extras(self.setup.name).default_opponent if opponent is None else opponent
        if not isinstance(spec, str):
            raise ValueError(f"opponent must be a player's name or spec, got {spec!r}")
        depth = check_int("depth", depth, 1, 6)
        self.opponent_spec = f"depth={depth}" if spec.strip() == PROGRAM else spec.strip()
        self._player(None)  # a bad name is an error now, not at the first reset
        self.single_observation_space = spaces.Box(
            0, self.game.observation_high, self.game.observation_shape, self.batch.obs_dtype
        )
        self.single_action_space = spaces.Discrete(self.game.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.side = np.zeros(self.num_envs, dtype=np.int64)
        self.rng = np.random.default_rng()
        self.players: list[Player | None] = [None] * self.num_envs
        self.queued: list[list[int]] = [[] for _ in range(self.num_envs)]
        self.mask = np.zeros((self.num_envs, self.game.num_actions), dtype=np.int8)
        self.obs: npt.NDArray[np.int64] | None = None
        self.steps = np.zeros(self.num_envs, dtype=np.int64)
        """The learner's steps in each game (``max_episode_steps`` counts them, as
        Gymnasium's TimeLimit counts the single environment's)."""

    def _player(self, seed: int | None) -> Player | None:
        """The opponent (None: ``random``, played in numpy)."""
        if self.opponent_spec == "random":
            return None
        try:
            return find_player(self.game, self.opponent_spec, seed=seed)
        except ValueError as e:
            raise ValueError(f"opponent: {e}") from None

    def _sides(self, rows: npt.NDArray[np.int64]) -> None:
        if self.learner == "random":
            self.side[rows] = self.rng.integers(2, size=len(rows))
        else:
            self.side[rows] = SIDES.index(self.learner)
        for i in rows:
            self.players[i] = self._player(int(self.rng.integers(2**63)))
            self.queued[i] = []

    def _opponent_actions(self, movers: npt.NDArray[np.int8], mask: npt.NDArray[np.int8]) -> Any:
        """The opponent's next action in every game where it is to move (-1 elsewhere)."""
        todo = movers != self.side
        actions = np.full(self.num_envs, -1, dtype=np.int64)
        if self.opponent_spec == "random":
            pick = np.argmax(self.rng.random(mask.shape) * mask, axis=1)
            actions[todo] = pick[todo]
            return todo, actions
        states = self.batch.states
        for i in np.flatnonzero(todo):
            if not self.queued[i]:
                player = self.players[i]
                assert player is not None
                self.queued[i] = [int(m) for m in player.choose(self.game, states[i]).moves()]
            move = self.queued[i].pop(0)
            actions[i] = self.game.action_of(states[i], move)
        return todo, actions

    def _replies(self, obs: Any, info: dict[str, Any], out: dict[str, Any]) -> Any:
        """The opponents play until every learner is to move; games that end are recorded
        in ``out`` (rewards, terminated, final observations). A game that ends more than
        :data:`~boardgames.envs.single.RESET_TRIES` times before its learner moves (sides
        and replies drawn anew each time) is a board the single environment refuses too."""
        ends = np.zeros(self.num_envs, dtype=np.int64)
        while True:
            movers = info["to_move"]
            if not np.any(movers != self.side):
                return obs, info
            todo, actions = self._opponent_actions(movers, info["action_mask"])
            for i in np.flatnonzero(~todo):
                self.queued[i] = []
            obs, rewards, term, trunc, info = self.batch._step(actions, todo, self.side)
            self._record(rewards, term, trunc, info, out)
            ends += term | trunc
            if ends.max() > RESET_TRIES:
                raise ValueError(
                    f"{self.setup.name}: on this board the game ends before the learner moves"
                )

    def _record(
        self, rewards: Any, term: Any, trunc: Any, info: dict[str, Any], out: dict[str, Any]
    ) -> None:
        ended = (term | trunc) & ~out["ended"]
        if not ended.any():
            return
        rows = np.flatnonzero(ended)
        out["reward"][rows] = rewards[rows, self.side[rows]]
        out["terminated"][rows] = term[rows]
        out["truncated"][rows] = trunc[rows]
        out["final_obs"][rows] = info["final_observation"][rows]
        out["margin"][rows] = np.where(
            self.side[rows] == 0, info["margin"][rows], -info["margin"][rows]
        )
        out["ended"] |= ended
        self._sides(rows)

    def _blank(self) -> dict[str, Any]:
        n = self.num_envs
        return {
            "reward": np.zeros(n),
            "terminated": np.zeros(n, dtype=bool),
            "truncated": np.zeros(n, dtype=bool),
            "ended": np.zeros(n, dtype=bool),
            "final_obs": np.zeros((n, *self.game.observation_shape), dtype=self.batch.obs_dtype),
            "margin": np.zeros(n, dtype=np.int64),
        }

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.int64], dict[str, Any]]:
        if seed is not None:
            self.batch.seed(seed)  # checks it: a whole number >= 0
            self.rng = np.random.default_rng(seed)
        self._sides(np.arange(self.num_envs))
        self.batch.reset()
        self.steps[:] = 0
        obs, info = self._replies(*self._looked(), self._blank())
        self.obs, self.mask = obs, info["action_mask"]
        return obs, {"action_mask": info["action_mask"]}

    def _looked(self) -> tuple[Any, dict[str, Any]]:
        """The observations and info of the games as they stand (no game moves)."""
        nothing = np.zeros(self.num_envs, dtype=bool)
        obs, _, _, _, info = self.batch._step(
            np.zeros(self.num_envs, dtype=np.int64), nothing, self.side
        )
        return obs, info

    def _time_limit(self, obs: Any, info: dict[str, Any], out: dict[str, Any]) -> Any:
        """``max_episode_steps``: a game whose learner has made that many steps is
        truncated (its final observation the one after the opponent's reply) and starts
        again, the opponent replying where it moves first."""
        self.steps += 1
        self.steps[out["ended"]] = 0
        if self.max_steps is None:
            return obs, info
        late = (self.steps >= self.max_steps) & ~out["ended"]
        if not late.any():
            return obs, info
        rows = np.flatnonzero(late)
        out["truncated"][rows] = True
        out["ended"][rows] = True
        out["final_obs"][rows] = obs[rows]
        self.steps[rows] = 0
        self.batch._reset_rows(rows)
        self._sides(rows)
        return self._replies(*self._looked(), out)

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        if self.obs is None:
            raise ValueError("call reset() before step()")
        acts = self.batch._actions(actions)
        in_range = (acts >= 0) & (acts < self.game.num_actions)
        legal = in_range & (self.mask[np.arange(self.num_envs), np.where(in_range, acts, 0)] == 1)
        out = self._blank()
        illegal = ~legal
        if illegal.any():  # the game ends with the lowest reward; it starts again
            rows = np.flatnonzero(illegal)
            out["reward"][rows] = self.setup.low
            out["terminated"][rows] = True
            out["ended"][rows] = True
            out["final_obs"][rows] = self.obs[rows]
            self.batch._reset_rows(rows)
            self._sides(rows)
        obs, rewards, term, trunc, info = self.batch._step(acts, legal, self.side)
        self._record(rewards, term, trunc, info, out)
        obs, info = self._replies(obs, info, out)
        obs, info = self._time_limit(obs, info, out)
        self.obs, self.mask = obs, info["action_mask"]
        infos = {
            "action_mask": info["action_mask"],
            "illegal": illegal,
            "margin": out["margin"],
            "final_obs": out["final_obs"],
            "_final_obs": out["ended"],
        }
        return obs, out["reward"], out["terminated"], out["truncated"], infos


def vector_environment(game: str, num_envs: int = 1, **options: Any) -> BatchVectorEnv:
    """The vector entry point of the ids ``boardgames/<Name>-v0``."""
    return BatchVectorEnv(game, num_envs, **options)


__all__ = ["BatchVectorEnv", "gymnasium", "vector_environment"]
