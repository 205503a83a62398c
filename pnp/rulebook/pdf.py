"""Rulebook blocks → a print-ready PDF with ReportLab platypus.

One embedded font (IPAexGothic, subset) for everything, so ``pdffonts``
lists a single embedded face; ``invariant=1`` and fixed metadata make the
same input give byte-identical output. Japanese wraps with
``wordWrap="CJK"`` (ReportLab keeps 。、」 etc. off line starts).
"""

from __future__ import annotations

from pnp.fileio import write_bytes_atomic

import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.lib.pagesizes import A4, A5
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.lib.textsplit import CANNOT_END_LINE, CANNOT_START_LINE
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (Flowable, HRFlowable, ListFlowable, ListItem,
                                Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle)

from pnp.errors import PnpError
from pnp.render.fonts import FONT_JA, canvas_kwargs
from pnp.rulebook.markdown import (Block, Heading, ListBlock, Note, Para, TableBlock,
                                   inline_markup)
from pnp.units import mm

INK = colors.HexColor("#222222")
ACCENT = colors.HexColor("#1f5c73")       # headings, strong text, rules
MUTED = colors.HexColor("#6b6b6b")        # running header, page numbers
RULE = colors.HexColor("#b9c3c8")         # light table rules
TINT = colors.HexColor("#eef3f5")         # table header and note background
STRONG_HEX = "#1f5c73"


@dataclass(frozen=True)
class PaperSpec:
    """Page size, margins and body type size for one paper choice."""

    name: str
    size: tuple[float, float]
    margin_x: float
    margin_top: float
    margin_bottom: float
    body: float       # body font size in points


PAPERS: dict[str, PaperSpec] = {
    "a5": PaperSpec("A5", A5, mm(14), mm(15), mm(16), 8.8),
    "a4": PaperSpec("A4", A4, mm(22), mm(22), mm(22), 10.5),
}


def get_paper(name: str) -> PaperSpec:
    """The paper called ``name`` (``a5`` or ``a4``, any case) or a :class:`PnpError`."""
    key = str(name).strip().lower()
    if key not in PAPERS:
        raise PnpError(f"unknown rulebook paper {name!r}: expected one of "
                       f"{', '.join(p.upper() for p in PAPERS)}")
    return PAPERS[key]


#: Characters that must not start a line (closing brackets, 。、 etc.) or end one
#: (opening brackets): ReportLab's strongly prohibited sets.
_NO_START = CANNOT_START_LINE[0]
_NO_END = CANNOT_END_LINE[0]


def _line_text(line: Any) -> str:
    """The text of one wrapped line (either of ReportLab's two line shapes)."""
    if isinstance(line, tuple):
        return "".join(str(part) for part in line[1])
    return "".join(getattr(word, "text", "") for word in getattr(line, "words", []))


class JaParagraph(Paragraph):
    """A Paragraph with firmer kinsoku (line-break rules for Japanese).

    ReportLab's CJK wrap hangs one closing character in the margin, but two
    in a row (``）。``) leave the second at the start of the next line, and
    opening brackets may end a line. When that happens, the offending line
    is made one character narrower and the paragraph is wrapped again (a
    few times at most), which pulls the character before it down as well.
    """

    def breakLinesCJK(self, maxWidths: Any) -> Any:
        """Wrap, then re-wrap while a line starts with 。、」 or ends with 「（."""
        widths = list(maxWidths) if isinstance(maxWidths, (list, tuple)) else [maxWidths]
        size = self.style.fontSize
        result = super().breakLinesCJK(list(widths))
        for _ in range(8):
            lines = [_line_text(line) for line in getattr(result, "lines", [])]
            bad = None
            for index, text in enumerate(lines):
                if index and text[:1] in _NO_START and text[:1]:
                    bad = index - 1
                    break
                if index < len(lines) - 1 and text[-1:] in _NO_END and text[-1:]:
                    bad = index
                    break
            if bad is None:
                return result
            while len(widths) <= bad + 1:
                widths.append(widths[-1])
            widths[bad] -= size
            self.__dict__.pop("blPara", None)
            result = super().breakLinesCJK(list(widths))
        return result


