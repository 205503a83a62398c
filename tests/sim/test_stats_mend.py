"""Review fixes to the simulator's small-n statistics, each with a known answer.

- "Every game alike" is decided from the smallest and largest difference, not
  from an sd that float residue leaves above any threshold (d = 1/3, n = 10).
- The no-spread bound of a length or score reaches beyond the difference seen
  on both sides, even when base and variant are each constant.
- Win-share differences are clipped to ±100 points, and say so.
- A mean from one game, or from games that all gave the same value, shows no
  interval instead of a zero-width one.
- Φ⁻¹ is right in the far tails.
"""

from __future__ import annotations

from typing import Sequence

import pytest

from pnp.intervals import none_differ_bound, normal_quantile, paired_interval, \
    ratio_mean_interval
from pnp.sim.aggregate import Aggregate
from pnp.sim.findings import interval_text, no_spread
from pnp.sim.paired import Paired, format_difference
from pnp.sim.report import build_report, format_report
from pnp.sim.runner import SimResult

from ended_game import EndedGame  # tests/sim/ended_game.py


def _sums(values: Sequence[float]) -> tuple[float, float]:
    """Σx and Σx², added one by one as Paired does."""
    total = square = 0.0
    for v in values:
        total += v
        square += v * v
    return total, square


@pytest.mark.parametrize("d, n", [(1 / 3, 10), (0.1, 100), (12.3, 1000), (2 / 3, 7)])
def test_constant_difference_is_no_spread_despite_float_residue(d: float, n: int) -> None:
    """The sums of n equal d leave an sd of ~1e-8·d; the extremes are exact."""
    total, square = _sums([d] * n)
    reach = 1.0 + d
    mean, low, high, flat = paired_interval(total, square, n, d, d, lowest=-reach,
                                            highest=reach)
    q = none_differ_bound(n)
    assert flat and mean == d
    assert high - low == pytest.approx(2.0 * q * reach, rel=1e-9)   # the bound, not ±1e-9


def test_paired_one_third_over_ten_games_is_a_bound() -> None:
    """10 games, each gave seat 0 a third of a win more: the bound, and no "±0.00" beside it."""
    pairs = Paired(2, [("a",), ("a",)])
    base = [(10.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.5)] * 10
    other = [(10.0, 1.0, 1.0, 0.0, 1 / 3, 2 / 3, 0.5)] * 10
    pairs.add(1, base[:4], other[:4])      # two chunks, as a -j 2 run delivers them
    pairs.add(1, base[4:], other[4:])
    d = pairs.to_dict(1)["differences"]["win_seat0"]
    q = none_differ_bound(10)
    assert d["no_spread"] and d["mean"] == pytest.approx(1 / 3, abs=1e-6)
    assert d["low"] == pytest.approx(1 / 3 - q * (1 / 3 + 1), abs=1e-6)
    assert d["high"] == pytest.approx(1 / 3 + q * (1 - 1 / 3), abs=1e-6)
    # neither run varied: two runs give the bound's reach, not ±0.00
    assert d["unpaired_half_width"] == pytest.approx(q, abs=1e-6)
    line = format_difference("win_seat0", d)
    assert "95% bound, every game alike" in line and "±0.00" not in line


def test_constant_base_and_variant_bound_reaches_past_the_difference() -> None:
    """Base 36 turns and variant 32 in both of 2 games (fortuna -n 2 --compare hand_size=8).

    Observed range 4, d = −4: a difference is taken within ±(4 + 4) = ±8,
    q(2) = 0.841886: −4 − q·4 … −4 + q·12 = −7.367544 … +6.102633. It was
    −4.00 … +2.74: "shortens games by at most 4 turns" from 2 games.
    """
    pairs = Paired(2, [("a",), ("a",)])
    base = [(36.0, 2.0, 5.0, 3.0, 1.0, 0.0, 0.5)] * 2
    other = [(32.0, 2.0, 5.0, 3.0, 1.0, 0.0, 0.5)] * 2
    pairs.add(1, base, other)
    t = pairs.to_dict(1)["differences"]["turns"]
    q = none_differ_bound(2)
    assert t["no_spread"] and t["mean"] == -4.0
    assert (t["low"], t["high"]) == (pytest.approx(-4 - 4 * q, abs=1e-6),
                                     pytest.approx(-4 + 12 * q, abs=1e-6))
    assert t["low"] < -4.0 < t["high"]
    assert round(t["low"], 6) == -7.367544 and round(t["high"], 6) == 6.102633


def test_win_share_difference_is_clipped_to_100_points() -> None:
    """2 games, seat 0 wins the second only under the variant: t(1) gives ±6.35, cut to ±1."""
    pairs = Paired(2, [("a",), ("a",)])
    base = [(10.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.5), (10.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.5)]
    other = [(10.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.5), (10.0, 1.0, 1.0, 0.0, 1.0, 0.0, 0.5)]
    pairs.add(1, base, other)
    d = pairs.to_dict(1)["differences"]
    w = d["win_seat0"]
    assert w["clipped"] and (w["low"], w["high"]) == (-1.0, 1.0)
    assert w["unpaired_half_width"] == 1.0
    line = format_difference("win_seat0", w)
    assert "-100.00 … +100.00" in line and "clipped to ±100 points" in line
    # a length is not a share: its t interval stays as it is
    assert not d["turns"]["clipped"]


