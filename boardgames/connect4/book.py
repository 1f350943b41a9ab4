"""Connect Four's opening book: exact scores of the openings the solver takes too long on.

On 7 x 6 the solver needs seconds to minutes for a position of fewer than five discs (the
empty board: minutes), more than a program's move may take. The book holds the exact
score (RULES.md section 6, for the player to move) of every position of at most
``plies`` discs, made by this project's own solver: the positions of exactly ``plies``
discs (the frontier) are solved (:func:`build`, resumable, on a Dask cluster with
``--cluster``), and every shallower one follows from its children by negamax
(:func:`complete`), no search needed. A position and its mirror image share an entry.

:func:`solve` is the plugin's solver: the book's answer where it has one (the best move
from the children's scores, or a move that keeps the book's score found by the solver),
else the exact solver given the whole time its caller allows (``stop``), not a fixed
budget of positions.

For each frontier position the book also keeps a column that keeps its score (found by
the solver when the frontier is built), so that the book's whole reach is played
perfectly at once, with no search and no compiled kernels: a position's best column is
read from its children's scores, or, at the frontier, from this column.

The book ships in the package (``book-7x6.npz``: keys, scores and the frontier's
columns, a few kilobytes); a
book built with ``boardgames connect4 book`` goes into the cache folder and is used
first. This module imports no numba: the solver loads only when a position needs it.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from boardgames.connect4.game import ConnectFour
from boardgames.core.protocol import GameError, SearchResult, State

BOOK_PLIES = 4
"""The default book depth on 7 x 6: positions of 5 discs solve in about 3 s, of 4 discs
in about 6 s, of 3 in tens of seconds."""
CHUNK = 4
"""Frontier positions a build task holds (about half a minute of solving on 7 x 6)."""
SHIPPED = Path(__file__).with_name("book-7x6.npz")


def book_path(width: int, height: int) -> Path:
    """Where ``connect4 book`` writes a board's book: the cache folder."""
    from boardgames import cache_dir

    return cache_dir() / "connect4" / f"book-{width}x{height}.npz"


# --- positions as bitboards (the solver's layout, in plain Python) ----------------------------


@dataclass(frozen=True)
class Position:
    """A position as the solver sees it: the mover's discs, all discs (columns of ``H + 1``
    bits, bottom first) and the number of discs."""

    cur: int
    mask: int
    n: int


class Geometry:
    """Bit arithmetic of one board size (the layout of :mod:`boardgames.connect4.solver`)."""

    def __init__(self, width: int, height: int) -> None:
        ConnectFour(width, height)  # checks the size
        self.width, self.height, self.h1 = width, height, height + 1
        self.cells = width * height
        self.colbits = (1 << self.h1) - 1

    def from_moves(self, moves: str) -> Position:
        """The position after ``moves`` (digits 1..W); GameError if it is none."""
        game = ConnectFour(self.width, self.height)
        return self.from_state(game, game.parse_position(moves))

    def from_state(self, game: ConnectFour, state: State) -> Position:
        """The position of a game state (its cells column after column, bottom first)."""
        h, cells = game.height, game.cells
        mover = int(state[cells]) + 1
        cur = mask = 0
        for col in range(game.width):
            for row in range(h):
                v = int(state[col * h + row])
                if v:
                    bit = 1 << (col * self.h1 + row)
                    mask |= bit
                    if v == mover:
                        cur |= bit
        return Position(cur, mask, int(state[cells + 1]))

    def playable(self, p: Position, col: int) -> bool:
        return not (p.mask >> (col * self.h1 + self.height)) & 1

    def cell(self, p: Position, col: int) -> int:
        """The bit a disc dropped into ``col`` lands on."""
        return (p.mask + (1 << (col * self.h1))) & ~p.mask & (self.colbits << (col * self.h1))

    def wins(self, pos: int) -> bool:
        """Whether ``pos`` holds four in a line."""
        for s in (1, self.h1, self.h1 - 1, self.h1 + 1):
            m = pos & (pos >> s)
            if m & (m >> (2 * s)):
                return True
        return False

    def play(self, p: Position, col: int) -> tuple[Position, bool]:
        """The position after ``col`` (the next mover's view) and whether that move won."""
        bit = self.cell(p, col)
        return Position(p.cur ^ p.mask, p.mask | bit, p.n + 1), self.wins(p.cur | bit)

    def win_score(self, n: int) -> int:
        """The score of winning with the next disc from a position of ``n`` discs."""
        return (self.cells + 1 - n) // 2

    def mirror(self, x: int) -> int:
        out = 0
        for c in range(self.width):
            out |= ((x >> (c * self.h1)) & self.colbits) << ((self.width - 1 - c) * self.h1)
        return out

    def key(self, p: Position) -> int:
        """One number for a position and its mirror image: the smaller ``cur + mask``."""
        return min(p.cur + p.mask, self.mirror(p.cur) + self.mirror(p.mask))

    def oriented(self, p: Position, col: int) -> int:
        """Column ``col`` of ``p`` as seen in its key's orientation (the one of ``p`` and
        its mirror image whose ``cur + mask`` is :meth:`key`), or back: its own inverse."""
        return col if p.cur + p.mask == self.key(p) else self.width - 1 - col

    def order(self) -> list[int]:
        """Columns centre first (the solver's order)."""
        return sorted(range(self.width), key=lambda c: (abs(2 * c - (self.width - 1)), -c))


