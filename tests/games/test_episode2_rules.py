"""Known-answer tests for the 第2話 rules engine (rulebook 2-1 … 2-2-6, rulings E1–E6).

Positions are written in the notation of :mod:`pnp.games.episode2.notation`
with the dice FIXED by its ``dice=`` field (the engine uses those faces
before its generator), and moves in the action text of
:mod:`pnp.games.episode2.codec` (``attack ♣7``, ``reroll 1,3 with ♦4`` …).
"""

from __future__ import annotations

from typing import Sequence

import pytest

from pnp.games.api import TERMINAL, IllegalAction, NotationError
from pnp.games.episode2 import Episode2Game, Episode2State
from pnp.games.episode2.scoring import (GAME_OVER, NORMAL_CLEAR, TRUE_END)

from gamedata import build_game

GAME = build_game("episode2")
assert isinstance(GAME, Episode2Game)
PLAYER_CARDS = list(GAME.names[:GAME.num_player_cards])
BOSSES = list(GAME.names[GAME.num_player_cards:])


def position(*, hand: Sequence[str], deck: Sequence[str] = (), pool: Sequence[str] = (),
             discard: Sequence[str] | None = None, boss: str = "♥Q",
             enemies: Sequence[str] | None = None, spoils: Sequence[str] = (),
             phase: str = "main", hp: str = "20/20", extra: str = "",
             game: Episode2Game = GAME) -> str:
    """Notation with the unlisted player cards in the discard pile and the
    unlisted bosses in the enemy deck (card-id order)."""
    players = list(game.names[:game.num_player_cards])
    bosses = list(game.names[game.num_player_cards:])
    used = set(hand) | set(deck) | set(pool) | set(discard or ())
    rest = [c for c in players if c not in used]
    discard = list(discard or ()) + rest
    if enemies is None:
        enemies = [b for b in bosses if b != boss and b not in spoils]

    def cards(xs: Sequence[str]) -> str:
        return ",".join(xs) if xs else "-"
    return (f"episode2 {phase} hp={hp} hand={cards(hand)} deck={cards(deck)} "
            f"pool={cards(pool)} discard={cards(discard)} boss={boss} "
            f"enemies={cards(enemies)} spoils={cards(spoils)} {extra}").strip()


def at(text: str, game: Episode2Game = GAME) -> Episode2State:
    """The state written as ``text``."""
    return game.state_from_notation(text)


def play(state: Episode2State, *moves: str) -> None:
    """Apply moves given as action text (each must be legal)."""
    for move in moves:
        state.apply_action(state.string_to_action(move))


def legal(state: Episode2State) -> list[str]:
    """The legal actions as text."""
    return [state.action_to_string(a) for a in state.legal_actions()]


def names(state: Episode2State, cards: Sequence[int]) -> list[str]:
    """Card names of ``cards`` in order."""
    return [state.game.card_name(c) for c in cards]


def discards(state: Episode2State) -> list[str]:
    """The legal discard actions as text."""
    return [t for t in legal(state) if t.startswith("discard")]


# ---------------------------------------------------------------- set-up (E1, E5)

def test_setup_from_data() -> None:
    """35 player cards (no ♦6–♦10), 12 bosses, HP = starting HP, 3 cards, 1 boss up."""
    assert len(PLAYER_CARDS) == 35 and len(BOSSES) == 12
    assert not {"♦6", "♦7", "♦8", "♦9", "♦10"} & set(PLAYER_CARDS)
    assert sorted(GAME.hp_of[35:]) == [11] * 4 + [12] * 4 + [13] * 4
    s = GAME.new_initial_state(1, 5)
    hp = GAME.data.manifest.constants["starting_hp"]  # ruling E3: the data's default
    assert (s.hp, s.max_hp) == (hp, hp) == (GAME.params["starting_hp"],) * 2
    assert len(s.hand) == 3 and len(s.deck) == 32 and len(s.enemies) == 11
    assert s.boss >= 35 and s.spoils == () and s.current_player() == 0


def test_opening_with_an_attack_card_opens_no_window() -> None:
    """2-2-6 names the opening only when it lacks an attack card: no discards."""
    for seed in range(40):
        s = GAME.new_initial_state(1, seed)
        if s.phase() == "main":
            assert any(GAME.is_attack[c] for c in s.hand)
            assert not discards(s)
            assert not s.window
            return
    pytest.fail("no seed with an attack card in the opening hand")


