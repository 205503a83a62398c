"""Report maths: intervals, the seat-balance test, tie views, percentiles, text."""

from __future__ import annotations

import math
from typing import Any

import pytest

from pnp.intervals import chi_square_uniform, mean_interval, wilson_interval
from pnp.sim import build_report, format_report, simulate
from pnp.sim.report import median_hist, percentile_hist, seat_balance
from toy_game import toy


def test_wilson_half_width_matches_reference_figures() -> None:
    """REFERENCE.md: a 25% share is ±0.85 points at 10,000 games, ±1.9 at 2,000."""
    low, high = wilson_interval(0.25, 10_000)
    assert round(100 * (high - low) / 2, 2) == 0.85
    low, high = wilson_interval(0.25, 2_000)
    assert round(100 * (high - low) / 2, 1) == 1.9
    assert low < 0.25 < high


def test_wilson_textbook_values() -> None:
    """0 of 10: upper bound z²/(n+z²); 5 of 10: (0.2366, 0.7634)."""
    low, high = wilson_interval(0.0, 10)
    assert low == 0.0
    assert high == pytest.approx(1.96 ** 2 / (10 + 1.96 ** 2), abs=1e-4)
    low, high = wilson_interval(0.5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)


def test_wilson_close_to_normal_approximation_for_large_n() -> None:
    """For large n the Wilson interval matches p ± 1.96·√(p(1−p)/n)."""
    p, n = 0.4, 50_000
    low, high = wilson_interval(p, n)
    assert (high - low) / 2 == pytest.approx(1.96 * math.sqrt(p * (1 - p) / n), rel=1e-3)


def test_mean_interval_textbook() -> None:
    """Values 2, 4, 6, 8: mean 5, sd √(20/3), half-width t(0.975, 3)·sd/2 = 3.182446·sd/2
    (Student t on 3 degrees of freedom; the normal 1.96 would be 38 % too narrow)."""
    vals = [2, 4, 6, 8]
    mean, sd, lo, hi = mean_interval(sum(vals), sum(v * v for v in vals), 4)
    assert mean == 5 and sd == pytest.approx(math.sqrt(20 / 3))
    assert hi - mean == pytest.approx(3.182446 * sd / 2, rel=1e-6)
    assert mean - lo == pytest.approx(hi - mean)


def test_chi_square_p_values_match_tables() -> None:
    """Critical values: χ²(1) 3.841 and χ²(3) 7.815 give p = 0.05; χ²(2) 9.210 gives 0.01."""
    for df, crit, p in ((1, 3.841459, 0.05), (3, 7.814728, 0.05), (2, 9.210340, 0.01),
                        (10, 18.307038, 0.05), (4, 13.276704, 0.01)):
        k = df + 1
        # Counts whose statistic is exactly crit: all equal but one pair shifted.
        total = 1000.0 * k
        e = total / k
        d = math.sqrt(crit * e / 2)
        counts = [e + d, e - d] + [e] * (k - 2)
        stat, got_df, pv = chi_square_uniform(counts)
        assert got_df == df and stat == pytest.approx(crit, rel=1e-9)
        assert pv == pytest.approx(p, rel=1e-4)


def test_seat_balance_flags_every_seat_whose_interval_excludes_fair() -> None:
    """One test over all seats; then every seat outside 1/N is flagged, above or below.

    The old per-seat rule (interval excludes 1/N *and* gap > 3 points) missed
    seat 1 here: 27.8% at 4 players over 10,000 games is outside the interval
    but less than 3 points from 25%.
    """
    games = 10_000
    credits = [2780.0, 2780.0, 2220.0, 2220.0]
    b = seat_balance(credits, games)
    assert b["significant"] and b["p_value"] < 1e-6
    assert b["flagged"] == [0, 1, 2, 3]
    fair = seat_balance([2500.0, 2510.0, 2490.0, 2500.0], games)
    assert not fair["significant"] and fair["flagged"] == []


def test_percentile_and_median_from_histograms() -> None:
    """Nearest-rank percentile and median over value → count tables."""
    hist = {v: 1 for v in range(1, 101)}
    assert percentile_hist(hist, 95) == 95
    assert percentile_hist(hist, 100) == 100
    assert percentile_hist({7: 3}, 95) == 7
    assert median_hist(hist) == 50.5
    assert median_hist({1: 2, 5: 1}) == 1
    assert median_hist({1: 1, 3: 1}) == 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_shared_wins_split_evenly(players: int) -> None:
    """Every game a shared win: each seat gets exactly 1/N, both views, no edge."""
    res = simulate(toy({"variant": "always_tie"}), players, 90, ["random"], 5)
    rep = build_report(res)
    fair = round(1 / players, 6)
    assert [s["win_share"] for s in rep["seats"]] == [fair] * players
    assert [s["split_share"] for s in rep["seats"]] == [fair] * players
    assert not any(s["edge"] for s in rep["seats"])
    assert rep["ties"] == {"shared_win_rate": 1.0, "top_score_tie_rate": 1.0}
    assert rep["winner_margin_mean"] == 0.0


def test_rules_and_split_views_differ_when_the_tie_break_decides() -> None:
    """The toy tie-break (fewer beats) decides ties on top score: the two views differ."""
    rep = build_report(simulate(toy(), 3, 600, ["random"], 1))
    ties = rep["ties"]
    assert ties["top_score_tie_rate"] > ties["shared_win_rate"]
    assert [s["win_share"] for s in rep["seats"]] != [s["split_share"] for s in rep["seats"]]
    for key in ("win_share", "split_share"):
        assert sum(s[key] for s in rep["seats"]) == pytest.approx(1.0, abs=1e-5)


def test_report_contents_are_consistent() -> None:
    """Counts, events and branching agree with the toy game's rules."""
    res = simulate(toy(), 3, 300, ["random"], 9)
    rep = build_report(res)
    assert rep["ok"] and rep["completion"]["completed"] == 300
    assert rep["bots"] is None and rep["config"]["seat_rotation"] is False
    ev = rep["events"]
    assert ev["beat"]["total"] + ev["miss"]["total"] == 300 * 16
    assert ev["beat"]["games_share"] == 1.0
    # 16 cards, 3 players hold 9: the last 9 plays find the draw pile empty.
    assert ev["no_draw"]["per_game"] == 9.0
    d = rep["decisions"]
    assert d["total"] == 300 * 16 and list(d["by_phase"]) == ["main"]
    # Hands of 3 while the pile lasts, then 2 and 1: choice share strictly between 0 and 1.
    assert 0 < d["choice_share"] < 1 and 1 < d["mean_legal"] < 3
    assert rep["length_turns"]["min"] == rep["length_turns"]["max"] == 16
    for s in rep["seats"]:
        assert s["score_ci_low"] < s["score_mean"] < s["score_ci_high"]
    assert "elapsed_s" not in rep


def test_text_report_mentions_key_figures_and_failures() -> None:
    """The text names intervals, ties, the balance test, bots and failures."""
    ok = format_report(build_report(simulate(toy(), 4, 50, ["random", "greedy"], 1)))
    for needle in ("95%", "Head-to-head", "Failures: none", "Seat balance: chi-square",
                   "ties split evenly", "with 2+ options"):
        assert needle in ok
    bad = format_report(build_report(simulate(toy({"variant": "lose_card"}), 2, 3,
                                              ["random"], 1)))
    assert "card conservation" in bad and "trace (" in bad and "No game completed" in bad


