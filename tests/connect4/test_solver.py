"""The Connect Four solver (boardgames.connect4.solver) and its commands.

Scores as published: Pascal Pons' benchmark sets (tests/connect4/data, see the README
there), a sample of each by default and all 6000 positions with ``-m slow``; the weak
solver's sign. The kernels against the pure-Python reference on random late 7 x 6
positions and on small boards, every position's score and every column's. Small boards'
values against John Tromp's table. The stop flag, the node budget, the plugin's
protocol values and the ``connect4`` commands.
"""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from boardgames.cli import cli
from boardgames.connect4 import solver as S
from boardgames.connect4.game import ConnectFour
from boardgames.core.protocol import GameError, describe_score, score_margin
from boardgames.core.search import SearchStopped
from tests.helpers import check_clean_stop, interrupt

DATA = Path(__file__).parent / "data"
SETS = ("L3_R1", "L2_R1", "L2_R2", "L1_R1", "L1_R2", "L1_R3")
SAMPLE = {"L3_R1": 40, "L2_R1": 40, "L2_R2": 30, "L1_R1": 30, "L1_R2": 4, "L1_R3": 1}
"""Positions of each set in the default run, evenly spread over the set (L1_R3: its line
3, which this solver settles in a fraction of a second; the set's mean is about two
seconds on the project's machine)."""


def load(name: str) -> list[tuple[str, int]]:
    rows = (line.split() for line in (DATA / f"Test_{name}").read_text().splitlines())
    return [(moves, int(score)) for moves, score in rows]


def sample(name: str) -> list[tuple[str, int]]:
    rows = load(name)
    if name == "L1_R3":
        return rows[2:3]
    step = len(rows) // SAMPLE[name]
    return rows[::step][: SAMPLE[name]]


@pytest.fixture(scope="module")
def solver() -> S.Solver:
    return S.Solver(7, 6, 64)


@pytest.fixture(scope="module")
def weak_solver() -> S.Solver:
    """A table of its own: the weak solves do not start from the strong ones' bounds."""
    return S.Solver(7, 6, 64)


def check_set(solver: S.Solver, weak_solver: S.Solver, rows: list[tuple[str, int]]) -> None:
    boards = [S.parse_bitboards(7, 6, moves) for moves, _ in rows]
    scores, nodes = solver.solve_many(boards)
    wrong = [(m, s, int(v)) for (m, s), v in zip(rows, scores, strict=True) if s != v]
    assert wrong == []
    signs, _ = weak_solver.solve_many(boards, weak=True)
    assert [int(v) for v in signs] == [(s > 0) - (s < 0) for _, s in rows]
    assert (nodes >= 0).all()


@pytest.mark.parametrize("name", SETS)
def test_published_scores_sample(solver: S.Solver, weak_solver: S.Solver, name: str) -> None:
    check_set(solver, weak_solver, sample(name))


@pytest.mark.slow
@pytest.mark.parametrize("name", SETS)
def test_published_scores_all(name: str) -> None:
    check_set(S.Solver(7, 6, 256), S.Solver(7, 6, 256), load(name))


def test_data_files_are_whole() -> None:
    for name in SETS:
        rows = load(name)
        assert len(rows) == 1000
        assert all(-18 <= s <= 18 for _, s in rows)


# --- against the pure-Python reference -------------------------------------------------------


def random_position(game: ConnectFour, rng: random.Random, discs: int) -> str | None:
    """A random game of ``discs`` moves that is not over, as a move string (None if the
    random game ended first)."""
    state = game.initial_state()
    moves = []
    for _ in range(discs):
        legal = game.legal_moves(state)
        if not legal:
            return None
        move = rng.choice(legal)
        state, _ = game.play(state, move)
        moves.append(move)
    if game.outcome(state) is not None:
        return None
    return "".join(str(m + 1) for m in moves)


