"""The reference searches (core/search.py) on games whose tree we control completely: a
pseudo-random synthetic tree, and small explicit graphs whose node counts, values and
lines are worked out by hand (the table search: its bounds, reuse and move order)."""

from __future__ import annotations

import hashlib
import itertools
import random
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
from tests.core.dag_game import DagGame


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


# --- the table search on small explicit graphs -----------------------------------------
# Small explicit trees (DagGame), built so that a wrong table bound, a wrong node count or
# a wrong depth changes a fact we know by hand.


def plain(*edges: tuple[int, tuple[int, ...]], **values: int) -> DagGame:
    """A DAG without extra turns: ``(node, children)`` pairs, leaf values as ``n5=1``."""
    kids = {node: tuple((c, False) for c in children) for node, children in edges}
    return DagGame(kids, {int(k[1:]): v for k, v in values.items()})


# Root 0 (A) -> 2, 1 (B to move); 2 -> 3, 4; 1 -> 4; 3 -> 5; 4 -> 5, 6 (leaves 5, 6: B to
# move). Node 4 (A to move, 1 ply left) is a transposition. Values for A: 4 is max(-1, 5) =
# 5, 3 is -1, B at 2 picks 3 (-1), B at 1 must allow 4 (5): the root is worth 5 through 1.
# Under 2, after 3 gave -1, node 4 is searched with window (-inf, -1) and cut off at once
# by leaf 5: its table entry only says "at least -1". Taken as exact (or as an upper
# bound), the root would choose -1.
LOWER_BOUND_TREE = plain((0, (2, 1)), (2, (3, 4)), (1, (4,)), (3, (5,)), (4, (5, 6)), n5=1, n6=-5)


def random_dag(rng: random.Random, again: bool) -> tuple[DagGame, int]:
    """A small layered DAG with many transpositions; with ``again``, extra turns and
    finished games inside the tree too. Returns the game and the depth to search."""
    layers = rng.randint(2, 5 if again else 4)
    rows, nxt = [[0]], 1
    for _ in range(layers):
        width = rng.randint(1, 3)
        rows.append(list(range(nxt, nxt + width)))
        nxt += width
    kids = {}
    for upper, lower in itertools.pairwise(rows):
        for node in upper:
            children = rng.sample(lower, min(rng.randint(1, 3), len(lower)))
            kids[node] = tuple((c, again and rng.random() < 0.3) for c in children)
    nodes = [n for row in rows for n in row]
    value = {n: rng.randint(-5, 5) for n in nodes}
    final = {}
    if again:  # a node without children must be a finished game
        final = {n: rng.choice((-3, -1, 1, 2)) for n in nodes[1:] if rng.random() < 0.2}
        final.update({n: rng.choice((-2, 1, 3)) for n in nodes if n not in kids})
    return DagGame(kids, value, final), layers


def test_lower_bound_entry_is_not_the_value() -> None:
    game, root = LOWER_BOUND_TREE, LOWER_BOUND_TREE.initial_state()
    assert minimax(game, root, 3).value == 5
    assert minimax(game, root, 3).best_move == 1
    result = alphabeta_tt(game, root, 3)
    assert (result.value, result.best_move, result.pv) == (5, 1, [1, 4, 6])


def test_node_counts_of_a_hand_counted_tree() -> None:
    """Minimax visits every node of every path: 0, 2, 3, 5, 4, 5, 6, 1, 4, 5, 6 (11).
    Alpha-beta cuts node 4's second leaf under 2 (10); so does the table search, which
    cannot reuse node 4's lower bound under 1 (10)."""
    game, root = LOWER_BOUND_TREE, LOWER_BOUND_TREE.initial_state()
    assert minimax(game, root, 3).nodes == 11
    assert alphabeta(game, root, 3).nodes == 10
    assert alphabeta_tt(game, root, 3).nodes == 10


