"""Terminal helpers shared by the games' commands: one console, prompts, clean errors."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from rich.console import Console


class EndOfInput(Exception):
    """The person left: end of input (Ctrl-D) or Ctrl-C at a prompt."""


def file_name(example: str) -> Callable[[click.Context, click.Parameter, str], Path]:
    """A click callback for a file-name option or argument: the name as a Path; an empty
    name is a usage error (``Path("")`` would be the current directory)."""

    def check(ctx: click.Context, param: click.Parameter, value: str) -> Path:
        if not value.strip():
            raise click.BadParameter(f"the file name is empty; give one, e.g. {example}")
        return Path(value)

    return check


def make_console(stderr: bool = False) -> Console:
    """A rich console; colour follows the terminal and NO_COLOR (rich reads both).

    Printed to a file or a pipe with no width asked for (``COLUMNS``), a long line stays
    one line (``soft_wrap``): rich would otherwise cut it at 80 columns for a reader that
    may be a script or ``grep``. Tables and panels keep their width (80 columns)."""
    console = Console(stderr=stderr, highlight=False)
    if not console.is_terminal and not os.environ.get("COLUMNS"):
        console.soft_wrap = True
    return console


MAX_LINE = 65536
"""Characters of one answer that are read; the rest of a longer line is skipped (the
answer is then refused as the game refuses any other bad answer, and asked again)."""
MAX_UNENDING = 64 * 2**20
"""Characters read of one line before input that never ends a line (``</dev/zero``)
counts as the end of input."""


def _read_line() -> str:
    """One line from standard input, cut to :data:`MAX_LINE` characters (the rest of the
    line is read and dropped); input that never ends a line is the end of input."""
    line = sys.stdin.readline(MAX_LINE + 1)
    if line == "":
        raise EOFError
    if len(line) > MAX_LINE and not line.endswith("\n"):
        read = len(line)
        while True:
            chunk = sys.stdin.readline(MAX_LINE)
            read += len(chunk)
            if chunk == "" or chunk.endswith("\n"):
                break
            if read > MAX_UNENDING:
                raise EOFError
        line = line[:MAX_LINE]
    return line.rstrip("\r\n")


class _BoundedInput:
    """Standard input for :meth:`rich.console.Console.input`: lines of :func:`_read_line`."""

    def readline(self) -> str:
        return _read_line()


def ask(console: Console, prompt: str) -> str:
    """Read one line after ``prompt``; raise :class:`EndOfInput` on Ctrl-D or Ctrl-C.

    From a terminal, rich's line input; from a file or a pipe, a bounded read (at most
    :data:`MAX_LINE` characters of a line are kept, and input that never ends a line is
    taken for the end of input), so no input can fill the memory."""
    try:
        if sys.stdin is not None and sys.stdin.isatty():
            return console.input(prompt)
        return console.input(prompt, stream=_BoundedInput())  # type: ignore[arg-type]
    except (EOFError, KeyboardInterrupt, OSError):
        console.print()
        raise EndOfInput from None


def confirm(console: Console, prompt: str, default: bool = True) -> bool:
    """Ask a yes/no question until the answer is one of y, yes, n, no (or empty)."""
    suffix = " [Y/n] " if default else " [y/N] "
    while True:
        answer = ask(console, prompt + suffix).strip().lower()
        if not answer:
            return default
        if answer in ("y", "yes"):
            return True
        if answer in ("n", "no"):
            return False
        console.print("Please answer y or n.")


def print_json(obj: Any) -> None:
    """Exactly one JSON object on standard output."""
    sys.stdout.write(json.dumps(obj) + "\n")


def usage_error(message: str) -> click.UsageError:
    """A one-line error for bad options or arguments (click shows it without a traceback)."""
    return click.UsageError(message)
