"""The conformance laws of a game, public: what the toolkit demands of every game plugin,
checked by one call.

    from boardgames.core.registry import make_game
    from boardgames.testing import check_game

    check_game(make_game("mygame"))            # raises ConformanceError on the first broken law

The laws, each a function of :data:`LAWS` (``check_game(game, laws=["rules"])`` runs some):

- ``hooks``: every optional hook the plugin names (``players``, ``cli``, ``web``, ...) imports
  and is of its kind, and every ``warm`` step names a function (none is run);
- ``rules``: a state is a flat int64 array; a finished game has no moves and an unfinished
  one some, all different; ``to_move`` is 0 or 1; evaluations stay heuristic; ``play``
  never changes its input; a move out of range is refused;
- ``notation``: ``parse_move(format_move(m)) == m``, positions round-trip, bad text is a
  one-line GameError;
- ``illegal``: a move legal somewhere but not here is refused by ``play`` and ``parse_move``
  with a one-line GameError;
- ``drawing``: the SVG parses; its ``data-move`` elements are exactly the legal moves, and
  each is the top-most element at its centre (a shape drawn over it lets clicks through:
  ``pointer-events="none"``), with the last move and marks drawn;
- ``codec``: action ids map legal moves one-to-one and back, the mask matches, and
  observations fit the declared shape and range;
- ``kernels``: the numba rule kernels equal the Python rules on random games (``result``,
  ``gen_moves`` in order, ``evaluate``, ``apply_move``'s code, the next state row), and
  numba alpha-beta equals the Python one (value, move, nodes);
- ``solver``: the declared solver's value is a search to the end of the game's (same final
  margin) on small late positions, and its move keeps that value;
- ``length``: no random game runs longer than the declared ``max_game_length``.

A law whose capability the game lacks passes at once. :func:`rule_setups` gives the option
sets that change a game's rules, so a test can run the laws over each (see
``tests/test_conformance.py`` and the example plugin's tests).
"""

from __future__ import annotations

import math
import random
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from boardgames.core.capabilities import (
    ActionCodec,
    Drawing,
    Mark,
    PositionNotation,
    SizedPositions,
    format_position,
    game_for_position,
    legal_mask,
    parse_position,
)
from boardgames.core.hooks import NAMED_WARM_STEPS
from boardgames.core.protocol import HEURISTIC_LIMIT, GameError, score_margin
from boardgames.core.registry import (
    HOOKS,
    GamePlugin,
    PluginError,
    UnknownGame,
    innermost,
    place,
    plugin_of,
    two_player,
)
from boardgames.core.search import SearchStopped, alphabeta, alphabeta_tt

__all__ = ["LAWS", "ConformanceError", "check_game", "check_picture", "rule_setups"]


class ConformanceError(AssertionError):
    """A game broke one of the laws: the message says which, and where."""


def _ok(condition: object, message: str) -> None:
    if not condition:
        raise ConformanceError(message)


def _offers(game: object, capability: type) -> bool:
    """Whether ``game`` offers a capability protocol (no narrowing: a game is Any)."""
    return isinstance(game, capability)


def _plugin(game: Any) -> GamePlugin | None:
    try:
        return plugin_of(game)
    except UnknownGame:
        return None


def random_games(
    game: Any, seed: int, games: int, longest: int = 2000
) -> list[tuple[Any, list[int]]]:
    """Every position of ``games`` seeded random games, with the moves that led to it."""
    rng = random.Random(seed)
    out: list[tuple[Any, list[int]]] = []
    for _ in range(games):
        state = game.initial_state()
        moves: list[int] = []
        out.append((state, []))
        for _ in range(longest):
            legal = game.legal_moves(state)
            if not legal:
                break
            move = rng.choice(legal)
            state, _ = _played(game, state, move, f"after moves {moves}")
            moves.append(move)
            out.append((state, list(moves)))
    return out


