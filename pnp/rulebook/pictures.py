"""Pictures in a rulebook: card faces from the templates and diagrams drawn from data.

A :class:`Scene` is a small vector drawing in points (origin bottom-left,
y up): rendered card faces (:class:`pnp.render.layout.Layout`, drawn with the
card renderer so the book shows exactly what ``pnp build`` prints), simple
playing cards for the decks players buy, zones, labels, arrows, tokens and
dice. Game packages compose scenes for their examples and set-up diagrams;
this module knows no game.

A scene draws onto any ReportLab canvas: the PDF book places it as a
flowable (vector, fonts embedded), and the HTML and Markdown exports
rasterise the same drawing to PNG.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Callable, Sequence

from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from pnp.render.draw import draw_layout
from pnp.render.fonts import (FONT_DISPLAY, FONT_JA, FONT_LATIN, canvas_kwargs, has_glyph,
                              register_fonts)
from pnp.render.layout import Layout
from pnp.games.book_kit import MAX_WIDTH, MIN_LABEL, card_width, fit_width

__all__ = ["MAX_WIDTH", "MIN_LABEL", "Scene", "card_width", "fit_width", "pictures_to_png"]

INK = colors.HexColor("#222222")
ACCENT = colors.HexColor("#1f5c73")
MUTED = colors.HexColor("#5f5f5f")        # 6.4:1 on white: readable small labels
LINE = colors.HexColor("#8a969c")
TINT = colors.HexColor("#eef3f5")
HIGHLIGHT = colors.HexColor("#d9822b")    # marks the card an example talks about
RED_SUIT = colors.HexColor("#c0392b")

#: Rounded corner of a drawn card, as a share of its width (63 mm cards: 3 mm).
CORNER = 0.048
#: Named colours a builder may ask for (see :mod:`pnp.games.book_kit`).
NAMED_COLORS: dict[str, colors.Color] = {"ink": INK, "accent": ACCENT, "muted": MUTED,
                                          "highlight": HIGHLIGHT, "line": LINE}


def paint_color(value: "str | colors.Color") -> colors.Color:
    """A colour given by name (``accent``), as ``#rrggbb``, or already a colour."""
    if isinstance(value, str):
        if value in NAMED_COLORS:
            return NAMED_COLORS[value]
        return colors.HexColor(value)
    return value


def font_runs(text: str, primary: str) -> list[tuple[str, str]]:
    """``text`` cut into (font, piece) runs: ``primary`` where it has the glyph, else IPAexGothic.

    The Latin faces lack kana, kanji and card suits; the Japanese face has
    them, so every character is drawn by an embedded font that holds it.
    """
    register_fonts()
    runs: list[tuple[str, str]] = []
    for char in text:
        font = primary if primary == FONT_JA or has_glyph(primary, ord(char)) else FONT_JA
        if runs and runs[-1][0] == font:
            runs[-1] = (font, runs[-1][1] + char)
        else:
            runs.append((font, char))
    return runs


def text_width(text: str, font: str, size: float) -> float:
    """Width of ``text`` drawn with :func:`font_runs` fallback."""
    return sum(stringWidth(piece, f, size) for f, piece in font_runs(text, font))


def draw_text(canvas: Canvas, text: str, x: float, y: float, font: str, size: float,
              anchor: str = "start") -> None:
    """Draw one line of ``text`` at baseline ``y``; ``anchor`` is start, middle or end."""
    width = text_width(text, font, size)
    if anchor == "middle":
        x -= width / 2
    elif anchor == "end":
        x -= width
    for f, piece in font_runs(text, font):
        canvas.setFont(f, size)
        canvas.drawString(x, y, piece)
        x += stringWidth(piece, f, size)


def wrap_text(text: str, font: str, size: float, width: float) -> list[str]:
    """``text`` broken into lines no wider than ``width``, as card text breaks.

    The card renderer's line breaker does it (:func:`pnp.render.textlayout.plain_lines`,
    the rules of :mod:`pnp.render.kinsoku`): Latin text at spaces, Japanese
    between characters but never before ``ー``, small kana or a closing mark,
    never inside ``1〜3`` or ``3枚``, and no one- or two-character last line
    when another break exists. A word wider than ``width`` stays whole on its
    own line (a label may run a little wide rather than split a word).
    """
    if size <= 0 or text_width(text, font, size) <= width:
        return [text]
    from pnp.render.textlayout import chunks, plain_lines

    pieces = (("t", (font,), (0.0, 0.0, 0.0), text),)
    # The longest unbreakable run (in em) sets the least width.
    widest = max((chunk.width for chunk in chunks(pieces)), default=0.0)
    return plain_lines(pieces, max(width / size, widest))


