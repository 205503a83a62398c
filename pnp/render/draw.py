"""Draw layouts with ReportLab, once per distinct layout as a PDF form XObject.

Card content is drawn in the markup's coordinates (trim top-left origin,
y down) under one flip ``[1 0 0 -1 0 H]``; text runs set their own text matrix
with a second flip so glyphs stay upright.
"""

from __future__ import annotations

import math
import zlib
from typing import Any

from reportlab.lib.colors import Color
from reportlab.pdfgen import textobject as _textobject
from reportlab.pdfbase.pdfdoc import PDFFormXObject, PDFResourceDictionary, PDFStream
from reportlab.pdfgen.canvas import Canvas

from pnp.render.colors import CURRENT_COLOR, RGB, Gradient, to_hex
from pnp.render.fonts import ensure_font, registered_fonts
from pnp.render.layout import Layout
from pnp.render.memo import BoundedMemo, ops_bytes
from pnp.render.nodes import Group, Icon, IconUse, Image, Node, Shape, Text
from pnp.render.pathdata import Ops


def _end_form(canvas: Canvas) -> None:
    """End a form, giving it a full resource dictionary.

    ReportLab's ``endForm`` leaves ExtGState (opacity) and Shading (gradients)
    out of a form's resources, so those would silently vanish inside forms.
    We build the dictionary the same way ReportLab builds a page's.
    """
    res = PDFResourceDictionary()
    res.basicFonts()
    res.allProcs()
    if canvas._formsinuse:
        res.XObject = canvas._doc.xobjDict(canvas._formsinuse)
    ext = canvas._extgstate.getState()
    if ext:
        res.ExtGState = ext
    res.setShading(canvas._shadingUsed)
    res.setColorSpace(canvas._colorsUsed)
    name = canvas._formData[0]
    canvas.endForm(Resources=res)
    if canvas._pageCompression:
        spool = getattr(canvas, "_pnp_spool", None)
        if spool is None:
            spool = canvas._pnp_spool = FormSpool()
        _precompress(canvas._doc.idToObject[canvas._doc.getXObjectName(name)], spool)


def _precompress(form: PDFFormXObject, spool: "FormSpool | None" = None) -> None:
    """Compress a form's content now instead of when the PDF is saved.

    ReportLab keeps every form's content uncompressed until ``save()``; a
    deck of thousands of distinct cards then holds megabytes of operators.
    Compressed here with the same zlib call ReportLab would make, under the
    same filter name, so the saved bytes are identical. With a ``spool``,
    content past its limit waits in a temporary file (:class:`FormSpool`).
    """
    data = zlib.compress(form.stream)
    content = spool.keep(data) if spool is not None else data
    stream = PDFStream(content=content, filters=[SpooledFlate])
    stream.__Comment__ = "xobject form stream"
    form.Contents = stream
    form.stream = None
    form.compression = 0  # ReportLab would otherwise set its own filter again


#: Compressed form content one canvas keeps in memory; the content of further
#: forms waits in a temporary file until the PDF is saved. A build draws every
#: sheet file before it writes any (a bad card stops it with nothing written),
#: so a deck of thousands of distinct cards held all its forms: 14 MB of the
#: peak with 2,500 cards of long paths. The shipped games' largest sheet file
#: is ~0.3 MB, so an ordinary build never spools.
SPOOL_AFTER = 2**20


class Spooled:
    """Where one form's compressed content waits in a :class:`FormSpool`'s file."""

    __slots__ = ("spool", "offset", "length")

    def __init__(self, spool: "FormSpool", offset: int, length: int) -> None:
        """The ``length`` bytes at ``offset`` of ``spool``'s file."""
        self.spool = spool
        self.offset = offset
        self.length = length

    def read(self) -> bytes:
        """The content, read back from the spool's file."""
        return self.spool.read(self.offset, self.length)


class FormSpool:
    """One canvas's compressed form content past :data:`SPOOL_AFTER`, in an unnamed temporary file.

    The file has no name (deleted as it is created where the system allows),
    so nothing is left behind however the build ends; it closes with the
    canvas. Where it cannot be written (no temporary folder, a full disk)
    the content stays in memory, as before.
    """

    __slots__ = ("file", "held", "size", "broken")

    def __init__(self) -> None:
        """An empty spool; its file is made on first use."""
        self.file: Any = None
        self.held = 0        # compressed bytes of every form so far
        self.size = 0        # bytes written to the file
        self.broken = False

    def keep(self, data: bytes) -> bytes | Spooled:
        """Return ``data`` (held in memory) or where it now waits in the file."""
        self.held += len(data)
        if self.held <= SPOOL_AFTER or self.broken:
            return data
        try:
            if self.file is None:
                import tempfile   # only for the rare huge deck: start-up stays lean

                self.file = tempfile.TemporaryFile(prefix="pnp-forms-")
            self.file.seek(self.size)
            self.file.write(data)
        except OSError:
            self.broken = True   # keep this and later content in memory instead
            return data
        offset = self.size
        self.size += len(data)
        return Spooled(self, offset, len(data))

    def read(self, offset: int, length: int) -> bytes:
        """The ``length`` bytes written at ``offset``."""
        self.file.seek(offset)
        data: bytes = self.file.read(length)
        if len(data) != length:
            raise OSError(f"a temporary file of card drawings lost {length - len(data)} bytes")
        return data


