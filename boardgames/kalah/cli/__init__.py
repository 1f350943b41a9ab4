"""``boardgames kalah``: play, replay, analyse and perft (RULES.md sections 1-3).

Imports no numba: the pure-Python program plays here until a faster engine takes over
behind boardgames.kalah.play.program.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape

from boardgames.cli import InputError, LazyGroup
from boardgames.core.console import EndOfInput, ask, file_name, make_console, print_json
from boardgames.core.protocol import GameError, State, score_bound, score_margin
from boardgames.kalah.eval import EVALUATION_HELP, EVALUATIONS
from boardgames.kalah.game import (
    MAX_PITS,
    MAX_SEEDS,
    MIN_PITS,
    MIN_SEEDS,
    PLAYER_NAMES,
    Kalah,
)
from boardgames.kalah.play.engine import DEFAULT_TIME, PRESETS, UNITS, EngineConfig, presets_help
from boardgames.kalah.play.program import (
    ENDGAME_STRATEGY,
    engine_for,
    program_compound,
    value_text,
)
from boardgames.kalah.record import DEFAULT_RECORD, Move, Record, RecordError, read_record, replay
from boardgames.kalah.rules import RULE_SETS

KALAH_COMMANDS: dict[str, tuple[str, str]] = {
    "match": ("boardgames.kalah.play.match:match", "Two program settings play a scored match."),
    "solve": ("boardgames.kalah.cli.solve:solve", "Exact value of a position under perfect play."),
    "review": ("boardgames.kalah.cli.solve:review", "Review a game record move by move."),
    "explain": (
        "boardgames.kalah.analysis.explain:explain",
        "Which program settings play a recorded game.",
    ),
}
"""Lazily loaded subcommands: name -> ("module:attribute", one-line help)."""

EVAL_HELP = "Evaluation at the search horizon: " + "; ".join(
    f"{name}: {text.rstrip('.')}" for name, text in EVALUATION_HELP.items()
)


@click.group(cls=LazyGroup, lazy=KALAH_COMMANDS)
def kalah() -> None:
    """Kalah (mancala): sow stones counter-clockwise, collect the most in your store.

    Classic rules (extra turn, capture opposite) or the Etudes rules (relay sowing, 2-or-3
    captures); any board of 1-12 pits a side with 1-20 stones a pit. Pits are numbered
    0..m-1 for A, m is A's store, m+1..2m for B, 2m+1 B's store (6 x 6: A 0-5, store 6,
    B 7-12, store 13).
    """


# --- shared options ---------------------------------------------------------------------


def _board_options(f: Callable[..., Any]) -> Callable[..., Any]:
    f = click.option(
        "--rules",
        type=click.Choice(RULE_SETS),
        default="classic",
        show_default=True,
        help="classic: extra turn and capture opposite; etudes: relay sowing, 2-or-3 captures.",
    )(f)
    f = click.option(
        "--seeds",
        type=int,
        default=6,
        show_default=True,
        help=f"Stones in each pit at the start ({MIN_SEEDS}-{MAX_SEEDS}).",
    )(f)
    return click.option(
        "--pits",
        type=int,
        default=6,
        show_default=True,
        help=f"Pits a side ({MIN_PITS}-{MAX_PITS}).",
    )(f)


def _search_options(f: Callable[..., Any]) -> Callable[..., Any]:
    f = click.option(
        "--ply",
        "unit",
        type=click.Choice(UNITS),
        default="compound",
        show_default=True,
        help="What --depth counts: compound moves (RULES.md) or single sowings.",
    )(f)
    f = click.option(
        "--eval",
        "evaluation",
        type=click.Choice(EVALUATIONS),
        default="tseitin",
        show_default=True,
        help=EVAL_HELP,
    )(f)
    f = click.option(
        "--time",
        "time_limit",
        type=click.FloatRange(0.01, 3600),
        default=None,
        help=f"Seconds the program may think a move (iterative deepening); default "
        f"{DEFAULT_TIME:g} s when --depth is not given either.",
    )(f)
    return click.option(
        "--depth",
        type=click.IntRange(1, 200),
        default=None,
        help="Program's search depth (see --ply); with --time too, whichever ends first.",
    )(f)


def _engine_config(
    depth: int | None, time_limit: float | None, evaluation: str, unit: str
) -> EngineConfig:
    try:
        return EngineConfig(depth=depth, time=time_limit, evaluation=evaluation, unit=unit)
    except GameError as e:
        raise click.UsageError(str(e)) from None


def _make_game(pits: int, seeds: int, rules: str, evaluation: str = "store") -> Kalah:
    try:
        return Kalah(pits, seeds, rules, evaluation)
    except GameError as e:
        raise click.UsageError(str(e)) from None


def _setup(pits: int, seeds: int) -> str:
    """'6 pits x 6 stones', singular where it should be."""
    return f"{pits} pit{'s' * (pits != 1)} x {seeds} stone{'s' * (seeds != 1)}"


def _player_text(kind: str, program: EngineConfig) -> str:
    return f"program ({program.describe()})" if kind == "program" else kind


def _score_text(game: Kalah, state: State) -> tuple[str, str]:
    """("A 32, B 40", "B wins by 8") for a finished game."""
    stores = game.final_stores(state)
    assert stores is not None
    a, b = stores
    if a == b:
        return f"A {a}, B {b}", "a draw"
    winner = "A" if a > b else "B"
    return f"A {a}, B {b}", f"{winner} wins by {abs(a - b)}"


def _group_pv(game: Kalah, state: State, pv: list[int]) -> list[tuple[int, list[int]]]:
    """The principal variation as compound moves: [(player, pits), ...]."""
    out: list[tuple[int, list[int]]] = []
    turn_open = False
    for move in pv:
        if game.outcome(state) is not None or move not in game.legal_moves(state):
            break
        player = game.to_move(state)
        if out and out[-1][0] == player and turn_open:
            out[-1][1].append(move)
        else:
            out.append((player, [move]))
        state, turn_open = game.play(state, move)
    return out


def _pv_text(groups: list[tuple[int, list[int]]]) -> str:
    return " | ".join(f"{PLAYER_NAMES[p]}: {' '.join(map(str, pits))}" for p, pits in groups)


# --- play -------------------------------------------------------------------------------


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
    history: list[_Snapshot] = field(default_factory=list)

    def __post_init__(self) -> None:
        players = (
            self.labels[0] or _player_text(self.kinds[0], self.program_of(0)),
            self.labels[1] or _player_text(self.kinds[1], self.program_of(1)),
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
        """Write the record; after a failure mid-game, warn once and play on."""
        try:
            self.record.save(self.record_path)
        except OSError as e:
            if not self.save_failed:
                self.save_failed = True
                self.console.print(
                    f"[red]Cannot write the record to {escape(str(self.record_path))}: "
                    f"{e.strerror or e}; the game goes on unrecorded.[/]"
                )

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
            f"[bold]Kalah[/] ({g.rules} rules, {_setup(g.pits, g.seeds)}). "
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
        if self.save_failed:
            self.console.print("Game stopped. The record could not be saved (see above).")
        else:
            self.console.print(
                f"Game stopped. The record so far is saved in {escape(str(self.record_path))}."
            )

    def finish(self) -> None:
        g = self.game
        self.console.print()
        self.console.print("[bold]Game over.[/] Final board:")
        self.show()
        scores, result = _score_text(g, self.state)
        stores = g.final_stores(self.state)
        assert stores is not None
        line = f"Final score: {scores}: {result}."
        if self.one_human and stores[0] != stores[1]:
            human = self.kinds.index("human")
            human_won = (stores[0] > stores[1]) == (human == 0)
            line += " [bold green]You win![/]" if human_won else " [bold]I win.[/]"
        self.console.print(line)
        if self.save_failed:
            self.console.print("The record could not be saved (see above).")
        else:
            self.console.print(
                f"Record saved in {escape(str(self.record_path))} "
                f"(replay it: boardgames kalah replay {escape(str(self.record_path))})."
            )

    def program_turn(self, player: int) -> None:
        program = self.program_of(player)
        with self.console.status("Thinking…"):
            t0 = time.perf_counter()
            pits, result = program_compound(self.game, self.state, program)
            seconds = time.perf_counter() - t0
        value = value_text(result.value, program.evaluation, result.exact)
        if result.strategy == ENDGAME_STRATEGY:
            value += " (exact: endgame tables)"
        elif result.exact:
            value += " (exact: solved)"
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
            pits, result = program_compound(self.game, self.state, self.program)
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
    from boardgames.kalah.play.match import describe_spec, parse_spec

    try:
        config = parse_spec(value)
        label = f"program {describe_spec(value)}" if word in PRESETS else None
    except GameError as e:
        raise click.UsageError(f"{option}: {e}; or human, program") from None
    return "program", config, label


@kalah.command(epilog=presets_help())
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
@_search_options
@_board_options
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
    game = _make_game(pits, seeds, rules, evaluation)
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
        _engine_config(depth, time_limit, evaluation, unit),
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
        # load (or, the first time on a machine, compile) the engines before the first move
        with session.console.status(
            "Loading the program (the first run on a machine compiles it, about half a minute)…"
        ):
            for player, kind in enumerate(kinds):
                if kind == "program":
                    engine_for(game, session.program_of(player))
    session.run()


# --- replay -----------------------------------------------------------------------------


@kalah.command(name="replay")
@click.argument(
    "file",
    type=click.Path(dir_okay=False),
    callback=file_name("lastgame.klh"),
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead.")
def replay_command(file: Path, as_json: bool) -> None:
    """Check a game record (.klh) move by move and show every position.

    A bad file is reported with its line number and the reason. A final score in the
    record is checked against the moves; its notes (such as the classic program's
    MAXLEVEL line) are shown.
    """
    try:
        record = read_record(file)
        steps, final_state = replay(record)
    except RecordError as e:
        raise InputError(f"{file}: {e}") from None
    game = record.game
    stores = game.final_stores(final_state)
    if as_json:
        obj: dict[str, Any] = {
            "rules": game.rules,
            "pits": game.pits,
            "seeds": game.seeds,
            "first": PLAYER_NAMES[record.first],
            "moves": [
                {
                    "player": PLAYER_NAMES[s.player],
                    "pits": list(s.pits),
                    "board": game.board(s.state),
                }
                for s in steps
            ],
        }
        if stores is not None:
            obj["final"] = {"A": stores[0], "B": stores[1]}
            obj["winner"] = (
                "draw" if stores[0] == stores[1] else ("A" if stores[0] > stores[1] else "B")
            )
        if record.notes:
            obj["notes"] = record.notes
        print_json(obj)
        return
    console = make_console()
    console.print(
        f"[bold]{escape(str(file))}[/]: {game.rules} rules, "
        f"{_setup(game.pits, game.seeds)}; "
        f"A: {escape(record.players[0])}, B: {escape(record.players[1])}; "
        f"{PLAYER_NAMES[record.first]} moved first; {len(steps)} compound moves."
    )
    for note in record.notes:
        console.print(f"Note: {escape(note)}")
    console.print()
    console.print(game.render(game.initial_state(record.first)))
    number = 0
    for k, s in enumerate(steps):
        if k == 0 or s.player == 0:
            number += 1
        console.print(f"\n{number}) {PLAYER_NAMES[s.player]}: {' '.join(map(str, s.pits))}")
        console.print(game.render(s.state))
    console.print()
    if stores is not None:
        scores, result = _score_text(game, final_state)
        agrees = " (as the record's final line says)" if record.final is not None else ""
        console.print(f"Game over. Final score: {scores}: {result}{agrees}.")
    else:
        console.print(
            f"The record ends before the game does; {PLAYER_NAMES[game.to_move(final_state)]} "
            "to move."
        )


# --- perft ------------------------------------------------------------------------------


def perft(game: Kalah, state: State, depth: int, compound: bool = False) -> int:
    """Move sequences of exactly ``depth`` single sowings (or compound moves) from ``state``.

    A finished game has no moves, so a line that ends early counts nothing.
    """
    if depth == 0:
        return 1
    if compound:
        return sum(perft(game, child, depth - 1, True) for _, child in game.compound_moves(state))
    return sum(perft(game, game.play(state, mv)[0], depth - 1) for mv in game.legal_moves(state))


PERFT_PROBE_SECONDS = 0.05
"""The first plies are counted exactly until one takes this long; the estimate of a
deeper count follows from their last branching factor and speed."""
PERFT_SPLIT = 100
"""A deep count is split into the subtrees of the first ply with at least this many
positions (progress is measured in finished subtrees)."""


def _perft_children(game: Kalah, state: State, compound: bool) -> list[State]:
    if compound:
        return [child for _, child in game.compound_moves(state)]
    return [game.play(state, mv)[0] for mv in game.legal_moves(state)]


@dataclass
class PerftProbe:
    """Exact counts of the first plies and what they predict for ``depth``."""

    counts: list[int]  # counts[d]: sequences of d moves, d = 0..len - 1
    seconds: float  # the time the last of them took
    depth: int

    @property
    def branching(self) -> float:
        """The last ply's growth factor (sequences of d moves per sequence of d - 1)."""
        k = len(self.counts) - 1
        return self.counts[k] / self.counts[k - 1] if k >= 1 and self.counts[k - 1] else 0.0

    @property
    def sequences(self) -> float:
        """Estimated sequences of ``depth`` moves."""
        k = len(self.counts) - 1
        return self.counts[k] * self.branching ** (self.depth - k)

    @property
    def estimate(self) -> float:
        """Estimated seconds for the full count, at the speed of the last probe."""
        k = len(self.counts) - 1
        rate = self.counts[k] / max(self.seconds, 1e-6)
        return self.sequences / max(rate, 1e-9)


