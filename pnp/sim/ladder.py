"""The skill ladder: a searching bot at doubling budgets against one fixed field.

Rung ``b`` seats ``mcts:b`` at position 0 of the ``--bots`` list and the
field bot everywhere else; seats rotate every game, so the searcher sits at
every seat equally often, and every rung plays the same deals. The win
share of the searcher per rung, with its 95% interval, measures how much
skill (search) the game rewards: a rising ladder says better play wins more,
a flat one that luck (or the field's play) decides. In a solo game the rung's
figure is the mean score, and rung 0 is the field bot itself on the same
deals (the searcher has no rivals to beat, only a player to outdo).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from pnp.errors import PnpError
from pnp.games.api import Game
from pnp.games.bots import Bot
from pnp.games.search import SearchBot
from pnp.games.stats import GameStats
from pnp.intervals import ratio_mean_interval, share_over_games, t_interval
from pnp.sim.runner import DEFAULT_STEP_CAP, Progress, Variant, simulate_variants
from pnp.sim.findings import OPEN_RANGE, clipped, figure_dict, interval_text, no_spread
from pnp.sim.paired import paired_text
from pnp.sim.sweep import figure_label, figure_labels, is_rate


def default_field(bots: Mapping[str, type[Bot]]) -> str:
    """The game's own playing bot (first that neither searches nor is random), else random."""
    own = [n for n, b in bots.items() if n != "random" and not getattr(b, "searches", False)]
    return own[0] if own else "random"


def skill_ladder(game: Game[Any], num_players: int, games: int, seed: int,
                 budgets: Sequence[int], field: str, bot_classes: Mapping[str, type[Bot]],
                 stats: type[GameStats] | None = None, jobs: int = 1,
                 invariants: str = "off", step_cap: int = DEFAULT_STEP_CAP,
                 progress: Progress | None = None, cluster: str | None = None,
                 searcher: str = SearchBot.name, length_unit: str = "turns",
                 search: str | None = None) -> dict[str, Any]:
    """Play every rung and return the ladder as a JSON-ready dict (see module docstring).

    ``searcher`` names the searching bot in ``bot_classes`` (its
    ``configure`` must accept an iteration count as the option);
    ``length_unit`` what the game's length counts (for failure messages);
    ``search`` the searcher's fields after the iteration count, the same on
    every rung (``d16``: truncated playouts, ``random``: random playouts;
    ``pnp simulate --ladder-search``).
    """
    if searcher not in bot_classes:
        raise PnpError(f"--ladder: {game.slug} has no searching bot {searcher!r} (its Game "
                       "class needs state_from_observation; see docs/simulation.md)")
    solo = num_players == 1
    tail = f":{search}" if search else ""
    specs: list[tuple[str, ...]] = [
        (f"{searcher}:{b}{tail}",) + (field,) * (num_players - 1) for b in budgets]
    if solo:
        specs.insert(0, (field,))
    variants = [Variant(game, spec, bot_classes, stats, length_unit) for spec in specs]
    results, pairs = simulate_variants(variants, num_players, games, seed, jobs, invariants,
                                       step_cap, progress, cluster=cluster, paired=solo)
    fair = 1.0 / num_players
    rungs = []
    for spec, result in zip(specs, results):
        t = result.totals
        name = spec[0]
        if not solo:
            g = t.bot_games.get(name, 0)
            credit = sum(c / (k + 1) for k, c in enumerate(t.bot_wins.get(name, [])))
            share = credit / g if g else 0.0
            # over games, as the report's bot table (one seat a game here: the same)
            games_in, seats_sq, sum_sq, cross = t.bot_by_game.get(name, [0, 0.0, 0.0, 0.0])
            low, high = share_over_games(credit, g, int(games_in))
            # its mean score over games too (Student t; one seat a game: the
            # plain t interval of its scores)
            mean, mlo, mhi = ratio_mean_interval(t.bot_score.get(name, [0.0, 0.0])[0], g,
                                                 int(games_in), seats_sq, sum_sq, cross)
        else:
            g = t.completed
            mean, sd, tlo, thi = t_interval(t.score_sum[0], t.score_sq[0], g)
            # one game or every game alike: no score interval (interval_text)
            alike = g < 2 or no_spread(mean, sd, len(t.score_hist[0]))
            mlo, mhi = (None, None) if alike else (tlo, thi)
        # a mean score's interval cut to what a score can be (VP never below 0)
        mlo, mhi = clipped(mlo, mhi, getattr(t.stats, "score_range", None) or OPEN_RANGE)
        rung: dict[str, Any] = {
            # mcts:B or mcts:B:d16 (--ladder-search); the solo baseline, the field, 0
            "bot": name, "budget": int(name.split(":")[1]) if ":" in name else 0,
            "seat_games": g,
            "score_mean": round(mean, 6),
            "score_ci_low": None if mlo is None else round(mlo, 6),
            "score_ci_high": None if mhi is None else round(mhi, 6), "ok": result.ok}
        if solo:
            # No rivals: the rung's figure is its mean score, and its interval the
            # score's: None with the score's when every game was alike (a
            # zero-width band would read as certain; interval_text says why).
            rung.update(win_share=rung["score_mean"], ci_low=rung["score_ci_low"],
                        ci_high=rung["score_ci_high"])
        else:
            rung.update(win_share=round(share, 6), ci_low=round(low, 6),
                        ci_high=round(high, 6))
        if stats is not None and t.stats is not None and t.completed:
            rung["game_figures"] = [figure_dict(n_, v, lo, hi)
                                    for n_, v, lo, hi in t.stats.key_figures(t.stats.to_dict())]
        rungs.append(rung)
    doc: dict[str, Any] = {
        "slug": game.slug, "title": game.title, "players": num_players, "games": games,
        "seed": seed, "field": field, "search": search or None,
        "fair_share": round(fair, 6), "invariants": invariants,
        "params": {k: v for k, v in sorted(game.params.items())},
        "baseline": rungs[0] if solo else None, "rungs": rungs[1:] if solo else rungs,
        "ok": all(r.ok for r in results),
        # the game's names for its own figures (the JSON keeps the machine names)
        "figure_labels": figure_labels(
            (r.totals.stats for r in results if r.totals.stats is not None),
            (f["name"] for r in rungs for f in r.get("game_figures") or ()))}
    if solo and pairs is not None:
        for i, rung in enumerate(doc["rungs"], start=1):
            rung["paired_vs_field"] = pairs.to_dict(i)["differences"]["score_seat0"]
    return doc


