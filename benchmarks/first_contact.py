"""First contact: each public command's first call on an empty cache, then on a warm one.

Every run is a fresh process with its own empty endgame-table cache (``BOARDGAMES_CACHE``,
so no table is reused). *Cold*: an empty kernel cache (``NUMBA_CACHE_DIR``) of its own, one
run (``--cold-repeat``). *Warm*: the kernel cache ``boardgames cache warm all`` filled (the
"cache warm all" row's cold run fills it), the median of ``--repeat`` runs (default 3).

For each run: the wall time (for the interactive commands, the time until the program's
first move is printed, their input fed through stdin), the part spent compiling, the
answer (a line of stdout) and which path answered (a line of stderr that says "pure
Python" or "while the compiled kernels ...", when the command says so). The compile part
comes from numba's event API: a small bootstrap (this file, run as ``--child``) registers
a listener on ``numba:compile`` as soon as numba loads (an import hook, so a command that
never loads numba is not slowed down) and writes each compile (kernel, signature,
seconds, its own and with what it compiled inside) to a JSON file at exit.

A command that starts a background warm-up (``boardgames cache warm GROUP --quiet``, from
:mod:`boardgames.core.warmup`) has it stopped (by the pid in its pid file) once the
measurement is done, so it neither competes with the next run nor fills the next cache.

    python benchmarks/first_contact.py [--quick | --big] [--repeat N] [--json FILE]

Prints a markdown table (and the kernels each cold run compiled) to stdout; ``--json``
writes every measurement. ``--quick``: three commands, warm runs once. ``--big``: instead
of the small commands, the work too big for pure Python (``queens count -n 14``, a first
6 x 4 solve, a local cluster's first ``kalah solve`` and ``queens count``), some minutes.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import importlib.abc
import importlib.machinery
import json
import os
import platform
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
LOG_VAR = "FIRST_CONTACT_COMPILE_LOG"
PATH_WORDS = re.compile(
    r"pure[- ]Python|while the compiled kernels|in the background|compil", re.IGNORECASE
)
PROGRESS_LINE = re.compile(r"\belapsed\b")


@dataclass(frozen=True)
class Command:
    """A command's first call: its arguments, its input, and the line that ends the wait."""

    name: str
    args: tuple[str, ...]
    stdin: str | None = None
    until: str | None = None
    """A regular expression: the wall time is taken when a stdout line first matches it
    (the program's first move); None: when the process ends."""
    answer: str | None = None
    """A regular expression picking the answer's line from stdout; None: the last line."""
    files: tuple[tuple[str, str], ...] = ()
    """Files written into the run's folder (``{tmp}``) first: (name, text)."""
    quick: bool = False
    big: bool = False
    """Work too big for pure Python (measured with ``--big`` only: minutes)."""


SMALL_GAME = """Rules : classic
Pits : 4
Seeds : 3
Player A : program random
Player B : program random
First : A

1) A: 2 B: 5 8
2) A: 0 2 3 B: 6
3) A: 0 B: 5
4) A: 1 B: 7
5) A: 1 B: 5
6) A: 2 B: 5
7) A: 3 B: 8
8) A: 1 B: 7

Final : A 15 B 9
"""
"""A whole 4 x 3 game of two random players (``boardgames play kalah --first random
--second random --pits 4 --seeds 3 --record FILE``), for the first review."""

