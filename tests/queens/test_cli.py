"""``boardgames queens`` and ``boardgames compare queens`` through click's CliRunner."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from boardgames.cli import cli
from boardgames.core import warmup

FIRST = "1 5 8 6 3 7 2 4"
LAST = "8 4 1 3 6 2 7 5"


def run(*args: str):
    result = CliRunner().invoke(cli, list(args))
    assert "Traceback" not in result.output
    return result


def test_solve_text_lists_the_92() -> None:
    r = run("queens", "solve")
    assert r.exit_code == 0
    lines = r.stdout.splitlines()
    assert len(lines) == 92 and lines[0] == FIRST and lines[-1] == LAST
    assert "92 solutions for N = 8." in r.stderr


def test_solve_fundamental_text() -> None:
    r = run("queens", "solve", "--fundamental")
    lines = r.stdout.splitlines()
    assert len(lines) == 12
    assert lines[0] == f"{FIRST}  (class of 8)"
    assert sum(int(line.split("class of ")[1].rstrip(")")) for line in lines) == 92


def test_solve_json_object() -> None:
    r = run("queens", "solve", "--format", "json")
    data = json.loads(r.stdout)
    assert data["n"] == 8 and data["fundamental"] is False and data["count"] == 92
    assert data["solutions"][0] == [1, 5, 8, 6, 3, 7, 2, 4]
    assert len(data["solutions"]) == 92


def test_solve_json_fundamental_has_class_sizes() -> None:
    data = json.loads(run("queens", "solve", "--fundamental", "--format", "json").stdout)
    assert data["count"] == 12 and sum(data["class_sizes"]) == 92


def test_solve_json_no_solutions() -> None:
    data = json.loads(run("queens", "solve", "-n", "3", "--format", "json").stdout)
    assert data == {"n": 3, "fundamental": False, "solutions": [], "count": 0}


def test_solve_csv() -> None:
    rows = list(
        csv.reader(io.StringIO(run("queens", "solve", "-n", "6", "--format", "csv").stdout))
    )
    assert rows[0] == ["solution", "row1", "row2", "row3", "row4", "row5", "row6"]
    assert rows[1] == ["1", "2", "4", "6", "1", "3", "5"] and len(rows) == 5
    fund = run("queens", "solve", "-n", "8", "--fundamental", "--format", "CSV").stdout
    rows = list(csv.reader(io.StringIO(fund)))
    assert rows[0][-1] == "class_size" and len(rows) == 13


def test_solve_board_draws_queens() -> None:
    r = run("queens", "solve", "--format", "board", "--limit", "3")
    assert r.exit_code == 0
    assert r.stdout.count("♛") == 24
    assert f"#1  {FIRST}" in r.stdout and "First 3 solutions for N = 8" in r.stdout


def test_solve_limit_streams_a_large_board() -> None:
    r = run("queens", "solve", "-n", "14", "--limit", "3")
    assert r.stdout.splitlines() == [
        "1 3 5 7 12 10 13 4 14 9 2 6 8 11",
        "1 3 5 7 13 10 12 14 6 4 2 8 11 9",
        "1 3 5 7 13 10 12 14 8 4 2 9 11 6",
    ]


def test_solve_without_numba() -> None:
    code = (
        "import sys; from click.testing import CliRunner; from boardgames.cli import cli; "
        "r = CliRunner().invoke(cli, ['queens', 'solve', '-n', '8']); "
        "assert r.exit_code == 0 and len(r.stdout.splitlines()) == 92; "
        "print('numba' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["solve", "-n", "0"], "N must be from 1 to"),
        (["solve", "-n", "x"], "is not a valid integer"),
        (["solve", "--format", "xml"], "'xml' is not one of"),
        (["solve", "--limit", "0"], "0 is not in the range x>=1"),
        (["count", "-n", "28"], "N must be from 1 to 27"),
        (["count", "-n", "-1"], "N must be from 1 to 27"),
        (["count", "--method", "magic"], "'magic' is not one of"),
        (
            ["count", "--method", "numba", "--workers", "2"],
            "--workers applies to the parallel methods",
        ),
        (["count", "--workers", "0"], "0 is not in the range x>=1"),
        (["count", "--workers", "999"], "this machine has"),
    ],
)
def test_bad_options_give_one_clear_line(args: list[str], message: str) -> None:
    r = run("queens", *args)
    assert r.exit_code == 2
    assert message in r.output


def test_count_text_and_json() -> None:
    r = run("queens", "count")
    assert r.exit_code == 0 and "N = 8: 92 solutions (bitmask" in r.stdout
    methods = ("naive", "tables", "bitmask", "numba", "parallel", "symmetry", "symmetry-parallel",
               "constellations", "constellations-parallel")  # fmt: skip
    for method in methods:
        data = json.loads(run("queens", "count", "-n", "10", "--method", method, "--json").stdout)
        assert data["count"] == 724 and data["method"] == method and data["n"] == 10
        assert data["fundamental"] is False and data["seconds"] >= 0
    data = json.loads(run("queens", "count", "-n", "11", "--fundamental", "--json").stdout)
    assert data["count"] == 341 and data["method"] == "bitmask" and data["fundamental"]
    data = json.loads(run("queens", "count", "-n", "13", "--fundamental", "--json").stdout)
    assert data["count"] == 9233 and data["fundamental"]  # OEIS A002562
    assert data["method"] == ("symmetry-parallel" if warmup.is_ready("queens") else "bitmask")
    data = json.loads(run("queens", "count", "-n", "14", "--fundamental", "--json").stdout)
    assert data["count"] == 45752  # OEIS A002562
    # the serial kernel while the kernels are compiled: its parallel twin would cost more
    parallel = warmup.is_ready("queens")
    assert data["method"] == ("constellations-parallel" if parallel else "constellations")
    data = json.loads(run("queens", "count", "-n", "17", "--json").stdout)
    assert data["count"] == 95815104 and data["method"] == "constellations-parallel"


@pytest.mark.parametrize("ready", [False, True])
def test_count_answers_in_pure_python_while_the_kernels_are_not_ready(
    ready: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A first run on a fresh machine: N up to 13 is counted in pure Python (no compiler
    wait) and the kernels are compiled in the background; once ready, auto uses them."""
    started: list[str] = []
    monkeypatch.setattr(warmup, "is_ready", lambda group: ready)
    monkeypatch.setattr(warmup, "warm_in_background", lambda group: started.append(group))
    for n, total in ((12, 14200), (13, 73712)):  # OEIS A000170
        r = run("queens", "count", "-n", str(n), "--json")
        data = json.loads(r.stdout)
        assert data["count"] == total
        if ready and n == 13:
            assert data["method"] == "symmetry-parallel" and "pure Python" not in r.stderr
        else:  # up to 12 pure Python is faster than loading the kernels anyway
            assert data["method"] == "bitmask"
        said = "counted in pure Python, bitmask, while the compiled kernels" in r.stderr
        assert said == (n == 13 and not ready)
    assert started == ([] if ready else ["queens"])
    data = json.loads(run("queens", "count", "-n", "14", "--json").stdout)
    # beyond 13 the kernels are worth it; while they are compiled, the serial one (the
    # parallel one costs more to compile than it saves up to N = 16)
    assert data["method"] == ("constellations-parallel" if ready else "constellations")
    assert data["count"] == 365596
    assert started == ([] if ready else ["queens", "queens"])  # the rest of the group