def test_no_interval_from_one_game_or_from_games_alike() -> None:
    """ratio_mean_interval gives no bounds for 1 game or no spread; the wording says which."""
    assert ratio_mean_interval(4.0, 3.0, 1, 9.0, 16.0, 12.0)[1:] == (None, None)
    # 3 games, one seat each, 1/3 every time: no spread (float residue aside)
    third = 1 / 3
    mean, low, high = ratio_mean_interval(3 * third, 3.0, 3, 3.0, 3 * third * third, 3 * third)
    assert mean == pytest.approx(third) and (low, high) == (None, None)
    assert interval_text({"score_ci_low": None, "score_ci_high": None}, 1) == \
        "(1 game: no interval)"
    assert interval_text({"score_ci_low": None, "score_ci_high": None}, 5) == \
        "(every game alike: no interval)"
    assert interval_text({"score_ci_low": 1.0, "score_ci_high": 2.5}, 5) == "(1.00–2.50)"
    assert no_spread(1 / 3, 3e-9, 1) and not no_spread(1 / 3, 3e-9, 2)
    assert not no_spread(3.0, 0.01, 1)


def _report(pairs: Sequence[tuple[float, float]]) -> str:
    """The text report of games whose seats scored ``pairs``."""
    agg = Aggregate(2, (), ("x",))
    for a, b in pairs:
        agg.add_game(EndedGame(a, b), ("x", "x"), [1, 1], [1, 1])  # type: ignore[arg-type]
    result = SimResult(slug="toy", title="Toy", params={}, event_names=(), num_players=2,
                       games=len(pairs), bots=("x",), seed=1, invariants="off",
                       step_cap=100, totals=agg)
    return format_report(build_report(result))


def test_seat_table_says_why_there_is_no_interval() -> None:
    """One game: "(1 game: no interval)"; seat 1 always 3: "(every game alike …)"."""
    one = _report([(5.0, 3.0)])
    assert "(1 game: no interval)" in one and "(5.00–5.00)" not in one
    alike = _report([(5.0, 3.0), (7.0, 3.0), (6.0, 3.0)])
    assert "3.00 (every game alike: no interval)" in alike and "(3.00–3.00)" not in alike
    assert "6.00 (" in alike and "6.00 (every" not in alike   # seat 0 varied


@pytest.mark.parametrize("p, expected", [
    (1e-300, -37.0470962993612), (1e-100, -21.273453560965322), (1e-20, -9.262340089798409),
    (1e-5, -4.264890793922825), (0.975, 1.959963984540054), (1 - 1e-12, 7.0344869100478356)])
def test_normal_quantile_far_tails(p: float, expected: float) -> None:
    """Against scipy.stats.norm.ppf: Newton from 0 stopped at −14.06 for 1e-100 and 1e-300."""
    assert normal_quantile(p) == pytest.approx(expected, rel=1e-13)


def test_undecim_action_card_vp_interval_is_student_t() -> None:
    """An action card played 4 times for 1, 2, 3, 4 VP: 2.5 ± 3.182446·1.290994/2 = ± 2.054260.

    The normal 1.96 gave ± 1.265.
    """
    from pnp.games.undecim.stats import _mean
    vals = [1.0, 2.0, 3.0, 4.0]
    got = _mean(sum(vals), sum(v * v for v in vals), 4)
    assert got == {"mean": 2.5, "low": 0.4457, "high": 4.5543, "n": 4}


def test_held_ctrl_c_restores_the_handler_when_getsignal_gave_none(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Without pthread_sigmask (Windows) start-up ignores SIGINT; leaving restores a handler
    even if getsignal said None (a handler not set from Python), never leaving SIG_IGN."""
    import signal

    from pnp.sim.cluster import _HeldCtrlC

    before = signal.getsignal(signal.SIGINT)
    try:
        monkeypatch.delattr(signal, "pthread_sigmask", raising=False)
        monkeypatch.setattr(signal, "getsignal", lambda _sig: None)
        with _HeldCtrlC():
            monkeypatch.undo()
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        monkeypatch.undo()
        signal.signal(signal.SIGINT, before)


def test_a_bar_without_interval_has_no_whisker() -> None:
    """The chart pages draw a mean without an interval as a bare bar (three lines a whisker)."""
    from pnp.sim.html import bar_chart
    both = bar_chart([("a", 2.0, 1.0, 3.0), ("b", 4.0, None, None)], pct=False)
    one = bar_chart([("a", 2.0, 1.0, 3.0), ("b", 4.0, 3.0, 5.0)], pct=False)
    assert both.count("<line") == 3 and one.count("<line") == 6
    assert ">4.00</text>" in both
