"""One drawing for every game: ``svg(state, *, last=, marks=, heading=)`` (the Drawing
capability) over every registered two-player game and each rule-changing option set, on
positions of seeded random games: the picture parses, its ``data-move`` elements are
exactly the legal moves and each is the top-most element at its centre (what is drawn
over it lets clicks through), and the last move and the marks are drawn."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from boardgames.core.capabilities import Drawing, Mark, moves_of
from boardgames.core.protocol import GameError
from boardgames.core.registry import two_player
from boardgames.testing import check_picture

SPECS = two_player()
OPTION_SETS: dict[str, list[dict[str, Any]]] = {
    "kalah": [{"rules": "etudes"}, {"pits": 3}, {"capture": "empty"}],
    "nim": [{"misere": True}, {"rows": (1, 2)}],
    "connect4": [{"width": 5, "height": 4}, {"width": 7, "height": 7}],
}
CASES = [(name, {}) for name in SPECS] + [
    (name, options)
    for name, sets in OPTION_SETS.items()
    if name in SPECS
    for options in sets
    if set(options) <= {o.name for o in SPECS[name].options}  # an option this version has
]
IDS = [name + "".join(f"-{k}={v}" for k, v in options.items()) for name, options in CASES]


def drawing(name: str, options: dict[str, Any]) -> Any:
    game = SPECS[name].make(**options)
    if not isinstance(game, Drawing):
        pytest.skip(f"{name} does not draw")
    return game


def positions(game: Any, seed: int, games: int = 3, every: int = 3) -> list[tuple[Any, list[int]]]:
    """Every ``every``-th position of ``games`` seeded random games, and each final one,
    with the moves that led there."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        state, moves = game.initial_state(), []
        for ply in range(400):
            legal = game.legal_moves(state)
            if ply % every == 0 or not legal:
                out.append((state, list(moves)))
            if not legal:
                break
            moves.append(rng.choice(legal))
            state, _ = game.play(state, moves[-1])
    return out


def classes(e: ET.Element) -> list[str]:
    return e.get("class", "").split()


def classed(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in classes(e)]


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_the_legal_moves_are_what_a_click_reaches(name: str, options: dict[str, Any]) -> None:
    game = drawing(name, options)
    for state, _ in positions(game, 1):
        check_picture(game, state, str(game.svg(state)))


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_the_last_move_and_the_marks_are_drawn(name: str, options: dict[str, Any]) -> None:
    game = drawing(name, options)
    seen = 0
    for state, moves in positions(game, 2, every=1):
        legal = game.legal_moves(state)
        if not moves or not legal:
            continue
        marks = [Mark(legal[0], "best"), Mark(legal[-1], "hint")]
        picture = game.svg(state, last=moves[-1], marks=marks, heading="a <heading> & more")
        root = check_picture(game, state, str(picture))
        assert classed(root, "last-move"), moves[-1]
        assert classed(root, "mark-best") and classed(root, "mark-hint")
        assert any(t.text == "a <heading> & more" for t in root.iter())
        seen += 1
    assert seen >= 3


def test_a_bad_mark_kind_is_one_line() -> None:
    with pytest.raises(GameError, match="no mark kind 'worst'"):
        Mark(3, "worst")
    assert Mark((1, 2), "win").move == (1, 2) and Mark(3).moves == (3,)


CONNECT4 = [(n, o) for n, o in CASES if n == "connect4"]


@pytest.mark.parametrize(("name", "options"), CONNECT4, ids=[f"{n}-{o}" for n, o in CONNECT4])
def test_a_won_connect_four_shows_its_line(name: str, options: dict[str, Any]) -> None:
    """The four winning cells are ringed (``mark-win``): four in a line, of the winner's
    colour; a game that is not won has none."""
    game = drawing(name, options)
    won = 0
    for state, moves in positions(game, 3, games=6, every=50):
        root = check_picture(game, state, str(game.svg(state, last=moves[-1] if moves else None)))
        cells = {(int(e.get("data-col")), int(e.get("data-row"))) for e in
                 classed(root, "mark-win")}  # fmt: skip
        discs = {(int(e.get("data-col")), int(e.get("data-row"))): classes(e)[-1]
                 for e in classed(root, "disc")}  # fmt: skip
        if game.outcome(state) is None or game.outcome(state) == 0:
            assert not cells
            continue
        winner = "p2" if len(moves) % 2 == 0 else "p1"
        assert {discs.get(c) for c in cells} == {winner}
        lines = [
            [(c + k * dc, r + k * dr) for k in range(4)]
            for c, r in cells
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1))
        ]
        assert any(set(line) <= cells for line in lines)
        assert (moves[-1] + 1, game.height_of(state, moves[-1])) in cells
        won += 1
    assert won >= 3
    # by hand: four of the first player in the first column
    root = ET.fromstring(str(game.svg(game.parse_position("1212121"))))
    assert {(e.get("data-col"), e.get("data-row")) for e in classed(root, "mark-win")} == {
        ("1", "1"),
        ("1", "2"),
        ("1", "3"),
        ("1", "4"),
    }


def test_the_moves_of_a_position_written_as_moves() -> None:
    """``analyse --svg`` knows the last move when POSITION lists the moves."""
    if "connect4" not in SPECS:
        pytest.skip("Connect Four is not installed")
    game = SPECS["connect4"].make()

    class Listed:  # a game without its own notation: positions are move lists
        initial_state, parse_move, play = game.initial_state, game.parse_move, game.play
        outcome, legal_moves = game.outcome, game.legal_moves

    assert moves_of(Listed(), "4 4, 5;3") == [3, 3, 4, 2]
    assert moves_of(Listed(), "start") == [] and moves_of(game, "4453") is None
