"""Rasterise layouts and in-memory PDFs to images (for ``pnp preview`` and golden-image tests).

Pages are rendered with PDFium through its raw ctypes API
(``pypdfium2_raw``, part of the pypdfium2 wheel) rather than pypdfium2's
object layer, whose import was about 6 % of a cold one-card ``pnp preview``
and which adds nothing for rendering a page. :func:`rasterise` makes the
same calls with the same options as pypdfium2's ``PdfPage.render()`` with
its defaults (BGR bitmap on white, annotations drawn), so the pixels are
identical.
"""

from __future__ import annotations

import ctypes
import io
import math
from pathlib import Path
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from pnp.errors import PnpError
from pnp.fileio import atomic_path
from pnp.render.draw import FormCache
from pnp.render.fonts import canvas_kwargs
from pnp.render.layout import Layout

_PDFIUM: Any = None


def _pdfium() -> Any:
    """PDFium's raw API, with the library initialised (once per process).

    PDFium ignores a second initialisation, so this and pypdfium2's own
    (when something else imports it) coexist; pypdfium2 frees the library
    at exit if it was imported, and the process ending frees it otherwise.
    """
    global _PDFIUM
    if _PDFIUM is None:
        import pypdfium2_raw as raw  # type: ignore[import-untyped]  # (no type information)

        # the configuration pypdfium2 itself initialises with
        raw.FPDF_InitLibraryWithConfig(raw.FPDF_LIBRARY_CONFIG(
            version=2, m_pUserFontPaths=None, m_pIsolate=None, m_v8EmbedderSlot=0))
        _PDFIUM = raw
    return _PDFIUM


def rasterise(pdf: bytes, scale: float) -> list[Any]:
    """Render every page of an in-memory PDF to a PIL RGB image, ``scale`` pixels per point.

    Each image is ``ceil(page size × scale)`` pixels, the page drawn on white
    with anti-aliasing, as ``pypdfium2.PdfPage.render(scale=scale)`` does.
    """
    from PIL import Image

    raw = _pdfium()
    doc = raw.FPDF_LoadMemDocument64(pdf, len(pdf), None)
    if not doc:
        raise PnpError(f"PDFium could not read the rendered page (error {raw.FPDF_GetLastError()})")
    images = []
    try:
        for index in range(raw.FPDF_GetPageCount(doc)):
            page = raw.FPDF_LoadPage(doc, index)
            try:
                width = math.ceil(raw.FPDF_GetPageWidthF(page) * scale)
                height = math.ceil(raw.FPDF_GetPageHeightF(page) * scale)
                stride = width * 3
                buffer = (ctypes.c_ubyte * (stride * height))()
                bitmap = raw.FPDFBitmap_CreateEx(width, height, raw.FPDFBitmap_BGR, buffer,
                                                 stride)
                try:
                    raw.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0xFFFFFFFF)
                    raw.FPDF_RenderPageBitmap(bitmap, page, 0, 0, width, height, 0,
                                              raw.FPDF_ANNOT)
                    # the "BGR" raw decoder copies the pixels out of the buffer
                    images.append(Image.frombuffer("RGB", (width, height), buffer, "raw", "BGR",
                                                   stride, 1))
                finally:
                    raw.FPDFBitmap_Destroy(bitmap)
            finally:
                raw.FPDF_ClosePage(page)
    finally:
        raw.FPDF_CloseDocument(doc)
    return images


def draw_trim_guide(c: Canvas, bleed: float, layout: Layout) -> None:
    """The trim line of a card drawn ``bleed`` in from the page edge: a designer's guide, not card art."""
    c.setStrokeColorRGB(0.0, 0.75, 0.9)
    c.setLineWidth(0.4)
    c.setDash([2, 2])
    c.rect(bleed, bleed, layout.width, layout.height, stroke=1, fill=0)


def layout_to_pdf(layout: Layout, *, show_bleed: bool = True) -> bytes:
    """Return a one-page PDF of ``layout`` (page = trim, or trim + bleed).

    With ``show_bleed`` the page includes the bleed and a thin cyan line marks
    the trim box, as a designer's guide.
    """
    b = layout.bleed if show_bleed else 0.0
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(layout.width + 2 * b, layout.height + 2 * b),
               invariant=1, **canvas_kwargs())
    FormCache(c).place(layout, b, b)
    if show_bleed and b > 0:
        draw_trim_guide(c, b, layout)
    c.showPage()
    c.save()
    return buf.getvalue()


def layout_to_png(layout: Layout, path: Path, dpi: int = 200, *,
                  show_bleed: bool = True) -> None:
    """Write ``layout`` as a PNG at ``dpi`` to ``path``, atomically.

    The file appears complete or not at all (see :func:`pnp.fileio.atomic_path`).
    """
    (image,) = rasterise(layout_to_pdf(layout, show_bleed=show_bleed), dpi / 72.0)
    with atomic_path(Path(path)) as tmp:
        image.save(tmp, "PNG")