def frontier(width: int, height: int, plies: int) -> list[str]:
    """One move string for each position of exactly ``plies`` discs whose game is not over
    (a position and its mirror image once), centre openings first (depth first)."""
    geo = Geometry(width, height)
    seen: set[int] = set()
    found: list[str] = []
    order = geo.order()

    def walk(p: Position, moves: str) -> None:
        if p.n == plies:
            k = geo.key(p)
            if k not in seen:
                seen.add(k)
                found.append(moves)
            return
        for c in order:
            if geo.playable(p, c):
                child, won = geo.play(p, c)
                if not won and child.n < geo.cells:
                    walk(child, moves + str(c + 1))

    walk(Position(0, 0, 0), "")
    return found


def complete(width: int, height: int, plies: int, solved: dict[str, int]) -> dict[int, int]:
    """The book: the frontier's scores (``solved``, by move string) and every shallower
    position whose children are all known, by negamax (a move that wins at once scores
    :meth:`Geometry.win_score`). Keys: :meth:`Geometry.key`."""
    geo = Geometry(width, height)
    book = {geo.key(geo.from_moves(m)): s for m, s in solved.items()}
    order = geo.order()

    def value(p: Position) -> int | None:
        k = geo.key(p)
        if k in book:
            return book[k]
        if p.n >= plies:
            return None
        best: int | None = None
        missing = False
        for c in order:
            if not geo.playable(p, c):
                continue
            child, won = geo.play(p, c)
            if won:
                v: int | None = geo.win_score(p.n)
            elif child.n == geo.cells:
                v = 0
            else:
                got = value(child)
                v = None if got is None else -got
            if v is None:
                missing = True
            elif best is None or v > best:
                best = v
        if missing or best is None:
            return None
        book[k] = best
        return best

    value(Position(0, 0, 0))
    # shallower positions under a partly solved frontier: those whose subtree is complete
    for moves in _positions(geo, plies - 1):
        value(geo.from_moves(moves))
    return book


def _positions(geo: Geometry, below: int) -> Iterator[str]:
    """Move strings of the positions of at most ``below`` discs (each at least once)."""
    seen: set[int] = set()

    def walk(p: Position, moves: str) -> Iterator[str]:
        k = geo.key(p)
        if k in seen:
            return
        seen.add(k)
        yield moves
        if p.n >= below:
            return
        for c in range(geo.width):
            if geo.playable(p, c):
                child, won = geo.play(p, c)
                if not won:
                    yield from walk(child, moves + str(c + 1))

    if below >= 0:
        yield from walk(Position(0, 0, 0), "")


# --- the book on disk -------------------------------------------------------------------------


