"""The generic program: a move, its value and its line for any two-player game.

:func:`think` is what ``boardgames play GAME``, ``boardgames analyse GAME`` and the web page
ask, whatever the game. It uses, in order of what the game offers:

1. the game's exact solver (its plugin's ``solver``), when it answers within the time;
2. the numba engine (the plugin's ``kernels``), once they are compiled on this machine
   (:mod:`boardgames.core.warmup`): MTD(f) by iterative deepening within the time;
3. the pure-Python reference search (:func:`boardgames.core.search.alphabeta_tt`): first a
   search to the end of the game (exact when it finishes), then iterative deepening.

An answer is called exact only when it is: a solver's value or a search that reached the
end of every line. Otherwise a won or lost score is a bound (``win by at least``) and a
heuristic value a number (:func:`boardgames.core.protocol.describe_score`).

Every search polls ``stop`` (Ctrl-C, a Cancel, a closed page) and the deadline.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from boardgames.core.hooks import Answer as Answer
from boardgames.core.protocol import Game, GameError, SearchResult, State
from boardgames.core.registry import plugin_of
from boardgames.core.search import SearchStopped, alphabeta_tt

T = TypeVar("T")

SOLVER_SHARE = 0.6
"""Share of the time the game's exact solver gets before a search takes over ..."""
WHOLE_TIME_SECONDS = 10.0
"""... except when the program thinks at least this long (the ``perfect`` level): then
the solver gets the whole time, so that every position it can solve in that time is
played perfectly, and a search that answers when it could not gets
:data:`FALLBACK_SHARE` more."""
FALLBACK_SHARE = 0.1

LEVELS: dict[str, dict[str, Any]] = {
    "easy": {"depth": 1, "seconds": None},
    "medium": {"depth": 3, "seconds": None},
    "strong": {"depth": None, "seconds": 1.0},
    "perfect": {"depth": None, "seconds": WHOLE_TIME_SECONDS},
}
"""Program levels in plain words: a fixed depth, or a time to think (the solver first)."""

NUMBA_RATE = 2_000_000
"""Positions a second the numba engine is assumed to search when sizing a first try."""
EXACT_SHARE = 0.15
"""Share of the time given to a first search to the end of the game (exact if it ends:
small games and endgames); the rest goes to iterative deepening."""


class Cancelled(Exception):
    """The caller's ``stop`` said to stop before any answer was found."""


def _never() -> bool:
    return False


def numba_ready(game: Game) -> bool:
    """True when ``game`` has kernels and they are compiled on this machine (the numba
    engine answers at once); else a background compile is started for the next run."""
    if plugin_of(game).kernels is None:
        return False
    from boardgames.core import warmup

    if warmup.is_ready(game.name):
        return True
    warmup.warm_in_background(game.name)
    return False


def think(
    game: Game,
    state: State,
    *,
    seconds: float | None = 1.0,
    depth: int | None = None,
    stop: Callable[[], bool] | None = None,
    engine: str = "auto",
) -> Answer:
    """The program's move and value for ``state``.

    ``depth``: search exactly that deep (the time is then not a limit). Else ``seconds``:
    think about that long. ``engine``: ``auto`` (solver, then numba if compiled, then
    python), ``python`` or ``numba``. Raises :class:`Cancelled` when ``stop`` fired before
    any answer, GameError when the game is over.
    """
    if game.outcome(state) is not None or not game.legal_moves(state):
        raise GameError("the game is over: there is no move to find")
    asked = stop or _never
    t0 = time.perf_counter()
    budget = 1.0 if seconds is None else max(0.01, seconds)
    deadline = t0 + budget

    def stop_at_deadline() -> bool:
        return asked() or (depth is None and time.perf_counter() > deadline)

    use_numba = engine == "numba" or (engine == "auto" and numba_ready(game))
    if engine == "auto" and depth is None:
        share = 1.0 if budget >= WHOLE_TIME_SECONDS else SOLVER_SHARE
        solver_end = t0 + budget * share  # the rest for a search if it cannot finish
        solved = _try_solver(game, state, lambda: asked() or time.perf_counter() > solver_end)
        if solved is not None:
            return _answer(solved, "solver", t0, budget, depth=None)
        if share >= 1.0:  # the solver had the whole time: a short search answers
            spent = time.perf_counter() - t0
            extra = budget * FALLBACK_SHARE
            budget, deadline = spent + extra, time.perf_counter() + extra
    if use_numba:
        return _think_numba(game, state, depth, budget, asked, t0)
    return _think_python(game, state, depth, budget, asked, stop_at_deadline, t0)


