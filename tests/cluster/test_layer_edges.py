"""The cluster layer's in-process parts at their edges (issue 22, mutation testing of
core/cluster.py): what ``--cluster`` accepts, what a checkpoint file may hold, and which
task functions a run takes. No scheduler is started here."""

from __future__ import annotations

import json
import math
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgames.cli import cli
from boardgames.core.cluster import Checkpoint, ClusterError, Runner, package_version, parse_cluster

JOB = {"command": "test", "n": 20}
TASKS = [(f"comb-{k}", (20, k)) for k in range(5)]


# --- --cluster -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "workers"), [("local:1", 1), ("local:256", 256), (" local:7 ", 7)]
)
def test_local_worker_counts_at_their_bounds(text: str, workers: int) -> None:
    spec = parse_cluster(text)
    assert (spec.kind, spec.workers, spec.text) == ("local", workers, text.strip())


@pytest.mark.parametrize(
    "text",
    ["tcp://h:1", "tcp://h:65535", "tls://10.0.0.1:8786", "tcp://[::1]:8786", "tcp://a:b:8786"],
)
def test_addresses_at_their_bounds(text: str) -> None:
    """Ports 1 to 65535; the port is what follows the last colon (IPv6 hosts)."""
    spec = parse_cluster(text)
    assert (spec.kind, spec.target, spec.workers) == ("address", text, None)


@pytest.mark.parametrize("text", ["tcp://h:0", "tcp://h:65536", "tcp://h:", "udp://h:80"])
def test_addresses_past_their_bounds(text: str) -> None:
    with pytest.raises(ClusterError, match=r"^bad --cluster .*tcp://HOST:PORT"):
        parse_cluster(text)


def test_a_scheduler_file_is_its_own_target(tmp_path: Path) -> None:
    f = tmp_path / "sched"
    f.write_text("{}")
    spec = parse_cluster(str(f))
    assert (spec.kind, spec.target, spec.text) == ("file", str(f), str(f))


@pytest.mark.parametrize(
    ("text", "message"),
    [("sched.json", "no such scheduler file"), ("dir/sched", "no such scheduler file"),
     ("sched", "bad --cluster 'sched': use local"), ("", "bad --cluster '': use local")],
)  # fmt: skip
def test_what_looks_like_a_file_is_named_as_one(text: str, message: str) -> None:
    with pytest.raises(ClusterError) as e:
        parse_cluster(text)
    assert message in e.value.message


def test_cluster_option_on_the_command_line() -> None:
    """A blank --cluster counts as none (the count runs here); a bad one is a usage
    error naming what is allowed, without repeating the option's name."""
    runner = CliRunner()
    blank = runner.invoke(cli, ["queens", "count", "-n", "6", "--cluster", "  "])
    assert blank.exit_code == 0 and "4" in blank.output
    bad = runner.invoke(cli, ["queens", "count", "-n", "6", "--cluster", "nowhere"])
    assert bad.exit_code == 2
    assert "'nowhere': use local, local:N" in bad.output and "bad --cluster" not in bad.output


def test_checkpoint_option_on_the_command_line(tmp_path: Path) -> None:
    runner = CliRunner()
    empty = runner.invoke(cli, ["queens", "count", "-n", "6", "--checkpoint", " "])
    assert empty.exit_code == 2
    assert "'--checkpoint': the file name is empty; give one, e.g. count.ckpt (" in empty.output
    path = tmp_path / "six.ckpt"
    first = runner.invoke(cli, ["queens", "count", "-n", "6", "--checkpoint", str(path)])
    assert first.exit_code == 0 and path.is_file()


# --- checkpoint files --------------------------------------------------------------------------


def _header(job: object = JOB) -> str:
    return json.dumps({"boardgames_checkpoint": 1, "version": package_version(), "job": job})


def _record(key: str, result: object) -> str:
    crc = zlib.crc32(json.dumps([key, result], sort_keys=True, separators=(",", ":")).encode())
    return json.dumps({"task": key, "result": result, "crc": crc})


def _open(path: Path, keys: list[str] | None = None) -> Checkpoint:
    c = Checkpoint(path, JOB)
    c.open(keys)
    return c


def test_a_record_written_elsewhere_is_read(tmp_path: Path) -> None:
    """The record format is fixed: the CRC-32 of ``[key, result]`` as compact JSON with
    sorted keys, whatever order the result's keys are written in."""
    path = tmp_path / "c.ckpt"
    result = {"y": 1, "x": [1, 2]}
    path.write_text(_header() + "\n" + _record("a", result) + "\n")
    c = _open(path)
    assert c.done == {"a": result} and not c.warnings
    c.close()


