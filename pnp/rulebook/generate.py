"""Rulebook sections computed from a game's card data (manifest + tables).

Everything here reads :class:`pnp.data.GameData`, so editing a CSV or the
manifest changes the exported rulebook: component counts are summed from the
rows' ``qty``, breakdowns group the rows, card lists print the designed
cards' text. Output is Markdown of the rulebook subset
(:mod:`pnp.rulebook.markdown`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import product
from typing import Any, Iterable, Mapping, Sequence

from pnp.data import GameData
from pnp.data.manifest import Component
from pnp.units import to_mm

#: Japanese labels for the named card sizes of :mod:`pnp.sizes`.
SIZE_NAMES_JA: dict[str, str] = {
    "poker": "ポーカー", "poker_us": "ポーカー", "bridge": "ブリッジ", "tarot": "タロット",
    "mini_euro": "ミニユーロ", "euro": "ユーロ", "square": "スクエア",
}

#: Reward places of the Fortune-card reward language (docs/design/fortune_clover.md).
_PLACES = {"1st": "1位", "2nd": "2位", "3rd": "3位", "4th": "4位", "5th": "5位", "6th": "6位"}
_CHIPS = {"Y": "黄", "W": "白"}

#: Minimum run length written as a range ("1〜6") instead of a list ("1・2・3").
RUN_MIN = 4


@dataclass(frozen=True)
class BreakdownColumn:
    """A column used to break a component down, with an optional label template."""

    name: str
    template: str = "{}"

    def label(self, value: Any) -> str:
        """The value as printed, e.g. ``シーズン1`` for template ``シーズン{}``."""
        return self.template.replace("{}", _value_text(value))


def _value_text(value: Any) -> str:
    """A cell value as rulebook text (booleans as あり/なし)."""
    if isinstance(value, bool):
        return "あり" if value else "なし"
    return str(value)


def unit_word(component: Component) -> str:
    """The counter word for a component: 枚 for flat things, 個 for tokens and dice."""
    return "個" if component.kind in ("token", "die") else "枚"


def component_total(game: GameData, cid: str) -> int:
    """Copies of a component: the sum of ``qty`` over its rows, else the manifest count."""
    component = game.manifest.components[cid]
    if component.table is None:
        return component.count
    return sum(row.qty for row in game.rows.get(cid, []))


def _mm(points: float) -> str:
    """Points as a millimetre figure with at most one decimal ("63", "69.9")."""
    value = round(to_mm(points), 1)
    return f"{value:g}"


def size_text(component: Component) -> str:
    """Physical size for the component table, e.g. ``63×88mm（ポーカー）`` or ``直径20mm``."""
    if component.kind == "die":
        return f"{component.sides}面" if component.sides else "—"
    if component.diameter is not None:
        return f"直径{_mm(component.diameter)}mm"
    if component.size is not None:
        width, height = component.size
        text = f"{_mm(width)}×{_mm(height)}mm"
        named = SIZE_NAMES_JA.get((component.size_text or "").strip().lower())
        return f"{text}<br>（{named}）" if named else text
    return "—"


def _domain_order(game: GameData, cid: str, column: str, values: Iterable[Any]) -> list[Any]:
    """``values`` sorted in the column's declared order (enum order, numeric, else first seen)."""
    spec = game.manifest.components[cid].columns.get(column)
    seen = list(dict.fromkeys(values))
    domain = spec.domain() if spec is not None else None
    if domain is not None:
        order = {value: i for i, value in enumerate(domain)}
        return sorted(seen, key=lambda v: order.get(v, len(order)))
    if all(isinstance(v, int) and not isinstance(v, bool) for v in seen):
        return sorted(seen)
    return seen


def _join_values(game: GameData, cid: str, col: BreakdownColumn, values: Sequence[Any]) -> str:
    """Values as ``1〜6`` when they form a long run of the column's domain, else ``a・b・c``."""
    spec = game.manifest.components[cid].columns.get(col.name)
    domain = list(spec.domain() or ()) if spec is not None else []
    if not domain and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        domain = list(range(min(values), max(values) + 1))
    index = {value: i for i, value in enumerate(domain)}
    # Ranges only read naturally for numbers and card ranks (A〜K), not for names.
    ordinal = all(isinstance(v, int) or (str(v).isascii() and len(str(v)) <= 2)
                  for v in domain)
    if not ordinal:
        index = {}
    parts: list[str] = []
    run: list[Any] = []

    def flush() -> None:
        if len(run) >= RUN_MIN:
            parts.append(f"{col.label(run[0])}〜{col.label(run[-1])}")
        else:
            parts.extend(col.label(v) for v in run)
        run.clear()

    for value in values:
        if run and (value not in index or run[-1] not in index
                    or index[value] != index[run[-1]] + 1):
            flush()
        run.append(value)
    flush()
    return "・".join(parts)


