"""The preview server, and the one piece of code with which it and `pnp watch` answer previews.

:class:`PreviewAnswerer` renders a ``pnp preview`` request with warm Jinja
environments exactly as a cold run would: before each request it checks
that nothing it cannot see through has changed (pnp's code, the umask, the
working folder) and takes a stat snapshot of the templates folder, clearing
the render caches when a template, icon or image changed (Jinja's
``auto_reload`` alone would miss an icon: the caches are keyed by markup).
Card data is read afresh for every request, as a cold run reads it.

Run as ``python -m pnp.builder.preview_server SOCKET IDENTITY STAMP`` (by
:func:`pnp.builder.serve.start_server`, never by hand) it is the project's
background preview server: it serves every game of one project, one
request at a time, and exits when idle, when pnp's code changes, when its
socket file disappears or when asked (see :mod:`pnp.builder.serve`).

Module-level imports are the standard library only: the stamp of pnp's
code must be compared before anything else of pnp is loaded.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp.builder import serve

if TYPE_CHECKING:
    from pnp.render.jinja_env import PnpEnvironment

#: Files of the templates folder whose change clears the render caches.
WATCHED_SUFFIXES = (".csv", ".toml", ".j2", ".svg", ".png", ".jpg", ".jpeg")
#: Icon and image files: their change clears the render caches (keyed by markup).
IMAGE_SUFFIXES = (".svg", ".png", ".jpg", ".jpeg")
#: A log larger than this is emptied when a server starts.
LOG_LIMIT = 256 * 1024
#: Server files (lock, log, socket) of a project untouched for this long are
#: removed when another server starts (:func:`remove_stale_files`), in seconds.
STALE_SECONDS = 14 * 24 * 3600
#: Suffixes of one server's files in ``<cache>/preview-server/``.
SERVER_SUFFIXES = (".lock", ".log", ".sock")


def snapshot(folders: list[Path]) -> dict[Path, tuple[int, int]]:
    """(mtime_ns, size) of every watched file under ``folders``.

    (``os.walk`` rather than ``Path.rglob``: a few times quicker, and the
    server takes one before every request.)
    """
    out: dict[Path, tuple[int, int]] = {}
    for folder in folders:
        for top, _dirs, files in os.walk(folder):
            for name in files:
                if name.lower().endswith(WATCHED_SUFFIXES):
                    path = os.path.join(top, name)
                    try:
                        st = os.stat(path)
                    except OSError:
                        continue
                    out[Path(path)] = (st.st_mtime_ns, st.st_size)
    return out


def changed_files(before: dict[Path, tuple[int, int]],
                  now: dict[Path, tuple[int, int]]) -> set[Path]:
    """Files added, removed or changed between two :func:`snapshot` results."""
    return {p for p in before.keys() | now.keys() if now.get(p) != before.get(p)}


def clear_render_caches(env: PnpEnvironment) -> None:
    """Forget every rendered layout, icon look-up and image size (after an icon or image changed).

    Layouts and icon look-ups are cached by the markup alone, and image
    sizes by path, so a changed file behind an unchanged name would
    otherwise keep its old picture.
    """
    from pnp.render import markup

    env.layout_cache.clear()
    env.resolvers.clear()
    markup._image_sizes.clear()


def _same_folder(a: str) -> bool:
    """True if the working folder is still the folder called ``a`` (not deleted, not replaced)."""
    try:
        return os.path.samestat(os.stat("."), os.stat(a))
    except OSError:
        return False


class PreviewAnswerer:
    """Answers `pnp preview` requests with warm environments, byte for byte as a cold run.

    ``where`` is the folder choice (:func:`pnp.builder.serve.where_key`) this
    process answers for; ``only_slug`` limits it to one game (a watcher);
    ``envs`` seeds the warm environments by templates folder (a watcher's
    own); ``stamp`` is :func:`pnp.builder.serve.code_stamp` as of the code this
    process runs.
    """

    def __init__(self, where: list[Any], *, only_slug: str | None = None,
                 envs: dict[Path, PnpEnvironment] | None = None, stamp: str | None = None,
                 skip: tuple[str, ...] = ()) -> None:
        self.where = list(where)
        self.only_slug = only_slug
        self.envs: dict[Path, PnpEnvironment] = dict(envs or {})
        #: Sub-packages of pnp left out of the code stamp (:data:`serve.NOT_IN_PREVIEWS`)
        self.skip = skip
        self.stamp = stamp if stamp is not None else serve.code_stamp(skip)
        from pnp.fileio import current_umask

        # (read, not set and restored: a watcher has other threads)
        self.umask = current_umask()
        self._seen: dict[Path, dict[Path, tuple[int, int]]] = {}
        #: Requests answered with pictures or a user error.
        self.served = 0

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        """The answer to one request: ``paths`` written, a one-line ``error``, or ``fallback``.

        A fallback with ``restart`` means this process can no longer answer
        exactly (its code changed, its folder was replaced): a server exits.
        """
        if request.get("preset") or request.get("where") != self.where \
                or not request.get("out_dir") or request.get("cwd") != self.where[0]:
            return {"fallback": True, "why": "not this process's folders, or a preset"}
        if request.get("umask") is not None and request["umask"] != self.umask:
            return {"fallback": True, "why": "another umask"}
        if serve.code_stamp(self.skip) != self.stamp:
            return {"fallback": True, "restart": True, "why": "pnp's code changed"}
        if not _same_folder(self.where[0]):
            return {"fallback": True, "restart": True, "why": "the working folder was replaced"}
        from pnp.errors import PnpError
        from pnp.project import Project

        _, project, data_dir, templates_dir = self.where
        try:
            active = Project.resolve(project)
        except PnpError:
            return {"fallback": True, "why": "project folder gone"}
        warnings: list[str] = []
        with active.activated():
            try:
                paths = self._render(request, data_dir, templates_dir, warnings)
            except PnpError as exc:
                self.served += 1
                return {"error": str(exc), "exit_code": exc.exit_code}
        if paths is None:
            return {"fallback": True, "why": "another game"}
        self.served += 1
        # the small-text lines a cold preview prints (pnp.builder.preview), printed
        # by the asking process as if it had drawn the cards itself
        return {"paths": [str(p) for p in paths], "warnings": warnings}

    def _render(self, request: dict[str, Any], data_dir: str | None,
                templates_dir: str | None, warnings: list[str]) -> list[Path] | None:
        """Write the request's pictures as ``pnp preview`` does; None for another game.

        ``warnings`` gets the lines a cold ``pnp preview`` would print.
        """
        from pnp import fileio
        from pnp.builder.cards import resolve_templates_dir
        from pnp.builder.preview import write_previews
        from pnp.data import resolve_data_dir, resolve_slugs
        from pnp.errors import PnpError

        data = Path(data_dir) if data_dir is not None else None
        if self.only_slug is not None:
            (slug,) = resolve_slugs(resolve_data_dir(data), [request["game"]])
            if slug != self.only_slug:
                return None
        try:
            tdir = resolve_templates_dir(Path(templates_dir) if templates_dir else None)
        except PnpError:
            return None        # a cold run says so, after any data error: let it
        env = self.environment(tdir)
        # a cold process sweeps stale temp files from each folder it writes
        # into once; so does every request here
        fileio._SWEPT.clear()
        return write_previews(request["game"], request.get("deck"),
                              [str(c) for c in request.get("card_ids", [])],
                              out_dir=Path(request["out_dir"]), dpi=int(request["dpi"]),
                              show_bleed=bool(request["show_bleed"]), data_dir=data,
                              templates_dir=Path(templates_dir) if templates_dir else None,
                              sheet=bool(request.get("sheet")), env=env,
                              warnings=warnings)

    def unstamped_modules(self) -> list[str]:
        """Loaded modules of the sub-packages the code stamp leaves out (none, normally)."""
        prefixes = tuple(f"pnp.{name}" for name in self.skip)
        return sorted(m for m in sys.modules
                      if m in prefixes or m.startswith(tuple(p + "." for p in prefixes)))

    def preload(self) -> None:
        """Create the environment of this project's templates and load every template into it.

        (From Jinja's bytecode cache, so the first preview of any game finds
        its templates loaded; one that fails to load is left for a request
        to report.)
        """
        from pnp.builder.cards import resolve_templates_dir
        from pnp.errors import PnpError
        from pnp.project import Project

        _, project, _, templates_dir = self.where
        try:
            with Project.resolve(project).activated():
                tdir = resolve_templates_dir(Path(templates_dir) if templates_dir else None)
        except PnpError:
            return
        env = self.environment(tdir)
        for name in env.list_templates(filter_func=lambda n: n.endswith(".j2")):
            try:
                env.get_template(name)
            except Exception:  # a broken template: its preview says so, exactly as cold
                continue

    def environment(self, tdir: Path) -> PnpEnvironment:
        """The warm environment of ``tdir``, its caches cleared if a file in it changed."""
        from pnp.render.jinja_env import make_environment

        now = snapshot([tdir])
        env = self.envs.get(tdir)
        if env is None:
            env = self.envs[tdir] = make_environment(tdir)
        elif now != self._seen.get(tdir, now):
            changed = changed_files(self._seen[tdir], now)
            if any(p.suffix.lower() in IMAGE_SUFFIXES for p in changed):
                clear_render_caches(env)
            if env.cache is not None:
                # Jinja reloads a template whose mtime changed; dropping its cache
                # also covers an edit that kept the mtime (a copy with -p, a tool)
                env.cache.clear()
        self._seen[tdir] = now
        return env


# --------------------------------------------------------------------------
# the background server process
# --------------------------------------------------------------------------

def _log(message: str) -> None:
    """One line on stdout, which :func:`pnp.builder.serve.start_server` sends to the log file."""
    print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} [{os.getpid()}] {message}", flush=True)


def _idle_seconds() -> float:
    """``$PNP_PREVIEW_IDLE`` (seconds, > 0), else the default of 10 minutes."""
    raw = os.environ.get(serve.IDLE_ENV, "")
    try:
        value = float(raw)
    except ValueError:
        return serve.IDLE_DEFAULT
    return value if value > 0 else serve.IDLE_DEFAULT


class ServerHandler:
    """The server's request handler: stop and status requests, previews by the answerer."""

    def __init__(self, answerer: PreviewAnswerer, files: serve.ServerFiles) -> None:
        self.answerer = answerer
        self.files = files

    def __call__(self, request: dict[str, Any]) -> dict[str, Any]:
        """Answer one request (see :class:`pnp.builder.serve.PreviewServer`)."""
        op = request.get("op", "preview")
        if request.get("where") != self.files.where:
            return {"fallback": True, "why": "another project"}
        if op == "stop":
            return {"stopped": os.getpid(), "_exit": "asked to stop"}
        if op == "status":
            return {"pid": os.getpid(), "served": self.answerer.served,
                    "stamp": self.answerer.stamp, "cpu": time.process_time()}
        answer = self.answerer.answer(request)
        if answer.get("restart"):
            answer["_exit"] = answer["why"]
        elif self.answerer.unstamped_modules():
            # this answer is right (the module was loaded just now), but later
            # ones could draw with it after an edit the stamp does not see
            answer["_exit"] = ("a preview loaded " + ", ".join(self.answerer.unstamped_modules())
                               + ", which the code stamp leaves out")
        return answer


