"""N queens counted by *start constellations*: the border queens first, one per symmetry class.

Every solution has exactly one queen in each of the four border lines: row 0 (the *top*
queen, at column ``top``), row N-1 (``bottom``, a column), column 0 (``left``, a row) and
column N-1 (``right``, a row); a queen in a corner is two of them at once. These four
numbers are the solution's *border*. The eight symmetries of the square map borders onto
borders, and the number of completions of a border (the solutions that have it) is the
same for every border of one symmetry class. So the count is

    total = sum over canonical borders b of  weight(b) * completions(b)

where the canonical border is one chosen member of each class and ``weight(b)`` the
number of distinct borders in its class (8, 4 or 2). This is the
decomposition of the Q27 project and of NQueensFAF, written here from the idea.

A *start constellation* (a task) is a canonical border plus the queens of the first few
free rows below row 0 (:func:`preset_queens` of them; rows ``left`` and ``right`` already
hold their border queen and are skipped): the completions of a border are the sum over
those placements, and each task is a small, independent search, the unit of work of
``run_count`` (in batches) and of a cluster.

Why it is fast. The completion search runs over the inner rows only, top to bottom, and
skips the rows of the left and right queens: they are already full. Before the search, the
squares that the border queens attack in each inner row (their columns, and both their
diagonals, also the ones that reach up from the queens still *below* the row) are put in a
per-row mask, so that a queen further down prunes the search from the top row on, as if
the search could look ahead. Columns 0 and N-1 and the top and bottom queens' columns are
never tried. The search itself has no data-dependent branch, and two tasks are searched
at once, step by step in turn (:func:`_count_range`), so that the processor works on one
while waiting on the other. Together with the symmetry (about one border in eight is
searched) this counts 4.6x (N = 16) and 6.3x (N = 17) as fast as the plain mirror-halved
C counter on one thread (benchmarks/queens_bench.py,
benchmarks/results/queens_constellations.json). Pre-placing more lines (the second ring
of Q27) only adds search nodes here, on a CPU.

Tasks are rows of a 2-D int64 array, :data:`TASK_COLUMNS` wide (see
:func:`constellation_tasks`); the kernels take nothing but ints and int64 arrays, so a
worker process only needs to import this module.

Fundamental counts come from Burnside's lemma in :mod:`boardgames.queens.counting` (the
total from here plus the jitted counts of the solutions fixed by the 90° and 180°
rotations); the borders' weights alone cannot tell how many solutions of a border are
themselves symmetric.

This module imports numba: import it only where a count runs.
"""

from __future__ import annotations

import time

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from boardgames.core.bits import top_bit

Tasks = npt.NDArray[np.int64]

TOP, BOTTOM, LEFT, RIGHT, PRESET, WEIGHT = range(6)
"""Columns of a task row: the border (top queen's column, bottom queen's column, left
queen's row, right queen's row), the preset queens packed by :func:`pack_preset`, and the
weight (how many borders the canonical one stands for)."""
TASK_COLUMNS = 6
PRESET_BITS = 6
"""Bits per preset queen's column (N < 64); the low 4 bits of PRESET hold the count."""
MAX_PRESET = 9
"""At most this many preset queens fit in one int64 (4 + 9 * 6 = 58 bits)."""
MIN_N = 4
"""Smallest board the constellation search is written for (smaller boards have too few
squares for four border lines; ``run_count`` counts them with the mirror kernel)."""


def preset_queens(n: int) -> int:
    """Queens placed below the border in each task of :func:`constellation_tasks`: one
    (none below N = 6). A border's tasks then differ only in the queen of its first free
    row, which evens out their sizes (a border with a corner queen is about five times
    the average border; its tasks, too, at N = 17),
    and the tasks stay few enough to keep in memory up to N = 27: 27,849 at N = 16,
    41,597 at N = 17, 369,069 at N = 24, 747,957 at N = 27 (48 bytes each).
    :func:`expand_constellations` splits them further."""
    return 0 if n < 6 else 1


# --- borders and their symmetry ---------------------------------------------------------------


