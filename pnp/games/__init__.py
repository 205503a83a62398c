"""Registry of rules engines, found by game slug."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any, Mapping

from pnp.errors import PnpError
from pnp.games.api import Game

#: slug -> "module:Class"; modules are imported lazily.
_ENGINES: dict[str, str] = {
    "fortuna": "pnp.games.fortuna:FortunaGame",
    "nine_peak": "pnp.games.nine_peak:NinePeakGame",
}


def engine_slugs() -> list[str]:
    """Slugs of games that have a rules engine."""
    return sorted(_ENGINES)


def load_game(slug: str, params: Mapping[str, Any] | None = None,
              data_dir: Path | None = None) -> Game:
    """Return the :class:`Game` for ``slug`` with ``params`` applied."""
    if slug not in _ENGINES:
        from difflib import get_close_matches
        hint = get_close_matches(slug, list(_ENGINES), n=1)
        extra = f"; did you mean {hint[0]!r}?" if hint else ""
        raise PnpError(f"no rules engine for game {slug!r} (have: "
                       f"{', '.join(engine_slugs())}){extra}")
    module_name, class_name = _ENGINES[slug].split(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    return cls(params=params, data_dir=data_dir)
