"""Ctrl-C on the long-running commands: out within a second or two, status 130, one line.

Each command runs as a real process (``python -m boardgames ...``) with stderr a pipe, so
it reports its progress in plain lines. Once it has shown that its real work runs (its
first progress output, after the numba kernels are loaded: a cold cache compiles first,
hence the generous limit), it gets SIGINT and must exit within :data:`EXIT_LIMIT`
seconds with status 130, no traceback and one "Stopped (Ctrl-C) ..." line. The endgame
table build must also leave no file that a later run would take for a table.

The numba cache is the one the other tests use (compiled once); the table cache is a
temporary folder.
"""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import boardgames  # noqa: F401  (sets NUMBA_CACHE_DIR when the user has not)
from boardgames.cli import cli
from boardgames.core.registry import two_player
from boardgames.kalah.exact import endgame, tablefile
from tests.helpers import EXIT_LIMIT, check_clean_stop, interrupt, patience


@pytest.mark.parametrize(
    ("method", "extra"),
    [
        ("symmetry-parallel", []),
        ("naive", []),
        ("numba", ["--fundamental"]),
        ("parallel", []),
        ("symmetry", ["--fundamental"]),
        ("constellations-parallel", []),
    ],
)
def test_queens_count_stops(method: str, extra: list[str], tmp_path: Path) -> None:
    args = ["queens", "count", "-n", "20", "--method", method, *extra]
    run = interrupt(args, f"N = 20, {method}: ", tmp_path)
    check_clean_stop(run)
    assert "of 39,029,188,884 solutions" in run.stderr  # progress against A000170
    assert run.stderr.splitlines()[-1].endswith("no result.")
    assert run.stdout == ""


def test_kalah_perft_says_up_front_that_it_never_ends_and_stops(tmp_path: Path) -> None:
    run = interrupt(["kalah", "perft", "--depth", "30"], "Ctrl-C stops.", tmp_path)
    check_clean_stop(run)
    first = next(line for line in run.stderr.splitlines() if line.startswith("perft"))
    assert first.startswith("perft 30: about ") and "(more than a day)" in first
    assert "branching factor" in first
    assert "subtrees" in run.stderr.splitlines()[-1]


STRANGE_GAME = Path(__file__).resolve().parents[2] / "docs" / "games" / "strange-game.txt"


@pytest.mark.parametrize(
    ("extra", "ready"),
    [
        ([], "Building the endgame table"),  # the default: the 20-stone table first
        (["--endgame", "0"], "Reviewing the game: "),
        (["--quick"], "Reviewing the game: "),
    ],
    ids=["default", "no-tables", "quick"],
)
def test_kalah_review_stops_and_says_how_far_it_got(
    extra: list[str], ready: str, tmp_path: Path
) -> None:
    run = interrupt(["kalah", "review", str(STRANGE_GAME), *extra], ready, tmp_path)
    check_clean_stop(run)
    last = run.stderr.splitlines()[-1]
    if ready.startswith("Reviewing"):
        assert last.endswith(" of 26 moves done."), last


def test_ctrl_c_just_after_the_build_is_announced_says_how_far_it_got(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Ctrl-C between the build's announcement and its first progress (the window a loaded
    machine once hit: a bare "Stopped (Ctrl-C).") is still the build's own stop line."""
    from click.testing import CliRunner

    from boardgames.cli import cli
    from boardgames.kalah.cli import tables

    class StoppedAtOnce(tables.Progress):
        def __enter__(self) -> tables.Progress:
            raise KeyboardInterrupt

    monkeypatch.setattr(tables, "Progress", StoppedAtOnce)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    result = CliRunner().invoke(cli, ["kalah", "review", str(STRANGE_GAME)])
    assert result.exit_code == 130, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines[-2].startswith("Building the endgame table"), lines
    assert lines[-1].startswith("Stopped (Ctrl-C) after "), lines
    assert "the endgame table was 0.0% built; nothing was saved" in lines[-1]


