"""Registry of rules engines: each game package registers itself on import.

Like OpenSpiel's ``register_game``: ``pnp/games/<slug>/__init__.py`` calls
:func:`register_game` with its :class:`~pnp.games.api.Game` subclass, its bots
and (optionally) its report figures. :func:`registered_games` imports every
sub-package of :mod:`pnp.games` once, so adding a game is adding a package.

A game whose :class:`~pnp.games.api.Game` class defines
``state_from_observation(observation)`` also gets the generic searching bot
(:class:`~pnp.games.search.SearchBot`, ``--bots mcts``) without naming it.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from difflib import get_close_matches
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping

from pnp.errors import PnpError
from pnp.games.api import Game
from pnp.games.bots import Bot, RandomBot
from pnp.games.search import Evaluation, SearchBot, can_search, register_evaluation
from pnp.games.stats import GameStats

if TYPE_CHECKING:
    from pnp.data.inventory import GameData


@dataclass(frozen=True)
class GameEntry:
    """One registered engine: its game class, bots and report figures."""

    game: type[Game[Any]]
    bots: Mapping[str, type[Bot]]
    stats: type[GameStats] | None = None
    #: The game's own data checks for ``pnp check`` (one line per problem).
    check_data: "DataCheck | None" = None
    #: What the game's length (``State.turns``) counts, plural, as the
    #: simulation reports name it: "turns" unless the game registers its own
    #: word (a game counting attacks says "attacks").
    length_unit: str = "turns"

    @property
    def slug(self) -> str:
        """The game's slug."""
        return self.game.slug


#: A game's own data check: the loaded data → one line per problem.
DataCheck = Callable[["GameData"], list[str]]

_REGISTRY: dict[str, GameEntry] = {}
_DISCOVERED = False


def register_game(game: type[Game[Any]], *, bots: tuple[type[Bot], ...] = (),
                  stats: type[GameStats] | None = None,
                  check_data: DataCheck | None = None, length_unit: str = "turns",
                  evaluate: Evaluation | None = None) -> None:
    """Register ``game`` with its ``bots`` (the random bot is always added, and
    the searching bot ``mcts`` when the game can build a position from an
    observation).

    ``stats`` adds the game's own report figures; ``check_data`` the game's
    own data checks (e.g. card effects the engine interprets), which
    ``pnp check`` runs before simulating; ``length_unit`` what ``State.turns``
    counts (plural), as reports name a game's length; ``evaluate`` the
    searching bot's position evaluation for truncated playouts
    (``mcts:ITER:dDEPTH``, :func:`pnp.games.search.register_evaluation`).
    """
    table: dict[str, type[Bot]] = {RandomBot.name: RandomBot}
    for bot in bots:
        if bot.name in table:
            raise PnpError(f"{game.slug}: two bots named {bot.name!r}")
        table[bot.name] = bot
    if can_search(game) and SearchBot.name not in table:
        table[SearchBot.name] = SearchBot
    if evaluate is not None:
        register_evaluation(game, evaluate)
    _REGISTRY[game.slug] = GameEntry(game, table, stats, check_data, length_unit)


def registered_games() -> dict[str, GameEntry]:
    """Every registered engine by slug, importing the game packages once."""
    global _DISCOVERED
    if not _DISCOVERED:
        # The game packages are this module's siblings (read off the folder,
        # not by importing pnp.games, which imports this module).
        for info in pkgutil.iter_modules([str(Path(__file__).parent)]):
            if info.ispkg:
                importlib.import_module(f"{__package__}.{info.name}")
        _DISCOVERED = True
    return dict(sorted(_REGISTRY.items()))


def engine_slugs() -> list[str]:
    """Slugs of games that have a rules engine."""
    return list(registered_games())


def game_entry(slug: str) -> GameEntry:
    """The registered engine for ``slug``; a one-line error (with a hint) if none."""
    games = registered_games()
    if slug not in games:
        hint = get_close_matches(slug, list(games), n=1)
        # a designer's own game has cards and a rulebook but no engine: say
        # what one is and where it would live, not only that it is missing
        extra = (f"; did you mean {hint[0]!r}?" if hint else
                 f"; playing a game needs a rules engine, a Python package "
                 f"pnp/games/{slug}/ (docs/engines.md)")
        raise PnpError(f"no rules engine for game {slug!r} (have: "
                       f"{', '.join(games)}){extra}")
    return games[slug]


def make_game(data: "GameData", params: Mapping[str, Any] | None = None) -> Game[Any]:
    """Build the engine of ``data``'s game from the already loaded data.

    Raises :class:`PnpError` when the data has problems (``pnp check`` lists
    them all), when no engine exists, or on a bad parameter.
    """
    entry = game_entry(data.slug)
    if data.problems:
        raise PnpError(f"{data.problems[0]} (run `pnp check {data.slug}` for every problem)")
    return entry.game(data, params)
