"""Font registration and metrics: embedded TrueType fonts only.

Every font pnp draws with is an embedded, subset TTF (print services reject
PDFs with unembedded fonts; see ../shared/REFERENCE.md "PDF checks"). The
markup names font *families*; each maps to a ReportLab font, and every family
falls back per character to the Japanese font for glyphs it lacks.
"""

from __future__ import annotations

import gc
import hashlib
import importlib.util
from fnmatch import fnmatch
import pickle
import zlib
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

import reportlab
from reportlab import rl_config
from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import TTEncoding, TTFont, TTFontFace

from pnp.errors import PnpError
from pnp.fileio import write_bytes_atomic
from pnp.render.memo import BoundedMemo

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

_registered: set[str] = set()
_default_width: dict[str, float] = {}
_cmap: dict[str, dict[int, int]] = {}
_advances: dict[str, dict[int, float]] = {}   # font -> code point -> width in 1/1000 em
#: Bump when the cached face format changes (old cache files are then ignored).
_FACE_CACHE_VERSION = 2
#: Face attributes kept out of the main cache file: only ReportLab's text shaping
#: reads ``glyphToChar`` (a quarter of the cached tables), so it loads on first use.
_COLD = ("glyphToChar",)


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


def _font_path(name: str) -> Path:
    """The TTF file of one of pnp's fonts."""
    if name == FONT_JA:
        return ipaex_path()
    return _vera_path({FONT_DISPLAY: "VeraBd.ttf", FONT_LATIN: "Vera.ttf"}[name])


class _CachedFace(TTFontFace):
    """A TrueType face rebuilt from the cache, whose heavy parts load on first use.

    The font file itself (``_ttf_data``, 6 MB for IPAexGothic) is only read
    when ReportLab subsets the font into a PDF, and ``glyphToChar`` only when
    its text shaping asks for it; measuring and laying out text needs
    neither. Everything else is exactly what ``TTFontFace(path)`` computes.
    """

    _font_file: str
    _cold_file: str | None
    #: :func:`_face_tag` of the font file: the subset cache's key (None: no caching).
    _tag: str | None

    def __getattr__(self, name: str) -> object:
        """Load ``_ttf_data`` or a cold table the first time it is read."""
        if name == "_ttf_data":
            value: object = Path(self._font_file).read_bytes()
        elif name in _COLD:
            value = self._load_cold(name)
        else:
            raise AttributeError(name)
        setattr(self, name, value)
        return value

    def _load_cold(self, name: str) -> object:
        """One cold table from its cache file, or from the font when that is unreadable."""
        if self._cold_file is not None:
            try:
                with open(self._cold_file, "rb") as handle:
                    cold = pickle.load(handle)
                if cold.get("source") == self._font_file:
                    return cold[name]
            except Exception:  # a removed or damaged cache file: parse the font instead
                pass
        return getattr(TTFontFace(self._font_file), name)

    def get_table(self, tag: str) -> bytes:
        """The bytes of table ``tag``; the glyph table is sliced out of the file once.

        ReportLab's ``makeSubset`` asks for the whole ``glyf`` table on every
        subset: for IPAexGothic a fresh 5.6 MB copy each time, a few per PDF
        file. The bytes never change, so one copy serves every subset.
        """
        if tag != "glyf":
            return super().get_table(tag)
        glyf = self.__dict__.get("_glyf")
        if glyf is None:
            glyf = self._glyf = super().get_table(tag)
        return glyf

    def makeSubset(self, subset: list[int]) -> bytes:  # noqa: N802 (ReportLab's name)
        """ReportLab's subset font for ``subset``, from the subset cache when it has it.

        A build subsets each font once per PDF file and glyph set (IPAexGothic:
        a few per file), which meant reading the 6 MB font and compressing
        the subset every time; the cache keeps the compressed subset per font
        file and glyph list (see :mod:`pnp.render.diskcache`); what it does
        not have, this process makes once (:data:`_made_subsets`): files
        with the same characters in the same order (most often ASCII alone)
        share a subset even with the subset cache off. The bytes are those
        ReportLab makes: only made once.
        """
        store = _subset_cache() if self._tag is not None else None
        key = _subset_key(self._tag or "", subset)
        packed = store.get(key) if store is not None else None
        data: bytes | None = None
        if packed is not None:
            try:
                data = zlib.decompress(packed)
            except zlib.error:  # an intact file that is not ours: make it anew
                data = None
        if data is None or packed is None:
            made = (self._tag, tuple(subset)) if self._tag is not None else None
            hit = _made_subsets.get(made) if made is not None else None
            if hit is not None:
                # a glyph set this process subset before: half of a build's
                # subsets are repeats (most files embed the same ASCII subset
                # of the Latin faces, 21 of VeraBd's 28); without a subset
                # cache (PNP_BUILD_CACHE=0) only this memory has them
                data, packed = hit
            else:
                data = super().makeSubset(subset)
                packed = zlib.compress(data)  # what ReportLab's Flate filter would write
                if made is not None:
                    _made_subsets.put(made, (data, packed))
            if store is not None:
                store.put(key, packed)   # a missing or damaged entry is written anew
        self._packed = (data, packed)
        return data

    def addSubsetObjects(self, doc: Any, fontname: str, subset: list[int]) -> Any:  # noqa: N802
        """ReportLab's font objects for a subset, with the font file already compressed.

        The font program is the stream ReportLab compresses at save; it gets
        the compressed bytes :meth:`makeSubset` had (the same bytes
        ``zlib.compress`` makes), so a cached subset is not compressed again.
        """
        ref = super().addSubsetObjects(doc, fontname, subset)
        packed = self.__dict__.pop("_packed", None)
        if packed is not None and doc.compression:
            stream = doc.idToObject.get(f"fontFile:{self.filename}({fontname})")
            if stream is not None and stream.content is packed[0]:
                stream.content = packed[1]
                stream.filters = [AlreadyFlate]
        return ref


