"""Parameter sweeps: the same deal seeds played for every value of a rule parameter.

``PARAM=LO:HI:STEP`` (inclusive range) or ``PARAM=a,b,c``; several sweeps
form a grid. Every variant plays games ``0 .. games-1`` with the same seed, so
deal ``g`` is the same deal in every variant (paired seeds: differences
between rows come from the rule, not from luck of the deal).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Iterable, Mapping, Sequence

from pnp.errors import PnpError
from pnp.intervals import clip_to_range, t_interval, wilson_interval
from pnp.sim.findings import figure_dict
from pnp.sim.paired import outcome_label
from pnp.sim.report import params_text
from pnp.sim.runner import SimResult

#: Key figures every game has (:func:`key_figures`); the rest are the game's own.
GENERIC_FIGURES = ("completion", "mean_turns", "seat0_wins", "top_score_ties")



def is_rate(name: str) -> bool:
    """A key figure named ``mean…`` is a mean (printed as a number); any other is
    a rate in 0..1 (printed as a percentage): the one rule every report uses."""
    return not name.startswith("mean")


#: Most variants one sweep may ask for (a typo such as 1:1000000:1 fails fast).
MAX_VARIANTS = 200


@dataclass(frozen=True)
class Sweep:
    """One swept parameter and the values (as text, parsed by the game) it takes."""

    name: str
    values: tuple[str, ...]


def _number(text: str, spec: str) -> Decimal:
    try:
        value = Decimal(text.strip())
        if value.is_finite():
            return value
    except InvalidOperation:
        pass
    raise PnpError(f"--sweep {spec!r}: {text.strip()!r} is not a number "
                   "(expected PARAM=LO:HI:STEP or PARAM=a,b,c)")


def parse_sweep(spec: str) -> Sweep:
    """Read ``PARAM=LO:HI:STEP`` or ``PARAM=a,b,c`` (values checked later by the game)."""
    name, sep, rest = spec.partition("=")
    name = name.strip()
    if not sep or not name or not rest.strip():
        raise PnpError(f"--sweep {spec!r}: expected PARAM=LO:HI:STEP or PARAM=a,b,c, "
                       "e.g. starting_hp=10:30:2")
    if ":" in rest:
        parts = rest.split(":")
        if len(parts) != 3:
            raise PnpError(f"--sweep {spec!r}: a range is LO:HI:STEP (three numbers)")
        lo, hi, step = (_number(p, spec) for p in parts)
        if step <= 0 or hi < lo:
            raise PnpError(f"--sweep {spec!r}: expected LO ≤ HI and STEP > 0")
        try:
            span = (hi - lo) / step
            if span >= 10 ** 9:
                # int() of a span thousands of digits long cannot even be printed
                # (Python's 4300-digit limit): say "too many" before formatting it.
                raise PnpError(f"--sweep {spec!r}: over a billion values; "
                               f"at most {MAX_VARIANTS}")
            count = int(span) + 1
            if count > MAX_VARIANTS:
                raise PnpError(f"--sweep {spec!r}: {count} values; at most {MAX_VARIANTS}")
            values = tuple(str(lo + i * step) for i in range(count))
        except ArithmeticError:  # 1e999999999: beyond what Decimal computes with
            raise PnpError(f"--sweep {spec!r}: numbers too large or too small for a range; "
                           "expected PARAM=LO:HI:STEP of ordinary numbers") from None
    else:
        values = tuple(v.strip() for v in rest.split(","))
        if any(not v for v in values):
            raise PnpError(f"--sweep {spec!r}: empty value in the list")
    values = tuple(dict.fromkeys(values))
    if len(values) < 2:
        # One value has nothing to be compared with: the sweep's paired
        # differences would all be empty.
        raise PnpError(f"--sweep {spec!r}: one value; a sweep needs two or more "
                       f"(to play one value, use --param {name}={values[0]})")
    return Sweep(name, values)


def variants(sweeps: Sequence[Sweep]) -> list[dict[str, str]]:
    """Every combination of the swept values (the grid), first sweep slowest."""
    names = [s.name for s in sweeps]
    if len(set(names)) != len(names):
        raise PnpError("--sweep: each parameter may be swept once")
    grid = [dict(zip(names, combo)) for combo in itertools.product(*(s.values for s in sweeps))]
    if len(grid) > MAX_VARIANTS:
        raise PnpError(f"--sweep: {len(grid)} combinations; at most {MAX_VARIANTS}")
    return grid


def _fig(name: str, value: float, low: float, high: float) -> dict[str, Any]:
    """One key figure for the JSON: ``low``/``high`` null when every game was alike.

    A game's own mean over games that all gave one value comes back as
    ``(v, v)``; written as numbers the sweep table printed "6.00 (6.00–6.00)",
    which reads as certain (:func:`pnp.sim.findings.figure_dict`).
    """
    return figure_dict(name, value, low, high)


def figure_cell(f: dict[str, Any]) -> str:
    """A key figure as a sweep or comparison cell: ``24.1% (23.1–25.0)``, ``6.00 (6.00–7.10)``.

    A figure without an interval (every game alike, :func:`_fig`) says
    ``(all alike)``: the sweep table's note spells it out.
    """
    rate = is_rate(f["name"])
    k = 100.0 if rate else 1.0
    value = f"{k * f['value']:5.1f}%" if rate else f"{f['value']:6.2f}"
    if f.get("low") is None or f.get("high") is None:
        return f"{value} (all alike)"
    digits = ".1f" if rate else ".2f"
    return f"{value} ({k * f['low']:{digits}}–{k * f['high']:{digits}})"


def key_figures(result: SimResult, game_figures: Sequence[tuple[str, float, float, float]]
                ) -> list[dict[str, Any]]:
    """The figures of one sweep row: completion, length, ties/seat 0, the game's own."""
    t = result.totals
    m = t.completed
    rows = [_fig("completion", m / result.games, *wilson_interval(m / result.games,
                                                                   result.games))]
    total = sum(k * v for k, v in t.lengths.items())
    sq = sum(k * k * v for k, v in t.lengths.items())
    if m:  # no finished game has no length (it printed 0.00 (0.00–0.00))
        mean, _sd, lo, hi = t_interval(total, sq, m)
        rows.append(_fig("mean_turns", mean, *clip_to_range(lo, hi, 0.0)))  # never < 0
    n = result.num_players
    if n > 1 and m:
        seat0 = sum(c / (k + 1) for k, c in enumerate(t.wins[0])) / m
        rows.append(_fig("seat0_wins", seat0, *wilson_interval(seat0, m)))
        tie = t.top_ties / m
        rows.append(_fig("top_score_ties", tie, *wilson_interval(tie, m)))
    for name, value, low, high in game_figures:
        rows.append(_fig(name, value, low, high))
    return rows


