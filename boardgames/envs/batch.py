"""Many games of one kind stepped by one call: the batched environment over a game's
numba rule kernels, numpy arrays in and out.

``batch("connect4", 1024)`` (:func:`batch`) is a :class:`BatchEnv` of 1,024 games in
self-play: each call of :meth:`BatchEnv.step` plays one action in every game, for its
side to move. What comes back, for ``n`` games and ``A`` action ids:

- ``obs`` ``(n, *observation_shape)``: each game seen by its side to move, exactly the
  game's ``observation`` (its action codec, as every environment of the game), in the
  narrowest signed integer dtype that holds ``observation_high`` (:func:`obs_dtype`:
  int8 for Connect Four's planes and Kalah's usual boards);
- ``rewards`` ``(n, 2)`` float64: ``player_0``'s and ``player_1``'s reward (0 until a game
  ends, then the ``reward`` option's value: ``result`` +1/0/-1 or ``margin``);
- ``terminated``, ``truncated`` ``(n,)`` bool (truncated after ``max_moves`` moves, when
  given);
- ``info``: ``action_mask`` ``(n, A)`` int8 and ``to_move`` ``(n,)`` int8 of the positions
  returned; ``final_observation`` and ``final_state`` (the finished games' last position,
  in the positions' integer dtype, rows of the others are zero) and ``margin`` ``(n,)``
  (``player_0``'s final margin).

A finished game starts again at once (after ``opening`` random moves): the observation
returned is its new start, the last one is in ``info``. ``reset(seed=...)`` makes a run
repeatable: each game draws its opening moves from its own generator (splitmix64 seeded
from ``seed`` and its index), so serial and ``parallel`` runs give the same games. An
illegal action is a ``ValueError`` naming the first game and action (no game moves). The
action ids and observations are the codec's (:mod:`boardgames.envs.layout`).

:meth:`BatchEnv.random_actions` draws a uniformly random legal action in every game (a
numba kernel, each game its own generator, seeded by ``reset(seed=...)``): random play is
``env.step(env.random_actions())``, or :meth:`BatchEnv.step_random`, the same draws in
the step's own kernel call (for rollouts and data: one call a step).

How a step is fast (boardgames/envs/batch_kernels.py): one kernel call checks the
actions against the masks it computed the step before, plays them, scores, keeps and
restarts finished games and observes every game, into arrays allocated once per step
(nothing is allocated per game); the positions are stored in the narrowest integer that
holds their cells; each game's observations by either player are kept up to date, only
the cells that read a state cell the move changed being looked up again.

A game whose plugin has no kernels gets the same API from its Python rules
(:class:`PythonRules`, slow but right; ``BatchEnv.backend == "python"``, and a
``UserWarning`` says so). :func:`random_playouts` and :func:`search_values` are the
self-play building blocks (MCTS rollouts, training data).
"""

from __future__ import annotations

import sys
import types
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from boardgames.core.protocol import State
from boardgames.envs.games import Setup, check_int, setup
from boardgames.envs.layout import Layout, learn_layout

OWN_KEYWORDS = ("parallel", "max_moves", "seed")
PARALLEL_FROM: int | None = None
"""``parallel="auto"`` uses threads from this many games (None: never). On the 2-core
development machine the threaded kernels gain 1.2-1.5x from 1,024 games when the cores
are idle, and are 5-100x slower than the serial ones when other jobs share them (every
kernel call waits for a descheduled thread): benchmarks/batch_env_bench.py. Give
``parallel=True`` on a machine with idle cores."""
PLAYOUT_LIMIT = 100_000

Ints = npt.NDArray[np.int64]


def _seeds(seed: int | np.random.SeedSequence | None, n: int) -> npt.NDArray[np.uint64]:
    """One splitmix64 state a game, from ``seed`` (fresh entropy when None)."""
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    return np.asarray(ss.generate_state(n, dtype=np.uint64), dtype=np.uint64)


def narrowest(high: int) -> np.dtype[Any]:
    """The narrowest signed integer dtype that holds ``0 .. high``."""
    for dtype in (np.int8, np.int16, np.int32):
        if high <= np.iinfo(dtype).max:
            return np.dtype(dtype)
    return np.dtype(np.int64)


def obs_dtype(game: Any) -> np.dtype[Any]:
    """The observations' dtype: the narrowest signed integer that holds the game's
    ``observation_high`` (int8 for Connect Four's planes)."""
    return narrowest(int(getattr(game, "observation_high", 1 << 62)))


