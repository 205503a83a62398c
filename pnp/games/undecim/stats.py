"""Undecim report figures: where VP come from, how each action and scenario card fares.

Per game: VP by source per seat (round-end lands, final lands, settlements,
gold, enemies, scenarios, action VP, campaign start) and the winners' share
of each source; per action card, the win rate and mean final VP of the player
who played it in a round (one sample per play) with 95 % intervals; per
scenario card in the Story, how often it was achieved, in which round, and
how often the bonus was split; Red Moon Nights per game. Only counts and sums
are kept, so chunks merge by addition. In a campaign the figures above are
those of the final season (its Story, its VP), while action plays cover every
season; the **seasons** section adds, per season, the mean VP per seat by
source, each seat's and each bot's share of the season's wins, and how often
the season's winner went on to win the campaign (U7a: the winner of season 3),
from the state's per-season record (``UndecimState.season_results``).

Hooks the simulator looks for (see :mod:`pnp.sim.findings`):

* :meth:`UndecimStats.card_uses`: per seat, the action cards it played
  (``played:7 Call the Moon``), the scenario cards it achieved
  (``scenario:First Villages``), the land kind it holds most of at the end
  (``main land:森``), the materials in its settlements (``settled:石``), its
  largest settlement (``largest settlement:4``) and the rules it used
  (``rule:full land set`` …);
* :meth:`UndecimStats.standing`: VP banked so far plus the end VP of what
  each seat holds now (the score if the game ended at that moment);
* :meth:`UndecimStats.finding_sentences`: the campaign's per-season findings,
  each only where its interval supports it.
"""

from __future__ import annotations

from typing import Any, Sequence

from pnp.games.api import Game, State
from pnp.games.stats import GameStats, KeyFigure, key_figure, mean_bounds, span_text
from pnp.intervals import clip_to_range, t_interval, wilson_interval

from .engine import (EV_NIGHT, FINAL_SOURCES, SEASON_SOURCES, V_ACTION, V_ENEMY, VP_SOURCES,
                     UndecimGame, UndecimState)
from .labels import EVENT_LABELS, FIGURE_LABELS, kind_labels

#: Report order of the VP sources.
SOURCES = ("round_lands", "final_lands", "settlements", "gold", "enemies", "scenarios",
           "actions", "campaign_start")


def _rate(count: float, n: int) -> dict[str, float]:
    """``count``/``n`` with its 95 % Wilson interval, JSON-ready."""
    share = count / n if n else 0.0
    low, high = wilson_interval(share, n)
    return {"count": round(count, 6), "n": n, "rate": round(share, 6), "low": round(low, 6),
            "high": round(high, 6)}


def _mean(total: float, squares: float, n: int) -> dict[str, Any]:
    """Mean with its Student t 95 % interval from a sum and a sum of squares.

    :func:`pnp.intervals.t_interval` on n − 1 degrees of freedom: an action
    card played 4 times has t 3.18, not the normal 1.96 (which made its VP
    interval 38 % too narrow). One play gives the mean itself. Every mean
    here is of VP or of nights, never negative: the interval is cut at 0
    (:func:`pnp.intervals.clip_to_range`).
    """
    if not n:
        return {"mean": 0.0, "low": None, "high": None, "n": 0}
    mean, _sd, low, high = t_interval(total, squares, n)
    low, high = clip_to_range(low, high, 0.0)
    lo, hi = mean_bounds(mean, low, high, 4)  # null when every value was the same
    return {"mean": round(mean, 4), "low": lo, "high": hi, "n": n}