def test_seeded_mulligan_opening() -> None:
    """An opening hand without an attack card starts in the mulligan (E5)."""
    for seed in range(400):
        s = GAME.new_initial_state(1, seed)
        if s.phase() == "mulligan":
            assert not any(GAME.is_attack[c] for c in s.hand)
            assert set(discards(s))  # the player must dig
            assert all(not t.startswith(("attack", "heal")) for t in legal(s))
            return
    pytest.fail("no mulligan opening in 400 seeds")


def test_mulligan_discards_keep_one_and_redraw_until_an_attack_card() -> None:
    """E5: discard (keeping ≥ 1) and refill; the mulligan ends when an attack appears."""
    s = at(position(phase="mulligan", hand=["♥2", "♥3", "♦4"],
                    deck=["♥5", "♥6", "♣7", "♠2"]))
    assert "discard ♥2 ♥3 ♦4" not in discards(s)  # never the whole hand
    assert len(discards(s)) == 6  # 3 singles + 3 pairs
    assert "retreat with ♦4" in legal(s)
    play(s, "discard ♥2")
    assert s.phase() == "mulligan" and names(s, s.hand) == ["♥3", "♥5", "♦4"]
    play(s, "discard ♥3 ♥5")
    assert s.phase() == "main" and names(s, s.hand) == ["♥6", "♦4", "♣7"]
    assert not s.window and not discards(s)  # the mulligan window has closed
    assert s.events()["mulligan"] == 2 and s.events()["discard"] == 2


# ---------------------------------------------------------------- attack (E4)

def test_failed_attack_costs_boss_hp_minus_total() -> None:
    """Boss 12, roll 3+4+2 = 9 → −3 HP; the boss stays (E4)."""
    s = at(position(hand=["♥2", "♦4", "♣7"], deck=["♥5", "♥6"], boss="♥Q",
                    extra="dice=3,4,2"))
    play(s, "attack ♣7")
    assert s.phase() == "damage" and s.dice == [3, 4, 2]
    assert "take damage" in legal(s)
    play(s, "take damage")
    assert s.hp == 17 and s.phase() == "main"
    assert names(s, [s.boss]) == ["♥Q"] and s.spoils == ()
    assert names(s, s.pool) == ["♣7"]
    assert s.events()["damage"] == 1 and s.events()["fail"] == 1


def test_total_equal_to_boss_hp_defeats_it() -> None:
    """A total ≥ the boss's HP defeats it; it becomes spoils and the next boss is up."""
    s = at(position(hand=["♥2", "♦4", "♣7"], deck=["♥5", "♥6"], boss="♥Q",
                    enemies=["♠K"] + [b for b in BOSSES if b not in ("♥Q", "♠K")],
                    extra="dice=6,4,2"))
    play(s, "attack ♣7")
    assert names(s, s.spoils) == ["♥Q"] and names(s, [s.boss]) == ["♠K"]
    assert s.hp == 20 and s.phase() == "main" and s.returns() == [1.0]


def test_spade_bonus_applies() -> None:
    """♠ adds +1 (E2): 4+4+3 = 11 beats a 12-HP boss with ♠7 but not with ♣7."""
    text = position(hand=["♠7", "♦4", "♣7"], deck=["♥5", "♥6"], boss="♥Q",
                    extra="dice=4,4,3")
    s = at(text)
    play(s, "attack ♠7")
    assert len(s.spoils) == 1
    s = at(text)
    play(s, "attack ♣7")
    assert s.phase() == "damage" and s.spoils == ()
    play(s, "take damage")
    assert s.hp == 19


def test_spade_bonus_is_a_parameter() -> None:
    """spade_bonus=0 removes the ♠ bonus."""
    game = build_game("episode2", {"spade_bonus": 0})
    assert isinstance(game, Episode2Game)
    s = at(position(hand=["♠7", "♦4", "♣7"], deck=["♥5"], boss="♥Q", game=game,
                    extra="dice=4,4,3"), game)
    play(s, "attack ♠7")
    assert s.phase() == "damage"


def test_spade_ace_defeats_at_once() -> None:
    """The ♠A beats even a 13-HP boss without a roll (E2): no die is used."""
    s = at(position(hand=["♠A", "♥4", "♣7"], deck=["♥5", "♥6"], boss="♠K",
                    extra="dice=1,1,1"))
    assert "attack ♠A then discard" not in legal(s)
    play(s, "attack ♠A")
    assert names(s, s.spoils) == ["♠K"] and s.hp == 20
    assert s.fixed == [1, 1, 1]  # the fixed dice are still waiting
    assert s.events()["spade_ace"] == 1 and s.events()["roll"] == 0
    assert names(s, s.hand) == ["♥4", "♥5", "♣7"]  # refilled in the new window


