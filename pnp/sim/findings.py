"""Card- and rule-level findings in the designer's terms, and the sentences that lead a report.

A game's :class:`~pnp.games.stats.GameStats` may offer two hooks the
simulator looks for (duck-typed, so games without them lose nothing):

* ``card_uses(state) -> per seat, an iterable of "group:name" keys`` — for a
  finished game, what each seat played, held, took or did (``played:5B``,
  ``rule:all-in set``). The runner counts, per key, the seat-games that had
  it, their win credit (shared wins split) and their return.
* ``standing(state) -> per seat, a number`` — each seat's standing mid-game
  (VP so far). The runner snapshots it whenever a turn begins, which gives
  *drama* (how often the eventual winner was behind, not even sharing the
  lead, at the start of the last third of the game) and *lead changes* (how
  often the sole leader changed).
* ``finding_sentences(figures) -> list of sentences`` — what the game's own
  figures (its ``to_dict``) show, in the game's words, each only where the
  data supports it; :func:`pnp.sim.report.build_report` appends them to the
  generic sentences.

A key's win share is judged against its *group's* average (every use of every
key of the group pooled), not against 1/N: players who play more cards win
more often whatever the cards, so only a difference between cards of one
group says something about a card. A key is **dominant** when its 95%
interval lies above the group average and its share is at least
:data:`LIFT`× the average, a **trap** when the interval lies below and the
share is at most 1/LIFT of it. In a solo game (every seat-game "wins") the
same test runs on the mean return instead.

The intervals count *games*, not seat-games: the seats that had a key in
one game share that game's single win, so their results are one
observation. Each game the key was in contributes its holders' share of the
win and their returns summed; the win share's interval is Wilson's on the
effective sample size of that clustered ratio, the mean return's a
cluster-robust Student t interval (:func:`_key_intervals`). The group
average a key is judged against pools every use and is not an interval.
"""

from __future__ import annotations

from typing import Any, Sequence

from pnp.intervals import (ratio_mean_interval, ratio_share_interval, t_interval, welch_interval,
                           wilson_interval)

#: A key must differ from its group's average by this factor to be flagged.
LIFT = 1.2
#: Keys used in fewer seat-games than this are listed but never flagged.
MIN_USES = 30
#: A ladder is called flat only when its end rungs' 95% intervals are at most
#: this wide either side (about 100 games per rung at a 25% share).
FLAT_HALF_WIDTH = 0.10
#: How many keys per group the text report lists (all are in the JSON).
TEXT_ROWS = 8
#: How many flagged keys per group and flag a finding sentence names.
SENTENCE_ROWS = 3


def _r(x: float) -> float:
    return round(float(x), 6)


def interval_text(row: dict[str, Any], games: int, low: str = "score_ci_low",
                  high: str = "score_ci_high") -> str:
    """A mean's 95 % interval as the reports show it: ``(3.10–4.20)``, or why there is none.

    ``row[low]`` is None when the games gave no spread to measure: one game
    (``(1 game: no interval)``) or every game the same value (``(every game
    alike: no interval)``); a zero-width ``(4.33–4.33)`` would read as certain.
    One wording for the text and chart pages.
    """
    if row.get(low) is None or row.get(high) is None:
        return "(1 game: no interval)" if games < 2 else "(every game alike: no interval)"
    return f"({row[low]:.2f}–{row[high]:.2f})"


def no_spread(mean: float, sd: float, distinct: int) -> bool:
    """Every value was the same, from a t interval's sd and the values' histogram.

    ``distinct`` is the number of histogram bins seen (values rounded to
    whole numbers): more than one means a spread. With one bin, the sd from
    Σx and Σx² is only a float residue when every value is equal (about 1e-8
    of the mean for 1/3 over ten games) and a real spread inside one
    whole-number bin is far above 1e-6.
    """
    return distinct <= 1 and sd <= 1e-6 * max(1.0, abs(mean))


