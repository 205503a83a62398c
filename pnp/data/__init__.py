"""Card data: manifests, tables, count rules, and the inventory built from them."""

from pnp.data.inventory import (DEFAULT_DATA_DIR, GameData, game_slugs, load_cards,
                                load_game_data, resolve_data_dir, resolve_slugs)

__all__ = ["DEFAULT_DATA_DIR", "GameData", "game_slugs", "load_cards", "load_game_data",
           "resolve_data_dir", "resolve_slugs"]
