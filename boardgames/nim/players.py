"""Nim's capabilities for the generic layers: Bouton's strategy as its exact solver and as
the player ``bouton``, and Bouton's reason for a move as its commentary (the plugin's
``solver``, ``players`` and ``commentary`` paths). Both conventions (normal play and
misère) are exact (RULES.md section 4; checked against exhaustive search in the tests)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from boardgames.core.engine import Answer
from boardgames.core.protocol import GameError, SearchResult, State, terminal_score
from boardgames.nim.game import decode_move, encode_move
from boardgames.nim.rules import NimMove, describe_move, is_safe, program_move, why

Stop = Callable[[], bool] | None


def bouton(game: Any, state: State) -> tuple[int, int]:
    """Bouton's move in ``state`` (a winning one when there is one, else one chip from the
    fullest row) and the exact value for the mover (a win or a loss, as a proven score)."""
    if game.outcome(state) is not None:
        raise GameError("the game is over: there is no move to find")
    rows = game.rows_of(state)
    move, _ = program_move(rows, game.misere)
    wins = not is_safe(rows, game.misere)
    return encode_move(move.row, move.take), terminal_score(1 if wins else -1, 0)


def solve(game: Any, state: State, *, weak: bool = False, stop: Stop = None) -> SearchResult:
    """The exact value of ``state`` and a best move, by Bouton's rule (instant)."""
    move, value = bouton(game, state)
    return SearchResult(value, move, [move], 1, 0, "Bouton's rule", exact=True)


class Bouton:
    """Bouton's strategy as a player: a winning move whenever there is one."""

    name = "bouton"
    description = "Bouton's strategy: a winning move whenever there is one (perfect play)"
    uses_kernels = False

    def choose(self, game: Any, state: State, *, stop: Stop = None) -> Answer:
        t0 = time.perf_counter()
        move, value = bouton(game, state)
        return Answer(
            move, value, True, None, 1, time.perf_counter() - t0, "solver", [move],
            note="Bouton's rule",
        )  # fmt: skip


class NimPlayers:
    """Nim's players (:class:`boardgames.core.players.GamePlayers`)."""

    def named(self, game: Any) -> dict[str, Any]:
        return {"bouton": Bouton()}

    def parse(self, game: Any, text: str) -> Any:
        return None


PLAYERS = NimPlayers()


class NimCommentary:
    """Bouton's reason for a move (:class:`boardgames.core.commentary.Commentary`)."""

    def after(self, game: Any, before: State, move: int, after: State) -> str | None:
        return None

    def describe(self, game: Any, state: State, move: int) -> str | None:
        row, take = decode_move(move)
        return describe_move(NimMove(row, take))

    def why(self, game: Any, state: State, move: int) -> str | None:
        row, take = decode_move(move)
        return why(game.rows_of(state), NimMove(row, take), game.misere)


COMMENTARY = NimCommentary()
