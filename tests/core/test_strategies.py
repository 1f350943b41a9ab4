"""Every numba strategy against the pure-Python reference (core/search.py).

Values must be equal for every strategy; minimax and alphabeta must also visit the same
positions and pick the same move and line (same tree, same tie rule); the others must pick
a move that achieves the value.
"""

from __future__ import annotations

import random

import pytest

from boardgames.core.protocol import Game, State, is_terminal_score
from boardgames.core.search import alphabeta, minimax
from boardgames.core.strategies import (
    STRATEGIES,
    NumbaSearcher,
    numba_searcher,
    run_strategy,
)
from boardgames.kalah.game import Kalah
from boardgames.nim.game import Nim

NUMBA = [name for name, s in STRATEGIES.items() if "numba" in s.engines and s.exact]


def random_positions(game: Game, count: int, seed: int, max_plies: int = 30) -> list[State]:
    """Positions reached by random play (not finished ones, unless the game is tiny)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(max_plies)):
            legal = game.legal_moves(state)
            if not legal:
                break
            state, _ = game.play(state, rng.choice(legal))
        out.append(state)
    return out


def value_through(game: Game, state: State, move: int, depth: int, again_is_ply: bool) -> int:
    """The root value of playing ``move`` (reference search of the child, shifted a ply)."""
    child, again = game.play(state, move)
    d = depth if again and not again_is_ply else depth - 1
    v = alphabeta(game, child, d, again_is_ply=again_is_ply).value
    if is_terminal_score(v):
        v = v - 1 if v > 0 else v + 1
    return v if again else -v


KALAH_CASES = [
    (Kalah(6, 4, "classic", "store"), 3, False),
    (Kalah(6, 6, "classic", "tseitin"), 2, False),
    (Kalah(4, 3, "classic", "rechenberg"), 4, True),
    (Kalah(3, 2, "classic", "store"), 6, False),
    (Kalah(6, 6, "etudes", "store"), 3, False),
    (Kalah(5, 4, "etudes", "tseitin"), 3, False),
    (Kalah(4, 3, "etudes", "rechenberg"), 4, False),
    (Kalah(5, 3, "classic", "tseitin", empty_capture=True), 3, False),
]


@pytest.mark.parametrize(("game", "depth", "again_is_ply"), KALAH_CASES)
def test_numba_strategies_equal_python_on_kalah(game: Kalah, depth: int, again_is_ply: bool):
    searcher = NumbaSearcher(game, tt_mib=1)
    seed = game.pits * 100 + game.seeds + depth
    for state in random_positions(game, 6, seed):
        for d in range(depth + 1):
            ref = alphabeta(game, state, d, again_is_ply=again_is_ply)
            for name in NUMBA:
                got = searcher.run(name, state, d, again_is_ply=again_is_ply)
                assert got.value == ref.value, (name, list(state), d)
                if name == "alphabeta":
                    assert (got.best_move, got.pv, got.nodes) == (ref.best_move, ref.pv, ref.nodes)
                elif d > 0 and ref.best_move is not None:
                    assert got.best_move in game.legal_moves(state)
                    through = value_through(game, state, got.best_move, d, again_is_ply)
                    assert through == ref.value, (name, list(state), d)
        mm = minimax(game, state, min(depth, 3), again_is_ply=again_is_ply)
        got = searcher.run("minimax", state, min(depth, 3), again_is_ply=again_is_ply)
        assert (got.value, got.best_move, got.pv, got.nodes) == (
            mm.value,
            mm.best_move,
            mm.pv,
            mm.nodes,
        )


@pytest.mark.parametrize("misere", [False, True])
def test_numba_strategies_equal_python_on_nim(misere: bool) -> None:
    game = Nim((2, 3, 4), misere)
    for state in random_positions(game, 8, 7 + misere, 6):
        for depth in (1, 2, 3, None):
            ref = alphabeta(game, state, depth)
            for name in NUMBA:
                got = run_strategy(name, game, state, depth)
                assert got.value == ref.value, (name, list(state), depth)
                if STRATEGIES[name].fixes_move:
                    assert got.best_move == ref.best_move


@pytest.mark.parametrize("name", [n for n, s in STRATEGIES.items() if "python" in s.engines])
def test_python_engine_runs_every_python_strategy(name: str) -> None:
    game = Kalah(4, 3)
    state = game.initial_state()
    ref = alphabeta(game, state, 4)
    assert run_strategy(name, game, state, 4, engine="python").value == ref.value
    assert run_strategy(name, game, state, 4, engine="numba").value == ref.value


def test_reference_workload_value_and_tree() -> None:
    """Kalah 6x4, A to move, store eval, sowing plies, depth 8: numba = Python, node for node."""
    game = Kalah(6, 4)
    state = game.initial_state()
    ref = alphabeta(game, state, 8, again_is_ply=True)
    got = run_strategy("alphabeta", game, state, 8, again_is_ply=True)
    assert (got.value, got.nodes, got.pv) == (ref.value, ref.nodes, ref.pv)


def test_reference_workload_depth_12_is_plus_6() -> None:
    """The issue's known value: +6 for A at 12 single sowings (OpenSpiel agrees)."""
    game = Kalah(6, 4)
    for name in ("alphabeta", "pvs", "mtdf"):
        assert run_strategy(name, game, game.initial_state(), 12, again_is_ply=True).value == 6


