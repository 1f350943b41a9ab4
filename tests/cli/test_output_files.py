"""Output files the user names (issue 34, class 4, for plots): checked before the work,
written whole or not at all, and a failed write is status 1 and one line, never
"written"."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgames.cli import cli
from boardgames.core.files import output_problem, write_atomic

KALAH = ["compare", "kalah", "--pits", "2", "--seeds", "2", "--depth", "2"]
QUEENS = ["compare", "queens", "-n", "5", "--methods", "naive"]


def test_write_atomic_writes_whole_files_with_the_usual_permissions(tmp_path: Path) -> None:
    path = tmp_path / "out.bin"
    write_atomic(path, b"first")
    assert path.read_bytes() == b"first"
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask
    path.chmod(0o640)
    write_atomic(path, b"second")
    assert path.read_bytes() == b"second" and stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.bin"]  # no temporary left


def test_write_atomic_to_a_full_device_raises() -> None:
    with pytest.raises(OSError):
        write_atomic(Path("/dev/full"), b"x" * 100_000)


def test_a_failed_write_leaves_the_old_file_whole(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "out.bin"
    path.write_bytes(b"old")

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError):
        write_atomic(path, b"new")
    assert path.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.bin"]


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda d: d, "is a directory"),
        (lambda d: d / "missing" / "x.png", "does not exist"),
        (lambda d: d / "a-file" / "x.png", "is not a directory"),
    ],
    ids=["folder", "missing-folder", "under-a-file"],
)
def test_output_problems_are_found_before_the_work(tmp_path: Path, make, reason: str) -> None:
    (tmp_path / "a-file").write_text("x")
    assert reason in str(output_problem(make(tmp_path)))
    assert output_problem(tmp_path / "fine.png") is None


def test_a_plot_on_a_full_disk_is_status_1_and_one_line() -> None:
    pytest.importorskip("matplotlib")
    result = CliRunner().invoke(cli, [*KALAH, "--plot", "/dev/full"])
    assert result.exit_code == 1, result.output
    assert "Plot written" not in result.stdout
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines[-1] == "Error: cannot write the plot to /dev/full: No space left on device"


@pytest.mark.parametrize("command", [KALAH, QUEENS], ids=["kalah", "queens"])
def test_a_full_disk_behind_a_png_name_is_status_1(command: list[str], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    link = tmp_path / "full.png"
    link.symlink_to("/dev/full")
    result = CliRunner().invoke(cli, [*command, "--plot", str(link)])
    assert result.exit_code == 1, result.output
    assert "No space left on device" in result.stderr


@pytest.mark.parametrize("command", [KALAH, QUEENS], ids=["kalah", "queens"])
def test_a_plot_path_under_a_file_is_refused_before_the_work(
    command: list[str], tmp_path: Path
) -> None:
    (tmp_path / "a-file").write_text("x")
    result = CliRunner().invoke(cli, [*command, "--plot", str(tmp_path / "a-file" / "x.png")])
    assert result.exit_code == 2
    assert "is not a directory" in result.stderr
    assert "positions visited" not in result.stdout  # nothing was compared


@pytest.mark.parametrize("command", [KALAH, QUEENS], ids=["kalah", "queens"])
def test_a_plot_is_written_whole(command: list[str], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "plot.png"
    result = CliRunner().invoke(cli, [*command, "--plot", str(path)])
    assert result.exit_code == 0, result.output
    assert path.read_bytes().startswith(b"\x89PNG\r\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plot.png"]


@pytest.mark.parametrize("place", ["under-a-file", "a-file"])
def test_a_table_that_cannot_be_cached_is_said_and_not_called_cached(
    tmp_path: Path, place: str
) -> None:
    (tmp_path / "a-file").write_text("x")
    cache = tmp_path / "a-file" / "cache" if place == "under-a-file" else tmp_path / "a-file"
    result = CliRunner().invoke(
        cli,
        ["kalah", "solve", "--pits", "5", "--seeds", "3", "--endgame", "10"],
        env={"BOARDGAMES_CACHE": str(cache)},
    )
    # the value is still given, but a failed write never ends in success
    assert result.exit_code == 1, result.output
    assert "Value for A (to move):" in result.stdout
    assert f"The endgame table could not be saved in {cache} (" in result.stderr
    assert "it serves this run only, and the next run builds it again." in result.stderr
    assert "cached at" not in result.stdout and "not cached (see above)" in result.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["kalah", "dataset", "/sys/boardgames-x.npz", "--positions", "20000"],
        ["kalah", "dataset", "/proc/boardgames-x.npz", "--positions", "50"],
        ["analyse", "nim", "--depth", "1", "--svg", "/sys/boardgames-x.svg"],
        ["play", "nim", "--record", "/sys/boardgames-x.txt"],
    ],
    ids=["dataset-sys", "dataset-proc", "analyse-svg", "play-record"],
)
def test_a_folder_that_cannot_take_files_is_refused_before_the_work(args: list[str]) -> None:
    """Round 4: ``kalah dataset /sys/x.npz`` labelled for a while before it said it could
    not write; a real write in the folder is tried before any work (root ignores
    permission bits, so they are not asked)."""
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert "cannot be written" in result.output and "Labelling" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_writable_folder_is_not_refused(tmp_path: Path) -> None:
    assert output_problem(tmp_path / "x.npz") is None
    assert output_problem(Path("/dev/null")) is None


@pytest.mark.parametrize(
    "args, words",
    [
        (["connect4", "book", "--plies", "1", "--width", "4", "--height", "4", "--out", ""],
         "'--out': the file name is empty; give one"),
        (["connect4", "book", "--plies", "1", "--width", "4", "--height", "4", "--out",
          "/nonexistent-boardgames/x.bin"], "the folder /nonexistent-boardgames does not exist"),
        (["kalah", "dataset", "", "--positions", "5"], "OUTPUT: the file name is empty"),
        (["connect4", "dataset", "", "--width", "4", "--height", "4", "--all"],
         "OUTPUT: the file name is empty"),
        (["kalah", "solve", "--pits", "3", "--seeds", "2", "--checkpoint-dir", ""],
         "'--checkpoint-dir': the folder name is empty; give one"),
        (["kalah", "solve", "--pits", "3", "--seeds", "2", "--checkpoint-dir", "ck",
          "--endgame-dir", ""], "'--endgame-dir': the folder name is empty; give one"),
    ],
    ids=["book-empty", "book-no-folder", "kalah-dataset-empty", "connect4-dataset-empty",
         "checkpoint-dir-empty", "endgame-dir-empty"],
)  # fmt: skip
def test_an_empty_or_impossible_name_is_one_line_before_the_work(
    args: list[str], words: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A teacher's review: ``--out ""`` was a traceback, a missing folder was made behind
    the user's back, and an empty folder name meant the current folder."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert words in result.output and len(result.output.strip().splitlines()) == 1
    assert not Path("/nonexistent-boardgames").exists() and not list(tmp_path.iterdir())
