"""Exact Kalah solver: MTD(f) over null-window alpha-beta with a transposition table.

Values are final margins (no depth limit, no heuristic). The search works on ``g``: what
the player to move still gains from a position (final margin minus the present store
difference), which lies in ``[-n, n]`` for ``n`` stones left in the pits. Working on
``g`` rather than the margin buys three things:

* bounds from the stones: a node whose window lies outside ``[-n, n]`` is cut at once;
* under classic rules ``g`` does not depend on the stores, so the transposition table is
  keyed by the pits and the side to move only, and positions that differ only in their
  stores share one entry (Etudes rules end when a store passes half, so there the stores
  are part of the key);
* endgame tables (:mod:`boardgames.kalah.exact.endgame`) answer every position with at most
  ``K`` stones in the pits exactly, without search.

Search enhancements: the table's move first; away from the endgame tables the moves are
ordered by what is known of each child (the middle of its known interval around the
move's gain) and a known child that refutes the node cuts it (enhanced transposition
cut-offs); near them extra turns and captures first (the engine's ``priority``); ties
broken by the history heuristic weighted by work (the positions searched under the cuts
each move caused: 4-5x fewer positions on 6 x 4 and 5 x 5); each table entry keeps a
lower and an upper bound, merged whenever the same position is searched again;
fail-soft values so MTD(f) converges in few passes.

Table replacement: buckets of two entries. The first keeps the position whose search
visited the most nodes (it is replaced only by a bigger search); the second is always
replaced. An entry is two int64 words (the 64-bit Zobrist key; both bounds, the best
move and the size of its subtree packed in one word), 16 bytes, so a bucket never
straddles two cache lines, and the table never grows beyond ``hash_mb``.

Parallel (``threads``): lazy SMP. Every null-window test runs on all threads over the one
table, shared without locks (an entry's key word holds key xor data, so a torn write is
never taken for a valid entry); each thread starts on a different root move, the first
to finish answers the test. Values are identical to one thread's.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from boardgames.core import kernels as core_kernels
from boardgames.core.kernels import AGAIN, NOT_OVER
from boardgames.core.memory import huge_zeros
from boardgames.core.numba_cache import njit_cached
from boardgames.core.prefetch import prefetch
from boardgames.core.progress import run_in_thread
from boardgames.kalah import kernels as rule_kernels
from boardgames.kalah.exact.endgame import EndgameTable, rank_state
from boardgames.kalah.exact.index import pit_stones
from boardgames.kalah.kernels import CLASSIC, apply_move, gen_moves, make_params, priority, result

ENTRY_BYTES = 16
MAX_PLY = 1024
STOP, NODES, DB_HITS, TT_HITS, BOUND_CUTS, LIMIT, ETC_CUTS = 0, 1, 2, 3, 4, 5, 6
TT_FIRST = 1 << 62
"""Ordering key of the table's move: always first."""
HIST_BITS = 40
HIST_MAX = (1 << HIST_BITS) - 1
HIST_COLS = 64
"""History heuristic: per thread, a count per (pit, stones in it, capped at 63) of the
positions searched under the nodes where sowing that pit caused the cut. It breaks the
engine's priority's ties (a move's ordering key is ``priority << HIST_BITS`` plus the
count, capped at ``HIST_MAX``; the priority is below 2 ** 10), so the moves that
refuted big subtrees elsewhere are tried first."""
MID_SHIFT = 50
"""Ordering by the known interval of a child (ETC) goes above both: ``mid2 << MID_SHIFT``
(|mid2| <= 4 x 480 stones < 2 ** 11 keeps it below TT_FIRST)."""


class SearchStopped(Exception):
    """A solve was stopped: by :meth:`Solver.stop` (Ctrl-C) or by its node limit."""


@njit(cache=True, inline="always")
def _key(states, ply, m, rules, zob):
    h = zob[2 * m + 2, states[ply, 2 * m + 2]]
    for i in range(2 * m + 2):
        if rules == CLASSIC and (i == m or i == 2 * m + 1):
            continue
        h ^= zob[i, states[ply, i]]
    return h


