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

A key's win share is judged against its *group's* average (every use of
every key of the group pooled), not against 1/N: players who play more cards win
more often whatever the cards, so only a difference between cards of one
group says something about a card. A key is **dominant** when its share
minus :data:`LIFT` × the group average is above 0 beyond noise (it wins at
least LIFT times as often as the group), a **trap** when its share minus
the average / LIFT is below 0. In a solo game (every seat-game "wins") the
same test runs on the mean return instead. "Beyond noise" counts every key
the table tests (often 30 to 50): each key's test gives a p-value
(:func:`flag_p_value`; alone, p < 0.05 is exactly "the 95 % interval of
the difference excludes 0") and the family is corrected by Holm's
procedure (:mod:`pnp.sim.multiple`), so the chance of any false flag in
the whole table is at most 5 %. Keys used fewer than :data:`MIN_USES`
times are not tested and do not count.

The intervals count *games*, not seat-games: the seats that had a key in
one game share that game's single win, so their results are one
observation. Each game the key was in contributes its holders' share of the
win and their returns summed; the win share's interval is Wilson's on the
effective sample size of that clustered ratio, the mean return's a
cluster-robust Student t interval (:func:`_key_intervals`). The group
average gets the same intervals over the games the group was in. The key
and its group share games (the key's uses are in the pool, and one seat
may hold two keys of a group in one game), so the comparison's interval
is the cluster-robust one of the *difference*, its covariance counted
(:func:`difference_interval`).
"""

from __future__ import annotations

import math
import unicodedata
from typing import Any, Callable, Mapping, Sequence

from pnp.intervals import (clip_to_range, ratio_mean_interval, ratio_share_interval,
                           t_interval, t_quantile, welch_interval, wilson_interval)
from pnp.sim.multiple import (FAMILY_ALPHA, holm, holm_adjusted, one_sided_p,
                               wilson_p_value)

#: The values a score can take, (lowest, highest), None where not known: a
#: game's stats declare theirs as ``score_range`` (VP and chips are never
#: negative; 第2話 takes 0 to 12 bosses). Mean scores' intervals are clipped to it.
ScoreRange = tuple[float | None, float | None]
#: Nothing known about a score's range: its intervals are left as computed.
OPEN_RANGE: ScoreRange = (None, None)

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


def clipped(low: float | None, high: float | None, bounds: ScoreRange = OPEN_RANGE
            ) -> tuple[float | None, float | None]:
    """A mean's interval cut to the values the quantity can take (None: no interval).

    The reports' one clipping (:func:`pnp.intervals.clip_to_range`) for bounds
    that may be missing: VP "(-92.06–162.06)" from two games becomes
    "(0.00–162.06)", a figure that cannot be negative.
    """
    if low is None or high is None:
        return low, high
    return clip_to_range(low, high, *bounds)


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


#: A key's row with its cross sums against its group (``Aggregate.cards``).
_FULL_ROW = 17
#: Two-sided 95 % (each tail 2.5 %).
_UPPER95 = 0.975


def _seat_game_rows(cards: dict[str, list[float]]
                    ) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Full rows and group sums for a hand-made table, each seat-game its own game.

    A 4-value row (seat-games, win credit, Σ return, Σ return²) has no
    per-game sums: read as independent seat-games (as :func:`_key_intervals`
    reads it), each seat-game is a cluster of one use of one key, so its
    group's M, C, T in that cluster are the key's own 1, c, S. Σc² is taken
    as the credit (exact when no win was shared).
    """
    full: dict[str, list[float]] = {}
    groups: dict[str, list[float]] = {}
    for key, row in cards.items():
        uses, credit, total, sq = row[0], row[1], row[2], row[3]
        full[key] = [uses, credit, total, sq, uses, uses, credit, credit, sq, total,
                     credit, credit, credit, uses, sq, total, total]
        g = groups.setdefault(key.partition(":")[0], [0.0] * 9)
        for i, v in enumerate((uses, uses, credit, total, uses, credit, credit, sq, total)):
            g[i] += v
    return full, groups


def difference_interval(value: float, average: float, lift: float, key_sq: float,
                        group_sq: float, cross: float, key_units: float,
                        group_units: float, games: int) -> tuple[float, float, float] | None:
    """``(d, low, high)``: a key's ratio minus ``lift`` × its group's, 95 % over games.

    Both are ratios over the same games (the key's games are among its
    group's, and its uses are in the pool): with per game ``a = y − R·m``
    for the key (its credit or returns ``y`` over its uses ``m``) and ``b =
    Y − R_G·M`` for the group, ``key_sq`` = Σa², ``group_sq`` = Σb² and
    ``cross`` = Σa·b. The linearised (cluster-robust) variance of
    R − λ·R_G (λ = ``lift``) over the group's k = ``games`` games is

        k/(k − 1) · (Σa²/A² + λ²·Σb²/B² − 2λ·Σa·b/(A·B)),

    A and B the key's and the group's uses: the covariance term counts the
    games they share, so a key is not compared with a pool that contains it
    as if the two were independent. Student t on k − 1 degrees of freedom.
    None when there is nothing to measure: fewer than 2 games, or a variance
    that is only the float residue of zero (every game alike).
    """
    stat = difference_stat(value, average, lift, key_sq, group_sq, cross, key_units,
                           group_units, games)
    if stat is None:
        return None
    d, se, df = stat
    half = t_quantile(_UPPER95, df) * se
    return d, d - half, d + half


def difference_stat(value: float, average: float, lift: float, key_sq: float,
                    group_sq: float, cross: float, key_units: float, group_units: float,
                    games: int) -> tuple[float, float, int] | None:
    """``(d, standard error, degrees of freedom)`` behind :func:`difference_interval`.

    The same arguments and the same None; the flags test d / se on Student
    t with these degrees of freedom (:mod:`pnp.sim.multiple`).
    """
    if games < 2 or key_units <= 0 or group_units <= 0:
        return None
    own = max(0.0, key_sq) / key_units ** 2
    pool = lift * lift * max(0.0, group_sq) / group_units ** 2
    var = own + pool - 2.0 * lift * cross / (key_units * group_units)
    if var <= 1e-12 * max(own + pool, 1e-300):
        return None
    return value - lift * average, math.sqrt(var * games / (games - 1)), games - 1


def _vs_group(row: Sequence[float], group: Sequence[float], solo: bool, lift: float
              ) -> tuple[float, float, float] | None:
    """The key's judged figure (win share, or solo mean return) minus ``lift`` × the group's,
    with its 95 % interval (:func:`difference_interval`)."""
    stat = _vs_group_stat(row, group, solo, lift)
    if stat is None:
        return None
    d, se, df = stat
    half = t_quantile(_UPPER95, df) * se
    return d, d - half, d + half


def _vs_group_stat(row: Sequence[float], group: Sequence[float], solo: bool, lift: float
                   ) -> tuple[float, float, int] | None:
    """``(d, se, df)`` of the key's judged figure minus ``lift`` × the group's.

    ``row`` is a full key row and ``group`` its group's sums (see
    :attr:`pnp.sim.aggregate.Aggregate.cards` and ``card_groups``).
    """
    uses = row[0]
    games, big_m, big_c, big_t, mm, cc, cm, tt, tm = group
    if solo:
        y, y_sq, y_m, y_cross = row[2], row[8], row[9], (row[14], row[15], row[16])
        big_y, big_yy, big_ym = big_t, tt, tm
    else:
        y, y_sq, y_m, y_cross = row[1], row[6], row[7], (row[10], row[11], row[12])
        big_y, big_yy, big_ym = big_c, cc, cm
    r = y / uses
    rg = big_y / big_m
    key_sq = y_sq - 2.0 * r * y_m + r * r * row[5]
    group_sq = big_yy - 2.0 * rg * big_ym + rg * rg * mm
    y_big, y_bigm, m_big = y_cross       # Σ y·Y, Σ y·M, Σ m·Y
    cross = y_big - rg * y_bigm - r * m_big + r * rg * row[13]
    return difference_stat(r, rg, lift, key_sq, group_sq, cross, uses, big_m, int(games))


def flag_p_value(row: Sequence[float], group: Sequence[float], solo: bool
                 ) -> tuple[float, str] | None:
    """``(p, direction)``: how clearly a key is dominant or a trap, before any correction.

    Two one-sided tests, of key − :data:`LIFT` × average > 0 (dominant) and
    of key − average / LIFT < 0 (trap); at most one side can lean its way.
    ``p`` is twice the smaller one-sided p-value (capped at 1), so a lone
    key is flagged at p < 0.05 exactly when the 95 % interval of its
    difference lies beyond 0, the rule before the family was corrected
    (:mod:`pnp.sim.multiple`). None when there is no spread to test.
    """
    above = _vs_group_stat(row, group, solo, LIFT)
    below = _vs_group_stat(row, group, solo, 1.0 / LIFT)
    if above is None or below is None:
        return None
    p_dom = one_sided_p(above[0] / above[1], above[2], upper=True)
    p_trap = one_sided_p(below[0] / below[1], below[2], upper=False)
    if p_dom <= p_trap:
        return min(1.0, 2.0 * p_dom), "dominant"
    return min(1.0, 2.0 * p_trap), "trap"


def _bounds(d: tuple[float, float, float] | None, share: bool) -> dict[str, float] | None:
    """A difference for the JSON; a share's cut at ±1 (a share differs by at most that)."""
    if d is None:
        return None
    diff, low, high = d
    if share:
        low, high = max(low, -1.0), min(high, 1.0)
    return {"difference": _r(diff), "low": _r(low), "high": _r(high)}


def card_table(cards: dict[str, list[float]], num_players: int,
               groups: dict[str, list[float]] | None = None,
               score_range: ScoreRange = OPEN_RANGE,
               label: Callable[[str], str | None] | None = None) -> list[dict[str, Any]]:
    """Per key: uses, win share and mean return with 95% intervals, group average, flag.

    ``cards`` maps ``"group:name"`` to [seat-games, win credit, Σ return,
    Σ return², the per-game sums and the cross sums with its group]
    (:attr:`pnp.sim.aggregate.Aggregate.cards`), ``groups`` the groups' own
    sums over games (``Aggregate.card_groups``); intervals count games, not
    seat-games (:func:`_key_intervals`). The group average pools every use
    of every key of the group and gets the same kind of interval, over the
    group's games. A key is flagged dominant when its figure minus
    :data:`LIFT` × the average lies above 0, trap when its figure minus the
    average / LIFT lies below 0, the covariance of key and pool counted
    (:func:`difference_interval`), each test's p-value (``p_value``)
    corrected by Holm's procedure over every key tested in the table
    (``p_holm``; flagged when ≤ 5 %, :mod:`pnp.sim.multiple`). A table without
    cross sums (hand-made, 4 values a key) is read as independent
    seat-games. Rows are sorted by group, then by win share (or mean return
    in a solo game), best first.

    ``score_range`` clips the mean return's intervals (:func:`clipped`);
    ``label`` is the game's name for a key in the report's language
    (``played:5W`` → ``5 Wheat (5W)``, ``label`` in the row beside the
    machine ``name``), the name itself where it has none.
    """
    solo = num_players == 1
    if groups is None or any(len(row) < _FULL_ROW for row in cards.values()):
        full, groups = _seat_game_rows(cards)
    else:
        full = cards
    rows: list[dict[str, Any]] = []
    tests: list[tuple[int, float, str]] = []      # (row index, p, direction) per tested key
    for key in sorted(cards):
        uses = int(cards[key][0])
        group, _, name = key.partition(":")
        g = groups[group]
        g_games, g_uses, g_credit, g_total = int(g[0]), g[1], g[2], g[3]
        share, low, high, mean, mlo, mhi = _key_intervals(cards[key])
        row: dict[str, Any] = {"key": key, "group": group, "name": name,
                               "label": (label(key) if label else None) or name,
                               "uses": uses}
        if len(cards[key]) >= 10:
            row["games"] = int(cards[key][4])
        avg_share, avg_low, avg_high = ratio_share_interval(g_credit, g_uses, g_games, g[4],
                                                            g[5], g[6])
        avg_mean, avg_mlo, avg_mhi = ratio_mean_interval(g_total, g_uses, g_games, g[4], g[7],
                                                         g[8])
        mlo, mhi = clipped(mlo, mhi, score_range)
        avg_mlo, avg_mhi = clipped(avg_mlo, avg_mhi, score_range)
        avg = avg_mean if solo else avg_share
        test = flag_p_value(full[key], g, solo) if uses >= MIN_USES and avg > 0 else None
        if test is not None:
            tests.append((len(rows), *test))
        row.update({"win_share": _r(share), "ci_low": _r(low), "ci_high": _r(high),
                    "score_mean": _r(mean), "score_ci_low": _opt(mlo),
                    "score_ci_high": _opt(mhi), "group_win_share": _r(avg_share),
                    "group_ci_low": _r(avg_low), "group_ci_high": _r(avg_high),
                    "group_score_mean": _r(avg_mean), "group_score_ci_low": _opt(avg_mlo),
                    "group_score_ci_high": _opt(avg_mhi), "group_games": g_games,
                    "vs_group": _bounds(_vs_group(full[key], g, solo, 1.0), not solo),
                    "flag": "", "p_value": None, "p_holm": None})
        rows.append(row)
    # One family: every key tested in this table, cards and rules alike (the
    # finding sentences pick from all of them), corrected together (Holm).
    adjusted = holm_adjusted([p for _i, p, _d in tests])
    for (i, p, direction), p_holm in zip(tests, adjusted):
        rows[i]["p_value"], rows[i]["p_holm"] = _r(p), _r(p_holm)
        if p_holm <= FAMILY_ALPHA:
            rows[i]["flag"] = direction
    rank = "score_mean" if solo else "win_share"
    rows.sort(key=lambda r: (r["group"], -r[rank], r["name"]))
    return rows


def keys_tested(rows: Sequence[dict[str, Any]]) -> int:
    """How many keys of a :func:`card_table` were tested together for a flag."""
    return sum(1 for row in rows if row.get("p_value") is not None)


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


def event_labels(stats: Any, names: Sequence[str]) -> dict[str, str]:
    """The designer's names of a game's rule events, ``{machine name: label}``.

    A game's :class:`~pnp.games.stats.GameStats` answers ``event_label(name)
    -> str | None`` from its ``event_labels`` table (looked up with getattr, as
    ``card_label``, so any stats object, or None, will do): the
    machine name stays the JSON key (``events``, ``findings.rules``) and the
    Events and Rules tables print the label. Names without one are left out
    (the tables print the machine name).
    """
    label = getattr(stats, "event_label", None)
    if label is None:
        return {}
    out: dict[str, str] = {}
    for name in names:
        text = label(name)
        if text:
            out[name] = text
    return out


def event_text(name: str, labels: Mapping[str, str] | None) -> str:
    """A rule event as a table prints it: its label, else the machine name."""
    return (labels or {}).get(name) or name


def drama_figures(drama: Sequence[int]) -> dict[str, Any] | None:
    """Comeback share and lead changes per game from the runner's drama counts."""
    games, behind, changes, sq = drama
    if not games:
        return None
    share = behind / games
    low, high = wilson_interval(share, games)
    mean, sd, mlo, mhi = t_interval(changes, sq, games)
    # one game, or the same number of lead changes in every game (often 0 in
    # a short run): no spread, so no interval rather than "0.00 (0.00–0.00)".
    # Lead changes are whole numbers: equal values leave sd 0 up to a residue.
    alike = games < 2 or sd <= 1e-6 * max(1.0, abs(mean))
    mlo, mhi = clip_to_range(mlo, mhi, 0.0)    # a count of lead changes: never below 0
    return {"games": games, "winner_behind_at_last_third": _r(share), "ci_low": _r(low),
            "ci_high": _r(high), "lead_changes_mean": _r(mean),
            "lead_changes_ci_low": None if alike else _r(mlo),
            "lead_changes_ci_high": None if alike else _r(mhi)}


def _pct(x: float) -> str:
    return f"{100 * x:.0f} %"


def text_width(text: str) -> int:
    """Columns ``text`` takes in a terminal: a kanji or kana takes two (East Asian wide)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, width: int) -> str:
    """``text`` left-aligned in ``width`` terminal columns (``iron (鉄)``: 8 characters, 9 wide)."""
    return text + " " * max(0, width - text_width(text))


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
            # the interval right after the share it belongs to, not after "expected"
            out.append(f"Seat {s} wins {_pct1(seat['win_share'])} (95 % "
                       f"{100 * seat['ci_low']:.1f}–{_pct1(seat['ci_high'])}) where "
                       f"{_pct(rep['fair_share'])} is expected: seat order gives it {side} "
                       "than its share.")
    bots = rep.get("bots")
    if bots and n > 1:
        fair = rep["fair_share"]
        better = bots_above_luck(bots, fair)
        for name in bots["names"]:
            w = bots["win"][name]
            if name in better:
                out.append(f"{name} wins {_pct1(w['win_share'])} (95 % "
                           f"{100 * w['ci_low']:.1f}–{_pct1(w['ci_high'])}) of its seats, where "
                           f"{_pct(fair)} would be luck: better play is rewarded.")
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
            name = row.get("label") or row["name"]     # the designer's name for the key
            parts.append(f"{name} {row['score_mean']:.2f}" if solo else
                         # one decimal, as the group average it is set against
                         f"{name} {_pct1(row['win_share'])} ({_pct1(row['ci_low'])}–"
                         f"{_pct1(row['ci_high'])})")
        avg = group_average_text(rows[0], solo)
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


def bots_above_luck(bots: dict[str, Any], fair: float) -> set[str]:
    """The bots whose win share is above ``fair`` beyond noise, the bots tested together.

    Each bot's test is the score test its interval inverts: its share of
    each game's win (seats' credit, over games) against ``fair`` × its
    seats per game (:func:`pnp.intervals.share_over_games`); alone, p <
    0.05 with the share above is exactly "the interval's low end is above
    the fair share". The bots of a run are one family (Holm,
    :mod:`pnp.sim.multiple`): a sentence names a bot only if its test holds
    up with the others'.
    """
    names = list(bots["names"])
    p_values = []
    for name in names:
        w = bots["win"][name]
        seat_games = w["seat_games"]
        games = w.get("games") or seat_games      # hand-made rows: one seat a game
        per_game = min(1.0, w["win_share"] * seat_games / games) if games else 0.0
        null = fair * seat_games / games if games else 1.0
        # only "above luck" is a finding here: below counts as no evidence
        p_values.append(wilson_p_value(per_game, null, games) if per_game > null else 1.0)
    return {name for name, ok in zip(names, holm(p_values)) if ok}


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


def group_average_text(row: dict[str, Any], solo: bool) -> str:
    """The pooled group average with its 95 % interval: ``24.6 % (24.1 %–25.2 %)``, ``7.33 (…)``.

    The average is an estimate from the same games as its keys, so it is
    printed with its interval (over the group's games), or why there is none.
    """
    if solo:
        return f"{row['group_score_mean']:.2f} " + interval_text(
            row, row.get("group_games", 0), "group_score_ci_low", "group_score_ci_high")
    # one decimal: a pooled share is measured finely, and "25 % (24 %–25 %)" reads oddly
    return (f"{_pct1(row['group_win_share'])} ({_pct1(row['group_ci_low'])}–"
            f"{_pct1(row['group_ci_high'])})")


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
        tested = keys_tested(rows)
        # The flags are corrected for the family, the printed intervals are not:
        # the header says both, so a row whose interval clears the average
        # without a flag does not read as a contradiction.
        out.append("Cards and rules (per seat-game that had it; shared wins split; each "
                   f"95% interval on its own, over games; flagged when {LIFT:g}× above or "
                   "below the group average beyond noise, corrected for the "
                   f"{tested} key{'s' if tested != 1 else ''} tested together (Holm)):")
        groups: dict[str, list[dict[str, Any]]] = {}
        for row in rows:
            groups.setdefault(row["group"], []).append(row)
        for group, items in groups.items():
            avg_text = group_average_text(items[0], n == 1)
            out.append(f"  {group} (average {avg_text}; {len(items)} keys"
                       + (f", best and worst {TEXT_ROWS // 2} shown" if len(items) > TEXT_ROWS
                          else "") + "):")
            # The count is of seat-games that had the key, not of times it was
            # played (a seat playing a card twice counts once).
            unit = "games" if n == 1 else "seat-games"
            shown = items if len(items) <= TEXT_ROWS else (
                items[:TEXT_ROWS // 2] + items[-(TEXT_ROWS // 2):])
            # a column as wide as the longest label shown ("5 Silk hat, black (5Sk)")
            name_w = max(22, *(text_width(row.get("label") or row["name"]) for row in shown))
            for row in shown:
                win = ("" if n == 1 else f"  win {100 * row['win_share']:5.1f}% "
                       f"({100 * row['ci_low']:4.1f}–{100 * row['ci_high']:4.1f})")
                # one game gives no spread: "63.00 (63.00–63.00)" would read as certain
                spread = interval_text(row, row.get("games", row["uses"]))
                out.append(
                    f"    {pad(row.get('label') or row['name'], name_w)} {row['uses']:>7} "
                    f"{unit}{win}  score "
                    f"{row['score_mean']:6.2f} {spread}"
                    + (f"  {_flag_label(group, row['flag'], n == 1)}" if row["flag"] else ""))
    rules = [r for r in fnd.get("rules") or [] if r["games"]]
    if rules:
        second = "score" if n == 1 else "winner's margin"
        length = rep["config"].get("length_unit") or "turns"
        out.append(f"Rules: games where each fired vs the others (mean {length}; {second}; "
                   "[difference ± 95%; * excludes 0]):")
        field = "best_score" if n == 1 else "margin"
        # the designer's name of each rule (the Events table above pairs it
        # with the machine name); the column as wide as the longest shown
        labels = rep.get("event_labels")
        w = max(22, *(text_width(event_text(r["event"], labels)) for r in rules))
        for r in rules:
            other_t = "—" if r["turns_otherwise"] is None else f"{r['turns_otherwise']:.1f}"
            other_m = ("—" if r[f"{field}_otherwise"] is None
                       else f"{r[f'{field}_otherwise']:.2f}")
            share = fired_share(r["games"], r["games"] + r["games_otherwise"])
            out.append(f"  {pad(event_text(r['event'], labels), w)} {share:>6} of games  "
                       f"{length} {r['turns_when_fired']:.1f} vs {other_t}"
                       f"{_shift_text(r.get('turns_shift'), 1)}  {second.split()[-1]} "
                       f"{r[f'{field}_when_fired']:.2f} vs {other_m}"
                       f"{_shift_text(r.get(f'{field}_shift'), 2)}"
                       + otherwise_note(r["games_otherwise"], r["games"]))
    d = fnd.get("drama")
    if d:
        out.append(f"Drama: the eventual winner was behind at the start of the last "
                   f"third in {100 * d['winner_behind_at_last_third']:.1f}% of games "
                   f"({100 * d['ci_low']:.1f}–{100 * d['ci_high']:.1f}); lead changes "
                   f"{d['lead_changes_mean']:.2f} per game "
                   + interval_text(d, d["games"], "lead_changes_ci_low",
                                   "lead_changes_ci_high"))
    return out


__all__ = ["LIFT", "MIN_USES", "card_table", "difference_interval", "difference_stat",
           "drama_figures", "event_labels", "event_text", "flag_p_value", "keys_tested",
           "figure_dict", "fired_share", "group_average_text", "interval_text",
           "format_findings", "ladder_sentences", "otherwise_note", "rule_table", "sentences"]
