"""Kalah rules on plain Python lists: classic (RULES.md 1) and Etudes (RULES.md 2).

A *board* here is a ``list[int]`` of ``2m + 2`` holes in the RULES.md numbering
(``0..m-1`` A's pits, ``m`` A's store, ``m+1..2m`` B's pits, ``2m+1`` B's store); the
``Kalah`` class (game.py) wraps it in the numpy state the search uses. Players are 0 (A)
and 1 (B). Functions whose name ends in ``_move`` change the board in place.

Classic move (one sowing), RULES.md 1.1-1.4:
  sow (lapping the board drops a stone into the emptied start pit too; the opponent's
  store is skipped); last stone in the own store: extra turn; last stone in an own pit
  that was empty (it now holds 1, this includes a lap ending in the start pit) with at
  least one stone opposite: both go to the own store; then, if all pits of one side are
  empty, every stone left in the other side's pits goes to that side's store and the game
  is over (no extra turn then).

Etudes move (one sowing plus its relays), RULES.md 2, in this exact order:
  1. sow from the pit as above; count the stones dropped into the opponent's pits;
  2. capture: if the last stone is in an opponent's pit that now holds 2 or 3, those go
     to the mover's store, then the pit before it (index - 1) while it is still on the
     opponent's side and holds 2 or 3, and so on;
  3. if a store now holds more than half of all stones, the move ends (game over);
  4. relay: if the last stone is in one of the mover's own pits that was not empty
     (it now holds 2 or more) and step 1 dropped at least one stone into the opponent's
     pits, sow again from that pit (back to step 1), unless the board after this sowing
     equals one already seen during this move (the board before the move counts as
     seen): then the move ends there.
  After the move the turn passes; if the new player to move has no stone in its pits
  and no store holds more than half, all stones in the other side's pits go to that
  side's store and the game is over.

  Repetition guard, and why it never fires: a sowing that drops a stone into the
  opponent's pits starts from an own pit, so it passes the mover's own store and adds a
  stone to it; stores never lose stones. Every relayed sowing therefore grows the mover's
  store, the board cannot repeat, and a relay chain has at most ``total stones`` sowings.
  The guard (remember the boards after each sowing of the chain, stop on a repeat) is
  kept because RULES.md asks for it; a faithful re-implementation may rely on the bound.

Game end and result:
  classic: over when all pits of one side are empty; the final margin counts each side's
  store plus the stones still in its pits (zero after the sweep, which ``classic_move``
  always does).
  etudes: over when a store holds more than half of all stones (the margin is the
  difference of the stores; stones still in pits count for nobody), or when the player
  to move has no stone in its pits (the opponent's pits count for the opponent, as the
  sweep does).
"""

from __future__ import annotations

from collections.abc import Sequence

CLASSIC = "classic"
ETUDES = "etudes"
RULE_SETS = (CLASSIC, ETUDES)


def store_index(m: int, player: int) -> int:
    """Index of ``player``'s store."""
    return m if player == 0 else 2 * m + 1


def pit_range(m: int, player: int) -> range:
    """Indices of ``player``'s pits, in ascending order."""
    return range(0, m) if player == 0 else range(m + 1, 2 * m + 1)


def owner(m: int, index: int) -> int:
    """0 if ``index`` is A's pit or store, 1 if B's."""
    return 0 if index <= m else 1


def opposite(m: int, pit: int) -> int:
    """The pit facing ``pit`` (RULES.md: pit i faces pit 2m - i)."""
    return 2 * m - pit


def side_stones(board: Sequence[int], m: int, player: int) -> int:
    """Stones in ``player``'s pits (store excluded)."""
    return sum(board[0:m]) if player == 0 else sum(board[m + 1 : 2 * m + 1])


def sow(board: list[int], m: int, pit: int, mover: int) -> tuple[int, int]:
    """Sow ``pit`` for ``mover`` in place (RULES.md 1.1).

    Returns the index of the last stone and how many stones went into the opponent's pits.
    """
    n = 2 * m + 2
    skip, lo, hi = (2 * m + 1, m + 1, 2 * m) if mover == 0 else (m, 0, m - 1)
    stones = board[pit]
    board[pit] = 0
    i = pit
    into_opponent = 0
    while stones:
        i += 1
        if i == n:
            i = 0
        if i == skip:
            continue
        board[i] += 1
        stones -= 1
        if lo <= i <= hi:
            into_opponent += 1
    return i, into_opponent


