"""The standard streams and text from outside (issue 34, classes 3, 7 and 10).

- A closed standard input reads as empty; a closed standard output is status 1 and one
  line on stderr; an encoding that cannot show every character (``PYTHONIOENCODING=ascii``)
  shows ``?`` instead of a traceback.
- Text from a file or the command line reaches the terminal with its control characters
  escaped (no escape sequence can recolour the terminal or move the cursor).
- An error line is one short line, however long the input it quotes.

These run ``python -m boardgames`` in a subprocess: the streams are the real ones.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgames.cli import cli
from boardgames.core.text import MESSAGE_LIMIT, one_line, printable

ROOT = Path(__file__).resolve().parents[2]
STRANGE_GAME = ROOT / "docs" / "games" / "strange-game.txt"
ESC = "\x1b"

LIGHT_COMMANDS = [
    ["nim", "analyse", "3", "4", "5"],
    ["nim", "analyse", "1", "2", "--misere"],
    ["nim", "analyse", "3", "4", "5", "--json"],
    ["queens", "solve", "-n", "6"],
    ["queens", "solve", "-n", "6", "--format", "json"],
    ["queens", "solve", "-n", "5", "--format", "board"],
    ["queens", "solve", "-n", "4", "--format", "csv"],
    ["kalah", "replay", str(STRANGE_GAME)],
    ["kalah", "replay", str(STRANGE_GAME), "--json"],
    ["kalah", "perft", "--depth", "2"],
    ["--help"],
    ["kalah", "--help"],
]


def shell(command: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``command`` in sh, with ``BG`` the command line (so that redirections such as
    ``<&-`` apply to it as they would for a user)."""
    full = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100", **(env or {})}
    full["BG"] = f"{sys.executable} -m boardgames"
    return subprocess.run(
        ["sh", "-c", command],
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        env=full,
        timeout=120,
        cwd=ROOT,
    )


def words(args: list[str]) -> str:
    return " ".join(f"'{a}'" for a in args)


MEASURED = re.compile(r"\d[\d,]*(?:\.\d+)? ?(?:(?:[A-Za-z]+ )?[A-Za-z]+/s|ms|s|min|h)\b")
"""A measured figure: a time (``0.01 s``, ``3 min 5 s``, ``12 ms``) or a rate (``1.25 M/s``,
``4,000 positions/s``). It differs from run to run, most of all on a loaded machine."""


def unmeasured(text: str) -> str:
    """``text`` with every measured time and rate replaced by ``<measured>``: what is left
    (the counts, values and moves) must be the same on any run."""
    return MEASURED.sub("<measured>", text)


# --- unit: the text helpers ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain", "plain"),
        (f"{ESC}[31mred{ESC}[0m", "\\x1b[31mred\\x1b[0m"),
        ("a\rb\nc\td", "a\\x0db\\x0ac\\x09d"),
        ("nul\x00", "nul\\x00"),
        ("del\x7f c1\x9b", "del\\x7f c1\\x9b"),
        ("line\u2028sep", "line\\u2028sep"),
        ("Игрок А", "Игрок А"),  # letters of any script stay as they are
    ],
)
def test_printable_escapes_control_characters_only(text: str, shown: str) -> None:
    assert printable(text) == shown


def test_one_line_is_short_whatever_the_input() -> None:
    huge = "x" * 2**20
    line = one_line(huge)
    assert len(line) < MESSAGE_LIMIT + 40 and line.endswith("(1,048,576 characters)")
    assert one_line("short") == "short"


# --- closed and odd streams ------------------------------------------------------------------


@pytest.mark.parametrize("args", LIGHT_COMMANDS, ids=lambda a: " ".join(a)[:40])
def test_a_closed_standard_output_is_one_line_and_status_1(args: list[str]) -> None:
    r = shell(f"$BG {words(args)} >&-")
    assert r.returncode == 1, r
    assert r.stderr.splitlines() == [
        "Error: standard output is closed: there is nowhere to write the result"
    ]


@pytest.mark.parametrize(
    "args",
    [["nim", "play"], ["nim", "play", "3", "4"], ["nim", "play", "--misere"]],
    ids=lambda a: " ".join(a),
)
def test_a_closed_standard_input_is_the_end_of_input(args: list[str]) -> None:
    r = shell(f"$BG {words(args)} <&-")
    assert "Traceback" not in r.stdout + r.stderr, r.stderr
    assert r.returncode in (0, 130), r
    assert "Goodbye." in r.stdout or "end of input" in r.stderr.lower()


def test_a_kalah_game_with_standard_input_closed_keeps_its_record(tmp_path: Path) -> None:
    record = tmp_path / "g.klh"
    r = shell(f"$BG kalah play --a human --b human --record '{record}' <&-")
    assert "Traceback" not in r.stdout + r.stderr, r.stderr
    assert r.returncode in (0, 130)
    assert record.read_text(encoding="utf-8").startswith("Rules : classic")


