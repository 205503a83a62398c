"""Bots' win shares and scores are judged over games, not seat-games (issue 13, limit 2).

A bot in three of four seats wins with at most one of them: its three seat
results in a game are one observation, not three.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import pytest

from pnp.intervals import ratio_mean_interval, share_over_games, wilson_interval
from pnp.sim.aggregate import Aggregate
from pnp.sim.report import _bot_stats


class _Ended:
    """A finished 4-player game with given returns and winners (all add_game reads)."""

    def __init__(self, returns: Sequence[float], winners: Sequence[int]) -> None:
        self._returns = list(returns)
        self._winners = list(winners)

    def turns(self) -> int:
        return 10

    def returns(self) -> list[float]:
        return self._returns

    def winners(self) -> list[int]:
        return self._winners

    def events(self) -> Mapping[str, int]:
        return {}


#: Four games, "mcts" in one seat and "heuristic" in three (seats given per game).
#: Game 1 the searcher wins; games 2–4 one heuristic seat does. Heuristic seat
#: returns sum to 6, 12, 3 and 15 (per-game means 2, 4, 1, 5).
GAMES: list[tuple[tuple[str, ...], list[float], list[int]]] = [
    (("mcts", "heuristic", "heuristic", "heuristic"), [9, 1, 2, 3], [0]),
    (("heuristic", "mcts", "heuristic", "heuristic"), [4, 0, 4, 4], [0]),
    (("heuristic", "heuristic", "mcts", "heuristic"), [0, 0, 2, 3], [3]),
    (("heuristic", "heuristic", "heuristic", "mcts"), [5, 5, 5, 4], [1]),
]


def _totals(split_at: int | None = None) -> Aggregate:
    """The four games counted, in one aggregate or two merged at ``split_at``."""
    parts = [Aggregate(4, (), ("mcts", "heuristic"))]
    if split_at is not None:
        parts.append(Aggregate(4, (), ("mcts", "heuristic")))
    for i, (seats, ret, won) in enumerate(GAMES):
        part = parts[1 if split_at is not None and i >= split_at else 0]
        part.add_game(_Ended(ret, won), seats, [1] * 4, [1] * 4)  # type: ignore[arg-type]
    if split_at is not None:
        parts[0].merge(parts[1])
    return parts[0]


def test_heuristic_in_three_seats_by_hand() -> None:
    """heuristic: 3 wins over 12 seat-games, 4 games: its share of each game's win is
    0, 1, 1, 1 (mean 0.75; Wilson over 4 games 0.300641–0.954413), per seat ÷ 3 seats:
    0.100214–0.318138. Over 12 "independent" seat-games it was 0.088942–0.532305.

    Scores: per game 6, 12, 3, 15 over 3 seats; mean per seat 36/12 = 3; residuals
    S − 3·3 = −3, 3, −6, 6 (Σ² 90); se √(90/12)/3 = 0.912871; t(3) 3.182446:
    0.094837–5.905163 (the t interval of the per-game means 2, 4, 1, 5).
    """
    rows: dict[str, Any] = _bot_stats(_totals())["win"]
    h = rows["heuristic"]
    assert (h["seat_games"], h["games"], h["win_share"]) == (12, 4, 0.25)
    assert (h["ci_low"], h["ci_high"]) == (0.100214, 0.318138)
    assert tuple(round(x, 6) for x in wilson_interval(0.25, 12)) == (0.088942, 0.532305)
    assert h["score_mean"] == 3.0
    assert (h["score_ci_low"], h["score_ci_high"]) == (0.094837, 5.905163)
    # the searcher sits once a game: the seat-game Wilson interval, unchanged
    m = rows["mcts"]
    assert (m["win_share"], (m["ci_low"], m["ci_high"])) == (
        0.25, tuple(round(x, 6) for x in wilson_interval(0.25, 4)))


def test_merged_chunks_give_the_same_intervals() -> None:
    """Chunks merged in order give the run's figures (the runner merges chunks)."""
    assert _bot_stats(_totals(split_at=2)) == _bot_stats(_totals())


def test_helpers_by_hand() -> None:
    """share_over_games divides the game-level Wilson interval by the seats a game;
    ratio_mean_interval with one unit a cluster is the t interval of a mean."""
    assert share_over_games(3.0, 12, 4) == pytest.approx(
        tuple(x / 3 for x in wilson_interval(0.75, 4)))
    assert share_over_games(0.0, 0, 0) == (0.0, 1.0)
    vals = [1.0, 2.0, 3.0, 4.0]   # t interval 2.5 ± 2.054260
    mean, low, high = ratio_mean_interval(sum(vals), 4, 4, 4, sum(v * v for v in vals),
                                          sum(vals))
    assert (mean, round(low, 5), round(high, 5)) == (2.5, 0.44574, 4.55426)
