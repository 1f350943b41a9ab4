"""Nim's commands through click's runner (colour off), including scripted whole games."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from boardgames.cli import cli
from boardgames.nim.rules import program_move, winning_moves


def run(args: list[str], text: str | None = None):
    return CliRunner().invoke(cli, args, input=text)


def test_analyse_json_is_the_documented_object() -> None:
    result = run(["nim", "analyse", "3", "4", "5", "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "rows": [3, 4, 5],
        "misere": False,
        "nim_sum": 2,
        "to_move_wins": True,
        "winning_moves": [{"row": 1, "take": 2}],
    }


def test_analyse_shows_the_binary_table_and_the_move() -> None:
    out = run(["nim", "analyse", "3", "4", "5"]).output
    lines = [line.split() for line in out.splitlines()]
    assert ["1", "3", "0", "1", "1"] in lines
    assert ["2", "4", "1", "0", "0"] in lines
    assert ["3", "5", "1", "0", "1"] in lines
    assert ["ones", "2", "1", "2"] in lines
    assert ["parity", "even", "odd", "even"] in lines
    assert "Nim-sum (xor of all rows): 2 (010)" in out
    assert "take 2 from row 1" in out and "wins" in out


def test_analyse_safe_and_misere_positions() -> None:
    out = run(["nim", "analyse", "1", "4", "5"]).output
    assert "loses" in out and "No winning move" in out
    data = json.loads(run(["nim", "analyse", "1", "1", "1", "--misere", "--json"]).stdout)
    assert data["to_move_wins"] is False and data["winning_moves"] == []
    data = json.loads(run(["nim", "analyse", "1", "1", "--misere", "--json"]).stdout)
    assert data["winning_moves"] == [{"row": 1, "take": 1}, {"row": 2, "take": 1}]


def test_analyse_bad_input_is_one_clear_line() -> None:
    for args, message in [
        (["3", "x"], "'x' is not a number of chips"),
        (["3", "²"], "'²' is not a number of chips"),
        (["3", "21"], "row 2 has 21 chips; a row holds 0 to 20"),
        (["1"] * 15, "15 rows given; at most 14"),
        (["--", "3", "-1"], "row 2 has -1 chips"),
        (["3", "-1"], "No such option '-1'"),
        (["3", "--max-chips", "0"], "--max-chips must be between 1 and 1000"),
    ]:
        result = run(["nim", "analyse", *args])
        assert result.exit_code == 2, args
        assert f"Error: {message}" in result.output, result.output
        assert "Traceback" not in result.output
    assert run(["nim", "analyse", "30", "--max-chips", "30", "--json"]).exit_code == 0


def winning_script(rows: tuple[int, ...]) -> tuple[list[str], tuple[int, ...]]:
    """The inputs of a human who always plays Bouton's move (human moves first)."""
    lines = []
    rows = tuple(rows)
    while any(rows):
        move = winning_moves(rows)[0]
        lines.append(f"{move.row + 1} {move.take}")
        rows = move.apply(rows)
        if any(rows):
            rows = program_move(rows)[0].apply(rows)
    return lines, rows


