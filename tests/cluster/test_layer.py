"""The cluster layer (boardgames.core.cluster): specs, checkpoints, runs in-process and on a
real Dask scheduler with real worker processes."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgames.cli import cli
from boardgames.core.cluster import (
    Checkpoint,
    ClusterError,
    Runner,
    package_version,
    parse_cluster,
)
from boardgames.core.progress import Stopped
from tests.cluster.conftest import DaskCluster

JOB = {"command": "test", "n": 20}
TASKS = [(f"comb-{k}", (20, k)) for k in range(21)]
"""Pure tasks of an importable function (math.comb): the row of Pascal's triangle."""


# --- specs --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "workers"),
    [("local", "local", None), ("local:3", "local", 3), ("tcp://127.0.0.1:8786", "address", None),
     ("tls://scheduler.example:8786", "address", None)],
)  # fmt: skip
def test_good_specs(text: str, kind: str, workers: int | None) -> None:
    spec = parse_cluster(text)
    assert (spec.kind, spec.workers, str(spec)) == (kind, workers, text)


@pytest.mark.parametrize(
    "text",
    ["", "locl", "local:0", "local:257", "local:x", "local:٣", "tcp://host", "tcp://:80",
     "http://host:80", "tcp://host:99999", "no/such/file.json"],
)  # fmt: skip
def test_bad_specs_are_one_line(text: str) -> None:
    with pytest.raises(ClusterError) as e:
        parse_cluster(text)
    assert "\n" not in e.value.message and e.value.exit_code == 2


def test_a_scheduler_file_is_a_spec(tmp_path: Path) -> None:
    f = tmp_path / "scheduler.json"
    f.write_text("{}")
    assert parse_cluster(str(f)).kind == "file"


# --- checkpoints ----------------------------------------------------------------------------


def _fill(path: Path, results: dict[str, int]) -> None:
    c = Checkpoint(path, JOB)
    c.open()
    for k, v in results.items():
        c.add(k, v)
    c.close()


def test_checkpoint_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "c.ckpt"
    _fill(path, {"a": 1, "b": [2, 3]})
    header = json.loads(path.read_text().splitlines()[0])
    assert header == {"boardgames_checkpoint": 1, "job": JOB, "version": package_version()}
    c = Checkpoint(path, JOB)
    assert c.open() == {"a": 1, "b": [2, 3]} and not c.warnings
    c.close()


def test_checkpoint_of_another_job_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "c.ckpt"
    _fill(path, {"a": 1})
    with pytest.raises(ClusterError, match=r"belongs to another job \(n 20, not 21\)") as e:
        Checkpoint(path, {"command": "test", "n": 21}).open()
    assert e.value.exit_code == 2


def test_a_file_that_is_no_checkpoint_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("my notes\n")
    with pytest.raises(ClusterError, match="is not a boardgames checkpoint"):
        Checkpoint(path, JOB).open()


def test_a_truncated_last_record_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "c.ckpt"
    _fill(path, {"a": 1, "b": 2})
    path.write_bytes(path.read_bytes()[:-7])  # killed while writing b
    c = Checkpoint(path, JOB)
    assert c.open() == {"a": 1}
    assert c.warnings == ["the last record was cut short"]
    c.add("b", 2)
    c.close()
    again = Checkpoint(path, JOB)
    assert again.open() == {"a": 1, "b": 2} and not again.warnings
    again.close()


def test_garbage_and_wrong_checksums_are_skipped(tmp_path: Path) -> None:
    path = tmp_path / "c.ckpt"
    _fill(path, {"a": 1, "b": 2, "c": 3})
    lines = path.read_text().splitlines()
    lines[1] = lines[1].replace('"result":1', '"result":7')  # a changed value: CRC fails
    lines[2] = "\x00\x01garbage"
    path.write_text("\n".join(lines) + "\n")
    c = Checkpoint(path, JOB)
    assert c.open() == {"c": 3}
    assert c.warnings == ["line 2 is damaged", "line 3 is damaged"]
    c.close()


def test_two_runs_cannot_share_a_checkpoint(tmp_path: Path) -> None:
    path = tmp_path / "c.ckpt"
    first = Checkpoint(path, JOB)
    first.open()
    with pytest.raises(ClusterError, match="in use by another run"):
        Checkpoint(path, JOB).open()
    first.close()


# --- in-process runs --------------------------------------------------------------------------


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


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--cluster", "local:0"], "local:N (1 to 256 workers)"),
     (["--cluster", "tcp://x"], "tcp://HOST:PORT"),
     (["--cluster", "local", "--jobs", "2"], "not both"),
     (["--checkpoint", ""], "the file name is empty")],
)  # fmt: skip
def test_bad_cluster_options(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["kalah", "match", "--games", "2", *args])
    assert result.exit_code == 2 and message in result.output
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
