"""Which groups of compiled kernels are ready on disk, and compiling them in the background.

numba compiles a kernel on its first call and keeps the machine code in its on-disk cache
(``NUMBA_CACHE_DIR``). On a fresh machine that first call costs seconds to a minute; a
command whose work is small must not make a new user wait for it. So a command asks
:func:`is_ready` first: when its group of kernels is not known to be compiled, it answers
with a pure-Python path and calls :func:`warm_in_background`, which starts
``boardgames cache warm GROUP`` in a separate process to fill the cache for the next run.

A group is *ready* when ``boardgames cache warm GROUP`` finished compiling (or loading) all
its kernels with the sources and the numba version in use now: it then leaves a marker file
in ``NUMBA_CACHE_DIR/boardgames-ready/``. The marker's name holds :func:`stamp`, a hash of
the package's sources and the numba and Python versions, so an upgrade or an edit makes
every group not ready again (the cache itself may still serve: warming is then quick).

This module imports neither numba nor any game: it only looks at files.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from boardgames.core.hooks import GENERIC_WARM_STEP

GENERIC_STEP = GENERIC_WARM_STEP
"""The warm step of a game whose plugin names kernels but no steps of its own (its
plugin's :meth:`~boardgames.core.registry.GamePlugin.warm_steps` binds the game's name)."""


def warm_steps() -> dict[str, list[tuple[str, str]]]:
    """What ``boardgames cache warm`` compiles, from the game registry: group (a game's
    name) -> its ``(label, "module:function")`` steps, for every game with kernels
    (:meth:`boardgames.core.registry.GamePlugin.warm_steps`; nothing is imported)."""
    from boardgames.core.registry import plugins

    steps: dict[str, list[tuple[str, str]]] = {}
    for name, p in plugins().items():
        found = [(step.label, step.target) for step in p.warm_steps()]
        if found:
            steps[name] = found
    return steps


def groups() -> tuple[str, ...]:
    """The groups ``boardgames cache warm`` knows (``all`` means every one)."""
    return tuple(warm_steps())


READY_FOLDER = "boardgames-ready"
BACKGROUND_SWITCH = "BOARDGAMES_BACKGROUND_WARM"
"""Set to 0, no command starts a background compile (the test suite does so)."""
PACKAGE = Path(__file__).resolve().parents[1]

_children: list[subprocess.Popen[bytes]] = []
_asides: list[subprocess.Popen[bytes]] = []


def kernel_cache() -> Path:
    """numba's cache folder as this process uses it (``boardgames`` sets it on import)."""
    import boardgames  # noqa: F401  (sets NUMBA_CACHE_DIR when the user has not)

    return Path(os.environ["NUMBA_CACHE_DIR"])


def _hash_sources(h: Any, folder: Path) -> None:
    for path in sorted(folder.rglob("*.py")):
        h.update(str(path.relative_to(folder)).encode())
        h.update(path.read_bytes())


@functools.cache
def stamp() -> str:
    """A short hash of every source file of the package, numba's version and Python's."""
    h = hashlib.sha256()
    h.update(sys.version.encode())
    try:
        from importlib.metadata import version

        h.update(version("numba").encode())
    except Exception:
        h.update(b"numba ?")
    _hash_sources(h, PACKAGE)
    return h.hexdigest()[:16]


def group_stamp(group: str) -> str:
    """:func:`stamp`, and for a group (a game, or one of its steps) registered by another
    distribution also that distribution's version and the sources of the packages its
    plugin's factory, kernels and solver live in: an upgrade or an edit of an outside
    game makes its group not ready again."""
    extra = _plugin_sources(group.split(".", 1)[0])
    if not extra:
        return stamp()
    return hashlib.sha256(stamp().encode() + extra).hexdigest()[:16]


@functools.cache
def _plugin_sources(game: str) -> bytes:
    """The version and source hash of the outside package that registers ``game`` (empty
    for a built-in game or a name no plugin registers)."""
    import importlib.util
    from importlib.metadata import version

    from boardgames.core.registry import BUILT_IN, distribution, plugins

    found = plugins().get(game)
    if found is None:
        return b""
    dist = distribution(game)
    if dist == BUILT_IN:
        return b""
    h = hashlib.sha256(dist.encode())
    with contextlib.suppress(Exception):
        h.update(version(dist).encode())
    paths = [found.factory, *(p for p in (found.kernels, found.solver) if p)]
    for top in sorted({path.split(".", 1)[0].split(":", 1)[0] for path in paths}):
        with contextlib.suppress(Exception):
            spec = importlib.util.find_spec(top)
            if spec is not None and spec.submodule_search_locations:
                for where in spec.submodule_search_locations:
                    _hash_sources(h, Path(where))
            elif spec is not None and spec.origin:
                h.update(Path(spec.origin).read_bytes())
    return h.digest()


def marker(group: str) -> Path:
    """The file whose presence says that ``group``'s kernels are compiled."""
    return kernel_cache() / READY_FOLDER / f"{group}-{group_stamp(group)}"


def is_ready(group: str) -> bool:
    """True when ``group``'s kernels were compiled into the cache by these sources."""
    return marker(group).is_file()


def step_ready(group: str, target: str) -> bool:
    """True when one step of ``group`` (its ``"module:function"``) was compiled by these
    sources, on its own or with the whole group: a command that needs only that step's
    kernels may use them before the whole group is done (``kalah play`` switches to its
    engine after the program's step)."""
    return is_ready(group) or is_ready(step_marker(group, target))


