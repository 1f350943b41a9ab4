"""Kalah's web extras: the routes under ``/api/kalah/`` and the page's Kalah, Review and
Compare tabs. The older URLs ``/api/review`` and ``/api/compare`` still answer."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.routing import BaseRoute, Route

from boardgames.kalah.record import MAX_RECORD_BYTES
from boardgames.kalah.web import compare, page, review
from boardgames.web.extras import Site, WebExtras
from boardgames.web.jobs import Job


def new(data: dict[str, Any]) -> dict[str, Any]:
    """A game's position (its setup with the sowings so far)."""
    setup = page.read_setup(data)
    return page.position(setup, page.play_sowings(setup))


def sow(data: dict[str, Any]) -> dict[str, Any]:
    """One sowing, traced stone by stone."""
    return page.sow(page.read_setup(data), data.get("pit"))


def record(data: dict[str, Any]) -> dict[str, Any]:
    """The game as a ``.klh`` record."""
    setup = page.read_setup(data)
    return {"text": page.record_text(setup), "name": "game.klh"}


def program_job(data: dict[str, Any]) -> Callable[[Job], Any]:
    """The program's compound move (refused now, not in the job, when a person moves)."""
    setup = page.read_setup(data)
    page.check_turn(setup, hint=False)
    return lambda job: page.think(setup, job, hint=False)


def hint_job(data: dict[str, Any]) -> Callable[[Job], Any]:
    """The default program's advice for the side to move."""
    setup = page.read_setup(data)
    page.check_turn(setup, hint=True)
    return lambda job: page.think(setup, job, hint=True)


def review_job(data: dict[str, Any]) -> Callable[[Job], Any]:
    """``kalah review`` of a record or of the page's game."""
    record_, depth, exact_nodes = review.read_review(data)
    return lambda job: review.run_review(record_, depth, exact_nodes, job)


def routes(site: Site) -> list[BaseRoute]:
    """The routes, relative to ``/api/kalah``."""
    return [
        Route("/new", site.api(new), methods=["POST"]),
        Route("/sow", site.api(sow), methods=["POST"]),
        Route("/record", site.api(record), methods=["POST"]),
        Route("/open", site.api(page.open_record), methods=["POST"]),
        Route("/program", site.start("program", program_job), methods=["POST"]),
        Route("/hint", site.start("hint", hint_job), methods=["POST"]),
        Route("/review", site.start("review", review_job, limit=1), methods=["POST"]),
        Route("/compare", site.start("compare", compare.prepare, limit=1), methods=["POST"]),
        Route("/compare/options", site.api(compare.options), methods=["POST"]),
    ]


WEB = WebExtras(
    routes=routes,
    static=Path(__file__).parent / "static",
    scripts=("board.js", "kalah.js", "review.js", "compare.js"),
    styles=("kalah.css",),
    html="kalah.html",
    tabs=(("kalah", "Kalah"), ("review", "Review"), ("compare", "Compare")),
    aliases=(
        ("/api/review", "/review"),
        ("/api/compare", "/compare"),
        ("/api/compare/options", "/compare/options"),
    ),
    max_body=MAX_RECORD_BYTES + 64 * 1024,
)
"""What Kalah's plugin names (``web``)."""
