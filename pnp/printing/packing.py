"""Shared sheets for small parts: tokens, markers, chips and boards of one game.

Pure geometry (points, no ReportLab). Small components of mixed sizes are
packed in rows ("shelves") onto as few pages as possible instead of one
sheet each. Every piece gets the full bleed on every side and keeps its own
cut lines: a rectangular piece reserves room beyond its bleed for crop marks
(``MARK_GAP`` + ``MIN_MARK``) so its marks never touch a neighbour's art; a
round piece (``shape="circle"``) is cut along a circle guide and needs no
marks, so round pieces pack bleed to bleed. Backs mirror their fronts exactly
as on card sheets (duplex page or gutter-fold half).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from pnp.errors import PnpError
from pnp.printing.geometry import EPS, Bleed, Rect, Slot
from pnp.printing.imposition import (DEFAULT_MARK_LENGTH, FOLD_CLEAR, FOLD_PART, MARK_GAP,
                                     MIN_FOLD_GAP, MIN_MARK, PagePlan, back_slot, crop_marks,
                                     fold_back_slot, fold_lines)
from pnp.printing.papers import PRINTER_MARGIN, Paper, get_paper
from pnp.printing.profiles import LAYOUTS
from pnp.units import to_mm


@dataclass(frozen=True)
class Piece:
    """One physical small part to place: item ``index``, trim size (points) and shape."""

    index: int
    width: float
    height: float
    shape: str = "rect"
    name: str = ""


def _pad(piece: Piece, bleed: float, marks: bool) -> float:
    """Return the space a piece keeps around its trim: bleed, plus mark room if rectangular."""
    return bleed + (MARK_GAP + MIN_MARK if marks and piece.shape == "rect" else 0.0)


def _shelves(pieces: Sequence[Piece], region: Rect, bleed: float,
             marks: bool) -> list[list[Slot]]:
    """Pack ``pieces`` (in order) into pages of ``region``; return each page's front slots.

    Rows fill left to right from the region's top; each row is as tall as
    its tallest footprint; a page's rows are centred across the region.
    """
    pages: list[list[Slot]] = []
    page: list[Slot] = []
    row_widths: list[float] = []
    x = region.x
    top = region.y1
    row_h = 0.0
    for piece in pieces:
        pad = _pad(piece, bleed, marks)
        fw, fh = piece.width + 2 * pad, piece.height + 2 * pad
        if fw > region.w + EPS or fh > region.h + EPS:
            raise PnpError(f"{piece.name or 'a piece'} ({to_mm(piece.width):.0f} x "
                           f"{to_mm(piece.height):.0f} mm) does not fit on the page inside "
                           "the printer margin")
        if x + fw > region.x1 + EPS:  # next row
            row_widths.append(x - region.x)
            top -= row_h
            x, row_h = region.x, 0.0
        if top - fh < region.y - EPS:  # next page
            pages.append(_centred(page, region, row_widths))
            page, row_widths = [], []
            x, top, row_h = region.x, region.y1, 0.0
        trim = Rect(x + pad, top - pad - piece.height, piece.width, piece.height)
        page.append(Slot(piece.index, "front", 0, trim, Bleed(bleed, bleed, bleed, bleed),
                         0, piece.shape))
        x += fw
        row_h = max(row_h, fh)
    if page:
        row_widths.append(x - region.x)
        pages.append(_centred(page, region, row_widths))
    return pages


def _centred(slots: list[Slot], region: Rect, row_widths: list[float]) -> list[Slot]:
    """Return ``slots`` moved right so that the widest row is centred in ``region``."""
    widest = max(row_widths, default=region.w)
    dx = max(0.0, (region.w - widest) / 2)
    return [Slot(s.index, s.side, s.page, s.trim.shifted(dx, 0.0), s.bleed, s.rotation,
                 s.shape) for s in slots]


def pack_pieces(paper: str | Paper, pieces: Sequence[Piece], *, kind: str = "duplex",
                bleed: float, marks: bool = True,
                mark_length: float = DEFAULT_MARK_LENGTH,
                margin: float = PRINTER_MARGIN, flip: str = "long",
                orientation: str = "auto") -> list[list[PagePlan]]:
    """Return the sheets (each a list of pages) that hold every piece, fewest first.

    Pieces are sorted tallest first (a board, then chips, then markers), a
    component's pieces staying together. ``orientation`` "auto" tries
    portrait and landscape and keeps the one with fewer sheets (ties keep
    portrait for duplex, landscape for gutter-fold, as card sheets do).
    """
    if not pieces:
        return []
    if kind not in LAYOUTS:
        raise PnpError(f"bad sheet layout {kind!r}: expected 'duplex' or 'gutterfold'")
    order = sorted(range(len(pieces)),
                   key=lambda i: (-(pieces[i].height + 2 * _pad(pieces[i], bleed, marks)),
                                  pieces[i].name, i))
    ranked = [pieces[i] for i in order]
    orients: tuple[str, ...]
    if orientation == "auto":
        orients = ("portrait", "landscape") if kind == "duplex" else ("landscape", "portrait")
    else:
        orients = (orientation,)
    best: list[list[PagePlan]] | None = None
    failure: PnpError | None = None
    for orient in orients:
        p = get_paper(paper, orient)
        area = Rect(margin, margin, p.width - 2 * margin, p.height - 2 * margin)
        try:
            if kind == "duplex":
                sheets = _duplex_sheets(p, area, ranked, bleed, marks, mark_length, margin,
                                        flip)
            else:
                sheets = _fold_sheets(p, area, ranked, bleed, marks, mark_length, margin)
        except PnpError as exc:
            failure = failure or exc
            continue
        if best is None or len(sheets) < len(best):
            best = sheets
    if best is None:
        assert failure is not None
        name = paper.name if isinstance(paper, Paper) else paper
        raise PnpError(f"{failure.message} of {name}")
    return best


#: Page name of a sticker sheet (its label tells the user what paper to load).
LABEL_PAPER = "label paper"


def pack_label_sheets(paper: str | Paper, pieces: Sequence[Piece], *, bleed: float,
                      marks: bool = True, mark_length: float = DEFAULT_MARK_LENGTH,
                      margin: float = PRINTER_MARGIN) -> list[list[PagePlan]]:
    """Return one-page sheets for stickers: fronts only, for one-sided label paper.

    Stickers have no back, and label paper is printed on one side: a duplex
    back page would waste a label sheet and a gutter-fold would fold the
    backing, so whatever the profile's layout, each sheet is its fronts page.
    """
    return [[replace(sheet[0], part=LABEL_PAPER)]
            for sheet in pack_pieces(paper, pieces, kind="duplex", bleed=bleed, marks=marks,
                                     mark_length=mark_length, margin=margin)]


def _duplex_sheets(p: Paper, area: Rect, pieces: Sequence[Piece], bleed: float,
                   marks: bool, mark_length: float, margin: float,
                   flip: str) -> list[list[PagePlan]]:
    """Return duplex sheets: fronts page, then the mirrored backs page."""
    sheets = []
    for fronts in _shelves(pieces, area, bleed, marks):
        backs = [back_slot(s, p, flip) for s in fronts]
        front_marks = crop_marks(fronts, area, mark_length) if marks else ()
        back_marks = crop_marks(backs, area, mark_length) if marks else ()
        sheets.append([PagePlan(tuple(fronts), front_marks, (), False, "fronts", p, margin),
                       PagePlan(tuple(backs), back_marks, (), True, "backs", p, margin)])
    return sheets


def _fold_sheets(p: Paper, area: Rect, pieces: Sequence[Piece], bleed: float,
                 marks: bool, mark_length: float, margin: float) -> list[list[PagePlan]]:
    """Return gutter-fold sheets: fronts above the fold, backs mirrored below it.

    Every piece keeps its full bleed and its art stays ``FOLD_CLEAR`` off the
    fold, so the dashed fold line runs across the page between the halves.
    """
    fold = p.height / 2
    # the trim keeps MIN_FOLD_GAP from the fold even with (almost) no bleed
    low = fold + max(FOLD_CLEAR, MIN_FOLD_GAP - bleed)
    half = Rect(area.x, low, area.w, area.y1 - low)
    sheets = []
    for fronts in _shelves(pieces, half, bleed, marks):
        slots = fronts + [fold_back_slot(s, fold) for s in fronts]
        page_marks = crop_marks(slots, area, mark_length) if marks else ()
        sheets.append([PagePlan(tuple(slots), page_marks, fold_lines(area, fold, fronts),
                                False, FOLD_PART, p, margin)])
    return sheets
