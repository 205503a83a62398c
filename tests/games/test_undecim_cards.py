"""Every Undecim action card and every scenario card applied once in a scripted position.

The expectations come from the raw CSV rows (``card_data/undecim``) through
the vocabulary as documented (docs/data-format.md, "Undecim effects"), not
from the engine's parsed tables, so a designer's edit to a row is checked
against what the documentation says it means, whatever the numbers are.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from pnp.games.undecim.codec import NIGHT_BASE
from pnp.games.undecim.engine import UndecimGame, UndecimState

from gamedata import game_data
from test_undecim_rules import play, position, undecim

DATA = game_data("undecim")
ACTION_ROWS = {int(r.values["number"]): dict(r.values) for r in DATA.rows["actions"]}
SCENARIO_ROWS = {r.id: dict(r.values) for r in DATA.rows["scenarios"]}
GAINS = ("gain_resource", "gain_land", "gain_gold", "gain_enemy", "gain_any")
QUANTITIES = (*GAINS, "time", "settle", "develop", "vp")
#: The die bonus table as docs/data-format.md states it (faces 1–6).
DIE_ADD = {"none": (0,) * 6, "half": (1, 1, 2, 2, 3, 3), "high": (0, 0, 0, 1, 1, 1),
           "low": (1, 1, 1, 0, 0, 0), "die": (1, 2, 3, 4, 5, 6)}
#: Category of each upper half, by name (land, enemy, material, gold).
CATEGORY = {"草原": "gain_land", "森": "gain_land", "沼地": "gain_land", "山": "gain_land",
            "敵": "gain_enemy", "石": "gain_resource", "木": "gain_resource",
            "粘土": "gain_resource", "鉄": "gain_resource", "金": "gain_gold"}
#: Seat 0's hand in the action tests: enough of every kind for any card.
HAND = "草石森木沼粘山鉄草木森石敵金敵金敵金敵金"
GOLD_HELD = 2


def expected_amounts(number: int, die: int, gold: int, story: list[str]) -> dict[str, int]:
    """What action ``number`` does with ``die`` when its player spends all the gold it may."""
    row = ACTION_ROWS[number]
    amt = {q: int(row.get(q) or 0) for q in QUANTITIES}
    for sid in story:
        s = SCENARIO_ROWS[sid]
        if s["effect"] == "action_bonus" and int(s["effect_action"]) == number:
            amt[s["effect_target"]] += int(s["effect_value"])
    if row["die_scaling"] != "none":
        amt[row["die_scaling"]] += DIE_ADD[row["die_bonus"]][die - 1]
    if row["gold_boost"] != "none":
        amt[row["gold_boost"]] += min(int(row["gold_boost_max"]), gold)
    return amt


def _no_time(number: int) -> bool:
    """Whether action ``number`` never removes counters (used for the other seats)."""
    row = ACTION_ROWS[number]
    return int(row.get("time") or 0) == 0 and row["die_scaling"] != "time" and \
        row["gold_boost"] != "time"


def _up_categories(state: UndecimState, p: int) -> Counter[str]:
    """Cards of seat ``p`` in play or in settlements, by category of the upper half."""
    g = state.game
    out: Counter[str] = Counter()
    cards = list(state.loose[p]) + [c for s in state.setl[p] for c in s[2]]
    for c in cards:
        out[CATEGORY[g.kind_names[state.up[c]]]] += 1
    return out


def run_action(number: int, die: int, story: list[str] | None = None) -> dict[str, Any]:
    """Seat 0 plays action ``number`` in round 1 with ``die``; returns what changed."""
    story = story or []
    g = undecim(",".join(story))
    others = [a for a in sorted(ACTION_ROWS) if a != number and _no_time(a)][:3]
    acts = "/".join(str(a) for a in [number, *others])
    chosen = "/".join([str(number), str(others[0]), str(others[1]), "-"])
    st = position(g, ph="choose_action", ctr="20", dice=f"{die},1,1,1,1", acts=acts,
                  chosen=chosen, hands=HAND + "/-/-/-",
                  play="金敵" * GOLD_HELD + "石草石森石沼石山木森木沼/-/-/-",
                  setl="石山石草/-/-/-", story=",".join(story) or "-")
    before_hand = len(st.hand[0])
    before_cat = _up_categories(st, 0)
    ev_before = list(st.ev)
    vp_before = list(st.vp[0])
    st.apply_action(st.legal_actions()[0])           # seat 3 chooses: reveal, Red Moon

    def policy(s: UndecimState, legal: list[int]) -> int:
        # Spend all gold on a boost, gain the lowest option, build whenever possible.
        if s.phase() in ("gold_boost", "build", "red_moon_night"):
            return legal[-1]
        return legal[0]

    play(st, policy, lambda s: s.phase() == "pick_action")
    names = g.event_names
    ev = {name: st.ev[i] - ev_before[i] for i, name in enumerate(names)}
    return {
        "state": st,
        "gained": before_hand - len(st.hand[0]),
        "categories": _up_categories(st, 0) - before_cat,
        "net": sum(_up_categories(st, 0).values()) - sum(before_cat.values()),
        "builds": ev["settle_same"] + ev["settle_mixed"] + ev["develop_material"]
        + ev["develop_gold"],
        "counters": 20 - st.counters,
        "boosted": ev["gold_boost"],
        "vp": [a - b for a, b in zip(st.vp[0], vp_before)],
    }


@pytest.mark.parametrize("number", sorted(ACTION_ROWS))
@pytest.mark.parametrize("die", [2, 5])
def test_every_action_card(number: int, die: int) -> None:
    """Gains by kind, gold boost, time, extra builds and VP exactly as the row says."""
    got = run_action(number, die)
    row = ACTION_ROWS[number]
    spent = min(int(row["gold_boost_max"]), GOLD_HELD) if row["gold_boost"] != "none" else 0
    amt = expected_amounts(number, die, GOLD_HELD, [])
    total = sum(amt[q] for q in GAINS)
    assert got["gained"] == total, "cards gained from the hand"
    assert got["net"] == total - spent, "cards added to play, less the gold spent"
    for q in ("gain_resource", "gain_land", "gain_enemy"):
        assert got["categories"][q] >= amt[q], q
    assert got["categories"]["gain_gold"] >= amt["gain_gold"] - spent
    assert got["counters"] == die + amt["time"], "counters: the die, then the card's time"
    assert got["builds"] == 1 + amt["settle"] + amt["develop"], "auto action + extra builds"
    assert got["vp"][3] == amt["vp"]
    assert got["boosted"] == (1 if spent else 0)


# ---------------------------------------------------------------------------
# scenario cards: their goals
# ---------------------------------------------------------------------------

class Cards:
    """Hands out card codes with a wanted half up, never more copies than the data has."""

    def __init__(self, g: UndecimGame) -> None:
        """Start with every resource card available."""
        self.g = g
        self.left = Counter(g.card_type)

    def up(self, name: str, k: int = 1) -> str:
        """``k`` cards showing ``name`` (code: upper half first)."""
        g = self.g
        kind = g.kind_names.index(name)
        kc = g.kind_codes
        out = []
        for _ in range(k):
            t = max((t for t in range(g.n_types) if kind in g.types[t] and self.left[t]),
                    key=lambda t: (self.left[t], -t))
            self.left[t] -= 1
            a, b = g.types[t]
            other = b if a == kind else a
            out.append(kc[kind] + kc[other])
        return "".join(out)


LANDS = ("草原", "森", "沼地", "山")
MATERIALS = ("石", "木", "粘土", "鉄")


def holding(cards: Cards, condition: str, n: int) -> tuple[str, str]:
    """(loose cards, settlements) meeting ``condition`` at exactly ``n``."""
    if n <= 0:
        return "-", "-"
    if condition == "settlements":
        return "-", ",".join(cards.up(MATERIALS[i % 4], 2) for i in range(n))
    if condition == "settlement_size":
        return "-", cards.up("石", n)
    if condition == "settled_resources":
        mats = "".join(cards.up(m) for m in MATERIALS[:n])
        return "-", mats if n >= 2 else mats + cards.up("金")
    if condition == "mixed_size":
        mats = "".join(cards.up(m) for m in MATERIALS[:min(n, 4)])
        return "-", mats + cards.up("金", max(0, n - 4)) if n >= 2 else "-"
    if condition == "lands":
        return "".join(cards.up(LANDS[i % 4]) for i in range(n)), "-"
    if condition == "land_types_each":
        return "".join(cards.up(name, n) for name in LANDS), "-"
    if condition == "land_one_type":
        return cards.up("草原", n), "-"
    if condition == "gold":
        return cards.up("金", n), "-"
    if condition in ("enemies", "red_moon_discard"):
        return cards.up("敵", n), "-"
    raise AssertionError(condition)


@pytest.mark.parametrize("sid", sorted(SCENARIO_ROWS))
def test_every_scenario_goal(sid: str) -> None:
    """Seat 1 meets the goal exactly, seat 2 falls one short: only seat 1 scores (U1g)."""
    row = SCENARIO_ROWS[sid]
    g = undecim(sid)
    cond, n, bonus = row["condition"], int(row["threshold"]), int(row["bonus_vp"])
    cards = Cards(g)
    p1, s1 = holding(cards, cond, n)
    p2, s2 = holding(cards, cond, n - 1)
    if cond == "red_moon_discard":
        # A Night of the Red Moon phase: seat 1 holds the most and cashes them all.
        st = position(g, r="1", ph="red_moon_night", die="1", ctr="0", log="3.1.2.4",
                      acts="5/6/7/8", play=f"-/{p1}/{p2}/-", night=f"m.{n}.0.0.0.0.0",
                      story=sid)
        play(st, lambda s, legal: legal[-1], lambda s: s.phase() != "red_moon_night")
        # Seat 2 could discard at most its night limit (< n): only seat 1 achieves.
        assert st.vp[2][2] == 0
    else:
        st = position(g, ph="start_gain", drawn="-/-/-/" + cards.up("草原"),
                      play=f"-/{p1}/{p2}/-", setl=f"-/{s1}/{s2}/-",
                      acts="1.2/3.4/5.6/7.8", story=sid)
        st.apply_action(st.legal_actions()[0])
    assert [v[2] for v in st.vp] == [0, bonus, 0, 0]
    assert st.ach[0][0] == 0 and st.ach[0][2] == 0b0010


# ---------------------------------------------------------------------------
# scenario cards: their lasting effects (U1h)
# ---------------------------------------------------------------------------

def _night(g: UndecimGame, most: int, other: int, sid: str) -> UndecimState:
    """A Night: seat 0 (action 1) holds ``other`` enemies, seat 1 the most."""
    return position(g, r="1", ph="red_moon_night", die="1", ctr="0", log="1.3.2.4",
                    acts="5/6/7/8", play="敵金" * other + "/" + "敵金" * most + "/-/-",
                    night=f"m.{most}.0.0.0.0.0", story=sid)


@pytest.mark.parametrize("sid", sorted(SCENARIO_ROWS))
def test_every_scenario_lasting_effect(sid: str) -> None:
    """The card's lasting effect changes exactly what the documentation says."""
    row = SCENARIO_ROWS[sid]
    g = undecim(sid)
    base = undecim()
    effect = row["effect"]
    value = int(row["effect_value"]) if row["effect_value"] is not None else 0
    if effect == "none":
        assert g.story_rules([g.scen_index[sid]]) == base.story_rules([])
    elif effect == "action_bonus":
        number = int(row["effect_action"])
        with_card = run_action(number, 2, [sid])
        without = run_action(number, 2)
        target = row["effect_target"]
        if target in GAINS:
            assert with_card["gained"] - without["gained"] == value
        elif target == "time":
            assert with_card["counters"] - without["counters"] == value
        elif target in ("settle", "develop"):
            assert with_card["builds"] - without["builds"] == value
        else:
            assert with_card["vp"][3] - without["vp"][3] == value
    elif effect == "enemy_limit":
        st = _night(g, most=5, other=4, sid=sid)
        assert st.current_player() == 0
        assert st.legal_actions()[-1] == NIGHT_BASE + min(4, value)
    elif effect == "enemy_vp":
        st = _night(g, most=2, other=1, sid=sid)
        st.apply_action(NIGHT_BASE + 1)
        assert st.vp[0][1] == value
    elif effect == "counters":
        assert g.new_initial_state(4, 3).counters == value
        st = _night(g, most=2, other=1, sid=sid)
        play(st, lambda s, legal: legal[-1], lambda s: s.phase() != "red_moon_night")
        assert st.counters == value
    elif effect == "land_vp":
        full = "草石森木沼粘山鉄" * 2
        st = position(g, r="2", ph="pick_action", die="1", log="1.4.8.11", acts="2/3/5/-",
                      i="3", play=f"{full}/-/-/-", story=sid)
        st.apply_action(st.legal_actions()[0])
        assert st.vp[0][0] == value * 4
    elif effect == "gold_vp":
        st = position(g, r="1", ph="choose_action", acts="1.2/3.4/5.6/7.8",
                      play="金敵金敵金敵/-/-/-", setl="石草石森,木森木沼/-/-/-", story=sid)
        assert st.final_vp(0)[2] == 3 * (2 + value)
    elif effect == "hand_size":
        st = position(g, r="2", ph="pick_action", die="1", log="1.4.8.11", acts="2/3/5/-",
                      i="3", story=sid)
        st.apply_action(st.legal_actions()[0])
        assert [len(h) for h in st.hand] == [value] * 4
    else:
        raise AssertionError(f"no test for lasting effect {effect!r}")
