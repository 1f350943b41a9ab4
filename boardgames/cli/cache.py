"""``boardgames cache``: what boardgames keeps on disk, listed, checked and cleaned.

The cache folder (:func:`boardgames.cache_dir`) holds the games' own files (Kalah's endgame
tables, for instance), the hidden temporary files of those being saved, and by default
numba's compiled kernels (``NUMBA_CACHE_DIR``). A game's files are listed, chosen
(``--table NAME``), checked and stamped by the object its plugin names as ``cache``
(:class:`boardgames.core.cachefiles.CacheFiles`); this module does the rest the same way
for every game. A file is *current* when today's code reads it and *stale* otherwise. This
module imports no game, and numpy and numba only inside the commands that need them.

``cache warm`` compiles the kernels ahead of use: :data:`WARM_STEPS` is the one list of its
steps (each a function of the game's ``warm`` module that calls the commands' own loading
code), and a group whose steps all ran is marked ready (:mod:`boardgames.core.warmup`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import time
from collections.abc import Iterable
from pathlib import Path

import click

from boardgames import cache_dir
from boardgames.cli import ctrl_c_noted
from boardgames.cli.options import json_option
from boardgames.core.cachefiles import CacheEntry, CacheFiles, Selector
from boardgames.core.console import EndOfInput, confirm, make_console, print_json
from boardgames.core.progress import Progress, format_bytes, interruptible
from boardgames.core.tables import Col, FitTable
from boardgames.core.text import printable
from boardgames.core.warmup import warm_steps as warmup_steps

TABLE_HELP = (
    "A table, as 'cache list' names it: PITSpSTONESs (6p22s: 6 pits, up to 22 stones), "
    "optionally with its rules first (classic-6p22s, empty-capture-6p22s). Repeatable."
)
LAST_USED_NOTE = "last used: the file's access time (most systems update it once a day at most)"


Found = list[tuple[CacheFiles, CacheEntry]]
"""Files of the games in the cache folder, each with the game's :class:`CacheFiles`."""


def _cache_files() -> list[CacheFiles]:
    """Each installed game's own cache files (its plugin's ``cache``); a plugin whose
    ``cache`` does not load is one line on stderr and left out, the others listed."""
    from boardgames.core.registry import PluginError, plugins

    found = []
    for p in plugins().values():
        try:
            files = p.cache_files()
        except PluginError as e:
            click.echo(f"Warning: {e}", err=True)
            continue
        if files is not None:
            found.append(files)
    return found


def _scan(folder: Path, games: Iterable[CacheFiles]) -> Found:
    """Every game's files in ``folder``, game after game, each game's in its own order."""
    return [(files, entry) for files in games for entry in files.scan(folder)]


def _plural(kind: str) -> str:
    return kind + "s"


def _title(kind: str, folder: Path) -> str:
    """``Endgame tables in FOLDER``."""
    plural = _plural(kind)
    return f"{plural[:1].upper()}{plural[1:]} in {folder}"


def _either(texts: Iterable[str]) -> str:
    """The different ``texts``, joined by "or" (one game: its text)."""
    return " or ".join(dict.fromkeys(texts))


def _numba_folder() -> Path:
    return Path(os.environ.get("NUMBA_CACHE_DIR") or cache_dir() / "numba")


def _our_kernel_folders(folder: Path) -> list[Path]:
    """The subfolders of numba's cache ``folder`` that hold this installation's kernels:
    numba names the subfolder of a source folder ``NAME_SHA1`` after that folder (its
    last part and the SHA-1 of its absolute path), one for each folder of the package."""
    package = Path(__file__).resolve().parents[1]
    ours = []
    for source in sorted({p.parent for p in package.rglob("*.py")}):
        path = os.path.abspath(source)
        name = f"{os.path.basename(path)}_{hashlib.sha1(path.encode()).hexdigest()}"
        if (folder / name).is_dir():
            ours.append(folder / name)
    return ours


