"""Flags and finding sentences hold up across the family of figures tested together (Holm).

Hand-worked families check the procedure itself; a seeded toy of 30 alike
cards checks that card flags no longer come from noise, while a truly
dominant card is still found; the seat, bot, comparison and solo-ladder
sentences are checked on families whose uncorrected tests would speak.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from card_toy import Ended4, Uses

from pnp.intervals import t_quantile, wilson_interval
from pnp.sim import _solo_ladder_sentences
from pnp.sim.aggregate import Aggregate
from pnp.sim.findings import bots_above_luck, card_table, keys_tested
from pnp.sim.multiple import holm, holm_adjusted, t_p_value, wilson_p_value
from pnp.sim.paired import change_sentence, changes_that_hold
from pnp.sim.report import seat_balance


def test_holm_on_a_hand_worked_family() -> None:
    """p = .01, .04, .03, .005 at α = .05: sorted, .005 ≤ .05/4 and .01 ≤ .05/3 hold,
    then .03 > .05/2 stops the procedure, so only those two hold (uncorrected, all four
    would)."""
    p = [0.01, 0.04, 0.03, 0.005]
    assert holm(p) == [True, False, False, True]
    # adjusted: .005·4 = .02, .01·3 = .03, .03·2 = .06, max(.06, .04·1) = .06
    assert holm_adjusted(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    # the step-down: .012 ≤ .05/4, then .02 > .05/3 stops; with .016 next, .016 ≤ .05/3
    # and .02 ≤ .05/2 hold (Bonferroni, .05/4 for all, would keep only .012)
    assert holm([0.012, 0.02, 0.5, 0.9]) == [True, False, False, False]
    assert holm([0.012, 0.016, 0.02, 0.9]) == [True, True, True, False]
    # one test is the plain 5 % test
    assert holm([0.049]) == [True] and holm([0.051]) == [False]
    assert holm([]) == [] and holm_adjusted([]) == []


def test_p_values_match_the_printed_intervals() -> None:
    """At the 95 % t quantile p is 0.05 (exact sums up to 1000 df, the normal transform
    above); the Wilson interval's end is where the score test's p is 0.05."""
    for df in (1, 2, 5, 30, 999, 1000, 1001, 50_000):
        assert t_p_value(t_quantile(0.975, df), df) == pytest.approx(0.05, rel=1e-4)
        assert t_p_value(-t_quantile(0.995, df), df) == pytest.approx(0.01, rel=1e-3)
    low, high = wilson_interval(0.3, 200)
    assert wilson_p_value(0.3, low, 200) == pytest.approx(0.05, rel=1e-6)
    assert wilson_p_value(0.3, high, 200) == pytest.approx(0.05, rel=1e-6)
    assert wilson_p_value(0.3, 0.0, 200) == 1.0


def _toy_cards(seed: int, games: int, boost: float) -> list[dict[str, Any]]:
    """A seeded 4-player toy: 60 cards, each seat dealt 5 (about 40 seat-games a card in
    120 games); the winner drawn with weight ``boost`` for a seat holding card c00 and 1
    otherwise (boost 1: every card alike, the game the same whatever a seat holds)."""
    rng = random.Random(seed)
    deck = [f"card:c{i:02d}" for i in range(60)]
    tables, results = [], []
    for _g in range(games):
        dealt = rng.sample(deck, 20)
        hands = [dealt[5 * s:5 * s + 5] for s in range(4)]
        weights = [boost if "card:c00" in h else 1.0 for h in hands]
        winner = rng.choices(range(4), weights)[0]
        returns = [rng.randint(0, 10) + (5 if s == winner else 0) for s in range(4)]
        tables.append(hands)
        results.append((returns, winner))
    agg = Aggregate(4, (), ("x",), stats=Uses(tables))  # type: ignore[arg-type]
    for returns, winner in results:
        agg.add_game(Ended4(returns, winner), ("x",) * 4, [1] * 4, [1] * 4)  # type: ignore
    return card_table(agg.cards, 4, agg.card_groups)


@pytest.mark.parametrize("seed", range(1, 9))
def test_alike_cards_are_never_flagged(seed: int) -> None:
    """60 alike cards over 120 games: no flag on any of 8 seeds (each card tested at 95 %
    on its own, half the seeds flag one: the correction is what keeps them quiet)."""
    rows = _toy_cards(seed, 120, 1.0)
    assert keys_tested(rows) == sum(r["uses"] >= 30 for r in rows) >= 50
    assert [r["key"] for r in rows if r["flag"]] == []


def test_uncorrected_tests_would_flag_alike_cards() -> None:
    """The toy is not too quiet to test anything: over the 8 seeds, some alike card's
    own p-value is below 0.05 (the flag a per-card 95 % test would have raised)."""
    noisy = [seed for seed in range(1, 9)
             if any(r["p_value"] is not None and r["p_value"] < 0.05
                    for r in _toy_cards(seed, 120, 1.0))]
    assert len(noisy) >= 3


@pytest.mark.parametrize("seed", range(1, 4))
def test_a_dominant_card_is_still_flagged(seed: int) -> None:
    """Card c00 makes its holder 4 times as likely to win: over 400 games it is flagged
    dominant, alone, with the 60 keys tested together."""
    rows = _toy_cards(seed, 400, 4.0)
    flagged = {r["key"]: r["flag"] for r in rows if r["flag"]}
    assert flagged == {"card:c00": "dominant"}
    top = next(r for r in rows if r["key"] == "card:c00")
    assert top["p_holm"] <= 0.05 < 1.0 and top["p_value"] <= top["p_holm"]


def test_seat_flags_are_corrected_for_the_seats() -> None:
    """4 seats over 400 games, 120/80/100/100 wins: chi-square 8.0 on 3 df (p 0.046)
    rejects equal shares, and seat 0's 30 % alone has p = 0.021 (z = 0.05 / √(0.1875 /
    400) = 2.31; its interval excludes 25 %), but Holm's smallest threshold is 0.05 / 4:
    no seat is named. At 130/70 (z = 3.46, p = 0.0005 each) both are."""
    bal = seat_balance([120.0, 80.0, 100.0, 100.0], 400)
    assert bal["significant"]
    assert wilson_interval(120 / 400, 400)[0] > 0.25          # alone it would be flagged
    assert bal["seat_p_values"][0] == pytest.approx(0.0209, abs=2e-4)
    assert bal["flagged"] == []
    bal = seat_balance([130.0, 70.0, 100.0, 100.0], 400)
    assert bal["flagged"] == [0, 1]


def test_bot_sentence_is_corrected_for_the_bots() -> None:
    """Two bots at 29.5 % over 400 games, each alone just above luck (z 2.08, p 0.038),
    Holm keeps neither (0.038 > 0.05 / 2); once one is clear (33 %, p 0.0002 ≤ 0.025)
    the other is held to 0.05 and stays too (the step-down), and at 28 % it does not."""
    def win(share: float) -> dict[str, Any]:
        return {"seat_games": 400, "games": 400, "win_share": share}

    wins = {"a": win(0.295), "b": win(0.295)}
    bots: dict[str, Any] = {"names": ["a", "b"], "win": wins}
    assert wilson_interval(0.295, 400)[0] > 0.25
    assert bots_above_luck(bots, 0.25) == set()
    wins["a"] = win(0.33)
    assert bots_above_luck(bots, 0.25) == {"a", "b"}
    wins["b"] = win(0.28)
    assert bots_above_luck(bots, 0.25) == {"a"}


def _d(mean: float, low: float, high: float) -> dict[str, Any]:
    return {"mean": mean, "low": low, "high": high, "base_mean": 1.0}


def test_one_seat_of_four_does_not_lead_the_sentence() -> None:
    """Seat 1's score change alone excludes 0 (p ≈ 0.025), the other nine outcomes do not:
    "scores change for seat 1 only" was noise; a change far beyond noise still reads."""
    games = 200
    half = t_quantile(0.975, games - 1)
    diffs = {"turns": _d(0.1, -0.4, 0.6), "winner_margin": _d(-1.0, -2.5, 0.5),
             **{f"score_seat{s}": _d(0.3, -1.7, 2.3) for s in range(4)},
             **{f"win_seat{s}": _d(0.0, -0.08, 0.08) for s in range(4)}}
    diffs["score_seat1"] = _d(-2.23, -2.23 - 1.94, -2.23 + 1.94)
    assert diffs["score_seat1"]["high"] < 0
    assert changes_that_hold(diffs, 4, ["greedy"], games) == set()
    assert change_sentence(diffs, 4, ["greedy"], games) == (
        f"On these {games} paired games nothing moves beyond noise.")
    se = 0.3
    diffs["turns"] = _d(-2.2, -2.2 - half * se, -2.2 + half * se)    # t ≈ 7.3
    assert changes_that_hold(diffs, 4, ["greedy"], games) == {"turns"}
    assert change_sentence(diffs, 4, ["greedy"], games).startswith(
        f"On the same {games} deals, games run 2.20 turns shorter")


def test_solo_ladder_best_rung_holds_with_all_rungs() -> None:
    """Six rungs: the best one alone just clears the field (p ≈ 0.03), not with six tested."""
    def rung(budget: int, mean: float, p: float) -> dict[str, Any]:
        return {"budget": budget, "paired_vs_field": {"mean": mean, "low": 0.01,
                                                      "high": 2 * mean, "p_value": p}}

    rungs = [rung(8 << i, 0.2 + 0.1 * i, 0.5 if i < 5 else 0.03) for i in range(6)]
    doc: dict[str, Any] = {"field": "heuristic", "games": 100, "rungs": rungs}
    said = _solo_ladder_sentences(doc)
    assert said[0].startswith("No budget scores clearly above heuristic")
    doc["rungs"][5]["paired_vs_field"]["p_value"] = 0.001
    assert _solo_ladder_sentences(doc)[0].startswith("Search pays: at 256 iterations")
