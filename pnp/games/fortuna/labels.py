"""Designer-readable names of Fortuna's card keys in the (English) simulation report.

The engine names a card type by number and icon letter (``5W``: ruling
F1's icons, :data:`pnp.games.fortuna.codec.ICON_LETTERS`), short for the
notation but easy to misread: W is 小麦, wheat, not the wheel (R, 車輪).
The report shows ``5 Wheat (5W)``: the icon as the English rulebook names
it, the code kept so a row can be matched with the notation.
"""

from __future__ import annotations

from .codec import FortunaCodec

#: English names of the printed icons, as rulebooks/fortuna.en.md calls them.
ICON_EN: dict[str, str] = {"稲妻": "Lightning", "小麦": "Wheat", "兜": "Helmet",
                           "車輪": "Wheel", "女神": "Goddess"}


def type_labels(codec: FortunaCodec) -> dict[str, str]:
    """Code → label for every card type: ``{"5W": "5 Wheat (5W)", …}``.

    An icon the data adds beyond the printed five keeps its own name
    (``5 星 (5星)``): there is no English name to give it.
    """
    out = {}
    for t in range(codec.n_types):
        code = codec.type_name(t)
        icon = codec.icons[codec.type_icon[t]]
        out[code] = f"{codec.type_number[t]} {ICON_EN.get(icon, icon)} ({code})"
    return out


#: The report's names of the game's own key figures (``key_figures``): the
#: machine name stays the JSON key, the ladder, sweep and comparison print this.
FIGURE_LABELS: dict[str, str] = {"games_with_all_in": "games with an all-in set"}


#: The report's names of the rule events (``FortunaGame.event_names``), each
#: citing its ruling: the Events and Rules tables print these, the JSON keeps
#: the machine name (``events``, ``findings.rules``) and adds ``event_labels``.
EVENT_LABELS: dict[str, str] = {
    "set": "set played (F3)",
    "pass": "pass: a card discarded to its slot (F1)",
    "zero_set": "set declared as 0 (F3)",
    "all_in_set": "all-in set, filled from the discards (F4)",
    "one_card_set_discard": "discard after a 1-card set (F5)",
    # counted even when no other slot holds a card to move (then no choice)
    "wheel_of_fortune": "Wheel of Fortune fired (F6)",
    "wheel_move": "Wheel of Fortune moved cards (F6)",
    "wheel_declined": "Wheel of Fortune declined (F6)",
    "end_trigger": "end trigger: first end-deck draw (F7)",
    "refill_cut": "refill cut short by the end trigger (F7)",
    "end_deck_exhausted": "game ended: nothing left to draw (F7)",
    "round_end": "game ended with the final round (F7)",
}
