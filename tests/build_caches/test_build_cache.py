"""The build's on-disk caches (layouts, font subsets): same bytes cold, warm or damaged.

Each test builds a small generated game into its own cache folder
(``PNP_CACHE_DIR``), so entries from other runs never take part.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from pnp import PROJECT_ROOT
from pnp.builder.decks import BuildOptions, build, load_for_build
from pnp.render import fonts, rlspeed
from pnp.render.diskcache import MAGIC, DiskCache

from cache_entries import entries, file_hashes, replace_in, shadow_icon


def _game(folder: Path, cards: int = 6) -> tuple[Path, Path]:
    """A small game (Japanese rules text, an inline icon, a gradient): (data, templates)."""
    data = folder / "card_data" / "mini"
    data.mkdir(parents=True)
    (data / "manifest.toml").write_text(f"""[game]
slug = "mini"
title = "Mini"
players = [2, 4]
[components.cards]
name = "Cards"
kind = "card"
size = "poker"
count = {cards}
table = "cards.csv"
face = "mini/face.xml.j2"
back = "mini/back.xml.j2"
[components.cards.columns]
id = {{ type = "id" }}
n = {{ type = "int", min = 1, max = 1000 }}
text = {{ type = "text" }}
qty = {{ type = "qty" }}
""", encoding="utf-8")
    rows = ["id,n,text,qty"] + [f"c{i},{i},このカードを出したら{i}枚引く。{{icon:star}}を得る。,1"
                                for i in range(1, cards + 1)]
    (data / "cards.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    templates = folder / "templates"
    shutil.copytree(PROJECT_ROOT / "templates" / "common", templates / "common")
    (templates / "mini").mkdir()
    (templates / "mini" / "face.xml.j2").write_text(
        '<card width="{{ width }}" height="{{ height }}" bleed="3mm">\n'
        '  <background fill="linear-gradient(180deg, #f4ead5, #e0d0b0)"/>\n'
        '  <text x="6" y="8" width="51" height="10" size="12" font="display">Card {{ card.n }}'
        '</text>\n'
        '  <icon name="bolt" x="21.5" y="25" width="20" height="20" color="#6b4f1d"/>\n'
        '  <text x="6" y="58" width="51" height="22" size="9" min-size="6.5">{{ card.text }}'
        '</text>\n</card>\n', encoding="utf-8")
    (templates / "mini" / "back.xml.j2").write_text(
        '<card width="{{ width }}" height="{{ height }}" bleed="3mm">\n'
        '  <background fill="#203040"/>\n'
        '  <icon name="star" x="16.5" y="29" width="30" height="30" color="#c9a227"/>\n'
        '</card>\n', encoding="utf-8")
    return folder / "card_data", templates


def _build(data: Path, templates: Path, out: Path) -> dict[str, str]:
    """Build the game into ``out``; sha256 of every file written, by relative path."""
    options = BuildOptions(out_dir=out, data_dir=data, templates_dir=templates)
    build(load_for_build([], options), options)
    return file_hashes(out)


def test_cold_warm_and_damaged_caches_give_the_same_bytes(tmp_path: Path, cache: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """A cold, a warm, a damaged and a disabled cache all build byte-identical files."""
    data, templates = _game(tmp_path / "game")
    cold = _build(data, templates, tmp_path / "cold")
    assert any(name.endswith(".pdf") and "mini/" in name for name in cold)
    # a cold build keeps no layouts (its sheets are kept whole), only markup and subsets
    assert entries(cache, "layouts") == [] and entries(cache, "markup")
    subsets = entries(cache, "font-subsets")
    assert subsets
    monkeypatch.setattr(fonts, "_subset_store", False)
    assert _build(data, templates, tmp_path / "warm") == cold
    # a sheet drawn again from kept markup keeps its layouts (the edit loop's case)
    for entry in entries(cache, "sheets"):
        entry.unlink()
    monkeypatch.setattr(fonts, "_subset_store", False)
    assert _build(data, templates, tmp_path / "relaid") == cold
    layouts = entries(cache, "layouts")
    assert len(layouts) >= 6 + 1  # six faces and the shared back
    # damage every entry: truncated, flipped bytes, a foreign file, an empty one
    # (the sheet files too, else the warm build would read no layout)
    for i, entry in enumerate(layouts + subsets + entries(cache, "sheets")):
        raw = entry.read_bytes()
        entry.write_bytes([raw[: len(raw) // 2], raw[:-1] + bytes([raw[-1] ^ 0xFF]),
                           b"not a cache entry", b""][i % 4])
    monkeypatch.setattr(fonts, "_subset_store", False)
    assert _build(data, templates, tmp_path / "damaged") == cold
    # the damaged entries were replaced by good ones: warm again
    for entry in (entries(cache, "layouts") + entries(cache, "font-subsets")
                  + entries(cache, "sheets")):
        assert entry.read_bytes().startswith(MAGIC)
    monkeypatch.setenv("PNP_BUILD_CACHE", "0")
    monkeypatch.setattr(fonts, "_subset_store", False)
    assert _build(data, templates, tmp_path / "off") == cold


def test_a_cached_layout_is_not_used_once_its_icon_changed(tmp_path: Path, cache: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """Editing an icon file changes the card even though the markup is the same."""
    data, templates = _game(tmp_path / "game", cards=1)
    before = _build(data, templates, tmp_path / "a")
    # a game-specific icon now shadows the common one: same markup, other picture
    shadow_icon(templates, "mini", "bolt")
    changed = _build(data, templates, tmp_path / "b")
    monkeypatch.setenv("PNP_BUILD_CACHE", "0")
    monkeypatch.setattr(fonts, "_subset_store", False)
    assert _build(data, templates, tmp_path / "c") == changed
    assert changed["mini/cards-a4.pdf"] != before["mini/cards-a4.pdf"]


def test_a_subset_entry_that_is_intact_but_not_compressed_is_remade(tmp_path: Path,
                                                                     cache: Path,
                                                                     monkeypatch: pytest.MonkeyPatch
                                                                     ) -> None:
    """A well-formed entry whose payload is not zlib data is ignored, not an error."""
    data, templates = _game(tmp_path / "game", cards=1)
    cold = _build(data, templates, tmp_path / "a")
    store = DiskCache(cache / "font-subsets", 2**30)
    for entry in entries(cache, "font-subsets"):
        store.put(entry.name[: -len(".entry")], b"garbage that passes the digest")
    monkeypatch.setattr(fonts, "_subset_store", False)
    assert _build(data, templates, tmp_path / "b") == cold


def test_the_cache_folder_stays_under_its_limit_dropping_the_least_recently_used(
        tmp_path: Path) -> None:
    """Pruning removes the oldest entries first; a hit makes an entry recent again."""
    folder = tmp_path / "c"
    folder.mkdir()
    old = DiskCache(folder, 10_000)
    for i in range(20):
        old.put(f"k{i:02d}", bytes(1000))
        os.utime(folder / f"k{i:02d}.entry", (1_000_000 + i, 1_000_000 + i))
    assert old.get("k00") is not None          # k00 is now the most recently used
    new = DiskCache(folder, 10_000)
    new.put("fresh", bytes(1000))              # the first write of a process prunes
    total = sum(p.stat().st_size for p in folder.glob("*.entry"))
    assert total <= 10_000 + 1100
    assert new.get("k00") is not None and new.get("fresh") is not None
    assert new.get("k01") is None              # the oldest unused ones went first
    assert new.get("k19") is not None


def test_memoised_number_format_is_reportlabs() -> None:
    """The memoised fp_str returns what ReportLab's own returns, hit or miss, list or not."""
    from reportlab.lib.rl_accel import _py_fp_str

    fast = rlspeed.memoised(_py_fp_str)
    values = [0, 1, -1, 0.5, 1e-8, -1e-8, 123.456789, 1 / 3, 595.2756, 1e6 + 0.25, -0.0, True]
    for _ in range(2):  # the second round answers from the memo
        for v in values:
            assert fast(v) == _py_fp_str(v)
        assert fast(*values) == _py_fp_str(*values)
        assert fast(values) == _py_fp_str(values)   # one list argument: not memoised


