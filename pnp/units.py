"""Length units: parse "63mm", "2.5in", "12pt", "50%" into PDF points (no eval)."""

from __future__ import annotations

import re

from pnp.errors import PnpError

#: Points per unit. 1 in = 72 pt = 25.4 mm.
POINTS_PER: dict[str, float] = {
    "pt": 1.0,
    "in": 72.0,
    "mm": 72.0 / 25.4,
    "cm": 720.0 / 25.4,
    "px": 72.0 / 300.0,  # print-service pixels are 300 dpi
}

_LENGTH = re.compile(r"^\s*(-?(?:\d+(?:\.\d*)?|\.\d+))\s*(mm|cm|in|pt|px|%)?\s*$")


def parse_length(text: str | float | int, *, relative_to: float | None = None,
                 default_unit: str = "pt", what: str = "length") -> float:
    """Return ``text`` converted to points.

    Numbers without a unit use ``default_unit``. A percentage needs
    ``relative_to`` (the reference length in points).
    """
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return float(text) * POINTS_PER[default_unit]
    match = _LENGTH.match(str(text))
    if not match:
        raise PnpError(f"bad {what} {text!r}: expected a number with a unit "
                       f"(mm, cm, in, pt, px or %), e.g. '63mm'")
    value = float(match.group(1))
    unit = match.group(2) or default_unit
    if unit == "%":
        if relative_to is None:
            raise PnpError(f"bad {what} {text!r}: a percentage is not allowed here")
        return value / 100.0 * relative_to
    return value * POINTS_PER[unit]


def unitless(text: str) -> bool:
    """True if ``text`` is a length without a unit, a bare number such as ``"3"``."""
    match = _LENGTH.match(text)
    return match is not None and match.group(2) is None


def mm(value: float) -> float:
    """Return ``value`` millimetres in points."""
    return value * POINTS_PER["mm"]


def to_mm(points: float) -> float:
    """Return ``points`` in millimetres."""
    return points / POINTS_PER["mm"]
