"""The rules validator's simulator: bots, a parallel runner, reports and sweeps.

:func:`run_simulation` and :func:`run_sweep` are the entry points the CLI
calls with the card data it loaded once; :func:`simulate`, :func:`replay` and
:func:`build_report` are the library pieces behind them.
"""

from __future__ import annotations

import json
import os
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence

from pnp.errors import PnpError
from pnp.fileio import is_stdout, write_text_atomic, write_text_output
from pnp.limits import MAX_JOBS as _MAX_JOBS
from pnp.sim.cluster import check_cluster
from pnp.sim.aggregate import Aggregate, Failure
from pnp.sim.bots import parse_bots, seat_bots
from pnp.sim.invariants import DEFAULT_LEVEL, LEVELS, check_final, check_state
from pnp.sim.report import build_report, format_report, params_text
from pnp.sim.runner import (DEFAULT_STEP_CAP, Interrupted, SimResult, Variant, derive_seed,
                            replay, simulate, simulate_variants)

if TYPE_CHECKING:
    from pnp.data.inventory import GameData
    from pnp.games.api import Game

__all__ = ["Aggregate", "DEFAULT_LADDER", "DEFAULT_LEVEL", "DEFAULT_STEP_CAP", "Failure",
           "Interrupted", "LEVELS", "SimResult", "Variant", "build_report", "check_final",
           "check_state", "derive_seed", "format_report", "parse_bots", "replay",
           "run_compare", "run_ladder", "run_simulation", "run_sweep", "seat_bots", "simulate",
           "simulate_variants", "write_json_atomic"]

#: The most games one run plays (hours of play even for the fastest game).
MAX_GAMES = 10_000_000
#: Most worker processes (or LocalCluster workers) one run may start: the
#: command line's one limit (pnp.limits), help and check alike.
MAX_JOBS = _MAX_JOBS
#: Budgets of the skill ladder when none are given (doubling, as the issue asks).
DEFAULT_LADDER = (8, 16, 32, 64, 128, 256)


def write_json_atomic(path: Path, data: Any) -> None:
    """Write ``data`` as JSON to ``path`` via a temp file and ``os.replace``
    (to standard output when ``path`` is ``-``)."""
    body = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    if is_stdout(path):
        write_text_output(path, body)
        return
    path = Path(path)
    _check_out("--json", path)
    write_text_atomic(path, body)


def _check_ints(games: Any, jobs: Any, step_cap: Any, seed: Any) -> None:
    """One-line errors for bad run sizes."""
    if not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        # the run plans its chunks up front: 10**14 games took gigabytes in
        # seconds before playing one, and would never have finished anyway
        raise PnpError(f"--games {games}: expected a whole number from 1 to {MAX_GAMES} "
                       "(for more, run again with another --seed)")
    if not isinstance(jobs, int) or not 1 <= jobs <= MAX_JOBS:
        # one process (or Dask worker) each: a typo such as -j 1000 started
        # hundreds of processes before a game was played
        raise PnpError(f"--jobs {jobs}: expected a whole number from 1 to {MAX_JOBS}")
    if not isinstance(step_cap, int) or step_cap < 1:
        raise PnpError(f"--step-cap {step_cap}: expected a whole number ≥ 1")
    if not isinstance(seed, int) or seed < 0:
        # Seeds are hashed as text, so -1 would silently be a seed of its own;
        # a negative seed is far more likely a typo than a choice.
        raise PnpError(f"--seed {seed!r}: expected a whole number ≥ 0")


def _check_paired_games(games: int, mode: str) -> None:
    """One-line error when a paired mode gets one game: its interval would be a point.

    With one game the paired difference has no spread, so any change would
    read as certain ("excludes 0"); two games are the least that show one.
    """
    if games < 2:
        raise PnpError(f"--games {games}: {mode} compares the same deals game by game and "
                       "needs at least 2 games")


def _start(games: Any, jobs: Any, step_cap: Any, seed: Any, mode: str | None,
           html_path: Path | None, cluster: str | None, progress: bool,
           json_path: Path | None) -> bool:
    """The checks every run makes before anything else; returns whether to draw
    the progress bar.

    ``mode`` (``--sweep``, ``--compare``, ``--ladder``) pairs games and needs
    two. No bar when the JSON report goes to standard output (``--json -``):
    that run is read by a program, whose log a redrawn bar only clutters.
    """
    _check_ints(games, jobs, step_cap, seed)
    if mode is not None:
        _check_paired_games(games, mode)
    _check_out("--html", html_path)
    _check_distinct({"--json": json_path, "--html": html_path})
    check_cluster(cluster)
    return progress and not is_stdout(json_path)


