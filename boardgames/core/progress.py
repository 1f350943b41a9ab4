"""Progress of long work on stderr, and Ctrl-C that stops it cleanly. Game-independent.

:class:`Progress` shows how far a piece of work has got and an estimate of the time left:
a rich bar on a terminal, a plain line every few seconds when stderr is a file or a pipe
(a log, a CI job), and nothing at all for work that ends within its first second.

numba kernels hold the main thread while they run, so Python sees a Ctrl-C only when the
kernel returns. Long jitted work is therefore cut into batches of a fraction of a second
(:class:`BatchSizer`, :func:`run_batches`); :func:`interruptible` turns the
``KeyboardInterrupt`` that arrives between two batches into :class:`Stopped`, whose text
is the one line shown when the command ends with :data:`EXIT_STOPPED`. Commands just let
it rise: the command line's funnel (``boardgames.cli``) prints it and sets the status.

This module imports neither numpy nor numba.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from rich.console import Console
from rich.text import Text

T = TypeVar("T")

EXIT_STOPPED = 130
"""Exit status after Ctrl-C (128 + SIGINT), the shell's convention."""
BATCH_SECONDS = 0.25
"""Target length of one batch of uninterruptible (jitted) work: Ctrl-C is seen this often."""
DAY = 86400.0
BAR_WIDTH = 24


class Stopped(KeyboardInterrupt):
    """Ctrl-C stopped long work. ``str(e)`` is the one line to show, e.g. "Stopped (Ctrl-C)
    after 12 s: 1,234 of 5,000 batches done." A ``KeyboardInterrupt``, so code that
    does not know it still treats it as Ctrl-C."""

    def __init__(self, message: str, done: float | None = None, total: float | None = None):
        super().__init__(message)
        self.message = message
        self.done = done
        self.total = total

    def __str__(self) -> str:
        return self.message


def format_duration(seconds: float) -> str:
    """A short human duration: ``0.4 s``, ``12 s``, ``3 min 5 s``, ``2 h 10 min``,
    ``3.5 days``, ``1.4 years``, ``12 years``, ``1.2e+09 years``."""
    if not math.isfinite(seconds):
        return "for ever"
    s = max(0.0, seconds)
    if s < 10:
        return f"{s:.1f} s"
    if s < 60:
        return f"{s:.0f} s"
    if s < 3600:
        m, r = divmod(round(s), 60)
        return f"{m} min {r} s" if r else f"{m} min"
    if s < DAY:
        h, r = divmod(round(s / 60), 60)
        return f"{h} h {r} min" if r else f"{h} h"
    days = s / DAY
    if days < 365:
        return f"{days:.1f} days"
    years = days / 365.25
    if years < 10:
        return f"{years:.1f} years"
    return f"{years:,.0f} years" if years < 1e6 else f"{years:.1e} years"


def format_count(x: float) -> str:
    """An integer with thousands separators; beyond 10**15, the form ``1.2e+21``."""
    return f"{x:,.0f}" if abs(x) < 1e15 else f"{x:.1e}"


def percent(fraction: float) -> str:
    """``12.5%``; below 1% two decimals (``0.04%``), so that slow work is seen to move."""
    p = 100 * fraction
    return f"{p:.2f}%" if 0 < p < 1 else f"{p:.1f}%"


def format_bytes(n: float) -> str:
    """Bytes in decimal units: ``512 bytes``, ``3.4 MB``, ``2.7 GB``."""
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n:.0f} bytes"


