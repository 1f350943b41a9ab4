"""The Compare tab's API: search strategies side by side on one position of any two-player
game (:func:`boardgames.core.compare.run_comparison`), as a job.

The position is a game as the Play API takes it (the game's name, ``options``,
``position``, ``moves``): the start, or the position shown on the Play tab. The
strategies are the game's: the minimax family on the pure-Python engine, and where the
game has numba kernels on the numba engine too, with Monte Carlo tree search (``mcts``,
an estimate, left out of the agreement check). Every exact strategy must find the same
value at the same depth; the answer says whether they do
(:func:`~boardgames.core.compare.disagreements`).

The numba kernels load (or, on a fresh machine, compile) in a thread of their own while
the job waits for them, so a Cancel ends the job within a second even then (the kernels
go on loading for the next comparison). The comparison's searches use a transposition
table of their own size, so they never share a workspace with the Play tab's searches of
the same game. A Cancel stops the search that runs within a second (the comparison's
``stop``: a Python search asks it every 256 positions, a numba kernel is aborted).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from boardgames.core.compare import comparison_json, disagreements, plan, run_comparison
from boardgames.core.engine import numba_ready
from boardgames.core.protocol import describe_score
from boardgames.core.registry import GamePlugin
from boardgames.core.search import SearchStopped
from boardgames.core.strategies import ENGINES, STRATEGIES
from boardgames.web import play
from boardgames.web.inputs import BadInput, whole
from boardgames.web.jobs import Cancelled, Job

MAX_DEPTH = 12
"""The deepest comparison the page runs (``compare`` allows more: hours)."""
MAX_PYTHON_DEPTH = 6
"""The pure-Python engine is some hundred times slower: the page keeps it shallow."""
DEFAULT_DEPTH = 4
MAX_PLAYOUTS = 1_000_000
DEFAULT_PLAYOUTS = 20_000
TT_MIB = 32.0
"""The comparison's table size (not the Play tab's: a workspace of its own)."""
_LOADING = threading.Lock()
"""Held while kernels load: a comparison cancelled while they loaded leaves its loading
thread running, and the next one waits for it before it searches on the same workspace."""


def engines_of(spec: GamePlugin) -> tuple[str, ...]:
    """The engines a game runs on: numba needs its kernels."""
    return ENGINES if spec.kernels else ("python",)


def strategies_of(spec: GamePlugin) -> list[str]:
    """The strategies that run on one of the game's engines."""
    have = engines_of(spec)
    return [name for name, s in STRATEGIES.items() if set(s.engines) & set(have)]


def options(data: dict[str, Any]) -> dict[str, Any]:
    """The strategies and engines of the ``game`` (for the page's check boxes), which
    engines to tick at first (numba once compiled on this machine), and the limits."""
    spec, game, _ = play.read_game(data)
    have = engines_of(spec)
    ready = "numba" in have and numba_ready(game)
    return {
        "game": spec.name,
        "strategies": [
            {
                "name": name,
                "what": STRATEGIES[name].description,
                "engines": [e for e in STRATEGIES[name].engines if e in have],
                "exact": STRATEGIES[name].exact,
            }
            for name in strategies_of(spec)
        ],
        "engines": list(have),
        "default_engines": ["numba"] if ready else ["python"],
        "numba_ready": ready,
        "max_depth": MAX_DEPTH,
        "max_python_depth": MAX_PYTHON_DEPTH,
        "default_depth": DEFAULT_DEPTH,
        "max_playouts": MAX_PLAYOUTS,
        "default_playouts": DEFAULT_PLAYOUTS,
    }


def _names(data: dict[str, Any], key: str, allowed: list[str], default: list[str]) -> list[str]:
    value = data.get(key, default)
    if (
        not isinstance(value, list)
        or not value
        or len(value) > len(allowed)
        or not all(isinstance(v, str) and v in allowed for v in value)
    ):
        raise BadInput(f"{key} must be a list of some of {', '.join(allowed)}")
    return list(dict.fromkeys(value))


