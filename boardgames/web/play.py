"""The generic page's API: every registered two-player game, from its plugin alone.

A request names the game (in the URL), its ``options`` (the plugin's options by name),
an optional starting ``position`` (the game's notation, or moves from the start: see
:func:`boardgames.core.capabilities.parse_position`) and the ``moves`` played since, as
protocol moves (ints), or instead a ``record``: text a person pasted or opened (the moves
in the game's notation separated by commas, semicolons or lines, or a position in the
game's notation; :func:`read_record`). The server replays them on every request, checking
each, so it keeps no game state. The answer describes the position: its SVG (the game's
:class:`~boardgames.core.capabilities.Drawing`, whose ``data-move`` elements the page
makes clickable) or its text board, the legal moves with their notation, who moves, the
result.

The program's move is a player's (:func:`boardgames.core.players.find_player`: the
generic levels, ``random``, a game's own such as Kalah's presets; its whole turn), the hint
and the analysis are :func:`boardgames.core.engine.think` and
:func:`~boardgames.core.engine.candidates`, all run as jobs; a job's Cancel stops the
search (its ``stop`` reads the job's state; a compiled search is aborted too). Their
answers word the value for people (:func:`value_words`: ``win by 3 (exact)``, ``win by at
least 2``, ``+14 (estimate)``), keep how it was found (``how``: engine, depth, positions)
apart for the page's details, and say the time the level gave (``budget``) and whether a
proof took longer (``overran``).

A game's web extras (:class:`~boardgames.web.extras.WebExtras`) add to the answers: the
frames of a move's animation (``animate``), a side panel (``panel``), the reading of
records in its own format (``read_record``); its plugin's ``records`` writes the record
*Download record* saves (:mod:`boardgames.core.records`) and its ``commentary`` the words
after a move.
"""

from __future__ import annotations

import contextlib
import inspect
import io
import re
import shlex
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardgames.core import commentary
from boardgames.core.capabilities import Drawing, PositionNotation, capabilities, parse_position
from boardgames.core.engine import LEVELS, Answer, candidates, numba_ready, think
from boardgames.core.engine import Cancelled as SearchCancelled
from boardgames.core.players import Player, find_player, generic_players, players
from boardgames.core.protocol import GameError, State, quote, score_margin
from boardgames.core.registry import GAME, GamePlugin, UnknownGame, plugin, plugins
from boardgames.web.extras import WebExtras
from boardgames.web.inputs import BadInput, choice, flag, int_list, number, text, whole
from boardgames.web.jobs import Cancelled, Job

Extras = Mapping[str, WebExtras]
"""The installed games' web extras, by game name (the app's)."""

MAX_MOVES = 5000
"""Moves a game may hold (a long real game has a few hundred)."""
MAX_POSITION = 10_000
"""Characters of a starting position's text."""
MAX_TIME = 60.0
"""Seconds the page lets the program think (the command line allows more)."""
MAX_TOP = 10
"""Moves an analysis lists at most."""
MOVE_LIMIT = 2**53
"""Protocol moves are whole numbers within JavaScript's exact integers."""
SHOWN_LEGAL = 12
"""Legal moves an error message lists."""
MAX_RECORD = 2 * 2**20
"""Bytes of a record file read on the page (as the record readers take)."""
MAX_ANIMATION = 4 * 2**20
"""Bytes of SVG a move's animation may send (a hook that draws more is not shown)."""
MAX_LABEL = 80
"""Characters of a player's name in a record."""


@dataclass
class Setup:
    """A game as a request describes it, replayed: the position reached and the moves."""

    spec: GamePlugin
    game: Any
    options: dict[str, Any]
    """Every option's value, as read (JSON values: the page sends them back)."""
    start_text: str
    start: State
    moves: list[int] = field(default_factory=list)
    players: list[int] = field(default_factory=list)
    """Who made each move (0 or 1)."""
    state: State | None = None
    again: bool = False
    """The last move gave its player another turn."""

    @property
    def now(self) -> State:
        return self.start if self.state is None else self.state


# --- reading a request ---------------------------------------------------------------------


def read_game(data: dict[str, Any]) -> tuple[GamePlugin, Any, dict[str, Any]]:
    """The plugin named by ``game``, its game built from ``options``, and every option's
    value (the defaults for those not given) as JSON values."""
    name = data.get("game")
    if not isinstance(name, str) or not name or len(name) > 60:
        raise BadInput("game must be the name of an installed game (GET /api/games lists them)")
    try:
        spec = plugin(name)
    except UnknownGame as e:
        raise BadInput(str(e), 404) from None
    if spec.kind != GAME:
        raise BadInput(f"{name} is a puzzle, not a two-player game: it has a page of its own")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise BadInput("options must be an object: {option name: value}")
    for o in spec.options:  # an empty field of the form: say so, not "got ''"
        value = options.get(o.name)
        if o.kind != "bool" and isinstance(value, str) and not value.strip():
            raise BadInput(f"{_capital(o.help)}: required")
    try:
        game = spec.make(**options)
        values = {
            o.name: o.default if options.get(o.name) is None else o.convert(options[o.name])
            for o in spec.options
        }
    except (GameError, ValueError) as e:
        raise BadInput(_line(e)) from None
    return spec, game, {k: list(v) if isinstance(v, tuple) else v for k, v in values.items()}


