"""Connect Four scores on every board, odd W*H included (RULES.md section 6).

A win scores 1 + the discs the winner still holds when they complete four, the first
player holding ceil(W*H/2) at the start and the second floor(W*H/2): Pons' formula
(W*H + 1 - m) div 2 for a win with the next disc, m the discs already played. On an
even board that is W*H/2 + 1 - s; on an odd one the second player's win scores one less
than the first player's with as many discs.

The referee here is written from that sentence alone (its own four-in-a-line test, its
own exhaustive negamax); the rules, the kernels, both solvers and the command line are
held to it and to the worked examples of RULES.md.
"""

from __future__ import annotations

import functools
import json
import random

import numpy as np
import pytest
from click.testing import CliRunner, Result

from boardgames.cli import cli
from boardgames.connect4 import kernels as ck
from boardgames.connect4 import solver as S
from boardgames.connect4.game import ConnectFour
from boardgames.core.protocol import describe_score, score_margin, terminal_score
from boardgames.core.search import alphabeta

ODD = [(5, 5), (7, 7)]
EVEN = [(4, 4), (6, 5)]


def ident(value: object) -> str | None:
    """Test ids: a board size as ``7x7``."""
    return f"{value[0]}x{value[1]}" if isinstance(value, tuple) else None


# --- the referee: RULES.md 6 read literally --------------------------------------------------


