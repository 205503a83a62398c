"""`pnp preview`: PNG images of single cards for quick looks while editing."""

from __future__ import annotations

from pathlib import Path

from pnp.build.context import card_context
from pnp.build.decks import component_rows, printable_components, resolve_templates_dir
from pnp.data import load_game_data, resolve_data_dir, resolve_slugs
from pnp.errors import PnpError
from pnp.render.jinja_env import make_environment
from pnp.render.layout import render_layout
from pnp.render.preview import layout_to_png


def write_previews(slug: str, deck: str, card_ids: list[str], *, out_dir: Path | None,
                   dpi: int, show_bleed: bool, data_dir: Path | None,
                   templates_dir: Path | None) -> list[Path]:
    """Render the face (and back) of each requested card to PNG; return the paths."""
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