@contextmanager
def _progress_bar(enabled: bool, length: int, label: str
                  ) -> Iterator[Callable[[int], None] | None]:
    """A click progress bar on stderr (or nothing)."""
    if not enabled:
        yield None
        return
    import click
    with click.progressbar(length=length, label=label, file=sys.stderr,
                           show_eta=True) as bar:
        yield bar.update


#: The file name suffix each report option writes (for the example in a message).
_OUT_SUFFIX = {"--json": ".json", "--html": ".html"}


def _check_out(option: str, path: Path | str | None) -> None:
    """One-line error when an output file cannot be written where it is asked for.

    Its folder must exist (pnp does not create it: a typo would silently make
    a new folder tree), must be a folder and not a file, and the path itself
    must not be a folder. Standard output (``-``) is always fine.
    """
    if path is None:
        return
    if is_stdout(path):
        if option == "--json":
            return
        # it wrote a file called "-" where the run was started
        raise PnpError(f"{option} -: the chart page goes to a file, not standard output; "
                       "expected a file name such as report.html (--json - writes the "
                       "report to standard output)")
    path = Path(path)
    if path.is_dir():
        raise PnpError(f"{option} {path}: that is a folder, expected a file name "
                       f"(e.g. {path / 'report'}{path.suffix or _OUT_SUFFIX.get(option, '')})")
    folder = path.parent
    if folder.is_dir():
        _check_writable(option, path, folder)
        return
    # the nearest part of the path that exists says what is wrong with it
    for part in (folder, *folder.parents):
        if part.exists():
            if not part.is_dir():
                raise PnpError(f"{option} {path}: {part} is a file, not a folder; "
                               "expected the report's path in an existing folder")
            break
    raise PnpError(f"{option} {path}: folder {folder} does not exist; "
                   "create it first, or write the report into an existing folder")


def _check_writable(option: str, path: Path, folder: Path) -> None:
    """One-line error when ``folder`` exists but a file cannot be made in it.

    Asked before any game is played: a run of minutes that then cannot save
    its report loses it. The only sure test is to try, so a uniquely named
    empty file is created and removed again (a permission check such as
    ``os.access`` misreads read-only mounts, ACLs and file systems like /sys).
    """
    probe = folder / f".pnp-write-check-{os.getpid()}-{os.urandom(4).hex()}.tmp"
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as exc:
        raise PnpError(f"{option} {path}: cannot write into folder {folder} "
                       f"({exc.strerror or exc}); expected a folder you may write to"
                       ) from None
    os.close(fd)
    try:
        probe.unlink()
    except OSError:
        pass  # a file system that lets us create but not remove: writing still works


def _same_file(a: Path, b: Path) -> bool:
    """True when two paths name one file (``out`` and ``./out``, a symlink, a hard link)."""
    if os.path.abspath(a) == os.path.abspath(b) or a.resolve() == b.resolve():
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:                       # one of them does not exist yet
        return False


def _check_distinct(outputs: Mapping[str, Path | str | None]) -> None:
    """One-line usage error when two output options write the same file.

    ``--json out --html out`` wrote the JSON and then replaced it with the
    chart page, silently; whichever came last won. Standard output (``-``)
    is not a file and is left out.
    """
    given = [(option, Path(p)) for option, p in outputs.items()
             if p is not None and not is_stdout(p)]
    for i, (first, a) in enumerate(given):
        for second, b in given[i + 1:]:
            if _same_file(a, b):
                raise PnpError(f"{first} {a} and {second} {b}: the same file; expected a "
                               f"different path for each (e.g. {a.with_suffix('.json')} "
                               f"and {a.with_suffix('.html')})")


def _write_html(path: Path | None, page: str) -> None:
    """Write the chart page atomically (never half-written)."""
    if path is not None:
        write_text_atomic(Path(path), page)


