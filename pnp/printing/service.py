"""Print-service exports: one card per page PDFs and one PNG per card face.

A design (e.g. 63 x 88 mm) is scaled to the service's trim (2.5 x 3.5 in)
so that it *covers* it (the larger of the two axis factors, centred; at most
the profile's tolerance, 3 %), and the page is trim + the service's bleed.
The art must reach every page edge: where the design's own bleed, scaled,
falls short of the service's (3 mm designed, 3.175 mm asked), an underlay —
the same art scaled a little more, so its bleed edge reaches the page edge —
fills the remaining sliver with the art's own edge colours. No white frame.
"""

from __future__ import annotations

import csv
import io
import os
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

from reportlab.pdfgen.canvas import Canvas

from pnp.errors import PnpError
from pnp.fileio import atomic_path, write_text_atomic
from pnp.printing.forms import StableFormCache
from pnp.printing.geometry import EPS, Rect
from pnp.printing.output import atomic_canvas
from pnp.printing.png_store import PngStore
from pnp.printing.profiles import Product, Profile
from pnp.printing.staging import staged_files
from pnp.render.layout import Layout
from pnp.units import to_mm

if TYPE_CHECKING:  # pypdfium2 and Pillow load only when images are made (not for PDFs)
    from PIL import Image

#: Called with the number of card faces done (progress bars).
Progress = Callable[[int], None]


@dataclass(frozen=True)
class ServiceCard:
    """One distinct card for a service export: id, copies, front and back layouts."""

    id: str
    qty: int
    front: Layout
    back: Layout | None
    #: Content keys of the front and back (:mod:`pnp.printing.png_store`): None
    #: where a side cannot be pinned (no markup cache, or it draws a raster image).
    keys: tuple[str | None, str | None] = (None, None)


def cover_scale(layout: Layout, trim: Rect) -> float:
    """Return the factor that makes the design cover ``trim`` (the larger axis factor)."""
    return max(trim.w / layout.width, trim.h / layout.height)


def bleed_shortfall(layout: Layout, trim: Rect, page: Rect) -> float:
    """Return how far (points, page units) the scaled design's bleed falls short of ``page``."""
    s = cover_scale(layout, trim)
    art = _art_rect(layout, trim, s)
    return max(0.0, art.x - page.x, page.x1 - art.x1, art.y - page.y, page.y1 - art.y1)


def _art_rect(layout: Layout, trim: Rect, s: float) -> Rect:
    """Return the scaled design's trim + bleed, centred on ``trim``."""
    w = (layout.width + 2 * layout.bleed) * s
    h = (layout.height + 2 * layout.bleed) * s
    return Rect(trim.x + trim.w / 2 - w / 2, trim.y + trim.h / 2 - h / 2, w, h)


def place_cover(c: Canvas, cache: StableFormCache, layout: Layout, trim: Rect,
                page: Rect) -> None:
    """Draw ``layout`` scaled to cover ``trim`` with art out to every edge of ``page``."""
    s = cover_scale(layout, trim)
    art = _art_rect(layout, trim, s)
    cx, cy = trim.x + trim.w / 2, trim.y + trim.h / 2
    c.saveState()
    clip = c.beginPath()
    clip.rect(page.x, page.y, page.w, page.h)
    c.clipPath(clip, stroke=0, fill=0)
    if (art.x > page.x + EPS or art.y > page.y + EPS or art.x1 < page.x1 - EPS
            or art.y1 < page.y1 - EPS):
        # Underlay: scaled about the trim centre until its bleed box covers the page.
        su = max(2 * max(cx - page.x, page.x1 - cx) / (layout.width + 2 * layout.bleed),
                 2 * max(cy - page.y, page.y1 - cy) / (layout.height + 2 * layout.bleed))
        _draw_scaled(c, cache, layout, cx, cy, su * 1.0005)
        inner = c.beginPath()
        inner.rect(art.x, art.y, art.w, art.h)
        c.clipPath(inner, stroke=0, fill=0)
    _draw_scaled(c, cache, layout, cx, cy, s)
    c.restoreState()


def _draw_scaled(c: Canvas, cache: StableFormCache, layout: Layout, cx: float, cy: float,
                 s: float) -> None:
    """Draw ``layout`` at scale ``s`` with its trim centred on (cx, cy)."""
    c.saveState()
    c.translate(cx - s * layout.width / 2, cy - s * layout.height / 2)
    c.scale(s, s)
    cache.place(layout, 0, 0)
    c.restoreState()