def test_one_attack_card_per_roll() -> None:
    """Only one card goes to the pool per attack (2-2-1)."""
    s = at(position(hand=["♠7", "♠8", "♣7"], deck=["♥5", "♥6"], extra="dice=1,1,1"))
    play(s, "attack ♠7")
    assert names(s, s.pool) == ["♠7"]
    assert names(s, s.hand) == ["♠8", "♥5", "♣7"]


# ---------------------------------------------------------------- HP and healing

def test_hp_zero_is_game_over_with_spoils_kept() -> None:
    """At 0 HP the run is over (E4); spoils are still reported (E6)."""
    s = at(position(hand=["♥2", "♦4", "♣7"], deck=["♥5"], boss="♠K", spoils=["♦J"],
                    hp="3/20", extra="dice=1,1,1"))
    play(s, "attack ♣7", "take damage")
    assert s.is_terminal() and s.current_player() == TERMINAL
    assert s.hp == 0 and s.outcome() == GAME_OVER
    assert s.returns() == [1.0] and s.winners() == [0]
    assert s.events()["game_over"] == 1


def test_heal_by_value_capped_at_max() -> None:
    """♥ heals its value, never above max HP = starting HP (E2, E3)."""
    s = at(position(hand=["♥5", "♥9", "♣7"], deck=["♥2", "♥3"], hp="10/20"))
    play(s, "heal ♥5")
    assert s.hp == 15
    play(s, "heal ♥9")
    assert s.hp == 20
    assert s.events()["heal"] == 2


def test_heart_ace_heals_to_full() -> None:
    """The ♥A restores HP to the maximum (E2)."""
    s = at(position(hand=["♥A", "♣7", "♦2"], deck=["♥2"], hp="4/20"))
    play(s, "heal ♥A")
    assert s.hp == 20


def test_heal_never_as_the_last_card() -> None:
    """With the ♥ as the only card left, it cannot heal: here the run ends."""
    s = at(position(hand=["♥5", "♣7"], hp="15/20", extra="dice=1,1,1"))
    assert "heal ♥5" in legal(s)  # two cards: allowed
    play(s, "attack ♣7", "take damage")
    # Deck empty, ♥5 alone in hand, no ♦: no legal play remains (E2, E6).
    assert s.is_terminal() and names(s, s.hand) == ["♥5"]
    assert s.outcome() == GAME_OVER and s.hp == 6


def test_no_heal_during_damage_resolution() -> None:
    """Healing comes after the damage is recorded (2-2-4), never in the damage phase."""
    s = at(position(hand=["♥5", "♦4", "♣7"], deck=["♥2", "♥3"], extra="dice=1,1,1"))
    play(s, "attack ♣7")
    assert not any(t.startswith("heal") for t in legal(s))
    with pytest.raises(IllegalAction):
        s.string_to_action("heal ♥5")


# ---------------------------------------------------------------- ♦ reroll (E2)

def test_reroll_chosen_dice() -> None:
    """After a failed roll a ♦ rerolls any chosen subset of the dice."""
    s = at(position(hand=["♥2", "♦4", "♣7"], deck=["♥5", "♥6", "♠2"], boss="♠K",
                    extra="dice=1,6,2,5,4"))
    play(s, "attack ♣7")
    rerolls = [t for t in legal(s) if t.startswith("reroll")]
    assert rerolls == ["reroll 1 with ♦4", "reroll 2 with ♦4", "reroll 1,2 with ♦4",
                       "reroll 3 with ♦4", "reroll 1,3 with ♦4", "reroll 2,3 with ♦4",
                       "reroll 1,2,3 with ♦4"]
    play(s, "reroll 1,3 with ♦4")
    assert names(s, s.spoils) == ["♠K"]  # 5 + 6 + 4 = 15 ≥ 13
    assert s.events()["reroll"] == 1 and s.events()["reroll_win"] == 1
    assert s.phase() == "main" and s.window  # window after a winning reroll


def test_failed_reroll_damage_uses_new_dice() -> None:
    """A failed reroll is judged on its new dice (2-2-4)."""
    s = at(position(hand=["♥2", "♦4", "♣7"], deck=["♥5", "♥6"], boss="♠K",
                    extra="dice=1,6,2,3"))
    play(s, "attack ♣7", "reroll 1 with ♦4")
    assert s.dice == [3, 6, 2] and s.phase() == "damage"
    play(s, "take damage")
    assert s.hp == 20 - (13 - 11)


