"""9 Peak (ナインピーク): rules engine, action codec, notation, scoring and greedy bot.

Importing the package registers the game with its greedy bot; see
``docs/rules/nine_peak-engine.md`` for the rules as implemented.
"""

from pnp.games.nine_peak.bots import GreedyBot
from pnp.games.nine_peak.engine import NinePeakGame, NinePeakObservation, NinePeakState
from pnp.games.nine_peak.evaluate import evaluate
from pnp.games.nine_peak.stats import NinePeakStats
from pnp.games.registry import register_game

register_game(NinePeakGame, bots=(GreedyBot,), stats=NinePeakStats,
              evaluate=evaluate)

__all__ = ["GreedyBot", "NinePeakGame", "NinePeakObservation", "NinePeakState",
           "NinePeakStats"]
