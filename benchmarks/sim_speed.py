"""Benchmark the validator's simulator: games/s per engine and runner overhead.

For every registered engine (built from ``card_data/``) and for the toy game
of ``tests/sim/toy_game.py`` (78 cards), at 4 players (or the game's own
count when 4 is not allowed), prints games/s for

* random bots with invariants off, sample (the default) and full, and the
  game's own bot (invariants off),
* on 1 process and on all cores (``jobs = os.cpu_count()``),

then the cost of each invariant level against ``off`` and the 2-process
speed-up, the runner's own overhead (runner vs. a bare
``legal_actions → choice → apply_action`` loop on the toy game), and peak
memory of ``pnp simulate`` at 1,000 and 100,000 games. Targets (issue 7):
default invariants ≤ 3× the cost of off; Fortune Clover 4p ≥ 1,500 games/s
per core (random); 第2話 ≥ 5,000 runs/s per core (heuristic bot).

Each target runs in its own subprocess with a memory cap and a time limit, so
a broken engine is reported and skipped instead of stalling the run.

Usage: ``python benchmarks/sim_speed.py [--seconds 2] [--players 4] [--only toy]``
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "sim"))

from pnp.data import load_game_data  # noqa: E402
from pnp.games import engine_slugs, make_game, registered_games  # noqa: E402
from pnp.games.api import Game  # noqa: E402
from pnp.sim import simulate  # noqa: E402

DATA = ROOT / "card_data"


def _calibrate(make: Callable[[], Game], players: int, bots: list[str], check: str,
               seconds: float) -> int:
    """Games one process plays in about ``seconds`` (past the fully checked first games)."""
    probe = 60 if check == "sample" else 20
    t0 = time.perf_counter()
    simulate(make(), players, probe, bots, 0, jobs=1, invariants=check)
    per_game = (time.perf_counter() - t0) / probe
    return max(probe, int(seconds / max(per_game, 1e-7)))


def _cpu_clock() -> tuple[float, float, float]:
    """(machine busy CPU-seconds, our own CPU-seconds incl. reaped children, wall)."""
    with open("/proc/stat", encoding="ascii") as fh:
        ticks = [int(v) for v in fh.readline().split()[1:]]
    hz = os.sysconf("SC_CLK_TCK")
    busy = (ticks[0] + ticks[1] + ticks[2]) / hz  # user + nice + system
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    mine = own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime
    return busy, mine, time.perf_counter()


def _rate(make: Callable[[], Game], players: int, bots: list[str], check: str, jobs: int,
          games: int) -> tuple[float, int, float]:
    """Games/s for one run of ``games`` games, failed games, and foreign load.

    Each run gets a fresh game from ``make`` (as the CLI would), so engine-side
    caches warmed by an earlier run do not flatter later ones. Foreign load is
    the CPU other processes used during the run, in cores (0 when the machine
    was ours alone; it is a shared 2-core box, so figures with foreign load are
    marked as contended).
    """
    b0, m0, t0 = _cpu_clock()
    res = simulate(make(), players, games, bots, 1, jobs=jobs, invariants=check)
    b1, m1, t1 = _cpu_clock()
    foreign = max(0.0, ((b1 - b0) - (m1 - m0)) / (t1 - t0))
    return games / (t1 - t0), len(res.failures), foreign


def bench_game(label: str, make: Callable[[], Game], players: int, seconds: float,
               repeat: int) -> None:
    """Print the games/s table for one game (best of ``repeat`` runs each).

    The machine is a shared VM whose speed drifts; best-of-N with the 1- and
    N-process runs interleaved keeps the speed-up honest.
    """
    cores = os.cpu_count() or 1
    game = make()
    print(f"\n{label} — {players} players, {len(game.deck())} cards "
          f"(cpu_count = {cores}, best of {repeat})")
    own = [b for b in registered_games()[game.slug].bots if b != "random"] \
        if game.slug in registered_games() else []
    configs: list[tuple[str, list[str], str]] = [
        ("random, invariants off", ["random"], "off"),
        ("random, invariants sample", ["random"], "sample"),
        ("random, invariants full", ["random"], "full"),
    ] + [(f"{b}, invariants off", [b], "off") for b in own]
    job_counts = sorted({1, 2, cores}) if cores >= 2 else [1]
    one_process: dict[str, float] = {}
    for name, bots, check in configs:
        try:
            per_proc = _calibrate(make, players, bots, check,
                                  seconds / 2 if check == "full" else seconds)
            best = {j: 0.0 for j in job_counts}
            load = {j: 0.0 for j in job_counts}
            fails = 0
            for _ in range(repeat):
                for jobs in job_counts:
                    rate, f, foreign = _rate(make, players, bots, check, jobs,
                                             per_proc * jobs)
                    if rate > best[jobs]:
                        best[jobs], load[jobs] = rate, foreign
                    fails += f
        except Exception as exc:  # a broken engine must not stop the benchmark
            print(f"  {name:<24} failed: {type(exc).__name__}: {exc}")
            continue
        note = f"  ({fails} failed games!)" if fails else ""
        for jobs in job_counts:
            if jobs == 2 and cores > 2:
                continue  # shown only as the speed-up below
            busy = (f"  [contended: other processes used {load[jobs]:.2f} cores]"
                    if load[jobs] > 0.15 else "")
            print(f"  {name:<24} jobs={jobs}: {best[jobs]:9,.0f} games/s "
                  f"({best[jobs] / jobs:,.0f} per process, {per_proc * jobs} games/run)"
                  f"{note}{busy}")
        if 2 in best:
            print(f"  {name:<24} 2-process speed-up: {best[2] / best[1]:.2f}×")
        one_process[check if bots == ["random"] else name] = best[1]
    if "off" in one_process:
        for level in ("sample", "full"):
            if level in one_process:
                print(f"  invariants {level}: {one_process['off'] / one_process[level]:.2f}× "
                      "the time of invariants off (random bots, 1 process)")


def _bare_loop(game: Game, players: int, games: int) -> tuple[float, int]:
    """Seconds and steps for a bare random playout loop (no runner bookkeeping)."""
    steps = 0
    t0 = time.perf_counter()
    for g in range(games):
        state = game.new_initial_state(players, g)
        rnd = random.Random(g).random
        cur, legal_of, apply = state.current_player, state.legal_actions, state.apply_action
        while cur() >= 0:
            legal = legal_of()
            apply(legal[int(rnd() * len(legal))])
            steps += 1
    return time.perf_counter() - t0, steps


def runner_overhead(game: Game, players: int, games: int) -> None:
    """Print the runner's overhead against the bare loop, per step."""
    best_bare = best_run = float("inf")
    steps = 0
    for _ in range(3):  # best of 3 to cut scheduler noise
        t, steps = _bare_loop(game, players, games)
        best_bare = min(best_bare, t)
        t0 = time.perf_counter()
        simulate(game, players, games, ["random"], 0, jobs=1, invariants="off")
        best_run = min(best_run, time.perf_counter() - t0)
    extra = best_run - best_bare
    print(f"\nRunner overhead (toy game, {players} players, {games} games, "
          f"{steps / games:.0f} steps/game, random bots, invariants off, 1 process):")
    print(f"  bare loop {best_bare / steps * 1e6:.3f} µs/step, runner "
          f"{best_run / steps * 1e6:.3f} µs/step; overhead "
          f"{extra / games * 1e6:.1f} µs/game ({100 * extra / best_run:.1f}% of runner "
          "time: seeds, one Mersenne Twister per bot, per-phase counts, totals)")