@njit(cache=True)
def _image(n: int, g: int, r: int, c: int) -> tuple[int, int]:
    """Square (r, c) under symmetry ``g`` (the order of solve.transforms)."""
    m = n - 1
    if g == 0:
        return r, c
    if g == 1:
        return c, m - r
    if g == 2:
        return m - r, m - c
    if g == 3:
        return m - c, r
    if g == 4:
        return r, m - c
    if g == 5:
        return m - r, c
    if g == 6:
        return c, r
    return m - c, m - r


@njit(cache=True)
def _attack(r1: int, c1: int, r2: int, c2: int) -> bool:
    """Two queens on different squares attack each other (one queen on two lines: no)."""
    if r1 == r2 and c1 == c2:
        return False
    return r1 == r2 or c1 == c2 or r1 + c1 == r2 + c2 or r1 - c1 == r2 - c2


@njit(cache=True)
def _border_ok(n: int, top: int, bottom: int, left: int, right: int) -> bool:
    """The border's queens (corners counted once) attack no one another."""
    m = n - 1
    return not (
        _attack(0, top, m, bottom)
        or _attack(0, top, left, 0)
        or _attack(0, top, right, m)
        or _attack(m, bottom, left, 0)
        or _attack(m, bottom, right, m)
        or _attack(left, 0, right, m)
    )


@njit(cache=True)
def _border_image(n: int, g: int, top: int, bottom: int, left: int, right: int) -> tuple:
    """The border of the image under symmetry ``g`` of a solution with this border."""
    m = n - 1
    rs = (0, m, left, right)
    cs = (top, bottom, 0, m)
    t = b = lf = rt = -1
    for a in range(4):
        r, c = _image(n, g, rs[a], cs[a])
        if r == 0:
            t = c
        if r == m:
            b = c
        if c == 0:
            lf = r
        if c == m:
            rt = r
    return t, b, lf, rt


@njit(cache=True)
def _key(n: int, top: int, bottom: int, left: int, right: int) -> int:
    """The order in which the canonical border is the smallest member of its class.

    The search runs top to bottom, and the orientation of a class changes its cost (not
    its count) by up to 2x. Cheapest on the whole (measured for N = 13, 14, within 8%
    of the best orientation of every class): the bottom queen nearest the bottom-left
    corner (a corner queen goes there), then the left and right queens lowest (their
    rows are skipped, and their diagonals reach up through the rows above them), then
    the top and the left queen (to make the order total)."""
    return ((bottom * 2 * n + 2 * (n - 1) - left - right) * n + top) * n + left


@njit(cache=True)
def _canonical_walk(n: int, out: npt.NDArray[np.int64]) -> int:
    """Find the canonical borders in lexicographic order; write them as rows of ``out``
    when it has rows; return how many there are."""
    m = n - 1
    write = out.shape[0] > 0
    keys = np.empty(8, np.int64)
    k = 0
    for top in range(n):
        for bottom in range(n):
            for left in range(n):
                for right in range(n):
                    # a corner queen is in two lines at once, and nowhere else
                    if (top == 0) != (left == 0) or (top == m) != (right == 0):
                        continue
                    if (bottom == 0) != (left == m) or (bottom == m) != (right == m):
                        continue
                    if not _border_ok(n, top, bottom, left, right):
                        continue
                    own = _key(n, top, bottom, left, right)
                    smallest = True
                    for g in range(8):
                        t, b, lf, rt = _border_image(n, g, top, bottom, left, right)
                        keys[g] = _key(n, t, b, lf, rt)
                        if keys[g] < own:
                            smallest = False
                            break
                    if not smallest:
                        continue
                    if write:
                        distinct = 0  # the class's size: the distinct images
                        for g in range(8):
                            seen = False
                            for h in range(g):
                                if keys[h] == keys[g]:
                                    seen = True
                            if not seen:
                                distinct += 1
                        out[k, 0] = top
                        out[k, 1] = bottom
                        out[k, 2] = left
                        out[k, 3] = right
                        out[k, 4] = distinct
                    k += 1
    return k


