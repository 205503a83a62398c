"""Impose card faces on sheets: grid, per-slot bleed, duplex mirroring, gutter-fold.

Pure geometry (points, no ReportLab). The rules, in priority order:

1. Nothing is printed inside the printer margin (5 mm; REFERENCE "Card and
   paper sizes").
2. Fit as many cards as possible (page orientation chosen per layout).
3. Per axis, if gutters of 2 x bleed fit without losing a card *and* still
   leave the outer band room for full bleed plus a crop mark, use them: every
   card then has full bleed on that axis. Otherwise the grid is gapless on that
   axis: neighbours share a cut line and get no bleed there; only the outer
   edges bleed.
4. In an outer band (grid to margin), crop marks come before bleed: the outer
   bleed shrinks so that a mark of at least ``MIN_MARK`` fits; if even that
   cannot fit, the band gets all the bleed it can and no marks.
5. Every cut line must be findable: if the bands leave no room for the marks
   of the horizontal (vertical) cut lines, the cards get no bleed top and
   bottom (left and right), so those cut lines show as the edges of the art.

Worked figures for poker 63 x 88 mm, 3 mm bleed (tests check them):
A4 portrait 3 x 3, gapless columns, 6 mm row gutters -> every card has 3 mm
top/bottom bleed, 3 mm on the sheet's outer left/right edges only. Letter
portrait 3 x 3, gapless both ways; outer left/right bleed 3 mm, outer
top/bottom bleed 0.9 mm (the band is 2.7 mm and keeps 1.5 mm for marks).
Gutter-fold: landscape, 4 fronts above a horizontal fold, 4 backs below.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Sequence, TypeVar

from pnp.errors import PnpError
from pnp.printing.geometry import EPS, Bleed, Rect, Segment, Slot
from pnp.printing.papers import PRINTER_MARGIN, Paper, get_paper
from pnp.units import mm, to_mm

#: Default bleed (REFERENCE: home print-and-play uses 2-3 mm).
DEFAULT_BLEED: float = mm(3)
#: Default crop-mark length and the shortest mark worth drawing.
DEFAULT_MARK_LENGTH: float = mm(3)
MIN_MARK: float = mm(1.5)
#: Gap between a card's bleed edge and the start of a crop mark, so a mark
#: never touches the art.
MARK_GAP: float = mm(0.3)
#: Crop-mark stroke width (REFERENCE: thin, ~0.15-0.25 mm).
MARK_WIDTH: float = mm(0.2)
#: Smallest gap between a card's trim and the fold line in a gutter-fold.
MIN_FOLD_GAP: float = mm(1)

LAYOUTS = ("duplex", "gutterfold")
FLIPS = ("long", "short")

T = TypeVar("T")


@dataclass(frozen=True)
class SheetLayout:
    """Where every card face and mark goes on one sheet (all lengths in points).

    ``fronts[i]`` and ``backs[i]`` are the two faces of the i-th card item on
    the sheet. For "duplex" the backs are on page 1 (mirrored so each lands
    behind its front); for "gutterfold" both are on page 0. ``marks[p]`` are the
    crop-mark segments of page p; ``folds`` the dashed fold-line segments
    (gutter-fold only, page 0).
    """

    kind: str
    paper: Paper
    card_w: float
    card_h: float
    bleed: float
    margin: float
    columns: int
    rows: int
    gutter_x: float
    gutter_y: float
    flip: str
    fronts: tuple[Slot, ...]
    backs: tuple[Slot, ...]
    marks: tuple[tuple[Segment, ...], ...]
    folds: tuple[Segment, ...] = field(default=())

    @property
    def per_sheet(self) -> int:
        """Return how many card items (front + back) one sheet holds."""
        return len(self.fronts)

    @property
    def pages_per_sheet(self) -> int:
        """Return 2 for duplex (fronts page, backs page), 1 for gutter-fold."""
        return 2 if self.kind == "duplex" else 1

    @property
    def printable(self) -> Rect:
        """Return the area inside the printer margin."""
        return Rect(self.margin, self.margin, self.paper.width - 2 * self.margin,
                    self.paper.height - 2 * self.margin)

    def slots_on_page(self, page: int) -> tuple[Slot, ...]:
        """Return every slot printed on ``page`` (0 or 1) of the sheet."""
        return tuple(s for s in self.fronts + self.backs if s.page == page)

    def describe(self) -> dict[str, object]:
        """Return the layout's key figures in millimetres, for reports and logs."""
        return {
            "kind": self.kind,
            "paper": f"{self.paper.name} {self.paper.orientation}",
            "grid": f"{self.columns}x{self.rows}",
            "per_sheet": self.per_sheet,
            "card_mm": (round(to_mm(self.card_w), 2), round(to_mm(self.card_h), 2)),
            "gutter_mm": (round(to_mm(self.gutter_x), 2), round(to_mm(self.gutter_y), 2)),
            "front_bleed_mm": [s.bleed.as_mm() for s in self.fronts],
            "marks": [len(m) for m in self.marks],
        }


