"""``boardgames kalah`` through click's runner: scripted games, quit, EOF, bad input."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from boardgames.cli import cli
from boardgames.kalah.game import Kalah
from boardgames.kalah.record import read_record, replay


def run(args: list[str], text: str | None = None) -> Result:
    return CliRunner().invoke(cli, ["kalah", *args], input=text)


def assert_clean(result: Result, code: int = 0) -> None:
    """No traceback: either a normal exit or click's own one-line error."""
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output


@pytest.mark.parametrize("sub", [[], ["play"], ["replay"], ["perft"], ["analyse"]])
def test_help(sub: list[str]) -> None:
    result = run([*sub, "--help"])
    assert_clean(result)
    assert "Usage:" in result.output


def test_eval_definitions_in_help() -> None:
    out = run(["play", "--help"]).output
    for name in ("store", "rechenberg", "tseitin"):
        assert name in out
    assert "17.3" in out


def test_cli_module_does_not_import_numba() -> None:
    code = "import sys, boardgames.kalah.cli; assert 'numba' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_human_against_program_full_game(tmp_path: Path) -> None:
    """The human types pits 0, 1, 2 over and over; illegal ones are refused and asked again."""
    record = tmp_path / "g.klh"
    script = "0\n1\n2\n" * 60
    result = run(
        ["play", "--pits", "3", "--seeds", "2", "--depth", "2", "--record", str(record)], script
    )
    assert_clean(result)
    out = result.output
    assert "I play " in out
    assert "Game over." in out and "Final score: A " in out
    assert f"The record is saved in {record}." in out
    _, final = replay(read_record(record))
    game = Kalah(3, 2)
    assert game.outcome(final) is not None
    a, b = game.final_stores(final)
    assert f"Final score: A {a}, B {b}" in out


def test_extra_turn_asks_again_and_record_grows(tmp_path: Path) -> None:
    record = tmp_path / "g.klh"
    result = run(["play", "--depth", "1", "--record", str(record)], "0\n1\nquit\n")
    assert_clean(result)
    assert "Last stone in the store: A moves again." in result.output
    assert "A to move (1 2 3 4 5)" in result.output  # the extra turn, pit 0 now empty
    assert "Game stopped. The record so far is saved in" in result.output
    moves = read_record(record).moves
    assert moves[0].player == 0 and moves[0].pits == (0, 1)
    assert moves[1].player == 1  # the program's reply is in the record too


def test_bad_input_gets_one_line_and_asks_again(tmp_path: Path) -> None:
    record = tmp_path / "g.klh"
    result = run(["play", "--record", str(record)], "9\nabc\n\n0\nquit\n")
    assert_clean(result)
    out = result.output
    assert "pit 9 is not one of A's pits (0 to 5); legal now: 0 1 2 3 4 5" in out
    assert "type the number of one of your pits (0 to 5)" in out
    assert read_record(record).moves[0].pits == (0,)


def test_end_of_input_leaves_cleanly_with_record(tmp_path: Path) -> None:
    record = tmp_path / "g.klh"
    result = run(["play", "--record", str(record)], "0\n")
    assert_clean(result)
    assert "Game stopped" in result.output
    assert read_record(record).moves[0].pits == (0,)  # the unfinished turn is kept


def test_hint_and_undo(tmp_path: Path) -> None:
    record = tmp_path / "g.klh"
    result = run(
        ["play", "--depth", "2", "--record", str(record)], "undo\nhint\n0\nundo\n2\nquit\n"
    )
    assert_clean(result)
    out = result.output
    assert "Nothing to undo yet." in out
    assert "Hint: " in out and "(value " in out
    assert "Took back your last move" in out
    assert read_record(record).moves[0].pits[0] == 2


