"""The Analyse panel's analysis: deeper and deeper, each depth reported as it comes.

``POST /api/games/{game}/analyse`` with ``deepen: true`` starts a job that values every
move of the position the same way, as :func:`boardgames.core.engine.candidates` does, but
does not stop at the level's depth or time: it searches all the moves to depth 1, 2, 3, ...
and reports each finished depth as the job's progress (``progress.analysis``: the same
answer as the final one, ``depth_text`` ``depth N``), so that the page shows the value,
the bar's number and each top move's own line as they deepen. Between two depths it tries
to prove the moves it has not proved yet (the game's solver, else a search to the end of
the game), with as much time as the analysis has spent so far (so about half of the time
goes to proofs): once every move is proved the answer is exact and the job ends.

It ends too at ``limit`` seconds (:data:`DEEPEN_SECONDS` by default; the depth being
searched then is dropped, the last finished one is the answer) or at depth
:data:`MAX_DEPTH`, and at once on the job's Cancel (the page's Cancel, a new position, the
page closed: :mod:`boardgames.web.jobs`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from boardgames.core.engine import Answer, exact_answer, think
from boardgames.core.engine import Cancelled as SearchCancelled
from boardgames.core.protocol import MARGIN_UNIT, WIN, is_terminal_score, terminal_score
from boardgames.web.inputs import flag, number, whole
from boardgames.web.jobs import Cancelled, Job
from boardgames.web.play import (
    MAX_TOP,
    Setup,
    _ready,
    answer_json,
    prepare_analyse,
    searching,
)

DEEPEN_SECONDS = 30.0
"""How long an analysis deepens unless the request says (``limit``)."""
MAX_DEEPEN_SECONDS = 600.0
"""The longest ``limit`` a request may give."""
MAX_DEPTH = 60
"""The deepest search an analysis starts."""
FIRST_PROOF = 0.25
"""Seconds the first round of proofs gets (later rounds: the time spent so far)."""


def _from_child(move: int, again: bool, a: Answer) -> Answer:
    """A child's answer as the value of ``move`` for the mover (as ``candidates``): a
    finished line is one ply further from here; a value with no ply count stays."""
    value = a.value
    rest = abs(value) - WIN
    if is_terminal_score(value) and rest % MARGIN_UNIT and rest % MARGIN_UNIT != 1:
        value -= 1 if value > 0 else -1
    value = value if again else -value
    return Answer(move, value, a.exact, a.depth, a.nodes, a.seconds, a.engine, [move, *a.pv])


def _plies_left(setup: Setup) -> int | None:
    """At most this many moves remain (a search this deep reaches the end of every line);
    None when unknown (no bound, or a start given as a position)."""
    if setup.start_text not in ("", "start"):
        return None
    bound = setup.spec.length_bound(setup.game)
    return None if bound is None else max(0, bound - len(setup.moves))


def prepare_deepen(data: dict[str, Any]) -> Callable[[Job], Any]:
    """The deepening analysis of a request (see the module doc): ``top`` moves, deepened
    for at most ``limit`` seconds."""
    setup, level = _ready(data)
    top = whole(data, "top", 1, MAX_TOP, 3)
    limit = number(data, "limit", 0.0, MAX_DEEPEN_SECONDS, DEEPEN_SECONDS)
    game = setup.game
    left = _plies_left(setup)

    def analysis(
        found: dict[int, Answer], depth: int | None, t0: float, final: bool
    ) -> dict[str, Any]:
        ranked = sorted(found.values(), key=lambda a: -a.value)
        exact = all(a.exact for a in found.values())
        rows = []
        for a in ranked[:top]:
            row = answer_json(setup, a, None)
            row["move"], row["text"] = a.move, game.format_move(a.move)
            rows.append(row)
        best = rows[0]
        keys = ("move", "text", "value", "value_text", "exact", "bound", "words", "short",
                "pv", "how", "player", "player_name", "bar_text")  # fmt: skip
        depth_text = "exact" if exact else f"depth {depth}"
        out = {
            "moves": rows,
            **{k: best[k] for k in keys},
            "exact": exact,
            "depth_text": depth_text,
            "depth_reached": depth,
            "seconds": round(time.perf_counter() - t0, 3),
            "budget": None,
            "limit": limit,
            "overran": False,
            "overran_text": None,
            "depth": depth,
            "final": final,
            "level": level,
        }
        out["said"] = (
            f"Best for {best['player_name']}: {best['text']}. Its value: {best['words']}"
            + ("." if exact else f", {depth_text}.")
        )
        return out

    def deepen(job: Job, stop: Callable[[], bool]) -> dict[str, Any]:
        t0 = time.perf_counter()
        end = t0 + limit

        def past() -> bool:
            return stop() or time.perf_counter() > end

        children = []
        proved: dict[int, Answer] = {}
        for move in game.legal_moves(setup.now):
            child, again = game.play(setup.now, move)
            children.append((move, child, again))
            result = game.outcome(child)
            if result is not None:  # the move ends the game: its value is the result's
                value = terminal_score(result, 1)
                proved[move] = Answer(
                    move, value if again else -value, True, 0, 1, 0.0, "rules", [move]
                )

        def prove(budget: float) -> None:
            """Try to prove the moves not proved yet, ``budget`` seconds between them."""
            open_ = [c for c in children if c[0] not in proved]
            if not open_:
                return
            share = max(0.05, budget / len(open_))
            for move, child, again in open_:
                until = min(end, time.perf_counter() + share)

                def over(until: float = until) -> bool:
                    return stop() or time.perf_counter() > until

                exact = exact_answer(game, child, over)
                if stop():
                    raise Cancelled
                if exact is not None:
                    proved[move] = _from_child(move, again, exact)

        last: dict[str, Any] | None = None
        job.report(stage="proving", depth=0)
        prove(FIRST_PROOF)
        if len(proved) == len(children):
            return analysis(proved, None, t0, True)
        depth = 1
        while depth <= MAX_DEPTH:
            found = dict(proved)
            try:
                for move, child, again in children:
                    if move in found:
                        continue
                    # the first depth always finishes (unless cancelled): an answer is due
                    cut = stop if last is None else past
                    a = think(game, child, depth=depth, stop=cut)
                    found[move] = _from_child(move, again, a)
            except SearchCancelled:
                if stop() or last is None:
                    raise Cancelled from None
                break  # the time is up: the last finished depth stands
            whole_game = left is not None and depth >= left
            if whole_game:  # every line searched to its end: the values are exact
                for a in found.values():
                    a.exact = True
            last = analysis(found, depth, t0, False)
            job.report(stage="deepening", depth=depth, analysis=last)
            if whole_game or time.perf_counter() > end:
                break
            prove(time.perf_counter() - t0)
            if len(proved) == len(children):
                return analysis(proved, None, t0, True)
            depth += 1
        assert last is not None
        return {**last, "final": True}

    def work(job: Job) -> dict[str, Any]:
        out: dict[str, Any] = searching(setup, job, lambda stop: deepen(job, stop))
        job.check()
        return out

    return work


def prepare_analysis(data: dict[str, Any]) -> Callable[[Job], Any]:
    """The ``analyse`` endpoint: with ``deepen`` the page's analysis, which deepens until
    proved, cancelled or ``limit`` (:func:`prepare_deepen`), else the one-shot analysis
    (:func:`boardgames.web.play.prepare_analyse`)."""
    return prepare_deepen(data) if flag(data, "deepen") else prepare_analyse(data)
