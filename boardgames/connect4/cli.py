"""``boardgames connect4``: solve Connect Four positions exactly, score every column.

Positions are written as RULES.md section 6 writes them: the columns played from the
empty board, ``4453``. Only click and the game's pure-Python parts are imported here: the
solver (and numba) load inside the commands, once their input is known to be good.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.text import Text

from boardgames.cli.options import OUTPUT_FILE, SEED, checkpoint_option, cluster_option, json_option
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
from boardgames.core.text import one_line

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


TABLE_RESERVE = 2**30
"""Address space kept free beside the table under an address-space limit (``ulimit -v``):
numba and the solver's kernels take about 400 MiB of it once loaded."""


def _available_memory() -> int | None:
    """Bytes of memory available now, None where the system does not say."""
    from boardgames.core.memory import available_memory

    return available_memory()


def _address_space_left() -> int | None:
    """Bytes of address space this process may still map under its limit (``RLIMIT_AS``,
    ``ulimit -v``) less :data:`TABLE_RESERVE`; None without a limit."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, OSError, ValueError):
        return None
    if soft == resource.RLIM_INFINITY or soft < 0:
        return None
    used = 0
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    used = int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        used = 256 * 2**20
    return max(0, soft - used - TABLE_RESERVE)


def _table_bytes(hash_mib: float) -> int:
    """The bytes of the table ``--hash hash_mib`` makes (``solver.table_bits``: a power of
    two of 8-byte entries, at least 2**16; not imported, it would load numba)."""
    entries = max(1, int(hash_mib * 2**20) // 8)
    return 8 << max(16, entries.bit_length() - 1)


def _check_hash(hash_mib: float) -> None:
    """A table the process cannot hold is refused before anything starts: more than half
    the memory available now, or more than its address-space limit leaves (less what the
    kernels need). The refusal names the largest ``--hash`` that fits."""
    bounds = []
    available = _available_memory()
    if available is not None:
        bounds.append((available // 2, f"half of the memory available now ({_gib(available)})"))
    left = _address_space_left()
    if left is not None:
        bounds.append((left, "what the address-space limit (ulimit -v) leaves this process"))
    if not bounds:
        return
    room, why = min(bounds)
    if _table_bytes(hash_mib) <= room:
        return
    largest = 1 << (room.bit_length() - 1) if room > 0 else 0  # a power of two of bytes
    fits = (
        f"the largest table that fits is --hash {largest // 2**20}"
        if largest >= 2**20
        else "no table fits (the smallest is --hash 1)"
    )
    raise click.UsageError(
        f"--hash {hash_mib:g} MiB ({_table_bytes(hash_mib) // 2**20} MiB of table) is more "
        f"than {why}; {fits}"
    )


def _gib(size: int) -> str:
    return f"{size / 2**30:.1f} GiB"


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

    '-' answers each line as soon as it is solved (a program that writes a position and
    waits gets its answer), in bounded memory: a line of more than 4,096 characters is an
    error, and one without an end after 1 MiB (< /dev/zero) ends the input. With --cluster
    the positions of '-' are Dask tasks of 32 positions each (the input read first); with
    --checkpoint a stopped run goes on where it stopped. Work of more than a second shows
    its progress on standard error; Ctrl-C stops it (status 130) after writing what was
    solved (--json: the object closed, with "stopped": true). Hard openings of 7 x 6 take
    seconds to minutes (the empty board: a few minutes); a first run on a fresh machine
    compiles the solver (seconds), and answers a late position in pure Python meanwhile.
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


LINE_LIMIT = 4096
"""Characters of an input line that are kept (a position has at most 64): the rest of a
longer line is read and dropped, and the line is one error."""
ENDLESS = 2**20
"""Bytes of one line read without its end before the input is taken for one that never
ends a line (``< /dev/zero``): one error, and the rest of the input is not read."""
QUIET_LINES = 1000
"""Lines of finished games answered before the progress is started (their own time)."""
COLLECT_SECONDS = 0.2
"""A batch stops taking lines after this long reading them (lines of finished games are
answered without the solver, but reading them takes time too)."""
MAX_BATCH = 4096
"""Positions solved at once at most: memory stays the same however long the input."""
READ_SIZE = 65536


class _Line:
    """One line of input: its number and text, or why it cannot be a position."""

    __slots__ = ("number", "problem", "text")

    def __init__(self, number: int, text: str, problem: str = "") -> None:
        self.number = number
        self.text = text
        self.problem = problem


class _Lines:
    """Standard input's lines for ``solve -``, read as they come and in bounded memory:
    at most :data:`LINE_LIMIT` characters of a line are kept, and a line without an end
    after :data:`ENDLESS` bytes ends the input. Bytes the input's encoding cannot read
    are read as U+FFFD (the line is then refused as any other bad line)."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.buffer = getattr(stream, "buffer", None)
        try:
            self.fd: int | None = stream.fileno()
            os.fstat(self.fd)
        except (AttributeError, OSError, ValueError):
            self.fd = None
        self.encoding = getattr(stream, "encoding", None) or "utf-8"
        errors = getattr(stream, "errors", None) or "replace"
        self.errors = "replace" if errors == "strict" else errors
        self.pending = bytearray()
        self.number = 0
        self.dropped = 0  # bytes of an overlong line read and dropped so far
        self.ended = False

    def _ready(self) -> bool:
        """True when a read would not wait (no way to tell: True, reads may wait)."""
        if self.fd is None:
            return True
        try:
            import select

            return bool(select.select([self.fd], [], [], 0)[0])
        except (ImportError, OSError, ValueError):
            return True

    def _read(self) -> bytes:
        if self.fd is not None:
            return os.read(self.fd, READ_SIZE)
        if self.buffer is not None:
            read1 = getattr(self.buffer, "read1", None)
            data = read1(READ_SIZE) if read1 is not None else self.buffer.read(READ_SIZE)
            return bytes(data)
        return str(self.stream.read(READ_SIZE)).encode(self.encoding, self.errors)

    def next(self, wait: bool) -> _Line | None:
        """The next line (blank lines skipped); None at the end of input, or when
        ``wait`` is false and no whole line has come yet."""
        while True:
            line = self._take()
            if line is not None:
                if line.problem or line.text:
                    return line
                continue
            if self.ended or (not wait and not self._ready()):
                return None
            data = self._read()
            if not data:
                self.ended = True
                if self.pending or self.dropped:  # a last line without its end
                    self.pending += b"\n"
                    continue
                return None
            self.pending += data

    def _take(self) -> _Line | None:
        """A whole line out of what was read, if there is one."""
        end = self.pending.find(b"\n")
        if end < 0:
            if self.dropped or len(self.pending) > LINE_LIMIT:
                self.dropped += len(self.pending)
                self.pending.clear()
                if self.dropped > ENDLESS:
                    self.ended = True
                    self.dropped = 0
                    self.number += 1
                    return _Line(
                        self.number,
                        "",
                        f"no line end in its first {ENDLESS // 2**20} MiB: input that never "
                        "ends a line (a device?); the rest is not read",
                    )
            return None
        raw = bytes(self.pending[:end])
        del self.pending[: end + 1]
        self.number += 1
        if self.dropped or len(raw) > LINE_LIMIT:
            size = self.dropped + len(raw)
            self.dropped = 0
            return _Line(
                self.number, "", f"{size:,} characters: too long for a position (at most 64)"
            )
        return _Line(self.number, raw.decode(self.encoding, self.errors).strip())


