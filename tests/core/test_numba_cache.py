"""The dependency-aware numba cache key (core/numba_cache.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np

from boardgames.core.numba_cache import njit_cached, source_tag


def _module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_source_tag_follows_the_dependency_source(tmp_path: Path) -> None:
    path = tmp_path / "dep_rules.py"
    path.write_text("STEP = 1\n")
    before = source_tag(_module(path, "dep_rules"))
    assert source_tag(_module(path, "dep_rules")) == before  # stable
    path.write_text("STEP = 2\n")
    assert source_tag(_module(path, "dep_rules")) != before


def test_njit_cached_compiles_and_keys_the_cache_by_the_tag(tmp_path: Path) -> None:
    path = tmp_path / "dep_rules2.py"
    path.write_text("STEP = 1\n")
    dep = _module(path, "dep_rules2")

    @njit_cached(dep)
    def total(a):
        s = 0
        for x in a:
            s += x
        return s

    assert total(np.arange(5)) == 10
    sig = total.signatures[0]
    key = total._cache._index_key(sig, total.targetctx.codegen())
    assert key[-1] == source_tag(dep)
