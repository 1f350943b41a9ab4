"""Kalah as a PettingZoo AEC environment with its options from before the game registry
(:func:`boardgames.envs.make` ``("kalah", ...)`` takes the registry's options instead).

``env(**options)`` is :class:`raw_env` wrapped as every game's environment is
(:mod:`boardgames.envs.aec`: an illegal move ends the game with the lowest reward, minus
all the stones, for the mover; a bad action or a step after the end is a ValueError).
Options:

- ``pits`` (1-12, default 6), ``seeds`` (1-20 stones a pit, default 4), ``rules``
  (``classic`` or ``etudes``), ``capture`` (classic: ``opposite`` as in RULES.md 1.3, or
  ``empty``: a last stone in an own empty pit is always captured);
- ``reward``: ``margin`` (the final margin in stones, default) or ``result`` (+1/0/-1);
- ``opening``: random sowings played at reset, drawn from the reset's seed (default 0);
- ``render_mode``: ``ansi``, ``rgb_array`` or ``human``.

One action is one sowing: action ``i`` sows the agent's ``i``-th pit from its own left;
after an extra turn the same agent acts again. The observation is the holes from the
agent's side (own pits, own store, the opponent's pits, its store).

The game's code is in :mod:`boardgames.kalah.envs` (its plugin's ``envs`` extras); this
module finds the game by its own name (:func:`boardgames.envs.aec.own_env`).
"""

from __future__ import annotations

from boardgames.envs.aec import RENDER_MODES, own_env

__all__ = ["RENDER_MODES", "env", "raw_env"]

env, raw_env = own_env(__name__)
