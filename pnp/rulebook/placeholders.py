"""``{{ … }}`` placeholders in rulebook sources, filled from the game's data.

A placeholder is a name followed by words and ``key=value`` options:

=====================================  ======  ==========================================
placeholder                            where   result
=====================================  ======  ==========================================
``{{ title }}``, ``{{ title_ja }}``,   inline  manifest ``[game]`` fields
``{{ draft }}``
``{{ players }}``                      inline  ``3〜4人`` (or ``1人``)
``{{ count COMPONENT }}``              inline  copies of a component (sum of ``qty``)
``{{ const NAME }}``                   inline  ``[game.constants]`` value; lists joined
                                               with ・; ``（暫定）`` appended when
                                               ``NAME_status = "provisional"``
``{{ components [C=COL[:FMT],…] }}``   block   component tables; ``C=COL`` breaks
                                               component C down by one or two
                                               columns (``FMT`` labels values,
                                               e.g. ``season:シーズン{}``)
``{{ cards COMPONENT }}``              block   the component's cards (name, text),
                                               marked 暫定 when designed by us
``{{ list_table NAME head=A,B          block   a list constant as a two-row table
[start=N] [offset=N] [last=S] }}``
``{{ attack_odds COMPONENT }}``        block   第2話: chance an attack beats each boss HP
``{{ sweep FILE.json key=LABEL         block   a saved ``pnp simulate --sweep --json``
cols=NAME:LABEL,… }}``                         table from the game's data folder: one row
                                               per value, the named figures as columns
=====================================  ======  ==========================================

Block placeholders must stand alone on their line. Any fault (unknown name,
unknown component or column, missing constant) is a :class:`PnpError` naming
the rulebook file and line.
"""

from __future__ import annotations

import re
from pathlib import Path
from pnp.data import GameData
from pnp.errors import PnpError
from pnp.rulebook import generate
from pnp.rulebook.generate import BreakdownColumn
from pnp.rulebook.markdown import Line

_PLACEHOLDER = re.compile(r"\{\{(.*?)\}\}")

INLINE = ("title", "title_ja", "draft", "players", "count", "const")
BLOCK = ("components", "cards", "list_table", "attack_odds", "sweep")
KNOWN = INLINE + BLOCK


class _Context:
    """What a placeholder needs: the game's data and where it sits (for errors)."""

    def __init__(self, game: GameData, path: Path | None, line: int) -> None:
        self.game = game
        self.path = path
        self.line = line

    def fail(self, message: str) -> PnpError:
        return PnpError(message, path=self.path, line=self.line)

    def component(self, cid: str) -> str:
        components = self.game.manifest.components
        if cid not in components:
            raise self.fail(f"unknown component {cid!r} in placeholder (known: "
                            f"{', '.join(components)})")
        return cid

    def constant(self, name: str) -> object:
        constants = self.game.manifest.constants
        if name not in constants:
            known = ", ".join(constants) or "none"
            raise self.fail(f"unknown constant {name!r}: expected a key of [game.constants] "
                            f"in the manifest (known: {known})")
        return constants[name]


def _split(body: str) -> tuple[str, list[str], dict[str, str]]:
    """``name a b k=v`` → (name, [a, b], {k: v})."""
    words = body.split()
    args = [w for w in words[1:] if "=" not in w]
    options = dict(w.split("=", 1) for w in words[1:] if "=" in w)
    return words[0], args, options


def _int_option(ctx: _Context, options: dict[str, str], key: str, default: int) -> int:
    value = options.get(key)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        raise ctx.fail(f"option {key}={value!r}: expected a whole number") from None


def _inline(ctx: _Context, name: str, args: list[str], options: dict[str, str]) -> str:
    manifest = ctx.game.manifest
    if name in ("title", "title_ja", "draft"):
        return str(getattr(manifest, name))
    if name == "players":
        low, high = manifest.players
        return f"{low}人" if low == high else f"{low}〜{high}人"
    if not args:
        raise ctx.fail(f"placeholder {name!r} needs an argument, e.g. "
                       f"{{{{ {name} {'reel' if name == 'count' else 'starting_hp'} }}}}")
    if name == "count":
        return str(generate.component_total(ctx.game, ctx.component(args[0])))
    value = ctx.constant(args[0])
    text = generate.constant_text(value)
    status = manifest.constants.get(f"{args[0]}_status")
    return text + ("（暫定）" if status == "provisional" else "")


def _components(ctx: _Context, args: list[str], options: dict[str, str]) -> str:
    if args:
        raise ctx.fail(f"components: unexpected word {args[0]!r}: expected "
                       "COMPONENT=COLUMN[,COLUMN] options")
    spec: dict[str, list[BreakdownColumn]] = {}
    for cid, cols in options.items():
        component = ctx.game.manifest.components.get(ctx.component(cid))
        assert component is not None
        parsed = []
        for item in cols.split(","):
            column, _, template = item.partition(":")
            if column not in component.columns:
                raise ctx.fail(f"components: {cid} has no column {column!r} (columns: "
                               f"{', '.join(component.columns) or 'none, it has no table'})")
            parsed.append(BreakdownColumn(column, template or "{}"))
        if len(parsed) > 2:
            raise ctx.fail(f"components: {cid} breaks down by at most 2 columns, "
                           f"found {len(parsed)}")
        spec[cid] = parsed
    return generate.components_markdown(ctx.game, spec)


