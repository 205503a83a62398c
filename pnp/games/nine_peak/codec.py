"""9 Peak action encoding: action ints, their short text, and card-type codes.

Cards of one (number, suit, colour) are interchangeable (ruling N4c in
``docs/rules/nine_peak-engine.md``), so every decision names a card *type*.
``T`` is the number of types (30 with the shipped data). The blocks:

============  ========  ====================================================
action        text      meaning
============  ========  ====================================================
t             pass 5S   pass: place one hand card of type t in the area (N3)
T + t         pass2 5S  2-for-1 pass: place the first card, type t (N3)
2T + X − 1    declare 4 play: declare a set of X = 1 … 9 (N4)
2T + 9 + t    second 5F 2-for-1 pass: place the second card, type t ≥ first
3T + 9 + t    take 2S   2-for-1 pass: take a card of type t from the area
4T + 9 + t    pick 3C   play: add a hand card of type t to the declared set
5T + 9        keep      put the drawn card in hand (Persona-less set, N4)
5T + 10       place     put the drawn card in the area
============  ========  ====================================================

A type code is the printed number and a suit letter (``S`` シルクハット silk
hat, ``F`` フェドーラ fedora, ``C`` キャプリーヌ capeline, ``B`` ボンネット
bonnet, ``P`` ペルソナ persona), e.g. ``5S``. Only when an edited table holds
two types with the same number and suit does a colour letter follow
(``k`` black, ``r`` red, ``w`` both), e.g. ``5Sr``.
"""

from __future__ import annotations

import re
from typing import Sequence

from pnp.games.api import IllegalAction

#: Suit names as printed (table order = suit index; the Persona is index 4).
SUITS: tuple[str, ...] = ("シルクハット", "フェドーラ", "キャプリーヌ", "ボンネット", "ペルソナ")
#: English suit names (readable card labels).
SUITS_EN: tuple[str, ...] = ("silk hat", "fedora", "capeline", "bonnet", "persona")
#: One letter per suit, in suit-index order.
SUIT_CODES: str = "SFCBP"
#: Colour names as in the table (index = colour index).
COLORS: tuple[str, ...] = ("black", "red", "both")
#: One letter per colour, written only when number and suit do not identify a type.
COLOR_CODES: str = "krw"
#: Largest set value a player may declare (ruling N4: X is 1–9).
MAX_SET = 9

#: One card code: number, suit letter, optional colour letter.
CARD_RE = re.compile(r"(\d)([SFCBP])([krw]?)")

#: Action kinds in block order (the first word of an action's text).
KINDS: tuple[str, ...] = ("pass", "pass2", "declare", "second", "take", "pick", "keep",
                          "place")


def type_codes(numbers: Sequence[int], suits: Sequence[int],
               colors: Sequence[int]) -> tuple[str, ...]:
    """Code of every card type, given each type's number, suit and colour index."""
    plain = [f"{n}{SUIT_CODES[s]}" for n, s in zip(numbers, suits)]
    return tuple(code + COLOR_CODES[c] if plain.count(code) > 1 else code
                 for code, c in zip(plain, colors))


def parse_cards(text: str, index: dict[str, int]) -> list[int]:
    """Card types of a run of codes such as ``5S5F1C`` (``-`` is none).

    Raises :class:`ValueError` naming the first code that is not a type.
    """
    if text == "-":
        return []
    out: list[int] = []
    pos = 0
    while pos < len(text):
        m = CARD_RE.match(text, pos)
        code = m.group(0) if m else text[pos:pos + 3]
        if m is None or code not in index:
            raise ValueError(f"{code!r} is not a card code (number + one of "
                             f"{SUIT_CODES}, e.g. 5S)")
        out.append(index[code])
        pos = m.end()
    return out


def write_cards(types: Sequence[int], codes: Sequence[str]) -> str:
    """Codes of ``types`` run together (``-`` when empty)."""
    return "".join([codes[t] for t in types]) or "-"