def test_program_against_program_no_step(tmp_path: Path) -> None:
    record = tmp_path / "g.klh"
    args = ["play", "--a", "program", "--b", "program", "--no-step", "--depth", "2"]
    result = run([*args, "--first", "b", "--record", str(record)])
    assert_clean(result)
    assert "B plays " in result.output and "A plays " in result.output
    assert "Game over." in result.output
    rec = read_record(record)
    assert rec.first == 1 and rec.players[0] == "program (depth 2, eval tseitin, mtdf)"
    _, final = replay(rec)
    assert Kalah().outcome(final) is not None


def test_program_against_program_step_waits_for_enter(tmp_path: Path) -> None:
    record = tmp_path / "g.klh"
    args = ["play", "--a", "program", "--b", "program", "--depth", "1", "--record", str(record)]
    result = run(args, "\n\nq\n")
    assert_clean(result)
    assert result.output.count("Press Enter: ") >= 2
    assert "Game stopped" in result.output
    assert sum(len(m.pits) for m in read_record(record).moves) == 2


def test_etudes_game_runs_through(tmp_path: Path) -> None:
    record = tmp_path / "g.klh"
    args = ["play", "--a", "program", "--b", "program", "--no-step", "--depth", "2"]
    result = run([*args, "--rules", "etudes", "--eval", "tseitin", "--record", str(record)])
    assert_clean(result)
    assert "Game over." in result.output
    assert read_record(record).game.rules == "etudes"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "--pits", "13"], "pits must be 1 to 12 a side, got 13"),
        (["play", "--seeds", "0"], "seeds must be 1 to 20 a pit, got 0"),
        (["play", "--eval", "best"], "Invalid value for '--eval'"),
        (["play", "--record", "/no/such/dir/x.klh"], "cannot write the record to"),
        (["perft"], "Missing option '--depth'"),
        (["perft", "--depth", "-1"], "Invalid value for '--depth'"),
        (["analyse", "--board", "1 2 3"], "a board has 2m+2 holes"),
        (["analyse", "--board", "6 6 x 6"], "'x' is not a stone count"),
        (["analyse", "--board", "0 0 0 0"], "a board holds 1 to 480 stones"),
    ],
)
def test_bad_options_give_one_line(args: list[str], message: str) -> None:
    result = run(args)
    assert_clean(result, 2)
    assert message in result.output


def test_replay_shows_positions_and_json(tmp_path: Path) -> None:
    path = tmp_path / "g.klh"
    path.write_text("Pits : 6\n\n1) A: 0 1 B: 7\n2) A: 0\n")
    result = run(["replay", str(path)])
    assert_clean(result)
    assert "2) A: 0" in result.output
    assert "B to move" in result.output
    obj = json.loads(run(["replay", str(path), "--json"]).stdout)
    assert obj["rules"] == "classic" and obj["pits"] == 6 and obj["seeds"] == 6
    assert [m["pits"] for m in obj["moves"]] == [[0, 1], [7], [0]]
    assert obj["moves"][-1]["board"] == [0, 0, 8, 8, 8, 8, 10, 0, 8, 7, 7, 0, 7, 1]
    assert "final" not in obj


def test_replay_finished_game_json(tmp_path: Path) -> None:
    path = tmp_path / "g.klh"
    result = run(
        [
            "play",
            "--a",
            "program",
            "--b",
            "program",
            "--no-step",
            "--depth",
            "1",
            "--pits",
            "4",
            "--seeds",
            "3",
            "--record",
            str(path),
        ]
    )
    assert_clean(result)
    obj = json.loads(run(["replay", str(path), "--json"]).stdout)
    a, b = obj["final"]["A"], obj["final"]["B"]
    assert a + b == 24
    assert obj["winner"] == ("draw" if a == b else "A" if a > b else "B")
    assert f"A {a}, B {b}" in result.output


def test_replay_bad_file_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.klh"
    path.write_text("Rules : classic\n\n1) A: 0 1 B: 7\n2) A: 1 B: 8\n")
    result = run(["replay", str(path)])
    assert_clean(result, 2)
    assert (
        f"Error: {path}: line 4: A's move 1: pit 1 is empty; legal now: 0 2 3 4 5" in result.output
    )
    result = run(["replay", str(tmp_path / "missing.klh")])
    assert_clean(result, 2)
    assert "cannot read" in result.output


