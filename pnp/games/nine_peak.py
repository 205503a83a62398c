"""Rules engine for 9 Peak (ナインピーク, draft 12): rulebook plus rulings N1–N6.

Cards are small ints indexing a card table built once from
``card_data/nine_peak/hats.csv``; cards with the same (number, suit, colour)
are interchangeable, so every decision names a card *type*, never a copy.
The action encoding is documented in ``docs/rules/nine_peak-engine.md`` and
in :class:`NinePeakGame`.
"""

from __future__ import annotations

import random
from itertools import compress
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from pnp.data.inventory import load_cards, resolve_data_dir
from pnp.data.manifest import load_manifest
from pnp.errors import PnpError
from pnp.games.api import TERMINAL, Game, Param, State
from pnp.games.nine_peak_score import PERSONA, score_set_full, score_set_simple

#: Suit names as printed (table order = suit index; the Persona is index 4).
SUITS: tuple[str, ...] = ("シルクハット", "フェドーラ", "キャプリーヌ", "ボンネット", "ペルソナ")
#: English names used in action strings.
SUITS_EN: tuple[str, ...] = ("silk hat", "fedora", "capeline", "bonnet", "persona")
#: One-letter codes for :meth:`NinePeakGame.state_from_position` ("5S" = 5 silk hat).
SUIT_CODES: str = "SFCBP"
COLORS: tuple[str, ...] = ("black", "red", "both")

_SIX = range(6)
_ONE_TO_NINE = range(1, 10)

#: Decision phases of a turn.
MAIN, SECOND, TAKE, PICK, KEEP, OVER = range(6)
PHASE_NAMES: tuple[str, ...] = ("main", "second", "take", "pick", "keep", "over")

EVENTS: tuple[str, ...] = (
    "set", "pass_one", "pass_two", "peak_by_pass", "peak_by_play", "peak_at_setup",
    "personaless_to_hand", "personaless_to_area", "end_trigger", "draw_skipped",
    "take_from_peaked", "empty_hand_skip")
(EV_SET, EV_PASS_ONE, EV_PASS_TWO, EV_PEAK_PASS, EV_PEAK_PLAY, EV_PEAK_SETUP,
 EV_KEEP, EV_TO_AREA, EV_TRIGGER, EV_NO_DRAW, EV_TAKE_PEAKED, EV_EMPTY_SKIP) = range(len(EVENTS))


class NinePeakObservation:
    """What one seat may see (own hand and pending card, public zones, hidden-zone counts)."""

    __slots__ = ("player", "to_move", "phase", "hand", "area", "peaked", "discard",
                 "sets", "peak_piles", "deck_size", "hand_sizes", "prev_sizes",
                 "triggered", "declared", "picked", "last_pick", "first_placed",
                 "pending", "num_players")

    def __init__(self, **values: Any) -> None:
        """Set every field from keyword arguments."""
        for key, value in values.items():
            setattr(self, key, value)

    def __repr__(self) -> str:
        """Compact field listing (for debugging)."""
        return "NinePeakObservation(" + ", ".join(
            f"{k}={getattr(self, k)!r}" for k in self.__slots__) + ")"


