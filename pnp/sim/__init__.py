"""The rules validator's simulator: bots, a parallel runner, reports and sweeps.

:func:`run_simulation` and :func:`run_sweep` are the entry points the CLI
calls with the card data it loaded once; :func:`simulate`, :func:`replay` and
:func:`build_report` are the library pieces behind them.
"""

from __future__ import annotations

import json
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence

from pnp.errors import PnpError
from pnp.fileio import write_text_atomic
from pnp.sim.aggregate import Aggregate, Failure
from pnp.sim.bots import parse_bots, seat_bots
from pnp.sim.invariants import DEFAULT_LEVEL, LEVELS, check_final, check_state
from pnp.sim.report import build_report, format_report
from pnp.sim.runner import (DEFAULT_STEP_CAP, Interrupted, SimResult, derive_seed, replay,
                            simulate)

if TYPE_CHECKING:
    from pnp.data.inventory import GameData
    from pnp.games.api import Game

__all__ = ["Aggregate", "DEFAULT_LEVEL", "DEFAULT_STEP_CAP", "Failure", "Interrupted",
           "LEVELS", "SimResult", "build_report", "check_final", "check_state",
           "derive_seed", "format_report", "parse_bots", "replay", "run_simulation",
           "run_sweep", "seat_bots", "simulate", "write_json_atomic"]


