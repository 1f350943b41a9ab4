"""``boardgames queens``: enumerate and count N-queens solutions; ``compare queens``.

Only the pure-Python solver is imported here; numba loads inside ``count`` and
``compare`` when a jitted method runs, and matplotlib only for ``--plot``.
"""

from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

import click
from rich.columns import Columns
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from boardgames.cli import InputError
from boardgames.cli.options import cluster_options, json_option
from boardgames.core import warmup
from boardgames.core.cluster import Checkpoint, ClusterSpec, Runner, describe_estimate
from boardgames.core.console import make_console, print_json
from boardgames.core.files import check_output, save_figure
from boardgames.core.progress import DAY, Progress, Stopped, interruptible
from boardgames.core.protocol import GameError, quote
from boardgames.queens import counting
from boardgames.queens import tasks as queens_tasks
from boardgames.queens.counting import (
    CONSTELLATION_METHODS,
    JIT_METHODS,
    METHODS,
    load_kernels,
)
from boardgames.queens.solve import (
    MAX_COUNT_N,
    MAX_SOLVE_N,
    Solution,
    check_n,
    expected_total,
    fundamental_solutions,
    solutions,
)
from boardgames.queens.svg import gallery
from boardgames.queens.tasks import estimate

FORMATS = ("text", "board", "json", "csv", "svg")
SVG_LIMIT = 500
"""Most boards ``--format svg`` draws in one picture."""
SLOW_ABOVE = {"naive": 12, "tables": 13, "bitmask": 14}
"""Boards beyond which a pure-Python method takes more than about a minute."""
QUEEN = "♛"


def _check(n: int, high: int) -> int:
    try:
        return check_n(n, high)
    except GameError as e:
        raise click.UsageError(str(e)) from None


def _n_option(default: int = 8):
    return click.option(
        "-n",
        "--n",
        "n",
        type=int,
        default=default,
        show_default=True,
        help="Board size N (N queens on an N×N board).",
    )


@click.group()
def queens() -> None:
    """The N-queens puzzle (RULES.md section 5).

    Place N queens on an N×N board so that no two share a row, column or diagonal. A
    solution is written as the queen's column in each row, row 1 first: 1 5 8 6 3 7 2 4.
    """


# --- solve -------------------------------------------------------------------------------


def render_board(sol: Solution, title: str) -> Group:
    """A checkered board with the queens under a title line; readable without colour
    (dots on empty squares)."""
    n = len(sol)
    grid = Table.grid(padding=0)
    grid.add_column(justify="right")
    grid.add_column()
    for r in range(n):
        line = Text()
        for c in range(n):
            bg = "on grey70" if (r + c) % 2 == 0 else "on grey42"
            if sol[r] == c + 1:
                line.append(f" {QUEEN} ", style=f"bold black {bg}")
            else:
                line.append(" · ", style=f"grey30 {bg}" if (r + c) % 2 == 0 else f"grey58 {bg}")
        grid.add_row(f"{r + 1} ", line)
    grid.add_row("", Text("".join(f"{c + 1:^3}" for c in range(n)), style="dim"))
    return Group(Text(title, style="bold"), grid)


def _stream(n: int, fundamental: bool, limit: int | None) -> Iterator[tuple[Solution, int]]:
    source: Iterable[tuple[Solution, int]] = (
        fundamental_solutions(n) if fundamental else ((s, 1) for s in solutions(n))
    )
    for i, item in enumerate(source):
        if limit is not None and i >= limit:
            return
        yield item


def _summary(n: int, count: int, fundamental: bool, limit: int | None) -> str:
    kind = "fundamental solution" if fundamental else "solution"
    plural = "" if count == 1 else "s"
    if limit is not None and count == limit:
        return f"First {count} {kind}{plural} for N = {n} (--limit {limit})."
    if count == 0:
        return f"No {kind}s for N = {n}: no way to place {n} non-attacking queens."
    return f"{count} {kind}{plural} for N = {n}."


