"""Long work of the web page in threads: a job per task, its progress, cancel and result.

The event loop never runs a search: a job runs in a daemon thread and reports its
progress in a small dict that the page reads through server-sent events
(:func:`boardgames.web.app` streams them) or by asking ``GET /api/jobs/{id}``.

One way to stop a job, whatever stops it: :meth:`Job.cancel` with a reason (the page's
Cancel, the page closed, nobody following it, the time limit, the server stopping; the
job's state then says which). The work sees it at :meth:`Job.check` between steps (a
review move, a batch of a count), through a ``stop`` callable it hands to a search
(``lambda: job.cancelled``), and through hooks that stop what cannot look: ``on_cancel``
runs once, and a hook given to :meth:`Job.stopping` is called again every
:data:`STOP_EVERY` seconds until the work ends (a numba kernel is aborted, and so is the
next one that starts before the work sees the cancel). A cancelled job keeps its slot
until its work has ended, so a stop must be quick: every job's work stops within a
second.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

MAX_JOBS = 3
"""Jobs that may run at once (the machine's cores are few; a fourth is refused: busy)."""
ORPHAN_SECONDS = 10.0
"""A running job that no event stream follows and nobody asked about
(``GET /api/jobs/{id}``) for this long is cancelled."""
CLOSED_SECONDS = 0.5
"""A job whose last event stream closed (its page closed) is cancelled this much later,
unless a stream or a poll came back meanwhile (a Cancel that races the stream's close
keeps its own reason)."""
JOB_SECONDS = 3600.0
"""The longest a job may run; then it is cancelled (the time limit)."""
KEEP_SECONDS = 60.0
"""A finished job's result is kept this long for a late reader, then forgotten."""
STOP_EVERY = 0.05
"""Seconds between two calls of a cancelled job's :meth:`Job.stopping` hooks."""

REASONS = {
    "user": "cancelled by the user",
    "closed": "cancelled: the page that followed it was closed",
    "abandoned": "cancelled: nobody followed it (no page listened or asked) for {seconds}",
    "time": "cancelled: it ran past the time limit of {seconds}",
    "shutdown": "cancelled: the server is stopping",
}
"""Why a job was cancelled (the snapshot's ``reason``) and the sentence its ``error``
says."""


def _seconds(seconds: float) -> str:
    if seconds >= 120:
        return f"{seconds / 60:g} min"
    return f"{seconds:g} s"


class Cancelled(Exception):
    """Raised inside a job's work by :meth:`Job.check` once the job was cancelled."""


class Busy(Exception):
    """Too many jobs running; the message says so."""


@dataclass
class Job:
    """One piece of long work: its kind, progress, and, at the end, result or error."""

    id: str
    kind: str
    progress: dict[str, Any] = field(default_factory=dict)
    result: Any = None
    error: str | None = None
    state: str = "running"  # running, done, error, cancelled
    reason: str | None = None
    """Why it was cancelled: a key of :data:`REASONS` (None while not cancelled)."""
    listeners: int = 0
    """Event streams following the job now."""
    started_at: float = field(default_factory=time.monotonic)
    polled_at: float | None = None
    """When someone last asked about it (``GET /api/jobs/{id}``)."""
    closed_at: float | None = None
    """When its last event stream closed (None while one follows it, or none did yet)."""
    polled_when_closed: bool = False
    """Someone polled the job shortly before its last stream closed: they follow it
    still, and their polls keep it alive."""
    finished_at: float = 0.0
    on_cancel: Callable[[], None] | None = None
    _stoppers: list[Callable[[], None]] = field(default_factory=list)
    _cancel: threading.Event = field(default_factory=threading.Event)
    _done: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _stopping: bool = False
    version: int = 0

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def cancel(self, reason: str = "user", **words: Any) -> None:
        """Ask the work to stop (idempotent: the first reason stays), with a key of
        :data:`REASONS` (``words`` fill its sentence); the hooks run here."""
        with self._lock:
            if self._cancel.is_set() or self._done.is_set():
                return
            self.reason = reason
            self.error = REASONS.get(reason, REASONS["user"]).format(**words)
            self._cancel.set()
            stoppers = list(self._stoppers)
        hook = self.on_cancel
        for stop in [*([hook] if hook is not None else []), *stoppers]:
            with contextlib.suppress(Exception):  # a failing hook must not break the server
                stop()
        self._keep_stopping()

    @contextlib.contextmanager
    def stopping(self, stop: Callable[[], None]) -> Iterator[None]:
        """While the block runs, a cancel calls ``stop`` at once and again every
        :data:`STOP_EVERY` seconds until the block ends: for work that starts new
        searches (each of which the hook must stop) until it sees the cancel."""
        with self._lock:
            self._stoppers.append(stop)
        try:
            if self.cancelled:
                with contextlib.suppress(Exception):
                    stop()
                self._keep_stopping()
            yield
        finally:
            with self._lock:
                self._stoppers.remove(stop)

    def _keep_stopping(self) -> None:
        """One thread a cancelled job: it calls the hooks until the work ends."""
        with self._lock:
            if self._stopping or self._done.is_set() or not self._stoppers:
                return
            self._stopping = True

        def keep() -> None:
            while not self._done.wait(STOP_EVERY):
                with self._lock:
                    stoppers = list(self._stoppers)
                for stop in stoppers:
                    with contextlib.suppress(Exception):
                        stop()

        threading.Thread(target=keep, name=f"stop-{self.kind}", daemon=True).start()

    def check(self) -> None:
        """Raise :class:`Cancelled` once the job was cancelled (call between steps)."""
        if self._cancel.is_set():
            raise Cancelled

    def report(self, **progress: Any) -> None:
        """Replace the progress the page sees (and stop here if cancelled)."""
        with self._lock:
            self.progress = progress
            self.version += 1
        self.check()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the work to end; True when it has."""
        return self._done.wait(timeout)

    def polled(self) -> None:
        """Someone asked about the job (``GET /api/jobs/{id}``): it is followed."""
        self.polled_at = time.monotonic()

    def snapshot(self) -> dict[str, Any]:
        """What the page is told: state, progress, and the result or error at the end
        (a cancelled job's error says why: ``reason`` is a key of :data:`REASONS`)."""
        with self._lock:
            out: dict[str, Any] = {
                "id": self.id,
                "kind": self.kind,
                "state": self.state,
                "progress": dict(self.progress),
            }
            if self.state == "done":
                out["result"] = self.result
            elif self.state in ("error", "cancelled"):
                out["error"] = self.error
            if self.state == "cancelled":
                out["reason"] = self.reason
            return out

    def _finish(self, state: str, result: Any = None, error: str | None = None) -> None:
        with self._lock:
            if self._cancel.is_set():  # whatever the work did after the cancel
                state, result, error = "cancelled", None, self.error
            self.state, self.result, self.error = state, result, error
            self.finished_at = time.monotonic()
            self.version += 1
        self._done.set()


Work = Callable[[Job], Any]


class JobManager:
    """Runs at most :data:`MAX_JOBS` jobs at once, each in its own daemon thread; its
    watchdog cancels the jobs nobody follows any more and those past the time limit."""

    def __init__(
        self,
        max_jobs: int = MAX_JOBS,
        orphan_seconds: float = ORPHAN_SECONDS,
        job_seconds: float = JOB_SECONDS,
        closed_seconds: float = CLOSED_SECONDS,
    ) -> None:
        self.max_jobs = max_jobs
        self.orphan_seconds = orphan_seconds
        self.job_seconds = job_seconds
        self.closed_seconds = closed_seconds
        self.jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._watchdog = threading.Thread(target=self._watch, name="jobs-watchdog", daemon=True)
        self._watchdog.start()

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called (the server is stopping)."""
        return self._closed.is_set()

    def running(self) -> list[Job]:
        with self._lock:
            return [j for j in self.jobs.values() if j.state == "running"]

    def start(self, kind: str, work: Work, *, limit: int | None = None) -> Job:
        """Start ``work(job)`` in a thread; :class:`Busy` when ``max_jobs`` run (or
        ``limit`` jobs of this kind). ``work`` returns the result (JSON-ready) or raises:
        :class:`Cancelled`, a ``GameError`` / ``ValueError`` (its message is the error),
        anything else (a short generic error; never a traceback)."""
        with self._lock:
            if self._closed.is_set():
                raise Busy("the server is shutting down")
            self._forget_old()
            running = [j for j in self.jobs.values() if j.state == "running"]
            if len(running) >= self.max_jobs:
                raise Busy(
                    f"busy: {len(running)} jobs are running (at most {self.max_jobs} at once); "
                    "cancel one or wait for it to end"
                )
            same = sum(1 for j in running if j.kind == kind)
            if limit is not None and same >= limit:
                raise Busy(f"busy: a {kind} job is running already; cancel it or wait")
            job = Job(secrets.token_hex(8), kind)
            self.jobs[job.id] = job
        thread = threading.Thread(target=self._run, args=(job, work), name=f"job-{kind}")
        thread.daemon = True
        thread.start()
        return job

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self.jobs.get(job_id)

    def follow(self, job: Job) -> None:
        """An event stream follows ``job`` from now on."""
        with self._lock:
            job.listeners += 1
            job.closed_at = None

    def unfollow(self, job: Job) -> None:
        """An event stream of ``job`` ended (the job ended, or its page went away): see
        :meth:`sweep` for what follows."""
        with self._lock:
            job.listeners -= 1
            if job.listeners == 0:
                now = time.monotonic()
                job.closed_at = now
                polled = job.polled_at
                job.polled_when_closed = polled is not None and now - polled <= self.orphan_seconds

    def _run(self, job: Job, work: Work) -> None:
        from boardgames.core.protocol import GameError

        try:
            result = work(job)
        except Cancelled:
            job._finish("cancelled")
        except (GameError, ValueError) as e:
            job._finish("error", error=str(e).splitlines()[0] if str(e) else "bad input")
        except BaseException:  # never a traceback: one line for the page
            job._finish("error", error=f"the {job.kind} failed (internal error)")
        else:
            job._finish("done", result=result)

    def _forget_old(self) -> None:
        now = time.monotonic()
        for job_id in [
            j.id
            for j in self.jobs.values()
            if j.state != "running" and now - j.finished_at > KEEP_SECONDS
        ]:
            del self.jobs[job_id]

    def _watch(self) -> None:
        while not self._closed.wait(0.1):
            self.sweep()

    def sweep(self) -> None:
        """The watchdog's round: cancel the jobs past the time limit, and those nobody
        follows any more.

        A job is followed while an event stream follows it, and while someone polls it
        (``GET /api/jobs/{id}``) at least every ``orphan_seconds``; a job just started
        has that long to be followed. When its last stream closes (the page closed) it
        is cancelled ``closed_seconds`` later, unless someone polled it in the
        ``orphan_seconds`` before: then their polls keep it."""
        now = time.monotonic()
        for job in self.running():
            if now - job.started_at > self.job_seconds:
                job.cancel("time", seconds=_seconds(self.job_seconds))
                continue
            with self._lock:
                if job.listeners > 0:
                    continue
                closed, polled = job.closed_at, job.polled_at
                poller = job.polled_when_closed
            if closed is not None and not poller:
                if now > closed + self.closed_seconds:
                    job.cancel("closed")
                continue
            last = max(job.started_at, polled or 0.0, closed or 0.0)
            if now > last + self.orphan_seconds:
                job.cancel("abandoned", seconds=_seconds(self.orphan_seconds))

    def close(self, wait: float = 1.0) -> None:
        """Cancel every job (the server stops) and wait up to ``wait`` seconds for them."""
        self._closed.set()
        jobs = self.running()
        for job in jobs:
            job.cancel("shutdown")
        deadline = time.monotonic() + wait
        for job in jobs:
            job.wait(max(0.0, deadline - time.monotonic()))
