"""The card linter: render every card face and back and report what would print badly.

``pnp check`` calls :func:`lint_game` for each game. Every side of every
distinct card of every printable component (player aids and buyable decks
included) is rendered in memory — no PDF file is written — and checked:

========== ======== ==========================================================
check      severity what
========== ======== ==========================================================
syntax     error    template syntax error
undefined  error    a variable or field the template uses does not exist
icon       error    an icon (``<icon>`` or inline ``{icon:…}``) that no folder has
overflow   error    text that does not fit its box even at its ``min-size``
markup     error    any other markup fault (bad attribute, bad colour …)
card-size  error    the template draws a card of another size than the manifest's
text-size  error    body text under :data:`MIN_BODY_PT`, a one-line label under
                    :data:`MIN_LABEL_PT`
contrast   error    text under :data:`MIN_CONTRAST` against what is behind it
                    (:data:`MIN_CONTRAST_LARGE` for large text), WCAG 2 ratio
bleed      warning  art that stops short of the bleed on some edge
safe-area  warning  text closer than :data:`SAFE_MM` to the trim line
========== ======== ==========================================================

Each finding names the game, deck, card, side, and the template file and
line that wrote the element (see :mod:`pnp.render.srcmap`). Identical
layouts (a shared back) are checked once.

A designer's edit touches one row or one template, so the linter renders
through the build's markup and layout caches (:mod:`pnp.builder.markup_cache`)
and keeps each side's result on disk (:class:`LintStore`, the ``lint/``
folder of the pnp cache): a side whose markup key is unchanged is neither
rendered nor rasterised again, and the findings are those a fresh run gives.
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterable

from pnp.builder.cards import (component_rows, component_size, is_round, all_components,
                             resolve_templates_dir)
from pnp.builder.decks import render_side, side_keys
from pnp.builder.markup_cache import use_build_caches
from pnp.data.inventory import GameData
from pnp.errors import PnpError
from pnp.render import fonts
from pnp.render.colors import RGB
from pnp.render.diskcache import DiskCache, digest, open_cache
from pnp.render.jinja_env import PnpEnvironment, make_environment
from pnp.render.layout import Layout
from pnp.render.nodes import Group, Node, Text, draws_image
from pnp.render.pathdata import IDENTITY, Matrix, multiply
from pnp.render.srcmap import MIN_BODY_PT as MIN_BODY_PT
from pnp.render.srcmap import MIN_LABEL_PT as MIN_LABEL_PT
from pnp.render.srcmap import split_at
from pnp.units import POINTS_PER

# MIN_BODY_PT (smallest body text) and MIN_LABEL_PT (smallest one-line label,
# max-lines="1"), in pt, are defined beside the layout-only size check that
# watch, preview and build run (pnp.render.srcmap.small_texts): one pair of
# numbers for all of them.
#: WCAG 2 contrast minimum for body text, and for large text (≥ 18 pt, or
#: ≥ 14 pt in the bold ``display`` face).
MIN_CONTRAST = 4.5
MIN_CONTRAST_LARGE = 3.0
#: Text closer than this to the trim line risks the cutter (mm); small pieces
#: (tokens, stickers) use an eighth of their shorter side when that is less.
SAFE_MM = 3.0
SAFE_FRACTION = 1 / 8
#: Share of the background behind a text run that must meet the contrast:
#: a thin rule or a faint pattern under a few pixels does not fail a box,
#: a background that is too light under most of the text does.
CONTRAST_QUANTILE = 0.10
#: Raster resolution of the contrast and bleed checks (pixels per mm).
PX_PER_MM = 4.0
#: How far from the bleed edge the bleed check looks (mm); art must cover it.
BLEED_BAND_MM = 0.5
#: Card sizes may differ from the manifest's by this much (points).
SIZE_TOLERANCE = 0.5

MM = POINTS_PER["mm"]
_LARGE_BOLD_PT = 14.0
_LARGE_PT = 18.0


@dataclass(frozen=True)
class Finding:
    """One problem on one card side."""

    severity: str          # "error" or "warning"
    check: str
    game: str
    deck: str
    card: str
    side: str
    template: str | None   # as shown, e.g. "templates/fortuna/reel_face.xml.j2"
    line: int | None
    message: str

    def text(self) -> str:
        """One line: ``file:line: severity [check] game/deck card (side): message``."""
        where = ""
        if self.template:
            where = f"{self.template}:{self.line}: " if self.line else f"{self.template}: "
        return (f"{where}{self.severity} [{self.check}] {self.game}/{self.deck} {self.card} "
                f"({self.side}): {self.message}")

    def to_json(self) -> dict[str, Any]:
        """The finding as a JSON object."""
        return {"severity": self.severity, "check": self.check, "game": self.game,
                "deck": self.deck, "card": self.card, "side": self.side,
                "template": self.template, "line": self.line, "message": self.message}


# ---------------------------------------------------------------------------
# colour maths (WCAG 2)

def _channel(c: float) -> float:
    """Linearise one sRGB channel (0..1)."""
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


_LUT = [_channel(i / 255.0) for i in range(256)]


def luminance(rgb: RGB) -> float:
    """Relative luminance of an sRGB colour (components 0..1)."""
    r, g, b = rgb
    return 0.2126 * _channel(r) + 0.7152 * _channel(g) + 0.0722 * _channel(b)


def contrast(a: float, b: float) -> float:
    """WCAG contrast ratio of two relative luminances (1..21)."""
    hi, lo = (a, b) if a >= b else (b, a)
    return (hi + 0.05) / (lo + 0.05)


# ---------------------------------------------------------------------------
# walking a layout

def _texts(nodes: Iterable[Node], m: Matrix = IDENTITY
           ) -> Iterable[tuple[Text, Matrix]]:
    """Yield every text box with the matrix from its coordinates to the card's."""
    for n in nodes:
        if isinstance(n, Text):
            yield n, m
        elif isinstance(n, Group):
            yield from _texts(n.children, multiply(m, n.transform) if n.transform else m)


