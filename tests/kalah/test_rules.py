"""Kalah rules against RULES.md sections 1-2: hand-worked positions and invariants."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgames.core.protocol import GameError
from boardgames.kalah import rules
from boardgames.kalah.game import Kalah


def board(game: Kalah, state: np.ndarray) -> list[int]:
    return game.board(state)


def pos(game: Kalah, holes: str, to_move: int = 0) -> np.ndarray:
    return game.make_state([int(x) for x in holes.split()], to_move)


# --- classic (RULES.md 1) -----------------------------------------------------------------


def test_worked_example_move_by_move() -> None:
    """RULES.md section 1, the worked example from the start of a default game."""
    g = Kalah()
    s = g.initial_state()
    assert board(g, s) == [6] * 6 + [0] + [6] * 6 + [0]
    assert g.legal_moves(s) == [0, 1, 2, 3, 4, 5]
    s, again = g.play(s, 0)
    assert board(g, s) == [0, 7, 7, 7, 7, 7, 1, 6, 6, 6, 6, 6, 6, 0]
    assert again and g.to_move(s) == 0
    s, again = g.play(s, 1)
    assert board(g, s) == [0, 0, 8, 8, 8, 8, 2, 7, 7, 6, 6, 6, 6, 0]
    assert not again and g.to_move(s) == 1
    assert g.legal_moves(s) == [7, 8, 9, 10, 11, 12]
    s, again = g.play(s, 7)
    assert board(g, s) == [1, 0, 8, 8, 8, 8, 2, 0, 8, 7, 7, 7, 7, 1]
    assert not again and g.to_move(s) == 0
    s, again = g.play(s, 0)  # lands in empty pit 1, facing pit 11 with 7: 8 to the store
    assert board(g, s) == [0, 0, 8, 8, 8, 8, 10, 0, 8, 7, 7, 0, 7, 1]
    assert not again and g.to_move(s) == 1


def test_worked_example_compound_moves() -> None:
    g = Kalah()
    moves = dict(g.compound_moves(g.initial_state()))
    assert g.board(moves[(0, 1)]) == [0, 0, 8, 8, 8, 8, 2, 7, 7, 6, 6, 6, 6, 0]
    assert (0,) not in moves  # 0 ends in the store: it is never a whole move on its own


def test_b_extra_turn_exact() -> None:
    g = Kalah()
    s = pos(g, "6 6 6 6 6 6 0 6 6 6 6 6 6 0", 1)
    s, again = g.play(s, 7)  # 6 stones into 8, 9, 10, 11, 12, 13 (B's store)
    assert again and g.to_move(s) == 1
    assert board(g, s) == [6] * 6 + [0] + [0, 7, 7, 7, 7, 7, 1]


def test_capture_for_b() -> None:
    g = Kalah()
    # B sows pit 8 (1 stone) into empty pit 9; pit 9 faces pit 12 - 9 = 3 (5 stones).
    s = pos(g, "1 1 1 5 1 1 0 1 1 0 1 1 1 0", 1)
    s, again = g.play(s, 8)
    assert not again
    assert board(g, s) == [1, 1, 1, 0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 6]


def test_no_capture_when_opposite_pit_is_empty() -> None:
    g = Kalah()
    # A sows pit 0 (1 stone) into empty pit 1, which faces pit 11: empty. Nothing taken.
    s = pos(g, "1 0 3 3 3 3 0 3 3 3 3 0 3 0")
    s, again = g.play(s, 0)
    assert not again
    assert board(g, s) == [0, 1, 3, 3, 3, 3, 0, 3, 3, 3, 3, 0, 3, 0]


def test_no_capture_when_landing_pit_was_not_empty() -> None:
    g = Kalah()
    s = pos(g, "1 2 3 3 3 3 0 3 3 3 3 5 3 0")
    s, _ = g.play(s, 0)
    assert board(g, s) == [0, 3, 3, 3, 3, 3, 0, 3, 3, 3, 3, 5, 3, 0]


def test_no_capture_on_opponents_side() -> None:
    g = Kalah()
    # A's last stone lands in B's empty pit 7: classic rules capture only on the own side.
    s = pos(g, "1 1 1 1 1 2 0 0 4 4 4 4 4 0")
    s, _ = g.play(s, 5)
    assert board(g, s) == [1, 1, 1, 1, 1, 0, 1, 1, 4, 4, 4, 4, 4, 0]


def test_lap_drops_into_start_pit_and_skips_opponents_store() -> None:
    g = Kalah()
    # A sows 15 stones from pit 2: 3 4 5 | 6 | 7..12 | (13 skipped) 0 1 2 3 4 5. That is
    # 3 + 1 + 6 + 5 = 15 ending in pit 4 (the start pit 2 receives one on the lap).
    s = pos(g, "0 0 15 0 0 0 0 1 1 1 1 1 1 0")
    s, again = g.play(s, 2)
    b = board(g, s)
    assert b[13] == 0  # B's store skipped
    assert b[2] == 1  # the emptied start pit got a stone on the lap
    assert b == [1, 1, 1, 2, 2, 1, 1, 2, 2, 2, 2, 2, 2, 0]
    assert not again


def test_thirteen_stone_lap_captures_in_start_pit() -> None:
    g = Kalah()
    # 13 stones from pit 0: 1..5, store, 7..12, then pit 0 again (empty before: it was
    # emptied), facing pit 12 which now holds 1 + 1: capture 1 + 2 = 3.
    s = pos(g, "13 0 0 0 0 0 0 1 1 1 1 1 1 0")
    s, _ = g.play(s, 0)
    assert board(g, s) == [0, 1, 1, 1, 1, 1, 4, 2, 2, 2, 2, 2, 0, 0]


def test_b_skips_a_store() -> None:
    g = Kalah()
    s = pos(g, "1 1 1 1 1 1 0 0 0 0 0 0 9 0", 1)
    s, _ = g.play(s, 12)  # 13, 0..5, (6 skipped), 7, 8
    # Last stone in B's empty pit 8, facing pit 4 (2 stones): B captures 1 + 2.
    assert board(g, s) == [2, 2, 2, 2, 0, 2, 0, 1, 0, 0, 0, 0, 0, 4]


def test_game_end_sweep() -> None:
    g = Kalah()
    # A's last stone goes into A's store and A's side is empty: B's stones go to B's store.
    s = pos(g, "0 0 0 0 0 1 20 3 4 0 0 5 0 10")
    s, again = g.play(s, 5)
    assert not again  # no extra turn once the game is over
    assert board(g, s) == [0] * 6 + [21] + [0] * 6 + [22]
    assert g.legal_moves(s) == []
    assert g.to_move(s) == 1
    assert g.outcome(s) == 22 - 21  # from B's view (B to move)
    assert g.final_stores(s) == (21, 22)


def test_game_end_after_capture_empties_opponent_side() -> None:
    g = Kalah()
    s = pos(g, "1 0 0 0 0 2 10 0 0 0 0 4 0 5")
    s, _ = g.play(s, 0)  # into empty pit 1 facing 11 (4): capture 5; B's side is empty
    assert board(g, s) == [0, 0, 0, 0, 0, 0, 17, 0, 0, 0, 0, 0, 0, 5]
    assert g.outcome(s) == 5 - 17  # B to move


def test_outcome_of_unswept_finished_board() -> None:
    g = Kalah()
    s = pos(g, "0 0 0 0 0 0 30 1 2 3 0 0 0 36", 1)
    assert g.legal_moves(s) == []
    assert g.outcome(s) == 36 + 6 - 30


def test_play_rejects_illegal_moves() -> None:
    g = Kalah()
    s = g.initial_state()
    for bad in (6, 7, 13, -1, 99):
        with pytest.raises(GameError):
            g.play(s, bad)
    s2 = pos(g, "0 1 1 1 1 1 0 1 1 1 1 1 1 0")
    with pytest.raises(GameError):
        g.play(s2, 0)


def test_parse_move_messages() -> None:
    g = Kalah()
    s = pos(g, "0 1 1 1 1 1 0 1 1 1 1 1 1 0")
    assert g.parse_move(" 3 ", s) == 3
    with pytest.raises(GameError, match="pit 0 is empty; legal now: 1 2 3 4 5"):
        g.parse_move("0", s)
    with pytest.raises(GameError, match="not one of A's pits"):
        g.parse_move("9", s)
    with pytest.raises(GameError, match="type the number"):
        g.parse_move("x", s)
    with pytest.raises(GameError, match="type the number"):
        g.parse_move("²", s)  # str.isdigit() is true for it, int() refuses it


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"pits": 0}, "pits must be 1 to 12"),
        ({"pits": 13}, "pits must be 1 to 12"),
        ({"seeds": 0}, "seeds must be 1 to 20"),
        ({"seeds": 21}, "seeds must be 1 to 20"),
        ({"rules": "oware"}, "rules must be one of classic, etudes"),
        ({"evaluation": "best"}, "evaluation must be one of store, rechenberg, tseitin"),
    ],
)
def test_setup_limits(kwargs: dict, message: str) -> None:
    with pytest.raises(GameError, match=message):
        Kalah(**kwargs)


def test_state_layout() -> None:
    g = Kalah(pits=4, seeds=3)
    s = g.initial_state(first=1)
    assert s.dtype == np.int64 and len(s) == 2 * 4 + 3
    assert s.tolist() == [3, 3, 3, 3, 0, 3, 3, 3, 3, 0, 1]


# --- etudes (RULES.md 2) ------------------------------------------------------------------


def test_etudes_no_extra_turn_and_no_classic_capture() -> None:
    g = Kalah(rules="etudes")
    s = g.initial_state()
    s, again = g.play(s, 0)  # ends in A's store: no extra turn
    assert not again and g.to_move(s) == 1
    assert board(g, s) == [0, 7, 7, 7, 7, 7, 1, 6, 6, 6, 6, 6, 6, 0]
    s = pos(g, "1 0 3 3 3 3 0 3 3 3 3 5 3 0")
    s, _ = g.play(s, 0)  # into empty own pit 1 facing 5 stones: no capture in etudes
    assert board(g, s) == [0, 1, 3, 3, 3, 3, 0, 3, 3, 3, 3, 5, 3, 0]


def test_etudes_relay() -> None:
    g = Kalah(rules="etudes")
    # A sows pit 4 (5 stones): 5, store, 7, 8, 9 -> last in B's pit 9 (now 6): nothing.
    # A sows pit 5 (9 stones): store, 7..12, 0, 1 -> last in own pit 1 (held 4, now 5),
    # and stones went into B's pits: relay from pit 1 (5 stones): 2, 3, 4, 5, store ->
    # last in the store: the move ends.
    s = pos(g, "4 4 4 4 4 9 0 5 5 5 5 5 5 0")
    s, again = g.play(s, 5)
    assert not again and g.to_move(s) == 1
    assert board(g, s) == [5, 0, 5, 5, 5, 1, 2, 6, 6, 6, 6, 6, 6, 0]


def test_etudes_relay_needs_a_stone_in_opponents_pits() -> None:
    g = Kalah(rules="etudes")
    # A sows pit 0 (2 stones) into 1, 2; pit 2 held 3: no stone reached B: no relay.
    s = pos(g, "2 1 3 1 1 1 0 4 4 4 4 4 4 0")
    s, _ = g.play(s, 0)
    assert board(g, s) == [0, 2, 4, 1, 1, 1, 0, 4, 4, 4, 4, 4, 4, 0]


def test_etudes_relay_then_capture() -> None:
    g = Kalah(rules="etudes", pits=3)
    # 3 pits: A 0-2, store 3, B 4-6, store 7. A sows pit 2 (4 stones): 3, 4, 5, 6 ->
    # last in B's pit 6 (held 5, now 6): nothing. Instead A sows pit 1 (6 stones):
    # 2, 3, 4, 5, 6, 0 -> last in own pit 0 (held 2, now 3), B got stones: relay pit 0
    # (3 stones): 1, 2, 3 -> last in the store: end.
    s = pos(g, "2 6 4 0 5 5 5 0")
    s, _ = g.play(s, 1)
    assert board(g, s) == [0, 1, 6, 2, 6, 6, 6, 0]
    # Relay ending in a capture: A sows pit 2 (5 stones): 3, 4, 5, 6, 0 -> own pit 0 held
    # 3 (now 4) and B got stones: relay pit 0 (4 stones): 1, 2, 3, 4 -> B's pit 4 held
    # 1 + 1 and now 3: captured; the hole before it is A's store: stop.
    s = pos(g, "3 0 5 0 1 4 4 0")
    s, _ = g.play(s, 2)
    assert board(g, s) == [0, 1, 1, 5, 0, 5, 5, 0]
    assert g.to_move(s) == 1


def test_etudes_capture_chain_backwards() -> None:
    g = Kalah(rules="etudes")
    # A sows pit 3 (6 stones): 4, 5, store, 7, 8, 9. Pits 7, 8, 9 held 1, 2, 1 and now
    # hold 2, 3, 2: pit 9 (last) 2 -> take, pit 8: 3 -> take, pit 7: 2 -> take, then
    # A's store: stop. 7 stones go to A's store (1 from the sowing).
    s = pos(g, "1 1 1 6 1 1 0 1 2 1 5 5 5 0")
    s, _ = g.play(s, 3)
    assert board(g, s) == [1, 1, 1, 0, 2, 2, 8, 0, 0, 0, 5, 5, 5, 0]


def test_etudes_capture_chain_stops_at_a_pit_without_2_or_3() -> None:
    g = Kalah(rules="etudes")
    # A sows pit 5 (4 stones): store, 7, 8, 9. Pits 7, 8, 9 held 4, 1, 2 -> 5, 2, 3:
    # take 9 (3) and 8 (2); pit 7 holds 5: stop.
    s = pos(g, "1 1 1 1 1 4 0 4 1 2 5 5 5 0")
    s, _ = g.play(s, 5)
    assert board(g, s) == [1, 1, 1, 1, 1, 0, 6, 5, 0, 0, 5, 5, 5, 0]


def test_etudes_capture_by_b_can_empty_a_whole_side() -> None:
    g = Kalah(rules="etudes", pits=3)
    # B sows pit 6 (4 stones): store 7, 0, 1, 2 (A's store 3 is skipped... not reached).
    # A's pits held 1, 2, 1 -> 2, 3, 2: all taken, backwards from pit 2 to pit 0.
    s = pos(g, "1 2 1 0 5 5 4 0", 1)
    s, _ = g.play(s, 6)
    # 18 stones, B's store holds 8 (not more than half), but A, to move, has no stone left:
    # B's pits (5 + 5) go to B's store.
    assert board(g, s) == [0, 0, 0, 0, 0, 0, 0, 18]
    assert g.legal_moves(s) == []
    assert g.outcome(s) == 0 - 18


def test_etudes_end_on_more_than_half() -> None:
    g = Kalah(rules="etudes")
    # 72 stones: A's store 36 is exactly half, not more; one more stone ends the game.
    s = pos(g, "0 0 0 0 0 1 36 6 6 6 6 5 6 0")
    assert g.outcome(s) is None
    s, _ = g.play(s, 5)
    assert board(g, s)[6] == 37
    assert g.legal_moves(s) == []
    assert g.outcome(s) == 0 - 37  # B to move; stones left in B's pits count for nobody
    assert g.final_stores(s) == (37, 0)


def test_etudes_end_when_mover_has_no_stones() -> None:
    g = Kalah(rules="etudes")
    # 51 stones. A sows its last stone into its store (11, not more than half): B to
    # move and B has stones, so the game goes on although A's side is empty.
    s = pos(g, "0 0 0 0 0 1 10 5 5 5 5 5 5 10")
    s, _ = g.play(s, 5)
    assert g.outcome(s) is None and g.to_move(s) == 1
    # B sows pit 7 (5 stones) into 8..12: no stone reached A, so no relay. A is to move
    # with no stone: the game is over and B's pits (30) go to B's store.
    s, _ = g.play(s, 7)
    assert board(g, s) == [0, 0, 0, 0, 0, 0, 11, 0, 0, 0, 0, 0, 0, 40]
    assert g.legal_moves(s) == [] and g.to_move(s) == 0
    assert g.outcome(s) == 11 - 40
    assert g.final_stores(s) == (11, 40)


def test_etudes_relay_bound() -> None:
    """The module docstring's claim: every relayed sowing grows the mover's store."""
    import random

    rng = random.Random(7)
    for _ in range(300):
        m = rng.randint(1, 8)
        g = Kalah(pits=m, seeds=rng.randint(1, 8), rules="etudes")
        s = g.initial_state(rng.randint(0, 1))
        while g.legal_moves(s):
            b = g.board(s)
            mover = g.to_move(s)
            store = rules.store_index(m, mover)
            before = b[store]
            sowings, _ = rules.etudes_move(b, m, mover, rng.choice(g.legal_moves(s)))
            assert b[store] - before >= sowings - 1
            s, _ = g.play(s, rng.choice(g.legal_moves(s)))


# --- compound moves -----------------------------------------------------------------------


def sowing_sequences(g: Kalah, state: np.ndarray) -> dict[tuple[int, ...], list[int]]:
    """Every run of one player's sowings until the turn passes, by breadth-first play."""
    player = g.to_move(state)
    done: dict[tuple[int, ...], list[int]] = {}
    frontier = [((), state)]
    while frontier:
        nxt = []
        for seq, s in frontier:
            for mv in g.legal_moves(s):
                child, _ = g.play(s, mv)
                if g.to_move(child) == player and g.outcome(child) is None:
                    nxt.append(((*seq, mv), child))
                else:
                    done[(*seq, mv)] = [*g.board(child), g.to_move(child)]
        frontier = nxt
    return done


