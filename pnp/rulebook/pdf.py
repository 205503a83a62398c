"""Rulebook blocks → a print-ready book (PDF) with ReportLab platypus.

The book has a title page, a table of contents with page numbers that link
to their sections, PDF bookmarks for every section, running heads on the
outer edge, pictures drawn as vectors (card faces from the templates,
diagrams from the data) and tables that repeat their header when they
break. Headings never stand alone at a page foot: each needs room for
itself and a few lines of what follows, or it moves on. The same holds for
a lead-in (a paragraph that introduces the table after it, or one that
ends in a colon): it moves on with the start of what it introduces. A table
or list that breaks leaves at least two rows or items on each page.

Fonts are embedded TrueType subsets: IPAexGothic for Japanese; the English
edition sets Bitstream Vera (regular and bold) with IPAexGothic for any
glyph Vera lacks (card suits, a Japanese name). ``invariant=1`` and fixed
metadata make the same input give byte-identical output. Japanese wraps
with the cards' line breaker and kinsoku rules (:class:`JaParagraph`).
"""

from __future__ import annotations

import io
import re
from ast import literal_eval
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (BaseDocTemplate, CondPageBreak, Flowable, Frame, HRFlowable,
                                KeepTogether, ListFlowable, ListItem, NextPageTemplate,
                                PageBreak, PageTemplate, Paragraph, Spacer, Table, TableStyle)
from reportlab.platypus.paragraph import (ParaLines, _handleBulletWidth, cjkU,
                                          makeCJKParaLine)
from reportlab.platypus.tableofcontents import TableOfContents, drawPageNumbers

from pnp.errors import PnpError
from pnp.fileio import write_bytes_atomic
from pnp.printing.papers import PAPER_NAMES, PAPER_SIZES
from pnp.render import kinsoku, textlayout
from pnp.render.fonts import (FONT_DISPLAY, FONT_JA, FONT_LATIN, canvas_kwargs, has_glyph,
                              register_fonts)
from pnp.rulebook.markdown import (Block, Heading, ListBlock, Note, Para, Picture, TableBlock,
                                   inline_markup)
from pnp.rulebook.pictures import Scene, draw_text
from pnp.units import mm

INK = colors.HexColor("#222222")
ACCENT = colors.HexColor("#1f5c73")       # headings, strong text, rules
MUTED = colors.HexColor("#5f5f5f")        # running head, page numbers, captions (6.4:1)
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


def _paper(key: str, margin_x: float, margin_top: float, margin_bottom: float,
           body: float) -> PaperSpec:
    """A rulebook paper: name and size from the ``[papers]`` table, typography from here."""
    size = PAPER_SIZES[key]
    return PaperSpec(PAPER_NAMES[key], size, margin_x, margin_top, margin_bottom, body)


#: The rulebook's page sizes; names and sizes are the print profiles' ``[papers]``
#: rows (pnp/printing/profiles.toml), the one table of papers.
PAPERS: dict[str, PaperSpec] = {
    "a5": _paper("a5", mm(14), mm(15), mm(16), 8.8),
    "a4": _paper("a4", mm(22), mm(22), mm(22), 10.5),
    "half-letter": _paper("half-letter", mm(14), mm(15), mm(16), 8.8),
    "letter": _paper("letter", mm(22), mm(20), mm(20), 10.5),
}

#: Half a US Letter sheet: the page of a Letter booklet.
HALF_LETTER = PAPERS["half-letter"].size


def get_paper(name: str) -> PaperSpec:
    """The paper called ``name`` (``a5``, ``a4``, ``half-letter``, ``letter``) or a PnpError."""
    key = str(name).strip().lower()
    if key not in PAPERS:
        raise PnpError(f"unknown rulebook paper {name!r}: expected one of "
                       f"{', '.join(PAPERS)}")
    return PAPERS[key]


#: Characters that must not start or end a line: the shared kinsoku sets
#: (:mod:`pnp.render.kinsoku`), the same ones the cards use.
NO_START = kinsoku.NO_START
NO_END = kinsoku.NO_END


class JaParagraph(Paragraph):
    """A Paragraph whose Japanese lines break as the cards' text does.

    ReportLab's own CJK wrap knows only a short list of characters that may
    not start a line, hangs one of them in the margin and splits ``1〜3`` or
    ``3枚``. Here the paragraph's runs go through the card renderer's line
    breaker instead (:func:`pnp.render.textlayout.chunks` and
    :func:`~pnp.render.textlayout.break_lines`, with the rules of
    :mod:`pnp.render.kinsoku`), so ``ー``, small kana, ``〜`` and closing
    marks never start a line, ranges and number+unit pairs stay whole and a
    last line of one or two characters is avoided when another break exists.
    ReportLab only draws the lines. (English paragraphs do not wrap here:
    they break at spaces, which ReportLab does well.)
    """

    def breakLinesCJK(self, maxWidths: Any) -> Any:
        """Break into lines with the shared kinsoku line breaker (ReportLab's line objects)."""
        widths = list(maxWidths) if isinstance(maxWidths, (list, tuple)) else [maxWidths]
        if getattr(self, "_splitpara", False) and hasattr(self, "blPara"):
            return self.blPara            # the second half of a split: lines already made
        frags = self.frags
        if not frags:
            return super().breakLinesCJK(widths)
        _handleBulletWidth(self.bulletText, self.style, widths)
        lines = shared_cjk_lines(frags, widths, calc_bounds=getattr(
            self, "autoLeading", getattr(self.style, "autoLeading", "")) not in ("", "off"))
        if lines is None:
            # Something the shared breaker cannot measure (an inline image) or a
            # word wider than the column: ReportLab's own wrap, as before.
            return super().breakLinesCJK(widths)
        return lines