def positions(width: int, height: int, count: int, empty: tuple[int, int], seed: int) -> list[str]:
    game = ConnectFour(width, height)
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        left = rng.randint(*empty)
        p = random_position(game, rng, width * height - left)
        if p is not None:
            found.append(p)
    return found


@pytest.mark.parametrize(
    ("width", "height", "count", "empty"),
    [(7, 6, 60, (6, 13)), (4, 4, 80, (1, 16)), (5, 4, 60, (1, 16)), (4, 5, 40, (1, 15)),
     (5, 5, 30, (1, 13)), (7, 5, 15, (6, 12)), (6, 5, 20, (6, 12)), (9, 6, 10, (6, 11)),
     (8, 7, 10, (6, 11))],
)  # fmt: skip
def test_kernels_agree_with_the_reference(
    width: int, height: int, count: int, empty: tuple[int, int]
) -> None:
    s = S.Solver(width, height, 4)
    for moves in positions(width, height, count, empty, seed=width * 10 + height):
        board = S.parse_bitboards(width, height, moves)
        ref = S.ReferenceSolver(width, height)
        want = ref.solve(board)
        (got,), _ = s.solve_many([board])
        assert (moves, int(got)) == (moves, want)
        (sign,), _ = s.solve_many([board], weak=True)
        assert int(sign) == (want > 0) - (want < 0)
        columns = s.analyse(board)
        assert columns == ref.analyse(board)
        assert max(c for c in columns if c is not None) == want
        best = s.best_column(board, want)
        assert columns[best] == want


def test_reference_without_table_agrees() -> None:
    for moves in positions(5, 4, 20, (6, 12), seed=3):
        board = S.parse_bitboards(5, 4, moves)
        plain = S.ReferenceSolver(5, 4, table=False).solve(board)
        assert plain == S.ReferenceSolver(5, 4).solve(board)


def test_the_empty_4x4_board_is_a_draw() -> None:
    # John Tromp's table (below): 4 x 4 is a tie; both solvers find the score 0
    empty = S.parse_bitboards(4, 4, "")
    assert S.ReferenceSolver(4, 4).solve(empty) == 0
    (score,), _ = S.Solver(4, 4, 4).solve_many([empty])
    assert score == 0


# John Tromp, "John's Connect Four Playground", http://tromp.github.io/c4/c4.html (also
# homepages.cwi.nl/~tromp/c4/c4.html): the value of the empty board of other sizes, '+'
# a first-player win, '=' a tie, '-' a second-player win. The boards below are those this
# solver settles in about a second each (each agrees with the table); 8 x 4 takes a few.
TROMP = {
    (4, 4): 0, (5, 4): 0, (6, 4): -1, (7, 4): 0, (4, 5): 0, (5, 5): 0, (6, 5): 0,
    (4, 6): 0, (5, 6): 0, (4, 7): 0, (4, 8): 0,
}  # fmt: skip
TROMP_SLOW = {(8, 4): -1}


def check_tromp(values: dict[tuple[int, int], int]) -> None:
    for (w, h), sign in values.items():
        (v,), _ = S.Solver(w, h, 32).solve_many([S.parse_bitboards(w, h, "")], weak=True)
        assert ((w, h), int(v)) == ((w, h), sign)


def test_small_boards_match_tromps_table() -> None:
    check_tromp(TROMP)


@pytest.mark.slow
def test_bigger_boards_match_tromps_table() -> None:
    check_tromp(TROMP_SLOW)


@pytest.mark.slow
def test_the_empty_7x6_board_is_won_by_the_middle_column_only() -> None:
    s = S.Solver(7, 6, 256)
    empty = S.parse_bitboards(7, 6, "")
    columns = s.analyse(empty, weak=True)
    assert columns == [-1, -1, 0, 1, 0, -1, -1]  # RULES.md 6; Allis (1988) the draws


# --- stopping --------------------------------------------------------------------------------


HARD = "4"
"""A position of one disc: minutes of work."""


