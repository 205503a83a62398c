"""Undecim action encoding and its text form.

Actions are ints in disjoint ranges, so one int names one move in every state
where it is legal (``t`` = a distinct resource card, a row of
``resources.csv``; ``h`` = 0 top half up, 1 bottom half up; ``i`` = action
card index = number − 1; ``m`` = material index; ``s`` = settlement index in
the player's list, stable because settlements are never removed):

==========================  =====================================================
``2·t + h``   (0–127)        gain a card of type ``t`` from the hand (or the card
                             drawn at round start) with half ``h`` up (U3)
``200``                      mulligan: keep the hand
``201 + g·16 + k``           mulligan: give action ``g``, take ``k`` from the council
``500 + i``                  choose action ``i`` face down
``520 + i``                  pick action ``i`` from the council (phase 4)
``600 + k``   (k ≤ 100)      Red Moon Night: discard ``k`` enemies (U5)
``720 + k``   (k ≤ 10)       gold boost: discard ``k`` gold (U1d)
``800``                      builds: done (the rest of the allowance is not used)
``801 + 2·m + (n − 2)``      settle ``n`` (2 or 3) of material ``m`` (U4)
``820 + 8·a + b``  (a < b)   settle one each of materials ``a`` and ``b`` (U4)
``1000 + 10·s + m``          develop settlement ``s`` with material ``m``
``1000 + 10·s + 9``          develop settlement ``s`` with gold (U4)
``900 + j``                  campaign: scenario ``j`` takes the marker (U1h)
==========================  =====================================================

Text forms use the data's names: ``gain 石 of 草原/石``, ``keep``,
``swap 3 for 7``, ``choose 7``, ``pick 5``, ``discard 2 enemies``,
``spend 1 gold``, ``done``, ``settle 石+石``, ``settle 石+木``,
``develop #2 with 金`` (settlements numbered from 1), ``mark s2_a1``.
"""

from __future__ import annotations

import re
from typing import Sequence

from pnp.games.api import IllegalAction

GAIN_BASE = 0
MULL_KEEP = 200
MULL_BASE = 201
MULL_STRIDE = 16
CHOOSE_BASE = 500
PICK_BASE = 520
NIGHT_BASE = 600
BOOST_BASE = 720
BUILD_DONE = 800
SETTLE_SAME = 801
SETTLE_MIX = 820
MIX_STRIDE = 8
MARKER_BASE = 900
DEV_BASE = 1000
DEV_STRIDE = 10
#: The "material" code of a develop with gold.
DEV_GOLD = 9
#: Most settlements one player can be offered a develop for.
MAX_SETTLEMENTS = 500


def gain_action(t: int, half: int) -> int:
    """Gain a card of type ``t`` with half ``half`` (0 top, 1 bottom) up."""
    return GAIN_BASE + 2 * t + half


def swap_action(give: int, take: int) -> int:
    """Mulligan: give action card ``give``, take ``take`` from the council."""
    return MULL_BASE + give * MULL_STRIDE + take


def settle_same_action(m: int, size: int) -> int:
    """Settle ``size`` (2 or 3) cards of material ``m``."""
    return SETTLE_SAME + 2 * m + size - 2


def settle_mix_action(a: int, b: int) -> int:
    """Settle one card each of two different materials."""
    if a > b:
        a, b = b, a
    return SETTLE_MIX + MIX_STRIDE * a + b


def develop_action(s: int, m: int) -> int:
    """Develop settlement ``s`` with material ``m`` (``DEV_GOLD``: with gold)."""
    return DEV_BASE + DEV_STRIDE * s + m


