"""Named search strategies, each runnable on the Python engine and/or the numba engine.

Every strategy is exact at a given depth: at the same depth all of them return the same
value (``compare`` checks it). Call shape, whatever the strategy and engine::

    run_strategy(name, game, state, depth, engine="numba", again_is_ply=False)
        -> SearchResult(value, best_move, pv, nodes, depth, strategy)

``depth=None`` searches to the end of the game (iterative strategies then run a single
unbounded search). The numba engine needs the game's ``kernel_spec(game)``
function, named by the ``kernels`` path of its plugin in the game registry; it is imported
only when a numba search runs.

:data:`BUDGET_STRATEGIES` have no depth: they search within a budget of positions
(``run_budget(name, game, state, nodes)``), on any game of the protocol.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardgames.core.hooks import KernelSpec as KernelSpec
from boardgames.core.protocol import INFINITY, Game, SearchResult, State
from boardgames.core.registry import plugin_of
from boardgames.core.search import alphabeta, alphabeta_tt, minimax, selective

DEFAULT_TT_MIB = 16.0


@dataclass(frozen=True)
class Strategy:
    """A registered strategy: its name, one line on what it does, its engines."""

    name: str
    description: str
    engines: tuple[str, ...]
    fixes_move: bool
    """True when the best move is fixed by the rules of the strategy (natural order, first
    strictly better move kept), so that every engine must return the same move."""
    exact: bool = True
    """True for the minimax family: the depth-limited value, the same for all of them
    (``compare`` checks it). False for Monte Carlo search, which estimates."""


STRATEGIES: dict[str, Strategy] = {
    s.name: s
    for s in (
        Strategy("minimax", "negamax without pruning", ("python", "numba"), True),
        Strategy("alphabeta", "Knuth-Moore F2, natural move order", ("python", "numba"), True),
        Strategy(
            "ordered",
            "alpha-beta, moves ordered: extra turns/captures, killers, history",
            ("numba",),
            False,
        ),
        Strategy(
            "tt", "alpha-beta + transposition table (its move first)", ("python", "numba"), False
        ),
        Strategy(
            "id",
            "iterative deepening, table + ordering, previous best move first",
            ("python", "numba"),
            False,
        ),
        Strategy(
            "pvs", "principal variation search (iterative, table, ordering)", ("numba",), False
        ),
        Strategy("mtdf", "MTD(f): null-window passes on the table (iterative)", ("numba",), False),
        Strategy(
            "mcts",
            "Monte Carlo tree search: UCT, random playouts, MCTS-Solver (core/mcts.py)",
            ("numba",),
            False,
            exact=False,
        ),
    )
}
BUDGET_STRATEGIES: dict[str, Strategy] = {
    "selective": Strategy(
        "selective",
        "best-first selective deepening within a budget of positions (core/search.py)",
        ("python",),
        True,
        exact=False,
    ),
}
"""Strategies with no depth: they search within a budget of positions examined and look
deeper on some lines than on others, so their value is not a depth-limited one (they are
not in :data:`STRATEGIES`, whose members ``compare`` checks against each other)."""
_BUDGET_SEARCHES: dict[str, Callable[..., SearchResult]] = {"selective": selective}
EXACT_STRATEGIES = [name for name, s in STRATEGIES.items() if s.exact]
"""The minimax family: every one returns the same value at the same depth."""
ENGINES = ("python", "numba")


class NoKernels(ValueError):
    """The game's plugin names no numba kernels: only the Python engine runs on it."""


def kernel_spec(game: Game) -> KernelSpec:
    """The game's spec for the numba engine, from the ``kernels`` path of its plugin in the
    game registry (:class:`boardgames.core.registry.GamePlugin`)."""
    spec = plugin_of(game).kernel_spec(game)
    if spec is None:
        raise NoKernels(
            f"{game.name} has no numba kernels (its plugin names none): use the python engine"
        )
    return spec


