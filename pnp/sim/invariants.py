"""Rule invariants the simulator checks while it plays (REFERENCE: simulation practice).

Three levels, chosen with ``--invariants``:

* ``full``: every step, card conservation and action order, and every legal
  action applied to a clone (the original must stay untouched); at the end,
  the returns/winners/events shape and a replay of the whole action history.
* ``sample`` (default): conservation and action order every step of every
  game; the full clone check and the end-of-game replay for the first
  :data:`FULL_GAMES` games of the run, then, on one step in
  :data:`CLONE_EVERY` (drawn at random), one randomly drawn legal action
  applied to a clone, and the replay for one game in :data:`REPLAY_EVERY`.
* ``off``: nothing beyond what playing needs (a step cap and errors).

Which games get the full treatment depends only on the game index, so the
checks (like the games) are the same for any number of processes.
"""

from __future__ import annotations

import os
import random
import traceback
from collections import Counter
from itertools import chain, islice
from operator import ge
from typing import Any, Iterable, Sequence

from pnp.errors import PnpError
from pnp.games.api import TERMINAL, Game, State

#: Invariant levels, strongest first (the CLI's choices come from here).
LEVELS = ("full", "sample", "off")
DEFAULT_LEVEL = "sample"
#: In ``sample`` mode, games 0 .. FULL_GAMES-1 are checked fully.
FULL_GAMES = 10
#: In ``sample`` mode, every REPLAY_EVERY-th game is also replayed at its end.
REPLAY_EVERY = 16
#: In ``sample`` mode after the first games, a step is clone-checked with chance 1/CLONE_EVERY.
CLONE_EVERY = 8


class Deck:
    """The deck's card ids prepared for a fast conservation check."""

    __slots__ = ("ids", "size", "unique", "sorted", "full")

    def __init__(self, cards: Sequence[int]) -> None:
        """Remember the ids as a set (when unique) and sorted (always)."""
        self.sorted = sorted(cards)
        self.size = len(self.sorted)
        self.ids = frozenset(self.sorted)
        self.unique = len(self.ids) == self.size and (not self.sorted or self.sorted[0] >= 0)
        #: Bit c set for every card c (with unique, non-negative ids).
        self.full = sum(1 << c for c in self.sorted) if self.unique else -1

    def holds_masks(self, masks: Iterable[tuple[str, int]]) -> bool:
        """True when the zone bit sets are disjoint and together hold every card once.

        Disjoint masks whose union is the deck put each card in exactly one zone.
        """
        seen = 0
        for _name, m in masks:
            if seen & m:
                return False
            seen |= m
        return seen == self.full

    def holds(self, cards: list[int]) -> bool:
        """True when ``cards`` is exactly the deck (as a multiset).

        With unique ids, equal size and equal sets imply each card exactly
        once (pigeonhole), and both tests run in C; otherwise compare sorted.
        """
        if self.unique:
            return len(cards) == self.size and self.ids == set(cards)
        return sorted(cards) == self.sorted


def zone_detail(game: Game[Any], state: State[Any]) -> str:
    """Explain how the zones differ from the deck (slow; failures only)."""
    deck = Counter(game.deck())
    where: dict[int, list[str]] = {}
    for name, cards in state.zones():
        for c in cards:
            where.setdefault(c, []).append(str(name))
    seen = Counter({c: len(z) for c, z in where.items()})
    missing = sorted((deck - seen).elements())
    extra = sorted((seen - deck).elements())
    parts = []
    if missing:
        parts.append(f"missing {missing[:10]}")
    if extra:
        dup = {c: where[c] for c in sorted(set(extra))[:5]}
        parts.append(f"extra {extra[:10]} (zones: {dup})")
    return "; ".join(parts) or "zones differ from deck"


def describe(exc: BaseException) -> str:
    """``Type: message at file:line in function`` for the innermost frame."""
    tb = traceback.extract_tb(exc.__traceback__)
    where = ""
    if tb:
        frame = tb[-1]
        where = f" at {os.path.basename(frame.filename)}:{frame.lineno} in {frame.name}"
    return f"{type(exc).__name__}: {exc}{where}"


def safe_text(state: State[Any], action: int) -> str:
    """``action_to_string`` that never raises."""
    try:
        return state.action_to_string(action)
    except Exception as exc:
        return f"<action_to_string raised {type(exc).__name__}>"


