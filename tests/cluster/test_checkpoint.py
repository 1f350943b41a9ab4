"""Checkpoints (core/cluster/checkpoint.py): a run's finished tasks in a file, read back
whole or not at all, record by record; the file that is not one, or another job's, is
refused in one line."""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgames.cli import cli
from boardgames.core.cluster import Checkpoint, ClusterError, package_version

JOB = {"command": "test", "n": 20}


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


# --- records written elsewhere, damaged, of other tasks -----------------------------------


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


# --- on the command line ------------------------------------------------------------------


def test_checkpoint_option_on_the_command_line(tmp_path: Path) -> None:
    runner = CliRunner()
    empty = runner.invoke(cli, ["queens", "count", "-n", "6", "--checkpoint", " "])
    assert empty.exit_code == 2
    assert "'--checkpoint': the file name is empty; give one, e.g. count.ckpt (" in empty.output
    path = tmp_path / "six.ckpt"
    first = runner.invoke(cli, ["queens", "count", "-n", "6", "--checkpoint", str(path)])
    assert first.exit_code == 0 and path.is_file()