@settings(max_examples=40, deadline=None)
@given(
    m=st.integers(1, 6),
    seeds=st.integers(1, 5),
    rule_set=st.sampled_from(rules.RULE_SETS),
    picks=st.lists(st.integers(0, 99), max_size=20),
)
def test_compound_moves_against_sowing_by_sowing(
    m: int, seeds: int, rule_set: str, picks: list[int]
) -> None:
    g = Kalah(m, seeds, rule_set)
    s = g.initial_state()
    for p in picks:
        moves = g.legal_moves(s)
        if not moves:
            break
        s, _ = g.play(s, moves[p % len(moves)])
    compound = g.compound_moves(s)
    keys = [pits for pits, _ in compound]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    expected = sowing_sequences(g, s)
    assert {k: v.tolist() for k, v in compound} == expected
    for pits, child in compound:
        assert np.array_equal(g.play_compound(s, pits), child)
        if rule_set == "etudes":
            assert len(pits) == 1


# --- invariants over random games ---------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    m=st.integers(1, 12),
    seeds=st.integers(1, 20),
    rule_set=st.sampled_from(rules.RULE_SETS),
    first=st.integers(0, 1),
    seed=st.integers(0, 2**32 - 1),
)
def test_random_games_conserve_stones_and_end(
    m: int, seeds: int, rule_set: str, first: int, seed: int
) -> None:
    import random

    rng = random.Random(seed)
    g = Kalah(m, seeds, rule_set)
    s = g.initial_state(first)
    total = 2 * m * seeds
    stores = (0, 0)
    for _ in range(20_000):
        moves = g.legal_moves(s)
        if not moves:
            break
        player = g.to_move(s)
        s, again = g.play(s, rng.choice(moves))
        b = g.board(s)
        assert sum(b) == total and min(b) >= 0
        now = (b[m], b[2 * m + 1])
        assert now[0] >= stores[0] and now[1] >= stores[1]  # stores never lose stones
        stores = now
        assert again == (g.to_move(s) == player)
        if rule_set == "etudes":
            assert not again
    else:
        pytest.fail("game did not end in 20,000 sowings")
    margin = g.outcome(s)
    assert margin is not None
    a, b_ = g.final_stores(s)
    mover = g.to_move(s)
    assert margin == ((a - b_) if mover == 0 else (b_ - a))
    if rule_set == "classic":
        assert a + b_ == total
    else:
        assert a + b_ <= total


