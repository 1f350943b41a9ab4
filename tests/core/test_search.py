"""The reference searches on a small synthetic game whose tree we control completely."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgames.core.protocol import (
    HEURISTIC_LIMIT,
    INFINITY,
    describe_score,
    is_terminal_score,
    score_bound,
    score_margin,
    short_score,
    terminal_score,
)
from boardgames.core.search import alphabeta, alphabeta_tt, minimax


@dataclass(frozen=True)
class TreeGame:
    """A pseudo-random game tree: state = [seed, moves made, player to move].

    Every position has 1 to ``width`` moves; the game ends after ``length`` moves with a
    pseudo-random margin; some moves give the mover another turn (like Kalah's extra turn).
    Positions repeat (transpositions) because the seed only takes ``seeds`` values.
    """

    width: int = 3
    length: int = 6
    seeds: int = 40
    again_every: int = 4
    name: str = "tree"

    def _h(self, *xs: int) -> int:
        return int.from_bytes(hashlib.blake2b(repr(xs).encode(), digest_size=8).digest(), "big")

    def initial_state(self) -> np.ndarray:
        return np.array([0, 0, 0], dtype=np.int64)

    def to_move(self, state: np.ndarray) -> int:
        return int(state[2])

    def legal_moves(self, state: np.ndarray) -> list[int]:
        if self.outcome(state) is not None:
            return []
        return list(range(1 + self._h(int(state[0]), int(state[1])) % self.width))

    def play(self, state: np.ndarray, move: int) -> tuple[np.ndarray, bool]:
        seed, made, player = (int(x) for x in state)
        again = self._h(seed, made, move, 7) % self.again_every == 0 and made + 1 < self.length
        nxt = self._h(seed, made, move) % self.seeds
        child = np.array([nxt, made + 1, player if again else 1 - player], dtype=np.int64)
        return child, again

    def outcome(self, state: np.ndarray) -> int | None:
        if state[1] < self.length:
            return None
        return self._h(int(state[0]), 99) % 7 - 3

    def evaluate(self, state: np.ndarray) -> int:
        return self._h(int(state[0]), int(state[1]), int(state[2]), 5) % 21 - 10

    def format_move(self, move: int) -> str:
        return str(move)

    def parse_move(self, text: str, state: np.ndarray) -> int:
        return int(text)

    def render(self, state: np.ndarray) -> str:
        return str(state)


def brute_force(game: TreeGame, state: np.ndarray, depth: int | None, ply: int = 0) -> int:
    """Negamax written out directly from its definition, for comparison."""
    result = game.outcome(state)
    if result is not None:
        return terminal_score(result, ply)
    if depth == 0:
        return game.evaluate(state)
    values = []
    for move in game.legal_moves(state):
        child, again = game.play(state, move)
        d = depth if depth is None or again else depth - 1
        v = brute_force(game, child, d, ply + 1)
        values.append(v if again else -v)
    return max(values)


games = st.builds(
    TreeGame,
    width=st.integers(1, 4),
    length=st.integers(1, 7),
    seeds=st.integers(1, 60),
    again_every=st.integers(2, 6),
)


@settings(max_examples=60, deadline=None)
@given(game=games, depth=st.one_of(st.none(), st.integers(0, 6)))
def test_all_strategies_agree_with_the_definition(game: TreeGame, depth: int | None) -> None:
    root = game.initial_state()
    expected = brute_force(game, root, depth)
    mm = minimax(game, root, depth)
    ab = alphabeta(game, root, depth)
    tt = alphabeta_tt(game, root, depth)
    assert mm.value == ab.value == tt.value == expected
    # F2 in natural order keeps the first of equally good moves, as minimax does.
    assert ab.best_move == mm.best_move
    assert ab.nodes <= mm.nodes


@settings(max_examples=40, deadline=None)
@given(game=games, depth=st.integers(1, 6))
def test_principal_variation_reaches_the_value(game: TreeGame, depth: int) -> None:
    """Playing the PV out and scoring its last position gives back the root value."""
    root = game.initial_state()
    result = alphabeta(game, root, depth)
    state, sign, d, ply = root, 1, depth, 0
    for move in result.pv:
        assert move in game.legal_moves(state)
        state, again = game.play(state, move)
        ply += 1
        if not again:
            sign, d = -sign, d - 1
    leaf = game.outcome(state)
    value = terminal_score(leaf, ply) if leaf is not None else game.evaluate(state)
    assert sign * value == result.value
    assert leaf is not None or d == 0


def test_extra_turn_keeps_the_sign() -> None:
    """A move after which the same player moves again must not negate the score."""
    game = TreeGame(width=1, length=2, seeds=1, again_every=1)  # every move is "again"
    root = game.initial_state()
    final = root
    final, again = game.play(root, 0)
    assert again and game.to_move(final) == 0
    final, again = game.play(final, 0)
    assert not again and game.to_move(final) == 1  # the game ended: the turn passes
    # A's move then A's final move: one sign flip (at the end), none for the extra turn.
    assert minimax(game, root, None).value == -terminal_score(game.outcome(final), 2)


def test_faster_win_scores_higher_and_margin_first() -> None:
    assert terminal_score(3, 5) > terminal_score(3, 9) > terminal_score(2, 1) > HEURISTIC_LIMIT
    assert terminal_score(-3, 9) > terminal_score(-3, 5)
    assert terminal_score(0, 4) == 0
    s = terminal_score(4, 7)
    assert is_terminal_score(s) and score_margin(s) == 4
    assert describe_score(s, exact=True) == "win by 4 in 7 plies"
    assert describe_score(s) == "win by at least 4"  # not exact: a bound
    assert describe_score(-s) == "loss by at least 4"
    assert describe_score(0, exact=True) == "draw" and describe_score(0) == "+0"
    assert (score_bound(s, False), score_bound(-s, False), score_bound(s, True)) == (
        "lower",
        "upper",
        None,
    )
    assert score_bound(123, False) is None  # a heuristic value bounds nothing
    assert (short_score(s), short_score(-s, True), short_score(-7)) == ("win ≥4", "loss 4", "-7")
    assert describe_score(-terminal_score(2, 5), True) == "loss by 2 in 5 plies"
    assert describe_score(terminal_score(1, 1), True) == "win by 1 in 1 ply"
    assert not is_terminal_score(HEURISTIC_LIMIT - 1) and abs(terminal_score(500, 0)) < INFINITY


@pytest.mark.parametrize("depth", [0, 1, 3])
def test_window_is_fail_hard(depth: int) -> None:
    game = TreeGame(width=3, length=5, seeds=30)
    root = game.initial_state()
    exact = minimax(game, root, depth).value
    low = alphabeta(game, root, depth, alpha=exact + 1, beta=exact + 5).value
    high = alphabeta(game, root, depth, alpha=exact - 5, beta=exact - 1).value
    if depth > 0:
        assert low == exact + 1  # F2 starts from alpha: failing low returns alpha itself
        assert exact - 1 <= high <= exact  # failing high returns a bound between beta and the value
