"""The strong program (kalah/play/engine.py): its API against the Python reference program
(program.py), and its limits checked on facts: the configuration bounds, the time limit,
compound moves that go on past the search's horizon, the proof, the MCTS program and the
node budget."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from boardgames.core.compare import random_positions
from boardgames.core.protocol import GameError, is_terminal_score, score_margin, terminal_score
from boardgames.core.search import alphabeta
from boardgames.kalah.game import Kalah
from boardgames.kalah.play import program
from boardgames.kalah.play.engine import DEFAULT_TIME, MAX_DEPTH, EngineConfig, KalahEngine


def openings(game: Kalah, count: int, seed: int) -> list:
    return random_positions(game, count, seed, plies=(0, 24))


@pytest.mark.parametrize(
    ("rules", "evaluation"),
    [("classic", "store"), ("classic", "tseitin"), ("etudes", "rechenberg")],
)
def test_alphabeta_engine_plays_the_reference_programs_compound_move(rules, evaluation):
    game = Kalah(6, 4, rules)
    config = EngineConfig(depth=3, evaluation=evaluation, strategy="alphabeta", prove_nodes=0)
    engine = KalahEngine(game, config)
    for state in openings(game, 6, 11):
        pits, ref = program.choose_compound(game, state, 3, evaluation=evaluation)
        answer = engine.best_move(state)
        assert answer.move == pits
        assert answer.value == ref.value


@pytest.mark.parametrize("strategy", ["mtdf", "pvs", "id", "tt"])
@pytest.mark.parametrize("unit", ["compound", "sowing"])
def test_engine_value_is_exact_and_its_compound_move_is_legal(strategy: str, unit: str) -> None:
    game = Kalah(5, 4, "classic", "tseitin")
    cfg = EngineConfig(depth=4, strategy=strategy, unit=unit, prove_nodes=0)
    engine = KalahEngine(game, cfg)
    for state in openings(game, 5, 5):
        ref = alphabeta(game, state, 4, again_is_ply=unit == "sowing")
        answer = engine.best_move(state)
        assert answer.value == ref.value
        assert answer.depth == 4 and answer.complete
        after = game.play_compound(state, answer.move)  # raises unless one whole turn
        assert game.outcome(after) is not None or game.to_move(after) != game.to_move(state)


def test_time_limited_engine_deepens_and_answers_a_legal_move() -> None:
    game = Kalah()
    engine = KalahEngine(game, EngineConfig(time=0.2))
    state = game.initial_state()
    answer = engine.best_move(state)
    assert answer.depth >= 2
    game.play_compound(state, answer.move)


def test_engine_sees_the_end_of_the_game() -> None:
    """Three stones left in the pits: four compound moves see the end of the game; the
    search alone gives a bound, the solver's proof the exact value."""
    game = Kalah(6, 4)
    state = game.make_state([0, 0, 0, 0, 1, 1, 20, 0, 0, 0, 0, 0, 1, 25], 0)
    answer = KalahEngine(game, EngineConfig(depth=4, prove_nodes=0)).best_move(state)
    assert is_terminal_score(answer.value) and not answer.exact
    assert answer.value == alphabeta(game, state, 4).value
    proved = KalahEngine(game, EngineConfig(depth=4)).best_move(state)
    assert proved.exact
    assert score_margin(proved.value) == score_margin(alphabeta(game, state, None).value)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"strategy": "magic"}, "unknown strategy"),
        ({"evaluation": "x"}, "unknown evaluation"),
        ({"unit": "ply"}, "depth unit"),
        ({"depth": 0}, "depth must be"),
        ({"time": -1}, "time must be"),
        ({"time": 1, "strategy": "alphabeta", "depth": 3}, "iterative strategy"),
        ({"strategy": "alphabeta"}, "needs a depth"),
        ({"tt_mib": 0}, "table size"),
        ({"strategy": "mcts", "depth": 3}, "no depth"),
        ({"strategy": "mcts", "playouts": 0}, "playouts must be"),
        ({"strategy": "mcts", "exploration": -1.0}, "exploration"),
        ({"strategy": "mcts", "exploration": float("nan")}, "exploration"),
        ({"strategy": "mcts", "policy": "greedy"}, "playout policy"),
        ({"depth": 4, "playouts": 100}, "playouts are for"),
    ],
)
def test_bad_config_is_one_clear_error(kwargs: dict, message: str) -> None:
    with pytest.raises(GameError, match=message):
        EngineConfig(**kwargs)


