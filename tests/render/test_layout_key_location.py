"""Issue 9 leftover: a layout's key, and a PDF named after it, do not depend on the folder.

The key hashes the icon folders a template's icons are resolved against; it
used to hash their absolute paths, so the same project in two places gave
different form names (``pnpL_<key>``) in a contact sheet or preview PDF.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from pnp import PROJECT_ROOT
from pnp.render.jinja_env import make_environment
from pnp.render.layout import Layout, render_layout
from pnp.render.preview import layout_to_pdf

BODY = """<card width="63mm" height="88mm" bleed="3mm">
  <background fill="#203040"/>
  <icon name="star" x="16.5" y="29" width="30" height="30" color="#c9a227"/>
  <text x="5" y="70" width="53" height="10" size="9" color="#ffffff">{{ card.name }}</text>
</card>
"""


def _render_in(root: Path) -> Layout:
    """Copy the common templates and a test template under ``root``; render the card."""
    templates = root / "templates"
    shutil.copytree(PROJECT_ROOT / "templates" / "common", templates / "common")
    (templates / "test").mkdir()
    (templates / "test" / "face.xml.j2").write_text(BODY, encoding="utf-8")
    env = make_environment(templates)
    return render_layout(env, "test/face.xml.j2", {"card": {"name": "Star"}},
                         where="test/cards c-1")


def test_key_and_pdf_bytes_are_the_same_in_two_folders(tmp_path: Path) -> None:
    """The same templates in two folders: same key, byte-identical FormCache PDF."""
    a = _render_in(tmp_path / "a")
    b = _render_in(tmp_path / "b" / "somewhere" / "else")
    assert a.icons, "the fixture must use an icon, or the folders never enter the key"
    assert a.key == b.key
    pdf_a, pdf_b = layout_to_pdf(a), layout_to_pdf(b)
    assert b"pnpL_" + a.key.encode() in pdf_a
    assert pdf_a == pdf_b


def test_key_still_tells_icon_folders_apart(tmp_path: Path) -> None:
    """Same markup, different game folders (their own icons may differ): different keys."""
    templates = tmp_path / "templates"
    shutil.copytree(PROJECT_ROOT / "templates" / "common", templates / "common")
    for slug in ("one", "two"):
        (templates / slug / "icons").mkdir(parents=True)
        (templates / slug / "face.xml.j2").write_text(BODY, encoding="utf-8")
    env = make_environment(templates)
    keys = {render_layout(env, f"{slug}/face.xml.j2", {"card": {"name": "Star"}},
                          where=f"{slug}/cards c-1").key for slug in ("one", "two")}
    assert len(keys) == 2
