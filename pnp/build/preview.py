"""`pnp preview`: PNG images of single cards for quick looks while editing."""

from __future__ import annotations

from pathlib import Path

from pnp.build.context import card_context
from pnp.build.decks import (component_rows, component_size, printable_components,
                             resolve_templates_dir)
from pnp.data import load_game_data, resolve_data_dir, resolve_slugs
from pnp.errors import PnpError
from pnp.printing.geometry import Rect
from pnp.printing.profiles import load_profiles
from pnp.printing.service import (RasterJob, page_geometry, render_images, save_png,
                                  service_product)
from pnp.render.jinja_env import make_environment
from pnp.render.layout import render_layout
from pnp.render.preview import layout_to_png


def write_previews(slug: str, deck: str, card_ids: list[str], *, out_dir: Path | None,
                   dpi: int, show_bleed: bool, data_dir: Path | None,
                   templates_dir: Path | None, preset: str | None = None,
                   profiles_file: Path | None = None) -> list[Path]:
    """Render the face (and back) of each requested card to PNG; return the paths.

    With ``preset`` (a card-png profile such as ``tgc``) the images are the
    exact service images: scaled to the service's trim, its bleed, its dpi.
    """
    profile = None
    if preset is not None:
        profile = load_profiles(profiles_file).get(preset)
        if profile.output != "card-png":
            raise PnpError(f"preview --preset {preset}: expected a profile that writes card "
                           "images (output = \"card-png\", e.g. tgc or mpc)")
    root = resolve_data_dir(data_dir)
    (slug,) = resolve_slugs(root, [slug])
    game = load_game_data(root, slug, strict=True)
    decks = {c.id: c for c in printable_components(game)}
    if deck not in decks:
        raise PnpError(f"{slug} has no printable deck {deck!r} with a layout "
                       f"(have: {', '.join(decks) or 'none'})")
    component = decks[deck]
    rows = {row.id: row for row in component_rows(game, component)}
    for card_id in card_ids:
        if card_id not in rows:
            raise PnpError(f"{slug}/{deck} has no card {card_id!r} (ids look like "
                           f"{next(iter(rows))!r}; see {component.table})")
    env = make_environment(resolve_templates_dir(templates_dir))
    folder = out_dir if out_dir is not None else Path("output") / slug / "preview"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PnpError(f"cannot create {folder}: {exc.strerror or exc}") from None
    written: list[Path] = []
    if profile is not None:
        product = service_product(profile, component_size(component), f"{slug}/{deck}")
        page, trim = page_geometry(profile, product)
        k = profile.dpi / 72.0
        px_w, px_h = round(page.w * k), round(page.h * k)
        trim_px = Rect(trim.x * k, trim.y * k, trim.w * k, trim.h * k)
        jobs: list[tuple[Path, RasterJob]] = []
        for card_id in card_ids or list(rows):
            row = rows[card_id]
            sides = [("face", component.face)] + ([("back", component.back)]
                                                  if component.back else [])
            for side, template in sides:
                layout = render_layout(env, template or "",
                                       card_context(game, component, row, side),
                                       where=f"{slug}/{deck} {card_id}")
                jobs.append((folder / f"{card_id}-{side}-{profile.name}.png",
                             RasterJob(layout, px_w, px_h, trim_px)))
        for (path, _), image in zip(jobs, render_images([j for _, j in jobs])):
            save_png(image, path, profile.dpi)
            written.append(path)
        return written
    for card_id in card_ids or list(rows):
        row = rows[card_id]
        sides = [("face", component.face)] + ([("back", component.back)]
                                              if component.back else [])
        for side, template in sides:
            layout = render_layout(env, template or "", card_context(game, component, row,
                                                                     side),
                                   where=f"{slug}/{deck} {card_id}")
            path = folder / f"{card_id}-{side}.png"
            layout_to_png(layout, path, dpi=dpi, show_bleed=show_bleed)
            written.append(path)
    return written
