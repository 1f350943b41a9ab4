"""``boardgames cache warm`` and the compiled-kernel section of ``cache list`` (issue 31).

- A warmed group is marked ready (``cache list --json``), and the mark goes stale when the
  sources' stamp changes; ``cache clean --numba`` takes the marks away with the kernels.
- A warm-up stopped by SIGINT or SIGTERM (at fixed moments: 4 s in the default run, three
  more with ``-m slow``) leaves a cache the next command
  loads without a crash and with the right answer (numba writes each file under a
  temporary name and renames it into place).
- A bad group is one line and status 2; ``--help`` loads no numba.

Every compile happens in a fresh ``NUMBA_CACHE_DIR`` of the test's own (queens, a cheap
group: about 20 s cold). The default run compiles it cold once: the warm-up stopped at
4 s, which a whole warm-up then completes, is also the warm-up the other tests look at.
Warming everything is marked slow.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from click.testing import CliRunner

from boardgames.cli import cli
from boardgames.cli.cache import WARM_STEPS
from boardgames.core import warmup

Env = dict[str, str]


def run(*args: str, env: Env, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "boardgames", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1", "COLUMNS": "200", **env},
        timeout=timeout,
    )


def fresh_env(folder: Path) -> Env:
    """A private kernel cache and table cache under ``folder``."""
    (folder / "numba").mkdir(parents=True, exist_ok=True)
    return {"NUMBA_CACHE_DIR": str(folder / "numba"), "BOARDGAMES_CACHE": str(folder / "cache")}


def listed(env: Env) -> dict:
    result = run("cache", "list", "--json", env=env)
    assert result.returncode == 0, result.stderr
    kernels: dict = json.loads(result.stdout)["compiled_kernels"]
    return kernels


class Stopped(NamedTuple):
    """A cold ``cache warm queens`` stopped by ``sig`` after ``delay`` seconds, then the
    commands after it in the same cache: ``queens count --method numba`` and a whole
    ``cache warm queens``."""

    why: str
    sig: signal.Signals
    env: Env
    child: subprocess.CompletedProcess[str]
    count: subprocess.CompletedProcess[str]
    again: subprocess.CompletedProcess[str]
    listed_between: dict | None
    """``cache list``'s kernels between the stop and the count (None: it had finished)."""
    listed_after: dict
    """``cache list``'s kernels after the whole warm-up."""


def stop_then_complete(folder: Path, sig: signal.Signals, delay: float) -> Stopped:
    env = fresh_env(folder)
    child = start_warm_up(env)
    time.sleep(delay)
    child.send_signal(sig)
    out, err = child.communicate(timeout=120)
    done = subprocess.CompletedProcess(child.args, child.returncode, out, err)
    between = None if child.returncode == 0 else listed(env)
    count = run("queens", "count", "-n", "9", "--method", "numba", env=env)
    again = run("cache", "warm", "queens", env=env)
    why = f"{sig.name} after {delay:.1f} s"
    return Stopped(why, sig, env, done, count, again, between, listed(env))


@pytest.fixture(scope="module")
def warm_queens(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Env, subprocess.CompletedProcess[str]]:
    """One cold warm-up of the queens group, shared by the tests below: the default
    stopped warm-up (:data:`STOPS`' first) and the whole warm-up that completes it (a cold
    compile costs about 25 s: one serves them all)."""
    stopped = stopped_at(tmp_path_factory, STOPS[0].values)
    return stopped.env, stopped.again


_STOPPED: dict[tuple[Any, ...], Stopped] = {}


def stopped_at(factory: pytest.TempPathFactory, when: tuple[Any, ...]) -> Stopped:
    """:func:`stop_then_complete` at ``when`` (sig, delay), once a module."""
    if when not in _STOPPED:
        sig, delay = when
        _STOPPED[when] = stop_then_complete(factory.mktemp("stopped"), sig, delay)
    return _STOPPED[when]