def _read_lines(game: ConnectFour) -> tuple[list[tuple[int, str, State]], int]:
    """All the positions of standard input (line number, text, state), for the tasks of
    ``--cluster`` and ``--checkpoint``; bad lines reported on stderr one each; and how
    many were bad."""
    good: list[tuple[int, str, State]] = []
    bad = 0
    lines = _Lines(sys.stdin)
    while (line := lines.next(wait=True)) is not None:
        try:
            if line.problem:
                raise GameError(line.problem)
            good.append((line.number, line.text, _parse(game, line.text)))
        except GameError as e:
            bad += 1
            click.echo(f"Error: line {line.number}: {e}", err=True)
    return good, bad


class _Output:
    """The answers of ``solve -`` on stdout as they come, flushed: ``POSITION SCORE``
    lines, or (``--json``) one JSON object written piece by piece (each position on its
    own line), closed also when the run is stopped, with ``"stopped": true``."""

    def __init__(self, game: ConnectFour, weak: bool, as_json: bool) -> None:
        self.as_json = as_json
        self.count = 0
        self.t0 = time.perf_counter()
        if as_json:
            head = {"width": game.width, "height": game.height, "weak": weak}
            sys.stdout.write(json.dumps(head)[:-1] + ', "positions": [')
            sys.stdout.flush()

    def write(self, answers: list[tuple[str, int]]) -> None:
        if not answers:
            return
        if self.as_json:
            text = "".join(
                ("," if self.count + i else "")
                + "\n"
                + json.dumps({"position": position, "score": score})
                for i, (position, score) in enumerate(answers)
            )
        else:
            text = "".join(f"{position} {score}\n" for position, score in answers)
        self.count += len(answers)
        sys.stdout.write(text)
        sys.stdout.flush()

    def close(self, bad: int, stopped: bool = False) -> None:
        if not self.as_json:
            return
        tail: dict[str, Any] = {
            "bad_lines": bad,
            "seconds": round(time.perf_counter() - self.t0, 6),
        }
        if stopped:
            tail["stopped"] = True
        sys.stdout.write("\n], " + json.dumps(tail)[1:] + "\n")
        sys.stdout.flush()


