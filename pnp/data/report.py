"""Inventory and problem reports for `pnp check` and `pnp list`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pnp.data.inventory import GameData, load_game_data
from pnp.data.manifest import Component, players_text
from pnp.errors import PnpError
from pnp.units import to_mm


def _size_mm(component: Component) -> dict[str, float] | None:
    if component.size is not None:
        return {"width_mm": round(to_mm(component.size[0]), 2),
                "height_mm": round(to_mm(component.size[1]), 2)}
    if component.diameter is not None:
        return {"diameter_mm": round(to_mm(component.diameter), 2)}
    return None


def component_inventory(game: GameData, component: Component) -> dict[str, Any]:
    """JSON-ready description of one component, with each distinct card's attributes."""
    rows = game.rows.get(component.id, [])
    entry: dict[str, Any] = {
        "name": component.name,
        "name_ja": component.name_ja,
        "kind": component.kind,
        "supply": component.supply,
        "expected_count": component.count,
        "quantity": sum(r.qty for r in rows) if component.table else component.count,
        "size": _size_mm(component),
        "sides": component.sides,
        "two_sided": component.two_sided,
        "provisional": component.provisional,
        "table": component.table,
        "note": component.note,
    }
    if component.table:
        entry["encoding"] = game.encodings.get(component.id)
        entry["cards"] = [dict(row.values) for row in rows]
    return entry


def game_inventory(game: GameData) -> dict[str, Any]:
    """JSON-ready inventory of one game plus its problems."""
    m = game.manifest
    return {
        "title": m.title,
        "title_ja": m.title_ja,
        "draft": m.draft,
        "players": {"min": m.players[0], "max": m.players[1]},
        "summary": m.summary,
        "components": {cid: component_inventory(game, comp)
                       for cid, comp in m.components.items()},
        "problems": [str(p) for p in game.problems],
    }


def load_many(data_dir: Path, slugs: list[str]) -> tuple[list[GameData], list[str]]:
    """Load every game; a manifest that cannot be parsed becomes a problem line."""
    games: list[GameData] = []
    fatal: list[str] = []
    for slug in slugs:
        try:
            games.append(load_game_data(data_dir, slug))
        except PnpError as exc:
            fatal.append(str(exc))
    return games, fatal


def list_lines(game: GameData) -> list[str]:
    """Human-readable lines for `pnp list`: the game and its components."""
    m = game.manifest
    # a title given once (第2話) is shown once
    names = m.title if m.title_ja in ("", m.title) else f"{m.title} ({m.title_ja})"
    lines = [f"{m.slug}  {names}{' ' + m.draft if m.draft else ''}  {players_text(*m.players)}"]
    for cid, comp in m.components.items():
        size = _size_mm(comp)
        if size and "width_mm" in size:
            dims = f"{size['width_mm']:g}×{size['height_mm']:g} mm"
        elif size:
            dims = f"⌀{size['diameter_mm']:g} mm"
        else:
            dims = f"d{comp.sides}" if comp.sides else ""
        flags = [comp.supply] + (["provisional"] if comp.provisional else []) + (
            ["two-sided"] if comp.two_sided else [])
        lines.append(f"  {cid:<14} {comp.count:>4} × {comp.kind:<6} {dims:<16} "
                     f"{comp.name} / {comp.name_ja}  [{', '.join(flags)}]")
    return lines
