"""Long work of the web page in threads: a job per task, its progress, cancel and result.

The event loop never runs a search: a job runs in a daemon thread and reports its
progress in a small dict that the page reads through server-sent events
(:func:`boardgames.web.app` streams them). A job stops within a second of
:meth:`Job.cancel`: the work checks :meth:`Job.check` between steps (a review move, a
batch of a count) and a hook (``on_cancel``) stops what cannot look (a numba search is
aborted, the review's solver stopped). A job nobody listens to (its page closed, its
event stream dropped) is cancelled by the manager's watchdog after
:data:`ORPHAN_SECONDS`.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

MAX_JOBS = 3
"""Jobs that may run at once (the machine's cores are few; a fourth is refused: busy)."""
ORPHAN_SECONDS = 3.0
"""A running job with no listener for this long is cancelled."""
KEEP_SECONDS = 60.0
"""A finished job's result is kept this long for a late reader, then forgotten."""


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
    listeners: int = 0
    last_seen: float = field(default_factory=time.monotonic)
    finished_at: float = 0.0
    on_cancel: Callable[[], None] | None = None
    _cancel: threading.Event = field(default_factory=threading.Event)
    _done: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    version: int = 0

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def cancel(self) -> None:
        """Ask the work to stop (idempotent); its hook runs once, here."""
        if self._cancel.is_set() or self._done.is_set():
            return
        self._cancel.set()
        hook = self.on_cancel
        if hook is not None:
            with contextlib.suppress(Exception):  # a failing hook must not break the server
                hook()

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

    def snapshot(self) -> dict[str, Any]:
        """What the page is told: state, progress, and the result or error at the end."""
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
            return out

    def _finish(self, state: str, result: Any = None, error: str | None = None) -> None:
        with self._lock:
            self.state, self.result, self.error = state, result, error
            self.finished_at = time.monotonic()
            self.version += 1
        self._done.set()


Work = Callable[[Job], Any]


class JobManager:
    """Runs at most :data:`MAX_JOBS` jobs at once, each in its own daemon thread."""

    def __init__(self, max_jobs: int = MAX_JOBS, orphan_seconds: float = ORPHAN_SECONDS) -> None:
        self.max_jobs = max_jobs
        self.orphan_seconds = orphan_seconds
        self.jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._closed = False
        self._watchdog = threading.Thread(target=self._watch, name="jobs-watchdog", daemon=True)
        self._watchdog.start()

    def running(self) -> list[Job]:
        with self._lock:
            return [j for j in self.jobs.values() if j.state == "running"]

    def start(self, kind: str, work: Work, *, limit: int | None = None) -> Job:
        """Start ``work(job)`` in a thread; :class:`Busy` when ``max_jobs`` run (or
        ``limit`` jobs of this kind). ``work`` returns the result (JSON-ready) or raises:
        :class:`Cancelled`, a ``GameError`` / ``ValueError`` (its message is the error),
        anything else (a short generic error; never a traceback)."""
        with self._lock:
            if self._closed:
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

    def _run(self, job: Job, work: Work) -> None:
        from boardgames.core.protocol import GameError

        try:
            result = work(job)
        except Cancelled:
            job._finish("cancelled", error="cancelled")
        except (GameError, ValueError) as e:
            if job.cancelled:
                job._finish("cancelled", error="cancelled")
            else:
                job._finish("error", error=str(e).splitlines()[0] if str(e) else "bad input")
        except BaseException:  # never a traceback: one line for the page
            if job.cancelled:
                job._finish("cancelled", error="cancelled")
            else:
                job._finish("error", error=f"the {job.kind} failed (internal error)")
        else:
            if job.cancelled:
                job._finish("cancelled", error="cancelled")
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
        while not self._closed:
            time.sleep(0.25)
            now = time.monotonic()
            for job in self.running():
                if job.listeners > 0:
                    job.last_seen = now
                elif now - job.last_seen > self.orphan_seconds:
                    job.cancel()

    def close(self, wait: float = 1.0) -> None:
        """Cancel every job (the server stops) and wait up to ``wait`` seconds for them."""
        self._closed = True
        jobs = self.running()
        for job in jobs:
            job.cancel()
        deadline = time.monotonic() + wait
        for job in jobs:
            job.wait(max(0.0, deadline - time.monotonic()))
