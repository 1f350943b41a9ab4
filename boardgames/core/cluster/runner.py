"""Running a list of pure tasks: in this process, on a local cluster or on a Dask
scheduler (:class:`Runner`), with progress, retries, Ctrl-C and checkpoints."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from boardgames.core.cluster.checkpoint import Checkpoint
from boardgames.core.cluster.pools import DaskJobPool, JobPool, LocalJobPool
from boardgames.core.cluster.spec import (
    CONNECT_SECONDS,
    POLL_SECONDS,
    REFRESH_SECONDS,
    ClusterError,
    ClusterSpec,
)
from boardgames.core.cluster.tasks import (
    _failure,
    _first_line,
    _task_call,
    _worker_ident,
)
from boardgames.core.progress import Progress, Stopped, format_duration, stopped_message


@dataclass
class RunReport:
    """What :meth:`Runner.run` did."""

    results: dict[str, Any]
    computed: int
    resumed: int
    seconds: float
    task_seconds: dict[str, float] = field(default_factory=dict)


ANSWER_SECONDS = CONNECT_SECONDS + 1.0
"""How long connecting may take in all: a server that takes the connection but is no Dask
scheduler (a web server, say) never completes Dask's handshake, and Client's own timeout
does not cover that."""


def _within(make: Callable[[], Any], seconds: float = ANSWER_SECONDS) -> Any:
    """``make()`` (a Dask Client) run in a helper thread, or :class:`TimeoutError` when it
    has not answered within ``seconds`` (the thread is left to end with the process)."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = make()
        except BaseException as e:  # handed to the caller
            box["error"] = e

    thread = threading.Thread(target=run, daemon=True, name="boardgames-connect")
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        raise TimeoutError(
            "the server there took the connection but gave no Dask scheduler's answer"
        )
    if "error" in box:
        raise box["error"]
    return box["value"]


HANDSHAKE_TRIES = 3


def _connect(make: Callable[[], Any]) -> Any:
    """:func:`_within` ``make()``, again when distributed's handshake fails with a bare
    AssertionError (a scheduler busy with a worker's death, or a loaded machine: its
    answer came with another message), at most :data:`HANDSHAKE_TRIES` times."""
    tries = 1
    while True:
        try:
            return _within(make)
        except AssertionError:
            if tries >= HANDSHAKE_TRIES:
                raise
            tries += 1
            time.sleep(0.5)