class SpooledFlate:
    """The stream filter of a card form's content: compressed already, perhaps spooled.

    ReportLab runs a stream's filters when it formats the stream, at save;
    this one names Flate (the content was compressed with ReportLab's own
    call) and reads spooled content back from its file (:class:`FormSpool`).
    """

    pdfname = "FlateDecode"

    @staticmethod
    def encode(content: bytes | Spooled) -> bytes:
        """The compressed bytes of ``content``."""
        return content.read() if isinstance(content, Spooled) else content


#: Formatted numbers (~110 bytes each with the float and the dict slot: 16,384
#: keep ~2 MB; a full build of the shipped games formats 5,206 distinct ones,
#: a deck of distinct long paths fills any limit and only keeps it).
_NUMS: BoundedMemo[float, str] = BoundedMemo(16_384)
#: Its look-up, bound once: num runs for every number drawn.
_nums_get = _NUMS.get


def num(v: float) -> str:
    """Format a number for PDF content: 3 decimals, no trailing zeros.

    ReportLab's own formatter runs in pure Python without its C accelerator
    and dominated the drawing time, so paths are written as literals.
    """
    hit = _nums_get(v)
    if hit is not None:
        return hit
    text = "%.3f" % v
    text = text.rstrip("0").rstrip(".")
    if text == "-0":
        text = "0"
    return _NUMS.put(v, text)


def _path_bytes(ops: Ops, code: str) -> int:
    """A rough estimate of one path entry's memory: its operators and their text."""
    return ops_bytes(ops) + len(code)


#: Path operators by path: frames, pips and suit shapes recur on many cards
#: (bounded by an estimate of bytes: each entry keeps its ops tuple alive).
_PATHS: BoundedMemo[Ops, str] = BoundedMemo(4 * 2**20, _path_bytes)
#: The same by the identity of the ops tuple (shapes are shared between cards:
#: pnp.render.markup), so a repeated path is found without hashing its every
#: number; each entry holds its tuple, so an id is never reused while kept
#: (bounded like :data:`_PATHS`: the tuples it holds may be held nowhere else).
_PATHS_BY_ID: BoundedMemo[int, tuple[Ops, str]] = BoundedMemo(
    4 * 2**20, lambda _id, entry: _path_bytes(*entry))


def path_code(ops: Ops) -> str:
    """Return PDF path-construction operators for ``ops`` (memoised, bounded)."""
    same = _PATHS_BY_ID.get(id(ops))
    if same is not None and same[0] is ops:   # not another path that had this id
        return same[1]
    hit = _PATHS.get(ops)
    if hit is None:
        hit = _PATHS.put(ops, _path_code(ops))
    _PATHS_BY_ID.put(id(ops), (ops, hit))
    return hit


def _path_code(ops: Ops) -> str:
    """Format ``ops`` as PDF path-construction operators."""
    parts = []
    for op in ops:
        kind = op[0]
        if kind == "Z":
            parts.append("h")
        elif kind == "C":
            parts.append(f"{num(op[1])} {num(op[2])} {num(op[3])} {num(op[4])} "
                         f"{num(op[5])} {num(op[6])} c")
        else:
            parts.append(f"{num(op[1])} {num(op[2])} {'l' if kind == 'L' else 'm'}")
    return " ".join(parts)


def _rgb_code(rgb: RGB, op: str) -> str:
    """Return a colour operator (``rg`` fill or ``RG`` stroke)."""
    return f"{num(rgb[0])} {num(rgb[1])} {num(rgb[2])} {op}"