COMMANDS = [
    Command("queens count -n 12", ("queens", "count", "-n", "12"), answer=r"14,?200", quick=True),
    Command(
        "kalah solve --pits 4 --seeds 3",
        ("kalah", "solve", "--pits", "4", "--seeds", "3"),
        answer=r"(?i)value|win|draw|lose",
        quick=True,
    ),
    Command("compare kalah", ("compare", "kalah"), answer=r"(?i)agree|same|differ"),
    Command(
        "nim play (first move)",
        ("nim", "play", "--first", "program"),
        stdin="quit\n",
        until=r"^I play",
        answer=r"^I play",
        quick=True,
    ),
    Command(
        "kalah play 6x6 (first program move)",
        ("kalah", "play", "--first", "b", "--record", "{tmp}/game.klh"),
        stdin="quit\n",
        until=r"^I play",
        answer=r"^I play",
    ),
    Command("kalah analyse", ("kalah", "analyse"), answer=r"(?i)best|move"),
    Command(
        "kalah match (issue 47's first match)",
        tuple(
            shlex.split("kalah match --games 1 --jobs 1 --pits 2 --seeds 1 --a depth=1 --b depth=1")
        ),
        answer=r"games? in",
    ),
    Command(
        "kalah review (a 4 x 3 game)",
        ("kalah", "review", "{tmp}/game.klh"),
        files=(("game.klh", SMALL_GAME),),
        answer=r"moves, \d+ valued exactly",
    ),
    Command(
        "connect4 solve 4455443",
        ("connect4", "solve", "4455443"),
        answer=r"^Score|wins|draw",
    ),
    Command("analyse connect4", ("analyse", "connect4"), answer=r"Best move"),
    Command("compare connect4", ("compare", "connect4"), answer=r"(?i)agree|differ"),
    Command(
        "play connect4 (first program move)",
        ("play", "connect4", "--first", "program"),
        stdin="quit\n",
        until=r"^1 plays",
        answer=r"^1 plays",
    ),
    Command("cache warm all", ("cache", "warm", "all"), answer=r"^Ready"),
    Command(
        "queens count -n 14",
        ("queens", "count", "-n", "14"),
        answer=r"365,?596",
        big=True,
    ),
    Command(
        "kalah solve --pits 6 --seeds 4",
        ("kalah", "solve", "--pits", "6", "--seeds", "4"),
        answer=r"^Value",
        big=True,
    ),
    Command(
        "kalah solve --pits 5 --seeds 3 --cluster local:2",
        ("kalah", "solve", "--pits", "5", "--seeds", "3", "--cluster", "local:2"),
        answer=r"^Value",
        big=True,
    ),
    Command(
        "queens count -n 15 --cluster local:2",
        ("queens", "count", "-n", "15", "--cluster", "local:2"),
        answer=r"2,?279,?184",
        big=True,
    ),
]


@dataclass
class Run:
    """One measured run."""

    wall: float
    returncode: int | None
    answer: str
    path: str
    stderr_tail: list[str]
    compile_seconds: float
    compiles: int
    kernels: list[dict[str, Any]] = field(default_factory=list)
    background_stopped: list[int] = field(default_factory=list)


# --- the child's side: numba's compile events into a JSON file ---------------------------


def _child(argv: list[str]) -> None:
    """Run ``python -m boardgames ARGV`` in this process with numba's compiles recorded."""
    log = os.environ.pop(LOG_VAR)
    events: list[dict[str, Any]] = []
    local = threading.local()

    def register(event_module: Any) -> None:
        class Listener(event_module.Listener):
            def on_start(self, ev: Any) -> None:
                stack = local.__dict__.setdefault("stack", [])
                stack.append([time.perf_counter(), 0.0])

            def on_end(self, ev: Any) -> None:
                stack = local.stack
                start, inner = stack.pop()
                seconds = time.perf_counter() - start
                if stack:
                    stack[-1][1] += seconds
                d = ev.data["dispatcher"]
                f = d.py_func
                events.append(
                    {
                        "kernel": f"{f.__module__}.{f.__qualname__}",
                        "signature": ", ".join(map(str, ev.data["args"])),
                        "seconds": seconds,
                        "own_seconds": seconds - inner,
                        "top": not stack,
                    }
                )

        event_module.register("numba:compile", Listener())

    class Hook(importlib.abc.MetaPathFinder):
        """Registers the listener right after ``numba.core.event`` is imported."""

        def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
            if name != "numba.core.event":
                return None
            sys.meta_path.remove(self)
            spec = importlib.machinery.PathFinder.find_spec(name, path)
            if spec is None or spec.loader is None:
                return spec
            loader = spec.loader
            run_module = loader.exec_module

            def exec_module(module: Any) -> None:
                run_module(module)
                register(module)

            loader.exec_module = exec_module  # type: ignore[method-assign]
            return spec

    sys.meta_path.insert(0, Hook())

    def save() -> None:
        Path(log).write_text(json.dumps(events))

    atexit.register(save)
    import runpy

    sys.argv = ["boardgames", *argv]
    runpy.run_module("boardgames", run_name="__main__", alter_sys=True)


# --- the parent's side ---------------------------------------------------------------------


def _stop_background(numba_dir: Path) -> list[int]:
    """Stop the background warm-ups a command started (named by their pid files)."""
    stopped = []
    for pid_file in (numba_dir / "boardgames-ready").glob("*.pid"):
        with contextlib.suppress(OSError, ValueError):
            pid = int(pid_file.read_text())
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            if b"cache" in cmdline and b"warm" in cmdline:
                os.killpg(pid, signal.SIGTERM)  # its own session: it leads its group
                stopped.append(pid)
    for pid in stopped:  # wait until it is gone, so that nothing more is written
        for _ in range(100):
            try:
                os.kill(pid, 0)
            except OSError:
                break
            time.sleep(0.05)
    return stopped


