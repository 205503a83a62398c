"""`pnp preflight`: is a PDF, PNG or Tabletop Simulator export ready to print (or load)?

PDF checks (pikepdf reads the object tree, pypdfium2 renders):
- every font referenced by any page or form is embedded (a font named but
  not embedded fails, as in ``pdffonts``);
- TrimBox and BleedBox are set and nested: Trim ⊂ Bleed ⊂ Media;
- the page (or trim + bleed) matches a print profile of the table, or at
  least a paper of it;
- raster images are placed at 300 ppi or more;
- on home sheets (paper-size pages) nothing is inked in the printer margin;
- colour space, with a note where the profile's service asks for CMYK.

PNG checks: pixel size matches a print profile's image (825 x 1125 px for a
TGC poker card) or is an image a TTS saved object beside it uses (within
the 4096 px limit, whole grid cells); RGB; 300 ppi metadata for print
services; white corners are flagged (art not reaching the bleed).

TTS saved objects: grids within 10 x 7, card ids consistent with their
sheets (key x 100 + cell), one contained card per deck id, images present;
dice are TTS standard dice (Die_6 …) or Custom_Dice with an image.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator
from urllib.parse import unquote, urlparse

from pnp.errors import PnpError
from pnp.printing.profiles import Profile, ProfileTable, load_profiles
from pnp.printing.staging import STAGE_PREFIX
from pnp.units import mm, to_mm

#: Points of slack when comparing boxes and sizes.
TOL = 0.6
#: Smallest ppi of a raster image in a print file.
MIN_PPI = 300.0
#: A corner pixel this close to white (all channels) counts as white paper.
WHITE = 250


@dataclass
class Check:
    """One check's outcome: ``level`` "error" fails the file, "warning"/"info" do not."""

    name: str
    ok: bool
    detail: str
    level: str = "error"


