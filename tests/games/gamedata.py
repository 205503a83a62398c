"""Games built from the project's card data, for engine tests (imported by name)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from pnp.data import load_game_data
from pnp.games import make_game
from pnp.games.api import Game

DATA = Path(__file__).resolve().parents[2] / "card_data"

_CACHE: dict[str, Any] = {}


def game_data(slug: str) -> Any:
    """The loaded card data of ``slug`` (loaded once per test session)."""
    if slug not in _CACHE:
        _CACHE[slug] = load_game_data(DATA, slug, strict=True)
    return _CACHE[slug]


def build_game(slug: str, params: Mapping[str, Any] | None = None) -> Game[Any]:
    """The engine of ``slug`` built from the project's data with ``params``."""
    return make_game(game_data(slug), params)
