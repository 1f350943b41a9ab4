"""``kalah explain``: which program settings would have played a recorded game.

The game is the one the classic program's author printed (docs/games/strange-game.txt,
issue 18): program against program, "played with MAXLEVEL equal to 5". What a setting
"would have chosen" is checked against the engine itself and against a brute force over
the compound moves (the values of every compound move of the position at the setting's
depth), not against the explain code's own bookkeeping.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from boardgames.cli import cli
from boardgames.core.protocol import is_terminal_score, terminal_score
from boardgames.kalah.analysis import explain as explain_module
from boardgames.kalah.analysis.explain import SAME, TIE, Explainer, Grid, sweep
from boardgames.kalah.analysis.unswept import PASS, UnsweptKalah, model_search
from boardgames.kalah.cli.explain import moves_table, sweep_table
from boardgames.kalah.game import Kalah
from boardgames.kalah.play.engine import EngineConfig, KalahEngine
from boardgames.kalah.record import read_record, replay

STRANGE_GAME = Path(__file__).parents[2] / "docs" / "games" / "strange-game.txt"


def run(args: list[str]) -> Result:
    return CliRunner().invoke(cli, ["kalah", "explain", *args])


@pytest.fixture(scope="module")
def strange() -> Explainer:
    record = read_record(STRANGE_GAME)
    steps, _ = replay(record)
    return Explainer(record.game, record.first, [s.pits for s in steps])


def config(
    depth: int, evaluation: str = "store", unit: str = "compound", strategy: str = "alphabeta"
):
    return EngineConfig(
        depth=depth, evaluation=evaluation, unit=unit, strategy=strategy, prove_nodes=0
    )


def compound_values(game: Kalah, state, depth: int, evaluation: str) -> dict[tuple[int, ...], int]:
    """Brute force: the value of every compound move for its player, ``depth`` compound
    moves deep (the move itself one of them), from the engine's search of the position it
    leads to, scores of finished games seen from ``state`` (one ply further per sowing)."""
    engine = KalahEngine(game, config(1, evaluation))
    player = game.to_move(state)
    out = {}
    for pits, after in game.compound_moves(state):
        result = game.outcome(after)
        if result is not None:
            v = terminal_score(result, 0)
        elif depth == 1:
            v = engine.game.evaluate(after)
        else:
            v = engine.search(after, depth - 1).value
        if is_terminal_score(v):
            v -= len(pits) if v > 0 else -len(pits)
        out[pits] = v if game.to_move(after) == player else -v
    return out


# --- the settings that play the game ------------------------------------------------------


def test_depth_6_store_alphabeta_plays_the_first_20_moves(strange: Explainer) -> None:
    result = strange.explain(config(6))
    assert [c.status for c in result.checks[:20]] == [SAME] * 20
    first = result.first_other
    assert first is not None and first.move == 21 and first.played == (4,)
    assert first.chosen == (0,) and first.status == TIE
    # the last moves before the end: the recorded ones are worse at depth 6
    assert [c.status for c in result.checks[22:25]] == ["other"] * 3


def test_the_classic_preset_depth_5_differs_at_once(strange: Explainer) -> None:
    from boardgames.kalah.play.match import parse_spec

    result = strange.explain(parse_spec("classic"))
    assert result.depth == 5 and result.first_other is not None
    assert result.first_other.move == 1  # A: 0 3; depth 5 plays 0 1


@pytest.mark.parametrize("unit", ["compound", "sowing"])
def test_chosen_moves_are_the_engines(strange: Explainer, unit: str) -> None:
    cfg = config(4, "tseitin", unit)
    result = strange.explain(cfg)
    engine = KalahEngine(strange.game, cfg)
    for check, state in zip(result.checks, strange.positions, strict=True):
        assert check.chosen == tuple(engine.best_move(state).move)
        assert (check.status == SAME) == (check.chosen == check.played)


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
@pytest.mark.parametrize("evaluation", ["store", "rechenberg"])
def test_ties_agree_with_a_brute_force_over_compound_moves(
    strange: Explainer, depth: int, evaluation: str
) -> None:
    result = strange.explain(config(depth, evaluation))
    for check, state in zip(result.checks, strange.positions, strict=True):
        values = compound_values(strange.game, state, depth, evaluation)
        best = max(values.values())
        assert values[check.chosen] == best  # the engine chooses a best move
        if check.status != SAME:
            assert (check.status == TIE) == (values[check.played] == best), check


def test_ties_at_depth_6_near_the_end(strange: Explainer) -> None:
    result = strange.explain(config(6))
    for k in (20, 21, 22):  # moves 21-23
        check, state = result.checks[k], strange.positions[k]
        values = compound_values(strange.game, state, 6, "store")
        assert (check.status == TIE) == (values[check.played] == max(values.values()))


# --- the unswept model ----------------------------------------------------------------------


def sweep_board(board: list[int], m: int) -> list[int]:
    out = list(board)
    for side, store in ((range(0, m), m), (range(m + 1, 2 * m + 1), 2 * m + 1)):
        for i in side:
            out[store] += out[i]
            out[i] = 0
    return out


@settings(max_examples=300, deadline=None)
@given(
    pits=st.integers(2, 6),
    data=st.data(),
)
def test_the_model_is_the_rules_but_for_the_sweep(pits: int, data: st.DataObject) -> None:
    game = Kalah(pits, 1)
    model = UnsweptKalah(pits)
    cells = [data.draw(st.integers(0, 6)) for _ in range(2 * pits + 2)]
    side = data.draw(st.integers(0, 1))
    cells[0] += 1 if sum(cells) == 0 else 0  # a board holds a stone at least
    state = game.make_state(cells, side)
    if game.outcome(state) is not None:
        assert model.legal_moves(model.state(state)) == [PASS]
        return
    s = model.state(state)
    assert model.legal_moves(s) == game.legal_moves(state)
    for pit in game.legal_moves(state):
        child, again = game.play(state, pit)
        mchild, magain = model.play(s, pit)
        assert again == magain and mchild[-1] == int(child[-1])
        if game.outcome(child) is None:
            assert list(mchild) == child.tolist()
        else:  # the rules sweep the pits; the model leaves them
            assert sweep_board(list(mchild[:-1]), pits) == game.board(child)
            assert sum(mchild[:-1]) == sum(game.board(child))


def test_the_model_searches_as_the_engine_while_no_game_ends(strange: Explainer) -> None:
    """Early in the game no line of 4 compound moves ends it: the model's F2 and the
    engine's F2 give the same values and moves."""
    model = UnsweptKalah(6)
    engine = KalahEngine(strange.game, config(4))
    for state in strange.positions[:6]:
        ours = model_search(model, model.state(state), 4, False)
        theirs = engine.search(state, 4)
        assert ours.value == theirs.value and ours.pv[:3] == theirs.pv[:3]


