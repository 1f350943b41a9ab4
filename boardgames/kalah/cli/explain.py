"""``boardgames kalah explain``: which program settings would have played a recorded
game (:mod:`boardgames.kalah.analysis.explain` does the work)."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from boardgames.cli import InputError
from boardgames.cli.options import json_option
from boardgames.core.console import file_name, make_console, print_json
from boardgames.core.progress import (
    Progress,
    interruptible,
    stopped_message,
)
from boardgames.core.protocol import (
    GameError,
    describe_score,
    quote,
)
from boardgames.core.strategies import EXACT_STRATEGIES
from boardgames.core.tables import Col, FitTable
from boardgames.kalah.analysis.explain import (
    ENDS,
    OTHER,
    SAME,
    SWEEP_STRATEGIES,
    TIE,
    Explainer,
    Grid,
    MoveCheck,
    SettingResult,
    check_unswept,
    never_played,
    sweep,
)
from boardgames.kalah.cli.options import load_record
from boardgames.kalah.eval import EVALUATIONS
from boardgames.kalah.game import PLAYER_NAMES, Kalah
from boardgames.kalah.play.match import parse_spec


def _pits(pits: Sequence[int]) -> str:
    return " ".join(map(str, pits)) or "-"


def _range(text: str, name: str, lo: int, hi: int) -> tuple[int, ...]:
    """``1-8`` or ``5,6,7`` as a tuple of ints in [lo, hi]; UsageError otherwise."""
    values: list[int] = []
    for part in text.split(","):
        part = part.strip()
        a, sep, b = part.partition("-")
        try:
            if not (a.isascii() and a.isdecimal()) or (sep and not (b.isascii() and b.isdecimal())):
                raise ValueError
            first, last = int(a), int(b) if sep else int(a)
        except ValueError:
            raise click.UsageError(
                f"--{name} takes numbers and ranges such as 1-8 or 4,6; got {quote(part)}"
            ) from None
        if first > last and lo <= last and first <= hi:
            raise click.UsageError(
                f"--{name} takes a range from low to high, such as {last}-{first}; "
                f"got {quote(part)}"
            )
        if not lo <= first <= last <= hi:
            raise click.UsageError(f"--{name} must lie in {lo}-{hi}; got {quote(part)}")
        values.extend(range(first, last + 1))
    return tuple(sorted(set(values)))


def _names(text: str, name: str, allowed: Sequence[str]) -> tuple[str, ...]:
    chosen = tuple(dict.fromkeys(p.strip().lower() for p in text.split(",") if p.strip()))
    bad = [p for p in chosen if p not in allowed]
    if bad or not chosen:
        raise click.UsageError(
            f"--{name} takes a comma-separated list of {', '.join(allowed)}; got {quote(text)}"
        )
    return chosen


def _cell(check: MoveCheck) -> str:
    if check.status == SAME:
        return "[green]=[/]"
    if check.status == TIE:
        return f"[yellow]{_pits(check.chosen)} tie[/]"
    return f"[red]{_pits(check.chosen)}[/]"


def _letter(i: int) -> str:
    return "abcdefghijklmnopqrstuvwxyz"[i] if i < 26 else str(i + 1)


def moves_table(results: Sequence[SettingResult], title: str) -> FitTable:
    """Move by move: what each setting chooses (``=`` the recorded move)."""
    columns = [Col("#", "right", number=True), Col("who", "center"), Col("played", number=True)]
    columns += [Col(_letter(i), number=True) for i in range(len(results))]
    caption = "\n".join(f"{_letter(i)}: {r.description}" for i, r in enumerate(results))
    caption += "\n=: the recorded move; tie: another, as good at its depth"
    table = FitTable(columns, title=title, caption=caption, title_justify="left")
    for k, check in enumerate(results[0].checks):
        table.add_row(
            str(check.move), check.player, _pits(check.played),
            *(_cell(r.checks[k]) for r in results),
        )  # fmt: skip
    return table


def summary_line(result: SettingResult, total: int) -> str:
    """One line: how many moves the setting reproduces and where it first does not."""
    first = result.first_other
    ties = f", {result.ties} tie{'' if result.ties == 1 else 's'}" if result.ties else ""
    text = f"{result.description}: {result.same} of {total} moves the same{ties}"
    if first is None:
        return text + "; every move as recorded."
    worth = ""
    if first.status == OTHER and first.value is not None and first.played_value is not None:
        worth = (
            f": {describe_score(first.played_value)} against "
            f"{describe_score(first.value)} at its depth"
        )
    return (
        f"{text}; first other at move {first.move} ({first.player} played "
        f"{_pits(first.played)}, it plays {_pits(first.chosen)}"
        f"{', a tie' if first.status == TIE else ''}{worth})."
    )


SWEEP_COLUMNS = (
    Col("strategy"),
    Col("depth", "right", number=True),
    Col("eval"),
    Col("unit"),
    Col("same", "right", number=True),
    Col("ties", "right", number=True, drop=1),
    Col("first\nother", "right", number=True),
    Col("it plays", drop=2),
)


def sweep_table(ranked: Sequence[SettingResult], total: int, top: int, title: str) -> FitTable:
    """The ``top`` best settings of a sweep."""
    table = FitTable(SWEEP_COLUMNS, title=title, title_justify="left")
    for r in ranked[:top]:
        first = r.first_other
        table.add_row(
            r.strategy, str(r.depth), r.evaluation, r.unit, f"{r.same}/{total}",
            str(r.ties), "-" if first is None else str(first.move),
            "" if first is None else _pits(first.chosen) + (" tie" if first.status == TIE else ""),
        )  # fmt: skip
    return table


def sweep_lines(ranked: Sequence[SettingResult], total: int) -> list[str]:
    """The sweep's conclusions in words."""
    if not ranked:
        return []
    best = ranked[0]
    tops = [r for r in ranked if r.same == best.same]
    longest = max(r.run for r in ranked)
    runners = [r for r in ranked if r.run == longest]
    lines = [
        f"{len(ranked)} settings tried. Most moves the same: {best.same} of {total}, by "
        f"{len(tops)} setting{'s' if len(tops) != 1 else ''} (best: {best.description})."
    ]
    if longest == total:
        lines.append(f"{len(runners)} setting(s) play every move as recorded.")
    else:
        nxt = runners[0].checks[longest]
        lines.append(
            f"No setting plays every move up to move {longest + 1} ({nxt.player}: "
            f"{_pits(nxt.played)}): the longest run from the start is {longest} moves, by "
            f"{len(runners)} setting{'s' if len(runners) != 1 else ''}."
        )
    missing = never_played(ranked)
    if missing:
        shown = ", ".join(f"{c.move} ({c.player}: {_pits(c.played)})" for c in missing)
        lines.append(f"Moves no setting plays: {shown}.")
    return lines


