"""Playout and search speed per game (issue 13, item 7).

For every registered engine built from ``card_data/`` prints

* random playouts/s on one core: a bare ``legal_actions → uniform choice →
  apply_action`` loop from a fresh deal to the end (what a searching bot's
  random playout costs), as games/s and steps/s, and as a fraction of the
  lean reference loop (``benchmarks/lean_reference.py``, measured in the
  same process, the same way, one lean run before each of the engine's
  runs: the first line's lean figure is only for reference);
* for Fortune Clover, a game of several deals, also deals/s (games/s × deals
  per game) as a fraction of the lean trick-taking deal
  (``lean_reference.play_tricks``, its runs interleaved with the engine's);
* MCTS decisions/s at budget 100 (``mcts:100``, the game's own bot playing
  out, the default), with random playouts (``mcts:100:random``) and with the
  own bot's playouts truncated after ``--depths`` moves (``mcts:100:d8`` …,
  the position then scored by the game's ``evaluate`` hook), timed on
  positions taken from seeded games (at least the same first 8 in every run),
  each setting right after the others on the same positions.

Best of ``--repeat`` runs of about ``--seconds`` each (the machine is shared).

``--calibrate`` instead fits each game's evaluation constants
(``pnp/games/<slug>/evaluate.py``) on positions of seeded games of the game's
own bot: the softmax temperature ``SWING × left + FLOOR`` by maximum
likelihood of the eventual winner (printed beside the uniform guess, by how
much of the game is left), 第2話's ``ONWARD`` by least squares on the runs'
search rewards.

Usage: ``python benchmarks/search_speed.py [--seconds 2] [--players 4] [--only fortuna]
[--depths 8,16,32] [--calibrate [--games 100]]``
"""

from __future__ import annotations

import argparse
import importlib
import math
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from lean_reference import games_per_second, play, play_tricks  # noqa: E402
from pnp.data import load_game_data  # noqa: E402
from pnp.games import engine_slugs, make_game, registered_games  # noqa: E402
from pnp.games.api import Game  # noqa: E402
from pnp.games.bots import RandomBot, bot_factory  # noqa: E402
from pnp.games.search import evaluation_of  # noqa: E402

DATA = ROOT / "card_data"


def playouts(game: Game[Any], players: int, seconds: float, repeat: int,
             reference: Callable[[int], tuple[list[int], int]] = play
             ) -> tuple[float, float, float, float]:
    """Best games/s of the bare random loop and its steps per game, then ``reference``'s.

    Each run of the engine follows a run of the lean reference loop, so both
    bests come from the same minutes: this machine's speed swings by ±40 %
    over a few minutes (other work, clock changes), and a lean figure taken
    once at the start made the ratios of later games swing with it.
    """
    best = 0.0
    steps_per_game = 0.0
    lean = lean_steps = 0.0
    for r in range(repeat):
        lean_r, lean_steps = games_per_second(seconds, reference, runs=range(r, r + 1))
        lean = max(lean, lean_r)
        t0 = time.perf_counter()
        games = steps = 0
        while time.perf_counter() - t0 < seconds:
            # Fresh seeds in every repeat: a cache keyed on card content must
            # not look better in repeats 2 and 3 than on games never seen.
            seed = r * 10_000_000 + games
            state = game.new_initial_state(players, seed)
            rnd = random.Random(seed).random
            cur, legal_of, apply = state.current_player, state.legal_actions, state.apply_action
            while cur() >= 0:
                legal = legal_of()
                apply(legal[int(rnd() * len(legal))])
                steps += 1
            games += 1
        best = max(best, games / (time.perf_counter() - t0))
        steps_per_game = steps / games
    return best, steps_per_game, lean, lean_steps


def positions(game: Game[Any], players: int, count: int) -> list[Any]:
    """``count`` decision points (≥ 2 legal actions) from seeded random games."""
    out: list[Any] = []
    g = 0
    rng = random.Random(7)
    while len(out) < count:
        state = game.new_initial_state(players, 1000 + g)
        g += 1
        while not state.is_terminal():
            legal = state.legal_actions()
            if len(legal) > 1 and rng.random() < 0.3:
                out.append(state.clone())
            state.apply_action(legal[int(rng.random() * len(legal))])
    return out[:count]


