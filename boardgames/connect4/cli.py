"""``boardgames connect4``: solve Connect Four positions exactly, score every column.

Positions are written as RULES.md section 6 writes them: the columns played from the
empty board, ``4453``. Only click and the game's pure-Python parts are imported here: the
solver (and numba) load inside the commands, once their input is known to be good.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.text import Text

from boardgames.cli.options import checkpoint_option, cluster_option, json_option
from boardgames.core.console import make_console, print_json
from boardgames.core.progress import (
    Progress,
    Stopped,
    format_count,
    format_duration,
    interruptible,
    stopped_message,
)
from boardgames.core.protocol import GameError, State, quote

if TYPE_CHECKING:
    from rich.console import Console

    from boardgames.connect4.game import ConnectFour
    from boardgames.connect4.solver import Solved
    from boardgames.core.cluster import ClusterSpec

DEFAULT_HASH_MIB = 64
"""The transposition table's default size (``solver.DEFAULT_HASH_MIB``, not imported:
it would load numba)."""
CHUNK = 32
"""Positions a task of ``solve - --cluster`` (or ``--checkpoint``) holds."""
BATCH_SECONDS = 1.0
"""``solve -`` writes its answers about this often (batches of positions)."""
EXIT_BAD_LINES = 1


def _board_options(f: Any) -> Any:
    f = click.option(
        "--height",
        type=click.IntRange(4, 9),
        default=6,
        show_default=True,
        help="Rows (columns x (rows + 1) at most 64).",
    )(f)
    return click.option(
        "--width", type=click.IntRange(4, 9), default=7, show_default=True, help="Columns."
    )(f)


def _hash_option(f: Any) -> Any:
    return click.option(
        "--hash",
        "hash_mib",
        type=click.FloatRange(1, 65536),
        default=DEFAULT_HASH_MIB,
        show_default=True,
        metavar="MIB",
        help="Transposition table size in MiB (rounded down to a power of two entries; "
        "kept for the whole run).",
    )(f)


def _weak_option(f: Any) -> Any:
    return click.option(
        "--weak",
        is_flag=True,
        help="Say only win (1), draw (0) or loss (-1): faster than the exact score.",
    )(f)


def _game(width: int, height: int) -> ConnectFour:
    from boardgames.connect4.game import ConnectFour

    try:
        return ConnectFour(width, height)
    except GameError as e:
        raise click.UsageError(str(e)) from None


def _check_hash(hash_mib: float) -> None:
    """A table that does not fit in half the memory is refused before anything starts."""
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return
    if hash_mib * 2**20 > memory // 2:
        raise click.UsageError(
            f"--hash {hash_mib:g} MiB is more than half of this machine's memory "
            f"({memory / 2**30:.1f} GiB); give a smaller table"
        )


def _parse(game: ConnectFour, text: str) -> State:
    """The position ``text`` names; a GameError (one line) otherwise."""
    word = text.strip()
    if len(word.split()) > 1:
        raise GameError(f"{quote(word)} is not one position: write the columns without spaces")
    if len(word) > game.cells:
        raise GameError(f"{quote(word)} has more moves than the board has cells ({game.cells})")
    return game.parse_position(word)


def _end_score(game: ConnectFour, state: State, weak: bool) -> int | None:
    """The score of a finished game (minus the winner's score for the player to move, 0
    for a full board), None while it goes on."""
    over = game.outcome(state)
    if over is None:
        return None
    return (over > 0) - (over < 0) if weak else over


def _explain(game: ConnectFour, state: State, score: int, weak: bool) -> str:
    """``1 wins with their 4th disc (score 18)`` and the like."""
    mover = int(state[game.cells])
    n = int(state[game.cells + 1])
    players = ("1", "2")
    if score == 0:
        return "a draw under perfect play (score 0)"
    winner = players[mover] if score > 0 else players[1 - mover]
    if weak:
        return f"{winner} wins under perfect play (weak solve: no score)"
    side = mover if score > 0 else 1 - mover
    share = (game.cells + 1 - side) // 2  # the winner's discs at the start (RULES.md 6)
    discs = share + 1 - abs(score)
    k = 2 * (discs - 1) + side  # the winning move, from 0
    left = k - n + 1
    return (
        f"{winner} wins with their {_ordinal(discs)} disc, {left} {'ply' if left == 1 else 'plies'}"
        f" from now (score {score:+d})"
    )


def _ordinal(k: int) -> str:
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


@click.group()
def connect4() -> None:
    """Connect Four (RULES.md section 6): exact solving and analysis.

    A position is the string of the columns played from the empty board, 1 to W from the
    left: 4453 is 1 in column 4, 2 in column 4, 1 in column 5, 2 in column 3. A score is
    for the player to move: 0 a draw; a win scores 1 + the discs the winner still holds
    when they complete four, each player holding half the W*H discs at the start (on an
    odd board the first player the larger half): 7 x 6 scores run from 1 to 18; a loss
    scores the same negated. Play against the program with 'boardgames play connect4'.
    """


# --- compiling ---------------------------------------------------------------------------


def _load_kernels(err: Console) -> None:
    """Load (on a fresh machine: compile) the solver's kernels, saying so if it takes a
    while, then warm the rest of the game's kernels in the background for the next runs."""
    from boardgames.connect4 import solver
    from boardgames.core import warmup

    if solver.kernels_loaded():
        return
    label = "Loading the numba kernels (compiled on first use, then cached)"
    with (
        Progress(label, console=err, delay=3.0),
        interruptible(lambda: "Stopped (Ctrl-C) while loading the numba kernels."),
    ):
        solver.warm()
    if not warmup.is_ready("connect4"):
        warmup.warm_in_background("connect4")