def _solve_stream(
    game: ConnectFour,
    weak: bool,
    hash_mib: float,
    cluster: ClusterSpec | None,
    checkpoint: Path | None,
    as_json: bool,
) -> None:
    err = make_console(stderr=True)
    if cluster is not None or checkpoint is not None:
        bad = _solve_all_as_tasks(game, weak, hash_mib, cluster, checkpoint, err, as_json)
    else:
        bad = _solve_as_they_come(game, weak, hash_mib, err, as_json)
    if bad:
        raise SystemExit(EXIT_BAD_LINES)


def _solve_as_they_come(
    game: ConnectFour, weak: bool, hash_mib: float, err: Console, as_json: bool
) -> int:
    """Solve standard input's positions as they are read, in batches of what has come
    (at most about a second's work, :data:`MAX_BATCH` positions), each batch's answers
    written in input order as soon as it is solved: a pipe from a program that writes one
    position and waits gets its answer. Memory stays bounded however long the input.
    Ctrl-C writes what was solved (the JSON closed). The number of bad lines."""
    from boardgames.core.progress import BatchSizer

    lines = _Lines(sys.stdin)
    out = _Output(game, weak, as_json)
    sizer = BatchSizer(target=BATCH_SECONDS, first=1, growth=4.0)
    bar = Progress("Solving", None, "positions", console=err)
    solver: Any = None
    shown: Progress | None = None  # the bar, once started
    bad = 0
    batch: list[tuple[str, int | None]] = []  # (text, score: None until solved)
    t0 = time.perf_counter()
    with contextlib.ExitStack() as stack:
        try:
            while True:
                batch = []
                boards = []
                line = lines.next(wait=True)
                began = time.perf_counter()
                while line is not None:
                    try:
                        if line.problem:
                            raise GameError(line.problem)
                        state = _parse(game, line.text)
                    except GameError as e:
                        bad += 1
                        click.echo(f"Error: line {line.number}: {one_line(str(e))}", err=True)
                    else:
                        score = _end_score(game, state, weak)
                        batch.append((line.text, score))
                        if score is None:
                            if solver is None:
                                solver = _stream_solver(game, hash_mib, err)
                            boards.append(_bitboards(game, state))
                    if not shown and (solver is not None or line.number >= QUIET_LINES):
                        shown = stack.enter_context(bar)  # the time from here on
                    if (
                        len(boards) >= min(sizer.size, MAX_BATCH)
                        or len(batch) >= MAX_BATCH
                        or time.perf_counter() - began > COLLECT_SECONDS
                    ):
                        break
                    line = lines.next(wait=False)
                if not batch:
                    if lines.ended:
                        break
                    continue
                if boards:
                    t = time.perf_counter()
                    scores = _solve_batch(solver, boards, weak, bar, out.count)
                    sizer.record(len(boards), time.perf_counter() - t)
                    it = iter(scores)
                    batch = [(text, next(it) if score is None else score) for text, score in batch]
                out.write([(text, score) for text, score in batch if score is not None])
                batch = []
                bar.update(out.count)
        except KeyboardInterrupt as e:
            solved = iter(e.scores if isinstance(e, _PartlySolved) else [])
            done = []
            for text, score in batch:  # those solved before the first that was not
                known = next(solved, None) if score is None else score
                if known is None:
                    break
                done.append((text, known))
            out.write(done)
            out.close(bad, stopped=True)
            raise Stopped(
                stopped_message(time.perf_counter() - t0, out.count, None, "positions")
            ) from None
    out.close(bad)
    return bad