def test_no_move_when_the_game_is_over() -> None:
    game = Kalah(2, 1)
    state = game.make_state([0, 0, 1, 0, 0, 1], 0)
    with pytest.raises(GameError, match="over"):
        KalahEngine(game, EngineConfig(depth=2)).best_move(state)


def test_mcts_program_plays_whole_turns_and_repeats_itself_for_a_seed() -> None:
    game = Kalah(6, 3)
    engine = KalahEngine(game, EngineConfig(strategy="mcts", playouts=2000, seed=4))
    state = game.initial_state()
    first = engine.best_move(state)
    assert engine.best_move(state).move == first.move  # same seed, same search
    assert first.mcts is not None and first.mcts.playouts == 2000
    while game.outcome(state) is None:
        answer = engine.best_move(state)
        after = game.play_compound(state, answer.move)  # raises unless one whole turn
        assert game.outcome(after) is not None or game.to_move(after) != game.to_move(state)
        state = after


# --- configuration bounds -------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"depth": 1, "strategy": "alphabeta"},
        {"depth": MAX_DEPTH},
        {"time": 86400},
        {"time": 1e-6},
        {"prove_nodes": 0},
        {"prove_nodes": 10**12},
        {"tt_mib": 4096},
        {"tt_mib": 0.001},
        {"strategy": "mcts", "playouts": 1},
        {"strategy": "mcts", "playouts": 10**9},
        {"strategy": "mcts", "exploration": 0.0},
        {"strategy": "mcts", "exploration": 0.5},
        {"strategy": "mcts", "policy": "priority"},
    ],
)
def test_configurations_on_the_bounds_are_accepted(kwargs: dict) -> None:
    config = EngineConfig(**kwargs)
    for key, value in kwargs.items():
        assert getattr(config, key) == value


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"depth": MAX_DEPTH + 1}, "depth must be 1 to 200"),
        ({"depth": 0}, "depth must be 1 to 200"),
        ({"time": 0}, "time must be more than 0"),
        ({"time": 86400.5}, "at most 86400 seconds"),
        ({"prove_nodes": -1}, "prove_nodes must be 0 to 10**12"),
        ({"prove_nodes": 10**12 + 1}, "prove_nodes must be"),
        ({"tt_mib": 0}, "table size must be more than 0"),
        ({"tt_mib": 4097}, "at most 4096 MiB"),
        ({"strategy": "mcts", "playouts": 0}, "playouts must be 1 to 10**9"),
        ({"strategy": "mcts", "playouts": 10**9 + 1}, "playouts must be"),
        ({"strategy": "mcts", "exploration": -0.1}, "exploration must be 0 or more"),
        ({"strategy": "mcts", "exploration": math.inf}, "exploration must be"),
        ({"strategy": "mcts", "depth": 3}, "mcts has no depth"),
        ({"strategy": "mcts", "policy": "greedy"}, "unknown playout policy 'greedy'"),
        ({"playouts": 10}, "playouts are for strategy=mcts"),
        ({"strategy": "minimax", "depth": 2, "time": 1}, "iterative strategy"),
    ],
)
def test_configurations_past_the_bounds_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(GameError, match=message.replace("*", r"\*")):
        EngineConfig(**kwargs)


def test_time_limit_and_description() -> None:
    assert EngineConfig().time_limit == DEFAULT_TIME
    assert EngineConfig(depth=5).time_limit is None
    assert EngineConfig(depth=5, time=2).time_limit == 2
    assert EngineConfig(strategy="mcts", playouts=100).time_limit is None
    assert EngineConfig(strategy="mcts").time_limit == DEFAULT_TIME
    assert EngineConfig(depth=5).describe() == "depth 5, eval tseitin, mtdf"
    assert (
        EngineConfig(depth=7, time=1.5, unit="sowing", evaluation="store", strategy="pvs")
    ).describe() == "depth 7 sowings, 1.5 s a move, eval store, pvs"
    assert EngineConfig().describe() == f"{DEFAULT_TIME:g} s a move, eval tseitin, mtdf"
    assert (
        EngineConfig(strategy="mcts", playouts=1000, time=2, exploration=1).describe()
        == "1,000 playouts, 2 s a move, mcts (c 1.00, random playouts)"
    )
    assert (
        EngineConfig(strategy="mcts", policy="priority").describe()
        == f"{DEFAULT_TIME:g} s a move, mcts (c {EngineConfig().exploration:.2f}, "
        "priority playouts)"
    )


