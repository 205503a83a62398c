"""The public API: a game's rulebook as Markdown, HTML or a print-ready PDF, in ja or en.

One pipeline serves every format and both editions: the rules text
(``rulebooks/<slug>.md`` for Japanese, ``rulebooks/<slug>.en.md`` for
English) has its placeholders filled from the data and the game's registered
builders (examples played by the rules engine, diagrams, card pictures), is
parsed into blocks, and the designer-only sections are kept or dropped. The
blocks are then written as Markdown, HTML or a PDF book (optionally imposed
as a saddle-stitched booklet).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from pnp.data import GameData, load_game_data, resolve_data_dir, resolve_slugs
from pnp.errors import PnpError
from pnp.fileio import read_user_file
from pnp.rulebook.context import CardArt
from pnp.rulebook.lang import Lang, check_lang, load_lang
from pnp.rulebook.markdown import (Block, Heading, Line, ListBlock, Note, Para, Picture,
                                   TableBlock, parse_markdown, ruling_tags)
from pnp.printing.papers import book_paper
from pnp.rulebook.pdf import BookMeta, Layout, get_paper, plain_text, render_pdf, write_atomic
from pnp.rulebook.pictures import Scene
from pnp.rulebook.placeholders import Book, expand
# (RULEBOOK_DIR and source_name are re-exported: they were defined here)
from pnp.rulebook.sources import (RULEBOOK_DIR, require_rulebook_source,  # noqa: F401
                                   rulebook_source, shown_path, source_name)

#: Layouts of the PDF: one page per sheet, or a folded booklet.
IMPOSITIONS: tuple[str, ...] = ("none", "booklet")


def _load_game(slug: str, data_dir: Path) -> GameData:
    """The game's data; rows that cannot be read are an error, count-rule misses are not.

    A rulebook describes the rows as they are (so a CSV edit shows up at
    once); ``pnp check`` is the place that insists the counts match the
    manifest's rules.
    """
    resolve_slugs(data_dir, [slug])
    game = load_game_data(data_dir, slug)
    if game.unchecked:
        broken = sorted(game.unchecked)
        first = game.problems[0] if game.problems else f"component {broken[0]!r} is unreadable"
        raise PnpError(f"{first} (run `pnp check {slug}` for every problem)")
    return game


def _read_lines(source: Path) -> list[Line]:
    """The rulebook source as numbered lines (UTF-8, a BOM is accepted)."""
    data = read_user_file(source, "rulebook")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise PnpError("rulebook is not UTF-8: save it as UTF-8", path=source) from None
    return list(enumerate(text.splitlines(), start=1))


def player_blocks(blocks: list[Block], designer: bool) -> list[Block]:
    """``blocks`` without designer-only sections (``{… .designer}``) unless ``designer``."""
    if designer:
        return list(blocks)
    out: list[Block] = []
    skipping_level = 0
    for block in blocks:
        if isinstance(block, Heading):
            if skipping_level and block.level <= skipping_level:
                skipping_level = 0
            if block.designer and not skipping_level:
                skipping_level = block.level
        if not skipping_level:
            out.append(block)
    return out


@dataclass
class Prepared:
    """A rulebook ready to write: its blocks, pictures and the facts around them."""

    game: GameData
    lang: Lang
    path: Path
    blocks: list[Block]
    pictures: Mapping[str, Scene]
    designer: bool

    @property
    def title(self) -> str:
        """The text of the ``#`` heading, else the game's title."""
        for block in self.blocks:
            if isinstance(block, Heading) and block.level == 1:
                return plain_text(block.text)
        return self.game.manifest.title

    def meta(self, paper_name: str) -> BookMeta:
        """Title page and PDF metadata in the edition's language."""
        title = self.title
        word = self.lang.t("ルールブック", "Rulebook")
        subject = f"{self.game.manifest.title} rulebook ({self.lang.code}, {paper_name})"
        return BookMeta(title=title, subtitle=word, running_head=f"{title}　{word}"
                        if self.lang.ja else f"{title} · {word}", subject=subject,
                        lang=self.lang.code)


