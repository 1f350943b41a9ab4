"""Review a recorded game move by move: exact where the solver reaches, else searched."""

from __future__ import annotations

import math

from boardgames.core.protocol import State, score_bound, score_margin, terminal_score
from boardgames.kalah.exact.endgame import EndgameTable
from boardgames.kalah.exact.solver import SearchStopped, Solver
from boardgames.kalah.game import PLAYER_NAMES, Kalah
from boardgames.kalah.play.guess import FirstGuess

VERDICTS = ((0, "best"), (2, "inaccuracy"), (math.inf, "mistake"))
"""Verdict by the value a move lost: 0 best, 1-2 an inaccuracy, more a mistake."""


PLURALS = {"best": "best", "inaccuracy": "inaccuracies", "mistake": "mistakes"}
"""The verdicts' plurals, for counts ("5 inaccuracies")."""
GUESS_DEPTH = 6
"""Depth of the search that gives the exact solver its first guess (see Reviewer._guess)."""


def verdict(loss: int) -> str:
    """The verdict on a move that lost ``loss`` (see :data:`VERDICTS`)."""
    return next(name for limit, name in VERDICTS if loss <= limit)


class Reviewer:
    """Values every move of a game for the player who made it.

    Exact values come from :class:`~boardgames.kalah.exact.solver.Solver` when a position
    solves within ``exact_nodes`` positions (endgame tables make late positions cheap);
    otherwise the numba engine searches ``depth`` compound moves with the store
    evaluation (so that a loss is still counted in stones), and the position after the
    move ``depth - 1`` (the depth the played move got inside the first search).

    Nothing here depends on the machine's speed: the same game, table and limits give
    the same review (which moves are exact, their values and best moves) anywhere.
    """

    def __init__(
        self, game: Kalah, table: EndgameTable | None, *, depth: int = 8, exact_nodes: int
    ) -> None:
        self.game = game
        self.depth = depth
        self.exact_nodes = exact_nodes
        self.solver = Solver(game.pits, game.rules, hash_mb=256, endgame=table)
        self.first_guess = FirstGuess(game)
        self._stopped = False

    def _guess(self, state: State) -> int:
        """MTD(f)'s first guess for the solver: searches to at most ``GUESS_DEPTH``
        compound moves. A fixed depth, not the solve command's timed guess: the positions
        the solver visits, and so whether a move is exact within ``exact_nodes``, must not
        depend on the machine's speed."""
        return self.first_guess.at_depth(state, min(self.depth, GUESS_DEPTH))

    def _exact(self, state: State, pits: tuple[int, ...]) -> tuple[int, int, list[int]]:
        solved = self.solver.solve(state, node_limit=self.exact_nodes, guess=self._guess(state))
        after = self.solver.after(state, pits)
        player = self.game.to_move(state)
        value_after = self.solver.value(after, self.exact_nodes)  # for the side to move there
        after_for_player = value_after if self.game.to_move(after) == player else -value_after
        return solved.value, after_for_player, solved.best

    def _searched(self, state: State, pits: tuple[int, ...]) -> tuple[int, int, list[int]]:
        game = self.game
        before = self.first_guess.engine(self.depth).best_move(state)
        after = game.play_compound(state, pits)
        player = game.to_move(state)
        outcome = game.outcome(after)
        if outcome is not None:
            value = terminal_score(outcome, len(pits))
            after_value = value if game.to_move(after) == player else -value
        else:
            answer = self.first_guess.engine(max(1, self.depth - 1)).best_move(after)
            after_value = answer.value if game.to_move(after) == player else -answer.value
        return before.value, after_value, list(before.move)

    def stop(self) -> None:
        """End a :meth:`review_move` running in another thread: the solver's search ends at
        once (:class:`SearchStopped`) and no depth-limited search follows it."""
        self._stopped = True
        self.solver.stop()

    def review_move(self, state: State, pits: tuple[int, ...], number: int) -> dict:
        """One row of the review (see ``kalah review --help``); :class:`SearchStopped`
        after :meth:`stop`."""
        exact = False
        if self.exact_nodes > 0:
            try:
                before, after, best = self._exact(state, pits)
                exact = True
            except SearchStopped:
                pass
        if self._stopped:
            raise SearchStopped("the review was stopped")
        if not exact:
            before, after, best = self._searched(state, pits)
        loss = max(0, before - after) if exact else _stones(before) - _stones(after)
        loss = max(0, loss)
        return {
            "move": number,
            "player": PLAYER_NAMES[self.game.to_move(state)],
            "played": list(pits),
            "before": before,
            "after": after,
            "best": best,
            "loss": loss,
            "verdict": verdict(loss),
            "exact": exact,
            "before_bound": score_bound(before, exact),
            "after_bound": score_bound(after, exact),
            "depth": None if exact else self.depth,
        }


def _stones(score: int) -> int:
    """A search score in stones: the margin of a proven result, else the store lead."""
    margin = score_margin(score)
    return margin if margin is not None else score


QUICK_REVIEW_NODES = 2_000_000
"""Positions the pure-Python solver may examine for a whole review on a first run (about
ten seconds) before the fast solver is compiled instead."""


class QuickReviewer(Reviewer):
    """A first run's review of a small board: every move valued exactly by the pure-Python
    solver (:class:`~boardgames.kalah.exact.quick.QuickSolver`, nothing to compile), one
    table of positions shared by the whole game. Past ``node_budget`` positions in all,
    :class:`~boardgames.kalah.exact.quick.NodeLimit`: the caller reviews with the fast
    solver instead. Exact values are the same whichever solver finds them, so the
    verdicts are those of :class:`Reviewer` where it values every move exactly."""

    def __init__(self, game: Kalah, *, depth: int = 8, node_budget: int = QUICK_REVIEW_NODES):
        from boardgames.kalah.exact.quick import QuickSolver

        self.game = game
        self.depth = depth
        self.exact_nodes = node_budget
        self.quick = QuickSolver(game.pits, game.rules, game.empty_capture)
        self.left = node_budget
        self._stopped = False

    def _solve(self, state: State) -> tuple[int, list[int]]:
        """The exact margin for the side to move and a best compound move."""
        from boardgames.kalah.exact.quick import NodeLimit

        if self._stopped:
            raise SearchStopped("the review was stopped")
        outcome = self.game.outcome(state)
        if outcome is not None:
            return int(outcome), []
        board = [int(x) for x in state[: 2 * self.game.pits + 2]]
        mover = self.game.to_move(state)
        if self.left <= 0:
            raise NodeLimit("the review's positions are used up")
        result = self.quick.solve(board, mover, self.left)
        self.left -= result.nodes
        return result.value, self.quick.best_line(board, mover, result.value)

    def _exact(self, state: State, pits: tuple[int, ...]) -> tuple[int, int, list[int]]:
        before, best = self._solve(state)
        after = self.game.play_compound(state, pits)
        value_after, _ = self._solve(after)
        same = self.game.to_move(after) == self.game.to_move(state)
        return before, value_after if same else -value_after, best

    def stop(self) -> None:
        """Stop before the next position (one position's search is short: the budget)."""
        self._stopped = True
