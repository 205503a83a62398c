"""A `pnp watch` child process for the tests that stop one (Ctrl-C, SIGTERM).

Shared by test_interrupt_every_command.py and test_watch_sigterm.py: start
the watcher on a copy of the bad-input corpus, read its lines until one
starts with a prefix, signal it, collect the rest, never leave it running.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

CORPUS = Path(__file__).parents[1] / "bad_input" / "project"


class WatchChild:
    """A running `pnp --project <copy> watch toy --no-pdf`, and every stdout line it printed."""

    def __init__(self, project: Path, cache: Path) -> None:
        """Copy the corpus to ``project`` and start the watcher with its own cache."""
        shutil.copytree(CORPUS, project)
        self.project = project
        env = dict(os.environ, PNP_CACHE_DIR=str(cache))
        env.pop("PNP_INTERRUPT_AFTER", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "pnp.cli", "--project", str(project), "watch", "toy",
             "--no-pdf", "--interval", "0.05"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.lines: list[str] = []
        self.err = ""

    def wait_for(self, prefix: str, settle: float = 0.0) -> None:
        """Read lines until one starts with ``prefix``; then wait ``settle`` s (its other lines)."""
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                time.sleep(settle)
                return
        raise AssertionError(f"the watcher ended before printing {prefix!r}: {self.lines}")

    def stop(self, signum: int) -> int:
        """Send ``signum``, collect the rest of its output; return its exit code."""
        self.proc.send_signal(signum)
        out, self.err = self.proc.communicate(timeout=60)
        self.lines += out.splitlines()
        return self.proc.returncode


@contextmanager
def watching(project: Path, cache: Path) -> Iterator[WatchChild]:
    """A :class:`WatchChild` that is killed if the test ends with it still running."""
    child = WatchChild(project, cache)
    try:
        yield child
    finally:
        if child.proc.poll() is None:
            child.proc.kill()
            child.proc.communicate()