def _answer(
    r: SearchResult, engine: str, t0: float, budget: float | None, depth: int | None
) -> Answer:
    """``r`` as an :class:`Answer`; ``budget``: the seconds a timed search was given
    (None: no time was given, a search to a depth or until stopped, which never overran)."""
    spent = time.perf_counter() - t0
    return Answer(
        r.best_move, r.value, r.exact, depth, r.nodes, spent, engine, list(r.pv),
        overran=budget is not None and spent > 1.5 * budget + 0.2,
    )  # fmt: skip


SOLVER_LET_GO = 0.4
"""Seconds a game's solver is waited for once ``stop`` fired; then it is let go (it was
asked to stop and ends in its thread) and the caller goes on as if it had stopped. A
solver that cannot stop at once (loading its compiled kernels on first use: seconds)
so never holds a Cancel or a Ctrl-C."""
_LET_GO: dict[str, threading.Thread] = {}
"""A game's solver let go and still running: the game's solver is not asked again until
it ends (its tables and workspace are its own)."""
_LET_GO_LOCK = threading.Lock()


def _try_solver(game: Game, state: State, stop: Callable[[], bool]) -> SearchResult | None:
    """The game's solver's exact answer, or None: no solver, stopped, or let go
    :data:`SOLVER_LET_GO` seconds after ``stop`` fired (or Ctrl-C, raised here)."""
    solve = plugin_of(game).exact_solver()
    if solve is None:
        return None
    name = plugin_of(game).name
    with _LET_GO_LOCK:
        earlier = _LET_GO.get(name)
        if earlier is not None and earlier.is_alive():
            return None
        _LET_GO.pop(name, None)
    box: dict[str, Any] = {}
    let_go = threading.Event()

    def asked() -> bool:
        return let_go.is_set() or stop()

    def run() -> None:
        try:
            box["result"] = solve(game, state, stop=asked)
        except BaseException as e:  # handed to the caller
            box["error"] = e

    thread = threading.Thread(target=run, name=f"{name} solver", daemon=True)
    thread.start()
    stopped_at: float | None = None
    try:
        while thread.is_alive():
            thread.join(0.02)
            if stopped_at is None and thread.is_alive() and stop():
                stopped_at = time.perf_counter()
            if stopped_at is not None and time.perf_counter() - stopped_at > SOLVER_LET_GO:
                _let_go(name, thread, let_go)
                return None
    except BaseException:  # Ctrl-C while it solves: it is asked to stop, and let go
        _let_go(name, thread, let_go)
        raise
    error = box.get("error")
    if isinstance(error, SearchStopped):
        return None
    if error is not None:
        raise error
    result: SearchResult = box["result"]
    return result if result.exact and result.best_move is not None else None


def _let_go(name: str, thread: threading.Thread, let_go: threading.Event) -> None:
    let_go.set()
    if thread.is_alive():
        with _LET_GO_LOCK:
            _LET_GO[name] = thread


def exact_answer(game: Game, state: State, stop: Callable[[], bool]) -> Answer | None:
    """The exact value of ``state`` if it can be had before ``stop`` says to stop: the
    game's solver, else a search to the end of the game (numba if compiled); None if not."""
    t0 = time.perf_counter()
    solved = _try_solver(game, state, stop)
    if solved is not None:
        return _answer(solved, "solver", t0, None, None)
    if numba_ready(game):
        from boardgames.core.strategies import numba_searcher

        searcher = numba_searcher(game)
        searcher.ws.clear_heuristics(table=True)
        r, stopped = aborting(
            searcher.ws, stop, lambda: searcher.limited("mtdf", state, searcher.K.DEPTH_INF, 2**62)
        )
        if stopped:
            return None
        r.exact, r.depth = True, None
        return _answer(r, "numba", t0, None, None)
    try:
        r = alphabeta_tt(game, state, None, stop=stop)
    except SearchStopped:
        return None
    r.exact = True
    return _answer(r, "python", t0, None, None)


