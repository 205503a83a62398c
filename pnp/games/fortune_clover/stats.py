"""Fortune Clover report figures: how each Fortune card pays, the yellow return, shared wins.

Hooks behind the card- and rule-level findings (:mod:`pnp.sim.findings`):
:meth:`FortuneCloverStats.card_uses` names, per seat, each Fortune card that
paid it chips (``paid by:<name>``), the deals it topped (``first in deal``)
and whether it gave yellow back at the end (``rule:yellow returned``, C8);
:meth:`FortuneCloverStats.standing` is the chips held so far.

Per Fortune card (by id): how many deals it ruled, the yellow and white chips
it paid at each place (summed, shown per deal), how often a listed place paid
nobody (a tie skipped it or too few seats took a counted card, ruling C7) and
how often the card paid nobody at all. Per game: how often the yellow return
fired (C8) and how often the win was shared after the yellow tie-break. Only
counts and sums are kept, so chunks merge by addition.
"""

from __future__ import annotations

from typing import Any, Sequence

from pnp.games.api import Game, State
from pnp.games.stats import GameStats, KeyFigure
from pnp.intervals import wilson_interval

from .engine import FortuneCloverGame, FortuneCloverState
from .labels import EVENT_LABELS
from .scoring import competition_places, deal_payouts, unpaid_places


def _rate(count: int, n: int) -> dict[str, float | int]:
    """``count``/``n`` with its 95% Wilson interval, JSON-ready."""
    share = count / n if n else 0.0
    low, high = wilson_interval(share, n)
    return {"count": count, "n": n, "rate": round(share, 6), "low": round(low, 6),
            "high": round(high, 6)}


class _CardCounts:
    """Sums for one Fortune card."""

    def __init__(self, num_players: int) -> None:
        """Start at zero for places 1 … ``num_players``."""
        self.deals = 0
        self.yellow = [0] * (num_players + 1)
        self.white = [0] * (num_players + 1)
        self.unpaid_some = 0
        self.unpaid_all = 0
        self.tied_first = 0

    def merge(self, other: "_CardCounts") -> None:
        """Add ``other``'s sums."""
        self.deals += other.deals
        self.yellow = [a + b for a, b in zip(self.yellow, other.yellow)]
        self.white = [a + b for a, b in zip(self.white, other.white)]
        self.unpaid_some += other.unpaid_some
        self.unpaid_all += other.unpaid_all
        self.tied_first += other.tied_first


