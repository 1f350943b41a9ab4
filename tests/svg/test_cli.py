"""The command line's pictures: ``analyse GAME --svg`` and ``kalah analyse --svg``,
``kalah replay --svg`` (an
animation, one frame per move), ``kalah review --plot`` (the evaluation graph),
``queens solve --format svg`` and ``compare kalah --plot x.svg``; a bad or unwritable
path is one line and the right exit status, and no picture is half written."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from boardgames.cli import cli
from boardgames.core.registry import two_player
from boardgames.kalah.record import read_record, replay

ROOT = Path(__file__).resolve().parents[2]
STRANGE_GAME = ROOT / "docs" / "games" / "strange-game.txt"
NS = "{http://www.w3.org/2000/svg}"


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def classed(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in e.get("class", "").split()]


def one_error_line(result: Result, code: int) -> str:
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("Error:")]
    assert len(errors) == 1, result.stderr
    return errors[0]


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BOARDGAMES_CACHE", str(tmp_path / "cache"))
    return tmp_path


# --- kalah analyse --svg ---------------------------------------------------------------------


def test_analyse_draws_the_position_and_marks_the_best_move(tmp_path: Path) -> None:
    out = tmp_path / "pos.svg"
    board = "1 0 3 0 2 1 10 2 0 1 4 0 2 12"
    result = run("kalah", "analyse", "--board", board, "--depth", "3", "--svg", str(out), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    root = ET.parse(out).getroot()
    counts = [int(g.get("data-count")) for g in classed(root, "hole")]
    assert counts == [int(x) for x in board.split()]
    marked = {int(g.get("data-hole")): g.get("data-best") for g in classed(root, "best")}
    order: dict[int, list[str]] = {}
    for k, pit in enumerate(data["best"], 1):
        order.setdefault(pit, []).append(str(k))
    assert marked == {pit: " ".join(ks) for pit, ks in order.items()}
    assert root.get("data-to-move") == "A"


def test_analyse_of_a_finished_game_still_draws_it(tmp_path: Path) -> None:
    out = tmp_path / "over.svg"
    result = run("kalah", "analyse", "--board", "0 0 0 5 4 0 0 3", "--svg", str(out))
    assert result.exit_code == 0, result.output
    root = ET.parse(out).getroot()
    assert root.get("data-to-move") == "" and not classed(root, "best")


# --- analyse GAME --svg (any game) ----------------------------------------------------------

POSITIONS = {"connect4": "4453", "kalah": "", "nim": "3 4 5"}


@pytest.mark.parametrize("name", [n for n in POSITIONS if n in two_player()])
def test_generic_analyse_marks_the_best_move(name: str, tmp_path: Path) -> None:
    out = tmp_path / "best.svg"
    result = run("analyse", name, POSITIONS[name], "--depth", "2", "--svg", str(out), "--json")
    assert result.exit_code == 0, result.output
    game = two_player()[name].make()
    state = game.parse_position(POSITIONS[name])
    best = game.parse_move(json.loads(result.stdout)["move"], state)
    root = ET.parse(out).getroot()
    marked = [e for e in classed(root, "mark-best") if "badge" not in e.get("class")]
    if name == "connect4":
        assert [e.get("data-col") for e in marked] == [str(best + 1)]
    elif name == "kalah":
        assert [e.get("data-hole") for e in marked] == [str(best)]
    else:  # the chips the move takes
        row, take = divmod(best, 1 << 16)
        chips = classed(classed(root, "row")[row], "mark-best")
        assert len(chips) == len(marked) == take


def test_generic_analyse_draws_a_finished_game_with_its_line(tmp_path: Path) -> None:
    if "connect4" not in two_player():
        pytest.skip("Connect Four is not installed")
    out = tmp_path / "won.svg"
    result = run("analyse", "connect4", "1212121", "--svg", str(out))
    assert result.exit_code == 0, result.output
    root = ET.parse(out).getroot()
    cells = {(e.get("data-col"), e.get("data-row")) for e in classed(root, "mark-win")}
    assert cells == {("1", "1"), ("1", "2"), ("1", "3"), ("1", "4")}


# --- kalah replay --svg ------------------------------------------------------------------------


def test_replay_animates_one_frame_per_move(tmp_path: Path) -> None:
    out = tmp_path / "game.svg"
    result = run("kalah", "replay", str(STRANGE_GAME), "--svg", str(out))
    assert result.exit_code == 0, result.output
    record = read_record(STRANGE_GAME)
    steps, _ = replay(record)
    root = ET.parse(out).getroot()
    frames = classed(root, "frame")
    assert [int(f.get("data-move")) for f in frames] == list(range(len(steps) + 1))
    assert int(root.get("data-frames")) == len(steps) + 1 == 27
    game = record.game
    for frame, step in zip(frames[1:], steps, strict=True):
        assert frame.get("data-pits") == " ".join(map(str, step.pits))
        assert frame.get("data-player") == "AB"[step.player]
        counts = [int(g.get("data-count")) for g in classed(frame, "hole")]
        assert counts == game.board(step.state)
    style = root.find(f"{NS}style").text
    assert "@keyframes" in style and "animation" in style
    delays = [f.get("style") for f in frames]
    assert len(set(delays)) == len(frames)  # each frame shows at its own time


def test_replay_svg_with_json_keeps_stdout_json(tmp_path: Path) -> None:
    out = tmp_path / "game.svg"
    result = run("kalah", "replay", str(STRANGE_GAME), "--svg", str(out), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["final"] == {"A": 32, "B": 40}
    assert out.exists()


# --- bad paths: one line, the status of the project's other output files ---------------------

COMMANDS = {
    "analyse": ["kalah", "analyse", "--depth", "1", "--svg"],
    "replay": ["kalah", "replay", str(STRANGE_GAME), "--svg"],
    "review": ["kalah", "review", str(STRANGE_GAME), "--exact-nodes", "0", "--depth", "1",
               "--plot"],
    "compare": ["compare", "kalah", "--pits", "2", "--seeds", "2", "--depth", "2", "--plot"],
}  # fmt: skip


@pytest.mark.parametrize("command", COMMANDS, ids=list(COMMANDS))
def test_a_path_that_cannot_be_written_is_found_before_the_work(command: str, folder: Path) -> None:
    for bad, reason in (
        (folder / "missing" / "x.svg", "does not exist"),
        (folder, "is a directory"),
    ):
        result = run(*COMMANDS[command], str(bad))
        line = one_error_line(result, 2)
        assert reason in line


@pytest.mark.parametrize("command", COMMANDS, ids=list(COMMANDS))
def test_a_failed_write_is_status_1_and_one_line(command: str, folder: Path) -> None:
    link = folder / "full.svg"
    link.symlink_to("/dev/full")
    for path in ("/dev/full", str(link)):
        result = run(*COMMANDS[command], path)
        line = one_error_line(result, 1)
        assert "cannot write" in line and path in line
        assert "written to" not in result.output


@pytest.mark.parametrize("command", COMMANDS, ids=list(COMMANDS))
def test_no_permission_is_status_1(command: str, folder: Path, monkeypatch) -> None:
    """A folder the user may not write to (simulated: the tests may run as root)."""
    import boardgames.core.svg

    def refuse(path: object, data: bytes) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(boardgames.core.svg, "write_atomic", refuse)
    out = folder / "x.svg"
    result = run(*COMMANDS[command], str(out))
    line = one_error_line(result, 1)
    assert line.endswith(f"to {out}: Permission denied")
    assert not out.exists()


def test_review_plot_must_be_svg(folder: Path) -> None:
    result = run(*COMMANDS["review"], str(folder / "graph.png"))
    assert ".svg" in one_error_line(result, 2)


# --- kalah review --plot --------------------------------------------------------------------


def test_the_review_graph_marks_the_moves_the_review_judges(folder: Path) -> None:
    """Depth-limited (--exact-nodes 0): the strange game's review has inaccuracies and a
    mistake; the graph rings exactly those moves, and every value is the review's."""
    out = folder / "graph.svg"
    args = ("kalah", "review", str(STRANGE_GAME), "--exact-nodes", "0", "--depth", "3")
    result = run(*args, "--json", "--plot", str(out))
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["moves"]
    root = ET.parse(out).getroot()
    points = classed(root, "point")
    assert [int(p.get("data-move")) for p in points] == [r["move"] for r in rows]
    judged = {r["move"]: r["verdict"] for r in rows if r["verdict"] != "best"}
    assert {"mistake", "inaccuracy"} <= set(judged.values())
    marked = {int(p.get("data-move")): p.get("data-mark") for p in points if p.get("data-mark")}
    assert marked == judged
    for p, r in zip(points, rows, strict=True):
        assert p.get("data-player") == r["player"]
        assert int(p.get("data-loss")) == r["loss"]
        assert p.get("data-kind") in ("estimate", "lower", "upper")  # nothing exact here
        if p.get("data-kind") == "estimate":
            assert float(p.get("data-value")) == r["after"]
    labels = [t.text for t in classed(root, "move-number")]
    assert labels[0] == "1" and labels[-1] == str(len(rows))


