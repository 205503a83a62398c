"""Fortuna (draft 2) rules engine package; registers the game and its greedy bot.

See ``docs/rules/fortuna-engine.md`` for the rules as implemented, the action
encoding, the position notation and the engine rulings (F4a–F7a).
"""

from pnp.games.fortuna.bots import GreedyBot
from pnp.games.fortuna.engine import FortunaGame, FortunaObservation, FortunaState
from pnp.games.fortuna.evaluate import evaluate
from pnp.games.fortuna.stats import FortunaStats
from pnp.games.registry import register_game

register_game(FortunaGame, bots=(GreedyBot,), stats=FortunaStats,
              evaluate=evaluate)

__all__ = ["FortunaGame", "FortunaObservation", "FortunaState", "FortunaStats", "GreedyBot"]
