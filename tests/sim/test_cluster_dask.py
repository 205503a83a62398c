"""A two-parameter sweep on a Dask LocalCluster gives exactly the local result; Ctrl-C
at any time (start-up included) stops a cluster run with one line and no worker left."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.data import load_game_data
from pnp.errors import PnpError
from pnp.sim import run_sweep, simulate

DATA = Path(__file__).resolve().parents[2] / "card_data"
SWEEPS = ["hand_size=6,7", "end_deck_size=5,7"]


def test_two_parameter_sweep_on_local_cluster_equals_local() -> None:
    """Same seed, same grid: the sweep JSON (paired differences included) is identical."""
    data = load_game_data(DATA, "fortuna", strict=True)
    kwargs = dict(players=4, games=300, bots="greedy,random", seed=11, params={},
                  invariants="off")
    _text, local, code = run_sweep(data, SWEEPS, jobs=2, **kwargs)  # type: ignore[arg-type]
    _text2, dask, code2 = run_sweep(data, SWEEPS, jobs=2, cluster="local",
                                    **kwargs)  # type: ignore[arg-type]
    assert code == code2 == 0
    assert len(local["rows"]) == 4 and all("paired" in r for r in local["rows"][1:])
    assert dask == local


def test_bad_cluster_is_one_line() -> None:
    """--cluster nonsense: a PnpError naming the expected forms, before any game."""
    from pnp.games import make_game
    game = make_game(load_game_data(DATA, "fortuna", strict=True))
    with pytest.raises(PnpError, match="expected 'local' or a scheduler address"):
        simulate(game, 4, 10, ["random"], 1, invariants="off", cluster="my-scheduler")


def _session_members(sid: int) -> int:
    """How many live processes belong to session ``sid`` (Linux /proc), the leader included."""
    count = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended while we looked
            continue
        count += int(fields[3]) == sid  # field 6 of stat, the session id
    return count


#: The one line a Ctrl-C during a cluster run ends with.
_STOPPED = "error: interrupted: cluster tasks cancelled; nothing was written"


def _assert_stopped(proc: "subprocess.Popen[bytes]", text: str, deadline: float,
                    last_only: bool) -> None:
    """Exit 130, no traceback or Dask warning, the one line (last, or only), no worker left."""
    import time

    assert proc.returncode == 130, text
    assert "Traceback" not in text and "WARNING" not in text, text
    lines = text.strip().splitlines()
    assert (lines[-1:] if last_only else lines) == [_STOPPED], text
    # no worker left behind (a worker may take a moment to finish exiting)
    while _session_members(proc.pid) and time.monotonic() < deadline + 20:
        time.sleep(0.2)
    assert _session_members(proc.pid) == 0


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_ctrl_c_on_a_local_cluster_is_one_line() -> None:
    """Ctrl-C (SIGINT to the whole process group) mid-run: exit 130, one line, no traceback.

    Before, every Dask worker got the SIGINT too and printed a traceback, and
    Dask logged warnings about cancelled tasks and stopped workers.
    """
    import os
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen([sys.executable, "-m", "pnp.cli", "simulate", "fortuna", "--games",
                             "200000", "--cluster", "local", "--jobs", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        # the parent plus its two workers: the cluster is up and games are running
        while _session_members(proc.pid) < 3 and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(3)
        assert proc.poll() is None, proc.communicate()[1].decode()
        os.killpg(proc.pid, signal.SIGINT)   # what a terminal's Ctrl-C does
        _out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    _assert_stopped(proc, err.decode(), deadline, last_only=True)


#: Run ``pnp simulate`` with a LocalCluster whose start-up pauses at a marker:
#: it touches argv[1] and waits for argv[2], "before" or "after" (argv[3]) the
#: cluster's workers are started: the test presses Ctrl-C in between, so the
#: interrupt lands inside start-up every time, however slow the machine.
_PAUSED_START = """
import sys, time
from pathlib import Path
import dask.distributed as dd

marker, go, when = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]


def pause():
    marker.touch()
    deadline = time.monotonic() + 120
    while not go.exists() and time.monotonic() < deadline:
        time.sleep(0.02)


class PausedCluster(dd.LocalCluster):
    def __init__(self, *args, **kwargs):
        if when == "before":
            pause()
        super().__init__(*args, **kwargs)
        if when == "after":
            pause()


dd.LocalCluster = PausedCluster
from pnp.cli import main
sys.argv = ["pnp", "simulate", "fortuna", "--games", "400", "--cluster", "local",
            "--jobs", "2", "-q"]
main()
"""


@pytest.mark.parametrize("when", ["before", "after"])
def test_ctrl_c_while_the_local_cluster_starts_is_not_lost(tmp_path: Path, when: str) -> None:
    """Ctrl-C while the LocalCluster starts (before or after its workers are up): exit 130
    with the later-Ctrl-C line, no traceback, no worker left.

    Before, SIGINT was ignored during start-up, so this run went on and
    played its 400 games (exit 0).
    """
    import os
    import signal
    import subprocess
    import sys
    import time

    marker, go = tmp_path / "starting", tmp_path / "go"
    proc = subprocess.Popen([sys.executable, "-c", _PAUSED_START, str(marker), str(go), when],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True,
                            env={**os.environ, "PNP_CACHE_DIR": str(tmp_path / "cache")})
    try:
        deadline = time.monotonic() + 120
        while not marker.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)  # waiting for the marker, not for a guessed moment
        assert marker.exists(), proc.communicate()[1].decode()
        if when == "after":
            assert _session_members(proc.pid) >= 3  # the parent and its two workers
        os.killpg(proc.pid, signal.SIGINT)   # what a terminal's Ctrl-C does
        go.touch()
        _out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    _assert_stopped(proc, err.decode(), deadline, last_only=False)
