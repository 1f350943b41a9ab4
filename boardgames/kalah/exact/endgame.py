"""Kalah endgame tables: the exact value of every position with few stones left on the board.

This module builds tables and keeps them in the cache; :mod:`.index` holds the indexing
arithmetic and table sizes (NumPy only), :mod:`.tablefile` the file format (checksums,
reading, mapping, saving).

Classic rules only, with or without the "empty capture" variant (stones never come back
out of a store, so the stones still in the pits decide the rest of the game, whatever the
stores hold). For a position with ``n`` stones
in the pits, the table holds ``g``: what the player to move will gain from here on under
perfect play (its final margin minus the present store difference), ``-n <= g <= n``.

Indexing. The ``2m`` pits are read from the mover's point of view: the mover's pits in
sowing order, then the opponent's pits in theirs (for B to move that is pits ``m+1..2m``
then ``0..m-1``: the board turned round). A position is a composition of ``n`` into ``2m``
parts; its index is ``offset[n] + rank``, rank being its place in lexicographic order
(the combinatorial number system, ``O(2m)`` per lookup with a table of binomials).

Building (retrograde, level by level). A move either puts a stone into a store (the
extra turn, a capture and the end sweep all do), so the child has fewer stones and is
already known, or only shifts the mover's stones to the right within its own row. In
that case the child keeps ``n`` stones and has a strictly larger *potential*
``sum (i + 1) * stones`` over both rows (i counted from each row's first pit), which
turning the board round does not change. So a level is built in decreasing potential,
and positions of equal potential, which never depend on each other, in parallel. The
potential depends only on the column sums (pit ``i`` of both rows together), so a level
is walked column vector by column vector in decreasing potential, each split between
the rows as a mixed-radix number: no memory per position beside the table itself.

Tables are cached on disk (:func:`boardgames.cache_dir`: ``$BOARDGAMES_CACHE``, else
``$XDG_CACHE_HOME/boardgames``, else ``~/.cache/boardgames``), keyed by rules, pits, stone
limit, the table :data:`FORMAT` and a fingerprint of the rule kernels' behaviour (every
move of a few hundred random positions), so a change of the rules never reuses an old
table.

A saved table is a one-dimensional int8 ``.npy`` file (``np.load`` reads it) followed by
a trailer: :data:`CHECKSUM_MAGIC` and one line of JSON holding a checksum of each level
(the positions of one stone count): the XXH3-64 of its 1 MiB blocks' XXH3-64s
(:func:`level_checksums`). Loading hashes each block right after its read
(:func:`_read_table`), and a table that does not match is never used
(:class:`DamagedTable`). Files of the two earlier trailers (XXH64 of the same blocks;
XXH64 of each whole level) are checked too; files saved before the trailer
existed still load, as *unverified* (``EndgameTable.verified`` is False). A table can
also be used memory-mapped from its file instead of copied (``load_cached(...,
mmap=True)``, :func:`map_table`).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import itertools
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

import numba
import numpy as np
from numba import njit

from boardgames import cache_dir
from boardgames.core import kernels as core_kernels
from boardgames.core.files import record_failed_write
from boardgames.core.kernels import AGAIN, NOT_OVER
from boardgames.core.memory import huge_zeros
from boardgames.core.numba_cache import njit_cached
from boardgames.core.prefetch import prefetch
from boardgames.core.progress import BATCH_SECONDS, BatchSizer
from boardgames.kalah import kernels as rule_kernels
from boardgames.kalah.exact.index import (
    MAX_TABLE_STONES,
    binomials,
    level_bounds,
    level_sizes,
    pit_stones,
    table_entries,
)
from boardgames.kalah.exact.tablefile import (
    IO_CHUNK,
    DamagedTable,
    _read_table,
    inspect_table,
    map_table,
    save_table,
)
from boardgames.kalah.kernels import apply_move, make_params, result


def _njit_rules(**options):
    """njit, cached, recompiled when the rule kernels it inlines change."""
    return njit_cached(rule_kernels, core_kernels, **options)


UNKNOWN = -128
"""Marks a table entry not built yet (never a value: |g| <= 127)."""
CHUNK = 4096
"""Positions a build thread takes at a time."""


@njit(cache=True, inline="always")
def rank_state(states, row, m, n, binom):
    """Rank of ``states[row]``'s pits among positions with ``n`` stones, read from the
    mover's side: the mover's pits in sowing order, then the opponent's."""
    p = 2 * m
    mover = states[row, 2 * m + 2]
    first = 0 if mover == 0 else m + 1
    second = m + 1 if mover == 0 else 0
    r = 0
    rem = n
    for i in range(m):
        k = p - 1 - i
        v = states[row, first + i]
        r += binom[rem + k, k] - binom[rem - v + k, k]
        rem -= v
    for i in range(m - 1):  # the last pit holds what is left: no choice, no rank
        k = m - 1 - i
        v = states[row, second + i]
        r += binom[rem + k, k] - binom[rem - v + k, k]
        rem -= v
    return r