# --- the time-limited search -----------------------------------------------------------


@pytest.fixture(scope="module")
def timed() -> tuple[Kalah, KalahEngine]:
    game = Kalah(6, 4, evaluation="tseitin")
    return game, KalahEngine(game, EngineConfig(time=0.25, prove_nodes=0))


def test_time_limited_search_goes_deep_and_stays_within_its_limit(timed) -> None:
    """A quarter of a second reaches well past depth 4 on 6 x 4 (a depth-4 search takes
    milliseconds) and stops, cut by its node budget if need be, within the limit."""
    game, engine = timed
    state = game.initial_state()
    answer = engine.best_move(state)
    assert answer.depth >= 5
    assert not answer.complete  # MAX_DEPTH is out of reach
    assert answer.seconds < 0.25 + 2  # generous: the machine may be busy
    game.play_compound(state, answer.move)


def test_more_time_searches_deeper(timed) -> None:
    game, engine = timed
    state = game.initial_state()
    short = engine.search(state, deadline=0.0)  # past already: only depth 1, which has no budget
    assert short.depth == 1 and not short.complete
    long = engine.search(state)
    assert long.depth > short.depth
    assert long.nodes > short.nodes


def test_depth_and_time_stop_at_whichever_comes_first() -> None:
    game = Kalah(6, 4, evaluation="tseitin")
    engine = KalahEngine(game, EngineConfig(depth=3, time=5, prove_nodes=0))
    answer = engine.best_move(game.initial_state())
    assert answer.depth == 3 and answer.complete
    assert answer.seconds < 2
    assert answer.value == alphabeta(game, game.initial_state(), 3).value


# --- compound moves ------------------------------------------------------------------


# B to move; B's best line at depth 5 (sowings) is five sowings ending in B's store
# (12, 11, 12, 7, 12): the principal variation ends at the horizon while B still moves.
PAST_THE_HORIZON = [0, 3, 2, 8, 0, 8, 3, 6, 0, 6, 6, 2, 1, 3]


@pytest.mark.parametrize("strategy", ["mtdf", "alphabeta"])
def test_turn_going_on_past_the_horizon_is_finished_with_the_depth_left(strategy: str) -> None:
    """With depth in sowings, the five sowings used up the horizon: the engine finishes B's
    turn with a new search of depth max(1, 5 - 5) = 1, which takes pit 10 (a search as
    deep as 10 sowings would take 9). Its nodes count toward the answer."""
    game = Kalah(6, 4, "classic", "tseitin")
    state = game.make_state(PAST_THE_HORIZON, 1)
    config = EngineConfig(depth=5, strategy=strategy, unit="sowing", prove_nodes=0)
    engine = KalahEngine(game, config)
    reference = alphabeta(game, state, 5, again_is_ply=True)
    answer = engine.best_move(state)
    assert answer.value == reference.value
    assert answer.move == (12, 11, 12, 7, 12, 10)
    assert answer.pv == reference.pv == [12, 11, 12, 7, 12]
    first = engine.search(state)
    assert answer.nodes > first.nodes
    # The facts behind the chosen last sowing:
    s = state
    for pit in (12, 11, 12, 7, 12):
        s, again = game.play(s, pit)
    assert again
    assert alphabeta(game, s, 1, again_is_ply=True).best_move == 10


def test_same_answer_twice_each_search_starts_afresh() -> None:
    game = Kalah(6, 4, evaluation="tseitin")
    engine = KalahEngine(game, EngineConfig(depth=4, strategy="tt", prove_nodes=0))
    state = game.initial_state()
    first, second = engine.best_move(state), engine.best_move(state)
    assert (first.move, first.value, first.nodes) == (second.move, second.value, second.nodes)
    assert first.value == alphabeta(game, state, 4).value


# --- proofs ------------------------------------------------------------------------------


# A to move on 6 x 4; the exact margin is -2 under the classic rules, -4 when a last stone
# in an own empty pit is captured even against an empty pit (empty_capture).
ENDGAME = [0, 0, 1, 0, 1, 0, 20, 0, 1, 0, 0, 2, 0, 23]


