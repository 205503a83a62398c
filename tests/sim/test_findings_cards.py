"""Card win rates, flags, rule shifts and drama against hand-computed toy examples."""

from __future__ import annotations

from typing import Any, Sequence

import pytest

from pnp.games.api import State
from pnp.intervals import Z95, t_quantile, wilson_interval
from pnp.sim.aggregate import Aggregate
from pnp.sim.findings import card_table, drama_figures, rule_table, sentences


class _Fake(State[Any]):
    """Just enough of a finished state for Aggregate.add_game."""

    def __init__(self, ret: list[float], win: list[int], turns: int = 10,
                 ev: dict[str, int] | None = None) -> None:
        self.ret, self.win, self.t, self.ev = ret, win, turns, ev or {}

    def returns(self) -> list[float]:
        return self.ret

    def winners(self) -> list[int]:
        return self.win

    def turns(self) -> int:
        return self.t

    def events(self) -> dict[str, int]:
        return self.ev

    # Unused parts of the API.
    current_player = legal_actions = apply_action = is_terminal = clone = None  # type: ignore
    action_to_string = string_to_action = observation = resample_hidden = None  # type: ignore
    zones = phase = to_notation = None  # type: ignore


class _Uses:
    """A stats object offering only the card_uses hook (what the aggregate looks for)."""

    def __init__(self) -> None:
        self.table: list[list[list[str]]] = []

    def add(self, state: Any, seats: Sequence[str]) -> None:
        pass

    def merge(self, other: Any) -> None:
        pass

    def card_uses(self, state: Any) -> list[list[str]]:
        return self.table.pop(0)


def test_card_win_rates_by_hand() -> None:
    """Three 2-player games; each key's uses, win credit and mean score as worked out by hand.

    game 1: seat 0 (A, A, B) wins 10–4; game 2: seat 1 (A) wins 7–3, seat 0 had B;
    game 3: tie, both win, seat 0 had A, seat 1 had B, scores 5–5.
    A: seat-games 3 (g1 s0, g2 s1, g3 s0), credit 1 + 1 + 0.5 = 2.5, scores 10, 7, 5.
    B: seat-games 3 (g1 s0, g2 s0, g3 s1), credit 1 + 0 + 0.5 = 1.5, scores 10, 3, 5.
    """
    uses = _Uses()
    uses.table = [[["card:A", "card:A", "card:B"], []], [["card:B"], ["card:A"]],
                  [["card:A"], ["card:B"]]]
    agg = Aggregate(2, (), ("x",), stats=uses)  # type: ignore[arg-type]
    agg.add_game(_Fake([10, 4], [0]), ("x", "x"), [1, 1], [1, 1])
    agg.add_game(_Fake([3, 7], [1]), ("x", "x"), [1, 1], [1, 1])
    agg.add_game(_Fake([5, 5], [0, 1]), ("x", "x"), [1, 1], [1, 1])
    # then per game (one holder a game here): games, Σm², Σc², Σc·m, ΣS², ΣS·m
    # (the cross sums with the group that follow: tests/sim/test_pooled_average.py)
    assert {k: v[:10] for k, v in agg.cards.items()} == {
        "card:A": [3, 2.5, 22.0, 174.0, 3, 3.0, 2.25, 2.5, 174.0, 22.0],
        "card:B": [3, 1.5, 18.0, 134.0, 3, 3.0, 1.25, 1.5, 134.0, 18.0]}
    rows = {r["name"]: r for r in card_table(agg.cards, 2)}
    a = rows["A"]
    assert a["uses"] == 3 and a["win_share"] == pytest.approx(2.5 / 3)
    # over games: residuals c − R = 1/6, 1/6, −1/3 (Σ² 1/6), var 1/36, R(1 − R)/var = 5,
    # capped at 3 seat-games, × (z/t₂)² (pnp.intervals.ratio_share_interval)
    n_eff = 3 * (Z95 / t_quantile(0.975, 2)) ** 2
    assert (a["ci_low"], a["ci_high"]) == pytest.approx(wilson_interval(2.5 / 3, n_eff),
                                                        abs=1e-6)
    assert a["score_mean"] == pytest.approx(22 / 3)
    assert a["group_win_share"] == pytest.approx(4 / 6)  # all uses of the group pooled
    assert rows["B"]["score_mean"] == pytest.approx(6.0)
    assert not a["flag"]  # 3 uses: too few to flag


