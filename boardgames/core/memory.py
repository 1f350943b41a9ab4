"""Large arrays backed by huge pages where the system offers them, and the memory
available now (:func:`available_memory`).

The solver's transposition table and the endgame tables are read at random, one cache
miss per position searched; with 4 KiB pages most of those reads miss the TLB as well
(a 1 GiB table spans 262,144 pages). On Linux with transparent huge pages in ``madvise``
mode (the common default) :func:`huge_zeros` asks for 2 MiB pages, which makes such
reads markedly cheaper; elsewhere it is ``np.zeros``.
"""

from __future__ import annotations

import mmap
import os

import numpy as np

HUGE_THRESHOLD = 32 * 2**20
"""Arrays smaller than this (bytes) are plain ``np.zeros``."""


def huge_zeros(shape: int | tuple[int, ...], dtype: np.dtype | type = np.int64) -> np.ndarray:
    """A zero-filled array, on huge pages when it is large and the system allows it."""
    dt = np.dtype(dtype)
    dims = (shape,) if isinstance(shape, int) else tuple(shape)
    count = int(np.prod(dims, dtype=np.int64))
    nbytes = count * dt.itemsize
    advise = getattr(mmap, "MADV_HUGEPAGE", None)
    private = getattr(mmap, "MAP_PRIVATE", None)
    anonymous = getattr(mmap, "MAP_ANONYMOUS", None)
    if nbytes < HUGE_THRESHOLD or advise is None or private is None or anonymous is None:
        return np.zeros(dims, dtype=dt)
    try:
        # anonymous private memory comes zero-filled; only private (not shared) mappings
        # get transparent huge pages
        buf = mmap.mmap(-1, nbytes, flags=private | anonymous)
        buf.madvise(advise)
    except (OSError, ValueError):
        return np.zeros(dims, dtype=dt)
    return np.frombuffer(buf, dtype=dt, count=count).reshape(dims)


def available_memory() -> int | None:
    """Bytes of memory available now (``MemAvailable``: the page cache counted as free, as
    it is given back on demand), else the free pages; None where the system does not say."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None
