"""Kalah as a game of the shared protocol: setup checks, states, moves and the board."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text

from boardgames.core.capabilities import Mark, as_marks, deprecated_keyword
from boardgames.core.protocol import GameError, State
from boardgames.core.svg import SVG
from boardgames.kalah import rules
from boardgames.kalah import svg as kalah_svg
from boardgames.kalah.eval import EVALUATION_FUNCTIONS, EVALUATIONS

MIN_PITS, MAX_PITS = 1, 12
MIN_SEEDS, MAX_SEEDS = 1, 20
MAX_STONES = 2 * MAX_PITS * MAX_SEEDS
"""Most stones a board may hold (the largest supported start position); bounds eval values."""

PLAYER_NAMES = ("A", "B")
CAPTURES = ("opposite", "empty")
"""Classic captures: ``opposite`` (RULES.md 1.3: only with a stone opposite) or ``empty``
(the "Solving Kalah" variant: a last stone in an own empty pit is always captured)."""


def split_side(text: str) -> tuple[list[str], int | None]:
    """A position's words (commas allowed) as its holes and the side to move its last word
    names (``A`` 0, ``B`` 1; None when it names none)."""
    words = text.replace(",", " ").split()
    if words and words[-1].upper() in PLAYER_NAMES:
        return words[:-1], PLAYER_NAMES.index(words[-1].upper())
    return words, None


def parse_board(text: str) -> list[int]:
    """Hole counts from ``"6 6 6 6 6 6 0 6 6 6 6 6 6 0"`` (commas allowed; digits 0-9:
    ``int()`` would also read '٣', RULES.md writes 0-9)."""
    words = text.replace(",", " ").split()
    bad = next((w for w in words if not (w.isascii() and w.isdigit())), "")
    if not words or bad:
        shown = repr(bad) if len(bad) <= 24 else f"{bad[:24]!r}... ({len(bad):,} characters)"
        what = f"{shown} is not a stone count; " if bad else ""
        raise GameError(
            f"{what}give the board as 2m+2 whole numbers, pits 0..2m+1 in RULES.md order, "
            "e.g. '6 6 6 6 6 6 0 6 6 6 6 6 6 0'"
        )
    # Python refuses to convert more than 4300 digits; 7 are already beyond any board
    huge = next((w for w in words if len(w) > 6), None)
    if huge is not None:
        shown = huge if len(huge) <= 24 else f"{huge[:24]}... ({len(huge):,} digits)"
        raise GameError(f"{shown} stones in one hole are far more than any board holds")
    n = len(words)
    if n % 2 or not 2 * MIN_PITS + 2 <= n <= 2 * MAX_PITS + 2:
        raise GameError(
            f"a board has 2m+2 holes for m = {MIN_PITS}..{MAX_PITS} pits a side "
            f"(4, 6, ..., {2 * MAX_PITS + 2} numbers), got {n}"
        )
    return [int(w) for w in words]


@dataclass(frozen=True)
class Kalah:
    """Kalah with ``pits`` pits a side, ``seeds`` stones a pit, ``rules`` classic or etudes.

    ``evaluation`` names the heuristic :meth:`evaluate` uses (see eval.py).

    State layout (numpy int64 array of length ``2m + 3``, m = pits): indices ``0..2m+1``
    are the board in the RULES.md numbering (``0..m-1`` A's pits, ``m`` A's store,
    ``m+1..2m`` B's pits, ``2m+1`` B's store); index ``2m + 2`` is the side to move
    (0 = A, 1 = B).

    A protocol move is one sowing given by the absolute index of the pit sown (A: 0..m-1,
    B: m+1..2m). In classic rules ``play`` reports ``again=True`` after an extra turn (the
    last stone in the own store and the game not over); in etudes rules a whole relay
    chain is one move and ``again`` is always False. Once the game is over the side to
    move is flipped as usual and there are no legal moves.
    """

    pits: int = 6
    seeds: int = 6
    rules: str = "classic"
    evaluation: str = "store"
    name: str = "kalah"
    empty_capture: bool = False
    """Classic rules variant of "Solving Kalah" (2000): a last stone in an own empty pit is
    captured even when the opposite pit is empty. Off by default (RULES.md)."""

    def __post_init__(self) -> None:
        if not isinstance(self.pits, int) or not MIN_PITS <= self.pits <= MAX_PITS:
            raise GameError(f"pits must be {MIN_PITS} to {MAX_PITS} a side, got {self.pits}")
        if not isinstance(self.seeds, int) or not MIN_SEEDS <= self.seeds <= MAX_SEEDS:
            raise GameError(f"seeds must be {MIN_SEEDS} to {MAX_SEEDS} a pit, got {self.seeds}")
        if self.rules not in rules.RULE_SETS:
            raise GameError(
                f"rules must be one of {', '.join(rules.RULE_SETS)}, got {self.rules!r}"
            )
        if self.evaluation not in EVALUATIONS:
            raise GameError(
                f"evaluation must be one of {', '.join(EVALUATIONS)}, got {self.evaluation!r}"
            )

    # --- layout helpers -----------------------------------------------------------------
    @property
    def size(self) -> int:
        """Holes on the board: ``2 * pits + 2``."""
        return 2 * self.pits + 2

    @property
    def total_stones(self) -> int:
        return 2 * self.pits * self.seeds

    @property
    def capture(self) -> str:
        """The plugin option ``capture``: ``empty`` when :attr:`empty_capture`, else
        ``opposite``."""
        return CAPTURES[1] if self.empty_capture else CAPTURES[0]

    def store_index(self, player: int) -> int:
        return rules.store_index(self.pits, player)

    def pit_range(self, player: int) -> range:
        return rules.pit_range(self.pits, player)

    def board(self, state: State) -> list[int]:
        """The ``2m + 2`` board holes of ``state`` as a list of ints."""
        return [int(x) for x in state[: self.size]]

    def make_state(self, board: list[int] | tuple[int, ...], to_move: int = 0) -> State:
        """A state from board holes (RULES.md numbering) and the side to move.

        Raises GameError unless there are ``2m + 2`` non-negative counts, at least one stone,
        at most :data:`MAX_STONES` in all, and ``to_move`` is 0 or 1.
        """
        if len(board) != self.size:
            raise GameError(
                f"a board with {self.pits} pits a side has {self.size} holes, got {len(board)}"
            )
        if any(x < 0 for x in board):
            raise GameError("stone counts cannot be negative")
        total = sum(board)
        if not 1 <= total <= MAX_STONES:
            raise GameError(f"a board holds 1 to {MAX_STONES} stones in all, got {total}")
        if to_move not in (0, 1):
            raise GameError("the side to move is 0 (A) or 1 (B)")
        return np.array([*board, to_move], dtype=np.int64)

    # --- position notation ---------------------------------------------------------------
    def parse_position(self, text: str) -> State:
        """A position from its holes in RULES.md order and the side to move, A unless the
        text ends with ``B``: ``"4 4 4 4 0 4 4 4 4 0 B"`` (commas allowed); empty: the
        start."""
        holes, side = split_side(text)
        if not holes:
            return self.initial_state()
        return self.make_state(parse_board(" ".join(holes)), 0 if side is None else side)

    def position_options(self, text: str) -> dict[str, Any]:
        """The pits a side a board of another size implies (``2m + 2`` holes)."""
        holes = len(split_side(text)[0])
        if holes % 2 or holes < 4 or (holes - 2) // 2 == self.pits:
            return {}
        return {"pits": (holes - 2) // 2}

    def format_position(self, state: State) -> str:
        """``state`` as :meth:`parse_position` reads it: the holes, then A or B."""
        return " ".join(map(str, self.board(state))) + f" {PLAYER_NAMES[self.to_move(state)]}"

    # --- protocol ----------------------------------------------------------------------
    def initial_state(self, first: int = 0) -> State:
        """The start position, A to move unless ``first`` is 1 (B)."""
        m = self.pits
        board = [self.seeds] * m + [0] + [self.seeds] * m + [0]
        return np.array([*board, first], dtype=np.int64)

    def to_move(self, state: State) -> int:
        return int(state[self.size])

    def legal_moves(self, state: State) -> list[int]:
        s = state.tolist()
        m, mover = self.pits, s[-1]
        if rules.is_over(s, m, mover, self.rules):
            return []
        return [i for i in rules.pit_range(m, mover) if s[i] > 0]

    def play(self, state: State, move: int) -> tuple[State, bool]:
        s = state.tolist()
        m = self.pits
        mover = s.pop()
        lo = 0 if mover == 0 else m + 1
        if not lo <= move < lo + m or s[move] == 0 or rules.is_over(s, m, mover, self.rules):
            raise GameError(f"illegal move {move} for {PLAYER_NAMES[mover]}")
        if self.rules == rules.CLASSIC:
            again = rules.classic_move(s, m, mover, move, self.empty_capture)
        else:
            rules.etudes_move(s, m, mover, move)
            again = False
        s.append(mover if again else 1 - mover)
        return np.array(s, dtype=np.int64), again

    def outcome(self, state: State) -> int | None:
        s = state.tolist()
        return rules.final_margin(s, self.pits, s[-1], self.rules)

    def evaluate(self, state: State) -> int:
        return EVALUATION_FUNCTIONS[self.evaluation](state.tolist(), self.pits, int(state[-1]))

    def format_move(self, move: int) -> str:
        return str(move)

    def parse_move(self, text: str, state: State) -> int:
        """Parse a pit number; GameError with a one-line reason unless it is a legal sowing."""
        mover = self.to_move(state)
        own = self.pit_range(mover)
        legal = self.legal_moves(state)
        allowed = " ".join(map(str, legal)) or "none: the game is over"
        word = text.strip()
        # digits 0-9 only (int() also reads '٣'); a pit number has at most two of them
        if not (word.isascii() and word.isdigit()) or len(word) > 2:
            raise GameError(
                f"type the number of one of your pits ({own[0]} to {own[-1]}); legal now: {allowed}"
            )
        pit = int(word)
        if pit not in own:
            raise GameError(
                f"pit {pit} is not one of {PLAYER_NAMES[mover]}'s pits "
                f"({own[0]} to {own[-1]}); legal now: {allowed}"
            )
        if pit not in legal:
            raise GameError(f"pit {pit} is empty; legal now: {allowed}")
        return pit

    # --- compound moves ----------------------------------------------------------------
    def compound_moves(self, state: State) -> list[tuple[tuple[int, ...], State]]:
        """Every compound move (RULES.md 1) with its resulting position.

        In lexicographic order of the pit sequences; a compound move may end early because
        the game ended. In etudes rules each move is a compound move of one pit.
        """
        out: list[tuple[tuple[int, ...], State]] = []

        def extend(s: State, prefix: tuple[int, ...]) -> None:
            for move in self.legal_moves(s):
                child, again = self.play(s, move)
                if again:
                    extend(child, (*prefix, move))
                else:
                    out.append(((*prefix, move), child))

        extend(state, ())
        return out

    def play_compound(self, state: State, pits: list[int] | tuple[int, ...]) -> State:
        """Play a whole compound move; GameError unless it is exactly one player's turn."""
        if not pits:
            raise GameError("a compound move has at least one pit")
        player = self.to_move(state)
        for k, pit in enumerate(pits):
            if self.outcome(state) is not None:
                raise GameError(f"the game is over before pit {pit}")
            if self.to_move(state) != player:
                done = " ".join(map(str, pits[:k]))
                raise GameError(
                    f"after {done} the turn passes to {PLAYER_NAMES[1 - player]} (no extra turn)"
                )
            state, _ = self.play(state, self.parse_move(str(pit), state))
        return state

    # --- final result ------------------------------------------------------------------
    def final_stores(self, state: State) -> tuple[int, int] | None:
        """(A, B) final scores when the game is over (pit stones as the rules assign them)."""
        margin = self.outcome(state)
        if margin is None:
            return None
        b = self.board(state)
        m = self.pits
        if self.rules == rules.ETUDES and rules.more_than_half(b, m):
            return b[m], b[2 * m + 1]
        return b[m] + rules.side_stones(b, m, 0), b[2 * m + 1] + rules.side_stones(b, m, 1)

    # --- action ids (boardgames.core.capabilities.ActionCodec) -----------------------------
    @property
    def num_actions(self) -> int:
        """Action ``i`` sows the mover's ``i``-th pit from its own left: pit ``i`` for A,
        pit ``pits + 1 + i`` for B."""
        return self.pits

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (self.size,)

    @property
    def observation_high(self) -> int:
        return self.total_stones

    def action_of(self, state: State, move: int) -> int:
        """The action id of the pit ``move`` (counted from its owner's left)."""
        return move if move < self.pits else move - self.pits - 1

    def move_of(self, state: State, action: int) -> int | None:
        """The pit the mover sows for ``action``, or None when that is not legal now."""
        if not 0 <= action < self.pits:
            return None
        pit = action + (self.pits + 1) * self.to_move(state)
        return pit if pit in self.legal_moves(state) else None

    def observation(self, state: State, player: int) -> State:
        """The ``2 * pits + 2`` holes from ``player``'s side: its own pits left to right,
        its store, the opponent's pits (from the opponent's left), the opponent's store."""
        board = np.asarray(state[: self.size], dtype=np.int64)
        return np.roll(board, -(self.pits + 1) * player)

    # --- drawing -----------------------------------------------------------------------
    def svg(
        self,
        state: State,
        *,
        last: int | Sequence[int] | None = None,
        marks: Sequence[Mark] = (),
        heading: str | None = None,
        before: State | None = None,
        animate: bool = False,
        move: int | Sequence[int] | None = None,
        best: Sequence[int] = (),
    ) -> SVG:
        """The position as an SVG picture (a ``str`` that shows itself in Jupyter).

        ``last`` is the last turn: a pit or the pits sown in turn (class ``last-move``).
        With ``before``, the position it was played from, the sowing itself is drawn:
        the holes it passed through, where it started and ended, what it captured; and
        ``animate`` lights those holes in the order the stones fell. A mark's move is a
        pit or a compound move's pits, numbered in order for ``best`` and ``hint``.
        ``move`` and ``best`` are the old spellings of ``last`` and a best mark. Classes
        and ``data-*`` attributes: :mod:`boardgames.kalah.svg`.
        """
        if move is not None:
            deprecated_keyword("Kalah", "move", "last")
            last = move if last is None else last
        marks = as_marks(marks)
        if len(best):
            deprecated_keyword("Kalah", "best", 'marks=[Mark(pits, "best")]')
            marks += (Mark(tuple(best), "best"),)
        if last is None:
            pits = []
        else:
            pits = [int(last)] if isinstance(last, int | np.integer) else [int(p) for p in last]
        every = {*self.pit_range(0), *self.pit_range(1)}
        for what, holes in (("last", pits), *((f"a {m.kind} mark", m.moves) for m in marks)):
            if not set(holes) <= every:
                shown = " ".join(map(str, holes))
                raise GameError(f"{what} names holes that are not pits: {shown}")
        trace = None
        if before is not None:
            if not pits:
                raise GameError("give last (the pits played) with before (the position)")
            if not np.array_equal(self.play_compound(before, pits), state):
                raise GameError(
                    f"the move {' '.join(map(str, pits))} from before does not lead to state"
                )
            trace, _ = kalah_svg.trace_move(
                self.pits,
                self.rules,
                self.board(before),
                self.to_move(before),
                pits,
                self.empty_capture,
            )
        return kalah_svg.draw(
            self.board(state),
            self.pits,
            to_move=self.to_move(state),
            over=self.outcome(state) is not None,
            trace=trace,
            last=pits,
            marks=marks,
            heading=heading,
            rule_set=self.rules,
            animate=animate,
        )

    def render(self, state: State, highlight: int | None = None) -> Board:
        """The board in the RULES.md layout, pit numbers above (B) and below (A); on a
        console too narrow for it, a compact layout (see :class:`Board`).

        ``highlight`` marks one hole (for example the last one sown into).
        """
        over = self.outcome(state) is not None
        to_move = None if over else self.to_move(state)
        return Board(self.board(state), self.pits, to_move, highlight)


