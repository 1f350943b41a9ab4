"""Program presets, the node budget, and playing the classic programs (issue 18).

Facts checked: the ``classic`` preset plays exactly the seed's program (the pure-Python
F2 reference at depth 5 with the store evaluation, :func:`choose_compound`), with no
endgame table; a node budget is never exceeded and is counted exactly (the numba engine
against the Python reference's own count, iteration by iteration); ``kalah play`` takes a
spec or preset for each side and steps through the program's sowings against a person.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from boardgames.cli import cli
from boardgames.core.compare import random_positions
from boardgames.core.protocol import GameError, State
from boardgames.core.search import alphabeta, selective
from boardgames.kalah.game import Kalah
from boardgames.kalah.play.engine import MAX_DEPTH, PRESETS, EngineConfig, KalahEngine
from boardgames.kalah.play.match import describe_spec, parse_spec
from boardgames.kalah.play.program import ENDGAME_STRATEGY, choose_compound, program_compound
from boardgames.kalah.record import read_record


def positions(game: Kalah, count: int, seed: int, plies: tuple[int, int] = (0, 40)) -> list[State]:
    """Unfinished positions after seeded random sowings."""
    return random_positions(game, count, seed, plies)


def run(args: list[str], text: str | None = None) -> Result:
    return CliRunner().invoke(cli, ["kalah", *args], input=text)


# --- presets and specs ------------------------------------------------------------------


def test_presets_are_the_documented_programs() -> None:
    assert parse_spec("classic") == EngineConfig(
        depth=5, evaluation="store", strategy="alphabeta", prove_nodes=0
    )
    assert parse_spec("tseitin") == EngineConfig(
        strategy="selective", nodes=1000, evaluation="tseitin"
    )
    assert parse_spec("rechenberg") == EngineConfig(
        strategy="alphabeta", nodes=1000, evaluation="rechenberg"
    )
    assert set(PRESETS) == {"classic", "tseitin", "rechenberg"}
    for name in PRESETS:
        assert not parse_spec(name).proves  # none of them had a solver or tables
        assert describe_spec(f" {name.upper()} ").startswith(f"{name} (")


def test_a_preset_with_keys_that_change_it() -> None:
    assert parse_spec("classic,depth=7") == EngineConfig(
        depth=7, evaluation="store", strategy="alphabeta", prove_nodes=0
    )
    assert parse_spec("eval=rechenberg,classic").evaluation == "rechenberg"  # keys win
    assert parse_spec("tseitin,nodes=50").nodes == 50


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("robot", "keys depth, time, nodes, eval, strategy, unit, tt, prove, playouts, c, "
                  "policy, or a preset (classic, tseitin, rechenberg)"),
        ("classic,tseitin", "names two presets"),
        ("tseitin,depth=3", "selective has no depth"),
        ("strategy=selective", "give nodes=N"),
        ("nodes=0", "nodes must be 1 to 10**9"),
        ("nodes=1e3", "nodes needs a number"),
        ("nodes=100,time=1", "not both"),
        ("nodes=100,prove=5", "leave prove out"),
        ("strategy=mcts,nodes=5", "give playouts=N"),
        ("strategy=magic", "selective"),  # the choices name the budget strategy too
    ],
)  # fmt: skip
def test_bad_specs_say_what_is_allowed(spec: str, message: str) -> None:
    with pytest.raises(GameError) as info:
        parse_spec(spec)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


# --- the classic preset is the seed's program -------------------------------------------


def test_classic_preset_plays_the_reference_program() -> None:
    """KalahEngine under ``classic`` = choose_compound (pure-Python F2, natural order,
    depth 5 compound moves, store evaluation), move for move."""
    game = Kalah()
    engine = KalahEngine(game, parse_spec("classic"))
    for state in positions(game, 12, 18):
        pits, ref = choose_compound(game, state, 5, evaluation="store")
        answer = engine.best_move(state)
        assert answer.move == pits
        assert answer.value == ref.value


def test_classic_preset_uses_no_endgame_table() -> None:
    """Two stones left: the tables would answer exactly; the classic program searches."""
    game = Kalah(4, 3)
    state = game.make_state([0, 0, 1, 0, 11, 0, 0, 1, 0, 11], 0)
    _, default = program_compound(game, state, EngineConfig(depth=5))
    pits, result = program_compound(game, state, parse_spec("classic"))
    assert default.strategy == ENDGAME_STRATEGY
    assert result.strategy == "alphabeta" and not result.exact
    assert pits == choose_compound(game, state, 5, evaluation="store")[0]


# --- the node budget --------------------------------------------------------------------


def reference_budget(game: Kalah, state: State, budget: int) -> tuple[int, int, list[int]]:
    """What iterative deepening of plain F2 under ``budget`` must do, from the Python
    reference's node counts: (positions examined, deepest finished depth, its PV)."""
    used, depth, pv = 0, 0, []
    for d in range(1, MAX_DEPTH + 1):
        if used >= budget:
            break
        r = alphabeta(game, state, d)
        if r.nodes > budget - used:
            return budget, depth, pv  # stopped at the limit, dropped
        used, depth, pv = used + r.nodes, d, r.pv
    return used, depth, pv


