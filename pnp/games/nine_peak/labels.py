"""Designer-readable names of 9 Peak's card keys in the (English) simulation report.

The engine names a hat type by number, suit letter and, where needed,
colour letter (``5S``, ``3Pk``; :func:`pnp.games.nine_peak.codec.type_codes`):
compact for the notation, opaque in a report. The report shows ``5 silk
hat (5S)``: the suit as the English rulebook names it, the code kept.
"""

from __future__ import annotations

from typing import Sequence

from .codec import COLORS, SUITS_EN


def type_labels(codes: Sequence[str], numbers: Sequence[int], suits: Sequence[int],
                colors: Sequence[int]) -> dict[str, str]:
    """Code → label per hat type: ``{"5S": "5 silk hat (5S)", "3Pk": "3 persona, black (3Pk)"}``.

    The colour is named only where the code carries it (two types share
    number and suit).
    """
    out = {}
    for code, n, s, c in zip(codes, numbers, suits, colors):
        colour = f", {COLORS[c]}" if len(code) > 2 else ""
        out[code] = f"{n} {SUITS_EN[s]}{colour} ({code})"
    return out


#: The report's names of the game's own key figures (``key_figures``): the
#: machine name stays the JSON key, the ladder, sweep and comparison print this.
FIGURE_LABELS: dict[str, str] = {"mean_peak_pile_cards": "mean peak-pile cards per game"}