def make(pits: int = 6, seeds: int = 6, rules: str = "classic", capture: str = "opposite") -> Kalah:
    """Kalah from its plugin's options (the registry's factory): ``capture`` ``opposite``
    (RULES.md 1.3) or ``empty`` (classic rules only: :attr:`Kalah.empty_capture`)."""
    if capture not in CAPTURES:
        raise GameError(f"capture must be one of {', '.join(CAPTURES)}, got {capture!r}")
    if capture == "empty" and rules != "classic":
        raise GameError("capture=empty is a classic-rules variant; etudes has its own captures")
    return Kalah(pits, seeds, rules, empty_capture=capture == "empty")


class Board:
    """A Kalah board for rich: the RULES.md layout (:func:`render_board`) when it fits the
    console's width, else the compact layout (:func:`render_compact`), which fits 40
    columns for every board size. ``str()`` gives the RULES.md layout as plain text."""

    def __init__(
        self, board: list[int], m: int, to_move: int | None = None, highlight: int | None = None
    ) -> None:
        self.board, self.m, self.to_move, self.highlight = board, m, to_move, highlight

    def wide(self) -> Text:
        return render_board(self.board, self.m, self.to_move, self.highlight)

    def compact(self) -> Text:
        return render_compact(self.board, self.m, self.to_move, self.highlight)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        wide = self.wide()
        yield wide if _width(wide) <= options.max_width else self.compact()

    def __str__(self) -> str:
        return self.wide().plain

    def _repr_svg_(self) -> str:
        """The board as a picture, for Jupyter (the text stays as it is)."""
        last = None if self.highlight is None else kalah_svg.Trace(last=self.highlight)
        over = self.to_move is None
        return kalah_svg.draw(list(self.board), self.m, to_move=self.to_move, over=over, trace=last)


