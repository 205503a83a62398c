"""The gutter-fold's dashed fold line: across the page between the halves, never in art.

A new-user review found full-bleed gutter-fold sheets with no fold line at
all: the fronts' and backs' bleed met at the fold, so the line was kept to
the 1.5 mm side margins, where it looked like one more crop mark. These
tests hold the geometry (pure, no rendering) and one drawn page to the fix.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pypdfium2
import pytest
import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from pnp.printing.geometry import Segment
from pnp.printing.imposition import (FOLD_CLEAR, FOLD_PART, PagePlan, compute_layout,
                                     fold_gap, plan_sheet)
from pnp.printing.packing import Piece, pack_pieces
from pnp.printing.sheets import SheetItem, write_sheets
from pnp.units import mm

TOL = 1e-6
CARDS_MM = {"poker": (63.0, 88.0), "mini": (44.0, 67.0), "tarot": (70.0, 120.0)}
FONT = "PnpFoldVera"


def covered(segments: tuple[Segment, ...]) -> float:
    """Total length of the (horizontal) segments."""
    return sum(abs(s.x1 - s.x0) for s in segments)


def check_fold_page(plan: PagePlan) -> None:
    """The fold line spans the printable width and every piece of art keeps off it."""
    area = plan.printable
    fold = plan.paper.height / 2
    assert plan.folds, "no fold line"
    assert all(abs(s.y0 - fold) < TOL and abs(s.y1 - fold) < TOL for s in plan.folds)
    assert covered(plan.folds) == pytest.approx(area.w, abs=TOL), \
        "the fold line must run across the whole printable width"
    for slot in plan.slots:
        r = slot.bleed_rect
        assert min(abs(r.y - fold), abs(r.y1 - fold)) >= FOLD_CLEAR - TOL, \
            f"art of item {slot.index} comes within {FOLD_CLEAR} pt of the fold"
    longest_mark = max((max(abs(m.x1 - m.x0), abs(m.y1 - m.y0)) for m in plan.marks),
                       default=0.0)
    assert covered(plan.folds) > 10 * longest_mark, "the fold must not look like a crop mark"
    assert plan.part == FOLD_PART and "dashed" in plan.part


def test_fold_gap_figures() -> None:
    """Poker at 3 mm bleed: trim 3 mm from the fold, 2 mm fold-side bleed, 1 mm clear."""
    assert fold_gap(mm(3), mm(2)) == pytest.approx((mm(3), mm(2)))
    # 2 mm bleed: the gap grows to keep the 2 mm target and the clear strip
    assert fold_gap(mm(2), mm(2)) == pytest.approx((mm(3), mm(2)))
    # no bleed: the trim keeps the smallest fold gap, no art reaches the fold
    assert fold_gap(0.0, 0.0) == pytest.approx((mm(1), 0.0))
    for bleed in (0.0, mm(0.5), mm(2), mm(3), mm(5)):
        gap, side = fold_gap(bleed, mm(2))
        assert gap - side >= FOLD_CLEAR - TOL and side <= bleed + TOL
        assert side >= min(bleed, mm(2)) - TOL


@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("card", sorted(CARDS_MM))
@pytest.mark.parametrize("fill", ["full", "part"])
def test_card_sheet_fold_line_spans_the_page(paper: str, card: str, fill: str) -> None:
    """Every gutter-fold card page, full or part-filled, has its fold line right across."""
    w, h = CARDS_MM[card]
    lay = compute_layout(paper, (mm(w), mm(h)), kind="gutterfold")
    count = lay.per_sheet if fill == "full" else 1
    (plan,) = plan_sheet(lay, count)
    check_fold_page(plan)
    # the fold side of the cards next to the fold keeps the 2 mm bleed target
    low = min(s.trim.y for s in lay.fronts)
    assert min(s.bleed.bottom for s in lay.fronts if s.trim.y == low) >= mm(2) - TOL


@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("shape", ["circle", "rect"])
def test_small_parts_fold_line_spans_the_page(paper: str, shape: str) -> None:
    """Packed tokens (discs bleed to bleed, squares with marks) leave the fold line free."""
    pieces = [Piece(i, mm(25), mm(25), shape, "chip") for i in range(40)]
    for sheet in pack_pieces(paper, pieces, kind="gutterfold", bleed=mm(3)):
        (plan,) = sheet
        check_fold_page(plan)


def _fill(c: Canvas, face: Any, x: float, y: float) -> None:
    """Fill trim + 3 mm bleed with the face's colour (art reaching every edge)."""
    c.setFillColorRGB(*face)
    c.rect(x - mm(3), y - mm(3), mm(63 + 6), mm(88 + 6), stroke=0, fill=1)


def test_drawn_fold_line_is_dashed_between_the_halves(tmp_path: Path) -> None:
    """On a drawn Letter page the fold row alternates ink and paper across the cards."""
    if FONT not in pdfmetrics.getRegisteredFontNames():
        path = Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"
        pdfmetrics.registerFont(TTFont(FONT, str(path)))
    out = tmp_path / "g.pdf"
    res = write_sheets(out, [SheetItem((0.2, 0.6, 0.2), (0.2, 0.2, 0.7))] * 4,
                       paper="Letter", layout="gutterfold", card_size=(mm(63), mm(88)),
                       place=_fill, canvas_kwargs={"initialFontName": FONT}, label="Deck")
    assert res.layout is not None
    page = pypdfium2.PdfDocument(out)[0]
    scale = 8.0
    image = page.render(scale=scale).to_pil().convert("RGB")
    width, height = page.get_mediabox()[2:]
    row = round((height - height / 2) * scale)
    fronts = res.layout.fronts
    x0, x1 = (round(v * scale) for v in (min(s.trim.x for s in fronts),
                                         max(s.trim.x1 for s in fronts)))
    pixels = [image.getpixel((x, row)) for x in range(x0, x1)]
    dark = [max(p) < 100 for p in pixels]          # the black dashes
    light = [min(p) > 230 for p in pixels]         # the paper between them
    assert all(d or lt or min(p) > 80 for d, lt, p in zip(dark, light, pixels)), \
        "card colour on the fold line"
    runs = sum(1 for a, b in zip(dark, dark[1:]) if a and not b)
    # 3.5 mm dash period over ~260 mm of cards: about 74 dashes
    assert runs > 60 and sum(light) > len(pixels) // 4
    # just off the line, the strip is paper, not art
    for dy in (mm(0.5), -mm(0.5)):
        y = round((height / 2 - dy) * scale)
        assert all(min(image.getpixel((x, y))) > 230 for x in range(x0, x1, 7))
    text = page.get_textpage().get_text_range()
    assert "fold on the dashed line" in text
