"""``kalah solve --cluster / --checkpoint-dir / --at-least / --at-most``: the job-level solve.

The options live on ``kalah solve`` (solve_cli.py); this module runs the front end of
:mod:`boardgames.kalah.jobs.search` with a progress line, Ctrl-C and the report.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from boardgames.cli.options import FOLDER, checkpoint_dir_option, cluster_option
from boardgames.core import warmup
from boardgames.core.cluster import ClusterError, ClusterSpec, Runner
from boardgames.core.console import make_console, print_json
from boardgames.core.progress import Progress, Stopped, stopped_message
from boardgames.kalah.cli.tables import load_table
from boardgames.kalah.game import PLAYER_NAMES
from boardgames.kalah.jobs.store import BoundStore, StoreError
from boardgames.kalah.play.warm import GUESS_STEP, SOLVER_STEP

if TYPE_CHECKING:
    import numpy as np

    from boardgames.kalah.jobs.search import JobSearch


def job_options(f: Any) -> Any:
    """The job-level options of ``kalah solve``."""
    options = [
        cluster_option(
            "the solve by jobs",
            local="one worker using every core; local:N for N workers",
            scheduler="a running dask scheduler; start one worker a machine, its threads = "
            "the machine's cores",
            otherwise="plain kalah solve (or jobs in this process with --checkpoint-dir / "
            "--at-least / --at-most)",
        ),
        checkpoint_dir_option(
            "Keep every proven bound in DIR/bounds.sqlite as it is proven; rerun the same "
            "command to go on (nothing proven is searched again)."
        ),
        click.option(
            "--at-least",
            type=click.IntRange(-480, 480),
            default=None,
            metavar="V",
            help="Only test: is the value for the side to move at least V?",
        ),
        click.option(
            "--at-most",
            type=click.IntRange(-480, 480),
            default=None,
            metavar="V",
            help="Only test: is the value for the side to move at most V?",
        ),
        click.option(
            "--job-nodes",
            type=click.IntRange(1000, 10**12),
            default=None,
            metavar="N",
            help="Positions a job searches (per thread) before it is split into its "
            "children's jobs  [default: 10,000,000, a few seconds]",
        ),
        click.option(
            "--endgame-mmap",
            is_flag=True,
            help="Workers map their endgame table from its file instead of reading it into "
            "memory: the workers of one machine share one copy (the page cache); solves "
            "are about 10% slower.",
        ),
        click.option(
            "--endgame-dir",
            type=FOLDER,
            default=None,
            metavar="DIR",
            help="Workers take their endgame tables from DIR (a shared disk) instead of "
            "their own cache.",
        ),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def wanted(cluster: Any, checkpoint: Any, at_least: Any, at_most: Any) -> bool:
    """True when the options ask for the job-level solve."""
    return any(x is not None for x in (cluster, checkpoint, at_least, at_most))


def run_job_solve(
    *,
    pits: int,
    rules: str,
    empty_capture: bool,
    state: np.ndarray,
    base: dict[str, Any],
    what: str,
    cluster: ClusterSpec | None,
    checkpoint: Path | None,
    at_least: int | None,
    at_most: int | None,
    job_nodes: int | None,
    endgame_spec: str,
    endgame_dir: Path | None,
    endgame_mmap: bool,
    stones: int,
    hash_mb: float,
    as_json: bool,
) -> None:
    """Run the front end and print the value (or the bound asked for)."""
    from boardgames.kalah.jobs.search import DEFAULT_JOB_NODES, JobSearch, bound_text
    from boardgames.kalah.jobs.worker import (
        abandon_job,
        prepare_job,
        solve_job,
        stop_jobs,
        warm_job,
    )

    if at_least is not None and at_most is not None:
        raise click.UsageError("give --at-least or --at-most, not both")
    console = make_console(stderr=as_json)
    err = make_console(stderr=True)
    side = int(state[2 * pits + 2])
    mover = PLAYER_NAMES[side]
    total = int(state[: 2 * pits + 2].sum())
    endgame = str(stones) if endgame_spec != "auto" or cluster is None else "auto"
    if endgame_dir is not None:
        endgame = f"dir={endgame_dir}:{endgame}"
    if endgame_mmap:
        endgame += "+mmap"
    store = None
    known: dict[str, list[Any]] = {}
    game = {
        "game": "kalah",
        "pits": pits,
        "rules": rules,
        "empty_capture": empty_capture,
        "total": total,
    }
    runner = Runner(cluster, err, machine_workers=True)
    search: JobSearch | None = None
    t0 = time.perf_counter()
    try:
        if checkpoint is not None:
            store = BoundStore(checkpoint, game)
            try:
                known = store.open()
            except StoreError as e:
                raise click.UsageError(str(e)) from None
            if store.skipped:
                err.print(
                    f"Warning: checkpoint {store.path}: {store.skipped} damaged rows skipped "
                    "(their jobs run again).",
                    highlight=False,
                    soft_wrap=True,
                )
        table = None
        if cluster is None and not endgame_mmap:
            table = load_table(console, pits, stones, as_json, empty_capture)
        # on a fresh machine, while a local cluster's workers start: the solver's kernels
        # (the workers load them) and the engine of the first guesses (this process
        # searches with it) compile in processes of their own, and this one compiles the
        # table's kernels and builds the table the workers will load
        solver_aside = guess_aside = None
        if cluster is not None and not warmup.step_ready("kalah", SOLVER_STEP):
            solver_aside = warmup.compile_aside(SOLVER_STEP)
        if cluster is not None and not warmup.step_ready("kalah", GUESS_STEP):
            guess_aside = warmup.compile_aside(GUESS_STEP)
        compile_solver = solver_aside is None
        runner.prepare(prepare_job, pits, rules, empty_capture, total, endgame, compile_solver)
        runner.start()
        with Progress("Loading the solver on the workers", console=err, delay=3):
            warmup.wait_aside(solver_aside)
            runner.warm(
                warm_job, pits, rules, empty_capture, total, endgame, hash_mb, table
            ) if cluster is None else runner.warm(
                warm_job, pits, rules, empty_capture, total, endgame, hash_mb
            )
            warmup.wait_aside(guess_aside)
        pool = runner.pool(solve_job, interrupt=stop_jobs, abandon=abandon_job)
        t0 = time.perf_counter()  # the solve's time: loading and compiling are not counted
        bar = Progress(f"Solving {what} by jobs", None, "positions", console=err)
        shown = [0.0]

        def tick(s: JobSearch) -> None:
            now = time.perf_counter()
            if now - shown[0] < 0.5:
                return
            shown[0] = now
            bar.update(s.stats.nodes, detail=_detail(s, runner, now - t0))

        search = JobSearch(
            pits, rules, empty_capture, state, pool,
            job_nodes=job_nodes or DEFAULT_JOB_NODES, endgame=endgame,
            hash_mb=hash_mb, store=store, known=known, tick=tick, table_stones=stones,
        )  # fmt: skip
        with bar:
            if at_least is not None or at_most is not None:
                t = at_least if at_least is not None else at_most + 1  # type: ignore[operator]
                holds = search.test(t)
                value, best = None, []
                test = {"at_least": t, "holds": holds}
                if at_most is not None:
                    test = {"at_most": at_most, "holds": not holds}
            else:
                value = search.value()
                best = search.best_line(value)
                test = None
        placed = runner.as_dict()
    except KeyboardInterrupt:
        runner.close(now=True)
        detail = ""
        if search is not None:
            lo, hi = search.node_bounds(search.root)
            after = ", ".join(
                f"{m['pit']}: {bound_text(m['lower'], m['upper'], total)}"
                for m in search.first_moves()
            )
            detail = (
                f": {search.stats.jobs:,} jobs, {search.stats.nodes:,} positions; the value was "
                f"{bound_text(lo, hi, total)}"
                + (f" (after each first sowing: {after})" if after else "")
            )
        if store is not None:
            detail += f"; {store.path} keeps every proven bound"
        raise Stopped(stopped_message(time.perf_counter() - t0, extra=detail)) from None
    except ClusterError as e:
        if store is None:
            raise
        raise ClusterError(
            f"{e.message} ({store.path} keeps every proven bound: rerun to go on)"
        ) from None
    finally:
        if search is not None:
            if checkpoint is not None:
                _append_log(Path(checkpoint) / "jobs.jsonl", search)
            search.close()
        elif store is not None:
            store.close()
        runner.close()
    seconds = time.perf_counter() - t0
    lo, hi = search.node_bounds(search.root)
    stats = search.stats
    data = {
        **base,
        "value": value,
        "lower": lo,
        "upper": hi,
        "best": best,
        "test": test,
        "nodes": stats.nodes,
        "seconds": round(seconds, 3),
        "endgame": endgame,
        "jobs": stats.jobs,
        "jobs_split": stats.over_budget,
        "jobs_cancelled": stats.cancelled,
        "job_nodes": job_nodes or DEFAULT_JOB_NODES,
        "checkpoint": str(store.path) if store is not None else None,
        "checkpoint_hits": stats.checkpoint_bounds,
        "first_moves": search.first_moves(),
        **placed,
    }
    if as_json:
        print_json(data)
        return
    if value is not None:
        verdict = _verdict(mover, value)
        console.print(
            f"Value for {mover} (to move): [bold]{value:+d}[/] ({verdict} with perfect play)"
        )
        if best:
            console.print(f"Best move: {' '.join(map(str, best))}")
    else:
        assert test is not None
        if "at_least" in test:
            claim = f"at least {test['at_least']:+d}"
        else:
            claim = f"at most {test['at_most']:+d}"
        answer = "yes" if test["holds"] else "no"
        console.print(
            f"Is the value for {mover} (to move) {claim}? [bold]{answer}[/]: proven bounds "
            f"{bound_text(lo, hi, total)}",
            soft_wrap=True,
        )
    moves = search.first_moves()
    if moves:
        console.print(
            "After each first sowing: "
            + ", ".join(f"{m['pit']}: {bound_text(m['lower'], m['upper'], total)}" for m in moves),
            soft_wrap=True,
        )
    rate = stats.nodes / max(seconds, 1e-9)
    console.print(
        f"{stats.jobs:,} job{'s' if stats.jobs != 1 else ''} "
        f"({stats.over_budget:,} split past their budget, "
        f"{stats.cancelled:,} cancelled) {_where(placed)}; {stats.nodes:,} positions in "
        f"{seconds:.2f} s "
        f"({rate / 1e6:.2f} M/s); "
        + (
            f"bounds of {stats.checkpoint_bounds:,} positions from {store.path}"
            if store is not None
            else "no checkpoint"
        ),
        highlight=False,
        soft_wrap=True,
    )


def _append_log(path: Path, search: JobSearch) -> None:
    """Every job of this run, one JSON line each (for the scaling simulation)."""
    from boardgames.kalah.jobs.search import job_log_lines

    try:
        with path.open("a", encoding="utf-8") as f:
            f.writelines(line + "\n" for line in job_log_lines(search.stats))
    except OSError:
        pass


def _where(placed: dict[str, Any]) -> str:
    if placed["cluster"] == "in-process":
        return "in this process"
    n = placed["workers"]
    return f"on {placed['cluster']} ({n} worker{'s' if n != 1 else ''})"


def _verdict(mover: str, value: int) -> str:
    if value > 0:
        return f"{mover} wins by {value}"
    if value < 0:
        return f"{mover} loses by {-value}"
    return "a draw"


def _detail(search: JobSearch, runner: Runner, seconds: float) -> str:
    from boardgames.kalah.jobs.search import bound_text

    lo, hi = search.node_bounds(search.root)
    rate = search.stats.nodes / max(seconds, 1e-9)
    moves = " ".join(
        f"{m['pit']}:{bound_text(m['lower'], m['upper'], search.total)}"
        for m in search.first_moves()
    )
    return (
        f"value {bound_text(lo, hi, search.total)} (testing >= {search.threshold:+d}); jobs "
        f"{search.stats.jobs - len(search.running):,} done, {len(search.running)} running, "
        f"{search.open_leaves():,} waiting; {rate / 1e6:.2f} M pos/s on {runner.workers} "
        f"worker{'s' if runner.workers != 1 else ''}" + (f"; first moves {moves}" if moves else "")
    )
