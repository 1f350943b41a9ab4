"""What ``boardgames cache warm nim`` runs: the numba kernels Nim's commands and library
use, compiled (or loaded from numba's cache) by the functions that use them.

``nim play`` and ``nim analyse`` use Bouton's rule (pure Python); ``compare nim
--playouts`` runs Monte Carlo tree search (:class:`~boardgames.core.mcts.MctsSearcher`),
and :func:`~boardgames.core.strategies.run_strategy` searches Nim with the generic numba
kernels. Kernel code depends on the argument types only, so one small game will do.
"""

from __future__ import annotations

from boardgames.nim.game import Nim

ROWS = (3, 4, 5)


def _game() -> Nim:
    return Nim(ROWS, False, max_rows=len(ROWS), max_chips=max(ROWS))


def searcher() -> None:
    """The generic search kernels over Nim's rules: every exact strategy, one ply."""
    from boardgames.core.strategies import EXACT_STRATEGIES, numba_searcher

    game = _game()
    searcher = numba_searcher(game)
    for strategy in EXACT_STRATEGIES:
        searcher.run(strategy, game.initial_state(), 1)


def mcts() -> None:
    """Monte Carlo tree search over Nim's rules (``compare nim --playouts``)."""
    from boardgames.core.mcts import MctsSearcher

    game = _game()
    MctsSearcher(game).search(game.initial_state(), playouts=4)
