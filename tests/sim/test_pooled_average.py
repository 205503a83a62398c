"""The group average a card is judged against has an interval, and a flag needs the
difference's interval (issue 13, statistics leftovers).

The toy is test_cards_by_game.py's four 4-player games, keys X and Z of one
group "card", worked by hand here for the pooled average and for X minus
the average, game as the cluster:

====  ========  ==================  ==================  ===============
game  winner    X: m, c, S          Z: m, c, S          group M, C, T
====  ========  ==================  ==================  ===============
1     seat 0    3, 1, 17            3, 0, 8             6, 1, 25
2     seat 2    2, 0, 7             1, 1, 8             3, 1, 15
3     seat 2    1, 1, 9             3, 0, 9             4, 1, 18
4     seat 3    4, 1, 21            1, 1, 7             5, 2, 28
====  ========  ==================  ==================  ===============

(m holders, c their win credit, S their scores summed; M, C, T the same
over every key of the group, so a seat holding X and Z counts twice.)
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from pnp.intervals import Z95, t_quantile, wilson_interval
from pnp.sim.findings import (LIFT, card_table, difference_interval, drama_figures,
                              format_findings, sentences)
from pnp.sim.html import report_page

sys.path.insert(0, str(Path(__file__).resolve().parent))
from card_toy import toy_totals as _totals  # noqa: E402  tests/sim/card_toy.py


def test_group_and_cross_sums_by_hand() -> None:
    """Group: games 4, ΣM 18, ΣC 5, ΣT 86, ΣM² 36+9+16+25 = 86, ΣC² 1+1+1+4 = 7,
    ΣC·M 6+3+4+10 = 23, ΣT² 625+225+324+784 = 1958, ΣT·M 150+45+72+140 = 407.

    X against its group: Σc·C 1+0+1+2 = 4, Σc·M 6+0+4+5 = 15, Σm·C 3+2+1+8 = 14,
    Σm·M 18+6+4+20 = 48, ΣS·T 425+105+162+588 = 1280, ΣS·M 102+21+36+105 = 264,
    Σm·T 75+30+18+112 = 235. Two chunks merged give the same sums.
    """
    t = _totals()
    assert t.card_groups == {"card": [4, 18.0, 5.0, 86.0, 86.0, 7.0, 23.0, 1958.0, 407.0]}
    assert t.cards["card:X"][10:] == [4.0, 15.0, 14.0, 48.0, 1280.0, 264.0, 235.0]
    merged = _totals(split_at=2)
    assert merged.card_groups == t.card_groups and merged.cards == t.cards


def test_pooled_average_has_a_cluster_robust_interval() -> None:
    """Pooled win share R_G = 5/18 = 0.277778; residuals C − R_G·M = −12/18, 3/18, −2/18,
    11/18 (Σ² 278/324 = 0.858025); var = 0.858025 / (4·3) / 4.5² = 0.003531; R_G(1 − R_G)
    / var = 56.8, capped at the 18 uses, × (z/t₃)² 0.379292 = 6.827261: Wilson
    0.077368–0.638218.

    Pooled mean score 86/18 = 4.777778; residuals T − 4.777778·M = −66/18, 12/18, −20/18,
    74/18 (Σ² 32.024691); se √(32.024691/12)/4.5 = 0.363027, × t₃ 3.182446 = ± 1.155316:
    3.622463–5.933093.
    """
    rows = {r["name"]: r for r in card_table(_totals().cards, 4, _totals().card_groups)}
    for row in rows.values():         # the group's figures, the same on each of its rows
        assert (row["group_win_share"], row["group_ci_low"], row["group_ci_high"]) == (
            0.277778, 0.077368, 0.638218)
        assert (row["group_score_mean"], row["group_score_ci_low"],
                row["group_score_ci_high"]) == (4.777778, 3.622463, 5.933093)
        assert row["group_games"] == 4
    k = (Z95 / t_quantile(0.975, 3)) ** 2
    assert (0.077368, 0.638218) == tuple(round(v, 6) for v in wilson_interval(5 / 18, 18 * k))


def test_difference_counts_the_shared_games() -> None:
    """X minus the pooled average, over the group's 4 games (t₃ = 3.182446).

    X's residuals a = c − 0.3·m = 0.1, −0.6, 0.7, −0.2 (Σa² 0.9, A = 10 uses), the
    group's b as above (Σb² 0.858025, B = 18); Σa·b = (−1.2 − 1.8 − 1.4 − 2.2)/18 =
    −0.366667: X's holders winning is the others losing. var = 4/3 · (0.9/100 +
    0.858025/324 + 2·0.366667/180) = 4/3 · 0.015722 = 0.020963; d = 0.3 − 0.277778 =
    0.022222 ± 3.182446·0.144786: −0.438552 … +0.482997. Without the covariance term it
    would be ± 0.396607.

    Z (A = 8): a = c − 0.25·m = −0.75, 0.75, −0.75, 0.75: −0.027778,
    −0.567866 … +0.512311.
    """
    rows = {r["name"]: r for r in card_table(_totals().cards, 4, _totals().card_groups)}
    assert rows["X"]["vs_group"] == {"difference": 0.022222, "low": -0.438552,
                                     "high": 0.482997}
    assert rows["Z"]["vs_group"] == {"difference": -0.027778, "low": -0.567866,
                                     "high": 0.512311}
    # the helper itself, from the hand sums: with the covariance, and with it left out
    d = difference_interval(0.3, 5 / 18, 1.0, 0.9, 278 / 324, -6.6 / 18, 10, 18, 4)
    assert d is not None and tuple(round(v, 6) for v in d) == (0.022222, -0.438552, 0.482997)
    naive = difference_interval(0.3, 5 / 18, 1.0, 0.9, 278 / 324, 0.0, 10, 18, 4)
    assert naive is not None and round(naive[2] - naive[0], 6) == 0.396607
    # the flag's test, R − 1.2·R_G: var 4/3 · (0.009 + 1.44·0.002648 + 2.4·0.002037)
    up = difference_interval(0.3, 5 / 18, LIFT, 0.9, 278 / 324, -6.6 / 18, 10, 18, 4)
    assert up is not None and tuple(round(v, 6) for v in up) == (-0.033333, -0.522262,
                                                                0.455596)


def test_mean_score_difference_by_hand() -> None:
    """The solo figure (mean score) takes the same formula on scores: X's a = S − 5.4·m =
    0.8, −3.8, 3.6, −0.6 (Σ² 28.4), the group's b as above (Σ² 32.024691), Σa·b =
    −214.8/18 = −11.933333; var = 4/3 · (0.284 + 0.098842 + 0.132593) = 0.687246;
    d = 5.4 − 4.777778 = 0.622222 ± 3.182446·0.829004: −2.016035 … +3.260479.

    (Read as a solo table: every key is judged on its mean score.)
    """
    rows = {r["name"]: r for r in card_table(_totals().cards, 1, _totals().card_groups)}
    assert rows["X"]["vs_group"] == {"difference": 0.622222, "low": -2.016035,
                                     "high": 3.260479}


def _hand(hot: float) -> list[dict[str, Any]]:
    """Hand-made rows (independent seat-games): hot won ``hot`` of 400, three others 150."""
    return card_table({"card:hot": [400, hot, 0.0, 0.0],
                       **{f"card:p{i}": [400, 150.0, 0.0, 0.0] for i in range(3)}}, 2)


def test_a_flag_needs_the_difference_beyond_the_threshold() -> None:
    """hot 200/400 = 50 % against the pool's 650/1600 = 40.6 %: its own Wilson interval
    (45.1–54.9 %) lies above the average and 50 % ≥ 1.2 × 40.6 % = 48.75 %, which was
    the old screen's "dominant". But 0.5 − 1.2·0.40625 = 0.0125 with a standard error of
    about 0.0216 (the pool's uncertainty and its covariance with hot counted): the
    interval −0.030 … +0.055 includes 0, so no flag. 240/400 = 60 % is flagged.
    """
    rows = {r["name"]: r for r in _hand(200.0)}
    hot, avg = rows["hot"], rows["hot"]["group_win_share"]
    assert avg == 0.40625
    assert hot["ci_low"] > avg and hot["win_share"] >= LIFT * avg   # the old screen
    assert hot["flag"] == ""
    d = hot["vs_group"]              # the difference itself excludes 0 …
    assert d["low"] > 0
    assert {r["name"]: r for r in _hand(240.0)}["hot"]["flag"] == "dominant"
    # below: 100/400 = 25 % against 550/1600 = 34.4 % is under 34.4 % / 1.2 = 28.6 %,
    # but not beyond noise (−0.036, se about 0.02); 60/400 = 15 % against 31.9 % is a trap
    assert {r["name"]: r for r in _hand(100.0)}["hot"]["flag"] == ""
    assert {r["name"]: r for r in _hand(60.0)}["hot"]["flag"] == "trap"


def test_the_pooled_interval_is_printed_with_the_average() -> None:
    """Text table, sentence and chart page give the group average with its interval."""
    cards = {"card:hot": [400, 240.0, 0.0, 0.0],
             **{f"card:p{i}": [400, 150.0, 0.0, 0.0] for i in range(3)}}
    rows = card_table(cards, 2)
    g = rows[0]
    avg = f"43.1 % ({100 * g['group_ci_low']:.1f} %–{100 * g['group_ci_high']:.1f} %)"
    rep: dict[str, Any] = {
        "config": {"players": 2, "seat_rotation": False, "bots": ["x"], "games": 400,
                   "seed": 1},
        "game": {"slug": "toy", "title": "Toy", "params": {}},
        "completion": {"games": 400, "completed": 400}, "fair_share": 0.5,
        "seats": [], "seat_balance": None, "bots": None, "ties": {},
        "length_turns": None, "findings": {"cards": rows, "drama": None}}
    lines = format_findings(rep)
    assert any(line.startswith(f"  card (average {avg}; 4 keys") for line in lines), lines
    said = sentences(rep)
    assert said and said[0].endswith(f"against {avg} for the group."), said
    rep["length_turns"] = {"histogram": {"10": 400}, "median": 10, "p95": 10, "max": 10}
    rep["findings"]["rules"] = []
    page = report_page(rep)
    assert f"group average {avg}" in page
    assert 'fill-opacity="0.12"' in page                 # the average's band


def test_lead_changes_alike_in_every_game_have_no_interval() -> None:
    """No lead change in any of 3 games: "0.00 (every game alike: no interval)", not
    "0.00 (0.00–0.00)"; null bounds in the JSON."""
    d = drama_figures([3, 0, 0, 0])
    assert d is not None and (d["lead_changes_ci_low"], d["lead_changes_ci_high"]) == (None,
                                                                                       None)
    rep = {"config": {"players": 2}, "findings": {"cards": [], "drama": d}}
    line = format_findings(rep)[-1]
    assert line.endswith("lead changes 0.00 per game (every game alike: no interval)"), line
    spread = drama_figures([3, 1, 3, 5])       # 0, 1 and 2 lead changes: Σ 3, Σ² 5
    assert spread is not None and spread["lead_changes_ci_low"] is not None