def _stream_solver(game: ConnectFour, hash_mib: float, err: Console) -> Any:
    """The numba solver of the board (its kernels loaded or compiled first)."""
    from boardgames.connect4 import solver

    _load_kernels(err)
    return solver.solver_for(game.width, game.height, hash_mib)


def _bitboards(game: ConnectFour, state: State) -> Any:
    from boardgames.connect4 import solver

    return solver.to_bitboards(game, state)


def _solve_batch(
    solver: Any, boards: list[Any], weak: bool, bar: Progress, before: int
) -> list[int]:
    """The scores of ``boards``; on Ctrl-C a KeyboardInterrupt whose batch keeps the
    scores solved before it (:class:`_PartlySolved`)."""

    def tick(k: int) -> None:
        bar.update(before + k)

    with solver.lock:
        try:
            part, _ = solver.solve_many(boards, weak, tick=tick)
        except KeyboardInterrupt:
            raise _PartlySolved(list(solver.solved)) from None
    return [int(v) for v in part]


class _PartlySolved(KeyboardInterrupt):
    """Ctrl-C in the middle of a batch: the scores of its first positions."""

    def __init__(self, scores: list[int]) -> None:
        super().__init__()
        self.scores = scores


def _solve_all_as_tasks(
    game: ConnectFour,
    weak: bool,
    hash_mib: float,
    cluster: ClusterSpec | None,
    checkpoint: Path | None,
    err: Console,
    as_json: bool,
) -> int:
    """``solve -`` with ``--cluster`` or ``--checkpoint``: all the input read first (a
    checkpoint belongs to the whole input), then solved as tasks, the answers written in
    input order as they are known (also on Ctrl-C). The number of bad lines."""
    lines, bad = _read_lines(game)
    scores: dict[int, int] = {}
    todo: list[tuple[int, str, State]] = []
    for i, (_, text, state) in enumerate(lines):
        end = _end_score(game, state, weak)
        if end is None:
            todo.append((i, text, state))
        else:
            scores[i] = end
    out = _Output(game, weak, as_json)
    writer = _Writer(lines, scores, out)
    stopped = False
    try:
        writer.flush()
        if todo:
            _solve_tasks(game, todo, weak, hash_mib, cluster, checkpoint, err, writer)
    except KeyboardInterrupt:
        stopped = True
        raise
    finally:
        writer.flush()
        out.close(bad, stopped)
    return bad


