"""The Kalah page's API: a game is its setup and its sowings, replayed on every request.

The page keeps the game (setup and the pits sown, in order); the server checks it by
replaying it with :class:`~boardgames.kalah.game.Kalah` on each request, so there is no
game state on the server to lose, leak or mix up. A sowing is traced stone by stone by
running the rules module itself on a list that notes every change (:class:`TraceBoard`).
The program's move and the hint are the same calls as ``kalah play``'s
(:func:`~boardgames.kalah.play.program.program_compound`), run as jobs.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from dataclasses import dataclass
from typing import Any, SupportsIndex

from boardgames.core.protocol import GameError, State
from boardgames.kalah import rules as kalah_rules
from boardgames.kalah.game import MAX_PITS, MAX_SEEDS, MIN_PITS, MIN_SEEDS, PLAYER_NAMES, Kalah
from boardgames.kalah.play.engine import DEFAULT_TIME, PRESETS, EngineConfig
from boardgames.kalah.play.match import describe_spec, parse_spec
from boardgames.kalah.play.program import ENDGAME_STRATEGY, engine_for, program_compound, value_text
from boardgames.kalah.record import Move, Record, parse_record, replay
from boardgames.web.inputs import BadInput, choice, int_list, number, text, whole
from boardgames.web.jobs import Job

KINDS = ("human", "program", *PRESETS)
"""Who plays a side: a person, the default program (its time a move), or a preset."""
MAX_SOWINGS = 5000
"""Sowings a game may hold (a real game has a few dozen to a few hundred)."""
MAX_TIME = 60.0
"""Seconds a move the page lets the program think (the command line allows more)."""
ENGINE_LOCK = threading.Lock()
"""The engines are kept per setup (one per process, as ``kalah play`` keeps them) and
are not shared by two searches at once: searches take turns."""


@dataclass
class KalahSetup:
    """A game as the page describes it."""

    game: Kalah
    first: int
    kinds: tuple[str, str]
    time: float
    sowings: list[int]

    def program(self, player: int) -> EngineConfig:
        """The program that plays ``player`` (the default one for a human's hints)."""
        kind = self.kinds[player]
        if kind in PRESETS:
            return parse_spec(kind)
        return EngineConfig(time=self.time)

    def hint_program(self) -> EngineConfig:
        return EngineConfig(time=self.time)

    def labels(self) -> tuple[str, str]:
        """Each side's name in the record, as ``kalah play`` writes it."""
        out = []
        for player, kind in enumerate(self.kinds):
            if kind == "human":
                out.append("human")
            elif kind in PRESETS:
                out.append(f"program {describe_spec(kind)}")
            else:
                out.append(f"program ({self.program(player).describe()})")
        return out[0], out[1]


def read_setup(data: dict[str, Any]) -> KalahSetup:
    """The game of a request: ``pits``, ``seeds``, ``rules``, ``first`` (A/B),
    ``players`` ([kind, kind]), ``time`` and ``sowings``."""
    pits = whole(data, "pits", MIN_PITS, MAX_PITS, 6)
    seeds = whole(data, "seeds", MIN_SEEDS, MAX_SEEDS, 6, name="seeds (stones a pit)")
    rule_set = choice(data, "rules", kalah_rules.RULE_SETS, "classic")
    first = PLAYER_NAMES.index(choice(data, "first", PLAYER_NAMES, "A"))
    players = data.get("players", ["human", "program"])
    if (
        not isinstance(players, list)
        or len(players) != 2
        or not all(isinstance(p, str) and p in KINDS for p in players)
    ):
        raise BadInput(f"players must be two of {', '.join(KINDS)} (A first, then B)")
    seconds = number(data, "time", 0.0, MAX_TIME, DEFAULT_TIME)
    if seconds < 0.01:
        raise BadInput("time must be at least 0.01 seconds")
    sowings = int_list(data, "sowings", 0, 2 * MAX_PITS, MAX_SOWINGS)
    game = Kalah(pits, seeds, rule_set)
    return KalahSetup(game, first, (players[0], players[1]), seconds, sowings)


@dataclass
class Replayed:
    """A setup's sowings replayed: the position and the record so far."""

    state: State
    record: Record
    turn_open: bool
    announced: str | None = None


def play_sowings(setup: KalahSetup) -> Replayed:
    """Replay the sowings (BadInput naming the first illegal one)."""
    game = setup.game
    state = game.initial_state(setup.first)
    record = Record(game, setup.first, setup.labels())
    turn_open = False
    for k, pit in enumerate(setup.sowings, 1):
        try:
            game.parse_move(str(pit), state)
        except GameError as e:
            raise BadInput(f"sowing {k} (pit {pit}) is not legal: {e}") from None
        state, turn_open = _note(record, game, state, pit, turn_open)
    return Replayed(state, record, turn_open)


def _note(
    record: Record, game: Kalah, state: State, pit: int, turn_open: bool
) -> tuple[State, bool]:
    """Play one sowing and note it in the record as ``kalah play`` does."""
    player = game.to_move(state)
    state, again = game.play(state, pit)
    moves = record.moves
    if moves and turn_open and moves[-1].player == player:
        moves[-1].pits = (*moves[-1].pits, pit)
    else:
        moves.append(Move(player, (pit,)))
    return state, again


def position(setup: KalahSetup, replayed: Replayed) -> dict[str, Any]:
    """What the page draws: board, who moves, legal pits, the result when over."""
    game, state = setup.game, replayed.state
    over = game.outcome(state) is not None
    out: dict[str, Any] = {
        "pits": game.pits,
        "seeds": game.seeds,
        "rules": game.rules,
        "board": game.board(state),
        "to_move": None if over else PLAYER_NAMES[game.to_move(state)],
        "legal": game.legal_moves(state),
        "over": over,
        "extra_turn": bool(replayed.turn_open and not over),
        "sowings": list(setup.sowings),
        "moves": [
            {"player": PLAYER_NAMES[m.player], "pits": list(m.pits)} for m in replayed.record.moves
        ],
        "labels": list(replayed.record.players),
    }
    stores = game.final_stores(state)
    if stores is not None:
        a, b = stores
        verdict = "a draw" if a == b else f"{'A' if a > b else 'B'} wins by {abs(a - b)}"
        out["final"] = {"A": a, "B": b, "text": f"A {a}, B {b}: {verdict}"}
    else:
        board = game.board(state)
        m, total = game.pits, sum(board)
        for player, store in ((0, board[m]), (1, board[2 * m + 1])):
            if 2 * store > total:
                out["decided"] = (
                    f"{PLAYER_NAMES[player]} has more than half of the stones ({store} of "
                    f"{total}) and can no longer lose; playing on for the score."
                )
    return out


# --- a sowing, stone by stone --------------------------------------------------------------


class TraceBoard(list[int]):
    """A board list that notes every change the rules make to it: ``(hole, new count)``."""

    def __init__(self, board: list[int]) -> None:
        super().__init__(board)
        self.changes: list[tuple[int, int]] = []

    def __setitem__(self, index: SupportsIndex | slice, value: Any) -> None:
        if isinstance(index, slice):  # the rules never assign slices; keep them honest
            raise TypeError("slice assignment is not traced")
        super().__setitem__(index, value)
        self.changes.append((int(index), int(value)))


def trace_sowing(game: Kalah, state: State, pit: int) -> list[dict[str, Any]]:
    """Every change one sowing makes, in order, as the rules module makes it: ``{"hole",
    "count", "what"}`` with ``what`` one of take (the pit emptied to sow it, a capture,
    a sweep), drop (one stone) or store (several stones into a store at once)."""
    board = TraceBoard(game.board(state))
    mover = game.to_move(state)
    if game.rules == kalah_rules.CLASSIC:
        kalah_rules.classic_move(board, game.pits, mover, pit, game.empty_capture)
    else:
        kalah_rules.etudes_move(board, game.pits, mover, pit)
    before = game.board(state)
    out = []
    for hole, count in board.changes:
        old = before[hole]
        if count == old:
            continue  # a sweep of an empty pit changes nothing
        what = "drop" if count == old + 1 else "take" if count < old else "store"
        out.append({"hole": hole, "count": count, "what": what})
        before[hole] = count
    return out


def sow(setup: KalahSetup, pit: Any) -> dict[str, Any]:
    """One sowing by the side to move: its trace, what happened, the new position."""
    replayed = play_sowings(setup)
    game, state = setup.game, replayed.state
    if isinstance(pit, bool) or not isinstance(pit, int):
        raise BadInput("pit must be a whole number (a pit of the side to move)")
    try:
        game.parse_move(str(pit), state)
    except GameError as e:
        raise BadInput(str(e)) from None
    player = game.to_move(state)
    trace = trace_sowing(game, state, pit)
    state, again = _note(replayed.record, game, state, pit, replayed.turn_open)
    setup.sowings.append(pit)
    after = Replayed(state, replayed.record, again)
    if game.board(state) != [c for c in _replay_trace(game, replayed.state, trace)]:
        raise RuntimeError("the traced sowing differs from the rules' own")  # pragma: no cover
    out = position(setup, after)
    out["trace"] = trace
    out["said"] = _said(game, player, pit, trace, again, state)
    return out


def _replay_trace(game: Kalah, state: State, trace: list[dict[str, Any]]) -> list[int]:
    board = game.board(state)
    for change in trace:
        board[change["hole"]] = change["count"]
    return board


def _said(
    game: Kalah, player: int, pit: int, trace: list[dict[str, Any]], again: bool, after: State
) -> str:
    """One line on the sowing: relays, capture, extra turn, end of the game."""
    line = f"{PLAYER_NAMES[player]} sows {pit}"
    takes = [k for k, c in enumerate(trace) if c["what"] == "take"]
    starts = [k for k in takes if k + 1 < len(trace) and trace[k + 1]["what"] == "drop"]
    if len(starts) > 1:
        line += ", relayed from " + ", ".join(str(trace[k]["hole"]) for k in starts[1:])
    over = game.outcome(after) is not None
    if len(takes) > len(starts) and not over:
        line += ": a capture"
    if again:
        line += ": last stone in the store, extra turn"
    if over:
        line += ". Game over"
    return line + "."


# --- the program and the hint (jobs) -------------------------------------------------------


def check_turn(setup: KalahSetup, *, hint: bool) -> tuple[State, int]:
    """The position and the side to move; BadInput when the game is over, or (``hint``
    False) when a person plays that side."""
    game, state = setup.game, play_sowings(setup).state
    if game.outcome(state) is not None:
        raise BadInput("the game is over: there is no move to choose")
    player = game.to_move(state)
    if not hint and setup.kinds[player] == "human":
        raise BadInput(f"{PLAYER_NAMES[player]} is played by a person, not the program")
    return state, player


def think(setup: KalahSetup, job: Job, *, hint: bool) -> dict[str, Any]:
    """The program's compound move for the side to move (``hint``: the default program's
    advice, worded as ``kalah play``'s hint)."""
    game = setup.game
    state, player = check_turn(setup, hint=hint)
    config = setup.hint_program() if hint else setup.program(player)
    job.report(stage="waiting for the engine")
    while not ENGINE_LOCK.acquire(timeout=0.1):
        job.check()
    try:
        job.report(stage="loading the program (the first time it is compiled)")
        engine = engine_for(game, config)
        engine.searcher.ws.resume()  # a cancel that came late for an earlier search
        job.check()

        finished = threading.Event()
        watchers: list[threading.Thread] = []

        def keep_stopping() -> None:
            # the search may be between two kernels, or about to start a proof: stop
            # whatever runs until the move returns
            while not finished.is_set():
                engine.searcher.ws.abort()
                solver = engine._solver  # only if a proof made one
                if solver is not None:
                    solver.interrupt()
                finished.wait(0.05)

        def stop() -> None:
            watcher = threading.Thread(target=keep_stopping, name="stop-search", daemon=True)
            watchers.append(watcher)
            watcher.start()

        job.report(stage="thinking", seconds=config.time_limit)

        def on_iteration(depth: int, value: int, nodes: int) -> None:
            job.progress = {
                "stage": "thinking",
                "depth": depth,
                "value": value_text(value, config.evaluation),
                "positions": nodes,
            }
            job.version += 1

        engine.on_iteration = on_iteration
        t0 = time.perf_counter()
        try:
            job.on_cancel = stop
            job.check()  # a cancel just before the hook was set
            pits, result = program_compound(game, state, config)
        finally:
            finished.set()
            job.on_cancel = None
            for watcher in watchers:
                watcher.join()
            engine.on_iteration = None
            engine.searcher.ws.resume()
        seconds = time.perf_counter() - t0
    finally:
        ENGINE_LOCK.release()
    job.check()
    value = value_text(result.value, config.evaluation, result.exact)
    if hint:
        if result.strategy == ENDGAME_STRATEGY:
            how = "exact, from the endgame tables"
        elif result.exact:
            how = "exact, solved"
        else:
            how = f"at depth {result.depth}"
        said = f"Hint: sow {' then '.join(map(str, pits))} (value {value} {how})."
    else:
        if result.strategy == ENDGAME_STRATEGY:
            value += " (exact: endgame tables)"
        elif result.exact:
            value += " (exact: solved)"
        said = (
            f"{PLAYER_NAMES[player]} moves from {' '.join(map(str, pits))} "
            f"(value {value}, {result.nodes:,} positions, {seconds:.2f} s)"
        )
    return {
        "pits": list(pits),
        "player": PLAYER_NAMES[player],
        "value": value,
        "exact": bool(result.exact),
        "depth": result.depth,
        "positions": result.nodes,
        "seconds": round(seconds, 3),
        "said": said,
        "sowings": list(setup.sowings),
    }


# --- records -------------------------------------------------------------------------------


def record_text(setup: KalahSetup) -> str:
    """The game's record in the ``.klh`` format (``Record.text``, as ``kalah play`` saves)."""
    return play_sowings(setup).record.text()


def open_record(data: dict[str, Any]) -> dict[str, Any]:
    """A record's text read and replayed: its setup and sowings (the page plays on)."""
    from boardgames.kalah.record import MAX_RECORD_BYTES

    body = text(data, "text", MAX_RECORD_BYTES)
    try:
        record = parse_record(body)
        steps, _ = replay(record)
    except GameError as e:
        raise BadInput(f"not a record this toolkit reads: {e}") from None
    game = record.game
    if game.empty_capture:  # pragma: no cover - records do not carry the variant
        raise BadInput("the empty-capture variant is not played here")
    sowings = [pit for step in steps for pit in step.pits]
    kinds = tuple(_kind(p) for p in record.players)
    setup = KalahSetup(game, record.first, (kinds[0], kinds[1]), DEFAULT_TIME, sowings)
    out = position(setup, play_sowings(setup))
    out["first"] = PLAYER_NAMES[record.first]
    out["players"] = list(setup.kinds)
    out["record_players"] = list(record.players)
    out["notes"] = list(record.notes)
    return out


def _kind(label: str) -> str:
    """The page's player kind for a record's player line (a person unless a program)."""
    word = label.strip().lower()
    if word.startswith("program"):
        for name in PRESETS:
            if word.startswith(f"program {name} ("):
                return name
        return "program"
    return "human"


def replace_time(setup: KalahSetup, seconds: float) -> KalahSetup:
    return dataclasses.replace(setup, time=seconds)