# Root 0 -> 1, 2; both -> 3 (A to move again, a transposition); 3 -> 4, 5.
EXACT_TREE = plain((0, (1, 2)), (1, (3,)), (2, (3,)), (3, (4, 5)), n4=2, n5=7)


def test_exact_entry_is_reused_and_saves_nodes() -> None:
    """Node 3 is searched exactly under 1 (value -2 for A after the leaves 2, 7 for B), so
    under 2 the table answers at once: 7 nodes. Alpha-beta cuts nothing here (under 2, node
    3 must still show that neither leaf beats -2): 9 nodes, as minimax."""
    game, root = EXACT_TREE, EXACT_TREE.initial_state()
    assert minimax(game, root, 3).nodes == 9
    assert alphabeta(game, root, 3).nodes == 9
    result = alphabeta_tt(game, root, 3)
    assert (result.value, result.nodes, result.best_move) == (-2, 7, 1)
    assert result.pv == [1, 3, 4]
    assert (result.depth, result.strategy) == (3, "tt")


def test_a_table_passed_in_is_filled_and_reused() -> None:
    game, root = EXACT_TREE, EXACT_TREE.initial_state()
    table: dict = {}
    first = alphabeta_tt(game, root, 3, table=table)
    assert len(table) == 4  # nodes 0, 1, 2 and 3; leaves are not stored
    again = alphabeta_tt(game, root, 3, table=table)
    assert again.value == first.value and again.nodes == 1
    assert again.best_move == first.best_move
    fresh = alphabeta_tt(game, root, 3)
    assert fresh.nodes == first.nodes  # without a table passed in, nothing is kept


def test_table_move_is_tried_first() -> None:
    """A shallower search leaves its best move in the table; the deeper search with that
    table tries it first. Root 0 -> 1, 2 (B to move); 1 -> 3, 4; 2 -> 5, 6 (leaf values for
    A). At depth 1 node 2 looks best (9 for A against 0). At depth 2 node 1 is worth 4
    (min of 4, 6) and node 2 only -1 (min of -1, 9). In natural order: 0, 1, 3, 4, then 2
    is cut after leaf 5 (6 nodes). With 2 first: 0, 2, 5, 6, then 1, 3, 4 (7 nodes)."""
    game = DagGame(
        {0: ((1, False), (2, False)), 1: ((3, False), (4, False)), 2: ((5, False), (6, False))},
        {1: 0, 2: -9, 3: 4, 4: 6, 5: -1, 6: 9},
    )
    root = game.initial_state()
    assert alphabeta_tt(game, root, 1).best_move == 2
    natural = alphabeta_tt(game, root, 2)
    assert (natural.value, natural.best_move, natural.nodes) == (4, 1, 6)
    table: dict = {}
    alphabeta_tt(game, root, 1, table=table)
    ordered = alphabeta_tt(game, root, 2, table=table)
    assert (ordered.value, ordered.best_move, ordered.nodes) == (4, 1, 7)


def test_first_of_equal_moves_is_kept() -> None:
    game = plain((0, (1, 2, 3)), n1=3, n2=-5, n3=-5)
    root = game.initial_state()
    for search in (minimax, alphabeta, alphabeta_tt):
        result = search(game, root, 1)
        assert (result.value, result.best_move) == (5, 2), search.__name__


def test_extra_turn_costs_no_ply_unless_asked() -> None:
    """Root 0 -> 1 with an extra turn, 1 -> 2 (leaf value 3 for B), 2 -> 3 (finished, B to
    move, margin 4 for B... seen only by a search that reaches it)."""
    game = DagGame(
        {0: ((1, True),), 1: ((2, False),), 2: ((3, False),)},
        {1: 6, 2: 3},
        {3: 4},
    )
    root = game.initial_state()
    for search in (minimax, alphabeta, alphabeta_tt):
        assert search(game, root, 1).value == -3, search.__name__  # 0 -> 1 is free
        assert search(game, root, 1, again_is_ply=True).value == 6, search.__name__
        assert search(game, root, 2).value == terminal_score(4, 3), search.__name__