def prepare(slug: str, data_dir: Path | None = None, *, lang: str = "ja",
            designer: bool = False, source: Path | None = None,
            templates_dir: Path | None = None) -> Prepared:
    """Load data and text, fill the placeholders, parse, and keep the blocks for this edition."""
    folder = resolve_data_dir(data_dir)
    game = _load_game(slug, folder)
    code = check_lang(lang)
    path = (Path(source) if source is not None
            else require_rulebook_source(slug, folder, code))
    edition = load_lang(code, path)
    book = Book(game, edition, CardArt(game, templates_dir), designer)
    shown = shown_path(path)      # messages name it as the designer sees it
    lines = expand(_read_lines(path), book, shown)
    blocks = parse_markdown(lines, shown)
    if not blocks:
        raise PnpError("rulebook is empty: expected at least a # title", path=shown)
    anchors: dict[str, int] = {}
    for block in blocks:
        if isinstance(block, Heading) and block.anchor:
            if block.anchor in anchors:
                raise PnpError(f"heading anchor #{block.anchor} is used twice (first on line "
                               f"{anchors[block.anchor]}): anchors must be unique",
                               path=shown, line=block.line)
            anchors[block.anchor] = block.line
    return Prepared(game, edition, path, player_blocks(blocks, designer),
                    book.pictures.pictures, designer)


# -- Markdown -------------------------------------------------------------------------

def _md_text(text: str) -> str:
    """Inline text for Markdown output: ruling tags become invisible HTML comments."""
    return re.sub(r"\s?(?<!\{)\{([A-Z]\d+[a-z]?(?:[ ,]+[A-Z]\d+[a-z]?)*)\}(?!\})",
                  lambda m: f" <!-- {' '.join(re.split(r'[ ,]+', m.group(1)))} -->", text)


def blocks_to_markdown(blocks: list[Block], image_path: Mapping[str, str]) -> str:
    """Blocks as plain Markdown (pictures link to ``image_path[ref]``)."""
    out: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            out.append("#" * block.level + " " + _md_text(block.text))
        elif isinstance(block, Para):
            out.append(_md_text(block.text))
        elif isinstance(block, Note):
            out.append("> " + _md_text(block.text))
        elif isinstance(block, ListBlock):
            out.append("\n".join(
                (f"{block.start + i}. " if block.ordered else "- ") + _md_text(item)
                for i, item in enumerate(block.items)))
        elif isinstance(block, Picture):
            out.append(f"![{block.caption}]({image_path.get(block.ref, block.ref + '.png')})")
        elif isinstance(block, TableBlock):
            seps = {"left": "---", "right": "--:", "center": ":-:"}

            def row(cells: tuple[str, ...]) -> str:
                return "| " + " | ".join(_md_text(c).replace("|", "\\|") for c in cells) + " |"

            lines = [row(block.header), "|" + "|".join(seps[a] for a in block.aligns) + "|"]
            lines += [row(r) for r in block.rows]
            out.append("\n".join(lines))
    return "\n\n".join(out) + "\n"


def image_names(prepared: Prepared, folder: str) -> dict[str, str]:
    """Relative paths of the book's pictures for Markdown: ``folder/NN-ref.png``."""
    return {ref: f"{folder}/{i:02d}-{ref}.png"
            for i, ref in enumerate(prepared.pictures, start=1)}


def rulebook_markdown(slug: str, data_dir: Path | None = None, *, lang: str = "ja",
                      designer: bool = False, source: Path | None = None,
                      images: str = "rulebook-images") -> str:
    """The rulebook of ``slug`` as Markdown with every placeholder filled from the data.

    Pictures are linked as ``images/NN-name.png`` (:func:`export_markdown`
    writes them). Ruling tags stay as HTML comments, invisible when read.
    """
    prepared = prepare(slug, data_dir, lang=lang, designer=designer, source=source)
    return blocks_to_markdown(prepared.blocks, image_names(prepared, images))


def rulings_stated(slug: str, data_dir: Path | None = None, *, lang: str = "ja",
                   designer: bool = False,
                   source: Path | None = None) -> dict[str, list[str]]:
    """Ruling IDs tagged in each section (``##`` anchor) of the edition's text."""
    prepared = prepare(slug, data_dir, lang=lang, designer=designer, source=source)
    found: dict[str, list[str]] = {}
    section = ""
    for block in prepared.blocks:
        texts: list[str] = []
        if isinstance(block, Heading):
            if block.level <= 2:
                section = block.anchor
            texts = [block.text]
        elif isinstance(block, (Para, Note)):
            texts = [block.text]
        elif isinstance(block, ListBlock):
            texts = list(block.items)
        elif isinstance(block, TableBlock):
            texts = [c for row in (block.header,) + block.rows for c in row]
        for text in texts:
            found.setdefault(section, []).extend(ruling_tags(text))
    return found


