"""The strong Kalah program: the numba search with a depth or a time limit per move.

API (what ``kalah play`` / ``analyse`` and ``kalah match`` use)::

    engine = KalahEngine(game, EngineConfig(time=0.5))          # or depth=8, ...
    answer = engine.best_move(state)
    answer.move      # the whole compound move, e.g. (0, 3): sow 0, extra turn, sow 3
    answer.value     # score for the side to move (core.protocol scores)
    answer.pv        # principal variation, single sowings from the root
    answer.nodes, answer.depth, answer.seconds, answer.complete

Depth counts compound moves by default (RULES.md; ``unit="sowing"`` makes every sowing
cost one). With ``time`` the search deepens iteratively (the strategies ``id``, ``pvs`` and
``mtdf`` only) and returns the deepest finished iteration, stopping early when the next
iteration would not fit in the time left; an iteration that runs out of time is cut off
by a node budget (positions per second measured on the earlier iterations) and dropped.
With ``depth`` and ``time`` both, it stops at whichever comes first.

Exact or a bound. A finished game at the end of the principal variation does not make the
value exact: in a depth-limited tree the winner takes the first forced win it sees over
unexplored lines that may win by more, and the loser a line it cannot yet see losing over a
proven loss. Such a root value is a bound (``answer.bound``: the mover wins by at least, or
loses by at least, that margin). The first time an iteration ends on one, the engine asks
the exact solver (:class:`~boardgames.kalah.exact.solver.Solver`, with the endgame tables it was
given) to settle the position within a budget of positions (``prove_nodes``; by default
what half the time left buys, or ``PROOF_NODES`` without a time limit). Solved: the value
is exact (``answer.exact``) and the move is the solver's best move. Not solved: the search
goes on deepening while time is left (a proven win is no reason to stop looking for a
larger one) and the value stays a bound.

Node budget. With ``nodes=N`` the program examines at most N positions a move (the whole
compound move: every search it makes for that move together). A position is examined when
a search looks at it: it tests whether the game is over there, then evaluates it or
generates its moves; the root counts, and so does every position a move leads to, once
for every time a search reaches it (the same count as ``answer.nodes`` and the
``positions`` every search reports). The depth-limited strategies then deepen 1, 2, ...
(up to ``depth`` if given), each iteration allowed what is left of the budget; the
iteration that would go over it stops at the limit (its positions count) and is dropped,
and the deepest finished iteration gives the move. ``strategy="selective"``
(:func:`boardgames.core.search.selective`, pure Python) spends the budget best-first on
the lines where each side to move does best. Under a budget the exact solver is off (its
positions would not be counted), so a won or lost value stays a bound. If not even depth 1
fits in the budget the program sows the first legal pit.

Presets (:data:`PRESETS`) name the programs of the article this toolkit descends from.

Each call starts from an empty transposition table, so the answer depends on the position
and the limits only (and, with ``time``, on how fast the machine was).
"""

from __future__ import annotations

import dataclasses
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from boardgames.core.mcts import DEFAULT_C, POLICIES, MctsResult, MctsSearcher
from boardgames.core.protocol import (
    THINK_SECONDS,
    GameError,
    State,
    is_terminal_score,
    score_bound,
    score_margin,
    terminal_score,
)
from boardgames.core.strategies import (
    BUDGET_STRATEGIES,
    DEFAULT_TT_MIB,
    STRATEGIES,
    NumbaSearcher,
    run_budget,
)
from boardgames.kalah.eval import EVALUATIONS
from boardgames.kalah.game import Kalah

if TYPE_CHECKING:
    from boardgames.kalah.exact.endgame import EndgameTable
    from boardgames.kalah.exact.solver import Solver

