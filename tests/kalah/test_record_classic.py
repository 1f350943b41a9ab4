"""Records as the classic (Russian) program printed them, and the final-score line.

The game in docs/games/strange-game.txt is the one the classic program's author printed
(issue 18): program against program, classic rules, 6 pits x 6 stones, and his printed
final stores, A 32 and B 40. That score is an outside fact the replay must reach.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgames.cli import cli
from boardgames.kalah.game import Kalah
from boardgames.kalah.record import Move, Record, RecordError, parse_record, read_record, replay

STRANGE_GAME = Path(__file__).parents[2] / "docs" / "games" / "strange-game.txt"
PRINTED_FINAL = (32, 40)  # "в калахе А - 32, в калахе B - 40", as the author printed it
SCORE_LINE = "Камней по окончании игры: в калахе \u0410 - 32, в калахе B - 40"


def strange_text() -> str:
    return STRANGE_GAME.read_text(encoding="utf-8")


def run(args: list[str], text: str | None = None) -> Result:
    return CliRunner().invoke(cli, ["kalah", *args], input=text)


def assert_one_line_error(result: Result, *fragments: str) -> str:
    """Status 2, no traceback, one ``Error:`` line holding every fragment."""
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


# --- the printed game -----------------------------------------------------------------------


def test_the_file_holds_the_printed_game() -> None:
    lines = strange_text().splitlines()
    assert lines[:3] == ["Игрок A : Программа", "Игрок B : Программа", "Первым ходил игрок A"]
    assert lines[4] == "1) A: 0 3 B: 11" and lines[16] == "13) A: 5 4 B: 10 12 11"
    assert lines[-2] == SCORE_LINE  # the kalah letter A is Cyrillic there, B is Latin
    assert lines[-1] == "Партия игралась с MAXLEVEL, равным 5."


def test_the_printed_game_reads_as_it_stands() -> None:
    record = read_record(STRANGE_GAME)
    assert record.game == Kalah(6, 6, "classic")
    assert record.first == 0
    assert record.players == ("program (Программа)", "program (Программа)")
    assert record.final == PRINTED_FINAL and record.final_line == 19
    assert record.notes == ["Партия игралась с MAXLEVEL, равным 5."]
    assert record.extra_headers == {}
    assert len(record.moves) == 26
    assert record.moves[12] == Move(0, (0, 5, 4, 5), 11)  # A's 7th move, a 4-sowing chain


def test_the_printed_game_replays_to_the_printed_score() -> None:
    record = read_record(STRANGE_GAME)
    steps, final = replay(record)
    game = record.game
    assert game.final_stores(final) == PRINTED_FINAL
    assert game.outcome(final) == -8  # B wins by 8
    # the same game sown one pit at a time, without the record module
    state = game.initial_state(0)
    for move in record.moves:
        for pit in move.pits:
            state, _ = game.play(state, pit)
    assert game.board(state) == game.board(final)
    assert [s.player for s in steps] == [0, 1] * 13


def test_bom_and_crlf_are_read_the_same(tmp_path: Path) -> None:
    path = tmp_path / "dos.txt"
    path.write_bytes(b"\xef\xbb\xbf" + strange_text().replace("\n", "\r\n").encode("utf-8"))
    dos, unix = read_record(path), read_record(STRANGE_GAME)
    assert (dos.players, dos.first, dos.moves, dos.final, dos.notes) == (
        unix.players,
        unix.first,
        unix.moves,
        unix.final,
        unix.notes,
    )
    assert replay(dos)[1].tolist() == replay(unix)[1].tolist()


@pytest.mark.parametrize("a", ["A", "\u0410", "а"])
@pytest.mark.parametrize("b", ["B", "\u0412", "в"])
def test_player_letters_may_be_latin_or_cyrillic(a: str, b: str) -> None:
    text = (
        strange_text()
        .replace("Игрок A", f"Игрок {a}")
        .replace("Игрок B", f"Игрок {b}")
        .replace("игрок A", f"игрок {a}")
        .replace("калахе \u0410", f"калахе {a}")
        .replace("калахе B", f"калахе {b}")
    )
    record = parse_record(text)
    assert record.players == ("program (Программа)", "program (Программа)")
    assert record.first == 0 and record.final == PRINTED_FINAL
    replay(record)


def test_human_player_and_b_first() -> None:
    text = "Игрок A : Программа\nИгрок B : Человек\nПервым ходил игрок B\n\n1) B: 7\n"
    record = parse_record(text)
    assert record.players == ("program (Программа)", "human (Человек)")
    assert record.first == 1
    assert replay(record)[0][0].pits == (7,)


def test_a_record_written_back_keeps_everything(tmp_path: Path) -> None:
    record = read_record(STRANGE_GAME)
    path = tmp_path / "strange.klh"
    record.save(path)
    text = path.read_text(encoding="utf-8")
    assert text.splitlines()[-1] == "Final : A 32 B 40"
    assert "Note : Партия игралась с MAXLEVEL, равным 5." in text
    back = read_record(path)
    assert (back.players, back.first, back.notes) == (record.players, 0, record.notes)
    assert [(m.player, m.pits) for m in back.moves] == [(m.player, m.pits) for m in record.moves]
    assert back.final == PRINTED_FINAL
    replay(back)


# --- the final score is checked -------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "stated"),
    [
        ("Камней по окончании игры: в калахе А - 30, в калахе B - 42", "A 30, B 42"),
        ("Камней по окончании игры: в калахе А - 40, в калахе B - 32", "A 40, B 32"),
        ("Final : A 31 B 40", "A 31, B 40"),
    ],
)
def test_a_changed_score_is_an_error_naming_both(line: str, stated: str) -> None:
    text = strange_text().replace(SCORE_LINE, line)
    record = parse_record(text)
    with pytest.raises(RecordError) as info:
        replay(record)
    assert info.value.line == 19
    message = str(info.value)
    assert message.startswith("line 19: ") and "\n" not in message
    assert f"the record's final score is {stated}" in message
    assert "its moves end A 32, B 40" in message


def test_a_score_for_a_game_not_over_is_an_error() -> None:
    text = "Pits : 6\nSeeds : 6\n\n1) A: 0 1 B: 7\n\nFinal : A 36 B 36\n"
    with pytest.raises(RecordError, match=r"^line 6: .*final score is A 36, B 36.*not over"):
        replay(parse_record(text))


@pytest.mark.parametrize(
    ("edit", "line", "reason"),
    [
        (lambda t: t + "14) A: 1\n", 21, "a move line after the final score on line 19"),
        (lambda t: t + "Final : A 32 B 40\n", 21, "a second final score (the first is on line 19)"),
        (lambda t: "Final : A 32 B 40\n" + t, 1, "a final score before the moves"),
        (lambda t: t.replace("- 40", "- forty"), 19, "cannot read the final score"),
        (lambda t: t + "Pits : 6\n", 21, "a header after the moves"),
        (lambda t: t.replace("Игрок B", "Игрок C"), 2, "must be followed by A or B, got 'C'"),
        (lambda t: t.replace("игрок A", "игрок Z"), 3, "must be followed by A or B, got 'Z'"),
        (lambda t: t.replace("игрок A", "игрок B"), 5, "the header says B moves first"),
        (lambda t: "Player A : me\n" + t, 2, "the header 'Игрок A' again (first on line 1 as"),
        (lambda t: "First : A\n" + t, 4, "again (first on line 1 as 'First')"),
        (lambda t: t.replace("B: 10 12 11", "B: 10 12"), 19, "but the game is not over"),
    ],
)
def test_bad_lines_name_line_and_reason(edit: Callable[[str], str], line: int, reason: str) -> None:
    with pytest.raises(RecordError) as info:
        replay(parse_record(edit(strange_text())))
    assert str(info.value).startswith(f"line {line}: "), str(info.value)
    assert reason in str(info.value)


def test_notes_may_come_among_headers_or_after_the_moves() -> None:
    text = "Note : one\nPits : 2\nSeeds : 1\nNote : two\n\n1) A: 1\n\nNote : three\n"
    record = parse_record(text)
    assert record.notes == ["one", "two", "three"]
    assert record.final is None
    replay(record)
    with pytest.raises(RecordError, match=r"^line 10: a move line after the note on line 8"):
        parse_record(text + "\n2) B: 3\n")


def test_the_english_final_line_reads_in_several_spellings() -> None:
    moves = "".join(strange_text().splitlines(keepends=True)[4:17])
    for line in ("Final : A 32 B 40", "Final: A 32, B 40", "final : a - 32, b - 40."):
        record = parse_record(f"{moves}\n{line}\n")
        assert record.final == PRINTED_FINAL
        replay(record)


# --- records the toolkit writes end with the final score --------------------------------------


def sown_stores(game: Kalah, record: Record) -> tuple[int, int] | None:
    """The final stores of the record's moves, sown one pit at a time."""
    state = game.initial_state(record.first)
    for move in record.moves:
        for pit in move.pits:
            state, _ = game.play(state, pit)
    return game.final_stores(state)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    pits=st.integers(1, 8),
    seeds=st.integers(1, 7),
    rule_set=st.sampled_from(["classic", "etudes"]),
    first=st.integers(0, 1),
    cut=st.none() | st.integers(0, 30),
)
def test_written_records_read_back_with_the_same_moves_and_score(
    seed: int,
    pits: int,
    seeds: int,
    rule_set: str,
    first: int,
    cut: int | None,
    random_record,
) -> None:
    game = Kalah(pits, seeds, rule_set)
    record = random_record(random.Random(seed), game, first, cut)
    text = record.text()
    back = parse_record(text)
    assert [(m.player, m.pits) for m in back.moves] == [(m.player, m.pits) for m in record.moves]
    stores = sown_stores(game, record)
    final_lines = [line for line in text.splitlines() if line.startswith("Final")]
    if stores is None:  # an unfinished game has no final line
        assert final_lines == [] and back.final is None
    else:
        assert final_lines == [f"Final : A {stores[0]} B {stores[1]}"]
        assert text.splitlines()[-1] == final_lines[0]
        assert back.final == stores
    _, state = replay(back)  # and the written score checks against the moves
    assert game.final_stores(state) == stores


