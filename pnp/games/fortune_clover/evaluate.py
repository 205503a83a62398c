"""Fortune Clover's position evaluation for truncated searching-bot playouts.

A searching bot with a depth (``--bots mcts:200:d20``) stops each playout
after that many moves and asks :func:`evaluate` what the position is worth
to each seat (see :mod:`pnp.games.search`). What counts is the chips each
seat would hold if the game ended now: yellow and white chips won at the
deals so far, plus what the Fortune card in play would pay for the counted
cards taken so far in this deal (ruling C7: places by counted cards, ties
sharing a place, nothing for none), after the yellow return of ruling C8
(whoever holds the most yellow gives it back with as many white). How far
the rest can still move one seat against another shrinks with the deals and
tricks left.
"""

from __future__ import annotations

from operator import add
from typing import TYPE_CHECKING

from pnp.games.fortune_clover.scoring import deal_payouts, yellow_return
from pnp.games.search import standing_rewards

if TYPE_CHECKING:
    from pnp.games.fortune_clover.engine import FortuneCloverState

#: How far, in chips, the rest of a game may still move one seat against another:
#: the softmax temperature is ``SWING × left(state) + FLOOR``. Fitted (maximum
#: likelihood of the eventual winner, positions of 60–100 seeded heuristic-bot games at
#: 4 players) by ``python benchmarks/search_speed.py --calibrate --only fortune_clover``.
SWING = 4.0
#: The temperature at the very end (what the last moves and tie-breaks still decide).
FLOOR = 1.0


def standing(state: "FortuneCloverState") -> list[float]:
    """Chips per seat as if the game ended now: the deal in play paid on its counted
    cards so far (C7), then the yellow return (C8)."""
    yellow, white = state.yellow, state.white
    if state.is_terminal():
        return [float(y + w) for y, w in zip(yellow, white)]  # returned already
    if any(state.counted):
        reward = state.game.fortunes[state.fortune].rewards[state.num_players]
        ys, ws = deal_payouts(state.counted, reward)
        yellow = tuple(map(add, yellow, ys))
        white = tuple(map(add, white, ws))
    ret_y, ret_w = yellow_return(yellow, white)
    return [float(y + w - ry - rw) for y, w, ry, rw in zip(yellow, white, ret_y, ret_w)]


def left(state: "FortuneCloverState") -> float:
    """Fraction of the game still to play: deals after this one, plus the share of
    this deal's cards still in hands."""
    deals = state.game.params["deals"]
    in_hands = sum(int(h).bit_count() for h in state.hands)
    dealt = 52 - 52 % state.num_players  # C1: the remainder goes to the centre
    return max(deals - state.deal - 1 + in_hands / dealt, 0.0) / deals


def evaluate(state: "FortuneCloverState") -> list[float]:
    """Each seat's expected search reward of an unfinished position (win credit by
    a softmax of the standings, see :func:`pnp.games.search.standing_rewards`)."""
    return standing_rewards(standing(state), SWING * left(state) + FLOOR)
