"""One-line position notation for 9 Peak (writer and reader).

A position is a run of ``key=value`` fields separated by single spaces, in
any order, each key at most once. Cards are written as type codes run
together (see :mod:`pnp.games.nine_peak.codec`: ``5S5F1C``); ``-`` is an
empty card list. Lists per seat are separated by ``/``, seat 0 first.

Grammar::

    position := field (" " field)*
    field    := key "=" value
    cards    := "-" | card+                card := number suit [colour]

    n=<players>                 required
    turn=<k>                    player turns begun so far            (default 1)
    to=<seat>                   seat whose turn it is                (default 0)
    phase=<phase>               decision pending                     (default main)
        main                    pass or play (N3, N4)
        second:<card>           2-for-1 pass, first card placed; place the second
        take:<card>             2-for-1 pass, both placed (first named); take one
        pick:<X>:<cards>        a set of X declared; cards picked so far, in order
        keep:<card>             Persona-less set laid; the drawn card goes to hand
                                or area (N4, ruling N4a)
        over                    the game has ended
    trigger=<seat>|-            seat that pulled the end trigger (N5)  (default -)
    peaked=<numbers>|-          flipped peak cards, e.g. 26 (N2)       (default -)
    area=<cards>                area, column 1 first, each column bottom first
    hands=<cards>/<cards>/…     every hand in its order               (required)
    known=<cards>/…             per seat, hand cards everyone saw enter that hand
                                (cards taken by a 2-for-1 pass)     (default all -)
    sets=<sets>/<sets>/…        per seat: sets in play order joined by ",", or -
    prev=<k>,<k>,…              size of each seat's previous set (ruling N4)
                                (default: the size of each seat's last set)
    peaks=<cards>/…             per-seat peak piles                 (default all -)
    deck=<cards>                the deck, top card first
    discard=<cards>             the discard pile, oldest first

Cards named nowhere go to the deck (in card-id order, lowest id on top) when
``deck=`` is absent, else to the discard pile when ``discard=`` is absent;
with both present every card must be named exactly once. The writer always
writes ``n``, ``turn``, ``to``, ``phase``, ``area``, ``hands``, ``deck`` and
``discard``, and the other fields only when they differ from their defaults,
so the text of a position is unique. Rule-event counters are statistics, not
part of the position: a state read from notation starts them at zero.

Example (seat 0 may pass two 5s into a column holding three to peak it)::

    n=4 hands=5B5P3S/6B/6B/6B area=2S5S5F5C
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from pnp.games.api import NotationError
from pnp.games.nine_peak.codec import MAX_SET, parse_cards, write_cards

#: Keys in the order the writer emits them.
KEYS: tuple[str, ...] = ("n", "turn", "to", "phase", "trigger", "peaked", "area", "hands",
                         "known", "sets", "prev", "peaks", "deck", "discard")
#: Phase names of the notation (the engine's ``phase_names``).
PHASES: tuple[str, ...] = ("main", "second", "take", "pick", "keep", "over")


@dataclass
class Position:
    """A position in card types (the engine turns types into card ids)."""

    num_players: int
    turn: int = 1
    seat: int = 0
    phase: str = "main"
    #: second/take: type of the 2-for-1 pass's first card.
    first: int = -1
    #: pick: declared set value X.
    declared: int = 0
    #: pick: types picked so far, in pick order.
    picked: list[int] = field(default_factory=list)
    #: keep: type of the drawn card.
    drawn: int = -1
    #: Seat that pulled the end trigger, −1 when not pulled.
    trigger: int = -1
    #: Peaked flag per number 1–6.
    peaked: list[bool] = field(default_factory=lambda: [False] * 6)
    area: list[int] = field(default_factory=list)
    hands: list[list[int]] = field(default_factory=list)
    known: list[list[int]] = field(default_factory=list)
    sets: list[list[list[int]]] = field(default_factory=list)
    #: Previous set size per seat; None = derived from ``sets``.
    prev: list[int] | None = None
    peaks: list[list[int]] = field(default_factory=list)
    #: Top card first; None = cards named nowhere.
    deck: list[int] | None = None
    #: None = cards named nowhere (only when ``deck`` is given).
    discard: list[int] | None = None

    def derived_prev(self) -> list[int]:
        """Each seat's last set size (0 with no set): the default ``prev``."""
        return [len(s[-1]) if s else 0 for s in self.sets]


def write(pos: Position, codes: Sequence[str]) -> str:
    """The canonical one-line text of ``pos`` (see the module grammar)."""
    n = pos.num_players

    def per_seat(lists: Sequence[Sequence[int]]) -> str:
        """Card lists joined by ``/``."""
        return "/".join(write_cards(x, codes) for x in lists)

    phase = pos.phase
    if phase in ("second", "take"):
        phase += ":" + codes[pos.first]
    elif phase == "pick":
        phase += f":{pos.declared}:{write_cards(pos.picked, codes)}"
    elif phase == "keep":
        phase += ":" + codes[pos.drawn]
    out = [f"n={n}", f"turn={pos.turn}", f"to={pos.seat}", f"phase={phase}"]
    if pos.trigger >= 0:
        out.append(f"trigger={pos.trigger}")
    if any(pos.peaked):
        out.append("peaked=" + "".join(str(i + 1) for i, p in enumerate(pos.peaked) if p))
    out.append("area=" + write_cards(pos.area, codes))
    out.append("hands=" + per_seat(pos.hands))
    if any(pos.known):
        out.append("known=" + per_seat(pos.known))
    if any(pos.sets):
        out.append("sets=" + "/".join(",".join(write_cards(s, codes) for s in seat) or "-"
                                      for seat in pos.sets))
    if pos.prev is not None and pos.prev != pos.derived_prev():
        out.append("prev=" + ",".join(map(str, pos.prev)))
    if any(pos.peaks):
        out.append("peaks=" + per_seat(pos.peaks))
    out.append("deck=" + write_cards(pos.deck or [], codes))
    out.append("discard=" + write_cards(pos.discard or [], codes))
    return " ".join(out)


