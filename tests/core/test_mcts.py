"""MCTS with MCTS-Solver against exhaustive search, its statistics and its determinism;
and the searcher at its edges (proofs in one playout, untried moves, work counters, pool
sizes, principal variations, the seed); its stop, and batch sizes that change nothing."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from boardgames.core import mcts as mcts_module
from boardgames.core.compare import random_positions
from boardgames.core.mcts import (
    CAPACITY,
    FIRST,
    SOLVED,
    VISITS,
    MctsResult,
    MctsSearcher,
    Tree,
    _next_batch,
)
from boardgames.core.protocol import score_margin
from boardgames.core.search import SearchStopped, alphabeta_tt
from boardgames.kalah.game import Kalah
from boardgames.nim.game import Nim, encode_move


def exact_sign(game, state) -> int:
    """-1, 0 or +1: the result for the side to move under perfect play (exhaustive)."""
    margin = score_margin(alphabeta_tt(game, state, None).value) or 0
    return (margin > 0) - (margin < 0)


def winning_moves(game, state) -> list[int]:
    """The moves that keep a won position won (exhaustive)."""
    out = []
    for move in game.legal_moves(state):
        child, again = game.play(state, move)
        if game.outcome(child) is not None:
            r = game.outcome(child)
            sign = (r > 0) - (r < 0)
            mine = -sign
        else:
            mine = exact_sign(game, child) * (1 if again else -1)
        if mine == 1:
            out.append(move)
    return out


def kalah_positions(pits: int, seeds: int, count: int, seed: int) -> list:
    return random_positions(Kalah(pits, seeds), count, seed, plies=(0, 5))


@pytest.fixture(scope="module")
def small_kalah() -> tuple[Kalah, MctsSearcher]:
    game = Kalah(3, 2)
    return game, MctsSearcher(game)


def test_mcts_solver_proves_small_kalah_positions_like_exhaustive_search(small_kalah) -> None:
    game, mcts = small_kalah
    for state in kalah_positions(3, 2, 12, seed=3):
        r = mcts.search(state, playouts=200_000, seed=1)
        assert r.proven is not None, "the budget is enough to prove 3 x 2 positions"
        truth = exact_sign(game, state)
        assert r.proven == truth
        if truth == 1:
            assert r.move in winning_moves(game, state)


@pytest.mark.parametrize("rows", [(1, 2, 3), (1, 2, 4), (2, 2), (3, 4, 5), (1, 1, 1)])
@pytest.mark.parametrize("misere", [False, True])
def test_mcts_solver_proves_nim_positions_and_finds_bouton_moves(rows, misere) -> None:
    game = Nim(rows, misere)
    state = game.initial_state()
    r = MctsSearcher(game).search(state, playouts=300_000, seed=2)
    truth = exact_sign(game, state)
    assert r.proven == truth
    if truth == 1:
        assert r.move in winning_moves(game, state)


def test_a_single_winning_move_is_found() -> None:
    """1-2-4: only taking one chip of the 4-row wins (nim-sum 7 -> 0)."""
    game = Nim((1, 2, 4))
    state = game.initial_state()
    assert len(winning_moves(game, state)) == 1
    r = MctsSearcher(game).search(state, playouts=50_000, seed=5)
    assert r.move == winning_moves(game, state)[0]


def test_visit_counts_add_up(small_kalah) -> None:
    _, mcts = small_kalah
    state = Kalah(6, 4).initial_state()
    big = MctsSearcher(Kalah(6, 4))
    for searcher, s in ((big, state), (mcts, kalah_positions(3, 2, 1, seed=9)[0])):
        r = searcher.search(s, playouts=5_000, seed=3)
        tree = searcher.tree
        assert tree is not None
        nodes = tree.nodes
        assert int(nodes[0, VISITS]) == r.playouts or nodes[0, SOLVED]
        used = int(tree.meta[0])
        checked = 0
        for node in range(used):
            if nodes[node, FIRST] < 0:
                continue
            total = sum(int(nodes[ch, VISITS]) for ch in tree.children(node))
            expected = int(nodes[node, VISITS]) - (0 if node == 0 else 1)
            if nodes[node, SOLVED]:  # iterations stop at a proven node
                assert total <= expected
            else:
                assert total == expected
                checked += 1
        assert checked > 10
        assert sum(v for _, v, _, _ in r.children) == r.playouts


def test_same_seed_same_search_and_other_seeds_differ() -> None:
    game = Kalah(6, 4)
    mcts = MctsSearcher(game)
    state = game.initial_state()
    a = mcts.search(state, playouts=3_000, seed=11)
    b = mcts.search(state, playouts=3_000, seed=11)
    c = mcts.search(state, playouts=3_000, seed=12)
    assert (a.move, a.children, a.pv, a.plies) == (b.move, b.children, b.pv, b.plies)
    assert a.children != c.children


def test_priority_policy_runs_and_time_budget_stops() -> None:
    game = Kalah(6, 4)
    mcts = MctsSearcher(game)
    r = mcts.search(game.initial_state(), seconds=0.2, policy="priority", seed=1)
    assert r.move in game.legal_moves(game.initial_state())
    assert r.playouts > 100 and r.seconds < 2.0
    assert 0.0 <= r.value <= 1.0 and 0.0 < r.share <= 1.0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"playouts": 0}, "playouts"),
        ({"playouts": -5}, "playouts"),
        ({"seconds": 0}, "seconds"),
        ({"playouts": 10, "c": -0.1}, "exploration"),
        ({"playouts": 10, "c": float("nan")}, "exploration"),
        ({"playouts": 10, "policy": "greedy"}, "policy"),
        ({}, "budget"),
    ],
)
def test_bad_knobs_are_one_clear_error(small_kalah, kwargs, message) -> None:
    game, mcts = small_kalah
    with pytest.raises(ValueError, match=message):
        mcts.search(game.initial_state(), **kwargs)


def test_finished_game_is_refused(small_kalah) -> None:
    game, mcts = small_kalah
    over = np.array([0, 0, 0, 7, 0, 0, 0, 5, 1], dtype=np.int64)
    assert game.outcome(over) is not None
    with pytest.raises(ValueError, match="over"):
        mcts.search(over, playouts=10)


def test_best_moves_hold_the_depth_value_and_include_alphabetas_move() -> None:
    """compare's "best" column: every move it lists reaches the root's depth-limited value
    (its child searched by the Python reference), and alpha-beta's own move is listed."""
    from boardgames.core.compare import best_moves
    from boardgames.core.search import alphabeta

    game = Kalah(4, 3)
    depth = 3
    listed = 0
    for state in kalah_positions(4, 3, 12, seed=21):
        root = alphabeta(game, state, depth)
        best = best_moves(game, state, depth, root.value)
        assert root.best_move in best
        for move in game.legal_moves(state):
            child, again = game.play(state, move)
            if game.outcome(child) is not None:
                continue
            # the root searched with only this move allowed, by the reference search
            sub = alphabeta(game, child, depth if again else depth - 1)
            v = sub.value if again else -sub.value
            plain = score_margin(v) is None
            if plain:  # heuristic values need no ply correction
                assert (v == root.value) == (move in best)
        listed += len(best)
    assert listed >= 12


