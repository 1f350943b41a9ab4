"""``boardgames serve``: the local web page (Kalah, review, Nim, queens, compare)."""

from __future__ import annotations

import click

from boardgames.cli import InputError

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


@click.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on. Anything but 127.0.0.1, localhost or ::1 needs --allow-remote.",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8765,
    show_default=True,
    help="Port to listen on (0: any free port; the URL printed says which).",
)
@click.option("--no-browser", is_flag=True, help="Do not open the page in a web browser.")
@click.option(
    "--allow-remote",
    is_flag=True,
    help="Allow --host to be an address other machines can reach (the token still guards "
    "every request, but the connection is plain HTTP).",
)
def serve(host: str, port: int, no_browser: bool, allow_remote: bool) -> None:
    """Serve the web page: play, analyse, review and compare every registered game, step
    through N queens.

    The first line printed is the page's URL with its access token; open it in a browser
    on this machine (done for you unless --no-browser). Ctrl-C (or SIGTERM) stops the
    server: status 130.
    Needs the [web] extra: pip install 'boardgames[web]'.
    """
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise click.ClickException(
            "boardgames serve needs Starlette and uvicorn: pip install 'boardgames[web]'"
        ) from None
    from boardgames.core.progress import Stopped
    from boardgames.web.server import ServerError, run

    if host.strip().lower().strip("[]") not in LOCAL_HOSTS and not allow_remote:
        raise click.UsageError(
            f"--host {host} can be reached from other machines; "
            "add --allow-remote to mean it (or keep the default 127.0.0.1)"
        )
    try:
        run(host, port, open_browser=not no_browser)
    except ServerError as e:
        raise InputError(str(e)) from None
    except KeyboardInterrupt as e:  # ServerStopped: Ctrl-C or SIGTERM
        how = getattr(e, "how", "Ctrl-C")
        raise Stopped(f"Stopped ({how}): the server is down.") from None
