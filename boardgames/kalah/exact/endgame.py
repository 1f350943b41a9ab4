"""Kalah endgame tables: the exact value of every position with few stones left on the board.

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
import json
import mmap
import os
import queue
import re
import shutil
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import xxhash
from numba import njit, prange

from boardgames import cache_dir
from boardgames.core import kernels as core_kernels
from boardgames.core.kernels import AGAIN, NOT_OVER
from boardgames.core.memory import huge_zeros
from boardgames.core.numba_cache import njit_cached
from boardgames.core.prefetch import prefetch
from boardgames.core.progress import BATCH_SECONDS, BatchSizer, format_bytes
from boardgames.kalah import kernels as rule_kernels
from boardgames.kalah.kernels import apply_move, make_params, result


def _njit_rules(**options):
    """njit, cached, recompiled when the rule kernels it inlines change."""
    return njit_cached(rule_kernels, core_kernels, **options)


UNKNOWN = -128
"""Marks a table entry not built yet (never a value: |g| <= 127)."""
MAX_TABLE_STONES = 40
CHUNK = 4096
"""Positions a build thread takes at a time."""
IO_CHUNK = 64 * 2**20
"""Bytes read, written or filled in one call: a Ctrl-C waits for one such call at most."""


def binomials(top: int) -> np.ndarray:
    """``b[n, k] = C(n, k)`` for ``0 <= k <= n <= top`` (int64)."""
    b = np.zeros((top + 1, top + 1), dtype=np.int64)
    for n in range(top + 1):
        b[n, 0] = 1
        for k in range(1, n + 1):
            b[n, k] = b[n - 1, k - 1] + b[n - 1, k]
    return b


def level_sizes(pits: int, stones: int) -> np.ndarray:
    """Positions with exactly ``n`` stones in the ``2 * pits`` pits, for n = 0..stones."""
    p = 2 * pits
    from math import comb

    return np.array([comb(n + p - 1, p - 1) for n in range(stones + 1)], dtype=np.int64)


def table_entries(pits: int, stones: int) -> int:
    """Entries (bytes) of a table for up to ``stones`` stones on a board of ``pits``."""
    return int(level_sizes(pits, stones).sum())


def largest_stones(pits: int, entries: int, top: int = MAX_TABLE_STONES) -> int:
    """The most stones (at most ``top``) a table of at most ``entries`` positions holds."""
    k = 0
    while k + 1 <= top and table_entries(pits, k + 1) <= entries:
        k += 1
    return k


def pit_stones(state: np.ndarray, pits: int) -> int:
    """Stones in the pits of a protocol state (the stores left out)."""
    return int(state[:pits].sum() + state[pits + 1 : 2 * pits + 1].sum())


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


@_njit_rules(parallel=True)
def _build_group(cols, first, lo_col, hi_col, n, m, params, binom, table, offsets):
    """Solve the positions of column vectors ``lo_col..hi_col-1`` of level ``n`` (one
    potential: they never depend on each other) in parallel chunks, a chunk in batches.
    Returns how many positions met an entry not built yet (0 unless the dependency
    order is broken)."""
    side = 2 * m + 3
    bad = 0
    lo = first[lo_col]
    size = first[hi_col] - lo
    chunks = (size + CHUNK - 1) // CHUNK
    for c in prange(chunks):
        states = np.zeros((2, side), dtype=np.int64)
        x = np.zeros(2 * m, dtype=np.int64)
        kids = np.zeros((BATCH, m, 3), dtype=np.int64)
        best = np.zeros(BATCH, dtype=np.int64)
        count = np.zeros(BATCH, dtype=np.int64)
        rows = np.zeros(BATCH, dtype=np.int64)
        pos = lo + c * CHUNK
        end = lo + min(size, (c + 1) * CHUNK)
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
def _version_key(pits: int, empty_capture: bool) -> str:
    """The table format and a fingerprint of what the rule kernels do on this board, so
    that a change of the rules never reuses an old table (and a refactoring of the
    kernels that keeps their behaviour does not throw good tables away). Computed once
    a process: play and analyse look for cached tables on every program move."""
    count = 500
    out = np.zeros(count * pits * (2 * pits + 4), dtype=np.int64)
    params = make_params(pits, "classic", "store", 1, empty_capture)
    k = _rules_sample(pits, params, 20001, count, out)
    h = hashlib.sha256(f"format {FORMAT}".encode())
    h.update(out[:k].tobytes())
    return h.hexdigest()[:12]


def cache_path(pits: int, stones: int, rules: str, empty_capture: bool = False) -> Path:
    """The file of this table in the cache (for today's rule kernels)."""
    variant = rules + ("-empty-capture" if empty_capture else "")
    key = _version_key(pits, empty_capture)
    return _cache_dir() / f"kalah-endgame-{variant}-{pits}p-{stones}s-{key}.npy"


def build(
    pits: int,
    stones: int,
    rules: str = "classic",
    progress=None,
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
    for n in range(first, stones + 1):
        cols, before, groups = _level_plan(n, m, binom)
        for g in range(groups.shape[0] - 1):
            # one potential's positions are independent: any split of them will do
            lo, end = int(groups[g]), int(groups[g + 1])
            while lo < end:
                want = before[lo] + sizer.size
                hi = max(lo + 1, min(end, int(np.searchsorted(before, want, side="right")) - 1))
                t = time.perf_counter()
                failures += _build_group(cols, before, lo, hi, n, m, params, binom, table, offsets)
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
    path = cache_path(pits, 0, rules, empty_capture)
    head, tail = path.name.split(f"-{pits}p-0s-")
    found = []
    for p in path.parent.glob(f"{head}-{pits}p-*s-{tail}"):
        k = p.name[len(head) + len(f"-{pits}p-") :].split("s-", 1)[0]
        if k.isdecimal():
            found.append(int(k))
    return sorted(found)


# --- checksums: XXH3 of each level, by blocks --------------------------------------------
#
# A level (the positions of one stone count) is cut into blocks of BLOCK bytes from its
# first byte; its checksum is the XXH3-64 (seed 0) of its blocks' XXH3-64s, as
# little-endian 8-byte words (CHECKSUM). The hash is the xxhash package's: the reference
# C implementation, vectorised, about 16 GB/s a core here against 3-9 GB/s for the XXH64
# written in numba that it replaced (its XXH3 port did not vectorise). A checked load
# (:func:`_read_table`) hashes each block as soon as a reader thread has read it, so
# that the disk works while the hash computes: measured here
# (benchmarks/table_checksum.py), that adds about 5% to a read() of the file from the
# disk. Files saved with the two earlier trailers are still checked: CHECKSUM_BLOCKS64
# (the same construction with XXH64) and CHECKSUM_V1 (XXH64 of each whole level).

BLOCK = 2**20
"""Bytes of a checksum block (the last block of a level is shorter)."""

_BLOCK_HASHES: dict[str, Callable[[Any], int]] = {
    "xxh3-blocks": xxhash.xxh3_64_intdigest,
    "xxh64-blocks": xxhash.xxh64_intdigest,
}


def level_bounds(pits: int, stones: int) -> np.ndarray:
    """Where each level starts in a table, and its end: ``offsets`` of the table."""
    offsets = np.zeros(stones + 2, dtype=np.int64)
    offsets[1:] = np.cumsum(level_sizes(pits, stones))
    return offsets


def _level_blocks(bounds: np.ndarray, block: int) -> list[tuple[int, int]]:
    """The checksum blocks of levels ``bounds[i]..bounds[i+1]``, level after level:
    (start, end) byte pairs."""
    return [
        (start, min(start + block, int(hi)))
        for lo, hi in itertools.pairwise(bounds)
        for start in range(int(lo), int(hi), block)
    ]


def _combine(
    digests: list[int], bounds: np.ndarray, block: int, digest: Callable[[Any], int]
) -> list[int]:
    """Each level's checksum from its blocks' digests (level after level)."""
    levels = []
    first = 0
    for lo, hi in itertools.pairwise(bounds):
        k = -(-(int(hi) - int(lo)) // block)
        levels.append(digest(np.array(digests[first : first + k], dtype="<u8").tobytes()))
        first += k
    return levels


def checksums(
    data: np.ndarray, bounds: np.ndarray, kind: str | None = None, block: int = BLOCK
) -> list[int]:
    """The checksum of each level ``data[bounds[i]:bounds[i+1]]``: the XXH3-64 of the
    XXH3-64s of its ``block``-byte blocks (``kind``: :data:`CHECKSUM` unless given;
    :data:`CHECKSUM_BLOCKS64` and :data:`CHECKSUM_V1` are the earlier trailers'). Ctrl-C
    stops it between two blocks."""
    kind = CHECKSUM if kind is None else kind
    raw = memoryview(np.ascontiguousarray(data).reshape(-1).view(np.uint8))  # type: ignore[arg-type]
    if kind == CHECKSUM_V1:
        return [xxhash.xxh64_intdigest(raw[lo:hi]) for lo, hi in itertools.pairwise(bounds)]
    digest = _BLOCK_HASHES[kind]
    digests = [digest(raw[lo:hi]) for lo, hi in _level_blocks(bounds, block)]
    return _combine(digests, bounds, block, digest)


def level_checksums(table: np.ndarray, pits: int, stones: int) -> list[int]:
    """The checksum of each level of a table (level ``n``: the positions of ``n`` stones),
    as a saved table's trailer holds them (:func:`checksums`)."""
    return checksums(table, level_bounds(pits, stones))


# --- table files ------------------------------------------------------------------------

CHECKSUM_MAGIC = b"\nkalah-endgame-checksums\n"
"""Starts the trailer after a table's entries; a line of JSON follows."""
CHECKSUM = "xxh3-blocks"
"""The trailer's checksums since version 3 of it: see :func:`level_checksums`."""
CHECKSUM_BLOCKS64 = "xxh64-blocks"
"""The second trailer's checksums (the same blocks, hashed with XXH64): still checked."""
CHECKSUM_V1 = "xxh64"
"""The first trailer's checksums (XXH64 of each whole level): still checked on load."""
MAX_TRAILER = 64 * 2**10


class DamagedTable(ValueError):
    """A table file that must not be used; its message is one line."""


@dataclass
class TableFile:
    """What a table file's header and trailer say, read without its entries."""

    path: Path
    entries: int
    data_start: int  # byte where the entries start
    pits: int | None = None  # None (with checksums): saved before checksums
    stones: int | None = None
    checksums: list[int] | None = None
    kind: str | None = None
    """:data:`CHECKSUM` or an earlier trailer's kind, or None (saved before checksums)."""
    block: int = BLOCK
    """Bytes of a checksum block (the block kinds)."""

    @property
    def checked(self) -> bool:
        """Whether the file carries checksums (False: saved before them, unverified)."""
        return self.checksums is not None


TABLE_NAME = re.compile(
    r"kalah-endgame-(?P<variant>[a-z]+(?:-empty-capture)?)-(?P<pits>[0-9]{1,3})p-"
    r"(?P<stones>[0-9]{1,3})s-(?P<key>[0-9a-z]+)\.npy"
)
"""A table's file name in the cache (:func:`cache_path`)."""


def name_fields(path: Path) -> tuple[str, bool, int, int, str] | None:
    """(rules, empty capture, pits, stones, fingerprint) from a table's file name, or None."""
    m = TABLE_NAME.fullmatch(path.name)
    if m is None:
        return None
    variant = m["variant"]
    empty_capture = variant.endswith("-empty-capture")
    rules = variant.removesuffix("-empty-capture")
    return rules, empty_capture, int(m["pits"]), int(m["stones"]), m["key"]


def inspect_table(path: Path) -> TableFile:
    """Read a table file's header and trailer. Raises :class:`DamagedTable` for a file
    that is not a table, is cut short or has a damaged trailer (OSError if unreadable)."""
    with open(path, "rb") as f:
        fmt = np.lib.format
        try:
            version = fmt.read_magic(f)
            header = fmt.read_array_header_1_0 if version == (1, 0) else fmt.read_array_header_2_0
            shape, _, dtype = header(f)
        except (ValueError, OSError, SyntaxError, EOFError) as e:
            raise DamagedTable("not an endgame table (no .npy header)") from e
        if len(shape) != 1 or dtype != np.int8:
            raise DamagedTable(f"not an endgame table (shape {shape}, {dtype})")
        info = TableFile(path, int(shape[0]), f.tell())
        size = os.fstat(f.fileno()).st_size
        end = info.data_start + info.entries
        if size < end:
            raise DamagedTable(f"truncated: {size:,} bytes where its header says {end:,} at least")
        if size == end:
            return info  # saved before checksums
        f.seek(end)
        trailer = f.read(MAX_TRAILER + 1)
    if not trailer.startswith(CHECKSUM_MAGIC) or len(trailer) > MAX_TRAILER:
        raise DamagedTable("longer than its header says")
    if not trailer.endswith(b"\n"):  # written whole, with its last byte
        raise DamagedTable("truncated: its checksum record is cut short")
    try:
        fields = json.loads(trailer[len(CHECKSUM_MAGIC) :].decode("ascii"))
        info.pits, info.stones = int(fields["pits"]), int(fields["stones"])
        info.checksums = [int(h, 16) for h in fields["levels"]]
        info.kind = fields["checksum"]
        if info.kind in _BLOCK_HASHES:
            info.block = int(fields["block"])
            ok = 4096 <= info.block <= 2**30 and info.block & (info.block - 1) == 0
        else:
            ok = info.kind == CHECKSUM_V1
        ok = ok and len(info.checksums) == info.stones + 1
        ok = ok and 1 <= info.pits <= 200 and 0 <= info.stones <= MAX_TABLE_STONES
    except (ValueError, KeyError, TypeError, AttributeError):
        ok = False
    if not ok or table_entries(info.pits or 1, info.stones or 0) != info.entries:
        raise DamagedTable("its checksum record is damaged")
    return info


def _check(info: TableFile, digests: list[int]) -> None:
    """Raise :class:`DamagedTable` for the first level whose checksum does not match."""
    assert info.checksums is not None
    for level, (got, want) in enumerate(zip(digests, info.checksums, strict=True)):
        if got != want:
            raise DamagedTable(f"level {level} does not match its checksum")


def _map_file(path: Path, info: TableFile, writable: bool) -> tuple[mmap.mmap, np.ndarray]:
    """The file mapped (copy-on-write if ``writable``, so that the array is of the type
    numba compiled the solver for; else read-only) and its entries as an int8 array.
    Raises :class:`DamagedTable` if the file is shorter than its header says."""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size < info.data_start + info.entries:
            raise DamagedTable(f"truncated: {size:,} bytes")
        mapping = None
        if writable:
            try:
                mapping = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_COPY)
            except OSError:  # strict overcommit: a private writable map counts as memory
                mapping = None
        if mapping is None:
            mapping = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    array = np.frombuffer(mapping, dtype=np.int8, count=info.entries, offset=info.data_start)
    return mapping, array


def _verify(info: TableFile, table: np.ndarray) -> None:
    """Check ``table`` (the file's entries, in memory or mapped) against its checksums."""
    assert info.pits is not None and info.stones is not None and info.kind is not None
    _check(info, checksums(table, level_bounds(info.pits, info.stones), info.kind, info.block))


def _read_table(
    path: Path, into: np.ndarray | None = None, verify: bool = True
) -> tuple[np.ndarray, bool]:
    """A saved table read onto huge pages (or into ``into``, which must have its length),
    and whether its checksums were checked (False: a file saved before checksums, or
    ``verify`` False). Raises :class:`DamagedTable` if a level does not match.

    To be checked, the file is read by a thread and each block hashed as soon as it is
    in (:func:`_read_hashing`); without the check it is read() in large chunks."""
    info = inspect_table(path)
    n = info.entries
    if into is not None and into.shape != (n,):
        raise DamagedTable(f"it holds {n:,} entries, expected {into.shape[0]:,}")
    table = huge_zeros(n, np.int8) if into is None else into
    check = verify and info.checksums is not None
    if check and info.kind in _BLOCK_HASHES:
        _read_hashing(path, info, table)
        return table, True
    view = memoryview(table)  # type: ignore[arg-type]
    with open(path, "rb") as f:
        f.seek(info.data_start)
        for lo in range(0, n, IO_CHUNK):
            hi = min(n, lo + IO_CHUNK)
            if f.readinto(view[lo:hi]) != hi - lo:
                raise DamagedTable("truncated")
    if check:
        _verify(info, table)  # the first trailer: whole levels, after the read
    return table, check


def _resident(mapping: mmap.mmap) -> float:
    """The share of a mapped file's pages in the page cache (mincore), 0 if unknown."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        page = mmap.PAGESIZE
        pages = -(-len(mapping) // page)
        where = np.frombuffer(mapping, dtype=np.uint8)
        vec = np.zeros(pages, dtype=np.uint8)
        code = libc.mincore(
            ctypes.c_void_p(where.ctypes.data),
            ctypes.c_size_t(len(mapping)),
            ctypes.c_void_p(vec.ctypes.data),
        )
        del where
    except (OSError, AttributeError, ValueError):
        return 0.0
    return float(np.count_nonzero(vec & 1)) / pages if code == 0 and pages else 0.0


_READ_AHEAD = 4 * 2**20
"""Bytes a checked load's reader thread reads at a time, ahead of the hashing."""


def _read_hashing(path: Path, info: TableFile, table: np.ndarray) -> None:
    """Read the file's entries into ``table``, each block hashed as soon as it is in
    (:func:`_read_ahead` for a file mostly on the disk, :func:`_read_blocks` for one in
    the page cache). Raises :class:`DamagedTable` on a mismatch."""
    assert info.pits is not None and info.stones is not None and info.kind is not None
    bounds = level_bounds(info.pits, info.stones)
    digest = _BLOCK_HASHES[info.kind]
    blocks = _level_blocks(bounds, info.block)
    view = memoryview(table)  # type: ignore[arg-type]
    fd = os.open(path, os.O_RDONLY)
    try:
        with contextlib.suppress(AttributeError, OSError):
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_SEQUENTIAL)
        cached = 0.0
        with contextlib.suppress(OSError, ValueError), mmap.mmap(fd, 0, prot=mmap.PROT_READ) as m:
            cached = _resident(m)
        read = _read_blocks if cached >= 0.5 else _read_ahead
        digests = read(fd, info, view, blocks, digest)
    finally:
        os.close(fd)
    _check(info, _combine(digests, bounds, info.block, digest))


def _read_blocks(
    fd: int,
    info: TableFile,
    view: memoryview,
    blocks: list[tuple[int, int]],
    digest: Callable[[Any], int],
) -> list[int]:
    """The blocks read() one after another by this thread, each hashed right after its
    read, still in the processor's cache: for a file in the page cache (a reader thread
    only adds handovers there). Ctrl-C stops it between two blocks."""
    digests = []
    for lo, hi in blocks:
        if os.preadv(fd, [view[lo:hi]], info.data_start + lo) != hi - lo:
            raise DamagedTable("truncated")
        digests.append(digest(view[lo:hi]))
    return digests


_READ_AHEAD = 4 * 2**20
"""Bytes the reader thread of :func:`_read_ahead` reads at a time."""


def _read_ahead(
    fd: int,
    info: TableFile,
    view: memoryview,
    blocks: list[tuple[int, int]],
    digest: Callable[[Any], int],
) -> list[int]:
    """A reader thread read()s the file in :data:`_READ_AHEAD` chunks while this thread
    hashes each block as soon as it is in: the disk works while the hash computes
    (read() releases the GIL, the hash does not). For a file mostly on the disk. Ctrl-C
    stops it between two blocks, the reader within a chunk."""
    n = info.entries
    read_to: queue.SimpleQueue[int] = queue.SimpleQueue()  # bytes read so far; -1: stopped
    stop = threading.Event()
    failed: list[BaseException] = []

    def reader() -> None:
        try:
            for lo in range(0, n, _READ_AHEAD):
                if stop.is_set():
                    return
                hi = min(n, lo + _READ_AHEAD)
                if os.preadv(fd, [view[lo:hi]], info.data_start + lo) != hi - lo:
                    raise DamagedTable("truncated")
                read_to.put(hi)
        except BaseException as e:  # handed to the hashing thread
            failed.append(e)
        finally:
            read_to.put(-1)

    thread = threading.Thread(target=reader, name="table-reader", daemon=True)
    thread.start()
    digests = []
    try:
        done = 0
        for lo, hi in blocks:
            while done < hi:
                done = read_to.get()
                if done < 0:
                    raise failed[0] if failed else DamagedTable("truncated")
            digests.append(digest(view[lo:hi]))
    finally:
        stop.set()
        thread.join()
    return digests


def map_table(path: Path, verify: bool = True) -> tuple[np.ndarray, bool]:
    """A saved table memory-mapped from its file instead of read into memory: its entries
    (an int8 array over a copy-on-write mapping, so that numba takes it like an in-memory
    table and compiles nothing new; nothing ever writes to it; the mapping is closed with
    the last view of the array), and whether the checksums were checked.

    With ``verify``, every block is hashed through the mapping before the table is
    returned: that reads the whole file once (and leaves it in the page cache, as far as
    memory allows), and a table that does not match raises :class:`DamagedTable`.
    ``verify=False`` maps it without reading anything: for a big table on a shared disk
    that was verified elsewhere; it is then used unchecked."""
    info = inspect_table(path)
    mapping, table = _map_file(path, info, writable=True)
    check = verify and info.checksums is not None
    if check:
        try:
            _verify(info, table)
        except BaseException:
            del table
            with contextlib.suppress(BufferError):
                mapping.close()
            raise
    return table, check


def _temp_name(path: Path) -> Path:
    """The file a table is written to before it is renamed to ``path``: hidden, with the
    writer's process id, so no glob for tables ever matches it."""
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def temp_writer(tmp: Path) -> int | None:
    """The process id in a temporary table file's name (:func:`_temp_name`), or None."""
    pid = tmp.name.rsplit(".", 2)[-2] if tmp.name.count(".") >= 3 else ""
    return int(pid) if pid.isdecimal() and len(pid) < 12 else None


def writer_runs(pid: int) -> bool:
    """Whether process ``pid`` runs (as any user): its temporary file is being written."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):
        return True  # it runs as another user, or cannot be asked: leave its file alone
    return True


def _remove_stale_temps(folder: Path) -> None:
    """Delete the temporary files of writers that no longer run (killed mid-write)."""
    for tmp in folder.glob(".kalah-endgame-*.tmp"):
        pid = temp_writer(tmp)
        if pid is not None and not writer_runs(pid):
            tmp.unlink(missing_ok=True)


def _trailer(pits: int, stones: int, checksums: list[int], kind: str = CHECKSUM) -> bytes:
    """The checksum trailer of a table file (``kind``: :data:`CHECKSUM`, or an earlier
    trailer's: :data:`CHECKSUM_V1` has no block size)."""
    fields: dict[str, object] = {"checksum": kind}
    if kind in _BLOCK_HASHES:
        fields["block"] = BLOCK
    fields |= {
        "pits": pits,
        "stones": stones,
        "levels": [f"{h:016x}" for h in checksums],
    }
    return CHECKSUM_MAGIC + json.dumps(fields, separators=(",", ":")).encode("ascii") + b"\n"


def file_bytes(pits: int, stones: int) -> int:
    """Bytes of a saved table: its entries, the .npy header and the checksum trailer."""
    return table_entries(pits, stones) + 128 + len(_trailer(pits, stones, [0] * (stones + 1)))


def save_table(
    path: Path,
    table: np.ndarray,
    pits: int | None = None,
    stones: int | None = None,
    kind: str = CHECKSUM,
) -> None:
    """Write ``table`` (of ``pits`` and ``stones``, read from a cache file name when not
    given) as ``path`` with the checksum of each level, atomically: into a temporary file
    of the same folder (in chunks, flushed to the disk), renamed only when complete.
    Interrupted (Ctrl-C, a full disk), it leaves no file behind, and a reader never sees
    a partial table. ``kind``: an earlier trailer's checksums, for tests and benchmarks."""
    if pits is None or stones is None:
        fields = name_fields(path)
        if fields is None:
            raise ValueError(f"give the pits and stones of {path.name}")
        pits, stones = fields[2], fields[3]
    if table.shape != (table_entries(pits, stones),):
        raise ValueError(f"a table of {pits} pits and {stones} stones has another length")
    bounds = level_bounds(pits, stones)
    sums = checksums(table, bounds, kind)  # before the first byte is written
    path.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale_temps(path.parent)
    tmp = _temp_name(path)
    try:
        with open(tmp, "wb") as f:
            fmt = np.lib.format
            fmt.write_array_header_1_0(f, fmt.header_data_from_array_1_0(table))
            view = memoryview(np.ascontiguousarray(table))  # type: ignore[arg-type]
            for lo in range(0, table.shape[0], IO_CHUNK):
                f.write(view[lo : lo + IO_CHUNK])
            f.write(_trailer(pits, stones, sums, kind))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def stamp_table(path: Path) -> None:
    """Give a table saved before checksums the checksums of what it holds now (rewritten
    atomically, see :func:`save_table`). That cannot tell whether it was damaged before:
    rebuilding is the alternative."""
    fields = name_fields(path)
    if fields is None:
        raise DamagedTable(f"{path.name} is not named like an endgame table")
    pits, stones = fields[2], fields[3]
    table, _ = _read_table(path)
    if table.shape[0] != table_entries(pits, stones):
        raise DamagedTable(f"it holds {table.shape[0]:,} entries, not those of {stones} stones")
    save_table(path, table, pits, stones)


def free_disk_space(folder: Path) -> int:
    """Bytes free for a file in ``folder`` (or in its nearest existing parent)."""
    folder = Path(os.path.abspath(folder))
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return int(shutil.disk_usage(folder).free)


def disk_space_problem(pits: int, stones: int, folder: Path) -> str | None:
    """One line saying a table of ``stones`` cannot be saved in ``folder`` (it needs its
    size free: it is written to a temporary file, then renamed), or None if it fits."""
    need = file_bytes(pits, stones)
    free = free_disk_space(folder)
    if need <= free:
        return None
    fits = 0
    while fits + 1 < stones and file_bytes(pits, fits + 1) <= free:
        fits += 1
    return (
        f"the endgame table of {stones} stones on {pits} pits needs {format_bytes(need)} of "
        f"free disk space in {folder} and {format_bytes(free)} are free; free some "
        f"('boardgames cache clean --stale') or use --endgame {fits}"
    )


@dataclass
class BuildPlan:
    """What :func:`load_or_build` will do for a table, before it does it."""

    path: Path
    cached: bool  # the table is in the cache: it is only read
    base: int | None  # stone limit of the smaller cached table it is built on, if any
    entries: int  # positions (= bytes) of the table
    to_build: int  # positions to build (those above the base)
    seconds: float  # estimated seconds to build them

    @property
    def nbytes(self) -> int:
        return self.entries


BUILD_RATE = 1.6e6
"""Positions built a second per thread on small tables (about 3.2 M/s on 2 threads up
to 200 M positions, 2.6 M/s at 550 M, 1.5 M/s at 2.7 G: bigger tables miss the caches
more); see :func:`build_seconds`."""


def build_seconds(entries: int, to_build: int, threads: int | None = None) -> float:
    """Estimated seconds to build ``to_build`` positions of a table of ``entries``."""
    if threads is None:
        import numba

        threads = numba.get_num_threads()
    rate = BUILD_RATE * max(1, threads) / (1 + entries / 2.2e9)
    return to_build / rate


def build_plan(
    pits: int, stones: int, rules: str = "classic", empty_capture: bool = False
) -> BuildPlan:
    """Whether the table is cached, or which smaller cached table it would grow from, its
    size and the estimated build time."""
    path = cache_path(pits, stones, rules, empty_capture)
    entries = table_entries(pits, stones)
    if path.exists():
        return BuildPlan(path, True, None, entries, 0, 0.0)
    smaller = [k for k in cached_stones(pits, rules, empty_capture) if k < stones]
    base = max(smaller) if smaller else None
    to_build = entries - (table_entries(pits, base) if base is not None else 0)
    return BuildPlan(path, False, base, entries, to_build, build_seconds(entries, to_build))


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
    progress=None,
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
    path = cache_path(pits, stones, rules, empty_capture)
    if path.exists():
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
    try:
        save_table(path, built.table, pits, stones)
        # tables of older rule kernels for the same board are never read again
        stem = path.name.rsplit("-", 1)[0]
        for old in path.parent.glob(f"{stem}-*.npy"):
            if old != path:
                old.unlink(missing_ok=True)
    except OSError:
        return built  # no writable cache: the table still works for this run
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