def test_unswept_depth_6_plays_the_end_of_the_game(strange: Explainer) -> None:
    """At depth 6 the unswept model plays the moves 24-26 as recorded, and the recorded
    A: 5 3 (move 23) is worth as much as its choice: the line it expects is the game's
    own end, B's 3 stones in pit 8 not counted."""
    decider = strange.decider(config(6), "unswept")
    positions, moves = strange.positions, strange.moves
    for k in (23, 24, 25):
        assert decider.choose(positions[k]) == moves[k]
    assert decider.choose(positions[22]) != moves[22]
    assert decider.ties(positions[22], moves[22])
    # the rules' search sees A: 5 3 lose: not a tie there
    rules = strange.decider(config(6))
    assert not rules.ties(positions[22], moves[22])


# --- the sweep and the command --------------------------------------------------------------


def test_a_small_sweep_ranks_depth_6_first(strange: Explainer) -> None:
    grid = Grid(("alphabeta",), (4, 5, 6), ("store",), ("compound",))
    ranked = sweep(strange, grid)
    assert ranked[0].depth == 6 and ranked[0].run == 20
    assert {r.depth for r in ranked} == {4, 5, 6}
    out = io.StringIO()
    Console(file=out, width=80, no_color=True).print(sweep_table(ranked, 26, 10, "sweep"))
    lines = out.getvalue().splitlines()
    assert max(len(line) for line in lines) <= 80
    assert any("alphabeta" in line and " 6 " in line and "21/26" in line for line in lines)


def test_the_moves_table_fits_80_columns(strange: Explainer) -> None:
    results = [strange.explain(config(d)) for d in (4, 5, 6)]
    out = io.StringIO()
    Console(file=out, width=80, no_color=True).print(moves_table(results, "strange"))
    lines = out.getvalue().splitlines()
    assert max(len(line) for line in lines) <= 80
    row = next(line for line in lines if line.startswith("│ 21 "))
    assert "0 tie" in row  # depth 6 plays 0 where A played 4, a tie


