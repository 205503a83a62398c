"""A finished two-player game stand-in for tests that feed an Aggregate by hand."""

from __future__ import annotations


class EndedGame:
    """A finished 2-player game: seat 0 scores ``a``, seat 1 ``b``, lasting ``turns``.

    It answers what :meth:`pnp.sim.aggregate.Aggregate.add_game` asks of a
    terminal state; the higher score wins (seat 0 on a tie).
    """

    def __init__(self, a: float, b: float, turns: int = 10) -> None:
        self._ret = [a, b]
        self._turns = turns

    def turns(self) -> int:
        """The game's length in turns."""
        return self._turns

    def returns(self) -> list[float]:
        """Each seat's score."""
        return self._ret

    def winners(self) -> list[int]:
        """The seat with the higher score (seat 0 on a tie)."""
        return [0] if self._ret[0] >= self._ret[1] else [1]

    def events(self) -> dict[str, int]:
        """No rule events."""
        return {}