def _counted(label: str, count: int, unit: str, *, each: bool) -> str:
    """``label N枚`` / ``label 各N枚``; a space only after a non-Japanese character."""
    if each:
        return f"{label} 各{count}{unit}"
    sep = "" if label and ord(label[-1]) >= 0x3040 else " "
    return f"{label}{sep}{count}{unit}"


def _group_counts(game: GameData, cid: str, col: BreakdownColumn,
                  counts: Mapping[Any, int], unit: str) -> str:
    """``稲妻・小麦 各3枚 + 女神1枚``: values with equal counts merged, in domain order."""
    by_count: dict[int, list[Any]] = {}
    for value in _domain_order(game, cid, col.name, counts):
        if counts[value]:
            by_count.setdefault(counts[value], []).append(value)
    parts = [_counted(_join_values(game, cid, col, values), count, unit, each=len(values) > 1)
             for count, values in by_count.items()]
    return " + ".join(parts)


def breakdown(game: GameData, cid: str, columns: Sequence[BreakdownColumn]) -> list[str]:
    """Lines describing a component's rows grouped by one or two columns.

    One column: ``黄チップ10個 + 白チップ20個``. Two columns: one line per
    group of outer values with the same inner make-up, e.g.
    ``1〜6 各13枚：稲妻・小麦・兜・車輪 各3枚 + 女神1枚``.
    """
    component = game.manifest.components[cid]
    unit = unit_word(component)
    rows = [row for row in game.rows.get(cid, []) if row.qty]
    if not rows or not columns:
        return []
    outer = columns[0]
    if len(columns) == 1:
        counts: dict[Any, int] = {}
        for row in rows:
            counts[row.values[outer.name]] = counts.get(row.values[outer.name], 0) + row.qty
        return [_group_counts(game, cid, outer, counts, unit)]
    inner = columns[1]
    nested: dict[Any, dict[Any, int]] = {}
    for row in rows:
        bucket = nested.setdefault(row.values[outer.name], {})
        key = row.values[inner.name]
        bucket[key] = bucket.get(key, 0) + row.qty
    # Outer values whose inner make-up is identical share one line.
    shapes: dict[tuple[str, int], list[Any]] = {}
    for value in _domain_order(game, cid, outer.name, nested):
        text = _group_counts(game, cid, inner, nested[value], unit)
        shapes.setdefault((text, sum(nested[value].values())), []).append(value)
    lines = []
    for (text, total), values in shapes.items():
        head = _counted(_join_values(game, cid, outer, values), total, unit,
                        each=len(values) > 1)
        lines.append(f"{head}：{text}")
    return lines


def _cell(text: str) -> str:
    """Text made safe for a table cell (a bar would split the cell)."""
    return text.replace("|", "\\|").replace("\n", "<br>")


def components_markdown(game: GameData, spec: Mapping[str, Sequence[BreakdownColumn]]) -> str:
    """The 内容物 section body: printed components, then what the players supply."""
    manifest = game.manifest
    printed: list[str] = []
    bought: list[str] = []
    card_total = 0
    for cid, component in manifest.components.items():
        total = component_total(game, cid)
        name = component.name_ja or component.name
        if component.provisional:
            name += "<br>（暫定）"
        detail = "<br>".join(breakdown(game, cid, spec.get(cid, ())))
        if not detail and component.kind == "die" and component.sides:
            detail = f"{component.sides}面"
        detail = detail or "—"
        count = f"{total}{unit_word(component)}"
        if component.supply == "buy":
            bought.append(f"| {_cell(name)} | {count} | {_cell(detail)} |")
        else:
            if component.kind == "card":
                card_total += total
            printed.append(f"| {_cell(name)} | {count} | {size_text(component)} | "
                           f"{_cell(detail)} |")
    parts: list[str] = []
    if printed:
        parts += ["| 内容物 | 数 | サイズ | 内訳 |", "|---|--:|---|---|", *printed, ""]
        if card_total:
            parts += [f"印刷するカードは合計{card_total}枚です。", ""]
    if bought:
        parts += ["**別途用意するもの**", "", "| 用意するもの | 数 | 内訳 |", "|---|--:|---|",
                  *bought, ""]
    return "\n".join(parts).rstrip("\n")


def _reward_text(text: str) -> str:
    """``1st:Y1W2;2nd:W2`` → ``1位 黄1白2、2位 白2`` (Fortune-card reward language)."""
    out = []
    for entry in filter(None, (e.strip() for e in text.split(";"))):
        place, _, chips = entry.partition(":")
        chips_ja = re.sub(r"([YW])(\d+)", lambda m: f"{_CHIPS[m.group(1)]}{m.group(2)}",
                          chips.strip())
        out.append(f"{_PLACES.get(place.strip(), place.strip())} {chips_ja}")
    return "、".join(out)


