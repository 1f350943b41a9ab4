"""A game's action codec as tables that numba kernels can read, learned from the codec.

The batched environment (:mod:`boardgames.envs.batch`) must give exactly the observations
and action ids of the game's :class:`~boardgames.core.capabilities.ActionCodec`, but the
codec is Python and the shared layers name no game. So the codec is read back from random
positions as three tables (:class:`Layout`), with a hypothesis each that the samples check:

- the side to move is a function of one state cell (``to_move = tm_lut[state[tm_cell]]``);
- each observation cell ``j`` seen by player ``p`` is a function of one state cell
  (``obs[j] = obs_lut[p, j, state[obs_src[p, j]]]``: a copy for Kalah's holes and Nim's
  rows, a one-hot test for Connect Four's planes);
- the action id of a move depends only on the mover and the move (``keys``/``vals``
  sorted per mover, and the inverse ``inv[p, action]``).

An entry never seen is :data:`UNSEEN` (``-1``) in a lookup table (:data:`NO_MOVE` in
``inv``): the kernels report the row, the batch computes it with the Python codec and
fills the table in (:meth:`Layout.learn`), so an unseen value costs one Python call, once.
A game whose samples break a hypothesis gets no layout (:func:`learn_layout` returns the
reason) and the batch uses the Python codec for every row.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from boardgames.core.protocol import State

UNSEEN = -1
NO_MOVE = -(1 << 62)
DENSE_MOVES = 1 << 12
"""Moves below this have their action ids in a direct table (``Layout.act``); larger
ones are searched in ``keys``."""
SAMPLE_GAMES = 48
SAMPLE_PLIES = 2000

Ints = npt.NDArray[np.int64]


@dataclass
class Layout:
    """The codec as tables (module docstring); ``values`` bounds a state cell's value."""

    tm_cell: int
    tm_lut: Ints  # (values,)
    obs_src: Ints  # (2, J)
    obs_lut: Ints  # (2, J, values)
    keys: Ints  # (2, K) moves, sorted in [:nkeys[p]]
    vals: Ints  # (2, K) their action ids
    nkeys: Ints  # (2,)
    inv: Ints  # (2, A) the move of an action id, NO_MOVE if unseen
    act: Ints = field(default_factory=lambda: np.full((2, 0), UNSEEN, dtype=np.int64))
    """(2, D) the action id of a move below ``D`` (at most :data:`DENSE_MOVES`), UNSEEN if
    not seen yet; the same entries as ``keys``/``vals``, read without a search."""
    version: int = 0
    """Counts the changes, for :meth:`tables`' copies."""
    _tables: Any = field(default=None, repr=False, compare=False)

    def tables(self, dtype: Any) -> tuple[Any, ...]:
        """The tables as the kernels take them (boardgames/envs/batch_kernels.py), the
        observation's in ``dtype``: (tm_cell, tm_lut, obs_src, obs_lut, keys, vals,
        nkeys, act, inv); the same tuple until the layout changes."""
        key = (self.version, np.dtype(dtype))
        if self._tables is None or self._tables[0] != key:
            tables = (
                np.int64(self.tm_cell), self.tm_lut, self.obs_src,
                self.obs_lut.astype(dtype), self.keys, self.vals, self.nkeys, self.act,
                self.inv, *readers(self.obs_src),
            )  # fmt: skip
            self._tables = (key, tables)
        return self._tables[1]  # type: ignore[no-any-return]

    def learn(self, game: Any, state: State) -> None:
        """Fill in the entries ``state`` reads, from the Python codec."""
        row = np.asarray(state, dtype=np.int64)
        p = int(game.to_move(row))
        self._grow(int(row.max()) + 1)
        self.tm_lut[row[self.tm_cell]] = p
        self.version += 1
        for q in (0, 1):
            obs = np.asarray(game.observation(row, q), dtype=np.int64).ravel()
            self.obs_lut[q, np.arange(obs.size), row[self.obs_src[q]]] = obs
        for move in game.legal_moves(row):
            self.add(p, int(move), int(game.action_of(row, move)))

    def add(self, p: int, move: int, action: int) -> None:
        """Record that ``move`` of player ``p`` is action id ``action``."""
        n = int(self.nkeys[p])
        keys = self.keys[p, :n]
        at = int(np.searchsorted(keys, move))
        if at < n and keys[at] == move:
            return
        if n == self.keys.shape[1]:
            wide = 2 * n + 8
            self.keys = np.pad(self.keys, ((0, 0), (0, wide - n)))
            self.vals = np.pad(self.vals, ((0, 0), (0, wide - n)))
        self.keys[p, at + 1 : n + 1] = self.keys[p, at:n].copy()
        self.vals[p, at + 1 : n + 1] = self.vals[p, at:n].copy()
        self.keys[p, at], self.vals[p, at] = move, action
        self.nkeys[p] = n + 1
        self.inv[p, action] = move
        if 0 <= move < DENSE_MOVES:
            if move >= self.act.shape[1]:
                wide = min(max(2 * self.act.shape[1], move + 1, 8), DENSE_MOVES)
                grown = np.full((2, wide), UNSEEN, dtype=np.int64)
                grown[:, : self.act.shape[1]] = self.act
                self.act = grown
            self.act[p, move] = action
        self.version += 1

    def _grow(self, values: int) -> None:
        have = self.tm_lut.shape[0]
        if values <= have:
            return
        self.version += 1
        self.tm_lut = np.pad(self.tm_lut, (0, values - have), constant_values=UNSEEN)
        identity = copies(self.obs_lut)
        wide = np.full((*self.obs_lut.shape[:2], values), UNSEEN, dtype=np.int64)
        wide[:, :, :have] = self.obs_lut
        wide[identity] = np.arange(values)  # a copied cell stays a copy
        self.obs_lut = wide