def write_json_atomic(path: Path, data: Any) -> None:
    """Write ``data`` as JSON to ``path`` via a temp file and ``os.replace``."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise PnpError(f"--json {path}: folder {folder} does not exist")
    write_text_atomic(path, json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def _check_ints(games: Any, jobs: Any, step_cap: Any, seed: Any) -> None:
    """One-line errors for bad run sizes."""
    if not isinstance(games, int) or games < 1:
        raise PnpError(f"--games {games}: expected a whole number ≥ 1")
    if not isinstance(jobs, int) or jobs < 1:
        raise PnpError(f"--jobs {jobs}: expected a whole number ≥ 1")
    if not isinstance(step_cap, int) or step_cap < 1:
        raise PnpError(f"--step-cap {step_cap}: expected a whole number ≥ 1")
    if not isinstance(seed, int):
        raise PnpError(f"--seed {seed!r}: expected a whole number")


@contextmanager
def _progress_bar(enabled: bool, length: int, label: str) -> Iterator[Callable[[int], None] | None]:
    """A click progress bar on stderr (or nothing)."""
    if not enabled:
        yield None
        return
    import click
    with click.progressbar(length=length, label=label, file=sys.stderr,
                           show_eta=True) as bar:
        yield bar.update


def _prepare(data: "GameData", players: int | None, bots: str | Sequence[str],
             params: Mapping[str, str], invariants: str, json_path: Path | None
             ) -> tuple["Game[Any]", int, list[str], Any]:
    """Build the game and check players, bots, level and JSON folder."""
    from pnp.games.registry import game_entry, make_game

    entry = game_entry(data.slug)
    game = make_game(data, params)  # unknown/bad --param raise PnpError here
    if players is None:
        players = type(game).max_players
    if not isinstance(players, int):
        raise PnpError(f"--players {players!r}: expected a whole number")
    game.check_players(players)
    names = parse_bots(bots, entry.bots, data.slug)
    if invariants not in LEVELS:
        raise PnpError(f"--invariants {invariants!r}: expected one of {', '.join(LEVELS)}")
    if json_path is not None and not (Path(json_path).parent or Path(".")).is_dir():
        raise PnpError(f"--json {json_path}: folder {Path(json_path).parent} does not exist")
    return game, players, names, entry


def run_simulation(data: "GameData", players: int | None, games: int,
                   bots: str | Sequence[str], seed: int, jobs: int,
                   params: Mapping[str, str], invariants: str = DEFAULT_LEVEL,
                   step_cap: int = DEFAULT_STEP_CAP, json_path: Path | None = None,
                   progress: bool = False) -> tuple[str, dict[str, Any], int]:
    """Validate inputs, simulate, and return ``(text_report, report_dict, exit_code)``.

    ``players`` None means the game's maximum. ``report_dict`` is the
    deterministic report plus a separate top-level ``elapsed_s`` and
    ``processes``; it is also written atomically to ``json_path`` when given.
    ``exit_code`` is 1 if any game broke an invariant, raised or hit the step
    cap, else 0. Bad input raises :class:`PnpError`.
    """
    _check_ints(games, jobs, step_cap, seed)
    game, players, names, entry = _prepare(data, players, bots, params, invariants, json_path)
    started = time.perf_counter()
    with _progress_bar(progress, games, f"Simulating {data.slug}") as bar:
        result = simulate(game, players, games, names, seed, jobs=jobs, invariants=invariants,
                          step_cap=step_cap, progress=bar, bot_classes=dict(entry.bots),
                          stats=entry.stats)
    elapsed = time.perf_counter() - started
    report = build_report(result)
    lines: list[str] = []
    if result.totals.stats is not None and report["game_figures"] is not None:
        lines = result.totals.stats.format(report["game_figures"]["figures"])
    procs = (f"{result.jobs} process{'es' if result.jobs > 1 else ''}"
             + (f" (asked for {result.jobs_asked}; {games} games make "
                f"{-(-games // 250)} chunk{'s' if games > 250 else ''} of at most 250)"
                if result.jobs_asked > result.jobs else ""))
    text = format_report(report, figure_lines=lines) + (
        f"Elapsed: {elapsed:.2f} s ({games / elapsed:,.0f} games/s on {procs})\n")
    report["elapsed_s"] = round(elapsed, 3)
    report["processes"] = result.jobs
    if json_path is not None:
        write_json_atomic(Path(json_path), report)
    return text, report, 0 if result.ok else 1


def run_sweep(data: "GameData", sweeps: Sequence[str], players: int | None, games: int,
              bots: str | Sequence[str], seed: int, jobs: int, params: Mapping[str, str],
              invariants: str = DEFAULT_LEVEL, step_cap: int = DEFAULT_STEP_CAP,
              json_path: Path | None = None, progress: bool = False
              ) -> tuple[str, dict[str, Any], int]:
    """Play the same seeds for every swept value; return (table, JSON dict, exit code)."""
    from pnp.sim.sweep import format_sweep, key_figures, parse_sweep, variants

    _check_ints(games, jobs, step_cap, seed)
    parsed = [parse_sweep(s) for s in sweeps]
    grid = variants(parsed)
    swept = [s.name for s in parsed]
    clash = sorted(set(swept) & set(params))
    if clash:
        raise PnpError(f"--sweep {clash[0]}: also given with --param; give it once")
    # Build every variant first so a bad value fails before any game is played.
    prepared = [_prepare(data, players, bots, {**params, **combo}, invariants, json_path)
                for combo in grid]
    rows = []
    ok = True
    with _progress_bar(progress, games * len(grid), f"Sweeping {data.slug}") as bar:
        for combo, (game, n, names, entry) in zip(grid, prepared):
            result = simulate(game, n, games, names, seed, jobs=jobs, invariants=invariants,
                              step_cap=step_cap, progress=bar, bot_classes=dict(entry.bots),
                              stats=entry.stats)
            stats = result.totals.stats
            own = stats.key_figures(stats.to_dict()) if stats is not None and \
                result.totals.completed else []
            ok = ok and result.ok
            rows.append({"values": {k: game.params[k] for k in combo}, "ok": result.ok,
                         "figures": key_figures(result, own)})
    game0, n0, names0, _entry = prepared[0]
    doc = {"slug": data.slug, "title": game0.title, "swept": swept, "players": n0,
           "games": games, "seed": seed, "bots": names0, "invariants": invariants,
           "fixed_params": {k: v for k, v in sorted(game0.params.items()) if k not in swept},
           "rows": rows}
    if json_path is not None:
        write_json_atomic(Path(json_path), doc)
    return format_sweep(doc), doc, 0 if ok else 1
