"""What a rulebook builder (example, figure, table) works with, and where it writes.

A :class:`BookContext` hands a builder the game's data, its rules engine
(built from that same data, so a changed constant changes the example), the
rendered card faces, and the edition's language; the builder writes Markdown
lines (:meth:`para`, :meth:`table`, …) and pictures (:meth:`picture`) back.
Both editions run the same builder, so an example cannot exist in one
language and not the other, and its numbers are the engine's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from pnp.data import GameData
from pnp.errors import PnpError
from pnp.games.book_kit import Scene as SceneView
from pnp.rulebook.generate import cell, row_name, row_text
from pnp.rulebook.lang import Lang
from pnp.rulebook.pictures import Scene
from pnp.render.layout import Layout

#: Reference prefix of pictures in expanded Markdown: ``![caption](pic:NAME)``.
PIC_SCHEME = "pic:"


def build_engine(game: GameData, params: Mapping[str, Any] | None = None) -> Any:
    """``pnp.games.make_game`` for a book: count-rule misses do not stop the examples.

    A rulebook shows the rows as they are (``pnp check`` insists on the
    counts); rows that cannot be read never get here (the export refuses
    them first), so the engine is built from the data with the count
    problems set aside.
    """
    from dataclasses import replace

    from pnp.games import make_game

    return make_game(replace(game, problems=[]) if not game.unchecked else game, params)


class PictureStore:
    """The pictures of one book by reference name, in the order they were added."""

    def __init__(self) -> None:
        self.pictures: dict[str, Scene] = {}

    def add(self, name: str, scene: Scene) -> str:
        """Store ``scene`` under ``name`` (made unique with a suffix); return the reference."""
        base = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in name) or "picture"
        ref = base
        serial = 2
        while ref in self.pictures:
            ref = f"{base}-{serial}"
            serial += 1
        self.pictures[ref] = scene
        return ref


class CardArt:
    """Card faces and backs rendered from the game's templates, each rendered once."""

    def __init__(self, game: GameData, templates_dir: Path | None) -> None:
        self.game = game
        self.templates_dir = templates_dir
        self._env: Any = None
        self._cache: dict[tuple[str, str], tuple[Layout, Layout | None]] = {}

    def _render(self, component: str, row_id: str) -> tuple[Layout, Layout | None]:
        key = (component, row_id)
        if key not in self._cache:
            # Imported here: the card renderer is only needed when a book has pictures.
            from pnp.builder.decks import render_cards, resolve_templates_dir
            from pnp.render.jinja_env import make_environment

            components = self.game.manifest.components
            if component not in components:
                raise PnpError(f"{self.game.slug} has no component {component!r} (has: "
                               f"{', '.join(components)})")
            spec = components[component]
            if not spec.face:
                raise PnpError(f"{self.game.slug}/{component} has no face template to picture")
            if self._env is None:
                self._env = make_environment(resolve_templates_dir(self.templates_dir))
            ids = {row.id for row in self.game.rows.get(component, [])} if spec.table else \
                {component}
            if row_id not in ids:
                raise PnpError(f"{self.game.slug}/{component} has no card {row_id!r}")
            cards = render_cards(self._env, self.game, spec, only=[row_id])
            if not cards:
                raise PnpError(f"{self.game.slug}/{component} card {row_id!r} has qty 0")
            self._cache[key] = (cards[0].front, cards[0].back)
        return self._cache[key]

    def face(self, component: str, row_id: str) -> Layout:
        """The rendered face of one card (``row_id`` is its CSV id)."""
        return self._render(component, row_id)[0]

    def back(self, component: str, row_id: str) -> Layout:
        """The rendered back of one card (the face again when it has no back template)."""
        front, back = self._render(component, row_id)
        return back or front