def test_a_damaged_entry_reads_as_missing_and_is_removed(tmp_path: Path) -> None:
    """Truncated, altered or foreign files are misses, never errors, and are deleted."""
    store = DiskCache(tmp_path, 2**20)
    payload = b"layout bytes " * 50
    for i, damage in enumerate([lambda raw: raw[:-3], lambda raw: raw[:-1] + b"x",
                                lambda raw: b"other" + raw[5:], lambda raw: b""]):
        store.put(f"k{i}", payload)
        path = tmp_path / f"k{i}.entry"
        assert store.get(f"k{i}") == payload
        path.write_bytes(damage(path.read_bytes()))
        assert store.get(f"k{i}") is None
        assert not path.exists()


def test_a_new_process_builds_from_the_warm_cache_alone(tmp_path: Path, cache: Path) -> None:
    """A fresh `pnp build` whose layouts all come from the cache writes the same files.

    (In a new process nothing was measured, so no font was registered by the
    layout code: drawing must register the fonts a loaded layout names.)
    """
    import subprocess
    import sys

    data, templates = _game(tmp_path / "game", cards=2)
    cold = _build(data, templates, tmp_path / "cold")
    # a cold build keeps no layouts; a sheet drawn again from kept markup keeps them
    shutil.rmtree(cache / "sheets")
    fonts._subset_store = False
    assert _build(data, templates, tmp_path / "relaid") == cold
    before = {p.name: p.stat().st_mtime_ns for p in entries(cache, "layouts")}
    assert len(before) == 3           # two faces, the shared back
    shutil.rmtree(cache / "sheets")   # the sheets are drawn, from cached layouts
    out = tmp_path / "warm"
    done = subprocess.run([sys.executable, "-m", "pnp.cli", "build", "--no-rulebook", "-q",
                           "--out", str(out), "--data-dir", str(data), "--templates-dir",
                           str(templates)], cwd=tmp_path, capture_output=True, text=True,
                          env=dict(os.environ, PNP_CACHE_DIR=str(cache),
                                   PYTHONPATH=str(PROJECT_ROOT)))
    assert done.returncode == 0, done.stderr
    warm = file_hashes(out)
    assert warm == cold
    # every layout was read (a hit renews the entry), none written anew
    assert {p.name for p in entries(cache, "layouts")} == set(before)


