"""Undecim scoring as pure functions (ruling U6), tested without playing.

Round end: land VP by kinds held. Game end: VP per land card, settlements by
size, gold × settlements, plus what was banked during play (round-end lands,
Red Moon Nights, scenario bonuses, a campaign's starting VP). Ties go to the
lower action number played in the last round.
"""

from __future__ import annotations

from typing import Sequence


def round_land_vp(land_counts: Sequence[int], kind_vp: int, full_min: int, full_vp: int) -> int:
    """Round-end VP for holding ``land_counts`` lands of each kind (ruling U6).

    ``kind_vp`` per kind held; but ``full_vp`` per kind when every kind is
    held at least ``full_min`` times.
    """
    if land_counts and min(land_counts) >= full_min:
        return full_vp * len(land_counts)
    return kind_vp * sum(1 for c in land_counts if c > 0)


def settlement_vp(size: int, table: Sequence[int]) -> int:
    """VP of one settlement of ``size`` cards (``table[size]``; the last entry for larger)."""
    return table[min(size, len(table) - 1)]


def settlements_vp(sizes: Sequence[int], table: Sequence[int]) -> int:
    """VP of all settlements of the given sizes."""
    last = len(table) - 1
    return sum(table[s if s < last else last] for s in sizes)


def gold_vp(gold: int, settlements: int, extra_per_gold: int = 0) -> int:
    """End VP of ``gold`` loose gold: each scores the number of settlements (U6).

    ``extra_per_gold`` is a lasting scenario effect (gold_vp); without a
    settlement gold scores nothing at all.
    """
    if settlements <= 0:
        return 0
    return gold * (settlements + extra_per_gold)


def final_breakdown(lands: int, sizes: Sequence[int], gold: int, land_card_vp: int,
                    table: Sequence[int], extra_per_gold: int = 0) -> tuple[int, int, int]:
    """End VP as (lands, settlements, gold) for one player (U6)."""
    return (lands * land_card_vp, settlements_vp(sizes, table),
            gold_vp(gold, len(sizes), extra_per_gold))


def shared_bonus(bonus: int, achievers: int, divisor: int) -> int:
    """Scenario VP each achiever gets: all of it alone, ``bonus // divisor`` when shared (U6)."""
    if achievers <= 1:
        return bonus
    return bonus // divisor


def winners(totals: Sequence[int], last_numbers: Sequence[int]) -> list[int]:
    """Seats that win: the highest total; ties go to the lower last-round action number (U6).

    ``last_numbers`` are the action numbers each seat played in the last
    round (all different, so one seat wins unless a number is missing, -1).
    """
    best = max(totals)
    tied = [p for p, t in enumerate(totals) if t == best]
    if len(tied) == 1:
        return tied
    known = [p for p in tied if last_numbers[p] >= 0]
    if not known:
        return tied
    low = min(last_numbers[p] for p in known)
    return [p for p in known if last_numbers[p] == low]


def campaign_start_vp(totals: Sequence[int], last_numbers: Sequence[int],
                      by_rank: Sequence[int]) -> list[int]:
    """Starting VP of the next campaign season by rank in ``totals`` (rulebook ■精算).

    Ranks follow the final order with the same tie-break as the winner
    (ruling U7a): higher total first, then lower last-round action number.
    Rank k (0-based) gets ``by_rank[k]``, nothing beyond the list.
    """
    order = sorted(range(len(totals)), key=lambda p: (-totals[p], last_numbers[p], p))
    out = [0] * len(totals)
    for rank, p in enumerate(order):
        if rank < len(by_rank):
            out[p] = by_rank[rank]
    return out