def _numba_files(folder: Path) -> list[Path]:
    """The compiled kernels (numba's index and code files) that boardgames wrote under
    ``folder``: all of them in boardgames' own cache folder, else (a ``NUMBA_CACHE_DIR``
    other programs share) only those in the subfolders of this installation's sources.
    Nothing else is ever listed, so nothing else is ever removed."""
    if not folder.is_dir():
        return []
    own = folder.resolve() == (cache_dir() / "numba").resolve()
    roots = [folder] if own else _our_kernel_folders(folder)
    found: list[Path] = []
    for root in roots:
        with contextlib.suppress(OSError):  # unreadable: nothing of it is listed
            found += [p for p in root.rglob("*") if p.suffix in (".nbi", ".nbc") and p.is_file()]
    return found


def _ready_groups() -> dict[str, bool]:
    """Each group of ``cache warm``: True when its kernels are compiled into the cache by
    today's sources and numba (:func:`boardgames.core.warmup.is_ready`)."""
    from boardgames.core import warmup

    return {g: warmup.is_ready(g) for g in warmup.groups()}


def _drop_ready_markers() -> int:
    """Remove every group's ready marker (the kernels they vouch for are going); the
    number removed."""
    from boardgames.core import warmup

    folder = warmup.kernel_cache() / warmup.READY_FOLDER
    removed = 0
    for path in folder.glob("*-*") if folder.is_dir() else []:
        if path.name.split("-")[0] in warmup.groups() and not path.name.endswith(".pid"):
            with contextlib.suppress(OSError):
                path.unlink()
                removed += 1
    return removed


def _size(paths: Iterable[Path]) -> int:
    total = 0
    for p in paths:
        with contextlib.suppress(OSError):  # removed meanwhile
            total += p.stat().st_size
    return total


def _when(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(t))


Wanted = list[tuple[CacheFiles, Selector]]
"""What the ``--table`` values chose: each game that reads one, with what it means."""


def _parse_specs(specs: tuple[str, ...], games: Iterable[CacheFiles]) -> Wanted:
    """What each --table value means to the games that read it; a value that no game reads
    is a usage error."""
    games = list(games)
    out: Wanted = []
    for spec in specs:
        chosen = [(files, s) for files in games if (s := files.select(spec)) is not None]
        if not chosen:
            shown = spec if len(spec) <= 30 else spec[:30] + "..."
            how = "; or ".join(files.name_help for files in games) or "no game keeps tables"
            raise click.BadParameter(
                f"{shown!r} is not a table: {how} ('boardgames cache list' shows them)",
                param_hint="'--table'",
            )
        out += chosen
    return out


def _matches(files: CacheFiles, entry: CacheEntry, wanted: Wanted) -> bool:
    return any(owner is files and chosen(entry) for owner, chosen in wanted)


def _format_bytes(n: float) -> str:

    return format_bytes(n)


@click.group()
def cache() -> None:
    """What boardgames keeps on disk: endgame tables and compiled kernels.

    Kalah's endgame tables (kalah solve --endgame) are big (22 stones on 6 pits:
    548 MB, 26: 2.7 GB, 30: 11 GB) and one is kept per board, stone count and rule
    variant; tables of earlier rule kernels (stale) are never read again. Every table
    carries a checksum of each level, checked whenever it is loaded.

    numba compiles each kernel on its first use on a machine (seconds to a minute) and
    keeps it in $NUMBA_CACHE_DIR, else in the folder's numba/ (below); 'cache warm'
    compiles them ahead (images, classrooms, CI), and 'cache list' says which groups of
    them are ready.

    The folder is $BOARDGAMES_CACHE, else $XDG_CACHE_HOME/boardgames, else
    ~/.cache/boardgames ('boardgames cache path').
    """


@cache.command("path", short_help="Print the cache folder.")
def path_command() -> None:
    """Print the cache folder ($BOARDGAMES_CACHE, else $XDG_CACHE_HOME/boardgames, else
    ~/.cache/boardgames); it need not exist yet."""
    click.echo(str(cache_dir()))


