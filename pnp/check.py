"""`pnp check`: data against manifests, then a short seeded simulation per engine."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp.builder.cards import missing_templates
from pnp.data import GameData, resolve_data_dir, resolve_slugs
from pnp.data.report import game_inventory, load_many

if TYPE_CHECKING:
    from pnp.lint import Finding, Linter
    from pnp.render.diskcache import DiskCache

#: Seed of the check's simulation: fixed so `pnp check` is reproducible.
CHECK_SEED = 20261122


#: Bump when a kept simulation result's key or layout changes.
SIM_FORMAT = "check-sim-1"
#: Most bytes the kept check simulations take on disk (one result is ~100 bytes).
SIM_DISK_LIMIT = 2**20


def simulate_briefly(game: GameData, games: int, progress: bool,
                     folder: Path | None = None) -> list[dict[str, Any]]:
    """Play ``games`` seeded games at every supported player count; return one result each.

    With ``folder`` (the game's data folder) the results are kept in the
    build caches' folder (``check-sims``), keyed by pnp's whole code stamp,
    the Python and every file of the folder by content: the simulation is
    seeded and plays only what it loads from there, so unchanged inputs give
    the same results, and a warm ``pnp check`` does not play them again.
    """
    from pnp.games import engine_slugs

    if game.slug not in engine_slugs():
        return []
    store, key = _sim_store(folder, games)
    if store is not None and key is not None:
        kept = store.get(key)
        try:
            found = json.loads(kept) if kept is not None else None
        except ValueError:
            found = None     # not ours: played again and rewritten
        if isinstance(found, list) and all(isinstance(r, dict) for r in found):
            return found
    from pnp.sim import run_simulation

    results = []
    lo, hi = game.manifest.players
    for n in range(lo, hi + 1):
        _text, report, code = run_simulation(
            game, players=n, games=games, bots=["random"], seed=CHECK_SEED, jobs=1,
            params={}, invariants="sample", progress=progress)
        results.append({"players": n, "games": games, "ok": code == 0,
                        "completion": report["completion"]["rate"],
                        "failures": report.get("failures", [])})
    if store is not None and key is not None:
        store.put(key, json.dumps(results, sort_keys=True).encode("utf-8"))
    return results


def _sim_store(folder: Path | None, games: int) -> tuple["DiskCache | None", str | None]:
    """The kept check simulations and this game's key (None, None: not kept)."""
    if folder is None:
        return None, None
    from pnp.builder.markup_cache import folder_digest
    from pnp.builder.serve import code_stamp
    from pnp.render.diskcache import digest, open_cache

    store = open_cache("check-sims", SIM_DISK_LIMIT)
    if store is None:
        return None, None
    data = folder_digest(folder, by_content=True)
    if data is None:
        return None, None
    return store, digest(SIM_FORMAT, code_stamp(), sys.version, data,
                         repr((games, CHECK_SEED, "random", "sample")))


def engine_data_problems(game: GameData) -> list[str]:
    """The problems the game's engine finds in its data (card effects …), one line each."""
    from pnp.games import registered_games

    entry = registered_games().get(game.slug)
    if entry is None or entry.check_data is None:
        return []
    return list(entry.check_data(game))


def ok_lines(report: dict[str, Any]) -> list[str]:
    """``ok  <game>: <counts>`` for every game of ``report`` without a problem."""
    summary = []
    for slug, entry in report["games"].items():
        sims = entry.get("simulation") or []
        if entry["problems"] or not all(sim["ok"] for sim in sims):
            continue
        counts = ", ".join(f"{cid} {c['quantity']}" for cid, c in entry["components"].items())
        sim_text = (f"; {sum(s['games'] for s in sims)} simulated games ended cleanly"
                    if sims else "")
        summary.append(f"ok  {slug}: {counts}{sim_text}")
    return summary


def _lint_with_progress(linter: "Linter", game: GameData, progress: bool) -> list["Finding"]:
    """Lint ``game``, with a progress line on stderr (a cold lint renders every card)."""
    if not progress:
        return linter.lint_game(game)
    import click

    with click.progressbar(length=linter.count_sides(game), label=f"Linting {game.slug}",
                           file=sys.stderr, show_eta=False) as bar:
        return linter.lint_game(game, bar.update)


def run_check(slugs: list[str], data_dir: Path | None, *, simulate: bool = True,
              sim_games: int = 100, progress: bool = True, lint: bool = True,
              templates_dir: Path | None = None) -> tuple[str, dict[str, Any], int]:
    """Check the named games (all when empty); return (text, JSON report, exit code).

    With ``lint`` every card side is rendered and linted (:mod:`pnp.lint`):
    lint errors are problems, lint warnings are printed but pass.
    """
    root = resolve_data_dir(data_dir)
    wanted = resolve_slugs(root, slugs)
    games, fatal = load_many(root, wanted)
    lines: list[str] = list(fatal)
    report: dict[str, Any] = {"data_dir": str(root), "games": {}, "problems": list(fatal)}
    warnings: list[str] = []
    linter = None
    if lint:
        from pnp.lint import Linter, summary_lines

        linter = Linter(templates_dir)
        report["lint"] = []
    for game in games:
        entry = game_inventory(game)
        own = engine_data_problems(game)
        entry["problems"].extend(own)
        # a face or back the manifest names but the templates lack, with or without lint
        # (the linter would only repeat it for every card of the component)
        missing = [str(e) for e in missing_templates(game, templates_dir)]
        entry["problems"].extend(missing)
        if linter is not None and not game.problems and not missing:
            # the card linter (issue 10): one finding per card side, grouped for reading
            findings = _lint_with_progress(linter, game, progress)
            report["lint"].extend(f.to_json() for f in findings)
            entry["problems"].extend(summary_lines(f for f in findings if f.severity == "error"))
            warnings.extend(summary_lines(f for f in findings if f.severity != "error"))
        lines.extend(entry["problems"])
        report["problems"].extend(entry["problems"])
        if simulate and not game.problems and not own:
            sims = simulate_briefly(game, sim_games, progress, root / game.slug)
            entry["simulation"] = sims
            for sim in sims:
                if not sim["ok"]:
                    line = (f"{game.slug}: simulation at {sim['players']} players failed "
                            f"(completion {sim['completion']}); run `pnp simulate "
                            f"{game.slug} --players {sim['players']}` for the trace")
                    lines.append(line)
                    report["problems"].append(line)
        report["games"][game.slug] = entry
    report["warnings"] = warnings
    # Every game that passed is named even when another failed: one broken
    # game never hides the others.
    summary = ok_lines(report)
    if lines:
        lines.append(f"{len(lines)} problem(s) found")
        return "\n".join(summary + lines + warnings), report, 1
    return "\n".join(warnings + summary), report, 0
