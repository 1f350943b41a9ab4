"""Kalah game records (``.klh``, RULES.md section 3): write, read, check.

A record is headers (``Key : value``) followed by numbered lines of compound moves,
``1) A: 0 1 B: 7``; a game that B starts begins with ``1) B: ...``; the last line may hold
one side only. Blank lines and lines starting with ``#`` are ignored; so is a ``...``
token among the pits (the elision RULES.md uses in its example). Unknown headers are
kept and otherwise ignored. Missing headers take the defaults (classic, 6 pits, 6 seeds,
first mover from the first move line).

Reading never raises anything but :class:`RecordError`, whose message starts with the
line number where one line is at fault (not for a file that is empty, too big or binary).

A header given twice is an error (which of the two would count?), and so is a file with
neither headers nor moves: a record always has headers (``kalah play`` writes them before
the first move). Pits and numbers are ASCII digits, as RULES.md writes them. A record is a
small text file: :func:`read_record` reads at most :data:`MAX_RECORD_BYTES` (and one byte
more, to tell), never the whole of an endless stream such as ``/dev/zero``.
"""

from __future__ import annotations

import errno
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from boardgames.core.protocol import GameError, State, quote
from boardgames.kalah.game import MAX_PITS, MAX_SEEDS, MIN_PITS, MIN_SEEDS, PLAYER_NAMES, Kalah
from boardgames.kalah.rules import RULE_SETS

DEFAULT_RECORD = "lastgame.klh"
MAX_RECORD_BYTES = 2 * 2**20
"""The largest record :func:`read_record` accepts (2 MiB; a long game is a few KiB)."""

_MOVE_LINE = re.compile(r"^([0-9]+)\)\s*(.*)$")
_HEADER = re.compile(r"^([A-Za-z][A-Za-z ]*?)\s*:\s*(.*?)\s*$")
_SIDE = re.compile(r"([AB])\s*:")
_NUMBER = re.compile(r"[0-9]+")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


class RecordError(GameError):
    """A bad record: the message says which line and why."""

    def __init__(self, line: int | None, reason: str) -> None:
        self.line = line
        self.reason = reason
        super().__init__(f"line {line}: {reason}" if line else reason)


@dataclass
class Move:
    """One compound move of a record: the player (0 = A, 1 = B), its pits, its line."""

    player: int
    pits: tuple[int, ...]
    line: int = 0


