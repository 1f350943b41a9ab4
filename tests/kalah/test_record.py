"""Kalah records (RULES.md section 3): writing, reading back, checking, bad files; and
kalah/record.py at its edges (header bounds, defaults, classic headers, exact messages,
how ``save`` writes and fails)."""

from __future__ import annotations

import codecs
import errno
import locale
import os
import random
import re
import stat
import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgames.kalah.game import MAX_PITS, MAX_SEEDS, Kalah
from boardgames.kalah.record import (
    MAX_RECORD_BYTES,
    Move,
    Record,
    RecordError,
    parse_record,
    read_record,
    replay,
)
from tests.helpers import time_limit

RULES_EXAMPLE = """Rules : classic
Pits : 6
Seeds : 6
Player A : human
Player B : program (depth 5, eval store)
First : A

1) A: 0 1 B: 7
2) A: 0 ...
"""


def test_rules_md_example_reads_and_replays() -> None:
    record = parse_record(RULES_EXAMPLE)
    assert record.players == ("human", "program (depth 5, eval store)")
    assert [(m.player, m.pits) for m in record.moves] == [(0, (0, 1)), (1, (7,)), (0, (0,))]
    steps, final = replay(record)
    assert Kalah().board(final) == [0, 0, 8, 8, 8, 8, 10, 0, 8, 7, 7, 0, 7, 1]
    assert [s.player for s in steps] == [0, 1, 0]


@pytest.mark.parametrize("rule_set", ["classic", "etudes"])
@pytest.mark.parametrize("first", [0, 1])
def test_write_read_replay_round_trip(
    tmp_path: Path, rule_set: str, first: int, random_record
) -> None:
    rng = random.Random(first * 10 + len(rule_set))
    for k in range(25):
        game = Kalah(rng.randint(1, 8), rng.randint(1, 7), rule_set)
        stop = None if k % 3 == 0 else rng.randint(1, 40)
        record = random_record(rng, game, first, stop)
        path = tmp_path / f"g{k}.klh"
        record.save(path)
        back = read_record(path)
        assert back.game == game and back.first == first
        assert [(m.player, m.pits) for m in back.moves] == [
            (m.player, m.pits) for m in record.moves
        ]
        steps, final = replay(back)
        # The replayed final position equals playing the sowings one by one.
        state = game.initial_state(first)
        for m in record.moves:
            for pit in m.pits:
                state, _ = game.play(state, pit)
        assert np.array_equal(final, state)
        assert len(steps) == len(record.moves)
        # a finished game's record states its final score, and it is the replay's
        assert back.final == game.final_stores(state)
        if record.moves:
            first_line = next(ln for ln in path.read_text().splitlines() if ln.startswith("1)"))
            assert first_line.startswith("1) A:" if first == 0 else "1) B:")


def test_record_text_format() -> None:
    record = Record(Kalah(), 1, ("program (depth 3, eval store)", "human"))
    record.moves = [Move(1, (7,)), Move(0, (0, 1)), Move(1, (8, 9)), Move(0, (2,))]
    assert record.text().splitlines()[-3:] == ["1) B: 7", "2) A: 0 1 B: 8 9", "3) A: 2"]
    assert "First : B" in record.text()


def test_comments_blank_lines_and_unknown_headers_are_accepted() -> None:
    text = "# a game\nEvent : club night\n\nPits: 4\nseeds :2\n\n1) A: 0  B: 6\n# end\n"
    record = parse_record(text)
    assert record.game == Kalah(4, 2)
    assert record.extra_headers == {"Event": "club night"}
    assert len(record.moves) == 2


