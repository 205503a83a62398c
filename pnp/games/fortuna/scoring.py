"""Fortuna scoring (ruling F8), as pure functions of icons and sizes.

A set scores (set size) × (largest number of its face-up cards showing one
icon), goddesses counting as whichever icon gives the most; a set of only
goddesses counts all of them. Face-down filler of an all-in set counts for
the size but shows no icon (ruling F4). Tied totals go to the earlier seat.

Icons are given as indices (``goddess`` is the wild one), so these functions
know nothing of the card table; the engine caches :func:`matches_from_counts`
per icon-count pattern.
"""

from __future__ import annotations

from typing import Iterable, Sequence


def matches_from_counts(counts: Sequence[int], goddess: int) -> int:
    """Most face-up cards showing one icon, from per-icon ``counts``, goddesses wild (F8)."""
    others = list(counts)
    others[goddess] = 0  # counts are ≥ 0, so a zeroed goddess never wins the max
    return max(others) + counts[goddess]


def icon_matches(icons: Iterable[int], n_icons: int, goddess: int) -> int:
    """Most of the face-up ``icons`` (indices < ``n_icons``) showing one icon (F8)."""
    counts = [0] * n_icons
    for i in icons:
        counts[i] += 1
    return matches_from_counts(counts, goddess)


def set_score(face_up_icons: Iterable[int], size: int, n_icons: int, goddess: int) -> int:
    """VP of one set: ``size`` (face-down filler included) × its icon matches (F8)."""
    return size * icon_matches(face_up_icons, n_icons, goddess)


def seat_score(sets: Iterable[tuple[Sequence[int], int]], n_icons: int, goddess: int) -> int:
    """VP of one seat from its sets, each given as ``(face-up icons, size)`` (F8)."""
    return sum(set_score(up, size, n_icons, goddess) for up, size in sets)


def winner(vp: Sequence[float]) -> int:
    """The winning seat: most VP, ties to the earlier seat (ruling F8)."""
    return vp.index(max(vp))
