"""Connect Four's rules, notation, score and pictures against RULES.md section 6."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgames.connect4.game import ConnectFour
from boardgames.core.capabilities import Mark, capabilities, legal_mask
from boardgames.core.protocol import HEURISTIC_LIMIT, GameError, terminal_score
from boardgames.core.registry import make_game
from boardgames.core.search import alphabeta

GAME = ConnectFour()
DRAW_7X6 = "547125662261271266215743771576315353334444"
DRAW_4X4 = "4321311144234232"


def finished(game: ConnectFour, moves: str) -> int | None:
    return game.outcome(game.parse_position(moves))


def test_the_worked_example_of_rules_md() -> None:
    """After 112233 player 1 wins at once in column 4 with its 4th disc: 22 - 4 = 18."""
    state = GAME.parse_position("112233")
    assert GAME.outcome(state) is None and GAME.to_move(state) == 0
    for depth in (1, 2):
        result = alphabeta(GAME, state, depth)
        assert result.best_move == 3
        assert result.value == terminal_score(18, 1)
    after, again = GAME.play(state, 3)
    assert not again and GAME.outcome(after) == -18
    assert GAME.legal_moves(after) == []


@pytest.mark.parametrize(
    ("moves", "winner_discs"),
    [
        ("1212121", 4),  # vertical, column 1
        ("1122334", 4),  # horizontal, bottom row
        ("12233434474", 6),  # diagonal up to the right
        ("76655454414", 6),  # diagonal down to the right (the mirror image)
        ("71212121", 4),  # the second player, column 1: its own discs count
        ("7121213661", 5),  # the second player with its 5th disc
    ],
)
def test_four_in_a_line_ends_the_game(moves: str, winner_discs: int) -> None:
    state = GAME.parse_position(moves)
    assert GAME.outcome(GAME.parse_position(moves[:-1])) is None
    assert GAME.outcome(state) == -(22 - winner_discs)
    assert GAME.legal_moves(state) == []
    with pytest.raises(GameError):
        GAME.play(state, 0)


@pytest.mark.parametrize(("size", "moves"), [((7, 6), DRAW_7X6), ((4, 4), DRAW_4X4)])
def test_a_full_board_without_four_is_a_draw(size: tuple[int, int], moves: str) -> None:
    game = ConnectFour(*size)
    state = game.parse_position(moves)
    assert len(moves) == game.cells
    assert game.outcome(state) == 0
    assert game.legal_moves(state) == []
    assert game.outcome(game.parse_position(moves[:-1])) is None


@pytest.mark.parametrize(
    ("size", "moves", "score"),
    [((4, 4), "2441424312233311", 1), ((5, 5), "5242131142554453233354112", 1)],
)
def test_a_win_with_the_last_disc_is_a_win(size: tuple[int, int], moves: str, score: int) -> None:
    """The board is full, but the last disc made four: a win, never the draw's 0 (on 5x5
    the winner has 13 discs: ceil(25 / 2) + 1 - 13 = 1)."""
    game = ConnectFour(*size)
    assert finished(game, moves) == -score


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("1111111", "character 7 of '1111111' plays into column 1, which is full"),
        ("48", "character 2 of '48' ('8') names no column; columns are 1 to 7"),
        ("0", "('0') names no column"),
        ("4 4", "(' ') names no column"),
        ("4٣", "('٣') names no column"),
        ("11223344", "character 8 of '11223344' continues a finished game (1 has won)"),
        (DRAW_4X4 + "1", "continues a finished game"),
    ],
)
def test_bad_positions_are_one_line_errors(text: str, says: str) -> None:
    game = ConnectFour(4, 4) if text.startswith(DRAW_4X4) else GAME
    with pytest.raises(GameError) as error:
        game.parse_position(text)
    assert says in str(error.value) and "\n" not in str(error.value)


def test_notation_follows_the_board_width() -> None:
    assert ConnectFour(8, 7).parse_position("8")[7 * 7] == 1
    with pytest.raises(GameError, match="columns are 1 to 5"):
        ConnectFour(5, 5).parse_position("6")
    assert GAME.parse_position("  ").tolist() == GAME.initial_state().tolist()
    assert GAME.format_position(GAME.initial_state()) == ""


def test_moves_parse_with_a_message_naming_the_legal_columns() -> None:
    state = GAME.parse_position("444444")
    assert GAME.parse_move(" 5 ", state) == 4
    with pytest.raises(GameError) as error:
        GAME.parse_move("4", state)
    assert str(error.value) == "columns are 1 to 7; column 4 is full; legal now: 1 2 3 5 6 7"
    for text in ("8", "x", "", "44"):
        with pytest.raises(GameError, match="is not a column: columns are 1 to 7"):
            GAME.parse_move(text, state)
    with pytest.raises(GameError, match="the game is over"):
        GAME.parse_move("1", GAME.parse_position("1212121"))
    assert [GAME.format_move(m) for m in GAME.legal_moves(state)] == list("123567")


@pytest.mark.parametrize(("width", "height"), [(3, 6), (7, 3), (10, 5), (9, 7), (7, 9)])
def test_board_limits(width: int, height: int) -> None:
    with pytest.raises(GameError, match="at most 64"):
        ConnectFour(width, height)


def test_registry_builds_the_game_with_its_options() -> None:
    game = make_game("connect4", width="8", height=7)
    assert game == ConnectFour(8, 7)
    for name in ("rules", "position", "svg", "actions", "evaluation", "kernels"):
        assert name in capabilities(game)


def test_play_leaves_its_input_alone_and_moves_by_gravity() -> None:
    state = GAME.parse_position("44")
    before = state.copy()
    child, _ = GAME.play(state, 3)
    assert (state == before).all()
    assert child[3 * 6 + 2] == 1 and GAME.to_move(child) == 1
    with pytest.raises(GameError):
        GAME.play(GAME.parse_position("444444"), 3)
    with pytest.raises(GameError):
        GAME.play(state, 7)


def test_a_position_is_one_state_whatever_the_order() -> None:
    a, b = GAME.parse_position("1234"), GAME.parse_position("3214")
    assert a.tolist() == b.tolist()
    assert GAME.parse_position(GAME.format_position(a)).tolist() == a.tolist()


def test_format_position_refuses_states_no_game_reaches() -> None:
    state = GAME.initial_state()
    state[1] = 1  # a floating disc
    state[42 + 1] = 1
    with pytest.raises(GameError, match="cannot be reached"):
        GAME.format_position(state)
    stack = GAME.parse_position("1")
    stack[1] = 1  # two discs of 1 and none of 2
    stack[42:44] = [0, 2]
    with pytest.raises(GameError, match="cannot be reached"):
        GAME.format_position(stack)


def test_evaluation_is_a_symmetric_integer_heuristic() -> None:
    assert GAME.evaluate(GAME.initial_state()) == 0
    centre = GAME.evaluate(GAME.parse_position("4"))
    edge = GAME.evaluate(GAME.parse_position("1"))
    assert centre < edge < 0  # from the second player's view: the centre disc counts most
    for moves, mirror in (("4453", "4435"), ("1122", "7766")):
        value = GAME.evaluate(GAME.parse_position(moves))
        assert value == GAME.evaluate(GAME.parse_position(mirror))
        assert isinstance(value, int) and abs(value) < HEURISTIC_LIMIT


def test_svg_offers_every_legal_column_to_click() -> None:
    state = GAME.parse_position("444444" + "3")
    picture = GAME.svg(state, last=2, marks=[Mark(4, "best")], heading="a <test>")
    root = ET.fromstring(picture)
    ns = {"s": "http://www.w3.org/2000/svg"}
    columns = root.findall(".//s:g[@class='column']", ns)
    assert [int(g.get("data-move", "")) for g in columns] == GAME.legal_moves(state)
    discs = root.findall(".//s:circle", ns)
    assert sum("disc" in (c.get("class") or "") for c in discs) == 7
    assert root.find(".//s:circle[@class='last last-move']", ns) is not None
    best = root.find(".//s:polygon[@class='best mark mark-best']", ns)
    assert best is not None and best.get("data-col") == "5"  # a mark is no move to click
    over = ET.fromstring(GAME.svg(GAME.parse_position("1212121")))
    assert over.findall(".//s:g[@class='column']", ns) == []
    with pytest.raises(GameError):
        GAME.svg(state, last=0)


def test_render_shows_the_board_and_who_moves() -> None:
    shown = str(GAME.render(GAME.parse_position("44")))
    lines = shown.splitlines()
    assert lines[-2].split() == list("1234567")
    assert lines[-3].split() == [".", ".", ".", "X", ".", ".", "."]
    assert lines[-4].split()[3] == "O" and "1 (X) to move" in lines[-1]
    assert "1 has won" in str(GAME.render(GAME.parse_position("1212121")))


def test_action_codec() -> None:
    state = GAME.parse_position("444444" + "1")
    assert GAME.num_actions == 7 and GAME.observation_high == 1
    assert legal_mask(GAME, state).tolist() == [1, 1, 1, 0, 1, 1, 1]
    assert GAME.move_of(state, np.int64(2)) == 2
    for bad in (3, "2", 2.0, True, None, -1, 7):
        assert GAME.move_of(state, bad) is None  # type: ignore[arg-type]
    seen = GAME.observation(state, 1)
    assert seen.shape == GAME.observation_shape == (2, 6, 7)
    assert seen[0, 5].tolist() == [0, 0, 0, 0, 0, 0, 0]  # the bottom row has no disc of 2
    assert seen[1, 5].tolist() == [1, 0, 0, 1, 0, 0, 0]
    assert seen[0, :, 3].tolist() == [1, 0, 1, 0, 1, 0]  # column 4, top row first
    assert (GAME.observation(state, 0) == seen[::-1]).all()


@settings(max_examples=60, deadline=None)
@given(
    size=st.sampled_from([(7, 6), (4, 4), (9, 6), (5, 9), (8, 7)]),
    picks=st.lists(st.integers(0, 1000), max_size=60),
)
def test_random_games_keep_count_gravity_and_notation(
    size: tuple[int, int], picks: list[int]
) -> None:
    game = ConnectFour(*size)
    state = game.initial_state()
    played = ""
    for pick in picks:
        legal = game.legal_moves(state)
        if not legal:
            assert game.outcome(state) is not None
            break
        move = legal[pick % len(legal)]
        state, _ = game.play(state, move)
        played += game.format_move(move)
        board = state[: game.cells].reshape(game.width, game.height)
        assert state[game.cells + 1] == len(played) == np.count_nonzero(board)
        assert game.to_move(state) == len(played) % 2
        assert np.count_nonzero(board == 1) - np.count_nonzero(board == 2) == len(played) % 2
        for column in board:  # no disc floats above an empty cell
            assert not (np.diff((column != 0).astype(int)) > 0).any()
    assert game.parse_position(played).tolist() == state.tolist()
    again = game.parse_position(game.format_position(state))
    assert again.tolist() == state.tolist()