# -- files ----------------------------------------------------------------------------

def _target(out: Path, slug: str, suffix: str) -> Path:
    """``out`` itself, or ``out/<slug>_rulebook<suffix>`` when ``out`` is a folder."""
    target = Path(out)
    if target.is_dir():
        target = target / f"{slug}_rulebook{suffix}"
    return target


def export_rulebook(slug: str, out: Path, *, data_dir: Path | None = None, paper: str = "a5",
                    lang: str = "ja", imposition: str = "none", designer: bool = False,
                    source: Path | None = None, templates_dir: Path | None = None,
                    layout: Layout | None = None) -> Path:
    """Write the rulebook of ``slug`` as a PDF and return the file written.

    ``out`` is the PDF path, or an existing folder (the file is then
    ``<slug>_rulebook.pdf`` inside it). ``paper`` is the page size (``a5``,
    ``a4``, ``half-letter``, ``letter``); ``imposition="booklet"`` pads to a
    multiple of 4 pages and imposes them two-up for saddle-stitching (A5
    pages on A4 sheets, half-letter on Letter; ``paper`` may name the sheet:
    ``a4`` gives that same A5 booklet, :func:`~pnp.printing.papers.book_paper`).
    The file is written atomically, and identical input gives
    byte-identical output.
    """
    spec = get_paper(book_paper(paper, imposition))
    if imposition not in IMPOSITIONS:
        raise PnpError(f"unknown imposition {imposition!r}: expected one of "
                       f"{', '.join(IMPOSITIONS)}")
    prepared = prepare(slug, data_dir, lang=lang, designer=designer, source=source,
                       templates_dir=templates_dir)
    target = _target(out, slug, ".pdf")
    data = render_pdf(prepared.blocks, spec, prepared.meta(spec.name), prepared.pictures,
                      layout)
    if imposition == "booklet":
        from pnp.rulebook.booklet import impose_booklet

        data = impose_booklet(data, spec.size)
    write_atomic(data, target)
    return target


def export_html(slug: str, out: Path, *, data_dir: Path | None = None, lang: str = "ja",
                designer: bool = False, source: Path | None = None,
                templates_dir: Path | None = None) -> Path:
    """Write the rulebook as one self-contained HTML file (pictures inlined as PNG)."""
    from pnp.rulebook.html import render_html

    prepared = prepare(slug, data_dir, lang=lang, designer=designer, source=source,
                       templates_dir=templates_dir)
    target = _target(out, slug, ".html")
    html = render_html(prepared.blocks, prepared.meta("screen"), prepared.pictures)
    write_atomic(html.encode("utf-8"), target)
    return target


def export_markdown(slug: str, out: Path, *, data_dir: Path | None = None, lang: str = "ja",
                    designer: bool = False, source: Path | None = None,
                    templates_dir: Path | None = None) -> list[Path]:
    """Write the rulebook as Markdown plus its pictures (PNG, in a folder beside it)."""
    from pnp.rulebook.pictures import pictures_to_png

    prepared = prepare(slug, data_dir, lang=lang, designer=designer, source=source,
                       templates_dir=templates_dir)
    target = _target(out, slug, ".md")
    folder = target.stem + "-images"
    pictures_dir = target.parent / folder
    if prepared.pictures and pictures_dir.exists() and not pictures_dir.is_dir():
        raise PnpError(f"cannot write the rulebook's pictures into {pictures_dir}: it is a "
                       "file, expected a folder (remove the file)")
    names = image_names(prepared, folder)
    written = []
    for ref, png in zip(prepared.pictures, pictures_to_png(list(prepared.pictures.values()))):
        path = target.parent / names[ref]
        write_atomic(png, path)
        written.append(path)
    write_atomic(blocks_to_markdown(prepared.blocks, names).encode("utf-8"), target)
    return [target] + written