def perft_probe(game: Kalah, state: State, depth: int, compound: bool = False) -> PerftProbe:
    """Count plies 1, 2, ... exactly until one takes :data:`PERFT_PROBE_SECONDS` (or
    ``depth`` is reached, then the last count is the answer)."""
    counts = [1]
    seconds = 0.0
    for d in range(1, depth + 1):
        t = time.perf_counter()
        counts.append(perft(game, state, d, compound))
        seconds = time.perf_counter() - t
        if seconds >= PERFT_PROBE_SECONDS or counts[-1] == 0:
            break
    return PerftProbe(counts, seconds, depth)


@kalah.command(name="perft")
@click.option(
    "--depth", type=click.IntRange(0, 30), required=True, help="Moves in each sequence (0-30)."
)
@_board_options
@click.option("--compound", is_flag=True, help="Count compound moves instead of single sowings.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead.")
def perft_command(
    depth: int, pits: int, seeds: int, rules: str, compound: bool, as_json: bool
) -> None:
    """Count the move sequences of exactly DEPTH moves from the start (A to move).

    The standard check of a move generator: compare the counts with another program's.
    A finished game has no moves. Pure Python: each extra depth costs about 5-7 times more.
    A count that takes more than a few seconds says first how long it should take (from
    the branching factor of the first plies) and shows its progress on stderr; Ctrl-C
    stops it (status 130).
    """
    from boardgames.core.progress import (
        Progress,
        Stopped,
        exit_stopped,
        format_count,
        format_duration,
        interruptible,
        stopped_message,
    )

    game = _make_game(pits, seeds, rules)
    unit = "compound moves" if compound else "single sowings"
    err = make_console(stderr=True)
    start = game.initial_state()
    t0 = time.perf_counter()
    done = [0, 0]  # subtrees finished, sequences counted in them
    subtrees: list[State] = []

    def stopped() -> str:
        if not subtrees:
            return stopped_message(time.perf_counter() - t0)
        return stopped_message(
            time.perf_counter() - t0,
            done[0],
            len(subtrees),
            "subtrees",
            f" ({done[1]:,} sequences counted in them)",
        )

    try:
        with interruptible(stopped):
            probe = perft_probe(game, start, depth, compound)
            k = len(probe.counts) - 1
            if k == depth or probe.counts[k] == 0:
                nodes = probe.counts[k] if k == depth else 0
            else:
                if probe.estimate > 2:
                    beyond = " (more than a day)" if probe.estimate > 86400 else ""
                    err.print(
                        f"perft {depth}: about {format_count(probe.sequences)} sequences "
                        f"(branching factor {probe.branching:.2f} at ply {k}); at "
                        f"{probe.counts[k] / max(probe.seconds, 1e-6):,.0f} a second that "
                        f"takes about {format_duration(probe.estimate)}{beyond}. Ctrl-C stops.",
                        highlight=False,
                        soft_wrap=True,
                    )
                split = next(d for d, c in enumerate(probe.counts) if c >= PERFT_SPLIT or d == k)
                subtrees.append(start)
                for _ in range(split):
                    subtrees[:] = [c for s in subtrees for c in _perft_children(game, s, compound)]
                with Progress(
                    f"perft {depth}",
                    len(subtrees),
                    "subtrees",
                    console=err,
                    estimate=probe.estimate,
                    warn_after=None,  # said above
                ) as bar:
                    for state in subtrees:
                        done[1] += perft(game, state, depth - split, compound)
                        done[0] += 1
                        bar.update(done[0], detail=f"{done[1]:,} sequences")
                nodes = done[1]
    except Stopped as e:
        exit_stopped(e, err)
    seconds = time.perf_counter() - t0
    if as_json:
        print_json(
            {
                "depth": depth,
                "nodes": nodes,
                "compound": compound,
                "rules": rules,
                "pits": pits,
                "seeds": seeds,
            }
        )
        return
    make_console().print(
        f"perft {depth} ({rules}, {_setup(pits, seeds)}, {unit}): "
        f"[bold]{nodes:,}[/] sequences ({seconds:.2f} s)"
    )


