"""Helpers that tests in several folders share: :func:`time_limit`, for tests of code that
could hang, and :func:`interrupt` with :func:`check_clean_stop`, for Ctrl-C on a real
``python -m boardgames`` process.

A helper module, not a test module: test files import from here, never from each other
or from a conftest.py (fixtures live there).
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

# --- code that could hang -------------------------------------------------------------------


class Hung(BaseException):
    """Code under test ran past its time (BaseException: click does not catch it)."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Stop hung code with :class:`Hung` after ``seconds`` (SIGALRM, main thread only)."""

    def expire(signum: int, frame: object) -> None:
        raise Hung(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# --- Ctrl-C on a command ----------------------------------------------------------------------

READY_LIMIT = 600.0
"""Seconds to wait for the first progress output (a cold numba cache compiles first)."""
MIN_RUN = 1.0
"""Seconds the command runs at least before it gets SIGINT."""


def patience(seconds: float) -> float:
    """A promise of time (a stop within a second) as a test may hold it on this machine
    now: ``seconds`` on a machine with a core free, times the load per core (the last
    minute's load average over the cores) when it is busier. A kernel polls its stop
    every so much work; a machine running three processes a core gives each a third of
    the time, and a test must pass there too (README: Under load)."""
    load = os.getloadavg()[0] / (os.cpu_count() or 1)
    return seconds * max(1.0, load)


EXIT_LIMIT = 2.0
"""Seconds it may take to exit after SIGINT."""


@dataclass
class Stopped:
    rc: int
    stdout: str
    stderr: str
    seconds: float  # from SIGINT to exit


def command_environment(cache: Path) -> dict[str, str]:
    """This environment with the compiled kernels of the tests (NUMBA_CACHE_DIR), the
    tables in ``cache`` and plain output."""
    env = dict(os.environ)
    env["NUMBA_CACHE_DIR"] = os.environ["NUMBA_CACHE_DIR"]
    env["XDG_CACHE_HOME"] = str(cache)
    env["NO_COLOR"] = "1"
    env["COLUMNS"] = "100"
    return env


def interrupt(args: list[str], ready: str, cache: Path) -> Stopped:
    """Run ``boardgames ARGS`` in ``cache``, wait until ``ready`` is on stderr (and MIN_RUN
    seconds have passed), send SIGINT and wait for the exit."""
    t0 = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "boardgames", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=command_environment(cache),
        cwd=cache,
    )
    try:
        assert proc.stderr is not None
        err = b""
        fd = proc.stderr.fileno()
        while ready.encode() not in err and time.monotonic() - t0 < READY_LIMIT:
            if proc.poll() is not None:
                break
            if select.select([fd], [], [], 0.1)[0]:
                err += os.read(fd, 65536)
        assert ready.encode() in err, f"no {ready!r} on stderr: {err.decode()!r}"
        time.sleep(max(0.0, MIN_RUN - (time.monotonic() - t0)))
        assert proc.poll() is None, "the command ended before it was interrupted"
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        try:
            out, rest = proc.communicate(timeout=EXIT_LIMIT + 10)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running {EXIT_LIMIT + 10} s after SIGINT: {args}")
        seconds = time.monotonic() - sent
        return Stopped(proc.returncode, out.decode(), (err + rest).decode(), seconds)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def check_clean_stop(run: Stopped) -> None:
    """Status 130 within EXIT_LIMIT seconds, no traceback, one "Stopped (Ctrl-C) after"
    line, last."""
    assert run.rc == 130, run
    assert run.seconds <= patience(EXIT_LIMIT), run
    assert "Traceback" not in run.stdout + run.stderr
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert lines[-1].startswith("Stopped (Ctrl-C) after "), lines
    assert sum("Stopped" in line for line in lines) == 1
    assert "Interrupted." not in run.stderr  # the command said it, not the generic handler


def solved_at_once(spec: Any, game: Any) -> bool:
    """True when the game's exact solver (its plugin's ``solver``) values ``game``'s start
    within 0.2 s (Nim's Bouton rule: a job or kernel over before any stop could reach it)."""
    import time

    from boardgames.core.registry import load
    from boardgames.core.search import SearchStopped

    if spec.solver is None:
        return False
    end = time.monotonic() + 0.2
    try:
        load(spec.solver)(game, game.initial_state(), stop=lambda: time.monotonic() > end)
    except SearchStopped:
        return False
    return True
