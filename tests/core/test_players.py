"""The named players every two-player game has (core/players.py): ``program`` is the
strong level everywhere (a teacher's review: the README offered ``match nim --a program``,
which only Kalah took), a game's own player of that name first."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from boardgames.cli import cli
from boardgames.core.players import Level, find_player, generic_players, players
from boardgames.core.registry import two_player


@pytest.mark.parametrize("name", sorted(two_player()))
def test_program_is_a_player_of_every_game(name: str) -> None:
    game = two_player()[name].make()
    program = find_player(game, "program")
    strong = players(game)["strong"]
    if isinstance(program, Level):
        assert isinstance(strong, Level)
        assert (program.name, program.seconds, program.depth) == (
            "program",
            strong.seconds,
            strong.depth,
        )


def test_the_generic_players_name_program() -> None:
    assert {"random", "easy", "medium", "strong", "perfect", "program"} <= set(generic_players())


@pytest.mark.parametrize(
    "game, options",
    [("nim", ["--rows", "1 2"]), ("connect4", ["--width", "4", "--height", "4"])],
    ids=["nim", "connect4"],
)
def test_match_takes_program_as_a_side(game: str, options: list[str]) -> None:
    result = CliRunner().invoke(
        cli, ["match", game, *options, "--a", "program", "--b", "random", "--games", "1"]
    )
    assert result.exit_code == 0, result.output
    assert "│ program │" in result.output
