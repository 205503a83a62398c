"""Pure-geometry tests of sheet imposition: grid, bleed, crop marks, mirroring, folds."""

from __future__ import annotations

import math
from itertools import combinations

import pytest

from pnp.errors import PnpError
from pnp.printing.geometry import Bleed, Rect, Segment, Slot
from pnp.printing.imposition import (MARK_GAP, MARK_WIDTH, MIN_MARK, PagePlan, SheetLayout,
                                     back_slot, compute_layout, crop_marks, mirror_rect,
                                     paginate, plan_sheet)
from pnp.printing.papers import get_paper
from pnp.units import mm

TOL = 1e-6
#: Paper sizes in mm, typed in from REFERENCE "Card and paper sizes".
PAPERS_MM = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}
CARDS_MM = {"poker": (63.0, 88.0), "mini": (44.0, 67.0), "token": (25.0, 25.0)}
MARGIN = mm(5)
BLEED = mm(3)


def layout_for(paper: str, card: str, **kwargs: object) -> SheetLayout:
    """Return the portrait duplex layout for a named paper and card size."""
    w, h = CARDS_MM[card]
    kwargs.setdefault("orientation", "portrait")
    return compute_layout(paper, (mm(w), mm(h)), **kwargs)  # type: ignore[arg-type]


def overlap(a: Rect, b: Rect) -> bool:
    """True if the interiors of ``a`` and ``b`` intersect (by more than TOL)."""
    return (min(a.x + a.w, b.x + b.w) - max(a.x, b.x) > TOL
            and min(a.y + a.h, b.y + b.h) - max(a.y, b.y) > TOL)


def inside(inner: Rect, outer: Rect) -> bool:
    """True if ``inner`` lies within ``outer`` (edges allowed)."""
    return (inner.x >= outer.x - TOL and inner.y >= outer.y - TOL
            and inner.x + inner.w <= outer.x + outer.w + TOL
            and inner.y + inner.h <= outer.y + outer.h + TOL)


def printable(paper: str, landscape: bool = False) -> Rect:
    """Return the paper less a 5 mm margin, computed from the reference sizes."""
    w, h = (mm(v) for v in PAPERS_MM[paper])
    if landscape:
        w, h = h, w
    return Rect(MARGIN, MARGIN, w - 2 * MARGIN, h - 2 * MARGIN)


def stroke_box(seg: Segment) -> Rect:
    """Return the area a butt-capped, MARK_WIDTH-wide stroke of ``seg`` covers."""
    half = MARK_WIDTH / 2
    if abs(seg.x0 - seg.x1) < TOL:
        lo, hi = sorted((seg.y0, seg.y1))
        return Rect(seg.x0 - half, lo, MARK_WIDTH, hi - lo)
    assert abs(seg.y0 - seg.y1) < TOL, f"mark {seg} is neither horizontal nor vertical"
    lo, hi = sorted((seg.x0, seg.x1))
    return Rect(lo, seg.y0 - half, hi - lo, MARK_WIDTH)


def bleed_rect(slot: Slot) -> Rect:
    """Return trim + bleed, computed here rather than by the code under test."""
    t, b = slot.trim, slot.bleed
    return Rect(t.x - b.left, t.y - b.bottom, t.w + b.left + b.right, t.h + b.bottom + b.top)


ALL = [(p, c) for p in PAPERS_MM for c in CARDS_MM]


# --------------------------------------------------------------------------
# grid


@pytest.mark.parametrize("paper,card", ALL)
def test_cards_per_page_is_the_gapless_maximum(paper: str, card: str) -> None:
    """The grid holds as many cards as fit gapless in the printable area."""
    lay = layout_for(paper, card)
    area = printable(paper)
    cw, ch = (mm(v) for v in CARDS_MM[card])
    expected = math.floor(area.w / cw + 1e-9) * math.floor(area.h / ch + 1e-9)
    assert lay.per_sheet == expected
    assert lay.columns * lay.rows == expected
    assert len(lay.fronts) == len(lay.backs) == expected
    assert lay.paper.orientation == "portrait"