class _Writer:
    """Writes the answers in input order as soon as all before them are known."""

    def __init__(self, lines: list[tuple[int, str, State]], scores: dict[int, int], out: _Output):
        self.lines = lines
        self.scores = scores
        self.out = out
        self.next = 0

    def add(self, index: int, score: int) -> None:
        self.scores[index] = score

    def flush(self) -> None:
        answers = []
        while self.next < len(self.lines) and self.next in self.scores:
            answers.append((self.lines[self.next][1], self.scores.pop(self.next)))
            self.next += 1
        self.out.write(answers)


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


# --- book ----------------------------------------------------------------------------------


@connect4.command()
@_board_options
@click.option(
    "--plies",
    type=click.IntRange(1, 12),
    default=4,
    show_default=True,
    help="Solve every position of this many discs; the shallower ones follow from them.",
)
@click.option(
    "--hash",
    "hash_mib",
    type=click.FloatRange(1, 65536),
    default=256,
    show_default=True,
    metavar="MIB",
    help="Transposition table size in MiB of each worker.",
)
@click.option(
    "--out",
    type=OUTPUT_FILE,
    default=None,
    metavar="FILE",
    help="Write the book here (default: the cache folder, where the program finds it).",
)
@cluster_option("the book's positions")
@checkpoint_option("the book")
@json_option()
def book(
    width: int,
    height: int,
    plies: int,
    hash_mib: float,
    out: Path | None,
    cluster: ClusterSpec | None,
    checkpoint: Path | None,
    as_json: bool,
) -> None:
    """Build the opening book: the exact score of every position of at most --plies discs.

    The positions of exactly --plies discs (a position and its mirror image once) are
    solved by this project's solver, 4 a task, each with a column that keeps its score;
    every shallower one follows from them. The program then plays every position of the
    book perfectly at once, with no search. On 7 x 6, --plies 4 is 568 positions of
    about 14 s each (the shipped book: 1 h 45 min for the scores and 29 min for the
    columns, on one core).
    Without --checkpoint a file in the cache folder is used, so that a stopped build
    (Ctrl-C) goes on where it stopped when run again; what was solved is written at once.
    """
    from boardgames.connect4 import book as opening
    from boardgames.core.files import check_output

    _game(width, height)
    _check_hash(hash_mib)
    err = make_console(stderr=True)
    check_output("--out", out)
    target = out or opening.book_path(width, height)
    if checkpoint is None:  # in the cache folder, wherever the book goes
        cached = opening.book_path(width, height)
        checkpoint = cached.with_name(f"book-{width}x{height}-{plies}.checkpoint")
        checkpoint.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    made, total, solved = opening.build(
        width, height, plies, cluster=cluster, checkpoint=checkpoint, out=target,
        hash_mib=hash_mib, console=err,
    )  # fmt: skip
    seconds = time.perf_counter() - started
    if as_json:
        print_json({"book": str(target), "positions": len(made.scores), "frontier": total,
                    "solved": solved, "seconds": round(seconds, 1)})  # fmt: skip
        return
    make_console().print(
        f"Book of {len(made.scores):,} positions ({solved:,} of {total:,} at {plies} discs "
        f"solved) written to {target} in {format_duration(seconds)}.",
        highlight=False,
        soft_wrap=True,
    )


# --- connect4 dataset (boardgames/connect4/dataset.py does the work) -----------------

DATASET_MAX_POSITIONS = 10_000_000
DATASET_EPILOG = (
    "Fields of the .npz file: moves, boards, observations, to_move, ply, score, "
    "move_scores, legal, best, width, height, source, seed; docs/sections/learning.md says "
    "what each holds."
)


ALL_MAX_CELLS = 20
"""``dataset --all`` on boards of at most this many cells: 5 x 4's 3,100,379 positions take
about 10 s and a few hundred MB; 6 x 4 has about 20 times as many."""


@connect4.command("dataset", epilog=DATASET_EPILOG)
@click.argument("output", type=click.Path(dir_okay=False))
@click.option("--width", type=click.IntRange(4, 9), default=7, show_default=True, help="Columns.")
@click.option("--height", type=click.IntRange(4, 9), default=6, show_default=True, help="Rows.")
@click.option("--ply", type=int, default=None,
              help="Every distinct position with this many discs (the game not over).")  # fmt: skip