class _Styles:
    """Paragraph styles scaled to the paper's body size."""

    def __init__(self, body: float) -> None:
        lead = body * 1.62       # Japanese text needs generous leading
        # bulletFontName too: ReportLab's default (Helvetica) would be referenced unembedded.
        base = dict(fontName=FONT_JA, bulletFontName=FONT_JA, textColor=INK, wordWrap="CJK")
        self.body = ParagraphStyle("body", fontSize=body, leading=lead, spaceAfter=body * 0.55,
                                   **base)
        self.title = ParagraphStyle("title", fontSize=body * 2.3, leading=body * 2.9,
                                    alignment=TA_CENTER, spaceAfter=body * 0.3,
                                    textColor=ACCENT, fontName=FONT_JA, bulletFontName=FONT_JA,
                                    wordWrap="CJK")
        self.h2 = ParagraphStyle("h2", fontSize=body * 1.42, leading=body * 1.9,
                                 spaceBefore=body * 1.3, spaceAfter=0, keepWithNext=1,
                                 textColor=ACCENT, fontName=FONT_JA, bulletFontName=FONT_JA,
                                    wordWrap="CJK")
        self.h3 = ParagraphStyle("h3", fontSize=body * 1.12, leading=body * 1.6,
                                 spaceBefore=body * 0.8, spaceAfter=body * 0.25, keepWithNext=1,
                                 textColor=ACCENT, fontName=FONT_JA, bulletFontName=FONT_JA,
                                    wordWrap="CJK")
        self.item = ParagraphStyle("item", fontSize=body, leading=lead, spaceAfter=body * 0.2,
                                   **base)
        self.note = ParagraphStyle("note", fontSize=body * 0.94, leading=body * 1.5, **base)
        self.lead = ParagraphStyle("lead", parent=self.body, alignment=TA_CENTER)
        cell = body * 0.9
        self.cell = ParagraphStyle("cell", fontSize=cell, leading=cell * 1.42, **base)
        self.cell_head = ParagraphStyle("cell_head", fontSize=cell, leading=cell * 1.42,
                                        fontName=FONT_JA, bulletFontName=FONT_JA,
                                        textColor=ACCENT, wordWrap="CJK")
        self.cell_size = cell


#: Padding SimpleDocTemplate's frame keeps inside the margins on each side.
FRAME_PADDING = 6.0


def frame_width(paper: PaperSpec) -> float:
    """Width available to flowables: the page minus margins and frame padding."""
    return paper.size[0] - 2 * paper.margin_x - 2 * FRAME_PADDING


def _markup(text: str, block: Block) -> str:
    return inline_markup(text, strong_color=STRONG_HEX, line=block.line)


def _column_widths(cells: list[list[str]], available: float, font_size: float,
                   padding: float) -> list[float]:
    """Column widths by water-filling: narrow columns get their natural width."""
    columns = len(cells[0])
    natural = [0.0] * columns
    for row in cells:
        for i, text in enumerate(row):
            longest = max((stringWidth(part, FONT_JA, font_size)
                           for part in text.split("<br/>")), default=0.0)
            natural[i] = max(natural[i], longest + 2 * padding + 1)
    widths = [0.0] * columns
    remaining = available
    todo = sorted(range(columns), key=lambda i: natural[i])
    while todo:
        share = remaining / len(todo)
        i = todo[0]
        if natural[i] <= share:
            widths[i] = natural[i]
            remaining -= natural[i]
            todo.pop(0)
        else:
            # The wide columns split what is left in proportion to their natural widths.
            total = sum(natural[j] for j in todo)
            for j in todo:
                widths[j] = remaining * natural[j] / total
            todo = []
            remaining = 0.0
    if remaining > 0:
        # Spread the spare width in proportion so tables span the text block.
        total = sum(widths) or 1.0
        widths = [w + remaining * w / total for w in widths]
    return widths


