"""The Fortune cards' two mini-languages: the ``counts`` selector and ``reward_Np``.

Both are defined in docs/design/fortune_clover.md; this module is their only
reader. Parsing is pure (no engine, no files): :func:`parse_selector` turns a
``counts`` text into the set of (suit, rank) pairs it matches, and
:func:`parse_reward` turns a ``reward_Np`` text into chips by place. Errors
are one-line :class:`~pnp.errors.PnpError` messages naming the file and line
of the row, the Fortune card id and the column, so a designer who mistypes a
cell sees where at once. :func:`read_fortunes` reads a whole table and
collects every such problem (one per bad cell) instead of stopping at the
first; :func:`check_fortunes` adds the chip supply (ruling C6) and is what
``pnp check`` runs.

Selector grammar (``&`` binds tighter than ``|``; spaces are ignored)::

    expr      := inter ( "|" inter )*
    inter     := unary ( "&" unary )*
    unary     := "!" unary | "(" expr ")" | atom
    atom      := suit rank | suit | rank "-" rank | rank | keyword
    suit      := "♠" | "♥" | "♦" | "♣"
    rank      := "2" … "10" | "J" | "Q" | "K" | "A"
    keyword   := "all" | "red" | "black" | "face"

Reward grammar::

    reward := entry ( ";" entry )*
    entry  := place ":" chips          place := "1st" | "2nd" | "3rd" | "4th" | …
    chips  := [ "Y" n ] [ "W" n ]      at least one, n ≥ 1
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, NoReturn

from pnp.errors import PnpError

if TYPE_CHECKING:
    from pnp.data.inventory import GameData

#: Suit symbols in card-id order of the deck table; clubs are the special suit.
SUITS: tuple[str, ...] = ("♠", "♥", "♦", "♣")
#: Ranks in strength order (2 lowest, A highest), as the selector's ranges use them.
RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
#: Every (suit, rank) pair a selector can name.
UNIVERSE: frozenset[tuple[str, str]] = frozenset((s, r) for s in SUITS for r in RANKS)

_KEYWORDS: dict[str, frozenset[tuple[str, str]]] = {
    "all": UNIVERSE,
    "red": frozenset(p for p in UNIVERSE if p[0] in ("♥", "♦")),
    "black": frozenset(p for p in UNIVERSE if p[0] in ("♠", "♣")),
    "face": frozenset(p for p in UNIVERSE if p[1] in ("J", "Q", "K")),
}

_TOKEN = re.compile(r"\s*(?:(?P<suit>[♠♥♦♣])|(?P<word>[A-Za-z]{2,})|(?P<rank>10|[2-9JQKA])"
                    r"|(?P<op>[|&!()\-]))")


def _ordinal(place: int) -> str:
    """``1`` → ``"1st"``, ``2`` → ``"2nd"``, ``11`` → ``"11th"``."""
    if 10 <= place % 100 <= 20:
        return f"{place}th"
    return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place % 10, 'th') }"


class _SelectorParser:
    """Recursive-descent reader of one ``counts`` text."""

    def __init__(self, text: str, card_id: str, path: Path | None,
                 line: int | None = None) -> None:
        """Tokenise ``text`` (raising on a character the language does not know)."""
        self.text = text
        self.card_id = card_id
        self.path = path
        self.line = line
        self.tokens: list[tuple[str, str]] = []
        pos = 0
        stripped = text.rstrip()
        while pos < len(stripped):
            m = _TOKEN.match(stripped, pos)
            if m is None:
                self.fail(f"unexpected character {stripped[pos:].lstrip()[:1]!r}")
            kind = m.lastgroup or "op"
            self.tokens.append((kind, m.group(kind)))
            pos = m.end()
        self.i = 0

    def fail(self, reason: str) -> NoReturn:
        """Raise the one-line error for this card's ``counts`` cell."""
        raise PnpError(f"Fortune card {self.card_id}, column counts: {reason} "
                       f"in {self.text!r}", path=self.path, line=self.line)

    def peek(self) -> tuple[str, str] | None:
        """The next token, or None at the end."""
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        """Consume and return the next token (error at the end)."""
        tok = self.peek()
        if tok is None:
            self.fail("unexpected end")
        self.i += 1
        return tok

    def parse(self) -> frozenset[tuple[str, str]]:
        """The whole text as one expression."""
        if not self.tokens:
            self.fail("empty selector")
        result = self.expr()
        tok = self.peek()
        if tok is not None:
            self.fail(f"unexpected {tok[1]!r}")
        return result

    def expr(self) -> frozenset[tuple[str, str]]:
        """``inter ( "|" inter )*``: union."""
        result = self.inter()
        while self.peek() == ("op", "|"):
            self.i += 1
            result = result | self.inter()
        return result

    def inter(self) -> frozenset[tuple[str, str]]:
        """``unary ( "&" unary )*``: intersection."""
        result = self.unary()
        while self.peek() == ("op", "&"):
            self.i += 1
            result = result & self.unary()
        return result

    def unary(self) -> frozenset[tuple[str, str]]:
        """``"!" unary | "(" expr ")" | atom``."""
        kind, value = self.take()
        if (kind, value) == ("op", "!"):
            return UNIVERSE - self.unary()
        if (kind, value) == ("op", "("):
            inner = self.expr()
            if self.peek() != ("op", ")"):
                self.fail("missing ')'")
            self.i += 1
            return inner
        if kind == "suit":
            nxt = self.peek()
            if nxt is not None and nxt[0] == "rank":
                self.i += 1
                return frozenset({(value, nxt[1])})
            return frozenset(p for p in UNIVERSE if p[0] == value)
        if kind == "rank":
            if self.peek() == ("op", "-"):
                self.i += 1
                kind2, hi = self.take()
                if kind2 != "rank":
                    self.fail(f"expected a rank after '-', got {hi!r}")
                lo_i, hi_i = RANKS.index(value), RANKS.index(hi)
                if lo_i > hi_i:
                    self.fail(f"empty rank range {value}-{hi} (ranks run 2 … 10, J, Q, K, A)")
                return frozenset(p for p in UNIVERSE if lo_i <= RANKS.index(p[1]) <= hi_i)
            return frozenset(p for p in UNIVERSE if p[1] == value)
        if kind == "word":
            if value not in _KEYWORDS:
                self.fail(f"unknown word {value!r} (known: {', '.join(_KEYWORDS)})")
            return _KEYWORDS[value]
        self.fail(f"unexpected {value!r}")