def test_the_stop_flag_stops_a_long_solve_within_a_second() -> None:
    s = S.Solver(7, 6, 16)
    board = S.parse_bitboards(7, 6, HARD)
    fired: list[float] = []

    def fire() -> None:
        fired.append(time.perf_counter())
        s.flag[0] = 1

    threading.Timer(0.5, fire).start()
    with pytest.raises(SearchStopped):
        s.solve_many([board])
    assert fired and time.perf_counter() - fired[0] < 1.0


def test_a_stop_callable_and_a_node_budget_stop_the_plugin_solver() -> None:
    game = ConnectFour()
    state = game.parse_position(HARD)
    S.solver_for(7, 6).solve_many([S.parse_bitboards(7, 6, "112233")])  # kernels loaded
    t0 = time.perf_counter()
    with pytest.raises(SearchStopped):
        S.solve(game, state, stop=lambda: time.perf_counter() - t0 > 0.3, node_limit=0)
    assert time.perf_counter() - t0 < 1.3
    t0 = time.perf_counter()
    with pytest.raises(SearchStopped):
        S.solve(game, state, node_limit=100_000)
    assert time.perf_counter() - t0 < 1.0


# --- protocol values -------------------------------------------------------------------------


def test_protocol_values_read_as_the_rules_score() -> None:
    game = ConnectFour()
    r = S.solve(game, game.parse_position("112233"))
    assert r.exact and r.best_move == 3 and r.pv == [3]
    assert score_margin(r.value) == 18
    assert describe_score(r.value, exact=True) == "win by 18 in 1 ply"
    r = S.solve(game, game.parse_position("4453344446655755"))
    assert r.exact and score_margin(r.value) == -2 and r.best_move in (0, 1, 4, 5, 6)
    # 2 wins with their 20th disc, move 40 of the game: 24 plies from now
    assert describe_score(r.value, exact=True) == "loss by 2 in 24 plies"
    # each move of the line keeps the score, to the end of the game
    ref = S.ReferenceSolver(7, 6)
    state, score = game.parse_position("4453344446655755"), -2
    for m in r.pv:
        assert ref.analyse(S.to_bitboards(game, state))[m] == score
        state, _ = game.play(state, m)
        score = -score
    assert game.outcome(state) == -2 and game.to_move(state) == 0
    w = S.solve(game, game.parse_position("4453344446655755"), weak=True)
    assert not w.exact and describe_score(w.value, w.exact) == "loss by at least 1"


def test_protocol_value_plies() -> None:
    # 7 x 6, 6 discs, the mover wins with their 4th disc: one ply; loses to the 4th: two
    assert S.plies_to_end(7, 6, 6, 18) == 1
    assert S.plies_to_end(7, 6, 6, -18) == 2
    assert S.protocol_value(7, 6, 6, 0) == 0


def test_finished_games_and_other_games() -> None:
    game = ConnectFour()
    r = S.solve(game, game.parse_position("1212121"))
    assert r.best_move is None and score_margin(r.value) == -18
    with pytest.raises(GameError):
        S.solve(object(), game.initial_state())  # type: ignore[arg-type]


def test_bitboards_of_a_state() -> None:
    game = ConnectFour(5, 4)
    b = S.to_bitboards(game, game.parse_position("113"))
    # player 2 to move: their disc is column 1 row 2 (bit 1); all: bits 0, 1 and 10
    assert (b.cur, b.mask, b.n) == (0b10, 0b10000000011, 3)
    assert S.column_order(7) == [3, 4, 2, 5, 1, 6, 0]
    assert S.column_order(4) == [2, 1, 3, 0]