def _save_reports(text: str, json_path: Path | None, doc: Any, html_path: Path | None,
                  page: Callable[[], str]) -> None:
    """Write the JSON report and the chart page; if one cannot be written, keep the run.

    The folders were checked before play (:func:`_check_out`), but a disk can
    fill or a folder be removed during a long run. Then the text report is
    printed first (to standard output, or standard error when the JSON was
    to go there) so the games played are not lost, and the first failure is
    raised as the one-line error (non-zero exit). Every report that can be
    written still is.
    """
    failed: PnpError | None = None
    if json_path is not None:
        try:
            write_json_atomic(Path(json_path), doc)
        except PnpError as exc:
            failed = exc
    if html_path is not None:
        try:
            _write_html(html_path, page())
        except PnpError as exc:
            failed = failed or exc
    if failed is not None:
        import click

        click.echo(text, nl=False, err=json_path is not None and is_stdout(json_path))
        raise failed


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
    _check_setup(game, players, params)
    names = parse_bots(bots, entry.bots, data.slug)
    if players > 1 and len(names) > players:
        # Seats take the list in turn, so extra names would sit out some games:
        # almost always a list written for another player count. (Solo games
        # take a longer list on purpose: the bots play alternate runs.)
        raise PnpError(f"--bots {','.join(names)}: {len(names)} bots for {players} players; "
                       f"give at most {players} (seats take them in turn)")
    if invariants not in LEVELS:
        raise PnpError(f"--invariants {invariants!r}: expected one of {', '.join(LEVELS)}")
    _check_out("--json", json_path)
    return game, players, names, entry


def _check_setup(game: "Game[Any]", players: int, params: Mapping[str, str]) -> None:
    """One-line error when the set-up itself cannot be dealt (``hand_size=20`` for 4 players).

    Each parameter is in its own range, yet together with the seat count
    they may ask for more cards than the game has: the engine refuses that
    deal, and without this check every game of the run would be reported as
    a failure with a trace, instead of one line before any game is played.
    """
    try:
        game.new_initial_state(players, 0)
    except PnpError as exc:
        given = ", ".join(f"{k}={v}" for k, v in params.items())
        what = f"parameters {given}" if given else "the game's set-up"
        raise PnpError(f"{what} with {players} players: {exc.message} "
                       "(expected values whose set-up fits the cards)") from None


def run_simulation(data: "GameData", players: int | None, games: int,
                   bots: str | Sequence[str], seed: int, jobs: int,
                   params: Mapping[str, str], invariants: str = DEFAULT_LEVEL,
                   step_cap: int = DEFAULT_STEP_CAP, json_path: Path | None = None,
                   progress: bool = False, cluster: str | None = None,
                   html_path: Path | None = None, jobs_given: bool = True
                   ) -> tuple[str, dict[str, Any], int]:
    """Validate inputs, simulate, and return ``(text_report, report_dict, exit_code)``.

    ``players`` None means the game's maximum. ``report_dict`` is the
    deterministic report plus a separate top-level ``elapsed_s`` and
    ``processes``; it is also written atomically to ``json_path`` when given,
    and drawn as a chart page to ``html_path``. ``exit_code`` is 1 if any game
    broke an invariant, raised or hit the step cap, else 0. Bad input raises
    :class:`PnpError`. ``jobs_given`` False says ``jobs`` is the command
    line's default (the CPU count), not a number the user asked for: the
    elapsed line words a run that used fewer processes for that case.
    """
    progress = _start(games, jobs, step_cap, seed, None, html_path, cluster, progress,
                      json_path)
    game, players, names, entry = _prepare(data, players, bots, params, invariants, json_path)
    started = time.perf_counter()
    with _progress_bar(progress, games, f"Simulating {data.slug}, {players} player"
                       f"{'s' if players != 1 else ''}") as bar:
        result = simulate(game, players, games, names, seed, jobs=jobs, invariants=invariants,
                          step_cap=step_cap, progress=bar, bot_classes=dict(entry.bots),
                          stats=entry.stats, cluster=cluster, length_unit=entry.length_unit)
    elapsed = time.perf_counter() - started
    report = build_report(result, entry.length_unit)
    lines: list[str] = []
    if result.totals.stats is not None and report["game_figures"] is not None:
        lines = result.totals.stats.format(report["game_figures"]["figures"])
    where = (f"the Dask cluster {cluster} ({jobs} worker{'s' if jobs > 1 else ''} asked)"
             if cluster else f"{result.jobs} process{'es' if result.jobs > 1 else ''}")
    if not cluster and result.jobs_asked > result.jobs:
        # the default is one process per CPU: "asked for 2" misreads a run
        # whose user never passed --jobs
        where += (f" (asked for {result.jobs_asked}; {games} games make too few chunks)"
                  if jobs_given else
                  f" ({games} games make too few chunks for one per CPU, "
                  f"{result.jobs_asked})")
    text = format_report(report, figure_lines=lines) + (
        f"Elapsed: {elapsed:.2f} s ({games / elapsed:,.1f} games/s on {where})\n")
    report["elapsed_s"] = round(elapsed, 3)
    report["processes"] = result.jobs

    def page() -> str:
        from pnp.sim.html import report_page
        return report_page(report, figure_lines=lines)

    _save_reports(text, json_path, report, html_path, page)
    return text, report, 0 if result.ok else 1