_LAYOUTS: dict[Any, Layout | str] = {}


def _layout(game: Any, values: int) -> Layout | str:
    """:func:`~boardgames.envs.layout.learn_layout`, once per game (shared: what one
    batch learns holds for every batch of the game)."""
    try:
        return _LAYOUTS.setdefault(game, _LAYOUTS.get(game) or learn_layout(game, values))
    except TypeError:  # a game that does not hash
        return learn_layout(game, values)


class PythonRules:
    """The batch's work done with the game's Python rules and codec (a game without
    kernels): the same calls as the kernels, one game at a time."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def check(self, states: list[State], actions: Ints, active: npt.NDArray[np.bool_]) -> int:
        """The first active game whose action is illegal, else -1."""
        for i in np.flatnonzero(active):
            if self.game.move_of(states[i], int(actions[i])) is None:
                return int(i)
        return -1


class BatchEnv:
    """``num_envs`` games of ``setup``'s game stepped together (module docstring)."""

    def __init__(
        self,
        game_setup: Setup,
        num_envs: int,
        *,
        parallel: bool | str = "auto",
        max_moves: int | None = None,
        seed: int | None = None,
    ) -> None:
        from boardgames.core.strategies import NoKernels, kernel_spec

        self.setup = game_setup
        self.game: Any = game_setup.game
        self.num_envs = check_int("num_envs", num_envs, 1, 1 << 24)
        self.max_moves = (
            None if max_moves is None else check_int("max_moves", max_moves, 1, 1 << 30)
        )
        self.num_actions = int(self.game.num_actions)
        self.observation_shape = tuple(self.game.observation_shape)
        self.obs_dtype = obs_dtype(self.game)
        if parallel not in (True, False, "auto"):
            raise ValueError(f"parallel must be True, False or 'auto', got {parallel!r}")
        auto = PARALLEL_FROM is not None and self.num_envs >= PARALLEL_FROM
        self.parallel = bool(auto if parallel == "auto" else parallel)
        n = self.num_envs
        self.layout: Layout | None = None
        self.why_python = ""
        try:
            spec = kernel_spec(self.game)
        except (NoKernels, LookupError):
            spec = None
            self.why_python = f"{self.setup.name} has no numba kernels"
        if spec is not None:
            found = _layout(self.game, spec.max_value + 1)
            if isinstance(found, str):
                self.why_python = f"{self.setup.name}'s action codec has no table form ({found})"
            else:
                self.layout = found
        if self.layout is None or spec is None:
            self.backend = "python"
            warnings.warn(
                f"{self.why_python}: the batch steps its games with the Python rules (slow)",
                stacklevel=3,
            )
            self.rules = PythonRules(self.game)
            self.pstates: list[State] = [self.game.initial_state() for _ in range(n)]
        else:
            from boardgames.envs.batch_kernels import build

            self.backend = "numba"
            self.K = build(spec.kernels, self.parallel)
            init = np.asarray(self.game.initial_state(), dtype=np.int64)
            self.params = spec.params(init)
            # the positions in the narrowest integer that holds every cell's value (the
            # rule kernels compile for it): less memory to walk per step
            self.state_dtype = narrowest(max(spec.max_value, int(init.max())))
            # rows padded to whole 8-byte words (the kernels compare positions a word at
            # a time); the rule kernels never read past ``cells``
            per = 8 // self.state_dtype.itemsize
            width = -(-spec.cells // per) * per
            self.init = np.zeros(width, dtype=self.state_dtype)
            self.init[: spec.cells] = init
            self.cells = spec.cells
            # (n, 2, cells) for Python, the same memory as (2n, cells) for the kernels
            self.S = np.zeros((n, 2, width), dtype=self.state_dtype)
            self.S[:, 0] = self.init
            self.S2 = self.S.reshape(2 * n, width)
            self.W = self.S2.view(np.uint64)
            self.M = np.zeros((2 * n, max(spec.max_moves, 1)), dtype=np.int64)
            size = int(np.prod(self.observation_shape))
            # the kernels' own arrays: the legal masks of the positions (to check the
            # actions), each game's observations by either player
            self.legal = np.zeros((n, self.num_actions), dtype=np.int8)
            self.views = np.zeros((n, 2, size), dtype=self.obs_dtype)
            self.init_views = np.array(
                [np.asarray(self.game.observation(init, q)).ravel() for q in (0, 1)],
                dtype=self.obs_dtype,
            )
            self.summary = np.zeros(2, dtype=np.int64)
            self.setting = np.array(
                [
                    0 if self.setup.opening else 1,
                    self.max_moves or 0,
                    1 if self.setup.reward == "margin" else 0,
                ],
                dtype=np.int64,
            )
        self.synced = False
        """Whether ``legal`` holds the masks of the positions (else the next step
        observes first)."""
        self.moves = np.zeros(n, dtype=np.int64)
        self._all = np.ones(n, dtype=bool)
        self._self = np.full(n, -1, dtype=np.int64)
        self.seed(seed)

    # ---- state -------------------------------------------------------------------
    def seed(self, seed: int | None) -> None:
        """Seed every game's generators (``seed`` and the game's index): one for its
        openings, one for :meth:`random_actions`. ``seed``: a whole number >= 0, or None
        (fresh entropy)."""
        if seed is not None and (
            isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0
        ):
            raise ValueError(f"seed must be a whole number >= 0 or None, got {seed!r}")
        ss = np.random.SeedSequence(None if seed is None else int(seed))
        self.rng = _seeds(ss, self.num_envs)
        self.action_rng = _seeds(ss.spawn(1)[0], self.num_envs)

    @property
    def states(self) -> Ints:
        """The games' positions, ``(n, cells)`` (a copy)."""
        if self.backend == "python":
            return np.array(self.pstates, dtype=np.int64)
        return self.S[:, 0, : self.cells].astype(np.int64)

    def set_states(self, states: Ints | Sequence[State]) -> None:
        """Put the games in the positions ``states`` (``(n, cells)``; none may be over)."""
        rows = np.asarray(states, dtype=np.int64)
        if rows.shape[0] != self.num_envs:
            raise ValueError(f"give {self.num_envs} states, got {rows.shape[0]}")
        if self.backend == "python":
            self.pstates = [r.copy() for r in rows]
        else:
            self.S[:, 0, : self.cells] = rows
        self.moves[:] = 0
        self.synced = False

    def _draw(self, i: int) -> int:
        """The next word of game ``i``'s generator (splitmix64, as the kernels draw)."""
        x = (int(self.rng[i]) + 0x9E3779B97F4A7C15) & ((1 << 64) - 1)
        self.rng[i] = x
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & ((1 << 64) - 1)
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & ((1 << 64) - 1)
        return z ^ (z >> 31)

    def reset(self, seed: int | None = None) -> tuple[Ints, dict[str, Any]]:
        """Every game from its start (after ``opening`` random moves)."""
        if seed is not None:
            self.seed(seed)
        n = self.num_envs
        if self.backend == "python":
            self.pstates = [self.game.initial_state() for _ in range(n)]
        else:
            self.S[:, 0] = self.init
        self.moves[:] = 0
        self.synced = False
        if self.setup.opening:
            self._reset_rows(np.arange(n))
        obs, mask, movers = self._observe(self._self)
        return obs, {"action_mask": mask, "to_move": movers}

    def random_actions(self) -> Ints:
        """A uniformly random legal action id in each game ``(n,)`` (-1 for a game with
        none), each game drawing from its own generator (seeded by ``reset(seed=...)``
        apart from the openings'): random play at the kernels' speed, the same serial or
        parallel."""
        if self.backend == "python":
            mask = self._observe(self._self)[1]
            out = np.full(self.num_envs, -1, dtype=np.int64)
            for i in range(self.num_envs):
                legal = np.flatnonzero(mask[i])
                if len(legal):
                    out[i] = legal[self._draw_action(i) % len(legal)]
            return out
        if not self.synced:
            self._observe(self._self)
        out = np.empty(self.num_envs, dtype=np.int64)
        self.K.random_actions(self.legal, self.action_rng, out)
        return out

    def _draw_action(self, i: int) -> int:
        rng, self.rng = self.rng, self.action_rng
        try:
            return self._draw(i)
        finally:
            self.rng = rng

    def _reset_rows(self, rows: npt.NDArray[np.int64]) -> None:
        """Games ``rows`` from the start and ``opening`` random moves (each from its own
        generator, the same serial or parallel)."""
        self.synced = False
        if self.backend == "python":
            for i in rows:
                self.pstates[int(i)] = self.game.initial_state()
        else:
            self.S[rows, 0] = self.init
        left = np.zeros(self.num_envs, dtype=bool)
        left[rows] = True
        for _ in range(self.setup.opening):
            _obs, mask, _movers = self._observe(self._self)
            counts = mask.sum(axis=1)
            go = left & (counts > 0)
            if not go.any():
                break
            actions = np.zeros(self.num_envs, dtype=np.int64)
            for i in np.flatnonzero(go):
                legal = np.flatnonzero(mask[i])
                actions[i] = legal[self._draw(int(i)) % len(legal)]
            before = self.states
            over = self._advance(actions, go, restart=False)[0]
            if over.any():  # a move that would end the game is not played
                keep = self.moves.copy()
                rows_now = self.states
                rows_now[over] = before[over]
                self.set_states(rows_now)
                self.moves[:] = keep
            left &= ~over
        self.moves[rows] = 0
        self.synced = False

    # ---- the kernels, with the Python codec for entries not seen yet ---------------
    def _tables(self) -> tuple[Any, ...]:
        L = self.layout
        assert L is not None
        if getattr(self, "_tables_at", None) != L.version:
            self._tables_at, self._tables_now = L.version, L.tables(self.obs_dtype)
        return self._tables_now

    def _observe(self, players: Ints) -> tuple[Any, npt.NDArray[np.int8], npt.NDArray[np.int8]]:
        n = self.num_envs
        size = int(np.prod(self.observation_shape))
        mask = np.zeros((n, self.num_actions), dtype=np.int8)
        if self.backend == "python":
            obs = np.zeros((n, size), dtype=self.obs_dtype)
            movers = np.zeros(n, dtype=np.int8)
            for i, s in enumerate(self.pstates):
                p = int(self.game.to_move(s))
                q = p if players[i] < 0 else int(players[i])
                movers[i] = p
                obs[i] = np.asarray(self.game.observation(s, q)).ravel()
                if self.game.outcome(s) is None:
                    for mv in self.game.legal_moves(s):
                        mask[i, self.game.action_of(s, mv)] = 1
        else:
            obs = np.empty((n, size), dtype=self.obs_dtype)
            movers = np.empty(n, dtype=np.int8)
            status = np.zeros(n, dtype=np.int8)
            self._observe_into(players, obs, mask, movers, status)
        return obs.reshape(n, *self.observation_shape), mask, movers

    def _observe_into(
        self, players: Ints, obs: Any, mask: Any, movers: Any, status: npt.NDArray[np.int8]
    ) -> None:
        """The observe kernel over every game, asking the codec for entries not seen
        yet; the masks are kept for the next step's check."""
        L = self.layout
        assert L is not None
        for _ in range(3):
            self.K.observe(
                self.S2, self.M, self.params, self._tables(), players, self.views, obs, mask,
                movers, status,
            )  # fmt: skip
            unknown = np.flatnonzero(status)
            if not len(unknown):
                break
            for row in unknown:
                L.learn(self.game, self.S[row, 0, : self.cells].astype(np.int64))
        else:
            raise RuntimeError("the batch's codec tables do not settle")
        self.legal[:] = mask
        self.synced = True

    def _illegal(self, bad: int, actions: Ints) -> ValueError:
        state = self.pstates[bad] if self.backend == "python" else self.states[bad]
        legal = [self.game.action_of(state, m) for m in self.game.legal_moves(state)]
        return ValueError(
            f"game {bad}: action {int(actions[bad])} is not legal; its legal actions: "
            f"{', '.join(map(str, legal)) or 'none'}"
        )

    def _advance(
        self, actions: Ints, active: npt.NDArray[np.bool_], restart: bool = True
    ) -> tuple[npt.NDArray[np.bool_], Ints, Ints]:
        """Play the checked actions: (over, player_0's margin, final states); the Python
        rules' step, and the openings' moves (``restart=False``: a finished game is left
        as it is)."""
        n = self.num_envs
        over = np.zeros(n, dtype=bool)
        margin = np.zeros(n, dtype=np.int64)
        self.synced = False
        if self.backend == "python":
            cells = len(self.pstates[0])
            final = np.zeros((n, cells), dtype=np.int64)
            for i in np.flatnonzero(active):
                s = self.pstates[i]
                s, _ = self.game.play(s, self.game.move_of(s, int(actions[i])))
                self.pstates[i] = s
                m = self.game.outcome(s)
                if m is not None:
                    over[i] = True
                    final[i] = s
                    margin[i] = m if self.game.to_move(s) == 0 else -m
        else:
            final = np.zeros((n, self.cells), dtype=np.int64)
            results = np.zeros(n, dtype=np.int64)
            self.K.advance(
                self.S2, self.M, actions, active, self.params, self._tables(), over, final,
                results,
            )  # fmt: skip
            for i in np.flatnonzero(over):
                p = self.game.to_move(final[i])
                margin[i] = results[i] if p == 0 else -results[i]
        self.moves[active] += 1
        if restart and over.any():
            if self.backend == "python":
                for i in np.flatnonzero(over):
                    self.pstates[i] = self.game.initial_state()
            else:
                self.S[over, 0] = self.init
            self.moves[over] = 0
            if self.setup.opening:
                self._reset_rows(np.flatnonzero(over))
        return over, margin, final

    # ---- the API -------------------------------------------------------------------
    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Any, npt.NDArray[np.float64], Any, Any, dict[str, Any]]:
        """One action in every game, for its side to move (module docstring)."""
        return self._step(self._actions(actions), self._all, self._self)

    def step_random(self) -> tuple[Any, npt.NDArray[np.float64], Any, Any, dict[str, Any]]:
        """A uniformly random legal action in every game, played: the same as
        ``step(random_actions())`` (the same draws), in one kernel call; the actions
        played are ``info["actions"]``."""
        if self.backend == "python":
            acts = self.random_actions()
            done = self._step(acts, self._all, self._self)
        else:
            acts = np.empty(self.num_envs, dtype=np.int64)
            done = self._step(acts, self._all, self._self, draw=True)
        done[4]["actions"] = acts
        return done

    def _actions(self, actions: npt.ArrayLike) -> Ints:
        arr = np.asarray(actions)
        if arr.dtype == np.int64 and arr.shape == (self.num_envs,):
            return arr
        if arr.shape != (self.num_envs,) or not np.issubdtype(arr.dtype, np.integer):
            raise ValueError(
                f"actions must be {self.num_envs} integer ids (shape ({self.num_envs},)), "
                f"got shape {arr.shape} of {arr.dtype}"
            )
        if arr.dtype == np.uint64 and arr.size and int(arr.max()) > np.iinfo(np.int64).max:
            raise self._illegal(int(np.argmax(arr)), arr)  # as int64 it would wrap round
        return arr if arr.dtype == np.int64 else arr.astype(np.int64)

    def _step(
        self, acts: Ints, active: npt.NDArray[np.bool_], players: Ints, draw: bool = False
    ) -> tuple[Any, npt.NDArray[np.float64], Any, Any, dict[str, Any]]:
        """Play ``acts`` in the ``active`` games (each checked: a ValueError for the first
        illegal one, nothing moved), observed by ``players`` (-1: the side to move);
        ``draw``: the kernel draws ``acts`` first, as :meth:`random_actions` does."""
        if self.backend == "python":
            return self._python_step(acts, active, players)
        n = self.num_envs
        if not self.synced:
            self._observe(self._self)
        size = self.views.shape[2]
        obs = np.empty((n, size), dtype=self.obs_dtype)
        mask = np.empty((n, self.num_actions), dtype=np.int8)
        movers = np.empty(n, dtype=np.int8)
        rewards = np.empty((n, 2), dtype=np.float64)
        margin = np.empty(n, dtype=np.int64)
        over = np.empty(n, dtype=bool)
        trunc = np.empty(n, dtype=bool)
        status = np.empty(n, dtype=np.int8)
        # the finished games' last positions and observations, filled by the kernel
        # (zero where a game goes on): no second pass over the batch here
        final = np.empty((n, self.cells), dtype=self.state_dtype)
        final_obs = np.empty((n, size), dtype=self.obs_dtype)
        bad = self.K.step(
            self.S2, self.W, self.M, acts, active, players, self.params, self._tables(),
            self.setting, self.moves, self.legal, self.views,
            (obs, mask, movers, rewards, margin, over, trunc, status),
            (self.init, self.init_views, final, final_obs, self.summary),
            self.action_rng, draw,
        )  # fmt: skip
        if bad >= 0:
            raise self._illegal(int(bad), acts)
        ended, unknown = int(self.summary[0]), int(self.summary[1])
        if unknown:
            self._settle(status, players, (obs, mask, movers, rewards, margin, over),
                         final, final_obs)  # fmt: skip
        info: dict[str, Any] = {"action_mask": mask, "to_move": movers, "margin": margin}
        if ended:
            if self.setup.opening:  # the openings in Python, then the positions again
                self._reset_rows(np.flatnonzero(over | trunc))
                self._observe_into(players, obs, mask, movers, status)
            info["final_state"] = final
            info["final_observation"] = final_obs.reshape(n, *self.observation_shape)
        return obs.reshape(n, *self.observation_shape), rewards, over, trunc, info

    def _settle(
        self, status: Any, players: Ints, out: tuple[Any, ...], final: Any, final_obs: Any
    ) -> None:
        """Rows the kernel met a table entry not seen yet in: the finished position's
        score and observation from the Python codec, the new positions observed again."""
        from boardgames.envs.batch_kernels import FINAL_UNKNOWN, UNKNOWN

        obs, mask, movers, rewards, margin, over = out
        L = self.layout
        assert L is not None
        for i in np.flatnonzero(status & FINAL_UNKNOWN):
            s = final[i].astype(np.int64)
            p = int(self.game.to_move(s))
            q = p if players[i] < 0 else int(players[i])
            final_obs[i] = np.asarray(self.game.observation(s, q)).ravel()
            L.learn(self.game, s)
            if over[i]:
                m = self.game.outcome(s)
                assert m is not None
                margin[i] = m if p == 0 else -m
                v = margin[i] if self.setup.reward == "margin" else np.sign(margin[i])
                rewards[i] = (v, -v)
        if np.any(status & UNKNOWN):
            self._observe_into(players, obs, mask, movers, status)

    def _python_step(
        self, acts: Ints, active: npt.NDArray[np.bool_], players: Ints
    ) -> tuple[Any, npt.NDArray[np.float64], Any, Any, dict[str, Any]]:
        bad = self.rules.check(self.pstates, acts, active)
        if bad >= 0:
            raise self._illegal(bad, acts)
        over, margin, final = self._advance(acts, active)
        n = self.num_envs
        truncated = np.zeros(n, dtype=bool)
        if self.max_moves is not None:
            truncated = ~over & (self.moves >= self.max_moves)
            if truncated.any():
                rows = np.flatnonzero(truncated)
                final[rows] = self.states[rows]
                for i in rows:
                    self.pstates[i] = self.game.initial_state()
                self.moves[rows] = 0
                if self.setup.opening:
                    self._reset_rows(rows)
        ended = over | truncated
        value = (
            margin.astype(np.float64)
            if self.setup.reward == "margin"
            else np.sign(margin).astype(np.float64)
        )
        rewards = np.stack([value, -value], axis=1)
        obs, mask, movers = self._observe(players)
        info: dict[str, Any] = {"action_mask": mask, "to_move": movers, "margin": margin}
        if ended.any():
            info["final_state"] = final
            info["final_observation"] = self.observations_of(final, ended, players)
        return obs, rewards, over, truncated, info

    def observations_of(self, rows: Ints, which: npt.NDArray[np.bool_], players: Ints) -> Any:
        """The codec's observations of positions ``rows`` (where ``which``) for
        ``players`` (-1: the side to move); zeros elsewhere."""
        out = np.zeros((self.num_envs, *self.observation_shape), dtype=self.obs_dtype)
        for i in np.flatnonzero(which):
            s = rows[i]
            q = int(self.game.to_move(s)) if players[i] < 0 else int(players[i])
            out[i] = self.game.observation(s, q)
        return out

    def playouts(self, seed: int | None = None, limit: int = PLAYOUT_LIMIT) -> tuple[Ints, Ints]:
        """Random playouts from the games' positions (left unchanged): player_0's final
        margin and the moves played, per game (see :func:`random_playouts`)."""
        return random_playouts(
            self.game, self.states, seed=seed, limit=limit, parallel=self.parallel
        )