class NumbaSearcher:
    """The numba engine for one game: compiled kernels plus one reusable workspace.

    ``fresh=True`` (the default for :meth:`run`) clears the table, killers and history
    first, so a result never depends on earlier searches.
    """

    def __init__(self, game: Game, tt_mib: float = DEFAULT_TT_MIB) -> None:
        from boardgames.core import kernels as K

        self.K = K
        self.game = game
        self.spec = kernel_spec(game)
        self.engine = K.build_engine(self.spec.kernels)
        self.fast_engine: Any = None
        """The engine whose ``alphabeta`` runs plain alpha-beta, once chosen
        (:meth:`plain_engine`); set it to pin one."""
        self.ws = K.Workspace(self.spec.cells, self.spec.max_moves, self.spec.max_value, tt_mib)

    def plain_engine(self) -> Any:
        """The engine for plain alpha-beta: the game's kernels specialised to the board
        (``KernelSpec.fast``) once some process compiled them (:meth:`compile_fast`, a step
        of ``boardgames cache warm``); until then the generic kernels (compiled once for
        every board of the game: the same tree, value and move, only slower) while a
        background warm-up of the game compiles them. No search waits for a compile of a
        board's own kernels."""
        if self.fast_engine is not None:
            return self.fast_engine
        fast = self.spec.fast
        if fast is None:
            self.fast_engine = self.engine
            return self.engine
        from boardgames.core import warmup

        if warmup.is_ready(fast_marker(self.game, fast)):
            self.fast_engine = self.K.build_engine(fast)
            return self.fast_engine
        warmup.warm_in_background(plugin_of(self.game).name)
        return self.engine

    def compile_fast(self, state: State) -> None:
        """Compile (or load) the specialised kernels of plain alpha-beta, by a one-ply
        search from ``state``, and mark them ready for every process (a warm step)."""
        fast = self.spec.fast
        if fast is None:
            return
        from boardgames.core import warmup

        engine = self.K.build_engine(fast)
        self.ws.reset(np.asarray(state, dtype=np.int64), None)
        self.K.run_alphabeta(engine, self.ws, self._params(state), 1, False, -INFINITY, INFINITY)
        with contextlib.suppress(OSError):  # unmarked, they load from the cache when used
            warmup.mark_ready(fast_marker(self.game, fast))
        self.fast_engine = engine

    @property
    def tt_bytes(self) -> int:
        return self.ws.tt.nbytes

    def _params(self, state: State) -> np.ndarray:
        return self.spec.params(state)

    def one(
        self,
        kind: str,
        state: State,
        depth: int,
        *,
        again_is_ply: bool = False,
        flags: int = 0,
        alpha: int = -INFINITY,
        beta: int = INFINITY,
        node_limit: int | None = None,
    ) -> tuple[int, list[int], int, bool]:
        """One kernel call from ``state``: (value, pv, nodes, aborted)."""
        K, ws = self.K, self.ws
        ws.reset(np.asarray(state, dtype=np.int64), node_limit)
        params = self._params(state)
        if kind == "minimax":
            value = K.run_minimax(self.engine, ws, params, depth, again_is_ply)
        elif kind == "alphabeta":
            engine = self.plain_engine()
            value = K.run_alphabeta(engine, ws, params, depth, again_is_ply, alpha, beta)
        else:
            if again_is_ply:
                flags |= K.AGAIN_IS_PLY
            value = K.run_search(self.engine, ws, params, depth, flags, alpha, beta)
        return int(value), ws.principal_variation(), int(ws.stats[0]), bool(ws.stats[1])

    def run(
        self,
        strategy: str,
        state: State,
        depth: int | None,
        *,
        again_is_ply: bool = False,
        fresh: bool = True,
    ) -> SearchResult:
        """Run ``strategy`` to ``depth`` (None: to the end of the game)."""
        K = self.K
        if fresh:
            self.ws.clear_heuristics(table=strategy in ("tt", "id", "pvs", "mtdf"))
        d = K.DEPTH_INF if depth is None else depth
        kw = {"again_is_ply": again_is_ply}
        if strategy in ("minimax", "alphabeta"):
            value, pv, nodes, _ = self.one(strategy, state, d, **kw)
        elif strategy == "ordered":
            value, pv, nodes, _ = self.one("search", state, d, flags=K.ORDER, **kw)
        elif strategy == "tt":
            value, pv, nodes, _ = self.one("search", state, d, flags=K.TT, **kw)
        elif strategy in ("id", "pvs", "mtdf"):
            value, pv, nodes = 0, [], 0
            for it in self.deepen(strategy, state, depth, again_is_ply=again_is_ply):
                value, pv, nodes = it.value, it.pv, nodes + it.nodes
        else:
            raise ValueError(f"unknown strategy {strategy!r}; known: {', '.join(STRATEGIES)}")
        return SearchResult(value, pv[0] if pv else None, pv, nodes, depth, strategy)

    def deepen(
        self,
        strategy: str,
        state: State,
        depth: int | None,
        *,
        again_is_ply: bool = False,
        node_limit: int | None = None,
        first_guess: int = 0,
    ) -> Iterator[SearchResult]:
        """Iterative deepening: yield one :class:`SearchResult` per finished depth.

        Tables and heuristics carry over between iterations (the previous best move is
        tried first through the table). ``node_limit`` bounds each iteration; an
        iteration that hits it is dropped and the generator stops.
        """
        K = self.K
        if depth is None:
            depths: Iterable[int] = [K.DEPTH_INF]
        else:
            depths = range(min(1, depth), depth + 1)
        guess = first_guess
        for d in depths:
            result, aborted = self.iteration(
                strategy, state, d, guess=guess, node_limit=node_limit, again_is_ply=again_is_ply
            )
            if aborted:
                return
            guess = result.value
            yield result

    def iteration(
        self,
        strategy: str,
        state: State,
        depth: int,
        *,
        guess: int = 0,
        node_limit: int | None = None,
        again_is_ply: bool = False,
    ) -> tuple[SearchResult, bool]:
        """One iteration of ``id``, ``pvs`` or ``mtdf`` at ``depth``, keeping the tables.

        ``guess`` is MTD(f)'s first guess (the previous iteration's value). Returns the
        result and whether ``node_limit`` cut it off (the result is then meaningless).
        """
        K = self.K
        flags = {"id": K.TT | K.ORDER, "pvs": K.TT | K.ORDER | K.PVS | K.SOFT}.get(
            strategy, K.TT | K.ORDER | K.SOFT
        )
        if strategy == "mtdf":
            value, pv, nodes, aborted = self._mtdf(
                state, depth, guess, flags, again_is_ply, node_limit
            )
        else:
            value, pv, nodes, aborted = self.one(
                "search", state, depth, flags=flags, again_is_ply=again_is_ply,
                node_limit=node_limit,
            )  # fmt: skip
        return SearchResult(value, pv[0] if pv else None, pv, nodes, depth, strategy), aborted

    def limited(
        self,
        strategy: str,
        state: State,
        depth: int,
        node_limit: int,
        *,
        guess: int = 0,
        again_is_ply: bool = False,
    ) -> tuple[SearchResult, bool]:
        """One search of any depth-limited ``strategy`` to ``depth`` that stops rather than
        examine more than ``node_limit`` positions: (result, stopped).

        Iterative strategies run one iteration on the tables as they are (``guess``:
        MTD(f)'s first guess); the others one plain search. ``result.nodes`` is the
        positions examined, exactly: all of the search's when it finished, ``node_limit``
        when it stopped. (A kernel stops on the first call past the limit, before looking
        at that position; the calls it makes while unwinding, such as a PVS re-search,
        are counted by the kernel but examine nothing.) A stopped result's value is
        meaningless."""
        if node_limit < 1:
            raise ValueError(f"node_limit must be at least 1, got {node_limit}")
        if strategy in ("id", "pvs", "mtdf"):
            r, stopped = self.iteration(
                strategy, state, depth, guess=guess, node_limit=node_limit,
                again_is_ply=again_is_ply,
            )  # fmt: skip
            if stopped:
                r.nodes = node_limit
            return r, stopped
        K = self.K
        if strategy in ("minimax", "alphabeta", "ordered", "tt"):
            kind = strategy if strategy in ("minimax", "alphabeta") else "search"
            flags = {"ordered": K.ORDER, "tt": K.TT}.get(strategy, 0)
            value, pv, nodes, stopped = self.one(
                kind, state, depth, flags=flags, again_is_ply=again_is_ply, node_limit=node_limit
            )
        else:
            raise ValueError(
                f"unknown strategy {strategy!r}; depth-limited ones: {', '.join(EXACT_STRATEGIES)}"
            )
        if stopped:
            nodes = node_limit
        return SearchResult(value, pv[0] if pv else None, pv, nodes, depth, strategy), stopped

    def _mtdf(
        self,
        state: State,
        depth: int,
        guess: int,
        flags: int,
        again_is_ply: bool,
        node_limit: int | None,
    ) -> tuple[int, list[int], int, bool]:
        g, lower, upper = guess, -INFINITY, INFINITY
        best_pv: list[int] = []
        nodes = 0
        while lower < upper:
            beta = max(g, lower + 1)
            if node_limit is not None and nodes >= node_limit:
                return 0, [], nodes + 1, True  # no position left for another pass: stopped
            limit = None if node_limit is None else node_limit - nodes
            g, pv, n, aborted = self.one(
                "search",
                state,
                depth,
                flags=flags,
                again_is_ply=again_is_ply,
                alpha=beta - 1,
                beta=beta,
                node_limit=limit,
            )
            nodes += n
            if aborted:
                return 0, [], nodes, True
            if g < beta:
                upper = g
            else:
                lower = g
                best_pv = pv
        return g, best_pv, nodes, False


