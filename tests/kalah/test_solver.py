"""The exact solver and the endgame tables against the plain exhaustive reference search."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from boardgames.cli import cli
from boardgames.core.protocol import score_margin
from boardgames.core.search import alphabeta_tt
from boardgames.kalah.exact import endgame, index
from boardgames.kalah.exact.solver import SearchStopped, Solver
from boardgames.kalah.game import Kalah
from boardgames.kalah.play import program
from boardgames.kalah.record import Move, Record


def exhaustive(game: Kalah, state: np.ndarray) -> int:
    """Final margin for the side to move by the generic reference search (no depth limit)."""
    if game.outcome(state) is not None:
        return game.outcome(state)
    value = alphabeta_tt(game, state, None).value
    return score_margin(value) or 0


def random_position(rng: np.random.Generator, pits: int, stones: int, rules: str) -> np.ndarray:
    """A random position with ``stones`` stones in the pits and random stores."""
    board = [0] * (2 * pits + 2)
    for _ in range(stones):
        k = int(rng.integers(0, 2 * pits))
        board[k if k < pits else k + 1] += 1
    board[pits] = int(rng.integers(0, 6))
    board[2 * pits + 1] = int(rng.integers(0, 6))
    return np.array([*board, int(rng.integers(0, 2))], dtype=np.int64)


@pytest.mark.parametrize(
    ("pits", "seeds", "rules"),
    [
        (1, 1, "classic"),
        (2, 2, "classic"),
        (3, 2, "classic"),
        (2, 3, "classic"),
        (3, 3, "classic"),
        (2, 2, "etudes"),
        (3, 2, "etudes"),
        (2, 3, "etudes"),
    ],
)
def test_start_positions_equal_exhaustive_search(pits: int, seeds: int, rules: str) -> None:
    game = Kalah(pits, seeds, rules)
    state = game.initial_state()
    solved = Solver(pits, rules, hash_mb=1).solve(state)
    assert solved.value == exhaustive(game, state)
    # the best move really keeps the value: play it and solve the rest
    after = Solver(pits, rules).after(state, solved.best)
    rest = Solver(pits, rules).value(after)
    assert (rest if game.to_move(after) == 0 else -rest) == solved.value


@pytest.mark.parametrize("rules", ["classic", "etudes"])
def test_random_positions_equal_exhaustive_search(rules: str) -> None:
    rng = np.random.default_rng(7)
    for pits in (2, 3, 4):
        game = Kalah(pits, 1, rules)
        solver = Solver(pits, rules, hash_mb=4)  # one table reused across positions
        for _ in range(25):
            state = random_position(rng, pits, int(rng.integers(1, 9)), rules)
            assert solver.value(state) == exhaustive(game, state), state


def test_endgame_table_equals_exhaustive_search() -> None:
    rng = np.random.default_rng(11)
    for pits, stones in [(2, 8), (3, 7), (4, 6)]:
        table = endgame.build(pits, stones)
        assert table.nbytes == index.table_entries(pits, stones)
        game = Kalah(pits, 1)
        for _ in range(60):
            state = random_position(rng, pits, int(rng.integers(1, stones + 1)), "classic")
            if game.outcome(state) is not None:
                continue
            own, opp = (pits, 2 * pits + 1) if state[-1] == 0 else (2 * pits + 1, pits)
            assert table.value(state) == exhaustive(game, state) - (state[own] - state[opp])


@pytest.mark.parametrize("threads", [2, 3])
def test_a_table_built_on_threads_equals_one_built_on_one(threads: int, monkeypatch) -> None:
    """The build's threads share out the positions of one potential (pieces of chunks,
    the last ones short): every entry is what one thread alone computes, whatever the
    split (3 threads cut the chunks unevenly), and no entry is left unbuilt."""
    monkeypatch.setattr(endgame, "CHUNK", 64)  # many chunks, pieces and short ends
    monkeypatch.setattr(endgame.numba, "get_num_threads", lambda: 1)
    alone = endgame.build(4, 9)
    monkeypatch.setattr(endgame.numba, "get_num_threads", lambda: threads)
    shared = endgame.build(4, 9)
    assert np.array_equal(shared.table, alone.table)
    assert (alone.table != endgame.UNKNOWN).all()


def test_solver_with_tables_agrees_and_looks_them_up(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    stale = endgame.cache_path(4, 8, "classic").with_name("kalah-endgame-classic-4p-8s-0ld.npy")
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"from older rule kernels")
    table = endgame.load_or_build(4, 8)
    assert endgame.cache_path(4, 8, "classic").exists()
    assert not stale.exists()  # tables of older rule kernels are cleaned up
    again = endgame.load_or_build(4, 8)  # from the cache this time
    assert again.loaded_from is not None and np.array_equal(again.table, table.table)
    state = Kalah(4, 2).initial_state()
    plain = Solver(4).solve(state)
    with_tables = Solver(4, endgame=table).solve(state)
    assert plain.value == with_tables.value == exhaustive(Kalah(4, 2), state)
    assert with_tables.db_hits > 0 and with_tables.nodes < plain.nodes


def test_a_first_build_names_its_file_only_to_save_it(tmp_path, monkeypatch) -> None:
    """The rule fingerprint in a table's file name compiles a kernel on a fresh machine
    (seconds): with no table of the board in the cache, planning and building never ask
    for it, saving does (once the build is done); a file of any fingerprint makes the
    lookups ask, and a table of older rule kernels is not taken for today's."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    events: list[str] = []
    fingerprint = endgame.rules_fingerprint

    def asked(pits: int, empty_capture: bool = False) -> str:
        events.append("fingerprint")
        return fingerprint(pits, empty_capture)

    def built(*args, **kwargs):
        events.append("build")
        return build(*args, **kwargs)

    build = endgame.build
    monkeypatch.setattr(endgame, "rules_fingerprint", asked)
    monkeypatch.setattr(endgame, "build", built)
    assert endgame.cached_stones(3) == []
    plan = endgame.build_plan(3, 6)
    assert not plan.cached and plan.base is None and plan.folder == tmp_path / "boardgames"
    assert events == []
    table = endgame.load_or_build(3, 6)
    assert events[0] == "build" and "fingerprint" in events
    assert endgame.cache_path(3, 6, "classic").is_file()
    events.clear()
    assert endgame.cached_stones(3) == [6] and endgame.build_plan(3, 6).cached
    assert endgame.load_or_build(3, 6).loaded_from is not None and "build" not in events
    assert endgame.build_plan(3, 6).path == endgame.cache_path(3, 6, "classic")
    # a table of other rule kernels (another fingerprint) is neither loaded nor built on
    old = endgame.cache_path(3, 6, "classic")
    other = old.with_name("kalah-endgame-classic-3p-6s-0ld.npy")
    other.write_bytes(old.read_bytes())
    old.unlink()
    events.clear()
    assert endgame.cached_stones(3) == [] and not endgame.build_plan(3, 6).cached
    assert "fingerprint" in events
    assert np.array_equal(endgame.load_or_build(3, 6).table, table.table)
    assert not other.exists()  # replaced: tables of older rule kernels are cleaned up


