"""Every "exact" the generic program (core/engine.py) prints, checked against an outside
truth on many positions: Bouton's theorem for Nim, Connect Four's exact solver for small
boards; and a depth-limited won or lost value is worded as a bound ("at least")."""

from __future__ import annotations

import itertools
import random

import pytest

from boardgames.core.engine import candidates, think
from boardgames.core.protocol import is_terminal_score, score_margin
from boardgames.core.registry import make_game
from boardgames.nim.rules import is_safe


@pytest.mark.parametrize("misere", [False, True])
def test_exact_nim_values_agree_with_bouton(misere: bool) -> None:
    game = make_game("nim", rows="3 4 5", misere=misere)
    checked = 0
    for rows in itertools.product(range(4), range(5), range(6)):
        if not any(rows):
            continue
        state = game.state_from_rows(rows)
        answer = think(game, state, seconds=5.0, engine="python")
        assert answer.exact, rows
        assert (answer.value > 0) == (not is_safe(rows, misere)), rows
        assert "at least" not in answer.value_text()
        checked += 1
    assert checked == 4 * 5 * 6 - 1


def test_exact_nim_candidates_agree_with_bouton() -> None:
    game = make_game("nim", rows="3 4 5")
    for rows in [(3, 4, 5), (1, 2, 3), (2, 0, 5), (3, 3, 1)]:
        state = game.state_from_rows(rows)
        for move, answer in candidates(game, state, seconds=5.0, top=20):
            child, _ = game.play(state, move)
            assert answer.exact
            # a move wins exactly when it leaves a safe position (normal play)
            assert (answer.value > 0) == is_safe(game.rows_of(child), False), (rows, move)


def test_exact_connect4_values_agree_with_its_solver() -> None:
    from boardgames.connect4.solver import ReferenceSolver, to_bitboards

    game = make_game("connect4", width=4, height=4)
    reference = ReferenceSolver(4, 4)
    rng = random.Random(4)
    checked = 0
    while checked < 40:
        state = game.initial_state()
        for _ in range(rng.randint(6, 12)):
            legal = game.legal_moves(state)
            if not legal:
                break
            state, _ = game.play(state, rng.choice(legal))
        if game.outcome(state) is not None:
            continue
        answer = think(game, state, seconds=10.0, engine="python")
        assert answer.exact
        score = reference.solve(to_bitboards(game, state))
        assert (score_margin(answer.value) or 0) == score, game.format_position(state)
        checked += 1


def test_a_depth_limited_win_or_loss_is_worded_as_a_bound() -> None:
    game = make_game("connect4")
    state = game.parse_position("112233")  # the first player wins at once in column 4
    answer = think(game, state, depth=2, engine="python")
    assert is_terminal_score(answer.value) and not answer.exact
    assert answer.value_text() == "win by at least 18"
    assert answer.as_json(game)["bound"] == "lower"


@pytest.mark.parametrize(
    ("name", "options"),
    [("connect4", {"width": 4, "height": 4}), ("nim", {"rows": "2 3 4"}), ("kalah", {"pits": 2})],
)
def test_a_depth_limited_search_is_exact_only_when_every_line_ended(
    name: str, options: dict[str, object]
) -> None:
    """A search limited by depth whose every line reached the end of the game is labelled
    exact, and then its value is the value of the search to the end (on many positions, at
    every depth); a search that stopped a line at its horizon is never labelled exact."""
    from boardgames.core.search import alphabeta, alphabeta_tt, minimax

    game = make_game(name, **options)
    rng = random.Random(11)
    exact_seen = bound_seen = 0
    for _ in range(12):
        state = game.initial_state()
        for _ in range(rng.randint(1, 4) if name == "nim" else rng.randint(6, 10)):
            if game.outcome(state) is not None:
                break
            state, _ = game.play(state, rng.choice(game.legal_moves(state)))
        if game.outcome(state) is not None:
            continue
        truth = alphabeta_tt(game, state, None).value
        for depth in range(1, 13):
            for search in (alphabeta_tt, alphabeta):
                r = search(game, state, depth)
                if r.exact:
                    assert r.value == truth, (game.format_position(state), depth, search)
                    exact_seen += 1
                else:
                    bound_seen += 1
            answer = think(game, state, depth=depth, engine="python")
            assert not answer.exact or answer.value == truth
        assert alphabeta_tt(game, state, 60).exact  # deep enough: every line ends
    if name != "kalah":  # minimax is small enough here
        assert minimax(game, game.initial_state(), 1).exact is False
    assert exact_seen and bound_seen
    # a window narrower than the whole range returns a bound, never an exact value
    assert not alphabeta(game, state, 60, alpha=-1, beta=1).exact


@pytest.mark.parametrize("name", ["connect4", "nim"])
def test_a_search_to_a_depth_never_overran_its_time(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A level given as a depth has no time to overrun: however long the search took (on
    a loaded machine; here a clock that jumps 10 s at every look), the answer never says
    it took more than its time. (The page said "It took 8.2 s, more than its time" of a
    depth-2 Connect Four move once; nothing had given it a time.)"""
    import boardgames.core.engine as engine

    clock = itertools.count(0.0, 10.0)
    game = make_game(name)
    state = game.initial_state()
    monkeypatch.setattr(engine.time, "perf_counter", lambda: next(clock))
    answer = think(game, state, depth=2, engine="python")
    assert answer.seconds >= 10.0 and answer.overran is False