def test_terminal_scores_through_the_table_keep_their_ply() -> None:
    """Node 3 (B to move) is reached at ply 1 (0 -> 3) and at ply 2 (0 -> 1 with an extra
    turn, 1 -> 3), both with one ply left; its only move ends the game at node 4 with A
    to move, who loses by 2 (or wins by 1). The table entry made at ply 2 (move 1 comes
    first) must give the ply-1 score when reused: A takes the faster win, the slower loss."""
    for margin in (-2, 1):
        game = DagGame(
            {0: ((1, True), (3, False)), 1: ((3, False),), 3: ((4, False),)},
            {},
            {4: margin},
        )
        root = game.initial_state()
        expected = minimax(game, root, 2)
        result = alphabeta_tt(game, root, 2)
        assert (result.value, result.best_move) == (expected.value, expected.best_move)
        plies = 2 if margin > 0 else 3
        assert expected.value == terminal_score(margin, plies)
        assert expected.best_move == (3 if margin > 0 else 1)


@pytest.mark.parametrize("again", [False, True])
def test_table_search_equals_minimax_on_random_dags(again: bool) -> None:
    """Hundreds of small trees full of transpositions (some with extra turns and finished
    games inside): every bound type of the table gets used and checked."""
    rng = random.Random(22)
    for _ in range(300):
        game, depth = random_dag(rng, again)
        root = game.initial_state()
        expected = minimax(game, root, depth)
        for flag in (False, True):
            mm = minimax(game, root, depth, again_is_ply=flag)
            tt = alphabeta_tt(game, root, depth, again_is_ply=flag)
            assert tt.value == mm.value, (game, flag)
        assert alphabeta_tt(game, root, depth).best_move == expected.best_move


def _edges(kids: dict[int, tuple[int, ...]]) -> dict[int, tuple[tuple[int, bool], ...]]:
    return {node: tuple((c, False) for c in children) for node, children in kids.items()}


# Small trees (found by a search over random DAGs) where a table bound that lies exactly on
# the window's edge (value == beta for a lower bound, == alpha for an upper bound) ends a
# node at once, and where the move kept from a shallower entry orders a fail-low node's
# children. (kids, values, depth) -> (value, minimax nodes, alphabeta nodes, table nodes).
BOUND_TREES = [
    (
        {0: (2, 1), 1: (4,), 2: (3,), 3: (5, 6), 4: (6,), 5: (7,), 6: (7,)},
        {7: 0},
        4,
        (0, 11, 11, 10),
    ),
    (
        {0: (3, 2, 1), 1: (4, 5), 2: (4,), 3: (5,), 4: (6,), 5: (6,)},
        {1: -3, 2: 3, 3: -2, 4: 2, 5: -1, 6: 2},
        3,
        (-2, 12, 10, 9),
    ),
    (
        {0: (2, 1), 1: (4,), 2: (3, 4), 3: (6, 5), 4: (5, 6), 5: (8, 7), 6: (8, 7)},
        {7: 4, 8: 5},
        4,
        (4, 24, 21, 18),
    ),
]


@pytest.mark.parametrize(("kids", "values", "depth", "expected"), BOUND_TREES)
def test_bound_cut_offs_save_nodes(kids, values, depth, expected) -> None:
    game = DagGame(_edges(kids), values)
    root = game.initial_state()
    value, mm_nodes, ab_nodes, tt_nodes = expected
    assert (minimax(game, root, depth).value, minimax(game, root, depth).nodes) == (value, mm_nodes)
    assert (alphabeta(game, root, depth).value, alphabeta(game, root, depth).nodes) == (
        value,
        ab_nodes,
    )
    result = alphabeta_tt(game, root, depth)
    assert (result.value, result.nodes) == (value, tt_nodes)
