"""Write card sheets as PDF (ReportLab): duplex and gutter-fold card sheets, small parts.

Page boxes of a home sheet: MediaBox = CropBox = BleedBox = TrimBox = the
paper. The sheet is the finished product a home printer outputs; the cards'
own trims are marked with crop marks (and circle guides for round pieces),
and a PDF box cannot describe nine trims anyway. One-card-per-page service
PDFs are written by :mod:`pnp.printing.service`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from pnp.errors import PnpError
from pnp.printing.geometry import EPS, Slot
from pnp.printing.imposition import (DEFAULT_BLEED, DEFAULT_MARK_LENGTH, MARK_WIDTH, PagePlan,
                                     SheetLayout, compute_layout, paginate, place_label,
                                     plan_sheet)
from pnp.printing.output import atomic_canvas
from pnp.units import mm, to_mm

#: ``place(canvas, face, x, y)`` draws one card face with its trim box's
#: bottom-left at (x, y), art running out to the full requested bleed; the
#: writer clips it to the bleed the layout allows.
PlaceFn = Callable[[Canvas, Any, float, float], None]

#: Dash pattern of the gutter-fold line (on, off) in points.
FOLD_DASH = (mm(2), mm(1.5))
#: Circle cut guide of round pieces: thin and dark grey, on the cut line
#: itself (a punch or scissors follow it; what is left of it is on the waste side
#: half the time and 0.08 mm wide on the piece the other half).
GUIDE_WIDTH = mm(0.15)
GUIDE_GREY = 0.2
#: Largest --back-offset accepted (mm): the calibration rulers read ±8 mm.
MAX_BACK_OFFSET_MM = 10.0


@dataclass(frozen=True)
class SheetItem:
    """One card item: its front face and its back face (None leaves the back blank)."""

    front: Any
    back: Any = None


@dataclass(frozen=True)
class SheetsResult:
    """What a sheet writer wrote: the layout (grids only), sheet and page counts."""

    layout: SheetLayout | None
    sheets: int
    pages: int
    notes: tuple[str, ...] = ()


def _draw_face(c: Canvas, slot: Slot, face: Any, place: PlaceFn) -> None:
    """Draw ``face`` in ``slot``, clipped to trim + allowed bleed, turned if needed.

    A round piece is clipped to its circle grown by the least bleed, so the
    sheet shows discs rather than square tiles.
    """
    if face is None:
        return
    c.saveState()
    path = c.beginPath()
    if slot.shape == "circle":
        t = slot.trim
        path.circle(t.x + t.w / 2, t.y + t.h / 2, t.w / 2 + slot.bleed.smallest())
    else:
        box = slot.bleed_rect
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


def _draw_marks(c: Canvas, plan: PagePlan) -> None:
    """Stroke crop marks (black, 0.2 mm), circle guides of round fronts and the fold line."""
    c.saveState()
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(MARK_WIDTH)
    c.setLineCap(0)  # butt caps: a mark ends exactly where the geometry says
    for s in plan.marks:
        c.line(s.x0, s.y0, s.x1, s.y1)
    if plan.folds:
        c.saveState()
        c.setDash(list(FOLD_DASH), 0)
        for s in plan.folds:
            c.line(s.x0, s.y0, s.x1, s.y1)
        c.restoreState()
    # Guides on fronts only: a back printed a little off would show the line.
    guides = [(s.trim.x + s.trim.w / 2, s.trim.y + s.trim.h / 2, s.trim.w / 2)
              for s in plan.slots if s.shape == "circle" and s.side == "front"]
    if guides:
        c.setStrokeColorRGB(GUIDE_GREY, GUIDE_GREY, GUIDE_GREY)
        c.setLineWidth(GUIDE_WIDTH)
        for cx, cy, r in guides:
            c.circle(cx, cy, r, stroke=1, fill=0)
    c.restoreState()


def _draw_label(c: Canvas, plan: PagePlan, text: str, font: str | None) -> None:
    """Write ``text`` where :func:`~pnp.printing.imposition.place_label` puts it; else nothing.

    At the foot of the page, or turned up a side margin where the cards
    leave the foot too shallow; the geometry is decided there, this only draws.
    """
    if not text or font is None:
        return
    spot = place_label(plan, lambda size: stringWidth(text, font, size))
    if spot is None:
        return
    c.saveState()
    c.setFillColorRGB(0.35, 0.35, 0.35)
    c.setFont(font, spot.size)
    if spot.rotation:
        c.translate(spot.x, spot.y)
        c.rotate(spot.rotation)
        c.drawString(0, 0, text)
    else:
        c.drawString(spot.x, spot.y, text)
    c.restoreState()


def _set_boxes(c: Canvas, width: float, height: float) -> None:
    """Set CropBox, BleedBox and TrimBox to the whole page (see module docstring)."""
    whole = (0, 0, width, height)
    c.setCropBox(whole)
    c.setBleedBox(whole)
    c.setTrimBox(whole)


def check_back_offset(sheets: Sequence[Sequence[PagePlan]], offset_mm: tuple[float, float],
                      what: str) -> list[str]:
    """Validate ``--back-offset`` for these pages; return notes on bleed it costs.

    The offset must be finite and at most ``MAX_BACK_OFFSET_MM``. Moved back
    pages keep their ink inside the printer margin: bleed and marks that
    would cross it are clipped (a note says how much bleed is left), and if
    a back's *trim* would cross it the offset is refused with the largest
    offset this layout allows.
    """
    dx_mm, dy_mm = offset_mm
    if not (math.isfinite(dx_mm) and math.isfinite(dy_mm)):
        raise PnpError(f"--back-offset {dx_mm} {dy_mm}: expected two finite numbers (mm)")
    if abs(dx_mm) > MAX_BACK_OFFSET_MM or abs(dy_mm) > MAX_BACK_OFFSET_MM:
        raise PnpError(f"--back-offset {dx_mm:g} {dy_mm:g}: at most "
                       f"{MAX_BACK_OFFSET_MM:g} mm each way (the calibration sheet reads "
                       "±8 mm); print calibration-*.pdf again")
    if dx_mm == 0 and dy_mm == 0:
        return []
    dx, dy = mm(dx_mm), mm(dy_mm)
    lo_x = lo_y = -math.inf
    hi_x = hi_y = math.inf
    lost = 0.0
    any_back = False
    for sheet in sheets:
        for plan in sheet:
            if not plan.back:
                continue
            any_back = True
            area = plan.printable
            for s in plan.slots:
                t = s.trim
                lo_x, hi_x = max(lo_x, area.x - t.x), min(hi_x, area.x1 - t.x1)
                lo_y, hi_y = max(lo_y, area.y - t.y), min(hi_y, area.y1 - t.y1)
            ink = plan.ink()
            if ink is not None:
                r = ink.shifted(dx, dy)
                lost = max(lost, area.x - r.x, r.x1 - area.x1, area.y - r.y, r.y1 - area.y1)
    if not any_back:
        raise PnpError(f"--back-offset moves duplex back pages; {what} has none "
                       "(gutter-fold and print-service files need no offset)")
    if not (lo_x - EPS <= dx <= hi_x + EPS and lo_y - EPS <= dy <= hi_y + EPS):
        raise PnpError(
            f"--back-offset {dx_mm:g} {dy_mm:g} would move the backs of {what} into the "
            f"{to_mm(sheets[0][0].margin):g} mm printer margin: this layout allows DX from "
            f"{to_mm(lo_x):.1f} to {to_mm(hi_x):.1f} and DY from {to_mm(lo_y):.1f} to "
            f"{to_mm(hi_y):.1f} mm")
    if lost > EPS:
        return [f"{what}: --back-offset clips up to {to_mm(lost):.1f} mm of the backs' "
                "outer bleed and crop marks at the printer margin"]
    return []


def write_pages(path: Path, sheets: Sequence[Sequence[PagePlan]], items: Sequence[SheetItem],
                *, place: PlaceFn, title: str = "",
                canvas_kwargs: dict[str, Any] | None = None, label: str | None = None,
                back_offset: tuple[float, float] = (0.0, 0.0)) -> int:
    """Write ``sheets`` of page plans to ``path`` (atomically); return the page count.

    ``sheets[k]`` lists the pages of sheet k; a slot's ``index`` picks its
    item from ``items[sum of earlier sheets' items + index]`` — callers pass
    each sheet's items in order (see :func:`write_sheets`). Back pages are
    moved by ``back_offset`` (points) and clipped to the printable area.
    """
    if not items or not sheets:
        raise PnpError(f"nothing to print into {path}: the deck has no cards")
    paper = sheets[0][0].paper
    with atomic_canvas(path, (paper.width, paper.height), title=title,
                       canvas_kwargs=canvas_kwargs) as c:
        return draw_pages(c, sheets, items, place=place, label=label,
                          font=(canvas_kwargs or {}).get("initialFontName"),
                          back_offset=back_offset)


def draw_pages(c: Canvas, sheets: Sequence[Sequence[PagePlan]], items: Sequence[SheetItem],
               *, place: PlaceFn, label: str | None = None, font: str | None = None,
               back_offset: tuple[float, float] = (0.0, 0.0)) -> int:
    """Draw ``sheets`` of page plans onto ``c`` (see :func:`write_pages`); return the page count.

    Items are read in page order, each sheet's items while its pages are
    drawn, so ``items`` may render them on demand. ``font`` writes ``label``.
    """
    pages = 0
    for k, sheet in enumerate(sheets, start=1):
        for plan in sheet:
            w, h = plan.paper.width, plan.paper.height
            c.setPageSize((w, h))
            _set_boxes(c, w, h)
            c.saveState()
            if plan.back and back_offset != (0.0, 0.0):
                area = plan.printable
                clip = c.beginPath()
                clip.rect(area.x, area.y, area.w, area.h)
                c.clipPath(clip, stroke=0, fill=0)
                c.translate(*back_offset)
            for slot in plan.slots:
                item = items[slot.index]
                _draw_face(c, slot, item.back if slot.side == "back" else item.front, place)
            _draw_marks(c, plan)
            if label:
                _draw_label(c, plan, f"{label} - {plan.part} - sheet {k}/{len(sheets)}", font)
            c.restoreState()
            c.showPage()
            pages += 1
    return pages


def grid_sheets(layout: SheetLayout, n_items: int) -> list[list[PagePlan]]:
    """Return the page plans of ``n_items`` items on sheets of ``layout``.

    Slot indexes are global item indexes (sheet k holds items from
    ``k * per_sheet``).
    """
    out: list[list[PagePlan]] = []
    # Every full sheet has the same pages but for its item numbers: plan each
    # fill count once and share its marks (a big deck's plans stay small).
    planned: dict[int, list[PagePlan]] = {}
    for k, chunk in enumerate(paginate(list(range(n_items)), layout.per_sheet)):
        base = k * layout.per_sheet
        pages = []
        if len(chunk) not in planned:
            planned[len(chunk)] = plan_sheet(layout, len(chunk))
        for plan in planned[len(chunk)]:
            slots = tuple(Slot(base + s.index, s.side, s.page, s.trim, s.bleed, s.rotation,
                               s.shape) for s in plan.slots)
            pages.append(PagePlan(slots, plan.marks, plan.folds, plan.back, plan.part,
                                  plan.paper, plan.margin))
        out.append(pages)
    return out


def write_sheets(path: Path, items: Sequence[SheetItem], *, paper: str = "A4",
                 layout: str = "duplex", card_size: tuple[float, float],
                 bleed: float = DEFAULT_BLEED, place: PlaceFn, title: str = "",
                 canvas_kwargs: dict[str, Any] | None = None, marks: bool = True,
                 gutter: str | float = "auto", orientation: str = "auto",
                 flip: str = "long", mark_length: float = DEFAULT_MARK_LENGTH,
                 label: str | None = None, min_bleed: float | None = None,
                 priority: str = "cards",
                 back_offset: tuple[float, float] = (0.0, 0.0),
                 sheet_layout: SheetLayout | None = None) -> SheetsResult:
    """Write ``items`` as printable card sheets to ``path`` (atomically); return the counts.

    Duplex: for every sheet a page of fronts, then a page of backs placed so
    back i lands behind front i when printed with ``flip`` ("long"/"short"
    edge). Gutter-fold: fronts and backs on one page around a dashed fold.
    ``back_offset`` (points, as read off the calibration sheet) shifts whole
    duplex back pages to cancel the printer's front/back misregistration.
    ``label`` (e.g. the deck name) is written under the grid with the
    canvas's initial font, only if ``canvas_kwargs`` names one
    (``initialFontName``: an embedded TTF) and it fits outside the margin.
    ``sheet_layout`` skips the layout search (the caller computed it). All
    lengths in points.
    """
    lay = sheet_layout or compute_layout(paper, card_size, kind=layout, bleed=bleed,
                                         gutter=gutter, marks=marks,
                                         mark_length=mark_length, orientation=orientation,
                                         flip=flip, min_bleed=min_bleed, priority=priority)
    if not items:
        raise PnpError(f"nothing to print into {path}: the deck has no cards")
    sheets = grid_sheets(lay, len(items))
    pages = write_pages(path, sheets, items, place=place, title=title,
                        canvas_kwargs=canvas_kwargs, label=label, back_offset=back_offset)
    return SheetsResult(lay, len(sheets), pages)
