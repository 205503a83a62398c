"""Fortuna rules engine: draft 2 of the rulebook plus rulings F1–F8.

Cards are small ints: an index into the game's card table (the ``reel``
component of the loaded data), sorted by (number, icon) so that a sorted hand
is also sorted by card *type* (see :mod:`pnp.games.fortuna.codec` for types
and the action encoding).

Zones (``state.zones()``): ``deck``, ``end_deck``, ``hand:<seat>``,
``slot:<n>`` (discard slots 1–6, ruling F1), ``sets:<seat>`` (every card of
the seat's sets, face-down filler included) and ``box`` (cards a scripted
position leaves out; empty in dealt games).

Phases (``state.phase()``): ``main`` (play a set or pass), ``discard`` (the
F5 discard after a 1-card set), ``fill`` (an all-in set owes face-down
filler, F4), ``wheel`` (the Wheel of Fortune fired, F6) and ``over``.
"""

from __future__ import annotations

import random
import struct
from bisect import bisect_left, insort
from dataclasses import dataclass
from itertools import combinations, repeat
from operator import mul
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, Sequence, cast

from pnp.errors import PnpError
from pnp.games.api import (TERMINAL, Game, IllegalAction, NotationError, Observation, Param,
                           State, illegal)
from pnp.games.chance import INLINE_MATCHES, MAX_INLINE, rng_shuffle, seeded_shuffle
from pnp.games.fortuna.codec import (DISCARD_BASE, FILL_BASE, GODDESS, ICON_ORDER, MAX_VALUE,
                                     NUM_SLOTS, PASS_BASE, SET_BASE, WHEEL_BASE, WHEEL_DECLINE,
                                     FortunaCodec, decode_wheel)
from pnp.games.fortuna.notation import PHASES, FortunaNotation, Position
from pnp.games.fortuna.scoring import matches_from_counts, winner

if TYPE_CHECKING:
    from pnp.data.inventory import GameData

#: A value-0 set holds 1 to this many cards (ruling F3).
ZERO_SET_MAX = 6

#: Decision phases of the player on turn (indices into PHASES).
MAIN, DISCARD, FILL, WHEEL, OVER = range(5)
PHASE_NAMES = PHASES

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
# 20,000 entries hold the hands that recur; a larger cap only grows memory
# (200,000 took ~150 MB over a 100,000-game run with no speed gain).
_CACHE_LIMIT = 20_000

#: (coef, constant, unpack, bytes) of FortunaGame._combo_table, or () where it refuses.
_ComboTable = tuple[tuple[int, ...], int, Callable[[bytes], tuple[Any, ...]], int] | tuple[()]

#: (value, sorted types, the types as a ``held`` int, VP, value bit, shape) of a set
#: action; shape is _PLAIN, _ALL_IN or _NEVER (see FortunaGame._set_info_of).
_SetInfo = tuple[int, tuple[int, ...], int, int, int, int]

#: Shapes of a set action: k cards of value k, or 1–6 cards of value 0 (F3); fewer
#: cards than the value, legal only as an all-in set (F4); never legal.
_NEVER, _PLAIN, _ALL_IN = range(3)

#: Runs of at most this many types get a full table of pass lists at set-up
#: (2^width entries); wider runs (more icons than the printed five) fill theirs lazily.
_FULL_PASS_TABLE = 10

#: Most combinations whose codes :meth:`FortunaGame._combo_table` computes at once
#: (C(9, 4) = 126 and the 63 subsets of a six-card 0 set are far below).
_COMBO_LANES = 2048




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


@dataclass(frozen=True)
class FortunaObservation(Observation):
    """What one seat sees: its hand, every public zone, the sizes of hidden ones.

    Other hands, the deck order and which cards lie face down in sets are
    never shown (face-down filler is counted only).
    """

    #: The seat's own hand (card ids, ascending).
    hand: tuple[int, ...]
    #: Cards in each seat's hand.
    hand_sizes: tuple[int, ...]
    #: Per seat, its sets in play order as (value, face-up card ids, face-down count).
    sets: tuple[tuple[tuple[int, tuple[int, ...], int], ...], ...]
    #: Discard slots 1..6 at indices 0..5, card ids bottom to top (F1).
    slots: tuple[tuple[int, ...], ...]
    deck_size: int
    end_deck_size: int
    #: The end trigger has been pulled (F7).
    trigger: bool
    #: Turns begun so far.
    turn: int
    #: Slot whose discard fired the pending Wheel of Fortune (phase wheel), else 0.
    wheel_slot: int
    #: Filler cards the pending all-in set still owes (phase fill), else 0.
    fill_left: int
    #: Lowest slot the next filler card may come from (phase fill), else 0 (F4a).
    fill_min: int


#: ``object.__new__``, to create an observation whose fields are then set at once.
_new_observation = object.__new__


class _Cards(dict[int, list[int]]):
    """Lanes of a run of types in a ``held`` int → its cards' types, filled as keys are met."""

    def __init__(self, lanes: Sequence[tuple[int, int]], mask: int) -> None:
        """``lanes``: (shift, type) of each lane of the run, types ascending; ``mask`` one lane."""
        super().__init__()
        self.lanes = lanes
        self.mask = mask

    def __missing__(self, key: int) -> list[int]:
        """The types of ``key``'s cards, ascending, each as often as counted (stored)."""
        if len(self) > _CACHE_LIMIT:
            self.clear()
        found = self[key] = [t for shift, t in self.lanes for _ in range(key >> shift & self.mask)]
        return found


class _Occupied(dict[int, list[int]]):
    """Guard bits of a run of type lanes → the types they mark, filled as keys are met."""

    def __init__(self, bits: Sequence[tuple[int, int]]) -> None:
        """``bits``: (guard bit, type) of each lane of the run, types ascending."""
        super().__init__()
        self.bits = bits

    def __missing__(self, key: int) -> list[int]:
        """The types of ``key``'s set guard bits, ascending (stored for next time)."""
        if len(self) > _CACHE_LIMIT:
            self.clear()
        found = self[key] = [t for bit, t in self.bits if key & bit]
        return found


