"""Job pools: jobs decided as the work goes (the job-level Kalah solve submits, waits,
cancels), in this process (:class:`LocalJobPool`) or on Dask (:class:`DaskJobPool`)."""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from boardgames.core.cluster.spec import CONNECT_SECONDS, POLL_SECONDS, ClusterError
from boardgames.core.cluster.tasks import (
    _abandon_jobs,
    _failure,
    _first_line,
    _task_call,
    _worker_ident,
)


class ClusterHost(Protocol):
    """What a :class:`DaskJobPool` needs of the :class:`~.runner.Runner` that made it: its
    Dask client, its workers and the one-line error for a lost scheduler."""

    client: Any

    @property
    def workers(self) -> int: ...

    def _lost(self, checkpoint: Any) -> ClusterError: ...


Finished = tuple[str, Any, float]
"""A finished job: its key, its result and the seconds it ran."""


class JobPool:
    """Jobs submitted one by one as a search decides them, collected as they finish.

    ``submit(key, *args)`` runs ``fn(*args)``; :meth:`wait` returns the jobs finished since
    the last call; :meth:`cancel` drops a job whose answer is no longer needed: one not
    started never runs, one that runs is asked to stop by the pool's ``abandon(job)`` on
    its worker (``job``: the :func:`current_job` it runs under; without ``abandon`` it runs
    to its end). A cancelled job's result may still come back from the in-process pool.
    :meth:`capacity` is how many jobs to keep submitted so that no worker waits."""

    def submit(self, key: str, *args: Any) -> None:
        raise NotImplementedError

    def cancel(self, key: str) -> None:
        raise NotImplementedError

    def wait(self, timeout: float) -> list[Finished]:
        raise NotImplementedError

    def capacity(self) -> int:
        raise NotImplementedError

    def pending(self) -> int:
        raise NotImplementedError

    def close(self) -> None:
        """Stop what runs (in-process) and forget what is pending."""


class LocalJobPool(JobPool):
    """In this process: one background thread runs the jobs in submission order (the job
    itself may use all the cores), so that the calling thread stays free for progress and
    Ctrl-C."""

    def __init__(
        self, fn: Callable[..., Any], interrupt: Callable[[], None] | None,
        abandon: Callable[[str], None] | None = None,
    ) -> None:  # fmt: skip
        import queue

        self.fn = fn
        self.interrupt = interrupt
        self.abandon = abandon
        self._todo: queue.Queue[tuple[str, tuple[Any, ...]] | None] = queue.Queue()
        self._done: queue.Queue[tuple[str, Any, float, BaseException | None]] = queue.Queue()
        self._cancelled: set[str] = set()
        self._count = 0
        self._busy = self._closed = False
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while True:
            item = self._todo.get()
            if item is None:
                return
            key, args = item
            self._busy = True  # (before the test: close() looks at it after setting _closed)
            if key in self._cancelled or self._closed:
                self._cancelled.discard(key)
                self._done.put((key, None, 0.0, _CANCELLED))
                self._busy = False
                continue
            try:
                result, seconds = _task_call(self.fn, args, None, key)
                self._done.put((key, result, seconds, None))
            except BaseException as e:  # handed to the caller by wait()
                self._done.put((key, None, 0.0, e))
            finally:
                self._busy = False

    def submit(self, key: str, *args: Any) -> None:
        self._count += 1
        self._todo.put((key, args))

    def cancel(self, key: str) -> None:
        self._cancelled.add(key)
        if self.abandon is not None:
            self.abandon(key)

    def capacity(self) -> int:
        return 1

    def pending(self) -> int:
        return self._count

    def wait(self, timeout: float) -> list[Finished]:
        import queue

        out: list[Finished] = []
        try:
            item = self._done.get(timeout=timeout)
            while True:
                self._count -= 1
                key, result, seconds, error = item
                if error is _CANCELLED:
                    pass
                elif error is not None:
                    if isinstance(error, KeyboardInterrupt):
                        raise error
                    raise ClusterError(f"job {key} failed: {type(error).__name__}: "
                                       f"{_first_line(error)}")  # fmt: skip
                else:
                    out.append((key, result, seconds))
                item = self._done.get_nowait()
        except queue.Empty:
            pass
        return out

    def close(self) -> None:
        self._closed = True
        self._todo.put(None)
        if self.interrupt is not None and self._busy:  # a job runs: stop it now
            self.interrupt()
        self._thread.join(timeout=5)