def _think_python(
    game: Game,
    state: State,
    depth: int | None,
    budget: float,
    asked: Callable[[], bool],
    stop_at_deadline: Callable[[], bool],
    t0: float,
) -> Answer:
    table: dict[bytes, Any] = {}
    if depth is not None:
        try:
            r = alphabeta_tt(game, state, depth, table=table, stop=asked)
        except SearchStopped:
            raise Cancelled("stopped before the search finished") from None
        return _answer(r, "python", t0, None, depth)  # a depth: no time given
    # a search to the end in the first part of the time: exact if it finishes
    first_deadline = t0 + budget * EXACT_SHARE
    try:
        r = alphabeta_tt(
            game, state, None, stop=lambda: asked() or time.perf_counter() > first_deadline
        )
        r.exact = True
        return _answer(r, "python", t0, budget, None)
    except SearchStopped:
        pass
    best: Answer | None = None
    d, last = 1, 0.0
    while True:
        started = time.perf_counter()
        if best is not None and started + last * 3 > t0 + budget:
            break  # the next depth would not finish in time
        try:
            # depth 1 always finishes: the program must answer something
            r = alphabeta_tt(
                game, state, d, table=table, stop=asked if d == 1 else stop_at_deadline
            )
        except SearchStopped:
            break
        best = _answer(r, "python", t0, budget, d)
        last = time.perf_counter() - started
        if r.exact or d >= 200:
            break  # every line reached the end: a deeper search says the same
        d += 1
    if best is None:
        raise Cancelled("stopped before the first search finished")
    return best


def _think_numba(
    game: Game,
    state: State,
    depth: int | None,
    budget: float,
    asked: Callable[[], bool],
    t0: float,
) -> Answer:
    from boardgames.core.strategies import numba_searcher

    searcher = numba_searcher(game)
    return aborting(
        searcher.ws, asked, lambda: _deepen_numba(searcher, state, depth, budget, asked, t0)
    )


def aborting(ws: Any, asked: Callable[[], bool], work: Callable[[], T]) -> T:
    """``work()`` (numba searches on the workspace ``ws``) in a worker thread, aborted
    within 20 ms when ``asked`` says to stop or Ctrl-C arrives (a kernel holds its thread:
    this one stays free to see both). The workspace is usable again afterwards."""
    from boardgames.core.progress import run_in_thread

    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.02):
            if asked():
                ws.abort()
                return

    watcher = threading.Thread(target=watch, name="stop-watch", daemon=True)
    watcher.start()
    try:
        return run_in_thread(work, stop=ws.abort)
    finally:
        done.set()
        watcher.join()
        ws.resume()


def _deepen_numba(
    searcher: Any, state: State, depth: int | None, budget: float, asked: Callable[[], bool],
    t0: float,
) -> Answer:  # fmt: skip
    if depth is not None:
        r, stopped = searcher.limited("mtdf", state, depth, 2**62)
        if stopped:
            raise Cancelled("stopped before the search finished")
        return _answer(r, "numba", t0, None, depth)  # a depth: no time given
    searcher.ws.clear_heuristics(table=True)
    # a search to the end within a share of the time
    limit = max(10_000, int(NUMBA_RATE * budget * EXACT_SHARE))
    r, stopped = searcher.limited("mtdf", state, searcher.K.DEPTH_INF, limit)
    if not stopped:
        r.exact = True
        r.depth = None
        return _answer(r, "numba", t0, budget, None)
    best: Answer | None = None
    d, rate, guess = 1, float(NUMBA_RATE), 0
    while not asked():
        left = budget - (time.perf_counter() - t0)
        if best is not None and left <= 0:
            break
        started = time.perf_counter()
        r, stopped = searcher.limited("mtdf", state, d, max(1_000, int(rate * left)), guess=guess)
        took = time.perf_counter() - started
        if took > 0.01:
            rate = max(rate * 0.25, r.nodes / took)
        if stopped:
            if best is not None:
                break
            continue  # the first depth must finish: more positions next time round
        guess = r.value
        best = _answer(r, "numba", t0, budget, d)
        if d >= 200:
            break
        d += 1
    if best is None:
        raise Cancelled("stopped before the first search finished")
    return best