def _warm_up() -> None:
    """Load what every preview needs once: the render modules, the fonts, PDFium, the PNG encoder.

    It draws a throwaway page with each font into memory (reading the font
    files, ~6 MB for IPAexGothic) and rasterises and encodes it, so the
    first served preview costs what every later one does. Nothing is written.
    """
    import io

    from reportlab.pdfgen.canvas import Canvas

    import pnp.builder.preview  # noqa: F401  (the modules a request uses)
    from pnp.render.fonts import FONT_DISPLAY, FONT_JA, FONT_LATIN, canvas_kwargs, ensure_font
    from pnp.render.preview import rasterise

    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(40, 20), invariant=1, **canvas_kwargs())
    for font in (FONT_JA, FONT_DISPLAY, FONT_LATIN):
        ensure_font(font)
        c.setFont(font, 8)
        c.drawString(2, 6, "Aa 1 あア漢")
    c.showPage()
    c.save()
    for image in rasterise(buf.getvalue(), 1.0):
        image.save(io.BytesIO(), "PNG", compress_level=1)


def remove_stale_files(folder: Path, keep: str, *, now: float | None = None,
                       max_age: float = STALE_SECONDS) -> list[str]:
    """Remove the lock, log and socket of servers unused for ``max_age`` seconds; their names.

    Every project (and every pnp, Python and umask) gets its own files in
    ``<cache>/preview-server/``, and a project no longer worked on left them
    there for good. A group of files counts as used when any of them was
    last changed (a server logs when it starts and stops). A group whose
    lock some process holds is a live or starting server and is left alone:
    the lock is taken here before anything is removed and released after,
    and a server that locked a lock file removed meanwhile notices and
    exits (see :func:`run`). ``keep`` is the calling server's own name.
    """
    import fcntl

    now = time.time() if now is None else now
    groups: dict[str, list[Path]] = {}
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    for entry in entries:
        stem, dot, suffix = entry.name.rpartition(".")
        if dot and "." + suffix in SERVER_SUFFIXES and stem != keep:
            groups.setdefault(stem, []).append(Path(entry.path))
    removed = []
    for stem, paths in sorted(groups.items()):
        try:
            newest = max(p.lstat().st_mtime for p in paths)
        except OSError:
            continue
        if now - newest < max_age:
            continue
        lock_path = folder / f"{stem}.lock"
        fd = -1
        try:
            if lock_path.exists():
                fd = os.open(lock_path, os.O_RDWR)
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            # the lock is ours (or there is none): no server uses these files
            for path in paths:
                if path != lock_path:
                    path.unlink(missing_ok=True)
            lock_path.unlink(missing_ok=True)   # last, while still locked
            removed.append(stem)
        except OSError:
            continue                            # locked: a server runs there
        finally:
            if fd >= 0:
                os.close(fd)
    return removed


