"""Template source lines on rendered elements, so messages point at the template.

A card template is Jinja that writes markup; a problem found in the markup
(a box that overflows, a colour too faint, an unknown icon) is only useful
if it names the template line that wrote the element. This Jinja extension
rewrites each template's *source* before it is compiled: every element start
tag in the template's plain text gets an attribute ``_at="NAME:LINE"``::

    <text id="rules" x="6" …>      (templates/fortuna/reel_face.xml.j2, line 14)
    <text _at="fortuna/reel_face.xml.j2:14" id="rules" x="6" …>

Elements written by macros carry the macro file's line. Tags inside Jinja
expressions, statements and comments (e.g. a ``'<span …>'`` string built in
an expression) are left alone; such elements report the nearest annotated
element around them. The markup parser reads ``_at`` and drops it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol, Sequence

from jinja2.ext import Extension

#: Attribute name carrying "template name:line" on rendered elements.
ATTR = "_at"

_TAG = re.compile(r"<([A-Za-z][\w.-]*)(?=[\s/>])")
_OPEN = re.compile(r"\{[{%#]")
_CLOSE = {"{{": "}}", "{%": "%}", "{#": "#}"}


def annotate(source: str, name: str) -> str:
    """Return ``source`` with ``_at="name:line"`` added to every plain-text start tag."""
    out: list[str] = []
    pos = 0
    line = 1
    n = len(source)
    quoted = name.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
    while pos < n:
        m = _OPEN.search(source, pos)
        end = m.start() if m else n
        chunk = source[pos:end]
        # plain template text: annotate tags, counting lines as we go
        last = 0
        for tag in _TAG.finditer(chunk):
            out.append(chunk[last:tag.end()])
            line_here = line + chunk.count("\n", 0, tag.start())
            out.append(f' {ATTR}="{quoted}:{line_here}"')
            last = tag.end()
        out.append(chunk[last:])
        line += chunk.count("\n")
        if m is None:
            break
        # a Jinja construct: copied unchanged up to its closing delimiter
        close = _CLOSE[m.group(0)]
        stop = source.find(close, m.end())
        stop = n if stop < 0 else stop + len(close)
        block = source[m.start():stop]
        out.append(block)
        line += block.count("\n")
        pos = stop
    return "".join(out)


_RAW = re.compile(r"\{%[-+]?\s*raw\s*[-+]?%\}")
_ENDRAW = re.compile(r"\{%[-+]?\s*endraw\s*[-+]?%\}")


def unclosed_opener(source: str, error_line: int) -> tuple[str, int] | None:
    """The ``{%``/``{{``/``{#`` left open that a syntax error on ``error_line`` comes from.

    Jinja notices a tag missing its ``%}`` where the next token does not
    fit, a line or more later; the line to fix is where it opened. Returns
    (opener, its line) when the last Jinja construct opened before
    ``error_line`` has no closing delimiter before the next opening one (or
    none at all); None otherwise. (A ``%}`` inside a string of the tag would
    fool it; no template writes one.)
    """
    pos, line, found = 0, 1, None
    while True:
        m = _OPEN.search(source, pos)
        if m is None:
            return found
        line += source.count("\n", pos, m.start())
        if line >= error_line:
            return found
        raw = _RAW.match(source, m.start())
        if raw is not None:         # a raw block's text may hold anything: skip it
            end = _ENDRAW.search(source, raw.end())
            stop = end.end() if end is not None else len(source)
            found = None
        else:
            close = source.find(_CLOSE[m.group(0)], m.end())
            after = _OPEN.search(source, m.end())
            if close < 0 or (after is not None and after.start() < close):
                found = (m.group(0), line)
                stop = after.start() if after is not None else len(source)
            else:
                found = None
                stop = close + 2
        line += source.count("\n", m.start(), stop)
        pos = stop


class SourceLines(Extension):
    """Jinja extension: annotate element start tags with their template line."""

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        """Annotate ``source`` before Jinja compiles it (cached with the template)."""
        if name is None:
            return source
        return annotate(source, name)


def split_at(value: str) -> tuple[str, int | None]:
    """Split an ``_at`` value into (template name, line)."""
    name, _, line = value.rpartition(":")
    try:
        return name, int(line)
    except ValueError:
        return value, None


# ---------------------------------------------------------------------------
# the layout-only lint check: text below the minimum size

#: Smallest body text (pt): any box that may wrap to more than one line.
MIN_BODY_PT = 6.5
#: Smallest one-line label (pt): boxes with ``max-lines="1"``.
MIN_LABEL_PT = 6.0


@dataclass(frozen=True)
class SmallText:
    """A text box set below the minimum size (the linter's ``text-size`` check)."""

    #: ``_at`` of the element ("fortuna/reel_face.xml.j2:42"), its id, the
    #: size it was set at (after transforms) and the floor it misses.
    at: str | None
    id: str | None
    size: float
    floor: float
    label: bool


class _LaidOut(Protocol):
    """What :func:`small_texts` reads of a :class:`pnp.render.layout.Layout`.

    (A protocol, not the class: the layout module imports this one.)
    """

    @property
    def nodes(self) -> Sequence[Any]:
        """The card's top-level nodes."""


def small_texts(layout: _LaidOut) -> list[SmallText]:
    """Every text box of ``layout`` set below :data:`MIN_BODY_PT` (labels: :data:`MIN_LABEL_PT`).

    The one lint check that needs nothing but the layout (contrast and bleed
    rasterise the card: ``pnp check``), so ``watch``, ``preview`` and
    ``build`` run it on every side they lay out, for a few microseconds; it
    lives here, beside the ``_at`` locations it reports, because all three
    may import this light module (the linter may not be imported by them).
    """
    from pnp.render.nodes import Group, Text

    found: list[SmallText] = []
    stack: list[tuple[object, float]] = [(n, 1.0) for n in layout.nodes]
    while stack:
        node, scale = stack.pop()
        if isinstance(node, Group):
            m = node.transform
            # the size after transforms: the square root of the matrix's area scale
            k = scale * (abs(m[0] * m[3] - m[1] * m[2]) ** 0.5 if m else 1.0)
            stack.extend((child, k) for child in node.children)
        elif isinstance(node, Text) and node.runs:
            label = node.max_lines == 1
            floor = MIN_LABEL_PT if label else MIN_BODY_PT
            size = node.size * scale
            if size < floor - 1e-6:
                found.append(SmallText(node.at, node.id, size, floor, label))
    return found
