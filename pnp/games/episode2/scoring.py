"""Pure rules arithmetic of 第2話: roll judgement, damage, healing, outcomes, spoils.

Nothing here touches a game state, so each rule is tested on its own.
"""

from __future__ import annotations

from typing import Sequence

# Outcomes (ruling E6).
NO_OUTCOME, TRUE_END, NORMAL_CLEAR, GAME_OVER = range(4)
OUTCOME_NAMES: tuple[str, ...] = ("none", "true_end", "normal_clear", "game_over")

# Why the run ended (one outcome each).
NO_CAUSE, ALL_BOSSES, RETREAT, RUN_END_WON, HP_ZERO, RUN_END_LOST = range(6)
CAUSE_NAMES: tuple[str, ...] = ("-", "all_bosses", "retreat", "run_end_won", "hp_zero",
                                "run_end_lost")
#: The outcome each cause gives.
CAUSE_OUTCOME: tuple[int, ...] = (NO_OUTCOME, TRUE_END, NORMAL_CLEAR, NORMAL_CLEAR,
                                  GAME_OVER, GAME_OVER)

# Result of the last finished attack (decides how a run that runs dry ends).
LAST_NONE, LAST_DEFEAT, LAST_FAIL = range(3)
LAST_NAMES: tuple[str, ...] = ("none", "defeat", "fail")


def roll_total(dice: Sequence[int], bonus: int) -> int:
    """Attack total: the dice plus the card's bonus (+1 on ♠ and its rerolls, ruling E2)."""
    return sum(dice) + bonus


def defeats(total: int, boss_hp: int) -> bool:
    """True when an attack total beats a boss: total ≥ its HP (ruling E4)."""
    return total >= boss_hp


def damage(total: int, boss_hp: int) -> int:
    """HP lost to a failed attack: boss HP − total, never negative (ruling E4)."""
    return boss_hp - total if total < boss_hp else 0


def healed(hp: int, max_hp: int, value: int, full: bool) -> int:
    """HP after a ♥ of ``value``: +value, or to full for the A; capped at max HP (E2, E3)."""
    if full:
        return max_hp
    return min(max_hp, hp + value)


def run_end_cause(last: int) -> int:
    """Cause when the run ends with the deck empty and no attack card in hand.

    After a defeat it is a normal clear; after a failed attack it is game over
    (ruling E6). Before any attack (possible only with edited data) it is game
    over too: nothing was won (ruling E6b).
    """
    return RUN_END_WON if last == LAST_DEFEAT else RUN_END_LOST


def spoils_score(spoils: Sequence[int]) -> float:
    """The solo score: the number of bosses taken as spoils (kept in every outcome, E6)."""
    return float(len(spoils))