def readers(obs_src: Ints) -> tuple[Ints, Ints]:
    """The observation cells that read each state cell, per player: ``rd_idx[q,
    rd_start[q, c] : rd_start[q, c + 1]]`` are those of cell ``c`` (``rd_start`` is
    ``(2, C + 1)``, ``C`` past the highest cell read)."""
    top = int(obs_src.max()) + 1 if obs_src.size else 0
    start = np.zeros((2, top + 1), dtype=np.int64)
    idx = np.zeros_like(obs_src)
    for q in range(2):
        order = np.argsort(obs_src[q], kind="stable")
        idx[q] = order
        start[q, 1:] = np.cumsum(np.bincount(obs_src[q], minlength=top))
    return start, idx


def copies(lut: Ints) -> npt.NDArray[np.bool_]:
    """The (player, cell) entries of ``lut`` seen as a copy of at least three values and
    never otherwise: taken as a copy for every value."""
    seen = lut != UNSEEN
    same = lut == np.arange(lut.shape[2])
    return np.all(same | ~seen, axis=2) & (seen.sum(axis=2) >= 3)


def sample_states(game: Any, rng: np.random.Generator, games: int = SAMPLE_GAMES) -> list[State]:
    """Every position of ``games`` random games (finished ones included); every other
    game avoids a move that ends it while it can, to reach the positions of long games
    (a full Connect Four board)."""
    out: list[State] = []
    for g in range(games):
        state = game.initial_state()
        out.append(state)
        for _ in range(SAMPLE_PLIES):
            legal = [int(m) for m in game.legal_moves(state)]
            if not legal or game.outcome(state) is not None:
                break
            rng.shuffle(legal)
            child, _ = game.play(state, legal[0])
            if g % 2:
                for move in legal:
                    child, _ = game.play(state, move)
                    if game.outcome(child) is None:
                        break
            state = child
            out.append(state)
    return out


