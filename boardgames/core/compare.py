"""Run search strategies side by side on the same positions: table, agreement, JSON, plot.

Game-independent; a game's ``compare`` command chooses the positions and options and
calls :func:`run_comparison`, then :func:`comparison_table` / :func:`comparison_json`.
numba and matplotlib are imported only when needed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import click

from boardgames.core.files import save_figure
from boardgames.core.mcts import MctsSearcher
from boardgames.core.progress import run_in_thread
from boardgames.core.protocol import (
    Game,
    State,
    describe_score,
    is_terminal_score,
    quote,
    score_bound,
    short_score,
    terminal_score,
)
from boardgames.core.search import SearchStopped
from boardgames.core.strategies import (
    ENGINES,
    EXACT_STRATEGIES,
    STRATEGIES,
    numba_searcher,
    run_strategy,
)
from boardgames.core.tables import Col, FitTable

if TYPE_CHECKING:
    from boardgames.core.mcts import MctsResult
    from boardgames.core.protocol import SearchResult
    from boardgames.core.strategies import NumbaSearcher


@dataclass
class CompareRow:
    """One strategy on one engine over all positions."""

    strategy: str
    engine: str
    values: list[int] = field(default_factory=list)
    moves: list[int | None] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    """CPU seconds of the searching thread (see :func:`run_comparison`)."""
    wall_seconds: float = 0.0
    mcts: list[MctsResult] = field(default_factory=list)
    """Monte Carlo rows: each position's search (``values`` then hold 0s)."""
    best: list[bool | None] = field(default_factory=list)
    """Monte Carlo rows: whether the chosen move is one of the best moves at the depth of
    the exact strategies (None where none of them ran)."""

    @property
    def rate(self) -> float:
        """Positions per CPU second (Monte Carlo rows: playouts per CPU second)."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    @property
    def exact(self) -> bool:
        return STRATEGIES[self.strategy].exact


def parse_choice_list(text: str, allowed: Sequence[str], what: str) -> list[str]:
    """``a,b,c`` into a list, each checked against ``allowed`` (UsageError otherwise)."""
    items = [w.strip() for w in text.split(",") if w.strip()]
    if not items:
        raise click.UsageError(f"give at least one {what}; choose from {', '.join(allowed)}")
    for item in items:
        if item not in allowed:
            raise click.UsageError(
                f"unknown {what} {quote(item)}; choose from {', '.join(allowed)} (comma-separated)"
            )
    return list(dict.fromkeys(items))


def random_positions(
    game: Game, count: int, seed: int, plies: tuple[int, int] = (2, 12)
) -> list[State]:
    """``count`` unfinished positions after seeded random openings of ``plies[0]`` to
    ``plies[1]`` moves (the start position if none can be found)."""
    rng = random.Random(seed)
    out: list[State] = []
    tries = 0
    while len(out) < count and tries < 100 * count:
        tries += 1
        s = game.initial_state()
        for _ in range(rng.randint(*plies)):
            legal = game.legal_moves(s)
            if not legal:
                break
            s, _ = game.play(s, rng.choice(legal))
        if game.outcome(s) is None:
            out.append(s)
    return out or [game.initial_state()]


def generic_strategies(has_kernels: bool) -> list[str]:
    """The strategies the generic ``compare GAME`` offers: every depth-limited one, and
    Monte Carlo tree search (``mcts``, numba only) where the game has kernels."""
    return [*EXACT_STRATEGIES, *(["mcts"] if has_kernels else [])]


def plan(
    strategies: Sequence[str], engines: Sequence[str]
) -> tuple[list[tuple[str, str]], list[str]]:
    """The (strategy, engine) pairs that exist, and notes on the ones that do not."""
    pairs, notes = [], []
    for s in strategies:
        for e in engines:
            if e in STRATEGIES[s].engines:
                pairs.append((s, e))
            else:
                notes.append(f"{s} has no {e} engine")
    return pairs, notes


ComparisonStep = Callable[[int, int, str], None]
"""``step(done, total, label)``: searches finished, searches in all, what runs next."""


def run_comparison(
    game: Game,
    positions: Sequence[State],
    depth: int | None,
    pairs: Sequence[tuple[str, str]],
    *,
    again_is_ply: bool = False,
    tt_mib: float = 16.0,
    step: ComparisonStep | None = None,
    playouts: int = 20_000,
    seed: int = 1,
    stop: Callable[[], bool] | None = None,
) -> list[CompareRow]:
    """Run every pair on every position, timing each search; ``step`` hears of each one.

    numba kernels are loaded (or compiled) and run once on a tiny search before any
    timing, so the seconds are search time only. ``seconds`` is the CPU time of the thread
    that searches (``time.thread_time``): other programs on a busy machine, and a progress
    display's thread, do not inflate it; wall time is kept as well. A numba search runs in
    a worker thread, so that Ctrl-C (``KeyboardInterrupt``) reaches this one at once and
    stops the kernel; a Python search sees Ctrl-C itself.

    Monte Carlo rows (``mcts``) search ``playouts`` simulations each (seeded with
    ``seed``); their ``nodes`` count playouts, and each position records whether the move
    they chose is one of the best at ``depth`` (:func:`best_moves`, when an exact row ran).

    ``stop`` (a web page's Cancel) is asked before each search, by a Python search every
    256 positions, by Monte Carlo tree search before every batch of playouts, and every
    0.1 s while a numba search runs (whose kernel is then aborted); once it says True the
    comparison raises
    :class:`~boardgames.core.search.SearchStopped`.
    """
    if any(e == "numba" for _, e in pairs):
        searcher = numba_searcher(game, tt_mib)
        for s, e in pairs:
            if e == "numba" and STRATEGIES[s].exact:
                searcher.run(s, positions[0], 1, again_is_ply=again_is_ply)
    mcts = None
    if any(not STRATEGIES[s].exact for s, _ in pairs):
        mcts = MctsSearcher(game)  # compiled (or loaded) here, not in the timing
        mcts.search(positions[0], playouts=4)
    rows = [CompareRow(s, e) for s, e in pairs]
    total, done = len(rows) * len(positions), 0
    for row in rows:
        for state in positions:
            if step is not None:
                step(done, total, f"{row.strategy} ({row.engine})")
            if stop is not None and stop():
                raise SearchStopped(row.nodes)
            if not row.exact:
                assert mcts is not None
                c0, w0 = time.thread_time(), time.perf_counter()
                found = mcts.search(state, playouts=playouts, seed=seed, stop=stop)
                row.seconds += time.thread_time() - c0
                row.wall_seconds += time.perf_counter() - w0
                row.nodes += found.playouts
                row.mcts.append(found)
                row.values.append(0)
                row.moves.append(found.move)
            else:
                if row.engine == "numba":
                    result, cpu, wall = _numba_search(
                        numba_searcher(game, tt_mib),
                        row.strategy,
                        state,
                        depth,
                        again_is_ply,
                        stop,
                    )
                else:
                    c0, w0 = time.thread_time(), time.perf_counter()
                    result = run_strategy(
                        row.strategy,
                        game,
                        state,
                        depth,
                        engine="python",
                        again_is_ply=again_is_ply,
                        stop=stop,
                    )
                    cpu, wall = time.thread_time() - c0, time.perf_counter() - w0
                row.seconds += cpu
                row.wall_seconds += wall
                row.nodes += result.nodes
                row.values.append(result.value)
                row.moves.append(result.best_move)
            done += 1
    if step is not None:
        step(done, total, "done")
    exact = next((r for r in rows if r.exact), None)
    for row in rows:
        if row.exact:
            continue
        for k, state in enumerate(positions):
            if exact is None or depth == 0:  # depth 0 evaluates the root: no best move
                row.best.append(None)
                continue
            best = best_moves(game, state, depth, exact.values[k], again_is_ply, tt_mib)
            row.best.append(row.moves[k] in best)
    return rows


def _numba_search(
    searcher: NumbaSearcher,
    strategy: str,
    state: State,
    depth: int | None,
    again_is_ply: bool,
    stop: Callable[[], bool] | None = None,
) -> tuple[SearchResult, float, float]:
    """One timed numba search in a worker thread: (result, CPU seconds, wall seconds).

    Clearing the table (milliseconds for a large one) is set-up, not search. On Ctrl-C
    the kernel is aborted, waited for, and the ``KeyboardInterrupt`` goes on; when
    ``stop`` says True (asked every 0.1 s) the kernel is aborted, waited for, and
    :class:`~boardgames.core.search.SearchStopped` raised."""
    searcher.ws.clear_heuristics()

    def work() -> tuple[SearchResult, float, float]:
        c0, w0 = time.thread_time(), time.perf_counter()
        result = searcher.run(strategy, state, depth, again_is_ply=again_is_ply, fresh=False)
        return result, time.thread_time() - c0, time.perf_counter() - w0

    def tick() -> None:
        if stop is not None and stop():
            searcher.ws.abort()

    try:
        found = run_in_thread(work, stop=searcher.ws.abort, tick=tick)
    finally:
        searcher.ws.resume()
    if stop is not None and stop():
        raise SearchStopped(found[0].nodes)
    return found


def best_moves(
    game: Game,
    state: State,
    depth: int | None,
    value: int,
    again_is_ply: bool = False,
    tt_mib: float = 16.0,
) -> list[int]:
    """The moves of ``state`` whose depth-limited value is the position's ``value`` (each
    child searched by alpha-beta, one ply less deep unless the same player moves again and
    extra turns cost nothing; a finished game's score moved one ply up)."""
    searcher = numba_searcher(game, tt_mib)
    me = game.to_move(state)
    out = []
    for move in game.legal_moves(state):
        child, again = game.play(state, move)
        outcome = game.outcome(child)
        if outcome is not None:
            v = terminal_score(outcome if game.to_move(child) == me else -outcome, 1)
        else:
            d = None if depth is None else (depth if again and not again_is_ply else depth - 1)
            cv = searcher.run("alphabeta", child, d, again_is_ply=again_is_ply).value
            v = cv if again else -cv
            if is_terminal_score(v):  # the child's search counted plies from the child
                v -= 1 if v > 0 else -1
        if v == value:
            out.append(move)
    return out


def disagreements(rows: Sequence[CompareRow]) -> list[str]:
    """Every position where two exact strategies found different values, and every place
    where strategies whose rules fix the best move chose different moves."""
    problems: list[str] = []
    if not rows:
        return problems
    rows = [r for r in rows if r.exact]
    if not rows:
        return problems
    for k in range(len(rows[0].values)):
        values = {(r.strategy, r.engine): r.values[k] for r in rows}
        if len(set(values.values())) > 1:
            found = ", ".join(f"{s}/{e}={v}" for (s, e), v in values.items())
            problems.append(f"position {k + 1}: values differ: {found}")
        fixed = {
            (r.strategy, r.engine): r.moves[k] for r in rows if STRATEGIES[r.strategy].fixes_move
        }
        by_strategy: dict[str, set[int | None]] = {}
        for (s, _), m in fixed.items():
            by_strategy.setdefault(s, set()).add(m)
        for s, ms in by_strategy.items():
            if len(ms) > 1:
                problems.append(f"position {k + 1}: {s} chose different moves on its engines")
    return problems


def _values_text(values: list[int], exact: bool) -> str:
    if len(values) == 1:
        return describe_score(values[0], exact)
    shown = " ".join(short_score(v, exact) for v in values[:4])
    return shown + (f" … ({len(values)})" if len(values) > 4 else "")


BOUND_NOTE = (
    "win ≥N / loss ≥N: a finished game inside the depth, so a bound (the winner may win by "
    "more), not the exact value"
)


COMPARE_COLUMNS = (
    Col("strategy"),
    Col("engine"),
    Col("value(s)", "right"),
    Col("positions\nvisited", "right", number=True),
    Col("CPU\nseconds", "right", number=True),
    Col("positions\nper s", "right", number=True, drop=1),
    Col("speed-up", "right", number=True, drop=2),
)
"""The comparison table's columns; a narrow terminal leaves out positions per second,
then the speed-up (the caption says so)."""


def comparison_table(rows: Sequence[CompareRow], title: str, exact: bool = False) -> FitTable:
    """The table: values, positions visited, CPU seconds, positions per CPU second,
    speed-up; it fits the terminal it is printed on (no number is cut: see
    :class:`~boardgames.core.tables.FitTable`). ``exact``: the searches went to the end of
    the game (no depth limit), so their values are exact; else a finished-game score is
    shown as a bound."""
    base = next((r for r in rows if r.strategy == "alphabeta" and r.engine == "python"), None)
    if base is None:
        base = next((r for r in rows if r.strategy == "alphabeta"), None)
    caption = "seconds: CPU time of the search alone (JIT and cache loading excluded)"
    if not exact and any(score_bound(v, False) for r in rows for v in r.values):
        caption += "\n" + BOUND_NOTE
    if base is not None:
        caption += f"\nspeed-up: seconds of alphabeta ({base.engine}) / seconds of the row"
    table = FitTable(COMPARE_COLUMNS, title=title, caption=caption)
    for r in (r for r in rows if r.exact):
        speed = "—" if base is None or r.seconds <= 0 else f"{base.seconds / r.seconds:,.1f}×"
        table.add_row(
            r.strategy,
            r.engine,
            _values_text(r.values, exact),
            f"{r.nodes:,}",
            f"{r.seconds:.4f}",
            f"{r.rate:,.0f}",
            speed,
        )
    return table


MCTS_COLUMNS = (
    Col("strategy"),
    Col("position", "right", number=True),
    Col("move", "right", number=True),
    Col("mean", "right", number=True),
    Col("visits", "right", number=True, drop=3),
    Col("best", "center"),
    Col("playouts", "right", number=True, drop=2),
    Col("playouts\nper s", "right", number=True, drop=1),
)
"""The Monte Carlo table's columns; a narrow terminal leaves out the rate, the playouts,
then the visit share."""


def mcts_table(
    rows: Sequence[CompareRow], move_text: Callable[[int], str] = str
) -> FitTable | None:
    """The Monte Carlo rows: per position the move chosen (in the game's notation:
    ``move_text``, its ``format_move``), its mean result for the mover (1 win, 1/2 draw,
    0 loss) and visit share, whether it is a best move at the exact strategies' depth;
    playouts and playouts per CPU second. None without such rows."""
    mc = [r for r in rows if not r.exact]
    if not mc:
        return None
    table = FitTable(
        MCTS_COLUMNS,
        title="Monte Carlo (estimates, not in the agreement check)",
        caption="mean: the move's average playout result for the mover (win 1, draw 1/2)\n"
        "best: one of the moves with the exact strategies' value at this depth",
    )
    for r in mc:
        for k, (found, best) in enumerate(zip(r.mcts, r.best, strict=True), 1):
            proven = {1: " (won)", 0: " (drawn)", -1: " (lost)"}.get(found.proven, "")  # type: ignore[arg-type]
            table.add_row(
                r.strategy,
                str(k),
                "—" if found.move is None else move_text(found.move),
                f"{found.value:.3f}{proven}",
                f"{found.share:.0%}",
                "—" if best is None else ("yes" if best else "no"),
                f"{found.playouts:,}",
                f"{found.playouts / max(r.seconds / len(r.mcts), 1e-9):,.0f}",
            )
    return table


def comparison_json(
    game: str, depth: int | None, rows: Sequence[CompareRow], agree: bool, **extra: object
) -> dict[str, object]:
    """The JSON object of the issue: game, depth, results (value of the first position and
    all values, ``seconds`` in CPU time of the search, ``wall_seconds``), agree; ``extra``
    adds keys. ``exact`` is true when there was no depth limit; otherwise ``bounds`` says
    per value whether it is a ``"lower"`` / ``"upper"`` bound (a finished game inside the
    depth) or null (a heuristic value at that depth)."""
    exact = depth is None
    return {
        "game": game,
        "depth": depth,
        **extra,
        "results": [
            {
                "strategy": r.strategy,
                "engine": r.engine,
                "value": r.values[0] if r.values else None,
                "values": r.values,
                "exact": exact,
                "bounds": [score_bound(v, exact) for v in r.values],
                "nodes": r.nodes,
                "seconds": r.seconds,
                "wall_seconds": r.wall_seconds,
            }
            if r.exact
            else {
                "strategy": r.strategy,
                "engine": r.engine,
                "playouts": r.nodes,
                "seconds": r.seconds,
                "wall_seconds": r.wall_seconds,
                "positions": [
                    {
                        "move": found.move,
                        "mean": found.value,
                        "visit_share": found.share,
                        "proven": found.proven,
                        "playouts": found.playouts,
                        "plies": found.plies,
                        "best_at_depth": best,
                    }
                    for found, best in zip(r.mcts, r.best, strict=True)
                ],
            }
            for r in rows
        ],
        "agree": agree,
    }


def write_plot(rows: Sequence[CompareRow], path: Path, title: str) -> None:
    """Bars of CPU seconds and of positions visited per strategy and engine, log scale.

    A path ending in ``.svg`` is drawn by :func:`boardgames.core.svg.log_bars` (no
    matplotlib needed); other formats by matplotlib: click.UsageError (one line) when it
    is not installed.
    """
    if Path(path).suffix.lower() == ".svg":
        from boardgames.core.svg import Bar, log_bars, write_svg

        bars = [
            Bar(
                f"{r.strategy} ({r.engine})",
                (max(r.seconds, 1e-6), float(max(r.nodes, 1))),
                r.engine,
            )
            for r in rows
        ]
        panels = ["CPU seconds", "positions visited"]
        write_svg(path, log_bars(bars, panels, heading=title), "the plot")
        return
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise click.UsageError("--plot needs matplotlib: pip install 'boardgames[plot]'") from None
    labels = [f"{r.strategy} ({r.engine})" for r in rows]
    colours = ["tab:orange" if r.engine == "python" else "tab:blue" for r in rows]
    fig, axes = plt.subplots(1, 2, figsize=(11, 0.45 * len(rows) + 1.8), sharey=True)
    for ax, data, name in (
        (axes[0], [max(r.seconds, 1e-6) for r in rows], "CPU seconds"),
        (axes[1], [max(r.nodes, 1) for r in rows], "positions visited"),
    ):
        ax.barh(labels, data, color=colours)
        ax.set_xscale("log")
        ax.set_xlabel(name + " (log scale)")
        ax.grid(axis="x", which="both", alpha=0.3)
    axes[0].invert_yaxis()  # first row on top (the axes share y: invert once)
    fig.suptitle(title)
    fig.tight_layout()
    try:
        save_figure(fig, path)
    finally:
        plt.close(fig)


def default_engines() -> str:
    return ",".join(ENGINES)
