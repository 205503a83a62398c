"""Undecim campaign: the heuristic bot marks the scenario card its season came closest to.

When nobody achieved a card of the season, the winner chooses which card
takes the marker (ruling U1h); the marked card and its unlocks shape the next
season. The bot weighs each option's goal and its unlocks' goals by how far
its own holding got towards them. Two holdings put into one real marker
decision's observation must lead to the two different choices.
"""

from __future__ import annotations

import random
from dataclasses import replace

from pnp.games.undecim.bots import HeuristicBot
from pnp.games.undecim.codec import MARKER_BASE
from pnp.games.undecim.engine import UndecimGame, UndecimObservation, UndecimState

from gamedata import build_game


def _marker_position(game: UndecimGame) -> UndecimState:
    """The first campaign_marker decision of seeded random campaigns."""
    for seed in range(50):
        state = game.new_initial_state(4, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.phase() == "campaign_marker" and len(state.legal_actions()) == 2:
                return state
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
    raise AssertionError("no marker decision in 50 seeded campaigns")


def _with_holding(game: UndecimGame, obs: UndecimObservation, gold: int,
                  settlement: int) -> UndecimObservation:
    """``obs`` with its seat's holding replaced (what the bot values): ``gold`` gold,
    no other loose card, and one same-material settlement of ``settlement`` cards
    (0: none)."""
    me = obs.seat
    cnt = [0] * game.n_kinds
    cnt[game.GOLD] = gold
    setl = ((0, 1, settlement),) if settlement else ()
    loose = tuple(tuple(cnt) if p == me else row for p, row in enumerate(obs.loose))
    settlements = tuple(setl if p == me else row for p, row in enumerate(obs.settlements))
    return replace(obs, loose=loose, settlements=settlements)


def test_marker_follows_the_holding() -> None:
    """Gold and no settlement → the gold branch; a 7-card settlement and no gold →
    the settlement branch (the two options' goals and unlocks from the data)."""
    game = build_game("undecim", {"campaign": True})
    assert isinstance(game, UndecimGame)
    state = _marker_position(game)
    me = state.current_player()
    options = [a - MARKER_BASE for a in state.legal_actions()]
    conds = {i: game.scenarios[i].condition for i in options}
    names = {game.scenarios[i].id: i for i in options}
    assert set(names) == {"s2_a1", "s2_a2"}, names   # Market Town and Trade Road
    bot = HeuristicBot(game, me, random.Random(1))
    obs, legal = state.observation(me), state.legal_actions()
    pick = bot.act(_with_holding(game, obs, gold=5, settlement=0), legal)
    assert pick - MARKER_BASE == names["s2_a2"], conds
    pick = bot.act(_with_holding(game, obs, gold=0, settlement=7), legal)
    assert pick - MARKER_BASE == names["s2_a1"], conds
