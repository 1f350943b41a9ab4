"""Kalah game records (``.klh``, RULES.md section 3): write, read, check.

A record is headers (``Key : value``) followed by numbered lines of compound moves,
``1) A: 0 1 B: 7``; a game that B starts begins with ``1) B: ...``; the last line may hold
one side only. Blank lines and lines starting with ``#`` are ignored; so is a ``...``
token among the pits (the elision RULES.md uses in its example). Unknown headers are
kept and otherwise ignored. Missing headers take the defaults (classic, 6 pits, 6 seeds,
first mover from the first move line).

A finished game ends with its final stores, ``Final : A 32 B 40`` (the writer adds it
once the moves end the game; ``A 32, B 40`` and ``A - 32, B - 40`` read too);
:func:`replay` checks it against the moves. ``Note : text`` lines (any number, among the
headers or after the moves) are kept in :attr:`Record.notes`. Records as the classic
(Russian) program printed them read as they stand: ``Игрок A : Программа`` is
``Player A`` (``program (Программа)``; ``Человек`` is a human), ``Первым ходил игрок A``
is ``First : A``, ``Камней по окончании игры: в калахе А - 32, в калахе B - 40`` is the
final score and ``Партия игралась с MAXLEVEL, равным 5.`` a note. In these lines the
player letters may be Latin or Cyrillic look-alikes (А, В), as the printed record mixes
them. After the moves only the final score and notes may come, the final score once.

Reading never raises anything but :class:`RecordError`, whose message starts with the
line number where one line is at fault (not for a file that is empty, too big or binary).

A header given twice is an error (which of the two would count?), and so is a file with
neither headers nor moves: a record always has headers (``kalah play`` writes them before
the first move). Pits and numbers are ASCII digits, as RULES.md writes them. A record is a
small text file: :func:`read_record` reads at most :data:`MAX_RECORD_BYTES` (and one byte
more, to tell), never the whole of an endless stream such as ``/dev/zero``. One leading
byte-order mark is ignored.
"""

from __future__ import annotations

import errno
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from boardgames.core.protocol import GameError, State, quote
from boardgames.kalah.game import MAX_PITS, MAX_SEEDS, MIN_PITS, MIN_SEEDS, PLAYER_NAMES, Kalah
from boardgames.kalah.rules import RULE_SETS

DEFAULT_RECORD = "lastgame.klh"
MAX_RECORD_BYTES = 2 * 2**20
"""The largest record :func:`read_record` accepts (2 MiB; a long game is a few KiB)."""

_MOVE_LINE = re.compile(r"^([0-9]+)\)\s*(.*)$")
_HEADER_KEY = re.compile(r"[A-Za-z][A-Za-z ]*")  # the key of ``Key : value``
_SIDE = re.compile("([AB\u0410\u0412])\\s*:")  # Cyrillic look-alikes too
_NUMBER = re.compile(r"[0-9]+")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")

# The player letters of the classic (Russian) records: Latin or Cyrillic look-alikes.
_LETTERS = {"A": 0, "\u0410": 0, "B": 1, "\u0412": 1}
_A = "[A\u0410]"
_B = "[B\u0412]"
_SCORE = "([0-9]{1,9})"
_DASH = "[-\u2013\u2014]"
_KALAH = r"(?:в\s+калахе\s+)?"  # "in the kalah of", as the classic record writes it
_FINAL_VALUE = re.compile(
    rf"^{_KALAH}{_A}\s*{_DASH}?:?\s*{_SCORE}\s*[,;]?\s*{_KALAH}{_B}\s*{_DASH}?:?\s*{_SCORE}\s*\.?$",
    re.IGNORECASE,
)
_RU_PLAYER = re.compile(r"^(Игрок)\s+(\S+)\s*:\s*(.*?)$", re.IGNORECASE)
_RU_FIRST = re.compile(r"^(Первым\s+ходил\s+игрок)\s+(.*?)\.?$", re.IGNORECASE)
_RU_FINAL = re.compile(r"^(Камней\s+по\s+окончании\s+игры)\s*:\s*(.*?)$", re.IGNORECASE)
_RU_NOTE = re.compile(r"^Партия\s+игралась\b", re.IGNORECASE)
_RU_PLAYER_KINDS = {"программа": "program", "человек": "human"}


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
    """A game: its setup, who moved first, free-form headers and the compound moves.

    ``final`` is the final score (A's store, B's store) that the record states, if it
    states one (``final_line`` is where); :func:`replay` checks it. ``notes`` are the
    record's ``Note`` lines (the classic program's ``MAXLEVEL`` line is one).
    """

    game: Kalah = field(default_factory=Kalah)
    first: int = 0
    players: tuple[str, str] = ("human", "program")
    moves: list[Move] = field(default_factory=list)
    extra_headers: dict[str, str] = field(default_factory=dict)
    final: tuple[int, int] | None = None
    final_line: int = 0
    notes: list[str] = field(default_factory=list)

    def played_final(self) -> tuple[int, int] | None:
        """The final stores (A, B) that the moves reach; None when they do not end the game
        (or are not a legal game)."""
        try:
            _, state = _replay_moves(self)
        except RecordError:
            return None
        return self.game.final_stores(state)

    def text(self) -> str:
        """The record in the RULES.md section 3 format; a finished game ends with its
        ``Final`` line (the stores its moves reach)."""
        g = self.game
        lines = [
            f"Rules : {g.rules}",
            f"Pits : {g.pits}",
            f"Seeds : {g.seeds}",
            f"Player A : {self.players[0]}",
            f"Player B : {self.players[1]}",
            f"First : {PLAYER_NAMES[self.first]}",
            *(f"{k} : {v}" for k, v in self.extra_headers.items()),
            *(f"Note : {' '.join(note.split())}" for note in self.notes),
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
        final = self.played_final() if self.moves else None
        if final is not None:
            lines += ["", f"Final : {_score_text(final, ' ')}"]
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
        if target.is_symlink():
            try:
                target = target.resolve()
            except RuntimeError:  # a symlink loop (Python < 3.13 raises this)
                raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), os.fspath(path)) from None
        # a short name beside the target: the target's own name may already be at the limit
        tmp = target.with_name(f".boardgames-record-{os.getpid()}.tmp")
        try:
            tmp.write_text(self.text(), encoding="utf-8")
            os.replace(tmp, target)
        except OSError:
            tmp.unlink(missing_ok=True)
            raise


