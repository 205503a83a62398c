"""The chart pages embed IPAexGothic through the HTML rulebook's subsetter (pnp.webfont).

It was a second subsetter in pnp.sim.html: TrueType without a unicode-range,
dropping the font's licence description and URL name records, the family
name typed out again. Now one piece of code makes both pages' fonts.
"""

from __future__ import annotations

import base64
import io
import re

from fontTools.ttLib import TTFont

from pnp.sim.html import _ipaex, font_face
from pnp.webfont import FAMILY, NAME_IDS, unicode_range
from pnp.webfont import font_face as webfont_face

_DATA = re.compile(r"url\(data:font/woff;base64,([A-Za-z0-9+/=]+)\) format\(\"woff\"\)")


def test_chart_page_face_is_the_rulebook_subsetters() -> None:
    """WOFF, the licence records kept, a unicode-range of exactly the CJK and suits used."""
    text = "第2話 ♠A – 25 % …"     # Latin, the en dash and … stay with the reader's fonts
    face = font_face(text)
    path = _ipaex()
    assert path is not None
    wanted = sorted(ord(ch) for ch in set("第2話♠") if ord(ch) >= 0x2E80 or ch == "♠")
    assert face == webfont_face(wanted, font=path)
    assert face.startswith(f'@font-face {{ font-family: "{FAMILY}"; ')
    assert f"unicode-range: {unicode_range(wanted)};" in face
    match = _DATA.search(face)
    assert match is not None
    font = TTFont(io.BytesIO(base64.b64decode(match.group(1))))
    assert font.flavor == "woff"
    ids = {rec.nameID for rec in font["name"].names}
    assert {13, 14} <= ids <= set(NAME_IDS)      # the IPA Font License travels with it
    assert set(font.getBestCmap()) == set(wanted)