def service_product(profile: Profile, size: tuple[float, float], what: str) -> Product:
    """Return the product ``profile`` prints a design of ``size`` on, or a one-line PnpError."""
    product = profile.product_for(size)
    if product is None:
        sells = "; ".join(p.label() for p in profile.products)
        raise PnpError(f"{profile.name}: {what} is {to_mm(size[0]):.1f} x "
                       f"{to_mm(size[1]):.1f} mm; the profile sells {sells} (add a product "
                       "row to the profiles table if the service has this size)")
    return product


def page_geometry(profile: Profile, product: Product) -> tuple[Rect, Rect]:
    """Return (page, trim) of one service card in points: page = trim + bleed all round."""
    b = profile.bleed
    page = Rect(0.0, 0.0, product.width + 2 * b, product.height + 2 * b)
    return page, Rect(b, b, product.width, product.height)


def write_card_pdf(path: Path, cards: Sequence[ServiceCard], profile: Profile,
                   product: Product, *, title: str = "",
                   canvas_kwargs: dict[str, Any] | None = None,
                   progress: Progress | None = None) -> int:
    """Write one service PDF: a page per card face, per physical copy; return the page count.

    Page = trim + bleed; TrimBox = the trim, BleedBox = CropBox = MediaBox =
    the page; faces in ``profile.page_order`` (DriveThruCards: back1, front1,
    back2, front2 ...). A card without a back gets a blank back page.
    """
    copies = [card for card in cards for _ in range(card.qty)]
    if not copies:
        raise PnpError(f"nothing to print into {path}: the deck has no cards")
    page, trim = page_geometry(profile, product)
    pages = 0
    with atomic_canvas(path, (page.w, page.h), title=title,
                       canvas_kwargs=canvas_kwargs) as c:
        cache = StableFormCache(c)
        for card in copies:
            faces = (card.back, card.front) if profile.page_order == "back-front" \
                else (card.front, card.back)
            for face in faces:
                c.setCropBox((0, 0, page.w, page.h))
                c.setBleedBox((0, 0, page.w, page.h))
                c.setTrimBox((trim.x, trim.y, trim.x1, trim.y1))
                if face is not None:
                    place_cover(c, cache, face, trim, page)
                c.showPage()
                pages += 1
            if progress is not None:
                progress(1)
    return pages


@dataclass(frozen=True)
class RasterJob:
    """One image to render: ``layout`` covering ``trim`` on a ``px_w`` x ``px_h`` image.

    ``trim`` is in pixels, origin bottom-left (PDF convention).
    """

    layout: Layout
    px_w: int
    px_h: int
    trim: Rect


def render_images(jobs: Sequence[RasterJob], progress: Progress | None = None
                  ) -> Iterator[Image.Image]:
    """Yield one RGB image per job, exactly ``px_w`` x ``px_h``.

    All jobs go into one in-memory PDF (one page per job, 1 pt = 1 px, each
    distinct layout one form) rasterised by pdfium at scale 1, so pixel
    sizes are exact and text stays sharp.
    """
    import pypdfium2 as pdfium
    from PIL import Image

    from pnp.render.fonts import canvas_kwargs

    if not jobs:
        return
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(jobs[0].px_w, jobs[0].px_h), invariant=1, **canvas_kwargs())
    cache = StableFormCache(c)
    for job in jobs:
        c.setPageSize((job.px_w, job.px_h))
        place_cover(c, cache, job.layout, job.trim, Rect(0, 0, job.px_w, job.px_h))
        c.showPage()
    c.save()
    pdf = pdfium.PdfDocument(buf.getvalue())
    try:
        for i, job in enumerate(jobs):
            page = pdf[i]
            image = page.render(scale=1).to_pil().convert("RGB")
            page.close()
            if image.size != (job.px_w, job.px_h):
                image = image.resize((job.px_w, job.px_h), Image.Resampling.LANCZOS)
            if progress is not None:
                progress(1)
            yield image
    finally:
        pdf.close()


def save_png(image: Image.Image, path: Path, dpi: int | None = None) -> None:
    """Write ``image`` as PNG atomically (pHYs set to ``dpi`` when given)."""
    with atomic_path(path) as tmp:
        if dpi:
            image.save(tmp, "PNG", dpi=(dpi, dpi))
        else:
            image.save(tmp, "PNG")


