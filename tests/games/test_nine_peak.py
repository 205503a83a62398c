"""Tests for the 9 Peak rules engine (rulebook + rulings N1–N6) and its greedy bot.

Scripted positions are built with :meth:`NinePeakGame.state_from_position`
(card codes: number + suit letter S/F/C/B/P, e.g. ``"5S"`` = 5 silk hat).
"""

from __future__ import annotations

import random
import shutil
from collections import Counter
from pathlib import Path

import pytest

from pnp import PROJECT_ROOT
from pnp.data.manifest import load_manifest
from pnp.errors import PnpError
from pnp.games import load_game
from pnp.games.api import TERMINAL
from pnp.games.nine_peak import (KEEP, MAIN, PICK, SECOND, SUIT_CODES, TAKE,
                                 NinePeakGame, NinePeakState)

GAME = load_game("nine_peak")
assert isinstance(GAME, NinePeakGame)
SIMPLE = load_game("nine_peak", {"scoring": "simple"})


def tp(code: str, game: NinePeakGame = GAME) -> int:
    """Card type index of a code such as ``"5S"``."""
    n, s = int(code[0]), SUIT_CODES.index(code[1])
    return next(t for t in range(game.num_types)
                if game.type_number[t] == n and game.type_suit[t] == s)


def pos(num_players: int = 4, game: NinePeakGame = GAME, **kw) -> NinePeakState:
    """Scripted position (see :meth:`NinePeakGame.state_from_position`).

    Seats not given a hand get one card of a type the position leaves free,
    so that only the seats under test can run out of cards.
    """
    hands = [list(h) for h in kw.pop("hands")]
    named = Counter(c for h in hands for c in h)
    for key in ("area", "deck"):
        named.update(kw.get(key) or [])
    free = [f"{n}{s}" for n in (6, 5, 4, 3, 2, 1) for s in "BCFS"]
    while len(hands) < num_players:
        code = next(c for c in free if named[c] < 3)
        named[code] += 1
        hands.append([code])
    return game.state_from_position(num_players, hands=hands, **kw)


def declares(state: NinePeakState) -> list[int]:
    """Set values X that may be declared now."""
    g = state.game
    return [a - g.A_PLAY + 1 for a in state.legal_actions() if g.A_PLAY <= a < g.A_PLAY + 9]


def codes(state: NinePeakState, cards) -> list[str]:
    """Cards as sorted codes."""
    g = state.game
    return sorted(f"{g.card_number[c]}{SUIT_CODES[g.card_suit[c]]}" for c in cards)


def check_conservation(state: NinePeakState) -> None:
    """Every card id in exactly one zone."""
    seen = Counter(c for _, cards in state.zones() for c in cards)
    assert seen == Counter(state.game.deck())


# ---------------------------------------------------------------- card data

def test_card_table_from_csv() -> None:
    """The card table is built from hats.csv: 78 cards, 30 types, 6 Personas."""
    assert GAME.num_cards == 78
    assert GAME.num_types == 30
    assert Counter(GAME.card_number) == {n: 13 for n in range(1, 7)}
    assert sum(GAME.type_persona[GAME.card_type[c]] for c in range(78)) == 6
    assert list(GAME.deck()) == list(range(78))


def test_base_points_match_rulebook() -> None:
    """Base points equal the rulebook table and the manifest constants (N6)."""
    # rulebook 精算 table / ruling N6
    assert GAME.base_points == (1, 2, 3, 4, 5, 7, 9, 11, 13)
    manifest = load_manifest(PROJECT_ROOT / "card_data/nine_peak/manifest.toml")
    assert list(GAME.base_points) == manifest.constants["base_points"]