@pytest.mark.parametrize(("empty_capture", "margin"), [(False, -2), (True, -4)])
def test_proof_gives_the_exact_value_of_its_own_rules(empty_capture: bool, margin: int) -> None:
    game = Kalah(6, 4, empty_capture=empty_capture)
    state = game.make_state(ENDGAME, 0)
    assert score_margin(alphabeta(game, state, None).value) == margin
    asked = []

    def tables() -> None:
        asked.append(True)

    engine = KalahEngine(game, EngineConfig(depth=8), tables=tables)
    answer = engine.best_move(state)
    assert answer.exact and answer.value == terminal_score(margin, 0)
    assert 1 <= answer.depth <= 8 and answer.complete and answer.bound is None
    assert answer.nodes > 0
    after = game.play_compound(state, answer.move)
    assert score_margin(-alphabeta(game, after, None).value) == margin  # a best move
    assert asked == [True]  # the endgame table was asked for once, at the first proof


def test_proof_reports_its_own_work() -> None:
    game = Kalah(6, 4)
    state = game.make_state(ENDGAME, 0)
    engine = KalahEngine(game, EngineConfig(depth=8))
    proof = engine.prove(state, terminal_score(-1, 3))
    assert proof is not None and proof.exact and proof.complete
    assert (proof.value, proof.depth) == (terminal_score(-2, 0), 0)
    assert proof.nodes > 0 and 0 < proof.seconds < 1
    assert proof.move == () and proof.pv  # the solver's best compound move
    assert engine.prove(state, 0, deadline=0.0) is None  # no time left: no budget


def test_etudes_proof_uses_the_etudes_rules() -> None:
    """The same board is worth -4 under the Etudes rules (-2 classic, the test above):
    an Etudes engine's proof must give the Etudes value, and a best move of it."""
    game = Kalah(6, 4, "etudes")
    state = game.make_state(ENDGAME, 0)
    assert score_margin(alphabeta(game, state, None).value) == -4
    assert score_margin(alphabeta(Kalah(6, 4), state, None).value) == -2
    engine = KalahEngine(game, EngineConfig(depth=8))
    answer = engine.best_move(state)
    assert answer.exact and answer.value == terminal_score(-4, 0)
    proof = engine.prove(state, terminal_score(-1, 3))
    assert proof is not None and proof.value == terminal_score(-4, 0)
    after = game.play_compound(state, answer.move)
    assert score_margin(-alphabeta(game, after, None).value) == -4  # a best move


def test_proof_reads_the_endgame_table_it_is_given() -> None:
    """ENDGAME has 5 stones in the pits: with the 5-stone table the solver knows every
    position after A's move and proves the value within 10 positions; without a table it
    needs more than 10 (it searches to the end of the game), so that budget fails."""
    from boardgames.kalah.exact import endgame

    game = Kalah(6, 4)
    state = game.make_state(ENDGAME, 0)
    table = endgame.build(6, 5)
    with_table = KalahEngine(game, EngineConfig(depth=8, prove_nodes=10), tables=lambda: table)
    proof = with_table.prove(state, terminal_score(-1, 3))
    assert proof is not None and proof.value == terminal_score(-2, 0)
    assert proof.nodes <= 10
    without = KalahEngine(game, EngineConfig(depth=8, prove_nodes=10))
    assert without.prove(state, terminal_score(-1, 3)) is None
    enough = KalahEngine(game, EngineConfig(depth=8, prove_nodes=100))
    assert enough.prove(state, terminal_score(-1, 3)) is not None  # the budget stopped it


def test_proof_stops_at_its_budget() -> None:
    """The proof above needs more than 3 positions: with a budget of 3 it gives up."""
    game = Kalah(6, 4)
    state = game.make_state(ENDGAME, 0)
    engine = KalahEngine(game, EngineConfig(depth=8, prove_nodes=3))
    assert engine.prove(state, terminal_score(-1, 3)) is None
    assert not engine.best_move(state).exact


def test_no_proof_budget_leaves_a_bound() -> None:
    game = Kalah(6, 4, evaluation="tseitin")
    state = game.make_state(ENDGAME, 0)
    answer = KalahEngine(game, EngineConfig(depth=8, prove_nodes=0)).best_move(state)
    assert not answer.exact and answer.bound == "upper"
    assert answer.value == alphabeta(game, state, 8).value


