"""``boardgames kalah play``: Kalah through the terminal, a person or a program on each
side. It is the generic play loop (:class:`boardgames.cli.play.Session`) with Kalah's own
options: ``--a``/``--b`` take ``kalah match``'s program specs and presets, ``--first``
says who starts, the search options set the program, and the record is a ``.klh`` file."""

from __future__ import annotations

from pathlib import Path

import click

from boardgames.cli.play import HUMAN, PROGRAM, Session, announce_compile, run_session, side_player
from boardgames.core.console import file_name
from boardgames.core.files import write_atomic
from boardgames.core.players import players
from boardgames.core.protocol import GameError
from boardgames.core.registry import plugin
from boardgames.kalah.cli.options import (
    board_options,
    engine_config,
    make_game,
    player_text,
    search_options,
    setup_text,
)
from boardgames.kalah.game import PLAYER_NAMES, Kalah
from boardgames.kalah.play.engine import PRESETS, presets_help
from boardgames.kalah.play.match import describe_spec, parse_spec
from boardgames.kalah.players import KalahProgram
from boardgames.kalah.record import DEFAULT_RECORD

PLAYER_HELP = (
    "human; program (the program --depth/--time/--eval/--ply set, the default one "
    "without them); a preset ({presets}); or a program spec as kalah match takes it, "
    "e.g. depth=5,eval=store,strategy=alphabeta (keys: kalah match --help)."
)


def _side(game: Kalah, option: str, value: str, program: KalahProgram) -> tuple[object, str]:
    """``--a``/``--b``: the side's player (None: a person) and its name in the record."""
    word = value.strip().lower()
    if word == HUMAN:
        return None, HUMAN
    if word == PROGRAM:
        return program, player_text(PROGRAM, program.config)
    if word in players(game) and word not in PRESETS:  # random, strong, perfect, ...
        player = side_player(game, option, value, program)
        return player, f"program {player.name}"
    try:
        config = parse_spec(value)
    except GameError as e:
        raise click.UsageError(f"{option}: {e}; or human, program, random, a level") from None
    if word in PRESETS:
        return KalahProgram(config, word), f"program {describe_spec(value)}"
    return KalahProgram(config, value), player_text(PROGRAM, config)


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
    program's advice, `undo` to take back your last sowing, `new` to start again, `quit`
    to stop. The record is saved as the game goes, so Ctrl-C or end of input loses
    nothing.

    The program is the numba engine: MTD(f) with iterative deepening for --time seconds a
    move (default 0.7 s), or to --depth. A side can have its own program instead: a
    preset (--b classic: the 1980s program this toolkit descends from) or a spec as
    kalah match takes it (--b depth=5,eval=store,strategy=alphabeta). A program with
    prove=0 or a node budget plays by its search alone (no solver, no endgame tables).
    """
    game = make_game(pits, seeds, rules, evaluation)
    program = KalahProgram(engine_config(depth, time_limit, evaluation, unit))
    (side_a, label_a), (side_b, label_b) = (
        _side(game, "--a", player_a, program),
        _side(game, "--b", player_b, program),
    )
    sides = (side_a, side_b)
    session = Session(
        plugin("kalah"),
        game,
        game.initial_state(0 if first.lower() == "a" else 1),
        sides,
        Path(record_path),
        hints=program,
        labels=(label_a, label_b),
        step=all(side is not None for side in sides) if step is None else step,
        pause=pause,
    )
    try:
        write_atomic(record_path, session.record_text().encode("utf-8"))
    except OSError as e:
        raise click.UsageError(
            f"--record: cannot write the record to {record_path}: {e.strerror or e}"
        ) from None
    who = (label_a, label_b)
    session.say(
        f"Kalah ({game.rules} rules, {setup_text(game.pits, game.seeds)}). "
        f"A: {who[0]}, B: {who[1]}; {PLAYER_NAMES[game.to_move(session.start)]} moves first."
    )
    session.say(
        f"The record is saved in {record_path} as the game goes"
        " (replacing what was there; --record PATH keeps another file)."
    )
    if None in sides:
        session.say(
            "Type a pit number to sow it, or hint, undo, new (start again), quit. "
            "A sows from the bottom row (left to right), B from the top row."
        )
    announce_compile(game, sides)
    _announce_foreground_compile(game, sides)
    run_session(session)


def _announce_foreground_compile(game: Kalah, sides: tuple[object, object]) -> None:
    """Say once on stderr when the program's first move will compile its engine here
    (a minute or so on a fresh machine, where the other games play their Python search):
    its kernels are not compiled and nothing compiles them in the background."""
    from boardgames.core.console import make_console
    from boardgames.kalah.play.warm import compiles_here

    programs = [s for s in sides if isinstance(s, KalahProgram)]
    if any(compiles_here(game, p.config) for p in programs):
        make_console(stderr=True).print(
            "(The program's engine is not compiled on this machine, and nothing compiles it "
            "in the background (BOARDGAMES_BACKGROUND_WARM=0, or no cache folder): its first "
            "move compiles it here, once per machine, which takes up to a minute. "
            "'boardgames cache warm kalah' compiles ahead.)",
            highlight=False, soft_wrap=True, markup=False,
        )  # fmt: skip
