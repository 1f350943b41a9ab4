"""Run a list of pure tasks in this process, on a local cluster, or on a Dask scheduler.

The one module that imports dask (only inside functions: importing this module is cheap).
It knows nothing about games. A game turns its work into *tasks*: a string key and the
arguments of a plain function that lives in an importable module of the package (not in
``__main__``, not a closure, not a jitted function). A task must be pure: the same
arguments always give the same JSON-serialisable result, so a task that runs twice (a lost
worker's task, retried; a task whose result a checkpoint already holds) is harmless.

* ``--cluster`` (or ``BOARDGAMES_CLUSTER``): ``local`` / ``local:N`` (a Dask LocalCluster
  of N worker processes on 127.0.0.1, default one per core), ``tcp://HOST:PORT`` or
  ``tls://HOST:PORT`` (a running scheduler), or the path of a scheduler file (``dask
  scheduler --scheduler-file FILE``). Without it, tasks run one by one in this process.
* ``--checkpoint FILE``: every finished task's result is appended as it arrives (one JSON
  line, with a CRC) after a header line that names the job; rerunning the same job with
  the same file runs only the missing tasks. See :class:`Checkpoint`.
* Progress with an estimate on stderr, Ctrl-C cancels what is pending (status 130 and how
  far the work got), a lost scheduler or a worker with another boardgames version is one
  line (:class:`ClusterError`), never a traceback.

Dask has no authentication by default: local clusters bind to 127.0.0.1; a real cluster
belongs on a private network or uses Dask's TLS security options.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import signal
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import click

from boardgames.core.progress import Progress, Stopped, format_duration, stopped_message

ENV_VAR = "BOARDGAMES_CLUSTER"
"""The default of ``--cluster``."""
MAX_LOCAL_WORKERS = 256
CONNECT_SECONDS = 5.0
"""How long to wait for a scheduler (or for a lost one to come back) before giving up."""
POLL_SECONDS = 0.002
"""How often the client looks for finished tasks (and sees a Ctrl-C): often enough that a
worker is never kept waiting for its next task."""
CHECKPOINT_FORMAT = 1
REFRESH_SECONDS = 2.0
"""How often the number of workers (shown, and sizing the window of submitted tasks) is
asked of the scheduler."""
FSYNC_SECONDS = 2.0
"""A checkpoint is flushed after every record and synced to disk at most this often."""


class ClusterError(click.ClickException):
    """Something about the cluster or the checkpoint went wrong: one line for the user.
    Status 2 for bad input (a bad spec, another job's checkpoint), else 1."""

    def __init__(self, message: str, bad_input: bool = False) -> None:
        super().__init__(message)
        # click declares exit_code a ClassVar; an instance attribute is what it reads
        self.exit_code = 2 if bad_input else 1  # type: ignore[misc]


# --- where to run ------------------------------------------------------------------------


@dataclass(frozen=True)
class ClusterSpec:
    """Where tasks run: ``kind`` is ``local``, ``address`` or ``file``."""

    text: str
    kind: str
    workers: int | None = None
    target: str = ""

    def __str__(self) -> str:
        return self.text


def parse_cluster(text: str) -> ClusterSpec:
    """A :class:`ClusterSpec` from the text of ``--cluster``; ClusterError if it is none."""
    value = text.strip()
    allowed = "use local, local:N (1 to 256 workers), tcp://HOST:PORT or a scheduler file"
    if value == "local":
        return ClusterSpec(value, "local")
    if value.startswith("local:"):
        count = value[6:]
        if count.isascii() and count.isdigit() and 1 <= int(count) <= MAX_LOCAL_WORKERS:
            return ClusterSpec(value, "local", int(count))
        raise ClusterError(f"bad --cluster {value[:60]!r}: {allowed}", bad_input=True)
    if "://" in value:
        scheme, _, rest = value.partition("://")
        host, sep, port = rest.rpartition(":")
        if scheme in ("tcp", "tls") and sep and host and port.isdigit() and 0 < int(port) < 65536:
            return ClusterSpec(value, "address", target=value)
        raise ClusterError(f"bad --cluster {value[:60]!r}: {allowed}", bad_input=True)
    if value and Path(value).is_file():
        return ClusterSpec(value, "file", target=value)
    if value and ("/" in value or value.endswith(".json")):
        raise ClusterError(f"--cluster {value[:60]!r}: no such scheduler file", bad_input=True)
    raise ClusterError(f"bad --cluster {value[:60]!r}: {allowed}", bad_input=True)


def cluster_callback(ctx: click.Context, param: click.Parameter, value: str | None) -> Any:
    """click callback of a ``--cluster`` option: a :class:`ClusterSpec`, None when blank."""
    if value is None or not value.strip():
        return None
    try:
        return parse_cluster(value)
    except ClusterError as e:
        raise click.BadParameter(e.message.removeprefix("bad --cluster ")) from None


def _checkpoint_callback(ctx: click.Context, param: click.Parameter, value: str | None) -> Any:
    if value is None:
        return None
    if not value.strip():
        raise click.BadParameter("the file name is empty; give one, e.g. count.ckpt")
    return Path(value)


def cluster_options(what: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The ``--cluster`` and ``--checkpoint`` options of a command that spreads ``what``
    (e.g. "the games") over workers; they arrive as ``cluster`` and ``checkpoint``."""

    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        f = click.option(
            "--checkpoint",
            callback=_checkpoint_callback,
            metavar="FILE",
            help=f"Append each finished task's result to FILE; run again with the same FILE "
            f"and only the missing tasks of {what} run (a file of another job is refused).",
        )(f)
        return click.option(
            "--cluster",
            envvar=ENV_VAR,
            callback=cluster_callback,
            metavar="SPEC",
            help=f"Run {what} as Dask tasks: local (worker processes on this machine, "
            "local:N for N of them), tcp://HOST:PORT (a running dask scheduler) or a "
            f"scheduler file. Default: ${ENV_VAR}, else in this process.",
        )(f)

    return decorate


# --- checkpoints -------------------------------------------------------------------------


def _crc(key: str, result: Any) -> int:
    return zlib.crc32(json.dumps([key, result], sort_keys=True, separators=(",", ":")).encode())


def package_version() -> str:
    """The installed boardgames version."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("boardgames")
    except PackageNotFoundError:  # run from a source tree without installing
        return "unknown"


class Checkpoint:
    """An append-only file of finished tasks: a header line ``{"boardgames_checkpoint": 1,
    "version": ..., "job": {...}}`` then one line ``{"task": KEY, "result": ..., "crc": ...}``
    a task, flushed as it is written. Opening a file of another job (or version) is an
    error; a damaged record (a truncated last line, garbage, a wrong CRC) is skipped with
    a warning and its task runs again, so a damaged file never gives a wrong total. The file
    is locked while a run uses it."""

    def __init__(self, path: Path, job: dict[str, Any]) -> None:
        self.path = Path(path)
        self.job = job
        self.done: dict[str, Any] = {}
        self.warnings: list[str] = []
        self._file: IO[str] | None = None
        self._synced = time.monotonic()

    def open(self, keys: Iterable[str] | None = None) -> dict[str, Any]:
        """Read what the file holds (creating it with its header if it is new or empty),
        lock it and keep it open for :meth:`add`. ``keys``: the job's task keys; a record of
        another key is skipped with a warning. Returns the finished results by key."""
        header = {"boardgames_checkpoint": CHECKPOINT_FORMAT, "version": package_version(),
                  "job": self.job}  # fmt: skip
        try:
            f = self.path.open("a+", encoding="utf-8", newline="\n")
        except OSError as e:
            raise ClusterError(f"checkpoint {self.path}: {e.strerror or e}") from None
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.close()
            raise ClusterError(
                f"checkpoint {self.path} is in use by another run; wait for it or give "
                "another file",
                bad_input=True,
            ) from None
        self._file = f
        with self.path.open("rb") as raw:
            data = raw.read()
        if not data.strip():
            f.truncate(0)
            self._write(json.dumps(header, sort_keys=True))
            return self.done
        lines = data.split(b"\n")
        self._check_header(lines[0], header)
        tail = lines.pop()  # b"" when the file ends with a newline
        if tail:
            # a record cut short (the run was killed while writing it): dropped, so that
            # the next record starts on a line of its own; its task runs again
            f.truncate(len(data) - len(tail))
            self.warnings.append("the last record was cut short")
        wanted = set(keys) if keys is not None else None
        for number, line in enumerate(lines[1:], start=2):
            if not line.strip():
                continue
            record = self._record(line)
            if record is None:
                self.warnings.append(f"line {number} is damaged")
                continue
            key, result = record
            if wanted is not None and key not in wanted:
                self.warnings.append(f"line {number} names task {key!r}, not one of this job's")
                continue
            if key in self.done and self.done[key] != result:
                raise ClusterError(
                    f"checkpoint {self.path} holds two different results for task {key!r}: "
                    "it is damaged; start a new one"
                )
            self.done[key] = result
        return self.done

    def _check_header(self, line: bytes, header: dict[str, Any]) -> None:
        try:
            got = json.loads(line)
            ok = isinstance(got, dict) and got.get("boardgames_checkpoint") == CHECKPOINT_FORMAT
        except ValueError:
            ok = False
        if not ok:
            raise ClusterError(
                f"{self.path} is not a boardgames checkpoint (its first line is not the "
                "header); give another file",
                bad_input=True,
            )
        if got.get("job") != self.job:
            job = got.get("job")
            theirs = job if isinstance(job, dict) else {}
            diff = [
                f"{k} {theirs[k]}, not {self.job[k]}" if k in theirs else f"no {k}"
                for k in self.job
                if theirs.get(k) != self.job[k]
            ]
            raise ClusterError(
                f"checkpoint {self.path} belongs to another job ({'; '.join(diff)}); give "
                "another file",
                bad_input=True,
            )
        if got.get("version") != header["version"]:
            raise ClusterError(
                f"checkpoint {self.path} was written by boardgames {got.get('version')}, "
                f"this is {header['version']}; give another file",
                bad_input=True,
            )

    @staticmethod
    def _record(line: bytes) -> tuple[str, Any] | None:
        try:
            got = json.loads(line)
        except ValueError:
            return None
        if not isinstance(got, dict) or set(got) != {"task", "result", "crc"}:
            return None
        key, result = got["task"], got["result"]
        if not isinstance(key, str) or got["crc"] != _crc(key, result):
            return None
        return key, result

    def _write(self, line: str) -> None:
        assert self._file is not None
        self._file.write(line + "\n")
        self._file.flush()
        now = time.monotonic()
        if now - self._synced >= FSYNC_SECONDS:
            os.fsync(self._file.fileno())
            self._synced = now

    def add(self, key: str, result: Any) -> None:
        """Append one finished task (flushed at once)."""
        self.done[key] = result
        record = {"task": key, "result": result, "crc": _crc(key, result)}
        self._write(json.dumps(record, separators=(",", ":")))

    def close(self) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.flush()
                os.fsync(self._file.fileno())
            self._file.close()  # releases the lock
            self._file = None


# --- running tasks -----------------------------------------------------------------------


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
    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())
    _DIGEST.append(h.hexdigest()[:12])
    return _DIGEST[0]


def _worker_ident() -> dict[str, str]:
    """Run on a worker: its boardgames version and source digest."""
    return {"version": package_version(), "digest": source_digest()}


@dataclass
class RunReport:
    """What :meth:`Runner.run` did."""

    results: dict[str, Any]
    computed: int
    resumed: int
    seconds: float
    task_seconds: dict[str, float] = field(default_factory=dict)


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
                self.client = Client(scheduler_file=self.spec.target, timeout=f"{CONNECT_SECONDS}s")
            else:
                self.client = Client(self.spec.target, timeout=f"{CONNECT_SECONDS}s")
        except (OSError, TimeoutError) as e:
            self.close()
            raise ClusterError(
                f"no Dask scheduler answered at {self.spec.text} within "
                f"{CONNECT_SECONDS:.0f} s ({_first_line(e)}); start one with "
                "'dask scheduler' or check the address"
            ) from None
        except Exception as e:
            self.close()
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

    def warm(self, fn: Callable[..., Any], *args: Any) -> dict[str, float]:
        """Run ``fn(*args)`` once on every worker (or here), e.g. to load numba kernels;
        returns the seconds it took on each."""
        if self.client is None:
            t = time.perf_counter()
            fn(*args)
            return {"in-process": time.perf_counter() - t}
        answers = self.client.run(_task_call, fn, args)
        return {w: seconds for w, (_, seconds) in answers.items()}

    def close(self, now: bool = False) -> None:
        """Close the client and a local cluster (its worker processes are stopped; ``now``:
        killed first, as a kernel that is running does not stop when its task is
        cancelled, and a Ctrl-C must end the command within a second)."""
        client, cluster = self.client, self.cluster
        self.client = self.cluster = None
        if now and cluster is not None:
            for nanny in list(getattr(cluster, "workers", {}).values()):
                with contextlib.suppress(Exception):
                    pid = nanny.pid
                    if pid:
                        os.kill(pid, signal.SIGKILL)
        if client is not None:
            with contextlib.suppress(Exception):
                client.close(timeout=2)
        if cluster is not None:
            with contextlib.suppress(Exception):
                cluster.close(timeout=2)

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


def _first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return text[0][:200] if text else type(e).__name__


def describe_estimate(seconds: float, workers: int) -> str:
    """``about 3 h 5 min on 64 workers``."""
    return f"about {format_duration(seconds)} on {workers} worker{'s' if workers != 1 else ''}"


# --- jobs decided as the work goes ----------------------------------------------------------


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


class _Cancelled(Exception):
    pass


_CANCELLED = _Cancelled()


class DaskJobPool(JobPool):
    """On the runner's Dask cluster: each job is a task; results come back as they finish."""

    def __init__(
        self, runner: Runner, fn: Callable[..., Any], retries: int,
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
