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
