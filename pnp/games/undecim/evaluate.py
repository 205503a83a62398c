"""Undecim's position evaluation for truncated searching-bot playouts.

A searching bot with a depth (``--bots mcts:200:d16``) stops each playout
after that many moves and asks :func:`evaluate` what the position is worth
to each seat (see :mod:`pnp.games.search`). What counts is each seat's
*expected* final score under ruling U6: the VP already banked (round ends,
Red Moon Nights) plus what the heuristic bot expects its holding to be worth
at the end — lands, the settlements its materials can still become with the
builds the rounds left bring, gold by settlements, enemies by the Nights
still to come and the scenario goals in reach (``HeuristicBot.value``, the
same valuation the playout bot plays by). On positions of heuristic games
that predicts the winner better than the score as it would stand if the
game ended now (``standing_now``; mean log-likelihood of the winner −1.231
against −1.290, uniform −1.386; ``--calibrate``). How far the rest can still
move one seat against another shrinks with the rounds left.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from pnp.games.search import standing_rewards

if TYPE_CHECKING:
    from pnp.games.undecim.bots import HeuristicBot
    from pnp.games.undecim.engine import UndecimGame, UndecimState

#: How far, in VP, the rest of a game may still move one seat against another:
#: the softmax temperature is ``SWING × left(state) + FLOOR``. Fitted (maximum
#: likelihood of the eventual winner, positions of 60–100 seeded heuristic-bot
#: games at 4 players) by ``python benchmarks/search_speed.py --calibrate --only undecim``.
SWING = 20.0
#: The temperature at the very end (what the last moves and tie-breaks still decide).
FLOOR = 2.0

#: Undecim's plain ``mcts`` keeps whole playouts (no ``search_depth``), though
#: ``mcts:200:d16`` won 65.0 % (49.5–77.9) of 40 games against three heuristic
#: bots at 8.6× the decisions/s of whole playouts (77.5 %, 62.5–87.7): the
#: default also climbs the skill ladder, and truncated it was flat (45 % at 8
#: iterations and at 256, 20 games a rung) where whole playouts climb from 15 %
#: to 75 %. docs/design/undecim.md, *Truncated playouts*, has the figures.

#: One valuing bot per seat of each game (its tables and memos are the game's).
_VALUERS: "WeakKeyDictionary[UndecimGame, list[HeuristicBot]]" = WeakKeyDictionary()


def _valuers(game: "UndecimGame") -> "list[HeuristicBot]":
    """The heuristic bots whose valuation :func:`standing` uses, made once per game."""
    bots = _VALUERS.get(game)
    if bots is None:
        # Imported here: the bots import the engine, which imports this module.
        from pnp.games.undecim.bots import HeuristicBot

        # The valuation draws nothing at random: the generator is never used.
        bots = _VALUERS[game] = [HeuristicBot(game, p, random.Random(0))
                                 for p in range(game.max_players)]
    return bots


def standing_now(state: "UndecimState") -> list[float]:
    """Banked VP plus the end VP of what each seat holds now (U6): the score if the
    game ended at this point."""
    return [float(t) for t in state.totals()]


def standing(state: "UndecimState") -> list[float]:
    """Banked VP plus the heuristic bot's expected end VP of each seat's holding (U6)."""
    if state.is_terminal():
        return standing_now(state)
    bots = _valuers(state.game)
    out = []
    for p in range(state.num_players):
        obs: Any = state.observation(p)
        bot = bots[p]
        # The bot's own context of the position (rounds, builds and Nights to
        # come, the scenario's goals), as it makes one for every decision.
        ctx = bot._ctx(obs)
        out.append(sum(state.vp[p]) + bot.value(list(obs.loose[p]), obs.settlements[p], 0, ctx))
    return out


def left(state: "UndecimState") -> float:
    """Fraction of the (season's) game still to play, by rounds (the round in
    play counts as half played)."""
    rounds = state.game.rounds
    return max(rounds - state.rnd - 0.5, 0.0) / rounds


def evaluate(state: "UndecimState") -> list[float]:
    """Each seat's expected search reward of an unfinished position (win credit by
    a softmax of the standings, see :func:`pnp.games.search.standing_rewards`)."""
    return standing_rewards(standing(state), SWING * left(state) + FLOOR)
