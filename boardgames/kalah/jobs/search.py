"""Job-level exact solving: a front end that spreads one Kalah solve over many workers.

The front end (this process) holds the top of the game tree and asks *jobs*: null-window
questions "is the final margin of the side to move in this position at least b?",
answered by the exact :class:`~boardgames.kalah.exact.solver.Solver` on a worker (its own
transposition table, endgame tables and all its threads) within a node budget. The
answers combine as an AND/OR tree:

* the question at the root is "is the root mover's margin V at least t?" (a null-window
  test of MTD(f); ``--at-least`` / ``--at-most`` ask one);
* every node keeps the bounds proven on its V (from its own jobs, from the checkpoint, or
  from its children: max over the children where the root mover moves, min where the
  opponent does); a node is *decided* once a bound settles the question;
* which job next is chosen by proof numbers (job-level proof-number search, after Wu et
  al.): the unproven node that is cheapest to prove or disprove, its children ordered by
  the engine's depth-limited search, a node whose job is running counted as costly so
  that idle workers take other work;
* a job that spends its budget is *split*: its node's children (single sowings; an extra
  turn is a child with the same mover, so a compound move is a chain of them) become
  jobs. When every open node runs and a worker is idle, the most promising running node
  is split early.

Nodes are positions (the tree is searched per sowing). A job's answer is a fail-soft
bound, kept whatever the threshold: a later test (the next MTD(f) pass, a run for another
threshold) reuses it. With a checkpoint folder every bound is written to SQLite as it is
proven (:class:`BoundStore`), so a rerun starts from what is proven.

The values are those of the single-machine solver: every bound comes from it or from the
rules (finished games), and the AND/OR combination is exact.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardgames.core.cluster import JobPool
from boardgames.kalah.exact.index import pit_stones
from boardgames.kalah.exact.sizing import estimate_positions
from boardgames.kalah.exact.solver import Solver
from boardgames.kalah.game import Kalah
from boardgames.kalah.jobs.store import INF, BoundStore, position_key
from boardgames.kalah.kernels import result
from boardgames.kalah.play.guess import FirstGuess

DEFAULT_JOB_NODES = 10_000_000
"""Positions a job may search (per solver thread) before it is split: a few seconds."""
RUNNING = 1000
"""Proof and disproof number of a node whose job runs: costly, so that other workers
take other work while it is answered."""
PRESPLIT = 30.0
"""A position whose estimated solve exceeds this many job budgets is split at once (its
job would only run past its budget); 0 turns that off."""


@dataclass
class Node:
    """A position of the front end's tree. ``sign`` is +1 where the root's mover moves."""

    state: np.ndarray
    key: str
    sign: int
    parent: Node | None
    pit: int = -1
    children: list[Node] | None = None
    prior: int = 0
    depth: int = 0
    job_id: int | None = None
    hinted: bool = False


@dataclass
class JobRecord:
    """One job, for the scaling simulation and the figures."""

    id: int
    key: str
    threshold: int
    parent: int | None
    submitted: float
    seconds: float = 0.0
    nodes: int = 0
    kind: str = ""
    useful: bool = False
    cancelled: bool = False


@dataclass
class JobStats:
    """What a job-level solve did."""

    jobs: int = 0
    over_budget: int = 0
    cancelled: int = 0
    nodes: int = 0
    job_seconds: float = 0.0
    checkpoint_bounds: int = 0
    tests: list[tuple[int, bool, float]] = field(default_factory=list)
    log: list[JobRecord] = field(default_factory=list)


class JobSearch:
    """The front end of a job-level solve (see the module's doc)."""

    def __init__(
        self,
        pits: int,
        rules: str,
        empty_capture: bool,
        state: np.ndarray,
        pool: JobPool,
        *,
        job_nodes: int = DEFAULT_JOB_NODES,
        endgame: str = "auto",
        hash_mb: float = 64,
        store: BoundStore | None = None,
        known: dict[str, list[Any]] | None = None,
        tick: Callable[[JobSearch], None] | None = None,
        order_depth: int = 3,
        table_stones: int = 0,
        presplit: float = PRESPLIT,
    ) -> None:
        self.pits = pits
        self.rules = rules
        self.empty_capture = empty_capture
        self.pool = pool
        self.job_nodes = job_nodes
        self.endgame = endgame
        self.hash_mb = hash_mb
        self.store = store
        self.tick = tick
        self.order_depth = order_depth
        self.table_stones = table_stones
        self.presplit = presplit
        self.rules_solver = Solver(pits, rules, hash_mb=0.01, empty_capture=empty_capture)
        self.total = int(state[: 2 * pits + 2].sum())
        self.parity = rules == "classic"  # every stone ends in a store: V has T's parity
        self.bounds: dict[str, list[Any]] = {k: list(v) for k, v in (known or {}).items()}
        self.stats = JobStats(checkpoint_bounds=len(self.bounds))
        self.by_key: dict[str, list[Node]] = {}
        self.running: dict[str, JobRecord] = {}  # job key -> record
        self.running_keys: set[str] = set()
        self.top: Node | None = None
        self.job_node: dict[str, Node] = {}
        self.threshold = 0
        self.t0 = time.perf_counter()
        self.first_guess = FirstGuess(Kalah(pits, 1, rules, empty_capture=empty_capture))
        self.root = self._node(np.asarray(state, dtype=np.int64).copy(), None, 1)

    # --- nodes and bounds -----------------------------------------------------------------

    def _node(self, state: np.ndarray, parent: Node | None, sign: int, pit: int = -1) -> Node:
        key = position_key(state, self.pits)
        node = Node(state, key, sign, parent, pit, depth=0 if parent is None else parent.depth + 1)
        self.by_key.setdefault(key, []).append(node)
        if key not in self.bounds:
            self.bounds[key] = [-INF, INF, 0]
        if not self.rules_solver.legal(state):  # a finished game: its margin, exactly
            v = int(result(state.reshape(1, -1), 0, self.rules_solver._params(state)))
            self.bounds[key][0] = self.bounds[key][1] = v
        return node

    def _round(self, lo: int, hi: int) -> tuple[int, int]:
        if self.parity:
            if (lo - self.total) % 2:
                lo += 1
            if (hi - self.total) % 2:
                hi -= 1
        return max(lo, -self.total), min(hi, self.total)

    def node_bounds(self, node: Node) -> tuple[int, int]:
        """Bounds on the root mover's margin V in ``node``."""
        lo, hi = self.bounds[node.key][:2]
        lo, hi = self._round(lo, hi)
        return (lo, hi) if node.sign > 0 else (-hi, -lo)

    def _tighten(self, key: str, lo: int, hi: int) -> bool:
        """Mover-relative bounds for ``key``; True if they got tighter."""
        entry = self.bounds[key]
        lo, hi = self._round(max(entry[0], lo), min(entry[1], hi))
        if lo > hi:  # a contradiction means a bug or a damaged checkpoint: never hide it
            raise RuntimeError(f"contradicting bounds for {key}: {lo} > {hi}")
        changed = (lo, hi) != self._round(entry[0], entry[1])
        entry[0], entry[1] = lo, hi
        return changed

    def _derive(self, node: Node) -> tuple[int, int] | None:
        """V's bounds from the children (max where the root mover moves, else min)."""
        if not node.children:
            return None
        pairs = [self.node_bounds(c) for c in node.children]
        pick = max if node.sign > 0 else min
        return pick(p[0] for p in pairs), pick(p[1] for p in pairs)

    def _propagate(self, keys: list[str]) -> None:
        """Bounds of ``keys`` changed: recompute their ancestors (and write what tightens)."""
        work = list(keys)
        while work:
            key = work.pop()
            for node in self.by_key.get(key, []):
                parent = node.parent
                if parent is None:
                    continue
                derived = self._derive(parent)
                if derived is None:
                    continue
                lo, hi = derived if parent.sign > 0 else (-derived[1], -derived[0])
                before = self._round(*self.bounds[parent.key][:2])
                if self._tighten(parent.key, lo, hi):
                    after = self._round(*self.bounds[parent.key][:2])
                    if self.store is not None:
                        if after[0] > before[0]:
                            self.store.add(parent.key, self.threshold, "lower", after[0], 0, 0.0)
                        if after[1] < before[1]:
                            self.store.add(parent.key, self.threshold, "upper", after[1], 0, 0.0)
                    work.append(parent.key)

    def decided(self, node: Node, t: int) -> bool:
        lo, hi = self.node_bounds(node)
        return lo >= t or hi < t

    def _expand(self, node: Node, first: int = -1) -> None:
        """The node's children (one a legal sowing), ordered by the engine: first what
        most likely decides (where the root's mover moves, its best; else the opponent's);
        ``first``: the pit the node's own job found best so far, put first."""
        if node.children is not None:
            return
        node.children = []
        for pit in self.rules_solver.legal(node.state):
            child_state, again, _ = self.rules_solver._child(node.state, pit)
            sign = node.sign if again else -node.sign
            node.children.append(self._node(child_state, node, sign, pit))
        scores = [self._guess(c) for c in node.children]
        for c, s in zip(node.children, scores, strict=True):
            c.prior = s  # V (root mover's view) the engine expects
        node.children.sort(key=lambda c: (c.pit != first, -c.prior * node.sign))
        if node.children and node.children[0].pit == first:
            node.children[0].hinted = True
        self._propagate([c.key for c in node.children])

    def _guess(self, node: Node) -> int:
        """The engine's depth-limited value of ``node`` for the root's mover."""
        lo, hi = self.node_bounds(node)
        if lo == hi:
            return lo
        return node.sign * self.first_guess.at_depth(node.state, self.order_depth, two_depths=False)

    # --- proof numbers and selection --------------------------------------------------------

    def _numbers(self, node: Node, t: int, memo: dict[int, tuple[int, int]]) -> tuple[int, int]:
        got = memo.get(id(node))
        if got is not None:
            return got
        lo, hi = self.node_bounds(node)
        if lo >= t:
            out = (0, INF)
        elif hi < t:
            out = (INF, 0)
        elif not node.children:
            if node.key in self.running_keys:
                out = (RUNNING, RUNNING)
            elif node.hinted:  # the parent's job found this move best: try it first
                out = (1, 1)
            else:  # the engine's guess: likely true is cheaper to prove
                out = (1, 2) if node.prior >= t else (2, 1)
        else:
            nums = [self._numbers(c, t, memo) for c in node.children]
            if node.sign > 0:  # OR: one child reaching t proves it
                out = (min(n[0] for n in nums), min(INF, sum(n[1] for n in nums)))
            else:
                out = (min(INF, sum(n[0] for n in nums)), min(n[1] for n in nums))
            if node.key in self.running_keys:
                out = (min(INF, out[0] + RUNNING), min(INF, out[1] + RUNNING))
        memo[id(node)] = out
        return out

    def _select(self, t: int) -> Node | None:
        """The most-proving node with no job (splitting a running one if every open node
        runs); None when nothing is left to ask."""
        memo: dict[int, tuple[int, int]] = {}
        node = self.root
        if self.decided(node, t):
            return None
        while True:
            if not node.children:
                # split without asking: its job ran past its budget before, or the
                # solver's rough estimate puts it far beyond a job's budget
                over = self.bounds[node.key][2] > 0 or self._too_big(node)
                if node.key not in self.running_keys and not over:
                    return node
                if node.children is None:
                    self._expand(node)  # split: over its budget, or every open node runs
                    memo.clear()
                    if self.decided(node, t):  # its children settled it: start again
                        node = self.root
                        if self.decided(node, t):
                            return None
                        continue
                if not node.children:
                    return None
            open_children = [c for c in node.children if not self.decided(c, t)]
            if not open_children:
                return None
            idx = 0 if node.sign > 0 else 1
            node = min(open_children, key=lambda c: self._numbers(c, t, memo)[idx])
            if self._numbers(node, t, memo)[idx] >= INF:
                return None

    def _too_big(self, node: Node) -> bool:
        """True when ``estimate_positions`` (a fit to whole solves, within a factor of a
        few) puts the node's solve at more than :data:`PRESPLIT` job budgets: its job would
        only run past its budget."""
        if self.presplit <= 0:
            return False
        left = pit_stones(node.state, self.pits)
        return (
            estimate_positions(self.pits, left, self.table_stones) > self.presplit * self.job_nodes
        )

    def _release(self, name: str) -> tuple[JobRecord | None, Node | None]:
        record = self.running.pop(name, None)
        node = self.job_node.pop(name, None)
        if record is not None and not any(r.key == record.key for r in self.running.values()):
            self.running_keys.discard(record.key)
        return record, node

    # --- jobs -------------------------------------------------------------------------------

    def _submit(self, node: Node, t: int) -> None:
        bound = t if node.sign > 0 else 1 - t  # the mover's margin >= bound?
        job_id = self.stats.jobs
        self.stats.jobs += 1
        parent_job = None
        p = node.parent
        while p is not None and parent_job is None:
            parent_job = p.job_id
            p = p.parent
        record = JobRecord(job_id, node.key, t, parent_job, time.perf_counter() - self.t0)
        node.job_id = job_id
        name = f"j{job_id}"
        self.running[name] = record
        self.running_keys.add(node.key)
        self.job_node[name] = node
        self.stats.log.append(record)
        self.pool.submit(
            name, self.pits, self.rules, self.empty_capture, [int(x) for x in node.state],
            bound, self.job_nodes, self.endgame, self.hash_mb,
        )  # fmt: skip

    def _finish(self, name: str, answer: dict[str, Any], seconds: float) -> None:
        record, node = self._release(name)
        if record is None or node is None:
            return
        record.seconds, record.nodes, record.kind = seconds, int(answer["nodes"]), answer["kind"]
        self.stats.nodes += record.nodes
        self.stats.job_seconds += seconds
        key = node.key
        if answer["kind"] == "over":
            self.stats.over_budget += 1
            self.bounds[key][2] += 1
            if self.store is not None:
                self.store.add(key, record.threshold, "over", 0, record.nodes, seconds)
            if self._needed(node):
                self._expand(node, int(answer.get("first", -1)))
            return
        value = int(answer["value"])
        lo, hi = (value, INF) if answer["kind"] == "lower" else (-INF, value)
        needed = self._needed(node)
        if self.store is not None:
            self.store.add(key, record.threshold, answer["kind"], value, record.nodes, seconds)
        if self._tighten(key, lo, hi):
            record.useful = needed
            self._propagate([key])

    def _needed(self, node: Node) -> bool:
        """True while neither the node nor an ancestor up to the test's top is decided for
        the current threshold (and the node is under that top)."""
        n: Node | None = node
        while n is not None:
            if self.decided(n, self.threshold):
                return False
            if n is self.top:
                return True
            n = n.parent
        return False

    def _cancel_unneeded(self) -> None:
        for name, record in list(self.running.items()):
            if not any(self._needed(n) for n in self.by_key.get(record.key, [])):
                self.pool.cancel(name)
                record.cancelled = True
                self.stats.cancelled += 1
                self._release(name)

    def test(self, t: int, node: Node | None = None) -> bool:
        """Is the root mover's margin V at ``node`` (default: the root) at least ``t``?"""
        top = node or self.root
        saved_root, self.root = self.root, top
        self.top = top
        self.threshold = t
        began = time.perf_counter()
        try:
            while not self.decided(top, t):
                self._cancel_unneeded()
                while self.pool.pending() < self.pool.capacity():
                    pick = self._select(t)
                    if pick is None:
                        break
                    self._submit(pick, t)
                if self.tick is not None:
                    self.tick(self)
                for name, answer, seconds in self.pool.wait(0.2):
                    self._finish(name, answer, seconds)
                if not self.running and self.pool.pending() == 0 and not self.decided(top, t):
                    pick = self._select(t)
                    if pick is None:
                        raise RuntimeError("the job search ran out of questions undecided")
        finally:
            self.root = saved_root
        lo, _ = self.node_bounds(top)
        self.stats.tests.append((t, lo >= t, time.perf_counter() - began))
        return lo >= t

    def value(self, guess: int | None = None) -> int:
        """The exact margin of the root's mover: MTD(f) over :meth:`test`."""
        lo, hi = self.node_bounds(self.root)
        step = 2 if self.parity else 1
        if guess is None:  # the solve command's first guess (the engine for a moment)
            guess = self.root.sign * self.first_guess.within(self.root.state)
        g = max(lo, min(hi, guess))
        if self.parity and (g - self.total) % 2:
            g += 1 if g < hi else -1
        while True:
            lo, hi = self.node_bounds(self.root)
            if lo >= hi:
                return lo
            beta = max(lo + step, min(g, hi))
            self.test(beta)
            lo, hi = self.node_bounds(self.root)
            g = lo if lo >= beta else hi

    def best_line(self, value: int) -> list[int]:
        """The first sowings in pit order that keep ``value`` (a compound move)."""
        line: list[int] = []
        node = self.root
        while True:
            if not self.rules_solver.legal(node.state):
                return line
            self._expand(node)
            assert node.children is not None
            for child in sorted(node.children, key=lambda c: c.pit):
                if self.test(value, child):
                    line.append(child.pit)
                    node = child
                    break
            else:  # cannot happen: the value was proven
                raise RuntimeError("no move keeps the proven value")
            if node.sign < 0:
                return line

    def open_leaves(self) -> int:
        """Undecided positions at the tree's edge with no job running: the work waiting."""
        count = 0
        stack = [self.root]
        while stack:
            node = stack.pop()
            if self.decided(node, self.threshold):
                continue
            if node.children:
                stack.extend(node.children)
            elif node.key not in self.running_keys:
                count += 1
        return count

    def first_moves(self) -> list[dict[str, Any]]:
        """Bounds on V after each of the root mover's first sowings (proven so far)."""
        if not self.root.children:
            return []
        out = []
        for child in sorted(self.root.children, key=lambda c: c.pit):
            lo, hi = self.node_bounds(child)
            out.append({"pit": child.pit, "lower": lo, "upper": hi})
        return out

    def close(self) -> None:
        self.pool.close()
        if self.store is not None:
            self.store.close()


def bound_text(lo: int, hi: int, total: int) -> str:
    """``+4``, ``at least +2``, ``at most -1``, ``[-2, +4]`` or ``unknown`` (``total``:
    the stones of the game, the widest bounds)."""
    if lo == hi:
        return f"{lo:+d}"
    if lo <= -total and hi >= total:
        return "unknown"
    if hi >= total:
        return f"at least {lo:+d}"
    if lo <= -total:
        return f"at most {hi:+d}"
    return f"[{lo:+d}, {hi:+d}]"


def job_log_lines(stats: JobStats) -> list[str]:
    """The job log as JSON lines (for the scaling simulation)."""
    return [json.dumps(r.__dict__, separators=(",", ":")) for r in stats.log]


def positions_per_second(stats: JobStats, seconds: float) -> float:
    return stats.nodes / max(seconds, 1e-9)