@njit(cache=True)
def lookup(states, row, m, n, table, offsets, binom):
    """The table's ``g`` for ``states[row]`` (``n`` stones in its pits, n within the table)."""
    return table[offsets[n] + rank_state(states, row, m, n, binom)]


@njit(cache=True)
def _unrank(r, n, p, binom, out):
    rem = n
    for i in range(p - 1):
        k = p - 1 - i
        v = 0
        while True:
            c = binom[rem - v + k - 1, k - 1]  # completions with this part = v
            if r < c:
                break
            r -= c
            v += 1
        out[i] = v
        rem -= v
    out[p - 1] = rem


@njit(cache=True)
def _columns(n, m, binom):
    """Every way to put ``n`` stones into ``m`` columns (pit ``i`` of both rows)."""
    count = binom[n + m - 1, m - 1]
    cols = np.empty((count, m), dtype=np.int64)
    x = np.empty(m, dtype=np.int64)
    for r in range(count):
        _unrank(r, n, m, binom, x)
        for i in range(m):
            cols[r, i] = x[i]
    return cols


def _level_plan(n: int, m: int, binom: np.ndarray):
    """The order a level is built in, without a word of memory per position: the column
    sums ``cols`` (which alone fix the potential) in decreasing potential, ``first[j]``
    the positions before column vector ``j`` (each splits into ``prod(c + 1)``
    positions), and ``groups`` where each potential starts in ``cols``."""
    cols = _columns(n, m, binom)
    phi = cols @ np.arange(1, m + 1)
    order = np.argsort(-phi, kind="stable")
    cols, phi = np.ascontiguousarray(cols[order]), phi[order]
    first = np.zeros(cols.shape[0] + 1, dtype=np.int64)
    first[1:] = np.cumsum(np.prod(cols + 1, axis=1))
    groups = np.flatnonzero(np.diff(phi, prepend=-1, append=-1)).astype(np.int64)
    return cols, first, groups


@_njit_rules()
def _expand(x, n, m, params, binom, offsets, table, states, kids, q):
    """First half of solving the position ``x`` (pits from the mover's side) on level
    ``n``: its finished children are scored at once, the others' table indexes (with the
    move's gain and whether it was an extra turn) go to ``kids[q]`` and are prefetched.
    Returns the best value so far and how many children wait in ``kids[q]``."""
    side = 2 * m + 2
    for i in range(side + 1):
        states[0, i] = 0
    for i in range(m):
        states[0, i] = x[i]
        states[0, m + 1 + i] = x[m + i]
    mine = 0
    theirs = 0
    for i in range(m):
        mine += x[i]
        theirs += x[m + i]
    if mine == 0 or theirs == 0:
        return mine - theirs, 0
    best = -1000
    count = 0
    for pit in range(m):
        if states[0, pit] == 0:
            continue
        again = apply_move(states, 0, pit, params) == AGAIN
        rr = result(states, 1, params)
        if rr != NOT_OVER:
            v = rr if states[1, side] == 0 else -rr
            if v > best:
                best = v
            continue
        left = 0
        for i in range(m):
            left += states[1, i] + states[1, m + 1 + i]
        idx = offsets[left] + rank_state(states, 1, m, left, binom)
        prefetch(table, idx)
        kids[q, count, 0] = idx
        kids[q, count, 1] = states[1, m] - states[1, 2 * m + 1]
        kids[q, count, 2] = again
        count += 1
    return best, count


