"""The rulebook Markdown subset: source lines → a flat list of blocks.

The subset (documented for authors in ``rulebooks/README.md``):

* ``#``, ``##``, ``###`` headings (one line each);
* paragraphs (consecutive text lines; Japanese lines join without a space);
* ``- `` bullet lists and ``1. `` numbered lists (one level; a line indented
  by two or more spaces continues the item above);
* ``> `` notes (a shaded box in the PDF);
* pipe tables (``| a | b |`` with a ``|---|---:|`` separator row; ``\\|`` is a
  literal bar inside a cell);
* inline ``**strong**`` and ``<br>`` (a line break), anywhere in text;
* ``<!-- … -->`` comments on lines of their own (dropped);
* heading attributes ``## Set-up {#setup}`` (the anchor that links, bookmarks
  and the two editions share) and ``{#rulings .designer}`` (a section only the
  designer's edition prints);
* pictures ``![caption](pic:NAME)`` on a line of their own (drawn by a
  builder, see :mod:`pnp.rulebook.context`);
* ruling tags ``{F2}`` or ``{F2 F5a}``: which rulings a passage states. They
  are never printed; tests use them to check both editions state the same
  rulings (see :func:`ruling_tags`).

Placeholders (``{{ … }}``) are expanded before parsing (see
:mod:`pnp.rulebook.placeholders`), so the parser sees plain Markdown; every
line keeps the number of the source line it came from, for error messages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from pnp.errors import PnpError

#: One source line: (line number in the rulebook file, text).
Line = tuple[int, str]

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^[-*]\s+(.*)$")
_NUMBERED = re.compile(r"^(\d+)[.)]\s+(.*)$")
_TABLE_SEP_CELL = re.compile(r"^:?-+:?$")
_COMMENT = re.compile(r"^\s*<!--.*-->\s*$")
_ATTRS = re.compile(r"\s*\{#([A-Za-z0-9_-]+)((?:\s+\.[A-Za-z0-9_-]+)*)\s*\}\s*$")
_PICTURE = re.compile(r"^!\[(.*)\]\((pic:[A-Za-z0-9_.-]+)\)\s*$")
#: A ruling tag: ``{F2}``, ``{F2 F5a}`` or ``{F2,F5a}`` (IDs: a capital, digits, a letter).
RULING_TAG = re.compile(r"\s?(?<!\{)\{([A-Z]\d+[a-z]?(?:[ ,]+[A-Z]\d+[a-z]?)*)\}(?!\})")


@dataclass(frozen=True)
class Heading:
    """A ``#``/``##``/``###`` heading, with its ``{#anchor}`` and whether it is designer-only."""

    level: int
    text: str
    line: int
    anchor: str = ""
    designer: bool = False


@dataclass(frozen=True)
class Para:
    """A paragraph of running text (inline markup still raw)."""

    text: str
    line: int


@dataclass(frozen=True)
class Note:
    """A ``>`` note: text set apart in a shaded box."""

    text: str
    line: int


@dataclass(frozen=True)
class ListBlock:
    """A bullet (``ordered=False``) or numbered list; items hold raw inline text."""

    ordered: bool
    items: tuple[str, ...]
    line: int
    start: int = 1


