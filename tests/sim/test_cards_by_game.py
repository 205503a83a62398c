"""Card findings count games, not seat-games (issue 13: the holders of a card in one
game share that game's single win, so they are one observation).

A toy of four 4-player games, worked by hand; the aggregate's sums stay a
fixed number per key however many games are played.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pnp.intervals import Z95, ratio_share_interval, t_quantile, wilson_interval
from pnp.sim.aggregate import Aggregate
from pnp.sim.findings import card_table


sys.path.insert(0, str(Path(__file__).resolve().parent))
from card_toy import Ended4 as _Ended  # noqa: E402  tests/sim/card_toy.py
from card_toy import Uses as _Uses  # noqa: E402
from card_toy import toy_totals as _totals  # noqa: E402


def test_sums_per_game_by_hand() -> None:
    """X: holders m = 3, 2, 1, 4; their credit c = 1, 0, 1, 1; returns summed S = 17, 7, 9, 21.

    Seat-games 10, credit 3, Σ return 54, Σ return² 100+16+9+25+4+81+36+36+4+49 = 360;
    games 4, Σm² 30, Σc² 3, Σcm 8, ΣS² 860, ΣSm 158. Merging two chunks gives the same.
    """
    x = _totals().cards["card:X"][:10]   # the cross sums with the group follow
    assert x == [10, 3.0, 54.0, 360.0, 4, 30.0, 3.0, 8.0, 860.0, 158.0]
    assert _totals(split_at=2).cards == _totals().cards


def test_win_share_and_mean_are_clustered_by_game() -> None:
    """X: R = 3/10 = 0.3. Residuals c − R·m = 0.1, −0.6, 0.7, −0.2 (Σ² 0.90); var(R) =
    0.90 / (4·3) / 2.5² = 0.012; R(1 − R)/var = 17.5, capped at the 10 seat-games (one
    winner a game makes holders *less* alike than independent ones; no credit taken),
    times (z/t₃)² = (1.959964/3.182446)² = 0.379292: n* = 3.792923, Wilson 0.060349–0.740923
    (over 10 "independent" seat-games it was 0.107791–0.603222).

    Z: m = 3, 1, 3, 1 and c = 0, 1, 0, 1 (three holders lose, one wins): R = 0.25,
    residuals −0.75, 0.75, −0.75, 0.75 (Σ² 2.25), var 2.25/12/2² = 0.046875, n* = 0.1875 /
    0.046875 = 4 (fewer than its 8 seat-games) × 0.379292 = 1.517169: 0.021134–0.837303.

    Means (cluster-robust t on 3 df): X 54/10 = 5.4, residuals S − 5.4·m = 0.8, −3.8, 3.6,
    −0.6 (Σ² 28.4), se √(28.4/12)/2.5 = 0.615359, ± 1.958347: 3.441653–7.358347. Z: S = 8,
    8, 9, 7, mean 4.0, residuals −4, 4, −3, 3 (Σ² 50), se √(50/12)/2 = 1.020621,
    ± 3.248071: 0.751929–7.248071.
    """
    rows = {r["name"]: r for r in card_table(_totals().cards, 4)}
    x, z = rows["X"], rows["Z"]
    assert (x["uses"], x["games"], x["win_share"]) == (10, 4, 0.3)
    assert (x["ci_low"], x["ci_high"]) == (0.060349, 0.740923)
    k = (Z95 / t_quantile(0.975, 3)) ** 2
    assert round(k, 6) == 0.379292
    assert (x["ci_low"], x["ci_high"]) == tuple(round(v, 6) for v in wilson_interval(0.3, 10 * k))
    assert tuple(round(v, 6) for v in wilson_interval(0.3, 10)) == (0.107791, 0.603222)
    assert (x["score_mean"], x["score_ci_low"], x["score_ci_high"]) == (5.4, 3.441653, 7.358347)
    assert (z["uses"], z["games"], z["win_share"]) == (8, 4, 0.25)
    assert (z["ci_low"], z["ci_high"]) == (0.021134, 0.837303)
    assert (z["score_mean"], z["score_ci_low"], z["score_ci_high"]) == (4.0, 0.751929, 7.248071)


def test_zero_spread_counts_each_game_once() -> None:
    """A card every seat holds every game: its share is exactly 1/4 each game (no spread),
    so the interval is Wilson's over the games (× (z/t)²), not over the seat-games."""
    # 5 games, 4 holders each, one of them wins: c = 1, m = 4 every game
    share, low, high = ratio_share_interval(5, 20, 5, 80, 5, 20)
    k = (Z95 / t_quantile(0.975, 4)) ** 2
    assert share == 0.25
    assert (low, high) == pytest.approx(wilson_interval(0.25, 5 * k))
    # a card no holder ever won with: 0 %, Wilson over its games
    share, low, high = ratio_share_interval(0, 12, 6, 24, 0, 0)
    assert (share, low) == (0.0, 0.0)
    assert high == pytest.approx(wilson_interval(0.0, 6 * (Z95 / t_quantile(0.975, 5)) ** 2)[1])
    assert ratio_share_interval(1, 2, 1, 4, 1, 2) == (0.5, *wilson_interval(0.5, 1))