@dataclass
class Report:
    """All checks of one file, and the profile its size matched (if any)."""

    path: Path
    kind: str
    profile: str | None = None
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Return True if no error-level check failed."""
        return all(c.ok or c.level != "error" for c in self.checks)

    def add(self, name: str, ok: bool, detail: str, level: str = "error") -> None:
        """Append a check."""
        self.checks.append(Check(name, ok, detail, level))

    def to_json(self) -> dict[str, Any]:
        """Return the report as plain data for ``--json``."""
        return {"file": str(self.path), "kind": self.kind, "ok": self.ok,
                "profile": self.profile,
                "checks": [{"name": c.name, "ok": c.ok, "level": c.level,
                            "detail": c.detail} for c in self.checks]}


@dataclass(frozen=True)
class JsonRead:
    """One JSON file read and parsed: what the checks need of it, or why it could not be read.

    ``data`` is the parsed file only for a TTS save (an object with
    ``ObjectStates``), and then only its ``ObjectStates``: the one part the
    save's check and the PNG checks read. Other JSON (a ``pnp simulate
    --json`` report) keeps ``data`` None, so a folder search does not hold
    every report it passed over for the rest of the run. ``error`` is the
    read's message.
    """

    data: dict[str, Any] | None = None
    error: str | None = None

    @property
    def is_save(self) -> bool:
        """True if the file parsed as a TTS save (``ObjectStates`` present, whatever its value)."""
        return self.data is not None


class JsonFiles:
    """JSON files read once per run, however many checks look at them.

    A folder search parses each JSON to tell a TTS save from other JSON, the
    save's own check needs it again, and every PNG's check reads the saves
    beside it to find the one using it: all three share one parse through
    this. Only what those checks use is kept (:class:`JsonRead`). Only for
    one run: a file edited afterwards is not seen.
    """

    def __init__(self) -> None:
        """Start with nothing read."""
        self._read: dict[Path, JsonRead] = {}

    def read(self, path: Path) -> JsonRead:
        """Return ``path`` parsed as UTF-8 JSON, reading it on the first call only."""
        known = self._read.get(path)
        if known is None:
            try:
                parsed = json.loads(path.read_text("utf-8"))
            except (OSError, ValueError) as exc:   # UnicodeDecodeError is a ValueError
                # the message only: the exception would keep the file's text alive
                known = JsonRead(error=str(exc))
            else:
                # keep the saves' objects and drop the rest (it goes when this returns)
                known = (JsonRead({"ObjectStates": parsed["ObjectStates"]})
                         if isinstance(parsed, dict) and "ObjectStates" in parsed
                         else JsonRead())
            self._read[path] = known
        return known


def expand_paths(paths: list[Path], skipped: list[Path] | None = None,
                 json_files: JsonFiles | None = None) -> list[Path]:
    """Return the files to check: files as given, folders searched for PDF/PNG/JSON.

    A folder search leaves out what is not meant for printing (added to
    ``skipped``): the screen images pnp writes (``<game>/preview/`` from
    ``pnp preview`` and ``pnp watch``, ``rulebook-images/`` and
    ``rulebook-en-images/`` beside a Markdown rulebook) and JSON that is not a
    Tabletop Simulator save (a ``pnp simulate --json`` report). A file named
    on the command line is always checked. The JSON it parses is kept in
    ``json_files``: pass the same to :func:`preflight_files` to parse each once.
    """
    json_files = JsonFiles() if json_files is None else json_files
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            for f in sorted(p.rglob("*")):
                if not f.is_file() or f.suffix.lower() not in (".pdf", ".png", ".json") \
                        or f.name.startswith("."):
                    continue
                if any(part.startswith(STAGE_PREFIX) for part in f.relative_to(p).parts[:-1]):
                    continue      # an export a killed run left unfinished: never moved in
                if any(_SCREEN_FOLDER.fullmatch(part) for part in f.relative_to(p).parts[:-1]) \
                        or (f.suffix.lower() == ".json"
                            and not _looks_like_tts(json_files.read(f))):
                    if skipped is not None:
                        skipped.append(f)
                    continue
                out.append(f)
        else:
            out.append(p)
    if not out:
        left = [] if skipped is None else skipped
        raise PnpError("no PDF, PNG or JSON files to check" + (
            f" (left out {len(left)} not meant for printing: screen previews and rulebook "
            "pictures, JSON that is not a TTS save; name one to check it)" if left else ""))
    return out


#: Folders of screen images pnp writes: card previews and a Markdown rulebook's pictures.
_SCREEN_FOLDER = re.compile(r"preview|rulebook(-[a-z]{2})?-images")


def _looks_like_tts(read: JsonRead) -> bool:
    """True unless ``read`` is valid JSON without ``ObjectStates`` (a damaged save is checked)."""
    return read.error is not None or read.is_save


def preflight_files(paths: list[Path], *, profile: str | None = None,
                    profiles_file: Path | None = None,
                    progress: Callable[[int], None] | None = None,
                    json_files: JsonFiles | None = None) -> list[Report]:
    """Check every file; return one report each (unreadable files are failed reports).

    ``json_files``: the one given to :func:`expand_paths`, so the checks reuse
    its parses (without it they still share one parse of each JSON among
    themselves).
    """
    table = load_profiles(profiles_file)
    wanted = table.get(profile) if profile else None
    json_files = JsonFiles() if json_files is None else json_files
    reports = []
    for p in paths:
        reports.append(preflight_file(p, table, wanted, json_files))
        if progress is not None:
            progress(1)
    return reports


def preflight_file(path: Path, table: ProfileTable, wanted: Profile | None = None,
                   json_files: JsonFiles | None = None) -> Report:
    """Check one file by its type (PDF, PNG, JSON); JSON is read through ``json_files``."""
    json_files = JsonFiles() if json_files is None else json_files
    suffix = path.suffix.lower()
    kind = {".pdf": "pdf", ".png": "png", ".json": "tts"}.get(suffix, "unknown")
    report = Report(path, kind)
    if not path.is_file():
        report.add("file", False, "not found" if not path.exists() else "not a file")
        return report
    if kind == "pdf":
        _check_pdf(path, table, wanted, report)
    elif kind == "png":
        _check_png(path, table, wanted, report, json_files)
    elif kind == "tts":
        _check_tts_json(path, report, json_files)
    else:
        report.add("type", False, "expected a .pdf, .png or TTS .json file")
    return report


# --------------------------------------------------------------------------
# PDF


def _fonts(pdf: Any) -> Iterator[tuple[str, bool]]:
    """Yield (font name, embedded?) for every font any page or form refers to."""
    import pikepdf

    seen: set[tuple[int, int]] = set()

    def resources(res: Any) -> Iterator[tuple[str, bool]]:
        if not isinstance(res, pikepdf.Dictionary):
            return
        fonts = res.get("/Font")
        if isinstance(fonts, pikepdf.Dictionary):
            for font_key, font in fonts.items():
                if not isinstance(font, pikepdf.Dictionary):
                    # a damaged font entry cannot be embedded: it fails like one missing
                    yield f"{str(font_key)[1:]} (not a font dictionary)", False
                    continue
                yield from font_entry(font)
        xobjects = res.get("/XObject")
        if isinstance(xobjects, pikepdf.Dictionary):
            for _, xobj in xobjects.items():
                if not isinstance(xobj, pikepdf.Stream):
                    continue  # not an XObject at all: nothing drawn from it
                key = xobj.objgen
                if key != (0, 0) and key in seen:
                    continue
                seen.add(key)
                if xobj.get("/Subtype") == "/Form":
                    yield from resources(xobj.get("/Resources"))

    def font_entry(font: Any) -> Iterator[tuple[str, bool]]:
        key = font.objgen
        if key != (0, 0) and key in seen:
            return
        seen.add(key)
        name = str(font.get("/BaseFont", "/?"))[1:]
        subtype = font.get("/Subtype")
        if subtype == "/Type3":
            yield name, True
            yield from resources(font.get("/Resources"))
            return
        target = font
        if subtype == "/Type0":
            desc = font.get("/DescendantFonts")
            target = desc[0] if isinstance(desc, pikepdf.Array) and len(desc) else font
        fd = target.get("/FontDescriptor")
        embedded = isinstance(fd, pikepdf.Dictionary) and any(
            k in fd for k in ("/FontFile", "/FontFile2", "/FontFile3"))
        yield name, embedded

    for page in pdf.pages:
        yield from resources(page.obj.get("/Resources"))


class _BadBox(ValueError):
    """A page box that is not an array of four numbers (a damaged PDF)."""


def _box(page: Any, name: str) -> tuple[float, float, float, float] | None:
    """Return the page's box ``name`` as (x0, y0, x1, y1), or None if not set.

    Raises :class:`_BadBox` if the box is set but is not four numbers.
    """
    import pikepdf

    obj = page.obj.get(name)
    if obj is None:
        return None
    try:
        if not isinstance(obj, pikepdf.Array) or len(obj) != 4:
            raise TypeError
        a, b, c, d = (float(v) for v in obj)
    except (TypeError, ValueError):
        raise _BadBox(f"{name[1:]} is not four numbers") from None
    return (min(a, c), min(b, d), max(a, c), max(b, d))


def _inside(inner: tuple[float, ...], outer: tuple[float, ...]) -> bool:
    """Return True if box ``inner`` lies within ``outer`` (TOL slack)."""
    return (inner[0] >= outer[0] - TOL and inner[1] >= outer[1] - TOL
            and inner[2] <= outer[2] + TOL and inner[3] <= outer[3] + TOL)


def _close(a: float, b: float) -> bool:
    """Return True if two lengths in points agree within TOL."""
    return abs(a - b) <= TOL


def _mm(w: float, h: float) -> str:
    """Return ``w x h`` in mm for messages."""
    return f"{to_mm(w):.1f} x {to_mm(h):.1f} mm"


def _match_pdf(table: ProfileTable, wanted: Profile | None, media: tuple[float, ...],
               trim: tuple[float, ...]) -> tuple[list[Profile], str | None]:
    """Return the profiles whose page matches, or a paper name if only a paper does."""
    mw, mh = media[2] - media[0], media[3] - media[1]
    tw, th = trim[2] - trim[0], trim[3] - trim[1]
    found: list[Profile] = []
    candidates = [wanted] if wanted else list(table.profiles.values())
    for p in candidates:
        if p.output == "sheets":
            paper = table.papers[p.paper]
            if {round(mw), round(mh)} == {round(paper.width), round(paper.height)} \
                    and _close(tw, mw) and _close(th, mh):
                found.append(p)
        elif p.output == "card-pdf":
            for prod in p.products:
                if (_close(tw, prod.width) and _close(th, prod.height)
                        and _close(mw, prod.width + 2 * p.bleed)
                        and _close(mh, prod.height + 2 * p.bleed)):
                    found.append(p)
                    break
    paper_name = None
    if not found and wanted is None:
        for paper in table.papers.values():
            if {round(mw), round(mh)} == {round(paper.width), round(paper.height)}:
                paper_name = paper.name
    return found, paper_name


def _colour_ops(pdf: Any) -> set[str]:
    """Return the colour spaces the page content and forms paint in (RGB, CMYK, Gray)."""
    import pikepdf

    spaces: set[str] = set()
    ops = {"rg": "RGB", "RG": "RGB", "k": "CMYK", "K": "CMYK", "g": "Gray", "G": "Gray"}
    names = {"/DeviceRGB": "RGB", "/DeviceCMYK": "CMYK", "/DeviceGray": "Gray"}
    seen: set[tuple[int, int]] = set()

    def scan(obj: Any) -> None:
        try:
            for instruction in pikepdf.parse_content_stream(obj):
                if not isinstance(instruction, pikepdf.ContentStreamInstruction):
                    continue  # inline images carry their own colour space
                name = str(instruction.operator)
                operands = instruction.operands
                if name in ops:
                    spaces.add(ops[name])
                elif name in ("cs", "CS") and operands:
                    spaces.add(names.get(str(operands[0]), str(operands[0])[1:]))
        except pikepdf.PdfError:
            spaces.add("unreadable")

    def walk_res(res: Any) -> None:
        if not isinstance(res, pikepdf.Dictionary):
            return
        for key in ("/XObject", "/Shading"):
            group = res.get(key)
            if not isinstance(group, pikepdf.Dictionary):
                continue
            for _, obj in group.items():
                if not isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)):
                    continue  # a damaged entry paints nothing
                if obj.objgen != (0, 0) and obj.objgen in seen:
                    continue
                seen.add(obj.objgen)
                cs = obj.get("/ColorSpace")
                if cs is not None:
                    text = str(cs[0] if isinstance(cs, pikepdf.Array) else cs)
                    spaces.add(names.get(text, text.lstrip("/")))
                if key == "/XObject" and obj.get("/Subtype") == "/Form":
                    scan(obj)
                    walk_res(obj.get("/Resources"))

    for page in pdf.pages:
        scan(page)
        walk_res(page.obj.get("/Resources"))
    return spaces


def _margin_ink(path: Path, pages: list[int], margin: float) -> list[int]:
    """Return the (1-based) pages with ink inside ``margin`` of the paper edge."""
    import pypdfium2 as pdfium

    bad: list[int] = []
    doc = pdfium.PdfDocument(path)
    try:
        scale = 1.0  # 72 dpi: a 5 mm band is 14 px, 13 of them checked
        for i in pages:
            page = doc[i]
            image = page.render(scale=scale).to_pil().convert("L")
            page.close()
            w, h = image.size
            m = max(1, math.floor(margin * scale) - 1)  # one pixel of anti-aliasing slack
            for box in ((0, 0, w, m), (0, h - m, w, h), (0, 0, m, h), (w - m, 0, w, h)):
                if image.crop(box).getextrema()[0] < 250:
                    bad.append(i + 1)
                    break
    finally:
        doc.close()
    return bad


def _image_ppi(path: Path) -> list[tuple[int, float]]:
    """Return (page, ppi) of every raster image placement (forms searched too)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    out: list[tuple[int, float]] = []
    doc = pdfium.PdfDocument(path)
    try:
        for i in range(len(doc)):
            page = doc[i]
            for obj in page.get_objects(filter=[raw.FPDF_PAGEOBJ_IMAGE], max_depth=8):
                meta = obj.get_metadata()
                l, b, r, t = obj.get_bounds()
                w_in, h_in = (r - l) / 72.0, (t - b) / 72.0
                if w_in <= 0 or h_in <= 0:
                    continue
                ppi = min(meta.width / w_in, meta.height / h_in)
                out.append((i + 1, ppi))
            page.close()
    finally:
        doc.close()
    return out


