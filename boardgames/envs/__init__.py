"""Environments for learning agents ([rl] extra): PettingZoo, Gymnasium and OpenSpiel, for
every registered two-player game that offers action ids (the ``actions`` capability,
:class:`boardgames.core.capabilities.ActionCodec`); no game is named here.

Importing this package is cheap: it imports neither PettingZoo nor Gymnasium nor
OpenSpiel. The modules do, when used:

- :func:`make` (:mod:`boardgames.envs.aec`): any game's PettingZoo AEC environment,
  ``make("nim", rows=(1, 2, 3))``;
- :mod:`boardgames.envs.single`: Gymnasium environments, the learner against any player
  of the game (:func:`boardgames.core.players.find_player`), ids ``boardgames/<Name>-v0``
  (``Kalah-v0``, ``Nim-v0``, ...);
- :mod:`boardgames.envs.spiel`: the OpenSpiel games ``python_boardgames_<name>``,
  registered with ``pyspiel.register_game`` on import;
- :mod:`boardgames.envs.kalah_v0`, :mod:`boardgames.envs.nim_v0`: Kalah's and Nim's AEC
  environments under their old names (``env()``, ``raw_env``);
- :mod:`boardgames.envs.labels`: a Gymnasium wrapper that reports each move's loss
  against perfect play in ``info``, for a game with exact labels (Kalah).

Every one takes the same options: the game's plugin options, ``reward``, ``opening`` and
the adapter's own (:func:`boardgames.envs.games.setup`). What a game adds of its own (its
picture, random positions, exact labels, its reward and opponent by default) is an
:class:`boardgames.envs.games.EnvExtras` that its plugin names in ``envs``
(``boardgames.kalah.envs:ENVS``). ``require`` and the Gymnasium registration are in
:mod:`boardgames.envs.libs`.

Gymnasium 1.x has no plugin discovery (its entry-point group went in 1.0), so the ids are
registered by importing Python code: ``import gymnasium`` and then ``import
boardgames.envs`` (this package registers them when Gymnasium is already loaded), or
importing any environment module (``boardgames.envs.single``, ``kalah_v0``, ...) in any
order, or the id with its module: ``gymnasium.make("boardgames.envs:boardgames/Kalah-v0")``.
"""

from __future__ import annotations

import sys
from typing import Any

from boardgames.envs.libs import INSTALL_HINT, gymnasium_ids, register_gymnasium, require


def make(name: str, **options: Any) -> Any:
    """Registered game ``name``'s PettingZoo AEC environment, wrapped as PettingZoo wraps
    its classic games (:func:`boardgames.envs.aec.make`; imports PettingZoo)."""
    from boardgames.envs.aec import make as make_aec

    return make_aec(name, **options)


def __getattr__(name: str) -> Any:
    if name == "GYMNASIUM_IDS":  # kept for compatibility: now derived from the registry
        return gymnasium_ids()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if sys.modules.get("gymnasium") is not None:  # Gymnasium loaded: registering costs no more
    register_gymnasium()

__all__ = ["INSTALL_HINT", "gymnasium_ids", "make", "register_gymnasium", "require"]
