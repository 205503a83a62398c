"""Game-registered rulebook content: worked examples, diagrams and tables.

A game package adds rulebook content by shipping ``pnp/games/<slug>/examples.py``
that calls :func:`register_rulebook` when imported::

    register_rulebook("fortuna", examples={"set_score": set_score},
                      figures={"setup": setup_diagram})

Each builder receives the book (:class:`~pnp.games.book_kit.Book`) and writes
Markdown lines and pictures into it in the edition's language. The rules text
places them with ``{{ example NAME }}``, ``{{ figure NAME }}`` and
``{{ table NAME }}``. Generic rulebook code finds a game's builders through
:func:`rulebook_hooks` and never names a game.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Mapping

if TYPE_CHECKING:
    from pnp.games.book_kit import Book

#: A builder writes one piece of rulebook content into the book.
Builder = Callable[["Book"], None]

#: Kinds of content a game may register, as named in placeholders.
KINDS: tuple[str, ...] = ("example", "figure", "table")


@dataclass
class RulebookHooks:
    """One game's builders by kind and name."""

    example: dict[str, Builder] = field(default_factory=dict)
    figure: dict[str, Builder] = field(default_factory=dict)
    table: dict[str, Builder] = field(default_factory=dict)

    def of(self, kind: str) -> dict[str, Builder]:
        """The builders of one kind (``example``, ``figure`` or ``table``)."""
        table: dict[str, Builder] = getattr(self, kind)
        return table


_HOOKS: dict[str, RulebookHooks] = {}


def register_rulebook(slug: str, *, examples: Mapping[str, Builder] | None = None,
                      figures: Mapping[str, Builder] | None = None,
                      tables: Mapping[str, Builder] | None = None) -> None:
    """Register ``slug``'s rulebook builders (a repeated call adds to the earlier ones)."""
    hooks = _HOOKS.setdefault(slug, RulebookHooks())
    hooks.example.update(examples or {})
    hooks.figure.update(figures or {})
    hooks.table.update(tables or {})


def rulebook_hooks(slug: str) -> RulebookHooks:
    """The builders ``slug`` registered, importing ``pnp.games.<slug>.examples`` once."""
    module = f"pnp.games.{slug}.examples"
    if slug not in _HOOKS and slug.isidentifier():
        try:
            found = importlib.util.find_spec(module) is not None
        except ModuleNotFoundError:      # no package pnp.games.<slug> at all
            found = False
        if found:
            importlib.import_module(module)
    return _HOOKS.setdefault(slug, RulebookHooks())
