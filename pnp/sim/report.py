"""Turn a :class:`~pnp.sim.runner.SimResult` into a JSON-ready dict and text.

All statistics except completion and failures are over the games that
completed. Seat wins are shown two ways: as the rules decide them
(``winners()``, the rulebook's tie-break applied; a shared win gives each
co-winner 1/k) and with every tie on top score split evenly (what the seat
order alone would give if the tie-break did not exist), with the tie rates.
Seat balance is judged by one chi-square test over all seats; when it
rejects equal shares, a seat is flagged when its own test against 1/N holds
up with the other seats' (Holm's correction, :mod:`pnp.sim.multiple`).
Intervals are 95% Wilson score intervals for shares and Student t intervals
(n − 1 degrees of freedom) for means: honest from 2 games on, where a normal
interval is 6.5 times too narrow. The dict is deterministic (same seed →
same dict, whatever ``jobs`` was); timings are not part of it.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from pnp.intervals import (chi_square_uniform, clip_to_range, ratio_mean_interval,
                           share_over_games,
                           t_interval, wilson_interval)
from pnp.sim.aggregate import Aggregate
from pnp.sim.bots import mixed
from pnp.sim.findings import (OPEN_RANGE, ScoreRange, card_table, clipped, drama_figures,
                              event_labels, fired_share, format_findings, pad, text_width,
                              interval_text, no_spread, rule_table, sentences)
from pnp.sim.multiple import METHOD, holm, wilson_p_value
from pnp.sim.runner import SimResult

INTERVAL_METHOD = "Wilson score, 95% (shares); Student t, 95%, n - 1 df (means)"
#: Bots' intervals count games, not seat-games (pnp.intervals.share_over_games).
BOT_INTERVAL_METHOD = ("over games (a bot's seats in one game are not independent): "
                       "Wilson score, 95%, of its share of each game's win, per seat; "
                       "Student t, 95%, cluster-robust, of its mean score per seat")
#: How a card or rule key is flagged (pnp.sim.findings.card_table).
CARD_FLAG_METHOD = ("against the group average (every use of the group's keys pooled; "
                    "clustered by game): dominant when (key - 1.2 x average) lies above 0, "
                    "trap when (key - average / 1.2) lies below 0, each tested by the "
                    "cluster-robust Student t of that difference (p_value: twice the "
                    "one-sided p; alone, p < 0.05 is the 95% interval excluding 0); every "
                    "key with at least 30 seat-games is tested, and the family is corrected "
                    "by Holm's step-down procedure (p_holm; flagged when p_holm <= 0.05, "
                    "family-wise error 5%); solo games on mean score")
#: Significance level of the seat-balance test.
SEAT_TEST_ALPHA = 0.05
SEAT_TEST_METHOD = "chi-square goodness of fit of rules-decided wins against 1/N"
#: How a single seat is then named (pnp.sim.multiple).
SEAT_CORRECTION = ("each seat's score test against 1/N (the test its Wilson interval "
                   f"inverts), {METHOD}")


def percentile_hist(hist: dict[int, int], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100) of values given as value → count."""
    total = sum(hist.values())
    if not total:
        return 0.0
    rank = max(1, math.ceil(q / 100.0 * total))
    seen = 0
    for value in sorted(hist):
        seen += hist[value]
        if seen >= rank:
            return value
    return max(hist)


def median_hist(hist: dict[int, int]) -> float:
    """Median of values given as value → count (mean of the middle two when even)."""
    total = sum(hist.values())
    if not total:
        return 0.0
    if total % 2:
        return percentile_hist(hist, 50)
    lo_rank, hi_rank = total // 2, total // 2 + 1
    values = []
    seen = 0
    for value in sorted(hist):
        before = seen
        seen += hist[value]
        for r in (lo_rank, hi_rank):
            if before < r <= seen:
                values.append(value)
    return (values[0] + values[-1]) / 2


def _r(x: float) -> float:
    """Round for a stable, readable JSON body."""
    return round(float(x), 6)


