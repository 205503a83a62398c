"""Fortuna's action encoding: constants, card-type names, encode/decode and action text.

A card *type* is the pair (printed number, icon); two cards of one type are
interchangeable in play, so actions name types, never individual cards. Type
ids are ``(number − 1) × icons + icon index``.

Action ints (stable: the fingerprint tests pin seeded games to them):

==========================================  ==========================================
action                                      meaning
==========================================  ==========================================
``t`` (0 ≤ t < 100)                         pass, discarding a hand card of type ``t``
``100 + t``                                 the discard a 1-card set demands (ruling F5)
``200 + s``                                 one face-down filler card from slot ``s``
                                            for the pending all-in set (rulings F4, F4a)
``300``                                     decline the Wheel of Fortune (ruling F6)
``1_000_000 + s·10_000 + t·1_000 + c``      Wheel of Fortune: move the top ``c`` cards of
                                            slot ``s`` to slot ``t`` (F6, F6a)
``10_000_000 + X·B⁹ + code``                a set of declared value ``X`` (0–9) made of
                                            the k hand-card types ``t₁ ≤ … ≤ t_k``:
                                            ``code = Σ (tᵢ + 1)·B^(k−i)``, ``B`` = number
                                            of types + 1 (31 for the printed deck).
                                            Fewer cards than ``X ≥ 1``: an all-in set.
==========================================  ==========================================

Action text (:meth:`FortunaCodec.action_to_string`, inverted exactly by
:meth:`FortunaCodec.parse_action`)::

    pass 4B            discard 3W          fill 2          decline
    wheel 5>1x3        set 5: 3B 3H 5W 5W 5G        set 5: 5B 5W 5G +2

A type is written as its number and an icon token: ``B`` 稲妻, ``W`` 小麦,
``H`` 兜, ``R`` 車輪, ``G`` 女神; an icon a designer adds to the CSV is written
by its own name when that is a safe token (no spaces or notation
punctuation, not starting with a digit), else as ``~<icon index>``. The
reader also accepts the full icon names (``5女神``). In an all-in set the
trailing ``+n`` is the number of face-down filler cards it takes (F4).
"""

from __future__ import annotations

import re
from operator import mul
from typing import Any, Iterable, Sequence

from pnp.games.api import IllegalAction

#: Discard slots are numbered 1..NUM_SLOTS, one per printed number (ruling F1).
NUM_SLOTS = 6
#: Largest declared value: card values are single digits 0–9 (ruling F2).
MAX_VALUE = 9

PASS_BASE = 0
DISCARD_BASE = 100
FILL_BASE = 200
WHEEL_DECLINE = 300
WHEEL_BASE = 1_000_000
SET_BASE = 10_000_000

#: The wild icon (rulebook's scoring section; ruling F8).
GODDESS = "女神"
#: Icon order used for type ids; icons outside it are appended as found.
ICON_ORDER = ("稲妻", "小麦", "兜", "車輪", "女神")
#: One-letter tokens of the printed icons (action text and notation).
ICON_LETTERS = {"B": "稲妻", "W": "小麦", "H": "兜", "R": "車輪", "G": "女神"}

#: Characters an icon token may not contain: the notation's and action text's
#: separators (see :mod:`pnp.games.fortuna.notation`).
_RESERVED = set(";:,/.+>=~#()[]")

#: Cap on the decode cache (entries); it is cleared when exceeded.
# 20,000 entries hold the hands that recur; a larger cap only grows memory
# (200,000 took ~150 MB over a 100,000-game run with no speed gain).
_CACHE_LIMIT = 20_000

_WHEEL_TEXT = re.compile(r"([1-9])>([1-9])x([1-9][0-9]*)")


def wheel_action(src: int, dst: int, count: int) -> int:
    """The Wheel of Fortune move of ``count`` cards from slot ``src`` to ``dst`` (F6)."""
    return WHEEL_BASE + src * 10_000 + dst * 1_000 + count


def decode_wheel(action: int) -> tuple[int, int, int]:
    """``(source, target, count)`` of a Wheel of Fortune move action."""
    s, rest = divmod(action - WHEEL_BASE, 10_000)
    t, c = divmod(rest, 1_000)
    return s, t, c


