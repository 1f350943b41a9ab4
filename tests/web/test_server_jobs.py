"""One stop mechanism for the page's jobs: a Cancel stops a comparison (numba or Python)
and a review's depth search within a second and frees the slot; a closed page, nobody
following, the time limit and the server stopping cancel too, and the job says why; a job
followed by polling lives while it is polled. Long work in a request thread is capped.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from boardgames.core.registry import two_player
from boardgames.core.search import SearchStopped, alphabeta, alphabeta_tt, minimax
from boardgames.core.strategies import python_id, run_strategy
from boardgames.kalah.game import Kalah
from boardgames.web.jobs import REASONS, Job, JobManager
from tests.helpers import patience, solved_at_once
from tests.web.conftest import Client, make_client

KALAH_12 = {"pits": 12, "seeds": 6}
NUMBA_COMPARE = {"game": "kalah", "depth": 12, "engines": ["numba"], "strategies": ["minimax"]}
PYTHON_COMPARE = {"game": "kalah", "depth": 6, "engines": ["python"], "strategies": ["minimax"],
                  "options": KALAH_12}  # fmt: skip
RECORD = "Pits : 6\nSeeds : 6\n\n1) A: 0 1 B: 7\n"


@pytest.fixture
def client() -> Iterator[Client]:
    test_client, web = make_client()
    yield Client(test_client, web)
    web.jobs.close()
    test_client.close()


def started(client: Client, path: str, body: dict[str, Any]) -> str:
    answer = client.post(path, body)
    assert answer.status_code == 202, answer.text
    return str(answer.json()["job"])


def wait_for(client: Client, job_id: str, stage: str, seconds: float = 60) -> None:
    """Poll the job until its progress is at ``stage`` (the search is under way)."""
    deadline = time.monotonic() + seconds
    while True:
        snap = client.get(f"/api/jobs/{job_id}").json()
        assert snap["state"] == "running", snap
        if str(snap["progress"].get("stage", "")).startswith(stage):
            return
        assert time.monotonic() < deadline, snap
        time.sleep(0.05)


def cancel_within_a_second(client: Client, job_id: str) -> dict[str, Any]:
    time.sleep(0.3)  # well inside the search
    t0 = time.monotonic()
    answer = client.post(f"/api/jobs/{job_id}/cancel")
    assert answer.status_code == 200
    snap: dict[str, Any] = answer.json()
    assert snap["state"] == "cancelled", snap
    assert time.monotonic() - t0 < patience(1.0)
    assert snap["reason"] == "user" and snap["error"] == REASONS["user"]
    assert client.web.jobs.running() == []
    return snap


# --- Cancel that cancels --------------------------------------------------------------------------


def test_cancel_stops_a_numba_comparison_and_frees_its_slot(client: Client) -> None:
    job_id = started(client, "/api/compare", NUMBA_COMPARE)
    wait_for(client, job_id, "minimax (numba)")
    cancel_within_a_second(client, job_id)
    # the slot is free, and the shared engine is not left stopped
    again = started(client, "/api/compare", {**NUMBA_COMPARE, "depth": 3})
    final = client.wait(again)
    assert final["state"] == "done", final
    assert final["result"]["results"][0]["value"] is not None
    program = started(client, "/api/games/kalah/program", {"seconds": 0.2})
    assert client.wait(program)["state"] == "done"


def test_cancel_stops_a_python_comparison(client: Client) -> None:
    job_id = started(client, "/api/compare", PYTHON_COMPARE)
    wait_for(client, job_id, "minimax (python)")
    cancel_within_a_second(client, job_id)
    again = started(client, "/api/compare", {**PYTHON_COMPARE, "depth": 2})
    assert client.wait(again)["state"] == "done"


@pytest.mark.parametrize("settings", [{"depth": 40}, {"seconds": 60}])
def test_cancel_stops_a_deep_review(client: Client, settings: dict[str, Any]) -> None:
    """A depth of 40 plies, or a minute a move: the exact solver's proofs and the engine's
    searches, each stopped at once."""
    job_id = started(client, "/api/review", {"text": RECORD, **settings})
    wait_for(client, job_id, "reviewing")
    cancel_within_a_second(client, job_id)
    again = started(client, "/api/review", {"text": RECORD, "depth": 2})
    final = client.wait(again)
    assert final["state"] == "done" and len(final["result"]["moves"]) == 3


@pytest.mark.parametrize("name", sorted(two_player()))
def test_cancel_stops_a_review_of_any_game(client: Client, name: str) -> None:
    """A minute a move: stopped within a second, whatever the game (unless its review is
    over at once: Nim's values are Bouton's rule)."""
    spec = two_player()[name]
    options = {o.name: [o.high] * 6 for o in spec.options if o.kind == "ints"}
    game = spec.make(**options)
    moves = game.legal_moves(game.initial_state())[:1]
    body = {"options": options, "moves": moves, "seconds": 60}
    job_id = started(client, f"/api/games/{name}/review", body)
    deadline = time.monotonic() + 60
    instant = solved_at_once(spec, game)
    while True:
        snap = client.get(f"/api/jobs/{job_id}").json()
        if snap["state"] == "done" or (instant and snap["state"] == "running"):
            if snap["state"] == "running":  # Bouton's rule: it is over in a moment
                time.sleep(0.05)
                continue
            assert snap["result"]["moves"][0]["exact"], snap  # proved at once
            return
        assert snap["state"] == "running", snap
        if snap["progress"].get("stage") == "reviewing":
            break
        assert time.monotonic() < deadline, snap
        time.sleep(0.05)
    cancel_within_a_second(client, job_id)


# --- the job says why it was cancelled ------------------------------------------------------------


def endless(job: Job) -> None:
    while True:
        job.check()
        time.sleep(0.01)


def test_a_closed_page_cancels_its_job_and_says_so() -> None:
    test_client, web = make_client()
    client = Client(test_client, web)
    try:
        job = web.jobs.start("endless", endless)
        with test_client.stream("GET", f"/api/jobs/{job.id}/events") as events:
            assert next(events.iter_lines()).startswith("event: progress")
        assert job.wait(3.0)
        snap = client.get(f"/api/jobs/{job.id}").json()
        assert snap["state"] == "cancelled" and snap["reason"] == "closed"
        assert snap["error"] == "cancelled: the page that followed it was closed"
    finally:
        web.jobs.close()
        test_client.close()


def test_a_job_nobody_follows_is_cancelled_and_says_so() -> None:
    manager = JobManager(orphan_seconds=0.3)
    try:
        job = manager.start("endless", endless)
        assert job.wait(3.0)
        assert job.snapshot()["reason"] == "abandoned"
        assert job.snapshot()["error"] == (
            "cancelled: nobody followed it (no page listened or asked) for 0.3 s"
        )
    finally:
        manager.close()


def test_a_job_past_the_time_limit_is_cancelled_and_says_so() -> None:
    manager = JobManager(job_seconds=0.3)
    try:
        job = manager.start("endless", endless)
        manager.follow(job)  # followed all along: only the time limit ends it
        assert job.wait(3.0)
        assert job.snapshot()["reason"] == "time"
        assert job.snapshot()["error"] == "cancelled: it ran past the time limit of 0.3 s"
    finally:
        manager.close()


def test_a_stopping_server_cancels_its_jobs_and_says_so() -> None:
    manager = JobManager()
    job = manager.start("endless", endless)
    manager.close()
    assert job.state == "cancelled" and job.snapshot()["reason"] == "shutdown"
    assert job.snapshot()["error"] == "cancelled: the server is stopping"


def test_the_first_reason_stays() -> None:
    manager = JobManager()
    try:
        job = manager.start("endless", endless)
        job.cancel("user")
        job.cancel("closed")
        assert job.wait(2.0) and job.snapshot()["reason"] == "user"
    finally:
        manager.close()


def test_polling_keeps_a_job_alive_and_stopping_polling_ends_it() -> None:
    test_client, web = make_client(orphan_seconds=0.3)
    client = Client(test_client, web)
    try:
        job = web.jobs.start("endless", endless)
        for _ in range(10):  # 1 s of polls, three times the orphan limit
            assert client.get(f"/api/jobs/{job.id}").json()["state"] == "running"
            time.sleep(0.1)
        assert job.wait(3.0)
        assert job.snapshot()["reason"] == "abandoned"
    finally:
        web.jobs.close()
        test_client.close()


def test_a_poller_keeps_a_job_whose_page_closed() -> None:
    """Someone polled it before its stream closed: their polls keep it."""
    test_client, web = make_client(orphan_seconds=0.3)
    client = Client(test_client, web)
    try:
        job = web.jobs.start("endless", endless)
        assert client.get(f"/api/jobs/{job.id}").status_code == 200
        with test_client.stream("GET", f"/api/jobs/{job.id}/events") as events:
            assert next(events.iter_lines()).startswith("event: progress")
        for _ in range(8):  # past the 0.5 s after which a closed page's job ends
            assert client.get(f"/api/jobs/{job.id}").json()["state"] == "running"
            time.sleep(0.1)
    finally:
        web.jobs.close()
        test_client.close()


def test_a_cancelled_job_cannot_finish_as_done() -> None:
    manager = JobManager()
    try:
        gate = threading.Event()

        def work(job: Job) -> int:
            gate.wait(2.0)
            return 42

        job = manager.start("late", work)
        job.cancel("user")
        gate.set()
        assert job.wait(2.0) and job.state == "cancelled" and job.result is None
    finally:
        manager.close()


def test_a_stop_hook_is_called_until_the_work_ends() -> None:
    """The work starts a new search after the first was stopped: the hook stops it too."""
    manager = JobManager()
    try:
        calls: list[float] = []
        searches = [threading.Event() for _ in range(3)]

        def stop_all() -> None:
            for search in searches:
                search.set()

        def work(job: Job) -> None:
            with job.stopping(stop_all):
                for search in searches:  # each "search" ends when the hook has run
                    search.clear()
                    assert search.wait(2.0)
                    calls.append(time.monotonic())
            job.check()

        job = manager.start("searches", work)
        time.sleep(0.05)
        job.cancel("user")
        assert job.wait(2.0) and job.state == "cancelled" and len(calls) == 3
    finally:
        manager.close()


def test_a_failing_hook_does_not_stop_the_cancel() -> None:
    manager = JobManager()
    try:

        def work(job: Job) -> None:
            def broken() -> None:
                raise RuntimeError("a hook that fails")

            job.on_cancel = broken
            with job.stopping(broken):
                endless(job)

        job = manager.start("broken", work)
        time.sleep(0.05)
        job.cancel("user")
        assert job.wait(2.0) and job.state == "cancelled"
    finally:
        manager.close()


# --- the Python searches' stop --------------------------------------------------------------------


def after(calls: int) -> Callable[[], bool]:
    """A stop that says True from its ``calls``-th question on."""
    asked = [0]

    def stop() -> bool:
        asked[0] += 1
        return asked[0] >= calls

    return stop


SEARCHES: list[tuple[str, Callable[..., Any]]] = [
    ("minimax", minimax),
    ("alphabeta", alphabeta),
    ("tt", alphabeta_tt),
    ("id", python_id),
]


@pytest.mark.parametrize(("name", "search"), SEARCHES, ids=[n for n, _ in SEARCHES])
def test_a_python_search_stops_when_asked(name: str, search: Callable[..., Any]) -> None:
    game = Kalah(12, 6)
    with pytest.raises(SearchStopped) as stopped:
        search(game, game.initial_state(), 8, stop=after(3))
    assert stopped.value.args[0] <= 3 * 256 + 1  # asked every 256 positions
    with pytest.raises(SearchStopped):
        run_strategy(name, game, game.initial_state(), 8, engine="python", stop=after(2))


@pytest.mark.parametrize(("name", "search"), SEARCHES, ids=[n for n, _ in SEARCHES])
def test_a_stop_that_never_says_stop_changes_nothing(name: str, search: Callable[..., Any]) -> None:
    game = Kalah(4, 3)
    plain = search(game, game.initial_state(), 4)
    asked = search(game, game.initial_state(), 4, stop=lambda: False)
    assert (asked.value, asked.pv, asked.nodes) == (plain.value, plain.pv, plain.nodes)


# --- long work in a request thread is capped ------------------------------------------------------


def test_a_costly_queens_steps_request_is_capped(client: Client) -> None:
    t0 = time.monotonic()
    answer = client.post("/api/queens/steps", {"n": 16, "start": 36_000, "count": 4000})
    assert answer.status_code == 200 and len(answer.json()["steps"]) == 4000
    assert not answer.json()["finished"]
    assert time.monotonic() - t0 < patience(8)  # 40,000 traced steps: about 1.5 s here
    refused = client.post("/api/queens/steps", {"n": 16, "start": 36_001, "count": 4000})
    assert refused.status_code == 400
    assert refused.json()["error"].startswith("the page steps through the first 40,000 steps")


@pytest.mark.parametrize(
    "body",
    [
        {"n": 16, "start": 200_000, "count": 4000},
        {"n": 16, "start": 39_999, "count": 2},
        {"n": 16, "start": 10**9},
        {"n": 16, "start": -1},
        {"n": 16, "count": 0},
        {"n": 16, "count": 4001},
        {"n": 16, "start": 1.5},
        {"n": 16, "start": "0"},
    ],
)
def test_queens_steps_beyond_the_budget_are_refused_at_once(
    client: Client, body: dict[str, Any]
) -> None:
    t0 = time.monotonic()
    answer = client.post("/api/queens/steps", body)
    assert answer.status_code == 400 and set(answer.json()) == {"error"}
    assert time.monotonic() - t0 < 0.5


def test_the_first_steps_of_sixteen_queens_are_quick(client: Client) -> None:
    """The solver is stopped after the steps asked for, not run on to its next
    solution (N = 16's first is some 10,000 steps in)."""
    t0 = time.monotonic()
    answer = client.post("/api/queens/steps", {"n": 16, "count": 10})
    assert len(answer.json()["steps"]) == 10 and not answer.json()["finished"]
    assert time.monotonic() - t0 < 0.3


# --- a count on a fresh machine: the compile in a process of its own ----------------------------


def test_cancel_stops_a_first_count_while_its_kernels_compile(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """numba's compiler cannot be stopped; on a fresh machine the page's first count
    compiles its kernels in a process of their own (here a stand-in that takes a minute),
    so Cancel still ends the job within a second, and that process with it."""
    import subprocess
    import sys

    from boardgames.core import warmup
    from boardgames.queens.web import api

    children: list[subprocess.Popen[bytes]] = []
    asked: list[tuple[str, ...]] = []

    def aside(*steps: str, force: bool = False) -> subprocess.Popen[bytes]:
        asked.append((*steps, str(force)))
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        children.append(child)
        return child

    monkeypatch.setattr(warmup, "is_ready", lambda group: False)
    monkeypatch.setattr(warmup, "compile_aside", aside)
    monkeypatch.setattr(api, "_LOADED", set())
    job_id = started(client, "/api/queens/count", {"n": 16})
    wait_for(client, job_id, "compiling the counting kernels")
    cancel_within_a_second(client, job_id)
    assert asked == [("boardgames.queens.warm:constellations_parallel", "True")]
    assert children[0].poll() is not None  # the compile ended with the job


def test_a_first_count_marks_its_kernels_compiled(
    client: Client, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """Once the process has compiled them, the count runs, and the next one (in this
    server or another) compiles nothing."""
    import subprocess
    import sys

    from boardgames.core import warmup
    from boardgames.queens.web import api

    marks: list[str] = []
    monkeypatch.setattr(warmup, "is_ready", lambda group: group in marks)
    monkeypatch.setattr(warmup, "mark_ready", marks.append)
    monkeypatch.setattr(
        warmup,
        "compile_aside",
        lambda *s, force=False: subprocess.Popen([sys.executable, "-c", ""]),
    )
    monkeypatch.setattr(api, "_LOADED", set())
    final = client.wait(started(client, "/api/queens/count", {"n": 10}))
    assert final["state"] == "done" and final["result"]["count"] == 724
    assert marks == ["queens.counting"]
    monkeypatch.setattr(api, "_LOADED", set())
    monkeypatch.setattr(warmup, "compile_aside", lambda *s, force=False: pytest.fail("again"))
    final = client.wait(started(client, "/api/queens/count", {"n": 10}))
    assert final["state"] == "done" and final["result"]["count"] == 724
