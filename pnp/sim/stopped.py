"""The one message a stopped run ends with, wherever Ctrl-C landed (every pnp command).

A run writes each file whole (under a temporary name, renamed when
complete), so after Ctrl-C the only question is which files are there: a
simulation writes its reports only at the very end, so one stopped while
playing has written nothing; the worker pool, the Dask cluster and the CLI
(for every command: build, rulebook, check, preview, init, watch …) say so
in the same words, with what they stopped when they stopped something.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from pnp.errors import Interrupted

#: What every interrupted run that got no further than playing says.
NOTHING_WRITTEN = "nothing was written"
#: At most this many written files are named in the line (then "and N more").
NAMED = 3


def interrupted(stopped: str = "") -> Interrupted:
    """The error for a run stopped before writing: ``interrupted: [stopped; ]nothing was written``.

    ``stopped`` says what was stopped on the way ("worker processes
    stopped"), when there was something to stop.
    """
    return Interrupted(f"interrupted: {stopped + '; ' if stopped else ''}{NOTHING_WRITTEN}")


def interrupted_after(written: Sequence[Path], elsewhere: str = "") -> Interrupted:
    """The error for a run stopped after writing ``written`` (each file complete).

    ``interrupted: nothing was written`` when ``written`` is empty, else
    ``interrupted after writing N complete file(s) (a, b, c and K more);
    nothing else was written``. ``elsewhere`` adds what another process may
    still write for this run ("the preview server …"), in parentheses.
    """
    note = f" ({elsewhere})" if elsewhere else ""
    if not written:
        return Interrupted(f"interrupted: {NOTHING_WRITTEN}{note}")
    shown = ", ".join(str(p) for p in written[:NAMED])
    more = f" and {len(written) - NAMED} more" if len(written) > NAMED else ""
    return Interrupted(f"interrupted after writing {len(written)} complete file(s) "
                       f"({shown}{more}); nothing else was written{note}")


__all__ = ["NAMED", "NOTHING_WRITTEN", "interrupted", "interrupted_after"]