def test_equal_stores_is_a_draw() -> None:
    """RULES.md 1.5: equal stores is a draw (margin 0 for either side)."""
    g = Kalah()
    s = pos(g, "0 0 0 0 0 1 35 0 0 0 0 0 6 30")
    s, again = g.play(s, 5)  # A's last stone: 36; A's side is empty: B sweeps 6 -> 36
    assert not again
    assert g.final_stores(s) == (36, 36)
    assert g.outcome(s) == 0


# --- what the move functions return -------------------------------------------------------
# What ``classic_move`` and ``etudes_move`` return, and the final margin of finished boards
# that were not swept.


def cells(text: str) -> list[int]:
    return [int(x) for x in text.split()]


def test_classic_last_stone_in_the_store_that_ends_the_game_gives_no_extra_turn() -> None:
    """A's only stone (pit 5) goes into A's store: normally an extra turn, but A's side is
    now empty, the game is over and B's pits are swept into B's store (RULES.md 1.4)."""
    board = cells("0 0 0 0 0 1 20 1 1 1 0 0 0 24")
    assert rules.classic_move(board, 6, 0, 5) is False
    assert board == cells("0 0 0 0 0 0 21 0 0 0 0 0 0 27")
    assert rules.final_margin(board, 6, 1, rules.CLASSIC) == 6


