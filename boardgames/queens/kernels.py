"""numba-jitted N-queens counters: bitmask backtracking with an explicit stack.

Import this module only where a jitted count runs: it imports numba (the CLI imports it
inside the command function). Everything is compiled with ``cache=True``, so the JIT
cost is paid once per machine (see ``benchmarks/queens_bench.py`` for its size).

Work comes as *subtasks* (:func:`boardgames.queens.solve.subtasks`): prefixes of the first
rows turned into bitmasks (busy columns, the two diagonal masks) plus a weight. The
serial and the ``prange`` kernels count the completions of the same subtasks, so they
must agree task by task. :func:`expand_tasks` (and :func:`expand_symmetry_tasks`,
:func:`rotation_tasks` for the other two searches) split subtasks a few rows deeper, so
that big boards can be counted in short kernel calls (Ctrl-C is seen between calls).
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


@njit(cache=True, nogil=True)
def _descend(n, rows, c0, l0, r0, parent, k, out_c, out_l, out_r, out_p, write):
    """The placements ``rows`` rows below the masks ``(c0, l0, r0)`` (fewer if the board
    fills first), depth first in column order; each is counted and, when ``write``,
    stored at ``out_*[k]`` with ``parent``. Placements whose next row has no free square
    are dropped (no completion). Returns ``k`` plus the placements."""
    full = (np.int64(1) << n) - 1
    if rows == 0 or c0 == full:
        if write:
            out_c[k] = c0
            out_l[k] = l0
            out_r[k] = r0
            out_p[k] = parent
        return k + 1
    sc = np.empty(rows, np.int64)
    sl = np.empty(rows, np.int64)
    sr = np.empty(rows, np.int64)
    sf = np.empty(rows, np.int64)
    sc[0] = c0
    sl[0] = l0
    sr[0] = r0
    sf[0] = full & ~(c0 | l0 | r0)
    d = 0
    while d >= 0:
        free = sf[d]
        if free == 0:
            d -= 1
            continue
        bit = free & -free
        sf[d] = free ^ bit
        c = sc[d] | bit
        lnext = (sl[d] | bit) << 1
        rnext = (sr[d] | bit) >> 1
        nfree = full & ~(c | lnext | rnext)
        if c != full and nfree == 0:
            continue
        if d + 1 == rows or c == full:
            if write:
                out_c[k] = c
                out_l[k] = lnext
                out_r[k] = rnext
                out_p[k] = parent
            k += 1
            continue
        d += 1
        sc[d] = c
        sl[d] = lnext
        sr[d] = rnext
        sf[d] = nfree
    return k


@njit(cache=True, nogil=True)
def expand_tasks(
    n: int,
    cols: npt.NDArray[np.int64],
    ld: npt.NDArray[np.int64],
    rd: npt.NDArray[np.int64],
    rows: int,
) -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]
]:
    """Split each subtask into the subtasks ``rows`` rows deeper: their masks and the
    index of the subtask each came from. The completions of a subtask are the sum of
    those of its parts, so counting the parts counts the same solutions."""
    none = np.empty(0, np.int64)
    k = 0
    for i in range(cols.shape[0]):
        k = _descend(n, rows, cols[i], ld[i], rd[i], i, k, none, none, none, none, False)
    out_c = np.empty(k, np.int64)
    out_l = np.empty(k, np.int64)
    out_r = np.empty(k, np.int64)
    out_p = np.empty(k, np.int64)
    k = 0
    for i in range(cols.shape[0]):
        k = _descend(n, rows, cols[i], ld[i], rd[i], i, k, out_c, out_l, out_r, out_p, True)
    return out_c, out_l, out_r, out_p


@njit(cache=True)
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


@njit(cache=True)
def _orbit_fits(n, k, orb_r, orb_c, row_col, busy_col, busy_sum, busy_diff) -> bool:
    """The ``k`` squares of an orbit are free and do not attack each other."""
    m = n - 1
    for j in range(k):
        rr, cc = orb_r[j], orb_c[j]
        if row_col[rr] >= 0 or busy_col[cc] or busy_sum[rr + cc] or busy_diff[rr - cc + m]:
            return False
        for i in range(j):
            if (
                orb_r[i] == rr
                or orb_c[i] == cc
                or orb_r[i] + orb_c[i] == rr + cc
                or orb_r[i] - orb_c[i] == rr - cc
            ):
                return False
    return True


@njit(cache=True)
def _orbit_set(n, k, orb_r, orb_c, row_col, busy_col, busy_sum, busy_diff, on) -> None:
    m = n - 1
    for j in range(k):
        rr, cc = orb_r[j], orb_c[j]
        row_col[rr] = cc if on else -1
        busy_col[cc] = on
        busy_sum[rr + cc] = on
        busy_diff[rr - cc + m] = on


@njit(cache=True, nogil=True)
def _rotation_walk(n, quarter, prefix, levels, out, k0):
    """The search of :func:`count_fixed_by_rotation` below a prefix.

    ``prefix`` holds the columns of the orbits placed first, each in the first empty row
    at its turn (-1: the board was full). With ``levels`` 0, return the solutions below
    it. Else return how many ways there are to place ``levels`` more orbits (or fewer,
    padded with -1, where the board fills), writing each as a row ``prefix + columns``
    of ``out`` from row ``k0`` when ``out`` has rows. An impossible prefix gives 0.
    """
    row_col = np.full(n, -1, np.int64)
    busy_col = np.zeros(n, np.bool_)
    busy_sum = np.zeros(2 * n, np.bool_)
    busy_diff = np.zeros(2 * n, np.bool_)
    orb_r = np.zeros(4, np.int64)
    orb_c = np.zeros(4, np.int64)
    p = prefix.shape[0]
    write = out.shape[0] > 0
    row = 0
    for j in range(p):
        while row < n and row_col[row] >= 0:
            row += 1
        if prefix[j] < 0 or row == n:
            break
        k = _orbit(n, quarter, row, prefix[j], orb_r, orb_c)
        if not _orbit_fits(n, k, orb_r, orb_c, row_col, busy_col, busy_sum, busy_diff):
            return 0
        _orbit_set(n, k, orb_r, orb_c, row_col, busy_col, busy_sum, busy_diff, True)
    while row < n and row_col[row] >= 0:
        row += 1
    if row == n:  # the prefix filled the board
        if levels > 0 and write:
            for j in range(p):
                out[k0, j] = prefix[j]
            for j in range(p, out.shape[1]):
                out[k0, j] = -1
        return 1
    st_row = np.zeros(n + 1, np.int64)
    st_next = np.zeros(n + 1, np.int64)
    st_placed = np.full(n + 1, -1, np.int64)
    st_row[0] = row
    count = 0
    d = 0
    while d >= 0:
        row = st_row[d]
        if st_placed[d] >= 0:  # take back this level's orbit
            k = _orbit(n, quarter, row, st_placed[d], orb_r, orb_c)
            _orbit_set(n, k, orb_r, orb_c, row_col, busy_col, busy_sum, busy_diff, False)
            st_placed[d] = -1
        placed = False
        c = st_next[d]
        while c < n and not placed:
            k = _orbit(n, quarter, row, c, orb_r, orb_c)
            if _orbit_fits(n, k, orb_r, orb_c, row_col, busy_col, busy_sum, busy_diff):
                _orbit_set(n, k, orb_r, orb_c, row_col, busy_col, busy_sum, busy_diff, True)
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
        if levels > 0 and (nxt == n or d + 1 == levels):
            if write:
                r = k0 + count
                for j in range(p):
                    out[r, j] = prefix[j]
                for j in range(levels):
                    out[r, p + j] = st_placed[j] if j <= d else -1
            count += 1
            continue
        if nxt == n:
            count += 1
            continue
        d += 1
        st_row[d] = nxt
        st_next[d] = 0
        st_placed[d] = -1
    return count


@njit(cache=True)
def rotation_tasks(n: int, quarter: bool, levels: int) -> npt.NDArray[np.int64]:
    """The ways to place the first ``levels`` orbits of the rotation search (rows of
    columns, -1 where the board is already full): subtasks of
    :func:`count_fixed_by_rotation` whose counts add up to it."""
    none = np.empty(0, np.int64)
    k = _rotation_walk(n, quarter, none, levels, np.empty((0, levels), np.int64), 0)
    out = np.empty((k, levels), np.int64)
    _rotation_walk(n, quarter, none, levels, out, 0)
    return out


@njit(cache=True, nogil=True)
def count_rotation_tasks(
    n: int, quarter: bool, tasks: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """Solutions fixed by the rotation below each task of :func:`rotation_tasks`."""
    out = np.zeros(tasks.shape[0], np.int64)
    none = np.empty((0, 0), np.int64)
    for i in range(tasks.shape[0]):
        out[i] = _rotation_walk(n, quarter, tasks[i], 0, none, 0)
    return out


@njit(cache=True, parallel=True)
def count_rotation_tasks_parallel(
    n: int, quarter: bool, tasks: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """:func:`count_rotation_tasks` with the tasks spread over numba's threads."""
    out = np.zeros(tasks.shape[0], np.int64)
    none = np.empty((0, 0), np.int64)
    for i in prange(tasks.shape[0]):
        out[i] = _rotation_walk(n, quarter, tasks[i], 0, none, 0)
    return out


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
    top: int = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]
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


