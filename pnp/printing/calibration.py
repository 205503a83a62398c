"""Duplex calibration sheet: read the printer's front/back offset in millimetres.

The front page has five crosshairs (centre and four near the corners). The
back page has, exactly behind each crosshair, an x ruler (below it) and a y
ruler (left of it) with 1 mm ticks. Printed duplex and held to the light
(back facing you), each front crosshair line crosses a ruler at the reading
DX (x ruler) or DY (y ruler). ``pnp build --back-offset DX DY`` then moves
every back page by (+DX, +DY) mm in the back page's own coordinates, which
cancels the misregistration: a reading of +2 means the ruler's 0 printed 2 mm
left of the front line, i.e. the backs landed 2 mm too far left as seen from
the back. Text is English only, in ReportLab's bundled Vera TTF (embedded).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from pnp.printing.imposition import flip_axis
from pnp.printing.output import atomic_canvas
from pnp.printing.papers import PRINTER_MARGIN, Paper, get_paper
from pnp.printing.geometry import Rect
from pnp.units import mm

#: Name under which the bundled Vera TTF is registered for calibration text.
CAL_FONT = "PnpVera"
#: Ruler half-length and distance of the rulers from the crosshair centre (mm).
#: The offset exceeds the half-length so that the x and y rulers never cross.
RULER_MM = 8
RULER_OFFSET_MM = 10
#: Crosshair arm length (mm): reaches both rulers even at a full-scale reading
#: (RULER_OFFSET_MM + RULER_MM), with 2 mm to spare.
ARM_MM = 20
#: Distance of the corner targets from the printer margin (mm).
TARGET_INSET_MM = 30
#: Text sizes and leading (pt).
TITLE_SIZE = 10.0
TEXT_SIZE = 8.0
LEADING = 10.5
PARA_GAP = 3.0
#: Length of the front page's scale bar (mm).
BAR_MM = 100


def register_vera() -> str:
    """Register ReportLab's bundled Vera.ttf as ``CAL_FONT`` (once); return the name."""
    if CAL_FONT not in pdfmetrics.getRegisteredFontNames():
        font_path = Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"
        pdfmetrics.registerFont(TTFont(CAL_FONT, str(font_path)))
    return CAL_FONT


def target_points(paper: Paper) -> list[tuple[float, float]]:
    """Return the crosshair centres on the front page: centre, then four corners."""
    w, h = paper.width, paper.height
    inset = PRINTER_MARGIN + mm(TARGET_INSET_MM)
    return [(w / 2, h / 2), (inset, h - inset), (w - inset, h - inset),
            (inset, inset), (w - inset, inset)]


def back_point(x: float, y: float, paper: Paper, flip: str = "long") -> tuple[float, float]:
    """Return where front point (x, y) lands on the back page."""
    if flip_axis(paper, flip) == "x":
        return (paper.width - x, y)
    return (x, paper.height - y)


def text_area(paper: Paper) -> Rect:
    """Return the free band for the instructions: above the centre target's arm,
    between the corner targets' arms, inside the printer margin."""
    inset = PRINTER_MARGIN + mm(TARGET_INSET_MM)
    x0 = inset + mm(ARM_MM) + mm(3)
    x1 = paper.width - x0
    y0 = paper.height / 2 + mm(ARM_MM) + mm(3)
    y1 = paper.height - PRINTER_MARGIN - mm(3)
    return Rect(x0, y0, x1 - x0, y1 - y0)


def _crosshair(c: Canvas, x: float, y: float, name: str) -> None:
    """Draw a crosshair with a small circle and a letter at (x, y)."""
    arm = mm(ARM_MM)
    c.setLineWidth(mm(0.25))
    c.line(x - arm, y, x + arm, y)
    c.line(x, y - arm, x, y + arm)
    c.circle(x, y, mm(2), stroke=1, fill=0)
    c.setFont(CAL_FONT, 9)
    c.drawString(x + mm(2.5), y + mm(2.5), name)


def _label(i: int) -> str:
    """Return a ruler label with its sign ("+5", "0", "-5")."""
    return f"{i:+d}" if i else "0"


