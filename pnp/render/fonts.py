"""Font registration and metrics: embedded TrueType fonts only.

Every font pnp draws with is an embedded, subset TTF (print services reject
PDFs with unembedded fonts; see ../shared/REFERENCE.md "PDF checks"). The
markup names font *families*; each maps to a ReportLab font, and every family
falls back per character to the Japanese font for glyphs it lacks.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import reportlab
from reportlab import rl_config
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from pnp.errors import PnpError

#: ReportLab name of the Japanese-capable sans (IPAexGothic).
FONT_JA = "IPAexGothic"
#: ReportLab name of the Latin bold display face (Bitstream Vera Sans Bold).
FONT_DISPLAY = "VeraBold"
#: ReportLab name of the Latin regular face (Bitstream Vera Sans).
FONT_LATIN = "Vera"
#: The font used when nothing else is named; also the canvas's initial font.
DEFAULT_FONT = FONT_JA
#: Default markup family name.
DEFAULT_FAMILY = "sans"

#: Markup family name -> ReportLab font names, tried in order per character.
FAMILIES: dict[str, tuple[str, ...]] = {
    "sans": (FONT_JA,),
    "gothic": (FONT_JA,),
    "display": (FONT_DISPLAY, FONT_JA),
    "latin": (FONT_LATIN, FONT_JA),
}

#: Ascent of the em box used for baselines (IPAexGothic: 0.88 em above baseline).
EM_ASCENT = 0.88

_registered = False
_widths: dict[str, dict[int, float]] = {}     # font -> code point -> width in em
_default_width: dict[str, float] = {}
_cmap: dict[str, dict[int, int]] = {}


def ipaex_path() -> Path:
    """Return the path of ``ipaexg.ttf`` from matplotlib-fontja.

    Found with ``find_spec`` so that matplotlib itself is never imported (slow).
    """
    spec = importlib.util.find_spec("matplotlib_fontja")
    if spec is None or not spec.submodule_search_locations:
        raise PnpError("the Japanese font is missing: install the package "
                       "matplotlib-fontja (it ships IPAexGothic)")
    path = Path(list(spec.submodule_search_locations)[0]) / "fonts" / "ipaexg.ttf"
    if not path.is_file():
        raise PnpError(f"the Japanese font is missing: expected {path}")
    return path


def _vera_path(name: str) -> Path:
    """Return the path of a Vera TTF bundled with ReportLab."""
    return Path(reportlab.__file__).parent / "fonts" / name


def register_fonts() -> None:
    """Register the TTF fonts with ReportLab once (later calls do nothing)."""
    global _registered
    if _registered:
        return
    for name, path in ((FONT_JA, ipaex_path()),
                       (FONT_DISPLAY, _vera_path("VeraBd.ttf")),
                       (FONT_LATIN, _vera_path("Vera.ttf"))):
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(path)))
        face = pdfmetrics.getFont(name).face
        _widths[name] = {cp: w / 1000.0 for cp, w in face.charWidths.items()}
        _default_width[name] = face.defaultWidth / 1000.0
        _cmap[name] = face.charToGlyph
    _registered = True


def canvas_kwargs() -> dict[str, object]:
    """Return keyword arguments for ``Canvas(...)`` so its initial font is embedded.

    Without ``initialFontName`` ReportLab refers to unembedded Helvetica in
    every page preamble, which fails the ``pdffonts`` check.
    """
    register_fonts()
    # Pure-Python ASCII85 encoding of every compressed stream cost ~1 ms per
    # card form; binary Flate streams are smaller and every PDF reader accepts
    # them. This is a process-wide ReportLab setting, fine for pnp's own PDFs.
    rl_config.useA85 = 0
    return {"initialFontName": DEFAULT_FONT, "initialFontSize": 10, "initialLeading": 12}


def has_glyph(font: str, cp: int) -> bool:
    """Return True if ReportLab font ``font`` has a glyph for code point ``cp``."""
    return cp in _cmap[font]


def char_width(font: str, cp: int) -> float:
    """Return the advance width of ``cp`` in ``font``, in em."""
    w = _widths[font].get(cp)
    return _default_width[font] if w is None else w


def family_fonts(family: str) -> tuple[str, ...]:
    """Return the fallback chain for a markup family name or raise PnpError."""
    fonts = FAMILIES.get(family)
    if fonts is None:
        raise PnpError(f"unknown font {family!r}: expected one of "
                       f"{', '.join(sorted(FAMILIES))}")
    return fonts
