"""The rulebook cache: a rulebook PDF whose inputs did not change is written from kept bytes.

Each test builds a small generated game (one deck, a rules text in both
editions that lists the deck's cards and pictures one card) into its own
cache folder (``PNP_CACHE_DIR``), spies on the exporter, so it sees which
rulebooks a build typeset, and compares every byte with a build that has no
caches at all.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pnp import PROJECT_ROOT
from pnp.builder.decks import BuildOptions, build, load_for_build
from pnp.rulebook.step import rulebook_step
from pnp.rulebook.cache import RulebookStore, open_rulebook_store, rulebook_salt
from pnp.cli import main
from pnp.render import fonts
from pnp.render.diskcache import MAGIC, DiskCache
from pnp.rulebook import export
from pnp.rulebook.cli import export_rulebooks

from cache_entries import damage, entries, file_hashes, replace_in, shadow_icon

_FACE = ('<card width="{{ width }}" height="{{ height }}" bleed="3mm">\n'
         '  <background fill="#f4ead5"/>\n'
         '  <text x="6" y="8" width="51" height="10" size="12">{{ card.name }}</text>\n'
         '  <icon name="bolt" x="21.5" y="25" width="20" height="20" color="#6b4f1d"/>\n'
         '</card>\n')
_BOOK = {"ja": "# デュオ\n\n{{ players }}\n\n{{ components }}\n\n## カード\n\n{{ cards cards }}\n\n"
               "{{ gallery cards=cards1 }}\n\n## 設計メモ {#notes .designer}\n\n暫定。\n",
         "en": "# Duo\n\n{{ players }}\n\n{{ components }}\n\n## Cards\n\n{{ cards cards }}\n\n"
               "{{ gallery cards=cards1 }}\n\n## Design notes {#notes .designer}\n\n"
               "Provisional.\n"}
_BOOKS = ["duo/rulebook-a5.pdf", "duo/rulebook-en-a5.pdf"]


def _game(folder: Path) -> tuple[Path, Path]:
    """A game ``duo`` with one deck and its rules text beside the data: (data, templates)."""
    data = folder / "card_data" / "duo"
    data.mkdir(parents=True)
    (data / "manifest.toml").write_text(
        '[game]\nslug = "duo"\ntitle = "Duo"\nplayers = [2, 4]\n'
        '[components.cards]\nname = "Cards"\nkind = "card"\nsize = "poker"\ncount = 3\n'
        'table = "cards.csv"\nface = "duo/face.xml.j2"\n'
        '[components.cards.columns]\nid = { type = "id" }\nname = { type = "text" }\n'
        'text = { type = "text" }\ntext_en = { type = "text" }\nqty = { type = "qty" }\n',
        encoding="utf-8")
    rows = ["id,name,text,text_en,qty"] + [f"cards{i},Card {i},{i}枚引く。,Draw {i}.,1"
                                           for i in (1, 2, 3)]
    (data / "cards.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    templates = folder / "templates"
    shutil.copytree(PROJECT_ROOT / "templates" / "common", templates / "common")
    (templates / "duo").mkdir()
    (templates / "duo" / "face.xml.j2").write_text(_FACE, encoding="utf-8")
    books = folder / "rulebooks"
    books.mkdir()
    for lang, text in _BOOK.items():
        name = "duo.md" if lang == "ja" else f"duo.{lang}.md"
        (books / name).write_text(text, encoding="utf-8")
    return folder / "card_data", templates


@pytest.fixture()
def typeset(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """``<game>/<file>`` of every rulebook the exporter typeset in this test."""
    names: list[str] = []
    real = export.export_rulebook

    def spy(slug: str, out: Path, **kwargs: Any) -> Path:
        names.append(f"{slug}/{Path(out).name}")
        return real(slug, out, **kwargs)

    monkeypatch.setattr(export, "export_rulebook", spy)
    return names


def _build(data: Path, templates: Path, out: Path) -> dict[str, str]:
    """Build the game with its rulebooks into ``out``; sha256 of every rulebook written."""
    opts = BuildOptions(out_dir=out, data_dir=data, templates_dir=templates)
    result = build(load_for_build([], opts), opts,
                   rulebooks=rulebook_step(out, data, templates))
    fonts._subset_store = False   # the next build opens the subset cache anew, as a process
    assert [p.relative_to(out).as_posix() for p in result.rulebooks] == _BOOKS
    return file_hashes(out, result.rulebooks)


def _uncached(data: Path, templates: Path, out: Path,
              monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """:func:`_build` with every build cache off (the reference bytes)."""
    with monkeypatch.context() as m:
        m.setenv("PNP_BUILD_CACHE", "0")
        return _build(data, templates, out)


def test_cold_warm_damaged_and_off_give_the_same_bytes(tmp_path: Path, cache: Path,
                                                       typeset: list[str],
                                                       monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    """A warm build typesets no rulebook and writes the cold bytes; damaged entries are redone."""
    data, templates = _game(tmp_path / "game")
    cold = _build(data, templates, tmp_path / "cold")
    # per book: the PDF, and the list of template files it read
    assert typeset == _BOOKS and len(entries(cache, "rulebooks")) == 4
    typeset.clear()
    assert _build(data, templates, tmp_path / "warm") == cold
    assert typeset == []
    # truncated, one flipped byte: both are misses, typeset again and kept anew
    damage(*[e for e in entries(cache, "rulebooks") if b"%PDF-" in e.read_bytes()[:80]])
    assert _build(data, templates, tmp_path / "damaged") == cold
    assert typeset == _BOOKS
    assert all(e.read_bytes().startswith(MAGIC) for e in entries(cache, "rulebooks"))
    typeset.clear()
    assert _uncached(data, templates, tmp_path / "off", monkeypatch) == cold
    assert typeset == _BOOKS


@pytest.mark.parametrize("change", ["rules text", "terms", "listed row", "manifest",
                                    "pictured template", "icon", "other template"])
def test_an_edit_the_rulebook_shows_typesets_it_again(tmp_path: Path, cache: Path,
                                                      typeset: list[str],
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      change: str) -> None:
    """Each input's edit typesets the books again, and they equal an uncached build's."""
    data, templates = _game(tmp_path / "game")
    before = _build(data, templates, tmp_path / "a")
    books = tmp_path / "game" / "rulebooks"
    edited = _BOOKS
    if change == "rules text":
        (books / "duo.en.md").write_text(_BOOK["en"].replace("## Cards\n", "## Cards\n\nPlay well.\n"),
                                         encoding="utf-8")
        edited = ["duo/rulebook-en-a5.pdf"]
    elif change == "terms":     # a terms table appears beside the rules text
        (books / "duo.terms.toml").write_text('[en]\n"デュオ" = "Duo"\n', encoding="utf-8")
    elif change == "listed row":
        replace_in(data / "duo" / "cards.csv", "Draw 2.", "Discard 2.")
    elif change == "manifest":
        replace_in(data / "duo" / "manifest.toml", "players = [2, 4]", "players = [2, 5]")
    elif change == "pictured template":
        face = templates / "duo" / "face.xml.j2"
        face.write_text(_FACE.replace("#f4ead5", "#d5e4f4"), encoding="utf-8")
    elif change == "icon":       # a game icon now shadows the common bolt the card shows
        shadow_icon(templates, "duo", "bolt")
    else:                        # a template the book never shows: typeset again all the same
        (templates / "duo" / "unused.xml.j2").write_text(_FACE, encoding="utf-8")
    typeset.clear()
    after = _build(data, templates, tmp_path / "b")
    assert typeset == edited, change
    assert after == _uncached(data, templates, tmp_path / "c", monkeypatch)
    if change not in ("terms", "other template"):
        assert after != before


@pytest.mark.parametrize("option", ["paper", "lang", "designer", "booklet"])
def test_each_option_is_its_own_entry(tmp_path: Path, cache: Path, typeset: list[str],
                                      option: str) -> None:
    """Paper, edition, designer switch and imposition each key their own book (no cross hits)."""
    data, templates = _game(tmp_path / "game")
    store = open_rulebook_store()
    assert store is not None
    base: dict[str, Any] = {"paper": "a5", "langs": ["ja"], "designer": False}
    changes = {"paper": {"paper": "a4"}, "lang": {"langs": ["en"]},
               "designer": {"designer": True}, "booklet": {"imposition": "booklet"}}
    other = dict(base, **changes[option])

    def run(folder: str, **kw: Any) -> bytes:
        paths = export_rulebooks(["duo"], out_dir=tmp_path / folder, data_dir=data,
                                 templates_dir=templates, pdf_writer=store.export, **kw)
        return paths[0].read_bytes()

    first = run("a", **base)
    second = run("b", **other)
    assert len(typeset) == 2 and first != second
    typeset.clear()
    assert run("c", **base) == first and run("d", **other) == second
    assert typeset == []


def test_warm_output_and_messages_equal_the_cold_ones(tmp_path: Path, cache: Path,
                                                      typeset: list[str]) -> None:
    """stdout and stderr of `pnp build` with rulebooks: the same when they come from the cache."""
    data, templates = _game(tmp_path / "game")
    # one process: the spy sees the typesetting (workers' is in test_rulebook_jobs.py)
    args = ["build", "--out", str(tmp_path / "out"), "--data-dir", str(data),
            "--templates-dir", str(templates), "-j", "1"]
    runs = []
    for _ in range(2):
        done = CliRunner().invoke(main, args)
        assert done.exit_code == 0, done.output
        fonts._subset_store = False
        runs.append((done.stdout, done.stderr))
    assert typeset == _BOOKS          # the second run typeset nothing
    assert runs[0] == runs[1]
    assert "rulebook-en-a5.pdf" in runs[0][0] and "2 rulebook(s)" in runs[0][0]


def test_unpinned_inputs_are_never_kept(tmp_path: Path, cache: Path,
                                        typeset: list[str]) -> None:
    """A sweep file outside the game, a linked data folder or a random template: no entry."""
    data, templates = _game(tmp_path / "game")
    store = open_rulebook_store()
    assert store is not None

    def key() -> str | None:
        fresh = RulebookStore(store.cache, store.salt)
        return fresh.key("duo", data, paper="a5", lang="en", imposition="none",
                         designer=False, templates_dir=templates)

    assert key() is not None
    text = tmp_path / "game" / "rulebooks" / "duo.en.md"
    text.write_text(_BOOK["en"] + "\n{{ sweep ../other/s.json cols=a:b }}\n", encoding="utf-8")
    assert key() is None
    text.write_text(_BOOK["en"] + "\n{{ sweep sweeps/s.json cols=a:b }}\n", encoding="utf-8")
    assert key() is not None
    (tmp_path / "elsewhere").mkdir()
    (data / "duo" / "linked").symlink_to(tmp_path / "elsewhere")
    assert key() is None
    (data / "duo" / "linked").unlink()
    (templates / "duo" / "extra.xml.j2").write_text("{{ [1, 2] | random }}", encoding="utf-8")
    assert key() is None


def test_a_code_change_typesets_the_books_again(tmp_path: Path, cache: Path,
                                               typeset: list[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """An edit anywhere in pnp (an engine's worked example, say) typesets every book again."""
    from pnp.builder import serve

    data, templates = _game(tmp_path / "game")
    _build(data, templates, tmp_path / "a")
    real = serve.code_stamp
    # only the whole stamp changes (the card caches' stamp leaves the engines out)
    monkeypatch.setattr(serve, "code_stamp", lambda skip=(): real(skip) + ("" if skip else "-x"))
    typeset.clear()
    _build(data, templates, tmp_path / "b")
    assert typeset == _BOOKS


def test_code_library_and_font_changes_typeset_again(tmp_path: Path, cache: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The salt follows pnp's whole code (engines included), ReportLab and the canvas options."""
    import reportlab

    from pnp.builder import serve
    from pnp.rulebook import cache as rulebook_cache

    salt = rulebook_salt()
    real = serve.code_stamp
    monkeypatch.setattr(serve, "code_stamp", lambda skip=(): real(skip) + ("" if skip else "-x"))
    assert rulebook_salt() != salt
    monkeypatch.undo()
    monkeypatch.setattr(reportlab, "Version", reportlab.Version + ".post1")
    assert rulebook_salt() != salt
    monkeypatch.undo()
    real_kwargs = fonts.canvas_kwargs
    monkeypatch.setattr(fonts, "canvas_kwargs", lambda: dict(real_kwargs(), initialFontSize=9.0))
    assert rulebook_salt() != salt
    monkeypatch.undo()
    real_tag = fonts.font_tag
    monkeypatch.setattr(fonts, "font_tag", lambda name: real_tag(name) + "-other")
    assert rulebook_salt() != salt
    assert rulebook_cache.RULEBOOK_FORMAT in salt


def test_a_store_off_or_a_foreign_entry_is_a_miss(tmp_path: Path, cache: Path,
                                                  typeset: list[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """``PNP_BUILD_CACHE=0`` opens no store; an entry that is not a PDF is typeset again."""
    monkeypatch.setenv("PNP_BUILD_CACHE", "0")
    assert open_rulebook_store() is None
    monkeypatch.delenv("PNP_BUILD_CACHE")
    data, templates = _game(tmp_path / "game")
    cold = _build(data, templates, tmp_path / "a")
    store = DiskCache(cache / "rulebooks", 2**30)
    for entry in entries(cache, "rulebooks"):
        store.put(entry.name[: -len(".entry")], b"not a pdf")
    typeset.clear()
    assert _build(data, templates, tmp_path / "b") == cold
    assert typeset == _BOOKS


def _reads(cache: Path) -> list[list[str]]:
    """The lists of template files the kept books read, sorted."""
    import json

    out = []
    for entry in entries(cache, "rulebooks"):
        payload = entry.read_bytes()[len(MAGIC) + 16:]
        if payload.startswith(b"["):
            out.append(json.loads(payload))
    return sorted(out)


def test_a_book_is_keyed_by_the_template_files_it_read(tmp_path: Path, cache: Path,
                                                       typeset: list[str],
                                                       monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    """Editing a template the book never read keeps it; its card's template, icon or image not.

    The sheets are drawn first in the same process, so the icon and the
    image are served from memory when the book pictures the card: they must
    count as read all the same.
    """
    from PIL import Image

    data, templates = _game(tmp_path / "game")
    (templates / "duo" / "unused.xml.j2").write_text(_FACE, encoding="utf-8")
    Image.new("RGB", (8, 8), (200, 40, 40)).save(templates / "duo" / "dot.png")
    replace_in(templates / "duo" / "face.xml.j2", "</card>",
               '<image href="duo/dot.png" x="2" y="2" width="5" height="5"/>\n</card>')
    _build(data, templates, tmp_path / "a")
    read = _reads(cache)
    assert len(read) == 2 and read[0] == read[1]
    assert {"duo/face.xml.j2", "duo/dot.png", "common/icons/bolt.svg"} <= set(read[0])
    assert "duo/unused.xml.j2" not in read[0]
    for step, edit in enumerate([
            lambda: replace_in(templates / "duo" / "unused.xml.j2", "#f4ead5", "#000000"),
            lambda: replace_in(templates / "common" / "icons" / "bolt.svg", "<path",
                               '<circle cx="1" cy="1" r="1"/><path', 1),
            lambda: Image.new("RGB", (8, 8), (40, 200, 40)).save(templates / "duo" / "dot.png"),
            lambda: replace_in(templates / "duo" / "face.xml.j2", "#f4ead5", "#d5e4f4")]):
        typeset.clear()
        edit()
        after = _build(data, templates, tmp_path / f"b{step}")
        assert typeset == ([] if step == 0 else _BOOKS), step
        assert after == _uncached(data, templates, tmp_path / f"c{step}", monkeypatch), step


def test_reads_through_a_link_out_of_the_folder_are_not_pinned(tmp_path: Path) -> None:
    """A file inside the templates folder by name but elsewhere by content: no key (None).

    pnp refuses such links for templates, icons and images already; this is
    the rulebook cache's own guard, should another reader follow one.
    """
    from pnp.rulebook.cache import templates_read

    templates = tmp_path / "templates"
    (templates / "duo").mkdir(parents=True)
    own = templates / "duo" / "face.xml.j2"
    own.write_text("x", encoding="utf-8")
    outside = tmp_path / "elsewhere.svg"
    outside.write_text("<svg/>", encoding="utf-8")
    (templates / "duo" / "linked.svg").symlink_to(outside)
    elsewhere = str(tmp_path / "not-a-template.txt")
    assert templates_read({str(own), elsewhere}, templates) == ["duo/face.xml.j2"]
    assert templates_read({str(own), str(templates / "duo" / "linked.svg")}, templates) is None