@queens.command()
@_n_option()
@click.option(
    "--fundamental",
    is_flag=True,
    help="One solution per symmetry class (rotations and reflections), with the class size.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS, case_sensitive=False),
    default="text",
    show_default=True,
    help="text: one solution a line; board: drawn boards; json: one object; csv: a table; "
    f"svg: the boards as one SVG picture on stdout (at most {SVG_LIMIT}; redirect it to a "
    "file: > solutions.svg).",
)
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=None,
    help="Stop after this many solutions (the search streams: large N answers at once).",
)
@json_option("Print one JSON object (--format json).")
@click.pass_context
def solve(
    ctx: click.Context, n: int, fundamental: bool, fmt: str, limit: int | None, as_json: bool
) -> None:
    """List the solutions for N (1 to 29) in lexicographic order (the classic backtracking).

    Columns are 1-based, row 1 first. With --fundamental each symmetry class is shown
    once, as its lexicographically smallest member, with the number of solutions in it.
    Solutions stream as they are found; beyond N = 20 even the first ones take seconds
    (N = 28: about 20 s), since lexicographic order forces a long backtrack.
    """
    _check(n, MAX_SOLVE_N)
    fmt = fmt.lower()
    if as_json:
        given = ctx.get_parameter_source("fmt") is not click.core.ParameterSource.DEFAULT
        if given and fmt != "json":
            raise click.UsageError(f"--json prints JSON; it cannot go with --format {fmt}")
        fmt = "json"
    stream = _stream(n, fundamental, limit)
    if fmt == "json":
        _solve_json(n, fundamental, stream)
    elif fmt == "csv":
        _solve_csv(n, fundamental, stream)
    elif fmt == "board":
        _solve_board(n, fundamental, limit, stream)
    elif fmt == "svg":
        _solve_svg(n, fundamental, limit)
    else:
        count = 0
        for sol, size in stream:
            line = " ".join(map(str, sol))
            click.echo(f"{line}  (class of {size})" if fundamental else line)
            count += 1
        click.echo(_summary(n, count, fundamental, limit), err=True)


def _solve_json(n: int, fundamental: bool, stream: Iterator[tuple[Solution, int]]) -> None:
    """One JSON object, written as the solutions come (the count goes last)."""
    out = sys.stdout
    out.write(f'{{"n": {n}, "fundamental": {json.dumps(fundamental)}, "solutions": [')
    count = 0
    sizes: list[int] = []
    for sol, size in stream:
        out.write((", " if count else "") + json.dumps(list(sol)))
        sizes.append(size)
        count += 1
    out.write("]")
    if fundamental:
        out.write(f', "class_sizes": {json.dumps(sizes)}')
    out.write(f', "count": {count}}}\n')


def _solve_csv(n: int, fundamental: bool, stream: Iterator[tuple[Solution, int]]) -> None:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    header = ["solution", *(f"row{r}" for r in range(1, n + 1))]
    writer.writerow([*header, "class_size"] if fundamental else header)
    for i, (sol, size) in enumerate(stream, 1):
        writer.writerow([i, *sol, size] if fundamental else [i, *sol])
        sys.stdout.write(buf.getvalue())
        buf.seek(0)
        buf.truncate()
    sys.stdout.write(buf.getvalue())