def figure_label(name: str, length_unit: str = "turns",
                 labels: Mapping[str, str] | None = None) -> str:
    """A key figure's column name: ``mean_turns`` in the game's own unit (``mean_attacks``),
    a game's own figure by the name its stats give it (``labels``, :func:`figure_labels`)."""
    if labels and name in labels:
        return labels[name]
    return f"mean_{length_unit}" if name == "mean_turns" else name


def figure_labels(stats: Iterable[Any], names: Iterable[str]) -> dict[str, str]:
    """The designer's names of a game's own key figures, ``{machine name: label}``.

    A game's :class:`~pnp.games.stats.GameStats` answers ``figure_label(name)
    -> str | None`` from its ``figure_labels`` table (looked up with getattr, as
    ``card_label``): the machine name stays the
    JSON key (rulebook placeholders and saved sweeps refer to it) and the
    reports print the label. Names without a label are left out.
    """
    names = list(dict.fromkeys(names))
    out: dict[str, str] = {}
    for st in stats:
        label = getattr(st, "figure_label", None)
        if label is None:
            continue
        for name in names:
            text = label(name)
            if text and name not in out:
                out[name] = text
    return out


def format_sweep(doc: dict[str, Any]) -> str:
    """The sweep table: one row per variant, each figure with its 95% interval."""
    out = [f"{doc['title']} ({doc['slug']}): sweep of {', '.join(doc['swept'])} — "
           f"{doc['players']} player{'s' if doc['players'] != 1 else ''}, "
           f"{doc['games']} games per value, seed {doc['seed']} (same deals for every value), "
           f"bots {','.join(doc['bots'])}"]
    base = params_text(doc["fixed_params"]) if doc["fixed_params"] else ""
    if base:
        out.append(f"Other parameters: {base}")
    out.append("")
    if not doc["rows"]:
        return "\n".join(out) + "\n"
    # Every figure any row has, in order: a variant whose games all failed has
    # fewer, and its missing cells show "—" (the columns shifted under row 0's).
    names = list(dict.fromkeys(f["name"] for r in doc["rows"] for f in r["figures"]))
    key_w = max(len(params_text(r["values"], " ")) for r in doc["rows"])
    key_w = max(key_w, 5)
    unit = doc.get("length_unit") or "turns"
    labels = doc.get("figure_labels") or {}
    head = "  " + "value".ljust(key_w) + "".join(f"  {figure_label(n, unit, labels):>24}"
                                                 for n in names)
    out.append(head)
    for r in doc["rows"]:
        key = params_text(r["values"], " ")
        cells = []
        have = {f["name"]: f for f in r["figures"]}
        for name in names:
            f = have.get(name)
            cells.append("—" if f is None else figure_cell(f))
        flag = "" if r["ok"] else "  FAILURES"
        out.append("  " + key.ljust(key_w) + "".join(f"  {c:>24}" for c in cells) + flag)
    out.append("")
    out.append("Figures are rates with 95% Wilson intervals, or means with 95% Student t "
               "intervals (names starting with mean), cut to the values a figure can take; "
               "(all alike): every game gave the same value, so there is no interval.")
    paired = [r for r in doc["rows"] if r.get("paired")]
    if paired:
        solo = doc["players"] == 1
        names = ["turns", "score_seat0"] if solo else ["turns", "winner_margin", "win_seat0"]
        first = params_text(doc["rows"][0]["values"], " ")
        out.append("")
        out.append(f"Paired differences against {first} (the same deals; 95% intervals):")
        out.append("  " + "value".ljust(key_w) + "".join(
            f"  {outcome_label(n, doc['bots'], unit):>26}" for n in names))
        for r in paired:
            key = params_text(r["values"], " ")
            cells = []
            for n in names:
                d = r["paired"]["differences"][n]
                k = 100.0 if n.startswith("win_") else 1.0
                # No game finished in both rows: nothing was paired, nothing to show.
                cells.append("—" if not r["paired"]["games_paired"] else
                             f"{k * d['mean']:+.2f} ({k * d['low']:+.2f} … {k * d['high']:+.2f})")
            out.append("  " + key.ljust(key_w) + "".join(f"  {c:>26}" for c in cells))
        if not solo:
            out.append("  (win_seat0 in percentage points)")
    return "\n".join(out) + "\n"
