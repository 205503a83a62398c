"""Shared small-part sheets: packing geometry, circle guides, round clipping (rendered)."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path
from typing import Any

import pypdfium2
import pytest
import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from pnp.errors import PnpError
from pnp.printing.geometry import Rect
from pnp.printing.imposition import MARK_WIDTH, PagePlan
from pnp.printing.packing import Piece, pack_pieces
from pnp.printing.sheets import SheetItem, write_pages
from pnp.units import mm

TOL = 1e-6
BLEED = mm(3)
A4 = (mm(210), mm(297))


def undecim_like() -> list[Piece]:
    """4 markers of 10 mm, 10 counters of 16 mm (round) and one 140 x 60 mm board."""
    pieces = [Piece(i, mm(10), mm(10), "circle", "markers") for i in range(4)]
    pieces += [Piece(4 + i, mm(16), mm(16), "circle", "counters") for i in range(10)]
    pieces.append(Piece(14, mm(140), mm(60), "rect", "board"))
    return pieces


def overlap(a: Rect, b: Rect) -> bool:
    """True if the interiors intersect."""
    return (min(a.x1, b.x1) - max(a.x, b.x) > TOL and min(a.y1, b.y1) - max(a.y, b.y) > TOL)


def inside(inner: Rect, outer: Rect) -> bool:
    """True if ``inner`` lies in ``outer``."""
    return (inner.x >= outer.x - TOL and inner.y >= outer.y - TOL
            and inner.x1 <= outer.x1 + TOL and inner.y1 <= outer.y1 + TOL)


@pytest.mark.parametrize("kind", ["duplex", "gutterfold"])
def test_mixed_parts_share_one_sheet(kind: str) -> None:
    sheets = pack_pieces("A4", undecim_like(), kind=kind, bleed=BLEED)
    assert len(sheets) == 1  # three components, one sheet instead of three
    pages = sheets[0]
    assert len(pages) == (2 if kind == "duplex" else 1)
    fronts = [s for p in pages for s in p.slots if s.side == "front"]
    assert sorted(s.index for s in fronts) == list(range(15))
    for page in pages:
        area = page.printable
        for s in page.slots:
            assert inside(s.bleed_rect, area)
            assert s.bleed.smallest() == pytest.approx(BLEED)  # full bleed on every edge
        for a, b in combinations(page.slots, 2):
            assert not overlap(a.bleed_rect, b.bleed_rect), (a.index, b.index)


def test_round_pieces_get_no_straight_marks_rect_pieces_get_all_four_lines() -> None:
    (fronts, backs) = pack_pieces("A4", undecim_like(), bleed=BLEED)[0]
    board = next(s for s in fronts.slots if s.shape == "rect")
    round_cuts = [v for s in fronts.slots if s.shape == "circle"
                  for v in (s.trim.x, s.trim.x1, s.trim.y, s.trim.y1)]
    for x in (board.trim.x, board.trim.x1):
        assert any(abs(m.x0 - x) < TOL and abs(m.x1 - x) < TOL for m in fronts.marks)
    for y in (board.trim.y, board.trim.y1):
        assert any(abs(m.y0 - y) < TOL and abs(m.y1 - y) < TOL for m in fronts.marks)
    for m in fronts.marks:
        on_board = (abs(m.x0 - m.x1) < TOL and any(abs(m.x0 - v) < TOL for v in
                                                   (board.trim.x, board.trim.x1))) or \
                   (abs(m.y0 - m.y1) < TOL and any(abs(m.y0 - v) < TOL for v in
                                                   (board.trim.y, board.trim.y1)))
        assert on_board, f"a mark not on the board's cut lines: {m}"
        box = m.box(MARK_WIDTH)
        for s in fronts.slots:
            assert not overlap(box, s.bleed_rect)
    assert round_cuts  # there are round pieces, and none of their lines is marked
    assert len(fronts.circles()) == 14
    # Backs land behind fronts (x mirror of a portrait A4 page).
    for f in fronts.slots:
        b = next(s for s in backs.slots if s.index == f.index)
        assert b.trim.x + f.trim.x + f.trim.w == pytest.approx(A4[0])
        assert b.shape == f.shape


def test_many_chips_fill_pages_in_order_and_too_big_is_an_error() -> None:
    chips = [Piece(i, mm(20), mm(20), "circle", "chips") for i in range(120)]
    sheets = pack_pieces("A4", chips, bleed=BLEED)
    per_page = [len(s[0].slots) for s in sheets]
    assert sum(per_page) == 120 and len(sheets) == 2
    assert per_page[0] == 7 * 11  # 26 mm pitch: 7 across 200 mm, 11 down 287 mm
    with pytest.raises(PnpError) as info:
        pack_pieces("A4", [Piece(0, mm(300), mm(250), "rect", "g/mat")], bleed=BLEED)
    assert "g/mat" in str(info.value) and "does not fit" in str(info.value)


@pytest.fixture(scope="module")
def font() -> str:
    """Register ReportLab's Vera as an embedded label font."""
    name = "PnpPackVera"
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(name, str(Path(reportlab.__file__).parent / "fonts"
                                                 / "Vera.ttf")))
    return name


def test_rendered_round_pieces_are_discs_with_a_guide(tmp_path: Path, font: str) -> None:
    """A round chip's art is clipped to a disc (bleed square corners stay white) and
    its front carries a dark circle guide on the cut line; the back has none."""
    def place(c: Canvas, face: Any, x: float, y: float) -> None:
        c.setFillColorRGB(*face)
        c.rect(x - BLEED, y - BLEED, mm(20) + 2 * BLEED, mm(20) + 2 * BLEED, stroke=0, fill=1)

    pieces = [Piece(0, mm(20), mm(20), "circle", "chip")]
    sheets = pack_pieces("A4", pieces, bleed=BLEED)
    out = tmp_path / "chips.pdf"
    write_pages(out, sheets, [SheetItem((1, 1, 0), (0, 0.6, 0))], place=place,
                canvas_kwargs={"initialFontName": font}, label="chips")
    front_plan: PagePlan = sheets[0][0]
    back_plan: PagePlan = sheets[0][1]
    pdf = pypdfium2.PdfDocument(out)
    scale = 8.0

    def pixel(page_no: int, x: float, y: float) -> tuple[int, ...]:
        page = pdf[page_no]
        image = page.render(scale=scale).to_pil().convert("RGB")
        return image.getpixel((round(x * scale), round((A4[1] - y) * scale)))

    for plan, page_no, colour in ((front_plan, 0, (255, 255, 0)), (back_plan, 1, (0, 153, 0))):
        t = plan.slots[0].trim
        cx, cy, r = t.x + t.w / 2, t.y + t.h / 2, t.w / 2
        assert pixel(page_no, cx, cy) == colour
        assert pixel(page_no, cx + r + BLEED / 2, cy) == colour  # bleed beyond the cut
        corner = pixel(page_no, t.x - BLEED + mm(0.5), t.y - BLEED + mm(0.5))
        assert corner == (255, 255, 255)  # the bleed square's corner: not printed
        on_line = pixel(page_no, cx + r, cy)
        if page_no == 0:
            assert max(on_line) < 120, on_line  # dark guide on the cut circle
        else:
            assert on_line == colour  # no guide on the back
