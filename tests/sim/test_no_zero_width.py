"""No interval of zero width in the reports: a mean whose games were all alike has none.

A solo ladder rung (第2話) whose games all took the same number of bosses
had ``ci_low`` = ``ci_high`` = its mean in the JSON while the text said "no
interval" and the chart drew a band pinched to nothing. Now the JSON says
None like ``score_ci_*``, the chart leaves that point without a band (an
open circle), the game's own figures of a rung are None-bounded the same
way, and a paired difference that is a bound (every game alike) is
marked as one.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from pnp.cli import main
from pnp.sim.findings import figure_dict
from pnp.sim.html import _bound, line_chart
from pnp.sim.paired import paired_text


def test_solo_rung_all_alike_has_no_interval_in_json_text_and_chart(tmp_path: Path) -> None:
    """第2話, seed 2, 2 games: the heuristic alone and mcts:8 take 8 bosses in both games."""
    out, page = tmp_path / "l.json", tmp_path / "l.html"
    result = CliRunner().invoke(main, ["simulate", "episode2", "--ladder", "--budgets", "8:16",
                                       "-n", "2", "--seed", "2", "-j", "1", "-q",
                                       "--json", str(out), "--html", str(page)])
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    alike = [doc["baseline"], doc["rungs"][0]]
    for rung in alike:
        assert rung["score_mean"] == 8.0
        assert (rung["ci_low"], rung["ci_high"]) == (None, None)
        assert (rung["score_ci_low"], rung["score_ci_high"]) == (None, None)
        spoils = next(f for f in rung["game_figures"] if f["name"] == "mean_spoils")
        assert (spoils["low"], spoils["high"]) == (None, None)
    spread = doc["rungs"][1]             # 16 iterations: 6 bosses on average, not alike
    assert spread["ci_low"] is not None and spread["ci_low"] < spread["ci_high"]
    assert (spread["ci_low"], spread["ci_high"]) == (spread["score_ci_low"],
                                                     spread["score_ci_high"])
    text = result.output
    assert "8.00 (every game alike: no interval)" in text
    assert "+0.00 (-0.84 … +0.84, bound: every game alike)" in text
    html = page.read_text(encoding="utf-8")
    # the alike rung (first point) is an open circle; the other a filled one
    circles = re.findall(r'<circle [^>]*fill="([^"]+)"', html)
    assert circles[0] == "#ffffff" and circles[1] != "#ffffff"
    assert "An open circle has no interval band" in html
    assert "bound: every game alike" in html


def test_line_chart_bands_only_where_there_is_an_interval() -> None:
    """Two points with intervals make one band, a lone one a whisker, None an open circle."""
    svg = line_chart(["a", "b", "c", "d"],
                     [("x", [1.0, 2.0, 3.0, 4.0], [0.5, 1.5, None, 3.5],
                       [1.5, 2.5, None, 4.5])], pct=False)
    assert svg.count("<polygon") == 1          # a–b
    assert svg.count('stroke-width="6"') == 1  # d alone: a whisker
    fills = re.findall(r'<circle [^>]*fill="([^"]+)"', svg)
    assert fills.count("#ffffff") == 1 and fills[2] == "#ffffff"
    # every point has an interval: one band over all, no open circle
    full = line_chart(["a", "b"], [("x", [1.0, 2.0], [0.5, 1.5], [1.5, 2.5])], pct=False)
    assert full.count("<polygon") == 1 and "#ffffff" not in full


def test_figures_without_width_are_written_as_no_interval() -> None:
    """A game's own mean over alike games comes as (v, v): written as None, not as bounds."""
    assert figure_dict("mean_spoils", 8.0, 8.0, 8.0) == {"name": "mean_spoils", "value": 8.0,
                                                        "low": None, "high": None}
    # a float residue of a zero spread is no width either
    assert figure_dict("m", 1 / 3, 1 / 3 - 1e-9, 1 / 3 + 1e-9)["low"] is None
    assert figure_dict("m", 7.0, 6.5, 7.5) == {"name": "m", "value": 7.0, "low": 6.5,
                                              "high": 7.5}
    assert _bound({"value": 6.0, "low": 6.0, "high": 6.0}, "low") is None
    assert _bound({"value": 6.0, "low": 5.0, "high": 7.0}, "high") == 7.0


def test_paired_text_marks_a_bound() -> None:
    """A paired t interval reads as one; the every-game-alike bound says it is a bound."""
    t = {"mean": 1.5, "low": 0.25, "high": 2.75, "no_spread": False}
    assert paired_text(t) == "+1.50 (+0.25 … +2.75)"
    assert paired_text({**t, "no_spread": True}) == (
        "+1.50 (+0.25 … +2.75, bound: every game alike)")


def test_game_figure_lines_say_all_alike() -> None:
    """A game's own mean over alike values prints no "[8.00–8.00]" (pnp.games.stats.span_text);
    第2話's report lines from two runs that both took 8 bosses with 5 HP left say so."""
    from pnp.games.stats import span_text

    assert span_text(8.0, 8.0, 8.0) == "[all alike: no interval]"
    assert span_text(1 / 3, 1 / 3 - 1e-9, 1 / 3 + 1e-9) == "[all alike: no interval]"
    assert span_text(7.0, 6.5, 7.25) == "[6.50–7.25]"
    assert span_text(0.4, 0.25, 0.5, digits=1) == "[0.2–0.5]"
    result = CliRunner().invoke(main, ["simulate", "episode2", "--bots", "heuristic", "-n", "2",
                                       "--seed", "2", "-j", "1", "-q"])
    assert result.exit_code == 0, result.output
    assert "spoils        mean 8.00 [all alike: no interval]" in result.output
    assert "HP at end     mean 5.00 [all alike: no interval]" in result.output