@njit(cache=True)
def canonical_borders(n: int) -> npt.NDArray[np.int64]:
    """Every canonical border for N, as rows ``(top, bottom, left, right, weight)`` in
    lexicographic order; the weights (the sizes of the classes) add up to the number of
    borders with non-attacking queens."""
    k = _canonical_walk(n, np.empty((0, 5), np.int64))
    out = np.empty((k, 5), np.int64)
    _canonical_walk(n, out)
    return out


# --- the per-task search ------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _border_rows(n: int, task: npt.NDArray[np.int64], rows, attacked) -> int:
    """Fill ``rows`` with the free rows (1..N-2 but the left and right queens' rows), top
    first, and ``attacked`` with the squares of each that the border queens attack
    (columns and both diagonals, queens below the row too). Return how many rows."""
    m = n - 1
    qr0, qc0 = 0, task[TOP]
    qr1, qc1 = m, task[BOTTOM]
    qr2, qc2 = task[LEFT], 0
    qr3, qc3 = task[RIGHT], m
    k = 0
    for y in range(1, m):
        if y in (qr2, qr3):
            continue
        a = (np.int64(1) << qc0) | (np.int64(1) << qc1) | np.int64(1) | (np.int64(1) << m)
        for q in range(4):
            if q == 0:
                qr, qc = qr0, qc0
            elif q == 1:
                qr, qc = qr1, qc1
            elif q == 2:
                qr, qc = qr2, qc2
            else:
                qr, qc = qr3, qc3
            d = y - qr if y > qr else qr - y
            if qc + d <= m:
                a |= np.int64(1) << (qc + d)
            if qc - d >= 0:
                a |= np.int64(1) << (qc - d)
        rows[k] = y
        attacked[k] = a
        k += 1
    return k


@njit(cache=True, nogil=True)
def _preset_masks(n: int, task, rows, attacked, nrows: int) -> tuple[int, int, int, int]:
    """Place the task's preset queens on the first free rows. Return ``(level, cols, ld,
    rd)``: the first free row left, and the inner queens' busy columns and diagonals seen
    from it; level -1 if a preset queen stands on an attacked square (no completion)."""
    full = (np.int64(1) << n) - 1
    p = task[PRESET] & 15
    c = np.int64(0)
    ld = np.int64(0)
    rd = np.int64(0)
    for j in range(p):
        bit = np.int64(1) << ((task[PRESET] >> (4 + PRESET_BITS * j)) & 63)
        if j >= nrows or (bit & full & ~(c | ld | rd | attacked[j])) == 0:
            return -1, c, ld, rd  # type: ignore[return-value]
        c |= bit
        if j + 1 < nrows:
            g = rows[j + 1] - rows[j]
            ld = (ld | bit) << g
            rd = (rd | bit) >> g
    return p, c, ld, rd  # type: ignore[return-value]


@njit(cache=True, nogil=True)
def _start(n: int, task, rows, attacked, gap, nxt) -> tuple[int, int, int, int, int]:
    """Set up the search of one task below its presets. Return ``(levels, cols, ld, rd,
    free)``: how many free rows are left (-1 if the presets do not fit: no completion),
    the inner queens' columns and diagonals seen from the first of them, and its free
    squares; fill ``gap[d]`` (how many rows down level ``d + 1`` lies from level ``d``:
    the diagonals shift by that much) and ``nxt[d]`` (the squares of level ``d + 1``
    that no border queen attacks)."""
    full = (np.int64(1) << n) - 1
    nrows = _border_rows(n, task, rows, attacked)
    start, c0, l0, r0 = _preset_masks(n, task, rows, attacked, nrows)
    if start < 0:
        return -1, c0, l0, r0, 0  # type: ignore[return-value]
    levels = nrows - start
    for d in range(levels - 1):
        gap[d] = rows[start + d + 1] - rows[start + d]
        nxt[d] = full & ~attacked[start + d + 1]
    free0 = full & ~(c0 | l0 | r0 | attacked[start]) if levels > 0 else np.int64(0)
    return levels, c0, l0, r0, free0  # type: ignore[return-value]