def read_setup(data: dict[str, Any]) -> Setup:
    """The game of a request with its starting ``position`` (text, optional) and the
    ``moves`` played from it, each checked; BadInput names the first illegal one."""
    spec, game, values = read_game(data)
    start_text = ""
    if data.get("position") is not None:
        start_text = text(data, "position", MAX_POSITION).strip()
    try:
        start = parse_position(game, start_text) if start_text else game.initial_state()
    except GameError as e:
        raise BadInput(f"position: {_line(e)}") from None
    setup = Setup(spec, game, values, start_text, start)
    for k, move in enumerate(int_list(data, "moves", -MOVE_LIMIT, MOVE_LIMIT, MAX_MOVES), 1):
        _advance(setup, move, f"move {k}")
    if data.get("record") is not None:
        read_record(setup, text(data, "record", MAX_POSITION))
    return setup


_MOVE_SEPARATORS = re.compile(r"[,;\n]+")
_GAPS = " \t\r\n,;"
_WORDS = re.compile(r"[\s,;]+")


def read_record(setup: Setup, record: str) -> None:
    """Play a game record on ``setup``: the moves in the game's notation separated by
    commas, semicolons or lines (``4,4,5,3``, ``1 2; 3 1``; or by spaces, for a game whose
    moves hold none), or, from the start only, a position in the game's notation
    (``4453``, a Kalah board). A position that the moves from the start write (Connect
    Four's ``4453``) becomes those moves; another one the starting position. Lines that
    begin with ``#`` are comments; ``start`` or nothing is the start. BadInput names what
    is wrong, in one line."""
    lines = [line for line in record.splitlines() if not line.lstrip().startswith("#")]
    words = "\n".join(lines).strip()
    if words in ("", "start"):
        return
    game = setup.game
    moves, problem = _replay(setup, [w.strip() for w in _MOVE_SEPARATORS.split(words)])
    if problem is not None and not moves and any(c.isspace() for c in words):
        spaced, spaced_problem = _replay(setup, _WORDS.split(words))
        if spaced_problem is None:
            moves, problem = spaced, None
    if problem is None:
        for k, move in enumerate(moves, len(setup.moves) + 1):
            _advance(setup, move, f"move {k}")
        return
    if moves or setup.moves or setup.start_text:  # a list of moves with a wrong one
        raise BadInput(problem)
    try:
        position = parse_position(game, words)
    except GameError as e:
        raise BadInput(f"neither moves ({problem}) nor a position ({_line(e)})") from None
    found = _moves_to(game, words, position)
    if found is None:
        setup.start_text, setup.start = words, position
        return
    for k, move in enumerate(found, 1):
        _advance(setup, move, f"move {k}")


def _replay(setup: Setup, items: list[str]) -> tuple[list[int], str | None]:
    """The moves ``items`` name one after the other from ``setup``'s position, and what
    is wrong with the first that names no legal move (None when every one does)."""
    game, state = setup.game, setup.now
    moves: list[int] = []
    for k, item in enumerate((i for i in items if i), len(setup.moves) + 1):
        if k > MAX_MOVES:
            return moves, f"the record holds more than {MAX_MOVES:,} moves"
        if game_over(game, state):
            return moves, f"move {k} ({quote(item)}) comes after the end of the game"
        try:
            move = game.parse_move(item, state)
        except GameError as e:
            return moves, f"move {k} ({quote(item)}): {_line(e)}"
        if move not in game.legal_moves(state):
            return moves, f"move {k} ({quote(item)}) is not a legal move there"
        state, _ = game.play(state, move)
        moves.append(move)
    return moves, None


def _moves_to(game: Any, words: str, position: State) -> list[int] | None:
    """The moves from the start that ``words`` writes one after the other (each the
    longest legal move's text that fits, gaps allowed) when they reach ``position``; else
    None (a position that is no list of moves)."""
    state, moves = game.initial_state(), []
    notation = isinstance(game, PositionNotation)
    if not notation:  # its positions are the moves from the start
        for word in _WORDS.split(words.strip()):
            if word and word != "start":
                move = game.parse_move(word, state)
                state, _ = game.play(state, move)
                moves.append(move)
        return moves or None
    rest = words.lstrip(_GAPS)
    while rest:
        if game_over(game, state) or len(moves) >= MAX_MOVES:
            return None
        texts = sorted(((game.format_move(m), m) for m in game.legal_moves(state)),
                       key=lambda item: -len(item[0]))  # fmt: skip
        move = next((m for word, m in texts if word and rest.startswith(word)), None)
        if move is None:
            return None
        rest = rest[len(game.format_move(move)) :].lstrip(_GAPS)
        state, _ = game.play(state, move)
        moves.append(move)
    same = game.format_position(state) == game.format_position(position)
    return moves if same and moves else None