def _plain(markup: str) -> str:
    """Markup with tags removed except line breaks (for width estimates)."""
    return re.sub(r"<(?!br/>)[^>]+>", "", markup)


class _RuleTable(Table):
    """A table that moves to the next page whole when it is short (``keep_whole``).

    ``KeepTogether`` would do the same, but platypus does not allow a
    container inside the group a ``keepWithNext`` heading forms with the
    next flowable, so the heading would be left alone at a page foot.
    """

    keep_whole = False

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        """No split for short tables (the frame then moves the table on)."""
        if self.keep_whole:
            return []
        return super().split(availWidth, availHeight)


def _table(block: TableBlock, styles: _Styles, available: float) -> Flowable:
    padding = 3.5
    header = [_markup(c, block) for c in block.header]
    body = [[_markup(c, block) for c in row] for row in block.rows]
    widths = _column_widths([[_plain(c) for c in row] for row in [header] + body],
                            available, styles.cell_size, padding)
    aligns = {"left": TA_LEFT, "center": TA_CENTER, "right": TA_RIGHT}

    def cell(text: str, col: int, head: bool) -> Paragraph:
        style = styles.cell_head if head else styles.cell
        if block.aligns[col] != "left":
            style = ParagraphStyle(f"{style.name}_{block.aligns[col]}", parent=style,
                                   alignment=aligns[block.aligns[col]])
        return JaParagraph(text, style)

    data = [[cell(c, i, True) for i, c in enumerate(header)]]
    data += [[cell(c, i, False) for i, c in enumerate(row)] for row in body]
    table = _RuleTable(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
    table.keep_whole = len(block.rows) <= 8
    commands: list[tuple[Any, ...]] = [
        ("FONTNAME", (0, 0), (-1, -1), FONT_JA),     # never the Helvetica default
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), padding),
        ("RIGHTPADDING", (0, 0), (-1, -1), padding),
        ("TOPPADDING", (0, 0), (-1, -1), 2.2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 3.2),
        ("BACKGROUND", (0, 0), (-1, 0), TINT),
        ("LINEABOVE", (0, 0), (-1, 0), 0.8, ACCENT),
        ("LINEBELOW", (0, 0), (-1, 0), 0.5, ACCENT),
        ("LINEBELOW", (0, -1), (-1, -1), 0.8, ACCENT),
    ]
    if len(data) > 2:
        commands.append(("LINEBELOW", (0, 1), (-1, -2), 0.3, RULE))
    table.setStyle(TableStyle(commands))
    return table


def _note(block: Note, styles: _Styles, available: float) -> Flowable:
    box = Table([[JaParagraph(_markup(block.text, block), styles.note)]], colWidths=[available])
    box.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), FONT_JA),
        ("BACKGROUND", (0, 0), (-1, -1), TINT),
        ("LINEBEFORE", (0, 0), (0, -1), 2, ACCENT),
        ("LEFTPADDING", (0, 0), (-1, -1), 7),
        ("RIGHTPADDING", (0, 0), (-1, -1), 6),
        ("TOPPADDING", (0, 0), (-1, -1), 4),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 5),
    ]))
    return box


def _list(block: ListBlock, styles: _Styles) -> Flowable:
    items = [ListItem(JaParagraph(_markup(text, block), styles.item)) for text in block.items]
    size = styles.item.fontSize
    if block.ordered:
        return ListFlowable(items, bulletType="1", start=block.start, bulletFormat="%s.",
                            bulletFontName=FONT_JA, bulletFontSize=size, bulletColor=ACCENT,
                            leftIndent=size * 1.8, bulletDedent=size * 1.5,
                            spaceAfter=size * 0.45)
    return ListFlowable(items, bulletType="bullet", start="●", bulletFontName=FONT_JA,
                        bulletFontSize=size * 0.5, bulletColor=ACCENT, bulletOffsetY=-size * 0.3,
                        leftIndent=size * 1.3, bulletDedent=size * 1.0, spaceAfter=size * 0.45)