@cache.command("list", short_help="List the tables and compiled kernels, with sizes.")
@json_option()
def list_command(as_json: bool) -> None:
    """List the endgame tables (board, rules, stones, size, whether today's rules use
    them, checksum, last use) and the compiled-kernel cache, with the total.

    "stale" tables belong to earlier rule kernels and are never read: 'cache clean
    --stale' removes them. The checksum column says whether a table carries checksums
    (tables saved by earlier versions do not); 'cache verify' checks them.
    """

    folder = cache_dir()
    games = _cache_files()
    found = _scan(folder, games)
    entries = [e for _, e in found]
    numba_folder = _numba_folder()
    numba_paths = _numba_files(numba_folder)
    numba_bytes = _size(numba_paths)
    ready = _ready_groups()
    checks = {e.path: files.checksum(e) for files, e in found if not e.temporary}
    total = sum(e.nbytes for e in entries) + numba_bytes
    if as_json:
        print_json(
            {
                "folder": str(folder),
                "tables": [
                    {
                        "file": e.path.name,
                        "table": e.name,
                        **e.fields,
                        "bytes": e.nbytes,
                        "status": e.status(),
                        "current": e.current,
                        "checksum": checks[e.path],
                        "last_used": time.strftime(
                            "%Y-%m-%dT%H:%M:%S%z", time.localtime(e.last_used)
                        ),
                        "last_used_from": "atime, or mtime if later",
                    }
                    for e in entries
                    if not e.temporary
                ],
                "temporary": [
                    {
                        "file": e.path.name,
                        "bytes": e.nbytes,
                        "writer": e.writer,
                        "being_written": e.writing,
                    }
                    for e in entries
                    if e.temporary
                ],
                "numba": {"folder": str(numba_folder), "bytes": numba_bytes},
                "compiled_kernels": {
                    "folder": str(numba_folder),
                    "files": len(numba_paths),
                    "bytes": numba_bytes,
                    "groups": ready,
                },
                "total_bytes": total,
            }
        )
        return

    console = make_console()
    for files in games:
        own = [e for owner, e in found if owner is files]
        if not own:
            console.print(f"No {_plural(files.kind)} in {folder}.", highlight=False, soft_wrap=True)
            continue
        table = FitTable(
            [
                Col("table"),
                Col(files.detail, drop=2),
                Col("size", "right", number=True),
                Col("status"),
                Col("checksum", drop=3),
                Col("last used", number=True, drop=1),
            ],
            title=_title(files.kind, folder),
            caption=LAST_USED_NOTE,
            title_justify="left",
        )
        for e in own:
            status = e.status()
            style = "green" if status == "current" else "yellow"
            table.add_row(
                e.name if not e.temporary else f"{e.name} (.tmp)",
                e.detail,
                _format_bytes(e.nbytes),
                f"[{style}]{status}[/]",
                checks.get(e.path, ""),
                _when(e.last_used),
            )
        console.print(table)
    console.print(
        f"Compiled kernels (numba): {len(numba_paths):,} files, {_format_bytes(numba_bytes)} "
        f"in {numba_folder}",
        highlight=False,
        soft_wrap=True,
    )
    missing = [g for g, ok in ready.items() if not ok]
    console.print(
        "  "
        + ", ".join(
            f"{g} [{'green' if ok else 'yellow'}]{'ready' if ok else 'not ready'}[/]"
            for g, ok in ready.items()
        )
        + (f" ('boardgames cache warm {' '.join(missing)}' compiles them)" if missing else ""),
        highlight=False,
        soft_wrap=True,
    )
    stale = [e for e in entries if not e.temporary and not e.current]
    console.print(
        f"Total: {_format_bytes(total)}"
        + (
            f"; {len(stale)} stale table{'s' if len(stale) != 1 else ''} "
            f"({_format_bytes(sum(e.nbytes for e in stale))}): 'boardgames cache clean --stale'"
            if stale
            else ""
        ),
        highlight=False,
        soft_wrap=True,
    )


