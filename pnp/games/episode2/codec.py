"""Action encoding of 第2話: stable ints for every move, and their short texts.

Every action is an int that means the same move in any state where it is
legal (``N`` = number of player cards, 35 with the shipped data; card ids
``0 … N−1`` index ``player.csv`` in table order):

=====================  ==================  ==========================================
range                  text                move
=====================  ==================  ==========================================
``0``                  ``roll``            roll the attack dice (closes the window
                                           opened by ``attack … then discard``)
``1``                  ``take damage``     record the failed roll's damage (E4)
``2``                  ``end run``         let the run end with a ♦ still in hand
                                           (ruling E6a)
``8 + c``              ``attack ♠7``       put attack card c in the pool, refill,
                                           and roll at once, passing on the
                                           window's discards (E4, 2-2-6)
``8 + N + c``          ``attack ♠7 then    put attack card c in the pool, refill,
                       discard``           and stay in the window to discard
                                           before rolling (phase ``pre_roll``)
``8 + 2N + c``         ``heal ♥3``         heal with ♥ card c (E2)
``8 + 3N + c``         ``retreat with ♦4`` spend ♦ card c to retreat (E2)
``8 + 4N + 64c + m``   ``reroll 1,3 with   spend ♦ card c to reroll the dice whose
                       ♦4``                positions (1-based) are the bits of
                                           m, 1 ≤ m < 64 (E2)
``8 + 68N + b``        ``discard ♠7 ♥3``   discard the cards whose ids are the set
                                           bits of b and refill the hand (E5)
=====================  ==================  ==========================================

The window right after an attack card is placed (2-2-6) is folded into the
attack: a player who does not want to discard there rolls at once, so the
common case is one decision, not two (ruling E5d). ``then discard`` is
offered only while the deck can refill a discard.

Discards name the cards themselves (a bit mask over card ids), not hand
positions, so an int never changes meaning when the hand is re-sorted. Dice
masks have room for six dice (the ``attack_dice`` parameter's maximum).
"""

from __future__ import annotations

from typing import Sequence

from pnp.games.api import NotationError

ROLL = 0
TAKE_DAMAGE = 1
END_RUN = 2
#: First card-carrying action.
BASE = 8
#: Reroll masks per ♦ card (six dice at most).
MASKS = 64

#: Texts of the three card-less actions.
FIXED_TEXT: dict[int, str] = {ROLL: "roll", TAKE_DAMAGE: "take damage", END_RUN: "end run"}

#: ASCII letters accepted for the suit symbols when reading card names.
SUIT_ALIASES: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


class Codec:
    """Encoder/decoder of one game's actions (the layout depends on the card count)."""

    __slots__ = ("n", "attack", "hold", "heal", "retreat", "reroll", "discard", "names",
                 "index")

    def __init__(self, names: Sequence[str]) -> None:
        """Lay out the action blocks for the player cards named ``names`` (by id)."""
        n = len(names)
        self.n = n
        self.attack = BASE
        self.hold = BASE + n
        self.heal = BASE + 2 * n
        self.retreat = BASE + 3 * n
        self.reroll = BASE + 4 * n
        self.discard = BASE + 4 * n + MASKS * n
        self.names: tuple[str, ...] = tuple(names)
        self.index: dict[str, int] = {name: i for i, name in enumerate(names)}
        for name, i in list(self.index.items()):
            for letter, symbol in SUIT_ALIASES.items():
                if name.startswith(symbol):
                    self.index.setdefault(letter + name[len(symbol):], i)

    # ------------------------------------------------------------- encoding
    def reroll_action(self, card: int, mask: int) -> int:
        """The action spending ♦ ``card`` to reroll the dice in ``mask``."""
        return self.reroll + MASKS * card + mask

    def discard_action(self, cards: Sequence[int]) -> int:
        """The action discarding ``cards`` (distinct card ids)."""
        bits = 0
        for c in cards:
            bits |= 1 << c
        return self.discard + bits

    def decode(self, action: int) -> tuple[str, int, int]:
        """``(kind, card, mask)`` of ``action``; kind is one of ``fixed``,
        ``attack``, ``hold``, ``heal``, ``retreat``, ``reroll``, ``discard``, ``bad``.

        For ``discard`` the card field is the bit mask of discarded card ids.
        """
        if action < 0:
            return "bad", -1, 0
        if action < BASE:
            return ("fixed", action, 0) if action in FIXED_TEXT else ("bad", -1, 0)
        if action < self.hold:
            return "attack", action - self.attack, 0
        if action < self.heal:
            return "hold", action - self.hold, 0
        if action < self.retreat:
            return "heal", action - self.heal, 0
        if action < self.reroll:
            return "retreat", action - self.retreat, 0
        if action < self.discard:
            card, mask = divmod(action - self.reroll, MASKS)
            return ("reroll", card, mask) if mask else ("bad", -1, 0)
        bits = action - self.discard
        if bits <= 0 or bits >> self.n:
            return "bad", -1, 0
        return "discard", bits, 0

    # ----------------------------------------------------------------- text
    def to_string(self, action: int) -> str:
        """Short text of ``action`` (e.g. ``attack ♠7``, ``reroll 1,3 with ♦4``)."""
        kind, card, mask = self.decode(action)
        names = self.names
        if kind == "fixed":
            return FIXED_TEXT[card]
        if kind == "attack":
            return f"attack {names[card]}"
        if kind == "hold":
            return f"attack {names[card]} then discard"
        if kind == "heal":
            return f"heal {names[card]}"
        if kind == "retreat":
            return f"retreat with {names[card]}"
        if kind == "reroll":
            dice = ",".join(str(i + 1) for i in range(6) if mask >> i & 1)
            return f"reroll {dice} with {names[card]}"
        if kind == "discard":
            return "discard " + " ".join(names[c] for c in range(self.n) if card >> c & 1)
        return f"<bad action {action}>"

    def card(self, name: str) -> int:
        """Card id of ``name`` (``♠7``; ASCII ``S7`` is accepted); NotationError if unknown."""
        try:
            return self.index[name]
        except KeyError:
            raise NotationError(f"unknown player card {name!r}") from None

    def from_string(self, text: str) -> int:
        """The action whose :meth:`to_string` is ``text``; NotationError if malformed."""
        words = text.split()
        if not words:
            raise NotationError("empty action text")
        joined = " ".join(words)
        for action, fixed in FIXED_TEXT.items():
            if joined == fixed:
                return action
        head = words[0]
        if head in ("attack", "heal") and len(words) == 2:
            return (self.attack if head == "attack" else self.heal) + self.card(words[1])
        if head == "attack" and words[2:] == ["then", "discard"]:
            return self.hold + self.card(words[1])
        if head == "retreat" and len(words) == 3 and words[1] == "with":
            return self.retreat + self.card(words[2])
        if head == "reroll" and len(words) == 4 and words[2] == "with":
            mask = 0
            for part in words[1].split(","):
                if not part.isdigit() or not 1 <= int(part) <= 6:
                    raise NotationError(f"bad die position {part!r} in {text!r}")
                bit = 1 << (int(part) - 1)
                if mask & bit:
                    raise NotationError(f"die {part} named twice in {text!r}")
                mask |= bit
            return self.reroll_action(self.card(words[3]), mask)
        if head == "discard" and len(words) >= 2:
            cards = [self.card(w) for w in words[1:]]
            if len(set(cards)) != len(cards):
                raise NotationError(f"a card is named twice in {text!r}")
            return self.discard_action(cards)
        raise NotationError(f"unreadable action {text!r}")