@dataclass
class _Item:
    """One drawable element of a scene and its bounding box."""

    box: tuple[float, float, float, float]      # x0, y0, x1, y1
    draw: Callable[[Canvas], None]
    layer: int = 0


@dataclass
class Scene:
    """A vector picture assembled from cards, zones, labels and arrows.

    Coordinates are points, origin bottom-left. ``font`` is the edition's
    text face (IPAexGothic for Japanese, Vera for English, with per-glyph
    fallback). The picture's size is the bounding box of what was added
    plus ``margin``.
    """

    font: str = FONT_JA
    bold: str = FONT_JA
    margin: float = 2.0
    items: list[_Item] = field(default_factory=list)

    @classmethod
    def for_lang(cls, lang_code: str) -> "Scene":
        """A scene whose labels use the edition's face."""
        if lang_code == "ja":
            return cls(FONT_JA, FONT_JA)
        return cls(FONT_LATIN, FONT_DISPLAY)

    # -- geometry -------------------------------------------------------------

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """The union of the items' boxes (0-size scene: a 1 pt box)."""
        if not self.items:
            return (0.0, 0.0, 1.0, 1.0)
        x0 = min(i.box[0] for i in self.items)
        y0 = min(i.box[1] for i in self.items)
        x1 = max(i.box[2] for i in self.items)
        y1 = max(i.box[3] for i in self.items)
        return (x0, y0, x1, y1)

    @property
    def width(self) -> float:
        """Natural width in points (margins included)."""
        x0, _, x1, _ = self.bounds
        return x1 - x0 + 2 * self.margin

    @property
    def height(self) -> float:
        """Natural height in points (margins included)."""
        _, y0, _, y1 = self.bounds
        return y1 - y0 + 2 * self.margin

    def draw(self, canvas: Canvas) -> None:
        """Draw the scene with its bounding box's corner at the origin (plus margin)."""
        x0, y0, _, _ = self.bounds
        canvas.saveState()
        canvas.translate(self.margin - x0, self.margin - y0)
        for item in sorted(self.items, key=lambda i: i.layer):
            canvas.saveState()
            item.draw(canvas)
            canvas.restoreState()
        canvas.restoreState()

    # -- elements ---------------------------------------------------------------

    def card(self, layout: Layout, x: float, y: float, width: float, *, rotate: int = 0,
             highlight: bool = False, dim: bool = False, layer: int = 1) -> tuple[float, float]:
        """A rendered card side with its bottom-left corner at (x, y), ``width`` points wide.

        ``rotate`` is 0, 90 (a card turned sideways, as an achieved
        scenario) or 180 (a card turned round, its lower half on top). ``highlight`` rings it in the accent colour (the card an
        example talks about); ``dim`` greys it (a card set aside). Returns
        the drawn (width, height).
        """
        scale = width / layout.width
        height = layout.height * scale
        w, h = (height, width) if rotate == 90 else (width, height)
        radius = width * CORNER

        def paint(c: Canvas) -> None:
            c.translate(x, y)
            if rotate == 90:
                c.translate(w, 0)
                c.rotate(90)
            elif rotate == 180:
                c.translate(w, h)
                c.rotate(180)
            path = c.beginPath()
            path.roundRect(0, 0, width, height, radius)
            c.saveState()
            c.clipPath(path, stroke=0, fill=0)
            c.scale(scale, scale)
            draw_layout(c, layout)
            c.restoreState()
            if dim:
                c.setFillColor(colors.Color(1, 1, 1, alpha=0.55))
                c.roundRect(0, 0, width, height, radius, stroke=0, fill=1)
            c.setLineWidth(1.6 if highlight else 0.4)
            c.setStrokeColor(HIGHLIGHT if highlight else LINE)
            c.roundRect(0, 0, width, height, radius, stroke=1, fill=0)

        self.items.append(_Item((x - 1, y - 1, x + w + 1, y + h + 1), paint, layer))
        return w, h

    def playing_card(self, rank: str, suit: str, x: float, y: float, width: float, *,
                     highlight: bool = False, face_down: bool = False,
                     layer: int = 1) -> tuple[float, float]:
        """A plain playing card (rank and suit in the corners and centre) or its back."""
        height = width * 88 / 63
        radius = width * CORNER
        red = suit in ("♥", "♦")

        def paint(c: Canvas) -> None:
            c.translate(x, y)
            c.setLineWidth(1.6 if highlight else 0.5)
            c.setStrokeColor(HIGHLIGHT if highlight else LINE)
            if face_down:
                c.setFillColor(ACCENT)
                c.roundRect(0, 0, width, height, radius, stroke=1, fill=1)
                c.setStrokeColor(colors.white)
                c.setLineWidth(0.5)
                inset = width * 0.1
                c.roundRect(inset, inset, width - 2 * inset, height - 2 * inset, radius,
                            stroke=1, fill=0)
                return
            c.setFillColor(colors.white)
            c.roundRect(0, 0, width, height, radius, stroke=1, fill=1)
            c.setFillColor(RED_SUIT if red else INK)
            corner = max(MIN_LABEL, width * 0.2)
            draw_text(c, rank, width * 0.1, height - corner * 1.05, FONT_JA, corner)
            draw_text(c, suit, width * 0.1, height - corner * 2.1, FONT_JA, corner * 0.9)
            big = width * 0.42
            draw_text(c, suit, width / 2, height / 2 - big * 0.35, FONT_JA, big, "middle")

        self.items.append(_Item((x - 1, y - 1, x + width + 1, y + height + 1), paint, layer))
        return width, height

    def zone(self, x: float, y: float, w: float, h: float, label: str = "", *,
             dashed: bool = True, fill: bool = True, size: float = 7.0,
             label_pos: str = "top") -> None:
        """A table area: a (dashed) rounded box with an optional label above or below it."""
        def paint(c: Canvas) -> None:
            c.setStrokeColor(LINE)
            c.setLineWidth(0.6)
            if dashed:
                c.setDash(2.5, 2)
            if fill:
                c.setFillColor(TINT)
            c.roundRect(x, y, w, h, 3, stroke=1, fill=1 if fill else 0)

        self.items.append(_Item((x, y, x + w, y + h), paint, 0))
        if label:
            ly = y + h + 2.5 if label_pos == "top" else y - size - 2
            self.label(label, x + w / 2, ly, size=size, anchor="middle", color="accent")

    def label(self, text: str, x: float, y: float, *, size: float = 7.0, anchor: str = "start",
              color: "str | colors.Color" = "ink", bold: bool = False,
              max_width: float | None = None) -> None:
        """A line of text with its baseline at ``y``; never below the minimum label size.

        With ``max_width``, a longer text wraps onto further lines below the
        first (at spaces, or between Japanese characters where kinsoku allows).
        """
        size = max(size, MIN_LABEL)
        font = self.bold if bold else self.font
        lines = wrap_text(text, font, size, max_width) if max_width else [text]
        for i, line in enumerate(lines):
            self._line(line, x, y - i * size * 1.2, size, anchor, paint_color(color), font)

    def _line(self, text: str, x: float, y: float, size: float, anchor: str,
              color: colors.Color, font: str) -> None:
        width = text_width(text, font, size)
        x0 = x - (width / 2 if anchor == "middle" else width if anchor == "end" else 0)

        def paint(c: Canvas) -> None:
            c.setFillColor(color)
            draw_text(c, text, x, y, font, size, anchor)

        self.items.append(_Item((x0, y - size * 0.25, x0 + width, y + size * 0.9), paint, 3))

    def arrow(self, x1: float, y1: float, x2: float, y2: float, *,
              color: "str | colors.Color" = "highlight", width: float = 1.0) -> None:
        """A straight arrow from (x1, y1) to (x2, y2)."""
        import math

        color = paint_color(color)
        angle = math.atan2(y2 - y1, x2 - x1)
        head = 4.0

        def paint(c: Canvas) -> None:
            c.setStrokeColor(color)
            c.setFillColor(color)
            c.setLineWidth(width)
            c.line(x1, y1, x2 - head * 0.8 * math.cos(angle), y2 - head * 0.8 * math.sin(angle))
            path = c.beginPath()
            path.moveTo(x2, y2)
            path.lineTo(x2 - head * math.cos(angle - 0.45), y2 - head * math.sin(angle - 0.45))
            path.lineTo(x2 - head * math.cos(angle + 0.45), y2 - head * math.sin(angle + 0.45))
            path.close()
            c.drawPath(path, stroke=0, fill=1)

        box = (min(x1, x2) - head, min(y1, y2) - head, max(x1, x2) + head, max(y1, y2) + head)
        self.items.append(_Item(box, paint, 2))

    def token(self, x: float, y: float, radius: float, text: str = "", *,
              fill: "str | colors.Color" = "accent", ink: "str | colors.Color" = "#ffffff",
              size: float = 7.0) -> None:
        """A round token centred on (x, y) with a short text."""
        fill, ink = paint_color(fill), paint_color(ink)
        def paint(c: Canvas) -> None:
            c.setFillColor(fill)
            c.setStrokeColor(LINE)
            c.setLineWidth(0.5)
            c.circle(x, y, radius, stroke=1, fill=1)
            if text:
                c.setFillColor(ink)
                s = max(size, MIN_LABEL)
                draw_text(c, text, x, y - s * 0.35, self.bold, s, "middle")

        self.items.append(_Item((x - radius, y - radius, x + radius, y + radius), paint, 2))

    def die(self, x: float, y: float, size: float, pips: int, *,
            highlight: bool = False) -> None:
        """A six-sided die showing ``pips`` (1–6), bottom-left corner at (x, y)."""
        spots = {1: [(1, 1)], 2: [(0, 2), (2, 0)], 3: [(0, 2), (1, 1), (2, 0)],
                 4: [(0, 0), (0, 2), (2, 0), (2, 2)],
                 5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)],
                 6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)]}[pips]

        def paint(c: Canvas) -> None:
            c.setFillColor(colors.white)
            c.setStrokeColor(HIGHLIGHT if highlight else INK)
            c.setLineWidth(1.4 if highlight else 0.7)
            c.roundRect(x, y, size, size, size * 0.18, stroke=1, fill=1)
            c.setFillColor(INK)
            for col, row in spots:
                c.circle(x + size * (0.25 + 0.25 * col), y + size * (0.25 + 0.25 * row),
                         size * 0.085, stroke=0, fill=1)

        self.items.append(_Item((x - 1, y - 1, x + size + 1, y + size + 1), paint, 2))