@pytest.mark.parametrize("budget", [1, 7, 60, 300, 1000])
def test_alphabeta_budget_matches_the_reference_count(budget: int) -> None:
    game = Kalah(6, 4, "classic", "rechenberg")
    engine = KalahEngine(game, EngineConfig(strategy="alphabeta", evaluation="rechenberg",
                                            nodes=budget))  # fmt: skip
    for state in positions(game, 6, budget):
        used, depth, pv = reference_budget(game, state, budget)
        answer = engine.search(state)
        assert (answer.nodes, answer.depth, answer.pv) == (used, depth, pv)
        assert answer.nodes <= budget


@pytest.mark.parametrize("strategy", ["minimax", "alphabeta", "ordered", "tt", "id", "pvs",
                                      "mtdf", "selective"])  # fmt: skip
@pytest.mark.parametrize("unit", ["compound", "sowing"])
def test_the_budget_holds_for_every_strategy(strategy: str, unit: str) -> None:
    """Whole compound moves (the searches that finish a turn included) stay within the
    budget, and the move is legal."""
    game = Kalah(6, 6, "classic", "tseitin")
    for budget in (1, 5, 40, 400):
        engine = KalahEngine(game, EngineConfig(strategy=strategy, nodes=budget, unit=unit))
        for state in positions(game, 4, budget + len(strategy)):
            answer = engine.best_move(state)
            assert 0 < answer.nodes <= budget
            after = game.play_compound(state, answer.move)  # GameError if not legal
            assert game.outcome(after) is not None or game.to_move(after) != game.to_move(state)


def test_deeper_with_a_larger_budget() -> None:
    game = Kalah()
    start = game.initial_state()
    for strategy in ("alphabeta", "mtdf", "selective"):
        depths = [
            KalahEngine(game, EngineConfig(strategy=strategy, nodes=n)).best_move(start).depth
            for n in (100, 1000, 20_000)
        ]
        assert depths[0] < depths[1] < depths[2], (strategy, depths)


def test_a_depth_caps_the_budgeted_deepening() -> None:
    game = Kalah()
    answer = KalahEngine(game, EngineConfig(strategy="alphabeta", depth=3, nodes=10**6)).search(
        game.initial_state()
    )
    ref = alphabeta(game.__class__(evaluation="tseitin"), game.initial_state(), 3)
    assert (answer.depth, answer.value, answer.pv) == (3, ref.value, ref.pv)


def test_selective_engine_is_the_core_search() -> None:
    game = Kalah(6, 6, "classic", "tseitin")
    engine = KalahEngine(game, parse_spec("tseitin"))
    for state in positions(game, 5, 4):
        answer = engine.search(state)
        ref = selective(game, state, 1000)
        assert (answer.value, answer.pv, answer.nodes, answer.depth) == (
            ref.value, ref.pv, ref.nodes, ref.depth,
        )  # fmt: skip


# --- kalah match and kalah play ---------------------------------------------------------