def test_classic_extra_turn_and_plain_move() -> None:
    board = cells("6 6 6 6 6 6 0 6 6 6 6 6 6 0")
    assert rules.classic_move(board, 6, 0, 0) is True  # RULES.md worked example: 0 ...
    assert rules.classic_move(board, 6, 0, 1) is False  # ... then 1 passes the turn
    assert board == cells("0 0 8 8 8 8 2 7 7 6 6 6 6 0")


def test_etudes_move_counts_its_sowings() -> None:
    # RULES.md 2.2: A sows pit 5 (9 stones), the last lands in A's pit 1 (held 4) after
    # stones went into B's pits: a relay from pit 1 ends in A's store. Two sowings.
    board = cells("4 4 4 4 4 9 0 5 5 5 5 5 5 0")
    assert rules.etudes_move(board, 6, 0, 5) == (2, False)
    assert board == cells("5 0 5 5 5 1 2 6 6 6 6 6 6 0")
    # No stone reaches B's pits: no relay, one sowing.
    board = cells("2 1 3 1 1 1 0 4 4 4 4 4 4 0")
    assert rules.etudes_move(board, 6, 0, 0) == (1, False)


def test_etudes_relay_chain_of_three_sowings() -> None:
    """4 pits (A 0-3, store 4, B 5-8, store 9). A sows pit 2 (8 stones): 3, store, 5-8, 0,
    1 -> pit 1 held 7 and B got stones: relay 1 (8 stones): 2, 3, store, 5-8, 0 -> pit 0
    held 4: relay 0 (5 stones): 1, 2, 3, store, 5 -> B's pit 5 now holds 4: no capture."""
    board = cells("3 7 8 0 0 1 1 0 0 0")
    assert rules.etudes_move(board, 4, 0, 2) == (3, False)
    assert board == cells("0 1 2 3 3 4 3 2 2 0")