class _Drawer:
    """Emits nodes onto a canvas as PDF operators."""

    def __init__(self, canvas: Canvas, icon_forms: dict[tuple[str, str], str] | None,
                 current: RGB = (0.0, 0.0, 0.0)) -> None:
        self.c = canvas
        self.out = canvas.addLiteral
        self.icon_forms = icon_forms
        self.current = current

    def nodes(self, nodes: tuple[Node, ...]) -> None:
        """Draw nodes in order."""
        for n in nodes:
            if isinstance(n, Shape):
                self.shape(n)
            elif isinstance(n, Text):
                self.text(n)
            elif isinstance(n, Group):
                self.group(n)
            elif isinstance(n, IconUse):
                self.icon(n)
            elif isinstance(n, Image):
                self.image(n)

    def _rgb(self, value: object) -> RGB:
        """Resolve currentColor to the icon's colour."""
        return self.current if value == CURRENT_COLOR else value  # type: ignore[return-value]

    def shape(self, s: Shape) -> None:
        """Fill and/or stroke one path."""
        c = self.c
        out = self.out
        st = s.style
        saved = False
        if st.opacity < 1.0:
            c.saveState()
            saved = True
            c.setFillAlpha(st.opacity)
            c.setStrokeAlpha(st.opacity)
        fill = st.fill
        stroke = st.stroke
        star = "*" if st.evenodd else ""
        code = path_code(s.ops)
        if isinstance(fill, Gradient):
            c.saveState()
            out(f"{code} W{star} n")
            x0, y0, x1, y1 = s.bbox
            a = math.radians(fill.angle)
            dx, dy = math.sin(a), -math.cos(a)          # CSS: 0deg points up
            half = (abs((x1 - x0) * dx) + abs((y1 - y0) * dy)) / 2.0
            cx, cy = (x0 + x1) / 2.0, (y0 + y1) / 2.0
            _linear_gradient(c, (cx - dx * half, cy - dy * half, cx + dx * half, cy + dy * half),
                             fill)
            c.restoreState()
            fill = None
        if fill is not None:
            out(_rgb_code(self._rgb(fill), "rg"))
        if stroke is not None:
            dash = "[" + " ".join(num(d) for d in st.dash) + "] 0 d" if st.dash else "[] 0 d"
            out(f"{_rgb_code(self._rgb(stroke), 'RG')} {num(st.stroke_width)} w "
                f"{st.linejoin} j {st.linecap} J {dash}")
            out(f"{code} {'B' + star if fill is not None else 'S'}")
        elif fill is not None:
            out(f"{code} f{star}")
        if saved:
            c.restoreState()

    def group(self, g: Group) -> None:
        """Draw a group under its transform and clip."""
        c = self.c
        c.saveState()
        if g.transform is not None:
            self.out(" ".join(num(v) for v in g.transform) + " cm")
        if g.clip is not None:
            self.out(path_code(g.clip) + " W n")
        self.nodes(g.children)
        c.restoreState()

    def text(self, t: Text) -> None:
        """Draw text runs (vector text) and inline icons."""
        c = self.c
        if not t.runs and not t.icons:
            return
        if t.opacity < 1.0:
            c.saveState()
            c.setFillAlpha(t.opacity)
        if t.runs:
            obj = c.beginText()
            registered = registered_fonts()
            # ReportLab's number formatter as installed (pnp.render.rlspeed), for the
            # text matrix below; None: the canvas is not bottom-up, let ReportLab do it
            fp = _textobject.fp_str if c.bottomup else None
            code = obj._code
            color: RGB | None = None
            font = ""
            size = 0.0
            spacing = 0.0
            for r in t.runs:
                # flip the text matrix back so glyphs are upright in y-down space
                if fp is not None:
                    # what setTextTransform(1, 0, 0, -1, x, y) writes and sets: fp_str
                    # formats each number on its own, and one number at a time is
                    # remembered far more often than six (positions recur)
                    code.append(f"1 0 0 -1 {fp(r.x)} {fp(r.y)} Tm")
                    obj._x0 = obj._x = r.x
                    obj._y0 = obj._y = r.y
                else:
                    obj.setTextTransform(1, 0, 0, -1, r.x, r.y)
                if r.font != font or r.size != size:
                    if r.font not in registered:
                        # a layout loaded from the build's cache was never
                        # measured here, so its fonts may not be registered yet
                        ensure_font(r.font)
                    obj.setFont(r.font, r.size)
                    font, size = r.font, r.size
                if r.color != color:
                    obj.setFillColorRGB(*r.color)
                    color = r.color
                if r.spacing != spacing:
                    obj.setCharSpace(r.spacing)
                    spacing = r.spacing
                # what textOut writes, without the string width it measures to
                # advance a cursor we never use (every run sets its own matrix)
                code.append(obj._formatText(r.text))
            if spacing:
                # Tc is graphics state: it outlives the text object, so put it back
                obj.setCharSpace(0)
            c.drawText(obj)
        for use in t.icons:
            self.icon(use)
        if t.opacity < 1.0:
            c.restoreState()

    def icon(self, use: IconUse) -> None:
        """Draw an icon: as its form if forms are in use, else its shapes."""
        c = self.c
        c.saveState()
        self.out(" ".join(num(v) for v in use.matrix) + " cm")
        if use.opacity < 1.0:
            c.setFillAlpha(use.opacity)
            c.setStrokeAlpha(use.opacity)
        if self.icon_forms is not None:
            c.doForm(self.icon_forms[icon_form_key(use.icon, use.color)])
        else:
            sub = _Drawer(c, None, use.color)
            sub.nodes(use.icon.children)
        c.restoreState()

    def image(self, im: Image) -> None:
        """Draw a raster image (flipped back upright)."""
        c = self.c
        c.saveState()
        if im.clip is not None:
            x, y, w, h = im.clip
            self.out(f"{num(x)} {num(y)} {num(w)} {num(h)} re W n")
        if im.opacity < 1.0:
            c.setFillAlpha(im.opacity)
        self.out(f"1 0 0 -1 {num(im.x)} {num(im.y + im.h)} cm")
        c.drawImage(str(im.path), 0, 0, im.w, im.h, mask="auto")
        c.restoreState()