@njit(cache=True, nogil=True)
def _unsearched(levels: int, free0: int) -> int:
    """Completions of a task with fewer than two free rows (``levels`` and ``free0`` from
    :func:`_start`): 1 if its presets fill every row (0 levels) or its one free row has a
    free square, else 0 (its presets do not fit: -1)."""
    return 1 if levels == 0 or (levels == 1 and free0 != 0) else 0


@njit(cache=True, nogil=True)
def _complete(n: int, task, rows, attacked, gap, nxt, sc, sl, sr, sf) -> int:
    """Completions of one task by a depth-first search over its free rows with an
    explicit stack and branches, one task at a time: the reference that the lanes of
    :func:`count_constellations` are tested against, and 1.5-1.7x slower. Level ``d``
    is the ``d``-th free row below the presets (:func:`_start`). A child whose next row
    has no free square is not pushed; on the last free row a free square is a solution
    (one column is left by then).
    """
    levels, c0, l0, r0, free0 = _start(n, task, rows, attacked, gap, nxt)
    if levels <= 1:
        return _unsearched(levels, free0)
    last = levels - 2  # the level whose children are on the last free row
    sc[0] = c0
    sl[0] = l0
    sr[0] = r0
    sf[0] = free0
    count = 0
    d = 0
    # (keeping the current level's masks in locals instead is a third slower: LLVM then
    # cannot fuse the push with the next pass of the loop)
    while d >= 0:
        free = sf[d]
        if free == 0:
            d -= 1
            continue
        bit = free & -free
        sf[d] = free ^ bit
        g = gap[d]
        c = sc[d] | bit
        lnext = (sl[d] | bit) << g
        rnext = (sr[d] | bit) >> g
        nfree = nxt[d] & ~(c | lnext | rnext)
        if nfree == 0:
            continue
        if d == last:
            count += 1
            continue
        d += 1
        sc[d] = c
        sl[d] = lnext
        sr[d] = rnext
        sf[d] = nfree
    return count


@njit(cache=True, nogil=True)
def count_constellations_stack(n: int, tasks: Tasks) -> npt.NDArray[np.int64]:
    """:func:`count_constellations` by the stack search of :func:`_complete` (the
    reference)."""
    out = np.zeros(tasks.shape[0], np.int64)
    rows = np.empty(n, np.int64)
    attacked = np.empty(n, np.int64)
    gap = np.empty(n, np.int64)
    nxt = np.empty(n, np.int64)
    sc = np.empty(n, np.int64)
    sl = np.empty(n, np.int64)
    sr = np.empty(n, np.int64)
    sf = np.empty(n, np.int64)
    for i in range(tasks.shape[0]):
        out[i] = _complete(n, tasks[i], rows, attacked, gap, nxt, sc, sl, sr, sf)
    return out


# --- the lanes: branch-free steps, two searches at once -------------------------------------

ROW = 8
"""int64 slots per level of a lane's stack: the inner queens' columns and both diagonals
seen from the level's row (:data:`SC`, :data:`SL`, :data:`SR`), its untried free squares
(:data:`SF`), the gap to the next level's row (:data:`SG`), the next row's squares that
no border queen attacks (:data:`SN`), and the steps taken on the level (:data:`SK`)."""
SC, SL, SR, SF, SG, SN, SK = range(7)
LANE = 64 * ROW
"""int64s of one lane: a level per row of a board (N < 64)."""


@njit(cache=True, nogil=True)
def _step(w, o: int, d, live):  # type: ignore[no-untyped-def]
    """One node of the lane at offset ``o`` of ``w``: try the lowest untried square of
    level ``d``, write the child level (always: a slot above the top is never read
    before it is written), and go to the child if its row has a free square, else to the
    deepest level with untried squares left. ``live`` has bit ``k`` set for each level
    ``k`` that has; the lane is done when it is 0. No data-dependent branch: the next
    level is a ``cmov`` of the child and the highest bit of ``live`` (:func:`top_bit`).
    Return ``(d, live)``."""
    p = d * np.uint64(ROW) + np.uint64(o)
    f = w[p + np.uint64(SF)]
    b = f & -f
    rest = f & (f - 1)
    w[p + np.uint64(SF)] = rest
    kept = live ^ (np.uint64(rest == 0) << d)
    up = top_bit(kept)  # computed beside the child, off the longest chain
    g = w[p + np.uint64(SG)]
    c = w[p + np.uint64(SC)] | b
    ln = (w[p + np.uint64(SL)] | b) << g
    rn = (w[p + np.uint64(SR)] | b) >> g
    nf = w[p + np.uint64(SN)] & ~(c | ln | rn)
    q = p + np.uint64(ROW)
    w[q + np.uint64(SC)] = c
    w[q + np.uint64(SL)] = ln
    w[q + np.uint64(SR)] = rn
    w[q + np.uint64(SF)] = nf
    w[p + np.uint64(SK)] += 1
    child = d + np.uint64(1)
    live = kept | (np.uint64(nf != 0) << child)
    return (child if nf != 0 else up), live