def test_perft_json_and_text() -> None:
    obj = json.loads(run(["perft", "--depth", "3", "--json"]).stdout)
    assert obj["depth"] == 3 and obj["nodes"] == 190
    out = run(["perft", "--depth", "2"]).output
    assert "35 sequences" in out
    obj = json.loads(run(["perft", "--depth", "1", "--compound", "--json"]).stdout)
    assert obj["nodes"] == 10  # 0 1..0 5 (5 after the extra turn) plus 1..5


def test_analyse_worked_example() -> None:
    board = "0 0 8 8 8 8 10 0 8 7 7 0 7 1"
    result = run(["analyse", "--board", board, "--to-move", "b", "--depth", "2", "--json"])
    assert_clean(result)
    obj = json.loads(result.stdout)
    assert obj["to_move"] == "B" and not obj["over"]
    assert obj["pv"][0]["pits"] == obj["best"]
    text = run(["analyse", "--board", board, "--to-move", "b", "--depth", "2"]).output
    assert f"Best compound move for B: {' '.join(map(str, obj['best']))}" in text
    assert "Principal variation: B:" in text


def test_analyse_defaults_to_the_start_of_the_board() -> None:
    """Without --board: the start position of --pits x --seeds, --to-move to move; the
    same answer as the start position given with --board."""
    for board_args, start in [
        ([], "6 6 6 6 6 6 0 6 6 6 6 6 6 0"),
        (["--pits", "4", "--seeds", "3"], "3 3 3 3 0 3 3 3 3 0"),
    ]:
        for side in ("a", "b"):
            args = ["analyse", "--depth", "3", "--to-move", side, "--json"]
            default = json.loads(run([*args, *board_args]).stdout)
            given = json.loads(run([*args, "--board", start]).stdout)
            assert default["board"] == [int(x) for x in start.split()]
            assert default["to_move"] == side.upper()
            for key in ("best", "value", "pv", "depth", "exact"):
                assert default[key] == given[key], key


def test_analyse_finished_position() -> None:
    result = run(["analyse", "--board", "0 0 0 0 0 0 30 1 2 3 0 0 0 36", "--json"])
    obj = json.loads(result.stdout)
    assert obj["over"] and obj["final"] == {"A": 30, "B": 42}


def test_ctrl_c_while_the_program_thinks_keeps_the_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import boardgames.kalah.play.program as program

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(program, "program_compound", interrupted)
    record = tmp_path / "g.klh"
    result = run(["play", "--record", str(record)], "0\n1\n")
    assert_clean(result)  # (a real Ctrl-C also makes the status 130: the CLI's watch)
    assert "Game stopped. The record so far is saved in" in result.output
    assert read_record(record).moves[0].pits == (0, 1)


def test_two_humans(tmp_path: Path) -> None:
    record = tmp_path / "g.klh"
    result = run(["play", "--b", "human", "--record", str(record)], "2\n7\nundo\n8\nquit\n")
    assert_clean(result)
    out = result.output
    assert "A to move (0 1 2 3 4 5)" in out and "B to move (7 8 9 10 11 12)" in out
    assert "Took back the last move." in out
    assert [m.pits for m in read_record(record).moves] == [(2,), (8,)]