BAD = [
    ("Rules : oware\n", 1, "Rules must be classic or etudes"),
    ("Pits : 13\n", 1, "Pits must be a whole number from 1 to 12"),
    ("Seeds : x\n", 1, "Seeds must be a whole number from 1 to 20"),
    ("First : C\n", 1, "First must be A or B"),
    ("Pits : 6\nthis is not a record\n", 2, "expected a header"),
    ("1) A: 0 1 B: 7\nPits : 6\n", 2, "header after the moves"),
    ("1) A: 0 1 B: 7\n3) A: 2 B: 8\n", 2, "move number 2 expected, found 3"),
    ("\n\n1) A: 0 1\n2) B: 7\n", 3, "only the last line may hold one side"),
    ("1) B: 7 A: 0 1\n", 1, "in that order"),
    ("1) A: 0 x B: 7\n", 1, "'x' is not a pit number"),
    ("1) A: B: 7\n", 1, "A's move has no pits"),
    ("1) A: \u00b2 B: 7\n", 1, "is not a pit number"),
    ("Seeds : \u00b2\n", 1, "Seeds must be a whole number"),
    ("1) 0 1\n", 1, "expected 'A:' or 'B:'"),
    ("First : B\n1) A: 0 1 B: 7\n", 2, "header says B moves first"),
    ("1) A: 0 B: 7\n", 1, "A's move 0 ends with an extra turn"),
    ("1) A: 1 2 B: 7\n", 1, "after 1 the turn passes to B"),
    ("1) A: 0 1 B: 3\n", 1, "pit 3 is not one of B's pits"),
    ("1) A: 0 1 B: 7\n2) A: 1 B: 8\n", 2, "pit 1 is empty"),
    ("Pits : 1\nSeeds : 1\n1) A: 0 B: 2\n", 3, "the game is already over"),
    # a header given twice: neither counts silently
    ("Pits : 6\nPits : 4\n", 2, "the header 'Pits' again (first on line 1)"),
    ("Rules : classic\n\nrules : etudes\n", 3, "the header 'rules' again (first on line 1)"),
    ("Player A : x\nPlayer  a : y\n", 2, "again (first on line 1)"),
    ("Event : one\nEvent : two\n", 2, "the header 'Event' again"),
    # RULES.md writes numbers with the digits 0-9; int() would read these as 3 and 1
    ("Pits : \u0663\n", 1, "Pits must be a whole number from 1 to 12, got '\u0663'"),
    ("1) A: \u0663 B: 8\n", 1, "'\u0663' is not a pit number (pits are written 0-9)"),
    ("\u0661) A: 0 1 B: 7\n", 1, "expected a header such as 'Pits : 6'"),
    # numbers too long for int() (more than 4300 digits) are refused, and not echoed whole
    ("Seeds : " + "9" * 5000 + "\n", 1, "got '999999999999999999999999'... (5,000"),
    ("1) A: " + "1" * 5000 + "\n", 1, "is beyond any board (pits are numbered 0 to 24)"),
    ("9" * 5000 + ") A: 0 1\n", 1, "move number 1 expected, found '9999"),
    ("Rules : " + "x" * 5000 + "\n", 1, "'xxxxxxxxxxxxxxxxxxxxxxxx'... (5,000 characters)"),
    # lines are counted as editors count them: a form feed does not start a line
    ("Pits : 6\f\n1) A: 0 1 B: 7\r\n2) A: 1 B: 8\n", 3, "pit 1 is empty"),
]


@pytest.mark.parametrize(("text", "line", "reason"), BAD)
def test_malformed_records_name_line_and_reason(text: str, line: int, reason: str) -> None:
    with pytest.raises(RecordError) as info:
        replay(parse_record(text))
    assert info.value.line == line
    assert reason in str(info.value)
    assert str(info.value).startswith(f"line {line}: ")


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        read_record(tmp_path / "missing.klh")
    binary = tmp_path / "bin.klh"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(RecordError, match="not a text file"):
        read_record(binary)
    bom = tmp_path / "bom.klh"
    bom.write_bytes("\ufeffRules : classic\nPits : 3\n".encode())
    assert read_record(bom).game.pits == 3  # a byte-order mark is not an error


TOKENS = [
    "1)",
    "2)",
    "3)",
    "A:",
    "B:",
    "0",
    "1",
    "5",
    "7",
    "13",
    "99",
    "...",
    "#",
    ":",
    "Pits",
    "Seeds",
    "Rules",
    "First",
    "classic",
    "etudes",
    "x",
    " ",
    "\n",
    "\n",
    "Pits : 3\n",
    "1) A: 0 1 B: 7\n",
    # the final score, notes and the classic (Russian) program's lines
    "Final : A 3 B 4\n",
    "Final",
    "Note : x\n",
    "Игрок A : Программа\n",
    "Игрок",
    "Первым ходил игрок B\n",
    "Камней по окончании игры: в калахе \u0410 - 32, в калахе B - 40\n",
    "Партия игралась с MAXLEVEL, равным 5.\n",
    "\u0410:",
    "\ufeff",
]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=30).map("".join) | st.text(max_size=60))
def test_any_text_gives_a_record_or_a_record_error(text: str) -> None:
    """Reading a file never fails with anything but a RecordError that names a line."""
    try:
        record = parse_record(text)
        replay(record)
    except RecordError as e:
        if e.line is None:  # a fault of the whole file: binary, or nothing in it
            body = text.removeprefix("\ufeff")  # one byte-order mark is no content
            lines = [line.strip() for line in re.split(r"\r\n|\r|\n", body)]
            assert "\x00" in text or all(not line or line.startswith("#") for line in lines)
        else:
            assert 1 <= e.line <= max(1, len(text.splitlines()))