@pytest.mark.slow
def test_the_review_graph_draws_exact_moves_solid(folder: Path) -> None:
    """With a small endgame table the late moves are exact: drawn as exact points."""
    out = folder / "graph.svg"
    args = ("kalah", "review", str(STRANGE_GAME), "--endgame", "14", "--exact-nodes", "3000000")
    result = run(*args, "--json", "--plot", str(out))
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["moves"]
    points = classed(ET.parse(out).getroot(), "point")
    for p, r in zip(points, rows, strict=True):
        assert (p.get("data-kind") == "exact") == r["exact"]
        if r["exact"]:
            assert float(p.get("data-value")) == r["after"]
    assert any(r["exact"] for r in rows)


# --- queens solve --format svg ---------------------------------------------------------------


@pytest.mark.parametrize("fundamental", [False, True])
def test_queens_solutions_as_one_picture(fundamental: bool) -> None:
    args = ["queens", "solve", "-n", "6", "--format", "svg"]
    result = run(*args, *(["--fundamental"] if fundamental else []))
    assert result.exit_code == 0, result.output
    root = ET.fromstring(result.stdout)
    text = run("queens", "solve", "-n", "6", *(["--fundamental"] if fundamental else []))
    expected = [line.split("  (")[0] for line in text.stdout.splitlines()]
    boards = classed(root, "solution")
    assert [b.get("data-queens") for b in boards] == expected
    for b in boards:
        queens = sorted((int(q.get("data-row")), int(q.get("data-col"))) for q in
                        classed(b, "queen"))  # fmt: skip
        assert [c for _, c in queens] == [int(c) for c in b.get("data-queens").split()]


