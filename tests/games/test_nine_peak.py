"""Known-answer tests for the 9 Peak rules engine (rulebook + rulings N1–N6).

Scripted positions are written in the position notation
(:mod:`pnp.games.nine_peak.notation`; cards are number + suit letter
S/F/C/B/P, e.g. ``5S`` = 5 silk hat) and moves in the action text
(:mod:`pnp.games.nine_peak.codec`, e.g. ``pass2 5B``).
"""

from __future__ import annotations

import random
import shutil
from collections import Counter
from pathlib import Path
from typing import Any, Iterable

import pytest

from pnp import PROJECT_ROOT
from pnp.data import load_game_data
from pnp.data.manifest import load_manifest
from pnp.errors import PnpError
from pnp.games.api import TERMINAL, IllegalAction
from pnp.games.nine_peak import NinePeakGame, NinePeakState

from gamedata import build_game

GAME = build_game("nine_peak")
assert isinstance(GAME, NinePeakGame)
SIMPLE = build_game("nine_peak", {"scoring": "simple"})
assert isinstance(SIMPLE, NinePeakGame)


def at(text: str, game: NinePeakGame = GAME) -> NinePeakState:
    """The position written as ``text``."""
    return game.state_from_notation(text)


def play(state: NinePeakState, *moves: str) -> None:
    """Apply moves given as action text (each must be legal)."""
    for move in moves:
        state.apply_action(state.string_to_action(move))


def legal(state: NinePeakState) -> list[str]:
    """The legal actions as text."""
    return [state.action_to_string(a) for a in state.legal_actions()]


def declares(state: NinePeakState) -> list[int]:
    """Set values X that may be declared now."""
    return [int(t.split()[1]) for t in legal(state) if t.startswith("declare")]


def codes(state: NinePeakState, cards: Iterable[int]) -> list[str]:
    """Cards as sorted type codes."""
    return sorted(state.game.card_name(c) for c in cards)


def check_conservation(state: NinePeakState) -> None:
    """Every card id in exactly one zone."""
    seen = Counter(c for _, cards in state.zones() for c in cards)
    assert seen == Counter(state.game.deck())


def _copy_data(tmp_path: Path) -> Path:
    """A copy of the 9 Peak data folder; returns the data root."""
    shutil.copytree(PROJECT_ROOT / "card_data" / "nine_peak", tmp_path / "nine_peak")
    return tmp_path


def _edit(path: Path, old: str, new: str) -> None:
    """Replace ``old`` (which must occur) by ``new`` in ``path``."""
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


# ---------------------------------------------------------------- card data

def test_card_table_from_data() -> None:
    """The card table is built from the loaded hats: 78 cards, 30 types, 6 Personas."""
    assert GAME.num_cards == 78
    assert GAME.num_types == 30
    assert Counter(GAME.card_number) == {n: 13 for n in range(1, 7)}
    assert sum(GAME.type_persona[GAME.card_type[c]] for c in range(78)) == 6
    assert list(GAME.deck()) == list(range(78))
    assert GAME.title == "9 Peak"


def test_base_points_match_rulebook() -> None:
    """Base points equal the rulebook table and the manifest constants (N6)."""
    # rulebook 精算 table / ruling N6
    assert GAME.base_points == (1, 2, 3, 4, 5, 7, 9, 11, 13)
    manifest = load_manifest(PROJECT_ROOT / "card_data/nine_peak/manifest.toml")
    assert list(GAME.base_points) == manifest.constants["base_points"]


def test_base_points_read_from_manifest(tmp_path: Path) -> None:
    """Editing base_points in the manifest changes the engine's scoring."""
    root = _copy_data(tmp_path)
    _edit(root / "nine_peak" / "manifest.toml", "base_points = [1, 2, 3, 4, 5, 7, 9, 11, 13]",
          "base_points = [1, 2, 3, 4, 5, 6, 7, 8, 9]")
    game = NinePeakGame(load_game_data(root, "nine_peak", strict=True))
    assert game.base_points == (1, 2, 3, 4, 5, 6, 7, 8, 9)
    ones = [c for c in range(78) if game.card_number[c] == 1][:6]
    assert (game.score_set(ones), GAME.score_set(ones)) == (6 * 3, 7 * 3)  # 3 of one suit


