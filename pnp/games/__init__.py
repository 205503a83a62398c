"""Rules engines, one package per game (``pnp/games/<slug>/``), found by slug.

See :mod:`pnp.games.api` for the conventions every engine follows and
:mod:`pnp.games.registry` for how packages register themselves.
"""

from pnp.games.registry import (GameEntry, engine_slugs, game_entry, make_game,
                                register_game, registered_games)

__all__ = ["GameEntry", "engine_slugs", "game_entry", "make_game", "register_game",
           "registered_games"]