class _Cancelled(Exception):
    pass


_CANCELLED = _Cancelled()


class DaskJobPool(JobPool):
    """On the runner's Dask cluster: each job is a task; results come back as they finish."""

    def __init__(
        self, runner: ClusterHost, fn: Callable[..., Any], retries: int,
        abandon: Callable[[str], None] | None = None,
    ) -> None:  # fmt: skip
        from distributed import as_completed

        self.runner = runner
        self.client = runner.client
        self.fn = fn
        self.retries = retries
        self.abandon = abandon
        self._abandoned: list[str] = []  # told to the workers at the next wait()
        self.run_id = os.urandom(4).hex()
        self.expect = _worker_ident()
        self.futures: dict[str, Any] = {}
        self.names: dict[str, str] = {}
        self.done = as_completed(loop=self.client.loop, with_results=True, raise_errors=False)
        self._lost_since: float | None = None

    def submit(self, key: str, *args: Any) -> None:
        name = f"bg-{self.run_id}-{key}"
        future = self.client.submit(
            _task_call, self.fn, args, self.expect, name, key=name, pure=False,
            retries=self.retries,
        )  # fmt: skip
        self.futures[key] = future
        self.names[future.key] = key
        self.done.add(future)

    def cancel(self, key: str) -> None:
        future = self.futures.pop(key, None)
        if future is not None:
            with contextlib.suppress(Exception):
                future.cancel()
            if self.abandon is not None:
                self._abandoned.append(future.key)

    def _tell_abandoned(self) -> None:
        """One message for the jobs cancelled since the last one, to every worker (each
        stops those it runs; Dask cannot stop a task that runs)."""
        if self._abandoned and self.abandon is not None:
            jobs, self._abandoned = self._abandoned, []
            if self.client.status != "running":
                return  # (a lost scheduler: the workers are not reached)
            with contextlib.suppress(Exception):  # (a function: the workers run it at once)
                self.client.run(_abandon_jobs, self.abandon, jobs, on_error="ignore")

    def capacity(self) -> int:
        """One job a worker (a job uses all of its worker's threads) and one waiting."""
        return 2 * self.runner.workers

    def pending(self) -> int:
        return len(self.futures)

    def wait(self, timeout: float) -> list[Finished]:
        self._tell_abandoned()
        deadline = time.monotonic() + timeout
        while True:
            batch = self.done.next_batch(block=False) if self.done.has_ready() else []
            out: list[Finished] = []
            for future, answer in batch:
                key = self.names.pop(future.key, None)
                held = self.futures.get(key) if key is not None else None
                if key is None or held is None or held is not future:
                    continue  # cancelled
                del self.futures[key]
                e = _failure(answer)
                if e is not None:
                    if self.client.status != "running":
                        raise self.runner._lost(None)
                    raise ClusterError(f"job {key} failed: {type(e).__name__}: {_first_line(e)}")
                future.release()
                result, seconds = answer
                out.append((key, result, seconds))
            if out:
                return out
            if self.client.status != "running":
                self._lost_since = self._lost_since or time.monotonic()
                if time.monotonic() - self._lost_since > CONNECT_SECONDS:
                    raise self.runner._lost(None)
            else:
                self._lost_since = None
            if time.monotonic() >= deadline:
                return out
            time.sleep(POLL_SECONDS)

    def close(self) -> None:
        if self.abandon is not None:
            self._abandoned += [future.key for future in self.futures.values()]
        with contextlib.suppress(Exception):
            self.client.cancel(list(self.futures.values()), force=True)
        self._tell_abandoned()
        self.futures.clear()
