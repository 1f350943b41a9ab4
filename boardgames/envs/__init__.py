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

- :func:`batch` (:mod:`boardgames.envs.batch`): many games stepped by one call of the
  game's numba kernels, numpy arrays out; :mod:`boardgames.envs.vector`: Gymnasium's
  vector API on it (``gymnasium.make_vec(id, num_envs=n,
  vectorization_mode="vector_entry_point")``).

Gymnasium 1.x has no plugin discovery (its entry-point group went in 1.0), so the ids are
registered by importing this package, in either order: when Gymnasium is already loaded
they are registered at once, else as soon as ``gymnasium`` is imported (a finder on
``sys.meta_path`` that waits for it, :func:`~boardgames.envs.libs.register_when_imported`;
it imports nothing). The id with its module, ``gymnasium.make("boardgames.envs:
boardgames/Kalah-v0")``, works without importing anything first.
"""

from __future__ import annotations

from typing import Any

from boardgames.envs.libs import (
    INSTALL_HINT,
    gymnasium_ids,
    register_gymnasium,
    register_when_imported,
    require,
)


def make(name: str, **options: Any) -> Any:
    """Registered game ``name``'s PettingZoo AEC environment, wrapped as PettingZoo wraps
    its classic games (:func:`boardgames.envs.aec.make`; imports PettingZoo)."""
    from boardgames.envs.aec import make as make_aec

    return make_aec(name, **options)


def batch(name: str, num_envs: int, **options: Any) -> Any:
    """``num_envs`` games of registered game ``name`` stepped together on its kernels
    (:func:`boardgames.envs.batch.batch`; loads numba)."""
    from boardgames.envs.batch import batch as make_batch

    return make_batch(name, num_envs, **options)


def __getattr__(name: str) -> Any:
    if name == "GYMNASIUM_IDS":  # kept for compatibility: now derived from the registry
        return gymnasium_ids()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


register_when_imported()

__all__ = ["INSTALL_HINT", "batch", "gymnasium_ids", "make", "register_gymnasium", "require"]
