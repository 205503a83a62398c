"""Undecim campaign seasons: the per-season record, its notation, the per-season figures.

A campaign (U7, U7a) is three seasons, each a whole game whose ranks set the
next season's starting VP; the campaign's winner is season 3's. The state
keeps each finished season's VP per seat by source (``season_vp``, notation
``done=``), ``season_results`` names each season's winner with the U6
tie-break of that season's last round, and ``UndecimStats`` turns them into
per-season figures and findings. Positions are written in the notation
(see test_undecim_rules.py for the card codes).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest

from pnp.games.api import NotationError
from pnp.games.undecim.codec import BUILD_DONE
from pnp.games.undecim.engine import SEASON_SOURCES, UndecimObservation, UndecimState
from pnp.games.undecim.stats import UndecimStats
from pnp.sim.report import build_report
from pnp.sim.runner import simulate

from test_undecim_rules import position, undecim

ZEROS = "0.0.0.0.0.0.0.0"
#: Fifteen rounds of action numbers by seat; each season's last round decides ties:
#: season 1 ends 1.9.10.11 (seat 0 lowest), season 2 ends 11.10.9.1 (seat 3
#: lowest), season 3 ends 2.1.10.11 (seat 1 lowest).
LOG15 = ",".join(["1.2.3.4,5.6.7.8,9.10.11.1,2.3.4.5,1.9.10.11",
                  "1.2.3.4,5.6.7.8,9.10.11.1,2.3.4.5,11.10.9.1",
                  "1.2.3.4,5.6.7.8,9.10.11.1,2.3.4.5,2.1.10.11"])


def _row(**vp: int) -> str:
    """One seat's season in the ``done`` notation (sources named, the rest 0)."""
    return ".".join(str(vp.get(src, 0)) for src in SEASON_SOURCES)


def _finished(done: str, vp: str) -> UndecimState:
    """A finished campaign: two recorded seasons (``done``) and season 3's banked ``vp``."""
    g = undecim(campaign=True)
    story = ",".join(g.scenarios[i].id for i in g.default_story)
    return position(g, s="3", r=str(g.rounds + 1), ph="over", log=LOG15, story=story,
                    markers="s1_a,s2_a1", done=done, vp=vp)


def test_season_end_records_vp_by_source_and_round_trips() -> None:
    """Season 1 ends: each seat's VP by source is kept (banked, then end VP), the
    totals are their sums, and the record survives the notation."""
    g = undecim(campaign=True)
    st = position(g, r=str(g.rounds), ph="build", die="1",
                  log="1.2.3.4,5.6.7.8,9.10.11.1,2.3.4.5,1.9.10.11", acts="2/3/4/5", i="3",
                  b="0.0.1", play="-/-/草石/-", story="s1_a,s1_b",
                  vp="10.0.0.0.0/20.0.0.0.0/5.0.3.0.0/0.0.0.0.0")
    st.apply_action(BUILD_DONE)
    if st.phase() == "campaign_marker":
        st.apply_action(st.legal_actions()[0])
    assert st.season == 1
    # Seat 2 held one grassland: the last round end paid the kind (U6), the end
    # scoring the land card; its scenario VP stay under their own source.
    lands = g.land_kind_vp
    assert st.season_vp == [(
        (10, 0, 0, 0, 0, 0, 0, 0), (20, 0, 0, 0, 0, 0, 0, 0),
        (5 + lands, 0, 3, 0, 0, g.land_card_vp, 0, 0), (0, 0, 0, 0, 0, 0, 0, 0))]
    assert st.seasons_done == [(10, 20, 8 + lands + g.land_card_vp, 0)]
    text = st.to_notation()
    assert f"done=10.0.0.0.0.0.0.0/20.0.0.0.0.0.0.0/{5 + lands}.0.3.0.0.{g.land_card_vp}.0.0/" \
           f"{ZEROS} " in text
    assert g.state_from_notation(text).to_notation() == text
    # Season 2 is under way: only season 1 is a result so far; seat 1 won it.
    assert [win for _rows, win in st.season_results()] == [1]


