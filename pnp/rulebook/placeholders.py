"""``{{ … }}`` placeholders in rulebook sources, filled from the game's data.

A placeholder is a name followed by words and ``key=value`` options (a value
with spaces is quoted: ``head="Set size,Base points"``):

=====================================  ======  ==========================================
placeholder                            where   result
=====================================  ======  ==========================================
``{{ title }}``, ``{{ title_ja }}``,   inline  manifest ``[game]`` fields
``{{ draft }}``
``{{ players }}``                      inline  ``3〜4人`` / ``3–4 players``
``{{ count COMPONENT }}``              inline  copies of a component (sum of ``qty``)
``{{ const NAME }}``                   inline  ``[game.constants]`` value; lists joined
                                               with ・ or commas
``{{ param NAME }}``                   inline  the rules engine's default for a parameter
                                               the data does not set (e.g. hand size)
``{{ components [C=COL[:FMT],…] }}``   block   component tables: what the default
                                               ``pnp build`` prints (its card total,
                                               what ``--no-bought`` leaves out), then
                                               what no build prints; ``C=COL`` breaks
                                               component C down by one or two columns
``{{ gallery C[=ID,ID…] … }}``         block   a picture of card faces rendered from
                                               the templates: the listed cards, or
                                               every distinct card of C; ``others``
                                               adds every other component with a
                                               face that no earlier gallery of
                                               the book showed, ``cover`` drops
                                               labels and caption (title page)
``{{ cards COMPONENT }}``              block   the component's cards (name, text)
``{{ list_table NAME head=A,B          block   a list constant as a two-row table
[start=N] [offset=N] [last=S] }}``
``{{ sweep FILE.json key=LABEL         block   a saved ``pnp simulate --sweep --json``
cols=NAME:LABEL,… }}``                         table from the game's data folder
``{{ example NAME }}``,                block   content the game registers in
``{{ figure NAME }}``,                         ``pnp/games/<slug>/examples.py``
``{{ table NAME }}``                           (:mod:`pnp.games.book_hooks`)
=====================================  ======  ==========================================

Block placeholders must stand alone on their line. Any fault (unknown name,
unknown component or column, missing constant, missing English) is a
:class:`PnpError` naming the rulebook file and line.
"""

from __future__ import annotations

import json
import math
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.data import GameData
from pnp.errors import PnpError
from pnp.rulebook import generate
from pnp.rulebook.context import BookContext, CardArt, PictureStore, build_engine
from pnp.rulebook.generate import BreakdownColumn
from pnp.games.book_hooks import KINDS, rulebook_hooks
from pnp.rulebook.lang import Lang
from pnp.rulebook.markdown import Line
from pnp.rulebook.pictures import MAX_WIDTH, MIN_LABEL, card_width, text_width

_PLACEHOLDER = re.compile(r"\{\{(.*?)\}\}")

INLINE = ("title", "title_ja", "draft", "players", "count", "const", "param")
BLOCK = ("components", "gallery", "cards", "list_table", "sweep") + KINDS
KNOWN = INLINE + BLOCK

#: Cards in one gallery line before it wraps, and the most a bare component may show.
GALLERY_PER_ROW = 5
GALLERY_MAX = 12
#: The largest gallery ``scale``: a card wider than this would not fit a page column.
GALLERY_MAX_SCALE = 1.0
#: Type size of a gallery picture's name (the scene's default label size).
LABEL_SIZE = max(7.0, MIN_LABEL)


@dataclass
class Book:
    """Everything the placeholders of one book share: data, edition, pictures, engines."""

    game: GameData
    lang: Lang
    art: CardArt
    designer: bool = False
    pictures: PictureStore = field(default_factory=PictureStore)
    engines: dict[str, Any] = field(default_factory=dict)
    #: Components an earlier gallery (not the cover's) pictured: ``others``
    #: leaves them out, so a long gallery can be split in two.
    galleried: set[str] = field(default_factory=set)


class _Context:
    """What a placeholder needs: the book and where it sits (for errors)."""

    def __init__(self, book: Book, path: Path | None, line: int) -> None:
        self.book = book
        self.game = book.game
        self.lang = book.lang
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


def _split(ctx: _Context, body: str) -> tuple[str, list[str], dict[str, str]]:
    """``name a b k=v k="v w"`` → (name, [a, b], {k: v})."""
    try:
        words = shlex.split(body)
    except ValueError as exc:
        raise ctx.fail(f"cannot read placeholder {{{{ {body} }}}}: {exc}") from None
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


def _param(ctx: _Context, name: str) -> str:
    """The engine's value of parameter ``name`` for this data (its rulebook default)."""
    from pnp.games import game_entry

    try:
        entry = game_entry(ctx.game.slug)
    except PnpError as exc:   # a designer's own game: no engine, so no parameters
        raise ctx.fail(f"{{{{ param {name} }}}}: {exc.message}; write the value itself, or "
                       "put it in [game.constants] and use {{ const NAME }}") from None
    names = [p.name for p in entry.game.param_specs]
    if name not in names:
        raise ctx.fail(f"unknown parameter {name!r} of the {ctx.game.slug} engine (known: "
                       f"{', '.join(names) or 'none'})")
    key = repr([])            # the engine without parameters, shared with the builders
    if key not in ctx.book.engines:
        ctx.book.engines[key] = build_engine(ctx.game)
    return generate.constant_text(ctx.book.engines[key].params[name], ctx.lang)


