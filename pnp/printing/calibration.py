"""Duplex calibration sheet: read the printer's front/back offset in millimetres.

The front page has five crosshairs (centre and four near the corners). The
back page has, exactly behind each crosshair, an x ruler and a y ruler with
1 mm ticks. Printed duplex and held to the light (back facing you), each
front crosshair line crosses a ruler at the printer's offset; that pair of
numbers goes into ``write_sheets(back_offset=(mm(x), mm(y)))``. Text is
English only, in ReportLab's bundled Vera TTF (embedded).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from pnp.printing.imposition import flip_axis
from pnp.printing.output import atomic_canvas
from pnp.printing.papers import PRINTER_MARGIN, Paper, get_paper
from pnp.units import mm

#: Name under which the bundled Vera TTF is registered for calibration text.
CAL_FONT = "PnpVera"
#: Ruler half-length and distance of the rulers from the crosshair centre (mm).
RULER_MM = 10
RULER_OFFSET_MM = 6
#: Crosshair arm length (mm): long enough to cross both rulers.
ARM_MM = 16


def register_vera() -> str:
    """Register ReportLab's bundled Vera.ttf as ``CAL_FONT`` (once); return the name."""
    if CAL_FONT not in pdfmetrics.getRegisteredFontNames():
        font_path = Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"
        pdfmetrics.registerFont(TTFont(CAL_FONT, str(font_path)))
    return CAL_FONT


def target_points(paper: Paper) -> list[tuple[float, float]]:
    """Return the crosshair centres on the front page: centre, then four corners."""
    w, h = paper.width, paper.height
    inset = PRINTER_MARGIN + mm(30)
    return [(w / 2, h / 2), (inset, h - inset), (w - inset, h - inset),
            (inset, inset), (w - inset, inset)]


def back_point(x: float, y: float, paper: Paper, flip: str = "long") -> tuple[float, float]:
    """Return where front point (x, y) lands on the back page."""
    if flip_axis(paper, flip) == "x":
        return (paper.width - x, y)
    return (x, paper.height - y)


def _crosshair(c: Canvas, x: float, y: float, name: str) -> None:
    """Draw a crosshair with a small circle and a letter at (x, y)."""
    arm = mm(ARM_MM)
    c.setLineWidth(mm(0.25))
    c.line(x - arm, y, x + arm, y)
    c.line(x, y - arm, x, y + arm)
    c.circle(x, y, mm(2), stroke=1, fill=0)
    c.setFont(CAL_FONT, 9)
    c.drawString(x + mm(2.5), y + mm(2.5), name)


def _rulers(c: Canvas, x: float, y: float, name: str) -> None:
    """Draw an x ruler below and a y ruler left of (x, y), 1 mm ticks, labelled."""
    c.setLineWidth(mm(0.12))
    off = mm(RULER_OFFSET_MM)
    c.setFont(CAL_FONT, 5)
    for i in range(-RULER_MM, RULER_MM + 1):
        tick = mm(3) if i % 5 == 0 else mm(1.5)
        tx = x + mm(i)
        c.line(tx, y - off, tx, y - off + tick)  # x ruler: vertical ticks
        ty = y + mm(i)
        c.line(x - off, ty, x - off + tick, ty)  # y ruler: horizontal ticks
        if i % 5 == 0:
            c.drawCentredString(tx, y - off - mm(2.5), f"{i:+d}" if i else "0")
            c.drawRightString(x - off - mm(1), ty - mm(0.6), f"{i:+d}" if i else "0")
    c.line(x - mm(RULER_MM), y - off, x + mm(RULER_MM), y - off)
    c.line(x - off, y - mm(RULER_MM), x - off, y + mm(RULER_MM))
    c.setFont(CAL_FONT, 7)
    c.drawString(x + mm(2), y + mm(2), f"{name}: x below, y left")


FRONT_TEXT = [
    "pnp duplex calibration - FRONT",
    "Print both pages duplex at 100% (no 'fit to page'), flip on the {edge} edge.",
    "Check: the bar below must measure 100 mm.",
]
BACK_TEXT = [
    "pnp duplex calibration - BACK",
    "Hold the sheet to the light with this side facing you.",
    "Where each front crosshair line crosses a ruler, read x (lower ruler) and y (left ruler).",
    "Use those millimetres as the back offset, e.g. back_offset = (mm(x), mm(y)).",
    "Equal readings at all five targets: a plain shift. Different: scaling or skew.",
]


def _text_block(c: Canvas, lines: list[str], x: float, y: float) -> None:
    """Write ``lines`` downwards from (x, y) in 8 pt Vera."""
    c.setFont(CAL_FONT, 8)
    for i, line in enumerate(lines):
        c.drawString(x, y - i * 11, line)


def write_calibration(path: Path, paper: str | Paper = "A4", *,
                      orientation: str = "portrait", flip: str = "long",
                      canvas_kwargs: dict[str, Any] | None = None) -> None:
    """Write the two-page duplex calibration PDF to ``path`` (atomically)."""
    font = register_vera()
    p = get_paper(paper, orientation)
    kwargs = {"initialFontName": font, **(canvas_kwargs or {})}
    text_x = PRINTER_MARGIN + mm(5)
    text_y = p.height / 2 + mm(40)
    with atomic_canvas(path, (p.width, p.height), title="pnp duplex calibration",
                       canvas_kwargs=kwargs) as c:
        whole = (0, 0, p.width, p.height)
        for page in (0, 1):
            c.setCropBox(whole)
            c.setBleedBox(whole)
            c.setTrimBox(whole)
            c.setStrokeColorRGB(0, 0, 0)
            c.setFillColorRGB(0, 0, 0)
            for k, (x, y) in enumerate(target_points(p)):
                name = "ABCDE"[k]
                if page == 0:
                    _crosshair(c, x, y, name)
                else:
                    bx, by = back_point(x, y, p, flip)
                    _rulers(c, bx, by, name)
            if page == 0:
                _text_block(c, [t.format(edge=flip) for t in FRONT_TEXT], text_x, text_y)
                bar_y = text_y - mm(16)
                c.setLineWidth(mm(0.3))
                c.line(text_x, bar_y, text_x + mm(100), bar_y)
                for t in range(0, 101, 10):
                    c.line(text_x + mm(t), bar_y, text_x + mm(t), bar_y + mm(2 if t % 50 else 3))
            else:
                _text_block(c, BACK_TEXT, text_x, text_y)
            c.showPage()