# --- MCTS ------------------------------------------------------------------------------


def test_mcts_answer_reports_its_search() -> None:
    game = Kalah(6, 4)
    state = game.initial_state()
    engine = KalahEngine(game, EngineConfig(strategy="mcts", playouts=64, seed=3))
    answer = engine.best_move(state)
    assert answer.mcts is not None
    assert answer.nodes == answer.mcts.playouts == 64
    assert answer.pv == list(answer.mcts.pv)
    assert (answer.value, answer.depth, answer.complete, answer.exact) == (0, 0, True, False)
    assert 0 < answer.seconds < 1  # 64 playouts take milliseconds
    after = game.play_compound(state, answer.move)  # one whole turn
    assert game.to_move(after) == 1
    assert answer.move[: len(answer.pv)] == tuple(answer.pv[: len(answer.move)])


def test_mcts_with_a_time_limit_keeps_it() -> None:
    game = Kalah(6, 4)
    engine = KalahEngine(game, EngineConfig(strategy="mcts", time=0.2))
    answer = engine.best_move(game.initial_state())
    assert answer.mcts is not None and answer.mcts.playouts > 64
    assert 0.1 < answer.seconds < 0.2 + 2  # generous: the machine may be busy


def test_mcts_turn_ends_when_the_game_ends() -> None:
    """A's only pit with stones ends in A's store and empties A's side: the game is over
    after one sowing, although it was an "extra turn"."""
    game = Kalah(6, 4)
    board = [0, 0, 0, 0, 0, 1, 20, 1, 1, 1, 0, 0, 0, 24]
    state = game.make_state(board, 0)
    answer = KalahEngine(game, EngineConfig(strategy="mcts", playouts=8)).best_move(state)
    assert answer.move == (5,)
    assert np.array_equal(game.play_compound(state, (5,)), game.play(state, 5)[0])


def test_analyse_position_searches_as_configured() -> None:
    """The one-shot helper answers as an engine of the same configuration does: the
    same move, value and depth; without a configuration, the default one's (a time
    limit: a legal compound move, at some depth)."""
    from boardgames.kalah.play.engine import analyse_position

    game = Kalah(6, 4)
    state = game.initial_state()
    for depth in (2, 5):
        config = EngineConfig(depth=depth)
        answer = analyse_position(game, state, config)
        engine = KalahEngine(game, EngineConfig(depth=depth)).best_move(state)
        assert (answer.move, answer.value, answer.depth) == (engine.move, engine.value, depth)
    default = analyse_position(game, state)
    assert default.depth >= 1 and game.play_compound(state, default.move) is not None


def test_presets_help_lists_every_preset_wrapped_to_the_terminal() -> None:
    """``kalah play --help`` lists each preset: ``  name: spec``, then its description
    wrapped at 76 columns, indented by 6 spaces."""
    from boardgames.kalah.play.engine import PRESETS, presets_help

    text = presets_help()
    lines = text.splitlines()
    assert lines[:2] == ["\b", "Presets (NAME for a spec; NAME,key=value changes one key):"]
    body = lines[2:]
    heads = [i for i, line in enumerate(body) if not line.startswith("      ")]
    assert [body[i] for i in heads] == [f"  {n}: {spec}" for n, (spec, _) in PRESETS.items()]
    for k, (_, what) in enumerate(PRESETS.values()):
        end = heads[k + 1] if k + 1 < len(heads) else len(body)
        described = body[heads[k] + 1 : end]
        assert described and all(len(line) <= 76 for line in described)
        assert all(line.startswith("      ") and line[6] != " " for line in described)
        assert " ".join(line.strip() for line in described) == " ".join(f"{what}.".split())
        for line, after in itertools.pairwise(described):  # filled: no word would fit
            assert len(line) + 1 + len(after.split()[0]) > 76


def test_describe_names_a_node_budget() -> None:
    assert EngineConfig(nodes=5000).describe() == "5,000 positions a move, eval tseitin, mtdf"


