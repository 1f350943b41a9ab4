"""`connect4 solve -` streams: each answer as soon as its line is solved, in bounded memory,
whatever bytes come, and what was solved is written when Ctrl-C stops it (issue 50)."""

from __future__ import annotations

import json
import os
import resource
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

import pytest
from click.testing import CliRunner

from boardgames.cli import cli

COMMAND = [sys.executable, "-m", "boardgames", "connect4", "solve", "-"]
DATA = Path(__file__).parent / "data"


def start(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [*COMMAND, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )


def read_until(stream: IO[bytes], text: bytes, seconds: float) -> bytes:
    """What ``stream`` gives until ``text`` is in it, or an assertion after ``seconds``."""
    got = b""
    fd = stream.fileno()
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        deadline = time.monotonic() + seconds
        while text not in got:
            left = deadline - time.monotonic()
            assert left > 0 and sel.select(left), f"no {text!r} within {seconds} s: {got!r}"
            chunk = os.read(fd, 65536)
            assert chunk, f"the output ended before {text!r}: {got!r}"
            got += chunk
    return got


def test_each_answer_comes_while_the_input_is_still_open() -> None:
    """A program that writes one position and waits gets its answer (before: nothing
    until the input ended)."""
    p = start()
    assert p.stdin is not None and p.stdout is not None
    try:
        for position, answer in (("1212121", b"1212121 -18\n"), ("112233", b"112233 18\n")):
            p.stdin.write(f"{position}\n".encode())
            p.stdin.flush()
            assert read_until(p.stdout, answer, 30).endswith(answer)
    finally:
        p.stdin.close()
        p.wait(30)
    assert p.returncode == 0


def test_ctrl_c_writes_what_was_solved_also_as_json() -> None:
    """Stopped in the middle, ``--json`` is still one whole JSON object with the positions
    solved before the stop (before: nothing at all)."""
    p = start("--json")
    assert p.stdin is not None and p.stdout is not None
    p.stdin.write(b"112233\n")
    p.stdin.flush()
    first = read_until(p.stdout, b'"112233"', 30)
    p.stdin.write(b"4\n")  # minutes of work
    p.stdin.flush()
    time.sleep(0.5)
    p.send_signal(signal.SIGINT)
    rest, err = p.communicate(timeout=30)
    assert p.returncode == 130, err
    data = json.loads(first + rest)
    assert data["positions"] == [{"position": "112233", "score": 18}]
    assert data["stopped"] is True
    assert err.decode().strip().splitlines()[-1].startswith("Stopped (Ctrl-C) after ")
    assert b"Traceback" not in err


def _limit_address_space(gib: int) -> None:
    limit = gib * 2**30
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def test_dev_zero_is_one_error_line_in_bounded_memory() -> None:
    """Input that never ends a line is one error, under a 3 GiB address-space limit
    (before: read until memory ran out, then a MemoryError traceback)."""
    with open("/dev/zero", "rb") as zero:
        r = subprocess.run(
            COMMAND,
            stdin=zero,
            capture_output=True,
            timeout=60,
            preexec_fn=lambda: _limit_address_space(3),
        )
    err = r.stderr.decode()
    assert r.returncode == 1, err
    assert r.stdout == b""
    assert err.strip().splitlines() == [
        "Error: line 1: no line end in its first 1 MiB: input that never ends a line (a "
        "device?); the rest is not read"
    ]


def test_an_enormous_line_is_one_error_and_the_next_lines_are_solved() -> None:
    r = CliRunner().invoke(cli, ["connect4", "solve", "-"], input="4" * 200_000 + "\n112233\n")
    assert r.exit_code == 1
    assert r.stdout == "112233 18\n"
    assert r.stderr.strip().splitlines() == [
        "Error: line 1: 200,000 characters: too long for a position (at most 64)"
    ]


@pytest.mark.parametrize(
    ("env", "data"),
    [
        ({"PYTHONIOENCODING": "ascii"}, "é\n112233\n".encode()),
        ({"PYTHONIOENCODING": "utf-8"}, b"\xff\n112233\n"),
        ({"PYTHONIOENCODING": "utf-8"}, b"\xff12\n112233\n"),
    ],
    ids=["e-acute-under-ascii", "ff-under-utf8", "ff-in-a-position"],
)
def test_undecodable_bytes_are_an_error_line_naming_where(env: dict[str, str], data: bytes) -> None:
    r = subprocess.run(COMMAND, input=data, capture_output=True, env={**os.environ, **env})
    err = r.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err
    assert r.returncode == 1, err
    assert r.stdout == b"112233 18\n"
    assert err.strip().splitlines()[0].startswith("Error: line 1: character 1 of ")


def test_hash_is_checked_against_the_address_space_limit() -> None:
    """Under a 3 GiB address-space limit ``--hash 8000`` is refused, naming the largest
    table that fits (before: a MemoryError traceback)."""
    r = subprocess.run(
        [sys.executable, "-m", "boardgames", "connect4", "solve", "1", "--hash", "8000"],
        capture_output=True,
        timeout=60,
        preexec_fn=lambda: _limit_address_space(3),
    )
    err = r.stderr.decode()
    assert r.returncode == 2, err
    assert "address-space limit" in err
    assert "the largest table that fits is --hash 1024" in err
    assert len(err.strip().splitlines()) == 1


def test_hash_is_checked_against_the_available_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    from boardgames.connect4 import cli as c4

    monkeypatch.setattr(c4, "_available_memory", lambda: 3 * 2**30)
    monkeypatch.setattr(c4, "_address_space_left", lambda: None)
    r = CliRunner().invoke(cli, ["connect4", "solve", "1", "--hash", "2048"])
    assert r.exit_code == 2
    assert "half of the memory available now (3.0 GiB)" in r.output
    assert "the largest table that fits is --hash 1024" in r.output


FINISHED = ["1212121", "2121212", "1122334", "4455667"] * 250
"""Finished games: answered without the solver (the reading and writing alone)."""


def _peak_rss(lines: int, finished: bool = False) -> tuple[float, int]:
    """Peak memory (MiB) of ``solve -`` over ``lines`` lines of Pons' end-game positions
    (or of finished games) written as it reads, and the answers it wrote."""
    positions = (
        FINISHED
        if finished
        else [row.split()[0] for row in (DATA / "Test_L3_R1").read_text().splitlines()]
    )
    p = subprocess.Popen(COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert p.stdin is not None and p.stdout is not None
    import threading

    def feed() -> None:
        assert p.stdin is not None
        for k in range(0, lines, 1000):
            n = min(1000, lines - k)
            p.stdin.write("".join(f"{positions[(k + i) % 1000]}\n" for i in range(n)).encode())
        p.stdin.close()

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    answers = sum(1 for _ in p.stdout)
    _, _, usage = os.wait4(p.pid, 0)
    p.returncode = 0
    writer.join()
    return usage.ru_maxrss / 1024, answers


def test_memory_does_not_grow_with_the_input() -> None:
    """500 and 5,000 lines of finished games: the same memory within a few MiB (the short
    version of the slow test and of benchmarks/connect4_stream.py)."""
    small, n_small = _peak_rss(500, finished=True)
    big, n_big = _peak_rss(5_000, finished=True)
    assert (n_small, n_big) == (500, 5_000)
    assert big < small + 16, (small, big)


@pytest.mark.slow
def test_memory_is_constant_over_a_million_lines() -> None:
    small, _ = _peak_rss(10_000)
    big, answers = _peak_rss(1_000_000)
    print(f"peak memory: {small:.0f} MiB at 10,000 lines, {big:.0f} MiB at 1,000,000")
    assert answers == 1_000_000
    assert big < small + 16, (small, big)
