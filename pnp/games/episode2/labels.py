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
