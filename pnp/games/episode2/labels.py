"""Designer-readable names of 第2話's key figures in the (English) simulation report.

The key figures keep their machine names (``true_end``, ``mean_spoils``)
as JSON keys: the rulebook's placeholders and the saved sweeps under
card_data/episode2/sweeps refer to them. The ladder, sweep and comparison
reports print these names instead.
"""

from __future__ import annotations

#: Machine name → the name a report prints (spoils are the bosses taken).
FIGURE_LABELS: dict[str, str] = {"true_end": "true end", "normal_clear": "normal clear",
                                 "game_over": "game over", "mean_spoils": "mean bosses taken"}

#: The report's names of the rule events (``Episode2Game.event_names``), each
#: citing its ruling: the Events and Rules tables print these, the JSON keeps
#: the machine name (``events``, ``findings.rules``) and adds ``event_labels``.
EVENT_LABELS: dict[str, str] = {
    "attack": "attack card played (E4)",
    "spade_ace": "♠A: boss defeated without a roll (E2a)",
    "roll": "attack dice rolled (E4)",          # rerolls are counted apart
    "defeat": "boss defeated (E4)",
    "fail": "roll or reroll short of the boss's HP (E4)",
    "reroll": "♦ spent on a reroll (E2)",
    "reroll_win": "♦ reroll defeated the boss (E2)",
    "damage": "damage recorded (E4)",
    "heal": "♥ used to heal (E2)",
    "draw_window": "discard-and-draw moment opened (E5)",
    "discard": "cards discarded and redrawn (E5)",   # the opening redraws included
    "mulligan": "opening redraw for an attack card (E5)",
    "retreat": "♦ spent to retreat (E2)",
    "run_end": "run ended: deck empty, no attack card (E6)",
    "true_end": "true end: every boss defeated (E6)",
    "normal_clear": "normal clear: retreat or ran out after a win (E6)",
    "game_over": "game over: 0 HP or ran out after a miss (E6)",
}