@click.command("explain")
@click.argument("file", type=click.Path(dir_okay=False), callback=file_name("game.klh"))
@click.option(
    "--program",
    "specs",
    multiple=True,
    metavar="SPEC",
    help="A program setting as kalah match takes it (depth=6,eval=store,strategy=alphabeta "
    "or a preset such as classic); give it more than once to compare settings.",
)
@click.option(
    "--search",
    "do_sweep",
    is_flag=True,
    help="Try a grid of settings (--strategies x --depths x --evals x --units) and rank "
    "them by the moves they reproduce.",
)
@click.option("--strategies", default=",".join(SWEEP_STRATEGIES), show_default=True,
              help="Strategies of the grid (minimax chooses what alphabeta chooses).")  # fmt: skip
@click.option("--depths", default="1-8", show_default=True, help="Depths of the grid.")
@click.option("--evals", default=",".join(EVALUATIONS), show_default=True,
              help="Evaluations of the grid.")  # fmt: skip
@click.option("--units", default="compound,sowing", show_default=True,
              help="Depth units of the grid: compound (a turn a level) or sowing.")  # fmt: skip
@click.option(
    "--ends",
    default="rules",
    show_default=True,
    help="rules: the engine (a finished game scores its final margin, above any "
    "evaluation); unswept: plain F2 in pure Python that scores a finished game by the "
    "evaluation before the stones left in the pits go to their owner (a reading of the "
    "classic program; alphabeta only); rules,unswept: each setting both ways.",
)
@click.option("--top", type=click.IntRange(1, 10_000), default=12, show_default=True,
              help="Settings shown in the table of --search (--json has all).")  # fmt: skip
