"""``boardgames.testing``: the public conformance check finds what it promises to find."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from boardgames import testing
from boardgames.core.registry import make_game, plugin
from boardgames.testing import ConformanceError, check_game, check_picture


class Cells:
    """A stand-in with two legal moves drawn as two squares."""

    def legal_moves(self, state: Any) -> list[int]:
        return [0, 1]


SQUARES = (
    '<rect x="0" y="0" width="10" height="10" data-move="0"/>'
    '<rect x="10" y="0" width="10" height="10" data-move="1"/>'
)


def svg(body: str) -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 10">{body}</svg>'


def test_a_dot_drawn_over_a_move_swallows_its_clicks() -> None:
    """Issue 48: a stone drawn over the clickable square took every click, unnoticed."""
    dot = '<circle cx="5" cy="5" r="3"/>'
    with pytest.raises(ConformanceError, match="covers the centre"):
        check_picture(Cells(), None, svg(SQUARES + dot))
    inert = '<circle cx="5" cy="5" r="3" pointer-events="none"/>'
    check_picture(Cells(), None, svg(SQUARES + inert))
    grouped = (  # the dot inside the clickable element: its clicks are the move's
        '<g data-move="0"><rect x="0" y="0" width="10" height="10"/>'
        '<circle cx="5" cy="5" r="3"/></g>'
        '<rect x="10" y="0" width="10" height="10" data-move="1"/>'
    )
    check_picture(Cells(), None, svg(grouped))


def test_the_clickable_elements_must_be_the_legal_moves() -> None:
    with pytest.raises(ConformanceError, match=r"data-move \[0\] are not the legal moves"):
        check_picture(Cells(), None, svg(SQUARES.split('<rect x="10"')[0]))


def test_a_game_longer_than_its_declared_bound_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    nim = make_game("nim", rows=(3, 4))
    short = dataclasses.replace(plugin("nim"), max_game_length=3)
    monkeypatch.setattr(testing, "_plugin", lambda game: short)
    with pytest.raises(ConformanceError, match="past max_game_length 3"):
        check_game(nim, laws=["length"])
    exact = dataclasses.replace(plugin("nim"), max_game_length=lambda game: sum(game.rows))
    monkeypatch.setattr(testing, "_plugin", lambda game: exact)
    check_game(nim, laws=["length"])


def test_every_law_passes_on_a_small_built_in_game() -> None:
    check_game(make_game("connect4", width=4, height=4))


def test_rule_setups_cover_each_choice_switch_and_the_smallest_board() -> None:
    assert testing.rule_setups(plugin("nim")) == [{}, {"misere": True}, {"rows": (1, 2)}]
    kalah = testing.rule_setups(plugin("kalah"))
    assert {"rules": "etudes"} in kalah and {"pits": 1, "seeds": 1} in kalah