class FortuneCloverStats(GameStats):
    """Fortune-card payouts by place, unpaid places, yellow returns and shared wins."""

    title = "Fortune Clover figures"
    score_unit = "chips"
    #: Chips are counted, never owed: the reports clip a mean's interval at 0.
    score_range = (0.0, None)

    #: The report's names of the rule events (labels.py)
    event_labels = EVENT_LABELS

    def __init__(self, game: Game[Any], num_players: int) -> None:
        """Keep the Fortune cards' ids, names and reward tables at ``num_players``."""
        super().__init__(game, num_players)
        assert isinstance(game, FortuneCloverGame)
        self.ids = list(game.fortune_ids)
        self.names = [f.name for f in game.fortunes]
        #: ``paid by:Black Cat`` → ``Black Cat (F08)``: the card's id as printed
        #: in its corner, to find it in the deck (card_label)
        self.labels = {f"paid by:{name}": f"{name} ({fid})"
                       for name, fid in zip(self.names, self.ids)}
        self.rewards = [f.rewards[num_players] for f in game.fortunes]
        self.cards = {fid: _CardCounts(num_players) for fid in dict.fromkeys(self.ids)}
        self.games = 0
        self.yellow_returns = 0
        self.yellow_returned = 0
        self.white_returned = 0
        self.shared_wins = 0

    def add(self, state: State[Any], seats: Sequence[str]) -> None:
        """Count one finished game from its deal log (counted cards per seat per deal)."""
        assert isinstance(state, FortuneCloverState)
        self.games += 1
        for deal, counts in enumerate(state.log):
            f = state.fortune_order[deal]
            reward = self.rewards[f]
            card = self.cards[self.ids[f]]
            card.deals += 1
            ys, ws = deal_payouts(counts, reward)
            for place, y, w in zip(competition_places(counts), ys, ws):
                if place:
                    card.yellow[place] += y
                    card.white[place] += w
            if unpaid_places(counts, reward):
                card.unpaid_some += 1
            if not any(ys) and not any(ws):
                card.unpaid_all += 1
            if competition_places(counts).count(1) > 1:
                card.tied_first += 1
        if any(state.ret_y):
            self.yellow_returns += 1
        self.yellow_returned += sum(state.ret_y)
        self.white_returned += sum(state.ret_w)
        if len(state.winners()) > 1:
            self.shared_wins += 1

    def merge(self, other: Any) -> None:
        """Add the counts of ``other`` (same game, later games)."""
        assert isinstance(other, FortuneCloverStats)
        for fid, card in other.cards.items():
            self.cards[fid].merge(card)
        self.games += other.games
        self.yellow_returns += other.yellow_returns
        self.yellow_returned += other.yellow_returned
        self.white_returned += other.white_returned
        self.shared_wins += other.shared_wins

    def to_dict(self) -> dict[str, Any]:
        """Deterministic JSON-ready figures."""
        cards: dict[str, Any] = {}
        for fid, name in dict(zip(self.ids, self.names)).items():
            c = self.cards[fid]
            per = 1 / c.deals if c.deals else 0.0
            cards[fid] = {
                "name": name,
                "deals": c.deals,
                "yellow_per_deal_by_place": [round(v * per, 4) for v in c.yellow[1:]],
                "white_per_deal_by_place": [round(v * per, 4) for v in c.white[1:]],
                "unpaid_place": _rate(c.unpaid_some, c.deals),
                "pays_nobody": _rate(c.unpaid_all, c.deals),
                "tied_first": _rate(c.tied_first, c.deals),
            }
        deals = sum(c.deals for c in self.cards.values())
        return {
            "games": self.games,
            "yellow_return": _rate(self.yellow_returns, self.games),
            "yellow_returned_per_game": round(self.yellow_returned / self.games, 4)
            if self.games else 0.0,
            "white_returned_per_game": round(self.white_returned / self.games, 4)
            if self.games else 0.0,
            "shared_win": _rate(self.shared_wins, self.games),
            "unpaid_place": _rate(sum(c.unpaid_some for c in self.cards.values()), deals),
            "fortunes": cards,
        }

    def format(self, figures: dict[str, Any]) -> list[str]:
        """Readable lines: the game rates, then one block per Fortune card."""
        def pct(r: dict[str, Any]) -> str:
            return (f"{100 * r['rate']:.1f}% [{100 * r['low']:.1f}–{100 * r['high']:.1f}] "
                    f"({r['count']}/{r['n']})")

        lines = [
            f"games: {figures['games']}",
            f"yellow return fired (C8): {pct(figures['yellow_return'])}; returned per game "
            f"{figures['yellow_returned_per_game']:.2f} yellow, "
            f"{figures['white_returned_per_game']:.2f} white",
            f"shared win after the yellow tie-break: {pct(figures['shared_win'])}",
            f"deals with a listed place paid to nobody (C7): {pct(figures['unpaid_place'])}",
            "per Fortune card — chips per deal by place (Y / W), unpaid place, pays nobody, "
            "tied 1st:",
        ]
        for fid, c in figures["fortunes"].items():
            places = "  ".join(f"{p}: {y:.2f}/{w:.2f}" for p, (y, w) in enumerate(
                zip(c["yellow_per_deal_by_place"], c["white_per_deal_by_place"]), start=1))
            lines.append(f"  {fid} {c['name']} ({c['deals']} deals)  {places}")
            lines.append(f"      unpaid place {pct(c['unpaid_place'])}; pays nobody "
                         f"{pct(c['pays_nobody'])}; tied 1st {pct(c['tied_first'])}")
        return lines

    def key_figures(self, figures: dict[str, Any]) -> list[KeyFigure]:
        """Yellow-return rate, shared-win rate and unpaid-place rate with 95% intervals."""
        out: list[KeyFigure] = []
        for name, key in (("yellow return", "yellow_return"), ("shared win", "shared_win"),
                          ("unpaid place per deal", "unpaid_place")):
            r = figures[key]
            out.append((name, r["rate"], r["low"], r["high"]))
        return out

    # -- findings hooks (pnp.sim.findings) ---------------------------------------

    def card_uses(self, state: State[Any]) -> list[list[str]]:
        """Per seat: Fortune cards that paid it, first places, the yellow return."""
        assert isinstance(state, FortuneCloverState)
        out: list[list[str]] = [[] for _ in range(self.num_players)]
        for deal, counts in enumerate(state.log):
            f = state.fortune_order[deal]
            ys, ws = deal_payouts(counts, self.rewards[f])
            for seat, place in enumerate(competition_places(counts)):
                if ys[seat] or ws[seat]:
                    out[seat].append(f"paid by:{self.names[f]}")
                if place == 1:
                    # 1st place on the deal's Fortune card (C7; "first in a deal"
                    # read as leading the first trick)
                    out[seat].append("rule:1st on a Fortune card")
        for seat, y in enumerate(state.ret_y):
            if y:
                out[seat].append("rule:yellow returned")  # ruling C8
        return out

    def card_label(self, key: str) -> str | None:
        """The report's name for a Fortune card key (``Black Cat (F08)``), else None."""
        return self.labels.get(key)

    def standing(self, state: State[Any]) -> list[float]:
        """Chips held so far (yellow and white)."""
        assert isinstance(state, FortuneCloverState)
        return [float(y + w) for y, w in zip(state.yellow, state.white)]
