"""Known answers for the CSV reader (``pnp.data.csvio``): cells, rows and line numbers.

Written after hand mutations of ``read_table`` survived the whole suite:
keeping whitespace-only rows as cards, or leaving spaces around header
names, changed nothing any test looked at. Every expected value below is
worked out from the CSV text by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.data.csvio import RawTable, parse_csv, read_table
from pnp.errors import PnpError


def _table(tmp_path: Path, data: bytes) -> RawTable:
    """Read ``data`` saved as a CSV file in ``tmp_path``."""
    path = tmp_path / "cards.csv"
    path.write_bytes(data)
    return read_table(path)


def test_cells_are_trimmed_and_rows_with_nothing_in_them_are_dropped(tmp_path: Path) -> None:
    """Spaces around header names and cells go; blank, ',,' and '  ,  ' rows say nothing."""
    t = _table(tmp_path, b"id , name\n\n a1 , Alpha \n  ,   \n,\na2,Beta\n")
    assert t.header == ("id", "name")
    # line numbers are those of the file: 3 and 6 (lines 2, 4 and 5 are empty rows)
    assert t.rows == ((3, ("a1", "Alpha")), (6, ("a2", "Beta")))
    assert (t.header_line, t.encoding) == (1, "utf-8")


def test_blank_lines_before_the_header_move_its_line(tmp_path: Path) -> None:
    t = _table(tmp_path, b"\n\nid,name\nx,y\n")
    assert (t.header_line, t.header, t.rows) == (3, ("id", "name"), ((4, ("x", "y")),))


def test_a_cell_over_two_lines_keeps_later_line_numbers_right(tmp_path: Path) -> None:
    """A quoted cell with a line break: the next record starts two lines further on."""
    t = _table(tmp_path, b'id,text\r\na,"one\r\ntwo"\r\nb,"say ""hi"""\r\n')
    assert t.rows == ((2, ("a", "one\r\ntwo")), (4, ("b", 'say "hi"')))


def test_excel_utf8_byte_order_mark_is_not_part_of_the_first_name(tmp_path: Path) -> None:
    t = _table(tmp_path, "\ufeffid,名前\nk1,騎士\n".encode("utf-8"))
    assert t.header == ("id", "名前") and t.encoding == "utf-8-sig"
    assert t.rows == ((2, ("k1", "騎士")),)


def test_unclosed_quote_is_reported_where_it_opens() -> None:
    """The csv module notices at the end of the file; the error names line 3."""
    with pytest.raises(PnpError) as err:
        parse_csv('id,text\na,ok\nb,"never closed\nc,d\ne,f\n', Path("t.csv"))
    assert err.value.line == 3 and "never closed" in err.value.message
    # the record starts on line 2 with a closed two-line cell; the stray quote is on line 3
    with pytest.raises(PnpError) as err:
        parse_csv('id,a,b\nx,"one\ntwo","open\nrest\n', Path("t.csv"))
    assert err.value.line == 3


def test_a_table_of_only_empty_rows_after_the_header_has_no_cards(tmp_path: Path) -> None:
    with pytest.raises(PnpError) as err:
        _table(tmp_path, b"id,name\n  ,  \n,\n")
    assert "no card rows" in err.value.message
