"""ReportLab's number formatting, remembered: the same bytes for a fraction of the CPU.

ReportLab formats every number it writes into a PDF (text matrices, colours,
crop-mark lines, the width arrays of every font subset, bounding boxes) with
``fp_str``. Without its optional C accelerator (the separate ``rl_accel``
package, which pnp does not require) that is a pure-Python loop of a few
microseconds per call, and a build of every game made ~40,000 calls — about
a tenth of its CPU. The numbers repeat (glyph widths, card positions, the
same colours), so :func:`install` gives ReportLab's modules a memoised
``fp_str`` that returns exactly what the original returns (it *is* the
original on a miss), and leaves an accelerated one alone.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, cast

#: ReportLab modules that bound ``fp_str`` at import time.
_MODULES = ("reportlab.pdfbase.pdfdoc", "reportlab.pdfgen.canvas", "reportlab.pdfgen.pathobject",
            "reportlab.pdfgen.textobject", "reportlab.pdfbase.ttfonts",
            "reportlab.pdfgen.pdfimages", "reportlab.lib.rl_accel")
#: Remembered results kept at most (then forgotten all at once: the set is tiny).
MEMO_LIMIT = 100_000


def memoised(original: Callable[..., str]) -> Callable[..., str]:
    """Return ``fp_str`` with its results remembered per argument tuple.

    Keys are the argument tuples themselves. Equal numbers of different types
    (``1`` and ``1.0``) share a key, which is sound because ``fp_str`` formats
    both the same way; a list argument (unhashable) goes straight through.
    """
    memo: dict[tuple[Any, ...], str] = {}

    def fp_str(*args: Any) -> str:
        """ReportLab's ``fp_str``, remembered (see :mod:`pnp.render.rlspeed`)."""
        try:
            hit = memo.get(args)
        except TypeError:  # a list or another unhashable argument
            return original(*args)
        if hit is None:
            hit = original(*args)
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            memo[args] = hit
        return hit

    fp_str.__wrapped__ = original  # type: ignore[attr-defined]
    return fp_str


def install() -> None:
    """Give ReportLab's modules the memoised ``fp_str`` (once; idempotent).

    Only the pure-Python formatter is replaced: with ReportLab's C
    accelerator installed it is already fast and is left alone.
    """
    from reportlab.lib import rl_accel

    current = rl_accel.fp_str
    if getattr(current, "__wrapped__", None) is not None:
        return  # installed already
    if current is not getattr(rl_accel, "_py_fp_str", None):
        return  # the C accelerator: nothing to gain
    # the pure-Python formatter, checked just above (its stub types it optional)
    fast = memoised(cast("Callable[..., str]", current))
    # modules imported later bind it from rl_accel; loaded ones are rebound here
    for name in _MODULES:
        module = sys.modules.get(name)
        if module is not None and getattr(module, "fp_str", None) is current:
            module.fp_str = fast  # type: ignore[attr-defined]
