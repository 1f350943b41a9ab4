"""The learning libraries: import one with a one-line message naming the install command
when it is missing (:func:`require`), and register the Gymnasium ids
(:func:`register_gymnasium`).

The package (:mod:`boardgames.envs`) and every environment module import this one, and it
imports none of them: no import circle.
"""

from __future__ import annotations

import importlib
from types import ModuleType

INSTALL_HINT = "pip install 'boardgames[rl]'"
ENTRY_POINT = "boardgames.envs.single:environment"
"""Every Gymnasium id's entry point; the id's ``game`` keyword names the game."""


def require(module: str, extra: str = INSTALL_HINT) -> ModuleType:
    """Import ``module``; a one-line ImportError naming the install command when missing."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        top = module.split(".")[0]
        raise ImportError(f"boardgames.envs needs {top}, which is not installed: {extra}") from e


def gymnasium_ids() -> dict[str, str]:
    """``boardgames/<Name>-v0`` -> game name, for every registered two-player game with
    action ids (derived from the registry; imports the games, not Gymnasium)."""
    from boardgames.envs.games import games_with_actions, title

    return {f"boardgames/{title(name)}-v0": name for name in games_with_actions()}


def register_gymnasium() -> None:
    """Register :func:`gymnasium_ids` with Gymnasium (once each; imports Gymnasium)."""
    gymnasium = require("gymnasium")
    for env_id, name in gymnasium_ids().items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=ENTRY_POINT, kwargs={"game": name})
