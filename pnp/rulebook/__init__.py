"""``pnp rulebook``: each game's rulebook in Japanese and English, as PDF, HTML and Markdown.

The rules text lives in ``rulebooks/<slug>.md`` (Japanese) and
``rulebooks/<slug>.en.md`` (English), in the Markdown subset of
:mod:`pnp.rulebook.markdown`. Its ``{{ … }}`` placeholders are filled from
``card_data/<slug>/`` (:mod:`pnp.rulebook.placeholders`) and from the
builders each game registers (:mod:`pnp.games.book_hooks`: worked examples
played by the rules engine, set-up diagrams), so counts, card lists,
examples and pictures always match the data.

The names below load on first use, so importing this package does not
pull in the PDF and image libraries. Game packages register their builders
with :mod:`pnp.games.book_hooks` and draw against :mod:`pnp.games.book_kit`,
both in the games layer below this one.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "RULEBOOK_DIR": "pnp.rulebook.sources", "export_html": "pnp.rulebook.export",
    "export_markdown": "pnp.rulebook.export", "export_rulebook": "pnp.rulebook.export",
    "prepare": "pnp.rulebook.export", "rulebook_markdown": "pnp.rulebook.export",
    "rulebook_source": "pnp.rulebook.sources", "rulings_stated": "pnp.rulebook.export",
    "register_rulebook": "pnp.games.book_hooks",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    """Load ``name`` from its module on first use."""
    if name not in _EXPORTS:
        raise AttributeError(f"module 'pnp.rulebook' has no attribute {name!r}")
    return getattr(importlib.import_module(_EXPORTS[name]), name)