def candidates(
    game: Game,
    state: State,
    *,
    seconds: float = 1.0,
    top: int = 3,
    stop: Callable[[], bool] | None = None,
    depth: int | None = None,
) -> list[tuple[int, Answer]]:
    """The ``top`` best moves of ``state`` with their values for the mover, best first.

    Every move is scored the same way, so that the values compare: the game's solver on
    each position after it (when every one is solved within the time), else searches of
    them all to one common depth (``depth``, or the deepest that fits in ``seconds``,
    deepened together)."""
    from boardgames.core.protocol import MARGIN_UNIT, WIN, is_terminal_score, terminal_score

    moves = game.legal_moves(state)
    if not moves:
        return []
    asked = stop or _never
    t0 = time.perf_counter()
    children = [(m, *game.play(state, m)) for m in moves]

    def scored(values: list[tuple[int, Answer]]) -> list[tuple[int, Answer]]:
        values.sort(key=lambda item: -item[1].value)
        return values[:top]

    def finished(move: int, child: State, again: bool) -> Answer | None:
        result = game.outcome(child)
        if result is None:
            return None
        value = terminal_score(result, 1)
        return Answer(move, value if again else -value, True, 0, 1, 0.0, "rules", [move])

    def from_child(move: int, again: bool, a: Answer) -> Answer:
        # a finished line is one ply further from here than from the child; a value
        # with no ply count (a solver's) stays as it is
        value = a.value
        rest = abs(value) - WIN
        if is_terminal_score(value) and rest % MARGIN_UNIT and rest % MARGIN_UNIT != 1:
            value -= 1 if value > 0 else -1
        value = value if again else -value
        pv = [move, *a.pv]
        return Answer(move, value, a.exact, a.depth, a.nodes, a.seconds, a.engine, pv)

    if depth is None:  # every move's exact value, if they all come in the first share
        end = t0 + seconds * (0.5 if plugin_of(game).solver else EXACT_SHARE)

        def past() -> bool:
            return asked() or time.perf_counter() > end

        solved = []
        for move, child, again in children:
            done = finished(move, child, again)
            if done is None:
                exact = exact_answer(game, child, past)
                if exact is None:
                    break
                done = from_child(move, again, exact)
            solved.append((move, done))
        else:
            return scored(solved)

    def out_of_time() -> bool:
        return asked() or time.perf_counter() > t0 + seconds

    best: list[tuple[int, Answer]] | None = None
    d, last = (depth, 0.0) if depth is not None else (0, 0.0)
    while True:
        started = time.perf_counter()
        if depth is None and best is not None and started + 3 * last > t0 + seconds:
            break
        level: list[tuple[int, Answer]] = []
        try:
            for move, child, again in children:
                done = finished(move, child, again)
                if done is None:
                    # the first depth always finishes (unless stopped): an answer is due
                    cut = asked if depth is not None or best is None else out_of_time
                    a = think(game, child, depth=d, stop=cut)
                    done = from_child(move, again, a)
                level.append((move, done))
        except Cancelled:
            if best is None:
                raise
            break
        best, last = level, time.perf_counter() - started
        if depth is not None or d >= 60:
            break
        d += 1
    assert best is not None
    return scored(best)


def warm_kernels(name: str) -> None:
    """``cache warm``'s step for a game with kernels but no steps of its own: compile the
    numba engine's strategies and Monte Carlo tree search on its default setup."""
    from boardgames.core.mcts import MctsSearcher
    from boardgames.core.registry import make_game
    from boardgames.core.strategies import EXACT_STRATEGIES, numba_searcher

    game = make_game(name)
    state = game.initial_state()
    searcher = numba_searcher(game)
    for strategy in EXACT_STRATEGIES:
        searcher.run(strategy, state, 1)
    MctsSearcher(game).search(state, playouts=4)