# --------------------------------------------------------------------------
# one axis


@dataclass(frozen=True)
class _Axis:
    """Card positions along one axis: trim starts and the bleed before/after each."""

    starts: tuple[float, ...]
    lo: tuple[float, ...]
    hi: tuple[float, ...]
    gutter: float


def _count(space: float, card: float, gutter: float, reserve: float) -> int:
    """Return how many cards of ``card`` with ``gutter`` between fit ``space - reserve``."""
    if card <= 0:
        return 0
    return max(0, math.floor((space - reserve + gutter) / (card + gutter) + EPS))


def _outer_bleed(band: float, bleed: float, marks: bool) -> float:
    """Return the bleed an outer band of width ``band`` gets (marks first, rule 4)."""
    if not marks:
        return max(0.0, min(bleed, band))
    if band >= bleed + MARK_GAP + MIN_MARK - EPS:
        return bleed
    if band >= MARK_GAP + MIN_MARK - EPS:
        return band - MARK_GAP - MIN_MARK
    return max(0.0, min(bleed, band))


def _pick_gutter(space: float, card: float, bleed: float, gutter: str | float,
                 marks: bool, sides: int) -> float:
    """Return the gutter width to use on one axis (rule 3); ``sides`` = outer bands."""
    if isinstance(gutter, str):
        if gutter == "none" or bleed <= 0:
            return 0.0
        if gutter == "full":
            return 2 * bleed
        if gutter == "auto":
            reserve = sides * (bleed + (MARK_GAP + MIN_MARK if marks else 0.0))
            n0 = _count(space, card, 0.0, 0.0)
            if n0 > 1 and _count(space, card, 2 * bleed, reserve) == n0:
                return 2 * bleed
            return 0.0
        raise PnpError(f"bad gutter {gutter!r}: expected 'auto', 'none', 'full' "
                       f"or a length")
    if gutter < 0:
        raise PnpError(f"bad gutter {to_mm(gutter):.2f} mm: expected 0 or more")
    return float(gutter)


def _plan_centred(lo: float, hi: float, card: float, bleed: float,
                  gutter: str | float, marks: bool) -> _Axis:
    """Return a grid axis centred in [lo, hi]."""
    space = hi - lo
    g = _pick_gutter(space, card, bleed, gutter, marks, sides=2)
    n = _count(space, card, g, 0.0)
    if n == 0:
        return _Axis((), (), (), g)
    span = n * card + (n - 1) * g
    band = (space - span) / 2
    ob = _outer_bleed(band, bleed, marks)
    ib = min(bleed, g / 2)
    starts = tuple(lo + band + i * (card + g) for i in range(n))
    return _Axis(starts, tuple(ob if i == 0 else ib for i in range(n)),
                 tuple(ob if i == n - 1 else ib for i in range(n)), g)