_SEARCHERS: dict[tuple[Game, float], NumbaSearcher] = {}


def fast_marker(game: Game, fast: Any) -> str:
    """The ready marker (``core.warmup``) of specialised kernels ``fast`` of ``game``'s
    plugin: their tag names the settings and the kernel sources."""
    return f"{plugin_of(game).name}.fast-{fast.tag}"


def numba_searcher(game: Game, tt_mib: float = DEFAULT_TT_MIB) -> NumbaSearcher:
    """A cached :class:`NumbaSearcher` per game and table size."""
    key = (game, tt_mib)
    if key not in _SEARCHERS:
        _SEARCHERS[key] = NumbaSearcher(game, tt_mib)
    return _SEARCHERS[key]


def python_id(
    game: Game,
    state: State,
    depth: int | None,
    *,
    again_is_ply: bool = False,
    stop: Callable[[], bool] | None = None,
) -> SearchResult:
    """Iterative deepening over core/search.alphabeta_tt with one table for all depths
    (``stop``: as alphabeta_tt's, for every iteration)."""
    if depth is None:
        return alphabeta_tt(game, state, None, again_is_ply=again_is_ply, stop=stop)
    table: dict[Any, Any] = {}
    nodes = 0
    result = None
    for d in range(1, depth + 1):
        result = alphabeta_tt(game, state, d, table=table, again_is_ply=again_is_ply, stop=stop)
        nodes += result.nodes
    if result is None:  # depth 0
        result = alphabeta_tt(game, state, 0, again_is_ply=again_is_ply, stop=stop)
    result.nodes = nodes or result.nodes
    result.strategy = "id"
    return result