def test_base_points_read_from_manifest(tmp_path: Path) -> None:
    """Editing base_points in the manifest changes the engine's scoring."""
    shutil.copytree(PROJECT_ROOT / "card_data" / "nine_peak", tmp_path / "nine_peak")
    path = tmp_path / "nine_peak" / "manifest.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("base_points = [1, 2, 3, 4, 5, 7, 9, 11, 13]",
                                 "base_points = [1, 2, 3, 4, 5, 6, 7, 8, 9]"), encoding="utf-8")
    game = NinePeakGame(data_dir=tmp_path)
    assert game.base_points == (1, 2, 3, 4, 5, 6, 7, 8, 9)
    assert game.score_set([c for c in range(78) if game.card_number[c] == 1][:6]) != \
        GAME.score_set([c for c in range(78) if GAME.card_number[c] == 1][:6])


def test_bad_base_points_is_pnp_error(tmp_path: Path) -> None:
    """A malformed base_points constant is a one-line PnpError."""
    shutil.copytree(PROJECT_ROOT / "card_data" / "nine_peak", tmp_path / "nine_peak")
    path = tmp_path / "nine_peak" / "manifest.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("base_points = [1, 2, 3, 4, 5, 7, 9, 11, 13]",
                                 "base_points = [1, 2]"), encoding="utf-8")
    with pytest.raises(PnpError, match="base_points"):
        NinePeakGame(data_dir=tmp_path)


def test_params_and_player_counts() -> None:
    """Parameter defaults, bad values, player-count limits and event names."""
    assert GAME.params == {"scoring": "full", "hand_size": 13, "setup_cards": 6}
    with pytest.raises(PnpError):
        load_game("nine_peak", {"scoring": "fancy"})
    with pytest.raises(PnpError):
        GAME.new_initial_state(2, 0)
    with pytest.raises(PnpError):
        GAME.new_initial_state(6, 0)
    with pytest.raises(PnpError, match="exceeds"):
        load_game("nine_peak", {"hand_size": 15}).new_initial_state(5, 0)
    for name in ("set", "pass_one", "pass_two", "peak_by_pass", "peak_by_play",
                 "peak_at_setup", "personaless_to_hand", "end_trigger"):
        assert name in GAME.event_names


# ---------------------------------------------------------------- set-up (N1, N2)

@pytest.mark.parametrize("n", [3, 4, 5])
def test_setup_deal(n: int) -> None:
    """Set-up places 6 cards by printed number (N1) and deals 13 each; seat 0 starts."""
    s = GAME.new_initial_state(n, 7)
    assert [len(h) for h in s.hands] == [13] * n
    area = sum(len(c) for c in s.area)
    assert area + len(s.discard) == 6
    assert len(s.deck) == 78 - 6 - 13 * n
    assert s.current_player() == 0 and s.turns() == 1
    for i, col in enumerate(s.area):  # ruling N1: column of the printed number
        assert all(GAME.card_number[c] == i + 1 for c in col)
    check_conservation(s)


def test_setup_peak_goes_to_discard() -> None:
    """A number peaking at set-up is discarded and flipped (N2)."""
    # ruling N2: a number that peaks during set-up is discarded and flipped
    found = 0
    for seed in range(3000):
        s = GAME.new_initial_state(4, seed)
        for i in range(6):
            assert s.peaked[i] or i + 1 + len(s.area[i]) < 9
        if s.events()["peak_at_setup"]:
            found += 1
            assert s.discard and all(s.peaked[GAME.card_number[c] - 1] for c in s.discard)
            for c in s.discard:
                assert s.area[GAME.card_number[c] - 1] == []
            assert all(not p for p in s.piles)
    assert found > 0


def test_setup_peak_with_more_setup_cards() -> None:
    """Many set-up cards make set-up peaks certain and each is counted (N2)."""
    game = load_game("nine_peak", {"setup_cards": 20})
    s = game.new_initial_state(3, 1)
    assert s.events()["peak_at_setup"] >= 1
    assert sum(s.peaked) == s.events()["peak_at_setup"]
    check_conservation(s)


# ---------------------------------------------------------------- pass (N3) and peak (N2)

