"""How a rule shifts the outcome, with an interval (issue 13): the games a rule fired
in against the others are two independent groups of games (a rule fires in a game,
not in a seat), so each shift gets a Welch t interval. Worked by hand.
"""

from __future__ import annotations

from pnp.intervals import welch_interval
from pnp.sim.aggregate import Aggregate
from pnp.sim.findings import format_findings, rule_table


class _Ended:
    """A finished 2-player game lasting ``turns``, the rule fired or not."""

    def __init__(self, turns: int, ret: list[float], fired: bool) -> None:
        self._turns, self._ret, self._fired = turns, ret, fired

    def turns(self) -> int:
        return self._turns

    def returns(self) -> list[float]:
        return self._ret

    def winners(self) -> list[int]:
        return [0]

    def events(self) -> dict[str, int]:
        return {"wheel": 1} if self._fired else {}


#: turns, returns (seat 0 wins), fired: with the rule 10, 12, 14 turns and margins
#: 3, 5, 4; without 6, 8 turns and margins 1, 3.
GAMES = [(10, [5.0, 2.0], True), (12, [6.0, 1.0], True), (14, [4.0, 0.0], True),
         (6, [3.0, 2.0], False), (8, [7.0, 4.0], False)]


def _report() -> dict:
    agg = Aggregate(2, ("wheel",), ("x",))
    for turns, ret, fired in GAMES:
        agg.add_game(_Ended(turns, ret, fired), ("x", "x"), [1, 1], [1, 1])  # type: ignore
    length_sum = sum(k * v for k, v in agg.lengths.items())
    length_sq = sum(k * k * v for k, v in agg.lengths.items())
    rows = rule_table(agg.event_names, agg.events, agg.event_games, agg.completed,
                      agg.margin_sum, length_sum, agg.best_sum,
                      squares=(length_sq, agg.margin_sq, agg.best_sq))
    return {"config": {"players": 2, "length_unit": "turns"},
            "findings": {"cards": [], "rules": rows, "drama": None}}


def test_rule_shift_by_hand() -> None:
    """Turns: 12 (sd 2, 3 games) vs 7 (sd √2, 2 games): +5; se² = 4/3 + 2/2 = 7/3,
    Welch df = (7/3)² / ((4/3)²/2 + 1²/1) = 2.88 → 2, t 4.302653, ± 6.572411.
    Margin: 4 (sd 1) vs 2 (sd √2): +2; se² = 1/3 + 1, df 1.68 → 1, t 12.706205,
    ± 14.671861."""
    row = _report()["findings"]["rules"][0]
    assert (row["turns_when_fired"], row["turns_otherwise"]) == (12.0, 7.0)
    assert row["turns_shift"] == {"difference": 5.0, "low": -1.572411, "high": 11.572411}
    assert row["margin_shift"] == {"difference": 2.0, "low": -12.671861, "high": 16.671861}


def test_rule_line_shows_the_shift() -> None:
    """The text gives each shift in brackets, starred only when its interval excludes 0."""
    line = next(x for x in format_findings(_report()) if x.lstrip().startswith("wheel"))
    assert "turns 12.0 vs 7.0 [+5.0 ± 6.6]  margin 4.00 vs 2.00 [+2.00 ± 14.67]" in line
    assert "*" not in line
    # clearly apart: 1, 1, 2 turns against 10, 10, 11 → starred
    rep = _report()
    row = rep["findings"]["rules"][0]
    row["turns_shift"] = dict(zip(("difference", "low", "high"),
                                  welch_interval(4.0, 6.0, 3, 31.0, 321.0, 3) or ()))
    assert row["turns_shift"]["high"] < 0
    line = next(x for x in format_findings(rep) if x.lstrip().startswith("wheel"))
    assert "[-9.0 ± " in line and "]*  margin" in line


def test_no_interval_without_two_games_a_side_or_any_spread() -> None:
    """One game on a side, or no spread anywhere: no interval (a zero-width one reads
    as certain)."""
    assert welch_interval(10.0, 100.0, 1, 14.0, 100.0, 2) is None
    assert welch_interval(20.0, 200.0, 2, 30.0, 450.0, 2) is None  # 10, 10 vs 15, 15


def test_chart_page_shows_the_shift() -> None:
    """The page's rules table gives each shift ± its half-width, unbroken, and says what it is."""
    from pnp.sim.html import report_page

    base = _report()
    rep = {"config": {"players": 2, "seat_rotation": False, "bots": ["x"], "games": 5,
                      "seed": 1, "length_unit": "turns"},
           "completion": {"games": 5, "completed": 5}, "fair_share": 0.5,
           "seats": [{"seat": s, "win_share": 0.5, "ci_low": 0.1, "ci_high": 0.9,
                      "score_mean": 1.0, "score_ci_low": 0.5, "score_ci_high": 1.5,
                      "score_histogram": {"1": 5}} for s in range(2)],
           "seat_balance": None, "bots": None, "ties": {"top_score_tie_rate": 0.0},
           "findings": base["findings"], "game": {"title": "Toy", "slug": "toy", "params": {}},
           "length_turns": {"min": 6, "median": 10, "p95": 14, "max": 14, "mean": 10,
                            "histogram": {"10": 5}}}
    page = report_page(rep)
    assert "<td>+5.0\u00a0±\u00a06.6</td>" in page and "+2.00\u00a0±\u00a014.67" in page
    assert "Shift: the mean where the rule fired minus where it did not" in page


def test_the_report_passes_the_squares() -> None:
    """build_report gives the same shifts as the hand-worked table (its sums reach it)."""
    from pnp.sim.report import build_report
    from pnp.sim.runner import SimResult

    agg = Aggregate(2, ("wheel",), ("x",))
    for turns, ret, fired in GAMES:
        agg.add_game(_Ended(turns, ret, fired), ("x", "x"), [1, 1], [1, 1])  # type: ignore
    res = SimResult(slug="toy", title="Toy", params={}, event_names=("wheel",),
                    num_players=2, games=5, bots=("x",), seed=1, invariants="off",
                    step_cap=100, totals=agg)
    row = build_report(res)["findings"]["rules"][0]
    assert row["turns_shift"] == _report()["findings"]["rules"][0]["turns_shift"]
    assert row["margin_shift"]["difference"] == 2.0
    # best score: 5, 6, 4 against 3, 7 → +0.0
    assert row["best_score_shift"]["difference"] == 0.0


def test_chunks_merge_to_the_same_shifts() -> None:
    """Games 1–2 and 3–5 counted apart and merged: the same sums, so the same shifts."""
    whole, first, second = (Aggregate(2, ("wheel",), ("x",)) for _ in range(3))
    for i, (turns, ret, fired) in enumerate(GAMES):
        for agg in (whole, first if i < 2 else second):
            agg.add_game(_Ended(turns, ret, fired), ("x", "x"), [1, 1], [1, 1])  # type: ignore
    first.merge(second)
    assert first.event_games == whole.event_games
    assert (first.best_sq, first.margin_sq) == (whole.best_sq, whole.margin_sq) == (135.0, 60.0)