# --- solve ---------------------------------------------------------------------------------


@connect4.command()
@click.argument("position", metavar="POSITION")
@_board_options
@_weak_option
@_hash_option
@cluster_option("the positions of 'solve -'")
@checkpoint_option("'solve -'")
@json_option("Print JSON: one object (with '-': the positions' scores in one list).")
def solve(
    position: str,
    width: int,
    height: int,
    weak: bool,
    hash_mib: float,
    cluster: ClusterSpec | None,
    checkpoint: Path | None,
    as_json: bool,
) -> None:
    """The exact score of POSITION for the player to move, a best move and its line.

    '' is the empty board. POSITION '-' reads positions from standard input, one a line,
    and writes 'POSITION SCORE' lines in the same order, as Pascal Pons' benchmark files
    are written (cut -d' ' -f1 Test_L2_R1 | boardgames connect4 solve - | diff - Test_L2_R1
    passes); blank lines are skipped. A line that is not a position is one message on
    standard error with its line number and the others are still solved; the exit status
    is then 1. A finished game scores what its result was (minus the winner's score for
    the player to move, 0 for a full board).

    With --cluster the positions of '-' are Dask tasks of 32 positions each; with
    --checkpoint a stopped run goes on where it stopped. Work of more than a second shows
    its progress on standard error; Ctrl-C stops it (status 130) after writing what was
    solved. Hard openings of 7 x 6 take seconds to minutes (the empty board: a few
    minutes); a first run on a fresh machine compiles the solver (seconds), and answers a
    late position in pure Python meanwhile.
    """
    game = _game(width, height)
    _check_hash(hash_mib)
    if position.strip() == "-":
        _solve_stream(game, weak, hash_mib, cluster, checkpoint, as_json)
        return
    ctx = click.get_current_context()
    given = ctx.get_parameter_source("cluster") == click.core.ParameterSource.COMMANDLINE
    if (cluster is not None and given) or checkpoint is not None:
        # ($BOARDGAMES_CLUSTER alone is for the commands that run tasks: not an error here)
        raise click.UsageError("--cluster and --checkpoint apply to 'solve -' (many positions)")
    state = _parse(game, position)
    err = make_console(stderr=True)
    t0 = time.perf_counter()
    solved = _solve_one(game, state, weak, hash_mib, err, position.strip())
    seconds = time.perf_counter() - t0
    _show_solved(game, state, position.strip(), solved, seconds, as_json)


