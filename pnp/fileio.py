"""User files: reading with one-line errors, writing atomically."""

from __future__ import annotations

import os
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from pnp.errors import PnpError


def read_user_file(path: Path, what: str) -> bytes:
    """Return the bytes of ``path``; a missing or unreadable file is a :class:`PnpError`."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise PnpError(f"{what} not found", path=path) from None
    except IsADirectoryError:
        raise PnpError(f"{what} is a folder, expected a file", path=path) from None
    except OSError as exc:
        raise PnpError(f"cannot read {what}: {exc.strerror or exc}", path=path) from None


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
def atomic_path(path: Path) -> Iterator[Path]:
    """Yield a temp path beside ``path``; on success it replaces ``path``, else vanishes.

    A failed write never leaves a half-written file. The finished file gets
    the mode a normally created file would have (0666 less the umask), not
    mkstemp's private 0600. An unwritable or missing folder is a PnpError.
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise PnpError(f"cannot write {path}: folder {folder} is not a writable "
                       f"folder ({exc.strerror or exc})") from None
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        os.chmod(tmp, 0o666 & ~current_umask())
        try:
            os.replace(tmp, path)
        except OSError as exc:  # e.g. ``path`` is an existing folder
            raise PnpError(f"cannot write {path}: {exc.strerror or exc}") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (see :func:`atomic_path`)."""
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def write_text_atomic(path: Path, text: str) -> None:
    """Write UTF-8 ``text`` to ``path`` atomically (see :func:`atomic_path`)."""
    write_bytes_atomic(path, text.encode("utf-8"))
