"""Connect Four datasets (boardgames/connect4/dataset.py, ``boardgames connect4 dataset``):
positions by ply counted as OEIS A212693 counts them; every position of a small board
labelled by backward induction, consistent with itself and the rules, and equal to the
exact solver's scores on a random subset; the command's file, its resume from a
checkpoint, and loading it with numpy (and pandas when installed)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from boardgames.cli import cli
from boardgames.connect4 import dataset as D
from boardgames.connect4.game import ConnectFour
from boardgames.core.protocol import GameError

A212693 = [1, 7, 49, 238, 1120, 4263, 16422]
"""Positions of 7 x 6 Connect Four after n discs (oeis.org/A212693); no game ends before
the seventh disc, so every one of them is a position our enumeration keeps."""


def test_positions_by_ply_count_as_oeis_does() -> None:
    game = ConnectFour(7, 6)
    assert [len(D.positions_by_ply(game, n)) for n in range(7)] == A212693
    four = D.positions_by_ply(game, 4)
    boards = {game.parse_position(w)[:42].tobytes() for w in four}
    own_mirror = sum(
        game.parse_position(w)[:42].reshape(7, 6)[::-1].tobytes()
        == game.parse_position(w)[:42].tobytes()
        for w in four
    )
    assert len(boards) == 1120 and own_mirror > 0
    assert len(D.positions_by_ply(game, 4, mirror=True)) == (1120 + own_mirror) // 2


def test_positions_of_every_level_agree() -> None:
    game = ConnectFour(4, 4)
    levels = D.Levels(game)
    for n in range(8):
        assert sorted(levels.words[n]) != [] and len(levels.words[n]) == len(
            D.positions_by_ply(game, n)
        )


def solver_agrees(game: ConnectFour, data: dict[str, np.ndarray], count: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    picks = rng.choice(len(data["moves"]), size=count, replace=False)
    solved = D.label_positions(game, [str(data["moves"][i]) for i in picks])
    for key in D.FIELDS[1:9]:
        assert np.array_equal(solved[key], data[key][picks]), key


def test_every_4x4_position_is_exact() -> None:
    game = ConnectFour(4, 4)
    data = D.label_every_position(game)
    assert len(data["moves"]) == 134_289
    assert data["score"][0] == 0  # 4 x 4 is a draw (Tromp)
    assert list(D.check_consistent(game, data)) == []
    solver_agrees(game, data, 150, 0)
    # the fields hold what the docstring says
    i = int(np.flatnonzero(data["ply"] == 3)[0])
    state = game.parse_position(str(data["moves"][i]))
    assert np.array_equal(data["observations"][i], game.observation(state, int(data["to_move"][i])))
    assert data["best"][i].sum() >= 1 and data["legal"][i].sum() == 4


def test_positions_of_words_are_the_parsed_ones_and_bad_words_say_why() -> None:
    """check_consistent plays a word on from its parent's position when the parent came
    earlier; every position is the one parse_position gives, and a bad word fails with
    parse_position's own message."""
    game = ConnectFour(4, 4)
    words = ["", "1", "12", "21", "211", "2113", "1111", "34"]  # 211's parent "21"; 34 alone
    got = D._positions(game, np.array(words))
    for word, state in zip(words, got, strict=True):
        assert np.array_equal(state, game.parse_position(word)), word
    for bad in ("11111", "115", "1x"):  # a full column, no column 5, no column at all
        with pytest.raises(GameError) as want:
            game.parse_position(bad)
        with pytest.raises(GameError, match=re.escape(str(want.value))):
            D._positions(game, ["", "1", "11", "111", "1111", bad])


@pytest.mark.slow
def test_every_5x4_position_is_exact() -> None:
    game = ConnectFour(5, 4)
    data = D.label_every_position(game)
    assert len(data["moves"]) == 3_100_379
    solver_agrees(game, data, 2000, 1)
    rng = np.random.default_rng(2)
    picks = np.sort(rng.choice(len(data["moves"]), size=20_000, replace=False))
    sub = {k: v[picks] for k, v in data.items()}  # children outside it are skipped
    assert list(D.check_consistent(game, sub)) == []


