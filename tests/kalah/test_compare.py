"""``boardgames compare kalah`` through click's runner (colour off, see conftest)."""

from __future__ import annotations

import json
import sys

import pytest
from click.testing import CliRunner

from boardgames.cli import cli
from boardgames.core.search import alphabeta
from boardgames.core.strategies import NumbaSearcher
from boardgames.kalah.game import Kalah

SMALL = ["compare", "kalah", "--pits", "3", "--seeds", "2", "--depth", "3"]


def run(*args: str):
    return CliRunner().invoke(cli, [*SMALL, *args])


def test_table_and_agreement() -> None:
    result = run()
    assert result.exit_code == 0, result.output
    assert "All 11 runs agree" in result.output
    for name in ("minimax", "alphabeta", "ordered", "tt", "id", "pvs", "mtdf"):
        assert name in result.output


def test_json_shape_and_values_equal_the_reference() -> None:
    result = run("--json", "--positions", "3", "--strategies", "alphabeta,mtdf,pvs")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "kalah" and data["depth"] == 3 and data["agree"] is True
    assert {(r["strategy"], r["engine"]) for r in data["results"]} == {
        ("alphabeta", "python"), ("alphabeta", "numba"), ("mtdf", "numba"), ("pvs", "numba"),
    }  # fmt: skip
    for r in data["results"]:
        assert set(r) >= {"strategy", "engine", "value", "nodes", "seconds"}
        assert len(r["values"]) == 3
    start = alphabeta(Kalah(3, 2), Kalah(3, 2).initial_state(), 3).value
    single = json.loads(run("--json", "--strategies", "mtdf", "--engine", "numba").stdout)
    assert single["results"][0]["value"] == start


def test_sowing_plies_reach_the_reference_workload_value() -> None:
    result = CliRunner().invoke(
        cli,
        ["compare", "kalah", "--seeds", "4", "--depth", "12", "--ply", "sowing",
         "--strategies", "alphabeta,mtdf", "--engine", "numba", "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert {r["value"] for r in json.loads(result.stdout)["results"]} == {6}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--strategies", "alphabeta,magic"], "unknown strategy 'magic'"),
        (["--engine", "c++"], "unknown engine"),
        (["--strategies", "pvs", "--engine", "python"], "no strategy runs"),
        (["--depth", "-1"], "--depth must be"),
        (["--positions", "5000"], "--positions must be"),
        (["--tt", "0"], "--tt must be"),
    ],
)
def test_bad_options_give_one_clear_line(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_bad_board_is_a_usage_error() -> None:
    result = CliRunner().invoke(cli, ["compare", "kalah", "--pits", "40"])
    assert result.exit_code == 2 and "pits must be" in result.output


def test_disagreement_is_loud(monkeypatch: pytest.MonkeyPatch) -> None:
    real = NumbaSearcher.run

    def lying(self, strategy, *args, **kwargs):
        result = real(self, strategy, *args, **kwargs)
        if strategy == "pvs":
            result.value += 1
        return result

    monkeypatch.setattr(NumbaSearcher, "run", lying)
    result = run("--strategies", "alphabeta,pvs")
    assert result.exit_code == 1
    assert "DISAGREEMENT" in result.output and "values differ" in result.output


def test_plot_is_written(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "cmp.png"
    result = run("--strategies", "alphabeta,mtdf", "--plot", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_without_matplotlib_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    result = run("--strategies", "alphabeta", "--plot", str(tmp_path / "x.png"))
    assert result.exit_code == 2
    assert "pip install 'boardgames[plot]'" in result.output
