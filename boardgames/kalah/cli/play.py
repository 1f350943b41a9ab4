"""``boardgames kalah play``: a game through the terminal, human or program on each side."""

from __future__ import annotations

import copy
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape

from boardgames.core import warmup
from boardgames.core.console import EndOfInput, ask, file_name, make_console
from boardgames.core.protocol import GameError, SearchResult, State
from boardgames.core.text import printable
from boardgames.kalah.cli.options import (
    board_options,
    engine_config,
    make_game,
    player_text,
    score_text,
    search_options,
    setup_text,
)
from boardgames.kalah.game import (
    PLAYER_NAMES,
    Kalah,
)
from boardgames.kalah.play.engine import PRESETS, EngineConfig, presets_help
from boardgames.kalah.play.match import describe_spec, parse_spec
from boardgames.kalah.play.program import (
    ENDGAME_STRATEGY,
    engine_for,
    program_compound,
    reference_within,
    value_text,
)
from boardgames.kalah.play.warm import program_ready
from boardgames.kalah.record import DEFAULT_RECORD, Move, Record


class RecordNotSaved(click.ClickException):
    """The game's record could not be written where it was asked for: status 1."""

    exit_code = 1


@dataclass
class _Snapshot:
    state: State
    moves: list[Move]
    turn_open: bool