def test_season_results_break_ties_by_each_seasons_last_round() -> None:
    """Tied season totals go to the lower action number of that season's last round (U6)."""
    done = ",".join([
        "/".join([_row(round_lands=30), _row(enemies=10), _row(settlements=30), _row()]),
        "/".join([_row(round_lands=5), _row(scenarios=40), _row(gold=2), _row(final_lands=40)]),
    ])
    st = _finished(done, "9.0.0.0.0/0.0.0.0.0/0.0.0.0.0/9.0.0.0.0")
    results = st.season_results()
    assert [win for _rows, win in results] == [0, 3, 0]
    assert results[1][0][3] == (0, 0, 0, 0, 0, 40, 0, 0)
    assert st.winners() == [0]
    text = st.to_notation()
    assert st.game.state_from_notation(text).to_notation() == text


@pytest.mark.parametrize("done, reason", [
    ("1.2/3.4/5.6/7.8", "8 numbers"),
    (",".join(["/".join([ZEROS] * 4)] * 3), "finished seasons"),
    ("/".join([ZEROS] * 3), "seats"),
])
def test_bad_season_records_are_refused(done: str, reason: str) -> None:
    """A season record of the wrong shape is one clear notation error."""
    with pytest.raises(NotationError, match=reason):
        _finished(done, "/".join(["0.0.0.0.0"] * 4))


def _two_campaigns() -> UndecimStats:
    """Season figures of two hand-set campaigns with bots a, b, a, b by seat.

    Campaign 1: season winners 0, 1, then 2 (season 3 by banked VP); campaign 2:
    season winners 0 (tie-break), 3, 0 (tie-break): its season-1 winner wins.
    """
    g = undecim(campaign=True)
    stats = UndecimStats(g, 4)
    one = _finished(",".join(["/".join([_row(round_lands=40), _row(enemies=20),
                                        _row(settlements=10), _row()]),
                              "/".join([_row(), _row(scenarios=12), _row(), _row()])]),
                    "0.0.0.0.0/0.0.0.0.0/30.0.0.0.4/0.0.0.0.0")
    two = _finished(",".join(["/".join([_row(gold=6), _row(), _row(), _row(gold=6)]),
                              "/".join([_row(), _row(), _row(), _row(final_lands=8)])]),
                    "10.0.0.0.0/0.0.0.0.0/0.0.0.0.0/10.0.0.0.0")
    for st in (one, two):
        stats.add(st, ["a", "b", "a", "b"])
    return stats


def test_season_figures_by_hand() -> None:
    """Win shares, VP per seat by source and the season winner's campaign wins, by hand."""
    seasons = _two_campaigns().to_dict()["seasons"]
    assert [s["season"] for s in seasons] == [1, 2, 3]
    s1, s2, s3 = seasons
    assert s1["games"] == 2
    assert [r["count"] for r in s1["seat_wins"]] == [2, 0, 0, 0]
    assert [r["count"] for r in s2["seat_wins"]] == [0, 1, 0, 1]
    assert [r["count"] for r in s3["seat_wins"]] == [1, 0, 1, 0]
    # Season 1's winner (seat 0 both times) won campaign 2 only; season 2's never.
    assert s1["winner_wins_campaign"]["rate"] == 0.5
    assert s2["winner_wins_campaign"]["rate"] == 0.0
    assert s3["winner_wins_campaign"]["rate"] == 1.0
    # Season 1: 70 + 12 VP over 8 seat-games.
    assert s1["vp"]["mean"] == pytest.approx(82 / 8)
    assert s1["vp_by_source"]["round_lands"] == 5.0
    assert s1["vp_by_source"]["gold"] == 1.5
    assert s1["winner_vp_mean"] == pytest.approx((40 + 6) / 2)
    # Season 3: seat 2's 30 banked + 4 starting VP, and the two 10s.
    assert s3["vp_by_source"]["campaign_start"] == 0.5
    assert s3["vp"]["mean"] == pytest.approx(54 / 8)
    # Bots: a sits at seats 0 and 2, b at 1 and 3 (4 seat-games each).
    assert s1["bot_wins"]["a"]["count"] == 2 and s1["bot_wins"]["a"]["n"] == 4
    assert s2["bot_wins"]["b"]["count"] == 2
    lines = "\n".join(UndecimStats(undecim(campaign=True), 4).format(
        _two_campaigns().to_dict()))
    assert "season 1: VP per seat 10.25" in lines and "season wins by bot" in lines


