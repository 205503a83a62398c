"""Game manifests (TOML): what a rulebook promises, parsed and validated."""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from pnp.errors import PnpError
from pnp.fileio import read_user_text
from pnp.sizes import parse_size
from pnp.units import parse_length, to_mm, unitless

COLUMN_TYPES = ("id", "str", "text", "int", "qty", "enum", "bool", "color")
KINDS = ("card", "token", "board", "die", "deck")
SUPPLIES = ("print", "buy")

_GAME_KEYS = {"slug", "title", "title_ja", "draft", "players", "summary", "constants"}
_COMPONENT_KEYS = {"name", "name_ja", "kind", "supply", "size", "diameter", "sides",
                   "count", "table", "face", "back", "two_sided", "provisional",
                   "note", "columns", "rules"}
_COLUMN_KEYS = {"type", "min", "max", "values", "required"}
_RULE_KEYS = {"where", "group_by", "count", "note"}

#: Upper bound of a component's count and of a row's qty: no card game holds
#: more, and a typo such as 1000000 must not make a build print a million cards.
MAX_COUNT = 10_000
#: Largest side of a component (a board folded for print is far smaller).
MAX_SIZE_MM = 1000.0


@dataclass(frozen=True)
class ColumnSpec:
    """The declared type and allowed values of one table column."""

    name: str
    type: str
    minimum: int | None = None
    maximum: int | None = None
    values: tuple[str, ...] | None = None
    required: bool = True

    def domain(self) -> tuple[Any, ...] | None:
        """All allowed values when the column is enumerable (enum, bounded int)."""
        if self.type == "enum" and self.values is not None:
            return self.values
        if self.type == "bool":
            return (False, True)
        if self.type == "int" and self.minimum is not None and self.maximum is not None:
            return tuple(range(self.minimum, self.maximum + 1))
        return None


@dataclass(frozen=True)
class CountRule:
    """Rows matching ``where``, grouped by ``group_by``, must hold ``count`` cards each."""

    where: Mapping[str, tuple[Any, ...]]
    group_by: tuple[str, ...]
    count: int | Mapping[str, int]
    index: int
    note: str = ""


@dataclass(frozen=True)
class Component:
    """One physical component kind of a game (a deck, a token set, a board, dice)."""

    id: str
    name: str
    name_ja: str
    kind: str
    supply: str
    count: int
    table: str | None
    size: tuple[float, float] | None  # points (width, height)
    size_text: str | None
    diameter: float | None  # points
    sides: int | None
    face: str | None
    back: str | None
    two_sided: bool
    provisional: bool
    note: str
    columns: Mapping[str, ColumnSpec]
    rules: tuple[CountRule, ...]


@dataclass(frozen=True)
class Manifest:
    """A parsed ``manifest.toml``."""

    path: Path
    slug: str
    title: str
    title_ja: str
    draft: str
    players: tuple[int, int]
    summary: str
    constants: Mapping[str, Any]
    components: Mapping[str, Component] = field(default_factory=dict)

    @property
    def game_dir(self) -> Path:
        """The folder holding the manifest and its tables."""
        return self.path.parent