@pytest.mark.parametrize("text", ["", "\n\n  \n", "# only a comment\n", "\r\n#\r\n"])
def test_a_record_with_neither_headers_nor_moves_is_an_error(text: str) -> None:
    with pytest.raises(RecordError, match="an empty record: no headers and no moves") as info:
        parse_record(text)
    assert info.value.line is None


def test_headers_without_moves_are_a_game_not_yet_begun(tmp_path: Path) -> None:
    # kalah play writes the headers before the first move: a valid record of 0 moves
    path = tmp_path / "new.klh"
    Record(Kalah(4, 3), 1).save(path)
    record = read_record(path)
    assert (record.game, record.first, record.moves) == (Kalah(4, 3), 1, [])
    assert replay(record)[0] == []


def test_empty_file_and_dev_null_are_errors(tmp_path: Path) -> None:
    empty = tmp_path / "empty.klh"
    empty.write_text("")
    for path in (empty, Path(os.devnull)):
        with pytest.raises(RecordError, match="an empty record"):
            read_record(path)
    with pytest.raises(RecordError, match="no file name given"):
        read_record("")
    with pytest.raises(RecordError, match="cannot read it: Is a directory"):
        read_record(tmp_path)
    with pytest.raises(RecordError, match="cannot read it: Not a directory"):
        read_record(empty / "x.klh")


def test_nul_bytes_are_not_a_text_file(tmp_path: Path) -> None:
    path = tmp_path / "nul.klh"
    path.write_bytes(b"Pits : 6\n\x00\x00\n")
    with pytest.raises(RecordError, match="not a text file"):
        read_record(path)


def test_big_files_and_endless_streams_are_refused_after_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "big.klh"
    path.write_text("# padding\n" * (MAX_RECORD_BYTES // 10 + 1))
    with pytest.raises(RecordError, match="more than 2 MiB: too big for a game record"):
        read_record(path)
    # exactly at the limit is still read (and parsed: comments only, so empty)
    path.write_text("#" * (MAX_RECORD_BYTES - 1) + "\n")
    with pytest.raises(RecordError, match="an empty record"):
        read_record(path)
    # an endless stream: only the limit and one byte more are read
    reads: list[int] = []
    real_open = open

    def counting_open(file, mode="r", *args, **kwargs):  # type: ignore[no-untyped-def]
        f = real_open(file, mode, *args, **kwargs)
        real_read = f.read

        def read(size: int = -1) -> bytes:
            assert 0 <= size <= MAX_RECORD_BYTES + 1, "reads a whole (endless) stream"
            reads.append(size)
            return real_read(size)

        f.read = read
        return f

    monkeypatch.setattr("builtins.open", counting_open)
    with pytest.raises(RecordError, match="too big"):
        read_record("/dev/zero")
    assert reads == [MAX_RECORD_BYTES + 1]


def test_save_reports_bad_paths_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    record = Record()
    blocker = tmp_path / "file"
    blocker.write_text("x")
    for bad, reason in [("", errno.EINVAL), (tmp_path, errno.EISDIR), (blocker / "x", None)]:
        with pytest.raises(OSError) as info:
            record.save(bad)
        if reason is not None:
            assert info.value.errno == reason
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_save_writes_into_a_non_regular_file_instead_of_replacing_it(tmp_path: Path) -> None:
    # ``--record /dev/null`` must never replace the device (as root os.replace would);
    # a named pipe stands in for it here
    fifo = tmp_path / "pipe.klh"
    os.mkfifo(fifo)
    received: list[str] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    Record(Kalah(3, 2)).save(fifo)
    reader.join(timeout=10)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert received and "Pits : 3" in received[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe.klh"]


def test_save_through_a_symlink_keeps_the_link(tmp_path: Path) -> None:
    real = tmp_path / "real.klh"
    link = tmp_path / "link.klh"
    link.symlink_to(real)
    Record(Kalah(5, 1)).save(link)
    assert link.is_symlink() and read_record(real).game == Kalah(5, 1)


# --- at the edges ---------------------------------------------------------------------------
# Header bounds and long numbers, defaults, values with a colon, classic (Russian) headers,
# exact messages, and how ``save`` writes and fails.


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


# --- errors, move lines and awkward paths ---------------------------------------------------

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
