"""The Starlette app of ``boardgames serve``: the page, its static files and the JSON API.

The page is built from the game registry: the generic tabs serve every registered
two-player game (*Play*: :mod:`boardgames.web.play`, *Review*:
:mod:`~boardgames.web.review`, *Compare*: :mod:`~boardgames.web.compare`; all under
``/api/games/{game}/...``), calling the hooks of a game's own extras (its plugin's
``web``, a :class:`~boardgames.web.extras.WebExtras`: an animation, a record reader, a
side panel), whose tabs, scripts and routes (under ``/api/<game>/``) add what the generic
tabs cannot show (the queens puzzle). This module names no game.

Every route answers JSON (the page and its static files aside); every fault is
``{"error": "one line"}`` with a 4xx status (5xx only for a bug, and then without a
traceback), which the :class:`~boardgames.web.security.Guard` around the whole app gives
a person's browser as a short HTML page instead. Quick answers run in Starlette's thread
pool and must stay quick (a request's work is capped: the queens steps, say); long work
(the program's move, a hint, an analysis, a game's own long tasks) is a job
(:mod:`boardgames.web.jobs`) whose progress the page follows at
``/api/jobs/{id}/events`` (server-sent events) or by asking ``/api/jobs/{id}``.
"""

from __future__ import annotations

import asyncio
import html
import json
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from boardgames.core.protocol import GameError
from boardgames.core.registry import plugins
from boardgames.web import compare, deepen, play, review
from boardgames.web.extras import Endpoint, Handler, Prepare, WebExtras
from boardgames.web.inputs import BadInput, parse_json
from boardgames.web.jobs import Busy, Job, JobManager
from boardgames.web.security import (
    MAX_BODY,
    Guard,
    SlowBody,
    TooBig,
    slow_body,
    too_big,
)

STATIC = Path(__file__).parent / "static"
RESERVED = ("games", "jobs", "records", "review", "compare")
"""Names under ``/api/`` that the shared routes use: no game's extras go there."""
STREAM_CLOSING_SECONDS = 0.5
"""When the server stops, an event stream ends at most this long after (with its job,
cancelled, if that ends first): uvicorn waits for open answers to end."""
MARKS = ("tabs", "sections", "styles", "scripts")
"""Where the page template (``static/index.html``) takes the games' extras:
``<!-- extras: tabs -->`` and so on."""


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse(
        {"error": message}, status_code=status, headers={"cache-control": "no-store"}
    )


def _warn(line: str) -> None:
    if sys.stderr is not None:
        sys.stderr.write(f"Warning: {line}\n")


def load_extras() -> list[tuple[str, WebExtras]]:
    """Every installed game's web extras, by name; one that fails to load is one line on
    stderr and left out (the rest of the page works)."""
    found = []
    for name, spec in plugins().items():
        if spec.web is None:
            continue
        if name in RESERVED:
            _warn(f"game {name!r}: its web extras cannot go under /api/{name}/ (reserved)")
            continue
        try:
            extras = spec.web_extras()
        except Exception as e:  # a broken plugin must not take the page down
            _warn(f"the web extras of game {name!r} ({spec.web}) failed to load: {e}")
            continue
        if extras is None:
            continue
        missing = _missing_files(extras)
        if missing:
            _warn(f"the web extras of game {name!r} ({spec.web}) lack {missing}")
            continue
        found.append((name, extras))
    return found


def _missing_files(extras: WebExtras) -> str | None:
    """The first file or folder the extras name that is not there (an install without
    its package data), or None."""
    files = [*extras.scripts, *extras.styles, *([extras.html] if extras.html else [])]
    if extras.static is None:
        return "a static folder for its files" if files else None
    if not extras.static.is_dir():
        return f"their static folder {extras.static.name}/"
    return next((f for f in files if not (extras.static / f).is_file()), None)


