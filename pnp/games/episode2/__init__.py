"""第2話 (``episode2``): solo boss rush with a standard deck and three dice.

Registers the engine with its bots (heuristic, no_retreat) and report figures.
"""

from pnp.games.episode2.bots import HeuristicBot, NoRetreatBot
from pnp.games.episode2.engine import Episode2Game, Episode2Observation, Episode2State
from pnp.games.episode2.evaluate import evaluate
from pnp.games.episode2.stats import Episode2Stats
from pnp.games.registry import register_game

# A run's length is counted in attacks (one per 2-2-1 fight round), not turns.
register_game(Episode2Game, bots=(HeuristicBot, NoRetreatBot), stats=Episode2Stats,
              length_unit="attacks",
              evaluate=evaluate)

__all__ = ["Episode2Game", "Episode2Observation", "Episode2State", "Episode2Stats",
           "HeuristicBot", "NoRetreatBot"]
