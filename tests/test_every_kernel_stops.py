"""One stop mechanism for every long kernel (issue 41): each stops within a second.

Every kernel that can run for more than a second takes a stop (a ``stop`` callable,
``threading.Event.is_set`` here, or the hook its callers use) and polls it often. The
table :data:`KERNELS` enumerates them; the entries of the games come from the game
registry (:func:`boardgames.core.registry.plugins`), so a new game's solver, searches and
program are covered without a line here:

- every plugin with a ``solver``: its solver on the start of the game;
- every plugin with ``kernels``: the numba engine's kernels (minimax, alpha-beta and the
  iterative MTD(f)) to the end of the game, as ``compare`` and the web page's comparison
  run them (every depth-limited strategy on Kalah), Monte Carlo tree search and the
  generic program on the numba engine;
- every two-player game: the pure-Python search to the end and the generic program on
  the Python engine.

Then the kernels of one game or puzzle: Kalah's exact solver, the Kalah program playing by
MCTS, the endgame-table build, and the N-queens count by every method.

Each runs in a thread on a position it cannot finish in seconds; its stop is set after
:data:`STOP_AFTER` seconds (the test fails if the work ended before: a position too easy
tests nothing), and it must end, by its "stopped" exception or by returning what it had,
within :data:`STOP_LIMIT` of that moment.

The same from the command line (SIGINT, status 130 within a second, one line) and from
the web API (Cancel, the job cancelled within a second), for the long kernels those reach
that no other test covers. Covered elsewhere, not repeated here:
``tests/cli/test_interrupt.py`` (queens count by six methods, kalah perft, review,
analyse, solve, solve by jobs, the endgame build, compare kalah on both engines, compare
nim, explain, the generic analyse of every game, the generic play),
``tests/connect4/test_solver.py::test_ctrl_c_stops_a_long_solve``,
``tests/web/test_server_jobs.py`` (the numba and the Python comparison, the review),
``tests/web/test_api.py::test_cancel_stops_a_review_within_a_second``,
``tests/web/test_play_api.py::test_cancel_stops_the_program_within_a_second_and_it_plays_on``
(Kalah's program), ``tests/queens/test_batches.py`` (the count's stop between every kernel
call, the rotation counts' too).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from boardgames.core.engine import Cancelled, think
from boardgames.core.progress import Stopped
from boardgames.core.registry import GamePlugin, load, plugins, two_player
from boardgames.core.search import SearchStopped, alphabeta_tt
from boardgames.core.strategies import EXACT_STRATEGIES, STRATEGIES
from boardgames.kalah.exact.solver import SearchStopped as SolverStopped
from tests import helpers
from tests.helpers import check_clean_stop, interrupt, solved_at_once

STOP_AFTER = 0.3
"""Seconds a kernel runs before its stop is set."""
STOP_LIMIT = 1.0
"""Seconds within which it must have ended after that."""
STOPPED = (SearchStopped, SolverStopped, Cancelled, Stopped)
"""What a stopped kernel may raise (a queens count's Interrupted is a Stopped)."""

Work = Callable[[threading.Event], object]
"""The long run: it gets the stop (an Event) and ends once it is set."""


@dataclass(frozen=True)
class Kernel:
    """One long kernel: ``prepare()`` (untimed: loading kernels, building the game)
    returns the long run."""

    name: str
    prepare: Callable[[], Work]


def hard_game(spec: GamePlugin) -> Any:
    """The game with its defaults, except lists (Nim's rows) at their largest: a start no
    search finishes in seconds."""
    big = {o.name: [o.high] * 6 for o in spec.options if o.kind == "ints"}
    return spec.make(**big)


# --- the entries the registry gives ------------------------------------------------------------


def solver_kernel(spec: GamePlugin) -> Kernel:
    def prepare() -> Work:
        import inspect

        for _, target in spec.warm:  # the solver's kernels loaded, as after cache warm
            function = load(target)
            if not inspect.signature(function).parameters:
                function()
        solve = load(str(spec.solver))
        game = hard_game(spec)
        # a solver that caps its own work when given a stop (Connect Four's) gets no cap:
        # only the stop may end it
        extra = {"node_limit": 0} if "node_limit" in inspect.signature(solve).parameters else {}
        return lambda stop: solve(game, game.initial_state(), stop=stop.is_set, **extra)

    return Kernel(f"{spec.name}: the solver", prepare)


def numba_kernel(spec: GamePlugin, strategy: str) -> Kernel:
    def prepare() -> Work:
        from boardgames.core.compare import run_comparison
        from boardgames.core.strategies import numba_searcher

        game = hard_game(spec)
        state = game.initial_state()
        numba_searcher(game).run(strategy, state, 1)  # loaded (or compiled) untimed
        return lambda stop: run_comparison(
            game, [state], None, [(strategy, "numba")], stop=stop.is_set
        )

    return Kernel(f"{spec.name}: {strategy} (numba)", prepare)


def mcts_kernel(spec: GamePlugin) -> Kernel:
    def prepare() -> Work:
        from boardgames.core.mcts import MctsSearcher

        game = hard_game(spec)
        mcts = MctsSearcher(game)
        mcts.search(game.initial_state(), playouts=4)
        return lambda stop: mcts.search(game.initial_state(), playouts=10**9, stop=stop.is_set)

    return Kernel(f"{spec.name}: Monte Carlo tree search", prepare)


def program_kernel(spec: GamePlugin, engine: str) -> Kernel:
    def prepare() -> Work:
        game = hard_game(spec)
        state = game.initial_state()
        if engine == "numba":
            from boardgames.core.strategies import numba_searcher

            numba_searcher(game).run("mtdf", state, 1)
        return lambda stop: think(game, state, seconds=3600, engine=engine, stop=stop.is_set)

    return Kernel(f"{spec.name}: the program ({engine})", prepare)


def python_kernel(spec: GamePlugin) -> Kernel:
    def prepare() -> Work:
        game = hard_game(spec)
        return lambda stop: alphabeta_tt(game, game.initial_state(), None, stop=stop.is_set)

    return Kernel(f"{spec.name}: alpha-beta to the end (python)", prepare)


NUMBA = [s for s in EXACT_STRATEGIES if "numba" in STRATEGIES[s].engines]
"""Every depth-limited strategy of the numba engine: all of them run on Kalah."""
ENTRY_POINTS = ("minimax", "alphabeta", "mtdf")
"""The numba engine's kernels (``run_minimax``; ``run_alphabeta`` on the plain engine;
``run_search`` and the Python loops of the iterative strategies): on every game."""


def registry_kernels() -> list[Kernel]:
    found: list[Kernel] = []
    for name, spec in plugins().items():
        if spec.solver:
            found.append(solver_kernel(spec))
        if spec.kernels:
            found += [numba_kernel(spec, s) for s in ENTRY_POINTS]
            found += [mcts_kernel(spec), program_kernel(spec, "numba")]
        if name in two_player():
            found += [python_kernel(spec), program_kernel(spec, "python")]
    return found


# --- the entries of one game or puzzle ----------------------------------------------------------


def kalah_solver() -> Work:
    """Kalah's exact solver on 12 x 20: stopped by :meth:`Solver.stop`, the hook its
    callers (Ctrl-C, the web page's Cancel) call."""
    from boardgames.kalah.exact.solver import Solver
    from boardgames.kalah.game import Kalah

    solver = Solver(12, hash_mb=16)
    solver.warm_up()
    state = Kalah(12, 20).initial_state()

    def work(stop: threading.Event) -> object:
        def bridge() -> None:
            stop.wait()
            solver.stop()

        threading.Thread(target=bridge, daemon=True).start()
        return solver.solve(state)

    return work


def kalah_mcts_program() -> Work:
    """The Kalah program playing by MCTS (``strategy=mcts``): its ``stop``."""
    from boardgames.kalah.game import Kalah
    from boardgames.kalah.play.engine import EngineConfig, KalahEngine

    game = Kalah(12, 20)
    engine = KalahEngine(game, EngineConfig(strategy="mcts", playouts=10**9))

    def work(stop: threading.Event) -> object:
        engine.stop = stop.is_set
        return engine.best_move(game.initial_state())

    return work


def endgame_build() -> Work:
    """The endgame table of 18 stones on 6 pits (86 MB): its progress, called after
    every batch, raises."""
    from boardgames.kalah.exact import endgame

    def work(stop: threading.Event) -> object:
        def progress(level: int, stones: int, done: float) -> None:
            if stop.is_set():
                raise SearchStopped(0)

        return endgame.build(6, 18, progress=progress)

    return work


def queens_count(n: int, method: str) -> Callable[[], Work]:
    def prepare() -> Work:
        from boardgames.queens import counting

        if method in counting.JIT_METHODS:
            counting.load_kernels(method, None, n)
        return lambda stop: counting.run_count(n, method, stop=stop.is_set)

    return prepare


def own_kernels() -> list[Kernel]:
    from boardgames.queens.counting import JIT_METHODS

    kalah = plugins()["kalah"]
    return [
        *[numba_kernel(kalah, s) for s in NUMBA if s not in ENTRY_POINTS],
        Kernel("kalah: the exact solver", kalah_solver),
        Kernel("kalah: the program by MCTS", kalah_mcts_program),
        Kernel("kalah: the endgame-table build", endgame_build),
        # the pure-Python methods share one loop: naive, the slowest, for them all
        *[Kernel(f"queens: count by {m}", queens_count(20, m)) for m in JIT_METHODS],
        Kernel("queens: count by naive", queens_count(16, "naive")),
    ]


KERNELS: list[Kernel] = registry_kernels() + own_kernels()
"""Every long kernel with a way to start it on work it cannot finish in seconds."""


@pytest.mark.parametrize("kernel", KERNELS, ids=[k.name for k in KERNELS])
def test_every_long_kernel_stops_within_a_second_of_its_stop(kernel: Kernel) -> None:
    work = kernel.prepare()
    stop = threading.Event()
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["result"] = work(stop)
        except BaseException as e:  # looked at below
            box["error"] = e
        box["ended"] = time.monotonic()

    thread = threading.Thread(target=run, name=kernel.name, daemon=True)
    started = time.monotonic()
    thread.start()
    thread.join(STOP_AFTER)
    instant = "error" not in box and box.get("ended", float("inf")) - started < 0.1
    if not thread.is_alive() and kernel.name.endswith("the solver") and instant:
        # Nim's Bouton rule: a formula, no search to stop
        pytest.skip(f"{kernel.name} answers at once: there is nothing to stop")
    assert thread.is_alive(), f"it ended before its stop ({box}): give it harder work"
    due = started + STOP_AFTER
    stop.set()
    thread.join(STOP_LIMIT + 10)
    assert not thread.is_alive(), f"still running {STOP_LIMIT + 10} s after its stop"
    took = box["ended"] - due
    assert took < helpers.patience(STOP_LIMIT), f"{took:.2f} s from its stop to its end"
    error = box.get("error")
    assert error is None or isinstance(error, STOPPED), repr(error)


def test_the_table_holds_every_kernel_of_the_registry() -> None:
    """The registry's games are in the table: a solver, the numba strategies, MCTS and the
    program for each game that has them, the Python search for each two-player game."""
    names = {k.name for k in KERNELS}
    for name, spec in plugins().items():
        if spec.solver:
            assert f"{name}: the solver" in names
        if spec.kernels:
            assert f"{name}: minimax (numba)" in names
            assert f"{name}: Monte Carlo tree search" in names
        if spec.kind == "game":
            assert f"{name}: the program (python)" in names
    assert sum(name.startswith("queens: count by ") for name in names) == 7
    assert {f"kalah: {s} (numba)" for s in NUMBA} <= names


# --- from the command line: Ctrl-C -------------------------------------------------------------

MCTS_COMPARE = "compare kalah --strategies mcts --playouts 1000000000 --positions 1"
DATASET = "kalah dataset labels.npz --positions 100000"
CLI = [
    pytest.param(
        [*MCTS_COMPARE.split(), "--pits", "12", "--seeds", "20"], "mcts (numba)", id="mcts"
    ),
    pytest.param([*DATASET.split(), "--pits", "4", "--seeds", "5"], "Labelling", id="dataset"),
]


@pytest.mark.parametrize(("args", "ready"), CLI)
def test_ctrl_c_stops_the_command_within_a_second(
    args: list[str], ready: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(helpers, "MIN_RUN", 1.0)  # SIGINT about a second in
    run = interrupt(args, ready, tmp_path)
    check_clean_stop(run)  # status 130, one "Stopped (Ctrl-C) after ..." line, last
    assert run.seconds < helpers.patience(STOP_LIMIT), run
    assert run.stdout == ""
    assert not (tmp_path / "labels.npz").exists()


# --- from the web API: Cancel ------------------------------------------------------------------


@pytest.fixture
def client() -> Iterator[Any]:
    from tests.web.conftest import Client, make_client

    test_client, web = make_client()
    yield Client(test_client, web)
    web.jobs.close()
    test_client.close()


def web_jobs() -> list[Any]:
    """The long jobs of the page: the queens count, and every two-player game's analysis
    and program (Kalah's program: tests/web/test_play_api.py)."""
    jobs = [pytest.param("/api/queens/count", {"n": 20}, "counting", id="queens-count")]
    for name, spec in two_player().items():
        options = {o.name: [o.high] * 6 for o in spec.options if o.kind == "ints"}
        body = {"game": name, "options": options, "seconds": 60}
        for what in ("analyse", "program") if name != "kalah" else ("analyse",):
            path = f"/api/games/{name}/{what}"
            jobs.append(pytest.param(path, body, "thinking", id=f"{name}-{what}"))
    return jobs


def answered_at_once(name: str, options: dict[str, Any]) -> bool:
    """The game's exact solver values this setup's start at once (Nim's Bouton rule)."""
    spec = two_player()[name]
    return solved_at_once(spec, spec.make(**options))


@pytest.mark.parametrize(("path", "body", "stage"), web_jobs())
def test_cancel_stops_the_job_within_a_second(
    client: Any, path: str, body: dict[str, Any], stage: str
) -> None:
    if "game" in body and answered_at_once(body["game"], body["options"]):
        pytest.skip(f"{body['game']}'s exact solver answers at once: there is no job to stop")
    answer = client.post(path, body)
    assert answer.status_code == 202, answer.text
    job_id = answer.json()["job"]
    deadline = time.monotonic() + 60
    while True:
        snap = client.get(f"/api/jobs/{job_id}").json()
        assert snap["state"] == "running", snap
        if str(snap["progress"].get("stage", "")).startswith(stage):
            break
        assert time.monotonic() < deadline, snap
        time.sleep(0.02)
    time.sleep(STOP_AFTER)
    t0 = time.monotonic()
    snap = client.post(f"/api/jobs/{job_id}/cancel").json()
    assert snap["state"] == "cancelled", snap
    assert time.monotonic() - t0 < helpers.patience(STOP_LIMIT)
    assert snap["reason"] == "user"
    assert client.web.jobs.running() == []
