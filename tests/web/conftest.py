"""Fixtures of the web tests: the guarded app in a TestClient, with its token cookie."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

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