def check_cheap(state: State[Any], deck: Deck, legal: Sequence[int] | None,
                player: int | None = None, terminal: bool | None = None) -> str | None:
    """Per-step checks every checked step runs: conservation, turn and action order.

    ``legal`` is the state's legal list when the caller already has it (None
    for a terminal state); ``player`` and ``terminal`` likewise, to save calls.
    """
    masks = getattr(state, "zone_masks", None)
    if masks is not None and deck.unique:
        ok = deck.holds_masks(masks())
    else:
        ok = deck.holds(list(chain.from_iterable([zone for _name, zone in state.zones()])))
    if not ok:
        return f"card conservation broken: {zone_detail(state.game, state)}"
    if player is None:
        player = state.current_player()
    if terminal is None:
        terminal = state.is_terminal()
    if terminal != (player == TERMINAL):
        return (f"is_terminal() is {terminal} but current_player() is {player} "
                f"(TERMINAL is {TERMINAL})")
    if terminal:
        return None
    if not 0 <= player < state.num_players:
        return f"current_player() {player} is not a seat of {state.num_players}"
    if not legal:
        return f"player {player} has no legal action in a non-terminal state"
    if any(map(ge, legal, islice(legal, 1, None))):  # C-level scan, stops at the first fault
        i = next(i for i in range(len(legal) - 1) if legal[i] >= legal[i + 1])
        return (f"legal_actions() not ascending without duplicates: … {legal[i]}, "
                f"{legal[i + 1]} …")
    return None


def check_clones(state: State[Any], legal: Sequence[int],
                 to_try: Sequence[int]) -> str | None:
    """Apply each action of ``to_try`` to its own clone; the original must not change.

    The original's legal list is re-derived once, after all the clones, not
    once per action: any clone sharing mutable parts with the original shows
    up there.
    """
    player = state.current_player()
    for i, action in enumerate(to_try):
        child = state.clone()
        if i == 0 and child.legal_actions() != list(legal):
            return "clone() has different legal actions from the original"
        try:
            child.apply_action(action)
        except Exception as exc:  # the engine's own bug, reported with the trace
            return (f"legal action {action} ({safe_text(state, action)}) raised "
                    f"{describe(exc)} when applied to a clone")
    if to_try and (state.current_player() != player or state.legal_actions() != list(legal)):
        return "clone() is not independent: applying actions to clones changed the original"
    return None


def check_state(game: Game[Any], state: State[Any], deck_sorted: Sequence[int] | None = None,
                apply_check_limit: int | None = None,
                rng: random.Random | None = None) -> str | None:
    """Check the per-step invariants of ``state`` fully; return a message or None.

    Card conservation (every deck card in exactly one zone); ``is_terminal()``
    agrees with ``current_player() == TERMINAL``; a non-terminal state has a
    valid current player with ≥ 1 legal action, listed ascending without
    duplicates; every legal action (or ``apply_check_limit`` of them, drawn
    with ``rng``) applies without error on a ``clone()``, leaving the original
    untouched.
    """
    deck = Deck(game.deck() if deck_sorted is None else deck_sorted)
    legal = None if state.is_terminal() else state.legal_actions()
    msg = check_cheap(state, deck, legal)
    if msg or legal is None:
        return msg
    to_try: Sequence[int] = legal
    if apply_check_limit is not None and len(legal) > apply_check_limit:
        to_try = sorted((rng or random.Random(0)).sample(legal, apply_check_limit))
    return check_clones(state, legal, to_try)


def replay(game: Game[Any], num_players: int, seed: int, actions: Sequence[int]) -> State[Any]:
    """Replay ``actions`` from the deal with ``seed`` (a failure's ``deal_seed``).

    Each action is checked to be legal first; an illegal one raises
    :class:`~pnp.errors.PnpError`. Errors raised by the engine propagate.
    """
    state = game.new_initial_state(num_players, seed)
    for step, action in enumerate(actions):
        legal = state.legal_actions()
        if action not in legal:
            raise PnpError(f"replay step {step}: action {action} is not legal "
                           f"(legal: {legal[:20]}{'…' if len(legal) > 20 else ''})")
        state.apply_action(action)
    return state


def check_final(game: Game[Any], state: State[Any], actions: Sequence[int],
                seed: int) -> str | None:
    """End-of-game invariants: returns/winners/events are well formed, and
    replaying ``actions`` from ``seed`` reproduces the same final state."""
    n = state.num_players
    ret = state.returns()
    if len(ret) != n:
        return f"returns() has {len(ret)} values for {n} players"
    if not all(isinstance(v, (int, float)) for v in ret):
        return f"returns() holds non-numbers: {ret!r}"
    win = state.winners()
    if not win or len(set(win)) != len(win) or not all(0 <= w < n for w in win):
        return f"winners() {win!r} is not a non-empty set of seats"
    events = state.events()
    unknown = set(events) - set(game.event_names)
    if unknown:
        return f"events() has names missing from game.event_names: {sorted(unknown)}"
    if any(not isinstance(v, int) or v < 0 for v in events.values()):
        return f"events() has counts that are not non-negative ints: {dict(events)}"
    again = replay(game, n, seed, actions)
    if (list(again.returns()) != list(ret) or list(again.winners()) != list(win)
            or again.turns() != state.turns()
            or again.to_notation() != state.to_notation()):
        return "replaying the action history from the same seed gave a different final state"
    return None