class Namer:
    """Action text ↔ int for one game's names (types, kinds, materials)."""

    def __init__(self, type_names: Sequence[str], halves: Sequence[tuple[str, str]],
                 materials: Sequence[str], gold: str, scenario_ids: Sequence[str]) -> None:
        """``type_names[t]`` like ``草原/石``; ``halves[t]`` = (top name, bottom name)."""
        self.scenario_ids = list(scenario_ids)
        self.type_names = list(type_names)
        self.halves = list(halves)
        self.materials = list(materials)
        self.gold = gold
        self.gain_text = {f"gain {halves[t][h]} of {type_names[t]}": gain_action(t, h)
                          for t in range(len(type_names)) for h in (0, 1)}
        self.mat_index = {name: m for m, name in enumerate(materials)}

    def text(self, action: int) -> str:
        """Short text of ``action``."""
        if action < MULL_KEEP:
            t, h = divmod(action - GAIN_BASE, 2)
            if t < len(self.type_names):
                return f"gain {self.halves[t][h]} of {self.type_names[t]}"
        elif action == MULL_KEEP:
            return "keep"
        elif action < CHOOSE_BASE:
            g, k = divmod(action - MULL_BASE, MULL_STRIDE)
            return f"swap {g + 1} for {k + 1}"
        elif action < PICK_BASE:
            return f"choose {action - CHOOSE_BASE + 1}"
        elif action < NIGHT_BASE:
            return f"pick {action - PICK_BASE + 1}"
        elif action < BOOST_BASE:
            k = action - NIGHT_BASE
            return f"discard {k} enem{'y' if k == 1 else 'ies'}"
        elif action < BUILD_DONE:
            return f"spend {action - BOOST_BASE} gold"
        elif action == BUILD_DONE:
            return "done"
        elif action < SETTLE_MIX:
            m, extra = divmod(action - SETTLE_SAME, 2)
            if m < len(self.materials):
                return "settle " + "+".join([self.materials[m]] * (2 + extra))
        elif action < MARKER_BASE:
            a, b = divmod(action - SETTLE_MIX, MIX_STRIDE)
            if a < b < len(self.materials):
                return f"settle {self.materials[a]}+{self.materials[b]}"
        elif action < DEV_BASE:
            j = action - MARKER_BASE
            if j < len(self.scenario_ids):
                return f"mark {self.scenario_ids[j]}"
        else:
            s, m = divmod(action - DEV_BASE, DEV_STRIDE)
            if m == DEV_GOLD:
                return f"develop #{s + 1} with {self.gold}"
            if m < len(self.materials):
                return f"develop #{s + 1} with {self.materials[m]}"
        return f"action {action}"

    def action(self, text: str) -> int:
        """The action whose :meth:`text` is ``text``; IllegalAction if none."""
        if text in self.gain_text:
            return self.gain_text[text]
        if text == "keep":
            return MULL_KEEP
        if text == "done":
            return BUILD_DONE
        m = re.fullmatch(r"swap (\d+) for (\d+)", text)
        if m:
            return swap_action(int(m.group(1)) - 1, int(m.group(2)) - 1)
        m = re.fullmatch(r"(choose|pick) (\d+)", text)
        if m:
            base = CHOOSE_BASE if m.group(1) == "choose" else PICK_BASE
            return base + int(m.group(2)) - 1
        m = re.fullmatch(r"discard (\d+) enem(?:y|ies)", text)
        if m:
            return NIGHT_BASE + int(m.group(1))
        m = re.fullmatch(r"spend (\d+) gold", text)
        if m:
            return BOOST_BASE + int(m.group(1))
        m = re.fullmatch(r"settle (.+)", text)
        if m:
            parts = m.group(1).split("+")
            try:
                mats = [self.mat_index[p] for p in parts]
            except KeyError:
                mats = []
            if len(mats) in (2, 3) and len(set(mats)) == 1:
                return settle_same_action(mats[0], len(mats))
            if len(mats) == 2 and mats[0] != mats[1]:
                return settle_mix_action(mats[0], mats[1])
        m = re.fullmatch(r"mark (.+)", text)
        if m and m.group(1) in self.scenario_ids:
            return MARKER_BASE + self.scenario_ids.index(m.group(1))
        m = re.fullmatch(r"develop #(\d+) with (.+)", text)
        if m and int(m.group(1)) >= 1:
            s = int(m.group(1)) - 1
            name = m.group(2)
            if name == self.gold:
                return develop_action(s, DEV_GOLD)
            if name in self.mat_index:
                return develop_action(s, self.mat_index[name])
        raise IllegalAction(f"undecim: cannot read action {text!r}")
