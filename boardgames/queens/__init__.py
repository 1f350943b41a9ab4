"""N queens (RULES.md section 5): enumerate, count and compare counting methods.

``solve`` holds the pure-Python solvers and symmetry helpers (no numba, so ``queens solve``
starts at once); ``kernels`` holds the numba-jitted counters, imported only when used.

``svg(placement)`` draws a placement (a solution) as an SVG picture.

The names below are the package's Python API (docs/sections/api.md); they load on first
use (PEP 562), so ``import boardgames.queens`` stays cheap. ``run_count`` loads numba only
for a jitted method (``METHODS`` says which are which).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardgames import lazy_exports

if TYPE_CHECKING:
    from boardgames.queens.counting import JIT_METHODS, METHODS, CountResult, Interrupted, run_count
    from boardgames.queens.solve import (
        Solution,
        canonical,
        class_size,
        expand,
        expected_total,
        fundamental_solutions,
        is_solution,
        solutions,
        transforms,
    )

_HOMES = {
    "solutions": "solve",
    "fundamental_solutions": "solve",
    "is_solution": "solve",
    "canonical": "solve",
    "class_size": "solve",
    "transforms": "solve",
    "expand": "solve",
    "expected_total": "solve",
    "Solution": "solve",
    "run_count": "counting",
    "CountResult": "counting",
    "METHODS": "counting",
    "JIT_METHODS": "counting",
    "Interrupted": "counting",
}

__all__ = [
    "JIT_METHODS",
    "METHODS",
    "CountResult",
    "Interrupted",
    "Solution",
    "canonical",
    "class_size",
    "expand",
    "expected_total",
    "fundamental_solutions",
    "is_solution",
    "run_count",
    "solutions",
    "svg",
    "transforms",
]


_lazy_getattr, __dir__ = lazy_exports(__name__, _HOMES, __all__)


def __getattr__(name: str) -> object:
    if name == "svg":  # the module, which called is its svg(): boardgames.queens.svg(sol)
        import importlib

        return importlib.import_module(f"{__name__}.svg")
    return _lazy_getattr(name)
