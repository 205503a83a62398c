"""Rules engine for 9 Peak (ナインピーク, draft 12): rulebook plus rulings N1–N6.

Cards are small ints indexing a card table built once from the loaded
``hats`` component; cards with the same (number, suit, colour) are
interchangeable (ruling N4c), so every decision names a card *type*, never a
copy. The action encoding is in :mod:`pnp.games.nine_peak.codec`, the
position notation in :mod:`pnp.games.nine_peak.notation`, scoring in
:mod:`pnp.games.nine_peak.scoring`; the engine rulings (N2a …) are stated in
``docs/rules/nine_peak-engine.md``.

The only chance in 9 Peak is the set-up shuffle: once dealt, the deck order
*is* every later draw, so a state carries its deck order rather than a
generator, and ``(params, players, seed, actions)`` replays a game exactly.
"""

from __future__ import annotations

import random
from bisect import insort
from dataclasses import dataclass
from itertools import accumulate, compress
from operator import ge, getitem
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from pnp.errors import PnpError
from pnp.games.api import TERMINAL, Game, NotationError, Observation, Param, State, illegal
from pnp.games.chance import rng_shuffle, seeded_shuffle
from pnp.games.nine_peak import notation
from pnp.games.nine_peak.codec import (COLORS, MAX_SET, SUITS, SUITS_EN, ActionCodec,
                                       type_codes)
from pnp.games.nine_peak.scoring import PERSONA, score_set_full, score_set_simple

if TYPE_CHECKING:
    from pnp.data.inventory import GameData

#: Hat numbers 1–6 each have an area column and a peak card (ruling N1).
NUMBERS = 6
#: A number peaks when n + c(n) reaches this (ruling N2).
PEAK = 9

_SIX = range(NUMBERS)


#: Decision phases of a turn (``state.ph``), named by :data:`PHASE_NAMES`.
MAIN, SECOND, TAKE, PICK, KEEP, OVER = range(6)
PHASE_NAMES: tuple[str, ...] = notation.PHASES
_PHASE_INDEX = {name: i for i, name in enumerate(PHASE_NAMES)}

EVENTS: tuple[str, ...] = (
    "set", "pass_one", "pass_two", "peak_by_pass", "peak_by_play", "peak_at_setup",
    "personaless_to_hand", "personaless_to_area", "end_trigger", "draw_skipped",
    "take_from_peaked", "empty_hand_skip")
(EV_SET, EV_PASS_ONE, EV_PASS_TWO, EV_PEAK_PASS, EV_PEAK_PLAY, EV_PEAK_SETUP,
 EV_KEEP, EV_TO_AREA, EV_TRIGGER, EV_NO_DRAW, EV_TAKE_PEAKED, EV_EMPTY_SKIP) = range(len(EVENTS))


def _subsets(items: Sequence[int]) -> list[tuple[int, ...]]:
    """Every subset of ``items``, each ascending."""
    out: list[tuple[int, ...]] = [()]
    for x in items:
        out += [sub + (x,) for sub in out]
    return out


#: ``object.__new__``: a clone or observation is filled in directly, not via ``__init__``.
_new_state = object.__new__


@dataclass(frozen=True)
class NinePeakObservation(Observation):
    """What one seat may see: own hand and own drawn card, public zones, hidden counts.

    Card fields hold card ids (``game.card_type[c]`` gives the type); type
    fields hold type indices. Fields of a sub-phase are neutral (0, −1 or
    empty) outside it.
    """

    num_players: int
    #: This seat's hand, in hand order.
    hand: tuple[int, ...]
    #: Area columns for numbers 1–6, bottom card first.
    area: tuple[tuple[int, ...], ...]
    #: Flipped peak cards per number 1–6 (ruling N2).
    peaked: tuple[bool, ...]
    discard: tuple[int, ...]
    #: Every seat's sets, in play order.
    sets: tuple[tuple[tuple[int, ...], ...], ...]
    peak_piles: tuple[tuple[int, ...], ...]
    deck_size: int
    hand_sizes: tuple[int, ...]
    #: Each seat's previous set size (ruling N4: sets never shrink).
    prev_sizes: tuple[int, ...]
    #: Per seat, sorted types of hand cards everyone saw enter that hand.
    known: tuple[tuple[int, ...], ...]
    triggered: bool
    #: pick: the declared X (else 0).
    declared: int
    #: pick: the cards picked so far (else empty).
    picked: tuple[int, ...]
    #: pick: the lowest type that may be picked next (else 0).
    last_pick: int
    #: second/take: the 2-for-1 pass's first card type (else −1).
    first_placed: int
    #: keep: the drawn card, for the seat that drew it only (else −1; ruling N4a).
    pending: int


