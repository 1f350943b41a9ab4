"""``boardgames play GAME``: any registered two-player game in the terminal, a person or a
player (:mod:`boardgames.core.players`: the program levels, ``random``, a game's own such as
Kalah's ``classic`` or Nim's ``bouton``) on each side, with hint, undo, the game's
commentary (:mod:`boardgames.core.commentary`) and a record saved after every move
(:mod:`boardgames.core.records`).

:class:`Session` is the one play loop: ``boardgames kalah play`` and ``boardgames nim play``
are this loop with their own options and extras.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from boardgames.cli.games import GameGroup, make_game
from boardgames.cli.options import OUTPUT_FILE
from boardgames.core.hooks import PROGRAM
from boardgames.core.protocol import THINK_SECONDS
from boardgames.core.registry import GamePlugin

HUMAN = "human"


class Quit(Exception):
    """The person quit at a program's move (``q`` at "Press Enter")."""


"""``--first program``: the program at ``--level`` (or ``--time``/``--depth``)."""


def level_options(f: Any) -> Any:
    """``--level``, ``--time`` and ``--depth``: how hard the program thinks."""
    f = click.option(
        "--depth",
        type=click.IntRange(1, 60),
        default=None,
        help="Search exactly this many plies (overrides --level and --time).",
    )(f)
    f = click.option(
        "--time",
        "seconds",
        type=click.FloatRange(*THINK_SECONDS),
        default=None,
        help="Seconds the program thinks a move (overrides --level).",
    )(f)
    return click.option(
        "--level",
        type=click.Choice(["easy", "medium", "strong", "perfect"]),
        default="strong",
        show_default=True,
        help="easy: 1 ply; medium: 3 plies; strong: 1 s a move; perfect: up to 10 s, the "
        "exact solver first where the game has one.",
    )(f)


def thinking(level: str, seconds: float | None, depth: int | None) -> dict[str, Any]:
    """:func:`~boardgames.core.engine.think`'s keywords for these options."""
    from boardgames.core.engine import LEVELS

    if depth is not None:
        return {"depth": depth, "seconds": None}
    if seconds is not None:
        return {"depth": None, "seconds": seconds}
    return dict(LEVELS[level])


def program_player(game: Any, level: str, seconds: float | None, depth: int | None) -> Any:
    """The player ``--level``/``--time``/``--depth`` choose: the game's player of that
    level (a game's own program where it has one), or the program with that limit."""
    from boardgames.core.players import Level, players

    if depth is None and seconds is None:
        return players(game)[level]
    think = thinking(level, seconds, depth)
    what = f"depth {depth}" if depth is not None else f"{seconds:g} s a move"
    return Level(PROGRAM, f"the program, {what}", think["seconds"], think["depth"])


def shown(choose: Any, what: str, seconds: float | None) -> Any:
    """``choose(stop)`` with a progress line on stderr while it takes more than a second
    and a one-line stop on Ctrl-C (:class:`boardgames.core.progress.Stopped`)."""
    from boardgames.core.console import make_console
    from boardgames.core.progress import Progress, interruptible, stopped_message

    bar = Progress(what, seconds, "s" if seconds else "", console=make_console(stderr=True))
    t0 = time.perf_counter()

    def tick() -> bool:
        bar.update(round(time.perf_counter() - t0, 1))
        return False

    def stopped() -> str:
        return stopped_message(time.perf_counter() - t0, extra=": no move was chosen")

    with bar, interruptible(stopped):
        return choose(tick)


def think_shown(game: Any, state: Any, think: dict[str, Any]) -> Any:
    """The program's answer (:func:`boardgames.core.engine.think`), shown as
    :func:`shown` shows it."""
    from boardgames.core.engine import think as engine_think

    depth = think.get("depth")
    label = f"Searching to depth {depth}" if depth is not None else "Thinking"
    seconds = None if depth is not None else think.get("seconds")
    return shown(lambda tick: engine_think(game, state, stop=tick, **think), label, seconds)


