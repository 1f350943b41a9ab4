"""Shared test settings: colour off and a fixed terminal width for CLI output, and a cache
folder of the session's own, so that no test reads or writes the user's endgame tables.

The cache: ``XDG_CACHE_HOME`` points at a temporary folder for the whole session (and
``BOARDGAMES_CACHE`` is unset), so ``boardgames.cache_dir()`` -- in this process, in the
commands tests start and on the Dask workers they start -- is ``<that folder>/boardgames``.
XDG_CACHE_HOME rather than BOARDGAMES_CACHE: tests that choose a folder of their own by
setting XDG_CACHE_HOME (``monkeypatch.setenv``, or a subprocess's environment) still get
it. numba's compiled kernels stay where they were (``NUMBA_CACHE_DIR``, set here to what
``import boardgames`` would set in the user's environment), so they are compiled once, not
once a session; matplotlib's font cache likewise (``MPLCONFIGDIR``).

This runs when pytest imports this file, before any test module imports ``boardgames``.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings

os.environ.setdefault("NO_COLOR", "1")
# every run the same: hypothesis draws its examples from a seed fixed per test (not a new
# one each run, nor failures replayed from a database of earlier runs), and no example
# has a deadline (a loaded machine is slow, not wrong); HYPOTHESIS_PROFILE=explore draws
# new examples each run, to look for what the fixed ones miss
settings.register_profile("deterministic", derandomize=True, database=None, deadline=None)
settings.register_profile("explore", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))
# no command a test runs starts a background compile (boardgames.core.warmup); the tests
# of that start one on purpose
os.environ["BOARDGAMES_BACKGROUND_WARM"] = "0"
os.environ.setdefault("COLUMNS", "100")
# a command a test starts that dies by a signal (SIGSEGV in a compiled library) prints the
# Python stack of each thread on its stderr, which the failing test's message shows
os.environ.setdefault("PYTHONFAULTHANDLER", "1")


@dataclass(frozen=True)
class UserCaches:
    """The caches of the user's environment (before this file changed it)."""

    boardgames: Path
    """``boardgames.cache_dir()``: endgame tables. No test may touch it."""
    numba: Path
    """numba's compiled kernels: the user's NUMBA_CACHE_DIR, else ``boardgames/numba``."""


_xdg_cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
import boardgames  # noqa: E402  (sets NUMBA_CACHE_DIR from the user's cache folder, if unset)

USER_CACHES = UserCaches(boardgames.cache_dir(), Path(os.environ["NUMBA_CACHE_DIR"]))
os.environ.setdefault("MPLCONFIGDIR", str(_xdg_cache / "matplotlib"))
SESSION_CACHE = Path(tempfile.mkdtemp(prefix="boardgames-tests-"))
"""XDG_CACHE_HOME of the session: ``cache_dir()`` is its ``boardgames`` subfolder."""
os.environ.pop("BOARDGAMES_CACHE", None)
os.environ["XDG_CACHE_HOME"] = str(SESSION_CACHE)


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(SESSION_CACHE, ignore_errors=True)


@pytest.fixture(scope="session")
def user_caches() -> UserCaches:
    """Where the user's caches are (tests/test_session_cache.py checks that tests keep out
    of the tables' one)."""
    return USER_CACHES


def pytest_configure(config: pytest.Config) -> None:
    """``BOARDGAMES_COMPILE_REPORT=FILE``: where the suite's time goes to numba
    (tests/compile_report.py)."""
    # a suite started from a background job (``cmd &`` in a script, nohup) inherits SIGINT
    # ignored, and so would every command the Ctrl-C tests start: a handler here is reset
    # to the default in each child, whose Python then turns Ctrl-C into KeyboardInterrupt
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if os.environ.get("BOARDGAMES_COMPILE_REPORT"):
        from tests import compile_report

        config.pluginmanager.register(compile_report, "compile_report")