def test_a_bigger_table_is_built_on_top_of_a_cached_smaller_one(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    full = endgame.build(3, 9)
    endgame.load_or_build(3, 5)
    levels: dict[int, float] = {}  # level -> the fraction of the build done after it
    grown = endgame.load_or_build(3, 9, progress=lambda n, top, done: levels.update({n: done}))
    assert list(levels) == [6, 7, 8, 9]  # levels 0..5 were read from the 5-stone table
    assert levels[9] == 1.0 and sorted(levels.values()) == list(levels.values())
    assert np.array_equal(grown.table, full.table)
    # a damaged smaller table is not trusted: everything is built
    endgame.cache_path(3, 9, "classic").unlink()
    endgame.cache_path(3, 5, "classic").write_bytes(b"not a table")
    levels.clear()
    again = endgame.load_or_build(3, 9, progress=lambda n, top, done: levels.update({n: done}))
    assert list(levels) == list(range(10)) and np.array_equal(again.table, full.table)


def test_node_limit_stops_and_solver_recovers() -> None:
    solver = Solver(4)
    state = Kalah(4, 3).initial_state()
    with pytest.raises(SearchStopped):
        solver.solve(state, node_limit=50)
    assert solver.solve(state).value == Solver(4).solve(state).value


def test_threads_share_the_table_and_agree() -> None:
    """Two threads over one table (lazy SMP) give the one-thread values, on random middle
    games of 4 and 5 pits and on start positions (checked against the exhaustive search
    where it is quick)."""
    rng = np.random.default_rng(23)
    for pits in (4, 5):
        one = Solver(pits, hash_mb=8)
        two = Solver(pits, hash_mb=8, threads=2)
        for _ in range(12):
            state = random_position(rng, pits, int(rng.integers(8, 17)), "classic")
            assert two.value(state) == one.value(state), state
    for pits, seeds in ((3, 3), (4, 3)):
        state = Kalah(pits, seeds).initial_state()
        solved = Solver(pits, threads=2).solve(state)
        assert solved.value == Solver(pits).solve(state).value
        assert solved.nodes > 0 and solved.best
    state = Kalah(3, 3).initial_state()
    assert Solver(3, threads=2).solve(state).value == exhaustive(Kalah(3, 3), state)


def test_history_heuristic_orders_only() -> None:
    """The history heuristic changes the order of the moves, never a value: with and
    without it the same values on random middle games, and it saves positions on a
    start position (deterministic on one thread)."""
    rng = np.random.default_rng(31)
    for rules in ("classic", "etudes"):
        on = Solver(4, rules, hash_mb=8)
        off = Solver(4, rules, hash_mb=8)
        off.history = False
        for _ in range(12):
            state = random_position(rng, 4, int(rng.integers(8, 17)), rules)
            assert on.value(state) == off.value(state), state
    state = Kalah(5, 3).initial_state()
    on, off = Solver(5, hash_mb=8), Solver(5, hash_mb=8)
    off.history = False
    with_history, without = on.solve(state, guess=0), off.solve(state, guess=0)
    assert with_history.value == without.value
    assert with_history.nodes < without.nodes


def test_table_cache_key_follows_the_rules() -> None:
    """The cache key fingerprints what the rule kernels do: stable, and different for the
    empty-capture variant (whose tables differ)."""
    assert endgame.cache_path(4, 8, "classic") == endgame.cache_path(4, 8, "classic")
    assert (
        endgame.cache_path(4, 8, "classic").name.rsplit("-", 1)[1]
        != endgame.cache_path(4, 8, "classic", empty_capture=True).name.rsplit("-", 1)[1]
    )


def test_play_and_analyse_move_perfectly_inside_the_tables(tmp_path, monkeypatch) -> None:
    """Inside the endgame tables the program's compound move keeps the exact value (checked
    against the exhaustive search), and analyse and play say that the tables answered."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(program, "SMALL_TABLE_ENTRIES", 50_000)  # 4 pits: 10 stones
    monkeypatch.setattr(program, "_TABLES", {})
    game = Kalah(4, 1)
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(40):
        state = random_position(rng, 4, int(rng.integers(2, 11)), "classic")
        if game.outcome(state) is not None:
            continue
        pits, result = program.endgame_compound(game, state)
        value = score_margin(result.value) or 0
        assert value == exhaustive(game, state), state
        after = state
        for pit in pits:
            after, _ = game.play(after, pit)
        rest = exhaustive(game, after)
        assert (rest if game.to_move(after) == game.to_move(state) else -rest) == value
        checked += 1
    assert checked > 20
    # more stones than any table holds: the engine searches instead
    assert program.endgame_compound(game, Kalah(4, 4).initial_state()) is None
    board = "0 1 0 2 5 1 0 0 1 4"
    out = run(["kalah", "analyse", "--board", board, "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    state = Kalah(4, 1).make_state([int(x) for x in board.split()], 0)
    assert data["endgame_table"] and score_margin(data["value"]) == exhaustive(game, state)
    out = run(["kalah", "play", "--pits", "3", "--seeds", "1", "--a", "program", "--b", "program",
               "--no-step", "--record", str(tmp_path / "g.klh")])  # fmt: skip
    assert out.exit_code == 0, out.output
    assert "(exact: endgame tables)" in out.output


def test_table_stays_within_its_budget() -> None:
    for mb in (0.5, 3, 64):
        assert Solver(6, hash_mb=mb).table_bytes <= mb * 2**20


def run(args: list[str]):
    return CliRunner().invoke(cli, args)


def test_solve_cli_json_and_text() -> None:
    result = run(["kalah", "solve", "--pits", "3", "--seeds", "2", "--json"])
    data = json.loads(result.stdout)
    game = Kalah(3, 2)
    assert data["value"] == exhaustive(game, game.initial_state())
    assert data["pits"] == 3 and data["seeds"] == 2 and data["rules"] == "classic"
    assert isinstance(data["best"], list) and data["nodes"] >= 1
    out = run(["kalah", "solve", "--pits", "3", "--seeds", "2", "--to-move", "b"]).output
    assert "Value for B (to move)" in out and "Best move:" in out
    out = run(["kalah", "solve", "--board", "1 0 0 0 0 1 2 0"]).output
    assert "Value for A" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pits", "13"], "pits must be 1 to 12"),
        (["--board", "1 2 3"], "a board has 2m+2 holes"),
        (["--endgame", "lots"], "--endgame must be auto or a number"),
        (["--hash", "0"], "Invalid value for '--hash'"),
    ],
)
def test_solve_cli_bad_input(args: list[str], message: str) -> None:
    result = run(["kalah", "solve", *args])
    assert result.exit_code == 2 and message in result.output
    assert "Traceback" not in result.output


def test_solve_refuses_a_table_bigger_than_the_available_memory(tmp_path, monkeypatch) -> None:
    from boardgames.kalah.exact import sizing

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(sizing, "available_memory", lambda: 2**30)
    result = run(["kalah", "solve", "--pits", "6", "--seeds", "4", "--endgame", "26"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    message = "needs 2.7 GB and 1.1 GB are available; the largest that fits is --endgame 23"
    assert message in result.output


def test_review_marks_a_bad_move_as_a_mistake(tmp_path) -> None:
    """Play the solver's moves except one deliberately bad move; review must flag it."""
    game = Kalah(3, 3)
    solver = Solver(3)
    state = game.initial_state()
    moves: list[Move] = []
    blunder_at = None
    while game.outcome(state) is None:
        player = game.to_move(state)
        pits = tuple(solver.solve(state).best)
        if blunder_at is None and len(moves) >= 1:
            # the compound move that loses most, if it loses at least 3
            best_value = solver.solve(state).value
            worst = min(
                ((tuple(p), r) for p, r in game.compound_moves(state)),
                key=lambda pr: (
                    solver.value(pr[1]) if game.to_move(pr[1]) == player else -solver.value(pr[1])
                ),
            )
            after = worst[1]
            worst_value = (
                solver.value(after) if game.to_move(after) == player else -solver.value(after)
            )
            if best_value - worst_value >= 3:
                pits, blunder_at = worst[0], len(moves) + 1
        moves.append(Move(player, pits))
        state = game.play_compound(state, pits)
    assert blunder_at is not None
    path = tmp_path / "game.klh"
    Record(game=game, moves=moves).save(path)
    result = run(["kalah", "review", str(path), "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["moves"]
    assert len(rows) == len(moves) and all(r["exact"] for r in rows)
    assert rows[blunder_at - 1]["verdict"] == "mistake"
    assert all(r["verdict"] == "best" for k, r in enumerate(rows, 1) if k != blunder_at)
    text = run(["kalah", "review", str(path)]).output
    assert "mistake" in text and "exact" in text


def test_review_bad_file(tmp_path) -> None:
    path = tmp_path / "bad.klh"
    path.write_text("Pits : 3\nSeeds : 3\n1) A: 9\n")
    result = run(["kalah", "review", str(path)])
    assert result.exit_code == 2 and "line 3" in result.output  # bad input, as replay


def test_empty_capture_variant_equals_exhaustive_search() -> None:
    """The variant of "Solving Kalah": Python rules, kernel rules and tables agree."""
    rng = np.random.default_rng(5)
    table = endgame.build(3, 7, empty_capture=True)
    for pits, seeds in [(2, 2), (3, 2), (2, 3), (3, 3)]:
        game = Kalah(pits, seeds, empty_capture=True)
        state = game.initial_state()
        assert Solver(pits, empty_capture=True).solve(state).value == exhaustive(game, state)
    game = Kalah(3, 1, empty_capture=True)
    solver = Solver(3, empty_capture=True, endgame=table)
    for _ in range(40):
        state = random_position(rng, 3, int(rng.integers(1, 12)), "classic")
        assert solver.value(state) == exhaustive(game, state), state
    # the variant differs from the default rules: a last stone in an empty own pit
    # facing an empty pit goes to the store
    plain, variant = Kalah(2, 1), Kalah(2, 1, empty_capture=True)
    s = plain.make_state([1, 0, 0, 0, 2, 0], 0)
    assert plain.play(s, 0)[0].tolist()[:6] == [0, 1, 0, 0, 2, 0]
    # captured alone; A's side is then empty, so B's stones are swept to B's store
    assert variant.play(s, 0)[0].tolist()[:6] == [0, 0, 1, 0, 0, 2]


def test_solve_finished_position_and_conflicting_options() -> None:
    out = run(["kalah", "solve", "--board", "0 0 0 0 0 0 36 1 1 1 1 1 1 30"]).output
    assert "The game is over: A 36, B 36: a draw." in out
    result = run(["kalah", "solve", "--board", "1 1 0 1 1 0", "--pits", "5"])
    assert result.exit_code == 2 and "leave out --pits" in result.output
    result = run(["kalah", "solve", "--rules", "etudes", "--endgame", "5"])
    assert result.exit_code == 2 and "classic rules only" in result.output


def test_review_uses_the_same_table_whatever_the_cache(tmp_path, monkeypatch) -> None:
    from boardgames.kalah.exact import sizing
    from boardgames.kalah.exact.sizing import auto_stones, quick_stones, review_stones

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(sizing, "available_memory", lambda: 8 * 2**30)
    # solve and review build the same 20-stone table when none is cached (35 s, not the
    # 4.5 minutes of the 22-stone one), so each serves the other
    assert review_stones(6, 72) == 20 and auto_stones(6, 72) == 20
    big = endgame.cache_path(6, 20, "classic")
    big.parent.mkdir(parents=True)
    big.touch()  # a table kalah solve left in the cache (its name is what counts here)
    assert endgame.cached_stones(6) == [20]
    assert review_stones(6, 72) == 20 and quick_stones(6, 72) == 20  # --quick takes it
    # a bigger cached table (``--endgame 27`` built it) serves 6 x 4 and up, not 6 x 3
    # (at most half the stones plus four), and not when memory is short
    endgame.cache_path(6, 27, "classic").touch()
    monkeypatch.setattr(sizing, "available_memory", lambda: 32 * 2**30)
    assert auto_stones(6, 48) == 27 and auto_stones(6, 72) == 27 and auto_stones(6, 36) == 20
    assert review_stones(6, 48) == 20 and quick_stones(6, 48) == 27
    monkeypatch.setattr(sizing, "available_memory", lambda: 4 * 2**30)
    assert auto_stones(6, 48) == 20  # 3.9 GB would leave too little: 20 stones, built