# frame columns of an open node (see _search)
F_ALPHA, F_BETA, F_A, F_B, F_LO, F_HI, F_BEST, F_MOVE = 0, 1, 2, 3, 4, 5, 6, 7
F_I, F_COUNT, F_AGAIN, F_GAIN, F_SLOT, F_BUCKET, F_START, F_SD, F_OWN, F_OPP = range(8, 18)
FRAME = 18
# the look at a node's children (see _search): per move, what kind of knowledge of the
# child, its endgame-table index or table key, the move's gain, extra turn, child's stones
L_KIND, L_DATA, L_GAIN, L_AGAIN, L_N = range(5)
LOOK = 5
K_EXACT, K_DB, K_TT = range(3)
T_KEY, T_DATA = 0, 1
BIAS = 1 << 14
WORK_MAX = (1 << 24) - 1
"""Table entry: two int64 words, the key xor the data, and the data: both bounds, the
best move and the size of the searched subtree packed as (lo + BIAS) << 48 |
(hi + BIAS) << 32 | (move + 1) << 24 | min(nodes, WORK_MAX). A bucket of two entries is
32 bytes, so one cache line always holds it whole."""


@njit(cache=True, inline="always")
def _lower(packed):
    return (packed >> 48) - BIAS


@njit(cache=True, inline="always")
def _upper(packed):
    return ((packed >> 32) & 0xFFFF) - BIAS


@njit(cache=True, inline="always")
def _move(packed):
    return ((packed >> 24) & 0xFF) - 1


@njit(cache=True, inline="always")
def _work(packed):
    return packed & WORK_MAX


@njit(cache=True, inline="always")
def _hist_col(states, ply, mv):
    """The history table's column of sowing ``mv`` at ``ply``: its stones, capped."""
    return min(states[ply, mv], HIST_COLS - 1)


@njit(cache=True, inline="always")
def _probe(tt, h, mask):
    """(bucket, slot, data word) of key ``h`` (uint64) in the table; slot -1 if absent.

    An entry is valid when its key word xor its data word is the key, so a torn write by
    another thread fails the test (lockless sharing); the data word is read once and
    returned, never read again after the test."""
    hk = np.int64(h)
    bucket = np.int64(h & mask) * 2
    for slot in (bucket, bucket + 1):
        packed = tt[slot, T_DATA]
        if tt[slot, T_KEY] ^ packed == hk and _work(packed) > 0:
            return bucket, slot, packed
    return bucket, np.int64(-1), np.int64(0)


@njit(cache=True, inline="always")
def _sort_moves(moves, prio, ply, count):
    """Insertion sort of ``moves[ply, :count]`` by ``prio``, highest first, stable."""
    for i in range(1, count):
        mv = moves[ply, i]
        p = prio[ply, i]
        j = i - 1
        while j >= 0 and prio[ply, j] < p:
            moves[ply, j + 1] = moves[ply, j]
            prio[ply, j + 1] = prio[ply, j]
            j -= 1
        moves[ply, j + 1] = mv
        prio[ply, j + 1] = p


