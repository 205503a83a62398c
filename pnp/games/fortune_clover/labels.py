"""Designer-readable names of Fortune Clover's rule events in the (English) simulation report.

The engine counts rule events under short machine names
(``club_follow_holding_led``, ``zero_card_excluded``): fine as JSON keys,
opaque in a table a designer reads. The report prints these names
instead, each citing the ruling it counts (C1–C8, ../shared/RULINGS.md);
the JSON keeps the machine names and adds them as ``event_labels``.
"""

from __future__ import annotations

#: Machine name (``FortuneCloverGame.event_names``) → the name a report prints.
EVENT_LABELS: dict[str, str] = {
    "deal": "deal (C1)",
    "exchange": "exchange: 1 to the centre, 2 passed left (C2)",
    "trick": "trick played",
    "only_clubs_lead": "club led from an all-club hand: next leads (C3)",
    "last_player_sets_lead": "last player of a trick set the led suit (C3)",
    "all_club_trick": "every card a club: clubs led (C3)",
    "club_follow_holding_led": "club played though holding the led suit (C4)",
    "void_discard": "any card: held neither led suit nor club (C4)",
    "club_wins_trick": "club beat the led suit (C5)",
    "led_beats_equal_club": "led suit beat a club of equal rank (C5)",
    "centre_taken": "centre cards taken with the last trick (C5)",
    # the next three count places or seats, several in one deal
    "tied_place": "paying place shared by tied players (C7)",
    "nobody_paid_place": "paying place that nobody reached (C7)",
    "zero_card_excluded": "no counted card: a paying place missed (C7)",
    "nobody_paid": "Fortune card paid nobody in a deal (C7)",
    "yellow_return": "yellow chips returned at the end (C8)",
    "shared_win": "shared win: tied after the yellow tie-break (C8)",
}