def parse_selector(text: str, card_id: str = "?", path: Path | None = None,
                   line: int | None = None) -> frozenset[tuple[str, str]]:
    """The (suit, rank) pairs the ``counts`` text of Fortune card ``card_id`` matches."""
    return _SelectorParser(str(text), card_id, path, line).parse()


#: Chips of one place: (yellow, white); (0, 0) means the place pays nothing.
Chips = tuple[int, int]

_ENTRY = re.compile(r"^\s*(\d+)(st|nd|rd|th)\s*:\s*(?:Y\s*(\d+))?\s*(?:W\s*(\d+))?\s*$")


def parse_reward(text: str, num_players: int, card_id: str = "?", column: str = "",
                 path: Path | None = None, line: int | None = None) -> tuple[Chips, ...]:
    """Chips by place for ``num_players`` from a ``reward_Np`` text.

    Returns a tuple indexed by place (index 0 unused, places 1 … N); a place
    the text does not list pays ``(0, 0)`` (ruling C6b).
    """
    column = column or f"reward_{num_players}p"

    def fail(reason: str) -> NoReturn:
        raise PnpError(f"Fortune card {card_id}, column {column}: {reason} in {text!r}",
                       path=path, line=line)

    table: list[Chips] = [(0, 0)] * (num_players + 1)
    if not str(text).strip():
        fail("no place listed (expected e.g. 1st:Y1W2;2nd:W1)")
    last = 0
    for entry in str(text).split(";"):
        m = _ENTRY.match(entry)
        if m is None:
            fail(f"cannot read entry {entry.strip()!r} (expected place:chips, "
                 "e.g. 2nd:W1)")
        place = int(m.group(1))
        if place < 1 or _ordinal(place) != m.group(1) + m.group(2):
            fail(f"bad place {m.group(1) + m.group(2)!r}")
        if place > num_players:
            fail(f"place {_ordinal(place)} beyond {num_players} players")
        if place <= last:
            fail(f"place {_ordinal(place)} listed after {_ordinal(last)} "
                 "(places go in increasing order, once each)")
        if m.group(3) is None and m.group(4) is None:
            fail(f"{_ordinal(place)} pays no chips (write Y<n> and/or W<n>)")
        yellow = int(m.group(3) or 0)
        white = int(m.group(4) or 0)
        if (m.group(3) is not None and yellow < 1) or (m.group(4) is not None and white < 1):
            fail(f"{_ordinal(place)}: chip counts must be at least 1")
        table[place] = (yellow, white)
        last = place
    return tuple(table)