@cache.command("clean", short_help="Remove stale or chosen tables; say what that freed.")
@click.option(
    "--stale",
    is_flag=True,
    help="Tables of earlier rule kernels (never read again), "
    "and temporary files of saves that were stopped.",
)
@click.option(
    "--all",
    "everything",
    is_flag=True,
    help="Every endgame table (not the compiled kernels: add --numba).",
)
@click.option("--table", "specs", multiple=True, metavar="PITSpSTONESs", help=TABLE_HELP)
@click.option(
    "--numba",
    is_flag=True,
    help="numba's compiled kernels (the next run compiles them again: a minute or more).",
)
@click.option("--dry-run", is_flag=True, help="Say what would be removed; remove nothing.")
def clean_command(
    stale: bool, everything: bool, specs: tuple[str, ...], numba: bool, dry_run: bool
) -> None:
    """Remove endgame tables (or the compiled kernels) and say how much space that freed.

    Give what to remove: --stale, --all, --table (repeatable) or --numba; --dry-run lists
    it without removing. A table being saved by a running process (its hidden .tmp file)
    is never removed. A removed table is built again when a command needs it.
    """

    if not (stale or everything or specs or numba):
        raise click.UsageError(
            "say what to remove: --stale, --all, --table PITSpSTONESs (e.g. 6p22s) or --numba"
        )
    # (the games' files are looked at only when asked for: telling a current table from a
    # stale one may compile a small kernel, which --numba alone must not do)
    games = _cache_files() if (stale or everything or specs) else []
    wanted = _parse_specs(specs, games)
    console = make_console()
    folder = cache_dir()
    chosen: list[tuple[Path, int]] = []
    kept: list[CacheEntry] = []
    for files, e in _scan(folder, games):
        if e.temporary:
            if e.writing:
                if stale or everything or _matches(files, e, wanted):
                    kept.append(e)
            elif stale or everything:
                chosen.append((e.path, e.nbytes))
        elif everything or (stale and not e.current) or _matches(files, e, wanted):
            chosen.append((e.path, e.nbytes))
    if numba:
        chosen += [(p, _size([p])) for p in _numba_files(_numba_folder())]
        if not dry_run:  # no group is ready once its kernels are gone
            _drop_ready_markers()
    for e in kept:
        console.print(
            f"Kept {e.path.name}: process {e.writer} is writing it.",
            highlight=False,
            soft_wrap=True,
        )
    if specs and not any(_matches(files, e, wanted) for files, e in _scan(folder, games)):
        kind = _either(files.kind for files, _ in wanted)
        console.print(
            f"No {kind} {', '.join(specs)} in {folder}; 'boardgames cache list' shows "
            "what is there.",
            highlight=False,
            soft_wrap=True,
        )
    freed = 0
    removed = 0
    verb = "Would remove" if dry_run else "Removed"
    tables = [(p, n) for p, n in chosen if p.suffix != ".nbi" and p.suffix != ".nbc"]
    failed: list[str] = []
    for p, n in tables:
        if not dry_run:
            try:
                p.unlink()
            except FileNotFoundError:
                continue
            except OSError as e:  # one bad entry: say so, go on with the others
                failed.append(f"{p.name}: {e.strerror or e}")
                continue
        console.print(f"{verb} {p.name} ({_format_bytes(n)})", highlight=False, soft_wrap=True)
        freed += n
        removed += 1
    kernels = [(p, n) for p, n in chosen if (p, n) not in tables]
    if kernels:
        if not dry_run:
            for p, n in list(kernels):
                try:
                    p.unlink(missing_ok=True)
                except OSError as e:
                    failed.append(f"{p.name}: {e.strerror or e}")
                    kernels.remove((p, n))
        size = _format_bytes(sum(n for _, n in kernels))
        console.print(
            f"{verb} {len(kernels)} compiled-kernel files ({size}) in {_numba_folder()}",
            highlight=False,
            soft_wrap=True,
        )
        freed += sum(n for _, n in kernels)
        removed += len(kernels)
    if failed:
        err = make_console(stderr=True)
        for line in failed:
            err.print(f"Could not remove {printable(line)}", highlight=False, soft_wrap=True)
    if not removed and not failed:
        console.print("Nothing to remove.")
    elif dry_run:
        console.print(f"Would free {_format_bytes(freed)}; nothing was removed (--dry-run).")
    else:
        console.print(f"Freed {_format_bytes(freed)}.")
    if failed:
        raise click.ClickException(f"{len(failed)} of the files could not be removed (above)")


