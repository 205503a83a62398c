"""Game-specific report figures, aggregated as finished games stream in.

A game package may register a :class:`GameStats` subclass; the simulator
creates one per chunk of games (in the worker), calls :meth:`GameStats.add`
for each finished game, merges chunks in game order and asks for a JSON-ready
dict and text lines. Everything held must be small (counts and sums, never
per-game lists) so memory stays flat however many games are played.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Generic, Mapping, Sequence, TypeVar

from pnp.games.api import Game, State

#: A key figure for sweep tables: (name, value, 95% low, 95% high).
KeyFigure = tuple[str, float, float, float]

T = TypeVar("T", bound="GameStats")


def _flat(mean: float, low: float, high: float) -> bool:
    """Whether an interval has no width (a mean of values that were all the same).

    The float residue of a zero spread is far below the 1e-6 relative
    width kept.
    """
    return high - low <= 1e-6 * max(1.0, abs(mean))


def mean_bounds(mean: float, low: float, high: float, ndigits: int = 6
                ) -> tuple[float | None, float | None]:
    """A game figure's interval for its JSON: rounded, or ``(None, None)`` with no width.

    A mean from one value, or from values that were all the same, comes
    from :func:`pnp.intervals.t_interval` as ``low == high == mean``;
    written as bounds it would read as certain, so the JSON says null, as
    the report's other means do (:func:`pnp.sim.findings.figure_dict`).
    """
    if _flat(mean, low, high):
        return None, None
    return round(low, ndigits), round(high, ndigits)


def span_text(mean: float, low: float | None, high: float | None, digits: int = 2) -> str:
    """A game figure's 95 % interval as its report line shows it: ``[3.10–4.20]``.

    No interval (bounds None from :func:`mean_bounds`, or equal) says
    ``[all alike: no interval]`` rather than ``[8.00–8.00]``, which would
    read as certain (as the simulation report's ``(every game alike: no
    interval)``).
    """
    if low is None or high is None or _flat(mean, low, high):
        return "[all alike: no interval]"
    return f"[{low:.{digits}f}–{high:.{digits}f}]"


def key_figure(name: str, value: float, low: float | None, high: float | None) -> KeyFigure:
    """A sweep table's key figure from a JSON figure: no bounds read as the value itself.

    The sweep writes a zero-width interval as no interval
    (:func:`pnp.sim.findings.figure_dict`), so ``(v, v)`` keeps that meaning.
    """
    return (name, value, value if low is None else low, value if high is None else high)


class GameStats(ABC):
    """Figures one game adds to the simulation report (picklable, mergeable)."""

    #: Heading of the report section.
    title: str = "Game figures"
    #: What a seat's score (``State.returns``) counts, named beside scores in
    #: the report ("VP", "chips"); empty: just "score".
    score_unit: str = ""
    #: Machine name → the name a report prints, for the game's own key figures
    #: (:meth:`key_figures`; the JSON keeps the machine name). A game sets it
    #: from its labels module; read through :meth:`figure_label`.
    figure_labels: Mapping[str, str] = {}
    #: Machine name → the name a report prints, for the rule events
    #: (``Game.event_names``); read through :meth:`event_label`.
    event_labels: Mapping[str, str] = {}

    def __init__(self, game: Game[Any], num_players: int) -> None:
        """Start empty for ``num_players`` seats."""
        self.num_players = num_players

    @abstractmethod
    def add(self, state: State[Any], seats: Sequence[str]) -> None:
        """Count one finished (terminal) game; ``seats`` are the bot names by seat."""

    @abstractmethod
    def merge(self, other: Any) -> None:
        """Add the counts of ``other`` (same class, later games) into this one."""

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """Deterministic, JSON-ready figures."""

    @abstractmethod
    def format(self, figures: dict[str, Any]) -> list[str]:
        """Readable lines for :meth:`to_dict`'s figures (no trailing blank line)."""

    def figure_label(self, name: str) -> str | None:
        """The report's name for a key figure (:attr:`figure_labels`), else None."""
        return self.figure_labels.get(name)

    def event_label(self, name: str) -> str | None:
        """The report's name for a rule event (:attr:`event_labels`), else None."""
        return self.event_labels.get(name)

    def key_figures(self, figures: dict[str, Any]) -> list[KeyFigure]:
        """The few rates a sweep table shows per parameter value (default: none).

        Names are snake_case words (rulebook placeholders refer to them); a
        name starting with ``mean`` is a mean, any other a rate in 0..1.
        """
        return []