class AlreadyFlate:
    """A PDF stream filter for content that is already Flate-compressed.

    ReportLab applies a stream's filters when the PDF is saved; content
    compressed earlier (card forms, cached font subsets) goes through this
    one, which names the same filter and leaves the bytes alone.
    """

    pdfname = "FlateDecode"

    @staticmethod
    def encode(data: bytes) -> bytes:
        """Return ``data`` unchanged: it was compressed already."""
        return data


#: Most bytes :data:`_made_subsets` holds (a few dozen subsets of ~50 KB each).
MADE_SUBSETS_LIMIT = 16 * 2**20
#: Subsets made in this process: (font tag, code points) -> (font program, compressed),
#: forgotten all at once when they would pass :data:`MADE_SUBSETS_LIMIT` bytes.
_made_subsets: BoundedMemo[tuple[str, tuple[int, ...]], tuple[bytes, bytes]] = BoundedMemo(
    MADE_SUBSETS_LIMIT, lambda _key, made: len(made[0]) + len(made[1]))


#: Most bytes the font subset cache keeps (see :mod:`pnp.render.diskcache`).
SUBSET_CACHE_LIMIT = 32 * 2**20
_subset_store: Any = False   # False: not opened yet; None: no cache


def _subset_cache() -> Any:
    """The font subset cache (opened on first use), or None."""
    global _subset_store
    if _subset_store is False:
        from pnp.render.diskcache import open_cache

        _subset_store = open_cache("font-subsets", SUBSET_CACHE_LIMIT)
    return _subset_store


def _subset_key(tag: str, subset: list[int]) -> str:
    """Cache key of one subset: the font file's tag, the code points, zlib's version."""
    from pnp.render.diskcache import digest

    return digest("subset-1", tag, ",".join(map(str, subset)), zlib.ZLIB_RUNTIME_VERSION)


def _face_tag(path: Path) -> str:
    """Cache key of a font file: its path, size, date, ReportLab's version, our format."""
    st = path.stat()
    return hashlib.blake2b(f"{path}|{st.st_size}|{st.st_mtime_ns}|{reportlab.Version}|"
                           f"{_FACE_CACHE_VERSION}".encode(), digest_size=10).hexdigest()


