"""The worked examples of docs/sections/learning.md: a tabular Q-learner trained on Nim
through the Gymnasium interface ends up playing Bouton's moves on every winning position,
and a random agent's loss per move against perfect play on Kalah 4 x 3, measured with the
exact labels two ways (the loss wrapper and a dataset) that must agree."""

from __future__ import annotations

import itertools
from collections import defaultdict

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the [rl] extra is not installed")

import boardgames.envs  # noqa: E402, F401
from boardgames.envs.labels import PerfectPlayLoss  # noqa: E402
from boardgames.kalah.analysis.dataset import DatasetTask, assemble, label_chunk  # noqa: E402
from boardgames.kalah.game import Kalah  # noqa: E402
from boardgames.nim.rules import is_safe, winning_moves  # noqa: E402


def train_q(
    rows: tuple[int, ...], episodes: int, seed: int = 0
) -> dict[tuple[int, ...], np.ndarray]:
    """Q-learning (alpha 0.5, no discount, epsilon-greedy 0.3) against Bouton's strategy,
    every episode from a random position, the learner to move."""
    env = gymnasium.make("boardgames/Nim-v0", rows=rows, opponent="bouton", start="random")
    rng = np.random.default_rng(seed)
    q: dict[tuple[int, ...], np.ndarray] = defaultdict(lambda: np.zeros(env.action_space.n))
    for episode in range(episodes):
        obs, info = env.reset(seed=seed * 1_000_000 + episode)
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            s = tuple(obs.tolist())
            explore = rng.random() < 0.3
            a = int(rng.choice(legal)) if explore else int(legal[np.argmax(q[s][legal])])
            obs, reward, done, _, info = env.step(a)
            target = reward
            if not done:
                target += q[tuple(obs.tolist())][np.flatnonzero(info["action_mask"])].max()
            q[s][a] += 0.5 * (target - q[s][a])
    return q


def greedy_mistakes(
    q: dict[tuple[int, ...], np.ndarray], rows: tuple[int, ...]
) -> list[tuple[int, ...]]:
    """Winning positions (Bouton: nim-sum not 0) where the greedy move is not a winning one."""
    width = max(rows)
    wrong = []
    for position in itertools.product(*(range(r + 1) for r in rows)):
        if is_safe(position):
            continue  # includes the empty board
        legal = [r * width + t - 1 for r, n in enumerate(position) for t in range(1, n + 1)]
        best = legal[int(np.argmax(q[position][legal]))]
        good = {m.row * width + m.take - 1 for m in winning_moves(position)}
        if best not in good:
            wrong.append(position)
    return wrong


def test_q_learning_finds_bouton_moves_on_a_small_game() -> None:
    q = train_q((1, 2, 3), episodes=1500)
    assert greedy_mistakes(q, (1, 2, 3)) == []


@pytest.mark.slow
def test_q_learning_finds_bouton_moves_on_3_4_5_6() -> None:
    q = train_q((3, 4, 5, 6), episodes=150_000)
    assert greedy_mistakes(q, (3, 4, 5, 6)) == []


def test_the_mistake_count_can_fail() -> None:
    """An untrained table (all zeros: always the first legal move) gets many wrong."""
    assert len(greedy_mistakes(defaultdict(lambda: np.zeros(9)), (1, 2, 3))) > 5


def random_agent_loss(episodes: int, seed: int = 0) -> tuple[float, int]:
    """A random learner against a random opponent on Kalah 4 x 3: its mean loss per move
    (stones given away against perfect play) and the moves counted."""
    env = PerfectPlayLoss(gymnasium.make("boardgames/Kalah-v0", pits=4, seeds=3, opponent="random"))
    rng = np.random.default_rng(seed)
    losses: list[int] = []
    for episode in range(episodes):
        _, info = env.reset(seed=seed * 1_000_000 + episode)
        done = False
        while not done:
            _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            losses.append(info["loss"])
    return float(np.mean(losses)), len(losses)


def test_random_agent_loss_per_move_on_kalah_4x3() -> None:
    wrapper_loss, moves = random_agent_loss(episodes=60)
    # the same quantity from a dataset of random play: a uniformly random legal move
    # loses, on average over the legal moves, value minus move value
    data = assemble(Kalah(4, 3), [label_chunk(DatasetTask(0, 1000, 4, 3, "classic", False,
                                                          "random", 0, 3))], {})  # fmt: skip
    legal = data["legal"].astype(bool)
    per_position = np.where(legal, data["values"][:, None] - data["move_values"], 0).sum(axis=1)
    dataset_loss = float((per_position / legal.sum(axis=1)).mean())
    assert moves > 500
    assert wrapper_loss > 1.0  # random play is far from perfect
    assert abs(wrapper_loss - dataset_loss) < 0.6, (wrapper_loss, dataset_loss)


def test_wrapper_losses_are_the_solvers_differences() -> None:
    from boardgames.kalah.exact.solver import Solver

    game = Kalah(4, 3)
    solver = Solver(4, "classic", hash_mb=8)
    env = PerfectPlayLoss(gymnasium.make("boardgames/Kalah-v0", pits=4, seeds=3, opponent="random"))
    _, info = env.reset(seed=2)
    rng = np.random.default_rng(2)
    done = False
    while not done:
        before = env.unwrapped.state.copy()
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, _, done, _, info = env.step(action)
        child, _ = game.play(before, action)
        v = solver.value(child)
        after = v if game.to_move(child) == 0 else -v
        assert info["value"] == solver.value(before)
        assert info["loss"] == info["value"] - after
        assert info["best_actions"][action] == (info["loss"] == 0)


def test_positions_beyond_the_node_limit_get_no_label() -> None:
    """4 x 5 starts with 40 stones in the pits, beyond the small endgame table (19 on 4
    pits): with a limit of 1 position the solve stops, and the move is left unlabelled."""
    env = PerfectPlayLoss(
        gymnasium.make("boardgames/Kalah-v0", pits=4, seeds=5, opponent="random"), node_limit=1
    )
    env.reset(seed=0)
    _, _, _, _, info = env.step(0)
    assert (info["loss"], info["value"], info["best_actions"]) == (None, None, None)
    with pytest.raises(ValueError, match="node_limit must be from 0 to"):
        PerfectPlayLoss(gymnasium.make("boardgames/Kalah-v0", opponent="random"), node_limit=-1)
    with pytest.raises(ValueError, match="wraps a Kalah environment"):
        PerfectPlayLoss(gymnasium.make("boardgames/Nim-v0"))


def test_the_documented_random_agent_figure_is_what_the_example_prints(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """learning.md's Kalah 4 x 3 example, run as written, prints the figure the page gives
    (it had gone stale: 3.446... 2062 against 3.496... 2069)."""
    import re
    from pathlib import Path

    page = (Path(__file__).parents[2] / "docs" / "sections" / "learning.md").read_text()
    part = page.split("### A random agent's loss per move on Kalah 4 x 3", 1)[1]
    code = part.split("```python\n", 1)[1].split("```", 1)[0]
    said = re.search(r"prints `([0-9.]+)\.\.\. (\d+)`", part)
    assert said is not None
    exec(compile(code, "learning.md", "exec"), {})
    mean, count = capsys.readouterr().out.split()
    assert mean.startswith(said[1]) and count == said[2], (mean, count, said[0])