@pytest.mark.parametrize("paper", PAPERS_MM)
def test_poker_is_nine_up(paper: str) -> None:
    """Poker 63 x 88 mm gives 9 cards on both A4 and Letter (3 x 3)."""
    lay = layout_for(paper, "poker")
    assert (lay.columns, lay.rows, lay.per_sheet) == (3, 3, 9)


@pytest.mark.parametrize("paper,card", ALL)
@pytest.mark.parametrize("page", [0, 1])
def test_slots_inside_printable_and_disjoint(paper: str, card: str, page: int) -> None:
    """Every trim + bleed is inside the margin; no two bleed rectangles overlap."""
    lay = layout_for(paper, card)
    area = printable(paper)
    slots = lay.slots_on_page(page)
    assert slots
    for s in slots:
        assert s.trim.w == pytest.approx(mm(CARDS_MM[card][0]))
        assert s.trim.h == pytest.approx(mm(CARDS_MM[card][1]))
        for v in (s.bleed.left, s.bleed.right, s.bleed.bottom, s.bleed.top):
            assert -TOL <= v <= BLEED + TOL
        assert inside(bleed_rect(s), area), (s.index, bleed_rect(s).as_mm())
    for a, b in combinations(slots, 2):
        assert not overlap(bleed_rect(a), bleed_rect(b)), (a.index, b.index)
        assert not overlap(bleed_rect(a), b.trim) and not overlap(a.trim, bleed_rect(b))


@pytest.mark.parametrize("paper,card", ALL)
def test_grid_is_centred(paper: str, card: str) -> None:
    """The block of trims has equal space left/right and top/bottom."""
    lay = layout_for(paper, card)
    w, h = (mm(v) for v in PAPERS_MM[paper])
    x0 = min(s.trim.x for s in lay.fronts)
    x1 = max(s.trim.x1 for s in lay.fronts)
    y0 = min(s.trim.y for s in lay.fronts)
    y1 = max(s.trim.y1 for s in lay.fronts)
    assert x0 == pytest.approx(w - x1, abs=1e-6)
    assert y0 == pytest.approx(h - y1, abs=1e-6)


@pytest.mark.parametrize("paper,card", ALL)
@pytest.mark.parametrize("gutter", ["auto", "none", "full"])
def test_shared_cut_lines_get_no_bleed(paper: str, card: str, gutter: str) -> None:
    """Touching neighbours have no bleed on the shared side; gutters give full bleed."""
    try:
        lay = layout_for(paper, card, gutter=gutter)
    except PnpError:
        pytest.fail(f"{card} on {paper} with gutter {gutter} should fit")
    for a in lay.fronts:
        for b in lay.fronts:
            same_row = abs(a.trim.y - b.trim.y) < TOL
            same_col = abs(a.trim.x - b.trim.x) < TOL
            if same_row and b.trim.x > a.trim.x and not any(
                    c.trim.x > a.trim.x + TOL and c.trim.x < b.trim.x - TOL for c in lay.fronts):
                gap = b.trim.x - a.trim.x1
                if gap < TOL:
                    assert a.bleed.right == b.bleed.left == 0
                else:
                    assert a.bleed.right <= gap / 2 + TOL and b.bleed.left <= gap / 2 + TOL
                    if gutter == "full":
                        # full bleed, or none where rule 5 keeps the art edge visible
                        assert (a.bleed.right == pytest.approx(BLEED)
                                or a.bleed.right == b.bleed.left == 0)
            if same_col and b.trim.y > a.trim.y and not any(
                    c.trim.y > a.trim.y + TOL and c.trim.y < b.trim.y - TOL for c in lay.fronts):
                gap = b.trim.y - a.trim.y1
                if gap < TOL:
                    assert a.bleed.top == b.bleed.bottom == 0
                else:
                    assert a.bleed.top <= gap / 2 + TOL and b.bleed.bottom <= gap / 2 + TOL