_PYTHON: dict[str, Callable[..., SearchResult]] = {
    "minimax": minimax,
    "alphabeta": alphabeta,
    "tt": alphabeta_tt,
    "id": python_id,
}


def run_strategy(
    name: str,
    game: Game,
    state: State,
    depth: int | None,
    *,
    engine: str = "numba",
    again_is_ply: bool = False,
    tt_mib: float = DEFAULT_TT_MIB,
    stop: Callable[[], bool] | None = None,
) -> SearchResult:
    """Run strategy ``name`` on ``engine``; ValueError for an unknown name or pair.

    ``stop`` (the Python engine's searches ask it every 256 positions) ends a search
    with :class:`~boardgames.core.search.SearchStopped` once it says True; a numba
    search is stopped through its workspace instead (``abort``)."""
    if name not in STRATEGIES:
        raise ValueError(f"unknown strategy {name!r}; known: {', '.join(STRATEGIES)}")
    if not STRATEGIES[name].exact:
        raise ValueError(
            f"strategy {name!r} has no depth (core/mcts.py runs it); depth-limited "
            f"ones: {', '.join(EXACT_STRATEGIES)}"
        )
    if engine not in STRATEGIES[name].engines:
        raise ValueError(
            f"strategy {name!r} has no {engine} engine; it runs on: "
            f"{', '.join(STRATEGIES[name].engines)}"
        )
    if engine == "python":
        result = _PYTHON[name](game, state, depth, again_is_ply=again_is_ply, stop=stop)
        result.strategy = name
        return result
    return numba_searcher(game, tt_mib).run(name, state, depth, again_is_ply=again_is_ply)


def run_budget(
    name: str, game: Game, state: State, nodes: int, *, again_is_ply: bool = False
) -> SearchResult:
    """Run budget strategy ``name`` (:data:`BUDGET_STRATEGIES`) examining at most ``nodes``
    positions; ValueError for an unknown name."""
    if name not in BUDGET_STRATEGIES:
        raise ValueError(f"unknown budget strategy {name!r}; known: {', '.join(BUDGET_STRATEGIES)}")
    return _BUDGET_SEARCHES[name](game, state, nodes, again_is_ply=again_is_ply)
