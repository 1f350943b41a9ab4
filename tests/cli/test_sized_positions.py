"""A position whose text fixes the board's size needs no size option (SizedPositions):
``analyse nim "7 7"`` plays on rows 7 7, ``analyse kalah`` with a 10-hole board on 4 pits;
an option the user gives is kept (and the position then refused as before)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from click.testing import CliRunner

from boardgames.cli import cli
from boardgames.core.capabilities import (
    SizedPositions,
    format_position,
    game_for_position,
    parse_position,
)
from boardgames.core.registry import plugins
from boardgames.testing import rule_setups

SIZED = sorted(n for n, p in plugins().items() if isinstance(p.make(), SizedPositions))


def test_the_games_with_sized_positions() -> None:
    assert {"kalah", "nim"} <= set(SIZED)


def _other_setups(name: str) -> list[dict[str, Any]]:
    spec = plugins()[name]
    setups = rule_setups(spec)
    for o in spec.options:  # every size option at a value away from its default
        if o.kind == "int" and o.low is not None and o.high is not None:
            setups.append({o.name: o.low + (o.high - o.low) // 3})
        if o.kind == "ints":
            setups.append({o.name: (2, 7, 1, 9)})
    return setups


@pytest.mark.parametrize("name", SIZED)
def test_a_position_of_any_size_is_read_by_the_default_game(name: str) -> None:
    """For positions of random games on other boards: the default game, given the options
    the text implies, reads the text as the same position."""
    spec = plugins()[name]
    default = spec.make()
    rng = random.Random(7)
    for options in _other_setups(name):
        game = spec.make(**options)
        state = game.initial_state()
        for _ in range(12):
            text = format_position(game, state)
            sized = game_for_position(spec, default, text)
            assert format_position(sized, parse_position(sized, text)) == text, (options, text)
            moves = game.legal_moves(state)
            if not moves:
                break
            state, _ = game.play(state, rng.choice(moves))


def _analyse(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["analyse", *args, "--depth", "2", "--json"])
    return result.exit_code, result.output


def test_analyse_nim_takes_the_rows_from_the_position() -> None:
    code, out = _analyse("nim", "7 0 2")
    assert code == 0, out
    assert json.loads(out)["position"] == "7 0 2"


def test_analyse_kalah_takes_the_pits_from_the_board() -> None:
    code, out = _analyse("kalah", "0 4 4 4 4 0 4 4 4 4 0 0")
    assert code == 0, out
    assert json.loads(out)["position"] == "0 4 4 4 4 0 4 4 4 4 0 0 A"


def test_an_option_the_user_gives_is_kept() -> None:
    code, out = _analyse("nim", "7 7", "--rows", "3 4 5")
    assert code == 2 and "expected 3 rows (the start 3 4 5), got 2" in out, out
    code, out = _analyse("kalah", "0 4 4 4 4 0 4 4 4 4 0 0", "--pits", "6")
    assert code == 2 and "a board with 6 pits a side has 14 holes, got 12" in out, out


def test_play_from_a_start_of_another_size() -> None:
    """``play nim --start "2 1"`` by two people: the game is on rows 2 1."""
    result = CliRunner().invoke(
        cli,
        ["play", "nim", "--start", "2 1", "--first", "human", "--second", "human"],
        input="1 2\n2 1\n",
    )
    assert result.exit_code == 0, result.output
    assert "  1  ● ●       2\n  2  ●         1" in result.output, result.output
    assert result.output.rstrip().endswith("Second player wins (margin 1).")
