"""Impose card faces on sheets: grid, per-slot bleed, duplex mirroring, gutter-fold.

Pure geometry in points: nothing is drawn here (the sheet writer draws; only
the label font's ascent comes from :mod:`pnp.render.fonts`). The rules, in priority order:

1. Nothing is printed inside the printer margin (5 mm; REFERENCE "Card and
   paper sizes").
2. The profile's priority: "cards" fits as many cards as possible (page
   orientation chosen per layout); "bleed" first gives every cut edge at
   least ``min_bleed`` (2 mm) and then fits as many cards as that allows.
3. Per axis (gutter "auto"), the gutter maximises the smallest bleed of any
   cut edge, then the number of edges with at least ``min_bleed``: full
   gutters (2 x bleed) where they fit, small gutters where a gapless grid
   would leave the inner edges bare, gapless only where a gutter would give
   less than 1 mm a side (two cuts for nothing). Neighbours in a gapless
   grid share a cut line and get no bleed there.
4. In an outer band (grid to margin), crop marks come before bleed: the outer
   bleed shrinks so that a mark of at least ``MIN_MARK`` fits; if even that
   cannot fit, the band gets all the bleed it can and no marks.
5. Every cut line must be findable: if the bands leave no room for the marks
   of the horizontal (vertical) cut lines, the cards get no bleed top and
   bottom (left and right), so those cut lines show as the edges of the art.
6. Crop marks are drawn only for cards on the page: a part-filled last sheet
   gets marks next to its cards (also in the empty slots) and its cards'
   edges facing an empty slot get full bleed.
7. Every page keeps room for its footer label (5 pt at least, 2 mm clear of
   every mark): at the foot, or turned up a side margin. Where a grid leaves
   neither, both side margins keep just enough more for the label (the grid
   stays centred) at the cost of a little left and right bleed.

Worked figures for poker 63 x 88 mm, 3 mm bleed (tests check them):
A4 portrait 3 x 3: 2.47 mm column gutters (1.23 mm bleed on every left and
right edge), 6 mm row gutters (3 mm top and bottom). Letter portrait 3 x 3:
gapless rows with 0.9 mm outer bleed (the band is 2.7 mm and keeps 1.8 mm
for marks, too little under the grid for the label), so rule 7 keeps
0.41 mm more of each side margin: 4.16 mm column gutters (2.08 mm left and
right; 2.22 mm without the label), the label up the side. The "bleed"
priority gives 8 cards (4 x 2 landscape) on A4 and 6 (3 x 2 landscape) on
Letter, 3 mm on every edge. Gutter-fold A4: landscape, 4 fronts above a
horizontal fold, 4 backs below, 3 mm everywhere but the fold side (2 mm,
leaving a 2 mm strip for the dashed fold line, :func:`fold_gap`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Callable, Sequence, TypeVar

from pnp.errors import PnpError
from pnp.printing.geometry import EPS, Bleed, Rect, Segment, Slot
from pnp.printing.papers import PRINTER_MARGIN, Paper, get_paper
from pnp.printing.profiles import LAYOUTS
from pnp.render.fonts import EM_ASCENT
from pnp.units import mm, to_mm

#: Default bleed (REFERENCE: home print-and-play uses 2-3 mm).
DEFAULT_BLEED: float = mm(3)
#: Bleed every cut edge should get where the paper allows (issue 9).
DEFAULT_MIN_BLEED: float = mm(2)
#: A gutter must give at least this much bleed a side, else the grid stays
#: gapless on that axis (a gutter doubles the cuts; 0.3 mm is not worth it).
MIN_GUTTER_BLEED: float = mm(1)
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
#: Art keeps this far from a gutter-fold's fold line on each side, so the
#: dashed line shows right across the page, between the fronts' and the
#: backs' art, and never inside it (with art reaching the fold, the line was
#: left with the 1.5 mm side margins, where it looked like one more crop mark).
#: The fold side of a card still gets ``min_bleed`` (the strip is waste: the
#: cut runs along the trim, 3 mm from the fold).
FOLD_CLEAR: float = mm(1)
#: Clear space between a sheet's footer label and any crop mark (from the
#: stroked mark): about one em of the 6 pt label (2.1 mm) and five times the
#: space between its letters, so a mark never reads as the label's first letter.
LABEL_CLEARANCE: float = mm(2)
#: A band under all of a page's ink is used for the label from this height
#: (room for the 5 pt smallest label size with its descenders).
LABEL_MIN_BAND: float = mm(2.5)
#: Sheet-label font sizes (pt): the size used where there is room, and the
#: smallest worth printing (below it the page has no label).
LABEL_MAX_SIZE: float = 6.0
LABEL_MIN_SIZE: float = 5.0
#: How far the label font's glyphs rise above the baseline (em). The label is
#: set in IPAexGothic (the canvas's initial font), whose ascender this is. A
#: label turned up a side margin has its ascent towards the paper edge, so
#: its baseline keeps this much from the printer margin.
LABEL_ASCENT: float = EM_ASCENT
#: How far its ink reaches below the baseline (em): IPAexGothic's Latin
#: descenders (g j p q y) go down to 0.196 em, further than its 1 em box
#: (0.12 below the baseline), so a label's line box is taken 0.2 em deep
#: below the baseline. With the em box alone, a foot label's g or p reached
#: up to 0.16 mm into the printer margin, where a home printer clips it.
LABEL_DESCENT: float = 0.2
#: The depth of a label's ink per point of font size: a label of size s
#: needs a band s * LABEL_DEPTH deep (sizes are chosen to fit it).
LABEL_DEPTH: float = LABEL_ASCENT + LABEL_DESCENT
#: A page keeps room for a label this long at the 5 pt minimum (rule 7): the
#: longest shipped label ("Fortune Clover - Player aid (English) - fronts -
#: sheet 1/1") is about 46 mm at 5 pt.
LABEL_ROOM_LENGTH: float = mm(50)

#: How a gutter-fold page names itself in its footer: the footer is where a
#: user looks for what to do with the page, and the fold line is the one
#: dashed line on it (crop marks are solid).
FOLD_PART = "fold on the dashed line"

FLIPS = ("long", "short")
PRIORITIES = ("cards", "bleed")
SIDES = ("left", "right", "bottom", "top")

T = TypeVar("T")


@dataclass(frozen=True)
class SheetLayout:
    """Where every card face and mark goes on one full sheet (all lengths in points).

    ``fronts[i]`` and ``backs[i]`` are the two faces of the i-th card item on
    the sheet. For "duplex" the backs are on page 1 (mirrored so each lands
    behind its front); for "gutterfold" both are on page 0. ``marks[p]`` are the
    crop-mark segments of page p of a full sheet; ``folds`` the dashed
    fold-line segments (gutter-fold only, page 0). :func:`plan_sheet` gives
    the pages of a part-filled sheet.
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
    mark_length: float = DEFAULT_MARK_LENGTH
    min_bleed: float = DEFAULT_MIN_BLEED
    draw_marks: bool = True

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

    def edge_bleeds(self) -> list[float]:
        """Return the bleed of every cut edge of the fronts (4 per card)."""
        return [getattr(s.bleed, side) for s in self.fronts for side in SIDES]

    def smallest_bleed(self) -> float:
        """Return the least bleed of any cut edge on a full sheet."""
        return min(self.edge_bleeds(), default=0.0)

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
            "bleed_by_side_mm": bleed_by_side(self.fronts),
            "marks": [len(m) for m in self.marks],
        }