def test_pass_one_places_card_in_its_column() -> None:
    """A one-card pass puts the card in its number's column (N1, N3)."""
    s = pos(hands=[["3S", "4F"]], area=[])
    s.apply_action(GAME.A_PASS1 + tp("3S"))
    assert codes(s, s.area[2]) == ["3S"]
    assert codes(s, s.hands[0]) == ["4F"]
    assert s.current_player() == 1 and s.events()["pass_one"] == 1


def test_rulebook_pass_peak_gives_five_vp() -> None:
    """Rulebook example: three 5s + two placed = peak, 5 cards to the passer (N2, N3)."""
    # rulebook: three 5s in the area, place two 5s, take a non-5: 5 + 5 = 10
    s = pos(hands=[["5B", "5P", "3S"]], area=["5S", "5F", "5C", "2S"])
    s.apply_action(GAME.A_PASS2 + tp("5B"))
    assert s.phase == SECOND
    assert s.legal_actions() == [GAME.A_SECOND + tp("5P")]
    s.apply_action(GAME.A_SECOND + tp("5P"))
    assert s.phase == TAKE
    s.apply_action(GAME.A_TAKE + tp("2S"))
    assert len(s.piles[0]) == 5
    assert codes(s, s.piles[0]) == ["5B", "5C", "5F", "5P", "5S"]
    assert s.peaked[4] and s.area[4] == []
    assert s.events()["peak_by_pass"] == 1
    assert s.returns()[0] == 5 - 2  # 5 peak-pile VP, 2 cards left in hand
    check_conservation(s)


def test_single_pass_peak() -> None:
    """A one-card pass reaching n + c(n) = 9 peaks the number (N2)."""
    # three 5s in the area, place a fourth: 5 + 4 = 9 peaks (ruling N2)
    s = pos(hands=[["5S", "1F"]], area=["5F", "5F", "5C"])
    s.apply_action(GAME.A_PASS1 + tp("5S"))
    assert len(s.piles[0]) == 4 and s.peaked[4] and s.area[4] == []


def test_rulebook_take_back_prevents_peak() -> None:
    """Rulebook example: taking a 5 back leaves 5 + 3 = 8, no peak (N2)."""
    # rulebook: two 5s in the area, place two 5s and take one 5 back: 5 + 3 = 8
    s = pos(hands=[["5S", "5F", "1C"]], area=["5C", "5B"])
    s.apply_action(GAME.A_PASS2 + tp("5S"))
    s.apply_action(GAME.A_SECOND + tp("5F"))
    assert len(s.area[4]) == 4
    s.apply_action(GAME.A_TAKE + tp("5S"))
    assert not s.peaked[4] and len(s.area[4]) == 3
    assert s.piles[0] == [] and s.events()["peak_by_pass"] == 0


def test_pass_two_may_take_a_card_just_placed() -> None:
    """The 2-for-1 pass may take back a card it just placed (N3)."""
    s = pos(hands=[["2S", "3F", "4C"]], area=[])
    s.apply_action(GAME.A_PASS2 + tp("2S"))
    s.apply_action(GAME.A_SECOND + tp("3F"))
    assert s.legal_actions() == [GAME.A_TAKE + tp("2S"), GAME.A_TAKE + tp("3F")]
    s.apply_action(GAME.A_TAKE + tp("2S"))
    assert codes(s, s.hands[0]) == ["2S", "4C"]
    assert s.events()["pass_two"] == 1


def test_two_numbers_peak_at_once() -> None:
    """Two numbers may peak after one pass; the check follows the take (N2)."""
    s = pos(hands=[["6S", "5S", "1C"]], area=["6F", "6F", "5F", "5F", "5C"])
    s.apply_action(GAME.A_PASS2 + tp("5S"))
    s.apply_action(GAME.A_SECOND + tp("6S"))
    s.apply_action(GAME.A_TAKE + tp("6F"))  # 6 falls back to 6 + 2 = 8, 5 reaches 9
    assert s.peaked[4] and not s.peaked[5]
    assert len(s.piles[0]) == 4
    t = pos(hands=[["6S", "5S", "1C"]], area=["6F", "6F", "5F", "5F", "5C", "2B"])
    t.apply_action(GAME.A_PASS2 + tp("5S"))
    t.apply_action(GAME.A_SECOND + tp("6S"))
    t.apply_action(GAME.A_TAKE + tp("2B"))
    assert t.peaked[4] and t.peaked[5] and len(t.piles[0]) == 7
    assert t.events()["peak_by_pass"] == 2


