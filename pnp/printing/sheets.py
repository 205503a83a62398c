"""Write card sheets as PDF (ReportLab): duplex, gutter-fold, print-service pages.

Page boxes of a home sheet: MediaBox = CropBox = BleedBox = TrimBox = the
paper. The sheet is the finished product a home printer outputs; the cards'
own trims are marked with crop marks, and a PDF box cannot describe nine
trims anyway. Print-service exports (:func:`write_card_pages`) use one card
per page with TrimBox = card and BleedBox = page.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from pnp.errors import PnpError
from pnp.printing.geometry import Slot
from pnp.printing.imposition import (DEFAULT_BLEED, DEFAULT_MARK_LENGTH, MARK_WIDTH,
                                     SheetLayout, compute_layout, label_box, paginate)
from pnp.printing.output import atomic_canvas
from pnp.units import mm

#: ``place(canvas, face, x, y)`` draws one card face with its trim box's
#: bottom-left at (x, y), art running out to the full requested bleed; the
#: writer clips it to the bleed the layout allows.
PlaceFn = Callable[[Canvas, Any, float, float], None]

#: Label font size limits (pt): below the minimum the label is left out.
LABEL_MAX_SIZE = 6.0
LABEL_MIN_SIZE = 5.0
#: Dash pattern of the gutter-fold line (on, off) in points.
FOLD_DASH = (mm(2), mm(1.5))


@dataclass(frozen=True)
class SheetItem:
    """One card item: its front face and its back face (None leaves the back blank)."""

    front: Any
    back: Any = None


@dataclass(frozen=True)
class SheetsResult:
    """What :func:`write_sheets` wrote: the layout, sheet and page counts."""

    layout: SheetLayout
    sheets: int
    pages: int


def _draw_face(c: Canvas, slot: Slot, face: Any, place: PlaceFn) -> None:
    """Draw ``face`` in ``slot``, clipped to trim + allowed bleed, turned if needed."""
    if face is None:
        return
    box = slot.bleed_rect
    c.saveState()
    path = c.beginPath()
    path.rect(box.x, box.y, box.w, box.h)
    c.clipPath(path, stroke=0, fill=0)
    if slot.rotation:
        cx = slot.trim.x + slot.trim.w / 2
        cy = slot.trim.y + slot.trim.h / 2
        c.translate(cx, cy)
        c.rotate(slot.rotation)
        c.translate(-cx, -cy)
    place(c, face, slot.trim.x, slot.trim.y)
    c.restoreState()


def _draw_marks(c: Canvas, layout: SheetLayout, page: int) -> None:
    """Stroke the crop marks (black, 0.2 mm) and the dashed fold line of ``page``."""
    c.saveState()
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(MARK_WIDTH)
    c.setLineCap(0)  # butt caps: a mark ends exactly where the geometry says
    for s in layout.marks[page]:
        c.line(s.x0, s.y0, s.x1, s.y1)
    if page == 0 and layout.folds:
        c.setDash(list(FOLD_DASH), 0)
        for s in layout.folds:
            c.line(s.x0, s.y0, s.x1, s.y1)
    c.restoreState()


def _draw_label(c: Canvas, layout: SheetLayout, page: int, text: str,
                font: str | None) -> None:
    """Write ``text`` in the band under the grid if it fits there; else nothing."""
    box = label_box(layout, page)
    if not text or font is None or box is None:
        return
    size = min(LABEL_MAX_SIZE, box.h)  # Vera's ascent+descent is about 1 em
    if size < LABEL_MIN_SIZE or stringWidth(text, font, size) > box.w:
        return
    c.saveState()
    c.setFillColorRGB(0.35, 0.35, 0.35)
    c.setFont(font, size)
    c.drawString(box.x, box.y + 0.24 * size, text)  # baseline above the descenders
    c.restoreState()


def _set_boxes(c: Canvas, width: float, height: float) -> None:
    """Set CropBox, BleedBox and TrimBox to the whole page (see module docstring)."""
    whole = (0, 0, width, height)
    c.setCropBox(whole)
    c.setBleedBox(whole)
    c.setTrimBox(whole)


def write_sheets(path: Path, items: Sequence[SheetItem], *, paper: str = "A4",
                 layout: str = "duplex", card_size: tuple[float, float],
                 bleed: float = DEFAULT_BLEED, place: PlaceFn, title: str = "",
                 canvas_kwargs: dict[str, Any] | None = None, marks: bool = True,
                 gutter: str | float = "auto", orientation: str = "auto",
                 flip: str = "long", mark_length: float = DEFAULT_MARK_LENGTH,
                 label: str | None = None,
                 back_offset: tuple[float, float] = (0.0, 0.0)) -> SheetsResult:
    """Write ``items`` as printable sheets to ``path`` (atomically); return the counts.

    Duplex: for every sheet a page of fronts, then a page of backs placed so
    back i lands behind front i when printed with ``flip`` ("long"/"short"
    edge). Gutter-fold: fronts and backs on one page around a dashed fold.
    ``back_offset`` (points, as read off the calibration sheet) shifts whole
    duplex back pages to cancel the printer's front/back misregistration.
    ``label`` (e.g. the deck name) is written under the grid with the
    canvas's initial font, only if ``canvas_kwargs`` names one
    (``initialFontName``: an embedded TTF) and it fits outside the margin.
    All lengths in points.
    """
    lay = compute_layout(paper, card_size, kind=layout, bleed=bleed, gutter=gutter,
                         marks=marks, mark_length=mark_length,
                         orientation=orientation, flip=flip)
    if not items:
        raise PnpError(f"nothing to print into {path}: the deck has no cards")
    sheets = paginate(list(items), lay.per_sheet)
    font = (canvas_kwargs or {}).get("initialFontName")
    w, h = lay.paper.width, lay.paper.height
    pages = 0
    with atomic_canvas(path, (w, h), title=title, canvas_kwargs=canvas_kwargs) as c:
        for k, sheet in enumerate(sheets, start=1):
            for page in range(lay.pages_per_sheet):
                _set_boxes(c, w, h)
                c.saveState()
                if page == 1:
                    c.translate(*back_offset)
                for slot, item in zip(lay.slots_on_page(page) if lay.kind == "duplex"
                                      else lay.fronts, sheet):
                    face = item.back if slot.side == "back" else item.front
                    _draw_face(c, slot, face, place)
                if lay.kind == "gutterfold":
                    for slot, item in zip(lay.backs, sheet):
                        _draw_face(c, slot, item.back, place)
                _draw_marks(c, lay, page)
                if label:
                    part = ("fronts" if page == 0 else "backs") if lay.kind == "duplex" \
                        else "fold"
                    _draw_label(c, lay, page, f"{label} - {part} - sheet {k}/{len(sheets)}",
                                font)
                c.restoreState()
                c.showPage()
                pages += 1
    return SheetsResult(lay, len(sheets), pages)


def write_card_pages(path: Path, items: Sequence[SheetItem], *,
                     card_size: tuple[float, float], bleed: float = mm(3.175),
                     place: PlaceFn, title: str = "",
                     canvas_kwargs: dict[str, Any] | None = None) -> int:
    """Write a print-service PDF: one card face per page; return the page count.

    Page = card + ``bleed`` on every side (default 1/8 in), TrimBox = card,
    BleedBox = CropBox = page; pages in the order back1, front1, back2,
    front2 ... (REFERENCE "Print services": DriveThruCards convention).
    """
    cw, ch = card_size
    if not items:
        raise PnpError(f"nothing to print into {path}: the deck has no cards")
    if cw <= 0 or ch <= 0 or bleed < 0:
        raise PnpError("bad card size or bleed for print-service export: "
                       "expected positive size and bleed >= 0")
    pw, ph = cw + 2 * bleed, ch + 2 * bleed
    pages = 0
    with atomic_canvas(path, (pw, ph), title=title, canvas_kwargs=canvas_kwargs) as c:
        for item in items:
            for face in (item.back, item.front):
                c.setCropBox((0, 0, pw, ph))
                c.setBleedBox((0, 0, pw, ph))
                c.setTrimBox((bleed, bleed, bleed + cw, bleed + ch))
                if face is not None:
                    c.saveState()
                    p = c.beginPath()
                    p.rect(0, 0, pw, ph)
                    c.clipPath(p, stroke=0, fill=0)
                    place(c, face, bleed, bleed)
                    c.restoreState()
                c.showPage()
                pages += 1
    return pages
