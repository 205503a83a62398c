"""Fortune Clover (フォーチュンクローバー): rules engine, bots and report figures.

Three deals of trick-taking for 3–6 players where clubs may always follow; a
Fortune card turned up each deal says which captured cards pay chips, and
whoever hoards the most yellow chips gives them back at the end. Rules as
implemented: docs/rules/fortune_clover-engine.md.
"""

from pnp.games.registry import register_game

from .bots import HeuristicBot
from .engine import FortuneCloverGame, FortuneCloverObservation, FortuneCloverState
from .stats import FortuneCloverStats

register_game(FortuneCloverGame, bots=(HeuristicBot,), stats=FortuneCloverStats)

__all__ = ["FortuneCloverGame", "FortuneCloverObservation", "FortuneCloverState",
           "HeuristicBot", "FortuneCloverStats"]
