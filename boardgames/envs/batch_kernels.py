"""The batched environment's numba kernels, built per game over its rule kernels.

Every kernel loops over the games of a batch (``prange``: serial or ``parallel``, the
same answers either way: nothing is shared between games, and each game draws from its
own generator). ``S`` is ``(2n, cells)``: row ``2i`` game ``i``'s position, row ``2i + 1``
where ``apply_move`` writes the child (the rule kernels' ``ply`` is ``2i``: no array view
is made per game, which under ``parallel`` would contend for one reference count);
``M`` is ``(2n, max_moves)``, ``gen_moves``' buffer (row ``2i``).
The codec tables are :class:`boardgames.envs.layout.Layout`'s. ``status`` per game:
:data:`OK`, :data:`ILLEGAL` (the action is not legal), :data:`UNKNOWN` (a table entry not
seen yet: the caller asks the Python codec and runs the kernel again).

Compiled once per game (closures over the rule functions, cached on disk under the rule
kernels' tag, as core/kernels.py does).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit, prange

from boardgames.core.kernels import NOT_OVER, OVER, GameCache, GameKernels, kernel_tag

OK, ILLEGAL, UNKNOWN = 0, 1, 2
NO_MOVE = -(1 << 62)


class BatchKernels(NamedTuple):
    """The compiled kernels of one game (serial or parallel)."""

    check: Any
    advance: Any
    observe: Any
    playout: Any


def _jit(func: Any, tag: str, parallel: bool) -> Any:
    dispatcher = njit(func, parallel=parallel, nogil=True)
    dispatcher._cache = GameCache(
        dispatcher.py_func, f"{tag}-{func.__name__}-{parallel}-{kernel_tag(__file__)}"
    )
    return dispatcher


@njit(cache=True, inline="always")
def next_random(rng, i):
    """splitmix64: the next word of game ``i``'s generator."""
    rng[i] += np.uint64(0x9E3779B97F4A7C15)
    z = rng[i]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def _mover(S, r, tm_cell, tm_lut):
    v = S[r, tm_cell]
    if v < 0 or v >= tm_lut.shape[0]:
        return -1
    return tm_lut[v]


_BUILT: dict[tuple[str, bool], BatchKernels] = {}


def build(k: GameKernels, parallel: bool) -> BatchKernels:
    """The batch kernels over game kernels ``k`` (memoised per tag)."""
    key = (k.tag, parallel)
    if key in _BUILT:
        return _BUILT[key]
    gen_moves, apply_move, result = k.gen_moves, k.apply_move, k.result

    def check(S, M, actions, active, params, tm_cell, tm_lut, inv, status):
        """Whether each active game's action is legal."""
        n_actions = inv.shape[1]
        for i in prange(S.shape[0] // 2):
            status[i] = OK
            if not active[i]:
                continue
            p = _mover(S, 2 * i, tm_cell, tm_lut)
            a = actions[i]
            if p < 0:
                status[i] = UNKNOWN
            elif a < 0 or a >= n_actions:
                status[i] = ILLEGAL
            elif inv[p, a] == NO_MOVE:
                status[i] = UNKNOWN
            else:
                status[i] = ILLEGAL
                n = gen_moves(S, 2 * i, params, M)
                for j in range(n):
                    if M[2 * i, j] == inv[p, a]:
                        status[i] = OK

    def advance(
        S,
        M,
        actions,
        active,
        params,
        tm_cell,
        tm_lut,
        inv,
        init,
        opening,
        rng,
        over,
        final,
        results,
    ):
        """Play each active game's (checked) action; a finished game is kept in
        ``final``/``results`` (``result`` for its side to move) and starts again from
        ``init`` after ``opening`` random moves."""
        cells = S.shape[1]
        for i in prange(S.shape[0] // 2):
            over[i] = False
            if not active[i]:
                continue
            p = _mover(S, 2 * i, tm_cell, tm_lut)
            code = apply_move(S, 2 * i, inv[p, actions[i]], params)
            for c in range(cells):
                S[2 * i, c] = S[2 * i + 1, c]
            if code != OVER:
                continue
            over[i] = True
            results[i] = result(S, 2 * i, params)
            for c in range(cells):
                final[i, c] = S[2 * i, c]
                S[2 * i, c] = init[c]
            for _ in range(opening):
                n = gen_moves(S, 2 * i, params, M)
                if n == 0:
                    break
                j = next_random(rng, i) % np.uint64(n)
                if apply_move(S, 2 * i, M[2 * i, j], params) == OVER:
                    break
                for c in range(cells):
                    S[2 * i, c] = S[2 * i + 1, c]

    def observe(
        S,
        M,
        params,
        tm_cell,
        tm_lut,
        players,
        obs_src,
        obs_lut,
        keys,
        vals,
        nkeys,
        obs,
        mask,
        movers,
        status,
    ):
        """Each game's observation for ``players[i]`` (-1: its side to move), the legal
        action mask of its side to move and that side."""
        size = obs_src.shape[1]
        n_values = obs_lut.shape[2]
        for i in prange(S.shape[0] // 2):
            status[i] = OK
            p = _mover(S, 2 * i, tm_cell, tm_lut)
            movers[i] = p
            if p < 0:
                status[i] = UNKNOWN
                continue
            q = p if players[i] < 0 else players[i]
            for j in range(size):
                x = S[2 * i, obs_src[q, j]]
                y = obs_lut[q, j, x] if 0 <= x < n_values else -1
                if y < 0:
                    status[i] = UNKNOWN
                obs[i, j] = y
            for a in range(mask.shape[1]):
                mask[i, a] = 0
            n = gen_moves(S, 2 * i, params, M)
            top = nkeys[p]
            for t in range(n):
                mv = M[2 * i, t]
                lo = 0
                hi = top
                while lo < hi:
                    mid = (lo + hi) // 2
                    if keys[p, mid] < mv:
                        lo = mid + 1
                    else:
                        hi = mid
                if lo < top and keys[p, lo] == mv:
                    mask[i, vals[p, lo]] = 1
                else:
                    status[i] = UNKNOWN

    def playout(S, M, params, rng, limit, results, lengths):
        """Random moves from each ``S[2i]`` to the end (at most ``limit``): the final
        ``result`` (NOT_OVER if cut) and the moves played; ``S[2i]`` is the end."""
        cells = S.shape[1]
        for i in prange(S.shape[0] // 2):
            results[i] = result(S, 2 * i, params)
            lengths[i] = 0
            while results[i] == NOT_OVER and lengths[i] < limit:
                n = gen_moves(S, 2 * i, params, M)
                if n == 0:
                    break
                j = next_random(rng, i) % np.uint64(n)
                code = apply_move(S, 2 * i, M[2 * i, j], params)
                for c in range(cells):
                    S[2 * i, c] = S[2 * i + 1, c]
                lengths[i] += 1
                if code == OVER:
                    results[i] = result(S, 2 * i, params)

    built = BatchKernels(*(_jit(f, k.tag, parallel) for f in (check, advance, observe, playout)))
    _BUILT[key] = built
    return built