@dataclass
class Book:
    """Exact scores of a board size's openings, by :meth:`Geometry.key`."""

    width: int
    height: int
    plies: int
    scores: dict[int, int]
    best: dict[int, int] = field(default_factory=dict)
    """A column that keeps the score, of frontier positions (in the key's orientation:
    :meth:`Geometry.oriented`); the shallower ones read theirs from their children."""

    @functools.cached_property
    def geo(self) -> Geometry:
        return Geometry(self.width, self.height)

    def score(self, p: Position) -> int | None:
        """The exact score of ``p`` for its mover, None when the book does not hold it."""
        return self.scores.get(self.geo.key(p))

    def best_column(self, p: Position) -> int | None:
        """A column of ``p`` that keeps its score, as the book stores it for frontier
        positions; None when it has none."""
        col = self.best.get(self.geo.key(p))
        if col is None:
            return None
        col = self.geo.oriented(p, col)
        return col if self.geo.playable(p, col) else None

    def columns(self, p: Position) -> list[int | None] | None:
        """Each column's score for the mover (None: a full column), or None when the book
        lacks a child."""
        geo = self.geo
        out: list[int | None] = []
        for c in range(geo.width):
            if not geo.playable(p, c):
                out.append(None)
                continue
            child, won = geo.play(p, c)
            if won:
                out.append(geo.win_score(p.n))
            elif child.n == geo.cells:
                out.append(0)
            else:
                s = self.score(child)
                if s is None:
                    return None
                out.append(-s)
        return out

    def save(self, path: Path) -> None:
        """Write the book compactly: sorted keys (uint64), their scores (int8) and
        columns (int8, -1 where the book keeps none)."""
        keys = np.array(sorted(self.scores), dtype=np.uint64)
        values = np.array([self.scores[int(k)] for k in keys], dtype=np.int8)
        columns = np.array([self.best.get(int(k), -1) for k in keys], dtype=np.int8)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez_compressed(tmp, keys=keys, scores=values, columns=columns,
                            size=np.array([self.width, self.height, self.plies]))  # fmt: skip
        tmp.replace(path)

    @classmethod
    def read(cls, path: Path) -> Book:
        """A book :meth:`save` wrote (one of an earlier version, with no columns, too)."""
        with np.load(path) as data:
            w, h, plies = (int(v) for v in data["size"])
            keys, values = data["keys"], data["scores"]
            scores = dict(zip(map(int, keys), map(int, values), strict=True))
            best: dict[int, int] = {}
            if "columns" in data.files:
                columns = data["columns"]
                best = {int(k): int(c) for k, c in zip(keys, columns, strict=True) if c >= 0}
            return cls(w, h, plies, scores, best)


@functools.lru_cache(maxsize=4)
def _load(width: int, height: int, stamp: float) -> Book | None:
    del stamp  # part of the cache key only: a rebuilt book is read again
    for path in (book_path(width, height), SHIPPED):
        if path.is_file():
            try:
                book = Book.read(path)
            except (OSError, ValueError, KeyError):
                continue
            if (book.width, book.height) == (width, height):
                return book
    return None


def load_book(width: int, height: int) -> Book | None:
    """The book of a board size: the one built into the cache folder, else the shipped
    one (7 x 6), else None."""
    own = book_path(width, height)
    stamp = own.stat().st_mtime if own.is_file() else 0.0
    return _load(width, height, stamp)


# --- the plugin's solver ------------------------------------------------------------------------


def solve(
    game: ConnectFour,
    state: State,
    *,
    weak: bool = False,
    stop: Callable[[], bool] | None = None,
    hash_mib: float | None = None,
    node_limit: int | None = None,
) -> SearchResult:
    """The plugin's solver: the book's exact answer where it has one, else
    :func:`boardgames.connect4.solver.solve` for as long as ``stop`` allows (no budget of
    positions unless ``node_limit`` says one). SearchStopped when it stops unanswered."""
    from boardgames.connect4 import solver

    if not isinstance(game, ConnectFour):
        raise GameError(f"the Connect Four solver cannot solve {type(game).__name__}")
    kwargs: dict[str, Any] = {"weak": weak, "stop": stop, "node_limit": node_limit}
    if hash_mib is not None:
        kwargs["hash_mib"] = hash_mib
    if node_limit is None and stop is not None:
        kwargs["node_limit"] = 0  # the caller's time decides, not a fixed budget
    found = from_book(game, state, stop)
    if found is None:
        if stop is not None and solver.kernels_ready() and not solver.kernels_loaded():
            solver.warm()  # compiled but not loaded (about a second, once): not Python's try
        return solver.solve(game, state, **kwargs)
    score, col, pv = found
    n = int(state[game.cells + 1])
    if weak:
        score = (score > 0) - (score < 0)
    value = solver.protocol_value(game.width, game.height, n, score, weak)
    return SearchResult(value, col, pv, 0, None, "solver", not weak or score == 0)


