"""Report maths: intervals, seat-edge flag, tie splitting, percentiles, text."""

from __future__ import annotations

import math

import pytest

from pnp.sim import build_report, format_report, simulate
from pnp.sim.report import percentile, seat_edge, wilson_interval
from toy_game import ToyGame


def test_wilson_half_width_matches_reference_figures() -> None:
    # REFERENCE.md: a 25% share is ±0.85 points at 10,000 games, ±1.9 at 2,000.
    """Wilson half width matches reference figures."""
    low, high = wilson_interval(0.25, 10_000)
    assert round(100 * (high - low) / 2, 2) == 0.85
    low, high = wilson_interval(0.25, 2_000)
    assert round(100 * (high - low) / 2, 1) == 1.9
    assert low < 0.25 < high


def test_wilson_textbook_values() -> None:
    # 0 of 10: upper bound z²/(n+z²); 5 of 10: (0.2366, 0.7634).
    """Wilson textbook values."""
    low, high = wilson_interval(0.0, 10)
    assert low == 0.0
    assert high == pytest.approx(1.96 ** 2 / (10 + 1.96 ** 2), abs=1e-4)
    low, high = wilson_interval(0.5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)


def test_wilson_close_to_normal_approximation_for_large_n() -> None:
    """Wilson close to normal approximation for large n."""
    p, n = 0.4, 50_000
    low, high = wilson_interval(p, n)
    assert (high - low) / 2 == pytest.approx(1.96 * math.sqrt(p * (1 - p) / n), rel=1e-3)


def test_seat_edge_needs_both_exclusion_and_gap() -> None:
    """Seat edge needs both exclusion and gap."""
    assert seat_edge(0.29, 0.27, 0.31, 4)          # excludes 25%, gap 4 points
    assert seat_edge(0.20, 0.18, 0.22, 4)          # below fair counts too
    assert not seat_edge(0.28, 0.265, 0.295, 4)    # excludes, but gap only 3 points
    assert not seat_edge(0.29, 0.24, 0.34, 4)      # gap 4 points but interval has 25%
    assert seat_edge(0.55, 0.52, 0.58, 2)          # 2 players: fair is 50%
    assert not seat_edge(0.52, 0.51, 0.53, 2)


def test_percentile_nearest_rank() -> None:
    """Percentile nearest rank."""
    values = list(range(1, 101))
    assert percentile(values, 95) == 95
    assert percentile(values, 100) == 100
    assert percentile([7], 95) == 7


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ties_split_evenly(players: int) -> None:
    """Ties split evenly."""
    res = simulate(ToyGame({"variant": "always_tie"}), players, 90, ["random"], 5)
    rep = build_report(res)
    fair = round(1 / players, 6)
    assert [s["win_share"] for s in rep["seats"]] == [fair] * players
    assert not any(s["edge"] for s in rep["seats"])
    assert rep["draw_rate"] == 1.0 and rep["winner_margin_mean"] == 0.0


def test_report_contents_are_consistent() -> None:
    """Report contents are consistent."""
    res = simulate(ToyGame(), 3, 300, ["random"], 9)
    rep = build_report(res)
    assert rep["ok"] and rep["completion"]["completed"] == 300
    assert sum(s["win_share"] for s in rep["seats"]) == pytest.approx(1.0, abs=1e-5)
    assert rep["bots"] is None and rep["config"]["seat_rotation"] is False
    ev = rep["events"]
    # Every toy turn is exactly one beat or one miss.
    assert ev["beat"]["total"] + ev["miss"]["total"] == 300 * 16
    assert ev["beat"]["games_share"] == 1.0
    # 16 cards, 3 players hold 9: the last 9 plays find the draw pile empty.
    assert ev["no_draw"]["per_game"] == 9.0
    assert 0 < rep["decisions"]["real_choice_share"] < 1
    assert rep["length_turns"]["min"] == rep["length_turns"]["max"] == 16
    assert "elapsed_s" not in rep


def test_text_report_mentions_key_figures_and_failures() -> None:
    """Text report mentions key figures and failures."""
    ok = format_report(build_report(simulate(ToyGame(), 4, 50, ["random", "greedy"], 1)))
    assert "Wilson" in ok and "Head-to-head" in ok and "Failures: none" in ok
    bad = format_report(build_report(simulate(ToyGame({"variant": "lose_card"}), 2, 3,
                                              ["random"], 1)))
    assert "card conservation" in bad and "trace (" in bad and "No game completed" in bad
