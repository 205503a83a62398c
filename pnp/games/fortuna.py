"""Fortuna rules engine: draft 2 of the rulebook plus rulings F1–F8.

Cards are small ints: an index into the game's card table, which is read once
from ``card_data/fortuna/reel.csv`` and sorted by (number, icon) so that a
sorted hand is also sorted by card *type*. A card type is the pair
(printed number, icon); two cards of one type are interchangeable in play, so
actions name types, never individual cards.

Action encoding (stable; see docs/rules/fortuna-engine.md):

* ``t`` (0 ≤ t < 100): pass, discarding a hand card of type ``t``.
* ``100 + t``: the discard a 1-card set demands (ruling F5).
* ``200 + s``: take one face-down filler card from discard slot ``s`` for the
  pending all-in set (ruling F4); slots are chosen in non-decreasing order.
* ``300``: decline the Wheel of Fortune (ruling F6).
* ``1_000_000 + s·10_000 + t·1_000 + c``: Wheel of Fortune, move ``c`` cards
  from slot ``s`` to slot ``t``.
* ``10_000_000 + X·B⁹ + code``: a set of declared value ``X`` (0–9) made of
  the k hand-card types ``t₁ ≤ … ≤ t_k``, ``code = Σ (tᵢ + 1)·B^(k−i)`` with
  ``B = number of types + 1`` (31 for the printed deck). Fewer cards than
  ``X`` (``X ≥ 1``) means an all-in set.
"""

from __future__ import annotations

import random
from bisect import bisect_left, insort
from itertools import combinations, compress
from operator import lshift, mul
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from pnp.data.inventory import load_cards
from pnp.errors import PnpError
from pnp.games.api import TERMINAL, Game, Param, State

#: Discard slots are numbered 1..NUM_SLOTS, one per printed number (ruling F1).
NUM_SLOTS = 6
#: Largest declared value: card values are single digits 0–9 (ruling F2).
MAX_VALUE = 9
#: A value-0 set holds 1 to this many cards (ruling F3).
ZERO_SET_MAX = 6
#: The wild icon (rulebook ■精算; ruling F8).
GODDESS = "女神"
#: Icon order used for type ids; icons outside it are appended as found.
ICON_ORDER = ("稲妻", "小麦", "兜", "車輪", "女神")
#: One-letter icon names accepted by :meth:`FortunaGame.position`.
ICON_LETTERS = {"B": "稲妻", "W": "小麦", "H": "兜", "R": "車輪", "G": "女神"}

PASS_BASE = 0
DISCARD_BASE = 100
FILL_BASE = 200
WHEEL_DECLINE = 300
WHEEL_BASE = 1_000_000
SET_BASE = 10_000_000

#: Decision phases of the player on turn.
MAIN, DISCARD, FILL, WHEEL, OVER = range(5)
PHASE_NAMES = ("main", "discard", "fill", "wheel", "over")

EVENT_NAMES = (
    "set", "pass", "zero_set", "all_in_set", "one_card_set_discard",
    "wheel_of_fortune", "wheel_move", "wheel_declined", "end_trigger",
    "refill_cut", "end_deck_exhausted", "round_end",
)
(EV_SET, EV_PASS, EV_ZERO, EV_ALLIN, EV_ONE_DISCARD, EV_WHEEL, EV_WHEEL_MOVE,
 EV_WHEEL_DECLINE, EV_TRIGGER, EV_REFILL_CUT, EV_EXHAUSTED, EV_ROUND_END) = range(len(EVENT_NAMES))

#: _BITS[m]: the values in mask m, ascending.
_BITS = tuple(tuple(x for x in range(10) if m >> x & 1) for m in range(1024))

#: Cap on the set-enumeration cache (entries); it is cleared when exceeded.
_CACHE_LIMIT = 200_000


def _shuffle_inline(order: list[int], seed: int) -> None:
    """``random.Random(seed).shuffle(order)``, written out: the same draws, faster.

    CPython's shuffle swaps each position i (from the end) with
    ``_randbelow(i + 1)``, which draws ``getrandbits(bit_length(i + 1))``
    until the result is ≤ i. Calling getrandbits directly skips a Python
    call per card; :data:`_shuffle` uses this only if it matches the
    library's shuffle on this interpreter.
    """
    getrandbits = random.Random(seed).getrandbits
    for i in range(len(order) - 1, 0, -1):
        k = (i + 1).bit_length()
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        order[i], order[j] = order[j], order[i]


def _library_shuffle(order: list[int], seed: int) -> None:
    """Shuffle ``order`` with ``random.Random(seed)``."""
    random.Random(seed).shuffle(order)


def _pick_shuffle() -> Callable[[list[int], int], None]:
    """:func:`_shuffle_inline` if it reproduces the library's shuffle here, else the library's.

    Deals must never depend on which one runs, so the check compares both
    on several seeds and lengths before trusting the inline copy.
    """
    for seed in (0, 1, 2**63 + 12345, 987654321):
        for n in (2, 13, 78, 200):
            a, b = list(range(n)), list(range(n))
            _shuffle_inline(a, seed)
            _library_shuffle(b, seed)
            if a != b:
                return _library_shuffle
    return _shuffle_inline


#: The deal's shuffle (see :func:`_pick_shuffle`).
_shuffle = _pick_shuffle()


