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
import threading
from types import FrameType
from typing import Any, Callable, Iterator, Sequence, TypeVar

from pnp.errors import PnpError
from pnp.sim.stopped import interrupted

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


class _HeldCtrlC:
    """Hold Ctrl-C back while a LocalCluster starts; :attr:`pressed` says whether it came.

    Start-up must not be cut short (a half-started cluster leaves worker
    processes behind) and its worker processes must never get the terminal's
    Ctrl-C (they would each print a traceback). Ignoring SIGINT meanwhile did
    both but lost a Ctrl-C pressed in the first second or two. Instead SIGINT
    is *blocked* in this thread: every thread the cluster starts (its event
    loop, the threads that spawn the workers) inherits the blocked mask, and
    so does every worker process (a mask survives fork and exec), so only
    this process can ever take the signal, and a blocked signal stays pending
    rather than being dropped. A handler that only records it catches the
    copy taken by a thread started before (a native one Dask's imports start
    has SIGINT unblocked), which would otherwise raise KeyboardInterrupt in
    the middle of start-up. On
    leaving, the old handler is restored and SIGINT unblocked: a held Ctrl-C
    is then recorded too, and the caller stops the run as a later one does.
    Without ``pthread_sigmask`` (Windows) or off the main thread, SIGINT is
    ignored during start-up as before.
    """

    def __init__(self) -> None:
        """Nothing held yet."""
        self.pressed = False
        self._old: Any = None
        self._blocked = False
        self._changed = False   # __enter__ replaced the handler: __exit__ must restore it

    def _record(self, signum: int, frame: FrameType | None) -> None:
        """The SIGINT handler during start-up: note the Ctrl-C, raise nothing."""
        self.pressed = True

    def __enter__(self) -> "_HeldCtrlC":
        """Hold Ctrl-C (block and record it, or ignore it) until :meth:`__exit__`."""
        if threading.current_thread() is not threading.main_thread():
            return self  # only the main thread may touch signal handlers
        self._old = signal.getsignal(signal.SIGINT)
        self._changed = True
        if hasattr(signal, "pthread_sigmask"):
            # multiprocessing starts its resource tracker on first use with
            # SIGINT blocked, then *unblocks* it (rather than restoring the
            # mask): from inside start-up that would unblock SIGINT in Dask's
            # event-loop thread, which then takes the Ctrl-C and passes it
            # to the workers it spawns. Started here first, it is not started again.
            from multiprocessing import resource_tracker
            resource_tracker.ensure_running()
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            self._blocked = True
            signal.signal(signal.SIGINT, self._record)
        else:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        return self

    def __exit__(self, *exc: object) -> None:
        """Unblock SIGINT (a held Ctrl-C sets :attr:`pressed`) and restore the old handler.

        Restores whenever :meth:`__enter__` changed anything, whatever
        ``getsignal`` returned then (None, for a handler not set from Python,
        must not leave SIG_IGN installed).
        """
        if not self._changed:
            return
        self._changed = False
        if self._blocked:
            # unblocked while the recording handler is still in place, so a
            # held Ctrl-C is delivered (CPython runs handlers on unblocking)
            # as a flag, never as an exception in the middle of this method
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        # getsignal gives None for a handler not set from Python: use Python's own
        signal.signal(signal.SIGINT, self._old if self._old is not None
                      else signal.default_int_handler)


def _start_client(cluster: str, jobs: int, made: list[Any]) -> bool:
    """Connect a Dask client, appending what it makes to ``made`` (to be closed in
    reverse order); returns whether Ctrl-C was pressed while a LocalCluster started.

    One-line errors for a scheduler that cannot be reached.
    """
    check_cluster(cluster)
    from dask.distributed import Client, LocalCluster

    if cluster == "local":
        # Dask's own log lines about cancelled tasks and stopped workers are
        # silenced below errors.
        with _HeldCtrlC() as held:
            made.append(LocalCluster(n_workers=max(1, jobs), threads_per_worker=1,
                                     processes=True, dashboard_address=None,
                                     silence_logs=logging.CRITICAL))
            made.append(Client(made[-1]))
        return held.pressed
    try:
        made.append(Client(cluster, timeout=CONNECT_TIMEOUT_S))
    except (OSError, TimeoutError, ValueError) as exc:  # ValueError: an address Dask refuses
        raise PnpError(f"--cluster {cluster}: cannot reach the Dask scheduler "
                       f"({type(exc).__name__}: {exc})") from None
    return False


def dask_results(setups: Sequence[SetupT], tasks: list[TaskT], jobs: int, cluster: str,
                 run_task: Callable[[Sequence[SetupT], TaskT], ResultT]) -> Iterator[ResultT]:
    """Every task's result, in task order, computed on the Dask cluster ``cluster``.

    ``run_task(setups, task)`` is the runner's (:func:`pnp.sim.runner.run_task`),
    passed in so this module needs nothing from the runner that calls it.
    Ctrl-C at any time, start-up included, closes what was started and
    raises :class:`pnp.errors.Interrupted` (:func:`pnp.sim.stopped.interrupted`).
    """
    made: list[Any] = []  # [LocalCluster,] Client: closed in reverse order below
    try:
        if _start_client(cluster, jobs, made):
            raise KeyboardInterrupt  # pressed during start-up: stop as a later one does
        client = made[-1]
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
        raise interrupted("cluster tasks cancelled") from None
    finally:
        for thing in reversed(made):
            thing.close()


__all__ = ["dask_results"]