def test_count_workers() -> None:
    data = json.loads(run("queens", "count", "-n", "12", "--workers", "1", "--json").stdout)
    assert data == {**data, "count": 14200, "method": "symmetry-parallel", "workers": 1}
    data = json.loads(
        run(
            "queens", "count", "-n", "12", "--method", "parallel", "--workers", "2", "--json"
        ).stdout
    )
    assert data == {**data, "count": 14200, "method": "parallel", "workers": 2}


def test_count_interrupted(monkeypatch: pytest.MonkeyPatch) -> None:
    from boardgames.queens import counting

    def boom(*args: object, **kwargs: object) -> None:
        raise counting.Interrupted(3, 10, 2.5)

    monkeypatch.setattr(counting, "run_count", boom)
    r = run("queens", "count", "-n", "15")
    assert r.exit_code == 130
    lines = r.stderr.strip().splitlines()  # after the kernels' loading line, on a cold cache
    assert [x for x in lines if not x.startswith("Loading the numba kernels")] == [
        "Stopped (Ctrl-C) after 2.5 s: 3 of 10 solutions counted (30.0%), no result."
    ]
    r = run("compare", "queens", "-n", "15", "--methods", "numba,parallel")
    assert r.exit_code == 130
    assert r.stderr.strip().splitlines()[-1].endswith("no result. Comparison stopped.")


