"""Parsed font tables kept beside pnp's code serve every cache folder (fonts.SHIPPED_FACE_DIR).

A fresh cache folder (a new project, another ``PNP_CACHE_DIR``) takes the
tables from pnp's own store instead of parsing the font again, keeps a copy,
and gets exactly what parsing gives; a damaged or unwritable store only
costs the parse.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from reportlab.pdfbase.ttfonts import TTFontFace

from pnp.render import fonts

#: What measuring and subsetting read from a face.
FIELDS = ("charWidths", "charToGlyph", "defaultWidth", "unitsPerEm", "ascent", "descent",
          "bbox", "name", "glyphToChar")


@pytest.fixture()
def places(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """A temporary store beside the code and a temporary cache folder."""
    store = tmp_path / "store"
    monkeypatch.setattr(fonts, "SHIPPED_FACE_DIR", store)
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache1"))
    return {"store": store, "cache1": tmp_path / "cache1" / "fonts",
            "cache2": tmp_path / "cache2"}


def counting_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every font file fonts.py parses from now on."""
    parsed: list[str] = []

    class Counting(TTFontFace):
        def __init__(self, filename: str, *args: Any, **kwargs: Any) -> None:
            parsed.append(filename)
            super().__init__(filename, *args, **kwargs)

    monkeypatch.setattr(fonts, "TTFontFace", Counting)
    return parsed


def same_face(face: TTFontFace, path: Path) -> None:
    """``face`` holds what parsing ``path`` gives."""
    plain = TTFontFace(str(path))
    for field in FIELDS:
        assert getattr(face, field) == getattr(plain, field), field


def test_a_fresh_cache_folder_takes_the_stores_tables(places: dict[str, Path],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Parsed once: kept in the store and the first folder; a second folder copies, never parses."""
    path = fonts._font_path(fonts.FONT_LATIN)
    parsed = counting_parses(monkeypatch)
    same_face(fonts._cached_face(path), path)
    assert parsed == [str(path)]
    assert len(list(places["store"].glob("Vera-*.pickle"))) == 2      # main and cold file
    assert len(list(places["cache1"].glob("Vera-*.pickle"))) == 2
    monkeypatch.setenv("PNP_CACHE_DIR", str(places["cache2"]))
    face = fonts._cached_face(path)
    assert parsed == [str(path)]                                  # not parsed again
    assert sorted(p.name for p in (places["cache2"] / "fonts").iterdir()) == sorted(
        p.name for p in places["store"].iterdir())                # and a copy kept
    same_face(face, path)


def test_a_damaged_store_is_parsed_and_repaired(places: dict[str, Path],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A store file that does not unpickle: the font is parsed and the file written again."""
    path = fonts._font_path(fonts.FONT_LATIN)
    fonts._cached_face(path)
    main = next(p for p in places["store"].glob("Vera-*.pickle") if ".cold." not in p.name)
    main.write_bytes(b"not a pickle")
    monkeypatch.setenv("PNP_CACHE_DIR", str(places["cache2"]))
    parsed = counting_parses(monkeypatch)
    same_face(fonts._cached_face(path), path)
    assert parsed == [str(path)]
    assert main.read_bytes() != b"not a pickle"


def test_an_unwritable_store_only_costs_the_parse(tmp_path: Path, places: dict[str, Path],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A store that cannot be made: the cache folder still gets the tables."""
    blocker = tmp_path / "file"
    blocker.write_text("in the way", encoding="utf-8")
    monkeypatch.setattr(fonts, "SHIPPED_FACE_DIR", blocker / "store")
    path = fonts._font_path(fonts.FONT_LATIN)
    same_face(fonts._cached_face(path), path)
    assert len(list(places["cache1"].glob("Vera-*.pickle"))) == 2