def test_pure_python_answers_while_nothing_is_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(S, "kernels_ready", lambda: False)
    game = ConnectFour()
    state = game.parse_position("2252576253462244111563365343671351441")
    s = S.solve_position(game, state, compile=False)
    assert (s.engine, s.score, s.best) == ("python", -1, 5)
    with pytest.raises(SearchStopped):
        S.solve_position(game, game.parse_position("4"), compile=False)
    scores, engine = S.analyse(game, state, compile=False)
    assert engine == "python" and scores == [None] * 5 + [-1, -2]


# --- the commands ----------------------------------------------------------------------------


def run(*args: str, stdin: str | None = None):
    result = CliRunner().invoke(cli, ["connect4", *args], input=stdin)
    assert "Traceback" not in result.output
    return result


def test_solve_command() -> None:
    r = run("solve", "112233")
    assert r.exit_code == 0
    assert "Score +18: 1 wins with their 4th disc, 1 ply from now" in r.stdout
    assert "Best move: 4" in r.stdout
    data = json.loads(run("solve", "44533444466557555", "--json").stdout)
    assert data["score"] == 2 and data["result"] == "win" and data["to_move"] == "2"
    assert data["value_text"].startswith("win by 2 in ")
    assert data["best_move"] in ("1", "5", "6", "7")
    weak = json.loads(run("solve", "44533444466557555", "--json", "--weak").stdout)
    assert weak["score"] == 1 and weak["value_text"] == "win by at least 1"


def test_solve_stdin_writes_the_benchmark_format_and_reports_bad_lines() -> None:
    rows = sample("L2_R1")[:10]
    text = (
        "\n".join(m for m, _ in rows[:5])
        + "\n4x5\n\n11111111\n"
        + "\n".join(m for m, _ in rows[5:])
    )
    r = run("solve", "-", stdin=text + "\n")
    assert r.exit_code == 1
    assert r.stdout.splitlines() == [f"{m} {s}" for m, s in rows]
    errors = r.stderr.strip().splitlines()
    assert len(errors) == 2
    assert errors[0].startswith("Error: line 6: ") and "names no column" in errors[0]
    assert errors[1].startswith("Error: line 8: ") and "which is full" in errors[1]
    good = run("solve", "-", "--weak", stdin="".join(f"{m}\n" for m, _ in rows))
    assert good.exit_code == 0
    assert good.stdout.splitlines() == [f"{m} {(s > 0) - (s < 0)}" for m, s in rows]


def test_solve_stdin_json_and_finished_games() -> None:
    r = run("solve", "-", "--json", stdin="112233\n1212121\n")
    data = json.loads(r.stdout)
    assert [p["score"] for p in data["positions"]] == [18, -18]
    assert data["bad_lines"] == 0


def test_solve_stdin_with_a_checkpoint(tmp_path: Path) -> None:
    rows = sample("L3_R1")[:40]
    text = "".join(f"{m}\n" for m, _ in rows)
    ckpt = tmp_path / "c4.ckpt"
    r = run("solve", "-", "--checkpoint", str(ckpt), stdin=text)
    assert r.exit_code == 0
    assert r.stdout.splitlines() == [f"{m} {s}" for m, s in rows]
    again = run("solve", "-", "--checkpoint", str(ckpt), stdin=text)
    assert again.stdout == r.stdout
    assert "2 of 2 tasks already in" in again.stderr


