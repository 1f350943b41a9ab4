"""Review a game move by move, for any two-player game: what each move lost against the best.

For every move of a game (from its start, or from a given position) the position before
it is searched with :func:`boardgames.core.engine.candidates`, which values every legal
move the same way: exact values (the game's solver, or a search to the end) when they all
come within the time, else searches of them all to one common depth. So the best move's
value (the position's value for the mover) and the played move's value compare, and their
difference is what the move lost, for its player.

Verdicts: ``best`` (nothing lost), ``inaccuracy``, ``mistake`` and ``blunder`` by the value
lost (:class:`Thresholds`, in the game's own units: Kalah's stones, Connect Four's
heuristic points, a won game's margin). A move that changes a proved result (a win thrown
into a draw or a loss, a draw into a loss), misses a forced win the search found, or walks
into a forced loss is a ``blunder`` whatever the numbers say.

Values are the mover's (``+``: the player who moved is ahead); :func:`for_first` turns
one to the first player's side, as a graph of the game draws it. Every search polls
``stop`` (a web page's Cancel, Ctrl-C): :class:`boardgames.core.engine.Cancelled` rises
when it fires during a move's search. This module imports no game and no numba.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from boardgames.core.engine import Answer, Cancelled, candidates
from boardgames.core.protocol import (
    Game,
    GameError,
    State,
    describe_score,
    is_terminal_score,
    score_margin,
    short_score,
)

VERDICTS = ("best", "inaccuracy", "mistake", "blunder")
"""From nothing lost to the worst."""
PLURALS = {"best": "best", "inaccuracy": "inaccuracies", "mistake": "mistakes",
           "blunder": "blunders"}  # fmt: skip
"""The verdicts' plurals, for counts ("2 inaccuracies")."""
RESULTS = {1: "win", 0: "draw", -1: "loss"}


@dataclass(frozen=True)
class Thresholds:
    """The value lost (the game's units) from which a move is an inaccuracy, a mistake, a
    blunder; less than ``inaccuracy`` is ``best``."""

    inaccuracy: int = 1
    mistake: int = 3
    blunder: int = 10

    def verdict(self, loss: int) -> str:
        if loss >= self.blunder:
            return "blunder"
        if loss >= self.mistake:
            return "mistake"
        if loss >= self.inaccuracy:
            return "inaccuracy"
        return "best"


THRESHOLDS = Thresholds()


def result_of(value: int, exact: bool) -> int | None:
    """The result a value proves for its player: 1 a win, -1 a loss (a finished game's
    score: exact, or a bound found by a depth-limited search, which proves the win all the
    same), 0 a draw (exact values only); None when it proves nothing (a heuristic value)."""
    if is_terminal_score(value):
        return 1 if value > 0 else -1
    if exact and value == 0:
        return 0
    return None


def for_first(value: int, player: int) -> int:
    """A value of ``player``'s turned to the first player's side."""
    return value if player == 0 else -value


@dataclass
class MoveReview:
    """One move of a game, reviewed. ``before`` is the value of the position for the
    mover (its best move's), ``after`` the value of the move played, for the mover; both
    come from the same search, so ``loss`` compares them (None when the move changed the
    result: ``change`` then says how, and the verdict is a blunder)."""

    number: int
    """The move's place in the game (1: the first move reviewed)."""
    player: int
    move: int
    best: int
    before: int
    after: int
    exact: bool
    depth: int | None
    """The common depth the moves were searched to; None: exact (or to the end)."""
    loss: int | None
    verdict: str
    change: str | None = None
    """How the result changed (``win -> draw``), or a missed win, or None."""
    again: bool = False
    """The mover moves again after the move (Kalah's extra turn)."""
    moves: list[tuple[int, int]] = field(default_factory=list)
    """Every legal move with its value for the mover, best first."""
    nodes: int = 0
    seconds: float = 0.0
    engine: str = ""

    def as_json(self, game: Game) -> dict[str, Any]:
        """The review of the move for a page or ``--json``: protocol moves and their
        notation, values (raw and in words, for the mover and for the first player)."""
        fmt = game.format_move
        return {
            "number": self.number,
            "player": self.player,
            "move": self.move,
            "text": fmt(self.move),
            "best": self.best,
            "best_text": fmt(self.best),
            "before": self.before,
            "after": self.after,
            "before_text": describe_score(self.before, self.exact),
            "after_text": describe_score(self.after, self.exact),
            "before_short": short_score(self.before, self.exact),
            "after_short": short_score(self.after, self.exact),
            "before_first": for_first(self.before, self.player),
            "after_first": for_first(self.after, self.player),
            "exact": self.exact,
            "depth": self.depth,
            "loss": self.loss,
            "verdict": self.verdict,
            "change": self.change,
            "again": self.again,
            "moves": [
                {"move": m, "text": fmt(m), "value": v, "short": short_score(v, self.exact)}
                for m, v in self.moves
            ],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "engine": self.engine,
        }