@dataclass(frozen=True)
class TableBlock:
    """A pipe table: header cells, body rows, and per-column alignment."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    aligns: tuple[str, ...]          # "left" | "center" | "right" per column
    line: int


@dataclass(frozen=True)
class Picture:
    """A picture line ``![caption](pic:NAME)``; ``ref`` is NAME."""

    ref: str
    caption: str
    line: int


Block = Heading | Para | Note | ListBlock | TableBlock | Picture


def ruling_tags(text: str) -> list[str]:
    """The ruling IDs tagged in ``text`` (``{F2 F5a}`` → ``["F2", "F5a"]``)."""
    return [tag for group in RULING_TAG.findall(text) for tag in re.split(r"[ ,]+", group)]


def strip_ruling_tags(text: str) -> str:
    """``text`` without its ruling tags (players never see ruling IDs)."""
    return RULING_TAG.sub("", text)


@dataclass
class _State:
    """Mutable cursor over the source lines."""

    lines: list[Line]
    path: Path | None
    pos: int = 0
    blocks: list[Block] = field(default_factory=list)

    def fail(self, message: str, line: int) -> PnpError:
        return PnpError(message, path=self.path, line=line)


def _wide(char: str) -> bool:
    """True for Japanese and full-width characters (lines join without a space there)."""
    return ord(char) >= 0x2E80


def join_text(parts: list[str]) -> str:
    """Join wrapped source lines: Japanese joins directly, Latin text gets a space."""
    out = ""
    for part in parts:
        part = part.strip()
        if not part:
            continue
        if out and not _wide(out[-1]) and not _wide(part[0]) and not out.endswith("<br>"):
            out += " "
        out += part
    return out


def split_row(text: str) -> list[str]:
    """Split one ``| a | b |`` table line into stripped cells (``\\|`` is a literal bar)."""
    body = text.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    cells = re.split(r"(?<!\\)\|", body)
    return [cell.strip().replace("\\|", "|") for cell in cells]


def _block_start(text: str) -> bool:
    """True if ``text`` opens a block other than a paragraph."""
    stripped = text.lstrip()
    return bool(_HEADING.match(text) or _BULLET.match(text) or _NUMBERED.match(text)
                or stripped.startswith("|") or stripped.startswith(">")
                or _PICTURE.match(stripped))


def _parse_table(st: _State) -> None:
    first_line = st.lines[st.pos][0]
    rows: list[tuple[int, list[str]]] = []
    while st.pos < len(st.lines) and st.lines[st.pos][1].lstrip().startswith("|"):
        number, text = st.lines[st.pos]
        rows.append((number, split_row(text)))
        st.pos += 1
    if len(rows) < 2 or not all(_TABLE_SEP_CELL.match(c.replace(" ", "")) for c in rows[1][1]):
        raise st.fail("table: the second row must be a separator such as |---|---|",
                      rows[1][0] if len(rows) > 1 else first_line)
    header = rows[0][1]
    if len(rows[1][1]) != len(header):
        raise st.fail(f"table: separator has {len(rows[1][1])} cells, header has "
                      f"{len(header)}", rows[1][0])
    aligns = []
    for cell in rows[1][1]:
        cell = cell.replace(" ", "")
        if cell.startswith(":") and cell.endswith(":"):
            aligns.append("center")
        elif cell.endswith(":"):
            aligns.append("right")
        else:
            aligns.append("left")
    body = []
    for number, cells in rows[2:]:
        if len(cells) != len(header):
            raise st.fail(f"table row has {len(cells)} cells, expected {len(header)} "
                          "(as in the header)", number)
        body.append(tuple(cells))
    st.blocks.append(TableBlock(tuple(header), tuple(body), tuple(aligns), first_line))


def _parse_list(st: _State, ordered: bool) -> None:
    pattern = _NUMBERED if ordered else _BULLET
    first_line = st.lines[st.pos][0]
    start = 1
    items: list[list[str]] = []
    while st.pos < len(st.lines):
        number, text = st.lines[st.pos]
        if not text.strip():
            break
        match = pattern.match(text)
        if match:
            if ordered and not items:
                start = int(match.group(1))
            items.append([match.group(match.lastindex or 1)])
        elif text.startswith("  ") and items:
            items[-1].append(text)
        else:
            break
        st.pos += 1
    st.blocks.append(ListBlock(ordered, tuple(join_text(i) for i in items), first_line, start))


def parse_markdown(lines: list[Line], path: Path | None = None) -> list[Block]:
    """Parse expanded rulebook lines into blocks; raise :class:`PnpError` naming the line."""
    st = _State([ln for ln in lines if not _COMMENT.match(ln[1])], path)
    while st.pos < len(st.lines):
        number, text = st.lines[st.pos]
        if not text.strip():
            st.pos += 1
            continue
        heading = _HEADING.match(text)
        picture = _PICTURE.match(text.strip())
        if heading:
            level = len(heading.group(1))
            if level > 3:
                raise st.fail(f"heading level {level} is not supported: use #, ## or ###",
                              number)
            title = heading.group(2)
            anchor, designer = "", False
            attrs = _ATTRS.search(title)
            if attrs:
                title = title[:attrs.start()].rstrip()
                anchor = attrs.group(1)
                classes = attrs.group(2).split()
                unknown = [c for c in classes if c != ".designer"]
                if unknown:
                    raise st.fail(f"unknown heading class {unknown[0]!r}: expected .designer",
                                  number)
                designer = bool(classes)
            if not title:
                raise st.fail("empty heading", number)
            st.blocks.append(Heading(level, title, number, anchor, designer))
            st.pos += 1
        elif picture:
            st.blocks.append(Picture(picture.group(2)[len("pic:"):], picture.group(1), number))
            st.pos += 1
        elif text.lstrip().startswith("!["):
            # an image file: it was printed as the literal text ![…](…) in the book
            raise st.fail("a picture is drawn from the data, not read from a file: use "
                          "{{ gallery COMPONENT=ID,… }} or {{ figure NAME }} (docs: "
                          "rulebooks/README.md)", number)
        elif text.lstrip().startswith("|"):
            _parse_table(st)
        elif _BULLET.match(text):
            _parse_list(st, ordered=False)
        elif _NUMBERED.match(text):
            _parse_list(st, ordered=True)
        elif text.lstrip().startswith(">"):
            parts = []
            while st.pos < len(st.lines) and st.lines[st.pos][1].lstrip().startswith(">"):
                parts.append(st.lines[st.pos][1].lstrip()[1:])
                st.pos += 1
            st.blocks.append(Note(join_text(parts), number))
        else:
            parts = []
            while st.pos < len(st.lines):
                line_text = st.lines[st.pos][1]
                if not line_text.strip() or (parts and _block_start(line_text)):
                    break
                parts.append(line_text)
                st.pos += 1
            st.blocks.append(Para(join_text(parts), number))
    for block in st.blocks:
        _check_strong(block, st)
    return st.blocks


def _odd_strong(text: str) -> bool:
    """Whether ``text`` (ruling tags aside) leaves a ``**`` open."""
    return strip_ruling_tags(text).count("**") % 2 == 1


def _check_strong(block: Block, st: _State) -> None:
    """Refuse an unclosed ``**`` in any format, naming the line (the PDF said neither file
    nor line, and Markdown and HTML passed it on as it was)."""
    if isinstance(block, (Heading, Para, Note)):
        texts: tuple[str, ...] = (block.text,)
    elif isinstance(block, ListBlock):
        texts = block.items
    elif isinstance(block, TableBlock):
        texts = block.header + tuple(cell for row in block.rows for cell in row)
    else:
        texts = (block.caption,)
    for text in texts:
        if _odd_strong(text):
            raise st.fail(f"unclosed ** in {text[:40]!r} (strong text needs a closing **)",
                          block.line)


def inline_markup(text: str, *, strong_color: str, path: Path | None = None,
                  line: int | None = None, strong_font: str | None = None) -> str:
    """Convert inline Markdown to ReportLab paragraph markup.

    XML specials are escaped, ``<br>`` becomes a line break and ``**x**``
    becomes coloured text (IPAexGothic has no bold face, so Japanese
    emphasis is carried by colour), set in ``strong_font`` too when given
    (the English edition's bold face). Ruling tags are dropped.
    """
    if _odd_strong(text):
        raise PnpError("unclosed ** (strong text needs a closing **)", path=path, line=line)
    text = strip_ruling_tags(text)
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    escaped = re.sub(r"&lt;br\s*/?&gt;", "<br/>", escaped)
    face = f' name="{strong_font}"' if strong_font else ""
    return re.sub(r"\*\*(.+?)\*\*", rf'<font color="{strong_color}"{face}>\1</font>', escaped)
