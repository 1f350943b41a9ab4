"""Monte Carlo tree search (UCT with the MCTS-Solver rule), generic over a game's kernels.

The same five jitted rule functions every search uses (:class:`core.kernels.GameKernels`)
drive it, so it works for every game without game code. No Python object per node: the
tree is a pool of nodes in arrays (:class:`Tree`), grown by one jitted kernel that runs a
batch of iterations; the Python driver (:class:`MctsSearcher`) calls it until the budget
(playouts or seconds) is spent, so a time limit, a ``stop`` callable (a Cancel, a
deadline) and Ctrl-C are honoured between batches; a batch is shrunk when it takes longer
than :data:`BATCH_SECONDS`, so that a stop is seen within a small fraction of a second
on any board (the batches never change the search: see :meth:`MctsSearcher.search`).

One iteration: from the root, descend by UCT (``mean + c * sqrt(ln N / n)``, the mean
from the view of the player who moves into the child; unvisited children first, the
first one at a random offset) until a child visited for the first time, a finished game
or a proven node; play a random game from the new child to its end (uniform, or with
``policy="priority"`` the game's priority function as a light bias: half the time the
move of highest priority when one has any); back up the result (win 1, draw 1/2, loss 0)
to every node on the path, each from its mover's view. A move after which the same player
moves again (Kalah's extra turn) keeps the player, as everywhere in the engine.

MCTS-Solver (Winands, Björnsson and Saito, 2008): a finished game is a proven node; a node
whose player to move has a child proven to win for them, or whose children are all proven,
is proven too (win, draw or loss: the best of its children for its player). Proven losing
children are never selected while others remain, so small endgames are finished exactly.
Node children are made all at once when a node is first passed through (its first visit
was its own playout), so a node's children's visits sum to its own minus one (the root's
to its own).

Deterministic for a given seed: the random numbers come from a xorshift64* generator kept
in an array, advanced only by the kernel. This module imports numba only when a kernel is
built, so configuration code can import its constants cheaply.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from boardgames.core.search import SearchStopped
from boardgames.core.strategies import kernel_spec

if TYPE_CHECKING:
    from boardgames.core.kernels import GameKernels

# node columns of Tree.nodes
PARENT, FIRST, COUNT, MOVE, VISITS, PLAYER, SOLVED, OUTCOME = range(8)
COLUMNS = 8
"""``PLAYER``: the player to move at the node (0: the root's), -1 until first reached;
``SOLVED``: 1 when ``OUTCOME`` (-1, 0 or +1 for the root's player) is proven."""
# meta cells
USED, CAPACITY, PLAYOUTS, PLIES = range(4)
POLICIES = ("random", "priority")
DEFAULT_C = math.sqrt(2)
MAX_PLAYOUT = 1 << 20
"""Sowings a playout may take before it is scored a draw (never reached by our games)."""
GROW_ROWS = 1 << 17
"""Nodes copied at a time when the pool grows (8 MB; a few milliseconds)."""
BATCH_SECONDS = 0.05
"""Longest a batch of iterations should take: a longer one makes the next ones smaller
(down to one iteration), so that ``stop``, the time limit and Ctrl-C are seen this often."""


@dataclass
class Tree:
    """The node pool: int columns, the summed rewards, counters and the generator."""

    nodes: np.ndarray
    wins: np.ndarray
    meta: np.ndarray
    rng: np.ndarray

    @classmethod
    def empty(cls, capacity: int, seed: int) -> Tree:
        nodes = np.full((capacity, COLUMNS), -1, dtype=np.int64)
        nodes[:, VISITS] = 0
        nodes[:, SOLVED] = 0
        nodes[:, OUTCOME] = 0
        nodes[0, PLAYER] = 0
        meta = np.array([1, capacity, 0, 0], dtype=np.int64)
        # splitmix64 of the seed, so that nearby seeds start far apart (never zero)
        z = (seed + 0x9E3779B97F4A7C15) & (2**64 - 1)
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
        z ^= z >> 31
        rng = np.array([z or 1], dtype=np.uint64)
        return cls(nodes, np.zeros(capacity, dtype=np.float64), meta, rng)

    def grow(self, capacity: int, stop: Callable[[], bool] | None = None) -> bool:
        """Room for ``capacity`` nodes, keeping the tree. The pool is copied (and the new
        part filled) :data:`GROW_ROWS` nodes at a time, asking ``stop`` before each: when
        it says True the tree is left as it was and the answer is False (a pool of
        millions of nodes takes a good part of a second to copy)."""
        old = self.nodes.shape[0]
        nodes = np.empty((capacity, COLUMNS), dtype=np.int64)
        wins = np.empty(capacity, dtype=np.float64)
        for lo in range(0, capacity, GROW_ROWS):
            if stop is not None and stop():
                return False
            hi = min(capacity, lo + GROW_ROWS)
            kept = min(hi, old)
            if lo < kept:
                nodes[lo:kept] = self.nodes[lo:kept]
                wins[lo:kept] = self.wins[lo:kept]
            new = max(lo, old)
            if new < hi:
                nodes[new:hi] = -1
                nodes[new:hi, VISITS] = 0
                nodes[new:hi, SOLVED] = 0
                nodes[new:hi, OUTCOME] = 0
                wins[new:hi] = 0.0
        self.nodes, self.wins = nodes, wins
        self.meta[CAPACITY] = capacity
        return True

    def children(self, node: int) -> range:
        first, count = int(self.nodes[node, FIRST]), int(self.nodes[node, COUNT])
        return range(first, first + count) if first >= 0 else range(0)


def build_mcts(k: GameKernels) -> Any:
    """The batch kernel for one game's rule functions (memoised per kernel tag)."""
    if k.tag in _KERNELS:
        return _KERNELS[k.tag]
    from boardgames.core.kernels import AGAIN, OVER, _jit, kernel_tag  # numba: only here

    gen_moves, apply_move, result, priority = k.gen_moves, k.apply_move, k.result, k.priority
    tag = f"{k.tag}-mcts-{kernel_tag(__file__)}"  # this file's source is part of the key

    def rand_py(rng, n):
        x = rng[0]
        x ^= x >> np.uint64(12)
        x ^= x << np.uint64(25)
        x ^= x >> np.uint64(27)
        rng[0] = x
        return np.int64((x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(33)) % n

    rand = _jit(rand_py, tag)

    def playout_py(states, moves, params, ply, player, rng, policy, meta):
        """Random sowings from ``states[ply]`` to the end; the result for player 0.

        Each sowing writes the next row of the stack (copy-make); at the stack's end the
        line moves back to row ``ply`` (a copy every few hundred sowings, not every one)."""
        top_row = states.shape[0] - 2
        cur = ply
        plies = 0
        for _ in range(MAX_PLAYOUT):
            n = gen_moves(states, cur, params, moves)
            pick = rand(rng, n)
            if policy == 1 and rand(rng, 2) == 0:
                top = 0
                for i in range(n):
                    p = priority(states, cur, moves[cur, i], params)
                    if p > top:
                        top = p
                        pick = i
            code = apply_move(states, cur, moves[cur, pick], params)
            plies += 1
            cur += 1
            if code != AGAIN:
                player = 1 - player
            if code == OVER:
                meta[PLIES] += plies
                r = result(states, cur, params)
                return r if player == 0 else -r
            if cur >= top_row:
                for j in range(states.shape[1]):  # no slices: the kernels run without NRT
                    states[ply, j] = states[cur, j]
                cur = ply
        meta[PLIES] += plies
        return 0

    playout = _jit(playout_py, tag)

    def try_solve_py(nodes, node):
        """Mark ``node`` proven when its children allow; True if it is now proven."""
        first = nodes[node, FIRST]
        if first < 0:
            return False
        sign = 1 if nodes[node, PLAYER] == 0 else -1  # what the player to move wants
        best = -2
        unknown = False
        for ch in range(first, first + nodes[node, COUNT]):
            if nodes[ch, SOLVED] == 0:
                unknown = True
                continue
            v = sign * nodes[ch, OUTCOME]
            if v == 1:
                best = 1
                break
            if v > best:
                best = v
        if best != 1 and unknown:
            return False
        nodes[node, SOLVED] = 1
        nodes[node, OUTCOME] = sign * best
        return True

    try_solve = _jit(try_solve_py, tag)

    def iterate(states, moves, params, root, nodes, wins, meta, rng, path, count, c, policy):
        """Run ``count`` iterations (fewer if the root gets proven); how many ran."""
        cap_ply = states.shape[0] - 2
        done = 0
        for _ in range(count):
            if nodes[0, SOLVED] != 0:
                break
            for j in range(root.shape[0]):
                states[0, j] = root[j]
            node = 0
            ply = 0
            depth = 0
            path[0] = 0
            while True:
                if nodes[node, SOLVED] != 0:
                    m0 = nodes[node, OUTCOME]
                    break
                if node != 0 and nodes[node, VISITS] == 0:
                    m0 = playout(states, moves, params, ply, nodes[node, PLAYER], rng, policy, meta)
                    meta[PLAYOUTS] += 1
                    break
                if nodes[node, FIRST] < 0:
                    n = gen_moves(states, ply, params, moves)
                    used = meta[USED]
                    if used + n > meta[CAPACITY] or ply >= cap_ply:
                        # the pool is full (or the line too deep): a playout from here
                        m0 = playout(
                            states, moves, params, ply, nodes[node, PLAYER], rng, policy, meta
                        )
                        meta[PLAYOUTS] += 1
                        break
                    for i in range(n):
                        ch = used + i
                        nodes[ch, PARENT] = node
                        nodes[ch, MOVE] = moves[ply, i]
                        nodes[ch, FIRST] = -1
                    nodes[node, FIRST] = used
                    nodes[node, COUNT] = n
                    meta[USED] = used + n
                # select a child
                first = nodes[node, FIRST]
                n = nodes[node, COUNT]
                me = nodes[node, PLAYER]
                sign = 1 if me == 0 else -1
                log_n = math.log(nodes[node, VISITS] + 1.0)
                best = -1
                best_v = -1e300
                offset = rand(rng, n)
                for j in range(n):
                    ch = first + (offset + j) % n
                    vis = nodes[ch, VISITS]
                    if nodes[ch, SOLVED] != 0:
                        o = sign * nodes[ch, OUTCOME]
                        # a proven loss is taken only when nothing else is left
                        v = -1e200 if o < 0 else 0.5 + 0.5 * o
                    elif vis == 0:
                        v = 1e100
                    else:
                        v = wins[ch] / vis + c * math.sqrt(log_n / vis)
                    if v > best_v:
                        best_v = v
                        best = ch
                code = apply_move(states, ply, nodes[best, MOVE], params)
                ply += 1
                if nodes[best, PLAYER] < 0:
                    nodes[best, PLAYER] = me if code == AGAIN else 1 - me
                    if code == OVER:
                        r = result(states, ply, params)
                        r0 = r if nodes[best, PLAYER] == 0 else -r
                        nodes[best, SOLVED] = 1
                        nodes[best, OUTCOME] = 1 if r0 > 0 else (-1 if r0 < 0 else 0)
                node = best
                depth += 1
                path[depth] = node
            reward = 1.0 if m0 > 0 else (0.0 if m0 < 0 else 0.5)
            for d in range(depth, -1, -1):
                nd = path[d]
                nodes[nd, VISITS] += 1
                if d > 0:
                    mover = nodes[path[d - 1], PLAYER]
                    wins[nd] += reward if mover == 0 else 1.0 - reward
            for d in range(depth - 1, -1, -1):  # MCTS-Solver: proofs move up the path
                if nodes[path[d], SOLVED] != 0 or not try_solve(nodes, path[d]):
                    break
            done += 1
        return done

    kernel = _jit(iterate, tag)
    _KERNELS[k.tag] = kernel
    return kernel


_KERNELS: dict[str, Any] = {}


def _next_batch(size: int, count: int, seconds: float, most: int) -> int:
    """Iterations in the next batch after ``count`` of them took ``seconds``: about
    :data:`BATCH_SECONDS` worth, at least 1, at most ``most``, at most twice ``size``."""
    if seconds <= 0:
        return min(most, 2 * size)
    fit = int(count * BATCH_SECONDS / seconds)
    return max(1, min(most, 2 * size, fit))


@dataclass
class MctsResult:
    """What a search found: the move, its statistics and the work done."""

    move: int | None
    value: float
    """Mean result of the chosen move for the player to move (1 win, 1/2 draw, 0 loss)."""
    visits: int
    share: float
    """The chosen move's share of the root's visits."""
    playouts: int
    """Iterations (simulations): a random game to the end, or a proven node's result."""
    plies: int
    """Sowings (single moves) played in the random games."""
    seconds: float
    proven: int | None = None
    """-1, 0 or +1 (loss, draw, win for the player to move) when MCTS-Solver proved the
    root, else None."""
    children: list[tuple[int, int, float, int | None]] = field(default_factory=list)
    """Per root move: (move, visits, mean for the mover, proven outcome or None)."""
    pv: list[int] = field(default_factory=list)
    """The most-visited line from the root, single moves."""

    @property
    def rate(self) -> float:
        return self.playouts / self.seconds if self.seconds > 0 else 0.0


class MctsSearcher:
    """MCTS for one game: its compiled batch kernel and buffers, reused between searches."""

    def __init__(self, game: Any) -> None:
        from boardgames.core.kernels import MAX_PLY

        self.game = game
        self.spec = kernel_spec(game)
        self.kernel = build_mcts(self.spec.kernels)
        self.states = np.zeros((MAX_PLY, self.spec.cells), dtype=np.int64)
        self.moves = np.zeros((MAX_PLY, self.spec.max_moves), dtype=np.int64)
        self.path = np.zeros(MAX_PLY + 1, dtype=np.int64)
        self.tree: Tree | None = None

    def search(
        self,
        state: np.ndarray,
        *,
        playouts: int | None = None,
        seconds: float | None = None,
        seed: int = 0,
        c: float = DEFAULT_C,
        policy: str = "random",
        batch: int = 256,
        max_nodes: int = 8_000_000,
        stop: Callable[[], bool] | None = None,
    ) -> MctsResult:
        """Search ``state`` for ``playouts`` iterations or ``seconds`` (whichever ends
        first; one of them is needed). ValueError for bad knobs or a finished game.

        ``stop`` (a Cancel, a deadline: ``event.is_set``) is asked before every batch of
        at most ``batch`` iterations; when it says True the search raises
        :class:`~boardgames.core.search.SearchStopped` (``args[0]``: the iterations run).
        A batch that takes longer than :data:`BATCH_SECONDS` makes the next ones smaller
        (they grow back to ``batch`` when quick), so a stop is seen within about that
        time. The batches never change the result: the same seed and playouts give the
        same search whatever their sizes.

        The node pool starts small and doubles as the tree grows, up to ``max_nodes``
        (8 M nodes: 576 MB); past that, iterations play out from the leaves they reach
        without adding nodes."""
        if batch < 1:
            raise ValueError(f"batch must be at least 1, got {batch}")
        if playouts is None and seconds is None:
            raise ValueError("give a budget: playouts or seconds")
        if playouts is not None and playouts < 1:
            raise ValueError(f"playouts must be at least 1, got {playouts}")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"seconds must be more than 0, got {seconds}")
        if not c >= 0 or math.isinf(c):
            raise ValueError(f"the exploration constant must be 0 or more, got {c}")
        if policy not in POLICIES:
            raise ValueError(f"unknown playout policy {policy!r}; choose {', '.join(POLICIES)}")
        if self.game.outcome(state) is not None:
            raise ValueError("the game is over: there is no move to search")
        root = np.asarray(state, dtype=np.int64)
        per_batch = batch * self.spec.max_moves  # nodes one batch may add at most
        tree = Tree.empty(min(max_nodes, 1 + 4 * per_batch), seed)
        self.tree = tree
        params = self.spec.params(root)
        pol = POLICIES.index(policy)
        t0 = time.perf_counter()
        deadline = None if seconds is None else t0 + seconds
        ran = 0
        size_now = batch  # iterations in the next batch: shrunk when a batch is slow
        while playouts is None or ran < playouts:
            if stop is not None and stop():
                raise SearchStopped(ran)
            count = size_now if playouts is None else min(size_now, playouts - ran)
            size = tree.nodes.shape[0]
            # the pool never fills inside a batch (below max_nodes): the batch sizes
            # cannot change the search
            grow = tree.meta[USED] + per_batch > size and size < max_nodes
            if grow and not tree.grow(min(max_nodes, 2 * size + per_batch), stop):
                raise SearchStopped(ran)
            started = time.perf_counter()
            got = self.kernel(
                self.states, self.moves, params, root, tree.nodes, tree.wins, tree.meta,
                tree.rng, self.path, count, float(c), pol,
            )  # fmt: skip
            now = time.perf_counter()
            ran += got
            if got < count or (deadline is not None and now >= deadline):
                break
            size_now = _next_batch(size_now, count, now - started, batch)
        return self._result(tree, ran, time.perf_counter() - t0)

    def _result(self, tree: Tree, iterations: int, seconds: float) -> MctsResult:
        from boardgames.core.kernels import PV_LENGTH  # numba is loaded by now

        nodes, wins = tree.nodes, tree.wins
        kids = []
        for ch in tree.children(0):
            vis = int(nodes[ch, VISITS])
            # the root's player moves into every child: means are from the root's view
            proven = int(nodes[ch, OUTCOME]) if nodes[ch, SOLVED] else None
            kids.append((int(nodes[ch, MOVE]), vis, wins[ch] / vis if vis else 0.0, proven))
        root_proven = int(nodes[0, OUTCOME]) if nodes[0, SOLVED] else None
        best = self._choose(tree, 0)
        move = int(nodes[best, MOVE]) if best >= 0 else None
        vis = int(nodes[best, VISITS]) if best >= 0 else 0
        pv: list[int] = []
        node = best
        while node >= 0 and len(pv) < PV_LENGTH:
            pv.append(int(nodes[node, MOVE]))
            node = self._choose(tree, node)
        total = int(nodes[0, VISITS])
        return MctsResult(
            move, wins[best] / vis if vis else 0.0, vis, vis / total if total else 0.0,
            iterations, int(tree.meta[PLIES]), seconds, root_proven, kids, pv,
        )  # fmt: skip

    @staticmethod
    def _choose(tree: Tree, node: int) -> int:
        """The move to play at ``node``: a proven best child if the node is proven, else
        the most visited (ties: the first in the game's order); -1 if none."""
        nodes = tree.nodes
        children = tree.children(node)
        if not children:
            return -1
        if nodes[node, SOLVED]:
            want = nodes[node, OUTCOME]
            for ch in children:
                if nodes[ch, SOLVED] and nodes[ch, OUTCOME] == want:
                    return ch
        return max(children, key=lambda ch: (nodes[ch, VISITS], -ch))
