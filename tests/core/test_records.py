"""The generic game record (core/records.py) of a game begun at a position given as
such: a ``start:`` line and the command's ``--start``, and the moves from there, so that
reading it back gives the same game (a teacher's review: the moves from the game's start
alone replayed another game)."""

from __future__ import annotations

import random
import shlex

import numpy as np
import pytest

from boardgames.core.capabilities import PositionNotation, format_position, parse_position
from boardgames.core.records import own_format, read_record, record_text
from boardgames.core.registry import two_player

NOTATED = sorted(
    n for n, p in two_player().items()
    if isinstance(p.make(), PositionNotation) and own_format(p.make()) is None
)  # fmt: skip


def test_the_games_with_a_generic_record_and_a_notation() -> None:
    assert {"connect4", "nim"} <= set(NOTATED)


@pytest.mark.parametrize("name", NOTATED)
def test_a_record_from_a_given_position_reads_back_as_that_game(name: str) -> None:
    game = two_player()[name].make()
    rng = random.Random(3)
    for _ in range(20):
        start = game.initial_state()
        for _ in range(rng.randrange(1, 4)):
            if not game.legal_moves(start):
                break
            start, _ = game.play(start, rng.choice(game.legal_moves(start)))
        if not game.legal_moves(start):
            continue
        start = parse_position(game, format_position(game, start))  # given as a position
        state, moves = start, []
        for _ in range(rng.randrange(0, 4)):
            if not game.legal_moves(state):
                break
            moves.append(rng.choice(game.legal_moves(state)))
            state, _ = game.play(state, moves[-1])
        text = record_text(game, start, moves, ("a", "b"), before=None)
        header = shlex.split(text.splitlines()[0].removeprefix("# "))
        assert header[header.index("--start") + 1] == format_position(game, start), text
        begin, read = read_record(game, text)
        assert np.array_equal(begin, start) and read == moves, text
        for move in read:
            begin, _ = game.play(begin, move)
        assert np.array_equal(begin, state), text


def test_a_record_from_the_start_has_no_start_line() -> None:
    game = two_player()["nim"].make()
    text = record_text(game, game.initial_state(), [game.legal_moves(game.initial_state())[0]],
                       ("a", "b"), before=None)  # fmt: skip
    assert "start:" not in text and "--start" not in text