def test_mcts_engine_passes_on_seed_exploration_and_policy() -> None:
    """The engine's MCTS follows its configuration: other seeds, another exploration
    constant or another playout policy give other statistics for the same position."""
    from boardgames.core.mcts import POLICIES

    game = Kalah(6, 4)
    state = game.initial_state()

    def children(**settings: object) -> list[tuple[int, int, float, int | None]]:
        config = EngineConfig(strategy="mcts", playouts=300, **settings)  # type: ignore[arg-type]
        answer = KalahEngine(game, config).best_move(state)
        assert answer.mcts is not None
        return answer.mcts.children

    base = children(seed=0)
    assert children(seed=0) == base  # one seed: one answer
    assert any(children(seed=s) != base for s in (1, 2, 3))
    assert children(seed=0, exploration=0.1) != base
    for policy in POLICIES:
        if policy != EngineConfig().policy:
            assert children(seed=0, policy=policy) != base


def test_mcts_with_a_short_time_limit_answers_quickly() -> None:
    """0.1 s a move: the answer comes well within a second (every sowing's search gets
    what is left of the limit, not a fixed minimum)."""
    game = Kalah(6, 4)
    engine = KalahEngine(game, EngineConfig(strategy="mcts", time=0.1))
    answer = engine.best_move(game.initial_state())
    assert answer.seconds < 0.9


# --- the node budget (the classic programs, issue 18) -----------------------------------


def test_a_budget_of_nothing_is_an_empty_incomplete_answer() -> None:
    """No positions to spend (what a compound move has left after its first search):
    no move, no line, value 0, depth 0, and the answer says it is incomplete."""
    engine = KalahEngine(Kalah(6, 4), EngineConfig(strategy="alphabeta", nodes=100))
    answer = engine.search(Kalah(6, 4).initial_state(), budget=0)
    assert (answer.move, answer.value, answer.pv, answer.nodes, answer.depth) == ((), 0, [], 0, 0)
    assert answer.complete is False


def test_a_budget_too_small_for_depth_one_finishes_nothing() -> None:
    """One position: the depth-1 search needs seven (the root and its six moves), so no
    iteration finishes: no line, value 0, depth 0, incomplete; the position examined
    counts."""
    game = Kalah(6, 4)
    engine = KalahEngine(game, EngineConfig(strategy="alphabeta", nodes=1))
    answer = engine.search(game.initial_state())
    assert (answer.move, answer.value, answer.pv, answer.depth) == ((), 0, [], 0)
    assert answer.nodes == 1 and answer.complete is False


def test_a_depth_given_to_a_budgeted_search_caps_it_and_every_iteration_counts() -> None:
    """``search(state, depth=3)`` under a budget it never reaches: iterations 1, 2 and 3
    of plain alpha-beta, their positions added up, complete at depth 3."""
    game = Kalah(6, 4)
    state = game.initial_state()
    engine = KalahEngine(game, EngineConfig(strategy="alphabeta", nodes=10**6))
    answer = engine.search(state, depth=3)
    ref = Kalah(evaluation="tseitin")
    assert answer.nodes == sum(alphabeta(ref, state, d).nodes for d in (1, 2, 3))
    assert (answer.move, answer.depth, answer.complete) == ((), 3, True)
    assert (answer.value, answer.pv) == (
        alphabeta(ref, state, 3).value,
        alphabeta(ref, state, 3).pv,
    )


@pytest.mark.parametrize("unit", ["compound", "sowing"])
def test_selective_engine_counts_depth_as_its_unit_says(unit: str) -> None:
    """The selective search behind the engine gets the engine's unit: with ``sowing`` an
    extra turn is a ply of its own (``again_is_ply``)."""
    from boardgames.core.compare import random_positions
    from boardgames.core.search import selective

    game = Kalah(6, 6, "classic", "tseitin")
    engine = KalahEngine(game, EngineConfig(strategy="selective", nodes=1000, unit=unit))
    differ = 0
    for state in random_positions(game, 6, 9, (0, 30)):
        answer = engine.search(state)
        ref = selective(game, state, 1000, again_is_ply=unit == "sowing")
        other = selective(game, state, 1000, again_is_ply=unit != "sowing")
        assert (answer.move, answer.value, answer.pv, answer.nodes, answer.depth) == (
            (), ref.value, ref.pv, ref.nodes, ref.depth,
        )  # fmt: skip
        differ += (other.value, other.pv, other.depth) != (ref.value, ref.pv, ref.depth)
    assert differ > 0  # the unit matters on these positions


