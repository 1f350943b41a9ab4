"""Nim as a PettingZoo AEC environment with its options from before the game registry
(:func:`boardgames.envs.make` ``("nim", ...)`` takes the registry's options instead).

``env(**options)`` is :class:`raw_env` wrapped as every game's environment is
(:mod:`boardgames.envs.aec`: an illegal move ends the game with reward -1 for the mover).
Options: ``rows`` (1-14 rows of 1-20 chips, default ``(3, 4, 5)``; a sequence or text
such as ``"3 4 5"``), ``misere`` (the last chip loses), ``render_mode`` (``ansi``,
``rgb_array`` or ``human``).

Action ``row * K + take - 1`` takes ``take`` chips from row ``row`` (0-based), ``K`` the
largest starting row; the observation is the chips left in each row. Reward +1 to the
winner and -1 to the loser at the end. Nothing is random in Nim; ``reset(seed=...)``
seeds the action spaces.

The game's code is in :mod:`boardgames.nim.envs` (its plugin's ``envs`` extras); this
module finds the game by its own name (:func:`boardgames.envs.aec.own_env`).
"""

from __future__ import annotations

from boardgames.envs.aec import RENDER_MODES, own_env

__all__ = ["RENDER_MODES", "env", "raw_env"]

env, raw_env = own_env(__name__)
