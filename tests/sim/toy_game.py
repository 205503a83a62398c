"""A tiny card game implementing the full engine API, for the simulator's tests.

Rules ("Climb"): a shuffled deck of ``cards`` cards, card ``c`` worth
``c % 5 + 1``. Each player holds 3 hidden cards. On a turn the player plays one
hand card onto the shared line; if it is worth more than the card on top, the
player scores its value ("beat"), otherwise nothing ("miss"). They then draw
one card if the draw pile is not empty. Players with empty hands are skipped;
the game ends when every hand is empty. Highest score wins; tie-break: fewer
beats (scored with fewer cards); still tied → shared win.

Actions are card ids (the card to play), so legal actions are the sorted hand.

``variant`` selects a deliberately broken game for invariant tests:
``always_tie`` (everyone scores 0 and shares the win), ``lose_card`` (the 5th
card played vanishes), ``never_end`` (played cards go back under the draw pile),
``no_action`` (no legal action on the 4th turn), ``bad_apply`` (playing card 7
raises), ``unsorted`` (legal actions listed descending), ``shallow_clone``
(clone shares the hands with the original).

The game is built from the test manifests in ``toy_data/`` and registered
under ``toy`` (with a greedy bot) and ``toy_plain`` (random bot only).
"""

from __future__ import annotations

import random
from bisect import insort
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from pnp.data import load_game_data
from pnp.games.api import (TERMINAL, Game, NotationError, Observation, Param, State,
                           illegal)
from pnp.games.bots import Bot
from pnp.games.registry import register_game

VARIANTS = ("normal", "always_tie", "lose_card", "never_end", "no_action",
            "bad_apply", "unsorted", "shallow_clone")
DATA = Path(__file__).resolve().parent / "toy_data"


@dataclass(frozen=True)
class ToyObservation(Observation):
    """Own hand, top value, scores, hand sizes and draw pile size."""

    hand: tuple[int, ...]
    top: int
    scores: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    draw: int


class ToyGame(Game["ToyState"]):
    """Rules and parameters of the toy game."""

    slug = "toy"
    min_players = 2
    max_players = 4
    param_specs = (
        Param("variant", "normal", "deliberate bug to test the validator", choices=VARIANTS),
        Param("cards", 16, "number of cards in the deck", minimum=8, maximum=200),
    )
    event_names = ("beat", "miss", "no_draw")

    def new_initial_state(self, num_players: int, seed: int) -> "ToyState":
        """Shuffle with ``random.Random(seed)`` and deal 3 cards each."""
        self.check_players(num_players)
        rng = random.Random(seed)
        draw = list(range(self.params["cards"]))
        rng.shuffle(draw)
        hands = []
        for _ in range(num_players):
            hand = sorted(draw[-3:])
            del draw[-3:]
            hands.append(hand)
        return ToyState(self, num_players, draw, hands)

    def state_from_notation(self, text: str) -> "ToyState":
        """Read ``n|player|turns|actions|draw|line|hands|scores|beats|events``."""
        try:
            parts = text.split("|")
            n, player, turns, acts = (int(x) for x in parts[:4])

            def ints(s: str) -> list[int]:
                return [int(x) for x in s.split(",") if x]
            state = ToyState(self, n, ints(parts[4]), [ints(h) for h in parts[6].split("/")])
            state.line = ints(parts[5])
            state.scores = ints(parts[7])
            state.beats = ints(parts[8])
            state.ev = ints(parts[9])
            state.player, state.n_turns, state.n_actions = player, turns, acts
        except (ValueError, IndexError):
            raise NotationError(f"toy: bad notation {text!r}") from None
        return state

    def deck(self) -> Sequence[int]:
        """Card ids 0 .. cards-1."""
        return range(self.params["cards"])