@pytest.mark.parametrize("extra", [[], ["--json"]], ids=["text", "json"])
def test_kalah_analyse_for_an_hour_shows_its_depth_and_stops(
    extra: list[str], tmp_path: Path
) -> None:
    run = interrupt(["kalah", "analyse", "--time", "3600", *extra], "Thinking: ", tmp_path)
    check_clean_stop(run)
    last = run.stderr.splitlines()[-1]
    assert ": the search had reached depth " in last and last.endswith("no move was chosen.")
    assert run.stdout.strip() == ""  # no half answer


def test_kalah_solve_big_board_reports_and_stops(tmp_path: Path) -> None:
    args = ["kalah", "solve", "--pits", "12", "--seeds", "20", "--endgame", "0"]
    run = interrupt(args, "Solving 12 pits x 20 stones (classic): ", tmp_path)
    check_clean_stop(run)
    # on a cold numba cache a "Loading the solver" line may come first
    estimate = next(line for line in run.stderr.splitlines() if line.startswith("Solving"))
    assert "(more than a day)" in estimate
    assert "positions searched; the value was in [" in run.stderr.splitlines()[-1]


@pytest.mark.parametrize("where", [["--checkpoint-dir", "ck"], ["--cluster", "local:2"]])
def test_kalah_solve_by_jobs_stops_and_keeps_what_it_proved(
    where: list[str], tmp_path: Path
) -> None:
    """The job-level solve, in this process with a checkpoint and on a local cluster."""
    args = ["kalah", "solve", "--pits", "6", "--seeds", "6", "--endgame", "0",
            "--job-nodes", "200000", *where]  # fmt: skip
    run = interrupt(args, "by jobs: ", tmp_path)
    check_clean_stop(run)
    last = run.stderr.splitlines()[-1]
    assert " jobs, " in last and "positions; the value was " in last
    if where[0] == "--checkpoint-dir":
        assert last.endswith("ck/bounds.sqlite keeps every proven bound.")
        assert (tmp_path / "ck" / "bounds.sqlite").exists()


def test_endgame_build_stops_and_leaves_no_table(tmp_path: Path, monkeypatch) -> None:
    args = ["kalah", "solve", "--pits", "6", "--seeds", "6", "--endgame", "20"]
    run = interrupt(args, "Endgame table of 20 stones: ", tmp_path)
    check_clean_stop(run)
    first = next(line for line in run.stderr.splitlines() if line.startswith("Building"))
    assert first.startswith("Building the endgame table of up to 20 stones on 6 pits: ")
    assert "225,792,840 positions, 225.8 MB" in first and "Built once, then cached" in first
    assert run.stderr.splitlines()[-1].endswith("built; nothing was saved.")
    folder = tmp_path / "boardgames"
    assert not folder.exists() or list(folder.iterdir()) == []
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert endgame.cached_stones(6) == []
    assert not endgame.build_plan(6, 20).cached


# --- the table files themselves -------------------------------------------------------------


