"""Read CSV tables the way designers save them (UTF-8, UTF-8 with BOM, or Excel's CP932)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from pnp.errors import PnpError
from pnp.fileio import read_user_file


@dataclass(frozen=True)
class RawTable:
    """A CSV file split into a header and rows, with the encoding it was read in."""

    path: Path
    header: tuple[str, ...]
    #: (line number in the file, cells) for every non-blank data row.
    rows: tuple[tuple[int, tuple[str, ...]], ...]
    encoding: str


def decode_table_bytes(data: bytes, path: Path) -> tuple[str, str]:
    """Decode a CSV file's bytes; return (text, encoding name).

    UTF-8 is the format; a UTF-8 byte-order mark (Excel's "CSV UTF-8") is
    dropped. Japanese Excel's plain "CSV" saves Shift_JIS/CP932, which we read
    too (and report) rather than reject, since it is the most common way a
    designer's table arrives.
    """
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
        encoding = "utf-8-sig"
    else:
        encoding = "utf-8"
    try:
        return data.decode("utf-8"), encoding
    except UnicodeDecodeError as exc:
        utf8_error = exc
    try:
        return data.decode("cp932"), "cp932"
    except UnicodeDecodeError:
        line = data[:utf8_error.start].count(b"\n") + 1
        raise PnpError(f"not valid UTF-8 (byte {utf8_error.start}) and not "
                       "Shift_JIS/CP932 either: save the table as 'CSV UTF-8'",
                       path=path, line=line) from None


def read_table(path: Path) -> RawTable:
    """Read ``path`` into a :class:`RawTable`; raise :class:`PnpError` if unreadable."""
    data = read_user_file(path, "table file")
    text, encoding = decode_table_bytes(data, path)
    if not text.strip():
        raise PnpError("table is empty: expected a header row and at least one card row",
                       path=path)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        records = [(reader.line_num, row) for row in reader]
    except csv.Error as exc:
        raise PnpError(f"malformed CSV: {exc}", path=path, line=reader.line_num) from None
    # reader.line_num is the line where a record ends; for single-line records
    # (all of ours) it is the record's line.
    header = tuple(cell.strip() for cell in records[0][1])
    rows = tuple((line, tuple(cell.strip() for cell in cells))
                 for line, cells in records[1:] if any(c.strip() for c in cells))
    if not rows:
        raise PnpError("table has a header but no card rows", path=path)
    return RawTable(path=path, header=header, rows=rows, encoding=encoding)
