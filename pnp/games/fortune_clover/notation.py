"""Fortune Clover position notation: one line of text per position (writer and reader).

A position is written as ``fortune_clover`` followed by space-separated
``key=value`` fields, always all of them and in this order::

    fortune_clover p=4 deal=2 fort=F03,F07,F01,F02,F04,F05,F06,F08,F09,F10
      seeds=8812,77 chips=Y1W2,Y0W3,Y0W0,Y2W1 lead=1
      hands=♠A♥10/♦2/.../... centre=♣3♦9 ex=♠2:♥4♥5/.:./... trick=♥3♣J
      won=♠5♠9♠J♠K,♦A♦2♦3♦4/-/-/- void=-/♥♣/-/- log=3.2.1.0 ret=- t=75

(one line in reality). Grammar::

    position := "fortune_clover" (" " field)*            fields in the order below
    p        := N                                         players, 3–6
    deal     := 1 … D | "end"                             deal in progress (1-based)
    fort     := id ("," id)*                              every Fortune card, pile order;
                                                          deal k uses the k-th
    seeds    := "-" | int ("," int)*                      shuffle seeds of the deals to come
    chips    := "Y" int "W" int ("," …)                   chips held, one per seat
    lead     := seat                                      who leads the current trick
                                                          (in the exchange: the deal's
                                                          leader; at the end: the last
                                                          trick's winner)
    hands    := cards ("/" cards)*                        one per seat, id order
    centre   := cards                                     face-down centre pile (C1, C2);
                                                          at the end it belongs to `lead`
    ex       := xs ("/" xs)*   xs := d ":" pp             exchange choices per seat:
                d := card | "."    pp := card card | "."  "." = not chosen yet
    trick    := cards                                     current trick in play order,
                                                          first card by `lead`
    won      := wonseat ("/" wonseat)*                    tricks each seat won this deal,
                wonseat := "-" | cards ("," cards)*       in the order won
    void     := v ("/" v)*     v := "-" | suit+           suits each seat has shown void in
    log      := "-" | counts ("," counts)*                counted cards per seat of each
                counts := int ("." int)*                  finished deal
    ret      := "-" | "Y" int "W" int ("," …)             chips returned at the end (C8)
    t        := int                                       decisions taken so far
    cards    := "-" | card+    card := suit rank          e.g. ♠Q, ♣10 (the deck's names)

What is derived rather than written: the phase (discards not all chosen →
``exchange_discard``; passes not all chosen → ``exchange_pass``; otherwise
play), the player on turn (the first seat from ``lead`` without a choice in
the exchange; ``lead`` + cards in the trick in play), the led suit and the
trick's best card (from the trick's cards), and the counted cards of the
deal (from ``won`` and the Fortune card). A chosen discard stays in its
owner's hand until every seat has chosen, and chosen passes likewise
(ruling C2). Event counters are not part of a position.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from pnp.games.api import NotationError

#: The first word of every position.
HEADER = "fortune_clover"
FIELDS = ("p", "deal", "fort", "seeds", "chips", "lead", "hands", "centre", "ex", "trick",
          "won", "void", "log", "ret", "t")


@dataclass
class Position:
    """A position as plain values (the engine turns it into a state and back)."""

    num_players: int
    #: Deal index, 0-based; ``deals`` (any value ≥ the number of deals) when over.
    deal: int
    over: bool
    fortune_ids: list[str]
    seeds: list[int]
    yellow: list[int]
    white: list[int]
    lead: int
    hands: list[list[int]]
    centre: list[int]
    discards: list[int]
    passes: list[tuple[int, ...]]
    trick: list[int]
    won: list[list[list[int]]]
    voids: list[int]
    log: list[tuple[int, ...]]
    ret_yellow: list[int] = field(default_factory=list)
    ret_white: list[int] = field(default_factory=list)
    turns: int = 0


def _cards(cards: Sequence[int], names: Sequence[str]) -> str:
    """Cards as concatenated names, ``-`` when none."""
    return "".join(names[c] for c in cards) or "-"


def _chips(yellow: Sequence[int], white: Sequence[int]) -> str:
    """``Y<y>W<w>`` per seat, comma-separated."""
    return ",".join(f"Y{y}W{w}" for y, w in zip(yellow, white))


def write(pos: Position, names: Sequence[str], suits: Sequence[str]) -> str:
    """The one-line notation of ``pos`` (card ``c`` is written ``names[c]``)."""
    n = pos.num_players
    ex = "/".join(
        (names[pos.discards[s]] if pos.discards[s] >= 0 else ".") + ":"
        + (_cards(pos.passes[s], names) if pos.passes[s] else ".") for s in range(n))
    won = "/".join(",".join(_cards(t, names) for t in pos.won[s]) or "-" for s in range(n))
    void = "/".join("".join(suits[i] for i in range(len(suits)) if pos.voids[s] >> i & 1)
                    or "-" for s in range(n))
    log = ",".join(".".join(map(str, counts)) for counts in pos.log) or "-"
    parts = [
        HEADER,
        f"p={n}",
        "deal=" + ("end" if pos.over else str(pos.deal + 1)),
        "fort=" + ",".join(pos.fortune_ids),
        "seeds=" + (",".join(map(str, pos.seeds)) or "-"),
        "chips=" + _chips(pos.yellow, pos.white),
        f"lead={pos.lead}",
        "hands=" + "/".join(_cards(h, names) for h in pos.hands),
        "centre=" + _cards(pos.centre, names),
        "ex=" + ex,
        "trick=" + _cards(pos.trick, names),
        "won=" + won,
        "void=" + void,
        "log=" + log,
        "ret=" + (_chips(pos.ret_yellow, pos.ret_white) if pos.ret_yellow else "-"),
        f"t={pos.turns}",
    ]
    return " ".join(parts)


class _Reader:
    """Field readers sharing the card-name table and the error format."""

    def __init__(self, text: str, ids: Mapping[str, int], suits: Sequence[str]) -> None:
        """Prepare a card tokenizer for the deck's suit symbols."""
        self.text = text
        self.ids = ids
        self.suits = list(suits)
        self.card_re = re.compile("(" + "|".join(map(re.escape, suits)) + ")([^"
                                  + "".join(map(re.escape, suits)) + "]+)")

    def fail(self, reason: str) -> NotationError:
        """The error for this text (for ``raise``)."""
        short = self.text if len(self.text) <= 60 else self.text[:57] + "…"
        return NotationError(f"fortune_clover notation: {reason} (in {short!r})")

    def int_(self, key: str, text: str, lo: int | None = None) -> int:
        """A non-negative decimal int."""
        if not text.isdigit():
            raise self.fail(f"{key}: expected a number, got {text!r}")
        value = int(text)
        if lo is not None and value < lo:
            raise self.fail(f"{key}: expected ≥ {lo}, got {value}")
        return value

    def cards(self, key: str, text: str) -> list[int]:
        """A run of card names (``-`` for none)."""
        if text == "-":
            return []
        out: list[int] = []
        pos = 0
        for m in self.card_re.finditer(text):
            if m.start() != pos:
                break
            name = m.group(0)
            if name not in self.ids:
                raise self.fail(f"{key}: unknown card {name!r}")
            out.append(self.ids[name])
            pos = m.end()
        if pos != len(text) or not out:
            raise self.fail(f"{key}: cannot read cards {text!r}")
        return out

    def seats(self, key: str, text: str, n: int) -> list[str]:
        """``/``-separated per-seat parts, exactly ``n``."""
        parts = text.split("/")
        if len(parts) != n:
            raise self.fail(f"{key}: expected {n} seats, got {len(parts)}")
        return parts

    def chips(self, key: str, text: str, n: int) -> tuple[list[int], list[int]]:
        """``Y<y>W<w>`` per seat."""
        parts = text.split(",")
        if len(parts) != n:
            raise self.fail(f"{key}: expected {n} seats, got {len(parts)}")
        yellow, white = [], []
        for part in parts:
            m = re.fullmatch(r"Y(\d+)W(\d+)", part)
            if m is None:
                raise self.fail(f"{key}: expected Y<n>W<n>, got {part!r}")
            yellow.append(int(m.group(1)))
            white.append(int(m.group(2)))
        return yellow, white