def decisions_per_second(game: Game[Any], spec: str, states: list[Any], seconds: float,
                         repeat: int, least: int = 8) -> float:
    """Best decisions/s of bot ``spec`` over the given positions.

    Each run decides at least ``least`` positions (the first ones, the same
    in every run and every session) however long they take: positions differ
    in cost several times over, so a slow bot timed for a few seconds would
    be measured on its first two positions only, and a faster bot on more.
    """
    factory = bot_factory(spec, registered_games()[game.slug].bots)
    best = 0.0
    for r in range(repeat):
        t0 = time.perf_counter()
        done = 0
        while time.perf_counter() - t0 < seconds or done < least:
            st = states[done % len(states)]
            p = st.current_player()
            factory(game, p, random.Random(done)).act(st.observation(p), st.legal_actions())
            done += 1
        best = max(best, done / (time.perf_counter() - t0))
    return best


def _own_bot_positions(game: Game[Any], players: int, games: int, every: int = 3
                       ) -> list[tuple[Any, Any]]:
    """Every ``every``-th position of ``games`` seeded games of the game's own bot,
    each with the finished game it led to: (position, final state)."""
    entry = registered_games()[game.slug]
    own = next(b for b in entry.bots.values()
               if b is not RandomBot and not getattr(b, "searches", False))
    out: list[tuple[Any, Any]] = []
    for g in range(games):
        state = game.new_initial_state(players, 5000 + g)
        bots = [own(game, p, random.Random(g * 10 + p)) for p in range(players)]
        taken = []
        step = 0
        while not state.is_terminal():
            p = state.current_player()
            legal = state.legal_actions()
            if step % every == 0:
                taken.append(state.clone())
            bot = bots[p]
            state.apply_action(legal[0] if len(legal) == 1 else bot.act(
                state.observation(p) if bot.needs_observation else None, legal))
            step += 1
        out += [(t, state) for t in taken]
    return out


def calibrate(slug: str, players: int, games: int) -> None:
    """Fit and print the evaluation constants of ``slug`` (see the module docstring)."""
    game = make_game(load_game_data(DATA, slug, strict=True))
    ev: Any = importlib.import_module(f"pnp.games.{slug}.evaluate")
    n = min(max(players, type(game).min_players), type(game).max_players)
    pairs = _own_bot_positions(game, n, games)
    if n == 1:
        # 第2話: reward ≈ kept + ONWARD × x, x = bosses left × health (the hook's form).
        reward = getattr(game, "search_reward")
        num = den = 0.0
        for pos, end in pairs:
            health = max(pos.hp, 0) / pos.max_hp
            taken = len(pos.spoils) / game.num_bosses  # type: ignore[attr-defined]
            x = (1 - taken) * health
            num += x * (reward(end)[0] - taken * (0.5 + 0.5 * health))
            den += x * x
        print(f"{slug:<15} {n}p  ONWARD = {num / den:.2f} (least squares, "
              f"{len(pairs)} positions of {games} runs; in the code: {ev.ONWARD})")
        return
    rows = [(ev.standing(pos), ev.left(pos), set(end.winners())) for pos, end in pairs]

    def loglik(swing: float, floor: float, lo: float = 0.0, hi: float = 2.0) -> float:
        total = 0.0
        count = 0
        for stand, left, won in rows:
            if not lo <= left < hi:
                continue
            scale = swing * left + floor
            top = max(stand)
            w = [math.exp((v - top) / scale) for v in stand]
            total += math.log(max(sum(w[s] for s in won) / sum(w), 1e-9))
            count += 1
        return total / max(count, 1)

    grid = [(loglik(k, c), k, c) for k in (1, 2, 3, 4, 6, 8, 10, 15, 20, 30, 40, 60)
            for c in (0.25, 1, 2, 4)]
    best, k, c = max(grid)
    parts = ", ".join(f"{lo:.1f}–{min(hi, 1):.1f} left {loglik(k, c, lo, hi):.3f}"
                      for lo, hi in ((0, 0.2), (0.2, 0.5), (0.5, 2)))
    mine = loglik(ev.SWING, ev.FLOOR)
    print(f"{slug:<15} {n}p  best SWING = {k}, FLOOR = {c}: mean log-likelihood of the "
          f"winner {best:.3f} ({parts}); the code's {ev.SWING:g}, {ev.FLOOR:g}: {mine:.3f}; "
          f"uniform guess {math.log(1 / n):.3f}; {len(rows)} positions of {games} games")


