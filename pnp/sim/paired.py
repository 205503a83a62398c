"""Paired comparisons: the same deals under two rule variants, differenced game by game.

Every variant of a comparison or sweep plays games ``0 .. games-1`` with the
same deal and bot seeds. For each game the runner keeps a few outcomes (game
length, winner's margin, each seat's return and win credit, the win credit of
each ``--bots`` position); :class:`Paired` subtracts variant 0's outcome from
variant ``i``'s for the same game and keeps only sums and sums of squares of
the differences (and the smallest and largest difference and value). The paired
95% interval (mean difference ± t·sd/√n, Student t on n−1 degrees of freedom,
honest from 2 games on) is then usually much narrower than the interval from
two independent runs, because the luck of the deal cancels; both are reported
so the gain is visible. When every game gave the same difference (common
with a handful of games) the interval is a bound instead, never of zero width
(:func:`pnp.intervals.paired_interval`).
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from pnp.intervals import (none_differ_bound, paired_interval, t_interval, t_quantile,
                           welch_half_width)
from pnp.sim.multiple import holm, t_p_value


def outcome_names(num_players: int, bots: Sequence[str]) -> list[str]:
    """Names of the per-game outcome fields, in the runner's order."""
    return (["turns", "winner_margin"] + [f"score_seat{s}" for s in range(num_players)]
            + [f"win_seat{s}" for s in range(num_players)]
            + [f"win_bot{j}" for j in range(len(bots))])


class Paired:
    """Sums of per-game differences of every variant against variant 0."""

    def __init__(self, num_players: int, bots: Sequence[tuple[str, ...]]) -> None:
        """Start empty for variants whose ``--bots`` lists are ``bots``."""
        self.num_players = num_players
        self.bots = [tuple(b) for b in bots]
        k = min(len(b) for b in self.bots)
        self.names = outcome_names(num_players, self.bots[0])[:2 + 2 * num_players + k]
        width = len(self.names)
        #: Per variant: games paired, then per field [Σd, Σd², Σbase, Σbase², Σv, Σv²,
        #: smallest and largest d, of base, of v]: a fixed size however many games.
        self.n = [0] * len(self.bots)
        self.sums = [[[0.0] * 6 + [math.inf, -math.inf] * 3 for _ in range(width)]
                     for _ in self.bots]

    def add(self, variant: int, base: Sequence[tuple[float, ...]],
            other: Sequence[tuple[float, ...]]) -> None:
        """Difference one chunk: ``other`` (variant's outcomes) minus ``base`` (variant 0's).

        Chunks arrive in game order whatever ``--jobs`` is (the runner), and
        sums, minima and maxima are kept exactly as a one-process run would.
        """
        rows = self.sums[variant]
        width = len(self.names)
        for a, b in zip(base, other):
            if not a or not b:  # a failed game in either variant: not paired
                continue
            self.n[variant] += 1
            for f in range(width):
                x, y = a[f], b[f]
                d = y - x
                r = rows[f]
                r[0] += d
                r[1] += d * d
                r[2] += x
                r[3] += x * x
                r[4] += y
                r[5] += y * y
                # the extremes decide "every game alike" exactly (paired_interval)
                r[6], r[7] = min(r[6], d), max(r[7], d)
                r[8], r[9] = min(r[8], x), max(r[9], x)
                r[10], r[11] = min(r[10], y), max(r[11], y)

    def to_dict(self, variant: int) -> dict[str, Any]:
        """Mean difference per outcome with paired and unpaired 95% intervals.

        ``no_spread`` marks an outcome whose every paired difference was the
        same d: its interval is then the bound of :func:`paired_interval`,
        which needs the range a game's difference can take. For a win credit
        (a share of one game's win) that is truly −1 … +1. A length or score
        has no such limit; the bound takes ± (the observed range of the
        outcome, at least 1, plus |d|): an unseen game may move as far as
        every value seen spans and then as far again as the change did, so
        both ends of the bound lie beyond d (with the range alone, constant
        base and variant values gave a side of zero width). It is an
        assumption, stated in docs/simulation.md, not a guarantee.

        ``clipped`` marks a win-share difference whose t interval (or the
        two-runs half-width) reached past ±1 (a t on 1 degree of freedom is
        12.7 sd wide) and was cut there: a share difference cannot be larger.
        """
        n = self.n[variant]
        out: dict[str, Any] = {"games_paired": n, "differences": {}}
        for name, r in zip(self.names, self.sums[variant]):
            win = name.startswith("win_")
            mean = r[0] / n if n else 0.0
            seen = max(r[9], r[11]) - min(r[8], r[10]) if n else 0.0
            reach = 1.0 if win or not n else max(1.0, seen) + abs(mean)
            mean, low, high, flat = paired_interval(r[0], r[1], n, r[6], r[7],
                                                    lowest=-reach, highest=reach)
            # a run whose every game gave the same value has sd 0 exactly
            # (its sums would leave a residue, as the differences' do)
            bsd = t_interval(r[2], r[3], n)[1] if n and r[8] < r[9] else 0.0
            vsd = t_interval(r[4], r[5], n)[1] if n and r[10] < r[11] else 0.0
            half = welch_half_width(bsd, vsd, n)
            if half == 0.0 and n:
                # Neither run varied: two independent runs could say no more than
                # the bound (each mean within q·range of its value), not "±0".
                half = none_differ_bound(n) * reach
            clipped = False
            if win and n and (low < -1.0 or high > 1.0 or half > 1.0):
                low, high, half, clipped = max(low, -1.0), min(high, 1.0), min(half, 1.0), True
            out["differences"][name] = {
                "mean": round(mean, 6), "low": round(low, 6), "high": round(high, 6),
                "no_spread": flat, "unpaired_half_width": round(half, 6), "clipped": clipped,
                "p_value": round(_p_value(r[0], r[1], n, mean, flat, reach), 6),
                "base_mean": round(r[2] / n, 6) if n else None,
                "variant_mean": round(r[4] / n, 6) if n else None}
        return out