def test_several_diamonds_in_turn() -> None:
    """One reroll per ♦; several ♦ may be used one after another (E2)."""
    s = at(position(hand=["♦2", "♦4", "♣7"], deck=["♥5", "♥6"], boss="♠K",
                    extra="dice=1,1,1,2,6,6"))
    play(s, "attack ♣7", "reroll 1 with ♦2")
    assert s.dice == [2, 1, 1] and s.phase() == "damage"
    assert names(s, s.hand) == ["♥5", "♥6", "♦4"]  # refilled after the ♦ was used
    play(s, "reroll 2,3 with ♦4")
    assert s.dice == [] and names(s, s.spoils) == ["♠K"]  # 2 + 6 + 6 = 14
    assert s.events()["reroll"] == 2


def test_reroll_keeps_the_spade_bonus() -> None:
    """♠ +1 also applies after a reroll (E2): 4+4+4 +1 = 13 beats a king."""
    s = at(position(hand=["♠7", "♦4", "♣7"], deck=["♥5", "♥6"], boss="♠K",
                    extra="dice=1,4,4,4"))
    play(s, "attack ♠7", "reroll 1 with ♦4")
    assert names(s, s.spoils) == ["♠K"]


def test_max_rerolls_parameter() -> None:
    """max_rerolls caps the ♦ rerolls of one roll (E3 difficulty rule)."""
    game = build_game("episode2", {"max_rerolls": 1})
    assert isinstance(game, Episode2Game)
    s = at(position(hand=["♦2", "♦4", "♣7"], deck=["♥5", "♥6"], boss="♠K", game=game,
                    extra="dice=1,1,1,2"), game)
    play(s, "attack ♣7", "reroll 1 with ♦2")
    assert s.phase() == "damage"
    assert not any(t.startswith("reroll") for t in legal(s))


def test_reroll_dice_parameter() -> None:
    """reroll_dice caps how many dice one ♦ may change (E3 difficulty rule)."""
    game = build_game("episode2", {"reroll_dice": 1})
    assert isinstance(game, Episode2Game)
    s = at(position(hand=["♦2", "♦4", "♣7"], deck=["♥5"], boss="♠K", game=game,
                    extra="dice=1,1,1"), game)
    play(s, "attack ♣7")
    assert [t for t in legal(s) if t.endswith("♦2")] == [
        "reroll 1 with ♦2", "reroll 2 with ♦2", "reroll 3 with ♦2"]


# ---------------------------------------------------------------- ♦ retreat (E2)

def test_retreat_is_a_normal_clear_with_spoils() -> None:
    """Spending a ♦ ends the run at once as a normal clear with the spoils so far."""
    s = at(position(hand=["♦4", "♣7", "♥2"], deck=["♥5"], spoils=["♦J", "♣Q"],
                    boss="♠K"))
    play(s, "retreat with ♦4")
    assert s.is_terminal() and s.outcome() == NORMAL_CLEAR
    assert s.returns() == [2.0] and names(s, s.pool) == ["♦4"]
    assert s.events()["retreat"] == 1 and s.events()["normal_clear"] == 1


def test_retreat_allowed_moments() -> None:
    """Retreat: main, mulligan and before the roll; never in damage resolution."""
    main = at(position(hand=["♦4", "♣7", "♥2"], deck=["♥5", "♥6", "♥7"],
                       extra="dice=1,1,1"))
    assert "retreat with ♦4" in legal(main)
    mull = at(position(phase="mulligan", hand=["♦4", "♥3", "♥2"], deck=["♥5"]))
    assert "retreat with ♦4" in legal(mull)
    pre = main.clone()
    play(pre, "attack ♣7 then discard")
    assert pre.phase() == "pre_roll" and "retreat with ♦4" in legal(pre)
    play(main, "attack ♣7")
    assert main.phase() == "damage"
    assert not any(t.startswith("retreat") for t in legal(main))
    with pytest.raises(IllegalAction):
        main.string_to_action("retreat with ♦4")


# ---------------------------------------------------------------- draw windows (2-2-6, E5)

