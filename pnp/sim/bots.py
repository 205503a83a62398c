"""Choosing bots for a run: names from ``--bots``, seat assignment and rotation.

The bots themselves live with their games (``pnp/games/<slug>/bots.py``) and
the random bot in :mod:`pnp.games.bots`; a game's registry entry lists them.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from pnp.errors import PnpError
from pnp.games.bots import Bot, bot_factory


def parse_bots(spec: str | Sequence[str], available: Mapping[str, type[Bot]],
               slug: str) -> list[str]:
    """Turn ``"random,heuristic"`` (or a list of names) into a checked name list.

    ``available`` is the game's bots by name; an unknown name is a one-line
    error listing them (with a hint for a near miss). An entry may carry an
    option after a colon (``mcts:200``), checked by the bot's ``configure``.
    """
    names = ([s.strip() for s in spec.split(",")] if isinstance(spec, str)
             else [str(s).strip() for s in spec])
    have = ", ".join(sorted(available))
    if not names or any(not n for n in names):
        raise PnpError(f"--bots {spec!r}: expected comma-separated bot names ({have})")
    for spec_n in names:
        n = spec_n.partition(":")[0]
        if n not in available:
            from difflib import get_close_matches
            hint = get_close_matches(n, list(available), n=1)
            extra = f"; did you mean {hint[0]!r}?" if hint else ""
            raise PnpError(f"--bots: {slug} has no bot {n!r} (have: {have}){extra}")
        bot_factory(spec_n, available)  # a bad option fails here, before any game
    return names


def seat_bots(names: Sequence[str], num_players: int, game_index: int) -> tuple[str, ...]:
    """Bot name at each seat in game ``game_index``.

    Seat i gets ``names[(i + g) % len(names)]``: cyclic assignment, shifted by
    the game index so that with mixed bots every bot sits at every seat equally
    often over each ``len(names)`` consecutive games. With a single bot name the
    shift changes nothing.
    """
    k = len(names)
    return tuple(names[(i + game_index) % k] for i in range(num_players))


def mixed(names: Sequence[str]) -> bool:
    """True when more than one distinct bot plays."""
    return len(set(names)) > 1