def _solve_board(
    n: int, fundamental: bool, limit: int | None, stream: Iterator[tuple[Solution, int]]
) -> None:
    """Boards side by side as many as fit the terminal, printed a line of boards at a time."""
    console = make_console()
    per_line = max(1, console.width // (3 * n + 6))
    count = 0
    line: list[Group] = []
    for sol, size in stream:
        count += 1
        title = f"#{count}  {' '.join(map(str, sol))}"
        if fundamental:
            title += f"  (class of {size})"
        line.append(render_board(sol, title))
        if len(line) == per_line:
            _print_boards(console, line)
            line = []
    if line:
        _print_boards(console, line)
    console.print(_summary(n, count, fundamental, limit))


def _solve_svg(n: int, fundamental: bool, limit: int | None) -> None:
    """The solutions as one SVG picture on stdout, a grid of boards each under its number
    and columns; more than :data:`SVG_LIMIT` boards is a usage error before any work."""
    most = expected_total(n) or 0
    wanted = most if limit is None else min(limit, most)
    if fundamental and limit is None:
        wanted = -(-most // 8)  # at least this many classes; a few more where some are small
    if wanted > SVG_LIMIT:
        raise click.UsageError(
            f"--format svg draws at most {SVG_LIMIT} boards; N = {n} has "
            f"{'about ' if fundamental else ''}{wanted:,}: add --limit {SVG_LIMIT} or less"
        )
    boards = []
    for k, (sol, size) in enumerate(_stream(n, fundamental, limit or SVG_LIMIT), 1):
        name = f"#{k}: {' '.join(map(str, sol))}"
        boards.append((sol, name + (f" (class of {size})" if fundamental else "")))
    heading = _summary(n, len(boards), fundamental, limit)
    sys.stdout.write(gallery(boards, heading=heading))
    sys.stdout.flush()
    click.echo(heading, err=True)


def _print_boards(console: Console, boards: list[Group]) -> None:
    console.print(Columns(boards, padding=(0, 3)) if len(boards) > 1 else boards[0])
    console.print()


# --- count -------------------------------------------------------------------------------


def _method_help() -> str:

    return "; ".join(f"{k}: {v}" for k, v in METHODS.items())


def _check_workers(workers: int | None) -> None:
    import os

    cores = os.cpu_count() or 1
    if workers is not None and workers > cores:
        raise click.UsageError(f"--workers {workers}: this machine has {cores} cores")


PURE_N = 12
"""Up to this N, ``auto`` counts in pure Python: N = 12 takes 0.1 s, less than loading the
numba kernels from the cache (0.3 s, benchmarks/first_contact.py)."""
PURE_UNTIL_READY_N = 13
"""Up to this N, ``auto`` counts in pure Python (N = 13: about half a second) while the
numba kernels are not compiled yet, instead of making a first run wait for the compiler."""


SERIAL_UNTIL_READY_N = 16
"""Up to this N, ``auto`` counts with the serial constellation kernel while the kernels
are not compiled yet: its ``prange`` twin costs about 1 s more to compile (measured: N = 14
on an empty cache, 5.1 s in all against 6.2 s), more than it saves below N = 17."""


def _pick_method(method: str, n: int, workers: int | None) -> str:
    if method != "auto":
        return method
    if n <= PURE_N and workers is None:
        return "bitmask"  # faster than loading the compiled kernels from the cache
    if n <= PURE_UNTIL_READY_N and workers is None and not warmup.is_ready("queens"):
        return "bitmask"  # the kernels are compiled in the background meanwhile (count)
    if n <= SERIAL_UNTIL_READY_N and workers is None and not warmup.is_ready("queens"):
        return "constellations"  # the parallel kernel would cost more to compile than it saves
    # measured on 2 cores: the start constellations win from N = 14 (1.6x there; even at 13)
    return "constellations-parallel" if n >= 14 else "symmetry-parallel"


@queens.command()
@_n_option()
@click.option("--fundamental", is_flag=True, help="Count symmetry classes instead.")
@click.option(
    "--method",
    type=click.Choice(["auto", *METHODS]),
    default="auto",
    show_default=True,
    help="How to count (auto: bitmask up to N = 12, symmetry-parallel at 13, "
    "constellations-parallel above; while the compiled kernels are not ready, see "
    "'boardgames cache warm': bitmask at 13 and serial constellations up to 16). " + _method_help(),
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Threads for the parallel methods (default: every core).",
)
@cluster_options("the count")
@click.option(
    "--tasks",
    type=click.IntRange(1, 1_000_000),
    default=None,
    help="With --cluster or --checkpoint: cut the start constellations into this many tasks "
    "(default: a few seconds of work each, at least 256 tasks from N = 18 on).",
)
@click.option("--yes", is_flag=True, help="Start a count estimated at more than a day.")
@json_option()
def count(
    n: int,
    fundamental: bool,
    method: str,
    workers: int | None,
    cluster: ClusterSpec | None,
    checkpoint: Path | None,
    tasks: int | None,
    yes: bool,
    as_json: bool,
) -> None:
    """Count the solutions for N (1 to 27) without listing them.

    A count that takes more than a second shows its progress on stderr with an estimate
    of the time left (a bar on a terminal, a line every few seconds otherwise), measured
    in solutions found against the published total. Ctrl-C stops any method within a
    second (status 130). Times exclude loading the numba kernels (a one-off compile on
    first use, cached afterwards).

    From N = 18 on, a count by start constellations (the default) first says how long it
    will take, from a timed sample of them, and refuses work of more than a day without
    --yes.
    With --cluster the start constellations are Dask tasks (local worker processes or a
    running scheduler); with --checkpoint a stopped count goes on where it stopped.
    """

    _check(n, MAX_COUNT_N)
    if cluster is not None or checkpoint is not None:
        if method != "auto" or workers is not None:
            raise click.UsageError(
                "--cluster and --checkpoint count by start constellations, one thread a "
                "worker: leave out --method and --workers"
            )
        _count_on_cluster(n, fundamental, cluster, checkpoint, tasks, yes, as_json)
        return
    if tasks is not None:
        raise click.UsageError("--tasks applies with --cluster or --checkpoint only")
    chosen = _pick_method(method, n, workers)
    if workers is not None and not chosen.endswith("parallel"):
        raise click.UsageError("--workers applies to the parallel methods only")
    _check_workers(workers)
    err = make_console(stderr=True)
    if method == "auto" and n > PURE_N and chosen in counting.PURE_METHODS:
        warmup.warm_in_background("queens")
        err.print(
            Text(
                f"(counted in pure Python, {chosen}, while the compiled kernels are prepared "
                "in the background for the next counts: boardgames cache warm queens)"
            ),
            soft_wrap=True,
        )
    method = chosen
    if method in JIT_METHODS:
        _load_kernels(err, method, workers, n, fundamental)
    if method.startswith("constellations"):  # what the estimate measures
        _check_duration(err, n, _threads(method, workers), yes)
    with _count_progress(err, n, method) as bar:
        result = counting.run_count(n, method, fundamental, workers, bar.update)
    if method in JIT_METHODS and not warmup.is_ready("queens"):
        # compiled here what this count needed: the rest of the group in the background
        warmup.warm_in_background("queens")
    if as_json:
        print_json(result.as_dict())
        return
    kind = "fundamental solutions" if fundamental else "solutions"
    how = f"{method}, {result.workers} workers" if method.endswith("parallel") else method
    make_console().print(
        f"N = {n}: [bold]{result.count:,}[/] {kind} ({how}, {result.seconds:.3f} s)"
    )


ESTIMATE_FROM_N = 18
"""From this N on, a count first prints an estimate of its duration."""


def _threads(method: str, workers: int | None) -> int:
    import os

    return (workers or os.cpu_count() or 1) if method.endswith("parallel") else 1


def _check_duration(err: Console, n: int, threads: int, yes: bool) -> None:
    """Say how long a count of N will take on ``threads`` threads (from N =
    :data:`ESTIMATE_FROM_N` on); refuse work of more than a day without ``yes``."""
    if n < ESTIMATE_FROM_N:
        return

    with interruptible(lambda: "Stopped (Ctrl-C) while estimating the count's duration."):
        guess = estimate(n)
    seconds = guess.wall(threads)
    basis = f"timed on {guess.sampled:,} start constellations"
    if guess.at_n != n:
        basis += f" of N = {guess.at_n}, scaled by the solution counts"
    err.print(Text(f"N = {n}: {describe_estimate(seconds, threads)} ({basis})."), soft_wrap=True)
    if seconds > DAY and not yes:
        raise InputError(
            f"N = {n} would take {describe_estimate(seconds, threads)}; add --yes to start "
            "it anyway, or spread it over a cluster (--cluster)"
        )


def _count_on_cluster(
    n: int,
    fundamental: bool,
    cluster: ClusterSpec | None,
    checkpoint: Path | None,
    chunks: int | None,
    yes: bool,
    as_json: bool,
) -> None:
    """``queens count`` with --cluster or --checkpoint: start constellations as tasks."""

    err = make_console(stderr=True)
    counted = 0
    runner = Runner(cluster, err)
    # a local cluster's workers start while this process compiles the kernels they load
    runner.prepare(queens_tasks.warm, n)
    with runner:
        with Progress("Loading the numba kernels on the workers", console=err, delay=3.0):
            warm = runner.warm(queens_tasks.warm, n)
        _check_duration(err, n, runner.threads(), yes)
        plan = queens_tasks.plan(n, fundamental, chunks)
        bar = Progress(f"N = {n}, constellations", expected_total(n), "solutions", console=err)

        def add(key: str, value: int) -> None:
            nonlocal counted
            if plan.kind(key) == "border":
                counted += value
                bar.update(counted, detail=f"{runner.workers} workers")

        report = runner.run(
            queens_tasks.count_task,
            plan.tasks,
            label=f"N = {n}",
            checkpoint=Checkpoint(checkpoint, plan.job) if checkpoint else None,
            on_result=add,
            progress=bar,
        )
        where = runner.as_dict()
        startup = runner.startup_seconds
    total = sum(v for k, v in report.results.items() if plan.kind(k) == "border")
    result: dict[str, object] = {"n": n, "fundamental": fundamental}
    if fundamental:
        value, parts = queens_tasks.fundamental_total(n, report.results)
        result.update(count=value, **parts)
    else:
        result["count"] = value = total
    result.update(
        method="constellations",
        seconds=round(report.seconds, 6),
        **where,
        tasks=len(plan.tasks),
        computed=report.computed,
        resumed=report.resumed,
        constellations=plan.constellations,
        startup_seconds=round(startup, 3),
        warmup_seconds=round(max(warm.values(), default=0.0), 3),
    )
    if checkpoint is not None:
        result["checkpoint"] = str(checkpoint)
    if as_json:
        print_json(result)
        return
    kind = "fundamental solutions" if fundamental else "solutions"
    resumed = f", {report.resumed:,} from {checkpoint}" if report.resumed else ""
    place = "in this process" if cluster is None else f"on {where['workers']} workers ({cluster})"
    make_console().print(
        f"N = {n}: [bold]{value:,}[/] {kind} (constellations, {len(plan.tasks):,} tasks"
        f"{resumed}, {place}, {report.seconds:.3f} s)",
        soft_wrap=True,
    )


def _load_kernels(
    err: Console, method: str, workers: int | None, n: int | None = None, fundamental: bool = False
) -> None:
    """Load (on a cold cache: compile) the numba kernels (with ``n``, those that a count of
    N by ``method`` uses), saying so if it takes a while."""

    label = "Loading the numba kernels (compiled on first use, then cached)"
    with (
        Progress(label, console=err, delay=3.0),
        interruptible(lambda: "Stopped (Ctrl-C) while loading the numba kernels."),
    ):
        load_kernels(method, workers, n, fundamental)


def _count_progress(err: Console, n: int, method: str) -> Progress:
    """The progress of a count: solutions found of the published total."""

    return Progress(f"N = {n}, {method}", expected_total(n), "solutions", console=err)


# --- compare -------------------------------------------------------------------------------


@click.command("queens")
@_n_option(default=10)
@click.option("--fundamental", is_flag=True, help="Compare fundamental counts instead.")
@click.option(
    "--methods",
    default=",".join(METHODS),
    show_default=True,
    help="Comma-separated methods to run (speed-ups are against the first).",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Threads for the parallel methods (default: every core).",
)
@json_option()
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Also draw the times as a bar chart into this PNG file (needs matplotlib).",
)
def compare_command(
    n: int,
    fundamental: bool,
    methods: str,
    workers: int | None,
    as_json: bool,
    plot: str | None,
) -> None:
    """Run the N-queens counting methods on the same N and show them side by side.

    From the naive board that marks attacked squares to the parallel jitted kernel:
    count, seconds and speed-up over the first method. Checks that every count agrees
    (and exits with status 1 if not). JIT compile/load time is shown apart.
    """

    _check(n, MAX_COUNT_N)
    chosen = [m.strip().lower() for m in methods.split(",") if m.strip()]
    unknown = [m for m in chosen if m not in METHODS]
    if unknown or not chosen:
        raise click.UsageError(
            f"unknown method {', '.join(map(quote, unknown)) or '(none)'}; "
            f"choose from {', '.join(METHODS)}"
        )
    if len(set(chosen)) != len(chosen):
        raise click.UsageError("each method may appear once in --methods")
    _check_workers(workers)
    plot_path = plot
    if plot_path is not None and not plot_path.lower().endswith(".png"):
        raise click.UsageError(f"--plot {plot_path}: the file name must end in .png")
    check_output("--plot", plot_path)
    if plot_path is not None:
        _need_matplotlib()

    err = make_console(stderr=True)
    slow = [m for m in chosen if n > SLOW_ABOVE.get(m, MAX_COUNT_N)]
    if slow:
        err.print(
            f"Note: {', '.join(slow)} at N = {n} may take minutes to hours (Ctrl-C stops); "
            "--methods numba,symmetry,constellations,constellations-parallel runs the fast "
            "ones only."
        )
    jit_seconds = None
    results = []
    try:
        if any(m in JIT_METHODS for m in chosen):
            import time

            t0 = time.perf_counter()
            _load_kernels(err, "parallel", workers)
            for m in chosen:
                if m in CONSTELLATION_METHODS:
                    _load_kernels(err, m, workers if m.endswith("parallel") else None, n)
            jit_seconds = time.perf_counter() - t0
        for m in chosen:
            with _count_progress(err, n, m) as bar:
                w = workers if m.endswith("parallel") else None
                results.append(counting.run_count(n, m, fundamental, w, progress=bar.update))
    except Stopped as e:
        done = ", ".join(r.method for r in results)
        raise Stopped(f"{e} Comparison stopped" + (f" after {done}." if done else ".")) from None
    counts = {r.count for r in results}
    agree = len(counts) == 1
    base = results[0].seconds
    rows: list[dict[str, object]] = [
        {
            "method": r.method,
            "count": r.count,
            "seconds": round(r.seconds, 6),
            "speedup": round(base / r.seconds, 2) if r.seconds > 0 else None,
            "workers": r.workers,
        }
        for r in results
    ]
    if plot_path is not None:
        _plot(plot_path, n, fundamental, rows)
    if as_json:
        print_json(
            {
                "game": "queens",
                "n": n,
                "fundamental": fundamental,
                "agree": agree,
                "jit_load_seconds": None if jit_seconds is None else round(jit_seconds, 3),
                "methods": rows,
            }
        )
    else:
        _compare_table(n, fundamental, rows, jit_seconds, agree, plot_path)
    if not agree:
        raise SystemExit(1)


def _compare_table(
    n: int,
    fundamental: bool,
    rows: list[dict[str, object]],
    jit_seconds: float | None,
    agree: bool,
    plot_path: str | None,
) -> None:

    console = make_console()
    kind = "fundamental solutions" if fundamental else "solutions"
    table = Table(
        title=f"{n} queens: counting {kind}",
        caption=f"speed-up against {rows[0]['method']}",
    )
    table.add_column("method")
    table.add_column("how")
    table.add_column("count", justify="right")
    table.add_column("seconds", justify="right")
    table.add_column("speed-up", justify="right")
    for r in rows:
        how = METHODS[str(r["method"])]
        if str(r["method"]).endswith("parallel"):
            how += f", {r['workers']} threads"
        sp = r["speedup"]
        table.add_row(
            str(r["method"]),
            how,
            f"{r['count']:,}",
            f"{r['seconds']:.4f}",
            "-" if sp is None else f"{sp:,.1f}x",
        )
    console.print(table)
    if jit_seconds is not None:
        console.print(f"numba kernels loaded in {jit_seconds:.2f} s (not in the times above).")
    if agree:
        console.print(f"[bold green]All {len(rows)} methods agree[/]: {rows[0]['count']:,}.")
    else:
        console.print(
            "[bold red]DISAGREE[/]: " + ", ".join(f"{r['method']} {r['count']:,}" for r in rows)
        )
    if plot_path is not None:
        console.print(f"Plot written to {plot_path}.")


def _need_matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise click.ClickException(
            "--plot needs matplotlib, which is not installed; "
            "install the optional extra: pip install 'boardgames[plot]'"
        ) from None


def _plot(path: str, n: int, fundamental: bool, rows: list[dict[str, object]]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [str(r["method"]) for r in rows]
    secs = [max(float(r["seconds"]), 1e-6) for r in rows]  # type: ignore[arg-type]
    fig, ax = plt.subplots(figsize=(7, 3.5))
    bars = ax.barh(names[::-1], secs[::-1], color="tab:blue")
    ax.set_xscale("log")
    ax.set_xlim(min(secs) / 3, max(secs) * 6)  # room for the labels right of the bars
    ax.set_xlabel("seconds (log scale)")
    kind = "fundamental solutions" if fundamental else "solutions"
    ax.set_title(f"{n} queens: counting {kind} ({rows[0]['count']:,})")
    for bar, s in zip(bars, secs[::-1], strict=True):
        ax.text(s, bar.get_y() + bar.get_height() / 2, f" {s:.3g} s", va="center")
    fig.tight_layout()
    try:
        save_figure(fig, path, dpi=120)
    finally:
        plt.close(fig)