def test_window_after_placing_the_attack_card() -> None:
    """'attack … then discard' refills and stops before the roll for discards."""
    s = at(position(hand=["♥2", "♥3", "♣7"], deck=["♥5", "♦4", "♠9", "♠8"],
                    extra="dice=6,6,6"))
    play(s, "attack ♣7 then discard")
    assert s.phase() == "pre_roll" and names(s, s.hand) == ["♥2", "♥3", "♥5"]
    assert "roll" in legal(s) and len(discards(s)) == 6
    play(s, "discard ♥2 ♥3")  # the window stays open: discard again if wished
    assert s.phase() == "pre_roll" and names(s, s.hand) == ["♠9", "♥5", "♦4"]
    play(s, "discard ♥5")
    assert names(s, s.hand) == ["♠8", "♠9", "♦4"]
    assert not discards(s)  # the deck is empty: nothing to refill with
    play(s, "roll")
    assert len(s.spoils) == 1


def test_window_when_damage_is_certain() -> None:
    """After a failed roll the player may discard (and dig for a ♦) before the damage."""
    s = at(position(hand=["♥2", "♥3", "♣7"], deck=["♥5", "♦4", "♠9"],
                    extra="dice=1,1,1,6,6,6"))
    play(s, "attack ♣7")
    assert s.phase() == "damage" and names(s, s.hand) == ["♥2", "♥3", "♥5"]
    assert not any(t.startswith("reroll") for t in legal(s))
    play(s, "discard ♥2 ♥3")
    assert s.phase() == "damage" and "♦4" in names(s, s.hand)
    play(s, "reroll 1,2,3 with ♦4")
    assert len(s.spoils) == 1


def test_window_after_damage_is_recorded() -> None:
    """After the HP track moves the hand refills and discards are allowed."""
    s = at(position(hand=["♥2", "♦4", "♣7"], deck=["♥5", "♥6", "♠2"],
                    extra="dice=1,1,1"))
    play(s, "attack ♣7")
    hand_before = names(s, s.hand)
    play(s, "take damage")
    assert s.phase() == "main" and s.window and names(s, s.hand) == hand_before
    assert discards(s)


def test_window_after_heal_and_after_a_new_boss() -> None:
    """Healing and revealing a new boss each open a window with a refill."""
    s = at(position(hand=["♥2", "♠A", "♣7"], deck=["♥5", "♥6", "♠2", "♠3"],
                    hp="10/20", extra="window=0"))
    assert not discards(s)
    before = s.events()["draw_window"]
    play(s, "heal ♥2")
    assert names(s, s.hand) == ["♠A", "♥5", "♣7"] and s.window and discards(s)
    play(s, "attack ♠A")
    assert names(s, s.hand) == ["♥5", "♥6", "♣7"] and s.window and discards(s)
    assert s.events()["draw_window"] == before + 2


def test_discards_are_one_or_two_never_the_whole_hand() -> None:
    """1 or 2 cards, always keeping one (E5); discards go to the discard pile."""
    s = at(position(hand=["♥2", "♥3", "♥4"], deck=["♠2", "♠3", "♣2", "♣3"],
                    pool=["♠9"], extra="window=1"))
    assert s.phase() == "main"
    ds = discards(s)
    assert len(ds) == 6 and "discard ♥2 ♥3 ♥4" not in ds
    play(s, "discard ♥2 ♥4")
    assert names(s, s.discard)[-2:] == ["♥2", "♥4"] and names(s, s.pool) == ["♠9"]
    assert len(s.hand) == 3


def test_must_dig_for_an_attack_card_after_a_failure() -> None:
    """2-2-1: without an attack card the only ways on are discards, heals, retreat."""
    s = at(position(hand=["♥2", "♥3", "♣7"], deck=["♥5", "♥6", "♠2", "♠3"],
                    extra="dice=1,1,1"))
    play(s, "attack ♣7", "take damage")
    assert names(s, s.hand) == ["♥2", "♥3", "♥5"]
    assert not any(t.startswith("attack") for t in legal(s))
    play(s, "discard ♥2 ♥3")
    assert names(s, s.hand) == ["♠2", "♥5", "♥6"]


# ---------------------------------------------------------------- outcomes (E6)

def test_true_end_when_the_last_boss_falls() -> None:
    """All 12 bosses beaten: true end with 12 spoils."""
    others = [b for b in BOSSES if b != "♠K"]
    s = at(position(hand=["♠A", "♣7", "♦2"], deck=["♥5"], boss="♠K", enemies=[],
                    spoils=others))
    play(s, "attack ♠A")
    assert s.is_terminal() and s.outcome() == TRUE_END and s.boss == -1
    assert s.returns() == [12.0] and s.events()["true_end"] == 1


