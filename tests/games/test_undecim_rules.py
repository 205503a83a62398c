"""Undecim rules in scripted positions: settling and developing, the Red Moon Night,
scenario checks, round-end and final scoring, picks, the mulligan, the notation.

Positions are written in the engine's notation (pnp/games/undecim/notation.py)
through :func:`position`, which fills the fields a test does not care about
and puts every resource card not named elsewhere into the deck. Card codes:
the first character of each half (草 grassland, 森 forest, 沼 swamp, 山
mountain, 敵 enemy / 石 stone, 木 wood, 粘 clay, 鉄 iron, 金 gold); a card in
play is written with its upper half first (石草 = the grassland/stone card
with stone up).
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any, Callable

import pytest

from pnp.games.api import IllegalAction, NotationError
from pnp.games.undecim.codec import (BUILD_DONE, DEV_BASE, DEV_GOLD, DEV_STRIDE, NIGHT_BASE,
                                     PICK_BASE, SETTLE_MIX, SETTLE_SAME, settle_mix_action,
                                     settle_same_action)
from pnp.games.undecim.engine import UndecimGame, UndecimState

from gamedata import build_game

# ---------------------------------------------------------------------------
# helpers shared by the Undecim test modules
# ---------------------------------------------------------------------------

STONE, WOOD, CLAY, IRON = range(4)


@lru_cache(maxsize=None)
def undecim(story: str = "", campaign: bool = False) -> UndecimGame:
    """The engine built from card_data (optionally with a Story or the campaign)."""
    params: dict[str, Any] = {}
    if story:
        params["story"] = story
    if campaign:
        params["campaign"] = True
    game = build_game("undecim", params)
    assert isinstance(game, UndecimGame)
    return game


def _pairs(text: str) -> list[str]:
    """Two-character card codes of a run ("-" for none)."""
    if text in ("", "-"):
        return []
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def card_type(g: UndecimGame, code: str) -> int:
    """The resource row of a card code written either way round."""
    kc = g.kind_codes
    a, b = kc.index(code[0]), kc.index(code[1])
    top, bottom = (a, b) if a <= g.EN else (b, a)
    return g.types.index((top, bottom))


def position(g: UndecimGame | None = None, deck_top: str = "", **fields: str) -> UndecimState:
    """A state from notation fields; unnamed resource cards fill the deck.

    ``deck_top`` lists the next cards to be drawn, first drawn first. The
    council defaults to every action card not in a hand.
    """
    g = g or undecim()
    n = int(fields.get("p", "4"))
    seats = "/".join(["-"] * n)
    f: dict[str, str] = {
        "p": str(n), "s": "1", "r": "1", "ph": "choose_action", "ctr": "10", "die": "0",
        "dice": ",".join(["1"] * g.rounds), "rs": "1", "disc": "-", "hands": seats,
        "drawn": seats, "play": seats, "setl": seats,
        "vp": "/".join(["0.0.0.0.0"] * n), "acts": "/".join(["-"] * n), "known": seats,
        "chosen": seats, "log": "-", "story": ",".join(s.id for s in g.scenarios
                                                       if s.season == 1),
        "markers": "-", "done": "-", "i": "0", "gq": "-", "tl": "0", "b": "0.0.0",
        "night": "-", "t": "0"}
    f.update(fields)
    # Earlier rounds' log entries a test does not care about: a filler row each.
    revealed = f["ph"] in ("red_moon_night", "gold_boost", "gain", "build", "pick_action")
    want = int(f["r"]) - 1 + (1 if revealed else 0)
    if f["ph"] in ("over", "campaign_marker"):
        want = g.rounds
    rows = [] if f["log"] == "-" else f["log"].split(",")
    filler = ".".join(str(a) for a in range(1, n + 1))
    f["log"] = ",".join([filler] * (want - len(rows)) + rows) or "-"
    if "council" not in fields:
        held = {int(x) for part in f["acts"].split("/") if part != "-" for x in part.split(".")}
        f["council"] = ".".join(str(a) for a in range(1, g.n_actions + 1) if a not in held) or "-"
    used: Counter[int] = Counter()
    for key in ("disc", "hands", "drawn", "play", "setl"):
        for part in f[key].replace(",", "/").split("/"):
            for code in _pairs(part):
                used[card_type(g, code)] += 1
    top = [card_type(g, c) for c in _pairs(deck_top)]
    used.update(top)
    total = Counter(g.card_type)
    kc = g.kind_codes
    code_of = [kc[a] + kc[b] for a, b in g.types]
    rest = [code_of[t] for t in range(g.n_types) for _ in range(total[t] - used[t])]
    assert all(total[t] >= used[t] for t in used), "more cards of a kind than the data has"
    f["deck"] = "".join(rest + [code_of[t] for t in reversed(top)]) or "-"
    order = ("p", "s", "r", "ph", "ctr", "die", "dice", "rs", "deck", "disc", "hands", "drawn",
             "play", "setl", "vp", "acts", "known", "council", "chosen", "log", "story",
             "markers", "done", "i", "gq", "tl", "b", "night", "t")
    text = "undecim " + " ".join(f"{k}={f[k]}" for k in order)
    state = g.state_from_notation(text)
    canonical = state.to_notation()
    assert g.state_from_notation(canonical).to_notation() == canonical
    return state


def play(state: UndecimState, policy: Callable[[UndecimState, list[int]], int],
         until: Callable[[UndecimState], bool], limit: int = 500) -> None:
    """Apply ``policy``'s choices until ``until(state)`` holds."""
    for _ in range(limit):
        if until(state) or state.is_terminal():
            return
        state.apply_action(policy(state, state.legal_actions()))
    raise AssertionError("policy did not reach the goal")


