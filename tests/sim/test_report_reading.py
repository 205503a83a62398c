"""The simulation report read as a designer reads it: words that match the numbers.

Each test pins one thing a reading of the five games' reports found wrong or
misleading: a rule shown as firing in "100 %" of games beside a figure from
the one game it did not, solo sentences that did not parse, a "trap" that is
not a choice, a card count labelled "uses" that counts seat-games, a ladder
called flat from a handful of games, rates printed as raw fractions, and
inputs that ran where they should have stopped with one line.
"""

from __future__ import annotations

import re
from html import escape
from pathlib import Path
from typing import Any

import pytest

from pnp.data import load_game_data
from pnp.errors import PnpError
from pnp.sim import run_compare, run_simulation
from pnp.sim.findings import (card_table, fired_share, format_findings, ladder_sentences,
                              rule_table, sentences)
from pnp.sim.html import report_page
from pnp.sim.ladder import ladder_text
from pnp.sim.paired import format_difference
from toy_game import DATA, toy

TOY = load_game_data(DATA, "toy", strict=True)
CARD_DATA = Path(__file__).resolve().parents[2] / "card_data"


def _report(players: int, cards: dict[str, list[float]], rules: list[dict[str, Any]] | None = None
            ) -> dict[str, Any]:
    """A minimal build_report-shaped dict holding ``cards`` and ``rules``."""
    return {"config": {"players": players, "seat_rotation": False, "bots": ["x"],
                       "games": 1000, "seed": 1},
            "completion": {"games": 1000, "completed": 1000}, "fair_share": 1 / players,
            "seats": [{"win_share": 1 / players, "ci_low": 0.0, "ci_high": 1.0}] * players,
            "seat_balance": None, "bots": None, "ties": {"top_score_tie_rate": 0.0},
            "findings": {"cards": card_table(cards, players), "rules": rules or [],
                         "drama": None},
            "game": {"title": "Toy", "slug": "toy", "params": {}},
            "length_turns": None}


def test_fired_share_never_rounds_to_all_or_none() -> None:
    """9999 of 10000 games is not "100 %", 1 of 5000 is not "0 %"; exact ends stay exact."""
    assert fired_share(9999, 10000) == ">99.9%"
    assert fired_share(999, 1000) == "99.9%"
    assert fired_share(1, 5000) == "<0.1%"
    assert (fired_share(1000, 1000), fired_share(0, 1000)) == ("100.0%", "0.0%")
    assert fired_share(359, 1000) == "35.9%"


def test_rule_line_says_how_few_games_the_comparison_rests_on() -> None:
    """A rule that missed one game: its share is below 100 % and the 'vs' figures are marked."""
    # 1000 games; the rule fired in 999 of them, and the one other game had margin 0.
    rows = rule_table(("club_wins_trick", "common"), [[4857, 999], [500, 500]],
                      [[999, 1770.0, 999 * 162, 0.0], [500, 900.0, 500 * 162, 0.0]],
                      1000, 1770.0, 1000 * 162)
    assert rows[0]["games_otherwise"] == 1 and rows[1]["games_otherwise"] == 500
    lines = format_findings(_report(4, {}, rows))
    fired = next(line for line in lines if "club_wins_trick" in line)
    assert "99.9% of games" in fired and "(only 1 game without it)" in fired
    common = next(line for line in lines if " common " in line)
    assert "50.0% of games" in common and "without it" not in common  # 500 games: enough
    page = report_page({**_report(4, {}, rows), "length_turns": {
        "min": 162, "median": 162, "p95": 162, "max": 162, "mean": 162, "histogram": {"162": 1}},
        "seats": [{"seat": s, "win_share": 0.25, "ci_low": 0.2, "ci_high": 0.3,
                   "score_mean": 1.0, "score_ci_low": 0.9, "score_ci_high": 1.1,
                   "score_histogram": {"1": 1}} for s in range(4)]})
    assert "99.9%" in page and "club_wins_trick (only 1 game without it)" in page
    assert "100.0%</td>" not in page


def test_solo_sentences_read_as_sentences() -> None:
    """Solo games are judged on mean score: the sentence says so in words that parse."""
    cards = {"used:hot": [400, 400.0, 400 * 3.0, 400 * 9.5],
             **{f"used:p{i}": [400, 400.0, 400 * 2.0, 400 * 4.5] for i in range(5)},
             "rule:mulligan": [300, 300.0, 300 * 1.0, 300 * 1.5],
             **{f"rule:r{i}": [300, 300.0, 300 * 2.5, 300 * 6.8] for i in range(3)}}
    said = sentences(_report(1, cards))
    used = next(s for s in said if s.startswith("used:"))
    assert "hot 3.00 stands out — a game with one scores that much on average" in used
    rule = next(s for s in said if s.startswith("rule:"))
    assert "mulligan 1.00 goes with lower scores — a game where it happened scores" in rule
    assert not any("mean score that often" in s or "a seat" in s for s in said)


