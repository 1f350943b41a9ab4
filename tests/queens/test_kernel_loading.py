"""A count loads (on an empty cache: compiles) the kernels of its method and no others:
the serial or the ``prange`` kernel, not both; the rotation search only for a fundamental
count (issue 31: each command compiles only what it runs). Each case runs in a fresh
process, so that nothing was loaded before; a jitted function is loaded when it has a
compiled signature."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

PROBE = """
import json, sys
from boardgames.queens import constellations, kernels
from boardgames.queens.counting import load_kernels
method, n, fundamental = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
load_kernels(method, None, n, fundamental)
print(json.dumps(sorted(
    f"{module.__name__.rsplit('.', 1)[1]}.{name}"
    for module in (kernels, constellations)
    for name, obj in vars(module).items()
    if getattr(obj, "signatures", None) and obj.__module__ == module.__name__
)))
"""

ROTATION = {"kernels.rotation_tasks"}
CASES = [
    ("numba", 12, False, {"kernels.count_tasks", "kernels.expand_tasks"}),
    ("parallel", 12, True, {"kernels.count_tasks_parallel", "kernels.expand_tasks",
                            "kernels.count_rotation_tasks_parallel", *ROTATION}),
    ("symmetry", 12, True, {"kernels.symmetry_tasks", "kernels.expand_symmetry_tasks",
                            "kernels.count_symmetry_tasks"}),
    ("symmetry-parallel", 12, False, {"kernels.symmetry_tasks", "kernels.expand_symmetry_tasks",
                                      "kernels.count_symmetry_tasks_parallel"}),
    ("constellations", 14, True, {"constellations._count_serial", "kernels.count_rotation_tasks",
                                  *ROTATION}),
    ("constellations-parallel", 14, False, {"constellations._count_parallel"}),
]  # fmt: skip


@pytest.mark.parametrize(("method", "n", "fundamental", "wanted"), CASES)
def test_a_count_loads_only_its_methods_kernels(
    method: str, n: int, fundamental: bool, wanted: set[str]
) -> None:
    run = subprocess.run(
        [sys.executable, "-c", PROBE, method, str(n), "1" if fundamental else "0"],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    loaded = set(json.loads(run.stdout))
    assert wanted <= loaded, loaded
    others = {
        "kernels.count_tasks", "kernels.count_tasks_parallel", "kernels.count_symmetry_tasks",
        "kernels.count_symmetry_tasks_parallel", "kernels.count_rotation_tasks",
        "kernels.count_rotation_tasks_parallel", "kernels.rotation_tasks",
        "constellations._count_parallel", "constellations._count_serial",
    } - wanted  # fmt: skip
    assert not loaded & others, f"{method}: loaded {sorted(loaded & others)} it never runs"
