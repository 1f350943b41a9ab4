"""Endless reads and oversized allocations (issue 34, classes 2 and 9).

A checkpoint must be a regular file (a device or a pipe is refused before anything is
read); an answer on standard input is read to at most a bounded length and input that
never ends a line is the end of input; a transposition table bigger than the memory can
hold is refused before it is allocated. The children run under an address-space limit
(``resource.setrlimit`` in the child only), so a regression fails instead of filling the
machine's memory.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgames.cli import cli
from boardgames.kalah.exact import sizing

MEMORY_LIMIT = 3 * 2**30
"""Address space of a child: numba and numpy fit, reading a device into memory does not."""


def limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_limited(args: list[str], stdin: str = "/dev/null") -> subprocess.CompletedProcess[str]:
    with open(stdin, "rb") as source:
        return subprocess.run(
            [sys.executable, "-m", "boardgames", *args],
            stdin=source,
            capture_output=True,
            text=True,
            env={**os.environ, "NO_COLOR": "1", "COLUMNS": "100"},
            preexec_fn=limited,
            timeout=120,
        )


@pytest.fixture(scope="module")
def fifo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("fifo") / "pipe"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("where", ["/dev/full", "/dev/zero", "/dev/null", "folder", "fifo"])
@pytest.mark.parametrize(
    "command",
    [
        ["queens", "count", "-n", "8"],
        ["queens", "count", "-n", "8", "--tasks", "4"],
        ["kalah", "match", "--games", "2", "--jobs", "1", "--a", "depth=1", "--b", "depth=1"],
    ],
    ids=["queens", "queens-tasks", "match"],
)
def test_a_checkpoint_that_is_not_a_regular_file_is_refused(
    command: list[str], where: str, tmp_path: Path, fifo: Path
) -> None:
    path = {"folder": str(tmp_path), "fifo": str(fifo)}.get(where, where)
    result = CliRunner().invoke(cli, [*command, "--checkpoint", path])
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    # said before any work (no "Loading the kernels" line first), and only that
    assert len(lines) == 1, lines
    assert lines[0].startswith(
        f"Error: Invalid value for '--checkpoint': {path} is not a regular file (a device, "
        "a folder or a pipe); give the name of a file"
    )


@pytest.mark.parametrize(
    "args",
    [
        ["nim", "play"],
        ["nim", "play", "--misere"],
        ["kalah", "play", "--a", "human", "--b", "human", "--record", "{record}"],
    ],
    ids=["nim", "nim-misere", "kalah"],
)
def test_endless_input_without_a_line_end_is_the_end_of_input(
    args: list[str], tmp_path: Path
) -> None:
    record = tmp_path / "rec.klh"
    done = run_limited([a.replace("{record}", str(record)) for a in args], stdin="/dev/zero")
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr, done.stderr
    assert done.returncode in (0, 130), done.stderr
    if "kalah" in args:
        assert record.read_text(encoding="utf-8").startswith("Rules : classic")


def test_a_transposition_table_beyond_the_memory_is_refused_before_it_is_made() -> None:
    too_big = sizing.available_memory() // 2**20  # all of it: more than half
    done = run_limited(["kalah", "solve", "--pits", "2", "--seeds", "1", "--hash", str(too_big)])
    assert done.returncode == 2, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "is more than half the memory available" in lines[0]
    assert "give at most --hash" in lines[0]


def test_a_table_that_fits_is_accepted() -> None:
    fits = run_limited(["kalah", "solve", "--pits", "2", "--seeds", "1", "--hash", "64"])
    assert fits.returncode == 0, fits.stderr
