"""Atomic PDF output: a ReportLab canvas written through :func:`pnp.fileio.atomic_path`.

:func:`atomic_canvas` writes the file when its block ends; :func:`pending_canvas`
and :func:`save_pending` split that in two, so a build can draw every file
first and write them only once nothing failed. Exports of several files
that only work together are written whole by :mod:`pnp.printing.staging`.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from reportlab.pdfgen.canvas import Canvas

from pnp.fileio import atomic_path, current_umask

__all__ = ["atomic_canvas", "current_umask", "pending_canvas", "save_pending"]


@contextmanager
def atomic_canvas(path: Path, pagesize: tuple[float, float], *, title: str = "",
                  canvas_kwargs: dict[str, Any] | None = None) -> Iterator[Canvas]:
    """Yield a byte-deterministic, compressed Canvas writing ``path`` atomically.

    ``path`` is replaced only after ``save()`` succeeds; on any exception it
    is untouched and no temp file remains. An unwritable folder is a PnpError.
    """
    with atomic_path(path) as tmp:
        canvas = _canvas(str(tmp), pagesize, title, canvas_kwargs)
        yield canvas
        canvas.save()


def _canvas(target: str, pagesize: tuple[float, float], title: str,
            canvas_kwargs: dict[str, Any] | None) -> Canvas:
    """A byte-deterministic, compressed canvas writing to ``target`` when saved."""
    kwargs: dict[str, Any] = dict(canvas_kwargs or {})
    kwargs.setdefault("invariant", 1)
    kwargs.setdefault("pageCompression", 1)
    canvas = Canvas(target, pagesize=pagesize, **kwargs)
    canvas.setTitle(title)
    canvas.setCreator("pnp")
    return canvas


def pending_canvas(path: Path, pagesize: tuple[float, float], *, title: str = "",
                   canvas_kwargs: dict[str, Any] | None = None) -> Canvas:
    """Return a canvas like :func:`atomic_canvas`'s for ``path`` that touches no file yet.

    ReportLab opens its file only in ``save()``: draw on the canvas, then
    write it with :func:`save_pending` (or drop it: nothing was written).
    The PDF's bytes are the same as :func:`atomic_canvas`'s.
    """
    return _canvas(str(path), pagesize, title, canvas_kwargs)


def save_pending(canvas: Canvas, path: Path) -> None:
    """Write a :func:`pending_canvas` to ``path`` atomically (once).

    ReportLab writes straight into the temp file (no in-memory copy of the
    whole PDF besides its own), which then replaces ``path``.
    """
    with atomic_path(path) as tmp:
        canvas._filename = str(tmp)  # ReportLab reads it only in save()
        canvas.save()

