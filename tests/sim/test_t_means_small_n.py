"""Every interval on a mean in the reports is Student t on n − 1 degrees of freedom
(issue 13): from 2 games the normal 1.96 made "65.50 (62.56–68.44)" of what is
really ± 19. Known answers worked by hand at n = 2, 5 and 30.

t(0.975, df) from published tables: 12.706205 (1), 2.776445 (4), 2.045230 (29).
"""

from __future__ import annotations

import math
from typing import Sequence

import pytest

from pnp.intervals import mean_interval, t_interval
from pnp.sim.aggregate import Aggregate
from pnp.sim.findings import drama_figures
from pnp.sim.report import INTERVAL_METHOD, build_report, format_report
from pnp.sim.runner import SimResult
from pnp.sim.sweep import format_sweep, key_figures

from ended_game import EndedGame  # tests/sim/ended_game.py


def _result(seat0: Sequence[float], turns: Sequence[int] | None = None) -> SimResult:
    """A run whose seat 0 scored ``seat0`` (seat 1 always 0) over ``len(seat0)`` games."""
    agg = Aggregate(2, (), ("x",))
    for i, v in enumerate(seat0):
        agg.add_game(EndedGame(v, 0.0, turns[i] if turns else 10), ("x", "x"),  # type: ignore
                     [1, 1], [1, 1])
    return SimResult(slug="toy", title="Toy", params={}, event_names=(), num_players=2,
                     games=len(seat0), bots=("x",), seed=1, invariants="off",
                     step_cap=100, totals=agg)


@pytest.mark.parametrize("values, low, high", [
    # n = 2: 64, 67 → mean 65.5, sd 2.121320, ± 12.706205·2.121320/√2 = ± 19.059307
    ([64.0, 67.0], 46.440693, 84.559307),
    # n = 5: 1, 2, 3, 4, 10 → mean 4, sd √12.5 = 3.535534, ± 2.776445·3.535534/√5
    # = ± 4.389945
    ([1.0, 2.0, 3.0, 4.0, 10.0], -0.389945, 8.389945),
    # n = 30: 0 … 29 → mean 14.5, sd √77.5 = 8.803408, ± 2.045230·8.803408/√30
    # = ± 3.287247
    ([float(v) for v in range(30)], 11.212753, 17.787247),
])
def test_seat_score_interval_is_student_t(values: list[float], low: float,
                                          high: float) -> None:
    """The seat table's mean score interval, in the JSON and the text."""
    rep = build_report(_result(values))
    seat = rep["seats"][0]
    assert (seat["score_ci_low"], seat["score_ci_high"]) == (low, high)
    text = format_report(rep)
    assert f"({low:.2f}–{high:.2f})" in text
    assert rep["config"]["interval"] == INTERVAL_METHOD and "Student t" in INTERVAL_METHOD


def test_the_issue_example_two_games() -> None:
    """Seat VP 65.50 sd 2.12 from 2 games: ± 19.06, not the normal ± 2.94."""
    mean, sd, lo, hi = mean_interval(131.0, 64.0 ** 2 + 67.0 ** 2, 2)
    assert (round(mean, 2), round(sd, 2)) == (65.5, 2.12)
    assert round(hi - mean, 2) == 19.06
    assert (lo, hi) == t_interval(131.0, 64.0 ** 2 + 67.0 ** 2, 2)[2:]
    # the old normal interval, for the record: 62.56–68.44
    assert round(1.959964 * sd / math.sqrt(2), 2) == 2.94


def test_sweep_mean_length_is_student_t() -> None:
    """A sweep row's mean length from 5 games of 8, 9, 10, 11, 17 turns: mean 11, sd
    √12.5 = 3.535534, ± 4.389945 (t on 4 df); the footnote says Student t."""
    result = _result([1.0] * 5, turns=[8, 9, 10, 11, 17])
    fig = {f["name"]: f for f in key_figures(result, [])}["mean_turns"]
    assert (fig["value"], fig["low"], fig["high"]) == (11.0, 6.610055, 15.389945)
    doc = {"title": "Toy", "slug": "toy", "swept": ["p"], "players": 2, "games": 5,
           "seed": 1, "bots": ["x"], "fixed_params": {},
           "rows": [{"values": {"p": 1}, "ok": True, "figures": key_figures(result, [])}]}
    text = format_sweep(doc)
    assert "95% Student t" in text and "normal" not in text


def test_drama_lead_changes_are_student_t() -> None:
    """Lead changes 0 and 2 in 2 games: mean 1, sd √2, ± 12.706205·√2/√2 = ± 12.706205,
    the low end cut at 0 (a count of lead changes cannot be negative)."""
    d = drama_figures([2, 0, 2, 4])
    assert d is not None
    assert (d["lead_changes_ci_low"], d["lead_changes_ci_high"]) == (0.0, 13.706205)