@dataclass
class Record:
    """A game: its setup, who moved first, free-form headers and the compound moves."""

    game: Kalah = field(default_factory=Kalah)
    first: int = 0
    players: tuple[str, str] = ("human", "program")
    moves: list[Move] = field(default_factory=list)
    extra_headers: dict[str, str] = field(default_factory=dict)

    def text(self) -> str:
        """The record in the RULES.md section 3 format."""
        g = self.game
        lines = [
            f"Rules : {g.rules}",
            f"Pits : {g.pits}",
            f"Seeds : {g.seeds}",
            f"Player A : {self.players[0]}",
            f"Player B : {self.players[1]}",
            f"First : {PLAYER_NAMES[self.first]}",
            *(f"{k} : {v}" for k, v in self.extra_headers.items()),
            "",
        ]
        number = 0
        i = 0
        while i < len(self.moves):
            number += 1
            move = self.moves[i]
            parts = [_side_text(move)]
            i += 1
            if move.player == 0 and i < len(self.moves):
                parts.append(_side_text(self.moves[i]))
                i += 1
            lines.append(f"{number}) " + " ".join(parts))
        return "\n".join(lines) + "\n"

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the record, replacing the file in one step (a crash leaves a whole file).

        A path that exists but is no regular file (``/dev/null``, a pipe) is written to
        directly: it is never replaced. OSError when the record cannot be written (an
        empty path is ``EINVAL``, a directory ``EISDIR``); no temporary file is left.
        """
        if not os.fspath(path):
            raise OSError(errno.EINVAL, "no file name given")
        target = Path(path)
        if target.is_dir() or not target.name:  # also "/", "." and ".."
            raise OSError(errno.EISDIR, os.strerror(errno.EISDIR), os.fspath(path))
        if target.exists() and not target.is_file():
            with open(target, "w", encoding="utf-8") as f:
                f.write(self.text())
            return
        target = target.resolve() if target.is_symlink() else target
        tmp = target.with_name(target.name + ".tmp")
        try:
            tmp.write_text(self.text(), encoding="utf-8")
            os.replace(tmp, target)
        except OSError:
            tmp.unlink(missing_ok=True)
            raise


def _side_text(move: Move) -> str:
    return f"{PLAYER_NAMES[move.player]}: " + " ".join(map(str, move.pits))


def _small_int(digits: str) -> int | None:
    """The value of an ASCII digit string, or None when it has more than 9 digits (beyond
    every limit of a record; Python refuses to convert more than 4300)."""
    return int(digits) if len(digits) <= 9 else None


def _int_header(key: str, value: str, line: int, lo: int, hi: int) -> int:
    number = _small_int(value) if _NUMBER.fullmatch(value) else None
    if number is None or not lo <= number <= hi:
        raise RecordError(
            line, f"{key} must be a whole number from {lo} to {hi}, got {quote(value)}"
        )
    return number


def parse_record(text: str) -> Record:
    """Read a record's headers and moves (syntax only; :func:`replay` checks the moves)."""
    if "\x00" in text:
        raise RecordError(None, "not a text file (it holds NUL bytes; a record is UTF-8 text)")
    rules, pits, seeds = "classic", 6, 6
    first: int | None = None
    players = ["?", "?"]
    extra: dict[str, str] = {}
    moves: list[Move] = []
    expected_number = 1
    last_line_one_side: int | None = None
    seen: dict[str, int] = {}
    for n, raw in enumerate(_LINE_BREAK.split(text), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if last_line_one_side is not None:
            raise RecordError(
                last_line_one_side,
                "only one side's move on this line; only the last line may hold one side",
            )
        match = _MOVE_LINE.match(line)
        if match:
            number = _small_int(match.group(1))
            if number != expected_number:
                found = match.group(1) if number is not None else quote(match.group(1))
                raise RecordError(n, f"move number {expected_number} expected, found {found}")
            line_moves = _parse_sides(match.group(2), n)
            players_here = [mv.player for mv in line_moves]
            if number == 1 and players_here == [1]:
                pass  # B moves first
            elif players_here == [0]:
                last_line_one_side = n
            elif players_here != [0, 1]:
                allowed = "'A: ... B: ...'" + (" or 'B: ...'" if number == 1 else "")
                raise RecordError(n, f"a move line holds {allowed} in that order")
            moves.extend(line_moves)
            expected_number += 1
            continue
        header = _HEADER.match(line)
        if not header:
            raise RecordError(
                n,
                f"cannot read {line[:40]!r}: expected a header such as 'Pits : 6' "
                "or a move line such as '1) A: 0 1 B: 7'",
            )
        if moves:
            raise RecordError(n, "a header after the moves; headers come first")
        key, value = header.group(1).strip(), header.group(2)
        low = " ".join(key.lower().split())
        if low in seen:
            raise RecordError(
                n,
                f"the header {quote(key)} again (first on line {seen[low]}); "
                "give each header once",
            )
        seen[low] = n
        if low == "rules":
            if value.lower() not in RULE_SETS:
                raise RecordError(n, f"Rules must be {' or '.join(RULE_SETS)}, got {quote(value)}")
            rules = value.lower()
        elif low == "pits":
            pits = _int_header("Pits", value, n, MIN_PITS, MAX_PITS)
        elif low == "seeds":
            seeds = _int_header("Seeds", value, n, MIN_SEEDS, MAX_SEEDS)
        elif low == "first":
            if value.upper() not in PLAYER_NAMES:
                raise RecordError(n, f"First must be A or B, got {quote(value)}")
            first = PLAYER_NAMES.index(value.upper())
        elif low in ("player a", "player b"):
            players[0 if low.endswith("a") else 1] = value
        else:
            extra[key] = value
    if moves and first is not None and moves[0].player != first:
        raise RecordError(
            moves[0].line,
            f"the header says {PLAYER_NAMES[first]} moves first, "
            f"but the first move is {PLAYER_NAMES[moves[0].player]}'s",
        )
    if not seen and not moves:
        raise RecordError(
            None,
            "an empty record: no headers and no moves (a record starts with headers such as "
            "'Pits : 6', then move lines such as '1) A: 0 1 B: 7')",
        )
    if first is None:
        first = moves[0].player if moves else 0
    return Record(Kalah(pits, seeds, rules), first, (players[0], players[1]), moves, extra)


def _parse_sides(body: str, n: int) -> list[Move]:
    parts = _SIDE.split(body)
    if parts[0].strip():
        raise RecordError(n, f"expected 'A:' or 'B:' before {quote(parts[0].strip())}")
    moves = []
    for side, pits_text in zip(parts[1::2], parts[2::2], strict=True):
        words = [w for w in pits_text.split() if w != "..."]
        bad = next((w for w in words if not _NUMBER.fullmatch(w)), None)
        if bad is not None:
            raise RecordError(
                n, f"{side}'s move: {quote(bad)} is not a pit number (pits are written 0-9)"
            )
        huge = next((w for w in words if _small_int(w) is None), None)
        if huge is not None:
            raise RecordError(
                n,
                f"{side}'s move: pit {quote(huge)} is beyond any board (pits are numbered "
                f"0 to {2 * MAX_PITS})",
            )
        if not words:
            raise RecordError(n, f"{side}'s move has no pits")
        moves.append(Move(PLAYER_NAMES.index(side), tuple(int(w) for w in words), n))
    if not moves:
        raise RecordError(n, "a move line needs 'A:' and/or 'B:' with pit numbers")
    return moves


@dataclass
class ReplayStep:
    """A compound move as replayed: who, which pits, the position after it."""

    player: int
    pits: tuple[int, ...]
    state: State


def replay(record: Record) -> tuple[list[ReplayStep], State]:
    """Check every move of ``record`` from the start; the steps and the last position.

    Every compound move must be legal and complete (the turn passes or the game ends after
    its last pit); only the record's last move may stop while its player still has the move.
    """
    game = record.game
    state = game.initial_state(record.first)
    steps: list[ReplayStep] = []
    for k, move in enumerate(record.moves):
        name = PLAYER_NAMES[move.player]
        if game.outcome(state) is not None:
            raise RecordError(move.line, f"{name}'s move {_pits(move)}: the game is already over")
        if game.to_move(state) != move.player:
            raise RecordError(
                move.line,
                f"{name}'s move {_pits(move)}: it is {PLAYER_NAMES[game.to_move(state)]}'s turn",
            )
        try:
            state = game.play_compound(state, move.pits)
        except GameError as e:
            raise RecordError(move.line, f"{name}'s move {_pits(move)}: {e}") from None
        last = k == len(record.moves) - 1
        if not last and game.outcome(state) is None and game.to_move(state) == move.player:
            raise RecordError(
                move.line,
                f"{name}'s move {_pits(move)} ends with an extra turn; "
                f"{name} must go on sowing before the turn passes",
            )
        steps.append(ReplayStep(move.player, move.pits, state))
    return steps, state


def _pits(move: Move) -> str:
    return " ".join(map(str, move.pits))


def read_record(path: str | os.PathLike[str]) -> Record:
    """Read and parse a record file; RecordError (no line number) when it cannot be read.

    The callers name the file; the message says why it could not be read. At most
    :data:`MAX_RECORD_BYTES` are read: a bigger file (or an endless stream) is refused.
    """
    if not os.fspath(path):
        raise RecordError(None, "no file name given; name a .klh record")
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_RECORD_BYTES + 1)
    except OSError as e:
        raise RecordError(None, f"cannot read it: {e.strerror or e}") from None
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(
            None,
            f"more than {MAX_RECORD_BYTES // 2**20} MiB: too big for a game record "
            "(a record is a small text file)",
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RecordError(None, "not a text file (a record is UTF-8 text)") from None
    return parse_record(text)