def _credit(row: Sequence[int]) -> float:
    """Win credit from counts by number of co-winners (row[k-1] games shared by k)."""
    return sum(c / (k + 1) for k, c in enumerate(row))


def seat_balance(credits: Sequence[float], games: int) -> dict[str, Any]:
    """The seat-balance test and the seats it flags (see module docstring).

    Once the chi-square test rejects equal shares, each seat is tested
    against 1/N by the score test its Wilson interval inverts (alone, p <
    0.05 is exactly "the 95 % interval excludes 1/N"), and the N seats are
    corrected together by Holm's procedure (:mod:`pnp.sim.multiple`): with
    four seats each tested at 5 %, some seat would be named by chance far
    more often than one time in twenty.
    """
    n = len(credits)
    fair = 1.0 / n
    stat, df, p = chi_square_uniform(list(credits))
    significant = n > 1 and games > 0 and p < SEAT_TEST_ALPHA
    seat_p = [wilson_p_value(c / games if games else 0.0, fair, games) for c in credits]
    held = holm(seat_p)
    flagged = [s for s in range(n) if significant and held[s]]
    return {"method": SEAT_TEST_METHOD, "statistic": _r(stat), "df": df,
            "p_value": _r(p), "alpha": SEAT_TEST_ALPHA, "significant": significant,
            "seat_p_values": [_r(x) for x in seat_p],
            "seat_correction": f"{SEAT_CORRECTION} over {n} seats",
            "flagged": flagged}