def _advance(setup: Setup, move: int, label: str) -> None:
    """Play ``move`` in ``setup`` after checking that it is legal."""
    game, state = setup.game, setup.now
    if game_over(game, state):
        raise BadInput(f"{label} ({move}) comes after the end of the game")
    legal = game.legal_moves(state)
    if move not in legal:
        shown = " ".join(game.format_move(m) for m in legal[:SHOWN_LEGAL])
        more = f" ... ({len(legal)} moves)" if len(legal) > SHOWN_LEGAL else ""
        raise BadInput(f"{label} ({move}) is not a legal move there; legal: {shown}{more}")
    setup.players.append(game.to_move(state))
    setup.state, setup.again = game.play(state, move)
    setup.moves.append(move)


def game_over(game: Any, state: State) -> bool:
    """True when the game is over in ``state`` (a result, or no legal move)."""
    return game.outcome(state) is not None or not game.legal_moves(state)


def _line(e: Exception) -> str:
    words = str(e).strip()
    return words.splitlines()[0] if words else "bad input"


# --- describing a position -----------------------------------------------------------------


def player_name(spec: GamePlugin, player: int) -> str:
    """A player's name for a sentence: ``A``, ``first player``, ``player 1``."""
    name = spec.player_names[player]
    return f"player {name}" if name.isdigit() else name


def winner(game: Any, state: State) -> int | None:
    """The player who won (0 or 1); None for a draw or a game that goes on."""
    result = game.outcome(state)
    if not result:
        return None
    mover = int(game.to_move(state))
    return mover if result > 0 else 1 - mover


def result_text(spec: GamePlugin, game: Any, state: State) -> str | None:
    """The end of the game in words (None while it goes on)."""
    result = game.outcome(state)
    if result is None:
        return None if game.legal_moves(state) else "No legal move: the game stops here."
    if result == 0:
        return "The game is a draw."
    mover = game.to_move(state)
    winner = mover if result > 0 else 1 - mover
    name = player_name(spec, winner)
    return f"{name[0].upper()}{name[1:]} wins (margin {abs(result)})."


def last_turn(setup: Setup) -> int | tuple[int, ...] | None:
    """The move played last: the trailing moves of the player who moved last (a compound
    turn, such as Kalah's extra turns, as a tuple), None at the start."""
    if not setup.moves:
        return None
    who, k = setup.players[-1], len(setup.moves)
    while k > 0 and setup.players[k - 1] == who:
        k -= 1
    turn = tuple(setup.moves[k:])
    return turn[0] if len(turn) == 1 else turn


def picture(setup: Setup) -> str:
    """The game's drawing of the position, the last move marked where the drawing takes
    ``last`` (a won game's line is the drawing's own mark)."""
    game = setup.game
    last = last_turn(setup)
    if last is not None and "last" in inspect.signature(game.svg).parameters:
        with contextlib.suppress(TypeError, GameError, ValueError):
            return str(game.svg(setup.now, last=last))
        if isinstance(last, tuple):
            with contextlib.suppress(TypeError, GameError, ValueError):
                return str(game.svg(setup.now, last=last[-1]))
    return str(game.svg(setup.now))


def position_text(setup: Setup) -> str:
    """The position as text the page can show and send back as ``position``: the moves
    of the game in the game's notation where they spell it (the order they were played
    in), else the game's notation, else the moves from the start."""
    game = setup.game
    if isinstance(game, PositionNotation):
        if setup.start_text in ("", "start") and setup.moves:
            played = "".join(setup.game.format_move(m) for m in setup.moves)
            with contextlib.suppress(GameError, ValueError):
                if np.array_equal(game.parse_position(played), setup.now):
                    return played
        return game.format_position(setup.now)
    words = [] if setup.start_text in ("", "start") else [setup.start_text]
    words += [game.format_move(m) for m in setup.moves]
    return " ".join(words) or "start"


def board_text(game: Any, state: State) -> str:
    """The game's text board (its ``render``) as plain text."""
    from rich.console import Console

    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, force_terminal=False)
    console.print(game.render(state))
    return out.getvalue().rstrip()


def describe(setup: Setup, extras: Extras | None = None) -> dict[str, Any]:
    """What the page shows of the position (see the module docstring); ``panel``: the
    game's side panel (its extras' ``panel`` hook), or None."""
    spec, game, state = setup.spec, setup.game, setup.now
    over = game_over(game, state)
    mover = None if over else game.to_move(state)
    drawing = isinstance(game, Drawing)
    return {
        "game": spec.name,
        "title": spec.title,
        "options": setup.options,
        "position": setup.start_text,
        "moves": [
            {"move": m, "text": game.format_move(m), "player": p}
            for m, p in zip(setup.moves, setup.players, strict=True)
        ],
        "svg": picture(setup) if drawing else None,
        "board": None if drawing else board_text(game, state),
        "text": position_text(setup),
        "legal": [] if over else [{"move": m, "text": game.format_move(m)} for m in _legal(setup)],
        "to_move": mover,
        "player": None if mover is None else player_name(spec, mover),
        "over": over,
        "result_text": result_text(spec, game, state),
        "winner": winner(game, state),
        "again": bool(setup.again and not over),
        "panel": panel(setup, extras),
    }


