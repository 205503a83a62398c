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
* ``<!-- … -->`` comments on lines of their own (dropped).

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


@dataclass(frozen=True)
class Heading:
    """A ``#``/``##``/``###`` heading."""

    level: int
    text: str
    line: int


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


Block = Heading | Para | Note | ListBlock | TableBlock


@dataclass
class _State:
    """Mutable cursor over the source lines."""

    lines: list[Line]
    path: Path | None
    pos: int = 0
    blocks: list[Block] = field(default_factory=list)

    def fail(self, message: str, line: int) -> PnpError:
        return PnpError(message, path=self.path, line=line)


def join_text(parts: list[str]) -> str:
    """Join wrapped source lines: Japanese joins directly, Latin words get a space."""
    out = ""
    for part in parts:
        part = part.strip()
        if not part:
            continue
        if out and out[-1].isascii() and out[-1].isalnum() and part[0].isascii() \
                and part[0].isalnum():
            out += " "
        elif out and out[-1] in ",.;:!?)" and part[0].isascii():
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
                or stripped.startswith("|") or stripped.startswith(">"))


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
        if heading:
            level = len(heading.group(1))
            if level > 3:
                raise st.fail(f"heading level {level} is not supported: use #, ## or ###",
                              number)
            if not heading.group(2):
                raise st.fail("empty heading", number)
            st.blocks.append(Heading(level, heading.group(2), number))
            st.pos += 1
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
    return st.blocks


def inline_markup(text: str, *, strong_color: str, path: Path | None = None,
                  line: int | None = None) -> str:
    """Convert inline Markdown to ReportLab paragraph markup.

    XML specials are escaped, ``<br>`` becomes a line break and ``**x**``
    becomes coloured text (IPAexGothic has no bold face, and a second
    font would be one more to embed, so emphasis is carried by colour).
    """
    if text.count("**") % 2:
        raise PnpError("unclosed ** (strong text needs a closing **)", path=path, line=line)
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    escaped = re.sub(r"&lt;br\s*/?&gt;", "<br/>", escaped)
    return re.sub(r"\*\*(.+?)\*\*", rf'<font color="{strong_color}">\1</font>', escaped)
