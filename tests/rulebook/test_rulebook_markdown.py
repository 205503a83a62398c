"""The rulebook Markdown subset, the breakdown text and the kinsoku wrap."""

from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.platypus import Paragraph

from pnp.errors import PnpError
from pnp.render.fonts import register_fonts
from pnp.rulebook.markdown import (Heading, ListBlock, Note, Para, Picture, TableBlock,
                                   inline_markup, parse_markdown, ruling_tags,
                                   strip_ruling_tags)
from pnp.rulebook.pdf import THEMES, JaParagraph, PAPERS, _Styles, fallback_markup


def _lines(text: str) -> list[tuple[int, str]]:
    return list(enumerate(text.splitlines(), start=1))


def test_blocks_of_the_subset() -> None:
    text = """# 題
## 節
### 小節
一行目の文と
二行目は続けて one
two になる。

- 箇条A
  の続き
- 箇条B

3. 三番
4. 四番

> 注意書き

| 見出し | 数 |
|---|--:|
| 値 \\| 棒 | 2 |
"""
    blocks = parse_markdown(_lines(text))
    assert blocks[0] == Heading(1, "題", 1)
    assert [b.level for b in blocks[:3] if isinstance(b, Heading)] == [1, 2, 3]
    assert blocks[3] == Para("一行目の文と二行目は続けて one two になる。", 4)
    assert blocks[4] == ListBlock(False, ("箇条Aの続き", "箇条B"), 8, 1)
    assert blocks[5] == ListBlock(True, ("三番", "四番"), 12, 3)
    assert blocks[6] == Note("注意書き", 15)
    table = blocks[7]
    assert isinstance(table, TableBlock)
    assert table.header == ("見出し", "数") and table.aligns == ("left", "right")
    assert table.rows == (("値 | 棒", "2"),)


@pytest.mark.parametrize("text, line, expected", [
    ("# a\n\n| a | b |\n| x | y |\n", 4, "separator"),
    ("| a | b |\n|---|---|\n| 1 |\n", 3, "1 cells, expected 2"),
    ("#### 深すぎる\n", 1, "heading level 4"),
])
def test_malformed_markdown_names_the_line(text: str, line: int, expected: str) -> None:
    with pytest.raises(PnpError, match=expected) as info:
        parse_markdown(_lines(text), Path("book.md"))
    assert info.value.line == line and str(info.value).startswith(f"book.md:{line}:")


def test_inline_markup_escapes_and_emphasises() -> None:
    out = inline_markup("a < b & **強調**<br>次", strong_color="#123456")
    assert out == 'a &lt; b &amp; <font color="#123456">強調</font><br/>次'
    with pytest.raises(PnpError, match="unclosed"):
        inline_markup("**開いたまま", strong_color="#000000")


def test_heading_anchors_designer_sections_and_pictures() -> None:
    blocks = parse_markdown(_lines("## 準備 {#setup}\n\n## 裁定 {#rulings .designer}\n\n"
                                   "![見本：リール](pic:gallery-reel)\n本文\n"))
    assert blocks[0] == Heading(2, "準備", 1, "setup", False)
    assert blocks[1] == Heading(2, "裁定", 3, "rulings", True)
    assert blocks[2] == Picture("gallery-reel", "見本：リール", 5)
    assert blocks[3] == Para("本文", 6)
    with pytest.raises(PnpError, match="unknown heading class '.draft'"):
        parse_markdown(_lines("## 題 {#a .draft}\n"), Path("b.md"))


def test_ruling_tags_are_found_and_never_printed() -> None:
    text = "カードの値は広がります。{F2 F5a} 次は{N1,N2}です。{{ const x }}"
    assert ruling_tags(text) == ["F2", "F5a", "N1", "N2"]
    assert strip_ruling_tags(text) == "カードの値は広がります。 次はです。{{ const x }}"
    assert "F2" not in inline_markup("値です。{F2}", strong_color="#000000")


def test_english_lines_join_with_spaces() -> None:
    blocks = parse_markdown(_lines("Draw a card\n(from the deck),\nthen play.<br>\nNext\n"))
    assert blocks[0] == Para("Draw a card (from the deck), then play.<br>Next", 1)


def test_english_strong_is_bold_and_missing_glyphs_fall_back() -> None:
    out = THEMES["en"].markup("**Spade** ♠ and 稲妻")
    assert '<font color="#1f5c73" name="VeraBold">Spade</font>' in out
    # Vera has no suits or kanji: those runs are set in the embedded Japanese face.
    assert '<font name="IPAexGothic">♠</font>' in out
    assert '<font name="IPAexGothic">稲妻</font>' in out
    assert fallback_markup("漢字", "IPAexGothic") == "漢字"


def test_kinsoku_keeps_closing_marks_off_line_starts() -> None:
    register_fonts()
    style = _Styles(PAPERS["a5"].body, THEMES["ja"]).body
    text = "この文は括弧の後に句点が続く（カード）。次も同じ「開始」、終わり（例）。" * 3
    plain_bad = 0
    for width in range(120, 260, 3):
        lines = Paragraph(text, style).breakLinesCJK([width]).lines
        starts = [_first(line) for line in lines[1:]]
        plain_bad += sum(1 for s in starts if s in "。、）」")
        fixed = JaParagraph(text, style).breakLinesCJK([width]).lines
        assert not [s for s in (_first(line) for line in fixed[1:]) if s in "。、）」"], width
        assert "".join(_text(line) for line in fixed) == text
    assert plain_bad > 0        # the case really occurs without the fix


def _text(line: object) -> str:
    if isinstance(line, tuple):
        return "".join(line[1])
    return "".join(getattr(w, "text", "") for w in getattr(line, "words", []))


def _first(line: object) -> str:
    return _text(line)[:1]
