"""Run the simulator's chunks on a Dask cluster (optional extra ``pnp[cluster]``).

The tasks are the same :class:`~pnp.sim.runner._Chunk` ranges the local
runner plays, each reduced to an :class:`~pnp.sim.aggregate.Aggregate` on the
worker; the parent takes the results in task order and merges them exactly
as a local run does, so a run on a cluster gives the same report as a local
run with the same seed. The variants' games are sent to the workers once
(``Client.scatter`` with ``broadcast``); every worker must have the same
``pnp`` (and card-data-derived engine code) installed.

``cluster`` is ``"local"`` — a ``LocalCluster`` of ``jobs`` single-threaded
worker processes started here and closed afterwards — or the address of a
running scheduler (``tcp://scheduler:8786``).
"""

from __future__ import annotations

import importlib.util
import logging
import re
import signal
from typing import Any, Callable, Iterator, Sequence, TypeVar

from pnp.errors import Interrupted, PnpError

#: The runner's per-variant set-up, one task (a chunk of games) and its result.
SetupT = TypeVar("SetupT")
TaskT = TypeVar("TaskT")
ResultT = TypeVar("ResultT")

#: Tasks kept in flight per worker: enough to hide scheduling latency while
#: results stream back in order and memory stays flat.
IN_FLIGHT_PER_WORKER = 4
#: Seconds to wait for a remote scheduler before giving up with one line.
CONNECT_TIMEOUT_S = 20


#: A scheduler address Dask can connect to: protocol, host (or [IPv6]) and port.
_ADDRESS = re.compile(r"(?:tcp|tls|ws|wss|ucx)://(?:[A-Za-z0-9_.-]+|\[[0-9A-Fa-f:.]+\])"
                      r":(?P<port>[0-9]{1,5})/?")


def check_cluster(cluster: str | None) -> None:
    """One-line error for a ``--cluster`` that cannot be used, before any game is played.

    Checked up front so a run does not start its progress bar (or a sweep
    build its variants) only to stop at the first batch.
    """
    if cluster is None:
        return
    if importlib.util.find_spec("distributed") is None:
        raise PnpError(f"--cluster {cluster}: Dask is not installed; install the extra "
                       "with pip install 'pnp[cluster]'")
    if cluster == "local":
        return
    # checked here, not by Dask: its errors for 'tcp://' or port 99999 are
    # tracebacks (ValueError) or a 20-second wait for an address that cannot be
    match = _ADDRESS.fullmatch(cluster)
    if match is None or not 1 <= int(match.group("port")) <= 65535:
        raise PnpError(f"--cluster {cluster!r}: expected 'local' or a scheduler address "
                       "such as tcp://scheduler:8786 (tcp://, tls://, ws://, wss:// or "
                       "ucx://, a host and a port 1–65535)")


def _client(cluster: str, jobs: int) -> tuple[Any, Any]:
    """A Dask client (and the LocalCluster it owns, if any); one-line errors."""
    check_cluster(cluster)
    from dask.distributed import Client, LocalCluster

    if cluster == "local":
        # The worker processes start with SIGINT ignored (an ignored signal stays
        # ignored in a child, and Python then installs no KeyboardInterrupt
        # handler there): Ctrl-C reaches only this process, which closes the
        # cluster, as the local pool's workers do. Dask's own log lines about
        # cancelled tasks and stopped workers are silenced below errors.
        old = signal.getsignal(signal.SIGINT)
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        except ValueError:  # not the main thread: leave SIGINT alone
            old = None
        try:
            local = LocalCluster(n_workers=max(1, jobs), threads_per_worker=1, processes=True,
                                 dashboard_address=None, silence_logs=logging.CRITICAL)
        finally:
            if old is not None:
                signal.signal(signal.SIGINT, old)
        return Client(local), local
    try:
        return Client(cluster, timeout=CONNECT_TIMEOUT_S), None
    except (OSError, TimeoutError, ValueError) as exc:  # ValueError: an address Dask refuses
        raise PnpError(f"--cluster {cluster}: cannot reach the Dask scheduler "
                       f"({type(exc).__name__}: {exc})") from None


def dask_results(setups: Sequence[SetupT], tasks: list[TaskT], jobs: int, cluster: str,
                 run_task: Callable[[Sequence[SetupT], TaskT], ResultT]) -> Iterator[ResultT]:
    """Every task's result, in task order, computed on the Dask cluster ``cluster``.

    ``run_task(setups, task)`` is the runner's (:func:`pnp.sim.runner.run_task`),
    passed in so this module needs nothing from the runner that calls it.
    """
    client, local = _client(cluster, jobs)
    try:
        workers = max(1, len(client.scheduler_info().get("workers", {})) or jobs)
        shared = client.scatter(list(setups), broadcast=True)
        window = workers * IN_FLIGHT_PER_WORKER
        futures: list[Any] = []
        submitted = 0
        for i in range(len(tasks)):
            while submitted < len(tasks) and submitted < i + window:
                # pure=False: equal tasks of different runs must never be merged.
                futures.append(client.submit(run_task, shared, tasks[submitted], pure=False))
                submitted += 1
            result = futures[i].result()
            futures[i] = None  # let the finished future go
            yield result
    except KeyboardInterrupt:
        # Closing the cluster mid-scatter (Ctrl-C soon after start on a busy
        # machine) leaves a scheduler task failing on a worker that is gone;
        # asyncio reports it as "Task exception was never retrieved" with a
        # traceback when the task is collected. The run is over: say it once.
        logging.getLogger("asyncio").setLevel(logging.CRITICAL)
        raise Interrupted("interrupted: cluster tasks cancelled; nothing was written")
    finally:
        client.close()
        if local is not None:
            local.close()


__all__ = ["dask_results"]
