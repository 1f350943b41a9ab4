"""The numba-jitted negamax family, generic over a game's jitted rule functions.

A game plugs in by giving five plain jitted functions over a stack of states
(:class:`GameKernels`); ``states`` is a 2-D int64 array whose row ``ply`` is the position
``ply`` single moves below the root (each game documents the cells of a row):

* ``gen_moves(states, ply, params, moves) -> n``: legal moves of ``states[ply]`` into
  ``moves[ply, :n]`` in the game's natural order (the order of ``Game.legal_moves``);
* ``apply_move(states, ply, move, params) -> code``: copy ``states[ply]`` into
  ``states[ply + 1]`` and play ``move`` there (copy-make, no unmake); ``code`` is
  :data:`TURN_PASSES`, :data:`AGAIN` (the same player moves again: Kalah's extra turn) or
  :data:`OVER` (the move ended the game: exactly then);
* ``result(states, ply, params) -> int``: :data:`NOT_OVER`, or the final margin for the
  side to move (``Game.outcome``);
* ``evaluate(states, ply, params) -> int``: the heuristic for the side to move;
* ``priority(states, ply, move, params) -> int``: a move-ordering bonus (only ordering
  depends on it; 0 everywhere is fine).

``params`` is an int64 array of the game's settings. No Python object is touched in the
hot loop and nothing is allocated per node: all buffers live in a :class:`Workspace`.

How the rule functions reach the search (measured, see docs/sections/engine.md): numba
can take jitted functions as arguments, but the compiled search is then keyed by the
functions' per-process identity and ``cache=True`` misses in every new process (several
seconds of compile before the first move). Instead :func:`build_engine` makes the kernels
per game as closures over the rule functions and gives them an on-disk cache keyed by the
game's kernel source (:class:`_GameCache`), so a fresh process loads them in well under a
second. The rule calls are direct calls that LLVM can inline.

Scores follow :mod:`boardgames.core.protocol` exactly as core/search.py does: a finished
game scores ``terminal_score(result, ply)`` with ``ply`` counting every single move from
the root; depth 0 evaluates; a move with ``again`` neither flips the sign nor (unless the
``AGAIN_IS_PLY`` flag is set) costs depth.

Strategies (kernels here, drivers in core/strategies.py):

* ``minimax``: plain negamax (every node visited): ``search`` with the flag
  :data:`NO_PRUNING` alone (one kernel fewer to compile per game; the same positions,
  value and line as core/search.minimax);
* ``alphabeta``: Knuth-Moore F2, fail-hard, natural order, the first strictly better move
  kept - the same tree, value, best move and node count as core/search.alphabeta. Written
  as a loop over an explicit stack of frames, the node being searched in locals, and
  children that need no search (game over, no depth left) scored in place without a frame;
* ``search`` with flags: ``ORDER`` (game priority, then two killer moves per ply, then the
  history heuristic), ``TT`` (transposition table, its move first; bounds reused only from
  entries searched to the same remaining depth, as core/search.alphabeta_tt, hence exact
  at every depth), ``PVS`` (null windows after the first move), ``SOFT`` (fail-soft, needed
  by MTD(f)).

Transposition table: Zobrist keys (a random 64-bit word per cell and value, xor-ed over the
cells of a row), buckets of two entries: the first slot keeps the entry searched deepest
(replaced when the new search is at least as deep), the second is always replaced. The full
64-bit key is compared on probe; two positions with the same 64-bit key are taken as equal
(a chance of about 2^-64 per probe). The table is sized to stay within its MiB budget
(:class:`TranspositionTable`).

Lines deeper than :data:`MAX_PLY` single moves (never reached by the searches we run) are
cut and evaluated there.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from numba import njit
from numba.core.caching import FunctionCache

from boardgames.core.protocol import INFINITY, MARGIN_UNIT, WIN
from boardgames.core.protocol import MAX_PLY as _MAX_SCORE_PLY

NOT_OVER = -(1 << 62)
"""What ``result`` returns while the game goes on."""
MAX_PLY = 512
"""Rows of the state stack: the deepest line (in single moves) a search follows."""
PV_LENGTH = 64
"""Longest principal variation kept."""
DEPTH_INF = 1 << 30
"""Remaining depth that never runs out (search to the end of the game)."""
HISTORY_SIZE = 4096

AGAIN_IS_PLY, ORDER, TT, PVS, SOFT, CHECK = 1, 2, 4, 8, 16, 32
NO_PRUNING = 64
"""``search``'s flag for plain negamax: every move searched with the whole window
(alpha, beta) and no cut-off, whatever the moves before it returned."""
TURN_PASSES, AGAIN, OVER = 0, 1, 2
"""What ``apply_move`` returns: the turn passes to the other player, the same player moves
again, or the move ended the game. The search calls ``result`` only at the root and after
an OVER move, so ``apply_move`` must return OVER exactly when the game ends (else a
finished position silently scores as the window's bound). None of them is a game's move: a
game whose player passes (a forced pass) plays that pass as a move of its own."""
PASS = TURN_PASSES
"""The old name of :data:`TURN_PASSES` (it read like a game's pass move)."""
EXACT, LOWER, UPPER = 0, 1, 2
ENTRY_BYTES = 4 * 8
"""Bytes per table entry: key, value, move, depth and flag (four int64 words)."""


class GameKernels(NamedTuple):
    """A game's jitted rule functions and a tag that changes when their source changes."""

    gen_moves: Any
    apply_move: Any
    result: Any
    evaluate: Any
    priority: Any
    tag: str


def kernel_tag(path: str) -> str:
    """A short hash of a kernel module's source, for the on-disk cache key."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


class _GameCache(FunctionCache):
    """numba's file cache for a closure, keyed by a stable tag instead of the closure's
    cell contents (jitted functions pickle with a per-process id, so numba's own key
    would miss in every new process)."""

    def __init__(self, py_func: Any, tag: str) -> None:
        super().__init__(py_func)
        self._tag = tag

    def _index_key(self, sig: Any, codegen: Any) -> tuple[Any, ...]:
        code = hashlib.sha256(self._py_func.__code__.co_code).hexdigest()
        tag = hashlib.sha256((self._tag + kernel_tag(__file__)).encode()).hexdigest()
        return (sig, codegen.magic_tuple(), (code, tag))


GameCache = _GameCache
"""The file cache of a jitted closure keyed by a stable tag (for other kernel modules)."""


def _jit(func: Any, tag: str) -> Any:
    # _nrt=False: no reference counting in the kernels. They allocate nothing, but with
    # numba's runtime on, every inlined rule call bracketed the state stack with an
    # NRT_incref/NRT_decref pair (two atomic operations and two calls a move) that the
    # refcount pruning did not remove. Measured: +6% positions/s for alphabeta, -20 to -27%
    # time for the search kernel (docs/sections/engine.md).
    # nogil: a search may run in a worker thread while the main thread shows progress and
    # sees Ctrl-C, then stops it through Workspace.abort (core/compare.py).
    dispatcher = njit(func, _nrt=False, nogil=True)  # type: ignore[call-overload]  # _nrt: not in the stubs
    dispatcher._cache = _GameCache(dispatcher.py_func, tag)
    return dispatcher


@njit(cache=True, inline="always")
def terminal(result: int, ply: int) -> int:
    """core.protocol.terminal_score, jitted."""
    if result == 0:
        return 0
    p = min(ply, _MAX_SCORE_PLY)
    magnitude = WIN + abs(result) * MARGIN_UNIT - p
    return magnitude if result > 0 else -magnitude


@njit(cache=True, inline="always")
def _to_table(value, ply):
    if value > WIN // 2:
        return value + ply
    if value < -(WIN // 2):
        return value - ply
    return value


@njit(cache=True, inline="always")
def _from_table(value, ply):
    if value > WIN // 2:
        return value - ply
    if value < -(WIN // 2):
        return value + ply
    return value


@njit(cache=True, inline="always")
def _set_pv(pv, ply, move):
    pv[ply, 0] = move
    k = min(pv[ply + 1, PV_LENGTH], PV_LENGTH - 1)
    for j in range(k):
        pv[ply, j + 1] = pv[ply + 1, j]
    pv[ply, PV_LENGTH] = k + 1


@njit(cache=True, inline="always")
def _history_index(move):
    return (move ^ (move >> 12) ^ (move >> 24)) & (HISTORY_SIZE - 1)


class Engine(NamedTuple):
    """The compiled search kernels of one game (see :func:`build_engine`)."""

    alphabeta: Any
    search: Any
    kernels: GameKernels


_ENGINES: dict[str, Engine] = {}


def build_engine(k: GameKernels) -> Engine:
    """The search kernels specialised to one game's rule functions (memoised per tag)."""
    if k.tag in _ENGINES:
        return _ENGINES[k.tag]
    gen_moves, apply_move, result, evaluate, priority = (
        k.gen_moves,
        k.apply_move,
        k.result,
        k.evaluate,
        k.priority,
    )

    def alphabeta(states, moves, params, pv, stats, frames, depth, alpha, beta, again_is_ply):
        # F2 without recursion. The node being searched lives in locals (a: alpha, raised
        # as moves improve it; b: beta; d: remaining depth; n moves, i the one being
        # tried); frames[ply] = (a, b, d, n, i, again) keeps the open nodes above it.
        # Children that need no search (game over, depth or stack exhausted) are scored
        # in place without a frame. Counters stay in locals: stores into the state stack
        # may alias the other arrays.
        cap = states.shape[0] - 2
        nodes = stats[0] + 1
        limit = stats[2]
        pv[0, PV_LENGTH] = 0
        if nodes > limit:
            stats[0] = nodes
            stats[1] = 1
            return 0
        r = result(states, 0, params)
        if r != NOT_OVER:
            stats[0] = nodes
            return terminal(r, 0)
        if depth <= 0 or cap <= 0:
            stats[0] = nodes
            return evaluate(states, 0, params)
        ply = 0
        a = alpha
        b = beta
        d = depth
        n = gen_moves(states, 0, params, moves)
        i = 0
        val = 0
        while True:
            if i < n:
                mv = moves[ply, i]
                code = apply_move(states, ply, mv, params)
                c = ply + 1
                nodes += 1
                if (nodes & 4095) == 0:
                    limit = stats[2]  # another thread may lower it: Workspace.abort
                if nodes > limit:
                    stats[0] = nodes
                    stats[1] = 1
                    return 0
                again = code == AGAIN
                cd = d - 1 if (not again or again_is_ply) else d
                leaf = True
                v = 0
                r = NOT_OVER
                if code == OVER:
                    r = result(states, c, params)
                if r != NOT_OVER:
                    v = terminal(r, c)
                elif cd <= 0 or c >= cap:
                    v = evaluate(states, c, params)
                else:
                    leaf = False
                if leaf:
                    t = v if again else -v
                    if t > a:
                        a = t
                        pv[ply, 0] = mv
                        pv[ply, PV_LENGTH] = 1
                        if t >= b:
                            val = t
                            i = n + 1  # done: return val
                            continue
                    i += 1
                    continue
                # search the child: save this node, open the child
                frames[ply, 0] = a
                frames[ply, 1] = b
                frames[ply, 2] = d
                frames[ply, 3] = n
                frames[ply, 4] = i
                frames[ply, 5] = 1 if again else 0
                if not again:
                    a, b = -b, -a
                d = cd
                ply = c
                pv[ply, PV_LENGTH] = 0
                n = gen_moves(states, ply, params, moves)
                i = 0
                continue
            # the node at ply is finished: its value is val after a cut-off (i > n), else a
            if i <= n:
                val = a
            while True:
                if ply == 0:
                    stats[0] = nodes
                    return val
                ply -= 1
                a = frames[ply, 0]
                b = frames[ply, 1]
                d = frames[ply, 2]
                n = frames[ply, 3]
                i = frames[ply, 4]
                t = val if frames[ply, 5] != 0 else -val
                if t > a:
                    a = t
                    _set_pv(pv, ply, moves[ply, i])
                    if t >= b:
                        val = t
                        continue
                i += 1
                break

    def search(states, moves, params, pv, stats, tt, zob, heur, ply, depth, alpha, beta, flags):
        stats[0] += 1
        pv[ply, PV_LENGTH] = 0
        if stats[0] > stats[2]:
            stats[1] = 1
            return 0
        if (flags & CHECK) != 0:
            r = result(states, ply, params)
            if r != NOT_OVER:
                return terminal(r, ply)
        if depth <= 0 or ply >= states.shape[0] - 2:
            return evaluate(states, ply, params)
        use_tt = (flags & TT) != 0
        tt_move = -1
        h = 0
        bucket = 0
        if use_tt:
            for i in range(states.shape[1]):
                h ^= zob[i, states[ply, i]]
            bucket = (h & (tt.shape[0] // 2 - 1)) * 2
            slot = -1
            if tt[bucket, 3] != 0 and tt[bucket, 0] == h:
                slot = bucket
            elif tt[bucket + 1, 3] != 0 and tt[bucket + 1, 0] == h:
                slot = bucket + 1
            if slot >= 0:
                tt_move = tt[slot, 2]
                if tt[slot, 3] >> 2 == depth + 1:
                    v = _from_table(tt[slot, 1], ply)
                    f = tt[slot, 3] & 3
                    if f == EXACT or (f == LOWER and v >= beta) or (f == UPPER and v <= alpha):
                        stats[3] += 1
                        if tt_move >= 0:
                            pv[ply, 0] = tt_move
                            pv[ply, PV_LENGTH] = 1
                        return v
        n = gen_moves(states, ply, params, moves)
        if (flags & ORDER) != 0:
            half = moves.shape[1] // 2  # scores live in the second half of a moves row
            k0 = heur[2 * ply]
            k1 = heur[2 * ply + 1]
            hist = heur.shape[0] - HISTORY_SIZE
            for i in range(n):
                mv = moves[ply, i]
                sc = priority(states, ply, mv, params) << 40
                if mv == k0:
                    sc += 1 << 39
                elif mv == k1:
                    sc += 1 << 38
                sc += heur[hist + _history_index(mv)]
                moves[ply, half + i] = sc
            for i in range(1, n):  # stable insertion sort, highest score first
                sc = moves[ply, half + i]
                mv = moves[ply, i]
                j = i - 1
                while j >= 0 and moves[ply, half + j] < sc:
                    moves[ply, half + j + 1] = moves[ply, half + j]
                    moves[ply, j + 1] = moves[ply, j]
                    j -= 1
                moves[ply, half + j + 1] = sc
                moves[ply, j + 1] = mv
        if tt_move >= 0:
            for i in range(n):
                if moves[ply, i] == tt_move:
                    for j in range(i, 0, -1):
                        moves[ply, j] = moves[ply, j - 1]
                    moves[ply, 0] = tt_move
                    break
        soft = (flags & SOFT) != 0
        pvs = (flags & PVS) != 0
        best = -INFINITY if soft else alpha
        best_move = -1
        for i in range(n):
            mv = moves[ply, i]
            code = apply_move(states, ply, mv, params)
            again = code == AGAIN
            cf = (flags | CHECK) if code == OVER else (flags & ~CHECK)
            cd = depth - 1 if (not again or (flags & AGAIN_IS_PLY) != 0) else depth
            a = alpha if (flags & NO_PRUNING) != 0 else max(alpha, best)
            # one call site for the first search of a child and one for the re-search
            # (numba's compile time grows with every recursive call site)
            scout = pvs and i > 0
            if again:
                lo, hi = a, (a + 1 if scout else beta)
            else:
                lo, hi = (-a - 1 if scout else -beta), -a
            t = search_(states, moves, params, pv, stats, tt, zob, heur, ply + 1, cd, lo, hi, cf)
            if not again:
                t = -t
            if scout and a < t < beta:
                lo, hi = (a, beta) if again else (-beta, -a)
                t = search_(
                    states, moves, params, pv, stats, tt, zob, heur, ply + 1, cd, lo, hi, cf
                )
                if not again:
                    t = -t
            if stats[1] != 0:
                return 0
            if t > best:
                best = t
                best_move = mv
                _set_pv(pv, ply, mv)
                if best >= beta and (flags & NO_PRUNING) == 0:
                    if (flags & ORDER) != 0:
                        if heur[2 * ply] != mv:
                            heur[2 * ply + 1] = heur[2 * ply]
                            heur[2 * ply] = mv
                        d = min(depth, 64)
                        heur[heur.shape[0] - HISTORY_SIZE + _history_index(mv)] += d * d
                    break
        if use_tt:
            if best <= alpha:
                flag = UPPER
            elif best >= beta:
                flag = LOWER
            else:
                flag = EXACT
            store_move = best_move if best_move >= 0 else tt_move
            slot = bucket
            meta = tt[bucket, 3]
            if meta != 0 and tt[bucket, 0] != h and (meta >> 2) > depth + 1:
                slot = bucket + 1
            tt[slot, 0] = h
            tt[slot, 1] = _to_table(best, ply)
            tt[slot, 2] = store_move
            tt[slot, 3] = ((min(depth, DEPTH_INF) + 1) << 2) | flag
        return best

    tag = k.tag
    alphabeta_ = _jit(alphabeta, tag)
    search_ = _jit(search, tag)
    engine = Engine(alphabeta_, search_, k)
    _ENGINES[k.tag] = engine
    return engine


class TranspositionTable:
    """A two-entry-bucket table in one int64 array of ``entries x 4`` words, at most ``mib``
    MiB: key, value, move, and ``(depth + 1) * 4 + flag`` (0 marks an empty slot).

    The entry count is the largest power of two whose array fits the budget
    (:data:`ENTRY_BYTES` per entry); ``nbytes`` is what the array really takes.
    """

    def __init__(self, mib: float = 64.0) -> None:
        if mib <= 0:
            raise ValueError("the table size must be positive")
        budget = int(mib * (1 << 20))
        entries = 2
        while entries * 2 * ENTRY_BYTES <= budget:
            entries *= 2
        self.mib = mib
        self.table = np.zeros((entries, 4), dtype=np.int64)

    @property
    def entries(self) -> int:
        return self.table.shape[0]

    @property
    def nbytes(self) -> int:
        return self.table.nbytes

    def clear(self) -> None:
        self.table[:, 3] = 0

    def used(self) -> int:
        """Entries in use."""
        return int(np.count_nonzero(self.table[:, 3]))


class Workspace:
    """Every buffer a search needs, allocated once (no allocation per node).

    ``cells`` is the length of a state row, ``max_moves`` the most legal moves a position
    of the game can have, ``max_value`` the largest value a cell can hold (sizes the
    Zobrist table). ``moves`` rows hold the moves, then their ordering scores; ``pv`` rows
    end with the line's length; ``heur`` holds two killer moves per ply, then the history
    table; ``stats`` holds: nodes, aborted flag, node limit, table cut-offs.
    """

    def __init__(
        self,
        cells: int,
        max_moves: int,
        max_value: int,
        tt_mib: float | None = None,
        seed: int = 20260101,
    ) -> None:
        self.states = np.zeros((MAX_PLY + 2, cells), dtype=np.int64)
        self.moves = np.zeros((MAX_PLY + 1, 2 * max(1, max_moves)), dtype=np.int64)
        self.pv = np.zeros((MAX_PLY + 2, PV_LENGTH + 1), dtype=np.int64)
        self.stats = np.zeros(4, dtype=np.int64)
        self.frames = np.zeros((MAX_PLY + 2, 8), dtype=np.int64)
        self.heur = np.zeros(2 * (MAX_PLY + 2) + HISTORY_SIZE, dtype=np.int64)
        rng = np.random.default_rng(seed)
        self.zobrist = rng.integers(
            0, np.iinfo(np.int64).max, size=(cells, max_value + 1), dtype=np.int64
        )
        self.tt = TranspositionTable(tt_mib) if tt_mib else TranspositionTable(1.0)
        self.max_value = max_value
        self.stop_requested = False
        self.clear_heuristics()

    def reset(self, root: np.ndarray, node_limit: int | None = None) -> None:
        """Put ``root`` in row 0 and zero the counters (tables and heuristics are kept)."""
        if int(root.max()) > self.max_value or int(root.min()) < 0:
            raise ValueError("position holds a value outside the workspace's Zobrist table")
        self.states[0, :] = root
        self.stats[:] = 0
        self.stats[2] = node_limit if node_limit is not None else np.iinfo(np.int64).max
        if self.stop_requested:
            self.stats[2] = -1

    def abort(self) -> None:
        """Make the search running on this workspace (in another thread) stop soon, as if
        it had hit its node limit, and every later one at once, until :meth:`resume`."""
        self.stop_requested = True
        self.stats[2] = -1

    def resume(self) -> None:
        """Searches run again after :meth:`abort`."""
        self.stop_requested = False
        self.pv[:, PV_LENGTH] = 0

    def clear_heuristics(self, table: bool = True) -> None:
        """Forget killers, history and (with ``table``) the table, so that a search does not
        depend on earlier ones. Clearing a large table takes milliseconds: searches that
        do not use it skip that."""
        self.heur[: 2 * (MAX_PLY + 2)] = -1
        self.heur[2 * (MAX_PLY + 2) :] = 0
        if table:
            self.tt.clear()

    def principal_variation(self) -> list[int]:
        return [int(x) for x in self.pv[0, : self.pv[0, PV_LENGTH]]]


def run_minimax(engine: Engine, ws: Workspace, params: np.ndarray, depth: int, again_is_ply: bool):
    """Plain negamax from ``ws.states[0]`` (``search`` with :data:`NO_PRUNING` and
    nothing else); returns the value."""
    flags = NO_PRUNING | (AGAIN_IS_PLY if again_is_ply else 0)
    return run_search(engine, ws, params, depth, flags)


def run_alphabeta(
    engine: Engine,
    ws: Workspace,
    params: np.ndarray,
    depth: int,
    again_is_ply: bool,
    alpha: int = -INFINITY,
    beta: int = INFINITY,
):
    """F2 from ``ws.states[0]``; returns the value."""
    return engine.alphabeta(
        ws.states, ws.moves, params, ws.pv, ws.stats, ws.frames, depth, alpha, beta, again_is_ply
    )


def run_search(
    engine: Engine,
    ws: Workspace,
    params: np.ndarray,
    depth: int,
    flags: int,
    alpha: int = -INFINITY,
    beta: int = INFINITY,
):
    """The flagged alpha-beta from ``ws.states[0]``; returns the value."""
    return engine.search(
        ws.states,
        ws.moves,
        params,
        ws.pv,
        ws.stats,
        ws.tt.table,
        ws.zobrist,
        ws.heur,
        0,
        depth,
        alpha,
        beta,
        flags | CHECK,
    )