def test_two_card_pass_needs_two_cards_and_orders_types() -> None:
    """A 2-for-1 pass needs two hand cards; its cards go in type order (N3a)."""
    s = pos(hands=[["1S"]], area=[])
    assert s.legal_actions() == [GAME.A_PASS1 + tp("1S"), GAME.A_PLAY]
    s = pos(hands=[["3S", "2F"]], area=[])
    # second card of a type ≥ the first, so only the lower type can start
    assert GAME.A_PASS2 + tp("2F") in s.legal_actions()
    assert GAME.A_PASS2 + tp("3S") not in s.legal_actions()
    s = pos(hands=[["3S", "3S"]], area=[])
    assert GAME.A_PASS2 + tp("3S") in s.legal_actions()


def test_peaked_column_never_repeaks_and_cards_stay() -> None:
    """Cards placed in a peaked column stay there; no second peak (N2)."""
    s = pos(hands=[["6S", "2F"]], area=["6F", "6C", "6B"], peaked=[6])
    s.apply_action(GAME.A_PASS1 + tp("6S"))
    assert len(s.area[5]) == 4 and s.piles[0] == []
    assert s.events()["peak_by_pass"] == 0


def test_two_for_one_may_take_from_peaked_column() -> None:
    """A 2-for-1 pass may take a card from a peaked column (N2)."""
    s = pos(hands=[["2S", "3S", "4S"]], area=["6P"], peaked=[6])
    s.apply_action(GAME.A_PASS2 + tp("2S"))
    s.apply_action(GAME.A_SECOND + tp("3S"))
    assert GAME.A_TAKE + tp("6P") in s.legal_actions()
    s.apply_action(GAME.A_TAKE + tp("6P"))
    assert codes(s, s.hands[0]) == ["4S", "6P"]
    assert s.area[5] == [] and s.events()["take_from_peaked"] == 1


# ---------------------------------------------------------------- ranges (N1) and play (N4)

def test_rulebook_range_five_with_two_fives_in_area() -> None:
    """Rulebook example: two 5s in the area make a 5 usable as 5, 6 or 7 (N1)."""
    # rulebook: two 5s in the area → a 5 may be used as 5, 6 or 7
    s = pos(hands=[["5S"] * 3 + ["5F"] * 3 + ["5C"]], area=["5B", "5B"])
    assert declares(s) == [5, 6, 7]
    s = pos(hands=[["5S"] * 3 + ["5F"] * 3 + ["5C"]], area=[])
    assert declares(s) == [5]


def test_rulebook_mixed_numbers_set() -> None:
    """Rulebook example: with two 3s in the area, 3·3·5·5·5 is a set of 5 (N1, N4)."""
    # rulebook: two 3s in the area make 3s usable as 3–5, so 3·3·5·5·5 is a 5
    s = pos(hands=[["3S", "3F", "5S", "5F", "5C"]], area=["3C", "3B"])
    assert declares(s) == [5]
    s.apply_action(GAME.A_PLAY + 4)  # declare 5: all five cards are forced
    assert [codes(s, x) for x in s.sets[0]] == [["3F", "3S", "5C", "5F", "5S"]]
    assert s.prev[0] == 5


def test_peaked_number_usable_one_to_nine() -> None:
    """A peaked number is usable as any value 1–9 (N2)."""
    nine_twos = ["2S"] * 3 + ["2F"] * 3 + ["2C"] * 3
    s = pos(hands=[nine_twos], area=[], peaked=[2])
    assert declares(s) == list(range(1, 10))
    s = pos(hands=[nine_twos], area=[])
    assert declares(s) == [2]