def _p_value(diff_total: float, diff_sq: float, n: int, mean: float, flat: bool,
             reach: float) -> float:
    """Two-sided p-value of "no change" that matches the 95 % interval the row prints.

    The paired Student t test on n − 1 degrees of freedom; when every game
    gave the same difference d (``flat``) the interval is
    :func:`~pnp.intervals.paired_interval`'s bound, which excludes 0 at
    two-sided level α while (1 − |d| / (|d| + reach))ⁿ < α / 2, so p is
    twice that power. Either way p < 0.05 exactly when the printed interval
    excludes 0; 1.0 when nothing was paired or nothing moved.
    """
    if n < 1 or (flat and mean == 0.0):
        return 1.0
    if flat:
        return min(1.0, 2.0 * (1.0 - abs(mean) / (abs(mean) + reach)) ** n)
    if n < 2:
        return 1.0
    sd = t_interval(diff_total, diff_sq, n)[1]
    if sd <= 0.0:
        return 1.0 if mean == 0.0 else 0.0
    return t_p_value(mean / (sd / math.sqrt(n)), n - 1)


def sentence_family(diffs: dict[str, Any], num_players: int, bots: Sequence[str]
                    ) -> list[str]:
    """The outcomes :func:`change_sentence` may name: the family corrected together.

    Length and, with 2+ players, winner's margin, every seat's score and win
    share, and each ``--bots`` position's win share when the bots differ;
    only outcomes something was paired for.
    """
    solo = num_players == 1
    names = ["turns"] + ([] if solo else ["winner_margin"])
    names += [f"score_seat{s}" for s in range(num_players)]
    if not solo:
        names += [f"win_seat{s}" for s in range(num_players)]
        if len(set(bots)) > 1:
            names += [f"win_bot{j}" for j in range(len(bots))]
    return [n for n in names if n in diffs and diffs[n].get("base_mean") is not None]