def shared_cjk_lines(frags: list[Any], widths: list[float], *,
                     calc_bounds: bool = False) -> ParaLines | None:
    """ReportLab CJK lines for ``frags`` broken by the shared (card) line breaker.

    Each run becomes a text piece measured in its own face at 1 em; every run
    is measured at the paragraph's largest size and the narrowest line width
    is the budget, so a line never overflows its column. Returns None when a
    run cannot be measured this way (an inline image) or a word is wider than
    the column.
    """
    units: list[Any] = []              # one ReportLab glyph record per character
    pieces: list[tuple[Any, ...]] = []
    source: list[tuple[str | None, int]] = []   # per atom: its character (None: break), unit
    size = max(float(f.fontSize) for f in frags)
    for f in frags:
        text = f.text.decode("utf8") if isinstance(f.text, bytes) else f.text
        if hasattr(f, "cbDefn"):
            if getattr(f.cbDefn, "width", 0):
                return None
            units.append(cjkU(text or "", f, "utf8"))     # an anchor: zero width
            continue
        if hasattr(f, "lineBreak"):
            source.append((None, len(units)))
            units.append(cjkU(text or "", f, "utf8"))
            pieces.append(("b",))
            continue
        if not text:
            units.append(cjkU("", f, "utf8"))
            continue
        pieces.append(("t", (f.fontName,), (0.0, 0.0, 0.0), text))
        for ch in text:
            source.append((ch, len(units)))
            units.append(cjkU(ch, f, "utf8"))
    chs = textlayout.chunks(tuple(pieces))
    budget = min(widths) / size if size > 0 else 0.0
    broken = textlayout.break_lines(chs, budget)
    if broken is None:
        return None
    # Where each chunk starts among the units: match its atoms against the
    # source characters in order (the breaker drops the spaces before a hard
    # break and at the end, and the breaks themselves).
    starts: list[int] = []
    at = 0
    for chunk in chs:
        first: int | None = None
        for index, atom in enumerate(chunk.lead + chunk.atoms):
            while at < len(source) and source[at][0] != atom.ch:
                at += 1
            if at == len(source):
                return None                # not the text we gave it: never guess
            if first is None and index >= len(chunk.lead):
                first = source[at][1]
            at += 1
        if chunk.hard:
            while at < len(source) and source[at][0] is not None:
                at += 1
            if at == len(source):
                return None
            if first is None:
                first = source[at][1]      # an empty line: it holds just its break
            at += 1
        starts.append(first if first is not None else len(units))
    bounds = [0]
    done = 0
    for line, _ in broken:
        if done:
            bounds.append(starts[done])
        done += len(line)
    bounds.append(len(units))
    lines = []
    for k in range(len(bounds) - 1):
        line_units = units[bounds[k]:bounds[k + 1]]
        # Spaces at a line's end are not drawn (a break at a space drops it).
        keep = len(line_units)
        while keep and (line_units[keep - 1] == " " or (
                line_units[keep - 1] == "" and not hasattr(line_units[keep - 1].frag,
                                                           "lineBreak"))):
            keep -= 1
        trailing = [u for u in line_units[keep:] if u != " "]
        line_units = line_units[:keep] + trailing
        max_width = widths[min(k, len(widths) - 1)]
        used = sum(u.width for u in line_units)
        hard = any(hasattr(u.frag, "lineBreak") for u in line_units)
        lines.append(makeCJKParaLine(line_units, max_width, used, max_width - used, hard,
                                     calc_bounds))
    return ParaLines(kind=1, lines=lines)