def test_records_of_other_tasks_and_blank_lines_are_skipped(tmp_path: Path) -> None:
    """Each skipped line is reported and the lines after it are still read."""
    path = tmp_path / "c.ckpt"
    lines = [_header(), _record("zz", 1), "", _record("a", 2), _record("b", 3)]
    path.write_text("\n".join(lines) + "\n")
    c = _open(path, ["a", "b"])
    assert c.done == {"a": 2, "b": 3}
    assert c.warnings == ["line 2 names task 'zz', not one of this job's"]
    c.close()
    every = _open(path)  # no keys given: every record counts
    assert every.done == {"zz": 1, "a": 2, "b": 3}
    every.close()


def test_a_task_twice_with_one_result_is_fine_with_two_it_is_damage(tmp_path: Path) -> None:
    path = tmp_path / "c.ckpt"
    path.write_text("\n".join([_header(), _record("a", 2), _record("a", 2)]) + "\n")
    c = _open(path)
    assert c.done == {"a": 2}
    c.close()
    path.write_text("\n".join([_header(), _record("a", 2), _record("a", 5)]) + "\n")
    with pytest.raises(ClusterError, match="two different results for task 'a'") as e:
        _open(path)
    assert e.value.exit_code == 1  # damage, not a bad command line


@pytest.mark.parametrize(
    "line",
    ['{"task": "a", "result": 2, "crc": 0}', "5", "[1, 2]", "null",
     '{"task": "a", "result": 2, "crc": CRC, "extra": 1}', '{"task": 7, "result": 2, "crc": 0}'],
)  # fmt: skip
def test_records_of_the_wrong_shape_are_damaged(tmp_path: Path, line: str) -> None:
    path = tmp_path / "c.ckpt"
    crc = json.loads(_record("a", 2))["crc"]
    path.write_text(_header() + "\n" + line.replace("CRC", str(crc)) + "\n")
    c = _open(path)
    assert c.done == {} and c.warnings == ["line 2 is damaged"]
    c.close()


@pytest.mark.parametrize(
    "first", ["[1, 2]", '{"other": 1}', '{"boardgames_checkpoint": 2}', "not json", '"text"']
)
def test_a_first_line_that_is_no_header_is_refused(tmp_path: Path, first: str) -> None:
    path = tmp_path / "c.ckpt"
    path.write_text(first + "\n")
    with pytest.raises(ClusterError, match="is not a boardgames checkpoint") as e:
        _open(path)
    assert e.value.exit_code == 2


@pytest.mark.parametrize(
    ("job", "diff"),
    [("text", "no command; no n"), ({"command": "test"}, "no n"),
     ({"command": "other", "n": 20}, "command other, not test")],
)  # fmt: skip
def test_a_header_of_another_job_names_the_difference(
    tmp_path: Path, job: object, diff: str
) -> None:
    path = tmp_path / "c.ckpt"
    path.write_text(_header(job) + "\n")
    with pytest.raises(ClusterError) as e:
        _open(path)
    assert f"belongs to another job ({diff})" in e.value.message


def test_a_file_of_blank_lines_becomes_a_new_checkpoint(tmp_path: Path) -> None:
    path = tmp_path / "c.ckpt"
    path.write_text("\n\n  \n")
    c = _open(path)
    c.add("a", 1)
    c.close()
    assert json.loads(path.read_text().splitlines()[0])["job"] == JOB
    again = _open(path)
    assert again.done == {"a": 1} and not again.warnings
    again.close()


def test_records_synced_to_the_disk_as_they_come_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With every record synced to the disk (no delay between syncs), each record is
    still written whole and read back."""
    from boardgames.core.cluster import checkpoint

    monkeypatch.setattr(checkpoint, "FSYNC_SECONDS", 0.0)
    c = _open(tmp_path / "c.ckpt")
    for k in range(3):
        c.add(f"t{k}", k)
    c.close()
    again = _open(tmp_path / "c.ckpt")
    assert again.done == {"t0": 0, "t1": 1, "t2": 2} and not again.warnings
    again.close()


def test_added_results_count_at_once_and_closing_twice_is_harmless(tmp_path: Path) -> None:
    c = Checkpoint(tmp_path / "c.ckpt", JOB)
    c.close()  # never opened
    c.open()
    c.add("a", [1, 2])
    assert c.done == {"a": [1, 2]}
    c.close()
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
        runner.run(fn, TASKS, label="t")  # type: ignore[arg-type]


def test_a_builtin_task_function_runs() -> None:
    with Runner(None) as runner:
        report = runner.run(math.comb, TASKS, label="t")
    assert [report.results[k] for k, _ in TASKS] == [math.comb(20, k) for k in range(5)]