def judge(
    best: int, played: int, exact: bool, thresholds: Thresholds = THRESHOLDS
) -> tuple[int | None, str, str | None]:
    """``(loss, verdict, change)`` of a move worth ``played`` where the best is worth
    ``best`` (both for the mover, found the same way)."""
    was, now = result_of(best, exact), result_of(played, exact)
    if was is not None and now is not None and was != now:
        return None, "blunder", f"{RESULTS[was]} -> {RESULTS[now]}"
    if was == 1 and now is None:
        return None, "blunder", "a forced win missed"
    if now == -1 and was is None:
        return None, "blunder", "a forced loss walked into"
    margins = score_margin(best), score_margin(played)
    if margins[0] is not None and margins[1] is not None:
        loss = margins[0] - margins[1]  # the same result: what the margin lost
    else:
        loss = best - played
    loss = max(0, loss)
    return loss, thresholds.verdict(loss), None


def review_move(
    game: Game,
    state: State,
    move: int,
    *,
    seconds: float = 1.0,
    depth: int | None = None,
    stop: Callable[[], bool] | None = None,
    number: int = 1,
    thresholds: Thresholds = THRESHOLDS,
) -> MoveReview:
    """Review ``move`` played in ``state``: every legal move valued the same way within
    ``seconds`` (or to ``depth`` plies), the played one against the best. GameError when
    the move is not legal there; :class:`~boardgames.core.engine.Cancelled` when ``stop``
    said to stop (the values found so far are those of a search cut short)."""
    legal = game.legal_moves(state)
    if game.outcome(state) is not None or not legal:
        raise GameError(f"move {number} ({game.format_move(move)}) comes after the end")
    if move not in legal:
        raise GameError(f"move {number} ({game.format_move(move)}) is not a legal move there")
    found = candidates(game, state, seconds=seconds, top=len(legal), stop=stop, depth=depth)
    if stop is not None and stop():  # cut short: values of a shallower search, not a review
        raise Cancelled("stopped before the move's values were in")
    answers: dict[int, Answer] = dict(found)
    best_move, best = found[0]
    played = answers[move]
    exact = all(a.exact for _, a in found)
    if exact:
        common: int | None = None
    else:
        depths = [a.depth for _, a in found if a.depth is not None]
        common = max(depths) if depths else 0
    loss, verdict, change = judge(best.value, played.value, exact, thresholds)
    if move == best_move or played.value == best.value:
        loss, verdict, change = 0, "best", None
    _, again = game.play(state, move)
    return MoveReview(
        number=number,
        player=int(game.to_move(state)),
        move=move,
        best=best_move,
        before=best.value,
        after=played.value,
        exact=exact,
        depth=common,
        loss=loss,
        verdict=verdict,
        change=change,
        again=bool(again),
        moves=[(m, a.value) for m, a in found],
        nodes=sum(a.nodes for _, a in found),
        seconds=sum(a.seconds for _, a in found),
        engine=best.engine,
    )


def review_game(
    game: Game,
    moves: Sequence[int],
    *,
    start: State | None = None,
    seconds: float = 1.0,
    depth: int | None = None,
    stop: Callable[[], bool] | None = None,
    each: Callable[[MoveReview, State], None] | None = None,
    thresholds: Thresholds = THRESHOLDS,
) -> list[MoveReview]:
    """Review every move of ``moves`` played from ``start`` (the game's start when None);
    ``each(review, state_after)`` hears of each move as it is done (a page's progress).
    GameError names the first move that is not legal."""
    state = game.initial_state() if start is None else start
    out = []
    for k, move in enumerate(moves, 1):
        row = review_move(
            game, state, move, seconds=seconds, depth=depth, stop=stop, number=k,
            thresholds=thresholds,
        )  # fmt: skip
        state, _ = game.play(state, move)
        out.append(row)
        if each is not None:
            each(row, state)
    return out


def counts(reviews: Sequence[MoveReview]) -> dict[str, int]:
    """How many moves got each verdict (every verdict listed, best first)."""
    return {v: sum(1 for r in reviews if r.verdict == v) for v in VERDICTS}


def summary(reviews: Sequence[MoveReview]) -> str:
    """One line: ``12 moves, 9 valued exactly: 8 best, 2 inaccuracies, 1 mistake, 1
    blunder``."""
    found = counts(reviews)
    words = [f"{n} {PLURALS[v] if n != 1 else v}" for v, n in found.items() if n or v == "best"]
    exact = sum(1 for r in reviews if r.exact)
    moves = f"{len(reviews)} move{'s' * (len(reviews) != 1)}"
    return f"{moves}, {exact} valued exactly: " + ", ".join(words)