def counts(state: UndecimState, p: int) -> dict[str, int]:
    """Loose cards of seat ``p`` by upper-half name (zeros left out)."""
    g = state.game
    return {g.kind_names[k]: c for k, c in enumerate(state.cnt[p]) if c}


def sizes(state: UndecimState, p: int) -> list[int]:
    """Sizes of seat ``p``'s settlements."""
    return [len(s[2]) for s in state.setl[p]]


def land_cards(n: int, offset: int = 0) -> str:
    """``n`` land-up cards of the four kinds in turn (``offset`` varies the other half)."""
    lands = "草森沼山"
    mats = "石木粘鉄"
    return "".join(lands[i % 4] + mats[(i // 4 + offset) % 4] for i in range(n))


def build_position(play4: str, setl4: str = "-", b: str = "0.0.1", card: int = 4,
                   hands: str = "-/-/-/-") -> UndecimState:
    """Seat 0 in its build step (action ``card``, first in order) with ``play4`` loose."""
    others = [a for a in range(1, 12) if a != card][:3]
    played = [card, *others]
    log = ".".join(str(x) for x in played)
    i = sorted(range(4), key=played.__getitem__).index(0)
    held = [a for a in range(1, 12) if a not in played][:4]
    return position(r="2", ph="build", die="1", play=play4 + "/-/-/-", setl=setl4 + "/-/-/-",
                    acts="/".join(map(str, held)), log=log, i=str(i), b=b, hands=hands,
                    ctr="9")


# ---------------------------------------------------------------------------
# settling and developing (ruling U4)
# ---------------------------------------------------------------------------

def test_settle_patterns_offered_exactly() -> None:
    """2–3 of one material or 2 different; never 1, never 3 mixed, never gold (U4)."""
    st = build_position("石草石草石森木山金敵粘森")
    legal = st.legal_actions()
    expected = [BUILD_DONE, settle_same_action(STONE, 2), settle_same_action(STONE, 3),
                settle_mix_action(STONE, WOOD), settle_mix_action(STONE, CLAY),
                settle_mix_action(WOOD, CLAY)]
    assert legal == sorted(expected)
    assert [st.action_to_string(a) for a in legal] == [
        "done", "settle 石+石", "settle 石+石+石", "settle 石+木", "settle 石+粘土", "settle 木+粘土"]
    # One of each material: only mixed pairs; wood alone twice is no same settlement.
    st = build_position("木森鉄山")
    assert st.legal_actions() == [BUILD_DONE, settle_mix_action(WOOD, IRON)]
    with pytest.raises(IllegalAction):
        st.apply_action(settle_same_action(WOOD, 2))
    for text in ("settle 木+木", "settle 木+鉄+石", "settle 金+木"):
        with pytest.raises(IllegalAction):
            st.apply_action(st.string_to_action(text))


def test_settle_same_three_scores_nine() -> None:
    """A 3-stone settlement takes three stones out of play and scores 9 at the end (U6)."""
    st = build_position("石草石草石森木山")
    st.apply_action(settle_same_action(STONE, 3))
    assert sizes(st, 0) == [3]
    assert counts(st, 0) == {"木": 1}
    assert st.final_vp(0) == (0, 9, 0)
    # The auto action is spent: seat 0's action ended and the next seat acts.
    assert st.current_player() != 0 or st.phase() != "build"


def test_develop_same_settlement() -> None:
    """A stone settlement takes stone or gold, never another material (U4, U4a)."""
    st = build_position("石草木森金敵", setl4="石草石森")
    legal = st.legal_actions()
    assert DEV_BASE + STONE in legal
    assert DEV_BASE + DEV_GOLD in legal
    assert DEV_BASE + WOOD not in legal
    with pytest.raises(IllegalAction):
        st.apply_action(st.string_to_action("develop #1 with 木"))
    before = st.to_notation()
    with pytest.raises(IllegalAction):
        st.apply_action(DEV_BASE + WOOD)
    assert st.to_notation() == before
    st.apply_action(st.string_to_action("develop #1 with 金"))
    assert sizes(st, 0) == [3]
    assert counts(st, 0) == {"石": 1, "木": 1}
    assert st.setl[0][0][0] == STONE, "gold leaves a same-material settlement as it was"


def test_develop_mixed_settlement_needs_a_missing_material() -> None:
    """A stone+wood settlement takes clay or iron (not stone or wood) or gold (U4)."""
    st = build_position("石草木森粘沼鉄山金敵", setl4="石草木森")
    dev = [a - DEV_BASE for a in st.legal_actions() if a >= DEV_BASE]
    assert dev == [CLAY, IRON, DEV_GOLD]
    st.apply_action(DEV_BASE + CLAY)
    assert st.setl[0][0][1] == 0b0111
    assert sizes(st, 0) == [3]


def test_full_mixed_settlement_grows_only_by_gold() -> None:
    """With all four materials only gold can develop it further (ruling U4a)."""
    st = build_position("石草木森金敵", setl4="石草木森粘沼鉄山")
    dev = [a for a in st.legal_actions() if a >= DEV_BASE]
    assert dev == [DEV_BASE + DEV_GOLD]
    st.apply_action(dev[0])
    assert sizes(st, 0) == [5]
    assert st.final_vp(0) == (0, 20, 0)


def test_identical_settlements_are_offered_once() -> None:
    """Two identical settlements: develop options name only the first (a pure symmetry)."""
    st = build_position("石草", setl4="石草石森,石沼石山")
    dev = [a for a in st.legal_actions() if a >= DEV_BASE]
    assert dev == [DEV_BASE + STONE]


def test_card_allowances_before_the_auto_action() -> None:
    """An extra settle is used first (U4b), so the auto action can still develop."""
    st = build_position("石草石森石沼木山木森", b="1.0.1", card=6)
    st.apply_action(settle_same_action(STONE, 2))
    assert (st.b_set, st.b_dev, st.b_auto) == (0, 0, 1)
    legal = st.legal_actions()
    assert DEV_BASE + STONE in legal and settle_same_action(WOOD, 2) in legal
    st.apply_action(DEV_BASE + STONE)
    assert sizes(st, 0) == [3]
    assert st.current_player() != 0 or st.phase() != "build"


def test_done_forfeits_the_builds() -> None:
    """Builds are optional: done ends the action with the materials kept."""
    st = build_position("石草石森", b="0.0.1")
    st.apply_action(BUILD_DONE)
    assert counts(st, 0) == {"石": 2}
    assert st.setl[0] == []


def test_no_build_possible_ends_the_action_without_asking() -> None:
    """Without any pattern the engine moves on (no forced 'done' decision)."""
    st = position(r="2", ph="gain", die="1", log="1.2.3.4", acts="5/6/7/8", i="0", gq="R",
                  hands="草石森木/-/-/-", play="粘草/-/-/-", ctr="9")
    assert st.current_player() == 0 and st.phase() == "gain"
    st.apply_action(st.string_to_action("gain 石 of 草原/石"))
    # One stone and one clay make a mixed pair; without the clay nothing could be built.
    assert st.phase() == "build" and st.current_player() == 0
    st2 = position(r="2", ph="gain", die="1", log="1.2.3.4", acts="5/6/7/8", i="0", gq="R",
                   hands="草石森木/-/-/-", play="草粘/-/-/-", ctr="9")
    st2.apply_action(st2.string_to_action("gain 石 of 草原/石"))
    # Only a stone in play: no pattern, so the action ends without a 'done' decision;
    # the other seats hold no cards, so the next decision is the first pick.
    assert st2.phase() == "pick_action" and st2.n_turns == 1 and st2.setl[0] == []


# ---------------------------------------------------------------------------
# Red Moon Night (ruling U5, U5a, U1e)
# ---------------------------------------------------------------------------

def night_position() -> UndecimState:
    """A Night just set off in the Red Moon phase: seats 0 and 2 tie at 3 enemies."""
    return position(r="2", ph="red_moon_night", die="1", ctr="0", log="3.1.2.4",
                    acts="5/6/7/8", play="敵金敵金敵金/敵金敵金/敵金敵金敵金/-",
                    night="m.3.0.0.0.0.0")


def test_night_majority_ties_discard_any_number() -> None:
    """Tied most-enemy players discard any number; others at most one; 0 enemies: skipped."""
    st = night_position()
    # Action order: seat 1 (action 1), seat 2 (2), seat 0 (3), seat 3 (4).
    assert st.current_player() == 1
    assert st.legal_actions() == [NIGHT_BASE, NIGHT_BASE + 1]
    st.apply_action(NIGHT_BASE + 1)
    assert st.current_player() == 2
    assert st.legal_actions() == [NIGHT_BASE + k for k in range(4)]
    st.apply_action(NIGHT_BASE + 3)
    assert st.current_player() == 0
    # Seat 2 now holds none, but "most" was fixed when the Night began (U5a).
    assert st.legal_actions() == [NIGHT_BASE + k for k in range(4)]
    st.apply_action(NIGHT_BASE + 2)
    # Seat 3 has no enemy: the Night ends, counters go back, actions begin.
    assert [v[1] for v in st.vp] == [10, 5, 15, 0]
    assert st.counters == 10
    assert st.phase() != "red_moon_night"
    assert len(st.disc) == 6


def test_night_in_the_moon_phase_from_the_die() -> None:
    """The die takes the last counter: the Night comes before any action (U5, U1e)."""
    st = position(r="2", ph="choose_action", ctr="3", dice="1,5,1,1,1", acts="1.2/3.4/5.6/7.8",
                  chosen="1/3/5/-", play="敵金/敵金敵金/-/-")
    st.apply_action(st.string_to_action("choose 7"))
    assert st.die == 5
    assert st.phase() == "red_moon_night"
    assert st.counters == 0 and st.ev[5] == 1        # 2 removals were lost (time_lost)
    assert st.current_player() == 0                  # action 1 decides first
    assert st.legal_actions() == [NIGHT_BASE, NIGHT_BASE + 1]


def test_time_passing_sets_off_the_night_mid_phase() -> None:
    """A time effect takes the last counter: Night at once, then the same player builds
    and later players still act (U1e)."""
    g = undecim()
    seven = g.actions[6]
    assert seven.amounts[5] >= 1, "the test expects action 7 to pass time"
    st = position(r="2", ph="gain", die="1", ctr="2", log="7.8.9.10", acts="1/2/3/4", i="0",
                  gq="EA", tl="3", hands="敵金草石敵金/草石森木/-/-", play="-/敵金/-/-")
    st.apply_action(st.string_to_action("gain 敵 of 敵/金"))
    # The remaining 'any' gain comes next if the card has one; play it out.
    play(st, lambda s, legal: legal[0], lambda s: s.phase() == "red_moon_night")
    assert st.ev[4] == 1                              # night_mid_action
    assert st.counters == 0
    while st.phase() == "red_moon_night":
        st.apply_action(st.legal_actions()[-1])
    assert st.counters == 10
    # Seat 1 (action 8) still resolves after the Night: its gain is the next decision.
    assert st.current_player() == 1 and st.phase() == "gain" and st.idx == 1


# ---------------------------------------------------------------------------
# scenarios (ruling U1g, U6)
# ---------------------------------------------------------------------------

def test_scenario_first_achiever_only_and_split() -> None:
    """Two players meeting a goal at one check split it (half, rounded down); later
    achievers get nothing (U1g, U6)."""
    g = undecim()
    lands = next(s for s in g.scenarios if s.season == 1 and s.condition == 3)  # lands
    n = lands.threshold
    st = position(r="1", ph="start_gain", drawn="-/-/-/敵金",
                  play=f"-/{land_cards(n, 0)}/{land_cards(n, 1)}/-",
                  acts="1.2/3.4/5.6/7.8", story=lands.id)
    st.apply_action(st.legal_actions()[0])
    j = st.story.index(g.scen_index[lands.id])
    assert st.ach[j][0] == 0 and st.ach[j][2] == 0b0110
    assert [v[2] for v in st.vp] == [0, lands.bonus // 2, lands.bonus // 2, 0]
    assert st.ev[15] == 1                            # scenario_split


def test_scenario_not_awarded_twice() -> None:
    """Once achieved, a card pays nobody again this game."""
    g = undecim()
    lands = next(s for s in g.scenarios if s.season == 1 and s.condition == 3)
    st = position(r="2", ph="start_gain", drawn="-/-/-/敵金",
                  play=f"{land_cards(lands.threshold, 0)}/-/-/-",
                  acts="1.2/3.4/5.6/7.8", story=f"{lands.id}@1#1:1")
    st.apply_action(st.legal_actions()[0])
    assert [v[2] for v in st.vp] == [0, 0, 0, 0]


# ---------------------------------------------------------------------------
# picks, round end, final scoring (rulebook 4–5, ■精算; U6)
# ---------------------------------------------------------------------------

def pick_position(play4: str, r: str = "2", **extra: str) -> UndecimState:
    """The last pick of a round: seat 3 (action 11) picks, then the round ends."""
    fields = dict(r=r, ph="pick_action", die="1", log="1.4.8.11", acts="2/3/5/-", i="3",
                  play=play4)
    fields.update(extra)
    return position(**fields)


def test_pick_never_your_own_card() -> None:
    """The picker may take any council card except the one it played."""
    st = pick_position("-/-/-/-")
    council = [a for a in range(11) if st.council >> a & 1]
    assert 10 in council
    assert st.legal_actions() == [PICK_BASE + a for a in council if a != 10]


def test_round_end_land_vp() -> None:
    """1 VP per kind held; 2 per kind with 2+ of every kind (U6); then round 3 begins."""
    st = pick_position("草石森木/草石草木森石森木沼石沼木山石山木/草石草木草粘/-")
    st.apply_action(st.legal_actions()[0])
    assert [v[0] for v in st.vp] == [2, 8, 1, 0]
    assert st.rnd == 2 and st.phase() == "start_gain"
    assert all(len(h) == 5 for h in st.hand)


def test_last_round_skips_the_pick_and_scores() -> None:
    """Round 5 has no pick (U2b): the last action ends the game; the final scoring (U6)."""
    g = undecim()
    st = position(r=str(g.rounds), ph="build", die="1", log="1.2.3.4,5.6.7.8,9.10.11.1,"
                  "2.3.4.5,1.9.10.11", acts="2/3/4/5", i="3", b="0.0.1",
                  play="-/-/-/石草石森金敵金敵草木沼木", story="-",
                  setl="-/-/-/石草石森石沼,木森木沼木山木草")
    assert st.current_player() == 3
    st.apply_action(BUILD_DONE)
    assert st.is_terminal()
    # Lands: 草 沼 (2 cards) → 2 at round end + 2 at the end; settlements 9 + 14;
    # gold 2 × 2 settlements; stone left over scores nothing.
    assert st.vp[3][0] == 2
    assert st.final_vp(3) == (2, 23, 4)
    assert st.returns()[3] == 2 + 2 + 23 + 4


def test_tie_goes_to_the_lower_action_number() -> None:
    """Equal totals: the lower action number of the last round wins (U6)."""
    g = undecim()
    st = position(r=str(g.rounds), ph="build", die="1",
                  log="1.2.3.4,5.6.7.8,9.10.11.1,2.3.4.5,9.3.11.1", acts="2/4/5/6", i="3",
                  b="0.0.1", play="石草石森/草木森木/草木森木/-", vp="0.0.0.0.0/4.0.0.0.0/"
                  "4.0.0.0.0/2.0.0.0.0")
    # Order: seat 3 (1), seat 1 (3), seat 0 (9), seat 2 (11): seat 2 builds last.
    st2 = position(r=str(g.rounds), ph="build", die="1",
                   log="1.2.3.4,5.6.7.8,9.10.11.1,2.3.4.5,9.3.11.1", acts="2/4/5/6", i="3",
                   b="0.0.1", play="-/草木森木/草木森木石草石森/-",
                   vp="0.0.0.0.0/4.0.0.0.0/4.0.0.0.0/2.0.0.0.0")
    st2.apply_action(BUILD_DONE)
    assert st2.is_terminal()
    totals = st2.totals()
    assert totals[1] == totals[2] == 8                # 4 banked + 2 round end + 2 lands
    assert st2.winners() == [1]                       # action 3 beats action 11
    assert st2.ev[18] == 1
    del st


# ---------------------------------------------------------------------------
# mulligan, gains, deck (U2, U2a, U1c, U3, U3b)
# ---------------------------------------------------------------------------

def test_mulligan_swap_is_public_and_optional() -> None:
    """Each seat in turn may swap one card with the council; the taken card is known."""
    g = undecim()
    st = g.new_initial_state(4, 5)
    assert st.phase() == "mulligan" and st.current_player() == 0
    legal = st.legal_actions()
    hand = [a for a in range(11) if st.ahand[0] >> a & 1]
    council = [a for a in range(11) if st.council >> a & 1]
    assert len(legal) == 1 + len(hand) * len(council)
    give, take = hand[0], council[0]
    st.apply_action(st.string_to_action(f"swap {give + 1} for {take + 1}"))
    assert st.ahand[0] >> take & 1 and st.council >> give & 1
    assert st.observation(1).known[0] == (take,)
    assert st.observation(0).known[0] == tuple(sorted({hand[1], take}))
    st.apply_action(st.string_to_action("keep"))
    assert st.current_player() == 2


def test_named_gain_uses_only_matching_halves_and_is_lost_without() -> None:
    """A land gain offers land halves only; with no land in hand it is lost (U1c)."""
    st = position(r="2", ph="gain", die="1", log="3.1.2.4", acts="5/6/7/8", i="2", gq="LL",
                  hands="草石森木敵金/-/-/-", ctr="9")
    assert st.current_player() == 0
    assert [st.action_to_string(a) for a in st.legal_actions()] == [
        "gain 草原 of 草原/石", "gain 森 of 森/木"]
    st.apply_action(st.legal_actions()[0])
    # One land left in hand: the second gain is forced and taken without asking.
    assert counts(st, 0) == {"草原": 1, "森": 1}
    assert [st.game.type_names[st.game.card_type[c]] for c in st.hand[0]] == ["敵/金"]


def test_start_gain_chooses_the_half() -> None:
    """The round-start card goes in play with the chosen half up (U3)."""
    st = position(ph="start_gain", drawn="沼鉄/-/-/-", acts="1.2/3.4/5.6/7.8")
    assert [st.action_to_string(a) for a in st.legal_actions()] == [
        "gain 沼地 of 沼地/鉄", "gain 鉄 of 沼地/鉄"]
    st.apply_action(st.legal_actions()[1])
    assert counts(st, 0) == {"鉄": 1}
    assert st.phase() == "choose_action"


def test_empty_deck_reshuffles_the_discard_pile() -> None:
    """Refill from an empty deck: the discard pile becomes the deck (U3b)."""
    g = undecim()
    everything = "".join(c * q for c, q in [("草石", 8), ("草木", 4), ("草粘", 4), ("草鉄", 4),
                                            ("森石", 4), ("森木", 8), ("森粘", 4), ("森鉄", 4),
                                            ("沼石", 4), ("沼木", 4), ("沼粘", 8), ("沼鉄", 4),
                                            ("山石", 4), ("山木", 4), ("山粘", 4), ("山鉄", 8)])
    st = pick_position(everything + "/-/-/-", disc="敵金" * 20)
    assert st.deck == []
    st.apply_action(st.legal_actions()[0])
    assert st.ev[16] == 1                              # deck_reshuffled
    assert all(len(h) == 5 for h in st.hand)
    assert len(st.deck) == 20 - 4 * 5 - 0 and st.ev[17] >= 1


# ---------------------------------------------------------------------------
# notation and codec
# ---------------------------------------------------------------------------

def test_notation_rejects_nonsense() -> None:
    """Bad positions are one-line NotationErrors."""
    g = undecim()
    good = g.new_initial_state(4, 1).to_notation()
    for bad, reason in [
        (good.replace("p=4", "p=9"), "players"),
        (good.replace("ph=mulligan", "ph=dance"), "phase"),
        (good.replace("deck=", "deck=草石"), "more"),
        (good.replace("council=", "council=1."), "action"),
        (good.replace(" t=0", ""), "fields"),
    ]:
        with pytest.raises(NotationError) as info:
            g.state_from_notation(bad)
        assert "\n" not in str(info.value), reason


def test_codec_texts_round_trip() -> None:
    """Every action text reads back to its int."""
    g = undecim()
    namer = g.namer
    actions = ([2 * t + h for t in range(g.n_types) for h in (0, 1)] + [200, 201 + 3 * 16 + 9]
               + [500 + a for a in range(11)] + [520 + a for a in range(11)]
               + [600, 601, 605, 720, 722, BUILD_DONE]
               + [SETTLE_SAME + k for k in range(8)]
               + [settle_mix_action(a, b) for a in range(4) for b in range(a + 1, 4)]
               + [DEV_BASE + DEV_STRIDE * s + m for s in (0, 7) for m in (0, 3, DEV_GOLD)]
               + [900 + j for j in range(len(g.scenarios))])
    for a in actions:
        assert namer.action(namer.text(a)) == a, namer.text(a)
    with pytest.raises(IllegalAction):
        namer.action("fly away")
    assert SETTLE_MIX > SETTLE_SAME + 7


# ---------------------------------------------------------------------------
# campaign (U7, U1h, U7a)
# ---------------------------------------------------------------------------

def _season_end(g: UndecimGame, play4: str, story: str = "s1_a,s1_b") -> UndecimState:
    """The last action of season 1 in a campaign (seat 3 builds last)."""
    return position(g, r=str(g.rounds), ph="build", die="1",
                    log="1.2.3.4,5.6.7.8,9.10.11.1,2.3.4.5,1.9.10.11", acts="2/3/4/5", i="3",
                    b="0.0.1", play=play4, story=story,
                    vp="10.0.0.0.0/20.0.0.0.0/5.0.0.0.0/0.0.0.0.0")


def test_campaign_winner_places_the_marker_when_nothing_was_achieved() -> None:
    """No season card achieved: the season's winner picks the marked card (U1h);
    the next season starts from the starting VP by rank with the marked card's
    follow-ups in the Story (rulebook ■精算, U7a)."""
    g = undecim(campaign=True)
    st = _season_end(g, "-/-/-/-")
    st.apply_action(BUILD_DONE)
    assert st.phase() == "campaign_marker" and st.current_player() == 1
    assert [st.action_to_string(a) for a in st.legal_actions()] == ["mark s1_a", "mark s1_b"]
    st.apply_action(st.string_to_action("mark s1_b"))
    assert st.season == 1 and st.rnd == 0 and st.phase() == "mulligan"
    assert [g.scenarios[i].id for i in st.story] == ["s1_b", *g.scenarios[g.scen_index["s1_b"]].unlocks]
    assert all(a[0] < 0 for a in st.ach), "a new season starts with nothing achieved (U7a)"
    assert [v[4] for v in st.vp] == [2, 4, 1, 0]          # ranks 2, 1, 3, 4 → 2/4/1/0
    assert [sum(v) for v in st.vp] == [2, 4, 1, 0]
    assert st.seasons_done == [(10, 20, 5, 0)]
    assert len(st.log) == g.rounds and st.markers == [g.scen_index["s1_b"]]
    text = st.to_notation()
    assert g.state_from_notation(text).to_notation() == text


def test_campaign_first_achieved_card_takes_the_marker() -> None:
    """A season card achieved at the last check takes the marker without a decision."""
    g = undecim(campaign=True)
    lands = next(s for s in g.scenarios if s.season == 1 and s.condition == 3)
    st = _season_end(g, f"-/-/-/{land_cards(lands.threshold)}")
    st.apply_action(BUILD_DONE)
    assert st.season == 1 and st.phase() == "mulligan"
    assert st.markers == [g.scen_index[lands.id]]
    assert st.seasons_done[0][3] > 0                       # seat 3's bonus counted in season 1
