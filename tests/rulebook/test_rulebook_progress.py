"""`pnp rulebook` shows a progress bar on stderr as build, preflight and check do; -q hides it."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main


def test_bar_on_stderr_and_quiet_hides_it(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The bar's label goes to stderr, the file list to stdout; -q leaves the list alone."""
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    args = ["rulebook", "fortuna", "--lang", "en", "--format", "pdf", "--format", "md",
            "--out", str(tmp_path / "out"), "-j", "1"]
    loud = CliRunner().invoke(main, args)
    assert loud.exit_code == 0, loud.output
    assert "Writing rulebooks" in loud.stderr and "Writing rulebooks" not in loud.stdout
    quiet = CliRunner().invoke(main, args + ["-q"])
    assert quiet.exit_code == 0, quiet.output
    assert quiet.stderr == ""
    assert quiet.stdout == loud.stdout
    assert quiet.stdout.splitlines()[0] == \
        f"wrote {tmp_path / 'out' / 'fortuna' / 'rulebook-en-a5.pdf'}"


def test_bar_counts_books_on_a_terminal(tmp_path: Path) -> None:
    """On a terminal the bar moves per game's books, ends at 100 %, before the file list."""
    main_fd, child_fd = pty.openpty()
    env = dict(os.environ, PNP_CACHE_DIR=str(tmp_path / "cache"), COLUMNS="100")
    proc = subprocess.run([sys.executable, "-m", "pnp.cli", "rulebook", "fortuna", "undecim",
                           "--lang", "en", "--out", str(tmp_path / "out"), "-j", "1"],
                          stdout=subprocess.PIPE, stderr=child_fd, env=env, cwd=tmp_path,
                          timeout=300)
    os.close(child_fd)
    chunks = []
    while True:
        try:
            data = os.read(main_fd, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.close(main_fd)
    bar = b"".join(chunks).decode("utf-8", "replace")
    assert proc.returncode == 0
    assert "Writing rulebooks" in bar and " 50%" in bar and "100%" in bar
    assert proc.stdout.decode().count("wrote ") == 2
