"""Kalah's jitted rules against the Python rules (rules.py / game.py), move by move."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgames.core.kernels import AGAIN, NOT_OVER, OVER
from boardgames.kalah import kernels as kk
from boardgames.kalah.eval import EVALUATIONS
from boardgames.kalah.game import Kalah


def _check_position(game: Kalah, state: np.ndarray) -> None:
    """Moves, every child state and extra-turn flag, outcome and all evaluations agree."""
    m = game.pits
    total = int(state[: 2 * m + 2].sum())
    stack = np.zeros((3, len(state)), dtype=np.int64)
    stack[0] = state
    moves = np.zeros((3, m), dtype=np.int64)
    params = kk.make_params(m, game.rules, "store", total, game.empty_capture)
    outcome = game.outcome(state)
    r = kk.result(stack, 0, params)
    assert (None if r == NOT_OVER else r) == outcome
    legal = game.legal_moves(state)
    if outcome is None:
        n = kk.gen_moves(stack, 0, params, moves)
        assert list(moves[0, :n]) == legal
    for name in EVALUATIONS:
        p = kk.make_params(m, game.rules, name, total)
        assert kk.evaluate(stack, 0, p) == Kalah(m, game.seeds, game.rules, name).evaluate(state)
    for move in legal:
        child, again = game.play(state, move)
        got = kk.apply_move(stack, 0, move, params)
        assert list(stack[1]) == list(child), (list(state), move)
        assert (got == AGAIN) == again
        assert (got == OVER) == (game.outcome(child) is not None)


def _check_random_games(game: Kalah, rng: random.Random, games: int) -> None:
    """:func:`_check_position` on every position of ``games`` random games."""
    for _ in range(games):
        state = game.initial_state(rng.randrange(2))
        while True:
            _check_position(game, state)
            legal = game.legal_moves(state)
            if not legal:
                break
            state, _ = game.play(state, rng.choice(legal))


@pytest.mark.parametrize(
    ("pits", "seeds", "rules"),
    [(6, 6, "classic"), (6, 4, "classic"), (4, 3, "classic"), (3, 8, "classic"),
     (1, 5, "classic"), (6, 6, "etudes"), (6, 3, "etudes"), (4, 5, "etudes"),
     (2, 9, "etudes"), (12, 20, "classic"), (12, 20, "etudes")],
)  # fmt: skip
def test_kernels_equal_python_rules_on_random_games(pits: int, seeds: int, rules: str) -> None:
    game = Kalah(pits, seeds, rules)
    rng = random.Random(pits * 1000 + seeds * 10 + len(rules))
    _check_random_games(game, rng, 12)


@settings(max_examples=150, deadline=None)
@given(
    pits=st.integers(1, 7),
    data=st.data(),
    rules=st.sampled_from(["classic", "etudes"]),
    to_move=st.integers(0, 1),
)
def test_kernels_equal_python_rules_on_any_board(pits, data, rules, to_move) -> None:
    """Arbitrary stone distributions (large pits that lap the board, near-empty sides)."""
    board = data.draw(st.lists(st.integers(0, 30), min_size=2 * pits + 2, max_size=2 * pits + 2))
    if sum(board) == 0:
        board[0] = 1
    game = Kalah(pits, 4, rules)
    _check_position(game, game.make_state(board, to_move))


@pytest.mark.parametrize(("pits", "seeds"), [(6, 4), (4, 3), (3, 5)])
def test_empty_capture_variant_equals_python_rules(pits: int, seeds: int) -> None:
    """The 'empty capture' classic variant (a lone last stone is captured even when the
    pit opposite is empty): kernels against game.py on random games."""
    game = Kalah(pits, seeds, "classic", empty_capture=True)
    rng = random.Random(pits * 7 + seeds)
    _check_random_games(game, rng, 10)


@settings(max_examples=60, deadline=None)
@given(pits=st.integers(1, 6), data=st.data(), to_move=st.integers(0, 1))
def test_empty_capture_variant_on_any_board(pits, data, to_move) -> None:
    board = data.draw(st.lists(st.integers(0, 15), min_size=2 * pits + 2, max_size=2 * pits + 2))
    if sum(board) == 0:
        board[0] = 1
    game = Kalah(pits, 4, "classic", empty_capture=True)
    _check_position(game, game.make_state(board, to_move))


def test_worked_example_from_rules_md() -> None:
    """RULES.md 1: A sows 0 then 1 (extra turn), B sows 7, A sows 0 and captures 8."""
    game = Kalah()
    stack = np.zeros((5, 15), dtype=np.int64)
    stack[0] = game.initial_state()
    params = kk.make_params(6, "classic", "store", 72)
    expected = [
        ([0, 7, 7, 7, 7, 7, 1, 6, 6, 6, 6, 6, 6, 0], True),
        ([0, 0, 8, 8, 8, 8, 2, 7, 7, 6, 6, 6, 6, 0], False),
        ([1, 0, 8, 8, 8, 8, 2, 0, 8, 7, 7, 7, 7, 1], False),
        ([0, 0, 8, 8, 8, 8, 10, 0, 8, 7, 7, 0, 7, 1], False),
    ]
    for ply, (move, (board, again)) in enumerate(zip([0, 1, 7, 0], expected, strict=True)):
        assert (kk.apply_move(stack, ply, move, params) == AGAIN) == again
        assert list(stack[ply + 1, :14]) == board


@pytest.mark.parametrize(
    ("game", "depth", "again_is_ply"),
    [
        (Kalah(6, 4, "classic", "store"), 6, True),
        (Kalah(4, 3, "etudes", "rechenberg"), 5, False),
    ],
)
def test_specialised_kernels_search_the_generic_tree(game: Kalah, depth: int, again_is_ply: bool):
    """Plain alpha-beta on the per-board kernels (settings as constants) and on the generic
    ones (settings read from ``params``): the same value, line and node count."""
    from boardgames.core.kernels import build_engine
    from boardgames.core.strategies import NumbaSearcher

    special = NumbaSearcher(game, tt_mib=0.05)
    special.fast_engine = build_engine(
        kk.specialised_kernels(game.pits, game.rules, game.evaluation, game.empty_capture)
    )  # the default board has them anyway; on any other they are still the same tree
    generic = NumbaSearcher(game, tt_mib=0.05)
    generic.fast_engine = build_engine(kk.kernels())
    assert special.fast_engine.kernels.tag != generic.fast_engine.kernels.tag
    rng = random.Random(game.pits * 31 + depth)
    for _ in range(8):
        state = game.initial_state(rng.randrange(2))
        for _ in range(rng.randrange(12)):
            legal = game.legal_moves(state)
            if not legal:
                break
            state, _ = game.play(state, rng.choice(legal))
        for d in range(depth + 1):
            a = special.run("alphabeta", state, d, again_is_ply=again_is_ply)
            b = generic.run("alphabeta", state, d, again_is_ply=again_is_ply)
            assert (a.value, a.pv, a.nodes) == (b.value, b.pv, b.nodes), (list(state), d)


def test_only_the_default_board_gets_specialised_kernels() -> None:
    """One compile a game: every board but the default one searches with the generic
    kernels (plain alpha-beta's specialised ones compile once per board)."""
    from boardgames.core.strategies import kernel_spec

    assert kernel_spec(Kalah(6, 6, "classic", "tseitin")).fast is not None
    assert kernel_spec(Kalah(6, 4, "classic", "store")).fast is not None
    for game in (Kalah(4, 3), Kalah(6, 6, "etudes"), Kalah(6, 4, empty_capture=True)):
        assert kernel_spec(game).fast is None


def test_specialised_kernels_are_tagged_by_their_settings() -> None:
    tags = {
        kk.specialised_kernels(p, r, e, c).tag
        for p in (4, 6)
        for r in ("classic", "etudes")
        for e in ("store", "tseitin")
        for c in (False, True)
    }
    assert len(tags) == 16


def test_plain_alphabeta_never_waits_for_the_boards_own_kernels(monkeypatch) -> None:
    """Issue 47: until a warm-up compiled the kernels specialised to the default board,
    plain alpha-beta searches with the generic kernels (compiled once for every board) and
    a background warm-up of the game is asked for; once they are marked ready, a new
    searcher takes them. Nothing here compiles the specialised kernels."""
    from boardgames.core import strategies, warmup
    from boardgames.core.strategies import NumbaSearcher, fast_marker

    game = Kalah(6, 4, "classic", "store")
    asked: list[str] = []
    monkeypatch.setattr(warmup, "warm_in_background", lambda group: asked.append(group) or True)
    monkeypatch.setattr(warmup, "is_ready", lambda marker: False)
    searcher = NumbaSearcher(game, tt_mib=0.05)
    assert searcher.spec.fast is not None
    assert searcher.plain_engine() is searcher.engine
    assert asked == ["kalah"]
    a = searcher.run("alphabeta", game.initial_state(), 3)  # the generic kernels search
    ref = strategies.run_strategy("alphabeta", game, game.initial_state(), 3, engine="python")
    assert (a.value, a.best_move, a.nodes) == (ref.value, ref.best_move, ref.nodes)

    marker = fast_marker(game, searcher.spec.fast)
    assert marker.startswith("kalah.fast-kalah-") and "-m6-" in marker  # named by its settings
    monkeypatch.setattr(warmup, "is_ready", lambda name: name == marker)
    later = NumbaSearcher(game, tt_mib=0.05)
    engine = later.plain_engine()
    assert engine is not later.engine and engine.kernels.tag == searcher.spec.fast.tag
    assert later.plain_engine() is engine  # chosen once


def test_plain_alphabeta_on_other_boards_is_the_generic_engine(monkeypatch) -> None:
    from boardgames.core import warmup
    from boardgames.core.strategies import NumbaSearcher

    monkeypatch.setattr(warmup, "warm_in_background", lambda group: pytest.fail(group))
    searcher = NumbaSearcher(Kalah(4, 3), tt_mib=0.05)
    assert searcher.plain_engine() is searcher.engine
