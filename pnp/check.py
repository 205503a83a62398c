"""`pnp check`: data against manifests, then a short seeded simulation per engine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pnp.data import GameData, resolve_data_dir, resolve_slugs
from pnp.data.report import game_inventory, load_many

#: Seed of the check's simulation: fixed so `pnp check` is reproducible.
CHECK_SEED = 20261122


def simulate_briefly(game: GameData, games: int, progress: bool) -> list[dict[str, Any]]:
    """Play ``games`` seeded games at every supported player count; return one result each."""
    from pnp.games import engine_slugs

    if game.slug not in engine_slugs():
        return []
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
    return results


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
        if linter is not None and not game.problems:
            # the card linter (issue 10): one finding per card side, grouped for reading
            findings = linter.lint_game(game)
            report["lint"].extend(f.to_json() for f in findings)
            entry["problems"].extend(summary_lines(f for f in findings if f.severity == "error"))
            warnings.extend(summary_lines(f for f in findings if f.severity != "error"))
        lines.extend(entry["problems"])
        report["problems"].extend(entry["problems"])
        if simulate and not game.problems and not own:
            sims = simulate_briefly(game, sim_games, progress)
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