def _legal(setup: Setup) -> list[int]:
    return list(setup.game.legal_moves(setup.now))


def hooks(setup: Setup | GamePlugin, extras: Extras | None) -> WebExtras | None:
    """The web extras of the setup's game (None when it has none)."""
    spec = setup.spec if isinstance(setup, Setup) else setup
    return None if extras is None else extras.get(spec.name)


def panel(setup: Setup, extras: Extras | None) -> dict[str, str] | None:
    """The game's side panel for the position, if its extras draw one."""
    own = hooks(setup, extras)
    if own is None or own.panel is None:
        return None
    try:
        found = own.panel(setup.game, setup.now)
    except Exception:  # a game's broken hook: the page goes on without its panel
        return None
    return None if found is None else {"title": found.title, "html": found.html}


def animation(
    setup: Setup, extras: Extras | None, before: State, move: int
) -> list[dict[str, Any]] | None:
    """The frames of ``move`` played in ``before`` (the game's ``animate`` hook), or None
    when the game has none, or they would be too big to send."""
    own = hooks(setup, extras)
    if own is None or own.animate is None:
        return None
    try:
        frames = own.animate(setup.game, before, move)
    except Exception:  # a game's broken hook: the move is shown without its frames
        return None
    if not frames or sum(len(f.svg) for f in frames) > MAX_ANIMATION:
        return None
    return [{"svg": f.svg, "beats": f.beats} for f in frames]


def remark(setup: Setup, before: State, move: int) -> str | None:
    """The game's words on a move just played (its plugin's commentary), if any."""
    return commentary.remark(setup.game, before, move, setup.now)


def position(data: dict[str, Any], extras: Extras | None = None) -> dict[str, Any]:
    """``POST /api/games/{game}/position``: the position of a request."""
    return describe(read_setup(data), extras)


def move(data: dict[str, Any], extras: Extras | None = None) -> dict[str, Any]:
    """``POST /api/games/{game}/move``: the position after ``move`` (a protocol move) or
    ``move_text`` (the game's notation, as typed); with ``animate``, the frames of the
    move (``animation``: the game's hook; None without one); ``remark``: the game's words
    on it."""
    setup = read_setup(data)
    if game_over(setup.game, setup.now):
        raise BadInput("the game is over: there is no move to play")
    if data.get("move_text") is not None:
        typed = text(data, "move_text", 200)
        try:
            chosen = setup.game.parse_move(typed, setup.now)
        except GameError as e:
            raise BadInput(_line(e)) from None
    else:
        chosen = whole(data, "move", -MOVE_LIMIT, MOVE_LIMIT)
    animate = flag(data, "animate")
    before = setup.now
    _advance(setup, chosen, "the move")
    out = describe(setup, extras)
    out["remark"] = remark(setup, before, chosen)
    if animate:
        out["animation"] = animation(setup, extras, before, chosen)
    return out


# --- records: download, and reading a record of any game ------------------------------------


def _labels(data: dict[str, Any]) -> tuple[str, str]:
    """The players' names for the record (``players``: two texts), else the protocol's."""
    value = data.get("players", ["first player", "second player"])
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, str) and 0 < len(v.strip()) <= MAX_LABEL for v in value)
    ):
        raise BadInput(f"players must be two names of 1 to {MAX_LABEL} characters")
    return " ".join(value[0].split()), " ".join(value[1].split())


def record(data: dict[str, Any], extras: Extras | None = None) -> dict[str, Any]:
    """``POST /api/games/{game}/record``: the game as a record file (``text``, ``name``):
    the game's own format when its plugin has one that holds the game (Kalah's ``.klh``),
    else the generic record (:mod:`boardgames.core.records`)."""
    from boardgames.core.records import generic_text, own_format

    setup = read_setup(data)
    names = _labels(data)
    game = setup.game
    own = own_format(game)
    written = None if own is None else own.text(game, setup.start, setup.moves, names)
    if written is not None:
        suffix = own.suffix  # type: ignore[union-attr]
    else:
        before: list[int] | None = [] if not setup.start_text else None
        written = generic_text(game, setup.moves, setup.now, before, setup.start)
        suffix = ".txt"
    return {"text": written, "name": f"{setup.spec.name}-game{suffix}"}


def read_any(data: dict[str, Any], extras: Extras | None = None) -> dict[str, Any]:
    """``POST /api/records/read``: which game a record's ``text`` is of, and what it holds:
    ``{"game", "options", "position", "moves", "said"}``; ``{"game": null}`` when it names
    no game (the page then reads it as the moves of the game chosen). A game's own format
    is read by its extras' ``read_record``; the generic record (its first line the
    ``boardgames play GAME ...`` command) and the page's older one (``# game: ...``) here."""
    body = text(data, "text", MAX_RECORD)
    for name, own in (extras or {}).items():
        if own.read_record is None or plugin(name).kind != GAME:
            continue
        try:
            found = own.read_record(body)
        except GameError as e:
            raise BadInput(f"not a record this toolkit reads: {_line(e)}") from None
        if found is None:
            continue
        read = read_setup({"game": name, "options": found.options,
                           "position": found.position, "moves": found.moves})  # fmt: skip
        return {**_opened(read, extras), "players": found.players, "said": found.said}
    named = _named_record(body)
    if named is None:
        return {"game": None}
    return _opened(read_setup(named), extras)