def figure_dict(name: str, value: float, low: float, high: float) -> dict[str, Any]:
    """A game's key figure for the JSON: ``low``/``high`` None when the interval has no width.

    A game's own mean (``pnp.intervals.mean_interval``) over games that all
    gave the same value comes back as ``(v, v)``: written as bounds it would
    read as certain, so it is written as no interval, as the reports' other
    means are (:func:`interval_text`). The float residue of a zero spread is
    far below the 1e-6 relative width kept.
    """
    flat = high - low <= 1e-6 * max(1.0, abs(value))
    return {"name": name, "value": _r(value), "low": None if flat else _r(low),
            "high": None if flat else _r(high)}


def _opt(x: float | None) -> float | None:
    """Round a bound that may be missing (no interval)."""
    return None if x is None else _r(x)


def _key_intervals(row: Sequence[float]
                   ) -> tuple[float, float, float, float, float | None, float | None]:
    """``(win share, low, high, mean return, low, high)`` of one key, over games.

    A full row (:attr:`pnp.sim.aggregate.Aggregate.cards`) carries per-game
    sums: the holders of a key in one game count as one observation (one win
    is shared among all seats), so the share's interval is
    :func:`~pnp.intervals.ratio_share_interval` and the mean's
    :func:`~pnp.intervals.ratio_mean_interval`, both over the games the key
    was in. A 4-value row (a hand-made table) has no per-game sums and is
    read as independent seat-games: Wilson and Student t over them.
    """
    uses, credit, total, sq = row[0], row[1], row[2], row[3]
    if len(row) >= 10:
        games = int(row[4])
        share, low, high = ratio_share_interval(credit, uses, games, row[5], row[6], row[7])
        mean, mlo, mhi = ratio_mean_interval(total, uses, games, row[5], row[8], row[9])
        return share, low, high, mean, mlo, mhi
    n = int(uses)
    share = credit / n if n else 0.0
    low, high = wilson_interval(share, n)
    mean, sd, tlo, thi = t_interval(total, sq, n)
    if n < 2 or sd <= 1e-6 * max(1.0, abs(mean)):   # no spread (no histogram here)
        return share, low, high, mean, None, None
    return share, low, high, mean, tlo, thi


def card_table(cards: dict[str, list[float]], num_players: int) -> list[dict[str, Any]]:
    """Per key: uses, win share and mean return with 95% intervals, group average, flag.

    ``cards`` maps ``"group:name"`` to [seat-games, win credit, Σ return,
    Σ return², and the per-game sums] (:attr:`pnp.sim.aggregate.Aggregate.cards`);
    intervals count games, not seat-games (:func:`_key_intervals`). Rows are
    sorted by group, then by win share (or mean return in a solo game), best first.
    """
    solo = num_players == 1
    groups: dict[str, list[float]] = {}
    for key, sums in cards.items():
        g = groups.setdefault(key.partition(":")[0], [0.0, 0.0, 0.0])
        g[0] += sums[0]
        g[1] += sums[1]
        g[2] += sums[2]
    rows: list[dict[str, Any]] = []
    for key in sorted(cards):
        uses = int(cards[key][0])
        group, _, name = key.partition(":")
        g_uses, g_credit, g_total = groups[group]
        share, low, high, mean, mlo, mhi = _key_intervals(cards[key])
        row: dict[str, Any] = {"key": key, "group": group, "name": name, "uses": uses}
        if len(cards[key]) >= 10:
            row["games"] = int(cards[key][4])
        avg_share = g_credit / g_uses if g_uses else 0.0
        avg_mean = g_total / g_uses if g_uses else 0.0
        value, lo, hi, avg = (mean, mlo, mhi, avg_mean) if solo else (share, low, high,
                                                                       avg_share)
        flag = ""
        # no interval (one game, no spread): nothing to judge a flag on
        if uses >= MIN_USES and avg > 0 and lo is not None and hi is not None:
            if lo > avg and value >= LIFT * avg:
                flag = "dominant"
            elif hi < avg and value <= avg / LIFT:
                flag = "trap"
        row.update({"win_share": _r(share), "ci_low": _r(low), "ci_high": _r(high),
                    "score_mean": _r(mean), "score_ci_low": _opt(mlo),
                    "score_ci_high": _opt(mhi), "group_win_share": _r(avg_share),
                    "group_score_mean": _r(avg_mean), "flag": flag})
        rows.append(row)
    rank = "score_mean" if solo else "win_share"
    rows.sort(key=lambda r: (r["group"], -r[rank], r["name"]))
    return rows