class ToyState(State[ToyGame]):
    """Position of a toy game."""

    __slots__ = ("game", "num_players", "draw", "hands", "line", "scores", "beats",
                 "player", "n_turns", "n_actions", "ev", "variant")

    def __init__(self, game: ToyGame, num_players: int, draw: list[int],
                 hands: list[list[int]]) -> None:
        """Start of play: seat 0 to act on turn 1."""
        self.game = game
        self.num_players = num_players
        self.draw = draw
        self.hands = hands
        self.line: list[int] = []
        self.scores = [0] * num_players
        self.beats = [0] * num_players
        self.player = 0
        self.n_turns = 1
        self.n_actions = 0
        self.ev = [0, 0, 0]
        self.variant = game.params["variant"]

    def current_player(self) -> int:
        """Seat to act or TERMINAL."""
        return self.player

    def phase(self) -> str:
        """The only phase."""
        return "main" if self.player >= 0 else "over"

    def legal_actions(self) -> list[int]:
        """The current player's hand, ascending."""
        if self.player < 0:
            return []
        if self.variant != "normal":
            if self.variant == "no_action" and self.n_turns == 4:
                return []
            if self.variant == "unsorted":
                return sorted(self.hands[self.player], reverse=True)
        return self.hands[self.player][:]

    def apply_action(self, action: int) -> None:
        """Play ``action`` onto the line, score, draw, pass the turn."""
        p = self.player
        variant = self.variant
        if variant == "bad_apply" and action == 7:
            raise RuntimeError("card 7 is cursed")
        if p < 0 or action not in self.hands[p]:
            raise illegal(self, action)
        self.hands[p].remove(action)
        value = action % 5 + 1
        top = self.line[-1] % 5 + 1 if self.line else 0
        if value > top:
            self.scores[p] += value
            self.beats[p] += 1
            self.ev[0] += 1
        else:
            self.ev[1] += 1
        self.n_actions += 1
        if variant == "never_end":
            self.draw.insert(0, action)
        elif not (variant == "lose_card" and self.n_actions == 5):
            self.line.append(action)
        if self.draw:
            insort(self.hands[p], self.draw.pop())
        else:
            self.ev[2] += 1
        n = self.num_players
        for step in range(1, n + 1):
            q = (p + step) % n
            if self.hands[q]:
                self.player = q
                self.n_turns += 1
                return
        self.player = TERMINAL

    def is_terminal(self) -> bool:
        """True when every hand is empty."""
        return self.player == TERMINAL

    def returns(self) -> list[float]:
        """Scores per seat (all 0 in the always_tie variant)."""
        if self.variant == "always_tie":
            return [0.0] * self.num_players
        return [float(s) for s in self.scores]

    def winners(self) -> list[int]:
        """Top score, then fewest beats; remaining ties share the win."""
        if self.variant == "always_tie":
            return list(range(self.num_players))
        best = max(self.scores)
        top = [i for i in range(self.num_players) if self.scores[i] == best]
        fewest = min(self.beats[i] for i in top)
        return [i for i in top if self.beats[i] == fewest]

    def clone(self) -> "ToyState":
        """Independent copy (shares hands in the shallow_clone variant)."""
        c = ToyState.__new__(ToyState)
        c.game = self.game
        c.num_players = self.num_players
        c.draw = self.draw[:]
        c.hands = (self.hands if self.variant == "shallow_clone"
                   else [h[:] for h in self.hands])
        c.line = self.line[:]
        c.scores = self.scores[:]
        c.beats = self.beats[:]
        c.player = self.player
        c.n_turns = self.n_turns
        c.n_actions = self.n_actions
        c.ev = self.ev[:]
        c.variant = self.variant
        return c

    def action_to_string(self, action: int) -> str:
        """E.g. ``play 12``."""
        return f"play {action}"

    def string_to_action(self, text: str) -> int:
        """Inverse of :meth:`action_to_string`."""
        try:
            action = int(text.removeprefix("play "))
        except ValueError:
            raise illegal(self, -1) from None
        if action not in self.legal_actions():
            raise illegal(self, action)
        return action

    def observation(self, player: int) -> ToyObservation:
        """Own hand, top value, scores, hand sizes and draw pile size."""
        return ToyObservation(player, self.player, self.phase(), tuple(self.hands[player]),
                              self.line[-1] % 5 + 1 if self.line else 0, tuple(self.scores),
                              tuple(len(h) for h in self.hands), len(self.draw))

    def resample_hidden(self, player: int, rng: random.Random) -> "ToyState":
        """Redeal the other hands and the draw pile."""
        c = self.clone()
        pool = c.draw + [x for i, h in enumerate(c.hands) if i != player for x in h]
        rng.shuffle(pool)
        c.draw = pool[:len(self.draw)]
        rest = pool[len(self.draw):]
        for i, h in enumerate(self.hands):
            if i != player:
                c.hands[i] = sorted(rest[:len(h)])
                rest = rest[len(h):]
        return c

    def zones(self) -> Iterable[tuple[str, Iterable[int]]]:
        """Draw pile, line and one zone per hand."""
        yield "deck", self.draw
        yield "line", self.line
        for i, h in enumerate(self.hands):
            yield f"hand:{i}", h

    def turns(self) -> int:
        """Turns begun so far."""
        return self.n_turns

    def events(self) -> Mapping[str, int]:
        """Counts of beat / miss / no_draw."""
        return dict(zip(self.game.event_names, self.ev))

    def to_notation(self) -> str:
        """``n|player|turns|actions|draw|line|hands|scores|beats|events``."""
        def j(xs: Iterable[int]) -> str:
            return ",".join(map(str, xs))
        return "|".join([str(self.num_players), str(self.player), str(self.n_turns),
                         str(self.n_actions), j(self.draw), j(self.line),
                         "/".join(j(h) for h in self.hands), j(self.scores), j(self.beats),
                         j(self.ev)])


class ToyGreedy(Bot):
    """Cheapest card that beats the top card, else the cheapest card."""

    name = "greedy"
    needs_observation = True

    def act(self, observation: Observation | None, legal_actions: Sequence[int]) -> int:
        """See the class docstring."""
        assert isinstance(observation, ToyObservation)
        top = observation.top
        beating = [a for a in legal_actions if a % 5 + 1 > top]
        pool = beating or list(legal_actions)
        return min(pool, key=lambda a: (a % 5, a))


class PlainToyGame(ToyGame):
    """The toy game registered without a bot of its own."""

    slug = "toy_plain"


register_game(ToyGame, bots=(ToyGreedy,))
register_game(PlainToyGame)


def toy(params: Mapping[str, Any] | None = None, slug: str = "toy") -> ToyGame:
    """The toy game built from ``toy_data/<slug>``."""
    cls = ToyGame if slug == "toy" else PlainToyGame
    return cls(load_game_data(DATA, slug, strict=True), params)