def ladder_text(doc: dict[str, Any], sentences: Sequence[str]) -> str:
    """The ladder as text: the finding first, then one row per budget."""
    n = doc["players"]
    solo = n == 1
    unit = doc.get("score_unit") or ""   # "VP", "bosses taken", … (GameStats.score_unit)
    score = f"mean {unit}" if unit else "mean score"
    how = f" ({doc['search']})" if doc.get("search") else ""
    out = [f"{doc['title']} ({doc['slug']}): skill ladder — mcts{how} at {len(doc['rungs'])} "
           f"budgets against {doc['field']} ({n} player{'s' if n != 1 else ''}, "
           f"{doc['games']} games per budget on the same deals, seed {doc['seed']}"
           + (", seats rotated)" if not solo else ")"), ""]
    out += [f"  - {line}" for line in sentences]
    if sentences:
        out.append("")
    if solo:
        b = doc["baseline"]
        out.append(f"  {doc['field']} alone on the same deals: {score} {b['score_mean']:.2f} "
                   f"{interval_text(b, doc['games'])}")
        out.append(f"  {'iterations':>10}  {score + ' (95%)':<22}  difference vs "
                   f"{doc['field']} (paired 95%)")
        for r in doc["rungs"]:
            out.append(f"  {r['budget']:>10}  {r['score_mean']:6.2f} "
                       f"{interval_text(r, doc['games'])}   {paired_text(r['paired_vs_field'])}"
                       + ("" if r["ok"] else "  FAILURES"))
    else:
        fair = doc["fair_share"]
        out.append(f"  {'iterations':>10}  {'win share (95%; luck = ' + f'{100 * fair:.1f}%)':<34}"
                   f"  {score} (95%)")
        for r in doc["rungs"]:
            win = (f"{100 * r['win_share']:5.1f}% ({100 * r['ci_low']:.1f}–"
                   f"{100 * r['ci_high']:.1f})")
            out.append(f"  {r['budget']:>10}  {win:<34}  {r['score_mean']:.2f} "
                       f"{interval_text(r, doc['games'])}"
                       + ("" if r["ok"] else "  FAILURES"))
    labels = doc.get("figure_labels") or {}     # absent from ladders saved before labels
    for r in doc["rungs"]:
        figs = r.get("game_figures") or []
        if figs:
            cells = ", ".join(f"{figure_label(f['name'], labels=labels)} "
                              + (f"{100 * f['value']:.1f}%" if is_rate(f["name"])
                                 else f"{f['value']:.2f}") for f in figs)
            out.append(f"  {r['budget']:>10}  {cells}")
    return "\n".join(out) + "\n"


__all__ = ["default_field", "ladder_text", "skill_ladder"]
