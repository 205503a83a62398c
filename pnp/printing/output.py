"""Atomic PDF output: write to a temp file beside the target, then os.replace."""

from __future__ import annotations

import os
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from reportlab.pdfgen.canvas import Canvas

from pnp.errors import PnpError


_UMASK_LOCK = threading.Lock()


def current_umask() -> int:
    """Return the process umask without changing it for other threads.

    Linux reports it in /proc/self/status; elsewhere it is read by setting and
    restoring it under a lock (the only portable way).
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    with _UMASK_LOCK:
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


@contextmanager
def atomic_canvas(path: Path, pagesize: tuple[float, float], *, title: str = "",
                  canvas_kwargs: dict[str, Any] | None = None) -> Iterator[Canvas]:
    """Yield a byte-deterministic, compressed Canvas writing ``path`` atomically.

    The PDF goes to a temp file in the same folder and replaces ``path`` only
    after ``save()`` succeeds; on any exception the temp file is removed and
    ``path`` is untouched. An unwritable or missing folder raises PnpError.
    The finished file gets the mode a normally created file would have
    (0666 less the umask), not mkstemp's private 0600.
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp",
                                        dir=folder)
    except OSError as exc:
        raise PnpError(f"cannot write {path}: folder {folder} is not a writable "
                       f"folder ({exc.strerror or exc})") from None
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        kwargs: dict[str, Any] = dict(canvas_kwargs or {})
        kwargs.setdefault("invariant", 1)
        kwargs.setdefault("pageCompression", 1)
        canvas = Canvas(str(tmp), pagesize=pagesize, **kwargs)
        canvas.setTitle(title)
        canvas.setCreator("pnp")
        yield canvas
        canvas.save()
        os.chmod(tmp, 0o666 & ~current_umask())
        try:
            os.replace(tmp, path)
        except OSError as exc:  # e.g. ``path`` is an existing folder
            raise PnpError(f"cannot write {path}: {exc.strerror or exc}") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