def test_bad_base_points_is_pnp_error(tmp_path: Path) -> None:
    """A malformed base_points constant is a one-line PnpError."""
    root = _copy_data(tmp_path)
    _edit(root / "nine_peak" / "manifest.toml", "base_points = [1, 2, 3, 4, 5, 7, 9, 11, 13]",
          "base_points = [1, 2]")
    with pytest.raises(PnpError, match="base_points"):
        NinePeakGame(load_game_data(root, "nine_peak", strict=True))


def test_peak_and_number_cards_must_fit_the_rules(tmp_path: Path) -> None:
    """Peak cards other than one per number 1–6, or number cards other than 2–8, are refused."""
    root = _copy_data(tmp_path)
    _edit(root / "nine_peak" / "peaks.csv", "peak-6,6,1", "peak-6,5,1")
    with pytest.raises(PnpError, match="peak cards"):
        NinePeakGame(load_game_data(root, "nine_peak"))
    root = _copy_data(tmp_path / "b")
    _edit(root / "nine_peak" / "numbers.csv", "number-8,8,1", "number-8,7,1")
    with pytest.raises(PnpError, match="number cards"):
        NinePeakGame(load_game_data(root, "nine_peak"))


def test_params_and_player_counts() -> None:
    """Parameter defaults, bad values, player-count limits and event names."""
    assert GAME.params == {"scoring": "full", "hand_size": 13, "setup_cards": 6}
    with pytest.raises(PnpError):
        build_game("nine_peak", {"scoring": "fancy"})
    with pytest.raises(PnpError):
        GAME.new_initial_state(2, 0)
    with pytest.raises(PnpError):
        GAME.new_initial_state(6, 0)
    with pytest.raises(PnpError, match="exceeds"):
        build_game("nine_peak", {"hand_size": 15}).new_initial_state(5, 0)
    for name in ("set", "pass_one", "pass_two", "peak_by_pass", "peak_by_play",
                 "peak_at_setup", "personaless_to_hand", "end_trigger"):
        assert name in GAME.event_names
    assert GAME.phase_names == ("main", "second", "take", "pick", "keep", "over")


# ---------------------------------------------------------------- set-up (N1, N2)

@pytest.mark.parametrize("n", [3, 4, 5])
def test_setup_deal(n: int) -> None:
    """Set-up places 6 cards by printed number (N1) and deals 13 each; seat 0 starts."""
    s = GAME.new_initial_state(n, 7)
    assert [len(h) for h in s.hands] == [13] * n
    area = sum(len(c) for c in s.area)
    assert area + len(s.discard) == 6
    assert len(s.deck) == 78 - 6 - 13 * n
    assert s.current_player() == 0 and s.turns() == 1 and s.phase() == "main"
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
    game = build_game("nine_peak", {"setup_cards": 20})
    s = game.new_initial_state(3, 1)
    assert s.events()["peak_at_setup"] >= 1
    assert sum(s.peaked) == s.events()["peak_at_setup"]
    check_conservation(s)


# ---------------------------------------------------------------- pass (N3) and peak (N2)

def test_pass_one_places_card_in_its_column() -> None:
    """A one-card pass puts the card in its number's column (N1, N3)."""
    s = at("n=4 hands=3S4F/6B/6B/6B")
    play(s, "pass 3S")
    assert codes(s, s.area[2]) == ["3S"]
    assert codes(s, s.hands[0]) == ["4F"]
    assert s.current_player() == 1 and s.events()["pass_one"] == 1


def test_rulebook_pass_peak_gives_five_vp() -> None:
    """Rulebook example: three 5s + two placed = peak, 5 cards to the passer (N2, N3)."""
    # rulebook: three 5s in the area, place two 5s, take a non-5: 5 + 5 = 10
    s = at("n=4 hands=5B5P3S/6B/6B/6B area=2S5S5F5C")
    play(s, "pass2 5B")
    assert s.phase() == "second"
    assert legal(s) == ["second 5P"]
    play(s, "second 5P")
    assert s.phase() == "take"
    play(s, "take 2S")
    assert len(s.piles[0]) == 5
    assert codes(s, s.piles[0]) == ["5B", "5C", "5F", "5P", "5S"]
    assert s.peaked[4] and s.area[4] == []
    assert s.events()["peak_by_pass"] == 1
    assert s.returns()[0] == 5 - 2  # 5 peak-pile VP, 2 cards left in hand
    check_conservation(s)