def test_full_gutters_give_full_bleed() -> None:
    """gutter="full" on A4 poker: 6 mm gutters and 3 mm bleed on every side of every card."""
    lay = layout_for("A4", "poker", gutter="full")
    assert lay.gutter_x == pytest.approx(2 * BLEED) == lay.gutter_y
    for s in lay.fronts:
        assert s.bleed == Bleed(BLEED, BLEED, BLEED, BLEED)


def test_poker_bleed_figures() -> None:
    """The module's worked figures: A4 1.23 mm columns / 3 mm rows; Letter 2.08 / 0.9 mm."""
    a4 = layout_for("A4", "poker")
    # Balanced column gutters: 3 x 63 + 2 g + 2 (g/2 + 1.8) = 200 -> g = 2.467 mm.
    assert a4.gutter_x == pytest.approx(mm(2 * 7.4 / 6)) and a4.gutter_y == pytest.approx(mm(6))
    for s in a4.fronts:
        assert s.bleed.left == pytest.approx(mm(7.4 / 6)) == s.bleed.right
        assert s.bleed.top == pytest.approx(BLEED) == s.bleed.bottom
    letter = layout_for("Letter", "poker")
    # Columns: (205.9 - 189 - 3.6) / 6 = 2.217 mm a side would leave the label no
    # room (1.5 mm under the grid and beside it); rule 7 keeps r = 5.4 pt - 1.5 mm
    # more of each side margin (a 5 pt label's ink, descenders included, is
    # 1.08 em deep): (13.3 - 2 r) / 6 = 2.082 mm a side. Rows stay gapless.
    side = (13.3 - 2 * (5 * 1.08 * 25.4 / 72 - 1.5)) / 6
    assert letter.gutter_x == pytest.approx(mm(2 * side)) and letter.gutter_y == 0
    assert all(s.bleed.left == pytest.approx(mm(side)) for s in letter.fronts)
    top_row = [s for s in letter.fronts if s.trim.y1 == max(t.trim.y1 for t in letter.fronts)]
    assert len(top_row) == 3
    assert all(s.bleed.top == pytest.approx(mm(0.9)) for s in top_row)
    assert all(s.bleed.bottom == 0 for s in top_row)


@pytest.mark.parametrize("paper, per_sheet", [("A4", 8), ("Letter", 6)])
def test_bleed_priority_gives_every_edge_full_bleed(paper: str, per_sheet: int) -> None:
    """priority="bleed": every cut edge gets >= 2 mm (here the full 3 mm), fewer cards."""
    lay = compute_layout(paper, (mm(63), mm(88)), priority="bleed")
    assert lay.per_sheet == per_sheet and lay.paper.orientation == "landscape"
    assert min(lay.edge_bleeds()) == pytest.approx(BLEED)


@pytest.mark.parametrize("paper,card", ALL)
def test_auto_gutter_maximises_the_least_bleed(paper: str, card: str) -> None:
    """No other gutter choice on the same grid gives every edge more bleed (rule 3)."""
    lay = layout_for(paper, card)
    best = lay.smallest_bleed()
    for gutter in ("none", "full"):
        try:
            other = layout_for(paper, card, gutter=gutter)
        except PnpError:
            continue
        if other.per_sheet == lay.per_sheet:
            assert other.smallest_bleed() <= best + TOL, gutter
    if lay.gutter_x > 0:
        assert lay.gutter_x / 2 >= mm(1) - TOL  # a gutter is worth its extra cut
    if lay.gutter_y > 0:
        assert lay.gutter_y / 2 >= mm(1) - TOL


