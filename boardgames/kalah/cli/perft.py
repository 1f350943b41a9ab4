"""``boardgames kalah perft``: count move sequences from the start position."""

from __future__ import annotations

import time

import click

from boardgames.cli.options import json_option
from boardgames.core.console import make_console, print_json
from boardgames.core.progress import (
    Progress,
    format_count,
    format_duration,
    interruptible,
    stopped_message,
)
from boardgames.core.protocol import State
from boardgames.kalah.cli.options import (
    board_options,
    make_game,
    setup_text,
)
from boardgames.kalah.perft import PERFT_SPLIT, perft, perft_children, perft_probe


@click.command(name="perft")
@click.option(
    "--depth", type=click.IntRange(0, 30), required=True, help="Moves in each sequence (0-30)."
)
@board_options
@click.option("--compound", is_flag=True, help="Count compound moves instead of single sowings.")
@json_option()
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

    game = make_game(pits, seeds, rules)
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

    with interruptible(stopped):
        probe = perft_probe(game, start, depth, compound)
        k = len(probe.counts) - 1
        if k == depth or probe.counts[k] == 0:
            nodes = probe.counts[k] if k == depth else 0
        else:
            # the subtrees first, so a Ctrl-C just after the announcement below says how
            # many of them were done (none)
            split = next(d for d, c in enumerate(probe.counts) if c >= PERFT_SPLIT or d == k)
            subtrees.append(start)
            for _ in range(split):
                subtrees[:] = [c for s in subtrees for c in perft_children(game, s, compound)]
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
        f"perft {depth} ({rules}, {setup_text(pits, seeds)}, {unit}): "
        f"[bold]{nodes:,}[/] sequences ({seconds:.2f} s)"
    )