def test_old_records_without_the_final_line_still_read(random_record) -> None:
    record = random_record(random.Random(7), Kalah(), 0, None)
    text = record.text()
    assert "\nFinal : " in text
    old = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("Final"))
    back = parse_record(old)
    assert back.final is None
    _, state = replay(back)
    assert Kalah().final_stores(state) == sown_stores(Kalah(), record)


def test_a_tampered_written_score_is_caught(tmp_path: Path, random_record) -> None:
    record = random_record(random.Random(11), Kalah(4, 3), 1, None)
    stores = sown_stores(record.game, record)
    assert stores is not None
    a, b = stores
    path = tmp_path / "g.klh"
    record.save(path)
    path.write_text(path.read_text().replace(f"Final : A {a} B {b}", f"Final : A {a + 1} B {b}"))
    with pytest.raises(RecordError, match=f"final score is A {a + 1}, B {b}, but its moves end "):
        replay(read_record(path))


def test_kalah_play_saves_the_final_line(tmp_path: Path) -> None:
    """Two humans play a whole game through the CLI; the saved record ends with the score."""
    game = Kalah(3, 2)
    state, pits_typed = game.initial_state(0), []
    while game.outcome(state) is None:
        pit = game.legal_moves(state)[-1]
        pits_typed.append(pit)
        state, _ = game.play(state, pit)
    stores = game.final_stores(state)
    assert stores is not None
    a, b = stores
    path = tmp_path / "g.klh"
    script = "".join(f"{p}\n" for p in pits_typed)
    args = ["play", "--a", "human", "--b", "human", "--pits", "3", "--seeds", "2"]
    result = run([*args, "--record", str(path)], script)
    assert result.exit_code == 0, result.output
    assert "Game over." in result.output
    assert path.read_text().splitlines()[-1] == f"Final : A {a} B {b}"
    assert read_record(path).final == (a, b)