def test_match_takes_presets() -> None:
    result = run(["match", "--a", "tseitin", "--b", "rechenberg", "--pits", "4", "--seeds", "3",
                  "--games", "2", "--jobs", "1", "--json"])  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["a_settings"].startswith("tseitin (1,000 positions a move, eval tseitin")
    assert data["b_settings"].startswith("rechenberg (1,000 positions a move")
    assert data["wins"] + data["draws"] + data["losses"] == 2


@pytest.mark.parametrize("command", [["match", "--a"], ["play", "--b"]])
def test_a_bad_spec_is_a_one_line_usage_error(command: list[str]) -> None:
    result = run([*command, "robot"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    line = next(x for x in result.output.splitlines() if x.startswith("Error:"))
    assert "'robot'" in line and "nodes" in line and "classic, tseitin, rechenberg" in line


def test_play_two_presets_through(tmp_path: Path) -> None:
    record = tmp_path / "g.klh"
    result = run(["play", "--a", "classic", "--b", "tseitin,nodes=200", "--pits", "4",
                  "--seeds", "3", "--no-step", "--record", str(record)])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Game over." in result.output
    players = read_record(record).players
    assert players[0] == "program classic (depth 5, eval store, alphabeta)"
    assert players[1] == "program (200 positions a move, eval tseitin, selective)"


def test_play_a_spec_side_against_a_person_replays_the_reference(tmp_path: Path) -> None:
    """--b as a spec: the program's moves are the reference program's at that depth (prove=0:
    no endgame tables either)."""
    record = tmp_path / "g.klh"
    result = run(["play", "--b", "depth=2,eval=store,strategy=alphabeta,prove=0", "--pits", "4",
                  "--seeds", "3", "--record", str(record)], "0\n1\n2\n3\n" * 30)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Press Enter" not in result.output  # no stepping against a person by default
    game = Kalah(4, 3)
    state = game.initial_state()
    for move in read_record(record).moves:
        if move.player == 1:
            assert move.pits == choose_compound(game, state, 2, evaluation="store")[0]
        state = game.play_compound(state, move.pits)


def test_step_against_a_person_waits_and_end_of_input_keeps_the_record(tmp_path: Path) -> None:
    """A sows 0 (extra turn) and 1; the classic program's reply comes one Enter per sowing;
    input ends at the next prompt: the game stops cleanly with what was sown recorded."""
    record = tmp_path / "g.klh"
    result = run(["play", "--b", "classic", "--step", "--record", str(record)], "0\n1\n\n")
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert "Press Enter: B plays" in result.output
    assert "Game stopped" in result.output and "The record so far is saved" in result.output
    game = Kalah()
    state = game.play_compound(game.initial_state(), (0, 1))
    reply = choose_compound(game, state, 5, evaluation="store")[0]
    moves = read_record(record).moves
    assert moves[0].pits == (0, 1)
    assert moves[1].player == 1 and moves[1].pits == reply[:1]  # one Enter, one sowing


def test_ctrl_c_during_a_step_leaves_cleanly(tmp_path: Path, monkeypatch) -> None:
    from rich.console import Console

    answers = iter(["0", "1"])

    def typed(self: Console, prompt: str = "", **kwargs: object) -> str:
        self.print(prompt, end="")
        try:
            return next(answers)
        except StopIteration:
            raise KeyboardInterrupt from None

    monkeypatch.setattr(Console, "input", typed)
    record = tmp_path / "g.klh"
    result = run(["play", "--b", "classic", "--step", "--record", str(record)])
    assert result.exit_code == 0, result.output
    assert "Press Enter: B plays" in result.output
    assert "Game stopped" in result.output and "The record so far is saved" in result.output
    moves = read_record(record).moves
    assert moves[0].pits == (0, 1) and len(moves) == 1  # Ctrl-C before B's first sowing


def test_q_at_a_step_quits(tmp_path: Path) -> None:
    record = tmp_path / "g.klh"
    result = run(["play", "--b", "rechenberg", "--step", "--record", str(record)], "2\nq\n")
    assert result.exit_code == 0, result.output
    assert "Game stopped" in result.output
    assert [m.pits for m in read_record(record).moves] == [(2,)]