def test_a_record_that_becomes_unwritable_is_kept_elsewhere_and_the_status_is_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import boardgames.core.files as files

    calls = {"n": 0}
    real_write = files.write_atomic

    def flaky_write(path: object, data: bytes) -> None:
        calls["n"] += 1
        if calls["n"] > 2 and Path(str(path)).name == "g.klh":  # the disk of the record only
            raise OSError(28, "No space left on device")
        real_write(path, data)  # type: ignore[arg-type]

    monkeypatch.setattr(files, "write_atomic", flaky_write)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    tempfile.tempdir = None  # (gettempdir reads TMPDIR again)
    try:
        path = tmp_path / "g.klh"
        result = run(["play", "--depth", "1", "--record", str(path)], "0\n1\nquit\n")
    finally:
        tempfile.tempdir = None
    assert result.exit_code == 1 and "Traceback" not in result.output
    err = " ".join(result.stderr.split())
    assert err.count("Cannot write the record") == 1  # said once, on stderr
    assert "No space left on device; the game goes on, its record kept in memory." in err
    assert "Cannot write" not in result.stdout
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("boardgames-game-")]
    assert len(kept) == 1  # the record, saved in the temporary folder at the end
    out = "".join(result.stdout.split())  # a long path may be wrapped anywhere
    assert f"itissavedin{kept[0]}instead." in out
    assert err.endswith(
        f"Error: the record could not be written to {path} (No space left on device); it is "
        f"saved in {kept[0]} instead"
    )
    assert "1) A: 0" in kept[0].read_text(encoding="utf-8")


def test_analyse_finished_draw() -> None:
    result = run(["analyse", "--board", "0 0 0 0 0 0 36 0 0 0 0 0 6 30"])
    assert_clean(result)
    assert "The game is over: A 36, B 36: a draw." in result.output


def test_more_than_half_is_announced_once() -> None:
    """Kalah's commentary says so on the sowing that gives a store more than half of the
    stones (RULES.md 1.5), and not again after it."""
    from boardgames.core.commentary import remark

    game = Kalah()
    under = game.make_state([1, 1, 1, 1, 1, 1, 30, 1, 1, 1, 1, 1, 1, 30], 0)
    still = game.make_state([1, 1, 1, 1, 1, 1, 31, 1, 1, 1, 1, 1, 1, 29], 1)
    over = game.make_state([1, 1, 1, 1, 1, 1, 37, 1, 1, 1, 1, 1, 1, 23], 1)
    again = game.make_state([1, 1, 1, 1, 1, 1, 38, 1, 1, 1, 1, 1, 1, 22], 0)
    assert remark(game, under, 0, still) is None  # 31 of 72 is not more than half
    expected = "A has more than half of the stones (37 of 72) and can no longer lose;"
    assert remark(game, under, 5, over) == expected + " playing on for the score."
    assert remark(game, over, 5, again) is None  # said once


def test_undo_after_an_extra_turn_takes_back_only_the_sowing(tmp_path: Path) -> None:
    # 0 ends in A's store (extra turn): the program has not replied yet
    result = run(["play", "--depth", "1", "--record", str(tmp_path / "g.klh")], "0\nundo\nquit\n")
    assert "Took back your last move." in result.output
    assert "and my reply" not in result.output


@pytest.mark.parametrize("command", ["analyse", "solve"])
def test_board_takes_the_position_as_analyse_kalah_writes_it(command: str) -> None:
    """``analyse kalah --json`` writes a position with the side to move last ('... B');
    ``kalah analyse/solve --board`` take it as it is (a teacher's review: "'B' is not a
    stone count")."""
    generic = ["analyse", "kalah", "1 1 0 1 1 0 B", "--depth", "2", "--json"]
    written = json.loads(CliRunner().invoke(cli, generic).stdout)["position"]
    assert written == "1 1 0 1 1 0 B"
    extra = ["--depth", "2"] if command == "analyse" else []
    by_letter = run([command, "--board", written, "--json", *extra])
    by_option = run([command, "--board", "1 1 0 1 1 0", "--to-move", "b", "--json", *extra])
    assert by_letter.exit_code == 0, by_letter.output

    def answer(result: Result) -> tuple[object, ...]:  # what is not measured
        found = json.loads(result.stdout)
        return found["to_move"], found["value"], found["best"]

    assert answer(by_letter) == answer(by_option) == ("B", answer(by_option)[1], [4, 3])
    clash = run([command, "--board", written, "--to-move", "a"])
    assert clash.exit_code == 2
    assert "--board ends with B to move, but --to-move says A" in clash.output
