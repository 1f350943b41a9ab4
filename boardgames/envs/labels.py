"""A Gymnasium wrapper that grades each learner move against perfect play, for a game whose
extras offer exact labels (``labeller`` of its :class:`~boardgames.envs.games.EnvExtras`; Kalah's:
the endgame table play loads and, beyond it, the exact solver; nothing is estimated).

:class:`PerfectPlayLoss` wraps the game's Gymnasium environment (``boardgames/Kalah-v0``)
and adds to ``info`` of every step:

- ``loss``: the margin the learner's move gave away against perfect play (the position's
  exact value minus the move's, 0 for a best move; Kalah: in stones), or None where the
  position was not labelled (a solve would pass ``node_limit`` positions);
- ``value``: the exact value of the position the learner moved from (its final margin
  under perfect play), ``best_actions``: the int8 mask of its best actions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from boardgames.core.protocol import State
from boardgames.envs.games import check_int, extras, games_with, title
from boardgames.envs.libs import register_gymnasium, require

require("gymnasium")
import gymnasium  # noqa: E402

NODE_LIMIT = 2_000_000
"""Default: positions one solve may visit before a move is left without a label."""


class Label(Protocol):
    """A position's exact value and its moves', indexed by action id."""

    value: int
    legal: Sequence[int]
    """1 where the action is legal."""

    @property
    def best(self) -> Sequence[int]:
        """1 for the best actions."""
        ...

    def loss(self, action: int) -> int:
        """What the legal ``action`` gives away against perfect play."""
        ...


class Labeller(Protocol):
    """What a game's ``labeller(game)`` extra returns."""

    def try_label(self, state: State, node_limit: int) -> Label | None:
        """The label of ``state`` (the mover's view), or None when a solve would pass
        ``node_limit`` positions."""
        ...


class PerfectPlayLoss(gymnasium.Wrapper):  # type: ignore[misc]
    """Reports each learner move's loss against perfect play in ``info`` (module doc)."""

    def __init__(self, env: Any, node_limit: int = NODE_LIMIT) -> None:
        super().__init__(env)
        base = env.unwrapped
        name = str(getattr(getattr(base, "game", None), "name", ""))
        make = extras(name).labeller if name else None
        if make is None:
            labelled = games_with("labeller")
            ids = ", ".join(f"boardgames/{title(n)}-v0" for n in labelled)
            games = " or ".join(title(n) for n in labelled) or "no"
            raise ValueError(
                f"PerfectPlayLoss wraps a {games} environment ({ids or 'none installed'}); "
                f"{name or 'this environment'} has no exact labels"
            )
        self.node_limit = check_int("node_limit", node_limit, 0, 10**12)
        self.labeller: Labeller = make(base.game)
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
