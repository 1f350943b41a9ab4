"""Where the suite's time goes: an opt-in pytest plugin.

With ``BOARDGAMES_COMPILE_REPORT=FILE`` in the environment, each pytest process (each
xdist worker too) appends to FILE one JSON line: its wall seconds, the seconds numba spent
compiling (``numba:compile`` events, outermost only), the CPU seconds of the process and
of the commands its tests ran (every child process waited for: the CLI runs, servers,
Dask workers, Chromium), and the tests and kernels that cost the most. The suite is
CPU-bound on 2 cores, so the CPU column, not the wall one, says what a change saves. Run
it on an empty ``NUMBA_CACHE_DIR`` to see a cold suite::

    NUMBA_CACHE_DIR=$(mktemp -d) BOARDGAMES_COMPILE_REPORT=/tmp/compile.jsonl pytest
    python -m tests.compile_report /tmp/compile.jsonl
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections import Counter
from typing import Any

import pytest

REPORT = "BOARDGAMES_COMPILE_REPORT"


class CompileClock:
    """numba compile seconds, by test and by kernel (a kernel compiled inside another's
    compile counts in the outer one only)."""

    def __init__(self) -> None:
        from numba.core import event

        self.depth = 0
        self.started = 0.0
        self.total = 0.0
        self.by_test: Counter[str] = Counter()
        self.by_kernel: Counter[str] = Counter()
        self.test = "(outside tests)"
        clock = self

        class Listener(event.Listener):  # type: ignore[misc]
            def on_start(self, ev: Any) -> None:
                if clock.depth == 0:
                    clock.started = time.perf_counter()
                clock.depth += 1

            def on_end(self, ev: Any) -> None:
                clock.depth -= 1
                if clock.depth == 0:
                    spent = time.perf_counter() - clock.started
                    func = ev.data["dispatcher"].py_func
                    clock.total += spent
                    clock.by_test[clock.test] += spent
                    clock.by_kernel[f"{func.__module__}.{func.__qualname__}"] += spent

        event.register("numba:compile", Listener())


_clock: CompileClock | None = None
_t0 = time.perf_counter()
_cpu_by_test: Counter[str] = Counter()
"""CPU seconds of each test (setup, call and teardown): this process's and its children's.
A child is counted when it is waited for: a command a test runs, in that test; a server or
browser a shared fixture started, in the test whose teardown stops it (often a module's or
a worker's last)."""


def cpu_seconds() -> tuple[float, float]:
    """CPU seconds (user + system) used so far by this process, and by its children that
    have been waited for."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime


def pytest_configure(config: pytest.Config) -> None:
    global _clock
    if os.environ.get(REPORT):
        _clock = CompileClock()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    if _clock is None:
        return (yield)
    before = sum(cpu_seconds())
    try:
        return (yield)
    finally:
        _cpu_by_test[item.nodeid] += sum(cpu_seconds()) - before


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Any:
    if _clock is not None:
        _clock.test = item.nodeid
    try:
        return (yield)
    finally:
        if _clock is not None:
            _clock.test = "(outside tests)"


def pytest_unconfigure(config: pytest.Config) -> None:
    if _clock is None:
        return
    own, children = cpu_seconds()
    line = {
        "worker": os.environ.get("PYTEST_XDIST_WORKER", "main"),
        "wall": round(time.perf_counter() - _t0, 1),
        "compile": round(_clock.total, 1),
        "cpu": round(own, 1),
        "cpu_children": round(children, 1),
        "tests": [(t, round(s, 1)) for t, s in _clock.by_test.most_common(25)],
        "kernels": [(k, round(s, 1)) for k, s in _clock.by_kernel.most_common(40)],
        "cpu_tests": [(t, round(s, 1)) for t, s in _cpu_by_test.most_common(40)],
    }
    with open(os.environ[REPORT], "a", encoding="utf-8") as f:
        f.write(json.dumps(line) + "\n")


def main(path: str) -> None:
    """Print the report's totals, then the kernels that compiled the longest and the tests
    that used the most CPU, over all workers."""
    with open(path, encoding="utf-8") as f:
        lines = [json.loads(x) for x in f if x.strip()]
    kernels: Counter[str] = Counter()
    tests: Counter[str] = Counter()
    for line in lines:
        whose = "the workers and all they ran" if line["worker"] == "main" else "its commands"
        spent = f", CPU {line.get('cpu')} s + {line.get('cpu_children')} s in {whose}"
        cpu = spent if "cpu" in line else ""
        print(f"{line['worker']}: {line['wall']} s wall, {line['compile']} s compiling{cpu}")
        kernels.update(dict(line["kernels"]))
        tests.update(dict(line.get("cpu_tests", [])))
    print("Compile seconds by kernel:")
    for name, seconds in kernels.most_common(30):
        print(f"{seconds:8.1f}  {name}")
    print("CPU seconds by test (its own process and the commands it ran):")
    for name, seconds in tests.most_common(30):
        print(f"{seconds:8.1f}  {name}")


if __name__ == "__main__":
    try:
        main(sys.argv[1])
    except BrokenPipeError:  # piped into head
        sys.stderr.close()
