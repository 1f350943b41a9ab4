"""Text from outside (a file, the command line, a record's player name) made safe to show
on a terminal: control characters escaped, and cut to a length a one-line message can
hold. Standard library only: the command line's error funnel uses it."""

from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")

MESSAGE_LIMIT = 300
"""Characters of an error line at most (hostile input can be megabytes long)."""


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, limit: int | None = None) -> str:
    """``text`` with every control character (escape sequences, carriage returns, line
    breaks, NUL...) written as ``\\xNN``, so that it cannot move the cursor, recolour the
    terminal or break a line; cut to ``limit`` characters with a note of the full length."""
    cut = limit is not None and len(text) > limit
    shown = _CONTROL.sub(_escape, text[:limit] if cut else text)
    return f"{shown}... ({len(text):,} characters)" if cut else shown


def one_line(message: str, limit: int = MESSAGE_LIMIT) -> str:
    """A message made one short line: control characters escaped, cut to ``limit``."""
    return printable(message, limit)