def test_scripted_game_human_wins_and_next_game_is_harder() -> None:
    moves, _ = winning_script((3, 4, 5))
    script = ["nonsense", "9 1", "1 0", "hint", *moves, "y", "quit"]
    result = run(["nim", "play"], "\n".join(script) + "\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "type a row and a count" in out
    assert "there is no row 9; rows are numbered 1 to 3" in out
    assert "row 1 has 3 chips; take 1 to 3" in out
    assert "Hint: 1 2 (take 2 from row 1). Why: row 1 goes 3 -> 1" in out
    assert "I play 3 1 (take 1 from row 3). Why: the nim-sum is 0" in out
    assert "First player wins (margin 1). You win!" in out
    assert "Next game is harder" in out
    assert "Nim with rows 4 5 6" in out
    assert "Goodbye." in out and "Traceback" not in out


def test_program_first_wins_and_explains_with_nim_sums() -> None:
    # Human first on a safe layout loses whatever it does: it takes one chip each time.
    script = ["1 1"] * 10 + ["2 1"] * 10 + ["3 1"] * 10
    result = run(["nim", "play", "1", "2", "3", "--no-escalate"], "\n".join(script) + "\nn\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "I win." in out and "nim-sum" in out and "-> 0 (00)" in out
    result = run(["nim", "play", "3", "4", "5", "--first", "program"], "n\n")
    assert (
        "I play 1 2 (take 2 from row 1). Why: row 1 goes 3 -> 1, nim-sum 2 (010) -> 0 (000)"
        in result.output
    )


def test_undo_and_new_setup() -> None:
    script = ["undo", "2 1", "undo", "new", "0 0", "99", "2 2", "1 2", "quit"]
    out = run(["nim", "play"], "\n".join(script) + "\n").output
    assert "Nothing to undo yet." in out
    assert "Took back your last move and my reply." in out
    assert "row 1 has 0 chips" in out and "row 1 has 99 chips" in out
    assert "Nim with rows 2 2" in out
    assert "Goodbye." in out


def test_end_of_input_leaves_cleanly() -> None:
    for text in ["", "1 1\n", "y\n"]:
        result = run(["nim", "play"], text)
        assert result.exit_code == 0 and "Goodbye." in result.output
        assert "Traceback" not in result.output


def test_misere_game_program_leaves_odd_singletons() -> None:
    result = run(["nim", "play", "2", "1", "1", "--misere", "--first", "program"], "n\n")
    assert "I play 1 1 (take 1 from row 1)" in result.output
    assert "leaving 3 single chips" in result.output


def test_play_rejects_bad_setup() -> None:
    for args, message in [
        (["0", "3"], "row 1 has 0 chips; a row holds 1 to 20 chips"),
        (["3", "a"], "'a' is not a number of chips"),
        (["3", "--first", "nobody"], "Invalid value for '--first'"),
        (["25"], "raise the limit with --max-chips"),
        ([str(r) for r in range(1, 16)], "raise the limit with --max-rows"),
    ]:
        result = run(["nim", "play", *args])
        assert result.exit_code == 2 and message in result.output, result.output
    # a 0 is not a limit to raise; the generic commands have no --max-rows to point to
    assert "--max-chips" not in run(["nim", "play", "0", "3"]).output
    many = " ".join(str(r) for r in range(1, 16))
    for command in (["play", "nim", "--rows", many], ["analyse", "nim", "--rows", many]):
        result = run(command)
        assert result.exit_code == 2 and "15 rows given" in result.output, result.output
        assert "--max-rows" not in result.output


def test_compare_nim_agrees() -> None:
    result = run(["compare", "nim", "3", "4", "5", "--json"])
    data = json.loads(result.stdout)
    assert data["agree"] is True and data["positions"] == 4 * 5 * 6
    assert "Agree on all 120 positions" in run(["compare", "nim", "3", "4", "5"]).output


def test_compare_nim_rows_and_errors() -> None:
    data = json.loads(run(["compare", "nim", "3", "0", "2", "--json"]).stdout)
    assert data["agree"] is True and data["positions"] == 4 * 1 * 3
    result = run(["compare", "nim", "0", "0"])
    assert result.exit_code == 2 and "every row is empty" in result.output
    result = run(["compare", "nim", "--", "3", "-1"])
    assert result.exit_code == 2 and "row 2 has -1 chips" in result.output
    result = run(["compare", "nim", "40", "40", "40", "40"])
    assert result.exit_code == 2 and "exhaustive search is limited to 200,000" in result.output


def test_help_and_nim_do_not_import_numba() -> None:
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from boardgames.cli import cli\n"
        "r = CliRunner()\n"
        "assert r.invoke(cli, ['--help']).exit_code == 0\n"
        "assert r.invoke(cli, ['nim', 'analyse', '3', '4', '5']).exit_code == 0\n"
        "assert r.invoke(cli, ['nim', 'play'], input='1 2\\nquit\\n').exit_code == 0\n"
        "assert 'numba' not in sys.modules, 'numba was imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_every_help_page_works() -> None:
    for args in [[], ["nim"], ["nim", "play"], ["nim", "analyse"], ["compare"], ["compare", "nim"]]:
        result = run([*args, "--help"])
        assert result.exit_code == 0 and "Usage:" in result.output, args


def test_play_keeps_a_record_after_every_move(tmp_path: Path) -> None:
    """``nim play --record FILE``, as ``play nim --record``: the moves and the position
    after each move, kept when the input ends mid-game; a folder is refused."""
    record = tmp_path / "nim.txt"
    result = run(["nim", "play", "3", "4", "5", "--record", str(record)], "1 3\n")
    assert result.exit_code == 0, result.output
    text = record.read_text()
    # the person took row 1's three chips; Bouton answers 3 1 (row 3 down to 4: nim-sum 0)
    assert "moves: 1 3, 3 1" in text and "position: 0 4 4" in text, text
    bad = run(["nim", "play", "--record", str(tmp_path)])
    assert bad.exit_code == 2 and "is a directory" in bad.output