def test_dominant_and_trap_flags() -> None:
    """A key far above its group's average with a clear interval is dominant; far below, a trap."""
    cards = {"card:hot": [400, 240.0, 0.0, 0.0], "card:cold": [400, 60.0, 0.0, 0.0],
             "card:plain": [400, 150.0, 0.0, 0.0], "card:rare": [10, 9.0, 0.0, 0.0]}
    rows = {r["name"]: r for r in card_table(cards, 2)}
    assert rows["hot"]["flag"] == "dominant" and rows["cold"]["flag"] == "trap"
    assert rows["plain"]["flag"] == "" and rows["rare"]["flag"] == ""  # too few uses
    assert [r["name"] for r in card_table(cards, 2)] == ["rare", "hot", "plain", "cold"]


def test_rule_shift_and_drama() -> None:
    """Event outcome shift and the drama counts from scripted standings."""
    agg = Aggregate(2, ("wheel",), ("x",))
    # Game 1: wheel fires; seat 1 trails at the last third then wins (a comeback),
    # the lead changes 0 → 1 once.
    agg.add_game(_Fake([4, 9], [1], turns=12, ev={"wheel": 2}), ("x", "x"), [1, 1], [1, 1],
                 standings=[(0, 0), (3, 1), (5, 2), (5, 9)])
    # Game 2: no wheel; seat 0 leads throughout.
    agg.add_game(_Fake([8, 2], [0], turns=6), ("x", "x"), [1, 1], [1, 1],
                 standings=[(1, 0), (4, 1), (8, 2)])
    assert agg.drama == [2, 1, 1, 1]
    d = drama_figures(agg.drama)
    assert d is not None and d["winner_behind_at_last_third"] == 0.5
    assert d["lead_changes_mean"] == 0.5
    rows = rule_table(("wheel",), agg.events, agg.event_games, 2, agg.margin_sum, 18, agg.best_sum)
    r = rows[0]
    assert (r["games"], r["per_game"], r["turns_when_fired"], r["turns_otherwise"]) == (1, 1.0,
                                                                                     12, 6)
    assert (r["margin_when_fired"], r["margin_otherwise"]) == (5.0, 6.0)


def test_sentences_only_where_the_data_shows_it() -> None:
    """A flagged card and a seat edge make sentences; a balanced report says nothing."""
    base: dict[str, Any] = {
        "config": {"players": 2, "seat_rotation": False, "bots": ["x"]},
        "completion": {"games": 100, "completed": 100}, "fair_share": 0.5,
        "seats": [{"win_share": 0.5, "ci_low": 0.4, "ci_high": 0.6}] * 2,
        "seat_balance": {"significant": False, "flagged": []}, "bots": None,
        "ties": {"top_score_tie_rate": 0.0},
        "findings": {"cards": [], "drama": None}}
    assert sentences(base) == []
    base["findings"]["cards"] = card_table(
        {"card:hot": [400, 240.0, 0.0, 0.0], "card:p1": [400, 150.0, 0.0, 0.0],
         "card:p2": [400, 150.0, 0.0, 0.0], "card:p3": [400, 150.0, 0.0, 0.0]}, 2)
    said = sentences(base)
    assert len(said) == 1 and "hot 60.0 % (55.1 %–64.7 %) stands out" in said[0]
    assert "a seat with one wins" in said[0]
    two = card_table({"card:hot": [400, 240.0, 0.0, 0.0], "card:warm": [400, 240.0, 0.0, 0.0],
                      **{f"card:p{i}": [400, 150.0, 0.0, 0.0] for i in range(6)}}, 2)
    said = sentences({**base, "findings": {"cards": two, "drama": None}})
    assert len(said) == 1 and " stand out — " in said[0] and "stands" not in said[0]
    # a rule is not something a seat holds: it happened in the seat's game
    base["findings"]["cards"] = card_table(
        {"rule:hot": [400, 240.0, 0.0, 0.0], "rule:p1": [400, 150.0, 0.0, 0.0],
         "rule:p2": [400, 150.0, 0.0, 0.0], "rule:p3": [400, 150.0, 0.0, 0.0]}, 2)
    said = sentences(base)
    assert len(said) == 1 and said[0].startswith("rule: hot")
    assert "a seat where it happened wins" in said[0]
