"""Reading the JSON the page sends: every value checked, every fault one clear line.

:class:`BadInput` carries the HTTP status (400 unless said otherwise) and the message; the
app turns it into ``{"error": message}``.
"""

from __future__ import annotations

import json
import math
from typing import Any

from boardgames.web.security import MAX_BODY, too_big


class BadInput(ValueError):
    """A request the server refuses: ``status`` and a one-line ``message``."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def parse_json(body: bytes, limit: int = MAX_BODY) -> dict[str, Any]:
    """The request's JSON object (at most ``limit`` bytes); BadInput for anything else."""
    if len(body) > limit:
        raise BadInput(too_big(limit), 413)
    if not body.strip():
        raise BadInput("the request has no body: send a JSON object")
    try:
        data = json.loads(body.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BadInput("the request body is not valid JSON") from None
    if not isinstance(data, dict):
        raise BadInput("the request body must be a JSON object")
    if not _unicode(data):
        raise BadInput(
            "the request body holds text that is not Unicode (a lone surrogate such as "
            "\\ud800): send UTF-8 text"
        )
    return data


def _unicode(data: Any) -> bool:
    """False when a text (a key or a value) anywhere in ``data`` holds a lone surrogate,
    which JSON's ``\\u`` escapes allow but UTF-8 cannot carry (nor an answer quote)."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not item.isascii():
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError:
                    return False
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number")


def whole(
    data: dict[str, Any],
    key: str,
    lo: int,
    hi: int,
    default: int | None = None,
    name: str | None = None,
) -> int:
    """``data[key]`` as a whole number from ``lo`` to ``hi`` (``default`` when absent);
    errors call it ``name`` (the page's words for the field), else ``key``."""
    value = data.get(key, default)
    name = name or key
    if value is None:
        raise BadInput(f"{name} is missing: give a whole number from {lo} to {hi}")
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"{name} must be a whole number from {lo} to {hi}")
    if not lo <= value <= hi:
        raise BadInput(f"{name} must be from {lo:,} to {hi:,}, got {_short(value)}")
    return value


def number(
    data: dict[str, Any], key: str, lo: float, hi: float, default: float | None = None
) -> float:
    """``data[key]`` as a finite number in ``(lo, hi]`` -- ``lo`` itself is refused."""
    value = data.get(key, default)
    if value is None:
        raise BadInput(f"{key} is missing: give a number above {lo:g}, at most {hi:g}")
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise BadInput(f"{key} must be a number above {lo:g}, at most {hi:g}")
    if not math.isfinite(value) or not lo < value <= hi:
        raise BadInput(f"{key} must be above {lo:g} and at most {hi:g}, got {_short(value)}")
    return float(value)


def choice(
    data: dict[str, Any], key: str, allowed: tuple[str, ...], default: str | None = None
) -> str:
    value = data.get(key, default)
    if not isinstance(value, str) or value not in allowed:
        raise BadInput(f"{key} must be one of {', '.join(allowed)}")
    return value


def flag(data: dict[str, Any], key: str, default: bool = False) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise BadInput(f"{key} must be true or false")
    return value


def int_list(data: dict[str, Any], key: str, lo: int, hi: int, most: int) -> list[int]:
    """``data[key]`` as a list of at most ``most`` whole numbers from ``lo`` to ``hi``."""
    value = data.get(key, [])
    if not isinstance(value, list):
        raise BadInput(f"{key} must be a list of whole numbers")
    if len(value) > most:
        raise BadInput(f"{key} holds {len(value):,} numbers; at most {most:,}")
    for k, item in enumerate(value):
        if isinstance(item, bool) or not isinstance(item, int) or not lo <= item <= hi:
            raise BadInput(f"{key}[{k}] must be a whole number from {lo} to {hi}")
    return list(value)


def text(data: dict[str, Any], key: str, most: int) -> str:
    """``data[key]`` as text of at most ``most`` bytes in UTF-8 (413 beyond)."""
    value = data.get(key)
    if not isinstance(value, str):
        raise BadInput(f"{key} must be text")
    if len(value) > most or len(value.encode("utf-8", "surrogatepass")) > most:
        raise BadInput(f"{key} is too big (at most {most:,} bytes, as a game record)", 413)
    return value


def _short(value: object) -> str:
    shown = repr(value)
    return shown if len(shown) <= 24 else shown[:20] + "..."
