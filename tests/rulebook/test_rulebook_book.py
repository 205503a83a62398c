"""The PDF is a book: contents with page numbers, bookmarks, links, headings kept with their text,
kinsoku in both languages, vector pictures, readable sizes and colours, and a folded booklet."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pikepdf
import pypdfium2 as pdfium
import pytest
from reportlab.lib import colors

from pnp.rulebook import export_rulebook
from pnp.rulebook.booklet import booklet_order, padded_count
from pnp.rulebook.markdown import Heading, ListBlock, Para, TableBlock
from pnp.rulebook.pdf import (ACCENT, INK, MUTED, NO_START, PAPERS, THEMES, TINT, BookMeta,
                              Layout, _Styles, get_paper, plain_text, render_pdf)
from pnp.rulebook.pictures import MAX_WIDTH, MIN_LABEL
from rulebook_books import LANGS, SLUGS, book, prepared

#: Characters that may not start a line: in Japanese the shared kinsoku set
#: (NO_START: closing marks, ー, small kana, 〜 …), and closing punctuation in English.
NO_START_EN = ".,;:!?)]}’”%。、」』）】"


def _lines(pdf: bytes) -> list[list[str]]:
    """Text lines of every page, as the PDF's text layer gives them."""
    doc = pdfium.PdfDocument(pdf)
    try:
        return [doc[i].get_textpage().get_text_range().splitlines() for i in range(len(doc))]
    finally:
        doc.close()


def _headings(slug: str, lang: str) -> dict[str, str]:
    """Section anchor → heading text (## and ###) of the player's edition."""
    return {b.anchor: plain_text(b.text) for b in prepared(slug, lang).blocks
            if isinstance(b, Heading) and b.level in (2, 3)}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SLUGS)
def test_contents_page_numbers_bookmarks_and_links(slug: str, lang: str) -> None:
    pdf, layout = book(slug, lang)
    titles = _headings(slug, lang)
    assert [anchor for _, anchor in layout.headings] == list(titles)
    pages = _lines(pdf)
    contents = " ".join(" ".join(page) for page in pages[1:4])
    for page, anchor in layout.headings:
        # "Overview . . . . 3": the title, dot leaders, the page it starts on.
        title = re.escape(titles[anchor]).replace(r"\ ", r"\s*")
        assert re.search(rf"{title}[\s.]*\b{page}\b", contents), (anchor, page)
        assert any(titles[anchor].replace(" ", "") in line.replace(" ", "")
                   for line in pages[page - 1]), (anchor, page)
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        with doc.open_outline() as outline:
            top = [item.title for item in outline.root]
            every = top + [sub.title for item in outline.root for sub in item.children]
        assert set(every) == set(titles.values())
        links = [a for p in doc.pages for a in p.get("/Annots", [])
                 if a.get("/Subtype") == "/Link"]
        assert len(links) >= 2 * len(titles)      # each entry's text and its page number
        assert doc.Root.PageMode == "/UseOutlines"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SLUGS)
def test_no_heading_ends_a_page(slug: str, lang: str) -> None:
    _, layout = book(slug, lang)
    assert layout.stranded == []


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SLUGS)
def test_no_lead_in_ends_a_page(slug: str, lang: str) -> None:
    # "Player who never retreats:" alone at a page foot, its table overleaf.
    _, layout = book(slug, lang)
    assert layout.stranded_leads == []


def _lead_in_book(fillers: int, lead: str) -> tuple[list[str], Layout]:
    """Pages' text of a book: ``fillers`` lines, a subheading, the paragraph ``lead``, a table."""
    blocks = [Heading(1, "Book", 1), Heading(2, "Section", 2, anchor="section")]
    blocks += [Para(f"Filler line {i}.", 3 + i) for i in range(fillers)]
    blocks.append(Heading(3, "Odds", 99, anchor="odds"))   # must move on with them too
    blocks.append(Para(lead, 100))
    blocks.append(TableBlock(("Zeta", "Eta"), tuple((f"r{i}", "x") for i in range(6)),
                             ("left", "left"), 101))
    blocks.append(Para("After the table.", 110))
    return _page_texts(blocks)