def _score_text(stores: tuple[int, int], separator: str = ", ") -> str:
    return f"A {stores[0]}{separator}B {stores[1]}"


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


def _letter(text: str) -> int | None:
    """0 for A, 1 for B (Latin or Cyrillic, any case), None for anything else."""
    return _LETTERS.get(text.upper())


def _classic_line(line: str, n: int) -> tuple[str, str, str] | None:
    """A line in the classic (Russian) program's words as (what it is, its key as written,
    its value): ``player a``/``player b``/``first`` headers, the ``final`` score or a
    ``note``; None for any other line."""
    if m := _RU_PLAYER.match(line):
        side = _letter(m.group(2))
        if side is None:
            raise RecordError(
                n, f"{m.group(1)} (player) must be followed by A or B, got {quote(m.group(2))}"
            )
        value = m.group(3)
        kind = _RU_PLAYER_KINDS.get(value.lower())
        value = f"{kind} ({value})" if kind else value
        return f"player {'ab'[side]}", f"{m.group(1)} {PLAYER_NAMES[side]}", value
    if m := _RU_FIRST.match(line):
        side = _letter(m.group(2))
        if side is None:
            raise RecordError(
                n, f"{m.group(1)} (first) must be followed by A or B, got {quote(m.group(2))}"
            )
        return "first", m.group(1), PLAYER_NAMES[side]
    if m := _RU_FINAL.match(line):
        return "final", m.group(1), m.group(2)
    if _RU_NOTE.match(line):
        return "note", "", line
    return None


def _final_score(value: str, n: int) -> tuple[int, int]:
    text = " ".join(value.split())  # short and single-spaced: the pattern stays fast
    match = _FINAL_VALUE.match(text) if len(text) <= 80 else None
    if not match:
        raise RecordError(
            n, f"cannot read the final score {quote(value)}: write it as 'Final : A 32 B 40'"
        )
    return int(match.group(1)), int(match.group(2))