class NinePeakGame(Game["NinePeakState"]):
    """9 Peak: climb set sizes with hats whose ranges widen as the area fills.

    Built from the loaded data: hat cards (``hats``), the base-point table
    (``[game.constants] base_points``); the ``peaks`` and ``numbers`` cards
    are checked to describe the board the rules assume (numbers 1–6 peaking
    at 9). Action ints are laid out by :class:`~.codec.ActionCodec`, whose
    block starts are copied onto the game (``A_PASS1`` … ``A_PLACE_DRAWN``).
    """

    slug = "nine_peak"
    min_players = 3
    max_players = 5
    param_specs = (
        Param("scoring", "full", "scoring method (ruling N6): simple = colours, "
              "full = suits", choices=("simple", "full")),
        Param("hand_size", 13, "cards dealt to each player", minimum=1, maximum=60),
        Param("setup_cards", 6, "hat cards placed face up in the area at set-up",
              minimum=0, maximum=60),
    )
    event_names = EVENTS
    phase_names = PHASE_NAMES

    def __init__(self, data: "GameData", params: Mapping[str, Any] | None = None) -> None:
        """Apply ``params`` and build the card table once from ``data``."""
        super().__init__(data, params)
        manifest = data.manifest
        base = manifest.constants.get("base_points")
        if (not isinstance(base, list) or len(base) != MAX_SET
                or not all(isinstance(b, int) and not isinstance(b, bool) for b in base)):
            raise PnpError(f"{manifest.path}: game.constants.base_points: expected a list "
                           f"of 9 integers (base points for set sizes 1–9), found {base!r}")
        #: Base points by set size (index 0 = size 1), from the manifest (N6).
        self.base_points: tuple[int, ...] = tuple(base)
        raw: list[tuple[int, int, int]] = []
        for card in data.cards("hats"):
            suit, color, number = card["suit"], card["color"], int(card["number"])
            if suit not in SUITS or color not in COLORS or not 1 <= number <= NUMBERS:
                raise PnpError(f"nine_peak card {card['id']!r}: number {number} / suit "
                               f"{suit!r} / colour {color!r}: expected 1–{NUMBERS} / one of "
                               f"{', '.join(SUITS)} / {', '.join(COLORS)}")
            raw.append((number, SUITS.index(suit), COLORS.index(color)))
        # ruling N1/N2: one column and one peak card per hat number 1–6, and the
        # number cards mark values 2–8 below the peak at 9; the rules assume that board
        peaks = sorted(int(c["number"]) for c in data.cards("peaks"))
        if peaks != list(range(1, NUMBERS + 1)):
            raise PnpError(f"nine_peak: peak cards numbered {peaks}: the engine plays one "
                           f"peak card per number 1–{NUMBERS} (rulings N1, N2)")
        values = sorted(int(c["value"]) for c in data.cards("numbers"))
        if values != list(range(2, PEAK)):
            raise PnpError(f"nine_peak: number cards {values}: the engine plays the "
                           f"values 2–{PEAK - 1} below the peak at {PEAK} (ruling N2)")
        types = sorted(set(raw))
        index = {t: i for i, t in enumerate(types)}
        self.num_cards: int = len(raw)
        self.card_type: tuple[int, ...] = tuple(index[r] for r in raw)
        self.card_number: tuple[int, ...] = tuple(r[0] for r in raw)
        self.card_suit: tuple[int, ...] = tuple(r[1] for r in raw)
        self.card_color: tuple[int, ...] = tuple(r[2] for r in raw)
        self.num_types: int = len(types)
        self.type_number: tuple[int, ...] = tuple(t[0] for t in types)
        self.type_suit: tuple[int, ...] = tuple(t[1] for t in types)
        self.type_color: tuple[int, ...] = tuple(t[2] for t in types)
        self.type_persona: tuple[bool, ...] = tuple(t[1] == PERSONA for t in types)
        #: Area column index (number − 1) of each type.
        self.type_col: tuple[int, ...] = tuple(t[0] - 1 for t in types)
        #: Card ids of each type, ascending (notation assigns copies in this order).
        self.type_cards: tuple[tuple[int, ...], ...] = tuple(
            tuple(c for c in range(len(raw)) if self.card_type[c] == t)
            for t in range(len(types)))
        self.codec = ActionCodec(type_codes(self.type_number, self.type_suit,
                                            self.type_color))
        self.type_code: tuple[str, ...] = self.codec.codes
        c = self.codec
        self.A_PASS1, self.A_PASS2, self.A_PLAY = c.A_PASS1, c.A_PASS2, c.A_PLAY
        self.A_SECOND, self.A_TAKE, self.A_PICK = c.A_SECOND, c.A_TAKE, c.A_PICK
        self.A_KEEP, self.A_PLACE_DRAWN = c.A_KEEP, c.A_PLACE_DRAWN
        self.num_distinct_actions: int = c.num_distinct_actions
        self.type_range: range = range(self.num_types)
        T = self.num_types
        #: Action ranges the legal actions are read from with ``compress`` (one C
        #: call instead of a Python loop per type): takes, and second cards of a type ≥ f for each first type f (ruling N3a).
        self.take_range: range = range(c.A_TAKE, c.A_TAKE + T)
        self.second_ranges: tuple[range, ...] = tuple(
            range(c.A_SECOND + f, c.A_SECOND + T) for f in range(T))
        #: The main-phase pass actions (pass one card of type t = t, then the
        #: 2-for-1 first card of type t = A_PASS2 + t), the codec's first blocks.
        assert c.A_PASS1 == 0 and c.A_PASS2 == T
        self.pass_range: range = range(2 * T)
        self._lane_tables(len(raw))
        #: ``cv`` of an empty, unpeaked area.
        self.empty_cv: tuple[tuple[int, ...], ...] = tuple(self.lanes[i][0] for i in _SIX)
        self._full = self.params["scoring"] == "full"

    def _lane_tables(self, cards: int) -> None:
        """Tables that count the hand cards usable as each set value X = 1 … 9 at once.

        Lane X of an int is bits w·(X − 1) … w·X − 1 (w = 7: nine lanes fit
        in 63 bits, so ``sum`` adds them in a C long, without big ints). A
        column's value is a tuple indexed by a count k of hand cards of its
        number: entry k has min(k, 9) in the lanes of the values number
        i + 1 covers — ``lanes[i][c]`` with c cards in its column (ruling
        N1: i + 1 … i + 1 + c, at most 9), ``all_values`` once peaked (N2).
        Capping each number's count at 9 keeps every lane ≤ 6 · 9 = 54 and
        changes no answer (a set has at most 9 cards, so a capped number
        that covers X already gives X usable cards). Adding ``minus_x``
        (2^(w−1) − X in lane X) sets a lane's top bit exactly when it holds
        at least X; ``window[lo][hi]`` keeps the top bits of lanes lo … hi,
        and ``declare_of`` turns the bits left into the declare actions.
        """
        w = 7
        #: Bits per lane (lane X starts at bit lane_bits · (X − 1)).
        self.lane_bits = w
        top = 1 << (w - 1)
        counts = range(cards + 1)
        tables: dict[int, tuple[int, ...]] = {}

        def per_count(mask: int) -> tuple[int, ...]:
            """min(k, 9) · mask for every count k, one shared tuple per mask."""
            if mask not in tables:
                tables[mask] = tuple(min(k, MAX_SET) * mask for k in counts)
            return tables[mask]

        self.all_values = per_count(sum(1 << (w * (x - 1)) for x in range(1, PEAK + 1)))
        self.lanes: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(per_count(sum(1 << (w * (x - 1))
                                for x in range(i + 1, min(PEAK, i + 1 + c) + 1)))
                  for c in counts)
            for i in range(NUMBERS))
        self.minus_x = sum((top - x) << (w * (x - 1)) for x in range(1, PEAK + 1))
        self.window: tuple[tuple[int, ...], ...] = tuple(
            tuple(sum(top << (w * (x - 1)) for x in range(max(lo, 1), hi + 1))
                  for hi in range(PEAK + 1))
            for lo in range(PEAK + 2))
        self.declare_of: dict[int, tuple[int, ...]] = {
            sum(top << (w * (x - 1)) for x in xs): tuple(self.A_PLAY + x - 1 for x in xs)
            for xs in _subsets(range(1, MAX_SET + 1))}

    # ------------------------------------------------------------------ helpers
    def type_label(self, t: int) -> str:
        """Readable name of card type ``t`` (e.g. ``5 silk hat``)."""
        label = f"{self.type_number[t]} {SUITS_EN[self.type_suit[t]]}"
        same = [u for u in range(self.num_types) if self.type_number[u] == self.type_number[t]
                and self.type_suit[u] == self.type_suit[t]]
        if len(same) > 1:  # only if an edited table mixes colours within a suit
            label += f" ({COLORS[self.type_color[t]]})"
        return label

    def card_label(self, card: int) -> str:
        """Readable name of card id ``card``."""
        return self.type_label(self.card_type[card])

    def card_name(self, card: int) -> str:
        """Short name of card id ``card``: its type code (``5S``)."""
        return self.type_code[self.card_type[card]]

    def score_set(self, cards: Sequence[int]) -> int:
        """Value of one played set under this game's scoring method (ruling N6)."""
        if self._full:
            return score_set_full([self.card_suit[c] for c in cards], self.base_points)
        return score_set_simple([self.card_color[c] for c in cards], self.base_points)

    def deck(self) -> Sequence[int]:
        """Every hat card id."""
        return range(self.num_cards)

    # ------------------------------------------------------------------ set-up
    def new_initial_state(self, num_players: int, seed: int) -> "NinePeakState":
        """Shuffle, lay out the set-up cards (N1, N2 set-up check), deal; seat 0 starts.

        Ruling N2a: the set-up cards are laid and peak-checked before the deal.
        """
        self.check_players(num_players)
        setup, hand = self.params["setup_cards"], self.params["hand_size"]
        if setup + hand * num_players > self.num_cards:
            raise PnpError(f"nine_peak: setup_cards={setup} + {num_players} × "
                           f"hand_size={hand} exceeds the {self.num_cards} hat cards")
        deck = list(range(self.num_cards))
        seeded_shuffle(deck, seed)
        # The top of the deck is the END of the list (deck.pop() draws): the
        # set-up cards come off first, then each seat's hand in turn.
        area: list[list[int]] = [[], [], [], [], [], []]
        ac = [0] * self.num_types
        ctype, cnum = self.card_type, self.card_number
        for c in deck[:-setup - 1:-1]:  # (none when setup is 0)
            area[cnum[c] - 1].append(c)  # ruling N1: column of its printed number
            ac[ctype[c]] += 1
        del deck[len(deck) - setup:]
        hands = []
        for _ in range(num_players):
            hands.append(deck[-hand:])
            del deck[-hand:]
        state = NinePeakState(self, num_players, hands)
        state.deck = deck
        state.area = area
        state.ac = ac
        state._column_values()
        state._peak_check(-1)  # ruling N2: set-up peaks go to the discard pile
        return state

    # ------------------------------------------------------------------ notation
    def state_from_notation(self, text: str) -> "NinePeakState":
        """The state written as ``text`` (grammar in :mod:`.notation`).

        Copies are assigned to the named types lowest card id first, zone by
        zone (area, hands, sets, peak piles, set in progress, drawn card,
        deck, discard). No peak check runs on the position read.
        """
        pos = notation.read(text, self.type_code)
        n = pos.num_players
        if not self.min_players <= n <= self.max_players:
            raise NotationError(f"nine_peak notation: n={n}: the game is for "
                                f"{self.min_players}–{self.max_players} players")
        free = [list(ids) for ids in self.type_cards]

        def claim(types: Iterable[int]) -> list[int]:
            """Card ids for ``types``, the lowest free copy of each."""
            out = []
            for t in types:
                if not free[t]:
                    raise NotationError(f"nine_peak notation: more {self.type_code[t]} "
                                        f"cards than the {len(self.type_cards[t])} printed")
                out.append(free[t].pop(0))
            return out

        s = NinePeakState(self, n)
        for c in claim(pos.area):
            s.area[self.card_number[c] - 1].append(c)  # ruling N1
        s.hands = [claim(h) for h in pos.hands]
        s.sets = [tuple(tuple(claim(x)) for x in seat) for seat in pos.sets]
        s.piles = [tuple(claim(p)) for p in pos.peaks]
        s.picking = claim(pos.picked)
        ph = _PHASE_INDEX[pos.phase]
        if ph == KEEP:
            s.pending = claim([pos.drawn])[0]
        if pos.deck is not None:
            s.deck = claim(pos.deck)[::-1]  # the list's end is the top
        rest = sorted(c for ids in free for c in ids)
        if pos.deck is None:
            s.deck = rest[::-1]  # lowest id on top
        elif pos.discard is None:
            s.discard = tuple(rest)
        else:
            s.discard = tuple(claim(pos.discard))
            left = sorted(c for ids in free for c in ids)
            if left:
                raise NotationError(f"nine_peak notation: {len(left)} cards are in no zone "
                                    f"(first: {self.card_name(left[0])}); name them or "
                                    f"leave out discard=")
        s.peaked = list(pos.peaked)
        s.prev = list(pos.prev) if pos.prev is not None else pos.derived_prev()
        s.player = pos.seat
        s.ph = ph
        s.first_type = pos.first
        s.declared = pos.declared
        s.last_pick = pos.picked[-1] if pos.picked else 0
        s.triggered = pos.trigger >= 0
        s.trigger_seat = pos.trigger
        s.nturns = pos.turn
        s._recount()
        for p, types in enumerate(pos.known):
            for t in set(types):
                if types.count(t) > s.hc[p][t]:
                    raise NotationError(f"nine_peak notation: known=: seat {p} is known to "
                                        f"hold {types.count(t)} × {self.type_code[t]} but "
                                        f"holds {s.hc[p][t]}")
            s.known[p] = tuple(sorted(types))
        if ph != OVER and not s.legal_actions():
            raise NotationError(f"nine_peak notation: seat {pos.seat} has no legal action "
                                f"in phase {pos.phase} (a seat on turn always has a move, "
                                f"ruling N5a)")
        return s


    def state_from_observation(self, obs: NinePeakObservation) -> "NinePeakState":
        """One position that gives ``obs`` to its seat (for searching bots).

        Unseen cards (other hands beyond their known types, another seat's
        pending draw, the deck) are placed in ascending id order, so the result
        depends on ``obs`` alone; ``resample_hidden`` then redeals them. Not
        observed, and irrelevant to the rules: event counters, the turn count
        and which seat pulled the trigger.
        """
        n = obs.num_players
        s = NinePeakState(self, n)
        seen: set[int] = set(obs.hand)
        for col in obs.area:
            seen.update(col)
        seen.update(obs.discard)
        for seat_sets in obs.sets:
            for cards in seat_sets:
                seen.update(cards)
        for pile in obs.peak_piles:
            seen.update(pile)
        seen.update(obs.picked)
        if obs.pending >= 0:
            seen.add(obs.pending)
        unseen = [c for c in range(self.num_cards) if c not in seen]
        ph = _PHASE_INDEX[obs.phase]
        # Another seat's known hand types take the lowest unseen copies of them.
        by_type: list[list[int]] = [[] for _ in range(self.num_types)]
        for c in unseen:
            by_type[self.card_type[c]].append(c)
        hands: list[list[int]] = []
        for q in range(n):
            if q == obs.seat:
                hands.append(list(obs.hand))
                continue
            hands.append([by_type[t].pop(0) for t in obs.known[q]])
        rest = sorted(c for cards in by_type for c in cards)
        at = 0
        for q in range(n):
            if q != obs.seat:
                need = obs.hand_sizes[q] - len(hands[q])
                hands[q] += rest[at:at + need]
                at += need
        if ph == KEEP:
            if obs.pending >= 0:
                s.pending = obs.pending
            else:
                s.pending = rest[at]
                at += 1
        s.deck = rest[at:at + obs.deck_size]
        s.hands = hands
        s.area = [list(col) for col in obs.area]
        s.discard = obs.discard
        s.sets = list(obs.sets)
        s.piles = list(obs.peak_piles)
        s.picking = list(obs.picked)
        s.peaked = list(obs.peaked)
        s.prev = list(obs.prev_sizes)
        s.player = obs.current_player if obs.current_player >= 0 else n - 1
        s.ph = ph
        s.first_type = obs.first_placed
        s.declared = obs.declared
        s.last_pick = obs.last_pick
        s.triggered = obs.triggered
        s.trigger_seat = -1
        s.nturns = 0
        s._recount()
        s.known = list(obs.known)
        return s