@njit(cache=True)
def _allowed(n: int, corner: bool, y: int, b1: int, cols: int, ld: int, rd: int) -> int:
    """Squares of row ``y`` that are free and keep the search on canonical members."""
    m = n - 1
    full = (np.int64(1) << n) - 1
    free = full & ~(cols | ld | rd)
    if corner:
        if y < b1:  # the column-1 queen must lie below the row-1 queen
            free &= ~np.int64(2)
        return free  # type: ignore[return-value]
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
    return free  # type: ignore[return-value]


@njit(cache=True)
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
        free = _allowed(n, False, 1, b1, top, top << 1, top >> 1)  # type: ignore[arg-type]
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


@njit(cache=True)
def _prefix_rows(task, board):
    """Put the rows of a symmetry task on ``board``; return its masks for the next row."""
    c = np.int64(0)
    ld = np.int64(0)
    rd = np.int64(0)
    for y in range(task.shape[0] - 2):
        bit = np.int64(1) << task[2 + y]
        board[y] = bit
        c |= bit
        ld = (ld | bit) << 1
        rd = (rd | bit) >> 1
    return c, ld, rd


@njit(cache=True, nogil=True)
def symmetry_task(n: int, task: npt.NDArray[np.int64]) -> tuple[int, int]:
    """(solutions, classes) found below one task ``(corner, b1, col0, col1, ...)`` of
    :func:`symmetry_tasks` or :func:`expand_symmetry_tasks`: the search goes on from
    the row after the task's columns (at most N - 1 of them)."""
    m = n - 1
    board = np.zeros(n, np.int64)
    pos = np.zeros(n, np.int64)
    q = np.zeros(n, np.int64)
    sc = np.zeros(n + 1, np.int64)
    sl = np.zeros(n + 1, np.int64)
    sr = np.zeros(n + 1, np.int64)
    sf = np.zeros(n + 1, np.int64)
    is_corner = task[0] == 1
    b1 = task[1]
    top = task.shape[0] - 2
    total = 0
    classes = 0
    y = top
    c0, l0, r0 = _prefix_rows(task, board)
    sc[y] = c0
    sl[y] = l0
    sr[y] = r0
    sf[y] = _allowed(n, is_corner, y, b1, sc[y], sl[y], sr[y])
    # the loop's bound is the constant 2, not ``top``: with it LLVM knows the row index is
    # never negative and drops numba's wraparound checks (20% faster); the task's own rows
    # 2..top-1 have nothing left to try (sf = 0), so the search never goes back into them
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
def _symmetry_descend(n, task, rows, out, k, write):
    """The placements of the symmetry search ``rows`` rows below ``task``; each is counted
    and, when ``write``, stored as ``out[k]`` (the task's columns, then the new ones).
    Placements whose next row has no allowed square are dropped. Returns ``k`` plus them."""
    top = task.shape[0] - 2
    if rows == 0:
        if write:
            out[k, : task.shape[0]] = task
        return k + 1
    board = np.zeros(n, np.int64)
    is_corner = task[0] == 1
    b1 = task[1]
    sc = np.zeros(rows, np.int64)
    sl = np.zeros(rows, np.int64)
    sr = np.zeros(rows, np.int64)
    sf = np.zeros(rows, np.int64)
    cols = np.zeros(rows, np.int64)
    c0, l0, r0 = _prefix_rows(task, board)
    sc[0] = c0
    sl[0] = l0
    sr[0] = r0
    sf[0] = _allowed(n, is_corner, top, b1, sc[0], sl[0], sr[0])
    d = 0
    while d >= 0:
        free = sf[d]
        if free == 0:
            d -= 1
            continue
        bit = free & -free
        sf[d] = free ^ bit
        cols[d] = _col(bit)
        c = sc[d] | bit
        lnext = (sl[d] | bit) << 1
        rnext = (sr[d] | bit) >> 1
        nfree = _allowed(n, is_corner, top + d + 1, b1, c, lnext, rnext)
        if nfree == 0:
            continue
        if d + 1 == rows:
            if write:
                out[k, : task.shape[0]] = task
                for j in range(rows):
                    out[k, task.shape[0] + j] = cols[j]
            k += 1
            continue
        d += 1
        sc[d] = c
        sl[d] = lnext
        sr[d] = rnext
        sf[d] = nfree
    return k


