"""Shared test helpers for sheet-label tests: crop-mark strokes and rectangle distances.

Computed here from first principles (not by the code under test), so the
label-clearance and side-label tests measure clearances the same way.
"""

from __future__ import annotations

from pnp.printing.geometry import Rect, Segment
from pnp.printing.imposition import MARK_WIDTH

#: Tolerance for float comparisons of page coordinates (pt).
TOL = 1e-6
#: The home presets' sheet settings: (paper, kind, priority).
PRESETS = [("a4", "duplex", "cards"), ("letter", "duplex", "cards"),
           ("a4", "duplex", "bleed"), ("letter", "duplex", "bleed"),
           ("a4", "gutterfold", "cards"), ("letter", "gutterfold", "cards")]


def stroke(seg: Segment) -> Rect:
    """The area a butt-capped stroke of ``seg`` covers."""
    half = MARK_WIDTH / 2
    if abs(seg.x0 - seg.x1) < TOL:
        lo, hi = sorted((seg.y0, seg.y1))
        return Rect(seg.x0 - half, lo, MARK_WIDTH, hi - lo)
    lo, hi = sorted((seg.x0, seg.x1))
    return Rect(lo, seg.y0 - half, hi - lo, MARK_WIDTH)


def distance(a: Rect, b: Rect) -> float:
    """Shortest distance between two rectangles (0 when they touch or overlap)."""
    dx = max(0.0, b.x - (a.x + a.w), a.x - (b.x + b.w))
    dy = max(0.0, b.y - (a.y + a.h), a.y - (b.y + b.h))
    return float((dx * dx + dy * dy) ** 0.5)