# --- analyse ----------------------------------------------------------------------------


def parse_board(text: str) -> list[int]:
    """Hole counts from ``"6 6 6 6 6 6 0 6 6 6 6 6 6 0"`` (commas allowed; digits 0-9:
    ``int()`` would also read '٣', RULES.md writes 0-9)."""
    words = text.replace(",", " ").split()
    bad = next((w for w in words if not (w.isascii() and w.isdigit())), "")
    if not words or bad:
        shown = repr(bad) if len(bad) <= 24 else f"{bad[:24]!r}... ({len(bad):,} characters)"
        what = f"{shown} is not a stone count; " if bad else ""
        raise GameError(
            f"{what}give the board as 2m+2 whole numbers, pits 0..2m+1 in RULES.md order, "
            "e.g. '6 6 6 6 6 6 0 6 6 6 6 6 6 0'"
        )
    # Python refuses to convert more than 4300 digits; 7 are already beyond any board
    huge = next((w for w in words if len(w) > 6), None)
    if huge is not None:
        shown = huge if len(huge) <= 24 else f"{huge[:24]}... ({len(huge):,} digits)"
        raise GameError(f"{shown} stones in one hole are far more than any board holds")
    n = len(words)
    if n % 2 or not 2 * MIN_PITS + 2 <= n <= 2 * MAX_PITS + 2:
        raise GameError(
            f"a board has 2m+2 holes for m = {MIN_PITS}..{MAX_PITS} pits a side "
            f"(4, 6, ..., {2 * MAX_PITS + 2} numbers), got {n}"
        )
    return [int(w) for w in words]


