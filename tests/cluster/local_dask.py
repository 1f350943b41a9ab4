"""A real Dask cluster for the tests: a ``dask scheduler`` and ``dask worker`` processes on
127.0.0.1, started as subprocesses and stopped by their process ids. The fixtures that
start one are in conftest.py: ``dask_cluster`` (the session's) and ``private_cluster``
(a test's own, for a test that breaks its cluster)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest

START_SECONDS = 60.0
T = TypeVar("T")


@dataclass
class DaskCluster:
    """A running scheduler and its workers."""

    address: str
    scheduler_file: Path
    scheduler: subprocess.Popen[bytes]
    workers: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def add_worker(
        self, env: dict[str, str] | None = None, cwd: Path | None = None
    ) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(
            [sys.executable, "-m", "dask", "worker", self.address, "--nworkers", "1",
             "--nthreads", "1", "--no-dashboard", "--host", "127.0.0.1"],
            env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip
        self.workers.append(proc)
        return proc

    def _ask(self, question: Callable[[Any], T]) -> T:
        """``question(client)`` on a client of this cluster. A client that connects while
        the scheduler is busy (a worker's death, a loaded machine) can fail its handshake:
        distributed raises a bare AssertionError there (it met more than one message);
        it connects again, until :data:`START_SECONDS` have passed."""
        from distributed import Client

        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                with Client(self.address, timeout="10s") as client:
                    return question(client)
            except (AssertionError, OSError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)

    def wait_for_workers(self, count: int) -> None:
        """Until ``count`` workers are connected."""
        deadline = time.monotonic() + START_SECONDS
        self._ask(
            lambda client: client.wait_for_workers(
                count, timeout=max(1.0, deadline - time.monotonic())
            )
        )

    def worker_pids(self) -> list[int]:
        """The process ids of the worker processes themselves (children of the nannies)."""
        return self._ask(lambda client: sorted(client.run(os.getpid).values()))

    def stop(self) -> None:
        """Kill the scheduler and the workers, each with the processes it started (a
        nanny's worker process): a test's cluster has nothing to save, and a worker may
        take seconds to close on request."""
        for proc in [*self.workers, self.scheduler]:
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)  # its own process group
            proc.wait()


def wait_for_records(proc: subprocess.Popen[str], checkpoint: Path, records: int) -> None:
    """Wait until ``checkpoint`` holds more than ``records`` finished tasks (the workers
    are counting), and fail if the command ended first."""
    deadline = time.monotonic() + START_SECONDS * 2
    while time.monotonic() < deadline and proc.poll() is None:
        if checkpoint.exists() and len(checkpoint.read_text().splitlines()) > records:
            break
        time.sleep(0.01)
    assert proc.poll() is None, "the command ended before it could be disturbed"


def start_cluster(where: Path, workers: int = 2) -> DaskCluster:
    """Start a scheduler on a free port of 127.0.0.1 and ``workers`` one-thread workers."""
    scheduler_file = where / "scheduler.json"
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1", "--port", "0",
         "--no-dashboard", "--scheduler-file", str(scheduler_file)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + START_SECONDS
    while not scheduler_file.exists() or not scheduler_file.read_text().strip():
        if scheduler.poll() is not None or time.monotonic() > deadline:
            scheduler.kill()
            pytest.fail("the dask scheduler did not start")
        time.sleep(0.05)
    time.sleep(0.05)  # the file is written in one go; make sure it is complete
    address = json.loads(scheduler_file.read_text())["address"]
    cluster = DaskCluster(address, scheduler_file, scheduler)
    try:
        for _ in range(workers):
            cluster.add_worker()
        if workers:
            cluster.wait_for_workers(workers)
    except BaseException:
        cluster.stop()
        raise
    return cluster