def parse_record(text: str) -> Record:
    """Read a record's headers, moves, final score and notes (syntax only; :func:`replay`
    checks the moves and the final score)."""
    if "\x00" in text:
        raise RecordError(None, "not a text file (it holds NUL bytes; a record is UTF-8 text)")
    text = text.removeprefix("\ufeff")
    rules, pits, seeds = "classic", 6, 6
    first: int | None = None
    players = ["?", "?"]
    extra: dict[str, str] = {}
    moves: list[Move] = []
    notes: list[str] = []
    final: tuple[int, int] | None = None
    final_line = 0
    closed_at = 0  # the first line after the moves that is not a move (final score or note)
    expected_number = 1
    last_line_one_side: int | None = None
    seen: dict[str, tuple[int, str]] = {}
    for n, raw in enumerate(_LINE_BREAK.split(text), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        match = _MOVE_LINE.match(line)
        if match:
            if closed_at:
                what = "final score" if closed_at == final_line else "note"
                raise RecordError(
                    n,
                    f"a move line after the {what} on line {closed_at}; "
                    "the moves come before the final score and notes",
                )
            if last_line_one_side is not None:
                raise RecordError(
                    last_line_one_side,
                    "only one side's move on this line; only the last line may hold one side",
                )
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
        classic = _classic_line(line, n)
        if classic is not None:
            low, key, value = classic
        else:
            # split by hand: a pattern for the whole line is slow on long runs of spaces
            key, colon, value = line.partition(":")
            key, value = key.rstrip(), value.strip()
            if not colon or not _HEADER_KEY.fullmatch(key):
                raise RecordError(
                    n,
                    f"cannot read {line[:40]!r}: expected a header such as 'Pits : 6' "
                    "or a move line such as '1) A: 0 1 B: 7'",
                )
            low = " ".join(key.lower().split())
        if low == "note":
            notes.append(value)
            closed_at = closed_at or (n if moves else 0)
            continue
        if low == "final":
            if not moves:
                raise RecordError(n, "a final score before the moves; it comes after them")
            if final is not None:
                raise RecordError(
                    n, f"a second final score (the first is on line {final_line}); give it once"
                )
            final, final_line = _final_score(value, n), n
            closed_at = closed_at or n
            continue
        if moves:
            raise RecordError(n, "a header after the moves; headers come first")
        if low in seen:
            first_line, first_key = seen[low]
            same = first_key.lower().split() == key.lower().split()
            as_written = "" if same else f" as {quote(first_key)}"
            raise RecordError(
                n,
                f"the header {quote(key)} again (first on line {first_line}{as_written}); "
                "give each header once",
            )
        seen[low] = (n, key)
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
    if not seen and not moves and not notes:
        raise RecordError(
            None,
            "an empty record: no headers and no moves (a record starts with headers such as "
            "'Pits : 6', then move lines such as '1) A: 0 1 B: 7')",
        )
    if first is None:
        first = moves[0].player if moves else 0
    game = Kalah(pits, seeds, rules)
    return Record(game, first, (players[0], players[1]), moves, extra, final, final_line, notes)


def _parse_sides(body: str, n: int) -> list[Move]:
    parts = _SIDE.split(body)
    if parts[0].strip():
        raise RecordError(n, f"expected 'A:' or 'B:' before {quote(parts[0].strip())}")
    moves = []
    for letter, pits_text in zip(parts[1::2], parts[2::2], strict=True):
        side = PLAYER_NAMES[_LETTERS[letter]]
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
    A final score in the record must be the one the moves reach (the error names both).
    """
    steps, state = _replay_moves(record)
    if record.final is not None:
        game = record.game
        played = game.final_stores(state)
        stated = _score_text(record.final)
        if played is None:
            b = game.board(state)
            raise RecordError(
                record.final_line or None,
                f"the record's final score is {stated}, but the game is not over after its "
                f"moves (stores A {b[game.pits]}, B {b[2 * game.pits + 1]}; "
                f"{PLAYER_NAMES[game.to_move(state)]} to move)",
            )
        if played != record.final:
            raise RecordError(
                record.final_line or None,
                f"the record's final score is {stated}, but its moves end {_score_text(played)}",
            )
    return steps, state


def _replay_moves(record: Record) -> tuple[list[ReplayStep], State]:
    """:func:`replay` without the check of the final score."""
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
        text = data.decode("utf-8")  # parse_record drops a byte-order mark
    except UnicodeDecodeError:
        raise RecordError(None, "not a text file (a record is UTF-8 text)") from None
    return parse_record(text)


class KalahRecords:
    """Kalah's record format for the generic layers (the plugin's ``records``: the play
    loop and the web page's download write it)."""

    suffix = ".klh"

    def text(
        self, game: Kalah, start: State, moves: Sequence[int], players: tuple[str, str]
    ) -> str | None:
        """The ``.klh`` record of ``moves`` from the start position; None for another
        start (a record holds games from the start only)."""
        first = game.to_move(start)
        if not (start == game.initial_state(first)).all():
            return None
        record = Record(game, first, players)
        state = start
        turn_open = False
        for pit in moves:
            player = game.to_move(state)
            if record.moves and turn_open and record.moves[-1].player == player:
                record.moves[-1].pits = (*record.moves[-1].pits, pit)
            else:
                record.moves.append(Move(player, (pit,)))
            state, turn_open = game.play(state, pit)
        return record.text()

    def read(self, game: Kalah, text: str) -> tuple[State, list[int]] | None:
        """The start and the sowings of a ``.klh`` record; None for the generic record."""
        if any(line.startswith("moves:") for line in text.splitlines()):
            return None
        record = parse_record(text)
        start = record.game.initial_state(record.first)
        return start, [pit for move in record.moves for pit in move.pits]


RECORDS = KalahRecords()
