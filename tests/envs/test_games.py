"""The generic adapters on every registered two-player game with action ids (a game is
checked here just by registering): PettingZoo's api_test, Gymnasium's check_env,
OpenSpiel's random_sim_test, copies mid-game, bad actions, steps after the end; and a
toy game registered by the test itself reaches all three without a line of its own."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the [rl] extra is not installed")
gymnasium = pytest.importorskip("gymnasium", reason="the [rl] extra is not installed")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, render_test  # type: ignore[import-untyped]  # noqa: E402

import boardgames.envs  # noqa: E402
from boardgames.core import registry  # noqa: E402
from boardgames.core.protocol import State  # noqa: E402
from boardgames.envs.aec import GameAEC  # noqa: E402
from boardgames.envs.games import Setup, games_with_actions, title  # noqa: E402
from boardgames.envs.single import GameEnv  # noqa: E402
from tests.envs.toys import CodedTakeAway  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning:pettingzoo.test.api_test")

GAMES = games_with_actions()
BAD_ACTIONS = [1.5, 1.0, "1", None, float("nan"), float("inf"), np.float64(1), True, np.bool_(0)]
COPIES: dict[str, Callable[[Any], Any]] = {
    "deepcopy": copy.deepcopy,
    "pickle": lambda env: pickle.loads(pickle.dumps(env)),
}


def gym_id(name: str) -> str:
    return f"boardgames/{title(name)}-v0"


def test_kalah_nim_and_connect_four_are_served() -> None:
    assert {"kalah", "nim", "connect4"} <= set(GAMES)
    assert "queens" not in GAMES  # a puzzle


@pytest.mark.parametrize("name", GAMES)
def test_the_codec_agrees_with_the_rules(name: str) -> None:
    game = registry.make_game(name)
    rng = np.random.default_rng(0)
    state = game.initial_state()
    while game.outcome(state) is None:
        legal = game.legal_moves(state)
        actions = [game.action_of(state, m) for m in legal]
        assert [game.move_of(state, a) for a in actions] == legal
        assert len(set(actions)) == len(legal) and all(0 <= a < game.num_actions for a in actions)
        others = set(range(game.num_actions)) - set(actions)
        assert all(game.move_of(state, a) is None for a in [*others, -1, game.num_actions])
        for player in (0, 1):
            view = np.asarray(game.observation(state, player))
            assert view.shape == game.observation_shape and view.dtype == np.int64
            assert view.min() >= 0 and view.max() <= game.observation_high
        state, _ = game.play(state, legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_and_render(name: str) -> None:
    api_test(boardgames.envs.make(name), num_cycles=40)
    render_test(lambda render_mode: boardgames.envs.make(name, render_mode=render_mode))


@pytest.mark.parametrize(
    ("name", "opponent"), [(n, o) for n in GAMES for o in ("random", "program")]
)
@pytest.mark.filterwarnings("ignore:.*alternative render modes:UserWarning")
def test_gymnasium_checker(name: str, opponent: str) -> None:
    env = gymnasium.make(gym_id(name), opponent=opponent, learner="second")
    check_env(env.unwrapped)
    generic = GameEnv(name, opponent=opponent, render_mode="rgb_array")
    check_env(generic)
    generic.reset(seed=0)
    picture = generic.render()
    assert (
        isinstance(picture, np.ndarray)
        and picture.ndim == 3
        and picture.shape[2] == 3
        and picture.dtype == np.uint8
    )


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_simulation_and_move_text(name: str) -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed")
    import boardgames.envs.spiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game(f"python_boardgames_{name}")
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
    state = game.new_initial_state()
    ours = state.setup.game
    for action in state.legal_actions():
        move = ours.move_of(state.board, action)
        assert state.action_to_string(0, action) == ours.format_move(move)
    illegal = game.num_distinct_actions()
    with pytest.raises(ValueError, match=f"action {illegal} is not legal for player_0"):
        state.apply_action(illegal)


def play_some(env: Any, moves: int, rng: np.random.Generator) -> None:
    """Random legal moves in a PettingZoo environment (fewer if the game ends)."""
    for _ in range(moves):
        obs, _, done, _, _ = env.last()
        if done:
            return
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("how", COPIES)
def test_a_pettingzoo_copy_mid_game_plays_on(name: str, how: str) -> None:
    env = boardgames.envs.make(name)
    env.reset(seed=3)
    play_some(env, 3, np.random.default_rng(3))
    clone = COPIES[how](env)
    assert clone.agent_selection == env.agent_selection and clone.agents == env.agents
    assert clone.rewards == env.rewards
    assert np.array_equal(clone.unwrapped.state(), env.unwrapped.state())
    before = env.unwrapped.state()
    for agent in env.agents:
        assert all(
            np.array_equal(a, b)
            for a, b in zip(clone.observe(agent).values(), env.observe(agent).values(), strict=True)
        )
    rng = np.random.default_rng(4)
    while clone.agents:  # the copy plays to the end; the original is left where it was
        obs, _, done, _, _ = clone.last()
        clone.step(None if done else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert np.array_equal(env.unwrapped.state(), before)
    assert sum(clone.unwrapped._cumulative_rewards.values()) == 0  # zero-sum to the end


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("how", COPIES)
def test_a_gymnasium_copy_mid_game_plays_on_identically(name: str, how: str) -> None:
    env = gymnasium.make(gym_id(name), opponent="random")
    _, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert not done
    clone = COPIES[how](env)
    assert np.array_equal(clone.unwrapped.state, env.unwrapped.state)
    while not done:  # the same actions give the same replies (the generator was copied)
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, done, _, info = env.step(action)
        obs2, reward2, done2, _, info2 = clone.step(action)
        assert np.array_equal(obs, obs2) and (reward, done) == (reward2, done2)
        assert info["opponent_moves"] == info2["opponent_moves"]


@pytest.mark.parametrize("name", GAMES)
def test_bad_actions_are_refused_and_change_nothing(name: str) -> None:
    zoo = boardgames.envs.make(name)
    zoo.reset(seed=0)
    gym = gymnasium.make(gym_id(name), opponent="random")
    gym.reset(seed=0)
    for bad in BAD_ACTIONS:
        for env, state in ((zoo, zoo.unwrapped.state), (gym, lambda: gym.unwrapped.state)):
            before = np.array(state())
            with pytest.raises(ValueError, match="an action is an integer id") as e:
                env.step(bad)
            assert "\n" not in str(e.value) and np.array_equal(state(), before)
    n = zoo.action_space(zoo.agent_selection).n
    with pytest.raises(ValueError, match=f"action {n} is not legal for player_0; legal now: "):
        zoo.step(n)
    _, reward, done, _, info = gym.step(np.int64(n))  # Gymnasium: the illegal-move penalty
    assert (reward, done, info["illegal"]) == (gym.unwrapped.setup.low, True, True)
    with pytest.raises(ValueError, match=r"call reset\(\)"):
        gym.step(0)


@pytest.mark.parametrize("name", GAMES)
def test_an_illegal_action_ends_the_pettingzoo_game_with_the_lowest_reward(name: str) -> None:
    rng = np.random.default_rng(1)
    env = boardgames.envs.make(name)
    for seed in range(20):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, done, _, _ = env.last()
            if done:
                break
            empty = np.flatnonzero(obs["action_mask"] == 0)
            if empty.size:
                env.step(int(empty[0]))
                assert all(env.terminations.values())
                assert env.rewards[agent] == env.unwrapped.setup.low
                return
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    pytest.fail("no illegal action in 20 random games")


@pytest.mark.parametrize("name", GAMES)
def test_a_step_after_the_end_says_to_reset(name: str) -> None:
    env = boardgames.envs.make(name)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    play_some(env, 10_000, rng)
    assert env.terminations[env.agent_selection]
    with pytest.raises(ValueError, match=r"the game is over: step\(None\).*reset\(\)"):
        env.step(0)
    while env.agents:
        env.step(None)
    with pytest.raises(ValueError, match=r"call reset\(\) to start one"):
        env.step(0)
    env.reset()
    play_some(env, 1, rng)  # and reset starts another game
    gym = GameEnv(name, opponent="random")
    with pytest.raises(ValueError, match=r"call reset\(\)"):
        gym.step(0)  # not begun
    _, info = gym.reset(seed=1)
    done = False
    while not done:
        _, _, done, _, info = gym.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert isinstance(info["margin"], int)
    with pytest.raises(ValueError, match=r"call reset\(\)"):
        gym.step(int(np.flatnonzero(info["action_mask"])[0]) if info["action_mask"].any() else 0)


def coded_legal_moves(game: Any, state: State) -> list[int]:
    """The legal moves of ``state`` as action ids, found from the rules (not a mask)."""
    return sorted(game.action_of(state, move) for move in game.legal_moves(state))


@pytest.mark.parametrize("name", GAMES)
def test_the_action_masks_are_the_legal_moves_in_every_adapter(name: str) -> None:
    """At every position of a random game: PettingZoo's mask for the mover (all 0 for the
    other agent), Gymnasium's ``info["action_mask"]`` and OpenSpiel's legal actions are the
    rules' legal moves as action ids. A 0-d integer array is an action too, and an illegal
    action's ``info["legal"]`` lists the legal ones."""
    game = registry.make_game(name)
    rng = np.random.default_rng(7)
    zoo = boardgames.envs.make(name)
    zoo.reset(seed=7)
    while not zoo.last()[2]:
        state = zoo.unwrapped.state()
        mover, legal = game.to_move(state), coded_legal_moves(game, state)
        assert zoo.agent_selection == f"player_{mover}"
        assert np.flatnonzero(zoo.last()[0]["action_mask"]).tolist() == legal
        assert not zoo.observe(f"player_{1 - mover}")["action_mask"].any()
        zoo.step(np.array(int(rng.choice(legal))))
    gym = GameEnv(name, opponent="random")
    _, info = gym.reset(seed=7)
    done = False
    while not done:
        legal = coded_legal_moves(game, gym.state)
        assert np.flatnonzero(info["action_mask"]).tolist() == legal
        _, _, done, _, info = gym.step(np.array(int(rng.choice(legal))))
    _, info = gym.reset(seed=8)
    legal = coded_legal_moves(game, gym.state)
    _, _, done, _, info = gym.step(game.num_actions)
    assert done and info["illegal"] and info["legal"] == legal
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed")
    from boardgames.envs import spiel  # noqa: F401  (registers the games)

    position = pyspiel.load_game(f"python_boardgames_{name}").new_initial_state()
    while not position.is_terminal():
        legal = coded_legal_moves(game, position.board)
        assert position.legal_actions() == legal
        position.apply_action(int(rng.choice(legal)))


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        ("kalah", {"pits": 0}, "pits must be between 1 and 12, got 0"),
        ("kalah", {"colour": "red"}, "kalah has no option 'colour'; its options: pits"),
        ("nim", {"rows": "3 x"}, "rows must be a whole number, got 'x'"),
        ("queens", {}, "queens is a puzzle, not a two-player game"),
        ("kalah", {"opening": -1}, "opening must be between 0 and 200, got -1"),
        ("nim", {"render_mode": "svg"}, "render_mode must be one of ansi, rgb_array, human"),
    ],
)
def test_bad_options_are_one_line(name: str, options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message) as e:
        boardgames.envs.make(name, **options)
    assert "\n" not in str(e.value)