def test_edits_to_data_and_to_an_included_template_are_built_as_without_caches(
        tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a CSV edit, an edit to a template another includes, and a table the
    template reads, a warm build writes what a build without caches writes."""
    data, templates = _game(tmp_path / "game", cards=3)
    (templates / "mini" / "part.xml.j2").write_text(
        '<rect x="2" y="2" width="10" height="4" fill="#aa3300"/>\n', encoding="utf-8")
    face = templates / "mini" / "face.xml.j2"
    replace_in(face, "</card>", '{% include "mini/part.xml.j2" %}\n'
               '<text x="6" y="50" width="51" height="6" size="8">{{ tables.cards | length }} '
               '{{ tables.cards[0].text[10:14] }}</text>\n</card>')
    first = _build(data, templates, tmp_path / "a")
    csv = data / "mini" / "cards.csv"
    edits = [
        lambda: replace_in(csv, "1枚引く", "2枚捨てる"),
        lambda: (templates / "mini" / "part.xml.j2").write_text(
            '<rect x="2" y="2" width="20" height="4" fill="#0033aa"/>\n', encoding="utf-8"),
    ]
    seen = [first]
    for i, edit in enumerate(edits):
        edit()
        monkeypatch.delenv("PNP_BUILD_CACHE", raising=False)
        warm = _build(data, templates, tmp_path / f"warm{i}")
        monkeypatch.setenv("PNP_BUILD_CACHE", "0")
        assert warm == _build(data, templates, tmp_path / f"off{i}")
        assert warm["mini/cards-a4.pdf"] not in {s["mini/cards-a4.pdf"] for s in seen}
        seen.append(warm)


def test_templates_that_use_random_are_not_markup_cached(tmp_path: Path) -> None:
    """A templates folder using the random filter or lipsum gets no markup cache."""
    from pnp.builder.markup_cache import folder_digest

    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "a.xml.j2").write_text("{# no randomness here #}{{ card.random_pick }}",
                                     encoding="utf-8")
    stable = folder_digest(folder)
    assert stable is not None
    (folder / "a.xml.j2").write_text("{{ card.random_pick }}!", encoding="utf-8")
    assert folder_digest(folder) not in (None, stable)   # any edit changes the digest
    for text in ("{{ [1, 2] | random }}", "{{ lipsum(1) }}", "{% filter random %}x{% endfilter %}"):
        (folder / "b.xml.j2").write_text(text, encoding="utf-8")
        assert folder_digest(folder) is None


def test_a_row_edit_keeps_the_other_cards_markup_when_no_template_reads_tables(
        tmp_path: Path, cache: Path) -> None:
    """Only the edited card is rendered again when the templates never read ``tables``."""
    data, templates = _game(tmp_path / "game", cards=4)
    _build(data, templates, tmp_path / "a")
    before = set(entries(cache, "markup"))
    assert len(before) == 4 + 1                  # four faces and the shared back
    csv = data / "mini" / "cards.csv"
    replace_in(csv, "3枚引く", "3枚捨てる")
    _build(data, templates, tmp_path / "b")
    assert len(set(entries(cache, "markup")) - before) == 1
