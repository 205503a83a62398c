"""Undecim's position evaluation for truncated searching-bot playouts.

A searching bot with a depth (``--bots mcts:200:d20``) stops each playout
after that many moves and asks :func:`evaluate` what the position is worth
to each seat (see :mod:`pnp.games.search`). What counts is the score as it
would stand if the game ended now (ruling U6): the VP banked at round ends
and Red Moon Nights plus the end VP of the lands, settlements, gold and
scenario bonuses each seat holds. How far the rest can still move one seat
against another shrinks with the rounds left.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnp.games.search import standing_rewards

if TYPE_CHECKING:
    from pnp.games.undecim.engine import UndecimState

#: How far, in VP, the rest of a game may still move one seat against another:
#: the softmax temperature is ``SWING × left(state) + FLOOR``. Fitted (maximum
#: likelihood of the eventual winner, positions of 60–100 seeded heuristic-bot games at
#: 4 players) by ``python benchmarks/search_speed.py --calibrate --only undecim``.
SWING = 30.0
#: The temperature at the very end (what the last moves and tie-breaks still decide).
FLOOR = 4.0


def standing(state: "UndecimState") -> list[float]:
    """Banked VP plus the end VP of what each seat holds now (U6)."""
    return [float(t) for t in state.totals()]


def left(state: "UndecimState") -> float:
    """Fraction of the (season's) game still to play, by rounds (the round in
    play counts as half played)."""
    rounds = state.game.rounds
    return max(rounds - state.rnd - 0.5, 0.0) / rounds


def evaluate(state: "UndecimState") -> list[float]:
    """Each seat's expected search reward of an unfinished position (win credit by
    a softmax of the standings, see :func:`pnp.games.search.standing_rewards`)."""
    return standing_rewards(standing(state), SWING * left(state) + FLOOR)