def test_etudes_game_over_flag_on_more_than_half() -> None:
    """A's store reaches 25 of 48: the game ends at once; the stones in the pits stay there
    and count for nobody (RULES.md 2.4, 2.5)."""
    board = cells("0 0 0 0 0 2 24 3 3 3 3 3 3 4")
    assert rules.etudes_move(board, 6, 0, 5) == (1, True)
    assert board == cells("0 0 0 0 0 0 25 4 3 3 3 3 3 4")
    assert rules.more_than_half(board, 6)
    # Unswept: B's 19 stones in the pits count for nobody; the margin is 25 - 4.
    assert rules.final_margin(board, 6, 1, rules.ETUDES) == 4 - 25
    assert rules.final_margin(board, 6, 0, rules.ETUDES) == 25 - 4


def test_etudes_game_over_flag_when_the_next_player_has_no_stone() -> None:
    """A sows pit 5 (2 stones): store, B's pit 7 (held 1, now 2): captured. Nobody holds
    more than half of 23, but B (to move) has no stone: A's pits are swept into A's store
    and the game is over (RULES.md 2.4)."""
    board = cells("0 0 0 0 1 2 8 1 0 0 0 0 0 11")
    assert rules.etudes_move(board, 6, 0, 5) == (1, True)
    assert board == cells("0 0 0 0 0 0 12 0 0 0 0 0 0 11")
    assert rules.final_margin(board, 6, 1, rules.ETUDES) == 11 - 12