@kalah.command()
@click.option(
    "--board",
    required=True,
    help="All holes in RULES.md order: A's pits, A's store, B's pits, B's store.",
)
@click.option(
    "--to-move",
    type=click.Choice(["a", "b"], case_sensitive=False),
    default="a",
    show_default=True,
    help="Side to move.",
)
@_search_options
@click.option(
    "--rules", type=click.Choice(RULE_SETS), default="classic", show_default=True, help="Rules."
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead.")
def analyse(
    board: str,
    to_move: str,
    depth: int | None,
    time_limit: float | None,
    evaluation: str,
    unit: str,
    rules: str,
    as_json: bool,
) -> None:
    """Best compound move in a position, its value and the principal variation.

    The number of pits a side follows from the board's length (2m+2 numbers). Values are
    from the side to move's view; a proven result reads "win by N in K plies".
    """
    try:
        holes = parse_board(board)
        game = Kalah((len(holes) - 2) // 2, 1, rules, evaluation)
        state = game.make_state(holes, 0 if to_move.lower() == "a" else 1)
    except GameError as e:
        raise click.UsageError(f"--board: {e}") from None
    player = game.to_move(state)
    stores = game.final_stores(state)
    if stores is not None:
        if as_json:
            print_json(
                {
                    "board": holes,
                    "to_move": PLAYER_NAMES[player],
                    "over": True,
                    "final": {"A": stores[0], "B": stores[1]},
                }
            )
            return
        console = make_console()
        console.print(game.render(state))
        scores, verdict = _score_text(game, state)
        console.print(f"The game is over: {scores}: {verdict}.")
        return
    config = _engine_config(depth, time_limit, evaluation, unit)
    console = make_console(stderr=as_json)
    with console.status("Loading the program (compiled on a machine's first run)…"):
        engine_for(game, config)
    t0 = time.perf_counter()
    with console.status("Thinking…"):
        pits, result = program_compound(game, state, config)
    seconds = time.perf_counter() - t0
    groups = _group_pv(game, state, result.pv)
    if as_json:
        print_json(
            {
                "board": holes,
                "to_move": PLAYER_NAMES[player],
                "over": False,
                "depth": result.depth,
                "unit": unit,
                "eval": evaluation,
                "rules": rules,
                "best": list(pits),
                "value": result.value,
                "value_text": value_text(result.value, evaluation, result.exact),
                "exact": result.exact,
                "bound": score_bound(result.value, result.exact),
                "margin": score_margin(result.value),
                "endgame_table": result.strategy == ENDGAME_STRATEGY,
                "pv": [{"player": PLAYER_NAMES[p], "pits": ps} for p, ps in groups],
                "nodes": result.nodes,
                "seconds": round(seconds, 3),
            }
        )
        return
    console.print(game.render(state))
    console.print(
        f"Best compound move for {PLAYER_NAMES[player]}: [bold]{' '.join(map(str, pits))}[/]"
    )
    if result.strategy == ENDGAME_STRATEGY:
        how = "exact, from the endgame tables"
    elif result.exact:
        how = f"exact: the solver settled it after a depth-{result.depth} search"
    else:
        how = (
            f"depth {result.depth} {'compound moves' if unit == 'compound' else 'sowings'}, "
            f"eval {evaluation}, {config.strategy}"
        )
    value = value_text(result.value, evaluation, result.exact)
    console.print(f"Value {value} for {PLAYER_NAMES[player]} ({how})")
    console.print(f"Principal variation: {_pv_text(groups)}")
    if result.strategy == ENDGAME_STRATEGY:
        console.print(f"[dim]looked up in the endgame tables in {seconds:.2f} s[/]")
    else:
        console.print(f"[dim]{result.nodes:,} positions in {seconds:.2f} s[/]")