@pytest.mark.parametrize("args", LIGHT_COMMANDS, ids=lambda a: " ".join(a)[:40])
def test_a_closed_standard_error_changes_nothing(args: list[str]) -> None:
    plain = shell(f"$BG {words(args)}")
    closed = shell(f"$BG {words(args)} 2>&-")
    assert closed.returncode == plain.returncode == 0
    assert unmeasured(closed.stdout) == unmeasured(plain.stdout)  # "(0.00 s)" vs "(0.01 s)"


@pytest.mark.parametrize(
    ("args", "status"),
    [
        (["analyse", "nim", "zz"], 2),
        (["queens", "count", "-n", "99"], 2),
        (["kalah", "analyse", "--pits", "99"], 2),
        (["games", "--json"], 0),
    ],
    ids=["bad-position", "bad-n", "bad-pits", "fine"],
)
@pytest.mark.parametrize("stderr", ["2>&-", "2>/dev/full"], ids=["closed", "full"])
def test_a_stderr_that_cannot_be_written_keeps_the_documented_status(
    args: list[str], status: int, stderr: str
) -> None:
    """Round 4: with stderr on a full device the one-line error failed to be written and the
    status became 1; the message is dropped and the status stays the documented one."""
    r = shell(f"$BG {words(args)} {stderr}")
    assert r.returncode == status, r.stdout


@pytest.mark.parametrize("encoding", ["ascii", "latin-1", "cp1251"])
@pytest.mark.parametrize(
    "args",
    [
        *LIGHT_COMMANDS[:9],
        ["nim", "play", "3", "4", "5"],
        ["kalah", "analyse", "--pits", "2", "--seeds", "1", "--board", "1 0 0 1 0 0"],
    ],
    ids=lambda a: " ".join(a)[:40],
)
def test_an_encoding_that_cannot_show_everything_gets_a_fallback(
    args: list[str], encoding: str
) -> None:
    r = shell(f"$BG {words(args)} </dev/null", env={"PYTHONIOENCODING": encoding})
    assert "Traceback" not in r.stdout + r.stderr, r.stderr[-600:]
    assert "UnicodeEncodeError" not in r.stderr
    assert r.returncode in (0, 2), r.stderr[-300:]


# --- text from outside -----------------------------------------------------------------------


def record_with(tmp_path: Path, headers: str) -> Path:
    path = tmp_path / "r.klh"
    path.write_text(f"Pits : 3\nSeeds : 1\n{headers}1) A: 0\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "headers",
    [
        f"Player A : {ESC}[31mred{ESC}[0m\n",
        f"Player B : {ESC}]0;title{ESC}\\\n",
        "Player A : back\x08\x08\x08\x08space\n",
        f"Player A : {ESC}[2J{ESC}[Hcleared\n",
        "Player B : bell\x07\n",
        "Player A : c1\x9bcsi\n",
    ],
    ids=["colour", "title", "backspace", "clear", "bell", "c1"],
)
@pytest.mark.parametrize("as_json", [False, True])
def test_a_records_names_reach_the_terminal_escaped(
    tmp_path: Path, headers: str, as_json: bool
) -> None:
    path = record_with(tmp_path, headers)
    result = CliRunner().invoke(
        cli, ["kalah", "replay", str(path), *(["--json"] if as_json else [])]
    )
    assert result.exit_code == 0, result.output
    for control in (ESC, "\x07", "\x08", "\x9b"):
        assert control not in result.stdout


@pytest.mark.parametrize(
    "name",
    [f"{ESC}[31mred.klh", "bell\x07.klh", "cr\rhidden.klh", "nl\nfake error.klh"],
    ids=["colour", "bell", "cr", "newline"],
)
@pytest.mark.parametrize("command", ["replay", "review", "explain"])
def test_a_hostile_file_name_is_escaped_in_the_error(name: str, command: str) -> None:
    extra = ["--program", "classic"] if command == "explain" else []
    result = CliRunner().invoke(cli, ["kalah", command, name, *extra])
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: ")
    for control in (ESC, "\x07", "\r"):
        assert control not in result.stderr


@pytest.mark.parametrize(
    "body",
    [
        "1) A: " + "1" * 2**20 + "\n",
        "1) A: 0 " + "7 " * 200_000 + "\n",
        "Player A : " + "y" * 2**20 + "\nPits : x" + "z" * 2**20 + "\n",
        "Rules : " + "q" * 2**20 + "\n",
        "Final : " + "9" * 2**20 + "\n",
        "x" * 2**20 + "\n",
    ],
    ids=["pit", "many-pits", "name-then-pits", "rules", "final", "garbage"],
)
def test_an_error_about_a_huge_line_is_one_short_line(tmp_path: Path, body: str) -> None:
    path = tmp_path / "big.klh"
    path.write_text("Pits : 3\nSeeds : 1\n" + body, encoding="utf-8")
    result = CliRunner().invoke(cli, ["kalah", "replay", str(path)])
    assert result.exit_code == 2
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and len(lines[0]) <= MESSAGE_LIMIT + 60, len(lines[0])
