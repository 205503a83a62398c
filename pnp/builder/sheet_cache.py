"""Whole sheet files kept across builds: a sheet whose inputs did not change is not drawn.

A warm ``pnp build`` finds every card side in the markup and layout caches
(:mod:`pnp.builder.markup_cache`), but drawing every page and saving every
PDF was still most of its time. This cache keeps the bytes of each home
sheet file (``<deck>-<paper>.pdf``) under a key that covers everything
those bytes depend on:

- a **salt** computed once per build: pnp's whole code stamp (printing and
  build code included, not only the render code), ReportLab's version, the
  zlib that compresses the streams, the Python, the fonts (``font_tag``) and
  the canvas options;
- the **sheet**: the print profile (every field), the file name, the PDF
  title and the label under the grid, the label font, the back offset and
  the whole sheet plan (imposition, page sizes, slots, marks, bleed);
- every **card side** on the sheet, in order, by its markup cache key
  (which covers its context, its template, the whole templates folder,
  pnp's render code and the fonts), with the card's quantity.

Sheets whose card sides are not markup-cached (a templates folder using
``random``/``lipsum``, ``PNP_BUILD_CACHE=0``) or that draw a raster image
(whose pixels the markup key does not cover) are never kept. An entry
also keeps the progress-bar steps the drawing made, so a hit advances the
bar exactly as drawing would. Entries carry a digest (damaged ones are
misses) and the folder is bounded (:mod:`pnp.render.diskcache`).
"""

from __future__ import annotations

import json
import os
import sys
import zlib
from pathlib import Path
from typing import Any, Sequence

from pnp.render.diskcache import DiskCache, digest, open_cache

#: Most bytes the sheet cache keeps on disk (every default sheet file is ~2 MB in all).
SHEET_DISK_LIMIT = 128 * 2**20
#: Bump when the key's parts or the entry's layout change.
SHEET_FORMAT = "sheet-1"


def sheet_salt(canvas_kwargs: dict[str, Any]) -> str:
    """What every sheet file of this process depends on besides its plan and cards."""
    import reportlab

    from pnp.builder.serve import code_stamp
    from pnp.render.fonts import FONT_DISPLAY, FONT_JA, FONT_LATIN, font_tag

    return "|".join([SHEET_FORMAT, code_stamp(), reportlab.Version, zlib.ZLIB_RUNTIME_VERSION,
                     sys.version, repr(sorted(canvas_kwargs.items())),
                     *(font_tag(name) for name in (FONT_JA, FONT_DISPLAY, FONT_LATIN))])


class SheetStore:
    """Sheet PDFs kept on disk, with the progress steps their drawing made."""

    def __init__(self, cache: DiskCache, salt: str) -> None:
        """Keep sheets in ``cache``; ``salt`` is :func:`sheet_salt`'s."""
        self.cache = cache
        self.salt = salt

    def key(self, sheet: Sequence[str | bytes],
            sides: Sequence[tuple[int, str, str | None]]) -> str:
        """The key of one sheet file: its description and (qty, face key, back key) per card."""
        return digest(self.salt, *sheet, repr(list(sides)))

    def get(self, key: str, total: int) -> tuple[list[int], bytes] | None:
        """The progress steps and PDF bytes under ``key``, or None.

        ``total`` is the number of physical cards the sheet's drawing renders:
        an entry whose steps do not add up to it is not used.
        """
        data = self.cache.get(key)
        if data is None:
            return None
        head, sep, pdf = data.partition(b"\n")
        try:
            steps = json.loads(head)
        except ValueError:
            return None
        if (not sep or not isinstance(steps, list)
                or not all(type(s) is int and s > 0 for s in steps)
                or sum(steps) != total or not pdf.startswith(b"%PDF-")):
            return None
        return steps, pdf

    def put(self, key: str, steps: Sequence[int], path: Path) -> None:
        """Keep the file at ``path`` (just written) with its drawing's progress ``steps``.

        The file is read straight into the entry's buffer after its header:
        reading it and then joining the two made a second copy of the whole
        sheet file, the build's peak memory for large decks (issue 10: +30 MB
        of 115 MB for 2,500 cards with eight distinct paths each).
        """
        head = json.dumps(list(steps)).encode("ascii") + b"\n"
        try:
            with open(path, "rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                entry = bytearray(len(head) + size)
                entry[:len(head)] = head
                if handle.readinto(memoryview(entry)[len(head):]) != size:
                    return  # the file changed under us: keep nothing rather than a torn copy
        except OSError:
            return
        self.cache.put(key, entry)


def open_sheet_store(canvas_kwargs: dict[str, Any]) -> SheetStore | None:
    """The build's sheet cache, or None (no cache folder, or ``PNP_BUILD_CACHE=0``)."""
    cache = open_cache("sheets", SHEET_DISK_LIMIT)
    return SheetStore(cache, sheet_salt(canvas_kwargs)) if cache is not None else None
