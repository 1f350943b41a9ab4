"""The package's import graph: no circle, layers one way, no CLI module below the CLI.

Every ``import`` counts, at module level, inside functions and under ``TYPE_CHECKING``:
a circle hidden in a function is still a circle (docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "boardgames"

# Kalah's layers, lowest first: a module may import its own layer and those below only.
KALAH_LAYERS = (
    ("boardgames.kalah",),  # the game itself: rules, game, eval, kernels, record, perft
    ("boardgames.kalah.exact",),
    ("boardgames.kalah.play",),
    ("boardgames.kalah.jobs", "boardgames.kalah.analysis"),
    # the game's capabilities for the shared layers (players, solver, commentary) beside
    # its commands, page and environments
    (
        "boardgames.kalah.cli",
        "boardgames.kalah.web",
        "boardgames.kalah.envs",
        "boardgames.kalah.players",
    ),
)
SHARED = ("core", "cli", "web", "envs")
"""The shared layers: they reach games only through the registry, never by import."""
GAMES = tuple(
    sorted(
        p.name
        for p in PACKAGE.iterdir()
        if p.is_dir() and (p / "__init__.py").is_file() and p.name not in SHARED
    )
)
"""Every game package of this distribution (kalah, nim, queens, connect4, ...)."""


def module_names() -> dict[str, Path]:
    names = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names[".".join(parts)] = path
    return names


MODULES = module_names()


def imports_of(name: str, path: Path) -> set[str]:
    """The package's modules that ``name`` imports anywhere in its body."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            for alias in node.names:
                child = f"{source}.{alias.name}"
                found.add(child if child in MODULES else source)
    return {m for m in found if m in MODULES and m != name}


GRAPH = {name: imports_of(name, path) for name, path in MODULES.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), and modules
    that import themselves."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph.get(v, ()):
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_cycle_finder_finds_a_hidden_circle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_walker_sees_imports_inside_functions() -> None:
    # kalah/play/engine.py imports the solver inside functions only (numba loads late)
    assert "boardgames.kalah.exact.solver" in GRAPH["boardgames.kalah.play.engine"]


def test_no_import_circle_in_the_package() -> None:
    assert cycles(GRAPH) == []


def is_cli(name: str) -> bool:
    """The command line: ``boardgames.cli``, each game's ``cli``, and ``python -m``."""
    parts = name.split(".")
    return parts[:2] in (["boardgames", "cli"], ["boardgames", "__main__"]) or (
        len(parts) > 2 and parts[2] == "cli"
    )


def test_only_the_cli_imports_cli_modules() -> None:
    wrong = sorted(
        f"{name} -> {target}"
        for name, targets in GRAPH.items()
        if not is_cli(name)
        for target in targets
        if is_cli(target)
    )
    assert wrong == []


def kalah_layer(name: str) -> int | None:
    best = None
    for level, prefixes in enumerate(KALAH_LAYERS):
        for prefix in prefixes:
            inside = name == prefix or name.startswith(prefix + ".")
            if inside and (best is None or len(prefix) > len(best[1])):
                best = (level, prefix)
    return None if best is None else best[0]


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.startswith("boardgames.kalah")))
def test_kalah_layers_import_one_way(name: str) -> None:
    own = kalah_layer(name)
    assert own is not None
    upward = sorted(t for t in GRAPH[name] if (level := kalah_layer(t)) is not None and level > own)
    if name == "boardgames.kalah":  # the package's lazy API names reach into its rooms
        return
    assert upward == [], f"{name} imports a layer above its own"


def test_the_game_packages_are_the_registered_games() -> None:
    from boardgames.core.registry import plugins

    ours = {
        p.factory.split(".")[1] for p in plugins().values() if p.factory.startswith("boardgames.")
    }
    assert set(GAMES) == ours


def test_a_game_never_imports_another_game_and_the_shared_layers_import_no_game() -> None:
    wrong = []
    for name, targets in GRAPH.items():
        parts = name.split(".")
        own = parts[1] if len(parts) > 1 else None
        for target in targets:
            other = target.split(".")[1] if target.count(".") else None
            if other in GAMES and other != own and own in (*GAMES, *SHARED):
                wrong.append(f"{name} -> {target}")
    assert wrong == []


def _code_strings(path: Path) -> list[tuple[int, str]]:
    """The string constants of a module that are not docstrings or help texts."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docs.add(id(body[0].value))
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            docs.add(id(node.value))  # attribute docstrings
        if isinstance(node, ast.keyword) and node.arg == "help":
            for sub in ast.walk(node.value):
                docs.add(id(sub))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
    ]


@pytest.mark.parametrize("layer", SHARED)
def test_the_shared_layers_name_no_game_in_code(layer: str) -> None:
    """No game name in the shared layers' code: only in docs and help examples."""
    import re

    names = re.compile(r"\b(" + "|".join(GAMES) + r")\b", re.IGNORECASE)
    wrong = [
        f"{path.relative_to(PACKAGE)}:{line}: {text[:60]!r}"
        for path in sorted((PACKAGE / layer).rglob("*.py"))
        for line, text in _code_strings(path)
        if names.search(text)
    ]
    assert wrong == []
