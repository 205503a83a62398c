"""Undecim observations served from the state's caches equal observations built afresh.

The state keeps parts of the observation between steps (the cards in play
per seat, the discard, the action-card fields, the scenario records, the
VP rows) and
forgets each part when what it shows changes. Here every seat's observation,
at every step of random, heuristic and campaign games and of redealt copies,
is compared with one built by a copy whose caches were all emptied; and a
copy played on must not change what the original shows (the caches are
shared between copies until one of them moves a card).
"""

from __future__ import annotations

import random

import pytest

from pnp.games.undecim.bots import HeuristicBot
from pnp.games.undecim.engine import UndecimObservation, UndecimState

from test_undecim_rules import undecim


def _afresh(state: UndecimState, seat: int) -> UndecimObservation:
    """``seat``'s observation from a copy with every observation cache emptied."""
    copy = state.clone()
    n = copy.num_players
    copy._tab = [None] * n
    copy._tl = [None] * n
    copy._ts = [None] * n
    copy._rows = ()
    copy._disc_t = None
    copy._acts = [None] * n
    copy._ach_t = None
    copy._vp_t = None
    return copy.observation(seat)


def _check_game(n: int, seed: int, heuristic: bool, campaign: bool = False) -> int:
    """Play one game comparing cached and fresh observations at every step; steps played."""
    g = undecim(campaign=campaign)
    st = g.new_initial_state(n, seed)
    rng = random.Random(seed)
    bots = [HeuristicBot(g, p, random.Random(seed + p)) for p in range(n)]
    steps = 0
    while not st.is_terminal():
        for seat in range(n):
            assert st.observation(seat) == _afresh(st, seat), (seed, steps, seat)
        p = st.current_player()
        if steps % 7 == 3:
            # A redealt copy rebuilds hands and action cards: its caches must follow.
            other = st.resample_hidden(p, random.Random(steps))
            for seat in range(n):
                assert other.observation(seat) == _afresh(other, seat), (seed, steps, seat)
        legal = st.legal_actions()
        if heuristic and len(legal) > 1:
            action = bots[p].act(st.observation(p), legal)
        else:
            action = legal[int(rng.random() * len(legal))]
        st.apply_action(action)
        steps += 1
    return steps


@pytest.mark.parametrize("n", [3, 4])
def test_cached_observations_match_fresh_ones(n: int) -> None:
    """Random and heuristic games: every seat's observation at every step."""
    for seed in range(3):
        assert _check_game(n, 300 + seed, heuristic=False) > 50
    assert _check_game(n, 400, heuristic=True) > 50


def test_campaign_observations_match_fresh_ones() -> None:
    """A campaign (new Story, scenario records and action deals each season)."""
    assert _check_game(4, 11, heuristic=False, campaign=True) > 150


def test_a_copy_played_on_leaves_the_original_alone() -> None:
    """Caches shared by clone() do not leak one copy's moves into the other."""
    g = undecim()
    st = g.new_initial_state(4, 21)
    rng = random.Random(2)
    for _ in range(40):              # into the game: cards in play, picks, a reveal
        legal = st.legal_actions()
        st.apply_action(legal[int(rng.random() * len(legal))])
    before = [st.observation(seat) for seat in range(4)]
    copy = st.clone()
    for _ in range(60):
        if copy.is_terminal():
            break
        for seat in range(4):
            copy.observation(seat)
        legal = copy.legal_actions()
        copy.apply_action(legal[int(rng.random() * len(legal))])
    assert copy.observation(0) != before[0]
    assert [st.observation(seat) for seat in range(4)] == before
