"""Fortuna's own bot: a greedy one-ply player that sees only its observation.

Plan: play the best-scoring set when it is good enough (or the game is nearly
over), otherwise pass the hand card least useful for future sets; take
all-in filler from the fullest slots; use the Wheel of Fortune to move
discards onto the number it holds most.

The decisions, and every draw from the bot's generator, are those of the
engine's former ``greedy_action``, so seeded games are unchanged.
"""

from __future__ import annotations

import random
import weakref
from bisect import bisect_left
from typing import Any, Sequence, cast

from pnp.games.api import Game, Observation
from pnp.games.bots import Bot
from pnp.games.fortuna.codec import (DISCARD_BASE, FILL_BASE, NUM_SLOTS, SET_BASE,
                                     WHEEL_DECLINE, wheel_action)
from pnp.games.fortuna.engine import FortunaGame, FortunaObservation
from pnp.games.fortuna.scoring import matches_from_counts

#: A set is played early only when at least this share of its cards match icons.
GOOD_MATCH = 0.3


class GreedyBot(Bot):
    """Best immediate set when it matches well, else the least useful card away."""

    name = "greedy"
    summary = ("plays the best-scoring set when ≥ 30 % of it matches icons, "
               "else passes its least useful card")
    needs_observation = True

    def __init__(self, game: Game[Any], seat: int, rng: random.Random) -> None:
        """Seat the bot; it reads the card tables of the Fortuna ``game``."""
        super().__init__(game, seat, rng)
        self.fortuna = cast(FortunaGame, game)
        self._worth = _worth_table(self.fortuna)

    def act(self, observation: Observation | None, legal_actions: Sequence[int]) -> int:
        """The greedy choice among ``legal_actions`` for this seat's observation."""
        obs = cast(FortunaObservation, observation)
        game = self.fortuna
        phase = obs.phase
        if phase == "fill":
            return _fill_choice(obs, legal_actions)
        if phase == "wheel":
            return _wheel_choice(game, obs, legal_actions)
        # Legal actions come ascending, so the sets (the largest ints) are a tail.
        first_set = bisect_left(legal_actions, SET_BASE)
        if first_set < len(legal_actions):
            best, quality = _best_set(game, legal_actions[first_set:], self.rng, self._worth)
            endgame = obs.trigger or obs.deck_size <= 2 * len(obs.hand_sizes)
            if endgame or quality >= GOOD_MATCH:
                return best
        base = DISCARD_BASE if phase == "discard" else 0
        hand_types = list(map(game.card_type.__getitem__, obs.hand))
        return _discard_choice(game, obs, hand_types, legal_actions[:first_set], base, self.rng)


def _icon_matches(game: FortunaGame, types: Sequence[int]) -> int:
    """Largest count of one icon among ``types``, goddesses wild (ruling F8)."""
    counts = [0] * len(game.icons)
    for t in types:
        counts[game.type_icon[t]] += 1
    return matches_from_counts(counts, game.goddess)


#: A set's (ranking key, share of matching cards), as _best_set ranks sets.
_Worth = tuple[tuple[float, float], float]

#: Per game: set action → its worth. It depends on the action alone, and the
#: same few thousand sets recur. Weak keys: a game's table goes with the game.
_SET_WORTH: "weakref.WeakKeyDictionary[FortunaGame, dict[int, _Worth]]" = (
    weakref.WeakKeyDictionary())

#: Cap on one game's table of set worths (entries); it is cleared when exceeded.
_WORTH_LIMIT = 20_000


def _set_worth(game: FortunaGame, action: int, table: dict[int, _Worth]) -> _Worth:
    """(ranking key, matching share) of one set action, stored in ``table``."""
    value, types = game.codec.decode_set(action)
    size = value if value else len(types)  # all-in: filler counts for size (F4)
    match = _icon_matches(game, types)
    found = ((float(size * match), -float(len(types))), match / size)
    if len(table) > _WORTH_LIMIT:
        table.clear()
    table[action] = found
    return found


def _worth_table(game: FortunaGame) -> dict[int, _Worth]:
    """The game's table of set worths (see :data:`_SET_WORTH`)."""
    table = _SET_WORTH.get(game)
    if table is None:
        table = _SET_WORTH[game] = {}
    return table


def _best_set(game: FortunaGame, sets: Sequence[int], rng: random.Random,
              table: dict[int, _Worth]) -> tuple[int, float]:
    """Highest-scoring set now (ties at random) and its share of matching cards."""
    best: list[int] = []
    best_key = (-1.0, -1.0)
    best_quality = 0.0
    for a in sets:
        worth = table.get(a)
        if worth is None:
            worth = _set_worth(game, a, table)
        key, quality = worth
        if key > best_key:
            best_key, best, best_quality = key, [a], quality
        elif key == best_key:
            best.append(a)
    return (best[0] if len(best) == 1 else rng.choice(best)), best_quality


def _discard_choice(game: FortunaGame, obs: FortunaObservation, hand_types: Sequence[int],
                    options: Sequence[int], base: int, rng: random.Random) -> int:
    """Discard the card that shares the fewest numbers and icons with the rest."""
    slots = obs.slots
    type_number, type_icon, goddess = game.type_number, game.type_icon, game.goddess
    # Hand cards per number and per icon, counted once for every option.
    per_number = [0] * (NUM_SLOTS + 1)
    per_icon = [0] * len(game.icons)
    for u in hand_types:
        per_number[type_number[u]] += 1
        per_icon[type_icon[u]] += 1
    # The least useful options, in the order given (one pass: a list of every
    # option's score and a second pass over it showed in greedy-bot profiles).
    low = float("inf")
    ties: list[int] = []
    for a in options:
        t = a - base
        n, icon = type_number[t], type_icon[t]
        same_n = per_number[n] - 1  # other hand cards of this number
        same_i = per_icon[icon] - 1  # other hand cards of this icon
        keep: float = same_n + same_i + (3 if icon == goddess else 0)
        if n + len(slots[n - 1]) + 1 == 10:
            keep -= 1.5  # this discard fires the Wheel of Fortune (F6)
        if keep < low:
            low, ties = keep, [a]
        elif keep == low:
            ties.append(a)
    return ties[0] if len(ties) == 1 else rng.choice(ties)


def _fill_choice(obs: FortunaObservation, legal: Sequence[int]) -> int:
    """Take filler from the fullest slot (hurts everyone's ranges, ours is spent)."""
    slots = obs.slots
    return max(legal, key=lambda a: (len(slots[a - FILL_BASE - 1]), -a))


def _wheel_choice(game: FortunaGame, obs: FortunaObservation, legal: Sequence[int]) -> int:
    """Move a whole slot of a number we lack onto the number we hold most (F6)."""
    held = [0] * (NUM_SLOTS + 1)
    for c in obs.hand:
        held[game.card_number[c]] += 1
    target = max(range(1, NUM_SLOTS + 1), key=lambda n: (held[n], n))
    slots = obs.slots
    best = WHEEL_DECLINE
    best_key = (0, 0)
    for s in range(1, NUM_SLOTS + 1):
        d = len(slots[s - 1])
        if s == target or held[s] >= held[target] or not d:
            continue
        action = wheel_action(s, target, d)
        key = (held[target] - held[s], d)
        if key > best_key and action in legal:
            best, best_key = action, key
    return best