def build_report(result: SimResult, length_unit: str = "turns") -> dict[str, Any]:
    """The deterministic report dict (``--json`` body) for ``result``.

    ``length_unit`` is what the game's length counts, as the game registered
    it (:attr:`pnp.games.registry.GameEntry.length_unit`); the key
    ``length_turns`` keeps its name whatever the unit.
    """
    t: Aggregate = result.totals
    n = result.num_players
    m = t.completed
    fair = 1.0 / n

    lengths = t.lengths
    length = None
    if m:
        mean_len = sum(k * v for k, v in lengths.items()) / m
        length = {"min": min(lengths), "median": _r(median_hist(lengths)),
                  "p95": percentile_hist(lengths, 95), "max": max(lengths),
                  "mean": _r(mean_len),
                  "histogram": {str(k): v for k, v in sorted(lengths.items())}}

    # the values a score can take (the game's stats say; VP are never negative)
    bounds = getattr(t.stats, "score_range", None) or OPEN_RANGE
    rules_credit = [_credit(t.wins[s]) for s in range(n)]
    split_credit = [_credit(t.top[s]) for s in range(n)]
    seats = []
    for s in range(n):
        mean, sd, lo, hi = t_interval(t.score_sum[s], t.score_sq[s], m)
        lo, hi = clip_to_range(lo, hi, *bounds)
        # one game, or every game the same score: no interval (interval_text says why)
        spread = m >= 2 and not no_spread(mean, sd, len(t.score_hist[s]))
        share = rules_credit[s] / m if m else 0.0
        low, high = wilson_interval(share, m)
        split = split_credit[s] / m if m else 0.0
        slow, shigh = wilson_interval(split, m)
        seats.append({
            "seat": s,
            "score_mean": _r(mean) if m else None, "score_sd": _r(sd) if m > 1 else None,
            "score_ci_low": _r(lo) if spread else None,
            "score_ci_high": _r(hi) if spread else None,
            "win_share": _r(share), "ci_low": _r(low), "ci_high": _r(high),
            "split_share": _r(split), "split_ci_low": _r(slow), "split_ci_high": _r(shigh),
            "decisions_per_game": _r(t.decisions[s] / m) if m else None,
            "score_histogram": {str(k): v for k, v in sorted(t.score_hist[s].items())},
            "games_without_decision": t.no_decision[s],
        })
    balance = seat_balance(rules_credit, m) if n > 1 else None
    for row in seats:
        row["edge"] = bool(balance and row["seat"] in balance["flagged"])

    total_dec = sum(row[0] for row in t.phases.values())
    total_legal = sum(row[1] for row in t.phases.values())
    total_real = sum(row[2] for row in t.phases.values())
    by_phase = {name: {"decisions": row[0], "mean_legal": _r(row[1] / row[0]) if row[0] else None,
                       "choice_share": _r(row[2] / row[0]) if row[0] else None}
                for name, row in sorted(t.phases.items())}

    events = {}
    for i, name in enumerate(result.event_names):
        total, games = t.events[i]
        events[name] = {"total": total, "games": games,
                        "per_game": _r(total / m) if m else None,
                        "games_share": _r(games / m) if m else None}

    margin_mean = t.margin_sum / m if m else None
    figures = None
    if t.stats is not None and m:
        data = t.stats.to_dict()
        figures = {"title": t.stats.title, "figures": data}

    kinds = {k: t.failure_kinds.get(k, 0) for k in ("invariant", "error", "step_cap")}
    length_sum = sum(k * v for k, v in lengths.items())
    findings: dict[str, Any] = {
        "cards": card_table(t.cards, n, t.card_groups, bounds,
                            getattr(t.stats, "card_label", None)),
        "rules": rule_table(result.event_names, t.events, t.event_games, m, t.margin_sum,
                            length_sum, t.best_sum,
                            squares=(sum(k * k * v for k, v in lengths.items()), t.margin_sq,
                                     t.best_sq)),
        "drama": drama_figures(t.drama),
        # how a card row's flag was decided, for readers of the JSON alone
        "card_flag_method": CARD_FLAG_METHOD,
        "sentences": [],
    }
    rep = {
        "game": {"slug": result.slug, "title": result.title,
                 "params": {k: result.params[k] for k in sorted(result.params)}},
        "config": {"players": n, "games": result.games, "bots": list(result.bots),
                   "seat_rotation": mixed(result.bots), "seed": result.seed,
                   "score_unit": getattr(t.stats, "score_unit", "") or "",
                   "length_unit": length_unit,
                   "invariants": result.invariants, "step_cap": result.step_cap,
                   "interval": INTERVAL_METHOD},
        "ok": result.ok,
        "completion": {"games": result.games, "completed": m,
                       "rate": _r(m / result.games) if result.games else 0.0,
                       "failures": kinds},
        "length_turns": length,
        "decisions": {"total": total_dec, "with_choice": total_real,
                      "choice_share": _r(total_real / total_dec) if total_dec else None,
                      "mean_legal": _r(total_legal / total_dec) if total_dec else None,
                      "by_phase": by_phase},
        "seats": seats,
        "fair_share": _r(fair),
        "seat_balance": balance,
        "ties": {"shared_win_rate": _r(t.shared_wins / m) if m else None,
                 "top_score_tie_rate": _r(t.top_ties / m) if m else None},
        "winner_margin_mean": _r(margin_mean) if margin_mean is not None else None,
        "events": events,
        # the game's names for its rule events; the keys above stay machine names
        "event_labels": event_labels(t.stats, result.event_names),
        "bots": _bot_stats(t, bounds) if mixed(result.bots) else None,
        "game_figures": figures,
        "failures": [{"kind": f.kind, "game_index": f.game_index, "seed": f.seed,
                      "deal_seed": f.deal_seed, "seats": list(f.seats),
                      "message": f.message, "actions": f.actions,
                      "action_texts": f.action_texts} for f in t.failures],
        "failures_not_kept": sum(kinds.values()) - len(t.failures),
        "findings": findings,
    }
    findings["sentences"] = sentences(rep)
    # A game's own sentences about its own figures (optional GameStats hook,
    # found by name like card_uses and standing); generic code words none.
    own = getattr(t.stats, "finding_sentences", None)
    if figures is not None and own is not None:
        findings["sentences"].extend(own(figures["figures"]))
    return rep