def _sources(states: Ints, targets: Ints) -> Ints:
    """For each column of ``targets`` ``(N, J)``: the state cell it is a function of over
    the samples (a copy first, then the lowest cell), or -1 (also for a target never
    seen to change: no way to tell what it reads)."""
    n_cells = states.shape[1]
    copy = np.zeros((n_cells, targets.shape[1]), dtype=bool)
    func = np.zeros_like(copy)
    for c in range(n_cells):
        order = np.argsort(states[:, c], kind="stable")
        col, tgt = states[order, c], targets[order]
        same = (col[1:] == col[:-1])[:, None]
        func[c] = ~np.any((tgt[1:] != tgt[:-1]) & same, axis=0)
        copy[c] = np.all(targets == states[:, c : c + 1], axis=0)
    varies = np.any(targets != targets[:1], axis=0)
    best = np.where(copy.any(axis=0), np.argmax(copy, axis=0), np.argmax(func, axis=0))
    return np.where(func.any(axis=0) & varies, best, -1)


def learn_layout(game: Any, values: int, seed: int = 0) -> Layout | str:
    """The :class:`Layout` of ``game``'s codec (state cells in ``0 .. values - 1``) from
    random games, checked on other random games; else why not (one line)."""
    rng = np.random.default_rng(seed)
    rows = sample_states(game, rng)
    states = np.array(rows, dtype=np.int64)
    if states.min() < 0:
        return "a state cell is negative"
    values = max(values, int(states.max()) + 1)
    movers = np.array([game.to_move(s) for s in rows], dtype=np.int64)
    tm_cell = int(_sources(states, movers[:, None])[0])
    if tm_cell < 0:
        return "the side to move is not one state cell"
    shape = tuple(game.observation_shape)
    size = int(np.prod(shape))
    obs_src = np.zeros((2, size), dtype=np.int64)
    for q in (0, 1):
        obs = np.array([np.asarray(game.observation(s, q)).ravel() for s in rows])
        obs_src[q] = _sources(states, obs)
        if np.any(obs_src[q] < 0):
            j = int(np.argmax(obs_src[q] < 0))
            return f"observation cell {j} is not seen to be a function of one state cell"
    layout = Layout(
        tm_cell=tm_cell,
        tm_lut=np.full(values, UNSEEN, dtype=np.int64),
        obs_src=obs_src,
        obs_lut=np.full((2, size, values), UNSEEN, dtype=np.int64),
        keys=np.zeros((2, 0), dtype=np.int64),
        vals=np.zeros((2, 0), dtype=np.int64),
        nkeys=np.zeros(2, dtype=np.int64),
        inv=np.full((2, game.num_actions), NO_MOVE, dtype=np.int64),
    )
    seen: dict[tuple[int, int], int] = {}
    for s in rows:
        layout.learn(game, s)
        p = int(game.to_move(s))
        for move in game.legal_moves(s):
            action = int(game.action_of(s, move))
            if seen.setdefault((p, int(move)), action) != action:
                return "an action id depends on more than the mover and the move"
    # Cells copied on every sample are copies for every value (Kalah's large pits).
    layout.obs_lut[copies(layout.obs_lut)] = np.arange(values)
    layout.version += 1
    problem = check_layout(game, layout, sample_states(game, rng, games=16))
    return layout if problem is None else problem


def check_layout(game: Any, layout: Layout, rows: list[State]) -> str | None:
    """The first disagreement of ``layout`` with the codec on ``rows`` (entries not yet
    seen are skipped), else None."""
    for s in rows:
        row = np.asarray(s, dtype=np.int64)
        if row.max() >= layout.tm_lut.shape[0]:
            continue
        p = layout.tm_lut[row[layout.tm_cell]]
        if p not in (UNSEEN, game.to_move(row)):
            return "the side to move is not one state cell"
        for q in (0, 1):
            got = layout.obs_lut[q, np.arange(layout.obs_src.shape[1]), row[layout.obs_src[q]]]
            want = np.asarray(game.observation(row, q)).ravel()
            if np.any((got != want) & (got != UNSEEN)):
                return "an observation cell is not a function of one state cell"
    return None