def bleed_by_side(slots: Sequence[Slot]) -> dict[str, tuple[float, float]]:
    """Return, per side of the card (left/right/bottom/top), the (least, most) bleed in mm."""
    out: dict[str, tuple[float, float]] = {}
    for side in SIDES:
        values = [getattr(s.bleed, side) for s in slots]
        if values:
            out[side] = (round(to_mm(min(values)), 2), round(to_mm(max(values)), 2))
    return out


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


def _gutters(space: float, n: int, card: float, bleed: float, target: float,
             gutter: str | float, marks: bool, sides: int) -> list[float]:
    """Return the gutter widths worth trying on one axis (rule 3).

    ``sides`` is the number of outer bands (2 centred, 1 from a fold).
    """
    if isinstance(gutter, str):
        if gutter not in ("auto", "none", "full"):
            raise PnpError(f"bad gutter {gutter!r}: expected 'auto', 'none', 'full' "
                           f"or a length")
        if gutter == "none" or bleed <= 0 or n <= 1:
            return [0.0]
        if gutter == "full":
            return [2 * bleed]
        reserve = MARK_GAP + MIN_MARK if marks else 0.0
        spare = space - n * card
        # The balanced gutter gives inner and outer edges the same bleed b:
        # n*card + (n-1)*2b + sides*(b + reserve) = space.
        balanced = (spare - sides * reserve) / (2 * n - 2 + sides)
        wanted = {0.0, 2 * bleed, 2 * min(target, bleed), 2 * min(max(balanced, 0.0), bleed)}
        least = min(MIN_GUTTER_BLEED, bleed)
        return sorted(g for g in wanted
                      if g == 0.0 or (g / 2 >= least - EPS
                                      and n * card + (n - 1) * g + sides * reserve
                                      <= space + EPS))
    if not math.isfinite(gutter) or gutter < 0:
        raise PnpError(f"bad gutter {to_mm(gutter):.2f} mm: expected 0 or more")
    return [float(gutter)]


def _axis_score(axis: _Axis, target: float, fold_edge: bool) -> tuple[float, int, float]:
    """Return (least bleed, edges with at least ``target``, -gutter) for ranking axes.

    The fold-side bleed of a gutter-fold is fixed by the fold gap, so it is
    left out of the comparison (``fold_edge``).
    """
    edges = list(axis.lo[1:] if fold_edge else axis.lo) + list(axis.hi)
    least = min(edges) if edges else 0.0
    good = sum(1 for e in edges if e >= target - EPS)
    return (round(least, 6), good, -axis.gutter)


def _plan_axis(lo: float, hi: float, n: int, card: float, bleed: float, target: float,
               gutter: str | float, marks: bool, fold_bleed: float | None = None) -> _Axis:
    """Return ``n`` cards along [lo, hi], centred, or from ``lo`` when ``fold_bleed`` is set.

    Of the candidate gutters (rule 3) the one with the best :func:`_axis_score`
    wins.
    """
    space = hi - lo
    sides = 1 if fold_bleed is not None else 2
    best: _Axis | None = None
    best_score: tuple[float, int, float] | None = None
    for g in _gutters(space, n, card, bleed, target, gutter, marks, sides):
        span = n * card + (n - 1) * g
        if span > space + EPS and gutter != "auto":  # a fixed gutter costs cards
            n = _count(space, card, g, 0.0)
            span = n * card + (n - 1) * g
        if n <= 0 or span > space + EPS:
            continue
        band = (space - span) / sides
        ob = _outer_bleed(band, bleed, marks)
        ib = min(bleed, g / 2)
        first = lo + (band if sides == 2 else 0.0)
        starts = tuple(first + i * (card + g) for i in range(n))
        lows = tuple((ob if fold_bleed is None else fold_bleed) if i == 0 else ib
                     for i in range(n))
        highs = tuple(ob if i == n - 1 else ib for i in range(n))
        axis = _Axis(starts, lows, highs, g)
        score = _axis_score(axis, target, fold_bleed is not None)
        if best_score is None or score > best_score:
            best, best_score = axis, score
    return best if best is not None else _Axis((), (), (), 0.0)