@njit(cache=True)
def _table_move(states, m, rules, tt, zob):
    mask = np.uint64(tt.shape[0] // 2 - 1)
    _, slot, packed = _probe(tt, _key(states, 0, m, rules, zob), mask)
    return _move(packed) if slot >= 0 else -1


@njit_cached(rule_kernels, core_kernels, nogil=True, _nrt=False)
def _search(
    states,
    alpha0,
    beta0,
    params,
    moves,
    prio,
    fr,
    fh,
    look,
    tt,
    zob,
    db,
    dbo,
    binom,
    db_k,
    stats,
    etc,
    halt,
    rotate,
    hist,
    history,
):
    """Fail-soft alpha-beta on ``g`` of ``states[0]``; returns a bound or the value.

    Written without recursion (an explicit stack of frames ``fr[ply]``): numba's recursive
    calls pay for every array argument on every node. Several threads may run it at once
    on one table (see :meth:`Solver._g`): ``halt[0]`` set by any of them (or by a stop)
    ends the others, which then return with ``stats[STOP]`` set; ``rotate`` turns the
    root's move order so that the threads start on different root moves. ``hist`` is the
    thread's history table (see :data:`HIST_COLS`), updated at every cut when ``history``.
    """
    m = params[0]
    side = 2 * m + 2
    rules = params[1]
    mask = np.uint64(tt.shape[0] // 2 - 1)
    ply = 0
    fr[0, F_ALPHA] = alpha0
    fr[0, F_BETA] = beta0
    enter = True
    val = 0
    while True:
        if enter:
            stats[NODES] += 1
            if halt[0] != 0:
                stats[STOP] = 1
                return 0
            if stats[LIMIT] > 0 and stats[NODES] > stats[LIMIT]:
                stats[STOP] = 1
                halt[0] = 1
                return 0
            mover = states[ply, side]
            own = m if mover == 0 else 2 * m + 1
            opp = 2 * m + 1 if mover == 0 else m
            sd = states[ply, own] - states[ply, opp]
            r = result(states, ply, params)
            if r != NOT_OVER:
                val = r - sd
                enter = False
                continue
            n = 0
            for i in range(m):
                n += states[ply, i] + states[ply, m + 1 + i]
            if n <= db_k:
                stats[DB_HITS] += 1
                val = np.int64(db[dbo[n] + rank_state(states, ply, m, n, binom)])
                enter = False
                continue
            alpha = fr[ply, F_ALPHA]
            beta = fr[ply, F_BETA]
            if n <= alpha:
                stats[BOUND_CUTS] += 1
                val = n
                enter = False
                continue
            if -n >= beta:
                stats[BOUND_CUTS] += 1
                val = -n
                enter = False
                continue
            h = _key(states, ply, m, rules, zob)
            hk = np.int64(h)
            bucket, slot, packed = _probe(tt, h, mask)
            lo = -n
            hi = n
            first = -1
            if slot >= 0:
                lo = max(lo, _lower(packed))
                hi = min(hi, _upper(packed))
                first = _move(packed)
                if lo >= beta or lo == hi:
                    stats[TT_HITS] += 1
                    val = lo
                    enter = False
                    continue
                if hi <= alpha:
                    stats[TT_HITS] += 1
                    val = hi
                    enter = False
                    continue
            count = gen_moves(states, ply, params, moves)
            # order: the table's move, then the engine's priority, then the history
            for i in range(count):
                mv = moves[ply, i]
                if mv == first:
                    prio[ply, i] = TT_FIRST
                else:
                    hv = min(hist[mv, _hist_col(states, ply, mv)], HIST_MAX)
                    prio[ply, i] = (priority(states, ply, mv, params) << HIST_BITS) + hv
            if not etc:  # else sorted after the look below
                _sort_moves(moves, prio, ply, count)
            bestx = -(1 << 30)
            movex = -1
            if etc:
                # A look at the children before searching any. Children whose value is
                # known exactly (finished, in the endgame tables, exact in the table) are
                # scored here and never searched; one that refutes the node cuts it
                # (enhanced transposition cut-off), and one that cannot raise it above
                # alpha is not searched either; the table's bounds of the others order
                # them: by the middle of what is known of the move's value, the table's
                # move first, the priority breaking ties. Every read is prefetched first,
                # so that their cache misses overlap instead of coming one by one.
                for i in range(count):
                    again = apply_move(states, ply, moves[ply, i], params) == AGAIN
                    c = ply + 1
                    look[ply, i, L_GAIN] = (states[c, own] - states[c, opp]) - sd
                    look[ply, i, L_AGAIN] = again
                    rc = result(states, c, params)
                    if rc != NOT_OVER:
                        cown = m if states[c, side] == 0 else 2 * m + 1
                        copp = 2 * m + 1 if states[c, side] == 0 else m
                        look[ply, i, L_KIND] = K_EXACT
                        look[ply, i, L_DATA] = rc - (states[c, cown] - states[c, copp])
                        continue
                    nc = 0
                    for j in range(m):
                        nc += states[c, j] + states[c, m + 1 + j]
                    look[ply, i, L_N] = nc
                    if nc <= db_k:
                        idx = dbo[nc] + rank_state(states, c, m, nc, binom)
                        prefetch(db, idx)
                        look[ply, i, L_KIND] = K_DB
                        look[ply, i, L_DATA] = idx
                    else:
                        hc = _key(states, c, m, rules, zob)
                        prefetch(tt, np.int64(hc & mask) * 2)
                        look[ply, i, L_KIND] = K_TT
                        look[ply, i, L_DATA] = np.int64(hc)
                a = max(alpha, lo)
                b = min(beta, hi)
                cut = -(1 << 30)
                keep = 0
                for i in range(count):
                    kind = look[ply, i, L_KIND]
                    gain = look[ply, i, L_GAIN]
                    again = look[ply, i, L_AGAIN] != 0
                    if kind == K_EXACT:
                        gc_lo = gc_hi = look[ply, i, L_DATA]
                    elif kind == K_DB:
                        stats[DB_HITS] += 1
                        gc_lo = gc_hi = np.int64(db[look[ply, i, L_DATA]])
                    else:
                        nc = look[ply, i, L_N]
                        _, slot, packed = _probe(tt, np.uint64(look[ply, i, L_DATA]), mask)
                        gc_lo, gc_hi = -nc, nc
                        if slot >= 0:
                            gc_lo = max(gc_lo, _lower(packed))
                            gc_hi = min(gc_hi, _upper(packed))
                    if gc_lo == gc_hi:
                        v = gain + gc_lo if again else gain - gc_lo
                        if v > bestx:
                            bestx = v
                            movex = moves[ply, i]
                        continue
                    v_hi = gain + gc_hi if again else gain - gc_lo
                    if v_hi <= a:
                        # cannot raise the node above alpha: its upper bound stands in
                        # for its value, which fail-soft allows
                        if v_hi > bestx:
                            bestx = v_hi
                            movex = moves[ply, i]
                        continue
                    v = gain + gc_lo if again else gain - gc_hi
                    if v >= b and v > cut:
                        cut = v
                    if prio[ply, i] < TT_FIRST:
                        mid2 = 2 * gain + (gc_lo + gc_hi) if again else 2 * gain - (gc_lo + gc_hi)
                        prio[ply, i] += mid2 << MID_SHIFT
                    moves[ply, keep] = moves[ply, i]
                    prio[ply, keep] = prio[ply, i]
                    keep += 1
                if bestx >= b and bestx > cut:
                    cut = bestx
                if cut > -(1 << 30):
                    stats[ETC_CUTS] += 1
                    val = cut
                    enter = False
                    continue
                count = keep
                if count == 0:  # every child known: so is this node, or it fails low
                    val = bestx
                    enter = False
                    continue
                _sort_moves(moves, prio, ply, count)
            if ply == 0 and rotate > 0 and count > 1:
                for _ in range(rotate % count):
                    mv = moves[0, 0]
                    for i in range(count - 1):
                        moves[0, i] = moves[0, i + 1]
                    moves[0, count - 1] = mv
            fh[ply] = hk
            fr[ply, F_A] = max(alpha, lo, bestx)
            fr[ply, F_B] = min(beta, hi)
            fr[ply, F_LO] = lo
            fr[ply, F_HI] = hi
            fr[ply, F_BEST] = bestx
            fr[ply, F_MOVE] = movex
            fr[ply, F_I] = 0
            fr[ply, F_COUNT] = count
            fr[ply, F_SLOT] = slot
            fr[ply, F_BUCKET] = bucket
            fr[ply, F_START] = stats[NODES]
            fr[ply, F_SD] = sd
            fr[ply, F_OWN] = own
            fr[ply, F_OPP] = opp
        else:
            if ply == 0:
                halt[0] = 1  # done: the other threads may stop
                return val
            ply -= 1
            gain = fr[ply, F_GAIN]
            v = gain + val if fr[ply, F_AGAIN] != 0 else gain - val
            i = fr[ply, F_I]
            done = False
            if v > fr[ply, F_BEST]:
                fr[ply, F_BEST] = v
                fr[ply, F_MOVE] = moves[ply, i]
                if v > fr[ply, F_A]:
                    fr[ply, F_A] = v
                    if v >= fr[ply, F_B]:
                        done = True
            fr[ply, F_I] = i + 1
            if done or i + 1 >= fr[ply, F_COUNT]:
                if done and history:
                    mv = moves[ply, i]
                    hist[mv, _hist_col(states, ply, mv)] += stats[NODES] - fr[ply, F_START]
                # the node is finished: merge its bound into the table, hand it up
                best = fr[ply, F_BEST]
                lo = fr[ply, F_LO]
                hi = fr[ply, F_HI]
                if best <= max(fr[ply, F_ALPHA], lo):
                    hi = min(hi, best)
                elif best >= min(fr[ply, F_BETA], hi):
                    lo = max(lo, best)
                else:
                    lo = best
                    hi = best
                work = min(max(stats[NODES] - fr[ply, F_START], 1), WORK_MAX)
                slot = fr[ply, F_SLOT]
                bucket = fr[ply, F_BUCKET]
                target = slot
                if target < 0:
                    if work >= _work(tt[bucket, T_DATA]):
                        # the kept slot goes to the bigger search; its entry moves over
                        tt[bucket + 1, T_KEY] = tt[bucket, T_KEY]
                        tt[bucket + 1, T_DATA] = tt[bucket, T_DATA]
                        target = bucket
                    else:
                        target = bucket + 1
                else:
                    work = max(work, _work(tt[target, T_DATA]))
                packed = ((lo + BIAS) << 48) | ((hi + BIAS) << 32)
                packed |= ((fr[ply, F_MOVE] + 1) << 24) | work
                tt[target, T_DATA] = packed
                tt[target, T_KEY] = fh[ply] ^ packed
                val = best
                continue
        # play the next child of the node at ply
        mv = moves[ply, fr[ply, F_I]]
        again = apply_move(states, ply, mv, params) == AGAIN
        c = ply + 1
        gain = (states[c, fr[ply, F_OWN]] - states[c, fr[ply, F_OPP]]) - fr[ply, F_SD]
        fr[ply, F_GAIN] = gain
        if again:
            fr[ply, F_AGAIN] = 1
            fr[c, F_ALPHA] = fr[ply, F_A] - gain
            fr[c, F_BETA] = fr[ply, F_B] - gain
        else:
            fr[ply, F_AGAIN] = 0
            fr[c, F_ALPHA] = gain - fr[ply, F_B]
            fr[c, F_BETA] = gain - fr[ply, F_A]
        ply = c
        enter = True


@dataclass
class SolveResult:
    """An exact value: the final margin for the player to move under perfect play."""

    value: int
    best: list[int]
    nodes: int
    seconds: float
    db_hits: int = 0
    tt_hits: int = 0
    bound_cuts: int = 0
    passes: list[tuple[int, int, float]] = field(default_factory=list)  # (lower, upper, s)


class _Worker:
    """One search thread's own buffers (the table is shared)."""

    def __init__(self, pits: int) -> None:
        self.states = np.zeros((MAX_PLY, 2 * pits + 3), dtype=np.int64)
        self.moves = np.zeros((MAX_PLY, pits), dtype=np.int64)
        self.prio = np.zeros((MAX_PLY, pits), dtype=np.int64)
        self.frames = np.zeros((MAX_PLY, FRAME), dtype=np.int64)
        self.fh = np.zeros(MAX_PLY, dtype=np.int64)
        self.look = np.zeros((MAX_PLY, pits, LOOK), dtype=np.int64)
        self.stats = np.zeros(7, dtype=np.int64)
        self.value = 0
        self.hist = np.zeros((2 * pits + 2, HIST_COLS), dtype=np.int64)


class Solver:
    """Holds the buffers and the transposition table; reuse it for many positions.

    ``threads`` > 1 runs every null-window test on that many threads over the one table
    (lazy SMP: each thread starts on a different root move, all share what the others
    have proved, the first to finish answers the test); the values are the same.
    Setting ``history`` (or ``etc``, the look at the children) to False turns that
    enhancement off, for measurements; the values stay the same.
    """

    def __init__(
        self,
        pits: int,
        rules: str = "classic",
        hash_mb: float = 64,
        endgame: EndgameTable | None = None,
        seed: int = 20001,
        empty_capture: bool = False,
        threads: int = 1,
    ) -> None:
        if endgame is not None and (
            endgame.pits != pits or rules != "classic" or endgame.empty_capture != empty_capture
        ):
            raise ValueError("the endgame table must match the board and the rules")
        if threads < 1:
            raise ValueError(f"threads must be at least 1, got {threads}")
        self.pits = pits
        self.rules = rules
        self.empty_capture = empty_capture
        entries = max(4, int(hash_mb * 2**20) // ENTRY_BYTES)
        size = 1 << (entries.bit_length() - 1)  # a power of two within the budget
        self.tt = huge_zeros((size, 2), np.int64)
        rng = np.random.default_rng(seed)
        self.zob = rng.integers(0, 2**63, size=(2 * pits + 3, 2 * 480 + 2), dtype=np.uint64)
        self.workers = [_Worker(pits) for _ in range(threads)]
        self.halt = np.zeros(1, dtype=np.int64)
        self._stopped = False
        self._interrupted = False
        self.limit = 0
        self.etc = True
        self.history = True
        if endgame is None:
            self.db = np.zeros(1, dtype=np.int8)
            self.dbo = np.zeros(2, dtype=np.int64)
            self.binom = np.ones((2, 2), dtype=np.int64)
            self.db_k = -1
        else:
            self.db, self.dbo, self.binom = endgame.table, endgame.offsets, endgame.binom
            self.db_k = endgame.stones

    def count(self, counter: int) -> int:
        """A counter (``NODES``, ``DB_HITS``, ...) summed over the threads."""
        return int(sum(int(w.stats[counter]) for w in self.workers))

    @property
    def table_bytes(self) -> int:
        return int(self.tt.nbytes)

    def warm_up(self) -> float:
        """Compile (or load from numba's cache) every kernel a solve calls: the search and
        the small ones of the best move; the seconds it took, kept out of the solve's time.
        (A first guess's kernels are its own: :meth:`FirstGuess.warm_up` in ``play``.)

        Kernel code depends on the argument types only, so a one-pit board will do.
        """
        t0 = time.perf_counter()
        tiny = Solver(1, self.rules, hash_mb=0.001, empty_capture=self.empty_capture)
        tiny.solve(np.array([2, 0, 2, 0, 0], dtype=np.int64))
        return time.perf_counter() - t0

    def stop(self) -> None:
        """Ask a running search to stop (from another thread)."""
        self._stopped = True
        self.halt[0] = 1

    def interrupt(self) -> None:
        """End the current search early, as its node limit would (:class:`SearchStopped`),
        keeping the solver usable: what its table holds stays for the next one (from
        another thread; a search not yet started ends at once; :meth:`_reset` clears it)."""
        self._interrupted = True
        self.halt[0] = 1

    def _params(self, state: np.ndarray) -> np.ndarray:
        m = self.pits
        total = int(state[: 2 * m + 2].sum())
        return make_params(m, self.rules, "store", total, self.empty_capture)

    def _run(self, w: _Worker, params: np.ndarray, alpha: int, beta: int, rotate: int) -> None:
        w.stats[STOP] = 0
        w.stats[LIMIT] = self.limit
        w.value = int(
            _search(
                w.states,
                alpha,
                beta,
                params,
                w.moves,
                w.prio,
                w.frames,
                w.fh,
                w.look,
                self.tt,
                self.zob,
                self.db,
                self.dbo,
                self.binom,
                self.db_k,
                w.stats,
                self.etc,
                self.halt,
                rotate,
                w.hist,
                self.history,
            )
        )

    def _g(self, state: np.ndarray, alpha: int, beta: int) -> int:
        """One fail-soft search of ``g`` in the window (alpha, beta), on every thread."""
        self.halt[0] = 0
        if self._stopped or self._interrupted:  # after the reset: a stop is never lost
            raise SearchStopped
        params = self._params(state)
        for w in self.workers:
            w.states[0] = state
        helpers = [
            threading.Thread(target=self._run, args=(w, params, alpha, beta, i + 1))
            for i, w in enumerate(self.workers[1:])
        ]
        for t in helpers:
            t.start()
        self._run(self.workers[0], params, alpha, beta, 0)
        for t in helpers:
            t.join()
        for w in self.workers:
            if not w.stats[STOP]:
                return w.value
        raise SearchStopped

    def store_difference(self, state: np.ndarray, player: int | None = None) -> int:
        """Own store minus the opponent's, for ``player`` (default: the side to move)."""
        m = self.pits
        if player is None:
            player = int(state[2 * m + 2])
        own, opp = (m, 2 * m + 1) if player == 0 else (2 * m + 1, m)
        return int(state[own] - state[opp])

    def gain(
        self,
        state: np.ndarray,
        guess: int = 0,
        report: Callable[[int, int], None] | None = None,
    ) -> int:
        """Exact ``g`` by MTD(f): null-window tests until the bounds meet."""
        m = self.pits
        n = pit_stones(state, m)
        # Under classic rules every stone ends in a store, so g has the parity of n and
        # bounds can be rounded to it (Etudes may leave stones in the pits: no rounding).
        parity = self.rules == "classic"

        def down(v: int) -> int:
            return v - 1 if parity and (v - n) % 2 else v

        def up(v: int) -> int:
            return v + 1 if parity and (v - n) % 2 else v

        lower, upper = -n, n
        g = max(lower, min(upper, up(guess)))
        while lower < upper:
            beta = g if g > lower else up(g + 1)
            v = self._g(state, beta - 1, beta)
            if v < beta:
                upper = g = down(v)
            else:
                lower = g = up(v)
            if report is not None:
                report(lower, upper)
        return g

    def solve(
        self,
        state: np.ndarray,
        report: Callable[[int, int], None] | None = None,
        *,
        node_limit: int = 0,
        guess: int | Callable[[np.ndarray], int] | None = None,
    ) -> SolveResult:
        """The exact value of ``state`` and a best compound move (first of equals in order).

        ``node_limit`` (0: none) stops the search with :class:`SearchStopped` once it has
        visited that many positions. ``guess`` is MTD(f)'s first try for the value, or a
        function of the position that gives it (its time counts as the solve's, as
        :class:`~boardgames.kalah.play.guess.FirstGuess`); None tries the present store
        lead. Any guess gives the same value; a close one takes fewer passes.
        """
        t0 = time.perf_counter()
        self._reset(node_limit)
        sd = self.store_difference(state)
        passes: list[tuple[int, int, float]] = []

        def note(lower: int, upper: int) -> None:
            passes.append((lower + sd, upper + sd, time.perf_counter() - t0))
            if report is not None:
                report(lower + sd, upper + sd)

        if guess is None:
            guess = sd
        elif callable(guess):
            guess = guess(state)
        g = self.gain(state, guess - sd, note)
        best = self.best_line(state, g)
        return SolveResult(
            g + sd,
            best,
            self.count(NODES),
            time.perf_counter() - t0,
            self.count(DB_HITS),
            self.count(TT_HITS),
            self.count(BOUND_CUTS),
            passes,
        )

    def _reset(self, node_limit: int) -> None:
        """Zero the counters; ``node_limit`` positions (0: no limit) per thread."""
        for w in self.workers:
            w.stats[:] = 0
            w.hist[:] = 0
        self.limit = node_limit
        self._interrupted = False

    def _child(self, state: np.ndarray, pit: int) -> tuple[np.ndarray, bool, int]:
        """The position after sowing ``pit``, whether the mover goes again, and the change
        of the store difference for the mover."""
        m = self.pits
        buf = np.zeros((2, 2 * m + 3), dtype=np.int64)
        buf[0] = state
        again = apply_move(buf, 0, pit, self._params(state)) == AGAIN
        child = buf[1].copy()
        mover = int(state[2 * m + 2])
        gain = self.store_difference(child, mover) - self.store_difference(state)
        return child, again, gain

    def legal(self, state: np.ndarray) -> list[int]:
        m = self.pits
        if result(state.reshape(1, -1), 0, self._params(state)) != NOT_OVER:
            return []
        first = 0 if state[2 * m + 2] == 0 else m + 1
        return [i for i in range(first, first + m) if state[i] > 0]

    def reaches(self, state: np.ndarray, pit: int, g: int) -> bool:
        """True when sowing ``pit`` keeps the mover's gain at ``g`` or more (one null-window
        test of the child)."""
        child, again, gain = self._child(state, pit)
        if again:
            return self._g(child, g - gain - 1, g - gain) >= g - gain
        return self._g(child, gain - g, gain - g + 1) <= gain - g

    def after(self, state: np.ndarray, pits: list[int] | tuple[int, ...]) -> np.ndarray:
        """The position after the sowings ``pits`` (legal ones, as a record holds them)."""
        for pit in pits:
            state, _, _ = self._child(state, pit)
        return state

    def is_over(self, state: np.ndarray) -> bool:
        return not self.legal(state)

    def value(self, state: np.ndarray, node_limit: int = 0) -> int:
        """Exact final margin for the player to move in ``state`` (perfect play); raises
        :class:`SearchStopped` past ``node_limit`` positions (0: no limit)."""
        if self.is_over(state):
            return int(result(state.reshape(1, -1), 0, self._params(state)))
        self._reset(node_limit)
        return self.gain(state) + self.store_difference(state)

    def table_move(self, state: np.ndarray) -> int:
        """The best move the transposition table holds for ``state``, or -1."""
        row = state.reshape(1, -1)
        return int(_table_move(row, self.pits, self._params(state)[1], self.tt, self.zob))

    def best_line(self, state: np.ndarray, g: int) -> list[int]:
        """A compound move that keeps the gain ``g``: at each sowing the table's move when
        it keeps ``g`` (one quick null-window test: the search has just proved it), else
        the first in pit order that does."""
        line: list[int] = []
        while True:
            legal = self.legal(state)
            first = self.table_move(state)
            order = ([first] if first in legal else []) + [p for p in legal if p != first]
            pit = next((p for p in order if self.reaches(state, p, g)), None)
            if pit is None:
                return line
            line.append(pit)
            child, again, gain = self._child(state, pit)
            if not again:
                return line
            g -= gain
            state = child


def solve_in_thread(
    solver: Solver,
    state: np.ndarray,
    report: Callable[[int, int], None] | None = None,
    tick: Callable[[], None] | None = None,
    guess: int | Callable[[np.ndarray], int] | None = None,
) -> SolveResult:
    """Run :meth:`Solver.solve` in a worker thread so that the main thread stays free to
    show progress (``tick`` every 0.1 s) and to stop the search cleanly on Ctrl-C."""
    return run_in_thread(
        lambda: solver.solve(state, report, guess=guess), stop=solver.stop, tick=tick
    )