ITERATIVE = ("id", "pvs", "mtdf")
MCTS = "mcts"
UNITS = ("compound", "sowing")
DEFAULT_TIME = 0.7
"""Seconds a move for the default program (inside the 1 s target on 6 x 6)."""
MAX_DEPTH = 200
START_FACTOR = 1.5
"""Start another iteration only while the time left is this many times the last one's
(one iteration costs about 2 to 3 times the one before; an iteration that does not finish
is cut off by its node budget, so the limit holds either way)."""
PROOF_NODES = 1_000_000
"""Positions the exact solver may visit to settle a value that ends in a finished game when
the search has no time limit (about a second on one core)."""
PROOF_RATE = 500_000
"""Positions per second assumed for the solver on one thread when a time limit sets its
budget (benchmarks/proof_cost.py measured 0.48 M/s on 6 x 6 positions)."""
PROOF_SHARE = 0.5
"""Share of the time left that a proof may take (the rest goes on deepening)."""
PROOF_TABLE_MIB = 16
"""Transposition table of the proofs' solver."""
MAX_NODES = 10**9
"""The largest node budget a move (``nodes``)."""

PRESETS: dict[str, tuple[str, str]] = {
    "classic": (
        "depth=5,eval=store,strategy=alphabeta,prove=0",
        "the seed's program: Knuth and Moore's F2 alpha-beta (fail-hard, natural pit "
        "order), 5 compound moves deep, own store minus the opponent's",
    ),
    "tseitin": (
        "strategy=selective,nodes=1000,eval=tseitin",
        "Tseitin's program as we rebuild it: selective (best-first) deepening, at most "
        "1,000 positions a move, his evaluation",
    ),
    "rechenberg": (
        "strategy=alphabeta,nodes=1000,eval=rechenberg",
        "Rechenberg's evaluation on the same budget: F2 alpha-beta deepened 1, 2, ... "
        "compound moves while 1,000 positions a move last",
    ),
}
"""Named program specs (``kalah play`` and ``kalah match`` take the name for the spec):
name -> (spec, one line on what it is). The one place that defines them."""


def presets_help() -> str:
    """The presets as a click epilog (``kalah play --help``, ``kalah match --help``)."""
    import textwrap

    lines = "\n".join(
        f"  {name}: {spec}\n"
        + textwrap.fill(f"{what}.", 76, initial_indent=" " * 6, subsequent_indent=" " * 6)
        for name, (spec, what) in PRESETS.items()
    )
    return f"\b\nPresets (NAME for a spec; NAME,key=value changes one key):\n{lines}"


