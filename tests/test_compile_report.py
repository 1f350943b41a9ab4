"""tests/compile_report.py, the opt-in report of where the suite's time goes: a test's CPU
is its own and that of the commands it ran, and the report's totals add up."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BUSY = """
import subprocess, sys, time

def burn(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass

def test_busy_itself():
    burn(0.4)

def test_busy_in_a_command():
    code = "import time\\nend = time.process_time() + 0.6\\nwhile time.process_time() < end: pass"
    subprocess.run([sys.executable, "-c", code], check=True)

def test_idle():
    time.sleep(0.3)
"""


def test_the_report_counts_each_tests_cpu_and_its_commands(tmp_path: Path) -> None:
    (tmp_path / "test_busy.py").write_text(BUSY)
    report = tmp_path / "report.jsonl"
    env = {**os.environ, "BOARDGAMES_COMPILE_REPORT": str(report), "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.compile_report", "-n", "0", "-q",
         "-p", "no:cacheprovider", "-o", "addopts=", str(tmp_path / "test_busy.py")],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    (line,) = [json.loads(x) for x in report.read_text().splitlines()]
    cpu = {name.rsplit("::", 1)[-1]: seconds for name, seconds in line["cpu_tests"]}
    assert cpu["test_busy_itself"] >= 0.35
    assert cpu["test_busy_in_a_command"] >= 0.55  # the command's CPU, not the test's
    assert cpu["test_idle"] < 0.25  # a sleep costs no CPU
    assert line["cpu_children"] >= 0.55 and line["cpu"] >= 0.35
    shown = subprocess.run(
        [sys.executable, "-m", "tests.compile_report", str(report)],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )  # fmt: skip
    assert shown.returncode == 0, shown.stderr
    assert "CPU seconds by test" in shown.stdout and "test_busy_in_a_command" in shown.stdout
