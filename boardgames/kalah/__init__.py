"""Kalah (mancala), classic and Etudes rules (RULES.md sections 1-3).

The names below are the package's Python API (docs/sections/api.md). They load on first
use (PEP 562), so ``import boardgames.kalah`` stays cheap and imports no numba: the
command line imports ``boardgames.kalah.cli`` through this package. ``Solver``,
``Reviewer`` and ``EndgameTable`` are the ones that load numba (their kernels compile on
a machine's first use and are cached).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardgames import lazy_exports

if TYPE_CHECKING:
    from boardgames.kalah.analysis.review import Reviewer, verdict
    from boardgames.kalah.exact.endgame import EndgameTable, load_or_build
    from boardgames.kalah.exact.solver import SearchStopped, Solver, SolveResult
    from boardgames.kalah.game import PLAYER_NAMES, Board, Kalah
    from boardgames.kalah.play.engine import (
        EngineAnswer,
        EngineConfig,
        KalahEngine,
        analyse_position,
    )
    from boardgames.kalah.record import (
        Record,
        RecordError,
        ReplayStep,
        parse_record,
        read_record,
        replay,
    )

_HOMES = {
    "Kalah": "game",
    "Board": "game",
    "PLAYER_NAMES": "game",
    "EngineConfig": "play.engine",
    "KalahEngine": "play.engine",
    "EngineAnswer": "play.engine",
    "analyse_position": "play.engine",
    "Record": "record",
    "RecordError": "record",
    "ReplayStep": "record",
    "parse_record": "record",
    "read_record": "record",
    "replay": "record",
    "Solver": "exact.solver",
    "SolveResult": "exact.solver",
    "SearchStopped": "exact.solver",
    "Reviewer": "analysis.review",
    "verdict": "analysis.review",
    "EndgameTable": "exact.endgame",
    "load_or_build": "exact.endgame",
}

__all__ = [
    "PLAYER_NAMES",
    "Board",
    "EndgameTable",
    "EngineAnswer",
    "EngineConfig",
    "Kalah",
    "KalahEngine",
    "Record",
    "RecordError",
    "ReplayStep",
    "Reviewer",
    "SearchStopped",
    "SolveResult",
    "Solver",
    "analyse_position",
    "load_or_build",
    "parse_record",
    "read_record",
    "replay",
    "verdict",
]


__getattr__, __dir__ = lazy_exports(__name__, _HOMES, __all__)
