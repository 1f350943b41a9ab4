"""Connect Four's words (its plugin's ``commentary``): a proved value as players say it.

A won or lost value of Connect Four encodes the RULES.md section 6 score ``s`` of the
position for the player to move (its margin, :func:`boardgames.core.protocol.score_margin`):
the winner completes their line with their ``share + 1 - s``-th disc, ``share`` being the
winner's share of the ``W*H`` discs (``ceil`` for the first player, ``floor`` for the
second). So "win by 5" on 7x6 for the first player to move is "1 wins with their 17th
disc", and a bound (a search that found a forced win but did not look for a faster one)
is "1 wins with their 17th disc at the latest".

:meth:`ConnectFourWords.value` is the ``value`` method of
:class:`boardgames.core.commentary.Commentary`: ``analyse`` and the web page say a value
with it (a game without it keeps the generic "win by 5").
"""

from __future__ import annotations

from typing import Any

from boardgames.connect4.game import PLAYERS
from boardgames.core.protocol import State, score_margin


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``12th``, ``21st``."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def winning_disc(cells: int, winner: int, score: int) -> int:
    """The winner's disc (counted among their own) that completes their line, for a
    RULES.md score ``score`` (> 0) on a board of ``cells`` cells; ``winner`` 0 or 1."""
    share = (cells + 1) // 2 if winner == 0 else cells // 2
    return share + 1 - score


class ConnectFourWords:
    """Connect Four's commentary: only the value in words (:meth:`value`)."""

    def value(self, game: Any, state: State, value: int, exact: bool) -> str | None:
        """``value`` (for the player to move in ``state``) in Connect Four's words:
        ``1 wins with their 12th disc`` (exact), ``... at the latest`` (a bound); None
        for a draw or an estimate (the generic words say those)."""
        margin = score_margin(value)
        if margin is None or margin == 0:
            return None
        mover = int(game.to_move(state))
        winner = mover if margin > 0 else 1 - mover
        disc = winning_disc(int(game.width) * int(game.height), winner, abs(margin))
        if disc < 1:  # not a score of this board: say nothing rather than nonsense
            return None
        words = f"{PLAYERS[winner]} wins with their {ordinal(disc)} disc"
        return words if exact else f"{words} at the latest"


COMMENTARY = ConnectFourWords()
