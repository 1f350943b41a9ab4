"""The Review tab's API: every move of a game reviewed (:mod:`boardgames.core.review`), as
a job, for any two-player game.

The request is a game as the Play API takes it (the game's name, ``options``,
``position``, ``moves``; or a ``record``), or, at the older URL ``/api/review``, a
record's ``text`` in a format some game's extras read (a Kalah ``.klh``). Each move is
searched within ``seconds`` (every legal move valued the same way: exact where the solver
or a search to the end answers in the time) or to ``depth`` plies, one move after the
other, each as a search of the game's (:func:`boardgames.web.play.searching`: a search of
the same game on the Play tab takes its turn between two moves). Each finished move is
sent as progress; a Cancel stops the search under way within a second.

The answer's rows are :meth:`boardgames.core.review.MoveReview.as_json`: values for the
mover (``before``, ``after``, ``loss``, ``verdict``) and for the first player
(``before_first``, ``after_first``: the graph's), and the position before each move
(``svg`` or ``board``), so that the page draws it without asking again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from boardgames.core.capabilities import Drawing
from boardgames.core.review import MoveReview, counts, review_move, summary
from boardgames.web import play
from boardgames.web.inputs import BadInput, number, whole
from boardgames.web.jobs import Job

MAX_SECONDS = 60.0
"""Seconds a move the page lets a review search (the command line allows more)."""
DEFAULT_SECONDS = 1.0
MAX_DEPTH = 40
"""The deepest fixed-depth review (plies)."""


def read_review(
    data: dict[str, Any], extras: play.Extras | None = None
) -> tuple[play.Setup, float, int | None]:
    """The game to review and its settings: ``seconds`` a move, or ``depth`` (plies)."""
    if data.get("game") is None and isinstance(data.get("text"), str):
        found = play.read_any({"text": data["text"]}, extras)
        if found["game"] is None:
            raise BadInput("not a record this toolkit reads: it names no game")
        data = {**data, **{k: found[k] for k in ("game", "options", "position", "moves")}}
    setup = play.read_setup(data)
    seconds = number(data, "seconds", 0.0, MAX_SECONDS, DEFAULT_SECONDS)
    if seconds < 0.01:
        raise BadInput("seconds must be at least 0.01")
    depth = None if data.get("depth") is None else whole(data, "depth", 1, MAX_DEPTH)
    if not setup.moves:
        raise BadInput("the game holds no moves to review")
    return setup, seconds, depth


def prepare_review(data: dict[str, Any], extras: play.Extras | None = None) -> Callable[[Job], Any]:
    """Check a review request and return its work."""
    setup, seconds, depth = read_review(data, extras)
    moves = list(setup.moves)

    def work(job: Job) -> dict[str, Any]:
        game, spec = setup.game, setup.spec
        state = setup.start
        reviews: list[MoveReview] = []
        rows: list[dict[str, Any]] = []
        drawn = isinstance(game, Drawing)
        for k, move in enumerate(moves, 1):
            progress = {"stage": "reviewing", "done": k - 1, "total": len(moves),
                        "rows": rows[-1:]}  # fmt: skip

            def one(
                stop: Callable[[], bool], state: Any = state, move: int = move, k: int = k
            ) -> Any:
                return review_move(
                    game, state, move, seconds=seconds, depth=depth, stop=stop, number=k
                )

            reviewed = play.searching(setup, job, one, **progress)
            job.check()  # a search cut short by the cancel gives no row worth showing
            row = reviewed.as_json(game)
            row["player_name"] = play.player_name(spec, reviewed.player)
            row["svg"] = str(game.svg(state)) if drawn else None
            row["board"] = None if drawn else play.board_text(game, state)
            reviews.append(reviewed)
            rows.append(row)
            state, _ = game.play(state, move)
        job.report(stage="done", done=len(moves), total=len(moves), rows=rows[-1:])
        return {
            "game": spec.name,
            "title": spec.title,
            "options": setup.options,
            "position": setup.start_text,
            "player_names": list(spec.player_names),
            "seconds": seconds if depth is None else None,
            "depth": depth,
            "moves": rows,
            "counts": counts(reviews),
            "exact_moves": sum(1 for r in reviews if r.exact),
            "summary": summary(reviews),
            "final": play.result_text(spec, game, state),
        }

    return work
