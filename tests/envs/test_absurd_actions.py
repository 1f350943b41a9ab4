"""Integer actions far beyond any action id (thousands of digits) get the environments' own
refusal, never Python's integer-to-text limit (issue 50)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the [rl] extra is not installed")
gymnasium = pytest.importorskip("gymnasium", reason="the [rl] extra is not installed")

import boardgames.envs  # noqa: E402
from boardgames.envs.games import games_with_actions  # noqa: E402

GAMES = games_with_actions()
ABSURD = [10**5000, -(10**5000), 2**64, -(2**63) - 1, np.array(10**5000, dtype=object)]
IDS = ["10**5000", "-10**5000", "2**64", "-2**63-1", "0-d object array"]


@pytest.mark.parametrize("action", ABSURD, ids=IDS)
@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_refuses_an_absurd_action_as_any_illegal_one(name: str, action: object) -> None:
    env = boardgames.envs.make(name)
    env.reset(seed=0)
    before = np.array(env.unwrapped.state())
    with pytest.raises(ValueError, match=r"^action <(an|a negative) integer of [\d,]+\+ digits> "
                       r"is not legal for player_0; legal now: ") as e:  # fmt: skip
        env.step(action)
    assert "limit" not in str(e.value) and len(str(e.value)) < 400
    assert np.array_equal(env.unwrapped.state(), before)


@pytest.mark.parametrize("action", ABSURD, ids=IDS)
@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_ends_the_episode_on_an_absurd_action(name: str, action: object) -> None:
    title = boardgames.envs.games.title(name)
    env = gymnasium.make(f"boardgames/{title}-v0", opponent="random")
    env.reset(seed=0)
    _, reward, done, _, info = env.step(action)
    assert (reward, done, info["illegal"]) == (env.unwrapped.setup.low, True, True)
