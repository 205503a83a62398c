"""Warm processes that answer `pnp preview`: a running `pnp watch`, or the preview server.

A cold ``pnp preview`` spends most of its time starting Python and loading
ReportLab, pdfium and Jinja. Two kinds of warm process answer it over a
local socket instead (Unix domain sockets, so neither on Windows):

- ``pnp watch GAME`` listens on ``OUT/.pnp-watch.sock`` and answers
  previews of its game;
- the **preview server** (:mod:`pnp.builder.preview_server`), one per project,
  answers previews of any game of that project. ``pnp preview`` starts it,
  detached, after its first cold render and asks it on every later run (the
  daemon pattern of dmypy or the Gradle daemon); it exits after
  ``$PNP_PREVIEW_IDLE`` seconds without a request (default 10 minutes), when
  pnp's own code changes, or when asked (``pnp preview --stop-server``).
  ``--no-server`` or ``PNP_PREVIEW_SERVER=0`` turn it off.

Either answers exactly what a cold run would write; anything it cannot
answer exactly (another game or folder, a print-service preset, changed
code) gets ``{"fallback": true}`` and the client renders cold, so the result
never depends on whether a server runs.

This module is the client side too, so it imports only the standard library
(and the costly ``socket`` and ``subprocess`` modules only where needed):
a served preview must not pay for what it does not draw.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from pnp import PROJECT_ROOT

if TYPE_CHECKING:
    import socket

#: Socket file name inside the watch's output folder.
SOCKET_NAME = ".pnp-watch.sock"
#: How long the client waits for an answer once its request is accepted (seconds).
TIMEOUT = 20.0
#: How long the client waits for the server to accept its request (seconds).
#: A server acknowledges a request as soon as it has read it, before it
#: draws anything, so a server that is alive but stuck (stopped, deadlocked)
#: costs a preview this long rather than :data:`TIMEOUT`; the client then
#: draws the card itself.
ACCEPT_TIMEOUT = 2.0
#: The line a server sends first, as soon as it has read a request.
ACCEPTED = b'{"accepted": true}\n'
#: ``PNP_PREVIEW_SERVER=0`` (or false/no/off): never ask or start a preview server.
SERVER_ENV = "PNP_PREVIEW_SERVER"
#: Seconds a preview server waits for a request before it exits.
IDLE_ENV = "PNP_PREVIEW_IDLE"
IDLE_DEFAULT = 600.0
#: Longest socket path used: AF_UNIX paths hold 104 (macOS) to 108 (Linux) bytes.
MAX_SOCKET_PATH = 100
#: The pnp package whose code a server runs (part of its identity; already resolved).
PACKAGE_DIR = PROJECT_ROOT / "pnp"
#: pnp's sub-packages that drawing a preview never imports (the engines, the
#: simulator, the rulebook, the print services): left out of the preview
#: server's code stamp, so editing them does not stop it. The server checks
#: after every request that none of them has been loaded.
NOT_IN_PREVIEWS = ("games", "sim", "rulebook", "printing")
#: Libraries whose files a preview reads; reinstalling one changes the code stamp.
STAMPED_LIBRARIES = ("click", "jinja2", "markupsafe", "reportlab", "pypdfium2_raw", "PIL",
                     "matplotlib_fontja")


def socket_path(out_dir: Path | str) -> Path:
    """Where a watcher writing to ``out_dir`` listens."""
    return Path(out_dir) / SOCKET_NAME


def exchange(request: dict[str, Any], path: Path) -> dict[str, Any] | None:
    """Send ``request`` to the process listening on ``path``; its answer, or None if none does.

    None covers every way of finding nobody: no socket file, a stale one
    (its server was killed), a server that stopped meanwhile, does not
    accept the request within :data:`ACCEPT_TIMEOUT` or does not answer
    within :data:`TIMEOUT` after that.
    """
    # ``_socket`` is what the ``socket`` module wraps; importing the wrapper
    # costs a served preview ~5-10 ms (its enum set-up), a tenth of its time.
    import _socket

    if not hasattr(_socket, "AF_UNIX") or not path.exists():
        return None
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.settimeout(ACCEPT_TIMEOUT)
        sock.connect(str(path))
        sock.sendall(json.dumps(request).encode("utf-8") + b"\n")
        data, rest = _next_line(sock, b"")
        if data == ACCEPTED:
            sock.settimeout(TIMEOUT)
            data, rest = _next_line(sock, rest)
        answer = json.loads(data.decode("utf-8"))
    except (OSError, ValueError):
        return None          # stale socket, a server that just stopped, a garbled answer
    finally:
        sock.close()
    return answer if isinstance(answer, dict) else None


def ask(request: dict[str, Any], out_dir: Path | str = "output") -> dict[str, Any] | None:
    """Send a preview request to a running watcher; None if there is none or it declines."""
    answer = exchange(request, socket_path(out_dir))
    return None if answer is None or answer.get("fallback") else answer


def _read_line(sock: Any) -> bytes:
    """Bytes from ``sock`` up to and including a newline (or until the peer closes)."""
    return _next_line(sock, b"")[0]


def _next_line(sock: Any, buffered: bytes) -> tuple[bytes, bytes]:
    """The next line (with its newline) from ``buffered`` then ``sock``, and the bytes after it.

    One ``recv`` may hold the acknowledgement and the answer together.
    """
    data = buffered
    while b"\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return data, b""          # the peer closed: whatever came
        data += chunk
    line, _, rest = data.partition(b"\n")
    return line + b"\n", rest


class PreviewServer:
    """Serves requests on a Unix socket with a handler, one at a time.

    ``pnp watch`` runs it in a thread beside its file loop (:meth:`start`);
    the preview server runs it in its main thread (:meth:`serve`). A handler
    may put ``"_exit": reason`` into its answer: the socket is then closed
    and its file removed *before* the answer is sent, so the client can start
    a new server at once, and :meth:`serve` returns ``reason``.
    """

    def __init__(self, out_dir: Path | None,
                 handler: Callable[[dict[str, Any]], dict[str, Any]],
                 lock: threading.Lock | None = None, *, path: Path | None = None) -> None:
        """Listen in ``out_dir`` (a watcher, :func:`socket_path`) or on ``path``."""
        if path is None:
            assert out_dir is not None, "PreviewServer needs out_dir or path"
            path = socket_path(out_dir)
        self.path = Path(path)
        self.handler = handler
        self.lock = lock if lock is not None else threading.Lock()
        self.sock: socket.socket | None = None
        #: (st_dev, st_ino) of the socket file we bound: only that file is ours to remove.
        self._bound: tuple[int, int] | None = None

    def bind(self) -> bool:
        """Listen on :attr:`path` (replacing a stale socket file); False if that fails.

        Unix sockets only: False on Windows.
        """
        import socket

        if not hasattr(socket, "AF_UNIX"):
            return False
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if self.path.exists():
                self.path.unlink()          # left behind by a process that was killed
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.bind(str(self.path))
            sock.listen(8)
            st = self.path.stat()
        except OSError:
            return False
        self.sock = sock
        self._bound = (st.st_dev, st.st_ino)
        return True

    def start(self) -> bool:
        """Listen in a daemon thread; False where Unix sockets are not available."""
        if not self.bind():
            return False
        threading.Thread(target=self._serve, daemon=True).start()
        return True

    def _serve(self) -> None:
        """Answer requests until the socket is closed (the thread of :meth:`start`)."""
        sock = self.sock          # stop() may clear the attribute while we wait
        assert sock is not None
        while True:
            try:
                conn, _ = sock.accept()
            except OSError:
                return
            if self._handle(conn) is not None:
                return

    def serve(self, idle: float, check: Callable[[], str | None], tick: float = 5.0) -> str:
        """Answer requests in this thread until a reason to stop; return that reason.

        Stops after ``idle`` seconds without a request, when ``check`` (called
        after every ``tick`` seconds without a request) returns a reason, or
        when a handler's answer asks to (``_exit``).
        """
        sock = self.sock
        assert sock is not None
        last = time.monotonic()
        while True:
            left = idle - (time.monotonic() - last)
            if left <= 0:
                return f"idle for {idle:g} s"
            sock.settimeout(min(tick, left))
            try:
                conn, _ = sock.accept()
            except TimeoutError:
                why = check()
                if why:
                    return why
                continue
            conn.settimeout(TIMEOUT)          # a client that never writes cannot hang us
            # (``check`` waits for the next tick: the handler checks what a
            # request depends on itself, and a request is what counts as fast)
            why = self._handle(conn)
            if why:
                return why
            last = time.monotonic()

    def _handle(self, conn: Any) -> str | None:
        """Answer one connection; return the handler's reason to exit, if it gave one."""
        with conn:
            try:
                request = json.loads(_read_line(conn).decode("utf-8"))
                if not isinstance(request, dict):
                    raise ValueError("expected a JSON object")
                # accepted before the lock: a watcher rebuilding its sheets
                # holds it for seconds, and the client only needs to know
                # that a live process has its request (ACCEPT_TIMEOUT)
                conn.sendall(ACCEPTED)
                with self.lock:
                    answer = self.handler(request)
            except Exception as exc:  # any failure: the client renders cold, we keep serving
                answer = {"fallback": True, "why": f"{type(exc).__name__}: {exc}"}
            why = answer.pop("_exit", None)
            if why:
                self.stop()          # gone before the client hears back (it may start another)
            try:
                conn.sendall(json.dumps(answer).encode("utf-8") + b"\n")
            except OSError:
                pass
        return str(why) if why else None

    def still_bound(self) -> bool:
        """True while our socket file is still there (not removed or replaced by another)."""
        try:
            st = self.path.stat()
        except OSError:
            return False
        return (st.st_dev, st.st_ino) == self._bound

    def stop(self) -> None:
        """Close the socket and remove its file (if it is still ours)."""
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        if self._bound is not None and self.still_bound():
            try:
                os.unlink(self.path)
            except OSError:
                pass
        self._bound = None