def _inline(ctx: _Context, name: str, args: list[str], options: dict[str, str]) -> str:
    manifest = ctx.game.manifest
    if name in ("title", "title_ja", "draft"):
        value = str(getattr(manifest, name))
        # The draft number is written in Japanese in the data ("草案2").
        return value if ctx.lang.ja or name != "draft" else value.replace("草案", "Draft ")
    if name == "players":
        low, high = manifest.players
        return ctx.lang.players(low, high)
    if not args:
        raise ctx.fail(f"placeholder {name!r} needs an argument, e.g. "
                       f"{{{{ {name} {'reel' if name == 'count' else 'starting_hp'} }}}}")
    if name == "count":
        return str(generate.component_total(ctx.game, ctx.component(args[0])))
    if name == "param":
        return _param(ctx, args[0])
    text = generate.constant_text(ctx.constant(args[0]), ctx.lang)
    status = manifest.constants.get(f"{args[0]}_status")
    if status == "provisional" and ctx.book.designer:
        text += ctx.lang.t("（暫定）", " (provisional)")
    return text


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
    try:
        # The list is what the default build prints, which the templates folder decides
        # too (player aids and stickers found there).
        return generate.components_markdown(ctx.game, spec, ctx.lang,
                                            designer=ctx.book.designer,
                                            templates_dir=ctx.book.art.templates_dir)
    except PnpError as exc:
        raise ctx.fail(f"components: {exc.message}") from None


def _gallery(ctx: _Context, args: list[str], options: dict[str, str]) -> str:
    """Card faces of the named components, true to relative size, with a caption."""
    picks: list[tuple[str, list[str]]] = []
    cover = "cover" in args          # the title page: no labels, no caption
    for cid in args:
        if cid not in ("others", "cover"):
            picks.append((ctx.component(cid), []))
    for cid, listed in options.items():
        if cid == "scale":
            continue
        picks.append((ctx.component(cid), [i for i in listed.split(",") if i]))
    if "others" in args:
        # Every other component with a face template, by its first card: a
        # component added to the data shows up without editing the text.
        named = {cid for cid, _ in picks} | ctx.book.galleried
        for cid, component in ctx.game.manifest.components.items():
            if cid not in named and component.face:
                present = [r.id for r in ctx.game.rows.get(cid, []) if r.qty]
                picks.append((cid, present[:1] if component.table else []))
    if not picks and "others" in args:
        raise ctx.fail("gallery: 'others' found no component that an earlier gallery did not "
                       "show: drop this gallery or name a component, e.g. {{ gallery reel=ID }}")
    if not picks:
        raise ctx.fail("gallery: name at least one component, e.g. {{ gallery reel=ID,ID }}")
    try:
        scale = float(options.get("scale", "0.3"))
    except ValueError:
        scale = math.nan
    if not 0 < scale <= GALLERY_MAX_SCALE:   # nan too: it ended in a traceback
        raise ctx.fail(f"gallery: scale={options['scale']!r}: expected a number above 0 and "
                       f"at most {GALLERY_MAX_SCALE:g} (0.3: the default)")
    scene = BookContext(ctx.game, ctx.lang, ctx.book.pictures, ctx.book.art,
                        name="gallery").scene()
    x = y = 0.0
    row_height = 0.0
    in_row = 0
    names: list[str] = []
    lang = ctx.lang
    for cid, ids in picks:
        component = ctx.game.manifest.components[cid]
        if not component.face:
            raise ctx.fail(f"gallery: {cid} has no face template to picture")
        rows = [r for r in ctx.game.rows.get(cid, []) if r.qty] if component.table else []
        wanted = ids or ([r.id for r in rows] if component.table else [cid])
        if len(wanted) > GALLERY_MAX:
            raise ctx.fail(f"gallery: {cid} has {len(wanted)} distinct cards: list at most "
                           f"{GALLERY_MAX} representatives as {cid}=ID,ID,…")
        name = generate.component_name(component, lang)
        names.append(name)
        faces = []
        for row_id in wanted:
            try:
                layout = ctx.book.art.face(cid, row_id)
            except PnpError as exc:
                raise ctx.fail(f"gallery: {exc.message}") from None
            faces.append((layout, layout.width / card_width(1.0) * card_width(scale)))
        if not faces:
            continue
        natural = sum(width for _, width in faces) + 6 * (len(faces) - 1)
        group = natural
        if not cover:
            # Small pieces (10 mm markers, a pair of chips) get a group as wide
            # as their name, up to 1.25 cards wide, so the name reads across
            # instead of wrapping a few characters a line; they sit in its middle.
            group = max(natural, min(text_width(name, scene.font, LABEL_SIZE),
                                     1.25 * card_width(scale)))
        fits_a_row = group <= MAX_WIDTH - 8 and len(faces) <= GALLERY_PER_ROW
        if in_row and fits_a_row and (in_row + len(faces) > GALLERY_PER_ROW
                                      or x + group > MAX_WIDTH - 8):
            # The whole component moves to the next row: its name then labels
            # all of its pieces (a pair of chips was split over two rows).
            x, y, in_row = 0.0, y - row_height - 2 * MIN_LABEL - 16, 0
            row_height = 0.0
        group_x, first_y = x, y
        x += (group - natural) / 2
        first_left, first_right, first_h = x, x, 0.0     # the pieces on the first row
        for layout, width in faces:
            if in_row == GALLERY_PER_ROW or (in_row and x + width > MAX_WIDTH - 8):
                x, y, in_row = 0.0, y - row_height - 2 * MIN_LABEL - 16, 0
                row_height = 0.0
            w, h = scene.card(layout, x, y - layout.height * width / layout.width, width)
            if y == first_y:
                first_right, first_h = x + w, max(first_h, h)
            row_height = max(row_height, h)
            x += w + 6
            in_row += 1
        x += (group - natural) / 2
        if not cover:
            left, right = (group_x, group_x + group) if fits_a_row else (first_left, first_right)
            scene.label(name, (left + right) / 2, first_y - first_h - MIN_LABEL - 3,
                        anchor="middle", max_width=right - left, size=LABEL_SIZE)
    if not cover:
        ctx.book.galleried.update(cid for cid, _ in picks)
    ref = ctx.book.pictures.add("gallery-" + "-".join(cid for cid, _ in picks), scene)
    caption = "" if cover else lang.t("カード見本：" + "・".join(names),
                                      "Sample cards: " + ", ".join(names))
    return f"![{caption}](pic:{ref})"


