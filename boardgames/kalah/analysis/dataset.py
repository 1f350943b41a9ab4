"""Exact labels for learning: positions of Kalah games with their value under perfect play
and the values of every move (``kalah dataset`` writes them; the learning environments'
loss wrapper asks :class:`Labeller`).

A *label* of a position (the side to move to play) is its exact value, the final margin
for the mover under perfect play, and for each of the mover's pits (counted from the
mover's left, as the environments number actions) the exact value of sowing it, from the
mover's view: the child's value when the mover moves again (an extra turn), minus it when
the turn passes. The best moves are those whose value equals the position's; a move's
*loss* is the position's value minus the move's value (0 for a best move), in stones.

Values come from the endgame table that play uses (:func:`~boardgames.kalah.play.program.
proof_table`, classic rules) for positions with few stones in the pits, else from the
exact solver (:class:`~boardgames.kalah.exact.solver.Solver`, with that table). Nothing
here is an estimate: every value is exact.

Positions are sampled from games played from the start by a policy: ``random`` (each
sowing uniformly among the legal ones) or a ``kalah match`` player spec (both sides the
program, after ``opening`` random sowings). Every position where a sowing is chosen is
kept (after an extra turn too), so positions repeat across games (the start always).
The work is cut into chunks of :data:`CHUNK` positions, each a task of
:mod:`boardgames.core.cluster` with its own seed: the same chunk gives the same positions
wherever and whenever it runs.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from boardgames.core.progress import format_duration
from boardgames.core.protocol import GameError, State
from boardgames.kalah.exact import index
from boardgames.kalah.exact.index import pit_stones
from boardgames.kalah.exact.sizing import SOLVE_RATE, estimate_positions
from boardgames.kalah.game import Kalah
from boardgames.kalah.play.engine import EngineConfig
from boardgames.kalah.play.match import parse_spec
from boardgames.kalah.play.program import (
    SMALL_TABLE_ENTRIES,
    exact_margin,
    program_compound,
    proof_table,
)

if TYPE_CHECKING:
    from boardgames.kalah.exact.endgame import EndgameTable
    from boardgames.kalah.exact.solver import Solver

CHUNK = 200
"""Positions a task labels."""
QUICK_SECONDS = 0.2
"""A board is labelled only when the solver's estimate for its start position is at most
this: a label takes a solve per move, and a chunk should take seconds, not minutes
(5 x 4, estimated at 0.85 s, labelled 4.4 positions a second; 4 x 5, at 0.12 s, ...)."""
RANDOM = "random"
MAX_POSITIONS = 10_000_000
HASH_MB = 32
FIELDS = {
    "boards": "int16 (N, 2m+2): the holes in RULES.md numbering (A's pits, A's store, "
    "B's pits, B's store)",
    "to_move": "int8 (N,): the side to move, 0 (A) or 1 (B)",
    "observations": "int16 (N, 2m+2): the holes from the mover's side (own pits, own "
    "store, opponent's pits, its store), as the environments observe",
    "values": "int16 (N,): exact final margin for the mover under perfect play",
    "move_values": "int16 (N, m): exact value of sowing each own pit (from the mover's "
    "left), mover's view; 0 where the pit is empty",
    "legal": "int8 (N, m): 1 where the pit can be sown",
    "best": "int8 (N, m): 1 for the best moves (move value equal to the position's)",
    "game": "int32 (N,): the game a position comes from (chunk * 100000 + game in chunk)",
    "ply": "int32 (N,): sowings played before the position in its game",
    "pits, seeds, rules, empty_capture, play, opening, seed": "the settings (0-d arrays)",
}
"""The fields of the ``.npz`` file and what they hold."""


def estimate_seconds(game: Kalah) -> float:
    """The solver's rough time for the start position with the small endgame table play
    builds (classic rules) or none (Etudes): :func:`~boardgames.kalah.exact.sizing.
    estimate_positions` at :data:`~boardgames.kalah.exact.sizing.SOLVE_RATE`."""
    table = index.largest_stones(game.pits, SMALL_TABLE_ENTRIES) if game.rules == "classic" else 0
    return estimate_positions(game.pits, game.total_stones, table) / SOLVE_RATE


def check_quick(game: Kalah) -> None:
    """GameError (one line) unless the solver labels this board quickly."""
    seconds = estimate_seconds(game)
    if seconds > QUICK_SECONDS:
        raise GameError(
            f"Kalah {game.pits} x {game.seeds} ({game.total_stones} stones) is too big to "
            f"label quickly (a solve of its start takes about {format_duration(seconds)}); "
            "take a board solved within 0.2 s (classic: at most 4 x 5, 5 x 3, 6 x 2, 7 x 2)"
        )


def check_policy(policy: str) -> EngineConfig | None:
    """None for ``random``, else the program of a ``kalah match`` spec (GameError)."""
    if policy.strip().lower() == RANDOM:
        return None
    return parse_spec(policy)


@dataclass
class Label:
    """A position's exact value and its moves' (see the module docstring)."""

    value: int
    move_values: list[int]
    legal: list[int]

    @property
    def best(self) -> list[int]:
        return [
            int(ok and v == self.value) for v, ok in zip(self.move_values, self.legal, strict=True)
        ]

    def loss(self, action: int) -> int:
        """Stones the move ``action`` gives away against perfect play."""
        return self.value - self.move_values[action]


class Labeller:
    """Exact values of one game's positions: endgame table first, the solver beyond it."""

    def __init__(self, game: Kalah, hash_mb: float = HASH_MB) -> None:
        from boardgames.kalah.exact.solver import Solver

        self.game = game
        self.table: EndgameTable | None = proof_table(game)
        self.solver: Solver = Solver(
            game.pits, game.rules, hash_mb=hash_mb, endgame=self.table,
            empty_capture=game.empty_capture,
        )  # fmt: skip

    def value(self, state: State, node_limit: int = 0) -> int:
        """Exact final margin for the side to move; the solver's ``SearchStopped`` past
        ``node_limit`` positions (0: none)."""
        out = self.game.outcome(state)
        if out is not None:
            return out
        if self.table is not None and pit_stones(state, self.game.pits) <= self.table.stones:
            return exact_margin(self.game, self.table, state)
        return self.solver.value(state, node_limit)

    def label(self, state: State, node_limit: int = 0) -> Label:
        """The position's label (``SearchStopped`` past ``node_limit`` in one solve)."""
        game = self.game
        mover = game.to_move(state)
        m = game.pits
        move_values = [0] * m
        legal = [0] * m
        for pit in game.legal_moves(state):
            child, _ = game.play(state, pit)
            v = self.value(child, node_limit)
            i = pit if mover == 0 else pit - m - 1
            move_values[i] = v if game.to_move(child) == mover else -v
            legal[i] = 1
        value = max(v for v, ok in zip(move_values, legal, strict=True) if ok)
        return Label(value, move_values, legal)

    def try_label(self, state: State, node_limit: int) -> Label | None:
        """The label, or None when a solve would pass ``node_limit`` positions."""
        from boardgames.kalah.exact.solver import SearchStopped

        try:
            return self.label(state, node_limit)
        except SearchStopped:
            return None