def test_etudes_margin_of_an_unswept_board_whose_mover_has_no_stone() -> None:
    """B to move with no stone, nobody past half: B's margin counts A's pits for A."""
    board = cells("3 0 2 0 0 0 10 0 0 0 0 0 0 9")
    assert rules.is_over(board, 6, 1, rules.ETUDES)
    assert rules.final_margin(board, 6, 1, rules.ETUDES) == 9 - (10 + 5)
    assert rules.final_margin(board, 6, 0, rules.ETUDES) is None  # A can still move


# --- two edges of the Etudes rules --------------------------------------------------------
# RULES.md section 2: a relay on the one-pit board, and the end of the game when a store
# holds more than half of an odd number of stones.


def test_one_pit_board_relays_after_two_laps() -> None:
    """1 x 6, A sows its 6 stones (A's store, B's pit, B's store skipped, A's pit, twice):
    the last stone lands in A's own pit, which already held 1 from the first lap, after
    stones went into B's pit: a relay (rule 2). The 2 stones go to A's store and B's pit,
    which then holds 9 (no capture). Without the relay A's pit would keep 2 stones."""
    game = Kalah(1, 6, "etudes")
    after, again = game.play(game.initial_state(), 0)
    assert game.board(after) == [0, 3, 9, 0]
    assert not again and game.to_move(after) == 1
    board = [6, 0, 0, 0]  # the same sowing against an empty pit: the relay captures 3
    assert rules.etudes_move(board, 1, 0, 0) == (2, True)  # two sowings; 6 of 6 stones
    assert board == [0, 6, 0, 0]


def test_more_than_half_of_an_odd_total_ends_the_game_whoever_moves() -> None:
    """47 stones (a set-up position), A's store holds 24: more than half (rule 4), so the
    game is over, with B to move as with A to move."""
    game = Kalah(6, 4, "etudes")
    board = [1, 0, 0, 0, 0, 0, 24, 0, 0, 0, 0, 0, 22, 0]
    assert sum(board) == 47
    for to_move, margin in ((0, 24), (1, -24)):
        state = game.make_state(board, to_move)
        assert game.outcome(state) == margin
        assert game.legal_moves(state) == []
    one_short = [2, 0, 0, 0, 0, 0, 23, 0, 0, 0, 0, 0, 22, 0]  # 23 of 47: not more than half
    assert game.outcome(game.make_state(one_short, 1)) is None
