"""Options and helpers the kalah commands share: the board and rules, the program's search
settings, a position given on the command line, and the texts several commands print."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from boardgames.cli import InputError
from boardgames.core.protocol import THINK_SECONDS, GameError, State
from boardgames.kalah.eval import EVALUATION_HELP, EVALUATIONS
from boardgames.kalah.game import (
    MAX_PITS,
    MAX_SEEDS,
    MIN_PITS,
    MIN_SEEDS,
    PLAYER_NAMES,
    Kalah,
    parse_board,
    split_side,
)
from boardgames.kalah.play.engine import DEFAULT_TIME, UNITS, EngineConfig
from boardgames.kalah.record import Record, ReplayStep, read_record, replay
from boardgames.kalah.rules import RULE_SETS

F = TypeVar("F", bound=Callable[..., Any])

EVAL_HELP = "Evaluation at the search horizon: " + "; ".join(
    f"{name}: {text.rstrip('.')}" for name, text in EVALUATION_HELP.items()
)


def board_options(f: F) -> F:
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


def search_options(f: F) -> F:
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
        type=click.FloatRange(*THINK_SECONDS),
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


def engine_config(
    depth: int | None, time_limit: float | None, evaluation: str, unit: str
) -> EngineConfig:
    try:
        return EngineConfig(depth=depth, time=time_limit, evaluation=evaluation, unit=unit)
    except GameError as e:
        raise click.UsageError(str(e)) from None


def make_game(
    pits: int, seeds: int, rules: str, evaluation: str = "store", empty_capture: bool = False
) -> Kalah:
    """The game of the board options; a bad size is a :class:`click.UsageError`."""
    try:
        return Kalah(pits, seeds, rules, evaluation, empty_capture=empty_capture)
    except GameError as e:
        raise click.UsageError(str(e)) from None


def setup_text(pits: int, seeds: int) -> str:
    """'6 pits x 6 stones', singular where it should be."""
    return f"{pits} pit{'s' * (pits != 1)} x {seeds} stone{'s' * (seeds != 1)}"


def player_text(kind: str, program: EngineConfig) -> str:
    return f"program ({program.describe()})" if kind == "program" else kind


def group_pv(game: Kalah, state: State, pv: list[int]) -> list[tuple[int, list[int]]]:
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


def pv_text(groups: list[tuple[int, list[int]]]) -> str:
    return " | ".join(f"{PLAYER_NAMES[p]}: {' '.join(map(str, pits))}" for p, pits in groups)


def plural(n: int, word: str) -> str:
    """``1 thread``, ``2 threads``, ``1,234 positions``."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def load_record(file: Path | str) -> tuple[Record, list[ReplayStep], State]:
    """Read a game record and replay it: the record, every compound move's position and
    the last position. A bad file is one line, status 2 (:class:`InputError`), naming the
    file, its line and what was wrong."""
    try:
        record = read_record(file)
        steps, final = replay(record)
    except GameError as e:  # a RecordError, or a move the rules refuse
        raise InputError(f"{file}: {e}") from None
    return record, steps, final


def position_options(board_help: str) -> Callable[[F], F]:
    """The position a command works on: the board (``--pits/--seeds/--rules``, whose start
    position is the default), or ``--board`` with all its holes; and ``--to-move``. They
    arrive as ``pits``, ``seeds``, ``rules``, ``board`` and ``to_move``: give them to
    :func:`position`."""

    def decorate(f: F) -> F:
        f = click.option(
            "--to-move",
            type=click.Choice(["a", "b"], case_sensitive=False),
            default="a",
            show_default=True,
            help="Side to move (with --board, or who starts).",
        )(f)
        f = click.option(
            "--board",
            default=None,
            help=f"{board_help} A last word A or B names the side to move, as positions "
            "are written by 'boardgames analyse kalah'.",
        )(f)
        return board_options(f)

    return decorate


def position(
    pits: int,
    seeds: int,
    rules: str,
    board: str | None,
    to_move: str,
    *,
    evaluation: str = "store",
    empty_capture: bool = False,
) -> tuple[Kalah, State]:
    """The game and position :func:`position_options` describe: ``--board`` if given (its
    length gives the pits; ``--pits``/``--seeds`` must then be left out), else the start
    position of ``--pits`` x ``--seeds`` with ``--to-move`` to move. Bad values are a
    :class:`click.UsageError`."""
    side = 0 if to_move.lower() == "a" else 1
    ctx = click.get_current_context()
    given = [
        f"--{name}"
        for name in ("pits", "seeds")
        if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT
    ]
    if board is not None and given:
        raise click.UsageError(f"--board gives the whole position; leave out {' and '.join(given)}")
    if board is None:
        game = make_game(pits, seeds, rules, evaluation, empty_capture)
        state = game.initial_state(side)
        return game, state
    words, named = split_side(board)  # the position notation's side to move, if any
    if named is not None:
        chosen = ctx.get_parameter_source("to_move") is not click.core.ParameterSource.DEFAULT
        if chosen and named != side:
            raise click.UsageError(
                f"--board ends with {PLAYER_NAMES[named]} to move, but --to-move says "
                f"{to_move.upper()}"
            )
        side = named
        board = " ".join(words)
    try:
        holes = parse_board(board)
        game = Kalah((len(holes) - 2) // 2, 1, rules, evaluation, empty_capture=empty_capture)
        return game, game.make_state(holes, side)
    except GameError as e:
        raise click.UsageError(f"--board: {e}") from None