def _opened(setup: Setup, extras: Extras | None) -> dict[str, Any]:
    return {
        "game": setup.spec.name,
        "options": setup.options,
        "position": setup.start_text or None,
        "moves": list(setup.moves),
        "said": f"{len(setup.moves)} moves of {setup.spec.title}",
    }


_COMMAND = re.compile(r"^#\s*boardgames\s+play\s+(\S+)(.*)$")
_SAID = re.compile(r"^#\s*(game|options|start)\s*:\s*(.*?)\s*$", re.IGNORECASE)


def _named_record(body: str) -> dict[str, Any] | None:
    """The request (game, options, position, record) of a record that names its game:
    the generic record (``# boardgames play nim --rows '3 4 5'``, ``moves: ...``,
    ``position: ...``) or the page's older one (``# game: nim``, ``# options: rows=3,4,5``,
    ``# start: ...``, then the moves); None for a text that names none."""
    lines = body.splitlines()
    head = next((line for line in lines if line.strip()), "").strip()
    command = _COMMAND.match(head)
    if command is not None:
        return _generic_record(command[1], command[2], lines)
    said = {}
    for line in lines:
        found = _SAID.match(line)
        if found is not None:
            said[found[1].lower()] = found[2]
    if "game" not in said:
        return None
    options: dict[str, str] = {}
    last = None
    for piece in said.get("options", "").split(","):
        key, eq, value = piece.partition("=")
        if eq:
            last = key.strip()
            options[last] = value.strip()
        elif last is not None:
            options[last] += f",{piece.strip()}"
        elif piece.strip():
            raise BadInput(f"the record's options must be name=value, got {quote(piece)}")
    rest = "\n".join(line for line in lines if not line.lstrip().startswith("#"))
    return {"game": said["game"], "options": options, "position": said.get("start") or None,
            "record": rest}  # fmt: skip


def _generic_record(name: str, flags: str, lines: list[str]) -> dict[str, Any]:
    """The request of a generic record (:func:`boardgames.core.records.generic_text`)."""
    try:
        spec = plugin(name)
    except UnknownGame as e:
        raise BadInput(str(e), 404) from None
    try:
        words = shlex.split(flags)
    except ValueError:
        raise BadInput("the record's first line is not a boardgames play command") from None
    by_flag = {o.flag: o for o in spec.options}
    options: dict[str, Any] = {}
    k = 0
    started = None
    while k < len(words):
        if words[k] == "--start" and k + 1 < len(words):  # the start is the start: line's
            started = words[k + 1]
            k += 2
            continue
        option = by_flag.get(words[k])
        if option is None:
            raise BadInput(f"the record's command has an unknown option {quote(words[k])}")
        if option.kind == "bool":
            options[option.name] = True
            k += 1
            continue
        if k + 1 >= len(words):
            raise BadInput(f"the record's command gives no value to {option.flag}")
        options[option.name] = words[k + 1]
        k += 2
    fields = {}
    for line in lines:
        key, colon, value = line.partition(":")
        if colon and key.strip() in ("start", "moves", "position"):
            fields[key.strip()] = value.strip()
    body: dict[str, Any] = {"game": spec.name, "options": options}
    if started and not fields.get("start"):
        fields["start"] = started
    if fields.get("start"):  # a game begun at a given position: the moves from there
        game = spec.make(**options)
        body["position"] = fields["start"]
        try:
            begin = parse_position(game, fields["start"])
        except GameError as e:
            raise BadInput(f"the record's start: {_line(e)}") from None
        body["moves"] = _spelled(game, fields.get("moves", ""), begin)
    elif fields.get("moves"):
        game = spec.make(**options)
        body["moves"] = _spelled(game, fields["moves"])
    elif fields.get("position"):
        body["position"] = fields["position"]
    return body


def _spelled(game: Any, words: str, start: State | None = None) -> list[int]:
    """The moves from the start (``start``, else the game's) that ``words`` writes one
    after the other, separated by commas or spaces (each the longest legal move's text
    that fits: Nim's moves hold a space)."""
    state, moves = (game.initial_state() if start is None else start), list[int]()
    rest = words.strip(_GAPS)
    while rest:
        if game_over(game, state) or len(moves) >= MAX_MOVES:
            raise BadInput(f"the record's moves go on after the end of the game: {quote(rest)}")
        texts = sorted(((game.format_move(m), m) for m in game.legal_moves(state)),
                       key=lambda item: -len(item[0]))  # fmt: skip
        found = next(
            (m for word, m in texts if rest.startswith(word)
             and (len(rest) == len(word) or rest[len(word)] in _GAPS)),
            None,
        )  # fmt: skip
        if found is None:
            raise BadInput(f"move {len(moves) + 1} of the record ({quote(rest)}) is not legal")
        rest = rest[len(game.format_move(found)) :].lstrip(_GAPS)
        state, _ = game.play(state, found)
        moves.append(found)
    return moves