class NinePeakGame(Game):
    """9 Peak: climb set sizes with hats whose ranges widen as the area fills.

    Action encoding (``T`` = number of card types; 30 with the shipped data,
    type = 5 × (number − 1) + suit index, suits ordered as :data:`SUITS`):

    * ``0 .. T−1``        pass: place one hand card of type t in the area (N3)
    * ``T .. 2T−1``       pass: place the first of two hand cards, type t (N3)
    * ``2T .. 2T+8``      play: declare set value X = a − 2T + 1 (N4)
    * ``2T+9 .. 3T+8``    pass: place the second card, type t ≥ the first's
    * ``3T+9 .. 4T+8``    pass: take a card of type t from the area into hand
    * ``4T+9 .. 5T+8``    play: add a hand card of type t to the set (types
      are picked in non-decreasing order, so each multiset has one path;
      forced completions are applied automatically)
    * ``5T+9``            keep the drawn card in hand (Persona-less set, N4)
    * ``5T+10``           place the drawn card in the area
    """

    slug = "nine_peak"
    title = "9 Peak"
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

    def __init__(self, params: Mapping[str, Any] | None = None,
                 data_dir: Path | None = None) -> None:
        """Apply ``params`` and build the card table once from the data folder."""
        super().__init__(params, data_dir)
        cards = load_cards(self.slug, "hats", data_dir)
        manifest = load_manifest(resolve_data_dir(data_dir) / self.slug / "manifest.toml")
        base = manifest.constants.get("base_points")
        if (not isinstance(base, list) or len(base) != 9
                or not all(isinstance(b, int) and not isinstance(b, bool) for b in base)):
            raise PnpError(f"{manifest.path}: game.constants.base_points: expected a list "
                           f"of 9 integers (base points for set sizes 1–9), found {base!r}")
        #: Base points by set size (index 0 = size 1), from the manifest (N6).
        self.base_points: tuple[int, ...] = tuple(base)
        raw: list[tuple[int, int, int]] = []
        for card in cards:
            suit, color = card["suit"], card["color"]
            if suit not in SUITS or color not in COLORS:
                raise PnpError(f"nine_peak card {card['id']!r}: suit {suit!r} / colour "
                               f"{color!r}: expected one of {', '.join(SUITS)} / "
                               f"{', '.join(COLORS)}")
            raw.append((int(card["number"]), SUITS.index(suit), COLORS.index(color)))
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
        T = self.num_types
        self.A_PASS1, self.A_PASS2, self.A_PLAY = 0, T, 2 * T
        self.A_SECOND, self.A_TAKE, self.A_PICK = 2 * T + 9, 3 * T + 9, 4 * T + 9
        self.A_KEEP, self.A_PLACE_DRAWN = 5 * T + 9, 5 * T + 10
        self.num_distinct_actions: int = 5 * T + 11
        self.type_range: range = range(T)
        self._full = self.params["scoring"] == "full"

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
        random.Random(seed).shuffle(deck)
        # The top of the deck is the END of the list (deck.pop() draws).
        state = NinePeakState(self, num_players)
        ctype, cnum, T = self.card_type, self.card_number, self.num_types
        area, ac = state.area, state.ac
        for _ in range(setup):
            c = deck.pop()
            area[cnum[c] - 1].append(c)  # ruling N1: column of its printed number
            ac[ctype[c]] += 1
        for p in range(num_players):
            cards = deck[-hand:]
            del deck[-hand:]
            state.hands[p] = cards
            hc, hn = [0] * T, [0] * 6
            for c in cards:
                hc[ctype[c]] += 1
                hn[cnum[c] - 1] += 1
            state.hc[p], state.hn[p] = hc, hn
        state.deck = deck
        state._peak_check(-1)  # ruling N2: set-up peaks go to the discard pile
        return state

    def state_from_position(self, num_players: int, *, hands: Sequence[Sequence[str]],
                            area: Sequence[str] = (), peaked: Iterable[int] = (),
                            deck: Sequence[str] | None = None,
                            sets: Sequence[Sequence[Sequence[str]]] | None = None,
                            peak_piles: Sequence[Sequence[str]] | None = None,
                            prev_sizes: Sequence[int] | None = None, player: int = 0,
                            triggered: bool = False) -> "NinePeakState":
        """Build a scripted position from card codes (test and analysis helper).

        A code is number + suit letter (``S`` silk hat, ``F`` fedora,
        ``C`` capeline, ``B`` bonnet, ``P`` persona), e.g. ``"5S"``. Concrete
        copies are assigned in id order. ``deck`` lists the deck top first;
        when it is ``None`` every card not named elsewhere forms the deck (in id
        order), otherwise left-over cards go to the discard pile. ``area``
        cards go to the columns of their numbers; numbers in ``peaked`` start
        peaked. No peak check runs on the scripted position.
        """
        self.check_players(num_players)
        free: dict[tuple[int, int], list[int]] = {}
        for c in range(self.num_cards):
            free.setdefault((self.card_number[c], self.card_suit[c]), []).append(c)

        def take(code: str) -> int:
            """Claim the next free copy of card code ``code``."""
            code = code.strip().upper()
            if len(code) != 2 or not code[0].isdigit() or code[1] not in SUIT_CODES:
                raise PnpError(f"card code {code!r}: expected number + one of "
                               f"{SUIT_CODES}, e.g. '5S'")
            pool = free.get((int(code[0]), SUIT_CODES.index(code[1])))
            if not pool:
                raise PnpError(f"card code {code!r}: no copy left")
            return pool.pop(0)

        state = NinePeakState(self, num_players)
        if len(hands) != num_players:
            raise PnpError(f"state_from_position: expected {num_players} hands")
        for p, codes in enumerate(hands):
            state.hands[p] = [take(x) for x in codes]
        for x in area:
            c = take(x)
            state.area[self.card_number[c] - 1].append(c)
        for p, player_sets in enumerate(sets or []):
            state.sets[p] = [tuple(take(x) for x in s) for s in player_sets]
            if player_sets:
                state.prev[p] = len(player_sets[-1])
        for p, pile in enumerate(peak_piles or []):
            state.piles[p] = [take(x) for x in pile]
        deck_cards = [take(x) for x in deck] if deck is not None else []
        rest = sorted(c for pool in free.values() for c in pool)
        if deck is None:
            state.deck = rest[::-1]
        else:
            state.deck = deck_cards[::-1]
            state.discard = rest
        for n in peaked:
            state.peaked[n - 1] = True
        if prev_sizes is not None:
            state.prev = list(prev_sizes)
        state.player = player
        state.triggered = triggered
        state._recount()
        return state

    # ------------------------------------------------------------------ greedy bot
    def greedy_action(self, observation: Any, legal_actions: Sequence[int],
                      rng: random.Random) -> int:
        """The greedy bot (see :mod:`pnp.games.nine_peak_bot`)."""
        from pnp.games.nine_peak_bot import greedy_action
        return greedy_action(self, observation, legal_actions, rng)


