"""Real Dask clusters for the cluster tests (tests/cluster/local_dask.py starts them).

``dask_cluster`` is the session's: one scheduler and two one-thread workers that every
test shares unless a cluster of its own is the point. A test that kills one of its
workers leaves it to the worker's nanny to start another, and waits for two workers again
before it ends. ``private_cluster`` starts a test's own cluster, for a test that breaks
its scheduler or needs workers unlike the session's; it is stopped after the test.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.cluster.local_dask import DaskCluster, start_cluster


@pytest.fixture(scope="session")
def dask_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DaskCluster]:
    """One scheduler and two one-thread workers for the whole test session."""
    cluster = start_cluster(tmp_path_factory.mktemp("dask"))
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def private_cluster(tmp_path: Path) -> Iterator[Callable[[int], DaskCluster]]:
    """``private_cluster(workers)`` starts a cluster of this test's own (in ``tmp_path``),
    stopped when the test ends."""
    started: list[DaskCluster] = []

    def start(workers: int) -> DaskCluster:
        folder = tmp_path / f"dask-{len(started)}"
        folder.mkdir()
        cluster = start_cluster(folder, workers)
        started.append(cluster)
        return cluster

    try:
        yield start
    finally:
        for cluster in started:
            cluster.stop()
