"""A first run on a fresh machine, for real: an empty numba cache, background compiles on.

Each command must give its answer without loading numba at all (so without compiling
anything), say on stderr which path answered, and start the background compile of its
group (which the test then stops). Which path answered is checked, never a time, and
never one particular move from a search limited by time (a loaded machine searches less
deep and may choose another): the move played must be legal, whole and the one it names.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from boardgames.core import warmup
from boardgames.kalah.record import read_record, replay

# runs the command in a fresh interpreter and says at exit whether numba was ever imported
WRAPPER = """
import atexit, sys
atexit.register(lambda: print("numba imported: " + str("numba" in sys.modules), file=sys.stderr))
sys.argv = ["boardgames", *sys.argv[1:]]
from boardgames.cli import main
main()
"""


def first_run(tmp_path: Path, args: list[str], stdin: str = "") -> subprocess.CompletedProcess:
    cache = tmp_path / "numba"
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(cache),
        "BOARDGAMES_CACHE": str(tmp_path / "tables"),
        "BOARDGAMES_BACKGROUND_WARM": "1",
    }
    try:
        return subprocess.run(
            [sys.executable, "-c", WRAPPER, *args],
            input=stdin,
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
            timeout=120,
        )
    finally:  # the background compile it started: stopped, its whole session
        for pid_file in (cache / warmup.READY_FOLDER).glob("*.pid"):
            with contextlib.suppress(OSError, ValueError):
                os.killpg(int(pid_file.read_text()), signal.SIGTERM)


@pytest.mark.parametrize(
    ("args", "stdin", "answer", "said", "group"),
    [
        (
            ["queens", "count", "-n", "13"],
            "",
            re.escape("N = 13: 73,712 solutions (bitmask"),  # OEIS A000170
            "counted in pure Python, bitmask, while the compiled kernels are prepared",
            "queens",
        ),
        (
            ["kalah", "solve", "--pits", "4", "--seeds", "3"],
            "",
            re.escape("Value for A (to move): +6 (A wins by 6 with perfect play)"),
            "solved exactly by the pure-Python solver",
            "kalah",
        ),
        (
            ["compare", "kalah", "--seeds", "3", "--depth", "4"],
            "",
            re.escape("All 4 runs agree on every value"),
            "numba rows left out",
            "kalah",
        ),
        (
            ["kalah", "analyse", "--pits", "4", "--seeds", "3"],
            "",
            re.escape("Best compound move for A:"),
            "searched by the pure-Python reference program",
            "kalah",
        ),
        (
            ["kalah", "play", "--record", "g.klh"],
            "2\nquit\n",
            # 0.7 s a move: not one particular move (checked below against the record)
            r"reference search at depth \d+ while the fast engine loads",
            "The fast engine is being compiled in the background",
            "kalah",
        ),
    ],
    ids=["queens-count", "kalah-solve", "compare-kalah", "kalah-analyse", "kalah-play"],
)
def test_a_first_run_answers_without_numba(
    tmp_path: Path, args: list[str], stdin: str, answer: str, said: str, group: str
) -> None:
    run = first_run(tmp_path, args, stdin)
    assert run.returncode == 0, run.stderr
    found = re.search(answer, run.stdout)
    assert found, run.stdout
    if "--record" in args:  # the program's move: legal, whole, and the one it said
        record = read_record(tmp_path / args[args.index("--record") + 1])
        steps, last = replay(record)  # every move legal, or RecordError
        assert len(steps) == 2 and (steps[0].player, steps[0].pits) == (0, (2,))
        program = steps[1]  # B's compound move, whole: A's turn after it
        assert program.player == 1 and record.game.to_move(last) == 0
        line = next(text for text in run.stdout.splitlines() if found[0] in text)
        shown = line.split("(")[0].split()  # "I play 9 " (before its value)
        assert shown[-len(program.pits) :] == [str(pit) for pit in program.pits], line
    assert said in run.stderr
    assert run.stderr.strip().splitlines()[-1] == "numba imported: False"
    assert "Traceback" not in run.stderr
    # the background compile was started (a pid file), not waited for
    assert (tmp_path / "numba" / warmup.READY_FOLDER / f"{group}.pid").is_file()


def test_nim_play_needs_no_numba(tmp_path: Path) -> None:
    run = first_run(tmp_path, ["nim", "play"], "1 1\nquit\n")  # rows 3 4 5: take 1 from row 1
    assert run.returncode == 0, run.stderr
    # Bouton's reply to 2 4 5 (nim-sum 3): row 1 from 2 to 1, the nim-sum back to 0
    assert "I play 1 1 (take 1 from row 1)." in run.stdout
    assert run.stderr.strip().splitlines()[-1] == "numba imported: False"
