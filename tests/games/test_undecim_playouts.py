"""Seeded Undecim playouts at 3 and 4 players with invariants at every step.

Conservation of the 100 resource cards and the 11 action cards (each in
exactly one zone), every game ends after exactly 5 rounds (15 in a campaign),
banked VP never fall, the notation round-trips, and the same seed replays the
same game. Random bots and the heuristic bot both play.
"""

from __future__ import annotations

import random

import pytest

from pnp.games.undecim.bots import HeuristicBot
from pnp.games.undecim.engine import EV_ROUND, EV_SEASON, UndecimState

from test_undecim_rules import undecim


def _zones_ok(state: UndecimState) -> None:
    """Every card id in exactly one zone; resource and action cards counted apart."""
    g = state.game
    seen: list[int] = []
    for _name, cards in state.zones():
        seen.extend(cards)
    assert sorted(seen) == list(range(g.n_res + g.n_actions))
    resources = [c for c in seen if c < g.n_res]
    assert len(resources) == 100 and len(seen) - len(resources) == 11


def _playout(n: int, seed: int, heuristic: bool, campaign: bool = False) -> UndecimState:
    """One game with invariants checked at every step."""
    g = undecim(campaign=campaign)
    st = g.new_initial_state(n, seed)
    rng = random.Random(seed)
    bots = [HeuristicBot(g, p, random.Random(seed + p)) for p in range(n)]
    banked = [0] * n
    for _ in range(5000):
        _zones_ok(st)
        vp = [sum(v) for v in st.vp]
        if not campaign:
            assert all(a >= b for a, b in zip(vp, banked)), "banked VP fell"
        banked = vp
        if st.is_terminal():
            break
        text = st.to_notation()
        assert g.state_from_notation(text).to_notation() == text
        legal = st.legal_actions()
        assert legal and legal == sorted(set(legal))
        p = st.current_player()
        if heuristic and len(legal) > 1:
            action = bots[p].act(st.observation(p), legal)
        else:
            action = legal[int(rng.random() * len(legal))]
        st.apply_action(action)
    assert st.is_terminal()
    return st


@pytest.mark.parametrize("n", [3, 4])
def test_random_playouts(n: int) -> None:
    """Random games: conservation throughout, exactly 5 rounds, a single winner."""
    for seed in range(8):
        st = _playout(n, 100 + seed, heuristic=False)
        assert st.ev[EV_ROUND] == 5 and len(st.log) == 5
        assert len(st.winners()) == 1
        assert st.returns() == [float(t) for t in st.totals()]


@pytest.mark.parametrize("n", [3, 4])
def test_heuristic_playouts(n: int) -> None:
    """The heuristic bot plays legal, complete games."""
    for seed in range(3):
        st = _playout(n, 200 + seed, heuristic=True)
        assert len(st.log) == 5


def test_campaign_playout() -> None:
    """A campaign plays three seasons of five rounds with the marked cards' Story."""
    st = _playout(4, 7, heuristic=False, campaign=True)
    g = st.game
    assert st.ev[EV_SEASON] == 2 and len(st.log) == 15 and len(st.seasons_done) == 2
    assert len(st.markers) == 2
    assert [g.scenarios[i].season for i in st.markers] == [1, 2]
    # Season 3's Story: the season-1 marked card, the season-2 marked card, its unlocks.
    m1, m2 = st.markers
    assert st.story[:2] == [m1, m2]
    assert sorted(g.scenarios[i].id for i in st.story[2:]) == sorted(g.scenarios[m2].unlocks)
    assert g.scenarios[m2].id in g.scenarios[m1].unlocks
    # Season 3 began from the starting VP by rank after season 2 (4/… then 8/4/2/0).
    assert sorted(v[4] for v in st.vp) == [0, 2, 4, 8]


def test_same_seed_same_game() -> None:
    """(players, seed, actions) replay exactly: chance lives in the state."""
    a = _playout(4, 55, heuristic=False)
    b = _playout(4, 55, heuristic=False)
    assert a.to_notation() == b.to_notation()


def test_resample_keeps_what_the_seat_knows() -> None:
    """A redealt copy gives the seat the same observation and legal actions."""
    g = undecim()
    st = g.new_initial_state(4, 9)
    rng = random.Random(1)
    for _ in range(60):
        p = st.current_player()
        other = st.resample_hidden(p, random.Random(rng.random()))
        assert other.observation(p) == st.observation(p)
        assert other.legal_actions() == st.legal_actions()
        _zones_ok(other)
        legal = st.legal_actions()
        st.apply_action(legal[int(rng.random() * len(legal))])
