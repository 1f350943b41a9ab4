"""The shared progress reporter, batch sizing and the Ctrl-C helpers of core/progress.py."""

from __future__ import annotations

import io
import itertools
import time

import pytest
from rich.console import Console

from boardgames.core.progress import (
    EXIT_STOPPED,
    BatchSizer,
    Progress,
    Stopped,
    counted,
    format_bytes,
    format_count,
    format_duration,
    interruptible,
    percent,
    run_batches,
    stopped_message,
)


def plain_console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, force_terminal=False, width=60, highlight=False), buf


def test_durations_counts_bytes_and_percentages() -> None:
    assert format_duration(0.42) == "0.4 s"
    assert format_duration(42) == "42 s"
    assert format_duration(185) == "3 min 5 s"
    assert format_duration(7800) == "2 h 10 min"
    assert format_duration(3 * 86400) == "3.0 days"
    assert format_duration(40 * 365.25 * 86400) == "40 years"
    assert format_duration(1.06 * 365.25 * 86400) == "1.1 years"  # never "1 years"
    assert format_duration(3e20) == "9.5e+12 years"
    assert format_duration(float("inf")) == "for ever"
    assert format_count(39029188884) == "39,029,188,884"
    assert format_count(2.6e22) == "2.6e+22"
    assert format_bytes(225_792_840) == "225.8 MB" and format_bytes(512) == "512 bytes"
    assert percent(0.125) == "12.5%" and percent(0.0004) == "0.04%" and percent(0) == "0.0%"


def test_plain_lines_every_few_seconds_with_the_time_left() -> None:
    console, buf = plain_console()
    with Progress("N = 20, numba", 1000, "solutions", console=console, delay=0, every=0.1) as p:
        p.update(250, detail="half a detail")
        time.sleep(0.45)
    lines = buf.getvalue().splitlines()
    assert len(lines) >= 2  # one at once (delay 0), then every 0.1 s
    assert lines[-1].startswith("N = 20, numba: 25.0% (250 of 1,000 solutions), ")
    assert "elapsed, about" in lines[-1] and lines[-1].endswith("left; half a detail")
    assert all(line.startswith("N = 20, numba: ") for line in lines)  # never wrapped


def test_quick_work_shows_nothing() -> None:
    console, buf = plain_console()
    with Progress("quick", 10, console=console, delay=0.5) as p:
        p.update(10)
    assert buf.getvalue() == ""


def test_estimate_before_any_progress_and_the_day_warning() -> None:
    console, buf = plain_console()
    p = Progress("perft 30", 190, "subtrees", console=console, estimate=3 * 86400, delay=0)
    assert p.seconds_left() == pytest.approx(3 * 86400, rel=1e-3)
    with p:
        time.sleep(0.4)
    text = buf.getvalue()
    assert "about 3.0 days left" in text
    assert "perft 30: about 3.0 days left at this rate, more than a day; Ctrl-C stops." in text
    assert text.count("Ctrl-C stops") == 1  # said once


def test_linear_estimate_from_the_work_done() -> None:
    p = Progress("x", 100, enabled=False)
    p.start()
    p.t0 -= 10  # ten seconds ago
    p.update(25)
    assert p.seconds_left() == pytest.approx(30, rel=0.01)
    assert p.fraction() == 0.25
    p.update(100)
    assert p.seconds_left() == 0


def test_an_up_front_estimate_outweighs_the_first_percent_of_the_work() -> None:
    """A first `kalah solve --pits 6 --seeds 4` built its 20-stone table in 53 s, but its
    first line said "about 2.0 days left" (1,339 of 225,792,840 positions after 1 s): the
    up-front estimate (78 s) now outweighs a line through so little work, and the line
    takes over as the work gets done."""
    p = Progress("table", 225_792_840, enabled=False, estimate=78)
    p.start()
    p.t0 -= 1.0
    p.update(1_339)
    left = p.seconds_left()
    assert left is not None and 76 <= left <= 78  # not 2 days
    p.t0 -= 25.0  # 26 s in, 39% done: between the line (41 s) and the estimate (52 s)
    p.update(88_325_051)
    left = p.seconds_left()
    assert left is not None and 41 < left < 52
    p.update(225_792_840)
    assert p.seconds_left() == 0  # all done: nothing of the estimate is left
    q = Progress("x", 100, enabled=False)  # no estimate: the line alone
    q.start()
    q.t0 -= 10
    q.update(1)
    assert q.seconds_left() == pytest.approx(990, rel=0.01)


