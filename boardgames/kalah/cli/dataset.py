"""``boardgames kalah dataset``: positions with exact labels for learning agents
(:mod:`boardgames.kalah.analysis.dataset` plays and labels them)."""

from __future__ import annotations

import io
import time
from pathlib import Path
from typing import Any

import click
import numpy as np

from boardgames.cli.options import SEED, cluster_options, json_option
from boardgames.core.cluster import Checkpoint, ClusterSpec, Runner
from boardgames.core.console import make_console, print_json
from boardgames.core.files import WriteFailed, check_output, write_atomic
from boardgames.core.progress import Progress
from boardgames.core.protocol import GameError
from boardgames.kalah.analysis.dataset import (
    FIELDS,
    MAX_POSITIONS,
    RANDOM,
    assemble,
    check_policy,
    check_quick,
    label_chunk,
    tasks,
)
from boardgames.kalah.cli.options import board_options
from boardgames.kalah.game import Kalah

CAPTURES = ("opposite", "empty")


EPILOG = (
    f"Fields of the .npz file: {', '.join(k for k in FIELDS if ',' not in k)}, and the "
    "settings; docs/sections/learning.md says what each holds."
)
DEFAULT_BOARD = {"pits": 4, "seeds": 3}
"""The shared board options default to 6 x 6, far too big to label: 4 x 3 here."""


@click.command("dataset", epilog=EPILOG, context_settings={"default_map": DEFAULT_BOARD})
@click.argument("output", type=click.Path(dir_okay=False))  # text: 'new/' keeps its slash
@click.option("--positions", default=1000, show_default=True,
              help=f"Positions to write (1-{MAX_POSITIONS:,}).")  # fmt: skip
@click.option("--play", "play", default=RANDOM, show_default=True,
              help="Who plays the games the positions come from: random (uniform legal "
                   "sowings) or a kalah match player spec for both sides (classic, "
                   "depth=4, time=0.05, strategy=mcts,...).")  # fmt: skip
@click.option(
    "--random-opening",
    "opening",
    default=0,
    show_default=True,
    help="With a program (--play SPEC): random sowings before it takes over.",
)
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="Seed of the random sowings (0 to 2**63 - 1).")  # fmt: skip
@board_options
@click.option("--capture", type=click.Choice(CAPTURES), default="opposite", show_default=True,
              help="Classic capture: opposite (RULES.md 1.3) or empty (always capture a last "
                   "stone in an own empty pit).")  # fmt: skip
@cluster_options("the chunks of positions")
@json_option()
def dataset(
    output: str,
    positions: int,
    play: str,
    opening: int,
    seed: int,
    pits: int,
    seeds: int,
    rules: str,
    capture: str,
    cluster: ClusterSpec | None,
    checkpoint: Path | None,
    as_json: bool,
) -> None:
    """Write positions of Kalah games with their exact values to OUTPUT (.npz).

    Each position is labelled with its exact value (the final margin for the side to
    move under perfect play), the exact value of every move and the mask of the best
    moves, from the endgame tables and the exact solver. The board defaults to 4 x 3;
    only boards whose start the solver settles within a fifth of a second are accepted
    (classic rules: at most 4 x 5, 5 x 3, 6 x 2, 7 x 2; Etudes: 3 x 5, 4 x 3, 6 x 2).
    Example:

    \b
        boardgames kalah dataset labels.npz --pits 4 --seeds 3 --positions 10000

    Load it with numpy.load(OUTPUT). Chunks of 200 positions are tasks: --checkpoint FILE
    resumes an interrupted run, --cluster spreads them over workers; the same seed gives
    the same file wherever it runs.
    """
    try:
        game = Kalah(pits, seeds, rules, empty_capture=capture == "empty")
        if capture == "empty" and rules != "classic":
            raise GameError("--capture empty is a classic-rules variant")
        check_policy(play)
        check_quick(game)
    except GameError as e:
        raise click.UsageError(str(e)) from None
    if not 1 <= positions <= MAX_POSITIONS:
        raise click.UsageError(f"--positions must be 1 to {MAX_POSITIONS}, got {positions}")
    if not 0 <= opening <= 200:
        raise click.UsageError(f"--random-opening must be 0 to 200 sowings, got {opening}")
    if opening and play == RANDOM:
        raise click.UsageError(
            "--random-opening goes with a program (--play SPEC): random play is random "
            "from the first sowing"
        )
    check_output("OUTPUT", output)  # before any work: a folder, 'new/', no folder
    empty = capture == "empty"
    chunks = tasks(positions, pits, seeds, rules, empty, play, opening, seed)
    job: dict[str, object] = {
        "command": "kalah dataset", "pits": pits, "seeds": seeds, "rules": rules,
        "capture": capture, "play": play, "random_opening": opening, "seed": seed,
    }  # fmt: skip
    err = make_console(stderr=True)
    results: dict[str, dict[str, Any]] = {}
    bar = Progress("Labelling", positions, "positions", console=err)

    def keep(key: str, result: dict[str, Any]) -> None:
        results[key] = result
        bar.update(min(positions, sum(len(r["values"]) for r in results.values())))

    t0 = time.perf_counter()
    with Runner(cluster, err) as runner:
        where = runner.as_dict()
        report = runner.run(
            label_chunk,
            [(f"chunk-{t.index}", (t,)) for t in chunks],
            label="Labelling",
            checkpoint=Checkpoint(checkpoint, job) if checkpoint is not None else None,
            on_result=keep,
            progress=bar,
            unit="chunks",
        )
    seconds = time.perf_counter() - t0
    settings = {"pits": pits, "seeds": seeds, "rules": rules, "empty_capture": empty,
                "play": play, "opening": opening, "seed": seed}  # fmt: skip
    arrays = assemble(game, [results[f"chunk-{t.index}"] for t in chunks], settings, positions)
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)  # type: ignore[arg-type]
    try:
        write_atomic(output, buffer.getvalue())
    except OSError as e:
        raise WriteFailed(f"cannot write {output}: {e.strerror or e}") from None
    computed = sum(len(results[k]["values"]) for k in report.task_seconds)
    rate = computed / seconds if seconds > 0 else 0.0
    summary = {
        "output": str(output), "positions": int(arrays["values"].size),
        "games": int(np.unique(arrays["game"]).size), "labelled_now": computed,
        "resumed_chunks": report.resumed, "seconds": round(seconds, 3),
        "positions_per_second": round(rate, 1), **settings, **where,
    }  # fmt: skip
    if as_json:
        print_json(summary)
        return
    make_console().print(
        f"Wrote {summary['positions']:,} positions of {summary['games']:,} games to {output} "
        f"in {seconds:.1f} s ({rate:,.0f} positions/s labelled now"
        f"{f', {report.resumed} chunks resumed' if report.resumed else ''}).",
        highlight=False,
    )
