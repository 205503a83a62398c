"""`pnp preview`: PNG images of single cards and contact sheets, for the edit loop.

Imports are kept to the render core and the data loader (no print profiles,
no sheet planning) so one card renders in a fraction of a second; the
print-service variant (``--preset tgc``) imports the service code only when
asked for.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from pnp.builder.cards import (check_templates, component_rows, component_size, all_components,
                             resolve_templates_dir)
from pnp.builder.context import card_context
from pnp.data.inventory import GameData
from pnp.data.manifest import Component
from pnp.errors import PnpError
from pnp.fileio import atomic_path
from pnp.render.jinja_env import PnpEnvironment, make_environment
from pnp.render.layout import Layout, render_layout
from pnp.render.preview import draw_trim_guide, rasterise
from pnp.render.srcmap import small_texts, split_at

#: Called with 1 after each file written (the CLI's Ctrl-C test hook counts them).
Progress = Callable[[int], object]

#: Contact sheet: gap between cards and the caption band under each (points).
SHEET_GAP = 10.0
SHEET_CAPTION = 11.0
#: Caption text size (pt) and colour on the contact sheet.
CAPTION_SIZE = 7.0


def small_text_lines(slug: str, sides: Sequence[CardSide], templates: str) -> list[str]:
    """One warning line per template line whose text is too small on some of ``sides``.

    ``sides`` are the card sides just drawn; ``templates`` names the
    templates folder as messages show it. E.g. ``warning: fortuna/reel R03
    (and 5 more): text 4.0 pt below 6.5 pt (templates/fortuna/reel_face.xml.j2:42);
    pnp check fortuna for all``.
    """
    groups: dict[tuple[str, str | None, float, float], list[str]] = {}
    for side in sides:
        for small in small_texts(side.layout):
            where = small.at or side.layout.template
            key = (side.deck, where, round(small.size, 1), small.floor)
            cards = groups.setdefault(key, [])
            if side.card not in cards:
                cards.append(side.card)
    lines = []
    for (deck_id, at, size, floor), cards in groups.items():
        more = f" (and {len(cards) - 1} more)" if len(cards) > 1 else ""
        place = ""
        if at:
            name, line = split_at(at)
            place = f" ({templates}/{name}" + (f":{line})" if line else ")")
        lines.append(f"warning: {slug}/{deck_id} {cards[0]}{more}: text {size:.1f} pt below "
                     f"{floor:g} pt{place}; pnp check {slug} for all")
    return lines


@dataclass(frozen=True)
class CardSide:
    """One rendered side of one card: where it came from and its layout."""

    deck: str
    card: str
    side: str
    layout: Layout
    qty: int


def load_game(slug: str, data_dir: Path | None) -> GameData:
    """Load one game strictly (bad data, a bad rule parameter: a one-line error)."""
    from pnp.data import load_game_data, resolve_data_dir, resolve_slugs
    from pnp.data.manifest import check_constants

    root = resolve_data_dir(data_dir)
    (slug,) = resolve_slugs(root, [slug])
    game = load_game_data(root, slug, strict=True)
    # a starting HP the engine refuses would otherwise be drawn on the tracker
    check_constants(game.manifest)
    return game


def find_deck(game: GameData, deck: str, templates_dir: Path | None) -> Component:
    """Return the component called ``deck`` that has a layout, or a one-line PnpError.

    A mistyped id gets the closest deck's id as a hint; a component of the
    manifest that has no layout (dice, a bought deck's table) says so.
    """
    from pnp.data.suggest import unknown_name

    decks = {c.id: c for c in all_components(game, templates_dir)}
    if deck in decks:
        return decks[deck]
    if deck in game.manifest.components:
        raise PnpError(f"{game.slug}/{deck} has no layout to preview (no face template "
                       f"found); decks with one: {', '.join(decks) or 'none'}")
    raise PnpError(f"{game.slug}: " + unknown_name("deck", deck, decks))


def render_sides(env: PnpEnvironment, game: GameData, component: Component,
                 card_ids: list[str] | None = None, *, backs: bool = True) -> list[CardSide]:
    """Render the face (and back) of the named cards, or of every distinct card."""
    rows = {row.id: row for row in component_rows(game, component)}
    for card_id in card_ids or []:
        if card_id not in rows:
            from pnp.data.suggest import did_you_mean, known_names

            raise PnpError(f"{game.slug}/{component.id} has no card {card_id!r} "
                           f"({known_names(rows)}){did_you_mean(card_id, rows)}")
    out: list[CardSide] = []
    for card_id in card_ids or list(rows):
        row = rows[card_id]
        sides = [("face", component.face)]
        if backs and component.back:
            sides.append(("back", component.back))
        for side, template in sides:
            layout = render_layout(env, template or "",
                                   card_context(game, component, row, side),
                                   where=f"{game.slug}/{component.id} {card_id}")
            out.append(CardSide(component.id, card_id, side, layout, row.qty))
    return out


def _save(image: object, path: Path, dpi: int, progress: Progress | None = None) -> None:
    """Write a PIL image as PNG atomically (fast compression: previews are rewritten often).

    Complete or absent: the PNG is written to a temporary name and renamed
    (a Ctrl-C half-way leaves neither a cut-short image nor the temporary).
    """
    with atomic_path(path) as tmp:
        image.save(tmp, "PNG", dpi=(dpi, dpi), compress_level=1)  # type: ignore[attr-defined]
    if progress is not None:
        progress(1)


def write_card_pngs(sides: list[CardSide], folder: Path, dpi: int, show_bleed: bool,
                    progress: Progress | None = None) -> list[Path]:
    """Write one PNG per card side into ``folder`` (all pages of one PDF, one pass)."""
    from reportlab.pdfgen.canvas import Canvas

    from pnp.render.draw import FormCache
    from pnp.render.fonts import canvas_kwargs

    if not sides:
        return []
    buf = io.BytesIO()
    c = Canvas(buf, invariant=1, **canvas_kwargs())
    forms = FormCache(c)
    for s in sides:
        lay = s.layout
        b = lay.bleed if show_bleed else 0.0
        c.setPageSize((lay.width + 2 * b, lay.height + 2 * b))
        forms.place(lay, b, b)
        if show_bleed and b > 0:
            draw_trim_guide(c, b, lay)
        c.showPage()
    c.save()
    paths = []
    for s, image in zip(sides, rasterise(buf.getvalue(), dpi / 72.0)):
        path = folder / f"{s.card}-{s.side}.png"
        _save(image, path, dpi, progress)
        paths.append(path)
    return paths


def sheet_pdf(title: str, sides: list[CardSide]) -> bytes:
    """Return a one-page PDF showing ``sides`` in a grid with their ids (a contact sheet).

    Faces come first in table order, then each distinct back once.
    """
    from reportlab.pdfgen.canvas import Canvas

    from pnp.render.draw import FormCache
    from pnp.render.fonts import FONT_JA, canvas_kwargs

    faces = [s for s in sides if s.side == "face"]
    backs: dict[str, CardSide] = {}
    for s in sides:
        if s.side == "back" and s.layout.key not in backs:
            backs[s.layout.key] = s
    tiles = faces + list(backs.values())
    cw = max(t.layout.width for t in tiles)
    ch = max(t.layout.height for t in tiles)
    # about as wide as tall, at most 10 across
    cols = max(1, min(10, math.ceil(math.sqrt(len(tiles) * (ch + SHEET_CAPTION) / cw))))
    rows = math.ceil(len(tiles) / cols)
    head = 24.0
    width = cols * cw + (cols + 1) * SHEET_GAP
    height = head + rows * (ch + SHEET_CAPTION + SHEET_GAP) + SHEET_GAP
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(width, height), invariant=1, **canvas_kwargs())
    c.setFillColorRGB(0.93, 0.93, 0.93)
    c.rect(0, 0, width, height, stroke=0, fill=1)
    c.setFillColorRGB(0.1, 0.1, 0.1)
    c.setFont(FONT_JA, 12)
    c.drawString(SHEET_GAP, height - 17, title)
    forms = FormCache(c)
    for i, t in enumerate(tiles):
        col, row = i % cols, i // cols
        x = SHEET_GAP + col * (cw + SHEET_GAP)
        top = height - head - row * (ch + SHEET_CAPTION + SHEET_GAP)
        y = top - t.layout.height
        c.saveState()
        clip = c.beginPath()
        clip.rect(x, y, t.layout.width, t.layout.height)
        c.clipPath(clip, stroke=0, fill=0)
        forms.place(t.layout, x, y)
        c.restoreState()
        c.setFillColorRGB(0.15, 0.15, 0.15)
        c.setFont(FONT_JA, CAPTION_SIZE)
        label = t.card if t.side == "face" else f"back ({t.card})"
        if t.side == "face" and t.qty != 1:
            label += f"  ×{t.qty}"
        c.drawString(x, y - CAPTION_SIZE - 1.5, label)
    c.showPage()
    c.save()
    return buf.getvalue()


def write_sheet(game: GameData, component: Component, sides: list[CardSide], folder: Path,
                dpi: int, progress: Progress | None = None) -> Path:
    """Write the contact sheet PNG of one deck: every distinct card on one page."""
    title = f"{game.manifest.title} — {component.name} ({component.id}): " \
            f"{sum(1 for s in sides if s.side == 'face')} distinct cards"
    (image,) = rasterise(sheet_pdf(title, sides), dpi / 72.0)
    path = folder / f"{component.id}-sheet.png"
    _save(image, path, dpi, progress)
    return path


def preview_folder(out_dir: Path | None, slug: str) -> Path:
    """Create and return the preview folder (default ``output/<game>/preview``)."""
    folder = out_dir if out_dir is not None else Path("output") / slug / "preview"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PnpError(f"cannot create preview folder {folder}: {exc.strerror or exc}") from None
    return folder


def write_previews(slug: str, deck: str | None, card_ids: list[str], *, out_dir: Path | None,
                   dpi: int, show_bleed: bool, data_dir: Path | None,
                   templates_dir: Path | None, preset: str | None = None,
                   profiles_file: Path | None = None, sheet: bool = False,
                   env: PnpEnvironment | None = None,
                   progress: Progress | None = None,
                   warnings: list[str] | None = None) -> list[Path]:
    """Render the face (and back) of each requested card to PNG; return the paths.

    With ``sheet`` a contact sheet per deck is written instead (every deck
    of the game when ``deck`` is None). With ``preset`` (a card-png profile
    such as ``tgc``) the images are the exact service images: scaled to the
    service's trim, its bleed, its dpi. ``env`` reuses a warm Jinja
    environment (``pnp watch`` answering a preview). ``progress(1)`` follows
    each file written. ``warnings`` gets a line per text set too small on
    the cards drawn (:func:`small_text_lines`).
    """
    game = load_game(slug, data_dir)
    tdir = resolve_templates_dir(templates_dir)
    check_templates(game, tdir)
    if deck is None and not sheet:
        names = ", ".join(c.id for c in all_components(game, tdir))
        raise PnpError(f"name a deck of {game.slug} to preview (have: {names}), or use "
                       "--sheet for every deck's contact sheet")
    if env is None:
        env = make_environment(tdir)
    if sheet:
        if card_ids:
            raise PnpError("--sheet shows every distinct card of a deck: leave out the card ids")
        components = [find_deck(game, deck, tdir)] if deck else all_components(game, tdir)
        folder = preview_folder(out_dir, game.slug)
        written = []
        for comp in components:
            sides = render_sides(env, game, comp)
            _warn(warnings, game, sides, tdir)
            written.append(write_sheet(game, comp, sides, folder, dpi, progress))
        return written
    assert deck is not None
    component = find_deck(game, deck, tdir)
    if preset is not None:
        return _service_previews(game, component, env, card_ids, out_dir, preset,
                                 profiles_file, progress)
    sides = render_sides(env, game, component, card_ids)
    _warn(warnings, game, sides, tdir)
    return write_card_pngs(sides, preview_folder(out_dir, game.slug), dpi, show_bleed,
                           progress)


def _warn(warnings: list[str] | None, game: GameData, sides: list[CardSide],
          tdir: Path) -> None:
    """Add the small-text warnings of ``sides`` to ``warnings`` (if collecting)."""
    if warnings is not None:
        warnings.extend(small_text_lines(game.slug, sides, tdir.name))


def _service_previews(game: GameData, component: Component, env: PnpEnvironment,
                      card_ids: list[str], out_dir: Path | None, preset: str,
                      profiles_file: Path | None, progress: Progress | None = None
                      ) -> list[Path]:
    """Write the exact print-service images (a card-png profile) of the named cards."""
    from pnp.printing.geometry import Rect
    from pnp.printing.profiles import load_profiles
    from pnp.printing.service import (RasterJob, page_geometry, render_images, save_png,
                                      service_product)

    profile = load_profiles(profiles_file).get(preset)
    if profile.output != "card-png":
        raise PnpError(f"preview --preset {preset}: expected a profile that writes card "
                       "images (output = \"card-png\", e.g. tgc or mpc)")
    sides = render_sides(env, game, component, card_ids)
    folder = preview_folder(out_dir, game.slug)
    product = service_product(profile, component_size(component),
                              f"{game.slug}/{component.id}")
    page, trim = page_geometry(profile, product)
    k = profile.dpi / 72.0
    px_w, px_h = round(page.w * k), round(page.h * k)
    trim_px = Rect(trim.x * k, trim.y * k, trim.w * k, trim.h * k)
    jobs = [(folder / f"{s.card}-{s.side}-{profile.name}.png",
             RasterJob(s.layout, px_w, px_h, trim_px)) for s in sides]
    written = []
    for (path, _), image in zip(jobs, render_images([j for _, j in jobs])):
        save_png(image, path, profile.dpi)
        written.append(path)
        if progress is not None:
            progress(1)
    return written
