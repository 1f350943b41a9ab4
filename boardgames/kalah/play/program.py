"""The computer player's seam: one place that decides how the program searches.

:func:`program_compound` is what ``kalah play`` and ``kalah analyse`` use: the engine
(:mod:`boardgames.kalah.play.engine`) under an :class:`~boardgames.kalah.play.engine.EngineConfig`
(depth, seconds or positions a move, evaluation, strategy, depth unit). Engines are kept per
setup and configuration, so only the first move pays for loading the kernels.

:func:`choose_move` / :func:`choose_compound` are the pure-Python reference program
(core.search.alphabeta, Knuth and Moore's F2, depth in compound moves): the yardstick the
engine is tested against, and the "classic program" of the matches.
"""

from __future__ import annotations

import dataclasses
import time
from typing import TYPE_CHECKING

from boardgames.core.protocol import (
    SearchResult,
    State,
    describe_score,
    is_terminal_score,
    terminal_score,
)
from boardgames.core.search import alphabeta
from boardgames.kalah.exact import index
from boardgames.kalah.exact.index import pit_stones
from boardgames.kalah.game import Kalah
from boardgames.kalah.play.engine import DEFAULT_TIME, EngineConfig, KalahEngine

if TYPE_CHECKING:
    from boardgames.kalah.exact.endgame import EndgameTable

DEFAULT_DEPTH = 6
"""Depth (compound moves) of the pure-Python reference program."""

_ENGINES: dict[tuple[Kalah, EngineConfig], KalahEngine] = {}
ENDGAME_STRATEGY = "endgame table"
"""``SearchResult.strategy`` of a move taken from the endgame tables (exact value)."""
SMALL_TABLE_ENTRIES = 3_000_000
"""With no table in the cache, play builds one of at most this many positions (1-2 s)."""
LARGEST_PLAY_TABLE = 300_000_000
"""Play loads no cached table bigger than this (bytes of memory)."""
_TABLES: dict[tuple[int, bool, int], EndgameTable] = {}


def endgame_table(game: Kalah, stones: int) -> EndgameTable | None:
    """The endgame table play and analyse use for a position with ``stones`` stones in the
    pits, or None (other rules, or no table that holds it). It is the smallest table in
    the disk cache that holds the position (``kalah solve`` builds big ones), else a
    small one built once (a second or two) when a game first gets that far."""
    from boardgames.kalah.exact import endgame

    if game.rules != "classic":
        return None
    ec = game.empty_capture
    fits = [
        k
        for k in endgame.cached_stones(game.pits, "classic", ec)
        if k >= stones and index.table_entries(game.pits, k) <= LARGEST_PLAY_TABLE
    ]
    small = index.largest_stones(game.pits, SMALL_TABLE_ENTRIES)
    if not fits and stones > small:
        return None
    key = (game.pits, ec, min(fits) if fits else small)
    if key not in _TABLES:
        _TABLES[key] = endgame.load_or_build(game.pits, key[2], empty_capture=ec)
    return _TABLES[key]


def endgame_compound(game: Kalah, state: State) -> tuple[tuple[int, ...], SearchResult] | None:
    """Perfect play from the endgame tables: the compound move that keeps the exact value
    (the first such sowing in pit order each time), or None when no table covers
    ``state``. The value is the final margin, as a proven score."""

    table = endgame_table(game, pit_stones(state, game.pits))
    if table is None or game.outcome(state) is not None:
        return None
    player = game.to_move(state)
    value = exact_margin(game, table, state)
    pits: list[int] = []
    while game.outcome(state) is None and game.to_move(state) == player:
        for pit in game.legal_moves(state):
            child, again = game.play(state, pit)
            margin = exact_margin(game, table, child)
            if margin == (value if game.to_move(child) == player else -value):
                break
        else:  # pragma: no cover - the table's value is reached by one of the moves
            raise AssertionError("no move keeps the endgame table's value")
        pits.append(pit)
        state = child
        if not again:
            break
    score = terminal_score(value, 0)
    return tuple(pits), SearchResult(score, pits[0], list(pits), 0, 0, ENDGAME_STRATEGY, exact=True)


def exact_margin(game: Kalah, table: EndgameTable, state: State) -> int:
    """Final margin for the side to move in ``state`` under perfect play (``state`` inside
    ``table``, or finished)."""
    out = game.outcome(state)
    if out is not None:
        return out
    m = game.pits
    own, opp = (m, 2 * m + 1) if game.to_move(state) == 0 else (2 * m + 1, m)
    return int(state[own] - state[opp]) + table.value(state)


def proof_table(game: Kalah) -> EndgameTable | None:
    """The endgame table of the engine's proofs: the biggest cached one that play may load,
    else the small one play builds (a second or two, once); None under Etudes rules."""
    from boardgames.kalah.exact import endgame

    if game.rules != "classic":
        return None
    ec = game.empty_capture
    cached = [
        k
        for k in endgame.cached_stones(game.pits, "classic", ec)
        if index.table_entries(game.pits, k) <= LARGEST_PLAY_TABLE
    ]
    stones = max(cached, default=index.largest_stones(game.pits, SMALL_TABLE_ENTRIES))
    key = (game.pits, ec, stones)
    if key not in _TABLES:
        _TABLES[key] = endgame.load_or_build(game.pits, stones, empty_capture=ec)
    return _TABLES[key]