def test_selective_engine_says_when_its_value_is_exact() -> None:
    """A's one legal sowing ends the game (21 against 27): the selective search plays
    that line out, so the engine's answer is exact, a loss by 6; with a budget of one
    position it cannot even look at the move, and nothing is exact."""
    game = Kalah(6, 4)
    state = game.make_state([0, 0, 0, 0, 0, 1, 20, 1, 1, 1, 0, 0, 0, 24], 0)
    solved = KalahEngine(game, EngineConfig(strategy="selective", nodes=100)).search(state)
    assert solved.exact and score_margin(solved.value) == -6 and solved.pv == [5]
    cut = KalahEngine(game, EngineConfig(strategy="selective", nodes=1)).search(state)
    assert not cut.exact and (cut.pv, cut.depth) == ([], 0)


def test_a_budget_that_stops_the_deepening_leaves_it_incomplete() -> None:
    """1,000 positions take plain alpha-beta a few plies deep, far from its deepest
    depth: the answer is the last finished iteration's and says it is incomplete."""
    from boardgames.kalah.play.engine import MAX_DEPTH

    game = Kalah(6, 4)
    answer = KalahEngine(game, EngineConfig(strategy="alphabeta", nodes=1000)).search(
        game.initial_state()
    )
    assert 1 <= answer.depth < MAX_DEPTH and answer.complete is False


def test_a_budgeted_search_in_sowings_counts_an_extra_turn_as_a_ply() -> None:
    """unit="sowing" under a budget: each iteration is plain alpha-beta with
    ``again_is_ply``, so depth 3 gives what alpha-beta in sowings gives."""
    game = Kalah(6, 4)
    state = game.initial_state()
    engine = KalahEngine(game, EngineConfig(strategy="alphabeta", nodes=10**6, unit="sowing"))
    answer = engine.search(state, depth=3)
    ref = Kalah(evaluation="tseitin")
    sowings = alphabeta(ref, state, 3, again_is_ply=True)
    assert (answer.value, answer.pv) == (sowings.value, sowings.pv)
    assert answer.pv != alphabeta(ref, state, 3).pv  # the unit changes the answer here


def test_node_budget_bounds() -> None:
    from boardgames.kalah.play.engine import MAX_NODES

    assert EngineConfig(nodes=MAX_NODES).nodes == MAX_NODES
    assert EngineConfig(nodes=1).nodes == 1
    for bad in (0, MAX_NODES + 1):
        with pytest.raises(GameError):
            EngineConfig(nodes=bad)


def test_a_timed_first_proof_makes_its_table_in_the_background() -> None:
    """The proofs' endgame table may take seconds to load or build; a move with a time
    limit does not wait for it: its first proof is skipped while the table is made in the
    background, and the next proof uses it."""
    import threading
    import time

    game = Kalah(6, 4)
    state = game.make_state(ENDGAME, 0)
    gate = threading.Event()
    asked: list[str] = []

    def tables() -> None:
        asked.append(threading.current_thread().name)
        gate.wait(30)

    engine = KalahEngine(game, EngineConfig(time=5.0), tables=tables)
    t0 = time.perf_counter()
    assert engine.prove(state, terminal_score(-1, 3), deadline=t0 + 5) is None
    assert time.perf_counter() - t0 < 10  # not the 30 s the blocked table would take
    gate.set()
    assert engine._preparing is not None
    engine._preparing.join(10)
    assert asked == ["proof-table"]
    proof = engine.prove(state, terminal_score(-1, 3), deadline=time.perf_counter() + 5)
    assert proof is not None and proof.value == terminal_score(-2, 0)


def test_a_timed_proof_stops_when_its_share_of_the_time_is_spent(monkeypatch) -> None:
    """The node budget is what the share buys at the measured rate; should the machine be
    slower, the proof is stopped by the clock all the same (here the rate is set so high
    that the node budget never would: the start of 6 x 6 takes the solver minutes)."""
    import time

    from boardgames.kalah.play import engine as E

    monkeypatch.setattr(E, "PROOF_RATE", 10**12)
    game = Kalah(6, 6)
    engine = KalahEngine(game, EngineConfig(time=5.0))
    engine.solver()  # made beforehand: the proof runs
    t0 = time.perf_counter()
    assert engine.prove(game.initial_state(), 0, deadline=t0 + 1.0) is None
    assert time.perf_counter() - t0 < 5
