"""Game-independent parts: the game protocol, reference searches, jitted kernels.

The names below are the package's Python API (docs/sections/api.md); they load on first
use (PEP 562), so ``import boardgames.core`` stays cheap. None of them imports numba
until a numba search runs (``run_strategy(..., engine="numba")``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardgames import lazy_exports

if TYPE_CHECKING:
    from boardgames.core.compare import (
        CompareRow,
        comparison_json,
        disagreements,
        plan,
        random_positions,
        run_comparison,
    )
    from boardgames.core.protocol import (
        HEURISTIC_LIMIT,
        WIN,
        Game,
        GameError,
        SearchResult,
        State,
        describe_score,
        score_margin,
        terminal_score,
    )
    from boardgames.core.search import alphabeta, alphabeta_tt, minimax
    from boardgames.core.strategies import STRATEGIES, Strategy, run_strategy

_HOMES = {
    "Game": "protocol",
    "State": "protocol",
    "GameError": "protocol",
    "SearchResult": "protocol",
    "terminal_score": "protocol",
    "describe_score": "protocol",
    "score_margin": "protocol",
    "HEURISTIC_LIMIT": "protocol",
    "WIN": "protocol",
    "minimax": "search",
    "alphabeta": "search",
    "alphabeta_tt": "search",
    "STRATEGIES": "strategies",
    "Strategy": "strategies",
    "run_strategy": "strategies",
    "CompareRow": "compare",
    "run_comparison": "compare",
    "disagreements": "compare",
    "comparison_json": "compare",
    "plan": "compare",
    "random_positions": "compare",
}

__all__ = [
    "HEURISTIC_LIMIT",
    "STRATEGIES",
    "WIN",
    "CompareRow",
    "Game",
    "GameError",
    "SearchResult",
    "State",
    "Strategy",
    "alphabeta",
    "alphabeta_tt",
    "comparison_json",
    "describe_score",
    "disagreements",
    "minimax",
    "plan",
    "random_positions",
    "run_comparison",
    "run_strategy",
    "score_margin",
    "terminal_score",
]


__getattr__, __dir__ = lazy_exports(__name__, _HOMES, __all__)
