"""A game's own additions to the web page, named by its plugin's ``web`` field.

The generic tabs (Play, Review, Compare: :mod:`boardgames.web.play`,
:mod:`~boardgames.web.review`, :mod:`~boardgames.web.compare`) serve every registered
two-player game from the registry alone. A game that has more to show gives a
:class:`WebExtras`: hooks the generic tabs call (an animation of a move, a record format,
a side panel), and, for what they cannot show, routes (mounted under ``/api/<name>/``), a
static folder (``/static/<name>/``), tabs, scripts and styles of its own. The shared layer
knows no game: it only reads these objects.

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

    from boardgames.core.protocol import State
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
class Frame:
    """One picture of a move's animation: the board as an SVG document, shown for
    ``beats`` beats (the page's speed sets a beat's length)."""

    svg: str
    beats: float = 1.0


@dataclass(frozen=True)
class RecordRead:
    """A game record read by a game's own reader: the game's options (by name), its
    starting position in the game's notation (None: the start), the protocol moves from
    there, the players' names as the record gives them, and a line on what it held."""

    options: dict[str, Any]
    position: str | None
    moves: list[int]
    players: tuple[str, str] | None = None
    said: str = ""


@dataclass(frozen=True)
class Panel:
    """A side panel of the Play tab for the position shown: its title and its HTML (made
    by the game's code, every text in it escaped)."""

    title: str
    html: str


Animate = Callable[[Any, "State", int], list[Frame]]
"""``animate(game, state, move)``: the frames of ``move`` played in ``state`` (none: no
animation), the last one showing the position after it."""
ReadRecord = Callable[[str], "RecordRead | None"]
"""``read_record(text)``: the record read, None when the text is not in the game's
format; GameError (one line) for a record of its format with a fault."""
PanelOf = Callable[[Any, "State"], "Panel | None"]
"""``panel(game, state)``: the side panel for the position, or None."""


@dataclass(frozen=True)
class WebExtras:
    """A game's additions to the page.

    ``routes(site)`` gives Starlette routes whose paths are relative to ``/api/<name>``
    (``Route("/steps", site.api(steps), methods=["POST"])``). ``static`` is a folder served
    at ``/static/<name>/``; ``scripts`` and ``styles`` are files in it that the page loads
    (in order, after the shared ones); ``html`` a file in it holding the ``<section
    class="page" id="...">`` of each of ``tabs`` (``(section id, label)``): a page of its
    own, for what the generic tabs cannot show (the queens puzzle). ``aliases`` keep older
    absolute URLs: ``("/api/old", "/steps")`` answers ``/api/old`` with the route
    ``/steps``. ``max_body``: the largest request body (bytes) these routes take, when more
    than the page's usual :data:`~boardgames.web.security.MAX_BODY`.

    The hooks of the generic tabs, each optional: ``animate`` (the Play tab shows a move
    being played, frame by frame: Kalah's stones sown one by one), ``read_record`` (records
    in the game's own format open on the Play and Review tabs: Kalah's ``.klh``; they are
    written by the plugin's ``records``, :mod:`boardgames.core.records`) and ``panel`` (a
    side panel beside the board: Nim's binary table).
    """

    routes: Callable[[Site], list[BaseRoute]] | None = None
    static: Path | None = None
    scripts: tuple[str, ...] = ()
    styles: tuple[str, ...] = ()
    html: str | None = None
    tabs: tuple[tuple[str, str], ...] = ()
    aliases: tuple[tuple[str, str], ...] = ()
    max_body: int | None = None
    animate: Animate | None = None
    read_record: ReadRecord | None = None
    panel: PanelOf | None = None