@cache.command("verify", short_help="Check the tables' checksums; stamp old tables.")
@click.option("--table", "specs", multiple=True, metavar="PITSpSTONESs", help=TABLE_HELP)
@click.option(
    "--stamp",
    is_flag=True,
    help="Give tables saved before checksums the checksums of what they hold now, after "
    "asking. That cannot tell whether they were damaged before; rebuilding can.",
)
@click.option("--yes", is_flag=True, help="With --stamp: do not ask.")
@json_option()
def verify_command(specs: tuple[str, ...], stamp: bool, yes: bool, as_json: bool) -> None:
    """Check every endgame table (or those of --table) against its checksums.

    Each table is "good", "damaged" (never used: it is rebuilt when next needed, or
    'cache clean --table' removes it) or "unverified" (saved by an earlier version,
    without checksums). Exit status 1 if a table is damaged.
    """
    if as_json and stamp and not yes:
        raise click.UsageError("--stamp with --json cannot ask: add --yes")
    games = _cache_files()
    wanted = _parse_specs(specs, games)
    console = make_console(stderr=as_json)
    err = make_console(stderr=True)
    folder = cache_dir()
    tables = [(files, e) for files, e in _scan(folder, games) if not e.temporary]
    found = [(files, e) for files, e in tables if not wanted or _matches(files, e, wanted)]
    if wanted and not found:  # a named table that is not there is no "all good"
        cached = sorted({e.name for _, e in tables})
        raise click.ClickException(
            f"no table {', '.join(specs)} in {folder}; cached: {', '.join(cached) or 'none'}"
        )
    results: list[dict] = []
    for files, e in found:
        label = f"Verifying {e.name} ({_format_bytes(e.nbytes)})"
        row = {"file": e.path.name, "table": e.name, "bytes": e.nbytes, "status": e.status()}
        with Progress(label, console=err, delay=3), interruptible(lambda: "Stopped (Ctrl-C)."):
            row["result"], row["reason"] = files.verify(e)
        results.append(row)
    unverified = [
        (files, e, r)
        for (files, e), r in zip(found, results, strict=True)
        if r["result"] == "unverified"
    ]
    stampable = [(files, e, r) for files, e, r in unverified if e.current]
    if stamp and stampable:
        agreed = yes
        if not yes:
            names = ", ".join(e.name for _, e, _ in stampable)
            rebuilt_by = _either(files.rebuilt_by for files, _, _ in stampable)
            console.print(
                f"Stamping ({names}) records the checksums of what the tables hold now: it "
                "cannot tell whether they were damaged before. The sure alternative is to "
                f"rebuild: 'boardgames cache clean --table NAME', then {rebuilt_by} "
                "builds it again.",
                highlight=False,
                soft_wrap=True,
            )
            try:
                agreed = confirm(console, "Stamp them?", default=False)
            except EndOfInput:
                agreed = False
        for files, e, r in stampable if agreed else []:
            problem = files.stamp_problem(e, folder)
            if problem:
                r["reason"] = problem
                continue
            with (
                Progress(f"Stamping {e.name}", console=err),
                interruptible(lambda: "Stopped (Ctrl-C); the table was left as it was."),
            ):
                files.stamp(e)
            r["result"] = "stamped"
    if as_json:
        print_json({"folder": str(folder), "tables": results})
    else:
        _print_verified(console, folder, games, found, results, stamp)
    if any(r["result"] == "damaged" for r in results):
        raise SystemExit(1)


