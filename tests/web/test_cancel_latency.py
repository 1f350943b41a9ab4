"""Every analysis of every game ends within a second of Cancel and frees its job slot
(issue 50: a Nim analysis of 14 rows of 20 went on for 3-4 s)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.helpers import patience
from tests.web.conftest import Client

NIM_14_OF_20 = {"rows": " ".join(["20"] * 14)}
CASES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    *[("nim", NIM_14_OF_20, {"level": level}) for level in ("easy", "medium", "strong", "perfect")],
    ("nim", {**NIM_14_OF_20, "misere": True}, {"seconds": 60}),
    ("kalah", {"pits": 12, "seeds": 20}, {"level": "perfect"}),
    ("connect4", {}, {"level": "perfect"}),
]


@pytest.mark.parametrize(
    ("name", "options", "level"), CASES, ids=[f"{n}-{next(iter(b.values()))}" for n, _, b in CASES]
)
def test_an_analysis_ends_within_a_second_of_cancel(
    app_client: Client, name: str, options: dict[str, Any], level: dict[str, Any]
) -> None:
    started = app_client.post(f"/api/games/{name}/analyse", {"options": options, **level})
    job_id = started.json()["job"]
    time.sleep(0.4)
    t0 = time.monotonic()
    answer = app_client.post(f"/api/jobs/{job_id}/cancel").json()
    limit = patience(1.0)  # the server's answer waits a second for the job to stop
    assert answer["state"] in ("cancelled", "done") or limit > 1.0, answer
    while app_client.web.jobs.running():
        assert time.monotonic() - t0 < limit, f"the analysis still runs {limit:.1f} s after Cancel"
        time.sleep(0.02)