@json_option()
def explain(
    file: Path,
    specs: tuple[str, ...],
    do_sweep: bool,
    strategies: str,
    depths: str,
    evals: str,
    units: str,
    ends: str,
    top: int,
    as_json: bool,
) -> None:
    """Which program settings would have played the moves of a game record.

    For every move: would the setting have chosen exactly the recorded compound move from
    the position before it? "=" yes; "tie": it chooses another, but the recorded move is
    worth as much at its depth (another order among equal moves would play it); else the
    move it chooses. With --search it tries a grid of settings and ranks them by the moves
    they reproduce and by the first move where each chooses another; the progress and an
    estimate of the time left are on stderr, Ctrl-C stops (status 130). Example:

    \b
        boardgames kalah explain docs/games/strange-game.txt --program classic,depth=6
        boardgames kalah explain game.klh --search --depths 4-7 --evals store
    """

    if not specs and not do_sweep:
        raise click.UsageError("give --program SPEC (one or more) or --search")
    models = _names(ends, "ends", ENDS)
    grid = None
    if do_sweep:
        grid = Grid(
            _names(strategies, "strategies", EXACT_STRATEGIES),
            _range(depths, "depths", 1, 20),
            _names(evals, "evals", EVALUATIONS),
            _names(units, "units", ("compound", "sowing")),
            models,
        )
        if not grid.settings():
            raise click.UsageError("--ends unswept plays --strategies alphabeta or minimax only")
    configs = []
    for spec in specs:
        try:
            configs.append(parse_spec(spec))
        except GameError as e:
            raise click.UsageError(f"--program {quote(spec)}: {e}") from None
    record, steps, _ = load_record(file)
    game = record.game
    if not steps:
        raise InputError(f"{file}: the record holds no moves")
    if "unswept" in models:
        for spec, config in zip(specs, configs, strict=True):
            try:
                check_unswept(game, config)
            except GameError as e:
                raise click.UsageError(f"--program {quote(spec)}: {e}") from None
        if grid is not None and game.rules != "classic":
            raise click.UsageError("the unswept model is of the classic rules")
    explainer = Explainer(game, record.first, [s.pits for s in steps])
    err = make_console(stderr=True)
    total = len(steps)
    results: list[SettingResult] = []
    ranked: list[SettingResult] = []
    t0 = time.perf_counter()
    with interruptible(lambda: stopped_message(time.perf_counter() - t0)):
        for model in models:
            for spec, config in zip(specs, configs, strict=True):
                label = f"Checking {spec}" + (" (unswept)" if model == "unswept" else "")
                with Progress(label, total, "moves", console=err) as bar:
                    results.append(explainer.explain(config, spec, model, lambda k: bar.update(k)))
        if grid is not None:
            ranked = _sweep_with_progress(explainer, grid, err)
    if as_json:
        print_json(_json(file, game, explainer, results, ranked, grid))
        return
    out = make_console()
    if results:
        out.print(moves_table(results, f"Moves of {file}"))
        for r in results:
            out.print(summary_line(r, total), highlight=False)
    if grid is not None:
        title = f"{file}: {len(ranked)} settings, best first"
        out.print(sweep_table(ranked, total, top, title))
        for line in sweep_lines(ranked, total):
            out.print(line, highlight=False)


def _sweep_with_progress(explainer: Explainer, grid: Grid, err: Any) -> list[SettingResult]:
    """:func:`sweep` with a progress bar and an estimate of the time left on stderr; a
    Ctrl-C says how far it got."""
    n = len(grid.settings())
    share = [0.0]
    t0 = time.perf_counter()

    def stopped() -> str:
        return stopped_message(
            time.perf_counter() - t0, extra=f": the sweep of {n} settings was {share[0]:.0%} done"
        )

    # the bar counts settings, each weighted by its rough cost (deeper ones cost more)
    with (
        Progress(f"Trying {n} settings", n, "settings", console=err) as bar,
        interruptible(stopped),
    ):

        def on_progress(done: float, total: float, detail: str) -> None:
            share[0] = done / total if total else 1.0
            bar.update(share[0] * n, detail=detail)

        return sweep(explainer, grid, on_progress)


def _json(
    file: Path,
    game: Kalah,
    explainer: Explainer,
    results: Sequence[SettingResult],
    ranked: Sequence[SettingResult],
    grid: Grid | None,
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "file": str(file),
        "rules": game.rules,
        "pits": game.pits,
        "seeds": game.seeds,
        "moves": [
            {"move": k, "player": PLAYER_NAMES[game.to_move(s)], "played": list(p)}
            for k, (s, p) in enumerate(zip(explainer.positions, explainer.moves, strict=True), 1)
        ],
        "programs": [r.as_dict() for r in results],
    }
    if grid is not None:
        total = len(explainer.moves)
        data["search"] = {
            "grid": dataclasses.asdict(grid),
            "settings": [r.as_dict() for r in ranked],
            "longest_run": max((r.run for r in ranked), default=0),
            "most_same": max((r.same for r in ranked), default=0),
            "no_setting_plays": [c.move for c in never_played(ranked)],
            "moves": total,
        }
    return data
