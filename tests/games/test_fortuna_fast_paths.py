"""The Fortuna engine's fast paths agree with the rules written out plainly.

The engine keeps derived tables in step with every move (each hand as per-type
counts in one int, the values every card may take, the types usable as each
value, the sets as observations show them) and lists set actions from caches
and a big-int sum over every combination at once. These tests check each against a slow oracle: the
tables recomputed from scratch at every step, legal actions enumerated card
by card from rulings F2–F4, and the combination sum against a plain loop.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import cast

import pytest

from pnp.games.api import IllegalAction
from pnp.games.fortuna import FortunaGame, FortunaState
from pnp.games.fortuna import engine as fortuna_engine
from pnp.games.fortuna.codec import MAX_VALUE, SET_BASE
from pnp.games.fortuna.engine import ZERO_SET_MAX, card_values

from gamedata import build_game, play_in_lockstep

G = cast(FortunaGame, build_game("fortuna"))


def rule_actions(state: FortunaState) -> list[int]:
    """Phase-main legal actions enumerated card by card from rulings F2–F4 (slow oracle)."""
    g = state.game
    p = state.current_player()
    hand = state.hands[p]
    used = {value for value, _, _ in state.sets[p]}  # ruling F3: one set per value
    values = {c: card_values(g.card_number[c], len(state.slots[g.card_number[c]])) for c in hand}
    filler = sum(len(slot) for slot in state.slots)
    actions = {g.card_type[c] for c in hand}  # a pass per type in hand
    for x in range(MAX_VALUE + 1):
        if x in used:
            continue
        sizes = range(1, min(ZERO_SET_MAX, len(hand)) + 1) if x == 0 else [x]
        for size in sizes:
            for cards in combinations(hand, size):
                if all(x in values[c] for c in cards):
                    actions.add(g.set_action(x, [g.card_type[c] for c in cards]))
        # Ruling F4: all hand cards as a larger value, filler from the discard slots.
        if 0 < len(hand) < x and all(x in values[c] for c in hand) and filler >= x - len(hand):
            actions.add(g.set_action(x, [g.card_type[c] for c in hand]))
    return sorted(actions)


def assert_tables_match(state: FortunaState) -> None:
    """The incrementally kept tables equal the ones recomputed from the zones."""
    fresh = state.clone()
    fresh._refresh_usable()
    assert state.usable == fresh.usable and state.tm == fresh.tm
    assert state.held == [state._held_of(hand) for hand in state.hands]
    assert state.vp == state._vp_of_sets()
    if state.phase() != "fill":  # a pending all-in set is scored at its full size
        assert list(map(float, state.vp)) == state._score()
    # Observations show the sets as they are now (their cached form is dropped on change).
    shown = tuple(tuple((v, up, len(down)) for v, up, down in seat) for seat in state.sets)
    assert state.observation(0).sets == shown


@pytest.mark.parametrize("players", [3, 4])
def test_tables_and_legal_actions_follow_every_step(players: int) -> None:
    """Seeded random games: derived tables and main-phase actions equal the oracle's."""
    checked = wheels = fills = 0
    for seed in range(40):
        state = G.new_initial_state(players, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            assert_tables_match(state)
            legal = state.legal_actions()
            if state.phase() == "main":
                assert legal == rule_actions(state)
                checked += 1
            wheels += state.phase() == "wheel"
            fills += state.phase() == "fill"
            state.apply_action(legal[int(rng.random() * len(legal))])
        assert_tables_match(state)
    # The games went through the paths that rebuild tables (wheel moves, filler).
    assert checked > 1000 and wheels > 5 and fills > 0


def test_wide_scripted_hand_and_wheel_moves() -> None:
    """A twelve-card scripted hand and slots changed by the Wheel match the oracle."""
    text = ("players 3; seat 0 main; hand:0 1B 1W 1G 2B 2W 2H 3B 3W 3G 4B 4H 5G; "
            "hand:1 6B; hand:2 6W; deck 6H 6R; slot:1 1H 1R; slot:3 3H; slot:6 6G")
    state = G.state_from_notation(text)
    assert state.legal_actions() == rule_actions(state)
    assert len([a for a in state.legal_actions() if a >= SET_BASE]) > 30
    # Slot 4 reaches 4 + 6 = 10 and fires the Wheel; every move keeps the tables right.
    wheel = G.state_from_notation("players 3; seat 1 main; hand:0 1B 2B 3B 5B; "
                                  "hand:1 4B 4W 1G 2G; hand:2 6W; deck 6H 6R 6B; "
                                  "slot:1 1H 1R; slot:3 3H 3R; slot:4 4H 4R 4G 5W 5H")
    wheel.apply_action(G.codec.parse_action("pass 4B"))
    assert wheel.phase() == "wheel"
    for action in wheel.legal_actions():
        child = wheel.clone()
        child.apply_action(action)
        assert_tables_match(child)
        if child.phase() == "main":
            assert child.legal_actions() == rule_actions(child)


def test_combination_sum_equals_the_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """Set codes from the one big-int sum equal those of the per-combination loop."""
    rng = random.Random(3)
    cases = [(sorted(rng.choices(range(G.n_types), k=k)), value)
             for _ in range(150) for k, value in [(rng.randint(2, 9), rng.randint(2, 8)),
                                                  (rng.randint(2, 8), 0)] if k > value]
    cases += [([4, 4, 4, 9, 9, 17], 3), ([0, 1, 2, 3, 4, 5], 0), ([29] * 7, 4)]
    fast = [G._set_actions(elig, value) for elig, value in cases]
    monkeypatch.setattr(fortuna_engine, "_COMBO_LANES", 0)  # every table refused: the loop
    slow_game = cast(FortunaGame, build_game("fortuna"))
    slow = [slow_game._set_actions(elig, value) for elig, value in cases]
    assert fast == slow
    for (elig, value), codes in zip(cases, fast):
        assert list(codes) == sorted(set(codes))  # ascending, each multiset once
        assert all(sorted(G.decode_set(a)[1]) == list(G.decode_set(a)[1]) for a in codes)
        assert {G.decode_set(a)[0] for a in codes} == {value}


@pytest.mark.parametrize("action_text", ["set 3: 3B 3B 3W", "set 2: 2G 2B", "set 5: 5B 5B 5B 5B 5B",
                                         "set 3: 2B 3B 3W", "set 5: 2B 2W 3B 5B 5W"])
def test_sets_naming_cards_not_held_are_refused(action_text: str) -> None:
    """One copy too many, a type not in hand, or a card that cannot take the value (F2)."""
    state = G.state_from_notation("players 3; seat 0 main; hand:0 3B 3W 3H 2B 2W 5B 5W; "
                                  "hand:1 6B; hand:2 6W; deck 6H")
    before = state.to_notation()
    with pytest.raises(IllegalAction):
        state.apply_action(G.codec.parse_action(action_text))
    assert state.to_notation() == before


def test_malformed_set_codes_are_refused() -> None:
    """Out-of-order, zero-digit and out-of-range set ints are refused without a change."""
    state = G.state_from_notation("players 3; seat 0 main; hand:0 3B 3W 3H; "
                                  "hand:1 6B; hand:2 6W; deck 6H")
    before = state.to_notation()
    b = G.codec.base
    swapped = SET_BASE + 3 * G.x_step + 11 * b * b + 1 * b + 6  # types out of order
    zero_digit = SET_BASE + 3 * G.x_step + 1 * b * b + 0 * b + 6
    for action in (swapped, zero_digit, SET_BASE + 10**40, SET_BASE + 3 * G.x_step):
        with pytest.raises(IllegalAction):
            state.apply_action(action)
        assert state.to_notation() == before


def test_lazily_filled_pass_tables_give_the_same_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pass tables filled as hands are met (wide type runs) list what the full tables do."""
    monkeypatch.setattr(fortuna_engine, "_FULL_PASS_TABLE", 0)
    lazy = cast(FortunaGame, build_game("fortuna"))
    assert all(not table for table in lazy._pass_chunks[1::2])  # nothing tabulated up front
    assert all(len(table) == 1024 for table in G._pass_chunks[1::2])
    for seed in range(6):
        play_in_lockstep(G.new_initial_state(4, seed), lazy.new_initial_state(4, seed), seed)
    assert all(lazy._pass_chunks[1::2])


def test_set_vp_kept_in_step_equals_the_final_score() -> None:
    """Ruling F8: the VP kept per set played is the score of the finished sets."""
    for seed in range(10):
        state = G.new_initial_state(3, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
        assert state.returns() == state._score() == list(map(float, state._vp_of_sets()))


def test_resample_hidden_redeals_as_the_library_shuffle() -> None:
    """resample_hidden's inline shuffle deals and draws exactly as ``rng.shuffle`` of the pool."""
    for seed in range(30):
        state = G.new_initial_state(4, seed)
        rng = random.Random(seed)
        for _ in range(1 + seed % 25):  # positions from the opening to mid-game
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
        p = state.current_player()
        ours, theirs = random.Random(seed), random.Random(seed)
        got = state.resample_hidden(p, ours)
        # The oracle: the other hands, then the deck and the end deck, shuffled by the library.
        others = [q for q in range(4) if q != p]
        pool = [c for q in others for c in state.hands[q]] + state.deck + state.end_deck
        theirs.shuffle(pool)
        at = 0
        for q in others:
            size = len(state.hands[q])
            assert got.hands[q] == sorted(pool[at:at + size])
            at += size
        assert got.deck == pool[at:at + len(state.deck)]
        assert got.end_deck == pool[at + len(state.deck):]
        assert got.hands[p] == state.hands[p]
        assert ours.getstate() == theirs.getstate()  # the same draws consumed


def test_deal_is_the_library_shuffle() -> None:
    """The engine's inline shuffle deals exactly as random.Random(seed).shuffle would."""
    total, size = len(G.card_number), 7
    for seed in (0, 1, 12345, 2**63 + 12345, 2**64 + 7):
        order = list(range(total))
        random.Random(seed).shuffle(order)
        hands = [sorted(order[total - size * (i + 1):total - size * i]) for i in range(4)]
        rest = order[:total - 4 * size]
        deck, end_deck = rest[:-7], rest[-7:]
        state = G.new_initial_state(4, seed)
        # Seat 0 has drawn the deck's top card (the end of the list) to start its turn.
        assert state.hands == [sorted(hands[0] + deck[-1:])] + hands[1:]
        assert state.deck == deck[:-1] and state.end_deck == end_deck
