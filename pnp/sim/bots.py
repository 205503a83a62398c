"""Automated players for the rules validator, found by name.

A bot is created once per seat per game with its own seeded
``random.Random`` and is asked for an action only when the current player has
a real choice (more than one legal action); forced moves are applied by the
runner without consulting it, so a bot's random stream depends only on the
decisions it actually made.

Bots never see the engine's :class:`~pnp.games.api.State`: a bot that needs to
look at the position sets ``needs_observation`` and receives
``state.observation(seat)``; the random bot receives ``None``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any, ClassVar, Sequence

from pnp.errors import PnpError
from pnp.games.api import Game


class Bot(ABC):
    """One automated player sitting at one seat for one game."""

    #: Registry name (``--bots random,greedy``).
    name: ClassVar[str]
    #: True when :meth:`act` needs ``state.observation(seat)``; the runner skips
    #: building observations for bots that do not look at them.
    needs_observation: ClassVar[bool] = False

    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        """Seat a bot for one game; ``rng`` is its own seeded generator."""
        self.game = game
        self.seat = seat
        self.rng = rng

    @abstractmethod
    def act(self, observation: Any, legal_actions: Sequence[int]) -> int:
        """Pick one of ``legal_actions`` (called only when there are ≥ 2)."""


class RandomBot(Bot):
    """Uniform choice over the legal actions."""

    name = "random"

    def act(self, observation: Any, legal_actions: Sequence[int]) -> int:
        """Pick a legal action uniformly at random.

        ``int(random() * n)`` is used instead of ``rng.choice`` because it is
        about twice as fast; its bias (≈ n / 2**53) is far below anything a
        simulation can measure. The runner's all-random fast path inlines the
        same formula, so both paths give identical games.
        """
        return legal_actions[int(self.rng.random() * len(legal_actions))]


class GreedyBot(Bot):
    """The game's own one-ply heuristic (:meth:`Game.greedy_action`)."""

    name = "greedy"
    needs_observation = True

    def act(self, observation: Any, legal_actions: Sequence[int]) -> int:
        """Delegate to ``game.greedy_action`` with this seat's observation."""
        return self.game.greedy_action(observation, legal_actions, self.rng)


#: name -> bot class. Spawned worker processes re-import this module, so bots
#: registered at run time in the parent exist there only if their module
#: registers them at import.
BOTS: dict[str, type[Bot]] = {RandomBot.name: RandomBot, GreedyBot.name: GreedyBot}


def register_bot(cls: type[Bot]) -> type[Bot]:
    """Add ``cls`` to :data:`BOTS` under ``cls.name`` (usable as a decorator)."""
    BOTS[cls.name] = cls
    return cls


def bot_names() -> list[str]:
    """Names of all registered bots, sorted."""
    return sorted(BOTS)


def parse_bots(spec: str | Sequence[str]) -> list[str]:
    """Turn ``"random,greedy"`` (or a list of names) into a checked name list."""
    names = ([s.strip() for s in spec.split(",")] if isinstance(spec, str)
             else [str(s).strip() for s in spec])
    if not names or any(not n for n in names):
        raise PnpError(f"--bots {spec!r}: expected comma-separated bot names "
                       f"({', '.join(bot_names())})")
    for n in names:
        if n not in BOTS:
            raise PnpError(f"--bots: unknown bot {n!r} (have: {', '.join(bot_names())})")
    return names


def check_bots_supported(game: Game, names: Sequence[str]) -> None:
    """Raise :class:`PnpError` if a bot in ``names`` cannot play ``game``."""
    if "greedy" in names and type(game).greedy_action is Game.greedy_action:
        raise PnpError(f"--bots greedy: game {game.slug!r} has no greedy bot "
                       "(its engine does not define greedy_action)")


def seat_bots(names: Sequence[str], num_players: int, game_index: int) -> tuple[str, ...]:
    """Bot name at each seat in game ``game_index``.

    Seat i gets ``names[(i + g) % len(names)]``: cyclic assignment, shifted by
    the game index so that with mixed bots every bot sits at every seat equally
    often over each ``len(names)`` consecutive games. With a single bot name the
    shift changes nothing.
    """
    k = len(names)
    return tuple(names[(i + game_index) % k] for i in range(num_players))


def mixed(names: Sequence[str]) -> bool:
    """True when more than one distinct bot plays."""
    return len(set(names)) > 1
