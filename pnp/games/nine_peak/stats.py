"""9 Peak report figures, and the hooks behind the card- and rule-level findings.

Figures: how often each set size is played and what such a set scores
(ruling N6), and how many cards the peak piles hold at the end.

Hooks the simulator looks for (see :mod:`pnp.sim.findings`):

* :meth:`NinePeakStats.card_uses`: per seat, the hat types in its sets
  (``played:5S``), its set sizes (``set size:4``) and the rules it used
  (``rule:peak pile`` for a seat that took peak cards by a pass, N2;
  ``rule:cards left in hand`` for a seat holding cards at the end);
* :meth:`NinePeakStats.standing`: set values plus peak pile so far.
"""

from __future__ import annotations

from typing import Any, Sequence

from pnp.games.api import Game, State
from pnp.games.stats import GameStats, KeyFigure, key_figure, mean_bounds, span_text
from pnp.intervals import clip_to_range, mean_interval

from .codec import MAX_SET
from .engine import NinePeakGame, NinePeakState
from .labels import EVENT_LABELS, FIGURE_LABELS, type_labels


class NinePeakStats(GameStats):
    """Sets by size (count, points), peak-pile cards; findings hooks."""

    title = "9 Peak figures"
    score_unit = "VP"

    #: The report's names of key figures and rule events (labels.py; GameStats reads them)
    figure_labels = FIGURE_LABELS
    event_labels = EVENT_LABELS

    def __init__(self, game: Game[Any], num_players: int) -> None:
        """Start empty; keep card codes and set scores (not the game itself)."""
        super().__init__(game, num_players)
        assert isinstance(game, NinePeakGame)
        self.codes = tuple(game.card_name(c) for c in game.deck())
        #: ``played:5S`` → ``5 silk hat (5S)`` for the report (card_label)
        self.labels = {f"played:{code}": label for code, label in type_labels(
            game.type_code, game.type_number, game.type_suit, game.type_color).items()}
        self.games = 0
        #: Per set size 1..MAX_SET (index size − 1): [sets, points summed].
        self.by_size = [[0, 0] for _ in range(MAX_SET)]
        self.pile_sum = 0
        self.pile_sq = 0

    def add(self, state: State[Any], seats: Sequence[str]) -> None:
        """Count the sets and peak piles of one finished game."""
        assert isinstance(state, NinePeakState)
        self.games += 1
        score = state.game.score_set
        for seat_sets in state.sets:
            for cards in seat_sets:
                row = self.by_size[len(cards) - 1]
                row[0] += 1
                row[1] += score(cards)
        pile = sum(len(p) for p in state.piles)
        self.pile_sum += pile
        self.pile_sq += pile * pile

    def merge(self, other: Any) -> None:
        """Add ``other``'s counts."""
        self.games += other.games
        for mine, theirs in zip(self.by_size, other.by_size):
            mine[0] += theirs[0]
            mine[1] += theirs[1]
        self.pile_sum += other.pile_sum
        self.pile_sq += other.pile_sq

    def to_dict(self) -> dict[str, Any]:
        """Sets per game and mean points per size; peak-pile cards per game."""
        g = self.games or 1
        mean, _sd, low, high = mean_interval(self.pile_sum, self.pile_sq, self.games)
        low, high = clip_to_range(low, high, 0.0)    # a count of cards
        return {
            "games": self.games,
            "sets_by_size": {str(k + 1): {"per_game": round(n / g, 6),
                                          "mean_points": round(pts / n, 6) if n else None}
                             for k, (n, pts) in enumerate(self.by_size)},
            "peak_pile_cards": dict(zip(("mean", "low", "high"),
                                        (round(mean, 6), *mean_bounds(mean, low, high)))),
        }

    def format(self, figures: dict[str, Any]) -> list[str]:
        """One line of set sizes, one of peak piles."""
        cells = []
        for k, row in figures["sets_by_size"].items():
            pts = "—" if row["mean_points"] is None else f"{row['mean_points']:.1f}"
            cells.append(f"{k}: {row['per_game']:.2f} ({pts})")
        p = figures["peak_pile_cards"]
        return ["sets by size (per game, mean points of such a set):", "  " + "  ".join(cells),
                f"peak-pile cards per game {p['mean']:.2f} "
                f"{span_text(p['mean'], p['low'], p['high'])}"]

    def key_figures(self, figures: dict[str, Any]) -> list[KeyFigure]:
        """Mean peak-pile cards per game (for sweep tables)."""
        p = figures["peak_pile_cards"]
        return [key_figure("mean_peak_pile_cards", p["mean"], p["low"], p["high"])]

    # -- findings hooks (pnp.sim.findings) ---------------------------------------

    def card_uses(self, state: State[Any]) -> list[list[str]]:
        """Per seat: hat types played in sets, set sizes, rules used."""
        assert isinstance(state, NinePeakState)
        codes = self.codes
        out = []
        for p in range(state.num_players):
            keys = []
            for cards in state.sets[p]:
                keys += [f"played:{codes[c]}" for c in cards]
                keys.append(f"set size:{len(cards)}")
            if state.piles[p]:
                keys.append("rule:peak pile")  # ruling N2: peak cards taken by a pass
            if state.hands[p]:
                keys.append("rule:cards left in hand")  # ruling N6: −1 each
            out.append(keys)
        return out

    def card_label(self, key: str) -> str | None:
        """The report's name for a card key (``played:5S`` → ``5 silk hat (5S)``), else None."""
        return self.labels.get(key)

    def standing(self, state: State[Any]) -> list[float]:
        """Set values plus peak-pile cards so far (cards in hand not yet counted)."""
        assert isinstance(state, NinePeakState)
        score = state.game.score_set
        return [float(sum(score(s) for s in state.sets[p]) + len(state.piles[p]))
                for p in range(state.num_players)]