def _bot_stats(t: Aggregate, bounds: ScoreRange = OPEN_RANGE) -> dict[str, Any]:
    """Win share per bot (per seat-game) and pairwise head-to-head results.

    Head-to-head A vs B: over every pair of seats (A's, B's) in the same game,
    the share of pairs in which A's seat finished ahead, ranking seats by
    (is a winner, return) and counting equal ranks as half.
    """
    names = sorted(t.bot_games)
    win = {}
    for b in names:
        g = t.bot_games[b]
        credit = _credit(t.bot_wins[b])
        share = credit / g if g else 0.0
        # over games, not seat-games: a bot's seats in one game are not
        # independent (share_over_games, ratio_mean_interval)
        games, seats_sq, sum_sq, cross = t.bot_by_game.get(b, [0, 0.0, 0.0, 0.0])
        low, high = share_over_games(credit, g, int(games))
        ssum = t.bot_score.get(b, [0.0, 0.0])[0]
        mean, slo, shi = ratio_mean_interval(ssum, g, int(games), seats_sq, sum_sq, cross)
        slo, shi = clipped(slo, shi, bounds)
        win[b] = {"seat_games": g, "games": int(games), "win_share": _r(share),
                  "ci_low": _r(low), "ci_high": _r(high), "score_mean": _r(mean),
                  "score_ci_low": None if slo is None else _r(slo),
                  "score_ci_high": None if shi is None else _r(shi)}
    h2h = {a: {b: (_r(t.pairs[(a, b)][1] / (2 * t.pairs[(a, b)][0]))
                   if (a, b) in t.pairs and t.pairs[(a, b)][0] else None)
               for b in names if b != a} for a in names}
    return {"names": names, "win": win, "head_to_head": h2h,
            "interval_method": BOT_INTERVAL_METHOD,
            "head_to_head_method": "share of seat pairs finishing ahead "
                                   "(winner first, then return; equal = half)"}