# --- the program: its move, a hint, an analysis (jobs) --------------------------------------

_LOCKS: dict[Any, threading.Lock] = {}
_LOCKS_LOCK = threading.Lock()


def search_lock(game: Any) -> threading.Lock:
    """One lock a game (by its options): the compiled engine keeps one workspace a game,
    which two searches at once would share, so searches of one game take turns."""
    try:
        key: Any = (type(game), game)
        hash(key)
    except TypeError:  # an unhashable game has no shared engine
        key = id(game)
    with _LOCKS_LOCK:
        return _LOCKS.setdefault(key, threading.Lock())


def read_level(data: dict[str, Any]) -> dict[str, Any]:
    """:func:`think`'s ``seconds`` and ``depth`` from ``level`` (easy, medium, strong,
    perfect) or ``seconds``."""
    level = choice(data, "level", tuple(LEVELS), "strong")
    if data.get("seconds") is not None:
        return {"depth": None, "seconds": number(data, "seconds", 0.0, MAX_TIME)}
    return dict(LEVELS[level])


def searching(
    setup: Setup, job: Job, work: Callable[[Callable[[], bool]], Any], **progress: Any
) -> Any:
    """Run ``work(stop)`` for ``setup``'s game as the job's search: after the searches of
    the same game before it, stopped by the job's Cancel (``stop`` reads it; a compiled
    search is aborted at once). ``progress``: what the job says while it searches
    (``stage="thinking"`` unless given)."""
    game = setup.game
    lock = search_lock(game)
    if not lock.acquire(blocking=False):
        job.report(**{**progress, "stage": "waiting for another search of this game"})
        while not lock.acquire(timeout=0.1):
            job.check()
    searcher = None
    try:
        if numba_ready(game):
            from boardgames.core.strategies import numba_searcher

            searcher = numba_searcher(game)
            searcher.ws.resume()  # a cancel that came late for an earlier search
            job.on_cancel = searcher.ws.abort
        job.report(**(progress or {"stage": "thinking"}))  # a cancel before the hook: stop
        return work(lambda: job.cancelled)
    except SearchCancelled:
        raise Cancelled from None
    finally:
        job.on_cancel = None
        if searcher is not None:
            searcher.ws.resume()
        lock.release()


def value_words(value_text: str, exact: bool, estimates: bool = True) -> str:
    """A value as the page words it: ``win by 3 (exact)``, ``win by at least 2`` (a
    bound says so itself), ``+14 (estimate)`` (a heuristic score), ``draw (exact)``; for
    a game without a heuristic evaluation (``estimates`` False, Nim) a score that is no
    proof says nothing: ``not proved in the time``."""
    if exact:
        return f"{value_text} (exact)"
    if "at least" in value_text:
        return value_text
    return f"{value_text} (estimate)" if estimates else "not proved in the time"


def own_value_words(setup: Setup, value: int, exact: bool) -> str | None:
    """A value (for the player to move) in the game's own words
    (:func:`boardgames.core.commentary.value_words`), or None: the generic words; a
    game's broken hook gives the generic words too."""
    try:
        return commentary.value_words(setup.game, setup.now, value, exact)
    except Exception:
        return None


def overran_words(seconds: float, budget: float | None) -> str:
    """The sentence the page shows when a search took longer than its level's time."""
    given = f"its {budget:g} s" if budget else "its time"
    return f"It took {seconds:.1f} s, more than {given}: a proof under way cannot be cut short."


def answer_json(setup: Setup, answer: Answer, budget: float | None = None) -> dict[str, Any]:
    """An :class:`Answer` for the page: ``move`` (the protocol move) and ``text`` (its
    notation), the value (``value_text``: exact or a bound; ``words``: for people), the
    line (``pv``), the time the level gave (``budget``, None for a depth) and whether the
    answer took longer (``overran``), and how it was found (``how``: for the details)."""
    out = answer.as_json(setup.game)
    out["text"] = out["move"]
    out["move"] = answer.move
    out["how"] = answer.how()
    own = own_value_words(setup, answer.value, answer.exact)
    if own is not None:
        out["words"] = f"{own} (exact)" if answer.exact else own
    else:
        out["words"] = value_words(out["value_text"], answer.exact, "evaluation" in _caps(setup))
    out["short"] = answer.short()
    out["budget"] = budget
    out["overran"] = answer.overran
    out["overran_text"] = overran_words(answer.seconds, budget) if answer.overran else None
    player = setup.game.to_move(setup.now)
    out["player"] = player
    out["player_name"] = player_name(setup.spec, player)
    out["depth_text"] = depth_words(answer)
    out["bar_text"] = bar_words(answer.value if player == 0 else -answer.value, answer.exact)
    return out


def depth_words(answer: Answer) -> str:
    """How deep an answer looked: ``exact`` (a solver or a search to the end of every
    line), ``depth 12`` (plies searched), ``to the end`` (an unfinished search)."""
    if answer.exact:
        return "exact"
    return "to the end" if answer.depth is None else f"depth {answer.depth}"