def test_command_json(tmp_path: Path) -> None:
    result = run([str(STRANGE_GAME), "--program", "depth=6,eval=store,strategy=alphabeta,prove=0",
                  "--json"])  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    (program,) = data["programs"]
    assert program["first_other"]["move"] == 21 and program["first_other"]["status"] == "tie"
    assert len(program["moves"]) == len(data["moves"]) == 26
    assert data["moves"][12] == {"move": 13, "player": "A", "played": [0, 5, 4, 5]}


def test_command_table_and_summary() -> None:
    result = run([str(STRANGE_GAME), "--program", "classic,depth=6"])
    assert result.exit_code == 0, result.output
    assert "first other at move 21 (A played 4, it plays 0, a tie)" in " ".join(
        result.stdout.split()
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "give --program SPEC"),
        (["--program", "depth=x"], "depth needs a number"),
        (["--program", "bogus"], "bad player spec part"),
        (["--search", "--depths", "0-3"], "--depths must lie in 1-20"),
        (["--search", "--depths", "9-3"], "a range from low to high, such as 3-9"),
        (["--search", "--depths", "30-3"], "--depths must lie in 1-20"),
        (["--search", "--evals", "store,nope"], "--evals takes"),
        (["--program", "depth=6,strategy=mtdf", "--ends", "unswept"], "plain F2"),
    ],
)
def test_bad_options_are_one_line(args: list[str], message: str) -> None:
    result = run([str(STRANGE_GAME), *args])
    assert result.exit_code == 2 and "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines[-1].startswith("Error:") and message in lines[-1], result.stderr


def test_a_bad_record_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.klh"
    path.write_text("Pits : 3\nSeeds : 3\n1) A: 9\n")
    result = run([str(path), "--program", "depth=2"])
    assert result.exit_code == 2 and "line 3" in result.output
    assert "Traceback" not in result.output
    result = run([str(tmp_path / "missing.klh"), "--program", "depth=2"])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_ctrl_c_stops_the_sweep_with_status_130(monkeypatch: pytest.MonkeyPatch) -> None:
    real = Explainer.explain
    calls = []

    def interrupted(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(self, *args, **kwargs)

    monkeypatch.setattr(explain_module.Explainer, "explain", interrupted)
    result = run([str(STRANGE_GAME), "--search", "--depths", "1-4", "--evals", "store",
                  "--units", "compound", "--strategies", "alphabeta"])  # fmt: skip
    assert result.exit_code == 130
    assert "Stopped (Ctrl-C)" in result.output and "Traceback" not in result.output


@pytest.mark.slow
def test_the_whole_grid(strange: Explainer) -> None:
    """288 settings (about a minute of CPU): none plays every move up to move 21; the
    best reproduce 22 moves, all at depth 6 with the store evaluation."""
    ranked = sweep(strange, Grid())
    assert len(ranked) == 288
    assert max(r.run for r in ranked) == 20
    best = [r for r in ranked if r.same == ranked[0].same]
    assert ranked[0].same == 22 and all(r.depth == 6 and r.evaluation == "store" for r in best)


def test_both_readings_of_depth_6_over_the_whole_game() -> None:
    """The engine at depth 6 plays 21 moves as recorded, the unswept model 24: its other
    two (moves 21 and 23) are ties, while the engine finds the recorded 23-25 worse."""
    result = run([str(STRANGE_GAME), "--program", "classic,depth=6", "--ends", "rules,unswept",
                  "--json"])  # fmt: skip
    assert result.exit_code == 0, result.output
    rules, unswept = json.loads(result.stdout)["programs"]
    assert (rules["ends"], rules["same"], unswept["ends"], unswept["same"]) == (
        "rules", 21, "unswept", 24,
    )  # fmt: skip
    others = [(m["move"], m["status"]) for m in unswept["moves"] if m["status"] != SAME]
    assert others == [(21, TIE), (23, TIE)]
    late = {m["move"]: m for m in rules["moves"]}
    assert [late[k]["status"] for k in (23, 24, 25)] == ["other"] * 3
    assert late[23]["played_value"] == "loss by at least 8" and late[23]["value"] == "-5"
