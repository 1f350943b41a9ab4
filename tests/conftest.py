"""Shared test settings: colour off and a fixed terminal width for CLI output; and
:func:`time_limit`, for tests of code that could hang."""

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager

os.environ.setdefault("NO_COLOR", "1")
os.environ.setdefault("COLUMNS", "100")
# tests that choose a cache folder set XDG_CACHE_HOME; a BOARDGAMES_CACHE of the user's
# would take precedence and send their tables there
os.environ.pop("BOARDGAMES_CACHE", None)


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
