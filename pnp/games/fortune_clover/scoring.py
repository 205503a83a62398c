"""Pure scoring of Fortune Clover: places, deal rewards, the yellow return, the winners.

Nothing here knows the engine: inputs are plain counts and chip totals, so
every rule is unit-tested without playing. A reward table is a tuple indexed
by place (index 0 unused) of ``(yellow, white)``; ``(0, 0)`` is a place that
pays nothing (ruling C6b).
"""

from __future__ import annotations

from typing import Sequence

Chips = tuple[int, int]
#: A place that pays nothing (ruling C6b).
NOTHING: Chips = (0, 0)


def competition_places(counts: Sequence[int]) -> list[int]:
    """Place of each seat by counted cards, competition style; 0 for a zero count.

    Ruling C7: two seats tied for 1st are both 1st and the next is 3rd
    (place = 1 + number of seats with strictly more). A seat with no counted
    card has no place at all (rulebook: taking none of the cards means no
    chips, whatever the place).
    """
    return [1 + sum(1 for o in counts if o > c) if c > 0 else 0 for c in counts]


def deal_payouts(counts: Sequence[int], reward: Sequence[Chips]) -> tuple[list[int], list[int]]:
    """Yellow and white chips each seat earns from one deal's Fortune card (ruling C7)."""
    yellow = [0] * len(counts)
    white = [0] * len(counts)
    for seat, place in enumerate(competition_places(counts)):
        if place:
            y, w = reward[place]
            yellow[seat] = y
            white[seat] = w
    return yellow, white


def unpaid_places(counts: Sequence[int], reward: Sequence[Chips]) -> list[int]:
    """Listed (paying) places that nobody was paid for in this deal.

    Ruling C7: a place skipped by a tie, or below the last seat that took a
    counted card, pays nobody.
    """
    reached = set(competition_places(counts))
    return [p for p in range(1, len(reward)) if reward[p] != (0, 0) and p not in reached]


def zero_excluded(counts: Sequence[int], reward: Sequence[Chips]) -> int:
    """Seats with zero counted cards whose place, were zero counted, would pay.

    The rulebook's exclusion: ranked among everyone, these seats sit at a
    listed place, but taking no counted card pays nothing (ruling C7).
    """
    out = 0
    for c in counts:
        if c == 0:
            place = 1 + sum(1 for o in counts if o > 0)
            if place < len(reward) and reward[place] != (0, 0):
                out += 1
    return out


def tied_paid_places(counts: Sequence[int], reward: Sequence[Chips]) -> int:
    """Paying places shared by two or more seats in this deal (each pays all of them)."""
    places = competition_places(counts)
    shared = {p for p in places if p and places.count(p) > 1 and reward[p] != (0, 0)}
    return len(shared)


def deal_outcome(counts: Sequence[int], reward: Sequence[Chips]
                 ) -> tuple[list[int], list[int], int, int, int]:
    """One deal's chips and rule counts in one pass (the engine's end of every deal).

    Returns ``(yellow, white, tied, unpaid, zero)``: the :func:`deal_payouts`
    chips, :func:`tied_paid_places`, the number of :func:`unpaid_places` and
    :func:`zero_excluded`, equal to those functions (ruling C7) but with the
    places found once, by looking each count up in the counts sorted high to
    low (a count's competition place is one more than the index of its first
    occurrence there), instead of once per function.
    """
    n = len(counts)
    desc = sorted(counts, reverse=True)
    yellow = [0] * n
    white = [0] * n
    seats_at: dict[int, int] = {}  # place → seats there (seats with counted cards only)
    for seat, c in enumerate(counts):
        if c > 0:
            place = desc.index(c) + 1
            seats_at[place] = seats_at.get(place, 0) + 1
            yellow[seat], white[seat] = reward[place]
    tied = sum(1 for p, k in seats_at.items() if k > 1 and reward[p] != NOTHING)
    unpaid = sum(1 for p in range(1, len(reward)) if p not in seats_at and reward[p] != NOTHING)
    zeros = n - sum(seats_at.values())
    zero = 0
    if zeros:
        place = n - zeros + 1  # where the zero-count seats would sit
        if place < len(reward) and reward[place] != NOTHING:
            zero = zeros
    return yellow, white, tied, unpaid, zero


def yellow_return(yellow: Sequence[int], white: Sequence[int]) -> tuple[list[int], list[int]]:
    """Chips each seat gives back at the end: ``(yellow returned, white returned)``.

    Ruling C8: if the most yellow held is above 0, every seat holding that
    many returns all its yellow and as many white as it has, up to that
    number (rulebook example: 4 yellow, most of all → 4 yellow and 4 white).
    """
    top = max(yellow) if yellow else 0
    if top <= 0:
        return [0] * len(yellow), [0] * len(yellow)
    ret_y = [y if y == top else 0 for y in yellow]
    ret_w = [min(w, top) if y == top else 0 for y, w in zip(yellow, white)]
    return ret_y, ret_w


def final_winners(yellow: Sequence[int], white: Sequence[int]) -> list[int]:
    """Winning seats from chips held after the yellow return (ruling C8).

    Most chips wins; ties go to more yellow; a remaining tie is a shared win
    (the rulebook's four-leaf-clover hunt is not simulated).
    """
    totals = [y + w for y, w in zip(yellow, white)]
    best = max(totals)
    tied = [s for s, t in enumerate(totals) if t == best]
    most_yellow = max(yellow[s] for s in tied)
    return [s for s in tied if yellow[s] == most_yellow]