def main() -> int:
    """Print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", help="one engine slug")
    ap.add_argument("--depths", default="8,16,32",
                    help="playout depths to time mcts:100:dDEPTH at (comma-separated)")
    ap.add_argument("--calibrate", action="store_true",
                    help="fit the evaluation constants instead of timing")
    ap.add_argument("--games", type=int, default=100, help="games per game for --calibrate")
    args = ap.parse_args()
    if args.calibrate:
        for slug in [args.only] if args.only else engine_slugs():
            calibrate(slug, args.players, args.games)
        return 0
    depths = [int(d) for d in args.depths.split(",") if d.strip()]
    lean, lean_steps = games_per_second(args.seconds)
    print(f"lean reference loop: {lean:,.0f} games/s per core ({lean_steps:.0f} steps/game, "
          f"{lean * lean_steps:,.0f} steps/s)")
    slugs = [args.only] if args.only else engine_slugs()
    for slug in slugs:
        game = make_game(load_game_data(DATA, slug, strict=True))
        n = min(max(args.players, type(game).min_players), type(game).max_players)
        rate, steps, lean, lean_steps = playouts(game, n, args.seconds, args.repeat)
        if "mcts" not in registered_games()[slug].bots:
            print(f"{slug:<15} {n}p  random playouts {rate:8,.0f} games/s ({steps:.0f} steps)"
                  f" = {rate / lean:.2f}× the lean loop; no searching bot (needs "
                  "state_from_observation)")
            continue
        states = positions(game, n, 40)
        # ":full": whole playouts even where the game's mcts truncates by default
        # (Undecim), so the truncated figures below compare with whole playouts.
        heur = decisions_per_second(game, "mcts:100:full", states, args.seconds, 1)
        rand = decisions_per_second(game, "mcts:100:random", states, args.seconds, 1)
        print(f"{slug:<15} {n}p  random playouts {rate:8,.0f} games/s ({steps:.0f} steps, "
              f"{rate * steps:9,.0f} steps/s) = {rate / lean:.2f}× the lean loop "
              f"({lean:,.0f} games/s in the same minutes) per game, "
              f"{rate * steps / (lean * lean_steps):.2f}× per step;  mcts:100 "
              f"{heur:6.2f} decisions/s (own bot plays out), {rand:6.2f} (random playouts)")
        if depths and evaluation_of(game) is not None:
            cut = [(d, decisions_per_second(game, f"mcts:100:d{d}", states, args.seconds, 1))
                   for d in depths]
            print(f"{slug:<15} {n}p  mcts:100 truncated: " + ", ".join(
                f"d{d} {r:6.2f} decisions/s ({r / heur:.1f}× whole playouts)" for d, r in cut))
        if slug == "fortune_clover":
            # Timed again, now beside the trick-taking reference (interleaved
            # as above: one reference figure from the start would drift).
            rate, steps, trick_lean, trick_steps = playouts(game, n, args.seconds, args.repeat,
                                                            play_tricks)
            deals = int(game.params["deals"])
            print(f"{slug:<15} {n}p  per deal {rate * deals:8,.0f} deals/s ({steps / deals:.0f} "
                  f"steps) = {rate * deals / trick_lean:.2f}× the lean trick-taking deal "
                  f"({trick_lean:,.0f} deals/s in the same minutes, {trick_steps:.0f} steps)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