def test_warm_marks_the_group_ready(
    warm_queens: tuple[Env, subprocess.CompletedProcess[str]],
) -> None:
    env, result = warm_queens
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    # one line per step with its time, then the closing line
    assert len(lines) == len(WARM_STEPS["queens"]) + 1, result.stdout
    for line, (label, _) in zip(lines, WARM_STEPS["queens"], strict=False):
        assert line.startswith(f"queens: {label}: ") and " s (" in line, line
    assert "compiled" in lines[0]
    assert lines[-1].startswith("Ready: queens (3 steps"), lines[-1]
    kernels = listed(env)
    assert kernels["groups"] == {g: g == "queens" for g in WARM_STEPS}
    assert {"queens", "kalah", "nim"} <= set(WARM_STEPS)  # every game with kernels
    assert kernels["files"] > 0 and kernels["bytes"] > 0
    text = run("cache", "list", env=env).stdout
    assert "queens ready" in text and "kalah not ready" in text, text
    # each step is marked too, for a command that needs only its kernels
    folder = Path(env["NUMBA_CACHE_DIR"]) / warmup.READY_FOLDER
    steps = {name.rsplit("-", 1)[0] for name in os.listdir(folder)} - {"queens", "queens.pid"}
    assert steps == {warmup.step_marker("queens", target) for _, target in WARM_STEPS["queens"]}


