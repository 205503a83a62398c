"""Fortuna's position notation, action codec and scoring functions: known answers."""

from __future__ import annotations

import random
from typing import cast

import pytest

from pnp.games.api import TERMINAL, IllegalAction, NotationError
from pnp.games.fortuna import FortunaGame, FortunaState
from pnp.games.fortuna.codec import ICON_ORDER, FortunaCodec
from pnp.games.fortuna.scoring import (icon_matches, matches_from_counts, seat_score, set_score,
                                       winner)

from gamedata import build_game

G = cast(FortunaGame, build_game("fortuna"))
C = G.codec


def pos(text: str) -> FortunaState:
    """The state written as ``text``."""
    return G.state_from_notation(text)


def ids(state: FortunaState, zone: str) -> list[int]:
    """Card ids in ``zone``."""
    return list(dict(state.zones())[zone])


def names(cards: list[int]) -> list[str]:
    """Type names of ``cards``."""
    return [G.card_name(c) for c in cards]


# -- notation: known answers ---------------------------------------------------

def test_scripted_position_reads_and_writes_canonically() -> None:
    """Fields in any order, defaults filled in; the writer's order is fixed."""
    s = pos("slot:3 3H 3R; deck 6B 6W; hand:1 2B; seat 0 main; players 3;"
            " hand:0 5W 3B 5G 3W 5B; hand:2 2W")
    assert s.to_notation() == ("players 3; turn 1; seat 0 main; hand:0 3B 3W 5B 5W 5G; "
                               "hand:1 2B; hand:2 2W; deck 6B 6W; end_deck; slot:3 3H 3R")
    assert s.current_player() == 0 and s.turns() == 1 and s.phase() == "main"
    assert names(s.hands[0]) == ["3B", "3W", "5B", "5W", "5G"]  # hands are kept sorted
    assert names(s.slots[3]) == ["3H", "3R"]  # bottom first: 3R is on top
    assert s.discards(3) == 2


def test_deck_is_written_in_draw_order() -> None:
    """The first deck card written is the next one drawn; then the end deck."""
    s = pos("players 3; seat 0 main; hand:0 1B; hand:1 2B; hand:2 3B; deck 4B 5B; end_deck 6B")
    s.apply_action(s.string_to_action("pass 1B"))
    assert names(s.hands[1]) == ["2B", "4B"]
    s.apply_action(s.string_to_action("pass 2B"))
    assert names(s.hands[2]) == ["3B", "5B"] and not s.trigger
    s.apply_action(s.string_to_action("pass 3B"))
    assert names(s.hands[0]) == ["6B"] and s.trigger  # ruling F7
    assert "; trigger; hand:0 6B;" in s.to_notation()


def test_unnamed_cards_are_boxed() -> None:
    """Cards named nowhere are set aside, so every card is in exactly one zone."""
    s = pos("players 3; seat 0 main; hand:0 1B; hand:1 2B; hand:2 3B")
    box = ids(s, "box")
    assert len(box) == 75 and box == sorted(box)
    assert sorted(c for _, z in s.zones() for c in z) == list(G.deck())
    assert [name for name, _ in s.zones()] == [
        "deck", "end_deck", "hand:0", "hand:1", "hand:2", *(f"slot:{n}" for n in range(1, 7)),
        "sets:0", "sets:1", "sets:2", "box"]


def test_copy_indices_only_where_needed() -> None:
    """Copies are written with an index only when reading order would misplace them."""
    first = G.type_first[C.parse_type("1B")]
    s = pos("players 3; seat 0 main; hand:0 1B; hand:1 1B; hand:2 2B")
    assert ids(s, "hand:0") == [first] and ids(s, "hand:1") == [first + 1]
    assert "hand:0 1B; hand:1 1B;" in s.to_notation()
    s = pos("players 3; seat 0 main; hand:0 1B.2; hand:1 1B.0; hand:2 2B")
    assert ids(s, "hand:0") == [first + 2] and ids(s, "hand:1") == [first]
    assert "hand:0 1B.2; hand:1 1B.0;" in s.to_notation()
    # Unnumbered copies take the lowest id no other card names.
    s = pos("players 3; seat 0 main; hand:0 1B; hand:1 1B.0; hand:2 2B")
    assert ids(s, "hand:0") == [first + 1]
    assert "hand:0 1B.1; hand:1 1B.0;" in s.to_notation()
    # The only goddess of a number never needs an index.
    assert "1G." not in G.new_initial_state(4, 2).to_notation()


def test_sets_events_and_the_end() -> None:
    """Sets (face-up / face-down), event counts and a finished game."""
    text = ("players 3; turn 14; over; hand:0; hand:1 2B; hand:2; deck; end_deck; "
            "sets:0 4:4B,4W,4H,4G 0:6B/1H; sets:2 2:2W,2H; events set=3 pass=20 round_end=1")
    s = pos(text)
    assert s.to_notation() == text
    assert s.is_terminal() and s.current_player() == TERMINAL and s.turns() == 14
    assert s.events()["pass"] == 20 and s.events()["zero_set"] == 0
    assert s.returns() == [4 * 2 + 2 * 1, 0.0, 2 * 1] and s.winners() == [0]
    assert s.used[0] == (1 << 4) | 1  # ruling F3: values 4 and 0 are taken
    assert s.legal_actions() == []