def _solve_one(
    game: ConnectFour, state: State, weak: bool, hash_mib: float, err: Console, label: str
) -> Solved:
    from boardgames.connect4 import solver
    from boardgames.core.search import SearchStopped

    if not solver.kernels_ready():
        # a late position is solved at once in pure Python while nothing is compiled
        with interruptible(lambda: "Stopped (Ctrl-C) while solving in pure Python."):
            try:
                return solver.solve_position(
                    game, state, weak=weak, hash_mib=hash_mib, compile=False
                )
            except SearchStopped:
                pass
    _load_kernels(err)
    name = repr(label) if label else "the empty board"
    bar = Progress(f"Solving {name}", None, "positions searched", console=err)
    t0 = time.perf_counter()
    with bar:
        try:
            return solver.solve_position(
                game, state, weak=weak, hash_mib=hash_mib, progress=lambda n: bar.update(n)
            )
        except KeyboardInterrupt:
            spent = format_duration(time.perf_counter() - t0)
            raise Stopped(
                f"Stopped (Ctrl-C) after {spent}: {format_count(bar.done)} positions "
                "searched, no score yet."
            ) from None


def _show_solved(
    game: ConnectFour, state: State, position: str, s: Solved, seconds: float, as_json: bool
) -> None:
    from boardgames.connect4.solver import protocol_value
    from boardgames.core.protocol import describe_score

    n = int(state[game.cells + 1])
    over = game.outcome(state) is not None
    value = protocol_value(game.width, game.height, n, s.score, s.weak)
    exact = not s.weak or s.score == 0
    if as_json:
        print_json(
            {
                "position": position,
                "width": game.width,
                "height": game.height,
                "to_move": ("1", "2")[int(state[game.cells])],
                "weak": s.weak,
                "score": s.score,
                "result": "draw" if s.score == 0 else ("win" if s.score > 0 else "loss"),
                "over": over,
                "value": value,
                "value_text": describe_score(value, exact),
                "best_move": None if s.best is None else game.format_move(s.best),
                "pv": [game.format_move(m) for m in s.pv],
                "nodes": s.nodes,
                "seconds": round(seconds, 6),
                "engine": s.engine,
            }
        )
        return
    console = make_console()
    console.print(game.render(state))
    if over:
        console.print(f"Score {s.score:+d}: the game is over.", highlight=False)
        return
    console.print(
        Text(f"Score {s.score:+d}: {_explain(game, state, s.score, s.weak)}.", style="bold"),
        soft_wrap=True,
    )
    if s.best is not None:
        line = "".join(game.format_move(m) for m in s.pv)
        console.print(
            f"Best move: {game.format_move(s.best)}; a line that keeps the score: {line}"
            f"{'' if _line_ends(game, state, s.pv) else ' ...'}",
            highlight=False,
            soft_wrap=True,
        )
    how = "the numba solver" if s.engine == "numba" else "the pure-Python solver"
    searched = f" ({format_count(s.nodes)} positions)" if s.nodes else ""
    console.print(
        f"Solved by {how} in {format_duration(seconds)}{searched}.",
        style="dim",
        highlight=False,
        soft_wrap=True,
    )


def _line_ends(game: ConnectFour, state: State, line: list[int]) -> bool:
    for m in line:
        state, _ = game.play(state, m)
    return game.outcome(state) is not None


# --- solve - -------------------------------------------------------------------------------


def _read_lines(game: ConnectFour) -> tuple[list[tuple[int, str, State]], int]:
    """The positions of standard input (line number, text, state), bad lines reported
    on stderr one each; and how many were bad."""
    good: list[tuple[int, str, State]] = []
    bad = 0
    for number, raw in enumerate(sys.stdin, 1):
        text = raw.strip()
        if not text:
            continue
        try:
            good.append((number, text, _parse(game, text)))
        except GameError as e:
            bad += 1
            click.echo(f"Error: line {number}: {e}", err=True)
    return good, bad


def _solve_stream(
    game: ConnectFour,
    weak: bool,
    hash_mib: float,
    cluster: ClusterSpec | None,
    checkpoint: Path | None,
    as_json: bool,
) -> None:
    lines, bad = _read_lines(game)
    err = make_console(stderr=True)
    scores: dict[int, int] = {}
    todo: list[tuple[int, str, State]] = []
    for i, (_, text, state) in enumerate(lines):
        end = _end_score(game, state, weak)
        if end is None:
            todo.append((i, text, state))
        else:
            scores[i] = end
    writer = _Writer(lines, scores, as_json)
    t0 = time.perf_counter()
    try:
        if todo:
            if cluster is not None or checkpoint is not None:
                _solve_tasks(game, todo, weak, hash_mib, cluster, checkpoint, err, writer)
            else:
                _solve_here(game, todo, weak, hash_mib, err, writer)
    finally:
        writer.flush()
    if as_json:
        print_json(
            {
                "width": game.width,
                "height": game.height,
                "weak": weak,
                "positions": [
                    {"position": text, "score": scores[i]} for i, (_, text, _) in enumerate(lines)
                ],
                "bad_lines": bad,
                "seconds": round(time.perf_counter() - t0, 6),
            }
        )
    if bad:
        raise SystemExit(EXIT_BAD_LINES)