def _block(ctx: _Context, name: str, args: list[str], options: dict[str, str]) -> str:
    if name == "components":
        return _components(ctx, args, options)
    if not args:
        raise ctx.fail(f"placeholder {name!r} needs an argument")
    if name == "cards":
        cid = ctx.component(args[0])
        if ctx.game.manifest.components[cid].table is None:
            raise ctx.fail(f"cards: component {cid!r} has no table")
        return generate.cards_markdown(ctx.game, cid)
    if name == "attack_odds":
        cid = ctx.component(args[0])
        dice = ctx.constant("attack_dice")
        bonus = ctx.constant("spade_bonus")
        if not isinstance(dice, int) or not isinstance(bonus, int) or not 1 <= dice <= 6:
            raise ctx.fail("attack_odds: constants attack_dice (1–6) and spade_bonus must be "
                           "whole numbers")
        if "hp" not in ctx.game.manifest.components[cid].columns:
            raise ctx.fail(f"attack_odds: component {cid!r} has no 'hp' column")
        return generate.attack_odds_markdown(ctx.game, cid, dice=dice, bonus=bonus)
    if name == "sweep":
        return _sweep(ctx, args[0], options)
    # list_table
    value = ctx.constant(args[0])
    if not isinstance(value, list):
        raise ctx.fail(f"list_table: constant {args[0]!r} is not a list")
    head = options.get("head", "").split(",") if options.get("head") else []
    return generate.list_table_markdown(
        value, head, start=_int_option(ctx, options, "start", 0),
        offset=_int_option(ctx, options, "offset", 0), last=options.get("last", ""))


def _sweep(ctx: _Context, file: str, options: dict[str, str]) -> str:
    """The ``sweep`` placeholder: a saved sweep's rows as a table."""
    import json
    path = ctx.game.manifest.game_dir / file
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        rows = doc["rows"]
        swept = doc["swept"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ctx.fail(f"sweep: cannot read {path} as a saved sweep "
                       f"(pnp simulate --sweep … --json): {exc}") from None
    cols = [c.partition(":") for c in options.get("cols", "").split(",") if c]
    if not cols:
        raise ctx.fail("sweep: expected cols=NAME:LABEL,… naming the figures to show")
    labels = [label or name for name, _, label in cols]
    lines = ["| " + " | ".join([options.get("key", ", ".join(swept))] + labels) + " |",
             "|---|" + "--:|" * len(cols)]
    for row in rows:
        figures = {f["name"]: f for f in row["figures"]}
        cells = []
        for name, _, _label in cols:
            if name not in figures:
                raise ctx.fail(f"sweep: {file} has no figure {name!r} (has: "
                               f"{', '.join(figures)})")
            value = figures[name]["value"]
            cells.append(f"{value:.2f}" if name.startswith("mean") else f"{100 * value:.1f}%")
        key = "・".join(str(row["values"][k]) for k in swept)
        lines.append("| " + " | ".join([key] + cells) + " |")
    return "\n".join(lines)


def expand(lines: list[Line], game: GameData, path: Path | None) -> list[Line]:
    """Replace every placeholder in ``lines``; generated lines keep their source line."""
    out: list[Line] = []
    for number, text in lines:
        if "{{" not in text and "}}" not in text:
            out.append((number, text))
            continue
        if text.count("{{") != text.count("}}"):
            raise PnpError("unbalanced placeholder braces: expected {{ name … }}",
                           path=path, line=number)
        matches = list(_PLACEHOLDER.finditer(text))
        ctx = _Context(game, path, number)
        pieces: list[str] = []
        block_result: str | None = None
        last = 0
        for match in matches:
            body = match.group(1).strip()
            if not body:
                raise ctx.fail("empty placeholder {{ }}")
            name, args, options = _split(body)
            if name not in KNOWN:
                raise ctx.fail(f"unknown placeholder {{{{ {name} }}}} (known: "
                               f"{', '.join(KNOWN)})")
            if name in BLOCK:
                if text.strip() != match.group(0):
                    raise ctx.fail(f"placeholder {{{{ {name} }}}} makes a block: put it on a "
                                   "line of its own")
                block_result = _block(ctx, name, args, options)
                break
            pieces.append(text[last:match.start()])
            pieces.append(_inline(ctx, name, args, options))
            last = match.end()
        if block_result is not None:
            out.append((number, ""))
            out.extend((number, generated) for generated in block_result.split("\n"))
            out.append((number, ""))
        else:
            pieces.append(text[last:])
            out.append((number, "".join(pieces)))
    return out
