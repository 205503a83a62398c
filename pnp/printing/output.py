"""Atomic output: PDF canvases through :func:`pnp.fileio.atomic_path`, multi-file exports whole.

:func:`atomic_canvas` writes the file when its block ends; :func:`pending_canvas`
and :func:`save_pending` split that in two, so a build can draw every file
first and write them only once nothing failed. :func:`staged_files` writes a
set of files that only make sense together (a Tabletop Simulator deck's
images and its saved object, a print service's images and quantities) into
a hidden folder and moves them into place only when all are there.
"""

from __future__ import annotations

import os
import shutil
import signal
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

from reportlab.pdfgen.canvas import Canvas

from pnp.fileio import atomic_path, current_umask, make_folder

__all__ = ["STAGE_PREFIX", "atomic_canvas", "current_umask", "held_interrupts",
           "pending_canvas", "save_pending", "staged_files"]

#: Name prefix of the hidden folder a multi-file export is written into first.
STAGE_PREFIX = ".pnp-partial-"


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


@contextmanager
def held_interrupts() -> Iterator[None]:
    """Hold Ctrl-C (SIGINT) off for the block, then raise it if it came.

    For the few renames that put a finished export in place: stopped
    half-way they would leave images without the file that names them. Only
    the main thread can set a signal handler; elsewhere the block runs as is
    (Python delivers SIGINT to the main thread anyway).
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt


@contextmanager
def staged_files(folder: Path, name: str) -> Iterator[Callable[[Path], Path]]:
    """Write a set of files into ``folder`` all together or not at all; yield ``stage``.

    ``stage(final)`` is where to write the file meant for ``final`` (a path
    in ``folder``) meanwhile: a hidden folder ``.pnp-partial-<name>`` in
    ``folder``. When the block ends, the staged files are moved into place
    in the order they were staged (put the file that names the others, a
    saved object or a CSV, last), with Ctrl-C held off; if the block fails
    or is interrupted, the hidden folder goes and ``folder`` keeps what it
    had (a previous complete export stays whole). A hidden folder a killed
    run left is removed first.
    """
    stage_dir = folder / f"{STAGE_PREFIX}{name}"
    if stage_dir.exists():
        shutil.rmtree(stage_dir, ignore_errors=True)
    make_folder(stage_dir)
    finals: list[Path] = []

    def stage(final: Path) -> Path:
        """Return where ``final`` is written until the set is complete."""
        finals.append(final)
        return stage_dir / final.name

    try:
        yield stage
        with held_interrupts():
            for final in finals:
                staged = stage_dir / final.name
                if staged.exists():
                    os.replace(staged, final)
            shutil.rmtree(stage_dir, ignore_errors=True)
    except BaseException:
        shutil.rmtree(stage_dir, ignore_errors=True)
        raise