@njit(cache=True, nogil=True)
def _load(n: int, tasks, i: int, hi: int, out, w, o: int, rows, attacked, gap, nxt):  # type: ignore[no-untyped-def]
    """Put the first task from ``i`` (below ``hi``) that needs a search into the lane at
    offset ``o``, after settling in ``out`` the ones that need none (presets that do not
    fit, fewer than two free rows, an empty first row). Return ``(next i, the task or -1,
    live, the level whose steps are the solutions)``: the search pushes on from the last
    free row to one level more, where a step is a solution."""
    while i < hi:
        levels, c0, l0, r0, f0 = _start(n, tasks[i], rows, attacked, gap, nxt)
        if levels >= 2 and f0 != 0:
            w[o + SC] = c0
            w[o + SL] = l0
            w[o + SR] = r0
            w[o + SF] = f0
            for k in range(levels):
                more = k < levels - 1
                w[o + ROW * k + SG] = gap[k] if more else 0
                w[o + ROW * k + SN] = nxt[k] if more else 0  # the level of solutions
                w[o + ROW * k + SK] = 0
            return i + 1, i, np.uint64(1), levels - 1
        out[i] = _unsearched(levels, f0)  # 0 for levels >= 2 with no free square
        i += 1
    return i, -1, np.uint64(0), 0


@njit(cache=True, nogil=True)
def _finish(w, o: int, d, live, task: int, tgt: int, out) -> None:  # type: ignore[no-untyped-def]
    """Step the lane at offset ``o`` to its end and put its task's count in ``out`` (no
    task: -1)."""
    while live:
        d, live = _step(w, o, d, live)
    if task >= 0:
        out[task] = w[o + tgt * ROW + SK]


@njit(cache=True, nogil=True)
def _count_range(n: int, tasks: Tasks, lo: int, hi: int, out: npt.NDArray[np.int64]) -> None:
    """Completions of ``tasks[lo:hi]`` into ``out``, by two lanes stepped in turn.

    Why two lanes. A depth-first search spends most of its time on mispredicted
    branches (whether a child has a free square, whether a level is done) or, written
    without branches, waiting on its own chain of results (load, shift, test, next
    level). Two independent searches in one loop, each without branches, fill each
    other's waits: 1.7x the speed of nested loops (a search per task, the masks in
    registers) on one core at N = 15, in a one-off comparison before the nests were
    removed. A third lane was no faster (by then
    the loop is bound by the instructions it issues). Each lane takes the next task when
    its own is done."""
    w = np.zeros(2 * LANE, np.int64)
    rows = np.empty(n, np.int64)
    attacked = np.empty(n, np.int64)
    gap = np.empty(n, np.int64)
    nxt = np.empty(n, np.int64)
    i, task0, live0, tgt0 = _load(n, tasks, lo, hi, out, w, 0, rows, attacked, gap, nxt)
    i, task1, live1, tgt1 = _load(n, tasks, i, hi, out, w, LANE, rows, attacked, gap, nxt)
    d0 = np.uint64(0)
    d1 = np.uint64(0)
    while live0 and live1:
        while (live0 != 0) & (live1 != 0):  # one test: two branches here cost 20%
            d0, live0 = _step(w, 0, d0, live0)
            d1, live1 = _step(w, LANE, d1, live1)
        if not live0:
            out[task0] = w[tgt0 * ROW + SK]
            i, task0, live0, tgt0 = _load(n, tasks, i, hi, out, w, 0, rows, attacked, gap, nxt)
            d0 = np.uint64(0)
        if not live1:
            out[task1] = w[LANE + tgt1 * ROW + SK]
            i, task1, live1, tgt1 = _load(n, tasks, i, hi, out, w, LANE, rows, attacked, gap, nxt)
            d1 = np.uint64(0)
    # the tasks ran out: each lane finishes its task alone
    _finish(w, 0, d0, live0, task0, tgt0, out)
    _finish(w, LANE, d1, live1, task1, tgt1, out)