def test_rule_keys_are_associations_not_traps() -> None:
    """A rule key far below its group reads "goes with losing", never "trap"."""
    cards = {"rule:yellow returned": [400, 30.0, 0.0, 0.0],
             **{f"rule:r{i}": [400, 120.0, 0.0, 0.0] for i in range(4)},
             "card:cold": [400, 30.0, 0.0, 0.0],
             **{f"card:c{i}": [400, 120.0, 0.0, 0.0] for i in range(4)}}
    said = sentences(_report(4, cards))
    rule = next(s for s in said if s.startswith("rule:"))
    assert ("yellow returned 7.5 % (5.3 %–10.5 %) goes with losing — a seat where it "
            "happened") in rule
    assert "trap" not in rule
    card = next(s for s in said if s.startswith("card:"))
    assert "looks like a trap — a seat with one wins that often" in card


def test_card_table_counts_seat_games_and_says_so() -> None:
    """The count column is seat-games (a key counted once per seat and game), labelled so."""
    lines = format_findings(_report(4, {"played:5G": [366, 196.0, 8888.0, 230000.0]}))
    row = next(line for line in lines if "5G" in line)
    assert "366 seat-games" in row and "uses" not in row
    solo = format_findings(_report(1, {"used:♠A": [88, 88.0, 234.0, 700.0]}))
    assert "88 games" in next(line for line in solo if "♠A" in line)


def _rung(budget: int, share: float, lo: float, hi: float) -> dict[str, Any]:
    return {"budget": budget, "win_share": share, "ci_low": lo, "ci_high": hi}


def test_a_ladder_from_few_games_is_not_called_flat() -> None:
    """8 games per budget (±22 points) cannot show a flat ladder; 200 games (±7) can."""
    few = {"fair_share": 0.25, "rungs": [_rung(4, 0.125, 0.022, 0.471),
                                         _rung(16, 0.125, 0.022, 0.471)]}
    said = ladder_sentences(few)[0]
    assert "play more games per budget" in said and "is flat" not in said
    # a 3-point difference from few games is no trend yet either, not "flat"
    few3 = {"fair_share": 0.25, "rungs": [_rung(4, 0.125, 0.022, 0.471),
                                          _rung(16, 0.155, 0.03, 0.5)]}
    said = ladder_sentences(few3)[0]
    assert "play more games per budget" in said and "is flat" not in said
    many = {"fair_share": 0.25, "rungs": [_rung(8, 0.25, 0.19, 0.31), _rung(64, 0.26, 0.2, 0.32)]}
    assert ladder_sentences(many)[0].startswith("The ladder is flat")
    # flat means first and last differ by under 5 points: 3 points is flat, 6 is a
    # trend whose intervals overlap (both measured finely, ±6 points)
    three = {"fair_share": 0.25, "rungs": [_rung(8, 0.25, 0.19, 0.31), _rung(64, 0.28, 0.22, 0.34)]}
    assert ladder_sentences(three)[0].startswith("The ladder is flat")
    six = {"fair_share": 0.25, "rungs": [_rung(8, 0.25, 0.19, 0.31), _rung(64, 0.31, 0.25, 0.37)]}
    assert ladder_sentences(six)[0].startswith("The ladder rises from 25 % at 8 iterations to 31 %")


def test_rates_print_as_percentages_means_as_numbers() -> None:
    """Win shares in a comparison and a game's rate figures on a ladder read as percentages."""
    d = {"mean": 0.02, "low": -0.04, "high": 0.08, "unpaired_half_width": 0.08,
         "base_mean": 0.21, "variant_mean": 0.23}
    assert "21.0% →    23.0%    +2.00 points" in format_difference("win_seat0", d)
    turns = format_difference("turns", {**d, "base_mean": 31.34, "variant_mean": 32.36})
    assert "31.34 →    32.36" in turns and "%" not in turns.split("(")[0]
    doc = {"title": "Toy", "slug": "toy", "players": 4, "games": 8, "seed": 1, "field": "greedy",
           "fair_share": 0.25, "rungs": [{**_rung(4, 0.25, 0.1, 0.5), "ok": True,
                                          "score_mean": 1.0, "score_ci_low": 0.5,
                                          "score_ci_high": 1.5, "game_figures": [
                                              {"name": "yellow return", "value": 0.75},
                                              {"name": "mean_spoils", "value": 7.625}]}]}
    assert "yellow return 75.0%, mean_spoils 7.62" in ladder_text(doc, [])


def test_compare_prints_a_games_rate_figure_as_a_percentage() -> None:
    """The game's own rate figure in --compare reads 77.5% (…), not 0.775 (0.7123–…)."""
    fortuna = load_game_data(CARD_DATA, "fortuna", strict=True)
    text, doc, code = run_compare(fortuna, ["all_in=false"], 4, 20, "random", 1, 1, {})
    base = {f["name"]: f for f in doc["rows"][0]["figures"]}["games_with_all_in"]
    # printed under its label (pnp.games.fortuna.labels.FIGURE_LABELS)
    line = next(line for line in text.splitlines() if "games with an all-in set" in line)
    assert line.split("set", 1)[1].split()[0] == f"{100 * base['value']:.1f}%"
    assert f"({100 * base['low']:.1f}%–{100 * base['high']:.1f}%) → 0.0% (0.0%–" in line
    assert code == 0 and "% →" in text