def test_hand_made_rows_are_read_as_independent_seat_games() -> None:
    """A 4-value row (no per-game sums) keeps Wilson and Student t over its seat-games."""
    row = card_table({"card:A": [3, 2.5, 22.0, 174.0]}, 2)[0]
    assert (row["ci_low"], row["ci_high"]) == tuple(round(v, 6)
                                                    for v in wilson_interval(2.5 / 3, 3))
    assert "games" not in row
    # scores 10, 7, 5: mean 7.333333, sd 2.516611, t₂ 4.302653 → ± 6.251609
    assert (row["score_ci_low"], row["score_ci_high"]) == (1.081724, 13.584943)


def test_a_key_seen_in_one_game_shows_no_score_interval() -> None:
    """One game has no spread: the text says so instead of "63.00 (63.00–63.00)"."""
    from pnp.sim.findings import format_findings

    agg = Aggregate(4, (), ("x",), stats=_Uses([[["card:Q"], [], [], []]]))  # type: ignore
    agg.add_game(_Ended([63, 1, 2, 3], 0), ("x",) * 4, [1] * 4, [1] * 4)  # type: ignore
    rep = {"config": {"players": 4}, "findings": {"cards": card_table(agg.cards, 4)}}
    line = next(x for x in format_findings(rep) if " Q " in x)
    assert line.endswith("score  63.00 (1 game: no interval)"), line
    assert "win 100.0% (" in line  # the share keeps its (wide) Wilson interval


_HASH_PROBE = """
from card_toy import Ended4 as _Ended, Uses as _Uses
from pnp.sim.aggregate import Aggregate
# Seat 0 holds A-D; B, C, D are also held by seat 1, 2, 3: per-key totals
# 0.1, 0.1+0.2, 0.1+0.3, 0.1+0.7, whose sum depends on the order of adding.
table = [["card:A", "card:B", "card:C", "card:D"], ["card:B"], ["card:C"], ["card:D"]]
agg = Aggregate(4, (), ("x",), stats=_Uses([table]))
agg.add_game(_Ended([0.1, 0.2, 0.3, 0.7], 2), ("x",) * 4, [1] * 4, [1] * 4)
print(repr(agg.card_groups))
"""


def test_pooled_sums_do_not_follow_the_hash_seed() -> None:
    """The pooled group sums add keys in sorted order, not set(keys) order.

    A seat's keys come as a set, whose order changes with PYTHONHASHSEED; the
    group's float sums (0.1 + 0.2 + 0.3 differs by order) must not, or two
    runs with the same seed would write different JSON.
    """
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    seen = set()
    for seed in range(8):
        env = {**os.environ, "PYTHONHASHSEED": str(seed),
               "PYTHONPATH": os.pathsep.join([str(root), str(root / "tests" / "sim")])}
        out = subprocess.run([sys.executable, "-c", _HASH_PROBE], env=env, cwd=root,
                             capture_output=True, text=True, check=True).stdout
        seen.add(out)
    assert len(seen) == 1, seen
