"""Terminal helpers shared by the games' commands: one console, prompts, clean errors."""

from __future__ import annotations

import json
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
    """A rich console; colour follows the terminal and NO_COLOR (rich reads both)."""
    return Console(stderr=stderr, highlight=False)


def ask(console: Console, prompt: str) -> str:
    """Read one line after ``prompt``; raise :class:`EndOfInput` on Ctrl-D or Ctrl-C."""
    try:
        return console.input(prompt)
    except (EOFError, KeyboardInterrupt):
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
