"""9 Peak scoring (ruling N6): set values for the simple and the full method.

Pure functions of suit or colour indices and the base-point table, so they are
tested without playing; the engine and the greedy bot both call them.
"""

from __future__ import annotations

from typing import Sequence

#: Suit index of the Persona; real suits are 0–3.
PERSONA = 4
#: Colour indices used by the simple method.
BLACK, RED, BOTH = 0, 1, 2


def score_set_full(suits: Sequence[int], base: Sequence[int]) -> int:
    """Full-method value of one set given its cards' suit indices (ruling N6).

    The better of same-suit (Personas join the largest suit; +1 to the count
    when the whole set is that one suit) and mixed-suit (size × distinct
    suits, each Persona standing for one missing suit, never a fifth).
    """
    size = len(suits)
    if size == 0:
        return 0
    counts = [0, 0, 0, 0]
    personas = 0
    for s in suits:
        if s == PERSONA:
            personas += 1
        else:
            counts[s] += 1
    b = base[size - 1]
    distinct = (counts[0] > 0) + (counts[1] > 0) + (counts[2] > 0) + (counts[3] > 0)
    same = max(counts) + personas
    # ruling N6: the bonus applies when every card (Personas included) is one suit;
    # N6a: an all-Persona set (distinct == 0) counts as one suit and gets it
    same_score = b * (same + 1) if distinct <= 1 else b * same
    # ruling N6: a Persona fills one missing suit; at most 4 suits, and
    # distinct + personas never exceeds the card count because each card adds ≤ 1
    mixed = distinct + personas
    if mixed > 4:
        mixed = 4
    mixed_score = size * mixed
    return same_score if same_score >= mixed_score else mixed_score


def score_set_simple(colors: Sequence[int], base: Sequence[int]) -> int:
    """Simple-method value of one set: base × cards of the larger colour, Personas joining it."""
    size = len(colors)
    if size == 0:
        return 0
    black = red = both = 0
    for c in colors:
        if c == BLACK:
            black += 1
        elif c == RED:
            red += 1
        else:
            both += 1
    return base[size - 1] * ((black if black >= red else red) + both)