def bar_words(first: int, exact: bool) -> str:
    """The evaluation bar's number, for the first player: ``+14`` (an estimate), ``=``
    (a draw, exact), ``+#3`` / ``-#3`` (a win or loss by 3, exact), ``+#≥3`` (a bound)."""
    margin = score_margin(first)
    if margin is None:
        return "=" if exact and first == 0 else f"{first:+d}"
    sign = "+" if margin > 0 else "-"
    return f"{sign}#{abs(margin)}" if exact else f"{sign}#≥{abs(margin)}"


def _caps(setup: Setup) -> list[str]:
    return capabilities(setup.game)


def _think(setup: Setup, job: Job, level: dict[str, Any]) -> Answer:
    answer: Answer = searching(
        setup, job, lambda stop: think(setup.game, setup.now, stop=stop, **level)
    )
    return answer


def _ready(data: dict[str, Any]) -> tuple[Setup, dict[str, Any]]:
    setup = read_setup(data)
    if game_over(setup.game, setup.now):
        raise BadInput("the game is over: there is no move to choose")
    return setup, read_level(data)


def _late(out: dict[str, Any]) -> str:
    return f" {out['overran_text']}" if out["overran_text"] else ""


def read_player(setup: Setup, data: dict[str, Any]) -> Player | None:
    """The player ``player`` names (a name of :func:`boardgames.core.players.players` or a
    spec such as ``depth=4``), or None when the request names none (the program at the
    ``level``)."""
    if data.get("player") is None:
        return None
    name = text(data, "player", MAX_LABEL).strip()
    try:
        return find_player(setup.game, name)
    except GameError as e:
        raise BadInput(_line(e)) from None


def prepare_program(data: dict[str, Any], extras: Extras | None = None) -> Callable[[Job], Any]:
    """The move of the side to move (its whole turn where the same side moves again) by
    ``player``, or by the program at the ``level`` (within its time: ``seconds`` is passed
    to the search, and ``overran`` says when a proof took longer); ``steps``: each move
    played, with the position after it (and, with ``animate``, its frames); ``position``:
    the position after the last."""
    setup, level = _ready(data)
    chosen = read_player(setup, data)
    animate = flag(data, "animate")
    own = set(players(setup.game)) - set(generic_players())  # the game's own players

    def work(job: Job) -> dict[str, Any]:
        if chosen is None:
            answer, budget = _think(setup, job, level), level["seconds"]
        else:
            answer = searching(
                setup, job, lambda stop: chosen.choose(setup.game, setup.now, stop=stop)
            )
            budget = None
        job.check()
        turn = list(answer.moves())
        if not turn:
            raise BadInput("the program found no move")
        out = answer_json(setup, answer, budget)
        who, name = _capital(out["player_name"]), out["player_name"]
        by = "the program" if chosen is None else chosen.name
        played = " then ".join(setup.game.format_move(m) for m in turn)
        out["text"] = played
        value = "" if answer.engine == "random" else f" Its value for {name}: {out['words']}."
        why = _why(setup, turn[0], answer.exact or (chosen is not None and chosen.name in own))
        out["said"] = f"{who} ({by}) played {played}.{value}{why}"
        out["said"] += _late(out)
        out["player_label"] = by
        steps = []
        for move in turn:
            if game_over(setup.game, setup.now):
                break
            before = setup.now
            _advance(setup, move, "the program's move")
            step: dict[str, Any] = {
                "move": move,
                "text": setup.game.format_move(move),
                "position": describe(setup, extras),
                "remark": remark(setup, before, move),
            }
            if animate:
                step["animation"] = animation(setup, extras, before, move)
            steps.append(step)
        out["steps"] = steps
        out["position"] = steps[-1]["position"]
        return out

    return work


def _why(setup: Setup, move: int, best: bool) -> str:
    """`` Why: ...`` the game's reason for ``move`` (its commentary), when the move is a
    best one (an exact answer, or the game's own player's): else nothing."""
    if not best:
        return ""
    try:
        words = commentary.reason(setup.game, setup.now, move)
    except Exception:  # a game's broken hook: no reason given
        return ""
    if not words:
        return ""
    words = words.strip()
    return f" Why: {words}{'' if words.endswith('.') else '.'}"


def prepare_hint(data: dict[str, Any]) -> Callable[[Job], Any]:
    """The program's advice for the side to move, worded as ``boardgames play``'s hint."""
    setup, level = _ready(data)

    def work(job: Job) -> dict[str, Any]:
        answer = _think(setup, job, level)
        job.check()
        out = answer_json(setup, answer, level["seconds"])
        line = " ".join(out["pv"][:8])
        why = "" if answer.move is None else _why(setup, answer.move, answer.exact)
        out["said"] = (
            f"Hint for {out['player_name']}: {out['text']}. Its value: {out['words']}."
            + (f" Line: {line}." if len(out["pv"]) > 1 else "")
            + why
            + _late(out)
        )
        return out

    return work