def _linear_gradient(c: Canvas, axis: tuple[float, float, float, float],
                     fill: Gradient) -> None:
    """Paint ``fill`` along ``axis`` (x0, y0, x1, y1) over the current clip.

    ReportLab adds a new shading object for every gradient painted; a deck
    whose cards share a background would carry thousands of identical ones.
    The first of each distinct gradient in a document is kept and reused by
    name (each form or page still lists it in its own resources).
    """
    shadings: dict[tuple[object, ...], str] | None = getattr(c, "_pnp_shadings", None)
    if shadings is None:
        shadings = c._pnp_shadings = {}
    key = (axis, tuple(fill.stops))
    name = shadings.get(key)
    if name is None:
        c.linearGradient(*axis, [Color(*rgb) for _, rgb in fill.stops],
                         [off for off, _ in fill.stops], extend=True)
        name = shadings[key] = c._code[-1].split()[0][1:]  # "/NAME sh"
    else:
        c._shadingUsed[name] = name
        c._code.append(f"/{name} sh")


def icon_form_key(icon: Icon, color: RGB) -> tuple[str, str]:
    """Return the cache key of an icon's form (colour matters only for currentColor)."""
    return (icon.key, to_hex(color) if icon.uses_current_color else "")


def draw_layout(canvas: Canvas, layout: Layout) -> None:
    """Draw ``layout`` directly (no forms) with its trim box's bottom-left at (0, 0)."""
    canvas.saveState()
    canvas.addLiteral(f"1 0 0 -1 0 {num(layout.height)} cm")
    _Drawer(canvas, None).nodes(layout.nodes)
    canvas.restoreState()


class FormCache:
    """Places layouts on one canvas, drawing each distinct layout once as a form.

    Icons are forms too (defined before the card form that uses them, because
    ReportLab cannot nest form definitions). Forms already present in the
    canvas's document (e.g. from another FormCache) are reused by name.
    """

    def __init__(self, canvas: Canvas) -> None:
        self.canvas = canvas
        self._forms: dict[str, str] = {}
        self._icon_forms: dict[tuple[str, str], str] = {}

    def _ensure_icon(self, use: IconUse) -> None:
        """Define the form for an icon in a colour, once."""
        key = icon_form_key(use.icon, use.color)
        if key in self._icon_forms:
            return
        name = "pnpI_" + key[0] + ("_" + key[1][1:] if key[1] else "")
        c = self.canvas
        if not c.hasForm(name):
            vx, vy, vw, vh = use.icon.viewbox
            c.beginForm(name, vx, vy, vx + vw, vy + vh)
            _Drawer(c, None, use.color).nodes(use.icon.children)
            _end_form(c)
        self._icon_forms[key] = name

    def form_name(self, layout: Layout) -> str:
        """Return the form name for ``layout``, defining the form on first use.

        The form's origin is the trim box's bottom-left corner and its bounding
        box covers the full bleed. Call this outside any other form definition.
        """
        name = self._forms.get(layout.key)
        if name is not None:
            return name
        name = "pnpL_" + layout.key
        c = self.canvas
        if not c.hasForm(name):
            for use in layout.icons:
                self._ensure_icon(use)
            b = layout.bleed
            c.beginForm(name, -b, -b, layout.width + b, layout.height + b)
            c.addLiteral(f"1 0 0 -1 0 {num(layout.height)} cm")
            _Drawer(c, self._icon_forms).nodes(layout.nodes)
            _end_form(c)
        self._forms[layout.key] = name
        return name

    def place(self, layout: Layout, x: float, y: float) -> None:
        """Draw ``layout`` with its trim box's bottom-left corner at (x, y) points.

        Art out to the full bleed is drawn; clip around the call to limit it.
        """
        name = self.form_name(layout)
        c = self.canvas
        c.addLiteral(f"q 1 0 0 1 {num(x)} {num(y)} cm")
        c.doForm(name)
        c.addLiteral("Q")

    @property
    def forms_defined(self) -> int:
        """Number of card forms this cache has defined or reused."""
        return len(self._forms)