BATCH = 16
"""Positions expanded (their children's entries prefetched) before any is finished, so
that the cache misses of a whole batch overlap."""


@njit(cache=True, inline="always")
def _split(cols, j, local, m, x):
    """Position number ``local`` of column vector ``j``: a mixed-radix number whose digit
    ``i`` (radix ``cols[j, i] + 1``) is the mover's share of column ``i``."""
    for i in range(m - 1, -1, -1):
        radix = cols[j, i] + 1
        x[i] = local % radix
        x[m + i] = cols[j, i] - x[i]
        local //= radix


@_njit_rules(nogil=True)
def _build_chunks(
    cols, first, lo_col, hi_col, chunk, c_lo, c_hi, n, m, params, binom, table, offsets
):
    """Solve chunks ``c_lo..c_hi-1`` (``chunk`` positions each, the last one maybe
    fewer) of the positions of column vectors ``lo_col..hi_col-1`` of level ``n``, a chunk
    in batches. Without the GIL: the threads of :func:`_build_group` run it side by side.
    Returns how many positions met an entry not built yet (0 unless the dependency order
    is broken). Its small arrays are made anew for each chunk: hoisted out of the loop
    they made the build 12% slower (measured on one thread, 6 pits, 16 stones), fresh
    arrays being known to LLVM not to overlap the table."""
    side = 2 * m + 3
    bad = 0
    lo = first[lo_col]
    size = first[hi_col] - lo
    for c in range(c_lo, c_hi):
        states = np.zeros((2, side), dtype=np.int64)
        x = np.zeros(2 * m, dtype=np.int64)
        kids = np.zeros((BATCH, m, 3), dtype=np.int64)
        best = np.zeros(BATCH, dtype=np.int64)
        count = np.zeros(BATCH, dtype=np.int64)
        rows = np.zeros(BATCH, dtype=np.int64)
        pos = lo + c * chunk
        end = lo + min(size, (c + 1) * chunk)
        j = np.searchsorted(first, pos, side="right") - 1
        _split(cols, j, pos - first[j], m, x)
        while pos < end:
            top = min(BATCH, end - pos)
            for q in range(top):
                best[q], count[q] = _expand(x, n, m, params, binom, offsets, table, states, kids, q)
                rows[q] = offsets[n] + rank_state(states, 0, m, n, binom)
                prefetch(table, rows[q])
                # the next position: add one to the mixed-radix number, or the next column
                i = m - 1
                while i >= 0 and x[i] == cols[j, i]:
                    x[i] = 0
                    x[m + i] = cols[j, i]
                    i -= 1
                if i >= 0:
                    x[i] += 1
                    x[m + i] -= 1
                elif j + 1 < cols.shape[0]:
                    j += 1
                    _split(cols, j, 0, m, x)
            pos += top
            for q in range(top):
                v = best[q]
                for t in range(count[q]):
                    g = np.int64(table[kids[q, t, 0]])
                    if g == UNKNOWN:  # dependency order broken: reported by the caller
                        v = UNKNOWN
                        break
                    gain = kids[q, t, 1]
                    w = gain + g if kids[q, t, 2] != 0 else gain - g
                    if w > v:
                        v = w
                if v == UNKNOWN:
                    bad += 1
                table[rows[q]] = v
    return bad


PIECES = 4
"""Pieces a build thread's share of a call is cut into: a thread that finishes early
takes the next piece (chunks differ in cost), without a call per chunk."""