def _plan_from_fold(lo: float, hi: float, card: float, bleed: float,
                    fold_bleed: float, gutter: str | float, marks: bool) -> _Axis:
    """Return a grid axis whose first card starts at ``lo`` (the fold side)."""
    space = hi - lo
    g = _pick_gutter(space, card, bleed, gutter, marks, sides=1)
    n = _count(space, card, g, 0.0)
    if n == 0:
        return _Axis((), (), (), g)
    band = space - (n * card + (n - 1) * g)
    ob = _outer_bleed(band, bleed, marks)
    ib = min(bleed, g / 2)
    starts = tuple(lo + i * (card + g) for i in range(n))
    return _Axis(starts, tuple(fold_bleed if i == 0 else ib for i in range(n)),
                 tuple(ob if i == n - 1 else ib for i in range(n)), g)


def _cuts(starts: Sequence[float], card: float) -> list[float]:
    """Return the distinct cut-line coordinates of cards starting at ``starts``."""
    out: list[float] = []
    for v in sorted([s for s in starts] + [s + card for s in starts]):
        if not out or v - out[-1] > EPS:
            out.append(v)
    return out


def _mark_ranges(lo: float, hi: float, occupied: Sequence[tuple[float, float]],
                 mark_length: float) -> list[tuple[float, float]]:
    """Return where crop marks may go along one axis.

    ``occupied`` are the card+bleed intervals (whole rows or columns); marks go
    in the free space between them and the printable limits [lo, hi], keeping
    ``MARK_GAP`` from any bleed, at most ``mark_length`` long from each bleed
    edge, and at least ``MIN_MARK`` long.
    """
    out: list[tuple[float, float]] = []
    occ = sorted(occupied)
    if not occ:
        return out
    edges: list[tuple[float, bool, float, bool]] = []  # (start, start_is_bleed, end, end_is_bleed)
    edges.append((lo, False, occ[0][0], True))
    for (_, a1), (b0, _) in zip(occ, occ[1:]):
        edges.append((a1, True, b0, True))
    edges.append((occ[-1][1], True, hi, False))
    for a, a_bleed, b, b_bleed in edges:
        start = a + MARK_GAP if a_bleed else a
        end = b - MARK_GAP if b_bleed else b
        if end - start < MIN_MARK - EPS:
            continue
        if a_bleed and b_bleed:
            if end - start <= 2 * mark_length + EPS:
                out.append((start, end))
            else:
                out.append((start, start + mark_length))
                out.append((end - mark_length, end))
        elif a_bleed:
            out.append((start, min(end, start + mark_length)))
        elif b_bleed:
            out.append((max(start, end - mark_length), end))
    return out


def _marks(printable: Rect, xs: _Axis, ys: _Axis, card_w: float, card_h: float,
           mark_length: float) -> tuple[Segment, ...]:
    """Return crop marks on the extension of every cut line, outside all art."""
    cols = [(s - lo, s + card_w + hi) for s, lo, hi in zip(xs.starts, xs.lo, xs.hi)]
    rows = [(s - lo, s + card_h + hi) for s, lo, hi in zip(ys.starts, ys.lo, ys.hi)]
    segs: list[Segment] = []
    for x in _cuts(xs.starts, card_w):
        for y0, y1 in _mark_ranges(printable.y, printable.y1, rows, mark_length):
            segs.append(Segment(x, y0, x, y1))
    for y in _cuts(ys.starts, card_h):
        for x0, x1 in _mark_ranges(printable.x, printable.x1, cols, mark_length):
            segs.append(Segment(x0, y, x1, y))
    return tuple(segs)


def _without_bleed(axis: _Axis) -> _Axis:
    """Return ``axis`` with no bleed on either side of any card (rule 5)."""
    zeros = tuple(0.0 for _ in axis.starts)
    return _Axis(axis.starts, zeros, zeros, axis.gutter)


def _unmarked(segs: Sequence[Segment]) -> tuple[bool, bool]:
    """Return (no vertical marks, no horizontal marks) for a page's crop marks."""
    vertical = any(abs(s.x0 - s.x1) < EPS for s in segs)
    horizontal = any(abs(s.y0 - s.y1) < EPS for s in segs)
    return (not vertical, not horizontal)


