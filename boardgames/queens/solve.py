"""N queens in pure Python (RULES.md section 5): the classic solver, symmetry, slow counters.

A solution is a tuple of 1-based columns, row 1 first: ``(1, 5, 8, 6, 3, 7, 2, 4)``.
Inside the counters columns are 0-based and a *prefix* is a tuple of 0-based columns of the
first rows, already non-attacking.

Counting works on *subtasks*: the first row or two are pre-placed (with the mirror
halving of RULES.md where the method uses it), each prefix carries a weight (2 for a
prefix that stands for itself and its mirror image) and every method counts the
completions of each prefix. Progress bars and the parallel kernel run on the same
subtasks, so all methods share one definition of the work.

Fundamental solutions are counted with Burnside's lemma: the number of classes is the
average, over the 8 symmetries of the square, of the solutions each symmetry leaves
unchanged. Only the rotations by 90° and 180° fix any solution for N > 1 (see
:func:`fundamental_from_fixed`), and solutions fixed by a rotation can be searched
directly, one orbit of squares at a time, which is far cheaper than the full count.

This module imports neither numpy nor numba: ``queens solve`` answers at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from boardgames.core.protocol import GameError
from boardgames.core.svg import SVG
from boardgames.queens.svg import svg as draw_queens


class Solution(tuple[int, ...]):
    """A solution: the queen's 1-based column in each row, row 1 first. A tuple (it
    compares, hashes and prints as one); in Jupyter it shows itself as a board."""

    __slots__ = ()

    def svg(self, *, attacks: bool = False, heading: str | None = None) -> SVG:
        """The board as an SVG picture (see :func:`boardgames.queens.svg.svg`)."""
        return draw_queens(self, attacks=attacks, heading=heading)

    def _repr_svg_(self) -> str:
        return self.svg()


Prefix = tuple[int, ...]
Task = tuple[Prefix, int]

MAX_SOLVE_N = 29
"""Largest board ``solve`` accepts. The generator takes any N, but in lexicographic order
the first solution needs exponential backtracking: about 20 s for N = 28 and minutes for
N = 30 and 32 on a 2-core machine."""
MAX_COUNT_N = 27
"""Largest board the counters accept: the largest count on record (N = 27, 2.3e17
solutions, within 64-bit counts); a count beyond N = 20 is work for a cluster."""

# OEIS A000170 (all solutions) and A002562 (fundamental), for progress estimates only;
# the tests carry their own copy of the values from RULES.md.
_KNOWN_TOTALS = (
    1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512,
    95815104, 666090624, 4968057848, 39029188884, 314666222712, 2691008701644,
    24233937684440, 227514171973736, 2207893435808352, 22317699616364044,
    234907967154122528,
)  # fmt: skip


def check_n(n: int, high: int = MAX_COUNT_N) -> int:
    """Return ``n`` if it is a board size from 1 to ``high``; else raise :class:`GameError`."""
    if not 1 <= n <= high:
        raise GameError(f"board size N = {n} is not supported; N must be from 1 to {high}")
    return n


@dataclass(frozen=True)
class Queens:
    """The N-queens puzzle on an ``n`` x ``n`` board, as the game registry builds it."""

    n: int = 8
    name: str = "queens"

    def __post_init__(self) -> None:
        check_n(self.n)

    def solutions(self) -> Iterator[Solution]:
        """Every solution, in lexicographic order."""
        return solutions(self.n)


# --- the classic solver: one queen per row, three tables ------------------------------


def solutions(n: int) -> Iterator[Solution]:
    """Every solution of the N-queens puzzle in lexicographic order, one at a time.

    The classic algorithm: one queen per row, tried left to right, with three tables
    (busy columns, busy ``row + col`` diagonals, busy ``row - col`` diagonals) so that
    testing, placing and removing a queen are O(1). Iterative, so any N works and
    nothing but the current partial placement is kept in memory.
    """
    if n < 1:
        raise GameError(f"board size N = {n} is not supported; N must be at least 1")
    col_busy = [False] * n
    sum_busy = [False] * (2 * n - 1)  # index row + col
    diff_busy = [False] * (2 * n - 1)  # index row - col + n - 1
    pos = [0] * n
    row, c = 0, 0
    while True:
        while c < n and (col_busy[c] or sum_busy[row + c] or diff_busy[row - c + n - 1]):
            c += 1
        if c < n:
            if row == n - 1:
                pos[row] = c
                yield Solution(p + 1 for p in pos)
                c += 1
                continue
            pos[row] = c
            col_busy[c] = sum_busy[row + c] = diff_busy[row - c + n - 1] = True
            row, c = row + 1, 0
        else:
            row -= 1
            if row < 0:
                return
            c = pos[row]
            col_busy[c] = sum_busy[row + c] = diff_busy[row - c + n - 1] = False
            c += 1


def is_solution(sol: tuple[int, ...]) -> bool:
    """True when ``sol`` (1-based columns) places N non-attacking queens on an N×N board."""
    n = len(sol)
    if sorted(sol) != list(range(1, n + 1)):
        return False
    return len({r + c for r, c in enumerate(sol)}) == n == len({r - c for r, c in enumerate(sol)})


# --- symmetry ---------------------------------------------------------------------------


def transforms(sol: tuple[int, ...]) -> list[Solution]:
    """The images of ``sol`` under the 8 symmetries of the square.

    Order: identity, rotations by 90°, 180°, 270° (clockwise), mirror left-right, mirror
    top-bottom, transpose (main diagonal), anti-transpose. Images may repeat.
    """
    n = len(sol)
    p = [c - 1 for c in sol]  # queen (r, p[r]), 0-based

    def from_squares(squares: Iterator[tuple[int, int]]) -> Solution:
        q = [0] * n
        for r, c in squares:
            q[r] = c + 1
        return Solution(q)

    m = n - 1
    return [
        Solution(sol),
        from_squares((c, m - r) for r, c in enumerate(p)),  # rot 90: (r, c) -> (c, m - r)
        from_squares((m - r, m - c) for r, c in enumerate(p)),  # rot 180
        from_squares((m - c, r) for r, c in enumerate(p)),  # rot 270
        from_squares((r, m - c) for r, c in enumerate(p)),  # mirror left-right
        from_squares((m - r, c) for r, c in enumerate(p)),  # mirror top-bottom
        from_squares((c, r) for r, c in enumerate(p)),  # transpose
        from_squares((m - c, m - r) for r, c in enumerate(p)),  # anti-transpose
    ]


def canonical(sol: tuple[int, ...]) -> Solution:
    """The lexicographically smallest member of the symmetry class of ``sol``."""
    return min(transforms(sol))


def class_size(sol: tuple[int, ...]) -> int:
    """How many distinct solutions the 8 symmetries make of ``sol``: 1, 2, 4 or 8."""
    return len(set(transforms(sol)))


def expand(sol: tuple[int, ...]) -> list[Solution]:
    """Every solution in the symmetry class of ``sol``, in lexicographic order."""
    return sorted(set(transforms(sol)))


def fundamental_solutions(n: int) -> Iterator[tuple[Solution, int]]:
    """Each fundamental solution once, as ``(smallest member, class size)``, in
    lexicographic order. Streams like :func:`solutions` (nothing is stored)."""
    for sol in solutions(n):
        images = transforms(sol)
        if sol == min(images):
            yield sol, len(set(images))


def fundamental_from_fixed(n: int, total: int, fixed180: int, fixed90: int) -> int:
    """Burnside's lemma: classes = (sum over the 8 symmetries of the solutions fixed) / 8.

    The identity fixes all ``total``; the 90° and 270° rotations fix ``fixed90`` each; the
    180° rotation fixes ``fixed180``. For N > 1 no reflection fixes a solution: a left-right
    or top-bottom mirror would need every queen in the middle column or row; a solution
    fixed by the transpose is an involution, and a pair (i, j), (j, i) with i != j shares
    a row+col diagonal, so every queen would sit on the main diagonal (likewise for the
    anti-transpose with the row-col diagonal). For N = 1 every symmetry fixes the queen.
    """
    reflections = 4 * total if n == 1 else 0
    fixed_sum = total + 2 * fixed90 + fixed180 + reflections
    if fixed_sum % 8:
        raise ArithmeticError(f"Burnside sum {fixed_sum} for N = {n} is not a multiple of 8")
    return fixed_sum // 8


# --- subtasks -----------------------------------------------------------------------------


def first_rows(n: int, mirror: bool) -> list[Task]:
    """The starting prefixes with their weights.

    Without ``mirror``: every column of row 1, weight 1. With ``mirror`` (RULES.md): only
    the left half of row 1, weight 2, since mirroring maps a solution with its first
    queen right of the middle onto one with it on the left. On an odd board a first queen
    in the middle column is its own mirror image; then the second queen (never in the
    middle column, nor next to it) runs over the left half of row 2, weight 2.
    """
    if not mirror:
        return [((c,), 1) for c in range(n)]
    tasks: list[Task] = [((c,), 2) for c in range(n // 2)]
    if n % 2:
        m = n // 2
        if n == 1:
            tasks.append(((0,), 1))
        else:
            tasks += [((m, c), 2) for c in range(m) if abs(c - m) > 1]
    return tasks


def subtasks(n: int, depth: int, mirror: bool) -> list[Task]:
    """Prefixes of ``depth`` rows (fewer if N is smaller) extending :func:`first_rows`,
    in lexicographic order. Dead ends are dropped; they have no completion."""
    return list(iter_subtasks(n, depth, mirror))


def iter_subtasks(n: int, depth: int, mirror: bool) -> Iterator[Task]:
    """:func:`subtasks` one at a time (deep splits of big boards run into millions)."""
    depth = min(depth, n)

    def extend(prefix: Prefix, weight: int) -> Iterator[Task]:
        if len(prefix) >= depth:
            yield prefix, weight
            return
        r = len(prefix)
        for c in range(n):
            if all(c != pc and abs(c - pc) != r - pr for pr, pc in enumerate(prefix)):
                yield from extend((*prefix, c), weight)

    for prefix, weight in first_rows(n, mirror):
        yield from extend(prefix, weight)


def prefix_masks(n: int, prefix: Prefix) -> tuple[int, int, int]:
    """Busy columns, busy left-going and right-going diagonals seen from the next row.

    Bit ``c`` stands for column ``c``. A queen's row+col diagonal moves one column left
    per row (``>> 1``); its row-col diagonal moves one column right (``<< 1``).
    """
    full = (1 << n) - 1
    cols = ld = rd = 0
    for c in prefix:
        bit = 1 << c
        cols |= bit
        ld = ((ld | bit) << 1) & full
        rd = (rd | bit) >> 1
    return cols, ld, rd


# --- pure-Python counters -------------------------------------------------------------


def count_naive_prefix(n: int, prefix: Prefix) -> int:
    """Completions of ``prefix``, the first idea of the classic text: an N×N board on
    which a placed queen marks every free square it attacks below it (with its row
    number) and removing it scans the board back to clear those marks."""
    board = [[0] * n for _ in range(n)]

    def place(r: int, c: int) -> None:
        mark = r + 1
        for rr in range(r + 1, n):
            d = rr - r
            for cc in (c - d, c, c + d):
                if 0 <= cc < n and board[rr][cc] == 0:
                    board[rr][cc] = mark

    def remove(r: int) -> None:
        mark = r + 1
        for rr in range(r + 1, n):
            line = board[rr]
            for cc in range(n):
                if line[cc] == mark:
                    line[cc] = 0

    def search(r: int) -> int:
        if r == n:
            return 1
        total = 0
        for c in range(n):
            if board[r][c] == 0:
                place(r, c)
                total += search(r + 1)
                remove(r)
        return total

    for r, c in enumerate(prefix):
        place(r, c)
    return search(len(prefix))


def count_tables_prefix(n: int, prefix: Prefix) -> int:
    """Completions of ``prefix`` by the classic three-table backtracking."""
    col_busy = [False] * n
    sum_busy = [False] * (2 * n - 1)
    diff_busy = [False] * (2 * n - 1)
    for r, c in enumerate(prefix):
        col_busy[c] = sum_busy[r + c] = diff_busy[r - c + n - 1] = True

    def search(r: int) -> int:
        if r == n:
            return 1
        total = 0
        for c in range(n):
            if not (col_busy[c] or sum_busy[r + c] or diff_busy[r - c + n - 1]):
                col_busy[c] = sum_busy[r + c] = diff_busy[r - c + n - 1] = True
                total += search(r + 1)
                col_busy[c] = sum_busy[r + c] = diff_busy[r - c + n - 1] = False
        return total

    return search(len(prefix))


def count_bitmask_prefix(n: int, prefix: Prefix) -> int:
    """Completions of ``prefix`` with bitmasks: the free squares of a row are
    ``~(cols | ld | rd)``, and ``free & -free`` picks the lowest one."""
    full = (1 << n) - 1

    def search(cols: int, ld: int, rd: int) -> int:
        if cols == full:
            return 1
        total = 0
        free = full & ~(cols | ld | rd)
        while free:
            bit = free & -free
            free ^= bit
            total += search(cols | bit, ((ld | bit) << 1) & full, (rd | bit) >> 1)
        return total

    return search(*prefix_masks(n, prefix))


def count_fixed_by_rotation(n: int, quarter: bool) -> int:
    """Solutions left unchanged by the 180° rotation (``quarter=False``) or by the 90°
    rotation (``quarter=True``).

    Such a solution is a union of orbits of squares under the rotation, so the search
    fills the first empty row with a whole orbit at a time (2 squares for 180°, 4 for
    90°, 1 for the centre of an odd board) and checks the orbit against itself and the
    queens already placed. The search is only about half (a quarter) as deep as the
    full one.
    """
    m = n - 1
    row_col = [-1] * n
    busy_cols = [False] * n
    busy_sum = [False] * (2 * n - 1)
    busy_diff = [False] * (2 * n - 1)

    def orbit(r: int, c: int) -> list[tuple[int, int]]:
        if quarter:
            squares = [(r, c), (c, m - r), (m - r, m - c), (m - c, r)]
        else:
            squares = [(r, c), (m - r, m - c)]
        return list(dict.fromkeys(squares))

    def fits(squares: list[tuple[int, int]]) -> bool:
        rows, cols, sums, diffs = set(), set(), set(), set()
        for r, c in squares:
            if row_col[r] >= 0 or busy_cols[c] or busy_sum[r + c] or busy_diff[r - c + m]:
                return False
            rows.add(r)
            cols.add(c)
            sums.add(r + c)
            diffs.add(r - c)
        k = len(squares)
        return len(rows) == len(cols) == len(sums) == len(diffs) == k

    def set_squares(squares: list[tuple[int, int]], on: bool) -> None:
        for r, c in squares:
            row_col[r] = c if on else -1
            busy_cols[c] = busy_sum[r + c] = busy_diff[r - c + m] = on

    def search(row: int) -> int:
        while row < n and row_col[row] >= 0:
            row += 1
        if row == n:
            return 1
        total = 0
        for c in range(n):
            squares = orbit(row, c)
            if fits(squares):
                set_squares(squares, True)
                total += search(row + 1)
                set_squares(squares, False)
        return total

    return search(0)


PrefixCounter = Callable[[int, Prefix], int]

PURE_METHODS: dict[str, tuple[PrefixCounter, bool, str]] = {
    "naive": (
        count_naive_prefix,
        False,
        "board marks attacks, scans back",
    ),
    "tables": (
        count_tables_prefix,
        False,
        "classic column/diagonal tables",
    ),
    "bitmask": (
        count_bitmask_prefix,
        True,
        "bitmasks, mirror-halved first row",
    ),
}
"""name -> (prefix counter, uses the mirror halving, one-line description)."""


def count_pure(n: int, method: str, depth: int = 1) -> int:
    """All solutions for N by one of the pure-Python methods (``naive``, ``tables``,
    ``bitmask``), summed over :func:`subtasks`."""
    counter, mirror, _ = PURE_METHODS[method]
    return sum(w * counter(n, p) for p, w in subtasks(n, depth, mirror))


def count_fundamental_pure(n: int, method: str) -> int:
    """Fundamental solutions for N: by canonicalising every solution for ``naive`` (the
    slow, obviously right way), by Burnside's lemma for the other pure methods."""
    if method == "naive":
        return sum(1 for sol in solutions(n) if sol == canonical(sol))
    total = count_pure(n, method)
    return fundamental_from_fixed(
        n, total, count_fixed_by_rotation(n, False), count_fixed_by_rotation(n, True)
    )


def expected_total(n: int) -> int | None:
    """The published count for N (OEIS A000170), used only to estimate progress."""
    return _KNOWN_TOTALS[n - 1] if 1 <= n <= len(_KNOWN_TOTALS) else None