def _print_verified(
    console,
    folder: Path,
    games: list[CacheFiles],
    found: Found,
    results: list[dict],
    stamp: bool,
) -> None:
    if not found:
        kinds = _either(_plural(files.kind) for files in games) or "tables"
        console.print(f"No {kinds} in {folder}.", highlight=False, soft_wrap=True)
        return

    styles = {"good": "green", "stamped": "green", "unverified": "yellow", "damaged": "bold red"}
    for files in games:
        rows = [(e, r) for (owner, e), r in zip(found, results, strict=True) if owner is files]
        if not rows:
            continue
        table = FitTable(
            [Col("table"), Col("size", "right", number=True), Col("status"), Col("checksums")],
            title=_title(files.kind, folder),
            title_justify="left",
        )
        for e, r in rows:
            text = f"[{styles[r['result']]}]{r['result']}[/]"
            if r["reason"]:
                text += f": {r['reason']}"
            table.add_row(e.name, _format_bytes(e.nbytes), e.status(), text)
        console.print(table)
    counts = {k: sum(1 for r in results if r["result"] == k) for k in styles}
    console.print(", ".join(f"{n} {k}" for k, n in counts.items() if n) + ".")
    if counts["damaged"]:
        console.print(
            "A damaged table is never used: it is rebuilt when next needed, or "
            "'boardgames cache clean --table NAME' removes it now.",
            highlight=False,
            soft_wrap=True,
        )
    if counts["unverified"] and not stamp:
        rebuilt_by = _either(
            files.rebuilt_by
            for (files, _), r in zip(found, results, strict=True)
            if r["result"] == "unverified"
        )
        console.print(
            "Unverified tables were saved before checksums: 'boardgames cache verify --stamp' "
            "records the checksums of what they hold now (it cannot tell whether they were "
            f"damaged before); rebuilding is the sure way ('cache clean --table NAME', then "
            f"{rebuilt_by} builds it).",
            highlight=False,
            soft_wrap=True,
        )


# --- cache warm --------------------------------------------------------------------------

WARM_STEPS: dict[str, list[tuple[str, str]]] = warmup_steps()
"""The one list of what ``cache warm`` compiles: group -> (label, "module:function") steps,
from each game's plugin (:func:`boardgames.core.warmup.warm_steps`). Each function calls
the loading code the commands use (no kernel code of its own)."""


def _warm_step(target: str, group: str) -> None:
    """Run one step of ``group`` (a game), ``"module:function"``, as its plugin says
    (:func:`boardgames.core.warmup.run_step`)."""
    from boardgames.core import warmup

    if not warmup.run_step(group, target):
        raise click.ClickException(f"{group} has no warm step {target}")


class _CompileCounter:
    """Counts numba's compiles (not its cache loads) while a step runs."""

    def __init__(self) -> None:
        self.count = 0

    def __enter__(self) -> _CompileCounter:
        from numba.core import event

        counter = self

        class Listener(event.Listener):
            def on_start(self, ev: event.Event) -> None:
                counter.count += 1

            def on_end(self, ev: event.Event) -> None:
                pass

        self._listener = Listener()
        event.register("numba:compile", self._listener)
        return self

    def __exit__(self, *exc: object) -> None:
        from numba.core import event

        event.unregister("numba:compile", self._listener)


def _drop_pid_file(group: str) -> None:
    """Remove the pid file a background warm-up of ``group`` left, if it names us."""
    from boardgames.core import warmup

    pid_file = warmup.kernel_cache() / warmup.READY_FOLDER / f"{group}.pid"
    with contextlib.suppress(OSError, ValueError):
        if int(pid_file.read_text()) == os.getpid():
            pid_file.unlink()


