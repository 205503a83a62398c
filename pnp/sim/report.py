"""Turn a :class:`~pnp.sim.runner.SimResult` into a JSON-ready dict and text.

All statistics except completion and failures are computed over the games
that completed. Win shares split ties evenly: a game won by k seats gives
each of them 1/k (never argmax, which would hand every tie to the lowest seat
and fake a first-player advantage). Intervals are 95% Wilson score intervals.
The dict is deterministic (same seed → same dict, whatever ``jobs`` was);
timings are not part of it.
"""

from __future__ import annotations

import math
import statistics
from typing import Any, Sequence

from pnp.sim.bots import mixed
from pnp.sim.runner import SimResult

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054
#: A seat edge is flagged only when the gap from 1/N exceeds this (3 points).
EDGE_MIN_GAP = 0.03
INTERVAL_METHOD = "Wilson score, 95%"


def wilson_interval(share: float, n: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval for a proportion ``share`` observed over ``n`` trials.

    ``share`` may be fractional-credit based (split ties); treating it as a
    binomial proportion is then slightly conservative.
    """
    if n <= 0:
        return 0.0, 1.0
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (share + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(max(share * (1 - share), 0.0) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def seat_edge(share: float, low: float, high: float, num_players: int,
              min_gap: float = EDGE_MIN_GAP) -> bool:
    """True when [low, high] excludes 1/N and ``share`` is > ``min_gap`` from it."""
    fair = 1.0 / num_players
    # The 1e-9 slack keeps a gap of exactly 3 points (0.28 - 0.25 is
    # 0.030000000000000027 in floating point) from being flagged.
    return (low > fair or high < fair) and abs(share - fair) > min_gap + 1e-9


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100) of already sorted values."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(q / 100.0 * len(sorted_values)))
    return sorted_values[rank - 1]


def _r(x: float) -> float:
    """Round for a stable, readable JSON body."""
    return round(float(x), 6)


def build_report(result: SimResult) -> dict[str, Any]:
    """The deterministic report dict (``--json`` body) for ``result``."""
    n = result.num_players
    done = [r for r in result.records if r.completed]
    m = len(done)
    fair = 1.0 / n

    lengths = sorted(r.length for r in done)
    length = ({"min": lengths[0], "median": _r(statistics.median(lengths)),
               "p95": percentile(lengths, 95), "max": lengths[-1],
               "mean": _r(statistics.fmean(lengths))} if lengths else None)

    credit = [0.0] * n
    draws = 0
    margins: list[float] = []
    for r in done:
        k = len(r.winners)
        for w in r.winners:
            credit[w] += 1.0 / k
        if k > 1:
            draws += 1
        others = [r.returns[s] for s in range(n) if s not in r.winners]
        margins.append(max(r.returns[w] for w in r.winners) - max(others) if others else 0.0)

    seats = []
    for s in range(n):
        scores = [r.returns[s] for r in done]
        share = credit[s] / m if m else 0.0
        low, high = wilson_interval(share, m)
        dec = sum(r.decisions[s] for r in done)
        real = sum(r.real_choices[s] for r in done)
        seats.append({
            "seat": s,
            "score_mean": _r(statistics.fmean(scores)) if scores else None,
            "score_sd": _r(statistics.stdev(scores)) if len(scores) > 1 else None,
            "win_share": _r(share), "ci_low": _r(low), "ci_high": _r(high),
            "edge": bool(m) and seat_edge(share, low, high, n),
            "decisions_per_game": _r(dec / m) if m else None,
            "real_choice_share": _r(real / dec) if dec else None,
            "games_without_decision": sum(1 for r in done if r.decisions[s] == 0),
        })

    total_dec = sum(sum(r.decisions) for r in done)
    total_real = sum(sum(r.real_choices) for r in done)

    events = {}
    for i, name in enumerate(result.event_names):
        counts = [r.events[i] for r in done]
        events[name] = {"total": sum(counts),
                        "per_game": _r(sum(counts) / m) if m else None,
                        "games_share": _r(sum(1 for c in counts if c) / m) if m else None}

    kinds = {k: sum(1 for f in result.failures if f.kind == k)
             for k in ("invariant", "error", "step_cap")}
    return {
        "game": {"slug": result.slug, "title": result.title,
                 "params": {k: result.params[k] for k in sorted(result.params)}},
        "config": {"players": n, "games": result.games, "bots": list(result.bots),
                   "seat_rotation": mixed(result.bots), "seed": result.seed,
                   "check_invariants": result.check_invariants,
                   "apply_check_limit": result.apply_check_limit,
                   "step_cap": result.step_cap, "interval": INTERVAL_METHOD,
                   "edge_min_gap": EDGE_MIN_GAP},
        "ok": not result.failures,
        "completion": {"games": result.games, "completed": m,
                       "rate": _r(m / result.games) if result.games else 0.0,
                       "failures": kinds},
        "length_turns": length,
        "decisions": {"total": total_dec, "real_choice": total_real,
                      "real_choice_share": _r(total_real / total_dec) if total_dec else None},
        "seats": seats,
        "fair_share": _r(fair),
        "draw_rate": _r(draws / m) if m else None,
        "winner_margin_mean": _r(statistics.fmean(margins)) if margins else None,
        "events": events,
        "bots": _bot_stats(result, done) if mixed(result.bots) else None,
        "failures": [{"kind": f.kind, "game_index": f.game_index, "seed": f.seed,
                      "deal_seed": f.deal_seed, "seats": list(f.seats),
                      "message": f.message, "actions": f.actions,
                      "action_texts": f.action_texts} for f in result.failures],
    }


def _bot_stats(result: SimResult, done: list) -> dict[str, Any]:
    """Win share per bot (per seat-game) and pairwise head-to-head results.

    Head-to-head A vs B: over every pair of seats (A's, B's) in the same game,
    the share of pairs in which A's seat finished ahead, ranking seats by
    (is a winner, return) and counting equal ranks as half.
    """
    n = result.num_players
    names = sorted(set(result.bots))
    seat_games = {b: 0 for b in names}
    credit = {b: 0.0 for b in names}
    pair_score = {a: {b: 0.0 for b in names if b != a} for a in names}
    pair_count = {a: {b: 0 for b in names if b != a} for a in names}
    for r in done:
        k = len(r.winners)
        rank = [((s in r.winners), r.returns[s]) for s in range(n)]
        for s, bot in enumerate(r.seats):
            seat_games[bot] += 1
            if s in r.winners:
                credit[bot] += 1.0 / k
        for s in range(n):
            a = r.seats[s]
            for t in range(n):
                b = r.seats[t]
                if a == b:
                    continue
                pair_count[a][b] += 1
                if rank[s] > rank[t]:
                    pair_score[a][b] += 1.0
                elif rank[s] == rank[t]:
                    pair_score[a][b] += 0.5
    win = {}
    for b in names:
        g = seat_games[b]
        share = credit[b] / g if g else 0.0
        low, high = wilson_interval(share, g)
        win[b] = {"seat_games": g, "win_share": _r(share), "ci_low": _r(low),
                  "ci_high": _r(high)}
    h2h = {a: {b: (_r(pair_score[a][b] / pair_count[a][b]) if pair_count[a][b] else None)
               for b in pair_score[a]} for a in names}
    return {"names": names, "win": win, "head_to_head": h2h,
            "head_to_head_method": "share of seat pairs finishing ahead "
                                   "(winner first, then return; equal = half)"}


def _pct(x: float | None) -> str:
    """Format a share as a percentage."""
    return "—" if x is None else f"{100 * x:.1f}%"


def _num(x: float | None, nd: int = 2) -> str:
    """Format a number or a dash."""
    return "—" if x is None else f"{x:.{nd}f}"


def format_report(rep: dict[str, Any], max_trace_lines: int = 12,
                  max_failures: int = 10) -> str:
    """Readable text version of a :func:`build_report` dict."""
    cfg, comp = rep["config"], rep["completion"]
    g = rep["game"]
    out: list[str] = []
    params = ", ".join(f"{k}={v}" for k, v in g["params"].items()) or "defaults"
    out.append(f"{g['title']} ({g['slug']}): {cfg['players']} players, "
               f"{cfg['games']} games, seed {cfg['seed']}, bots {','.join(cfg['bots'])}"
               + (" (seats rotated each game)" if cfg["seat_rotation"] else ""))
    out.append(f"Parameters: {params}")
    if cfg["check_invariants"]:
        which = ("all legal actions" if cfg["apply_check_limit"] is None
                 else f"up to {cfg['apply_check_limit']} legal actions")
        out.append(f"Invariants: checked at every step ({which} applied to clones); "
                   f"step cap {cfg['step_cap']}")
    else:
        out.append(f"Invariants: not checked; step cap {cfg['step_cap']}")
    out.append("")
    f = comp["failures"]
    out.append(f"Completion: {comp['completed']}/{comp['games']} games ended "
               f"({_pct(comp['rate'])}); invariant failures {f['invariant']}, "
               f"errors {f['error']}, step cap hits {f['step_cap']}")
    ln = rep["length_turns"]
    if ln is None:
        out.append("No game completed; no statistics.")
    else:
        out.append(f"Length (turns): min {ln['min']}, median {ln['median']:g}, "
                   f"p95 {ln['p95']}, max {ln['max']} (mean {ln['mean']:.1f})")
        d = rep["decisions"]
        out.append(f"Decisions: {d['total']} taken, {_pct(d['real_choice_share'])} "
                   "with a real choice (≥ 2 legal actions)")
        out.append(f"Draws (shared wins): {_pct(rep['draw_rate'])} of games; "
                   f"winner's margin: mean {_num(rep['winner_margin_mean'])}")
        out.append("")
        out.append(f"Seats (win shares split ties evenly; {cfg['interval']} interval; "
                   f"fair share {_pct(rep['fair_share'])}):")
        out.append("  seat  score mean     sd   win share   95% interval     "
                   "decisions/game  real choice")
        for s in rep["seats"]:
            flag = "  EDGE" if s["edge"] else ""
            out.append(f"  {s['seat']:>4}  {_num(s['score_mean']):>10} {_num(s['score_sd']):>6}"
                       f"   {_pct(s['win_share']):>9}   {_pct(s['ci_low']):>6}–"
                       f"{_pct(s['ci_high']):<6}   {_num(s['decisions_per_game'], 1):>14}"
                       f"  {_pct(s['real_choice_share']):>11}{flag}")
            if s["games_without_decision"]:
                out.append(f"        seat {s['seat']} made no decision in "
                           f"{s['games_without_decision']} games")
        edges = [s["seat"] for s in rep["seats"] if s["edge"]]
        out.append("  Seat edge: " + (f"seats {edges} (interval excludes fair share and "
                                      "gap > 3 points)" if edges else "none flagged"))
        if cfg["seat_rotation"]:
            out.append("  (mixed bots: seat shares also reflect which bots sat next to "
                       "each other; judge seat balance with a single bot type)")
        if rep["events"]:
            out.append("")
            w = max(14, *(len(name) for name in rep["events"]))
            out.append(f"Events:\n  {'name':<{w}} {'total':>8}  {'per game':>9}"
                       f"  {'in games':>9}")
            for name, e in rep["events"].items():
                out.append(f"  {name:<{w}} {e['total']:>8}  {_num(e['per_game']):>9}"
                           f"  {_pct(e['games_share']):>9}")
        b = rep["bots"]
        if b:
            out.append("")
            out.append("Bots (win share per seat-game, ties split):")
            for name in b["names"]:
                w = b["win"][name]
                out.append(f"  {name:<10} {_pct(w['win_share']):>7}  "
                           f"({_pct(w['ci_low'])}–{_pct(w['ci_high'])}, "
                           f"{w['seat_games']} seat-games)")
            out.append("Head-to-head (row finishes ahead of column):")
            out.append("  " + " " * 10 + "".join(f"{c:>10}" for c in b["names"]))
            for a in b["names"]:
                cells = "".join(f"{'—' if a == c else _pct(b['head_to_head'][a][c]):>10}"
                                for c in b["names"])
                out.append(f"  {a:<10}{cells}")
    out.append("")
    if not rep["failures"]:
        out.append("Failures: none")
    else:
        out.append(f"Failures ({len(rep['failures'])}; replay a trace with "
                   "pnp.sim.replay(game, players, deal_seed, actions)):")
        for fl in rep["failures"][:max_failures]:
            out.append(f"  game {fl['game_index']} [{fl['kind']}] seed {fl['seed']} "
                       f"(deal seed {fl['deal_seed']}, bots {','.join(fl['seats'])}): "
                       f"{fl['message']}")
            acts = fl["actions"]
            if acts is None:
                continue
            out.append(f"    trace ({len(acts)} actions): {acts[:40]}"
                       + (" …" if len(acts) > 40 else ""))
            texts = fl["action_texts"] or []
            shown = texts[-max_trace_lines:]
            for i, t in enumerate(shown, start=len(texts) - len(shown)):
                out.append(f"      {i:>5}. {t}")
        if len(rep["failures"]) > max_failures:
            out.append(f"  … {len(rep['failures']) - max_failures} more (see --json)")
    return "\n".join(out) + "\n"
