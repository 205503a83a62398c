"""Game manifests (TOML): what a rulebook promises, parsed and validated."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from pnp.errors import PnpError
from pnp.fileio import read_user_file
from pnp.sizes import parse_size
from pnp.units import parse_length

COLUMN_TYPES = ("id", "str", "text", "int", "qty", "enum", "bool", "color")
KINDS = ("card", "token", "board", "die", "deck")
SUPPLIES = ("print", "buy")

_GAME_KEYS = {"slug", "title", "title_ja", "draft", "players", "summary", "constants"}
_COMPONENT_KEYS = {"name", "name_ja", "kind", "supply", "size", "diameter", "sides",
                   "count", "table", "face", "back", "two_sided", "provisional",
                   "note", "columns", "rules"}
_COLUMN_KEYS = {"type", "min", "max", "values", "required"}
_RULE_KEYS = {"where", "group_by", "count", "note"}


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


def _toml_line(text: str, exc: tomllib.TOMLDecodeError) -> int | None:
    """Line number of a TOML error (Python 3.11 puts it only in the message)."""
    lineno = getattr(exc, "lineno", None)
    if lineno:
        return int(lineno)
    match = re.search(r"line (\d+)", str(exc))
    return int(match.group(1)) if match else None


def _key_line(text: str, key: str) -> int | None:
    """First line of ``text`` that mentions ``key`` (to point errors at it)."""
    for number, line in enumerate(text.splitlines(), start=1):
        if key in line:
            return number
    return None


class _Reader:
    """Typed access to a TOML table with precise error locations."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.text = text

    def fail(self, message: str, key: str) -> PnpError:
        return PnpError(message, path=self.path, line=_key_line(self.text, key))

    def get(self, table: Mapping[str, Any], key: str, kind: type | tuple[type, ...],
            where: str, default: Any = ..., anchor: str | None = None) -> Any:
        if key not in table:
            if default is ...:
                raise self.fail(f"{where}: missing key {key!r}", anchor or where.split(".")[-1])
            return default
        value = table[key]
        if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
            names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
            raise self.fail(f"{where}.{key}: expected {names}, found {value!r}", key)
        return value

    def unknown_keys(self, table: Mapping[str, Any], allowed: set[str], where: str) -> None:
        extra = sorted(set(table) - allowed)
        if extra:
            raise self.fail(f"{where}: unknown key {extra[0]!r} (allowed: "
                            f"{', '.join(sorted(allowed))})", extra[0])


def _parse_columns(reader: _Reader, raw: Mapping[str, Any], where: str) -> dict[str, ColumnSpec]:
    columns: dict[str, ColumnSpec] = {}
    for name, spec in raw.items():
        cwhere = f"{where}.columns.{name}"
        if not isinstance(spec, dict):
            raise reader.fail(f"{cwhere}: expected a table such as {{ type = \"int\" }}", name)
        reader.unknown_keys(spec, _COLUMN_KEYS, cwhere)
        ctype = reader.get(spec, "type", str, cwhere, anchor=name)
        if ctype not in COLUMN_TYPES:
            raise reader.fail(f"{cwhere}.type: unknown type {ctype!r} (expected one of "
                              f"{', '.join(COLUMN_TYPES)})", name)
        values = reader.get(spec, "values", list, cwhere, None)
        if ctype == "enum" and not values:
            raise reader.fail(f"{cwhere}: an enum column needs a non-empty 'values' list", name)
        columns[name] = ColumnSpec(
            name=name, type=ctype,
            minimum=reader.get(spec, "min", int, cwhere, None),
            maximum=reader.get(spec, "max", int, cwhere, None),
            values=tuple(str(v) for v in values) if values else None,
            required=reader.get(spec, "required", bool, cwhere, True))
    if "id" not in columns or columns["id"].type != "id":
        raise reader.fail(f"{where}.columns: every table needs an 'id' column of type \"id\"",
                          f"{where.split('.')[-1]}.columns")
    if "qty" not in columns or columns["qty"].type != "qty":
        raise reader.fail(f"{where}.columns: every table needs a 'qty' column of type \"qty\"",
                          f"{where.split('.')[-1]}.columns")
    return columns


def _parse_rules(reader: _Reader, raw: list[Any], where: str,
                 columns: Mapping[str, ColumnSpec]) -> tuple[CountRule, ...]:
    rules = []
    for index, rule in enumerate(raw, start=1):
        rwhere = f"{where}.rules[{index}]"
        if not isinstance(rule, dict):
            raise reader.fail(f"{rwhere}: expected a table", "rules")
        reader.unknown_keys(rule, _RULE_KEYS, rwhere)
        match = reader.get(rule, "where", dict, rwhere, {})
        group_by = tuple(reader.get(rule, "group_by", list, rwhere, []))
        count = reader.get(rule, "count", (int, dict), rwhere, anchor="count")
        for name in list(match) + list(group_by):
            if name not in columns:
                raise reader.fail(f"{rwhere}: unknown column {name!r}", name)
        for name in group_by:
            if columns[name].domain() is None and not isinstance(count, dict):
                raise reader.fail(f"{rwhere}: cannot group by {name!r}: it needs an enum "
                                  "or an int with min and max", name)
        if isinstance(count, dict) and len(group_by) != 1:
            raise reader.fail(f"{rwhere}: a count table needs exactly one group_by column",
                              "count")
        where_values = {k: tuple(v) if isinstance(v, list) else (v,) for k, v in match.items()}
        rules.append(CountRule(where=where_values, group_by=group_by, count=count,
                               index=index, note=str(rule.get("note", ""))))
    return tuple(rules)


