"""Kalah records (kalah/record.py) at the edges the other record tests leave open (issue 22,
mutation testing): header bounds and long numbers, defaults, values with a colon, classic
(Russian) headers, exact messages, and how ``save`` writes and fails."""

from __future__ import annotations

import codecs
import errno
import locale
import os
from pathlib import Path

import pytest

from boardgames.kalah.game import MAX_PITS, MAX_SEEDS, Kalah
from boardgames.kalah.record import Move, Record, RecordError, parse_record, read_record, replay
from tests.conftest import time_limit

PROGRAM_RU = "Программа"
PLAYER_RU = "Игрок"
FIRST_RU = "Первым ходил игрок"


def error(text: str) -> RecordError:
    with pytest.raises(RecordError) as info:
        replay(parse_record(text))
    return info.value


# --- headers -------------------------------------------------------------------------------


def test_largest_board_and_seeds_are_accepted() -> None:
    record = parse_record(f"Pits : {MAX_PITS}\nSeeds : {MAX_SEEDS}\n")
    assert (record.game.pits, record.game.seeds) == (MAX_PITS, MAX_SEEDS)
    assert error(f"Pits : {MAX_PITS + 1}\n").line == 1


def test_numbers_of_up_to_nine_digits_are_read() -> None:
    """Leading zeros are digits too: nine digits read as a number, ten are beyond every
    limit of a record."""
    assert parse_record("Pits : 000000006\nSeeds : 000000003\n").game == Kalah(6, 3)
    assert str(error("Pits : 0000000006\n")) == (
        "line 1: Pits must be a whole number from 1 to 12, got '0000000006'"
    )


def test_missing_headers_take_the_defaults() -> None:
    record = parse_record("Pits : 4\n")
    assert record.first == 0  # A, with no move to tell otherwise
    assert record.players == ("?", "?")
    assert record.game == Kalah(4, 6)
    assert record.final is None and record.notes == []


def test_first_mover_comes_from_the_first_move_line_when_no_header_says() -> None:
    record = parse_record("Pits : 6\n1) B: 8\n")  # 6 stones from pit 8 end in A's pit 0
    assert record.first == 1
    steps, state = replay(record)
    assert [s.player for s in steps] == [1]
    assert record.game.to_move(state) == 0


def test_values_may_hold_a_colon() -> None:
    record = parse_record("Player A : Ann: the champion\nNote : played at 12:30\n")
    assert record.players == ("Ann: the champion", "?")
    assert record.notes == ["played at 12:30"]


def test_classic_player_names_other_than_the_two_kinds_stay_as_written() -> None:
    record = parse_record(f"{PLAYER_RU} A : Иван\n{PLAYER_RU} B : {PROGRAM_RU}\n")
    assert record.players == ("Иван", f"program ({PROGRAM_RU})")


def test_a_header_given_in_both_languages_names_both_spellings() -> None:
    message = str(error(f"First : A\n{FIRST_RU} A\n"))
    assert message == (
        "line 2: the header 'Первым ходил игрок' again (first on line 1 as 'First'); "
        "give each header once"
    )


# --- messages ------------------------------------------------------------------------------


def test_a_file_level_error_has_no_line_number() -> None:
    e = error("")
    assert e.line is None
    assert str(e).startswith("an empty record: no headers and no moves")


def test_move_line_order_messages() -> None:
    """The first line may hold B alone (B starts); any later line must be 'A: ... B: ...'."""
    assert str(error("Pits : 6\n1) B: 7 A: 0\n")) == (
        "line 2: a move line holds 'A: ... B: ...' or 'B: ...' in that order"
    )
    assert str(error("Pits : 6\n1) A: 0 B: 7\n2) B: 8\n")) == (
        "line 3: a move line holds 'A: ... B: ...' in that order"
    )


def test_a_bad_compound_move_is_quoted_pit_by_pit() -> None:
    assert str(error("Pits : 6\n1) A: 0 0 B: 7\n")) == (
        "line 2: A's move 0 0: pit 0 is empty; legal now: 1 2 3 4 5"
    )


# --- writing -------------------------------------------------------------------------------


def test_text_names_each_player_on_its_own_line() -> None:
    text = Record(players=("Ann", "Bob")).text()
    assert "Player A : Ann\nPlayer B : Bob\n" in text
    assert parse_record(text).players == ("Ann", "Bob")


def test_save_errors_say_what_is_wrong(tmp_path: Path) -> None:
    with pytest.raises(OSError) as info:
        Record().save("")
    assert (info.value.errno, info.value.strerror) == (errno.EINVAL, "no file name given")
    folder = str(tmp_path)
    with pytest.raises(OSError) as info:
        Record().save(folder)
    e = info.value
    assert (e.errno, e.strerror, e.filename) == (errno.EISDIR, os.strerror(errno.EISDIR), folder)


def test_save_replaces_the_file_in_one_step(tmp_path: Path) -> None:
    """A reader that opened the old record goes on reading the old record, whole; the
    next reader gets the new one (the file was replaced, not rewritten in place)."""
    path = tmp_path / "game.klh"
    Record(Kalah(4, 3)).save(path)
    old = path.read_text(encoding="utf-8")
    with open(path, encoding="utf-8") as reader:
        Record(Kalah(5, 2)).save(path)
        assert reader.read() == old
    assert read_record(path).game == Kalah(5, 2)


