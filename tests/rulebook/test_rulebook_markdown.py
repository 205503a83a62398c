"""The rulebook Markdown subset, the breakdown text and the kinsoku wrap."""

from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.platypus import Paragraph

from pnp.errors import PnpError
from pnp.render.fonts import register_fonts
from pnp.rulebook.markdown import (Heading, ListBlock, Note, Para, TableBlock, inline_markup,
                                   parse_markdown)
from pnp.rulebook.pdf import JaParagraph, PAPERS, _Styles


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


def test_kinsoku_keeps_closing_marks_off_line_starts() -> None:
    register_fonts()
    style = _Styles(PAPERS["a5"].body).body
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