def _reward_lines(values: Mapping[str, Any], reward_cols: Sequence[str]) -> list[str]:
    """One line per run of player counts with the same reward: ``3・4人：1位 黄3、2位 白1``."""
    groups: list[tuple[list[int], str]] = []
    for col in reward_cols:
        if not values.get(col):
            continue
        players = int(col[len("reward_"):-1])
        text = _reward_text(str(values[col]))
        if groups and groups[-1][1] == text and groups[-1][0][-1] == players - 1:
            groups[-1][0].append(players)
        else:
            groups.append(([players], text))
    lines = []
    for counts, text in groups:
        if len(counts) == 1:
            who = f"{counts[0]}人"
        elif len(counts) == 2:
            who = f"{counts[0]}・{counts[1]}人"
        else:
            who = f"{counts[0]}〜{counts[-1]}人"
        lines.append(f"{who}：{text}")
    return lines


def cards_markdown(game: GameData, cid: str) -> str:
    """A table of one component's cards (name and text), flagged 暫定 when designed by us."""
    component = game.manifest.components[cid]
    columns = component.columns
    rows = game.rows.get(cid, [])
    lead = next((c for c in ("number", "season") if c in columns), "id")
    lead_head = {"number": "番号", "season": "シーズン", "id": "No."}[lead]
    reward_cols = sorted(c for c in columns if re.fullmatch(r"reward_\dp", c))
    heads = [lead_head] + (["名前"] if "name" in columns else []) + ["内容"]
    lines = ["| " + " | ".join(heads) + " |", "|" + "---|" * len(heads)]
    flags = [bool(row.values.get("provisional", component.provisional)) for row in rows]
    provisional = sum(row.qty for row, flag in zip(rows, flags) if flag)
    # Mark single rows only when some are provisional and some are not.
    mark_rows = any(flags) and not all(flags)
    for row, is_prov in zip(rows, flags):
        values = row.values
        text = str(values.get("text", ""))
        text += "".join(f"<br>{line}" for line in _reward_lines(values, reward_cols))
        cells = [_value_text(values[lead])]
        if "name" in columns:
            cells.append(str(values["name"]) + ("〔暫定〕" if is_prov and mark_rows else ""))
        cells.append(text)
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    note = []
    if provisional:
        name = component.name_ja or component.name
        note = [f"> **暫定**：この{name}{provisional}{unit_word(component)}はルールブックの"
                "草案に記載がなく、本プロジェクトが設計した仮の内容です。"
                "遊びながら調整する予定です。", ""]
    return "\n".join(note + lines)


def constant_text(value: Any) -> str:
    """A manifest constant as text: lists joined with ``・``."""
    if isinstance(value, list):
        return "・".join(_value_text(v) for v in value)
    return _value_text(value)


def list_table_markdown(values: Sequence[Any], head: Sequence[str], *, start: int = 0,
                        offset: int = 0, last: str = "") -> str:
    """A two-row table of a list constant: labels (index + offset) above values."""
    picked = list(enumerate(values))[start:]
    labels = [str(i + offset) for i, _ in picked]
    if labels and last:
        labels[-1] += last
    row_head = head[0] if head else ""
    val_head = head[1] if len(head) > 1 else ""
    lines = ["| " + " | ".join([row_head] + labels) + " |",
             "|---|" + "--:|" * len(labels),
             "| " + " | ".join([val_head] + [_value_text(v) for _, v in picked]) + " |"]
    return "\n".join(lines)


def dice_at_least(dice: int, sides: int, target: int) -> float:
    """Probability that ``dice`` fair dice with ``sides`` faces total at least ``target``."""
    hits = sum(1 for roll in product(range(1, sides + 1), repeat=dice) if sum(roll) >= target)
    return hits / sides ** dice


def attack_odds_markdown(game: GameData, enemy: str, *, dice: int, bonus: int) -> str:
    """第2話: chance that one attack roll (``dice``d6, +``bonus`` for ♠) beats each boss HP."""
    rows = game.rows.get(enemy, [])
    by_hp: dict[int, list[str]] = {}
    for row in rows:
        by_hp.setdefault(int(row.values["hp"]), []).append(str(row.values.get("rank", "")))
    lines = [f"| ボスのHP | ♣で攻撃（{dice}D6） | ♠で攻撃（{dice}D6+{bonus}） |",
             "|---|--:|--:|"]
    for hp in sorted(by_hp):
        ranks = "・".join(dict.fromkeys(by_hp[hp]))
        plain = dice_at_least(dice, 6, hp)
        spade = dice_at_least(dice, 6, hp - bonus)
        lines.append(f"| {hp}（{ranks}） | {plain:.1%} | {spade:.1%} |")
    return "\n".join(lines)
