"""Read CSV tables as designers save them: UTF-8 (BOM or not), or Japanese Excel's CP932."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from pnp.errors import PnpError
from pnp.fileio import decode_user_text, read_user_file


@dataclass(frozen=True)
class RawTable:
    """A CSV file split into a header and rows, with the encoding it was read in."""

    path: Path
    header: tuple[str, ...]
    #: (line number where the record starts, cells) for every non-blank data row.
    rows: tuple[tuple[int, tuple[str, ...]], ...]
    encoding: str
    #: Line of the header (after any blank lines the reader skipped).
    header_line: int = 1


def decode_table_bytes(data: bytes, path: Path) -> tuple[str, str]:
    """Decode a CSV file's bytes; return (text, encoding name).

    UTF-8 is the format; a UTF-8 byte-order mark (Excel's "CSV UTF-8") is
    dropped. Japanese Excel's plain "CSV" saves Shift_JIS/CP932, which is read
    too, but only when the bytes are unambiguously Japanese; a Western
    European Excel's plain "CSV" (Windows-1252) and anything else ambiguous is
    a one-line error saying how to re-save the file (see
    :func:`pnp.fileio.decode_user_text`).
    """
    return decode_user_text(data, path, "table", shift_jis=True)


def _unclosed_quote_line(text: str, start_line: int) -> int | None:
    """Line of the quote that opens a field and never closes, scanning from ``start_line``.

    The csv module only notices an unclosed quote at the end of the file; the
    designer needs the line where the stray quote is.
    """
    offset = 0
    for _ in range(start_line - 1):
        nl = _next_newline(text, offset)
        if nl < 0:
            return None
        offset = nl
    line = start_line
    quoted_since: int | None = None
    at_field_start = True
    i = offset
    while i < len(text):
        ch = text[i]
        if quoted_since is not None:
            if ch == '"':
                if text.startswith('""', i):
                    i += 2
                    continue
                quoted_since = None
                at_field_start = False
            elif ch in "\r\n":
                if ch == "\r" and text.startswith("\r\n", i):
                    i += 1
                line += 1
        elif ch == '"' and at_field_start:
            quoted_since = line
        elif ch == ",":
            at_field_start = True
        elif ch in "\r\n":
            if ch == "\r" and text.startswith("\r\n", i):
                i += 1
            line += 1
            at_field_start = True
        else:
            at_field_start = False
        i += 1
    return quoted_since


def _next_newline(text: str, offset: int) -> int:
    """Offset just past the next line break (\\n, \\r\\n or \\r) from ``offset``; -1 if none."""
    n = text.find("\n", offset)
    r = text.find("\r", offset)
    if r >= 0 and (n < 0 or r < n):
        return r + 2 if text.startswith("\r\n", r) else r + 1
    return n + 1 if n >= 0 else -1


def parse_csv(text: str, path: Path) -> list[tuple[int, list[str]]]:
    """Split CSV ``text`` into (line where the record starts, cells) pairs.

    A malformed file is a :class:`PnpError` at the line that causes it: an
    unclosed quote at the line where its field opens, anything else where
    the reader stopped.
    """
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    records: list[tuple[int, list[str]]] = []
    previous_end = 0
    try:
        for cells in reader:
            # reader.line_num is where the record *ends*; a cell with a line
            # break in it spans several lines, so the record starts after the last.
            records.append((previous_end + 1, cells))
            previous_end = reader.line_num
    except csv.Error as exc:
        start = previous_end + 1
        if "unexpected end of data" in str(exc):
            opened = _unclosed_quote_line(text, start) or start
            raise PnpError('a quoted cell opens here and is never closed: every " that starts '
                           'a cell needs a closing " (write a quote inside a cell as "")',
                           path=path, line=opened) from None
        if "expected after" in str(exc):
            raise PnpError('text after the closing " of a quoted cell: expected a comma or the '
                           'end of the line (write a quote inside a cell as "")',
                           path=path, line=reader.line_num) from None
        raise PnpError(f"malformed CSV: {exc}", path=path, line=reader.line_num) from None
    return records


def read_table(path: Path) -> RawTable:
    """Read ``path`` into a :class:`RawTable`; raise :class:`PnpError` if unreadable."""
    data = read_user_file(path, "table file")
    text, encoding = decode_table_bytes(data, path)
    if not text.strip():
        raise PnpError("table is empty: expected a header row and at least one card row",
                       path=path)
    records = [(line, cells) for line, cells in parse_csv(text, path)
               if any(c.strip() for c in cells)]  # blank lines and ",,," rows say nothing
    header = tuple(cell.strip() for cell in records[0][1])
    rows = tuple((line, tuple(cell.strip() for cell in cells)) for line, cells in records[1:])
    if not rows:
        raise PnpError("table has a header but no card rows", path=path)
    return RawTable(path=path, header=header, rows=rows, encoding=encoding,
                    header_line=records[0][0])