def _parse_component(reader: _Reader, cid: str, raw: Mapping[str, Any]) -> Component:
    where = f"components.{cid}"
    if not isinstance(raw, dict):
        raise reader.fail(f"{where}: expected a table", cid)
    reader.unknown_keys(raw, _COMPONENT_KEYS, where)
    kind = reader.get(raw, "kind", str, where, anchor=f"[components.{cid}]")
    if kind not in KINDS:
        raise reader.fail(f"{where}.kind: unknown kind {kind!r} (expected one of "
                          f"{', '.join(KINDS)})", "kind")
    supply = reader.get(raw, "supply", str, where, "print")
    if supply not in SUPPLIES:
        raise reader.fail(f"{where}.supply: expected print or buy, found {supply!r}", "supply")
    count = reader.get(raw, "count", int, where, anchor=f"[components.{cid}]")
    if count < 0:
        raise reader.fail(f"{where}.count: expected ≥ 0, found {count}", "count")
    size_text = reader.get(raw, "size", str, where, None)
    try:
        size = parse_size(size_text, what=f"{where}.size") if size_text else None
        diameter_text = reader.get(raw, "diameter", str, where, None)
        diameter = (parse_length(diameter_text, default_unit="mm", what=f"{where}.diameter")
                    if diameter_text else None)
    except PnpError as exc:
        raise reader.fail(exc.message, "size" if "size" in exc.message else "diameter") from None
    if kind in ("card", "board") and size is None:
        raise reader.fail(f"{where}: a {kind} needs a 'size'", f"[components.{cid}]")
    if kind == "token" and size is None and diameter is None:
        raise reader.fail(f"{where}: a token needs a 'diameter' or a 'size'",
                          f"[components.{cid}]")
    table = reader.get(raw, "table", str, where, None)
    columns: dict[str, ColumnSpec] = {}
    rules: tuple[CountRule, ...] = ()
    if table is not None:
        raw_columns = reader.get(raw, "columns", dict, where, anchor=f"[components.{cid}]")
        columns = _parse_columns(reader, raw_columns, where)
        rules = _parse_rules(reader, reader.get(raw, "rules", list, where, []), where, columns)
    elif "columns" in raw or "rules" in raw:
        raise reader.fail(f"{where}: 'columns' and 'rules' need a 'table'", f"[components.{cid}]")
    return Component(
        id=cid, name=reader.get(raw, "name", str, where, anchor=f"[components.{cid}]"),
        name_ja=reader.get(raw, "name_ja", str, where, ""),
        kind=kind, supply=supply, count=count, table=table, size=size, size_text=size_text,
        diameter=diameter, sides=reader.get(raw, "sides", int, where, None),
        face=reader.get(raw, "face", str, where, None),
        back=reader.get(raw, "back", str, where, None),
        two_sided=reader.get(raw, "two_sided", bool, where, False),
        provisional=reader.get(raw, "provisional", bool, where, False),
        note=reader.get(raw, "note", str, where, ""), columns=columns, rules=rules)


def load_manifest(path: Path) -> Manifest:
    """Parse and validate the manifest at ``path``; raise :class:`PnpError` on any fault."""
    data = read_user_file(path, "manifest")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise PnpError("manifest is not UTF-8: save it as UTF-8", path=path) from None
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        raise PnpError(f"TOML syntax error: {message}", path=path,
                       line=_toml_line(text, exc)) from None
    reader = _Reader(path, text)
    game = reader.get(raw, "game", dict, "manifest", anchor="[game]")
    reader.unknown_keys(game, _GAME_KEYS, "game")
    unknown_top = sorted(set(raw) - {"game", "components"})
    if unknown_top:
        raise reader.fail(f"unknown table {unknown_top[0]!r} (expected [game] and "
                          "[components.*])", unknown_top[0])
    players = reader.get(game, "players", list, "game")
    if (len(players) != 2 or not all(isinstance(p, int) for p in players)
            or not 1 <= players[0] <= players[1]):
        raise reader.fail(f"game.players: expected [min, max] with 1 ≤ min ≤ max, "
                          f"found {players!r}", "players")
    components = {cid: _parse_component(reader, cid, comp)
                  for cid, comp in reader.get(raw, "components", dict, "manifest",
                                              anchor="[components").items()}
    slug = reader.get(game, "slug", str, "game")
    if slug != path.parent.name:
        raise reader.fail(f"game.slug {slug!r} does not match its folder "
                          f"{path.parent.name!r}", "slug")
    return Manifest(
        path=path, slug=slug, title=reader.get(game, "title", str, "game"),
        title_ja=reader.get(game, "title_ja", str, "game", ""),
        draft=reader.get(game, "draft", str, "game", ""),
        players=(players[0], players[1]),
        summary=reader.get(game, "summary", str, "game", ""),
        constants=reader.get(game, "constants", dict, "game", {}),
        components=components)