def test_sets_never_shrink() -> None:
    """A set may not be smaller than the player's previous set (N4)."""
    hand = ["4S", "4F", "4C", "4B", "4P", "1S"]
    s = pos(hands=[hand], area=["4S"], prev_sizes=[4, 0, 0, 0])
    assert declares(s) == [4, 5]
    s = pos(hands=[hand], area=["4S"], prev_sizes=[0, 0, 0, 0])
    assert declares(s) == [1, 4, 5]
    s = pos(hands=[hand], area=["4S"], prev_sizes=[6, 0, 0, 0])
    assert declares(s) == []


def test_play_picks_in_type_order_and_autocompletes() -> None:
    """Set cards are picked in type order; forced picks complete automatically (N4)."""
    s = pos(hands=[["2S", "2F", "2C", "2B", "5S"]], area=[], deck=["1S"])
    s.apply_action(GAME.A_PLAY + 1)  # declare 2 from four 2s
    assert s.phase == PICK
    picks = s.legal_actions()
    assert picks == [GAME.A_PICK + tp(c) for c in ("2S", "2F", "2C")]
    s.apply_action(GAME.A_PICK + tp("2F"))
    # one pick left; 2C and 2B remain possible (types ≥ 2F)
    assert s.legal_actions() == [GAME.A_PICK + tp("2C"), GAME.A_PICK + tp("2B")]
    s.apply_action(GAME.A_PICK + tp("2B"))
    assert codes(s, s.sets[0][0]) == ["2B", "2F"]
    assert s.phase == KEEP  # no Persona in the set
    with pytest.raises(PnpError):
        s.clone().apply_action(GAME.A_PASS1)


def test_unusable_pick_is_rejected() -> None:
    """A card not usable as the declared value cannot join the set (N1, N4)."""
    s = pos(hands=[["2S", "2F", "2C", "5S"]], area=[])
    s.apply_action(GAME.A_PLAY + 1)
    with pytest.raises(PnpError, match="not usable"):
        s.apply_action(GAME.A_PICK + tp("5S"))


def test_personaless_set_may_keep_draw() -> None:
    """After a Persona-less set the drawn card may go to hand or area (N4)."""
    s = pos(hands=[["3S", "3F", "3C", "1B"]], area=[], deck=["6C", "2S"])
    s.apply_action(GAME.A_PLAY + 2)
    assert s.phase == KEEP and s.legal_actions() == [GAME.A_KEEP, GAME.A_PLACE_DRAWN]
    assert codes(s, [s.pending]) == ["6C"]
    assert s.observation(0).pending == s.pending and s.observation(1).pending == -1
    keep = s.clone()
    keep.apply_action(GAME.A_KEEP)
    assert codes(keep, keep.hands[0]) == ["1B", "6C"]
    assert keep.events()["personaless_to_hand"] == 1 and keep.current_player() == 1
    s.apply_action(GAME.A_PLACE_DRAWN)
    assert codes(s, s.area[5]) == ["6C"] and codes(s, s.hands[0]) == ["1B"]
    assert len(s.deck) == 1


def test_set_with_persona_places_draw() -> None:
    """After a set with a Persona the drawn card goes to the area (N4)."""
    s = pos(hands=[["3S", "3F", "3P", "1B"]], area=[], deck=["6C", "2S"])
    s.apply_action(GAME.A_PLAY + 2)
    assert s.phase == MAIN and s.current_player() == 1
    assert codes(s, s.area[5]) == ["6C"] and codes(s, s.hands[0]) == ["1B"]


