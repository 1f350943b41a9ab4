"""A game's own additions to the web page, named by its plugin's ``web`` field.

The generic page (:mod:`boardgames.web.play`) plays every registered two-player game from
the registry alone. A game that has more to show (an animation, a record format, a page of
its own) gives a :class:`WebExtras`: the app mounts its routes under ``/api/<name>/``, its
static folder at ``/static/<name>/``, adds its tabs to the page and loads its scripts and
styles after the shared ones. The shared layer knows no game: it only reads these objects.

A game's web module may import its own game, :mod:`boardgames.core` and the helpers here
(:mod:`boardgames.web.inputs`, :mod:`boardgames.web.jobs`); never another game.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import BaseRoute

    from boardgames.web.jobs import Job

Handler = Callable[[dict[str, Any]], Any]
"""A quick JSON endpoint's work: the request's object in, a JSON-ready dict out."""
Prepare = Callable[[dict[str, Any]], Callable[["Job"], Any]]
"""A job endpoint's check of the request: it returns the job's work (or raises BadInput)."""
Endpoint = Callable[["Request"], Awaitable["Response"]]


class Site(Protocol):
    """What a game's routes are built with: the app's endpoint makers."""

    def api(self, handler: Handler) -> Endpoint:
        """A JSON endpoint (POST): ``handler`` runs in a thread on the checked body."""
        ...

    def start(self, kind: str, prepare: Prepare, limit: int | None = None) -> Endpoint:
        """An endpoint that starts a job (202 ``{"job": id}``, 429 when busy); ``limit``:
        at most that many jobs of this ``kind`` at once."""
        ...


@dataclass(frozen=True)
class WebExtras:
    """A game's additions to the page.

    ``routes(site)`` gives Starlette routes whose paths are relative to ``/api/<name>``
    (``Route("/sow", site.api(sow), methods=["POST"])``). ``static`` is a folder served at
    ``/static/<name>/``; ``scripts`` and ``styles`` are files in it that the page loads (in
    order, after the shared ones); ``html`` a file in it holding the ``<section
    class="page" id="...">`` of each of ``tabs`` (``(section id, label)``). ``aliases``
    keep older absolute URLs: ``("/api/review", "/review")`` answers ``/api/review`` with
    the route ``/review``. ``max_body``: the largest request body (bytes) these routes
    take, when more than the page's usual :data:`~boardgames.web.security.MAX_BODY`.
    """

    routes: Callable[[Site], list[BaseRoute]]
    static: Path | None = None
    scripts: tuple[str, ...] = ()
    styles: tuple[str, ...] = ()
    html: str | None = None
    tabs: tuple[tuple[str, str], ...] = ()
    aliases: tuple[tuple[str, str], ...] = ()
    max_body: int | None = None