def _page_texts(blocks: list[Any]) -> tuple[list[str], Layout]:
    """Each page's text of a small English A5 book of ``blocks``, and its layout record."""
    layout = Layout()
    meta = BookMeta(title="Book", subtitle="Rulebook", running_head="Book", subject="", lang="en")
    doc = pdfium.PdfDocument(render_pdf(blocks, get_paper("a5"), meta, layout=layout))
    try:
        return [doc[i].get_textpage().get_text_range() for i in range(len(doc))], layout
    finally:
        doc.close()


@pytest.mark.parametrize("text", ["The table below:", "Odds by boss."])
def test_a_lead_in_moves_on_with_the_table_it_introduces(text: str) -> None:
    moved = 0
    for fillers in range(14, 34):
        pages, layout = _lead_in_book(fillers, text)
        lead = next(n for n, page in enumerate(pages) if text in page)
        table = next(n for n, page in enumerate(pages) if "Zeta" in page)
        assert lead == table, fillers
        assert layout.stranded_leads == [] and layout.stranded == []
        moved += "Filler line 0." not in pages[lead]
    assert moved            # some filler counts did push the lead-in over the page foot


def test_a_long_table_leaves_no_lone_row_on_either_page() -> None:
    # Undecim's English terms table left its last row alone overleaf.
    splits = set()
    for fillers in range(4, 30):
        blocks = [Heading(1, "Book", 1), Heading(2, "Section", 2, anchor="section")]
        blocks += [Para(f"Filler line {i}.", 3 + i) for i in range(fillers)]
        blocks.append(ListBlock(False, ("Not a lead-in.",), 98))   # the table may start low
        blocks.append(TableBlock(("Zeta", "Eta"), tuple((f"row{i:02d}", "x") for i in range(14)),
                                 ("left", "left"), 99))
        pages, _ = _page_texts(blocks)
        rows = [n for n in (page.count("row") for page in pages) if n]
        assert sum(rows) == 14 and min(rows) >= 2, (fillers, rows)
        splits.add(len(rows))
    assert splits == {1, 2}          # some placements did split the table


def test_a_list_leaves_no_lone_item_on_either_page() -> None:
    # 第2話's last clarification stood alone on the book's last page.
    splits = set()
    for fillers in range(14, 36):
        blocks = [Heading(1, "Book", 1), Heading(2, "Section", 2, anchor="section")]
        blocks += [Para(f"Filler line {i}.", 3 + i) for i in range(fillers)]
        blocks.append(Heading(3, "Questions", 98, anchor="questions"))
        # Three lines an item: the first two (which may not part) outgrow the
        # five lines a heading otherwise asks room for.
        text = "says something that takes three lines of text in the narrow column of an A5 page " * 2
        blocks.append(ListBlock(False, tuple(f"Item{i} {text}" for i in range(5)), 99))
        pages, layout = _page_texts(blocks)
        items = [n for n in (page.count("Item") for page in pages) if n]
        assert sum(items) == 5 and min(items) >= 2, (fillers, items)
        assert layout.stranded == [], fillers
        splits.add(len(items))
    assert splits == {1, 2}          # some placements did split the list