def _build_group(
    cols, first, lo_col, hi_col, n, m, params, binom, table, offsets, pool, threads
) -> int:
    """Solve the positions of column vectors ``lo_col..hi_col-1`` of level ``n`` (one
    potential: they never depend on each other): their chunks cut into pieces that
    the ``threads`` threads of ``pool`` (None: this thread alone) take in turn. Returns how
    many positions met an entry not built yet (0 unless the dependency order is
    broken).

    Python threads over a kernel without the GIL, not numba's ``prange``: the same work
    split the same way, and the kernel compiles in about a quarter of the time (a first
    solve on a fresh machine waits for it before its build starts)."""
    chunks = int((first[hi_col] - first[lo_col] + CHUNK - 1) // CHUNK)
    args = (cols, first, lo_col, hi_col, CHUNK)
    rest = (n, m, params, binom, table, offsets)
    if pool is None or chunks < 2:
        return int(_build_chunks(*args, 0, chunks, *rest))
    cuts = np.linspace(0, chunks, min(chunks, threads * PIECES) + 1).astype(np.int64)
    jobs = [
        pool.submit(_build_chunks, *args, int(a), int(b), *rest)
        for a, b in itertools.pairwise(cuts)
        if b > a
    ]
    try:
        return sum(int(job.result()) for job in jobs)
    finally:  # Ctrl-C: the pieces not started are dropped, the running ones end soon
        for job in jobs:
            job.cancel()


@dataclass
class EndgameTable:
    """Values ``g`` for every position with at most ``stones`` stones in the pits."""

    pits: int
    stones: int
    rules: str
    table: np.ndarray  # int8
    offsets: np.ndarray  # int64, level n starts at offsets[n]
    binom: np.ndarray
    build_seconds: float = 0.0
    loaded_from: Path | None = None
    empty_capture: bool = False
    verified: bool | None = None
    """Read from a file: True if every level matched its checksum, False if it was not
    checked (a file saved before checksums, or ``verify=False``); None for a table built
    in this process."""
    mapped: bool = False
    """True: ``table`` is memory-mapped from ``loaded_from`` (:func:`map_table`), not a copy
    in memory; the mapping lives as long as the array."""
    skipped: bool = False
    """True: the file has checksums, but they were not checked (``verify=False``)."""

    @property
    def nbytes(self) -> int:
        return int(self.table.nbytes)

    def value(self, state: np.ndarray) -> int:
        """``g`` of a protocol state (its pits must hold at most ``stones`` stones)."""
        m = self.pits
        n = pit_stones(state, m)
        if n > self.stones:
            raise ValueError(f"{n} stones in the pits; the table goes up to {self.stones}")
        return int(lookup(state.reshape(1, -1), 0, m, n, self.table, self.offsets, self.binom))


def _cache_dir() -> Path:
    return cache_dir()


FORMAT = 2
"""Version of the table layout and of the build; raise it when either changes."""


@_njit_rules()
def _rules_sample(m, params, seed, count, out):
    """Play every move of ``count`` random positions with the rule kernels; the children
    (and what each move returned) go into ``out``, whose hash fingerprints the rules."""
    np.random.seed(seed)
    side = 2 * m + 2
    states = np.zeros((2, side + 1), dtype=np.int64)
    k = 0
    for _ in range(count):
        for i in range(side):
            states[0, i] = np.random.randint(0, 9) if i != m and i != side - 1 else 0
        states[0, side] = np.random.randint(0, 2)
        first = 0 if states[0, side] == 0 else m + 1
        for pit in range(first, first + m):
            if states[0, pit] == 0:
                continue
            code = apply_move(states, 0, pit, params)
            out[k] = code * 1_000_003 + result(states, 1, params)
            k += 1
            for i in range(side + 1):
                out[k] = states[1, i]
                k += 1
    return k


@functools.cache
def rules_fingerprint(pits: int, empty_capture: bool) -> str:
    """The last part of a table's file name on this board: the table format and a
    fingerprint of what the rule kernels do, so that a change of the rules never reuses an
    old table (and a refactoring of the kernels that keeps their behaviour does not throw
    good tables away). Computed once a process: play and analyse look for cached tables
    on every program move. The first call loads its kernel (compiles it on a fresh
    machine: seconds), so the build and the search ask for it only when a table of the
    board may be in the cache, or to save one."""
    count = 500
    out = np.zeros(count * pits * (2 * pits + 4), dtype=np.int64)
    params = make_params(pits, "classic", "store", 1, empty_capture)
    k = _rules_sample(pits, params, 20001, count, out)
    h = hashlib.sha256(f"format {FORMAT}".encode())
    h.update(out[:k].tobytes())
    return h.hexdigest()[:12]


def _file_name(pits: int, stones: int | str, rules: str, empty_capture: bool, key: str) -> str:
    variant = rules + ("-empty-capture" if empty_capture else "")
    return f"kalah-endgame-{variant}-{pits}p-{stones}s-{key}.npy"


def cache_path(pits: int, stones: int, rules: str, empty_capture: bool = False) -> Path:
    """The file of this table in the cache (for today's rule kernels)."""
    key = rules_fingerprint(pits, empty_capture)
    return _cache_dir() / _file_name(pits, stones, rules, empty_capture, key)


def _any_cached(pits: int, stones: int | None, rules: str, empty_capture: bool) -> bool:
    """A file of this board's tables (of ``stones`` stones; None: any) is in the cache,
    whatever rule kernels made it: a look at file names, no kernel loaded. False means
    no table of the board can be in the cache (then its fingerprint is not needed)."""
    count = "*" if stones is None else stones
    return any(_cache_dir().glob(_file_name(pits, count, rules, empty_capture, "*")))


def _is_cached(pits: int, stones: int, rules: str, empty_capture: bool) -> bool:
    """This table, of today's rule kernels, is in the cache (its fingerprint is asked
    only if a file of the board's tables of ``stones`` stones is there)."""
    table = (pits, stones, rules, empty_capture)
    return _any_cached(*table) and cache_path(*table).exists()


def build(
    pits: int,
    stones: int,
    rules: str = "classic",
    progress: Callable[[int, int, float], None] | None = None,
    empty_capture: bool = False,
    base: tuple[Path, int] | None = None,
) -> EndgameTable:
    """Build the table by retrograde analysis (see the module docstring).

    ``base`` (a saved table of this board and rules and its stone limit ``k``): its levels
    0..k are read instead of built, since a table's levels are laid out in order, so only
    the levels above ``k`` are built (26 to 27 stones on 6 pits takes minutes, not an
    hour). The work goes to the kernel in batches of about :data:`BATCH_SECONDS`, each
    followed by ``progress(level, stones, fraction done)``, so that Ctrl-C
    (``KeyboardInterrupt``) stops a build within a second."""
    if rules != "classic":
        raise ValueError("endgame tables exist for the classic rules only")
    if not 0 <= stones <= MAX_TABLE_STONES:
        raise ValueError(f"endgame tables hold 0 to {MAX_TABLE_STONES} stones, got {stones}")
    t0 = time.perf_counter()
    m = pits
    sizes = level_sizes(m, stones)
    offsets = np.zeros(stones + 2, dtype=np.int64)
    offsets[1:] = np.cumsum(sizes)
    binom = binomials(stones + 2 * m + 2)
    table = huge_zeros(int(offsets[-1]), np.int8)
    first = 0
    if base is not None:
        path, k = base
        if not 0 <= k < stones:
            raise ValueError(f"a base table has fewer stones than {stones}, got {k}")
        _read_table(path, table[: int(offsets[k + 1])])  # every level checked
        first = k + 1
    for lo in range(int(offsets[first]), table.shape[0], IO_CHUNK):
        table[lo : lo + IO_CHUNK] = UNKNOWN  # in slices: the first touch of a page is slow
    params = make_params(m, rules, "store", 1, empty_capture)
    failures = 0
    todo = int(offsets[-1] - offsets[first])  # every level holds a position at least
    sizer = BatchSizer(BATCH_SECONDS, first=CHUNK * 16, minimum=CHUNK)
    threads = numba.get_num_threads()  # numba.set_num_threads limits a build too
    with ThreadPoolExecutor(threads) if threads > 1 else contextlib.nullcontext() as pool:
        for n in range(first, stones + 1):
            cols, before, groups = _level_plan(n, m, binom)
            for g in range(groups.shape[0] - 1):
                # one potential's positions are independent: any split of them will do
                lo, end = int(groups[g]), int(groups[g + 1])
                while lo < end:
                    want = before[lo] + sizer.size
                    top = int(np.searchsorted(before, want, side="right")) - 1
                    hi = max(lo + 1, min(end, top))
                    t = time.perf_counter()
                    failures += _build_group(
                        cols, before, lo, hi, n, m, params, binom, table, offsets, pool, threads
                    )
                    sizer.record(int(before[hi] - before[lo]), time.perf_counter() - t)
                    lo = hi
                    if progress is not None:
                        done = offsets[n] - offsets[first] + before[hi]
                        progress(n, stones, float(done) / todo)
    if failures:
        raise RuntimeError("endgame build met an entry before its dependencies")
    seconds = time.perf_counter() - t0
    return EndgameTable(m, stones, rules, table, offsets, binom, seconds, None, empty_capture)


def cached_stones(pits: int, rules: str = "classic", empty_capture: bool = False) -> list[int]:
    """Stone limits of the tables in the disk cache for this board and the present rules."""
    if not _any_cached(pits, None, rules, empty_capture):
        return []  # a fresh machine: no fingerprint to compute
    path = cache_path(pits, 0, rules, empty_capture)
    head, tail = path.name.split(f"-{pits}p-0s-")
    found = []
    for p in path.parent.glob(f"{head}-{pits}p-*s-{tail}"):
        k = p.name[len(head) + len(f"-{pits}p-") :].split("s-", 1)[0]
        if k.isdecimal():
            found.append(int(k))
    return sorted(found)


@dataclass
class BuildPlan:
    """What :func:`load_or_build` will do for a table, before it does it."""

    table: tuple[int, int, str, bool]  # pits, stones, rules, empty capture
    folder: Path  # the cache folder the table is read from or saved in
    cached: bool  # the table is in the cache: it is only read
    base: int | None  # stone limit of the smaller cached table it is built on, if any
    entries: int  # positions (= bytes) of the table
    to_build: int  # positions to build (those above the base)
    seconds: float  # estimated seconds to build them

    @property
    def nbytes(self) -> int:
        return self.entries

    @property
    def path(self) -> Path:
        """The table's file (:func:`cache_path`): asked when the table is read or saved,
        so that a fresh machine's first build does not wait on the fingerprint."""
        return cache_path(*self.table)


BUILD_RATE = 1.6e6
"""Positions built a second per thread on small tables (about 3.2 M/s on 2 threads up
to 200 M positions, 2.6 M/s at 550 M, 1.5 M/s at 2.7 G: bigger tables miss the caches
more); see :func:`build_seconds`."""


def build_seconds(entries: int, to_build: int, threads: int | None = None) -> float:
    """Estimated seconds to build ``to_build`` positions of a table of ``entries``."""
    if threads is None:
        threads = numba.get_num_threads()
    rate = BUILD_RATE * max(1, threads) / (1 + entries / 2.2e9)
    return to_build / rate


def build_plan(
    pits: int, stones: int, rules: str = "classic", empty_capture: bool = False
) -> BuildPlan:
    """Whether the table is cached, or which smaller cached table it would grow from, its
    size and the estimated build time."""
    table = (pits, stones, rules, empty_capture)
    folder = _cache_dir()
    entries = table_entries(pits, stones)
    if _is_cached(*table):
        return BuildPlan(table, folder, True, None, entries, 0, 0.0)
    smaller = [k for k in cached_stones(pits, rules, empty_capture) if k < stones]
    base = max(smaller) if smaller else None
    to_build = entries - (table_entries(pits, base) if base is not None else 0)
    seconds = build_seconds(entries, to_build)
    return BuildPlan(table, folder, False, base, entries, to_build, seconds)


def load_cached(
    pits: int,
    stones: int,
    rules: str = "classic",
    empty_capture: bool = False,
    *,
    mmap: bool = False,
    verify: bool = True,
) -> EndgameTable:
    """The table from the disk cache, every level checked against its checksum (a file
    saved before checksums loads unverified: ``verified`` False). Raises
    :class:`DamagedTable` (one line) for a file that must not be used, ``OSError`` for one
    that cannot be read (``FileNotFoundError``: not cached).

    ``mmap=True``: the table is memory-mapped from its file (:func:`map_table`), not
    copied into memory, for a table bigger than a process wants to hold (a cluster worker):
    the solver takes it unchanged, its lookups read the page cache. It is verified by one
    read through the mapping, unless ``verify=False`` (then ``skipped`` is True and
    :func:`unverified_note` says so)."""
    path = cache_path(pits, stones, rules, empty_capture)
    if mmap:
        table, verified = map_table(path, verify)
    else:
        table, verified = _read_table(path, verify=verify)
    if table.shape[0] != table_entries(pits, stones):
        raise DamagedTable(f"it holds {table.shape[0]:,} entries, not those of {stones} stones")
    offsets = level_bounds(pits, stones)
    binom = binomials(stones + 2 * pits + 2)
    skipped = not verify and inspect_table(path).checked
    return EndgameTable(
        pits,
        stones,
        rules,
        table,
        offsets,
        binom,
        loaded_from=path,
        empty_capture=empty_capture,
        verified=verified,
        mapped=mmap,
        skipped=skipped,
    )


def _stderr_note(text: str) -> None:
    print(text, file=sys.stderr)


def unverified_note(table: EndgameTable) -> str:
    """The one line said when a table saved before checksums (or not checked) is used."""
    if table.skipped:
        return (
            f"Note: the cached endgame table of {table.stones} stones on {table.pits} pits is "
            "used without checking its checksums (asked for: verify=False)."
        )
    return (
        f"Note: the cached endgame table of {table.stones} stones on {table.pits} pits has no "
        "checksum (saved by an earlier version); it is used unverified. "
        "'boardgames cache verify' says how to stamp or rebuild it."
    )


def damaged_note(pits: int, stones: int, error: BaseException) -> str:
    """The one line said when a cached table fails to load and is rebuilt."""
    return (
        f"The cached endgame table of {stones} stones on {pits} pits is damaged "
        f"({_reason(error)}): it is rebuilt, not used."
    )


def load_or_build(
    pits: int,
    stones: int,
    rules: str = "classic",
    progress: Callable[[int, int, float], None] | None = None,
    empty_capture: bool = False,
    note: Callable[[str], None] | None = None,
    *,
    mmap: bool = False,
) -> EndgameTable:
    """The table from the disk cache, or built now (on top of the biggest smaller table
    in the cache, if any) and saved there (atomically: see :func:`save_table`).

    ``mmap=True``: the cached table is memory-mapped, not copied (see
    :func:`load_cached`); one built now is mapped from the file it was saved as, and the
    built copy let go (it stays in memory only if it could not be saved).

    A cached table that fails its checksums is never used: it is rebuilt, and ``note``
    gets one line saying so (without ``note`` that line goes to stderr). ``note`` also
    hears when a table saved before checksums is used unverified (without ``note``,
    nothing is said). Ctrl-C (``KeyboardInterrupt``) stops a build or a load within a
    second and saves nothing."""
    warn = note or _stderr_note
    if _is_cached(pits, stones, rules, empty_capture):
        try:
            cached = load_cached(pits, stones, rules, empty_capture, mmap=mmap)
            if not cached.verified and note is not None:
                note(unverified_note(cached))
            return cached
        except (OSError, ValueError) as e:
            warn(damaged_note(pits, stones, e))
    smaller = [k for k in cached_stones(pits, rules, empty_capture) if k < stones]
    built = None
    if smaller:  # build only the levels above the biggest cached table
        k = max(smaller)
        try:
            base = (cache_path(pits, k, rules, empty_capture), k)
            built = build(pits, stones, rules, progress, empty_capture, base)
        except (OSError, ValueError) as e:
            warn(f"The cached {k}-stone endgame table is damaged ({_reason(e)}): not built on.")
            built = None  # build from scratch
    if built is None:
        built = build(pits, stones, rules, progress, empty_capture)
    # named now: on a fresh machine the fingerprint's kernel compiled aside meanwhile
    # (``kalah solve``: the solver's warm step), or compiles here once the build is done
    path = cache_path(pits, stones, rules, empty_capture)
    try:
        save_table(path, built.table, pits, stones)
        # tables of older rule kernels for the same board are never read again
        stem = path.name.rsplit("-", 1)[0]
        for old in path.parent.glob(f"{stem}-*.npy"):
            if old != path:
                old.unlink(missing_ok=True)
    except OSError as e:  # no writable cache: the table still works for this run
        warn(
            f"The endgame table could not be saved in {path.parent} ({_reason(e)}): it "
            "serves this run only, and the next run builds it again."
        )
        record_failed_write(str(path))  # the command ends with status 1
        return built
    if mmap:
        # just written from ``built``: mapped without reading it back
        try:
            table, _ = map_table(path, verify=False)
        except (OSError, ValueError):
            return built
        return replace(built, table=table, loaded_from=path, mapped=True)
    return built


def _reason(error: BaseException) -> str:
    """An error reading a table file, in a few words."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error)
