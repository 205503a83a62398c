"""IPAexGothic as a web font: the subset one HTML page needs, inlined as a ``data:`` URL.

A page that names only system fonts shows boxes for Japanese on a machine
without a Japanese font. The HTML rulebook and the simulation chart pages
therefore carry the same IPAexGothic the PDFs embed, cut down with fontTools
to the characters the page shows and packed as WOFF (zlib; WOFF2 would need
brotli, which pnp does not depend on), in an ``@font-face`` rule whose
``unicode-range`` lists exactly those characters.

One subsetter for both: it sits at the bottom of the package, beside
:mod:`pnp.intervals`, and imports nothing of pnp, because the simulator
(which never imports the renderer) and the rulebook (which does) both use
it. The caller passes the font file: the rulebook
:func:`pnp.render.fonts.ipaex_path`, the chart pages their own look-up.

Which characters, per edition of the rulebook (:func:`embedded_codepoints`;
a chart page chooses its own, :func:`pnp.sim.html.font_face`):

- a Japanese page draws every character in IPAexGothic, as its PDF does, so
  the subset holds all of its text plus printable ASCII (the browser writes
  list numbers "1." itself, so they are not in the text);
- a Latin page keeps the reader's fonts for Latin text and punctuation and
  embeds only what they may lack: symbols, card suits, kana and kanji (from
  U+2190 up, the minus sign excepted). IPAexGothic draws ’ “ ” … a full em
  wide, which would tear English words apart. A page with none of those
  embeds nothing.

The bytes are the same on every run and in any folder: the subset keeps the
font's own timestamps (``recalcTimestamp=False``), its tables are written
in fontTools' fixed order, and nothing about the file's location goes in.
"""

from __future__ import annotations

import base64
import functools
import io
from html.parser import HTMLParser
from pathlib import Path
from typing import Iterable, Sequence

#: The embedded face's CSS family name (the simulation pages use the same one).
FAMILY = "pnp-ipaex"
#: Printable ASCII, always in a Japanese page's subset.
ASCII = range(0x20, 0x7F)
#: On a Latin page, characters from here up are embedded (arrows, symbols, suits, CJK).
FIRST_SYMBOL = 0x2190
#: ...except the minus sign, which runs with digits in Latin text.
MINUS = 0x2212
#: Name records kept in the subset: family, style and version names, and the
#: copyright and licence description/URL (the IPA Font License travels with the font).
NAME_IDS = (0, 1, 2, 3, 4, 5, 6, 13, 14)


class _TextCollector(HTMLParser):
    """Collect the text a browser draws for a page: the body's text and image alt text."""

    def __init__(self) -> None:
        """Start outside any hidden element."""
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._hidden = 0   # depth inside <head>, <style>, <script> or <title>

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Note hidden elements; an image's alt text is drawn when the image is not."""
        if tag in ("head", "style", "script", "title"):
            self._hidden += 1
        elif tag == "img":
            self.parts.extend(value for name, value in attrs if name == "alt" and value)

    def handle_endtag(self, tag: str) -> None:
        """Leave a hidden element."""
        if tag in ("head", "style", "script", "title") and self._hidden:
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        """Keep text that is drawn on the page."""
        if not self._hidden:
            self.parts.append(data)


def shown_text(markup: str) -> str:
    """The characters a browser draws for ``markup`` (entities decoded, head left out)."""
    collector = _TextCollector()
    collector.feed(markup)
    collector.close()
    return "".join(collector.parts)


def embedded_codepoints(text: str, *, japanese: bool, font: Path) -> list[int]:
    """The code points to embed for a page showing ``text``, sorted (see the module doc).

    Characters ``font`` (IPAexGothic) has no glyph for are left out: the
    browser takes them from the reader's fonts, as before.
    """
    if japanese:
        wanted = {ord(ch) for ch in text if ord(ch) >= 0x20} | set(ASCII)
    else:
        wanted = {ord(ch) for ch in text if ord(ch) >= FIRST_SYMBOL and ord(ch) != MINUS}
    if not wanted:
        return []
    return sorted(wanted & cmap(font))


@functools.lru_cache(maxsize=4)
def cmap(font: Path) -> frozenset[int]:
    """Every code point ``font`` maps to a glyph (read once per font and process)."""
    from fontTools.ttLib import TTFont

    with TTFont(str(font), lazy=True) as face:
        return frozenset(face.getBestCmap())


def woff_subset(codepoints: Iterable[int], *, font: Path) -> bytes:
    """``font`` (IPAexGothic) cut to ``codepoints``, as WOFF bytes (the same for the same set).

    Hinting, kerning and the layout features of those glyphs stay, so the
    page renders as the font was made; the rest of the 6 MB font goes.
    """
    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options()
    options.name_IDs = list(NAME_IDS)
    options.notdef_outline = True      # a missing glyph shows a box, not nothing
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(set(codepoints)))
    # recalcTimestamp=False: save() would otherwise stamp head.modified with the
    # clock (the Subsetter never loads the font, so its recalc_timestamp option
    # has no say here: this flag alone keeps the bytes the same on every run)
    with TTFont(str(font), recalcTimestamp=False) as face:
        subsetter.subset(face)
        face.flavor = "woff"
        out = io.BytesIO()
        face.save(out)
    return out.getvalue()


def unicode_range(codepoints: Sequence[int]) -> str:
    """``codepoints`` (sorted) as a CSS ``unicode-range``, runs joined: ``U+20-7E, U+3042``."""
    runs: list[list[int]] = []
    for cp in codepoints:
        if runs and cp == runs[-1][1] + 1:
            runs[-1][1] = cp
        else:
            runs.append([cp, cp])
    return ", ".join(f"U+{lo:X}" if lo == hi else f"U+{lo:X}-{hi:X}" for lo, hi in runs)


def font_face(codepoints: Sequence[int], *, font: Path) -> str:
    """An ``@font-face`` rule for :data:`FAMILY`: ``font`` cut to ``codepoints`` ("" for none)."""
    if not codepoints:
        return ""
    data = base64.b64encode(woff_subset(codepoints, font=font)).decode("ascii")
    return (f'@font-face {{ font-family: "{FAMILY}"; '
            f'src: url(data:font/woff;base64,{data}) format("woff"); '
            f"unicode-range: {unicode_range(codepoints)}; }}\n")
