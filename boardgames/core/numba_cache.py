"""numba's on-disk cache for kernels that inline code from other modules.

numba's ``cache=True`` invalidates a cached kernel when the kernel's own source file
changes, but not when a function it calls (and inlines) changes in another file: the old
machine code would be loaded and run with the old rules. :func:`njit_cached` adds a hash
of the named modules' sources to the cache key, so such a kernel is recompiled whenever
one of them changes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from numba import njit
from numba.core.caching import FunctionCache


class _DependentCache(FunctionCache):
    """numba's file cache with the dependencies' source hash in the index key."""

    def __init__(self, py_func: Any, tag: str) -> None:
        super().__init__(py_func)
        self._tag = tag

    def _index_key(self, sig: Any, codegen: Any) -> tuple[Any, ...]:
        return (*super()._index_key(sig, codegen), self._tag)


def source_tag(*modules: ModuleType) -> str:
    """A short hash of the modules' source files."""
    h = hashlib.sha256()
    for module in modules:
        h.update(Path(str(module.__file__)).read_bytes())
    return h.hexdigest()[:16]


def njit_cached(*modules: ModuleType, **options: Any) -> Callable[[Any], Any]:
    """``njit(cache=True, **options)`` whose cache also follows ``modules``' sources."""
    tag = source_tag(*modules)

    def wrap(func: Any) -> Any:
        dispatcher = njit(**options)(func)
        dispatcher._cache = _DependentCache(dispatcher.py_func, tag)
        return dispatcher

    return wrap
