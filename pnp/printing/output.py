"""Atomic PDF output: a ReportLab canvas written through :func:`pnp.fileio.atomic_path`."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from reportlab.pdfgen.canvas import Canvas

from pnp.fileio import atomic_path, current_umask

__all__ = ["atomic_canvas", "current_umask"]


@contextmanager
def atomic_canvas(path: Path, pagesize: tuple[float, float], *, title: str = "",
                  canvas_kwargs: dict[str, Any] | None = None) -> Iterator[Canvas]:
    """Yield a byte-deterministic, compressed Canvas writing ``path`` atomically.

    ``path`` is replaced only after ``save()`` succeeds; on any exception it
    is untouched and no temp file remains. An unwritable folder is a PnpError.
    """
    with atomic_path(path) as tmp:
        kwargs: dict[str, Any] = dict(canvas_kwargs or {})
        kwargs.setdefault("invariant", 1)
        kwargs.setdefault("pageCompression", 1)
        canvas = Canvas(str(tmp), pagesize=pagesize, **kwargs)
        canvas.setTitle(title)
        canvas.setCreator("pnp")
        yield canvas
        canvas.save()
