"""Rulebook sections computed from a game's card data (manifest + tables).

Everything here reads :class:`pnp.data.GameData`, so editing a CSV or the
manifest changes the exported rulebook: component counts are summed from the
rows' ``qty``, breakdowns group the rows, card lists print the designed
cards' text. Output is Markdown of the rulebook subset
(:mod:`pnp.rulebook.markdown`), in the edition's language (:class:`Lang`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from pnp.data import GameData
from pnp.data.manifest import Component
from pnp.rulebook.lang import Lang, value_text
from pnp.units import to_mm

#: Names of the card sizes of :mod:`pnp.sizes`, per edition.
SIZE_NAMES: dict[str, dict[str, str]] = {
    "ja": {"poker": "ポーカー", "poker_us": "ポーカー", "bridge": "ブリッジ", "tarot": "タロット",
           "mini_euro": "ミニユーロ", "euro": "ユーロ", "square": "スクエア"},
    "en": {"poker": "poker", "poker_us": "poker", "bridge": "bridge", "tarot": "tarot",
           "mini_euro": "mini euro", "euro": "euro", "square": "square"},
}

#: Minimum run length written as a range ("1〜6") instead of a list ("1・2・3").
RUN_MIN = 4


@dataclass(frozen=True)
class BreakdownColumn:
    """A column used to break a component down, with an optional label template."""

    name: str
    template: str = "{}"

    def label(self, value: Any, lang: Lang) -> str:
        """The value as printed, e.g. ``シーズン1`` for template ``シーズン{}``."""
        return self.template.replace("{}", lang.term(value))


def component_name(component: Component, lang: Lang) -> str:
    """The component's name in the edition's language (manifest ``name_ja`` / ``name``)."""
    return (component.name_ja or component.name) if lang.ja else component.name


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


def size_text(component: Component, lang: Lang) -> str:
    """Physical size for the component table, e.g. ``63×88mm（ポーカー）`` or ``直径20mm``."""
    if component.kind == "die":
        if not component.sides:
            return "—"
        return lang.t(f"{component.sides}面", f"{component.sides}-sided")
    if component.diameter is not None:
        return lang.t(f"直径{_mm(component.diameter)}mm", f"Ø {_mm(component.diameter)} mm")
    if component.size is not None:
        width, height = component.size
        text = lang.t(f"{_mm(width)}×{_mm(height)}mm", f"{_mm(width)} × {_mm(height)} mm")
        named = SIZE_NAMES[lang.code].get((component.size_text or "").strip().lower())
        if named:
            return text + lang.t(f"<br>（{named}）", f"<br>({named})")
        return text
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


def _join_values(game: GameData, cid: str, col: BreakdownColumn, values: Sequence[Any],
                 lang: Lang) -> str:
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
            parts.append(f"{col.label(run[0], lang)}{lang.range_sep}{col.label(run[-1], lang)}")
        else:
            parts.extend(col.label(v, lang) for v in run)
        run.clear()

    for value in values:
        if run and (value not in index or run[-1] not in index
                    or index[value] != index[run[-1]] + 1):
            flush()
        run.append(value)
    flush()
    return lang.list_sep.join(parts)


def _counted(label: str, count: int, kind: str, lang: Lang, *, each: bool) -> str:
    """``label N枚`` / ``label 各N枚`` (Japanese) or ``label ×N`` / ``label ×N each``."""
    if not lang.ja:
        return f"{label} ×{count}" + (" each" if each else "")
    return _counted_ja(label, count, kind, lang, each=each)


def _counted_ja(label: str, count: int, kind: str, lang: Lang, *, each: bool) -> str:
    """``label N枚`` / ``label 各N枚``; a space only after a non-Japanese character."""
    unit = lang.unit(kind, count)
    if each:
        return f"{label} 各{unit}"
    sep = "" if label and ord(label[-1]) >= 0x3040 else " "
    return f"{label}{sep}{unit}"


def _group_counts(game: GameData, cid: str, col: BreakdownColumn,
                  counts: Mapping[Any, int], lang: Lang) -> str:
    """``稲妻・小麦 各3枚 + 女神1枚``: values with equal counts merged, in domain order."""
    kind = game.manifest.components[cid].kind
    by_count: dict[int, list[Any]] = {}
    for value in _domain_order(game, cid, col.name, counts):
        if counts[value]:
            by_count.setdefault(counts[value], []).append(value)
    parts = [_counted(_join_values(game, cid, col, values, lang), count, kind, lang,
                      each=len(values) > 1)
             for count, values in by_count.items()]
    return " + ".join(parts)


def breakdown(game: GameData, cid: str, columns: Sequence[BreakdownColumn],
              lang: Lang) -> list[str]:
    """Lines describing a component's rows grouped by one or two columns.

    One column: ``黄チップ10個 + 白チップ20個``. Two columns: one line per
    group of outer values with the same inner make-up, e.g.
    ``1〜6 各13枚：稲妻・小麦・兜・車輪 各3枚 + 女神1枚``.
    """
    component = game.manifest.components[cid]
    rows = [row for row in game.rows.get(cid, []) if row.qty]
    if not rows or not columns:
        return []
    outer = columns[0]
    if len(columns) == 1:
        counts: dict[Any, int] = {}
        for row in rows:
            counts[row.values[outer.name]] = counts.get(row.values[outer.name], 0) + row.qty
        return [_group_counts(game, cid, outer, counts, lang)]
    inner = columns[1]
    nested: dict[Any, dict[Any, int]] = {}
    for row in rows:
        bucket = nested.setdefault(row.values[outer.name], {})
        key = row.values[inner.name]
        bucket[key] = bucket.get(key, 0) + row.qty
    # Outer values whose inner make-up is identical share one line.
    shapes: dict[tuple[str, int], list[Any]] = {}
    for value in _domain_order(game, cid, outer.name, nested):
        text = _group_counts(game, cid, inner, nested[value], lang)
        shapes.setdefault((text, sum(nested[value].values())), []).append(value)
    lines = []
    for (text, total), values in shapes.items():
        label = _join_values(game, cid, outer, values, lang)
        if lang.ja:
            head = _counted_ja(label, total, component.kind, lang, each=len(values) > 1)
        else:
            head = f"{label} ({total}" + (" each)" if len(values) > 1 else ")")
        lines.append(f"{head}{lang.colon}{text}")
    return lines


def cell(text: str) -> str:
    """Text made safe for a table cell (a bar would split the cell)."""
    return text.replace("|", "\\|").replace("\n", "<br>")


def _row_detail(game: GameData, component: Component, total: int,
                spec: Mapping[str, Sequence[BreakdownColumn]], lang: Lang) -> str:
    """The component table's contents cell: a breakdown, a die's sides or who gets one."""
    detail = "<br>".join(breakdown(game, component.id, spec.get(component.id, ()), lang))
    if not detail and component.kind == "die" and component.sides:
        detail = size_text(component, lang)
    if not detail and component.kind == "card" and total == game.manifest.players[1]:
        # Player aids and summary cards: say who gets one (and that it has two faces).
        detail = lang.t("1人1枚", "one per player")
        if component.two_sided:
            detail += lang.t("（両面）", ", two-sided")
    return detail or "—"


def _kit_total(game: GameData, components: Sequence[Component]) -> int:
    """Cards among ``components`` (a printed standard deck counts as cards)."""
    return sum(component_total(game, c.id) for c in components
               if c.kind in ("card", "deck"))


def _names(components: Sequence[Component], lang: Lang) -> str:
    """``A・B`` / ``A and B`` (lower case in English, inside a sentence)."""
    names = [component_name(c, lang) for c in components]
    if lang.ja:
        return "・".join(names)
    names = [n[0].lower() + n[1:] if n[:2] != n[:2].upper() else n for n in names]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _own_copy_note(game: GameData, kit: Sequence[Component], lean: Sequence[Component],
                   stickers: Sequence[Component], lang: Lang) -> str:
    """What ``pnp build --no-bought`` leaves out, what it then prints, and its stickers."""
    from pnp.builder.cards import component_rows

    own = [c for c in kit if c.supply == "buy"]
    if not own:
        return ""
    cards = sum(component_total(game, c.id) for c in own)
    lean_total = _kit_total(game, lean)
    names = _names(own, lang)
    sticker_count = sum(row.qty for c in stickers for row in component_rows(game, c))
    size = size_text(stickers[0], lang) if stickers else ""
    if lang.ja:
        text = (f"{names}（{lang.unit('card', cards)}）は手持ちのものを使ってもかまいません。"
                f"そのときは **pnp build --no-bought** で印刷すれば{names}が除かれ、"
                f"印刷するカードは{lean_total}枚になります。")
        if stickers:
            text += (f"その代わり、手持ちのカードの表に貼るシール{sticker_count}枚（{size}）が"
                     "別のファイルに出ます。ラベル用紙に片面で印刷して貼れば、印刷したカードと"
                     "同じことが読めます。")
        return text
    text = (f"You may use your own {names} ({cards} cards) instead: "
            f"**pnp build --no-bought** leaves {'it' if len(own) == 1 else 'them'} out, "
            f"and then {lean_total} cards are left to print")
    if stickers:
        text += (f", plus a file of {sticker_count} stickers ({size}; print it one-sided on "
                 "label paper): stuck on the faces of your own cards, they show what the "
                 "printed cards show")
    return text + "."


def components_markdown(game: GameData, spec: Mapping[str, Sequence[BreakdownColumn]],
                        lang: Lang, *, designer: bool = False,
                        templates_dir: Path | None = None) -> str:
    """The components section body: what the default build prints, then what to supply.

    The printed table is exactly the kit ``pnp build`` prints by default
    (:func:`pnp.builder.cards.kit_components`: the manifest's components with a
    face, bought decks included, and the player aids the templates add), so
    the list and its total cannot disagree with the build. A sentence says
    what ``--no-bought`` leaves out (the ``supply = "buy"`` components the
    default prints) and the stickers it prints instead. The second table is
    what no build prints (``supply = "buy"`` without a face: dice). A
    ``supply = "print"`` component without a face is listed with the printed
    ones (players make it; the build says it has no template).

    ``designer`` marks components we designed ourselves as provisional (the
    designer's edition); players are not shown such working notes.
    """
    # Imported here: the builder's light half, only when a book lists components.
    from pnp.builder.cards import is_sticker, kit_components

    manifest = game.manifest
    kit = kit_components(game, templates_dir, bought=True)
    lean = kit_components(game, templates_dir, bought=False)
    stickers = [c for c in lean if is_sticker(c)]
    kit_ids = {c.id for c in kit}
    # Manifest order, with the components only the templates add (aids) after them.
    listed = [c for c in manifest.components.values()
              if c.id in kit_ids or (c.face is None and c.supply == "print")]
    listed += [c for c in kit if c.id not in manifest.components]
    printed: list[str] = []
    bought: list[str] = []
    for component in listed:
        total = component_total(game, component.id)
        name = component_name(component, lang)
        if component.supply == "buy":
            name += lang.t("<br>（手持ちのものでも可）", "<br>(or your own)")
        if component.provisional and designer:
            name += lang.t("<br>（暫定）", "<br>(provisional)")
        printed.append(f"| {cell(name)} | {lang.unit(component.kind, total)} | "
                       f"{size_text(component, lang)} | "
                       f"{cell(_row_detail(game, component, total, spec, lang))} |")
    for component in manifest.components.values():
        if component.supply == "buy" and component.id not in kit_ids:
            total = component_total(game, component.id)
            bought.append(f"| {cell(component_name(component, lang))} | "
                          f"{lang.unit(component.kind, total)} | "
                          f"{cell(_row_detail(game, component, total, spec, lang))} |")
    parts: list[str] = []
    if printed:
        parts += [lang.t("| 内容物 | 数 | サイズ | 内訳 |", "| Component | Qty | Size | Contents |"),
                  "|---|--:|---|---|", *printed, ""]
        card_total = _kit_total(game, kit)
        total_line = lang.t(f"印刷するカードは合計{card_total}枚です。",
                            f"In all, {card_total} cards to print.") if card_total else ""
        note = _own_copy_note(game, kit, lean, stickers, lang)
        sentence = (" " if not lang.ja and total_line and note else "").join(
            t for t in (total_line, note) if t)
        if sentence:
            parts += [sentence, ""]
    if bought:
        parts += [lang.t("**別途用意するもの**", "**You also need**"), "",
                  lang.t("| 用意するもの | 数 | 内訳 |", "| Item | Qty | Contents |"),
                  "|---|--:|---|", *bought, ""]
    return "\n".join(parts).rstrip("\n")


def row_name(values: Mapping[str, Any], lang: Lang) -> str:
    """A card row's name in the edition's language (``name_en`` for English, when present)."""
    if not lang.ja and values.get("name_en"):
        return str(values["name_en"])
    return lang.term(values.get("name", values.get("id", "")))


def row_text(values: Mapping[str, Any], lang: Lang) -> str:
    """A card row's rules text in the edition's language (``text_en`` for English)."""
    if not lang.ja and values.get("text_en"):
        return str(values["text_en"])
    return lang.term(values.get("text", ""))


def cards_markdown(game: GameData, cid: str, lang: Lang, *, designer: bool = False) -> str:
    """A table of one component's cards (number/season/id, name, text).

    In the designer's edition, cards we designed are marked provisional.
    """
    component = game.manifest.components[cid]
    columns = component.columns
    rows = game.rows.get(cid, [])
    lead = next((c for c in ("number", "season") if c in columns), "id")
    lead_head = {"number": lang.t("番号", "No."), "season": lang.t("シーズン", "Season"),
                 "id": "ID"}[lead]
    heads = ([lead_head] + ([lang.t("名前", "Name")] if "name" in columns else [])
             + [lang.t("内容", "Text")])
    lines = ["| " + " | ".join(heads) + " |", "|" + "---|" * len(heads)]
    flags = [bool(row.values.get("provisional", component.provisional)) for row in rows]
    provisional = sum(row.qty for row, flag in zip(rows, flags) if flag)
    mark_rows = designer and any(flags) and not all(flags)
    for row, is_prov in zip(rows, flags):
        values = row.values
        cells = [value_text(values[lead], lang)]
        if "name" in columns:
            mark = lang.t("〔暫定〕", " (provisional)") if is_prov and mark_rows else ""
            cells.append(row_name(values, lang) + mark)
        cells.append(row_text(values, lang))
        lines.append("| " + " | ".join(cell(c) for c in cells) + " |")
    note: list[str] = []
    if provisional and designer:
        name = component_name(component, lang)
        note = [lang.t(
            f"> **暫定**：この{name}{lang.unit(component.kind, provisional)}はルールブックの"
            "草案に記載がなく、本プロジェクトが設計した仮の内容です。",
            f"> **Provisional**: the draft rulebook does not list these {provisional} "
            f"{name.lower()}; this project designed them, to be tuned in play."), ""]
    return "\n".join(note + lines)


def constant_text(value: Any, lang: Lang) -> str:
    """A manifest constant as text: lists joined with ``・`` or ``, ``."""
    if isinstance(value, list):
        return lang.list_sep.join(value_text(v, lang) for v in value)
    return value_text(value, lang)


def list_table_markdown(values: Sequence[Any], head: Sequence[str], lang: Lang, *,
                        start: int = 0, offset: int = 0, last: str = "") -> str:
    """A two-row table of a list constant: labels (index + offset) above values."""
    picked = list(enumerate(values))[start:]
    labels = [str(i + offset) for i, _ in picked]
    if labels and last:
        labels[-1] += last
    row_head = head[0] if head else ""
    val_head = head[1] if len(head) > 1 else ""
    lines = ["| " + " | ".join([row_head] + labels) + " |",
             "|---|" + "--:|" * len(labels),
             "| " + " | ".join([val_head] + [value_text(v, lang) for _, v in picked]) + " |"]
    return "\n".join(lines)
