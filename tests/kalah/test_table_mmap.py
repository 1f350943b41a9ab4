"""Endgame tables used memory-mapped from their files (``load_cached(..., mmap=True)``):
the same values as the table read into memory, in the lookups and in the solver."""

from __future__ import annotations

import itertools
import mmap
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from boardgames.kalah.exact import endgame, index
from boardgames.kalah.exact.solver import Solver
from boardgames.kalah.game import Kalah


def positions(pits: int, stones: int) -> Iterator[np.ndarray]:
    """Every protocol state with at most ``stones`` stones in the pits (stores empty), for
    both players to move: stars and bars over the 2 * pits pits."""
    cells = 2 * pits
    for n in range(stones + 1):
        for bars in itertools.combinations(range(n + cells - 1), cells - 1):
            parts = np.diff([-1, *bars, n + cells - 1]) - 1
            for mover in (0, 1):
                state = np.zeros(2 * pits + 3, dtype=np.int64)
                state[:pits] = parts[:pits]
                state[pits + 1 : 2 * pits + 1] = parts[pits:]
                state[2 * pits + 2] = mover
                yield state


def mapping_of(array: np.ndarray) -> object:
    """What holds an array's memory at the end of its chain of bases."""
    base: object = array
    while True:
        if isinstance(base, np.ndarray) and base.base is not None:
            base = base.base
        elif isinstance(base, memoryview):
            base = base.obj
        else:
            return base


def test_a_mapped_table_gives_every_value_of_the_table_in_memory(folder: Path) -> None:
    endgame.load_or_build(3, 8)
    copied = endgame.load_cached(3, 8)
    mapped = endgame.load_cached(3, 8, mmap=True)
    assert mapped.mapped and not copied.mapped and mapped.verified is True
    assert isinstance(mapping_of(mapped.table), mmap.mmap)
    assert not isinstance(mapping_of(copied.table), mmap.mmap)
    count = 0
    for state in positions(3, 8):
        assert mapped.value(state) == copied.value(state), state
        count += 1
    assert count == 2 * index.table_entries(3, 8)  # every position, both movers


def test_the_solver_takes_a_mapped_table(folder: Path) -> None:
    endgame.load_or_build(4, 7)
    copied = endgame.load_cached(4, 7)
    mapped = endgame.load_cached(4, 7, mmap=True)
    game = Kalah(4, 2)
    rng = np.random.default_rng(7)
    states = [game.initial_state()]
    for _ in range(3):  # a few positions of random play
        state = game.initial_state()
        for _ in range(int(rng.integers(2, 8))):
            moves = game.legal_moves(state)
            if not moves or game.outcome(state) is not None:
                break
            state, _ = game.play(state, int(rng.choice(moves)))
        states.append(state)
    hits = 0
    for state in states:
        if game.outcome(state) is not None:
            continue
        a = Solver(4, endgame=copied, threads=1).solve(state)
        b = Solver(4, endgame=mapped, threads=1).solve(state)
        assert (a.value, a.best, a.nodes, a.db_hits) == (b.value, b.best, b.nodes, b.db_hits)
        assert a.value == Solver(4, threads=1).solve(state).value
        hits += b.db_hits
    assert hits > 0  # the table was read


def test_load_or_build_maps_what_it_built(folder: Path) -> None:
    built = endgame.build(3, 7)
    table = endgame.load_or_build(3, 7, mmap=True)  # not cached: built, saved, mapped
    assert table.mapped and isinstance(mapping_of(table.table), mmap.mmap)
    assert np.array_equal(table.table, built.table)
    again = endgame.load_or_build(3, 7, mmap=True)  # cached: mapped and verified
    assert again.mapped and again.verified is True
    assert np.array_equal(again.table, built.table)


def test_a_mapped_table_is_never_written_to_its_file(folder: Path) -> None:
    endgame.load_or_build(3, 5)
    path = endgame.cache_path(3, 5, "classic")
    before = path.read_bytes()
    mapped = endgame.load_cached(3, 5, mmap=True)
    mapped.table[:] = 0  # copy-on-write: this process's pages only
    assert path.read_bytes() == before
    assert endgame.load_cached(3, 5).verified is True