class Progress:
    """Progress of one piece of work on stderr, with an estimate of the time left.

    On a terminal: a rich bar (label, bar, percentage, counts, elapsed time, time left),
    erased when the work ends. Otherwise a plain line such as ``N = 20, parallel: 12.5%
    (4,878,648,610 of 39,029,188,884 solutions), 1 min 5 s elapsed, about 7 min 35 s
    left`` every ``every`` seconds. Nothing is shown before ``delay`` seconds, so quick
    work stays quiet. ``total`` None: only the counts and the elapsed time.

    The time left is linear in the work done since the start; before any work is done it
    is ``estimate`` (seconds for the whole work) minus the time spent, if given, and the
    two are weighed by the share of the work done when both are known; work that
    outruns its total or its estimate says "longer than estimated". When the time left
    passes ``warn_after`` seconds (a day), a note says so, once.
    Use it as a context manager; :meth:`update` from the working (main) thread.
    """

    def __init__(
        self,
        label: str,
        total: float | None = None,
        unit: str = "",
        *,
        console: Console | None = None,
        delay: float = 1.0,
        every: float = 5.0,
        estimate: float | None = None,
        enabled: bool = True,
        warn_after: float | None = DAY,
    ) -> None:
        self.label = label
        self.total = total
        self.unit = unit
        self.console = console if console is not None else Console(stderr=True, highlight=False)
        self.delay = delay
        self.every = every
        self.estimate = estimate
        self.enabled = enabled
        self.warn_after = warn_after
        self._warned = False
        self.done: float = 0.0
        self.detail = ""
        self.t0 = time.perf_counter()
        self._done0 = 0.0
        self._live: object | None = None
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    # --- the working thread's side -----------------------------------------------------

    def __enter__(self) -> Progress:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        """Start the clock (and the thread that draws, once ``delay`` has passed)."""
        self.t0 = time.perf_counter()
        self._done0 = self.done
        if self.enabled and self._thread is None:
            self._thread = threading.Thread(target=self._tick, name="progress", daemon=True)
            self._thread.start()

    def update(self, done: float, total: float | None = None, detail: str | None = None) -> None:
        """Record the work done so far (and the total or a detail, when they change)."""
        self.done = done
        if total is not None:
            self.total = total
        if detail is not None:
            self.detail = detail

    def note(self, text: str) -> None:
        """One line on stderr now (above the bar, if one is shown)."""
        with self._lock:
            self.console.print(Text(text), soft_wrap=True)

    def stop(self) -> None:
        """Stop drawing; a terminal bar is erased."""
        self._wake.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        with self._lock:
            if self._live is not None:
                self._live.stop()  # type: ignore[attr-defined]
                self._live = None

    # --- what is shown -------------------------------------------------------------------

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.t0

    def fraction(self) -> float | None:
        """Work done as a fraction of the total (None without a total)."""
        if not self.total:
            return None
        return max(0.0, min(1.0, self.done / self.total))

    def seconds_left(self) -> float | None:
        """The estimate of the time left, None when there is nothing to base it on.

        Linear in the work done; with an up-front ``estimate`` as well, the two are
        weighed by the share of the work done: the first percent of a table build whose
        levels grow (1,339 of 225 M positions in its first second) would say two days on
        its own, where the up-front estimate says about a minute."""
        elapsed = self.elapsed
        progressed = self.done - self._done0
        given = None if self.estimate is None else max(0.0, self.estimate - elapsed)
        if self.total and progressed > 0 and elapsed > 0.2:
            linear = max(0.0, self.total - self.done) * elapsed / progressed
            if given is None:
                return linear
            share = progressed / max(self.total - self._done0, progressed)  # at most 1
            return share * linear + (1.0 - share) * given
        return given

    def _outgrown(self) -> bool:
        """True when the work done passed its total (an estimate that was too low)."""
        return bool(self.total) and self.done > (self.total or 0)

    def _counts(self) -> str:
        def unit(count: float) -> str:
            return f" {counted(count, self.unit)}" if self.unit else ""

        if self._outgrown():  # no "100% (24 M of 13 M)": the total was an estimate
            estimated = format_count(self.total or 0)
            return (
                f"{format_count(self.done)}{unit(self.done)}, more than the {estimated} estimated"
            )
        if self.total:
            return f"{format_count(self.done)} of {format_count(self.total)}{unit(self.total)}"
        return f"{format_count(self.done)}{unit(self.done)}"

    def _left(self) -> str:
        overrun = (self.total and self.done > self.total) or (
            self.estimate is not None and self.done <= self._done0 and self.elapsed > self.estimate
        )
        if overrun:  # an estimate, not a promise
            return "longer than estimated"
        left = self.seconds_left()
        return "" if left is None else f"about {format_duration(left)} left"

    def line(self) -> str:
        """The plain progress line."""
        parts = [f"{self.label}:"]
        frac = None if self._outgrown() else self.fraction()
        if frac is not None:
            parts.append(f"{percent(frac)} ({self._counts()}),")
        elif self.done or self.unit:
            parts.append(f"{self._counts()},")
        parts.append(f"{format_duration(self.elapsed)} elapsed")
        text = " ".join(parts)
        left = self._left()
        if left:
            text += f", {left}"
        if self.detail:
            text += f"; {self.detail}"
        return text

    def _render(self) -> Text:
        """The terminal line: label, bar, percentage, counts, elapsed, time left, detail;
        one line, cut to the terminal's width."""
        frac = None if self._outgrown() else self.fraction()
        text = Text(self.label + " ", no_wrap=True, overflow="ellipsis", end="")
        if frac is None:
            text.append("… ")
        else:
            filled = round(BAR_WIDTH * frac)
            text.append("━" * filled, style="magenta")
            text.append("━" * (BAR_WIDTH - filled), style="grey37")
            text.append(f" {percent(frac):>6}  ")
        text.append(format_duration(self.elapsed), style="dim")
        left = self._left()
        if left:
            text.append(f"  {left}")
        if self.done or self.unit:  # the counts last: a narrow terminal cuts them first
            text.append(f"  ({self._counts()})", style="dim")
        if self.detail:
            text.append(f"  {self.detail}", style="dim")
        return text

    def _tick(self) -> None:
        """The drawing thread: after ``delay``, a live bar on a terminal, else a plain line
        every ``every`` seconds; once the estimate is known, a note if it passes
        ``warn_after``."""
        if self._wake.wait(self.delay):
            return
        next_line = 0.0
        while True:
            with self._lock:
                if self._wake.is_set():
                    return
                if self.console.is_terminal:
                    if self._live is None:
                        self._start_live()
                elif self.elapsed >= next_line:
                    self.console.print(Text(self.line()), soft_wrap=True)
                    next_line = self.elapsed + self.every
                self._warn()
            if self._wake.wait(0.25):
                return

    def _start_live(self) -> None:
        from rich.live import Live

        owner = self

        class _View:
            def __rich__(self) -> Text:
                return owner._render()

        self._live = Live(_View(), console=self.console, transient=True, refresh_per_second=4)
        self._live.start()

    def _warn(self) -> None:
        """Say once that the work will take more than ``warn_after`` seconds, as soon as
        the estimate rests on a few seconds of work (or was given up front)."""
        if self._warned or self.warn_after is None:
            return
        if self.done <= self._done0 and self.estimate is None:
            return
        if self.elapsed < 3 and self.estimate is None:
            return
        left = self.seconds_left()
        if left is not None and left > self.warn_after:
            self._warned = True
            limit = "a day" if self.warn_after == DAY else format_duration(self.warn_after)
            self.console.print(
                Text(
                    f"{self.label}: about {format_duration(left)} left at this rate, more "
                    f"than {limit}; Ctrl-C stops."
                ),
                soft_wrap=True,
            )