class Contents(TableOfContents):
    """The contents table, its entries broken by the shared line breaker.

    ReportLab's table of contents sets each entry as a plain Paragraph, so a
    long Japanese heading wrapped with ReportLab's own CJK rules (``ー`` or
    ``〜`` starting a line, ``3枚`` split) while the rest of the book used the
    cards' breaker. Here each entry is a :class:`JaParagraph`, and its lines
    stop ``rightColumnWidth`` short of the column so the dotted leader and the
    page number always have room after the last line (ReportLab shrank the
    number instead).
    """

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        """Build the internal table of entry paragraphs (ReportLab's wrap, our paragraphs)."""
        entries = self._lastEntries or [(0, "Placeholder for table of contents", 0, None)]

        def entry_end(canvas: Canvas, kind: str, label: str) -> None:
            # The dotted leader and the page number after the entry's last line.
            page_text, level_text, key_text = label.split(",")
            level = int(level_text)
            style = self.getLevelStyle(level)
            dots = " . " if 0 <= self.dotsMinLevel <= level else ""
            page: Any = int(page_text)
            if self.formatter:
                page = self.formatter(page)
            drawPageNumbers(canvas, style, [(page, literal_eval(key_text))], availWidth,
                            availHeight, dots)

        self.canv.setNamedCB("drawTOCEntryEnd", entry_end)
        rows: list[list[Flowable]] = []
        for level, text, page_num, key in entries:
            style = self.getLevelStyle(level)
            narrow = ParagraphStyle(f"{style.name}-entry", parent=style,
                                    rightIndent=style.rightIndent + self.rightColumnWidth)
            if key:
                text = f'<a href="#{key}">{text}</a>'
                key_val = repr(key).replace(",", "\\x2c").replace('"', "\\x2c")
            else:
                key_val = None
            para = JaParagraph(f'{text}<onDraw name="drawTOCEntryEnd" '
                               f'label="{page_num},{level},{key_val}"/>', narrow)
            if style.spaceBefore:
                rows.append([Spacer(1, style.spaceBefore)])
            rows.append([para])
        self._table = Table(rows, colWidths=(availWidth,), style=self.tableStyle)
        self.width, self.height = self._table.wrapOn(self.canv, availWidth, availHeight)
        return self.width, self.height


@dataclass(frozen=True)
class Theme:
    """Faces and words of one edition."""

    lang: str
    body_font: str
    bold_font: str
    word_wrap: str | None
    leading: float                   # line height as a multiple of the type size
    strong_font: str | None          # face of **strong** text (None: colour only)
    contents: str                    # heading of the contents page
    figure: str                      # word before a picture's number

    def markup(self, text: str, line: int | None = None) -> str:
        """Inline Markdown → ReportLab markup, with glyph fallback for the Latin face."""
        out = inline_markup(text, strong_color=STRONG_HEX, line=line,
                            strong_font=self.strong_font)
        return fallback_markup(out, self.body_font)


THEMES: dict[str, Theme] = {
    # IPAexGothic has no bold face; Japanese emphasis is carried by colour.
    "ja": Theme("ja", FONT_JA, FONT_JA, "CJK", 1.62, None, "目次", "図"),
    "en": Theme("en", FONT_LATIN, FONT_DISPLAY, None, 1.4, FONT_DISPLAY, "Contents", "Figure"),
}

_TAG = re.compile(r"(<[^>]*>|&[a-z#0-9]+;)")


def fallback_markup(markup: str, font: str) -> str:
    """Wrap runs of characters ``font`` lacks in IPAexGothic (Japanese face: unchanged)."""
    if font == FONT_JA:
        return markup
    out: list[str] = []
    for piece in _TAG.split(markup):
        if not piece or _TAG.fullmatch(piece):
            out.append(piece)
            continue
        run = ""
        missing = False
        for char in piece:
            lacks = not has_glyph(font, ord(char)) and not char.isspace()
            if lacks != missing and run:
                out.append(f'<font name="{FONT_JA}">{run}</font>' if missing else run)
                run = ""
            missing = lacks
            run += char
        if run:
            out.append(f'<font name="{FONT_JA}">{run}</font>' if missing else run)
    return "".join(out)