@dataclass(frozen=True)
class Param:
    """One rule parameter a user may set with ``--param key=value``."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def expected(self) -> str:
        """What a value of this parameter looks like, said as every other message says it."""
        kind = type(self.default)
        if self.choices is not None:
            return "one of " + ", ".join(map(str, self.choices))
        if kind is bool:
            return "yes or no (also true/false, on/off, 1/0)"
        word = "a whole number" if kind is int else "a number" if kind is float else "text"
        if kind in (int, float):
            if self.minimum is not None and self.maximum is not None:
                return f"{word} from {self.minimum} to {self.maximum}"
            if self.minimum is not None:
                return f"{word} ≥ {self.minimum}"
            if self.maximum is not None:
                return f"{word} ≤ {self.maximum}"
        return word

    def parse(self, text: str | Any) -> Any:
        """Convert ``text`` (from the command line) to this parameter's type.

        Only plain decimal numbers are taken: Python's ``int()`` and
        ``float()`` would also read ``1_0`` as 10 and ``nan``/``inf`` as
        numbers, which no designer means.
        """
        kind = type(self.default)
        value: Any = None
        raw = text.strip() if isinstance(text, str) else text
        if kind is bool:
            if isinstance(raw, bool):
                value = raw
            elif str(raw).lower() in ("1", "true", "yes", "on"):
                value = True
            elif str(raw).lower() in ("0", "false", "no", "off"):
                value = False
        elif kind is int:
            if isinstance(raw, int) and not isinstance(raw, bool):
                value = raw
            elif isinstance(raw, str) and _INT.fullmatch(raw):
                value = int(raw)
        elif kind is float:
            if isinstance(raw, (int, float)) and not isinstance(raw, bool):
                value = float(raw)
            elif isinstance(raw, str) and _FLOAT.fullmatch(raw):
                value = float(raw)
            if value is not None and not math.isfinite(value):
                value = None
        else:
            value = kind(text)
        if value is None or (self.choices is not None and value not in self.choices):
            raise PnpError(f"parameter {self.name}={_param_text(text)}: "
                           f"expected {self.expected()}")
        if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum):
            raise PnpError(f"parameter {self.name}={value}: expected {self.expected()}")
        return value


def _param_text(text: Any) -> str:
    """``text`` as an error message echoes it: quoted, and cut after 20 characters."""
    if isinstance(text, str) and len(text) > 20:
        return repr(text[:20] + "…")
    return repr(text)


#: A whole number as a designer writes it (no ``1_0``, no ``1.0``); at most 18
#: digits, so ``int()`` never meets Python's 4300-digit limit (no game's
#: parameter is that large, and a longer one is a typo).
_INT = re.compile(r"[+-]?[0-9]{1,18}")
#: A decimal number (``0.5``, ``-2``, ``.5``, ``1e3``), never ``nan`` or ``inf``.
_FLOAT = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


_HEADER = re.compile(r"^\[(\[)?\s*(?P<name>[^\[\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"""^(?P<key>(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')"""
                  r"""(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*=(?P<value>.*)$""")
_INLINE_KEY = re.compile(r"""[{,]\s*([A-Za-z0-9_-]+|"[^"]*"|'[^']*')\s*=""")


def players_text(low: int, high: int) -> str:
    """A player count as pnp says it everywhere: "1 player", "4 players", "3–5 players"."""
    if low == high:
        return f"{low} player{'s' if low > 1 else ''}"
    return f"{low}–{high} players"


def _split_key(text: str) -> tuple[str, ...]:
    """Split a dotted TOML key (``a."b.c".d``) into its parts, quotes removed."""
    parts = re.findall(r""""[^"]*"|'[^']*'|[^.\s]+""", text)
    return tuple(p[1:-1] if p[:1] in "\"'" else p for p in parts)


def where_path(where: str) -> tuple[str, ...]:
    """Key path of an error location such as ``components.reel.rules[2]``."""
    if where in ("", "manifest"):
        return ()
    path: list[str] = []
    for part in where.split("."):
        match = re.fullmatch(r"(.+)\[(\d+)\]", part)
        path.extend((match.group(1), match.group(2)) if match else (part,))
    return tuple(path)


class TomlLines:
    """Where each table and key of a TOML text is, read line by line.

    tomllib gives values but no positions; an error about a value must name
    the line the designer has to fix, not the first line that mentions the
    same word. Array-of-tables entries are numbered from 1
    (``components.reel.rules.2``), as in the messages.
    """

    def __init__(self, text: str) -> None:
        """Index the tables and keys of ``text``."""
        self.lines: dict[tuple[str, ...], int] = {}
        current: tuple[str, ...] = ()
        entries: dict[tuple[str, ...], int] = {}
        open_string: str | None = None
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if open_string is not None:  # inside a multi-line string
                if line.count(open_string) % 2 == 1:
                    open_string = None
                continue
            if not line or line.startswith("#"):
                continue
            header = _HEADER.match(line)
            if header:
                path = _split_key(header.group("name"))
                if header.group(1):  # [[array.of.tables]]
                    entries[path] = entries.get(path, 0) + 1
                    self._note(path, number)
                    path = path + (str(entries[path]),)
                current = path
                self._note(current, number)
                continue
            key = _KEY.match(line)
            if key is None:
                continue
            path = current + _split_key(key.group("key"))
            self._note(path, number)
            value = key.group("value")
            for inner in _INLINE_KEY.findall(value):
                self._note(path + _split_key(inner), number)
            for quote in ('"""', "'''"):
                if value.count(quote) % 2 == 1:
                    open_string = quote

    def _note(self, path: tuple[str, ...], number: int) -> None:
        """Remember the first line of ``path`` and of each of its prefixes."""
        for end in range(1, len(path) + 1):
            self.lines.setdefault(path[:end], number)

    def line(self, path: tuple[str, ...]) -> int | None:
        """Line of ``path``, or of its longest known prefix; None if nothing matches."""
        for end in range(len(path), 0, -1):
            if path[:end] in self.lines:
                return self.lines[path[:end]]
        return None


def constant_line(path: Path, name: str) -> int | None:
    """Line of ``name`` in the ``[game.constants]`` table of the manifest at ``path``.

    Read again from disk, only for an error message (a parsed manifest keeps
    no text); None when the file cannot be read or has no such key.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    lines = TomlLines(text)
    return lines.lines.get(("game", "constants", name))


def _open_construct(text: str, pos: int) -> tuple[str, int] | None:
    """The innermost string, array or inline table still open at ``pos``: (opener, line).

    tomllib reports an unclosed bracket or string where it gave up, often
    lines later; the line to fix is where it opened.
    """
    stack: list[tuple[str, int]] = []
    line = 1
    i = 0
    while i < min(pos, len(text)):
        ch = text[i]
        if ch == "\n":
            line += 1
        elif ch == "#":
            newline = text.find("\n", i)
            i = newline if newline >= 0 else len(text)
            continue
        elif ch in "\"'":
            quote = ch * 3 if text.startswith(ch * 3, i) else ch
            start_line = line
            j = i + len(quote)
            while j < len(text):
                if ch == '"' and text[j] == "\\":
                    j += 2
                    continue
                if text.startswith(quote, j):
                    break
                if text[j] == "\n":
                    if len(quote) == 1:
                        break  # a one-line string ends (badly) at the line break
                    line += 1
                j += 1
            if j >= pos or j >= len(text) or (len(quote) == 1 and text[j] == "\n"):
                return quote, start_line
            i = j + len(quote)
            continue
        elif ch in "[{":
            stack.append((ch, line))
        elif ch in "]}" and stack:
            stack.pop()
        i += 1
    return stack[-1] if stack else None


def toml_error(text: str, exc: tomllib.TOMLDecodeError) -> tuple[str, int | None]:
    """A TOML syntax error as (message, line of its cause); for every TOML file pnp reads."""
    message = str(exc)
    where = re.search(r"\(at line (\d+), column (\d+)\)", message)
    message = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", message)
    line: int | None = None
    pos = len(text)
    if where:
        line, column = int(where.group(1)), int(where.group(2))
        pos = sum(len(x) + 1 for x in text.split("\n")[:line - 1]) + column - 1
    opened = _open_construct(text, pos)
    if message.startswith(("Unclosed array", "Unclosed inline table")):
        want = "[" if message.startswith("Unclosed array") else "{"
        if opened and opened[0] == want:
            close = "]" if want == "[" else "}"
            what = "array" if want == "[" else "inline table"
            return (f"the {what} opened with {want!r} here is never closed "
                    f"(expected {close!r})", opened[1])
    if message.startswith(("Unterminated string", "Illegal character")) and opened \
            and opened[0] in ('"', "'", '"""', "'''"):
        return f"the string opened with {opened[0]} here is never closed", opened[1]
    return message, line


class _Reader:
    """Typed access to a TOML table with precise error locations."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.text = text

    def fail(self, message: str, where: str, key: str | None = None) -> PnpError:
        """A PnpError at the line of ``where`` (a dotted location) or its ``key``."""
        path = where_path(where) + ((key,) if key is not None else ())
        # the text is indexed only when there is an error to place
        return PnpError(message, path=self.path, line=TomlLines(self.text).line(path))

    def get(self, table: Mapping[str, Any], key: str, kind: type | tuple[type, ...],
            where: str, default: Any = ...) -> Any:
        """``table[key]`` checked to be of ``kind``; ``default`` if absent (else an error)."""
        if key not in table:
            if default is ...:
                raise self.fail(f"{where}: missing key {key!r}", where)
            return default
        value = table[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            names = "/".join(_TYPE_NAMES.get(k, k.__name__) for k in kinds)
            raise self.fail(f"{where}.{key}: expected {names}, found {value!r}", where, key)
        return value

    def unknown_keys(self, table: Mapping[str, Any], allowed: set[str], where: str) -> None:
        """Fail on the first key of ``table`` that is not ``allowed`` (a typo must not pass)."""
        extra = sorted(set(table) - allowed)
        if extra:
            from pnp.data.suggest import did_you_mean

            raise self.fail(f"{where}: unknown key {extra[0]!r}{did_you_mean(extra[0], allowed)}"
                            f" (allowed: {', '.join(sorted(allowed))})", where, extra[0])


_TYPE_NAMES = {str: "a string", int: "a whole number", bool: "true or false",
               list: "a list [...]", dict: "a table { ... }", float: "a number"}


def _parse_columns(reader: _Reader, raw: Mapping[str, Any], where: str) -> dict[str, ColumnSpec]:
    columns: dict[str, ColumnSpec] = {}
    for name, spec in raw.items():
        cwhere = f"{where}.columns.{name}"
        if not isinstance(spec, dict):
            raise reader.fail(f"{cwhere}: expected a table such as {{ type = \"int\" }}", cwhere)
        reader.unknown_keys(spec, _COLUMN_KEYS, cwhere)
        ctype = reader.get(spec, "type", str, cwhere)
        if ctype not in COLUMN_TYPES:
            from pnp.data.suggest import did_you_mean

            raise reader.fail(f"{cwhere}.type: unknown type {ctype!r}"
                              f"{did_you_mean(ctype, COLUMN_TYPES)} (expected one of "
                              f"{', '.join(COLUMN_TYPES)})", cwhere, "type")
        values = reader.get(spec, "values", list, cwhere, None)
        if ctype == "enum" and not values:
            raise reader.fail(f"{cwhere}: an enum column needs a non-empty 'values' list", cwhere)
        if values is not None:
            if ctype != "enum":
                raise reader.fail(f"{cwhere}.values: only an enum column has values", cwhere,
                                  "values")
            if not all(isinstance(v, str) for v in values):
                raise reader.fail(f"{cwhere}.values: expected a list of strings, found "
                                  f"{values!r}", cwhere, "values")
        minimum = reader.get(spec, "min", int, cwhere, None)
        maximum = reader.get(spec, "max", int, cwhere, None)
        if (minimum is not None or maximum is not None) and ctype != "int":
            raise reader.fail(f"{cwhere}: only an int column has min and max", cwhere,
                              "min" if minimum is not None else "max")
        if minimum is not None and maximum is not None and minimum > maximum:
            raise reader.fail(f"{cwhere}: min {minimum} is greater than max {maximum}", cwhere,
                              "min")
        columns[name] = ColumnSpec(
            name=name, type=ctype, minimum=minimum, maximum=maximum,
            values=tuple(values) if values else None,
            required=reader.get(spec, "required", bool, cwhere, True))
    for needed in ("id", "qty"):
        if needed not in columns or columns[needed].type != needed:
            article = "an" if needed == "id" else "a"
            raise reader.fail(f"{where}.columns: every table needs {article} {needed!r} column "
                              f"of type \"{needed}\"", f"{where}.columns")
    return columns


def _scalar(value: Any) -> bool:
    """True for a value a table cell can hold (string, whole number, true/false)."""
    return isinstance(value, (str, int, bool))


def _text(reader: _Reader, table: Mapping[str, Any], key: str, where: str) -> str:
    """A required string that must say something (a title or name printed on sheets)."""
    value: str = reader.get(table, key, str, where)
    if not value.strip():
        raise reader.fail(f"{where}.{key}: expected some text, found an empty string", where,
                          key)
    return value


def _shown(values: Sequence[Any]) -> str:
    """A column's values for a message: all of them, or the range of a long int column."""
    return ", ".join(map(str, values)) if len(values) <= 12 else f"{values[0]} to {values[-1]}"


def _parse_rules(reader: _Reader, raw: list[Any], where: str,
                 columns: Mapping[str, ColumnSpec]) -> tuple[CountRule, ...]:
    rules = []
    for index, rule in enumerate(raw, start=1):
        rwhere = f"{where}.rules[{index}]"
        if not isinstance(rule, dict):
            raise reader.fail(f"{rwhere}: expected a table", rwhere)
        reader.unknown_keys(rule, _RULE_KEYS, rwhere)
        match = reader.get(rule, "where", dict, rwhere, {})
        group_by = reader.get(rule, "group_by", list, rwhere, [])
        count = reader.get(rule, "count", (int, dict), rwhere)
        if not all(isinstance(name, str) for name in group_by):
            raise reader.fail(f"{rwhere}.group_by: expected a list of column names, found "
                              f"{group_by!r}", rwhere, "group_by")
        for name, value in match.items():
            values = value if isinstance(value, list) else [value]
            if not values or not all(_scalar(v) for v in values):
                raise reader.fail(f"{rwhere}.where.{name}: expected a value or a list of "
                                  f"values, found {value!r}", rwhere, "where")
        for name in list(match) + group_by:
            if name not in columns:
                from pnp.data.suggest import did_you_mean

                raise reader.fail(f"{rwhere}: unknown column {name!r}"
                                  f"{did_you_mean(name, columns)}", rwhere,
                                  "where" if name in match else "group_by")
        for name, value in match.items():
            # a value the column can never hold matches no row: every group would then
            # be reported as 0 found, far from the typo
            domain = columns[name].domain()
            if domain is None:
                continue
            wrong = [v for v in (value if isinstance(value, list) else [value])
                     if v not in domain or type(v) is not type(domain[0])]
            if wrong:
                from pnp.data.suggest import did_you_mean

                raise reader.fail(f"{rwhere}.where.{name}: {wrong[0]!r} is not a value of "
                                  f"column {name!r} (expected {_shown(domain)})"
                                  f"{did_you_mean(str(wrong[0]), map(str, domain))}",
                                  rwhere, "where")
        for name in group_by:
            if columns[name].domain() is None and not isinstance(count, dict):
                raise reader.fail(f"{rwhere}: cannot group by {name!r}: it needs an enum "
                                  "or an int with min and max", rwhere, "group_by")
        if isinstance(count, dict):
            if len(group_by) != 1:
                raise reader.fail(f"{rwhere}: a count table needs exactly one group_by column",
                                  rwhere, "count")
            bad = [k for k, v in count.items() if not isinstance(v, int) or isinstance(v, bool)
                   or not 0 <= v <= MAX_COUNT]
            if bad:
                raise reader.fail(f"{rwhere}.count.{bad[0]}: expected a whole number from 0 to "
                                  f"{MAX_COUNT}, found {count[bad[0]]!r}", rwhere, "count")
            # the keys are the groups checked (compared as text): one the column can never
            # hold is a typo that would be reported as '0 found', far from here
            domain = columns[group_by[0]].domain()
            if domain is not None:
                texts = [str(v) for v in domain]     # as pnp.data.rules compares them
                stray = [k for k in count if k not in texts]
                if stray:
                    from pnp.data.suggest import did_you_mean

                    raise reader.fail(f"{rwhere}.count: {stray[0]!r} is not a value of column "
                                      f"{group_by[0]!r} (expected {_shown(texts)})"
                                      f"{did_you_mean(stray[0], texts)}", rwhere, "count")
        elif not 0 <= count <= MAX_COUNT:
            raise reader.fail(f"{rwhere}.count: expected 0 to {MAX_COUNT}, found {count}",
                              rwhere, "count")
        where_values = {k: tuple(v) if isinstance(v, list) else (v,) for k, v in match.items()}
        rules.append(CountRule(where=where_values, group_by=tuple(group_by), count=count,
                               index=index, note=str(rule.get("note", ""))))
    return tuple(rules)


def _relative_file(reader: _Reader, raw: Mapping[str, Any], key: str, where: str,
                   what: str) -> str | None:
    """A file name relative to a folder the project owns; never absolute or ``..``."""
    value = reader.get(raw, key, str, where, None)
    if value is None:
        return None
    parts = Path(value).parts
    if not value.strip() or Path(value).is_absolute() or ".." in parts or "\\" in value:
        raise reader.fail(f"{where}.{key}: expected a file {what} such as "
                          f"'reel.csv' (no absolute path, no '..'), found {value!r}", where, key)
    return value


def _bare_number(text: str) -> bool:
    """True if ``text`` (a size ``W x H`` or a diameter) has a length without a unit."""
    return any(unitless(part) for part in re.split(r"[x×]", text))


def _length(reader: _Reader, raw: Mapping[str, Any], where: str) -> tuple[
        tuple[float, float] | None, str | None, float | None]:
    """The component's size (or diameter) in points, each side checked to be sensible."""
    size_text = reader.get(raw, "size", str, where, None)
    diameter_text = reader.get(raw, "diameter", str, where, None)
    size = diameter = None
    for key, text in (("size", size_text), ("diameter", diameter_text)):
        if not text:
            continue
        if _bare_number(text):
            # parse_length would read it as mm; a designer writing "2.5 x 3.5" means
            # inches, and tiny cards would print without a word
            example = "'63mm x 88mm' or '2.5in x 3.5in'" if key == "size" else "'20mm'"
            raise reader.fail(f"{where}.{key} {text!r}: expected a unit on each length (mm, "
                              f"cm or in), e.g. {example}; a bare number could mean mm or "
                              "inches", where, key)
        try:
            if key == "size":
                size = parse_size(text, what=f"{where}.size")
                sides = list(size)
            else:
                diameter = parse_length(text, default_unit="mm", what=f"{where}.diameter")
                sides = [diameter]
        except PnpError as exc:
            raise reader.fail(exc.message, where, key) from None
        if not all(0 < to_mm(side) <= MAX_SIZE_MM for side in sides):
            raise reader.fail(f"{where}.{key} {text!r}: each side must be more than 0 and at "
                              f"most {MAX_SIZE_MM:g} mm", where, key)
    return size, size_text, diameter


def _parse_component(reader: _Reader, cid: str, raw: Mapping[str, Any]) -> Component:
    where = f"components.{cid}"
    if not isinstance(raw, dict):
        raise reader.fail(f"{where}: expected a table", where)
    reader.unknown_keys(raw, _COMPONENT_KEYS, where)
    kind = reader.get(raw, "kind", str, where)
    if kind not in KINDS:
        from pnp.data.suggest import did_you_mean

        raise reader.fail(f"{where}.kind: unknown kind {kind!r}{did_you_mean(kind, KINDS)} "
                          f"(expected one of {', '.join(KINDS)})", where, "kind")
    supply = reader.get(raw, "supply", str, where, "print")
    if supply not in SUPPLIES:
        raise reader.fail(f"{where}.supply: expected print or buy, found {supply!r}", where,
                          "supply")
    count = reader.get(raw, "count", int, where)
    if not 0 <= count <= MAX_COUNT:
        raise reader.fail(f"{where}.count: expected 0 to {MAX_COUNT}, found {count}", where,
                          "count")
    size, size_text, diameter = _length(reader, raw, where)
    if kind in ("card", "board") and size is None:
        raise reader.fail(f"{where}: a {kind} needs a 'size'", where)
    if kind == "token" and size is None and diameter is None:
        raise reader.fail(f"{where}: a token needs a 'diameter' or a 'size'", where)
    if "back" in raw and "face" not in raw:
        # only components with a face are printed: the deck would silently be left out
        raise reader.fail(f"{where}: a 'back' template without a 'face': give the face "
                          "template too", where, "back")
    if size is None and diameter is None and "face" in raw:
        # a face is drawn at the component's size: without one every side fails later
        raise reader.fail(f"{where}: a component with a 'face' template needs a 'size' "
                          "(e.g. size = \"poker\")", where, "face")
    sides = reader.get(raw, "sides", int, where, None)
    if sides is not None and not 2 <= sides <= 100:
        raise reader.fail(f"{where}.sides: expected 2 to 100, found {sides}", where, "sides")
    table = _relative_file(reader, raw, "table", where, "in the game's folder")
    columns: dict[str, ColumnSpec] = {}
    rules: tuple[CountRule, ...] = ()
    if table is not None:
        raw_columns = reader.get(raw, "columns", dict, where)
        columns = _parse_columns(reader, raw_columns, where)
        rules = _parse_rules(reader, reader.get(raw, "rules", list, where, []), where, columns)
    elif "columns" in raw or "rules" in raw:
        raise reader.fail(f"{where}: 'columns' and 'rules' need a 'table'", where,
                          "columns" if "columns" in raw else "rules")
    return Component(
        id=cid, name=_text(reader, raw, "name", where),
        name_ja=reader.get(raw, "name_ja", str, where, ""),
        kind=kind, supply=supply, count=count, table=table, size=size, size_text=size_text,
        diameter=diameter, sides=sides,
        face=_relative_file(reader, raw, "face", where, "under the templates folder"),
        back=_relative_file(reader, raw, "back", where, "under the templates folder"),
        two_sided=reader.get(raw, "two_sided", bool, where, False),
        provisional=reader.get(raw, "provisional", bool, where, False),
        note=reader.get(raw, "note", str, where, ""), columns=columns, rules=rules)


def load_manifest(path: Path) -> Manifest:
    """Parse and validate the manifest at ``path``; raise :class:`PnpError` on any fault."""
    text, _encoding = read_user_text(path, "manifest")
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message, line = toml_error(text, exc)
        raise PnpError(f"TOML syntax error: {message}", path=path, line=line) from None
    reader = _Reader(path, text)
    game = reader.get(raw, "game", dict, "manifest")
    reader.unknown_keys(game, _GAME_KEYS, "game")
    unknown_top = sorted(set(raw) - {"game", "components"})
    if unknown_top:
        raise reader.fail(f"unknown table {unknown_top[0]!r} (expected [game] and "
                          "[components.*])", unknown_top[0])
    players = reader.get(game, "players", list, "game")
    if (len(players) != 2 or not all(isinstance(p, int) and not isinstance(p, bool)
                                     for p in players)
            or not 1 <= players[0] <= players[1] <= 100):
        raise reader.fail(f"game.players: expected [min, max] with 1 ≤ min ≤ max ≤ 100, "
                          f"found {players!r}", "game", "players")
    components = {cid: _parse_component(reader, cid, comp)
                  for cid, comp in reader.get(raw, "components", dict, "manifest").items()}
    slug = reader.get(game, "slug", str, "game")
    if slug != path.parent.name:
        raise reader.fail(f"game.slug {slug!r} does not match its folder "
                          f"{path.parent.name!r}", "game", "slug")
    return Manifest(
        path=path, slug=slug, title=_text(reader, game, "title", "game"),
        title_ja=reader.get(game, "title_ja", str, "game", ""),
        draft=reader.get(game, "draft", str, "game", ""),
        players=(players[0], players[1]),
        summary=reader.get(game, "summary", str, "game", ""),
        constants=reader.get(game, "constants", dict, "game", {}),
        components=components)


def parse_constant(manifest: Manifest, spec: Param) -> Any:
    """``manifest``'s ``[game.constants]`` value of the rule parameter ``spec``, parsed.

    A value the parameter refuses is one error at the manifest's file and
    line (``manifest.toml:21: [game.constants] starting_hp = 0: expected a
    whole number from 1 to 30``): the line is what the designer edits.
    """
    raw = manifest.constants[spec.name]
    try:
        return spec.parse(raw)
    except PnpError:
        raise PnpError(f"[game.constants] {spec.name} = {_toml_value(raw)}: expected "
                       f"{spec.expected()}", path=manifest.path,
                       line=constant_line(manifest.path, spec.name)) from None


def _toml_value(value: Any) -> str:
    """``value`` as a TOML file writes it (``0``, ``true``, ``"ten"``), cut after 20 characters."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + (value[:20] + "…" if len(value) > 20 else value) + '"'
    text = str(value)
    return text if len(text) <= 20 else text[:20] + "…"


def check_constants(manifest: Manifest) -> None:
    """Raise the one-line error of a bad rule parameter in ``manifest``'s ``[game.constants]``.

    For the commands that draw the game without playing it (``build``,
    ``preview``, ``watch``, ``rulebook``): a value the engine would refuse
    stops them before the first file is written, as ``check`` and
    ``simulate`` stop. A sheets-only build loads no engine (its start-up is
    its floor), so the parameters are read off the engine's source
    (:func:`engine_params`).
    """
    if not manifest.constants:
        return
    wanted = engine_params(manifest.slug, manifest.constants)
    if wanted is None:
        return
    specs, names = wanted
    for name in names:
        if name in manifest.constants and name in specs:
            parse_constant(manifest, specs[name])


#: The folder of the rules engines, one package per game (pnp/games/<slug>/).
_GAMES = Path(__file__).resolve().parents[1] / "games"


def engine_params(slug: str, constants: Mapping[str, Any] | None = None
                  ) -> tuple[dict[str, Param], tuple[str, ...]] | None:
    """The rule parameters of ``slug``'s engine and the names the manifest sets; None: no engine.

    With ``constants`` (a manifest's), the specs are read only when one of
    those names is set there (else no specs: there is nothing to check).

    Read off ``pnp/games/<slug>/engine.py`` without importing it: the two
    class attributes ``param_specs = (Param(...), ...)`` and
    ``params_from_manifest = (...)`` (or a module-level tuple it names) are
    literals, so only those few lines are parsed (about 1 ms; importing
    the engine costs 5-15 ms and the data layer may not import engines). An
    engine written another way is not checked here: ``check`` and
    ``simulate`` still refuse the value, and the test that compares these
    parameters with every engine's own fails until it is readable.
    """
    if not slug.isidentifier() or not (_GAMES / slug / "__init__.py").is_file():
        return None
    try:
        source = (_GAMES / slug / "engine.py").read_text(encoding="utf-8")
        names = _literal_assignment(source, "    params_from_manifest = ")
        if names is None:                     # not set: Game's default, none
            names = ()
        elif isinstance(names, str):          # a module-level constant's name
            names = _literal_assignment(source, f"{names} = ")
        if not isinstance(names, tuple):
            raise ValueError("not literal")
        if constants is not None and not any(name in constants for name in names):
            return {}, names
        specs = _literal_assignment(source, "    param_specs = ")
        if specs is None:
            raise ValueError("not literal")
        return {spec.name: spec for spec in specs}, names
    except (OSError, ValueError, SyntaxError):
        return None


def _literal_assignment(source: str, prefix: str) -> Any:
    """The value assigned on the line starting with ``prefix`` in ``source``.

    A tuple of ``Param(...)`` calls, a tuple of literals, or (for a bare
    name) the name as a string; None when no line starts so; ValueError
    when the value is anything else.
    """
    import ast

    start = source.find("\n" + prefix)
    if start < 0:
        return None
    lines = source[start + 1:].splitlines()
    # the statement is the shortest run of lines that parses (a bracket still
    # open does not); tokenize would find its end too, but costs milliseconds
    # to import, more than a parse or two
    depth = 0
    for count, line in enumerate(lines[:200], start=1):
        # brackets counted roughly (one inside a string counts too): only a
        # candidate end, confirmed by parsing
        depth += sum(line.count(c) for c in "([{") - sum(line.count(c) for c in ")]}")
        if depth > 0:
            continue
        try:
            node = ast.parse("\n".join(lines[:count]).strip()).body[0]
            break
        except SyntaxError:
            continue
    else:
        raise ValueError("unended statement")
    if not isinstance(node, ast.Assign):
        raise ValueError("not an assignment")
    value = node.value
    if isinstance(value, ast.Name):
        return value.id
    if isinstance(value, ast.Tuple) and all(isinstance(e, ast.Call) for e in value.elts):
        return tuple(_param(call) for call in value.elts)
    return ast.literal_eval(value)


def _param(call: Any) -> Param:
    """A :class:`Param` from its constructor call's syntax tree (literal arguments only)."""
    import ast

    if not (isinstance(call.func, ast.Name) and call.func.id == "Param"):
        raise ValueError("not a Param")
    args = [ast.literal_eval(a) for a in call.args]
    kwargs = {k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg is not None}
    return Param(*args, **kwargs)
