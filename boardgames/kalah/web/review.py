"""The review page's API: ``kalah review`` (the same :class:`Reviewer`) as a job.

The review values every move for the player who made it, exact where the solver reaches
within ``exact_nodes`` positions (with the endgame table the cache already holds, as
``kalah review --quick``: the page builds none), else by a search ``depth`` compound
moves deep. Each finished move is sent as progress; cancel stops the solver and the
depth-limited searches (their numba kernels aborted) within a second.
"""

from __future__ import annotations

from typing import Any

from boardgames.core.protocol import GameError, describe_score, score_margin, short_score
from boardgames.kalah.game import PLAYER_NAMES
from boardgames.kalah.record import MAX_RECORD_BYTES, Record, parse_record, replay
from boardgames.kalah.web.page import play_sowings, read_setup
from boardgames.web.inputs import BadInput, text, whole
from boardgames.web.jobs import Cancelled, Job

MAX_DEPTH = 40
"""The deepest review search (as ``kalah review --depth``)."""
DEFAULT_DEPTH = 8
DEFAULT_EXACT_NODES = 2_000_000
"""Positions the solver may spend on a move before the search takes over (the command
line's default is 20,000,000: minutes for a game; the page's is seconds)."""
MAX_EXACT_NODES = 10**12


def read_review(data: dict[str, Any]) -> tuple[Record, int, int]:
    """The record to review (``text`` of a record, or ``game``: the page's game) and
    the settings ``depth`` and ``exact_nodes``; BadInput for a bad record."""
    depth = whole(data, "depth", 1, MAX_DEPTH, DEFAULT_DEPTH)
    exact_nodes = whole(data, "exact_nodes", 0, MAX_EXACT_NODES, DEFAULT_EXACT_NODES)
    if "text" in data:
        body = text(data, "text", MAX_RECORD_BYTES)
        try:
            record = parse_record(body)
            replay(record)
        except GameError as e:
            raise BadInput(f"not a record this toolkit reads: {e}") from None
    elif isinstance(data.get("game"), dict):
        record = play_sowings(read_setup(data["game"])).record
    else:
        raise BadInput("give text (a record) or game (the game on the Kalah page)")
    if not record.moves:
        raise BadInput("the record holds no moves to review")
    return record, depth, exact_nodes


def run_review(record: Record, depth: int, exact_nodes: int, job: Job) -> dict[str, Any]:
    """Every move's row (as ``kalah review --json`` gives it) with the boards before
    and after, and a value for the graph from A's side."""
    from boardgames.kalah.analysis.review import Reviewer
    from boardgames.kalah.exact.sizing import quick_stones
    from boardgames.kalah.exact.solver import SearchStopped

    steps, _ = replay(record)
    game = record.game
    stones = 0
    table = None
    job.report(stage="loading the endgame table", done=0, total=len(steps))
    if game.rules == "classic" and exact_nodes > 0:
        from boardgames.kalah.exact import endgame

        stones = quick_stones(game.pits, game.total_stones, game.empty_capture)
        if stones:
            table = endgame.load_cached(game.pits, stones, empty_capture=game.empty_capture)
    job.check()
    job.report(stage="loading the solver and the search", done=0, total=len(steps))
    reviewer = Reviewer(game, table, depth=depth, exact_nodes=exact_nodes)

    def stop() -> None:
        # the solver, and the engines of the depth-limited searches (made as the review
        # needs them: the job calls this again until the review has stopped)
        reviewer.stop()
        for engine in list(reviewer.first_guess._engines.values()):
            engine.searcher.ws.abort()

    state = game.initial_state(record.first)
    rows: list[dict[str, Any]] = []
    line = 0
    with job.stopping(stop):
        for k, step in enumerate(steps, 1):
            job.report(stage="reviewing", done=k - 1, total=len(steps), rows=rows[-1:])
            try:
                row = reviewer.review_move(state, step.pits, k)
            except SearchStopped:
                raise Cancelled from None
            job.check()  # a search stopped by the cancel gives no row worth showing
            row["board_before"] = game.board(state)
            row["board_after"] = game.board(step.state)
            row["to_move_after"] = (
                None
                if game.outcome(step.state) is not None
                else PLAYER_NAMES[game.to_move(step.state)]
            )
            row["before_text"] = _value(row["before"], row["exact"])
            row["after_text"] = _value(row["after"], row["exact"])
            row["after_short"] = row["after_text"] if row["exact"] else short_score(row["after"])
            # the record's numbered line (RULES.md 3: A's move then B's on one line)
            line += 1 if k == 1 or row["player"] == "A" else 0
            row["line"] = line
            row["graph_before"] = _for_a(row["before"], row["player"])
            row["graph"] = _for_a(row["after"], row["player"])
            row["graph_final"] = score_margin(row["after"]) is not None
            rows.append(row)
            state = step.state
    job.report(stage="done", done=len(steps), total=len(steps), rows=rows[-1:])
    counts = {
        v: sum(1 for r in rows if r["verdict"] == v) for v in ("best", "inaccuracy", "mistake")
    }
    return {
        "pits": game.pits,
        "seeds": game.seeds,
        "rules": game.rules,
        "first": PLAYER_NAMES[record.first],
        "players": list(record.players),
        "start": game.board(game.initial_state(record.first)),
        "endgame_stones": stones,
        "depth": depth,
        "exact_nodes": exact_nodes,
        "moves": rows,
        "lines": line,
        "counts": counts,
        "exact_moves": sum(1 for r in rows if r["exact"]),
    }


def _for_a(score: int, player: str) -> int:
    """A mover's value as the graph draws it: from A's side, a won or lost end as its
    margin."""
    value = score if player == "A" else -score
    margin = score_margin(value)
    return margin if margin is not None else value


def _value(score: int, exact: bool) -> str:
    """A value as the review table shows it: ``+6`` exact, else the search's words."""
    return f"{score:+d}" if exact else describe_score(score)
