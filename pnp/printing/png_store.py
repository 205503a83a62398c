"""Card images kept across builds: a service or Tabletop Simulator PNG whose inputs did not change is copied, not drawn.

The print-service presets (``--preset tgc``, ``tts`` …) rasterise every
card side with pdfium at the service's resolution and compress it as PNG:
~30 ms and ~10 ms a card, 8 s for the five shipped games' TGC images,
though a rebuild rarely changes more than a few cards. This store keeps
each written PNG file's bytes under a key that covers everything they
depend on:

- a **salt** computed once per build: pnp's whole code stamp (handed in by
  the builder: it covers the placing, the underlay and the grid code, and
  the installed ReportLab, pypdfium2 and Pillow), the versions of pdfium,
  Pillow and zlib (which draw and compress the pixels), the Python, the
  fonts (``font_tag``) and the canvas options;
- per image, what the caller names: the kind of file, each card side on it
  by its markup cache key (:mod:`pnp.builder.markup_cache`: its context,
  template, the whole templates folder, the fonts), and the geometry (pixel
  size, trim, dpi, grid).

A card side without such a key (no markup cache, ``PNP_BUILD_CACHE=0``) or
that draws a raster image (whose pixels the markup key does not cover) has
``None`` as its key, and no image showing it is kept. Entries carry a
digest (a damaged one is a miss and is rewritten) and the folder is
bounded (:mod:`pnp.render.diskcache`). A hit writes the very bytes a miss
would have written.
"""

from __future__ import annotations

import sys
import zlib
from pathlib import Path
from typing import Any, Sequence

from pnp.fileio import write_bytes_atomic
from pnp.render.diskcache import DiskCache, digest, open_cache

#: Most bytes the image cache keeps on disk (the shipped games' TGC, DriveThru
#: and TTS images are ~46 MB in all).
PNG_DISK_LIMIT = 256 * 2**20
#: Bump when the key's parts or the entry's layout change.
PNG_FORMAT = "png-1"
#: The first bytes of every PNG file (an entry without them is not used).
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_salt(code_stamp: str, canvas_kwargs: dict[str, Any]) -> str:
    """What every image of this process depends on besides its card sides and geometry."""
    import PIL
    from pypdfium2 import version as pdfium_version

    from pnp.render.fonts import FONT_DISPLAY, FONT_JA, FONT_LATIN, font_tag

    return "|".join([PNG_FORMAT, code_stamp, str(pdfium_version.PDFIUM_INFO),
                     str(pdfium_version.PYPDFIUM_INFO), PIL.__version__,
                     zlib.ZLIB_RUNTIME_VERSION, sys.version,
                     repr(sorted(canvas_kwargs.items())),
                     *(font_tag(name) for name in (FONT_JA, FONT_DISPLAY, FONT_LATIN))])


class PngStore:
    """PNG files kept on disk, keyed by the card sides they show and their geometry."""

    def __init__(self, cache: DiskCache, salt: str) -> None:
        """Keep images in ``cache``; ``salt`` is :func:`png_salt`'s."""
        self.cache = cache
        self.salt = salt

    def key(self, kind: str, sides: Sequence[str | None], *geometry: object) -> str | None:
        """The key of one image: its kind, the card sides on it, its geometry; None if unpinned."""
        if not sides or any(side is None for side in sides):
            return None
        return digest(self.salt, kind, repr(list(sides)), repr(geometry))

    def write(self, key: str | None, path: Path) -> bool:
        """Write the kept image under ``key`` to ``path``; False when there is none."""
        if key is None:
            return False
        data = self.cache.get(key)
        if data is None or not data.startswith(PNG_SIGNATURE):
            return False
        write_bytes_atomic(path, data)
        return True

    def keep(self, key: str | None, path: Path) -> None:
        """Keep the image just written to ``path`` under ``key`` (None: not kept)."""
        if key is None:
            return
        try:
            self.cache.put(key, path.read_bytes())
        except OSError:
            pass             # only speed is lost


def open_png_store(code_stamp: str, canvas_kwargs: dict[str, Any]) -> PngStore | None:
    """The build's image cache, or None (no cache folder, or ``PNP_BUILD_CACHE=0``)."""
    cache = open_cache("images", PNG_DISK_LIMIT)
    return PngStore(cache, png_salt(code_stamp, canvas_kwargs)) if cache is not None else None