class _Styles:
    """Paragraph styles scaled to the paper's body size, in the edition's faces."""

    def __init__(self, body: float, theme: Theme) -> None:
        lead = body * theme.leading
        wrap = {"wordWrap": theme.word_wrap} if theme.word_wrap else {}
        # bulletFontName too: ReportLab's default (Helvetica) would be referenced unembedded.
        base: dict[str, Any] = dict(fontName=theme.body_font, bulletFontName=theme.body_font,
                                    textColor=INK, **wrap)
        head: dict[str, Any] = dict(fontName=theme.bold_font, bulletFontName=theme.bold_font,
                                    textColor=ACCENT, **wrap)
        self.body = ParagraphStyle("body", fontSize=body, leading=lead, spaceAfter=body * 0.55,
                                   **base)
        self.title = ParagraphStyle("title", fontSize=body * 3.0, leading=body * 3.6,
                                    alignment=TA_CENTER, spaceAfter=body * 0.4, **head)
        self.subtitle = ParagraphStyle("subtitle", fontSize=body * 1.5, leading=body * 2.1,
                                       alignment=TA_CENTER, spaceAfter=body * 1.2,
                                       **{**head, "textColor": MUTED})
        self.h2 = ParagraphStyle("h2", fontSize=body * 1.42, leading=body * 1.9,
                                 spaceBefore=body * 1.3, spaceAfter=0, **head)
        self.h3 = ParagraphStyle("h3", fontSize=body * 1.12, leading=body * 1.6,
                                 spaceBefore=body * 0.8, spaceAfter=body * 0.25, **head)
        self.item = ParagraphStyle("item", fontSize=body, leading=lead, spaceAfter=body * 0.2,
                                   **base)
        self.note = ParagraphStyle("note", fontSize=body * 0.94, leading=body * 0.94 *
                                   theme.leading * 0.95, **base)
        self.lead = ParagraphStyle("lead", parent=self.body, alignment=TA_CENTER)
        self.caption = ParagraphStyle("caption", fontSize=max(6.8, body * 0.85),
                                      leading=max(6.8, body * 0.85) * 1.35, alignment=TA_CENTER,
                                      **{**base, "textColor": MUTED})
        cell = body * 0.9
        self.cell = ParagraphStyle("cell", fontSize=cell, leading=cell * 1.42, **base)
        self.cell_head = ParagraphStyle("cell_head", fontSize=cell, leading=cell * 1.42,
                                        **head)
        self.cell_size = cell
        self.toc = [
            ParagraphStyle("toc0", fontSize=body * 1.05, leading=body * 1.75,
                           leftIndent=0, firstLineIndent=0, spaceBefore=body * 0.35,
                           **{**head, "textColor": INK}),
            ParagraphStyle("toc1", fontSize=body * 0.92, leading=body * 1.45,
                           leftIndent=body * 1.6, firstLineIndent=0, **base),
        ]


#: Padding the frame keeps inside the margins on each side.
FRAME_PADDING = 6.0


def frame_width(paper: PaperSpec) -> float:
    """Width available to flowables: the page minus margins and frame padding."""
    return paper.size[0] - 2 * paper.margin_x - 2 * FRAME_PADDING


def _width(text: str, font: str, size: float) -> float:
    """Width of ``text`` with per-glyph fallback to the Japanese face."""
    from pnp.rulebook.pictures import text_width

    return text_width(text, font, size)


def _column_widths(cells: list[list[str]], available: float, font: str, font_size: float,
                   padding: float, head_font: str | None = None) -> list[float]:
    """Column widths by water-filling: narrow columns get their natural width.

    No column is narrower than its longest word (English never breaks
    inside a word); the header row is measured in its own (bold) face.
    """
    columns = len(cells[0])
    natural = [0.0] * columns
    least = [0.0] * columns
    for r, row in enumerate(cells):
        face = head_font if r == 0 and head_font else font
        for i, text in enumerate(row):
            parts = text.split("<br/>")
            longest = max((_width(part, face, font_size) for part in parts), default=0.0)
            natural[i] = max(natural[i], longest + 2 * padding + 1)
            if face != FONT_JA:
                words = [w for part in parts for w in part.split()]
                word = max((_width(w, face, font_size) for w in words), default=0.0)
                least[i] = max(least[i], word + 2 * padding + 1)
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
    # Give short columns their longest word, taken from the widest column.
    for i in range(columns):
        short = least[i] - widths[i]
        if short > 0:
            widest = max(range(columns), key=lambda j: widths[j] - least[j])
            if widest != i and widths[widest] - least[widest] > short:
                widths[widest] -= short
                widths[i] += short
    return widths


def _plain(markup: str) -> str:
    """Markup with tags removed except line breaks (for width estimates)."""
    return re.sub(r"<(?!br/>)[^>]+>", "", markup)


class _RuleTable(Table):
    """A table that moves to the next page whole when it is short (``keep_whole``).

    Long tables break between rows (never inside one) and repeat their
    header row on the next page. "Short" is a few rows that take at most
    ``whole_height`` points: a tall table of few rows still breaks, so it
    does not leave most of a page empty.
    """

    keep_whole = False
    whole_height = 200.0
    #: Body rows a split leaves on either page at least (no lone widow or orphan row).
    min_rows = 2

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        """No split for short tables (the frame then moves the table on), and
        none that leaves fewer than ``min_rows`` body rows on either page."""
        if self.keep_whole and getattr(self, "_height", 0.0) <= self.whole_height:
            return []
        parts = super().split(availWidth, availHeight)
        if len(parts) != 2:
            return parts
        head = len(parts[0]._cellvalues) - self.repeatRows
        tail = len(parts[1]._cellvalues) - self.repeatRows
        if head < self.min_rows:
            return []                       # the whole table moves to the next page
        if tail < self.min_rows:
            # Split higher up, so the next page gets min_rows rows.
            keep = len(parts[0]._cellvalues) - (self.min_rows - tail)
            if keep - self.repeatRows < self.min_rows:
                return []
            parts = super().split(availWidth, sum(self._rowHeights[:keep]) + 0.01)
        return parts


