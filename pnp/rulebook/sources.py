"""Where a game's rules text is read from (kept light: no PDF or drawing libraries).

:mod:`pnp.rulebook.export` reads the text from here, and the build's
rulebook cache (:mod:`pnp.rulebook.cache`) keys a kept rulebook by the
same file without loading the exporter.
"""

from __future__ import annotations

from pathlib import Path

from pnp.errors import PnpError
from pnp.project import current, default_folder, shipped
from pnp.rulebook.lang import check_lang

#: The shipped rulebook sources, ``rulebooks/<slug>.md`` (and ``<slug>.en.md``):
#: the checkout's folder, or the installed package's copy (see :mod:`pnp.project`).
RULEBOOK_DIR = shipped("rulebooks")


def source_name(slug: str, lang: str) -> str:
    """File name of a rules text: ``fortuna.md`` (Japanese), ``fortuna.en.md`` (English)."""
    return f"{slug}.md" if lang == "ja" else f"{slug}.{lang}.md"


def rulebook_source(slug: str, data_dir: Path, lang: str = "ja") -> Path:
    """Where the rules text of ``slug`` in ``lang`` is read from.

    A ``rulebooks/`` folder beside the data folder wins (a designer's own
    project: ``card_data/`` and ``rulebooks/`` side by side); otherwise the
    project's ``rulebooks/``, else the shipped ones (:mod:`pnp.project`).
    """
    name = source_name(slug, check_lang(lang))
    for folder in rulebook_folders(data_dir):
        if (folder / name).is_file():
            return folder / name
    return RULEBOOK_DIR / name


def rulebook_folders(data_dir: Path) -> list[Path]:
    """The folders :func:`rulebook_source` looks in, in its order, each once."""
    folders = [Path(data_dir).resolve().parent / "rulebooks", default_folder("rulebooks"),
               RULEBOOK_DIR]
    seen: dict[Path, Path] = {}
    for folder in folders:
        seen.setdefault(folder.resolve(), folder)
    return list(seen.values())


def shown_path(path: Path) -> Path:
    """``path`` as messages show it: under the project folder as it was given.

    The rules text is looked up by absolute path (beside the resolved data
    folder); an error in it then reads ``rulebooks/fortuna.md:12: …`` (or
    ``my-games/rulebooks/…`` after ``--project my-games``) as every other
    message names a project file, not ``/home/…/rulebooks/…``.
    """
    root = current().root
    try:
        return root / path.resolve().relative_to(root.resolve())
    except (ValueError, OSError):
        return path


def _shown(folder: Path) -> str:
    """``folder`` as the designer sees it, with a trailing slash."""
    rel = shown_path(folder)
    return "./" if rel == Path(".") else f"{rel.as_posix()}/"


def require_rulebook_source(slug: str, data_dir: Path, lang: str = "ja") -> Path:
    """:func:`rulebook_source`, or a :class:`PnpError` naming every folder searched.

    A game the designer has just added has no rules text yet: the one line
    says which folders were searched and which file to create (in the
    first of them, the one beside the data, which wins over the others).
    """
    path = rulebook_source(slug, data_dir, lang)
    if path.is_file():
        return path
    name = source_name(slug, check_lang(lang))
    folders = rulebook_folders(data_dir)
    shipped_dir = RULEBOOK_DIR.resolve()
    looked = [_shown(f) + (" (the shipped games)" if f.resolve() == shipped_dir else "")
              for f in folders]
    create = folders[0] / name
    raise PnpError(f"no rules text for game {slug!r}: looked for {name} in "
                   f"{' and '.join(looked)}; expected a file: create "
                   f"{_shown(create.parent)}{name} (its format: rulebooks/README.md)")