@dataclass(frozen=True)
class FortuneCard:
    """One Fortune card as the engine uses it (parsed once from its data row)."""

    #: Data id, e.g. ``F03``.
    id: str
    #: English name (for reports).
    name: str
    #: ``card``: count matching captured cards; ``trick``: count tricks holding one (C6a).
    unit: str
    #: The ``counts`` text as written.
    counts: str
    #: The (suit, rank) pairs ``counts`` matches.
    matches: frozenset[tuple[str, str]]
    #: rewards[n][place] = (yellow, white) at n players (n = 3 … 6; others empty).
    rewards: tuple[tuple[Chips, ...], ...]


def _cell_problems(row: Mapping[str, Any], min_players: int, max_players: int,
                   path: Path | None, line: int | None
                   ) -> tuple[FortuneCard | None, list[PnpError]]:
    """Parse one row cell by cell: the card (None if any cell is bad) and every bad cell."""
    get = row.__getitem__
    card_id = str(get("id"))
    problems: list[PnpError] = []
    unit = str(get("unit"))
    if unit not in ("card", "trick"):
        problems.append(PnpError(f"Fortune card {card_id}, column unit: expected card or "
                                 f"trick, got {unit!r}", path=path, line=line))
    matches: frozenset[tuple[str, str]] = frozenset()
    try:
        matches = parse_selector(str(get("counts")), card_id, path, line)
    except PnpError as exc:
        problems.append(exc)
    rewards: list[tuple[Chips, ...]] = [() for _ in range(max_players + 1)]
    for n in range(min_players, max_players + 1):
        column = f"reward_{n}p"
        try:
            text = get(column)
        except KeyError:
            problems.append(PnpError(f"Fortune card {card_id}: no column {column}",
                                     path=path, line=line))
            continue
        try:
            rewards[n] = parse_reward(str(text), n, card_id, column, path, line)
        except PnpError as exc:
            problems.append(exc)
    if problems:
        return None, problems
    try:
        name = str(get("name_en"))
    except KeyError:
        name = str(get("name"))
    return FortuneCard(card_id, name, unit, str(get("counts")), matches,
                       tuple(rewards)), []


def fortune_from_row(row: Mapping[str, Any], min_players: int, max_players: int,
                     path: Path | None = None, line: int | None = None) -> FortuneCard:
    """Parse one ``fortune.csv`` row (a mapping) into a :class:`FortuneCard`.

    Raises the first bad cell's error; :func:`read_fortunes` collects them all.
    """
    card, problems = _cell_problems(row, min_players, max_players, path, line)
    if card is None:
        raise problems[0]
    return card


def _table_path(data: "GameData", component: str) -> Path | None:
    """The CSV of ``component`` as problem lines name it (None without a table)."""
    comp = data.manifest.components.get(component)
    if comp is None or comp.table is None:
        return None
    return data.manifest.game_dir / comp.table


