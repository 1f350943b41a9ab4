"""numba-jitted N-queens counters: bitmask backtracking with an explicit stack.

Import this module only where a jitted count runs: it imports numba (the CLI imports it
inside the command function). Everything is compiled with ``cache=True``, so the JIT
cost is paid once per machine (see ``benchmarks/queens_bench.py`` for its size).

Work comes as *subtasks* (:func:`boardgames.queens.solve.subtasks`): prefixes of the first
rows turned into bitmasks (busy columns, the two diagonal masks) plus a weight. The
serial and the ``prange`` kernels count the completions of the same subtasks, so they
must agree task by task.
"""

from __future__ import annotations

import os
import time

# Idle OpenMP threads (numba's "omp" threading layer) spin for a while after every
# parallel region by default, stealing a core from the serial kernels that run next;
# make them sleep instead. Must be set before the first parallel region; users may override.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numba
import numpy as np
import numpy.typing as npt
from numba import njit, prange

from boardgames.queens.solve import Prefix, Task, prefix_masks

Masks = tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]

STACK = 64


@njit(cache=True, nogil=True)
def complete(n: int, cols0: int, ld0: int, rd0: int) -> int:
    """Number of ways to fill the remaining rows given the busy masks of the next row.

    Iterative depth-first search; level ``d`` of the stack keeps the masks of its row
    and the squares still to try there. A child whose row has no free square is a dead
    end and is not pushed (the same test the recursive C counter makes on entering it,
    without the push and pop). ``ld`` is not trimmed to N bits: it only ever meets
    ``full`` through an ``&``, and 2N bits fit in 64.
    """
    full = (np.int64(1) << n) - 1
    if cols0 == full:
        return 1
    sc = np.empty(STACK, np.int64)
    sl = np.empty(STACK, np.int64)
    sr = np.empty(STACK, np.int64)
    sf = np.empty(STACK, np.int64)
    sc[0] = cols0
    sl[0] = ld0
    sr[0] = rd0
    sf[0] = full & ~(cols0 | ld0 | rd0)
    count = 0
    d = 0
    while d >= 0:
        free = sf[d]
        if free == 0:
            d -= 1
            continue
        bit = free & -free
        sf[d] = free ^ bit
        c = sc[d] | bit
        if c == full:
            count += 1
            continue
        lnext = (sl[d] | bit) << 1
        rnext = (sr[d] | bit) >> 1
        nfree = full & ~(c | lnext | rnext)
        if nfree == 0:
            continue
        d += 1
        sc[d] = c
        sl[d] = lnext
        sr[d] = rnext
        sf[d] = nfree
    return count