def measure(cmd: Command, numba_dir: Path, work: Path) -> Run:
    """One run of ``cmd`` in a fresh process with ``numba_dir`` as its kernel cache."""
    tables = work / "tables"
    shutil.rmtree(tables, ignore_errors=True)
    tables.mkdir(parents=True)
    log = work / "compiles.json"
    log.unlink(missing_ok=True)
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(numba_dir),
        "BOARDGAMES_CACHE": str(tables),
        "NO_COLOR": "1",
        "COLUMNS": "200",
        LOG_VAR: str(log),
    }
    work.mkdir(parents=True, exist_ok=True)
    for name, text in cmd.files:
        (work / name).write_text(text)
    args = [a.replace("{tmp}", str(work)) for a in cmd.args]
    t0 = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, str(HERE), "--child", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=work,
    )
    out: list[str] = []
    seen: list[float] = []
    until = re.compile(cmd.until) if cmd.until else None

    def read_out() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            out.append(line.rstrip("\n"))
            if until is not None and not seen and until.search(line):
                seen.append(time.perf_counter() - t0)

    err: list[str] = []

    def read_err() -> None:
        assert child.stderr is not None
        err.extend(line.rstrip("\n") for line in child.stderr)

    readers = [threading.Thread(target=read_out), threading.Thread(target=read_err)]
    for r in readers:
        r.start()
    assert child.stdin is not None
    with contextlib.suppress(BrokenPipeError):
        child.stdin.write(cmd.stdin or "")
        child.stdin.close()
    child.wait()
    end = time.perf_counter() - t0
    for r in readers:
        r.join()
    background = _stop_background(numba_dir)
    events = json.loads(log.read_text()) if log.exists() else []
    kernels: dict[str, dict[str, Any]] = {}
    for e in events:
        k = kernels.setdefault(
            e["kernel"], {"kernel": e["kernel"], "signatures": 0, "seconds": 0.0}
        )
        k["signatures"] += 1
        k["seconds"] += e["own_seconds"]
    pattern = re.compile(cmd.answer) if cmd.answer else None
    lines = [line for line in out if line.strip()]
    picked = [line for line in lines if pattern is None or pattern.search(line)]
    answer = (picked or lines or [""])[-1].strip()
    said = _path_notes(err)
    return Run(
        wall=seen[0] if seen else end,
        returncode=child.returncode,
        answer=answer[:100],
        path=said[-1][:160] if said else "",
        stderr_tail=[line for line in err if line.strip()][-3:],
        compile_seconds=sum(e["seconds"] for e in events if e["top"]),
        compiles=len(events),
        kernels=sorted(kernels.values(), key=lambda k: -k["seconds"]),
        background_stopped=background,
    )


def _path_notes(err: list[str]) -> list[str]:
    """The command's notes on stderr that say which path answered (pure Python while the
    kernels compile in the background, ...): stderr joined (rich wraps long lines), cut
    into parenthesised notes and sentences, those naming the path kept."""
    text = " ".join(line.strip() for line in err if not PROGRESS_LINE.search(line))
    pieces = re.findall(r"\(([^()]*)\)|([^().]+\.)", text)
    notes = [" ".join((a or b).split()) for a, b in pieces]
    return [n for n in notes if PATH_WORDS.search(n)]


def _ensure_ready(warm_dir: Path) -> None:
    """Mark the warm cache ready again if the sources changed meanwhile (the ready marks
    name a hash of the sources: an edit during a run would turn the warm runs cold);
    every kernel loads from the cache, so this is quick. Untimed."""
    sys.path.insert(0, str(HERE.parents[1]))
    from boardgames.core import warmup

    warmup.stamp.cache_clear()
    warmup._plugin_sources.cache_clear()
    ready = all(
        (warm_dir / warmup.READY_FOLDER / f"{g}-{warmup.group_stamp(g)}").is_file()
        for g in warmup.groups()
    )
    if not ready:
        subprocess.run(
            [sys.executable, "-m", "boardgames", "cache", "warm", "all", "--quiet"],
            env={**os.environ, "NUMBA_CACHE_DIR": str(warm_dir)},
            check=True,
        )


