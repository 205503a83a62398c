"""Known answers for colour values and the Jinja colour filters (``pnp.render.colors``).

Every expected value is worked out by hand from the CSS colour rules; a hand
mutation that stopped reading ``transparent`` as no paint survived the suite
before.
"""

from __future__ import annotations

import pytest

from pnp.errors import PnpError
from pnp.render.colors import CURRENT_COLOR, darken, lighten, mix, parse_color, to_hex


@pytest.mark.parametrize("text, rgb", [
    ("#000", (0.0, 0.0, 0.0)),
    ("#fA0", (1.0, 0xAA / 255, 0.0)),            # #rgb doubles each digit: #ffaa00
    ("#1a2B3c", (0x1A / 255, 0x2B / 255, 0x3C / 255)),
    ("gold", (1.0, 0xD7 / 255, 0.0)),            # CSS gold is #ffd700
    (" Grey ", (0x80 / 255,) * 3),
])
def test_colours_parse_to_rgb(text: str, rgb: tuple[float, float, float]) -> None:
    assert parse_color(text) == pytest.approx(rgb)


@pytest.mark.parametrize("text", ["none", "transparent", "NONE", "Transparent"])
def test_no_paint(text: str) -> None:
    assert parse_color(text) is None


def test_current_colour_in_any_case() -> None:
    assert parse_color("currentColor") == CURRENT_COLOR == parse_color("CURRENTCOLOR")


@pytest.mark.parametrize("text", ["#12", "#12345", "#ggg", "rgb(1,2,3)", "", "blu"])
def test_bad_colours_are_pnp_errors(text: str) -> None:
    with pytest.raises(PnpError, match="bad colour"):
        parse_color(text)


def test_filters_mix_towards_white_black_and_another_colour() -> None:
    """lighten 0.5 of #204060 is halfway to white; darken halfway to black; mix the mean."""
    assert lighten("#204060", 0.5) == "#90a0b0"
    assert darken("#204060", 0.5) == "#102030"
    assert mix("#000000", "#ffffff") == "#808080"    # 127.5 rounds to 128
    assert mix("#ff0000", "#0000ff", 0.25) == "#bf0040"
    assert to_hex((1.2, -0.1, 0.5)) == "#ff0080"      # clamped, 127.5 rounds to 128
    with pytest.raises(PnpError, match="lighten: 'none' is not a colour"):
        lighten("none")