class FortunaGame(Game["FortunaState"]):
    """Fortuna: collect sets whose card values climb with the shared discard slots."""

    slug = "fortuna"
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
    phase_names = PHASE_NAMES

    def __init__(self, data: "GameData", params: Mapping[str, Any] | None = None) -> None:
        """Bind the loaded reel cards and the parameters; build the lookup tables once."""
        super().__init__(data, params)
        rows = data.cards("reel")
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
        self.codec = FortunaCodec(icons)
        codec = self.codec
        self.icons: tuple[str, ...] = codec.icons
        self.goddess: int = icons.index(GODDESS)
        n_icons = len(icons)
        self.n_icons: int = n_icons
        self.n_types: int = codec.n_types
        self.card_ids: tuple[str, ...] = tuple(str(r["id"]) for r in rows)
        self.card_number: tuple[int, ...] = tuple(int(r["number"]) for r in rows)
        self.card_icon: tuple[int, ...] = tuple(icons.index(r["icon"]) for r in rows)
        self.card_type: tuple[int, ...] = tuple(
            (n - 1) * n_icons + i for n, i in zip(self.card_number, self.card_icon))
        self.type_number: tuple[int, ...] = codec.type_number
        self.type_icon: tuple[int, ...] = codec.type_icon
        self._powr = codec.powr
        self.x_step: int = codec.x_step
        self._ones = codec.ones
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
        #: (i, bit length of i + 1) for i = cards − 1 … 1: the steps of the
        #: Fisher–Yates shuffle random.Random.shuffle makes (j < i + 1 drawn by
        #: rejection from that many random bits).
        self._shuffle_steps: tuple[tuple[int, int], ...] = tuple(
            (i, (i + 1).bit_length()) for i in range(len(rows) - 1, 0, -1))
        self._wheel_blocks: dict[tuple[int, int], tuple[int, ...]] = {}
        # Scoring (F8): one lane per icon, counts of a set's face-up icons
        # summed in one int; matches cached per count pattern.
        self._icon_lane: tuple[int, ...] = tuple(
            1 << (self._lane_width * i) for i in self.card_icon)
        self._matches: dict[int, int] = {}
        #: _type_icon_lane[t]: a card of type t in those per-icon counts.
        self._type_icon_lane: tuple[int, ...] = tuple(
            1 << (self._lane_width * i) for i in self.type_icon)
        self._init_type_lanes()
        self.notation = FortunaNotation(codec, self.card_type, EVENT_NAMES,
                                        (self.min_players, self.max_players))
        self._hand_zone = tuple(f"hand:{p}" for p in range(self.max_players))
        self._set_zone = tuple(f"sets:{p}" for p in range(self.max_players))
        self._slot_zone = tuple(f"slot:{n}" for n in range(NUM_SLOTS + 1))

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
        self._lane_width: int = w
        self._lane_mask: int = (1 << w) - 1
        # lanes[m]: 1 in the lane of every value in mask m.
        lanes = tuple(sum(1 << (w * x) for x in _BITS[m]) for m in range(1024))
        #: _lane_top[m]: the top bit of the lane of every value in mask m.
        self._lane_top: tuple[int, ...] = tuple(half * v for v in lanes)
        #: Top-bit pattern → the values whose lanes it marks, ascending.
        self._top_values: dict[int, tuple[int, ...]] = {
            top: _BITS[m] for m, top in enumerate(self._lane_top)}
        # _thresholds[h], for a hand of h cards: lane X reaches its top bit iff
        # the hand holds enough cards usable as X to play a set of X. For
        # X ≤ h that is max(X, 1) cards (F3: a set of X is X cards, a 0 set at
        # least one). For X > h (never X = 0) it is all h cards, an all-in
        # set (F4), where those are allowed (0 < h < 9); else X cards, which
        # a hand of h < X never has. So one addition finds both kinds, the
        # all-in values last (the largest).
        self._thresholds: tuple[int, ...] = tuple(
            sum((half - (h if x > h and 0 < h < MAX_VALUE and self.all_in else max(x, 1)))
                << (w * x) for x in range(10))
            for h in range(n_cards + 1))
        #: _free_top[u]: the top bits of the lanes of the values not in the mask u
        #: (FortunaState.used: ruling F3, never a second set of one value).
        self._free_top: tuple[int, ...] = tuple(self._lane_top[1023 & ~u] for u in range(1024))
        #: _num_lanes[n][d]: lanes of the values number n may take with d in its slot.
        self._num_lanes: tuple[tuple[int, ...], ...] = tuple(
            tuple(lanes[m] for m in row) for row in self.vmask)
        #: _usable_run[n][d]: the lanes of every card of number n with d in its slot,
        #: assigned as one slice of FortunaState.usable when slot n changes.
        self._usable_run: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple((v,) * (self.num_first[n + 1] - self.num_first[n]) for v in row) if n else ()
            for n, row in enumerate(self._num_lanes))
        #: _usable_slice[n]: (the slice of FortunaState.usable holding the cards of
        #: number n, _usable_run[n]), for the discard step.
        self._usable_slice: tuple[tuple[slice, tuple[tuple[int, ...], ...]], ...] = tuple(
            (slice(self.num_first[n], self.num_first[n + 1]), runs)
            for n, runs in enumerate(self._usable_run))
        #: _exact_base[x]: action of an x-card set of value x minus its code's digit sum.
        self._exact_base: tuple[int, ...] = tuple(
            SET_BASE + x * self.x_step + self._ones[x] for x in range(MAX_VALUE + 1))

    def _init_type_lanes(self) -> None:
        """Tables for a hand held as one int of per-type counts (``FortunaState.held``).

        Lane t (``tw`` bits) of a seat's ``held`` counts its hand cards of
        type t, so "does the hand hold these cards" is one subtraction and
        one mask, and the cards of a hand usable as a value are one AND.
        The top bit of every lane is a guard: no count reaches it (a lane
        counts at most the copies of one type, a set names at most
        MAX_VALUE cards), so ``((held | guard) − need) & guard == guard``
        holds exactly when no lane of ``need`` exceeds the hand's, and no
        lane borrows from the next. One spare lane past the last type takes
        the invalid set codes (see :meth:`_set_info_of`).
        """
        n_types = self.n_types
        most = max([self.card_type.count(t) for t in range(n_types)] + [MAX_VALUE])
        tw = most.bit_length() + 1
        self._tw: int = tw
        self._tmask: int = (1 << tw) - 1
        #: _type_lane[t]: one card of type t in a ``held`` int.
        self._type_lane: tuple[int, ...] = tuple(1 << (tw * t) for t in range(n_types + 1))
        #: _card_lane[c]: card c in a ``held`` int.
        self._card_lane: tuple[int, ...] = tuple(self._type_lane[t] for t in self.card_type)
        self._guard: int = sum(1 << (tw * t + tw - 1) for t in range(n_types + 1))
        self._invalid_need: int = self._type_lane[n_types]
        #: _num_tlanes[n]: every lane of the types of number n, all bits set, for
        #: FortunaState.tm (the types usable as each value).
        self._num_tlanes: tuple[int, ...] = tuple(
            sum(self._tmask << (tw * t) for t in range(n_types) if self.type_number[t] == n)
            for n in range(NUM_SLOTS + 1))
        #: _discard_steps[n][d]: (the slice of FortunaState.usable holding the cards of
        #: number n, their lanes, x, FortunaState.tm lanes to add to tm[x], whether
        #: the Wheel fires) when a discard brings slot n to d cards: the new
        #: value n + d while d ≤ 9 (F2; lanes 0 once every value is usable), and
        #: the Wheel exactly when n + d = 10 (F6).
        self._discard_steps: tuple[tuple[tuple[slice, tuple[int, ...], int, int, bool], ...],
                                   ...] = tuple(
            tuple((cards, runs[d], (n + d) % 10, self._num_tlanes[n] if d <= MAX_VALUE else 0,
                   n + d == 10 and self.wheel_on) for d in range(len(runs)))
            for n, (cards, runs) in enumerate(self._usable_slice))
        #: _type_span[t]: (first card id of type t, _type_lane[t], every bit of that
        #: lane, the type's number n, _discard_steps[n]) for every type; a pass or
        #: discard of anything else finds no entry.
        self._type_span: dict[int, tuple[int, int, int, int, tuple[Any, ...]]] = {
            t: (self.type_first[t], self._type_lane[t], self._tmask << (tw * t),
                self.type_number[t], self._discard_steps[self.type_number[t]])
            for t in range(n_types)}
        # FortunaState.usable and .tm with every slot empty: each card only its number.
        self._empty_usable: list[int] = [self._num_lanes[n][0] for n in self.card_number]
        self._empty_tm: list[int] = [self._num_tlanes[x] if 1 <= x <= NUM_SLOTS else 0
                                     for x in range(MAX_VALUE + 1)]
        #: A 1 in every lane: ``((held | guard) − _lane_low) & guard`` keeps the
        #: guard bit of exactly the lanes that count at least one card.
        self._lane_low: int = sum(self._type_lane)
        #: Bits 1 up to the guard of every lane: ``held & _repeat_bits`` is nonzero
        #: exactly when some type is counted twice or more.
        self._repeat_bits: int = sum(((1 << (tw - 1)) - 2) << (tw * t) for t in range(n_types))
        #: (mask, table) × 3 of _pass_tables: a hand's pass actions from its ``held``.
        self._pass_chunks = self._pass_tables()
        self._new_caches()

    def _type_run_tables(self) -> tuple[int, Mapping[int, list[int]], int,
                                        Mapping[int, list[int]], int, Mapping[int, list[int]]]:
        """(mask, table) × 3: the sorted types (with repeats) of the cards of a ``held`` int.

        The runs of types are those of :meth:`_pass_tables`; a table maps the
        lanes of one run to its cards' types and fills as hands are met (the
        set enumeration asks it once per new group of cards).
        """
        tw = self._tw
        out: list[Any] = []
        for types in self._three_runs():
            out += [sum(self._tmask << (tw * t) for t in types),
                    _Cards([(tw * t, t) for t in types], self._tmask)]
        return tuple(out)

    def _three_runs(self) -> list[range]:
        """The card types cut into three runs of consecutive types (the last may be short)."""
        width = -(-self.n_types // 3)
        return [range(lo, min(lo + width, self.n_types)) for lo in range(0, 3 * width, width)]

    def _pass_tables(self) -> tuple[int, Mapping[int, list[int]], int, Mapping[int, list[int]],
                                    int, Mapping[int, list[int]]]:
        """(mask, table) × 3: the types a hand holds, from the guard bits of its lanes.

        The types are cut into three runs; ``table[occupied & mask]`` lists the
        types of one run whose lanes are occupied, ascending, so the hand's
        sorted pass actions are three lookups and two concatenations (a sort
        of the hand's types cost twice as much). Runs of up to 10 types (the
        printed 30) are tabulated in full (1,024 entries each); wider ones
        fill as hands are met.
        """
        tw = self._tw
        runs = self._three_runs()
        full = len(runs[0]) <= _FULL_PASS_TABLE     # the first run is the widest
        out: list[Any] = []
        for types in runs:
            bits = [(1 << (tw * t + tw - 1), t) for t in types]
            table: dict[int, list[int]]
            if full:
                table = {0: []}
                for bit, t in bits:  # types ascending: appending keeps each list sorted
                    table.update([(key | bit, found + [t]) for key, found in table.items()])
            else:
                table = _Occupied(bits)
            out += [sum(bit for bit, _ in bits), table]
        return tuple(out)

    def _types_held(self, held: int) -> list[int]:
        """The types a ``held`` int counts at least one card of, ascending (see _pass_tables)."""
        guard = self._guard
        occupied = ((held | guard) - self._lane_low) & guard
        m0, t0, m1, t1, m2, t2 = self._pass_chunks
        return t0[occupied & m0] + t1[occupied & m1] + t2[occupied & m2]

    def _new_caches(self) -> None:
        """Empty per-process caches (filled as games are played, never pickled)."""
        #: (mask, table) × 3 of _type_run_tables: the types of a ``held`` int's cards.
        self._type_runs = self._type_run_tables()
        #: _cache[x]: the hand's cards usable as x (a ``held`` int) → its x-sets.
        self._cache: tuple[dict[int, tuple[int, ...]], ...] = tuple(
            {} for _ in range(MAX_VALUE + 1))
        #: cards << 4 | value → tables of _combo_table.
        self._combos: dict[int, _ComboTable] = {}
        #: set action → _SetInfo.
        self._set_info: dict[int, _SetInfo] = {}
        self._matches = {}
        self._wheel_blocks = {}
        guard = self._guard
        #: Every table the phase-main legal_actions reads, in one tuple (unpacked once per call).
        self._main_tables = (guard, self._lane_low, *self._pass_chunks, self._free_top,
                             self._thresholds, self._top_values, self._cache)

    #: Per-process caches, filled as games are played: left out when the
    #: game is pickled (the simulator ships it to each worker process once)
    #: and started empty there. The codec drops its own decode cache.
    _CACHES = ("_cache", "_combos", "_set_info", "_matches", "_wheel_blocks", "_type_runs",
               "_main_tables")

    def __getstate__(self) -> dict[str, Any]:
        """Pickled state: the base class's (without the loaded data), minus the caches."""
        state = super().__getstate__()
        for name in self._CACHES:
            state.pop(name, None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Restore a pickled game with empty caches."""
        self.__dict__.update(state)
        self._new_caches()

    # -- set-up -----------------------------------------------------------

    def deck(self) -> Sequence[int]:
        """Every card id (0..77 for the printed deck)."""
        return range(len(self.card_number))

    def card_name(self, card: int) -> str:
        """Short name of card ``card``'s type, e.g. ``5B``."""
        return self.codec.type_name(self.card_type[card])

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
        if INLINE_MATCHES and total <= MAX_INLINE:
            # chance.shuffle_with, with each step's index and bit length paired
            # up front (FortunaGame._shuffle_steps): the shuffle is a tenth of
            # a random playout's bytecodes. Same draws, so the same deal as
            # random.Random(seed).shuffle (checked by INLINE_MATCHES).
            getrandbits = random.Random(seed).getrandbits
            for i, k in self._shuffle_steps:
                j = getrandbits(k)
                while j > i:
                    j = getrandbits(k)
                order[i], order[j] = order[j], order[i]
        else:
            seeded_shuffle(order, seed)
        # The deck's top is the end of the list (drawn with pop()).
        hands = [sorted(order[-hand_size * (i + 1):len(order) - hand_size * i])
                 for i in range(num_players)]
        rest = order[:total - hand_size * num_players]
        end_deck = rest[len(rest) - end_size:]
        deck = rest[:len(rest) - end_size]
        state = FortunaState(self, num_players, hands, deck, end_deck)
        state._start_turn()
        return state

    def state_from_notation(self, text: str) -> "FortunaState":
        """The state written as ``text`` (grammar in :mod:`pnp.games.fortuna.notation`)."""
        pos = self.notation.read(text)
        state = FortunaState(self, pos.num_players, pos.hands, pos.deck, pos.end_deck)
        state.slots = pos.slots
        state._refresh_usable()
        state.sets = pos.sets
        state.used = [sum({1 << value for value, _, _ in seat_sets}) for seat_sets in pos.sets]
        state.vp = state._vp_of_sets()
        state.box = pos.box
        state.cur = pos.seat
        state.stage = PHASE_NAMES.index(pos.phase)
        state.trigger = pos.trigger
        state.n_turns = pos.turn
        state.ev = pos.events
        if state.stage == WHEEL:
            state.wheel_slot = pos.wheel_slot
        elif state.stage == FILL:
            value, up, down = pos.sets[pos.seat][-1]
            state.fill_left = value - len(up) - len(down)
            state.fill_min = pos.fill_min
            state.pending = len(up)
        elif state.stage == OVER:
            state.final = state._score()
        if state.stage != OVER and not state.legal_actions():
            raise NotationError(f"fortuna notation: seat {pos.seat} has no legal action in "
                                f"phase {pos.phase} (e.g. an empty hand, or filler the "
                                f"discard area cannot supply)")
        return state

    def state_from_observation(self, obs: FortunaObservation) -> "FortunaState":
        """One position that gives ``obs`` to its seat (for searching bots).

        Everything the seat cannot see (other hands, deck, end deck, face-down
        filler) is filled with the unseen cards in ascending id order, so the
        result depends on ``obs`` alone; ``resample_hidden`` then redeals it.
        Event counters are not observed and start at zero.
        """
        n = len(obs.hand_sizes)
        seen = set(obs.hand)
        for slot in obs.slots:
            seen.update(slot)
        for seat_sets in obs.sets:
            for _, up, _ in seat_sets:
                seen.update(up)
        unseen = [c for c in range(len(self.card_number)) if c not in seen]
        at = 0

        def take(k: int) -> list[int]:
            nonlocal at
            out = unseen[at:at + k]
            at += k
            return out

        hands = [list(obs.hand) if p == obs.seat else take(obs.hand_sizes[p])
                 for p in range(n)]
        sets = [[(v, up, tuple(take(down))) for v, up, down in seat_sets]
                for seat_sets in obs.sets]
        deck = take(obs.deck_size)
        end_deck = take(obs.end_deck_size)
        state = FortunaState(self, n, hands, deck, end_deck)
        state.slots = [[]] + [list(s) for s in obs.slots]
        state._refresh_usable()
        state.sets = sets
        state.used = [sum({1 << value for value, _, _ in seat_sets}) for seat_sets in sets]
        state.vp = state._vp_of_sets()
        stage = PHASE_NAMES.index(obs.phase)
        state.stage = stage
        state.cur = obs.current_player
        state.trigger = obs.trigger
        state.n_turns = obs.turn
        if stage == WHEEL:
            state.wheel_slot = obs.wheel_slot
        elif stage == FILL:
            value, up, down = sets[obs.current_player][-1]
            state.fill_left = obs.fill_left
            state.fill_min = obs.fill_min
            state.pending = len(up)
        elif stage == OVER:
            state.final = state._score()
        return state

    # -- card helpers -----------------------------------------------------

    def set_action(self, value: int, types: Iterable[int]) -> int:
        """The action playing hand-card ``types`` as a set of ``value``."""
        return self.codec.set_action(value, types)

    def decode_set(self, action: int) -> tuple[int, tuple[int, ...]]:
        """``(declared value, sorted card types)`` of a set action (cached)."""
        return self.codec.decode_set(action)

    def icon_matches(self, cards: Iterable[int]) -> int:
        """Most of ``cards`` showing one icon, goddesses wild (F8); cached per icon count."""
        return self._matches_of(sum(map(self._icon_lane.__getitem__, cards)))

    def _matches_of(self, packed: int) -> int:
        """Most cards showing one icon (F8) from their per-icon counts in one int (cached)."""
        found = self._matches.get(packed)
        if found is None:
            w, mask = self._lane_width, self._lane_mask
            counts = [packed >> (w * i) & mask for i in range(len(self.icons))]
            found = matches_from_counts(counts, self.goddess)
            if len(self._matches) > _CACHE_LIMIT:
                self._matches.clear()
            self._matches[packed] = found
        return found

    def set_score(self, face_up: Sequence[int], size: int) -> int:
        """VP of a set: size × most face-up cards showing one icon, goddesses wild (F8)."""
        return size * self.icon_matches(face_up)

    def _set_actions(self, elig: Sequence[int], value: int,
                     repeats: bool | None = None) -> tuple[int, ...]:
        """Sorted set actions of ``value`` drawn from the sorted eligible types ``elig``.

        ``repeats``: whether a type occurs twice in ``elig`` (found here if not
        given). A tuple: the caches hold thousands of these, and a tuple is
        one allocation (a list two) and smaller.
        """
        k = len(elig)
        if value == 1 or (value == 0 and k == 1):  # any one card, one action per type
            one = SET_BASE + value * self.x_step + 1  # a 1-card code is t + 1
            return tuple(map(one.__add__, dict.fromkeys(elig)))
        if k == value:  # exactly the cards needed: one set
            return (self._exact_base[value] + sum(map(mul, elig, self._powr[value])),)
        if repeats is None:
            repeats = len(set(elig)) < k
        table = self._combos.get(k << 4 | value)
        if table is None:
            table = self._combo_table(k, value)
        if table:
            # Every combination's code at once, one 64-bit lane each (see _combo_table).
            coef, constant, unpack, size = table
            found = unpack((sum(map(mul, elig, coef)) + constant).to_bytes(size, "little"))
            # Codes come sorted (see below); equal multisets give equal codes.
            return tuple(dict.fromkeys(found)) if repeats else found
        sizes = range(1, min(ZERO_SET_MAX, k) + 1) if value == 0 else (value,)
        offset = SET_BASE + value * self.x_step
        result: list[int] = []
        for size in sizes:
            # combinations() of a sorted tuple come in lexicographic order, and
            # codes (first type most significant) keep that order; equal
            # multisets are adjacent, so dict.fromkeys removes them in order.
            # Longer sets have larger codes, so the sizes concatenate sorted.
            pw = self._powr[size]
            one = offset + self._ones[size]
            codes = [sum(map(mul, combo, pw)) + one for combo in combinations(elig, size)]
            result += dict.fromkeys(codes) if repeats else codes
        return tuple(result)

    def _combo_table(self, k: int, value: int) -> _ComboTable:
        """Tables computing the codes of every set of ``value`` from ``k`` eligible cards at once.

        Lane j (64 bits) of the sum Σ (tᵢ + 1)·coef[i] is the code of the
        j-th combination of the k sorted types (combinations() order, sizes
        ascending for a 0 set), so one big-int sum replaces a loop per
        combination. ``constant`` adds Σ coef (the "+1" of each digit) and
        the action offset of ``value`` in every lane. Lanes never carry: a
        set action is below 10·B⁹ + SET_BASE < 2⁶⁴ for B ≤ 100. Cached per
        (k, value); ``()`` (and the loop is used) when there would be more
        than _COMBO_LANES combinations.
        """
        sizes = range(1, min(ZERO_SET_MAX, k) + 1) if value == 0 else (value,)
        combos = [c for size in sizes for c in combinations(range(k), size)]
        table: _ComboTable = ()
        if len(combos) <= _COMBO_LANES:
            coef = [0] * k
            for j, combo in enumerate(combos):
                top = len(combo) - 1
                for pos, i in enumerate(combo):
                    coef[i] += self.codec.base ** (top - pos) << (64 * j)
            lane_ones = sum(1 << (64 * j) for j in range(len(combos)))
            offset = SET_BASE + value * self.x_step
            unpack = struct.Struct(f"<{len(combos)}Q").unpack
            table = (tuple(coef), sum(coef) + offset * lane_ones, unpack, 8 * len(combos))
        self._combos[k << 4 | value] = table
        return table

    def _sets_of(self, usable: int, value: int) -> tuple[int, ...]:
        """Set actions of ``value`` from the cards ``usable`` (a ``held`` int), cached.

        ``usable`` is a hand's cards usable as ``value``; callers ask only when
        there are max(value, 1) of them.
        """
        m0, t0, m1, t1, m2, t2 = self._type_runs
        result = self._set_actions(t0[usable & m0] + t1[usable & m1] + t2[usable & m2], value,
                                   bool(usable & self._repeat_bits))
        cache = self._cache[value]
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        cache[usable] = result
        return result

    def _set_info_of(self, action: int) -> _SetInfo:
        """What playing a set action needs and scores, from its code alone (cached per action).

        (value, sorted types, the types as a ``held`` int, VP once complete,
        the value's bit in ``FortunaState.used``, shape). The VP is size ×
        matches (F8), the size of an all-in set being its value once its
        filler is in (F4). A non-canonical code (a zero digit, or types out
        of order, which would name the same cards as another action; typed
        ``(-1,)`` as the codec decodes it) and a value above 9 are shape _NEVER.

        Decoded through the codec's cache, which the greedy bot fills too
        (a searching bot's playouts decode each set the bot weighs there).
        """
        value, types = self.codec.decode_set(action)
        k = len(types)
        if not k or types[0] < 0 or value > MAX_VALUE:
            return (value, types, self._invalid_need, 0, 0, _NEVER)  # not worth caching
        need = sum(map(self._type_lane.__getitem__, types))
        # Ruling F8, from the per-icon counts of the set's types in one int.
        matches = self._matches_of(sum(map(self._type_icon_lane.__getitem__, types)))
        if k == value or (value == 0 and k <= ZERO_SET_MAX):  # ruling F3
            shape = _PLAIN
        elif k < value:
            shape = _ALL_IN  # ruling F4
        else:
            shape = _NEVER
        found = (value, types, need, (value or k) * matches, 1 << value, shape)
        if len(self._set_info) > _CACHE_LIMIT:
            self._set_info.clear()
        self._set_info[action] = found
        return found

    def _wheel_block(self, s: int, d: int) -> tuple[int, ...]:
        """Wheel moves from slot ``s`` holding ``d`` cards, ascending (cached; F6).

        Targets t ≠ s ascending, then counts 1..d: ``s·10_000 + t·1_000 + c``
        grows in that order, so blocks of ascending ``s`` concatenate sorted.
        """
        block = tuple(WHEEL_BASE + s * 10_000 + t * 1_000 + c
                      for t in range(1, NUM_SLOTS + 1) if t != s for c in range(1, d + 1))
        self._wheel_blocks[(s, d)] = block  # at most NUM_SLOTS × (cards + 1) entries
        return block


class FortunaState(State[FortunaGame]):
    """A Fortuna position: hands, deck, end deck, discard slots, sets, whose turn."""

    __slots__ = ("game", "num_players", "hands", "deck", "end_deck", "slots", "sets", "used",
                 "box", "cur", "stage", "trigger", "n_turns", "ev", "wheel_slot", "fill_left",
                 "fill_min", "pending", "final", "vp", "usable", "held", "tm",
                 "obs_sets")

    def __init__(self, game: FortunaGame, num_players: int, hands: list[list[int]],
                 deck: list[int], end_deck: list[int]) -> None:
        """An empty table: the given hands, deck and end deck (tops at the end)."""
        self.game = game
        self.num_players = num_players
        self.hands = hands
        self.deck = deck
        self.end_deck = end_deck
        self.slots: list[list[int]] = [[] for _ in range(NUM_SLOTS + 1)]  # index 0 unused
        self.sets: list[list[tuple[int, tuple[int, ...], tuple[int, ...]]]] = [
            [] for _ in range(num_players)]
        self.used = [0] * num_players  # bit X set: the seat owns a set of value X (F3)
        self.box: list[int] = []  # cards a scripted position leaves out
        self.cur = 0
        self.stage = MAIN  # index into PHASE_NAMES
        self.trigger = False
        self.n_turns = 0
        self.ev = [0] * len(EVENT_NAMES)
        self.wheel_slot = 0  # slot whose discard fired the pending Wheel of Fortune
        self.fill_left = 0  # face-down filler cards still owed by a pending all-in set
        self.fill_min = 1  # lowest slot the next filler card may come from (F4a)
        self.pending = 0  # hand cards played by the pending all-in set
        self.final: list[float] | None = None  # VP, fixed when the game ends
        # vp[p]: what seat p's sets score once complete (an all-in set's pending
        # filler counted), kept in step with every set played; the final VP.
        self.vp: list[int] = [0] * num_players
        # usable[c]: lanes (FortunaGame._init_lanes) of the values card c may be
        # used as with its slot as it is now (F1, F2); kept in step with every
        # change of a slot, so set enumeration needs one lookup per hand card.
        self.usable: list[int] = game._empty_usable[:]  # the slots are empty
        # tm[x]: every lane (FortunaGame._init_type_lanes) of the types usable
        # as value x now (F1, F2), so ``held & tm[x]`` is a hand's cards usable as x.
        self.tm: list[int] = game._empty_tm[:]
        # held[p]: seat p's hand as per-type counts (FortunaGame._init_type_lanes),
        # kept in step with every change of the hand.
        self.held: list[int] = [self._held_of(hand) for hand in hands]
        # The sets as observations show them, built when first asked for; a
        # seat's entry is rebuilt when its sets change (they change on few moves).
        self.obs_sets: tuple[tuple[tuple[int, tuple[int, ...], int], ...], ...] | None = None

    # -- API --------------------------------------------------------------

    def current_player(self) -> int:
        """Seat to act, or TERMINAL."""
        return self.cur

    def is_terminal(self) -> bool:
        """True once the game has ended (ruling F7)."""
        return self.stage == OVER

    def phase(self) -> str:
        """Pending decision: main, discard (F5), fill (F4), wheel (F6) or over."""
        return PHASE_NAMES[self.stage]

    def turns(self) -> int:
        """Turns begun (turn-start draws made; ruling F7a)."""
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
        new.stage = self.stage
        new.trigger = self.trigger
        new.n_turns = self.n_turns
        new.wheel_slot = self.wheel_slot
        new.fill_left = self.fill_left
        new.fill_min = self.fill_min
        new.pending = self.pending
        new.final = self.final
        new.vp = self.vp[:]
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
        new.held = self.held[:]
        new.tm = self.tm[:]
        new.obs_sets = self.obs_sets  # immutable
        return new

    def zones(self) -> Iterator[tuple[str, list[int]]]:
        """deck, end_deck, hand:p, slot:n, sets:p (face-down filler included), box."""
        g = self.game
        yield "deck", self.deck
        yield "end_deck", self.end_deck
        for p, hand in enumerate(self.hands):
            yield g._hand_zone[p], hand
        for n in range(1, NUM_SLOTS + 1):
            yield g._slot_zone[n], self.slots[n]
        for p, seat_sets in enumerate(self.sets):
            yield g._set_zone[p], [c for _, up, down in seat_sets for c in up + down]
        yield "box", self.box

    def returns(self) -> list[float]:
        """VP per seat (ruling F8); computed once when the game has ended."""
        if self.final is not None:
            return self.final[:]
        return self._score()

    def _vp_of_sets(self) -> list[int]:
        """:attr:`vp` recomputed from the sets: each scores (x or cards) × matches (F8)."""
        matches = self.game.icon_matches
        return [sum([matches(up) * (x or len(up)) for x, up, _ in seat_sets])
                for seat_sets in self.sets]

    def _score(self) -> list[float]:
        """VP per seat from the sets on the table (ruling F8)."""
        matches = self.game.icon_matches
        return [float(sum([matches(up) * (len(up) + len(down)) for _, up, down in seat_sets]))
                for seat_sets in self.sets]

    def winners(self) -> list[int]:
        """The single winner: most VP, ties to the earlier seat (ruling F8)."""
        vp = self.final if self.final is not None else self._score()
        return [winner(vp)]

    def legal_actions(self) -> list[int]:
        """Legal actions of the player on turn, ascending.

        Phase main: passes (one per hand type) then every set, by value then
        code (F3, F4). Works on all ten values at once with the lane ints of
        :meth:`FortunaGame._init_lanes`: only values with enough usable cards
        are visited, and the sets of each are looked up by the hand's cards
        usable as that value (``held & tm[x]``), which recur across hands.
        """
        if self.stage:  # MAIN is 0; the other phases are rarer
            return self._other_actions()
        p = self.cur
        held = self.held[p]
        hand = self.hands[p]
        # One tuple of the game's tables (FortunaGame._main_tables): a dozen
        # attribute lookups per call showed in profiles of random playouts.
        (guard, low, m0, t0, m1, t1, m2, t2, free_top, thresholds, top_values,
         cache) = self.game._main_tables
        # Pass t is action t, one per type held: FortunaGame._types_held, written out.
        occupied = ((held | guard) - low) & guard
        acts = t0[occupied & m0] + t1[occupied & m1] + t2[occupied & m2]
        # Lane X of ``packed`` counts the hand cards usable as X (F1, F2).
        packed = sum(map(self.usable.__getitem__, hand))
        h = len(hand)
        values = top_values[(packed + thresholds[h]) & free_top[self.used[p]]]
        if values:
            tm = self.tm
            for x in values:
                if x > h:
                    # Ruling F4: values X > h usable by all h hand cards are all-in
                    # sets if the discard area can supply the X − h filler cards.
                    # They exceed every value before (those need X ≤ h cards),
                    # so acts stay sorted.
                    acts += self._allin_actions(values[values.index(x):])
                    break
                usable = held & tm[x]
                found = cache[x].get(usable)
                if found is None:
                    found = self.game._sets_of(usable, x)
                acts += found
        return acts

    def _allin_actions(self, values: tuple[int, ...]) -> list[int]:
        """All-in set actions of ``values`` (each above the hand size) the filler allows (F4)."""
        g = self.game
        hand = self.hands[self.cur]
        h = len(hand)
        filler = sum(map(len, self.slots))
        code = g.codec.code_sorted(list(map(g.card_type.__getitem__, hand)))
        x_step = g.x_step
        return [SET_BASE + x * x_step + code for x in values if filler >= x - h]

    def _other_actions(self) -> list[int]:
        """Legal actions in the phases discard (F5), fill (F4), wheel (F6) and over."""
        stage = self.stage
        if stage == DISCARD:  # ruling F5: one action per hand type
            return [DISCARD_BASE + t for t in self.game._types_held(self.held[self.cur])]
        if stage == FILL:
            return self._fill_actions()
        if stage == WHEEL:
            return self._wheel_actions()
        return []

    def apply_action(self, action: int) -> None:
        """Apply ``action``; an illegal one raises IllegalAction and changes nothing.

        Every branch checks the action against the rules before the first
        mutation, without listing the legal actions.
        """
        stage = self.stage
        if not stage:  # MAIN, most steps
            if action >= SET_BASE:
                self._play_set(action)
                return
            # A pass is its type's id (PASS_BASE is 0).
            if 0 <= action < DISCARD_BASE and self._discard(action, EV_PASS):
                return
        elif stage == DISCARD:
            if (DISCARD_BASE <= action < FILL_BASE
                    and self._discard(action - DISCARD_BASE, EV_ONE_DISCARD)):  # ruling F5
                return
        elif stage == FILL:
            if action in self._fill_actions():
                self._fill(action - FILL_BASE)
                self._auto_fill()
                return
        elif stage == WHEEL:
            if self._wheel(action):
                return
        raise illegal(self, action)

    def action_to_string(self, action: int) -> str:
        """Short text, e.g. ``set 5: 3B 3H 5W 5W 5G``, ``pass 4B``, ``wheel 5>1x3``."""
        return self.game.codec.action_to_string(action)

    def string_to_action(self, text: str) -> int:
        """The legal action written ``text`` (inverse of :meth:`action_to_string`)."""
        action = self.game.codec.parse_action(text)
        if action not in self.legal_actions():
            raise IllegalAction(f"fortuna: {text!r} is not legal for seat {self.cur} in "
                                f"phase {self.phase()!r}")
        return action

    def observation(self, player: int) -> FortunaObservation:
        """What ``player`` sees: own hand, public zones, sizes of hidden ones."""
        stage = self.stage
        sets = self.obs_sets
        if sets is None:
            sets = self.obs_sets = tuple([tuple([(v, up, len(down)) for v, up, down in s])
                                          for s in self.sets])
        # Filled without the generated __init__: its one object.__setattr__
        # per field (frozen) cost as much as building the fields themselves,
        # and the greedy bot asks for an observation at every decision.
        obs = _new_observation(FortunaObservation)
        obs.__dict__.update(
            seat=player,
            current_player=self.cur,
            phase=PHASE_NAMES[stage],
            hand=tuple(self.hands[player]),
            hand_sizes=tuple(map(len, self.hands)),
            sets=sets,
            slots=tuple(map(tuple, self.slots[1:])),
            deck_size=len(self.deck),
            end_deck_size=len(self.end_deck),
            trigger=self.trigger,
            turn=self.n_turns,
            wheel_slot=self.wheel_slot if stage == WHEEL else 0,
            fill_left=self.fill_left if stage == FILL else 0,
            fill_min=self.fill_min if stage == FILL else 0,
        )
        return obs

    def resample_hidden(self, player: int, rng: random.Random) -> "FortunaState":
        """A copy with the other hands, the deck and the end deck redealt with ``rng``.

        Those are exactly the cards ``player`` has never seen; hand sizes and
        deck sizes are kept, and everything public (slots, sets with their
        face-down filler, which left face-up slots, the trigger) stays.
        """
        new = self.clone()
        others = [p for p in range(self.num_players) if p != player]
        pool = [c for p in others for c in new.hands[p]] + new.deck + new.end_deck
        rng_shuffle(pool, rng)  # rng.shuffle's order and draws, without its per-card calls
        at = 0
        for p in others:
            size = len(new.hands[p])
            new.hands[p] = sorted(pool[at:at + size])
            new.held[p] = new._held_of(new.hands[p])
            at += size
        new.deck = pool[at:at + len(self.deck)]
        new.end_deck = pool[at + len(self.deck):]
        return new

    def to_notation(self) -> str:
        """This position as one line (grammar in :mod:`pnp.games.fortuna.notation`)."""
        return self.game.notation.write(Position(
            self.num_players, self.hands, self.deck, self.end_deck, self.slots, self.sets,
            self.box, self.cur, PHASE_NAMES[self.stage], self.n_turns, self.trigger,
            self.wheel_slot, self.fill_min, self.ev))

    # -- helpers ----------------------------------------------------------

    def discards(self, number: int) -> int:
        """d(n): cards now in slot ``number`` (ruling F1)."""
        return len(self.slots[number])

    def values_of(self, card: int) -> list[int]:
        """Values ``card`` may be used as right now (rulings F1, F2)."""
        number = self.game.card_number[card]
        return card_values(number, len(self.slots[number]))

    def _obs_last_set(self, p: int, added: bool) -> None:
        """Show seat ``p``'s last set in :attr:`obs_sets`: appended if ``added``, else updated.

        A set is only ever added at the end of the seat's sets or, while it
        takes filler (F4), changed there, so only that entry is rebuilt; the
        other seats' entries stay. In a searching bot's playouts with the
        greedy bot, which asks for an observation at every decision, the sets
        change every few steps and rebuilding them showed in profiles.
        """
        x, up, down = self.sets[p][-1]
        old = cast(tuple[tuple[tuple[int, tuple[int, ...], int], ...], ...], self.obs_sets)
        seat = old[p] if added else old[p][:-1]
        self.obs_sets = old[:p] + (seat + ((x, up, len(down)),),) + old[p + 1:]

    def _held_of(self, hand: Iterable[int]) -> int:
        """``hand`` as per-type counts in one int (see :attr:`held`)."""
        return sum(map(self.game._card_lane.__getitem__, hand))

    def _refresh_usable(self) -> None:
        """Recompute :attr:`usable` and :attr:`tm` from the slots."""
        g = self.game
        runs = g._usable_run
        slots = self.slots
        usable: list[int] = []
        tm = [0] * (MAX_VALUE + 1)
        for n in range(1, NUM_SLOTS + 1):
            d = len(slots[n])
            usable += runs[n][d]
            for x in _BITS[g.vmask[n][d]]:
                tm[x] |= g._num_tlanes[n]
        self.usable = usable
        self.tm = tm

    def _slot_changed(self, n: int, before: int) -> None:
        """Update :attr:`usable` and :attr:`tm` after slot ``n`` went from ``before`` cards."""
        g = self.game
        d = len(self.slots[n])
        self.usable[g.num_first[n]:g.num_first[n + 1]] = g._usable_run[n][d]
        lanes = g._num_tlanes[n]
        tm = self.tm
        vmask = g.vmask[n]
        for x in _BITS[vmask[before] ^ vmask[d]]:  # the values number n gained or lost
            tm[x] ^= lanes

    def _play_set(self, action: int) -> None:
        """Play a set (F3) or an all-in set (F4), then refill (F5); check first."""
        g = self.game
        p = self.cur
        info = g._set_info.get(action)
        if info is None:
            info = g._set_info_of(action)
        x, types, need, score, bit, shape = info
        k = len(types)
        held = self.held[p]
        hand = self.hands[p]
        guard = g._guard
        ok = (shape and not self.used[p] & bit  # ruling F3: one set per value
              # The hand holds every card named.
              and ((held | guard) - need) & guard == guard
              # Rulings F1, F2: all k cards must be usable as x with the slots as they are.
              and need & self.tm[x] == need)
        allin = shape == _ALL_IN
        if ok and allin:
            # Ruling F4: every hand card, and enough filler in the discard area.
            ok = k == len(hand) and g.all_in and sum(map(len, self.slots)) >= x - k
        if not ok:
            raise illegal(self, action)
        # Copies of one type are consecutive ids: take the lowest-id one of each.
        # (map is lazy, so each bisection sees the hand after the pops before it.)
        played = tuple(map(hand.pop, map(bisect_left, repeat(hand),
                                         map(g.type_first.__getitem__, types))))
        self.held[p] = held - need
        self.vp[p] += score  # ruling F8 (an all-in set scored at its full size)
        self.used[p] |= bit
        self.sets[p].append((x, played, ()))
        if self.obs_sets is not None:
            self._obs_last_set(p, True)
        ev = self.ev
        ev[EV_SET] += 1
        if x == 0:
            ev[EV_ZERO] += 1
        if allin:
            ev[EV_ALLIN] += 1
            self.stage = FILL
            self.fill_left = x - k
            self.fill_min = 1
            self.pending = k
            self._auto_fill()
            return
        # _after_set(k, False), written out.
        if not self.trigger:  # ruling F5: after the end trigger, no refill and no discard
            if k == 1:  # ruling F5a: any one-hand-card set, 0 included
                if hand:
                    self.stage = DISCARD
                    return
            elif k > 2:
                self._refill(k - 2)
        self._end_turn()

    def _after_set(self, played: int, allin: bool) -> None:
        """Refill or 1-card-set discard (ruling F5), then end the turn."""
        if self.trigger:
            pass  # ruling F5: after the end trigger, no refill and no discard
        elif played == 1 and not allin:  # ruling F5a: any one-hand-card set, 0 included
            if self.hands[self.cur]:
                self.stage = DISCARD
                return
        else:
            self._refill(played - 2)
        self._end_turn()

    def _refill(self, n: int) -> None:
        """Draw ``n`` cards; stop at the card that pulls the end trigger (F5, F7)."""
        hand = self.hands[self.cur]
        deck = self.deck
        lane = self.game._card_lane
        gained = 0
        for i in range(n):
            if deck:
                card = deck.pop()
            elif self.end_deck:
                card = self.end_deck.pop()
                self._pull_trigger()
                if i < n - 1:
                    self.ev[EV_REFILL_CUT] += 1
                insort(hand, card)
                gained += lane[card]
                break
            else:
                break  # both decks empty: draw what exists
            insort(hand, card)
            gained += lane[card]
        self.held[self.cur] += gained

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
        self._slot_changed(s, len(self.slots[s]) + 1)
        seat_sets = self.sets[self.cur]
        x, up, down = seat_sets[-1]
        seat_sets[-1] = (x, up, down + (card,))
        if self.obs_sets is not None:
            self._obs_last_set(self.cur, False)
        self.fill_left -= 1
        self.fill_min = s

    def _auto_fill(self) -> None:
        """Apply forced filler choices; finish the all-in set when none are owed."""
        while self.fill_left:
            acts = self._fill_actions()
            if len(acts) > 1:
                return
            self._fill(acts[0] - FILL_BASE)
        self.stage = MAIN
        # Back to the resting values, so a state's notation (which writes the
        # filler bound only in phase fill) reproduces it exactly.
        self.fill_min = 1
        pending, self.pending = self.pending, 0
        self._after_set(pending, True)

    def _discard(self, t: int, event: int) -> bool:
        """Discard a hand card of type ``t`` to its slot (F1), check the Wheel (F6), end the turn.

        The pass and the F5 discard, most steps of a game, in one call: returns
        False, changing nothing, when the hand holds no card of type ``t``.
        """
        g = self.game
        span = g._type_span.get(t)
        if span is None:  # no card type
            return False
        first, lane, lane_bits, n, steps = span
        p = self.cur
        held = self.held[p]
        if not held & lane_bits:  # no card of type t in hand
            return False
        hand = self.hands[p]
        # Copies of one type are consecutive ids: the lowest-id one.
        card = hand.pop(bisect_left(hand, first))
        self.held[p] = held - lane
        slot = self.slots[n]
        slot.append(card)
        # What one more card in slot n changes, looked up (FortunaGame._discard_steps).
        cards, run, x, lanes, wheel = steps[len(slot)]
        self.usable[cards] = run  # as _slot_changed does
        self.tm[x] |= lanes
        ev = self.ev
        ev[event] += 1
        if wheel:  # ruling F6: exactly 10 after the discard fires the Wheel of Fortune
            ev[EV_WHEEL] += 1
            if any(self.slots[s] for s in range(1, NUM_SLOTS + 1) if s != n):
                self.stage = WHEEL
                self.wheel_slot = n
                return True
        # _end_turn and _start_turn, written out for this most common step.
        if self.trigger and p == self.num_players - 1:
            ev[EV_ROUND_END] += 1
            self._finish()
            return True
        deck = self.deck
        if not deck:
            self.cur = (p + 1) % self.num_players
            self._start_turn()
            return True
        p = self.cur = (p + 1) % self.num_players
        card = deck.pop()
        insort(self.hands[p], card)
        self.held[p] += g._card_lane[card]
        self.n_turns += 1  # ruling F7a: a turn begins with its draw
        self.stage = MAIN
        return True

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

    def _wheel(self, action: int) -> bool:
        """Resolve the Wheel of Fortune: decline or move cards (F6); never re-fires.

        Returns False, changing nothing, when ``action`` is no legal wheel choice.
        """
        if action == WHEEL_DECLINE:
            self.ev[EV_WHEEL_DECLINE] += 1
        else:
            s, t, c = decode_wheel(action)
            if not (action > WHEEL_BASE and 1 <= s <= NUM_SLOTS and 1 <= t <= NUM_SLOTS
                    and s != t and s != self.wheel_slot and 1 <= c <= len(self.slots[s])):
                return False
            src = self.slots[s]
            moved = src[len(src) - c:]
            del src[len(src) - c:]
            self.slots[t].extend(moved)
            self._slot_changed(s, len(src) + c)
            self._slot_changed(t, len(self.slots[t]) - c)
            self.ev[EV_WHEEL_MOVE] += 1
        self.wheel_slot = 0
        self._end_turn()
        return True

    def _end_turn(self) -> None:
        """Pass the turn; after the trigger the round ends with seat N−1 (F7)."""
        p = self.cur
        if self.trigger and p == self.num_players - 1:
            self.ev[EV_ROUND_END] += 1
            self._finish()
            return
        p = self.cur = (p + 1) % self.num_players
        deck = self.deck
        if deck:  # _start_turn's usual case, written out
            card = deck.pop()
            insort(self.hands[p], card)
            self.held[p] += self.game._card_lane[card]
            self.n_turns += 1  # ruling F7a: a turn begins with its draw
            self.stage = MAIN
        else:
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
        self.held[self.cur] += self.game._card_lane[card]
        self.n_turns += 1  # ruling F7a: a turn begins with its draw
        self.stage = MAIN

    def _finish(self) -> None:
        """End the game and fix the final scores."""
        self.stage = OVER
        self.cur = TERMINAL
        self.final = list(map(float, self.vp))  # every set is complete now: as _score()
