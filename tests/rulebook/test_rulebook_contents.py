"""The rulebook's contents page breaks Japanese entries with the shared line breaker."""

from __future__ import annotations

import io
from typing import Any

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import TableStyle
from reportlab.platypus.tableofcontents import TableOfContents

from pnp.render.fonts import FONT_JA, canvas_kwargs, register_fonts
from pnp.rulebook.pdf import PAPERS, THEMES, Contents, JaParagraph, _Styles

from breaks import faults as _faults
from breaks import line_text as _line_text

#: A long contents entry with the places ReportLab's own wrap gets wrong: a
#: number+unit pair (3枚, 9VP), a range (1〜3), ー and small kana after a full line.
ENTRY = ("ラウンドの流れ：リソースカードを3枚ずつ配り、1〜3の出目でタイムカウンターを"
         "取りのぞくフェーズ、そしてボーナス9VPのチェックとシーズンの終わり")
RIGHT_COLUMN = 28.0


def _cells(toc: TableOfContents) -> list[Any]:
    """The flowables in the contents' internal table (each cell holds a tuple of them)."""
    out: list[Any] = []
    for row in toc._table._cellvalues:
        for cell in row:
            out += list(cell) if isinstance(cell, (list, tuple)) else [cell]
    return out


def _entry_lines(cls: type[TableOfContents], width: float) -> tuple[list[str], list[float]]:
    """The lines (text, width) of ENTRY as the contents class ``cls`` wraps it at ``width``."""
    register_fonts()
    styles = _Styles(PAPERS["a5"].body, THEMES["ja"])
    toc = cls(levelStyles=styles.toc, dotsMinLevel=0, rightColumnWidth=RIGHT_COLUMN,
              tableStyle=TableStyle([("FONTNAME", (0, 0), (-1, -1), FONT_JA)]))
    toc._lastEntries = [(1, ENTRY, 12, "h7")]
    toc.wrapOn(Canvas(io.BytesIO(), **canvas_kwargs()), width, 1000)
    para = [f for f in _cells(toc) if hasattr(f, "blPara")][0]
    lines = para.blPara.lines
    return [_line_text(line) for line in lines], [line.currentWidth for line in lines]


def test_contents_entries_keep_the_kinsoku_rules_where_reportlab_does_not() -> None:
    plain_faults = 0
    for width in range(150, 330, 3):
        lines, widths = _entry_lines(Contents, width)
        assert "".join(lines) == ENTRY, width            # nothing lost, nothing added
        assert not _faults(lines), (width, _faults(lines))
        assert len(lines[-1]) > 2 or len(lines) == 1, (width, lines)
        # Every line leaves the page-number column free (indent included).
        indent = _Styles(PAPERS["a5"].body, THEMES["ja"]).toc[1].leftIndent
        assert max(widths) <= width - indent - RIGHT_COLUMN + 1e-6, width
        plain_faults += len(_faults(_entry_lines(TableOfContents, width)[0]))
    # The entry really is a bad case for ReportLab's own wrap of the contents.
    assert plain_faults > 5


def test_contents_entry_is_a_shared_breaker_paragraph() -> None:
    register_fonts()
    styles = _Styles(PAPERS["a5"].body, THEMES["ja"])
    toc = Contents(levelStyles=styles.toc, rightColumnWidth=RIGHT_COLUMN)
    toc._lastEntries = [(0, "遊び方", 3, "h1")]
    toc.wrapOn(Canvas(io.BytesIO(), **canvas_kwargs()), 300, 1000)
    cells = [f for f in _cells(toc) if hasattr(f, "frags")]
    assert cells and all(isinstance(c, JaParagraph) for c in cells)
    # The entry links to its heading.
    assert any(href == "#h1" for f in cells[0].frags for _, href in getattr(f, "link", []))