def test_work_past_its_total_or_estimate_says_so() -> None:
    p = Progress("solve", 1000, "positions", enabled=False)
    p.start()
    p.update(1500)
    # no "100.0% (1,500 of 1,000)": the total was an estimate and the work outgrew it
    line = p.line()
    assert line.startswith("solve: 1,500 positions, more than the 1,000 estimated, ")
    assert line.endswith(" elapsed, longer than estimated")
    assert "%" not in p.line()
    q = Progress("build", 10, estimate=0.01, enabled=False)
    q.start()
    time.sleep(0.05)
    assert q.line().endswith("elapsed, longer than estimated")


def test_batch_sizer_follows_the_time_and_caps_growth() -> None:
    s = BatchSizer(target=0.25, first=2, minimum=2)
    assert s.size == 2
    s.record(2, 0.0001)  # far too fast: grow, but at most 4x
    assert s.size == 8
    s.record(8, 0.0004)
    assert s.size == 32
    s.record(32, 8.0)  # far too slow: shrink to the target at once, not below minimum
    assert s.size == 2
    s.record(1000, 0.25)
    assert s.size == 1000


def test_run_batches_covers_every_item_once() -> None:
    seen: list[tuple[int, int]] = []
    batches = run_batches(1000, lambda lo, hi: seen.append((lo, hi)), BatchSizer(first=3))
    assert seen[0] == (0, 3) and seen[-1][1] == 1000 and batches == len(seen)
    assert all(a[1] == b[0] for a, b in itertools.pairwise(seen))


def test_interruptible_turns_ctrl_c_into_one_line() -> None:
    with pytest.raises(Stopped) as info, interruptible(lambda: stopped_message(12.3, 4, 10, "x")):
        raise KeyboardInterrupt
    assert str(info.value) == "Stopped (Ctrl-C) after 12 s: 4 of 10 x done."
    assert isinstance(info.value, KeyboardInterrupt)
    inner = Stopped("inner message")
    with pytest.raises(Stopped) as info, interruptible(lambda: "outer"):
        raise inner
    assert info.value is inner


def test_a_stopped_command_is_one_line_and_130_through_the_central_funnel() -> None:
    """Commands raise Stopped and nothing else: boardgames.cli's funnel prints its one
    line, however long, and exits 130."""
    import click
    from click.testing import CliRunner

    from boardgames.cli import EXIT_INTERRUPTED, LazyGroup

    line = "Stopped (Ctrl-C) after 1.0 s: " + "x" * 300 + "."

    @click.group(cls=LazyGroup, lazy={})
    def root() -> None:
        pass

    @root.command()
    def work() -> None:
        raise Stopped(line)

    result = CliRunner().invoke(root, ["work"])
    assert result.exit_code == EXIT_INTERRUPTED == EXIT_STOPPED == 130
    assert result.stderr.splitlines() == [line] and result.stdout == ""


def test_run_in_thread_returns_raises_and_stops() -> None:
    import threading

    from boardgames.core.progress import run_in_thread

    assert run_in_thread(lambda: 6 * 7, stop=lambda: None) == 42

    def fails() -> None:
        raise ValueError("from the worker")

    with pytest.raises(ValueError, match="from the worker"):
        run_in_thread(fails, stop=lambda: None)

    halt = threading.Event()
    stopped: list[bool] = []

    def waits() -> str:
        halt.wait(30)
        return "ended"

    def stop() -> None:
        stopped.append(True)
        halt.set()

    def ctrl_c() -> None:  # the main thread sees Ctrl-C while the work runs
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_in_thread(waits, stop=stop, tick=ctrl_c, stop_wait=5)
    assert stopped == [True] and halt.is_set()


@pytest.mark.parametrize(
    "count, unit, said",
    [(1, "positions", "position"), (2, "positions", "positions"), (0, "games", "games"),
     (1, "batches", "batch"), (1, "searches", "search"), (1, "solutions", "solution"),
     (1, "", "")],
)  # fmt: skip
def test_one_of_a_unit_is_singular(count: int, unit: str, said: str) -> None:
    """A teacher's review: "Solving: 1 positions", "1 solutions"."""
    assert counted(count, unit) == said
    shown = f"{count} {said}".strip()
    assert stopped_message(3.0, count, None, unit).endswith(f": {shown} done.")
