"""Fortune Clover action encoding and its text form.

Actions are ints in three disjoint ranges, so one int means one move in every
state where it is legal:

* ``c`` (0 ≤ c < 100): play card ``c`` to the trick (phases lead/follow);
* ``100 + c``: choose card ``c`` as the exchange discard (ruling C2);
* ``1000 + a·100 + b`` with ``a < b``: choose cards ``a`` and ``b`` to pass to
  the left neighbour (ruling C2); one action per pair, so every pair is one
  decision and no pair is reachable twice.

Card ids are indices into the deck table (``deck.csv`` order). Text forms use
the card names (suit symbol + rank): ``play ♠Q``, ``discard ♥3``,
``pass ♠Q ♥3`` (the two cards in id order).
"""

from __future__ import annotations

from typing import Mapping, Sequence

from pnp.games.api import IllegalAction

PLAY_BASE = 0
DISCARD_BASE = 100
PASS_BASE = 1000
#: Multiplier of the first card of a pass pair.
PASS_STRIDE = 100
#: Most cards a deck may hold for this encoding.
MAX_CARDS = 100


def play_action(card: int) -> int:
    """The action playing ``card``."""
    return PLAY_BASE + card


def discard_action(card: int) -> int:
    """The action choosing ``card`` as the exchange discard."""
    return DISCARD_BASE + card


def pass_action(a: int, b: int) -> int:
    """The action passing cards ``a`` and ``b`` (any order) to the left."""
    if a > b:
        a, b = b, a
    return PASS_BASE + a * PASS_STRIDE + b


def decode_pass(action: int) -> tuple[int, int]:
    """The two cards ``(a, b)``, ``a < b``, of a pass action."""
    return divmod(action - PASS_BASE, PASS_STRIDE)


def action_text(action: int, names: Sequence[str]) -> str:
    """Short text of ``action`` given the card names by id."""
    if PASS_BASE <= action:
        a, b = decode_pass(action)
        if a < len(names) and b < len(names):
            return f"pass {names[a]} {names[b]}"
    elif DISCARD_BASE <= action < DISCARD_BASE + len(names):
        return f"discard {names[action - DISCARD_BASE]}"
    elif 0 <= action < len(names):
        return f"play {names[action]}"
    return f"action {action}"


def text_action(text: str, ids: Mapping[str, int]) -> int:
    """The action whose :func:`action_text` is ``text`` (its inverse).

    Raises :class:`IllegalAction` on text that names no action.
    """
    parts = text.split()
    try:
        if len(parts) == 2 and parts[0] == "play":
            return play_action(ids[parts[1]])
        if len(parts) == 2 and parts[0] == "discard":
            return discard_action(ids[parts[1]])
        if len(parts) == 3 and parts[0] == "pass" and parts[1] != parts[2]:
            return pass_action(ids[parts[1]], ids[parts[2]])
    except KeyError as exc:
        raise IllegalAction(f"fortune_clover: unknown card {exc.args[0]!r} in {text!r}") from None
    raise IllegalAction(f"fortune_clover: cannot read action {text!r} "
                        "(expected 'play ♠Q', 'discard ♥3' or 'pass ♠Q ♥3')")