def _median(runs: list[Run], attr: str) -> float:
    return statistics.median(getattr(r, attr) for r in runs)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _child(sys.argv[2:])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="three commands, warm runs once")
    parser.add_argument(
        "--big",
        action="store_true",
        help="instead, the work too big for pure Python: queens 14, a 6 x 4 solve, local clusters",
    )
    parser.add_argument("--repeat", type=int, default=3, help="warm runs per command (median)")
    parser.add_argument("--cold-repeat", type=int, default=1, help="cold runs per command")
    parser.add_argument("--json", type=Path, default=None, help="write every measurement here")
    parser.add_argument("--kernels", type=int, default=6, help="kernels listed per cold run")
    opts = parser.parse_args()
    commands = [c for c in COMMANDS if c.quick] if opts.quick else COMMANDS
    commands = [c for c in commands if c.big == opts.big]
    warm_all = next(c for c in COMMANDS if c.name == "cache warm all")
    repeat = 1 if opts.quick else max(1, opts.repeat)
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="first-contact-") as tmp:
        root = Path(tmp)
        warm_dir = root / "warm-kernels"
        warm_dir.mkdir()
        print(f"Filling the warm cache: {' '.join(warm_all.args)} ...", file=sys.stderr)
        filled = measure(warm_all, warm_dir, root / "fill")
        if filled.returncode != 0:
            sys.exit(f"cache warm all failed: {filled.stderr_tail}")
        for i, cmd in enumerate(commands):
            cold: list[Run] = []
            if cmd is warm_all:
                cold.append(filled)
            for k in range(max(1, opts.cold_repeat) - len(cold)):
                cold_dir = root / f"cold-{i}-{k}"
                cold_dir.mkdir()
                print(f"{cmd.name}: cold run {k + 1} ...", file=sys.stderr)
                cold.append(measure(cmd, cold_dir, root / f"work-{i}"))
                shutil.rmtree(cold_dir, ignore_errors=True)
            warm = []
            for k in range(repeat):
                print(f"{cmd.name}: warm run {k + 1} of {repeat} ...", file=sys.stderr)
                _ensure_ready(warm_dir)
                warm.append(measure(cmd, warm_dir, root / f"work-{i}"))
            results[cmd.name] = {
                "args": list(cmd.args),
                "cold": [asdict(r) for r in cold],
                "warm": [asdict(r) for r in warm],
                "cold_wall": _median(cold, "wall"),
                "cold_compile": _median(cold, "compile_seconds"),
                "warm_wall": _median(warm, "wall"),
                "warm_compile": _median(warm, "compile_seconds"),
            }
            _print_progress(cmd.name, results[cmd.name])
    report = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "python": platform.python_version(),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs",
        "numba": _version("numba"),
        "repeat": repeat,
        "commands": results,
    }
    print(_markdown(report, opts.kernels))
    if opts.json is not None:
        opts.json.write_text(json.dumps(report, indent=1))


def _version(name: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return "?"


def _print_progress(name: str, r: dict[str, Any]) -> None:
    print(
        f"  {name}: cold {r['cold_wall']:.1f} s (compiling {r['cold_compile']:.1f} s), "
        f"warm {r['warm_wall']:.2f} s",
        file=sys.stderr,
    )


def _markdown(report: dict[str, Any], top: int) -> str:
    lines = [
        f"First contact ({report['when']}, Python {report['python']}, numba "
        f"{report['numba']}, {report['machine']}); warm: median of {report['repeat']}.",
        "",
        "| command | cold: wall s | cold: compiling s (functions) | warm: wall s "
        "| warm: compiling s | answer | path (stderr) |",
        "|---|---:|---:|---:|---:|---|---|",
    ]
    for name, r in report["commands"].items():
        cold, warm = r["cold"][0], r["warm"][-1]
        rc = "" if cold["returncode"] == 0 else f" (rc {cold['returncode']})"
        path = cold["path"] or ("numba" if cold["compiles"] else "")
        if cold["background_stopped"]:
            path += " [background warm-up started]"
        lines.append(
            f"| `{name}` | {r['cold_wall']:.1f}{rc} | {r['cold_compile']:.1f} "
            f"({cold['compiles']}) | {r['warm_wall']:.2f} | {r['warm_compile']:.1f} "
            f"| {cold['answer'] or warm['answer']} | {path} |".replace("\n", " ")
        )
    lines += ["", "Kernels compiled by each cold run (own seconds, signatures):", ""]
    for name, r in report["commands"].items():
        ks = r["cold"][0]["kernels"]
        if not ks:
            lines.append(f"- `{name}`: none")
            continue
        shown = ", ".join(
            f"{k['kernel'].removeprefix('boardgames.')} {k['seconds']:.1f} s ({k['signatures']})"
            for k in ks[:top]
        )
        more = f", and {len(ks) - top} more" if len(ks) > top else ""
        lines.append(f"- `{name}`: {len(ks)} kernels: {shown}{more}")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
