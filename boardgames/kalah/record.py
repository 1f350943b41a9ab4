"""Kalah game records (``.klh``, RULES.md section 3): write, read, check.

A record is headers (``Key : value``) followed by numbered lines of compound moves,
``1) A: 0 1 B: 7``; a game that B starts begins with ``1) B: ...``; the last line may hold
one side only. Blank lines and lines starting with ``#`` are ignored; so is a ``...``
token among the pits (the elision RULES.md uses in its example). Unknown headers are
kept and otherwise ignored. Missing headers take the defaults (classic, 6 pits, 6 seeds,
first mover from the first move line).

Reading never raises anything but :class:`RecordError`, whose message starts with the
line number.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from boardgames.core.protocol import GameError, State
from boardgames.kalah.game import MAX_PITS, MAX_SEEDS, MIN_PITS, MIN_SEEDS, PLAYER_NAMES, Kalah
from boardgames.kalah.rules import RULE_SETS

DEFAULT_RECORD = "lastgame.klh"

_MOVE_LINE = re.compile(r"^(\d+)\)\s*(.*)$")
_HEADER = re.compile(r"^([A-Za-z][A-Za-z ]*?)\s*:\s*(.*?)\s*$")
_SIDE = re.compile(r"([AB])\s*:")


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
        """Write the record, replacing the file in one step (a crash leaves a whole file)."""
        target = Path(path)
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(self.text(), encoding="utf-8")
        os.replace(tmp, target)


def _side_text(move: Move) -> str:
    return f"{PLAYER_NAMES[move.player]}: " + " ".join(map(str, move.pits))


def _int_header(key: str, value: str, line: int, lo: int, hi: int) -> int:
    if not value.isdecimal() or not lo <= int(value) <= hi:
        raise RecordError(line, f"{key} must be a whole number from {lo} to {hi}, got {value!r}")
    return int(value)


def parse_record(text: str) -> Record:
    """Read a record's headers and moves (syntax only; :func:`replay` checks the moves)."""
    rules, pits, seeds = "classic", 6, 6
    first: int | None = None
    players = ["?", "?"]
    extra: dict[str, str] = {}
    moves: list[Move] = []
    expected_number = 1
    last_line_one_side: int | None = None
    for n, raw in enumerate(text.splitlines(), 1):
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
            number = int(match.group(1))
            if number != expected_number:
                raise RecordError(n, f"move number {expected_number} expected, found {number}")
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
        if low == "rules":
            if value.lower() not in RULE_SETS:
                raise RecordError(n, f"Rules must be {' or '.join(RULE_SETS)}, got {value!r}")
            rules = value.lower()
        elif low == "pits":
            pits = _int_header("Pits", value, n, MIN_PITS, MAX_PITS)
        elif low == "seeds":
            seeds = _int_header("Seeds", value, n, MIN_SEEDS, MAX_SEEDS)
        elif low == "first":
            if value.upper() not in PLAYER_NAMES:
                raise RecordError(n, f"First must be A or B, got {value!r}")
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
    if first is None:
        first = moves[0].player if moves else 0
    return Record(Kalah(pits, seeds, rules), first, (players[0], players[1]), moves, extra)


def _parse_sides(body: str, n: int) -> list[Move]:
    parts = _SIDE.split(body)
    if parts[0].strip():
        raise RecordError(n, f"expected 'A:' or 'B:' before {parts[0].strip()!r}")
    moves = []
    for side, pits_text in zip(parts[1::2], parts[2::2], strict=True):
        words = [w for w in pits_text.split() if w != "..."]
        if not all(w.isdecimal() for w in words):
            bad = next(w for w in words if not w.isdecimal())
            raise RecordError(n, f"{side}'s move: {bad!r} is not a pit number")
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

    The callers name the file; the message says why it could not be read.
    """
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise RecordError(None, "not a text file (a record is UTF-8 text)") from None
    except OSError as e:
        raise RecordError(None, f"cannot read it: {e.strerror or e}") from None
    return parse_record(text)