@njit(cache=True, nogil=True)
def count_tasks(
    n: int, cols: npt.NDArray[np.int64], ld: npt.NDArray[np.int64], rd: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """Completions of each subtask, one after another on this thread."""
    out = np.zeros(cols.shape[0], np.int64)
    for i in range(cols.shape[0]):
        out[i] = complete(n, cols[i], ld[i], rd[i])
    return out


@njit(cache=True, parallel=True)
def count_tasks_parallel(
    n: int, cols: npt.NDArray[np.int64], ld: npt.NDArray[np.int64], rd: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """Completions of each subtask, the subtasks spread over numba's threads."""
    out = np.zeros(cols.shape[0], np.int64)
    for i in prange(cols.shape[0]):
        out[i] = complete(n, cols[i], ld[i], rd[i])
    return out


@njit(cache=True, inline="always")
def _orbit(n: int, quarter: bool, r: int, c: int, orb_r, orb_c) -> int:
    """Write the distinct squares of the orbit of (r, c) into orb_r/orb_c; return how many."""
    m = n - 1
    orb_r[0] = r
    orb_c[0] = c
    if r == m - r and c == m - c:  # the centre of an odd board is its own orbit
        return 1
    if quarter:
        orb_r[1] = c
        orb_c[1] = m - r
        orb_r[2] = m - r
        orb_c[2] = m - c
        orb_r[3] = m - c
        orb_c[3] = r
        return 4
    orb_r[1] = m - r
    orb_c[1] = m - c
    return 2


@njit(cache=True)
def count_fixed_by_rotation(n: int, quarter: bool) -> int:
    """Solutions unchanged by the 180° rotation (or by the 90° one when ``quarter``).

    The jitted twin of :func:`boardgames.queens.solve.count_fixed_by_rotation`: fill the
    first empty row with a whole orbit of squares under the rotation at a time.
    """
    m = n - 1
    row_col = np.full(n, -1, np.int64)
    busy_col = np.zeros(n, np.bool_)
    busy_sum = np.zeros(2 * n, np.bool_)
    busy_diff = np.zeros(2 * n, np.bool_)
    # explicit stack: the row filled at each level, the next column to try there and
    # the column whose orbit is placed now (-1: none)
    st_row = np.zeros(n + 1, np.int64)
    st_next = np.zeros(n + 1, np.int64)
    st_placed = np.full(n + 1, -1, np.int64)
    orb_r = np.zeros(4, np.int64)
    orb_c = np.zeros(4, np.int64)
    count = 0
    d = 0
    while d >= 0:
        row = st_row[d]
        if st_placed[d] >= 0:  # take back this level's orbit
            k = _orbit(n, quarter, row, st_placed[d], orb_r, orb_c)
            for j in range(k):
                rr, cc = orb_r[j], orb_c[j]
                row_col[rr] = -1
                busy_col[cc] = False
                busy_sum[rr + cc] = False
                busy_diff[rr - cc + m] = False
            st_placed[d] = -1
        placed = False
        c = st_next[d]
        while c < n and not placed:
            k = _orbit(n, quarter, row, c, orb_r, orb_c)
            ok = True
            for j in range(k):
                rr, cc = orb_r[j], orb_c[j]
                if row_col[rr] >= 0 or busy_col[cc] or busy_sum[rr + cc] or busy_diff[rr - cc + m]:
                    ok = False
                    break
                for i in range(j):  # the orbit must not attack itself
                    if (
                        orb_r[i] == rr
                        or orb_c[i] == cc
                        or orb_r[i] + orb_c[i] == rr + cc
                        or orb_r[i] - orb_c[i] == rr - cc
                    ):
                        ok = False
                        break
                if not ok:
                    break
            if ok:
                for j in range(k):
                    rr, cc = orb_r[j], orb_c[j]
                    row_col[rr] = cc
                    busy_col[cc] = True
                    busy_sum[rr + cc] = True
                    busy_diff[rr - cc + m] = True
                st_placed[d] = c
                placed = True
            c += 1
        st_next[d] = c
        if not placed:
            d -= 1
            continue
        nxt = row + 1
        while nxt < n and row_col[nxt] >= 0:
            nxt += 1
        if nxt == n:
            count += 1
            continue
        d += 1
        st_row[d] = nxt
        st_next[d] = 0
        st_placed[d] = -1
    return count


def task_arrays(n: int, tasks: list[Task]) -> tuple[Masks, npt.NDArray[np.int64]]:
    """Subtasks as arrays for the kernels: (busy columns, ld, rd masks) and weights."""
    masks = [prefix_masks(n, p) for p, _ in tasks]
    cols = np.array([m[0] for m in masks], np.int64)
    ld = np.array([m[1] for m in masks], np.int64)
    rd = np.array([m[2] for m in masks], np.int64)
    weights = np.array([w for _, w in tasks], np.int64)
    return (cols, ld, rd), weights


def set_workers(workers: int | None) -> int:
    """Use ``workers`` threads for the parallel kernel (default: all numba offers)."""
    top = numba.config.NUMBA_NUM_THREADS
    w = top if workers is None else max(1, min(workers, top))
    numba.set_num_threads(w)
    return w


def count_prefix(n: int, prefix: Prefix) -> int:
    """Completions of one prefix by the jitted kernel (for tests and small jobs)."""
    return int(complete(n, *prefix_masks(n, prefix)))


# --- the symmetry method: one member of each class searched, the others inferred ----------
#
# Every solution's class has 8, 4 or 2 members. Corner classes (a queen in a corner) have
# 8 members, exactly two of them with a queen on square (row 0, col 0): a solution and its
# transpose; the search keeps the one whose row-1 queen's column is smaller than the
# column-1 queen's row (0-based; they can never be equal).
# Other classes: measure, for each of the four edge queens, its distance to the nearer
# corner along its edge. Some member has the smallest of these distances, d, on the top
# edge from the left; the search only visits such members: top queen at column d, no
# queen in the side columns above row d or below row n-1-d, and the bottom queen in
# columns d..n-1-d. Only rotations can tie (a reflection would need two attacking queens),
# so each visited solution is compared with the rotations that also qualify; the smallest
# is counted, with its class size (2: quarter-turn symmetric, 4: half-turn, else 8).


@njit(cache=True, inline="always")
def _allowed(n: int, corner: bool, y: int, b1: int, cols: int, ld: int, rd: int) -> int:
    """Squares of row ``y`` that are free and keep the search on canonical members."""
    m = n - 1
    full = (np.int64(1) << n) - 1
    free = full & ~(cols | ld | rd)
    if corner:
        if y < b1:  # the column-1 queen must lie below the row-1 queen
            free &= ~np.int64(2)
        return free
    side = np.int64(1) | (np.int64(1) << m)
    if y < b1:
        free &= ~side
    elif y == m - b1:
        used = cols & side
        if used == 0:
            return 0
        if used != side:
            free &= side
    if y == m:  # the bottom queen stays at least b1 from either corner
        keep = ((np.int64(1) << (m - b1 + 1)) - 1) & ~((np.int64(1) << b1) - 1)
        free &= keep
    return free


@njit(cache=True, inline="always")
def _col(bit: int) -> int:
    c = 0
    while bit > 1:
        bit >>= 1
        c += 1
    return c


@njit(cache=True)
def _lex_cmp(a: npt.NDArray[np.int64], b: npt.NDArray[np.int64]) -> int:
    for i in range(a.shape[0]):
        if a[i] != b[i]:
            return -1 if a[i] < b[i] else 1
    return 0


@njit(cache=True)
def _class_weight(
    n: int,
    b1: int,
    board: npt.NDArray[np.int64],
    pos: npt.NDArray[np.int64],
    q: npt.NDArray[np.int64],
) -> int:
    """0 if a qualifying rotation of the solution is smaller, else its class size."""
    m = n - 1
    for r in range(n):
        pos[r] = _col(board[r])
    size = 8
    if pos[m - b1] == 0:  # the quarter turn (r, c) -> (c, m - r) qualifies too
        for r in range(n):
            q[pos[r]] = m - r
        cmp = _lex_cmp(q, pos)
        if cmp < 0:
            return 0
        if cmp == 0:
            return 2
    if pos[m] == m - b1:  # the half turn
        for r in range(n):
            q[m - r] = m - pos[r]
        cmp = _lex_cmp(q, pos)
        if cmp < 0:
            return 0
        if cmp == 0:
            size = 4
    if pos[b1] == m:  # the three-quarter turn (r, c) -> (m - c, r)
        for r in range(n):
            q[m - pos[r]] = r
        if _lex_cmp(q, pos) < 0:
            return 0
    return size


@njit(cache=True)
def symmetry_tasks(n: int) -> npt.NDArray[np.int64]:
    """The first two rows of the symmetry search, as rows ``(corner, b1, col0, col1)``.

    ``corner`` 1: queen at (0, 0), ``b1`` its row-1 column; ``corner`` 0: the top queen at
    column ``b1`` (its distance to the corner) and ``col1`` the row-1 queen. For N >= 5.
    """
    m = n - 1
    out = []
    for b1 in range(2, m):
        out.append((1, b1, 0, b1))
    b1 = 1
    while b1 < m - b1:
        top = np.int64(1) << b1
        free = _allowed(n, False, 1, b1, top, top << 1, top >> 1)
        while free:
            bit = free & -free
            free ^= bit
            out.append((0, b1, b1, _col(bit)))
        b1 += 1
    res = np.empty((len(out), 4), np.int64)
    for i in range(len(out)):
        for j in range(4):
            res[i, j] = out[i][j]
    return res


@njit(cache=True, nogil=True)
def symmetry_task(n: int, corner: int, b1: int, c0: int, c1: int) -> tuple[int, int]:
    """(solutions, classes) found below one task of :func:`symmetry_tasks`."""
    m = n - 1
    board = np.zeros(n, np.int64)
    pos = np.zeros(n, np.int64)
    q = np.zeros(n, np.int64)
    sc = np.zeros(n + 1, np.int64)
    sl = np.zeros(n + 1, np.int64)
    sr = np.zeros(n + 1, np.int64)
    sf = np.zeros(n + 1, np.int64)
    is_corner = corner == 1
    b0 = np.int64(1) << c0
    bb = np.int64(1) << c1
    board[0] = b0
    board[1] = bb
    total = 0
    classes = 0
    y = 2
    sc[y] = b0 | bb
    sl[y] = ((b0 << 1) | bb) << 1
    sr[y] = ((b0 >> 1) | bb) >> 1
    sf[y] = _allowed(n, is_corner, y, b1, sc[y], sl[y], sr[y])
    while y >= 2:
        free = sf[y]
        if free == 0:
            y -= 1
            continue
        bit = free & -free
        sf[y] = free ^ bit
        board[y] = bit
        if y == m:
            w = 8 if is_corner else _class_weight(n, b1, board, pos, q)
            if w:
                total += w
                classes += 1
            continue
        c = sc[y] | bit
        lnext = (sl[y] | bit) << 1
        rnext = (sr[y] | bit) >> 1
        nfree = _allowed(n, is_corner, y + 1, b1, c, lnext, rnext)
        if nfree == 0:  # dead end: no push
            continue
        y += 1
        sc[y] = c
        sl[y] = lnext
        sr[y] = rnext
        sf[y] = nfree
    return total, classes


@njit(cache=True, nogil=True)
def count_symmetry_tasks(n: int, tasks: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """(solutions, classes) of each task, one after another on this thread."""
    out = np.zeros((tasks.shape[0], 2), np.int64)
    for i in range(tasks.shape[0]):
        t, u = symmetry_task(n, tasks[i, 0], tasks[i, 1], tasks[i, 2], tasks[i, 3])
        out[i, 0] = t
        out[i, 1] = u
    return out


@njit(cache=True, parallel=True)
def count_symmetry_tasks_parallel(n: int, tasks: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """(solutions, classes) of each task, the tasks spread over numba's threads."""
    out = np.zeros((tasks.shape[0], 2), np.int64)
    for i in prange(tasks.shape[0]):
        t, u = symmetry_task(n, tasks[i, 0], tasks[i, 1], tasks[i, 2], tasks[i, 3])
        out[i, 0] = t
        out[i, 1] = u
    return out


_warm = False


def warm_up() -> float:
    """Compile (or load from the cache) every kernel on a tiny board, once per process;
    return the seconds it took (0 when already done)."""
    global _warm
    if _warm:
        return 0.0
    t0 = time.perf_counter()
    (cols, ld, rd), _ = task_arrays(6, [((1,), 2)])
    count_tasks(6, cols, ld, rd)
    count_tasks_parallel(6, cols, ld, rd)
    count_fixed_by_rotation(6, False)
    tasks = symmetry_tasks(6)
    count_symmetry_tasks(6, tasks)
    count_symmetry_tasks_parallel(6, tasks)
    _warm = True
    return time.perf_counter() - t0