def row_p_value(d: dict[str, Any], games: int) -> float:
    """A difference's p-value: its own ``p_value``, or (a hand-made row without one)
    the paired t test its interval came from, on ``games`` − 1 degrees of freedom."""
    if d.get("p_value") is not None:
        return float(d["p_value"])
    half = (d["high"] - d["low"]) / 2.0
    if games < 2 or half <= 0.0:
        return 1.0 if d["mean"] == 0.0 or games < 2 else 0.0
    se = half / t_quantile(0.975, games - 1)
    return t_p_value(d["mean"] / se, games - 1)


def changes_that_hold(diffs: dict[str, Any], num_players: int, bots: Sequence[str],
                      games: int) -> set[str]:
    """The outcomes whose change holds up with the whole family tested together (Holm).

    A comparison of four seats tests some ten outcomes; each at 95 % would
    name one by chance in about four changes that do nothing. Holm's
    procedure (:mod:`pnp.sim.multiple`) keeps the chance of naming any
    unmoved outcome at 5 %; alone, an outcome holds exactly when its 95 %
    paired interval excludes 0.
    """
    names = sentence_family(diffs, num_players, bots)
    held = holm([row_p_value(diffs[n], games) for n in names])
    return {n for n, ok in zip(names, held) if ok}


#: Said after a win-share difference whose interval was cut at ±100 points.
CLIPPED = "clipped to ±100 points"


def outcome_label(name: str, bots: Sequence[str], length_unit: str = "turns") -> str:
    """``win_bot1`` with the bot it counts (``win_bot1 (random)``), the length outcome
    ``turns`` in the game's own unit (``attacks``); other names as they are."""
    if name.startswith("win_bot") and name[7:].isdigit() and int(name[7:]) < len(bots):
        return f"{name} ({bots[int(name[7:])]})"
    return length_unit if name == "turns" else name


def excludes_zero(d: dict[str, Any]) -> bool:
    """The paired interval excludes 0 (and there was something to pair)."""
    return d["base_mean"] is not None and (d["low"] > 0 or d["high"] < 0)


def shown_outcomes(diffs: dict[str, Any], num_players: int, bots: Sequence[str]) -> list[str]:
    """The outcomes a comparison shows, in :meth:`Paired.to_dict` order.

    Left out: outcomes nothing was paired for; ``win_bot*`` with one bot type
    (its "win share" is 1/N by construction); and for a solo game every
    ``win_*`` and ``winner_margin`` (every run "wins", with no margin over anyone).
    """
    one_bot = len(set(bots)) == 1
    solo = num_players == 1
    return [n for n, d in diffs.items()
            if d["base_mean"] is not None and not (one_bot and n.startswith("win_bot"))
            and not (solo and (n.startswith("win_") or n == "winner_margin"))]


def paired_text(d: dict[str, Any]) -> str:
    """A paired difference in short: ``+1.67 (-1.20 … +4.53)``, a bound marked as one.

    When every game gave the same difference the interval is the bound of
    :func:`~pnp.intervals.paired_interval`, not a t interval; the short
    form says so, as :func:`format_difference` does.
    """
    text = f"{d['mean']:+.2f} ({d['low']:+.2f} … {d['high']:+.2f}"
    return text + (", bound: every game alike)" if d.get("no_spread") else ")")


def format_difference(name: str, d: dict[str, Any], label: str | None = None) -> str:
    """One line: ``win_seat0  21.0% → 23.1%  +2.1 points (95% paired +0.9 … +3.3; …)``."""
    rate = name.startswith("win_")
    k = 100.0 if rate else 1.0
    unit = " points" if rate else ""
    sig = excludes_zero(d)
    # A win share reads as a percentage (21.0% → 23.0%), its change in points.
    base, changed = ((f"{k * d['base_mean']:7.1f}%", f"{k * d['variant_mean']:7.1f}%") if rate
                     else (f"{d['base_mean']:8.2f}", f"{d['variant_mean']:8.2f}"))
    # every game gave the same difference: the interval is a bound (paired_interval)
    how = "95% bound, every game alike" if d.get("no_spread") else "95% paired"
    clip = f"; {CLIPPED}" if d.get("clipped") else ""
    return (f"{label or name:<16} {base} → {changed}  "
            f"{k * d['mean']:+7.2f}{unit} ({how} {k * d['low']:+.2f} … "
            f"{k * d['high']:+.2f}; two independent runs would give ±"
            f"{k * d['unpaired_half_width']:.2f}{clip}){'  *' if sig else ''}")