def test_analyse_command() -> None:
    r = run("analyse", "445334444665575")
    assert r.exit_code == 0
    lines = r.stdout.splitlines()
    assert lines[6].split() == ["1", "2", "3", "4", "5", "6", "7"]
    assert lines[7].split() == ["+2", "0", "0", "-", "+2", "-10", "+2"]
    assert "Best: columns 1, 5, 7; 2 wins with their 20th disc, 25 plies from now" in r.stdout
    data = json.loads(run("analyse", "2252576253462244111563365343671351441", "--json").stdout)
    assert data["scores"] == {"1": None, "2": None, "3": None, "4": None, "5": None,
                              "6": -1, "7": -2}  # fmt: skip
    assert data["best"] == ["6"] and data["to_move"] == "2"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["solve", "4x"], "names no column"),
        (["solve", "11111111"], "which is full"),
        (["solve", "44 53"], "is not one position"),
        (["solve", "12", "--width", "9", "--height", "7"], "at most 64"),
        (["solve", "12", "--width", "3"], "not in the range"),
        (["solve", "12", "--hash", "0"], "not in the range"),
        (["solve", "12", "--cluster", "local"], "apply to 'solve -'"),
        (["analyse", "1212121"], "is over"),
        (["analyse", "8"], "names no column"),
    ],
)
def test_bad_input_is_one_line_and_status_2(args: list[str], message: str) -> None:
    r = run(*args)
    assert r.exit_code == 2
    assert message in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_ctrl_c_stops_a_long_solve(tmp_path: Path) -> None:
    run_ = interrupt(["connect4", "solve", HARD], f"Solving {HARD!r}", tmp_path)
    check_clean_stop(run_)
    assert "positions searched, no score yet" in run_.stderr


def test_solve_help_needs_no_numba() -> None:
    import subprocess
    import sys

    code = (
        "import sys; from click.testing import CliRunner; from boardgames.cli import cli; "
        "r = CliRunner().invoke(cli, ['connect4', 'solve', '--help']); assert r.exit_code == 0; "
        "r = CliRunner().invoke(cli, ['connect4', 'solve', '4x']); assert r.exit_code == 2; "
        "print('numba' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_process_keeps_the_tables_of_two_board_sizes() -> None:
    first = S.solver_for(4, 4, 1)
    assert S.solver_for(4, 4, 1) is first
    S.solver_for(5, 4, 1)
    S.solver_for(4, 5, 1)
    assert len(S._SOLVERS) == S.KEEP_SOLVERS
    assert S.solver_for(4, 4, 1) is not first


def test_the_command_line_default_table_is_the_solvers() -> None:
    from boardgames.connect4 import cli as c4cli

    assert c4cli.DEFAULT_HASH_MIB == S.DEFAULT_HASH_MIB


def test_numpy_arrays_are_what_the_kernels_take() -> None:
    s = S.Solver(4, 4, 1)
    assert s.tt.dtype == np.uint64 and len(s.tt) == 1 << 17  # 1 MiB: 2**17 entries
    assert S.table_bits(64) == 23 and S.table_bits(0.1) == S.MIN_TABLE_BITS


def test_a_programs_first_move_does_not_wait_for_the_kernels_to_load(monkeypatch) -> None:
    """Compiled on this machine but not loaded by this process (a fresh server): loading
    takes about a second, the whole proof window of a short move. The program's solver
    (a ``stop``) loads them in the background and answers this once in pure Python."""
    gate = threading.Event()
    loads: list[str] = []

    def slow_load() -> None:
        loads.append(threading.current_thread().name)
        gate.wait(30)

    monkeypatch.setattr(S, "kernels_ready", lambda: True)
    monkeypatch.setattr(S, "kernels_loaded", lambda: gate.is_set())
    monkeypatch.setattr(S, "warm", slow_load)
    monkeypatch.setattr(S, "_LOADING", [])
    game = ConnectFour(4, 4)
    state = game.initial_state()
    for column in (0, 1, 1, 2, 3, 3, 2, 0):
        state = game.play(state, column)[0]
    t0 = time.perf_counter()
    result = S.solve(game, state, stop=lambda: False)
    assert time.perf_counter() - t0 < 10  # not the 30 s the blocked load would take
    reference = S.ReferenceSolver(4, 4).best(S.to_bitboards(game, state))[0]
    assert result.exact and result.value == S.protocol_value(4, 4, 8, reference)
    assert loads == ["connect4-kernels"]  # the load runs, in its own thread
    S.solve(game, state, stop=lambda: False)
    assert len(S._LOADING) == 1  # once
    gate.set()
    S._LOADING[0].join(5)
