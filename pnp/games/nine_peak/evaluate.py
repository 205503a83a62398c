"""9 Peak's position evaluation for truncated searching-bot playouts.

A searching bot with a depth (``--bots mcts:200:d20``) stops each playout
after that many moves and asks :func:`evaluate` what the position is worth
to each seat (see :mod:`pnp.games.search`). What counts is what ruling N6
scores from cards already out of hand — each set played (its base by size ×
its colour or suit multiplier) and 1 VP per card in the peak pile — plus
:data:`HAND_VP` for each card still in hand: most of them will end in a set
(the −1 for a card left at the end falls on few), and without that term a
short search learns to empty its hand into small sets early, which N4's
"sets never shrink" punishes. How far the rest can still move one seat
against another shrinks as hands empty, since an empty hand pulls the end
trigger (N5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnp.games.search import standing_rewards

if TYPE_CHECKING:
    from pnp.games.nine_peak.engine import NinePeakState

#: How far, in VP, the rest of a game may still move one seat against another:
#: the softmax temperature is ``SWING × left(state) + FLOOR``. Fitted (maximum
#: likelihood of the eventual winner, positions of 60–100 seeded greedy-bot games at
#: 4 players) by ``python benchmarks/search_speed.py --calibrate --only nine_peak``.
SWING = 20.0
#: The temperature at the very end (what the last moves and tie-breaks still decide).
FLOOR = 4.0
#: What a card still in hand is worth, in VP (fitted with the temperature:
#: mean log-likelihood of the winner on 80 greedy games −1.154 at 3 VP a card,
#: −1.203 leaving hands out; uniform −1.386).
HAND_VP = 3.0


def standing(state: "NinePeakState") -> list[float]:
    """Set values plus peak-pile cards so far (N6) plus :data:`HAND_VP` a card in hand
    (none once the game is over: then the hand costs its −1 in the score)."""
    score = state.game.score_set
    hand_vp = 0.0 if state.is_terminal() else HAND_VP
    return [float(sum(score(s) for s in state.sets[p]) + len(state.piles[p]))
            + hand_vp * len(state.hands[p]) for p in range(state.num_players)]


def left(state: "NinePeakState") -> float:
    """Fraction of the game still to play: the smallest hand over the dealt hand
    (the first empty hand ends the game, N5)."""
    dealt = state.game.params["hand_size"]
    return min(len(h) for h in state.hands) / dealt


def evaluate(state: "NinePeakState") -> list[float]:
    """Each seat's expected search reward of an unfinished position (win credit by
    a softmax of the standings, see :func:`pnp.games.search.standing_rewards`)."""
    return standing_rewards(standing(state), SWING * left(state) + FLOOR)