def test_queens_svg_with_a_limit_and_too_many_boards() -> None:
    result = run("queens", "solve", "-n", "8", "--format", "svg", "--limit", "3")
    assert result.exit_code == 0
    assert len(classed(ET.fromstring(result.stdout), "solution")) == 3
    result = run("queens", "solve", "-n", "12", "--format", "svg")
    assert "--limit" in one_error_line(result, 2)
    assert result.stdout == ""
    result = run("queens", "solve", "-n", "4", "--format", "svg", "--json")
    assert result.exit_code == 2


def test_queens_svg_with_no_solution_is_still_a_picture() -> None:
    result = run("queens", "solve", "-n", "3", "--format", "svg")
    assert result.exit_code == 0
    assert not classed(ET.fromstring(result.stdout), "solution")


# --- compare --plot x.svg -----------------------------------------------------------------


def test_compare_plot_as_svg_needs_no_matplotlib(folder: Path, monkeypatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # importing it now fails
    out = folder / "cmp.svg"
    result = run(*COMMANDS["compare"], str(out), "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    root = ET.parse(out).getroot()
    bars = classed(root, "bar")
    panels = [p.get("data-panel") for p in classed(root, "panel")]
    assert panels == ["CPU seconds", "positions visited"]
    labels = [b.get("data-label") for b in bars if b.get("data-label")]
    assert len(labels) == 2 * len(rows["results"])


def test_frame_seconds_needs_svg() -> None:
    result = run("kalah", "replay", str(STRANGE_GAME), "--frame-seconds", "2")
    assert "--svg" in one_error_line(result, 2)