def test_a_list_taller_than_a_page_still_breaks() -> None:
    # Keeping items together must give way when they cannot fit any page.
    meta = BookMeta(title="Book", subtitle="Rulebook", running_head="Book", subject="", lang="en")
    text = "word " * 900
    blocks = [Heading(1, "Book", 1), Heading(2, "Section", 2, anchor="section"),
              ListBlock(False, (text, text), 3)]
    layout = Layout()
    render_pdf(blocks, get_paper("a5"), meta, layout=layout)
    assert layout.pages >= 5


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SLUGS)
def test_no_line_starts_with_a_no_start_character(slug: str, lang: str) -> None:
    pdf, _ = book(slug, lang)
    banned = set(NO_START) if lang == "ja" else set(NO_START_EN)
    bad = [(n + 1, line) for n, page in enumerate(_lines(pdf)) for line in page
           if line.strip() and line.lstrip()[0] in banned]
    assert not bad


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SLUGS)
def test_pictures_are_vector_and_never_shrunk(slug: str, lang: str) -> None:
    pdf, _ = book(slug, lang)
    assert b"/Subtype /Image" not in pdf          # cards and diagrams are drawn, not pasted
    book_ = prepared(slug, lang)
    assert book_.pictures
    for ref, scene in book_.pictures.items():
        # At most the narrowest text block: labels keep their printed size.
        assert scene.width <= MAX_WIDTH, (ref, scene.width)


def test_type_sizes_and_colours_are_readable() -> None:
    for paper in PAPERS.values():
        for theme in THEMES.values():
            styles = _Styles(paper.body, theme)
            sizes = [s.fontSize for s in (styles.body, styles.item, styles.note, styles.cell,
                                          styles.caption, *styles.toc)]
            assert min(sizes) >= 6.5, (paper.name, theme.lang)
    assert MIN_LABEL >= 6.5

    def luminance(c: colors.Color) -> float:
        def channel(v: float) -> float:
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
        return 0.2126 * channel(c.red) + 0.7152 * channel(c.green) + 0.0722 * channel(c.blue)

    for ink in (INK, ACCENT, MUTED):
        for paper_colour in (colors.white, TINT):
            light, dark = sorted((luminance(ink), luminance(paper_colour)), reverse=True)
            assert (light + 0.05) / (dark + 0.05) >= 4.5, (ink, paper_colour)


def test_booklet_order_and_padding() -> None:
    assert booklet_order(8) == [(8, 1), (2, 7), (6, 3), (4, 5)]
    assert [padded_count(n) for n in (1, 4, 9, 12, 13)] == [4, 4, 12, 12, 16]
    with pytest.raises(ValueError):
        booklet_order(6)


@pytest.mark.parametrize("paper, sheet", [("a5", (841.89, 595.28)),
                                          ("half-letter", (792.0, 612.0))])
def test_booklet_prints_pages_in_fold_order(tmp_path: Path, paper: str,
                                            sheet: tuple[float, float]) -> None:
    single = export_rulebook("fortuna", tmp_path / "single.pdf", lang="en", paper=paper)
    pages = len(pdfium.PdfDocument(single))
    folded = export_rulebook("fortuna", tmp_path / "b.pdf", lang="en", paper=paper,
                             imposition="booklet")
    doc = pdfium.PdfDocument(folded)
    total = padded_count(pages)
    assert len(doc) == total // 2 and total % 4 == 0 and total > pages
    for index, (left, right) in enumerate(booklet_order(total)):
        page = doc[index]
        width, height = page.get_size()
        assert abs(width - sheet[0]) < 0.5 and abs(height - sheet[1]) < 0.5
        text = page.get_textpage()
        for number, x0 in ((left, 0.0), (right, width / 2)):
            half = text.get_text_bounded(left=x0, bottom=0, right=x0 + width / 2, top=height)
            half = half or ""
            # Page 1 is the title page (no folio); blank pages carry nothing.
            if 1 < number <= pages:
                assert f"— {number} —" in half, (index, number)
            elif number > pages:
                assert not half.strip(), (index, number)
    data = folded.read_bytes()
    assert data.count(b"/FontFile2") == data.count(b"/Type /FontDescriptor") >= 1
    assert b"/Helvetica" not in data
    again = export_rulebook("fortuna", tmp_path / "c.pdf", lang="en", paper=paper,
                            imposition="booklet")
    assert again.read_bytes() == data