_LABELLERS: dict[Kalah, Labeller] = {}


def labeller(game: Kalah) -> Labeller:
    """This process's labeller of ``game`` (made once: the table loads, the kernels compile)."""
    if game not in _LABELLERS:
        _LABELLERS[game] = Labeller(game)
    return _LABELLERS[game]


@dataclass(frozen=True)
class DatasetTask:
    """One chunk of a dataset: ``size`` positions from games seeded by ``seed`` and
    ``index``."""

    index: int
    size: int
    pits: int
    seeds: int
    rules: str
    empty_capture: bool
    play: str
    opening: int
    seed: int

    @property
    def game(self) -> Kalah:
        return Kalah(self.pits, self.seeds, self.rules, empty_capture=self.empty_capture)


def _sowings(game: Kalah, state: State, config: EngineConfig | None, rng: random.Random,
             random_left: int) -> tuple[int, ...]:  # fmt: skip
    """The next sowings of the policy: one random sowing, or the program's compound move."""
    legal = game.legal_moves(state)
    if config is None or random_left > 0:
        return (rng.choice(legal),)
    move, _ = program_compound(game, state, config)
    return move


def label_chunk(task: DatasetTask) -> dict[str, Any]:
    """Play and label one chunk's positions (a task of :mod:`boardgames.core.cluster`):
    a JSON-ready dict of lists."""
    game = task.game
    config = check_policy(task.play)
    lab = labeller(game)
    rng = random.Random(task.seed * 1_000_003 + task.index)
    keys = ("boards", "to_move", "values", "move_values", "legal", "game", "ply")
    out: dict[str, list[Any]] = {k: [] for k in keys}
    games = 0
    while len(out["values"]) < task.size:
        state = game.initial_state()
        ply = 0
        while game.outcome(state) is None and len(out["values"]) < task.size:
            for pit in _sowings(game, state, config, rng, task.opening - ply):
                label = lab.label(state)
                out["boards"].append(game.board(state))
                out["to_move"].append(game.to_move(state))
                out["values"].append(label.value)
                out["move_values"].append(label.move_values)
                out["legal"].append(label.legal)
                out["game"].append(task.index * 100_000 + games)
                out["ply"].append(ply)
                state, _ = game.play(state, pit)
                ply += 1
                if len(out["values"]) >= task.size:
                    break
        games += 1
    return out


def tasks(positions: int, pits: int, seeds: int, rules: str, empty_capture: bool, play: str,
          opening: int, seed: int) -> list[DatasetTask]:  # fmt: skip
    """The chunks of a dataset of ``positions`` positions: whole chunks, whatever the
    count (the file keeps the first ``positions``), so a checkpoint of a smaller dataset
    resumes a bigger one."""
    return [
        DatasetTask(i, CHUNK, pits, seeds, rules, empty_capture, play, opening, seed)
        for i in range(-(-positions // CHUNK))
    ]


def assemble(
    game: Kalah,
    chunks: list[dict[str, Any]],
    settings: dict[str, Any],
    positions: int | None = None,
) -> dict[str, np.ndarray]:
    """The arrays of the ``.npz`` file (:data:`FIELDS`) from the chunks' results, in
    order: the first ``positions`` (None: all)."""
    m = game.pits

    def cat(key: str) -> list[Any]:
        return [x for c in chunks for x in c[key]][:positions]

    boards = np.array(cat("boards"), dtype=np.int16).reshape(-1, 2 * m + 2)
    to_move = np.array(cat("to_move"), dtype=np.int8)
    values = np.array(cat("values"), dtype=np.int16)
    move_values = np.array(cat("move_values"), dtype=np.int16).reshape(-1, m)
    legal = np.array(cat("legal"), dtype=np.int8).reshape(-1, m)
    observations = boards.copy()
    b = to_move == 1
    observations[b] = np.roll(boards[b], -(m + 1), axis=1)
    best = ((move_values == values[:, None]) & (legal == 1)).astype(np.int8)
    arrays = {
        "boards": boards, "to_move": to_move, "observations": observations, "values": values,
        "move_values": move_values, "legal": legal, "best": best,
        "game": np.array(cat("game"), dtype=np.int32), "ply": np.array(cat("ply"), dtype=np.int32),
    }  # fmt: skip
    for key, value in settings.items():
        arrays[key] = np.array(value)
    return arrays
