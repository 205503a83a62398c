"""`pnp watch` answers `pnp preview` from its warm process.

A cold ``pnp preview`` spends most of its time starting Python and loading
ReportLab, pdfium and Jinja. While ``pnp watch GAME`` runs it listens on a
local socket (``OUT/.pnp-watch.sock``; Unix domain sockets, so not on
Windows) and ``pnp preview`` of that game asks it first: templates are
compiled, fonts loaded and the game's data read already, so the card is
drawn at once. Anything the watcher cannot answer exactly as a cold run
would (another game, other folders, a print-service preset) gets
``{"fallback": true}`` and the client renders cold, so the answer never
depends on whether a watcher runs.

The client side (:func:`ask`) imports only the standard library.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
from pathlib import Path
from typing import Any, Callable

#: Socket file name inside the watch's output folder.
SOCKET_NAME = ".pnp-watch.sock"
#: How long the client waits for the watcher's answer (seconds).
TIMEOUT = 20.0


def socket_path(out_dir: Path | str) -> Path:
    """Where a watcher writing to ``out_dir`` listens."""
    return Path(out_dir) / SOCKET_NAME


def ask(request: dict[str, Any], out_dir: Path | str = "output") -> dict[str, Any] | None:
    """Send a preview request to a running watcher; None if there is none to ask."""
    path = socket_path(out_dir)
    if not hasattr(socket, "AF_UNIX") or not path.exists():
        return None
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(TIMEOUT)
            s.connect(str(path))
            s.sendall(json.dumps(request).encode("utf-8") + b"\n")
            data = _read_line(s)
        answer = json.loads(data.decode("utf-8"))
    except (OSError, ValueError):
        return None          # a stale socket or a watcher that just stopped: render cold
    return None if answer.get("fallback") else answer


def _read_line(sock: socket.socket) -> bytes:
    """Bytes from ``sock`` up to and including a newline (or until the peer closes)."""
    data = b""
    while not data.endswith(b"\n"):
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


class PreviewServer:
    """Serves preview requests on a Unix socket with a handler, one at a time."""

    def __init__(self, out_dir: Path, handler: Callable[[dict[str, Any]], dict[str, Any]],
                 lock: threading.Lock) -> None:
        self.path = socket_path(out_dir)
        self.handler = handler
        self.lock = lock
        self.sock: socket.socket | None = None

    def start(self) -> bool:
        """Listen in a daemon thread; False where Unix sockets are not available."""
        if not hasattr(socket, "AF_UNIX"):
            return False
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if self.path.exists():
                self.path.unlink()          # left behind by a watcher that was killed
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.bind(str(self.path))
            sock.listen(4)
        except OSError:
            return False
        self.sock = sock
        threading.Thread(target=self._serve, daemon=True).start()
        return True

    def _serve(self) -> None:
        """Answer requests until the socket is closed."""
        sock = self.sock          # stop() may clear the attribute while we wait
        assert sock is not None
        while True:
            try:
                conn, _ = sock.accept()
            except OSError:
                return
            with conn:
                try:
                    request = json.loads(_read_line(conn).decode("utf-8"))
                    with self.lock:
                        answer = self.handler(request)
                except Exception as exc:  # any failure: the client renders cold
                    answer = {"fallback": True, "why": f"{type(exc).__name__}: {exc}"}
                try:
                    conn.sendall(json.dumps(answer).encode("utf-8") + b"\n")
                except OSError:
                    pass

    def stop(self) -> None:
        """Close the socket and remove its file."""
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        try:
            os.unlink(self.path)
        except OSError:
            pass


def where_key(data_dir: str | None, templates_dir: str | None) -> list[Any]:
    """The process's folder choice: cwd, ``--project`` (from argv) and the options given.

    A watcher answers a preview only when both processes have the same key,
    so both resolve every folder the same way.
    """
    argv = sys.argv[1:]
    project = None
    for i, arg in enumerate(argv):
        if arg == "--project" and i + 1 < len(argv):
            project = argv[i + 1]
        elif arg.startswith("--project="):
            project = arg.split("=", 1)[1]
    return [os.getcwd(), project, data_dir, templates_dir]