def font_tag(name: str) -> str:
    """The cache key of one of pnp's fonts (:func:`_face_tag` of its file)."""
    return _face_tag(_font_path(name))


def _scale_for(face: TTFontFace) -> object:
    """ReportLab's font-unit to 1/1000 em scaling function (not picklable, so rebuilt)."""
    per = 1000 / face.unitsPerEm
    return (lambda x: x) if face.unitsPerEm == 1000 else (lambda x: x * per)


#: pnp's own store of parsed font tables, beside its code (a folder of pnp's
#: ``__pycache__``, as :data:`pnp.render.jinja_env.SHIPPED_CODE_DIR` is for
#: compiled templates): the fonts pnp draws with are files of this
#: installation, so their parsed tables serve every cache folder, and a fresh
#: one (a new project, ``PNP_CACHE_DIR``) does not parse them again (~0.3 G
#: instructions, 5 % of a first build). None: no such store.
SHIPPED_FACE_DIR: Path | None = Path(__file__).resolve().parent.parent / "__pycache__" / "fonts"


def _face_from(data: bytes, path: Path, cold: Path, tag: str) -> "_CachedFace | None":
    """The face pickled in ``data`` (its cold tables in ``cold``); None if unreadable."""
    try:
        # many small objects and none of them garbage: collecting cycles
        # meanwhile only costs time
        enabled = gc.isenabled()
        gc.disable()
        try:
            state = pickle.loads(data)
        finally:
            if enabled:
                gc.enable()
        face = _CachedFace.__new__(_CachedFace)
        face.__dict__.update(state)
        face._font_file = str(path)
        face._cold_file = str(cold)
        face._tag = tag
        face._pdfScale = _scale_for(face)
        return face
    except Exception:  # a stale or foreign cache file: parse the font instead
        return None


def _keep_face(folder: Path, stem: str, data: bytes, cold_data: bytes) -> None:
    """Write a face's two files into ``folder`` (the cold file first); a failure only costs speed."""
    try:
        # a main file is never there without its cold file
        write_bytes_atomic(folder / f"{stem}.cold.pickle", cold_data)
        write_bytes_atomic(folder / f"{stem}.pickle", data)
    except Exception:  # a read-only folder
        pass


def _cached_face(path: Path) -> TTFontFace:
    """Return the parsed TrueType face of ``path``, from the user cache when possible.

    Parsing IPAexGothic's tables takes ~50 ms per process; the parsed tables
    (not the font file itself, which is read when a PDF embeds the font) are
    kept in ``<cache>/fonts`` keyed by file, size, date and ReportLab
    version, so ``pnp preview`` starts quickly. The one table only text
    shaping uses sits in a second file, loaded when asked for. A cache
    folder without them takes them from pnp's own store
    (:data:`SHIPPED_FACE_DIR`, same names and keys) and keeps a copy; a
    font neither has is parsed and kept in both. Any problem with either
    falls back to the next place, then to parsing the file.
    """
    from pnp.render.diskcache import cache_dir

    tag = _face_tag(path)
    stem = f"{path.stem}-{tag}"
    folder = cache_dir("fonts")
    places = [place for place in (folder, SHIPPED_FACE_DIR) if place is not None]
    for place in places:
        try:
            data = (place / f"{stem}.pickle").read_bytes()
        except OSError:
            continue
        face = _face_from(data, path, place / f"{stem}.cold.pickle", tag)
        if face is None:
            continue
        if place != folder and folder is not None:
            try:
                cold_data = (place / f"{stem}.cold.pickle").read_bytes()
            except OSError:
                cold_data = None
            if cold_data is not None:
                _keep_face(folder, stem, data, cold_data)
        return face
    face = TTFontFace(str(path))
    if places:
        skip = ("_ttf_data", "_pdfScale") + _COLD
        state = {k: v for k, v in face.__dict__.items() if k not in skip}
        cold_state = {"source": str(path), **{k: face.__dict__[k] for k in _COLD}}
        data = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
        cold_data = pickle.dumps(cold_state, protocol=pickle.HIGHEST_PROTOCOL)
        for place in places:
            if place == SHIPPED_FACE_DIR:
                try:
                    place.mkdir(parents=True, exist_ok=True)
                except OSError:
                    continue
            _keep_face(place, stem, data, cold_data)
    # the same face as a _CachedFace (everything already loaded), for the subset cache
    fresh = _CachedFace.__new__(_CachedFace)
    fresh.__dict__.update(face.__dict__)
    fresh._font_file = str(path)
    fresh._cold_file = None
    fresh._tag = tag
    return fresh


