"""Card shapes parsed once per distinct element: the same nodes as parsing each anew."""

from __future__ import annotations

import pytest

from pnp.errors import PnpError
from pnp.render import markup
from pnp.render.memo import BoundedMemo
from pnp.render.nodes import Group, Shape

MM = 72 / 25.4
FRAME = '<rect x="2" y="2" width="59" height="84" rx="3" stroke="#6b4f1d" fill="none"/>'


def test_a_frame_on_many_cards_is_parsed_once(card, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same element on two cards (two templates, other lines): parsed once, one node."""
    parsed: list[str] = []
    real = markup.Parser.shape

    def spy(self: markup.Parser, el: markup._El, inh: markup._Inh) -> Shape | None:
        parsed.append(el.tag)
        return real(self, el, inh)

    monkeypatch.setattr(markup, "_PARSED", BoundedMemo(markup._PARSED.limit,
                                                       markup._PARSED.size_of))
    monkeypatch.setattr(markup.Parser, "shape", spy)
    first = card(FRAME).nodes[0]
    second = card(f"<!-- another line -->\n{FRAME}").nodes[0]
    assert isinstance(first, Shape)
    assert second is first
    assert parsed == ["rect"]


def test_inherited_settings_are_part_of_the_shape(card) -> None:
    """The same rect under groups of other colours, opacities and strokes differs."""
    body = '<g fill="{fill}" opacity="{op}" stroke-width="{sw}"><rect x="1" y="1" ' \
           'width="5" height="5" stroke="#000"/></g>'
    red = card(body.format(fill="#ff0000", op="1", sw="0.25")).nodes[0].children[0]
    blue = card(body.format(fill="#0000ff", op="1", sw="0.25")).nodes[0].children[0]
    faint = card(body.format(fill="#0000ff", op="0.5", sw="0.25")).nodes[0].children[0]
    thick = card(body.format(fill="#0000ff", op="0.5", sw="1")).nodes[0].children[0]
    assert red.style.fill == (1.0, 0.0, 0.0)
    assert blue.style.fill == (0.0, 0.0, 1.0)
    assert faint.style.opacity == 0.5 and blue.style.opacity == 1.0
    assert thick.style.stroke_width == pytest.approx(MM)
    assert faint.style.stroke_width == pytest.approx(0.25 * MM)


def test_percentages_follow_the_card_size(card) -> None:
    """A width of 50 % on cards of two sizes: two shapes."""
    rect = '<rect x="0" y="0" width="50%" height="50%"/>'
    small = card(rect, size='width="40mm" height="40mm"').nodes[0]
    large = card(rect, size='width="80mm" height="80mm"').nodes[0]
    assert small.bbox == pytest.approx((0, 0, 20 * MM, 20 * MM))
    assert large.bbox == pytest.approx((0, 0, 40 * MM, 40 * MM))


def test_a_transform_is_kept_with_its_shape(card) -> None:
    """A transformed shape parsed before comes back as its group, transform and all."""
    body = '<circle cx="5" cy="5" r="2" transform="translate(10, 0)"/>'
    first = card(body).nodes[0]
    again = card(body).nodes[0]
    assert isinstance(first, Group) and first.transform is not None
    assert first.transform[4] == pytest.approx(10 * MM)
    assert again is first


def test_a_bad_shape_fails_on_every_card(card) -> None:
    """Only shapes that parsed are kept: a bad one is refused, with its line, each time."""
    bad = '<rect x="0" y="0" width="-4" height="5"/>'
    for _ in range(2):
        with pytest.raises(PnpError, match=r"t\d+\.xml\.j2:2 <rect>.*bad width"):
            card(bad)


def test_the_table_is_bounded(card, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past its limit the table starts again: memory stays flat however many shapes."""
    monkeypatch.setattr(markup, "_PARSED", BoundedMemo(3))
    card("".join(f'<circle cx="{i}" cy="5" r="1"/>' for i in range(1, 8)))
    assert 0 < len(markup._PARSED) <= 3