def _width(text: Text) -> int:
    return max(cell_len(line) for line in text.plain.split("\n"))


def render_board(
    board: list[int], m: int, to_move: int | None = None, highlight: int | None = None
) -> Text:
    """Draw ``board`` as in RULES.md: B's pits right to left on top, A's left to right below."""
    w = max(2, *(len(str(x)) for x in board), len(str(2 * m)))
    sw = max(w + 1, 3)
    cell = "-" * (w + 2)
    store_cell = "-" * (sw + 2)
    text = Text()

    def num(value: int, index: int) -> Text:
        style = "bold yellow" if index == highlight else ("bold" if value else "dim")
        return Text(str(value).rjust(w), style=style)

    def label(index: int) -> str:
        return str(index).rjust(w)

    b_pits = list(range(2 * m, m, -1))
    a_pits = list(range(0, m))
    pad = " " * (sw + 5)
    text.append(pad + "   ".join(label(i) for i in b_pits) + "    <- B's pits\n", style="cyan")
    border = "+" + store_cell + "+" + "+".join([cell] * m) + "+" + store_cell + "+\n"
    text.append(border)

    def pit_row(indices: list[int]) -> None:
        text.append("|" + " " * (sw + 2) + "|")
        for i in indices:
            text.append(" ")
            text.append_text(num(board[i], i))
            text.append(" |")
        text.append(" " * (sw + 2) + "|\n")

    pit_row(b_pits)
    inner = "+" + "+".join([cell] * m) + "+"
    text.append("| ")
    text.append_text(
        Text(str(board[2 * m + 1]).rjust(sw), style=_store_style(2 * m + 1, highlight))
    )
    text.append(" " + inner + " ")
    text.append_text(Text(str(board[m]).ljust(sw), style=_store_style(m, highlight)))
    text.append(" |   B's store left, A's store right\n")
    pit_row(a_pits)
    text.append(border)
    text.append(pad + "   ".join(label(i) for i in a_pits) + "    <- A's pits", style="cyan")
    if to_move is not None:
        text.append(f"\n{PLAYER_NAMES[to_move]} to move")
    return text