class _Writer:
    """Writes ``POSITION SCORE`` lines in input order as soon as all before them are known."""

    def __init__(self, lines: list[tuple[int, str, State]], scores: dict[int, int], quiet: bool):
        self.lines = lines
        self.scores = scores
        self.quiet = quiet
        self.next = 0

    def add(self, index: int, score: int) -> None:
        self.scores[index] = score

    def flush(self) -> None:
        out = []
        while self.next < len(self.lines) and self.next in self.scores:
            out.append(f"{self.lines[self.next][1]} {self.scores[self.next]}\n")
            self.next += 1
        if out and not self.quiet:
            sys.stdout.write("".join(out))
            sys.stdout.flush()


def _solve_here(
    game: ConnectFour,
    todo: list[tuple[int, str, State]],
    weak: bool,
    hash_mib: float,
    err: Console,
    writer: _Writer,
) -> None:
    """The positions in this process, in batches of about a second each (each batch's
    answers written when it ends); Ctrl-C writes what the batch had solved."""
    from boardgames.connect4 import solver
    from boardgames.core.progress import BatchSizer

    _load_kernels(err)
    s = solver.solver_for(game.width, game.height, hash_mib)
    boards = [solver.to_bitboards(game, state) for _, _, state in todo]
    sizer = BatchSizer(target=BATCH_SECONDS, first=16, growth=4.0)
    bar = Progress("Solving", len(todo), "positions", console=err)
    done = 0
    t0 = time.perf_counter()
    with bar, s.lock:
        while done < len(todo):
            size = min(sizer.size, len(todo) - done)
            t = time.perf_counter()

            def tick(k: int, at: int = done) -> None:
                bar.update(at + k)

            try:
                part, _ = s.solve_many(boards[done : done + size], weak, tick=tick)
            except KeyboardInterrupt:
                for j, v in enumerate(s.solved):
                    writer.add(todo[done + j][0], v)
                solved = done + len(s.solved)
                raise Stopped(
                    stopped_message(time.perf_counter() - t0, solved, len(todo), "positions")
                ) from None
            sizer.record(size, time.perf_counter() - t)
            for j, v in enumerate(part):
                writer.add(todo[done + j][0], int(v))
            done += size
            bar.update(done)
            writer.flush()


def _solve_tasks(
    game: ConnectFour,
    todo: list[tuple[int, str, State]],
    weak: bool,
    hash_mib: float,
    cluster: ClusterSpec | None,
    checkpoint: Path | None,
    err: Console,
    writer: _Writer,
) -> None:
    """The positions as tasks of :data:`CHUNK` positions (:mod:`boardgames.core.cluster`)."""
    from boardgames.connect4 import solver
    from boardgames.core.cluster import Checkpoint, Runner

    texts = [text for _, text, _ in todo]
    chunks = [texts[i : i + CHUNK] for i in range(0, len(texts), CHUNK)]
    digest = hashlib.sha256("\n".join(texts).encode()).hexdigest()[:16]
    job = {
        "command": "connect4 solve",
        "width": game.width,
        "height": game.height,
        "weak": weak,
        "positions": len(texts),
        "digest": digest,
    }
    tasks = [
        (f"chunk-{i}", (game.width, game.height, weak, hash_mib, chunk))
        for i, chunk in enumerate(chunks)
    ]
    bar = Progress("Solving", len(texts), "positions", console=err)
    counted = 0

    def add(key: str, result: Any) -> None:
        nonlocal counted
        i = int(key.split("-")[1])
        for j, v in enumerate(result):
            writer.add(todo[i * CHUNK + j][0], int(v))
        counted += len(result)
        bar.update(counted, detail=f"{runner.workers} worker{'s' * (runner.workers != 1)}")
        writer.flush()

    runner = Runner(cluster, err)
    runner.prepare(solver.warm_chunk, game.width, game.height, hash_mib)
    with runner:
        with Progress("Loading the numba kernels on the workers", console=err, delay=3.0):
            runner.warm(solver.warm_chunk, game.width, game.height, hash_mib)
        runner.run(
            solver.solve_chunk,
            tasks,
            label="Solving",
            checkpoint=Checkpoint(checkpoint, job) if checkpoint else None,
            on_result=add,
            progress=bar,
            unit="tasks",
        )


