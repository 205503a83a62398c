"""Tests of the duplex calibration sheet: layout, English text, and the offset sign."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pypdfium2
import pytest
from reportlab.pdfgen.canvas import Canvas

from pnp.printing.calibration import BACK_TEXT, FRONT_TEXT, text_area, write_calibration
from pnp.printing.papers import get_paper
from pnp.printing.sheets import SheetItem, write_sheets
from pnp.units import mm

Box = tuple[float, float, float, float]
TOL = 0.01


def page_text(page: Any) -> str:
    """Return all text of a pdfium page."""
    return page.get_textpage().get_text_range()


def char_boxes(page: Any) -> list[Box]:
    """Return the boxes of all visible characters on a page."""
    tp = page.get_textpage()
    out = []
    for i in range(tp.count_chars()):
        left, bottom, right, top = tp.get_charbox(i)
        if right - left > 0 and top - bottom > 0:
            out.append((left, bottom, right, top))
    return out


def found(page: Any, text: str) -> list[tuple[float, float]]:
    """Return the centre of every occurrence of ``text`` on the page."""
    tp = page.get_textpage()
    searcher = tp.search(text)
    out = []
    while (hit := searcher.get_next()) is not None:
        index, count = hit
        boxes = [tp.get_charbox(index + k) for k in range(count)]
        left = min(b[0] for b in boxes)
        right = max(b[2] for b in boxes)
        bottom = min(b[1] for b in boxes)
        top = max(b[3] for b in boxes)
        out.append(((left + right) / 2, (bottom + top) / 2))
    return out


@pytest.fixture(scope="module")
def a4(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The A4 portrait calibration sheet (long-edge flip)."""
    path = tmp_path_factory.mktemp("cal") / "calibration-a4.pdf"
    write_calibration(path, "A4")
    return path


CASES = [("A4", "portrait"), ("Letter", "portrait"), ("A4", "landscape"),
         ("Letter", "landscape")]


@pytest.mark.parametrize("paper,orientation", CASES)
def test_text_inside_margin_and_english(tmp_path: Path, paper: str, orientation: str) -> None:
    """Two pages; every character within the 5 mm margin; ASCII-only text; CLI wording."""
    path = tmp_path / "cal.pdf"
    write_calibration(path, paper, orientation=orientation)
    pdf = pypdfium2.PdfDocument(path)
    assert len(pdf) == 2
    p = get_paper(paper, orientation)
    for i in range(2):
        page = pdf[i]
        assert page.get_mediabox() == pytest.approx((0, 0, p.width, p.height), abs=TOL)
        text = page_text(page)
        assert text.isascii()
        for left, bottom, right, top in char_boxes(page):
            assert mm(5) - TOL <= left and right <= p.width - mm(5) + TOL
            assert mm(5) - TOL <= bottom and top <= p.height - mm(5) + TOL
    back = " ".join(page_text(pdf[1]).split())
    assert "pnp build --back-offset DX DY" in back
    assert "back_offset" not in back and "mm(" not in back
    assert "moves the backs to the right" in back and "moves them up" in back
    # The instructions fit their area: the last line did not run into the centre target.
    area = text_area(p)
    last = found(pdf[1], "use the readings at A")
    assert last and all(area.y <= y <= area.y1 for _, y in last)
    first_front = found(pdf[0], "pnp duplex calibration - FRONT")
    assert first_front and all(area.y <= y <= area.y1 for _, y in first_front)


def test_sheet_text_lists_are_english() -> None:
    """The source text lines are ASCII and do not mention Python names."""
    for line in FRONT_TEXT + BACK_TEXT:
        assert line.isascii()
        assert "back_offset" not in line


def test_rulers_do_not_cross(a4: Path) -> None:
    """Near each back target, the DX ruler's spine and the DY ruler's spine do not touch."""
    page = pypdfium2.PdfDocument(a4)[1]
    paths = [o.get_bounds() for o in page.get_objects()
             if o.type == pypdfium2.raw.FPDF_PAGEOBJ_PATH]
    long_h = [b for b in paths if b[2] - b[0] > mm(12) and b[3] - b[1] < 1]
    long_v = [b for b in paths if b[3] - b[1] > mm(12) and b[2] - b[0] < 1]
    assert len(long_h) == len(long_v) == 5
    for h in long_h:
        for v in long_v:
            crosses = h[0] <= v[2] and v[0] <= h[2] and v[1] <= h[3] and h[1] <= v[3]
            assert not crosses, (h, v)


