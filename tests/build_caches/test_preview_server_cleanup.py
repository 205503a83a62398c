"""Old preview-server files (lock, log, socket of projects no longer used) are removed.

A server tidies ``<cache>/preview-server/`` when it starts: groups of files
untouched for :data:`STALE_SECONDS` go, unless a live server holds their lock.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pnp import PROJECT_ROOT
from pnp.builder import serve
from pnp.builder.preview_server import STALE_SECONDS, _lock_is_current, remove_stale_files

UNIX = hasattr(socket, "AF_UNIX")
OLD = time.time() - STALE_SECONDS - 3600


def _group(folder: Path, stem: str, *, age: float | None = None,
           suffixes: tuple[str, ...] = (".lock", ".log", ".sock")) -> list[Path]:
    """Server files named ``stem`` in ``folder``, last changed at ``age`` (default: now)."""
    paths = []
    for suffix in suffixes:
        path = folder / f"{stem}{suffix}"
        path.write_text("x", encoding="utf-8")
        if age is not None:
            os.utime(path, (age, age))
        paths.append(path)
    return paths


def test_unused_groups_go_recent_locked_and_own_ones_stay(tmp_path: Path) -> None:
    """Only groups old in every file and not locked are removed; other files are left alone."""
    if not UNIX:                      # Windows: no preview server, no locks
        return
    import fcntl

    old = _group(tmp_path, "a" * 16, age=OLD)
    half = _group(tmp_path, "b" * 16, age=OLD)
    os.utime(half[1], None)                      # its log was written just now: in use
    recent = _group(tmp_path, "c" * 16)
    live = _group(tmp_path, "d" * 16, age=OLD)   # a server runs: it holds the lock
    own = _group(tmp_path, "e" * 16, age=OLD)
    no_lock = _group(tmp_path, "f" * 16, age=OLD, suffixes=(".log",))
    other = tmp_path / "notes.txt"
    other.write_text("mine", encoding="utf-8")
    os.utime(other, (OLD, OLD))
    fd = os.open(live[0], os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        removed = remove_stale_files(tmp_path, keep="e" * 16)
    finally:
        os.close(fd)
    assert removed == ["a" * 16, "f" * 16]
    assert not any(p.exists() for p in old + no_lock)
    assert all(p.exists() for p in half + recent + live + own + [other])


def test_a_lock_file_replaced_after_it_was_opened_is_noticed(tmp_path: Path) -> None:
    """A server whose lock file was removed meanwhile sees it (and exits rather than serve)."""
    lock = tmp_path / "x.lock"
    lock.write_text("", encoding="utf-8")
    fd = os.open(lock, os.O_RDWR)
    try:
        assert _lock_is_current(fd, lock)
        lock.unlink()
        assert not _lock_is_current(fd, lock)
        lock.write_text("", encoding="utf-8")     # another process made a new one
        assert not _lock_is_current(fd, lock)
    finally:
        os.close(fd)


def test_a_starting_server_removes_old_files_and_keeps_a_live_servers(tmp_path: Path) -> None:
    """End to end: a real server starts, tidies the folder, serves, and leaves when idle."""
    if not UNIX:                      # Windows: no preview server, nothing to tidy
        return
    import fcntl

    cache = Path(tempfile.mkdtemp(prefix="pnpc-"))   # short: socket paths are limited
    try:
        env = dict(os.environ, PNP_CACHE_DIR=str(cache), PNP_PREVIEW_IDLE="0.5",
                   PYTHONPATH=str(PROJECT_ROOT))
        os.environ["PNP_CACHE_DIR"] = str(cache)
        try:
            files = serve.server_files([str(tmp_path), None, None, None])
        finally:
            del os.environ["PNP_CACHE_DIR"]
        assert files is not None
        folder = files.lock.parent
        old = _group(folder, "0" * 16, age=OLD)
        live = _group(folder, "1" * 16, age=OLD)
        fd = os.open(live[0], os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            done = subprocess.run(
                [sys.executable, "-P", "-m", "pnp.builder.preview_server", str(files.socket),
                 json.dumps(files.identity), serve.code_stamp(serve.NOT_IN_PREVIEWS)],
                cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
        finally:
            os.close(fd)
        assert done.returncode == 0, done.stderr
        assert "removed the files of 1 preview server(s)" in done.stdout, done.stdout
        assert "stopped: idle" in done.stdout, done.stdout
        assert not any(p.exists() for p in old)
        assert all(p.exists() for p in live)
        assert files.lock.exists()                   # its own lock stays
    finally:
        shutil.rmtree(cache, ignore_errors=True)
