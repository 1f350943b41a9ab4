"""Terminal and environment variables with odd values (issue 41): the output is still
there and the status is right.

Width and colour (``COLUMNS``, ``LINES``, ``NO_COLOR``, ``FORCE_COLOR``, ``TERM`` ...) and
the cache folders are read when a command runs: those cases go through click's runner
with its ``env``. numba's settings (read when numba is imported), the locale and the
encoding of the standard streams (set when Python starts) need a real process: those
cases run ``python -m boardgames``, a few commands a case.

Each case checks what the user asked for (Nim-sum 2 for 3 4 5, 92 solutions for eight
queens, the four solutions for six), the documented exit status, no traceback, and,
where a variable we read is bad, one line on stderr saying so.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgames.cli import cli

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
SIX_QUEENS = ["2 4 6 1 3 5", "3 6 2 5 1 4", "4 1 5 2 6 3", "5 3 1 6 4 2"]


def plain(text: str) -> str:
    """``text`` without colour codes, runs of blanks (line breaks too) made one space."""
    return " ".join(ANSI.sub("", text).split())


def check_facts(args: list[str], out: str) -> None:
    """The numbers ``boardgames ARGS`` was asked for are in ``out`` (its stdout)."""
    text = plain(out)
    if args[:2] == ["nim", "analyse"] and "--json" in args:
        assert json.loads(out)["nim_sum"] == 2
        assert json.loads(out)["winning_moves"] == [{"row": 1, "take": 2}]
    elif args[:2] == ["nim", "analyse"]:
        assert "Nim-sum (xor of all rows): 2 (010)" in text
        assert "take 2 from row 1: row 1 goes 3 -> 1" in text
    elif args[:2] == ["queens", "count"]:
        assert "N = 8: 92 solutions" in text
    elif args[:2] == ["queens", "solve"] and "board" in args:
        assert "#1 2 4 1 3" in text and "#2 3 1 4 2" in text
    elif args[:2] == ["queens", "solve"]:
        assert ANSI.sub("", out).split("\n")[:4] == SIX_QUEENS
    elif args[:2] == ["compare", "nim"]:
        assert "Agree on all 6 positions: who wins and every winning move." in text
    elif args[:1] == ["games"]:
        assert all(name in text for name in ("connect4", "kalah", "nim", "queens"))
    else:
        raise AssertionError(f"no facts known for {args}")


# --- in this process: what a command reads when it runs ----------------------------------

LIGHT = [
    ["nim", "analyse", "3", "4", "5"],
    ["queens", "count", "-n", "8"],
    ["queens", "solve", "-n", "6"],
    ["compare", "nim", "1", "2", "--playouts", "0"],
    ["games"],
]
TERMINAL_CASES: dict[str, dict[str, str | None]] = {
    "COLUMNS=0": {"COLUMNS": "0"},
    "COLUMNS=-5": {"COLUMNS": "-5"},
    "COLUMNS=abc": {"COLUMNS": "abc"},
    "COLUMNS=1": {"COLUMNS": "1"},
    "COLUMNS=100000": {"COLUMNS": "100000"},
    "COLUMNS=empty": {"COLUMNS": ""},
    "COLUMNS=arabic-3": {"COLUMNS": "\u0663"},
    "COLUMNS unset": {"COLUMNS": None},
    "LINES=0": {"LINES": "0"},
    "LINES=abc": {"LINES": "abc", "COLUMNS": "abc"},
    "NO_COLOR=1": {"NO_COLOR": "1"},
    "NO_COLOR=empty": {"NO_COLOR": ""},
    "FORCE_COLOR=1": {"FORCE_COLOR": "1", "NO_COLOR": None},
    "FORCE_COLOR=abc": {"FORCE_COLOR": "abc", "NO_COLOR": None},
    "TERM=dumb": {"TERM": "dumb"},
    "TERM unset": {"TERM": None},
    "TERM=xterm-256color": {"TERM": "xterm-256color", "NO_COLOR": None},
    "CLICOLOR_FORCE=1": {"CLICOLOR_FORCE": "1", "NO_COLOR": None},
    "COLORTERM=truecolor": {"COLORTERM": "truecolor", "FORCE_COLOR": "1", "NO_COLOR": None},
}


@pytest.mark.parametrize("case", TERMINAL_CASES)
def test_width_and_colour_variables_keep_the_output(case: str) -> None:
    runner = CliRunner()
    for args in LIGHT:
        result = runner.invoke(cli, args, env=TERMINAL_CASES[case])
        assert result.exit_code == 0, (args, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit)
        check_facts(args, result.stdout)
        assert plain(result.stderr) in ("", "4 solutions for N = 6."), result.stderr


@pytest.mark.parametrize("columns", ["0", "1", "abc", "-5"])
def test_a_width_that_is_no_width_keeps_each_line_whole(columns: str) -> None:
    """COLUMNS=0 printed nothing and COLUMNS=1 one character a line: a width that is not
    one is ignored (a file gets its lines whole), one below 40 columns is read as 40."""
    result = CliRunner().invoke(cli, ["queens", "count", "-n", "8"], env={"COLUMNS": columns})
    assert result.stdout.startswith("N = 8: 92 solutions (bitmask, ")
    assert len(result.stdout.splitlines()) == 1
    result = CliRunner().invoke(cli, ["nim", "analyse", "3", "4", "5"], env={"COLUMNS": columns})
    assert "Nim-sum (xor of all rows): 2 (010)" in result.stdout.splitlines()


def test_cache_folders_from_odd_variables(tmp_path: Path) -> None:
    """An empty BOARDGAMES_CACHE or XDG_CACHE_HOME is unset; a relative XDG_CACHE_HOME is
    ignored (the XDG specification), so the folder never depends on the current one."""
    home = tmp_path / "home"
    runner = CliRunner()
    cases: list[tuple[dict[str, str | None], Path]] = [
        ({"BOARDGAMES_CACHE": "", "XDG_CACHE_HOME": str(tmp_path)}, tmp_path / "boardgames"),
        ({"XDG_CACHE_HOME": "", "HOME": str(home)}, home / ".cache" / "boardgames"),
        ({"XDG_CACHE_HOME": "relative/cache", "HOME": str(home)}, home / ".cache" / "boardgames"),
        ({"BOARDGAMES_CACHE": str(tmp_path / "own")}, tmp_path / "own"),
    ]
    for env, folder in cases:
        result = runner.invoke(cli, ["cache", "path"], env={"BOARDGAMES_CACHE": None, **env})
        assert (result.exit_code, result.stdout) == (0, f"{folder}\n"), env
    assert not home.exists()  # said, not made


def test_a_cache_folder_under_a_file_still_answers_with_status_1(tmp_path: Path) -> None:
    """XDG_CACHE_HOME a file: the endgame table serves the run, one line says it could not
    be kept, and the status is 1 (docs/reliability.md: a failed write is never a success)."""
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    result = CliRunner().invoke(
        cli,
        ["kalah", "solve", "--pits", "5", "--seeds", "3", "--endgame", "10"],
        env={"XDG_CACHE_HOME": str(a_file), "BOARDGAMES_CACHE": None},
    )
    assert "Value for A (to move): +" in result.stdout
    assert result.exit_code == 1, result.output
    assert "could not be saved" in result.stderr and "Traceback" not in result.stderr


# --- real processes: numba's settings, the locale, the streams' encoding -------------------


def run(
    env: dict[str, str | None], *commands: list[str], stdin: str = ""
) -> list[tuple[int, str, str]]:
    """``python -m boardgames`` for each of ``commands`` in this environment changed by
    ``env`` (None: unset); (status, stdout, stderr) of each, decoded as UTF-8."""
    full = dict(os.environ)
    for name, value in env.items():
        if value is None:
            full.pop(name, None)
        else:
            full[name] = value
    results = []
    for args in commands:
        done = subprocess.run(
            [sys.executable, "-m", "boardgames", *args],
            input=stdin.encode(),
            capture_output=True,
            env=full,
            timeout=300,
        )
        out, err = (b.decode("utf-8", "replace") for b in (done.stdout, done.stderr))
        assert "Traceback" not in err + out, err
        results.append((done.returncode, out, err))
    return results


PARALLEL = ["queens", "count", "-n", "8", "--method", "parallel", "--json"]
NIM = ["nim", "analyse", "3", "4", "5"]
THREAD_CASES: dict[str, tuple[dict[str, str | None], str | None]] = {
    # the environment, and the one line that says what was wrong (None: nothing to say)
    "NUMBA_NUM_THREADS=0": ({"NUMBA_NUM_THREADS": "0"}, "NUMBA_NUM_THREADS='0' is not a number"),
    "NUMBA_NUM_THREADS=-1": ({"NUMBA_NUM_THREADS": "-1"}, "NUMBA_NUM_THREADS='-1' is not a"),
    "NUMBA_NUM_THREADS=abc": ({"NUMBA_NUM_THREADS": "abc"}, "NUMBA_NUM_THREADS='abc' is not"),
    "NUMBA_NUM_THREADS=100000": ({"NUMBA_NUM_THREADS": "100000"}, "from 1 to"),
    "NUMBA_NUM_THREADS=empty": ({"NUMBA_NUM_THREADS": ""}, "NUMBA_NUM_THREADS='' is not"),
    "OMP_NUM_THREADS=0": ({"OMP_NUM_THREADS": "0"}, None),
    "OMP_NUM_THREADS=abc": ({"OMP_NUM_THREADS": "abc", "MKL_NUM_THREADS": "-1"}, None),
    "NUMBA_THREADING_LAYER=bogus": (
        {"NUMBA_THREADING_LAYER": "bogus"},
        "NUMBA_THREADING_LAYER='bogus' is not one of default, safe",
    ),
    "NUMBA_THREADING_LAYER_PRIORITY=x": (
        {"NUMBA_THREADING_LAYER_PRIORITY": "omp x"},
        "NUMBA_THREADING_LAYER_PRIORITY='omp x' is not the three layers",
    ),
    "NUMBA_DISABLE_JIT=1": ({"NUMBA_DISABLE_JIT": "1"}, "NUMBA_DISABLE_JIT='1' is ignored"),
    "NUMBA_OPT=abc": ({"NUMBA_OPT": "abc"}, "NUMBA_OPT='abc' cannot be read; numba uses its"),
    "NUMBA_DEBUG=x": ({"NUMBA_DEBUG": "x\x1b[31m"}, "NUMBA_DEBUG='x\\x1b[31m' cannot be read"),
}


@pytest.mark.parametrize("case", THREAD_CASES)
def test_numba_settings_that_numba_cannot_use(case: str) -> None:
    env, said = THREAD_CASES[case]
    (status, out, err), (nim_status, nim_out, _) = run(env, PARALLEL, NIM)
    assert (status, nim_status) == (0, 0), err
    count = json.loads(out)
    assert count["count"] == 92
    if "NUMBA_NUM_THREADS" in env:  # numba's default then: every core
        assert count["workers"] == os.cpu_count()
    check_facts(NIM, nim_out)
    notes = [line for line in err.splitlines() if line.startswith("Note: ")]
    if said is None:
        assert notes == [], err
    else:
        assert len(notes) == 1 and said in notes[0], err


def test_a_usable_thread_count_is_used() -> None:
    ((status, out, err),) = run({"NUMBA_NUM_THREADS": "1"}, PARALLEL)
    # nothing to say about the setting; a slow (loaded) machine may show the loading's
    # progress, nothing else
    assert status == 0 and all(line.startswith("Loading the ") for line in err.splitlines()), err
    assert (json.loads(out)["count"], json.loads(out)["workers"]) == (92, 1)


def test_a_kernel_folder_that_is_a_file_or_empty(tmp_path: Path) -> None:
    """NUMBA_CACHE_DIR a file: one line, the kernels go to a private folder; empty: as if
    unset (boardgames' own folder), never numba's fallback next to the installed code."""
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    ((status, out, err),) = run({"NUMBA_CACHE_DIR": str(a_file)}, NIM)
    assert status == 0
    check_facts(NIM, out)
    assert err.startswith(f"Note: compiled kernels cannot be kept in '{a_file}'"), err
    assert len(err.splitlines()) == 1
    env: dict[str, str | None] = {"NUMBA_CACHE_DIR": "", "XDG_CACHE_HOME": str(tmp_path)}
    ((status, out, err),) = run(env, ["cache", "list"])
    assert status == 0 and err == ""
    assert f"in {tmp_path / 'boardgames' / 'numba'}" in out


LOCALE_CASES: dict[str, dict[str, str | None]] = {
    "LANG=C": {"LANG": "C", "LC_ALL": None, "LC_CTYPE": None},
    "LC_ALL=C": {"LC_ALL": "C"},
    "LC_ALL=POSIX": {"LC_ALL": "POSIX"},
    "LC_ALL=xx_YY.UTF-8": {"LC_ALL": "xx_YY.UTF-8"},
    "LANG=tr_TR.UTF-8": {"LANG": "tr_TR.UTF-8", "LC_ALL": None},
    "PYTHONIOENCODING=ascii": {"PYTHONIOENCODING": "ascii"},
    "PYTHONIOENCODING=latin-1": {"PYTHONIOENCODING": "latin-1"},
    "PYTHONIOENCODING=utf-8:bogus": {"PYTHONIOENCODING": "utf-8:bogus"},
    "PYTHONUTF8=0 LC_ALL=C": {"PYTHONUTF8": "0", "LC_ALL": "C"},
    "PYTHONUTF8=1": {"PYTHONUTF8": "1", "LC_ALL": "C"},
    "TZ=bogus": {"TZ": "bogus/nowhere"},
}
BOARD = ["queens", "solve", "-n", "4", "--format", "board"]


@pytest.mark.parametrize("case", LOCALE_CASES)
def test_locale_and_encoding(case: str) -> None:
    """Characters the encoding lacks (the queen, the chips) are shown as '?'; the
    numbers are all there."""
    env = LOCALE_CASES[case]
    for (status, out, err), args in zip(run(env, BOARD, NIM), (BOARD, NIM), strict=True):
        assert status == 0 and err.strip() in ("", "2 solutions for N = 4."), err
        check_facts(args, out)
    ((status, out, err),) = run(env, ["play", "nim", "--rows", "1"], stdin="1 1\n")
    assert status == 0 and "first player wins" in out.lower(), err
    ((status, _, err),) = run(env, ["queens", "count", "-n", "0"])
    assert status == 2 and err.startswith("Error: board size N = 0 is not supported"), err


def test_unusable_home_and_temporary_folders(tmp_path: Path) -> None:
    """HOME unset, a file or missing; TMPDIR a file or missing: the answers and status 0,
    nothing said (no table needed saving)."""
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    cases: list[dict[str, str | None]] = [
        {"HOME": None, "XDG_CACHE_HOME": None},
        {"HOME": str(a_file), "XDG_CACHE_HOME": None},
        {"HOME": str(tmp_path / "missing"), "XDG_CACHE_HOME": ""},
        {"TMPDIR": str(a_file)},
        {"TMPDIR": str(tmp_path / "missing")},
    ]
    for env in cases:
        env = {**env, "BOARDGAMES_CACHE": None}
        for (status, out, err), args in zip(run(env, NIM, LIGHT[3]), (NIM, LIGHT[3]), strict=True):
            assert (status, err) == (0, ""), (env, err)
            check_facts(args, out)
    assert not (tmp_path / "missing").exists()