def test_part_filled_sheet_marks_only_its_cards() -> None:
    """7 of 9: no mark beside the two empty slots' far edges; the open sides bleed fully."""
    lay = layout_for("Letter", "poker")
    fronts, backs = plan_sheet(lay, 7)
    assert len(fronts.slots) == len(backs.slots) == 7
    last = fronts.slots[6]  # bottom row, first column; its right neighbour is empty
    assert fronts.slots[5].bleed.bottom == pytest.approx(BLEED)  # faces an empty slot
    assert last.bleed.right == pytest.approx(BLEED)
    empty_right = lay.fronts[8].trim.x1  # right edge of the empty bottom-right slot
    lowest = min(s.trim.y for s in fronts.slots)
    for m in fronts.marks:
        vertical = abs(m.x0 - m.x1) < TOL
        # No vertical mark below the last row at the empty column's right edge
        # beyond the filled rows: marks hug the cards that are there.
        if vertical and abs(m.x0 - empty_right) < TOL:
            assert min(m.y0, m.y1) > lay.fronts[5].trim.y - mm(3 + 0.3 + 3) - TOL, m
    def rounded(segs: tuple[Segment, ...]) -> set[tuple[float, ...]]:
        return {tuple(round(v, 6) for v in (m.x0, m.y0, m.x1, m.y1)) for m in segs}

    full = crop_marks(fronts.slots, printable("Letter"), lay.mark_length)
    assert rounded(full) == rounded(fronts.marks)
    page = PagePlan(fronts.slots, fronts.marks, (), False, "fronts", lay.paper, lay.margin)
    area = printable("Letter")
    for seg in page.marks:
        box = stroke_box(seg)
        for s in page.slots:
            assert not overlap(box, bleed_rect(s))
        assert inside(Rect(min(seg.x0, seg.x1), min(seg.y0, seg.y1), abs(seg.x1 - seg.x0),
                           abs(seg.y1 - seg.y0)), area)
    # Every cut line of every card on the page still has a mark.
    for s in page.slots:
        for x in (s.trim.x, s.trim.x1):
            assert any(abs(m.x0 - x) < TOL and abs(m.x1 - x) < TOL for m in page.marks), x
        for y in (s.trim.y, s.trim.y1):
            assert any(abs(m.y0 - y) < TOL and abs(m.y1 - y) < TOL for m in page.marks), y
    assert lowest > 0


@pytest.mark.parametrize("paper,card", ALL)
def test_outer_bleed_is_full_when_there_is_room(paper: str, card: str) -> None:
    """On a gapless axis, an outer band with room for bleed, gap and mark gets full bleed.

    (With gutters the outer bleed is balanced against the inner one instead.)
    Exception (rule 5): if no mark can show the cut lines running along that
    side, the bleed there is 0 so the art's edge shows the cut.
    """
    lay = layout_for(paper, card)
    area = printable(paper)
    need = BLEED + MARK_GAP + MIN_MARK
    vertical = any(abs(m.x0 - m.x1) < TOL for m in lay.marks[0])
    horizontal = any(abs(m.y0 - m.y1) < TOL for m in lay.marks[0])
    for s in lay.fronts:
        for side, band in (("left", s.trim.x - area.x), ("right", area.x1 - s.trim.x1),
                           ("bottom", s.trim.y - area.y), ("top", area.y1 - s.trim.y1)):
            gutter = lay.gutter_x if side in ("left", "right") else lay.gutter_y
            if band >= need - TOL and gutter == 0:
                neighbours = [t for t in lay.fronts if t is not s]
                if any(_beside(s, t, side) for t in neighbours):
                    continue
                marked = vertical if side in ("left", "right") else horizontal
                expected = BLEED if marked else 0.0
                assert getattr(s.bleed, side) == pytest.approx(expected), (s.index, side)


def _beside(a: Slot, b: Slot, side: str) -> bool:
    """True if ``b`` lies on ``side`` of ``a`` in the same row or column."""
    if side in ("left", "right"):
        same = abs(a.trim.y - b.trim.y) < TOL
        return same and (b.trim.x < a.trim.x if side == "left" else b.trim.x > a.trim.x)
    same = abs(a.trim.x - b.trim.x) < TOL
    return same and (b.trim.y < a.trim.y if side == "bottom" else b.trim.y > a.trim.y)


# --------------------------------------------------------------------------
# crop marks