def _sweep(board: list[int], m: int, player: int) -> None:
    """Move every stone in ``player``'s pits to ``player``'s store."""
    store = store_index(m, player)
    for i in pit_range(m, player):
        board[store] += board[i]
        board[i] = 0


def classic_move(
    board: list[int], m: int, mover: int, pit: int, empty_capture: bool = False
) -> bool:
    """One classic sowing in place; returns True for an extra turn (never when the sowing
    ended the game: :func:`is_over` tells that).

    ``empty_capture`` is the variant of Irving, Donkers and Uiterwijk ("Solving Kalah",
    2000): a last stone in an own empty pit is captured even when the opposite pit is
    empty (it goes to the store alone).
    """
    last, _ = sow(board, m, pit, mover)
    store = store_index(m, mover)
    again = last == store
    if not again and owner(m, last) == mover and board[last] == 1:
        facing = opposite(m, last)
        if board[facing] > 0 or empty_capture:
            board[store] += board[facing] + 1
            board[facing] = 0
            board[last] = 0
    if side_stones(board, m, 0) == 0 or side_stones(board, m, 1) == 0:
        _sweep(board, m, 0)
        _sweep(board, m, 1)
        return False
    return again


def more_than_half(board: Sequence[int], m: int) -> bool:
    """True when one store holds more than half of all stones (Etudes end, RULES.md 2.4)."""
    total = sum(board[: 2 * m + 2])
    return 2 * board[m] > total or 2 * board[2 * m + 1] > total


def etudes_move(board: list[int], m: int, mover: int, pit: int) -> tuple[int, bool]:
    """One Etudes move (a sowing and all its relays) in place; returns (sowings, game over).

    See the module docstring for the exact order of sowing, capture, end and relay.
    """
    store = store_index(m, mover)
    lo, hi = (m + 1, 2 * m) if mover == 0 else (0, m - 1)  # the opponent's pits
    seen = {tuple(board)}
    sowings = 0
    while True:
        last, into_opponent = sow(board, m, pit, mover)
        sowings += 1
        if lo <= last <= hi and board[last] in (2, 3):
            i = last
            while lo <= i <= hi and board[i] in (2, 3):
                board[store] += board[i]
                board[i] = 0
                i -= 1
        if more_than_half(board, m):
            return sowings, True
        if last != store and owner(m, last) == mover and board[last] > 1 and into_opponent > 0:
            key = tuple(board)
            if key in seen:
                break
            seen.add(key)
            pit = last
            continue
        break
    nxt = 1 - mover
    if side_stones(board, m, nxt) == 0:
        _sweep(board, m, mover)
        return sowings, True
    return sowings, False


def is_over(board: Sequence[int], m: int, to_move: int, rules: str) -> bool:
    """True when the game is over with ``to_move`` to play."""
    if rules == CLASSIC:
        return side_stones(board, m, 0) == 0 or side_stones(board, m, 1) == 0
    return more_than_half(board, m) or side_stones(board, m, to_move) == 0


def final_margin(board: Sequence[int], m: int, to_move: int, rules: str) -> int | None:
    """Final margin (own minus opponent's) for ``to_move``, or None while the game goes on.

    Works on swept and unswept boards alike (see the module docstring).
    """
    own, opp = store_index(m, to_move), store_index(m, 1 - to_move)
    if rules == CLASSIC:
        if side_stones(board, m, 0) and side_stones(board, m, 1):
            return None
        return (board[own] + side_stones(board, m, to_move)) - (
            board[opp] + side_stones(board, m, 1 - to_move)
        )
    if more_than_half(board, m):
        return board[own] - board[opp]
    if side_stones(board, m, to_move) == 0:
        return board[own] - (board[opp] + side_stones(board, m, 1 - to_move))
    return None