def read(text: str, ids: Mapping[str, int], suits: Sequence[str], fortune_ids: Sequence[str],
         deals: int, players: tuple[int, int] = (3, 6)) -> Position:
    """Parse one line into a :class:`Position` (syntax and shape; the engine checks rules).

    ``ids`` maps card names to card ids, ``suits`` are the suit symbols by
    suit index, ``fortune_ids`` the Fortune cards' ids, ``deals`` the number
    of deals a game has, ``players`` the seat range. Raises
    :class:`NotationError` with a one-line reason.
    """
    r = _Reader(text, ids, suits)
    words = text.split()
    if not words or words[0] != HEADER:
        raise r.fail(f"expected it to start with {HEADER!r}")
    if len(words) != len(FIELDS) + 1:
        raise r.fail(f"expected {len(FIELDS)} fields ({' '.join(FIELDS)}), got {len(words) - 1}")
    values: dict[str, str] = {}
    for word, key in zip(words[1:], FIELDS):
        name, eq, value = word.partition("=")
        if name != key or not eq:
            raise r.fail(f"expected field {key}=…, got {word[:20]!r}")
        values[key] = value
    n = r.int_("p", values["p"])
    if not players[0] <= n <= players[1]:
        raise r.fail(f"p: the game is for {players[0]}–{players[1]} players, not {n}")
    over = values["deal"] == "end"
    deal = deals if over else r.int_("deal", values["deal"], 1) - 1
    if deal > deals - 1 and not over:
        raise r.fail(f"deal: {deal + 1} is beyond the game's {deals} deals")
    fort = values["fort"].split(",")
    if sorted(fort) != sorted(fortune_ids):
        raise r.fail(f"fort: expected every Fortune card once ({','.join(fortune_ids)})")
    seeds = ([] if values["seeds"] == "-"
             else [r.int_("seeds", s) for s in values["seeds"].split(",")])
    expected_seeds = 0 if over else deals - deal - 1
    if len(seeds) != expected_seeds:
        raise r.fail(f"seeds: expected {expected_seeds} seeds of deals to come, got {len(seeds)}")
    yellow, white = r.chips("chips", values["chips"], n)
    lead = r.int_("lead", values["lead"])
    if lead >= n:
        raise r.fail(f"lead: seat {lead} is not one of 0–{n - 1}")
    hands = [sorted(r.cards("hands", h)) for h in r.seats("hands", values["hands"], n)]
    centre = sorted(r.cards("centre", values["centre"]))
    discards: list[int] = []
    passes: list[tuple[int, ...]] = []
    for part in r.seats("ex", values["ex"], n):
        d, colon, pp = part.partition(":")
        if not colon:
            raise r.fail(f"ex: expected discard:pass per seat, got {part!r}")
        if d == ".":
            discards.append(-1)
        else:
            one = r.cards("ex", d)
            if len(one) != 1:
                raise r.fail(f"ex: a discard is one card, got {d!r}")
            discards.append(one[0])
        if pp == ".":
            passes.append(())
        else:
            two = sorted(r.cards("ex", pp))
            if len(two) != 2 or two[0] == two[1]:
                raise r.fail(f"ex: a pass is two cards, got {pp!r}")
            passes.append(tuple(two))
    trick = r.cards("trick", values["trick"])
    won: list[list[list[int]]] = []
    for part in r.seats("won", values["won"], n):
        won.append([] if part == "-" else [r.cards("won", t) for t in part.split(",")])
    voids: list[int] = []
    for part in r.seats("void", values["void"], n):
        mask = 0
        if part != "-":
            for ch in part:
                if ch not in r.suits:
                    raise r.fail(f"void: unknown suit {ch!r}")
                mask |= 1 << r.suits.index(ch)
        voids.append(mask)
    log: list[tuple[int, ...]] = []
    if values["log"] != "-":
        for part in values["log"].split(","):
            counts = tuple(r.int_("log", c) for c in part.split("."))
            if len(counts) != n:
                raise r.fail(f"log: expected {n} counts per deal, got {part!r}")
            log.append(counts)
    ret_y: list[int] = []
    ret_w: list[int] = []
    if values["ret"] != "-":
        ret_y, ret_w = r.chips("ret", values["ret"], n)
    turns = r.int_("t", values["t"])
    return Position(n, deal, over, fort, seeds, yellow, white, lead, hands, centre, discards,
                    passes, trick, won, voids, log, ret_y, ret_w, turns)
