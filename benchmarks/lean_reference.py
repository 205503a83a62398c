"""The lean reference loop: how fast plain, lean Python plays a card game at random.

REFERENCE.md's speed anchor is "lean pure-Python random playouts: 4-player
78-card set collection ~6,000 games/s per core". This script is that
anchor made concrete and measurable on the machine at hand, so the engines'
random-playout speed can be stated as a fraction of it (issue 13, item 7:
at least 0.5×).

The reference game, written the lean way (ints for cards, lists, no objects
per card, no API layers): 78 cards of 13 numbers × 6 suits, 4 players,
hands of 7. A turn draws one card, then the player either lays down a set
(3 or more cards of one number, all of them) or discards one card of a
number it holds; legal moves are listed as ints, one chosen at random. The
game ends when the draw pile is empty; score = cards laid down. About the
length (~65 steps) and branching (~7 moves) of Fortuna's random games.

A second reference, for trick-taking engines (REFERENCE.md: "4-player
52-card trick-taking ~12,000 games/s per core"): one deal of a plain
trick-taking game written the same lean way (:func:`play_tricks`): 52 cards
of 13 ranks × 4 suits dealt 13 each, must follow suit if able, the highest
card of the led suit wins and leads next; 52 steps. ``search_speed.py``
compares Fortune Clover per deal against it.

Usage: ``python benchmarks/lean_reference.py [--seconds 2]`` prints games/s
per core (best of 3) and the number of steps per game; the engine figures
are in ``benchmarks/sim_speed.py --playouts``.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Callable

NUMBERS, SUITS, PLAYERS, HAND = 13, 6, 4, 7


def play(seed: int) -> tuple[list[int], int]:
    """One random game; returns (scores, steps)."""
    rng = random.Random(seed)
    rnd = rng.random
    deck = [c % NUMBERS for c in range(NUMBERS * SUITS)]  # only the number matters
    rng.shuffle(deck)
    # Per player: count of cards held per number (a hand is a multiset of numbers).
    hands = [[0] * NUMBERS for _ in range(PLAYERS)]
    for p in range(PLAYERS):
        hand = hands[p]
        for _ in range(HAND):
            hand[deck.pop()] += 1
    scores = [0] * PLAYERS
    steps = 0
    p = 0
    numbers = range(NUMBERS)
    while deck:
        hand = hands[p]
        hand[deck.pop()] += 1
        # Moves: n discards one card of number n; 100 + n lays down all n's (≥ 3).
        moves = [n for n in numbers if hand[n]]
        moves += [100 + n for n in moves if hand[n] >= 3]
        move = moves[int(rnd() * len(moves))]
        if move >= 100:
            scores[p] += hand[move - 100]
            hand[move - 100] = 0
        else:
            hand[move] -= 1
        steps += 1
        p = (p + 1) % PLAYERS
    return scores, steps


RANKS, TRICK_SUITS, HAND_TRICKS = 13, 4, 13


def play_tricks(seed: int) -> tuple[list[int], int]:
    """One random deal of plain trick-taking; returns (tricks won, steps)."""
    rng = random.Random(seed)
    rnd = rng.random
    deck = list(range(RANKS * TRICK_SUITS))  # card c: suit c // RANKS, rank c % RANKS
    rng.shuffle(deck)
    hands = [deck[p * HAND_TRICKS:(p + 1) * HAND_TRICKS] for p in range(PLAYERS)]
    tricks = [0] * PLAYERS
    steps = 0
    leader = 0
    for _ in range(HAND_TRICKS):
        led = -1
        best = -1
        winner = leader
        for k in range(PLAYERS):
            p = (leader + k) % PLAYERS
            hand = hands[p]
            # Moves: any card to lead; follow the led suit if able, else any card.
            if led < 0:
                moves = hand
            else:
                moves = [c for c in hand if c // RANKS == led] or hand
            card = moves[int(rnd() * len(moves))]
            hand.remove(card)
            if led < 0:
                led = card // RANKS
            if card // RANKS == led and card > best:
                best, winner = card, p
            steps += 1
        tricks[winner] += 1
        leader = winner
    return tricks, steps


def games_per_second(seconds: float,
                     game: Callable[[int], tuple[list[int], int]] = play,
                     runs: range = range(3)) -> tuple[float, float]:
    """Best of ``runs`` (three) of about ``seconds``: (games/s, steps per game) of ``game``.

    Run ``r`` plays seeds from ``r * 10_000_000`` on: fresh seeds in every
    run, and the same games whenever run ``r`` is played.
    """
    best = 0.0
    steps_per_game = 0.0
    for r in runs:
        t0 = time.perf_counter()
        games = steps = 0
        while time.perf_counter() - t0 < seconds:
            steps += game(r * 10_000_000 + games)[1]
            games += 1
        best = max(best, games / (time.perf_counter() - t0))
        steps_per_game = steps / games
    return best, steps_per_game


def main() -> int:
    """Print the reference speed."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    args = ap.parse_args()
    rate, steps = games_per_second(args.seconds)
    print(f"lean reference (4 players, 78-card set collection): {rate:,.0f} games/s per core, "
          f"{steps:.0f} steps/game")
    rate, steps = games_per_second(args.seconds, play_tricks)
    print(f"lean trick-taking reference (4 players, 52 cards, one deal): {rate:,.0f} games/s "
          f"per core, {steps:.0f} steps/game")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
