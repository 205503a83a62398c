"""The four-game card toy of the card-findings tests, worked by hand in each test file.

Four 4-player games, keys X and Z of one group "card" (``GAMES``), fed to
:class:`pnp.sim.aggregate.Aggregate` through a stand-in finished game
(:class:`Ended4`) and a stats object offering only ``card_uses``
(:class:`Uses`).
"""

from __future__ import annotations

from typing import Any, Sequence

from pnp.sim.aggregate import Aggregate

#: (returns, winner, seats holding X, seats holding Z) per game.
GAMES = [([10, 4, 3, 1], 0, (0, 1, 2), (1, 2, 3)),
         ([1, 5, 8, 2], 2, (1, 3), (2,)),
         ([2, 3, 9, 4], 2, (2,), (0, 1, 3)),
         ([6, 6, 2, 7], 3, (0, 1, 2, 3), (3,))]


class Ended4:
    """A finished 4-player game with given returns and one winner (all add_game reads)."""

    def __init__(self, returns: Sequence[float], winner: int) -> None:
        self._returns, self._winner = list(returns), winner

    def turns(self) -> int:
        """A fixed length: the card tests do not read it."""
        return 10

    def returns(self) -> list[float]:
        """Each seat's score."""
        return self._returns

    def winners(self) -> list[int]:
        """The one winner."""
        return [self._winner]

    def events(self) -> dict[str, int]:
        """No rule events."""
        return {}


class Uses:
    """A stats object offering only the card_uses hook, one scripted table per game."""

    def __init__(self, tables: list[list[list[str]]]) -> None:
        self.tables = list(tables)

    def add(self, state: Any, seats: Sequence[str]) -> None:
        """Nothing of its own to count."""

    def merge(self, other: Any) -> None:
        """Nothing of its own to merge."""

    def card_uses(self, state: Any) -> list[list[str]]:
        """The next game's keys per seat."""
        return self.tables.pop(0)


def toy_totals(split_at: int | None = None) -> Aggregate:
    """The four games in one aggregate, or in two chunks merged at ``split_at``."""
    tables = [[[k for k, held in (("card:X", xs), ("card:Z", zs)) if s in held]
               for s in range(4)] for _r, _w, xs, zs in GAMES]
    cut = len(GAMES) if split_at is None else split_at
    parts = [Aggregate(4, (), ("x",), stats=Uses(tables[:cut])),  # type: ignore[arg-type]
             Aggregate(4, (), ("x",), stats=Uses(tables[cut:]))]  # type: ignore[arg-type]
    for i, (ret, won, _xs, _zs) in enumerate(GAMES):
        parts[0 if i < cut else 1].add_game(Ended4(ret, won), ("x",) * 4,  # type: ignore
                                            [1] * 4, [1] * 4)
    parts[0].merge(parts[1])
    return parts[0]
