"""Any bytes on any encoding, option values that begin with dashes, and output names that
name a folder (issue 50): one line saying what is allowed, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgames.cli import cli
from boardgames.core.registry import Option

PROMPT = b"quit: "


@pytest.mark.parametrize(
    ("env", "answer"),
    [
        ({"PYTHONIOENCODING": "ascii"}, "é".encode()),
        ({"PYTHONIOENCODING": "utf-8"}, b"\xff"),
        ({"PYTHONIOENCODING": "latin-1", "LC_ALL": "C"}, b"\xff\xfe"),
        ({"PYTHONIOENCODING": "utf-8"}, b"1 \xc3"),  # a character cut in two
    ],
    ids=["e-acute-under-ascii", "ff-under-utf8", "latin-1", "cut-utf8"],
)
def test_undecodable_input_at_a_prompt_is_asked_again(env: dict[str, str], answer: bytes) -> None:
    """The prompt refuses the answer as any other bad answer and asks again (before: a
    UnicodeDecodeError traceback)."""
    r = subprocess.run(
        [sys.executable, "-m", "boardgames", "play", "nim"],
        input=answer + b"\nquit\n",
        capture_output=True,
        env={**os.environ, **env, "BOARDGAMES_BACKGROUND_WARM": "0"},
        timeout=60,
    )
    out = r.stdout + r.stderr
    assert b"Traceback" not in out, out.decode("utf-8", "replace")
    assert r.returncode == 0, out
    assert r.stdout.count(PROMPT) == 2  # asked again after the bad answer


def invoke(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(cli, list(args))
    assert "Traceback" not in r.output
    return r.exit_code, r.output


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["analyse", "nim", "--rows", "--3 4"], "rows must be a whole number, got '--3'"),
        (["analyse", "nim", "--rows", "3 ---"], "rows must be a whole number, got '---'"),
        (["play", "nim", "--rows=--3"], "rows must be a whole number, got '--3'"),
        (["analyse", "kalah", "--pits=--3"], "'--3' is not a whole number from 1 to 12"),
        (["analyse", "kalah", "--pits=-x"], "'-x' is not a whole number from 1 to 12"),
        (["connect4", "solve", "1", "--hash=--5"], "'--5' is not a number from 1 to 65536"),
        (["queens", "solve", "-n", "--8"], "'--8' is not a whole number"),
    ],
)
def test_option_values_that_begin_with_dashes_get_the_options_words(
    args: list[str], said: str
) -> None:
    """(before: Python's ``invalid literal for int() with base 10: '--3'``, or click's
    ``is not a valid integer range``)"""
    code, output = invoke(*args)
    assert code == 2, output
    assert said in output
    assert "int()" not in output and "integer range" not in output
    assert len(output.strip().splitlines()) == 1


def test_a_negative_number_is_still_said_to_be_out_of_range() -> None:
    code, output = invoke("analyse", "kalah", "--pits=-3")
    assert code == 2 and "-3 is not in the range 1<=x<=12" in output


@pytest.mark.parametrize(
    "value",
    ["--3", "-", "+", "3-", "١٢", "1e3", "0x10", "1_0", " ", 10**5000, -(10**5000)],
    ids=lambda v: ascii(v) if isinstance(v, str) else f"int of {v.bit_length()} bits",
)
def test_option_convert_refuses_in_its_own_words(value: object) -> None:
    option = Option("rows", "int", 3, "rows", low=1, high=20)
    with pytest.raises(ValueError, match=r"^rows must be") as e:
        option.convert(value)
    assert "int()" not in str(e.value) and "limit" not in str(e.value)
    assert len(str(e.value)) < 100


def test_option_convert_keeps_what_is_a_number() -> None:
    option = Option("rows", "ints", (3,), "rows", low=1, high=20)
    assert option.convert("+3, 4 0020") == (3, 4, 20)
    assert Option("n", "int", 3, "n", low=1, high=20).convert(" +7 ") == 7
    assert Option("n", "int", 3, "n", low=-5, high=20).convert("-5") == -5


@pytest.mark.parametrize("name", ["new/", "new//", "deeper/new/"])
def test_kalah_dataset_refuses_an_output_that_names_a_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """``new/`` names a folder even when none exists: refused before any work, and no
    file ``new`` is written (before: a file named ``new``)."""
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["kalah", "dataset", name, "--positions", "5"])
    assert r.exit_code == 2, r.output
    assert "names a folder" in r.output and "give a file name" in r.output
    assert list(tmp_path.iterdir()) == []


def test_a_prompt_outside_the_command_line_refuses_undecodable_bytes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``ask`` with a strict standard input (no funnel made it lenient): U+FFFD, refused by
    every prompt, never a UnicodeDecodeError."""
    import io

    from boardgames.core.console import ask, make_console

    strict = io.TextIOWrapper(io.BytesIO(b"\xff\n"), encoding="utf-8", errors="strict")
    monkeypatch.setattr("sys.stdin", strict)
    assert ask(make_console(), "move: ") == "\ufffd"


@pytest.mark.parametrize(
    "args",
    [
        ["analyse", "nim", "--svg"],
        ["play", "nim", "--record"],
        ["kalah", "analyse", "--svg"],
        ["kalah", "replay", "lastgame.klh", "--svg"],
        ["kalah", "review", "lastgame.klh", "--plot"],
        ["compare", "kalah", "--plot"],
    ],
    ids=lambda a: " ".join(a[:2]),
)
def test_an_output_named_as_a_folder_is_refused_before_any_work(
    args: list[str], tmp_path: Path
) -> None:
    """'new/' names a folder: refused in one line (status 2), no file 'new' written."""
    target = tmp_path / "new"
    result = CliRunner().invoke(cli, [*args, f"{target}/"])
    assert result.exit_code == 2, result.output
    assert "names a folder" in result.output and "Traceback" not in result.output
    assert not target.exists()