def test_peak_by_play_discards() -> None:
    """A peak caused by a play's draw sends the column to the discard pile (N2, N4)."""
    # 6 + 2 = 8; the drawn 6 makes 9 → peak, cards to the discard pile (N2)
    s = pos(hands=[["1S", "1P", "2B"]], area=["6F", "6F"], deck=["6C"])
    spare = len(s.discard)  # cards named nowhere start in the discard pile
    s.apply_action(GAME.A_PLAY)  # declare 1, then choose the Persona
    assert s.legal_actions() == [GAME.A_PICK + tp("1S"), GAME.A_PICK + tp("1P")]
    s.apply_action(GAME.A_PICK + tp("1P"))
    assert s.peaked[5] and s.area[5] == []
    assert codes(s, s.discard[spare:]) == ["6C", "6F", "6F"]
    assert all(p == [] for p in s.piles)
    assert s.events()["peak_by_play"] == 1
    check_conservation(s)


def test_empty_deck_skips_draw() -> None:
    """With an empty deck the post-play draw is skipped (N4)."""
    s = pos(hands=[["3S", "1B"]], area=[], deck=[])
    s.apply_action(GAME.A_PLAY)  # declare 1: only 1B is usable as 1, so it is forced
    assert s.sets[0] and s.phase == MAIN and s.current_player() == 1
    assert s.events()["draw_skipped"] == 1


# ---------------------------------------------------------------- end (N5)

def test_trigger_on_last_seat_ends_at_once() -> None:
    """An empty hand on seat N−1's turn ends the game at once (N5)."""
    s = pos(hands=[["1S"], ["1F"], ["1C"], ["2S"]], player=3, deck=[])
    s.apply_action(GAME.A_PASS1 + tp("2S"))
    assert s.is_terminal() and s.current_player() == TERMINAL
    assert s.events()["end_trigger"] == 1
    assert s.legal_actions() == []


def test_trigger_mid_round_continues_to_last_seat() -> None:
    """After an earlier trigger play continues through seat N−1 (N5)."""
    s = pos(hands=[["1S", "4S"], ["2S"], ["3S", "4F"], ["1C", "4C"]], player=1)
    s.apply_action(GAME.A_PASS1 + tp("2S"))
    assert s.triggered and not s.is_terminal() and s.current_player() == 2
    s.apply_action(GAME.A_PASS1 + tp("3S"))
    assert s.current_player() == 3 and not s.is_terminal()
    s.apply_action(GAME.A_PASS1 + tp("1C"))
    assert s.is_terminal()
    assert s.events()["end_trigger"] == 1


def test_empty_hand_on_turn_is_skipped() -> None:
    """A seat on turn with no cards is skipped and pulls the trigger (N5a)."""
    # ruling N5a (docs/rules/nine_peak-engine.md): a seat with no cards has no move
    s = pos(hands=[["1S", "2S"], [], ["3S", "4F"], ["1C", "4C"]], player=0)
    s.apply_action(GAME.A_PASS1 + tp("1S"))
    assert s.current_player() == 2
    assert s.triggered and s.trigger_seat == 1
    assert s.events()["empty_hand_skip"] == 1


# ---------------------------------------------------------------- scoring (N6)

def _set_value(game: NinePeakGame, code_list: list[str]) -> int:
    """Value of a set given as card codes, under ``game``'s scoring method."""
    s = game.state_from_position(3, hands=[[], [], []], sets=[[code_list]])
    return game.score_set(s.sets[0][0])


def test_full_scoring_examples() -> None:
    """Full method: same-suit (+1 bonus) vs mixed-suit, Personas filling suits (N6)."""
    base = GAME.base_points
    # same suit throughout (a Persona joining): base × (count + 1)
    assert _set_value(GAME, ["1S", "2S", "3S", "4P"]) == base[3] * 5
    assert _set_value(GAME, ["1S", "2S", "3S", "4S", "5S", "6S"]) == 7 * 7
    # same-suit without the bonus: base × largest suit count with Personas
    assert _set_value(GAME, ["1S", "2S", "3S", "4S", "5S", "6F", "1P"]) == 9 * 6
    # mixed suits: size × distinct suits, a Persona filling a missing one
    assert _set_value(GAME, ["1S", "2F", "3C", "4P", "5S"]) == 5 * 4
    # never a fifth suit
    assert _set_value(GAME, ["1S", "2F", "3C", "4B", "5P"]) == 5 * 4
    # never more suits than cards; two Personas alone are one suit + bonus
    assert _set_value(GAME, ["1P", "2P"]) == 2 * 3
    assert _set_value(GAME, ["1S", "2F"]) == 2 * 2
    assert _set_value(GAME, ["1S"]) == 1 * 2