def test_a_failed_write_reports_its_own_error(tmp_path: Path, monkeypatch) -> None:
    """A full disk (simulated: the write fails before a byte is written) is reported as
    that, the old record stays and no temporary file is left."""
    path = tmp_path / "game.klh"
    Record(Kalah(4, 3)).save(path)

    def full_disk(self: Path, *args: object, **kwargs: object) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(self))

    monkeypatch.setattr(Path, "write_text", full_disk)
    with pytest.raises(OSError) as info:
        Record(Kalah(5, 2)).save(path)
    assert info.value.errno == errno.ENOSPC
    monkeypatch.undo()
    assert read_record(path).game == Kalah(4, 3)
    assert [p.name for p in tmp_path.iterdir()] == ["game.klh"]


def test_records_are_utf8_whatever_the_locale(tmp_path: Path) -> None:
    """With an ASCII locale (LC_CTYPE=C), a record with Cyrillic text is still written, as
    UTF-8, to a file and to a stream (a pipe, as ``--record /dev/stdout`` would be)."""
    old = locale.setlocale(locale.LC_CTYPE)
    locale.setlocale(locale.LC_CTYPE, "C")
    try:
        if codecs.lookup(locale.getencoding()).name != "ascii":
            pytest.skip("the C locale is not ASCII here (UTF-8 mode?)")
        record = Record(players=(PROGRAM_RU, "human"))
        path = tmp_path / "ru.klh"
        record.save(path)
        read, write = os.pipe()
        try:
            record.save(f"/dev/fd/{write}")
        finally:
            os.close(write)
        with os.fdopen(read, "rb") as stream:
            piped = stream.read()
    finally:
        locale.setlocale(locale.LC_CTYPE, old)
    line = f"Player A : {PROGRAM_RU}\n".encode()
    assert line in path.read_bytes()
    assert line in piped


# --- round 2 (issue 22): the survivors of the first mutation run ----------------------------

# A whole game on 4 pits of 2 seeds, worked by hand (A's pits 0-3, store 4; B's 5-8, store 9):
# A sows pit 0 (2 stones: pits 1, 2); B sows 5 (pits 6, 7); A sows 1 (2, 3, store: again)
# then 2 (3, store, 5, 6); B sows its single stone of 5 into 6; A sows 3 (store, 5, 6, 7)
# and has no stone left, so B keeps its 13: the stores end A 3, B 13.
SHORT_GAME = [Move(0, (0,)), Move(1, (5,)), Move(0, (1, 2)), Move(1, (5,)), Move(0, (3,))]


def test_record_error_keeps_the_line_and_the_reason_apart() -> None:
    e = error("Pits : 6\n1) B: 7 A: 0\n")
    assert e.line == 2
    assert e.reason == "a move line holds 'A: ... B: ...' or 'B: ...' in that order"
    assert str(e) == f"line 2: {e.reason}"
    whole_file = error("")
    assert whole_file.line is None
    assert str(whole_file) == whole_file.reason


@pytest.mark.parametrize(
    ("count", "body"),
    [
        (1, "1) A: 0\n"),
        (2, "1) A: 0 B: 5\n"),
        (3, "1) A: 0 B: 5\n2) A: 1 2\n"),
        (4, "1) A: 0 B: 5\n2) A: 1 2 B: 5\n"),
        (5, "1) A: 0 B: 5\n2) A: 1 2 B: 5\n3) A: 3\n\nFinal : A 3 B 13\n"),
    ],
)
def test_text_pairs_the_moves_line_by_line(count: int, body: str) -> None:
    """A and B share a numbered line; the finished game ends with its final stores."""
    record = Record(Kalah(4, 2), moves=SHORT_GAME[:count])
    record.played_final()  # any first-use cost out of the time limit
    with time_limit(5):
        text = record.text()
    assert text.split("\n\n", 1)[1] == body
    again = parse_record(text)
    assert [(m.player, m.pits) for m in again.moves] == [(m.player, m.pits) for m in record.moves]
    assert again.final == ((3, 13) if count == 5 else None)


def test_a_record_without_moves_reads_back_as_written() -> None:
    record = Record(
        Kalah(5, 3, "etudes"),
        first=1,
        players=("Ann", "Bob"),
        extra_headers={"Event": "club night"},
        notes=["a quiet game"],
    )
    again = parse_record(record.text())
    assert again == record
    assert again.final is None and again.final_line == 0


def test_saving_to_a_folder_names_the_path_as_given(tmp_path: Path) -> None:
    folder = str(tmp_path) + "/"
    with pytest.raises(OSError) as info:
        Record().save(folder)
    assert (info.value.errno, info.value.filename) == (errno.EISDIR, folder)


def test_saving_through_a_symlink_loop_is_an_os_error(tmp_path: Path) -> None:
    """A folder that is a symlink to itself cannot hold a record: OSError (ELOOP), as for
    every other path that cannot be written, and nothing is left behind."""
    (tmp_path / "loop").symlink_to("loop")
    with pytest.raises(OSError) as info:
        Record().save(tmp_path / "loop" / "game.klh")
    assert info.value.errno == errno.ELOOP
    assert [p.name for p in tmp_path.iterdir()] == ["loop"]


def test_a_long_file_name_is_saved(tmp_path: Path) -> None:
    """A name of 255 bytes, the most that Linux file systems allow: the temporary file
    the record is written to first must not need a longer one."""
    path = tmp_path / ("g" * 251 + ".klh")
    Record(Kalah(4, 3)).save(path)
    assert read_record(path).game == Kalah(4, 3)
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


def test_a_target_that_links_to_itself_is_an_os_error(tmp_path: Path) -> None:
    """A target that is a symlink to itself: OSError (ELOOP), which the CLI reports in one
    line, never a RuntimeError."""
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    with pytest.raises(OSError) as e:
        Record().save(loop)
    assert e.value.errno == errno.ELOOP