def _check_pdf(path: Path, table: ProfileTable, wanted: Profile | None,
               report: Report) -> None:
    """Run the PDF checks into ``report``."""
    import pikepdf

    try:
        pdf = pikepdf.open(path)
    except pikepdf.PasswordError:
        report.add("open", False, "encrypted (needs a password): print services and "
                   "printers need it without one")
        return
    except (pikepdf.PdfError, OSError) as exc:
        report.add("open", False, f"not a readable PDF ({exc})")
        return
    with pdf:
        if not len(pdf.pages):
            report.add("pages", False, "no pages")
            return
        fonts = list(_fonts(pdf))
        missing = sorted({n for n, e in fonts if not e})
        report.add("fonts", not missing,
                   f"not embedded: {', '.join(missing)}" if missing else
                   f"{len({n for n, _ in fonts})} font(s), all embedded" if fonts
                   else "no fonts")
        bad_boxes: list[str] = []
        sizes: set[tuple[float, float, float, float]] = set()
        for n, page in enumerate(pdf.pages, 1):
            try:
                media = _box(page, "/MediaBox")
                trim, bleed = _box(page, "/TrimBox"), _box(page, "/BleedBox")
            except _BadBox as exc:
                bad_boxes.append(f"page {n}: {exc}")
                continue
            if media is None:
                bad_boxes.append(f"page {n}: no MediaBox")
                continue
            if trim is None or bleed is None:
                bad_boxes.append(f"page {n}: {'TrimBox' if trim is None else 'BleedBox'} "
                                 "not set")
                continue
            if not (_inside(trim, bleed) and _inside(bleed, media)):
                bad_boxes.append(f"page {n}: boxes not nested (Trim ⊂ Bleed ⊂ Media)")
            sizes.add((round(media[2] - media[0], 1), round(media[3] - media[1], 1),
                       round(trim[2] - trim[0], 1), round(trim[3] - trim[1], 1)))
        report.add("boxes", not bad_boxes,
                   "; ".join(bad_boxes[:3]) + (" …" if len(bad_boxes) > 3 else "")
                   if bad_boxes else f"TrimBox ⊂ BleedBox ⊂ MediaBox on {len(pdf.pages)} page(s)")
        matched: list[Profile] = []
        home = False
        try:
            media = _box(pdf.pages[0], "/MediaBox")
            trim = _box(pdf.pages[0], "/TrimBox") or media
        except _BadBox:
            media = trim = None                     # reported under "boxes" above
        if media is not None and trim is not None:
            matched, paper = _match_pdf(table, wanted, media, trim)
            size = _mm(media[2] - media[0], media[3] - media[1])
            if matched:
                report.profile = matched[0].name
                report.add("size", True, f"{size} pages match "
                           + ", ".join(p.name for p in matched))
                home = matched[0].output == "sheets"
            elif paper:
                report.add("size", True, f"{size} pages: paper {paper} (no card profile)",
                           "info")
                home = True
            else:
                target = f"profile {wanted.name}" if wanted else "any print profile"
                report.add("size", False, f"{size} pages (trim "
                           f"{_mm(trim[2] - trim[0], trim[3] - trim[1])}) do not match "
                           f"{target}")
            if len(sizes) > 1:
                report.add("same size", False, f"{len(sizes)} different page sizes", "warning")
        images = _image_ppi(path)
        low = [(p, ppi) for p, ppi in images if ppi < MIN_PPI - 0.5]
        report.add("images", not low,
                   (f"{len(low)} image(s) under {MIN_PPI:.0f} ppi, e.g. page {low[0][0]} at "
                    f"{low[0][1]:.0f} ppi") if low else
                   (f"{len(images)} raster image(s), all >= {MIN_PPI:.0f} ppi" if images
                    else "vector only (no raster images)"))
        if home:
            margin = min((p.margin for p in matched if p.output == "sheets"), default=mm(5))
            bad = _margin_ink(path, list(range(len(pdf.pages))), margin)
            report.add("margin", not bad,
                       f"ink inside the {to_mm(margin):g} mm printer margin on page(s) "
                       f"{', '.join(map(str, bad[:5]))}" if bad else
                       f"nothing inked within {to_mm(margin):g} mm of the paper edge")
        spaces = _colour_ops(pdf)
        text = "/".join(sorted(spaces)) or "none"
        report.add("colour", "unreadable" not in spaces, f"colour space {text}", "info")
        cmyk = [p for p in matched if p.asks_cmyk]
        if cmyk and spaces - {"CMYK", "Gray", "Pattern", "Indexed"}:
            report.add("cmyk", False, f"{cmyk[0].name} asks for CMYK (PDF/X-1a); this file is "
                       f"{text}: the service converts it, or export CMYK yourself for exact "
                       "colour", "warning")