def test_compare_kalah_shows_mcts_apart_from_the_agreement_check() -> None:
    import json

    from click.testing import CliRunner

    from boardgames.cli import cli

    args = ["compare", "kalah", "--seeds", "3", "--depth", "3", "--strategies"]
    out = CliRunner().invoke(cli, [*args, "alphabeta,mcts", "--engine", "numba",
                                   "--playouts", "2000", "--positions", "2", "--json"])  # fmt: skip
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["agree"] is True
    mc = next(r for r in data["results"] if r["strategy"] == "mcts")
    assert mc["playouts"] == 4000 and len(mc["positions"]) == 2
    assert all(p["best_at_depth"] in (True, False) for p in mc["positions"])
    text = CliRunner().invoke(cli, [*args, "mcts", "--engine", "numba", "--playouts", "500"])
    assert text.exit_code == 0 and "Monte Carlo" in text.output


def test_every_nim_position_mcts_proves_is_bouton_right() -> None:
    """On every position of 3-4-5: a root MCTS-Solver proves won is one Bouton's rule calls
    won (and its move is a Bouton move), one it proves lost is one Bouton calls lost."""
    import itertools

    from boardgames.nim.game import decode_move
    from boardgames.nim.rules import winning_moves as bouton

    game = Nim((3, 4, 5))
    mcts = MctsSearcher(game)
    proved = 0
    for rows in itertools.product(range(4), range(5), range(6)):
        if not any(rows):
            continue
        r = mcts.search(game.state_from_rows(rows), playouts=3000, seed=1)
        good = {(m.row, m.take) for m in bouton(rows)}
        if r.proven is not None:
            proved += 1
            assert (r.proven == 1) == bool(good), rows
            if good:
                assert decode_move(r.move) in good, rows
    assert proved >= 100


def test_compare_nim_reports_mcts() -> None:
    import json

    from click.testing import CliRunner

    from boardgames.cli import cli

    out = CliRunner().invoke(cli, ["compare", "nim", "3", "0", "2", "--playouts", "500", "--json"])
    assert out.exit_code == 0, out.output
    mc = json.loads(out.stdout)["mcts"]
    # rows (a, 0, c), a <= 3, c <= 2: won when a xor c != 0, i.e. a != c: 12 - 3 positions
    assert mc["winning_positions"] == 9 and mc["searches"] == 9
    assert 0 <= mc["bouton_moves"] <= 9 and mc["proven"] <= 9


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["kalah", "match", "--a", "strategy=mcts,c=-1"], "exploration must be 0 or more"),
        (["kalah", "match", "--a", "strategy=mcts,playouts=0"], "playouts must be 1"),
        (["kalah", "match", "--a", "strategy=mcts,depth=3"], "no depth"),
        (["kalah", "match", "--a", "strategy=mcts,policy=x"], "playout policy"),
        (["kalah", "match", "--a", "depth=3,playouts=9"], "playouts are for strategy=mcts"),
        (["compare", "kalah", "--strategies", "mcts", "--playouts", "0"], "--playouts"),
        (["compare", "nim", "--playouts", "-1"], "--playouts"),
    ],
)
def test_bad_mcts_knobs_on_the_command_line_are_one_line(args, fragment) -> None:
    from click.testing import CliRunner

    from boardgames.cli import cli

    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2 and "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and fragment in lines[0], result.output


