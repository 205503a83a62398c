"""Colours for the markup: ``#rgb``/``#rrggbb``, a few names, ``none``, gradients."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from pnp.errors import PnpError

#: An RGB colour with components in 0..1.
RGB = tuple[float, float, float]

#: Sentinel for SVG's ``currentColor``: resolved when an icon is drawn.
CURRENT_COLOR = "currentColor"

#: The small set of colour names the markup accepts (CSS names, same values).
NAMED: dict[str, str] = {
    "black": "#000000", "white": "#ffffff", "red": "#ff0000", "green": "#008000",
    "blue": "#0000ff", "yellow": "#ffff00", "orange": "#ffa500", "purple": "#800080",
    "gray": "#808080", "grey": "#808080", "silver": "#c0c0c0", "gold": "#ffd700",
    "navy": "#000080", "maroon": "#800000", "teal": "#008080", "olive": "#808000",
    "brown": "#a52a2a", "pink": "#ffc0cb", "cyan": "#00ffff", "magenta": "#ff00ff",
}

_HEX = re.compile(r"^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
_GRADIENT = re.compile(r"^\s*linear-gradient\((.*)\)\s*$", re.S)


@dataclass(frozen=True, slots=True)
class Gradient:
    """A CSS-style linear gradient across a shape's bounding box.

    ``angle`` follows CSS: 0 = towards the top, 90 = towards the right,
    180 (default) = towards the bottom. ``stops`` are (offset 0..1, colour).
    """

    angle: float
    stops: tuple[tuple[float, RGB], ...]


def _hex_to_rgb(text: str) -> RGB:
    """Return the RGB triple of ``#rgb`` or ``#rrggbb``."""
    h = text[1:]
    if len(h) == 3:
        h = "".join(ch * 2 for ch in h)
    return (int(h[0:2], 16) / 255.0, int(h[2:4], 16) / 255.0, int(h[4:6], 16) / 255.0)


@lru_cache(maxsize=4096)
def parse_color(text: str) -> RGB | str | None:
    """Return an RGB triple, ``CURRENT_COLOR``, or None for ``none``.

    Raises PnpError for anything else.
    """
    t = text.strip()
    low = t.lower()
    if low in ("none", "transparent"):
        return None
    if low == "currentcolor":
        return CURRENT_COLOR
    if low in NAMED:
        return _hex_to_rgb(NAMED[low])
    if _HEX.match(t):
        return _hex_to_rgb(t)
    raise PnpError(f"bad colour {text!r}: expected #rgb, #rrggbb, a colour name, "
                   f"'none' or 'currentColor'")


@lru_cache(maxsize=1024)
def parse_paint(text: str) -> RGB | str | Gradient | None:
    """Return a colour (as :func:`parse_color`) or a :class:`Gradient`."""
    m = _GRADIENT.match(text)
    if not m:
        return parse_color(text)
    parts = [p.strip() for p in m.group(1).split(",")]
    angle = 180.0
    if parts and parts[0].endswith("deg"):
        try:
            angle = float(parts[0][:-3])
        except ValueError:
            raise PnpError(f"bad gradient angle {parts[0]!r} in {text!r}: "
                           f"expected e.g. '90deg'") from None
        parts = parts[1:]
    if len(parts) < 2:
        raise PnpError(f"bad gradient {text!r}: expected at least two colours, "
                       f"e.g. 'linear-gradient(180deg, #c33, #600)'")
    stops: list[tuple[float, RGB]] = []
    for i, part in enumerate(parts):
        bits = part.split()
        if len(bits) == 2 and bits[1].endswith("%"):
            try:
                offset = float(bits[1][:-1]) / 100.0
            except ValueError:
                raise PnpError(f"bad gradient stop {part!r} in {text!r}") from None
        elif len(bits) == 1:
            offset = i / (len(parts) - 1)
        else:
            raise PnpError(f"bad gradient stop {part!r} in {text!r}: "
                           f"expected 'COLOUR' or 'COLOUR 40%'")
        color = parse_color(bits[0])
        if not isinstance(color, tuple):
            raise PnpError(f"bad gradient stop {part!r} in {text!r}: "
                           f"a gradient needs real colours")
        stops.append((min(1.0, max(0.0, offset)), color))
    return Gradient(angle, tuple(stops))


def to_hex(rgb: RGB) -> str:
    """Return ``#rrggbb`` for an RGB triple."""
    return "#" + "".join(f"{round(max(0.0, min(1.0, c)) * 255):02x}" for c in rgb)


def _rgb_arg(color: str, what: str) -> RGB:
    """Parse a real colour for the Jinja colour filters."""
    try:
        rgb = parse_color(str(color))
    except PnpError as exc:
        raise PnpError(f"{what}: {exc.message}") from None
    if not isinstance(rgb, tuple):
        raise PnpError(f"{what}: {color!r} is not a colour (expected #rrggbb)")
    return rgb


def lighten(color: str, amount: float = 0.2) -> str:
    """Jinja filter: mix ``color`` with white by ``amount`` (0..1)."""
    r, g, b = _rgb_arg(color, "lighten")
    a = float(amount)
    return to_hex((r + (1 - r) * a, g + (1 - g) * a, b + (1 - b) * a))


def darken(color: str, amount: float = 0.2) -> str:
    """Jinja filter: mix ``color`` with black by ``amount`` (0..1)."""
    r, g, b = _rgb_arg(color, "darken")
    a = 1.0 - float(amount)
    return to_hex((r * a, g * a, b * a))


def mix(color: str, other: str, amount: float = 0.5) -> str:
    """Jinja filter: blend ``color`` towards ``other`` by ``amount`` (0..1)."""
    r1, g1, b1 = _rgb_arg(color, "mix")
    r2, g2, b2 = _rgb_arg(other, "mix")
    a = float(amount)
    return to_hex((r1 + (r2 - r1) * a, g1 + (g2 - g1) * a, b1 + (b2 - b1) * a))
