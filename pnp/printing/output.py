"""Atomic PDF output: write to a temp file beside the target, then os.replace."""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from reportlab.pdfgen.canvas import Canvas

from pnp.errors import PnpError


@contextmanager
def atomic_canvas(path: Path, pagesize: tuple[float, float], *, title: str = "",
                  canvas_kwargs: dict[str, Any] | None = None) -> Iterator[Canvas]:
    """Yield a byte-deterministic, compressed Canvas writing ``path`` atomically.

    The PDF goes to a temp file in the same folder and replaces ``path`` only
    after ``save()`` succeeds; on any exception the temp file is removed and
    ``path`` is untouched. An unwritable or missing folder raises PnpError.
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
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
