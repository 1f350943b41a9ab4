"""The computer player's seam: one place that decides how the program searches.

:func:`program_compound` is what ``kalah play`` and ``kalah analyse`` use: the numba engine
(:mod:`boardgames.kalah.engine`) under an :class:`~boardgames.kalah.engine.EngineConfig`
(depth and/or seconds a move, evaluation, strategy, depth unit). Engines are kept per
setup and configuration, so only the first move pays for loading the kernels.

:func:`choose_move` / :func:`choose_compound` are the pure-Python reference program
(core.search.alphabeta, Knuth and Moore's F2, depth in compound moves): the yardstick the
engine is tested against, and the "classic program" of the matches.
"""

from __future__ import annotations

import dataclasses

from boardgames.core.protocol import SearchResult, State, describe_score, is_terminal_score
from boardgames.core.search import alphabeta
from boardgames.kalah.engine import EngineConfig, KalahEngine
from boardgames.kalah.game import Kalah

DEFAULT_DEPTH = 6
"""Depth (compound moves) of the pure-Python reference program."""

_ENGINES: dict[tuple[Kalah, EngineConfig], KalahEngine] = {}


def engine_for(game: Kalah, config: EngineConfig) -> KalahEngine:
    """The engine for this setup and configuration, made once per process."""
    key = (dataclasses.replace(game, evaluation=config.evaluation), config)
    if key not in _ENGINES:
        _ENGINES[key] = KalahEngine(game, config)
    return _ENGINES[key]


def value_text(score: int, evaluation: str) -> str:
    """A search score for people: a proven result in words, else the evaluation in its
    own unit (store and tseitin in stones; tseitin is computed in thousandths)."""
    if is_terminal_score(score) or evaluation != "tseitin":
        return describe_score(score)
    return f"{score / 1000:+.1f}"


def program_compound(
    game: Kalah, state: State, config: EngineConfig
) -> tuple[tuple[int, ...], SearchResult]:
    """The program's whole compound move and its search (value, PV, positions, depth)."""
    answer = engine_for(game, config).best_move(state)
    result = SearchResult(
        answer.value, answer.move[0] if answer.move else None, list(answer.pv), answer.nodes,
        answer.depth, config.strategy,
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