def _check_marks(lay: SheetLayout, area: Rect, page: int) -> None:
    """Assert the crop-mark invariants on one page of ``lay``."""
    slots = lay.slots_on_page(page)
    cut_x = [v for s in slots for v in (s.trim.x, s.trim.x1)]
    cut_y = [v for s in slots for v in (s.trim.y, s.trim.y1)]
    for seg in lay.marks[page]:
        assert seg.length >= MIN_MARK - TOL
        # The line itself is inside the printable area; its stroke may reach
        # half a stroke width past it only where a cut line is on the margin.
        assert inside(Rect(min(seg.x0, seg.x1), min(seg.y0, seg.y1),
                           abs(seg.x1 - seg.x0), abs(seg.y1 - seg.y0)), area), seg
        box = stroke_box(seg)
        grown = Rect(area.x - MARK_WIDTH / 2, area.y - MARK_WIDTH / 2,
                     area.w + MARK_WIDTH, area.h + MARK_WIDTH)
        assert inside(box, grown)
        for s in slots:
            assert not overlap(box, bleed_rect(s)), (seg, s.index)
            assert not overlap(box, s.trim)
        if abs(seg.x0 - seg.x1) < TOL:
            assert any(abs(seg.x0 - x) < TOL for x in cut_x), f"vertical mark off any cut: {seg}"
        else:
            assert any(abs(seg.y0 - y) < TOL for y in cut_y), f"horizontal mark off any cut: {seg}"


@pytest.mark.parametrize("paper,card", ALL)
@pytest.mark.parametrize("page", [0, 1])
def test_crop_marks_stay_outside_the_art(paper: str, card: str, page: int) -> None:
    """Marks lie in the printable area, on cut-line extensions, clear of all art."""
    lay = layout_for(paper, card)
    assert lay.marks[page]
    _check_marks(lay, printable(paper), page)


@pytest.mark.parametrize("paper,card", ALL)
def test_every_cut_line_is_findable(paper: str, card: str) -> None:
    """Each cut line has a mark, or the art has no bleed across it (its edge shows)."""
    for orientation in ("portrait", "landscape"):
        lay = layout_for(paper, card, orientation=orientation)
        verticals = [s for s in lay.marks[0] if abs(s.x0 - s.x1) < TOL]
        horizontals = [s for s in lay.marks[0] if abs(s.y0 - s.y1) < TOL]
        for s in lay.fronts:
            for x, side in ((s.trim.x, "left"), (s.trim.x1, "right")):
                if not any(abs(m.x0 - x) < TOL for m in verticals):
                    assert getattr(s.bleed, side) == 0, (paper, card, orientation, s.index)
            for y, side in ((s.trim.y, "bottom"), (s.trim.y1, "top")):
                if not any(abs(m.y0 - y) < TOL for m in horizontals):
                    assert getattr(s.bleed, side) == 0, (paper, card, orientation, s.index)


@pytest.mark.parametrize("paper", PAPERS_MM)
def test_poker_marks_every_cut_line_at_both_ends(paper: str) -> None:
    """With poker cards every cut line is marked on both sides of the grid."""
    lay = layout_for(paper, "poker")
    xs = sorted({round(v, 6) for s in lay.fronts for v in (s.trim.x, s.trim.x1)})
    ys = sorted({round(v, 6) for s in lay.fronts for v in (s.trim.y, s.trim.y1)})
    grid_top = max(s.trim.y1 for s in lay.fronts)
    grid_right = max(s.trim.x1 for s in lay.fronts)
    for x in xs:
        ends = [m for m in lay.marks[0] if abs(m.x0 - x) < 1e-5 and abs(m.x1 - x) < 1e-5]
        assert any(min(m.y0, m.y1) > grid_top for m in ends), x
        assert any(max(m.y0, m.y1) < min(s.trim.y for s in lay.fronts) for m in ends), x
    for y in ys:
        ends = [m for m in lay.marks[0] if abs(m.y0 - y) < 1e-5 and abs(m.y1 - y) < 1e-5]
        assert any(min(m.x0, m.x1) > grid_right for m in ends), y
        assert any(max(m.x0, m.x1) < min(s.trim.x for s in lay.fronts) for m in ends), y