def _played(game: Any, state: Any, move: int, where: str) -> tuple[Any, Any]:
    """``game.play(state, move)``, checked to be a pair ``(state, again)``."""
    played = game.play(state, move)
    _ok(
        isinstance(played, tuple) and len(played) == 2,
        f"play({move}) returned {type(played).__name__}, not (state, again) {where}",
    )
    return played  # type: ignore[no-any-return]


def _refused(
    call: Callable[..., object],
    args: tuple[Any, ...],
    kinds: tuple[type[BaseException], ...],
    what: str,
) -> str:
    """The message of the error ``call(*args)`` raises (one of ``kinds``)."""
    try:
        call(*args)
    except kinds as e:
        return str(e)
    raise ConformanceError(f"{what} was accepted")


# --- the laws ---------------------------------------------------------------------------


def law_hooks(game: Any) -> None:
    """Every optional hook the game's plugin names imports and is of its kind (the typed
    method a command would call: ``players`` a GamePlayers, ``cli`` a click group, ...),
    and every ``warm`` step's path names a function; nothing is run."""
    spec = _plugin(game)
    if spec is None:
        return
    for name in HOOKS:
        if getattr(spec, name) is None:
            continue
        try:
            spec.typed_hook(name, game)
        except PluginError as e:
            raise ConformanceError(str(e)) from None
    for label, path in spec.warm:
        if path in NAMED_WARM_STEPS:
            continue
        try:
            step = spec.load(path, "warm step")
        except PluginError as e:
            raise ConformanceError(str(e)) from None
        _ok(callable(step), f"its warm step {label!r} ({path}) is not a function")


def law_rules(game: Any, seed: int = 1) -> None:
    """Rules: states, moves, outcome, side to move, evaluations, ``play`` pure."""
    for state, moves in random_games(game, seed, 12):
        where = f"after moves {moves}"
        _ok(
            isinstance(state, np.ndarray) and state.dtype == np.int64 and state.ndim == 1,
            f"a state is not a flat int64 array {where}",
        )
        legal = game.legal_moves(state)
        over = game.outcome(state)
        _ok((over is None) == bool(legal), f"a finished game has no moves, else some: {where}")
        _ok(game.to_move(state) in (0, 1), f"to_move is not 0 or 1 {where}")
        if over is not None:
            continue
        _ok(len(set(legal)) == len(legal), f"legal_moves repeats a move {where}")
        _ok(
            abs(game.evaluate(state)) < HEURISTIC_LIMIT, f"evaluate leaves ±HEURISTIC_LIMIT {where}"
        )
        before = state.copy()
        for move in legal:
            child, again = _played(game, state, move, where)
            _ok(np.array_equal(state, before), f"play({move}) changed its input {where}")
            _ok(isinstance(again, bool | np.bool_), f"play({move}) 'again' is not a bool {where}")
            _ok(
                isinstance(child, np.ndarray) and child.shape == state.shape,
                f"play({move}) changed the state's type or shape {where}",
            )
        illegal = next(m for m in range(-1, 10**6) if m not in legal)
        _refused(
            game.play,
            (state, illegal),
            (GameError, ValueError, IndexError),
            f"play of the illegal move {illegal} {where}",
        )


def law_notation(game: Any, seed: int = 2) -> None:
    """Notation: moves and positions round-trip; bad text is one line."""
    for state, moves in random_games(game, seed, 4):
        for move in game.legal_moves(state):
            text = game.format_move(move)
            back = game.parse_move(text, state)
            _ok(back == move, f"parse_move(format_move({move}) = {text!r}) gave {back}")
        text = format_position(game, state, moves)
        back = parse_position(game, text)
        if isinstance(game, PositionNotation):
            _ok(game.format_position(back) == text, f"position {text!r} does not round-trip")
        else:
            _ok(np.array_equal(back, state), f"the moves {text!r} do not lead back to the state")
        if isinstance(game, SizedPositions):
            implied = game.position_options(text)
            _ok(
                implied == {},
                f"position_options({text!r}) gives {implied!r} for a position of this very "
                "game: it must give {} (only a position of another size implies options)",
            )
    spec = _plugin(game)
    if spec is not None and isinstance(game, SizedPositions):
        _sized_positions_law(game, spec)
    if spec is not None and any(spec.examples):
        default = spec.make()  # the positions --help shows are of the default options
        for text in filter(None, spec.examples):
            try:
                parse_position(default, text)
            except GameError as e:
                raise ConformanceError(f"the plugin's example {text!r} is refused: {e}") from None
    start = game.initial_state()
    for text in ("", "xyz", "99999999999999999999", "٣", "-1", "1.5", "1\n2"):
        try:
            move = game.parse_move(text, start)
        except GameError as e:
            _ok(str(e) and "\n" not in str(e), f"parse_move({text!r}): not one line: {e!r}")
        else:
            _ok(move in game.legal_moves(start), f"parse_move({text!r}) gave illegal {move}")


