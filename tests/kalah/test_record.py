"""Kalah records (RULES.md section 3): writing, reading back, checking, bad files."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgames.kalah.game import Kalah
from boardgames.kalah.record import Move, Record, RecordError, parse_record, read_record, replay

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


def random_record(rng: random.Random, game: Kalah, first: int, stop: int | None) -> Record:
    """A random game (to the end, or cut after ``stop`` sowings) as a Record."""
    state = game.initial_state(first)
    moves: list[Move] = []
    open_turn = False
    sowings = 0
    while game.legal_moves(state) and (stop is None or sowings < stop):
        player = game.to_move(state)
        pit = rng.choice(game.legal_moves(state))
        state, again = game.play(state, pit)
        sowings += 1
        if open_turn and moves[-1].player == player:
            moves[-1].pits = (*moves[-1].pits, pit)
        else:
            moves.append(Move(player, (pit,)))
        open_turn = again
    return Record(game, first, ("human", "program (depth 2, eval store)"), moves)


@pytest.mark.parametrize("rule_set", ["classic", "etudes"])
@pytest.mark.parametrize("first", [0, 1])
def test_write_read_replay_round_trip(tmp_path: Path, rule_set: str, first: int) -> None:
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
]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=30).map("".join) | st.text(max_size=60))
def test_any_text_gives_a_record_or_a_record_error(text: str) -> None:
    """Reading a file never fails with anything but a RecordError that names a line."""
    try:
        record = parse_record(text)
        replay(record)
    except RecordError as e:
        assert e.line is not None and 1 <= e.line <= max(1, len(text.splitlines()))