def engine_for(game: Kalah, config: EngineConfig) -> KalahEngine:
    """The engine for this setup and configuration, made once per process; its proofs use
    :func:`proof_table`."""
    key = (dataclasses.replace(game, evaluation=config.evaluation), config)
    if key not in _ENGINES:
        _ENGINES[key] = KalahEngine(game, config, tables=lambda: proof_table(game))
    return _ENGINES[key]


def value_text(score: int, evaluation: str, exact: bool = False) -> str:
    """A search score for people: a result in words (``win by 6`` when ``exact``, else
    ``win by at least 6``), else the evaluation in its own unit (store and tseitin in
    stones; tseitin is computed in thousandths)."""
    if exact or is_terminal_score(score) or evaluation != "tseitin":
        return describe_score(score, exact)
    return f"{score / 1000:+.1f}"


def program_compound(
    game: Kalah, state: State, config: EngineConfig
) -> tuple[tuple[int, ...], SearchResult]:
    """The program's whole compound move and its search (value, PV, positions, depth).

    Inside the endgame tables the move is perfect and its value exact
    (:func:`endgame_compound`); elsewhere, and always for a program that uses no exact
    knowledge (``prove=0`` or a node budget: ``config.proves`` is False, as the classic
    programs had none), the engine searches."""
    exact = endgame_compound(game, state) if config.proves else None
    if exact is not None:
        return exact
    answer = engine_for(game, config).best_move(state)
    result = SearchResult(
        answer.value, answer.move[0] if answer.move else None, list(answer.pv), answer.nodes,
        answer.depth, config.strategy, exact=answer.exact,
    )  # fmt: skip
    return answer.move, result


def choose_move(
    game: Kalah,
    state: State,
    depth: int | None = DEFAULT_DEPTH,
    *,
    evaluation: str | None = None,
) -> SearchResult:
    """The reference program's best first sowing in ``state``, its value, PV and nodes.

    ``depth`` counts compound moves (None: to the end of the game); ``evaluation`` overrides
    the game's own evaluation function for this search.
    """
    if evaluation is not None and evaluation != game.evaluation:
        game = dataclasses.replace(game, evaluation=evaluation)
    return alphabeta(game, state, depth, again_is_ply=False)


def choose_compound(
    game: Kalah,
    state: State,
    depth: int | None = DEFAULT_DEPTH,
    *,
    evaluation: str | None = None,
) -> tuple[tuple[int, ...], SearchResult]:
    """The reference program's whole compound move and the search result at the root.

    The compound move is the principal variation's prefix up to where the turn passes or
    the game ends; should the PV stop early while the program still has the move, the
    program searches again from there.
    """
    result = choose_move(game, state, depth, evaluation=evaluation)
    if result.best_move is None:
        return (), result
    player = game.to_move(state)
    pits: list[int] = []
    pv = list(result.pv)
    while game.outcome(state) is None and game.to_move(state) == player:
        if not pv:
            pv = list(choose_move(game, state, depth, evaluation=evaluation).pv)
        move = pv.pop(0)
        pits.append(move)
        state, _ = game.play(state, move)
    return tuple(pits), result


REFERENCE_MAX_DEPTH = 12
"""The deepest :func:`reference_within` searches (far past what a second reaches)."""


def reference_within(
    game: Kalah, state: State, config: EngineConfig, seconds: float | None = None
) -> tuple[tuple[int, ...], SearchResult]:
    """The reference program's compound move, deepened one compound move at a time while
    the next depth is likely to fit in ``config``'s time, or ``seconds`` (its depth, if it
    sets one, caps it): what the program plays while the compiled engine is not ready
    yet. Pure Python, nothing to compile; ``result.depth`` is the depth searched. Its
    value is exact only where the search saw the game's end (a decided score)."""
    if seconds is not None:
        budget = seconds
    else:
        budget = config.time if config.time is not None else DEFAULT_TIME
    cap = min(config.depth or REFERENCE_MAX_DEPTH, REFERENCE_MAX_DEPTH)
    t0 = time.perf_counter()
    best = choose_compound(game, state, 1, evaluation=config.evaluation)
    depth = 1
    last = time.perf_counter() - t0
    # alpha-beta's effective branching on Kalah is about 4 a compound move (measured)
    while depth < cap and (time.perf_counter() - t0) + 4 * last <= budget:
        s0 = time.perf_counter()
        best = choose_compound(game, state, depth + 1, evaluation=config.evaluation)
        depth += 1
        last = time.perf_counter() - s0
        if is_terminal_score(best[1].value):
            break  # the game's end is in sight: deeper changes nothing
    pits, result = best
    return pits, dataclasses.replace(result, depth=depth, strategy="reference")
