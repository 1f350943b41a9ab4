"""Where a position sits in a Kalah endgame table, and how big a table is: the
combinatorial number system over the ``2m`` pits (see :mod:`boardgames.kalah.exact.endgame`
for the layout). NumPy only: sizing a table loads no numba."""

from __future__ import annotations

import numpy as np

MAX_TABLE_STONES = 40


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


def level_bounds(pits: int, stones: int) -> np.ndarray:
    """Where each level starts in a table, and its end: ``offsets`` of the table."""
    offsets = np.zeros(stones + 2, dtype=np.int64)
    offsets[1:] = np.cumsum(level_sizes(pits, stones))
    return offsets
