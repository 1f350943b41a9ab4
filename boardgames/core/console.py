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
    """The person left: end of input (Ctrl-D) or Ctrl-C at a prompt (``interrupted``)."""

    def __init__(self, interrupted: bool = False) -> None:
        super().__init__("Stopped (Ctrl-C)." if interrupted else "End of input.")
        self.interrupted = interrupted


def file_name(example: str) -> Callable[[click.Context, click.Parameter, str], Path]:
    """A click callback for a file-name option or argument: the name as a Path; an empty
    name is a usage error (``Path("")`` would be the current directory)."""

    def check(ctx: click.Context, param: click.Parameter, value: str) -> Path:
        if not value.strip():
            raise click.BadParameter(f"the file name is empty; give one, e.g. {example}")
        return Path(value)

    return check


MIN_COLUMNS = 40
"""A narrower ``COLUMNS`` is read as this: at 1 column every character is a line."""
MAX_COLUMNS = 10000
"""A wider ``COLUMNS`` is read as this (a progress bar is drawn as wide as the line)."""


def _asked_size(name: str, low: int, high: int) -> int | None:
    """The number in the environment variable ``name`` (``COLUMNS``, ``LINES``) held to
    ``low``..``high``; None when it is unset or not a whole number above 0 (``abc``,
    ``-5``, ``0``: ignored, as if unset)."""
    text = os.environ.get(name, "").strip()
    if not text.isascii() or not text.isdigit() or int(text) == 0:
        return None
    return max(low, min(int(text), high))


def _terminal_size(stderr: bool) -> tuple[int, int]:
    """The terminal's columns and lines, whatever ``COLUMNS`` and ``LINES`` say; 80 x 25
    for a file or a pipe."""
    for stream in (sys.stderr if stderr else sys.stdout, sys.stdout, sys.stderr):
        try:
            size = os.get_terminal_size(stream.fileno())
        except (AttributeError, ValueError, OSError):
            continue
        if size.columns > 0 and size.lines > 0:
            return size.columns, size.lines
    return 80, 25


def make_console(stderr: bool = False) -> Console:
    """A rich console; colour follows the terminal and NO_COLOR (rich reads both).

    Printed to a file or a pipe with no width asked for (``COLUMNS``), a long line stays
    one line (``soft_wrap``): rich would otherwise cut it at 80 columns for a reader that
    may be a script or ``grep``. Tables and panels keep their width (80 columns).
    ``COLUMNS`` and ``LINES`` that are not sizes (``0``, ``abc``, ``-5``) are ignored; a
    width below :data:`MIN_COLUMNS` or above :data:`MAX_COLUMNS` is read as that bound."""
    width = _asked_size("COLUMNS", MIN_COLUMNS, MAX_COLUMNS)
    height = _asked_size("LINES", 1, MAX_COLUMNS)
    console = Console(stderr=stderr, highlight=False, width=width, height=height)
    # rich reads a bad value itself (COLUMNS=0 prints nothing): the real size instead
    if "COLUMNS" in os.environ and width is None:
        console.width = _terminal_size(stderr)[0]
    if "LINES" in os.environ and height is None:
        console.height = _terminal_size(stderr)[1]
    if not console.is_terminal and width is None:
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
    taken for the end of input), so no input can fill the memory. An answer that cannot
    be decoded is read as U+FFFD (refused by every prompt, which asks again)."""
    try:
        if sys.stdin is not None and sys.stdin.isatty():
            return console.input(prompt)
        return console.input(prompt, stream=_BoundedInput())  # type: ignore[arg-type]
    except UnicodeDecodeError:
        # bytes the input's encoding cannot read, where the command line's funnel did not
        # make them U+FFFD: an answer no prompt accepts, so it is refused and asked again
        console.print()
        return "\ufffd"
    except (EOFError, KeyboardInterrupt, OSError) as e:
        console.print()
        raise EndOfInput(isinstance(e, KeyboardInterrupt)) from None


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