def _marked_axes(area: Rect, xs: _Axis, ys: _Axis, expand: Callable[[_Axis], _Axis],
                 card_w: float, card_h: float, mark_length: float
                 ) -> tuple[_Axis, _Axis, tuple[Segment, ...]]:
    """Crop marks for the grid, dropping bleed in a direction that got no marks (rule 5).

    ``expand`` turns ``ys`` into the page's full y axis (gutter-fold mirrors
    the fronts' rows below the fold); returns the possibly bleed-less axes
    and the marks.
    """
    segs = _marks(area, xs, expand(ys), card_w, card_h, mark_length)
    no_vertical, no_horizontal = _unmarked(segs)
    if no_vertical or no_horizontal:  # rule 5
        xs = _without_bleed(xs) if no_vertical else xs
        ys = _without_bleed(ys) if no_horizontal else ys
        segs = _marks(area, xs, expand(ys), card_w, card_h, mark_length)
    return xs, ys, segs


# --------------------------------------------------------------------------
# duplex mirroring


def flip_axis(paper: Paper, flip: str = "long") -> str:
    """Return the page axis mirrored between a duplex front and back: "x" or "y".

    Turning the sheet over on its long edge mirrors x on a portrait page and y
    on a landscape page; the short edge is the other way round.
    """
    if flip not in FLIPS:
        raise PnpError(f"bad duplex flip {flip!r}: expected 'long' or 'short'")
    portrait = paper.orientation == "portrait"
    return "x" if portrait == (flip == "long") else "y"


def mirror_rect(rect: Rect, paper: Paper, flip: str = "long") -> Rect:
    """Return where ``rect`` on a front page lands on the back page.

    x mirror: x' = W - x - w; y mirror: y' = H - y - h.
    """
    if flip_axis(paper, flip) == "x":
        return Rect(paper.width - rect.x - rect.w, rect.y, rect.w, rect.h)
    return Rect(rect.x, paper.height - rect.y - rect.h, rect.w, rect.h)


def mirror_segment(seg: Segment, paper: Paper, flip: str = "long") -> Segment:
    """Return the back-page position of a front-page segment."""
    if flip_axis(paper, flip) == "x":
        return Segment(paper.width - seg.x0, seg.y0, paper.width - seg.x1, seg.y1)
    return Segment(seg.x0, paper.height - seg.y0, seg.x1, paper.height - seg.y1)


def back_slot(front: Slot, paper: Paper, flip: str = "long") -> Slot:
    """Return the duplex back slot that lands exactly behind ``front``.

    Bleed sides swap with the mirror. With a y mirror the back art is turned
    180 degrees so that the card, turned over sideways, shows its back upright.
    """
    axis = flip_axis(paper, flip)
    bleed = front.bleed.mirrored_x() if axis == "x" else front.bleed.mirrored_y()
    rotation = front.rotation if axis == "x" else (front.rotation + 180) % 360
    return Slot(front.index, "back", 1, mirror_rect(front.trim, paper, flip), bleed, rotation)


# --------------------------------------------------------------------------
# layouts


def _reading_order(rects: list[tuple[Rect, Bleed]]) -> list[tuple[Rect, Bleed]]:
    """Sort slots top row first, left to right."""
    return sorted(rects, key=lambda rb: (-round(rb[0].y, 6), round(rb[0].x, 6)))


def _duplex(paper: Paper, cw: float, ch: float, bleed: float, gutter: str | float,
            marks: bool, mark_length: float, margin: float, flip: str) -> SheetLayout:
    """Return the duplex layout on ``paper`` in its given orientation."""
    area = Rect(margin, margin, paper.width - 2 * margin, paper.height - 2 * margin)
    xs = _plan_centred(area.x, area.x1, cw, bleed, gutter, marks)
    ys = _plan_centred(area.y, area.y1, ch, bleed, gutter, marks)
    front_marks: tuple[Segment, ...] = ()
    if marks and xs.starts and ys.starts:
        xs, ys, front_marks = _marked_axes(area, xs, ys, lambda axis: axis, cw, ch,
                                           mark_length)
    cells = [(Rect(x, y, cw, ch), Bleed(xl, xh, yl, yh))
             for x, xl, xh in zip(xs.starts, xs.lo, xs.hi)
             for y, yl, yh in zip(ys.starts, ys.lo, ys.hi)]
    fronts = tuple(Slot(i, "front", 0, r, b) for i, (r, b) in enumerate(_reading_order(cells)))
    backs = tuple(back_slot(s, paper, flip) for s in fronts)
    back_marks = tuple(mirror_segment(s, paper, flip) for s in front_marks)
    return SheetLayout("duplex", paper, cw, ch, bleed, margin, len(xs.starts),
                       len(ys.starts), xs.gutter, ys.gutter, flip, fronts, backs,
                       (front_marks, back_marks))


