"""Write a set of files that only work together whole, or not at all (no ReportLab here).

A Tabletop Simulator deck's images and its saved object, a print service
deck's images and its ``quantities.csv``: images without the file that
names them are an export nobody can load. :func:`staged_files` writes them
into a hidden folder and moves them into place only when all are there,
with Ctrl-C held off for those renames (:func:`held_interrupts`).
"""

from __future__ import annotations

import os
import shutil
import signal
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from pnp.fileio import make_folder

__all__ = ["STAGE_PREFIX", "held_interrupts", "staged_files"]

#: Name prefix of the hidden folder a multi-file export is written into first
#: (``pnp preflight`` leaves one that a killed run left out of a folder search).
STAGE_PREFIX = ".pnp-partial-"


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