class HeadingFlowable(JaParagraph):
    """A section heading: a PDF bookmark, an outline entry and a contents entry."""

    def __init__(self, text: str, style: ParagraphStyle, *, level: int, anchor: str,
                 plain: str) -> None:
        super().__init__(text, style)
        self.level = level
        self.anchor = anchor
        self.plain = plain
        #: The contents entry's markup (plain text in the edition's face).
        self.toc_markup = plain

    def draw(self) -> None:
        """Draw, then mark the spot for links and bookmarks."""
        super().draw()
        canvas = self.canv
        canvas.bookmarkHorizontal(self.anchor, 0, self.height + self.style.fontSize)
        canvas.addOutlineEntry(self.plain, self.anchor, level=self.level, closed=True)


class LeadInParagraph(JaParagraph):
    """A paragraph that introduces the block after it (kept with that block's start)."""


#: Marks that end a lead-in line ("Player who never retreats:").
LEAD_IN_ENDS = ("：", ":")


def is_lead_in(block: Block, following: Block | None) -> bool:
    """True if ``block`` is a paragraph that introduces ``following``.

    A paragraph right before a table introduces it (every table in our books
    is announced by the text before it), and a paragraph ending in a colon
    introduces whatever block follows; a heading ends the section, so no
    paragraph introduces one. Such a paragraph must not end a page without
    the start of what it introduces.
    """
    if not isinstance(block, Para) or following is None or isinstance(following, Heading):
        return False
    return (isinstance(following, TableBlock)
            or plain_text(block.text).rstrip().endswith(LEAD_IN_ENDS))


class PictureFlowable(Flowable):
    """A :class:`Scene` with its caption, scaled down to fit the text block if needed."""

    def __init__(self, scene: Scene, caption: str, style: ParagraphStyle,
                 max_height: float) -> None:
        super().__init__()
        self.scene = scene
        self.caption = JaParagraph(caption, style) if caption else None
        self.max_height = max_height
        self.scale = 1.0
        self.gap = style.fontSize * 0.5

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        """Scale to the frame width (and a page's height), then add the caption."""
        self.scale = min(1.0, availWidth / self.scene.width,
                         self.max_height / self.scene.height)
        self.width = availWidth
        self.pic_h = self.scene.height * self.scale
        self.cap_h = 0.0
        if self.caption is not None:
            _, self.cap_h = self.caption.wrap(availWidth, availHeight)
        self.height = self.pic_h + (self.gap + self.cap_h if self.caption else 0) + 4
        return self.width, self.height

    def draw(self) -> None:
        """Centre the picture; the caption goes below it."""
        c = self.canv
        w = self.scene.width * self.scale
        c.saveState()
        c.translate((self.width - w) / 2, self.height - self.pic_h)
        c.scale(self.scale, self.scale)
        self.scene.draw(c)
        c.restoreState()
        if self.caption is not None:
            self.caption.drawOn(c, 0, 0)


def _table(block: TableBlock, styles: _Styles, theme: Theme, available: float) -> Flowable:
    padding = 3.5
    header = [theme.markup(c, block.line) for c in block.header]
    body = [[theme.markup(c, block.line) for c in row] for row in block.rows]
    widths = _column_widths([[_plain(c) for c in row] for row in [header] + body],
                            available, theme.body_font, styles.cell_size, padding,
                            theme.bold_font)
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
    table.whole_height = available * 0.75
    commands: list[tuple[Any, ...]] = [
        ("FONTNAME", (0, 0), (-1, -1), theme.body_font),     # never the Helvetica default
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


def _note(block: Note, styles: _Styles, theme: Theme, available: float) -> Flowable:
    box = Table([[JaParagraph(theme.markup(block.text, block.line), styles.note)]],
                colWidths=[available])
    box.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), theme.body_font),
        ("BACKGROUND", (0, 0), (-1, -1), TINT),
        ("LINEBEFORE", (0, 0), (0, -1), 2, ACCENT),
        ("LEFTPADDING", (0, 0), (-1, -1), 7),
        ("RIGHTPADDING", (0, 0), (-1, -1), 6),
        ("TOPPADDING", (0, 0), (-1, -1), 4),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 5),
    ]))
    return box


class _RuleList(ListFlowable):
    """A list that never leaves one item alone at a page foot or head.

    A list breaks between items, but not before its first two items have
    fit on the page, and its last two stay together (a list of three or
    fewer moves on whole), the way a long table keeps two rows on each page.
    """

    #: Items kept together at each end.
    min_items = 2

    def _short(self, content: list[Flowable]) -> bool:
        """Whether the list is too short to part (it moves on whole)."""
        return len(content) <= 2 * self.min_items - 1

    def _head(self, content: list[Flowable]) -> list[Flowable]:
        """The first group: the items that may not part at the top."""
        return content if self._short(content) else content[:self.min_items]

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        """The items as separate flowables, the last ones kept together; nothing
        (the list moves on) when it is short or its first items do not fit here."""
        content = list(super().split(availWidth, availHeight))
        n = self.min_items
        if getattr(getattr(self, "_frame", None), "_atTop", False):
            return content              # taller than a whole page: break where it must
        # self.canv is set while platypus splits (splitOn).
        if self._short(content) or _stack_height(content[:n], self.canv,
                                                 availWidth) > availHeight:
            return []
        # The first items are returned loose (platypus must be able to place
        # the first piece of a split; KeepTogether reports a huge height).
        return [*content[:-n], KeepTogether(content[-n:])]

    def head_height(self, canvas: Canvas, width: float) -> float:
        """Height of the first group, which cannot break (for the heading's room)."""
        # ReportLab turns the items into bulleted flowables once, on the first wrap.
        content = list(self._getContent() if hasattr(self, "_flowables")
                       else self._list_content)
        return _stack_height(self._head(content), canvas, width)


