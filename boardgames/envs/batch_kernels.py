"""The batched environment's numba kernels, built per game over its rule kernels.

Every kernel loops over the games of a batch (``prange``: serial or ``parallel``, the
same answers either way: nothing is shared between games, and each game draws from its
own generator). ``S`` is ``(2n, cells)``: row ``2i`` game ``i``'s position, row ``2i + 1``
where ``apply_move`` writes the child (the rule kernels' ``ply`` is ``2i``: no array view
is made per game, which under ``parallel`` would contend for one reference count);
``M`` is ``(2n, max_moves)``, ``gen_moves``' buffer (row ``2i``).

The codec tables are :class:`boardgames.envs.layout.Layout`'s, handed over as one tuple
``T`` (:meth:`~boardgames.envs.layout.Layout.tables`): ``tm_cell``, ``tm_lut``,
``obs_src``, ``obs_lut`` (in the observation's dtype), ``keys``, ``vals``, ``nkeys``,
``act`` (a move's action id by the move, for small moves: no search), ``inv``, and
``rd_start``/``rd_idx`` (the observation cells that read each state cell). ``status``
per game: :data:`OK`, else bits :data:`UNKNOWN` (a table entry not seen yet in the
position returned: the caller asks the Python codec and observes again) and
:data:`FINAL_UNKNOWN` (the same in the finished position).

:func:`build`'s ``step`` is one whole step of the batch in one call: the actions checked
against the legal masks of the positions (nothing moves when one is illegal), played,
finished games scored, kept (their last position and observation) and restarted, every
game observed (observation, legal mask, side to move). Nothing is allocated: the caller
hands every array in. The serial kernels run without numba's reference counting (as
core/kernels.py does: an incref/decref pair per inlined rule call otherwise).

Compiled once per game (closures over the rule functions, cached on disk under the rule
kernels' tag, as core/kernels.py does); sizes, rules and options are data.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit, prange

from boardgames.core.bits import popcount
from boardgames.core.kernels import NOT_OVER, OVER, GameCache, GameKernels, kernel_tag

OK, UNKNOWN, FINAL_UNKNOWN = 0, 1, 2
NO_MOVE = -(1 << 62)


class BatchKernels(NamedTuple):
    """The compiled kernels of one game (serial or parallel)."""

    step: Any
    advance: Any
    observe: Any
    playout: Any
    random_actions: Any


def _jit(func: Any, tag: str, parallel: bool) -> Any:
    if parallel:
        dispatcher = njit(func, parallel=True, nogil=True)
    else:  # no reference counting: the kernels allocate nothing (module docstring)
        dispatcher = njit(func, nogil=True, _nrt=False)  # type: ignore[call-overload]
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


_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_BIT_AT = np.zeros(64, dtype=np.int64)
for _k in range(64):
    _BIT_AT[((_DEBRUIJN.item() << _k) & (2**64 - 1)) >> 58] = _k


@njit(cache=True, inline="always")
def _lowest_bit(d):
    """The index of the lowest set bit of ``d`` (a uint64, not 0): de Bruijn."""
    return _BIT_AT[((d & (~d + np.uint64(1))) * _DEBRUIJN) >> np.uint64(58)]


@njit(cache=True, inline="always")
def _below_cell(k, bits):
    """The bits of the first ``k`` cells of a word of ``bits``-bit cells (all of them
    from ``64 // bits`` on, none below 1)."""
    if k <= 0:
        return np.uint64(0)
    if k * bits >= 64:
        return np.uint64(0xFFFFFFFFFFFFFFFF)
    return (np.uint64(1) << np.uint64(k * bits)) - np.uint64(1)


@njit(cache=True, inline="always")
def _see(S, r, c, i, views, rd_start, rd_idx, obs_lut):
    """Game ``i``'s views of the observation cells that read state cell ``c`` (now
    ``S[r, c]``), by either player; False if an entry is unseen."""
    x = S[r, c]
    n_values = obs_lut.shape[2]
    good = True
    for q in range(2):
        for t in range(rd_start[q, c], rd_start[q, c + 1]):
            j = rd_idx[q, t]
            y = obs_lut[q, j, x] if 0 <= x < n_values else -1
            if y < 0:
                good = False
            views[i, q, j] = y
    return good


@njit(cache=True, inline="always")
def _below(rng, i, count):
    """A uniformly random integer in ``[0, count)`` from game ``i``'s generator
    (Lemire's multiply-and-shift on the word's top 32 bits, exact by rejection, which
    is rare: no division on the common path)."""
    c = np.uint64(count)
    m = (next_random(rng, i) >> np.uint64(32)) * c
    low = m & np.uint64(0xFFFFFFFF)
    if low < c:
        floor = (np.uint64(1 << 32) - c) % c
        while low < floor:
            m = (next_random(rng, i) >> np.uint64(32)) * c
            low = m & np.uint64(0xFFFFFFFF)
    return np.int64(m >> np.uint64(32))


@njit(cache=True, inline="always")
def _draw(legal, rng, i):
    """A uniformly random legal action id of game ``i`` (``legal[i]`` its mask; -1 if
    none), from the game's own generator. Up to 64 action ids the row is read into one
    word and the chosen set bit found without a branch per action."""
    n_actions = legal.shape[1]
    if n_actions <= 64:
        bits = np.uint64(0)
        for a in range(n_actions):
            bits |= np.uint64(legal[i, a] != 0) << np.uint64(a)
        if bits == 0:
            return -1
        k = _below(rng, i, popcount(bits))
        for _ in range(k):  # drop the k lowest legal ids
            bits &= bits - np.uint64(1)
        return _lowest_bit(bits)
    count = 0
    for a in range(n_actions):
        count += legal[i, a] != 0
    if count == 0:
        return -1
    k = _below(rng, i, count)
    for a in range(n_actions):
        if legal[i, a] != 0:
            if k == 0:
                return a
            k -= 1
    return -1


@njit(cache=True, inline="always")
def _mover(S, r, tm_cell, tm_lut):
    v = S[r, tm_cell]
    if v < 0 or v >= tm_lut.shape[0]:
        return -1
    return tm_lut[v]


@njit(cache=True, inline="always")
def _view(S, r, q, obs_src, obs_lut, views, i):
    """``views[i, q]``: position ``S[r]`` seen by player ``q``; False if an entry is
    unseen."""
    size = obs_src.shape[1]
    n_values = obs_lut.shape[2]
    low = 0
    for j in range(size):
        x = S[r, obs_src[q, j]]
        y = obs_lut[q, j, x] if 0 <= x < n_values else -1
        views[i, q, j] = y
        low = min(low, y)
    return low >= 0


@njit(cache=True, inline="always")
def _action(p, mv, keys, vals, nkeys, act):
    """The action id of player ``p``'s move ``mv`` (-1: not seen yet)."""
    if 0 <= mv < act.shape[1]:
        return act[p, mv]
    lo = 0
    top = nkeys[p]
    hi = top
    while lo < hi:
        mid = (lo + hi) // 2
        if keys[p, mid] < mv:
            lo = mid + 1
        else:
            hi = mid
    if lo < top and keys[p, lo] == mv:
        return vals[p, lo]
    return -1


_BUILT: dict[tuple[str, bool], BatchKernels] = {}


def build(k: GameKernels, parallel: bool) -> BatchKernels:
    """The batch kernels over game kernels ``k`` (memoised per tag)."""
    key = (k.tag, parallel)
    if key in _BUILT:
        return _BUILT[key]
    gen_moves, apply_move, result = k.gen_moves, k.apply_move, k.result

    def _legal(S, r, M, p, params, keys, vals, nkeys, act, mask, i):
        """``mask[i]``: the legal action ids of ``S[r]`` (its mover ``p``); False if an
        entry is unseen. Up to 64 action ids the row is gathered in one word first.
        (The tables come as arrays, taken out of ``T`` before the loop over the games:
        under ``parallel`` each take in the loop would count a reference, and every
        thread would contend for the same count.)"""
        n_actions = mask.shape[1]
        n = gen_moves(S, r, params, M)
        good = True
        if n_actions <= 64:
            bits = np.uint64(0)
            for t in range(n):
                a = _action(p, M[r, t], keys, vals, nkeys, act)
                if a < 0:
                    good = False
                else:
                    bits |= np.uint64(1) << np.uint64(a)
            for a in range(n_actions):
                mask[i, a] = np.int8((bits >> np.uint64(a)) & np.uint64(1))
            return good
        for a in range(n_actions):
            mask[i, a] = 0
        for t in range(n):
            a = _action(p, M[r, t], keys, vals, nkeys, act)
            if a < 0:
                good = False
            else:
                mask[i, a] = 1
        return good

    legal_of = njit(inline="always")(_legal)

    def step(
        S, W, M, actions, active, players, params, T, setting, moves, legal, views, out, final,
        rng, draw,
    ):  # fmt: skip
        """One step of every game (module docstring); the first active game whose
        action is illegal (then nothing moved), else -1.

        ``setting``: restart (1: a finished game starts again from ``init``), max_moves
        (0: no limit), margin rewards (1: the margin, 0: its sign); ``moves`` each
        game's moves since its start; ``legal`` the legal masks of the positions (read to
        check the actions, then those of the new positions); ``W`` the positions as
        8-byte words (the same memory: rows padded to whole words); ``views`` ``(n, 2, J)``
        each position seen by either player, kept up to date cell by cell (only the
        observation cells that read a state cell the move changed are looked up again);
        ``out``: obs, mask, movers, rewards, margin, over, trunc, status; ``final``:
        init and its two views, the finished games' last positions (in the positions'
        dtype) and observations (every row written: zero where the game goes on; a row
        with :data:`FINAL_UNKNOWN` is the caller's to fill), and ``summary`` (games
        ended, games with a status). ``draw``: the actions are not given but drawn, as
        ``random_actions`` draws them from ``rng``, into ``actions``."""
        tm_cell, tm_lut, obs_lut, inv = T[0], T[1], T[3], T[8]
        keys, vals, nkeys, act = T[4], T[5], T[6], T[7]
        rd_start, rd_idx = T[9], T[10]
        obs, mask, movers, rewards, margin, over, trunc, status = out
        init, init_views, fstates, fobs, summary = final
        n = S.shape[0] // 2
        width = S.shape[1]
        cells = fstates.shape[1]
        words = W.shape[1]
        per = width // words
        read = rd_start.shape[1] - 1
        size = views.shape[2]
        n_actions = legal.shape[1]
        bad = n  # the first game refused (a min reduction: every game checked at once)
        for i in prange(n):
            if active[i]:
                if draw:  # drawn below: a game with no legal action is the one refused
                    a = -1
                    for b in range(n_actions):
                        if legal[i, b] != 0:
                            a = b
                            break
                    if a < 0:
                        actions[i] = -1
                else:
                    a = actions[i]
                if a < 0 or a >= n_actions or legal[i, a] == 0:
                    bad = min(bad, i)
        if bad < n:
            return bad
        restart, max_moves, by_margin = setting[0], setting[1], setting[2]
        fstates[:] = 0  # the rows of the games that go on are zero (one fill each)
        fobs[:] = 0
        for i in prange(n):
            r = 2 * i
            st = OK
            over[i] = False
            trunc[i] = False
            margin[i] = 0
            rewards[i, 0] = 0.0
            rewards[i, 1] = 0.0
            ended = False
            if active[i]:
                if draw:  # each game from its own generator, as random_actions draws
                    actions[i] = _draw(legal, rng, i)
                p = _mover(S, r, tm_cell, tm_lut)
                code = apply_move(S, r, inv[p, actions[i]], params)
                for w in range(words):  # the cells the move changed, a word at a time
                    if per == 8:  # one-byte cells, few changed: by their lowest set bits
                        d = W[r + 1, w] ^ W[r, w]
                        if d == 0:
                            continue
                        W[r, w] = W[r + 1, w]
                        d &= _below_cell(read - w * 8, 8)  # the cells observed
                        while d != 0:
                            off = _lowest_bit(d) >> 3  # a byte's bits (no division)
                            d &= ~(np.uint64(0xFF) << np.uint64(off << 3))
                            c = w * 8 + off
                            if not _see(S, r, c, i, views, rd_start, rd_idx, obs_lut):
                                st |= UNKNOWN
                    else:  # wider cells (a sowing changes most of a word): in turn
                        if W[r + 1, w] == W[r, w]:
                            continue
                        for c in range(w * per, w * per + per):
                            x = S[r + 1, c]
                            if x == S[r, c]:
                                continue
                            S[r, c] = x
                            if c < read and not _see(S, r, c, i, views, rd_start, rd_idx, obs_lut):
                                st |= UNKNOWN
                moves[i] += 1
                if code == OVER:
                    over[i] = True
                    ended = True
                    res = result(S, r, params)
                    q = _mover(S, r, tm_cell, tm_lut)
                    if q < 0:
                        st |= FINAL_UNKNOWN
                    else:
                        m = res if q == 0 else -res
                        margin[i] = m
                        v = float(m) if by_margin or m == 0 else float((m > 0) - (m < 0))
                        rewards[i, 0] = v
                        rewards[i, 1] = -v
                elif max_moves > 0 and moves[i] >= max_moves:
                    trunc[i] = True
                    ended = True
                if ended:
                    for c in range(cells):
                        fstates[i, c] = S[r, c]
                    q = players[i]
                    if q < 0:
                        q = _mover(S, r, tm_cell, tm_lut)
                    if q < 0 or st & UNKNOWN:
                        st |= FINAL_UNKNOWN
                    else:
                        for j in range(size):
                            fobs[i, j] = views[i, q, j]
                    if restart:
                        st &= ~UNKNOWN
                        for c in range(width):
                            S[r, c] = init[c]
                        for q in range(2):
                            for j in range(size):
                                views[i, q, j] = init_views[q, j]
                    moves[i] = 0
            side = _mover(S, r, tm_cell, tm_lut)
            movers[i] = side
            if side < 0:
                st |= UNKNOWN
            else:
                q = side if players[i] < 0 else players[i]
                for j in range(size):
                    obs[i, j] = views[i, q, j]
                if not legal_of(S, r, M, side, params, keys, vals, nkeys, act, legal, i):
                    st |= UNKNOWN
            status[i] = st
            for b in range(n_actions):  # a copy: the masks returned; ``legal`` is the kernels'
                mask[i, b] = legal[i, b]
        # counted in a loop of their own: as reductions in the loop above, numba's parallel
        # kernel (numba 0.68) returned the side that was to move before the move, for every game
        # (tests/envs/test_batch.py: serial == parallel)
        ended_count = 0
        unknown = 0
        for i in range(n):
            if over[i] or trunc[i]:
                ended_count += 1
            if status[i] != OK:
                unknown += 1
        summary[0] = ended_count
        summary[1] = unknown
        return -1

    def advance(S, M, actions, active, params, T, over, final, results):
        """Play each active game's (checked) action; a finished game is copied into
        ``final`` (``results``: ``result`` for its side to move) and left as it is."""
        tm_cell, tm_lut, inv = T[0], T[1], T[8]
        cells = S.shape[1]
        kept = final.shape[1]  # the position's cells: the rows of ``S`` may be padded
        for i in prange(S.shape[0] // 2):
            over[i] = False
            if not active[i]:
                continue
            p = _mover(S, 2 * i, tm_cell, tm_lut)
            code = apply_move(S, 2 * i, inv[p, actions[i]], params)
            for c in range(cells):
                S[2 * i, c] = S[2 * i + 1, c]
            if code == OVER:
                over[i] = True
                results[i] = result(S, 2 * i, params)
                for c in range(kept):
                    final[i, c] = S[2 * i, c]

    def observe(S, M, params, T, players, views, obs, mask, movers, status):
        """Each game's ``views`` (seen by either player), its observation for
        ``players[i]`` (-1: its side to move), the legal action mask of its side to move
        and that side."""
        tm_cell, tm_lut, obs_src, obs_lut = T[0], T[1], T[2], T[3]
        keys, vals, nkeys, act = T[4], T[5], T[6], T[7]
        size = views.shape[2]
        for i in prange(S.shape[0] // 2):
            r = 2 * i
            st = OK
            for q in range(2):
                if not _view(S, r, q, obs_src, obs_lut, views, i):
                    st = UNKNOWN
            p = _mover(S, r, tm_cell, tm_lut)
            movers[i] = p
            if p < 0:
                st = UNKNOWN
            else:
                q = p if players[i] < 0 else players[i]
                for j in range(size):
                    obs[i, j] = views[i, q, j]
                if not legal_of(S, r, M, p, params, keys, vals, nkeys, act, mask, i):
                    st = UNKNOWN
            status[i] = st

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
                j = _below(rng, i, n)  # uniform (a remainder would favour the low moves)
                code = apply_move(S, 2 * i, M[2 * i, j], params)
                for c in range(cells):
                    S[2 * i, c] = S[2 * i + 1, c]
                lengths[i] += 1
                if code == OVER:
                    results[i] = result(S, 2 * i, params)

    def random_actions(legal, rng, out):
        """A uniformly random legal action id of each game (``legal`` its mask; -1 if
        none), from the game's own generator (:func:`_draw`)."""
        for i in prange(legal.shape[0]):
            out[i] = _draw(legal, rng, i)

    built = BatchKernels(
        *(_jit(f, k.tag, parallel) for f in (step, advance, observe, playout, random_actions))
    )
    _BUILT[key] = built
    return built