@cache.command("warm", short_help="Compile the kernels ahead of use (images, classrooms, CI).")
@click.argument(
    "groups",
    nargs=-1,
    type=click.Choice(["all", *WARM_STEPS], case_sensitive=False),
    metavar=f"[{'|'.join(WARM_STEPS)}|all]...",
)
@click.option("--quiet", is_flag=True, help="No output (how the background warm-up runs it).")
def warm_command(groups: tuple[str, ...], quiet: bool) -> None:
    """Compile the numba kernels of the commands of GROUP (default: all) into the cache,
    so that no command compiles on first use: for images, classrooms and CI. A two-player
    game's last step compiles its batched environment (boardgames.envs.batch).

    Each step runs the code a command runs to load its kernels: a kernel already in the
    cache is loaded (quick), one that is not is compiled (seconds to a minute each, once
    per machine, numba version and boardgames version). When every step of a group is
    done, the group is marked ready ('cache list' shows it) and the commands use its
    kernels at once.

    Ctrl-C is safe: numba writes each cache file under a temporary name and renames it
    into place (os.replace in numba/core/caching.py), so a half-written entry is never
    loaded (an index naming a data file not yet written just means a compile); what was
    compiled stays in the cache, and the next run goes on from there. A group is marked
    ready only when all its steps ran.
    """
    import time

    from boardgames.core import warmup
    from boardgames.core.progress import Stopped, format_duration, stopped_message

    chosen = [g.lower() for g in groups] or ["all"]
    names = list(WARM_STEPS) if "all" in chosen else list(dict.fromkeys(chosen))
    steps = [(g, label, target) for g in names for label, target in WARM_STEPS[g]]
    console = make_console()
    err = make_console(stderr=True)
    t0 = time.perf_counter()
    done = 0
    compiled_total = 0

    def say(text: str) -> None:
        if not quiet:
            console.print(text, highlight=False, soft_wrap=True)

    def stopped() -> str:
        return stopped_message(
            time.perf_counter() - t0, done, len(steps), "steps",
            "; what was compiled stays in the cache",
        )  # fmt: skip

    try:
        with (
            Progress(
                "Compiling kernels", len(steps), "steps", console=err, enabled=not quiet, delay=0.5
            ) as progress,
            interruptible(stopped),
        ):
            for group in names:
                group_steps = [s for s in steps if s[0] == group]
                for _, label, target in group_steps:
                    progress.update(done, detail=f"{group}: {label}")
                    t = time.perf_counter()
                    try:
                        with _CompileCounter() as counter:
                            _warm_step(target, group)
                    except (KeyboardInterrupt, Stopped):
                        raise
                    except Exception as e:  # one line; the group stays not ready
                        if ctrl_c_noted():  # numba's compiler dropped a Ctrl-C, then failed
                            raise KeyboardInterrupt from e
                        raise click.ClickException(
                            f"{group}: {label}: {type(e).__name__}: {printable(str(e))}"
                        ) from None
                    seconds = time.perf_counter() - t
                    with contextlib.suppress(OSError):  # a step may be used before its group
                        warmup.mark_ready(warmup.step_marker(group, target))
                    done += 1
                    compiled_total += counter.count
                    how = (
                        f"compiled: {counter.count} numba function{'s' * (counter.count != 1)}"
                        if counter.count
                        else "already compiled"
                    )
                    say(f"{group}: {label}: {format_duration(seconds)} ({how})")
                try:
                    warmup.mark_ready(group)
                except OSError as e:
                    raise click.ClickException(
                        f"{group}: compiled, but it cannot be marked ready in "
                        f"{warmup.kernel_cache()}: {e.strerror or e}"
                    ) from None
    finally:
        for group in names:
            _drop_pid_file(group)
    say(
        f"Ready: {', '.join(names)} ({len(steps)} steps, {compiled_total} numba functions "
        f"compiled, {format_duration(time.perf_counter() - t0)}) in {_numba_folder()}."
    )
