"""``analyse connect4`` says a proved value in Connect Four's words (its commentary's
``value``), as the web page does."""

from __future__ import annotations

from click.testing import CliRunner

from boardgames.cli import cli
from boardgames.core.commentary import value_words
from boardgames.core.protocol import terminal_score
from boardgames.core.registry import make_game


def test_analyse_says_which_disc_wins() -> None:
    # 1 has discs in columns 4, 5, 6 of the bottom row: 3 or 7 wins with their 4th disc
    result = CliRunner().invoke(cli, ["analyse", "connect4", "445566", "--level", "perfect"])
    assert result.exit_code == 0, result.output
    assert "value 1 wins with their 4th disc (exact;" in result.output


def test_value_words_come_from_the_games_commentary() -> None:
    c4 = make_game("connect4")
    state = c4.initial_state()
    assert value_words(c4, state, terminal_score(1, 41), True) == "1 wins with their 21st disc"
    assert value_words(c4, state, 0, True) is None  # a draw: the generic words
    nim = make_game("nim")  # no value words of its own
    assert value_words(nim, nim.initial_state(), terminal_score(1, 3), True) is None