def value_mask(number: int, discards: int) -> int:
    """Bit mask of the values a card of ``number`` may take with ``discards`` in its slot.

    Ruling F2: values ``(number + k) mod 10`` for ``0 ≤ k ≤ discards``.
    """
    mask = 0
    for k in range(min(discards, MAX_VALUE) + 1):
        mask |= 1 << ((number + k) % 10)
    return mask


def card_values(number: int, discards: int) -> list[int]:
    """Sorted values a card of printed ``number`` may take (ruling F2)."""
    mask = value_mask(number, discards)
    return [v for v in range(10) if mask >> v & 1]


class FortunaGame(Game):
    """Fortuna: collect sets whose card values climb with the shared discard slots."""

    slug = "fortuna"
    title = "Fortuna"
    min_players = 3
    max_players = 4
    param_specs = (
        Param("hand_size", 7, "cards dealt to each player at set-up", minimum=1, maximum=20),
        Param("end_deck_size", 7, "cards set aside as the end deck at set-up",
              minimum=0, maximum=60),
        Param("all_in", True, "allow all-in sets (ruling F4)"),
        Param("wheel_of_fortune", True,
              "a discard that makes n + d(n) = 10 fires the Wheel of Fortune (ruling F6)"),
    )
    event_names = EVENT_NAMES

    def __init__(self, params: Mapping[str, Any] | None = None,
                 data_dir: Path | None = None) -> None:
        """Set up the rules and read the card table once."""
        super().__init__(params, data_dir)
        rows = load_cards("fortuna", "reel", data_dir)
        icons = list(ICON_ORDER)
        for row in rows:
            if row["icon"] not in icons:
                icons.append(row["icon"])
            if not 1 <= row["number"] <= NUM_SLOTS:
                raise PnpError(f"fortuna reel card {row['id']!r}: number {row['number']} "
                               f"is outside 1–{NUM_SLOTS}")
        if len(rows) >= 1000 or NUM_SLOTS * len(icons) >= 100:
            raise PnpError("fortuna: expected fewer than 1000 reel cards and 16 icons")
        # Sorting by type makes a sorted hand sorted by type as well.
        rows = sorted(rows, key=lambda r: (r["number"], icons.index(r["icon"])))
        self.icons: tuple[str, ...] = tuple(icons)
        self.goddess: int = icons.index(GODDESS)
        n_icons = len(icons)
        self.n_types: int = NUM_SLOTS * n_icons
        self.card_ids: tuple[str, ...] = tuple(str(r["id"]) for r in rows)
        self.card_number: tuple[int, ...] = tuple(int(r["number"]) for r in rows)
        self.card_icon: tuple[int, ...] = tuple(icons.index(r["icon"]) for r in rows)
        self.card_type: tuple[int, ...] = tuple(
            (n - 1) * n_icons + i for n, i in zip(self.card_number, self.card_icon))
        self.type_number: tuple[int, ...] = tuple(t // n_icons + 1 for t in range(self.n_types))
        self.type_icon: tuple[int, ...] = tuple(t % n_icons for t in range(self.n_types))
        self.base: int = self.n_types + 1
        # _powr[k] = (B^(k−1), …, B, 1): the first (smallest) type is the most
        # significant digit, so codes sort like the sorted type tuples do.
        self._powr: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.base ** (k - 1 - i) for i in range(k)) for k in range(MAX_VALUE + 2))
        self.x_step: int = self.base ** MAX_VALUE
        # _ones[k] = Σ_{i<k} Bⁱ: the "+1" of every digit of a k-card code.
        self._ones: tuple[int, ...] = tuple(sum(self._powr[k]) for k in range(MAX_VALUE + 2))
        self.n_icons: int = n_icons
        # vmask[n][d]: value mask of number n with d cards in its slot, for every d.
        self.vmask: tuple[tuple[int, ...], ...] = tuple(
            tuple(value_mask(n, d) for d in range(len(rows) + 1)) if n else ()
            for n in range(NUM_SLOTS + 1))
        self.all_in: bool = bool(self.params["all_in"])
        self.wheel_on: bool = bool(self.params["wheel_of_fortune"])
        # type_first[t] .. type_first[t + 1] − 1: the card ids of type t (ids
        # are sorted by type), so a sorted hand finds a type by bisection.
        self.type_first: tuple[int, ...] = tuple(
            bisect_left(self.card_type, t) for t in range(self.n_types + 1))
        # Card ids of number n are num_first[n] .. num_first[n + 1] − 1.
        self.num_first: tuple[int, ...] = tuple(
            bisect_left(self.card_number, n) for n in range(NUM_SLOTS + 2))
        self._init_lanes(len(rows))
        self._wheel_blocks: dict[tuple[int, int], tuple[int, ...]] = {}
        # Scoring (F8): one lane per icon, counts of a set's face-up icons
        # summed in one int; matches cached per count pattern.
        self._icon_lane: tuple[int, ...] = tuple(
            1 << (self._lane_width * i) for i in self.card_icon)
        self._matches: dict[int, int] = {}
        self._cache: dict[tuple[tuple[int, ...], int], list[int]] = {}
        self._decoded: dict[int, tuple[int, tuple[int, ...]]] = {}

    def _init_lanes(self, n_cards: int) -> None:
        """Tables that let set enumeration treat all ten values at once.

        One int holds ten ``w``-bit lanes, lane X for value X. Summing the
        per-card lanes of a hand counts, in lane X, the cards that may be used
        as X. ``w`` leaves a spare top bit above any possible count
        (2^(w−1) > cards in the deck), so "count ≥ threshold" for every value
        at once is one addition and one mask: adding ``2^(w−1) − threshold``
        to a lane sets its top bit exactly when the count reaches the
        threshold, and no lane carries into the next.
        """
        w = max(6, n_cards.bit_length() + 1)
        half = 1 << (w - 1)
        ones = sum(1 << (w * x) for x in range(10))
        self._lane_width: int = w
        self._lane_mask: int = (1 << w) - 1
        # lanes[m]: 1 in the lane of every value in mask m.
        lanes = tuple(sum(1 << (w * x) for x in _BITS[m]) for m in range(1024))
        #: _lane_top[m]: the top bit of the lane of every value in mask m.
        self._lane_top: tuple[int, ...] = tuple(half * v for v in lanes)
        #: Top-bit pattern → the values whose lanes it marks, ascending.
        self._top_values: dict[int, tuple[int, ...]] = {
            top: _BITS[m] for m, top in enumerate(self._lane_top)}
        # Lane X reaches the top bit iff its count ≥ max(X, 1): a set of X
        # needs X cards, a 0 set at least one (F3).
        self._set_threshold: int = sum((half - max(x, 1)) << (w * x) for x in range(10))
        # All-in (F4) candidates for a hand of h cards: values X > h whose
        # count is h (every card usable); _allin_add[h] tops lanes counting
        # ≥ h, _above[h] keeps the values above h (F4b: never X = 0).
        self._allin_add: tuple[int, ...] = tuple((half - h) * ones for h in range(MAX_VALUE))
        self._above: tuple[int, ...] = tuple(
            self._lane_top[1023 & ~((2 << h) - 1)] for h in range(MAX_VALUE))
        #: _select[M]: bit i of M as the i-th of w booleans, for itertools.compress.
        self._select: tuple[tuple[bool, ...], ...] = tuple(
            tuple(bool(m >> i & 1) for i in range(w)) for m in range(1 << w))
        #: _num_lanes[n][d]: lanes of the values number n may take with d in its slot.
        self._num_lanes: tuple[tuple[int, ...], ...] = tuple(
            tuple(lanes[m] for m in row) for row in self.vmask)
        #: _usable_run[n][d]: the lanes of every card of number n with d in its slot,
        #: assigned as one slice of FortunaState.usable when slot n changes.
        self._usable_run: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple((v,) * (self.num_first[n + 1] - self.num_first[n]) for v in row) if n else ()
            for n, row in enumerate(self._num_lanes))
        #: _exact_base[x]: action of an x-card set of value x minus its code's digit sum.
        self._exact_base: tuple[int, ...] = tuple(
            SET_BASE + x * self.x_step + self._ones[x] for x in range(MAX_VALUE + 1))
        #: _one_set[t]: the action playing one card of type t as a 1 set.
        self._one_set: tuple[int, ...] = tuple(
            SET_BASE + self.x_step + t + 1 for t in range(self.n_types))

    #: Per-process caches, filled as games are played: left out when the
    #: game is pickled (the simulator ships it to each worker process once)
    #: and started empty there.
    _CACHES = ("_cache", "_decoded", "_matches", "_wheel_blocks")

    def __getstate__(self) -> dict[str, Any]:
        """Pickled state: everything but the per-process caches."""
        state = self.__dict__.copy()
        for name in self._CACHES:
            state.pop(name, None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Restore a pickled game with empty caches."""
        self.__dict__.update(state)
        for name in self._CACHES:
            setattr(self, name, {})

    # -- set-up -----------------------------------------------------------

    def deck(self) -> Sequence[int]:
        """Every card id (0..77 for the printed deck)."""
        return range(len(self.card_number))

    def new_initial_state(self, num_players: int, seed: int) -> "FortunaState":
        """Shuffle, deal ``hand_size`` each, set aside the end deck; seat 0 draws."""
        self.check_players(num_players)
        hand_size = self.params["hand_size"]
        end_size = self.params["end_deck_size"]
        total = len(self.card_number)
        if num_players * hand_size + end_size > total:
            raise PnpError(f"fortuna: {num_players} hands of {hand_size} plus an end deck "
                           f"of {end_size} need more than the {total} reel cards")
        order = list(range(total))
        _shuffle(order, seed)
        # The deck's top is the end of the list (drawn with pop()).
        hands = [sorted(order[-hand_size * (i + 1):len(order) - hand_size * i])
                 for i in range(num_players)]
        rest = order[:total - hand_size * num_players]
        end_deck = rest[len(rest) - end_size:]
        deck = rest[:len(rest) - end_size]
        state = FortunaState(self, num_players, hands, deck, end_deck)
        state._start_turn()
        return state

    def position(self, hands: Sequence[Sequence[int | str]], *,
                 slots: Mapping[int, Sequence[int | str]] | None = None,
                 deck: Sequence[int | str] = (), end_deck: Sequence[int | str] = (),
                 sets: Sequence[Sequence[tuple[int, Sequence[int | str], Sequence[int | str]]]]
                 | None = None,
                 current_player: int = 0, trigger: bool = False,
                 draw: bool = False) -> "FortunaState":
        """Build a position directly (for tests and for designers exploring rules).

        Cards are ids or short names such as ``"5B"`` (number then icon letter:
        B 稲妻, W 小麦, H 兜, R 車輪, G 女神) or ``"5女神"``. ``deck`` and
        ``end_deck`` list cards in draw order (first drawn first); ``sets`` gives
        per seat ``(value, face_up, face_down)``. Cards not named are set aside
        in a ``box`` zone, so card conservation still holds. With ``draw`` the
        current player makes the turn-start draw first (ruling F7); otherwise
        the hands are as after that draw.
        """
        num_players = len(hands)
        self.check_players(num_players)
        free: dict[int, list[int]] = {}
        for cid in reversed(range(len(self.card_number))):
            free.setdefault(self.card_type[cid], []).append(cid)
        taken: set[int] = set()

        def pick(spec: int | str) -> int:
            """Take the card named by ``spec`` out of the free cards."""
            if isinstance(spec, int):
                cid = spec
                if cid in taken or not 0 <= cid < len(self.card_number):
                    raise PnpError(f"fortuna position: card {cid} is unknown or used twice")
                free[self.card_type[cid]].remove(cid)
            else:
                t = self.type_of(spec)
                if not free.get(t):
                    raise PnpError(f"fortuna position: no card {spec!r} left")
                cid = free[t].pop()
            taken.add(cid)
            return cid

        hand_ids = [sorted(pick(c) for c in h) for h in hands]
        slot_ids = [[] for _ in range(NUM_SLOTS + 1)]
        for n, cards in (slots or {}).items():
            if not 1 <= n <= NUM_SLOTS:
                raise PnpError(f"fortuna position: slot {n}: expected 1–{NUM_SLOTS}")
            slot_ids[n] = [pick(c) for c in cards]
        deck_ids = [pick(c) for c in deck][::-1]
        end_ids = [pick(c) for c in end_deck][::-1]
        state = FortunaState(self, num_players, hand_ids, deck_ids, end_ids)
        state.slots = slot_ids
        state._refresh_usable()
        for seat, seat_sets in enumerate(sets or ()):
            for value, up, down in seat_sets:
                state.sets[seat].append((value, tuple(pick(c) for c in up),
                                         tuple(pick(c) for c in down)))
                state.used[seat] |= 1 << value
        state.box = sorted(cid for ids in free.values() for cid in ids)
        state.cur = current_player
        state.trigger = trigger
        if draw:
            state._start_turn()
        else:
            state.n_turns = 1
        return state

    # -- card helpers -----------------------------------------------------

    def type_of(self, name: str) -> int:
        """Type id of a short card name such as ``"5B"`` or ``"5女神"``."""
        text = name.strip()
        if len(text) < 2 or not text[0].isdigit():
            raise PnpError(f"card name {name!r}: expected a number 1–6 then an icon, e.g. '5B'")
        number, icon = int(text[0]), text[1:]
        icon = ICON_LETTERS.get(icon.upper(), icon)
        if icon not in self.icons or not 1 <= number <= NUM_SLOTS:
            raise PnpError(f"card name {name!r}: expected a number 1–6 then one of "
                           f"{', '.join(ICON_LETTERS)} or an icon name")
        return (number - 1) * len(self.icons) + self.icons.index(icon)

    def type_name(self, t: int) -> str:
        """Readable name of type ``t``, e.g. ``5稲妻``."""
        return f"{self.type_number[t]}{self.icons[self.type_icon[t]]}"

    def set_code(self, types: Iterable[int]) -> int:
        """The multiset code of ``types`` used in set actions."""
        return self.code_sorted(sorted(types))

    def code_sorted(self, types: Sequence[int]) -> int:
        """Multiset code of sorted ``types`` t₁ ≤ … ≤ t_k: Σ (tᵢ + 1)·B^(k−i)."""
        k = len(types)
        return sum(map(mul, types, self._powr[k])) + self._ones[k]

    def set_action(self, value: int, types: Iterable[int]) -> int:
        """The action playing hand-card ``types`` as a set of ``value``."""
        return SET_BASE + value * self.x_step + self.set_code(types)

    def decode_set(self, action: int) -> tuple[int, list[int]]:
        """``(declared value, sorted card types)`` of a set action."""
        value, types = self._decode(action)
        return value, list(types)

    def _decode(self, action: int) -> tuple[int, tuple[int, ...]]:
        """:meth:`decode_set` with the types as a tuple, cached per game.

        The same few thousand set actions recur in every game, and the
        apply step and the greedy bot decode each one they meet.
        """
        found = self._decoded.get(action)
        if found is None:
            value, code = divmod(action - SET_BASE, self.x_step)
            types = []
            base = self.base
            while code:
                code, digit = divmod(code, base)
                types.append(digit - 1)
            types.reverse()
            found = (value, tuple(types))
            if len(self._decoded) > _CACHE_LIMIT:
                self._decoded.clear()
            self._decoded[action] = found
        return found

    def set_score(self, face_up: Sequence[int], size: int) -> int:
        """VP of a set: size × most face-up cards showing one icon, goddesses wild (F8)."""
        return size * self.icon_matches(face_up)

    def icon_matches(self, cards: Iterable[int]) -> int:
        """Most of ``cards`` showing one icon, goddesses wild (F8); cached per icon count."""
        packed = sum(map(self._icon_lane.__getitem__, cards))
        found = self._matches.get(packed)
        if found is None:
            w, mask = self._lane_width, self._lane_mask
            counts = [packed >> (w * i) & mask for i in range(len(self.icons))]
            wild = counts[self.goddess]
            counts[self.goddess] = 0
            found = max(counts) + wild
            if len(self._matches) > _CACHE_LIMIT:
                self._matches.clear()
            self._matches[packed] = found
        return found

    def _set_actions(self, elig: tuple[int, ...], value: int) -> list[int]:
        """Sorted set actions of ``value`` drawn from the eligible types ``elig`` (cached)."""
        sizes = range(1, min(ZERO_SET_MAX, len(elig)) + 1) if value == 0 else (value,)
        offset = SET_BASE + value * self.x_step
        repeats = len(set(elig)) < len(elig)
        result: list[int] = []
        for k in sizes:
            # combinations() of a sorted tuple come in lexicographic order, and
            # codes (first type most significant) keep that order; equal
            # multisets are adjacent, so dict.fromkeys removes them in order.
            # Longer sets have larger codes, so the sizes concatenate sorted.
            pw = self._powr[k]
            one = offset + self._ones[k]
            codes = [sum(map(mul, combo, pw)) + one for combo in combinations(elig, k)]
            result += dict.fromkeys(codes) if repeats else codes
        if len(self._cache) > _CACHE_LIMIT:
            self._cache.clear()
        self._cache[(elig, value)] = result
        return result

    def _wheel_block(self, s: int, d: int) -> tuple[int, ...]:
        """Wheel moves from slot ``s`` holding ``d`` cards, ascending (cached; F6).

        Targets t ≠ s ascending, then counts 1..d: ``s·10_000 + t·1_000 + c``
        grows in that order, so blocks of ascending ``s`` concatenate sorted.
        """
        block = tuple(WHEEL_BASE + s * 10_000 + t * 1_000 + c
                      for t in range(1, NUM_SLOTS + 1) if t != s for c in range(1, d + 1))
        self._wheel_blocks[(s, d)] = block  # at most NUM_SLOTS × (cards + 1) entries
        return block

    def greedy_action(self, observation: Any, legal_actions: Sequence[int],
                      rng: random.Random) -> int:
        """One-ply heuristic player (see :mod:`pnp.games.fortuna_bot`)."""
        from pnp.games.fortuna_bot import greedy_action
        return greedy_action(self, observation, legal_actions, rng)


class FortunaState(State):
    """A Fortuna position: hands, deck, end deck, discard slots, sets, whose turn."""

    __slots__ = ("game", "num_players", "hands", "deck", "end_deck", "slots", "sets", "used",
                 "box", "cur", "phase", "trigger", "n_turns", "ev", "wheel_slot", "fill_left",
                 "fill_min", "pending", "final", "usable")

    def __init__(self, game: FortunaGame, num_players: int, hands: list[list[int]],
                 deck: list[int], end_deck: list[int]) -> None:
        """An empty table: the given hands, deck and end deck."""
        self.game = game
        self.num_players = num_players
        self.hands = hands
        self.deck = deck
        self.end_deck = end_deck
        self.slots: list[list[int]] = [[] for _ in range(NUM_SLOTS + 1)]  # index 0 unused
        self.sets: list[list[tuple[int, tuple[int, ...], tuple[int, ...]]]] = [
            [] for _ in range(num_players)]
        self.used = [0] * num_players  # bit X set: the seat owns a set of value X (F3)
        self.box: list[int] = []  # cards set aside by FortunaGame.position only
        self.cur = 0
        self.phase = MAIN
        self.trigger = False
        self.n_turns = 0
        self.ev = [0] * len(EVENT_NAMES)
        self.wheel_slot = 0  # slot whose discard fired the pending Wheel of Fortune
        self.fill_left = 0  # face-down filler cards still owed by a pending all-in set
        self.fill_min = 1  # lowest slot the next filler card may come from
        self.pending = 0  # hand cards played by the pending all-in set
        self.final: list[float] | None = None  # VP, fixed when the game ends
        # usable[c]: lanes (FortunaGame._init_lanes) of the values card c may be
        # used as with its slot as it is now (F1, F2); kept in step with every
        # change of a slot, so set enumeration needs one lookup per hand card.
        self.usable: list[int] = []
        self._refresh_usable()

    # -- API --------------------------------------------------------------

    def current_player(self) -> int:
        """Seat to act, or TERMINAL."""
        return self.cur

    def is_terminal(self) -> bool:
        """True once the game has ended (ruling F7)."""
        return self.phase == OVER

    def turns(self) -> int:
        """Turns begun (turn-start draws made)."""
        return self.n_turns

    def events(self) -> Mapping[str, int]:
        """Counters of every event in EVENT_NAMES."""
        return dict(zip(EVENT_NAMES, self.ev))

    def clone(self) -> "FortunaState":
        """Independent copy; set tuples are immutable and shared."""
        new = object.__new__(FortunaState)
        new.game = self.game
        new.num_players = self.num_players
        new.cur = self.cur
        new.phase = self.phase
        new.trigger = self.trigger
        new.n_turns = self.n_turns
        new.wheel_slot = self.wheel_slot
        new.fill_left = self.fill_left
        new.fill_min = self.fill_min
        new.pending = self.pending
        new.final = self.final
        copy = list.copy  # map(list.copy, …) avoids a comprehension frame per zone list
        new.hands = list(map(copy, self.hands))
        new.deck = self.deck[:]
        new.end_deck = self.end_deck[:]
        new.slots = list(map(copy, self.slots))
        new.sets = list(map(copy, self.sets))
        new.used = self.used[:]
        new.box = self.box[:]
        new.ev = self.ev[:]
        new.usable = self.usable[:]
        return new

    def zones(self) -> Iterator[tuple[str, list[int]]]:
        """Deck, end deck, hands, discard slots, sets (face-down filler included), box."""
        yield "deck", self.deck
        yield "end_deck", self.end_deck
        for p, hand in enumerate(self.hands):
            yield f"hand{p}", hand
        for n in range(1, NUM_SLOTS + 1):
            yield f"slot{n}", self.slots[n]
        for p, seat_sets in enumerate(self.sets):
            yield f"sets{p}", [c for _, up, down in seat_sets for c in up + down]
        yield "box", self.box

    def returns(self) -> list[float]:
        """VP per seat (ruling F8); computed once when the game has ended."""
        if self.final is not None:
            return self.final[:]
        return self._score()

    def _score(self) -> list[float]:
        """VP per seat from the sets on the table (ruling F8)."""
        matches = self.game.icon_matches
        return [float(sum([matches(up) * (len(up) + len(down)) for _, up, down in seat_sets]))
                for seat_sets in self.sets]

    def winners(self) -> list[int]:
        """The single winner: most VP, ties to the earlier seat (ruling F8)."""
        vp = self.final if self.final is not None else self._score()
        return [vp.index(max(vp))]

    def legal_actions(self) -> list[int]:
        """Legal actions of the player on turn, ascending."""
        phase = self.phase
        if phase == MAIN:
            return self._main_actions()
        if phase == DISCARD:
            ctype = self.game.card_type
            return [DISCARD_BASE + t for t in dict.fromkeys(ctype[c] for c in self.hands[self.cur])]
        if phase == FILL:
            return self._fill_actions()
        if phase == WHEEL:
            return self._wheel_actions()
        return []

    def apply_action(self, action: int) -> None:
        """Apply a legal ``action``; raises PnpError on one that cannot apply."""
        phase = self.phase
        if phase == MAIN:
            if action >= SET_BASE:
                self._play_set(action)
            elif PASS_BASE <= action < DISCARD_BASE:
                self._discard(action - PASS_BASE, EV_PASS)
            else:
                self._illegal(action)
        elif phase == DISCARD:
            if not DISCARD_BASE <= action < FILL_BASE:
                self._illegal(action)
            self._discard(action - DISCARD_BASE, EV_ONE_DISCARD)
        elif phase == FILL:
            if action not in self._fill_actions():
                self._illegal(action)
            self._fill(action - FILL_BASE)
            self._auto_fill()
        elif phase == WHEEL:
            self._wheel(action)
        else:
            raise PnpError(f"fortuna: action {action} applied after the game ended")

    def action_to_string(self, action: int) -> str:
        """Readable action, e.g. ``set 5: 3稲妻 3兜 5小麦 5小麦 5女神 (3 as 5 ×2)``."""
        g = self.game
        if action >= SET_BASE:
            value, types = g.decode_set(action)
            names = " ".join(g.type_name(t) for t in types)
            notes = []
            raised: dict[int, int] = {}
            for t in types:
                n = g.type_number[t]
                if n != value:
                    raised[n] = raised.get(n, 0) + 1
            notes += [f"{n} as {value} ×{k}" for n, k in sorted(raised.items())]
            if value and len(types) < value:
                notes.append(f"all-in, {value - len(types)} face down from the discard area")
            return f"set {value}: {names}" + (f" ({'; '.join(notes)})" if notes else "")
        if action >= WHEEL_BASE:
            s, rest = divmod(action - WHEEL_BASE, 10_000)
            t, c = divmod(rest, 1_000)
            return f"wheel: slot {s} → {t} ×{c}"
        if action == WHEEL_DECLINE:
            return "decline wheel"
        if action >= FILL_BASE:
            return f"all-in filler from slot {action - FILL_BASE}"
        if action >= DISCARD_BASE:
            return f"discard {g.type_name(action - DISCARD_BASE)} (1-card set)"
        return f"pass {g.type_name(action - PASS_BASE)}"

    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` sees: own hand, public zones, sizes of hidden ones.

        Keys: player, current_player, phase, hand, hand_sizes, sets (per seat
        a tuple of ``(value, face_up_cards, face_down_count)``), slots (slot n
        at index n − 1), deck_size, end_deck_size, trigger, turn, wheel_slot,
        fill_left, fill_min.
        """
        return {
            "player": player,
            "current_player": self.cur,
            "phase": PHASE_NAMES[self.phase],
            "hand": tuple(self.hands[player]),
            "hand_sizes": tuple(len(h) for h in self.hands),
            "sets": tuple(tuple((v, up, len(down)) for v, up, down in s) for s in self.sets),
            "slots": tuple(tuple(s) for s in self.slots[1:]),
            "deck_size": len(self.deck),
            "end_deck_size": len(self.end_deck),
            "trigger": self.trigger,
            "turn": self.n_turns,
            "wheel_slot": self.wheel_slot if self.phase == WHEEL else 0,
            "fill_left": self.fill_left if self.phase == FILL else 0,
            "fill_min": self.fill_min,
        }

    # -- helpers ----------------------------------------------------------

    def phase_name(self) -> str:
        """Pending decision: main, discard (F5), fill (F4), wheel (F6) or over."""
        return PHASE_NAMES[self.phase]

    def discards(self, number: int) -> int:
        """d(n): cards now in slot ``number`` (ruling F1)."""
        return len(self.slots[number])

    def values_of(self, card: int) -> list[int]:
        """Values ``card`` may be used as right now (rulings F1, F2)."""
        number = self.game.card_number[card]
        return card_values(number, len(self.slots[number]))

    def _refresh_usable(self) -> None:
        """Recompute :attr:`usable` for every card from the slots."""
        runs = self.game._usable_run
        slots = self.slots
        usable: list[int] = []
        for n in range(1, NUM_SLOTS + 1):
            usable += runs[n][len(slots[n])]
        self.usable = usable

    def _slot_changed(self, n: int) -> None:
        """Update :attr:`usable` for the cards of number ``n`` after slot ``n`` changed."""
        g = self.game
        self.usable[g.num_first[n]:g.num_first[n + 1]] = g._usable_run[n][len(self.slots[n])]

    def _illegal(self, action: int) -> None:
        """Raise PnpError for an action that cannot apply here."""
        raise PnpError(f"fortuna: action {action} is not legal in phase "
                       f"{PHASE_NAMES[self.phase]} (legal: {self.legal_actions()[:12]} …)")

    def _main_actions(self) -> list[int]:
        """Passes (one per hand type) then every set, by value then code (F3, F4).

        Works on all ten values at once with the lane ints of
        :meth:`FortunaGame._init_lanes`; only values with enough usable cards
        are visited, and multisets are enumerated only where there is a choice.
        """
        g = self.game
        p = self.cur
        hand = self.hands[p]
        types = tuple(map(g.card_type.__getitem__, hand))  # sorted: hand is sorted
        acts = list(dict.fromkeys(types))  # pass t is action t (PASS_BASE == 0)
        # cls[i]: lanes of the values hand card i may be used as (F1, F2);
        # lane X of ``packed`` counts the hand cards usable as X.
        cls = list(map(self.usable.__getitem__, hand))
        packed = sum(cls)
        h = len(types)
        w = g._lane_width
        lmask = g._lane_mask
        # Lane X of ``where`` has bit i set iff hand card i is usable as X
        # (hands of at most w cards; wider ones exist only via position()).
        where = sum(map(lshift, cls, range(h))) if h <= w else 0
        select = g._select
        free = g._lane_top[1023 & ~self.used[p]]  # F3: never a second set of one value
        cache = g._cache
        for x in g._top_values[(packed + g._set_threshold) & free]:
            sh = w * x
            k = packed >> sh & lmask
            if k == h:
                elig = types
            elif h <= w:
                elig = tuple(compress(types, select[where >> sh & lmask]))
            else:  # a hand wider than a lane (only via position()): card by card
                bit = 1 << sh
                elig = tuple([t for t, m in zip(types, cls) if m & bit])
            if k == x:  # exactly x usable cards: one set, code computed inline
                acts.append(g._exact_base[x] + sum(map(mul, elig, g._powr[x])))
            elif x == 1:  # any one usable card, one action per type
                acts += map(g._one_set.__getitem__, dict.fromkeys(elig))
            else:  # a choice of multisets (x ≥ 2 or a 0 set): cached per types
                lst = cache.get((elig, x))
                if lst is None:
                    lst = g._set_actions(elig, x)
                acts += lst
        if h < MAX_VALUE and g.all_in:
            # F4: values X > h usable by every hand card are all-in sets if the
            # discard area can supply the X − h filler cards. They exceed
            # every value above (those need X ≤ h cards), so acts stay sorted.
            allin = g._top_values[(packed + g._allin_add[h]) & free & g._above[h]]
            if allin and h:
                filler = sum(map(len, self.slots))
                code = g.code_sorted(types)
                x_step = g.x_step
                acts += [SET_BASE + x * x_step + code for x in allin if filler >= x - h]
        return acts

    def _take(self, hand: list[int], t: int) -> int:
        """Remove and return the lowest-id card of type ``t`` from the sorted ``hand``."""
        g = self.game
        if 0 <= t < g.n_types:
            # Card ids of one type are consecutive, so the first card at or
            # after the type's first id is of that type if any is.
            first = g.type_first
            i = bisect_left(hand, first[t])
            if i < len(hand) and hand[i] < first[t + 1]:
                return hand.pop(i)
        raise PnpError(f"fortuna: no {self.game.type_name(t) if 0 <= t < self.game.n_types else t}"
                       f" in seat {self.cur}'s hand")

    def _play_set(self, action: int) -> None:
        """Play a set (F3) or an all-in set (F4), then refill (F5)."""
        g = self.game
        p = self.cur
        x, types = g._decode(action)
        bit = 1 << x
        k = len(types)
        hand = self.hands[p][:]
        take = self._take
        played = tuple([take(hand, t) for t in types])
        allin = 0 < k < x and not hand and g.all_in
        ok = (x <= MAX_VALUE and not self.used[p] & bit
              and (k == x or allin or (x == 0 and 1 <= k <= ZERO_SET_MAX)))
        if ok:
            # F1, F2: all k cards must be usable as x with the slots as they are.
            w = g._lane_width
            ok = sum(map(self.usable.__getitem__, played)) >> (w * x) & g._lane_mask == k
        if ok and allin:
            ok = sum(map(len, self.slots)) >= x - k
        if not ok:
            self._illegal(action)
        self.hands[p] = hand
        self.used[p] |= bit
        self.sets[p].append((x, played, ()))
        ev = self.ev
        ev[EV_SET] += 1
        if x == 0:
            ev[EV_ZERO] += 1
        if allin:
            ev[EV_ALLIN] += 1
            self.phase = FILL
            self.fill_left = x - k
            self.fill_min = 1
            self.pending = k
            self._auto_fill()
        else:
            self._after_set(k, False)

    def _after_set(self, played: int, allin: bool) -> None:
        """Refill or 1-card-set discard (ruling F5), then end the turn."""
        if self.trigger:
            pass  # ruling F5: after the end trigger, no refill and no discard
        elif played == 1 and not allin:  # ruling F5a: any one-hand-card set, 0 included
            if self.hands[self.cur]:
                self.phase = DISCARD
                return
        else:
            self._refill(played - 2)
        self._end_turn()

    def _refill(self, n: int) -> None:
        """Draw ``n`` cards; stop at the card that pulls the end trigger (F5, F7)."""
        hand = self.hands[self.cur]
        deck = self.deck
        for i in range(n):
            if deck:
                insort(hand, deck.pop())
            elif self.end_deck:
                insort(hand, self.end_deck.pop())
                self._pull_trigger()
                if i < n - 1:
                    self.ev[EV_REFILL_CUT] += 1
                return
            else:
                return  # both decks empty: draw what exists

    def _pull_trigger(self) -> None:
        """Pull the end trigger (ruling F7), once."""
        if not self.trigger:
            self.trigger = True
            self.ev[EV_TRIGGER] += 1

    def _fill_actions(self) -> list[int]:
        """Filler slots: non-decreasing, leaving enough cards in later slots (F4, F4a)."""
        slots = self.slots
        need = self.fill_left
        acts = []
        suffix = sum(len(slots[s]) for s in range(self.fill_min, NUM_SLOTS + 1))
        for s in range(self.fill_min, NUM_SLOTS + 1):
            if slots[s] and suffix >= need:
                acts.append(FILL_BASE + s)
            suffix -= len(slots[s])
        return acts

    def _fill(self, s: int) -> None:
        """Move the top card of slot ``s`` face down into the pending all-in set (F4a)."""
        card = self.slots[s].pop()
        self._slot_changed(s)
        seat_sets = self.sets[self.cur]
        x, up, down = seat_sets[-1]
        seat_sets[-1] = (x, up, down + (card,))
        self.fill_left -= 1
        self.fill_min = s

    def _auto_fill(self) -> None:
        """Apply forced filler choices; finish the all-in set when none are owed."""
        while self.fill_left:
            acts = self._fill_actions()
            if len(acts) > 1:
                return
            self._fill(acts[0] - FILL_BASE)
        self.phase = MAIN
        self._after_set(self.pending, True)

    def _discard(self, t: int, event: int) -> None:
        """Discard a hand card of type ``t`` to its slot (pass or F5 discard); check F6."""
        g = self.game
        card = self._take(self.hands[self.cur], t)
        n = g.card_number[card]
        slot = self.slots[n]
        slot.append(card)
        first = g.num_first
        self.usable[first[n]:first[n + 1]] = g._usable_run[n][len(slot)]  # see _slot_changed
        self.ev[event] += 1
        # Ruling F6: exactly 10 after the discard fires the Wheel of Fortune.
        if n + len(slot) == 10 and g.wheel_on:
            self.ev[EV_WHEEL] += 1
            if any(self.slots[s] for s in range(1, NUM_SLOTS + 1) if s != n):
                self.phase = WHEEL
                self.wheel_slot = n
                return
        self._end_turn()

    def _wheel_actions(self) -> list[int]:
        """Decline, then every (source ≠ fired slot, other target, count) move.

        Ruling F6; F6a: only the source must differ from the fired slot, and the
        top ``count`` cards of the source move.
        """
        acts = [WHEEL_DECLINE]
        slots = self.slots
        n = self.wheel_slot
        blocks = self.game._wheel_blocks
        for s in range(1, NUM_SLOTS + 1):
            d = len(slots[s])
            if s != n and d:
                block = blocks.get((s, d))
                if block is None:
                    block = self.game._wheel_block(s, d)
                acts += block
        return acts

    def _wheel(self, action: int) -> None:
        """Resolve the Wheel of Fortune: decline or move cards (F6); never re-fires."""
        if action == WHEEL_DECLINE:
            self.ev[EV_WHEEL_DECLINE] += 1
        else:
            s, rest = divmod(action - WHEEL_BASE, 10_000)
            t, c = divmod(rest, 1_000)
            if not (1 <= s <= NUM_SLOTS and 1 <= t <= NUM_SLOTS and s != t
                    and s != self.wheel_slot and 1 <= c <= len(self.slots[s])):
                self._illegal(action)
            src = self.slots[s]
            moved = src[len(src) - c:]
            del src[len(src) - c:]
            self.slots[t].extend(moved)
            self._slot_changed(s)
            self._slot_changed(t)
            self.ev[EV_WHEEL_MOVE] += 1
        self.wheel_slot = 0
        self._end_turn()

    def _end_turn(self) -> None:
        """Pass the turn; after the trigger the round ends with seat N−1 (F7)."""
        if self.trigger and self.cur == self.num_players - 1:
            self.ev[EV_ROUND_END] += 1
            self._finish()
            return
        self.cur = (self.cur + 1) % self.num_players
        self._start_turn()

    def _start_turn(self) -> None:
        """Turn-start draw: deck, then end deck; none left ends the game (F7)."""
        if self.deck:
            card = self.deck.pop()
        elif self.end_deck:
            card = self.end_deck.pop()
            self._pull_trigger()
        else:
            self.ev[EV_EXHAUSTED] += 1
            self._finish()
            return
        insort(self.hands[self.cur], card)
        self.n_turns += 1  # ruling F7a: a turn begins with its draw
        self.phase = MAIN

    def _finish(self) -> None:
        """End the game and fix the final scores."""
        self.phase = OVER
        self.cur = TERMINAL
        self.final = self._score()