class FortunaCodec:
    """Card types of one card table and the set-action code built on them.

    Holds the only per-process cache of this module (decoded set actions),
    which is left out when pickled.
    """

    def __init__(self, icons: Sequence[str]) -> None:
        """Types for ``icons`` (in type-id order) over the numbers 1..NUM_SLOTS."""
        self.icons: tuple[str, ...] = tuple(icons)
        n_icons = len(self.icons)
        self.n_icons: int = n_icons
        self.n_types: int = NUM_SLOTS * n_icons
        self.type_number: tuple[int, ...] = tuple(t // n_icons + 1 for t in range(self.n_types))
        self.type_icon: tuple[int, ...] = tuple(t % n_icons for t in range(self.n_types))
        self.base: int = self.n_types + 1
        # powr[k] = (B^(k−1), …, B, 1): the first (smallest) type is the most
        # significant digit, so codes sort like the sorted type tuples do.
        self.powr: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.base ** (k - 1 - i) for i in range(k)) for k in range(MAX_VALUE + 2))
        self.x_step: int = self.base ** MAX_VALUE
        # ones[k] = Σ_{i<k} Bⁱ: the "+1" of every digit of a k-card code.
        self.ones: tuple[int, ...] = tuple(sum(self.powr[k]) for k in range(MAX_VALUE + 2))
        self.icon_tokens: tuple[str, ...] = self._tokens()
        # Text → icon index: the tokens, plus the full icon names.
        self._icon_of: dict[str, int] = {name: i for i, name in enumerate(self.icons)}
        self._icon_of.update({tok: i for i, tok in enumerate(self.icon_tokens)})
        self._decoded: dict[int, tuple[int, tuple[int, ...]]] = {}

    def _tokens(self) -> tuple[str, ...]:
        """One short, unambiguous token per icon (letters for the printed five)."""
        letter_of = {icon: letter for letter, icon in ICON_LETTERS.items()}
        tokens: list[str] = []
        for i, icon in enumerate(self.icons):
            if icon in letter_of:
                tokens.append(letter_of[icon])
                continue
            # An added icon keeps its own name when that cannot be misread.
            safe = (bool(icon) and not icon[0].isdigit() and icon not in ICON_LETTERS
                    and not any(ch.isspace() or ch in _RESERVED for ch in icon)
                    and icon not in tokens)
            tokens.append(icon if safe else f"~{i}")
        return tuple(tokens)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled state: everything but the decode cache."""
        state = self.__dict__.copy()
        state["_decoded"] = {}
        return state

    # -- types ----------------------------------------------------------------

    def type_name(self, t: int) -> str:
        """Short name of type ``t``, e.g. ``5B`` (5 稲妻)."""
        return f"{self.type_number[t]}{self.icon_tokens[self.type_icon[t]]}"

    def parse_type(self, text: str) -> int:
        """Type id of a name such as ``5B`` or ``5女神``; ValueError if it names none."""
        if len(text) >= 2 and text[0].isdigit():
            number, icon = int(text[0]), self._icon_of.get(text[1:])
            if icon is not None and 1 <= number <= NUM_SLOTS:
                return (number - 1) * self.n_icons + icon
        raise ValueError(f"card {text!r}: expected a number 1–{NUM_SLOTS} then one of "
                         f"{', '.join(self.icon_tokens)} (e.g. 5B)")

    # -- set actions ------------------------------------------------------------

    def code_sorted(self, types: Sequence[int]) -> int:
        """Multiset code of sorted ``types`` t₁ ≤ … ≤ t_k: Σ (tᵢ + 1)·B^(k−i)."""
        k = len(types)
        code: int = sum(map(mul, types, self.powr[k]))
        return code + self.ones[k]

    def set_action(self, value: int, types: Iterable[int]) -> int:
        """The action playing hand-card ``types`` (any order) as a set of ``value``."""
        return SET_BASE + value * self.x_step + self.code_sorted(sorted(types))

    def decode_set(self, action: int) -> tuple[int, tuple[int, ...]]:
        """``(declared value, sorted card types)`` of a set action, cached.

        The same few thousand set actions recur in every game, and the apply
        step and the greedy bot decode each one they meet. An int that is no
        canonical set code (a zero digit, or types out of order, which would
        name the same cards as another action) decodes to the types ``(-1,)``,
        which no hand holds, so the engine's hand check rejects it for free.
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
            if types != sorted(types) or (types and types[0] < 0):
                types = [-1]
            found = (value, tuple(types))
            if len(self._decoded) > _CACHE_LIMIT:
                self._decoded.clear()
            self._decoded[action] = found
        return found

    # -- text -------------------------------------------------------------------

    def action_to_string(self, action: int) -> str:
        """Short text of ``action``, e.g. ``set 5: 3B 3H 5W 5W 5G`` or ``wheel 5>1x3``."""
        if action >= SET_BASE:
            value, types = self.decode_set(action)
            if types and types[0] < 0:
                return f"invalid set code {action}"
            text = f"set {value}: " + " ".join(map(self.type_name, types))
            if value and len(types) < value:  # all-in: the filler it still takes (F4)
                text += f" +{value - len(types)}"
            return text
        if action >= WHEEL_BASE:
            s, t, c = decode_wheel(action)
            return f"wheel {s}>{t}x{c}"
        if action == WHEEL_DECLINE:
            return "decline"
        if action >= FILL_BASE:
            return f"fill {action - FILL_BASE}"
        if action >= DISCARD_BASE:
            return f"discard {self.type_name(action - DISCARD_BASE)}"
        return f"pass {self.type_name(action - PASS_BASE)}"

    def parse_action(self, text: str) -> int:
        """The action whose :meth:`action_to_string` is ``text``.

        Checks the syntax only (the state checks legality); raises
        :class:`IllegalAction` with the reason on text that names no action.
        """
        words = text.split()
        try:
            if not words:
                raise ValueError("empty action text")
            head, args = words[0], words[1:]
            if head in ("pass", "discard") and len(args) == 1:
                base = PASS_BASE if head == "pass" else DISCARD_BASE
                return base + self.parse_type(args[0])
            if head == "fill" and len(args) == 1 and args[0].isdigit():
                slot = int(args[0])
                if 1 <= slot <= NUM_SLOTS:
                    return FILL_BASE + slot
            if head == "decline" and not args:
                return WHEEL_DECLINE
            if head == "wheel" and len(args) == 1:
                match = _WHEEL_TEXT.fullmatch(args[0])
                if match:
                    s, t, c = map(int, match.groups())
                    if s <= NUM_SLOTS and t <= NUM_SLOTS and c < 1_000:
                        return wheel_action(s, t, c)
            if head == "set" and args and args[0].endswith(":"):
                return self._parse_set(args)
        except ValueError as exc:
            raise IllegalAction(f"fortuna: cannot read action {text!r}: {exc}") from None
        raise IllegalAction(f"fortuna: cannot read action {text!r} (expected e.g. 'pass 4B', "
                            f"'discard 4B', 'fill 2', 'decline', 'wheel 5>1x3', "
                            f"'set 3: 3B 3W 3H')")

    def _parse_set(self, args: Sequence[str]) -> int:
        """The set action of ``["X:", card, …, ("+n")]`` (ValueError if malformed)."""
        head = args[0][:-1]
        if not (head.isdigit() and int(head) <= MAX_VALUE):
            raise ValueError(f"set value {head!r}: expected 0–{MAX_VALUE}")
        value = int(head)
        cards = list(args[1:])
        filler = None  # the "+n" may be left out; when given it must be right
        if cards and cards[-1].startswith("+"):
            if not cards[-1][1:].isdigit():
                raise ValueError(f"{cards[-1]!r}: expected +<filler count>")
            filler = int(cards.pop()[1:])
        types = [self.parse_type(c) for c in cards]
        if not 1 <= len(types) <= MAX_VALUE:
            raise ValueError(f"a set holds 1–{MAX_VALUE} hand cards")
        if filler is not None and filler != max(0, value - len(types)):
            raise ValueError(f"a set of {value} from {len(types)} hand cards takes "
                             f"{max(0, value - len(types))} filler cards, not {filler}")
        return self.set_action(value, types)