def test_a_save_interrupted_leaves_nothing(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    table = endgame.build(3, 6)
    path = endgame.cache_path(3, 6, "classic")

    def ctrl_c(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(tablefile, "IO_CHUNK", 1000)  # many chunks
    monkeypatch.setattr(tablefile.os, "fsync", ctrl_c)  # Ctrl-C after the last chunk
    with pytest.raises(KeyboardInterrupt):
        tablefile.save_table(path, table.table)
    assert list(path.parent.iterdir()) == []
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    tablefile.save_table(path, table.table)
    assert [p.name for p in path.parent.iterdir()] == [path.name]
    assert np.array_equal(endgame.load_or_build(3, 6).table, table.table)


def test_a_build_interrupted_saves_nothing_and_the_next_run_builds(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    calls = []

    def ctrl_c(n: int, top: int, done: float) -> None:
        calls.append(n)
        if n == 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        endgame.load_or_build(3, 8, progress=ctrl_c)
    folder = tmp_path / "boardgames"
    assert not folder.exists() or list(folder.iterdir()) == []
    assert endgame.cached_stones(3) == []
    again = endgame.load_or_build(3, 8)
    assert again.loaded_from is None and endgame.cached_stones(3) == [8]
    assert np.array_equal(again.table, endgame.build(3, 8).table)


def test_half_written_and_stale_files_are_never_tables(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = endgame.cache_path(3, 7, "classic")
    path.parent.mkdir(parents=True)
    good = endgame.build(3, 7).table
    tablefile.save_table(path, good)
    whole = path.read_bytes()
    # a writer that died mid-write (pid 2**22 + 1 is above any Linux pid_max default)
    stale = path.with_name(f".{path.name}.{2**22 + 1}.tmp")
    stale.write_bytes(whole[: len(whole) // 2])
    assert endgame.cached_stones(3) == [7]  # the temporary file is not a table
    # a table cut short (a copy that failed, a full disk) is rebuilt, not read
    path.write_bytes(whole[:-100])
    rebuilt = endgame.load_or_build(3, 7)
    assert rebuilt.loaded_from is None and np.array_equal(rebuilt.table, good)
    assert path.read_bytes() == whole
    assert not stale.exists()  # cleaned up by the save


@pytest.mark.parametrize(
    ("extra", "running"),
    [
        (["--engine", "numba", "--strategies", "alphabeta"], "alphabeta (numba)"),
        (["--engine", "numba", "--strategies", "mtdf"], "mtdf (numba)"),
        (["--engine", "python", "--strategies", "alphabeta"], "alphabeta (python)"),
    ],
    ids=["numba-alphabeta", "numba-mtdf", "python"],
)
def test_compare_kalah_shows_its_searches_and_stops_inside_one(
    extra: list[str], running: str, tmp_path: Path
) -> None:
    """A depth no search finishes: the kernel (or the Python search) is stopped inside."""
    args = ["compare", "kalah", "--depth", "30", "--positions", "2", *extra]
    run = interrupt(args, "Comparing: ", tmp_path)
    check_clean_stop(run)
    assert running in run.stderr
    assert run.stderr.splitlines()[-1].endswith(": 0 of 2 searches done.")
    assert run.stdout == ""


def test_compare_nim_shows_the_search_and_says_how_far_it_got(tmp_path: Path) -> None:
    run = interrupt(["compare", "nim", "10", "10", "10", "10", "10"], "Exhaustive", tmp_path)
    check_clean_stop(run)
    last = run.stderr.splitlines()[-1]
    assert " of 161,051 positions done (exhaustive search)." in last  # 11**5 positions
    assert run.stdout == ""


def test_kalah_explain_search_stops_and_says_how_far(tmp_path: Path) -> None:
    args = ["kalah", "explain", str(STRANGE_GAME), "--search", "--depths", "12-14"]
    run = interrupt(args, "Trying ", tmp_path)
    check_clean_stop(run)
    # 6 strategies x 3 depths x 3 evaluations x 2 depth units
    assert "the sweep of 108 settings was" in run.stderr.splitlines()[-1]


def test_ctrl_c_during_a_compile_is_a_clean_stop(tmp_path: Path) -> None:
    """Ctrl-C at three moments while numba compiles (an empty kernel cache; the same
    moments every run): status 130 within the limit, one line, no traceback, even when
    the interrupt lands inside one of the compiler's C callbacks (Python cannot raise it
    there: it is noted and the failure that follows is taken for the Ctrl-C it is)."""
    import subprocess
    import sys

    for k, delay in enumerate((1.5, 3.5, 5.5)):  # numba loads in about 1 s; the solver
        why = f"Ctrl-C after {delay} s"  # compiles for about 10
        cache = tmp_path / f"numba-{k}"
        env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "BOARDGAMES_BACKGROUND_WARM": "0"}
        env.update(BOARDGAMES_CACHE=str(tmp_path / "tables"), NO_COLOR="1")
        proc = subprocess.Popen(
            [sys.executable, "-m", "boardgames", "kalah", "solve", "--pits", "5", "--seeds",
             "4", "--endgame", "0"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
        )  # fmt: skip
        time.sleep(delay)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        seconds = time.monotonic() - sent
        text = out.decode() + err.decode()
        assert proc.returncode == 130, (why, text)
        assert seconds <= patience(EXIT_LIMIT), (why, seconds)
        assert "Traceback" not in text and "Exception ignored" not in text, (why, text)
        assert err.decode().strip().splitlines()[-1].startswith("Stopped"), (why, text)


@pytest.mark.parametrize("name", sorted(two_player()))
def test_generic_analyse_for_an_hour_shows_progress_and_stops(name: str, tmp_path: Path) -> None:
    """Every registered game's analysis: progress on stderr, Ctrl-C within a second."""
    big = [
        word
        for o in two_player()[name].options
        if o.kind == "ints"  # Nim's rows: a setup too big to solve in the first second
        for word in (o.flag, " ".join([str(o.high)] * 6))
    ]
    quick = CliRunner().invoke(cli, ["analyse", name, *big, "--time", "0.1", "--json"])
    if json.loads(quick.stdout).get("engine") == "solver":  # Nim: Bouton's rule, at once
        pytest.skip(f"{name}'s exact solver answers this at once: there is no long search")
    run = interrupt(["analyse", name, *big, "--time", "3600"], "Thinking: ", tmp_path)
    check_clean_stop(run)
    assert run.stderr.splitlines()[-1].endswith(": no move was chosen.")
    assert run.stdout.strip() == "" or "Best move" not in run.stdout


def test_generic_play_stops_while_the_program_thinks_and_keeps_the_record(
    tmp_path: Path,
) -> None:
    record = tmp_path / "game.txt"
    args = ["play", sorted(two_player())[0], "--first", "program", "--second", "program"]
    run = interrupt([*args, "--time", "3600", "--record", str(record)], "Thinking: ", tmp_path)
    check_clean_stop(run)
    assert record.read_text().startswith("# boardgames play ")


def test_a_ctrl_c_dropped_inside_a_c_callback_is_raised_again() -> None:
    """A Ctrl-C that lands in one of numba's C callbacks cannot be raised there (Python
    calls it unraisable). It is raised again at the next line of Python, so the work stops
    with its own "Stopped" line; it was only noted, and a warm-up compiled on to its end,
    then said nothing with status 130 (seen under load)."""
    import sys
    import types

    from boardgames.cli import _watch_interrupts

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    spins = 0
    try:
        with pytest.raises(KeyboardInterrupt), _watch_interrupts() as watch:
            dropped = types.SimpleNamespace(
                exc_type=KeyboardInterrupt, exc_value=KeyboardInterrupt(), exc_traceback=None,
                err_msg=None, object=None,
            )  # fmt: skip
            sys.unraisablehook(dropped)
            while spins < 10**7:  # Python code: the Ctrl-C comes back here
                spins += 1
    finally:
        signal.signal(signal.SIGINT, previous)
    assert watch.interrupted
    assert spins < 10**7


def test_a_compile_that_fails_after_a_dropped_ctrl_c_is_a_stop_not_an_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """numba's compiler can drop a Ctrl-C in a callback and then fail ("no compiled object
    yet"): the warm-up says it stopped, with status 130, not "Error: ...: RuntimeError"."""
    from click.testing import CliRunner

    import boardgames.cli as funnel
    from boardgames.cli import cache, cli

    def dropped_then_failed(target: str, group: str) -> None:
        assert funnel._WATCH is not None
        funnel._WATCH.interrupted = True  # as the unraisable hook notes a dropped Ctrl-C
        raise RuntimeError("no compiled object yet for <Library '_orbit'>")

    monkeypatch.setattr(cache, "_warm_step", dropped_then_failed)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    result = CliRunner().invoke(cli, ["cache", "warm", "nim"])
    assert result.exit_code == 130, result.output
    last = result.stderr.strip().splitlines()[-1]
    steps = len(cache.WARM_STEPS["nim"])
    assert last.startswith("Stopped (Ctrl-C) after ") and f"0 of {steps} steps done" in last, last
    assert "RuntimeError" not in result.stderr


@pytest.mark.parametrize(
    ("args", "status"), [(["--version"], 0), (["nim", "analyse", "--rows", "x"], 2)]
)
def test_the_status_is_the_commands_after_a_ctrl_c_caught_in_an_import(
    args: list[str], status: int
) -> None:
    """CPython notes a KeyboardInterrupt that leaves code run by ``exec`` of a string (a
    Ctrl-C while a module defines a dataclass) even when it is caught, and under
    ``python -m`` then ends the process by SIGINT at exit whatever ``sys.exit`` said: a
    stopped ``python -m boardgames kalah dataset`` ended with status -2, not 130."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    run = subprocess.run(
        [sys.executable, "-m", "tests.cli.interrupt_in_exec", *args],
        cwd=root, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == status, run
