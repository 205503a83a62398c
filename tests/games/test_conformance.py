"""Every registered engine against the shared contract of ``pnp.games.api``.

Seeded random playouts at every player count, checking at every step: the
simulator's invariants (conservation, ascending legal actions, every legal
action applies to a clone without touching the original), the codec
round-trip, the notation round-trip, that an illegal action changes nothing,
and that ``resample_hidden`` keeps the observation, the legal actions and
every bot's choice.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from pnp.games import registered_games
from pnp.games.api import TERMINAL, IllegalAction, Observation
from pnp.sim.runner import check_final, check_state

from gamedata import build_game

#: The project's engines (test games registered by other test modules are left out).
ENGINES = {slug: entry for slug, entry in registered_games().items()
           if entry.game.__module__.startswith("pnp.games.")}
CASES = [(slug, n) for slug, entry in ENGINES.items()
         for n in range(entry.game.min_players, entry.game.max_players + 1)]
GAMES_PER_CASE = 6


def _playout(slug: str, n: int, seed: int, rng: random.Random) -> None:
    game = build_game(slug)
    entry = registered_games()[slug]
    state = game.new_initial_state(n, seed)
    deck_sorted = sorted(game.deck())
    actions: list[int] = []
    for step in range(20_000):
        msg = check_state(game, state, deck_sorted)
        assert msg is None, f"{slug} {n}p seed {seed} step {step}: {msg}"
        masks = getattr(state, "zone_masks", None)
        if masks is not None:  # the fast conservation path must see the same zones
            assert list(masks()) == [(name, sum(1 << c for c in cards))
                                     for name, cards in state.zones()], f"zone_masks at {step}"
        text = state.to_notation()
        again = game.state_from_notation(text)
        assert again.to_notation() == text, f"notation round-trip at step {step}"
        assert again.current_player() == state.current_player()
        if state.is_terminal():
            assert state.current_player() == TERMINAL
            break
        legal = state.legal_actions()
        assert again.legal_actions() == legal, f"notation lost legal actions at step {step}"
        for a in legal:
            assert state.string_to_action(state.action_to_string(a)) == a
        # An illegal action raises and leaves the state as it was.
        bad = max(legal) + 1
        with pytest.raises(IllegalAction):
            state.apply_action(bad)
        assert state.to_notation() == text, "an illegal action changed the state"
        p = state.current_player()
        obs = state.observation(p)
        assert isinstance(obs, Observation) and obs.seat == p
        hash(obs)  # frozen and made of hashable parts
        if step % 3 == 0:
            other = state.resample_hidden(p, random.Random(rng.random()))
            assert other.observation(p) == obs, f"resample changed the observation at {step}"
            assert other.legal_actions() == legal
            for name, cls in entry.bots.items():
                if len(legal) < 2:
                    break
                a = cls(game, p, random.Random(7)).act(obs, legal)
                b = cls(game, p, random.Random(7)).act(other.observation(p), legal)
                assert a == b, f"bot {name} chose differently on a redealt position"
        action = legal[int(rng.random() * len(legal))]
        state.apply_action(action)
        actions.append(action)
    else:
        pytest.fail(f"{slug} {n}p seed {seed}: no end after 20000 actions")
    assert check_final(game, state, actions, seed) is None


@pytest.mark.parametrize("slug,n", CASES)
def test_engine_contract(slug: str, n: int) -> None:
    """Seeded random games satisfy the whole contract at every step."""
    rng = random.Random(f"{slug}:{n}")
    for g in range(GAMES_PER_CASE):
        _playout(slug, n, 1000 + g, rng)


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_registered_with_manifest(slug: str) -> None:
    """Title and player range agree with the game's manifest."""
    game = build_game(slug)
    lo, hi = game.data.manifest.players
    assert (type(game).min_players, type(game).max_players) == (lo, hi)
    assert game.title == game.data.manifest.title
    assert set(game.phase_names) and all(isinstance(p, str) for p in game.phase_names)


def test_engines_match_the_games_with_data() -> None:
    """The validator plays all five games, each with its card data."""
    from gamedata import DATA
    have = set(ENGINES)
    assert {"fortuna", "nine_peak", "fortune_clover", "episode2", "undecim"} <= have
    assert have <= {p.parent.name for p in DATA.glob("*/manifest.toml")}


def _bots_of(slug: str) -> dict[str, Any]:
    return dict(registered_games()[slug].bots)


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_each_game_has_a_thinking_bot(slug: str) -> None:
    """Besides random, every game registers at least one bot of its own."""
    assert set(_bots_of(slug)) - {"random"}
