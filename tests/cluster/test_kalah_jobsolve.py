"""The job-level Kalah solve on a real Dask cluster (scheduler and workers on 127.0.0.1):
the same values and best moves as the single-machine solver, bounds that agree with the
exact value, a killed worker or front end that changes nothing, and checkpoints that are
refused in one line when they cannot be trusted."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from boardgames.core.cluster import Runner, parse_cluster
from boardgames.kalah.exact.solver import Solver
from boardgames.kalah.game import Kalah
from boardgames.kalah.jobs import worker
from boardgames.kalah.jobs.search import JobSearch
from tests.cluster.local_dask import DaskCluster

SMALL_JOBS = 20_000  # positions a job: small, so that every solve here is split into many


def exact(pits: int, seeds: int, rules: str, ec: bool) -> tuple[int, list[int]]:
    """The single-machine solver's value and the first best compound move in pit order."""
    solver = Solver(pits, rules, empty_capture=ec, threads=1)
    state = Kalah(pits, seeds, rules, empty_capture=ec).initial_state()
    value = solver.value(state)
    line: list[int] = []
    mover = int(state[-1])
    while solver.legal(state) and int(state[-1]) == mover:
        for pit in solver.legal(state):
            child, _, _ = solver._child(state, pit)
            v = solver.value(child)
            if (v if int(child[-1]) == mover else -v) == value:
                line.append(pit)
                state = child
                break
    return value, line


@pytest.fixture(scope="module")
def runner(dask_cluster: DaskCluster) -> Iterator[Runner]:
    r = Runner(parse_cluster(dask_cluster.address), machine_workers=True)
    r.start()
    try:
        yield r
    finally:
        r.close()


def job_search(runner: Runner, pits: int, seeds: int, rules: str, ec: bool, **kw) -> JobSearch:
    state = Kalah(pits, seeds, rules, empty_capture=ec).initial_state()
    pool = runner.pool(worker.solve_job, interrupt=worker.stop_jobs)
    return JobSearch(
        pits, rules, ec, state, pool, job_nodes=kw.pop("job_nodes", SMALL_JOBS),
        endgame="0", hash_mb=16, **kw,
    )  # fmt: skip


BOARDS = [
    (4, 4, "classic", False),
    (4, 4, "classic", True),
    (4, 3, "etudes", False),
    pytest.param(5, 4, "classic", False, marks=pytest.mark.slow),
    pytest.param(5, 4, "classic", True, marks=pytest.mark.slow),
    pytest.param(6, 3, "classic", False, marks=pytest.mark.slow),
    pytest.param(6, 3, "classic", True, marks=pytest.mark.slow),
    pytest.param(5, 5, "classic", False, marks=pytest.mark.slow),
    pytest.param(5, 5, "classic", True, marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("pits", "seeds", "rules", "ec"), BOARDS)
def test_same_value_and_best_move_as_the_solver(
    runner: Runner, pits: int, seeds: int, rules: str, ec: bool
) -> None:
    value, best = exact(pits, seeds, rules, ec)
    search = job_search(runner, pits, seeds, rules, ec)
    try:
        got = search.value()
        line = search.best_line(got)
    finally:
        search.close()
    assert (got, line) == (value, best)
    assert search.stats.over_budget > 0  # the small budget made it split


@pytest.mark.parametrize(("pits", "seeds", "rules", "ec"), BOARDS[:3])
def test_at_least_and_at_most_agree_with_the_value(
    runner: Runner, pits: int, seeds: int, rules: str, ec: bool
) -> None:
    value, _ = exact(pits, seeds, rules, ec)
    step = 2 if rules == "classic" else 1  # classic margins have the parity of the stones
    search = job_search(runner, pits, seeds, rules, ec)
    try:
        assert search.test(value - step) is True
        assert search.test(value) is True
        assert search.test(value + step) is False
        assert search.node_bounds(search.root) == (value, value)
    finally:
        search.close()


def solve_cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "boardgames", "kalah", "solve", *args],
        capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip


def test_cli_at_least_and_at_most_on_the_cluster(dask_cluster: DaskCluster) -> None:
    common = ["--pits", "4", "--seeds", "4", "--endgame", "0", "--cluster", dask_cluster.address]
    yes = solve_cli(*common, "--at-least", "2", "--json")
    no = solve_cli(*common, "--at-most", "0")
    assert yes.returncode == 0 and no.returncode == 0, yes.stderr + no.stderr
    data = json.loads(yes.stdout)
    assert data["test"] == {"at_least": 2, "holds": True}
    assert data["value"] is None and data["lower"] >= 2
    assert data["workers"] == 2 and data["jobs"] >= 1
    assert no.stdout.startswith("Is the value for A (to move) at most +0? no")