def memory_growth(slug: str, players: int) -> None:
    """Peak memory of `pnp simulate` at 1,000 and 100,000 games (one process)."""
    print(f"\nPeak memory of pnp simulate {slug} --players {players} "
          "--no-invariants --jobs 1:")
    for games in (1_000, 100_000):
        code = ("import resource, sys; from pnp.cli import main\n"
                "try:\n    main()\nexcept SystemExit:\n    pass\n"
                "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)")
        proc = subprocess.run(
            [sys.executable, "-c", code, "simulate", slug, "--players", str(players),
             "--games", str(games), "--no-invariants", "-q", "--data-dir", str(DATA)],
            capture_output=True, text=True, cwd=ROOT)
        rss_mb = int(proc.stderr.strip().splitlines()[-1]) / 1024
        print(f"  {games:>7,} games: {rss_mb:6.1f} MB")


def _bench_one(target: str, args: argparse.Namespace) -> None:
    """Benchmark one target ("toy" or an engine slug) in this process."""
    if target == "toy":
        from toy_game import ToyGame
        from toy_game import toy
        bench_game("Toy game (tests/sim/toy_game.py)", lambda: toy({"cards": 78}),
                   args.players, args.seconds, args.repeat)
        runner_overhead(toy({"cards": 78}), args.players, 3000)
        return
    if target == "memory":
        memory_growth("fortuna", 4)
        return
    try:
        data = load_game_data(DATA, target, strict=True)
        game = make_game(data)
        players = args.players
        if not type(game).min_players <= players <= type(game).max_players:
            players = type(game).max_players
    except Exception as exc:
        print(f"\n{target}: skipped ({type(exc).__name__}: {exc})")
        return
    bench_game(f"{game.title} ({target})", lambda: make_game(data), players,
               args.seconds, args.repeat)


def main(argv: list[str] | None = None) -> int:
    """Run every benchmark, each target in its own time-limited subprocess."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0,
                    help="approximate time per measurement (default 2)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=3, help="runs per figure; best kept")
    ap.add_argument("--mem-limit-gb", type=float, default=4.0,
                    help="address-space cap per target, so a runaway engine raises "
                         "MemoryError instead of taking the shared machine down "
                         "(default 4; 0 = none)")
    ap.add_argument("--timeout", type=float, default=600.0,
                    help="seconds allowed per target before it is stopped (default 600)")
    ap.add_argument("--only", help="benchmark just this target (engine slug, 'toy' or "
                                   "'memory') "
                                   "in this process")
    args = ap.parse_args(argv)
    if args.only:
        if args.mem_limit_gb > 0:
            cap = int(args.mem_limit_gb * 2**30)
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        _bench_one(args.only, args)
        return 0

    passthrough = ["--seconds", str(args.seconds), "--players", str(args.players),
                   "--repeat", str(args.repeat), "--mem-limit-gb", str(args.mem_limit_gb)]
    for target in [*engine_slugs(), "toy", "memory"]:
        # A fresh process per target: a broken or runaway engine cannot stall
        # or starve the others, and every target starts with cold caches.
        proc = subprocess.Popen([sys.executable, __file__, "--only", target, *passthrough],
                                start_new_session=True)
        try:
            proc.wait(timeout=args.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # the target and its pool workers
            proc.wait()
            print(f"\n{target}: stopped after {args.timeout:.0f} s (engine stuck?)")
            continue
        if proc.returncode:
            print(f"\n{target}: benchmark process exited with code {proc.returncode}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
