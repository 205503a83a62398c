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


#: The report's names of the rule events (``NinePeakGame.event_names``), each
#: citing its ruling: the Events and Rules tables print these, the JSON keeps
#: the machine name (``events``, ``findings.rules``) and adds ``event_labels``.
#: A peak counts once per number that peaks.
EVENT_LABELS: dict[str, str] = {
    "set": "set played (N4)",
    "pass_one": "pass: 1 card placed in the area (N3)",
    "pass_two": "pass: 2 placed, 1 taken (N3)",
    "peak_by_pass": "peak on a pass: cards to the passer's pile (N2)",
    "peak_by_play": "peak after a play: cards discarded (N2)",
    "peak_at_setup": "peak at set-up: cards discarded (N2)",
    # only a set without a Persona gives the choice; with one the card goes to the area
    "personaless_to_hand": "set without Persona: drawn card kept (N4)",
    "personaless_to_area": "set without Persona: drawn card to area (N4)",
    "end_trigger": "end trigger: a turn ended with empty hand (N5)",
    "draw_skipped": "no draw after a set: deck empty (N4)",
    "take_from_peaked": "2-for-1 pass took from a peaked column (N2)",
    "empty_hand_skip": "turn skipped: empty hand on turn (N5a)",
}
