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
  out, the default) and with random playouts (``mcts:100:random``), timed on
  positions taken from seeded games (at least the same first 8 in every run).

Best of ``--repeat`` runs of about ``--seconds`` each (the machine is shared).

Usage: ``python benchmarks/search_speed.py [--seconds 2] [--players 4] [--only fortuna]``
"""

from __future__ import annotations

import argparse
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
from pnp.games.bots import bot_factory  # noqa: E402

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
    out = []
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


def main() -> int:
    """Print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", help="one engine slug")
    args = ap.parse_args()
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
        heur = decisions_per_second(game, "mcts:100", states, args.seconds, 1)
        rand = decisions_per_second(game, "mcts:100:random", states, args.seconds, 1)
        print(f"{slug:<15} {n}p  random playouts {rate:8,.0f} games/s ({steps:.0f} steps, "
              f"{rate * steps:9,.0f} steps/s) = {rate / lean:.2f}× the lean loop "
              f"({lean:,.0f} games/s in the same minutes) per game, "
              f"{rate * steps / (lean * lean_steps):.2f}× per step;  mcts:100 "
              f"{heur:6.2f} decisions/s (own bot plays out), {rand:6.2f} (random playouts)")
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
