"""``boardgames serve``: its options, its one-line errors, and a light ``--help``."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest
from click.testing import CliRunner

from boardgames.cli import cli


def run(*args: str) -> tuple[int, str, str]:
    result = subprocess.run(
        [sys.executable, "-m", "boardgames", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    return result.returncode, result.stdout, result.stderr


def test_help_lists_serve_and_imports_no_web_stack() -> None:
    code = (
        "import sys\n"
        "from boardgames.cli import cli\n"
        "try:\n"
        "    cli.main(['--help'], prog_name='boardgames')\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = [m for m in ('starlette', 'uvicorn', 'numpy', 'numba', 'boardgames.web')"
        " if m in sys.modules]\n"
        "print('HEAVY', heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "serve" in out.stdout and "A local web page" in out.stdout
    assert "HEAVY []" in out.stdout


def test_serve_help() -> None:
    result = CliRunner().invoke(cli, ["serve", "--help"])
    assert result.exit_code == 0
    assert "--no-browser" in result.output and "--allow-remote" in result.output


def test_without_the_web_extra_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "starlette", None)  # import starlette fails
    code, out = _main(["serve", "--no-browser"])
    assert code == 1
    assert out.strip().splitlines() == [
        "Error: boardgames serve needs Starlette and uvicorn: pip install 'boardgames[web]'"
    ]


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.2", "example.org"])
def test_a_host_others_can_reach_needs_the_flag(host: str) -> None:
    code, out = _main(["serve", "--host", host, "--no-browser"])
    assert code == 2
    assert "--allow-remote" in out and len(out.strip().splitlines()) == 1


def test_a_port_in_use_is_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        code, out, err = run("serve", "--port", str(port), "--no-browser")
    assert code == 2 and out == ""
    assert err.strip().startswith(f"Error: cannot listen on 127.0.0.1 port {port}")
    assert len(err.strip().splitlines()) == 1


def test_bad_port() -> None:
    code, _, err = run("serve", "--port", "70000", "--no-browser")
    assert code == 2 and "Error:" in err and "Traceback" not in err


def _main(args: list[str]) -> tuple[int, str]:
    """Run the command line in this process (the funnel included): status, stderr."""
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as stop:
        cli.main(args, prog_name="boardgames")
    return int(stop.value.code or 0), err.getvalue()


def test_no_display_no_browser_and_ctrl_c_is_130() -> None:
    """Without a display the command does not start a (text) browser in its terminal; it
    says to open the URL, and Ctrl-C ends it with status 130."""
    import os
    import signal

    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    process = subprocess.Popen(
        [sys.executable, "-m", "boardgames", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert process.stdout is not None
        url = process.stdout.readline()
        assert url.startswith("http://127.0.0.1:") and "/?token=" in url
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=10)
    assert process.returncode == 130
    assert "No graphical display here: open the URL below in a browser." in err
    assert err.strip().splitlines()[-1] == "Stopped (Ctrl-C): the server is down."


def _web_module(name: str) -> bool:
    """The web package, or a game's own web extras (``boardgames.<game>.web``)."""
    parts = name.split(".")
    return parts[:2] == ["boardgames", "web"] or (len(parts) > 2 and parts[2] == "web")


def test_only_the_serve_command_imports_the_web_package() -> None:
    from tests.test_imports import GRAPH

    outside = sorted(
        f"{name} -> {target}"
        for name, targets in GRAPH.items()
        if not _web_module(name)
        for target in targets
        if _web_module(target)
    )
    # the typed plugin interface's ``web_extras()`` names its kind, WebExtras, and checks
    # it: web.extras is plain dataclasses that load no web library (checked below)
    assert outside == [
        "boardgames.cli.serve -> boardgames.web.server",
        "boardgames.core.registry -> boardgames.web.extras",
    ]
    # and the web package and the games' extras import no command-line module (they call
    # the library)
    cli = sorted(
        f"{name} -> {target}"
        for name, targets in GRAPH.items()
        if _web_module(name)
        for target in targets
        if target.startswith("boardgames.cli") or ".cli" in target
    )
    assert cli == []


def test_the_kinds_of_a_games_web_extras_load_no_web_library() -> None:
    """The registry checks a plugin's ``web`` against WebExtras: that import alone must not
    need the [web] extra."""
    code = (
        "import sys, boardgames.web.extras, boardgames.core.registry; "
        "print(sorted(m for m in ('starlette', 'uvicorn') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