def test_no_marks_when_disabled() -> None:
    """marks=False draws no crop marks at all."""
    lay = layout_for("A4", "poker", marks=False)
    assert all(not m for m in lay.marks)


# --------------------------------------------------------------------------
# duplex mirroring


@pytest.mark.parametrize("paper,card", ALL)
def test_long_edge_portrait_mirrors_x(paper: str, card: str) -> None:
    """Back i: x_back + x_front + w == page width, y equal, left/right bleed swapped."""
    lay = layout_for(paper, card)
    width = mm(PAPERS_MM[paper][0])
    for f, b in zip(lay.fronts, lay.backs):
        assert (b.index, b.side, b.page, f.page) == (f.index, "back", 1, 0)
        assert b.trim.x + f.trim.x + f.trim.w == pytest.approx(width, abs=1e-6)
        assert b.trim.y == pytest.approx(f.trim.y, abs=1e-9)
        assert (b.bleed.left, b.bleed.right) == (f.bleed.right, f.bleed.left)
        assert (b.bleed.bottom, b.bleed.top) == (f.bleed.bottom, f.bleed.top)
        assert b.rotation == f.rotation == 0


@pytest.mark.parametrize("paper,card", ALL)
def test_long_edge_landscape_mirrors_y(paper: str, card: str) -> None:
    """On a landscape page the long-edge flip mirrors y and turns the back 180 degrees."""
    lay = layout_for(paper, card, orientation="landscape")
    assert lay.paper.orientation == "landscape"
    height = mm(PAPERS_MM[paper][0])  # landscape height = portrait width
    for f, b in zip(lay.fronts, lay.backs):
        assert b.trim.y + f.trim.y + f.trim.h == pytest.approx(height, abs=1e-6)
        assert b.trim.x == pytest.approx(f.trim.x, abs=1e-9)
        assert (b.bleed.bottom, b.bleed.top) == (f.bleed.top, f.bleed.bottom)
        assert (b.bleed.left, b.bleed.right) == (f.bleed.left, f.bleed.right)
        assert b.rotation == 180
    _check_marks(lay, printable(paper, landscape=True), 1)


def test_short_edge_portrait_mirrors_y() -> None:
    """Flipping a portrait sheet on its short edge mirrors y instead of x."""
    lay = layout_for("A4", "poker", flip="short")
    for f, b in zip(lay.fronts, lay.backs):
        assert b.trim.y + f.trim.y + f.trim.h == pytest.approx(mm(297), abs=1e-6)
        assert b.trim.x == pytest.approx(f.trim.x)


def test_back_slot_and_mirror_rect_directly() -> None:
    """back_slot and mirror_rect on a hand-made slot match the mirror formula."""
    paper = get_paper("A4")
    front = Slot(0, "front", 0, Rect(mm(10), mm(20), mm(63), mm(88)),
                 Bleed(mm(3), mm(1), mm(2), mm(0)))
    back = back_slot(front, paper)
    assert back.trim.x == pytest.approx(mm(210 - 10 - 63))
    assert back.trim.y == pytest.approx(mm(20))
    assert (back.bleed.left, back.bleed.right) == (mm(1), mm(3))
    assert back.page == 1 and back.side == "back"
    twice = mirror_rect(mirror_rect(front.trim, paper), paper)
    assert (twice.x, twice.y, twice.w, twice.h) == pytest.approx(
        (front.trim.x, front.trim.y, front.trim.w, front.trim.h))


# --------------------------------------------------------------------------
# gutter-fold