# --------------------------------------------------------------------------
# PNG and TTS


def _png_expected(table: ProfileTable, wanted: Profile | None
                  ) -> list[tuple[Profile, str, int, int]]:
    """Return (profile, product, width px, height px) of every card image in the table."""
    out = []
    for p in ([wanted] if wanted else table.profiles.values()):
        if p.output != "card-png":
            continue
        k = p.dpi / 72.0
        for prod in p.products:
            out.append((p, prod.name, round((prod.width + 2 * p.bleed) * k),
                        round((prod.height + 2 * p.bleed) * k)))
    return out


def _url_path(url: str, base: Path) -> Path | None:
    """Return the local file a TTS URL names (file:/// URLs only)."""
    parsed = urlparse(url)
    if parsed.scheme == "file":
        return Path(unquote(parsed.path))
    return None


def _tts_uses(png: Path, json_files: JsonFiles) -> dict[str, Any] | None:
    """Return how a saved object beside ``png`` uses it: {"grid": (cols, rows)} or {}."""
    target = png.resolve()
    for js in sorted(png.parent.glob("*.json")):
        read = json_files.read(js)
        if read.error is not None:
            continue
        for obj in _objects(read.data):
            for deck in map(_table, _table(obj.get("CustomDeck")).values()):
                for key in ("FaceURL", "BackURL"):
                    path = _url_path(str(deck.get(key, "")), js.parent)
                    if path is not None and path.resolve() == target:
                        grid = (_count(deck.get("NumWidth", 1)), _count(deck.get("NumHeight", 1)))
                        single = key == "BackURL" and not deck.get("UniqueBack")
                        return {"grid": (1, 1) if single else grid, "json": js.name}
            image = _table(obj.get("CustomImage"))
            for key in ("ImageURL", "ImageSecondaryURL"):
                path = _url_path(str(image.get(key, "")), js.parent)
                if path is not None and path.resolve() == target:
                    return {"grid": (1, 1), "json": js.name}
    return None


