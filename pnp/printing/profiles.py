"""Print profiles: the one table of ways to print (home sheets, print services, TTS).

The table is ``profiles.toml`` inside this package; ``pnp build --profiles
FILE`` adds or replaces rows from a user's file of the same shape. Every
paper size, sheet layout, service product and export kind the CLI offers
comes from here, so adding a print service is one new ``[profiles.NAME]``
table (see docs/printing.md).
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, Sequence

from pnp.errors import PnpError
from pnp.fileio import read_user_file
from pnp.units import parse_length, to_mm, unitless

#: What a profile can write.
OUTPUTS = ("sheets", "card-pdf", "card-png", "tts")
#: Sheet layouts (the one list: imposition, packing and the CLI use it) and
#: what a profile optimises first.
LAYOUTS = ("duplex", "gutterfold")
PRIORITIES = ("cards", "bleed")
PAGE_ORDERS = ("back-front", "front-back")
FITS = ("cover",)
KINDS = ("card", "token", "board")
COLOURS = ("rgb",)
#: Profile names: lower-case words joined by hyphens (they are CLI values).
_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")

#: Page boxes each output can write: "paper" (every box = the sheet), "trim"
#: (TrimBox = the card, BleedBox = CropBox = MediaBox = trim + bleed).
PAGE_BOXES = {"sheets": ("paper",), "card-pdf": ("trim",)}
#: Rulebook page size of a build without a home-sheet profile (a ``[papers]`` key).
DEFAULT_RULEBOOK_PAPER = "a5"
_COMMON = {"summary", "output", "kinds", "source", "colour", "folder"}
_KEYS: dict[str, set[str]] = {
    "sheets": _COMMON | {"paper", "layout", "file", "priority", "bleed", "min_bleed",
                         "margin", "marks", "mark_length", "gutter", "page_boxes"},
    "card-pdf": _COMMON | {"bleed", "safe", "asks_cmyk", "page_order", "fit", "tolerance",
                           "products", "page_boxes"},
    "card-png": _COMMON | {"dpi", "bleed", "safe", "fit", "tolerance", "products"},
    "tts": _COMMON | {"max_columns", "max_rows", "max_sheet_px", "max_card_px", "tile_dpi"},
}


@dataclass(frozen=True)
class PaperSize:
    """A named paper (portrait width and height in points)."""

    key: str
    name: str
    width: float
    height: float
    #: The paper this one folds in half into (``a4`` -> ``a5``), if any.
    half: str | None = None


@dataclass(frozen=True)
class Product:
    """A card size a print service sells: its name and trim (points)."""

    name: str
    width: float
    height: float

    def label(self) -> str:
        """Return e.g. ``poker 63.5 x 88.9 mm`` for messages."""
        return f"{self.name} {to_mm(self.width):.1f} x {to_mm(self.height):.1f} mm"


@dataclass(frozen=True)
class Profile:
    """One row of the profiles table (lengths in points).

    Only the fields of its ``output`` kind are meaningful; the others keep
    their defaults.
    """

    name: str
    summary: str
    output: str
    kinds: tuple[str, ...]
    source: str = ""
    colour: str = "rgb"
    folder: str = ""
    # sheets
    paper: str = "a4"
    layout: str = "duplex"
    file: str = "{deck}.pdf"
    priority: str = "cards"
    bleed: float = 0.0
    min_bleed: float = 0.0
    margin: float = 0.0
    marks: bool = True
    mark_length: float = 0.0
    #: "auto" (see pnp.printing.imposition rule 3), "none", "full" or a length.
    gutter: str | float = "auto"
    page_boxes: str = "paper"
    # print services
    dpi: int = 300
    safe: float = 0.0
    asks_cmyk: bool = False
    page_order: str = "back-front"
    fit: str = "cover"
    tolerance: float = 0.03
    products: tuple[Product, ...] = ()
    # Tabletop Simulator
    max_columns: int = 10
    max_rows: int = 7
    max_sheet_px: int = 4096
    max_card_px: int = 750
    tile_dpi: int = 300

    @property
    def is_service(self) -> bool:
        """Return True for print-on-demand exports (one card per page or image)."""
        return self.output in ("card-pdf", "card-png")

    def out_folder(self) -> str:
        """Return the sub-folder of ``output/<game>/`` this profile writes to."""
        return self.folder or self.name

    def sheet_file(self, deck: str) -> str:
        """Return the file name of a home-sheet PDF for ``deck``."""
        return self.file.format(deck=deck)

    def product_for(self, size: tuple[float, float]) -> Product | None:
        """Return the product whose trim is within ``tolerance`` of ``size``, else None.

        Both axes must scale by at most ``tolerance`` (3 %: a 63 x 88 mm design
        prints on a 2.5 x 3.5 in service card, scaled up 0.8 % / 1.0 %); the
        nearest such product wins. The card is never turned.
        """
        best: tuple[float, Product] | None = None
        for p in self.products:
            sx, sy = p.width / size[0], p.height / size[1]
            worst = max(abs(sx - 1.0), abs(sy - 1.0))
            if worst <= self.tolerance + 1e-9 and (best is None or worst < best[0]):
                best = (worst, p)
        return best[1] if best else None


@dataclass(frozen=True)
class ProfileTable:
    """The loaded table: papers and profiles by name, in file order."""

    papers: Mapping[str, PaperSize]
    profiles: Mapping[str, Profile]
    sources: tuple[str, ...] = field(default=())

    def names(self) -> list[str]:
        """Return the profile names in table order."""
        return list(self.profiles)

    def get(self, name: str) -> Profile:
        """Return the profile called ``name`` or raise a one-line PnpError."""
        key = name.strip().lower()
        if key not in self.profiles:
            from pnp.data.suggest import did_you_mean

            raise PnpError(f"unknown preset {name!r}: expected one of "
                           f"{', '.join(self.profiles)}{did_you_mean(key, self.profiles)}")
        return self.profiles[key]

    def paper(self, key: str) -> PaperSize:
        """Return the paper called ``key`` or raise a one-line PnpError."""
        k = key.strip().lower()
        if k not in self.papers:
            raise PnpError(f"unknown paper {key!r}: expected one of {', '.join(self.papers)}")
        return self.papers[k]

    def rulebook_paper(self, profiles: Sequence[Profile]) -> str:
        """Return the rulebook page size for a build of ``profiles``: the first sheet paper's half.

        A build on A4 sheets writes A5 rulebooks, on Letter half-letter ones
        (the ``half`` column of ``[papers]``), so a book folds from the
        paper the user has; a build with no home-sheet profile, or whose
        paper has no half, writes :data:`DEFAULT_RULEBOOK_PAPER`.
        """
        for profile in profiles:
            if profile.output == "sheets" and profile.paper:
                half = self.paper(profile.paper).half
                if half is not None:
                    return half
        return DEFAULT_RULEBOOK_PAPER

    def sheet_profile(self, paper: str, layout: str) -> Profile:
        """Return the home-sheet profile for ``paper`` and ``layout`` (the old flags).

        Prefers the profile that optimises card count (``home-a4`` over
        ``home-a4-bleed``).
        """
        found = [p for p in self.profiles.values()
                 if p.output == "sheets" and p.paper == paper.lower() and p.layout == layout]
        if not found:
            raise PnpError(f"no sheet profile for paper {paper!r} and layout {layout!r}")
        found.sort(key=lambda p: p.priority != "cards")
        return found[0]


class _Row:
    """Typed access to one TOML table with ``where`` in every error message."""

    def __init__(self, raw: Mapping[str, Any], where: str, origin: str) -> None:
        self.raw = raw
        self.where = where
        self.origin = origin

    def fail(self, message: str) -> PnpError:
        """Return a PnpError naming the file and the table."""
        return PnpError(f"{self.origin}: {self.where}: {message}")

    def text(self, key: str, default: str | None = None,
             choices: tuple[str, ...] | None = None) -> str:
        """Return a string value (one of ``choices`` if given)."""
        value = self.raw.get(key, default)
        if value is None:
            raise self.fail(f"missing key {key!r}")
        if not isinstance(value, str):
            raise self.fail(f"{key}: expected a string, found {value!r}")
        if choices is not None and value not in choices:
            raise self.fail(f"{key}: expected one of {', '.join(choices)}, found {value!r}")
        return value

    def length(self, key: str, default: str | None = None, *, positive: bool = False) -> float:
        """Return a length in points (``"3mm"``, ``"0.125in"``, ``"36px"``)."""
        text = self.text(key, default)
        _require_unit(self, key, text)
        try:
            value = parse_length(text, default_unit="mm", what=f"{self.where}.{key}")
        except PnpError as exc:
            raise self.fail(exc.message) from None
        if not math.isfinite(value) or value < 0 or (positive and value <= 0):
            raise self.fail(f"{key}: expected a {'positive' if positive else 'non-negative'} "
                            f"length, found {text!r}")
        return value

    def integer(self, key: str, default: int, lo: int, hi: int) -> int:
        """Return an int within [lo, hi]."""
        value = self.raw.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise self.fail(f"{key}: expected a whole number from {lo} to {hi}, found {value!r}")
        return value

    def flag(self, key: str, default: bool) -> bool:
        """Return a boolean."""
        value = self.raw.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(f"{key}: expected true or false, found {value!r}")
        return value

    def number(self, key: str, default: float, lo: float, hi: float) -> float:
        """Return a float within [lo, hi]."""
        value = self.raw.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not math.isfinite(value) or not lo <= value <= hi:
            raise self.fail(f"{key}: expected a number from {lo} to {hi}, found {value!r}")
        return float(value)


def _require_unit(row: _Row, key: str, part: str, whole: str | None = None) -> None:
    """Refuse a length without a unit: ``bleed = "3"`` could be mm, pt or inches."""
    if unitless(part):
        raise row.fail(f"{key}: expected a unit on each length (mm, in, pt or px), e.g. "
                       f"'3mm' or '2.5in x 3.5in', found {whole or part!r}")


def _size(row: _Row, text: str, what: str) -> tuple[float, float]:
    """Parse ``"W x H"`` with units into points."""
    parts = re.split(r"\s+x\s+|\s*×\s*", text.strip())
    if len(parts) != 2:
        raise row.fail(f"{what}: expected 'W x H' such as '2.5in x 3.5in', found {text!r}")
    for part in parts:
        _require_unit(row, what, part, text)
    try:
        w, h = (parse_length(p, default_unit="mm", what=what) for p in parts)
    except PnpError as exc:
        raise row.fail(exc.message) from None
    if w <= 0 or h <= 0:
        raise row.fail(f"{what}: expected a positive size, found {text!r}")
    return w, h


def _papers(raw: Any, origin: str) -> dict[str, PaperSize]:
    """Parse the ``[papers]`` table."""
    if not isinstance(raw, dict):
        raise PnpError(f"{origin}: [papers]: expected a table")
    out: dict[str, PaperSize] = {}
    for key, spec in raw.items():
        row = _Row(spec if isinstance(spec, dict) else {}, f"papers.{key}", origin)
        if not isinstance(spec, dict):
            raise row.fail("expected { name = ..., size = ... }")
        w, h = _size(row, row.text("size"), "size")
        half = spec.get("half")
        if half is not None and not isinstance(half, str):
            raise row.fail(f"half: expected a paper name, found {half!r}")
        out[key.lower()] = PaperSize(key.lower(), row.text("name", key), min(w, h), max(w, h),
                                     half.lower() if half else None)
    return out


def _profile(name: str, raw: Any, origin: str, papers: Mapping[str, PaperSize]) -> Profile:
    """Parse and check one ``[profiles.NAME]`` table."""
    where = f"profiles.{name}"
    if not _NAME.match(name):
        raise PnpError(f"{origin}: {where}: a profile name uses lower-case letters, "
                       "digits and '-'")
    if not isinstance(raw, dict):
        raise PnpError(f"{origin}: {where}: expected a table")
    row = _Row(raw, where, origin)
    output = row.text("output", choices=OUTPUTS)
    extra = sorted(set(raw) - _KEYS[output])
    if extra:
        raise row.fail(f"unknown key {extra[0]!r} for output {output!r} (allowed: "
                       f"{', '.join(sorted(_KEYS[output]))})")
    kinds_raw = raw.get("kinds", ["card"])
    if not isinstance(kinds_raw, list) or not kinds_raw \
            or any(k not in KINDS for k in kinds_raw):
        raise row.fail(f"kinds: expected a list drawn from {', '.join(KINDS)}")
    base: dict[str, Any] = {
        "name": name, "summary": row.text("summary", ""), "output": output,
        "kinds": tuple(kinds_raw), "source": row.text("source", ""),
        "colour": row.text("colour", "rgb", COLOURS), "folder": row.text("folder", ""),
    }
    if output == "sheets":
        paper = row.text("paper").lower()
        if paper not in papers:
            raise row.fail(f"paper: expected one of {', '.join(papers)}, found {paper!r}")
        file = row.text("file")
        if "{deck}" not in file or not file.endswith(".pdf") or "/" in file:
            raise row.fail(f"file: expected a name such as '{{deck}}-a4.pdf', found {file!r}")
        bleed = row.length("bleed", "3mm")
        gutter_text = row.text("gutter", "auto")
        gutter: str | float = gutter_text
        if gutter_text not in ("auto", "none", "full"):
            gutter = row.length("gutter")
        base.update(gutter=gutter,
                    page_boxes=row.text("page_boxes", "paper", PAGE_BOXES["sheets"]))
        margin = row.length("margin", "5mm")
        sheet = papers[paper]
        if 2 * margin >= min(sheet.width, sheet.height):
            # caught here, naming the row, rather than as "does not fit" for every deck
            raise row.fail(f"margin: {row.text('margin')!r} leaves no printable area on "
                           f"{sheet.name}")
        base.update(paper=paper, layout=row.text("layout", "duplex", LAYOUTS), file=file,
                    priority=row.text("priority", "cards", PRIORITIES), bleed=bleed,
                    min_bleed=min(row.length("min_bleed", "2mm"), bleed),
                    margin=margin, marks=row.flag("marks", True),
                    mark_length=row.length("mark_length", "3mm"))
    elif output in ("card-pdf", "card-png"):
        prods = raw.get("products")
        if not isinstance(prods, list) or not prods:
            raise row.fail("products: expected a list such as "
                           "[{ name = \"poker\", trim = \"2.5in x 3.5in\" }]")
        products = []
        for k, spec in enumerate(prods, 1):
            prow = _Row(spec if isinstance(spec, dict) else {}, f"{where}.products[{k}]",
                        origin)
            if not isinstance(spec, dict) or set(spec) - {"name", "trim"}:
                raise prow.fail("expected { name = ..., trim = \"W x H\" }")
            products.append(Product(prow.text("name"),
                                    *_size(prow, prow.text("trim"), "trim")))
        base.update(bleed=row.length("bleed", "0.125in"), safe=row.length("safe", "0mm"),
                    fit=row.text("fit", "cover", FITS),
                    tolerance=row.number("tolerance", 0.03, 0.0, 0.2),
                    products=tuple(products))
        if output == "card-pdf":
            base.update(page_boxes=row.text("page_boxes", "trim", PAGE_BOXES["card-pdf"]))
            base.update(asks_cmyk=row.flag("asks_cmyk", False),
                        page_order=row.text("page_order", "back-front", PAGE_ORDERS))
        else:
            base.update(dpi=row.integer("dpi", 300, 72, 1200))
    else:
        base.update(max_columns=row.integer("max_columns", 10, 1, 10),
                    max_rows=row.integer("max_rows", 7, 1, 7),
                    max_sheet_px=row.integer("max_sheet_px", 4096, 256, 8192),
                    max_card_px=row.integer("max_card_px", 750, 64, 4096),
                    tile_dpi=row.integer("tile_dpi", 300, 36, 1200))
        if base["max_columns"] * base["max_rows"] < 2:
            raise row.fail("a TTS sheet needs room for at least 2 cards")
    return Profile(**base)


def parse_table(text: str, origin: str, base: ProfileTable | None = None) -> ProfileTable:
    """Parse a profiles TOML text; rows of ``base`` not redefined are kept."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        from pnp.data.manifest import toml_error

        # the line to fix (where an unclosed string or bracket opens), as for manifests
        message, line = toml_error(text, exc)
        raise PnpError(f"TOML syntax error: {message}", path=origin, line=line) from None
    unknown = sorted(set(raw) - {"papers", "profiles"})
    if unknown:
        raise PnpError(f"{origin}: unknown table {unknown[0]!r} (expected [papers] and "
                       "[profiles.NAME])")
    papers = dict(base.papers) if base else {}
    papers.update(_papers(raw.get("papers", {}), origin))
    if not papers:
        raise PnpError(f"{origin}: no [papers] table")
    for paper in papers.values():
        if paper.half is not None and paper.half not in papers:
            raise PnpError(f"{origin}: papers.{paper.key}: half: expected one of "
                           f"{', '.join(papers)}, found {paper.half!r}")
    profiles = dict(base.profiles) if base else {}
    rows = raw.get("profiles", {})
    if not isinstance(rows, dict):
        raise PnpError(f"{origin}: [profiles]: expected tables such as [profiles.home-a4]")
    for name, spec in rows.items():
        profiles[name] = _profile(name, spec, origin, papers)
    if not profiles:
        raise PnpError(f"{origin}: no [profiles.NAME] table")
    return ProfileTable(papers, profiles, (base.sources if base else ()) + (origin,))


@lru_cache(maxsize=1)
def builtin_profiles() -> ProfileTable:
    """Return the table shipped in the package (``pnp/printing/profiles.toml``)."""
    # beside this module (pnp installs as a folder, never a zip: its shipped games
    # are read as files too); importlib.resources would load zipfile, tempfile
    # and its readers for it (this and pnp.cli's rulebook note, loaded only when
    # a note is due: 3 % of a warm build's instructions)
    text = (Path(__file__).resolve().parent / "profiles.toml").read_text("utf-8")
    return parse_table(text, "profiles.toml")


def load_profiles(extra: Path | None = None) -> ProfileTable:
    """Return the built-in table, plus the rows of ``extra`` (a user's TOML) if given."""
    table = builtin_profiles()
    if extra is None:
        return table
    data = read_user_file(Path(extra), "profiles file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise PnpError(f"{extra}: profiles file is not UTF-8") from None
    return parse_table(text, str(extra), table)