class NinePeakState(State[NinePeakGame]):
    """A 9 Peak position: zones as card-id lists plus per-type count caches.

    Hot-path layout (random and searching playouts, issue 13): ``ht[p]`` holds
    the types of ``hands[p]`` in hand order, so a card of a type leaves the
    hand through two C-level list operations; zones that change rarely
    (finished sets, peak piles, the discard pile, ``known``) are replaced,
    never changed in place, so :meth:`clone` shares them; and the legal
    actions are computed once per position and kept until the next move,
    so ``apply_action`` validates by membership instead of re-deriving them.
    """

    __slots__ = ("game", "num_players", "deck", "hands", "ht", "hc", "hn", "hm", "area", "ac",
                 "cv", "peaked", "discard", "sets", "piles", "prev", "player", "ph",
                 "first_type", "declared", "picking", "last_pick", "pending",
                 "triggered", "trigger_seat", "nturns", "ev", "known", "_legal", "_usable",
                 "_usable_ok", "_full", "_second")

    def __init__(self, game: NinePeakGame, num_players: int,
                 hands: list[list[int]] | None = None) -> None:
        """A table for ``num_players`` with ``hands`` dealt (default: empty; the
        other zones are empty, filled by set-up or from notation)."""
        self.game = game
        self.num_players = num_players
        self.deck: list[int] = []
        #: Per seat: the hand's card ids, in hand order; and its caches:
        #: ``ht`` the types of those cards (parallel to the hand), ``hc`` hand
        #: cards per type, ``hn`` per number (index n − 1), ``hm`` the
        #: main-phase pass actions before ruling N3a's exception: pass one of
        #: every held type t (action t), then start a 2-for-1 with it
        #: (``A_PASS2`` + t), ascending. ``hm`` is kept as a type enters or
        #: leaves the hand, so a turn's legal list starts from a copy instead
        #: of two scans over every type. All set by _hand_caches.
        self.hands: list[list[int]]
        self.ht: list[list[int]]
        self.hc: list[list[int]]
        self.hn: list[list[int]]
        self.hm: list[list[int]]
        self._hand_caches(hands if hands is not None else [[] for _ in range(num_players)])
        self.area: list[list[int]] = [[], [], [], [], [], []]  # NUMBERS columns
        #: Area cards per type.
        self.ac: list[int] = [0] * game.num_types
        #: Per column: the values its number's hand cards may stand for, as lanes
        #: by count of such cards (``game.lanes[i][len(area[i])]``,
        #: ``game.all_values`` once peaked; see NinePeakGame._lane_tables), kept
        #: up to date wherever a column or its peak changes (see legal_actions).
        self.cv: list[tuple[int, ...]] = list(game.empty_cv)
        self.peaked: list[bool] = [False] * NUMBERS
        #: Replaced, never extended (clones and observations share it).
        self.discard: tuple[int, ...] = ()
        #: Per seat: finished sets; each seat's tuple is replaced, never extended.
        self.sets: list[tuple[tuple[int, ...], ...]] = [()] * num_players
        #: Per seat: peak pile; replaced, never extended (clones share it).
        self.piles: list[tuple[int, ...]] = [()] * num_players
        self.prev: list[int] = [0] * num_players
        self.player = 0
        self.ph = MAIN
        self.first_type = -1
        self.declared = 0
        self.picking: list[int] = []
        self.last_pick = 0
        self.pending = -1
        self.triggered = False
        self.trigger_seat = -1
        self.nturns = 1
        self.ev: list[int] = [0] * len(EVENTS)
        #: Per seat: types of hand cards everyone saw enter the hand (2-for-1
        #: takes), so resample_hidden keeps them; usually empty; replaced on change.
        self.known: list[tuple[int, ...]] = [()] * num_players
        #: Legal actions of this position once computed (None: not yet), and
        #: in phase pick the usable types they were derived from.
        self._legal: list[int] | None = None
        self._usable: list[int] = []
        #: True when _usable already holds the types the next pick may use
        #: (set by the declaration and each pick, which derive them anyway).
        self._usable_ok = False
        #: True while some unpeaked column may be at 9 already (only a position
        #: read from notation): the next peak check then scans every column.
        self._full = False
        #: Column of the 2-for-1 pass's second card while taking (−1: unknown,
        #: e.g. a position read from notation: the peak check scans every column).
        self._second = -1

    def _hand_caches(self, hands: list[list[int]]) -> None:
        """Set ``hands`` (one list per seat, taken over) and their caches ht, hc, hn, hm."""
        g = self.game
        T = g.num_types
        ctype, tcol, moves = g.card_type, g.type_col, g.pass_range
        self.hands = hands
        self.ht, self.hc, self.hn, self.hm = ht, hcs, hns, hms = [], [], [], []
        # (plain loops: C-level map/sum/compress set-ups cost more instructions
        # than these 13-card loops)
        for hand in hands:
            types = [ctype[c] for c in hand]
            hc, hn = [0] * T, [0] * NUMBERS
            for t in types:
                hc[t] += 1
                hn[tcol[t]] += 1
            ht.append(types)
            hcs.append(hc)
            hns.append(hn)
            hms.append(list(compress(moves, hc + hc)))  # pass one, then 2-for-1 (A_PASS2 = T)

    def _recount(self) -> None:
        """Rebuild the count caches from the zones (after building a position)."""
        g = self.game
        T = g.num_types
        ctype = g.card_type
        self._hand_caches(self.hands)
        self.ac = [0] * T
        for col in self.area:
            for c in col:
                self.ac[ctype[c]] += 1
        self._column_values()
        self._full = any(not self.peaked[i] and i + 1 + len(self.area[i]) >= PEAK
                         for i in _SIX)
        self._legal = None
        self._usable_ok = False

    def _column_values(self) -> None:
        """Set ``cv`` from the area and the peaks (after building a position)."""
        g = self.game
        area, peaked = self.area, self.peaked
        self.cv = [g.all_values if peaked[i] else g.lanes[i][len(area[i])] for i in _SIX]

    # ------------------------------------------------------------------ API
    def current_player(self) -> int:
        """Seat to act, or TERMINAL."""
        return TERMINAL if self.ph == OVER else self.player

    def is_terminal(self) -> bool:
        """True once seat N−1 has finished the round in which the trigger was pulled."""
        return self.ph == OVER

    def phase(self) -> str:
        """The pending decision: main, second, take, pick, keep (over at the end)."""
        return PHASE_NAMES[self.ph]

    def turns(self) -> int:
        """Player turns begun so far."""
        return self.nturns

    def events(self) -> Mapping[str, int]:
        """Rule counters by name."""
        return dict(zip(EVENTS, self.ev))

    def clone(self) -> "NinePeakState":
        """Independent copy: mutable lists copied; finished sets, peak piles,
        the discard pile and ``known`` shared (they are replaced, never changed)."""
        s = _new_state(NinePeakState)
        s.game = self.game
        s.num_players = self.num_players
        s.deck = self.deck[:]
        s.hands = [h[:] for h in self.hands]
        s.ht = [h[:] for h in self.ht]
        s.hc = [h[:] for h in self.hc]
        s.hn = [h[:] for h in self.hn]
        s.hm = [h[:] for h in self.hm]
        s.area = [c[:] for c in self.area]
        s.ac = self.ac[:]
        s.cv = self.cv[:]
        s.peaked = self.peaked[:]
        s.discard = self.discard
        s.sets = self.sets[:]
        s.piles = self.piles[:]
        s.prev = self.prev[:]
        s.player = self.player
        s.ph = self.ph
        s.first_type = self.first_type
        s.declared = self.declared
        s.picking = self.picking[:]
        s.last_pick = self.last_pick
        s.pending = self.pending
        s.triggered = self.triggered
        s.trigger_seat = self.trigger_seat
        s.nturns = self.nturns
        s.ev = self.ev[:]
        s.known = self.known[:]
        s._legal = self._legal  # never changed in place: legal_actions hands out copies
        s._usable = self._usable
        s._usable_ok = self._usable_ok
        s._full = self._full
        s._second = self._second
        return s

    def legal_actions(self) -> list[int]:
        """Legal actions, ascending (encoding in :mod:`.codec`).

        Computed here once per position (phase pick also keeps the usable
        types it derived) and kept until the next move, so ``apply_action``
        validates by membership; the caller gets a copy. One method, not a
        wrapper around a computing one: a random playout asks once per
        position, so the extra call would be paid at every step.
        """
        legal = self._legal
        if legal is not None:
            return legal[:]
        ph = self.ph
        g = self.game
        acts: list[int]
        if ph == MAIN:
            p = self.player
            # N3: pass one card of any held type, or start a two-card pass
            # with one; the second card is of a type ≥ the first's (ruling
            # N3a), so the highest held type (the list's last entry) may start
            # one only with two copies (a one-card hand never can)
            acts = self.hm[p][:]
            if acts and self.hc[p][acts[-1] - g.A_PASS2] < 2:
                acts.pop()
            h = len(self.hands[p])
            lo_x = self.prev[p] or 1  # ruling N4: sets never shrink
            if h >= lo_x:
                # Hand cards usable as each value X = 1 … 9, one lane per X (see
                # NinePeakGame._lane_tables): number n is usable as n … n + c(n)
                # (ruling N1), a peaked number as 1 … 9 (N2); cv holds those
                # lanes per column by count of hand cards, so the count is one
                # C-level sum of table entries.
                v = sum(map(getitem, self.cv, self.hn[p]))
                # declare X (lo_x ≤ X ≤ hand size) when at least X cards are usable as X
                acts += g.declare_of[(v + g.minus_x) & g.window[lo_x][h if h < 9 else 9]]
        elif ph == SECOND:
            first = self.first_type
            # types ≥ the first card's (ruling N3a) still held
            acts = list(compress(g.second_ranges[first], self.hc[self.player][first:]))
        elif ph == TAKE:
            acts = list(compress(g.take_range, self.ac))
        elif ph == PICK:
            if self._usable_ok:
                usable = self._usable
            else:
                usable = self._usable = self._usable_types(self.declared, self.last_pick)
            need = self.declared - len(self.picking)
            hc = self.hc[self.player]
            a0 = g.A_PICK
            acts = []
            suffix = 0
            for t in reversed(usable):
                suffix += hc[t]
                if suffix >= need:
                    acts.append(a0 + t)
            acts.reverse()
        elif ph == KEEP:
            acts = [g.A_KEEP, g.A_PLACE_DRAWN]
        else:
            acts = []
        self._legal = acts  # never changed in place (callers get copies)
        return acts[:]

    def _usable_types(self, x: int, last: int) -> list[int]:
        """Hand types ≥ ``last`` usable as the value ``x`` (rulings N1, N2, N4)."""
        g = self.game
        # number i + 1 is usable as x when lane x of its column value is set
        # (i + 1 ≤ x ≤ i + 1 + c(i + 1), or any x once peaked: N1, N2)
        shift = g.lane_bits * (x - 1)
        ok = [v[1] >> shift & 1 for v in self.cv]
        tcol = g.type_col
        return [t for t in compress(g.type_range[last:], self.hc[self.player][last:])
                if ok[tcol[t]]]

    # ------------------------------------------------------------------ moves
    def _from_hand(self, t: int) -> int:
        """Remove the first card of type t (known to be there) from the current hand."""
        p = self.player
        ht = self.ht[p]
        j = ht.index(t)
        del ht[j]
        c = self.hands[p].pop(j)
        hc = self.hc[p]
        hc[t] -= 1
        if not hc[t]:  # the type left the hand: no more passes of it
            hm = self.hm[p]
            hm.remove(t)
            hm.remove(self.game.A_PASS2 + t)
        self.hn[p][self.game.type_col[t]] -= 1
        kn = self.known[p]
        if kn and t in kn:
            # the card leaves publicly: observers can no longer be sure the
            # hand still holds a copy of this type (a new tuple: clones share it)
            j = kn.index(t)
            self.known[p] = kn[:j] + kn[j + 1:]
        return c

    def _hand_to_area(self, t: int) -> int:
        """Place the current hand's first card of type t in its column (N1, N3); the column index.

        :meth:`_from_hand` and :meth:`_to_area` in one call: every pass
        places one or two hand cards, so this runs about once per step of a
        random playout.
        """
        p = self.player
        ht = self.ht[p]
        j = ht.index(t)  # the first card of the type in hand order
        del ht[j]
        c = self.hands[p].pop(j)
        hc = self.hc[p]
        hc[t] -= 1
        g = self.game
        if not hc[t]:  # the type left the hand (see _from_hand)
            hm = self.hm[p]
            hm.remove(t)
            hm.remove(g.A_PASS2 + t)
        i = g.type_col[t]
        self.hn[p][i] -= 1
        kn = self.known[p]
        if kn and t in kn:
            # placed publicly: no longer surely held (see _from_hand)
            j = kn.index(t)
            self.known[p] = kn[:j] + kn[j + 1:]
        col = self.area[i]  # ruling N1: the column of its number
        col.append(c)
        self.ac[t] += 1
        if not self.peaked[i]:
            self.cv[i] = g.lanes[i][len(col)]
        return i

    def _to_hand(self, c: int) -> None:
        """Put card c into the current player's hand."""
        p = self.player
        t = self.game.card_type[c]
        self.hands[p].append(c)
        self.ht[p].append(t)
        hc = self.hc[p]
        hc[t] += 1
        if hc[t] == 1:  # a type new to the hand: it may be passed (see hm)
            hm = self.hm[p]
            insort(hm, t)
            insort(hm, self.game.A_PASS2 + t)
        self.hn[p][self.game.card_number[c] - 1] += 1

    def _to_area(self, c: int) -> int:
        """Place card c in the column of its printed number (ruling N1); its column index."""
        g = self.game
        i = g.card_number[c] - 1
        col = self.area[i]
        col.append(c)
        self.ac[g.card_type[c]] += 1
        if not self.peaked[i]:
            self.cv[i] = g.lanes[i][len(col)]
        return i

    def _peak_check(self, by: int, cols: Iterable[int] = _SIX) -> None:
        """Ruling N2: peak every unpeaked number with n + c(n) ≥ 9.

        ``by`` is the seat whose pass caused it (cards to that peak pile),
        −2 after a play and −1 at set-up (cards to the discard pile).
        ``cols`` are the column indices that grew since the last check,
        ascending (only they can have reached 9; every column when a
        position read from notation may hold a full one).
        """
        if self._full:
            cols = _SIX
            self._full = False
        area, peaked = self.area, self.peaked
        for i in cols:
            if not peaked[i] and i + 1 + len(area[i]) >= PEAK:
                peaked[i] = True
                self.cv[i] = self.game.all_values
                col = area[i]
                area[i] = []
                ctype, ac = self.game.card_type, self.ac
                for c in col:
                    ac[ctype[c]] -= 1
                if by >= 0:
                    self.piles[by] = (*self.piles[by], *col)
                    self.ev[EV_PEAK_PASS] += 1
                else:
                    self.discard = (*self.discard, *col)
                    self.ev[EV_PEAK_PLAY if by == -2 else EV_PEAK_SETUP] += 1

    def _end_turn(self) -> None:
        """Ruling N5: pull the trigger on an empty hand; end after seat N−1.

        N5a: a seat whose turn comes with an empty hand has no move and is
        skipped; N5b: a hand emptied by the set but refilled by keeping the
        draw is not empty, so it pulls no trigger.
        """
        n = self.num_players
        p = self.player
        if not self.triggered and self.hands[p]:
            # the usual case, written out: no trigger, the next seat holds cards
            q = p + 1 if p + 1 < n else 0
            if self.hands[q]:
                self.player = q
                self.nturns += 1
                self.ph = MAIN
                return
        while True:
            p = self.player
            if not self.hands[p] and not self.triggered:
                self.triggered = True
                self.trigger_seat = p
                self.ev[EV_TRIGGER] += 1
            if self.triggered and p == n - 1:
                self.ph = OVER
                return
            self.player = p = p + 1 if p + 1 < n else 0
            self.nturns += 1
            self.ph = MAIN
            if self.hands[p]:
                return
            # ruling N5a: a seat on turn with an empty hand (unreachable with the
            # rulebook's deal) has no move; its turn ends at once.
            self.ev[EV_EMPTY_SKIP] += 1

    def _autocomplete(self, usable: list[int], total: int) -> None:
        """Finish the set when the remaining picks are forced (one multiset left).

        ``usable`` are the hand types that may still be picked (ascending,
        each held) and ``total`` their card count. Called only for a
        completable set (the declaration and every pick are validated first),
        so it never fails half-way.
        """
        need = self.declared - len(self.picking)
        hc = self.hc[self.player]
        if total == need or len(usable) == 1:
            for t in usable:
                k = hc[t]
                if k > need:
                    k = need
                for _ in range(k):
                    self.picking.append(self._from_hand(t))
                need -= k
                if need == 0:
                    break
            self._finish_play()

    def _finish_play(self) -> None:
        """Ruling N4: the set is laid; draw 1 to the area (or hand if Persona-less)."""
        p = self.player
        cards = self.picking
        self.picking = []
        self.sets[p] = (*self.sets[p], tuple(cards))  # finished sets are immutable
        self.prev[p] = len(cards)
        self.ev[EV_SET] += 1
        if not self.deck:
            self.ev[EV_NO_DRAW] += 1
            self._end_turn()
            return
        c = self.deck.pop()
        persona = self.game.type_persona
        ctype = self.game.card_type
        for x in cards:
            if persona[ctype[x]]:
                self._peak_check(-2, (self._to_area(c),))
                self._end_turn()
                return
        # Ruling N4a: the player sees the drawn card before choosing hand or
        # area; N2b: the peak check runs after that choice.
        self.pending = c
        self.ph = KEEP

    def apply_action(self, action: int) -> None:
        """Apply a legal action for the current player.

        Validation is membership in this position's legal actions (computed
        once per position, see :meth:`legal_actions`), before anything
        changes: an illegal action raises
        :class:`~pnp.games.api.IllegalAction` and leaves the state exactly as
        it was. The branches below may therefore assume a legal action.
        """
        legal = self._legal
        if legal is None:
            self.legal_actions()  # computes and keeps them (the copy is not needed)
            legal = self._legal
            assert legal is not None
        if action not in legal:
            raise illegal(self, action)
        self._legal = None
        ph = self.ph
        g = self.game
        T = g.num_types
        if ph == MAIN:
            if action < T:  # N3: place one card
                i = self._hand_to_area(action)
                self.ev[EV_PASS_ONE] += 1
                # N2: only the grown column can have reached 9 (every column
                # after a position read from notation, see _peak_check)
                if self._full or (not self.peaked[i] and i + 1 + len(self.area[i]) >= PEAK):
                    self._peak_check(self.player, (i,))
                self._end_turn()
            elif action < 2 * T:  # N3: first of two cards (a second of a type ≥ it remains, N3a)
                t = action - T
                self._hand_to_area(t)
                self.first_type = t
                self.ph = SECOND
            else:  # N4: declare X (X ≥ the previous set, enough usable cards: legal)
                x = action - 2 * T + 1
                usable = self._usable_types(x, 0)
                total = sum(map(self.hc[self.player].__getitem__, usable))
                self.declared = x
                self.last_pick = 0
                self.ph = PICK
                # what the first pick may use (nothing picked yet, area as is)
                self._usable, self._usable_ok = usable, True
                self._autocomplete(usable, total)
        elif ph == SECOND:
            self._second = self._hand_to_area(action - g.A_SECOND)
            self.ph = TAKE
        elif ph == TAKE:
            t = action - g.A_TAKE
            i = g.type_number[t] - 1
            col = self.area[i]
            ctype = g.card_type
            for j, c in enumerate(col):
                if ctype[c] == t:
                    del col[j]
                    break
            self.ac[t] -= 1
            if self.peaked[i]:
                self.ev[EV_TAKE_PEAKED] += 1
            else:
                self.cv[i] = g.lanes[i][len(col)]
            self._to_hand(c)
            p = self.player
            kn = self.known[p]  # everyone saw it taken (N3); usually nothing else is known
            self.known[p] = tuple(sorted((*kn, t))) if kn else (t,)
            self.ev[EV_PASS_TWO] += 1
            # N2: after all placing and taking; only the two placed columns grew,
            # and the check is called only when one of them reached 9 (most
            # passes peak nothing)
            a, b = g.type_col[self.first_type], self._second
            if b < 0 or self._full:
                self._peak_check(p)  # every column (see _peak_check)
            else:
                area, peaked = self.area, self.peaked
                if ((not peaked[a] and a + 1 + len(area[a]) >= PEAK)
                        or (not peaked[b] and b + 1 + len(area[b]) >= PEAK)):
                    self._peak_check(p, (a, b) if a < b else (b, a) if b < a else (a,))
            self._end_turn()
        elif ph == PICK:
            t = action - g.A_PICK
            # legal: t is usable, ≥ the last pick, and the set can still be finished
            self.picking.append(self._from_hand(t))
            self.last_pick = t
            if len(self.picking) == self.declared:
                self._finish_play()
            else:
                # what may still be picked: the usable types ≥ t still held (the
                # area does not change while picking, so this is what
                # _usable_types would find for the next pick)
                hc = self.hc[self.player]
                rest = [u for u in self._usable if u >= t and hc[u]]
                self._usable, self._usable_ok = rest, True
                self._autocomplete(rest, sum(map(hc.__getitem__, rest)))
        else:  # KEEP
            c = self.pending
            self.pending = -1
            if action == g.A_KEEP:
                self._to_hand(c)
                self.ev[EV_KEEP] += 1
            else:
                self.ev[EV_TO_AREA] += 1
                self._peak_check(-2, (self._to_area(c),))
            self._end_turn()

    # ------------------------------------------------------------------ results
    def returns(self) -> list[float]:
        """VP per seat: set values + peak pile − cards left in hand (ruling N6)."""
        g = self.game
        return [float(sum(g.score_set(s) for s in self.sets[p]) + len(self.piles[p])
                      - len(self.hands[p])) for p in range(self.num_players)]

    def winners(self) -> list[int]:
        """The single winner: most VP, ties to the earlier seat (ruling N6)."""
        r = self.returns()
        best = max(r)
        return [r.index(best)]

    def action_to_string(self, action: int) -> str:
        """Short text of ``action`` (``pass 5S``, ``declare 4``, ``keep`` …)."""
        return self.game.codec.to_string(action)

    def string_to_action(self, text: str) -> int:
        """The legal action whose text is ``text`` (raises IllegalAction otherwise)."""
        action = self.game.codec.from_string(text)
        if action not in self.legal_actions():
            raise illegal(self, action)
        return action

    def observation(self, player: int) -> NinePeakObservation:
        """Own hand (and own pending draw), public zones, counts of hidden zones."""
        ph = self.ph
        over = ph == OVER
        # Filled in one step (observations are asked at every decision of a
        # bot's playout): the frozen dataclass's __init__ sets field by field.
        # Finished sets, peak piles, the discard pile and known are tuples
        # already (replaced, never changed), so they are shared, not copied.
        obs = _new_state(NinePeakObservation)
        obs.__dict__.update(
            seat=player, current_player=TERMINAL if over else self.player,
            phase=PHASE_NAMES[ph], num_players=self.num_players,
            hand=tuple(self.hands[player]), area=tuple(map(tuple, self.area)),
            peaked=tuple(self.peaked), discard=tuple(self.discard),
            sets=tuple(map(tuple, self.sets)), peak_piles=tuple(map(tuple, self.piles)),
            deck_size=len(self.deck), hand_sizes=tuple(map(len, self.hands)),
            prev_sizes=tuple(self.prev), known=tuple(map(tuple, self.known)),
            triggered=self.triggered, declared=self.declared if ph == PICK else 0,
            picked=tuple(self.picking), last_pick=self.last_pick if ph == PICK else 0,
            first_placed=self.first_type if ph == SECOND or ph == TAKE else -1,
            pending=self.pending if player == self.player and not over else -1)
        return obs

    def resample_hidden(self, player: int, rng: random.Random) -> "NinePeakState":
        """A copy with the deck and other hands redealt with ``rng``, sizes kept.

        Cards everyone saw enter another hand (2-for-1 takes, tracked per
        type in ``known``) stay in that hand; a card drawn by another seat and
        awaiting its keep choice is hidden from ``player`` and redealt too.
        """
        s = self.clone()
        ctype = self.game.card_type
        pool = s.deck[:]
        hidden_draw = s.pending >= 0 and player != s.player
        if hidden_draw:
            pool.append(s.pending)
        kept: list[list[int]] = []
        for q in range(s.num_players):
            if q == player:
                kept.append(s.hands[q])
                continue
            need = list(s.known[q])
            mine = []
            for c in s.hands[q]:
                t = ctype[c]
                if t in need:
                    need.remove(t)
                    mine.append(c)
                else:
                    pool.append(c)
            kept.append(mine)
        rng_shuffle(pool, rng)  # the same order and draws as rng.shuffle(pool)
        for q in range(s.num_players):
            if q != player:
                k = len(s.hands[q]) - len(kept[q])
                s.hands[q] = kept[q] + pool[len(pool) - k:]
                del pool[len(pool) - k:]
        if hidden_draw:
            s.pending = pool.pop()
        s.deck = pool
        s._recount()
        return s

    def zones(self) -> Iterable[tuple[str, Iterable[int]]]:
        """Every zone: deck, columns, discard, hands, sets, peak piles, set in progress, drawn card."""
        yield "deck", self.deck
        for i, col in enumerate(self.area):
            yield f"column:{i + 1}", col
        yield "discard", self.discard
        for p in range(self.num_players):
            yield f"hand:{p}", self.hands[p]
            yield f"sets:{p}", [c for s in self.sets[p] for c in s]
            yield f"peak:{p}", self.piles[p]
        yield "set_in_progress", self.picking
        yield "drawn", [self.pending] if self.pending >= 0 else []

    def to_notation(self) -> str:
        """This position in the one-line notation of :mod:`.notation`."""
        g = self.game
        ct = g.card_type

        def types(cards: Iterable[int]) -> list[int]:
            """Types of card ids."""
            return [ct[c] for c in cards]

        ph = self.ph
        pos = notation.Position(
            self.num_players, turn=self.nturns, seat=self.player, phase=PHASE_NAMES[ph],
            first=self.first_type if ph in (SECOND, TAKE) else -1,
            declared=self.declared if ph == PICK else 0, picked=types(self.picking),
            drawn=ct[self.pending] if ph == KEEP else -1,
            trigger=self.trigger_seat if self.triggered else -1,
            peaked=list(self.peaked), area=[ct[c] for col in self.area for c in col],
            hands=[types(h) for h in self.hands], known=[sorted(k) for k in self.known],
            sets=[[types(x) for x in seat] for seat in self.sets], prev=list(self.prev),
            peaks=[types(p) for p in self.piles], deck=types(reversed(self.deck)),
            discard=types(self.discard))
        return notation.write(pos, g.type_code)

    def __str__(self) -> str:
        """Multi-line dump of the position (debugging)."""
        g = self.game
        lines = [f"turn {self.nturns}, seat {self.player}, phase {PHASE_NAMES[self.ph]}, "
                 f"deck {len(self.deck)}, trigger {self.triggered}"]
        for i, col in enumerate(self.area):
            lines.append(f"  column {i + 1}{'*' if self.peaked[i] else ''}: "
                         + ", ".join(g.card_label(c) for c in col))
        for p in range(self.num_players):
            lines.append(f"  seat {p}: hand [{', '.join(g.card_label(c) for c in self.hands[p])}]"
                         f" sets {[len(s) for s in self.sets[p]]} pile {len(self.piles[p])}")
        return "\n".join(lines)
