"""Undecim's findings hooks: the card and rule keys of a hand-set end position, and standing.

``UndecimStats.card_uses`` names, per seat, the action cards it played, the
scenario cards it achieved, its main land, the materials it settled, its
largest settlement and the rules it used; ``standing`` is the score if the
game ended now. The position below is set by hand on a finished game so each
key can be checked against what the rules say it means.
"""

from __future__ import annotations

import random
from typing import Any

from pnp.games.undecim.engine import V_ACTION, V_ENEMY, UndecimGame, UndecimState
from pnp.games.undecim.stats import UndecimStats
from pnp.sim.report import build_report
from pnp.sim.runner import simulate

from gamedata import build_game


def _finished(game: UndecimGame, n: int) -> UndecimState:
    """A seeded random game played to its end."""
    state = game.new_initial_state(n, 5)
    rng = random.Random(5)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.random() * len(legal))])
    return state


def _cards(state: UndecimState, kind: int, k: int) -> list[int]:
    """``k`` resource card ids that have ``kind`` as a half, placed with it up."""
    g = state.game
    out = [c for c in range(g.n_res) if kind in g.types[g.card_type[c]]][:k]
    for c in out:
        state.up[c] = kind
    return out


def _hand_set(game: UndecimGame) -> UndecimState:
    """Three seats at the end (only the fields the hooks read are set):

    seat 0 played actions 1 and 4, holds 2 of every land and 3 of the first
    (its main land, and the full land set), one same-material settlement of
    3 with a gold standing in, no loose gold;
    seat 1 played 2 and 5, holds one land, no settlement, scored enemies;
    seat 2 played 3 and 6, holds no land, a mixed settlement of materials 0
    and 1 and a same-material one of 4 (material 1), keeps 2 gold and took
    VP from an action. Seats 0 and 2 shared the first Story card.
    """
    g = game
    st = _finished(g, 3)
    st.log = [(0, 1, 2), (3, 4, 5)]
    lands = g.n_lands
    st.cnt = [[0] * g.n_kinds for _ in range(3)]
    st.cnt[0][:lands] = [3] + [2] * (lands - 1)
    st.cnt[1][1] = 1
    st.cnt[2][g.GOLD] = 2
    m0, gold = g.MAT0, g.GOLD
    same = _cards(st, m0, 2) + _cards(st, gold, 1)
    mixed = _cards(st, m0, 3)[2:] + _cards(st, m0 + 1, 1)
    big = _cards(st, m0 + 1, 5)[1:]
    st.setl = [[(0, 1, tuple(same))], [], [(-1, 0b11, tuple(mixed)), (1, 0b10, tuple(big))]]
    st.vp = [[0] * len(st.vp[0]) for _ in range(3)]
    st.vp[1][V_ENEMY] = 10
    st.vp[2][V_ACTION] = 1
    st.ach = [[-1, 0, 0] for _ in st.story]
    st.ach[0] = [3, 1, 0b101]
    return st


def test_card_uses_of_a_hand_set_position() -> None:
    """Every key of every seat, as the rules define it (names come from the data)."""
    game = build_game("undecim")
    assert isinstance(game, UndecimGame)
    st = _hand_set(game)
    stats = UndecimStats(game, 3)
    act = [f"{a.number} {a.name_en}" for a in game.actions]
    kind = game.kind_names
    scen = game.scenarios[st.story[0]].name_en
    mat0, mat1 = kind[game.MAT0], kind[game.MAT0 + 1]
    got = [sorted(keys) for keys in stats.card_uses(st)]
    assert got[0] == sorted([
        f"played:{act[0]}", f"played:{act[3]}", f"scenario:{scen}", f"main land:{kind[0]}",
        "rule:full land set", f"settled:{mat0}", "rule:gold in a settlement",
        "largest settlement:3"])
    assert got[1] == sorted([
        f"played:{act[1]}", f"played:{act[4]}", f"main land:{kind[1]}", "rule:no settlement",
        "rule:enemies cashed"])
    assert got[2] == sorted([
        f"played:{act[2]}", f"played:{act[5]}", f"scenario:{scen}", f"settled:{mat0}",
        f"settled:{mat1}", "rule:mixed settlement", f"settled:{mat1}",
        "largest settlement:4", "rule:gold kept to the end", "rule:VP from an action"])


def test_largest_settlement_caps_at_the_last_table_entry() -> None:
    """A settlement at or beyond the VP table's last size is reported as that size and up."""
    game = build_game("undecim")
    assert isinstance(game, UndecimGame)
    st = _hand_set(game)
    cap = len(game.settle_table) - 1
    st.setl[0] = [(0, 1, tuple(_cards(st, game.MAT0, cap + 2)))]
    keys = UndecimStats(game, 3).card_uses(st)[0]
    assert f"largest settlement:{cap}+" in keys
    assert not any(k.startswith("rule:gold in") for k in keys)


def test_standing_is_the_score_if_the_game_ended_now() -> None:
    """At the end it equals the returns; mid-game it counts banked and end VP."""
    game = build_game("undecim")
    assert isinstance(game, UndecimGame)
    stats = UndecimStats(game, 4)
    st = _finished(game, 4)
    assert stats.standing(st) == st.returns()
    mid = game.new_initial_state(4, 9)
    rng = random.Random(9)
    for _ in range(60):
        legal = mid.legal_actions()
        mid.apply_action(legal[int(rng.random() * len(legal))])
    want = [float(sum(mid.vp[p]) + sum(mid.final_vp(p))) for p in range(4)]
    assert stats.standing(mid) == want
    assert max(want) > 0


def test_report_has_undecim_card_and_rule_rows_and_drama() -> None:
    """A short run's report carries the hooks' groups, one play key per card played, and drama."""
    game = build_game("undecim")
    res = simulate(game, 3, 6, ["heuristic"], 2, invariants="off")
    rep: dict[str, Any] = build_report(res)
    rows = rep["findings"]["cards"]
    groups = {r["group"] for r in rows}
    assert {"played", "main land", "settled", "largest settlement", "rule"} <= groups
    # Each seat-game counts a card once: at most 3 seats × 6 games per key.
    assert all(r["uses"] <= 18 for r in rows)
    assert sum(r["uses"] for r in rows if r["group"] == "main land") >= 18
    assert rep["findings"]["drama"]["games"] == 6