def test_simple_scoring_examples() -> None:
    """Simple method: base × larger colour with Personas joining it (N6)."""
    # base × larger colour, Personas joining it (black S/F, red C/B)
    assert _set_value(SIMPLE, ["1S", "2F", "3C", "4P"]) == 4 * 3
    assert _set_value(SIMPLE, ["1C", "2B", "3C", "4S", "5S"]) == 5 * 3
    assert _set_value(SIMPLE, ["1C", "2B", "3P", "4P", "5S", "6S"]) == 7 * 4


def test_returns_add_pile_and_subtract_hand() -> None:
    """Returns add peak-pile cards and subtract hand cards (N6)."""
    s = GAME.state_from_position(
        3, hands=[["1S", "2S"], [], ["3C"]],
        sets=[[["1F", "2F", "3F"]], [["4C"], ["5C", "6B"]], []],
        peak_piles=[["6S", "6S"], [], ["5F"] * 3])
    assert s.returns() == [3 * 4 + 2 - 2, 2 + 2 * 2, 3 - 1]
    s2 = SIMPLE.state_from_position(
        3, hands=[["1S", "2S"], [], ["3C"]],
        sets=[[["1F", "2F", "3F"]], [["4C"], ["5C", "6B"]], []],
        peak_piles=[["6S", "6S"], [], ["5F"] * 3])
    assert s2.returns() == [9 + 2 - 2, 1 + 2 * 2, 3 - 1]


def test_tie_goes_to_earlier_seat() -> None:
    """Tied scores go to the earlier seat (N6)."""
    s = GAME.state_from_position(
        4, hands=[["1S"], [], [], ["3C"]], sets=[[], [["4C"]], [["4F"]], []])
    assert s.returns() == [-1, 2, 2, -1]
    assert s.winners() == [1]


# ---------------------------------------------------------------- observation, clone, strings

def test_observation_hides_other_hands_and_deck() -> None:
    """Observations show no other hand or deck card and are copies."""
    s = GAME.new_initial_state(4, 3)
    ob = s.observation(1)
    assert sorted(ob.hand) == sorted(s.hands[1])
    assert ob.hand_sizes == [13] * 4 and ob.deck_size == len(s.deck)
    visible = set(ob.hand) | {c for col in ob.area for c in col} | set(ob.discard)
    assert not visible & set(s.hands[0]) and not visible & set(s.deck)
    ob.hand.clear()
    ob.area[0].append(99)
    assert len(s.hands[1]) == 13 and 99 not in s.area[0]


def test_clone_is_independent() -> None:
    """Playing on a clone leaves the original untouched."""
    s = GAME.new_initial_state(4, 11)
    c = s.clone()
    before = list(s.zones())
    rng = random.Random(0)
    for _ in range(30):
        if c.is_terminal():
            break
        la = c.legal_actions()
        c.apply_action(la[rng.randrange(len(la))])
    assert [(n, list(z)) for n, z in s.zones()] == [(n, list(z)) for n, z in before]
    assert s.turns() == 1 and s.events()["set"] + s.events()["pass_one"] == 0


def test_action_strings() -> None:
    """Action strings are readable."""
    s = pos(hands=[["1S", "1F"]], area=["1C"])
    texts = [s.action_to_string(a) for a in s.legal_actions()]
    assert "pass: place 1 silk hat" in texts
    assert any("declare a set of 2" in t for t in texts)
    assert "keep the drawn card" in s.action_to_string(GAME.A_KEEP)


# ---------------------------------------------------------------- random playouts

