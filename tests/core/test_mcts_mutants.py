"""MCTS facts that the first tests left open (mutation testing, issue 22).

The searches are on Nim (one kernel for every row layout) and one on Kalah (the kernel
tests/core/test_mcts.py builds too). The facts: a win in one is proven in one playout;
moves never tried report no visits, no result and no proof; the work counters count what
was played; a pool too small for the tree still searches; a pool that grows keeps its
tree; the principal variation of a proven win is a whole game the root's player wins, and
a line is cut at the project's longest kept line; the seed goes through the published
splitmix64.
"""

from __future__ import annotations

import numpy as np
import pytest

from boardgames.core.mcts import VISITS, MctsSearcher, Tree
from boardgames.nim.game import Nim, encode_move

GOLDEN_GAMMA = 0x9E3779B97F4A7C15
"""splitmix64's increment (Steele, Lea and Flood, 2014): its state advances by it."""

SPLITMIX64_SEED = 1477776061723855037
SPLITMIX64_STREAM = (
    1985237415132408290,
    2979275885539914483,
    13511426838097143398,
    8488337342461049707,
    15141737807933549159,
    17093170987380407015,
    16389528042912955399,
    13177319091862933652,
)
"""The first outputs of splitmix64 from the state above, as published in the test
``reference`` of the rand_xoshiro crate (rust-random/rngs, rand_xoshiro/src/splitmix64.rs),
produced there with Vigna's reference splitmix64.c."""


def take(row: int, chips: int) -> int:
    """The move taking ``chips`` from ``row`` (0-based)."""
    return encode_move(row, chips)


def test_the_seed_goes_through_the_published_splitmix64() -> None:
    """Tree.empty seeds the generator with splitmix64 of the seed: the state splitmix64 is
    in after k steps from the published start is that start plus k increments (mod 2**64),
    so seeding with it gives the k-th published output. Some of these seeds are within one
    increment of 2**64, so the 64-bit wrap-around is checked too."""
    for k, expected in enumerate(SPLITMIX64_STREAM):
        seed = (SPLITMIX64_SEED + k * GOLDEN_GAMMA) % 2**64
        assert int(Tree.empty(1, seed).rng[0]) == expected, k
    assert any(
        (SPLITMIX64_SEED + k * GOLDEN_GAMMA) % 2**64 + GOLDEN_GAMMA >= 2**64
        for k in range(len(SPLITMIX64_STREAM))
    )


def test_a_win_in_one_is_proven_by_its_first_playout() -> None:
    """Nim 1 (normal play): taking the only chip wins. The first iteration reaches the
    finished game, the root is proven and the search stops: one playout, no random game."""
    game = Nim((1,))
    mcts = MctsSearcher(game)
    assert mcts.tree is None, "no search yet: no tree"
    r = mcts.search(game.initial_state(), playouts=10, seed=0)
    win = take(0, 1)
    assert (r.move, r.proven, r.playouts, r.plies) == (win, 1, 1, 0)
    assert (r.visits, r.share, r.value) == (1, 1.0, 1.0)
    assert r.children == [(win, 1, 1.0, 1)]
    assert r.pv == [win]
    assert mcts.tree is not None and int(mcts.tree.nodes[0, VISITS]) == 1


@pytest.mark.parametrize("seed", range(4))
def test_moves_never_tried_report_no_visits_no_result_and_no_proof(seed: int) -> None:
    """Nim 3 with one playout: one of the three moves was tried, the other two have no
    visits, a mean of 0 (no wins recorded) and no proof. The tried one is proven only if
    it is taking all three (a finished game, won)."""
    game = Nim((3,))
    r = MctsSearcher(game).search(game.initial_state(), playouts=1, seed=seed)
    assert r.playouts == 1
    assert sorted(m for m, _, _, _ in r.children) == [take(0, 1), take(0, 2), take(0, 3)]
    tried = [c for c in r.children if c[1] == 1]
    untried = [c for c in r.children if c[1] != 1]
    assert len(tried) == 1
    assert [(v, mean, proven) for _, v, mean, proven in untried] == [(0, 0.0, None)] * 2
    move, _, mean, proven = tried[0]
    assert (r.move, r.visits, r.share, r.value) == (move, 1, 1.0, mean)
    if move == take(0, 3):
        assert (mean, proven, r.proven) == (1.0, 1, 1)
    else:
        assert mean in (0.0, 1.0) and proven is None and r.proven is None