@pytest.mark.parametrize("paper,card", ALL)
@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
def test_gutterfold_backs_mirror_fronts_across_the_fold(paper: str, card: str,
                                                        orientation: str) -> None:
    """Backs mirror fronts across the fold, turned 180 degrees, with no overlap."""
    lay = layout_for(paper, card, kind="gutterfold", orientation=orientation)
    area = printable(paper, landscape=orientation == "landscape")
    fold = (area.y + area.y1) / 2
    assert lay.pages_per_sheet == 1 and len(lay.marks) == 1
    assert lay.fronts and len(lay.fronts) == len(lay.backs)
    for f, b in zip(lay.fronts, lay.backs):
        assert b.page == f.page == 0 and b.rotation == 180
        assert b.trim.x == pytest.approx(f.trim.x)
        assert (b.trim.y + b.trim.h / 2) + (f.trim.y + f.trim.h / 2) == pytest.approx(2 * fold)
        assert (b.bleed.top, b.bleed.bottom) == (f.bleed.bottom, f.bleed.top)
        assert bleed_rect(f).y >= fold - TOL, "front art crosses the fold"
        assert bleed_rect(b).y1 <= fold + TOL, "back art crosses the fold"
    slots = lay.fronts + lay.backs
    for s in slots:
        assert inside(bleed_rect(s), area)
    for a, b in combinations(slots, 2):
        assert not overlap(bleed_rect(a), bleed_rect(b))
    assert lay.folds, "no fold line drawn"
    for seg in lay.folds:
        assert seg.y0 == pytest.approx(fold) and seg.y1 == pytest.approx(fold)
        box = stroke_box(seg)
        for s in slots:
            assert not overlap(box, bleed_rect(s))
        assert area.x - TOL <= min(seg.x0, seg.x1) and max(seg.x0, seg.x1) <= area.x1 + TOL
    _check_marks(lay, area, 0)


def test_gutterfold_poker_a4_is_four_up_landscape() -> None:
    """The module's worked figure: poker gutter-fold on A4 is 4 fronts + 4 backs, landscape."""
    lay = compute_layout("A4", (mm(63), mm(88)), kind="gutterfold")
    assert lay.paper.orientation == "landscape"
    assert lay.per_sheet == 4 and lay.rows == 2 and lay.columns == 4


# --------------------------------------------------------------------------
# pagination and bad input


def test_paginate_78_cards() -> None:
    """78 cards at 9 a sheet: 9 sheets (8 full, 1 of 6), order kept."""
    sheets = paginate(list(range(78)), 9)
    assert len(sheets) == 9
    assert [len(s) for s in sheets] == [9] * 8 + [6]
    assert [c for s in sheets for c in s] == list(range(78))
    lay = layout_for("A4", "poker")
    assert len(sheets) * lay.pages_per_sheet == 18


def test_paginate_seven_cards_is_one_sheet() -> None:
    """Fewer cards than a sheet holds still make one sheet."""
    assert paginate(list("abcdefg"), 9) == [list("abcdefg")]
    with pytest.raises(PnpError):
        paginate([1], 0)


@pytest.mark.parametrize("size_mm", [(250.0, 300.0), (205.0, 50.0), (50.0, 290.0)])
def test_card_too_large_is_a_one_line_error(size_mm: tuple[float, float]) -> None:
    """A card larger than the printable area raises PnpError with a single-line message."""
    with pytest.raises(PnpError) as info:
        compute_layout("A4", (mm(size_mm[0]), mm(size_mm[1])), orientation="portrait")
    message = str(info.value)
    assert "\n" not in message and "does not fit" in message and "A4" in message


@pytest.mark.parametrize("bad", ["A3", "tabloid", ""])
def test_unknown_paper(bad: str) -> None:
    """An unknown paper name raises PnpError naming the choices."""
    with pytest.raises(PnpError) as info:
        compute_layout(bad, (mm(63), mm(88)))
    assert "A4" in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize("kwargs", [{"kind": "triplex"}, {"orientation": "diagonal"},
                                    {"gutter": "wide"}, {"flip": "sideways"},
                                    {"bleed": -1.0}])
def test_bad_options(kwargs: dict[str, object]) -> None:
    """Bad layout options raise PnpError, not a traceback."""
    with pytest.raises(PnpError):
        compute_layout("A4", (mm(63), mm(88)), **kwargs)  # type: ignore[arg-type]