def test_second_warm_loads_from_the_cache(
    warm_queens: tuple[Env, subprocess.CompletedProcess[str]],
) -> None:
    env, _ = warm_queens
    result = run("cache", "warm", "queens", env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("(already compiled)") == len(WARM_STEPS["queens"]), result.stdout


def test_marks_go_stale_with_the_stamp(
    warm_queens: tuple[Env, subprocess.CompletedProcess[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    env, _ = warm_queens
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert warmup.is_ready("queens")
    old = warmup.marker("queens")
    monkeypatch.setattr(warmup, "stamp", lambda: "0123456789abcdef")  # an edit, an upgrade
    assert not warmup.is_ready("queens")
    shown = CliRunner().invoke(cli, ["cache", "list", "--json"])
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)["compiled_kernels"]["groups"]["queens"] is False
    warmup.mark_ready("queens")  # a warm-up under the new stamp replaces the old mark
    assert warmup.is_ready("queens") and not old.exists()


def test_clean_numba_takes_the_marks_away(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = fresh_env(tmp_path)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    warmup.mark_ready("nim")
    assert warmup.is_ready("nim")
    result = CliRunner().invoke(cli, ["cache", "clean", "--numba"])
    assert result.exit_code == 0, result.output
    assert not warmup.is_ready("nim")


def start_warm_up(env: Env) -> subprocess.Popen[str]:
    """``cache warm queens`` started in ``env``, its output piped, ready for a signal."""
    return subprocess.Popen(
        [sys.executable, "-m", "boardgames", "cache", "warm", "queens"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "NO_COLOR": "1", **env},
        # as at a terminal: a shell's background job would start with SIGINT ignored
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


STOPS = [
    pytest.param(signal.SIGINT, 4.0, id="SIGINT-4s"),  # in the middle of the first step
    pytest.param(signal.SIGTERM, 1.5, id="SIGTERM-1.5s", marks=pytest.mark.slow),
    pytest.param(signal.SIGINT, 9.0, id="SIGINT-9s", marks=pytest.mark.slow),
    pytest.param(signal.SIGTERM, 12.0, id="SIGTERM-12s", marks=pytest.mark.slow),
]
"""When the warm-up is stopped, and how: fixed moments (a test gives the same run every
time), one in the default run, the rest with ``-m slow``."""


@pytest.mark.parametrize(("sig", "delay"), STOPS)
def test_a_stopped_warm_up_leaves_a_usable_cache(
    tmp_path_factory: pytest.TempPathFactory, sig: signal.Signals, delay: float
) -> None:
    stopped = stopped_at(tmp_path_factory, (sig, delay))
    why, child = stopped.why, stopped.child
    err = child.stderr
    if child.returncode != 0:  # it may have ended before the signal came
        if sig == signal.SIGINT:
            assert child.returncode == 130, (why, err)
            last = err.strip().splitlines()[-1]
            assert last.startswith("Stopped (Ctrl-C) after ") and "of 3 steps done" in last, (
                why,
                err,
            )
            assert "Traceback" not in err, (why, err)
        else:
            assert child.returncode == -signal.SIGTERM, (why, child.returncode, err)
        assert stopped.listed_between is not None
        assert stopped.listed_between["groups"]["queens"] is False, why
    result = stopped.count
    assert result.returncode == 0, (why, result.stderr)
    assert "352" in result.stdout, (why, result.stdout)
    assert "Traceback" not in result.stderr, (why, result.stderr)
    # and a warm-up after it completes the cache and marks the group
    assert stopped.again.returncode == 0, (why, stopped.again.stderr)
    assert stopped.listed_after["groups"]["queens"] is True, why


@pytest.mark.slow
def test_many_warm_ups_stopped_during_a_compile_all_end_130(tmp_path: Path) -> None:
    """A Ctrl-C can land inside numba's compiler where an LLVM object is half handed over;
    freed later, it crashed the process (SIGSEGV, about once in 90 stopped warm-ups) after
    it had said that it stopped. 60 warm-ups stopped at moments spread from 1 to 9 s (two
    at a time, as a loaded machine would) each end with status 130, or 0 if done first."""
    moments = [1.0 + 8.0 * k / 59 for k in range(60)]
    for pair in range(0, len(moments), 2):
        children = [start_warm_up(fresh_env(tmp_path / str(k))) for k in (pair, pair + 1)]
        start = time.perf_counter()
        for k, child in zip((pair, pair + 1), children, strict=True):
            time.sleep(max(0.0, moments[k] - (time.perf_counter() - start)))
            child.send_signal(signal.SIGINT)
        for k, child in zip((pair, pair + 1), children, strict=True):
            _, err = child.communicate(timeout=120)
            assert child.returncode in (0, 130), (moments[k], child.returncode, err)


def test_bad_group_is_one_line(tmp_path: Path) -> None:
    result = run("cache", "warm", "chess", env=fresh_env(tmp_path))
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "chess" in result.stderr and "queens" in result.stderr


def test_help_loads_no_numba() -> None:
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from boardgames.cli import cli\n"
        "r = CliRunner()\n"
        "for args in (['cache', '--help'], ['cache', 'warm', '--help'], ['cache', 'warm', 'x']):\n"
        "    r.invoke(cli, args)\n"
        "assert 'numba' not in sys.modules, 'numba was imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
    help_text = run("cache", "warm", "--help", env={}).stdout
    assert "os.replace" in help_text and "queens" in help_text


@pytest.mark.slow
def test_warm_all(tmp_path: Path) -> None:
    env = fresh_env(tmp_path)
    result = run("cache", "warm", env=env, timeout=1800)
    assert result.returncode == 0, result.stderr
    assert listed(env)["groups"] == dict.fromkeys(warmup.groups(), True)
    steps = sum(len(s) for s in WARM_STEPS.values())
    ready = ", ".join(WARM_STEPS)
    assert result.stdout.splitlines()[-1].startswith(f"Ready: {ready} ({steps} steps")


def test_steps_compiled_aside_fill_the_cache_and_stop_with_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``warmup.compile_aside`` (what ``kalah solve`` uses on a fresh machine) runs warm
    steps in a process of its own that fills this machine's kernel cache; a bad step ends
    that process with an error the caller does not see (it compiles in-process then);
    ``stop_background`` (the command's Ctrl-C) ends one still compiling."""
    env = fresh_env(tmp_path)
    for key, value in {**env, warmup.BACKGROUND_SWITCH: "1"}.items():
        monkeypatch.setenv(key, value)
    cache = Path(env["NUMBA_CACHE_DIR"])
    child = warmup.compile_aside("boardgames.nim.warm:searcher")
    assert child is not None
    warmup.wait_aside(child)
    assert child.returncode == 0
    assert list(cache.rglob("*.nbi")), "the step's kernels are in the cache"
    # and marked compiled, as cache warm marks a step: the next command compiles nothing aside
    assert warmup.step_ready("nim", "boardgames.nim.warm:searcher")
    assert not warmup.is_ready("nim"), "one step is not the whole group"
    bad = warmup.compile_aside("boardgames.nim.warm:no_such_step")
    warmup.wait_aside(bad)
    assert bad is not None and bad.returncode != 0
    slow = warmup.compile_aside("boardgames.kalah.play.warm:solver")
    assert slow is not None
    time.sleep(1.0)
    warmup.stop_background()
    assert slow.poll() is not None, "stopped, not left compiling"
    monkeypatch.setenv(warmup.BACKGROUND_SWITCH, "0")
    assert warmup.compile_aside("boardgames.nim.warm:searcher") is None
    # a group marked ready has every step of it ready, marked on its own or not
    assert not warmup.step_ready("nim", "boardgames.nim.warm:solver")
    warmup.mark_ready("nim")
    assert warmup.step_ready("nim", "boardgames.nim.warm:solver")
