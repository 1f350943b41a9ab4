"""Runs of tasks (core/cluster/runner.py): in this process and on a real Dask scheduler
with real worker processes (the session's cluster, tests/cluster/conftest.py), resumed
from a checkpoint, stopped by Ctrl-C; and the task functions a run takes."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from boardgames.cli import cli
from boardgames.core.cluster import Checkpoint, Runner, parse_cluster
from boardgames.core.progress import Stopped
from tests.cluster.local_dask import DaskCluster

JOB = {"command": "test", "n": 20}


TASKS = [(f"comb-{k}", (20, k)) for k in range(21)]
"""Pure tasks of an importable function (math.comb): the row of Pascal's triangle."""


# --- in this process --------------------------------------------------------------------------


def test_in_process_run_and_resume(tmp_path: Path) -> None:
    path = tmp_path / "c.ckpt"
    with Runner(None) as runner:
        report = runner.run(math.comb, TASKS[:10], label="t", checkpoint=Checkpoint(path, JOB))
    assert report.computed == 10 and report.resumed == 0
    seen: dict[str, int] = {}
    with Runner(None) as runner:
        report = runner.run(
            math.comb,
            TASKS,
            label="t",
            checkpoint=Checkpoint(path, JOB),
            on_result=seen.__setitem__,
        )
    assert (report.computed, report.resumed) == (11, 10)
    assert [report.results[k] for k, _ in TASKS] == [math.comb(20, k) for k in range(21)]
    assert seen == report.results


def test_task_functions_must_be_importable() -> None:
    with Runner(None) as runner, pytest.raises(ValueError, match="top-level function"):
        runner.run(lambda n, k: n, TASKS, label="t")


