"""Known answers for named card sizes and length units (``pnp.sizes``, ``pnp.units``).

The expected sizes are ../shared/REFERENCE.md's ("Card and paper sizes"),
in points worked out by hand (1 in = 72 pt = 25.4 mm), not read back from
the table under test: a hand mutation of the mini euro size survived the
whole suite before.
"""

from __future__ import annotations

from typing import Callable

import pytest

from pnp.errors import PnpError
from pnp.sizes import parse_size
from pnp.units import parse_length

PT_PER_MM = 72 / 25.4


@pytest.mark.parametrize("name, mm_w, mm_h", [
    ("poker", 63, 88),            # the common metric variant
    ("poker_us", 63.5, 88.9),     # 2.5 x 3.5 in
    ("bridge", 57.2, 88.9),       # 2.25 x 3.5 in
    ("tarot", 69.9, 120.7),
    ("mini_euro", 44, 67),
    ("euro", 59, 92),
])
def test_named_card_sizes_are_the_reference_sizes(name: str, mm_w: float, mm_h: float) -> None:
    w, h = parse_size(name)
    assert (w, h) == (pytest.approx(mm_w * PT_PER_MM), pytest.approx(mm_h * PT_PER_MM))


def test_us_poker_is_two_and_a_half_by_three_and_a_half_inches() -> None:
    assert parse_size("poker_us") == (pytest.approx(180.0), pytest.approx(252.0))
    assert parse_size(" Poker_US ") == parse_size("poker_us")     # names ignore case and spaces


@pytest.mark.parametrize("text, points", [
    ("1in", 72.0), ("25.4mm", 72.0), ("2.54cm", 72.0), ("300px", 72.0), ("12pt", 12.0),
    ("12", 12.0), (" .5in ", 36.0), ("-3mm", -3 * PT_PER_MM),
])
def test_lengths_in_every_unit(text: str, points: float) -> None:
    assert parse_length(text) == pytest.approx(points)


def test_percentages_and_default_units() -> None:
    assert parse_length("50%", relative_to=200.0) == pytest.approx(100.0)
    assert parse_length("10", default_unit="mm") == pytest.approx(10 * PT_PER_MM)
    assert parse_length(2, default_unit="in") == pytest.approx(144.0)
    # a "W x H" size reads bare numbers as millimetres
    assert parse_size("63 x 88") == (pytest.approx(63 * PT_PER_MM), pytest.approx(88 * PT_PER_MM))
    assert parse_size("2.5in×3.5in") == (pytest.approx(180.0), pytest.approx(252.0))


@pytest.mark.parametrize("call", [
    lambda: parse_length("10 furlongs"),
    lambda: parse_length("50%"),                     # a percentage of nothing
    lambda: parse_length("1e3mm"),
    lambda: parse_size("jumbo"),
])
def test_bad_lengths_and_sizes_are_pnp_errors(call: Callable[[], object]) -> None:
    with pytest.raises(PnpError):
        call()
