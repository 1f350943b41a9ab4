"""``boardgames compare GAME``: search strategies side by side on any registered game.

A game whose plugin names a ``compare`` command of its own (Kalah's, with its extra
options; Nim's Bouton check; the queens counters) gets that one; every other two-player game
gets the generic command below, over :mod:`boardgames.core.compare`."""

from __future__ import annotations

from typing import Any

import click

from boardgames.cli import harden_numbers
from boardgames.cli.games import GameGroup, make_game
from boardgames.cli.options import json_option
from boardgames.core.registry import GamePlugin


def generic_compare(spec: GamePlugin) -> click.Command:
    """The generic ``compare GAME``: every depth-limited strategy on the engines the game
    has, on seeded random positions, values checked against each other."""

    @click.command(
        name=spec.name,
        help=f"Search strategies side by side on {spec.title} positions (seeded random "
        "openings); every exact strategy must find the same value at the same depth.",
    )
    @click.option("--depth", type=click.IntRange(0, 30), default=4, show_default=True)
    @click.option(
        "--positions", type=click.IntRange(1, 100), default=4, show_default=True,
        help="Random positions to search.",
    )  # fmt: skip
    @click.option("--seed", type=int, default=1, show_default=True, help="Seed of the openings.")
    @click.option(
        "--strategies", default="", metavar="A,B,...",
        help="Strategies to run (default: every exact depth-limited one, which must agree; "
        "add mcts, Monte Carlo tree search, where the game has kernels: "
        "--strategies alphabeta,mcts).",
    )  # fmt: skip
    @click.option(
        "--engines", default="", metavar="python,numba",
        help="Engines (default: python, and numba where the game has kernels).",
    )  # fmt: skip
    @json_option()
    def command(
        depth: int, positions: int, seed: int, strategies: str, engines: str, as_json: bool,
        **options: Any,
    ) -> None:  # fmt: skip
        from boardgames.core import warmup
        from boardgames.core.compare import (
            comparison_json,
            comparison_table,
            disagreements,
            generic_strategies,
            mcts_table,
            parse_choice_list,
            plan,
            random_positions,
            run_comparison,
        )
        from boardgames.core.console import make_console, print_json
        from boardgames.core.progress import Progress, interruptible, stopped_message
        from boardgames.core.strategies import ENGINES, EXACT_STRATEGIES

        game = make_game(spec, options)
        have = ENGINES if spec.kernels else ("python",)
        # a fresh machine answers now, on the python engine; numba compiles aside
        fresh = bool(spec.kernels) and not engines and not warmup.is_ready(game.name)
        default = ("python",) if fresh else have
        chosen_engines = parse_choice_list(engines or ",".join(default), have, "engine")
        chosen = parse_choice_list(
            strategies or ",".join(EXACT_STRATEGIES),
            generic_strategies(spec.kernels is not None),
            "strategy",
        )
        pairs, notes = plan(chosen, chosen_engines)
        if not pairs:
            raise click.UsageError(f"no strategy runs on those engines: {'; '.join(notes)}")
        if fresh:  # the options are good: say so, and start the compile, only now
            aside = warmup.warm_in_background(game.name)
            make_console(stderr=True).print(
                "Note: the numba kernels are not compiled on this machine yet: the python "
                "engine only ("
                + ("they compile in the background for the next run; " if aside else "")
                + "--engines python,numba compiles them now).",
                highlight=False,
                soft_wrap=True,
            )
        states = random_positions(game, positions, seed)
        err = make_console(stderr=True)
        bar = Progress("Searching", len(pairs) * len(states), "searches", console=err)
        with bar, interruptible(lambda: stopped_message(bar.elapsed, None)):
            rows = run_comparison(
                game, states, depth, pairs,
                step=lambda done, total, label: bar.update(done, total, detail=label),
            )  # fmt: skip
        problems = disagreements(rows)
        if as_json:
            print_json(comparison_json(spec.name, depth, rows, not problems, positions=len(states)))
        else:
            console = make_console()
            title = f"{spec.title}: {len(states)} positions, depth {depth}"
            console.print(comparison_table(rows, title))
            monte_carlo = mcts_table(rows, game.format_move)
            if monte_carlo is not None:
                console.print(monte_carlo)
            if notes and engines:  # pairs the user asked for that do not exist
                console.print(f"Not run: {'; '.join(notes)}.", highlight=False)
            if not problems:
                console.print("All exact strategies agree.", highlight=False)
        if problems:
            for p in problems:
                click.echo(f"DISAGREEMENT: {p}", err=True)
            raise SystemExit(1)

    return command


def compare_feature(spec: GamePlugin) -> click.Command:
    """The game's own compare command if its plugin names one, else the generic one."""
    own = spec.compare_command()
    if own is not None:
        own.name = spec.name
        return own
    return generic_compare(spec)


class CompareGroup(GameGroup):
    """Every registered game; a game's own compare command keeps its own options."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        spec = self._games().get(cmd_name)
        if spec is not None and spec.compare:
            return harden_numbers(compare_feature(spec))
        return super().get_command(ctx, cmd_name)


@click.group(cls=CompareGroup, feature=generic_compare, puzzles=True)
def compare() -> None:
    """Run several strategies or methods on the same work and show them side by side.

    Each subcommand checks that all exact methods agree and says so loudly if not.
    """