def _stack_height(items: list[Flowable], canvas: Canvas, width: float) -> float:
    """Height of flowables set one under another (their spacing included)."""
    return sum(f.wrapOn(canvas, width, 1e6)[1] + f.getSpaceBefore() + f.getSpaceAfter()
               for f in items)


def _list(block: ListBlock, styles: _Styles, theme: Theme) -> Flowable:
    items = [ListItem(JaParagraph(theme.markup(text, block.line), styles.item))
             for text in block.items]
    size = styles.item.fontSize
    if block.ordered:
        return _RuleList(items, bulletType="1", start=block.start, bulletFormat="%s.",
                         bulletFontName=theme.body_font, bulletFontSize=size,
                         bulletColor=ACCENT, leftIndent=size * 1.8, bulletDedent=size * 1.5,
                         spaceAfter=size * 0.45)
    return _RuleList(items, bulletType="bullet", start="●", bulletFontName=FONT_JA,
                     bulletFontSize=size * 0.5, bulletColor=ACCENT, bulletOffsetY=-size * 0.3,
                     leftIndent=size * 1.3, bulletDedent=size * 1.0, spaceAfter=size * 0.45)


def _fit_title(style: ParagraphStyle, text: str, available: float) -> ParagraphStyle:
    """The title style, shrunk (to at most 40 % smaller) so the title fits one line."""
    width = stringWidth(re.sub(r"\*\*", "", text), style.fontName, style.fontSize)
    if width <= available:
        return style
    scale = max(0.6, available / width * 0.98)
    return ParagraphStyle("title_fit", parent=style, fontSize=style.fontSize * scale,
                          leading=style.leading * scale)


def plain_text(text: str) -> str:
    """Heading text without inline markup (bookmarks, contents, running heads)."""
    from pnp.rulebook.markdown import strip_ruling_tags

    return re.sub(r"\*\*|<[^>]+>", "", strip_ruling_tags(text)).strip()


@dataclass
class BookMeta:
    """What the book says about itself: title page, running head, PDF metadata."""

    title: str
    subtitle: str
    running_head: str
    subject: str
    lang: str = "ja"
    #: Extra lines at the foot of the title page (credits).
    credits: tuple[str, ...] = ()


@dataclass
class Layout:
    """Where the headings and the blocks after them landed (for tests)."""

    #: (page, heading anchor) in reading order.
    headings: list[tuple[int, str]] = field(default_factory=list)
    #: Pages whose last flowable is a heading (a stranded heading).
    stranded: list[int] = field(default_factory=list)
    #: Pages whose last flowable is a lead-in paragraph without what it introduces.
    stranded_leads: list[int] = field(default_factory=list)
    pages: int = 0


