"""core/search.selective on small hand-built trees (issue 22, mutation testing follow-up).

Every expected figure (positions examined, depth, value, line) is counted by hand from the
documented rules of the search: the walk takes the best move for the side to move, on a
tie the child with fewer positions below it, then the first; an expansion that does not
fit the budget ends the search; a proven win for the side to move settles a position.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boardgames.core.protocol import State, terminal_score
from boardgames.core.search import alphabeta, selective
from boardgames.kalah.game import Kalah
from boardgames.nim.game import Nim
from tests.core.test_search_mutants import DagGame
from tests.core.test_selective import Counting


def tree(
    edges: dict[int, tuple[int, ...]],
    again: tuple[int, ...] = (),
    value: dict[int, int] | None = None,
    final: dict[int, int] | None = None,
) -> DagGame:
    """A DagGame from ``node: children``; a move to a node in ``again`` is an extra turn."""
    kids = {node: tuple((c, c in again) for c in children) for node, children in edges.items()}
    return DagGame(kids, value or {}, final or {})


# --- the search ends --------------------------------------------------------------------


@dataclass
class Guarded(Counting):
    """A game that fails once a search asks for more moves or plays than ``limit``."""

    limit: int = 3000
    asks: int = 0

    def legal_moves(self, state: State) -> list[int]:
        self.asks += 1
        assert self.asks <= self.limit, "the search does not end"
        return super().legal_moves(state)

    def play(self, state: State, move: int) -> tuple[State, bool]:
        assert self.plays < self.limit, "the search plays past its budget"
        return super().play(state, move)


def test_the_search_ends_within_its_budget() -> None:
    """Each expansion asks for the moves once and plays at least one, so a search of 300
    positions asks at most a few hundred times (here 3,000 is the alarm)."""
    kalah = Kalah(6, 6, "classic", "tseitin")
    for budget in (7, 50, 300):
        guarded = Guarded(kalah, limit=3000)
        r = selective(guarded, kalah.initial_state(), budget)
        assert r.nodes == guarded.plays + 1 <= budget


# --- ties: the smaller subtree first, then the first in move order ----------------------

# Root 0 -> 1, 2; everything evaluates 0, so every choice is a tie. Under 1 a bush (3
# children, 3 grandchildren each); under 2 a long chain 2 -> 6 -> 7 -> 8 -> 9 -> 10 -> 20.
TIES = tree(
    {
        0: (1, 2),
        1: (3, 4, 5),
        3: (11, 12, 13),
        4: (14, 15, 16),
        5: (17, 18, 19),
        2: (6,),
        6: (7,),
        7: (8,),
        8: (9,),
        9: (10,),
        10: (20,),
    },
    final={n: 0 for n in (*range(11, 20), 20)},
)


def test_ties_go_to_the_smaller_subtree_then_the_first() -> None:
    """By hand: expand 0 (3 positions); 1 and 2 tie in size, so 1 (6); now 2 is smaller
    (1 against 4): 2 (7), 6 (8), 7 (9) - the chain's subtree grows by one per round and
    reaches 4 positions, the size of 1's. Tie again: 1 first, then its first child 3,
    whose 3 moves would make 12 > 10: the search stops at 9 positions, 4 moves deep
    (node 8). The best line keeps the first of equal moves: 1, then 3."""
    r = selective(TIES, TIES.initial_state(), 10)
    assert (r.nodes, r.depth, r.value) == (9, 4, 0)
    assert r.pv == [1, 3]
    assert r.best_move == 1
    # one more position of budget changes nothing; three more let node 3 be expanded
    assert selective(TIES, TIES.initial_state(), 11).nodes == 9
    wider = selective(TIES, TIES.initial_state(), 12)
    assert (wider.nodes, wider.depth) == (12, 4)


# --- the budget -------------------------------------------------------------------------


def test_an_expansion_that_just_fits_is_made() -> None:
    game = tree({0: (1, 2), 1: (3,), 2: (4,)}, value={1: 2, 2: -4})
    r = selective(game, game.initial_state(), 3)
    assert (r.nodes, r.best_move, r.pv, r.value, r.depth) == (3, 2, [2], 4, 1)
    assert r.strategy == "selective"  # the name the results and the CLI report
    short = selective(game, game.initial_state(), 2)
    assert (short.nodes, short.best_move, short.pv, short.depth) == (1, None, [], 0)
    assert short.value == 0  # the root's own evaluation


def test_no_expansion_means_depth_zero() -> None:
    kalah = Kalah(6, 6, "classic", "tseitin")
    r = selective(kalah, kalah.initial_state(), 1)
    assert (r.nodes, r.depth, r.best_move) == (1, 0, None)
    over = kalah.make_state([0] * 6 + [40] + [0] * 6 + [32], 0)
    assert selective(kalah, over, 10).depth == 0


# Root 0 (A, static value 50) -> 1 with an extra turn (A again, 5 for A) or 2 (B to move,
# -8 for B). Node 1 has 4 moves, node 2 one (to 7, A to move, 1 for A).
COMPOUND = tree(
    {0: (1, 2), 1: (3, 4, 5, 6), 2: (7,)},
    again=(1,),
    value={0: 50, 1: 5, 2: -8, 7: 1},
)


def test_a_compound_move_that_does_not_fit_ends_the_search() -> None:
    """Expanding 0 makes 1 and 2 (3 positions) and must go on with A's extra turn at 1,
    whose 4 moves would make 7 > 5: the search ends there, although expanding 2 (one move)
    would fit. The root's value is backed up from what was made: 2 is worth 8 for A, 1
    only 5."""
    r = selective(COMPOUND, COMPOUND.initial_state(), 5)
    assert (r.nodes, r.value, r.best_move, r.pv, r.depth) == (3, 8, 2, [2], 1)
    whole = selective(COMPOUND, COMPOUND.initial_state(), 7)
    assert whole.nodes == 7 and whole.value == 8


# Root 0 -> 1 with an extra turn, 1 -> 2 (B to move), 2 -> 3 (A to move).
AGAIN = tree({0: (1,), 1: (2,), 2: (3,)}, again=(1,), value={2: 7, 3: 2}, final={3: 0})


def test_depth_counts_an_extra_turn_as_the_other_searches_do() -> None:
    """A compound move is one ply by default (node 2 is 1 deep, as for alphabeta, whose
    depth-1 search ends at node 2 with value -7), and two with again_is_ply."""
    root = AGAIN.initial_state()
    assert alphabeta(AGAIN, root, 1).value == -7
    r = selective(AGAIN, root, 3)
    assert (r.nodes, r.depth, r.value, r.pv) == (3, 1, -7, [1, 2])
    assert alphabeta(AGAIN, root, 2, again_is_ply=True).value == -7
    s = selective(AGAIN, root, 3, again_is_ply=True)
    assert (s.nodes, s.depth, s.value, s.pv) == (3, 2, -7, [1, 2])
    full = selective(AGAIN, root, 10)
    assert (full.nodes, full.depth, full.value, full.exact) == (4, 2, 0, True)


# --- settled values ---------------------------------------------------------------------

# Root 0 (A) -> 1: the game is over, B to move has lost by 3; or -> 2 (B to move), whose
# moves end the game at 3 (A to move, won by 5) or 4 (A to move, won by 1).
PROVEN = tree({0: (1, 2), 2: (3, 4)}, value={2: 0}, final={1: -3, 3: 5, 4: 1})


def test_a_proven_win_settles_the_root_at_once_but_is_only_a_bound() -> None:
    """After the root's expansion move 1 is a proven win (by 3, one ply away): the search
    ends at 3 positions. Here the value is the true one (B, at 2, would pick 4: A wins by
    only 1), but line 2 was not played out, so the value is not exact."""
    root = PROVEN.initial_state()
    r = selective(PROVEN, root, 100)
    assert (r.nodes, r.best_move, r.pv, r.depth) == (3, 1, [1], 1)
    assert r.value == terminal_score(3, 1)
    assert not r.exact
    assert alphabeta(PROVEN, root, None).value == terminal_score(3, 1)


def test_a_bound_below_the_true_value_is_not_exact() -> None:
    """As above, but 2 leads only to wins by 9 for A (two plies away): the true value is
    the bigger win, the selective search stops at the first proof and says it is a bound."""
    game = tree({0: (1, 2), 2: (3, 4)}, final={1: -3, 3: 9, 4: 9})
    root = game.initial_state()
    r = selective(game, root, 100)
    assert (r.nodes, r.value, r.exact) == (3, terminal_score(3, 1), False)
    assert alphabeta(game, root, None).value == terminal_score(9, 2) > r.value


def test_every_line_played_out_is_exact_and_agrees_with_alphabeta() -> None:
    """Root 0 (A) -> 1 (B to move, wins by 2) or 2 (B to move, loses by 1): both lines end
    at once, so the value is exact: A wins by 1 at ply 1."""
    game = tree({0: (1, 2)}, final={1: 2, 2: -1})
    root = game.initial_state()
    r = selective(game, root, 100)
    assert (r.nodes, r.best_move, r.value) == (3, 2, terminal_score(1, 1))
    assert r.exact
    assert r.value == alphabeta(game, root, None).value


def test_exact_values_agree_with_alphabeta_to_the_end_in_nim() -> None:
    game = Nim((2, 3, 4))
    exact = 0
    for a in range(3):
        for b in range(4):
            for c in range(5):
                state = np.array([a, b, c, 0], dtype=np.int64)
                r = selective(game, state, 5000)
                if r.exact:
                    exact += 1
                    assert r.value == alphabeta(game, state, None).value
    assert exact >= 5  # the test is about something
