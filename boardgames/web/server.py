"""Running the web page: bind, print the URL with its token, open a browser, serve.

The socket is bound before anything is printed, so that ``--port 0`` prints the port
the system chose, and a port in use is one clear line. uvicorn serves until Ctrl-C; it
then stops within a second or two (the page's event streams are cut, every job is
cancelled) and hands the Ctrl-C on, so the command line's funnel ends with status 130.
"""

from __future__ import annotations

import os
import secrets
import socket
import sys
import threading
import webbrowser

from boardgames.web.app import create_app

WILDCARDS = ("0.0.0.0", "::", "")


class ServerError(Exception):
    """The server cannot start (address in use, unknown host): one line."""


def url_host(host: str) -> str:
    """The host as a URL writes it: ``[::1]`` for IPv6, 127.0.0.1 for a wildcard."""
    if host in WILDCARDS:
        return "127.0.0.1"
    return f"[{host}]" if ":" in host else host


def graphical() -> bool:
    """True unless this is a Linux (or BSD) session without a display, where the
    webbrowser module would start a text browser in the terminal the server uses."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``; ServerError with the reason otherwise."""
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as e:
        raise ServerError(f"--host {host}: cannot resolve it ({e})") from None
    family, _, _, _, address = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(64)
    except OSError as e:
        sock.close()
        raise ServerError(f"cannot listen on {host} port {port}: {e.strerror or e}") from None
    sock.set_inheritable(True)
    return sock


def run(host: str, port: int, *, open_browser: bool = True) -> None:
    """Serve until Ctrl-C (which rises as ``KeyboardInterrupt``)."""
    import uvicorn

    sock = bind(host, port)
    port = sock.getsockname()[1]
    token = secrets.token_urlsafe(24)
    local = host.strip("[]").lower() in ("127.0.0.1", "localhost", "::1")
    extra = None if local else ("*" if host in WILDCARDS else url_host(host))
    guard, web = create_app(token, port, extra_host=extra)
    url = f"http://{url_host(host)}:{port}/?token={token}"
    # stderr's notes come before the URL: a script that reads the URL and at once stops
    # the server has seen them all
    if not local:
        print(
            f"Warning: listening on {host}: other machines can reach this page (plain HTTP; "
            "the token in the URL is its only guard).",
            file=sys.stderr,
            flush=True,
        )
    print("Serving the boardgames page; Ctrl-C stops the server.", file=sys.stderr, flush=True)
    show = open_browser and graphical()
    if open_browser and not show:
        print(
            "No graphical display here: open the URL below in a browser.",
            file=sys.stderr,
            flush=True,
        )
    print(url, flush=True)
    if show:
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
    config = uvicorn.Config(
        guard,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=1,
        lifespan="off",
    )
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    finally:
        web.jobs.close()
        sock.close()
    # uvicorn handles SIGINT/SIGTERM itself and returns; re-raising the signal does nothing
    # where it was ignored at start (a script's background job), so say it here: the
    # server stops on a signal only, and that is status 130 with its one line
    if server.should_exit:
        raise KeyboardInterrupt
