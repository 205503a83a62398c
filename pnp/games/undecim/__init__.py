"""Undecim (ウーンデキム): rules engine, bots and report figures.

A five-round pocket 4X for 3–4 players: each round everyone picks one of
eleven numbered actions, places land, material, enemy or gold cards from a
hand of resource cards, founds and grows settlements, and cashes enemies when
the Red Moon's time counters run out. The action and scenario cards are
designed data (ruling U1) interpreted by the engine. Rules as implemented:
docs/rules/undecim-engine.md; the effect vocabulary: docs/data-format.md.
"""

from pnp.games.registry import register_game

from .bots import HeuristicBot
from .effects import check_effects
from .engine import UndecimGame, UndecimObservation, UndecimState
from .evaluate import evaluate
from .stats import UndecimStats

register_game(UndecimGame, bots=(HeuristicBot,), stats=UndecimStats, check_data=check_effects,
              evaluate=evaluate)

__all__ = ["UndecimGame", "UndecimObservation", "UndecimState", "HeuristicBot",
           "UndecimStats", "check_effects"]