def share(width: int, height: int, player: int) -> int:
    """The discs a player (0 first, 1 second) holds at the start."""
    cells = width * height
    return -(-cells // 2) if player == 0 else cells // 2


def rules_score(width: int, height: int, winner: int, winner_discs: int) -> int:
    """1 + the discs the winner still holds once their ``winner_discs``-th disc is down."""
    return 1 + share(width, height, winner) - winner_discs


Columns = tuple[tuple[int, ...], ...]


def fours(cols: Columns, width: int, height: int, col: int, player: int) -> bool:
    """Whether the top disc of ``col`` (``player``'s) lies in a line of four: every line
    of four cells through it, each checked cell by cell."""
    row = len(cols[col]) - 1

    def disc(c: int, r: int) -> int | None:
        if 0 <= c < width and 0 <= r < len(cols[c]):
            return cols[c][r]
        return None

    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        for start in range(-3, 1):
            cells = [(col + (start + k) * dc, row + (start + k) * dr) for k in range(4)]
            if all(disc(c, r) == player for c, r in cells):
                return True
    return False


def referee(width: int, height: int, moves: str) -> tuple[int, list[int | None]]:
    """The exact score of the position after ``moves`` (a game not over) for the mover,
    and the score of each column (None: full), by exhaustive negamax."""

    @functools.cache
    def value(cols: Columns, n: int) -> int:
        return max(s for s in children(cols, n) if s is not None)

    def children(cols: Columns, n: int) -> list[int | None]:
        out: list[int | None] = []
        player = n % 2
        for c in range(width):
            if len(cols[c]) == height:
                out.append(None)
                continue
            child = (*cols[:c], (*cols[c], player), *cols[c + 1 :])
            if fours(child, width, height, c, player):
                out.append(rules_score(width, height, player, n // 2 + 1))
            elif n + 1 == width * height:
                out.append(0)
            else:
                out.append(-value(child, n + 1))
        return out

    built: list[list[int]] = [[] for _ in range(width)]
    for i, ch in enumerate(moves):
        built[int(ch) - 1].append(i % 2)
    cols = tuple(tuple(c) for c in built)
    return value(cols, len(moves)), children(cols, len(moves))


def random_game(width: int, height: int, rng: random.Random) -> str:
    """A random game to its end, as a move string."""
    heights = [0] * width
    cols: list[list[int]] = [[] for _ in range(width)]
    moves = ""
    for n in range(width * height):
        c = rng.choice([c for c in range(width) if heights[c] < height])
        cols[c].append(n % 2)
        heights[c] += 1
        moves += str(c + 1)
        frozen = tuple(tuple(x) for x in cols)
        if fours(frozen, width, height, c, n % 2):
            break
    return moves


def late_positions(width: int, height: int, count: int, seed: int) -> list[str]:
    """``count`` positions 6 to 9 discs from a full board, games not over."""
    rng = random.Random(seed)
    game = ConnectFour(width, height)
    found: list[str] = []
    while len(found) < count:
        whole = random_game(width, height, rng)
        cut = width * height - rng.randint(6, 9)
        if len(whole) > cut and game.outcome(game.parse_position(whole[:cut])) is None:
            found.append(whole[:cut])
    return found


def test_the_referee_reads_the_worked_examples() -> None:
    # RULES.md 6: 7 x 6 after 112233: 22 - 4 = 18; 7 x 7: 25 - 4 + 1 = 22, and a win of
    # player 2 with their 4th disc 24 - 4 + 1 = 21
    assert rules_score(7, 6, 0, 4) == 18
    assert rules_score(7, 7, 0, 4) == 22
    assert rules_score(7, 7, 1, 4) == 21


# --- the rules --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "moves", "score"),
    [
        ((7, 7), "1122334", 22),  # 1 wins with their 4th disc: 25 - 4 + 1
        ((7, 7), "71212121", 21),  # 2 wins with their 4th disc: 24 - 4 + 1
        ((7, 7), "7121213661", 20),  # 2 with their 5th: 24 - 5 + 1
        ((5, 5), "1212121", 10),  # 13 - 4 + 1
        ((5, 5), "51212121", 9),  # 12 - 4 + 1
        ((4, 4), "1212121", 5),  # 8 - 4 + 1, either player
        ((4, 4), "41212121", 5),
        ((6, 5), "1212121", 12),  # 15 - 4 + 1, either player
        ((6, 5), "61212121", 12),
        ((7, 6), "1122334", 18),  # 21 - 4 + 1 (the published 7 x 6 scale)
        ((7, 6), "71212121", 18),
    ],
    ids=ident,
)
def test_a_finished_game_scores_as_the_rules_say(
    size: tuple[int, int], moves: str, score: int
) -> None:
    game = ConnectFour(*size)
    state = game.parse_position(moves)
    assert game.outcome(game.parse_position(moves[:-1])) is None
    assert game.outcome(state) == -score  # for the player to move: the loser
    winner = (len(moves) - 1) % 2
    discs = (len(moves) + 1 - winner) // 2
    assert score == rules_score(*size, winner, discs)
    # the kernels' terminal score is the same number
    stack = np.zeros((1, game.cells + 3), dtype=np.int64)
    stack[0] = state
    assert ck.result(stack, 0, ck.make_params(game)) == -score
    # and a finished game is what the solver answers for it
    solved = S.solve_position(game, state)
    assert (solved.score, solved.engine) == (-score, "rules")


@pytest.mark.parametrize("size", ODD + EVEN, ids=ident)
def test_win_score_is_pons_formula(size: tuple[int, int]) -> None:
    """``win_score(m)`` (the m-th disc completes four) is (W*H + 1 - (m - 1)) div 2 and
    1 + the winner's share - their discs, for every m."""
    game = ConnectFour(*size)
    for m in range(7, game.cells + 1):
        winner = (m - 1) % 2
        assert game.win_score(m) == (game.cells + 1 - (m - 1)) // 2
        assert game.win_score(m) == rules_score(*size, winner, (m + 1 - winner) // 2)
        assert game.win_score(m) >= 1


@pytest.mark.parametrize("size", ODD + EVEN, ids=ident)
def test_random_finished_games_score_as_the_referee_says(size: tuple[int, int]) -> None:
    game = ConnectFour(*size)
    params = ck.make_params(game)
    stack = np.zeros((1, game.cells + 3), dtype=np.int64)
    rng = random.Random(sum(size))
    second_wins = 0
    for _ in range(150):
        moves = random_game(*size, rng)
        state = game.parse_position(moves)
        n = len(moves)
        winner = (n - 1) % 2
        won = bool(state[game.cells + 2])
        want = -rules_score(*size, winner, (n + 1 - winner) // 2) if won else 0
        assert (moves, game.outcome(state)) == (moves, want)
        stack[0] = state
        assert ck.result(stack, 0, params) == want
        second_wins += won and winner == 1
    assert second_wins > 10


def test_the_rules_search_finds_a_second_players_win_on_7x7() -> None:
    game = ConnectFour(7, 7)
    state = game.parse_position("7121212")  # 2 to move, three in column 1
    result = alphabeta(game, state, 1)
    assert result.best_move == 0 and result.value == terminal_score(21, 1)


# --- the solvers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "moves", "score", "column"),
    [
        ((7, 7), "112233", 22, 3),  # RULES.md 6: 1 wins with their 4th disc
        ((7, 7), "7121212", 21, 0),  # 2 wins with their 4th disc
        ((5, 5), "5121212", 9, 0),  # 12 - 4 + 1
        ((5, 5), "112233", 10, 3),  # 13 - 4 + 1
        ((4, 4), "4121212", 5, 0),
        ((6, 5), "6121212", 12, 0),
    ],
    ids=ident,
)
def test_solvers_score_a_win_with_the_next_disc(
    size: tuple[int, int], moves: str, score: int, column: int
) -> None:
    w, h = size
    board = S.parse_bitboards(w, h, moves)
    assert S.ReferenceSolver(w, h).solve(board) == score
    assert S.ReferenceSolver(w, h).best(board) == (score, column)
    s = S.Solver(w, h, 1)
    (got,), _ = s.solve_many([board])
    assert int(got) == score
    assert s.best_column(board, score) == column
    # the protocol value: a win by the score in one ply
    value = S.protocol_value(w, h, len(moves), score)
    assert describe_score(value, exact=True) == f"win by {score} in 1 ply"


@pytest.mark.parametrize(
    ("size", "n", "score", "plies"),
    [
        ((7, 7), 6, 22, 1),  # 1 wins with the 7th disc
        ((7, 7), 5, -22, 2),  # 2 to move loses to it
        ((7, 7), 7, 21, 1),  # 2 wins with the 8th disc
        ((7, 7), 6, -21, 2),  # 1 to move loses to it
        ((7, 7), 6, 21, 3),  # 1 wins with their 5th disc (the 9th): 25 - 5 + 1
        ((7, 7), 7, 20, 3),  # 2 wins with their 5th disc (the 10th): 24 - 5 + 1
        ((5, 5), 24, 1, 1),  # 1's 13th and last disc, the 25th: 13 - 13 + 1
        ((5, 5), 23, 1, 1),  # 2's 12th and last disc, the 24th: 12 - 12 + 1
        ((5, 5), 22, -1, 2),  # 1 to move loses to it
        ((7, 6), 6, 18, 1),
        ((7, 6), 6, -18, 2),
    ],
    ids=ident,
)
def test_plies_to_the_winning_disc(size: tuple[int, int], n: int, score: int, plies: int) -> None:
    w, h = size
    assert S.plies_to_end(w, h, n, score) == plies


@pytest.mark.parametrize(
    ("size", "count"), [((5, 5), 40), ((7, 7), 16), ((4, 4), 30), ((6, 5), 20)], ids=ident
)
def test_kernels_reference_and_referee_agree_late_in_the_game(
    size: tuple[int, int], count: int
) -> None:
    w, h = size
    s = S.Solver(w, h, 4)
    second_wins = 0
    for moves in late_positions(w, h, count, seed=w * 10 + h):
        want, columns = referee(w, h, moves)
        board = S.parse_bitboards(w, h, moves)
        ref = S.ReferenceSolver(w, h)
        assert (moves, ref.solve(board)) == (moves, want)
        assert ref.analyse(board) == columns
        (got,), _ = s.solve_many([board])
        assert (moves, int(got)) == (moves, want)
        (sign,), _ = s.solve_many([board], weak=True)
        assert int(sign) == (want > 0) - (want < 0)
        assert s.analyse(board) == columns
        assert columns[s.best_column(board, want)] == want
        mover = len(moves) % 2
        second_wins += (want > 0 and mover == 1) or (want < 0 and mover == 0)
    assert second_wins >= 3  # the scores the odd boards changed are among them


# --- the command line -------------------------------------------------------------------------


def run(*args: str, stdin: str | None = None) -> Result:
    result = CliRunner().invoke(cli, ["connect4", *args], input=stdin)
    assert "Traceback" not in result.output
    return result


def test_the_command_line_explains_a_second_players_win_on_7x7() -> None:
    size = ("--width", "7", "--height", "7")
    r = run("solve", "7121212", *size)
    assert r.exit_code == 0
    assert "Score +21: 2 wins with their 4th disc, 1 ply from now" in r.stdout
    data = json.loads(run("solve", "7121212", *size, "--json").stdout)
    assert data["score"] == 21 and data["value_text"] == "win by 21 in 1 ply"
    assert score_margin(data["value"]) == 21
    r = run("solve", "112233", *size)
    assert "Score +22: 1 wins with their 4th disc, 1 ply from now" in r.stdout
    small = ("--width", "5", "--height", "5")  # every column solved: a small board
    cols = json.loads(run("analyse", "5121212", *small, "--json").stdout)
    assert cols["scores"]["1"] == 9 and cols["best"] == ["1"]  # 12 - 4 + 1
    r = run("analyse", "5121212", *small)
    assert "Best: column 1; 2 wins with their 4th disc, 1 ply from now (score +9)" in r.stdout
    r = run("solve", "-", *size, stdin="71212121\n1122334\n7121212\n")
    assert r.stdout.splitlines() == ["71212121 -21", "1122334 -22", "7121212 21"]