def _lock_is_current(fd: int, path: Path) -> bool:
    """True if ``path`` still names the lock file open as ``fd`` (not removed meanwhile)."""
    try:
        return os.path.samestat(os.fstat(fd), os.stat(path))
    except OSError:
        return False


def run(socket_file: Path, identity: list[Any], stamp: str) -> int:
    """Serve previews on ``socket_file`` until a reason to stop; the exit status (always 0).

    Exits at once, quietly, if another server holds the lock (two clients
    raced to start one) or if this process is not the one ``identity``
    describes (another pnp, Python or umask than the client's).
    """
    import fcntl
    import signal

    where = identity[0]
    files = serve.server_files(where, identity[3])
    if files is None or files.socket != socket_file or files.identity != identity:
        _log(f"not started: this process does not match {socket_file.name}")
        return 0
    lock = os.open(files.lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(lock)
        return 0                      # another server runs or is starting: it serves
    if not _lock_is_current(lock, files.lock):
        # a clean-up removed the lock file after we opened it: a server started
        # now could run beside another that locks the new file; the client
        # that started us draws its preview itself
        os.close(lock)
        return 0
    try:
        gone = remove_stale_files(files.lock.parent, files.lock.stem)
        if gone:
            _log(f"removed the files of {len(gone)} preview server(s) unused for "
                 f"{STALE_SECONDS // 86400} days")
    except Exception:  # tidying up must never stop a server
        pass
    server = serve.PreviewServer(None, lambda request: {"fallback": True}, path=files.socket)
    try:
        if files.log.exists() and files.log.stat().st_size > LOG_LIMIT:
            os.truncate(files.log, 0)
        # the lock is ours, so a socket file left here belongs to a dead server
        if not server.bind():
            _log(f"cannot listen on {files.socket}")
            return 0

        def terminate(signum: int, frame: Any) -> None:
            raise SystemExit(0)

        signal.signal(signal.SIGTERM, terminate)
        _warm_up()            # while the first client waits in the queue
        answerer = PreviewAnswerer(where, stamp=stamp, skip=serve.NOT_IN_PREVIEWS)
        answerer.preload()
        server.handler = ServerHandler(answerer, files)
        _log(f"serving previews of {where[0]} on {files.socket.name}")

        def check() -> str | None:
            """A reason to stop between requests, or None."""
            if not server.still_bound():
                return "socket file removed"
            if serve.code_stamp(serve.NOT_IN_PREVIEWS) != stamp:
                return "pnp's code changed"
            if not _same_folder(where[0]):
                return "the working folder was replaced"
            return None

        why = server.serve(_idle_seconds(), check)
        _log(f"stopped: {why} ({answerer.served} request(s) answered)")
    finally:
        server.stop()
        os.close(lock)               # releases the lock after the socket file is gone
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m pnp.builder.preview_server SOCKET IDENTITY STAMP``."""
    args = sys.argv[1:] if argv is None else argv
    try:
        socket_file, identity, stamp = Path(args[0]), json.loads(args[1]), args[2]
    except (IndexError, ValueError):
        print("usage: python -m pnp.builder.preview_server SOCKET IDENTITY STAMP "
              "(started by `pnp preview`)", file=sys.stderr)
        return 2
    return run(socket_file, identity, stamp)


if __name__ == "__main__":
    sys.exit(main())