def where_key(data_dir: str | None, templates_dir: str | None) -> list[Any]:
    """The process's folder choice: cwd, ``--project`` (from argv) and the options given.

    A watcher or preview server answers a preview only when both processes
    have the same key, so both resolve every folder the same way.
    """
    argv = sys.argv[1:]
    project = None
    for i, arg in enumerate(argv):
        if arg == "--project" and i + 1 < len(argv):
            project = argv[i + 1]
        elif arg.startswith("--project="):
            project = arg.split("=", 1)[1]
    return [os.getcwd(), project, data_dir, templates_dir]


# --------------------------------------------------------------------------
# the preview server, client side: where it listens, starting and stopping it
# --------------------------------------------------------------------------

def server_enabled() -> bool:
    """False when ``PNP_PREVIEW_SERVER`` turns the server off, or on systems without AF_UNIX."""
    if os.environ.get(SERVER_ENV, "1").strip().lower() in ("0", "false", "no", "off"):
        return False
    return os.name == "posix"


def process_umask() -> int:
    """The umask (files written get 0666 less it, so a server must share the client's)."""
    mask = os.umask(0o022)        # the client is single-threaded: set and restore is safe
    os.umask(mask)
    return mask


def cache_root() -> Path:
    """pnp's cache folder: ``$PNP_CACHE_DIR``, else ``$XDG_CACHE_HOME/pnp`` or ``~/.cache/pnp``.

    The same rule as :func:`pnp.render.diskcache.cache_dir` (a test keeps them
    equal), repeated here because that module loads ReportLab.
    """
    base = os.environ.get("PNP_CACHE_DIR")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "pnp"


