"""How big the exact search's tables are: the endgame table a board gets (``--endgame
auto`` for ``kalah solve`` and ``kalah review``), the transposition table's default size,
and a rough estimate of the positions a solve searches.

Sizing rules, not commands: the solve and review commands and the job-level solve's
workers all ask these. The endgame module loads numba (for the cache key), so it is
imported inside the functions that need it (``kalah solve --help`` stays free of numba).
"""

from __future__ import annotations

from boardgames.kalah.exact.index import MAX_TABLE_STONES, largest_stones, table_entries

SMALL_HASH_MB = 64
"""Default table (MiB) for positions of at most 30 stones: a bigger one costs more to
clear (the memory is touched page by page) than the search takes."""
HASH_MB = 256
"""Default table (MiB) for more stones. Bigger is not faster: on 6 x 4 a 1 GiB table
saved 5% of the positions and took 14% longer (every probe is a cache miss, and a bigger
table misses the TLB too); the endgame tables do more for big boards."""


def default_hash_mb(stones: int) -> int:
    """The transposition table ``kalah solve`` takes for ``stones`` stones in the pits."""
    return SMALL_HASH_MB if stones <= 30 else HASH_MB


AUTO_TABLE_ENTRIES = 250_000_000
"""With ``--endgame auto``: the largest table of at most this many entries (bytes), and
of at most a quarter of the memory available (a bigger cached one may take up to three
quarters). On 6 pits that is the 20-stone table, built in about 35 s on 2 cores: a first
``kalah solve --pits 6 --seeds 4`` takes about 51 s in all with it (17 s of search),
against 4.5 minutes with the 22-stone table (548 M positions) it used to build first
(2026-11-27; the search with 22 stones enters about half the positions, 36 M against
69 M, so it stays the choice once cached: ``--endgame 22`` builds it)."""


def auto_stones(pits: int, total: int, empty_capture: bool = False) -> int:
    """The endgame-table stone limit ``--endgame auto`` picks for a board: the largest
    table of at most :data:`AUTO_TABLE_ENTRIES` positions and at most half the stones
    plus two (on 6 pits 20 stones, 226 M positions built once in under a minute; a table
    that covers more of a small board costs more to build than it saves, and a bigger one
    makes a new user wait minutes for a first solve) and a quarter of the available
    memory, or a bigger one already in the cache (``--endgame 30`` builds one) of at most
    half the stones plus four, since a cached table costs only its loading (a few
    seconds a GB from the disk), that leaves a quarter of the available memory free."""
    from boardgames.kalah.exact.endgame import cached_stones

    available = available_memory()
    top = min(total - 1, total // 2 + 2, MAX_TABLE_STONES)
    built = largest_stones(pits, min(AUTO_TABLE_ENTRIES, available // 4), top)
    top_cached = min(total - 1, total // 2 + 4, MAX_TABLE_STONES)
    cached = [
        k
        for k in cached_stones(pits, "classic", empty_capture)
        if k <= top_cached and table_entries(pits, k) <= available * 3 // 4
    ]
    return max([built, *cached])


def available_memory() -> int:
    """Bytes of memory available now, the page cache counted as available (it is given
    back on demand, and a table just built or read fills it); 1 GiB assumed where the
    system does not say (:func:`boardgames.core.memory.available_memory`)."""
    from boardgames.core.memory import available_memory as known

    found = known()
    return 2**30 if found is None else found


REVIEW_TABLE_ENTRIES = 250_000_000
"""``kalah review --endgame auto`` uses the largest endgame table of at most this many
positions (bytes) that the board can use: on 6 pits the 20-stone table, 226 M positions,
built once in about 1.5-2 minutes on two cores and then cached. It uses exactly that table
whatever the cache holds (a cached table of more stones is cut down to it), so that which
moves are valued exactly, and with them the verdicts, never depend on the cache."""


def review_stones(pits: int, total: int, empty_capture: bool = False) -> int:
    """The endgame-table stone limit ``kalah review --endgame auto`` uses on a board of
    ``total`` stones: the largest table of at most :data:`REVIEW_TABLE_ENTRIES` positions
    and of no more stones than the board holds, whatever the cache holds. (Only where less
    than twice that table is free in memory is it smaller; the review then says so.)"""

    top = min(total, MAX_TABLE_STONES)
    return largest_stones(pits, min(REVIEW_TABLE_ENTRIES, available_memory() // 2), top)


def quick_stones(pits: int, total: int, empty_capture: bool = False) -> int:
    """``kalah review --quick``: the largest table already in the cache that ``kalah solve
    --endgame auto`` would use (nothing is built); 0 when there is none."""
    from boardgames.kalah.exact.endgame import cached_stones

    top = auto_stones(pits, total, empty_capture)
    return max((k for k in cached_stones(pits, "classic", empty_capture) if k <= top), default=0)


TINY_POSITIONS = 100_000
"""A position whose search :func:`estimate_positions` puts at most this many positions
(about a tenth of a second) is solved without endgame tables: loading or building one
would take longer than the whole search."""
SOLVE_RATE = 1e6
"""Positions the solver searches a second per thread, for the estimates (1.9-2 M/s on
2 threads for 6 x 4 and 6 x 5 with tables, 0.7-1.5 M/s without)."""


def estimate_positions(pits: int, stones: int, table_stones: int = 0) -> float:
    """A rough estimate of the positions a solve searches, ``stones`` stones in the pits,
    with endgame tables of ``table_stones`` (0: none).

    ``log10(positions) = 0.37 + 0.098 s + 0.0141 m s`` with ``s`` the stones less half
    the tables' and ``m`` the pits: a least-squares fit to the positions searched from 19
    start positions, 3 x 3 to 6 x 5 (11 without tables, measured on 2 threads on
    2026-11-23; 8 with tables, from the solver table of docs/sections/solver.md); its
    root-mean-square error is a factor 1.7, at most 3 on those points. A start outside
    them can be further off: 6 x 4 with the 20-stone tables that ``--endgame auto``
    builds searched 69 M positions (2026-12-07), 3.4 times its estimate of 20 M; the
    progress then says "more than estimated", never a wrong share. 6 x 6 comes out at
    3e13 positions without tables (about half a year on 2 cores) and 6e10 with the
    30-stone tables.
    """
    s = max(0.0, stones - table_stones / 2)
    return 10 ** (0.37 + 0.098 * s + 0.0141 * pits * s)


def largest_stones_for_review(pits: int) -> int:
    """The stones of the table :data:`REVIEW_TABLE_ENTRIES` allows on ``pits`` pits,
    memory aside."""

    return largest_stones(pits, REVIEW_TABLE_ENTRIES, MAX_TABLE_STONES)