def prepare(data: dict[str, Any]) -> Callable[[Job], Any]:
    """Check a request (the game and its position, ``depth``, ``strategies``,
    ``engines``, ``playouts``) and return the comparison's work."""
    setup = play.read_setup(data)
    spec, game, state = setup.spec, setup.game, setup.now
    depth = whole(data, "depth", 1, MAX_DEPTH, DEFAULT_DEPTH)
    have = list(engines_of(spec))
    known = strategies_of(spec)
    exact = [n for n in known if STRATEGIES[n].exact]
    chosen = _names(data, "strategies", known, exact)
    engines = _names(data, "engines", have, have)
    playouts = whole(data, "playouts", 10, MAX_PLAYOUTS, DEFAULT_PLAYOUTS)
    pairs, notes = plan(chosen, engines)
    if any(e == "python" for _, e in pairs) and depth > MAX_PYTHON_DEPTH:
        raise BadInput(
            f"the python engine is slow: depth at most {MAX_PYTHON_DEPTH} with it "
            f"(the numba engine goes to {MAX_DEPTH})"
        )
    if play.game_over(game, state):
        raise BadInput("the game is over in that position: nothing to compare")
    if not pairs:
        raise BadInput("no strategy runs on the chosen engines: " + "; ".join(notes))

    def work(job: Job) -> dict[str, Any]:
        if any(e == "numba" for _, e in pairs):
            job.report(stage="loading the compiled kernels", done=0, total=len(pairs))
            _load_kernels(job, game, state, pairs)
        job.report(stage="searching", done=0, total=len(pairs))

        def step(done: int, total: int, label: str) -> None:
            if job.cancelled:
                raise Cancelled
            job.progress = {"stage": label, "done": done, "total": total}
            job.version += 1

        try:
            rows = run_comparison(
                game, [state], depth, pairs, step=step, stop=lambda: job.cancelled,
                playouts=playouts, tt_mib=TT_MIB,
            )  # fmt: skip
        except SearchStopped:
            raise Cancelled from None
        job.check()
        problems = disagreements(rows)
        out = comparison_json(
            spec.name, depth, rows, not problems, options=setup.options,
            position=play.position_text(setup) or "the start", problems=problems, notes=notes,
            playouts=playouts,
        )  # fmt: skip
        for result in out["results"]:  # type: ignore[attr-defined]
            if "value" in result:
                value = result.get("value")
                result["value_text"] = None if value is None else describe_score(value)
                continue
            found = result["positions"][0]
            move = found["move"]
            shown = "no move" if move is None else game.format_move(move)
            result["value_text"] = f"{shown} (mean {found['mean']:.2f})"
            result["nodes"] = result["playouts"]
        mover = game.to_move(state)
        out["to_move"] = play.player_name(spec, mover)
        out["title"] = spec.title
        return out

    return work


def _load_kernels(job: Job, game: Any, state: Any, pairs: list[tuple[str, str]]) -> None:
    """Load (or compile) the numba kernels the comparison runs, in a thread of their own:
    the job waits for them, and a Cancel ends the wait (the loading goes on, for the next
    comparison)."""
    failed: list[BaseException] = []

    def load() -> None:
        with _LOADING:
            _load()

    def _load() -> None:
        try:
            from boardgames.core.mcts import MctsSearcher
            from boardgames.core.strategies import numba_searcher

            searcher = numba_searcher(game, TT_MIB)
            for strategy, engine in pairs:
                if engine == "numba" and STRATEGIES[strategy].exact:
                    searcher.run(strategy, state, 1)
            if any(not STRATEGIES[s].exact for s, _ in pairs):
                MctsSearcher(game).search(state, playouts=4)
        except BaseException as e:  # reported by the job: one line, no traceback
            failed.append(e)

    thread = threading.Thread(target=load, name="compare-kernels", daemon=True)
    thread.start()
    while thread.is_alive():
        job.check()
        thread.join(0.05)
    if failed:
        raise failed[0]