def test_run_end_after_a_defeat_is_a_normal_clear() -> None:
    """Deck empty, no attack card left, last attack won: normal clear (E6)."""
    s = at(position(hand=["♣7", "♥2"], boss="♥J", spoils=["♦J"], extra="dice=6,6,6"))
    play(s, "attack ♣7")
    assert s.is_terminal() and s.outcome() == NORMAL_CLEAR
    assert s.returns() == [2.0] and s.events()["run_end"] == 1


def test_run_end_after_a_failure_is_game_over() -> None:
    """Deck empty, no attack card left, last attack failed: game over (E6)."""
    s = at(position(hand=["♣7", "♥2"], boss="♥J", spoils=["♦J"], extra="dice=1,1,1"))
    play(s, "attack ♣7", "take damage")
    assert s.is_terminal() and s.outcome() == GAME_OVER and s.hp == 12
    assert s.returns() == [1.0]


def test_last_stand_with_a_diamond() -> None:
    """Deck empty, no attack card, a ♦ in hand: retreat (clear) or end the run (E6a)."""
    text = position(hand=["♣7", "♦2"], boss="♥J", extra="dice=1,1,1")
    s = at(text)
    play(s, "attack ♣7", "take damage")
    assert legal(s) == ["end run", "retreat with ♦2"]
    t = s.clone()
    play(s, "retreat with ♦2")
    assert s.outcome() == NORMAL_CLEAR
    play(t, "end run")
    assert t.outcome() == GAME_OVER


# ---------------------------------------------------------------- determinism, notation

def test_same_seed_same_run_and_clone_copies_the_dice() -> None:
    """The generator lives in the state: a clone rolls the same dice."""
    s = GAME.new_initial_state(1, 77)
    while s.phase() != "main":
        play(s, discards(s)[0])
    c = s.clone()
    attack = next(t for t in legal(s) if t.startswith("attack") and "then" not in t)
    play(s, attack)
    play(c, attack)
    assert s.to_notation() == c.to_notation()
    again = GAME.new_initial_state(1, 77)
    assert again.hand == GAME.new_initial_state(1, 77).hand


def test_notation_round_trip_mid_fight() -> None:
    """A damage-phase position (pending dice, used ♦) reads back identically."""
    s = at(position(hand=["♦2", "♦4", "♣7"], deck=["♥5", "♥6"], boss="♠K",
                    extra="dice=1,1,1,2"))
    play(s, "attack ♣7", "reroll 1 with ♦2")
    text = s.to_notation()
    assert "roll=2,1,1" in text and "rerolls=1" in text and "attack=♣7" in text
    again = at(text)
    assert again.to_notation() == text and again.legal_actions() == s.legal_actions()
    assert again.events() == s.events()


def test_notation_generator_state_round_trips() -> None:
    """rng=<token>:<draws> reproduces the future dice of a seeded run."""
    s = GAME.new_initial_state(1, 3)
    text = s.to_notation()
    t = at(text)
    for _ in range(60):
        if s.is_terminal():
            break
        a = s.legal_actions()[0]
        s.apply_action(a)
        t.apply_action(a)
    assert s.to_notation() == t.to_notation()


@pytest.mark.parametrize("bad", [
    "episode2 main hp=20/20 hand=♠7",                          # missing fields
    "episode3 main hp=20/20",                                   # wrong tag
    position(hand=["♠7", "♠7", "♥2"]),                         # a card twice
    position(hand=["♣7"], hp="21/20"),
    position(hand=["♣7", "♥2"], extra="roll=1,2,3"),           # dice outside a fight
    position(hand=["♣7", "♥2"], extra="dice=7"),               # not a die face
    position(hand=["X9", "♥2"]),                                # unknown card
    position(hand=["♣7", "♥2"], phase="over"),                  # over needs a cause
])
def test_bad_notation_is_rejected(bad: str) -> None:
    """Malformed or inconsistent positions raise NotationError."""
    with pytest.raises(NotationError):
        at(bad)


def test_illegal_action_changes_nothing() -> None:
    """apply_action validates first (IllegalAction, state untouched)."""
    s = at(position(hand=["♥2", "♦4", "♣7"], deck=["♥5"]))
    text = s.to_notation()
    for bad in (GAME.codec.attack + GAME.codec.index["♠7"], 10**9, -1, 3):
        with pytest.raises(IllegalAction):
            s.apply_action(bad)
    assert s.to_notation() == text