def test_mid_phase_positions_round_trip() -> None:
    """Discard, fill and wheel positions read back with the same choices."""
    discard = pos("players 3; seat 0 main; hand:0 1B 3B 3W; hand:1 2B; hand:2 2W; deck 6B")
    discard.apply_action(discard.string_to_action("set 1: 1B"))
    fill = pos("players 3; seat 0 main; hand:0 5B 5W 5G; hand:1 1B; hand:2 1W;"
               " deck 2B 2W 2H; slot:1 1H 1R; slot:3 3H 3R")
    fill.apply_action(fill.string_to_action("set 5: 5B 5W 5G +2"))
    wheel = pos("players 3; seat 0 main; hand:0 6B 2B; hand:1 2W; hand:2 2H; deck 1B;"
                " slot:2 2B; slot:6 6W 6H 6R")
    wheel.apply_action(wheel.string_to_action("pass 6B"))
    for state, phase in ((discard, "discard"), (fill, "fill"), (wheel, "wheel")):
        assert state.phase() == phase
        again = pos(state.to_notation())
        assert again.to_notation() == state.to_notation()
        assert again.legal_actions() == state.legal_actions()
        assert (again.fill_left, again.fill_min, again.pending, again.wheel_slot) == \
            (state.fill_left, state.fill_min, state.pending, state.wheel_slot)
    assert "seat 0 fill 1;" in fill.to_notation() and fill.fill_left == 2
    assert "seat 0 wheel 6;" in wheel.to_notation()


def test_round_trip_is_exact_through_seeded_games() -> None:
    """Reading a written state gives the same card ids, counters and later play."""
    rng = random.Random(3)
    for seed in range(8):
        s = G.new_initial_state(3 + seed % 2, seed)
        while True:
            again = pos(s.to_notation())
            assert list(again.zones()) == list(s.zones())
            assert (again.events(), again.turns(), again.returns(), again.used, again.usable) \
                == (s.events(), s.turns(), s.returns(), s.used, s.usable)
            assert all(again.observation(p) == s.observation(p) for p in range(s.num_players))
            if s.is_terminal():
                break
            legal = s.legal_actions()
            action = legal[int(rng.random() * len(legal))]
            s.apply_action(action)
            again.apply_action(action)  # the copy plays on identically
            assert again.to_notation() == s.to_notation()


@pytest.mark.parametrize("text, message", [
    ("seat 0 main; hand:0 1B", "'players' is missing"),
    ("players 5; seat 0 main", "players 5: expected 3–4"),
    ("players 3", "expected 'seat <n> <phase>' or 'over'"),
    ("players 3; seat 3 main", "seat '3': expected 0–2"),
    ("players 3; seat 0 think; hand:0 1B", "phase 'think'"),
    ("players 3; seat 0 wheel 7; hand:0 1B", "phase 'wheel 7'"),
    ("players 3; seat 0 main; over", "'over' takes no words and no 'seat'"),
    ("players 3; seat 0 main; hand:0 1B; hand:0 2B", "field 'hand:0' given twice"),
    ("players 3; seat 0 main; hand:3 1B", "unknown field 'hand:3'"),
    ("players 3; seat 0 main; slot:7 1B", "unknown field 'slot:7'"),
    ("players 3; seat 0 main; hand:0 7B", "card '7B'"),
    ("players 3; seat 0 main; hand:0 1X", "card '1X'"),
    ("players 3; seat 0 main; hand:0 1G 1G", "no card 1G left"),
    ("players 3; seat 0 main; hand:0 1B.3", "copy index must be 0–2"),
    ("players 3; seat 0 main; hand:0 1B.1 1B.1", "1B.1 named twice"),
    ("players 3; seat 0 main; hand:0 1B; sets:0 3:3B 3:3W", "seat 0 has two sets of 3"),
    ("players 3; seat 0 main; hand:0 1B; sets:0 12:3B", "set '12:3B'"),
    ("players 3; seat 0 main; hand:0 1B; sets:0 3:", "set '3:'"),
    ("players 3; seat 0 main; hand:0 1B; events pass=x", "event 'pass=x'"),
    ("players 3; seat 0 main; hand:0 1B; events jump=1", "event 'jump=1'"),
    ("players 3; turn x; seat 0 main; hand:0 1B", "turn 'x': expected one number"),
    ("players 3; seat 0 fill 1; sets:0 3:3B,3W,3H", "owes no filler"),
    ("players 3; seat 0 fill 2; sets:0 5:5B,5W,5G; slot:1 1B 1W",
     "no legal action in phase fill"),
    ("players 3; seat 1 main; hand:0 1B", "no legal action in phase main"),
    ("players 3; seat 0 discard", "no legal action in phase discard"),
])
def test_bad_notation_is_refused_with_a_reason(text: str, message: str) -> None:
    """Bad text raises NotationError naming the problem."""
    with pytest.raises(NotationError, match=message.replace("(", r"\(")):
        pos(text)