def rows(checkpoint: Path) -> int:
    path = checkpoint / "bounds.sqlite"
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(path, timeout=0.2) as db:
            return int(db.execute("SELECT count(*) FROM bounds").fetchone()[0])
    except sqlite3.Error:
        return 0


def wait_for_rows(proc: subprocess.Popen[str], checkpoint: Path, count: int) -> None:
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None:
        if rows(checkpoint) > count:
            return
        time.sleep(0.05)
    assert proc.poll() is None, "the solve ended before it could be disturbed"


BOARD = ["--pits", "5", "--seeds", "3", "--endgame", "0", "--job-nodes", "5000"]
BOARD_VALUE = 6  # kalah solve --pits 5 --seeds 3 --endgame 0


def test_front_end_killed_and_rerun_from_its_checkpoint(
    dask_cluster: DaskCluster, tmp_path: Path
) -> None:
    fresh = solve_cli(*BOARD, "--cluster", dask_cluster.address, "--json")
    assert fresh.returncode == 0, fresh.stderr
    ckpt = tmp_path / "ckpt"
    proc = subprocess.Popen(
        [sys.executable, "-m", "boardgames", "kalah", "solve", *BOARD, "--cluster",
         dask_cluster.address, "--checkpoint-dir", str(ckpt), "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    wait_for_rows(proc, ckpt, 20)
    proc.kill()  # the hard way: no chance to tidy up
    proc.communicate(timeout=30)
    again = solve_cli(*BOARD, "--cluster", dask_cluster.address, "--checkpoint-dir", str(ckpt),
                      "--json")  # fmt: skip
    assert again.returncode == 0, again.stderr
    first, second = json.loads(fresh.stdout), json.loads(again.stdout)
    assert first["value"] == second["value"] == BOARD_VALUE
    assert second["best"] == first["best"]
    assert second["checkpoint_hits"] > 0
    assert second["jobs"] < first["jobs"]
    # and a third run asks nothing at all
    third = json.loads(solve_cli(*BOARD, "--checkpoint-dir", str(ckpt), "--json").stdout)
    assert third["value"] == BOARD_VALUE and third["jobs"] == 0


def test_a_worker_killed_mid_solve_changes_nothing(
    dask_cluster: DaskCluster, tmp_path: Path
) -> None:
    ckpt = tmp_path / "ckpt"
    proc = subprocess.Popen(
        [sys.executable, "-m", "boardgames", "kalah", "solve", *BOARD, "--cluster",
         dask_cluster.address, "--checkpoint-dir", str(ckpt), "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        wait_for_rows(proc, ckpt, 10)
        os.kill(dask_cluster.worker_pids()[0], signal.SIGKILL)  # its nanny starts a new one
        out, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        dask_cluster.wait_for_workers(2)  # the nanny brought the killed worker back
    assert proc.returncode == 0, err
    assert json.loads(out)["value"] == BOARD_VALUE


def checkpoint_of(tmp_path: Path, *extra: str) -> Path:
    ckpt = tmp_path / "ckpt"
    r = solve_cli("--pits", "4", "--seeds", "3", "--endgame", "0", "--checkpoint-dir", str(ckpt),
                  *extra)  # fmt: skip
    assert r.returncode == 0, r.stderr
    return ckpt


def refused(r: subprocess.CompletedProcess[str], words: str) -> None:
    assert r.returncode == 2, r.stdout + r.stderr
    lines = r.stderr.strip().splitlines()
    assert words in lines[-1], lines[-1]
    assert "Traceback" not in r.stderr


def test_a_checkpoint_of_other_rules_is_refused(tmp_path: Path) -> None:
    ckpt = checkpoint_of(tmp_path)
    r = solve_cli("--pits", "4", "--seeds", "3", "--endgame", "0", "--empty-capture",
                  "--checkpoint-dir", str(ckpt))  # fmt: skip
    refused(
        r,
        "belongs to another game (it holds empty_capture=False; this solve has empty_capture=True)",
    )


def test_a_checkpoint_of_a_newer_format_is_refused(tmp_path: Path) -> None:
    ckpt = checkpoint_of(tmp_path)
    with sqlite3.connect(ckpt / "bounds.sqlite") as db:
        db.execute("UPDATE meta SET value = '99' WHERE key = 'format'")
    r = solve_cli("--pits", "4", "--seeds", "3", "--endgame", "0", "--checkpoint-dir", str(ckpt))
    refused(r, "has format 99, written by a newer boardgames")


def test_a_truncated_checkpoint_never_gives_a_wrong_value(tmp_path: Path) -> None:
    ckpt = checkpoint_of(tmp_path, "--job-nodes", "1000")
    path = ckpt / "bounds.sqlite"
    data = path.read_bytes()
    assert len(data) > 8192
    path.write_bytes(data[: len(data) // 2])
    r = solve_cli("--pits", "4", "--seeds", "3", "--endgame", "0", "--checkpoint-dir", str(ckpt),
                  "--json")  # fmt: skip
    if r.returncode == 0:  # SQLite read what is left: the value must still be right
        assert json.loads(r.stdout)["value"] == exact(4, 3, "classic", False)[0]
    else:
        refused(r, "cannot be read")


def test_a_damaged_row_is_skipped_not_believed(tmp_path: Path) -> None:
    ckpt = checkpoint_of(tmp_path)
    value = exact(4, 3, "classic", False)[0]
    with sqlite3.connect(ckpt / "bounds.sqlite") as db:  # every bound says the opposite
        db.execute("UPDATE bounds SET value = -value WHERE value != 0")
    r = solve_cli("--pits", "4", "--seeds", "3", "--endgame", "0", "--checkpoint-dir", str(ckpt),
                  "--json")  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["value"] == value
    assert "damaged rows skipped" in r.stderr


def test_not_a_checkpoint_is_refused(tmp_path: Path) -> None:
    ckpt = tmp_path / "ckpt"
    ckpt.mkdir()
    (ckpt / "bounds.sqlite").write_bytes(b"not a database at all" * 100)
    r = solve_cli("--pits", "4", "--seeds", "3", "--endgame", "0", "--checkpoint-dir", str(ckpt))
    refused(r, "cannot be read")


def test_bounds_reused_across_thresholds() -> None:
    """A test for one threshold leaves bounds that the next test reuses (in-process)."""
    from boardgames.core.cluster import LocalJobPool

    state = Kalah(4, 4, "classic").initial_state()
    pool = LocalJobPool(worker.solve_job, worker.stop_jobs)
    search = JobSearch(4, "classic", False, state, pool, job_nodes=SMALL_JOBS,
                                endgame="0", hash_mb=16)  # fmt: skip
    try:
        assert search.test(2)
        jobs = search.stats.jobs
        assert search.test(0) and search.test(-4)  # already implied: no job asked
        assert search.stats.jobs == jobs
    finally:
        search.close()
    assert np.array_equal(search.root.state, state)


def test_mapped_endgame_tables_give_the_same_value(
    dask_cluster: DaskCluster, tmp_path: Path
) -> None:
    """--endgame-mmap (workers map the table from its file) and --endgame-dir (a shared
    folder of tables): the value of the plain solve."""
    env = {**os.environ, "BOARDGAMES_CACHE": str(tmp_path / "cache")}
    common = ["--pits", "4", "--seeds", "4", "--endgame", "8", "--json"]
    plain = subprocess.run(
        [sys.executable, "-m", "boardgames", "kalah", "solve", *common],
        capture_output=True, text=True, timeout=300, env=env,
    )  # fmt: skip
    mapped = subprocess.run(
        [sys.executable, "-m", "boardgames", "kalah", "solve", *common, "--endgame-mmap",
         "--endgame-dir", str(tmp_path / "cache"), "--cluster", dask_cluster.address,
         "--job-nodes", "5000"],
        capture_output=True, text=True, timeout=300, env=env,
    )  # fmt: skip
    assert plain.returncode == 0 and mapped.returncode == 0, plain.stderr + mapped.stderr
    assert json.loads(mapped.stdout)["value"] == json.loads(plain.stdout)["value"] == 2
    assert json.loads(mapped.stdout)["jobs"] > 2  # the workers' jobs read the mapped table
    assert json.loads(mapped.stdout)["endgame"] == f"dir={tmp_path / 'cache'}:8+mmap"