def test_compare_json_agrees() -> None:
    r = run("compare", "queens", "-n", "8", "--json")
    data = json.loads(r.stdout)
    assert data["agree"] is True and data["n"] == 8
    assert [m["method"] for m in data["methods"]] == [
        "naive",
        "tables",
        "bitmask",
        "numba",
        "parallel",
        "symmetry",
        "symmetry-parallel",
        "constellations",
        "constellations-parallel",
    ]
    assert {m["count"] for m in data["methods"]} == {92}
    assert data["jit_load_seconds"] is not None


def test_compare_table() -> None:
    r = run("compare", "queens", "-n", "7", "--fundamental", "--methods", "tables,bitmask")
    assert r.exit_code == 0
    assert "All 2 methods agree: 6." in r.stdout
    assert "speed-up against tables" in r.stdout and "numba" not in r.stdout


def test_compare_bad_methods() -> None:
    r = run("compare", "queens", "--methods", "tables,quick")
    assert r.exit_code == 2 and "unknown method 'quick'; choose from naive" in r.output
    r = run("compare", "queens", "--methods", "tables,tables")
    assert r.exit_code == 2 and "once" in r.output
    r = run("compare", "queens", "--workers", "999")
    assert r.exit_code == 2 and "this machine has" in r.output
    r = run("compare", "queens", "-n", "0")
    assert r.exit_code == 2 and "N must be from 1 to 27" in r.output


def test_compare_plot(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "q.png"
    r = run("compare", "queens", "-n", "6", "--methods", "tables,bitmask", "--plot", str(out))
    assert r.exit_code == 0, r.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    r = run("compare", "queens", "--plot", str(tmp_path / "q.txt"))
    assert r.exit_code == 2 and "must end in .png" in r.output


def test_compare_plot_without_matplotlib(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails as if not installed
    r = run("compare", "queens", "-n", "6", "--plot", str(tmp_path / "q.png"))
    assert r.exit_code == 1
    assert "pip install 'boardgames[plot]'" in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_help_lists_queens() -> None:
    assert "queens" in run("--help").stdout
    assert "queens" in run("compare", "--help").stdout
    for sub in ("solve", "count"):
        assert run("queens", sub, "--help").exit_code == 0


def test_compare_warns_before_slow_python_methods(monkeypatch: pytest.MonkeyPatch) -> None:
    from boardgames.queens import counting

    def fake(n: int, method: str, fundamental: bool = False, workers: object = None, progress=None):
        return counting.CountResult(n, method, fundamental, 73712, 1.0)

    monkeypatch.setattr(counting, "run_count", fake)
    r = run("compare", "queens", "-n", "13", "--methods", "naive,tables")
    assert r.exit_code == 0
    assert "Note: naive at N = 13 may take minutes" in r.stderr


# --- queens solve --json: the same output as --format json --------------------------------


def test_json_flag_equals_format_json() -> None:
    for extra in ([], ["--fundamental"], ["-n", "3"], ["-n", "6", "--limit", "2"]):
        flag = run("queens", "solve", "--json", *extra)
        fmt = run("queens", "solve", "--format", "json", *extra)
        assert flag.exit_code == fmt.exit_code == 0
        assert flag.stdout == fmt.stdout
        json.loads(flag.stdout)
    data = json.loads(run("queens", "solve", "--json").stdout)
    assert data["n"] == 8 and data["count"] == 92 and len(data["solutions"]) == 92


def test_json_flag_with_format_json_is_fine() -> None:
    r = run("queens", "solve", "--json", "--format", "JSON")
    assert r.exit_code == 0 and json.loads(r.stdout)["count"] == 92


def test_json_flag_with_another_format_is_one_line_of_usage_error() -> None:
    r = run("queens", "solve", "--json", "--format", "csv")
    assert r.exit_code == 2
    assert "--json prints JSON; it cannot go with --format csv" in r.output


def test_json_flag_in_help() -> None:
    assert "--json" in run("queens", "solve", "--help").stdout