# -- codec: known answers ------------------------------------------------------

KNOWN = [
    ("pass 4B", 15),  # type (4 − 1) × 5 icons + 稲妻 (0)
    ("discard 3W", 111),  # 100 + type 11
    ("fill 2", 202),
    ("decline", 300),
    ("wheel 5>1x3", 1_051_003),
    ("set 2: 2B 2W", 52_879_254_321_535),  # 10⁷ + 2·31⁹ + (5+1)·31 + (6+1)
    ("set 5: 5B 5W 5G +2", 132_198_120_824_243),  # all-in: 2 filler cards (F4)
    ("set 0: 6B 6B 6G", 10_025_822),  # a 0 set: 26·31² + 26·31 + 30
    ("set 1: 1G", 26_439_632_160_676),
]


@pytest.mark.parametrize("text, action", KNOWN)
def test_action_text_and_ints(text: str, action: int) -> None:
    """Action ints (stable: seeded games depend on them) and their text, both ways."""
    assert C.action_to_string(action) == text
    assert C.parse_action(text) == action


def test_parse_accepts_icon_names_and_extra_spaces() -> None:
    """Full icon names and extra spaces read the same; the filler count may be left out."""
    assert C.parse_action("pass 4稲妻") == 15
    assert C.parse_action("  set 2:   2W 2B ") == 52_879_254_321_535
    assert C.parse_action("set 5: 5G 5W 5B") == 132_198_120_824_243


@pytest.mark.parametrize("text", [
    "", "jump", "pass", "pass 4B 4W", "pass 7B", "pass 4X", "discard", "fill 7", "fill x",
    "decline now", "wheel 5-1x3", "wheel 7>1x3", "wheel 5>1x0", "set 10: 1B", "set 3 3B 3W 3H",
    "set 3:", "set 5: 5B 5W 5G +1", "set 5: 5B 5W 5G +x", "set 1: 1B 1B 1B 1B 1B 1B 1B 1B 1B 1B",
])
def test_unreadable_action_text(text: str) -> None:
    """Text that names no action raises IllegalAction."""
    with pytest.raises(IllegalAction, match="cannot read action"):
        C.parse_action(text)


def test_every_legal_action_reads_back() -> None:
    """string_to_action inverts action_to_string for every legal action of seeded games."""
    rng = random.Random(8)
    phases = set()
    for seed in range(20):
        s = G.new_initial_state(3 + seed % 2, seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            phases.add(s.phase())
            texts = [s.action_to_string(a) for a in legal]
            assert len(set(texts)) == len(texts)
            assert [s.string_to_action(x) for x in texts] == legal
            s.apply_action(legal[int(rng.random() * len(legal))])
    assert phases == {"main", "discard", "fill", "wheel"}


def test_added_icons_get_safe_tokens() -> None:
    """Icons a designer adds are written by name when safe, else by index."""
    codec = FortunaCodec([*ICON_ORDER, "星", "two words", "B", "a.b"])
    assert codec.icon_tokens == ("B", "W", "H", "R", "G", "星", "~6", "~7", "~8")
    for t in range(codec.n_types):
        assert codec.parse_type(codec.type_name(t)) == t
    assert codec.type_name(codec.parse_type("3星")) == "3星"
    assert codec.parse_type("2~7") == codec.parse_type("2B") + 7  # not the 稲妻 "B"
    with pytest.raises(ValueError):
        codec.parse_type("7星")


# -- scoring (ruling F8) -------------------------------------------------------

def test_icon_matches_with_wild_goddesses() -> None:
    """Most cards of one icon, goddesses added to it; goddess-only sets count all."""
    goddess = 4
    assert matches_from_counts([3, 1, 0, 0, 0], goddess) == 3
    assert matches_from_counts([1, 2, 0, 0, 1], goddess) == 3
    assert matches_from_counts([0, 0, 0, 0, 3], goddess) == 3
    assert matches_from_counts([0, 0, 0, 0, 0], goddess) == 0
    assert icon_matches([0, 0, 0, 1], 5, goddess) == 3  # rulebook: 4 cards, 3 matching
    assert set_score([0, 0, 0, 1], 4, 5, goddess) == 12
    assert set_score([0, 4], 5, 5, goddess) == 10  # all-in: size 5 with filler (F4)
    assert seat_score([([0, 0, 0, 1], 4), ([4, 4, 4], 3)], 5, goddess) == 12 + 9


def test_winner_ties_go_to_the_earlier_seat() -> None:
    """Ruling F8: equal totals go to the earlier seat."""
    assert winner([3.0, 7.0, 7.0]) == 1
    assert winner([5.0, 5.0, 5.0, 5.0]) == 0
    assert winner([1.0, 2.0, 3.0, 4.0]) == 3