def rule_table(event_names: Sequence[str], events: list[list[int]],
               event_games: list[list[float]], completed: int, margin_sum: float,
               length_sum: float, best_sum: float = 0.0, *,
               squares: tuple[float, float, float] | None = None) -> list[dict[str, Any]]:
    """Per rule event: share of games it fired in, and the game when it did vs when not.

    Mean game length, winner's margin and best score in games where the rule
    fired and in games where it did not; a big gap says the rule shapes the
    game (or that long games give it more chances to fire: read it as an
    association, not a cause). Each game counts once (a rule fires in a
    game, not in a seat), so the two groups are independent games: with
    ``squares`` (Σ length², Σ margin², Σ best² over all completed games) and
    7-value ``event_games`` rows, each figure also gets its *shift* (fired
    minus otherwise) with a 95 % Welch t interval
    (:func:`~pnp.intervals.welch_interval`; None from fewer than 2 games a
    side or no spread).
    """
    rows = []
    for i, name in enumerate(event_names):
        ev = event_games[i]
        fired = int(ev[0])
        rest = completed - fired
        row: dict[str, Any] = {
            "event": name, "games": fired, "games_otherwise": rest,
            "games_share": _r(fired / completed) if completed else None,
            "per_game": _r(events[i][0] / completed) if completed else None,
            "turns_when_fired": _r(ev[2] / fired) if fired else None,
            "turns_otherwise": _r((length_sum - ev[2]) / rest) if rest else None,
            "margin_when_fired": _r(ev[1] / fired) if fired else None,
            "margin_otherwise": _r((margin_sum - ev[1]) / rest) if rest else None,
            "best_score_when_fired": _r(ev[3] / fired) if fired else None,
            "best_score_otherwise": _r((best_sum - ev[3]) / rest) if rest else None,
        }
        if squares is not None and len(ev) >= 7:
            length_sq, margin_sq, best_sq = squares
            for field, total, total_sq, at, at_sq in (
                    ("turns", length_sum, length_sq, 2, 5),
                    ("margin", margin_sum, margin_sq, 1, 4),
                    ("best_score", best_sum, best_sq, 3, 6)):
                shift = welch_interval(ev[at], ev[at_sq], fired, total - ev[at],
                                       total_sq - ev[at_sq], rest)
                row[f"{field}_shift"] = None if shift is None else {
                    "difference": _r(shift[0]), "low": _r(shift[1]), "high": _r(shift[2])}
        rows.append(row)
    return rows


def drama_figures(drama: Sequence[int]) -> dict[str, Any] | None:
    """Comeback share and lead changes per game from the runner's drama counts."""
    games, behind, changes, sq = drama
    if not games:
        return None
    share = behind / games
    low, high = wilson_interval(share, games)
    mean, _sd, mlo, mhi = t_interval(changes, sq, games)
    return {"games": games, "winner_behind_at_last_third": _r(share), "ci_low": _r(low),
            "ci_high": _r(high), "lead_changes_mean": _r(mean), "lead_changes_ci_low": _r(mlo),
            "lead_changes_ci_high": _r(mhi)}


def _pct(x: float) -> str:
    return f"{100 * x:.0f} %"


def _pct1(x: float) -> str:
    return f"{100 * x:.1f} %"


def fired_share(fired: int, completed: int) -> str:
    """Share of games a rule fired in, never rounded to 100 % or 0 % unless exact.

    A rule that fired in 999 of 1000 games printed as "100 %" beside a
    "vs" figure from the one other game reads as a contradiction.
    """
    if not completed:
        return "—"
    share = 100 * fired / completed
    text = f"{share:.1f}%"
    if text == "100.0%" and fired < completed:
        return ">99.9%"
    if text == "0.0%" and fired:
        return "<0.1%"
    return text


def otherwise_note(rest: int, fired: int | None = None) -> str:
    """How few games either side of a rule line rests on, when too few to read.

    ``rest`` games without the rule (the "vs" figures), ``fired`` games with
    it (the figures before "vs"); a side with fewer than :data:`MIN_USES`
    games is named, so a margin from one game is not read as a finding.
    """
    parts = [f"{k} game{'s' if k != 1 else ''} {side} it"
             for k, side in ((fired, "with"), (rest, "without"))
             if k is not None and 0 < k < MIN_USES]
    return f"  (only {' and '.join(parts)})" if parts else ""