@dataclass(frozen=True)
class EngineConfig:
    """How the program searches. ``depth=None`` and ``time=None`` means the default time."""

    depth: int | None = None
    time: float | None = None
    strategy: str = "mtdf"
    evaluation: str = "tseitin"
    unit: str = "compound"
    tt_mib: float = DEFAULT_TT_MIB
    prove_nodes: int | None = None
    """Budget of the exact solver for a value that ends in a finished game: None for the
    default (see the module docstring), 0 never (the value is then reported as a bound)."""
    playouts: int | None = None
    """``strategy="mcts"``: simulations a search (instead of, or with, a time limit)."""
    exploration: float = DEFAULT_C
    """``strategy="mcts"``: the UCT exploration constant."""
    policy: str = "random"
    """``strategy="mcts"``: the playout policy (``random`` or ``priority``)."""
    seed: int = 0
    """``strategy="mcts"``: the random seed (the same seed, the same search)."""
    nodes: int | None = None
    """Positions the program may examine a move, all its searches for the move together
    (see the module docstring); None: no budget. Needed by ``strategy="selective"``."""

    def __post_init__(self) -> None:
        known = [n for n, s in STRATEGIES.items() if "numba" in s.engines]
        if self.strategy not in known and self.strategy not in BUDGET_STRATEGIES:
            raise GameError(
                f"unknown strategy {self.strategy!r}; choose one of "
                f"{', '.join([*known, *BUDGET_STRATEGIES])}"
            )
        if self.nodes is not None:
            self._check_nodes()
        if self.strategy in BUDGET_STRATEGIES:
            self._check_budget_strategy()
        elif self.strategy == MCTS:
            self._check_mcts()
        elif self.playouts is not None:
            raise GameError("playouts are for strategy=mcts; alpha-beta takes depth or time")
        if self.evaluation not in EVALUATIONS:
            raise GameError(
                f"unknown evaluation {self.evaluation!r}; choose one of {', '.join(EVALUATIONS)}"
            )
        if self.unit not in UNITS:
            raise GameError(f"unknown depth unit {self.unit!r}; choose compound or sowing")
        if self.depth is not None and not 1 <= self.depth <= MAX_DEPTH:
            raise GameError(f"depth must be 1 to {MAX_DEPTH}, got {self.depth}")
        high = THINK_SECONDS[1]
        if self.time is not None and not 0 < self.time <= high:
            raise GameError(
                f"time must be more than 0 and at most {high:g} seconds, got {self.time:g}"
            )
        if self.depth is None and self.nodes is None and self.strategy not in (*ITERATIVE, MCTS):
            raise GameError(
                f"strategy {self.strategy!r} needs a depth or nodes (a time limit needs "
                f"one of {', '.join(ITERATIVE)})"
            )
        if self.time is not None and self.strategy not in (*ITERATIVE, MCTS):
            raise GameError(
                f"a time limit needs an iterative strategy ({', '.join(ITERATIVE)}), "
                f"not {self.strategy!r}"
            )
        if self.prove_nodes is not None and not 0 <= self.prove_nodes <= 10**12:
            raise GameError(f"prove_nodes must be 0 to 10**12, got {self.prove_nodes}")
        if not 0 < self.tt_mib <= 4096:
            raise GameError(
                f"table size must be more than 0 and at most 4096 MiB, got {self.tt_mib}"
            )

    def _check_nodes(self) -> None:
        nodes = self.nodes
        if nodes is None or not 1 <= nodes <= MAX_NODES:
            raise GameError(f"nodes must be 1 to 10**9 positions a move, got {nodes}")
        if self.strategy == MCTS:
            raise GameError("strategy mcts counts playouts, not positions: give playouts=N")
        if self.time is not None:
            raise GameError("give nodes (positions a move) or time (seconds a move), not both")
        if self.prove_nodes:
            raise GameError(
                "a node budget counts every position, the exact solver's would not be: "
                "leave prove out (or prove=0) with nodes"
            )

    def _check_budget_strategy(self) -> None:
        if self.nodes is None:
            raise GameError(
                f"strategy {self.strategy} searches within a budget of positions: give nodes=N"
            )
        if self.depth is not None:
            raise GameError(
                f"strategy {self.strategy} has no depth (it goes as deep as nodes=N takes "
                "each line): leave depth out"
            )
        if self.playouts is not None:
            raise GameError("playouts are for strategy=mcts")

    @property
    def proves(self) -> bool:
        """True when the program may use exact knowledge: the solver on a value that ends
        in a finished game, and (in ``kalah play``) the endgame tables. Off with
        ``prove_nodes=0`` and under a node budget."""
        return self.prove_nodes != 0 and self.nodes is None

    def _check_mcts(self) -> None:
        if self.depth is not None:
            raise GameError("strategy mcts has no depth: give time=SECONDS or playouts=N")
        if self.playouts is not None and not 1 <= self.playouts <= 10**9:
            raise GameError(f"playouts must be 1 to 10**9, got {self.playouts}")
        if not 0 <= self.exploration < math.inf:
            raise GameError(f"exploration must be 0 or more, got {self.exploration}")
        if self.policy not in POLICIES:
            raise GameError(f"unknown playout policy {self.policy!r}; choose {', '.join(POLICIES)}")

    @property
    def time_limit(self) -> float | None:
        limits = (self.time, self.depth, self.playouts, self.nodes)
        if all(limit is None for limit in limits):
            return DEFAULT_TIME
        return self.time

    def describe(self) -> str:
        """The settings in a few words, e.g. ``depth 5, eval store, alphabeta``."""
        parts = []
        if self.strategy == MCTS:
            if self.playouts is not None:
                parts.append(f"{self.playouts:,} playouts")
            if self.time_limit is not None:
                parts.append(f"{self.time_limit:g} s a move")
            return ", ".join([*parts, f"mcts (c {self.exploration:.2f}, {self.policy} playouts)"])
        if self.depth is not None:
            parts.append(f"depth {self.depth}" + (" sowings" if self.unit == "sowing" else ""))
        if self.time_limit is not None:
            parts.append(f"{self.time_limit:g} s a move")
        if self.nodes is not None:
            parts.append(f"{self.nodes:,} positions a move")
        parts += [f"eval {self.evaluation}", self.strategy]
        return ", ".join(parts)