@dataclass
class KalahPlay:
    """One game through the terminal; the record is saved after every sowing."""

    console: Console
    game: Kalah
    kinds: tuple[str, str]
    first: int
    program: EngineConfig
    record_path: Path
    step: bool
    pause: float
    programs: tuple[EngineConfig | None, EngineConfig | None] = (None, None)
    """Each side's program (None: ``program``, which also gives the hints)."""
    labels: tuple[str | None, str | None] = (None, None)
    """Each side's name in the record (None: ``program (settings)`` or ``human``)."""
    record: Record = field(init=False)
    state: State = field(init=False)
    turn_open: bool = False
    announced: bool = False
    save_failed: bool = False
    save_error: str = ""
    unsaved: str | None = None
    """Set at the end when the record could not be written where it was asked for."""
    history: list[_Snapshot] = field(default_factory=list)
    engine_ready: bool = True
    """False while the compiled engine is being prepared in the background: the program
    then plays the pure-Python reference search (:func:`reference_within`)."""

    def __post_init__(self) -> None:
        players = (
            self.labels[0] or player_text(self.kinds[0], self.program_of(0)),
            self.labels[1] or player_text(self.kinds[1], self.program_of(1)),
        )
        self.record = Record(self.game, self.first, players)
        self.state = self.game.initial_state(self.first)

    def program_of(self, player: int) -> EngineConfig:
        """The program that plays ``player`` (when a program plays that side)."""
        return self.programs[player] or self.program

    # naming: with exactly one human, the program speaks as "I" and the human is "you"
    @property
    def one_human(self) -> bool:
        return self.kinds.count("human") == 1

    def who(self, player: int) -> str:
        if self.one_human:
            return "You" if self.kinds[player] == "human" else "I"
        return PLAYER_NAMES[player]

    def save(self) -> None:
        """Write the record after every sowing. A failure is said once on stderr and the
        game goes on, the record kept in memory; every later sowing tries again, and
        :meth:`keep` saves it elsewhere at the end if the file stays unwritable."""
        try:
            self.record.save(self.record_path)
        except OSError as e:
            if not self.save_failed:
                make_console(stderr=True).print(
                    f"Cannot write the record to {escape(printable(str(self.record_path)))}: "
                    f"{e.strerror or e}; the game goes on, its record kept in memory.",
                    highlight=False,
                    soft_wrap=True,
                )
            self.save_failed = True
            self.save_error = str(e.strerror or e)
        else:
            self.save_failed = False

    def keep(self) -> str:
        """At the end: where the record is. If its file could not be written, it is saved
        in the temporary folder instead (or, failing that too, shown here), and the
        command then ends with status 1 (:class:`RecordNotSaved`)."""
        if not self.save_failed:
            return f"saved in {escape(printable(str(self.record_path)))}"
        fallback = (
            Path(tempfile.gettempdir()) / f"boardgames-game-{time.strftime('%Y%m%d-%H%M%S')}.klh"
        )
        try:
            self.record.save(fallback)
            where = f"saved in {fallback} instead"
        except OSError:
            self.console.print(self.record.text(), markup=False, highlight=False)
            where = "shown above (it could be saved nowhere)"
        why = f"({self.save_error}); it is {where}"
        self.unsaved = f"the record could not be written to {self.record_path} {why}"
        return f"not saved in {escape(printable(str(self.record_path)))} {why}"

    def show(self, highlight: int | None = None) -> None:
        self.console.print(self.game.render(self.state, highlight))

    def sow(self, pit: int) -> bool:
        """Play one sowing, note it in the record, save; True when the same player goes on."""
        player = self.game.to_move(self.state)
        self.state, again = self.game.play(self.state, pit)
        moves = self.record.moves
        if moves and self.turn_open and moves[-1].player == player:
            moves[-1].pits = (*moves[-1].pits, pit)
        else:
            moves.append(Move(player, (pit,)))
        self.turn_open = again
        self.save()
        return again

    def run(self) -> None:
        g = self.game
        self.save()
        sides = [
            kind if self.programs[i] is None else self.record.players[i]
            for i, kind in enumerate(self.kinds)
        ]
        self.console.print(
            f"[bold]Kalah[/] ({g.rules} rules, {setup_text(g.pits, g.seeds)}). "
            f"A: {escape(sides[0])}, B: {escape(sides[1])}; "
            f"{PLAYER_NAMES[self.first]} moves first."
        )
        self.console.print(
            f"The record is saved in {escape(str(self.record_path))} as the game goes"
            " (replacing what was there; --record PATH keeps another file)."
        )
        if "human" in self.kinds:
            self.console.print(
                "Type a pit number to sow it, or hint, undo, quit. "
                "A sows from the bottom row (left to right), B from the top row."
            )
        self.console.print()
        self.show()
        try:
            while g.outcome(self.state) is None:
                player = g.to_move(self.state)
                if self.kinds[player] == "program":
                    self.program_turn(player)
                elif not self.human_turn(player):
                    self.stopped()
                    return
        except (EndOfInput, KeyboardInterrupt):
            self.stopped()
            return
        self.finish()

    def stopped(self) -> None:
        self.console.print(f"Game stopped. The record so far is {self.keep()}.")

    def finish(self) -> None:
        g = self.game
        self.console.print()
        self.console.print("[bold]Game over.[/] Final board:")
        self.show()
        scores, result = score_text(g, self.state)
        stores = g.final_stores(self.state)
        assert stores is not None
        line = f"Final score: {scores}: {result}."
        if self.one_human and stores[0] != stores[1]:
            human = self.kinds.index("human")
            human_won = (stores[0] > stores[1]) == (human == 0)
            line += " [bold green]You win![/]" if human_won else " [bold]I win.[/]"
        self.console.print(line)
        if self.save_failed:
            self.console.print(f"The record is {self.keep()}.")
        else:
            self.console.print(
                f"Record saved in {escape(str(self.record_path))} "
                f"(replay it: boardgames kalah replay {escape(str(self.record_path))})."
            )

    def load_engines(self) -> None:
        """Load (or, the first time on a machine, compile) the programs' engines."""
        with self.console.status(
            "Loading the program (the first run on a machine compiles it, about half a minute)…"
        ):
            for player, kind in enumerate(self.kinds):
                if kind == "program":
                    engine_for(self.game, self.program_of(player))
        self.engine_ready = True

    def _program_ready(self) -> bool:
        """The default program's kernels are compiled (the whole group, or the program's
        own step of the background compile); another strategy waits for the group."""
        programs = [self.program_of(p) for p, kind in enumerate(self.kinds) if kind == "program"]
        if all(c.strategy == EngineConfig.strategy for c in programs):
            return program_ready(self.game.rules)
        return warmup.is_ready("kalah")

    def think(self, program: EngineConfig) -> tuple[tuple[int, ...], SearchResult]:
        """The program's compound move: the engine's, or the reference search's while the
        engine is being prepared (switching to the engine as soon as it is compiled)."""
        if not self.engine_ready and self._program_ready():
            self.load_engines()  # from the cache the background process filled: a second
        if self.engine_ready:
            return program_compound(self.game, self.state, program)
        return reference_within(self.game, self.state, program)

    def program_turn(self, player: int) -> None:
        program = self.program_of(player)
        with self.console.status("Thinking…"):
            t0 = time.perf_counter()
            pits, result = self.think(program)
            seconds = time.perf_counter() - t0
        value = value_text(result.value, program.evaluation, result.exact)
        if result.strategy == ENDGAME_STRATEGY:
            value += " (exact: endgame tables)"
        elif result.exact:
            value += " (exact: solved)"
        elif result.strategy == "reference":
            value += f", reference search at depth {result.depth} while the fast engine loads"
        subject = "I move" if self.one_human else f"{PLAYER_NAMES[player]} moves"
        self.console.print(
            f"{subject} from [bold]{' '.join(map(str, pits))}[/]   "
            f"[dim](value {value}, {result.nodes:,} positions, {seconds:.2f} s)[/]"
        )
        for pit in pits:
            if self.step:
                answer = ask(
                    self.console, f"Press Enter: {PLAYER_NAMES[player]} sows {pit} (q quits) "
                )
                if answer.strip().lower() in ("q", "quit", "exit"):
                    raise EndOfInput
            elif self.pause > 0 and self.console.is_terminal:
                time.sleep(self.pause)
            self.sow(pit)
            self.console.print(f"{self.sows(player)} {pit}:")
            self.show(highlight=pit)
            self.announce()

    def sows(self, player: int) -> str:
        """ "I sow", "You sow" or "A sows"."""
        who = self.who(player)
        return f"{who} sow" if who in ("I", "You") else f"{who} sows"

    def announce(self) -> None:
        """Say once when a store holds more than half of all stones (RULES.md 1.5)."""
        if self.announced or self.game.outcome(self.state) is not None:
            return
        b = self.game.board(self.state)
        m, total = self.game.pits, sum(b)
        for player, store in ((0, b[m]), (1, b[2 * m + 1])):
            if 2 * store > total:
                self.announced = True
                who = self.who(player)
                have = "have" if who in ("I", "You") else "has"
                self.console.print(
                    f"{who} {have} more than half of the stones ({store} of {total}) "
                    "and can no longer lose; playing on for the score."
                )

    def human_turn(self, player: int) -> bool:
        """Ask for one sowing (or a command); False when the person quits."""
        g = self.game
        own = g.pit_range(player)
        who = "Your" if self.one_human else f"{PLAYER_NAMES[player]}'s"
        again = " (extra turn)" if self.turn_open and self.record.moves[-1].player == player else ""
        while True:
            text = ask(
                self.console,
                f"{who} move{again}: pit {own[0]}-{own[-1]}, or hint / undo / quit: ",
            ).strip()
            word = text.lower()
            if not word:
                continue
            if word in ("quit", "q", "exit"):
                return False
            if word in ("hint", "h", "?"):
                self.hint()
                continue
            if word in ("undo", "u"):
                self.undo()
                return True
            try:
                pit = g.parse_move(text, self.state)
            except GameError as e:
                self.console.print(f"[red]{e}[/]")
                continue
            break
        self.history.append(_Snapshot(self.state, copy.deepcopy(self.record.moves), self.turn_open))
        if self.sow(pit):
            self.console.print(f"{self.sows(player)} {pit}: last stone in the store.")
            if g.outcome(self.state) is None:
                self.show(highlight=pit)
                self.console.print(
                    f"{'You move' if self.one_human else PLAYER_NAMES[player] + ' moves'} again."
                )
        else:
            self.console.print(f"{self.sows(player)} {pit}:")
            self.show(highlight=pit)
        self.announce()
        return True

    def hint(self) -> None:
        with self.console.status("Thinking…"):
            pits, result = self.think(self.program)
        if result.strategy == ENDGAME_STRATEGY:
            how = "exact, from the endgame tables"
        elif result.exact:
            how = "exact, solved"
        else:
            how = f"at depth {result.depth}"
        self.console.print(
            f"Hint: sow {' then '.join(map(str, pits))} "
            f"(value {value_text(result.value, self.program.evaluation, result.exact)} {how})."
        )

    def undo(self) -> None:
        if not self.history:
            self.console.print("Nothing to undo yet.")
            return
        snap = self.history.pop()
        later = self.record.moves[len(snap.moves) :]
        replied = any(self.kinds[move.player] == "program" for move in later)
        self.state, self.turn_open = snap.state, snap.turn_open
        self.announced = False
        self.record.moves = snap.moves
        self.save()
        took = "your last sowing" if self.one_human else "the last sowing"
        if self.one_human and replied:
            took += " and my reply"
        self.console.print(f"Took back {took}.")
        self.show()


