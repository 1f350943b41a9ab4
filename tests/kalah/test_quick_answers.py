"""Work that must not start: a finished or nearly finished game needs no endgame table,
and a perft count says up front what it will cost (``kalah solve``, ``kalah perft``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgames.cli import cli
from boardgames.kalah.exact.sizing import TINY_POSITIONS, estimate_positions
from boardgames.kalah.exact.solver import Solver
from boardgames.kalah.game import Kalah
from boardgames.kalah.perft import perft, perft_probe

FINISHED = "0 0 0 0 0 0 20 0 0 0 0 0 0 28"  # 6 x 4 played out: B 28, A 20


def run(args: list[str]):
    result = CliRunner().invoke(cli, args)
    assert "Traceback" not in result.output
    return result


def test_finished_board_answers_at_once_without_tables_or_numba(tmp_path: Path) -> None:
    code = (
        "import sys; from click.testing import CliRunner; from boardgames.cli import cli; "
        f"r = CliRunner().invoke(cli, ['kalah', 'solve', '--board', '{FINISHED}']); "
        "print(r.exit_code); print(r.output); print('numba' in sys.modules)"
    )
    env = {"XDG_CACHE_HOME": str(tmp_path), "NO_COLOR": "1", "PATH": ""}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    ).stdout.splitlines()
    assert out[0] == "0"
    assert "The game is over: A 20, B 28: B wins by 8." in out
    assert "Value for A (to move): -8 (A loses by 8 with perfect play)" in out
    assert out[-1] == "False"  # no solver, no tables loaded
    assert not any(tmp_path.iterdir())


def test_finished_board_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    r = run(["kalah", "solve", "--board", FINISHED, "--to-move", "b", "--json"])
    data = json.loads(r.stdout)
    assert r.exit_code == 0 and data["value"] == 8 and data["to_move"] == "B"
    assert data["best"] == [] and data["nodes"] == 0 and data["endgame_stones"] == 0


def test_few_stones_are_solved_without_building_a_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    board = "1 0 2 0 0 1 20 0 1 0 3 0 0 20"  # 8 stones in the pits
    r = run(["kalah", "solve", "--board", board, "--endgame", "20", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["endgame_stones"] == 0 and not any(tmp_path.iterdir())
    game = Kalah(6, 1)
    state = game.make_state([int(x) for x in board.split()], 0)
    assert data["value"] == Solver(6).solve(state).value
    text = run(["kalah", "solve", "--board", board, "--endgame", "20"])
    assert "Only 8 stones in the pits: solved at once, without endgame tables." in text.stderr


def test_the_estimate_of_a_solve() -> None:
    assert estimate_positions(6, 8) < TINY_POSITIONS  # a few stones: no tables
    assert estimate_positions(6, 36) > 1e6  # 6 x 3 without tables: 10 M measured
    # 6 x 4 with the 22-stone tables searched 36 M positions: within a factor of 3
    assert 12e6 < estimate_positions(6, 48, 22) < 108e6
    assert estimate_positions(12, 480) > 1e100  # 12 x 20: never


def test_perft_probe_counts_the_first_plies_and_estimates_the_rest() -> None:
    game = Kalah(6, 6)
    start = game.initial_state()
    probe = perft_probe(game, start, 7)
    k = len(probe.counts) - 1
    assert 1 <= k <= 7
    assert probe.counts == [perft(game, start, d) for d in range(k + 1)]
    exact = 177_827  # perft 7 of 6 x 6 (tests/kalah/test_perft.py checks the generator)
    assert 0.5 < probe.sequences / exact < 2
    assert probe.estimate > 0


def test_quick_perft_prints_nothing_on_stderr() -> None:
    r = run(["kalah", "perft", "--depth", "4", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["nodes"] == 1056
    assert r.stderr == ""
    # 1 x 1 ends after one sowing: the probe sees the zero and stops there
    r = run(["kalah", "perft", "--depth", "30", "--pits", "1", "--seeds", "1", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["nodes"] == 0 and r.stderr == ""