def batch(name: str, num_envs: int, **options: Any) -> BatchEnv:
    """``num_envs`` games of registered game ``name`` stepped together (module
    docstring). Options: the game's (``rows``, ``pits``, ``width`` ...), ``reward``,
    ``opening``, and ``parallel`` (True, False, ``"auto"``), ``max_moves``, ``seed``."""
    own = {k: options.pop(k) for k in OWN_KEYWORDS if k in options}
    return BatchEnv(setup(name, options, adapter=OWN_KEYWORDS), num_envs, **own)


def random_playouts(
    game: Any,
    states: npt.ArrayLike,
    *,
    seed: int | None = None,
    limit: int = PLAYOUT_LIMIT,
    parallel: bool = False,
) -> tuple[Ints, Ints]:
    """A random game to the end from each of ``states`` ``(n, cells)``: ``player_0``'s
    final margin (0 where ``limit`` moves did not end it) and the moves played. The
    numba kernels when the game has them (each row its own generator: the same answers
    serial or parallel), else the Python rules. For MCTS rollouts and training data."""
    from boardgames.core.strategies import NoKernels, kernel_spec

    rows = np.array(states, dtype=np.int64, ndmin=2)
    n = rows.shape[0]
    rng = _seeds(seed, n)
    margins = np.zeros(n, dtype=np.int64)
    lengths = np.zeros(n, dtype=np.int64)
    try:
        spec = kernel_spec(game)
    except (NoKernels, LookupError):
        spec = None
    if spec is None:
        py = np.random.default_rng(seed)
        for i, s in enumerate(rows):
            for _ in range(limit):
                legal = game.legal_moves(s)
                if not legal or game.outcome(s) is not None:
                    break
                s, _ = game.play(s, int(legal[int(py.integers(len(legal)))]))
                lengths[i] += 1
            m = game.outcome(s)
            if m is not None:
                margins[i] = m if game.to_move(s) == 0 else -m
        return margins, lengths
    from boardgames.core.kernels import NOT_OVER
    from boardgames.envs.batch_kernels import build

    K = build(spec.kernels, parallel)
    S = np.zeros((n, 2, spec.cells), dtype=np.int64)
    S[:, 0] = rows
    M = np.zeros((2 * n, max(spec.max_moves, 1)), dtype=np.int64)
    results = np.zeros(n, dtype=np.int64)
    K.playout(S.reshape(2 * n, -1), M, spec.params(rows[0]), rng, limit, results, lengths)
    done = results != NOT_OVER
    for row in np.flatnonzero(done):
        p = int(game.to_move(S[row, 0]))
        margins[row] = results[row] if p == 0 else -results[row]
    return margins, lengths