def _hook(ctx: _Context, kind: str, args: list[str], options: dict[str, str]) -> str:
    """Content a game registered (:mod:`pnp.games.book_hooks`)."""
    name = args[0]
    builders = rulebook_hooks(ctx.game.slug).of(kind)
    if name not in builders:
        known = ", ".join(sorted(builders)) or "none"
        raise ctx.fail(f"unknown {kind} {name!r} for {ctx.game.slug} (registered in "
                       f"pnp/games/{ctx.game.slug}/examples.py: {known})")
    book = BookContext(ctx.game, ctx.lang, ctx.book.pictures, ctx.book.art,
                       name=f"{kind}-{name}", designer=ctx.book.designer, path=ctx.path,
                       line=ctx.line, args=args[1:], options=options,
                       engines=ctx.book.engines)
    try:
        builders[name](book)
    except PnpError as exc:
        if exc.path is not None:
            raise                     # already names its line (book.fail)
        raise book.fail(exc.message) from None
    except Exception as exc:  # noqa: BLE001 - a builder's bug, said as one located line
        raise book.fail(f"the builder failed ({type(exc).__name__}: {exc}); this is a bug in "
                        f"pnp/games/{ctx.game.slug}/examples.py, please report it with "
                        "this line") from exc
    return book.markdown()


def _block(ctx: _Context, name: str, args: list[str], options: dict[str, str]) -> str:
    if name == "components":
        return _components(ctx, args, options)
    if name == "gallery":
        return _gallery(ctx, args, options)
    if not args:
        raise ctx.fail(f"placeholder {name!r} needs an argument")
    if name in KINDS:
        return _hook(ctx, name, args, options)
    if name == "cards":
        cid = ctx.component(args[0])
        if ctx.game.manifest.components[cid].table is None:
            raise ctx.fail(f"cards: component {cid!r} has no table")
        return generate.cards_markdown(ctx.game, cid, ctx.lang, designer=ctx.book.designer)
    if name == "sweep":
        return _sweep(ctx, args[0], options)
    # list_table
    value = ctx.constant(args[0])
    if not isinstance(value, list):
        raise ctx.fail(f"list_table: constant {args[0]!r} is not a list")
    head = options.get("head", "").split(",") if options.get("head") else []
    return generate.list_table_markdown(
        value, head, ctx.lang, start=_int_option(ctx, options, "start", 0),
        offset=_int_option(ctx, options, "offset", 0), last=options.get("last", ""))


def _sweep(ctx: _Context, file: str, options: dict[str, str]) -> str:
    """The ``sweep`` placeholder: a saved sweep's rows as a table."""
    path = ctx.game.manifest.game_dir / file
    if not path.is_file():
        what = "is a folder" if path.is_dir() else "not found"
        raise ctx.fail(f"sweep: {path} {what}: expected a report saved by pnp simulate "
                       f"{ctx.game.slug} --sweep … --json {path}")
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
        key = ctx.lang.list_sep.join(str(row["values"][k]) for k in swept)
        lines.append("| " + " | ".join([key] + cells) + " |")
    return "\n".join(lines)


def expand(lines: list[Line], book: Book, path: Path | None) -> list[Line]:
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
        ctx = _Context(book, path, number)
        pieces: list[str] = []
        block_result: str | None = None
        last = 0
        for match in matches:
            body = match.group(1).strip()
            if not body:
                raise ctx.fail("empty placeholder {{ }}")
            name, args, options = _split(ctx, body)
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