def test_tiny_table_stays_exact() -> None:
    """Collisions and constant replacement in a 2-entry table never change a value."""
    game = Kalah(4, 3, "classic", "tseitin")
    tiny = NumbaSearcher(game, tt_mib=1e-9)
    assert tiny.ws.tt.entries == 2
    for state in random_positions(game, 5, 99):
        ref = alphabeta(game, state, 4).value
        for name in ("tt", "id", "pvs", "mtdf"):
            assert tiny.run(name, state, 4).value == ref


def test_unknown_strategy_or_engine() -> None:
    game = Nim((1, 2))
    with pytest.raises(ValueError, match="unknown strategy"):
        run_strategy("magic", game, game.initial_state(), 2)
    with pytest.raises(ValueError, match="no python engine"):
        run_strategy("pvs", game, game.initial_state(), 2, engine="python")


def test_searcher_is_shared_per_game() -> None:
    assert numba_searcher(Kalah(3, 3)) is numba_searcher(Kalah(3, 3))


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["classic", "etudes"])
@pytest.mark.parametrize("evaluation", ["store", "rechenberg", "tseitin"])
def test_large_sweep_every_strategy_equals_python(rules: str, evaluation: str) -> None:
    """Many boards, positions, depths and both depth units (run with: pytest -m slow)."""
    for pits, seeds in ((2, 3), (3, 3), (4, 4), (5, 3), (6, 4), (6, 6), (8, 2)):
        game = Kalah(pits, seeds, rules, evaluation)
        searcher = NumbaSearcher(game, tt_mib=0.05)
        for state in random_positions(game, 10, pits * seeds, 40):
            for again_is_ply in (False, True):
                for d in range(1, 5):
                    ref = alphabeta(game, state, d, again_is_ply=again_is_ply)
                    for name in NUMBA:
                        if name == "minimax" and d > 3:
                            continue
                        got = searcher.run(name, state, d, again_is_ply=again_is_ply)
                        assert got.value == ref.value, (name, list(state), d, again_is_ply)
                        if name == "alphabeta":
                            assert (got.best_move, got.nodes) == (ref.best_move, ref.nodes)


@pytest.mark.slow
@pytest.mark.parametrize("misere", [False, True])
def test_large_sweep_nim_exact(misere: bool) -> None:
    game = Nim((1, 2, 3, 4), misere)
    for state in random_positions(game, 30, 3 + misere, 8):
        ref = alphabeta(game, state, None)
        for name in NUMBA:
            if name == "minimax" and sum(state[:-1]) > 7:
                continue
            assert run_strategy(name, game, state, None).value == ref.value