def row_of_cards(scene: Scene, layouts: Sequence[Layout], x: float, y: float, width: float,
                 gap: float = 3.0, *, labels: Sequence[str] = (),
                 highlight: Sequence[bool] = (), label_size: float = 7.0) -> float:
    """Cards side by side from (x, y); labels under them. Returns the x after the row."""
    for i, layout in enumerate(layouts):
        w, _ = scene.card(layout, x, y, width,
                          highlight=bool(highlight[i]) if i < len(highlight) else False)
        if i < len(labels) and labels[i]:
            scene.label(labels[i], x + w / 2, y - label_size - 2, size=label_size,
                        anchor="middle")
        x += w + gap
    return x


def render_pictures_pdf(pictures: Sequence[Scene]) -> bytes:
    """One PDF page per picture, each page exactly the picture's size (for rasterising)."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, **canvas_kwargs())
    for picture in pictures:
        canvas.setPageSize((picture.width, picture.height))
        picture.draw(canvas)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def pictures_to_png(pictures: Sequence[Scene], dpi: int = 150) -> list[bytes]:
    """Each picture as PNG bytes at ``dpi`` on white (deterministic for the same input)."""
    if not pictures:
        return []
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(render_pictures_pdf(pictures))
    out: list[bytes] = []
    try:
        for index in range(len(pdf)):
            page = pdf[index]
            image = page.render(scale=dpi / 72).to_pil().convert("RGB")
            data = io.BytesIO()
            image.save(data, format="PNG", optimize=True)
            out.append(data.getvalue())
    finally:
        pdf.close()
    return out
