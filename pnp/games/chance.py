"""Seeded shuffles that give ``random.Random.shuffle``'s order, faster.

A random playout spends a noticeable share of its set-up shuffling (a
78-card deck is 77 Python-level ``_randbelow`` calls in the library). The
functions here do the same rejection sampling with the bit lengths looked
up, so deals stay identical to the library's for every seed (the pinned
game fingerprints depend on it). The inline version is used only if it
reproduces the library on this interpreter, checked once at import.
"""

from __future__ import annotations

import random
from typing import Callable

#: Bit length of every n a shuffle of up to 1024 cards asks for.
_BITS = tuple(n.bit_length() for n in range(1025))
#: Longest list the inline shuffle handles (longer ones use the library).
MAX_INLINE = len(_BITS) - 1


def shuffle_with(deck: list[int], getrandbits: Callable[[int], int]) -> None:
    """Fisher–Yates as ``random.Random.shuffle`` does it, drawing from ``getrandbits``.

    ``deck`` must hold at most :data:`MAX_INLINE` items; with a generator's
    own ``getrandbits`` this consumes the generator exactly as its
    ``shuffle`` would (only valid when :data:`INLINE_MATCHES`).
    """
    bits = _BITS
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        k = bits[n]
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]


def _inline_matches() -> bool:
    """True when :func:`shuffle_with` reproduces the library's shuffle on this Python."""
    for seed in (0, 1, 12345, 2**63 + 12345, 2**64 + 7):
        for size in (1, 2, 13, 78, 200):
            a, b = list(range(size)), list(range(size))
            shuffle_with(a, random.Random(seed).getrandbits)
            random.Random(seed).shuffle(b)
            if a != b:
                return False
    return True


#: Whether the inline shuffle may stand in for the library's here.
INLINE_MATCHES = _inline_matches()


def seeded_shuffle(deck: list[int], seed: int) -> None:
    """Shuffle ``deck`` in place exactly as ``random.Random(seed).shuffle`` does."""
    if INLINE_MATCHES and len(deck) <= MAX_INLINE:
        shuffle_with(deck, random.Random(seed).getrandbits)
    else:
        random.Random(seed).shuffle(deck)


def rng_shuffle(deck: list[int], rng: random.Random) -> None:
    """``rng.shuffle(deck)``, inline when that gives the same order and draws."""
    if INLINE_MATCHES and type(rng) is random.Random and len(deck) <= MAX_INLINE:
        shuffle_with(deck, rng.getrandbits)
    else:
        rng.shuffle(deck)
