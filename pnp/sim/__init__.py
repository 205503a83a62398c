"""The rules validator's simulator: bots, a parallel runner and reports.

:func:`run_simulation` is the entry point the CLI calls; :func:`simulate`,
:func:`replay` and :func:`build_report` are the library pieces behind it.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any, Mapping

from pnp.errors import PnpError
from pnp.fileio import write_text_atomic
from pnp.sim.bots import BOTS, Bot, bot_names, check_bots_supported, parse_bots, register_bot
from pnp.sim.report import build_report, format_report, wilson_interval
from pnp.sim.runner import (DEFAULT_STEP_CAP, Failure, GameRecord, SimResult, check_state,
                            derive_seed, replay, simulate)

__all__ = ["BOTS", "Bot", "DEFAULT_STEP_CAP", "Failure", "GameRecord", "SimResult",
           "bot_names", "build_report", "check_state", "derive_seed", "format_report",
           "register_bot", "replay", "run_simulation", "simulate", "wilson_interval",
           "write_json_atomic"]


def write_json_atomic(path: Path, data: Any) -> None:
    """Write ``data`` as JSON to ``path`` via a temp file and ``os.replace``."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise PnpError(f"--json {path}: folder {folder} does not exist")
    write_text_atomic(path, json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def run_simulation(slug: str, players: int, games: int, bots: str | list[str], seed: int,
                   jobs: int, params: Mapping[str, str], check_invariants: bool,
                   step_cap: int, json_path: Path | None,
                   progress: bool, data_dir: Path | None = None
                   ) -> tuple[str, dict[str, Any], int]:
    """Validate inputs, simulate, and return ``(text_report, report_dict, exit_code)``.

    ``report_dict`` is the deterministic report plus a separate top-level
    ``elapsed_s``; it is also written atomically to ``json_path`` when given.
    ``exit_code`` is 1 if any game broke an invariant, raised or hit the step
    cap, else 0. Bad input raises :class:`PnpError`.
    """
    from pnp.games import load_game  # lazy: keeps `import pnp.sim` light

    if not isinstance(games, int) or games < 1:
        raise PnpError(f"--games {games}: expected a whole number ≥ 1")
    if not isinstance(jobs, int) or jobs < 1:
        raise PnpError(f"--jobs {jobs}: expected a whole number ≥ 1")
    if not isinstance(step_cap, int) or step_cap < 1:
        raise PnpError(f"--step-cap {step_cap}: expected a whole number ≥ 1")
    if not isinstance(seed, int):
        raise PnpError(f"--seed {seed!r}: expected a whole number")
    names = parse_bots(bots)
    game = load_game(slug, dict(params), data_dir=data_dir)  # unknown/bad --param raise PnpError here
    if not isinstance(players, int):
        raise PnpError(f"--players {players!r}: expected a whole number")
    game.check_players(players)
    check_bots_supported(game, names)
    if json_path is not None and not (Path(json_path).parent or Path(".")).is_dir():
        raise PnpError(f"--json {json_path}: folder {Path(json_path).parent} does not exist")

    bar = None
    callback = None
    if progress:
        import click
        bar = click.progressbar(length=games, label=f"Simulating {slug}",
                                file=sys.stderr, show_eta=True)
        bar.__enter__()
        callback = bar.update
    started = time.perf_counter()
    try:
        result = simulate(game, players, games, names, seed, jobs=jobs,
                          check_invariants=check_invariants, step_cap=step_cap,
                          progress=callback)
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
    elapsed = time.perf_counter() - started
    report = build_report(result)
    text = format_report(report) + (f"Elapsed: {elapsed:.2f} s ({games / elapsed:,.0f} "
                                    f"games/s on {result.jobs} process"
                                    f"{'es' if result.jobs > 1 else ''})\n")
    report["elapsed_s"] = round(elapsed, 3)
    if json_path is not None:
        write_json_atomic(Path(json_path), report)
    return text, report, 0 if result.ok else 1
