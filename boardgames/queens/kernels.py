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

import time

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
    and the squares still to try there. ``ld`` is not trimmed to N bits: it only ever
    meets ``full`` through an ``&``, and 2N bits fit in 64.
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
        d += 1
        sc[d] = c
        sl[d] = lnext
        sr[d] = rnext
        sf[d] = full & ~(c | lnext | rnext)
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


def warm_up() -> float:
    """Compile (or load from the cache) every kernel on a tiny board; return the seconds."""
    t0 = time.perf_counter()
    (cols, ld, rd), _ = task_arrays(6, [((1,), 2)])
    count_tasks(6, cols, ld, rd)
    count_tasks_parallel(6, cols, ld, rd)
    count_fixed_by_rotation(6, False)
    return time.perf_counter() - t0