def param_value(value: Any) -> str:
    """A rule parameter's value as the command line takes it (``yes``/``no``, not ``True``).

    ``--param all_in=yes`` is how a designer sets it; a report that echoes
    ``all_in=True`` suggests a spelling of its own (pnp.games.api.Param.parse
    takes both).
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def params_text(params: dict[str, Any], sep: str = ", ") -> str:
    """``all_in=yes, end_deck_size=7``; an empty value is named, not printed as ``story=``.

    A text parameter left empty means "the game's default" (Undecim's
    ``story``: the season-1 cards), so it is said that way after the set
    ones; no parameters at all read ``defaults``.
    """
    given = [f"{k}={param_value(v)}" for k, v in params.items() if str(v).strip()]
    unset = [k for k, v in params.items() if not str(v).strip()]
    text = sep.join(given)
    if unset:
        text += ("; " if text else "") + f"{', '.join(unset)} not set (the game's default)"
    return text or "defaults"


def _pct(x: float | None) -> str:
    """Format a share as a percentage."""
    return "—" if x is None else f"{100 * x:.1f}%"


def _p(p: float) -> str:
    """A p-value as ``= 0.031`` or ``< 0.000001``."""
    return "< 0.000001" if p < 1e-6 else f"= {p:.3g}"


def _num(x: float | None, nd: int = 2) -> str:
    """Format a number or a dash."""
    return "—" if x is None else f"{x:.{nd}f}"


def format_report(rep: dict[str, Any], max_trace_lines: int = 12, max_failures: int = 10,
                  figure_lines: Sequence[str] = ()) -> str:
    """Readable text version of a :func:`build_report` dict.

    ``figure_lines`` are the game's own report lines (its registered
    :class:`~pnp.games.stats.GameStats` formats them).
    """
    cfg, comp = rep["config"], rep["completion"]
    g = rep["game"]
    out: list[str] = []
    params = params_text(g["params"])
    out.append(f"{g['title']} ({g['slug']}): {cfg['players']} player"
               f"{'s' if cfg['players'] != 1 else ''}, {cfg['games']} games, seed "
               f"{cfg['seed']}, bots {','.join(cfg['bots'])}"
               + (" (seats rotated each game)" if cfg["seat_rotation"] else ""))
    out.append(f"Parameters: {params}")
    said = (rep.get("findings") or {}).get("sentences") or []
    if said:
        out.append("")
        out.append("Findings (read these first; the numbers follow):")
        out.extend(f"  - {line}" for line in said)
        out.append("")
    inv = cfg["invariants"]
    out.append({"full": "Invariants: full (every legal action applied to a clone at every "
                        "step; every game replayed)",
                "sample": "Invariants: sample (conservation and action order every step; "
                          "every legal action applied to a clone for the first games, "
                          "then one on a random step in 8; one game in 16 replayed)",
                "off": "Invariants: off"}[inv] + f"; step cap {cfg['step_cap']}")
    out.append("")
    f = comp["failures"]
    out.append(f"Completion: {comp['completed']}/{comp['games']} games ended "
               f"({_pct(comp['rate'])}); invariant failures {f['invariant']}, "
               f"errors {f['error']}, step cap hits {f['step_cap']}")
    ln = rep["length_turns"]
    if ln is None:
        out.append("No game completed; no statistics.")
    else:
        out.append(f"Length ({cfg.get('length_unit') or 'turns'}): min {ln['min']}, "
                   f"median {ln['median']:g}, "
                   f"p95 {ln['p95']}, max {ln['max']} (mean {ln['mean']:.1f})")
        d = rep["decisions"]
        out.append(f"Decisions: {d['total']} taken; {_num(d['mean_legal'])} legal actions "
                   f"on average; {_pct(d['choice_share'])} with 2+ options")
        for name, ph in d["by_phase"].items():
            out.append(f"  {name:<18} {ph['decisions']:>10} decisions  "
                       f"{_num(ph['mean_legal']):>7} options  "
                       f"{_pct(ph['choice_share']):>6} with 2+")
        _format_seats(rep, out)
        if rep["events"]:
            out.append("")
            # The designer's name first; the machine name last, as the JSON and
            # the engine's code spell it (the one to search for).
            labels = rep.get("event_labels") or {}
            w = max(14, *(text_width(labels.get(name) or name) for name in rep["events"]))
            out.append(f"Events (how often each rule fired; last column: its name in the "
                       f"JSON):\n  {pad('event', w)} {'total':>8}  {'per game':>9}"
                       f"  {'in games':>9}  name")
            for name, e in rep["events"].items():
                # never "100.0%" for an event that missed a game (fired_share)
                label = labels.get(name)
                out.append(f"  {pad(label or name, w)} {e['total']:>8}  "
                           f"{_num(e['per_game']):>9}"
                           f"  {fired_share(e['games'], comp['completed']):>9}"
                           + (f"  {name}" if label else ""))
        numbers = format_findings(rep)
        if numbers:
            out.append("")
            out.extend(numbers)
        if figure_lines:
            out.append("")
            out.append(f"{rep['game_figures']['title']}:")
            out.extend("  " + line for line in figure_lines)
        _format_bots(rep, out)
    out.append("")
    _format_failures(rep, out, max_failures, max_trace_lines)
    return "\n".join(out) + "\n"


def _format_seats(rep: dict[str, Any], out: list[str]) -> None:
    """The seat table, tie rates and balance test."""
    cfg = rep["config"]
    unit = cfg.get("score_unit") or ""
    if cfg["players"] == 1:
        s = rep["seats"][0]
        spread = interval_text(s, rep["completion"]["completed"])
        spread = f"(95% {spread[1:]}" if s["score_ci_low"] is not None else spread
        out.append(f"Score{f' ({unit})' if unit else ''}: mean {_num(s['score_mean'])} "
                   f"{spread}, sd {_num(s['score_sd'])}")
        return
    ties = rep["ties"]
    out.append(f"Ties: top score shared in {_pct(ties['top_score_tie_rate'])} of games; "
               f"shared wins after the rulebook tie-break {_pct(ties['shared_win_rate'])}; "
               f"winner's margin: mean {_num(rep['winner_margin_mean'])}")
    out.append("")
    # Seats are numbered from 0 in the engines' turn order; a designer thinks
    # "first player", so the header says which seat that is.
    out.append(f"Seats (seat 0 is the start player; fair share {_pct(rep['fair_share'])}; "
               "95% intervals):")
    out.append("  seat  " + f"{unit or 'score'} mean (95% interval)".ljust(26) + "    sd  "
               + "wins by the rules".ljust(24) + "ties split evenly".ljust(24)
               + "decisions/game")
    for s in rep["seats"]:
        flag = "  EDGE" if s["edge"] else ""
        score = f"{_num(s['score_mean'])} {interval_text(s, rep['completion']['completed'])}"
        rules = f"{_pct(s['win_share'])} ({_pct(s['ci_low'])}–{_pct(s['ci_high'])})"
        split = (f"{_pct(s['split_share'])} ({_pct(s['split_ci_low'])}–"
                 f"{_pct(s['split_ci_high'])})")
        out.append(f"  {s['seat']:>4}  {score:<26}{_num(s['score_sd']):>6}  {rules:<24}"
                   f"{split:<24}{_num(s['decisions_per_game'], 1):>14}{flag}")
        if s["games_without_decision"]:
            out.append(f"        seat {s['seat']} made no decision in "
                       f"{s['games_without_decision']} games")
    b = rep["seat_balance"]
    if b:
        verdict = ("seats differ: " + ", ".join(
            f"seat {s} ({'above' if rep['seats'][s]['win_share'] > rep['fair_share'] else 'below'}"
            " the fair share)" for s in b["flagged"]) if b["significant"] and b["flagged"]
            else (f"seats differ, but no single seat stands out once the {len(rep['seats'])} "
                  "seats are tested together (Holm)")
            if b["significant"] else "no seat edge detected")
        out.append(f"  Seat balance: chi-square {b['statistic']:.2f} on {b['df']} df, "
                   f"p {_p(b['p_value'])} → {verdict}")
    if cfg["seat_rotation"]:
        out.append("  (mixed bots: seat shares also reflect which bots sat next to "
                   "each other; judge seat balance with a single bot type)")


def _format_bots(rep: dict[str, Any], out: list[str]) -> None:
    """Per-bot win shares and the head-to-head table."""
    b = rep["bots"]
    if not b:
        return
    out.append("")
    if rep["config"]["players"] == 1:
        # Solo: every run "wins"; bots take turns game by game, so their runs
        # are different deals (compare on the same deals with --ladder).
        out.append("Bots (mean score per run; alternate games, so different deals):")
        for name in b["names"]:
            w = b["win"][name]
            # the interval's bracket holds the run count too: "(3.1–4.2, 9 runs)"
            out.append(f"  {name:<12} {_num(w['score_mean'])} "
                       f"{interval_text(w, w.get('games', w['seat_games']))[:-1]}, "
                       f"{w['seat_games']} runs)")
        return
    # intervals count games, not seat-games (a bot's seats in one game are not
    # independent): the header says so, each row gives both counts
    out.append("Bots (win share per seat-game, shared wins split; mean score; "
               "95% intervals over games):")
    for name in b["names"]:
        w = b["win"][name]
        out.append(f"  {name:<12} {_pct(w['win_share']):>7}  "
                   f"({_pct(w['ci_low'])}–{_pct(w['ci_high'])}, "
                   f"{w['seat_games']} seat-games"
                   + (f" in {w['games']} games" if "games" in w else "") + "); "
                   f"score {_num(w['score_mean'])} "
                   f"{interval_text(w, w.get('games', w['seat_games']))}")
    out.append("Head-to-head (row finishes ahead of column):")
    out.append("  " + " " * 12 + "".join(f"{c:>12}" for c in b["names"]))
    for a in b["names"]:
        cells = "".join(f"{'—' if a == c else _pct(b['head_to_head'][a][c]):>12}"
                        for c in b["names"])
        out.append(f"  {a:<12}{cells}")


def _format_failures(rep: dict[str, Any], out: list[str], max_failures: int,
                     max_trace_lines: int) -> None:
    """Failures with their replayable traces."""
    if not rep["failures"]:
        out.append("Failures: none")
        return
    out.append(f"Failures ({sum(rep['completion']['failures'].values())}; replay a trace "
               "with pnp.sim.replay(game, players, deal_seed, actions)):")
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