def run(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(cli, ["connect4", "dataset", *args, "--json"])
    assert result.exit_code == 0, result.output
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))


def test_the_command_writes_a_file_numpy_loads_and_resumes(tmp_path: Path) -> None:
    out, again, check = tmp_path / "a.npz", tmp_path / "b.npz", tmp_path / "c.jsonl"
    summary = run(str(out), "--width", "4", "--height", "4", "--ply", "5", "--limit", "70")
    assert summary["positions"] == 70 and summary["solved_now"] == 70
    data = dict(np.load(out))
    assert set(D.FIELDS) <= set(data)
    assert data["moves"].shape == (70,) and data["boards"].shape == (70, 4, 4)
    assert int(data["width"]) == 4 and str(data["source"]) == "ply=5"
    first = run(str(again), "--width", "4", "--height", "4", "--ply", "5", "--limit", "70",
                "--checkpoint", str(check))  # fmt: skip
    resumed = run(str(again), "--width", "4", "--height", "4", "--ply", "5", "--limit", "70",
                  "--checkpoint", str(check))  # fmt: skip
    assert first["solved_now"] == 70 and resumed["solved_now"] == 0
    assert resumed["resumed_chunks"] == 2
    for key, value in np.load(again).items():
        assert np.array_equal(value, data[key]), key
    sample = run(str(out), "--width", "5", "--height", "4", "--positions", "30", "--seed", "3")
    assert sample["positions"] == 30 and np.load(out)["ply"][0] == 0
    every = run(str(out), "--width", "4", "--height", "4", "--all")
    assert every["positions"] == 134_289


def test_a_sample_of_a_ply_is_random_repeatable_and_of_that_ply(tmp_path: Path) -> None:
    """--sample N: N positions of the --ply set drawn by --seed, in the set's order."""
    game = ConnectFour(4, 4)
    every = D.positions_by_ply(game, 5)
    words = {}
    for name, seed in (("a", "1"), ("b", "1"), ("c", "2")):
        out = tmp_path / f"{name}.npz"
        summary = run(str(out), "--width", "4", "--height", "4", "--ply", "5", "--sample", "20",
                      "--seed", seed)  # fmt: skip
        assert summary["positions"] == 20
        data = np.load(out)
        words[name] = [str(m) for m in data["moves"]]
        assert set(data["ply"].tolist()) == {5}
        assert str(data["source"]) == f"ply=5, 20 of {len(every):,} at random"
    assert words["a"] == words["b"] != words["c"]
    positions = {w: k for k, w in enumerate(every)}
    at = [positions[w] for w in words["a"]]
    assert at == sorted(at) and at != list(range(20))  # the set's order, not its head


def test_bad_options_are_one_line(tmp_path: Path) -> None:
    r = CliRunner().invoke(cli, ["connect4", "dataset", str(tmp_path / "x.npz"), "--ply", "3",
                                 "--all"])  # fmt: skip
    assert r.exit_code == 2 and "give one of --ply, --all and --positions" in r.output
    r = CliRunner().invoke(cli, ["connect4", "dataset", str(tmp_path / "x.npz"), "--ply", "42"])
    assert r.exit_code == 2 and "--ply must be 0 to 41" in r.output
    r = CliRunner().invoke(cli, ["connect4", "dataset", str(tmp_path / "x.npz"), "--sample", "5"])
    assert r.exit_code == 2 and "--sample takes a number from 1 with --ply" in r.output


def test_pandas_reads_the_columns(tmp_path: Path) -> None:
    pandas = pytest.importorskip("pandas")
    data = D.label_positions(ConnectFour(4, 4), D.positions_by_ply(ConnectFour(4, 4), 2))
    frame = pandas.DataFrame(
        {"moves": data["moves"], "score": data["score"], "best": list(data["best"])}
    )
    assert len(frame) == 16