# --- the searcher at its edges ------------------------------------------------------------
# On Nim (one kernel for every row layout) and once on Kalah (the kernel the tests above
# build too). The facts: a win in one is proven in one playout;
# moves never tried report no visits, no result and no proof; the work counters count what
# was played; a pool too small for the tree still searches; a pool that grows keeps its
# tree; the principal variation of a proven win is a whole game the root's player wins, and
# a line is cut at the project's longest kept line; the seed goes through the published
# splitmix64.


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


# --- the stop, and batches that shrink on slow work ---------------------------------------------


def asked_after(calls: int) -> tuple[list[int], Callable[[], bool]]:
    """A stop that says True from its ``calls``-th question on, and how often it was asked."""
    asked = [0]

    def stop() -> bool:
        asked[0] += 1
        return asked[0] >= calls

    return asked, stop


def test_a_stop_ends_the_search_between_batches() -> None:
    game = Kalah(6, 6)
    mcts = MctsSearcher(game)
    asked, stop = asked_after(3)
    with pytest.raises(SearchStopped) as stopped:
        mcts.search(game.initial_state(), playouts=10**9, batch=100, stop=stop)
    assert asked[0] == 3 and stopped.value.args[0] == 200  # two whole batches ran
    with pytest.raises(SearchStopped) as at_once:
        mcts.search(game.initial_state(), seconds=60, stop=lambda: True)
    assert at_once.value.args[0] == 0


def test_a_stop_that_never_says_stop_and_the_batch_sizes_change_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Batches of 256, of 7, and batches shrunk to one iteration (every batch "too slow"),
    and a pool grown in small steps: the same search, its stop asked before every batch."""
    game = Kalah(4, 4)
    mcts = MctsSearcher(game)
    state = game.initial_state()

    def summary(r: MctsResult) -> tuple:
        return r.move, r.children, r.pv, r.plies, r.playouts, r.proven

    plain = summary(mcts.search(state, playouts=3_000, seed=5))
    assert summary(mcts.search(state, playouts=3_000, seed=5, batch=7)) == plain
    asked, never = asked_after(10**12)
    assert summary(mcts.search(state, playouts=3_000, seed=5, stop=never)) == plain
    assert asked[0] >= -(-plain[4] // 256)  # before every batch (and as the pool grows)
    monkeypatch.setattr(mcts_module, "BATCH_SECONDS", 1e-9)
    monkeypatch.setattr(mcts_module, "GROW_ROWS", 1000)
    asked[0] = 0
    assert summary(mcts.search(state, playouts=3_000, seed=5, stop=never)) == plain
    assert asked[0] >= plain[4] - 256  # one iteration a batch after the first


def test_the_next_batch_takes_about_the_target_time() -> None:
    target = mcts_module.BATCH_SECONDS
    assert _next_batch(256, 256, 10 * target, 256) == 25  # slow: a tenth
    assert _next_batch(256, 256, 1000 * target, 256) == 1  # never below one
    assert _next_batch(4, 4, target / 100, 256) == 8  # quick: at most twice as many
    assert _next_batch(200, 200, target / 100, 256) == 256  # never above the batch asked
    assert _next_batch(10, 10, 0.0, 256) == 20
    with pytest.raises(ValueError, match="batch must be at least 1"):
        MctsSearcher(Nim((1, 2))).search(Nim((1, 2)).initial_state(), playouts=5, batch=0)


def test_a_pool_that_grows_is_copied_in_steps_and_a_stop_keeps_it_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(mcts_module, "GROW_ROWS", 3)
    tree = Tree.empty(5, seed=1)
    tree.nodes[:5, FIRST] = np.arange(5)
    tree.wins[:5] = np.arange(5) / 2
    before = tree.nodes.copy(), tree.wins.copy()
    asked, stop = asked_after(2)
    assert not tree.grow(11, stop)  # stopped between two steps: nothing changed
    assert np.array_equal(tree.nodes, before[0]) and np.array_equal(tree.wins, before[1])
    assert asked[0] == 2 and tree.meta[CAPACITY] == 5
    assert tree.grow(11, lambda: False)
    fresh = Tree.empty(11, seed=1)
    assert np.array_equal(tree.nodes[:5], before[0]) and np.array_equal(tree.wins[:5], before[1])
    assert np.array_equal(tree.nodes[5:], fresh.nodes[5:]) and not tree.wins[5:].any()
    assert tree.meta[CAPACITY] == 11