class UndecimStats(GameStats):
    """VP sources, action-card and scenario-card figures, Red Moon Nights."""

    title = "Undecim figures"
    score_unit = "VP"
    #: VP are only ever gained (U4–U6): the reports clip a mean's interval at 0.
    score_range = (0.0, None)

    #: The report's names of key figures and rule events (labels.py; GameStats reads them)
    figure_labels = FIGURE_LABELS
    event_labels = EVENT_LABELS

    def __init__(self, game: Game[Any], num_players: int) -> None:
        """Start empty for ``num_players`` seats."""
        super().__init__(game, num_players)
        assert isinstance(game, UndecimGame)
        self.rounds = game.rounds
        self.card_names = [f"{a.number} {a.name_en}" for a in game.actions]
        self.scen_ids = [s.id for s in game.scenarios]
        self.scen_names = [s.name_en for s in game.scenarios]
        self.kind_names = game.kind_names
        #: ``settled:鉄`` → ``iron (鉄)`` for the English report (card_label)
        self.labels = kind_labels(game.kind_names)
        self.n_lands = game.n_lands
        self.mat0 = game.MAT0
        self.gold = game.GOLD
        self.full_min = game.full_min
        self.size_cap = len(game.settle_table) - 1
        n_src = len(SOURCES)
        self.games = 0
        self.vp = [[0] * n_src for _ in range(num_players)]
        self.win_vp = [0.0] * n_src
        self.win_total = 0.0
        na = game.n_actions
        self.plays = [0] * na
        self.wins = [0.0] * na
        self.vp_sum = [0.0] * na
        self.vp_sq = [0.0] * na
        ns = len(game.scenarios)
        self.in_story = [0] * ns
        self.achieved = [0] * ns
        self.split = [0] * ns
        self.by_round = [[0] * game.rounds for _ in range(ns)]
        self.nights = 0
        self.nights_sq = 0              # Σ nights², for the interval of the mean
        self.night_hist = [0] * 5       # games with 0, 1, 2, 3, 4+ Nights
        # Campaign seasons (U7a); none in a single game.
        ss = game.seasons if game.campaign else 0
        self.n_seasons = ss
        #: Campaigns counted (games with a full per-season record).
        self.s_games = 0
        #: Per season: Σ over seats of VP by source (SOURCES order); Σ and Σ² of the
        #: seat totals; Σ of the winner's total; wins per seat; campaigns won by
        #: the season's winner.
        self.s_vp = [[0] * n_src for _ in range(ss)]
        self.s_total = [[0.0, 0.0] for _ in range(ss)]
        self.s_win_vp = [0.0] * ss
        self.s_seat_wins = [[0] * num_players for _ in range(ss)]
        self.s_leader = [0] * ss
        #: Per bot name: [seat-games, season wins per season …].
        self.s_bots: dict[str, list[int]] = {}

    def add(self, state: State[Any], seats: Sequence[str]) -> None:
        """Count one finished game."""
        assert isinstance(state, UndecimState)
        n = state.num_players
        self.games += 1
        totals = state.totals()
        win = state.winners()
        idx = {name: i for i, name in enumerate(VP_SOURCES)}
        per: list[list[int]] = []
        for p in range(n):
            final = dict(zip(FINAL_SOURCES, state.final_vp(p)))
            row = [state.vp[p][idx[s]] if s in idx else final[s] for s in SOURCES]
            per.append(row)
            for k, v in enumerate(row):
                self.vp[p][k] += v
        for p in win:
            share = 1 / len(win)
            for k, v in enumerate(per[p]):
                self.win_vp[k] += v * share
            self.win_total += totals[p] * share
        for played in state.log:
            for p, a in enumerate(played):
                self.plays[a] += 1
                if p in win:
                    self.wins[a] += 1 / len(win)
                self.vp_sum[a] += totals[p]
                self.vp_sq[a] += totals[p] * totals[p]
        for j, i in enumerate(state.story):
            self.in_story[i] += 1
            rnd, _seq, mask = state.ach[j]
            if rnd >= 0:
                self.achieved[i] += 1
                self.by_round[i][min(rnd, self.rounds - 1)] += 1
                if mask & (mask - 1):
                    self.split[i] += 1
        nights = state.ev[EV_NIGHT]
        self.nights += nights
        self.nights_sq += nights * nights
        self.night_hist[min(nights, 4)] += 1
        if self.n_seasons:
            self._add_seasons(state, seats)

    def _add_seasons(self, state: UndecimState, seats: Sequence[str]) -> None:
        """Count one finished campaign's seasons (U7a)."""
        results = state.season_results()
        if len(results) != self.n_seasons:
            return      # a position without the earlier seasons' record (not a full campaign)
        self.s_games += 1
        order = [SOURCES.index(name) for name in SEASON_SOURCES]
        champion = results[-1][1]
        for s, (rows, win) in enumerate(results):
            acc = self.s_vp[s]
            for row in rows:
                for k, v in zip(order, row):
                    acc[k] += v
                total = sum(row)
                self.s_total[s][0] += total
                self.s_total[s][1] += total * total
            self.s_win_vp[s] += sum(rows[win])
            self.s_seat_wins[s][win] += 1
            if win == champion:
                self.s_leader[s] += 1
        for p, name in enumerate(seats):
            tally = self.s_bots.setdefault(name, [0] * (1 + self.n_seasons))
            tally[0] += 1
            for s, (_rows, win) in enumerate(results):
                if win == p:
                    tally[1 + s] += 1

    def merge(self, other: Any) -> None:
        """Add the counts of ``other`` (same game, later games)."""
        assert isinstance(other, UndecimStats)
        self.games += other.games
        for p in range(self.num_players):
            self.vp[p] = [a + b for a, b in zip(self.vp[p], other.vp[p])]
        self.win_vp = [a + b for a, b in zip(self.win_vp, other.win_vp)]
        self.win_total += other.win_total
        for name in ("plays", "wins", "vp_sum", "vp_sq", "in_story", "achieved", "split",
                     "night_hist"):
            setattr(self, name, [a + b for a, b in zip(getattr(self, name),
                                                       getattr(other, name))])
        self.by_round = [[a + b for a, b in zip(x, y)] for x, y in zip(self.by_round,
                                                                       other.by_round)]
        self.nights += other.nights
        self.nights_sq += other.nights_sq
        self.s_games += other.s_games
        for name in ("s_vp", "s_total", "s_seat_wins"):
            setattr(self, name, [[a + b for a, b in zip(x, y)]
                                 for x, y in zip(getattr(self, name), getattr(other, name))])
        self.s_win_vp = [a + b for a, b in zip(self.s_win_vp, other.s_win_vp)]
        self.s_leader = [a + b for a, b in zip(self.s_leader, other.s_leader)]
        for name, row in other.s_bots.items():
            mine = self.s_bots.setdefault(name, [0] * len(row))
            self.s_bots[name] = [a + b for a, b in zip(mine, row)]

    def to_dict(self) -> dict[str, Any]:
        """Deterministic JSON-ready figures."""
        g = self.games or 1
        vp_by_seat = [{s: round(self.vp[p][k] / g, 4) for k, s in enumerate(SOURCES)}
                      for p in range(self.num_players)]
        all_src = [sum(self.vp[p][k] for p in range(self.num_players)) for k in range(len(SOURCES))]
        everyone = sum(all_src) or 1
        win_total = self.win_total or 1
        cards: dict[str, Any] = {}
        rates = []
        for a, name in enumerate(self.card_names):
            r = _rate(self.wins[a], self.plays[a])
            rates.append(r["rate"])
            cards[name] = {"plays": self.plays[a], "win": r,
                           "vp": _mean(self.vp_sum[a], self.vp_sq[a], self.plays[a])}
        played_rates = [r for a, r in enumerate(rates) if self.plays[a]]
        average = sum(played_rates) / len(played_rates) if played_rates else 0.0
        spread = round(max((abs(r - average) for r in played_rates), default=0.0), 6)
        spread_ci = [spread, spread]
        widest = max((a for a in range(len(rates)) if self.plays[a]),
                     key=lambda a: abs(rates[a] - average), default=None)
        if widest is not None:
            # The widest gap's 95 % interval: that card's win-rate interval, less
            # the average (the spread of the maximum itself, and the average's,
            # are left out). Sweeps printed it zero-wide (value–value), as if exact.
            w, avg = cards[self.card_names[widest]]["win"], round(average, 6)
            ends = sorted((abs(w["low"] - avg), abs(w["high"] - avg)))
            # An interval straddling the average allows no gap at all.
            spread_ci = [0.0 if w["low"] <= avg <= w["high"] else round(ends[0], 6),
                         round(ends[1], 6)]
        scen: dict[str, Any] = {}
        for i, sid in enumerate(self.scen_ids):
            if not self.in_story[i]:
                continue
            got = self.achieved[i]
            mean_round = (sum((r + 1) * c for r, c in enumerate(self.by_round[i])) / got
                          if got else 0.0)
            scen[sid] = {"name": self.scen_names[i], "games": self.in_story[i],
                         "achieved": _rate(got, self.in_story[i]),
                         "by_round": list(self.by_round[i]),
                         "mean_round": round(mean_round, 3),
                         "split": _rate(self.split[i], got)}
        _m, _sd, nights_lo, nights_hi = t_interval(self.nights, self.nights_sq, self.games)
        nights_lo, nights_hi = clip_to_range(nights_lo, nights_hi, 0.0)   # a count
        return {
            "games": self.games,
            "vp_by_seat": vp_by_seat,
            "vp_share_all": {s: round(all_src[k] / everyone, 4) for k, s in enumerate(SOURCES)},
            "vp_share_winners": {s: round(self.win_vp[k] / win_total, 4)
                                 for k, s in enumerate(SOURCES)},
            "winner_vp_mean": round(self.win_total / g, 3),
            "actions": cards,
            "action_win_average": round(average, 6),
            "action_win_spread": spread,
            "action_win_spread_ci": spread_ci,
            "scenarios": scen,
            "nights_per_game": round(self.nights / g, 4),
            "nights_per_game_ci": [round(nights_lo, 4), round(nights_hi, 4)],
            "nights_histogram": list(self.night_hist),
            "seasons": self._seasons_dict(),
        }

    def _seasons_dict(self) -> list[dict[str, Any]]:
        """Per campaign season: VP per seat by source, win shares, and whether the
        season's winner won the campaign (empty outside a campaign)."""
        n_games = self.s_games
        seat_games = n_games * self.num_players
        out = []
        for s in range(self.n_seasons if n_games else 0):
            per_seat = seat_games or 1
            out.append({
                "season": s + 1,
                "games": n_games,
                "vp_by_source": {src: round(self.s_vp[s][k] / per_seat, 4)
                                 for k, src in enumerate(SOURCES)},
                "vp": _mean(self.s_total[s][0], self.s_total[s][1], seat_games),
                "winner_vp_mean": round(self.s_win_vp[s] / n_games, 3),
                "seat_wins": [_rate(w, n_games) for w in self.s_seat_wins[s]],
                "bot_wins": {name: _rate(row[1 + s], row[0])
                             for name, row in sorted(self.s_bots.items())},
                # The last season's winner is the campaign's (U7a): trivially 100 %.
                "winner_wins_campaign": _rate(self.s_leader[s], n_games),
            })
        return out

    def format(self, figures: dict[str, Any]) -> list[str]:
        """Readable lines for :meth:`to_dict`'s figures."""
        def pct(r: dict[str, Any]) -> str:
            return f"{100 * r['rate']:5.1f}% [{100 * r['low']:.1f}–{100 * r['high']:.1f}]"

        lines = [f"games: {figures['games']}; winner's VP mean {figures['winner_vp_mean']:.1f}",
                 "VP by source (mean per game):",
                 "  seat  " + "  ".join(f"{s:>12}" for s in SOURCES)]
        for p, row in enumerate(figures["vp_by_seat"]):
            lines.append(f"  {p:>4}  " + "  ".join(f"{row[s]:12.2f}" for s in SOURCES))
        lines.append("  share of all VP      " + "  ".join(
            f"{s} {100 * v:.1f}%" for s, v in figures["vp_share_all"].items() if v))
        lines.append("  share of winners' VP " + "  ".join(
            f"{s} {100 * v:.1f}%" for s, v in figures["vp_share_winners"].items() if v))
        lines.append(f"action cards — win rate of the player who played it (average "
                     f"{100 * figures['action_win_average']:.1f}%, widest gap "
                     f"{100 * figures['action_win_spread']:.1f} points) and their final VP:")
        for name, c in figures["actions"].items():
            vp = c["vp"]
            lines.append(f"  {name:<22} plays {c['plays']:>7}  win {pct(c['win'])}  "
                         f"VP {vp['mean']:6.2f} "
                         f"{span_text(vp['mean'], vp['low'], vp['high'])}")
        lines.append("scenario cards — achieved, mean round, achieved by round, split:")
        for sid, s in figures["scenarios"].items():
            rounds = " ".join(str(x) for x in s["by_round"])
            lines.append(f"  {sid:<7} {s['name']:<22} achieved {pct(s['achieved'])}  round "
                         f"{s['mean_round']:.2f} ({rounds})  split {pct(s['split'])}")
        hist = figures["nights_histogram"]
        lines.append(f"Red Moon Nights per game: {figures['nights_per_game']:.2f} "
                     f"(games with 0/1/2/3/4+: {'/'.join(map(str, hist))})")
        seasons = figures.get("seasons") or []
        if seasons:
            lines.append(f"campaign seasons ({seasons[0]['games']} campaigns; the winner of "
                         f"season {len(seasons)} wins the campaign, U7a):")
            for row in seasons:
                vp = row["vp"]
                seats = " ".join(f"{100 * r['rate']:.1f}%" for r in row["seat_wins"])
                lines.append(f"  season {row['season']}: VP per seat {vp['mean']:.2f} "
                             f"{span_text(vp['mean'], vp['low'], vp['high'])}, winner's VP "
                             f"{row['winner_vp_mean']:.1f}; wins by seat {seats}; its winner "
                             f"wins the campaign {pct(row['winner_wins_campaign'])}")
                lines.append("    VP by source: " + "  ".join(
                    f"{src} {v:.2f}" for src, v in row["vp_by_source"].items() if v))
                if len(row["bot_wins"]) > 1:
                    lines.append("    season wins by bot: " + "  ".join(
                        f"{name} {pct(r)}" for name, r in row["bot_wins"].items()))
        return lines

    def key_figures(self, figures: dict[str, Any]) -> list[KeyFigure]:
        """Nights per game, the widest action-card gap, each Story card's achieved rate."""
        out: list[KeyFigure] = []
        # A mean, so its name starts with "mean" (sweep tables print it as a
        # number, not a rate) and it carries its own interval.
        nights = figures["nights_per_game"]
        lo, hi = figures.get("nights_per_game_ci", (nights, nights))
        out.append(("mean_red_moon_nights", nights, lo, hi))
        gap = figures["action_win_spread"]
        gap_lo, gap_hi = figures.get("action_win_spread_ci", (gap, gap))
        out.append(("widest action win-rate gap", gap, gap_lo, gap_hi))
        for s in figures["scenarios"].values():
            # The Story card's name, not its id: a sweep column a designer reads.
            r = s["achieved"]
            out.append((f"{s['name']} achieved", r["rate"], r["low"], r["high"]))
        return out

    # -- findings hooks (pnp.sim.findings) ---------------------------------------

    def card_label(self, key: str) -> str | None:
        """The report's name for a land or material key (``settled:鉄`` → ``iron (鉄)``)."""
        return self.labels.get(key)

    def card_uses(self, state: State[Any]) -> list[list[str]]:
        """Per seat: action cards played, scenarios achieved, main land, settled
        materials, largest settlement and the rules it used."""
        assert isinstance(state, UndecimState)
        n = state.num_players
        names, kinds = self.card_names, self.kind_names
        out: list[list[str]] = [[] for _ in range(n)]
        for played in state.log:
            for p, a in enumerate(played):
                out[p].append(f"played:{names[a]}")
        for j, i in enumerate(state.story):
            mask = state.ach[j][2]
            for p in range(n):
                if mask >> p & 1:
                    out[p].append(f"scenario:{self.scen_names[i]}")
        lands = range(self.n_lands)
        for p in range(n):
            keys = out[p]
            cnt = state.cnt[p]
            most = max(cnt[k] for k in lands)
            # Lands never leave play, so the end holding is the last round end's.
            keys += [f"main land:{kinds[k]}" for k in lands if most and cnt[k] == most]
            if min(cnt[k] for k in lands) >= self.full_min:
                keys.append("rule:full land set")           # ruling U6
            setl = state.setl[p]
            for mat, mask, cards in setl:
                keys += [f"settled:{kinds[self.mat0 + m]}" for m in range(mask.bit_length())
                         if mask >> m & 1]
                if mat < 0:
                    keys.append("rule:mixed settlement")    # ruling U4
                if any(state.up[c] == self.gold for c in cards):
                    keys.append("rule:gold in a settlement")  # ruling U4a
            if setl:
                size = min(max(len(x[2]) for x in setl), self.size_cap)
                keys.append(f"largest settlement:{size}{'+' if size == self.size_cap else ''}")
            else:
                keys.append("rule:no settlement")
            if cnt[self.gold]:
                keys.append("rule:gold kept to the end")   # gold × settlements (U6)
            if state.vp[p][V_ENEMY]:
                keys.append("rule:enemies cashed")  # at a Red Moon Night, ruling U5
            if state.vp[p][V_ACTION]:
                keys.append("rule:VP from an action")
        return out

    def finding_sentences(self, figures: dict[str, Any]) -> list[str]:
        """The campaign's per-season findings, each only where its interval shows it.

        Whether a season's winner goes on to win the campaign more (or less)
        often than luck would (1/players), and whether later seasons score
        differently from the first (the Story's lasting effects and the
        starting VP by rank, U1h, U7a).
        """
        seasons = figures.get("seasons") or []
        if not seasons:
            return []
        out: list[str] = []
        fair = 1.0 / self.num_players

        def pct(x: float) -> str:
            # One decimal: an interval end of 25.4 % must not read as the 25 % of luck.
            return f"{100 * x:.1f} %"

        for row in seasons[:-1]:      # the last season's winner is the campaign's
            r = row["winner_wins_campaign"]
            s = row["season"]
            if r["low"] > fair:
                # the interval right after its figure, not after the luck share
                out.append(f"The winner of season {s} goes on to win the campaign in "
                           f"{pct(r['rate'])} (95 % {100 * r['low']:.1f}–{pct(r['high'])}) "
                           f"of campaigns, where {pct(fair)} would be luck: the starting VP "
                           "by rank (U7a) carry a season's lead.")
            elif r["high"] < fair:
                out.append(f"The winner of season {s} wins the campaign in only "
                           f"{pct(r['rate'])} (95 % {100 * r['low']:.1f}–{pct(r['high'])}) "
                           f"of campaigns, where {pct(fair)} would be luck: a season's win "
                           "does not carry over.")
        first, last = seasons[0]["vp"], seasons[-1]["vp"]

        def end(v: dict[str, Any], side: str) -> float:
            # A mean of values all alike has no bounds (mean_bounds): the mean itself.
            return v["mean"] if v[side] is None else float(v[side])

        if end(last, "low") > end(first, "high") or end(last, "high") < end(first, "low"):
            more = "more" if last["mean"] > first["mean"] else "less"
            out.append(f"Season {seasons[-1]['season']} scores {more} than season 1: "
                       f"{last['mean']:.1f} VP per seat against {first['mean']:.1f} "
                       f"(of which {seasons[-1]['vp_by_source']['campaign_start']:.1f} starting "
                       "VP by rank), with the Story's lasting effects in play.")
        return out

    def standing(self, state: State[Any]) -> list[float]:
        """VP banked so far plus the end VP of what each seat holds now (U6)."""
        assert isinstance(state, UndecimState)
        return [float(t) for t in state.totals()]
