"""Connect Four positions labelled by the exact solver: the score of the position and of
every column, for learning agents (``boardgames connect4 dataset``).

Positions come from one of two sources (:func:`positions_by_ply`, :func:`sampled`):
every distinct position with ``k`` discs played (the game not over; ``mirror`` keeps one
of each mirror pair, the one whose move string sorts first), or the positions of random
games. They travel as move strings (RULES.md 6: ``4453``, columns 1..W), cut into chunks
of :data:`CHUNK`, each a task of :mod:`boardgames.core.cluster` (:func:`label_chunk`):
the same chunk gives the same labels wherever and however often it runs.

Fields of the ``.npz`` file (:data:`FIELDS`), ``N`` positions on a ``W x H`` board:

========================  =================  =============================================
field                     type               what
========================  =================  =============================================
``moves``                 str (N,)           the columns played from the empty board
``boards``                int8 (N, H, W)     0 empty, 1 the first player's disc, 2 the
                                             second's; top row first, as drawn
``observations``          int8 (N, 2, H, W)  the mover's discs, then the opponent's, as
                                             the environments observe
``to_move``, ``ply``      int8, int16 (N,)   the side to move (0 first), the discs played
``score``                 int8 (N,)          exact score for the mover (RULES.md 6: a win
                                             scores 1 + the discs the winner still holds,
                                             a loss minus that, a draw 0)
``move_scores``           int8 (N, W)        exact score for the mover after each column
                                             (0 where the column is full)
``legal``, ``best``       int8 (N, W)        1 where a column can be played; 1 for the
                                             columns that keep ``score``
``width``, ``height``,    0-d arrays         the settings
``source``, ``seed``
========================  =================  =============================================

``score == move_scores.max(where=legal)``; a move's loss is ``score - move_scores``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardgames.connect4.game import ConnectFour
from boardgames.core.protocol import GameError, State

CHUNK = 64
"""Positions a task labels."""
FIELDS = (
    "moves", "boards", "observations", "to_move", "ply", "score", "move_scores", "legal",
    "best", "width", "height", "source", "seed",
)  # fmt: skip
HASH_MIB = 256.0
"""The solver's table a worker keeps across its positions (with 64 MiB the first sampled
7 x 6 8-ply position took over 200 s, with 256 MiB 3.7 s)."""


def _key(game: ConnectFour, state: State) -> bytes:
    return bytes(state[: game.cells + 1].astype(np.int8))


def _four(pos: int, h1: int) -> bool:
    """Whether the bitboard ``pos`` (columns of ``h1`` bits) holds four in a line."""
    for shift in (1, h1, h1 - 1, h1 + 1):
        m = pos & (pos >> shift)
        if m & (m >> (2 * shift)):
            return True
    return False


def positions_by_ply(game: ConnectFour, ply: int, mirror: bool = False) -> list[str]:
    """Move strings of every distinct position with ``ply`` discs whose game is not over
    (one string each, the first in sorted order), sorted; ``mirror``: one of each mirror
    pair. Walks bitboards (the mover's discs, all discs; columns of ``H + 1`` bits)."""
    w, h = game.width, game.height
    h1 = h + 1
    bottom = [1 << (c * h1) for c in range(w)]
    top = [1 << (c * h1 + h - 1) for c in range(w)]
    column = [((1 << h) - 1) << (c * h1) for c in range(w)]
    level: dict[int, tuple[str, int, int]] = {0: ("", 0, 0)}
    for _ in range(ply):
        nxt: dict[int, tuple[str, int, int]] = {}
        for word, cur, mask in level.values():
            for c in range(w):
                if mask & top[c]:
                    continue
                placed = (mask + bottom[c]) & column[c]
                if _four(cur | placed, h1):
                    continue
                child_mask = mask | placed
                child_cur = cur ^ mask  # the opponent's discs: they move next
                key = child_cur + child_mask
                text = word + str(c + 1)
                if key not in nxt or text < nxt[key][0]:
                    nxt[key] = (text, child_cur, child_mask)
        level = nxt
    if not mirror:
        return sorted(text for text, _, _ in level.values())

    def flip(x: int) -> int:
        col = (1 << h1) - 1
        return sum(((x >> (c * h1)) & col) << ((w - 1 - c) * h1) for c in range(w))

    kept: dict[int, str] = {}
    for key, (text, cur, mask) in level.items():
        first = min(key, flip(cur) + flip(mask))
        if first not in kept or text < kept[first]:
            kept[first] = text
    return sorted(kept.values())


class Levels:
    """Every position of a board whose game is not over, ply by ply, as bitboards (numpy
    uint64: the mover's discs ``cur``, all discs ``mask``, columns of ``H + 1`` bits),
    each level sorted by Pons' key ``cur + mask``, with a move string each."""

    def __init__(self, game: ConnectFour) -> None:
        w, h = game.width, game.height
        self.game = game
        self.h1 = h + 1
        u = np.uint64
        self.bottom = [u(1 << (c * self.h1)) for c in range(w)]
        self.top = [u(1 << (c * self.h1 + h - 1)) for c in range(w)]
        self.column = [u(((1 << h) - 1) << (c * self.h1)) for c in range(w)]
        self.cur = [np.zeros(1, dtype=np.uint64)]
        self.mask = [np.zeros(1, dtype=np.uint64)]
        self.words: list[list[str]] = [[""]]
        for _ in range(game.cells - 1):
            cur, mask, words = self.cur[-1], self.mask[-1], self.words[-1]
            keys, parents, cols = [], [], []
            for c in range(w):
                ok, placed, wins = self.moves(cur, mask, c)
                go = ok & ~wins
                child_mask = mask[go] | placed[go]
                keys.append((cur[go] ^ mask[go]) + child_mask)
                parents.append(np.flatnonzero(go))
                cols.append(np.full(int(go.sum()), c))
            key = np.concatenate(keys)
            if key.size == 0:
                break
            parent = np.concatenate(parents)
            col = np.concatenate(cols)
            uniq, first = np.unique(key, return_index=True)
            mover = cur[parent[first]] ^ mask[parent[first]]
            self.mask.append(uniq - mover)
            self.cur.append(mover)
            pairs = zip(parent[first].tolist(), col[first].tolist(), strict=True)
            self.words.append([words[p] + str(c + 1) for p, c in pairs])

    def four(self, pos: np.ndarray) -> np.ndarray:
        """Whether each bitboard holds four in a line."""
        out = np.zeros(pos.shape, dtype=bool)
        for shift in (1, self.h1, self.h1 - 1, self.h1 + 1):
            s = np.uint64(shift)
            m = pos & (pos >> s)
            out |= (m & (m >> (s + s))) != 0
        return out

    def moves(self, cur: np.ndarray, mask: np.ndarray, c: int) -> tuple[Any, Any, Any]:
        """Column ``c`` of each position: playable, the disc's bit, whether it wins."""
        ok = (mask & self.top[c]) == 0
        placed = (mask + self.bottom[c]) & self.column[c]
        return ok, placed, self.four(cur | placed)

    def labels(self) -> list[np.ndarray]:
        """Each level's column scores ``(positions, W)`` by backward induction (a winning
        column scores ``(W*H + 1 - n) div 2`` at ``n`` discs, a column that fills the board
        0, another minus its child's score; :data:`FULL` where the column is full)."""
        g = self.game
        out: list[np.ndarray] = [np.zeros((0, g.width), dtype=np.int8)] * len(self.cur)
        below: np.ndarray | None = None
        for n in range(len(self.cur) - 1, -1, -1):
            cur, mask = self.cur[n], self.mask[n]
            scores = np.full((cur.size, g.width), FULL, dtype=np.int8)
            keys = None if n + 1 >= len(self.cur) else self.cur[n + 1] + self.mask[n + 1]
            for c in range(g.width):
                ok, placed, wins = self.moves(cur, mask, c)
                col = np.zeros(cur.size, dtype=np.int8)
                rest = ok & ~wins
                if n + 1 < g.cells and rest.any():
                    assert keys is not None and below is not None
                    child = (cur[rest] ^ mask[rest]) + (mask[rest] | placed[rest])
                    col[rest] = -below[np.searchsorted(keys, child)]
                col[wins] = (g.cells + 1 - n) // 2
                scores[:, c] = np.where(ok, col, FULL)
            out[n] = scores
            below = np.where(scores == FULL, -128, scores).max(axis=1).astype(np.int8)
        return out


FULL = -128
"""A full column's score in :meth:`Levels.labels`."""


def every_position(game: ConnectFour) -> list[str]:
    """Every position of the board whose game is not over, by ply (one move string each)."""
    return [w for words in Levels(game).words for w in words]


def label_every_position(game: ConnectFour) -> dict[str, np.ndarray]:
    """The dataset of every position of ``game``'s board (:data:`FIELDS`, settings
    aside), labelled by backward induction over all of them: no search, exact, and an
    independent check of the solver (tests/connect4/test_dataset.py)."""
    levels = Levels(game)
    scores = levels.labels()
    w, h = game.width, game.height
    parts = []
    for n, (cur, mask) in enumerate(zip(levels.cur, levels.mask, strict=True)):
        k = cur.size
        boards = np.zeros((k, h, w), dtype=np.int8)
        mover, other = (1, 2) if n % 2 == 0 else (2, 1)
        for c in range(w):
            for r in range(h):
                bit = np.uint64(1 << (c * levels.h1 + r))
                here = (mask & bit) != 0
                mine = (cur & bit) != 0
                boards[:, h - 1 - r, c] = np.where(here, np.where(mine, mover, other), 0)
        parts.append((boards, np.full(k, n % 2, dtype=np.int8), np.full(k, n, dtype=np.int16)))
    move_scores = np.concatenate(scores)
    legal = (move_scores != FULL).astype(np.int8)
    move_scores = np.where(legal == 1, move_scores, 0).astype(np.int8)
    words = [x for ws in levels.words for x in ws]
    return _arrays(words, np.concatenate([p[0] for p in parts]),
                   np.concatenate([p[1] for p in parts]), np.concatenate([p[2] for p in parts]),
                   move_scores, legal)  # fmt: skip


def sampled(game: ConnectFour, count: int, seed: int, min_ply: int = 0) -> list[str]:
    """The positions (game not over, at least ``min_ply`` discs) of random games, in the
    order played, until ``count``; repeats kept (the start of every game). A GameError
    when :data:`BARREN_GAMES` games in a row reach no such position (random games of
    the board end before ``min_ply`` discs)."""
    rng = random.Random(seed)
    out: list[str] = []
    barren = 0
    while len(out) < count:
        if barren >= BARREN_GAMES:
            raise GameError(
                f"{BARREN_GAMES:,} random games in a row ended before {min_ply} discs on "
                f"{game.width} x {game.height}: give a lower --min-ply"
            )
        state, word, before = game.initial_state(), "", len(out)
        while game.outcome(state) is None and len(out) < count:
            if len(word) >= min_ply:
                out.append(word)
            col = rng.choice(game.legal_moves(state))
            state, _ = game.play(state, col)
            word += str(col + 1)
        barren = 0 if len(out) > before else barren + 1
    return out


BARREN_GAMES = 10_000
"""Random games in a row without a position of enough discs before :func:`sampled` gives
up (a second or two)."""


@dataclass(frozen=True)
class ChunkTask:
    """One chunk's positions on one board (what a cluster worker labels)."""

    index: int
    width: int
    height: int
    moves: tuple[str, ...]


def chunks(width: int, height: int, words: list[str]) -> list[ChunkTask]:
    """The tasks of ``words``, :data:`CHUNK` each, in order."""
    return [
        ChunkTask(i // CHUNK, width, height, tuple(words[i : i + CHUNK]))
        for i in range(0, len(words), CHUNK)
    ]


def label_chunk(task: ChunkTask) -> dict[str, Any]:
    """The exact score of each column of each position (a task of the cluster layer):
    ``{"moves": [...], "move_scores": [[...]...]}`` with None for a full column."""
    from boardgames.connect4.solver import solver_for, to_bitboards

    game = ConnectFour(task.width, task.height)
    solver = solver_for(task.width, task.height, HASH_MIB)
    scores = []
    with solver.lock:
        for word in task.moves:
            state = game.parse_position(word)
            scores.append(solver.analyse(to_bitboards(game, state)))
    return {"moves": list(task.moves), "move_scores": scores}


def label_positions(game: ConnectFour, words: list[str]) -> dict[str, np.ndarray]:
    """The arrays of :data:`FIELDS` (settings aside) for ``words``, labelled here."""
    return assemble(game, [label_chunk(t) for t in chunks(game.width, game.height, words)])


def assemble(game: ConnectFour, results: list[dict[str, Any]]) -> dict[str, np.ndarray]:
    """The arrays of the file from the chunks' results, in order."""
    w, h = game.width, game.height
    words = [x for r in results for x in r["moves"]]
    raw = [x for r in results for x in r["move_scores"]]
    n = len(words)
    legal = np.array([[s is not None for s in row] for row in raw], dtype=np.int8).reshape(n, w)
    move_scores = np.array([[s or 0 for s in row] for row in raw], dtype=np.int8).reshape(n, w)
    boards = np.zeros((n, h, w), dtype=np.int8)
    to_move = np.zeros(n, dtype=np.int8)
    for i, word in enumerate(words):
        state = game.parse_position(word)
        boards[i] = state[: game.cells].reshape(w, h).T[::-1]
        to_move[i] = state[game.cells]
    ply = np.array([len(x) for x in words], dtype=np.int16)
    return _arrays(words, boards, to_move, ply, move_scores, legal)


def _arrays(
    words: list[str],
    boards: np.ndarray,
    to_move: np.ndarray,
    ply: np.ndarray,
    move_scores: np.ndarray,
    legal: np.ndarray,
) -> dict[str, np.ndarray]:
    score = np.where(legal == 1, move_scores, -128).max(axis=1).astype(np.int8)
    mover = (to_move + 1)[:, None, None]
    observations = np.stack([boards == mover, (boards != 0) & (boards != mover)], axis=1)
    return {
        "moves": np.array(words, dtype=f"<U{max(1, int(ply.max(initial=0)))}"),
        "boards": boards, "observations": observations.astype(np.int8), "to_move": to_move,
        "ply": ply, "score": score, "move_scores": move_scores, "legal": legal,
        "best": ((move_scores == score[:, None]) & (legal == 1)).astype(np.int8),
    }  # fmt: skip


def check_consistent(game: ConnectFour, data: dict[str, np.ndarray]) -> Iterator[str]:
    """Disagreements of a dataset with itself and the rules (none expected): a position's
    score is its best column's; a column's score is minus its child's score when the
    child is in the set, and the rules' score when the column ends the game."""
    states = _positions(game, data["moves"])
    index = {_key(game, s): i for i, s in enumerate(states)}
    for i, word in enumerate(data["moves"]):
        legal = data["legal"][i] == 1
        if data["score"][i] != data["move_scores"][i][legal].max():
            yield f"{word}: score {data['score'][i]} is not its best column's"
        state = states[i]
        for col in np.flatnonzero(legal):
            child, _ = game.play(state, int(col))
            over = game.outcome(child)
            got = int(data["move_scores"][i][col])
            if over is not None:
                want = -over
            elif (at := index.get(_key(game, child))) is not None:
                want = -int(data["score"][at])
            else:
                continue
            if got != want:
                yield f"{word}: column {col + 1} scores {got}, its child says {want}"


def _positions(game: ConnectFour, words: Any) -> list[State]:
    """The position of each move word, as ``game.parse_position`` gives it (its errors
    too). A word whose word less its last move came earlier is played on from that
    position: one move, not a replay from the start (a set of every position lists the
    parents first: 4 x 4's 134,289 positions in about 1 s instead of 12)."""
    seen: dict[str, State] = {}
    out = []
    for item in words:
        word = str(item).strip()
        parent = seen.get(word[:-1]) if word else None
        last = word[-1:]
        if (
            parent is not None
            and "1" <= last <= str(game.width)
            and int(last) - 1 in game.legal_moves(parent)
        ):
            state, _ = game.play(parent, int(last) - 1)
        else:  # the start, a word whose parent is not here, or a bad one (its own message)
            state = game.parse_position(word)
        seen[word] = state
        out.append(state)
    return out
