"""The image cache: a print-service or Tabletop Simulator PNG whose inputs did not change is copied.

Each test builds the duo game (two decks of three cards, one shared back)
with the ``tgc`` preset (one PNG per card side) and the ``tts`` preset (face
sheets, back images, token tiles) into its own cache folder, spies on the
rasterising, and compares every byte with a build that has no caches.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

import pytest

from pnp.builder.decks import BuildOptions, build, load_for_build
from pnp.printing import png_store, service, tts
from pnp.printing.png_store import PngStore, png_salt
from pnp.render import fonts
from pnp.render.diskcache import DiskCache, MAGIC

from cache_entries import FACE, damage, duo_game, entries, file_hashes, replace_in

#: Both image-writing profiles; TTS URLs fixed so the saved objects do not name the folder.
PRESETS: dict[str, Any] = {"presets": ("tgc", "tts"), "tts_base_url": "https://example.org/duo"}


@pytest.fixture()
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of images each rasterising call of this test's builds drew."""
    calls: list[int] = []
    real = service.render_images

    def render_images(jobs: Sequence[service.RasterJob], progress: Any = None) -> Any:
        calls.append(len(jobs))
        return real(jobs, progress)

    monkeypatch.setattr(service, "render_images", render_images)
    monkeypatch.setattr(tts, "render_images", render_images)
    return calls


def _build(data: Path, templates: Path, out: Path) -> dict[str, str]:
    """Build the duo game's TGC and TTS files into ``out``; sha256 of every file."""
    opts = BuildOptions(out_dir=out, data_dir=data, templates_dir=templates, **PRESETS)
    build(load_for_build([], opts), opts)
    fonts._subset_store = False   # the next build opens the subset cache anew, as a process
    return file_hashes(out)


def test_cold_warm_damaged_and_off_give_the_same_bytes(tmp_path: Path, cache: Path,
                                                       drawn: list[int],
                                                       monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    """A warm build draws no image and writes the cold bytes; damaged entries are drawn again."""
    data, templates = duo_game(tmp_path / "game")
    cold = _build(data, templates, tmp_path / "cold")
    # TGC: 3 faces + the shared back per deck; TTS: a back and a face sheet per deck
    assert sum(drawn) == 2 * (3 + 1) + 2 * (1 + 3)
    kept = entries(cache, "images")
    assert len(kept) == 2 * (3 + 1) + 2 * 2          # one entry per image written
    drawn.clear()
    assert _build(data, templates, tmp_path / "warm") == cold
    assert drawn == []
    damage(kept[0], kept[1])
    assert _build(data, templates, tmp_path / "damaged") == cold
    assert 1 <= sum(drawn) <= 2 + 3 + 3               # at most two sheets of three faces
    assert all(e.read_bytes().startswith(MAGIC) for e in entries(cache, "images"))
    drawn.clear()
    with monkeypatch.context() as m:
        m.setenv("PNP_BUILD_CACHE", "0")
        assert _build(data, templates, tmp_path / "off") == cold
    assert sum(drawn) == 2 * (3 + 1) + 2 * (1 + 3)


def test_a_row_edit_draws_only_that_cards_image_and_its_sheet(tmp_path: Path, cache: Path,
                                                             drawn: list[int],
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    """One edited card: its TGC image and its deck's TTS face sheet are drawn; the rest copied."""
    data, templates = duo_game(tmp_path / "game")
    _build(data, templates, tmp_path / "a")
    drawn.clear()
    replace_in(data / "duo" / "cards.csv", "cards 2,2枚引く。", "cards 2,5枚引く。")
    warm = _build(data, templates, tmp_path / "b")
    assert sorted(drawn) == [1, 3]                    # the TGC image; the TTS sheet of three
    with monkeypatch.context() as m:
        m.setenv("PNP_BUILD_CACHE", "0")
        assert _build(data, templates, tmp_path / "c") == warm


def test_images_of_cards_drawing_a_raster_image_are_not_kept(tmp_path: Path, cache: Path,
                                                             drawn: list[int]) -> None:
    """A card placing a PNG is drawn on every build (the key does not cover its pixels)."""
    from PIL import Image

    data, templates = duo_game(tmp_path / "game")
    Image.new("RGB", (8, 8), (200, 40, 40)).save(templates / "duo" / "dot.png")
    (templates / "duo" / "face.xml.j2").write_text(FACE.replace(
        "</card>", "{% if card.id == 'cards1' %}<image href=\"duo/dot.png\" x=\"2\" y=\"2\" "
                   "width=\"5\" height=\"5\"/>{% endif %}\n</card>"), encoding="utf-8")
    _build(data, templates, tmp_path / "a")
    drawn.clear()
    _build(data, templates, tmp_path / "b")
    # the TGC image of cards1, and the TTS face sheet it is on
    assert sorted(drawn) == [1, 3]


def test_the_key_covers_the_sides_the_kind_and_the_geometry(tmp_path: Path) -> None:
    """Every part of an image key counts; a side without a key leaves the image unkept."""
    store = PngStore(DiskCache(tmp_path, 2**20), "salt")
    base = store.key("card", ["a"], 825, 1125, 300)
    assert base is not None
    others = {store.key("card", ["b"], 825, 1125, 300), store.key("tile", ["a"], 825, 1125, 300),
              store.key("card", ["a"], 826, 1125, 300), store.key("card", ["a"], 825, 1125, 600),
              store.key("card", ["a", "a"], 825, 1125, 300),
              PngStore(store.cache, "salt2").key("card", ["a"], 825, 1125, 300)}
    assert base not in others and len(others) == 6
    assert store.key("card", ["a", None], 825, 1125, 300) is None
    assert store.key("card", [], 825, 1125, 300) is None
    # an entry that is not a PNG is not written out
    store.cache.put(base, b"not a png")
    assert not store.write(base, tmp_path / "x.png") and not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("part", ["pillow", "pdfium", "fonts", "canvas", "code"])
def test_the_salt_covers_the_libraries_fonts_canvas_and_code(part: str,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    """A new Pillow, pdfium, font file, canvas option or pnp code gives other keys."""
    import PIL
    from pypdfium2 import version

    before = png_salt("stamp", {"invariant": 1})
    stamp, kwargs = "stamp", {"invariant": 1}
    if part == "pillow":
        monkeypatch.setattr(PIL, "__version__", PIL.__version__ + ".post1")
    elif part == "pdfium":
        monkeypatch.setattr(version, "PDFIUM_INFO", "0.0.0")
    elif part == "fonts":
        monkeypatch.setattr(fonts, "font_tag", lambda name: name + ":other")
    elif part == "canvas":
        kwargs = {"invariant": 0}
    else:
        stamp = "stamp2"
    assert png_salt(stamp, kwargs) != before
    assert png_store.PNG_FORMAT in before