def _int(key: str, text: str, lo: int, hi: int) -> int:
    """``text`` as an int in ``lo … hi`` (NotationError otherwise)."""
    if not text.isdigit() or not lo <= int(text) <= hi:
        raise NotationError(f"nine_peak notation: {key}={text!r}: expected a whole "
                            f"number {lo}–{hi}")
    return int(text)


def read(text: str, codes: Sequence[str]) -> Position:
    """Parse ``text`` into a :class:`Position` (raises :class:`NotationError`).

    Checks the syntax and the per-seat list lengths; the engine checks the
    position against the cards and the rules.
    """
    index = {c: i for i, c in enumerate(codes)}
    fields: dict[str, str] = {}
    for token in text.split():
        key, eq, value = token.partition("=")
        if not eq:
            raise NotationError(f"nine_peak notation: {token!r}: expected key=value")
        if key not in KEYS:
            raise NotationError(f"nine_peak notation: unknown key {key!r} (keys: "
                                f"{', '.join(KEYS)})")
        if key in fields:
            raise NotationError(f"nine_peak notation: {key}= given twice")
        fields[key] = value
    if "n" not in fields or "hands" not in fields:
        raise NotationError("nine_peak notation: n= and hands= are required")
    n = _int("n", fields["n"], 1, 99)

    def cards(key: str, value: str) -> list[int]:
        """Parse one card list, naming the field on error."""
        try:
            return parse_cards(value, index)
        except ValueError as exc:
            raise NotationError(f"nine_peak notation: {key}=: {exc}") from None

    def per_seat(key: str) -> list[list[int]]:
        """A ``/``-separated card list per seat (all empty when absent)."""
        if key not in fields:
            return [[] for _ in range(n)]
        parts = fields[key].split("/")
        if len(parts) != n:
            raise NotationError(f"nine_peak notation: {key}= has {len(parts)} entries "
                                f"for {n} players")
        return [cards(key, p) for p in parts]

    pos = Position(n)
    pos.turn = _int("turn", fields.get("turn", "1"), 1, 10**9)
    pos.seat = _int("to", fields.get("to", "0"), 0, n - 1)
    phase, _, args = fields.get("phase", "main").partition(":")
    if phase not in PHASES:
        raise NotationError(f"nine_peak notation: phase={phase!r}: expected one of "
                            f"{', '.join(PHASES)}")
    pos.phase = phase
    if phase in ("second", "take", "keep"):
        one = cards("phase", args)
        if len(one) != 1:
            raise NotationError(f"nine_peak notation: phase={phase}: names one card "
                                f"(e.g. {phase}:5S)")
        if phase == "keep":
            pos.drawn = one[0]
        else:
            pos.first = one[0]
    elif phase == "pick":
        x, _, picked = args.partition(":")
        pos.declared = _int("phase=pick", x, 1, MAX_SET)
        pos.picked = cards("phase", picked or "-")
        if len(pos.picked) >= pos.declared:
            raise NotationError(f"nine_peak notation: phase=pick:{args}: a set of "
                                f"{pos.declared} is complete once picked")
    elif args:
        raise NotationError(f"nine_peak notation: phase={phase} takes no argument")
    trig = fields.get("trigger", "-")
    pos.trigger = -1 if trig == "-" else _int("trigger", trig, 0, n - 1)
    peaked = fields.get("peaked", "-")
    if peaked != "-":
        if not all(ch in "123456" for ch in peaked) or len(set(peaked)) != len(peaked):
            raise NotationError(f"nine_peak notation: peaked={peaked!r}: expected "
                                "distinct numbers 1–6, e.g. 26")
        for ch in peaked:
            pos.peaked[int(ch) - 1] = True
    pos.area = cards("area", fields.get("area", "-"))
    pos.hands = per_seat("hands")
    pos.known = per_seat("known")
    pos.peaks = per_seat("peaks")
    pos.sets = [[] for _ in range(n)]
    if "sets" in fields:
        parts = fields["sets"].split("/")
        if len(parts) != n:
            raise NotationError(f"nine_peak notation: sets= has {len(parts)} entries "
                                f"for {n} players")
        for p, part in enumerate(parts):
            if part != "-":
                pos.sets[p] = [cards("sets", s) for s in part.split(",")]
                if any(not s for s in pos.sets[p]):
                    raise NotationError("nine_peak notation: sets=: an empty set")
    if "prev" in fields:
        sizes = fields["prev"].split(",")
        if len(sizes) != n:
            raise NotationError(f"nine_peak notation: prev= has {len(sizes)} entries "
                                f"for {n} players")
        pos.prev = [_int("prev", k, 0, MAX_SET) for k in sizes]
    if "deck" in fields:
        pos.deck = cards("deck", fields["deck"])
    if "discard" in fields:
        if "deck" not in fields:
            raise NotationError("nine_peak notation: discard= needs deck= (cards named "
                                "nowhere go to the deck)")
        pos.discard = cards("discard", fields["discard"])
    return pos
