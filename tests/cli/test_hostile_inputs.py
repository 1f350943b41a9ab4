"""Bad, empty, huge and hostile input to every command: one clear line, the right status.

Every command answers bad input with exactly one line on standard error (``Error: ...``,
saying what was wrong and what is allowed), status 2, no traceback, within seconds; the
interactive prompts ask again, and end of input or Ctrl-C leaves cleanly with the record
kept. Exit statuses (boardgames/cli.py): 0 done, 1 the work failed, 2 bad input or usage,
130 Ctrl-C.

Most cases run in-process through click's runner (fast); a representative subset runs
``python -m boardgames`` in a subprocess to check the real exit statuses and signals.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from boardgames.cli import EXIT_BAD_INPUT, EXIT_INTERRUPTED, STOPPED_LINE, cli
from boardgames.kalah.game import Kalah
from boardgames.kalah.record import Move, Record
from tests.helpers import time_limit

SECONDS = 10.0
"""Each in-process case must finish within this (most take milliseconds)."""
LONG = "9" * 5000
"""More digits than Python's int() converts (4300): a ValueError unless refused first."""
LONGEST_ERROR = 400
"""An error line never echoes a huge input whole."""


def invoke(
    args: list[str],
    text: str | None = None,
    env: dict[str, str] | None = None,
    seconds: float = SECONDS,
) -> Result:
    """Run the command line in-process; it must finish within ``seconds``."""
    start = time.perf_counter()
    with time_limit(3 * seconds):
        result = CliRunner().invoke(cli, args, input=text, env=env)
    assert time.perf_counter() - start < seconds, f"{args[:4]} took too long"
    return result


COMPILE_SECONDS = 900
"""Commands that search (match, review, compare) compile their numba kernels on a
machine's first run (a minute or more on a cold cache, as in CI); the tables tests time
only that they end."""


def error_lines(result: Result) -> list[str]:
    """The non-blank lines on standard error (Ctrl-C adds a blank one after ``^C``)."""
    return [line for line in result.stderr.splitlines() if line.strip()]