def test_single_pass_peak() -> None:
    """A one-card pass reaching n + c(n) = 9 peaks the number (N2)."""
    # three 5s in the area, place a fourth: 5 + 4 = 9 peaks (ruling N2)
    s = at("n=4 hands=5S1F/6B/6B/6B area=5F5F5C")
    play(s, "pass 5S")
    assert len(s.piles[0]) == 4 and s.peaked[4] and s.area[4] == []


def test_rulebook_take_back_prevents_peak() -> None:
    """Rulebook example: taking a 5 back leaves 5 + 3 = 8, no peak (N2)."""
    # rulebook: two 5s in the area, place two 5s and take one 5 back: 5 + 3 = 8
    s = at("n=4 hands=5S5F1C/6B/6B/6B area=5C5B")
    play(s, "pass2 5S", "second 5F")
    assert len(s.area[4]) == 4
    play(s, "take 5S")
    assert not s.peaked[4] and len(s.area[4]) == 3
    assert s.piles[0] == () and s.events()["peak_by_pass"] == 0


def test_pass_two_may_take_a_card_just_placed() -> None:
    """The 2-for-1 pass may take back a card it just placed (N3)."""
    s = at("n=4 hands=2S3F4C/6B/6B/6B")
    play(s, "pass2 2S", "second 3F")
    assert legal(s) == ["take 2S", "take 3F"]
    play(s, "take 2S")
    assert codes(s, s.hands[0]) == ["2S", "4C"]
    assert s.events()["pass_two"] == 1


def test_two_numbers_peak_at_once() -> None:
    """Two numbers may peak after one pass; the check follows the take (N2)."""
    s = at("n=4 hands=6S5S1C/4B/4B/4B area=5F5F5C6F6F")
    play(s, "pass2 5S", "second 6S", "take 6F")  # 6 falls back to 6 + 2 = 8, 5 reaches 9
    assert s.peaked[4] and not s.peaked[5]
    assert len(s.piles[0]) == 4
    t = at("n=4 hands=6S5S1C/4B/4B/4B area=2B5F5F5C6F6F")
    play(t, "pass2 5S", "second 6S", "take 2B")
    assert t.peaked[4] and t.peaked[5] and len(t.piles[0]) == 7
    assert t.events()["peak_by_pass"] == 2


def test_two_card_pass_needs_two_cards_and_orders_types() -> None:
    """A 2-for-1 pass needs two hand cards; its cards go in type order (N3a)."""
    s = at("n=4 hands=1S/6B/6B/6B")
    assert legal(s) == ["pass 1S", "declare 1"]
    s = at("n=4 hands=3S2F/6B/6B/6B")
    # second card of a type ≥ the first, so only the lower type can start
    assert "pass2 2F" in legal(s) and "pass2 3S" not in legal(s)
    s = at("n=4 hands=3S3S/6B/6B/6B")
    assert "pass2 3S" in legal(s)


def test_peaked_column_never_repeaks_and_cards_stay() -> None:
    """Cards placed in a peaked column stay there; no second peak (N2)."""
    s = at("n=4 peaked=6 hands=6S2F/5B/5B/5B area=6F6C6B")
    play(s, "pass 6S")
    assert len(s.area[5]) == 4 and s.piles[0] == ()
    assert s.events()["peak_by_pass"] == 0


def test_two_for_one_may_take_from_peaked_column() -> None:
    """A 2-for-1 pass may take a card from a peaked column (N2)."""
    s = at("n=4 peaked=6 hands=2S3S4S/6B/6B/6B area=6P")
    play(s, "pass2 2S", "second 3S")
    assert "take 6P" in legal(s)
    play(s, "take 6P")
    assert codes(s, s.hands[0]) == ["4S", "6P"]
    assert s.area[5] == [] and s.events()["take_from_peaked"] == 1


# ---------------------------------------------------------------- ranges (N1) and play (N4)

def test_rulebook_range_five_with_two_fives_in_area() -> None:
    """Rulebook example: two 5s in the area make a 5 usable as 5, 6 or 7 (N1)."""
    # rulebook: two 5s in the area → a 5 may be used as 5, 6 or 7
    s = at("n=4 hands=5S5S5S5F5F5F5C/6B/6B/6B area=5B5B")
    assert declares(s) == [5, 6, 7]
    s = at("n=4 hands=5S5S5S5F5F5F5C/6B/6B/6B")
    assert declares(s) == [5]


