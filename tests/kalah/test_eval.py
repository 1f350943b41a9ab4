"""The three Kalah evaluations: hand-computed values, definitions, bounds."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from boardgames.core.protocol import HEURISTIC_LIMIT
from boardgames.kalah import eval as ev
from boardgames.kalah import rules
from boardgames.kalah.game import MAX_STONES, Kalah

# After A sows 0 from the start (A moves again): 0 7 7 7 7 7 1 | 6 6 6 6 6 6 0.
AFTER_0 = [0, 7, 7, 7, 7, 7, 1, 6, 6, 6, 6, 6, 6, 0]


def test_store() -> None:
    assert ev.store(AFTER_0, 6, 0) == 1
    assert ev.store(AFTER_0, 6, 1) == -1


def test_rechenberg_by_hand() -> None:
    # A's pits (7 stones each, pits 1..5; pit 0 empty -> 0). Activity = own - opp + 7:
    # pit 1: 2 3 4 5 | store | 7 8  -> 4 - 2 + 7 = 9;  pit 2: 3 - 3 + 7 = 7;
    # pit 3: 2 - 4 + 7 = 5;  pit 4: 1 - 5 + 7 = 3;  pit 5: 0 - 6 + 7 = 1.   Da = 25.
    # B's pits (6 each): pit 7: 5 own + store -> 5 + 7 = 12; then 10, 8, 6, 4, 2: Db = 42.
    assert ev.side_activity(AFTER_0, 6, 0) == 25
    assert ev.side_activity(AFTER_0, 6, 1) == 42
    assert ev.rechenberg(AFTER_0, 6, 0) == 1 * 25 - 0 * 42
    assert ev.rechenberg(AFTER_0, 6, 1) == 0 * 42 - 1 * 25


def test_tseitin_by_hand() -> None:
    # H = 72 // 2 + 1 = 37. wa = 1 + 17.3/36 - 40/25, wb = 0 + 17.3/37 - 40/42.
    wa = 1 + 0.48055555555555557 - 1.6
    wb = 0.4675675675675676 - 0.9523809523809523
    assert ev.tseitin(AFTER_0, 6, 0) == 365 == round(1000 * (wa - wb))
    assert ev.tseitin(AFTER_0, 6, 1) == -365


def test_tseitin_edge_cases() -> None:
    # A's store 40 >= H = 37: 17.3 / 0.5. A's pits empty: Da = 0 -> 40 / 0.5.
    b = [0, 0, 0, 40, 2, 2, 2, 26]  # 3 pits, 72 stones
    da, db = 0, ev.side_activity(b, 3, 1)
    expected = (40 + 17.3 / 0.5 - 40.0 / 0.5) - (26 + 17.3 / (37 - 26) - 40.0 / db)
    assert da == ev.side_activity(b, 3, 0)
    assert ev.tseitin(b, 3, 0) == math.floor(1000 * expected + 0.5)


def test_empty_pit_has_no_activity() -> None:
    assert ev.activity(6, 3, 0) == 0


@given(m=st.integers(1, 12), offset=st.data(), stones=st.integers(1, 500))
def test_activity_matches_a_real_sowing(m: int, offset: st.DataObject, stones: int) -> None:
    """The closed form against sowing the pit on an otherwise empty board (both players)."""
    k = offset.draw(st.integers(0, m - 1))
    for player in (0, 1):
        pit = k if player == 0 else m + 1 + k
        board = [0] * (2 * m + 2)
        board[pit] = stones
        rules.sow(board, m, pit, player)
        own = sum(board[i] for i in rules.pit_range(m, player))
        opp = sum(board[i] for i in rules.pit_range(m, 1 - player))
        assert ev.activity(m, k, stones) == own - opp + m + 1
        assert 1 <= ev.activity(m, k, stones) <= 2 * m + 1


@settings(max_examples=200)
@given(
    m=st.integers(1, 12),
    data=st.data(),
    to_move=st.integers(0, 1),
)
def test_values_are_antisymmetric_and_bounded(m: int, data: st.DataObject, to_move: int) -> None:
    holes = data.draw(st.lists(st.integers(0, 40), min_size=2 * m + 2, max_size=2 * m + 2))
    if not 1 <= sum(holes) <= MAX_STONES:
        holes = [1] + [0] * (2 * m + 1)
    swapped = holes[m + 1 :] + holes[: m + 1]  # the same position seen from the other side
    for name, f in ev.EVALUATION_FUNCTIONS.items():
        v = f(holes, m, to_move)
        assert isinstance(v, int)
        assert abs(v) < HEURISTIC_LIMIT // 100, name
        assert f(swapped, m, 1 - to_move) == v, name
        if name != "tseitin":  # rounding of x.5 breaks exact antisymmetry only for tseitin
            assert f(holes, m, 1 - to_move) == -v, name


def test_extreme_boards_stay_inside_the_heuristic_limit() -> None:
    """The largest values the docstring bounds: everything in one store or one pit."""
    m = 12
    for holes in (
        [0] * m + [MAX_STONES] + [0] * (m + 1),
        [0] * m + [MAX_STONES - 1] + [1] + [0] * m,
        [0] * (m - 1) + [1] + [MAX_STONES // 2] + [20] * m + [0],
    ):
        holes = holes + [0] * (2 * m + 2 - len(holes))
        for f in ev.EVALUATION_FUNCTIONS.values():
            for side in (0, 1):
                assert abs(f(holes, m, side)) < 1_000_000


def test_game_uses_the_selected_evaluation() -> None:
    for name, f in ev.EVALUATION_FUNCTIONS.items():
        g = Kalah(evaluation=name)
        s = g.make_state(AFTER_0, 0)
        assert g.evaluate(s) == f(AFTER_0, 6, 0)
