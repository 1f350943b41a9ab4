"""Nim as a PettingZoo AEC environment under its old name: ``env(**options)`` and
``raw_env`` are :func:`boardgames.envs.make` ``("nim", ...)`` and its unwrapped class,
with the same options (the plugin's ``rows``, a sequence or text such as ``"3 4 5"``, and
``misere``; ``reward``; ``opening``; ``render_mode``).

Action ``row * K + take - 1`` takes ``take`` chips from row ``row`` (0-based), ``K`` the
largest starting row; the observation is the chips left in each row. The module holds no
game logic: it finds the game by its own name (:func:`boardgames.envs.aec.own_env`).
"""

from __future__ import annotations

from boardgames.envs.aec import RENDER_MODES, own_env

__all__ = ["RENDER_MODES", "env", "raw_env"]

env, raw_env = own_env(__name__)
