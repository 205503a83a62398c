"""Fortune Clover (フォーチュンクローバー): rules engine, bots and report figures.

Three deals of trick-taking for 3–6 players where clubs may always follow; a
Fortune card turned up each deal says which captured cards pay chips, and
whoever hoards the most yellow chips gives them back at the end. Rules as
implemented: docs/rules/fortune_clover-engine.md.
"""

from typing import TYPE_CHECKING

from pnp.games.registry import register_game

from .bots import HeuristicBot
from .engine import FortuneCloverGame, FortuneCloverObservation, FortuneCloverState
from .evaluate import evaluate
from .fortunes import check_fortunes
from .stats import FortuneCloverStats

if TYPE_CHECKING:
    from pnp.data.inventory import GameData


def check_data(data: "GameData") -> list[str]:
    """Fortune card cells the engine cannot read and rewards beyond the chips (``pnp check``)."""
    return check_fortunes(data, FortuneCloverGame.min_players, FortuneCloverGame.max_players)


register_game(FortuneCloverGame, bots=(HeuristicBot,), stats=FortuneCloverStats,
              check_data=check_data,
              evaluate=evaluate)

__all__ = ["FortuneCloverGame", "FortuneCloverObservation", "FortuneCloverState",
           "HeuristicBot", "FortuneCloverStats"]
