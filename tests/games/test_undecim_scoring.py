"""Undecim scoring against hand-worked examples (ruling U6), without playing."""

from __future__ import annotations

from pnp.games.undecim.scoring import (campaign_start_vp, final_breakdown, gold_vp,
                                       round_land_vp, settlement_vp, settlements_vp,
                                       shared_bonus, winners)

TABLE = [0, 0, 4, 9, 14, 20, 27]


def test_round_land_vp() -> None:
    """1 per kind held; 2 per kind once every kind has 2+."""
    assert round_land_vp([0, 0, 0, 0], 1, 2, 2) == 0
    assert round_land_vp([1, 0, 3, 0], 1, 2, 2) == 2
    assert round_land_vp([1, 1, 1, 1], 1, 2, 2) == 4
    assert round_land_vp([2, 2, 2, 1], 1, 2, 2) == 4
    assert round_land_vp([2, 5, 2, 3], 1, 2, 2) == 8
    assert round_land_vp([2, 2, 2, 2], 1, 2, 3) == 12     # Reach of the Realm style


def test_settlement_sizes() -> None:
    """2→4, 3→9, 4→14, 5→20, 6+→27."""
    assert [settlement_vp(s, TABLE) for s in range(2, 10)] == [4, 9, 14, 20, 27, 27, 27, 27]
    assert settlements_vp([2, 3, 7], TABLE) == 4 + 9 + 27


def test_gold_needs_a_settlement() -> None:
    """Each gold scores the number of settlements; none without a settlement."""
    assert gold_vp(3, 0) == 0
    assert gold_vp(3, 2) == 6
    assert gold_vp(3, 2, extra_per_gold=1) == 9
    # El Dorado's lasting +1 per gold still needs a settlement (scenario s3_a2a)
    assert gold_vp(3, 0, extra_per_gold=1) == 0


def test_final_breakdown_hand_worked() -> None:
    """7 lands, settlements of 2, 4 and 6 cards, 3 gold: 7 + (4 + 14 + 27) + 3 × 3."""
    assert final_breakdown(7, [2, 4, 6], 3, 1, TABLE) == (7, 45, 9)


def test_shared_bonus_rounds_down() -> None:
    """Alone: all of it; shared: half each, rounded down."""
    assert shared_bonus(6, 1, 2) == 6
    assert shared_bonus(6, 2, 2) == 3
    assert shared_bonus(7, 3, 2) == 3


def test_winner_tie_break() -> None:
    """Most VP; ties to the lower action number of the last round."""
    assert winners([40, 52, 38, 51], [3, 9, 1, 2]) == [1]
    assert winners([52, 52, 38, 51], [7, 4, 1, 2]) == [1]


def test_campaign_start_vp_by_rank() -> None:
    """Season 2: 4/2/1 by rank; ties ranked by the lower last action number."""
    assert campaign_start_vp([30, 50, 40, 20], [1, 2, 3, 4], [4, 2, 1]) == [1, 4, 2, 0]
    assert campaign_start_vp([50, 50, 40], [6, 2, 3], [8, 4, 2]) == [4, 8, 2]