class ServerFiles:
    """Where one project's preview server listens, locks and logs, and what it serves.

    (A plain class: a dataclass costs the client a millisecond to define.)
    """

    __slots__ = ("socket", "lock", "log", "identity")

    def __init__(self, socket: Path, lock: Path, log: Path, identity: list[Any]) -> None:
        self.socket = socket
        self.lock = lock
        self.log = log
        #: What the server must match: the folder choice, the code, the Python, the umask.
        self.identity = identity

    @property
    def where(self) -> list[Any]:
        """The folder choice (:func:`where_key`) the server answers for."""
        return list(self.identity[0])

    def __repr__(self) -> str:
        return f"ServerFiles({str(self.socket)!r})"


def server_identity(where: list[Any], umask: int | None = None) -> list[Any]:
    """Everything a server's answers depend on besides the request and the files it reads."""
    return [where, str(PACKAGE_DIR), sys.executable, process_umask() if umask is None else umask]


def server_files(where: list[Any], umask: int | None = None) -> ServerFiles | None:
    """The preview server files of this project, or None where there can be no server.

    The name hashes :func:`server_identity`, so two checkouts of pnp, two
    Pythons or two umasks never share a server. The folder is created
    private (0700); one owned by someone else, a cache that cannot be made
    or a socket path too long for AF_UNIX mean no server (previews render
    cold).
    """
    identity = server_identity(where, umask)
    blob = json.dumps(identity).encode("utf-8")
    # crc32 + adler32 rather than hashlib: importing hashlib (OpenSSL) costs a
    # served preview a few ms; the server checks the full identity anyway.
    name = f"{zlib.crc32(blob):08x}{zlib.adler32(blob):08x}"
    folder = cache_root() / "preview-server"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = folder.stat()
        if st.st_uid != os.getuid():
            return None
        if st.st_mode & 0o077:
            os.chmod(folder, 0o700)
    except (OSError, AttributeError):      # AttributeError: no getuid (Windows)
        return None
    sock = folder / f"{name}.sock"
    if len(os.fsencode(sock)) > MAX_SOCKET_PATH:
        return None
    return ServerFiles(sock, folder / f"{name}.lock", folder / f"{name}.log", identity)