@pytest.mark.parametrize("kwargs,needle", [
    (dict(seed=-1), "--seed -1: expected a whole number ≥ 0"),
    (dict(bots="random,greedy,random,greedy"), "4 bots for 3 players; give at most 3"),
])
def test_bad_run_inputs_are_one_line_errors(kwargs: dict[str, Any], needle: str) -> None:
    """A negative seed and a bot list longer than the table stop before any game."""
    args: dict[str, Any] = dict(data=TOY, players=3, games=10, bots="random", seed=1, jobs=1,
                                params={})
    args.update(kwargs)
    with pytest.raises(PnpError) as info:
        run_simulation(**args)
    assert needle in str(info.value) and "\n" not in str(info.value)


def test_compare_against_the_rules_as_given_is_refused() -> None:
    """--compare with the value the rules already have would print only zeros."""
    with pytest.raises(PnpError, match="already have this value"):
        run_compare(TOY, ["cards=16"], 3, 10, "random", 1, 1, {})
    with pytest.raises(PnpError, match="already have this value"):
        run_compare(TOY, ["cards=12"], 3, 10, "random", 1, 1, {"cards": "12"})


def test_the_same_value_written_twice_is_refused() -> None:
    """12 and 012 are one value to the game: a sweep or comparison given both would
    play, print and pair one variant twice."""
    from pnp.sim import run_sweep

    with pytest.raises(PnpError) as info:
        run_sweep(TOY, ["cards=12,012"], 3, 10, "random", 1, 1, {})
    assert str(info.value) == "--sweep: cards=12 and 012 are the same value; give each once"
    with pytest.raises(PnpError) as info:
        run_compare(TOY, ["cards=12", "cards=012"], 3, 10, "random", 1, 1, {})
    assert str(info.value) == ("--compare cards=012: the same change as --compare cards=12; "
                               "give each change once")


def test_undecim_nights_are_a_mean_with_an_interval() -> None:
    """Red Moon Nights per game is a mean: named mean… (so sweeps print a number, not
    192.5%) and with a real interval, not value–value."""
    from pnp.games.registry import game_entry, make_game
    from pnp.sim import simulate

    data = load_game_data(CARD_DATA, "undecim", strict=True)
    game = make_game(data, {})
    result = simulate(game, 4, 12, ["random"], 1, stats=game_entry("undecim").stats)
    stats = result.totals.stats
    assert stats is not None
    figs = {name: (v, lo, hi) for name, v, lo, hi in stats.key_figures(stats.to_dict())}
    v, lo, hi = figs["mean_red_moon_nights"]
    assert lo < v < hi and v == stats.to_dict()["nights_per_game"]
    assert "Red Moon Nights per game" not in figs
    # The widest action-card gap carries that card's interval, not value–value.
    gap, glo, ghi = figs["widest action win-rate gap"]
    assert glo <= gap <= ghi and ghi - glo > 0.05
    # Story cards by name (a sweep column a designer reads), not by id.
    names = {s["name"] for s in stats.to_dict()["scenarios"].values()}
    assert names and all(f"{n} achieved" in figs for n in names)
    assert not any(k.startswith("s1_") for k in figs)


def test_frequent_ties_need_enough_games() -> None:
    """One tie in 4 games is not "the tie-break decides many games"; 240 in 1000 is."""
    few = _report(4, {})
    few["completion"] = {"games": 4, "completed": 4}
    few["ties"] = {"top_score_tie_rate": 0.25}
    assert not any("tie" in s for s in sentences(few))
    many = _report(4, {})
    many["ties"] = {"top_score_tie_rate": 0.243}
    assert any(s.startswith("Top scores tie in 24 % of games") for s in sentences(many))
    # docs/simulation.md: at least 10 %, whatever the number of games
    just_over = _report(4, {})
    just_over["ties"] = {"top_score_tie_rate": 0.12}
    assert any(s.startswith("Top scores tie in 12 % of games") for s in sentences(just_over))
    under = _report(4, {})
    under["completion"] = {"games": 100_000, "completed": 100_000}
    under["ties"] = {"top_score_tie_rate": 0.09}    # interval 8.8–9.2 %, still under 10 %
    assert not any("tie" in s for s in sentences(under))


def test_compare_page_shows_changes_as_signed_points_with_the_numbers() -> None:
    """The comparison page labels a win-share change "+8.3 pt", not "8.3%", and lists
    base, changed and the paired interval as the text report does."""
    from pnp.sim.html import compare_page

    text, doc, _code = run_compare(TOY, ["cards=12"], 3, 30, "random", 2, 1, {})
    page = compare_page(doc)
    d = doc["rows"][1]["paired"]["differences"]["win_seat1"]
    assert f">{100 * d['mean']:+.1f} pt</text>" in page
    assert (f"<td>{100 * d['base_mean']:.1f}%</td><td>{100 * d['variant_mean']:.1f}%</td>"
            in page)
    turns = doc["rows"][1]["paired"]["differences"]["turns"]
    # −4 every game: the interval is the bound of a difference that never varied
    assert turns["no_spread"]
    assert (f"<td>{turns['mean']:+.2f} ({turns['low']:+.2f} … {turns['high']:+.2f}) bound, "
            "every game alike</td>") in page
    assert "<th>own interval excludes 0</th>" in page and "<td>yes</td>" in page  # turns: −4 every game