def render_compact(
    board: list[int], m: int, to_move: int | None = None, highlight: int | None = None
) -> Text:
    """The board turned a quarter (for narrow terminals): B's store on top, A's pits down
    the left, each B pit opposite the A pit it faces, A's store at the bottom."""
    w = max(2, *(len(str(x)) for x in board))
    lw = len(str(2 * m))
    text = Text()

    def store(player: int) -> None:
        i = m if player == 0 else 2 * m + 1
        text.append(f"{PLAYER_NAMES[player]}'s store: ")
        text.append_text(Text(str(board[i]), style=_store_style(i, highlight)))
        text.append("\n")

    def pit(i: int) -> None:
        text.append(str(i).rjust(lw) + ":", style="cyan")
        style = "bold yellow" if i == highlight else ("bold" if board[i] else "dim")
        text.append(" " + str(board[i]).rjust(w), style=style)

    column = max(len("A's pits"), lw + w + 3)
    store(1)
    text.append("A's pits".ljust(column) + " | B's pits\n", style="cyan")
    for i in range(m):
        text.append(" " * (column - (lw + w + 2)))
        pit(i)
        text.append(" | ")
        pit(2 * m - i)
        text.append("\n")
    store(0)
    text.rstrip()
    if to_move is not None:
        text.append(f"\n{PLAYER_NAMES[to_move]} to move")
    return text


def _store_style(index: int, highlight: int | None) -> str:
    return "bold yellow" if index == highlight else "bold green"


def score_text(game: Kalah, state: State) -> tuple[str, str]:
    """("A 32, B 40", "B wins by 8") for a finished game."""
    stores = game.final_stores(state)
    assert stores is not None
    a, b = stores
    if a == b:
        return f"A {a}, B {b}", "a draw"
    winner = "A" if a > b else "B"
    return f"A {a}, B {b}", f"{winner} wins by {abs(a - b)}"