class _BookTemplate(BaseDocTemplate):
    """A doc template that feeds the contents and records where headings land."""

    def __init__(self, *args: Any, layout: Layout, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.layout = layout
        self._last: Flowable | None = None

    def afterFlowable(self, flowable: Flowable) -> None:
        """Register headings with the contents; remember the page of each."""
        page = self.page
        if isinstance(flowable, HeadingFlowable):
            self.notify("TOCEntry", (flowable.level, flowable.toc_markup, page,
                                     flowable.anchor))
            self.layout.headings.append((page, flowable.anchor))
        if not isinstance(flowable, (CondPageBreak, Spacer)):
            self._last = flowable

    def handle_pageEnd(self) -> None:
        """Note a page that ends on a heading or a lead-in (tests assert there is none)."""
        if isinstance(self._last, HeadingFlowable):
            self.layout.stranded.append(self.page)
        elif isinstance(self._last, LeadInParagraph):
            self.layout.stranded_leads.append(self.page)
        self._last = None
        super().handle_pageEnd()

    def beforeDocument(self) -> None:
        """Start each build pass with a clean record (multiBuild runs several)."""
        self.layout.headings.clear()
        self.layout.stranded.clear()
        self.layout.stranded_leads.clear()


def _cover(blocks: list[Block], styles: _Styles, theme: Theme, meta: BookMeta,
           available: float, pictures: Mapping[str, Scene],
           paper: PaperSpec) -> list[Flowable]:
    """The title page: title, subtitle, the lead text and pictures, the credits."""
    story: list[Flowable] = [Spacer(1, paper.size[1] * 0.16)]
    story.append(JaParagraph(theme.markup(meta.title),
                             _fit_title(styles.title, meta.title, available)))
    if meta.subtitle:
        story.append(JaParagraph(theme.markup(meta.subtitle), styles.subtitle))
    story.append(HRFlowable(width="40%", thickness=0.8, color=ACCENT, spaceBefore=2,
                            spaceAfter=paper.body * 1.2))
    for block in blocks:
        if isinstance(block, Picture):
            story.append(_picture(block, pictures, styles, theme, paper))
        elif isinstance(block, (Para, Note)):
            story.append(JaParagraph(theme.markup(block.text, block.line), styles.lead))
        elif isinstance(block, ListBlock):
            for item in block.items:
                story.append(JaParagraph(theme.markup(item, block.line), styles.lead))
    for line in meta.credits:
        story.append(JaParagraph(theme.markup(line), styles.caption))
    return story


def _picture(block: Picture, pictures: Mapping[str, Scene], styles: _Styles, theme: Theme,
             paper: PaperSpec) -> Flowable:
    if block.ref not in pictures:
        raise PnpError(f"picture {block.ref!r} was not drawn (expected a builder to add it)",
                       line=block.line)
    max_height = paper.size[1] - paper.margin_top - paper.margin_bottom - 60
    return PictureFlowable(pictures[block.ref], theme.markup(block.caption, block.line),
                           styles.caption, max_height)


def flowables(blocks: list[Block], paper: PaperSpec, theme: Theme, meta: BookMeta,
              pictures: Mapping[str, Scene]) -> list[Flowable]:
    """Platypus flowables for the book: title page, contents, body."""
    styles = _Styles(paper.body, theme)
    available = frame_width(paper)
    first_section = next((i for i, b in enumerate(blocks)
                          if isinstance(b, Heading) and b.level >= 2), len(blocks))
    lead: list[Block] = [b for b in blocks[:first_section] if not isinstance(b, Heading)]
    story = _cover(lead, styles, theme, meta, available, pictures, paper)
    story.append(NextPageTemplate("body"))
    story.append(PageBreak())
    # The contents table names its face: ReportLab's default would be unembedded Helvetica.
    toc_style = TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"),
                            ("LEFTPADDING", (0, 0), (-1, -1), 0),
                            ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                            ("TOPPADDING", (0, 0), (-1, -1), 0),
                            ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
                            ("FONTNAME", (0, 0), (-1, -1), theme.body_font)])
    toc = Contents(levelStyles=styles.toc, dotsMinLevel=0, rightColumnWidth=28,
                   tableStyle=toc_style)
    story.append(JaParagraph(theme.markup(theme.contents), styles.h2))
    story.append(HRFlowable(width=available, thickness=0.6, color=ACCENT, spaceBefore=1.5,
                            spaceAfter=paper.body * 0.6))
    story.append(toc)
    story.append(PageBreak())
    body_line = styles.body.leading
    frame_height = paper.size[1] - paper.margin_top - paper.margin_bottom - 2 * FRAME_PADDING
    # Build each block's flowables first, then put a conditional page break
    # before every heading and every lead-in (is_lead_in) that asks for room
    # for it and the start of what follows it (all of it when that cannot
    # break), so neither is left alone at a page foot. (Platypus's
    # keepWithNext would move a heading and a whole long table together and
    # leave half a page empty.)
    parts: list[tuple[Block, list[Flowable]]] = []
    body = [b for b in blocks[first_section:] if not (isinstance(b, Heading) and b.level == 1)]
    leads = {i for i, block in enumerate(body)
             if is_lead_in(block, body[i + 1] if i + 1 < len(body) else None)}
    for index, block in enumerate(body):
        if isinstance(block, Heading):
            plain = plain_text(block.text)
            style = styles.h2 if block.level == 2 else styles.h3
            heading = HeadingFlowable(theme.markup(block.text, block.line), style,
                                      level=block.level - 2, anchor=block.anchor or
                                      f"h{block.line}", plain=plain)
            heading.toc_markup = fallback_markup(
                plain.replace("&", "&amp;").replace("<", "&lt;"), theme.body_font)
            group: list[Flowable] = [heading]
            if block.level == 2:
                group.append(HRFlowable(width=available, thickness=0.6, color=ACCENT,
                                        spaceBefore=1.5, spaceAfter=paper.body * 0.6))
            parts.append((block, group))
        elif isinstance(block, Para):
            kind = LeadInParagraph if index in leads else JaParagraph
            parts.append((block, [kind(theme.markup(block.text, block.line), styles.body)]))
        elif isinstance(block, Note):
            parts.append((block, [_note(block, styles, theme, available),
                                  Spacer(1, paper.body * 0.7)]))
        elif isinstance(block, ListBlock):
            parts.append((block, [_list(block, styles, theme)]))
        elif isinstance(block, Picture):
            parts.append((block, [_picture(block, pictures, styles, theme, paper),
                                  Spacer(1, paper.body * 0.6)]))
        else:
            # Short tables stay in one piece; long ones may split (header repeats).
            parts.append((block, [_table(block, styles, theme, available),
                                  Spacer(1, paper.body * 0.8)]))

    scratch = Canvas(io.BytesIO(), **canvas_kwargs())     # for measuring only

    def height(flowable: Flowable) -> float:
        _, h = flowable.wrapOn(scratch, available, frame_height)
        return float(h) + flowable.getSpaceBefore() + flowable.getSpaceAfter()

    def room_after(index: int) -> float:
        """Room the block at ``index`` needs on the page of the heading before it."""
        if index >= len(parts):
            return 0.0
        block, group = parts[index]
        if isinstance(block, Heading) or index in leads:
            # A heading, or a lead-in after one, brings what follows it along.
            return sum(height(f) for f in group) + room_after(index + 1)
        first = group[0]
        whole = height(first)
        if isinstance(first, _RuleList):
            # Its first items cannot part: the heading needs room for all of them.
            return min(whole, max(5 * body_line, first.head_height(scratch, available)))
        splits = isinstance(first, (Paragraph, ListFlowable)) or (
            isinstance(first, _RuleTable) and not (
                first.keep_whole and whole <= first.whole_height))
        return min(whole, 5 * body_line) if splits else min(whole, frame_height * 0.9)

    for index, (block, group) in enumerate(parts):
        if isinstance(block, Heading) or index in leads:
            need = sum(height(f) for f in group) + room_after(index + 1)
            story.append(CondPageBreak(min(need, frame_height * 0.95)))
        story += group
    return story


