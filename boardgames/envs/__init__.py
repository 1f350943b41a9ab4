"""Environments for learning agents ([rl] extra): PettingZoo, Gymnasium and OpenSpiel.

Importing this package is cheap: it imports neither PettingZoo nor Gymnasium nor
OpenSpiel. The modules do, when used:

- :mod:`boardgames.envs.kalah_v0`, :mod:`boardgames.envs.nim_v0`: PettingZoo AEC
  environments laid out like PettingZoo's classic games (``env(**options)``, ``raw_env``);
- :mod:`boardgames.envs.single`: Gymnasium environments (the learner against a Kalah
  program or Bouton's Nim), ids ``boardgames/Kalah-v0`` and ``boardgames/Nim-v0``;
- :mod:`boardgames.envs.labels`: a Gymnasium wrapper that reports each Kalah move's loss
  against perfect play in ``info``;
- :mod:`boardgames.envs.spiel`: the OpenSpiel games ``python_boardgames_kalah`` and
  ``python_boardgames_nim``, registered with ``pyspiel.register_game`` on import.

Gymnasium 1.x has no plugin discovery (its entry-point group went in 1.0), so the ids are
registered by importing Python code: ``import gymnasium`` and then ``import
boardgames.envs`` (this package registers them when Gymnasium is already loaded), or
importing any environment module (``boardgames.envs.single``, ``kalah_v0``, ...) in any
order, or the id with its module: ``gymnasium.make("boardgames.envs:boardgames/Kalah-v0")``.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

INSTALL_HINT = "pip install 'boardgames[rl]'"
GYMNASIUM_IDS = {
    "boardgames/Kalah-v0": "boardgames.envs.single:KalahEnv",
    "boardgames/Nim-v0": "boardgames.envs.single:NimEnv",
}
"""The Gymnasium ids this package registers and their entry points."""


def require(module: str, extra: str = INSTALL_HINT) -> ModuleType:
    """Import ``module``; a one-line ImportError naming the install command when missing."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        top = module.split(".")[0]
        raise ImportError(f"boardgames.envs needs {top}, which is not installed: {extra}") from e


def register_gymnasium() -> None:
    """Register :data:`GYMNASIUM_IDS` with Gymnasium (once; imports Gymnasium)."""
    gymnasium = require("gymnasium")
    for env_id, entry_point in GYMNASIUM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=entry_point)


if "gymnasium" in sys.modules:  # Gymnasium already loaded: registering costs nothing more
    register_gymnasium()

__all__ = ["GYMNASIUM_IDS", "INSTALL_HINT", "register_gymnasium", "require"]