def _sized_positions_law(game: Any, spec: GamePlugin) -> None:
    """``position_options`` on positions of the game's other option sets (each whole-number
    option at its lowest and highest): only option names, values the options allow, and a
    game made with them reads the text as that position."""
    names = {o.name for o in spec.options}
    boards: list[dict[str, Any]] = []
    for o in spec.options:
        if o.kind == "int" and o.low is not None and o.high is not None:
            boards += [{o.name: o.low}, {o.name: min(o.high, o.low + 3)}]
        elif o.kind == "ints" and o.low is not None:
            boards.append({o.name: (o.low, o.low + 1)})
    for values in boards:
        try:
            other = spec.make(**values)
        except (GameError, ValueError):
            continue
        text = format_position(other, other.initial_state())
        if not text:
            continue
        implied = game.position_options(text)
        _ok(isinstance(implied, dict), f"position_options({text!r}) is not a dict: {implied!r}")
        unknown = set(implied) - names
        _ok(not unknown, f"position_options({text!r}) names no option: {sorted(unknown)}")
        try:
            sized = game_for_position(spec, game, text)
        except (GameError, ValueError) as e:
            raise ConformanceError(
                f"position_options({text!r}) gives {implied!r}, which the options refuse: {e}"
            ) from None
        back = parse_position(sized, text)
        _ok(
            format_position(sized, back) == text,
            f"the game position_options({text!r}) sets does not read it back",
        )


def law_illegal(game: Any, seed: int = 7) -> None:
    """A move legal somewhere in the game but not here is refused, one line each."""
    positions = random_games(game, seed, 6)
    seen = {m for state, _ in positions for m in game.legal_moves(state)}
    for state, moves in positions[::2]:
        if game.outcome(state) is not None:
            continue
        for move in sorted(seen - set(game.legal_moves(state)))[:4]:
            where = f"move {move} after {moves}"
            played = _refused(game.play, (state, move), (GameError,), f"play of {where}")
            parsed = _refused(
                lambda m, st: game.parse_move(game.format_move(m), st),
                (move, state),
                (GameError,),
                f"parse_move of {where}",
            )
            _ok("\n" not in played + parsed, f"the refusal of {where} is not one line")


def law_drawing(game: Any, seed: int = 3) -> None:
    """The SVG's clickable elements are the legal moves and receive a click at their
    centre; the last move and marks are drawn (see :func:`check_picture`)."""
    if not _offers(game, Drawing):
        return
    for state, moves in random_games(game, seed, 3)[::3]:
        check_picture(game, state, str(game.svg(state)))
        legal = game.legal_moves(state)
        if moves and legal:
            marks = [Mark(legal[0], "best"), Mark(legal[-1], "hint")]
            picture = str(game.svg(state, last=moves[-1], marks=marks, heading="a <b> & c"))
            check_picture(game, state, picture)


