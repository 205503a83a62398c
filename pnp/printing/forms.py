"""Placing card layouts as PDF forms under names that never depend on folders.

:class:`pnp.render.draw.FormCache` names a card's form after the layout's
key, and that key hashes the icon folders' absolute paths, so the same
project in another folder gave different bytes. Here forms are numbered in
first-use order per canvas (``pnpL_1``, ``pnpL_2`` ...), which depends only
on the inputs (issue 9, item 6).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from reportlab.pdfgen.canvas import Canvas

from pnp.render.draw import FormCache
from pnp.render.layout import Layout


class StableFormCache(FormCache):
    """A FormCache whose card forms are named by first use, not by a path-dependent key.

    Use one per canvas: two of these on one canvas would reuse each other's
    numbers.
    """

    def __init__(self, canvas: Canvas) -> None:
        """Start numbering forms at 1 for ``canvas``."""
        super().__init__(canvas)
        self._numbers: dict[str, str] = {}

    def form_name(self, layout: Layout) -> str:
        """Return the stable form name of ``layout``, defining the form on first use."""
        name = self._numbers.get(layout.key)
        if name is None:
            stand_in = replace(layout, key=str(len(self._numbers) + 1))
            name = self._numbers[layout.key] = super().form_name(stand_in)
        return name


def placer() -> Callable[[Canvas, Any, float, float], None]:
    """Return a ``place(canvas, layout, x, y)`` callback with one stable cache per canvas."""
    caches: dict[int, StableFormCache] = {}

    def place(canvas: Canvas, layout: Any, x: float, y: float) -> None:
        """Draw ``layout`` with its trim's bottom-left corner at (x, y)."""
        cache = caches.get(id(canvas))
        if cache is None:
            cache = caches[id(canvas)] = StableFormCache(canvas)
        cache.place(layout, x, y)

    return place
