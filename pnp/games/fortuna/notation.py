"""Fortuna's one-line position notation (writer and reader).

A position is a list of fields separated by ``;``; each field is a key and
its words, separated by spaces. Example (a scripted position)::

    players 3; seat 0 main; hand:0 3B 3W 5B 5W 5G; hand:1 2B; hand:2 2W;
    deck 6B 6W; slot:3 3H 3R

(on one line). Grammar::

    position  = field *( ";" field )
    field     = "players" N                    number of seats (required)
              / "turn" N                       turns begun so far (default 1)
              / "seat" S phase                 seat S is to act (required unless "over")
              / "over"                         the game has ended
              / "trigger"                      the end trigger has been pulled (F7)
              / "hand:" S *card                seat S's hand
              / "deck" *card                   the deck, in draw order (next card first)
              / "end_deck" *card               the end deck, in draw order
              / "slot:" N *card                discard slot N (1–6), bottom card first (F1)
              / "sets:" S *set                 seat S's sets, in the order played
              / "events" *(name "=" N)         rule-event counts (those not named are 0)
    phase     = "main" / "discard"             play a set or pass / the F5 discard
              / "fill" N                       owe filler for the last set, from slot ≥ N (F4a)
              / "wheel" N                      the Wheel of Fortune fired by slot N (F6)
    set       = X ":" card *("," card) ["/" card *("," card)]
                                               declared value X (0–9), face-up cards,
                                               then the face-down filler (F4)
    card      = number icon ["." copy]         e.g. 5B, 5女神, 3W.2

Icons are written as in :mod:`pnp.games.fortuna.codec` (``B`` 稲妻, ``W`` 小麦,
``H`` 兜, ``R`` 車輪, ``G`` 女神). Zones and sets left out are empty; cards
named nowhere are set aside in the ``box`` zone (scripted positions name
only the cards that matter), so every card of the table is in exactly one zone.

Card identity: copies of one type are interchangeable in play, but the
notation still round-trips the exact card ids. ``copy`` is the card's index
among the copies of its type (0 = lowest id). A card written without it takes
the lowest-id copy of its type not named with a copy elsewhere, in the reading
order hands (seat order), deck, end deck, slots 1–6, sets (seat order; each
set face-up then face-down) — whatever order the fields are written in. The
writer leaves every copy index of a type out when that rule reproduces the
ids, and writes all of them otherwise.

The writer's canonical order is: players, turn, seat (or over), trigger,
every hand (even empty), deck, end_deck, non-empty slots, non-empty sets,
non-zero events. Derived state is not written: the values a seat has used
(from its sets), the filler still owed by a pending all-in set (its value
minus its cards), the final scores.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import Sequence

from pnp.games.api import TERMINAL, NotationError
from pnp.games.fortuna.codec import MAX_VALUE, NUM_SLOTS, FortunaCodec

#: A set as the engine holds it: (declared value, face-up ids, face-down ids).
SetRecord = tuple[int, tuple[int, ...], tuple[int, ...]]

#: Decision phases a position may be in (``over`` ends the game).
PHASES = ("main", "discard", "fill", "wheel", "over")


@dataclass
class Position:
    """Everything a notation line holds, in the engine's own layout.

    ``deck`` and ``end_deck`` keep the engine's order (next card drawn is the
    *last*); ``slots[n]`` is slot n bottom to top (index 0 unused);
    ``events`` follows the game's ``event_names``.
    """

    num_players: int
    hands: list[list[int]]
    deck: list[int]
    end_deck: list[int]
    slots: list[list[int]]
    sets: list[list[SetRecord]]
    box: list[int]
    seat: int
    phase: str
    turn: int
    trigger: bool
    wheel_slot: int
    fill_min: int
    events: list[int]


#: (type, copy index or None) of one card token.
_Card = tuple[int, int | None]


class FortunaNotation:
    """Writer and reader of positions over one card table."""

    def __init__(self, codec: FortunaCodec, card_type: Sequence[int],
                 event_names: Sequence[str], players: tuple[int, int]) -> None:
        """Notation for cards whose types are ``card_type`` (sorted by type)."""
        self.codec = codec
        self.card_type = tuple(card_type)
        self.n_cards = len(self.card_type)
        #: Card ids of type t are first[t] .. first[t + 1] − 1.
        self.first: tuple[int, ...] = tuple(
            bisect_left(self.card_type, t) for t in range(codec.n_types + 1))
        self.event_names = tuple(event_names)
        self.players = players

    # -- writer ---------------------------------------------------------------

    def write(self, pos: Position) -> str:
        """The canonical one-line text of ``pos``."""
        zones: list[list[int]] = [*pos.hands, pos.deck[::-1], pos.end_deck[::-1],
                                  *pos.slots[1:]]
        for seat_sets in pos.sets:
            for _, up, down in seat_sets:
                zones += [list(up), list(down)]
        token = self._tokens(zones)
        parts = [f"players {pos.num_players}", f"turn {pos.turn}"]
        if pos.phase == "over":
            parts.append("over")
        else:
            extra = {"fill": f" {pos.fill_min}", "wheel": f" {pos.wheel_slot}"}
            parts.append(f"seat {pos.seat} {pos.phase}{extra.get(pos.phase, '')}")
        if pos.trigger:
            parts.append("trigger")

        def field(key: str, cards: Sequence[int]) -> str:
            """``key`` followed by its cards' tokens."""
            return " ".join([key, *map(token.__getitem__, cards)])

        parts += [field(f"hand:{p}", hand) for p, hand in enumerate(pos.hands)]
        parts.append(field("deck", pos.deck[::-1]))
        parts.append(field("end_deck", pos.end_deck[::-1]))
        parts += [field(f"slot:{n}", pos.slots[n]) for n in range(1, NUM_SLOTS + 1)
                  if pos.slots[n]]
        for p, seat_sets in enumerate(pos.sets):
            if seat_sets:
                words = [f"sets:{p}"]
                for value, up, down in seat_sets:
                    text = f"{value}:" + ",".join(map(token.__getitem__, up))
                    if down:
                        text += "/" + ",".join(map(token.__getitem__, down))
                    words.append(text)
                parts.append(" ".join(words))
        counts = [f"{name}={v}" for name, v in zip(self.event_names, pos.events) if v]
        if counts:
            parts.append(" ".join(["events", *counts]))
        return "; ".join(parts)

    def _tokens(self, zones: Sequence[Sequence[int]]) -> dict[int, str]:
        """Token of every card in ``zones`` (reading order), copy index only where needed."""
        order = [c for zone in zones for c in zone]
        by_type: dict[int, list[int]] = {}
        for c in order:
            by_type.setdefault(self.card_type[c], []).append(c)
        name = self.codec.type_name
        token: dict[int, str] = {}
        for t, cards in by_type.items():
            first = self.first[t]
            # The reader gives unnumbered copies the lowest ids in reading order.
            plain = cards == list(range(first, first + len(cards)))
            for c in cards:
                token[c] = name(t) if plain else f"{name(t)}.{c - first}"
        return token

    # -- reader ---------------------------------------------------------------

    def read(self, text: str) -> Position:
        """The position written as ``text``; :class:`NotationError` on bad text."""
        fields: dict[str, list[str]] = {}
        for raw in text.split(";"):
            words = raw.split()
            if not words:
                continue
            if words[0] in fields:
                raise NotationError(f"fortuna notation: field {words[0]!r} given twice")
            fields[words[0]] = words[1:]
        n = self._int(fields.pop("players", None), "players")
        lo, hi = self.players
        if not lo <= n <= hi:
            raise NotationError(f"fortuna notation: players {n}: expected {lo}–{hi}")
        turn = self._int(fields.pop("turn", ["1"]), "turn")
        seat, phase, wheel_slot, fill_min = self._phase(fields, n)
        trigger = fields.pop("trigger", None) is not None
        events = self._events(fields.pop("events", []))

        # Card fields, in reading order (see the module docstring).
        hands = [self._cards(fields.pop(f"hand:{p}", [])) for p in range(n)]
        deck = self._cards(fields.pop("deck", []))
        end_deck = self._cards(fields.pop("end_deck", []))
        slots = [self._cards(fields.pop(f"slot:{s}", [])) for s in range(1, NUM_SLOTS + 1)]
        sets = [[self._set(word) for word in fields.pop(f"sets:{p}", [])] for p in range(n)]
        if fields:
            raise NotationError(f"fortuna notation: unknown field {next(iter(fields))!r} "
                                f"(seats 0–{n - 1}, slots 1–{NUM_SLOTS})")
        groups: list[list[_Card]] = [*hands, deck, end_deck, *slots]
        for seat_sets in sets:
            for _, up, down in seat_sets:
                groups += [up, down]
        ids = self._assign(groups)
        it = iter(ids)
        hand_ids = [sorted(next(it)) for _ in range(n)]
        deck_ids = next(it)[::-1]
        end_ids = next(it)[::-1]
        slot_ids: list[list[int]] = [[], *(next(it) for _ in range(NUM_SLOTS))]
        set_recs: list[list[SetRecord]] = []
        for p, seat_sets in enumerate(sets):
            recs = []
            values: set[int] = set()
            for value, _, _ in seat_sets:
                if value in values:  # ruling F3: never two sets of one value
                    raise NotationError(f"fortuna notation: seat {p} has two sets of {value}")
                values.add(value)
                recs.append((value, tuple(next(it)), tuple(next(it))))
            set_recs.append(recs)
        named = {c for group in ids for c in group}
        box = [c for c in range(self.n_cards) if c not in named]
        if phase == "fill":
            last = set_recs[seat][-1] if set_recs[seat] else None
            if last is None or len(last[1]) + len(last[2]) >= last[0]:
                raise NotationError(f"fortuna notation: phase fill but seat {seat}'s last set "
                                    f"owes no filler (F4)")
        return Position(n, hand_ids, deck_ids, end_ids, slot_ids, set_recs, box, seat, phase,
                        turn, trigger, wheel_slot, fill_min, events)

    @staticmethod
    def _int(words: list[str] | None, key: str) -> int:
        """The one non-negative int of field ``key``."""
        if words is None:
            raise NotationError(f"fortuna notation: field {key!r} is missing")
        if len(words) != 1 or not words[0].isdigit():
            raise NotationError(f"fortuna notation: {key} {' '.join(words)!r}: "
                                f"expected one number")
        return int(words[0])

    def _phase(self, fields: dict[str, list[str]], n: int) -> tuple[int, str, int, int]:
        """(seat, phase, wheel slot, fill minimum) from the ``seat``/``over`` fields."""
        over = fields.pop("over", None)
        words = fields.pop("seat", None)
        if over is not None:
            if words is not None or over:
                raise NotationError("fortuna notation: 'over' takes no words and no 'seat'")
            return TERMINAL, "over", 0, 1
        if not words or len(words) < 2:
            raise NotationError("fortuna notation: expected 'seat <n> <phase>' or 'over'")
        if not words[0].isdigit() or int(words[0]) >= n:
            raise NotationError(f"fortuna notation: seat {words[0]!r}: expected 0–{n - 1}")
        seat, phase, args = int(words[0]), words[1], words[2:]
        if phase in ("main", "discard") and not args:
            return seat, phase, 0, 1
        if phase in ("fill", "wheel") and len(args) == 1 and args[0].isdigit() \
                and 1 <= int(args[0]) <= NUM_SLOTS:
            slot = int(args[0])
            return (seat, "fill", 0, slot) if phase == "fill" else (seat, "wheel", slot, 1)
        raise NotationError(f"fortuna notation: phase {' '.join(words[1:])!r}: expected main, "
                            f"discard, fill <slot> or wheel <slot>")

    def _events(self, words: list[str]) -> list[int]:
        """Event counts from ``name=count`` words (the rest are 0)."""
        counts = [0] * len(self.event_names)
        seen: set[str] = set()
        for word in words:
            name, eq, value = word.partition("=")
            if not eq or name not in self.event_names or not value.isdigit() or name in seen:
                raise NotationError(f"fortuna notation: event {word!r}: expected name=count "
                                    f"once each, names {', '.join(self.event_names)}")
            seen.add(name)
            counts[self.event_names.index(name)] = int(value)
        return counts

    def _card(self, token: str) -> _Card:
        """(type, copy index or None) of one card token."""
        name, dot, copy = token.partition(".")
        try:
            t = self.codec.parse_type(name)
        except ValueError as exc:
            raise NotationError(f"fortuna notation: {exc}") from None
        if not dot:
            return t, None
        copies = self.first[t + 1] - self.first[t]
        if not copy.isdigit() or int(copy) >= copies:
            raise NotationError(f"fortuna notation: card {token!r}: copy index must be "
                                f"0–{copies - 1}")
        return t, int(copy)

    def _cards(self, words: Sequence[str]) -> list[_Card]:
        """Card tokens of one zone."""
        return [self._card(w) for w in words]

    def _set(self, word: str) -> tuple[int, list[_Card], list[_Card]]:
        """(value, face-up cards, face-down cards) of one ``X:up/down`` word."""
        head, colon, rest = word.partition(":")
        up, _, down = rest.partition("/")
        if not colon or not head.isdigit() or int(head) > MAX_VALUE or not up:
            raise NotationError(f"fortuna notation: set {word!r}: expected "
                                f"<value 0–{MAX_VALUE}>:<cards>[/<face-down cards>]")
        return (int(head), self._cards(up.split(",")),
                self._cards(down.split(",")) if down else [])

    def _assign(self, groups: Sequence[Sequence[_Card]]) -> list[list[int]]:
        """Card ids of every group: numbered copies as named, the rest lowest-first."""
        first = self.first
        explicit: set[int] = set()
        for group in groups:
            for t, k in group:
                if k is not None:
                    cid = first[t] + k
                    if cid in explicit:
                        raise NotationError(f"fortuna notation: card "
                                            f"{self.codec.type_name(t)}.{k} named twice")
                    explicit.add(cid)
        nxt = list(first[:-1])
        out: list[list[int]] = []
        for group in groups:
            ids = []
            for t, k in group:
                if k is not None:
                    ids.append(first[t] + k)
                    continue
                c = nxt[t]
                while c < first[t + 1] and c in explicit:
                    c += 1
                if c >= first[t + 1]:
                    raise NotationError(f"fortuna notation: no card "
                                        f"{self.codec.type_name(t)} left (the table has "
                                        f"{first[t + 1] - first[t]})")
                nxt[t] = c + 1
                ids.append(c)
            out.append(ids)
        return out
