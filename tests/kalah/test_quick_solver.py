"""The pure-Python exact solver (kalah/exact/quick.py, what a fresh machine answers with)
against the numba solver and the exhaustive reference search, on many positions."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from boardgames.cli import cli
from boardgames.core import warmup
from boardgames.kalah.exact.quick import NodeLimit, QuickSolver
from boardgames.kalah.exact.solver import Solver
from boardgames.kalah.game import Kalah
from tests.kalah.test_solver import exhaustive, random_position


def quick_value(solver: QuickSolver, state: np.ndarray) -> tuple[int, list[int]]:
    pits = solver.m
    board = [int(x) for x in state[: 2 * pits + 2]]
    mover = int(state[-1])
    result = solver.solve(board, mover)
    return result.value, solver.best_line(board, mover, result.value)


@pytest.mark.parametrize(
    ("rules", "empty_capture"), [("classic", False), ("classic", True), ("etudes", False)]
)
def test_random_positions_equal_the_numba_solver(rules: str, empty_capture: bool) -> None:
    """Values on 180 random positions per rule set, and the best line keeps the value."""
    rng = np.random.default_rng(31)
    for pits in (2, 3, 4):
        game = Kalah(pits, 1, rules, empty_capture=empty_capture)
        exact = Solver(pits, rules, hash_mb=4, empty_capture=empty_capture)
        quick = QuickSolver(pits, rules, empty_capture)
        for _ in range(60):
            state = random_position(rng, pits, int(rng.integers(1, 4 * pits + 3)), rules)
            if game.outcome(state) is not None:
                continue
            value, line = quick_value(quick, state)
            assert value == exact.value(state), (pits, state.tolist())
            after = game.play_compound(state, line)  # one whole turn of the mover
            rest = game.outcome(after)
            if rest is None:
                rest = exact.value(after)
            mover = int(state[-1])
            assert (rest if int(after[-1]) == mover else -rest) == value


@pytest.mark.parametrize(
    ("pits", "seeds", "rules"),
    [(2, 2, "classic"), (3, 3, "classic"), (4, 3, "classic"), (3, 2, "etudes"), (3, 3, "etudes")],
)
def test_start_positions_equal_the_solvers(pits: int, seeds: int, rules: str) -> None:
    game = Kalah(pits, seeds, rules)
    state = game.initial_state()
    value, line = quick_value(QuickSolver(pits, rules), state)
    solved = Solver(pits, rules, hash_mb=4).solve(state)
    assert value == solved.value
    if pits <= 3:
        assert value == exhaustive(game, state)
    assert line  # a start position has a move


def test_known_value_of_4_by_3() -> None:
    """Kalah 4 x 3 classic: the first player wins by 6 (the numba solver's value, which
    the exactness tests tie to the exhaustive search on smaller boards)."""
    game = Kalah(4, 3)
    value, _ = quick_value(QuickSolver(4, "classic"), game.initial_state())
    assert value == 6


def test_node_limit_stops_the_search() -> None:
    game = Kalah(6, 6)
    state = game.initial_state()
    solver = QuickSolver(6, "classic")
    with pytest.raises(NodeLimit):
        solver.solve([int(x) for x in state[:14]], 0, node_limit=1000)
    assert solver.nodes == 1001


@pytest.mark.parametrize("ready", [False, True])
def test_solve_answers_small_boards_without_compiling_on_a_fresh_machine(
    ready: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[str] = []
    monkeypatch.setattr(warmup, "is_ready", lambda group: ready)
    monkeypatch.setattr(warmup, "warm_in_background", lambda group: started.append(group) or True)
    stopped: list[bool] = []
    monkeypatch.setattr(warmup, "stop_background", lambda: stopped.append(True))
    asides: list[tuple[str, ...]] = []
    monkeypatch.setattr(warmup, "compile_aside", lambda *steps: asides.append(steps))
    r = CliRunner().invoke(cli, ["kalah", "solve", "--pits", "4", "--seeds", "3", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["value"] == 6 and data["best"] == [1, 2]
    assert data["solver"] == ("numba" if ready else "python")
    assert started == ([] if ready else ["kalah"])
    if not ready:
        assert "solved exactly by the pure-Python solver" in r.stderr
        # too big for it: the numba solver takes over (and the background compile stops)
        r = CliRunner().invoke(
            cli, ["kalah", "solve", "--pits", "4", "--seeds", "3", "--rules", "etudes", "--json"]
        )
        assert r.exit_code == 0, r.output
        data = json.loads(r.stdout)
        assert data["solver"] == "numba" and data["value"] == 0
        assert stopped == [True] and "more than 400,000 positions" in r.stderr
        # the solver's kernels were compiled aside while the table was made here
        assert asides == [(SOLVER_STEP, GUESS_STEP)]
    else:
        assert asides == []


SOLVER_STEP = "boardgames.kalah.play.warm:solver"  # written out: a rename must show here
GUESS_STEP = "boardgames.kalah.play.warm:first_guess"


def test_a_solve_after_the_solver_was_compiled_aside_compiles_nothing_aside(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The kalah group is not ready but an earlier solve compiled the solver's steps aside
    (their step markers): no "it is compiled now", nothing compiled aside again, the numba
    solver at once (no pure-Python attempt)."""
    monkeypatch.setattr(warmup, "is_ready", lambda group: group.startswith("kalah."))
    asides: list[tuple[str, ...]] = []
    monkeypatch.setattr(warmup, "compile_aside", lambda *steps: asides.append(steps))
    monkeypatch.setattr(warmup, "warm_in_background", lambda group: pytest.fail(group))
    r = CliRunner().invoke(cli, ["kalah", "solve", "--pits", "4", "--seeds", "3", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert (data["solver"], data["value"], data["best"]) == ("numba", 6, [1, 2])
    assert asides == [] and "compiled now" not in r.stderr
    # only the first guess's step is missing: it alone is compiled aside, and no note
    monkeypatch.setattr(warmup, "is_ready", lambda group: group == "kalah.solver")
    r = CliRunner().invoke(cli, ["kalah", "solve", "--pits", "4", "--seeds", "3", "--json"])
    assert r.exit_code == 0, r.output
    assert asides == [(GUESS_STEP,)] and "compiled now" not in r.stderr


def test_the_steps_compiled_aside_are_warm_steps() -> None:
    """What ``kalah solve`` compiles aside on a fresh machine is what ``cache warm kalah``
    runs (a renamed step would silently compile nothing there)."""
    from boardgames.cli.cache import WARM_STEPS

    targets = {target for _, target in WARM_STEPS["kalah"]}
    assert {SOLVER_STEP, GUESS_STEP} <= targets


def test_a_big_board_on_a_fresh_machine_skips_the_pure_python_solver(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """5 x 4 (an estimated 13 million positions) goes to the numba solver at once, with the
    note that it compiles, and its kernels compiled aside; the value is the exact one."""
    monkeypatch.setattr(warmup, "is_ready", lambda group: False)
    started: list[str] = []
    monkeypatch.setattr(warmup, "warm_in_background", lambda group: started.append(group) or True)
    asides: list[tuple[str, ...]] = []
    monkeypatch.setattr(warmup, "compile_aside", lambda *steps: asides.append(steps))
    r = CliRunner().invoke(
        cli, ["kalah", "solve", "--pits", "5", "--seeds", "4", "--endgame", "12", "--json"]
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert (data["solver"], data["value"]) == ("numba", 10)
    assert started == [] and asides == [(SOLVER_STEP, GUESS_STEP)]
    assert "needs the fast solver: it is compiled now" in r.stderr
