"""The shape memo's key (markup.Parser.shape_key): every input that shapes a node is in it.

Each case renders the same element twice under inputs that differ in one
key field only, with the memo on: the two nodes must differ. Dropping that
field from the key would hand the second card the first card's node.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

import pytest

from pnp.render import markup
from pnp.render.memo import BoundedMemo
from pnp.render.nodes import Group, Shape

RECT = '<rect x="5" y="5" width="20" height="10"/>'

#: Per key field: (group attributes of the first card, of the second, inner element).
CASES: dict[str, tuple[str, str, str]] = {
    "fill": ('fill="#ff0000"', 'fill="#00ff00"', RECT),
    "stroke": ('stroke="#ff0000"', 'stroke="#00ff00"', RECT),
    "stroke_width": ('stroke="#000" stroke-width="0.5"', 'stroke="#000" stroke-width="1"', RECT),
    "dash": ('stroke="#000" stroke-dasharray="1 1"', 'stroke="#000"', RECT),
    "join": ('stroke="#000" stroke-linejoin="round"', 'stroke="#000"', RECT),
    "cap": ('stroke="#000" stroke-linecap="round"', 'stroke="#000"', RECT),
    "evenodd": ('fill-rule="evenodd"', 'fill-rule="nonzero"', RECT),
    "opacity": ('opacity="0.5"', 'opacity="1"', RECT),
    "color": ('color="#ff0000"', 'color="#00ff00"',
              '<rect x="5" y="5" width="20" height="10" fill="currentColor"/>'),
}

#: Cards that differ in one dimension only, and an element sized by that one.
SIZES: dict[str, tuple[str, str, str]] = {
    "ref_w": ('width="63mm" height="88mm"', 'width="70mm" height="88mm"',
              '<rect x="5" y="5" width="50%" height="10"/>'),
    "ref_h": ('width="63mm" height="88mm"', 'width="63mm" height="100mm"',
              '<rect x="5" y="5" width="10" height="50%"/>'),
}

#: _Inh fields the key leaves out on purpose: shapes draw no text.
LEFT_OUT = {"font"}
#: A value other than the default for each _Inh field (a new field needs one here).
OTHER: dict[str, Any] = {
    "fill": (1.0, 0.0, 0.0), "stroke": (1.0, 0.0, 0.0), "stroke_width": 2.5,
    "dash": (1.0, 2.0), "join": 1, "cap": 2, "evenodd": True, "opacity": 0.5,
    "color": (0.0, 1.0, 0.0), "font": "display",
}


@pytest.fixture(autouse=True)
def fresh_memo(monkeypatch: pytest.MonkeyPatch) -> None:
    """A memo of this test's own (other tests' shapes cannot answer)."""
    monkeypatch.setattr(markup, "_PARSED", BoundedMemo(markup._PARSED.limit,
                                                       markup._PARSED.size_of))


def _shape(node: Any) -> Shape:
    """The one shape inside ``node`` (a group of one, or the shape itself)."""
    while isinstance(node, Group):
        (node,) = node.children
    assert isinstance(node, Shape)
    return node


@pytest.mark.parametrize("field", sorted(CASES))
def test_each_inherited_setting_separates_shapes(card: Callable[..., Any], field: str) -> None:
    """The same element under groups differing in one setting gives two different shapes."""
    first, second, inner = CASES[field]
    a = _shape(card(f"<g {first}>{inner}</g>").nodes[0])
    b = _shape(card(f"<g {second}>{inner}</g>").nodes[0])
    assert a != b
    assert len(markup._PARSED) == 2      # both parsed: the second was not a hit


@pytest.mark.parametrize("field", sorted(SIZES))
def test_percentages_follow_each_card_dimension(card: Callable[..., Any], field: str) -> None:
    """Cards differing in width only (or height only): a percentage length differs."""
    first, second, inner = SIZES[field]
    a = _shape(card(inner, size=first).nodes[0])
    b = _shape(card(inner, size=second).nodes[0])
    assert a.bbox != b.bbox


def _parser(**changes: Any) -> markup.Parser:
    """A strict card parser (63 x 88 mm), with ``changes`` to its fields."""
    fields: dict[str, Any] = dict(what="t", scale=markup.MM, ref_w=63 * markup.MM,
                                  ref_h=88 * markup.MM, strict=True)
    fields.update(changes)
    return markup.Parser(**fields)


def test_every_inherited_field_but_font_is_in_the_key() -> None:
    """Changing any _Inh field changes the key, except those left out on purpose.

    A field added to _Inh without a key entry fails here (or lacks a value in OTHER).
    """
    el = markup._El("rect", {"width": "5", "height": "5"}, 1)
    base = markup._Inh()
    key = _parser().shape_key(el, base)
    names = {f.name for f in dataclasses.fields(markup._Inh)}
    assert names <= set(OTHER), f"give the new _Inh field(s) {names - set(OTHER)} a value"
    for name in sorted(names):
        changed = _parser().shape_key(el, dataclasses.replace(base, **{name: OTHER[name]}))
        if name in LEFT_OUT:
            assert changed == key, name
        else:
            assert changed != key, f"_Inh.{name} is not in the shape memo's key"


@pytest.mark.parametrize("field", ["scale", "ref_w", "ref_h"])
def test_the_parsers_scale_and_size_are_in_the_key(field: str) -> None:
    """scale (always mm in strict mode: redundant, kept), ref_w and ref_h are in the key."""
    el = markup._El("rect", {"width": "50%", "height": "5"}, 1)
    base = _parser()
    other = _parser(**{field: getattr(base, field) * 2})
    assert base.shape_key(el, markup._Inh()) != other.shape_key(el, markup._Inh())