class Runner:
    """Runs tasks where ``spec`` says (None: in this process). A context manager: the local
    cluster starts (or the scheduler is reached) on entry and is closed on exit."""

    def __init__(
        self, spec: ClusterSpec | None, console: Any = None, *, machine_workers: bool = False
    ) -> None:
        """``machine_workers``: a local cluster gets one worker (``local:N``: N) sharing the
        machine's cores as threads, for jobs that use all of their worker's threads; by
        default one single-threaded worker per core."""
        self.spec = spec
        self.console = console
        self.machine_workers = machine_workers
        self.client: Any = None
        self.cluster: Any = None
        self.startup_seconds = 0.0
        self._sized: tuple[float, int, int] | None = None
        self._prepared: threading.Thread | None = None
        self._prepare_error: list[BaseException] = []

    @property
    def where(self) -> str:
        return "in-process" if self.spec is None else self.spec.text

    @property
    def workers(self) -> int:
        """Worker processes of the cluster now (1 in-process); asked at most every
        :data:`REFRESH_SECONDS`."""
        return self._size()[0]

    def threads(self) -> int:
        """Threads of all workers together (1 in-process)."""
        return self._size()[1]

    def _size(self) -> tuple[int, int]:
        if self.client is None:
            return 1, 1
        now = time.monotonic()
        if self._sized is None or now - self._sized[0] > REFRESH_SECONDS:
            with contextlib.suppress(Exception):
                threads = self.client.nthreads()
                self._sized = (now, max(1, len(threads)), max(1, sum(threads.values())))
        return (self._sized[1], self._sized[2]) if self._sized else (1, 1)

    def as_dict(self) -> dict[str, Any]:
        """Where it ran, for JSON output."""
        return {"cluster": self.where, "workers": self.workers}

    def __enter__(self) -> Runner:
        self.start()
        return self

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        self.close(now=isinstance(error, KeyboardInterrupt))

    def start(self) -> None:
        if self.spec is None:
            return
        import logging

        t = time.perf_counter()
        from distributed import Client

        # after the import, which sets distributed's own levels: the client's reconnect
        # attempts and the workers' comings and goings are not the user's business; what
        # matters ends as one ClusterError line
        for name in [*logging.root.manager.loggerDict, "tornado", "asyncio"]:
            if name.split(".")[0] in ("distributed", "tornado", "asyncio"):
                logging.getLogger(name).setLevel(logging.CRITICAL + 1)

        try:
            if self.spec.kind == "local":
                from distributed import LocalCluster

                cores = os.cpu_count() or 1
                if self.machine_workers:
                    n = self.spec.workers or 1
                    per_worker = max(1, cores // n)
                else:
                    n, per_worker = self.spec.workers or cores, 1
                self.cluster = LocalCluster(
                    n_workers=n,
                    threads_per_worker=per_worker,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address="127.0.0.1:0",  # its HTTP server: loopback, any port
                    worker_dashboard_address=None,
                    silence_logs=logging.CRITICAL,
                )
                self.client = Client(self.cluster, timeout=f"{CONNECT_SECONDS}s")
            elif self.spec.kind == "file":
                target = self.spec.target
                self.client = _connect(
                    lambda: Client(scheduler_file=target, timeout=f"{CONNECT_SECONDS}s")
                )
            else:
                address = self.spec.target
                self.client = _connect(lambda: Client(address, timeout=f"{CONNECT_SECONDS}s"))
        except (OSError, TimeoutError) as e:
            self.close()
            raise ClusterError(
                f"no Dask scheduler answered at {self.spec.text} within "
                f"{CONNECT_SECONDS:.0f} s ({_first_line(e)}); start one with "
                "'dask scheduler' or check the address"
            ) from None
        except Exception as e:
            self.close()
            if self.spec.kind != "local":  # the address answered, but not as Dask does
                raise ClusterError(
                    f"no Dask scheduler answered at {self.spec.text}: the server there "
                    f"answered something else ({_first_line(e)}); check the address"
                ) from None
            raise ClusterError(
                f"could not start the cluster {self.spec.text}: {_first_line(e)}"
            ) from None
        self._wait_for_workers()
        self._check_versions()
        self.startup_seconds = time.perf_counter() - t

    def _wait_for_workers(self) -> None:
        deadline = time.monotonic() + 60.0
        while self.workers_now() == 0:
            if time.monotonic() > deadline:
                raise ClusterError(f"the scheduler at {self.where} has no workers after 60 s")
            time.sleep(0.1)

    def workers_now(self) -> int:
        try:
            return len(self.client.scheduler_info()["workers"])
        except Exception:
            return 0

    def _check_versions(self) -> None:
        """Every worker must run the same boardgames (and Dask, Python...) as this client."""
        try:
            self.client.get_versions(check=True)
        except ValueError as e:
            lines = [s.strip() for s in str(e).splitlines() if s.strip()]
            detail = "; ".join(lines[1:4]) if len(lines) > 1 else _first_line(e)
            raise ClusterError(
                f"the cluster at {self.where} runs other package versions than this "
                f"machine: {detail}"
            ) from None
        mine = _worker_ident()
        answers = self.client.run(_worker_ident, on_error="return")
        for worker, theirs in sorted(answers.items()):
            if isinstance(theirs, BaseException):
                raise ClusterError(
                    f"worker {worker} cannot import boardgames ({_first_line(theirs)}); "
                    f"install boardgames {mine['version']} there"
                )
            if theirs != mine:
                raise ClusterError(
                    f"worker {worker} has boardgames {theirs['version']} (source "
                    f"{theirs['digest']}), this machine {mine['version']} (source "
                    f"{mine['digest']}); install the same version on every machine"
                )

    def prepare(self, fn: Callable[..., Any], *args: Any) -> None:
        """Start ``fn(*args)`` in this process now, for a local cluster only: call it before
        :meth:`start`, so that the work (compiling the numba kernels the workers will
        load, building a table they will read) goes on while the workers start. The
        workers of a local cluster share this machine's kernel cache and table folder, so
        :meth:`warm` then finds the work done instead of every worker doing it again.
        :meth:`warm` waits for it (and raises what it raised)."""
        if self.spec is None or self.spec.kind != "local" or self._prepared is not None:
            return

        def run() -> None:
            try:
                fn(*args)
            except BaseException as e:  # handed to warm()
                self._prepare_error.append(e)

        # a daemon thread: a Ctrl-C ends the command without waiting for a compile (numba
        # writes each cache file under a temporary name, so a cut compile leaves no entry)
        self._prepared = threading.Thread(target=run, daemon=True, name="boardgames-prepare")
        self._prepared.start()

    def _wait_prepared(self) -> None:
        thread = self._prepared
        if thread is None:
            return
        while thread.is_alive():
            thread.join(0.1)  # short waits: Ctrl-C is seen at once
        if self._prepare_error:
            raise self._prepare_error[0]

    def warm(self, fn: Callable[..., Any], *args: Any) -> dict[str, float]:
        """Run ``fn(*args)`` once on every worker (or here), e.g. to load numba kernels;
        returns the seconds it took on each.

        What :meth:`prepare` started is waited for first. On a scheduler, one worker of
        each machine runs ``fn`` first and the others after it: workers of one machine
        that share a kernel cache load what the first compiled instead of all compiling
        at once (each compile would take the time of all of them on shared cores)."""
        self._wait_prepared()
        if self.client is None:
            t = time.perf_counter()
            fn(*args)
            return {"in-process": time.perf_counter() - t}
        first, rest = _one_per_host(self.client)
        seconds: dict[str, float] = {}
        for group in (first, rest):
            if group or not seconds:
                answers = self.client.run(_task_call, fn, args, workers=group or None)
                seconds.update({w: s for w, (_, s) in answers.items()})
        return seconds

    def close(self, now: bool = False) -> None:
        """Close the client and a local cluster (its worker processes are stopped; ``now``:
        killed first, as a kernel that is running does not stop when its task is
        cancelled, and a Ctrl-C must end the command within a second)."""
        client, cluster = self.client, self.cluster
        self.client = self.cluster = None
        if now and cluster is not None:
            for nanny in _nannies(cluster):
                with contextlib.suppress(Exception):
                    nanny.close_gracefully()  # a worker killed now is not started again
            _kill_workers(cluster)
        if client is not None:
            with contextlib.suppress(Exception):
                client.close(timeout=2)
        if cluster is not None:
            with contextlib.suppress(Exception):
                cluster.close(timeout=2)
            if now and getattr(getattr(cluster, "status", None), "name", "") != "closed":
                # not closed in time (a worker still starting on a loaded machine): its
                # workers are killed, and Dask's exit handler does not wait for it again
                # (it would, 10 s more, after the command said it stopped)
                _kill_workers(cluster)
                cluster.shutdown_on_close = False

    # --- the run ---------------------------------------------------------------------------

    def run(
        self,
        fn: Callable[..., Any],
        tasks: Sequence[tuple[str, tuple[Any, ...]]],
        *,
        label: str,
        checkpoint: Checkpoint | None = None,
        on_result: Callable[[str, Any], None] | None = None,
        progress: Progress | None = None,
        unit: str = "tasks",
        retries: int = 1,
    ) -> RunReport:
        """Run ``fn(*args)`` for every ``(key, args)`` of ``tasks``; results by key.

        Results already in ``checkpoint`` are not computed again (and are passed to
        ``on_result`` first); every new one is appended to it as it arrives. Progress is
        shown in tasks, or by ``on_result`` on the ``progress`` given. Raises
        :class:`~boardgames.core.progress.Stopped` on Ctrl-C (pending tasks cancelled) and
        :class:`ClusterError` if the scheduler is lost or a task fails."""
        _check_importable(fn)
        keys = [k for k, _ in tasks]
        if len(set(keys)) != len(keys):
            raise ValueError("task keys must be unique")
        done: dict[str, Any] = {}
        if checkpoint is not None:
            done.update(checkpoint.open(keys))
            for warning in checkpoint.warnings[:3]:
                self._say(f"Warning: checkpoint {checkpoint.path}: {warning}; its task runs again.")
            if len(checkpoint.warnings) > 3:
                self._say(f"Warning: {len(checkpoint.warnings) - 3} more damaged records.")
        for key in keys:
            if key in done and on_result is not None:
                on_result(key, done[key])
        todo = [(k, a) for k, a in tasks if k not in done]
        resumed = len(tasks) - len(todo)
        report = RunReport(done, 0, resumed, 0.0)
        own_bar = progress is None
        bar = progress or Progress(label, len(tasks), unit, console=self.console)
        if own_bar:
            bar.update(resumed, detail=self._detail())
        if resumed and checkpoint is not None:
            self._say(
                f"{label}: {resumed:,} of {len(tasks):,} {unit} already in {checkpoint.path}."
            )
        t0 = time.perf_counter()

        def finished(key: str, result: Any, seconds: float) -> None:
            done[key] = result
            report.computed += 1
            report.task_seconds[key] = seconds
            if checkpoint is not None:
                checkpoint.add(key, result)
            if on_result is not None:
                on_result(key, result)
            if own_bar:
                bar.update(len(done), detail=self._detail())

        try:
            with bar:
                if self.client is None:
                    for key, args in todo:
                        result, seconds = _task_call(fn, args)
                        finished(key, result, seconds)
                else:
                    self._run_cluster(fn, todo, finished, checkpoint, retries)
        except KeyboardInterrupt as e:
            self.close(now=True)  # running kernels do not stop when cancelled
            if isinstance(e, Stopped) and e.done is not None:
                raise
            kept = f"; {checkpoint.path} keeps them" if checkpoint is not None else ""
            raise Stopped(
                stopped_message(time.perf_counter() - t0, len(done), len(tasks), unit, kept),
                len(done),
                len(tasks),
            ) from None
        finally:
            if checkpoint is not None:
                checkpoint.close()
        report.seconds = time.perf_counter() - t0
        return report

    def _detail(self) -> str:
        if self.client is None:
            return ""
        n = self.workers
        return f"{n} worker{'s' if n != 1 else ''}"

    def _say(self, text: str) -> None:
        if self.console is not None:
            from rich.text import Text

            self.console.print(Text(text), soft_wrap=True)

    def _run_cluster(
        self,
        fn: Callable[..., Any],
        todo: list[tuple[str, tuple[Any, ...]]],
        finished: Callable[[str, Any, float], None],
        checkpoint: Checkpoint | None,
        retries: int,
    ) -> None:
        """Keep a window of tasks submitted (a few per thread), collect them as they finish,
        release each future once its result is kept."""
        from distributed import as_completed

        client = self.client
        run = os.urandom(4).hex()
        expect = _worker_ident()
        queue: Iterator[tuple[str, tuple[Any, ...]]] = iter(todo)
        names: dict[str, str] = {}
        # results travel back as they finish, many at once (future.result() one by one
        # would cost a round trip of about 10 ms each)
        # (the loop of this client: the default client may be another one of this process)
        pending = as_completed(loop=client.loop, with_results=True, raise_errors=False)
        lost_since: float | None = None

        def top_up() -> None:
            window = max(16, 4 * self.threads())
            while pending.count() < window:
                item = next(queue, None)
                if item is None:
                    return
                key, args = item
                future = client.submit(
                    _task_call, fn, args, expect, key=f"bg-{run}-{key}", pure=False,
                    retries=retries,
                )  # fmt: skip
                names[future.key] = key
                pending.add(future)

        top_up()
        try:
            while not pending.is_empty():
                batch = pending.next_batch(block=False) if pending.has_ready() else []
                if not batch:
                    if client.status != "running":
                        lost_since = lost_since or time.monotonic()
                        if time.monotonic() - lost_since > CONNECT_SECONDS:
                            raise self._lost(checkpoint)
                    else:
                        lost_since = None
                    time.sleep(POLL_SECONDS)
                    continue
                for future, answer in batch:
                    key = names.pop(future.key)
                    e = _failure(answer)
                    if e is not None:
                        if client.status != "running":
                            raise self._lost(checkpoint)
                        raise ClusterError(
                            f"task {key} failed: {type(e).__name__}: {_first_line(e)}"
                        )
                    future.release()
                    result, seconds = answer
                    finished(key, result, seconds)
                top_up()
        except BaseException:
            with contextlib.suppress(Exception):
                client.cancel(list(pending.futures), force=True)
            raise

    def pool(
        self, fn: Callable[..., Any], *, interrupt: Callable[[], None] | None = None,
        retries: int = 1, abandon: Callable[[str], None] | None = None,
    ) -> JobPool:  # fmt: skip
        """A :class:`JobPool` for jobs that are decided as the work goes (a search that
        asks new questions from the answers it got): on the cluster, or in-process in a
        background thread, one job at a time (``interrupt`` stops a running one there on
        Ctrl-C). ``abandon(job)``, importable by the workers, stops the job of that
        :func:`current_job` key in its process when the job is cancelled."""
        _check_importable(fn)
        if abandon is not None:
            _check_importable(abandon)
        if self.client is None:
            return LocalJobPool(fn, interrupt, abandon)
        return DaskJobPool(self, fn, retries, abandon)

    def _lost(self, checkpoint: Checkpoint | None) -> ClusterError:
        kept = (
            f"{checkpoint.path} keeps the {len(checkpoint.done):,} finished tasks; rerun with "
            "it to go on"
            if checkpoint is not None
            else "rerun with --checkpoint FILE to keep finished tasks next time"
        )
        return ClusterError(f"lost the Dask scheduler at {self.where}; {kept}")


def _nannies(cluster: Any) -> list[Any]:
    """The nannies of a local cluster (each runs one worker process)."""
    with contextlib.suppress(Exception):
        return list(getattr(cluster, "workers", {}).values())
    return []


def _kill_workers(cluster: Any) -> None:
    """Kill the worker processes of a local cluster now (a running kernel does not stop
    when its task is cancelled)."""
    for nanny in _nannies(cluster):
        with contextlib.suppress(Exception):
            pid = nanny.pid
            if pid:
                os.kill(pid, signal.SIGKILL)


def _one_per_host(client: Any) -> tuple[list[str], list[str]]:
    """The workers' addresses split in two: one worker of each machine, and the others
    (both empty when the scheduler cannot say)."""
    try:
        workers = client.scheduler_info()["workers"]
    except Exception:
        return [], []
    first: dict[str, str] = {}
    rest: list[str] = []
    for address, info in sorted(workers.items()):
        host = str(info.get("host") or address.rsplit(":", 1)[0])
        if host in first:
            rest.append(address)
        else:
            first[host] = address
    return list(first.values()), rest


def _check_importable(fn: Callable[..., Any]) -> None:
    module = getattr(fn, "__module__", None)
    qualname = getattr(fn, "__qualname__", "")
    if module in (None, "__main__") or "<" in qualname:
        raise ValueError(
            f"task function {qualname or fn!r} must be a top-level function of an importable "
            "module (workers import it by name)"
        )
    if hasattr(fn, "py_func"):
        raise ValueError("submit a plain function that calls the jitted kernel, not the kernel")


def describe_estimate(seconds: float, workers: int) -> str:
    """``about 3 h 5 min on 64 workers``."""
    return f"about {format_duration(seconds)} on {workers} worker{'s' if workers != 1 else ''}"
