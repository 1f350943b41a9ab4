"""``queens count`` on a real Dask cluster: OEIS counts, a worker killed mid-count, a client
killed and resumed from its checkpoint, damaged and foreign checkpoints."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from boardgames.core.cluster import Runner, parse_cluster
from boardgames.queens import tasks as queens_tasks
from tests.cluster.local_dask import DaskCluster, wait_for_records
from tests.helpers import check_clean_stop, interrupt

# OEIS A000170 and A002562, N = 1..14
TOTAL = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596]
FUNDAMENTAL = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752]
DISTURBED = pytest.mark.parametrize(
    ("n", "count"), [(16, 14_772_512), pytest.param(17, 95_815_104, marks=pytest.mark.slow)]
)
"""Counts disturbed on the way (OEIS A000170): N = 16 is hundreds of tasks of a few
milliseconds each, time enough to kill a process mid-count; N = 17 (6.5 times the work)
is the slow set's."""


def boardgames(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "boardgames", *args],
        capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip


def test_counts_on_the_cluster_are_the_oeis_values(dask_cluster: DaskCluster) -> None:
    with Runner(parse_cluster(dask_cluster.address)) as runner:
        runner.warm(queens_tasks.warm, 8)
        for n in range(1, 13):
            for fundamental in (False, True):
                plan = queens_tasks.plan(n, fundamental)
                report = runner.run(queens_tasks.count_task, plan.tasks, label="t")
                if fundamental:
                    count, parts = queens_tasks.fundamental_total(n, report.results)
                    assert (count, parts["total"]) == (FUNDAMENTAL[n - 1], TOTAL[n - 1]), n
                else:
                    assert sum(report.results.values()) == TOTAL[n - 1], n


def test_the_command_on_the_cluster(dask_cluster: DaskCluster) -> None:
    r = boardgames("queens", "count", "-n", "14", "--cluster", dask_cluster.address, "--json")
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got["count"] == 365_596
    assert (got["cluster"], got["workers"], got["method"]) == (
        dask_cluster.address,
        2,
        "constellations",
    )


def test_a_fundamental_count_by_scheduler_file(dask_cluster: DaskCluster) -> None:
    r = boardgames("queens", "count", "-n", "13", "--fundamental", "--cluster",
                   str(dask_cluster.scheduler_file))  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "N = 13: 9,233 fundamental solutions (constellations" in r.stdout


@DISTURBED
def test_a_worker_killed_mid_count(
    dask_cluster: DaskCluster, tmp_path: Path, n: int, count: int
) -> None:
    """SIGKILL one worker process while the count runs: its tasks run again elsewhere (or
    on the worker its nanny restarts) and the count is still right."""
    ckpt = tmp_path / f"n{n}.ckpt"
    proc = subprocess.Popen(
        [sys.executable, "-m", "boardgames", "queens", "count", "-n", str(n), "--tasks", "300",
         "--cluster", dask_cluster.address, "--checkpoint", str(ckpt), "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        victim = dask_cluster.worker_pids()[0]
        wait_for_records(proc, ckpt, 5)
        os.kill(victim, signal.SIGKILL)
        out, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        dask_cluster.wait_for_workers(2)  # the nanny brought the killed worker back
    assert proc.returncode == 0, err
    got = json.loads(out)
    assert got["count"] == count and got["computed"] == 300


@DISTURBED
def test_a_killed_client_resumes_from_its_checkpoint(
    dask_cluster: DaskCluster, tmp_path: Path, n: int, count: int
) -> None:
    ckpt = tmp_path / f"n{n}.ckpt"
    args = ["queens", "count", "-n", str(n), "--tasks", "400", "--cluster",
            dask_cluster.address, "--checkpoint", str(ckpt), "--json"]  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "boardgames", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    wait_for_records(proc, ckpt, 20)
    proc.kill()
    proc.communicate()
    kept = len(ckpt.read_text().splitlines()) - 1  # the header is not a task
    r = boardgames(*args)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got["count"] == count and got["tasks"] == 400
    # the records the killed run finished are reused; a record cut short is run again
    assert got["resumed"] in (kept, kept - 1) and got["computed"] == 400 - got["resumed"]
    again = json.loads(boardgames(*args).stdout)
    assert (again["count"], again["computed"], again["resumed"]) == (count, 0, 400)


def test_checkpoint_troubles_are_one_line(dask_cluster: DaskCluster, tmp_path: Path) -> None:
    ckpt = tmp_path / "n10.ckpt"
    r = boardgames("queens", "count", "-n", "10", "--tasks", "8", "--checkpoint", str(ckpt))
    assert r.returncode == 0 and "724 solutions" in r.stdout, r.stderr
    # another job with the same file
    r = boardgames("queens", "count", "-n", "11", "--tasks", "8", "--checkpoint", str(ckpt))
    assert r.returncode == 2
    assert (
        r.stderr.strip()
        .splitlines()[-1]
        .startswith(f"Error: checkpoint {ckpt} belongs to another job (n 10, not 11")
    )
    # a damaged record: a warning, the task runs again, the total is right
    lines = ckpt.read_text().splitlines()
    lines[3] = lines[3][: len(lines[3]) // 2]
    ckpt.write_text("\n".join(lines) + "\n")
    r = boardgames("queens", "count", "-n", "10", "--tasks", "8", "--checkpoint", str(ckpt),
                   "--json")  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "line 4 is damaged; its task runs again" in r.stderr
    got = json.loads(r.stdout)
    assert (got["count"], got["computed"]) == (724, 1)
    # not a checkpoint at all
    notes = tmp_path / "notes.txt"
    notes.write_text("hello\n")
    r = boardgames("queens", "count", "-n", "10", "--checkpoint", str(notes))
    assert r.returncode == 2 and "is not a boardgames checkpoint" in r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--cluster", "nowhere"], "'nowhere': use local, local:N"),
     (["--cluster", "local", "--method", "numba"], "leave out --method and --workers"),
     (["--tasks", "5"], "--tasks applies with --cluster or --checkpoint only")],
)  # fmt: skip
def test_bad_cluster_use_is_one_line(args: list[str], message: str) -> None:
    r = boardgames("queens", "count", "-n", "10", *args, timeout=60)
    assert r.returncode in (1, 2) and message in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_ctrl_c_on_a_local_cluster(tmp_path: Path) -> None:
    """Ctrl-C cancels what is pending, stops the local workers and keeps the checkpoint."""
    ckpt = tmp_path / "n20.ckpt"
    args = ["queens", "count", "-n", "20", "--cluster", "local:2", "--checkpoint", str(ckpt)]
    run = interrupt(args, "N = 20, constellations: ", tmp_path)
    check_clean_stop(run)
    last = run.stderr.strip().splitlines()[-1]
    assert last.endswith(f"tasks done; {ckpt} keeps them.")
    first = next(line for line in run.stderr.splitlines() if line.startswith("N = 20: about"))
    assert "on 2 workers (timed on" in first and "of N = 18, scaled by" in first


def test_a_count_of_more_than_a_day_needs_yes() -> None:
    r = boardgames("queens", "count", "-n", "25", timeout=120)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    # (a busy machine may first show how the kernels load)
    first = next(line for line in lines if not line.startswith("Loading the numba kernels"))
    assert first.startswith("N = 25: about ") and "scaled by the solution counts" in first
    assert lines[-1].startswith("Error: N = 25 would take about ")
    assert lines[-1].endswith("add --yes to start it anyway, or spread it over a cluster "
                              "(--cluster)")  # fmt: skip
    assert r.stdout == ""