@click.option("--all", "every", is_flag=True,
              help="Every position of the board, labelled by backward induction over all of "
                   "them (no search; 5 x 4: 3,100,379 positions in about 10 s).")  # fmt: skip
@click.option("--positions", type=int, default=None,
              help="Positions of random games (default 1000 without --ply or --all).")  # fmt: skip
@click.option("--min-ply", type=int, default=0, show_default=True,
              help="With --positions: only positions with at least this many discs.")  # fmt: skip
@click.option("--mirror", is_flag=True, help="With --ply: one position of each mirror pair.")
@click.option("--sample", type=int, default=None,
              help="With --ply: N of those positions drawn at random (--seed), kept in "
                   "order: a documented sample of a set too big to label here.")  # fmt: skip
@click.option("--limit", type=int, default=None, help="Keep only the first N positions (in order).")
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="Seed of the random games (and of --sample; 0 to 2**63 - 1).")  # fmt: skip
@cluster_option("the chunks of positions")
@checkpoint_option("the chunks of positions")
@json_option()
def dataset(
    output: str,
    width: int,
    height: int,
    ply: int | None,
    every: bool,
    positions: int | None,
    min_ply: int,
    mirror: bool,
    sample: int | None,
    limit: int | None,
    seed: int,
    cluster: ClusterSpec | None,
    checkpoint: Path | None,
    as_json: bool,
) -> None:
    """Write Connect Four positions with their exact scores to OUTPUT (.npz).

    Each position gets its exact score and every column's (RULES.md 6: 1 + the discs
    the winner still holds), from the exact solver. The positions: every one with
    --ply K discs, every one of the board (--all), or those of random games
    (--positions N). Examples:

    \b
        boardgames connect4 dataset small.npz --width 5 --height 4 --all
        boardgames connect4 dataset eight.npz --ply 8 --cluster local:8 --checkpoint c.jsonl

    Load it with numpy.load(OUTPUT). Chunks of 64 positions are tasks: --checkpoint FILE
    resumes an interrupted run, --cluster spreads them over workers.
    """
    from boardgames.connect4.dataset import (
        chunks,
        label_chunk,
        label_every_position,
        positions_by_ply,
        sampled,
    )
    from boardgames.connect4.game import ConnectFour
    from boardgames.core.cluster import Checkpoint, Runner
    from boardgames.core.files import check_output

    try:
        game = ConnectFour(width, height)
    except GameError as e:
        raise click.UsageError(str(e)) from None
    chosen = sum([ply is not None, every, positions is not None])
    if chosen > 1:
        raise click.UsageError("give one of --ply, --all and --positions")
    if ply is not None and not 0 <= ply < game.cells:
        raise click.UsageError(f"--ply must be 0 to {game.cells - 1} on {width} x {height}")
    if positions is not None and not 1 <= positions <= DATASET_MAX_POSITIONS:
        top = DATASET_MAX_POSITIONS
        raise click.UsageError(f"--positions must be 1 to {top:,}, got {positions}")
    if limit is not None and limit < 1:
        raise click.UsageError(f"--limit must be at least 1, got {limit}")
    if sample is not None and (ply is None or sample < 1):
        raise click.UsageError(f"--sample takes a number from 1 with --ply, got {sample}")
    if mirror and ply is None:
        raise click.UsageError("--mirror goes with --ply (one position of each mirror pair)")
    if min_ply and positions is None and chosen:
        raise click.UsageError("--min-ply goes with --positions (random games' positions)")
    if not 0 <= min_ply < game.cells:
        raise click.UsageError(f"--min-ply must be 0 to {game.cells - 1} on {width} x {height}")
    if every and (cluster is not None or checkpoint is not None):
        raise click.UsageError("--all runs here at once: leave out --cluster and --checkpoint")
    if every and game.cells > ALL_MAX_CELLS:
        raise click.UsageError(
            f"--all labels every position of boards of at most {ALL_MAX_CELLS} cells (5 x 4: "
            f"3,100,379 positions); {width} x {height} has far too many: give --ply K "
            "(with --sample N) or --positions N"
        )
    check_output("OUTPUT", output)
    err = make_console(stderr=True)
    if every:
        t0 = time.perf_counter()
        with err.status("Labelling every position by backward induction"):
            found = label_every_position(game)
        kept = {k: v[:limit] for k, v in found.items()}
        settings = {"width": width, "height": height, "source": "all", "seed": seed}
        _write_dataset(output, kept, settings)
        seconds = time.perf_counter() - t0
        _report_dataset(output, len(kept["moves"]), seconds, as_json, {"source": "all"})
        return
    if ply is not None:
        source = f"ply={ply}"
        words = positions_by_ply(game, ply, mirror)
        if sample is not None and sample < len(words):
            import random

            source = f"ply={ply}, {sample:,} of {len(words):,} at random"
            kept_at = sorted(random.Random(seed).sample(range(len(words)), sample))
            words = [words[i] for i in kept_at]
    else:
        source = "random"
        try:
            words = sampled(game, positions or 1000, seed, min_ply)
        except GameError as e:
            raise click.UsageError(str(e)) from None
    words = words[:limit]
    tasks = chunks(width, height, words)
    job: dict[str, object] = {"command": "connect4 dataset", "width": width, "height": height,
                              "source": source, "mirror": mirror, "seed": seed,
                              "min_ply": min_ply, "limit": limit, "sample": sample}  # fmt: skip
    results: dict[str, dict[str, Any]] = {}
    bar = Progress("Solving", len(words), "positions", console=err)

    def keep(key: str, result: dict[str, Any]) -> None:
        results[key] = result
        bar.update(sum(len(r["moves"]) for r in results.values()))

    t0 = time.perf_counter()
    with Runner(cluster, err) as runner:
        where = runner.as_dict()
        report = runner.run(
            label_chunk,
            [(f"chunk-{t.index}", (t,)) for t in tasks],
            label="Solving",
            checkpoint=Checkpoint(checkpoint, job) if checkpoint is not None else None,
            on_result=keep,
            progress=bar,
            unit="chunks",
        )
    seconds = time.perf_counter() - t0
    from boardgames.connect4.dataset import assemble

    arrays: dict[str, Any] = assemble(game, [results[f"chunk-{t.index}"] for t in tasks])
    settings = {"width": width, "height": height, "source": source, "seed": seed}
    _write_dataset(output, arrays, settings)
    computed = sum(len(results[k]["moves"]) for k in report.task_seconds)
    extra = {"solved_now": computed, "resumed_chunks": report.resumed, **settings, **where}
    _report_dataset(output, len(words), seconds, as_json, extra, computed)


def _write_dataset(output: str, arrays: dict[str, Any], settings: dict[str, Any]) -> None:
    import io

    import numpy as np

    from boardgames.core.files import WriteFailed, write_atomic

    arrays = {**arrays, **{k: np.array(v) for k, v in settings.items()}}
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)
    try:
        write_atomic(output, buffer.getvalue())
    except OSError as e:
        raise WriteFailed(f"cannot write {output}: {e.strerror or e}") from None


def _report_dataset(
    output: str,
    positions: int,
    seconds: float,
    as_json: bool,
    extra: dict[str, Any],
    computed: int | None = None,
) -> None:
    done = positions if computed is None else computed
    rate = done / seconds if seconds > 0 else 0.0
    summary = {"output": str(output), "positions": positions, "seconds": round(seconds, 3),
               "positions_per_second": round(rate, 2), **extra}  # fmt: skip
    if as_json:
        print_json(summary)
        return
    resumed = extra.get("resumed_chunks")
    make_console().print(
        f"Wrote {positions:,} positions to {output} in {seconds:.1f} s ({rate:,.1f} "
        f"positions/s labelled now{f', {resumed} chunks resumed' if resumed else ''}).",
        highlight=False,
    )
