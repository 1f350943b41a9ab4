"""The Starlette app of ``boardgames serve``: the page, its static files and the JSON API.

Every route answers JSON (the page and its scripts aside); every fault is ``{"error":
"one line"}`` with a 4xx status (5xx only for a bug, and then without a traceback). The
:class:`~boardgames.web.security.Guard` wraps the whole app. Quick answers (a sowing, a
Nim move, a list of solutions) run in Starlette's thread pool; long work (the program's
move, a hint, a review, a count, a comparison) is a job (:mod:`boardgames.web.jobs`)
whose progress the page follows at ``/api/jobs/{id}/events`` (server-sent events).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from boardgames.core.protocol import GameError
from boardgames.web import compare, kalah, nim, queens, review
from boardgames.web.inputs import BadInput, parse_json
from boardgames.web.jobs import Busy, Job, JobManager
from boardgames.web.security import MAX_BODY, Guard, TooBig

STATIC = Path(__file__).parent / "static"
Handler = Callable[[dict[str, Any]], Any]


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse(
        {"error": message}, status_code=status, headers={"cache-control": "no-store"}
    )


async def _read(request: Request) -> dict[str, Any]:
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise BadInput(f"the request is too big (at most {MAX_BODY:,} bytes)", 413)
    return parse_json(body)


def api(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    """A JSON endpoint: the request's object in, ``handler``'s dict out (in a thread)."""

    async def endpoint(request: Request) -> Response:
        data = await _read(request)
        result = await run_in_threadpool(handler, data)
        return JSONResponse(result, headers={"cache-control": "no-store"})

    return endpoint


class WebApp:
    """The routes, with the job manager they share."""

    def __init__(self, max_jobs: int | None = None, orphan_seconds: float | None = None) -> None:
        kwargs: dict[str, Any] = {}
        if max_jobs is not None:
            kwargs["max_jobs"] = max_jobs
        if orphan_seconds is not None:
            kwargs["orphan_seconds"] = orphan_seconds
        self.jobs = JobManager(**kwargs)

    # --- jobs ----------------------------------------------------------------------------
    def start(
        self,
        kind: str,
        prepare: Callable[[dict[str, Any]], Callable[[Job], Any]],
        limit: int | None = None,
    ) -> Callable[[Request], Awaitable[Response]]:
        """An endpoint that checks the request (``prepare``, quickly, in a thread) and
        starts the work it returns as a job: ``{"job": id}`` (202), or 429 when busy."""

        async def endpoint(request: Request) -> Response:
            data = await _read(request)
            work = await run_in_threadpool(prepare, data)
            try:
                job = self.jobs.start(kind, work, limit=limit)
            except Busy as e:
                return _error(429, str(e))
            return JSONResponse({"job": job.id, "kind": kind}, status_code=202)

        return endpoint

    def _job(self, request: Request) -> Job:
        job_id = request.path_params["job_id"]
        job = self.jobs.get(job_id) if job_id.isalnum() and len(job_id) <= 32 else None
        if job is None:
            raise BadInput("no such job (it ended more than a minute ago, or never was)", 404)
        return job

    async def job_state(self, request: Request) -> Response:
        return JSONResponse(self._job(request).snapshot(), headers={"cache-control": "no-store"})

    async def job_cancel(self, request: Request) -> Response:
        job = self._job(request)
        job.cancel()
        await run_in_threadpool(job.wait, 1.0)
        return JSONResponse(job.snapshot())

    async def job_events(self, request: Request) -> Response:
        """Server-sent events: ``progress`` while the job runs, then ``done``, ``error`` or
        ``cancelled``. Closing the stream (the page closed) cancels a running job."""
        job = self._job(request)

        async def events() -> AsyncIterator[str]:
            job.listeners += 1
            seen = -1
            try:
                while True:
                    snap = job.snapshot()
                    if job.version != seen:
                        seen = job.version
                        kind = {"running": "progress", "error": "failed"}.get(
                            snap["state"], snap["state"]
                        )
                        yield f"event: {kind}\ndata: {json.dumps(snap)}\n\n"
                        if kind != "progress":
                            return
                    await asyncio.sleep(0.1)
            finally:
                job.listeners -= 1
                if job.listeners == 0 and job.state == "running":
                    job.cancel()

        return StreamingResponse(
            events(),
            media_type="text/event-stream",
            headers={"cache-control": "no-store", "x-accel-buffering": "no"},
        )

    # --- the pages -----------------------------------------------------------------------
    async def index(self, request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"cache-control": "no-store"})

    async def not_found(self, request: Request, exc: Exception) -> Response:
        return _error(404, f"nothing here: {request.url.path[:80]}")

    def routes(self) -> list[Route | Mount]:
        return [
            Route("/", self.index),
            Route("/api/kalah/new", api(_kalah_new), methods=["POST"]),
            Route("/api/kalah/sow", api(_kalah_sow), methods=["POST"]),
            Route("/api/kalah/record", api(_kalah_record), methods=["POST"]),
            Route("/api/kalah/open", api(kalah.open_record), methods=["POST"]),
            Route("/api/kalah/program", self.start("program", _program_job), methods=["POST"]),
            Route("/api/kalah/hint", self.start("hint", _hint_job), methods=["POST"]),
            Route("/api/review", self.start("review", _review_job, limit=1), methods=["POST"]),
            Route("/api/nim/position", api(_nim_position), methods=["POST"]),
            Route("/api/nim/take", api(nim.take), methods=["POST"]),
            Route("/api/nim/program", api(nim.program), methods=["POST"]),
            Route("/api/nim/hint", api(_nim_hint), methods=["POST"]),
            Route("/api/queens/steps", api(queens.step_range), methods=["POST"]),
            Route("/api/queens/solutions", api(queens.solution_list), methods=["POST"]),
            Route("/api/queens/count", self.start("count", _count_job), methods=["POST"]),
            Route(
                "/api/compare", self.start("compare", compare.prepare, limit=1), methods=["POST"]
            ),
            Route("/api/compare/options", api(compare.options), methods=["POST"]),
            Route("/api/jobs/{job_id}", self.job_state),
            Route("/api/jobs/{job_id}/events", self.job_events),
            Route("/api/jobs/{job_id}/cancel", self.job_cancel, methods=["POST"]),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]


# --- handlers ------------------------------------------------------------------------------


def _kalah_new(data: dict[str, Any]) -> dict[str, Any]:
    setup = kalah.read_setup(data)
    return kalah.position(setup, kalah.play_sowings(setup))


def _kalah_sow(data: dict[str, Any]) -> dict[str, Any]:
    return kalah.sow(kalah.read_setup(data), data.get("pit"))


def _kalah_record(data: dict[str, Any]) -> dict[str, Any]:
    setup = kalah.read_setup(data)
    return {"text": kalah.record_text(setup), "name": "game.klh"}


def _program_job(data: dict[str, Any]) -> Callable[[Job], Any]:
    setup = kalah.read_setup(data)
    kalah.check_turn(setup, hint=False)  # a bad request is refused now, not in the job
    return lambda job: kalah.think(setup, job, hint=False)


def _hint_job(data: dict[str, Any]) -> Callable[[Job], Any]:
    setup = kalah.read_setup(data)
    kalah.check_turn(setup, hint=True)
    return lambda job: kalah.think(setup, job, hint=True)


def _review_job(data: dict[str, Any]) -> Callable[[Job], Any]:
    record, depth, exact_nodes = review.read_review(data)
    return lambda job: review.run_review(record, depth, exact_nodes, job)


def _count_job(data: dict[str, Any]) -> Callable[[Job], Any]:
    n = queens.count_n(data)
    return lambda job: queens.count(n, job)


def _nim_position(data: dict[str, Any]) -> dict[str, Any]:
    return nim.describe(*nim.read_position(data))


def _nim_hint(data: dict[str, Any]) -> dict[str, Any]:
    game, left, _ = nim.read_position(data)
    return nim.winning(game, left)


# --- the app -------------------------------------------------------------------------------


async def _on_error(request: Request, exc: Exception) -> Response:
    """Every fault as one JSON line; never a traceback (nor the exception's text, for a
    bug: it might show the server's paths)."""
    if isinstance(exc, BadInput):
        return _error(exc.status, exc.message)
    if isinstance(exc, GameError):
        return _error(400, str(exc).splitlines()[0] if str(exc) else "bad input")
    if isinstance(exc, TooBig):
        return _error(413, f"the request is too big (at most {MAX_BODY:,} bytes)")
    return _error(500, "internal error")


async def _on_http(request: Request, exc: Exception) -> Response:
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
) -> tuple[Guard, WebApp]:
    """The guarded ASGI app and its :class:`WebApp` (whose ``jobs`` the server closes).

    ``port`` is the one the Host header must name (``Guard.set_port`` changes it once the
    socket is bound); ``extra_host``: a name besides the local ones (``--allow-remote``).
    """
    from starlette.exceptions import HTTPException

    web = WebApp(max_jobs, orphan_seconds)
    app = Starlette(
        routes=web.routes(),
        exception_handlers={
            Exception: _on_error,
            BadInput: _on_error,
            GameError: _on_error,
            TooBig: _on_error,
            ValueError: _on_error,
            HTTPException: _on_http,
        },
    )
    return Guard(app, token, port, extra_host), web