class NinePeakState(State):
    """A 9 Peak position: zones as card-id lists plus per-type count caches."""

    __slots__ = ("game", "num_players", "deck", "hands", "hc", "hn", "area", "ac",
                 "peaked", "discard", "sets", "piles", "prev", "player", "phase",
                 "first_type", "declared", "picking", "last_pick", "pending",
                 "triggered", "trigger_seat", "nturns", "ev")

    def __init__(self, game: NinePeakGame, num_players: int) -> None:
        """An empty table for ``num_players`` (filled by set-up or a scripted position)."""
        self.game = game
        self.num_players = num_players
        T = game.num_types
        self.deck: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(num_players)]
        self.hc: list[list[int]] = [[0] * T for _ in range(num_players)]
        self.hn: list[list[int]] = [[0] * 6 for _ in range(num_players)]
        self.area: list[list[int]] = [[] for _ in range(6)]
        self.ac: list[int] = [0] * T
        self.peaked: list[bool] = [False] * 6
        self.discard: list[int] = []
        self.sets: list[list[tuple[int, ...]]] = [[] for _ in range(num_players)]
        self.piles: list[list[int]] = [[] for _ in range(num_players)]
        self.prev: list[int] = [0] * num_players
        self.player = 0
        self.phase = MAIN
        self.first_type = -1
        self.declared = 0
        self.picking: list[int] = []
        self.last_pick = 0
        self.pending = -1
        self.triggered = False
        self.trigger_seat = -1
        self.nturns = 1
        self.ev: list[int] = [0] * len(EVENTS)

    def _recount(self) -> None:
        """Rebuild the count caches from the zones (after scripted edits)."""
        g = self.game
        T = g.num_types
        for p, hand in enumerate(self.hands):
            hc, hn = [0] * T, [0] * 6
            for c in hand:
                hc[g.card_type[c]] += 1
                hn[g.card_number[c] - 1] += 1
            self.hc[p], self.hn[p] = hc, hn
        self.ac = [0] * T
        for col in self.area:
            for c in col:
                self.ac[g.card_type[c]] += 1

    # ------------------------------------------------------------------ API
    def current_player(self) -> int:
        """Seat to act, or TERMINAL."""
        return TERMINAL if self.phase == OVER else self.player

    def is_terminal(self) -> bool:
        """True once seat N−1 has finished the round in which the trigger was pulled."""
        return self.phase == OVER

    def turns(self) -> int:
        """Player turns begun so far."""
        return self.nturns

    def events(self) -> Mapping[str, int]:
        """Rule counters by name."""
        return dict(zip(EVENTS, self.ev))

    def clone(self) -> "NinePeakState":
        """Independent copy (list copies only)."""
        s = NinePeakState.__new__(NinePeakState)
        s.game = self.game
        s.num_players = self.num_players
        s.deck = self.deck[:]
        s.hands = [h[:] for h in self.hands]
        s.hc = [h[:] for h in self.hc]
        s.hn = [h[:] for h in self.hn]
        s.area = [c[:] for c in self.area]
        s.ac = self.ac[:]
        s.peaked = self.peaked[:]
        s.discard = self.discard[:]
        s.sets = [ps[:] for ps in self.sets]
        s.piles = [p[:] for p in self.piles]
        s.prev = self.prev[:]
        s.player = self.player
        s.phase = self.phase
        s.first_type = self.first_type
        s.declared = self.declared
        s.picking = self.picking[:]
        s.last_pick = self.last_pick
        s.pending = self.pending
        s.triggered = self.triggered
        s.trigger_seat = self.trigger_seat
        s.nturns = self.nturns
        s.ev = self.ev[:]
        return s

    def _usable_range(self, i: int) -> tuple[int, int]:
        """Values a hat of number i+1 may take now (ruling N1; peaked: 1–9, N2)."""
        if self.peaked[i]:
            return 1, 9
        hi = i + 1 + len(self.area[i])
        return i + 1, (hi if hi < 9 else 9)

    def legal_actions(self) -> list[int]:
        """Legal actions, ascending (see :class:`NinePeakGame` for the encoding)."""
        ph = self.phase
        g = self.game
        T = g.num_types
        if ph == MAIN:
            p = self.player
            hc = self.hc[p]
            acts = list(compress(g.type_range, hc))
            h = len(self.hands[p])
            if h >= 2:
                # N3 two-card pass; the second card is of a type ≥ the first's,
                # so the highest type may start only if it has two copies
                last = acts[-1]
                acts += [T + t for t in acts]
                if hc[last] < 2:
                    acts.pop()
            lo_x = self.prev[p] or 1  # ruling N4: sets never shrink
            if h >= lo_x:
                hn = self.hn[p]
                peaked, area = self.peaked, self.area
                avail = [0] * 10
                for i in compress(_SIX, hn):
                    k = hn[i]
                    if peaked[i]:
                        for x in _ONE_TO_NINE:
                            avail[x] += k
                    else:
                        hi = i + 2 + len(area[i])  # ruling N1: n .. n + c(n)
                        for x in range(i + 1, hi if hi < 10 else 10):
                            avail[x] += k
                base = 2 * T - 1
                for x in range(lo_x, (h if h < 9 else 9) + 1):
                    if avail[x] >= x:
                        acts.append(base + x)
            return acts
        if ph == SECOND:
            hc = self.hc[self.player]
            a0 = g.A_SECOND
            first = self.first_type
            return [a0 + t for t in compress(g.type_range, hc) if t >= first]
        if ph == TAKE:
            ac = self.ac
            a0 = g.A_TAKE
            return [a0 + t for t in compress(g.type_range, ac)]
        if ph == PICK:
            usable = self._usable_types()
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
            return acts
        if ph == KEEP:
            return [g.A_KEEP, g.A_PLACE_DRAWN]
        return []

    def _usable_types(self) -> list[int]:
        """Hand types ≥ the last pick usable as the declared value X (ruling N1/N4)."""
        g = self.game
        x = self.declared
        area, peaked = self.area, self.peaked
        # ok[n]: number n usable as x (x ≤ 9, so the cap at 9 needs no check)
        ok = [False] + [peaked[i] or i + 1 <= x <= i + 1 + len(area[i]) for i in range(6)]
        tn, last = g.type_number, self.last_pick
        return [t for t in compress(g.type_range, self.hc[self.player])
                if t >= last and ok[tn[t]]]

    # ------------------------------------------------------------------ moves
    def _from_hand(self, t: int) -> int:
        """Remove one card of type t from the current hand and return its id."""
        p = self.player
        hc = self.hc[p]
        if t < 0 or t >= len(hc) or not hc[t]:
            raise PnpError(f"nine_peak: no card of type {t} in seat {p}'s hand")
        hand = self.hands[p]
        ctype = self.game.card_type
        for j, c in enumerate(hand):
            if ctype[c] == t:
                del hand[j]
                break
        hc[t] -= 1
        self.hn[p][self.game.card_number[c] - 1] -= 1
        return c

    def _to_hand(self, c: int) -> None:
        """Put card c into the current player's hand."""
        p = self.player
        self.hands[p].append(c)
        self.hc[p][self.game.card_type[c]] += 1
        self.hn[p][self.game.card_number[c] - 1] += 1

    def _to_area(self, c: int) -> None:
        """Place card c in the column of its printed number (ruling N1)."""
        self.area[self.game.card_number[c] - 1].append(c)
        self.ac[self.game.card_type[c]] += 1

    def _peak_check(self, by: int) -> None:
        """Ruling N2: peak every unpeaked number with n + c(n) ≥ 9.

        ``by`` is the seat whose pass caused it (cards to that peak pile),
        −2 after a play and −1 at set-up (cards to the discard pile).
        """
        area, peaked = self.area, self.peaked
        for i in range(6):
            if not peaked[i] and i + 1 + len(area[i]) >= 9:
                peaked[i] = True
                col = area[i]
                area[i] = []
                ctype, ac = self.game.card_type, self.ac
                for c in col:
                    ac[ctype[c]] -= 1
                if by >= 0:
                    self.piles[by].extend(col)
                    self.ev[EV_PEAK_PASS] += 1
                else:
                    self.discard.extend(col)
                    self.ev[EV_PEAK_PLAY if by == -2 else EV_PEAK_SETUP] += 1

    def _end_turn(self) -> None:
        """Ruling N5: pull the trigger on an empty hand; end after seat N−1.

        N5a: a seat whose turn comes with an empty hand has no move and is
        skipped; N5b: a hand emptied by the set but refilled by keeping the
        draw is not empty, so it pulls no trigger.
        """
        n = self.num_players
        while True:
            p = self.player
            if not self.hands[p] and not self.triggered:
                self.triggered = True
                self.trigger_seat = p
                self.ev[EV_TRIGGER] += 1
            if self.triggered and p == n - 1:
                self.phase = OVER
                return
            self.player = p = p + 1 if p + 1 < n else 0
            self.nturns += 1
            self.phase = MAIN
            if self.hands[p]:
                return
            # ruling N5a: a seat on turn with an empty hand (unreachable with the
            # rulebook's deal) has no move; its turn ends at once.
            self.ev[EV_EMPTY_SKIP] += 1

    def _autocomplete(self) -> None:
        """Finish the set when the remaining picks are forced (one multiset left)."""
        need = self.declared - len(self.picking)
        usable = self._usable_types()
        hc = self.hc[self.player]
        total = 0
        for t in usable:
            total += hc[t]
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
        elif total < need:  # cannot happen for a legal declaration
            raise PnpError("nine_peak: declared set cannot be completed")

    def _finish_play(self) -> None:
        """Ruling N4: the set is laid; draw 1 to the area (or hand if Persona-less)."""
        p = self.player
        cards = self.picking
        self.picking = []
        self.sets[p].append(tuple(cards))  # finished sets are immutable
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
                self._to_area(c)
                self._peak_check(-2)
                self._end_turn()
                return
        # Ruling N4a: the player sees the drawn card before choosing hand or
        # area; N2b: the peak check runs after that choice.
        self.pending = c
        self.phase = KEEP

    def apply_action(self, action: int) -> None:
        """Apply a legal action for the current player."""
        ph = self.phase
        g = self.game
        T = g.num_types
        if ph == MAIN:
            if action < T:  # N3: place one card
                self._to_area(self._from_hand(action))
                self.ev[EV_PASS_ONE] += 1
                self._peak_check(self.player)
                self._end_turn()
            elif action < 2 * T:  # N3: first of two cards
                t = action - T
                if len(self.hands[self.player]) < 2:
                    raise PnpError("nine_peak: a two-card pass needs 2 hand cards")
                self._to_area(self._from_hand(t))
                self.first_type = t
                self.phase = SECOND
            elif action < 2 * T + 9:  # N4: declare X
                x = action - 2 * T + 1
                if x < self.prev[self.player]:
                    raise PnpError(f"nine_peak: set of {x} would shrink (ruling N4)")
                self.declared = x
                self.last_pick = 0
                self.phase = PICK
                self._autocomplete()
            else:
                raise PnpError(f"nine_peak: action {action} is not legal in the main phase")
        elif ph == SECOND:
            t = action - g.A_SECOND
            if not self.first_type <= t < T:
                raise PnpError(f"nine_peak: action {action} is not a second placement")
            self._to_area(self._from_hand(t))
            self.phase = TAKE
        elif ph == TAKE:
            t = action - g.A_TAKE
            if not 0 <= t < T or not self.ac[t]:
                raise PnpError(f"nine_peak: no card of type {t} in the area")
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
            self._to_hand(c)
            self.ev[EV_PASS_TWO] += 1
            self._peak_check(self.player)  # N2: after all placing and taking
            self._end_turn()
        elif ph == PICK:
            t = action - g.A_PICK
            if not self.last_pick <= t < T:
                raise PnpError(f"nine_peak: action {action} is not a legal pick")
            lo, hi = self._usable_range(g.type_number[t] - 1)
            if not lo <= self.declared <= hi:
                raise PnpError(f"nine_peak: {g.type_label(t)} is not usable as "
                               f"{self.declared} (ruling N1)")
            self.picking.append(self._from_hand(t))
            self.last_pick = t
            if len(self.picking) == self.declared:
                self._finish_play()
            else:
                self._autocomplete()
        elif ph == KEEP:
            c = self.pending
            self.pending = -1
            if action == g.A_KEEP:
                self._to_hand(c)
                self.ev[EV_KEEP] += 1
            elif action == g.A_PLACE_DRAWN:
                self._to_area(c)
                self.ev[EV_TO_AREA] += 1
                self._peak_check(-2)
            else:
                self.pending = c
                raise PnpError(f"nine_peak: action {action} is not keep/place")
            self._end_turn()
        else:
            raise PnpError("nine_peak: the game is over")

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
        """Readable description of ``action`` (decoded by block)."""
        g = self.game
        T = g.num_types
        if 0 <= action < T:
            return f"pass: place {g.type_label(action)}"
        if action < 2 * T:
            return f"pass 2-for-1: place {g.type_label(action - T)}"
        if action < 2 * T + 9:
            return f"play: declare a set of {action - 2 * T + 1}"
        if action < 3 * T + 9:
            return f"pass 2-for-1: place {g.type_label(action - g.A_SECOND)} as second card"
        if action < 4 * T + 9:
            return f"pass 2-for-1: take {g.type_label(action - g.A_TAKE)} from the area"
        if action < 5 * T + 9:
            return f"play: add {g.type_label(action - g.A_PICK)} to the set"
        drawn = f" ({g.card_label(self.pending)})" if self.pending >= 0 else ""
        if action == g.A_KEEP:
            return f"keep the drawn card{drawn} in hand"
        if action == g.A_PLACE_DRAWN:
            return f"place the drawn card{drawn} in the area"
        return f"unknown action {action}"

    def observation(self, player: int) -> NinePeakObservation:
        """Own hand (and own pending draw), public zones, counts of hidden zones."""
        own_turn = player == self.player and self.phase != OVER
        return NinePeakObservation(
            player=player, to_move=self.current_player(), phase=self.phase,
            hand=self.hands[player][:], area=[c[:] for c in self.area],
            peaked=self.peaked[:], discard=self.discard[:],
            sets=[ps[:] for ps in self.sets],
            peak_piles=[p[:] for p in self.piles], deck_size=len(self.deck),
            hand_sizes=[len(h) for h in self.hands], prev_sizes=self.prev[:],
            triggered=self.triggered, declared=self.declared if self.phase == PICK else 0,
            picked=self.picking[:], last_pick=self.last_pick,
            first_placed=self.first_type if self.phase in (SECOND, TAKE) else -1,
            pending=self.pending if own_turn else -1, num_players=self.num_players)

    def zones(self) -> Iterable[tuple[str, Iterable[int]]]:
        """Every zone: deck, area columns, discard, hands, sets, peak piles, set in progress, drawn card."""
        yield "deck", self.deck
        for i, col in enumerate(self.area):
            yield f"area:{i + 1}", col
        yield "discard", self.discard
        for p in range(self.num_players):
            yield f"hand:{p}", self.hands[p]
            yield f"sets:{p}", [c for s in self.sets[p] for c in s]
            yield f"peak_pile:{p}", self.piles[p]
        yield "set_in_progress", self.picking
        yield "drawn", [self.pending] if self.pending >= 0 else []

    def __str__(self) -> str:
        """Multi-line dump of the position (debugging)."""
        g = self.game
        lines = [f"turn {self.nturns}, seat {self.player}, phase {PHASE_NAMES[self.phase]}, "
                 f"deck {len(self.deck)}, trigger {self.triggered}"]
        for i, col in enumerate(self.area):
            lines.append(f"  area {i + 1}{'*' if self.peaked[i] else ''}: "
                         + ", ".join(g.card_label(c) for c in col))
        for p in range(self.num_players):
            lines.append(f"  seat {p}: hand [{', '.join(g.card_label(c) for c in self.hands[p])}]"
                         f" sets {[len(s) for s in self.sets[p]]} pile {len(self.piles[p])}")
        return "\n".join(lines)
