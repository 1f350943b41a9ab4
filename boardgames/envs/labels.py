"""A Gymnasium wrapper that grades each Kalah move against perfect play.

:class:`PerfectPlayLoss` wraps a :class:`~boardgames.envs.single.KalahEnv` and adds to
``info`` of every step:

- ``loss``: the stones the learner's sowing gave away against perfect play (the
  position's exact value minus the sowing's exact value, 0 for a best move), or None
  where the position was not labelled (a solve would pass ``node_limit`` positions);
- ``value``: the exact value of the position the learner moved from (its final margin
  under perfect play), ``best_actions``: the int8 mask of its best actions.

Values come from :class:`~boardgames.kalah.analysis.dataset.Labeller`: the endgame table
play loads (classic rules) and, beyond it, the exact solver. Nothing is estimated.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardgames.envs import register_gymnasium, require
from boardgames.envs.boards import check_int
from boardgames.kalah.analysis.dataset import Label, labeller

require("gymnasium")
import gymnasium  # noqa: E402

NODE_LIMIT = 2_000_000
"""Default: positions one solve may visit before a move is left without a label."""


class PerfectPlayLoss(gymnasium.Wrapper):  # type: ignore[misc]
    """Reports each learner move's loss against perfect play in ``info`` (module doc)."""

    def __init__(self, env: Any, node_limit: int = NODE_LIMIT) -> None:
        super().__init__(env)
        base = env.unwrapped
        if not hasattr(base, "game") or getattr(base.game, "name", "") != "kalah":
            raise ValueError("PerfectPlayLoss wraps a Kalah environment (boardgames/Kalah-v0)")
        self.node_limit = check_int("node_limit", node_limit, 0, 10**12)
        self.labeller = labeller(base.game)
        self.losses: list[int] = []
        """The losses of this episode's labelled moves, in order."""

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        self.losses = []
        return self.env.reset(**kwargs)

    def step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        base: Any = self.env.unwrapped
        before = base.state.copy()
        label: Label | None = None
        if base.game.outcome(before) is None:
            label = self.labeller.try_label(before, self.node_limit)
        obs, reward, terminated, truncated, info = self.env.step(action)
        info = dict(info)
        legal = label is not None and 0 <= int(action) < len(label.legal) and label.legal[action]
        if label is not None and legal:
            info["loss"] = label.loss(int(action))
            self.losses.append(info["loss"])
        else:
            info["loss"] = None
        info["value"] = None if label is None else label.value
        info["best_actions"] = None if label is None else np.array(label.best, dtype=np.int8)
        return obs, float(reward), terminated, truncated, info


register_gymnasium()  # Gymnasium is loaded now: its ids cost nothing more
