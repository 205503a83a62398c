"""`pnp watch` stopped by SIGTERM (kill, timeout) cleans up and ends as after Ctrl-C.

Stopped while waiting, that is a watch's normal end: exit 0 and "stopped
watching …" (tests/cli_build/test_interrupt_every_command.py has Ctrl-C).
"""

from __future__ import annotations

import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from watch_child import watching  # noqa: E402  tests/cli_build/watch_child.py


def test_sigterm_removes_the_watchers_socket(tmp_path: Path) -> None:
    project = tmp_path / "corpus"
    with watching(project, tmp_path / "cache") as child:
        child.wait_for("rebuilt", settle=0.3)      # the first build done: waiting
        socket = project / "output" / ".pnp-watch.sock"
        assert socket.exists(), child.lines
        code = child.stop(signal.SIGTERM)
    assert code == 0, (child.lines, child.err)
    assert child.lines[-1] == "stopped watching toy after the first build and 0 rebuild(s)"
    assert "Traceback" not in child.err
    assert not socket.exists()
