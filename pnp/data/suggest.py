"""'Did you mean …?' for mistyped names: games, decks, cards, keys, presets."""

from __future__ import annotations

from typing import Iterable


def closest(word: str, known: Iterable[str]) -> str | None:
    """The known name nearest to ``word`` (a typo of it), or None if none is close."""
    from difflib import get_close_matches  # imported on a typo only: startup stays quick

    names = [str(k) for k in known]
    hits = get_close_matches(word, names, n=1, cutoff=0.6)
    if not hits:  # case slips ("Fortuna") and long ids with one wrong part
        lowered = {n.lower(): n for n in names}
        hits = [lowered[h] for h in get_close_matches(word.lower(), list(lowered), n=1,
                                                      cutoff=0.5)]
    return hits[0] if hits else None


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` for the closest known name, or ``""``."""
    hit = closest(word, known)
    return f"; did you mean {hit!r}?" if hit is not None and hit != word else ""


def unknown_name(what: str, word: str, known: Iterable[str], *, limit: int = 12) -> str:
    """A one-line message for an unknown name: what, the known names (a few) and a hint.

    ``unknown_name("deck", "reeel", ["reel"])`` gives
    ``unknown deck 'reeel' (known: reel); did you mean 'reel'?``.
    """
    names = [str(k) for k in known]
    return f"unknown {what} {word!r} ({known_names(names, limit)}){did_you_mean(word, names)}"


def known_names(known: Iterable[str], limit: int = 12) -> str:
    """``"known: a, b, … (40 in all)"``: the first ``limit`` names, for a message."""
    names = [str(k) for k in known]
    shown = ", ".join(names[:limit]) + (f", … ({len(names)} in all)" if len(names) > limit
                                        else "")
    return f"known: {shown or 'none'}"
