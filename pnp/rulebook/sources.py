"""Where a game's rules text is read from (kept light: no PDF or drawing libraries).

:mod:`pnp.rulebook.export` reads the text from here, and the build's
rulebook cache (:mod:`pnp.rulebook.cache`) keys a kept rulebook by the
same file without loading the exporter.
"""

from __future__ import annotations

from pathlib import Path

from pnp.project import default_folder, shipped
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
    local = Path(data_dir).resolve().parent / "rulebooks" / name
    if local.is_file():
        return local
    own = default_folder("rulebooks") / name
    return own if own.is_file() else RULEBOOK_DIR / name