def test_ctrl_c_says_how_far_it_got(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from boardgames.core.cluster import runner

    calls = []
    real = runner._task_call

    def interrupted(fn, args):  # type: ignore[no-untyped-def]
        calls.append(args)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real(fn, args)

    monkeypatch.setattr(runner, "_task_call", interrupted)
    path = tmp_path / "c.ckpt"
    with Runner(None) as runner, pytest.raises(Stopped) as e:
        runner.run(math.comb, TASKS, label="t", checkpoint=Checkpoint(path, JOB))
    assert "3 of 21 tasks done" in str(e.value) and str(path) in str(e.value)
    c = Checkpoint(path, JOB)
    assert len(c.open()) == 3
    c.close()


# --- task functions ------------------------------------------------------------------------------


def _in_main(n: int, k: int) -> int:
    return n


_in_main.__module__ = "__main__"


class _Unnamed:
    """A callable object of no importable module and without a ``__qualname__``."""

    __module__ = "__main__"

    def __repr__(self) -> str:
        return "an unnamed task"

    def __call__(self, n: int, k: int) -> int:
        return n


class _Jitted:
    """Looks like a numba dispatcher: it has ``py_func``."""

    __module__ = "boardgames.fake"
    __qualname__ = "kernel"
    py_func = staticmethod(math.comb)

    def __call__(self, n: int, k: int) -> int:
        return math.comb(n, k)


@pytest.mark.parametrize(
    ("fn", "message"),
    [(lambda n, k: n, "^task function '<lambda>' must be a top-level function of an importable "
                      r"module \(workers import it by name\)$"),
     (_in_main, "^task function '_in_main' must be a top-level function"),
     (_Unnamed(), "^task function an unnamed task must be a top-level function"),
     (_Jitted(), "^submit a plain function that calls the jitted kernel, not the kernel$")],
)  # fmt: skip
def test_task_functions_workers_cannot_import_are_refused(fn: object, message: str) -> None:
    with Runner(None) as runner, pytest.raises(ValueError, match=message):
        runner.run(fn, TASKS[:5], label="t")  # type: ignore[arg-type]


def test_a_builtin_task_function_runs() -> None:
    with Runner(None) as runner:
        report = runner.run(math.comb, TASKS[:5], label="t")
    assert [report.results[k] for k, _ in TASKS[:5]] == [math.comb(20, k) for k in range(5)]


# --- a real scheduler and real workers ---------------------------------------------------------


def test_tasks_on_a_real_cluster(dask_cluster: DaskCluster, tmp_path: Path) -> None:
    spec = parse_cluster(dask_cluster.address)
    path = tmp_path / "c.ckpt"
    with Runner(spec) as runner:
        assert runner.workers == 2
        report = runner.run(math.comb, TASKS[:15], label="t", checkpoint=Checkpoint(path, JOB))
    assert report.computed == 15
    with Runner(parse_cluster(str(dask_cluster.scheduler_file))) as runner:
        report = runner.run(math.comb, TASKS, label="t", checkpoint=Checkpoint(path, JOB))
    assert (report.computed, report.resumed) == (6, 15)
    assert [report.results[k] for k, _ in TASKS] == [math.comb(20, k) for k in range(21)]


def test_no_scheduler_is_one_line_within_seconds() -> None:
    t = time.perf_counter()
    result = CliRunner().invoke(
        cli, ["kalah", "match", "--games", "2", "--cluster", "tcp://127.0.0.1:9"]
    )
    assert time.perf_counter() - t < 15
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert lines[-1].startswith("Error: no Dask scheduler answered at tcp://127.0.0.1:9")
    assert "Traceback" not in result.output


MATCH = ["kalah", "match", "--a", "depth=3", "--b", "depth=2,eval=store", "--pits", "4",
         "--seeds", "3", "--games", "8", "--random-opening", "3", "--json"]  # fmt: skip


def _games(output: str) -> list[dict[str, object]]:
    return json.loads(output)["results"]


def test_match_on_the_cluster_equals_the_local_run(
    dask_cluster: DaskCluster, tmp_path: Path
) -> None:
    local = CliRunner().invoke(cli, [*MATCH, "--jobs", "1"])
    assert local.exit_code == 0, local.output
    path = tmp_path / "m.ckpt"
    remote = CliRunner().invoke(
        cli, [*MATCH, "--cluster", dask_cluster.address, "--checkpoint", str(path)]
    )
    assert remote.exit_code == 0, remote.output
    assert _games(remote.stdout) == _games(local.stdout)
    got = json.loads(remote.stdout)
    assert (got["cluster"], got["workers"]) == (dask_cluster.address, 2)
    # a longer match with the same checkpoint plays only the new games
    longer = [*MATCH, "--games", "10"]
    more = CliRunner().invoke(cli, [*longer, "--cluster", dask_cluster.address,
                                    "--checkpoint", str(path)])  # fmt: skip
    assert more.exit_code == 0, more.output
    assert "8 of 10 games already in" in more.stderr
    assert _games(more.stdout)[:8] == _games(local.stdout)
    # another pair of players is another job
    other = CliRunner().invoke(cli, [*MATCH[:3], "depth=4", *MATCH[4:], "--checkpoint", str(path)])
    assert other.exit_code == 2 and "belongs to another job" in other.output


def test_two_runners_in_one_process(dask_cluster: DaskCluster) -> None:
    """The run collects its results on its own client's event loop, not on the default
    client's (the last one made): with two runners open, the first still finishes."""
    import threading

    spec = parse_cluster(dask_cluster.address)
    with Runner(spec) as first, Runner(spec) as second:
        got: list[dict[str, int]] = []
        worker = threading.Thread(
            target=lambda: got.append(first.run(math.comb, TASKS, label="t").results),
            daemon=True,
        )
        worker.start()
        worker.join(60)
        assert got and got[0]["comb-10"] == 184_756, "the first runner's run did not finish"
        assert second.run(math.comb, TASKS[:3], label="t").results["comb-2"] == 190


# --- preparing what the workers load ------------------------------------------------------------


def test_a_local_cluster_finds_what_this_process_prepared(tmp_path: Path) -> None:
    """``prepare`` runs here while a local cluster's workers start (they share this
    machine's caches); ``warm`` waits for it before the workers run: a worker that looked
    before the file was written would fail (``os.stat``)."""
    import os

    made = tmp_path / "kernels"
    order: list[str] = []

    def compile_here() -> None:
        time.sleep(1.0)
        made.write_text("compiled")
        order.append("prepared")

    runner = Runner(parse_cluster("local:2"))
    runner.prepare(compile_here)
    with runner:
        seconds = runner.warm(os.stat, str(made))
    assert order == ["prepared"] and len(seconds) == 2


def test_prepare_is_for_local_clusters_only(dask_cluster: DaskCluster) -> None:
    """In-process the work is done once anyway, and a scheduler's workers may be on other
    machines: nothing is prepared there. A failure in ``prepare`` is raised by ``warm``."""
    called: list[bool] = []
    for spec in (None, parse_cluster(dask_cluster.address)):
        Runner(spec).prepare(lambda: called.append(True))
    assert called == []
    runner = Runner(parse_cluster("local:1"))
    runner.prepare(lambda: 1 / 0)
    with runner, pytest.raises(ZeroDivisionError):
        runner.warm(time.sleep, 0)


def test_one_worker_of_each_machine_warms_first(dask_cluster: DaskCluster) -> None:
    """Workers of one machine share a kernel cache: one compiles, the others load."""
    from boardgames.core.cluster.runner import _one_per_host

    with Runner(parse_cluster(dask_cluster.address)) as runner:
        first, rest = _one_per_host(runner.client)
        assert (len(first), len(rest)) == (1, 1)  # both on 127.0.0.1
        assert set(runner.warm(time.sleep, 0)) == {*first, *rest}


# --- a Ctrl-C while a local cluster cannot close in time ---------------------------------------


class _SlowNanny:
    """A nanny whose worker is a real process (a sleeping Python)."""

    def __init__(self) -> None:
        import subprocess
        import sys

        self.proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        self.graceful = False

    @property
    def pid(self) -> int:
        return self.proc.pid

    def close_gracefully(self) -> None:
        self.graceful = True


class _StuckCluster:
    """A local cluster whose close times out (a worker still starting on a loaded machine,
    as a loaded CI run met: the command then waited 10 s more in Dask's exit handler)."""

    status = SimpleNamespace(name="closing")  # as Dask's Status enum: its member's name
    shutdown_on_close = True

    def __init__(self) -> None:
        self.workers = {0: _SlowNanny(), 1: _SlowNanny()}

    def close(self, timeout: float) -> None:
        raise TimeoutError("the cluster did not close in time")


def test_a_stop_kills_the_workers_and_leaves_nothing_to_wait_for_at_exit() -> None:
    runner = Runner(parse_cluster("local:2"))
    cluster = _StuckCluster()
    runner.cluster = cluster
    runner.close(now=True)
    assert runner.cluster is None
    for nanny in cluster.workers.values():
        assert nanny.graceful  # told first: a killed worker is not started again
        assert nanny.proc.wait(timeout=5) == -9  # killed, not left running
    assert cluster.shutdown_on_close is False  # Dask's exit handler leaves it alone


def test_a_failed_handshake_is_tried_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """distributed's client handshake can fail with a bare AssertionError when the
    scheduler is busy (seen in CI on a loaded machine): connecting is tried again, at most
    HANDSHAKE_TRIES times."""
    from boardgames.core.cluster import runner

    monkeypatch.setattr(runner.time, "sleep", lambda seconds: None)
    calls: list[int] = []

    def flaky() -> str:
        calls.append(1)
        if len(calls) < runner.HANDSHAKE_TRIES:
            raise AssertionError
        return "client"

    assert runner._connect(flaky) == "client" and len(calls) == runner.HANDSHAKE_TRIES

    def broken() -> str:
        calls.append(1)
        raise AssertionError

    calls.clear()
    with pytest.raises(AssertionError):
        runner._connect(broken)
    assert len(calls) == runner.HANDSHAKE_TRIES