def _without_text(nodes: tuple[Node, ...]) -> tuple[Node, ...]:
    """The nodes with every text box removed (what is behind the text)."""
    out: list[Node] = []
    for n in nodes:
        if isinstance(n, Text):
            continue
        if isinstance(n, Group):
            kids = _without_text(n.children)
            if kids:
                out.append(replace(n, children=kids))
            continue
        out.append(n)
    return tuple(out)


def _apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    """Map a point through matrix ``m``."""
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def _run_width(text: str, font: str, size: float, spacing: float) -> float:
    """Advance width of a run in points."""
    return sum(fonts.char_width(font, ord(ch)) for ch in text) * size + spacing * len(text)


def _run_box(run: Any, m: Matrix) -> tuple[float, float, float, float]:
    """The card-space box (x0, y0, x1, y1) of a run's glyphs (em box, ascent 0.88)."""
    w = _run_width(run.text, run.font, run.size, run.spacing)
    top = run.y - fonts.EM_ASCENT * run.size
    bottom = run.y + (1 - fonts.EM_ASCENT) * run.size
    pts = [_apply(m, x, y) for x in (run.x, run.x + w) for y in (top, bottom)]
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


class _Raster:
    """A card side without its text, rendered over transparency at PX_PER_MM."""

    def __init__(self, layout: Layout) -> None:
        from reportlab.pdfgen.canvas import Canvas

        from pnp.render.draw import draw_layout
        from pnp.render.fonts import canvas_kwargs
        import pypdfium2 as pdfium

        self.layout = layout
        b = layout.bleed
        bare = replace(layout, nodes=_without_text(layout.nodes), key=layout.key + "-bare")
        buf = io.BytesIO()
        c = Canvas(buf, pagesize=(layout.width + 2 * b, layout.height + 2 * b), invariant=1,
                   **canvas_kwargs())
        c.translate(b, b)
        draw_layout(c, bare)
        c.showPage()
        c.save()
        self.scale = PX_PER_MM / MM          # pixels per point
        pdf = pdfium.PdfDocument(buf.getvalue())
        try:
            page = pdf[0]
            self.image = page.render(scale=self.scale, fill_color=(255, 255, 255, 0)) \
                .to_pil().convert("RGBA")
            page.close()
        finally:
            pdf.close()
        self.b = b

    def box(self, x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
        """Pixel box of a card-space rectangle (points, trim origin, y down)."""
        k = self.scale
        w, h = self.image.size
        return (max(0, int((x0 + self.b) * k)), max(0, int((y0 + self.b) * k)),
                min(w, int((x1 + self.b) * k + 0.999)), min(h, int((y1 + self.b) * k + 0.999)))

    def colours(self, box: tuple[int, int, int, int]) -> list[tuple[int, tuple[int, ...]]]:
        """(count, RGBA) of the pixels in ``box``."""
        x0, y0, x1, y1 = box
        if x1 <= x0 or y1 <= y0:
            return []
        crop = self.image.crop(box)
        return crop.getcolors((x1 - x0) * (y1 - y0)) or []


def _over_white(px: tuple[int, ...]) -> tuple[float, float, float]:
    """An RGBA pixel composited over white paper, as 0..1 RGB."""
    r, g, b, a = px
    t = a / 255.0
    return (r / 255.0 * t + (1 - t), g / 255.0 * t + (1 - t), b / 255.0 * t + (1 - t))


def _worst_contrast(colour: RGB, opacity: float,
                    pixels: list[tuple[int, tuple[int, ...]]]) -> float | None:
    """The contrast met by all but the worst CONTRAST_QUANTILE of the pixels."""
    if not pixels:
        return None
    ratios = []
    for count, px in pixels:
        bg = _over_white(px)
        fg = tuple(colour[i] * opacity + bg[i] * (1 - opacity) for i in range(3))
        ratios.append((contrast(luminance(fg), luminance(bg)), count))  # type: ignore[arg-type]
    ratios.sort()
    total = sum(c for _, c in ratios)
    skip = total * CONTRAST_QUANTILE
    seen = 0
    for ratio, count in ratios:
        seen += count
        if seen > skip:
            return ratio
    return ratios[-1][0]


# ---------------------------------------------------------------------------
# the checks of one rendered side

@dataclass
class _Card:
    """What a finding needs to name the card."""

    game: str
    deck: str
    card: str
    side: str
    templates: str      # "templates"


def _loc(card: _Card, at: str | None, fallback: str | None) -> tuple[str | None, int | None]:
    """(shown template path, line) from an ``_at`` value or the side's template."""
    if at:
        name, line = split_at(at)
        return f"{card.templates}/{name}", line
    return (f"{card.templates}/{fallback}" if fallback else None), None


def check_layout(layout: Layout, card: _Card, round_piece: bool = False) -> list[Finding]:
    """Text size, contrast, safe area and bleed of one rendered side.

    ``round_piece``: the piece is cut along the circle inscribed in its box
    (a round token), so the safe area is measured from that circle.
    """
    out: list[Finding] = []

    def add(severity: str, check: str, at: str | None, message: str) -> None:
        template, line = _loc(card, at, layout.template)
        out.append(Finding(severity, check, card.game, card.deck, card.card, card.side,
                           template, line, message))

    texts = [(t, m) for t, m in _texts(layout.nodes) if t.runs]
    raster = _Raster(layout) if texts or layout.bleed > 0 else None
    safe_mm = min(SAFE_MM, SAFE_FRACTION * min(layout.width, layout.height) / MM)
    safe = safe_mm * MM
    for t, m in texts:
        name = f"text box {t.id!r}" if t.id else "a text box"
        label = t.max_lines == 1
        scale = (abs(m[0] * m[3] - m[1] * m[2])) ** 0.5     # size after transforms
        size = t.size * scale
        floor = MIN_LABEL_PT if label else MIN_BODY_PT
        if size < floor - 1e-6:
            kind = "one-line label" if label else "body text"
            add("error", "text-size", t.at,
                f"{name} is set at {size:.2f} pt; {kind} needs at least {floor:g} pt "
                f"(raise size/min-size or give the text more room)")
        # contrast, run by run; the box reports its worst run
        worst: tuple[float, float, RGB] | None = None
        x0 = y0 = float("inf")
        x1 = y1 = float("-inf")
        for run in t.runs:
            if not run.text.strip():
                continue
            bx0, by0, bx1, by1 = _run_box(run, m)
            x0, y0, x1, y1 = min(x0, bx0), min(y0, by0), max(x1, bx1), max(y1, by1)
            if raster is None:
                continue
            ratio = _worst_contrast(run.color, t.opacity, raster.colours(
                raster.box(bx0, by0, bx1, by1)))
            if ratio is None:
                continue
            large = run.size * scale >= (_LARGE_BOLD_PT if run.font == fonts.FONT_DISPLAY
                                         else _LARGE_PT)
            need = MIN_CONTRAST_LARGE if large else MIN_CONTRAST
            if ratio < need and (worst is None or ratio / need < worst[0] / worst[1]):
                worst = (ratio, need, run.color)
        if worst is not None:
            ratio, need, colour = worst
            from pnp.render.colors import to_hex

            add("error", "contrast", t.at,
                f"{name}: text {to_hex(colour)} has contrast {ratio:.2f}:1 against what is "
                f"behind it; needs {need:g}:1 (darken/lighten the text or its background)")
        if x0 != float("inf"):
            if round_piece:
                # the farthest corner of the text's box from the circle's centre
                r = min(layout.width, layout.height) / 2
                cx, cy = layout.width / 2, layout.height / 2
                far = max(((x - cx) ** 2 + (y - cy) ** 2) ** 0.5
                          for x in (x0, x1) for y in (y0, y1))
                gap = r - far
            else:
                gap = min(x0, y0, layout.width - x1, layout.height - y1)
            if gap < safe - 0.05 * MM:
                add("warning", "safe-area", t.at,
                    f"{name} comes within {gap / MM:.1f} mm of the cut line; keep text at "
                    f"least {safe_mm:g} mm inside so the cutter cannot touch it")
    if raster is not None and layout.bleed > 0:
        band = min(BLEED_BAND_MM * MM, layout.bleed)
        w, h, b = layout.width, layout.height, layout.bleed
        edges = {"left": (-b, -b, -b + band, h + b), "right": (w + b - band, -b, w + b, h + b),
                 "top": (-b, -b, w + b, -b + band), "bottom": (-b, h + b - band, w + b, h + b)}
        short = []
        for edge, rect in edges.items():
            px = raster.colours(raster.box(*rect))
            total = sum(c for c, _ in px)
            bare = sum(c for c, p in px if p[3] < 250)
            if total and bare / total > 0.01:
                short.append(f"{edge} ({100 * bare / total:.0f} % bare)")
        if short:
            add("warning", "bleed", layout.at,
                f"art stops short of the {b / MM:g} mm bleed on the {', '.join(short)} edge(s): "
                "run backgrounds past the trim (e.g. <background/>, or x=\"-3\")")
    return out


# ---------------------------------------------------------------------------
# games

_CHECKS = (("template syntax error", "syntax"), ("undefined variable", "undefined"),
           ("unknown icon", "icon"), ("bad icon name", "icon"), ("does not fit", "overflow"))
_PREFIX = re.compile(r"^.*?: (?=templates?/|\S+\.xml\.j2)")


def _error_finding(exc: PnpError, card: _Card, template: str | None) -> Finding:
    """Turn a rendering error into a finding (template file and line when known)."""
    message = getattr(exc, "detail", None) or exc.message
    check = next((c for key, c in _CHECKS if key in message), "markup")
    path: str | None
    line: int | None
    if getattr(exc, "template", None):
        path, line = f"{card.templates}/{exc.template}", exc.template_line  # type: ignore[attr-defined]
    elif exc.path is not None:
        path, line = exc.path.as_posix(), exc.line
    else:
        path, line = (f"{card.templates}/{template}" if template else None), None
    message = re.sub(r" \(rendering [^)]*\)$", "", message)
    return Finding("error", check, card.game, card.deck, card.card, card.side, path, line,
                   message)


# ---------------------------------------------------------------------------
# lint results kept across runs

#: Most bytes the lint cache keeps on disk (an entry is ~0.2 KB; the five
#: shipped games make ~2,000).
LINT_DISK_LIMIT = 16 * 2**20
#: Bump when an entry's key or payload changes shape.
LINT_FORMAT = "lint-1"

#: A finding without the card it was found on: (severity, check, template, line, message).
Unnamed = tuple[str, str, str | None, int | None, str]


@dataclass(frozen=True)
class SideResult:
    """What linting one rendered side found, whichever card it was on.

    ``width``/``height`` feed the card-size check (the manifest's size is
    compared anew on every run); ``layout_key`` is the layout's
    :attr:`Layout.key`, so identical sides are still reported once.
    ``findings`` is None when the side was not checked because an identical
    layout was checked before it in that run.
    """

    width: float
    height: float
    layout_key: str
    findings: tuple[Unnamed, ...] | None


class LintStore:
    """Each card side's lint result on disk, keyed by its markup key.

    A side's markup key (:func:`pnp.builder.decks.side_keys`) covers
    everything its layout depends on: the card's context, the template, the
    content of every file in the templates folder (icons included), pnp's
    code and the fonts. The lint key adds what :func:`check_layout` also
    depends on: the linter's own code and the libraries it rasterises with
    (pnp's code stamp), the fonts, whether the piece is round and the
    templates folder's name (findings show it). Sides that draw a raster
    image are never kept (the key does not cover its pixels), nor sides
    that failed to render (an error must be found on every run).
    """

    def __init__(self, cache: DiskCache, salt: str) -> None:
        """Keep results in ``cache``; ``salt`` covers the code and the fonts."""
        self.cache = cache
        self.salt = salt

    def key(self, markup_key: str, *, round_piece: bool, templates: str) -> str:
        """The key of one side's result."""
        return digest(LINT_FORMAT, self.salt, markup_key, "round" if round_piece else "-",
                      templates)

    def get(self, key: str) -> SideResult | None:
        """The result stored under ``key``, or None (missing, damaged or foreign)."""
        data = self.cache.get(key)
        if data is None:
            return None
        try:
            raw = json.loads(data.decode("utf-8"))
            found = raw["findings"]
            findings = None if found is None else tuple(
                (str(sev), str(check), None if t is None else str(t),
                 None if line is None else int(line), str(msg))
                for sev, check, t, line, msg in found)
            return SideResult(float(raw["width"]), float(raw["height"]),
                              str(raw["layout_key"]), findings)
        except (ValueError, KeyError, TypeError):  # not an entry of this format: a miss
            return None

    def put(self, key: str, result: SideResult) -> None:
        """Keep ``result`` under ``key``."""
        raw = {"width": result.width, "height": result.height,
               "layout_key": result.layout_key,
               "findings": None if result.findings is None else [list(f) for f in
                                                                 result.findings]}
        # floats go out as repr, so they read back exactly
        self.cache.put(key, json.dumps(raw, ensure_ascii=False, sort_keys=True).encode("utf-8"))


def lint_salt() -> str:
    """What every kept lint result depends on besides its side's markup key.

    pnp's code stamp, without the engines, simulator, rulebook and print
    code that no lint reads (it covers this module and the renderer, and
    ReportLab, pdfium and Pillow, which draw the raster the contrast and
    bleed checks read), and the font files (the runs' widths).
    """
    from pnp.builder.serve import NOT_IN_PREVIEWS, code_stamp
    from pnp.render.fonts import FONT_DISPLAY, FONT_JA, FONT_LATIN, font_tag

    return "|".join([LINT_FORMAT, code_stamp(NOT_IN_PREVIEWS),
                     *(font_tag(name) for name in (FONT_JA, FONT_DISPLAY, FONT_LATIN))])


def open_lint_store() -> LintStore | None:
    """The ``lint/`` folder of the pnp cache, or None (no folder, or ``PNP_BUILD_CACHE=0``)."""
    cache = open_cache("lint", LINT_DISK_LIMIT)
    return LintStore(cache, lint_salt()) if cache is not None else None


def _unnamed(findings: Iterable[Finding]) -> tuple[Unnamed, ...]:
    """The findings without the card they were found on."""
    return tuple((f.severity, f.check, f.template, f.line, f.message) for f in findings)


def _named(findings: Iterable[Unnamed], card: _Card) -> list[Finding]:
    """Stored findings, named after the card they are reported on now."""
    return [Finding(sev, check, card.game, card.deck, card.card, card.side, template, line,
                    message) for sev, check, template, line, message in findings]


class Linter:
    """Lints games with one Jinja environment (compiled templates shared).

    With ``caches`` (the default) it renders through the build's markup and
    layout caches and keeps each side's result in the lint cache
    (:class:`LintStore`); ``PNP_BUILD_CACHE=0`` turns them off as for
    ``pnp build``. The findings are the same either way.
    """

    def __init__(self, templates_dir: Path | None = None, *, caches: bool = True) -> None:
        """Lint the templates in ``templates_dir`` (the project's ``templates/`` if None)."""
        self.templates_dir = resolve_templates_dir(templates_dir)
        self.env: PnpEnvironment = make_environment(self.templates_dir)
        #: Per layout key: its findings (an identical side is reported once).
        self._seen: dict[str, list[Finding]] = {}
        self.store: LintStore | None = None
        if caches:
            use_build_caches(self.env)
            # without markup keys (a templates folder using random) nothing could be kept
            if self.env.markup_store is not None:
                self.store = open_lint_store()

    def count_sides(self, game: GameData) -> int:
        """How many card sides :meth:`lint_game` looks at (the length of its progress)."""
        return sum(len(component_rows(game, c)) * (2 if c.back else 1)
                   for c in all_components(game, self.templates_dir))

    def lint_game(self, game: GameData,
                  progress: Callable[[int], None] | None = None) -> list[Finding]:
        """Every finding on every side of every distinct card of ``game``.

        ``progress`` is called with the number of sides done after each card
        (a cold lint renders every side, seconds for a large game).
        """
        found: list[Finding] = []
        label = self.templates_dir.name
        for component in all_components(game, self.templates_dir):
            expected = component_size(component)
            round_piece = is_round(component)
            for row in component_rows(game, component):
                sides = [("face", component.face)]
                if component.back:
                    sides.append(("back", component.back))
                if progress is not None:
                    progress(len(sides))
                keys = side_keys(self.env, game, component, row) if self.store else None
                for (side, template), markup_key in zip(sides, keys or (None, None)):
                    card = _Card(game.slug, component.id, row.id, side, label)
                    key = (self.store.key(markup_key, round_piece=round_piece, templates=label)
                           if self.store is not None and markup_key is not None else None)
                    kept = self.store.get(key) if self.store is not None and key else None
                    if kept is not None and kept.findings is None \
                            and kept.layout_key not in self._seen:
                        # kept unchecked (an identical side came first), but that side
                        # changed since: this one is checked now
                        kept = None
                    layout: Layout | None = None
                    if kept is None:
                        try:
                            layout = render_side(self.env, game, component, row, side,
                                                 f"{game.slug}/{component.id} {row.id}")
                        except PnpError as exc:
                            found.append(_error_finding(exc, card, template))
                            continue
                        width, height, layout_key = layout.width, layout.height, layout.key
                    else:
                        width, height, layout_key = kept.width, kept.height, kept.layout_key
                    if (abs(width - expected[0]) > SIZE_TOLERANCE
                            or abs(height - expected[1]) > SIZE_TOLERANCE):
                        found.append(Finding(
                            "error", "card-size", game.slug, component.id, row.id, side,
                            f"{label}/{template}", None,
                            f"the template draws a {width / MM:.1f}×"
                            f"{height / MM:.1f} mm card but the manifest says "
                            f"{expected[0] / MM:.1f}×{expected[1] / MM:.1f} mm: use "
                            "width/height from the context in <card>"))
                    checked: list[Finding] | None = None
                    if layout_key not in self._seen:
                        if kept is not None and kept.findings is not None:
                            checked = _named(kept.findings, card)
                        else:
                            assert layout is not None
                            checked = check_layout(layout, card, round_piece)
                        self._seen[layout_key] = checked
                        found.extend(checked)
                    # else: an identical side (a shared back) is reported once
                    if (layout is not None and key is not None and self.store is not None
                            and not draws_image(layout.nodes)):
                        self.store.put(key, SideResult(
                            width, height, layout_key,
                            None if checked is None else _unnamed(checked)))
        return found


def lint_game(game: GameData, templates_dir: Path | None = None) -> list[Finding]:
    """Lint one game (see :class:`Linter`)."""
    return Linter(templates_dir).lint_game(game)


def summary_lines(findings: Iterable[Finding], show: int = 3) -> list[str]:
    """One line per template line, check and deck, naming how many cards it hits.

    The same template line usually fails on many cards of a deck; the text
    report shows the first (worst-ordered as found) and counts the rest, the
    JSON report keeps every card.
    """
    groups: dict[tuple[Any, ...], list[Finding]] = {}
    for f in findings:
        groups.setdefault((f.severity, f.check, f.template, f.line, f.game, f.deck),
                          []).append(f)
    out = []
    for group in groups.values():
        line = group[0].text()
        if len(group) > 1:
            others = [f.card for f in group[1:]]
            names = ", ".join(dict.fromkeys(others[:show]))
            more = f" …" if len(others) > show else ""
            line += f" (also {len(others)} more: {names}{more})"
        out.append(line)
    return out