def test_rulebook_mixed_numbers_set() -> None:
    """Rulebook example: with two 3s in the area, 3·3·5·5·5 is a set of 5 (N1, N4)."""
    # rulebook: two 3s in the area make 3s usable as 3–5, so 3·3·5·5·5 is a 5
    s = at("n=4 hands=3S3F5S5F5C/6B/6B/6B area=3C3B")
    assert declares(s) == [5]
    play(s, "declare 5")  # all five cards are forced
    assert [codes(s, x) for x in s.sets[0]] == [["3F", "3S", "5C", "5F", "5S"]]
    assert s.prev[0] == 5


def test_peaked_number_usable_one_to_nine() -> None:
    """A peaked number is usable as any value 1–9 (N2)."""
    s = at("n=4 peaked=2 hands=2S2S2S2F2F2F2C2C2C/6B/6B/6B")
    assert declares(s) == list(range(1, 10))
    s = at("n=4 hands=2S2S2S2F2F2F2C2C2C/6B/6B/6B")
    assert declares(s) == [2]


def test_sets_never_shrink() -> None:
    """A set may not be smaller than the player's previous set (N4)."""
    hand = "4S4F4C4B4P1S/6B/6B/6B area=4S"
    assert declares(at(f"n=4 prev=4,0,0,0 hands={hand}")) == [4, 5]
    assert declares(at(f"n=4 hands={hand}")) == [1, 4, 5]
    assert declares(at(f"n=4 prev=6,0,0,0 hands={hand}")) == []


def test_play_picks_in_type_order_and_autocompletes() -> None:
    """Set cards are picked in type order; forced picks complete automatically (N4)."""
    s = at("n=4 hands=2S2F2C2B5S/6B/6B/6B deck=1S")
    play(s, "declare 2")  # a set of 2 from four 2s
    assert s.phase() == "pick"
    assert legal(s) == ["pick 2S", "pick 2F", "pick 2C"]
    play(s, "pick 2F")
    # one pick left; 2C and 2B remain possible (types ≥ 2F)
    assert legal(s) == ["pick 2C", "pick 2B"]
    play(s, "pick 2B")
    assert codes(s, s.sets[0][0]) == ["2B", "2F"]
    assert s.phase() == "keep"  # no Persona in the set
    before = s.to_notation()
    with pytest.raises(IllegalAction):
        s.apply_action(GAME.A_PASS1)
    assert s.to_notation() == before


def test_unusable_pick_is_rejected() -> None:
    """A card not usable as the declared value cannot join the set (N1, N4)."""
    s = at("n=4 hands=2S2F2C5S/6B/6B/6B")
    play(s, "declare 2")
    before = s.to_notation()
    with pytest.raises(IllegalAction, match="not legal"):
        play(s, "pick 5S")
    with pytest.raises(IllegalAction):
        s.apply_action(GAME.A_PICK + GAME.codec.index["5S"])
    assert s.to_notation() == before


def test_personaless_set_may_keep_draw() -> None:
    """After a Persona-less set the drawn card may go to hand or area (N4)."""
    s = at("n=4 hands=3S3F3C1B/6B/6B/6B deck=6C2S")
    play(s, "declare 3")
    assert s.phase() == "keep" and legal(s) == ["keep", "place"]
    assert codes(s, [s.pending]) == ["6C"]
    assert s.observation(0).pending == s.pending and s.observation(1).pending == -1
    keep = s.clone()
    play(keep, "keep")
    assert codes(keep, keep.hands[0]) == ["1B", "6C"]
    assert keep.events()["personaless_to_hand"] == 1 and keep.current_player() == 1
    play(s, "place")
    assert codes(s, s.area[5]) == ["6C"] and codes(s, s.hands[0]) == ["1B"]
    assert len(s.deck) == 1


def test_set_with_persona_places_draw() -> None:
    """After a set with a Persona the drawn card goes to the area (N4)."""
    s = at("n=4 hands=3S3F3P1B/6B/6B/6B deck=6C2S")
    play(s, "declare 3")
    assert s.phase() == "main" and s.current_player() == 1
    assert codes(s, s.area[5]) == ["6C"] and codes(s, s.hands[0]) == ["1B"]