def legal_text(game: Any, state: Any, most: int = 12) -> str:
    """The legal moves in a few words: ``1 2 3 5 6 7``, ``1 1, 1 2, ... (24 moves)``."""
    texts = [game.format_move(m) for m in game.legal_moves(state)]
    sep = ", " if any(" " in t for t in texts) else " "
    if len(texts) <= most:
        return sep.join(texts)
    return f"{sep.join(texts[:most])}{sep}... ({len(texts)} moves)"


class RecordNotSaved(click.ClickException):
    """The game's record could not be written where it was asked for: status 1."""

    exit_code = 1


@dataclass
class Session:
    """One game in the terminal: a person (None) or a player on each side.

    The record is saved after every move; a record that cannot be written is said once
    on stderr and the game goes on, the record kept in memory and saved in the temporary
    folder at the end (status 1). ``step``: wait for Enter before each of a player's
    moves; else ``pause`` seconds between them (in a terminal)."""

    spec: GamePlugin
    game: Any
    start: Any
    sides: tuple[Any, Any]
    """Each side's player (:class:`boardgames.core.players.Player`), None for a person."""
    record: Path | None = None
    hints: Any = None
    """The player that gives hints (None: the first program side's, else ``strong``)."""
    labels: tuple[str, str] | None = None
    """The players' names in the record (None: ``human`` or ``program NAME``)."""
    before: Sequence[int] | None = ()
    """The moves that led to ``start`` (None: it was given otherwise): for the record."""
    step: bool = False
    pause: float = 0.0
    on_new: Callable[[Session], tuple[Any, Any] | None] | None = None
    """``new`` at a prompt: None restarts from ``start``; else this asks for a new setup
    (Nim's layout) and gives ``(game, start)``, or None to play on."""
    history: list[tuple[Any, int]] = field(default_factory=list)
    save_failed: bool = False
    save_error: str = ""
    unsaved: str | None = None

    def __post_init__(self) -> None:
        from boardgames.core.console import make_console

        self.state = self.start
        self.console = make_console()

    # --- words ------------------------------------------------------------------------
    @property
    def one_human(self) -> bool:
        return sum(side is None for side in self.sides) == 1

    def who(self, player: int) -> str:
        """``You``/``I`` when one person plays the program, else the player's name."""
        if self.one_human:
            return "You" if self.sides[player] is None else "I"
        return self.spec.player_names[player]

    def say(self, text: str, *, style: str | None = None) -> None:
        self.console.print(text, highlight=False, soft_wrap=True, markup=False, style=style)

    def show(self) -> None:
        self.console.print(self.game.render(self.state))

    def moves_text(self, state: Any, moves: Sequence[int]) -> str:
        """``3 then 5``; with the game's words for a move: ``1 2 (take 2 from row 1)``."""
        from boardgames.core.commentary import described

        words = []
        for move in moves:
            said = described(self.game, state, move)
            words.append(self.game.format_move(move) + (f" ({said})" if said else ""))
            state, _ = self.game.play(state, move)
        return " then ".join(words)

    # --- the record ---------------------------------------------------------------------
    def record_labels(self) -> tuple[str, str]:
        if self.labels is not None:
            return self.labels
        names = [HUMAN if side is None else f"program {side.name}" for side in self.sides]
        return names[0], names[1]

    def record_text(self) -> str:
        from boardgames.core.records import record_text

        moves = [m for _, m in self.history]
        return record_text(self.game, self.start, moves, self.record_labels(), self.before)

    def save(self) -> None:
        """Write the record (after every move); a failure is said once on stderr."""
        if self.record is None:
            return
        from boardgames.core.console import make_console
        from boardgames.core.files import write_atomic
        from boardgames.core.text import printable

        try:
            write_atomic(self.record, self.record_text().encode("utf-8"))
        except OSError as e:
            if not self.save_failed:
                make_console(stderr=True).print(
                    f"Cannot write the record to {printable(str(self.record))}: "
                    f"{e.strerror or e}; the game goes on, its record kept in memory.",
                    highlight=False, soft_wrap=True, markup=False,
                )  # fmt: skip
            self.save_failed = True
            self.save_error = str(e.strerror or e)
        else:
            self.save_failed = False

    def kept(self) -> str:
        """Where the record is, for the last line. If its file could not be written, it is
        saved in the temporary folder instead (or shown), and the command ends with
        status 1 (:class:`RecordNotSaved`)."""
        from boardgames.core.files import write_atomic
        from boardgames.core.records import own_format
        from boardgames.core.text import printable

        if self.record is None:
            return ""
        if not self.save_failed:
            return f"saved in {printable(str(self.record))}"
        own = own_format(self.game)
        suffix = own.suffix if own is not None else ".txt"
        fallback = Path(tempfile.gettempdir()) / (
            f"boardgames-game-{time.strftime('%Y%m%d-%H%M%S')}{suffix}"
        )
        text = self.record_text()
        try:
            write_atomic(fallback, text.encode("utf-8"))
            where = f"saved in {fallback} instead"
        except OSError:
            self.say(text)
            where = "shown above (it could be saved nowhere)"
        why = f"({self.save_error}); it is {where}"
        self.unsaved = f"the record could not be written to {self.record} {why}"
        return f"not saved in {printable(str(self.record))} {why}"

    # --- moves --------------------------------------------------------------------------
    def play_move(self, move: int) -> None:
        """Play ``move``, save the record, show the board and the game's remark."""
        from boardgames.core.commentary import remark

        before = self.state
        self.state, _ = self.game.play(self.state, move)
        self.history.append((before, move))
        self.save()
        self.show()
        said = remark(self.game, before, move, self.state)
        if said:
            self.say(said)

    def choose(self, player: Any, what: str) -> Any:
        """``player``'s answer for the side to move, shown while it thinks."""
        seconds = getattr(player, "seconds", None)
        return shown(lambda tick: player.choose(self.game, self.state, stop=tick), what, seconds)

    def answer_text(self, answer: Any) -> str:
        from boardgames.core.commentary import reason

        value, how = answer.value_text(), answer.how()
        if answer.exact and answer.note.startswith("exact"):  # "(exact: endgame tables)"
            value, how = f"{value} ({answer.note})", ""
        elif answer.exact and answer.engine != "random":
            value += " (exact)"
        late = "; it overran its time" if answer.overran else ""
        why = reason(self.game, self.state, answer.moves()[0]) if answer.moves() else None
        spent = f"{how}, {answer.seconds:.2f} s" if how else f"{answer.seconds:.2f} s"
        return (
            f"{self.moves_text(self.state, answer.moves())}"
            + (f". Why: {why}." if why else "")
            + f"   (value {value}; {spent}{late})"
        )

    def program_turn(self, player: int) -> None:
        from boardgames.core.console import ask

        side = self.sides[player]
        answer = self.choose(side, "Thinking")
        who = self.who(player)
        verb = "play" if who in ("I", "You") else "plays"
        self.say(f"{who} {verb} {self.answer_text(answer)}")
        for move in answer.moves():
            if self.game.outcome(self.state) is not None or self.game.to_move(self.state) != player:
                break
            if self.step:
                text = ask(
                    self.console,
                    f"Press Enter: {self.spec.player_names[player]} plays "
                    f"{self.game.format_move(move)} (q quits) ",
                )
                if text.strip().lower() in ("q", "quit", "exit"):
                    raise Quit
            elif self.pause > 0 and self.console.is_terminal:
                time.sleep(self.pause)
            self.play_move(move)

    def hint(self) -> None:
        from boardgames.core.players import find_player

        player = self.hints or next((s for s in self.sides if s is not None), None)
        if player is None:
            player = find_player(self.game, "strong")
        answer = self.choose(player, "Thinking")
        self.say(f"Hint: {self.answer_text(answer)}")

    def undo(self) -> bool:
        """Take back the last move a person made and the program's replies after it."""
        for i in range(len(self.history) - 1, -1, -1):
            before, _ = self.history[i]
            if self.sides[self.game.to_move(before)] is None:
                replied = any(
                    self.sides[self.game.to_move(b)] is not None for b, _ in self.history[i:]
                )
                self.state = before
                del self.history[i:]
                self.save()
                took = "your last move" if self.one_human else "the last move"
                if self.one_human and replied:
                    took += " and my reply"
                self.say(f"Took back {took}.")
                return True
        return False

    def human_turn(self, player: int) -> bool:
        """One move of a person (or a command); False when the person quits."""
        from boardgames.core.commentary import described
        from boardgames.core.console import ask
        from boardgames.core.protocol import GameError

        name = self.spec.player_names[player]
        while True:
            legal = legal_text(self.game, self.state)
            text = ask(self.console, f"{name} to move ({legal}), or hint / undo / new / quit: ")
            word = text.strip().lower()
            if not word:
                continue
            if word in ("q", "quit", "exit"):
                return False
            if word in ("n", "new"):
                if self.on_new is not None:
                    setup = self.on_new(self)
                    if setup is None:
                        continue
                    self.game, self.start = setup
                self.state, self.history = self.start, []
                self.save()
                self.say("A new game from the start position.")
                self.show()
                return True
            if word in ("h", "hint", "?"):
                self.hint()
                continue
            if word in ("u", "undo"):
                if not self.undo():
                    self.say("Nothing to undo yet.")
                    continue
                self.show()
                return True
            try:
                move = self.game.parse_move(text, self.state)
            except GameError as e:
                self.say(str(e), style="red")
                continue
            said = described(self.game, self.state, move)
            if said:  # the move in the game's words: "You play 1 2 (take 2 from row 1)."
                verb = "play" if self.who(player) in ("I", "You") else "plays"
                self.say(f"{self.who(player)} {verb} {self.moves_text(self.state, [move])}.")
            self.play_move(move)
            return True

    # --- the game -----------------------------------------------------------------------
    def winner(self) -> int | None:
        """The winner of the finished game (0 or 1), None for a draw."""
        result = self.game.outcome(self.state)
        if not result:
            return None
        mover = self.game.to_move(self.state)
        return mover if result > 0 else 1 - mover

    def run(self) -> int | None:
        """Play until the game ends or the person leaves. The winner (None: a draw or
        left); ``self.finished`` says which. Ctrl-C or the end of input ends the game with
        its record kept (Ctrl-C: the command's status is 130)."""
        from boardgames.core.commentary import result_text
        from boardgames.core.console import EndOfInput, make_console
        from boardgames.core.progress import Stopped

        self.finished = False
        self.save()
        self.show()
        try:
            while self.game.outcome(self.state) is None:
                player = self.game.to_move(self.state)
                if self.sides[player] is not None:
                    self.program_turn(player)
                elif not self.human_turn(player):
                    self.stopped()
                    return None
        except EndOfInput as e:
            self.say(str(e))
            self.stopped()
            return None
        except Quit:  # q at a program's "Press Enter": as quit at a person's prompt
            self.stopped()
            return None
        except (Stopped, KeyboardInterrupt) as e:
            # Ctrl-C: the record is kept; the command line's watch makes the status 130
            if isinstance(e, Stopped) and str(e):
                make_console(stderr=True).print(str(e), highlight=False, markup=False)
            self.stopped()
            return None
        self.finished = True
        winner = self.winner()
        self.say("Game over.")
        line = result_text(self.game, self.state, self.spec.player_names)
        if self.one_human and winner is not None:
            line += " You win!" if self.sides[winner] is None else " I win."
        kept = self.kept()
        if kept:
            self.say(f"The record is {kept}.")
        self.say(line)
        return winner

    def stopped(self) -> None:
        kept = self.kept()
        self.say("Game stopped." + (f" The record so far is {kept}." if kept else ""))