def _variants(data: "GameData", grid: Sequence[Mapping[str, str]], players: int | None,
              bots: str | Sequence[str], params: Mapping[str, str], invariants: str,
              json_path: Path | None) -> tuple[list[Variant], int]:
    """One variant per parameter combination (each built, so a bad value fails first)."""
    out = []
    n0 = None
    for combo in grid:
        game, n, names, entry = _prepare(data, players, bots, {**params, **combo}, invariants,
                                         json_path)
        n0 = n if n0 is None else n0
        out.append(Variant(game, tuple(names), dict(entry.bots), entry.stats,
                           entry.length_unit))
    assert n0 is not None
    return out, n0


def _params_key(variant: Variant) -> tuple[tuple[str, str], ...]:
    """The rules a variant plays, as the game read them: ``7`` and ``07``, or
    ``false`` and ``False``, give one key (a sweep or comparison given both
    would play, print and pair one variant twice)."""
    return tuple(sorted((k, repr(val)) for k, val in variant.game.params.items()))


def _labels(results: Sequence[SimResult], rows: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """The game's names for the key figures of a sweep's or comparison's rows."""
    from pnp.sim.sweep import figure_labels

    return figure_labels((r.totals.stats for r in results if r.totals.stats is not None),
                         (f["name"] for row in rows for f in row["figures"]))


def _row(result: SimResult, values: Mapping[str, Any]) -> dict[str, Any]:
    """A sweep or comparison row: values, ok, key figures (shared and the game's own)."""
    from pnp.sim.sweep import key_figures

    stats = result.totals.stats
    own = stats.key_figures(stats.to_dict()) if stats is not None and \
        result.totals.completed else []
    return {"values": dict(values), "ok": result.ok, "figures": key_figures(result, own)}


def run_sweep(data: "GameData", sweeps: Sequence[str], players: int | None, games: int,
              bots: str | Sequence[str], seed: int, jobs: int, params: Mapping[str, str],
              invariants: str = DEFAULT_LEVEL, step_cap: int = DEFAULT_STEP_CAP,
              json_path: Path | None = None, progress: bool = False,
              cluster: str | None = None, html_path: Path | None = None
              ) -> tuple[str, dict[str, Any], int]:
    """Play the same seeds for every swept value; return (table, JSON dict, exit code).

    Several ``sweeps`` form a grid; every row is also differenced game by
    game against the first row (paired intervals, :mod:`pnp.sim.paired`).
    """
    from pnp.sim.sweep import format_sweep, parse_sweep, variants

    progress = _start(games, jobs, step_cap, seed, "--sweep", html_path, cluster, progress,
                      json_path)
    parsed = [parse_sweep(s) for s in sweeps]
    grid = variants(parsed)
    swept = [s.name for s in parsed]
    clash = sorted(set(swept) & set(params))
    if clash:
        raise PnpError(f"--sweep {clash[0]}: also given with --param; give it once")
    # Build every variant first so a bad value fails before any game is played.
    prepared, n0 = _variants(data, grid, players, bots, params, invariants, json_path)
    seen: dict[tuple[tuple[str, str], ...], dict[str, str]] = {}
    for combo, v in zip(grid, prepared):
        key = _params_key(v)
        if key in seen:
            # 7 and 07, or true and True: the game reads them as one value, so
            # the table would repeat a row (and pair it with itself).
            same = ", ".join(f"{k}={seen[key][k]} and {combo[k]}" for k in combo
                             if seen[key][k] != combo[k])
            raise PnpError(f"--sweep: {same} are the same value; give each once")
        seen[key] = combo
    with _progress_bar(progress, games * len(grid), f"Sweeping {data.slug}") as bar:
        results, pairs = simulate_variants(prepared, n0, games, seed, jobs, invariants,
                                           step_cap, bar, cluster=cluster, paired=True)
    rows = []
    for i, (combo, v, result) in enumerate(zip(grid, prepared, results)):
        row = _row(result, {k: v.game.params[k] for k in combo})
        if pairs is not None and i:
            row["paired"] = pairs.to_dict(i)
        rows.append(row)
    game0 = prepared[0].game
    doc = {"slug": data.slug, "title": game0.title, "swept": swept, "players": n0,
           "games": games, "seed": seed, "bots": list(prepared[0].bots),
           "length_unit": prepared[0].length_unit,
           "invariants": invariants,
           "fixed_params": {k: v for k, v in sorted(game0.params.items()) if k not in swept},
           "rows": rows, "figure_labels": _labels(results, rows)}
    text = format_sweep(doc)

    def page() -> str:
        from pnp.sim.html import sweep_page
        return sweep_page(doc)

    _save_reports(text, json_path, doc, html_path, page)
    ok = all(r.ok for r in results)
    return text, doc, 0 if ok else 1


def _figure_text(name: str) -> Callable[[float], str]:
    """How to print a key figure: a rate as a percentage, a mean (``mean…``) as a number."""
    from pnp.sim.sweep import is_rate

    if not is_rate(name):
        return lambda x: f"{x:.4g}"
    return lambda x: f"{100 * x:.1f}%"


def _own_figure(f: Mapping[str, Any]) -> str:
    """A comparison's own-figure value with its interval: ``14.4% (12.4%–16.7%)``.

    A mean over games that were all alike has no interval (null bounds,
    :func:`pnp.sim.findings.figure_dict`): it says so, as the report's
    other means do, instead of "6 (6–6)".
    """
    show = _figure_text(f["name"])
    if f.get("low") is None or f.get("high") is None:
        return f"{show(f['value'])} (every game alike: no interval)"
    return f"{show(f['value'])} ({show(f['low'])}–{show(f['high'])})"


def _parse_compare(spec: str) -> dict[str, str]:
    """``key=value[,key2=value2]`` of one ``--compare`` into a parameter dict."""
    out: dict[str, str] = {}
    for part in spec.split(","):
        key, sep, value = part.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise PnpError(f"--compare {spec!r}: expected KEY=VALUE (several joined by commas), "
                           "e.g. end_deck_size=10")
        out[key.strip()] = value.strip()
    return out


def run_compare(data: "GameData", compares: Sequence[str], players: int | None, games: int,
                bots: str | Sequence[str], seed: int, jobs: int, params: Mapping[str, str],
                invariants: str = DEFAULT_LEVEL, step_cap: int = DEFAULT_STEP_CAP,
                json_path: Path | None = None, progress: bool = False,
                cluster: str | None = None, html_path: Path | None = None
                ) -> tuple[str, dict[str, Any], int]:
    """The rules as given against each ``--compare`` change, on the same deals.

    Returns (text, JSON dict, exit code): per change, the mean difference of
    every per-game outcome with its paired 95% interval (and what two
    independent runs would have given), plus each variant's key figures.
    """
    from pnp.sim.paired import (change_sentence, format_difference, outcome_label,
                                sentence_family, shown_outcomes)
    from pnp.sim.sweep import GENERIC_FIGURES

    progress = _start(games, jobs, step_cap, seed, "--compare", html_path, cluster, progress,
                      json_path)
    changes = [_parse_compare(c) for c in compares]
    grid: list[dict[str, str]] = [{}] + changes
    prepared, n0 = _variants(data, grid, players, bots, params, invariants, json_path)
    earlier: dict[tuple[tuple[str, str], ...], str] = {}
    for spec, v in zip(compares, prepared[1:]):
        if v.game.params == prepared[0].game.params:
            # Every difference would be exactly 0: a typo, or the default itself.
            raise PnpError(f"--compare {spec}: the rules as given already have this value; "
                           "compare against a different one")
        key = _params_key(v)
        if key in earlier:
            # all_in=false and all_in=False: one change, played and printed twice.
            raise PnpError(f"--compare {spec}: the same change as --compare {earlier[key]}; "
                           "give each change once")
        earlier[key] = spec
    with _progress_bar(progress, games * len(grid), f"Comparing {data.slug}") as bar:
        results, pairs = simulate_variants(prepared, n0, games, seed, jobs, invariants,
                                           step_cap, bar, cluster=cluster, paired=True)
    assert pairs is not None
    game0 = prepared[0].game
    unit = prepared[0].length_unit
    rows = []
    for i, (change, result) in enumerate(zip(grid, results)):
        row = _row(result, change)
        if i:
            row["paired"] = pairs.to_dict(i)
            row["sentence"] = change_sentence(row["paired"]["differences"], n0,
                                              prepared[0].bots,
                                              row["paired"]["games_paired"], unit)
        rows.append(row)
    doc: dict[str, Any] = {"slug": data.slug, "title": game0.title, "players": n0, "games": games,
           "seed": seed, "bots": list(prepared[0].bots), "invariants": invariants,
           "length_unit": unit,
           "params": {k: v for k, v in sorted(game0.params.items())}, "rows": rows,
           "figure_labels": _labels(results, rows)}
    out = [f"{game0.title} ({data.slug}): the rules as given against "
           f"{len(changes)} change{'s' if len(changes) != 1 else ''} — {n0} player"
           f"{'s' if n0 != 1 else ''}, {games} games each on the same deals (seed {seed}), "
           f"bots {','.join(prepared[0].bots)}",
           "Base: " + params_text(doc["params"]),
           ""]
    for row in rows[1:]:
        label = params_text(row["values"])
        paired = row["paired"]
        family = len(sentence_family(paired["differences"], n0, prepared[0].bots))
        out.append(f"{label} ({paired['games_paired']} games paired; base → changed, "
                   "difference; * = its own 95% paired interval excludes 0; the sentence "
                   f"names only changes that hold up with the {family} outcomes tested "
                   "together, Holm):")
        out.append(f"  In short: {row['sentence']}")
        diffs = paired["differences"]
        for name in shown_outcomes(diffs, n0, prepared[0].bots):
            out.append("  " + format_difference(name, diffs[name],
                                                outcome_label(name, prepared[0].bots, unit)))
        own = [f for f in row["figures"] if f["name"] not in GENERIC_FIGURES]
        base_own = {f["name"]: f for f in rows[0]["figures"]}
        for f in own:
            b = base_own.get(f["name"])
            if b is not None:
                name = doc["figure_labels"].get(f["name"], f["name"])
                out.append(f"  {name:<16} {_own_figure(b)} → {_own_figure(f)}  "
                           "[the game's own figure; unpaired]")
        out.append("")
    if not all(r.ok for r in results):
        out.append("Some games failed: run the variant alone with pnp simulate --param … "
                   "for the traces.")
    text = "\n".join(out) + "\n"

    def page() -> str:
        from pnp.sim.html import compare_page
        return compare_page(doc)

    _save_reports(text, json_path, doc, html_path, page)
    return text, doc, 0 if all(r.ok for r in results) else 1


def _parse_budgets(spec: str | Sequence[int] | None) -> list[int]:
    """``8,16,32`` or ``8:256`` (doubling) into a checked, ascending budget list.

    Every number is checked against 1 … ``MAX_BUDGET`` *before* the doubling
    loop runs: a LO of 0 or below never grows by doubling, and ``0:4`` once
    looped forever, filling memory until the host's OOM killer stopped it.
    """
    from pnp.games.search import MAX_BUDGET

    if spec is None:
        return list(DEFAULT_LADDER)
    problem = (f"--budgets {spec!r}: expected two or more ascending iteration counts "
               f"in 1–{MAX_BUDGET}, as 8,16,32 or LO:HI (doubling), e.g. 8:256")
    try:
        if not isinstance(spec, str):
            values = [int(v) for v in spec]
        elif ":" in spec:
            lo, hi = (int(x) for x in spec.split(":"))
            if not 1 <= lo <= hi <= MAX_BUDGET:
                raise PnpError(problem)
            # lo ≥ 1 doubles past hi ≤ MAX_BUDGET in at most 17 steps
            values = [lo << k for k in range(hi.bit_length()) if lo << k <= hi]
        else:
            values = [int(x) for x in spec.split(",")]
    except (ValueError, TypeError):
        raise PnpError(problem) from None
    if len(values) < 2 or any(not 1 <= v <= MAX_BUDGET for v in values) or \
            values != sorted(set(values)):
        raise PnpError(problem)
    return values


def run_ladder(data: "GameData", players: int | None, games: int, field: str | None,
               seed: int, jobs: int, params: Mapping[str, str],
               budgets: str | Sequence[int] | None = None,
               invariants: str = DEFAULT_LEVEL, step_cap: int = DEFAULT_STEP_CAP,
               json_path: Path | None = None, progress: bool = False,
               cluster: str | None = None, html_path: Path | None = None,
               search: str | None = None) -> tuple[str, dict[str, Any], int]:
    """The skill ladder (:mod:`pnp.sim.ladder`): returns (text, JSON dict, exit code).

    ``field`` is one bot name (default: the game's own bot); ``budgets`` as
    ``8,16,32`` or ``LO:HI`` (doubling), default 8 → 256; ``search`` the
    searcher's fields after its iteration count on every rung (``d16``).
    """
    from pnp.games.registry import game_entry
    from pnp.sim.findings import ladder_sentences
    from pnp.sim.ladder import default_field, ladder_text, skill_ladder

    progress = _start(games, jobs, step_cap, seed, "--ladder", html_path, cluster, progress,
                      json_path)
    entry = game_entry(data.slug)
    steps = _parse_budgets(budgets)
    field = (field or default_field(entry.bots)).strip()
    if "," in field:
        raise PnpError(f"--bots {field!r}: with --ladder, give one bot: the field every "
                       "other seat plays")
    if search is not None:
        search = search.strip()
        if not search or "," in search:
            raise PnpError(f"--ladder-search {search!r}: expected the searcher's fields after "
                           "its iteration count, e.g. d16 (truncated playouts) or random")
        if "mcts" in entry.bots:  # (without it skill_ladder says why)
            # a bad field fails here, before any game is played
            try:
                parse_bots([f"mcts:{steps[0]}:{search}"], entry.bots, data.slug)
            except PnpError as exc:
                raise PnpError(f"--ladder-search {search!r}: {exc}") from None
    game, n, _names, _entry = _prepare(data, players, [field], params, invariants, json_path)
    with _progress_bar(progress, games * (len(steps) + (n == 1)), f"Ladder {data.slug}") as bar:
        doc = skill_ladder(game, n, games, seed, steps, field, dict(entry.bots), entry.stats,
                           jobs, invariants, step_cap, bar, cluster,
                           length_unit=entry.length_unit, search=search)
    doc["score_unit"] = getattr(entry.stats, "score_unit", "") or ""
    doc["sentences"] = [] if n == 1 else ladder_sentences(doc)
    if n == 1:
        doc["sentences"] = _solo_ladder_sentences(doc)
    text = ladder_text(doc, doc["sentences"])

    def page() -> str:
        from pnp.sim.html import ladder_page
        return ladder_page(doc)

    _save_reports(text, json_path, doc, html_path, page)
    return text, doc, 0 if doc["ok"] else 1


def _solo_ladder_sentences(doc: dict[str, Any]) -> list[str]:
    """A solo ladder's finding: does search beat the field bot on the same deals?

    The best rung is picked from several, so "search pays" must hold up with
    every rung tested together (Holm, :mod:`pnp.sim.multiple`): with six
    rungs each at 95 %, one would clear the field by chance far too often.
    """
    from pnp.sim.multiple import holm
    from pnp.sim.paired import row_p_value

    rungs = doc["rungs"]
    # only "above the field" is the finding: a rung below it counts as no evidence
    p_values = [row_p_value(r["paired_vs_field"], doc["games"])
                if r["paired_vs_field"]["mean"] > 0 else 1.0 for r in rungs]
    held = [r for r, ok in zip(rungs, holm(p_values)) if ok]
    best = max(held or rungs, key=lambda r: r["paired_vs_field"]["mean"])
    d = best["paired_vs_field"]
    if held:
        return [f"Search pays: at {best['budget']} iterations the searching bot scores "
                f"{d['mean']:+.2f} over {doc['field']} on the same deals (95 % "
                f"{d['low']:+.2f} … {d['high']:+.2f}; holds with the {len(rungs)} budgets "
                "tested together)."]
    return [f"No budget scores clearly above {doc['field']} on the same deals, the "
            f"{len(rungs)} budgets tested together (best {d['mean']:+.2f} at "
            f"{best['budget']} iterations)."]