def test_reading_as_back_offset_cancels_misregistration(tmp_path: Path, a4: Path) -> None:
    """The sign convention end to end, on A4 portrait with a long-edge flip.

    The printer puts the back page's ink ``error`` mm off (in the back page's
    own coordinates). Seen from the back, the front crosshair at A then
    crosses the rulers (also printed ``error`` off) at readings DX, DY.
    Building with --back-offset DX DY must put the card backs exactly behind
    where they belong (where they land with no error and no offset).
    """
    pdf = pypdfium2.PdfDocument(a4)
    p = get_paper("A4")
    w, h = p.width, p.height
    # Front crosshair A: the thin tall and thin wide lines through the centre.
    paths = [o.get_bounds() for o in pdf[0].get_objects()
             if o.type == pypdfium2.raw.FPDF_PAGEOBJ_PATH]
    vertical = [b for b in paths if b[2] - b[0] < mm(1) and b[3] - b[1] > mm(20)
                and abs((b[0] + b[2]) / 2 - w / 2) < mm(5)]
    horizontal = [b for b in paths if b[3] - b[1] < mm(1) and b[2] - b[0] > mm(20)
                  and abs((b[1] + b[3]) / 2 - h / 2) < mm(5)]
    assert len(vertical) == len(horizontal) == 1
    front_x = (vertical[0][0] + vertical[0][2]) / 2
    front_y = (horizontal[0][1] + horizontal[0][3]) / 2
    # Long-edge flip of a portrait sheet: front x shows through at W - x, y unchanged.
    line_x, line_y = w - front_x, front_y

    back = pdf[1]

    def labels(text: str) -> tuple[tuple[float, float], tuple[float, float]]:
        """Return the DX-ruler and DY-ruler label ``text`` of target A (page centre)."""
        near = [c for c in found(back, text)
                if abs(c[0] - w / 2) < mm(20) and abs(c[1] - h / 2) < mm(20)]
        assert len(near) == 2, (text, near)
        return min(near, key=lambda c: c[1]), min(near, key=lambda c: c[0])

    (x0, _), (_, y0) = labels("0")
    (xp, _), (_, yp) = labels("+5")
    (xm, _), (_, ym) = labels("-5")
    # Readings grow rightwards and upwards on the back page, 1 mm per mm.
    assert xp - x0 == pytest.approx(mm(5), abs=mm(0.1))
    assert x0 - xm == pytest.approx(mm(5), abs=mm(0.1))
    assert yp - y0 == pytest.approx(mm(5), abs=mm(0.1))
    assert y0 - ym == pytest.approx(mm(5), abs=mm(0.1))

    def place(c: Canvas, face: Any, x: float, y: float) -> None:
        c.rect(x, y, mm(63), mm(88), stroke=0, fill=1)

    def back_fill(offset_mm: tuple[float, float]) -> Box:
        out = tmp_path / f"deck{offset_mm}.pdf"
        write_sheets(out, [SheetItem("f", "b")], card_size=(mm(63), mm(88)), place=place,
                     back_offset=(mm(offset_mm[0]), mm(offset_mm[1])))
        objs = list(pypdfium2.PdfDocument(out)[1].get_objects())
        fills = [o.get_bounds() for o in objs if o.type == pypdfium2.raw.FPDF_PAGEOBJ_PATH]
        return max(fills, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))

    ideal = back_fill((0.0, 0.0))
    for error in ((1.5, -0.8), (-2.0, 3.0)):
        ex, ey = mm(error[0]), mm(error[1])
        # The ruler's 0 is printed at x0 + ex; the front line stays at line_x.
        dx = (line_x - (x0 + ex)) / mm(1)
        dy = (line_y - (y0 + ey)) / mm(1)
        printed = tuple(v + (ex, ey)[k % 2] for k, v in enumerate(back_fill((dx, dy))))
        assert printed == pytest.approx(ideal, abs=mm(0.15)), (error, dx, dy)
        # And the plain-English rule: a positive reading means the backs landed too far
        # left (down), so a positive DX (DY) moves them right (up).
        assert (dx > 0) == (error[0] < 0) and (dy > 0) == (error[1] < 0)
