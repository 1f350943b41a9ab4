"""Run a list of pure tasks in this process, on a local cluster, or on a Dask scheduler.

The one package that imports dask (only inside functions: importing it is cheap). Its
modules: :mod:`.spec` (where to run), :mod:`.checkpoint`, :mod:`.runner` (the task
runner) and :mod:`.pools` (jobs decided as the work goes); the names below are its API.
It knows nothing about games. A game turns its work into *tasks*: a string key and the
arguments of a plain function that lives in an importable module of the package (not in
``__main__``, not a closure, not a jitted function). A task must be pure: the same
arguments always give the same JSON-serialisable result, so a task that runs twice (a lost
worker's task, retried; a task whose result a checkpoint already holds) is harmless.

* ``--cluster`` (or ``BOARDGAMES_CLUSTER``): ``local`` / ``local:N`` (a Dask LocalCluster
  of N worker processes on 127.0.0.1, default one per core), ``tcp://HOST:PORT`` or
  ``tls://HOST:PORT`` (a running scheduler), or the path of a scheduler file (``dask
  scheduler --scheduler-file FILE``). Without it, tasks run one by one in this process.
* ``--checkpoint FILE``: every finished task's result is appended as it arrives (one JSON
  line, with a CRC) after a header line that names the job; rerunning the same job with
  the same file runs only the missing tasks. See :class:`Checkpoint`.
* Progress with an estimate on stderr, Ctrl-C cancels what is pending (status 130 and how
  far the work got), a lost scheduler or a worker with another boardgames version is one
  line (:class:`ClusterError`), never a traceback.

Dask has no authentication by default: local clusters bind to 127.0.0.1; a real cluster
belongs on a private network or uses Dask's TLS security options.
"""

from boardgames.core.cluster.checkpoint import Checkpoint, package_version
from boardgames.core.cluster.pools import DaskJobPool, Finished, JobPool, LocalJobPool
from boardgames.core.cluster.runner import Runner, RunReport, describe_estimate
from boardgames.core.cluster.spec import (
    ENV_VAR,
    ClusterError,
    ClusterSpec,
    parse_cluster,
)
from boardgames.core.cluster.tasks import current_job, source_digest

__all__ = [
    "ENV_VAR",
    "Checkpoint",
    "ClusterError",
    "ClusterSpec",
    "DaskJobPool",
    "Finished",
    "JobPool",
    "LocalJobPool",
    "RunReport",
    "Runner",
    "current_job",
    "describe_estimate",
    "package_version",
    "parse_cluster",
    "source_digest",
]
