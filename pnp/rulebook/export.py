"""The public API: ``rulebook_markdown`` (filled-in text) and ``export_rulebook`` (PDF)."""

from __future__ import annotations

import re
from pathlib import Path

from pnp import PROJECT_ROOT
from pnp.data import GameData, load_game_data, resolve_data_dir, resolve_slugs
from pnp.errors import PnpError
from pnp.fileio import read_user_file
from pnp.rulebook.markdown import Block, Heading, Line, parse_markdown
from pnp.rulebook.pdf import get_paper, render_pdf, write_atomic
from pnp.rulebook.placeholders import expand

#: The checkout's rulebook sources, ``rulebooks/<slug>.md``.
RULEBOOK_DIR = PROJECT_ROOT / "rulebooks"

_COMMENT = re.compile(r"^\s*<!--.*-->\s*$")


def rulebook_source(slug: str, data_dir: Path) -> Path:
    """Where the rules text of ``slug`` is read from.

    A ``rulebooks/`` folder beside the data folder wins (a designer's own
    project: ``card_data/`` and ``rulebooks/`` side by side); otherwise the
    checkout's ``rulebooks/``.
    """
    local = Path(data_dir).resolve().parent / "rulebooks" / f"{slug}.md"
    return local if local.is_file() else RULEBOOK_DIR / f"{slug}.md"


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


def _filled(slug: str, data_dir: Path | None, source: Path | None
            ) -> tuple[GameData, Path, list[Line]]:
    """Load data and source, and expand the placeholders."""
    folder = resolve_data_dir(data_dir)
    game = _load_game(slug, folder)
    path = Path(source) if source is not None else rulebook_source(slug, folder)
    lines = expand(_read_lines(path), game, path)
    return game, path, lines


def rulebook_markdown(slug: str, data_dir: Path | None = None, *,
                      source: Path | None = None) -> str:
    """The rulebook of ``slug`` as Markdown with every placeholder filled from the data.

    ``source`` overrides the rules text file (default: :func:`rulebook_source`).
    The text is also parsed, so a malformed table or heading fails here too.
    """
    _, path, lines = _filled(slug, data_dir, source)
    parse_markdown(lines, path)
    kept = [text.rstrip() for _, text in lines if not _COMMENT.match(text)]
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip("\n")
    return text + "\n"


def _title(blocks: list[Block], fallback: str) -> str:
    """The text of the first ``#`` heading (tags stripped), for metadata and running heads."""
    for block in blocks:
        if isinstance(block, Heading) and block.level == 1:
            return re.sub(r"\*\*|<[^>]+>", "", block.text)
    return fallback


def export_rulebook(slug: str, out: Path, *, data_dir: Path | None = None, paper: str = "a5",
                    source: Path | None = None) -> Path:
    """Write the rulebook of ``slug`` as a PDF and return the file written.

    ``out`` is the PDF path, or an existing folder (the file is then
    ``<slug>_rulebook.pdf`` inside it). ``paper`` is ``a5`` (default) or
    ``a4``. The file is written atomically (temporary file + ``os.replace``),
    and identical input gives byte-identical output.
    """
    spec = get_paper(paper)
    game, path, lines = _filled(slug, data_dir, source)
    blocks = parse_markdown(lines, path)
    if not blocks:
        raise PnpError("rulebook is empty: expected at least a # title", path=path)
    target = Path(out)
    if target.is_dir():
        target = target / f"{slug}_rulebook.pdf"
    title = _title(blocks, game.manifest.title)
    data = render_pdf(blocks, spec, title=f"{title} ルールブック",
                      subject=f"{game.manifest.title} rulebook ({spec.name})",
                      running_head=f"{title} ルールブック")
    write_atomic(data, target)
    return target