class ActionCodec:
    """The action layout for ``T`` card types, and its text in both directions."""

    __slots__ = ("codes", "index", "num_types", "A_PASS1", "A_PASS2", "A_PLAY",
                 "A_SECOND", "A_TAKE", "A_PICK", "A_KEEP", "A_PLACE_DRAWN",
                 "num_distinct_actions", "_starts")

    def __init__(self, codes: Sequence[str]) -> None:
        """Lay out the action blocks for the card types whose codes are ``codes``."""
        T = len(codes)
        self.codes: tuple[str, ...] = tuple(codes)
        self.index: dict[str, int] = {c: i for i, c in enumerate(codes)}
        self.num_types = T
        self.A_PASS1, self.A_PASS2, self.A_PLAY = 0, T, 2 * T
        self.A_SECOND = 2 * T + MAX_SET
        self.A_TAKE = 3 * T + MAX_SET
        self.A_PICK = 4 * T + MAX_SET
        self.A_KEEP = 5 * T + MAX_SET
        self.A_PLACE_DRAWN = self.A_KEEP + 1
        self.num_distinct_actions = self.A_PLACE_DRAWN + 1
        #: First action of each kind, in KINDS order.
        self._starts: tuple[int, ...] = (self.A_PASS1, self.A_PASS2, self.A_PLAY,
                                         self.A_SECOND, self.A_TAKE, self.A_PICK,
                                         self.A_KEEP, self.A_PLACE_DRAWN)

    def decode(self, action: int) -> tuple[str, int]:
        """``(kind, argument)`` of ``action``: a type index, X for ``declare``, 0 else.

        Raises :class:`IllegalAction` for an int outside every block.
        """
        if not 0 <= action < self.num_distinct_actions:
            raise IllegalAction(f"nine_peak: {action} is not an action "
                                f"(0 … {self.num_distinct_actions - 1})")
        k = len(self._starts) - 1
        while action < self._starts[k]:
            k -= 1
        arg = action - self._starts[k]
        return KINDS[k], arg + 1 if KINDS[k] == "declare" else arg

    def encode(self, kind: str, arg: int = 0) -> int:
        """The action of ``kind`` with ``arg`` (type index, or X for ``declare``)."""
        k = KINDS.index(kind)
        if kind == "declare":
            if not 1 <= arg <= MAX_SET:
                raise IllegalAction(f"nine_peak: a set of {arg}: X is 1–{MAX_SET} (N4)")
            return self.A_PLAY + arg - 1
        if kind in ("keep", "place"):
            return self._starts[k]
        if not 0 <= arg < self.num_types:
            raise IllegalAction(f"nine_peak: card type {arg} does not exist")
        return self._starts[k] + arg

    def to_string(self, action: int) -> str:
        """Short text of ``action``: ``pass 5S``, ``declare 4``, ``keep`` …"""
        kind, arg = self.decode(action)
        if kind in ("keep", "place"):
            return kind
        if kind == "declare":
            return f"declare {arg}"
        return f"{kind} {self.codes[arg]}"

    def from_string(self, text: str) -> int:
        """The action whose :meth:`to_string` is ``text`` (raises :class:`IllegalAction`)."""
        words = text.split()
        if not words or words[0] not in KINDS:
            raise IllegalAction(f"nine_peak: {text!r} is not an action (starts with one "
                                f"of {', '.join(KINDS)})")
        kind = words[0]
        if kind in ("keep", "place"):
            if len(words) != 1:
                raise IllegalAction(f"nine_peak: {text!r}: {kind!r} takes no argument")
            return self.encode(kind)
        if len(words) != 2:
            raise IllegalAction(f"nine_peak: {text!r}: expected '{kind} <argument>'")
        if kind == "declare":
            if not words[1].isdigit():
                raise IllegalAction(f"nine_peak: {text!r}: expected 'declare <1–9>'")
            return self.encode(kind, int(words[1]))
        if words[1] not in self.index:
            raise IllegalAction(f"nine_peak: {text!r}: {words[1]!r} is not a card code")
        return self.encode(kind, self.index[words[1]])