def test_season_figures_merge_by_addition() -> None:
    """Two halves merged give the whole (chunks of a run merge this way)."""
    whole = _two_campaigns()
    half = _two_campaigns()
    half.merge(_two_campaigns())
    assert half.s_games == 2 * whole.s_games
    assert half.to_dict()["seasons"][0]["winner_wins_campaign"]["rate"] == 0.5
    assert half.s_bots["a"] == [2 * x for x in whole.s_bots["a"]]


def _figures(leader: int, games: int, vp1: tuple[float, float],
             vp3: tuple[float, float]) -> dict[str, Any]:
    """Season figures with season 1's winner winning ``leader`` of ``games`` campaigns
    and the seat VP of seasons 1 and 3 as (Σ, Σ²) over ``4 · games`` seat-games."""
    stats = UndecimStats(undecim(campaign=True), 4)
    stats.s_games = games
    stats.s_leader = [leader, games // 4, games]
    stats.s_total = [list(vp1), list(vp1), list(vp3)]
    return stats.to_dict()


def test_findings_only_where_the_interval_shows_it() -> None:
    """A season-1 winner who wins 60 of 100 campaigns is a finding; 27 of 100 is luck;
    a later season scoring clearly more is one too."""
    stats = UndecimStats(undecim(campaign=True), 4)
    same = (400 * 60.0, 400 * (60.0 ** 2 + 25.0))          # mean 60, sd 5
    more = (400 * 70.0, 400 * (70.0 ** 2 + 25.0))
    said = stats.finding_sentences(_figures(60, 100, same, more))
    assert any(s.startswith("The winner of season 1 goes on to win the campaign in 60.0 %")
               for s in said)
    assert any(s.startswith("Season 3 scores more than season 1: 70.0 VP per seat against "
                            "60.0") for s in said)
    assert not any("season 2" in s for s in said)            # 25 of 100: luck
    quiet = stats.finding_sentences(_figures(27, 100, same, same))
    assert quiet == []
    assert any("only 5.0 %" in s for s in stats.finding_sentences(_figures(5, 100, same, same)))
    assert stats.finding_sentences(UndecimStats(undecim(), 4).to_dict()) == []


def test_report_carries_the_games_own_sentences(monkeypatch: pytest.MonkeyPatch) -> None:
    """build_report appends what the game's stats say about their own figures, and
    the season section is in a campaign's report."""
    game = undecim(campaign=True)
    res = simulate(game, 3, 2, ["random"], 3, invariants="off")
    monkeypatch.setattr(UndecimStats, "finding_sentences",
                        lambda self, figures: [f"{len(figures['seasons'])} seasons seen"])
    rep = build_report(res)
    assert rep["findings"]["sentences"][-1] == "3 seasons seen"
    assert rep["game_figures"]["figures"]["seasons"][0]["games"] == 2


def test_fast_observation_equals_the_dataclass() -> None:
    """Observations built by filling the instance dict equal the dataclass built field
    by field, at every step of a seeded campaign, for every seat."""
    import random

    g = undecim(campaign=True)
    st = g.new_initial_state(3, 11)
    rng = random.Random(11)
    names = {f.name for f in fields(UndecimObservation)}
    steps = 0
    while not st.is_terminal():
        if steps % 7 == 0:
            for seat in range(3):
                obs = st.observation(seat)
                assert set(vars(obs)) == names
                assert obs == UndecimObservation(**{n: getattr(obs, n) for n in names})
        legal = st.legal_actions()
        st.apply_action(legal[int(rng.random() * len(legal))])
        steps += 1
    assert steps > 200
