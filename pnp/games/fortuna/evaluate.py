"""Fortuna's position evaluation for truncated searching-bot playouts.

A searching bot with a depth (``--bots mcts:200:d20``) stops each playout
after that many moves and asks :func:`evaluate` what the position is worth
to each seat (see :mod:`pnp.games.search`). What counts is what ruling F8
scores: the VP of the sets already on the table (cards in hand score
nothing until they are played). How far the rest of the game can still move
one seat against another shrinks with the cards left to draw, since the end
trigger is the first draw from the end deck (F7).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnp.games.search import standing_rewards

if TYPE_CHECKING:
    from pnp.games.fortuna.engine import FortunaState

#: How far, in VP, the rest of a game may still move one seat against another:
#: the softmax temperature is ``SWING × left(state) + FLOOR``. Fitted (maximum
#: likelihood of the eventual winner, positions of 60–100 seeded greedy-bot games at
#: 4 players) by ``python benchmarks/search_speed.py --calibrate --only fortuna``.
SWING = 40.0
#: The temperature at the very end (what the last moves and tie-breaks still decide).
FLOOR = 2.0


def standing(state: "FortunaState") -> list[float]:
    """VP of each seat's sets on the table now (ruling F8)."""
    return state._score()


def left(state: "FortunaState") -> float:
    """Fraction of the game still to play: cards left to draw over all cards (F7)."""
    return (len(state.deck) + len(state.end_deck)) / len(state.game.deck())


def evaluate(state: "FortunaState") -> list[float]:
    """Each seat's expected search reward of an unfinished position (win credit by
    a softmax of the standings, see :func:`pnp.games.search.standing_rewards`)."""
    return standing_rewards(standing(state), SWING * left(state) + FLOOR)
