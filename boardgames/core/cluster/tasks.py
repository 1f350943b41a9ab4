"""What runs on a worker: the call that wraps each task (its time, the job it belongs
to, the worker's version check) and how a finished task's answer is read."""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from boardgames.core.cluster.checkpoint import package_version

_CURRENT = threading.local()


def current_job() -> str | None:
    """The key of the :class:`JobPool` job this thread runs (None outside one): a job
    function registers under it to be stopped by the pool's ``abandon``."""
    return getattr(_CURRENT, "job", None)


def _task_call(
    fn: Callable[..., Any], args: tuple[Any, ...], expect: dict[str, str] | None = None,
    job: str | None = None,
) -> tuple[Any, float]:  # fmt: skip
    """What a worker runs: ``fn(*args)`` and its time. ``expect``: the client's boardgames
    version and source digest, checked first (a worker may join after the check made on
    connecting). ``job``: the key :func:`current_job` gives ``fn``. numba's thread count
    is set to the threads the worker was given (numba would start one thread a core and
    oversubscribe)."""
    if expect is not None:
        mine = _worker_ident()
        if mine != expect:
            from distributed import get_worker

            raise RuntimeError(
                f"worker {get_worker().address} has boardgames {mine['version']} (source "
                f"{mine['digest']}), "
                f"the client {expect['version']} (source {expect['digest']}); install the "
                "same version on every machine"
            )
    threads = _worker_threads()
    numba = __import__("sys").modules.get("numba")
    if numba is not None and threads:
        numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    t = time.perf_counter()
    _CURRENT.job = job
    try:
        result = fn(*args)
    finally:
        _CURRENT.job = None
    return result, time.perf_counter() - t


def _abandon_jobs(abandon: Callable[[str], None], jobs: list[str]) -> None:
    """On a worker (or here): ``abandon(job)`` for each job (it ignores those it does not
    run)."""
    for job in jobs:
        abandon(job)


def _worker_threads() -> int | None:
    try:
        from distributed import get_worker

        return int(get_worker().state.nthreads)
    except (ImportError, ValueError, AttributeError):
        return None


_DIGEST: list[str] = []


def source_digest() -> str:
    """A short digest of the installed package's source files, to tell apart two installs
    that carry the same version number but not the same code (computed once a process)."""
    if _DIGEST:
        return _DIGEST[0]
    root = Path(__file__).resolve().parents[2]  # the boardgames package
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())
    _DIGEST.append(h.hexdigest()[:12])
    return _DIGEST[0]


def _worker_ident() -> dict[str, str]:
    """Run on a worker: its boardgames version and source digest."""
    return {"version": package_version(), "digest": source_digest()}


def _first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return text[0][:200] if text else type(e).__name__


def _failure(answer: Any) -> BaseException | None:
    """The exception in an answer of ``as_completed(with_results=True, raise_errors=False)``
    (a task's error comes as ``(type, exception, traceback)``, a cancelled one as the
    exception), or None for a task's own ``(result, seconds)``. Judged from the answer, not
    from the future's status: a worker that dies after its result came back turns the
    future "lost" or "pending" again while the result is already here."""
    if isinstance(answer, BaseException):
        return answer
    if isinstance(answer, tuple) and len(answer) == 3 and isinstance(answer[1], BaseException):
        return answer[1]
    return None