class PngWriter:
    """Saves PNGs on worker threads while the caller renders the next image.

    PNG compression dominated the export time and Pillow's encoder releases
    the GIL, so two threads roughly halve it on two cores. The bytes written
    do not depend on the threads.
    """

    def __init__(self) -> None:
        """Start the pool (at most two workers)."""
        self._pool = ThreadPoolExecutor(max_workers=min(2, os.cpu_count() or 1))
        self._jobs: list[Future[None]] = []

    def save(self, image: Image.Image, path: Path, dpi: int | None = None) -> None:
        """Queue ``image`` to be written to ``path``."""
        self._jobs.append(self._pool.submit(save_png, image, path, dpi))

    def __enter__(self) -> "PngWriter":
        """Return the writer."""
        return self

    def __exit__(self, *exc: object) -> None:
        """Wait for every save (re-raising the first failure) and stop the pool."""
        try:
            for job in self._jobs:
                job.result()
        finally:
            self._pool.shutdown(wait=True)


def write_pngs(jobs: Sequence[tuple[Path, RasterJob, str | None]], store: PngStore | None,
               dpi: int | None = None, progress: Progress | None = None) -> None:
    """Write one PNG per ``(path, job, key)``: copied from ``store`` if kept there, else drawn.

    Drawn images are kept in ``store`` under their key (None: not kept).
    ``progress`` counts the images drawn.
    """
    drawn = [(path, job, key) for path, job, key in jobs
             if store is None or not store.write(key, path)]
    if not drawn:
        return
    with PngWriter() as writer:
        for (path, _, _), image in zip(drawn, render_images([j for _, j, _ in drawn],
                                                            progress)):
            writer.save(image, path, dpi)
    if store is not None:
        for path, _, key in drawn:
            store.keep(key, path)


def shared_back(cards: Sequence[ServiceCard], two_sided: bool) -> Layout | None:
    """Return the one back every card shares, or None if backs differ (or are faces)."""
    if two_sided or not cards or cards[0].back is None:
        return None
    key = cards[0].back.key
    return cards[0].back if all(c.back is not None and c.back.key == key for c in cards) \
        else None


def write_card_pngs(folder: Path, cards: Sequence[ServiceCard], profile: Profile,
                    product: Product, *, two_sided: bool,
                    progress: Progress | None = None,
                    store: PngStore | None = None) -> list[Path]:
    """Write one PNG per card face, the back (once if shared) and ``quantities.csv``.

    Image = (trim + 2 x bleed) at ``profile.dpi`` (825 x 1125 px for a TGC
    poker card). Images kept in ``store`` are copied from it; the others are
    drawn and kept there. Returns the files written, the CSV last.
    """
    if not cards:
        raise PnpError(f"nothing to export into {folder}: the deck has no cards")
    page, trim = page_geometry(profile, product)
    k = profile.dpi / 72.0
    px_w, px_h = round(page.w * k), round(page.h * k)
    trim_px = Rect(trim.x * k, trim.y * k, trim.w * k, trim.h * k)
    back = shared_back(cards, two_sided)
    jobs: list[tuple[str, RasterJob, str | None]] = []

    def add(name: str, layout: Layout, side_key: str | None) -> None:
        """Queue one image, with its key in ``store`` (None: not kept)."""
        key = (store.key("card", [side_key], px_w, px_h, trim_px, profile.dpi)
               if store is not None else None)
        jobs.append((name, RasterJob(layout, px_w, px_h, trim_px), key))

    for card in cards:
        add(f"{card.id}.png", card.front, card.keys[0])
        if back is None and card.back is not None:
            add(f"{card.id}-back.png", card.back, card.keys[1])
    if back is not None:
        add("back.png", back, cards[0].keys[1])
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PnpError(f"cannot create output folder {folder}: {exc.strerror or exc}") from None
    written = [folder / name for name, _, _ in jobs]
    out = io.StringIO()
    table = csv.writer(out, lineterminator="\n")
    table.writerow(["file", "back", "quantity", "id"])
    for card in cards:
        back_name = "back.png" if back is not None else (
            f"{card.id}-back.png" if card.back is not None else "")
        table.writerow([f"{card.id}.png", back_name, card.qty, card.id])
    csv_path = folder / "quantities.csv"
    # the images and their quantities all together or not at all: a run
    # stopped half-way leaves the folder as it was (staging.staged_files)
    with staged_files(folder, "cards") as stage:
        write_pngs([(stage(path), job, key) for path, (_, job, key) in zip(written, jobs)],
                   store, profile.dpi, progress)
        write_text_atomic(stage(csv_path), out.getvalue())
    written.append(csv_path)
    return written
