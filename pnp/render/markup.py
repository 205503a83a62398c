"""Parse the card markup (and icon SVG files) into immutable drawing nodes.

The markup is a small SVG-like XML language documented in docs/templates.md.
It is read with expat directly (fast, gives line numbers, and refuses DOCTYPE
declarations so no entity tricks get in). Card files are checked strictly:
unknown elements or attributes are errors, because a typo such as ``widht``
should not pass silently. Icon files come from drawing programs, so their
unknown elements and attributes are ignored.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
from xml.parsers import expat

from PIL import Image as PILImage

from pnp.errors import PnpError
from pnp.render import fonts
from pnp.render.colors import CURRENT_COLOR, RGB, Gradient, parse_color, parse_paint
from pnp.render.memo import ENTRY_BYTES, BoundedMemo, ops_bytes
from pnp.render.nodes import (Group, Icon, IconUse, Image, Node, Paint, Shape, Style, Text,
                               TextRun)
from pnp.render.srcmap import ATTR, split_at
from pnp.render.reads import note_read
from pnp.render.pathdata import (MAX_COORD, IDENTITY, Matrix, Ops, bbox, coord_range,
                                 ellipse_ops, multiply, parse_path, poly_ops, rect_ops,
                                 rotation, scale_ops, within)
from pnp.render.textlayout import TextTooLong, fit_text, icon_uses
from pnp.units import POINTS_PER, parse_length

MM = POINTS_PER["mm"]
#: Default card bleed (how far art may run past the trim line).
DEFAULT_BLEED = 3 * MM
#: Default stroke width on cards: 0.25 mm (icons use SVG's 1 user unit).
CARD_STROKE = 0.25 * MM

_STYLE_ATTRS = frozenset({"fill", "stroke", "stroke-width", "stroke-dasharray",
                          "stroke-linejoin", "stroke-linecap", "fill-rule",
                          "opacity", "color", "font", "transform", "id"})
_ALLOWED: dict[str, frozenset[str]] = {
    "g": _STYLE_ATTRS,
    "rect": _STYLE_ATTRS | {"x", "y", "width", "height", "rx", "ry"},
    "circle": _STYLE_ATTRS | {"cx", "cy", "r"},
    "ellipse": _STYLE_ATTRS | {"cx", "cy", "rx", "ry"},
    "line": _STYLE_ATTRS | {"x1", "y1", "x2", "y2"},
    "polyline": _STYLE_ATTRS | {"points"},
    "polygon": _STYLE_ATTRS | {"points"},
    "path": _STYLE_ATTRS | {"d"},
    "text": frozenset({"x", "y", "width", "height", "font", "size", "min-size",
                       "line-height", "align", "valign", "color", "max-lines", "letter-spacing",
                       "opacity", "id", "transform"}),
    "icon": frozenset({"name", "x", "y", "width", "height", "color", "opacity",
                       "id", "transform"}),
    "image": frozenset({"href", "x", "y", "width", "height", "fit", "opacity",
                        "id", "transform"}),
    "clip": frozenset({"id"}),
    "background": _STYLE_ATTRS - {"transform"},
    "span": frozenset({"font", "color", "letter-spacing"}),
    "br": frozenset(),
}
_HINTS = {"w": "width", "h": "height", "src": "href", "font-size": "size",
          "font-family": "font", "fill-opacity": "opacity", "dash": "stroke-dasharray"}
_SHAPES = frozenset({"rect", "circle", "ellipse", "line", "polyline", "polygon", "path"})
_JOINS = {"miter": 0, "round": 1, "bevel": 2}
_CAPS = {"butt": 0, "round": 1, "square": 2}
_ICON_TOKEN = re.compile(r"\{icon:([A-Za-z0-9_-]+)\}")
_WS = re.compile(r"[ \t\r\n]+")
_NUMS = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_TRANSFORM = re.compile(r"\s*(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)\s*,?")


class _El:
    """A parsed XML element: tag, attributes, mixed children, source line.

    ``at`` is the template location ``name:line`` that wrote the element (see
    :mod:`pnp.render.srcmap`), or None for markup without it (icon files, or
    an element built inside a Jinja expression); ``parent`` finds the nearest
    annotated ancestor for those.
    """

    __slots__ = ("tag", "attrs", "children", "line", "at", "parent")

    def __init__(self, tag: str, attrs: dict[str, str], line: int,
                 parent: "_El | None" = None) -> None:
        self.tag = tag
        self.at = attrs.pop(ATTR, None)
        self.attrs = attrs
        self.children: list[_El | str] = []
        self.line = line
        self.parent = parent

    def where(self) -> str | None:
        """Return the template location of this element or its nearest annotated parent."""
        el: _El | None = self
        while el is not None:
            if el.at is not None:
                return el.at
            el = el.parent
        return None


#: What a template author most often did when the rendered markup is not XML.
TEMPLATE_XML_HINT = "a data value with '&' or '<' must go through {{ }} so it is escaped"


def parse_xml(text: str, what: str, hint: str = TEMPLATE_XML_HINT) -> _El:
    """Parse XML text into an :class:`_El` tree; errors name ``what``, the line and ``hint``."""
    parser = expat.ParserCreate()
    parser.buffer_text = True
    stack: list[_El] = []
    root: list[_El] = []

    def start(tag: str, attrs: dict[str, str]) -> None:
        """Open an element."""
        el = _El(tag, attrs, parser.CurrentLineNumber, stack[-1] if stack else None)
        if stack:
            stack[-1].children.append(el)
        else:
            root.append(el)
        stack.append(el)

    def end(tag: str) -> None:
        """Close an element."""
        stack.pop()

    def chars(data: str) -> None:
        """Append character data, merging adjacent pieces."""
        if stack:
            kids = stack[-1].children
            if kids and isinstance(kids[-1], str):
                kids[-1] += data
            else:
                kids.append(data)

    def no_doctype(*args: object) -> None:
        """Refuse DOCTYPE/entity declarations (no entity expansion tricks)."""
        raise PnpError(f"{what}: DOCTYPE and entity declarations are not allowed")

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    parser.StartDoctypeDeclHandler = no_doctype
    parser.EntityDeclHandler = no_doctype
    try:
        parser.Parse(text, True)
    except expat.ExpatError as exc:
        raise PnpError(f"{what}: markup is not well-formed XML at line {exc.lineno}, "
                       f"column {exc.offset + 1}: {expat.ErrorString(exc.code)} "
                       f"({hint})") from None
    return root[0]


@dataclass
class _Inh:
    """Inherited presentation settings (SVG-style inheritance through <g>)."""

    fill: Paint = (0.0, 0.0, 0.0)
    stroke: RGB | str | None = None      # str: CURRENT_COLOR; gradients are fill-only
    stroke_width: float = CARD_STROKE
    dash: tuple[float, ...] = ()
    join: int = 0
    cap: int = 0
    evenodd: bool = False
    opacity: float = 1.0
    color: RGB | str | None = (0.0, 0.0, 0.0)   # str: CURRENT_COLOR (icons)
    font: str = fonts.DEFAULT_FAMILY


IconResolver = Callable[[str], Icon]

#: A strict-mode shape's memo key (:meth:`Parser.shape_key`): tag, attributes,
#: the :class:`_Inh` fields but ``font``, then scale, ref_w and ref_h.
ShapeKey = tuple[str, tuple[tuple[str, str], ...], Paint, RGB | str | None, float,
                 tuple[float, ...], int, int, bool, float, RGB | str | None, float, float,
                 float]


@dataclass
class Parser:
    """Turns an :class:`_El` tree into nodes.

    ``scale`` converts plain numbers to points (mm for cards, 1 for icons);
    ``ref_w``/``ref_h`` are what percentages refer to (card or viewBox size).
    """

    what: str                       # the card ("fortuna/reel reel-3-bolt") for messages
    scale: float
    ref_w: float
    ref_h: float
    strict: bool
    resolve_icon: IconResolver | None = None
    templates_dir: Path | None = None
    bleed: float = 0.0
    icons_used: dict[tuple[int, RGB], IconUse] = field(default_factory=dict)
    #: How messages name the markup when an element has no template line.
    source: str = "rendered markup"
    #: The templates folder as shown in messages ("templates").
    templates_label: str = "templates"
    #: The template being rendered (a macro's element names it in messages).
    template: str | None = None
    _len_cache: dict[tuple[str, bool], float] = field(default_factory=dict)
    #: The largest coordinate in points: :data:`MAX_COORD` user units (mm, viewBox).
    limit: float = field(init=False, default=MAX_COORD)
    #: That range as messages give it, in user units (a card's plain numbers are mm).
    limit_text: str = field(init=False, default="")

    def __post_init__(self) -> None:
        self.limit = MAX_COORD * max(self.scale, 1.0)
        self.limit_text = coord_range(unit=" mm" if self.scale != 1.0 else "")

    # ----------------------------------------------------------- errors
    def fail(self, el: _El | None, msg: str) -> PnpError:
        """Return a PnpError naming the card, the template file and line, and the element.

        The template line comes from the element's ``_at`` annotation; without
        one the message names the line of the rendered markup. The error also
        carries ``template`` and ``template_line`` for the linter's report.
        """
        at = el.where() if el is not None else None
        template, line = split_at(at) if at else (None, None)
        if el is None:
            loc = ""
        elif template is not None:
            via = f" (drawing {self.templates_label}/{self.template})" \
                if self.template and template != self.template else ""
            loc = f": {self.templates_label}/{template}:{line} <{el.tag}>{via}"
        else:
            loc = (f" ({self.source}) line {el.line} <{el.tag}>" if self.source
                   else f" line {el.line} <{el.tag}>")
        err = PnpError(f"{self.what}{loc}: {msg}")
        err.located = True  # type: ignore[attr-defined]
        err.detail = msg  # type: ignore[attr-defined]
        err.template = template  # type: ignore[attr-defined]
        err.template_line = line  # type: ignore[attr-defined]
        return err

    # ----------------------------------------------------------- values
    def length(self, value: str, vertical: bool = False) -> float:
        """Parse a coordinate or length; % refers to the card (or viewBox)."""
        key = (value, vertical)
        hit = self._len_cache.get(key)
        if hit is not None:
            return hit
        try:
            out = float(value) * self.scale
        except ValueError:
            v = value.strip()
            if self.scale == 1.0 and v.endswith("px"):   # icon files: px = user unit
                v = v[:-2]
                try:
                    out = float(v)
                except ValueError:
                    raise PnpError(f"bad length {value!r}") from None
            else:
                out = parse_length(v, relative_to=self.ref_h if vertical else self.ref_w,
                                   default_unit="mm" if self.scale != 1.0 else "pt",
                                   what="length")
                if self.scale == 1.0 and not v.endswith("%"):
                    raise PnpError(f"bad length {value!r} in an icon: use plain "
                                   f"viewBox numbers")
        # float() reads 'nan', 'inf' and 1e400: written into the PDF they break it
        if not within(out, self.limit):
            raise PnpError(f"bad length {value!r}: expected a number {self.limit_text}")
        self._len_cache[key] = out
        return out

    def attr_len(self, el: _El, name: str, default: float | None = None,
                 vertical: bool = False, size: bool = False) -> float:
        """Return length attribute ``name`` of ``el`` (required if no default).

        ``size``: a width, height or radius, which may not be negative (SVG
        calls that an error; drawn, it would mirror the shape or the box).
        """
        v = el.attrs.get(name)
        if v is None:
            if default is None:
                raise self.fail(el, f"missing attribute {name!r}")
            return default
        out = self.length(v, vertical)
        if size and out < 0:
            raise PnpError(f"bad {name} {v!r}: expected a length ≥ 0")
        return out

    def numbers(self, text: str) -> list[float]:
        """Return all numbers in ``text`` (points lists, transforms)."""
        out = [float(n) for n in _NUMS.findall(text)]
        for v in out:
            if not within(v):
                raise PnpError(f"bad number {v:g} in {text[:60]!r}: expected numbers "
                               f"{coord_range()}")
        return out

    def transform(self, text: str) -> Matrix:
        """Parse an SVG transform list; translations use the length rules."""
        m = IDENTITY
        pos = 0
        text = text.strip()
        while pos < len(text):
            match = _TRANSFORM.match(text, pos)
            if not match:
                raise PnpError(f"bad transform {text!r}: expected translate(x, y), "
                               f"scale(s), rotate(deg), skewX/skewY(deg) or matrix(...)")
            pos = match.end()
            name = match.group(1)
            args = [a for a in re.split(r"[\s,]+", match.group(2).strip()) if a]
            try:
                if name == "translate" and len(args) in (1, 2):
                    t = (1.0, 0.0, 0.0, 1.0, self.length(args[0]),
                         self.length(args[1], True) if len(args) == 2 else 0.0)
                elif name == "scale" and len(args) in (1, 2):
                    sx = float(args[0])
                    sy = float(args[1]) if len(args) == 2 else sx
                    t = (sx, 0.0, 0.0, sy, 0.0, 0.0)
                elif name == "rotate" and len(args) in (1, 3):
                    cx = self.length(args[1]) if len(args) == 3 else 0.0
                    cy = self.length(args[2], True) if len(args) == 3 else 0.0
                    t = rotation(float(args[0]), cx, cy)
                elif name in ("skewX", "skewY") and len(args) == 1:
                    k = math.tan(math.radians(float(args[0])))
                    t = (1.0, 0.0, k, 1.0, 0.0, 0.0) if name == "skewX" else (1.0, k, 0.0, 1.0, 0.0, 0.0)
                elif name == "matrix" and len(args) == 6:
                    a, b, c, d = (float(x) for x in args[:4])
                    t = (a, b, c, d, self.length(args[4]), self.length(args[5], True))
                else:
                    raise ValueError
            except ValueError:
                raise PnpError(f"bad transform {match.group(0).strip()!r}: wrong "
                               f"number or kind of arguments") from None
            m = multiply(m, t)
            # scale(nan), scale(1e308) twice, skewX(90): a matrix the PDF cannot hold
            if not all(within(v, self.limit) for v in m):
                # scales and points alike: the matrix holds both
                raise PnpError(f"bad transform {text[:60]!r}: expected finite values of at "
                               f"most {self.limit:.0f} (and no skew of ±90°)")
        return m

    # ----------------------------------------------------------- style
    def inherit(self, el: _El, inh: _Inh) -> _Inh:
        """Return the settings for ``el`` and its children."""
        a = el.attrs
        if not (a.keys() & _STYLE_ATTRS):
            return inh
        new = _Inh(**inh.__dict__)
        if "color" in a:
            new.color = parse_color(a["color"])
        if "fill" in a:
            new.fill = parse_paint(a["fill"])
        if "stroke" in a:
            stroke = parse_paint(a["stroke"])
            if isinstance(stroke, Gradient):
                raise PnpError("gradients are only allowed for fill")
            new.stroke = stroke
        if "stroke-width" in a:
            new.stroke_width = self.length(a["stroke-width"])
            if new.stroke_width < 0:
                raise PnpError(f"bad stroke-width {a['stroke-width']!r}: expected a "
                               "length ≥ 0 (0: no outline)")
        if "stroke-dasharray" in a:
            v = a["stroke-dasharray"].strip()
            new.dash = () if v == "none" else tuple(
                self.length(p) for p in re.split(r"[\s,]+", v) if p)
            # a PDF reader refuses a negative or all-zero dash pattern
            if any(d < 0 for d in new.dash) or (new.dash and not any(new.dash)):
                raise PnpError(f"bad stroke-dasharray {v!r}: expected lengths ≥ 0, not "
                               "all 0 (or none)")
        if "stroke-linejoin" in a:
            if a["stroke-linejoin"] not in _JOINS:
                raise PnpError(f"bad stroke-linejoin {a['stroke-linejoin']!r}: "
                               f"expected miter, round or bevel")
            new.join = _JOINS[a["stroke-linejoin"]]
        if "stroke-linecap" in a:
            if a["stroke-linecap"] not in _CAPS:
                raise PnpError(f"bad stroke-linecap {a['stroke-linecap']!r}: "
                               f"expected butt, round or square")
            new.cap = _CAPS[a["stroke-linecap"]]
        if "fill-rule" in a:
            if a["fill-rule"] not in ("nonzero", "evenodd"):
                raise PnpError(f"bad fill-rule {a['fill-rule']!r}: expected nonzero or evenodd")
            new.evenodd = a["fill-rule"] == "evenodd"
        if "opacity" in a:
            new.opacity = inh.opacity * self.fraction(a["opacity"], "opacity")
        if "font" in a:
            fonts.family_fonts(a["font"])     # validate early
            new.font = a["font"]
        return new

    def fraction(self, text: str, what: str) -> float:
        """Parse a number in 0..1 (or a percentage)."""
        t = text.strip()
        try:
            v = float(t[:-1]) / 100.0 if t.endswith("%") else float(t)
        except ValueError:
            raise PnpError(f"bad {what} {text!r}: expected a number 0..1") from None
        if not 0.0 <= v <= 1.0:
            raise PnpError(f"bad {what} {text!r}: expected a number 0..1")
        return v

    def style(self, inh: _Inh) -> Style:
        """Build the Style of a shape from the inherited settings."""
        fill = inh.fill
        if fill == CURRENT_COLOR:
            fill = inh.color
        stroke = inh.stroke
        if stroke == CURRENT_COLOR:
            stroke = inh.color
        if inh.stroke_width <= 0:
            stroke = None
        return Style(fill, stroke, inh.stroke_width, inh.dash, inh.join, inh.cap,
                     inh.opacity, inh.evenodd)

    # ----------------------------------------------------------- elements
    def children(self, el: _El, inh: _Inh) -> tuple[list[Node], Ops | None]:
        """Parse the element children of a group-like element; returns (nodes, clip)."""
        nodes: list[Node] = []
        clip: list = []
        has_clip = False
        for child in el.children:
            if isinstance(child, str):
                if child.strip() and self.strict:
                    raise self.fail(el, f"stray text {child.strip()[:30]!r}: text "
                                        f"must be inside a <text> element")
                continue
            if child.tag == "clip" and self.strict:
                self.check_attrs(child)
                has_clip = True
                for c in child.children:
                    if isinstance(c, str):
                        continue
                    if c.tag not in _SHAPES:
                        raise self.fail(c, "only shapes (rect, circle, ellipse, polygon, "
                                           "polyline, path) may be inside <clip>")
                    node = self.element(c, inh)
                    if isinstance(node, Group):   # a transformed clip shape
                        assert node.transform is not None
                        shape = node.children[0]
                        assert isinstance(shape, Shape)
                        clip.extend(transform_ops(shape.ops, node.transform))
                    elif isinstance(node, Shape):
                        clip.extend(node.ops)
                continue
            node = self.element(child, inh)
            if node is not None:
                nodes.append(node)
        return nodes, (tuple(clip) if has_clip else None)

    def check_attrs(self, el: _El) -> None:
        """Strict mode: refuse attributes the element does not know."""
        allowed = _ALLOWED.get(el.tag)
        if allowed is None:
            return
        for name in el.attrs:
            if name not in allowed:
                hint = f" (did you mean {_HINTS[name]!r}?)" if _HINTS.get(name) in allowed else ""
                raise self.fail(el, f"unknown attribute {name!r}{hint}; allowed: "
                                    f"{', '.join(sorted(allowed))}")

    def element(self, el: _El, inh: _Inh) -> Node | None:
        """Parse one element (any PnpError is re-raised with its location)."""
        try:
            return self._element(el, inh)
        except PnpError as exc:
            if getattr(exc, "located", False):
                raise
            raise self.fail(el, exc.message) from None

    def _element(self, el: _El, inh: _Inh) -> Node | None:
        """Dispatch on the element's tag (errors are located by the caller).

        A card's shape is looked up first among the shapes parsed from the
        same element before (see :data:`_PARSED`).
        """
        tag = el.tag
        if self.strict and tag in _SHAPES:
            key = self.shape_key(el, inh)
            try:
                return _PARSED.data[key]
            except KeyError:
                pass
            return _PARSED.put(key, self._parse_element(el, inh))
        return self._parse_element(el, inh)

    def shape_key(self, el: _El, inh: _Inh) -> ShapeKey:
        """Everything a strict-mode shape's node depends on (the key of :data:`_PARSED`).

        Every :class:`_Inh` field but ``font`` (shapes draw no text; the
        tests check that a new field is either here or listed as left out).
        ``scale`` is always millimetres in strict mode: redundant, kept so
        the key stays right if icons (scale 1) are ever memoised too.
        """
        return (el.tag, tuple(el.attrs.items()), inh.fill, inh.stroke, inh.stroke_width,
                inh.dash, inh.join, inh.cap, inh.evenodd, inh.opacity, inh.color,
                self.scale, self.ref_w, self.ref_h)

    def _parse_element(self, el: _El, inh: _Inh) -> Node | None:
        """Parse one element by its tag (the work :meth:`_element` may skip)."""
        tag = el.tag
        if self.strict:
            if tag not in _ALLOWED or tag in ("span", "br", "clip"):
                where = "only inside <text>" if tag in ("span", "br") else "only directly inside <g> or <card>"
                if tag in ("span", "br", "clip"):
                    raise self.fail(el, f"<{tag}> is allowed {where}")
                raise self.fail(el, f"unknown element <{tag}>; expected one of g, rect, "
                                    f"circle, ellipse, line, polyline, polygon, path, "
                                    f"text, icon, image, background")
            self.check_attrs(el)
        else:
            if "style" in el.attrs:   # icon files: style="fill:#000;stroke:none"
                extra = {}
                for decl in el.attrs["style"].split(";"):
                    if ":" in decl:
                        k, v = decl.split(":", 1)
                        extra[k.strip()] = v.strip()
                el.attrs = {**el.attrs, **extra}
            if tag not in _SHAPES and tag != "g":
                return None   # titles, metadata, editor data: ignored in icons
        node: Node | None
        if tag == "background":
            b = self.bleed
            node = Shape(rect_ops(-b, -b, self.ref_w + 2 * b, self.ref_h + 2 * b),
                         self.style(self.inherit(el, inh)),
                         (-b, -b, self.ref_w + b, self.ref_h + b))
        elif tag == "text":
            node = self.text(el, inh)
        elif tag == "icon":
            node = self.icon(el, inh)
        elif tag == "image":
            node = self.image(el, inh)
        else:
            sub = self.inherit(el, inh)
            if tag == "g":
                kids, clip = self.children(el, sub)
                m = self.transform(el.attrs["transform"]) if "transform" in el.attrs else None
                if not kids:
                    return None
                return Group(tuple(kids), m, clip)
            node = self.shape(el, sub)
            if node is None:
                return None
        if "transform" in el.attrs:
            return Group((node,), self.transform(el.attrs["transform"]), None)
        return node

    def shape(self, el: _El, inh: _Inh) -> Shape | None:
        """Parse a basic shape into a path."""
        tag, a = el.tag, el.attrs
        L = self.attr_len
        if tag == "rect":
            w, h = L(el, "width", size=True), L(el, "height", vertical=True, size=True)
            if "rx" in a or "ry" in a:
                rx = L(el, "rx", -1.0, size=True)
                ry = L(el, "ry", -1.0, vertical=True, size=True)
                rx = ry if rx < 0 else rx
                ry = rx if ry < 0 else ry
            else:
                rx = ry = 0.0
            ops = rect_ops(L(el, "x", 0.0), L(el, "y", 0.0, True), w, h, rx, ry)
        elif tag == "circle":
            r = L(el, "r", size=True)
            ops = ellipse_ops(L(el, "cx", 0.0), L(el, "cy", 0.0, True), r, r)
        elif tag == "ellipse":
            ops = ellipse_ops(L(el, "cx", 0.0), L(el, "cy", 0.0, True), L(el, "rx", size=True),
                              L(el, "ry", vertical=True, size=True))
        elif tag == "line":
            ops = (("M", L(el, "x1", 0.0), L(el, "y1", 0.0, True)),
                   ("L", L(el, "x2", 0.0), L(el, "y2", 0.0, True)))
        elif tag in ("polyline", "polygon"):
            pts = [v * self.scale for v in self.numbers(a.get("points", ""))]
            if len(pts) < 4 or len(pts) % 2:
                raise PnpError(f"bad points {a.get('points', '')!r}: expected at "
                               f"least two x,y pairs")
            ops = poly_ops(pts, tag == "polygon")
        else:
            if "d" not in a:
                raise PnpError("missing attribute 'd'")
            ops = scale_ops(parse_path(a["d"]), self.scale)
            if not ops:
                return None
        style = self.style(inh)
        if tag in ("line", "polyline"):
            style = Style(None, style.stroke, style.stroke_width, style.dash,
                          style.linejoin, style.linecap,
                          style.opacity, style.evenodd)
        if style.fill is None and style.stroke is None:
            return None
        return _intern(Shape(ops, style, bbox(ops)))

    def box(self, el: _El) -> tuple[float, float, float, float]:
        """Return the x, y, width, height attributes of a box element."""
        return (self.attr_len(el, "x", 0.0), self.attr_len(el, "y", 0.0, True),
                self.attr_len(el, "width", size=True),
                self.attr_len(el, "height", vertical=True, size=True))

    def get_icon(self, name: str) -> Icon:
        """Resolve an icon name (PnpError if unknown)."""
        if self.resolve_icon is None:
            raise PnpError("icons cannot be used here")
        return self.resolve_icon(name)

    def icon(self, el: _El, inh: _Inh) -> IconUse:
        """Parse an <icon> element: an icon file fitted into a box."""
        name = el.attrs.get("name")
        if not name:
            raise PnpError("missing attribute 'name'")
        icon = self.get_icon(name)
        x, y, w, h = self.box(el)
        color = parse_color(el.attrs["color"]) if "color" in el.attrs else inh.color
        if not isinstance(color, tuple):
            color = (0.0, 0.0, 0.0)
        opacity = inh.opacity * (self.fraction(el.attrs["opacity"], "opacity")
                                 if "opacity" in el.attrs else 1.0)
        vx, vy, vw, vh = icon.viewbox
        k = min(w / vw, h / vh)
        m = (k, 0.0, 0.0, k, x + (w - vw * k) / 2.0 - vx * k, y + (h - vh * k) / 2.0 - vy * k)
        use = IconUse(icon, m, color, opacity)
        self.icons_used.setdefault((id(icon), use.color), use)
        return use

    def image(self, el: _El, inh: _Inh) -> Image:
        """Parse an <image>: a PNG/JPEG under the templates folder."""
        href = el.attrs.get("href")
        if not href:
            raise PnpError("missing attribute 'href'")
        path = safe_template_path(self.templates_dir, href)
        x, y, w, h = self.box(el)
        fit = el.attrs.get("fit", "contain")
        if fit not in ("contain", "cover", "stretch"):
            raise PnpError(f"bad fit {fit!r}: expected contain, cover or stretch")
        pw, ph = image_size(path, href)
        clip = None
        if fit == "stretch":
            dx, dy, dw, dh = x, y, w, h
        else:
            k = (min if fit == "contain" else max)(w / pw, h / ph)
            dw, dh = pw * k, ph * k
            dx, dy = x + (w - dw) / 2.0, y + (h - dh) / 2.0
            if fit == "cover":
                clip = (x, y, w, h)
        opacity = inh.opacity * (self.fraction(el.attrs["opacity"], "opacity")
                                 if "opacity" in el.attrs else 1.0)
        return Image(path, dx, dy, dw, dh, clip, opacity)

    # ----------------------------------------------------------- text
    def text(self, el: _El, inh: _Inh) -> Text:
        """Parse and lay out a <text> box."""
        a = el.attrs
        x, y, w, h = self.box(el)
        family = a.get("font", inh.font)
        chain = fonts.family_fonts(family)
        color = parse_color(a["color"]) if "color" in a else inh.color
        if not isinstance(color, tuple):
            color = (0.0, 0.0, 0.0)
        size = parse_length(a.get("size", "9"), default_unit="pt", what="size")
        min_size = parse_length(a["min-size"], default_unit="pt", what="min-size") \
            if "min-size" in a else size
        if "min-size" not in a and size <= 0:
            raise PnpError(f"bad size {a.get('size')!r}: expected a size above 0, e.g. 9pt")
        if size <= 0 or min_size <= 0 or min_size > size:
            raise PnpError(f"bad size/min-size {a.get('size')!r}/{a.get('min-size')!r}: "
                           f"expected 0 < min-size <= size")
        try:
            lh = float(a.get("line-height", "1.2"))
        except ValueError:
            lh = math.nan
        if not 0 < lh <= 10:    # also refuses nan and inf, which float() reads
            raise PnpError(f"bad line-height {a['line-height']!r}: expected a "
                           f"multiple of the font size above 0 and at most 10, e.g. 1.2")
        align = a.get("align", "left")
        if align not in ("left", "center", "right"):
            raise PnpError(f"bad align {align!r}: expected left, center or right")
        valign = a.get("valign", "top")
        if valign not in ("top", "middle", "bottom"):
            raise PnpError(f"bad valign {valign!r}: expected top, middle or bottom")
        max_lines = None
        if "max-lines" in a:
            try:
                max_lines = int(a["max-lines"])
            except ValueError:
                max_lines = 0
            if max_lines < 1:
                raise PnpError(f"bad max-lines {a['max-lines']!r}: expected a whole "
                               "number ≥ 1")
        opacity = inh.opacity * (self.fraction(a["opacity"], "opacity") if "opacity" in a else 1.0)
        track = self.tracking(a.get("letter-spacing"), size)
        pieces: list[tuple] = []
        self.collect(el, chain, color, pieces, track, size)
        pieces = collapse_spaces(pieces)
        at = el.where()
        if not pieces:
            return Text((), (), size, 0, opacity, a.get("id"), at, (x, y, w, h), max_lines)
        try:
            fit = fit_text(tuple(pieces), w, h, size, min_size, lh, align, valign, max_lines)
        except TextTooLong as exc:
            name = f"{a['id']!r}" if "id" in a else (
                f"at x={a.get('x', '0')} y={a.get('y', '0')}")
            raise self.fail(el, f"text box {name} does not fit: {exc.reason} "
                                f"(size {size:g}pt, min-size {min_size:g}pt); shorten the "
                                f"text, enlarge the box or lower min-size") from None
        runs = tuple(TextRun(x + r.x, y + r.y, r.font, r.size, r.color, r.text, r.spacing)
                     for r in fit.runs)
        icons = icon_uses(fit, x, y)
        for use in icons:
            self.icons_used.setdefault((id(use.icon), use.color), use)
        return Text(runs, icons, fit.size, fit.lines, opacity, a.get("id"), at, (x, y, w, h),
                    max_lines)

    def tracking(self, value: str | None, size: float) -> float:
        """Parse ``letter-spacing`` into em: ``0.2em``, a plain number (em), or a length."""
        if value is None:
            return 0.0
        v = value.strip()
        try:
            em = float(v[:-2]) if v.endswith("em") else float(v)
        except ValueError:
            try:
                em = parse_length(v, default_unit="pt", what="letter-spacing") / size
            except PnpError:
                em = math.nan
        if not -1 <= em <= 10:   # nan and inf too: float() reads them, layout cannot
            raise PnpError(f"bad letter-spacing {value!r}: expected e.g. 0.15em or "
                           f"0.5pt (from -1em to 10em)")
        return em

    def collect(self, el: _El, chain: tuple[str, ...], color: RGB, out: list[tuple],
                track: float = 0.0, size: float = 9.0) -> None:
        """Flatten mixed text content into pieces (text, icon, break).

        ``track`` is the letter-spacing in em that text pieces carry; ``size``
        the box's nominal size (for a letter-spacing given as a length).
        """
        for child in el.children:
            if isinstance(child, str):
                pos = 0
                for m in _ICON_TOKEN.finditer(child):
                    if m.start() > pos:
                        out.append(("t", chain, color, child[pos:m.start()], track))
                    out.append(("i", self.get_icon(m.group(1)), color))
                    pos = m.end()
                if pos < len(child):
                    out.append(("t", chain, color, child[pos:], track))
                continue
            try:
                self.check_attrs(child)
                if child.tag == "br":
                    out.append(("b",))
                elif child.tag == "icon":
                    unknown = set(child.attrs) - {"name", "color"}
                    if unknown:
                        raise PnpError(f"inline <icon> takes only name and color, "
                                       f"not {', '.join(sorted(unknown))}")
                    c = parse_color(child.attrs["color"]) if "color" in child.attrs else color
                    out.append(("i", self.get_icon(child.attrs.get("name", "")),
                                c if isinstance(c, tuple) else color))
                elif child.tag == "span":
                    sub_chain = fonts.family_fonts(child.attrs["font"]) \
                        if "font" in child.attrs else chain
                    c = parse_color(child.attrs["color"]) if "color" in child.attrs else color
                    sub_track = self.tracking(child.attrs["letter-spacing"], size) \
                        if "letter-spacing" in child.attrs else track
                    self.collect(child, sub_chain, c if isinstance(c, tuple) else color, out,
                                 sub_track, size)
                else:
                    raise PnpError(f"<{child.tag}> is not allowed inside <text>; "
                                   f"expected span, icon or br")
            except PnpError as exc:
                if getattr(exc, "located", False):
                    raise
                raise self.fail(child, exc.message) from None


#: Card shapes (rect, circle, path, …) by everything their node depends on:
#: the element's tag and attributes (not its template line), the inherited
#: settings and the parser's scale and reference size. The frames, panels
#: and rules of a deck's cards come from the same template lines with the
#: same attributes; each is parsed once (lengths, transform, style, path,
#: bounding box) instead of once per card. Only elements that parsed are
#: kept, so every error is still found and located as before.
#: Bounded by an estimate of bytes (the attribute text and the node's path),
#: not by entries: a card of long distinct paths would otherwise keep hundreds
#: of megabytes (review 2: 2,500 cards x 8 hundred-segment paths).
_PARSED: BoundedMemo[ShapeKey, Node | None] = BoundedMemo(
    4 * 2**20, lambda key, node: _attrs_bytes(key[1]) + node_bytes(node))

#: Shapes seen while parsing, so identical shapes of many cards (frames,
#: panels, rules) are one object: a build's memory then grows with what differs
#: between cards, not with their number (bounded by an estimate of bytes).
_SHAPES_SEEN: BoundedMemo[Shape, Shape] = BoundedMemo(
    4 * 2**20, lambda shape, _same: node_bytes(shape))



def node_bytes(node: Node | None) -> int:
    """A rough estimate of the memory ``node`` holds (its path's operators dominate)."""
    if isinstance(node, Shape):
        return ENTRY_BYTES + ops_bytes(node.ops)
    if isinstance(node, Group):
        return ENTRY_BYTES + sum(node_bytes(child) for child in node.children)
    return ENTRY_BYTES


def _attrs_bytes(attrs: tuple[tuple[str, str], ...]) -> int:
    """A rough estimate of the memory of an element's attribute pairs (its text)."""
    return sum(ENTRY_BYTES + len(name) + len(value) for name, value in attrs)


def _intern(shape: Shape) -> Shape:
    """Return the one shared copy of an identical shape."""
    hit = _SHAPES_SEEN.get(shape)
    if hit is not None:
        return hit
    return _SHAPES_SEEN.put(shape, shape)


def collapse_spaces(pieces: list[tuple]) -> list[tuple]:
    """Collapse whitespace as HTML does: runs become one space, none at line ends."""
    out: list[tuple] = []
    last_space = True     # at the start of a line a space is dropped

    def strip_trailing() -> None:
        """Drop spaces at the end of a line."""
        while out and out[-1][0] == "t" and out[-1][3].endswith(" "):
            t = out[-1][3].rstrip(" ")
            if t:
                out[-1] = out[-1][:3] + (t,) + out[-1][4:]
                break
            out.pop()

    for p in pieces:
        if p[0] == "t":
            text = _WS.sub(" ", p[3])
            if last_space and text.startswith(" "):
                text = text[1:]
            if not text:
                continue
            last_space = text.endswith(" ")
            out.append(p[:3] + (text,) + p[4:])
        elif p[0] == "i":
            out.append(p)
            last_space = False
        else:
            strip_trailing()
            out.append(p)
            last_space = True
    strip_trailing()
    return out


def transform_ops(ops: Ops, m: Matrix) -> Ops:
    """Return ``ops`` with every point mapped through matrix ``m``."""
    a, b, c, d, e, f = m
    out = []
    for op in ops:
        vals = op[1:]
        pts: list[float] = []
        for i in range(0, len(vals), 2):
            x, y = vals[i], vals[i + 1]
            pts.extend((a * x + c * y + e, b * x + d * y + f))
        out.append((op[0], *pts))
    return tuple(out)


def safe_template_path(templates_dir: Path | None, href: str) -> Path:
    """Resolve ``href`` inside ``templates_dir``; refuse absolute paths and escapes."""
    if templates_dir is None:
        raise PnpError("images cannot be used here")
    p = Path(href)
    if p.is_absolute() or href.startswith(("/", "\\")) or ":" in href or \
            ".." in re.split(r"[\\/]", href):
        raise PnpError(f"image path {href!r} must be relative to the templates folder "
                       f"(no absolute paths, no '..')")
    root = templates_dir.resolve()
    full = (root / p).resolve()
    if not full.is_relative_to(root):
        raise PnpError(f"image path {href!r} leaves the templates folder")
    if full.is_dir():
        raise PnpError(f"image {href!r} is a folder in {templates_dir}: expected a .png or "
                       ".jpg file")
    if not full.is_file():
        raise PnpError(f"image {href!r} not found in {templates_dir}")
    if full.suffix.lower() not in (".png", ".jpg", ".jpeg"):
        raise PnpError(f"image {href!r}: expected a .png or .jpg file")
    return full


#: (path, mtime_ns, size) -> pixel size: each picture is checked once while unchanged.
_image_sizes: dict[tuple[Path, int, int], tuple[int, int]] = {}


def image_size(path: Path, shown: str | None = None) -> tuple[int, int]:
    """Return an image's pixel size, after checking the whole picture decodes (cached).

    The pixels are decoded once here, not only the header: ReportLab reads
    the file when the sheet is drawn, where a picture cut short made a
    two-line error naming an internal object (PNG) or was embedded as it
    was, a grey box in the PDF (JPEG). ``shown`` names the image in
    messages (the ``href``).
    """
    note_read(path)      # its pixels are drawn: what a recording keys on (pnp.render.reads)
    name = repr(shown if shown is not None else path.name)
    try:
        st = path.stat()
    except OSError as exc:
        raise PnpError(f"image {name} cannot be read: {exc.strerror or exc}") from None
    key = (path, st.st_mtime_ns, st.st_size)
    size = _image_sizes.get(key)
    if size is None:
        if st.st_size == 0:
            raise PnpError(f"image {name} is an empty file: expected a PNG or JPEG picture")
        try:
            with PILImage.open(path) as im:
                size = im.size
                im.load()
        except PILImage.UnidentifiedImageError:
            raise PnpError(f"image {name} is not a picture (a renamed file?): expected a "
                           "PNG or JPEG file") from None
        except PILImage.DecompressionBombError as exc:
            raise PnpError(f"image {name} is too large to draw ({exc}): expected a picture "
                           "of at most a few thousand pixels a side") from None
        except (OSError, SyntaxError, ValueError) as exc:
            # PIL says "image file is truncated", "broken data stream", ...
            raise PnpError(f"image {name} is damaged ({exc}): expected a complete PNG or "
                           "JPEG file; save or export it again") from None
        _image_sizes[key] = size
    return size


def parse_card(markup: str, what: str, resolve_icon: IconResolver,
               templates_dir: Path, *, source: str = "rendered markup",
               template: str | None = None,
               ) -> tuple[float, float, float, tuple[Node, ...], tuple[IconUse, ...], str | None]:
    """Parse card markup; return (width, height, bleed, nodes, one IconUse per icon, at).

    ``at`` is the template location of the ``<card>`` element (or None).

    ``what`` names the card in messages; ``source`` names the markup
    (``templates/x.xml.j2, rendered markup``) for problems that have no
    template line.
    """
    whole = f"{what} ({source})" if what else source
    root = parse_xml(markup, whole)
    if root.tag != "card":
        raise PnpError(f"{whole}: the markup must have one <card> root element, "
                       f"found <{root.tag}>")
    base = Parser(what or source, MM, 0.0, 0.0, True, resolve_icon, templates_dir,
                  source=source, templates_label=templates_dir.name, template=template)
    try:
        for name in root.attrs:
            if name not in ("width", "height", "bleed"):
                raise PnpError(f"unknown attribute {name!r}; allowed: bleed, height, width")
        if "width" not in root.attrs or "height" not in root.attrs:
            raise PnpError("width and height are required, e.g. "
                           "<card width=\"63mm\" height=\"88mm\">")
        width = parse_length(root.attrs["width"], default_unit="mm", what="card width")
        height = parse_length(root.attrs["height"], default_unit="mm", what="card height")
        bleed = parse_length(root.attrs["bleed"], default_unit="mm", what="bleed") \
            if "bleed" in root.attrs else DEFAULT_BLEED
        for name, value in (("width", width), ("height", height)):
            if value <= 0:
                raise PnpError(f"bad card {name} {root.attrs[name]!r}: expected a length "
                               "above 0")
        # beyond a card's own size a bleed is a typo (500 for 5): art would be
        # drawn far outside every sheet's cutting area
        if not 0 <= bleed <= min(width, height):
            given = root.attrs.get("bleed", "3mm (the default)")
            raise PnpError(f"bad bleed {given!r}: expected a length from 0 to "
                           "the card's smaller side (3mm is usual)")
    except PnpError as exc:
        if getattr(exc, "located", False):
            raise
        raise base.fail(root, exc.message) from None
    base.ref_w, base.ref_h, base.bleed = width, height, bleed
    nodes, clip = base.children(root, _Inh())
    if clip is not None:
        nodes = [Group(tuple(nodes), None, clip)]
    return width, height, bleed, tuple(nodes), tuple(base.icons_used.values()), root.at


#: How to fix an icon file that is not XML.
ICON_XML_HINT = ("expected an SVG file, <svg viewBox=\"…\">…</svg>; "
                 "export it from your drawing program as plain SVG")


def parse_icon_svg(text: str, name: str, path: Path, key: str) -> Icon:
    """Parse an icon SVG file (viewBox + path/rect/circle/ellipse/poly*/line/g)."""
    what = f"icon file {path}"
    if not text.strip():
        raise PnpError(f"{what} is empty: expected an SVG file, <svg viewBox=\"…\">…</svg>")
    # the template hint about {{ }} does not apply: an icon is read as it is saved
    root = parse_xml(text, f"{what} is not valid SVG", hint=ICON_XML_HINT)
    if root.tag.split(":")[-1] != "svg":
        raise PnpError(f"{what}: the root element must be <svg>")
    vb = root.attrs.get("viewBox")
    if vb:
        nums = [float(n) for n in _NUMS.findall(vb)]
        if len(nums) != 4 or nums[2] <= 0 or nums[3] <= 0 or not all(
                within(n) for n in nums):
            raise PnpError(f"{what}: bad viewBox {vb!r}: expected 'minx miny width height', "
                           f"width and height above 0, each at most {MAX_COORD:.0f}")
        viewbox = (nums[0], nums[1], nums[2], nums[3])
    else:
        try:
            viewbox = (0.0, 0.0, float(root.attrs["width"].removesuffix("px")),
                       float(root.attrs["height"].removesuffix("px")))
        except (KeyError, ValueError):
            raise PnpError(f"{what}: needs a viewBox (or plain width and height)") from None
        if not all(0 < n <= MAX_COORD for n in viewbox[2:]):   # nan, inf, 0, negative
            raise PnpError(f"{what}: bad width/height {root.attrs['width']!r}/"
                           f"{root.attrs['height']!r}: expected numbers above 0 and at "
                           f"most {MAX_COORD:.0f} (or a viewBox)")
    # source "": an icon's lines are the file's own, not "rendered markup"
    parser = Parser(what, 1.0, viewbox[2], viewbox[3], False, source="")
    inh = _Inh(stroke_width=1.0, color=CURRENT_COLOR)
    root.attrs = {k: v for k, v in root.attrs.items() if k in _STYLE_ATTRS and k != "transform"}
    try:
        inh = parser.inherit(root, inh)
    except PnpError as exc:
        raise PnpError(f"{what}: {exc.message}") from None
    try:
        nodes, _ = parser.children(root, inh)
    except PnpError as exc:
        # raised again unlocated, so the card's parser puts the card and the
        # template line of its <icon> in front (the file and line stay in it)
        raise PnpError(str(exc)) from None
    uses_current = _uses_current(nodes)
    return Icon(key, name, path, viewbox, tuple(nodes), uses_current)


def _uses_current(nodes: list[Node] | tuple[Node, ...]) -> bool:
    """Return True if any shape paints with currentColor."""
    for n in nodes:
        if isinstance(n, Shape):
            if n.style.fill == CURRENT_COLOR or n.style.stroke == CURRENT_COLOR:
                return True
        elif isinstance(n, Group) and _uses_current(n.children):
            return True
    return False
