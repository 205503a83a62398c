"""Immutable drawing nodes produced by the markup parser and consumed by draw.py.

All coordinates are PDF points in the card's coordinate system: origin at the
top-left corner of the trim box, y pointing down (as in the markup).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Union

from pnp.render.colors import RGB, Gradient
from pnp.render.pathdata import Matrix, Ops

#: A fill: colour, gradient, ``"currentColor"`` (icons only) or None.
Paint = Union[RGB, Gradient, str, None]


@dataclass(frozen=True, slots=True)
class Style:
    """Fill and stroke settings of one shape (already inherited and resolved)."""

    fill: Paint = (0.0, 0.0, 0.0)
    stroke: RGB | str | None = None
    stroke_width: float = 1.0
    dash: tuple[float, ...] = ()
    linejoin: int = 0      # 0 miter, 1 round, 2 bevel (PDF codes)
    linecap: int = 0       # 0 butt, 1 round, 2 square (PDF codes)
    opacity: float = 1.0
    evenodd: bool = False


@dataclass(frozen=True, slots=True)
class Shape:
    """A filled and/or stroked path."""

    ops: Ops
    style: Style
    bbox: tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Group:
    """Children drawn under an optional transform and clip path."""

    children: tuple["Node", ...]
    transform: Matrix | None = None
    clip: Ops | None = None


@dataclass(frozen=True, slots=True)
class TextRun:
    """One run of text in a single font and colour, drawn from its baseline."""

    x: float
    y: float
    font: str
    size: float
    color: RGB
    text: str
    spacing: float = 0.0   # letter-spacing in points (PDF ``Tc``)


@dataclass(frozen=True, eq=False)
class Icon:
    """A parsed icon file: shapes in viewBox units (compared by identity)."""

    key: str
    name: str
    path: Path
    viewbox: tuple[float, float, float, float]
    children: tuple["Node", ...]
    uses_current_color: bool


@dataclass(frozen=True, slots=True)
class IconUse:
    """An icon drawn with ``matrix`` (viewBox -> card), ``currentColor`` = color."""

    icon: Icon
    matrix: Matrix
    color: RGB
    opacity: float = 1.0


@dataclass(frozen=True, slots=True)
class Text:
    """A laid-out text box: its runs, inline icons and the size chosen."""

    runs: tuple[TextRun, ...]
    icons: tuple[IconUse, ...]
    size: float
    lines: int
    opacity: float = 1.0
    id: str | None = None
    #: Template location "name:line" that wrote the box (for the linter).
    at: str | None = None
    #: The box (x, y, width, height) in points, and its max-lines.
    box: tuple[float, float, float, float] | None = None
    max_lines: int | None = None


@dataclass(frozen=True, slots=True)
class Image:
    """A PNG/JPEG drawn into ``(x, y, w, h)``, optionally clipped to ``clip``."""

    path: Path
    x: float
    y: float
    w: float
    h: float
    clip: tuple[float, float, float, float] | None = None
    opacity: float = 1.0


#: Anything that can appear in a layout tree.
Node = Union[Shape, Group, Text, IconUse, Image]


def draws_image(nodes: Iterable[Node]) -> bool:
    """True if a raster image is among ``nodes`` or inside their groups.

    The caches key a card side by its markup, which names an image file but
    does not cover its pixels, so a side that draws one is never kept.
    """
    return any(isinstance(n, Image) or (isinstance(n, Group) and draws_image(n.children))
               for n in nodes)


def _pickled_by_fields(cls: type) -> None:
    """Pickle instances of the slotted dataclass ``cls`` as a call of ``cls`` with its fields.

    The build's layout cache (:class:`pnp.render.layout.LayoutStore`) pickles
    whole layouts. A slotted dataclass's own ``__setstate__`` looks up its
    fields and sets each in a Python loop, which made loading a cached
    layout about a third slower than calling the constructor.
    """
    names = cls.__slots__  # type: ignore[attr-defined]

    def __reduce__(self: object) -> tuple[type, tuple[object, ...]]:
        return cls, tuple([getattr(self, n) for n in names])

    cls.__reduce__ = __reduce__  # type: ignore[assignment, method-assign]


for _cls in (Style, Shape, Group, TextRun, IconUse, Text, Image, Gradient):
    _pickled_by_fields(_cls)
del _cls