PLAYER_HELP = (
    "human; program (the program --depth/--time/--eval/--ply set, the default one "
    "without them); a preset ({presets}); or a program spec as kalah match takes it, "
    "e.g. depth=5,eval=store,strategy=alphabeta (keys: kalah match --help)."
)


def _side(option: str, value: str) -> tuple[str, EngineConfig | None, str | None]:
    """``--a``/``--b``: (kind, the side's own program or None, its name in the record)."""
    word = value.strip().lower()
    if word in ("human", "program"):
        return word, None, None

    try:
        config = parse_spec(value)
        label = f"program {describe_spec(value)}" if word in PRESETS else None
    except GameError as e:
        raise click.UsageError(f"{option}: {e}; or human, program") from None
    return "program", config, label


@click.command(epilog=presets_help())
@click.option(
    "--a",
    "player_a",
    default="human",
    show_default=True,
    help="Who plays A (bottom row): " + PLAYER_HELP.format(presets=", ".join(PRESETS)),
)
@click.option(
    "--b",
    "player_b",
    default="program",
    show_default=True,
    help="Who plays B (top row), the same way.",
)
@click.option(
    "--first",
    type=click.Choice(["a", "b"], case_sensitive=False),
    default="a",
    show_default=True,
    help="Who moves first.",
)
@search_options
@board_options
@click.option(
    "--record",
    "record_path",
    type=click.Path(dir_okay=False),
    callback=file_name("--record game.klh"),
    default=DEFAULT_RECORD,
    show_default=True,
    help="Where the game record is written (after every sowing).",
)
@click.option(
    "--step/--no-step",
    default=None,
    help="Wait for Enter before each single sowing of the program's compound move, as the "
    "classic program did (q quits), or run straight through. Default: step when two "
    "programs play, not against a person.",
)
@click.option(
    "--pause",
    type=click.FloatRange(0, 10),
    default=0.5,
    show_default=True,
    help="Seconds between the program's sowings when not stepping (terminal only).",
)
def play(
    player_a: str,
    player_b: str,
    first: str,
    depth: int | None,
    time_limit: float | None,
    evaluation: str,
    unit: str,
    pits: int,
    seeds: int,
    rules: str,
    record_path: Path,
    step: bool | None,
    pause: float,
) -> None:
    """Play a game: human against the program (default), two humans, or two programs.

    Type a pit number to sow it (you are asked again after an extra turn), `hint` for the
    program's advice, `undo` to take back your last sowing, `quit` to stop. The record is
    saved as the game goes, so Ctrl-C or end of input loses nothing.

    The program is the numba engine: MTD(f) with iterative deepening for --time seconds a
    move (default 0.7 s), or to --depth. A side can have its own program instead: a
    preset (--b classic: the 1980s program this toolkit descends from) or a spec as
    kalah match takes it (--b depth=5,eval=store,strategy=alphabeta). A program with
    prove=0 or a node budget plays by its search alone (no solver, no endgame tables).
    """
    game = make_game(pits, seeds, rules, evaluation)
    (kind_a, program_a, label_a), (kind_b, program_b, label_b) = (
        _side("--a", player_a),
        _side("--b", player_b),
    )
    kinds = (kind_a, kind_b)
    session = KalahPlay(
        make_console(),
        game,
        kinds,
        0 if first.lower() == "a" else 1,
        engine_config(depth, time_limit, evaluation, unit),
        record_path,
        "human" not in kinds if step is None else step,
        pause,
        (program_a, program_b),
        (label_a, label_b),
    )
    try:
        session.record.save(record_path)
    except OSError as e:
        raise click.UsageError(
            f"--record: cannot write the record to {record_path}: {e.strerror or e}"
        ) from None
    if "program" in kinds:
        if not warmup.is_ready("kalah") and warmup.warm_in_background("kalah"):
            # a fresh machine: play at once, compile in another process meanwhile
            session.engine_ready = False
            make_console(stderr=True).print(
                "(The fast engine is being compiled in the background, once per machine: "
                "until it is ready the program plays a shallower pure-Python search. "
                "'boardgames cache warm' compiles ahead.)",
                highlight=False,
                soft_wrap=True,
            )
        else:
            session.load_engines()  # before the first move
    session.run()
    if session.unsaved is not None:
        raise RecordNotSaved(session.unsaved)