def from_book(
    game: ConnectFour, state: State, stop: Callable[[], bool] | None = None
) -> tuple[int, int, list[int]] | None:
    """The book's score of ``state``, a column that keeps it and the book's line (as far
    as the book reaches); None when the book does not settle it. A position the book
    scores but whose children it lacks gets the column the book keeps with it, else (a
    book built before it kept columns) one from the solver (a search that only has to
    keep a known score), when the solver's kernels are ready."""
    if game.outcome(state) is not None:
        return None
    book = load_book(game.width, game.height)
    if book is None:
        return None
    geo = book.geo
    p = geo.from_state(game, state)
    line: list[int] = []
    score: int | None = None
    while True:
        columns = book.columns(p)
        if columns is None:  # at the frontier: the column the book keeps with its score
            kept = book.best_column(p)  # only a position the book scores keeps one
            if kept is not None:
                score = book.score(p) if score is None else score
                line.append(kept)
            break
        best = max(v for v in columns if v is not None)
        if score is None:
            score = best
        col = next(c for c in geo.order() if columns[c] == best)
        line.append(col)
        child, won = geo.play(p, col)
        if won or child.n == geo.cells:
            break
        p = child
    if score is not None:
        return score, line[0], line
    known = book.score(p)
    if known is None:
        return None
    from boardgames.connect4 import solver
    from boardgames.core.search import SearchStopped

    if not solver.kernels_ready():
        return None
    s = solver.solver_for(game.width, game.height)
    with s.lock:
        board = solver.Bitboards(p.cur, p.mask, p.n)
        try:
            col = s.best_column(board, known, stop=stop)
        except SearchStopped:
            return None
    return known, col, [col]


# --- building --------------------------------------------------------------------------------


def job_of(width: int, height: int, plies: int, positions: list[str]) -> dict[str, Any]:
    """The checkpoint's job: a file of another board or depth is refused."""
    digest = hashlib.sha256("\n".join(positions).encode()).hexdigest()[:16]
    return {"command": "connect4 book", "width": width, "height": height, "plies": plies,
            "positions": len(positions), "digest": digest}  # fmt: skip


def frontier_chunk(
    width: int, height: int, hash_mib: float, positions: list[str]
) -> list[list[int]]:
    """A task of :func:`build`: each frontier position's exact score and a column that
    keeps it (the solver's table is warm from the score: the column costs little more).
    Pure: the same positions always give the same answer."""
    from boardgames.connect4 import solver

    s = solver.solver_for(width, height, hash_mib)
    out: list[list[int]] = []
    with s.lock:
        for moves in positions:
            board = solver.parse_bitboards(width, height, moves)
            score = int(s.solve_many([board])[0][0])
            out.append([score, s.best_column(board, score)])
    return out


def build(
    width: int,
    height: int,
    plies: int,
    *,
    cluster: Any = None,
    checkpoint: Path | None = None,
    out: Path | None = None,
    hash_mib: float = 256,
    console: Any = None,
    limit: int | None = None,
) -> tuple[Book, int, int]:
    """Solve the frontier of ``plies`` discs as cluster tasks of :data:`CHUNK` positions
    (:mod:`boardgames.core.cluster`; a ``checkpoint`` file makes a stopped build go on
    where it stopped), complete the book by negamax and write it to ``out`` (default
    :func:`book_path`), also after a Ctrl-C (what was solved). ``limit``: solve only the
    first that many tasks this run. Returns the book, the frontier's size and how many
    of it are solved."""
    from boardgames.connect4 import solver
    from boardgames.core.cluster import Checkpoint, Runner
    from boardgames.core.progress import Progress

    positions = frontier(width, height, plies)
    chunks = [positions[i : i + CHUNK] for i in range(0, len(positions), CHUNK)]
    tasks = [(f"chunk-{i}", (width, height, hash_mib, c)) for i, c in enumerate(chunks)]
    if limit is not None:
        tasks = tasks[:limit]
    solved: dict[str, int] = {}
    kept: dict[int, int] = {}  # a column that keeps the score, by key (its orientation)
    target = out or book_path(width, height)
    geo = Geometry(width, height)

    def add(key: str, result: Any) -> None:
        i = int(key.split("-")[1])
        for moves, found in zip(chunks[i], result, strict=True):
            if isinstance(found, int):  # a checkpoint of a build that kept no columns
                solved[moves] = found
                continue
            score, col = (int(v) for v in found)
            solved[moves] = score
            p = geo.from_moves(moves)
            kept[geo.key(p)] = geo.oriented(p, col)
        bar.update(len(solved))

    def finish() -> Book:
        book = Book(width, height, plies, complete(width, height, plies, solved), kept)
        book.save(target)
        return book

    bar = Progress("Solving the book's frontier", len(positions), "positions", console=console)
    runner = Runner(cluster, console)
    runner.prepare(solver.warm_chunk, width, height, hash_mib)
    try:
        with runner:
            runner.warm(solver.warm_chunk, width, height, hash_mib)
            runner.run(
                frontier_chunk,
                tasks,
                label="Solving",
                checkpoint=Checkpoint(checkpoint, job_of(width, height, plies, positions))
                if checkpoint
                else None,
                on_result=add,
                progress=bar,
                unit="tasks",
            )
    except BaseException:
        if solved:
            finish()
        raise
    return finish(), len(positions), len(solved)
