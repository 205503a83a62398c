"""Numbers in markup and icons that would break the PDF, or mirror a shape, are one-line errors.

Python's ``float()`` reads ``nan``, ``inf`` and ``1e400``: before these
checks such values went into the PDF's drawing operators as they were
(a file readers refuse), a negative width mirrored a box, and ``nan`` as a
line-height or letter-spacing ended in a traceback.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from pnp.errors import PnpError
from pnp.render.nodes import Shape
from pnp.render.pathdata import MAX_COORD, parse_path


def _error(card, body: str) -> str:
    """The one-line message rendering ``body`` raises."""
    with pytest.raises(PnpError) as info:
        card(body)
    message = str(info.value)
    assert "\n" not in message
    # the card and its template line come first
    assert message.startswith("test/card c-1: templates/test/"), message
    return message


@pytest.mark.parametrize("body,needle", [
    ('<rect x="nan" y="0" width="3" height="3" fill="#000"/>',
     "<rect>: bad length 'nan': expected a number between -1000000 and 1000000"),
    ('<rect x="1e308" y="0" width="3" height="3" fill="#000"/>', "bad length '1e308'"),
    # the limit is 1000000 mm (a card's plain numbers): the message said no unit
    ('<rect x="3000000pt" y="0" width="3" height="3" fill="#000"/>',
     "bad length '3000000pt': expected a number between -1000000 and 1000000 mm"),
    ('<ellipse cx="3" cy="3" rx="inf" ry="3" fill="#000"/>', "bad length 'inf'"),
    ('<rect x="0" y="0" width="3" height="3" stroke="#000" stroke-width="nan"/>',
     "bad length 'nan'"),
    ('<path d="M0 0 L 1e400 3" stroke="#000"/>',
     "<path>: bad path data 'M0 0 L 1e400 3': a coordinate reaches inf"),
    ('<path d="M0 0 l 900000 0 l 900000 0" stroke="#000"/>', "a coordinate reaches 1.8e+06"),
    ('<polygon points="0,0 1e9,3 3,3" fill="#000"/>', "bad number 1e+09"),
    ('<g transform="scale(nan)"><rect width="3" height="3" fill="#000"/></g>',
     "<g>: bad transform 'scale(nan)': expected finite values"),
    ('<g transform="skewX(90)"><rect width="3" height="3" fill="#000"/></g>',
     "bad transform 'skewX(90)'"),
    ('<rect x="0" y="0" width="-3" height="3" fill="#000"/>',
     "<rect>: bad width '-3': expected a length ≥ 0"),
    ('<circle cx="3" cy="3" r="-3" fill="#000"/>', "<circle>: bad r '-3': expected a length ≥ 0"),
    ('<text x="0" y="0" width="-10" height="10">hi</text>', "<text>: bad width '-10'"),
    ('<icon name="gem" x="0" y="0" width="5" height="-5"/>', "<icon>: bad height '-5'"),
    ('<text width="10" height="10" line-height="nan">hi</text>', "bad line-height 'nan'"),
    ('<text width="10" height="10" line-height="-1">hi</text>', "bad line-height '-1'"),
    ('<text width="10" height="10" letter-spacing="nan">hi</text>', "bad letter-spacing 'nan'"),
    # it said "bad size/min-size '0'/None"
    ('<text width="10" height="10" size="0">hi</text>',
     "<text>: bad size '0': expected a size above 0, e.g. 9pt"),
    ('<text width="10" height="10" max-lines="0">hi</text>',
     "bad max-lines '0': expected a whole number ≥ 1"),
    ('<rect width="3" height="3" stroke="#000" stroke-width="-1"/>', "bad stroke-width '-1'"),
    ('<rect width="3" height="3" stroke="#000" stroke-dasharray="-1 2"/>',
     "bad stroke-dasharray '-1 2'"),
    ('<rect width="3" height="3" stroke="#000" stroke-dasharray="0 0"/>',
     "bad stroke-dasharray '0 0'"),
])
def test_bad_numbers_in_a_template_are_one_line(card, body: str, needle: str) -> None:
    assert needle in _error(card, body)


@pytest.mark.parametrize("svg,needle", [
    ('<svg viewBox="0 0 1e308 1e308"><circle r="1"/></svg>', "bad viewBox '0 0 1e308 1e308'"),
    ('<svg width="nan" height="3"><circle r="1"/></svg>', "bad width/height 'nan'/'3'"),
    ('<svg viewBox="0 0 24 24">\n<circle cx="nan" cy="1" r="3"/></svg>',
     "bolt.svg line 2 <circle>: bad length 'nan'"),
    ('<svg viewBox="0 0 24 24"><rect width="-3" height="4"/></svg>', "<rect>: bad width '-3'"),
    ('<svg viewBox="0 0 24 24"><path d="M1 1 A 1e308 1e308 0 1 1 5 5"/></svg>',
     "bad path data 'M1 1 A 1e308 1e308 0 1 1 5 5': a coordinate reaches"),
])
def test_bad_numbers_in_an_icon_name_the_icon_and_the_card(card, templates: Path, svg: str,
                                                           needle: str) -> None:
    (templates / "test" / "icons" / "bolt.svg").write_text(svg, encoding="utf-8")
    message = _error(card, '<icon name="bolt" width="10" height="10"/>')
    assert "<icon>: icon file" in message and needle in message, message


def test_sizes_at_zero_and_negative_positions_still_draw(card) -> None:
    """What the checks must not refuse: 0 sizes, and shapes running into the bleed."""
    lay = card('<rect x="-3" y="-1e3" width="0" height="94" fill="#000"/>'
               '<circle cx="-2" cy="3" r="0" fill="#000"/>'
               '<text width="10" height="10" letter-spacing="-0.05em" line-height="0.9">hi</text>'
               '<rect width="3" height="3" stroke="#000" stroke-dasharray="0 1"/>')
    first = lay.nodes[0]
    assert isinstance(first, Shape) and first.bbox[1] == pytest.approx(-1e3 * 72 / 25.4)


def test_path_data_in_messages_is_cut_short() -> None:
    """A long path is quoted by its start and its length, not whole on the one line."""
    d = "M0 0 " + "L1 1 " * 1000 + "L 1e400 0"
    with pytest.raises(PnpError) as info:
        parse_path(d)
    assert len(str(info.value)) < 250 and f"({len(d)} characters)" in str(info.value)


def test_the_largest_coordinate_is_allowed() -> None:
    ops = parse_path(f"M0 0 L {MAX_COORD:.0f} {-MAX_COORD:.0f}")
    assert ops[-1] == ("L", MAX_COORD, -MAX_COORD) and not math.isnan(ops[-1][1])


@pytest.mark.parametrize("size,needle", [
    ('width="0" height="88mm"', "<card>: bad card width '0': expected a length above 0"),
    ('width="63mm" height="-88mm"', "<card>: bad card height '-88mm': expected a length above 0"),
    # 500 for 5: the art was drawn far outside every sheet's cutting area, without a word
    ('width="63mm" height="88mm" bleed="500mm"',
     "<card>: bad bleed '500mm': expected a length from 0 to the card's smaller side"),
    ('width="63mm" height="88mm" bleed="-1"', "<card>: bad bleed '-1'"),
    # no bleed attribute: the default 3mm is too big for a 2mm card (was a KeyError)
    ('width="2mm" height="2mm"',
     "<card>: bad bleed '3mm (the default)': expected a length from 0 to the card's smaller"),
])
def test_bad_card_sizes_name_the_value(card, size: str, needle: str) -> None:
    with pytest.raises(PnpError) as info:
        card('<rect width="3" height="3" fill="#000"/>', size=size)
    assert needle in str(info.value) and "\n" not in str(info.value)