def test_plies_count_the_sowings_of_the_random_games() -> None:
    """Nim 2: taking two wins at once; taking one leaves one chip, and a random game from
    there is exactly one move. The search stops when the win is found, so the plies played
    are the visits of "take one" (0 or 1, by the seed's first pick); both picks occur."""
    game = Nim((2,))
    mcts = MctsSearcher(game)
    seen = set()
    for seed in range(12):
        r = mcts.search(game.initial_state(), playouts=50, seed=seed)
        visits = {m: v for m, v, _, _ in r.children}
        assert (r.move, r.proven) == (take(0, 2), 1)
        assert r.plies == visits[take(0, 1)]
        assert r.playouts == sum(visits.values()) == 1 + r.plies
        seen.add(r.plies)
    assert seen == {0, 1}


def test_a_pool_for_the_root_alone_plays_out_from_the_root_and_chooses_nothing() -> None:
    """With room for one node, the root's moves never get nodes: every iteration is a
    random game from the root (Nim 3 lasts one to three moves), and no move is chosen."""
    game = Nim((3,))
    r = MctsSearcher(game).search(game.initial_state(), playouts=40, seed=1, max_nodes=1)
    assert (r.move, r.visits, r.share, r.value, r.proven) == (None, 0, 0.0, 0.0, None)
    assert (r.children, r.pv) == ([], [])
    assert r.playouts == 40 and 40 <= r.plies <= 120


def test_a_pool_for_the_root_and_its_moves_still_finds_the_win() -> None:
    """With room for the root and its three moves exactly, the moves are searched (random
    games from each, nothing deeper) and taking all three is proven a win."""
    game = Nim((3,))
    r = MctsSearcher(game).search(game.initial_state(), playouts=100, seed=2, max_nodes=4)
    assert (r.move, r.proven, r.pv) == (take(0, 3), 1, [take(0, 3)])
    assert sorted(m for m, _, _, _ in r.children) == [take(0, 1), take(0, 2), take(0, 3)]
    assert sum(v for _, v, _, _ in r.children) == r.playouts


def winner_of_line(game: Nim, state: np.ndarray, line: list[int]) -> int:
    """Play ``line`` from ``state``: every move must be legal and the game must end with
    the last one; +1 if the player to move at ``state`` won, -1 if they lost, 0 a draw."""
    player = 0
    for k, move in enumerate(line):
        assert game.outcome(state) is None, f"the game ended before move {k} of {line}"
        assert move in game.legal_moves(state), f"move {k} of {line} is illegal"
        state, again = game.play(state, move)
        player = player if again else 1 - player
    result = game.outcome(state)
    assert result is not None, f"{line} does not end the game"
    mine = result if player == 0 else -result  # outcome() is for the player to move
    return (mine > 0) - (mine < 0)


@pytest.mark.parametrize("batch", [1, 256])
def test_a_proven_win_is_a_whole_won_game_also_when_the_pool_grows(batch: int) -> None:
    """Nim 1-2-4: the only winning move takes one chip of the 4-row (nim-sum 7 -> 0).
    With one iteration a batch the node pool starts small and doubles many times; the
    tree must survive every doubling. The principal variation of the proven root is a
    whole game the root's player wins; visits add up; every mean is a share of results."""
    game = Nim((1, 2, 4))
    state = game.initial_state()
    r = MctsSearcher(game).search(state, playouts=60_000, seed=3, batch=batch)
    assert (r.move, r.proven) == (take(2, 1), 1)
    assert winner_of_line(game, state, r.pv) == 1
    assert r.pv[0] == r.move
    assert sum(v for _, v, _, _ in r.children) == r.playouts
    for move, visits, mean, _ in r.children:
        assert 0.0 <= mean <= 1.0, (move, visits, mean)
        wins = mean * visits  # Nim has no draws: a whole number of won games
        assert abs(wins - round(wins)) < 1e-6, (move, visits, mean)
    assert r.visits == dict((m, v) for m, v, _, _ in r.children)[r.move]


def test_the_principal_variation_is_cut_at_the_longest_line_kept() -> None:
    """The project keeps principal variations of at most ``PV_LENGTH`` single moves
    (core.kernels). With no exploration (c = 0) the search pushes one line deep: on
    6 x 6 Kalah, 20 000 playouts grow a most-visited line longer than that, and the line
    reported is its first ``PV_LENGTH`` moves, each legal in turn."""
    from boardgames.core.kernels import PV_LENGTH
    from boardgames.kalah.game import Kalah

    game = Kalah(6, 6)
    state = game.initial_state()
    r = MctsSearcher(game).search(state, playouts=20_000, seed=0, c=0.0)
    assert len(r.pv) == PV_LENGTH
    for k, move in enumerate(r.pv):
        assert game.outcome(state) is None and move in game.legal_moves(state), k
        state, _ = game.play(state, move)


def test_a_search_without_a_budget_is_refused() -> None:
    game = Nim((1, 2))
    with pytest.raises(ValueError, match=r"^give a budget: playouts or seconds$"):
        MctsSearcher(game).search(game.initial_state())