def read_fortunes(data: "GameData", min_players: int, max_players: int
                  ) -> tuple[tuple[FortuneCard, ...], list[str]]:
    """Every Fortune card of ``data`` (one per copy) and every bad cell, one line each.

    A line reads ``<fortune.csv>:<line>: Fortune card F01, column reward_3p:
    <what> in '<cell>'``, the way the data loader reports any other cell, and
    the whole table is read, so one run lists every mistake. Cards with a bad
    cell are left out of the tuple.
    """
    path = _table_path(data, "fortune")
    cards: list[FortuneCard] = []
    problems: list[str] = []
    for row in data.rows.get("fortune", []):
        card, bad = _cell_problems(row.values, min_players, max_players, path, row.line)
        problems.extend(str(exc) for exc in bad)
        if card is not None:
            cards.extend([card] * row.qty)
    return tuple(cards), problems


#: The chips in the box when the data has no chips table (ruling C6: 10 yellow, 20 white).
DEFAULT_SUPPLY: dict[str, int] = {"yellow": 10, "white": 20}


def chip_supply(data: "GameData") -> dict[str, int]:
    """Chips in the box by colour: the chips table's quantities, else ruling C6's figures."""
    rows = data.rows.get("chips", [])
    if not rows:
        return dict(DEFAULT_SUPPLY)
    supply = {"yellow": 0, "white": 0}
    for row in rows:
        colour = str(row.values.get("colour", ""))
        if colour in supply:
            supply[colour] += row.qty
    return supply


def supply_problems(data: "GameData", min_players: int, max_players: int) -> list[str]:
    """Reward cells that pay more chips of a colour than the box holds (ruling C6).

    A Fortune card is designed "within a supply of 10 yellow and 20 white"
    (C6): what one deal pays at one player count, every place it lists
    reached once (no ties), must come out of the box. So each ``reward_Np``
    cell's yellow and white, summed over its places, may not exceed the
    chips table's count of that colour; a single ``1st:Y10`` is fine, a
    ``1st:Y10;2nd:Y1`` is not. (Ties can still pay more: the rulebook lets
    players substitute, C6, and the engine does not cap.)
    """
    path = _table_path(data, "fortune")
    supply = chip_supply(data)
    chips_table = _table_path(data, "chips")
    source = chips_table.name if chips_table is not None else "ruling C6"
    problems: list[str] = []
    for row in data.rows.get("fortune", []):
        card_id = row.id
        for n in range(min_players, max_players + 1):
            column = f"reward_{n}p"
            text = row.values.get(column)
            if text is None:
                continue
            try:
                reward = parse_reward(str(text), n, card_id, column, path, row.line)
            except PnpError:
                continue            # already reported by read_fortunes
            for index, colour, letter in ((0, "yellow", "Y"), (1, "white", "W")):
                paid = [(place, chips[index]) for place, chips in enumerate(reward)
                        if chips[index]]
                total = sum(k for _, k in paid)
                if total > supply[colour]:
                    parts = " + ".join(f"{_ordinal(p)} {letter}{k}" for p, k in paid)
                    where = f"{path}:{row.line}: " if path is not None else ""
                    problems.append(
                        f"{where}Fortune card {card_id}, column {column}: pays {total} "
                        f"{colour} chips in one deal ({parts}), more than the {supply[colour]} "
                        f"{colour} in the box ({source}; ruling C6): lower the counts")
    return problems


def check_fortunes(data: "GameData", min_players: int, max_players: int) -> list[str]:
    """Every problem with Fortune Clover's Fortune cards, one line each, for ``pnp check``.

    Bad ``unit``, ``counts`` and ``reward_Np`` cells (all of them, each with
    the file and line of its row, the card id and the column), then rewards
    beyond the chip supply (:func:`supply_problems`). The player counts are
    the engine's, whose reward columns these are.
    """
    if "fortune" not in data.manifest.components:
        return []
    return (read_fortunes(data, min_players, max_players)[1]
            + supply_problems(data, min_players, max_players))
