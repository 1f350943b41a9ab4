"""Connect Four against two independent implementations on 7x6: OpenSpiel's
``connect_four`` and PettingZoo's ``connect_four_v3`` (an action is a column in both).
Random games: the same legal columns at every step, the same end and the same winner."""

from __future__ import annotations

import random

import numpy as np
import pytest

from boardgames.connect4.game import ConnectFour
from boardgames.core.protocol import State

GAME = ConnectFour()
GAMES = 200


def winner(state: State) -> int | None:
    """0 or 1 for the player who won, None for a draw (the game must be over)."""
    result = GAME.outcome(state)
    assert result is not None
    return None if result == 0 else 1 - GAME.to_move(state)


def test_open_spiel_agrees() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    spiel = pyspiel.load_game("connect_four")
    rng = random.Random(4)
    ends = set()
    for _ in range(GAMES):
        theirs, ours = spiel.new_initial_state(), GAME.initial_state()
        while not theirs.is_terminal():
            assert theirs.current_player() == GAME.to_move(ours)
            legal = GAME.legal_moves(ours)
            assert list(theirs.legal_actions()) == legal
            move = rng.choice(legal)
            theirs.apply_action(move)
            ours, _ = GAME.play(ours, move)
        assert GAME.legal_moves(ours) == []
        returns = theirs.returns()
        expected = None if returns[0] == returns[1] else int(returns[1] > returns[0])
        assert winner(ours) == expected
        ends.add(expected)
    assert ends >= {0, 1}


def test_petting_zoo_agrees() -> None:
    pytest.importorskip("pygame")  # PettingZoo's Connect Four imports it to draw
    connect_four_v3 = pytest.importorskip("pettingzoo.classic.connect_four_v3")
    env = connect_four_v3.env()
    rng = random.Random(5)
    ends = set()
    for seed in range(GAMES):
        env.reset(seed=seed)
        ours = GAME.initial_state()
        rewards: dict[str, float] = {}
        for agent in env.agent_iter():
            observation, reward, done, cut, _ = env.last()
            if done or cut:
                rewards[agent] = reward
                env.step(None)
                continue
            player = int(agent.removeprefix("player_"))
            assert player == GAME.to_move(ours)
            legal = GAME.legal_moves(ours)
            assert np.flatnonzero(observation["action_mask"]).tolist() == legal
            # same planes (the mover's discs, then the opponent's), rows top first
            assert (
                observation["observation"] == GAME.observation(ours, player).transpose(1, 2, 0)
            ).all()
            move = rng.choice(legal)
            env.step(move)
            ours, _ = GAME.play(ours, move)
        assert set(rewards) == {"player_0", "player_1"}
        first = rewards["player_0"]
        expected = None if first == 0 else (0 if first > 0 else 1)
        assert winner(ours) == expected
        ends.add(expected)
    env.close()
    assert ends >= {0, 1}