def _gutterfold(paper: Paper, cw: float, ch: float, bleed: float, gutter: str | float,
                marks: bool, mark_length: float, margin: float) -> SheetLayout:
    """Return the gutter-fold layout on ``paper``: fronts above a horizontal fold.

    The fold runs across the page centre. Fronts sit above it, backs below it,
    each back the mirror image of its front across the fold and its art turned
    180 degrees, so folding along the line puts every back behind its front
    (REFERENCE "Print services": gutter-fold, backs rotated 180 degrees).
    """
    area = Rect(margin, margin, paper.width - 2 * margin, paper.height - 2 * margin)
    fold = paper.height / 2
    gap = max(bleed, MIN_FOLD_GAP)
    xs = _plan_centred(area.x, area.x1, cw, bleed, gutter, marks)
    top = _plan_from_fold(fold + gap, area.y1, ch, bleed, min(bleed, gap), gutter, marks)

    def both_halves(half: _Axis) -> _Axis:
        """Return the fronts' axis and its mirror (the backs) as one y axis."""
        return _Axis(tuple(2 * fold - s - ch for s in reversed(half.starts)) + half.starts,
                     tuple(reversed(half.hi)) + half.lo,
                     tuple(reversed(half.lo)) + half.hi, half.gutter)

    page_marks: tuple[Segment, ...] = ()
    if marks and xs.starts and top.starts:
        xs, top, page_marks = _marked_axes(area, xs, top, both_halves, cw, ch, mark_length)
    cells = [(Rect(x, y, cw, ch), Bleed(xl, xh, yl, yh))
             for x, xl, xh in zip(xs.starts, xs.lo, xs.hi)
             for y, yl, yh in zip(top.starts, top.lo, top.hi)]
    fronts = tuple(Slot(i, "front", 0, r, b) for i, (r, b) in enumerate(_reading_order(cells)))
    backs = tuple(
        Slot(s.index, "back", 0, Rect(s.trim.x, 2 * fold - s.trim.y - ch, cw, ch),
             s.bleed.mirrored_y(), 180)
        for s in fronts)
    folds: list[Segment] = []
    if fronts:
        # The fold line may cross a column only where that column's art stays
        # MARK_GAP clear of the fold (no bleed into the fold gap).
        near = min(s.bleed_rect.y for s in fronts) - fold
        cols = [] if near >= MARK_GAP - EPS else \
            [(s - lo, s + cw + hi) for s, lo, hi in zip(xs.starts, xs.lo, xs.hi)]
        for x0, x1 in _free_ranges(area.x, area.x1, cols):
            folds.append(Segment(x0, fold, x1, fold))
    return SheetLayout("gutterfold", paper, cw, ch, bleed, margin, len(xs.starts),
                       len(top.starts) * 2, xs.gutter, top.gutter, "fold", fronts,
                       backs, (page_marks,), tuple(folds))


def _free_ranges(lo: float, hi: float, occupied: Sequence[tuple[float, float]]
                 ) -> list[tuple[float, float]]:
    """Return the parts of [lo, hi] not within ``MARK_GAP`` of any occupied interval."""
    out: list[tuple[float, float]] = []
    cursor, cursor_bleed = lo, False
    for a, b in sorted(occupied):
        start = cursor + (MARK_GAP if cursor_bleed else 0.0)
        end = a - MARK_GAP
        if end - start >= MIN_MARK - EPS:
            out.append((start, end))
        cursor, cursor_bleed = b, True
    start = cursor + (MARK_GAP if cursor_bleed else 0.0)
    if hi - start >= MIN_MARK - EPS:
        out.append((start, hi))
    return out


