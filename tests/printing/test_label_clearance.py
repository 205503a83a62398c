"""Pure-geometry tests of a sheet's footer label: clear of every crop mark, off the art.

The label used to start 1 mm right of the lowest card's trim, 0.9 mm from
the crop mark on that cut line, and read as if it touched it.
"""

from __future__ import annotations

import pytest

from pnp.printing.geometry import Rect, Slot
from pnp.printing.imposition import (LABEL_CLEARANCE, MARK_GAP, MARK_WIDTH, PagePlan,
                                     compute_layout, label_box, plan_sheet,
                                     widest_free_stretch)
from pnp.printing.packing import Piece, pack_label_sheets, pack_pieces
from pnp.units import mm

from mark_geometry import PRESETS, TOL, distance, stroke  # tests/mark_geometry.py

MARGIN = mm(5)
CARDS_MM = {"poker": (63.0, 88.0), "mini": (44.0, 67.0), "token": (25.0, 25.0)}


def art(slot: Slot) -> Rect:
    """Trim plus bleed of a slot."""
    t, b = slot.trim, slot.bleed
    return Rect(t.x - b.left, t.y - b.bottom, t.w + b.left + b.right, t.h + b.bottom + b.top)


def check_clear(page: PagePlan) -> Rect | None:
    """Assert the page's label box is inside the printable area, off the art, clear of marks."""
    box = label_box(page)
    if box is None:
        return None
    w, h = page.paper.width, page.paper.height
    assert box.x >= MARGIN - TOL and box.y >= MARGIN - TOL
    assert box.x + box.w <= w - MARGIN + TOL and box.y + box.h <= h - MARGIN + TOL
    for slot in page.slots:
        assert distance(box, art(slot)) >= MARK_GAP - TOL
    for seg in page.marks + page.folds:
        assert distance(box, stroke(seg)) >= LABEL_CLEARANCE - TOL, (box, seg)
    return box


@pytest.mark.parametrize("paper,kind,priority", PRESETS)
@pytest.mark.parametrize("card", sorted(CARDS_MM))
def test_grid_labels_keep_clear_of_every_mark(paper: str, kind: str, priority: str,
                                               card: str) -> None:
    w, h = CARDS_MM[card]
    lay = compute_layout(paper, (mm(w), mm(h)), kind=kind, priority=priority)
    # a full sheet, a part-filled one and a single card
    for count in sorted({lay.per_sheet, max(1, lay.per_sheet - 2), 1}):
        for page in plan_sheet(lay, count):
            check_clear(page)


def test_a4_poker_label_starts_a_clearance_right_of_the_crop_mark() -> None:
    """fortune_clover/deck-a4.pdf: the label sits under the first card, 2 mm off its mark."""
    lay = compute_layout("a4", (mm(63), mm(88)))
    fronts = plan_sheet(lay, lay.per_sheet)[0]
    box = label_box(fronts)
    assert box is not None
    left = min(s.trim.x for s in fronts.slots)
    mark = next(m for m in fronts.marks if abs(m.x0 - left) < TOL and abs(m.x1 - left) < TOL
                and max(m.y0, m.y1) < min(s.trim.y for s in fronts.slots))
    assert box.x == pytest.approx(mark.x0 + MARK_WIDTH / 2 + LABEL_CLEARANCE)
    assert box.x - left >= mm(2)          # the old label began 1 mm from the trim
    assert box.w >= mm(55)                # the longest deck label fits (about 49 mm)
    assert box.y == pytest.approx(MARGIN)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_packed_and_sticker_pages_keep_clear(paper: str) -> None:
    pieces = ([Piece(0, mm(140), mm(60), "rect", "board")]
              + [Piece(i, mm(24), mm(15), "rect", "sticker") for i in range(1, 48)]
              + [Piece(i, mm(25), mm(25), "circle", "chip") for i in range(48, 60)])
    for sheet in pack_pieces(paper, pieces, kind="duplex", bleed=mm(3)):
        for page in sheet:
            assert check_clear(page) is not None
    # a full gutter-fold page may leave no room for a label, never a label on a mark
    for sheet in pack_pieces(paper, pieces, kind="gutterfold", bleed=mm(3)):
        for page in sheet:
            check_clear(page)
    for sheet in pack_label_sheets(paper, pieces[1:48], bleed=mm(3)):
        assert check_clear(sheet[0]) is not None


def test_widest_free_stretch() -> None:
    band = Rect(0, 0, 100, 10)
    # nothing in the way: the whole band
    assert widest_free_stretch(band, [], 2) == (0, 100)
    # a mark at x=10 and one at x=60 (1 wide): widest is between them, 2 clear of each
    marks = [Rect(10, 0, 1, 5), Rect(60, 0, 1, 5)]
    assert widest_free_stretch(band, marks, 2) == (13, 58)
    # a tie goes to the leftmost stretch
    assert widest_free_stretch(band, [Rect(49, 0, 2, 5)], 2) == (0, 47)
    # a mark ending above the band still blocks when it is within the clearance ...
    assert widest_free_stretch(band, [Rect(30, 11, 1, 5)], 2) == (33, 100)
    # ... and not when it is farther away
    assert widest_free_stretch(band, [Rect(30, 13, 1, 5)], 2) == (0, 100)
    # blocked all along
    assert widest_free_stretch(band, [Rect(-5, 0, 110, 1)], 2) is None
