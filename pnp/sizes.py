"""Named physical sizes of cards and papers (generic, not game-specific)."""

from __future__ import annotations

import re

from pnp.errors import PnpError
from pnp.units import parse_length

#: Card sizes in millimetres (width, height); see ../shared/REFERENCE.md.
CARD_SIZES_MM: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "poker_us": (63.5, 88.9),
    "bridge": (57.2, 88.9),
    "tarot": (69.9, 120.7),
    "mini_euro": (44.0, 67.0),
    "euro": (59.0, 92.0),
    "square": (70.0, 70.0),
}

_PAIR = re.compile(r"^\s*(\S+)\s*[x×]\s*(\S+)\s*$")


def parse_size(text: str, *, what: str = "size") -> tuple[float, float]:
    """Return (width, height) in points for a named size or ``"W x H"`` with units."""
    key = text.strip().lower()
    if key in CARD_SIZES_MM:
        w, h = CARD_SIZES_MM[key]
        return parse_length(f"{w}mm"), parse_length(f"{h}mm")
    match = _PAIR.match(text)
    if not match:
        names = ", ".join(CARD_SIZES_MM)
        raise PnpError(f"bad {what} {text!r}: expected one of {names} "
                       f"or 'W x H' such as '63mm x 88mm'")
    return (parse_length(match.group(1), default_unit="mm", what=what),
            parse_length(match.group(2), default_unit="mm", what=what))