class BookContext:
    """One builder's view of the book being made."""

    def __init__(self, game: GameData, lang: Lang, pictures: PictureStore, art: CardArt, *,
                 name: str, designer: bool = False, path: Path | None = None,
                 line: int | None = None, args: Sequence[str] = (),
                 options: Mapping[str, str] | None = None,
                 engines: dict[str, Any] | None = None) -> None:
        self.game = game
        self.lang = lang
        self.art = art
        self.name = name
        self.designer = designer
        self.args = list(args)
        self.options = dict(options or {})
        self.lines: list[str] = []
        self._pictures = pictures
        self._path = path
        self._line = line
        self._engines = engines if engines is not None else {}

    # -- language ---------------------------------------------------------------

    @property
    def ja(self) -> bool:
        """True for the Japanese edition."""
        return self.lang.ja

    def t(self, ja: str, en: str) -> str:
        """The text in the edition's language."""
        return self.lang.t(ja, en)

    def term(self, value: Any) -> str:
        """A data value (icon, suit, land…) as this edition prints it."""
        return self.lang.term(value)

    def fail(self, message: str) -> PnpError:
        """An error naming the rules-text line that asked for this content."""
        return PnpError(f"{self.name}: {message}", path=self._path, line=self._line)

    # -- the game -------------------------------------------------------------------

    @property
    def constants(self) -> Mapping[str, Any]:
        """The manifest's ``[game.constants]``."""
        return self.game.manifest.constants

    def engine(self, params: Mapping[str, Any] | None = None) -> Any:
        """The game's rules engine built from this book's data (cached per ``params``)."""
        key = repr(sorted((params or {}).items()))
        if key not in self._engines:
            self._engines[key] = build_engine(self.game, params)
        return self._engines[key]

    def row(self, component: str, row_id: str) -> Mapping[str, Any]:
        """The typed values of one card row."""
        for row in self.game.rows.get(component, []):
            if row.id == row_id:
                return row.values
        raise self.fail(f"no card {row_id!r} in {component}")

    def name_of(self, values: Mapping[str, Any]) -> str:
        """A card row's name in the edition's language (``name_en`` for English)."""
        return row_name(values, self.lang)

    def text_of(self, values: Mapping[str, Any]) -> str:
        """A card row's rules text in the edition's language (``text_en`` for English)."""
        return row_text(values, self.lang)

    def scene(self) -> Scene:
        """An empty picture whose labels use the edition's face."""
        return Scene.for_lang(self.lang.code)

    # -- writing --------------------------------------------------------------------

    def para(self, ja: str, en: str) -> None:
        """A paragraph."""
        self.lines += [self.t(ja, en), ""]

    def note(self, ja: str, en: str) -> None:
        """A note set apart in a shaded box."""
        self.lines += ["> " + self.t(ja, en), ""]

    def bullets(self, items: Sequence[str], *, ordered: bool = False) -> None:
        """A list of already translated items."""
        self.lines += [(f"{i}. " if ordered else "- ") + item
                       for i, item in enumerate(items, start=1)]
        self.lines.append("")

    def table(self, head: Sequence[str], rows: Sequence[Sequence[Any]],
              align: str = "") -> None:
        """A table; ``align`` has one letter per column: l, r or c (default all l)."""
        seps = {"l": "---", "r": "--:", "c": ":-:"}
        marks = [seps[a] for a in (align or "l" * len(head)).ljust(len(head), "l")]
        self.lines.append("| " + " | ".join(cell(str(h)) for h in head) + " |")
        self.lines.append("|" + "|".join(marks) + "|")
        for row in rows:
            self.lines.append("| " + " | ".join(cell(str(c)) for c in row) + " |")
        self.lines.append("")

    def picture(self, scene: SceneView, caption: str = "", name: str = "") -> str:
        """Place ``scene`` (made by :meth:`scene`) here with a caption; returns its reference."""
        if not isinstance(scene, Scene):  # a builder drew on something else
            raise self.fail(f"picture {name or self.name!r}: draw it on book.scene()")
        ref = self._pictures.add(name or self.name, scene)
        self.lines += [f"![{caption}]({PIC_SCHEME}{ref})", ""]
        return ref

    def markdown(self) -> str:
        """Everything written so far."""
        return "\n".join(self.lines).rstrip("\n")
