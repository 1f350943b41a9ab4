"""What goes wrong on a real cluster: the scheduler lost mid-count and a worker that runs
other boardgames code are one line each; a worker that dies after its result came back
changes nothing. Each test has a cluster of its own (``private_cluster``), which is the
point: it kills the scheduler, has only a worker with other code, or kills its only worker
(so that the answer in hand stays lost until the nanny has started another)."""

from __future__ import annotations

import math
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from boardgames.core.cluster import DaskJobPool, Runner, parse_cluster
from tests.cluster.local_dask import wait_for_records


def test_the_scheduler_lost_mid_count(tmp_path: Path, private_cluster) -> None:
    cluster = private_cluster(1)
    ckpt = tmp_path / "n17.ckpt"
    proc = subprocess.Popen(
        [sys.executable, "-m", "boardgames", "queens", "count", "-n", "17", "--tasks", "300",
         "--cluster", cluster.address, "--checkpoint", str(ckpt)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    wait_for_records(proc, ckpt, 5)
    os.kill(cluster.scheduler.pid, signal.SIGKILL)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 1
    lines = err.strip().splitlines()
    kept = len(ckpt.read_text().splitlines()) - 1
    assert lines[-1] == (
        f"Error: lost the Dask scheduler at {cluster.address}; {ckpt} keeps the {kept:,} "
        "finished tasks; rerun with it to go on"
    )
    assert "Traceback" not in err and "ERROR" not in err


def test_a_worker_with_other_code_is_named(tmp_path: Path, private_cluster) -> None:
    """A worker whose boardgames differs from the client's (here: a copy of the package with
    one comment more, first on the worker's path) is refused on connecting."""
    import boardgames

    copy = tmp_path / "other"
    shutil.copytree(Path(boardgames.__file__).parent, copy / "boardgames",
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    with (copy / "boardgames" / "__init__.py").open("a") as f:
        f.write("\n# another build\n")
    cluster = private_cluster(0)
    # (run from elsewhere: `python -m` puts the current directory first on the path)
    cluster.add_worker(env={**os.environ, "PYTHONPATH": str(copy)}, cwd=tmp_path)
    cluster.wait_for_workers(1)
    r = subprocess.run(
        [sys.executable, "-m", "boardgames", "queens", "count", "-n", "10", "--cluster",
         cluster.address],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert r.returncode == 1, r.stdout
    line = r.stderr.strip().splitlines()[-1]
    assert line.startswith("Error: worker tcp://127.0.0.1:") and "has boardgames" in line
    assert "install the same version on every machine" in line
    assert "Traceback" not in r.stderr


def test_a_result_in_hand_stands_when_its_worker_dies(private_cluster) -> None:
    """A job's answer that came back before its worker died is that job's result: the
    future is "lost" again by then, and it once was read as a failure ("job a failed:
    float: 0.0225", the seconds of the answer taken for an exception)."""
    cluster = private_cluster(1)
    with Runner(parse_cluster(cluster.address)) as runner:
        pool = runner.pool(math.comb)
        assert isinstance(pool, DaskJobPool)
        pool.submit("a", 20, 10)
        deadline = time.monotonic() + 60
        while not pool.done.has_ready():  # the answer is here, not yet taken
            assert time.monotonic() < deadline
            time.sleep(0.01)
        future = pool.futures["a"]
        os.kill(cluster.worker_pids()[0], signal.SIGKILL)  # its nanny starts another
        while future.status == "finished":
            assert time.monotonic() < deadline
            time.sleep(0.001)
        status = future.status
        done = pool.wait(10)
        pool.close()
    assert status != "finished"
    assert [(key, result) for key, result, _ in done] == [("a", 184756)]