def test_sweep_page_differences_match_the_text() -> None:
    """The sweep page's paired table has the text report's columns and units: win share
    changes in points (was a raw fraction, +0.090 for +9 points)."""
    from pnp.sim import run_sweep
    from pnp.sim.html import sweep_page

    text, doc, _code = run_sweep(TOY, ["cards=12,16"], 3, 30, "random", 2, 1, {})
    page = sweep_page(doc)
    d = doc["rows"][1]["paired"]["differences"]["win_seat0"]
    assert f"<td>{100 * d['mean']:+.1f} pt ({100 * d['low']:+.1f} pt … " in page
    assert "<th>winner_margin</th>" in page and "<th>score_seat0</th>" not in page
    # one swept parameter: the ticks are its values, the last one hanging inwards
    assert re.search(r'text-anchor="end" font-size="13" fill="#[0-9a-f]+">16</text>', page)
    solo = {**doc, "players": 1}
    assert "<th>winner_margin</th>" not in sweep_page(solo)


def test_no_progress_bar_when_the_json_goes_to_stdout(capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    """--json - is read by a program: no bar on stderr, only the JSON on stdout."""
    run_simulation(TOY, 3, 30, "random", 1, 1, {}, progress=True, json_path=Path("-"))
    out, err = capsys.readouterr()
    assert "Simulating" not in err and out.startswith("{")
    run_simulation(TOY, 3, 30, "random", 1, 1, {}, progress=True)
    assert "Simulating toy" in capsys.readouterr().err  # the bar is still there otherwise


def test_seat_sentence_interval_does_not_round_onto_the_fair_share() -> None:
    """9 Peak, 1500 greedy games: seat 3's interval 25.1–29.6 % excludes 25 %; rounded to
    whole per cent it read "25 %–30 %" beside "25 % expected"."""
    rep = _report(4, {})
    rep["seats"] = [{"win_share": 0.204, "ci_low": 0.184, "ci_high": 0.225},
                    {"win_share": 0.244, "ci_low": 0.223, "ci_high": 0.266},
                    {"win_share": 0.279, "ci_low": 0.257, "ci_high": 0.302},
                    {"win_share": 0.273, "ci_low": 0.251, "ci_high": 0.296}]
    rep["seat_balance"] = {"significant": True, "flagged": [0, 2, 3]}
    said = sentences(rep)
    assert ("Seat 3 wins 27.3 % (95 % 25.1–29.6 %) where 25 % is expected: seat order gives "
            "it more than its share.") in said


def test_episode2_findings_say_how_runs_end() -> None:
    """第2話's findings lead with how the runs end; a true end never reached is said with
    the most its interval allows, and not said once a run reaches it."""
    data = load_game_data(CARD_DATA, "episode2", strict=True)
    _t, rep, _c = run_simulation(data, 1, 60, "random", 1, 1, {})
    fig = rep["game_figures"]["figures"]["outcomes"]
    said = rep["findings"]["sentences"]
    assert fig["true_end"]["count"] == 0
    assert (f"Of 60 runs, 0.0 % reach the true end, {100 * fig['normal_clear']['rate']:.1f} % "
            "clear normally") in " ".join(said)
    assert any(s.startswith("No run defeated all 12 bosses") for s in said)
    _t, rep, _c = run_simulation(data, 1, 60, "heuristic", 1, 1, {})
    assert rep["game_figures"]["figures"]["outcomes"]["true_end"]["count"] > 0
    assert not any("No run" in s for s in rep["findings"]["sentences"])


def test_events_table_never_rounds_a_missed_game_to_all() -> None:
    """An event that fired in 9,999 of 10,000 games reads ">99.9%" in the events table."""
    from pnp.sim import simulate
    from pnp.sim.report import build_report, format_report

    rep = build_report(simulate(toy(), 3, 30, ["random"], 9))
    rep["completion"]["completed"] = 10_000
    rep["events"]["beat"].update(games=9_999, games_share=0.9999)
    line = next(x for x in format_report(rep).splitlines() if x.strip().startswith("beat "))
    assert line.endswith(">99.9%") and rep["events"]["miss"]["games"] <= 30


def test_chart_page_colours_rule_keys_as_associations() -> None:
    """On the page, a rule group's colours read "goes with winning/losing", cards' "dominant"."""
    data = load_game_data(CARD_DATA, "fortuna", strict=True)
    _t, rep, _c = run_simulation(data, 4, 60, "random", 1, 1, {})
    page = report_page(rep)
    rule = page.split("<h2>Cards: rule")[1].split("<h2>")[0]
    assert "Green: goes with winning, red: with losing" in rule and "trap" not in rule
    played = page.split("<h2>Cards: played")[1].split("<h2>")[0]
    assert "Green: dominant, red: trap" in played


def test_text_table_flags_rule_keys_as_associations() -> None:
    """In the text table a flagged rule row reads WITH LOSING, a card row TRAP."""
    cards = {"rule:yellow returned": [400, 30.0, 0.0, 0.0],
             **{f"rule:r{i}": [400, 120.0, 0.0, 0.0] for i in range(4)},
             "card:cold": [400, 30.0, 0.0, 0.0],
             **{f"card:c{i}": [400, 120.0, 0.0, 0.0] for i in range(4)}}
    lines = format_findings(_report(4, cards))
    assert next(x for x in lines if "yellow returned" in x).endswith("WITH LOSING")
    assert next(x for x in lines if "cold" in x).endswith("TRAP")


def _d(mean: float, low: float, high: float, base: float | None = 1.0) -> dict[str, Any]:
    return {"mean": mean, "low": low, "high": high, "base_mean": base}


def test_a_change_is_summed_up_in_one_sentence_from_its_paired_intervals() -> None:
    """--compare says in words what moved (Fortuna all_in=false: longer, narrower, every
    seat less) and that win shares did not; a change that moves nothing says so."""
    from pnp.sim.paired import change_sentence

    diffs = {"turns": _d(1.05, 0.83, 1.28), "winner_margin": _d(-1.85, -2.87, -0.83),
             **{f"score_seat{s}": _d(-3.0 - s / 4, -4.5, -1.5) for s in range(4)},
             **{f"win_seat{s}": _d(0.01, -0.05, 0.07) for s in range(4)},
             "win_bot0": _d(0.0, 0.0, 0.0)}
    said = change_sentence(diffs, 4, ["greedy"], 300)
    assert said == ("On the same 300 deals, games run 1.05 turns longer (+0.83 … +1.28); the "
                    "winner's margin is 1.85 narrower (-2.87 … -0.83); every seat scores "
                    "3.00–3.75 less; no seat's win share moves beyond noise.")
    diffs["win_seat3"] = _d(0.08, 0.02, 0.14)
    diffs["score_seat0"] = _d(-0.5, -1.0, 0.1)
    said = change_sentence(diffs, 4, ["greedy"], 300)
    assert "scores change for seat 1 (-3.25), seat 2 (-3.50), seat 3 (-3.75) only" in said
    assert "seat 3 wins 8.0 points more often (+2.0 … +14.0)" in said
    quiet = {k: _d(0.0, -0.1, 0.1) for k in diffs}
    assert change_sentence(quiet, 4, ["greedy"], 200) == (
        "On these 200 paired games nothing moves beyond noise.")
    solo = {"turns": _d(2.09, 1.55, 2.62), "winner_margin": _d(0.0, 0.0, 0.0),
            "score_seat0": _d(0.74, 0.42, 1.07), "win_seat0": _d(0.0, 0.0, 0.0)}
    assert change_sentence(solo, 1, ["heuristic"], 300) == (
        "On the same 300 deals, games run 2.09 turns longer (+1.55 … +2.62); the score "
        "changes by +0.74 (+0.42 … +1.07).")


def test_compare_text_and_page_carry_the_sentence() -> None:
    """The sentence is in the text (under its change), the JSON row and the page."""
    from pnp.sim.html import compare_page

    text, doc, _code = run_compare(TOY, ["cards=12"], 3, 30, "random", 2, 1, {})
    said = doc["rows"][1]["sentence"]
    assert said.startswith("On the same 30 deals, games run 4.00 turns shorter")
    assert f"  In short: {said}" in text.splitlines()
    assert f"<p>{escape(said)}</p>" in compare_page(doc)


def test_seat_numbering_is_explained() -> None:
    """"Seat 0" is programmer's counting: the text and the page say it is the start player."""
    from pnp.sim.report import format_report

    _t, rep, _c = run_simulation(TOY, 3, 20, "random", 1, 1, {})
    assert "Seats (seat 0 is the start player; fair share 33.3%" in format_report(rep)
    assert "Seats are numbered from 0, the start player." in report_page(rep)


def test_paired_modes_need_two_games_and_solo_compares_skip_wins() -> None:
    """One game gives a paired interval of one point (any change would read as certain);
    a solo comparison shows no win shares or margins (every run "wins")."""
    from pnp.sim import run_ladder, run_sweep
    from pnp.sim.html import compare_page

    for run, extra in ((run_compare, {"compares": ["cards=12"], "bots": "random"}),
                       (run_sweep, {"sweeps": ["cards=12,16"], "bots": "random"}),
                       (run_ladder, {"field": "random", "budgets": "2,4"})):
        with pytest.raises(PnpError, match=r"--games 1: .* needs at least 2 games"):
            run(data=TOY, players=3, games=1, seed=1, jobs=1, params={}, **extra)
    data = load_game_data(CARD_DATA, "episode2", strict=True)
    text, doc, _c = run_compare(data, ["starting_hp=10"], 1, 20, "heuristic", 1, 1, {})
    shown = [line.split()[0] for line in text.splitlines() if line.startswith("  ")]
    assert "attacks" in shown and "score_seat0" in shown  # 第2話 counts attacks
    assert not any(n.startswith("win_") or n == "winner_margin" for n in shown)
    page = compare_page(doc)
    assert "win_seat0" not in page and "winner_margin" not in page
    assert "change in scores and length (paired)" in page


def test_score_histograms_share_one_x_range() -> None:
    """Seats' score histograms line up value for value (Fortune Clover's ran 0–9, 0–10
    and 0–8 one above the other)."""
    rep = _report(3, {})
    rep["length_turns"] = {"min": 1, "median": 1, "p95": 1, "max": 1, "mean": 1,
                           "histogram": {"1": 1}}
    rep["seats"] = [{"seat": s, "win_share": 0.3, "ci_low": 0.2, "ci_high": 0.4,
                     "score_mean": 1.0, "score_ci_low": 0.9, "score_ci_high": 1.1,
                     "score_histogram": h}
                    for s, h in enumerate(({"0": 5, "9": 1}, {"0": 4, "10": 2}, {"2": 3}))]
    section = report_page(rep).split("<h2>Score distribution")[1].split("<h2>")[0]
    charts = section.split("<svg")[1:]
    assert len(charts) == 3
    for chart in charts:  # every seat's axis runs 0 … 10
        assert ">0</text>" in chart and ">10</text>" in chart and chart.count("<rect") == 11


def test_bar_chart_axis_ends_are_round_values() -> None:
    """Axis ends round out to readable values (40.0%, not 34.7%; never "-0.0%")."""
    from pnp.sim.html import bar_chart

    svg = bar_chart([("seat 0", 0.21, 0.18, 0.247), ("seat 1", 0.29, 0.26, 0.347)], ref=0.25)
    ticks = re.findall(r'fill="#[0-9a-f]+">([^<]+)</text>', svg)
    assert ticks[-3:] == ["0.0%", "20.0%", "40.0%"] and "-0.0%" not in svg
    diff = bar_chart([("turns", 1.02, 0.75, 1.29), ("margin", -1.52, -2.75, -0.3)],
                     pct=False, ref=0.0, diff=True)
    assert re.findall(r'fill="#[0-9a-f]+">([^<]+)</text>', diff)[-3:] == ["-3.00", "+0.00",
                                                                          "+1.50"]


def test_line_chart_axis_ends_are_round_values() -> None:
    """Sweep and ladder curves: the y axis tops out at a round value (20.00, not 15.02)."""
    from pnp.sim.html import line_chart

    svg = line_chart(["6", "8", "10"], [("mean_turns", [8.0, 12.4, 14.5], [7.5, 11.9, 14.0],
                                         [8.6, 12.9, 15.02])], pct=False)
    assert re.findall(r'text-anchor="end" font-size="13" fill="#[0-9a-f]+">([^<]+)</text>',
                      svg)[:3] == ["0.00", "10.00", "20.00"]


def test_fortune_clover_rule_keys_say_what_happened() -> None:
    """Fortune Clover's rule keys name the event in the game's terms: 1st place on a
    Fortune card (was "first in a deal", which reads as leading the first trick) and
    giving back yellow (C8); every game has a 1st place on each of its deals."""
    data = load_game_data(CARD_DATA, "fortune_clover", strict=True)
    _t, rep, _c = run_simulation(data, 4, 20, "random", 1, 1, {})
    rules = {r["name"]: r for r in rep["findings"]["cards"] if r["group"] == "rule"}
    assert set(rules) == {"1st on a Fortune card", "yellow returned"}
    assert rules["1st on a Fortune card"]["uses"] >= 20


def test_chart_page_holds_the_win_matrix_and_the_games_own_figures(tmp_path: Path) -> None:
    """With mixed bots the page has the head-to-head table the text has; the game's own
    figures (Undecim's VP by source, …) are on the page too, as the text prints them."""
    data = load_game_data(CARD_DATA, "fortuna", strict=True)
    out = tmp_path / "r.html"
    text, rep, _c = run_simulation(data, 4, 40, "greedy,random", 1, 1, {}, html_path=out)
    page = out.read_text(encoding="utf-8")
    h2h = rep["bots"]["head_to_head"]["greedy"]["random"]
    matrix = page.split("<h2>Head to head</h2>")[1].split("<h2>")[0]
    assert f"<td>greedy</td><td>—</td><td>{100 * h2h:.1f}%</td>" in matrix
    own = page.split("<h2>Fortuna figures</h2>")[1].split("<h2>")[0]
    first = text.split("Fortuna figures:\n")[1].splitlines()[0].strip()
    assert first.startswith("sets by declared value") and escape(first) in own
    assert "Fortuna figures" not in report_page(rep)  # only when given


def test_bot_outcomes_are_named_by_their_bot() -> None:
    """With mixed bots, --compare's win_bot1 line says which bot it is (win_bot1 (random)),
    in the text and on the page."""
    from pnp.sim.html import compare_page

    text, doc, _c = run_compare(TOY, ["cards=12"], 3, 20, "greedy,random", 2, 1, {})
    assert any(line.startswith("  win_bot1 (random)") for line in text.splitlines())
    assert "<td>win_bot1 (random)</td>" in compare_page(doc)


def test_sweep_values_the_game_reads_as_one_are_refused() -> None:
    """cards=16,016 would print the same row twice (and pair it with itself)."""
    from pnp.sim import run_sweep

    with pytest.raises(PnpError, match="--sweep: cards=16 and 016 are the same value"):
        run_sweep(TOY, ["cards=16,016"], 3, 10, "random", 1, 1, {})


def test_a_seat_that_never_acts_is_a_finding() -> None:
    """A seat with games in which it made no decision leads the findings; none, nothing."""
    rep = _report(3, {})
    rep["seats"] = [{"seat": s, "win_share": 1 / 3, "ci_low": 0.0, "ci_high": 1.0,
                     "games_without_decision": idle} for s, idle in enumerate((0, 12, 0))]
    assert sentences(rep) == ["Seat 1 made no decision at all in 12 of 1000 games: check "
                              "that every player gets to act."]
    rep["seats"][1]["games_without_decision"] = 0
    assert sentences(rep) == []


def test_scores_carry_their_unit() -> None:
    """A score is VP, chips or bosses taken: the seat table, the solo line, the solo
    sentences and the page say which (a game without a unit says "score")."""
    from pnp.sim.report import format_report

    clover = load_game_data(CARD_DATA, "fortune_clover", strict=True)
    _t, rep, _c = run_simulation(clover, 4, 10, "random", 1, 1, {})
    assert rep["config"]["score_unit"] == "chips"
    assert "  seat  chips mean (95% interval)" in format_report(rep)
    assert "Score distribution by seat (chips)" in report_page(rep)
    ep2 = load_game_data(CARD_DATA, "episode2", strict=True)
    # 1000 runs: at 300 the only flags were cards no longer flagged once the
    # table's ~50 keys are corrected together (Holm); mulligan's holds
    text, rep, _c = run_simulation(ep2, 1, 1000, "random", 1, 1, {})
    assert "Score (bosses taken): mean" in text
    assert any("scores that much on average (bosses taken)" in s
               for s in rep["findings"]["sentences"])
    _t, toy_rep, _c = run_simulation(TOY, 3, 10, "random", 1, 1, {})
    assert toy_rep["config"]["score_unit"] == ""
    assert "  seat  score mean (95% interval)" in format_report(toy_rep)


def test_solo_ladder_page_shows_the_paired_differences() -> None:
    """The solo ladder is read by its paired differences against the field bot: the page
    shows them, with the field bot's own row, as the text does."""
    from pnp.sim import run_ladder
    from pnp.sim.html import ladder_page

    data = load_game_data(CARD_DATA, "episode2", strict=True)
    text, doc, _c = run_ladder(data, 1, 6, "heuristic", 1, 1, {}, budgets="2,4")
    page = ladder_page(doc)
    d = doc["rungs"][1]["paired_vs_field"]
    # a difference that was the same in every game is a bound, and says so (paired_text)
    cell = f"{d['mean']:+.2f} ({d['low']:+.2f} … {d['high']:+.2f}" + (
        ", bound: every game alike)" if d["no_spread"] else ")")
    assert f"<td>{cell}</td>" in page and cell in text
    assert "<td>heuristic alone</td>" in page
    assert "<th>difference vs heuristic (paired 95%)</th>" in page
    assert f">heuristic alone {doc['baseline']['score_mean']:.2f}</text>" in page  # the line


def test_compare_page_lists_the_games_own_figures() -> None:
    """The comparison page shows the game's own figures base → changed, as the text does."""
    from pnp.sim.html import compare_page

    fortuna = load_game_data(CARD_DATA, "fortuna", strict=True)
    text, doc, _c = run_compare(fortuna, ["all_in=false"], 4, 20, "random", 1, 1, {})
    base = {f["name"]: f for f in doc["rows"][0]["figures"]}["games_with_all_in"]
    page = compare_page(doc)
    assert (f"<td>games with an all-in set</td><td>{100 * base['value']:.1f}% "
            f"({100 * base['low']:.1f}%–{100 * base['high']:.1f}%)</td><td>0.0% (0.0%–") in page
    assert "<td>completion</td>" not in page


def test_the_same_change_twice_is_refused() -> None:
    """--compare cards=12 --compare cards=012 would play and print one change twice."""
    with pytest.raises(PnpError, match="--compare cards=012: the same change as --compare "
                                       "cards=12"):
        run_compare(TOY, ["cards=12", "cards=012"], 3, 10, "random", 1, 1, {})


def test_card_findings_under_mixed_bots_carry_a_caveat() -> None:
    """With mixed bots a flagged card may only be the stronger bot's card: the findings
    say so; with one bot type they do not."""
    cards = {"card:hot": [400, 240.0, 0.0, 0.0],
             **{f"card:p{i}": [400, 150.0, 0.0, 0.0] for i in range(3)}}
    rep = _report(4, cards)
    assert not any("bots are mixed" in s for s in sentences(rep))
    rep["config"]["seat_rotation"] = True
    assert sentences(rep)[-1].startswith("The bots are mixed, so the cards and rules above")


def test_chart_page_names_failed_games() -> None:
    """A run with broken games is not shown as clean on the page: each failure is listed."""
    _t, rep, code = run_simulation(TOY, 3, 20, "random", 1, 1, {"variant": "lose_card"},
                                   invariants="full", step_cap=200)
    assert code == 1 and rep["failures"]
    page = report_page(rep)
    fails = page.split("<h2>Failures</h2>")[1]
    first = rep["failures"][0]
    assert f"<td>{first['game_index']}</td><td>{first['kind']}</td>" in fails
    clean = report_page(run_simulation(TOY, 3, 20, "random", 1, 1, {})[1])
    assert "<h2>Failures</h2>" not in clean


def test_sweep_and_compare_pages_name_failing_variants() -> None:
    """A variant with failed games is named at the top of its page, as the text warns."""
    from pnp.sim import run_sweep
    from pnp.sim.html import compare_page, sweep_page

    _t, doc, code = run_sweep(TOY, ["variant=normal,lose_card"], 3, 10, "random", 1, 1, {},
                              invariants="full", step_cap=200)
    assert code == 1
    page = sweep_page(doc)
    assert "<h2>Failures</h2>\n<p>Some games failed with variant=lose_card:" in page
    _t, doc, _c = run_compare(TOY, ["cards=12"], 3, 10, "random", 1, 1, {})
    assert "<h2>Failures</h2>" not in compare_page(doc)


def test_variants_whose_games_all_failed_read_as_such() -> None:
    """A sweep row with no finished game: its missing figures show "—" under the right
    columns, its paired cells "—", no length of 0.00; the page still renders (it raised);
    a comparison with nothing paired says so instead of "nothing moves"."""
    from pnp.sim import run_sweep
    from pnp.sim.html import sweep_page

    text, doc, code = run_sweep(TOY, ["variant=lose_card,normal"], 3, 10, "random", 1, 1, {},
                                invariants="full", step_cap=200)
    assert code == 1
    head, bad, good = [x for x in text.splitlines() if "value " in x or "variant=" in x][:3]
    assert head.split()[1:] == ["completion", "mean_turns", "seat0_wins", "top_score_ties"]
    assert bad.count("—") == 3 and bad.endswith("FAILURES") and "0.00 (0.00–0.00)" not in bad
    paired = next(x for x in text.splitlines()[text.splitlines().index(good) + 1:]
                  if x.startswith("  variant=normal"))
    assert paired.split()[1:] == ["—", "—", "—"]
    assert "<h2>Failures</h2>" in sweep_page(doc)
    _t, cdoc, _c = run_compare(TOY, ["variant=lose_card"], 3, 10, "random", 1, 1, {},
                               invariants="full", step_cap=200)
    assert cdoc["rows"][1]["sentence"].startswith("No game finished under both rules")


def test_ladder_page_names_rungs_with_failures() -> None:
    """A rung whose games failed is flagged on the page, as in the text."""
    from pnp.sim.html import ladder_page

    doc = {"title": "Toy", "slug": "toy", "players": 2, "games": 10, "seed": 1,
           "field": "random", "fair_share": 0.5, "sentences": [],
           "rungs": [{**_rung(b, 0.5, 0.3, 0.7), "ok": ok, "seat_games": 10,
                      "score_mean": 1.0, "score_ci_low": 0.5, "score_ci_high": 1.5}
                     for b, ok in ((2, True), (4, False))]}
    assert "<p>Some games failed at 4 iterations:" in ladder_page(doc)
    doc["rungs"][1]["ok"] = True
    assert "Failures" not in ladder_page(doc)


def test_ladder_scores_carry_their_unit() -> None:
    """The ladder names what its scores count (bosses taken, VP), in text and on the page."""
    from pnp.sim import run_ladder
    from pnp.sim.html import ladder_page

    data = load_game_data(CARD_DATA, "episode2", strict=True)
    text, doc, _c = run_ladder(data, 1, 4, "heuristic", 1, 1, {}, budgets="2,4")
    assert doc["score_unit"] == "bosses taken"
    assert "heuristic alone on the same deals: mean bosses taken" in text
    assert "Skill ladder (mean bosses taken)" in ladder_page(doc)


def test_rule_line_marks_a_rule_that_fired_in_few_games() -> None:
    """A rule that fired in 2 of 1000 games: its "fired" figures rest on 2 games; say so."""
    rows = rule_table(("all_club_trick",), [[2, 2]], [[2, 4.0, 2 * 168, 0.0]], 1000,
                      2060.0, 1000 * 168)
    line = next(x for x in format_findings(_report(4, {}, rows)) if "all_club_trick" in x)
    assert line.endswith("(only 2 games with it)") and "0.2% of games" in line
