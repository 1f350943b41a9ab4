"""Bugs an outside game found in the generic commands (issue 48), each pinned by a test."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgames.cli import cli


def _run(*args: str, stdin: str = "") -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    return result.exit_code, result.output


def test_generic_compare_runs_mcts_beside_alphabeta() -> None:
    code, out = _run(
        "compare", "connect4", "--width", "4", "--height", "4", "--strategies",
        "alphabeta,mcts", "--engines", "numba", "--depth", "2", "--positions", "1", "--json",
    )  # fmt: skip
    assert code == 0, out
    rows = {r["strategy"] for r in json.loads(out[out.index("{") :])["results"]}
    assert rows == {"alphabeta", "mcts"}


def test_analyse_svg_marks_the_best_move(tmp_path: Path) -> None:
    picture = tmp_path / "best.svg"
    code, out = _run("analyse", "connect4", "--width", "4", "--height", "4", "--depth", "2",
                     "--svg", str(picture))  # fmt: skip
    assert code == 0, out
    svg = picture.read_text()
    assert re.search(r'<[^>]*class="[^"]*mark-best', svg), svg[:500]
    assert f"Picture written to {picture}." in out


@pytest.mark.parametrize("position", ["", "1122334"], ids=["playing", "over"])
def test_analyse_svg_under_json_says_where_on_stderr(tmp_path: Path, position: str) -> None:
    """--json keeps standard output for the JSON; the picture's line goes to stderr."""
    picture = tmp_path / "pos.svg"
    result = CliRunner().invoke(
        cli,
        ["analyse", "connect4", position, "--width", "4", "--height", "4", "--depth", "2",
         "--svg", str(picture), "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["game"] == "connect4"
    assert result.stderr.strip() == f"Picture written to {picture}."
    assert picture.read_text().startswith("<svg")


PLAIN = """
from dataclasses import dataclass
from boardgames.core.registry import GamePlugin
from boardgames.connect4.game import ConnectFour

@dataclass(frozen=True)
class PlainFour(ConnectFour):
    name: str = "plainfour"
    parse_position = None  # no position notation: a start is written as moves
    format_position = None

PLUGIN = GamePlugin(name="plainfour", title="Plain Four", kind="game", summary="s",
                    factory="fake_plainfour:PlainFour", player_names=("1", "2"))
"""


def _installed(
    name: str, source: str, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """Game ``name`` registered as an outside plugin: module ``fake_<name>`` holding
    ``source`` (its ``PLUGIN``) and a distribution whose entry point names it, on
    ``sys.path`` while the test runs; the registry reloads."""
    from boardgames.core import registry

    (folder / f"fake_{name}.py").write_text(source)
    info = folder / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        f"[{registry.ENTRY_POINT_GROUP}]\n{name} = fake_{name}:PLUGIN\n"
    )
    monkeypatch.syspath_prepend(str(folder))
    registry.reset()
    yield
    registry.reset()


@pytest.fixture
def plain_four(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Connect Four registered as a game without position notation (its start written as moves)."""
    yield from _installed("plainfour", PLAIN, tmp_path, monkeypatch)


def test_a_record_from_a_start_without_position_notation_names_the_whole_line(
    tmp_path: Path, plain_four: None
) -> None:
    """A start given as moves: the record holds them too, so it replays from the start."""
    from boardgames.core.capabilities import PositionNotation
    from boardgames.core.registry import make_game

    game = make_game("plainfour")
    assert not isinstance(game, PositionNotation)
    record = tmp_path / "r.txt"
    code, out = _run(
        "play", "plainfour", "--start", "1 2", "--first", "program", "--second",
        "program", "--level", "easy", "--record", str(record),
    )  # fmt: skip
    assert code == 0, out
    lines = record.read_text().splitlines()
    moves = next(line for line in lines if line.startswith("moves:")).split()[1:]
    assert moves[:2] == ["1", "2"], record.read_text()
    state = game.initial_state()  # the whole line is legal from the start
    for word in moves:
        state, _ = game.play(state, game.parse_move(word, state))
    assert game.outcome(state) is not None


def test_the_monte_carlo_table_names_moves_in_the_games_notation() -> None:
    """compare's MCTS table printed protocol move ids (Othello's "15" for d2); it says the
    move as the game writes it."""
    from rich.console import Console

    from boardgames.core.compare import CompareRow, mcts_table
    from boardgames.core.mcts import MctsResult
    from boardgames.core.registry import make_game

    game = make_game("connect4")
    found = MctsResult(move=3, value=0.6, visits=80, share=0.8, playouts=100, plies=900,
                       seconds=0.01)  # fmt: skip
    row = CompareRow("mcts", "numba", values=[0], nodes=100, seconds=0.01, mcts=[found],
                     best=[True])  # fmt: skip
    table = mcts_table([row], game.format_move)
    assert table is not None
    console = Console(width=120, record=True)
    console.print(table)
    line = next(t for t in console.export_text().splitlines() if "mcts" in t)
    assert line.replace("│", " ").split()[1:3] == ["1", game.format_move(3)]
    assert game.format_move(3) != "3"  # the test tells notation from ids


@pytest.mark.parametrize("game", ["kalah", "connect4"])
def test_every_compare_of_strategies_takes_engines(game: str) -> None:
    """``compare GAME --engines`` wherever strategies are compared on engines (Kalah's own
    compare took --engine only; Nim's compares Bouton's rule with search, no engines)."""
    args = ["compare", game, "--engines", "python", "--strategies", "alphabeta", "--json"]
    code, out = _run(*args, "--depth", "1", "--positions", "1")
    assert code == 0, out
    assert {r["engine"] for r in json.loads(out[out.index("{") :])["results"]} == {"python"}


@pytest.mark.parametrize("aside", [True, False])
def test_compare_on_a_fresh_machine_checks_its_options_then_says_what_it_runs(
    monkeypatch: pytest.MonkeyPatch, aside: bool
) -> None:
    """With the kernels not compiled, ``compare`` runs the python engine alone and says so;
    it promises a background compile only when one was started (none with
    BOARDGAMES_BACKGROUND_WARM=0), and only once its options are good: a bad option is
    the error alone, and starts nothing."""
    from boardgames.core import warmup

    started: list[str] = []

    def warm(group: str) -> bool:
        started.append(group)
        return aside

    monkeypatch.setattr(warmup, "is_ready", lambda group: False)
    monkeypatch.setattr(warmup, "warm_in_background", warm)
    bad = CliRunner().invoke(cli, ["compare", "connect4", "--strategies", "foo"])
    assert bad.exit_code == 2 and "Note:" not in bad.output and started == [], bad.output
    args = ["compare", "connect4", "--width", "4", "--height", "4", "--depth", "2",
            "--positions", "1", "--strategies", "alphabeta", "--json"]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert started == ["connect4"]
    (note,) = [line for line in result.stderr.splitlines() if line.startswith("Note:")]
    assert "the python engine only" in note
    assert ("compile in the background for the next run" in note) == aside, note
    engines = {r["engine"] for r in json.loads(result.stdout)["results"]}
    assert engines == {"python"}


@pytest.mark.parametrize(
    "args, said",
    [
        (["kalah", "0 0 0 0 12 0 0 0 0 12 B", "--pits", "4"], "The game is over: a draw."),
        # RULES.md 6: (42 + 2 - 7) div 2 = 18
        (["connect4", "1122334"], "The game is over: 2, to move, has lost (margin 18)."),
    ],
    ids=["draw", "lost"],
)
def test_analyse_says_a_finished_game_in_plain_words(args: list[str], said: str) -> None:
    code, out = _run("analyse", *args)
    assert code == 0, out
    assert out.strip().splitlines()[-1] == said


@pytest.mark.parametrize("word", ["q", "quit"])
def test_quitting_at_a_programs_move_is_game_stopped_not_end_of_input(word: str) -> None:
    """A teacher's review: q at "Press Enter" said "End of input."."""
    code, out = _run(
        "play", "nim", "--first", "program", "--second", "program", "--step", stdin=f"{word}\n"
    )
    assert code == 0, out
    assert "End of input" not in out
    assert out.rstrip().endswith("(q quits) Game stopped."), out[-200:]


@pytest.mark.parametrize(
    "args, said",
    [
        (["connect4", "play"], "the command is 'boardgames play connect4'"),
        (["nim", "match"], "the command is 'boardgames match nim'"),
        (["queens", "play"], "No such command 'play'"),  # a puzzle: no generic play
    ],
)
def test_a_generic_command_after_the_game_says_where_it_is(args: list[str], said: str) -> None:
    """A student typed ``boardgames connect4 play``: "No such command 'play'" alone."""
    code, out = _run(*args)
    assert code == 2 and said in out, out
    assert len(out.strip().splitlines()) == 1
    if args[0] == "queens":
        assert "the command is" not in out


@pytest.mark.parametrize("command", ["analyse", "play", "match", "compare"])
def test_an_empty_game_name_is_named_as_such(command: str) -> None:
    code, out = _run(command, "")
    assert code == 2 and "the game's name is empty; give one of: " in out, out
    assert "connect4" in out and len(out.strip().splitlines()) == 1


STRICT = """
from dataclasses import dataclass
from boardgames.core.protocol import GameError
from boardgames.core.registry import GamePlugin, Option
from boardgames.nim.game import Nim

@dataclass(frozen=True)
class StrictNim(Nim):
    name: str = "strictnim"

    def parse_position(self, text):
        if not text.strip():
            raise GameError("'' is not a position")  # the start is asked of analyse itself
        return super().parse_position(text)

def make(rows=(3, 4, 5), normal=True):
    return StrictNim(tuple(rows), misere=not normal)

PLUGIN = GamePlugin(
    name="strictnim", title="Strict Nim", kind="game", summary="s",
    factory="fake_strictnim:make", player_names=("first", "second"),
    options=(Option("rows", "ints", (3, 4, 5), "chips", 1, 20),
             Option("normal", "bool", True, "whoever takes the last chip wins")),
)
"""


@pytest.fixture
def strict_nim(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A plugin author's game (a review, issue 48): a switch that is on by default, and a
    position notation that refuses an empty text."""
    yield from _installed("strictnim", STRICT, tmp_path, monkeypatch)


def test_a_switch_on_by_default_stays_on_unless_turned_off(strict_nim: None) -> None:
    """``Option("normal", "bool", True, ...)`` was a flag that could only turn it on, so
    every command built the game with it off."""
    code, out = _run("play", "strictnim", "--help")
    assert code == 0 and "--normal / --no-normal" in out, out
    assert "[default:" in " ".join(out[out.index("--normal / --no-normal") :].split()[:12])
    for args, misere in ((), False), (("--no-normal",), True), (("--normal",), False):
        code, out = _run("analyse", "strictnim", "--depth", "1", "--json", *args)
        assert code == 0, out
        code, said = _run("analyse", "strictnim", "1 1", "--depth", "2", *args)
        winner_moves = "loss" if not misere else "win"  # 1 1: the mover loses normal Nim
        assert winner_moves in said, (args, said)


def test_analyse_without_a_position_is_the_start_whatever_the_notation(strict_nim: None) -> None:
    """The help says "none is the start"; a notation that refuses '' made it an error."""
    code, out = _run("analyse", "strictnim", "--depth", "1", "--json")
    assert code == 0, out
    assert json.loads(out)["position"] == "3 4 5"