def assert_bad_input(result: Result, *fragments: str) -> str:
    """Status 2, no traceback, exactly one short ``Error:`` line that holds ``fragments``."""
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert result.exit_code == EXIT_BAD_INPUT, result.output
    lines = error_lines(result)
    assert len(lines) == 1, result.stderr
    line = lines[0]
    assert line.startswith("Error: "), line
    assert len(line) <= LONGEST_ERROR, f"{len(line)} characters: {line[:200]}"
    for fragment in fragments:
        assert fragment in line, line
    return line


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every case runs in its own directory (``kalah play`` writes lastgame.klh)."""
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def record(tmp_path: Path) -> Path:
    """A valid record of a short game on 2 pits x 2 stones."""
    path = tmp_path / "game.klh"
    path.write_text("Pits : 2\nSeeds : 2\n\n1) A: 1 B: 3\n2) A: 0\n")
    return path


def blocker(tmp_path: Path) -> Path:
    """A regular file: a path under it can be neither read nor written, even by root."""
    path = tmp_path / "a-file"
    path.write_text("x")
    return path


# --- every number option of every command -------------------------------------------------

BASE_ARGS: dict[str, list[str]] = {
    "kalah play": ["--record", "rec.klh"],
    "kalah replay": ["game.klh"],
    "kalah analyse": ["--board", "1 1 1 1"],
    "kalah perft": ["--depth", "1"],
    "kalah solve": ["--pits", "1", "--seeds", "1"],
    "kalah review": ["game.klh"],
    "kalah match": ["--games", "1", "--jobs", "1", "--a", "depth=1", "--b", "depth=1"],
    "nim play": [],
    "nim analyse": ["3"],
    "queens solve": ["-n", "4"],
    "queens count": ["-n", "4"],
    "compare kalah": ["--pits", "1", "--seeds", "1", "--depth", "1", "--engine", "python"],
    "compare nim": ["1"],
    "compare queens": ["-n", "4", "--methods", "naive"],
}
"""Every command, with arguments that make the rest of its command line valid."""

HOSTILE_NUMBERS = ["\u0663", "\uff13", "\u00b3", "", "x", "nan", LONG, "1e999"]
"""Not a number a board game reads: Arabic-Indic 3, fullwidth 3, superscript 3, empty,
a word, NaN, 5000 digits, infinity (as a float)."""


def _command(path: str) -> click.Command:
    command: click.Command = cli
    for name in path.split():
        assert isinstance(command, click.Group)
        found = command.get_command(click.Context(command), name)
        assert found is not None, path
        command = found
    return command


def _number_options() -> list[tuple[str, str]]:
    """(command, option) for every int or float option of every command."""
    out = []
    for path in BASE_ARGS:
        for param in _command(path).params:
            numeric = isinstance(param.type, click.types.IntParamType | click.types.FloatParamType)
            if isinstance(param, click.Option) and numeric:
                out.append((path, max(param.opts, key=len)))
    return out


NUMBER_OPTIONS = _number_options()


def test_every_command_and_its_number_options_are_covered() -> None:
    assert {c for c, _ in NUMBER_OPTIONS} >= set(BASE_ARGS) - {"kalah replay", "compare nim"}
    assert len(NUMBER_OPTIONS) >= 30


@pytest.mark.parametrize("value", HOSTILE_NUMBERS, ids=lambda v: ascii(v[:8]))
@pytest.mark.parametrize(
    ("command", "option"), NUMBER_OPTIONS, ids=[" ".join(p) for p in NUMBER_OPTIONS]
)
def test_hostile_numbers_in_options(command: str, option: str, value: str, record: Path) -> None:
    result = invoke([*command.split(), *BASE_ARGS[command], option, value])
    assert_bad_input(result, "Invalid value for", option)


def test_non_ascii_digits_say_what_is_allowed() -> None:
    line = assert_bad_input(invoke(["queens", "solve", "-n", "\u0668"]))
    assert "is not a number: write numbers with the digits 0-9" in line
    line = assert_bad_input(invoke(["kalah", "perft", "--depth", LONG]))
    assert "(5,000 characters) is too long for a number" in line
    line = assert_bad_input(invoke(["kalah", "play", "--pause", "nan"]))
    assert "'nan' is not a finite number" in line


def test_help_pages_still_show_the_ranges() -> None:
    result = invoke(["kalah", "perft", "--help"])
    assert result.exit_code == 0 and "0<=x<=30" in result.output


# --- boards --------------------------------------------------------------------------------

BAD_BOARDS = [
    ("", "give the board as 2m+2 whole numbers"),
    ("   ", "give the board as 2m+2 whole numbers"),
    (",,,", "give the board as 2m+2 whole numbers"),
    ("\u0663 \u0663 \u0663 \u0663", "'\u0663' is not a stone count"),
    ("\uff11 \uff11 \uff11 \uff11", "'\uff11' is not a stone count"),
    ("\u00b3 1 1 1", "'\u00b3' is not a stone count"),
    ("-1 1 1 1", "'-1' is not a stone count"),
    ("1.5 1 1 1", "'1.5' is not a stone count"),
    ("1\x001 1 1", "is not a stone count"),
    ("x" * 100_000, "(100,000 characters) is not a stone count"),
    ("1 2 3", "a board has 2m+2 holes"),
    ("1 1 1 1 1", "a board has 2m+2 holes"),
    (" ".join(["1"] * 28), "a board has 2m+2 holes"),
    ("0 0 0 0", "a board holds 1 to 480 stones"),
    ("999999 1 1 1", "a board holds 1 to 480 stones"),
    ("9999999 1 1 1", "stones in one hole are far more than any board holds"),
    (LONG + " 1 1 1", "(5,000 digits) stones in one hole are far more"),
]


@pytest.mark.parametrize(("board", "reason"), BAD_BOARDS, ids=lambda v: ascii(v[:12]))
@pytest.mark.parametrize("command", ["analyse", "solve"])
def test_bad_boards(command: str, board: str, reason: str) -> None:
    assert_bad_input(invoke(["kalah", command, "--board", board]), reason)


# --- records -------------------------------------------------------------------------------

BAD_RECORDS: list[tuple[str, bytes, str]] = [
    ("empty", b"", "an empty record: no headers and no moves"),
    ("blank", b"\n  \n\r\n", "an empty record"),
    ("comments", b"# nothing here\n#\n", "an empty record"),
    ("nul", b"\x00" * 64, "not a text file"),
    ("binary", b"\xff\xfe\x00\x01garbage", "not a text file"),
    ("pits twice", b"Pits : 6\nPits : 4\n", "the header 'Pits' again (first on line 1)"),
    ("first twice", b"First : A\nFirst : B\n", "the header 'First' again"),
    ("rules twice", b"Rules : classic\nRULES : etudes\n", "the header 'RULES' again"),
    ("arabic pits", "Pits : \u0663\n".encode(), "Pits must be a whole number from 1 to 12"),
    ("arabic pit", "1) A: \u0663 B: 8\n".encode(), "is not a pit number (pits are written 0-9)"),
    ("arabic number", "\u0661) A: 0 1 B: 7\n".encode(), "expected a header such as"),
    ("long seeds", b"Seeds : " + LONG.encode(), "Seeds must be a whole number"),
    ("long pit", b"1) A: " + LONG.encode(), "is beyond any board"),
    ("long move number", LONG.encode() + b") A: 0 1\n", "move number 1 expected, found"),
    ("long line", b"A" * 1_000_000, "cannot read 'AAAA"),
    ("too big", b"# padding\n" * 300_000, "too big for a game record"),
    ("illegal", b"1) A: 0 1 B: 7\n2) A: 1 B: 8\n", "line 2: A's move 1: pit 1 is empty"),
    ("header late", b"1) A: 0 1 B: 7\nPits : 6\n", "headers come first"),
    ("no pits", b"Pits : 0\n", "Pits must be a whole number from 1 to 12, got '0'"),
    ("rules", b"Rules : oware\n", "Rules must be classic or etudes"),
    ("extra turn", b"1) A: 0 B: 7\n", "ends with an extra turn"),
    ("order", b"1) B: 7 A: 0 1\n", "in that order"),
    ("two boms", "\ufeff\ufeffPits : 6\n".encode(), "expected a header"),
]


def _write(tmp_path: Path, content: bytes) -> Path:
    path = tmp_path / "bad.klh"
    path.write_bytes(content)
    return path


@pytest.mark.parametrize(("content", "reason"), [r[1:] for r in BAD_RECORDS],
                         ids=[r[0] for r in BAD_RECORDS])  # fmt: skip
def test_replay_bad_records(tmp_path: Path, content: bytes, reason: str) -> None:
    path = _write(tmp_path, content)
    assert_bad_input(invoke(["kalah", "replay", str(path)]), f"{path}: ", reason)


@pytest.mark.parametrize(("content", "reason"), [r[1:] for r in BAD_RECORDS],
                         ids=[r[0] for r in BAD_RECORDS])  # fmt: skip
def test_review_bad_records_are_one_line(tmp_path: Path, content: bytes, reason: str) -> None:
    """``kalah review`` reads records with the same reader: the same one-line reasons."""
    path = _write(tmp_path, content)
    result = invoke(["kalah", "review", str(path)])
    assert "Traceback" not in result.output
    assert result.exit_code == 2
    lines = error_lines(result)
    assert len(lines) == 1 and lines[0].startswith(f"Error: {path}: ") and reason in lines[0]


def test_review_bad_record_exit_status_is_2(tmp_path: Path) -> None:
    assert_bad_input(invoke(["kalah", "review", str(_write(tmp_path, b""))]), "an empty record")


def _paths(tmp_path: Path) -> list[tuple[str, str]]:
    """(path, reason) of files that cannot be read as records."""
    missing = tmp_path / "missing.klh"
    return [
        ("", "the file name is empty"),
        ("  ", "the file name is empty"),
        (str(tmp_path), "is a directory"),
        (str(blocker(tmp_path) / "x.klh"), "cannot read it: Not a directory"),
        (str(missing), "cannot read it: No such file or directory"),
        (os.devnull, "an empty record"),
        ("/dev/zero", "more than 2 MiB: too big for a game record"),
    ]


def test_replay_bad_paths(tmp_path: Path) -> None:
    for path, reason in _paths(tmp_path):
        assert_bad_input(invoke(["kalah", "replay", path]), reason)


def test_review_bad_paths_are_one_line(tmp_path: Path) -> None:
    for path, reason in _paths(tmp_path)[2:]:  # review takes "" as the directory "."
        result = invoke(["kalah", "review", path])
        assert "Traceback" not in result.output and result.exit_code == 2, path
        lines = error_lines(result)
        assert len(lines) == 1 and reason in lines[0], (path, result.stderr)


def test_review_empty_file_name() -> None:
    assert_bad_input(invoke(["kalah", "review", ""]), "the file name is empty")


# --- where kalah play writes its record ----------------------------------------------------


def test_play_record_paths_that_cannot_be_written(tmp_path: Path) -> None:
    cases = [
        ("", "the file name is empty; give one, e.g. --record game.klh"),
        ("   ", "the file name is empty"),
        (str(tmp_path), "is a directory"),
        (".", "is a directory"),
        ("/", "is a directory"),
        (str(blocker(tmp_path) / "x.klh"), "cannot write the record to"),
        (str(tmp_path / "no-such-dir" / "x.klh"), "No such file or directory"),
    ]
    for path, reason in cases:
        result = invoke(["kalah", "play", "--a", "human", "--b", "human", "--record", path])
        assert_bad_input(result, "--record", reason)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]  # nothing left behind


# --- Nim rows ------------------------------------------------------------------------------

BAD_ROWS = [
    ("\u0663", "'\u0663' is not a number of chips"),
    ("\uff13", "'\uff13' is not a number of chips"),
    ("\u00b3", "'\u00b3' is not a number of chips"),
    ("x", "'x' is not a number of chips"),
    ("1.5", "'1.5' is not a number of chips"),
    ("", "'' is not a number of chips"),
    ("3,4", "'3,4' is not a number of chips"),
    ("0x3", "'0x3' is not a number of chips"),
    ("1_0", "'1_0' is not a number of chips"),
    (LONG, "(5,000 characters) is far more chips than a row may hold"),
]


@pytest.mark.parametrize(("row", "reason"), BAD_ROWS, ids=lambda v: ascii(v[:8]))
@pytest.mark.parametrize("command", [["nim", "analyse"], ["nim", "play"], ["compare", "nim"]])
def test_bad_nim_rows(command: list[str], row: str, reason: str) -> None:
    assert_bad_input(invoke([*command, "3", row]), reason)


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["nim", "play", "0"], "row 1 has 0 chips; a row holds 1 to 20"),
        (["nim", "play", "21"], "row 1 has 21 chips; a row holds 1 to 20"),
        (["nim", "analyse", "3", "21"], "row 2 has 21 chips; a row holds 0 to 20"),
        (["nim", "analyse", *["1"] * 15], "15 rows given; at most 14"),
        (["nim", "analyse", "1", "--max-rows", "0"], "--max-rows must be between 1 and 100"),
        (["nim", "play", "1", "--max-chips", "1001"], "--max-chips must be between 1 and 1000"),
        (["compare", "nim", "0", "0"], "every row is empty"),
        (["compare", "nim", "999999999"], "exhaustive search is limited to 200,000"),
        (["compare", "nim", "--", "-1"], "row 1 has -1 chips"),
    ],
)
def test_nim_layouts_out_of_range(args: list[str], reason: str) -> None:
    assert_bad_input(invoke(args), reason)


# --- other options -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["kalah", "play", "--pits", "0"], "pits must be 1 to 12 a side, got 0"),
        (["kalah", "play", "--seeds", "21"], "seeds must be 1 to 20 a pit, got 21"),
        (["kalah", "play", "--first", "c"], "Invalid value for '--first'"),
        (["kalah", "play", "--rules", ""], "Invalid value for '--rules'"),
        (["kalah", "analyse", "--board", "1 1 1 1", "--seeds", "3"], "leave out --seeds"),
        (["kalah", "analyse", "--pits", "13"], "pits must be 1 to 12 a side, got 13"),
        (["kalah", "perft"], "Missing option '--depth'"),
        (["kalah", "perft", "--depth", "31"], "0<=x<=30"),
        (["kalah", "replay"], "Missing argument 'FILE'"),
        (["kalah", "solve", "--board", "1 1 1 1", "--pits", "2"], "leave out --pits"),
        (["kalah", "solve", "--endgame", "x"], "--endgame must be auto or a number"),
        (["kalah", "solve", "--endgame", "99"], "--endgame must be auto or a number"),
        (["kalah", "match", "--games", "0"], "--games must be 1 to 100000"),
        (["kalah", "match", "--a", "speed=3"], "use key=value with keys"),
        (["kalah", "match", "--a", "depth=x"], "depth needs a number"),
        (["kalah", "match", "--a", "time=nan"], "time must be more than 0"),
        (["kalah", "match", "--a", "tt=inf"], "table size must be more than 0"),
        (["kalah", "match", "--a", "depth=0"], "depth must be 1 to 200"),
        (["kalah", "match", "--a", "eval=best"], "unknown evaluation 'best'"),
        (["kalah", "match", "--a", ",,=,,"], "bad player spec part '='"),
        (["kalah", "match", "--jobs", "-1"], "--jobs must be 1 to 256 processes"),
        (["kalah", "match", "--jobs", "0"], "--jobs must be 1 to 256 processes"),
        (["kalah", "match", "--jobs", "100000"], "--jobs must be 1 to 256 processes"),
        (["queens", "solve", "-n", "0"], "N must be from 1 to 29"),
        (["queens", "solve", "-n", "30"], "N must be from 1 to 29"),
        (["queens", "count", "-n", "28"], "N must be from 1 to 27"),
        (["queens", "solve", "--format", "xml"], "Invalid value for '--format'"),
        (["queens", "solve", "--limit", "0"], "x>=1"),
        (["queens", "count", "--method", "naive", "--workers", "1"], "parallel methods only"),
        (["compare", "queens", "--methods", ""], "unknown method (none)"),
        (["compare", "queens", "--methods", "naive,naive"], "each method may appear once"),
        (["compare", "queens", "--plot", "x.svg"], "the file name must end in .png"),
        (["compare", "kalah", "--strategies", ",,,"], "give at least one strategy"),
        (["compare", "kalah", "--strategies", "best"], "unknown strategy 'best'"),
        (["compare", "kalah", "--engine", "gpu"], "unknown engine 'gpu'"),
        (["compare", "kalah", "--depth", "41"], "--depth must be 0 to 40"),
        (["compare", "kalah", "--positions", "1001"], "--positions must be 0 to 1000"),
        (["compare", "kalah", "--tt", "0"], "--tt must be more than 0"),
        (["nosuch"], "No such command 'nosuch' (see 'cli --help')"),
        (["kalah", "nosuch"], "No such command 'nosuch'"),
        (["kalah", "play", "--nosuch"], "No such option '--nosuch'"),
        (["compare"], "Missing command"),
        (["cache"], "Missing command"),
        (["cache", "clean"], "say what to remove: --stale, --all, --table"),
        (["cache", "clean", "--table", ""], "'' is not a table: write PITSpSTONESs"),
        (["cache", "clean", "--table", LONG], "is not a table: write PITSpSTONESs"),
        (["cache", "clean", "--table", "\u0666p22s"], "is not a table: write PITSpSTONESs"),
        (["cache", "verify", "--table", "6p999s"], "is not a table: write PITSpSTONESs"),
        (["cache", "verify", "--stamp", "--json"], "--stamp with --json cannot ask: add --yes"),
        (["cache", "list", "--nosuch"], "No such option '--nosuch'"),
    ],
    ids=lambda v: " ".join(v)[:40] if isinstance(v, list) else "",
)
def test_bad_options(args: list[str], reason: str) -> None:
    if args in (["compare"], ["cache"]):  # a group without a command shows its help
        result = invoke(args)
        assert result.exit_code == EXIT_BAD_INPUT and "Usage:" in result.stderr
        return
    assert_bad_input(invoke(args), reason)


@pytest.mark.parametrize(
    "args",
    [
        ["kalah", "match", "--a", "depth=1,depth=2", "--games", "1", "--jobs", "1"],
        ["kalah", "match", "--a", "depth=" + LONG],
        ["compare", "kalah", "--strategies", "x" * 5000],
        ["compare", "queens", "--methods", "x" * 5000],
    ],
    ids=["match spec key twice", "match spec long number", "long strategy", "long method"],
)
def test_hostile_lists_and_specs(args: list[str]) -> None:
    assert_bad_input(invoke(args))


@pytest.mark.parametrize("value", ["\u0663", LONG], ids=["arabic-indic", "5000 digits"])
@pytest.mark.parametrize("command", ["kalah solve", "kalah review"])
def test_endgame_option_is_an_ascii_number(command: str, value: str, record: Path) -> None:
    result = invoke([*command.split(), *BASE_ARGS[command], "--endgame", value])
    assert_bad_input(result, "--endgame must be auto or a number")


def test_plot_paths(tmp_path: Path) -> None:
    kalah = BASE_ARGS["compare kalah"]
    result = invoke(["compare", "kalah", *kalah, "--plot", str(tmp_path)])
    assert_bad_input(result, "is a directory")
    result = invoke(["compare", "queens", "-n", "4", "--plot", str(tmp_path)])
    assert_bad_input(result, "is a directory")


def test_unwritable_plot_path_is_bad_input(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    target = str(blocker(tmp_path) / "x.png")
    assert_bad_input(invoke(["compare", "kalah", *BASE_ARGS["compare kalah"], "--plot", target]))
    assert_bad_input(
        invoke(["compare", "queens", "-n", "4", "--methods", "naive", "--plot", target])
    )


# --- interactive prompts -------------------------------------------------------------------

KALAH_BAD_LINES = [
    ("\u0663", "type the number of one of your pits (0 to 5)"),
    ("\uff13", "type the number of one of your pits (0 to 5)"),
    ("\u00b3", "type the number of one of your pits (0 to 5)"),
    ("99", "pit 99 is not one of A's pits (0 to 5)"),
    ("7", "pit 7 is not one of A's pits"),
    (LONG, "type the number of one of your pits (0 to 5)"),
    ("-1", "type the number of one of your pits"),
    ("1.5", "type the number of one of your pits"),
    ("0 1", "type the number of one of your pits"),
    ("x", "type the number of one of your pits"),
    ("\x00", "type the number of one of your pits"),
    ("x" * 1_000_000, "type the number of one of your pits"),
]


@pytest.mark.parametrize(("line", "reason"), KALAH_BAD_LINES, ids=lambda v: ascii(v[:8]))
def test_kalah_prompt_asks_again(tmp_path: Path, line: str, reason: str) -> None:
    path = tmp_path / "rec.klh"
    result = invoke(
        ["kalah", "play", "--a", "human", "--b", "human", "--record", str(path)],
        f"{line}\n0\nquit\n",
    )
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    assert result.output.count(reason) == 1, result.output
    assert len(max(result.output.splitlines(), key=len)) < 200  # the input is not echoed
    assert "1) A: 0" in path.read_text()  # asked again: the next line was played
    assert "Game stopped. The record so far is saved" in result.output


@pytest.mark.parametrize(
    ("text", "moves"), [("", None), ("\n\n   \n", None), ("0\n", "1) A: 0"), ("0\n1", "1) A: 0 1")]
)
def test_kalah_end_of_input_keeps_the_record(tmp_path: Path, text: str, moves: str | None) -> None:
    path = tmp_path / "rec.klh"
    result = invoke(["kalah", "play", "--a", "human", "--b", "human", "--record", str(path)], text)
    assert result.exit_code == 0 and result.stderr == "", result.output
    assert "Game stopped. The record so far is saved" in result.output
    saved = path.read_text()
    assert saved.startswith("Rules : classic\n")
    assert (moves in saved) if moves else ") A:" not in saved
    assert invoke(["kalah", "replay", str(path)]).exit_code == 0  # and it replays


NIM_BAD_LINES = [
    ("\u0663 \u0661", "type a row and a count with the digits 0-9"),
    ("1", "type a row and a count"),
    ("1 2 3", "type a row and a count"),
    ("x y", "type a row and a count"),
    ("1 -1", "row 1 has 3 chips; take 1 to 3"),
    ("1 0", "row 1 has 3 chips; take 1 to 3"),
    ("1 4", "row 1 has 3 chips; take 1 to 3"),
    ("9 1", "there is no row 9; rows are numbered 1 to 3"),
    ("0 1", "there is no row 0"),
    (LONG + " 1", "there is no row '99999"),
    ("1 " + LONG, "row 1 has 3 chips; take 1 to 3"),
    ("\x00", "type a row and a count"),
]


@pytest.mark.parametrize(("line", "reason"), NIM_BAD_LINES, ids=lambda v: ascii(v[:8]))
def test_nim_prompt_asks_again(line: str, reason: str) -> None:
    result = invoke(["nim", "play"], f"{line}\n1 1\nquit\n")
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    assert result.output.count(reason) == 1, result.output
    assert len(max(result.output.splitlines(), key=len)) < 200
    assert "You play 1 1 (take 1 from row 1)." in result.output  # asked again
    assert "Goodbye." in result.output


def test_nim_new_layout_asks_again_until_valid_or_empty() -> None:
    script = ["new", "\u0663", LONG, "0", "1 " * 15, "x", "", "new", "2 2", "quit"]
    result = invoke(["nim", "play"], "\n".join(script) + "\n")
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    for reason in (
        "'\u0663' is not a number of chips",
        "is far more chips than a row may hold",
        "row 1 has 0 chips",
        "15 rows given",
        "'x' is not a number of chips",
    ):
        assert reason in result.output
    assert "Nim with rows 2 2" in result.output and "Goodbye." in result.output


@pytest.mark.parametrize("text", ["", "\n\n", "1 1\n", "new\n"])
def test_nim_end_of_input_leaves_cleanly(text: str) -> None:
    result = invoke(["nim", "play"], text)
    assert result.exit_code == 0 and result.stderr == "" and "Goodbye." in result.output


# --- one exit status per outcome, whatever the command ----------------------------------------


def _raise(error: BaseException):  # type: ignore[no-untyped-def]
    def fail(*args: object, **kwargs: object) -> None:
        raise error

    return fail


@pytest.mark.parametrize(
    ("error", "status", "line"),
    [
        (KeyboardInterrupt(), EXIT_INTERRUPTED, STOPPED_LINE),
        (KeyboardInterrupt("Stopped after 3 s."), EXIT_INTERRUPTED, "Stopped after 3 s."),
        (click.Abort(), EXIT_INTERRUPTED, STOPPED_LINE),
        (EOFError(), EXIT_INTERRUPTED, "Stopped (end of input)."),
        (None, EXIT_BAD_INPUT, "Error: the position is not a position"),
        (PermissionError(13, "Permission denied", "out"), 1, "Error: out: Permission denied"),
        (SystemExit(1), 1, None),
        (SystemExit("a message"), 1, "a message"),
    ],
    ids=["ctrl-c", "ctrl-c-said", "abort", "eof", "game-error", "os-error", "exit-1", "exit-msg"],
)
def test_exit_statuses_are_central(
    monkeypatch: pytest.MonkeyPatch, error: BaseException | None, status: int, line: str | None
) -> None:
    from boardgames.core.protocol import GameError
    from boardgames.nim import cli as nim_cli

    error = error if error is not None else GameError("the position is not a position")
    monkeypatch.setattr(nim_cli, "analysis", _raise(error))
    result = invoke(["nim", "analyse", "3", "4", "5"])
    assert result.exit_code == status and "Traceback" not in result.output
    assert error_lines(result) == ([line] if line else [])
    assert "Aborted!" not in result.output


def test_ctrl_c_caught_by_a_command_still_gives_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """kalah play catches Ctrl-C at its prompt and says so itself; the status is 130."""
    from boardgames.core import console as kalah_cli  # the play loop's prompt

    def press_ctrl_c(*args: object) -> str:
        signal.raise_signal(signal.SIGINT)
        time.sleep(5)  # the signal's KeyboardInterrupt ends this
        raise AssertionError("no KeyboardInterrupt")

    monkeypatch.setattr(kalah_cli, "ask", press_ctrl_c)
    path = tmp_path / "rec.klh"
    result = invoke(["kalah", "play", "--a", "human", "--b", "human", "--record", str(path)])
    assert result.exit_code == EXIT_INTERRUPTED, result.output
    assert "Game stopped. The record so far is saved" in result.output
    assert STOPPED_LINE not in result.output  # the command said it already
    assert path.read_text().startswith("Rules : classic")
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back


# --- tables that do not fit 80 columns ----------------------------------------------------------


def _table_commands(tmp_path: Path) -> dict[str, list[str]]:
    game = Kalah(3, 2)
    state, moves = game.initial_state(), []
    while game.outcome(state) is None:  # always the last compound move: a whole game
        player = game.to_move(state)
        pits, state = game.compound_moves(state)[-1]
        moves.append(Move(player, pits))
    record = tmp_path / "game.klh"
    Record(game, 0, ("human", "human"), moves).save(record)
    return {
        "match": ["kalah", "match", "--games", "1", "--jobs", "1", "--pits", "2", "--seeds", "1",
                  "--a", "depth=1", "--b", "depth=1"],
        "compare kalah": ["compare", "kalah", "--pits", "2", "--seeds", "2", "--depth", "2",
                          "--engine", "python"],
        "compare nim": ["compare", "nim", "3", "4", "5"],
        "compare queens": ["compare", "queens", "-n", "6", "--methods", "naive,tables,bitmask"],
        "review": ["kalah", "review", str(record), "--endgame", "0"],
    }  # fmt: skip


CUT_NUMBER = re.compile(r"[0-9][0-9.,×x%+-]*…")


@pytest.mark.parametrize("width", [80, 60])
@pytest.mark.parametrize(
    "name", ["match", "compare kalah", "compare nim", "compare queens", "review"]
)
def test_tables_fit_without_cutting_numbers(tmp_path: Path, name: str, width: int) -> None:
    args = _table_commands(tmp_path)[name]
    result = invoke(args, env={"COLUMNS": str(width), "NO_COLOR": "1"}, seconds=COMPILE_SECONDS)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= width
    assert not CUT_NUMBER.search(result.stdout), result.stdout
    if width >= 80:
        assert "…" not in result.stdout, result.stdout  # no header or word cut either


def test_match_table_leaves_columns_out_and_says_so(tmp_path: Path) -> None:
    args = _table_commands(tmp_path)["match"]
    out = invoke(args, env={"COLUMNS": "60", "NO_COLOR": "1"}, seconds=COMPILE_SECONDS).stdout
    assert "95% interval" in out and "s/move" not in out.split("a: depth")[0]
    assert "(narrow terminal: s/move avg, s/move max left out; wider shows all)" in " ".join(
        " ".join(line.split()) for line in out.splitlines()
    ).replace("  ", " ")
    wide = invoke(args, env={"COLUMNS": "120", "NO_COLOR": "1"}).stdout
    assert "s/move" in wide and "narrow terminal" not in wide


@pytest.mark.parametrize("width", range(50, 125, 5))
def test_fit_tables_never_cut_a_number(width: int) -> None:
    """The three result tables of core/compare.py and kalah match, at every width: each
    number cell is shown whole, or its column is left out and the caption says so."""
    from rich.console import Console

    from boardgames.core.compare import COMPARE_COLUMNS, MCTS_COLUMNS
    from boardgames.core.tables import FitTable
    from boardgames.kalah.cli.match import MATCH_COLUMNS

    samples = {
        COMPARE_COLUMNS: ("alphabeta", "python", "win by at least 12", "12,345,678", "123.4567",
                          "1,234,567", "1,234.5×"),
        MCTS_COLUMNS: ("mcts", "12", "11", "0.587 (drawn)", "53%", "yes", "200,000", "293,726"),
        MATCH_COLUMNS: ("a", "1000", "0", "999", "+14.00", "0.512", "0.456-0.568", "0.701",
                        "12.345"),
    }  # fmt: skip
    for columns, row in samples.items():
        table = FitTable(columns, title="a title", caption="a caption")
        table.add_row(*row)
        console = Console(width=width, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
        console.print(table)
        out = console.export_text()
        assert max(len(line) for line in out.splitlines()) <= width
        flat = " ".join(out.split())
        note = flat.split("(narrow terminal: ")[1] if "narrow terminal" in flat else ""
        for col, cell in zip(columns, row, strict=True):
            if col.number:
                assert cell in out or col.name in note, (width, cell, out)
        assert not CUT_NUMBER.search(out), out


# --- the real program: exit statuses, signals and huge input through a subprocess ------------


def run_program(
    args: list[str], text: str = "", seconds: float = 30.0
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100"}
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "boardgames", *args],
        input=text,
        capture_output=True,
        text=True,
        timeout=seconds,
        env=env,
    )
    assert time.perf_counter() - start < seconds
    return done


def test_program_bad_input_is_one_line_and_status_2(tmp_path: Path) -> None:
    cases = [
        (["kalah", "play", "--record", ""], "the file name is empty"),
        (["kalah", "replay", "/dev/zero"], "too big for a game record"),
        (["kalah", "replay", os.devnull], "an empty record"),
        (["nim", "analyse", "3", "\u0663"], "'\u0663' is not a number of chips"),
        (["queens", "solve", "-n", LONG], "too long for a number"),
        (["kalah", "analyse", "--board", LONG], "stones in one hole are far more"),
    ]
    for args, reason in cases:
        done = run_program(args)
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        assert done.returncode == EXIT_BAD_INPUT, (args[:3], done.stderr)
        assert len(lines) == 1 and lines[0].startswith("Error: ") and reason in lines[0]
        assert done.stdout == ""


def test_program_end_of_input_and_huge_input_on_stdin(tmp_path: Path) -> None:
    path = tmp_path / "rec.klh"
    args = ["kalah", "play", "--a", "human", "--b", "human", "--record", str(path)]
    done = run_program(args, "x" * 2_000_000 + "\n" + "9" * 100_000 + "\n0\n")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "1) A: 0" in path.read_text()
    done = run_program(["nim", "play"], "\u0663 \u0661\n")
    assert done.returncode == 0 and done.stderr == "" and "Goodbye." in done.stdout


def _interrupt(args: list[str], ready: str) -> tuple[int, str, str]:
    """Start the program, wait until it prints ``ready``, press Ctrl-C (SIGINT)."""
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "boardgames", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    seen = ""
    deadline = time.monotonic() + 30
    while ready not in seen and time.monotonic() < deadline:
        char = proc.stdout.read(1)
        if not char:
            break
        seen += char
    assert ready in seen, seen
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    return proc.returncode, seen + out, err


def test_program_ctrl_c_is_130_everywhere(tmp_path: Path) -> None:
    path = tmp_path / "rec.klh"
    code, out, err = _interrupt(
        ["kalah", "play", "--a", "human", "--b", "human", "--record", str(path)], "quit: "
    )
    assert code == EXIT_INTERRUPTED and "Traceback" not in err
    assert "Game stopped. The record so far is saved" in out and path.exists()
    code, out, err = _interrupt(["nim", "play"], "quit: ")
    assert code == EXIT_INTERRUPTED and "Goodbye." in out and "Traceback" not in err