# --- a game the test registers ----------------------------------------------------------


def toy(name: str, factory: str) -> registry.GamePlugin:
    stones = registry.Option("stones", "int", 7, "stones at the start", 0, 30)
    return registry.GamePlugin(name, name, "game", "toy", factory, options=(stones,))


@pytest.fixture
def toys(monkeypatch: pytest.MonkeyPatch) -> None:
    found = {
        **registry.plugins(),
        "takeaway": toy("takeaway", "tests.envs.toys:CodedTakeAway"),
        "plain": toy("plain", "tests.envs.toys:TakeAway"),
    }
    monkeypatch.setattr(registry, "_loaded", lambda: (found, ()))


@pytest.mark.usefixtures("toys")
def test_a_newly_registered_game_gets_all_three_environments() -> None:
    assert "takeaway" in games_with_actions() and "plain" not in games_with_actions()
    api_test(boardgames.envs.make("takeaway", stones=9), num_cycles=20)
    assert "boardgames/Takeaway-v0" in boardgames.envs.gymnasium_ids()
    assert "boardgames/Plain-v0" not in boardgames.envs.gymnasium_ids()
    boardgames.envs.register_gymnasium()
    try:
        env = gymnasium.make("boardgames/Takeaway-v0", stones=8, opponent="program")
        check_env(env.unwrapped)
        # the learner always takes one stone: the program sees the last stones and wins
        _, info = env.reset(seed=0)
        done = False
        while not done:
            _, reward, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert reward == -1.0
    finally:
        del gymnasium.registry["boardgames/Takeaway-v0"]
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed")
    from open_spiel.python.algorithms import minimax  # type: ignore[import-untyped]

    from boardgames.envs import spiel

    spiel.register()
    for stones, value in ((6, 1.0), (8, -1.0)):
        game = pyspiel.load_game(f"python_boardgames_takeaway(stones={stones})")
        pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
        assert minimax.alpha_beta_search(game)[0] == value
    state = game.new_initial_state()
    assert [state.action_to_string(0, a) for a in state.legal_actions()] == [
        "take 1",
        "take 2",
        "take 3",
    ]


