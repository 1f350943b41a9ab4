"""Check Bouton's rule against the generic exhaustive search on every reachable position."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from boardgames.core.mcts import MctsSearcher
from boardgames.core.search import alphabeta_tt
from boardgames.nim.game import Nim, decode_move
from boardgames.nim.rules import NimMove, is_safe, winning_moves


@dataclass
class BoutonReport:
    """Outcome of :func:`verify_bouton`."""

    positions: int
    search_nodes: int
    bouton_seconds: float
    search_seconds: float
    mismatches: list[tuple[int, ...]] = field(default_factory=list)

    @property
    def agree(self) -> bool:
        return not self.mismatches

    def as_dict(self) -> dict[str, object]:
        return {
            "positions": self.positions,
            "results": [
                {"method": "bouton", "seconds": self.bouton_seconds, "nodes": self.positions},
                {"method": "search", "seconds": self.search_seconds, "nodes": self.search_nodes},
            ],
            "agree": self.agree,
        }


Step = Callable[[int, int], None]
"""``step(done, total)``: positions finished so far, positions in all."""


def search_verdicts(
    game: Nim, positions: list[tuple[int, ...]], step: Step | None = None
) -> tuple[dict, int]:
    """Win (True) or loss for the player to move in each position, by exhaustive search."""
    table: dict = {}
    nodes = 0
    verdict = {}
    for k, rows in enumerate(positions):
        if step is not None and k % 64 == 0:
            step(k, len(positions))
        result = alphabeta_tt(game, game.state_from_rows(rows), None, table=table)
        nodes += result.nodes
        verdict[rows] = result.value > 0
    return verdict, nodes


def verify_bouton(
    layout: tuple[int, ...], misere: bool = False, step: Step | None = None
) -> BoutonReport:
    """Solve every position with at most ``layout[i]`` chips in row ``i`` by Bouton's rule
    and by exhaustive search; report the positions where verdict or winning moves differ.
    ``step`` hears how far the search got (Bouton's rule takes no time worth showing)."""
    # the game's own layout only sets the number of rows here: positions come from
    # state_from_rows, so empty rows in ``layout`` are fine
    start = tuple(max(r, 1) for r in layout)
    game = Nim(start, misere, max_rows=len(start), max_chips=max(start))
    positions = list(itertools.product(*(range(r + 1) for r in layout)))

    t0 = time.perf_counter()
    bouton = {rows: (not is_safe(rows, misere), winning_moves(rows, misere)) for rows in positions}
    t1 = time.perf_counter()
    wins, nodes = search_verdicts(game, positions, step)
    searched = {}
    for rows in positions:
        moves = [
            NimMove(i, take)
            for i, r in enumerate(rows)
            for take in range(1, r + 1)
            if not wins[NimMove(i, take).apply(rows)]
        ]
        searched[rows] = (wins[rows], moves)
    t2 = time.perf_counter()
    mismatches = [rows for rows in positions if bouton[rows] != searched[rows]]
    return BoutonReport(len(positions), nodes, t1 - t0, t2 - t1, mismatches)


@dataclass
class MctsReport:
    """Outcome of :func:`mcts_against_bouton`: how often MCTS finds a winning move."""

    playouts: int
    searches: int
    bouton_moves: int
    proven: int
    seconds: float
    positions: int

    @property
    def share(self) -> float:
        return self.bouton_moves / self.searches if self.searches else 0.0

    def as_dict(self) -> dict[str, object]:
        return {
            "method": "mcts",
            "playouts": self.playouts,
            "winning_positions": self.positions,
            "searches": self.searches,
            "bouton_moves": self.bouton_moves,
            "proven": self.proven,
            "seconds": self.seconds,
        }


def mcts_against_bouton(
    layout: tuple[int, ...],
    misere: bool = False,
    playouts: int = 1000,
    seeds: int = 1,
    limit: int | None = 500,
    step: Step | None = None,
) -> MctsReport:
    """MCTS (core/mcts.py, ``playouts`` per search, seeds 0 to ``seeds - 1``) on every
    winning position reachable from ``layout`` (at most ``limit`` of them, a seeded
    sample): how many of its moves are winning moves by Bouton's rule, and how many
    searches proved the position (MCTS-Solver). ``step`` hears of every search."""
    import random

    start = tuple(layout)
    game = Nim(tuple(max(r, 1) for r in start), misere, max_rows=len(start), max_chips=max(start))
    winning = [
        rows
        for rows in itertools.product(*(range(r + 1) for r in start))
        if any(rows) and winning_moves(rows, misere)
    ]
    if limit is not None and len(winning) > limit:
        winning = sorted(random.Random(0).sample(winning, limit))
    mcts = MctsSearcher(game)
    mcts.search(game.initial_state(), playouts=4)  # compiled or loaded, untimed
    found = proven = 0
    t0 = time.perf_counter()
    for k, rows in enumerate(winning):
        state = game.state_from_rows(rows)
        good = {(m.row, m.take) for m in winning_moves(rows, misere)}
        for seed in range(seeds):
            if step is not None:
                step(k * seeds + seed, len(winning) * seeds)
            r = mcts.search(state, playouts=playouts, seed=seed)
            found += r.move is not None and decode_move(r.move) in good
            proven += r.proven is not None
    return MctsReport(
        playouts, len(winning) * seeds, found, proven, time.perf_counter() - t0, len(winning)
    )
