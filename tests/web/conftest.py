"""Fixtures of the web tests: the guarded app in a TestClient, with its token cookie; and
for the browser tests, the real server and Debian's Chromium driven by Playwright."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # starlette 1.x would like httpx2 instead of httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from boardgames.web.app import WebApp, create_app

PORT = 8765
TOKEN = "test-token-123"
BASE = f"http://127.0.0.1:{PORT}"
ORIGIN = {"Origin": BASE}


class Client:
    """A TestClient that sends the page's Origin on POST, and the app's job manager."""

    def __init__(self, client: TestClient, web: WebApp) -> None:
        self.client = client
        self.web = web

    def post(self, path: str, body: object = None, **kwargs: object):
        headers = {**ORIGIN, **kwargs.pop("headers", {})}  # type: ignore[dict-item]
        return self.client.post(
            path, json=body if body is not None else {}, headers=headers, **kwargs
        )  # type: ignore[arg-type]

    def get(self, path: str, **kwargs: object):
        return self.client.get(path, **kwargs)  # type: ignore[arg-type]

    def wait(self, job_id: str, timeout: float = 60.0) -> dict:
        """The job's last snapshot, read through its event stream."""
        import json

        last: dict = {}
        with self.client.stream("GET", f"/api/jobs/{job_id}/events") as stream:
            for line in stream.iter_lines():
                if line.startswith("data: "):
                    last = json.loads(line[6:])
                    if last["state"] != "running":
                        break
        return last


def make_client(**kwargs: object) -> tuple[TestClient, WebApp]:
    guard, web = create_app(TOKEN, PORT, **kwargs)  # type: ignore[arg-type]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        client = TestClient(guard, base_url=BASE, raise_server_exceptions=False)
    response = client.get(f"/?token={TOKEN}", follow_redirects=False)
    assert response.status_code == 303
    return client, web


@pytest.fixture
def app_client() -> Iterator[Client]:
    client, web = make_client()
    yield Client(client, web)
    web.jobs.close()
    client.close()


# --- the browser tests -------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
IMAGES = (
    Path(os.environ["BOARDGAMES_SCREENSHOTS"]) if os.environ.get("BOARDGAMES_SCREENSHOTS") else None
)
"""Where :func:`shot` saves its pictures; None (the variable unset): nowhere."""
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-extensions",
    "--disable-sync",
    "--no-first-run",
]
"""Chromium in a container: no sandbox (no user namespaces), no GPU, nothing from the net."""
VIEWPORT = {"width": 1000, "height": 700}


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """The real command, its first line the URL; stopped by Ctrl-C (SIGINT): status 130."""
    process = subprocess.Popen(
        [sys.executable, "-m", "boardgames", "serve", "--port", "0", "--no-browser"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/\?token=[\w-]{20,}", url), url
        yield url
    finally:
        process.send_signal(signal.SIGINT)
        try:
            _, err = process.communicate(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover - never leave it running
            process.kill()
            process.communicate()
            raise
    assert process.returncode == 130, err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("Stopped (Ctrl-C)")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium through Playwright; the test is skipped where either is missing
    (a browser is never downloaded)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    if CHROMIUM is None:  # pragma: no cover - depends on the machine
        pytest.skip("no Chromium on this machine (apt install chromium)")
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    """A fresh page that opened the printed URL (its token traded for a cookie); the test
    fails if the page raised a JavaScript error."""
    context = browser.new_context(viewport=VIEWPORT, accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server)
    assert "?token" not in page.url  # the token became a cookie
    yield page
    context.close()
    assert errors == []


def shot(page: Any, name: str) -> None:
    """A screenshot ``serve-<name>.png`` in :data:`IMAGES`; without it the page is still
    drawn into a picture (a PNG), which is let go: a test run leaves no files behind."""
    if IMAGES is None:
        assert page.screenshot().startswith(b"\x89PNG")
        return
    IMAGES.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(IMAGES / f"serve-{name}.png"))