# --- through the command line ---------------------------------------------------------------


def test_cli_replays_the_printed_game() -> None:
    result = run(["replay", str(STRANGE_GAME)])
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "A: program (Программа), B: program (Программа); A moved first" in out
    assert "Note: Партия игралась с MAXLEVEL, равным 5." in out
    assert "13) B: 10 12 11" in out
    assert "Final score: A 32, B 40: B wins by 8 (as the record's final line says)." in out


def test_cli_replay_json_has_the_notes_and_the_score() -> None:
    result = run(["replay", str(STRANGE_GAME), "--json"])
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert obj["final"] == {"A": 32, "B": 40} and obj["winner"] == "B"
    assert obj["notes"] == ["Партия игралась с MAXLEVEL, равным 5."]
    assert len(obj["moves"]) == 26


@pytest.mark.parametrize(
    ("old", "new", "fragments"),
    [
        (SCORE_LINE, SCORE_LINE.replace("32", "33"), ["line 19:", "A 33, B 40", "A 32, B 40"]),
        (SCORE_LINE, SCORE_LINE.replace("- 32", "- lots"), ["line 19: cannot read the final"]),
        ("Игрок B", "Игрок X", ["line 2:", "must be followed by A or B"]),
        (
            "12) A: 5 3 B: 9",
            "12) A: 5 3 B: 9\nFinal : A 1 B 2",
            ["line 18: a move line after the final score on line 17"],
        ),
    ],
    ids=["score", "unreadable score", "player letter", "move after score"],
)
@pytest.mark.parametrize("command", ["replay", "review"])
def test_cli_bad_lines_are_one_line_errors(
    tmp_path: Path, command: str, old: str, new: str, fragments: list[str]
) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(strange_text().replace(old, new), encoding="utf-8")
    assert_one_line_error(run([command, str(path)]), f"{path}: ", *fragments)


def test_the_installed_command_reports_a_changed_score(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(strange_text().replace("B - 40", "B - 41"), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "boardgames", "kalah", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [
        f"Error: {path}: line 19: the record's final score is A 32, B 41, "
        "but its moves end A 32, B 40"
    ]


@pytest.mark.parametrize(
    "line",
    [
        "Final : A" + " " * 100_000 + "x",
        "Final : A 3" + " \t" * 100_000 + "B x",
        "Event : a" + " " * 100_000 + "x",
        "Камней по окончании игры: в калахе А" + " " * 100_000 + "x",
        "Игрок " + "x " * 100_000,
    ],
    ids=["final", "final tabs", "header", "classic final", "classic player"],
)
def test_long_runs_of_spaces_are_read_quickly(line: str) -> None:
    """A hostile line of 100,000 spaces is refused in linear time (a naive pattern took
    minutes on such lines)."""
    start = time.perf_counter()
    with pytest.raises(RecordError):
        parse_record("Pits : 2\nSeeds : 1\n\n1) A: 1\n" + line + "\n")
    assert time.perf_counter() - start < 5
