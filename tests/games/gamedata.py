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


def fingerprint(slug: str, players: int, bots: tuple[str, ...], games: int,
                events: bool = False) -> str:
    """SHA-256 of ``games`` seeded games, as the simulator seeds and seats them.

    Deal and bot seeds come from ``derive_seed``, bots are rotated round the
    table by game index and forced moves are not asked. Each game records its
    actions, returns, sorted winners and length (and, with ``events``, its
    rule counters), so any change to a seeded game or a bot's choice shows.
    """
    import hashlib
    import json
    import random

    from pnp.games import registered_games
    from pnp.sim.runner import derive_seed

    game = build_game(slug)
    table = registered_games()[slug].bots
    h = hashlib.sha256()
    for g in range(games):
        seats = [bots[(i + g) % len(bots)] for i in range(players)]
        seated = [table[name](game, i, random.Random(derive_seed(1, g, f"bot{i}")))
                  for i, name in enumerate(seats)]
        state = game.new_initial_state(players, derive_seed(1, g, "deal"))
        actions = []
        while not state.is_terminal():
            p = state.current_player()
            legal = state.legal_actions()
            if len(legal) > 1:
                bot = seated[p]
                action = bot.act(state.observation(p) if bot.needs_observation else None, legal)
            else:
                action = legal[0]
            actions.append(action)
            state.apply_action(action)
        rec: list[Any] = [actions, list(state.returns()), sorted(state.winners()), state.turns()]
        if events:
            rec.append(sorted(state.events().items()))
        h.update(json.dumps(rec).encode())
    return h.hexdigest()


def play_in_lockstep(a: Any, b: Any, seed: int) -> None:
    """Play states ``a`` and ``b`` to the end with the same random moves, asserting equal legal lists."""
    import random

    rng = random.Random(seed)
    while not a.is_terminal():
        legal = a.legal_actions()
        assert b.legal_actions() == legal
        action = legal[int(rng.random() * len(legal))]
        a.apply_action(action)
        b.apply_action(action)
