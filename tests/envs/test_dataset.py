"""``kalah dataset`` and its labels: values equal the exact solver's, the best-move mask
and the fields agree, bad input is one line with status 2, Ctrl-C stops with 130, a
checkpoint resumes to the same file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from boardgames.cli import cli as cli_main
from boardgames.kalah.analysis.dataset import (
    DatasetTask,
    assemble,
    check_quick,
    label_chunk,
    labeller,
)
from boardgames.kalah.exact.solver import Solver
from boardgames.kalah.game import Kalah
from tests.helpers import check_clean_stop, interrupt


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli_main, ["kalah", "dataset", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(("pits", "seeds", "rules", "capture"),
                         [(4, 3, "classic", False), (3, 3, "etudes", False),
                          (4, 3, "classic", True)])  # fmt: skip
def test_labels_equal_the_solvers_values(pits: int, seeds: int, rules: str, capture: bool) -> None:
    game = Kalah(pits, seeds, rules, empty_capture=capture)
    task = DatasetTask(0, 60, pits, seeds, rules, capture, "random", 0, 7)
    data = assemble(game, [label_chunk(task)], {})
    solver = Solver(pits, rules, hash_mb=8, empty_capture=capture)  # no endgame table
    m = pits
    for k in range(0, 60, 3):
        state = game.make_state(data["boards"][k].tolist(), int(data["to_move"][k]))
        assert data["values"][k] == solver.value(state)
        mover = game.to_move(state)
        for i in range(m):
            pit = i + (m + 1) * mover
            assert data["legal"][k, i] == (pit in game.legal_moves(state))
            if data["legal"][k, i]:
                child, _ = game.play(state, pit)
                v = solver.value(child)
                assert data["move_values"][k, i] == (v if game.to_move(child) == mover else -v)
        best = np.flatnonzero(data["best"][k])
        assert best.size >= 1 and (data["move_values"][k, best] == data["values"][k]).all()
        view = np.roll(data["boards"][k], -(m + 1) * mover)
        assert data["observations"][k].tolist() == view.tolist()


def test_a_chunk_is_the_same_wherever_it_runs() -> None:
    task = DatasetTask(3, 50, 4, 3, "classic", False, "random", 0, 11)
    assert label_chunk(task) == label_chunk(task)
    other = DatasetTask(4, 50, 4, 3, "classic", False, "random", 0, 11)
    assert label_chunk(task)["boards"] != label_chunk(other)["boards"]


def test_program_play_follows_the_program() -> None:
    """With --play classic (no random opening) every game is the same: the program is
    deterministic and plays both sides."""
    task = DatasetTask(0, 120, 4, 3, "classic", False, "classic", 0, 1)
    data = assemble(Kalah(4, 3), [label_chunk(task)], {})
    first = data["game"] == data["game"][0]
    n = int(first.sum())
    assert (data["ply"][:n] == np.arange(n)).all()
    second = data["game"] == data["game"][n]
    m = int(second.sum())
    assert (data["boards"][n : n + m] == data["boards"][: min(n, m)][:m]).all()


def test_the_command_writes_the_documented_fields(tmp_path: Path) -> None:
    out = tmp_path / "labels.npz"
    rc, stdout, stderr = run(str(out), "--pits", "4", "--seeds", "3", "--positions", "450")
    assert rc == 0, stderr
    assert "Wrote 450 positions" in stdout
    with np.load(out) as data:
        fields = "boards to_move observations values move_values legal best game ply pits seeds"
        assert set(data.files) >= {*fields.split(), "rules"}
        assert data["boards"].shape == (450, 10) and data["best"].shape == (450, 4)
        assert int(data["pits"]) == 4 and str(data["rules"]) == "classic"
        assert (data["boards"].sum(axis=1) == 24).all()
        assert (data["best"] <= data["legal"]).all()
        # the start position (A to move) of 4 x 3 is a win by 6 (kalah solve)
        starts = data["ply"] == 0
        assert (data["values"][starts] == 6).all()


def test_checkpoint_resumes_to_the_same_file(tmp_path: Path) -> None:
    whole, part, ckpt = tmp_path / "whole.npz", tmp_path / "part.npz", tmp_path / "d.ckpt"
    args = ["--pits", "3", "--seeds", "3", "--seed", "5"]
    assert run(str(whole), "--positions", "500", *args)[0] == 0
    assert run(str(part), "--positions", "300", "--checkpoint", str(ckpt), *args)[0] == 0
    rc, stdout, _ = run(str(part), "--positions", "500", "--checkpoint", str(ckpt), *args, "--json")
    assert rc == 0
    assert '"resumed_chunks": 2' in stdout
    with np.load(whole) as a, np.load(part) as b:
        for key in ("boards", "values", "move_values", "best", "game", "ply"):
            assert (a[key] == b[key]).all()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pits", "6", "--seeds", "4"], "Error: Kalah 6 x 4 (48 stones) is too big to label"),
        (["--pits", "4", "--seeds", "3", "--positions", "0"], "Error: --positions must be 1 to"),
        (["--pits", "4", "--seeds", "3", "--play", "depth=x"], "Error: depth needs a number"),
        (["--pits", "13"], "Error: pits must be 1 to 12"),
        (
            ["--rules", "etudes", "--capture", "empty", "--pits", "3", "--seeds", "2"],
            "Error: --capture empty is a classic-rules variant",
        ),
    ],
)
def test_bad_input_is_one_line_with_status_2(tmp_path: Path, args: list[str], message: str) -> None:
    rc, _, stderr = run(str(tmp_path / "d.npz"), *args)
    assert rc == 2
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith(message), stderr
    assert not (tmp_path / "d.npz").exists()


def test_output_is_checked_before_any_work(tmp_path: Path) -> None:
    rc, _, stderr = run(str(tmp_path / "missing" / "d.npz"), "--pits", "4", "--seeds", "3")
    assert rc == 2 and "the folder" in stderr and "does not exist" in stderr
    rc, _, stderr = run(str(tmp_path), "--pits", "4", "--seeds", "3")
    assert rc == 2 and "Error:" in stderr


def test_check_quick_accepts_small_boards_and_refuses_big_ones() -> None:
    check_quick(Kalah(4, 3))
    check_quick(Kalah(4, 5))
    check_quick(Kalah(6, 2))
    for pits, seeds in ((5, 4), (6, 3), (6, 4)):
        with pytest.raises(ValueError, match="too big"):
            check_quick(Kalah(pits, seeds))


def test_labeller_losses_are_zero_for_best_moves() -> None:
    game = Kalah(4, 3)
    label = labeller(game).label(game.initial_state())
    assert label.value == 6
    assert all(label.loss(i) == 0 for i, b in enumerate(label.best) if b)
    pairs = enumerate(zip(label.best, label.legal, strict=True))
    assert all(label.loss(i) > 0 for i, (b, ok) in pairs if ok and not b)


def test_ctrl_c_stops_within_a_second_with_status_130(tmp_path: Path) -> None:
    run_ = interrupt(
        ["kalah", "dataset", str(tmp_path / "d.npz"), "--pits", "4", "--seeds", "4",
         "--positions", "5000000"],
        "Labelling",
        tmp_path,
    )  # fmt: skip
    check_clean_stop(run_)
    assert run_.seconds < 1.0  # measured: 0.03 s from SIGINT to exit
    assert not (tmp_path / "d.npz").exists()


def test_the_command_module_loads_no_numba() -> None:
    code = "import sys, boardgames.kalah.cli.dataset; assert 'numba' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_cluster_run_gives_the_same_file(tmp_path: Path) -> None:
    here, there = tmp_path / "here.npz", tmp_path / "there.npz"
    args = ["--pits", "3", "--seeds", "2", "--positions", "400"]
    assert run(str(here), *args)[0] == 0
    rc, _, stderr = run(str(there), *args, "--cluster", "local:1")
    assert rc == 0, stderr
    with np.load(here) as a, np.load(there) as b:
        assert all((a[k] == b[k]).all() for k in a.files)
