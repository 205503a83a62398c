"""What a game's rulebook builders see: the book, its pictures and a few picture sizes.

Game packages (``pnp/games/<slug>/examples.py``) write examples and diagrams
against these protocols and import nothing from the rulebook or the
renderer, so an engine package stays free of the PDF libraries (and its
type check stays within the engines). The protocols live here, in the games
layer, and the rulebook above implements them
(:class:`pnp.rulebook.context.BookContext`, :class:`pnp.rulebook.pictures.Scene`):
the rulebook imports the games, never the other way round.

Colours in pictures are named: ``"ink"``, ``"accent"`` (labels that name a
zone), ``"muted"``, ``"highlight"`` (the card an example talks about) or a
``#rrggbb`` string.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Protocol, Sequence

if TYPE_CHECKING:
    from pnp.data import GameData
    from pnp.errors import PnpError

#: Smallest type size used in pictures (labels stay readable in print).
MIN_LABEL = 6.5
#: Widest picture in points: the text block of the narrowest page (half letter),
#: so pictures are never scaled down and their labels keep their size.
MAX_WIDTH = 300.0
#: Width of a 63 mm card, in points.
CARD_WIDTH = 63 * 72 / 25.4


def card_width(scale: float) -> float:
    """Width in points of a 63 mm card drawn at ``scale``."""
    return CARD_WIDTH * scale


def fit_width(count: int, preferred: float, gap: float = 4.0,
              room: float = MAX_WIDTH - 12) -> float:
    """Card width so ``count`` cards with ``gap`` between them fit ``room`` (at most ``preferred``)."""
    if count <= 0:
        return preferred
    return min(preferred, (room - gap * (count - 1)) / count)


class Scene(Protocol):
    """A picture being drawn (see :class:`pnp.rulebook.pictures.Scene`)."""

    @property
    def width(self) -> float:
        """Natural width in points."""

    @property
    def height(self) -> float:
        """Natural height in points."""

    def card(self, layout: Any, x: float, y: float, width: float, *, rotate: int = 0,
             highlight: bool = False, dim: bool = False, layer: int = 1) -> tuple[float, float]:
        """A rendered card side; returns the drawn (width, height)."""

    def playing_card(self, rank: str, suit: str, x: float, y: float, width: float, *,
                     highlight: bool = False, face_down: bool = False,
                     layer: int = 1) -> tuple[float, float]:
        """A plain playing card (or its back)."""

    def zone(self, x: float, y: float, w: float, h: float, label: str = "", *,
             dashed: bool = True, fill: bool = True, size: float = 7.0,
             label_pos: str = "top") -> None:
        """A table area with an optional label."""

    def label(self, text: str, x: float, y: float, *, size: float = 7.0, anchor: str = "start",
              color: str = "ink", bold: bool = False, max_width: float | None = None) -> None:
        """A line of text (wrapped to ``max_width`` when given)."""

    def arrow(self, x1: float, y1: float, x2: float, y2: float, *, color: str = "highlight",
              width: float = 1.0) -> None:
        """A straight arrow."""

    def token(self, x: float, y: float, radius: float, text: str = "", *,
              fill: str = "accent", ink: str = "#ffffff", size: float = 7.0) -> None:
        """A round token."""

    def die(self, x: float, y: float, size: float, pips: int, *,
            highlight: bool = False) -> None:
        """A six-sided die."""


class Art(Protocol):
    """Card faces and backs rendered from the game's templates."""

    def face(self, component: str, row_id: str) -> Any:
        """The rendered face of one card."""

    def back(self, component: str, row_id: str) -> Any:
        """The rendered back of one card."""


class Words(Protocol):
    """Punctuation and words of the edition."""

    @property
    def code(self) -> str:
        """``ja`` or ``en``."""

    @property
    def ja(self) -> bool:
        """True for the Japanese edition."""

    @property
    def list_sep(self) -> str:
        """Between listed values."""

    @property
    def range_sep(self) -> str:
        """Between the ends of a range."""

    @property
    def colon(self) -> str:
        """A label's colon."""

    def choice(self, items: list[str] | tuple[str, ...]) -> str:
        """Alternatives: ``3・4・5`` or ``3, 4 or 5``."""

    def players(self, low: int, high: int) -> str:
        """A player count."""


class Book(Protocol):
    """One builder's view of the book (see :class:`pnp.rulebook.context.BookContext`)."""

    lines: list[str]

    # Read-only: a builder never rebinds them, and as properties the book's
    # own richer types (Lang, CardArt) satisfy these protocols.
    @property
    def game(self) -> "GameData":
        """The game's data."""

    @property
    def lang(self) -> Words:
        """The edition's words."""

    @property
    def art(self) -> Art:
        """Card art rendered from the templates."""

    @property
    def ja(self) -> bool:
        """True for the Japanese edition."""

    @property
    def constants(self) -> Mapping[str, Any]:
        """The manifest's ``[game.constants]``."""

    def t(self, ja: str, en: str) -> str:
        """The text in the edition's language."""

    def term(self, value: Any) -> str:
        """A data value as this edition prints it."""

    def fail(self, message: str) -> "PnpError":
        """An error naming the rules-text line that asked for this content."""

    def engine(self, params: Mapping[str, Any] | None = None) -> Any:
        """The game's rules engine built from this book's data."""

    def row(self, component: str, row_id: str) -> Mapping[str, Any]:
        """The typed values of one card row."""

    def name_of(self, values: Mapping[str, Any]) -> str:
        """A card row's name in the edition's language."""

    def text_of(self, values: Mapping[str, Any]) -> str:
        """A card row's rules text in the edition's language."""

    def scene(self) -> Scene:
        """An empty picture whose labels use the edition's face."""

    def para(self, ja: str, en: str) -> None:
        """A paragraph."""

    def note(self, ja: str, en: str) -> None:
        """A note set apart in a shaded box."""

    def bullets(self, items: Sequence[str], *, ordered: bool = False) -> None:
        """A list of already translated items."""

    def table(self, head: Sequence[str], rows: Sequence[Sequence[Any]], align: str = "") -> None:
        """A table; ``align`` has one letter per column (l, r, c)."""

    def picture(self, scene: Scene, caption: str = "", name: str = "") -> str:
        """Place ``scene`` here with a caption."""
