"""Kalah's jitted rule functions for the generic search kernels (core/kernels.py).

Written from RULES.md 1-2 and checked move by move against the Python rules
(rules.py / game.py) in tests/kalah/test_kernels.py. The state is the protocol state of
:class:`~boardgames.kalah.game.Kalah` (int64, ``2m + 3`` cells: the board in RULES.md
numbering, then the side to move). The search keeps a stack ``states[ply]`` of such rows;
:func:`apply_move` writes the child into ``states[ply + 1]`` (copy-make, no unmake).

``params`` (int64 array, see :func:`make_params`): ``[m, rules, evaluation, total,
empty_capture]`` with rules 0 = classic, 1 = etudes; evaluation 0 = store, 1 = rechenberg,
2 = tseitin; total = the stones on the board (conserved by every move); empty_capture 1 for
the classic variant where a last stone in an own empty pit is captured even when the pit
opposite is empty (game.py).

One implementation of the rules, two ways to call it. The private functions (``_apply``,
``_gen_moves``, ``_result``, ``_evaluate``, ``_priority``) take the settings as scalars.
The public ``apply_move`` etc. read them from ``params`` (the solver and the endgame tables
call those), and so does the engine's generic search family (:func:`kernels`, one compiled
engine for every board). :func:`specialised_kernels` wraps the same functions in closures
whose settings are integer free variables, which numba compiles as constants: LLVM then
unrolls the pit loops, and plain alpha-beta runs about 1.4x faster. The engine uses them
for plain alpha-beta only: the larger recursive search kernel measured 20-25% slower with
them (docs/sections/engine.md).

``apply_move`` expects a legal move (the position is not over and the pit is the mover's
and not empty), as every caller gives it.

Etudes relays: rules.py remembers the boards of a relay chain and stops on a repeat, and
shows that a repeat cannot happen (every relayed sowing passes the mover's store, which
never loses stones). This kernel relies on that bound and keeps no list of boards.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardgames.core.kernels import AGAIN, NOT_OVER, OVER, TURN_PASSES, GameKernels, kernel_tag
from boardgames.core.strategies import KernelSpec
from boardgames.kalah.game import MAX_STONES, Kalah

CLASSIC, ETUDES = 0, 1
RULE_CODES = {"classic": CLASSIC, "etudes": ETUDES}
EVAL_CODES = {"store": 0, "rechenberg": 1, "tseitin": 2}


def make_params(
    pits: int, rules: str, evaluation: str, total: int, empty_capture: bool = False
) -> np.ndarray:
    """The ``params`` array the kernels read."""
    return np.array(
        [pits, RULE_CODES[rules], EVAL_CODES[evaluation], total, int(empty_capture)],
        dtype=np.int64,
    )


@njit(cache=True, inline="always")
def _side_stones(states, c, m, player):
    first = 0 if player == 0 else m + 1
    s = 0
    for i in range(first, first + m):
        s += states[c, i]
    return s


@njit(cache=True, inline="always")
def _sow(states, c, m, pit, mover):
    """Sow ``pit`` in row ``c``; return (last index, stones dropped on the opponent's pits)."""
    n = 2 * m + 2
    skip = 2 * m + 1 if mover == 0 else m
    stones = states[c, pit]
    states[c, pit] = 0
    lap = 2 * m + 1
    into_opp = 0
    if stones >= lap:
        # Whole laps drop one stone in every hole but the opponent's store and end where
        # they started.
        k = stones // lap
        for i in range(n):
            if i != skip:
                states[c, i] += k
        stones -= k * lap
        into_opp = k * m
    i = pit
    opp_lo = m + 1 if mover == 0 else 0
    opp_hi = 2 * m if mover == 0 else m - 1
    while stones > 0:
        i += 1
        if i == n:
            i = 0
        if i == skip:
            continue
        states[c, i] += 1
        stones -= 1
        if opp_lo <= i <= opp_hi:
            into_opp += 1
    return i, into_opp


@njit(cache=True, inline="always")
def _sweep(states, c, m, player):
    first = 0 if player == 0 else m + 1
    store = m if player == 0 else 2 * m + 1
    for i in range(first, first + m):
        states[c, store] += states[c, i]
        states[c, i] = 0


@njit(cache=True, inline="always")
def _side_empty(states, c, m, player):
    first = 0 if player == 0 else m + 1
    for i in range(first, first + m):  # noqa: SIM110 (a plain loop is what numba runs fastest)
        if states[c, i] != 0:
            return False
    return True


@njit(cache=True, inline="always")
def _sow_classic(states, c, m, pit, mover):
    """Sow without counting (classic rules); return the index of the last stone."""
    stones = states[c, pit]
    states[c, pit] = 0
    lap = 2 * m + 1
    skip = 2 * m + 1 if mover == 0 else m
    if stones >= lap:
        k = stones // lap
        for i in range(2 * m + 2):
            if i != skip:
                states[c, i] += k
        stones -= k * lap
    # Walk the mover's cycle of 2m + 1 holes: A's cycle is indices 0..2m; B's is
    # m+1..2m+1 then 0..m-1 (cycle position q maps to q + m + 1, minus 2m + 2 past the end).
    if mover == 0:
        last = pit + stones
        if last <= 2 * m:
            for i in range(pit + 1, last + 1):
                states[c, i] += 1
            return last
        for i in range(pit + 1, 2 * m + 1):
            states[c, i] += 1
        last -= lap
        for i in range(0, last + 1):
            states[c, i] += 1
        return last
    last = pit + stones
    if last <= 2 * m + 1:
        for i in range(pit + 1, last + 1):
            states[c, i] += 1
        return last
    for i in range(pit + 1, 2 * m + 2):
        states[c, i] += 1
    last -= 2 * m + 2
    if last < m:
        for i in range(0, last + 1):
            states[c, i] += 1
        return last
    for i in range(0, m):
        states[c, i] += 1
    last += 1  # A's store skipped
    for i in range(m + 1, last + 1):
        states[c, i] += 1
    return last


@njit(cache=True, inline="always")
def _apply(states, ply, move, m, rules, empty_capture, total):
    """:func:`apply_move` with the settings as scalars (constants in specialised kernels)."""
    side = 2 * m + 2
    c = ply + 1
    for i in range(side + 1):
        states[c, i] = states[ply, i]
    mover = states[c, side]
    store = m if mover == 0 else 2 * m + 1
    if rules == CLASSIC:
        last = _sow_classic(states, c, m, move, mover)
        again = last == store
        if not again:
            # capture without data-dependent branches (facing is a pit: last is no store)
            own_pit = (last < m) if mover == 0 else (last > m)
            facing = 2 * m - last
            f = states[c, facing]
            take = own_pit & (states[c, last] == 1) & ((f > 0) | (empty_capture != 0))
            gain = f + 1 if take else 0
            states[c, store] += gain
            states[c, facing] = 0 if take else f
            states[c, last] -= 1 if take else 0
        if _side_empty(states, c, m, 0) or _side_empty(states, c, m, 1):
            _sweep(states, c, m, 0)
            _sweep(states, c, m, 1)
            states[c, side] = 1 - mover
            return OVER
        if again:
            return AGAIN
        states[c, side] = 1 - mover
        return TURN_PASSES
    # Etudes: sow, capture backwards, stop at more than half, relay from a non-empty own pit.
    lo = m + 1 if mover == 0 else 0
    hi = 2 * m if mover == 0 else m - 1
    pit = move
    while True:
        last, into_opp = _sow(states, c, m, pit, mover)
        if lo <= last <= hi and (states[c, last] == 2 or states[c, last] == 3):
            i = last
            while lo <= i <= hi and (states[c, i] == 2 or states[c, i] == 3):
                states[c, store] += states[c, i]
                states[c, i] = 0
                i -= 1
        if 2 * states[c, m] > total or 2 * states[c, 2 * m + 1] > total:
            states[c, side] = 1 - mover
            return OVER
        own_pit = last < m if mover == 0 else (m < last < 2 * m + 1)
        if own_pit and states[c, last] > 1 and into_opp > 0:
            pit = last
            continue
        break
    states[c, side] = 1 - mover
    if _side_empty(states, c, m, 1 - mover):
        _sweep(states, c, m, mover)
        return OVER
    return TURN_PASSES


@njit(cache=True, inline="always")
def apply_move(states, ply, move, params):
    """Play the sowing ``move`` from ``states[ply]`` into ``states[ply + 1]``.

    Returns :data:`~boardgames.core.kernels.AGAIN` when the same player moves again
    (classic extra turn, game not over), :data:`~boardgames.core.kernels.OVER` when the
    move ended the game, else :data:`~boardgames.core.kernels.TURN_PASSES`."""
    return _apply(states, ply, move, params[0], params[1], params[4], params[3])


@njit(cache=True, inline="always")
def _gen_moves(states, ply, moves, m):
    first = 0 if states[ply, 2 * m + 2] == 0 else m + 1
    n = 0
    for i in range(first, first + m):  # branch-free: write every pit, keep the non-empty
        moves[ply, n] = i
        n += 1 if states[ply, i] > 0 else 0
    return n


@njit(cache=True, inline="always")
def gen_moves(states, ply, params, moves):
    """Write the mover's non-empty pits, ascending, into ``moves[ply]``; return how many."""
    return _gen_moves(states, ply, moves, params[0])


@njit(cache=True, inline="always")
def _result(states, ply, m, rules, total):
    mover = states[ply, 2 * m + 2]
    if rules == CLASSIC:
        if not _side_empty(states, ply, m, mover) and not _side_empty(states, ply, m, 1 - mover):
            return NOT_OVER
    else:
        half = 2 * states[ply, m] > total or 2 * states[ply, 2 * m + 1] > total
        if not half and not _side_empty(states, ply, m, mover):
            return NOT_OVER
    own = m if mover == 0 else 2 * m + 1
    opp = 2 * m + 1 if mover == 0 else m
    mine = _side_stones(states, ply, m, mover)
    theirs = _side_stones(states, ply, m, 1 - mover)
    if rules == CLASSIC:
        return states[ply, own] + mine - states[ply, opp] - theirs
    if 2 * states[ply, m] > total or 2 * states[ply, 2 * m + 1] > total:
        return states[ply, own] - states[ply, opp]
    return states[ply, own] - states[ply, opp] - theirs


@njit(cache=True, inline="always")
def result(states, ply, params):
    """Final margin for the side to move, or NOT_OVER (game.py ``outcome``)."""
    return _result(states, ply, params[0], params[1], params[3])


@njit(cache=True, inline="always")
def _activity(m, offset, stones):
    if stones <= 0:
        return 0
    r = stones % (2 * m + 1)
    own = min(r, m - 1 - offset)
    r -= own
    r -= min(r, 1)
    opp = min(r, m)
    r -= opp
    own += r
    return own - opp + m + 1


@njit(cache=True, inline="always")
def _side_activity(states, ply, m, player):
    first = 0 if player == 0 else m + 1
    d = 0
    for k in range(m):
        d += _activity(m, k, states[ply, first + k])
    return d


@njit(cache=True, inline="always")
def _evaluate(states, ply, m, kind, total):
    a = states[ply, 2 * m + 2]
    ka = states[ply, m] if a == 0 else states[ply, 2 * m + 1]
    kb = states[ply, 2 * m + 1] if a == 0 else states[ply, m]
    if kind == 0:
        return ka - kb
    da = _side_activity(states, ply, m, a)
    db = _side_activity(states, ply, m, 1 - a)
    if kind == 1:
        return ka * da - kb * db
    h = total // 2 + 1
    wa = float(ka) + 17.3 / max(float(h - ka), 0.5) - 40.0 / max(float(da), 0.5)
    wb = float(kb) + 17.3 / max(float(h - kb), 0.5) - 40.0 / max(float(db), 0.5)
    w = wa - wb
    return np.int64(np.floor(1000.0 * w + 0.5))


@njit(cache=True, inline="always")
def evaluate(states, ply, params):
    """The evaluation named by ``params[2]`` for the side to move, exactly as eval.py."""
    return _evaluate(states, ply, params[0], params[2], params[3])


@njit(cache=True, inline="always")
def _priority(states, ply, move, m, rules):
    mover = states[ply, 2 * m + 2]
    stones = states[ply, move]
    lap = 2 * m + 1
    # Position of a hole on the mover's cycle of 2m + 1 holes (the opponent's store
    # skipped), counted from the mover's first pit.
    pos = move if mover == 0 else move - (m + 1)
    end = (pos + stones) % lap
    if rules == CLASSIC:
        if end == m:
            return 1000
        if stones < lap and end < m:
            last = end if mover == 0 else end + m + 1
            if states[ply, last] == 0:
                facing = states[ply, 2 * m - last]
                if facing > 0:
                    return 10 * (facing + 1)
        return 0
    if stones < lap and end > m:
        last = end - m - 1 if mover == 1 else end
        v = states[ply, last]
        if v == 1 or v == 2:
            return 10 * (v + 1)
    return 0


@njit(cache=True, inline="always")
def priority(states, ply, move, params):
    """Move-ordering bonus (higher first): classic extra turns, then captures by size;
    Etudes captures. Only ordering depends on it, never a value."""
    return _priority(states, ply, move, params[0], params[1])


_TAG = kernel_tag(__file__)


def kernels() -> GameKernels:
    """Kalah's rule functions for :func:`boardgames.core.kernels.build_engine`, reading
    every setting from ``params`` (one engine for every board)."""
    return GameKernels(gen_moves, apply_move, result, evaluate, priority, "kalah-" + _TAG)


def specialised_kernels(
    pits: int, rules: str, evaluation: str, empty_capture: bool = False
) -> GameKernels:
    """The same rule functions with the board's settings built in as constants.

    numba freezes a closure's integer free variables into the compiled code, so LLVM sees
    the pits, rules, evaluation and capture variant as constants and unrolls the pit loops
    (only ``total`` is still read from ``params``). The tag names the settings, so different
    settings never share an engine or a cache entry; each setting compiles once per machine
    (about 7 s for plain alpha-beta), then loads from numba's cache."""
    m, r, kind, ec = pits, RULE_CODES[rules], EVAL_CODES[evaluation], int(empty_capture)

    @njit(inline="always")
    def gen_moves_(states, ply, params, moves):
        return _gen_moves(states, ply, moves, m)

    @njit(inline="always")
    def apply_move_(states, ply, move, params):
        return _apply(states, ply, move, m, r, ec, params[3])

    @njit(inline="always")
    def result_(states, ply, params):
        return _result(states, ply, m, r, params[3])

    @njit(inline="always")
    def evaluate_(states, ply, params):
        return _evaluate(states, ply, m, kind, params[3])

    @njit(inline="always")
    def priority_(states, ply, move, params):
        return _priority(states, ply, move, m, r)

    tag = f"kalah-{_TAG}-m{m}-r{r}-e{kind}-c{ec}"
    return GameKernels(gen_moves_, apply_move_, result_, evaluate_, priority_, tag)


SPECIALISED_BOARD = (6, "classic", False)
"""(pits, rules, empty capture) of the one board whose plain alpha-beta gets the
specialised kernels (about 1.4x faster there: benchmarks/engine_bench.py): the default
board. Every other board searches with the generic kernels, so a game's kernels compile
once for every board and rule set instead of once for each (the test suite touches
dozens). Even there, the specialised kernels are used only once a background warm-up
(``boardgames cache warm kalah``) compiled them; until then the generic ones search
(``NumbaSearcher.plain_engine``)."""


def kernel_spec(game: Kalah) -> KernelSpec:
    """What the numba engine needs to search ``game`` (core/strategies.py)."""
    m = game.pits

    def params(state: np.ndarray) -> np.ndarray:
        total = int(state[: 2 * m + 2].sum())
        return make_params(m, game.rules, game.evaluation, total, game.empty_capture)

    fast = (
        specialised_kernels(m, game.rules, game.evaluation, game.empty_capture)
        if (m, game.rules, game.empty_capture) == SPECIALISED_BOARD
        else None
    )
    return KernelSpec(kernels(), params, 2 * m + 3, m, MAX_STONES, fast)