def sentences(rep: dict[str, Any]) -> list[str]:
    """What a designer should read first, each only where the data shows it.

    ``rep`` is a :func:`pnp.sim.report.build_report` dict (with its
    ``findings`` section). Nothing is said about a figure whose interval
    does not support it.
    """
    out: list[str] = []
    n = rep["config"]["players"]
    comp = rep["completion"]
    if comp["completed"] < comp["games"]:
        out.append(f"{comp['games'] - comp['completed']} of {comp['games']} games did not "
                   "finish cleanly: fix those first (failures below).")
    if not comp["completed"]:
        return out
    for seat in rep["seats"]:
        idle = seat.get("games_without_decision") or 0
        if idle:
            # Whether every player can act is the first thing a run checks.
            out.append(f"Seat {seat['seat']} made no decision at all in {idle} of "
                       f"{comp['completed']} games: check that every player gets to act.")
    bal = rep.get("seat_balance")
    if bal and bal["significant"] and not rep["config"]["seat_rotation"]:
        for s in bal["flagged"]:
            seat = rep["seats"][s]
            side = "more" if seat["win_share"] > rep["fair_share"] else "less"
            # One decimal: rounded to whole per cent, an interval end of 25.1 %
            # reads "25 %" beside "25 % expected", as if it did not exclude it.
            out.append(f"Seat {s} wins {_pct1(seat['win_share'])} ({_pct(rep['fair_share'])} "
                       f"expected; 95 % {_pct1(seat['ci_low'])}–{_pct1(seat['ci_high'])}): "
                       f"seat order gives it {side} than its share.")
    bots = rep.get("bots")
    if bots and n > 1:
        fair = rep["fair_share"]
        for name in bots["names"]:
            w = bots["win"][name]
            if w["ci_low"] > fair:
                out.append(f"{name} wins {_pct1(w['win_share'])} of its seats ({_pct(fair)} "
                           f"would be luck; 95 % {_pct1(w['ci_low'])}–{_pct1(w['ci_high'])}): "
                           "better play is rewarded.")
    fnd = rep.get("findings") or {}
    flagged: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in fnd.get("cards", []):
        if row["flag"]:
            flagged.setdefault((row["group"], row["flag"]), []).append(row)
    for (group, flag), rows in flagged.items():
        # Rows are sorted best first: the strongest dominant and weakest traps lead.
        pick = rows[:SENTENCE_ROWS] if flag == "dominant" else rows[::-1][:SENTENCE_ROWS]
        solo = n == 1
        parts = []
        for row in pick:
            parts.append(f"{row['name']} {row['score_mean']:.2f}" if solo else
                         f"{row['name']} {_pct(row['win_share'])} ({_pct(row['ci_low'])}–"
                         f"{_pct(row['ci_high'])})")
        avg = (f"{rows[0]['group_score_mean']:.2f}" if solo
               else _pct(rows[0]["group_win_share"]))
        more = f", and {len(rows) - len(pick)} more" if len(rows) > len(pick) else ""
        one = len(rows) == 1                  # "X stands out", "X and Y stand out"
        if group == "rule":
            # Rule keys are often things that happen to a seat (yellow returned,
            # cards left in hand), not choices: "trap" would misread them.
            up, down = ((" with higher scores", " with lower scores") if solo
                        else (" with winning", " with losing"))
            verb = ("goes" if one else "go") + (up if flag == "dominant" else down)
        else:
            verb = (("stands out" if one else "stand out") if flag == "dominant"
                    else ("looks like a trap" if one else "look like traps"))
        # a rule fires in a seat's game; a card is one the seat had
        where = "game" if solo else "seat"    # a solo game has one seat: say "game"
        who = f"a {where} where it happened" if group == "rule" else f"a {where} with one"
        unit = rep["config"].get("score_unit") or ""
        what = (f"scores that much on average{f' ({unit})' if unit else ''}" if solo
                else "wins that often")
        out.append(f"{group}: {', '.join(parts)}{more} {verb} — {who} {what}, "
                   f"against {avg} for the group.")
    if flagged and rep["config"]["seat_rotation"] and n > 1:
        # With mixed bots a card "wins" partly because the stronger bot plays it.
        out.append("The bots are mixed, so the cards and rules above also reflect which "
                   "bot played them: judge cards with one bot type.")
    d = fnd.get("drama")
    if d:
        if d["ci_high"] < 0.1:
            out.append(f"Little drama: the eventual winner already led at the last third in "
                       f"{_pct(1 - d['winner_behind_at_last_third'])} of games.")
        elif d["ci_low"] > 0.3:
            out.append(f"Comebacks are common: the eventual winner was behind at the last "
                       f"third in {_pct(d['winner_behind_at_last_third'])} of games "
                       f"({d['lead_changes_mean']:.1f} lead changes per game).")
    ties = rep.get("ties") or {}
    tie_rate = ties.get("top_score_tie_rate") or 0.0
    # Frequent only where the interval says so: 1 tie in 4 games is not a finding.
    if n > 1 and tie_rate >= 0.1 and wilson_interval(tie_rate, comp["completed"])[0] >= 0.05:
        out.append(f"Top scores tie in {_pct(ties['top_score_tie_rate'])} of games: the "
                   "tie-break decides many games.")
    ladder = rep.get("ladder")
    if ladder:
        out.extend(ladder_sentences(ladder))
    return out