def side_player(game: Any, option: str, text: str, program: Any) -> Any:
    """``--first``/``--second``'s player: None for ``human``, ``program`` for the level's
    program, else any player :func:`~boardgames.core.players.find_player` knows."""
    from boardgames.core.players import find_player
    from boardgames.core.protocol import GameError

    word = text.strip().lower()
    if word == HUMAN:
        return None
    if word == PROGRAM:
        return program
    try:
        return find_player(game, text)
    except GameError as e:
        raise click.UsageError(f"{option}: {e}; or human, program") from None


def announce_compile(game: Any, sides: Sequence[Any]) -> None:
    """Say once on stderr when the game's compiled kernels are not ready on this machine
    and are being compiled in the background (the program plays meanwhile)."""
    from boardgames.core import warmup
    from boardgames.core.console import make_console
    from boardgames.core.registry import plugin_of

    compiled = [s for s in sides if s is not None and getattr(s, "uses_kernels", True)]
    if not compiled or plugin_of(game).kernels is None:
        return
    if warmup.is_ready(game.name) or not warmup.warm_in_background(game.name):
        return
    make_console(stderr=True).print(
        "(The fast engine is being compiled in the background, once per machine: until it "
        "is ready the program plays a shallower pure-Python search. 'boardgames cache warm' "
        "compiles ahead.)",
        highlight=False, soft_wrap=True, markup=False,
    )  # fmt: skip