def law_codec(game: Any, seed: int = 4) -> None:
    """Action ids: one-to-one onto the legal moves, masks, observations in range."""
    if not _offers(game, ActionCodec):
        return
    for state, moves in random_games(game, seed, 4):
        where = f"after moves {moves}"
        legal = game.legal_moves(state)
        actions = [game.action_of(state, m) for m in legal]
        _ok(len(set(actions)) == len(actions), f"two moves share an action id {where}")
        _ok(all(0 <= a < game.num_actions for a in actions), f"an action id out of range {where}")
        back = [game.move_of(state, a) for a in actions]
        _ok(back == legal, f"move_of(action_of(m)) != m {where}")
        mask = legal_mask(game, state)
        _ok(int(mask.sum()) == len(legal), f"the mask does not count the legal moves {where}")
        for a in range(game.num_actions):
            if not mask[a]:
                _ok(game.move_of(state, a) is None, f"move_of({a}) is not None {where}")
        for player in (0, 1):
            obs = game.observation(state, player)
            _ok(obs.shape == tuple(game.observation_shape), f"observation shape {where}")
            _ok(obs.min() >= 0 and obs.max() <= game.observation_high, f"observation range {where}")


def law_kernels(game: Any, seed: int = 5) -> None:
    """The numba rule kernels equal the Python rules; numba alpha-beta the Python one."""
    spec_of = _plugin(game)
    if spec_of is None or spec_of.kernels is None:
        return
    from boardgames.core.kernels import AGAIN, NOT_OVER, OVER  # numba: only for kernels
    from boardgames.core.strategies import kernel_spec, numba_searcher

    spec = kernel_spec(game)
    k = spec.kernels
    stack = np.zeros((2, spec.cells), dtype=np.int64)
    buffer = np.zeros((2, spec.max_moves), dtype=np.int64)
    for state, moves in random_games(game, seed, 6):
        where = f"after moves {moves}"
        params = spec.params(state)
        stack[0, : len(state)] = state
        r = k.result(stack, 0, params)
        _ok((None if r == NOT_OVER else r) == game.outcome(state), f"result != outcome {where}")
        if r != NOT_OVER:
            continue
        n = k.gen_moves(stack, 0, params, buffer)
        _ok(list(buffer[0, :n]) == game.legal_moves(state), f"gen_moves != legal_moves {where}")
        _ok(k.evaluate(stack, 0, params) == game.evaluate(state), f"evaluate differs {where}")
        for move in game.legal_moves(state):
            child, again = game.play(state, move)
            code = k.apply_move(stack, 0, move, params)
            over = game.outcome(child) is not None
            _ok((code == AGAIN) == bool(again) and (code == OVER) == (over and not again),
                f"apply_move({move}) returned {code}: it must be OVER exactly when the game "
                f"ends, AGAIN when the same player moves again {where}")  # fmt: skip
            _ok(list(stack[1, : len(child)]) == list(child), f"apply_move({move}) row {where}")
    searcher = numba_searcher(game)
    positions = [s for s, _ in random_games(game, seed + 1, 3) if game.outcome(s) is None]
    for state in positions[:: max(1, len(positions) // 6)]:
        python = alphabeta(game, state, 3)
        numba = searcher.run("alphabeta", state, 3)
        _ok(
            (numba.value, numba.best_move, numba.nodes)
            == (python.value, python.best_move, python.nodes),
            f"numba alpha-beta {numba.value, numba.best_move, numba.nodes} differs from "
            f"python's {python.value, python.best_move, python.nodes}",
        )


def law_solver(game: Any, seed: int = 40) -> None:
    """The solver's value is a search to the end's; its move keeps that value. Run it on
    a small board: the plain search goes to the end of the game."""
    spec_of = _plugin(game)
    solve = None if spec_of is None else spec_of.exact_solver()
    if solve is None:
        return
    late: list[Any] = []
    for i in range(6):
        line = [s for s, _ in random_games(game, seed + i, 1)]
        late += [s for s in line[-9:-1] if game.outcome(s) is None][:2]
    for state in late:
        searched = _search_to_the_end(game, state)
        if searched is None:
            continue  # too big for a plain search: a smaller board checks it
        try:
            solved = solve(game, state)
        except SearchStopped:  # the solver declined (its kernels not compiled yet)
            continue
        _ok(solved.exact, "the solver's value is not exact")
        margin = score_margin(searched)
        _ok(score_margin(solved.value) == margin, f"solver {solved.value} != search {searched}")
        child, again = game.play(state, solved.best_move)
        after = None if game.outcome(child) is not None else _search_to_the_end(game, child)
        if after is not None:
            _ok(score_margin(after if again else -after) == margin, "the solver's move loses value")


SEARCH_BUDGET = 100
"""Times a plain search to the end may ask whether to stop (every 256 positions) before
the solver law skips that position as too big."""


def _search_to_the_end(game: Any, state: Any) -> int | None:
    """The value of a plain search to the end of the game, None if it is too big."""
    asked = [0]

    def enough() -> bool:
        asked[0] += 1
        return asked[0] > SEARCH_BUDGET

    try:
        return int(alphabeta_tt(game, state, None, stop=enough).value)
    except SearchStopped:
        return None


def law_length(game: Any, seed: int = 8) -> None:
    """No random game is longer than the plugin's ``max_game_length`` (where declared)."""
    spec_of = _plugin(game)
    bound = None if spec_of is None else max_game_length(spec_of, game)
    if bound is None:
        return
    rng = random.Random(seed)
    for _ in range(20):
        state, plies = game.initial_state(), 0
        while game.outcome(state) is None and plies <= bound:
            state, _ = game.play(state, rng.choice(game.legal_moves(state)))
            plies += 1
        _ok(plies <= bound, f"a random game ran past max_game_length {bound}")


def max_game_length(spec: GamePlugin, game: Any) -> int | None:
    """The game's declared bound: the plugin's, the game's attribute, or the
    environments' hook; None when none is declared."""
    bound = spec.length_bound(game)
    extras = spec.env_extras() if bound is None else None
    if extras is not None and extras.max_game_length is not None:
        bound = int(extras.max_game_length(game))
    return bound


LAWS: dict[str, Callable[..., None]] = {
    "hooks": law_hooks,
    "rules": law_rules,
    "notation": law_notation,
    "illegal": law_illegal,
    "drawing": law_drawing,
    "codec": law_codec,
    "kernels": law_kernels,
    "solver": law_solver,
    "length": law_length,
}
"""Every law by name, in the order :func:`check_game` runs them."""
PYTHON_LAWS = ("rules", "notation", "illegal", "drawing", "codec", "length")
"""The laws that need only the Python rules (cheap on every option set)."""


def check_game(game: Any, laws: Iterable[str] | None = None) -> None:
    """Check ``game`` (a registered game's object, as ``make_game`` builds it) against
    the conformance laws (``laws``: some of :data:`LAWS`, default all); raise
    :class:`ConformanceError` naming the law and the position on the first failure."""
    for name in LAWS if laws is None else laws:
        try:
            LAWS[name](game)
        except ConformanceError as e:
            raise ConformanceError(f"{getattr(game, 'name', game)}: {name}: {e}") from None
        except Exception as e:  # the game's own code raised: where, as the law met it
            tb = innermost(e, lambda frame: frame.f_code.co_filename != __file__)
            raise ConformanceError(
                f"{getattr(game, 'name', game)}: {name}: the game raised "
                f"{type(e).__name__}: {e} ({'unknown place' if tb is None else place(tb)})"
            ) from e


def rule_setups(spec: Any) -> list[dict[str, Any]]:
    """The option sets that change a plugin's rules: its defaults, each other choice of a
    choice option and the other value of a switch (one at a time), and the smallest
    board (every whole-number option at its lowest; rows of 1 and 2 chips)."""
    setups: list[dict[str, Any]] = [{}]
    for o in spec.options:
        if o.kind == "choice":
            setups += [{o.name: c} for c in o.choices if c != o.default]
        elif o.kind == "bool":
            setups.append({o.name: not o.default})
    small: dict[str, Any] = {
        o.name: o.low for o in spec.options if o.kind == "int" and o.low is not None
    }
    small.update({o.name: (1, 2) for o in spec.options if o.kind == "ints"})
    if small:
        setups.append(small)
    return setups


# --- the drawing's geometry -------------------------------------------------------------

Box = tuple[float, float, float, float]
"""x0, y0, x1, y1"""


def _classes(e: ET.Element) -> list[str]:
    return e.get("class", "").split()


def _box(e: ET.Element) -> Box | None:
    """The bounding box of a circle, rect, line or polygon; None for anything else."""
    tag = e.tag.rsplit("}", 1)[-1]

    def f(name: str) -> float:
        return float(e.get(name, 0))

    if tag == "circle":
        return f("cx") - f("r"), f("cy") - f("r"), f("cx") + f("r"), f("cy") + f("r")
    if tag == "rect":
        return f("x"), f("y"), f("x") + f("width"), f("y") + f("height")
    if tag == "line":
        (x0, x1), (y0, y1) = sorted((f("x1"), f("x2"))), sorted((f("y1"), f("y2")))
        return x0, y0, x1, y1
    if tag == "polygon":
        points = [tuple(map(float, p.split(","))) for p in e.get("points", "").split()]
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        return min(xs), min(ys), max(xs), max(ys)
    return None


def _centre(e: ET.Element) -> tuple[float, float]:
    """The centre of ``e``'s shape, or of the first shape inside it (a group's)."""
    x0, y0, x1, y1 = next(b for b in map(_box, e.iter()) if b is not None)
    return (x0 + x1) / 2, (y0 + y1) / 2


def _covers(e: ET.Element, x: float, y: float) -> bool:
    """Whether ``e``, a circle or a rect, covers the point (x, y)."""
    tag, b = e.tag.rsplit("}", 1)[-1], _box(e)
    if tag == "circle":
        cx, cy, r = (float(e.get(a, 0)) for a in ("cx", "cy", "r"))
        return math.hypot(x - cx, y - cy) <= r
    return tag == "rect" and b is not None and b[0] <= x <= b[2] and b[1] <= y <= b[3]


def _meet(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def check_picture(game: Any, state: Any, picture: str) -> ET.Element:
    """The picture parses; its ``data-move`` elements are exactly the legal moves; a shape
    after one (not inside it) that covers its centre lets clicks through, and so does
    every marker (``last-move``, ``mark``) drawn over any part of it. The parsed root."""
    root = ET.fromstring(picture)
    _ok(root.tag.endswith("svg"), "the drawing is not an <svg>")
    order = list(root.iter())
    parent = {child: p for p in order for child in p}

    def up(e: ET.Element | None) -> list[ET.Element]:
        out = []
        while e is not None:
            out.append(e)
            e = parent.get(e)
        return out

    def inert(e: ET.Element) -> bool:
        return any(a.get("pointer-events") == "none" for a in up(e))

    def marker(e: ET.Element) -> bool:
        return any({"last-move", "mark"} & set(_classes(a)) for a in up(e))

    clickable = [e for e in order if e.get("data-move") is not None]
    found = sorted(int(str(e.get("data-move"))) for e in clickable)
    _ok(found == sorted(game.legal_moves(state)), f"data-move {found} are not the legal moves")
    for e in clickable:
        _ok(not inert(e), f"the data-move element {e.attrib} lets clicks through")
        x, y = _centre(e)
        inside = set(e.iter())
        area = [b for b in map(_box, inside) if b is not None]
        for later in order[order.index(e) + 1 :]:
            b = _box(later)
            if later in inside or b is None or inert(later):
                continue
            _ok(
                not _covers(later, x, y),
                f"{later.attrib} covers the centre of {e.attrib}: a click there misses the "
                'move (draw it inside the data-move element or give it pointer-events="none")',
            )
            _ok(
                not (marker(later) and any(_meet(b, a) for a in area)),
                f"the marker {later.attrib} over {e.attrib} takes clicks",
            )
    return root


def cases(names: Sequence[str] | None = None) -> list[tuple[str, dict[str, Any]]]:
    """(game name, options) for every registered two-player game (or ``names``) and each
    of its rule-changing option sets: what a pytest ``parametrize`` runs the laws over."""
    games = two_player()
    return [(n, o) for n in (names or sorted(games)) for o in rule_setups(games[n])]
