"""Connect Four's opening book (boardgames.connect4.book) and the ``perfect`` level.

The book's positions are counted against an independent enumeration (OEIS A212693 for
7 x 6: 1, 7, 49, 238, 1120 positions of 0..4 discs); a small board's book is built
(resumably) and every entry checked against the solver; the shipped 7 x 6 book is
checked against the solver on a random sample (all of it with ``-m slow``) and for
negamax consistency. Then the issue's test: on positions of 0 to 12 discs from real games
(the prefixes of Pons' benchmark positions) and random games, the program's ``perfect``
move scores what the position's best column scores.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from boardgames.connect4 import book as B
from boardgames.connect4 import solver as S
from boardgames.connect4.game import ConnectFour
from boardgames.core.engine import LEVELS, think

GAME = ConnectFour()
DATA = Path(__file__).parent / "data"


def enumerate_positions(width: int, height: int, discs: int) -> tuple[int, int]:
    """Positions of exactly ``discs`` discs, none finished: (all, up to mirror images),
    counted on the game's own rules and state arrays (not the book's bitboards)."""
    game = ConnectFour(width, height)
    seen: set[bytes] = set()
    orbits: set[bytes] = set()
    for moves in itertools.product(range(width), repeat=discs):
        state = game.initial_state()
        for m in moves:
            if m not in game.legal_moves(state):
                break
            state, _ = game.play(state, m)
        else:
            if game.outcome(state) is not None:
                continue
            board = state[: game.cells].reshape(width, height)
            key = board.tobytes()
            seen.add(key)
            orbits.add(min(key, board[::-1].tobytes()))
    return len(seen), len(orbits)


def test_the_frontier_holds_every_position_once_up_to_mirror_images() -> None:
    for discs, known in ((1, 7), (2, 49), (3, 238)):  # OEIS A212693
        count, orbits = enumerate_positions(7, 6, discs)
        assert count == known
        assert len(B.frontier(7, 6, discs)) == orbits
    assert len(B.frontier(5, 4, 4)) == enumerate_positions(5, 4, 4)[1]


def test_a_small_book_built_resumably_agrees_with_the_solver(tmp_path: Path) -> None:
    checkpoint, out = tmp_path / "book.checkpoint", tmp_path / "book.npz"
    _, total, solved = B.build(5, 4, 3, checkpoint=checkpoint, out=out, hash_mib=4, limit=2)
    assert solved == 2 * B.CHUNK < total
    book, total2, solved2 = B.build(5, 4, 3, checkpoint=checkpoint, out=out, hash_mib=4)
    assert solved2 == total2 == total  # the first run's tasks read back, the rest solved
    again = B.Book.read(out)
    assert again.scores == book.scores and again.plies == 3
    geo = B.Geometry(5, 4)
    s = S.Solver(5, 4, 4)
    for moves in B._positions(geo, 3):
        p = geo.from_moves(moves)
        expected = int(s.solve_many([S.parse_bitboards(5, 4, moves)])[0][0])
        assert book.score(p) == expected, moves
        if p.n < 3:  # the book's own best column keeps the score
            columns = book.columns(p)
            assert columns is not None and max(c for c in columns if c is not None) == expected
        else:  # the frontier: the column kept with the score keeps it, mirrored too
            col = book.best_column(p)
            assert col is not None, moves
            assert_keeps(s, geo, p, col, expected, moves)
            mirrored = geo.from_moves("".join(str(5 - int(m) + 1) for m in moves))
            assert book.best_column(mirrored) == 4 - col, moves
    assert again.best == book.best and len(book.best) == total


def assert_keeps(
    s: S.Solver, geo: B.Geometry, p: B.Position, col: int, score: int, what: str
) -> None:
    """Column ``col`` of ``p`` keeps ``score`` (the mover's), by the solver's score of the
    position after it (or a win at once)."""
    assert geo.playable(p, col), what
    child, won = geo.play(p, col)
    if won:
        assert score == geo.win_score(p.n), what
        return
    board = S.Bitboards(child.cur, child.mask, child.n)
    with s.lock:
        assert -int(s.solve_many([board])[0][0]) == score, (what, col)


def test_the_plugin_solver_answers_from_the_book(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOARDGAMES_CACHE", str(tmp_path))
    B.build(5, 4, 3, hash_mib=4, out=B.book_path(5, 4))
    game = ConnectFour(5, 4)
    for moves in ("", "3", "31", "22"):
        state = game.parse_position(moves)
        result = B.solve(game, state, stop=lambda: False)
        assert result.exact and result.nodes == 0  # from the book: nothing searched
        scores, _ = S.analyse(game, state)
        best = max(v for v in scores if v is not None)
        assert scores[result.best_move] == best
        reference = S.solve(game, state)
        assert result.value == reference.value


def shipped() -> B.Book:
    book = B.load_book(7, 6)
    if book is None:
        pytest.skip("no 7 x 6 book")
    return book


def test_the_shipped_book_is_small_and_consistent() -> None:
    book = shipped()
    assert B.SHIPPED.stat().st_size < 3 * 2**20
    geo = book.geo
    # every entry shallower than the frontier is the negamax of its children
    for moves in B._positions(geo, book.plies - 1):
        p = geo.from_moves(moves)
        known, columns = book.score(p), book.columns(p)
        if columns is not None:
            assert known == max(c for c in columns if c is not None), moves


def check_frontier_sample(count: int, seed: int) -> None:
    book = shipped()
    rng = random.Random(seed)
    entries = [
        m
        for m in B.frontier(7, 6, book.plies)
        if book.score(B.Geometry(7, 6).from_moves(m)) is not None
    ]
    solver = S.solver_for(7, 6, 64)
    for moves in rng.sample(entries, min(count, len(entries))):
        with solver.lock:
            score = int(solver.solve_many([S.parse_bitboards(7, 6, moves)])[0][0])
        p = book.geo.from_moves(moves)
        assert book.score(p) == score, moves
        col = book.best_column(p)  # the column kept with it keeps it
        assert col is not None, moves
        assert_keeps(solver, book.geo, p, col, score, moves)


def test_the_shipped_book_settles_every_position_it_holds_without_the_solver(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fresh machine (the solver's kernels not compiled): every position of the book,
    the frontier's too, gets its score and a legal column from the book alone, at once
    (a frontier position's column from its children would need minutes of solving)."""
    book = shipped()
    monkeypatch.setattr(S, "kernels_ready", lambda: False)
    geo = book.geo
    frontier = B.frontier(7, 6, book.plies)
    assert len(book.best) == len(frontier) == 568
    for moves in [*B._positions(geo, book.plies - 1), *frontier]:
        state = GAME.parse_position(moves)
        found = B.from_book(GAME, state)
        assert found is not None, moves
        score, col, line = found
        assert score == book.score(geo.from_moves(moves)) and line[0] == col, moves
        assert col in GAME.legal_moves(state), moves
    # the column of the page's loss (perfect as the first player, 4 4 4 4): the only one
    # that keeps the score, column 4 (1 against -2 for the others)
    assert B.from_book(GAME, GAME.parse_position("4444"))[:2] == (1, 3)  # type: ignore[index]
    answer = think(GAME, GAME.parse_position("4444"), **LEVELS["perfect"])
    assert (answer.move, answer.exact, answer.engine) == (3, True, "solver"), answer.how()


def test_the_shipped_book_agrees_with_the_solver_on_a_sample() -> None:
    check_frontier_sample(1, seed=49)  # seconds; a frontier position takes about 6 s


@pytest.mark.slow
def test_the_shipped_book_agrees_with_the_solver_on_a_large_sample() -> None:
    check_frontier_sample(60, seed=6)


# --- the perfect level -------------------------------------------------------------------------


def real_prefixes() -> list[str]:
    """Positions of real games: the prefixes of Pons' benchmark positions."""
    found: list[str] = []
    for name in ("L1_R1", "L1_R2", "L2_R1", "L3_R1"):
        for line in (DATA / f"Test_{name}").read_text().splitlines()[:40]:
            moves = line.split()[0]
            found += [moves[:k] for k in range(min(len(moves), 12) + 1)]
    return found


def random_games(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    found: list[str] = []
    for _ in range(count):
        state, moves = GAME.initial_state(), ""
        while len(moves) < 12 and GAME.outcome(state) is None:
            found.append(moves)
            col = rng.choice(GAME.legal_moves(state))
            state, _ = GAME.play(state, col)
            moves += str(col + 1)
    return found


def sample_positions(per_ply: int, seed: int) -> list[str]:
    """``per_ply`` positions of each number of discs from 0 to 12 (the empty board once),
    half from real games, half from random ones, none finished."""
    rng = random.Random(seed)
    pool = sorted(set(real_prefixes()) | set(random_games(300, seed)))
    out: list[str] = []
    for n in range(13):
        here = [m for m in pool if len(m) == n and GAME.outcome(GAME.parse_position(m)) is None]
        out += rng.sample(here, min(per_ply, len(here)))
    return out


def check_perfect(moves: str) -> None:
    S.warm()  # the solver's kernels loaded (as on a machine after `cache warm connect4`)
    state = GAME.parse_position(moves)
    answer = think(GAME, state, **LEVELS["perfect"])
    scores = B.load_book(7, 6)
    columns = None if scores is None else scores.columns(scores.geo.from_state(GAME, state))
    if columns is None:
        columns, _ = S.analyse(GAME, state)
    best = max(v for v in columns if v is not None)
    assert answer.engine == "solver" and answer.exact, (moves, answer.how())
    assert columns[answer.move] == best, (moves, answer.move + 1, columns)


def settled_by_the_book(moves: str) -> bool:
    book = shipped()
    return book.columns(book.geo.from_moves(moves)) is not None


def test_perfect_plays_the_best_column_from_the_book() -> None:
    positions = [m for m in sample_positions(6, seed=1) if settled_by_the_book(m)]
    assert positions  # all of plies 0 to 3 once the whole book is built
    for moves in positions:
        check_perfect(moves)


@pytest.mark.parametrize("moves", ["44444663", "2416615552", "1234567712"])
def test_perfect_solves_a_middle_game_position(moves: str) -> None:
    check_perfect(moves)  # the 44444663: 6 wins, 4 loses


@pytest.mark.slow
def test_perfect_plays_the_best_column_on_hundreds_of_positions() -> None:
    positions = sample_positions(20, seed=2)
    assert len(positions) >= 200
    for moves in positions:
        check_perfect(moves)