def run_session(session: Session) -> None:
    """Run ``session`` and end as the record asks (status 1 when it could not be written
    where it was asked for)."""
    session.run()
    if session.unsaved is not None:
        raise RecordNotSaved(session.unsaved)


def play_feature(spec: GamePlugin) -> click.Command:
    """``boardgames play GAME``'s command for one game."""
    side_help = (
        "human; program (the program at --level, --time or --depth); or a player: random, "
        "easy, medium, strong, perfect, depth=N, time=S, or one of the game's own "
        "(boardgames games lists them)."
    )

    @click.command(
        name=spec.name, help=f"Play {spec.title} against the program, or watch two programs."
    )
    @click.option(
        "--first",
        default=HUMAN,
        show_default=True,
        metavar="PLAYER",
        help=f"Who plays {spec.player_names[0]!r} (the side that moves first): {side_help}",
    )
    @click.option(
        "--second",
        default=PROGRAM,
        show_default=True,
        metavar="PLAYER",
        help=f"Who plays {spec.player_names[1]!r}, the same way.",
    )
    @click.option(
        "--start",
        default="",
        metavar="POSITION",
        help="Start from this position, in the game's notation (a game with no position "
        "notation of its own: the moves from the start).",
    )
    @click.option(
        "--record",
        type=OUTPUT_FILE,
        default=None,
        help="Save the game's record to this file after every move.",
    )
    @click.option(
        "--step/--no-step",
        default=False,
        help="Wait for Enter before each move of a program.",
    )
    @level_options
    def command(
        first: str, second: str, start: str, record: Path | None, step: bool, level: str,
        seconds: float | None, depth: int | None, **options: Any,
    ) -> None:  # fmt: skip
        from boardgames.core.capabilities import PositionNotation, parse_moves, parse_position
        from boardgames.core.files import check_output

        check_output("--record", record)
        game = make_game(spec, options, start)
        state: Any = game.initial_state()
        before: list[int] | None = []
        if start.strip() and isinstance(game, PositionNotation):
            state, before = parse_position(game, start), None
        elif start.strip():
            state, before = parse_moves(game, start)
        program = program_player(game, level, seconds, depth)
        sides = (
            side_player(game, "--first", first, program),
            side_player(game, "--second", second, program),
        )
        session = Session(spec, game, state, sides, record, before=before, step=step)
        kinds = [HUMAN if s is None else s.name for s in sides]
        session.say(
            f"{spec.title}: {spec.player_names[0]} ({kinds[0]}) against "
            f"{spec.player_names[1]} ({kinds[1]})."
        )
        announce_compile(game, sides)
        run_session(session)

    return command


@click.group(cls=GameGroup, feature=play_feature)
def play() -> None:
    """Play any installed two-player game in the terminal, against the program or another
    person, or watch two programs ('--first program --second program').

    At a prompt: a move in the game's notation, 'hint', 'undo', 'new' or 'quit'. The
    program thinks for --level (or --time seconds, or exactly --depth plies); its values
    say 'exact' only when proven, and a won or lost value found by a depth-limited search
    is a bound ('win by at least 2'). A side may also be any player of the game
    (--second random, --second bouton for Nim, --second classic for Kalah).
    """
