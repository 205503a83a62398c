"""A preview server acknowledges a request before drawing, so a stuck one costs seconds, not 20."""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from pnp.builder import serve

pytestmark = pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="Unix sockets only")


def _ask_in_thread(path: Path) -> tuple[threading.Thread, list[Any]]:
    """Run :func:`serve.exchange` on ``path`` in a thread; its answer lands in the list."""
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(serve.exchange({"x": 1}, path)),
                              daemon=True)
    thread.start()
    return thread, out


@pytest.fixture
def short_accept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Accept within 0.3 s, answer within an hour: only the acknowledgement can end a wait early."""
    monkeypatch.setattr(serve, "ACCEPT_TIMEOUT", 0.3)
    monkeypatch.setattr(serve, "TIMEOUT", 3600.0)


def test_a_stuck_server_is_given_up_at_the_accept_timeout(tmp_path: Path,
                                                          short_accept: None) -> None:
    """A process that holds the socket but never reads (stopped, deadlocked): the client gives up."""
    path = tmp_path / "s.sock"
    stuck = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stuck.bind(str(path))
    stuck.listen(8)                      # connections queue, nobody accepts them
    try:
        thread, out = _ask_in_thread(path)
        thread.join(30)                  # an hour if the acknowledgement were not waited for
        assert not thread.is_alive()
        assert out == [None]             # None: the client draws the card itself
    finally:
        stuck.close()


def test_a_busy_watcher_accepts_at_once_and_answers_when_free(tmp_path: Path,
                                                              short_accept: None) -> None:
    """The acknowledgement comes before the lock a rebuilding watcher holds for seconds."""
    lock = threading.Lock()
    server = serve.PreviewServer(None, lambda request: {"paths": ["a.png"], "got": request},
                                 lock, path=tmp_path / "w.sock")
    assert server.start()
    try:
        with lock:                       # the watcher's file loop is rebuilding
            thread, out = _ask_in_thread(server.path)
            time.sleep(1.0)              # well past the accept timeout
            assert thread.is_alive()     # still waiting: accepted, not given up
        thread.join(30)
        assert out == [{"paths": ["a.png"], "got": {"x": 1}}]
    finally:
        server.stop()


@pytest.mark.parametrize("lines", [
    [serve.ACCEPTED + b'{"paths": ["b.png"]}\n'],             # both lines in one read
    [serve.ACCEPTED, b'{"paths": ["b.png"]}\n'],              # two reads
    [b'{"paths": ["b.png"]}\n'],                              # an answer with no acknowledgement
])
def test_answers_are_read_however_they_arrive(tmp_path: Path, lines: list[bytes]) -> None:
    """The client takes the answer after the acknowledgement, whatever the reads hold."""
    path = tmp_path / "f.sock"
    fake = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    fake.bind(str(path))
    fake.listen(1)

    def answer() -> None:
        conn, _ = fake.accept()
        with conn:
            assert json.loads(serve._read_line(conn)) == {"x": 1}
            for part in lines:
                conn.sendall(part)
                time.sleep(0.05)

    helper = threading.Thread(target=answer, daemon=True)
    helper.start()
    try:
        assert serve.exchange({"x": 1}, path) == {"paths": ["b.png"]}
    finally:
        helper.join(10)
        fake.close()
