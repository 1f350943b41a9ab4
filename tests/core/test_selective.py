"""core/search.selective: best-first selective deepening within a budget of positions.

Checked on facts: the budget (counted independently, by wrapping the game), the legality
of the line, that more budget never makes it shallower, forced wins that a plain
fixed-depth alpha-beta of the same budget finds (on Kalah endgames and Nim, where Bouton's
rule says who wins), and a constructed trap where it must differ from plain alpha-beta:
the line that looks best is followed deeper and found to lose.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgames.core.compare import random_positions
from boardgames.core.protocol import HEURISTIC_LIMIT, Game, State, is_terminal_score, terminal_score
from boardgames.core.search import alphabeta, selective
from boardgames.core.strategies import BUDGET_STRATEGIES, STRATEGIES, run_budget
from boardgames.kalah.game import Kalah
from boardgames.nim.game import Nim
from tests.core.dag_game import DagGame


@dataclass
class Counting:
    """A game that counts the positions a search produces (``play`` calls)."""

    game: Game
    plays: int = 0

    @property
    def name(self) -> str:
        return self.game.name

    def initial_state(self) -> State:
        return self.game.initial_state()

    def to_move(self, state: State) -> int:
        return self.game.to_move(state)

    def legal_moves(self, state: State) -> list[int]:
        return self.game.legal_moves(state)

    def play(self, state: State, move: int) -> tuple[State, bool]:
        self.plays += 1
        return self.game.play(state, move)

    def outcome(self, state: State) -> int | None:
        return self.game.outcome(state)

    def evaluate(self, state: State) -> int:
        return self.game.evaluate(state)


def follow(game: Game, state: State, line: list[int]) -> State:
    """Play ``line`` from ``state``; fails (GameError) if a move is illegal."""
    for move in line:
        assert move in game.legal_moves(state)
        state, _ = game.play(state, move)
    return state


# --- budget and line --------------------------------------------------------------------

KALAH = Kalah(6, 6, "classic", "tseitin")


@pytest.mark.parametrize("budget", [1, 6, 7, 50, 1000])
def test_budget_is_never_exceeded_and_counted_exactly(budget: int) -> None:
    for state in [KALAH.initial_state(), *random_positions(KALAH, 6, budget, (4, 40))]:
        counting = Counting(KALAH)
        r = selective(counting, state, budget)
        assert r.nodes == counting.plays + 1 <= budget  # the root, then one per play
        follow(KALAH, state, r.pv)
        if r.best_move is not None:
            assert r.best_move in KALAH.legal_moves(state)


def test_the_budget_is_spent_when_nothing_is_settled() -> None:
    """From the start nothing is proven within 1,000 positions: the search stops only when
    the next expansion (at most 6 sowings, or a chain of extra turns) would not fit."""
    r = selective(KALAH, KALAH.initial_state(), 1000)
    assert 1000 - 6 * 6 < r.nodes <= 1000


def test_compound_moves_are_expanded_whole() -> None:
    """With extra turns free (the default) the best line's first turn is a whole compound
    move: it ends where the opponent moves or the game ends."""
    for state in random_positions(KALAH, 8, 3, (0, 30)):
        r = selective(KALAH, state, 400)
        s = state
        player = KALAH.to_move(s)
        for move in r.pv:
            s, again = KALAH.play(s, move)
            if not again:
                break
        assert KALAH.outcome(s) is not None or KALAH.to_move(s) != player


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 10**6),
    st.integers(1, 600),
    st.integers(0, 600),
    st.booleans(),
)
def test_more_budget_never_searches_less(seed: int, small: int, extra: int, sowing: bool) -> None:
    """The expansions are the same sequence whatever the budget, so a larger budget sees
    everything a smaller one saw: at least as many positions and as deep."""
    game = Kalah(4, 3, "classic", "store")
    state = random_positions(game, 1, seed, (0, 12))[0]
    a = selective(game, state, small, again_is_ply=sowing)
    b = selective(game, state, small + extra, again_is_ply=sowing)
    assert a.nodes <= b.nodes <= small + extra
    assert (a.depth or 0) <= (b.depth or 0)


def test_deeper_with_a_larger_budget() -> None:
    depths = [selective(KALAH, KALAH.initial_state(), n).depth for n in (100, 1000, 10_000)]
    assert depths[0] < depths[1] < depths[2]


def test_finished_root_and_bad_budget() -> None:
    over = KALAH.make_state([0] * 6 + [40] + [0] * 6 + [32], 0)
    r = selective(KALAH, over, 10)
    assert (r.best_move, r.pv, r.nodes, r.exact) == (None, [], 1, True)
    assert r.value == alphabeta(KALAH, over, 3).value
    with pytest.raises(ValueError, match="at least 1 position"):
        selective(KALAH, KALAH.initial_state(), 0)


def test_registry() -> None:
    assert "selective" in BUDGET_STRATEGIES and "selective" not in STRATEGIES
    state = KALAH.initial_state()
    assert run_budget("selective", KALAH, state, 300) == selective(KALAH, state, 300)
    with pytest.raises(ValueError, match="unknown budget strategy"):
        run_budget("alphabeta", KALAH, state, 300)


# --- forced wins ------------------------------------------------------------------------


def plain_depth_within(game: Game, state: State, budget: int) -> int:
    """The deepest fixed depth whose plain alpha-beta search fits in ``budget``."""
    depth = 0
    while depth < 60 and alphabeta(game, state, depth + 1).nodes <= budget:
        depth += 1
    return depth


def wins(game: Game, state: State, move: int) -> bool:
    """True when ``move`` keeps a won position won (searched to the end of the game)."""
    child, again = game.play(state, move)
    v = alphabeta(game, child, None).value
    return (v if again else -v) > 0


def test_a_constructed_combination() -> None:
    """A to move on 6 x 6 (72 stones): pit 5 holds 1 stone, so sowing it ends in A's store
    (31, extra turn); then pit 3's single stone lands in A's empty pit 4, opposite B's pit
    8 with 12 stones: 13 go to A's store, 44 of 72, more than half, and A has won. Only
    that order wins at once (3 first ends the turn: pit 4 captures, but B then moves)."""
    state = KALAH.make_state([0, 0, 0, 1, 0, 1, 30, 3, 12, 1, 1, 1, 2, 20], 0)
    plain = alphabeta(KALAH, state, plain_depth_within(KALAH, state, 20))
    r = selective(KALAH, state, 20)
    assert plain.value > HEURISTIC_LIMIT and plain.pv[:2] == [5, 3]
    assert r.value > HEURISTIC_LIMIT and r.pv[:2] == [5, 3]
    final = follow(KALAH, state, [5, 3])
    assert KALAH.outcome(final) is not None and int(final[6]) == 44


@pytest.mark.parametrize(
    ("game", "budget"),
    [
        (Kalah(4, 3, "classic", "store"), 300),
        pytest.param(Kalah(6, 2, "classic", "tseitin"), 1000, marks=pytest.mark.slow),
    ],
)
def test_finds_the_forced_wins_plain_alphabeta_finds_with_the_same_budget(
    game: Kalah, budget: int
) -> None:
    """Endgames from random play: where plain alpha-beta, as deep as the budget allows,
    proves a win, the selective search proves one too, with a move that wins, in at least
    9 of 10 positions (measured: 55 of 56 on 4 x 3, 45 of 46 on 6 x 2; see engine.md for
    why best-first can miss a proof that alpha-beta finds)."""
    found = missed = 0
    for state in random_positions(game, 80, game.pits, (10, 40)):
        depth = plain_depth_within(game, state, budget)
        plain = alphabeta(game, state, depth)
        if depth == 0 or not plain.value > HEURISTIC_LIMIT:
            continue
        found += 1
        r = selective(game, state, budget)
        assert r.nodes <= budget
        if r.value > HEURISTIC_LIMIT:
            assert r.best_move is not None and wins(game, state, r.best_move)
        else:
            missed += 1
    assert found >= 20  # the test is about something
    assert 10 * missed <= found


def test_finds_bouton_wins_in_nim() -> None:
    """Nim has no heuristic (every unfinished position is 0), so only proofs count: in every
    winning position of 2-3-4 where plain alpha-beta within the budget proves the win, the
    selective search proves it too and plays a move to a zero nim-sum."""
    game = Nim((2, 3, 4))
    budget = 400
    found = 0
    for a in range(3):
        for b in range(4):
            for c in range(5):
                state = np.array([a, b, c, 0], dtype=np.int64)
                if a ^ b ^ c == 0:
                    continue
                depth = plain_depth_within(game, state, budget)
                if depth == 0 or not alphabeta(game, state, depth).value > HEURISTIC_LIMIT:
                    continue
                found += 1
                r = selective(game, state, budget)
                assert r.value > HEURISTIC_LIMIT
                child, _ = game.play(state, r.best_move)
                assert int(child[0]) ^ int(child[1]) ^ int(child[2]) == 0
    assert found >= 20


# --- where it differs from plain alpha-beta ---------------------------------------------


@dataclass(frozen=True)
class Trap:
    """A constructed tree. State: [node, player]. Node 0 (player 0) has six moves:

    * move 0 leads to node ``a``, the best-looking one (+5 for player 0): each of the
      opponent's four replies still looks good for player 0 (+4), but after the first of
      them every move of player 0 loses the game: a trap three moves deep;
    * move 1 leads to ``b``, modest (+1) and safe: +1 at every depth, and never lost;
    * moves 2-5 look bad (-3) and stay bad.

    Every unfinished position has four moves (the root six); the game ends at depth 4.
    """

    name: str = "trap"
    wide: int = 4
    evaluations: dict[tuple[int, ...], int] = field(default_factory=dict)

    def initial_state(self) -> State:
        return np.array([0, 0, 0, 0, 0, 0], dtype=np.int64)  # path (4 moves + 1) and player

    @staticmethod
    def path(state: State) -> tuple[int, ...]:
        n = int(state[0])
        return tuple(int(x) - 1 for x in state[1 : 1 + n])

    def to_move(self, state: State) -> int:
        return int(state[5])

    def legal_moves(self, state: State) -> list[int]:
        if self.outcome(state) is not None:
            return []
        return list(range(6 if int(state[0]) == 0 else self.wide))

    def play(self, state: State, move: int) -> tuple[State, bool]:
        s = state.copy()
        n = int(s[0])
        s[1 + n] = move + 1
        s[0] = n + 1
        s[5] = 1 - s[5]
        return s, False

    def outcome(self, state: State) -> int | None:
        p = self.path(state)
        if len(p) == 3 and p[:2] == (0, 0):
            return 10  # player 1 is to move and has won by 10 (margin for the mover)
        if len(p) == 4:
            return 0
        return None

    def evaluate(self, state: State) -> int:
        """From the side to move's view; the root's first move sets the tone."""
        p = self.path(state)
        if not p:
            return 0
        for_zero = {0: 5 if len(p) == 1 else 4, 1: 1}.get(p[0], -3)
        return for_zero if self.to_move(state) == 0 else -for_zero


def test_selective_follows_the_best_line_into_the_trap_and_avoids_it() -> None:
    game = Trap()
    root = game.initial_state()
    budget = 40
    depth = plain_depth_within(game, root, budget)
    assert depth == 2  # plain alpha-beta sees two moves within the budget...
    assert alphabeta(game, root, 2).best_move == 0  # ...and walks into the trap
    assert alphabeta(game, root, 3).best_move == 1  # three moves show it (too costly)
    r = selective(game, root, budget)
    assert r.nodes <= budget
    assert r.best_move == 1
    assert r.depth == 4  # and it looked all the way down the safe line
    assert not is_terminal_score(r.value)


# --- small hand-built trees --------------------------------------------------------------
# Every expected figure (positions examined, depth, value, line) is counted by hand from the
# documented rules of the search: the walk takes the best move for the side to move, on a
# tie the child with fewer positions below it, then the first; an expansion that does not
# fit the budget ends the search; a proven win for the side to move settles a position.


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
