"""Japanese and English editions: the same sections, examples and rulings; clean player text."""

from __future__ import annotations

import re

import pytest

from pnp import PROJECT_ROOT
from pnp.rulebook import rulings_stated
from pnp.rulebook.markdown import Heading, ListBlock, Note, Para, Picture, TableBlock
from rulebook_books import LANGS, RULINGS, SLUGS, prepared, ruling_ids

#: The authoritative rulings' IDs (../shared/RULINGS.md), kept here so the
#: suite runs from a clone without shared/; checked against the file when present.
AUTHORITATIVE = {
    "fortuna": {f"F{i}" for i in range(1, 9)} | {"F6b"},
    "nine_peak": {f"N{i}" for i in range(1, 7)},
    "fortune_clover": {f"C{i}" for i in range(1, 10)},
    "episode2": {f"E{i}" for i in range(1, 7)},
    "undecim": {f"U{i}" for i in range(1, 8)},
}

#: Rulings a player never needs at the table (engine bookkeeping, how our
#: content was designed); they are stated in the designer's appendix only.
DESIGNER_ONLY = {
    "F4a",            # which copy of a slot's cards is taken never matters
    "F7a",            # how the engine counts turns
    "N3a", "N4c",     # order of a two-card pass; identical copies
    "C5a",            # what the engine's observation shows
    "C6",             # that the Fortune cards were designed by us
    "E5a", "E5c", "E5d", "E6b",   # draw-window bookkeeping, other hand sizes, changed data
    "U1", "U4b", "U6a",           # designed contents, build allowances, one winner
}


def _appendix_ids(slug: str, lang: str) -> set[str]:
    """Ruling IDs stated with their ID in the designer's appendix."""
    found: set[str] = set()
    inside = False
    for block in prepared(slug, lang, True).blocks:
        if isinstance(block, Heading) and block.level == 2:
            inside = block.designer
        if inside and isinstance(block, ListBlock):
            for item in block.items:
                match = re.match(r"\*\*([A-Z]\d+[a-z]?) ", item)
                if match:
                    found.add(match.group(1))
    return found


def _skeleton(slug: str, lang: str) -> list[tuple[str, ...]]:
    """The language-free structure: headings (level, anchor), pictures, ruling tags per section."""
    out: list[tuple[str, ...]] = []
    book = prepared(slug, lang, True)
    for block in book.blocks:
        if isinstance(block, Heading):
            out.append(("heading", str(block.level), block.anchor))
        elif isinstance(block, Picture):
            out.append(("picture", block.ref))
        elif isinstance(block, TableBlock):
            out.append(("table", str(len(block.header)), str(len(block.rows))))
    return out


def test_authoritative_id_list_matches_rulings_file() -> None:
    if RULINGS.exists():
        found = ruling_ids()
        for slug, ids in AUTHORITATIVE.items():
            assert {i for i in found[slug] if i[1:].isdigit() or i == "F6b"} >= ids, slug


@pytest.mark.parametrize("slug", SLUGS)
def test_both_editions_have_the_same_sections_pictures_and_tables(slug: str) -> None:
    ja, en = _skeleton(slug, "ja"), _skeleton(slug, "en")
    assert ja == en
    headings = [s for s in ja if s[0] == "heading" and s[1] in ("2", "3")]
    assert headings and all(s[2] for s in headings)     # every section has an anchor
    assert len({s[2] for s in headings}) == len(headings)


@pytest.mark.parametrize("slug", SLUGS)
def test_both_editions_state_the_same_rulings_in_the_same_sections(slug: str) -> None:
    ja = {k: sorted(v) for k, v in rulings_stated(slug, lang="ja").items() if v}
    en = {k: sorted(v) for k, v in rulings_stated(slug, lang="en").items() if v}
    assert ja == en


@pytest.mark.parametrize("slug", SLUGS)
def test_every_ruling_is_in_the_appendix_of_both_editions(slug: str) -> None:
    expected = ruling_ids()[slug] | AUTHORITATIVE[slug]
    for lang in LANGS:
        assert expected <= _appendix_ids(slug, lang), lang
    assert _appendix_ids(slug, "ja") == _appendix_ids(slug, "en")


@pytest.mark.parametrize("slug", SLUGS)
def test_every_ruling_a_player_needs_is_stated_in_the_player_text(slug: str) -> None:
    appendix = _appendix_ids(slug, "ja")
    needed = appendix - DESIGNER_ONLY
    for lang in LANGS:
        tagged = {t for tags in rulings_stated(slug, lang=lang).values() for t in tags}
        assert needed <= tagged, (lang, sorted(needed - tagged))
        assert tagged <= appendix, (lang, sorted(tagged - appendix))


def _player_text(slug: str, lang: str) -> str:
    """Every word a player reads (pictures' captions included), ruling tags removed."""
    from pnp.rulebook.markdown import strip_ruling_tags

    parts: list[str] = []
    for block in prepared(slug, lang).blocks:
        if isinstance(block, (Heading, Para, Note)):
            parts.append(block.text)
        elif isinstance(block, ListBlock):
            parts += block.items
        elif isinstance(block, TableBlock):
            parts += [c for row in (block.header,) + block.rows for c in row]
        elif isinstance(block, Picture):
            parts.append(block.caption)
    return strip_ruling_tags("\n".join(parts))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SLUGS)
def test_player_text_has_no_ids_working_notes_or_designer_sections(slug: str, lang: str) -> None:
    text = _player_text(slug, lang)
    assert not re.search(r"\b[FNCEU]\d+[a-z]?\b", text.replace("F0", "").replace("F10", ""))
    assert "暫定" not in text and "provisional" not in text.lower()
    assert "シミュレーター" not in text and "simulator" not in text.lower()
    assert "ルールエンジン" not in text and "engine" not in text.lower()
    assert not [b for b in prepared(slug, lang).blocks if isinstance(b, Heading) and b.designer]
    designer = [b for b in prepared(slug, lang, True).blocks
                if isinstance(b, Heading) and b.designer]
    assert designer                       # the appendix exists behind --designer


@pytest.mark.parametrize("slug", SLUGS)
def test_english_edition_has_no_untranslated_japanese(slug: str) -> None:
    text = _player_text(slug, "en")
    # The game's own Japanese title may be quoted (第2話 is its name).
    text = text.replace("第2話", "")
    assert not re.findall(r"[\u3040-\u30ff\u4e00-\u9fff]+", text)


def test_english_sources_translate_every_japanese_source() -> None:
    for source in sorted((PROJECT_ROOT / "rulebooks").glob("*.md")):
        if source.name.count(".") == 1 and source.name != "README.md":
            assert source.with_name(source.stem + ".en.md").is_file(), source.name
