"""What ``boardgames cache warm queens`` runs: the counting methods' kernels, compiled (or
loaded from numba's cache) by the very functions ``queens count`` calls.

Each function is one step of the warm-up (``boardgames/cli/cache.py`` lists the steps);
none holds kernel code of its own.
"""

from __future__ import annotations


def counting() -> None:
    """The plain, symmetry and rotation counting kernels, serial and parallel
    (``--method numba``, ``numba-parallel``, ``symmetry``, ``symmetry-parallel``)."""
    from boardgames.queens import kernels

    kernels.warm_up()


def constellations() -> None:
    """The constellation counting kernel (``--method constellations``)."""
    from boardgames.queens import constellations as c

    c.warm_up(parallel=False)


def constellations_parallel() -> None:
    """The constellation kernel's ``prange`` twin (``--method constellations-parallel``)."""
    from boardgames.queens import constellations as c

    c.warm_up(parallel=True)
