"""The Kalah board fits a 40-column terminal: the compact layout when the wide one does not."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from boardgames.cli import cli
from boardgames.kalah.game import MAX_PITS, MAX_STONES, MIN_PITS, Board, Kalah

PAIR = re.compile(r"(\d+):\s+(\d+)")
STORE = re.compile(r"([AB])'s store: (\d+)")


def printed(renderable: object, width: int) -> list[str]:
    out = io.StringIO()
    Console(file=out, width=width, no_color=True, highlight=False).print(renderable)
    return out.getvalue().splitlines()


def read_compact(lines: list[str], m: int) -> list[int]:
    """The board back from the compact layout: every pit and both stores, all whole."""
    board = [-1] * (2 * m + 2)
    for line in lines:
        for pit, stones in PAIR.findall(line):
            board[int(pit)] = int(stones)
        for side, stones in STORE.findall(line):
            board[m if side == "A" else 2 * m + 1] = int(stones)
    return board


def test_default_board_wide_on_a_wide_terminal() -> None:
    g = Kalah()
    lines = printed(g.render(g.initial_state()), 100)
    assert any("<- B's pits" in line for line in lines)
    assert any("B's store left, A's store right" in line for line in lines)
    assert lines == str(g.render(g.initial_state())).splitlines()


def test_default_board_compact_on_40_columns() -> None:
    g = Kalah()
    state = g.make_state([0, 0, 8, 8, 8, 8, 10, 0, 8, 7, 7, 0, 7, 1], to_move=1)
    lines = printed(g.render(state, highlight=2), 40)
    assert max(len(line) for line in lines) <= 40
    assert read_compact(lines, 6) == [0, 0, 8, 8, 8, 8, 10, 0, 8, 7, 7, 0, 7, 1]
    assert lines[0] == "B's store: 1"
    assert lines[-1] == "B to move"
    assert "   0:  0 | 12:  7" in lines  # B's pit 12 faces A's pit 0, as on the board
    assert "   5:  8 |  7:  0" in lines


@pytest.mark.parametrize("pits", range(MIN_PITS, MAX_PITS + 1))
def test_every_board_size_fits_40_columns_uncut(pits: int) -> None:
    seeds = min(20, (MAX_STONES - 127) // (2 * pits - 1))
    g = Kalah(pits=pits, seeds=seeds)
    board = [seeds] * pits + [120] + [seeds] * pits + [7]  # a three-digit store
    board[0] = 0
    state = g.make_state(board, to_move=0)
    lines = printed(g.render(state, highlight=pits), 40)
    assert max(len(line) for line in lines) <= 40
    assert read_compact(lines, pits) == board
    assert lines[-1] == ("A to move" if g.outcome(state) is None else "A's store: 120")


@settings(max_examples=60, deadline=None)
@given(
    pits=st.integers(MIN_PITS, MAX_PITS),
    data=st.data(),
    width=st.integers(40, 120),
)
def test_any_position_fits_and_reads_back(pits: int, data: st.DataObject, width: int) -> None:
    cells = 2 * pits + 2
    board = data.draw(st.lists(st.integers(0, MAX_STONES // cells), min_size=cells, max_size=cells))
    if sum(board) == 0:
        board[0] = 1
    to_move = data.draw(st.sampled_from([None, 0, 1]))
    lines = printed(Board(board, pits, to_move), width)
    assert max(len(line) for line in lines) <= width
    if any("<- B's pits" in line for line in lines):  # the wide layout: it fit whole
        assert lines == str(Board(board, pits, to_move)).splitlines()
    else:
        assert read_compact(lines, pits) == board


def test_replay_on_a_40_column_terminal(tmp_path: Path) -> None:
    path = tmp_path / "g.klh"
    path.write_text("Pits : 6\n\n1) A: 0 1 B: 7\n2) A: 0\n")
    result = CliRunner().invoke(
        cli, ["kalah", "replay", str(path)], env={"COLUMNS": "40", "NO_COLOR": "1"}
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 40
    assert "A's pits | B's pits" in result.stdout
    assert "B to move" in result.stdout
