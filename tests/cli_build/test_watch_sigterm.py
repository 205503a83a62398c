"""`pnp watch` stopped by SIGTERM (kill, timeout) cleans up as after Ctrl-C."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

CORPUS = Path(__file__).parents[1] / "bad_input" / "project"


def test_sigterm_removes_the_watchers_socket(tmp_path: Path) -> None:
    project = tmp_path / "corpus"
    shutil.copytree(CORPUS, project)
    socket = project / "output" / ".pnp-watch.sock"
    env = dict(os.environ, PNP_CACHE_DIR=str(tmp_path / "cache"))
    child = subprocess.Popen(
        [sys.executable, "-c", "from pnp.cli import main; main()", "--project", str(project),
         "watch", "toy", "--no-pdf", "--interval", "0.05"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        for _ in range(600):                  # until the watcher listens (or it ended)
            if socket.exists() or child.poll() is not None:
                break
            time.sleep(0.05)
        assert socket.exists(), child.communicate(timeout=30)
        child.send_signal(signal.SIGTERM)
        out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 130, (out, err)
    assert err.strip().splitlines()[-1] == "interrupted"
    assert "Traceback" not in err
    assert not socket.exists()
