"""Engine API shared by every rules engine, named as OpenSpiel names things.

An immutable :class:`Game` holds the rules and parameters and creates a mutable
:class:`State`. Randomness (shuffles) is drawn at set-up from
``random.Random(seed)``; there are no chance nodes, so replaying
``(game params, num_players, seed, action history)`` reproduces a state exactly.

Actions are plain ints. Each game documents its encoding; the same int means
the same move in any state where it is legal, and ``legal_actions()`` lists them
in ascending order.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, ClassVar, Iterable, Mapping, Sequence

from pnp.errors import PnpError

#: ``current_player()`` of a terminal state (OpenSpiel's kTerminalPlayerId).
TERMINAL = -4


@dataclass(frozen=True)
class Param:
    """One rule parameter a user may set with ``--param key=value``."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def parse(self, text: str | Any) -> Any:
        """Convert ``text`` (from the command line) to this parameter's type."""
        kind = type(self.default)
        try:
            if kind is bool:
                if isinstance(text, bool):
                    value: Any = text
                elif str(text).lower() in ("1", "true", "yes", "on"):
                    value = True
                elif str(text).lower() in ("0", "false", "no", "off"):
                    value = False
                else:
                    raise ValueError(text)
            else:
                value = kind(text)
        except (TypeError, ValueError):
            raise PnpError(f"parameter {self.name}={text!r}: expected "
                           f"{kind.__name__}") from None
        if self.choices is not None and value not in self.choices:
            raise PnpError(f"parameter {self.name}={text!r}: expected one of "
                           + ", ".join(map(str, self.choices)))
        if self.minimum is not None and value < self.minimum:
            raise PnpError(f"parameter {self.name}={value}: expected ≥ {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise PnpError(f"parameter {self.name}={value}: expected ≤ {self.maximum}")
        return value


class Game(ABC):
    """Immutable rules and parameters of one game; a factory for states."""

    slug: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: Parameters the user may override; defaults follow the rulebook.
    param_specs: ClassVar[tuple[Param, ...]] = ()
    #: Names of rule events a state counts (report: "how often each rule fires").
    event_names: ClassVar[tuple[str, ...]] = ()

    def __init__(self, params: Mapping[str, Any] | None = None,
                 data_dir: Path | None = None) -> None:
        specs = {p.name: p for p in self.param_specs}
        values = {p.name: p.default for p in self.param_specs}
        for key, raw in (params or {}).items():
            if key not in specs:
                known = ", ".join(sorted(specs)) or "none"
                raise PnpError(f"unknown parameter {key!r} for {self.slug} "
                               f"(known: {known})")
            values[key] = specs[key].parse(raw)
        self.params: Mapping[str, Any] = values
        self.data_dir = data_dir

    def check_players(self, num_players: int) -> None:
        """Raise :class:`PnpError` unless ``num_players`` is supported."""
        if not self.min_players <= num_players <= self.max_players:
            raise PnpError(f"{self.slug} is for {self.min_players}–{self.max_players} "
                           f"players, not {num_players}")

    @abstractmethod
    def new_initial_state(self, num_players: int, seed: int) -> "State":
        """Return the state after set-up, shuffled with ``random.Random(seed)``."""

    @abstractmethod
    def deck(self) -> Sequence[int]:
        """Every card id in play (for the card-conservation invariant)."""

    def greedy_action(self, observation: Any, legal_actions: Sequence[int],
                      rng: random.Random) -> int:
        """The ``greedy`` bot's choice, seeing only ``observation``."""
        raise NotImplementedError(f"{self.slug} has no greedy bot")


class State(ABC):
    """Mutable position of one game in progress."""

    game: Game
    num_players: int

    @abstractmethod
    def current_player(self) -> int:
        """Seat to act, or :data:`TERMINAL` when the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """Legal actions for the current player, ascending."""

    @abstractmethod
    def apply_action(self, action: int) -> None:
        """Apply ``action`` (must be legal) for the current player."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """True when the game has ended."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Final score (VP) per seat; meaningful only when terminal."""

    @abstractmethod
    def winners(self) -> list[int]:
        """Seats that win after the rulebook's tie-break (usually one)."""

    @abstractmethod
    def clone(self) -> "State":
        """An independent copy (hand-written, no deepcopy)."""

    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """Human-readable description of ``action`` in this state."""

    @abstractmethod
    def observation(self, player: int) -> Any:
        """What ``player`` may see: own hand, public zones, counts of hidden ones."""

    @abstractmethod
    def zones(self) -> Iterable[tuple[str, Iterable[int]]]:
        """Every zone and the card ids in it (each deck card in exactly one zone)."""

    @abstractmethod
    def turns(self) -> int:
        """Number of player turns begun so far (game length)."""

    @abstractmethod
    def events(self) -> Mapping[str, int]:
        """How often each rule in ``game.event_names`` has fired so far."""


GameFactory = Callable[..., Game]
