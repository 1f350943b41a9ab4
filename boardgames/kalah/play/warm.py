"""What ``boardgames cache warm kalah`` runs: the kernels of Kalah's commands, compiled (or
loaded from numba's cache) by the very functions the commands call.

Each function is one step of the warm-up (``boardgames/cli/cache.py`` lists the steps);
none holds kernel code of its own. Kernel code depends on the argument types only, except
plain alpha-beta's rule kernels, which are specialised to a board (pits, rules, evaluation;
``kalah.kernels.specialised_kernels``): those are compiled for the board ``compare kalah``
uses by default, 6 pits classic, with the store evaluation and Tseitin's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardgames.kalah.game import Kalah

if TYPE_CHECKING:
    from boardgames.kalah.play.engine import EngineConfig

PITS = 6
SEEDS = 6


def _program(rules: str) -> None:
    """The program of ``kalah play`` and ``kalah analyse`` with their default settings
    (MTD(f), Tseitin's evaluation, proofs by the exact solver), as they make it."""
    from boardgames.kalah.play.engine import EngineConfig
    from boardgames.kalah.play.program import engine_for

    engine_for(Kalah(PITS, SEEDS, rules, "tseitin"), EngineConfig(evaluation="tseitin"))


SOLVER_STEP = f"{__name__}:solver"
"""The solver's warm step, as ``warmup.compile_aside`` takes it."""
GUESS_STEP = f"{__name__}:first_guess"
"""The warm step of the solver's first guess."""


def program_ready(rules: str) -> bool:
    """The default program's kernels are compiled for ``rules``: the whole kalah group, or
    the program's own step of it (a command may switch to the engine then)."""
    from boardgames.core import warmup

    return warmup.step_ready("kalah", f"{__name__}:program_{rules}")


def _compiled(game: Kalah, config: EngineConfig) -> bool:
    """The kernels of the program ``config`` are compiled on this machine."""
    from boardgames.core import warmup
    from boardgames.kalah.play.engine import EngineConfig

    if config.strategy == EngineConfig.strategy:
        return program_ready(game.rules)
    return warmup.is_ready("kalah")


def kernels_ready(game: Kalah, config: EngineConfig) -> bool:
    """The program's kernels are compiled, or no background compile will come (then the
    engine compiles them here); else a background compile is started and False."""
    from boardgames.core import warmup

    if _compiled(game, config):
        return True
    # no background compile will come (switched off, no cache folder): compile here
    return not warmup.warm_in_background("kalah")


def compiles_here(game: Kalah, config: EngineConfig) -> bool:
    """The program's kernels are not compiled and no background compile will come
    (``BOARDGAMES_BACKGROUND_WARM=0``, no cache folder): its first move compiles them in
    this process (else a background compile is started, if none is under way)."""
    from boardgames.core import warmup

    # a background compile under way (asked again, it starts nothing new) answers first
    return not warmup.warm_in_background("kalah") and not _compiled(game, config)


def program_classic() -> None:
    """``kalah play`` / ``kalah analyse``: the default program on 6 x 6, classic rules,
    with the endgame-table code its proofs use (a command may switch to the program as
    soon as this step is done: ``warmup.step_ready``)."""
    _program("classic")
    endgame()


def program_etudes() -> None:
    """The same program under the Etudes rules."""
    _program("etudes")


def solver() -> None:
    """``kalah solve``: the exact solver (both rule sets), and the rule-kernel
    fingerprint that names the endgame table a solve saves. ``kalah solve`` on a fresh
    machine runs this step in a process of its own while it builds its endgame table."""
    from boardgames.kalah.exact import endgame
    from boardgames.kalah.exact.solver import Solver

    for rules in ("classic", "etudes"):
        Solver(1, rules, hash_mb=0.001).warm_up()
    endgame.rules_fingerprint(1, False)


def first_guess() -> None:
    """``kalah solve``: the engine search that makes the solver's first guess."""
    from boardgames.kalah.play.guess import FirstGuess

    for rules in ("classic", "etudes"):
        FirstGuess(Kalah(4, 1, rules)).warm_up()


def endgame() -> None:
    """The endgame-table builder and the table look-up (``kalah solve --endgame``, and the
    small table ``kalah play`` builds when a game gets near its end): a tiny table, built
    in memory, not saved; and the rule-kernel fingerprint that names cached tables."""
    from boardgames.kalah.exact import endgame

    endgame.rules_fingerprint(PITS, False)
    table = endgame.build(2, 4)
    game = Kalah(2, 1)
    table.value(game.initial_state())


def compare() -> None:
    """``compare kalah``: every exact strategy of the numba searcher, one ply, on the
    command's default board (6 x 6 classic, store evaluation); and plain alpha-beta's
    kernels specialised to that board, with the store evaluation (compare's) and
    Tseitin's (the program's): until they are compiled, plain alpha-beta searches with
    the generic kernels."""
    from boardgames.core.strategies import EXACT_STRATEGIES, numba_searcher

    game = Kalah(PITS, SEEDS, "classic", "store")
    searcher = numba_searcher(game)
    for strategy in EXACT_STRATEGIES:
        searcher.run(strategy, game.initial_state(), 1)
    for evaluation in ("store", "tseitin"):
        board = Kalah(PITS, SEEDS, "classic", evaluation)
        numba_searcher(board).compile_fast(board.initial_state())


def mcts() -> None:
    """Monte Carlo tree search (``compare kalah --strategies mcts``, ``kalah play --b
    strategy=mcts``)."""
    from boardgames.core.mcts import MctsSearcher

    game = Kalah(PITS, SEEDS, "classic", "tseitin")
    MctsSearcher(game).search(game.initial_state(), playouts=4)
