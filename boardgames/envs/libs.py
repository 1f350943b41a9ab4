"""The learning libraries: import one with a one-line message naming the install command
when it is missing (:func:`require`), and register the Gymnasium ids
(:func:`register_gymnasium`), in whatever order Gymnasium and this package are imported
(:func:`register_when_imported`).

The package (:mod:`boardgames.envs`) and every environment module import this one, and it
imports none of them: no import circle.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

INSTALL_HINT = "pip install 'boardgames[rl]'"
ENTRY_POINT = "boardgames.envs.single:environment"
"""Every Gymnasium id's entry point; the id's ``game`` keyword names the game."""
VECTOR_ENTRY_POINT = "boardgames.envs.vector:vector_environment"
"""Every id's vector entry point (``gymnasium.make_vec(..., vectorization_mode=
"vector_entry_point")``): the batched kernels."""


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
            gymnasium.register(
                id=env_id,
                entry_point=ENTRY_POINT,
                vector_entry_point=VECTOR_ENTRY_POINT,
                kwargs={"game": name},
            )


class _AfterGymnasium(importlib.abc.MetaPathFinder):
    """Registers the ids as soon as ``gymnasium`` has been imported: Gymnasium 1.x has no
    entry-point discovery of third-party environments (its plugin group went in 1.0), so
    ``import boardgames.envs`` before ``import gymnasium`` would otherwise leave them
    unknown. The finder only wraps the loader of the module ``gymnasium``; it imports
    nothing itself and leaves ``sys.meta_path`` once it has fired."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != "gymnasium":
            return None
        self.remove()
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return spec
        loader: Any = spec.loader
        run = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run(module)
            with contextlib.suppress(Exception):  # a broken registry must not break Gymnasium
                register_gymnasium()

        loader.exec_module = exec_module
        return spec

    def remove(self) -> None:
        if self in sys.meta_path:
            sys.meta_path.remove(self)


def register_when_imported() -> None:
    """Register the ids now if Gymnasium is loaded, else as soon as it is imported."""
    if sys.modules.get("gymnasium") is not None:
        register_gymnasium()
    elif not any(isinstance(f, _AfterGymnasium) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterGymnasium())