def test_peak_by_play_discards() -> None:
    """A peak caused by a play's draw sends the column to the discard pile (N2, N4)."""
    # 6 + 2 = 8; the drawn 6 makes 9 → peak, cards to the discard pile (N2)
    s = at("n=4 hands=1S1P2B/6B/6B/6B area=6F6F deck=6C")
    spare = len(s.discard)  # cards named nowhere start in the discard pile
    play(s, "declare 1")  # then choose the Persona
    assert legal(s) == ["pick 1S", "pick 1P"]
    play(s, "pick 1P")
    assert s.peaked[5] and s.area[5] == []
    assert codes(s, s.discard[spare:]) == ["6C", "6F", "6F"]
    assert all(p == () for p in s.piles)
    assert s.events()["peak_by_play"] == 1
    check_conservation(s)


def test_empty_deck_skips_draw() -> None:
    """With an empty deck the post-play draw is skipped (N4)."""
    s = at("n=4 hands=3S1B/6B/6B/6B deck=-")
    play(s, "declare 1")  # only 1B is usable as 1, so it is forced
    assert s.sets[0] and s.phase() == "main" and s.current_player() == 1
    assert s.events()["draw_skipped"] == 1


# ---------------------------------------------------------------- end (N5)

def test_trigger_on_last_seat_ends_at_once() -> None:
    """An empty hand on seat N−1's turn ends the game at once (N5)."""
    s = at("n=4 to=3 hands=1S/1F/1C/2S deck=-")
    play(s, "pass 2S")
    assert s.is_terminal() and s.current_player() == TERMINAL and s.phase() == "over"
    assert s.events()["end_trigger"] == 1
    assert s.legal_actions() == []
    with pytest.raises(IllegalAction):
        s.apply_action(0)


def test_trigger_mid_round_continues_to_last_seat() -> None:
    """After an earlier trigger play continues through seat N−1 (N5)."""
    s = at("n=4 to=1 hands=1S4S/2S/3S4F/1C4C")
    play(s, "pass 2S")
    assert s.triggered and not s.is_terminal() and s.current_player() == 2
    play(s, "pass 3S")
    assert s.current_player() == 3 and not s.is_terminal()
    play(s, "pass 1C")
    assert s.is_terminal()
    assert s.events()["end_trigger"] == 1


def test_empty_hand_on_turn_is_skipped() -> None:
    """A seat on turn with no cards is skipped and pulls the trigger (N5a)."""
    # ruling N5a (docs/rules/nine_peak-engine.md): a seat with no cards has no move
    s = at("n=4 hands=1S2S/-/3S4F/1C4C")
    play(s, "pass 1S")
    assert s.current_player() == 2
    assert s.triggered and s.trigger_seat == 1
    assert s.events()["empty_hand_skip"] == 1


def test_keeping_the_draw_pulls_no_trigger() -> None:
    """A hand played out but refilled by keeping the draw is not empty (N5b)."""
    s = at("n=4 hands=3S3F3C/1B/1B/1B deck=6C")
    play(s, "declare 3", "keep")
    assert not s.triggered and codes(s, s.hands[0]) == ["6C"]
    t = at("n=4 hands=3S3F3C/1B/1B/1B deck=6C")
    play(t, "declare 3", "place")
    assert t.triggered and t.trigger_seat == 0


# ---------------------------------------------------------------- scoring (N6)

def _set_value(game: NinePeakGame, cards: str) -> int:
    """Value of one set given as run-together card codes, under ``game``'s scoring."""
    s = at(f"n=3 phase=over hands=-/-/- sets={cards}/-/-", game)
    return game.score_set(s.sets[0][0])


def test_full_scoring_examples() -> None:
    """Full method: same-suit (+1 bonus) vs mixed-suit, Personas filling suits (N6)."""
    base = GAME.base_points
    # same suit throughout (a Persona joining): base × (count + 1)
    assert _set_value(GAME, "1S2S3S4P") == base[3] * 5
    assert _set_value(GAME, "1S2S3S4S5S6S") == 7 * 7
    # same-suit without the bonus: base × largest suit count with Personas
    assert _set_value(GAME, "1S2S3S4S5S6F1P") == 9 * 6
    # mixed suits: size × distinct suits, a Persona filling a missing one
    assert _set_value(GAME, "1S2F3C4P5S") == 5 * 4
    # never a fifth suit
    assert _set_value(GAME, "1S2F3C4B5P") == 5 * 4
    # never more suits than cards; two Personas alone are one suit + bonus (N6a)
    assert _set_value(GAME, "1P2P") == 2 * 3
    assert _set_value(GAME, "1S2F") == 2 * 2
    assert _set_value(GAME, "1S") == 1 * 2