@dataclass
class EngineAnswer:
    """The program's answer for one position."""

    move: tuple[int, ...]
    value: int
    pv: list[int] = field(default_factory=list)
    nodes: int = 0
    depth: int = 0
    seconds: float = 0.0
    complete: bool = True
    """False when a time limit cut the deepening before the requested depth."""
    mcts: MctsResult | None = None
    """``strategy="mcts"``: the first search's statistics (``value`` is then 0: MCTS
    estimates a result, ``mcts.value``, not a score)."""
    exact: bool = False
    """True when ``value`` is the position's value under perfect play (the solver proved
    it); then ``value`` is ``terminal_score(margin, 0)`` and ``pv`` the solver's best
    compound move. False: a heuristic value, or a bound (see ``bound``)."""

    @property
    def bound(self) -> str | None:
        """``"lower"`` (wins by at least), ``"upper"`` (loses by at least) or None."""
        return score_bound(self.value, self.exact)


class KalahEngine:
    """Best compound moves for one Kalah setup (pits, seeds, rules) under one config."""

    def __init__(
        self,
        game: Kalah,
        config: EngineConfig | None = None,
        tables: Callable[[], EndgameTable | None] | None = None,
    ) -> None:
        """``tables`` gives the endgame table the exact solver uses for proofs (asked once,
        at the first proof); None: the solver searches without one."""
        self.config = config or EngineConfig()
        self.game = dataclasses.replace(game, evaluation=self.config.evaluation)
        self._tables = tables
        self._solver: Solver | None = None
        self._solver_lock = threading.Lock()
        self._preparing: threading.Thread | None = None
        self.on_iteration: Callable[[int, int, int], None] | None = None
        """Called after each finished iteration of an iterative search with its depth, its
        value and the positions examined so far (progress for a person waiting)."""
        self.stop: Callable[[], bool] | None = None
        """Asked by Monte Carlo tree search (``strategy="mcts"``) before every batch of
        playouts: True ends the move with :class:`~boardgames.core.search.SearchStopped`.
        (The alpha-beta searches are stopped through ``searcher.ws.abort()``.)"""
        t0 = time.perf_counter()
        if self.config.strategy in BUDGET_STRATEGIES:  # pure Python: nothing to load
            self.warmup_seconds = 0.0
            return
        if self.config.strategy == MCTS:
            self.mcts = MctsSearcher(self.game)
            self.mcts.search(self.game.initial_state(), playouts=4)  # load or compile
            self.warmup_seconds = time.perf_counter() - t0
            return
        self.searcher = NumbaSearcher(self.game, self.config.tt_mib)
        if self.config.proves:  # the proofs' kernels too, so no move compiles them
            from boardgames.kalah.exact.solver import Solver

            g = self.game
            Solver(1, g.rules, hash_mb=0.001, empty_capture=g.empty_capture).warm_up()
        # Load (or compile) the kernels now, so that no move pays for it.
        self.search(self.game.initial_state(), 1, deadline=float("inf"))
        self.warmup_seconds = time.perf_counter() - t0
        """Seconds spent loading or compiling the kernels when the engine was made."""

    @property
    def again_is_ply(self) -> bool:
        return self.config.unit == "sowing"

    def search(
        self,
        state: State,
        depth: int | None = None,
        deadline: float | None = None,
        budget: int | None = None,
    ) -> EngineAnswer:
        """Search ``state`` (value and PV of single sowings); no compound-move handling.

        ``budget``: positions this search may examine (default: the config's ``nodes``;
        ignored without a node budget)."""
        cfg = self.config
        start = time.perf_counter()
        if cfg.nodes is not None:
            answer = self._search_budget(state, depth, cfg.nodes if budget is None else budget)
            answer.seconds = time.perf_counter() - start
            return answer
        max_depth = depth if depth is not None else (cfg.depth or MAX_DEPTH)
        if deadline is None and cfg.time_limit is not None:
            deadline = start + cfg.time_limit * 0.9  # leave room for the compound move
        s = self.searcher
        s.ws.clear_heuristics()
        if cfg.strategy not in ITERATIVE:
            r = s.run(cfg.strategy, state, max_depth, again_is_ply=self.again_is_ply, fresh=False)
            answer = EngineAnswer((), r.value, r.pv, 0, max_depth)
            if is_terminal_score(r.value) and cfg.proves:
                answer = self.prove(state, r.value, deadline) or answer
                answer.depth = max_depth
            answer.nodes += r.nodes
            answer.seconds = time.perf_counter() - start
            return answer
        best: EngineAnswer | None = None
        nodes = 0
        guess = 0
        last_iteration = 0.0
        tried_proof = False
        for d in range(1, max_depth + 1):
            now = time.perf_counter()
            limit = None
            if deadline is not None and best is not None:
                left = deadline - now
                # Stop when the next iteration has little chance to finish; cut it off by a
                # node budget (positions/s so far times the time left) if it runs long.
                if left <= 0 or last_iteration * START_FACTOR > left:
                    break
                rate = nodes / max(now - start, 1e-6)
                limit = max(1000, int(rate * left * 0.8))
            t0 = time.perf_counter()
            r, aborted = s.iteration(
                cfg.strategy, state, d, guess=guess, node_limit=limit,
                again_is_ply=self.again_is_ply,
            )  # fmt: skip
            last_iteration = time.perf_counter() - t0
            nodes += r.nodes
            if aborted:
                break
            guess = r.value
            best = EngineAnswer((), r.value, r.pv, 0, d, 0.0, d == max_depth)
            if self.on_iteration is not None:
                self.on_iteration(d, r.value, nodes)
            if is_terminal_score(r.value) and not tried_proof and cfg.proves:
                tried_proof = True
                proof = self.prove(state, r.value, deadline)
                if proof is not None:
                    proof.depth = d
                    best = proof
                    break
        assert best is not None  # depth 1 always finishes: it has no node limit
        best.nodes += nodes
        best.seconds = time.perf_counter() - start
        return best

    def _search_budget(self, state: State, depth: int | None, budget: int) -> EngineAnswer:
        """The search under a node budget: at most ``budget`` positions examined.

        A budget strategy spends it as it likes; the depth-limited ones deepen 1, 2, ...
        (to ``depth``, else the config's depth, else as far as the budget goes), each
        iteration allowed what is left; the one that stops at the limit is dropped (its
        positions count). No iteration finished: an empty PV, value 0, depth 0."""
        cfg = self.config
        if budget < 1:
            return EngineAnswer((), 0, [], 0, 0, complete=False)
        if cfg.strategy in BUDGET_STRATEGIES:
            r = run_budget(cfg.strategy, self.game, state, budget, again_is_ply=self.again_is_ply)
            return EngineAnswer((), r.value, r.pv, r.nodes, r.depth or 0, exact=r.exact)
        max_depth = depth if depth is not None else (cfg.depth or MAX_DEPTH)
        s = self.searcher
        s.ws.clear_heuristics()
        used, guess = 0, 0
        best = EngineAnswer((), 0, [], 0, 0, complete=False)
        for d in range(1, max_depth + 1):
            if used >= budget:
                break
            r, stopped = s.limited(
                cfg.strategy, state, d, budget - used, guess=guess, again_is_ply=self.again_is_ply
            )
            used += r.nodes
            if stopped:
                break
            guess = r.value
            best = EngineAnswer((), r.value, r.pv, 0, d, 0.0, d == max_depth)
            if self.on_iteration is not None:
                self.on_iteration(d, r.value, used)
        best.nodes = used
        return best

    def prove(self, state: State, score: int, deadline: float | None = None) -> EngineAnswer | None:
        """The exact value and a best compound move of ``state`` from the solver, or None
        when its budget (``prove_nodes``, or what half the time left to ``deadline`` buys)
        runs out first. ``score`` is the search's value, the solver's first guess."""
        from boardgames.kalah.exact.solver import SearchStopped

        timed = deadline is not None and deadline != float("inf")
        if timed and self._solver is None:
            # The first proof's endgame table may take a second or two to load or build:
            # made in the background, so this move keeps its time (the proof waits for
            # the next one).
            self._prepare_solver()
            return None
        budget = self.config.prove_nodes
        share = 0.0
        if budget is None:
            budget = PROOF_NODES
            if timed:
                assert deadline is not None
                share = (deadline - time.perf_counter()) * PROOF_SHARE
                budget = int(PROOF_RATE * share)
        if budget <= 0:
            return None
        solver = self.solver()
        guess = score_margin(score)
        # the node budget is what the share of time buys at the measured rate; a slower
        # machine (or a harder position) is stopped when the share is spent all the same
        timer = threading.Timer(share, solver.interrupt) if share > 0 else None
        if timer is not None:
            timer.daemon = True
            timer.start()
        try:
            solved = solver.solve(state, node_limit=budget, guess=guess)
        except SearchStopped:
            return None
        finally:
            if timer is not None:
                timer.cancel()
        return EngineAnswer(
            (), terminal_score(solved.value, 0), list(solved.best), solved.nodes, 0,
            solved.seconds, True, exact=True,
        )  # fmt: skip

    def solver(self) -> Solver:
        """The exact solver of the proofs (made, with its endgame table, on first use)."""
        with self._solver_lock:
            if self._solver is None:
                from boardgames.kalah.exact.solver import Solver

                g = self.game
                table = self._tables() if self._tables is not None else None
                self._solver = Solver(
                    g.pits, g.rules, hash_mb=PROOF_TABLE_MIB, endgame=table,
                    empty_capture=g.empty_capture,
                )  # fmt: skip
            return self._solver

    def _prepare_solver(self) -> None:
        """Make the proofs' solver in a background thread (once)."""
        if self._preparing is None:
            self._preparing = threading.Thread(target=self.solver, name="proof-table", daemon=True)
            self._preparing.start()

    def best_move(self, state: State) -> EngineAnswer:
        """The whole compound move for the side to move in ``state``.

        GameError if the game is over. Should the principal variation stop while the
        program still has the move (a table cut-off), it searches again from there.
        """
        game = self.game
        if game.outcome(state) is not None:
            raise GameError("the game is over: there is no move to choose")
        if self.config.strategy == MCTS:
            return self._mcts_move(state)
        start = time.perf_counter()
        answer = self.search(state)
        player = game.to_move(state)
        pits: list[int] = []
        pv = list(answer.pv)
        s = state
        deadline = None if self.config.time_limit is None else start + self.config.time_limit
        depth = answer.depth
        budget = self.config.nodes
        while game.outcome(s) is None and game.to_move(s) == player:
            if not pv:
                # Keep the same horizon: compound depth does not shrink within a turn,
                # a sowing depth loses one per sowing played.
                d = max(1, depth - len(pits)) if self.again_is_ply else max(1, depth)
                left = None if budget is None else budget - answer.nodes
                extra = self.search(s, d, deadline=deadline, budget=left)
                answer.nodes += extra.nodes
                pv = list(extra.pv)
                if not pv:  # no time left at all: take the first legal move
                    pv = game.legal_moves(s)[:1]
            move = pv.pop(0)
            pits.append(move)
            s, again = game.play(s, move)
            if not again:
                break
        answer.move = tuple(pits)
        answer.seconds = time.perf_counter() - start
        return answer

    def _mcts_move(self, state: State) -> EngineAnswer:
        """The compound move by MCTS: the most-visited line while the turn lasts (the tree
        follows the extra turns); a new search from where it runs out. SearchStopped when
        :attr:`stop` says True."""
        cfg, game = self.config, self.game
        start = time.perf_counter()
        limit = cfg.time_limit
        deadline = None if limit is None else start + limit * 0.9
        player = game.to_move(state)
        pits: list[int] = []
        first: MctsResult | None = None
        s = state
        while game.outcome(s) is None and game.to_move(s) == player:
            seconds = None
            if deadline is not None:
                seconds = max(0.005, deadline - time.perf_counter())
            r = self.mcts.search(
                s, playouts=cfg.playouts, seconds=seconds, seed=cfg.seed + len(pits),
                c=cfg.exploration, policy=cfg.policy, stop=self.stop,
            )  # fmt: skip
            first = first or r
            for move in r.pv:
                pits.append(move)
                s, again = game.play(s, move)
                if not again or game.outcome(s) is not None:
                    break
        assert first is not None
        return EngineAnswer(
            tuple(pits), 0, list(first.pv), first.playouts, 0,
            time.perf_counter() - start, True, mcts=first,
        )  # fmt: skip


def analyse_position(game: Kalah, state: State, config: EngineConfig | None = None) -> EngineAnswer:
    """One-shot helper: the best compound move of ``state`` under ``config``."""
    return KalahEngine(game, config).best_move(state)
