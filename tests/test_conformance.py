"""The conformance laws (:mod:`boardgames.testing`, the same ``check_game`` an outside
author runs) over every registered two-player game.

The laws that need only the Python rules (rules, notation, illegal moves refused, the
drawing's clickable moves, the action codec, ``max_game_length``) run over every
rule-changing option set (:func:`boardgames.testing.rule_setups`: each choice and switch
away from its default, and the smallest board), so a new option of a game is checked by
declaring it; the kernels' law runs on each game's defaults, and the solver's on each
option set at its smallest board (a plain search to the end stays small there).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from boardgames.core.protocol import GameError
from boardgames.core.registry import plugins, two_player
from boardgames.testing import PYTHON_LAWS, ConformanceError, cases, check_game, rule_setups

GAMES = sorted(two_player())
SETUPS = cases()


def setup_id(name: str, options: dict[str, Any]) -> str:
    return name + "".join(
        f"-{k}={'_'.join(map(str, v)) if isinstance(v, tuple) else v}" for k, v in options.items()
    )


def game_of(name: str, options: dict[str, Any] | None = None) -> Any:
    return two_player()[name].make(**(options or {}))


def test_the_built_in_games_are_registered() -> None:
    assert {"kalah", "nim", "queens"} <= set(plugins())
    assert {"kalah", "nim"} <= set(GAMES)


@pytest.mark.parametrize("law", PYTHON_LAWS)
@pytest.mark.parametrize("name, options", SETUPS, ids=[setup_id(n, o) for n, o in SETUPS])
def test_the_python_laws(name: str, options: dict[str, Any], law: str) -> None:
    check_game(game_of(name, options), laws=[law])


KERNEL_GAMES = [n for n in GAMES if two_player()[n].kernels]


@pytest.mark.parametrize("name", KERNEL_GAMES)
def test_the_kernels_equal_the_python_rules(name: str) -> None:
    check_game(game_of(name), laws=["kernels"])


def on_the_smallest_board(name: str, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` with every whole-number option at its lowest."""
    spec = two_player()[name]
    low = {o.name: o.low for o in spec.options if o.kind == "int" and o.low is not None}
    return {**options, **low}


SOLVER_SETUPS: list[tuple[str, dict[str, Any]]] = []
for _name in GAMES:
    for _options in rule_setups(two_player()[_name]):
        _small = (_name, on_the_smallest_board(_name, _options))
        if two_player()[_name].solver and _small not in SOLVER_SETUPS:
            SOLVER_SETUPS.append(_small)


@pytest.mark.parametrize(
    "name, options", SOLVER_SETUPS, ids=[setup_id(n, o) for n, o in SOLVER_SETUPS]
)
def test_the_solver_agrees_with_plain_search_to_the_end(name: str, options: dict[str, Any]) -> None:
    check_game(game_of(name, options), laws=["solver"])


def test_a_broken_law_names_the_game_the_law_and_the_move() -> None:
    """``check_game`` finds a game that accepts a move it does not list."""
    nim = game_of("nim")

    class Lenient:
        name = "nim"

        def __getattr__(self, attr: str) -> Any:
            return getattr(nim, attr)

        def play(self, state: Any, move: int) -> Any:
            try:
                return nim.play(state, move)
            except GameError:
                return state.copy(), False

    with pytest.raises(ConformanceError, match=r"nim: rules: play of the illegal move"):
        check_game(Lenient(), laws=["rules"])
    assert np.array_equal(nim.initial_state(), Lenient().initial_state())


@pytest.mark.parametrize("name", sorted(plugins()))
def test_every_hook_a_plugin_names_is_of_its_kind(name: str) -> None:
    """Every registered game (the puzzles too): its hooks import and are what they claim."""
    check_game(plugins()[name].make(), laws=["hooks"])