@njit(cache=True, nogil=True)
def expand_symmetry_tasks(n: int, tasks: npt.NDArray[np.int64], rows: int) -> npt.NDArray[np.int64]:
    """Split each symmetry task into the tasks ``rows`` rows deeper (their columns go on
    after the task's; N - 1 columns at most): their solutions and classes add up to the
    task's."""
    width = tasks.shape[1] + rows
    none = np.empty((0, width), np.int64)
    k = 0
    for i in range(tasks.shape[0]):
        k = _symmetry_descend(n, tasks[i], rows, none, k, False)
    out = np.empty((k, width), np.int64)
    k = 0
    for i in range(tasks.shape[0]):
        k = _symmetry_descend(n, tasks[i], rows, out, k, True)
    return out


@njit(cache=True, nogil=True)
def count_symmetry_tasks(n: int, tasks: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """(solutions, classes) of each task, one after another on this thread."""
    out = np.zeros((tasks.shape[0], 2), np.int64)
    for i in range(tasks.shape[0]):
        t, u = symmetry_task(n, tasks[i])
        out[i, 0] = t
        out[i, 1] = u
    return out


@njit(cache=True, parallel=True)
def count_symmetry_tasks_parallel(n: int, tasks: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """(solutions, classes) of each task, the tasks spread over numba's threads."""
    out = np.zeros((tasks.shape[0], 2), np.int64)
    for i in prange(tasks.shape[0]):
        t, u = symmetry_task(n, tasks[i])
        out[i, 0] = t
        out[i, 1] = u
    return out


_warm = False


def warm_up_rotation_tasks(parallel: bool = False) -> float:
    """Compile (or load from the cache) the rotation search and its count (serial: all
    that a cluster's rotation tasks run; or the ``prange`` one); the seconds it took."""
    t0 = time.perf_counter()
    turns = rotation_tasks(6, False, 1)
    (count_rotation_tasks_parallel if parallel else count_rotation_tasks)(6, False, turns)
    return time.perf_counter() - t0


def warm_up_plain(parallel: bool = False) -> float:
    """The plain count's kernels (``numba``, or ``parallel``); the seconds it took."""
    t0 = time.perf_counter()
    (cols, ld, rd), _ = task_arrays(6, [((1,), 2)])
    (count_tasks_parallel if parallel else count_tasks)(6, cols, ld, rd)
    expand_tasks(6, cols, ld, rd, 1)
    return time.perf_counter() - t0


def warm_up_symmetry(parallel: bool = False) -> float:
    """The symmetry-class count's kernels (``symmetry``, or ``symmetry-parallel``)."""
    t0 = time.perf_counter()
    tasks = expand_symmetry_tasks(6, symmetry_tasks(6), 1)
    (count_symmetry_tasks_parallel if parallel else count_symmetry_tasks)(6, tasks)
    return time.perf_counter() - t0


def warm_up() -> float:
    """Compile (or load from the cache) every kernel on a tiny board, once per process;
    return the seconds it took (0 when already done)."""
    global _warm
    if _warm:
        return 0.0
    t0 = time.perf_counter()
    for parallel in (False, True):
        warm_up_plain(parallel)
        warm_up_symmetry(parallel)
        warm_up_rotation_tasks(parallel)
    count_fixed_by_rotation(6, False)
    _warm = True
    return time.perf_counter() - t0
