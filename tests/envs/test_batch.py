"""The batched environment (boardgames/envs/batch.py): step by step the same observations,
masks, rewards and positions as the single environment (PettingZoo's, through the game's
action codec) on random games, for every registered game with kernels and every
rule-changing option set; serial == parallel; seeding; illegal actions; the Python
backend of a game without kernels; the Gymnasium vector API and its registration in any
import order; random playouts and search values."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the [rl] extra is not installed")

import boardgames.envs  # noqa: E402
from boardgames.core import registry  # noqa: E402
from boardgames.envs.batch import BatchEnv, batch, random_playouts, search_values  # noqa: E402
from boardgames.envs.games import Setup, games_with_actions, setup  # noqa: E402
from boardgames.testing import rule_setups  # noqa: E402
from tests.envs.toys import CodedTakeAway  # noqa: E402

GAMES = [n for n in games_with_actions() if registry.plugin(n).kernels]
SETUPS = [(name, o) for name in GAMES for o in rule_setups(registry.two_player()[name])]
IDS = [name + "".join(f"-{k}={v}" for k, v in o.items()) for name, o in SETUPS]
N = 6
STEPS = 60


def random_actions(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    return np.argmax(rng.random(mask.shape) * mask, axis=1)


def agree(name: str, options: dict[str, Any], steps: int, reward: str | None = None) -> None:
    """The batch and ``N`` PettingZoo environments of the game, stepped with the same
    random actions, agree on everything at every step."""
    extra = {} if reward is None else {"reward": reward}
    b = batch(name, N, parallel=False, **options, **extra)
    envs = [boardgames.envs.make(name, **options, **extra) for _ in range(N)]
    game = b.game
    obs, info = b.reset(seed=3)
    for e in envs:
        e.reset(seed=0)
    rng = np.random.default_rng(7)
    ended = 0
    for _ in range(steps):
        for i, e in enumerate(envs):
            agent = e.agent_selection
            seen = e.observe(agent)
            assert np.array_equal(obs[i], seen["observation"]), (i, obs[i], seen)
            assert np.array_equal(info["action_mask"][i], seen["action_mask"])
            assert info["to_move"][i] == int(agent[-1])
            assert np.array_equal(b.states[i], e.unwrapped.board_state)
        actions = random_actions(rng, info["action_mask"])
        obs, rewards, term, trunc, info = b.step(actions)
        assert not trunc.any()
        for i, e in enumerate(envs):
            e.step(int(actions[i]))
            if term[i]:
                ended += 1
                final = info["final_state"][i]
                assert np.array_equal(final, e.unwrapped.board_state)
                assert rewards[i, 0] == e.rewards["player_0"]
                assert rewards[i, 1] == e.rewards["player_1"]
                mover = game.to_move(final)
                assert np.array_equal(info["final_observation"][i], game.observation(final, mover))
                e.reset(seed=0)
            else:
                assert not rewards[i].any()
    assert ended > 0 or steps < 40


@pytest.mark.parametrize("name, options", SETUPS, ids=IDS)
def test_the_batch_agrees_with_the_single_environment(name: str, options: dict[str, Any]) -> None:
    agree(name, options, STEPS)


def test_the_batch_agrees_with_more_than_64_action_ids() -> None:
    """Up to 64 action ids a game's legal mask is gathered in one word; Nim with eight
    rows of 20 has 160, the other path."""
    assert batch("nim", 1, rows=(20,) * 8, parallel=False).num_actions > 64
    agree("nim", {"rows": (20,) * 8}, STEPS)


@pytest.mark.slow
@pytest.mark.parametrize("name, options", SETUPS, ids=IDS)
def test_the_batch_agrees_on_long_runs(name: str, options: dict[str, Any]) -> None:
    agree(name, options, 1500)
    agree(name, options, 300, reward="result")


def test_every_game_with_kernels_is_batched() -> None:
    assert {"connect4", "kalah", "nim"} <= set(GAMES)
    for name in GAMES:
        assert batch(name, 2, parallel=False).backend == "numba"


def run(b: BatchEnv, seed: int, steps: int) -> list[Any]:
    out: list[Any] = []
    obs, info = b.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        obs, rewards, term, _trunc, info = b.step(random_actions(rng, info["action_mask"]))
        out += [obs, rewards, term, info["action_mask"], b.states]
    return out


def same(a: list[Any], b: list[Any]) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def test_a_seed_repeats_a_run_and_openings_differ_per_game() -> None:
    b = batch("kalah", 8, pits=4, seeds=3, opening=3, parallel=False)
    assert same(run(b, 5, 40), run(b, 5, 40))
    first = b.reset(seed=5)[0]
    assert len({tuple(r) for r in first}) > 1  # each game its own opening
    assert not same(run(b, 5, 40), run(b, 6, 40))


@pytest.mark.parametrize("name, options", SETUPS, ids=IDS)
def test_openings_that_end_games_write_only_the_positions_cells(
    name: str, options: dict[str, Any]
) -> None:
    """An opening move that would end a game is taken back (issue 51's review: the kernel
    copied the padded row, past the end of the finished positions, and a reset with a
    long opening corrupted memory). The kernel's finished positions stay in their rows,
    and every game an opening leaves is unfinished."""
    b = batch(name, 16, parallel=False, opening=40, **options)
    for seed in range(4):
        b.reset(seed=seed)
        for row in b.states:
            assert b.game.outcome(row) is None
    n, cells = b.num_envs, b.cells
    buf = np.full(n * cells + 64, 12345, dtype=np.int64)
    final = buf[: n * cells].reshape(n, cells)
    mask = b._observe(b._self)[1]
    actions = np.argmax(mask, axis=1).astype(np.int64)
    active = mask.any(axis=1)
    over = np.zeros(n, dtype=bool)
    results = np.zeros(n, dtype=np.int64)
    for _ in range(200):  # play every game to its end, the finished ones left as they are
        b.K.advance(b.S2, b.M, actions, active, b.params, b._tables(), over, final, results)
        active &= ~over
        if not active.any():
            break
        mask = b._observe(b._self)[1]
        actions = np.argmax(mask, axis=1).astype(np.int64)
    assert (buf[n * cells :] == 12345).all()


@pytest.mark.parametrize("seed", [-1, 1.5, True, "3"])
def test_a_bad_seed_is_named(seed: object) -> None:
    with pytest.raises(ValueError, match=r"seed must be a whole number >= 0 or None, got "):
        batch("nim", 2).reset(seed=seed)  # type: ignore[arg-type]
    vec = gymnasium.make_vec(
        "boardgames/Nim-v0", num_envs=2, vectorization_mode="vector_entry_point",
        opponent="random",
    )  # fmt: skip
    with pytest.raises(ValueError, match=r"seed must be a whole number >= 0 or None, got "):
        vec.reset(seed=seed)


def test_an_unsigned_action_too_big_for_int64_is_refused_as_it_is() -> None:
    b = batch("nim", 4)
    b.reset(seed=0)
    with pytest.raises(ValueError, match=r"game 0: action 9223372036854775809 is not legal"):
        b.step(np.array([2**63 + 1, 0, 0, 0], dtype=np.uint64))


def test_serial_and_parallel_give_the_same_games() -> None:
    # Connect Four: its parallel kernels are compiled for the tests below too (a game's
    # kernels are one compile, any board); the other games with -m slow
    options = {"opening": 2, "width": 5, "height": 4}
    serial = run(batch("connect4", 300, parallel=False, **options), 11, 30)
    parallel = run(batch("connect4", 300, parallel=True, **options), 11, 30)
    assert same(serial, parallel)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["connect4", "kalah", "nim"])
def test_serial_and_parallel_give_the_same_games_everywhere(name: str) -> None:
    serial = run(batch(name, 500, parallel=False, opening=2), 11, 100)
    parallel = run(batch(name, 500, parallel=True, opening=2), 11, 100)
    assert same(serial, parallel)
    m1, l1 = random_playouts(setup(name, {}).game, np.stack([serial[-1][0]] * 64), seed=1)
    m2, l2 = random_playouts(
        setup(name, {}).game, np.stack([serial[-1][0]] * 64), seed=1, parallel=True
    )
    assert np.array_equal(m1, m2) and np.array_equal(l1, l2)


def test_random_actions_are_legal_uniform_and_repeat_with_a_seed() -> None:
    def play(parallel: bool, seed: int) -> list[Any]:
        b = batch("connect4", 64, width=5, height=4, parallel=parallel)
        _, info = b.reset(seed=seed)
        out = []
        for _ in range(60):
            actions = b.random_actions()
            assert (info["action_mask"][np.arange(64), actions] == 1).all()
            out.append(actions)
            _, _, _, _, info = b.step(actions)
        return out

    first = play(False, 4)
    assert same(first, play(False, 4)) and same(first, play(True, 4))
    assert not same(first, play(False, 5))
    counts = np.bincount(np.concatenate(first[:1]), minlength=5)
    assert (counts > 0).sum() >= 4  # from the empty board, every column is drawn
    b = batch("kalah", 3, pits=3, seeds=2, parallel=False)
    b.reset(seed=0)
    b.set_states(b.states)  # positions set from outside: the masks are read again
    assert (b.random_actions() >= 0).all()


@pytest.mark.parametrize("parallel", [False, True])
def test_step_random_plays_what_random_actions_draws(parallel: bool) -> None:
    """``step_random()`` is ``step(random_actions())`` in one call: the same draws, the
    same games, step by step (finished games restarted and kept alike)."""
    one = batch("connect4", 32, width=5, height=4, parallel=parallel)
    two = batch("connect4", 32, width=5, height=4, parallel=parallel)
    one.reset(seed=9)
    two.reset(seed=9)
    ended = 0
    for _ in range(40):
        actions = one.random_actions()
        a = one.step(actions)
        b = two.step_random()
        assert np.array_equal(b[4]["actions"], actions)
        for x, y in zip(a[:4], b[:4], strict=True):
            assert np.array_equal(x, y)
        assert a[4].keys() == b[4].keys() - {"actions"}
        for key, value in a[4].items():
            assert np.array_equal(value, b[4][key]), key
        ended += int(a[2].sum())
        assert np.array_equal(one.states, two.states)
    assert ended > 0
    with pytest.warns(UserWarning, match="the Python rules"):
        py = BatchEnv(Setup(CodedTakeAway(stones=5)), 3)
    py.reset(seed=0)
    _, _, _, _, info = py.step_random()
    assert info["action_mask"].shape == (3, 3) and (info["actions"] >= 0).all()


def test_the_observations_are_the_narrowest_integers_and_positions_int64() -> None:
    b = batch("connect4", 2, parallel=False)
    obs, _ = b.reset(seed=0)
    assert obs.dtype == np.int8 and b.states.dtype == np.int64
    k = batch("kalah", 2, parallel=False)
    assert k.reset(seed=0)[0].dtype == np.int8  # 48 stones
    assert batch("kalah", 2, pits=12, seeds=20, parallel=False).obs_dtype == np.int16


@pytest.mark.parametrize("parallel", [False, True])
def test_an_illegal_action_names_the_game_and_moves_none(parallel: bool) -> None:
    b = batch("connect4", 3, width=4, height=4, parallel=parallel)
    b.reset(seed=0)
    for _ in range(4):
        b.step(np.array([0, 1, 2]))
    before = b.states
    with pytest.raises(
        ValueError, match=r"^game 0: action 0 is not legal; its legal actions: 1, 2, 3$"
    ):
        b.step(np.array([0, 1, 2]))
    assert np.array_equal(before, b.states)
    with pytest.raises(ValueError, match="game 2: action 9"):
        b.step(np.array([1, 0, 9]))
    with pytest.raises(ValueError, match=r"^game 0: action 0 "):  # the first of three
        b.step(np.array([0, 1, 9]))
    assert np.array_equal(before, b.states)
    with pytest.raises(ValueError, match=r"actions must be 3 integer ids"):
        b.step(np.array([1.0, 1.0, 1.0]))


def test_truncation_restarts_a_game_and_keeps_its_last_position() -> None:
    b = batch("kalah", 2, pits=4, seeds=3, max_moves=5, parallel=False)
    _, info = b.reset(seed=0)
    for _k in range(5):
        _obs, rewards, term, trunc, info = b.step(np.argmax(info["action_mask"], axis=1))
    assert trunc.all() and not term.any() and not rewards.any()
    assert np.array_equal(b.states[0], b.game.initial_state())
    assert info["final_state"][0].sum() > 0


def test_a_game_without_kernels_gets_the_same_api_from_its_python_rules() -> None:
    with pytest.warns(UserWarning, match="the Python rules"):
        b = BatchEnv(Setup(CodedTakeAway(stones=5)), 3)
    assert b.backend == "python"
    obs, info = b.reset(seed=0)
    assert obs.tolist() == [[5]] * 3 and info["action_mask"].tolist() == [[1, 1, 1]] * 3
    obs, rewards, term, _, info = b.step(np.array([2, 2, 0]))
    assert obs.tolist() == [[2], [2], [4]]
    obs, rewards, term, _trunc, info = b.step(np.array([1, 0, 0]))
    assert term.tolist() == [True, False, False]
    assert rewards[0].tolist() == [-1.0, 1.0]  # player_1 took the last two stones
    assert obs[0].tolist() == [5] and info["final_observation"][0].tolist() == [0]
    with pytest.raises(ValueError, match="game 1: action 2 is not legal"):
        b.step(np.array([0, 2, 0]))
    margins, _lengths = random_playouts(CodedTakeAway(stones=5), b.states, seed=0)
    assert set(np.abs(margins)) == {1}


def test_random_playouts_and_search_values() -> None:
    game = setup("nim", {"rows": (1, 2, 3)}).game
    start = np.stack([game.initial_state()] * 200)
    margins, lengths = random_playouts(game, start, seed=0)
    assert set(margins) == {-1, 1} and lengths.min() >= 2 and lengths.max() <= 6
    again, _ = random_playouts(game, start, seed=0)
    assert np.array_equal(margins, again)
    values, best = search_values(game, start[:2], None)
    assert (values < 0).all() and (best >= 0).all()  # 1^2^3 = 0: a loss
    four = setup("connect4", {"width": 4, "height": 4}).game
    values, best = search_values(four, np.stack([four.initial_state()]), 4)
    assert best[0] in range(4)


# --- Gymnasium's vector API -------------------------------------------------------------


def test_make_vec_gives_the_batched_vector_environment() -> None:
    env = gymnasium.make_vec(
        "boardgames/Connect4-v0", num_envs=5, vectorization_mode="vector_entry_point",
        opponent="random", width=5, height=4,
    )  # fmt: skip
    from boardgames.envs.vector import BatchVectorEnv

    assert isinstance(env.unwrapped, BatchVectorEnv)
    obs, info = env.reset(seed=0)
    assert obs.shape == (5, 2, 4, 5) and env.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    total = 0
    for _ in range(100):
        actions = random_actions(rng, info["action_mask"])
        assert env.action_space.contains(actions)
        obs, rewards, term, trunc, info = env.step(actions)
        assert env.observation_space.contains(obs)
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
        assert np.array_equal(info["_final_obs"], term | trunc)
        assert (rewards[~term] == 0).all()
        total += int(term.sum())
    assert total > 10
    env.close()


def test_the_vector_environment_repeats_with_a_seed_and_plays_a_program() -> None:
    def play(seed: int) -> list[Any]:
        env = gymnasium.make_vec(
            "boardgames/Nim-v0", num_envs=4, vectorization_mode="vector_entry_point",
            opponent="bouton", rows=(1, 2, 3), learner="random",
        )  # fmt: skip
        obs, info = env.reset(seed=seed)
        out = [obs]
        rng = np.random.default_rng(seed)
        for _ in range(20):
            obs, rewards, _term, _trunc, info = env.step(random_actions(rng, info["action_mask"]))
            out += [obs, rewards]
            # Bouton wins from 1 2 3 (nim-sum 0) whoever starts against random play,
            # unless the learner is lucky; a win of the learner is possible only as first.
        return out

    assert same(play(1), play(1))


def test_an_illegal_action_in_the_vector_environment_ends_that_game() -> None:
    env = gymnasium.make_vec(
        "boardgames/Kalah-v0", num_envs=2, vectorization_mode="vector_entry_point",
        pits=4, seeds=3, opponent="random",
    )  # fmt: skip
    obs, info = env.reset(seed=0)
    obs, rewards, term, _trunc, info = env.step(np.array([0, 7]))
    assert term.tolist() == [False, True] and info["illegal"].tolist() == [False, True]
    assert rewards[1] == -24.0  # the lowest margin: all the stones
    assert np.array_equal(
        obs[1], env.unwrapped.game.observation(env.unwrapped.game.initial_state(), 0)
    )


@pytest.mark.parametrize("learner", ["first", "second"])
def test_max_episode_steps_counts_the_learners_steps_as_the_single_environment(
    learner: str,
) -> None:
    """Truncated at the same step as the single environment's TimeLimit (the learner's
    steps, not both players' moves), its final observation after the opponent's reply,
    and started again."""
    options = {"width": 5, "height": 4, "opponent": "random", "learner": learner}
    vec = gymnasium.make_vec(
        "boardgames/Connect4-v0", num_envs=3, vectorization_mode="vector_entry_point",
        max_episode_steps=3, **options,
    )  # fmt: skip
    single = gymnasium.make("boardgames/Connect4-v0", max_episode_steps=3, **options)
    obs, info = vec.reset(seed=0)
    single.reset(seed=0)
    for step in range(1, 10):
        # column 0, then 1, ...: nobody can make four in three moves of each
        action = (step - 1) % 5
        obs, _, term, trunc, info = vec.step(np.full(3, action))
        _, _, single_term, single_trunc, _ = single.step(action)
        assert not term.any() and not single_term
        assert trunc.tolist() == [step % 3 == 0] * 3 and single_trunc == (step % 3 == 0)
        if step % 3 == 0:
            single.reset(seed=step)
            assert (info["_final_obs"]).all()
            discs = np.count_nonzero(info["final_obs"].reshape(3, -1), axis=1)
            assert discs.tolist() == [6 if learner == "first" else 7] * 3
            assert (np.count_nonzero(obs.reshape(3, -1), axis=1) == (learner == "second")).all()


def test_a_board_that_ends_before_the_learner_moves_is_refused_as_by_the_single_one() -> None:
    """Nim with one chip: the opponent, moving first, takes it."""
    words = "nim: on this board the game ends before the learner moves"
    single = gymnasium.make("boardgames/Nim-v0", rows=(1,), learner="second", opponent="random")
    with pytest.raises(ValueError, match=words):
        single.reset(seed=0)
    vec = gymnasium.make_vec(
        "boardgames/Nim-v0", num_envs=2, vectorization_mode="vector_entry_point",
        rows=(1,), learner="second", opponent="random",
    )  # fmt: skip
    with pytest.raises(ValueError, match=words):
        vec.reset(seed=0)


@pytest.mark.parametrize(
    "first", ["import boardgames.envs, gymnasium", "import gymnasium, boardgames.envs"]
)
def test_the_ids_are_registered_in_every_import_order(first: str) -> None:
    code = (
        f"{first}\n"
        "import sys\n"
        "env = gymnasium.make('boardgames/Nim-v0')\n"
        "vec = gymnasium.make_vec('boardgames/Nim-v0', num_envs=2,"
        " vectorization_mode='vector_entry_point', opponent='random')\n"
        "print(env.reset(seed=0)[0].tolist(), vec.reset(seed=0)[0].shape)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0] == "[3, 4, 5] (2, 3)"


def test_importing_the_package_loads_no_learning_library() -> None:
    code = "import boardgames.envs, sys; print('gymnasium' in sys.modules, 'numba' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "False False", done.stderr


def test_cache_warm_compiles_the_batch_so_a_first_batch_compiles_nothing(tmp_path: Any) -> None:
    """The batched environment's warm step (every two-player game with kernels has it,
    after its own), run in an empty kernel cache; then a fresh process makes a batch of
    the game and steps it with given and with drawn actions: numba compiles nothing
    there (it compiled for about 7 s in it before the step existed)."""
    import os

    from boardgames.core.hooks import BATCH_WARM_STEP

    assert [s.target for s in registry.plugin("nim").warm_steps()][-1] == BATCH_WARM_STEP[1]
    assert all(
        (BATCH_WARM_STEP[1] in [s.target for s in p.warm_steps()])
        == (p.kind == "game" and p.kernels is not None)
        for p in registry.plugins().values()
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    warm = "from boardgames.envs.batch import warm_kernels; warm_kernels('nim')"
    subprocess.run([sys.executable, "-c", warm], check=True, env=env, timeout=600)
    use = (
        "import numpy as np\n"
        "from boardgames.cli.cache import _CompileCounter\n"
        "from boardgames.envs.batch import batch\n"
        "with _CompileCounter() as counter:\n"
        "    b = batch('nim', 8)\n"
        "    b.reset(seed=1)\n"
        "    for _ in range(20):\n"
        "        b.step(b.random_actions())\n"
        "        b.step_random()\n"
        "print(counter.count)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", use], capture_output=True, text=True, env=env, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0", done.stdout + done.stderr
