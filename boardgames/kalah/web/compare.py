"""The compare page's API: ``compare kalah``'s :func:`~boardgames.core.compare.run_comparison`
on one Kalah position (the start, or the game on the Kalah page), as a job.

Every exact strategy must find the same value at the same depth; the answer says whether
they do (:func:`~boardgames.core.compare.disagreements`). The page draws the table and a
chart of the positions each strategy visited. The job's Cancel stops the search that
runs within a second (the comparison's ``stop``: a Python search asks it every 256
positions, a numba kernel is aborted), and the job ends.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from boardgames.core.compare import comparison_json, disagreements, plan, run_comparison
from boardgames.core.protocol import describe_score
from boardgames.core.search import SearchStopped
from boardgames.core.strategies import ENGINES, EXACT_STRATEGIES, STRATEGIES
from boardgames.kalah.eval import EVALUATIONS
from boardgames.kalah.game import PLAYER_NAMES, Kalah
from boardgames.kalah.web.page import play_sowings, read_setup
from boardgames.web.inputs import BadInput, choice, whole
from boardgames.web.jobs import Cancelled, Job

MAX_DEPTH = 12
"""The deepest comparison the page runs (``compare kalah`` allows 40: hours)."""
MAX_PYTHON_DEPTH = 6
"""The pure-Python engine is some hundred times slower: the page keeps it shallow."""


def options(data: dict[str, Any]) -> dict[str, Any]:
    """The strategies and engines there are (for the page's check boxes)."""
    return {
        "strategies": [
            {"name": n, "what": STRATEGIES[n].description, "engines": list(STRATEGIES[n].engines)}
            for n in EXACT_STRATEGIES
        ],
        "engines": list(ENGINES),
        "evaluations": list(EVALUATIONS),
        "max_depth": MAX_DEPTH,
        "max_python_depth": MAX_PYTHON_DEPTH,
    }


def prepare(data: dict[str, Any]) -> Callable[[Job], Any]:
    """Check a request (``game`` as the Kalah page sends it, ``depth``, ``eval``,
    ``strategies``, ``engines``) and return the comparison's work."""
    depth = whole(data, "depth", 1, MAX_DEPTH, 4)
    evaluation = choice(data, "eval", EVALUATIONS, "store")
    given = data.get("game")
    setup = read_setup(given if isinstance(given, dict) else {})
    state = play_sowings(setup).state
    chosen = _names(data, "strategies", tuple(EXACT_STRATEGIES))
    engines = _names(data, "engines", ENGINES)
    if "python" in engines and depth > MAX_PYTHON_DEPTH:
        raise BadInput(
            f"the python engine is slow: depth at most {MAX_PYTHON_DEPTH} with it "
            f"(the numba engine goes to {MAX_DEPTH})"
        )
    game = Kalah(setup.game.pits, setup.game.seeds, setup.game.rules, evaluation)
    if game.outcome(state) is not None:
        raise BadInput("the game is over in that position: nothing to compare")
    pairs, notes = plan(chosen, engines)
    if not pairs:
        raise BadInput("no strategy runs on the chosen engines: " + "; ".join(notes))

    def work(job: Job) -> dict[str, Any]:
        job.report(stage="loading the kernels", done=0, total=len(pairs))

        def step(done: int, total: int, label: str) -> None:
            if job.cancelled:
                raise Cancelled
            job.progress = {"stage": label, "done": done, "total": total}
            job.version += 1

        try:
            rows = run_comparison(
                game, [state], depth, pairs, step=step, stop=lambda: job.cancelled
            )
        except SearchStopped:
            raise Cancelled from None
        problems = disagreements(rows)
        out = comparison_json(
            "kalah",
            depth,
            rows,
            not problems,
            pits=game.pits,
            seeds=game.seeds,
            rules=game.rules,
            evaluation=evaluation,
            problems=problems,
            notes=notes,
        )
        for result in out["results"]:  # type: ignore[attr-defined]
            value = result.get("value")
            result["value_text"] = None if value is None else describe_score(value)
        out["board"] = game.board(state)
        out["to_move"] = PLAYER_NAMES[game.to_move(state)]
        return out

    return work


def _names(data: dict[str, Any], key: str, allowed: tuple[str, ...]) -> list[str]:
    value = data.get(key, list(allowed))
    if (
        not isinstance(value, list)
        or not value
        or len(value) > len(allowed)
        or not all(isinstance(v, str) and v in allowed for v in value)
    ):
        raise BadInput(f"{key} must be a list of some of {', '.join(allowed)}")
    return list(dict.fromkeys(value))
