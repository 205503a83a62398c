"""What a layout template receives for one card side."""

from __future__ import annotations

from typing import Any

from pnp.builder.cards import Tables
from pnp.data.inventory import GameData
from pnp.data.manifest import Component
from pnp.data.tables import Row
from pnp.units import to_mm


def _mm(points: float) -> str:
    return f"{round(to_mm(points), 3):g}mm"


def card_context(game: GameData, component: Component, row: Row | None,
                 side: str) -> dict[str, Any]:
    """The Jinja context for one side ("face" or "back") of one card.

    ``card`` is the card's typed table row (``None`` → empty mapping for a
    shared back); ``size``/``width``/``height`` come from the manifest, so a
    template never hard-codes the card size. ``tables`` gives the game's
    other tables (``tables.summary``), for player aids that quote them.
    """
    m = game.manifest
    width, height = component.size or (component.diameter, component.diameter)
    assert width is not None and height is not None
    return {
        "card": dict(row.values) if row is not None else {},
        "side": side,
        "component": {"id": component.id, "name": component.name,
                      "name_ja": component.name_ja, "count": component.count,
                      "kind": component.kind},
        "game": {"slug": m.slug, "title": m.title, "title_ja": m.title_ja,
                 "draft": m.draft, "players": list(m.players),
                 "constants": dict(m.constants)},
        "width": _mm(width),
        "height": _mm(height),
        "size": {"width": _mm(width), "height": _mm(height)},
        "tables": Tables(game),
    }
