"""The envs package itself: importing it is light, and a missing learning library is one
clear line naming the extra to install."""

from __future__ import annotations

import subprocess
import sys

import pytest

from boardgames.envs import INSTALL_HINT, require


def test_a_missing_library_is_one_line_naming_the_extra() -> None:
    with pytest.raises(ImportError) as e:
        require("no_such_learning_library_xyz")
    assert str(e.value) == (
        "boardgames.envs needs no_such_learning_library_xyz, which is not installed: "
        f"{INSTALL_HINT}"
    )


@pytest.mark.parametrize(
    ("module", "blocked"),
    [("kalah_v0", "pettingzoo"), ("nim_v0", "pettingzoo"), ("single", "gymnasium"),
     ("labels", "gymnasium")],
)  # fmt: skip
def test_an_env_module_without_its_library(module: str, blocked: str) -> None:
    code = (
        f"import sys; sys.modules[{blocked!r}] = None\n"
        f"try:\n    import boardgames.envs.{module}\n"
        "except ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == (
        f"boardgames.envs needs {blocked}, which is not installed: pip install 'boardgames[rl]'"
    )


def test_openspiel_missing_names_its_package() -> None:
    code = (
        "import sys; sys.modules['pyspiel'] = None\n"
        "try:\n    import boardgames.envs.spiel\n"
        "except ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().endswith("which is not installed: pip install open_spiel")