def _rulers(c: Canvas, x: float, y: float, name: str) -> None:
    """Draw the DX ruler below and the DY ruler left of (x, y): 1 mm ticks, signed labels.

    Labels grow to the right (DX) and upwards (DY) in this page's coordinates,
    the directions ``--back-offset`` moves a back page for positive values.
    """
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
            c.drawCentredString(tx, y - off - mm(2.5), _label(i))
            c.drawRightString(x - off - mm(1), ty - mm(0.6), _label(i))
    c.line(x - mm(RULER_MM), y - off, x + mm(RULER_MM), y - off)
    c.line(x - off, y - mm(RULER_MM), x - off, y + mm(RULER_MM))
    c.drawString(x + mm(RULER_MM) + mm(1), y - off - mm(0.6), "DX")
    c.drawCentredString(x - off, y + mm(RULER_MM) + mm(1), "DY")
    c.setFont(CAL_FONT, 9)
    c.drawString(x + mm(2.5), y + mm(2.5), name)


FRONT_TEXT = [
    "pnp duplex calibration - FRONT",
    "Print both pages double-sided at 100% scale (no 'fit to page'), "
    "flipping on the {edge} edge.",
    "Check: the bar below must measure {bar} mm.",
]
BACK_TEXT = [
    "pnp duplex calibration - BACK",
    "Hold the sheet up to a light with this side facing you: the crosshairs "
    "printed on the front show through.",
    "At each target, DX is where the crosshair's vertical line crosses the "
    "lower ruler, and DY is where its horizontal line crosses the left ruler, "
    "in millimetres, with the sign printed on the ruler.",
    "Then build with:",
    "pnp build --back-offset DX DY",
    "A positive DX moves the backs to the right and a positive DY moves them "
    "up, as seen on this side.",
    "Example: readings +2 (lower ruler) and -1 (left ruler) mean the backs "
    "printed 2 mm too far left and 1 mm too high;",
    "pnp build --back-offset 2 -1 moves them 2 mm right and 1 mm down.",
    "All five targets read the same: a plain shift. They differ: the printer "
    "scales or skews the page; use the readings at A (centre).",
]


def wrap_text(paragraphs: list[str], width: float) -> list[tuple[str, float, float]]:
    """Return (line, font size, advance) triples, wrapped to ``width``.

    The first paragraph is the title; ``advance`` is the distance from the
    previous baseline (a little more at the start of a paragraph).
    """
    out: list[tuple[str, float, float]] = []
    for k, para in enumerate(paragraphs):
        size = TITLE_SIZE if k == 0 else TEXT_SIZE
        for j, line in enumerate(simpleSplit(para, CAL_FONT, size, width)):
            advance = size * 1.25 if k == 0 else LEADING + (PARA_GAP if j == 0 else 0.0)
            out.append((line, size, advance))
    return out


def _text_block(c: Canvas, lines: list[tuple[str, float, float]], x: float,
                top: float) -> float:
    """Write ``lines`` downwards from ``top`` (the first line's top); return the last baseline."""
    y = top
    for line, size, advance in lines:
        y -= advance
        c.setFont(CAL_FONT, size)
        c.drawString(x, y, line)
    return y


def write_calibration(path: Path, paper: str | Paper = "A4", *,
                      orientation: str = "portrait", flip: str = "long",
                      canvas_kwargs: dict[str, Any] | None = None) -> None:
    """Write the two-page duplex calibration PDF to ``path`` (atomically).

    The instructions sit in :func:`text_area`: the front's at its top, the
    back's below the space the front text takes, so the front text showing
    through never lies behind the back text (for an x mirror the area is
    centred, so it maps onto itself; for a y mirror it maps below the centre).
    """
    font = register_vera()
    p = get_paper(paper, orientation)
    kwargs = {"initialFontName": font, **(canvas_kwargs or {})}
    area = text_area(p)
    front_lines = wrap_text([t.format(edge=flip, bar=BAR_MM) for t in FRONT_TEXT], area.w)
    back_lines = wrap_text(BACK_TEXT, area.w)
    with atomic_canvas(path, (p.width, p.height), title="pnp duplex calibration",
                       canvas_kwargs=kwargs) as c:
        whole = (0, 0, p.width, p.height)
        front_bottom = area.y1
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
                last = _text_block(c, front_lines, area.x, area.y1)
                bar_y = last - mm(5)
                bar_x = (p.width - mm(BAR_MM)) / 2  # centred: wider than the text area
                c.setLineWidth(mm(0.3))
                c.line(bar_x, bar_y, bar_x + mm(BAR_MM), bar_y)
                for t in range(0, BAR_MM + 1, 10):
                    c.line(bar_x + mm(t), bar_y,
                           bar_x + mm(t), bar_y + mm(2 if t % 50 else 3))
                front_bottom = bar_y
            else:
                _text_block(c, back_lines, area.x, front_bottom - mm(6))
            c.showPage()