class BatchSizer:
    """Sizes of consecutive batches so that each takes about ``target`` seconds.

    Starts at ``first`` items, then follows the measured time per item, growing at most
    ``growth`` times from one batch to the next (so that a run of bigger items met after
    cheap ones cannot make one batch much longer than the target) and never below
    ``minimum`` (e.g. one item per thread).
    """

    def __init__(
        self, target: float = BATCH_SECONDS, first: int = 1, minimum: int = 1, growth: float = 4.0
    ) -> None:
        self.target = target
        self.minimum = max(1, minimum)
        self.size = max(self.minimum, first)
        self.growth = growth

    def record(self, items: int, seconds: float) -> None:
        """The batch just done held ``items`` and took ``seconds``; size the next one."""
        if items <= 0:
            return
        per_item = max(seconds / items, 1e-9)
        want = int(self.target / per_item)
        self.size = max(self.minimum, min(int(self.growth * max(items, 1)), want))


def run_batches(
    total: int,
    work: Callable[[int, int], object],
    sizer: BatchSizer | None = None,
    done: Callable[[int, int], None] | None = None,
) -> int:
    """Call ``work(lo, hi)`` on consecutive ranges covering ``0..total-1``, each sized by
    ``sizer`` to take about :data:`BATCH_SECONDS`; ``done(hi, total)`` after each. A
    Ctrl-C during a batch is raised when it returns, so it stops the run within about
    a batch. Returns the number of batches."""
    sizer = sizer or BatchSizer()
    lo = batches = 0
    while lo < total:
        hi = min(total, lo + sizer.size)
        t = time.perf_counter()
        work(lo, hi)
        sizer.record(hi - lo, time.perf_counter() - t)
        lo = hi
        batches += 1
        if done is not None:
            done(lo, total)
    return batches


@contextmanager
def interruptible(message: Callable[[], str]) -> Iterator[None]:
    """Turn a Ctrl-C (``KeyboardInterrupt``) inside the block into :class:`Stopped`
    with the text ``message()`` (which says how far the work got)."""
    try:
        yield
    except Stopped:
        raise
    except KeyboardInterrupt:
        raise Stopped(message()) from None


def stopped_message(
    elapsed: float,
    done: float | None = None,
    total: float | None = None,
    unit: str = "",
    extra: str = "",
) -> str:
    """``Stopped (Ctrl-C) after 12 s: 1,234 of 5,000 batches done{extra}.``"""
    text = f"Stopped (Ctrl-C) after {format_duration(elapsed)}"
    if done is None:
        return text + f"{extra}."
    what = f"{format_count(done)} of {format_count(total)}" if total else format_count(done)
    said = counted(total if total else done, unit)
    return f"{text}: {what}{' ' + said if said else ''} done{extra}."


def counted(count: float, unit: str) -> str:
    """``unit`` (a plural: ``positions``, ``batches``) for ``count`` of them: the singular
    for exactly 1 ("1 position", "1 batch")."""
    if count != 1 or not unit.endswith("s"):
        return unit
    if unit.endswith(("ches", "shes", "sses", "xes")):
        return unit[:-2]
    return unit[:-1]


def run_in_thread(
    work: Callable[[], T],
    *,
    stop: Callable[[], None],
    tick: Callable[[], None] | None = None,
    stop_wait: float | None = None,
    every: float = 0.1,
) -> T:
    """``work()`` in a worker thread, so that this (the main) thread stays free to show
    progress (``tick`` every ``every`` seconds) and to see Ctrl-C, which long jitted work
    would hold off. On Ctrl-C (or anything ``tick`` raises), ``stop()`` asks the work to
    end, the worker is waited for (at most ``stop_wait`` seconds; None: until it ends) and
    the exception goes on. What ``work`` raises is raised here."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["result"] = work()
        except BaseException as e:  # handed to the caller
            box["error"] = e

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            thread.join(every)
            if tick is not None:
                tick()
    except BaseException:
        stop()
        thread.join(stop_wait)
        raise
    if "error" in box:
        raise box["error"]
    result: T = box["result"]
    return result
