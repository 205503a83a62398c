"""Fortuna report figures, and the hooks behind the card- and rule-level findings.

Figures: how many sets of each declared value a game sees and the VP they
score (ruling F8), and how many sets are all-in (F4) or worth 0 (F3).

Hooks the simulator looks for (see :mod:`pnp.sim.findings`):

* :meth:`FortunaStats.card_uses`: per seat, the card types it played face up
  in its sets (``played:5B``), the values of its sets (``set value:5``) and
  the rules it used (``rule:all-in set``, ``rule:0 set``, ``rule:no set``);
* :meth:`FortunaStats.standing`: VP of the sets on the table so far.
"""

from __future__ import annotations

from typing import Any, Sequence

from pnp.games.api import Game, State
from pnp.games.stats import GameStats, KeyFigure
from pnp.intervals import wilson_interval

from .codec import MAX_VALUE
from .engine import FortunaGame, FortunaState
from .labels import EVENT_LABELS, FIGURE_LABELS, type_labels
from .scoring import set_score


class FortunaStats(GameStats):
    """Sets by declared value (count, VP), all-in and 0 sets; findings hooks."""

    title = "Fortuna figures"
    score_unit = "VP"
    #: A seat's VP are never negative (sets score size × matches, F8): the
    #: reports clip a mean's interval to this (pnp.sim.findings.clipped).
    score_range = (0.0, None)

    #: The report's names of key figures and rule events (labels.py; GameStats reads them)
    figure_labels = FIGURE_LABELS
    event_labels = EVENT_LABELS

    def __init__(self, game: Game[Any], num_players: int) -> None:
        """Start empty; keep the card names and icons (not the game: stats travel
        back from worker processes with every chunk)."""
        super().__init__(game, num_players)
        assert isinstance(game, FortunaGame)
        self.names = tuple(game.card_name(c) for c in game.deck())
        #: ``played:5W`` → ``5 Wheat (5W)`` for the report (card_label)
        self.labels = {f"played:{code}": label
                       for code, label in type_labels(game.codec).items()}
        self.icons = game.card_icon
        self.n_icons = game.n_icons
        self.goddess = game.goddess
        self.games = 0
        #: Per declared value 0..MAX_VALUE: [sets, VP summed].
        self.by_value = [[0, 0] for _ in range(MAX_VALUE + 1)]
        self.all_in = 0
        self.games_with_all_in = 0

    def add(self, state: State[Any], seats: Sequence[str]) -> None:
        """Count the sets of one finished game."""
        assert isinstance(state, FortunaState)
        self.games += 1
        icons, n_icons, goddess = self.icons, self.n_icons, self.goddess
        any_all_in = False
        for seat_sets in state.sets:
            for value, up, down in seat_sets:
                row = self.by_value[value]
                row[0] += 1
                row[1] += set_score([icons[c] for c in up], len(up) + len(down), n_icons,
                                    goddess)
                if down:
                    self.all_in += 1
                    any_all_in = True
        self.games_with_all_in += any_all_in

    def merge(self, other: Any) -> None:
        """Add ``other``'s counts."""
        self.games += other.games
        for mine, theirs in zip(self.by_value, other.by_value):
            mine[0] += theirs[0]
            mine[1] += theirs[1]
        self.all_in += other.all_in
        self.games_with_all_in += other.games_with_all_in

    def to_dict(self) -> dict[str, Any]:
        """Sets per game and mean VP per declared value; all-in share of games."""
        g = self.games or 1
        share = self.games_with_all_in / g
        low, high = wilson_interval(share, self.games)
        return {
            "games": self.games,
            "sets_by_value": {str(v): {"per_game": round(n / g, 6),
                                       "mean_vp": round(vp / n, 6) if n else None}
                              for v, (n, vp) in enumerate(self.by_value)},
            "all_in_sets_per_game": round(self.all_in / g, 6),
            "games_with_all_in": {"rate": round(share, 6), "low": round(low, 6),
                                  "high": round(high, 6)},
        }

    def format(self, figures: dict[str, Any]) -> list[str]:
        """One line per declared value, then the all-in line."""
        lines = ["sets by declared value (per game, mean VP of such a set):"]
        cells = []
        for v, row in figures["sets_by_value"].items():
            vp = "—" if row["mean_vp"] is None else f"{row['mean_vp']:.1f}"
            cells.append(f"{v}: {row['per_game']:.2f} ({vp})")
        lines.append("  " + "  ".join(cells))
        a = figures["games_with_all_in"]
        lines.append(f"all-in sets {figures['all_in_sets_per_game']:.2f} per game; in "
                     f"{100 * a['rate']:.1f}% of games [{100 * a['low']:.1f}–"
                     f"{100 * a['high']:.1f}]")
        return lines

    def key_figures(self, figures: dict[str, Any]) -> list[KeyFigure]:
        """The share of games with an all-in set (for sweep tables)."""
        a = figures["games_with_all_in"]
        return [("games_with_all_in", a["rate"], a["low"], a["high"])]

    # -- findings hooks (pnp.sim.findings) ---------------------------------------

    def card_uses(self, state: State[Any]) -> list[list[str]]:
        """Per seat: card types played face up, set values, rules used."""
        assert isinstance(state, FortunaState)
        names = self.names
        out = []
        for seat_sets in state.sets:
            keys = []
            for value, up, down in seat_sets:
                keys += [f"played:{names[c]}" for c in up]
                keys.append(f"set value:{value}")
                if down:
                    keys.append("rule:all-in set")  # ruling F4
                if value == 0:
                    keys.append("rule:0 set")  # ruling F3
            if not seat_sets:
                keys.append("rule:no set")
            out.append(keys)
        return out

    def card_label(self, key: str) -> str | None:
        """The report's name for a card key (``played:5W`` → ``5 Wheat (5W)``), else None."""
        return self.labels.get(key)

    def standing(self, state: State[Any]) -> list[float]:
        """VP of the sets on the table now (ruling F8)."""
        assert isinstance(state, FortunaState)
        return state._score()
