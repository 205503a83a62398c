"""Paired intervals that stay honest with a handful of games (issue 13, limit 1).

Student t instead of the normal z, checked against published t tables, and a
bound that is never of zero width when every game gave the same difference.
"""

from __future__ import annotations

import math

import pytest

from pnp.data import load_game_data
from pnp.intervals import (none_differ_bound, normal_quantile, paired_interval, t_interval,
                           t_quantile, welch_half_width)
from pnp.sim import run_compare
from pnp.sim.paired import Paired, format_difference
from toy_game import DATA

#: Published Student t quantiles (any statistics table; six decimals).
T_TABLE = [(0.975, 1, 12.706205), (0.975, 2, 4.302653), (0.975, 3, 3.182446),
           (0.975, 4, 2.776445), (0.975, 5, 2.570582), (0.975, 10, 2.228139),
           (0.975, 30, 2.042272), (0.975, 120, 1.979930), (0.975, 1000, 1.962339),
           (0.975, 1001, 1.962337), (0.975, 10 ** 6, 1.959966), (0.95, 1, 6.313752),
           (0.95, 10, 1.812461), (0.995, 5, 4.032143), (0.975, 8, 2.306004)]


@pytest.mark.parametrize("p, df, expected", T_TABLE)
def test_t_quantile_matches_published_tables(p: float, df: int, expected: float) -> None:
    """Closed forms (df 1, 2), the exact distribution (to 1000) and Cornish–Fisher (above)."""
    assert round(t_quantile(p, df), 6) == expected
    assert t_quantile(1 - p, df) == pytest.approx(-expected, abs=1e-6)


def test_normal_quantile_and_bad_arguments() -> None:
    """Φ⁻¹(0.975) = 1.959964; p outside (0, 1) or df < 1 is refused."""
    assert round(normal_quantile(0.975), 6) == 1.959964
    assert normal_quantile(0.5) == 0.0
    for bad in (0.0, 1.0):
        with pytest.raises(ValueError):
            t_quantile(bad, 3)
    with pytest.raises(ValueError):
        t_quantile(0.975, 0)


def test_t_interval_by_hand() -> None:
    """1, 2, 3, 4: mean 2.5, sd √(5/3) = 1.290994, half-width 3.182446·sd/2 = 2.054260.

    The normal interval (1.96) would be 1.265 wide on each side: 38 % too narrow.
    """
    vals = [1, 2, 3, 4]
    mean, sd, low, high = t_interval(sum(vals), sum(v * v for v in vals), 4)
    assert mean == 2.5 and sd == pytest.approx(math.sqrt(5 / 3))
    assert (round(low, 6), round(high, 6)) == (0.44574, 4.55426)


def test_no_spread_bound_by_hand() -> None:
    """Every difference equal: the bound of 0 differing games in n (1 − 0.025^(1/n)).

    5 games, each win share unchanged: q = 0.521824, so ±0.52 (t or z: ±0).
    5 games all won by the change alone (+1 each) do not exclude 0 (low −0.0436),
    6 do (low +0.0815): as the two-sided sign test (p 0.0625 and 0.031).
    """
    assert round(none_differ_bound(5), 6) == 0.521824
    assert round(none_differ_bound(2), 6) == 0.841886
    mean, low, high, flat = paired_interval(0.0, 0.0, 5, 0.0, 0.0, lowest=-1.0, highest=1.0)
    assert flat and mean == 0.0 and (round(low, 6), round(high, 6)) == (-0.521824, 0.521824)
    _m, low5, high5, _f = paired_interval(5.0, 5.0, 5, 1.0, 1.0, lowest=-1.0, highest=1.0)
    assert round(low5, 4) == -0.0436 and high5 == 1.0
    _m, low6, _h, _f = paired_interval(6.0, 6.0, 6, 1.0, 1.0, lowest=-1.0, highest=1.0)
    assert round(low6, 4) == 0.0815
    # a spread, however small, is the t interval (differences 0, 0, 0, 1)
    assert paired_interval(1.0, 1.0, 4, 0.0, 1.0, lowest=-1.0, highest=1.0)[3] is False


def test_welch_half_width_by_hand() -> None:
    """sd 1 and 1 over 5 games each: df 8, t 2.306004 · √0.4 = 1.458445."""
    assert round(welch_half_width(1.0, 1.0, 5), 6) == 1.458445
    assert welch_half_width(0.0, 0.0, 5) == 0.0 and welch_half_width(1.0, 1.0, 1) == 0.0


def test_paired_three_games_alike_are_not_certain() -> None:
    """Three games, the same winner under both rules and 2 turns longer each time.

    Before: every interval of zero width ("certain"). Now: win share ±0.707598
    (q for n 3); turns 10, 12, 14 → 12, 14, 16 (observed range 6, so a
    difference is taken to lie within ±(6 + 2)):
    2 − q·(2 + 8) … 2 + q·(8 − 2) = −5.075982 … 6.245589.
    """
    pairs = Paired(2, [("a",), ("a",)])
    base = [(10.0, 3.0, 5.0, 2.0, 1.0, 0.0, 0.5), (12.0, 3.0, 5.0, 2.0, 1.0, 0.0, 0.5),
            (14.0, 3.0, 5.0, 2.0, 1.0, 0.0, 0.5)]
    other = [(t + 2.0, *rest) for t, *rest in base]
    pairs.add(1, base, other)
    d = pairs.to_dict(1)["differences"]
    q = 0.707598
    assert round(none_differ_bound(3), 6) == q
    assert d["win_seat0"]["no_spread"] and (d["win_seat0"]["low"], d["win_seat0"]["high"]) == (
        pytest.approx(-q, abs=1e-6), pytest.approx(q, abs=1e-6))
    assert (d["turns"]["low"], d["turns"]["high"]) == (pytest.approx(-5.075982, abs=1e-6),
                                                       pytest.approx(6.245589, abs=1e-6))
    # neither rule varied the win share: two runs give the same bound, not ±0
    assert d["win_seat0"]["unpaired_half_width"] == pytest.approx(q, abs=1e-6)
    line = format_difference("turns", d["turns"])
    assert "95% bound, every game alike -5.08 … +6.25" in line and "*" not in line


def test_a_two_game_comparison_has_no_interval_of_zero_width() -> None:
    """Run end to end with 2 games: every shown difference has a real width."""
    toy_data = load_game_data(DATA, "toy", strict=True)
    _text, doc, code = run_compare(toy_data, ["cards=12"], 3, 2, "random", 5, 1, {})
    assert code == 0
    for name, d in doc["rows"][1]["paired"]["differences"].items():
        assert d["high"] - d["low"] > 0.1, (name, d)