def change_sentence(diffs: dict[str, Any], num_players: int, bots: Sequence[str],
                    games: int, length_unit: str = "turns") -> str:
    """What a rule change does, in words, saying only what its paired tests show.

    An outcome is named only when its change holds up with every outcome
    the sentence could name tested together (:func:`changes_that_hold`).

    ``diffs`` is :meth:`Paired.to_dict`'s ``differences``; ``bots`` the
    ``--bots`` list (its per-position win shares are named when bots differ);
    ``length_unit`` what the game's length counts (the game registers it).
    """
    if not games:
        return "No game finished under both rules, so nothing can be compared: see the failures."
    parts: list[str] = []
    # Only what holds up with every outcome the sentence could name, tested
    # together (the lines below star each figure on its own).
    holds = changes_that_hold(diffs, num_players, bots, games)
    t = diffs["turns"]
    if "turns" in holds:
        parts.append(f"games run {abs(t['mean']):.2f} {length_unit} "
                     f"{'longer' if t['mean'] > 0 else 'shorter'} "
                     f"({t['low']:+.2f} … {t['high']:+.2f})")
    solo = num_players == 1
    m = diffs["winner_margin"]
    if not solo and "winner_margin" in holds:
        parts.append(f"the winner's margin is {abs(m['mean']):.2f} "
                     f"{'wider' if m['mean'] > 0 else 'narrower'} "
                     f"({m['low']:+.2f} … {m['high']:+.2f})")
    scores = [(s, diffs[f"score_seat{s}"]) for s in range(num_players)]
    moved = [(s, d) for s, d in scores if f"score_seat{s}" in holds]
    if solo and moved:
        d = moved[0][1]
        parts.append(f"the score changes by {d['mean']:+.2f} ({d['low']:+.2f} … "
                     f"{d['high']:+.2f})")
    elif moved and len(moved) == num_players and len({d["mean"] > 0 for _, d in moved}) == 1:
        lo = min(abs(d["mean"]) for _, d in moved)
        hi = max(abs(d["mean"]) for _, d in moved)
        parts.append(f"every seat scores {lo:.2f}–{hi:.2f} "
                     f"{'more' if moved[0][1]['mean'] > 0 else 'less'}")
    elif moved:
        parts.append("scores change for " + ", ".join(
            f"seat {s} ({d['mean']:+.2f})" for s, d in moved) + " only")
    if not solo:
        wins = [(s, diffs[f"win_seat{s}"]) for s in range(num_players)]
        won = [(s, d) for s, d in wins if f"win_seat{s}" in holds]
        parts.append("no seat's win share moves beyond noise" if not won else ", ".join(
            f"seat {s} wins {100 * abs(d['mean']):.1f} points "
            f"{'more' if d['mean'] > 0 else 'less'} often ({100 * d['low']:+.1f} … "
            f"{100 * d['high']:+.1f})" for s, d in won))
        if len(set(bots)) > 1:
            for j, name in enumerate(bots):
                d = diffs.get(f"win_bot{j}")
                if d is not None and f"win_bot{j}" in holds:
                    parts.append(f"{name} (--bots position {j}) wins {100 * abs(d['mean']):.1f} "
                                 f"points {'more' if d['mean'] > 0 else 'less'} often")
    if not parts or parts == ["no seat's win share moves beyond noise"]:
        return f"On these {games} paired games nothing moves beyond noise."
    text = "; ".join(parts)
    return f"On the same {games} deals, {text}."