@pytest.mark.usefixtures("toys")
def test_a_game_without_action_ids_or_already_over_is_one_line() -> None:
    with pytest.raises(ValueError, match=r"plain lacks the 'actions' capability \(action ids") as e:
        boardgames.envs.make("plain")
    assert "\n" not in str(e.value)
    with pytest.raises(ValueError, match="this game is over before its first move"):
        GameAEC(Setup(CodedTakeAway(0))).reset()
    with pytest.raises(ValueError, match="the game ends before the learner moves"):
        GameEnv(Setup(CodedTakeAway(1)), opponent="random", learner="second").reset()


@dataclass(frozen=True)
class BoundedTakeAway(CodedTakeAway):
    """The coded toy declaring a bound it breaks: 7 stones take at least 3 moves."""

    name: str = "bounded"
    max_game_length: int = 2


def test_openspiel_stops_a_game_that_breaks_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bound OpenSpiel is given (the game's ``max_game_length``) holds: a move past it
    is an error naming the bound, never a longer game; Kalah's and Nim's bounds hold on
    random games."""
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed")
    from boardgames.envs import spiel

    found = {**registry.plugins(), "bounded": toy("bounded", f"{__name__}:BoundedTakeAway")}
    monkeypatch.setattr(registry, "_loaded", lambda: (found, ()))
    spiel.register()
    game = pyspiel.load_game("python_boardgames_bounded")
    assert game.max_game_length() == 2
    position = game.new_initial_state()
    position.apply_action(0)
    position.apply_action(0)
    with pytest.raises(RuntimeError, match="bounded played past its 2-move bound"):
        position.apply_action(0)
    rng = np.random.default_rng(0)
    for name in ("python_boardgames_kalah(pits=3,seeds=2)", "python_boardgames_nim"):
        game = pyspiel.load_game(name)
        for _ in range(20):
            position = game.new_initial_state()
            while not position.is_terminal():
                position.apply_action(int(rng.choice(position.legal_actions())))
            assert 0 < position.move_number() <= game.max_game_length()
