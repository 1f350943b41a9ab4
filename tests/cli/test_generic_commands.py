"""The generic commands (games, play, analyse, compare) over every registered game: a game
gets them by registering, and they behave as every other command (one-line errors with
status 2, prompts that ask again, end of input that leaves cleanly and keeps the record)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgames.cli import cli
from boardgames.core.protocol import is_terminal_score
from boardgames.core.records import read_record
from boardgames.core.registry import plugins, two_player

GAMES = sorted(two_player())


def run(args: list[str], text: str | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, args, input=text)


def test_games_lists_every_plugin_with_its_capabilities_and_options() -> None:
    result = run(["games", "--json"])
    assert result.exit_code == 0, result.output
    listed = {g["name"]: g for g in json.loads(result.stdout)["games"]}
    assert set(listed) == set(plugins())
    for name in GAMES:
        assert {"rules", "text", "notation"} <= set(listed[name]["capabilities"])
        assert listed[name]["kind"] == "game"
    text = run(["games"]).output
    for name in plugins():
        assert name in text


def test_the_root_help_lists_each_plugins_own_commands() -> None:
    out = run(["--help"]).output
    for name, p in plugins().items():
        assert (name in out) == bool(p.cli) or name in out


@pytest.mark.parametrize("name", GAMES)
def test_analyse_the_start_gives_a_legal_move(name: str) -> None:
    result = run(["analyse", name, "--depth", "2", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    game = two_player()[name].make()
    state = game.initial_state()
    legal = [game.format_move(m) for m in game.legal_moves(state)]
    assert report["move"] in legal
    assert report["depth"] == 2 and report["exact"] is False
    # a depth-limited won or lost value is a bound, never exact
    assert (report["bound"] is not None) == is_terminal_score(report["value"])


@pytest.mark.parametrize("name", GAMES)
def test_program_against_program_finishes_with_a_result(name: str, tmp_path: Path) -> None:
    record = tmp_path / "game.txt"
    args = ["play", name, "--first", "program", "--second", "program", "--level", "easy"]
    result = run([*args, "--record", str(record)])
    assert result.exit_code == 0, result.output
    last = result.output.strip().splitlines()[-1]
    assert "wins" in last or "draw" in last
    # the record (the game's own format, or the generic one) replays to a finished game
    game = two_player()[name].make()
    state, moves = read_record(game, record.read_text())
    for move in moves:
        state, _ = game.play(state, move)
    assert game.outcome(state) is not None
    assert moves


@pytest.mark.parametrize("name", GAMES)
def test_a_bad_move_is_refused_and_asked_again_and_end_of_input_keeps_the_record(
    name: str, tmp_path: Path
) -> None:
    record = tmp_path / "game.txt"
    result = run(["play", name, "--record", str(record), "--level", "easy"], "99999\nzz\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("to move (") == 3  # asked three times
    assert "Traceback" not in result.output
    assert "end of input" in result.output.lower() and record.is_file()


def test_hint_and_undo_in_a_game(tmp_path: Path) -> None:
    name = GAMES[0]
    game = two_player()[name].make()
    first = game.format_move(game.legal_moves(game.initial_state())[0])
    result = run(["play", name, "--level", "easy"], f"hint\n{first}\nundo\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Hint:" in result.output and "Game stopped." in result.output


@pytest.mark.parametrize(
    "args, words",
    [
        (["play", "no-such-game"], "no game 'no-such-game' is installed"),
        (["analyse", "no-such-game"], "no game 'no-such-game' is installed"),
        (["play", GAMES[0], "--depth", "0"], "--depth"),
        (["play", GAMES[0], "--record", "/no/such/folder/x.txt"], "does not exist"),
    ],
)
def test_bad_usage_is_one_line_with_status_2(args: list[str], words: str) -> None:
    result = run(args)
    assert result.exit_code == 2, result.output
    assert words in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert "Traceback" not in result.output


@pytest.mark.parametrize("name", GAMES)
def test_a_bad_position_is_one_line_with_status_2(name: str) -> None:
    result = run(["analyse", name, "zz zz"])
    assert result.exit_code == 2, result.output
    assert result.output.startswith("Error:") and len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize("name", GAMES)
def test_option_values_out_of_range_are_refused(name: str) -> None:
    spec = two_player()[name]
    numeric = [o for o in spec.options if o.kind == "int"]
    if not numeric:
        pytest.skip(f"{name} has no whole-number option")
    option = numeric[0]
    result = run(["analyse", name, option.flag, str((option.high or 0) + 1)])
    assert result.exit_code == 2 and option.flag in result.output


def test_a_puzzle_is_not_played() -> None:
    puzzles = [n for n, p in plugins().items() if p.kind == "puzzle"]
    result = run(["play", puzzles[0]])
    assert result.exit_code == 2 and "puzzle" in result.output


@pytest.mark.parametrize("name", [n for n in GAMES if not two_player()[n].compare])
def test_generic_compare_runs_and_the_strategies_agree(name: str) -> None:
    args = ["compare", name, "--depth", "2", "--positions", "2", "--engines", "python", "--json"]
    result = run(args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["agree"] is True
    assert {r["strategy"] for r in report["results"]} >= {"minimax", "alphabeta"}


def test_a_match_of_bouton_wins_the_first_players_won_start() -> None:
    """Nim 3 4 5 is a first-player win (its nim-sum is 2): Bouton's strategy moving first
    wins it against anyone; the pair's other game has the sides swapped."""
    result = run(["match", "nim", "--a", "bouton", "--b", "random", "--opening", "0",
                  "--games", "1", "--json"])  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    first, second = data["games"]
    assert (first["a_plays"], second["a_plays"]) == (0, 1)
    assert first["margin"] == 1


@pytest.mark.parametrize("name", GAMES)
def test_a_match_plays_every_game_to_the_end(name: str) -> None:
    result = run(["match", name, "--a", "random", "--b", "easy", "--games", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["wins"] + data["draws"] + data["losses"] == 4 == len(data["games"])
    assert all(g["moves"] > 0 for g in data["games"])


def test_a_match_names_an_unknown_player_in_one_line() -> None:
    result = run(["match", GAMES[0], "--b", "robot"])
    assert result.exit_code == 2 and "no player 'robot'" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_games_lists_every_games_players() -> None:
    data = json.loads(run(["games", "--json"]).stdout)
    found = {g["name"]: g["players"] for g in data["games"]}
    for name in GAMES:
        assert {"random", "easy", "medium", "strong", "perfect"} <= set(found[name])
    assert {"classic", "tseitin", "rechenberg"} <= set(found["kalah"])
    assert "bouton" in found["nim"]