# --------------------------------------------------------------------------
# crop marks


def _merge(intervals: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Return the union of ``intervals`` as sorted disjoint intervals."""
    out: list[tuple[float, float]] = []
    for a, b in sorted(intervals):
        if out and a <= out[-1][1] + EPS:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _line_marks(pos: float, vertical: bool, slots: Sequence[Slot], area: Rect,
                mark_length: float) -> list[Segment]:
    """Return the crop marks of the cut line at ``pos`` (x if ``vertical``, else y).

    Along the line, every bleed rectangle within ``MARK_GAP`` of it blocks the
    line (marks never touch art). In each free stretch, a mark starts beside
    a card whose trim edge lies on the line, at most ``mark_length`` long
    and at least ``MIN_MARK``; a short stretch between two such cards gets
    one mark across it.
    """
    lo, hi = (area.y, area.y1) if vertical else (area.x, area.x1)
    blocked: list[tuple[float, float]] = []
    owners: list[tuple[float, float]] = []
    for s in slots:
        r = s.bleed_rect
        a0, a1 = (r.x, r.x1) if vertical else (r.y, r.y1)
        if a0 - MARK_GAP < pos - EPS and pos + EPS < a1 + MARK_GAP:
            b0, b1 = (r.y, r.y1) if vertical else (r.x, r.x1)
            blocked.append((b0 - MARK_GAP, b1 + MARK_GAP))
            t0, t1 = (s.trim.x, s.trim.x1) if vertical else (s.trim.y, s.trim.y1)
            if s.shape == "rect" and (abs(t0 - pos) < EPS or abs(t1 - pos) < EPS):
                owners.append((b0 - MARK_GAP, b1 + MARK_GAP))
    segs: list[Segment] = []
    merged = _merge(blocked)
    cursor = lo
    free: list[tuple[float, float, bool, bool]] = []
    for a, b in merged:
        if a > cursor + EPS:
            free.append((cursor, min(a, hi), cursor > lo + EPS, True))
        cursor = max(cursor, b)
    if cursor < hi - EPS:
        free.append((cursor, hi, bool(merged), False))

    def owned(at: float) -> bool:
        """Return True if a card with a trim edge on the line ends its blocked run at ``at``."""
        return any(abs(o0 - at) < EPS or abs(o1 - at) < EPS for o0, o1 in owners)

    for a, b, a_art, b_art in free:
        a_own = a_art and owned(a)
        b_own = b_art and owned(b)
        if b - a < MIN_MARK - EPS:
            continue
        ranges: list[tuple[float, float]] = []
        if a_own and b_own and b - a <= 2 * mark_length + EPS:
            ranges.append((a, b))
        else:
            if a_own:
                ranges.append((a, min(b, a + mark_length)))
            if b_own:
                ranges.append((max(a, b - mark_length), b))
        for r0, r1 in ranges:
            if r1 - r0 >= MIN_MARK - EPS:
                segs.append(Segment(pos, r0, pos, r1) if vertical else Segment(r0, pos, r1, pos))
    return segs


def crop_marks(slots: Sequence[Slot], area: Rect, mark_length: float) -> tuple[Segment, ...]:
    """Return crop marks on the extension of every cut line of ``slots``, outside all art.

    Only rectangular slots have straight cut lines; round pieces get circle
    guides instead (drawn by the sheet writer) but still block marks.
    """
    xs: list[float] = []
    ys: list[float] = []
    for s in slots:
        if s.shape != "rect":
            continue
        for v in (s.trim.x, s.trim.x1):
            if not any(abs(v - x) < EPS for x in xs):
                xs.append(v)
        for v in (s.trim.y, s.trim.y1):
            if not any(abs(v - y) < EPS for y in ys):
                ys.append(v)
    segs: list[Segment] = []
    for x in sorted(xs):
        segs.extend(_line_marks(x, True, slots, area, mark_length))
    for y in sorted(ys):
        segs.extend(_line_marks(y, False, slots, area, mark_length))
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


def _grid_slots(xs: _Axis, ys: _Axis, cw: float, ch: float) -> list[Slot]:
    """Return front slots for every grid cell, in reading order (top row first)."""
    cells = [(Rect(x, y, cw, ch), Bleed(xl, xh, yl, yh))
             for x, xl, xh in zip(xs.starts, xs.lo, xs.hi)
             for y, yl, yh in zip(ys.starts, ys.lo, ys.hi)]
    cells.sort(key=lambda rb: (-round(rb[0].y, 6), round(rb[0].x, 6)))
    return [Slot(i, "front", 0, r, b) for i, (r, b) in enumerate(cells)]


def _marked_axes(area: Rect, xs: _Axis, ys: _Axis, expand: Callable[[_Axis], _Axis],
                 card_w: float, card_h: float, mark_length: float
                 ) -> tuple[_Axis, _Axis, tuple[Segment, ...]]:
    """Crop marks for the grid, dropping bleed in a direction that got no marks (rule 5).

    ``expand`` turns ``ys`` into the page's full y axis (gutter-fold mirrors
    the fronts' rows below the fold); returns the possibly bleed-less axes
    and the marks.
    """
    segs = crop_marks(_grid_slots(xs, expand(ys), card_w, card_h), area, mark_length)
    no_vertical, no_horizontal = _unmarked(segs)
    if no_vertical or no_horizontal:  # rule 5
        xs = _without_bleed(xs) if no_vertical else xs
        ys = _without_bleed(ys) if no_horizontal else ys
        segs = crop_marks(_grid_slots(xs, expand(ys), card_w, card_h), area, mark_length)
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
    return Slot(front.index, "back", 1, mirror_rect(front.trim, paper, flip), bleed,
                rotation, front.shape)


def fold_back_slot(front: Slot, fold: float) -> Slot:
    """Return the gutter-fold back of ``front``: mirrored across the fold line, turned 180."""
    t = front.trim
    return Slot(front.index, "back", 0, Rect(t.x, 2 * fold - t.y - t.h, t.w, t.h),
                front.bleed.mirrored_y(), 180, front.shape)


# --------------------------------------------------------------------------
# layouts


def _duplex(paper: Paper, cw: float, ch: float, bleed: float, target: float,
            gutter: str | float, marks: bool, mark_length: float, margin: float,
            flip: str, nx: int, ny: int, reserve: float = 0.0) -> SheetLayout:
    """Return the duplex layout of ``nx`` x ``ny`` cards on ``paper`` as oriented.

    ``reserve`` keeps that much more of the left and right margins free (rule 7).
    """
    area = Rect(margin, margin, paper.width - 2 * margin, paper.height - 2 * margin)
    xs = _plan_axis(area.x + reserve, area.x1 - reserve, nx, cw, bleed, target, gutter,
                    marks)
    ys = _plan_axis(area.y, area.y1, ny, ch, bleed, target, gutter, marks)
    front_marks: tuple[Segment, ...] = ()
    if marks and xs.starts and ys.starts:
        xs, ys, front_marks = _marked_axes(area, xs, ys, lambda axis: axis, cw, ch,
                                           mark_length)
    fronts = tuple(_grid_slots(xs, ys, cw, ch))
    backs = tuple(back_slot(s, paper, flip) for s in fronts)
    back_marks = tuple(mirror_segment(s, paper, flip) for s in front_marks)
    return SheetLayout("duplex", paper, cw, ch, bleed, margin, len(xs.starts),
                       len(ys.starts), xs.gutter, ys.gutter, flip, fronts, backs,
                       (front_marks, back_marks), (), mark_length, target, marks)


def _gutterfold(paper: Paper, cw: float, ch: float, bleed: float, target: float,
                gutter: str | float, marks: bool, mark_length: float, margin: float,
                nx: int, ny: int, reserve: float = 0.0) -> SheetLayout:
    """Return the gutter-fold layout on ``paper``: fronts above a horizontal fold.

    The fold runs across the page centre. Fronts sit above it, backs below it,
    each back the mirror image of its front across the fold and its art turned
    180 degrees, so folding along the line puts every back behind its front
    (REFERENCE "Print services": gutter-fold, backs rotated 180 degrees).
    ``reserve`` keeps that much more of the left and right margins free (rule 7).
    """
    area = Rect(margin, margin, paper.width - 2 * margin, paper.height - 2 * margin)
    fold = paper.height / 2
    gap, fold_bleed = fold_gap(bleed, target)
    xs = _plan_axis(area.x + reserve, area.x1 - reserve, nx, cw, bleed, target, gutter,
                    marks)
    top = _plan_axis(fold + gap, area.y1, ny, ch, bleed, target, gutter, marks,
                     fold_bleed=fold_bleed)

    def both_halves(half: _Axis) -> _Axis:
        """Return the fronts' axis and its mirror (the backs) as one y axis."""
        return _Axis(tuple(2 * fold - s - ch for s in reversed(half.starts)) + half.starts,
                     tuple(reversed(half.hi)) + half.lo,
                     tuple(reversed(half.lo)) + half.hi, half.gutter)

    page_marks: tuple[Segment, ...] = ()
    if marks and xs.starts and top.starts:
        xs, top, page_marks = _marked_axes(area, xs, top, both_halves, cw, ch, mark_length)
    fronts = tuple(_grid_slots(xs, top, cw, ch))
    backs = tuple(fold_back_slot(s, fold) for s in fronts)
    return SheetLayout("gutterfold", paper, cw, ch, bleed, margin, len(xs.starts),
                       len(top.starts) * 2, xs.gutter, top.gutter, "fold", fronts,
                       backs, (page_marks,), fold_lines(area, fold, fronts),
                       mark_length, target, marks)


def fold_gap(bleed: float, target: float) -> tuple[float, float]:
    """Return (trim to fold, fold-side bleed) of a gutter-fold's cards, in points.

    The fold-side bleed stops :data:`FOLD_CLEAR` short of the fold, so the
    dashed fold line runs through a strip free of art; the gap grows beyond
    ``bleed`` only where that would leave the fold side less than ``target``
    (the profile's ``min_bleed``, at most ``bleed``). Poker on A4 or Letter,
    3 mm bleed, 2 mm target: the trim is 3 mm from the fold, as before, and
    the fold side gets 2 mm of bleed, leaving a 2 mm strip for the line.
    """
    target = min(target, bleed)
    gap = max(bleed, MIN_FOLD_GAP, target + FOLD_CLEAR)
    return gap, max(0.0, min(bleed, gap - FOLD_CLEAR))


def fold_lines(area: Rect, fold: float, fronts: Sequence[Slot]) -> tuple[Segment, ...]:
    """Return the dashed fold line's segments: across the page, clear of all art.

    The line may cross a column only where that column's art stays
    ``MARK_GAP`` clear of the fold. Card grids (:func:`fold_gap`) and
    packed pieces keep :data:`FOLD_CLEAR` between their art and the fold,
    so the line runs across the whole printable width.
    """
    if not fronts:
        return ()
    cols: list[tuple[float, float]] = []
    for s in fronts:
        r = s.bleed_rect
        if r.y - fold < MARK_GAP - EPS:
            cols.append((r.x, r.x1))
    return tuple(Segment(x0, fold, x1, fold) for x0, x1 in _free_ranges(area.x, area.x1, cols))


def _free_ranges(lo: float, hi: float, occupied: Sequence[tuple[float, float]]
                 ) -> list[tuple[float, float]]:
    """Return the parts of [lo, hi] not within ``MARK_GAP`` of any occupied interval."""
    out: list[tuple[float, float]] = []
    cursor, cursor_bleed = lo, False
    for a, b in _merge(list(occupied)):
        start = cursor + (MARK_GAP if cursor_bleed else 0.0)
        end = a - MARK_GAP
        if end - start >= MIN_MARK - EPS:
            out.append((start, end))
        cursor, cursor_bleed = b, True
    start = cursor + (MARK_GAP if cursor_bleed else 0.0)
    if hi - start >= MIN_MARK - EPS:
        out.append((start, hi))
    return out


def _rank(lay: SheetLayout, priority: str, preferred: bool) -> tuple[object, ...]:
    """Return the sort key of a candidate layout under ``priority`` (higher is better)."""
    edges = lay.edge_bleeds()
    least = round(min(edges), 6) if edges else 0.0
    good = sum(1 for e in edges if e >= lay.min_bleed - EPS) / max(1, len(edges))
    if priority == "bleed":
        return (least >= lay.min_bleed - EPS, lay.per_sheet, least, good, preferred)
    return (lay.per_sheet, least, good, preferred)


def compute_layout(paper: str | Paper, card_size: tuple[float, float], *,
                   kind: str = "duplex", bleed: float = DEFAULT_BLEED,
                   gutter: str | float = "auto", marks: bool = True,
                   mark_length: float = DEFAULT_MARK_LENGTH,
                   margin: float = PRINTER_MARGIN, orientation: str = "auto",
                   flip: str = "long", min_bleed: float | None = None,
                   priority: str = "cards") -> SheetLayout:
    """Return the sheet layout for cards of ``card_size`` (points) under ``priority``.

    ``kind`` is "duplex" or "gutterfold"; ``gutter`` is "auto" (rule 3),
    "none", "full" (2 x bleed always) or a length in points; ``orientation``
    is "auto", "portrait" or "landscape" (auto: the better by ``priority``; a
    tie keeps portrait for duplex, landscape for gutter-fold); ``priority``
    "cards" fits the most cards, "bleed" first gives every edge
    ``min_bleed`` (default the lesser of 2 mm and ``bleed``). Cards are never
    rotated on the page. Raises PnpError if not even one card fits.
    """
    if kind not in LAYOUTS:
        raise PnpError(f"bad sheet layout {kind!r}: expected 'duplex' or 'gutterfold'")
    if priority not in PRIORITIES:
        raise PnpError(f"bad priority {priority!r}: expected 'cards' or 'bleed'")
    cw, ch = (float(v) for v in card_size)
    if not (math.isfinite(cw) and math.isfinite(ch)) or cw <= 0 or ch <= 0:
        raise PnpError(f"bad card size {to_mm(cw):.2f} x {to_mm(ch):.2f} mm: "
                       f"expected positive width and height")
    if not all(math.isfinite(v) and v >= 0 for v in (bleed, mark_length, margin)):
        raise PnpError("bad bleed, mark length or margin: expected 0 or more")
    target = min(bleed, DEFAULT_MIN_BLEED if min_bleed is None else min_bleed)
    order: tuple[str, ...]
    if orientation == "auto":
        order = ("portrait", "landscape") if kind == "duplex" else ("landscape", "portrait")
    elif orientation in ("portrait", "landscape"):
        order = (orientation,)
    else:
        raise PnpError(f"bad orientation {orientation!r}: expected 'auto', "
                       f"'portrait' or 'landscape'")
    best: SheetLayout | None = None
    best_key: tuple[object, ...] | None = None
    best_build: Callable[[float], SheetLayout] | None = None
    for rank, orient in enumerate(order):
        p = get_paper(paper, orient)
        area_w, area_h = p.width - 2 * margin, p.height - 2 * margin
        nx = _count(area_w, cw, 0.0, 0.0)
        if kind == "duplex":
            ny = _count(area_h, ch, 0.0, 0.0)
        else:
            ny = _count(p.height / 2 - fold_gap(bleed, target)[0] - margin, ch, 0.0, 0.0)
        counts = [(nx, ny)]
        if priority == "bleed":  # one card fewer per axis may buy gutters
            counts += [(a, b) for a in (nx, nx - 1) for b in (ny, ny - 1)
                       if (a, b) != (nx, ny) and a >= 1 and b >= 1]
        for cx, cy in counts:
            if cx < 1 or cy < 1:
                continue

            def build(reserve: float, p: Paper = p, cx: int = cx, cy: int = cy) -> SheetLayout:
                """This grid on this paper, ``reserve`` more of each side margin kept free."""
                if kind == "duplex":
                    return _duplex(p, cw, ch, bleed, target, gutter, marks, mark_length,
                                   margin, flip, cx, cy, reserve)
                return _gutterfold(p, cw, ch, bleed, target, gutter, marks, mark_length,
                                   margin, cx, cy, reserve)

            lay = build(0.0)
            if lay.per_sheet == 0:
                continue
            key = _rank(lay, priority, rank == 0)
            if best_key is None or key > best_key:
                best, best_key, best_build = lay, key, build
    if best is not None and best_build is not None:
        best = _with_label_room(best, best_build, priority)
    if best is None:
        name = paper.name if isinstance(paper, Paper) else paper
        raise PnpError(f"card {to_mm(cw):.1f} x {to_mm(ch):.1f} mm does not fit "
                       f"on {name} ({kind}) inside the {to_mm(margin):.0f} mm "
                       f"printer margin")
    return best


def _has_label_room(lay: SheetLayout) -> bool:
    """Return True if every page of a full sheet has a spot for a 5 pt label.

    A spot must hold :data:`LABEL_ROOM_LENGTH` of text at
    :data:`LABEL_MIN_SIZE` or more, at the foot or up a side (:func:`place_label`).
    """
    return all(place_label(lay, lambda size: LABEL_ROOM_LENGTH, page) is not None
               for page in range(lay.pages_per_sheet))


def _with_label_room(lay: SheetLayout, build: Callable[[float], SheetLayout],
                     priority: str) -> SheetLayout:
    """Return ``lay``, or the same grid with side margins just deep enough for a label (rule 7).

    Only where no page of the sheet has a spot for the 5 pt label: both
    side margins (the grid stays centred, and a back page's mirror image
    keeps the room) then keep the label's depth plus ``MARK_GAP`` free of
    art, which costs every left and right edge a little bleed (poker on
    Letter: 2.22 -> 2.08 mm). Kept only if the sheet holds as many cards
    and, under the "bleed" priority, every edge keeps ``min_bleed`` if it
    had it.
    """
    if _has_label_room(lay):
        return lay
    fronts = lay.slots_on_page(0)
    depth = min(s.bleed_rect.x for s in fronts) - MARK_GAP - lay.margin
    if depth >= LABEL_MIN_SIZE * LABEL_DEPTH:
        return lay                    # the strip is deep enough; marks block it
    roomy = build(LABEL_MIN_SIZE * LABEL_DEPTH - depth + 1e-6)
    if roomy.per_sheet != lay.per_sheet or not _has_label_room(roomy):
        return lay
    if (priority == "bleed" and lay.smallest_bleed() >= lay.min_bleed - EPS
            and roomy.smallest_bleed() < lay.min_bleed - EPS):
        return lay
    return roomy


# --------------------------------------------------------------------------
# pages of a sheet


@dataclass(frozen=True)
class PagePlan:
    """Everything drawn on one page: slots (``index`` = item on the sheet), marks, guides.

    ``back`` is True for a duplex back page (``--back-offset`` moves it);
    ``part`` names the page in its label ("fronts", "backs" or :data:`FOLD_PART`).
    """

    slots: tuple[Slot, ...]
    marks: tuple[Segment, ...]
    folds: tuple[Segment, ...]
    back: bool
    part: str
    paper: Paper
    margin: float

    @property
    def printable(self) -> Rect:
        """Return the area inside the printer margin."""
        return Rect(self.margin, self.margin, self.paper.width - 2 * self.margin,
                    self.paper.height - 2 * self.margin)

    def circles(self) -> list[tuple[float, float, float]]:
        """Return the cut-guide circles (cx, cy, r) of the round pieces on the page."""
        return [(s.trim.x + s.trim.w / 2, s.trim.y + s.trim.h / 2, s.trim.w / 2)
                for s in self.slots if s.shape == "circle"]

    def ink(self) -> Rect | None:
        """Return the box around all art and marks on the page (None if empty)."""
        box: Rect | None = None
        for s in self.slots:
            box = s.bleed_rect if box is None else box.union(s.bleed_rect)
        for m in self.marks:
            r = m.box(MARK_WIDTH)
            box = r if box is None else box.union(r)
        return box


def _open_sides(slot: Slot, others: Sequence[Slot], occupied: set[int],
                bleed: float, axes: tuple[bool, bool]) -> Bleed:
    """Return ``slot``'s bleed, full on each side that faces an empty grid slot (rule 6).

    ``axes`` says whether the layout bleeds at all across x and across y
    (rule 5 may have removed it; then nothing is added).
    """
    b = slot.bleed
    t = slot.trim
    new = {"left": b.left, "right": b.right, "bottom": b.bottom, "top": b.top}
    for o in others:
        if o.index == slot.index:
            continue
        ot = o.trim
        same_row = abs(ot.y - t.y) < EPS
        same_col = abs(ot.x - t.x) < EPS
        side = None
        if same_row and axes[0]:
            if abs(ot.x - t.x1) <= 2 * bleed + EPS and ot.x > t.x:
                side = "right"
            elif abs(t.x - ot.x1) <= 2 * bleed + EPS and ot.x < t.x:
                side = "left"
        elif same_col and axes[1]:
            if abs(ot.y - t.y1) <= 2 * bleed + EPS and ot.y > t.y:
                side = "top"
            elif abs(t.y - ot.y1) <= 2 * bleed + EPS and ot.y < t.y:
                side = "bottom"
        if side is None:
            continue
        if o.index not in occupied:
            new[side] = max(new[side], bleed)
    # A side facing an occupied neighbour keeps the layout's value; a side
    # facing an empty slot may now bleed fully, unless an occupied neighbour
    # on the same side (none in a grid) would be touched.
    return Bleed(new["left"], new["right"], new["bottom"], new["top"])


def plan_sheet(layout: SheetLayout, count: int) -> list[PagePlan]:
    """Return the pages of one sheet holding ``count`` items (1 .. per_sheet).

    A full sheet is the layout as computed; a part-filled one keeps only
    the occupied slots, gives their edges facing an empty slot full bleed
    and draws crop marks for them alone (rule 6).
    """
    if not 1 <= count <= layout.per_sheet:
        raise PnpError(f"bad sheet fill {count}: expected 1 to {layout.per_sheet}")
    area = layout.printable
    fronts = list(layout.fronts[:count])
    if count < layout.per_sheet:
        occupied = {s.index for s in fronts}
        axes = (any(s.bleed.left > 0 or s.bleed.right > 0 for s in layout.fronts),
                any(s.bleed.bottom > 0 or s.bleed.top > 0 for s in layout.fronts))
        fronts = [replace(s, bleed=_open_sides(s, layout.fronts, occupied, layout.bleed,
                                               axes)) for s in fronts]
    if layout.kind == "duplex":
        backs = [back_slot(s, layout.paper, layout.flip) for s in fronts]
        marks = crop_marks(fronts, area, layout.mark_length) if layout.draw_marks else ()
        back_marks = tuple(mirror_segment(m, layout.paper, layout.flip) for m in marks)
        return [PagePlan(tuple(fronts), marks, (), False, "fronts", layout.paper,
                         layout.margin),
                PagePlan(tuple(backs), back_marks, (), True, "backs", layout.paper,
                         layout.margin)]
    fold = layout.paper.height / 2
    backs = [fold_back_slot(s, fold) for s in fronts]
    slots = fronts + backs
    marks = crop_marks(slots, area, layout.mark_length) if layout.draw_marks else ()
    return [PagePlan(tuple(slots), marks, layout.folds, False, FOLD_PART, layout.paper,
                     layout.margin)]


def _page_ink(layout: SheetLayout | PagePlan, page: int
              ) -> tuple[tuple[Slot, ...], tuple[Segment, ...], Rect] | None:
    """Return a page's slots, its crop marks and fold lines, and its printable area.

    None for a page without slots (it gets no label). A :class:`PagePlan`
    is one page already; for a full :class:`SheetLayout` the folds are on
    page 0 only.
    """
    if isinstance(layout, PagePlan):
        slots, marks = layout.slots, layout.marks + layout.folds
    else:
        slots = layout.slots_on_page(page)
        marks = layout.marks[page] + (layout.folds if page == 0 else ())
    if not slots:
        return None
    return slots, marks, layout.printable


def label_box(layout: SheetLayout | PagePlan, page: int = 0) -> Rect | None:
    """Return free space for a sheet label at the foot of the page, or None.

    The box sits on the printer margin. Where the page has a band under all
    its ink (a packed or part-filled page) it is that band, less
    :data:`LABEL_CLEARANCE`, across the printable width. Otherwise it lies
    below the lowest art (less ``MARK_GAP``), in the widest stretch of that
    band that stays :data:`LABEL_CLEARANCE` away from every crop mark and
    fold line that reaches into it (measured from the stroked mark,
    :data:`MARK_WIDTH` wide); a tie goes to the leftmost stretch. Before,
    the label began 1 mm right of the lowest card's trim, i.e. 0.9 mm from
    the crop mark on that cut line, and its first letter seemed to touch
    the mark.
    """
    ink = _page_ink(layout, page)
    if ink is None:
        return None
    slots, marks, area = ink
    strokes = [m.box(MARK_WIDTH) for m in marks]
    under_all = (min(r.y for r in [s.bleed_rect for s in slots] + strokes)
                 - LABEL_CLEARANCE - area.y)
    if under_all >= LABEL_MIN_BAND - EPS:
        return Rect(area.x, area.y, area.w, under_all)
    top = min(s.bleed_rect.y for s in slots) - MARK_GAP
    if top - area.y <= EPS:
        return None
    band = Rect(area.x, area.y, area.w, top - area.y)
    # the art is above the band by construction: only marks and folds can block it
    stretch = widest_free_stretch(band, strokes, LABEL_CLEARANCE)
    if stretch is None:
        return None
    x0, x1 = stretch
    return Rect(x0, band.y, x1 - x0, band.h)


@dataclass(frozen=True)
class LabelSpot:
    """Where a sheet's label is written: baseline origin, size and direction (points).

    ``rotation`` is 0 (along the foot of the page, left to right) or 90 (up a
    side margin, bottom to top, turned about the origin). ``box`` is the
    free area the label was placed in; the text's line box (as long as the
    text, :data:`LABEL_DEPTH` em deep) lies inside it. The line box holds all
    of the label's ink: from :data:`LABEL_DESCENT` below the baseline (Latin
    descenders included) to :data:`LABEL_ASCENT` above it.
    """

    x: float
    y: float
    size: float
    rotation: int
    box: Rect

    def line_box(self, length: float) -> Rect:
        """Return the page area the label's line (``length`` long) can ink."""
        depth = LABEL_DEPTH * self.size
        if self.rotation == 90:
            # turned by +90 degrees: the text runs up, its ascent points left
            return Rect(self.x - LABEL_ASCENT * self.size, self.y, depth, length)
        return Rect(self.x, self.y - LABEL_DESCENT * self.size, length, depth)


def side_label_box(layout: SheetLayout | PagePlan, page: int = 0) -> Rect | None:
    """Return free space for a label up the left or right margin, or None.

    The strip lies on the printer margin, between it and the outermost art
    less ``MARK_GAP`` (as the foot label keeps to the art), and at most
    :data:`LABEL_MAX_SIZE` deep: the label stands there turned by 90
    degrees. Along it, the box is the longest stretch that stays
    :data:`LABEL_CLEARANCE` away from every crop mark and fold line
    reaching into the strip (the marks of the horizontal cut lines do).
    The deeper strip wins (a larger label), then the longer stretch, then
    the left one. For pages whose cards leave the foot too shallow for the
    5 pt label (poker on Letter), see :func:`place_label`.
    """
    ink = _page_ink(layout, page)
    if ink is None:
        return None
    slots, marks, area = ink
    arts = [s.bleed_rect for s in slots]
    # turned a quarter: the strip's length becomes a band's width, so the foot's
    # stretch search serves the sides as well
    strokes = [_transposed(m.box(MARK_WIDTH)) for m in marks]
    best: tuple[tuple[float, float], Rect] | None = None
    for left in (True, False):
        depth = (min(r.x for r in arts) - MARK_GAP - area.x if left
                 else area.x1 - max(r.x1 for r in arts) - MARK_GAP)
        depth = min(depth, LABEL_MAX_SIZE * LABEL_DEPTH)
        if depth <= EPS:
            continue
        strip = Rect(area.x if left else area.x1 - depth, area.y, depth, area.h)
        stretch = widest_free_stretch(_transposed(strip), strokes, LABEL_CLEARANCE)
        if stretch is None:
            continue
        y0, y1 = stretch
        box = Rect(strip.x, y0, depth, y1 - y0)
        score = (round(depth, 6), round(box.h, 6))
        if best is None or score > best[0]:
            best = (score, box)
    return best[1] if best is not None else None


def inner_label_box(layout: SheetLayout | PagePlan, page: int = 0) -> Rect | None:
    """Return the lowest band across the page free of art and marks, or None.

    For packed pages whose pieces reach the foot and both sides (a gutter-fold
    small-parts page): a band between two rows of pieces, or between pieces
    and the fold, across the printable width, ``MARK_GAP`` clear of all art
    and :data:`LABEL_CLEARANCE` clear of every crop mark and fold line (each
    taken as if it ran across the page, which only costs room). At least
    :data:`LABEL_MIN_SIZE` deep, else None.
    """
    ink = _page_ink(layout, page)
    if ink is None:
        return None
    slots, marks, area = ink
    taken = [(s.bleed_rect.y - MARK_GAP, s.bleed_rect.y1 + MARK_GAP) for s in slots]
    taken += [(r.y - LABEL_CLEARANCE, r.y1 + LABEL_CLEARANCE)
              for r in (m.box(MARK_WIDTH) for m in marks)]
    cursor = area.y
    for lo, hi in _merge(taken) + [(area.y1, area.y1)]:
        if min(lo, area.y1) - cursor >= LABEL_MIN_SIZE * LABEL_DEPTH - EPS:
            return Rect(area.x, cursor, area.w, min(lo, area.y1) - cursor)
        cursor = max(cursor, hi)
        if cursor >= area.y1:
            break
    return None


def _transposed(r: Rect) -> Rect:
    """Return ``r`` mirrored across the diagonal (x and y swapped)."""
    return Rect(r.y, r.x, r.h, r.w)


def place_label(layout: SheetLayout | PagePlan, text_width: Callable[[float], float],
                page: int = 0) -> LabelSpot | None:
    """Return where a sheet's label goes, or None if it fits nowhere at 5 pt or more.

    ``text_width(size)`` is the label's length in points at ``size`` pt
    (the caller measures its font; this stays geometry). At the foot first
    (:func:`label_box`), as every page had it; where that band is too
    shallow or too short, turned by 90 degrees up a side margin
    (:func:`side_label_box`); failing both (a packed page whose pieces
    reach every edge), in the lowest free band between its rows
    (:func:`inner_label_box`). Each way the label is as large as the
    space allows up to :data:`LABEL_MAX_SIZE`, at least
    :data:`LABEL_MIN_SIZE`, and keeps :data:`LABEL_CLEARANCE` from every
    crop mark.
    """
    foot = label_box(layout, page)
    if foot is not None:
        size = min(LABEL_MAX_SIZE, foot.h / LABEL_DEPTH)
        if size >= LABEL_MIN_SIZE - EPS and text_width(size) <= foot.w + EPS:
            return LabelSpot(foot.x, foot.y + LABEL_DESCENT * size, size, 0, foot)
    side = side_label_box(layout, page)
    if side is not None:
        size = min(LABEL_MAX_SIZE, side.w / LABEL_DEPTH)
        if size >= LABEL_MIN_SIZE - EPS and text_width(size) <= side.h + EPS:
            # turned about its origin, the line's ascent points left: the
            # baseline stands one ascent right of the strip's outer edge
            return LabelSpot(side.x + LABEL_ASCENT * size, side.y, size, 90, side)
    inner = inner_label_box(layout, page)
    if inner is not None:
        size = min(LABEL_MAX_SIZE, inner.h / LABEL_DEPTH)
        if text_width(size) <= inner.w + EPS:
            return LabelSpot(inner.x, inner.y + LABEL_DESCENT * size, size, 0, inner)
    return None


def widest_free_stretch(band: Rect, obstacles: Sequence[Rect], clearance: float
                        ) -> tuple[float, float] | None:
    """Return the widest x-range (x0, x1) of ``band`` at least ``clearance`` from every obstacle.

    An obstacle blocks the x-range it covers, widened by ``clearance``, when
    it comes within ``clearance`` of the band vertically. Ties go to the
    leftmost range; None if the band is blocked all along.
    """
    blocked = [(r.x - clearance, r.x1 + clearance) for r in obstacles
               if r.y < band.y1 + clearance - EPS and r.y1 > band.y - clearance + EPS]
    best: tuple[float, float] | None = None
    cursor = band.x
    for a, b in _merge(blocked) + [(band.x1, band.x1)]:
        lo, hi = cursor, min(a, band.x1)
        if hi - lo > EPS and (best is None or hi - lo > best[1] - best[0] + EPS):
            best = (lo, hi)
        cursor = max(cursor, b)
        if cursor >= band.x1:
            break
    return best


def paginate(items: Sequence[T], per_sheet: int) -> list[list[T]]:
    """Split ``items`` into consecutive sheets of at most ``per_sheet`` items."""
    if per_sheet < 1:
        raise PnpError(f"bad sheet capacity {per_sheet}: expected at least 1")
    return [list(items[i:i + per_sheet]) for i in range(0, len(items), per_sheet)]