def ladder_sentences(ladder: dict[str, Any]) -> list[str]:
    """One sentence on how much skill the game rewards, from a ladder dict."""
    rungs = ladder["rungs"]
    if len(rungs) < 2:
        return []
    first, last = rungs[0], rungs[-1]
    if last["ci_low"] > first["ci_high"]:
        return [f"Skill pays: the searching bot wins {_pct(first['win_share'])} at "
                f"{first['budget']} iterations and {_pct(last['win_share'])} at "
                f"{last['budget']} against the same field ({_pct(ladder['fair_share'])} "
                "would be luck)."]
    # "Flat" is a finding only when the rungs are measured finely enough to
    # see a difference: with a handful of games every ladder looks flat.
    widest = max((r["ci_high"] - r["ci_low"]) / 2 for r in (first, last))
    if abs(last["win_share"] - first["win_share"]) < 0.05 and widest > FLAT_HALF_WIDTH:
        return [f"The ladder shows no trend ({_pct(first['win_share'])} at {first['budget']} "
                f"iterations, {_pct(last['win_share'])} at {last['budget']}), but its "
                f"intervals are ±{100 * widest:.0f} points wide: play more games per budget "
                "before reading it as flat."]
    if abs(last["win_share"] - first["win_share"]) < 0.05:
        return [f"The ladder is flat ({_pct(first['win_share'])} at {first['budget']} "
                f"iterations, {_pct(last['win_share'])} at {last['budget']}): more search "
                "buys little; luck or the field's play dominates."]
    if last["ci_high"] < first["ci_low"]:
        return [f"More search does worse: the searching bot wins {_pct(first['win_share'])} "
                f"at {first['budget']} iterations but {_pct(last['win_share'])} at "
                f"{last['budget']}; check its playout policy and reward before reading the "
                "ladder as skill."]
    trend = "rises" if last["win_share"] > first["win_share"] else "falls"
    return [f"The ladder {trend} from {_pct(first['win_share'])} at {first['budget']} "
            f"iterations to {_pct(last['win_share'])} at {last['budget']}, but the intervals "
            "overlap: play more games to tell."]


def _flag_label(group: str, flag: str, solo: bool) -> str:
    """The table's flag: DOMINANT or TRAP for cards; a rule key is an association."""
    if group != "rule":
        return flag.upper()
    if solo:
        return "HIGHER SCORES" if flag == "dominant" else "LOWER SCORES"
    return "WITH WINNING" if flag == "dominant" else "WITH LOSING"


def _shift_text(shift: dict[str, float] | None, digits: int) -> str:
    """`` [+2.0 ± 1.1]*``: a rule's shift ± its 95 % Welch half-width (the interval is
    symmetric), starred when the interval excludes 0."""
    if not shift:
        return ""
    clear = shift["low"] > 0 or shift["high"] < 0
    half = (shift["high"] - shift["low"]) / 2
    return f" [{shift['difference']:+.{digits}f} ± {half:.{digits}f}]{'*' if clear else ''}"


