"""The dataset commands refuse what they cannot do, or would ignore, in one line with
status 2 before any work (a researcher's review, issue 51): ``--all`` on a board too big to
enumerate (it grew to 9 GB), a ``--min-ply`` random games never reach (it looped for ever),
a seed a file cannot keep, options that do not apply, a checkpoint in a missing folder."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from boardgames.cli import cli
from boardgames.connect4 import dataset
from boardgames.connect4.game import ConnectFour
from boardgames.core.protocol import GameError

C4 = ["connect4", "dataset", "out.npz", "--width", "4", "--height", "4"]
KALAH = ["kalah", "dataset", "out.npz", "--positions", "5"]


@pytest.mark.parametrize(
    "args, words",
    [
        (["connect4", "dataset", "out.npz", "--all"],
         "--all labels every position of boards of at most 20 cells"),
        ([*C4, "--min-ply", "16", "--positions", "5"], "--min-ply must be 0 to 15 on 4 x 4"),
        ([*C4, "--ply", "3", "--min-ply", "2"], "--min-ply goes with --positions"),
        ([*C4, "--all", "--min-ply", "2"], "--min-ply goes with --positions"),
        ([*C4, "--mirror"], "--mirror goes with --ply"),
        ([*C4, "--all", "--checkpoint", "c.jsonl"], "--all runs here at once"),
        ([*C4, "--all", "--cluster", "local:1"], "--all runs here at once"),
        ([*C4, "--seed", "9223372036854775808"], "'--seed': 9223372036854775808 is not in"),
        ([*C4, "--seed", "-1"], "'--seed': -1 is not in the range"),
        ([*KALAH, "--seed", "99999999999999999999999"], "'--seed': 99999999999999999999999"),
        ([*KALAH, "--random-opening", "3"], "--random-opening goes with a program"),
        ([*KALAH, "--checkpoint", "missing/c.jsonl"], "the folder missing does not exist"),
        ([*C4, "--positions", "5", "--checkpoint", "missing/c.jsonl"],
         "the folder missing does not exist"),
    ],
)  # fmt: skip
def test_what_a_dataset_cannot_do_is_one_line_before_any_work(
    args: list[str], words: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert words in result.output and len(result.output.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())


def test_the_largest_seed_is_kept_and_the_file_loads_without_pickle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, [*KALAH, "--seed", str(2**63 - 1)])
    assert result.exit_code == 0, result.output
    with np.load(tmp_path / "out.npz") as data:  # allow_pickle=False, numpy's default
        assert int(data["seed"]) == 2**63 - 1


def test_random_games_that_never_reach_the_discs_asked_are_an_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Not a loop without end: after BARREN_GAMES games in a row with no position of
    enough discs, a GameError says to lower --min-ply."""
    monkeypatch.setattr(dataset, "BARREN_GAMES", 3)
    game = ConnectFour(4, 4)
    with pytest.raises(GameError, match="3 random games in a row ended before 16 discs"):
        dataset.sampled(game, 5, seed=1, min_ply=16)
    assert len(dataset.sampled(game, 5, seed=1, min_ply=4)) == 5
