"""Books exported once per test session and shared by the rulebook tests (not a test module)."""

from __future__ import annotations

import re
import tempfile
from functools import lru_cache
from pathlib import Path

from pnp import PROJECT_ROOT
from pnp.rulebook import export_rulebook, prepare
from pnp.rulebook.export import Prepared
from pnp.rulebook.pdf import Layout

SLUGS = ["fortuna", "fortune_clover", "undecim", "episode2", "nine_peak"]
LANGS = ["ja", "en"]
#: First letter of a ruling ID → the game it belongs to.
PREFIX = {"F": "fortuna", "N": "nine_peak", "C": "fortune_clover", "E": "episode2",
          "U": "undecim"}
RULINGS = PROJECT_ROOT.parent / "shared" / "RULINGS.md"

_TMP = Path(tempfile.mkdtemp(prefix="pnp-rulebooks-"))


@lru_cache(maxsize=None)
def book(slug: str, lang: str) -> tuple[bytes, Layout]:
    """The A5 PDF of one edition and where its headings landed (exported once)."""
    layout = Layout()
    path = export_rulebook(slug, _TMP / f"{slug}-{lang}.pdf", lang=lang, layout=layout)
    return path.read_bytes(), layout


@lru_cache(maxsize=None)
def prepared(slug: str, lang: str, designer: bool = False) -> Prepared:
    """The parsed blocks of one edition (player's or designer's)."""
    return prepare(slug, lang=lang, designer=designer)


def ruling_ids() -> dict[str, set[str]]:
    """Every ruling ID per game: RULINGS.md (when beside the clone) and our docs' additions.

    A doc counts only for the game it is named after (``docs/rules/fortuna-engine.md``),
    so a Fortune card called ``F01`` in Fortune Clover's design notes is no Fortuna ruling.
    """
    letter = {slug: prefix for prefix, slug in PREFIX.items()}
    ids: dict[str, set[str]] = {slug: set() for slug in SLUGS}
    sources: list[tuple[str | None, str]] = []
    for doc in sorted((PROJECT_ROOT / "docs").glob("*/*.md")):
        slug = doc.stem.split("-")[0]
        if slug in letter:
            sources.append((slug, doc.read_text(encoding="utf-8")))
    if RULINGS.exists():
        sources.append((None, RULINGS.read_text(encoding="utf-8")))
    for slug, text in sources:
        for found in re.finditer(r"^\s*[-*] \*\*([FNCEU][1-9]\d*[a-z]?)[ .]", text, re.M):
            game = PREFIX[found.group(1)[0]]
            if slug is None or slug == game:
                ids[game].add(found.group(1))
    return ids