def code_stamp(skip: tuple[str, ...] = ()) -> str:
    """A fingerprint of pnp's own files and of the libraries a preview uses.

    Any edit (a ``git pull``, an upgrade) changes it; a server started
    before the change declines and exits instead of drawing with stale code.
    ``skip`` names top-level sub-packages of pnp left out (see
    :data:`NOT_IN_PREVIEWS`). It costs about a millisecond (a ``stat`` per
    file).
    """
    import importlib.util

    parts: list[str] = []
    for folder, dirs, files in os.walk(PACKAGE_DIR):
        # compiled bytecode follows the sources; _shipped holds a wheel's games,
        # which the servers watch as project files
        top = folder == str(PACKAGE_DIR)
        dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", "_shipped")
                         and not (top and d in skip))
        for name in sorted(files):
            try:
                st = os.stat(os.path.join(folder, name))
            except OSError:
                continue
            parts.append(f"{folder}/{name}:{st.st_mtime_ns}:{st.st_size}")
    for lib in STAMPED_LIBRARIES:
        try:
            spec = importlib.util.find_spec(lib)
        except (ImportError, ValueError):
            spec = None
        origin = spec.origin if spec is not None else None
        lib_st: os.stat_result | None = None
        try:
            # a reinstall replaces the package folder: new inode or mtime
            lib_st = os.stat(os.path.dirname(origin)) if origin else None
        except OSError:
            pass
        parts.append(f"{lib}:{lib_st.st_ino}:{lib_st.st_mtime_ns}" if lib_st else f"{lib}:-")
    blob = "\n".join(parts).encode("utf-8")
    return f"{zlib.crc32(blob):08x}{zlib.adler32(blob):08x}{len(parts)}"


def start_server(files: ServerFiles) -> bool:
    """Start the project's preview server, detached; False if it could not be started.

    It outlives this process (a session of its own, no terminal), writes
    its few log lines to ``files.log`` and, if another server got there
    first, exits at once.
    """
    import subprocess

    try:
        with open(files.log, "ab") as log:
            subprocess.Popen(
                # -P: not the working folder first on sys.path, so the server
                # imports the same pnp as this process (it checks that, too)
                [sys.executable, "-P", "-m", "pnp.builder.preview_server", str(files.socket),
                 json.dumps(files.identity), code_stamp(NOT_IN_PREVIEWS)],
                cwd=files.where[0], stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                start_new_session=True, close_fds=True)
    except OSError:
        return False
    return True


def stop_server(files: ServerFiles) -> int | None:
    """Ask the project's preview server to exit; its process id, or None if none ran."""
    answer = exchange({"op": "stop", "where": files.where}, files.socket)
    pid = answer.get("stopped") if answer else None
    return int(pid) if isinstance(pid, int) else None
