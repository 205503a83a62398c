"""ReportLab's save() writes each object as it is formatted (rlspeed.streaming_save).

The same bytes as ReportLab's own save (which joins the whole file in memory
first), no copy of the file held while saving, and each page's and form's
content dropped once it is written.
"""

from __future__ import annotations

import io
import random
import tracemalloc
from pathlib import Path

from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from pnp.render import rlspeed
from pnp.render.draw import FormCache
from pnp.render.fonts import canvas_kwargs, ensure_font
from pnp.render.layout import Layout
from pnp.render.nodes import Shape, Style

rlspeed.install()


def _layout(n: int, segments: int = 400) -> Layout:
    """A card whose one path differs with ``n`` (seeded: its form compresses badly)."""
    rng = random.Random(n)
    ops = (("M", 1.0, 1.0),) + tuple(("L", rng.uniform(0, 170), rng.uniform(0, 240))
                                     for _ in range(segments)) + (("Z",),)
    shape = Shape(ops, Style(fill=None, stroke=(0.2, 0.3, 0.4), stroke_width=0.3),
                  (0.0, 0.0, 170.0, 240.0))
    return Layout(width=180.0, height=252.0, bleed=9.0, nodes=(shape,), key=f"card{n}",
                  icons=(), template="t")


def _canvas(target: str | io.BytesIO, cards: int) -> Canvas:
    """A drawn canvas: ``cards`` distinct card forms, nine to a page."""
    ensure_font("IPAexGothic")
    c = Canvas(target, pagesize=(600.0, 800.0), invariant=1, pageCompression=1,
               **canvas_kwargs())
    forms = FormCache(c)
    for n in range(cards):
        forms.place(_layout(n), 10.0 + (n % 3) * 190.0, 10.0 + (n // 3 % 3) * 260.0)
        if n % 9 == 8:
            c.showPage()
    return c


def test_the_same_bytes_as_reportlab_saves(tmp_path: Path) -> None:
    ours, theirs = tmp_path / "ours.pdf", tmp_path / "theirs.pdf"
    _canvas(str(ours), 20).save()
    canvas = _canvas(str(theirs), 20)
    canvas.showPage()                       # what Canvas.save does first
    pdfdoc.PDFDocument.SaveToFile.__wrapped__(canvas._doc, str(theirs), canvas)  # ReportLab's
    data = theirs.read_bytes()
    assert ours.read_bytes() == data
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")


def _save_peak(canvas: Canvas, save: object) -> int:
    """Bytes traced at most while ``save`` (a function of the canvas) runs."""
    canvas.showPage()
    tracemalloc.start()
    try:
        save(canvas)  # type: ignore[operator]
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_saving_holds_no_copy_of_the_file(tmp_path: Path) -> None:
    """What saving allocates grows by a small part of the file, not by twice the file."""
    def reportlabs(canvas: Canvas) -> None:
        pdfdoc.PDFDocument.SaveToFile.__wrapped__(canvas._doc, canvas._filename, canvas)

    _canvas(str(tmp_path / "warm.pdf"), 1).save()   # the font subset all embed, made once
    peaks: dict[str, list[int]] = {"streamed": [], "joined": []}
    sizes = []
    for cards in (40, 200):
        for how, save in (("streamed", Canvas.save), ("joined", reportlabs)):
            path = tmp_path / f"{how}{cards}.pdf"
            peaks[how].append(_save_peak(_canvas(str(path), cards), save))
        assert (tmp_path / f"streamed{cards}.pdf").read_bytes() == \
            (tmp_path / f"joined{cards}.pdf").read_bytes()
        sizes.append((tmp_path / f"streamed{cards}.pdf").stat().st_size)
    grown = sizes[1] - sizes[0]
    assert grown > 500_000
    # ReportLab's own save holds every formatted object and then their join
    # (the file twice); streamed, the few small arrays ReportLab sets on each form
    assert peaks["joined"][1] - peaks["joined"][0] > 1.5 * grown, (peaks, sizes)
    assert peaks["streamed"][1] - peaks["streamed"][0] < grown / 2, (peaks, sizes)


def test_written_pages_and_forms_drop_their_content(tmp_path: Path) -> None:
    canvas = _canvas(str(tmp_path / "a.pdf"), 12)
    canvas.save()
    objects = canvas._doc.idToObject.values()
    forms = [o for o in objects if isinstance(o, pdfdoc.PDFFormXObject)]
    pages = [o for o in objects if isinstance(o, pdfdoc.PDFPage)]
    assert len(forms) == 12 and len(pages) == 2
    assert all(o.Contents is None and o.stream is None for o in forms + pages)


def test_a_file_object_still_saves(tmp_path: Path) -> None:
    out = io.BytesIO()
    _canvas(out, 3).save()
    ours = tmp_path / "b.pdf"
    _canvas(str(ours), 3).save()
    assert out.getvalue() == ours.read_bytes()
