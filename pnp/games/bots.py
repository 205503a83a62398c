"""The bot interface every game's automated players implement, and the random bot.

A bot is created once per seat per game with its own seeded
``random.Random`` and is asked for an action only when the current player has
a real choice (more than one legal action); forced moves are applied by the
runner without consulting it, so a bot's random stream depends only on the
decisions it actually made.

Bots never see the engine's :class:`~pnp.games.api.State`: a bot that needs to
look at the position sets ``needs_observation`` and receives
``state.observation(seat)``; the random bot receives ``None``. Game packages
define their bots in ``pnp/games/<slug>/bots.py`` (importing the engine, never
imported by it) and register them with the game.

A bot may take an option after a colon (``--bots mcts:200``): its
:meth:`Bot.configure` turns the text into a factory (a picklable
``functools.partial`` of the class), and :func:`bot_factory` resolves a
whole spec against a game's bot table.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any, Callable, ClassVar, Mapping, Sequence

from pnp.errors import PnpError
from pnp.games.api import Game, Observation

#: What builds a seated bot: ``factory(game, seat, rng)`` (a class or a partial of one).
BotFactory = Callable[[Game[Any], int, random.Random], "Bot"]


class Bot(ABC):
    """One automated player sitting at one seat for one game."""

    #: Registry name (``--bots random,heuristic``).
    name: ClassVar[str]
    #: One line for ``--help`` and reports.
    summary: ClassVar[str] = ""
    #: True when :meth:`act` needs ``state.observation(seat)``; the runner skips
    #: building observations for bots that do not look at them.
    needs_observation: ClassVar[bool] = False

    def __init__(self, game: Game[Any], seat: int, rng: random.Random) -> None:
        """Seat a bot for one game; ``rng`` is its own seeded generator."""
        self.game = game
        self.seat = seat
        self.rng = rng

    @classmethod
    def configure(cls, option: str | None, bots: Mapping[str, type["Bot"]]) -> BotFactory:
        """The factory for ``NAME`` (``option`` None) or ``NAME:OPTION``.

        ``bots`` is the game's bot table. Bots without options return the
        class and refuse any option; a bot with options overrides this and
        returns a picklable factory (workers and Dask ship it by reference).
        """
        if option is None:
            return cls
        raise PnpError(f"--bots {cls.name}:{option}: bot {cls.name!r} takes no option")

    @abstractmethod
    def act(self, observation: Observation | None, legal_actions: Sequence[int]) -> int:
        """Pick one of ``legal_actions`` (called only when there are ≥ 2)."""


class RandomBot(Bot):
    """Uniform choice over the legal actions."""

    name = "random"
    summary = "uniform choice among the legal actions"

    def act(self, observation: Observation | None, legal_actions: Sequence[int]) -> int:
        """Pick a legal action uniformly at random.

        ``int(random() * n)`` is used instead of ``rng.choice`` because it is
        about twice as fast; its bias (≈ n / 2**53) is far below anything a
        simulation can measure. The runner's all-random fast path inlines the
        same formula, so both paths give identical games.
        """
        return legal_actions[int(self.rng.random() * len(legal_actions))]


def bot_factory(spec: str, bots: Mapping[str, type[Bot]]) -> BotFactory:
    """The factory for one ``--bots`` entry, ``NAME`` or ``NAME:OPTION``.

    ``bots`` is the game's table (name → class); the caller has checked
    that ``NAME`` is in it.
    """
    name, sep, option = spec.partition(":")
    return bots[name].configure(option if sep else None, bots)
