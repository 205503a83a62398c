"""Engine API shared by every rules engine, named as OpenSpiel names things.

An immutable :class:`Game` holds the rules, the card data and the parameters,
and creates mutable :class:`State` objects. A game is built from the card data
the command loaded once (a :class:`~pnp.data.GameData`), never by reading
files itself.

Conventions every game package follows (``pnp/games/<slug>/``):

* **Actions** are plain ints. The same int means the same move in any state
  where it is legal; ``legal_actions()`` lists them ascending without
  duplicates. ``action_to_string`` gives a short, unambiguous text and
  ``string_to_action`` is its exact inverse for every legal action.
* **Chance** (shuffles, dice) is drawn from generators seeded by the deal
  seed, so ``(game params, num_players, seed, actions)`` replays a game
  exactly; a state carries its generator, and ``clone()`` copies it.
* **apply_action validates before it mutates**: an illegal action raises
  :class:`IllegalAction` and leaves the state exactly as it was.
* **Observations** are frozen dataclasses (one class per game, subclassing
  :class:`Observation`): everything the seat may know and nothing else. Bots
  see only these.
* **Zones** are named ``<kind>`` for shared zones (``deck``, ``centre``,
  ``discard``) and ``<kind>:<seat-or-index>`` for owned or numbered ones
  (``hand:0``, ``won:2``, ``slot:3``); kinds are lower-case snake_case.
  Every card id of ``game.deck()`` is in exactly one zone at all times. An
  engine that keeps zones as bit sets may also define ``zone_masks()``
  (the same zones as ints, bit c set for card c); the simulator then checks
  conservation on the masks, which costs a few integer operations a step.
* **Positions** have a one-line text notation (like chess's FEN):
  ``state.to_notation()`` and ``game.state_from_notation(text)`` round-trip
  every reachable state; scripted tests build positions with it.
* **Phases**: ``state.phase()`` names the kind of decision pending (one of
  ``game.phase_names``), so reports can show branching per phase.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Iterable, Mapping, Sequence, TypeVar

from pnp.data.manifest import Param as Param  # re-exported: engines import it from here
from pnp.data.manifest import parse_constant
from pnp.errors import PnpError

if TYPE_CHECKING:
    from pnp.data.inventory import GameData
    from pnp.data.manifest import Manifest

#: ``current_player()`` of a terminal state (OpenSpiel's kTerminalPlayerId).
TERMINAL = -4


class IllegalAction(PnpError):
    """An action that is not legal in the state it was applied to."""


class NotationError(PnpError):
    """Position notation that cannot be read."""


@dataclass(frozen=True)
class Observation:
    """What one seat may see; each game subclasses it (frozen) with its own fields."""

    #: The seat this observation is for.
    seat: int
    #: Seat to act (``TERMINAL`` when the game is over).
    current_player: int
    #: ``state.phase()`` at the time of the observation.
    phase: str


S = TypeVar("S", bound="State[Any]")
G = TypeVar("G", bound="Game[Any]")


class Game(ABC, Generic[S]):
    """Immutable rules, card data and parameters of one game; a factory for states."""

    slug: ClassVar[str]
    #: Seat range the engine supports; checked against the manifest.
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: Parameters the user may override; defaults follow the rulebook or data.
    param_specs: ClassVar[tuple[Param, ...]] = ()
    #: Parameters whose default is the manifest's ``[game.constants]`` entry of
    #: the same name when it has one (the data, which the printed cards and
    #: player aids also read, wins over the class default).
    params_from_manifest: ClassVar[tuple[str, ...]] = ()
    #: Names of rule events a state counts (report: "how often each rule fires").
    event_names: ClassVar[tuple[str, ...]] = ()
    #: Names ``state.phase()`` may return.
    phase_names: ClassVar[tuple[str, ...]] = ("main",)

    def __init__(self, data: "GameData", params: Mapping[str, Any] | None = None) -> None:
        """Bind the loaded card data and apply ``params`` over the defaults.

        The title comes from the manifest; the manifest's player range must
        equal the engine's (a designer who changes one must change both).
        """
        manifest = data.manifest
        if manifest.slug != self.slug:
            raise PnpError(f"{type(self).__name__} plays {self.slug!r}, not "
                           f"{manifest.slug!r}")
        if tuple(manifest.players) != (self.min_players, self.max_players):
            lo, hi = manifest.players
            raise PnpError(f"{manifest.path}: players = [{lo}, {hi}] but the {self.slug} "
                           f"engine plays {self.min_players}–{self.max_players}")
        self.title: str = manifest.title
        self.data = data
        specs = {p.name: p for p in self.param_specs}
        values = {p.name: p.default for p in self.param_specs}
        values.update(manifest_params(type(self), manifest))
        for key, raw in (params or {}).items():
            if key not in specs:
                known = ", ".join(sorted(specs)) or "none"
                raise PnpError(f"unknown parameter {key!r} for {self.slug} "
                               f"(known: {known})")
            values[key] = specs[key].parse(raw)
        self.params: Mapping[str, Any] = values

    def __getstate__(self) -> dict[str, Any]:
        """Pickle without the loaded data (workers need only what the engine derived)."""
        state = dict(self.__dict__)
        state["data"] = None
        return state

    def check_players(self, num_players: int) -> None:
        """Raise :class:`PnpError` unless ``num_players`` is supported."""
        if not self.min_players <= num_players <= self.max_players:
            from pnp.data.manifest import players_text  # only on this error path

            raise PnpError(f"{self.slug} is for "
                           f"{players_text(self.min_players, self.max_players)}, "
                           f"not {num_players}")

    @abstractmethod
    def new_initial_state(self, num_players: int, seed: int) -> S:
        """Return the state after set-up, chance drawn from generators seeded by ``seed``."""

    @abstractmethod
    def state_from_notation(self, text: str) -> S:
        """The state written as ``text`` by :meth:`State.to_notation`.

        Raises :class:`NotationError` with a one-line reason on bad text.
        """

    @abstractmethod
    def deck(self) -> Sequence[int]:
        """Every card id in play (for the card-conservation invariant)."""

    def card_name(self, card: int) -> str:
        """Short printable name of card id ``card`` (default: the number)."""
        return str(card)


def manifest_params(game: type[Game[Any]], manifest: "Manifest") -> dict[str, Any]:
    """The rule parameters ``game`` takes from the manifest's ``[game.constants]``, parsed.

    A bad value is one error at the manifest's file and line
    (:func:`pnp.data.manifest.parse_constant`).
    """
    specs = {p.name: p for p in game.param_specs}
    return {name: parse_constant(manifest, specs[name])
            for name in game.params_from_manifest if name in manifest.constants}


class State(ABC, Generic[G]):
    """Mutable position of one game in progress."""

    game: G
    num_players: int

    @abstractmethod
    def current_player(self) -> int:
        """Seat to act, or :data:`TERMINAL` when the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """Legal actions for the current player, ascending."""

    @abstractmethod
    def apply_action(self, action: int) -> None:
        """Apply ``action`` for the current player; raise :class:`IllegalAction`
        (changing nothing) if it is not legal."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """True when the game has ended."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Final score per seat; meaningful only when terminal."""

    @abstractmethod
    def winners(self) -> list[int]:
        """Seats that win after the rulebook's tie-break (usually one)."""

    @abstractmethod
    def clone(self) -> "State[G]":
        """An independent copy (hand-written, no deepcopy), generators included."""

    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """Short unambiguous text of ``action`` in this state."""

    @abstractmethod
    def string_to_action(self, text: str) -> int:
        """The action whose :meth:`action_to_string` is ``text`` (its inverse).

        Raises :class:`IllegalAction` when ``text`` names no legal action.
        """

    @abstractmethod
    def observation(self, player: int) -> Observation:
        """What ``player`` may see: own hand, public zones, counts of hidden ones."""

    @abstractmethod
    def resample_hidden(self, player: int, rng: random.Random) -> "State[G]":
        """A copy in which everything ``player`` cannot see is redealt with ``rng``.

        The copy gives ``player`` an equal observation and the same legal
        actions; hidden cards (other hands, the deck) and future chance are
        drawn afresh, consistently with what ``player`` has seen. Used to test
        that bots see only their observation, and by searching bots.
        """

    @abstractmethod
    def zones(self) -> Iterable[tuple[str, Iterable[int]]]:
        """Every zone and the card ids in it (each deck card in exactly one zone)."""

    @abstractmethod
    def turns(self) -> int:
        """Number of player turns begun so far (game length)."""

    @abstractmethod
    def events(self) -> Mapping[str, int]:
        """How often each rule in ``game.event_names`` has fired so far."""

    @abstractmethod
    def phase(self) -> str:
        """The kind of decision pending (one of ``game.phase_names``)."""

    @abstractmethod
    def to_notation(self) -> str:
        """This position as one line of text (see :meth:`Game.state_from_notation`)."""


def illegal(state: State[Any], action: int) -> IllegalAction:
    """The error for ``action`` not being legal in ``state`` (for ``raise``)."""
    legal = state.legal_actions()
    shown = ", ".join(map(str, legal[:12])) + (" …" if len(legal) > 12 else "")
    return IllegalAction(f"{state.game.slug}: action {action} is not legal for seat "
                         f"{state.current_player()} in phase {state.phase()!r} "
                         f"(legal: {shown})")