class WebApp:
    """The routes, with the job manager they share and the games' extras."""

    def __init__(
        self,
        max_jobs: int | None = None,
        orphan_seconds: float | None = None,
        job_seconds: float | None = None,
    ) -> None:
        kwargs: dict[str, Any] = {}
        if max_jobs is not None:
            kwargs["max_jobs"] = max_jobs
        if orphan_seconds is not None:
            kwargs["orphan_seconds"] = orphan_seconds
        if job_seconds is not None:
            kwargs["job_seconds"] = job_seconds
        self.jobs = JobManager(**kwargs)
        self.extras = load_extras()
        self.hooks = dict(self.extras)
        """Each game's extras by name: the hooks the generic tabs call."""
        self.max_body = max([MAX_BODY, *(e.max_body or 0 for _, e in self.extras)])
        """The largest request body any route takes (the Guard's cap)."""
        self._page: str | None = None
        self._games: dict[str, Any] | None = None

    # --- endpoints -------------------------------------------------------------------------
    async def _read(self, request: Request) -> dict[str, Any]:
        """The request's JSON object, with the URL's parameters (``{game}``) in it."""
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > self.max_body:
                raise BadInput(too_big(self.max_body), 413)
        data = parse_json(body, self.max_body)
        for key, value in request.path_params.items():
            if key in data and data[key] != value:
                shown = str(data[key])[:30]
                raise BadInput(f"{key} {shown!r} in the body differs from the URL's {value!r}")
            data[key] = value
        return data

    def api(self, handler: Handler) -> Endpoint:
        """A JSON endpoint: the request's object in, ``handler``'s dict out (in a thread)."""

        async def endpoint(request: Request) -> Response:
            data = await self._read(request)
            result = await run_in_threadpool(handler, data)
            return JSONResponse(result, headers={"cache-control": "no-store"})

        return endpoint

    def start(self, kind: str, prepare: Prepare, limit: int | None = None) -> Endpoint:
        """An endpoint that checks the request (``prepare``, quickly, in a thread) and
        starts the work it returns as a job: ``{"job": id}`` (202), or 429 when busy."""

        async def endpoint(request: Request) -> Response:
            data = await self._read(request)
            work = await run_in_threadpool(prepare, data)
            try:
                job = self.jobs.start(kind, work, limit=limit)
            except Busy as e:
                return _error(429, str(e))
            return JSONResponse({"job": job.id, "kind": kind}, status_code=202)

        return endpoint

    # --- jobs ----------------------------------------------------------------------------
    def _job(self, request: Request) -> Job:
        job_id = request.path_params["job_id"]
        job = self.jobs.get(job_id) if job_id.isalnum() and len(job_id) <= 32 else None
        if job is None:
            raise BadInput("no such job (it ended more than a minute ago, or never was)", 404)
        return job

    async def job_state(self, request: Request) -> Response:
        """The job's state; asking keeps a job that no page's stream follows alive."""
        job = self._job(request)
        job.polled()
        return JSONResponse(job.snapshot(), headers={"cache-control": "no-store"})

    async def job_cancel(self, request: Request) -> Response:
        """Cancel (the page's button): the answer comes when the job has stopped (within
        a second), so its slot is free for the next."""
        job = self._job(request)
        job.cancel("user")
        await run_in_threadpool(job.wait, 1.0)
        return JSONResponse(job.snapshot(), headers={"cache-control": "no-store"})

    async def job_events(self, request: Request) -> Response:
        """Server-sent events: ``progress`` while the job runs, then ``done``, ``failed``
        or ``cancelled`` (whose ``error`` says why). When the last stream of a running job
        closes (the page closed) and nobody polls it, the job is cancelled
        (:meth:`~boardgames.web.jobs.JobManager.sweep`). When the server stops, the
        stream ends with the job (cancelled), or half a second later."""
        job = self._job(request)
        jobs = self.jobs

        async def events() -> AsyncIterator[str]:
            jobs.follow(job)
            seen = -1
            closing: float | None = None
            try:
                while True:
                    snap = job.snapshot()
                    if job.version != seen or snap["state"] != "running":
                        seen = job.version
                        kind = {"running": "progress", "error": "failed"}.get(
                            snap["state"], snap["state"]
                        )
                        yield f"event: {kind}\ndata: {json.dumps(snap)}\n\n"
                        if kind != "progress":
                            return
                    if jobs.closed:
                        now = time.monotonic()
                        closing = now if closing is None else closing
                        if now - closing > STREAM_CLOSING_SECONDS:
                            return
                    await asyncio.sleep(0.1)
            finally:
                jobs.unfollow(job)

        return StreamingResponse(
            events(),
            media_type="text/event-stream",
            headers={"cache-control": "no-store", "x-accel-buffering": "no"},
        )

    # --- the page and the list of games ------------------------------------------------------
    def page(self) -> str:
        """``static/index.html`` with every game's tabs, sections, styles and scripts."""
        if self._page is None:
            parts: dict[str, list[str]] = {mark: [] for mark in MARKS}
            for name, extras in self.extras:
                base = f"/static/{name}"
                for tab, label in extras.tabs:
                    parts["tabs"].append(
                        f'<button data-tab="{html.escape(tab)}">{html.escape(label)}</button>'
                    )
                if extras.html is not None and extras.static is not None:
                    parts["sections"].append((extras.static / extras.html).read_text("utf-8"))
                for style in extras.styles:
                    parts["styles"].append(f'<link rel="stylesheet" href="{base}/{style}">')
                for script in extras.scripts:
                    parts["scripts"].append(f'<script src="{base}/{script}"></script>')
            page = (STATIC / "index.html").read_text("utf-8")
            for mark in MARKS:
                page = page.replace(f"<!-- extras: {mark} -->", "\n".join(parts[mark]))
            self._page = page
        return self._page

    async def index(self, request: Request) -> Response:
        page = await run_in_threadpool(self.page)
        return HTMLResponse(page, headers={"cache-control": "no-store"})

    def _catalogue(self) -> dict[str, Any]:
        if self._games is None:
            extras = {
                name: {
                    "api": f"/api/{name}/" if e.routes is not None else None,
                    "scripts": [f"/static/{name}/{s}" for s in e.scripts],
                    "styles": [f"/static/{name}/{s}" for s in e.styles],
                    "tabs": [{"id": tab, "label": label} for tab, label in e.tabs],
                    "animates": e.animate is not None,
                    "reads_records": e.read_record is not None,
                    "panel": e.panel is not None,
                }
                for name, e in self.extras
            }
            self._games = play.catalogue(extras)
        return self._games

    async def games(self, request: Request) -> Response:
        listed = await run_in_threadpool(self._catalogue)
        return JSONResponse(listed, headers={"cache-control": "no-store"})

    def routes(self) -> list[BaseRoute]:
        hooks = self.hooks
        game = "/api/games/{game}"
        post = ["POST"]
        review_job = self.start("review", partial(review.prepare_review, extras=hooks), limit=1)
        compare_job = self.start("compare", compare.prepare, limit=1)
        compare_options = self.api(compare.options)
        shared: list[BaseRoute] = [
            Route("/", self.index),
            Route("/api/games", self.games),
            Route(f"{game}/position", self.api(partial(play.position, extras=hooks)),
                  methods=post),
            Route(f"{game}/move", self.api(partial(play.move, extras=hooks)), methods=post),
            Route(f"{game}/record", self.api(partial(play.record, extras=hooks)), methods=post),
            Route(f"{game}/program",
                  self.start("program", partial(play.prepare_program, extras=hooks)),
                  methods=post),
            Route(f"{game}/hint", self.start("hint", play.prepare_hint), methods=post),
            Route(f"{game}/analyse", self.start("analyse", deepen.prepare_analysis), methods=post),
            Route(f"{game}/review", review_job, methods=post),
            Route(f"{game}/compare", compare_job, methods=post),
            Route(f"{game}/compare/options", compare_options, methods=post),
            # the older URLs of the review and the comparison: the game in the body
            Route("/api/review", review_job, methods=post),
            Route("/api/compare", compare_job, methods=post),
            Route("/api/compare/options", compare_options, methods=post),
            Route("/api/records/read", self.api(partial(play.read_any, extras=hooks)),
                  methods=post),
            Route("/api/jobs/{job_id}", self.job_state),
            Route("/api/jobs/{job_id}/events", self.job_events),
            Route("/api/jobs/{job_id}/cancel", self.job_cancel, methods=post),
        ]  # fmt: skip
        taken = {r.path for r in shared if isinstance(r, Route)}
        games: list[BaseRoute] = []
        statics: list[BaseRoute] = []
        for name, extras in self.extras:
            if extras.routes is not None:
                own = extras.routes(self)
                games.append(Mount(f"/api/{name}", routes=own))
                for alias, target in extras.aliases:
                    games += self._alias(name, alias, target, own, taken)
            if extras.static is not None:
                statics.append(Mount(f"/static/{name}", StaticFiles(directory=extras.static)))
        return [
            *shared,
            *games,
            *statics,
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]

    @staticmethod
    def _alias(
        name: str, alias: str, target: str, own: list[BaseRoute], taken: set[str]
    ) -> list[BaseRoute]:
        """The route ``target`` of a game's extras again at the older URL ``alias``."""
        route = next((r for r in own if isinstance(r, Route) and r.path == target), None)
        shared = alias.split("/")[2:3] in ([r] for r in RESERVED)
        if route is None or not alias.startswith("/api/") or shared or alias in taken:
            _warn(f"game {name!r}: cannot answer {alias} with its route {target}")
            return []
        taken.add(alias)
        methods = sorted(route.methods or ())
        return [Route(alias, route.endpoint, methods=methods or None)]

    # --- faults ------------------------------------------------------------------------------
    async def on_error(self, request: Request, exc: Exception) -> Response:
        """Every fault as one JSON line; never a traceback (nor the exception's text, for
        a bug: it might show the server's paths)."""
        if isinstance(exc, BadInput):
            return _error(exc.status, exc.message)
        if isinstance(exc, GameError):
            return _error(400, str(exc).splitlines()[0] if str(exc) else "bad input")
        if isinstance(exc, TooBig):
            return _error(413, too_big(self.max_body))
        if isinstance(exc, SlowBody):
            return _error(408, slow_body(exc.seconds))
        return _error(500, "internal error")

    async def on_http(self, request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 400)
        if status == 404:
            return _error(404, f"nothing here: {request.url.path[:80]}")
        if status == 405:
            return _error(405, f"{request.method} is not allowed on {request.url.path[:80]}")
        return _error(status, str(getattr(exc, "detail", "bad request")))


def create_app(
    token: str,
    port: int,
    *,
    extra_host: str | None = None,
    max_jobs: int | None = None,
    orphan_seconds: float | None = None,
    job_seconds: float | None = None,
) -> tuple[Guard, WebApp]:
    """The guarded ASGI app and its :class:`WebApp` (whose ``jobs`` the server closes).

    ``port`` is the one the Host header must name (``Guard.set_port`` changes it once the
    socket is bound); ``extra_host``: a name besides the local ones (``--allow-remote``).
    """
    from starlette.exceptions import HTTPException

    web = WebApp(max_jobs, orphan_seconds, job_seconds)
    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        Exception: web.on_error,
        BadInput: web.on_error,
        GameError: web.on_error,
        TooBig: web.on_error,
        SlowBody: web.on_error,
        ValueError: web.on_error,
        HTTPException: web.on_http,
    }
    app = Starlette(routes=web.routes(), exception_handlers=handlers)
    return Guard(app, token, port, extra_host, max_body=web.max_body), web
