"""Rasterise one layout to PNG (for ``pnp preview`` and golden-image tests)."""

from __future__ import annotations

import io
from pathlib import Path

import pypdfium2 as pdfium
from reportlab.pdfgen.canvas import Canvas

from pnp.render.draw import FormCache
from pnp.render.fonts import canvas_kwargs
from pnp.render.layout import Layout


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
        c.setStrokeColorRGB(0.0, 0.75, 0.9)
        c.setLineWidth(0.4)
        c.setDash([2, 2])
        c.rect(b, b, layout.width, layout.height, stroke=1, fill=0)
    c.showPage()
    c.save()
    return buf.getvalue()


def layout_to_png(layout: Layout, path: Path, dpi: int = 200, *,
                  show_bleed: bool = True) -> None:
    """Write ``layout`` as a PNG at ``dpi`` to ``path``."""
    pdf = pdfium.PdfDocument(layout_to_pdf(layout, show_bleed=show_bleed))
    try:
        page = pdf[0]
        bitmap = page.render(scale=dpi / 72.0)
        bitmap.to_pil().save(Path(path))
        page.close()
    finally:
        pdf.close()