def prepare_analyse(data: dict[str, Any]) -> Callable[[Job], Any]:
    """The ``top`` best moves, each valued the same way (:func:`candidates`: exact values
    when they all come within the level's time, else searches to one common depth; a
    depth level searches that deep), best first: the value of the position is the
    first's, and so is the best line (``pv``). The page's analysis, which deepens, is
    :func:`boardgames.web.deepen.prepare_analysis`."""
    setup, level = _ready(data)
    top = whole(data, "top", 1, MAX_TOP, 3)
    depth = level["depth"]
    seconds = level["seconds"] or 1.0
    timing: list[float] = []

    def search(stop: Callable[[], bool]) -> list[tuple[int, Answer]]:
        t0 = time.perf_counter()  # the search's own time, not the wait for another's
        try:
            return candidates(
                setup.game, setup.now, seconds=seconds, top=top, stop=stop, depth=depth
            )
        finally:
            timing.append(time.perf_counter() - t0)

    def work(job: Job) -> dict[str, Any]:
        found = searching(setup, job, search)
        job.check()
        spent = timing[-1]
        rows = [
            {**answer_json(setup, a, level["seconds"]), "move": m,
             "text": setup.game.format_move(m)}
            for m, a in found
        ]  # fmt: skip
        best = rows[0]
        budget = level["seconds"]
        overran = budget is not None and spent > 1.5 * budget + 0.2
        out = {
            "moves": rows,
            **{k: best[k] for k in ("move", "text", "value", "value_text", "exact", "bound",
                                    "words", "short", "pv", "how", "player", "player_name",
                                    "depth_text", "bar_text")},
            "seconds": round(spent, 3),
            "budget": budget,
            "overran": overran,
            "overran_text": overran_words(spent, budget) if overran else None,
            "depth": depth,
        }  # fmt: skip
        said = f"Best for {best['player_name']}: {best['text']}. Its value: {best['words']}."
        out["said"] = said + _late(out)
        return out

    return work


def _capital(words: str) -> str:
    return words[:1].upper() + words[1:]


# --- the list of games -----------------------------------------------------------------------


def catalogue(extras: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """``GET /api/games``: every installed game as the page builds its forms from it:
    options, capabilities, players (two-player games: name and description, for the
    sides' menus), what its extras add (``extras``)."""
    games = []
    for name, spec in plugins().items():
        games.append(
            {
                "name": name,
                "title": spec.title,
                "kind": spec.kind,
                "summary": spec.summary,
                "player_names": list(spec.player_names),
                "examples": list(spec.examples),
                "options": [
                    {
                        "name": o.name,
                        "kind": o.kind,
                        "default": list(o.default) if isinstance(o.default, tuple) else o.default,
                        "help": o.help,
                        "low": o.low,
                        "high": o.high,
                        "choices": list(o.choices),
                    }
                    for o in spec.options
                ],
                "capabilities": _capabilities(spec),
                "engine": engine_words(spec),
                "players": _players(spec),
                "extras": extras.get(name),
            }
        )
    return {"games": games, "levels": list(LEVELS), "level_help": level_help()}


def _players(spec: GamePlugin) -> list[dict[str, str]]:
    """The named players of a two-player game (its default setup), for the page's menus."""
    if spec.kind != GAME:
        return []
    try:
        found = players(spec.make())
    except Exception:  # a game whose players cannot be listed plays with the levels
        return [{"name": n, "description": LEVEL_WORDS.get(n, n)} for n in LEVELS]
    return [{"name": n, "description": str(p.description)} for n, p in found.items()]


LEVEL_WORDS = {
    "easy": "looks one move ahead",
    "medium": "looks three moves ahead",
    "strong": "thinks about a second a move",
    "perfect": "thinks up to ten seconds, and plays perfectly where it can prove the result",
}
"""What each level does, in plain words (the page's level menu and its details)."""


def level_help() -> dict[str, dict[str, Any]]:
    """Each level's plain words and its detail: the depth or the time :func:`think` gets."""
    out = {}
    for name, level in LEVELS.items():
        if level["depth"] is not None:
            plies = level["depth"]
            detail = f"a search {plies} {'ply' if plies == 1 else 'plies'} deep"
        else:
            seconds = level["seconds"]
            detail = (
                f"{seconds:g} s a move: the exact solver or a search to the end first, "
                "then deeper and deeper searches until the time is up"
            )
        out[name] = {
            "words": LEVEL_WORDS.get(name, name),
            "detail": detail,
            "depth": level["depth"],
            "seconds": level["seconds"],
        }
    return out


def engine_words(spec: GamePlugin) -> str:
    """Which engine thinks for this game, for the page's details."""
    parts = []
    if spec.solver:
        parts.append("its exact solver when it answers in time")
    if spec.kernels:
        parts.append("the compiled engine (numba) once it is compiled on this machine")
    parts.append("else the pure-Python alpha-beta search")
    return f"{spec.title}: " + ", ".join(parts) + "."


def _capabilities(spec: GamePlugin) -> list[str]:
    listed = [c for c, path in (("kernels", spec.kernels), ("solver", spec.solver),
              ("commands", spec.cli)) if path]  # fmt: skip
    if spec.kind != GAME:
        return listed
    try:
        return capabilities(spec.make())
    except Exception:  # a game that cannot be built is listed, with what its plugin says
        return listed