def compute_layout(paper: str | Paper, card_size: tuple[float, float], *,
                   kind: str = "duplex", bleed: float = DEFAULT_BLEED,
                   gutter: str | float = "auto", marks: bool = True,
                   mark_length: float = DEFAULT_MARK_LENGTH,
                   margin: float = PRINTER_MARGIN, orientation: str = "auto",
                   flip: str = "long") -> SheetLayout:
    """Return the sheet layout that fits the most cards of ``card_size`` (points).

    ``kind`` is "duplex" or "gutterfold"; ``gutter`` is "auto" (2 x bleed where
    it costs no card), "none", "full" (2 x bleed always) or a length in points;
    ``orientation`` is "auto", "portrait" or "landscape" (auto: most cards; a
    tie keeps portrait for duplex, landscape for gutter-fold). Cards are never
    rotated on the page. Raises PnpError if not even one card fits.
    """
    if kind not in LAYOUTS:
        raise PnpError(f"bad sheet layout {kind!r}: expected 'duplex' or 'gutterfold'")
    cw, ch = (float(v) for v in card_size)
    if cw <= 0 or ch <= 0:
        raise PnpError(f"bad card size {to_mm(cw):.2f} x {to_mm(ch):.2f} mm: "
                       f"expected positive width and height")
    if bleed < 0 or mark_length < 0 or margin < 0:
        raise PnpError("bad bleed, mark length or margin: expected 0 or more")
    if orientation == "auto":
        order = ("portrait", "landscape") if kind == "duplex" else ("landscape", "portrait")
    elif orientation in ("portrait", "landscape"):
        order = (orientation,)
    else:
        raise PnpError(f"bad orientation {orientation!r}: expected 'auto', "
                       f"'portrait' or 'landscape'")
    best: SheetLayout | None = None
    for orient in order:
        p = get_paper(paper, orient)
        if kind == "duplex":
            lay = _duplex(p, cw, ch, bleed, gutter, marks, mark_length, margin, flip)
        else:
            lay = _gutterfold(p, cw, ch, bleed, gutter, marks, mark_length, margin)
        if best is None or lay.per_sheet > best.per_sheet:
            best = lay
    assert best is not None
    if best.per_sheet == 0:
        name = paper.name if isinstance(paper, Paper) else paper
        raise PnpError(f"card {to_mm(cw):.1f} x {to_mm(ch):.1f} mm does not fit "
                       f"on {name} ({kind}) inside the {to_mm(margin):.0f} mm "
                       f"printer margin")
    return best


def label_box(layout: SheetLayout, page: int = 0) -> Rect | None:
    """Return free space for a sheet label below the lowest card, or None.

    The box lies between the printer margin and the lowest card's bleed (less
    ``MARK_GAP``), horizontally within that card's trim less 1 mm each side,
    so it avoids every crop mark (which sit on cut lines) and all art.
    """
    slots = layout.slots_on_page(page)
    if not slots:
        return None
    lowest = min(slots, key=lambda s: (round(s.bleed_rect.y, 6), s.trim.x))
    top = min(s.bleed_rect.y for s in slots) - MARK_GAP
    h = top - layout.margin
    w = lowest.trim.w - 2 * mm(1)
    if h <= 0 or w <= 0:
        return None
    return Rect(lowest.trim.x + mm(1), layout.margin, w, h)


def paginate(items: Sequence[T], per_sheet: int) -> list[list[T]]:
    """Split ``items`` into consecutive sheets of at most ``per_sheet`` items."""
    if per_sheet < 1:
        raise PnpError(f"bad sheet capacity {per_sheet}: expected at least 1")
    return [list(items[i:i + per_sheet]) for i in range(0, len(items), per_sheet)]
