"""Saddle-stitch imposition: a book's pages two-up on sheets that fold into a booklet.

The book is padded with blank pages at its end to a multiple of 4 (the
text runs on to its last page, so blanks can only follow it), then each sheet side
holds two pages side by side on a landscape sheet (A5 pages → A4 sheets,
half-letter → Letter). With ``n`` pages, sheet ``k``
(0-based) carries pages ``n − 2k`` | ``2k + 1`` on its front and
``2k + 2`` | ``n − 2k − 1`` on its back. Printed double-sided with
"flip on short edge", folded and stapled, the pages read in order.

The pages are placed as form XObjects with pikepdf (qpdf), so their fonts
stay embedded and their vectors untouched; the file's ID is derived from its
content, so identical input gives identical bytes.
"""

from __future__ import annotations

import io
from typing import cast

import pikepdf
from pikepdf import Array, Dictionary, Name, Pdf

from pnp.printing.papers import PAPER_HALVES, PAPER_SIZES


def booklet_order(pages: int) -> list[tuple[int, int]]:
    """(left, right) 1-based page numbers per sheet side, for ``pages`` (a multiple of 4)."""
    if pages % 4:
        raise ValueError(f"a booklet needs a multiple of 4 pages, got {pages}")
    sides: list[tuple[int, int]] = []
    for k in range(pages // 4):
        sides.append((pages - 2 * k, 2 * k + 1))
        sides.append((2 * k + 2, pages - 2 * k - 1))
    return sides


def padded_count(pages: int) -> int:
    """``pages`` rounded up to a multiple of 4."""
    return -(-pages // 4) * 4


#: The sheet two pages of a size are printed on, landscape (A5 → A4, half letter →
#: Letter), from the ``half`` column of the ``[papers]`` table (profiles.toml).
SHEETS: dict[tuple[int, int], tuple[float, float]] = {
    (round(PAPER_SIZES[page][0]), round(PAPER_SIZES[page][1])):
        (PAPER_SIZES[sheet][1], PAPER_SIZES[sheet][0])
    for sheet, page in PAPER_HALVES.items()}


def sheet_size(page_size: tuple[float, float]) -> tuple[float, float]:
    """The landscape sheet for two pages side by side: the paper they are half of.

    A page size no paper is the half of (only a library caller can ask:
    ``pnp rulebook`` turns ``--paper a4`` into A5 pages, :func:`pnp.printing.papers.book_paper`)
    goes on a sheet twice its width.
    """
    width, height = page_size
    return SHEETS.get((round(width), round(height)), (2 * width, height))


def impose_booklet(data: bytes, page_size: tuple[float, float]) -> bytes:
    """The PDF ``data`` (pages of ``page_size``) imposed two-up for saddle-stitching.

    The two pages sit side by side, centred on the sheet: a 148 mm A5 page
    pair on a 297 mm A4 sheet leaves half a millimetre at each outer edge.
    """
    width, height = page_size
    sheet_w, sheet_h = sheet_size(page_size)
    margin = (sheet_w - 2 * width) / 2
    rise = (sheet_h - height) / 2
    with Pdf.open(io.BytesIO(data)) as source, Pdf.new() as out:
        count = len(source.pages)
        total = padded_count(count)
        order: list[int | None] = list(range(count)) + [None] * (total - count)
        forms = [out.copy_foreign(source.pages[i].as_form_xobject()) for i in range(count)]
        for left, right in booklet_order(total):
            sheet = out.add_blank_page(page_size=(sheet_w, sheet_h))
            content: list[str] = []
            xobjects = Dictionary()
            for slot, number in enumerate((left, right)):
                index = order[number - 1]
                if index is None:
                    continue
                name = f"/P{number}"
                xobjects[Name(name)] = forms[index]
                content.append(f"q 1 0 0 1 {margin + slot * width:.3f} {rise:.3f} cm {name} Do Q")
            sheet.obj.Resources = Dictionary(XObject=xobjects)
            sheet.obj.Contents = out.make_stream("\n".join(content).encode("ascii"))
            box = Array([0, 0, sheet_w, sheet_h])
            sheet.obj.TrimBox = box
            sheet.obj.BleedBox = box
        # copy_foreign returns the copy as the type it was given: a Dictionary
        out.docinfo = cast(Dictionary, out.copy_foreign(source.docinfo))
        buffer = io.BytesIO()
        out.save(buffer, deterministic_id=True,
                 object_stream_mode=pikepdf.ObjectStreamMode.disable)
        return buffer.getvalue()
