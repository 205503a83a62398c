"""Markup parsing: units, shapes, groups, icons, images and strict checking."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image as PILImage

from pnp.errors import PnpError
from pnp.render.nodes import Group, IconUse, Image, Shape, Text

MM = 72 / 25.4


def test_card_size_and_default_bleed(card) -> None:
    lay = card('<rect x="0" y="0" width="1" height="1"/>')
    assert lay.width == pytest.approx(63 * MM)
    assert lay.height == pytest.approx(88 * MM)
    assert lay.bleed == pytest.approx(3 * MM)
    lay2 = card("", size='width="2.5in" height="3.5in" bleed="0.125in"')
    assert (lay2.width, lay2.height, lay2.bleed) == pytest.approx((180, 252, 9))


def test_units_in_attributes(card) -> None:
    lay = card('<rect x="10mm" y="1in" width="50%" height="10pt"/>'
               '<rect x="5" y="10%" width="1cm" height="25%"/>')
    r1, r2 = lay.nodes
    assert isinstance(r1, Shape) and isinstance(r2, Shape)
    assert r1.bbox == pytest.approx((10 * MM, 72, 10 * MM + 31.5 * MM, 72 + 10))
    # plain numbers are mm; % of width for x/width, of height for y/height
    assert r2.bbox == pytest.approx((5 * MM, 8.8 * MM, 15 * MM, 8.8 * MM + 22 * MM))


def test_negative_coordinates_run_into_the_bleed(card) -> None:
    lay = card('<rect x="-3" y="-3" width="69" height="94" fill="#ff0000"/>')
    assert lay.nodes[0].bbox[0] == pytest.approx(-3 * MM)


def test_background_covers_trim_plus_bleed(card) -> None:
    lay = card('<background fill="#123456"/>', size='width="60" height="80" bleed="2"')
    assert lay.nodes[0].bbox == pytest.approx((-2 * MM, -2 * MM, 62 * MM, 82 * MM))
    assert lay.nodes[0].style.fill == pytest.approx((0x12 / 255, 0x34 / 255, 0x56 / 255))


def test_rounded_rect_circle_and_styles(card) -> None:
    lay = card('<rect x="0" y="0" width="20" height="10" rx="2" fill="none" stroke="#000" '
               'stroke-width="0.5" stroke-dasharray="1 2" stroke-linejoin="round" '
               'stroke-linecap="square"/>'
               '<circle cx="10" cy="10" r="5" fill="red" opacity="0.5"/>')
    rect, circle = lay.nodes
    assert sum(1 for op in rect.ops if op[0] == "C") == 4
    assert rect.style.fill is None and rect.style.stroke == (0, 0, 0)
    assert rect.style.stroke_width == pytest.approx(0.5 * MM)
    assert rect.style.dash == pytest.approx((MM, 2 * MM))
    assert (rect.style.linejoin, rect.style.linecap) == (1, 2)
    assert circle.bbox == pytest.approx((5 * MM, 5 * MM, 15 * MM, 15 * MM))
    assert circle.style.opacity == 0.5


def test_group_inherits_fill_and_multiplies_opacity(card) -> None:
    lay = card('<g fill="#00ff00" opacity="0.5" transform="translate(10, 5) rotate(90)">'
               '<rect width="1" height="1" opacity="0.5"/></g>')
    g = lay.nodes[0]
    assert isinstance(g, Group)
    assert g.transform == pytest.approx((0, 1, -1, 0, 10 * MM, 5 * MM))
    assert g.children[0].style.fill == (0, 1, 0)
    assert g.children[0].style.opacity == 0.25


def test_clip_element_sets_group_clip(card) -> None:
    lay = card('<g><clip><circle cx="5" cy="5" r="5"/></clip><rect width="10" height="10"/></g>')
    assert lay.nodes[0].clip is not None and lay.nodes[0].clip[0][0] == "M"


def test_gradient_fill_parses(card) -> None:
    lay = card('<rect width="10" height="10" fill="linear-gradient(90deg, #000, #fff 80%)"/>')
    fill = lay.nodes[0].style.fill
    assert fill.angle == 90 and fill.stops == ((0.0, (0, 0, 0)), (0.8, (1, 1, 1)))


def test_unknown_attribute_is_named_with_a_hint(card) -> None:
    with pytest.raises(PnpError) as err:
        card('<rect x="0" y="0" w="10" height="5"/>')
    msg = str(err.value)
    assert "test/card c-1" in msg and "'w'" in msg and "did you mean 'width'" in msg
    assert "templates/test/t1.xml.j2:2 <rect>" in msg   # the template's line, not the markup's


def test_unknown_element_and_bad_values(card) -> None:
    with pytest.raises(PnpError, match="unknown element <blob>"):
        card("<blob/>")
    with pytest.raises(PnpError, match="bad colour"):
        card('<rect width="1" height="1" fill="#12"/>')
    with pytest.raises(PnpError, match="bad length"):
        card('<rect width="1zz" height="1"/>')
    with pytest.raises(PnpError, match="missing attribute 'width'"):
        card('<rect height="1"/>')


def test_bad_xml_names_card_and_line(card) -> None:
    with pytest.raises(PnpError, match=r"test/card c-1.*not well-formed XML at line 3"):
        card('<rect width="1" height="1"/>\n<rect width="1" & height="1"/>')


def test_icon_maps_viewbox_into_box_preserving_aspect(card) -> None:
    lay = card('<icon name="gem" x="10" y="20" width="10" height="10"/>')
    use = lay.nodes[0]
    assert isinstance(use, IconUse) and use.icon.viewbox == (0, 0, 32, 28)
    k = 10 * MM / 32
    # width-limited: centred vertically in the box
    assert use.matrix == pytest.approx((k, 0, 0, k, 10 * MM, 20 * MM + (10 * MM - 28 * k) / 2))
    assert lay.icons[0].icon is use.icon


def test_slug_icons_override_common_icons(card, templates: Path) -> None:
    (templates / "test" / "icons" / "bolt.svg").write_text(
        '<svg viewBox="0 0 10 20"><rect width="10" height="20"/></svg>', encoding="utf-8")
    lay = card('<icon name="bolt" width="10" height="10"/>')
    assert lay.nodes[0].icon.viewbox == (0, 0, 10, 20)


def test_unknown_icon_names_card_and_template(card) -> None:
    with pytest.raises(PnpError) as err:
        card('<icon name="nosuch" width="5" height="5"/>', where="fortuna/reel reel-3-bolt")
    msg = str(err.value)
    assert "fortuna/reel reel-3-bolt" in msg and "unknown icon 'nosuch'" in msg
    assert "templates/test/t" in msg and "bolt" in msg   # lists the known icons


def test_image_inside_templates_folder(card, templates: Path) -> None:
    PILImage.new("RGB", (20, 10), (255, 0, 0)).save(templates / "test" / "pic.png")
    lay = card('<image href="test/pic.png" x="0" y="0" width="10" height="10"/>')
    im = lay.nodes[0]
    assert isinstance(im, Image)
    assert (im.w, im.h) == pytest.approx((10 * MM, 5 * MM))      # contain
    assert im.y == pytest.approx(2.5 * MM)


@pytest.mark.parametrize("href", ["../secret.png", "/etc/passwd.png", "test/../../x.png",
                                  "C:/x.png"])
def test_image_paths_may_not_escape(card, href: str) -> None:
    with pytest.raises(PnpError, match="relative to the templates folder|leaves"):
        card(f'<image href="{href}" width="10" height="10"/>')


def test_icon_file_subset(tmp_path: Path) -> None:
    from pnp.render.icons import load_icon
    p = tmp_path / "x.svg"
    p.write_text('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" '
                 'width="24px" height="12px"><title>x</title><metadata/>'
                 '<g transform="scale(2)"><path style="fill:currentColor" d="M0 0h6v6z"/></g>'
                 '<polyline points="0,0 1,1" stroke="#f00"/><line x2="3" stroke="#000"/>'
                 '<ellipse cx="1" cy="1" rx="1" ry="2"/></svg>', encoding="utf-8")
    icon = load_icon(p, "x")
    assert icon.viewbox == (0, 0, 24, 12)
    assert icon.uses_current_color
    kinds = [type(n).__name__ for n in icon.children]
    assert kinds == ["Group", "Shape", "Shape", "Shape"]


def test_text_box_attributes(card) -> None:
    lay = card('<text id="t" x="5" y="5" width="50" height="20" size="10pt" color="#ff0000" '
               'align="center">Hello</text>')
    t = lay.nodes[0]
    assert isinstance(t, Text) and t.size == 10 and t.lines == 1
    assert t.runs[0].color == (1, 0, 0)
    with pytest.raises(PnpError, match="bad align"):
        card('<text x="0" y="0" width="5" height="5" align="middle">x</text>')
