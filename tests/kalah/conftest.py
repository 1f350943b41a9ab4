"""Fixtures of the Kalah tests."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from boardgames.kalah.game import Kalah
from boardgames.kalah.record import Move, Record

RandomRecord = Callable[[random.Random, Kalah, int, "int | None"], Record]


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of the test's own ($BOARDGAMES_CACHE, not yet created): tables are
    built and found there, never in the user's cache."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("BOARDGAMES_CACHE", str(cache))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))  # never the real cache
    return cache


@pytest.fixture(scope="session")
def random_record() -> RandomRecord:
    """``random_record(rng, game, first, stop)``: a random game of ``game`` that player
    ``first`` starts (to the end, or cut after ``stop`` sowings), as a Record."""
    return _random_record


def _random_record(rng: random.Random, game: Kalah, first: int, stop: int | None) -> Record:
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