def _make_font(name: str, path: Path) -> TTFont:
    """Build a ReportLab TTFont around a (possibly cached) face, as ``TTFont()`` would."""
    font = TTFont.__new__(TTFont)
    font.fontName = name
    font.face = _cached_face(path)
    font.encoding = TTEncoding()
    font.state = WeakKeyDictionary()
    font._asciiReadable = rl_config.ttfAsciiReadable
    font.shapable = not any(fnmatch(name, g) for g in getattr(ttfonts, "unShapedFontGlob", ()))
    return font


def ensure_font(name: str) -> None:
    """Register one of pnp's fonts with ReportLab and load its metrics (once)."""
    if name in _registered:
        return
    # Before anything is measured or written with a font: ReportLab's number
    # formatter (memoised) and text width, pinned to pnp's own (see rlspeed).
    from pnp.render import rlspeed

    rlspeed.install()
    if name not in pdfmetrics.getRegisteredFontNames():
        try:
            font = _make_font(name, _font_path(name))
        except Exception:  # fall back to ReportLab's own loader
            font = TTFont(name, str(_font_path(name)))
        pdfmetrics.registerFont(font)
    face = pdfmetrics.getFont(name).face
    _advances[name] = face.charWidths
    _default_width[name] = face.defaultWidth / 1000.0
    _cmap[name] = face.charToGlyph
    _registered.add(name)


def registered_fonts() -> set[str]:
    """The names of pnp's fonts registered so far (the live set: do not change it)."""
    return _registered


def register_fonts() -> None:
    """Register all of pnp's TTF fonts with ReportLab (later calls do nothing).

    Rendering registers each font lazily on first use; this is for callers
    that draw with the fonts directly.
    """
    for name in (FONT_JA, FONT_DISPLAY, FONT_LATIN):
        ensure_font(name)


def canvas_kwargs() -> dict[str, object]:
    """Return keyword arguments for ``Canvas(...)`` so its initial font is embedded.

    Without ``initialFontName`` ReportLab refers to unembedded Helvetica in
    every page preamble, which fails the ``pdffonts`` check.
    """
    ensure_font(DEFAULT_FONT)
    # Pure-Python ASCII85 encoding of every compressed stream cost ~1 ms per
    # card form; binary Flate streams are smaller and every PDF reader accepts
    # them. This is a process-wide ReportLab setting, fine for pnp's own PDFs.
    rl_config.useA85 = 0
    return {"initialFontName": DEFAULT_FONT, "initialFontSize": 10, "initialLeading": 12}


def has_glyph(font: str, cp: int) -> bool:
    """Return True if ReportLab font ``font`` has a glyph for code point ``cp``."""
    cmap = _cmap.get(font)
    if cmap is None:
        ensure_font(font)
        cmap = _cmap[font]
    return cp in cmap


def char_width(font: str, cp: int) -> float:
    """Return the advance width of ``cp`` in ``font``, in em."""
    widths = _advances.get(font)
    if widths is None:
        ensure_font(font)
        widths = _advances[font]
    w = widths.get(cp)
    return _default_width[font] if w is None else w / 1000.0


def family_fonts(family: str) -> tuple[str, ...]:
    """Return the fallback chain for a markup family name or raise PnpError."""
    fonts = FAMILIES.get(family)
    if fonts is None:
        raise PnpError(f"unknown font {family!r}: expected one of "
                       f"{', '.join(sorted(FAMILIES))}")
    return fonts
