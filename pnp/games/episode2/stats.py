"""Report figures of 第2話: outcomes, spoils, HP left, why runs end, retreats.

Everything is counts and sums (flat memory whatever the number of games).

Hook behind the card- and rule-level findings (:mod:`pnp.sim.findings`):
:meth:`Episode2Stats.card_uses` names the cards a run used (``used:♠7``), the
bosses it took (``took:♥K``) and the rules it met (``rule:mulligan``,
``rule:spade ace``, ``rule:reroll won``); a solo game is judged on its mean
return (bosses taken). There is no ``standing`` hook: drama needs rivals.
Rates carry 95 % Wilson intervals, means a Student t interval cut to the values
they can take (0 … the bosses or the starting HP).
"""

from __future__ import annotations

from typing import Any, Sequence

from pnp.games.api import Game, State
from pnp.games.episode2.engine import (EV_MULLIGAN, EV_REROLL_WIN, EV_SPADE_ACE,
                                      Episode2Game, Episode2State)
from pnp.games.episode2.scoring import (CAUSE_NAMES, CAUSE_OUTCOME, GAME_OVER, HP_ZERO,
                                        NORMAL_CLEAR, RETREAT, RUN_END_LOST, TRUE_END)
from pnp.games.stats import GameStats, KeyFigure, key_figure, mean_bounds, span_text
from pnp.games.episode2.labels import EVENT_LABELS, FIGURE_LABELS
from pnp.intervals import clip_to_range, mean_interval, wilson_interval

#: Outcomes reported, in order (ruling E6).
OUTCOMES: tuple[tuple[int, str], ...] = ((TRUE_END, "true_end"),
                                         (NORMAL_CLEAR, "normal_clear"),
                                         (GAME_OVER, "game_over"))


def _rate(count: int, n: int) -> dict[str, float | int]:
    """``{count, rate, low, high}`` with a 95 % Wilson interval."""
    share = count / n if n else 0.0
    low, high = wilson_interval(share, n)
    return {"count": count, "rate": round(share, 6), "low": round(low, 6),
            "high": round(high, 6)}


def _mean(total: float, total_sq: float, n: int, top: float | None = None
          ) -> dict[str, float | None]:
    """``{mean, sd, low, high}``: the Student t 95 % interval, cut to 0 … ``top``.

    Spoils and HP are counts, never below 0 nor above the bosses or the
    starting HP: two runs of 0 and 2 spoils gave (-0.18–2.18)
    (:func:`pnp.intervals.clip_to_range`).
    """
    mean, sd, low, high = mean_interval(total, total_sq, n)
    low, high = clip_to_range(low, high, 0.0, top)
    lo, hi = mean_bounds(mean, low, high)  # null when every run gave the same
    return {"mean": round(mean, 6), "sd": round(sd, 6), "low": lo, "high": hi}


def _hist_mean(hist: Sequence[int]) -> dict[str, float | None]:
    """Mean interval of a histogram over 0, 1, 2 …"""
    n = sum(hist)
    total = sum(i * c for i, c in enumerate(hist))
    total_sq = sum(i * i * c for i, c in enumerate(hist))
    return _mean(total, total_sq, n, float(len(hist) - 1))


