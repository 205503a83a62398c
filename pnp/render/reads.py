"""Which files a piece of work read: the rulebook cache keys a book by the templates it used.

:func:`recording` collects the path of every file the process opens while
it is active (through Python's ``open`` audit event, which ``open``,
``io.open``, ``Path.read_bytes`` and ``os.open`` raise, in every library),
and every path handed to :func:`note_read`. The readers that keep what they
read for the rest of the process (parsed icons, image sizes) call
:func:`note_read` each time they are asked, so a file read before the
recording began, and served from memory during it, is still counted.

The hook is installed once per process, on the first recording, and does
nothing while no recording is active.
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from typing import Any, Iterator

#: The recordings in progress (nested ones each get every read).
_active: list[set[str]] = []
_installed = False


def _hook(event: str, args: tuple[Any, ...]) -> None:
    """Audit hook: remember the path of each file opened while a recording is active."""
    if event == "open" and _active and args:
        path = args[0]
        if isinstance(path, (str, bytes, os.PathLike)):
            name = os.path.abspath(os.fsdecode(path))
            for reads in _active:
                reads.add(name)


def note_read(path: "os.PathLike[str] | str") -> None:
    """Count ``path`` as read by the recordings in progress (a reader serving it from memory)."""
    if _active:
        name = os.path.abspath(os.fspath(path))
        for reads in _active:
            reads.add(name)


@contextmanager
def recording() -> Iterator[set[str]]:
    """Collect the absolute paths of the files read inside the ``with`` block."""
    global _installed
    if not _installed:
        sys.addaudithook(_hook)
        _installed = True
    reads: set[str] = set()
    _active.append(reads)
    try:
        yield reads
    finally:
        # by identity: two recordings may hold equal sets
        _active[:] = [r for r in _active if r is not reads]