def _signature(s: NinePeakState) -> tuple:
    """Everything observable about a state, for equality checks."""
    return (tuple((n, tuple(z)) for n, z in s.zones()), s.current_player(),
            s.turns(), tuple(sorted(s.events().items())), tuple(s.legal_actions()))


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_random_playouts_invariants(num_players: int) -> None:
    """Seeded random games keep every invariant and replay exactly."""
    deck = Counter(GAME.deck())
    cap = 2000
    for seed in range(120):
        s = GAME.new_initial_state(num_players, seed)
        rng = random.Random(seed)
        history: list[int] = []
        for _ in range(cap):
            assert Counter(c for _, z in s.zones() for c in z) == deck
            for i in range(6):  # no unpeaked number may sit at 9+ between actions
                assert s.peaked[i] or i + 1 + len(s.area[i]) < 9 or s.phase in (SECOND, TAKE)
            if s.is_terminal():
                break
            legal = s.legal_actions()
            assert legal and legal == sorted(set(legal))
            if seed % 10 == 0:
                for a in legal:
                    child = s.clone()
                    child.apply_action(a)
                    assert Counter(c for _, z in child.zones() for c in z) == deck
            a = legal[rng.randrange(len(legal))]
            s.apply_action(a)
            history.append(a)
        assert s.is_terminal(), "game did not end within the step cap"
        assert s.triggered
        assert len(s.returns()) == num_players and len(s.winners()) == 1
        if seed % 20 == 0:
            again = GAME.new_initial_state(num_players, seed)
            for a in history:
                again.apply_action(a)
            assert _signature(again) == _signature(s)
            assert again.returns() == s.returns()


def test_same_seed_same_game_different_seed_differs() -> None:
    """The same seed deals the same game; another seed does not."""
    a, b, c = (GAME.new_initial_state(4, 5), GAME.new_initial_state(4, 5),
               GAME.new_initial_state(4, 6))
    assert _signature(a) == _signature(b)
    assert _signature(a) != _signature(c)


# ---------------------------------------------------------------- greedy bot

def _play(game: NinePeakGame, bots: str, seed: int) -> NinePeakState:
    """Play one game with bots given as letters (g = greedy, r = random)."""
    s = game.new_initial_state(len(bots), seed)
    rngs = [random.Random(seed * 7 + i) for i in range(len(bots))]
    while not s.is_terminal():
        p = s.current_player()
        legal = s.legal_actions()
        if len(legal) == 1:
            a = legal[0]
        elif bots[p] == "g":
            a = game.greedy_action(s.observation(p), legal, rngs[p])
            assert a in legal
        else:
            a = legal[rngs[p].randrange(len(legal))]
        s.apply_action(a)
    return s


@pytest.mark.parametrize("game", [GAME, SIMPLE], ids=["full", "simple"])
def test_greedy_beats_random(game: NinePeakGame) -> None:
    """The greedy bot wins far more than a quarter of games against random bots."""
    wins = 0
    games = 120
    for i in range(games):
        seat = i % 4
        bots = ["r"] * 4
        bots[seat] = "g"
        s = _play(game, "".join(bots), i)
        wins += s.winners() == [seat]
    assert wins / games > 0.5  # random alone would win about 25%


def test_greedy_grabs_a_peak() -> None:
    """The greedy bot passes the card that peaks a column for it."""
    s = pos(hands=[["5S", "1F", "2C", "3B", "4S"]], area=["5F", "5F", "5C"])
    a = GAME.greedy_action(s.observation(0), s.legal_actions(), random.Random(0))
    assert a == GAME.A_PASS1 + tp("5S")


def test_greedy_plays_last_turn() -> None:
    """On its last turn the greedy bot plays a set rather than passing."""
    # trigger pulled: playing four 4s beats passing
    s = pos(hands=[["1S"], ["4S", "4F", "4C", "4B"]], player=1, triggered=True)
    a = GAME.greedy_action(s.observation(1), s.legal_actions(), random.Random(0))
    assert a == GAME.A_PLAY + 3
