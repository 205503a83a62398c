"""The one message a stopped simulation ends with, wherever Ctrl-C landed.

A run writes its reports only at the very end (atomically), so a run stopped
while playing has written nothing; the worker pool, the Dask cluster and the
CLI (a Ctrl-C before either started, or a one-process run) say so in the same
words, with what they stopped when they stopped something.
"""

from __future__ import annotations

from pnp.errors import Interrupted

#: What every interrupted run that got no further than playing says.
NOTHING_WRITTEN = "nothing was written"


def interrupted(stopped: str = "") -> Interrupted:
    """The error for a run stopped before writing: ``interrupted: [stopped; ]nothing was written``.

    ``stopped`` says what was stopped on the way ("worker processes
    stopped"), when there was something to stop.
    """
    return Interrupted(f"interrupted: {stopped + '; ' if stopped else ''}{NOTHING_WRITTEN}")


__all__ = ["NOTHING_WRITTEN", "interrupted"]