# --- analyse -------------------------------------------------------------------------------


@connect4.command()
@click.argument("position", metavar="POSITION")
@_board_options
@_weak_option
@_hash_option
@json_option()
def analyse(
    position: str, width: int, height: int, weak: bool, hash_mib: float, as_json: bool
) -> None:
    """The score of every column for the player to move of POSITION ('' is the empty board).

    Each column's score is the score of the game after playing it, for the player who
    plays it (RULES.md 6), shown under the board; the best columns are marked. A full
    column has none. Ctrl-C stops (status 130).
    """
    game = _game(width, height)
    _check_hash(hash_mib)
    state = _parse(game, position)
    if game.outcome(state) is not None:
        raise click.UsageError(
            f"the game of {quote(position.strip())} is over: no column can be played"
        )
    from boardgames.connect4 import solver
    from boardgames.core.search import SearchStopped

    err = make_console(stderr=True)
    t0 = time.perf_counter()
    found = None
    if not solver.kernels_ready():
        with (
            interruptible(lambda: "Stopped (Ctrl-C) while scoring the columns."),
            contextlib.suppress(SearchStopped),
        ):
            found = solver.analyse(game, state, weak=weak, hash_mib=hash_mib, compile=False)
    if found is None:
        _load_kernels(err)
        with (
            Progress("Scoring the columns", console=err),
            interruptible(
                lambda: stopped_message(
                    time.perf_counter() - t0, extra=" while scoring the columns"
                )
            ),
        ):
            found = solver.analyse(game, state, weak=weak, hash_mib=hash_mib)
    scores, engine = found
    seconds = time.perf_counter() - t0
    best = max(s for s in scores if s is not None)
    best_cols = [c for c, s in enumerate(scores) if s == best]
    if as_json:
        print_json(
            {
                "position": position.strip(),
                "width": width,
                "height": height,
                "to_move": ("1", "2")[int(state[game.cells])],
                "weak": weak,
                "scores": {game.format_move(c): s for c, s in enumerate(scores)},
                "best": [game.format_move(c) for c in best_cols],
                "score": best,
                "seconds": round(seconds, 6),
                "engine": engine,
            }
        )
        return
    console = make_console()
    console.print(_board_with_scores(game, state, scores, best_cols))
    cols = ", ".join(game.format_move(c) for c in best_cols)
    console.print(
        f"Best: column{'s' * (len(best_cols) > 1)} {cols}; {_explain(game, state, best, weak)}.",
        highlight=False,
        soft_wrap=True,
    )
    how = "the numba solver" if engine == "numba" else "the pure-Python solver"
    console.print(f"Scored by {how} in {format_duration(seconds)}.", style="dim")


def _board_with_scores(
    game: ConnectFour, state: State, scores: list[int | None], best: list[int]
) -> Text:
    """The board, four characters a column, the column numbers and the scores under it."""
    from boardgames.connect4.game import MARKS

    w, h = game.width, game.height
    out = Text()
    for row in range(h - 1, -1, -1):
        for col in range(w):
            v = int(state[col * h + row])
            mark, style = MARKS[v - 1] if v else (".", "dim")
            out.append(f"{mark:>4}", style=style)
        out.append("\n")
    out.append("".join(f"{c + 1:>4}" for c in range(w)) + "\n", style="cyan")
    for col, s in enumerate(scores):
        text = f"{'-' if s is None else f'{s:+d}' if s else '0':>4}"
        out.append(text, style="bold green" if col in best else "")
    mover = int(state[game.cells])
    out.append(f"\n{('1', '2')[mover]} ({MARKS[mover][0]}) to move; under each column its score")
    return out