def format_findings(rep: dict[str, Any]) -> list[str]:
    """The numbers behind the findings: card table (top and bottom rows), rules, drama."""
    fnd = rep.get("findings") or {}
    out: list[str] = []
    n = rep["config"]["players"]
    rows = fnd.get("cards") or []
    if rows:
        # intervals count games: a key's holders in one game share its one win
        out.append("Cards and rules (per seat-game that had it; shared wins split; 95% "
                   "intervals over games; judged against the group average):")
        groups: dict[str, list[dict[str, Any]]] = {}
        for row in rows:
            groups.setdefault(row["group"], []).append(row)
        for group, items in groups.items():
            avg = items[0]["group_score_mean"] if n == 1 else items[0]["group_win_share"]
            avg_text = f"{avg:.2f}" if n == 1 else _pct(avg)
            out.append(f"  {group} (average {avg_text}; {len(items)} keys"
                       + (f", best and worst {TEXT_ROWS // 2} shown" if len(items) > TEXT_ROWS
                          else "") + "):")
            # The count is of seat-games that had the key, not of times it was
            # played (a seat playing a card twice counts once).
            unit = "games" if n == 1 else "seat-games"
            shown = items if len(items) <= TEXT_ROWS else (
                items[:TEXT_ROWS // 2] + items[-(TEXT_ROWS // 2):])
            for row in shown:
                win = ("" if n == 1 else f"  win {100 * row['win_share']:5.1f}% "
                       f"({100 * row['ci_low']:4.1f}–{100 * row['ci_high']:4.1f})")
                # one game gives no spread: "63.00 (63.00–63.00)" would read as certain
                spread = interval_text(row, row.get("games", row["uses"]))
                out.append(
                    f"    {row['name']:<22} {row['uses']:>7} {unit}{win}  score "
                    f"{row['score_mean']:6.2f} {spread}"
                    + (f"  {_flag_label(group, row['flag'], n == 1)}" if row["flag"] else ""))
    rules = [r for r in fnd.get("rules") or [] if r["games"]]
    if rules:
        second = "score" if n == 1 else "winner's margin"
        length = rep["config"].get("length_unit") or "turns"
        out.append(f"Rules: games where each fired vs the others (mean {length}; {second}; "
                   "[difference ± 95%; * excludes 0]):")
        field = "best_score" if n == 1 else "margin"
        w = max(22, *(len(r["event"]) for r in rules))  # long names keep the columns
        for r in rules:
            other_t = "—" if r["turns_otherwise"] is None else f"{r['turns_otherwise']:.1f}"
            other_m = ("—" if r[f"{field}_otherwise"] is None
                       else f"{r[f'{field}_otherwise']:.2f}")
            share = fired_share(r["games"], r["games"] + r["games_otherwise"])
            out.append(f"  {r['event']:<{w}} {share:>6} of games  {length} "
                       f"{r['turns_when_fired']:.1f} vs {other_t}"
                       f"{_shift_text(r.get('turns_shift'), 1)}  {second.split()[-1]} "
                       f"{r[f'{field}_when_fired']:.2f} vs {other_m}"
                       f"{_shift_text(r.get(f'{field}_shift'), 2)}"
                       + otherwise_note(r["games_otherwise"], r["games"]))
    d = fnd.get("drama")
    if d:
        out.append(f"Drama: the eventual winner was behind at the start of the last "
                   f"third in {100 * d['winner_behind_at_last_third']:.1f}% of games "
                   f"({100 * d['ci_low']:.1f}–{100 * d['ci_high']:.1f}); lead changes "
                   f"{d['lead_changes_mean']:.2f} per game ({d['lead_changes_ci_low']:.2f}–"
                   f"{d['lead_changes_ci_high']:.2f})")
    return out


__all__ = ["LIFT", "MIN_USES", "card_table", "drama_figures", "fired_share",
           "format_findings", "ladder_sentences", "otherwise_note", "rule_table", "sentences"]
