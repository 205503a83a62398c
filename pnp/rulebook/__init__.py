"""``pnp rulebook``: each game's rulebook as Markdown and as a print-ready PDF.

The rules text lives in ``rulebooks/<slug>.md`` (our own words, in the
Markdown subset of :mod:`pnp.rulebook.markdown`); its ``{{ … }}``
placeholders are filled from ``card_data/<slug>/`` (:mod:`pnp.rulebook.placeholders`),
so the component list and designed-card lists always match the data.
"""

from pnp.rulebook.export import RULEBOOK_DIR, export_rulebook, rulebook_markdown, rulebook_source

__all__ = ["RULEBOOK_DIR", "export_rulebook", "rulebook_markdown", "rulebook_source"]