def render_pdf(blocks: list[Block], paper: PaperSpec, meta: BookMeta,
               pictures: Mapping[str, Scene] | None = None,
               layout: Layout | None = None) -> bytes:
    """The book as PDF bytes (deterministic for identical input).

    ``layout``, when given, receives where each heading landed and any page
    that ends on a heading.
    """
    # The faces must be known before anything is measured; a book without
    # pictures would otherwise reach ReportLab with its fonts unregistered.
    register_fonts()
    theme = THEMES[meta.lang]
    buffer = io.BytesIO()
    record = layout if layout is not None else Layout()
    kwargs = canvas_kwargs()          # embedded initial font (no stray Helvetica)
    kwargs["initialFontName"] = theme.body_font
    width, height = paper.size
    doc = _BookTemplate(
        buffer, layout=record, pagesize=paper.size, leftMargin=paper.margin_x,
        rightMargin=paper.margin_x, topMargin=paper.margin_top,
        bottomMargin=paper.margin_bottom, title=meta.title, author="pnp",
        subject=meta.subject, creator="pnp rulebook", producer="pnp (ReportLab)",
        lang=meta.lang, invariant=1, **kwargs)
    frame = Frame(paper.margin_x, paper.margin_bottom, width - 2 * paper.margin_x,
                  height - paper.margin_top - paper.margin_bottom, id="text")
    small = max(6.8, paper.body * 0.85)

    def boxes(canvas: Canvas) -> None:
        # A booklet page is trimmed to its own size: Trim = Bleed = Media, so
        # preflight (and print shops) find the boxes they expect.
        canvas.setTrimBox((0, 0, width, height))
        canvas.setBleedBox((0, 0, width, height))

    def cover(canvas: Canvas, document: BaseDocTemplate) -> None:
        boxes(canvas)
        canvas.showOutline()

    def furniture(canvas: Canvas, document: BaseDocTemplate) -> None:
        boxes(canvas)
        page = canvas.getPageNumber()
        canvas.saveState()
        canvas.setFillColor(MUTED)
        y_foot = paper.margin_bottom * 0.45
        draw_text(canvas, f"— {page} —", width / 2, y_foot, theme.body_font, small, "middle")
        # Running heads sit on the outer edge: right on odd pages, left on even.
        y = height - paper.margin_top * 0.55
        if page % 2:
            draw_text(canvas, meta.running_head, width - paper.margin_x, y, theme.body_font,
                      small, "end")
        else:
            draw_text(canvas, meta.running_head, paper.margin_x, y, theme.body_font, small)
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.4)
        canvas.line(paper.margin_x, y - small * 0.45, width - paper.margin_x, y - small * 0.45)
        canvas.restoreState()

    doc.addPageTemplates([PageTemplate("cover", [frame], onPage=cover),
                          PageTemplate("body", [frame], onPage=furniture)])
    story = flowables(blocks, paper, theme, meta, pictures or {})
    doc.multiBuild(story, maxPasses=6)
    record.pages = doc.page
    return buffer.getvalue()


def write_atomic(data: bytes, out: Path) -> None:
    """Write ``data`` to ``out`` via a temporary file in the same folder and ``os.replace``."""
    out.parent.mkdir(parents=True, exist_ok=True)
    write_bytes_atomic(out, data)


#: Callable that turns parsed blocks into bytes (for the export dispatcher).
Renderer = Callable[..., bytes]