def search_values(
    game: Any, states: npt.ArrayLike, depth: int | None, strategy: str = "alphabeta"
) -> tuple[Ints, Ints]:
    """Each of ``states`` searched by the numba engine to ``depth`` (None: to the end):
    its value for the side to move (the protocol's scores) and the best action id (-1
    for a finished position). For labels or an evaluation at MCTS leaves."""
    from boardgames.core.strategies import NumbaSearcher

    rows = np.array(states, dtype=np.int64, ndmin=2)
    searcher = NumbaSearcher(game)
    values = np.zeros(len(rows), dtype=np.int64)
    best = np.full(len(rows), -1, dtype=np.int64)
    for i, s in enumerate(rows):
        if game.outcome(s) is not None:
            continue
        found = searcher.run(strategy, s, depth)
        values[i] = found.value
        if found.best_move is not None:
            best[i] = game.action_of(s, found.best_move)
    return values, best


def warm_kernels(name: str) -> None:
    """``cache warm NAME``'s step for the batched environment
    (:data:`~boardgames.core.hooks.BATCH_WARM_STEP`): the kernels of its every step
    compiled (or loaded from the cache) on two games with the default options, serial:
    the observation, the step with given and with drawn actions, and the random actions.
    (The openings' moves and :func:`random_playouts` have kernels of their own, compiled
    on first use: for Kalah they would add some 20 s to every background warm-up.) Nothing
    for a game without action ids (it has no batch) or whose batch runs on its Python
    rules (no kernels, or a codec the kernels cannot read)."""
    from boardgames.core.capabilities import capabilities
    from boardgames.core.registry import plugin

    if "actions" not in capabilities(plugin(name).make()):
        return
    with warnings.catch_warnings():  # the Python rules' "slow but right": nothing to warm
        warnings.simplefilter("ignore", UserWarning)
        env = batch(name, 2)
    if env.backend == "python":
        return
    env.reset(seed=0)
    env.step(env.random_actions())
    env.step_random()


class _CallableModule(types.ModuleType):
    """``boardgames.envs.batch(...)`` stays the function once this module is imported:
    importing a submodule binds its name in the package, over the package's function."""

    def __call__(self, name: str, num_envs: int, **options: Any) -> BatchEnv:
        return batch(name, num_envs, **options)


sys.modules[__name__].__class__ = _CallableModule