def _objects(data: Any) -> Iterator[dict[str, Any]]:
    """Yield every object of a TTS save (contained objects too)."""
    if not isinstance(data, dict):
        return
    stack = _list(data.get("ObjectStates"))
    while stack:
        obj = stack.pop()
        if isinstance(obj, dict):
            yield obj
            stack.extend(_list(obj.get("ContainedObjects")))


def _count(value: Any) -> int:
    """A grid count from a save: a whole number ≥ 1, anything else counts as 1."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else 1


def _list(value: Any) -> list[Any]:
    """``value`` if it is a JSON array, else empty (a foreign or hand-edited save)."""
    return list(value) if isinstance(value, list) else []


def _table(value: Any) -> dict[str, Any]:
    """``value`` if it is a JSON object, else empty."""
    return value if isinstance(value, dict) else {}


def _check_png(path: Path, table: ProfileTable, wanted: Profile | None,
               report: Report, json_files: JsonFiles) -> None:
    """Run the PNG checks into ``report``."""
    from PIL import Image

    try:
        with Image.open(path) as im:  # reads the header only; pixels on demand
            size, mode, info = im.size, im.mode, dict(im.info)
    except (OSError, ValueError) as exc:
        report.add("open", False, f"not a readable PNG ({exc})")
        return
    report.add("colour", mode in ("RGB", "L"),
               f"mode {mode}" + ("" if mode in ("RGB", "L") else ": expected RGB"),
               "error" if mode not in ("RGBA", "P") else "warning")
    tts = _tts_uses(path, json_files) if wanted is None or wanted.output == "tts" else None
    if tts is not None:
        tts_profile = wanted or next((p for p in table.profiles.values()
                                      if p.output == "tts"), None)
        limit = tts_profile.max_sheet_px if tts_profile else 4096
        cols, rows = tts["grid"]
        whole = size[0] % cols == 0 and size[1] % rows == 0
        report.profile = tts_profile.name if tts_profile else "tts"
        report.add("size", size[0] <= limit and size[1] <= limit and whole,
                   f"{size[0]} x {size[1]} px, {cols} x {rows} grid of {tts['json']}"
                   + ("" if whole else ": not whole cells")
                   + ("" if max(size) <= limit else f": over {limit} px"))
        return
    matches = [(p, prod) for p, prod, w, h in _png_expected(table, wanted) if (w, h) == size]
    if matches:
        p, prod = matches[0]
        report.profile = p.name
        report.add("size", True, f"{size[0]} x {size[1]} px = {p.name} {prod} "
                   f"(trim + bleed at {p.dpi} dpi)")
        dpi = info.get("dpi")
        ppi = float(dpi[0]) if dpi else 0.0
        report.add("ppi", ppi >= p.dpi - 0.5,
                   f"{ppi:.0f} ppi in the file" if dpi else "no ppi in the file (pHYs)",
                   "warning")
    else:
        sizes = ", ".join(sorted({f"{p.name} {prod} {w} x {h}" for p, prod, w, h in
                                  _png_expected(table, wanted)}))
        report.add("size", False, f"{size[0]} x {size[1]} px matches no profile image "
                   f"({sizes or 'none'}) and no TTS saved object beside it uses it")
    try:
        with Image.open(path) as im:
            rgb = im if im.mode == "RGB" else im.convert("RGB")
            corners = [rgb.getpixel(xy) for xy in ((0, 0), (size[0] - 1, 0), (0, size[1] - 1),
                                                   (size[0] - 1, size[1] - 1))]
    except (OSError, ValueError) as exc:
        report.add("open", False, f"pixels unreadable ({exc})")
        return
    white = all(min(c[:3]) >= WHITE for c in corners)  # type: ignore[index]
    report.add("corners", not white,
               "all four corners are white: the art may not reach the bleed" if white
               else "art reaches the corners", "warning")


#: TTS's built-in dice (object names; pnp.printing.tts.STANDARD_DICE writes
#: these) and its other standard die shapes, which need no image.
_TTS_DICE = frozenset({"Die_4", "Die_6", "Die_6_Rounded", "Die_8", "Die_10", "Die_12",
                       "Die_20", "Die_Piecepack"})


def _check_tts_json(path: Path, report: Report, json_files: JsonFiles) -> None:
    """Check a TTS saved object: grids, ids, contained cards, images."""
    from PIL import Image

    report.profile = "tts"
    read = json_files.read(path)
    if read.error is not None:
        report.add("json", False, f"not JSON: {read.error}")
        return
    objects = list(_objects(read.data))
    if not objects:
        report.add("json", False, "no ObjectStates: not a TTS saved object")
        return
    problems: list[str] = []
    urls: set[str] = set()
    for obj in objects:
        name = obj.get("Name")
        decks = _table(obj.get("CustomDeck"))
        if not all(isinstance(d, dict) and all(isinstance(d.get(k, 0), int) for k in
                                               ("NumWidth", "NumHeight"))
                   for d in decks.values()):
            problems.append("a CustomDeck entry is not a table with whole-number NumWidth "
                            "and NumHeight")
            decks = {}
        for key, deck in decks.items():
            cols, rows = deck.get("NumWidth", 0), deck.get("NumHeight", 0)
            if not (1 <= cols <= 10 and 1 <= rows <= 7):
                problems.append(f"sheet {key}: grid {cols} x {rows} outside 10 x 7")
            urls.update(str(deck.get(k, "")) for k in ("FaceURL", "BackURL"))
        if name == "DeckCustom":
            ids = _list(obj.get("DeckIDs"))
            cards = _list(obj.get("ContainedObjects"))
            if not all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in ids):
                problems.append("DeckIDs: expected a list of whole numbers")
                ids = []
            if len(ids) != len(cards):
                problems.append(f"{len(ids)} DeckIDs but {len(cards)} contained cards")
            for cid, card in zip(ids, map(_table, cards)):
                if card.get("CardID") != cid:
                    problems.append(f"card {card.get('Nickname')}: CardID {card.get('CardID')} "
                                    f"!= DeckIDs entry {cid}")
                    break
            for cid in ids:
                key, cell = str(cid // 100), cid % 100
                deck = decks.get(key)
                if deck is None:
                    problems.append(f"id {cid}: no CustomDeck {key}")
                    break
                if cell >= deck.get("NumWidth", 0) * deck.get("NumHeight", 0) - 1 \
                        and deck.get("NumWidth", 0) * deck.get("NumHeight", 0) >= 70:
                    problems.append(f"id {cid}: uses the hidden-face cell")
                    break
                if cell >= deck.get("NumWidth", 0) * deck.get("NumHeight", 0):
                    problems.append(f"id {cid}: cell {cell} outside its sheet")
                    break
        if isinstance(name, str) and name.startswith("Die_") and name not in _TTS_DICE:
            problems.append(f"{name}: not a Tabletop Simulator standard die "
                            f"({', '.join(sorted(_TTS_DICE))})")
        if name == "Custom_Dice" and not _table(obj.get("CustomImage")).get("ImageURL"):
            problems.append("Custom_Dice without a CustomImage.ImageURL")
        image = _table(obj.get("CustomImage"))
        urls.update(str(image.get(k, "")) for k in ("ImageURL", "ImageSecondaryURL") if
                    image.get(k))
    report.add("objects", not problems, "; ".join(problems[:3]) if problems else
               f"{len(objects)} object(s); grids, ids and contained cards consistent")
    missing, big = [], []
    local = 0
    for url in sorted(u for u in urls if u):
        p = _url_path(url, path.parent)
        if p is None:
            continue
        local += 1
        if not p.is_file():
            missing.append(p.name)
            continue
        try:
            with Image.open(p) as im:
                if max(im.size) > 4096:
                    big.append(p.name)
        except (OSError, ValueError):
            missing.append(f"{p.name} (not a readable image)")
    report.add("images", not missing and not big,
               (f"missing: {', '.join(missing[:3])}" if missing else
                f"over 4096 px: {', '.join(big[:3])}" if big else
                f"{local} local image(s) present, within 4096 px"
                + ("" if local == len([u for u in urls if u]) else
                   f"; {len([u for u in urls if u]) - local} remote URL(s) not checked")))


def render_text(reports: list[Report]) -> str:
    """Return the human-readable report: one block per file and a summary line."""
    lines: list[str] = []
    for r in reports:
        head = "PASS" if r.ok else "FAIL"
        lines.append(f"{head} {r.path}" + (f"  [{r.profile}]" if r.profile else ""))
        for c in r.checks:
            mark = "ok " if c.ok else ("ERR" if c.level == "error" else
                                        "warn" if c.level == "warning" else "-- ")
            lines.append(f"  {mark:<4} {c.name}: {c.detail}")
    failed = sum(1 for r in reports if not r.ok)
    lines.append(f"{len(reports) - failed} file(s) ready, {failed} not ready")
    return "\n".join(lines) + "\n"
