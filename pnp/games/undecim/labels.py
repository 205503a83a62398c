"""Designer-readable names of Undecim's land and material keys in the (English) report.

The card data names lands and materials in Japanese (草原, 鉄: the words
printed on the cards), while the simulation report is in English. The
report shows ``iron (鉄)``: the English word the English rulebook uses
(U1f: grassland–stone, forest–wood, swamp–clay, mountain–iron; enemies and
gold), with the printed word kept so a row can be matched with a card.
"""

from __future__ import annotations

from typing import Iterable

#: English names of the printed kinds, as rulebooks/undecim.en.md calls them.
KIND_EN: dict[str, str] = {"草原": "grassland", "森": "forest", "沼地": "swamp",
                           "山": "mountain", "敵": "enemy", "石": "stone", "木": "wood",
                           "粘土": "clay", "鉄": "iron", "金": "gold"}

#: The card-use groups whose keys are kind names (pnp.games.undecim.stats.card_uses).
KIND_GROUPS = ("main land", "settled")


def kind_labels(kinds: Iterable[str]) -> dict[str, str]:
    """``"main land:鉄"``-style key → label for every kind: ``"iron (鉄)"``.

    A kind the data adds without an English name keeps its printed name alone.
    """
    return {f"{group}:{kind}": (f"{KIND_EN[kind]} ({kind})" if kind in KIND_EN else kind)
            for group in KIND_GROUPS for kind in kinds}


#: The report's names of the game's own key figures (``key_figures``): the
#: machine name stays the JSON key, the ladder, sweep and comparison print this.
FIGURE_LABELS: dict[str, str] = {"mean_red_moon_nights": "mean Red Moon Nights per game"}


#: The report's names of the rule events (``UndecimGame.event_names``), each
#: citing its ruling: the Events and Rules tables print these, the JSON keeps
#: the machine name (``events``, ``findings.rules``) and adds ``event_labels``.
EVENT_LABELS: dict[str, str] = {
    "round": "round played",
    "mulligan_swap": "mulligan: action card swapped (U2a)",
    "red_moon_night": "Red Moon Night (U5)",
    "night_in_moon_phase": "Night set off by the Red Moon die (U1e)",
    "night_mid_action": "Night set off by time mid-action (U1e)",
    "time_lost": "time beyond the last counter lost (U1e)",
    "majority_discard": "most-enemies player went past the Night limit (U5a)",
    # counted per gain, not per action
    "gain_lost": "gain lost: no hand card could supply it (U1c)",
    "gold_boost": "gold discarded to boost an action (U1d)",
    "settle_same": "settlement founded, one material (U4)",
    "settle_mixed": "settlement founded, two materials (U4)",
    "develop_material": "settlement developed with a material (U4)",
    "develop_gold": "settlement developed with gold (U4)",
    # counted per player and round (the land_full_set_min of every land)
    "full_land_set": "round end: double land VP, every land held (U6)",
    "scenario_achieved": "scenario achieved (U1g)",
    "scenario_split": "scenario shared, half the bonus each (U6)",
    "deck_reshuffled": "discard pile reshuffled into the deck (U3b)",
    "draw_short": "draw found no card: deck and discards empty (U3b)",
    "tie_break": "top score tied: lower action number won (U6)",
    "season": "campaign season began (U7)",
}