def step_marker(group: str, target: str) -> str:
    """The marker name of one warm step: ``kalah.program_classic``."""
    return f"{group}.{target.rsplit(':', 1)[-1]}"


def mark_ready(group: str) -> None:
    """Record that ``group``'s kernels are compiled; markers of older stamps go."""
    path = marker(group)
    path.parent.mkdir(parents=True, exist_ok=True)
    for old in path.parent.glob(f"{group}-*"):
        if old != path and not old.name.endswith(".pid"):
            with contextlib.suppress(OSError):
                old.unlink()
    path.touch()


def _running(pid_file: Path) -> bool:
    """True when ``pid_file`` names a live process (another warm-up of the same group)."""
    try:
        pid = int(pid_file.read_text())
        os.kill(pid, 0)
    except (OSError, ValueError):
        return False
    return True


def in_progress(group: str) -> bool:
    """True when a process (this one's child or another command's) is compiling ``group``."""
    return _running(kernel_cache() / READY_FOLDER / f"{group}.pid")


def warm_in_background(group: str) -> bool:
    """Start ``boardgames cache warm GROUP`` in its own process, unless the group is ready
    or another process warms it already; True when a warm-up is under way (this one or
    another command's), False when none will come (ready, switched off, no cache folder).

    The process runs in its own session (a Ctrl-C at the terminal does not reach it) and
    goes on after this command ends, to fill the cache; :func:`stop_background` ends it
    (the command's Ctrl-C handler calls it, so that nothing is left compiling). With
    ``BOARDGAMES_BACKGROUND_WARM=0`` in the environment it starts nothing."""
    if os.environ.get(BACKGROUND_SWITCH) == "0" or is_ready(group):
        return False
    folder = kernel_cache() / READY_FOLDER
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    pid_file = folder / f"{group}.pid"
    if _running(pid_file):
        return True  # another command's warm-up: it fills the same cache
    try:
        child = subprocess.Popen(
            [sys.executable, "-m", "boardgames", "cache", "warm", group, "--quiet"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        pid_file.write_text(str(child.pid))
    except OSError:
        return False
    _children.append(child)
    return True


def stop_background(asides_only: bool = False) -> None:
    """End the warm-ups this process started (Ctrl-C: leave no compiler running);
    ``asides_only``: only :func:`compile_aside`'s (a command that failed: nothing will use
    them, while a background ``cache warm`` still fills the cache for the next runs)."""
    for child in list(_children):
        if asides_only and child not in _asides:
            continue
        _children.remove(child)
        if child.poll() is None:
            with contextlib.suppress(OSError):
                os.killpg(child.pid, signal.SIGTERM)
            try:
                child.wait(2)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(OSError):
                    os.killpg(child.pid, signal.SIGKILL)


def compile_aside(*steps: str, force: bool = False) -> subprocess.Popen[bytes] | None:
    """Run warm steps (``"module:function"``, as ``cache warm`` lists them) one after the
    other in a process of their own, started now: their kernels compile on another core
    while this process does other work (``kalah solve`` on a fresh machine: the solver's
    kernels compile there while the endgame table's compile and build here).
    :func:`wait_aside` waits for it; :func:`stop_background` ends it (Ctrl-C). None when it
    could not start (the caller then compiles in-process, as before). ``force``: start it
    even where background compiles are off (:data:`BACKGROUND_SWITCH`): the caller waits
    for it, so nothing outlives the caller's work."""
    if os.environ.get(BACKGROUND_SWITCH) == "0" and not force:
        return None
    try:
        child = subprocess.Popen(
            [sys.executable, "-m", "boardgames.core.warmup", *steps],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        return None
    _children.append(child)
    _asides.append(child)
    return child


def wait_aside(child: subprocess.Popen[bytes] | None) -> None:
    """Wait for :func:`compile_aside`'s process (in short waits: Ctrl-C is seen at once).
    Whatever it did, the caller then loads its kernels as usual: from the cache it filled,
    or compiling them if it failed."""
    while child is not None and child.poll() is None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(0.1)


def run_step(group: str, target: str) -> bool:
    """Run the warm step ``target`` (``"module:function"``) of ``group`` (a game) as its
    plugin says (:meth:`~boardgames.core.registry.GamePlugin.warm_steps`: a generic step
    is given the game's name); False when ``group`` lists no such step."""
    from boardgames.core.registry import plugin

    for step in plugin(group).warm_steps():
        if step.target == target:
            step.run()
            return True
    return False


def _run_steps(steps: list[str]) -> None:
    """:func:`compile_aside`'s process: each step run as ``cache warm`` runs it
    (:func:`run_step`), then marked ready (:func:`step_ready`) in every group that lists
    it: the next command that needs only those kernels knows they are compiled, and
    compiles nothing aside again."""
    listed = warm_steps()
    for step in steps:
        groups = [g for g, targets in listed.items() if any(t == step for _, t in targets)]
        if not groups or not run_step(groups[0], step):
            raise SystemExit(f"no game lists the warm step {step}")
        for group in groups:
            with contextlib.suppress(OSError):
                mark_ready(step_marker(group, step))


if __name__ == "__main__":
    _run_steps(sys.argv[1:])