def _fit_title(style: ParagraphStyle, text: str, available: float) -> ParagraphStyle:
    """The title style, shrunk (to at most 40 % smaller) so the title fits one line."""
    width = stringWidth(re.sub(r"\*\*", "", text), FONT_JA, style.fontSize)
    if width <= available:
        return style
    scale = max(0.6, available / width * 0.98)
    return ParagraphStyle("title_fit", parent=style, fontSize=style.fontSize * scale,
                          leading=style.leading * scale)


def flowables(blocks: list[Block], paper: PaperSpec) -> list[Flowable]:
    """Platypus flowables for the parsed rulebook."""
    styles = _Styles(paper.body)
    available = frame_width(paper)
    story: list[Flowable] = []
    lead = False        # paragraphs between the # title and the first ## are centred
    for block in blocks:
        if isinstance(block, Heading):
            text = _markup(block.text, block)
            lead = block.level == 1
            if block.level == 1:
                story.append(JaParagraph(text, _fit_title(styles.title, block.text, available)))
                story.append(HRFlowable(width="40%", thickness=0.8, color=ACCENT,
                                        spaceBefore=2, spaceAfter=paper.body))
            elif block.level == 2:
                story.append(JaParagraph(text, styles.h2))
                rule = HRFlowable(width=available, thickness=0.6, color=ACCENT, spaceBefore=1.5,
                                  spaceAfter=paper.body * 0.6)
                rule.keepWithNext = 1
                story.append(rule)
            else:
                story.append(JaParagraph(text, styles.h3))
        elif isinstance(block, Para):
            style = styles.lead if lead else styles.body
            story.append(JaParagraph(_markup(block.text, block), style))
        elif isinstance(block, Note):
            story += [_note(block, styles, available), Spacer(1, paper.body * 0.7)]
        elif isinstance(block, ListBlock):
            story.append(_list(block, styles))
        else:
            # Short tables stay in one piece; long ones may split (header repeats).
            story.append(_table(block, styles, available))
            story.append(Spacer(1, paper.body * 0.8))
    return story


def render_pdf(blocks: list[Block], paper: PaperSpec, *, title: str, subject: str,
               running_head: str) -> bytes:
    """The rulebook as PDF bytes (deterministic for identical input)."""
    buffer = io.BytesIO()
    kwargs = canvas_kwargs()          # embedded initial font (no stray Helvetica)
    doc = SimpleDocTemplate(
        buffer, pagesize=paper.size, leftMargin=paper.margin_x, rightMargin=paper.margin_x,
        topMargin=paper.margin_top, bottomMargin=paper.margin_bottom,
        title=title, author="pnp", subject=subject, creator="pnp rulebook",
        producer="pnp (ReportLab)", invariant=1, **kwargs)
    width, height = paper.size
    small = paper.body * 0.85

    def furniture(canvas: Canvas, document: SimpleDocTemplate) -> None:
        page = canvas.getPageNumber()
        # A booklet page is trimmed to its own size: Trim = Bleed = Media, so
        # preflight (and print shops) find the boxes they expect.
        canvas.setTrimBox((0, 0, width, height))
        canvas.setBleedBox((0, 0, width, height))
        canvas.saveState()
        canvas.setFont(FONT_JA, small)
        canvas.setFillColor(MUTED)
        canvas.drawCentredString(width / 2, paper.margin_bottom * 0.45, f"— {page} —")
        if page > 1:
            y = height - paper.margin_top * 0.55
            canvas.drawRightString(width - paper.margin_x, y, running_head)
            canvas.setStrokeColor(RULE)
            canvas.setLineWidth(0.4)
            canvas.line(paper.margin_x, y - small * 0.45, width - paper.margin_x, y - small * 0.45)
        canvas.restoreState()

    doc.build(flowables(blocks, paper), onFirstPage=furniture, onLaterPages=furniture)
    return buffer.getvalue()


def write_atomic(data: bytes, out: Path) -> None:
    """Write ``data`` to ``out`` via a temporary file in the same folder and ``os.replace``."""
    out.parent.mkdir(parents=True, exist_ok=True)
    write_bytes_atomic(out, data)
