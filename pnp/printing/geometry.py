"""Small immutable geometry types for imposition (points; no ReportLab)."""

from __future__ import annotations

from dataclasses import dataclass

from pnp.units import to_mm

#: Tolerance for float comparisons of lengths in points (1e-6 pt is far below
#: anything a printer can show).
EPS: float = 1e-6


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle: bottom-left (x, y), width w, height h."""

    x: float
    y: float
    w: float
    h: float

    @property
    def x1(self) -> float:
        """Return the right edge."""
        return self.x + self.w

    @property
    def y1(self) -> float:
        """Return the top edge."""
        return self.y + self.h

    def overlaps(self, other: "Rect") -> bool:
        """Return True if the interiors intersect (touching edges do not count)."""
        return (self.x < other.x1 - EPS and other.x < self.x1 - EPS
                and self.y < other.y1 - EPS and other.y < self.y1 - EPS)

    def contains(self, other: "Rect") -> bool:
        """Return True if ``other`` lies inside this rectangle (edges allowed)."""
        return (other.x >= self.x - EPS and other.y >= self.y - EPS
                and other.x1 <= self.x1 + EPS and other.y1 <= self.y1 + EPS)

    def grown(self, bleed: "Bleed") -> "Rect":
        """Return this rectangle extended by ``bleed`` on each side."""
        return Rect(self.x - bleed.left, self.y - bleed.bottom,
                    self.w + bleed.left + bleed.right,
                    self.h + bleed.bottom + bleed.top)

    def shifted(self, dx: float, dy: float) -> "Rect":
        """Return this rectangle moved by (dx, dy)."""
        return Rect(self.x + dx, self.y + dy, self.w, self.h)

    def union(self, other: "Rect") -> "Rect":
        """Return the smallest rectangle holding both."""
        x, y = min(self.x, other.x), min(self.y, other.y)
        return Rect(x, y, max(self.x1, other.x1) - x, max(self.y1, other.y1) - y)

    def as_mm(self) -> tuple[float, float, float, float]:
        """Return (x, y, w, h) in millimetres, rounded to 0.01 mm, for reports."""
        return tuple(round(to_mm(v), 2) for v in (self.x, self.y, self.w, self.h))  # type: ignore[return-value]


@dataclass(frozen=True)
class Bleed:
    """How far a card's art may extend past its trim on each side (page coordinates)."""

    left: float
    right: float
    bottom: float
    top: float

    def mirrored_x(self) -> "Bleed":
        """Return the bleed seen in a left-right mirror (left and right swap)."""
        return Bleed(self.right, self.left, self.bottom, self.top)

    def mirrored_y(self) -> "Bleed":
        """Return the bleed seen in a top-bottom mirror (bottom and top swap)."""
        return Bleed(self.left, self.right, self.top, self.bottom)

    def smallest(self) -> float:
        """Return the least bleed of the four sides."""
        return min(self.left, self.right, self.bottom, self.top)

    def as_mm(self) -> tuple[float, float, float, float]:
        """Return (left, right, bottom, top) in millimetres, rounded to 0.01 mm."""
        return tuple(round(to_mm(v), 2) for v in (self.left, self.right, self.bottom, self.top))  # type: ignore[return-value]


@dataclass(frozen=True)
class Segment:
    """A straight line segment from (x0, y0) to (x1, y1)."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def length(self) -> float:
        """Return the length of the segment."""
        return ((self.x1 - self.x0) ** 2 + (self.y1 - self.y0) ** 2) ** 0.5

    def box(self, width: float = 0.0) -> Rect:
        """Return the area the segment covers when stroked ``width`` wide with butt caps.

        Only meaningful for horizontal or vertical segments (all of ours).
        """
        half = width / 2
        if abs(self.x0 - self.x1) < EPS:  # vertical
            lo, hi = sorted((self.y0, self.y1))
            return Rect(self.x0 - half, lo, width, hi - lo)
        lo, hi = sorted((self.x0, self.x1))
        return Rect(lo, self.y0 - half, hi - lo, width)


@dataclass(frozen=True)
class Slot:
    """Where one card face goes on one page of a sheet.

    ``trim`` is the card's cut rectangle on the page; ``bleed`` is the bleed the
    layout allows on each side; ``rotation`` (0 or 180) turns the art about the
    trim centre; ``page`` is 0 (first page of the sheet) or 1 (duplex back page);
    ``shape`` is "rect", or "circle" for a round piece cut along the circle
    inscribed in ``trim`` (its art is clipped to that circle grown by the bleed).
    """

    index: int
    side: str
    page: int
    trim: Rect
    bleed: Bleed
    rotation: int = 0
    shape: str = "rect"

    @property
    def bleed_rect(self) -> Rect:
        """Return the trim grown by the allowed bleed: the clip area for the art."""
        return self.trim.grown(self.bleed)