class Episode2Stats(GameStats):
    """Outcome rates, spoils and HP distributions, game-over causes, retreats."""

    title = "第2話 runs"
    score_unit = "bosses taken"

    #: The report's names of key figures and rule events (labels.py; GameStats reads them)
    figure_labels = FIGURE_LABELS
    event_labels = EVENT_LABELS

    def __init__(self, game: Game[Any], num_players: int) -> None:
        """Empty counters sized by the game's bosses and starting HP."""
        super().__init__(game, num_players)
        assert isinstance(game, Episode2Game)
        self.games = 0
        self.causes = [0] * len(CAUSE_NAMES)
        #: Spoils at the end, by count 0 … bosses; and by outcome.
        self.spoils = [0] * (game.num_bosses + 1)
        self.spoils_by_outcome = {name: [0] * (game.num_bosses + 1) for _, name in OUTCOMES}
        #: HP at the end, 0 … starting HP.
        self.hp_end = [0] * (game.starting_hp + 1)
        #: Retreats: bosses taken when retreating, and attacks made before it.
        self.retreat_spoils = [0] * (game.num_bosses + 1)
        self.retreat_attacks = 0
        self.names = tuple(game.card_name(c) for c in game.deck())
        #: A run's score is the bosses it took, 0 … all of them: the reports
        #: clip a mean's interval to that (pnp.sim.findings.clipped). The card
        #: keys (♠7, ♥K) read the same in every language: no card_label.
        self.score_range = (0.0, float(game.num_bosses))

    def add(self, state: State[Any], seats: Sequence[str]) -> None:
        """Count one finished run."""
        assert isinstance(state, Episode2State)
        self.games += 1
        self.causes[state.cause] += 1
        k = len(state.spoils)
        self.spoils[k] += 1
        outcome = CAUSE_OUTCOME[state.cause]
        for code, name in OUTCOMES:
            if code == outcome:
                self.spoils_by_outcome[name][k] += 1
        self.hp_end[min(state.hp, len(self.hp_end) - 1)] += 1
        if state.cause == RETREAT:
            self.retreat_spoils[k] += 1
            self.retreat_attacks += state.turns()

    def merge(self, other: Any) -> None:
        """Add another chunk's counters (same game and parameters)."""
        assert isinstance(other, Episode2Stats)
        self.games += other.games
        for mine, theirs in ((self.causes, other.causes), (self.spoils, other.spoils),
                             (self.hp_end, other.hp_end),
                             (self.retreat_spoils, other.retreat_spoils)):
            for i, v in enumerate(theirs):
                mine[i] += v
        for name, hist in other.spoils_by_outcome.items():
            for i, v in enumerate(hist):
                self.spoils_by_outcome[name][i] += v
        self.retreat_attacks += other.retreat_attacks

    def to_dict(self) -> dict[str, Any]:
        """Deterministic JSON-ready figures."""
        n = self.games
        counts = {name: 0 for _, name in OUTCOMES}
        for cause, c in enumerate(self.causes):
            for code, name in OUTCOMES:
                if CAUSE_OUTCOME[cause] == code:
                    counts[name] += c
        overs = counts["game_over"]
        retreats = self.causes[RETREAT]
        return {
            "games": n,
            "outcomes": {name: _rate(counts[name], n) for _, name in OUTCOMES},
            "causes": {CAUSE_NAMES[i]: c for i, c in enumerate(self.causes) if i},
            "game_over_causes": {
                "hp_zero": _rate(self.causes[HP_ZERO], overs),
                "run_end_after_fail": _rate(self.causes[RUN_END_LOST], overs)},
            "spoils": {"histogram": list(self.spoils), **_hist_mean(self.spoils)},
            "spoils_by_outcome": {name: {"histogram": list(h), **_hist_mean(h)}
                                  for name, h in self.spoils_by_outcome.items()},
            "hp_end": {"histogram": list(self.hp_end), **_hist_mean(self.hp_end)},
            "retreat": {**_rate(retreats, n),
                        "spoils_histogram": list(self.retreat_spoils),
                        "spoils_at_retreat": _hist_mean(self.retreat_spoils),
                        "mean_attacks_before": round(self.retreat_attacks / retreats, 6)
                        if retreats else 0.0},
        }

    def format(self, figures: dict[str, Any]) -> list[str]:
        """Readable lines of :meth:`to_dict`'s figures."""
        lines = []
        outcomes = figures["outcomes"]
        for _, name in OUTCOMES:
            o = outcomes[name]
            lines.append(f"{name.replace('_', ' '):<13} {o['rate'] * 100:6.2f} %  "
                         f"[{o['low'] * 100:.2f}–{o['high'] * 100:.2f}]  ({o['count']})")
        sp = figures["spoils"]
        lines.append(f"spoils        mean {sp['mean']:.2f} "
                     f"{span_text(sp['mean'], sp['low'], sp['high'])}"
                     f"  histogram 0–{len(sp['histogram']) - 1}: "
                     + " ".join(map(str, sp["histogram"])))
        for name, h in figures["spoils_by_outcome"].items():
            if sum(h["histogram"]):
                lines.append(f"  {name.replace('_', ' '):<13} mean spoils {h['mean']:.2f}")
        hp = figures["hp_end"]
        lines.append(f"HP at end     mean {hp['mean']:.2f} "
                     f"{span_text(hp['mean'], hp['low'], hp['high'])}"
                     f"  histogram 0–{len(hp['histogram']) - 1}: "
                     + " ".join(map(str, hp["histogram"])))
        go = figures["game_over_causes"]
        lines.append(f"game over by  HP 0 {go['hp_zero']['rate'] * 100:.1f} %, run ended "
                     f"after a failed attack {go['run_end_after_fail']['rate'] * 100:.1f} %")
        rt = figures["retreat"]
        lines.append(f"retreats      {rt['rate'] * 100:.2f} % [{rt['low'] * 100:.2f}–"
                     f"{rt['high'] * 100:.2f}], at {rt['spoils_at_retreat']['mean']:.2f} "
                     f"bosses taken / {rt['mean_attacks_before']:.1f} attacks on average")
        return lines

    def key_figures(self, figures: dict[str, Any]) -> list[KeyFigure]:
        """True end, normal clear and game over rates, and mean spoils."""
        out: list[KeyFigure] = []
        for _, name in OUTCOMES:
            o = figures["outcomes"][name]
            out.append((name, o["rate"], o["low"], o["high"]))
        sp = figures["spoils"]
        out.append(key_figure("mean_spoils", sp["mean"], sp["low"], sp["high"]))
        return out

    def finding_sentences(self, figures: dict[str, Any]) -> list[str]:
        """How the runs end, the solo game's headline (the generic findings judge cards).

        A true end never reached is said with the most the interval allows, so
        a designer sees whether it is rare or out of reach for this player.
        """
        n = figures["games"]
        if not n:
            return []
        o = figures["outcomes"]

        def pct(x: float) -> str:
            return f"{100 * x:.1f} %"

        # the interval sits right after the figure it belongs to: at the end of
        # the sentence it read as if it covered the whole sentence
        go = o["game_over"]
        out = [f"Of {n} runs, {pct(o['true_end']['rate'])} reach the true end, "
               f"{pct(o['normal_clear']['rate'])} clear normally and "
               f"{pct(go['rate'])} (95 % {100 * go['low']:.1f}–{pct(go['high'])}) "
               "end in game over."]
        if not o["true_end"]["count"]:
            bosses = len(self.spoils) - 1  # spoils are counted 0 … every boss
            out.append(f"No run defeated all {bosses} bosses (the true end, E6; at most "
                       f"{pct(o['true_end']['high'])} of runs at 95 %): for this player the "
                       "true end is out of reach or nearly so.")
        return out

    # -- findings hook (pnp.sim.findings) ----------------------------------------

    def card_uses(self, state: State[Any]) -> list[list[str]]:
        """The one seat's used cards, bosses taken and rules met in this run."""
        assert isinstance(state, Episode2State)
        names = self.names
        keys = [f"used:{names[c]}" for c in state.pool]
        keys += [f"took:{names[b]}" for b in state.spoils]
        for event, key in ((EV_MULLIGAN, "mulligan"), (EV_SPADE_ACE, "spade ace"),
                           (EV_REROLL_WIN, "reroll won")):
            if state.ev[event]:
                keys.append(f"rule:{key}")
        return [keys]