CHUNK = 16
"""Tasks per ``prange`` iteration of :func:`count_constellations_parallel` (each
iteration runs its own two lanes)."""


@njit(cache=True, nogil=True)
def _count_serial(n: int, tasks: Tasks) -> npt.NDArray[np.int64]:
    out = np.zeros(tasks.shape[0], np.int64)
    _count_range(n, tasks, 0, tasks.shape[0], out)
    return out


@njit(cache=True, parallel=True)
def _count_parallel(n: int, tasks: Tasks) -> npt.NDArray[np.int64]:
    t = tasks.shape[0]
    out = np.zeros(t, np.int64)
    for k in prange((t + CHUNK - 1) // CHUNK):
        _count_range(n, tasks, k * CHUNK, min(t, (k + 1) * CHUNK), out)
    return out


def count_constellations(n: int, tasks: Tasks) -> npt.NDArray[np.int64]:
    """Completions of each task (rows of :func:`constellation_tasks`), unweighted, one
    after another on this thread: the total is ``(counts * tasks[:, WEIGHT]).sum()``.
    The kernel releases the GIL."""
    return _count_serial(n, np.ascontiguousarray(tasks, dtype=np.int64))  # type: ignore[no-any-return]


def count_constellations_parallel(n: int, tasks: Tasks) -> npt.NDArray[np.int64]:
    """:func:`count_constellations` with the tasks spread over numba's threads in
    chunks of :data:`CHUNK` (the same counts, task by task)."""
    return _count_parallel(n, np.ascontiguousarray(tasks, dtype=np.int64))  # type: ignore[no-any-return]


# --- tasks: borders with preset queens ---------------------------------------------------------


@njit(cache=True, nogil=True)
def _descend(n: int, task, extra: int, out, k: int, write: bool) -> int:
    """The tasks made of ``task`` and ``extra`` more preset queens (fewer where the free
    rows run out), depth first in column order; each is counted and, when ``write``,
    stored at ``out[k]``. Placements that leave the next free row without a free square
    are dropped (no completion), as is a task whose own presets do not fit."""
    full = (np.int64(1) << n) - 1
    rows = np.empty(n, np.int64)
    attacked = np.empty(n, np.int64)
    nrows = _border_rows(n, task, rows, attacked)
    start, c0, l0, r0 = _preset_masks(n, task, rows, attacked, nrows)
    if start < 0:
        return k
    extra = min(extra, nrows - start, MAX_PRESET - start)
    if extra <= 0:
        if write:
            for j in range(TASK_COLUMNS):
                out[k, j] = task[j]
        return k + 1
    sc = np.empty(extra, np.int64)
    sl = np.empty(extra, np.int64)
    sr = np.empty(extra, np.int64)
    sf = np.empty(extra, np.int64)
    cols = np.empty(extra, np.int64)
    sc[0] = c0
    sl[0] = l0
    sr[0] = r0
    sf[0] = full & ~(c0 | l0 | r0 | attacked[start])
    base = task[PRESET] & ~np.int64(15)
    d = 0
    while d >= 0:
        free = sf[d]
        if free == 0:
            d -= 1
            continue
        bit = free & -free
        sf[d] = free ^ bit
        col = 0
        while (np.int64(1) << col) != bit:
            col += 1
        cols[d] = col
        row = start + d
        c = sc[d] | bit
        if row + 1 < nrows:
            g = rows[row + 1] - rows[row]
            lnext = (sl[d] | bit) << g
            rnext = (sr[d] | bit) >> g
            if full & ~(c | lnext | rnext | attacked[row + 1]) == 0:
                continue
        else:
            lnext = rnext = np.int64(0)
        if d + 1 < extra:
            d += 1
            sc[d] = c
            sl[d] = lnext
            sr[d] = rnext
            sf[d] = full & ~(c | lnext | rnext | attacked[row + 1])
            continue
        if write:
            packed = base | (start + extra)
            for j in range(extra):
                packed |= cols[j] << (4 + PRESET_BITS * (start + j))
            for j in range(TASK_COLUMNS):
                out[k, j] = task[j]
            out[k, PRESET] = packed
        k += 1
    return k


@njit(cache=True, nogil=True)
def expand_constellations(n: int, tasks: Tasks, extra: int) -> tuple[Tasks, npt.NDArray[np.int64]]:
    """Split each task into the tasks with ``extra`` more preset queens (at most
    :data:`MAX_PRESET` in all), and the index of the task each came from: their
    completions add up to the task's, and they keep its weight."""
    none = np.empty((0, TASK_COLUMNS), np.int64)
    k = 0
    for i in range(tasks.shape[0]):
        k = _descend(n, tasks[i], extra, none, k, False)
    out = np.empty((k, TASK_COLUMNS), np.int64)
    parent = np.empty(k, np.int64)
    k = 0
    for i in range(tasks.shape[0]):
        k2 = _descend(n, tasks[i], extra, out, k, True)
        parent[k:k2] = i
        k = k2
    return out, parent


@njit(cache=True)
def _border_tasks(n: int) -> Tasks:
    borders = canonical_borders(n)
    out = np.zeros((borders.shape[0], TASK_COLUMNS), np.int64)
    for i in range(borders.shape[0]):
        out[i, TOP] = borders[i, 0]
        out[i, BOTTOM] = borders[i, 1]
        out[i, LEFT] = borders[i, 2]
        out[i, RIGHT] = borders[i, 3]
        out[i, WEIGHT] = borders[i, 4]
    return out


def constellation_tasks(n: int, presets: int | None = None) -> Tasks:
    """The start constellations for N: one int64 row per task, columns ``(top, bottom,
    left, right, preset, weight)`` (:data:`TOP` ... :data:`WEIGHT`).

    One canonical border per symmetry class (in the order of its canonical key), each
    followed by its placements of ``presets`` queens (default :func:`preset_queens`) in
    its first free rows, in column order; the order is the same on every machine. The
    weighted sum of the tasks' completions (:func:`count_constellations`) is the number
    of solutions. For N >= :data:`MIN_N`.
    """
    if n < MIN_N:
        raise ValueError(f"constellations need N >= {MIN_N}, not {n}")
    borders = _border_tasks(n)
    extra = preset_queens(n) if presets is None else presets
    if extra <= 0:
        return borders
    tasks, _ = expand_constellations(n, borders, extra)
    return tasks


def pack_preset(columns: list[int] | tuple[int, ...]) -> int:
    """The PRESET field of a task whose first free rows hold queens in these columns."""
    if len(columns) > MAX_PRESET:
        raise ValueError(f"at most {MAX_PRESET} preset queens, not {len(columns)}")
    packed = len(columns)
    for j, col in enumerate(columns):
        packed |= col << (4 + PRESET_BITS * j)
    return packed


def unpack_preset(packed: int) -> list[int]:
    """The preset queens' columns of a PRESET field, first free row first."""
    return [(packed >> (4 + PRESET_BITS * j)) & 63 for j in range(packed & 15)]


_warm: set[bool] = set()


def warm_up(parallel: bool = False) -> float:
    """Compile (or load from the cache) the kernels a count uses on a tiny board, once per
    process: the serial kernel, or the ``prange`` one when ``parallel`` (not the stack
    search: only tests and benchmarks run it); return the seconds it took (0 when already
    done)."""
    t0 = time.perf_counter()
    if parallel not in _warm:
        tasks, _ = expand_constellations(8, constellation_tasks(8, 1), 1)
        (count_constellations_parallel if parallel else count_constellations)(8, tasks)
        _warm.add(parallel)
    return time.perf_counter() - t0
