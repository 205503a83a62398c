"""Typed card rows: a component's CSV checked cell by cell against its column specs."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from pnp.data.csvio import RawTable
from pnp.data.manifest import MAX_COUNT, ColumnSpec, Component

_ID = re.compile(r"^[A-Za-z0-9_-]+$")
_COLOR = re.compile(r"^#[0-9A-Fa-f]{6}$")
_TRUE = {"yes", "true", "1", "y"}
_FALSE = {"no", "false", "0", "n"}


@dataclass(frozen=True)
class Problem:
    """One fault in the data: where it is and what was expected vs found."""

    path: Path
    line: int | None
    message: str

    def __str__(self) -> str:
        where = str(self.path) + (f":{self.line}" if self.line is not None else "")
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class Row:
    """One distinct card of a component, with typed values."""

    line: int
    values: Mapping[str, Any]

    @property
    def id(self) -> str:
        """The card's stable id."""
        return str(self.values["id"])

    @property
    def qty(self) -> int:
        """How many copies are in the box."""
        return int(self.values["qty"])


def convert_cell(spec: ColumnSpec, text: str) -> Any:
    """Return ``text`` converted to ``spec``'s type, or raise ValueError with the reason."""
    if text == "":
        if spec.required or spec.type in ("id", "qty"):
            raise ValueError("empty cell: a value is required")
        return None
    kind = spec.type
    if kind == "id":
        if not _ID.match(text):
            raise ValueError(f"id {text!r}: expected letters, digits, '-' or '_'")
        return text
    if kind in ("int", "qty"):
        try:
            # int() also reads "3_0" as 30: a cell is digits with an optional sign,
            # so a typo is never taken for another number
            if not _WHOLE.fullmatch(text):
                raise ValueError
            number = int(text)
        except ValueError:
            expected = "a whole number ≥ 0" if kind == "qty" else "a whole number"
            raise ValueError(f"{text!r}: expected {expected}") from None
        low = 0 if kind == "qty" else spec.minimum
        high = MAX_COUNT if kind == "qty" else spec.maximum
        if low is not None and number < low:
            raise ValueError(f"{number}: expected ≥ {low}")
        if high is not None and number > high:
            raise ValueError(f"{number}: expected ≤ {high}")
        return number
    if kind == "enum":
        assert spec.values is not None
        if text not in spec.values:
            raise ValueError(f"unknown value {text!r}: expected one of "
                             + ", ".join(spec.values))
        return text
    if kind == "bool":
        word = text.lower()
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
        raise ValueError(f"{text!r}: expected yes or no")
    if kind == "color":
        if not _COLOR.match(text):
            raise ValueError(f"{text!r}: expected a colour like #1a2b3c")
        return text.lower()
    return text  # str, text


#: A whole number as a cell holds it (Unicode digits allowed, as in "３").
_WHOLE = re.compile(r"[+-]?\d+")

#: Separators other than the comma that spreadsheets write, as named in messages.
_SEPARATORS = {";": "semicolons (';', as a spreadsheet set to a language with a decimal "
                    "comma writes them)", "\t": "tabs (a tab-separated export)"}


def _other_separator(header: tuple[str, ...], component: Component) -> str | None:
    """The separator's name if the header is one cell that another separator splits into
    the declared columns (a European Excel's ';' "CSV", a tab-separated export)."""
    if len(header) != 1:
        return None
    for sep, name in _SEPARATORS.items():
        names = {part.strip() for part in header[0].split(sep)}
        if len(names) > 1 and names & set(component.columns):
            return name
    return None


def type_rows(component: Component, table: RawTable) -> tuple[list[Row], list[Problem]]:
    """Check ``table`` against ``component``'s columns; return typed rows and problems."""
    problems: list[Problem] = []
    path = table.path
    header = table.header
    at = table.header_line
    separator = _other_separator(header, component)
    if separator is not None:
        # one line instead of every column reported missing and one odd name unknown
        return [], [Problem(path, at, f"the header is separated by {separator}, expected "
                            "commas: export the table with ',' as the field separator "
                            "(see docs/data-format.md)")]
    seen: set[str] = set()
    for number, name in enumerate(header, start=1):
        if not name:
            problems.append(Problem(path, at, f"column {number} has no name in the header "
                                    "(an empty header cell, e.g. a trailing comma): name it "
                                    "or delete the column"))
            continue
        if name in seen:
            problems.append(Problem(path, at, f"column {name!r} appears twice in the header"))
        seen.add(name)
    missing = [c for c in component.columns if c not in header]
    for name in missing:
        problems.append(Problem(path, at, f"missing column {name!r} (expected columns: "
                                f"{', '.join(component.columns)})"))
    for name in header:
        if name and name not in component.columns:
            from pnp.data.suggest import did_you_mean

            hint = did_you_mean(name, [c for c in missing])
            problems.append(Problem(path, at, f"unknown column {name!r}: not declared in "
                                    f"manifest components.{component.id}.columns{hint}"))
    if missing:
        return [], problems
    index = {name: header.index(name) for name in component.columns}
    rows: list[Row] = []
    for line, cells in table.rows:
        if len(cells) != len(header):
            problems.append(Problem(path, line, f"expected {len(header)} cells, "
                                    f"found {len(cells)}"))
            continue
        values: dict[str, Any] = {}
        ok = True
        for name, spec in component.columns.items():
            try:
                values[name] = convert_cell(spec, cells[index[name]])
            except ValueError as exc:
                problems.append(Problem(path, line, f"column {name!r}: {exc}"))
                ok = False
        if ok:
            rows.append(Row(line=line, values=MappingProxyType(values)))
    return rows, problems
