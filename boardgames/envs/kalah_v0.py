"""Kalah as a PettingZoo AEC environment under its old name: ``env(**options)`` and
``raw_env`` are :func:`boardgames.envs.make` ``("kalah", ...)`` and its unwrapped class,
with the same options (the plugin's ``pits``, ``seeds`` (default 6, as RULES.md),
``rules``, ``capture``; ``reward``, default ``margin``; ``opening``; ``render_mode``).

One action is one sowing: action ``i`` sows the agent's ``i``-th pit from its own left;
after an extra turn the same agent acts again. The observation is the holes from the
agent's side (own pits, own store, the opponent's pits, its store). The module holds no
game logic: it finds the game by its own name (:func:`boardgames.envs.aec.own_env`).
"""

from __future__ import annotations

from boardgames.envs.aec import RENDER_MODES, own_env

__all__ = ["RENDER_MODES", "env", "raw_env"]

env, raw_env = own_env(__name__)