def test_simple_scoring_examples() -> None:
    """Simple method: base × larger colour with Personas joining it (N6)."""
    # base × larger colour, Personas joining it (black S/F, red C/B)
    assert _set_value(SIMPLE, "1S2F3C4P") == 4 * 3
    assert _set_value(SIMPLE, "1C2B3C4S5S") == 5 * 3
    assert _set_value(SIMPLE, "1C2B3P4P5S6S") == 7 * 4
    # small sets: a Persona joins the larger colour there too, and Personas
    # alone are one colour (base 2 × 2; base 1 × 1)
    assert _set_value(SIMPLE, "1S2P") == 2 * 2
    assert _set_value(SIMPLE, "1P2P") == 2 * 2
    assert _set_value(SIMPLE, "1P") == 1 * 1


def test_returns_add_pile_and_subtract_hand() -> None:
    """Returns add peak-pile cards and subtract hand cards (N6)."""
    text = "n=3 hands=1S2S/-/3C sets=1F2F3F/4C,5C6B/- peaks=6S6S/-/5F5F5F"
    assert at(text).returns() == [3 * 4 + 2 - 2, 2 + 2 * 2, 3 - 1]
    assert at(text, SIMPLE).returns() == [9 + 2 - 2, 1 + 2 * 2, 3 - 1]


def test_tie_goes_to_earlier_seat() -> None:
    """Tied scores go to the earlier seat (N6)."""
    s = at("n=4 hands=1S/-/-/3C sets=-/4C/4F/-")
    assert s.returns() == [-1, 2, 2, -1]
    assert s.winners() == [1]


# ---------------------------------------------------------------- observation, clone, strings

def test_observation_hides_other_hands_and_deck() -> None:
    """Observations show no other hand or deck card and are immutable."""
    s = GAME.new_initial_state(4, 3)
    ob = s.observation(1)
    assert ob.seat == 1 and ob.current_player == 0 and ob.phase == "main"
    assert sorted(ob.hand) == sorted(s.hands[1])
    assert ob.hand_sizes == (13,) * 4 and ob.deck_size == len(s.deck)
    visible = set(ob.hand) | {c for col in ob.area for c in col} | set(ob.discard)
    assert not visible & set(s.hands[0]) and not visible & set(s.deck)
    assert isinstance(ob.hand, tuple) and all(isinstance(c, tuple) for c in ob.area)
    with pytest.raises(AttributeError):
        ob.hand = ()  # type: ignore[misc]
    hash(ob)


def test_clone_is_independent() -> None:
    """Playing on a clone leaves the original untouched."""
    s = GAME.new_initial_state(4, 11)
    c = s.clone()
    before = s.to_notation()
    zones = [(n, list(z)) for n, z in s.zones()]
    rng = random.Random(0)
    for _ in range(30):
        if c.is_terminal():
            break
        la = c.legal_actions()
        c.apply_action(la[rng.randrange(len(la))])
    assert [(n, list(z)) for n, z in s.zones()] == zones
    assert s.to_notation() == before != c.to_notation()
    assert s.turns() == 1 and s.events()["set"] + s.events()["pass_one"] == 0


def test_action_strings() -> None:
    """Action texts are short: kind and card code (or set size)."""
    s = at("n=4 hands=1S1F/6B/6B/6B area=1C")
    assert legal(s) == ["pass 1S", "pass 1F", "pass2 1S", "declare 1", "declare 2"]
    assert s.action_to_string(GAME.A_KEEP) == "keep"


def test_zone_names() -> None:
    """Zones follow the kind / kind:n convention (deck, column:n, hand:p, sets:p, peak:p)."""
    names = [n for n, _ in GAME.new_initial_state(3, 0).zones()]
    assert names == (["deck"] + [f"column:{i}" for i in range(1, 7)] + ["discard"]
                     + [f"{k}:{p}" for p in range(3) for k in ("hand", "sets", "peak")]
                     + ["set_in_progress", "drawn"])


# ---------------------------------------------------------------- random playouts

def _signature(s: NinePeakState) -> tuple[Any, ...]:
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
                assert (s.peaked[i] or i + 1 + len(s.area[i]) < 9
                        or s.phase() in ("second", "take"))
            if s.is_terminal():
                break
            la = s.legal_actions()
            assert la and la == sorted(set(la))
            if seed % 10 == 0:
                for a in la:
                    child = s.clone()
                    child.apply_action(a)
                    assert Counter(c for _, z in child.zones() for c in z) == deck
            a = la[rng.randrange(len(la))]
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
