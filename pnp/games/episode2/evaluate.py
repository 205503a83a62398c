"""第2話's position evaluation for truncated searching-bot playouts.

A searching bot with a depth (``--bots mcts:200:d8``) stops each playout
after that many moves and asks :func:`evaluate` what the run is worth, in
the units of the game's ``search_reward``: the share of the bosses taken,
halved by a game over (E6). An unfinished run keeps the bosses taken so far
(spoils), may still take more, and may still end in a game over; both hang
on the HP left (E4: a failed attack costs HP, at 0 the game is over).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pnp.games.episode2.engine import Episode2State

#: Share of the bosses still in the deck that a run at full HP goes on to take,
#: on average; fitted (least squares on positions of 100 seeded heuristic-bot runs)
#: by ``python benchmarks/search_speed.py --calibrate --only episode2``.
ONWARD = 0.54


def evaluate(state: "Episode2State") -> list[float]:
    """The run's expected search reward: spoils kept (less the halving a game over
    would bring, likelier at low HP) plus the bosses still to take at this HP."""
    game = state.game
    health = max(state.hp, 0) / state.max_hp if state.max_hp > 0 else 0.0
    taken = len(state.spoils) / game.num_bosses
    rest = 1.0 - taken
    # At full HP a game over is far off (the spoils keep their worth); at 0 HP
    # it has come, and they keep half (search_reward's halving, E6).
    return [taken * (0.5 + 0.5 * health) + ONWARD * rest * health]
