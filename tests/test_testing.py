"""``boardgames.testing``: the public conformance check finds what it promises to find."""

from __future__ import annotations

import dataclasses
import re
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


class _BrokenNim:
    """Nim with one fault (``fault``): its legal_moves raises, or its play returns the
    child alone instead of ``(child, again)``."""

    def __init__(self, fault: str) -> None:
        self.inner = make_game("nim")
        self.fault = fault

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def legal_moves(self, state: Any) -> Any:
        if self.fault == "legal-raises" and int(state.sum()) < 10:
            raise RuntimeError("boom in legal_moves")
        return self.inner.legal_moves(state)

    def play(self, state: Any, move: int) -> Any:
        child, again = self.inner.play(state, move)
        return child if self.fault == "play-child-only" else (child, again)


@pytest.mark.parametrize(
    ("fault", "words"),
    [
        ("legal-raises", "rules: the game raised RuntimeError: boom in legal_moves ("),
        ("play-child-only", "returned ndarray, not (state, again) after moves []"),
    ],
)
def test_a_game_whose_own_code_fails_is_a_conformance_error_saying_where(
    monkeypatch: pytest.MonkeyPatch, fault: str, words: str
) -> None:
    """Issue: check_game let a game's own exception through (a RuntimeError from its rules,
    an IndexError from a wrong return) instead of naming the law and where."""
    monkeypatch.setattr(testing, "_plugin", lambda game: plugin("nim"))
    with pytest.raises(ConformanceError, match=re.escape(words)) as e:
        check_game(_BrokenNim(fault), laws=["rules"])
    if fault == "legal-raises":
        assert "test_testing.py" in str(e.value) and "in legal_moves)" in str(e.value)


def test_the_plugins_examples_must_be_positions_of_the_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bad = dataclasses.replace(plugin("nim"), examples=("3 4 5", "zz"))
    monkeypatch.setattr(testing, "_plugin", lambda game: bad)
    with pytest.raises(ConformanceError, match="notation: the plugin's example 'zz' is refused"):
        check_game(make_game("nim"), laws=["notation"])
    good = dataclasses.replace(plugin("nim"), examples=("3 4 5", "1 4 5"))
    monkeypatch.setattr(testing, "_plugin", lambda game: good)
    check_game(make_game("nim"), laws=["notation"])


@pytest.mark.parametrize(
    "change, words",
    [
        ({"players": "boardgames.testing:check_game"}, "its players 'boardgames.testing:check_game'"
         " is a function, not a GamePlayers"),
        ({"cli": "boardgames.testing:LAWS"}, "its cli 'boardgames.testing:LAWS' is a dict, "
         "not a click group"),
        ({"records": "boardgames.nowhere:RECORDS"}, "records"),
        ({"web": "boardgames.testing:nothing_here"}, "nothing_here"),
        ({"warm": (("kernels", "boardgames.testing:LAWS"),)}, "warm step 'kernels'"),
    ],
    ids=["players-a-function", "cli-a-dict", "records-missing-module", "web-missing-object",
         "warm-not-a-function"],
)  # fmt: skip
def test_a_hook_of_the_wrong_kind_is_a_conformance_error(
    monkeypatch: pytest.MonkeyPatch, change: dict[str, object], words: str
) -> None:
    """A hook is checked where the game is, not when a command first needs it."""
    bad = dataclasses.replace(plugin("nim"), **change)  # type: ignore[arg-type]
    monkeypatch.setattr(testing, "_plugin", lambda game: bad)
    with pytest.raises(ConformanceError, match="hooks") as e:
        check_game(make_game("nim"), laws=["hooks"])
    assert words in str(e.value) and "\n" not in str(e.value)
    monkeypatch.setattr(testing, "_plugin", lambda game: plugin("nim"))
    check_game(make_game("nim"), laws=["hooks"])


@pytest.mark.parametrize(
    "implied, words",
    [
        ({"rows": (1,)}, "for a position of this very game: it must give {}"),
        ({"size": 5}, "names no option: ['size']"),
        ({"rows": (99,)}, "which the options refuse"),
    ],
    ids=["own-size", "unknown-option", "out-of-range"],
)
def test_a_sized_position_that_implies_wrong_options_is_a_conformance_error(
    implied: dict[str, object], words: str
) -> None:
    """check_game reads position_options (a plugin author's review: a broken one passed
    every law, and the commands then blamed the user's input)."""
    from boardgames.nim.game import Nim

    class Sized(Nim):
        def position_options(self, text: str) -> dict[str, object]:
            if implied != {"rows": (1,)} and not super().position_options(text):
                return {}  # a position of its own size: right, nothing implied
            return dict(implied)

    with pytest.raises(ConformanceError, match="notation") as e:
        check_game(Sized(), laws=["notation"])
    assert words in str(e.value), str(e.value)
    check_game(make_game("nim"), laws=["notation"])  # Nim's own passes
