"""`pnp build`: render every printable component of a game for each chosen print profile.

Each card side is rendered once per game; every profile (home sheets, print
services, Tabletop Simulator; see :mod:`pnp.printing.profiles`) then lays
out the same layouts. Sheet layouts and ``--back-offset`` are planned and
checked for every game before any file is written, so bad options stop the
build with one line and no files.

A build of one home-sheet profile (plain ``pnp build``) streams instead:
each sheet file is drawn while its cards are rendered, a few cards held at
a time, and the drawn files are written only once every card of every game
has rendered, so memory stays nearly flat as decks grow and a bad card
still leaves no file. A back template that never reads ``card`` is rendered
once per deck (:func:`reads_card`). Card sides go through the build's caches
across runs (:mod:`pnp.builder.markup_cache`): a side whose inputs did not
change since an earlier build is neither rendered nor laid out again, and a
whole sheet file none of whose inputs changed is written from the sheet
cache (:mod:`pnp.builder.sheet_cache`) without drawing it.
"""

from __future__ import annotations

import pickle
import re
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import CodeType
from typing import TYPE_CHECKING, Callable, Iterable, Protocol, overload

from reportlab.pdfgen.canvas import Canvas

from pnp.builder.cards import (check_templates, component_rows, component_size, is_round,
                             is_sticker, kit_components, print_kind, printable_components,
                             resolve_templates_dir)
from pnp.builder.context import card_context
from pnp.builder.markup_cache import use_build_caches
from pnp.builder.sheet_cache import SheetStore, open_sheet_store
from pnp.data import load_game_data, resolve_data_dir, resolve_slugs
from pnp.data.inventory import GameData
from pnp.data.manifest import Component
from pnp.data.tables import Row
from pnp.errors import PnpError
from pnp.fileio import write_bytes_atomic
from pnp.printing.calibration import write_calibration
from pnp.printing.forms import placer
from pnp.printing.imposition import PagePlan, SheetLayout, bleed_by_side, compute_layout
from pnp.printing.packing import Piece, pack_label_sheets, pack_pieces
from pnp.printing.png_store import PngStore, open_png_store
from pnp.printing.profiles import Profile, ProfileTable, load_profiles
from pnp.printing.output import pending_canvas, save_pending
from pnp.printing.sheets import (SheetItem, check_back_offset, draw_pages, grid_sheets,
                                 write_pages)
from pnp.render.fonts import canvas_kwargs
from pnp.render.jinja_env import PnpEnvironment, make_environment
from pnp.render.layout import Layout, layout_of_markup, render_layout
from pnp.render.nodes import draws_image
from pnp.units import mm, to_mm

if TYPE_CHECKING:
    # (imported where used: a plain home-sheet build never needs the print-service
    # exports, and loading them costs it a thread pool module)
    from pnp.printing.service import ServiceCard

#: Size tolerance between a template's <card> and the manifest (points).
SIZE_TOLERANCE = 0.5
#: File stem of the shared sheet of a game's tokens and boards.
SMALL_PARTS = "small-parts"
#: File stem of a game's stickers: a file of their own, printed on label paper.
STICKERS = "stickers"
#: A service export notes when the art's edge is stretched further than this (mm).
STRETCH_NOTE_MM = 1.0

#: Called with the number of physical cards done (for progress bars).
Progress = Callable[[int], None]


@dataclass(frozen=True)
class BuildOptions:
    """Where to read from, where to write, and which print profiles to build.

    ``presets`` names rows of the profiles table; when empty, ``paper`` and
    ``layout`` (the older flags) pick the home-sheet profile, and
    ``print_service`` adds ``drivethru``.
    """

    paper: str = "a4"
    layout: str = "duplex"
    out_dir: Path = Path("output")
    data_dir: Path | None = None
    templates_dir: Path | None = None
    marks: bool = True
    #: Also write one-card-per-page PDFs (shorthand for ``--preset drivethru``).
    print_service: bool = False
    #: Shift of duplex back pages in mm (dx, dy), read off the calibration sheet.
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    #: Profile names (``pnp build --preset NAME``, repeatable).
    presets: tuple[str, ...] = ()
    #: A user's TOML with more profile rows (``--profiles FILE``).
    profiles_file: Path | None = None
    #: Where TTS should load images from once uploaded (default: file:/// URLs).
    tts_base_url: str | None = None
    #: Also print what a player can buy (``supply = "buy"``: standard decks);
    #: ``pnp build --no-bought`` leaves it out.
    bought: bool = True
    #: Only these component ids (``pnp watch`` rewrites the decks that changed).
    only: tuple[str, ...] = ()

    def kit(self, game: GameData) -> list[Component]:
        """Return the components of ``game`` this build prints (player aids included)."""
        kit = kit_components(game, self.templates_dir, bought=self.bought)
        return [c for c in kit if c.id in self.only] if self.only else kit

    def table(self) -> ProfileTable:
        """Return the profiles table (built-in rows plus ``profiles_file``)."""
        return load_profiles(self.profiles_file)

    def profiles(self) -> list[Profile]:
        """Return the profiles to build, in the order asked, without repeats."""
        table = self.table()
        names = list(self.presets)
        if not names:
            names = [table.sheet_profile(self.paper, self.layout).name]
            if self.print_service:
                names.append("drivethru")
        out: list[Profile] = []
        for name in names:
            profile = table.get(name)
            if profile not in out:
                out.append(profile)
        return out


@dataclass(frozen=True)
class BleedNote:
    """How much bleed the cut edges of one home-sheet file got (see :func:`bleed_note`)."""

    #: The print profile (preset) name.
    profile: str
    #: The one-line detail: layout, sheets, bleed per side, edges under ``min_bleed``.
    detail: str
    #: Cut edges with less than the profile's ``min_bleed``, of ``edges``.
    short: int
    edges: int
    #: The profile's min_bleed in mm.
    min_bleed_mm: float
    #: A preset of the same paper and layout that gives every edge min_bleed.
    better: str | None = None


@dataclass
class BuildResult:
    """What a build wrote, and what it has to tell the user."""

    files: list[Path] = field(default_factory=list)
    rulebooks: list[Path] = field(default_factory=list)
    faces: int = 0
    skipped: list[str] = field(default_factory=list)
    #: What the user should read: stretched art, offsets that cost bleed.
    notes: list[str] = field(default_factory=list)
    #: Per home-sheet file and profile: layout and bleed per edge (summed up
    #: per profile by :func:`bleed_summary`; each shown by ``pnp build -v``).
    bleed: list[BleedNote] = field(default_factory=list)
    #: (profile, game, component) -> files written for it.
    outputs: dict[tuple[str, str, str], list[Path]] = field(default_factory=dict)

    def add(self, profile: str, slug: str, component: str, paths: Iterable[Path]) -> None:
        """Record files written for one component under one profile."""
        paths = list(paths)
        self.files.extend(paths)
        self.outputs.setdefault((profile, slug, component), []).extend(paths)

    def merge(self, other: "BuildResult") -> None:
        """Add ``other``'s files, counts and messages to this result."""
        self.files.extend(other.files)
        self.rulebooks.extend(other.rulebooks)
        self.faces += other.faces
        self.skipped.extend(other.skipped)
        self.notes.extend(other.notes)
        self.bleed.extend(other.bleed)
        for key, paths in other.outputs.items():
            self.outputs.setdefault(key, []).extend(paths)


def _check_size(layout: Layout, component: Component, where: str) -> None:
    expected = component_size(component)
    if (abs(layout.width - expected[0]) > SIZE_TOLERANCE
            or abs(layout.height - expected[1]) > SIZE_TOLERANCE):
        raise PnpError(
            f"{where}: template {layout.template} draws a "
            f"{to_mm(layout.width):.1f}×{to_mm(layout.height):.1f} mm card but the manifest "
            f"says {to_mm(expected[0]):.1f}×{to_mm(expected[1]):.1f} mm: use "
            "width/height from the context in <card>")


def render_card(env: PnpEnvironment, game: GameData, component: Component, row: Row,
                shared: dict[str, Layout | None] | None = None
                ) -> tuple[Layout, Layout | None]:
    """Render one card's face and back (None without a back template); check their size.

    ``shared`` (one dict per component and build) keeps a back that never
    reads ``card`` (:func:`reads_card`): it is the same for every card of the
    component, so it is rendered once.
    """
    where = f"{game.slug}/{component.id} {row.id}"
    front = render_side(env, game, component, row, "face", where)
    _check_size(front, component, where)
    back: Layout | None = None
    if component.back:
        back = shared.get(component.back) if shared is not None else None
        if back is None:
            # identical backs also share one cache key, so one PDF form
            back = render_side(env, game, component, row, "back", where)
            _check_size(back, component, where)
            if shared is not None and component.back not in shared:
                # asked once per deck; None: it reads the card, render it each time
                shared[component.back] = (None if reads_card(env, component.back)
                                          else back)
    return front, back


def render_side(env: PnpEnvironment, game: GameData, component: Component, row: Row,
                side: str, where: str) -> Layout:
    """Render and lay out one side of a card, through the build's markup cache if it has one.

    With a markup cache, the fitted layout is kept on disk (the layout store)
    only for markup seen before: a card side rendered for the first time goes
    into a sheet file that the sheet cache keeps whole, so its layout is
    needed again only if that sheet is drawn anew (another card of its deck
    edited), and is kept then. A cold build thus pickles no layouts.
    """
    template = (component.face if side == "face" else component.back) or ""
    store = env.markup_store
    if store is None:
        return render_layout(env, template, card_context(game, component, row, side),
                             where=where)
    key = _side_key(env, game, component, row, side)
    cached = store.get(key)
    if cached is not None:
        return layout_of_markup(env, template, cached, where=where)
    return render_layout(env, template, card_context(game, component, row, side), where=where,
                         on_markup=lambda markup: store.put(key, markup), keep=False)


def _side_key(env: PnpEnvironment, game: GameData, component: Component, row: Row,
              side: str) -> str:
    """The markup cache key of one card side, computed once per build (``env`` has a store).

    The sheet cache asks for every key of a sheet before drawing it, and
    drawing asks again for each side it renders.
    """
    store = env.markup_store
    assert store is not None
    known = store.sides.get((id(row), side))
    if known is not None and known[0] is row and known[1] is component:
        return known[2]
    template = (component.face if side == "face" else component.back) or ""
    key = _markup_key(env, game, template, card_context(game, component, row, side))
    store.sides[(id(row), side)] = (row, component, key)
    return key


def _markup_key(env: PnpEnvironment, game: GameData, template: str,
                context: dict[str, object]) -> str:
    """The markup cache key of one card side (``env`` must have a markup store)."""
    store = env.markup_store
    assert store is not None
    return store.key(game, template, context,
                     tables=store.reads(template, lambda: reads_card(env, template, var="tables")))


def side_keys(env: PnpEnvironment, game: GameData, component: Component,
              row: Row) -> tuple[str, str | None] | None:
    """The markup cache keys of a card's face and back; None without a markup cache.

    What the sheet cache (:mod:`pnp.builder.sheet_cache`) knows a card side by.
    """
    if env.markup_store is None:
        return None
    face = _side_key(env, game, component, row, "face")
    back = _side_key(env, game, component, row, "back") if component.back else None
    return face, back


#: (template name, source, compiled code, variable) -> whether the template itself
#: may read the variable (``card``), and the templates it pulls in with the context.
_READS_CARD: dict[tuple[str, str, CodeType, str], tuple[bool, tuple[str, ...]]] = {}
#: A tag that names another template: its kind and the rest of the tag.
_TEMPLATE_TAG = re.compile(r"\{%[-+]?\s*(include|import|from|extends)\s+(.*?)[-+]?%\}", re.S)
_LITERAL = re.compile(r"""^(["'])([^"']+)\1""")
_WITH_CONTEXT = re.compile(r"\bwith\s+context\b")


def _constants(code: CodeType, out: set[str]) -> set[str]:
    """Collect the string constants of ``code`` and of the functions (macros) inside it."""
    for value in code.co_consts:
        if isinstance(value, str):
            out.add(value)
        elif isinstance(value, CodeType):
            _constants(value, out)
    return out


def reads_card(env: PnpEnvironment, name: str, _open: frozenset[str] = frozenset(), *,
               var: str = "card") -> bool:
    """Return False only if template ``name``, and every template it names, never reads ``card``.

    The other values a card side gets (game, component, size, tables) are
    the same for every card of a component, so such a template renders the
    same markup for each. Jinja compiles every name a template reads into a
    string constant of its code, so a template whose code (macros included)
    has no constant ``"card"`` cannot read it; templates it includes or
    extends, or imports ``with context``, are checked the same way (a plain
    import gets no context: its macros see ``card`` only as an argument, and
    passing it is a read here). Anything unclear (a computed template name,
    a template that cannot be loaded, one that includes itself) counts as
    reading ``card``. Results are kept per compiled code, so an edited
    template (``pnp watch``) is looked at again. ``var`` asks the same about
    another context value (the build's markup cache asks about ``tables``).
    """
    if name in _open:
        return True
    try:
        template = env.get_template(name)
        assert env.loader is not None
        source = env.loader.get_source(env, name)[0]
    except Exception:  # rendering reports the real problem, with its line
        return True
    code = template.root_render_func.__code__
    local = _READS_CARD.get((name, source, code, var))
    if local is None:
        local = _own_reads(source, code, var)
        if len(_READS_CARD) > 256:
            _READS_CARD.clear()
        _READS_CARD[(name, source, code, var)] = local
    reads, pulled = local
    # the templates it pulls in are checked each time: one may have changed alone
    return reads or any(reads_card(env, other, _open | {name}, var=var) for other in pulled)


def _own_reads(source: str, code: CodeType, var: str = "card") -> tuple[bool, tuple[str, ...]]:
    """Whether a template itself may read ``var``, and the templates whose reads count too."""
    if var in _constants(code, set()):
        return True, ()
    pulled: list[str] = []
    for tag in _TEMPLATE_TAG.finditer(source):
        kind, rest = tag.group(1), tag.group(2).strip()
        literal = _LITERAL.match(rest)
        if literal is None:
            return True, ()  # a computed name: we cannot tell what it reads
        if kind in ("include", "extends") or _WITH_CONTEXT.search(rest):
            # these see the card's context; a plain import does not
            pulled.append(literal.group(2))
    return False, tuple(pulled)


def render_cards(env: PnpEnvironment, game: GameData, component: Component,
                 progress: Progress | None = None,
                 only: Iterable[str] | None = None) -> list[ServiceCard]:
    """Render each distinct card of ``component`` once; rows with qty 0 are left out."""
    from pnp.printing.service import ServiceCard

    wanted = set(only) if only is not None else None
    cards: list[ServiceCard] = []
    shared: dict[str, Layout | None] = {}
    for row in component_rows(game, component):
        if wanted is not None and row.id not in wanted:
            continue
        front, back = render_card(env, game, component, row, shared)
        if row.qty > 0:
            cards.append(ServiceCard(row.id, row.qty, front, back,
                                     _image_keys(env, game, component, row, front, back)))
        if progress is not None:
            progress(row.qty)
    return cards


class _CardsOnDemand(Sequence[SheetItem]):
    """The physical cards of some components, each rendered when a sheet first needs it.

    Item ``i`` is the i-th physical copy in table order. A few recently
    rendered cards are kept (a duplex sheet reads each card twice: front page,
    back page); older ones are dropped once drawn, so memory does not grow
    with the number of distinct cards. :meth:`validate_rest` renders the rows
    no sheet used (qty 0, kinds the profile does not print), so a bad card
    anywhere still stops the build.
    """

    #: Distinct cards kept rendered: more than the cards on one sheet.
    KEEP = 64

    def __init__(self, env: PnpEnvironment, game: GameData, components: Iterable[Component],
                 progress: Progress | None) -> None:
        """Index the printed rows of ``components`` (nothing rendered yet)."""
        self._env, self._game, self._progress = env, game, progress
        self._rows = [(c, r) for c in components for r in component_rows(game, c)
                      if r.qty > 0]
        self._starts: list[int] = []
        total = 0
        for _, row in self._rows:
            self._starts.append(total)
            total += row.qty
        self._len = total
        self._kept: OrderedDict[int, SheetItem] = OrderedDict()
        self._shared: dict[str, dict[str, Layout | None]] = {}
        self.rendered: set[tuple[str, str]] = set()
        #: Whether a rendered card draws a raster image (its sheet is then not cached).
        self.images = False

    def __len__(self) -> int:
        """Number of physical cards."""
        return self._len

    @overload
    def __getitem__(self, i: int) -> SheetItem: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[SheetItem]: ...

    def __getitem__(self, i: int | slice) -> SheetItem | Sequence[SheetItem]:
        """The physical card ``i`` (rendered now if it is not kept)."""
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self._len))]
        if not 0 <= i < self._len:
            raise IndexError(i)
        k = bisect_right(self._starts, i) - 1
        item = self._kept.get(k)
        if item is not None:
            self._kept.move_to_end(k)
            return item
        component, row = self._rows[k]
        item = SheetItem(*render_card(self._env, self._game, component, row,
                                      self._shared.setdefault(component.id, {})))
        key = (component.id, row.id)
        if key not in self.rendered:
            self.rendered.add(key)
            self.images = self.images or _draws_image(item)
            if self._progress is not None:
                self._progress(row.qty)
        self._kept[k] = item
        if len(self._kept) > self.KEEP:
            self._kept.popitem(last=False)
        return item

    def validate_rest(self, components: Iterable[Component]) -> None:
        """Render (and drop) every row of ``components`` not rendered for a sheet."""
        for component in components:
            for row in component_rows(self._game, component):
                if (component.id, row.id) not in self.rendered:
                    render_card(self._env, self._game, component, row,
                                self._shared.setdefault(component.id, {}))
                    self.rendered.add((component.id, row.id))
                    if self._progress is not None:
                        self._progress(row.qty)


def _image_keys(env: PnpEnvironment, game: GameData, component: Component, row: Row,
                front: Layout, back: Layout | None) -> tuple[str | None, str | None]:
    """A card's face and back keys for the image cache (None: that side is not kept).

    A side's markup key pins what it draws, except the pixels of a raster
    image it places (:mod:`pnp.printing.png_store`).
    """
    keys = side_keys(env, game, component, row)
    if keys is None:
        return None, None
    return (None if draws_image(front.nodes) else keys[0],
            None if back is None or draws_image(back.nodes) else keys[1])


def _draws_image(item: SheetItem) -> bool:
    """Whether a card's face or back draws a raster image."""
    return draws_image(item.front.nodes) or (item.back is not None
                                            and draws_image(item.back.nodes))


def _sheet_key(store: SheetStore, env: PnpEnvironment, game: GameData, profile: Profile,
               plan: SheetPlan, path: Path, options: BuildOptions, *parts: str) -> str | None:
    """The sheet cache key of one sheet file; None if a card side has no markup key.

    ``parts`` describe how the file is drawn (titles, label font, offset).
    """
    sides: list[tuple[int, str, str | None]] = []
    for component in plan.components:
        for row in component_rows(game, component):
            if row.qty > 0:
                keys = side_keys(env, game, component, row)
                if keys is None:
                    return None
                sides.append((row.qty, *keys))
    # the plan pickled: three times faster than its repr, and equal pickles are
    # equal plans (an equal plan pickled otherwise would only cost a miss)
    return store.key([repr(profile), path.name, repr(options.marks),
                      pickle.dumps(plan.layout, protocol=5),
                      pickle.dumps(plan.sheets, protocol=5), *parts], sides)


def render_items(env: PnpEnvironment, game: GameData, component: Component,
                 progress: Progress | None = None,
                 only: Iterable[str] | None = None) -> list[tuple[str, SheetItem]]:
    """Render each distinct card once; return (card id, item) per physical copy."""
    return [(c.id, SheetItem(c.front, c.back)) for c in
            render_cards(env, game, component, progress, only) for _ in range(c.qty)]


def _ensure_dir(path: Path) -> Path:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PnpError(f"cannot create output folder {path}: {exc.strerror or exc}") from None
    return path


def _qty(game: GameData, component: Component) -> int:
    """Return the physical pieces of ``component`` (sum of qty)."""
    return sum(r.qty for r in component_rows(game, component))


def _accepts(profile: Profile, component: Component) -> bool:
    """Return True if ``profile`` prints components of this kind (a printed deck is cards).

    Stickers are stuck on a physical bought card, so only home sheets print
    them (on label paper); a card service or Tabletop Simulator has no use for them.
    """
    if is_sticker(component) and profile.output != "sheets":
        return False
    return print_kind(component) in profile.kinds


def _refusal(profile: Profile, component: Component, otherwise: str | None = None) -> str:
    """Say why ``profile`` leaves ``component`` out (for the ``skipped`` line).

    A sticker gets the sticker text; any other component ``otherwise``, by
    default that ``profile`` does not print its kind.
    """
    if is_sticker(component):
        return (f"stickers go on a bought deck's cards; {profile.name} has no use for them "
                "(the home sheets print them on their own sheet, for label paper)")
    return otherwise if otherwise is not None else \
        f"{profile.name} does not print a {component.kind}"


def _faceless(game: GameData) -> list[str]:
    """Return a ``skipped`` line for each component we make but cannot draw (no face).

    A build says so rather than leave such a component out quietly.
    """
    return [f"{game.slug}/{c.id}: no face template in the manifest "
            "(face = \"<game>/<name>.xml.j2\"), so it is not printed"
            for c in game.manifest.components.values()
            if c.face is None and c.supply == "print"]


# --------------------------------------------------------------------------
# planning (no files written)


@dataclass(frozen=True)
class SheetPlan:
    """The planned sheets of one file: a card deck, or the game's small parts."""

    stem: str
    components: tuple[Component, ...]
    layout: SheetLayout | None
    sheets: list[list[PagePlan]]


def plan_game_sheets(game: GameData, profile: Profile, marks: bool,
                     components: list[Component] | None = None) -> list[SheetPlan]:
    """Return the sheet files ``profile`` makes for ``game`` (layouts, pages; no drawing).

    Card decks get a grid each; tokens and boards of the game share
    :data:`SMALL_PARTS` sheets (issue 9 item 4). Stickers get a file of
    their own, :data:`STICKERS`, one-sided, to print on label paper: on the
    small-parts sheet they shared a page with the boards meant for card stock.
    """
    plans: list[SheetPlan] = []
    small: list[Component] = []
    stickers: list[Component] = []
    for component in components if components is not None else printable_components(game):
        if not _accepts(profile, component) or _qty(game, component) == 0:
            continue
        if is_sticker(component):
            stickers.append(component)
            continue
        if print_kind(component) != "card":
            small.append(component)
            continue
        lay = _sheet_layout(profile, component_size(component), marks and profile.marks)
        plans.append(SheetPlan(component.id, (component,), lay,
                               grid_sheets(lay, _qty(game, component))))
    draw_marks = marks and profile.marks
    if small:
        sheets = pack_pieces(profile.paper, _pieces(game, small), kind=profile.layout,
                             bleed=profile.bleed, marks=draw_marks,
                             mark_length=profile.mark_length, margin=profile.margin)
        plans.append(SheetPlan(SMALL_PARTS, tuple(small), None, sheets))
    if stickers:
        sheets = pack_label_sheets(profile.paper, _pieces(game, stickers),
                                   bleed=profile.bleed, marks=draw_marks,
                                   mark_length=profile.mark_length, margin=profile.margin)
        plans.append(SheetPlan(STICKERS, tuple(stickers), None, sheets))
    return plans


def _pieces(game: GameData, components: list[Component]) -> list[Piece]:
    """Return one packing piece per physical copy of ``components``, in order."""
    pieces: list[Piece] = []
    for component in components:
        w, h = component_size(component)
        shape = "circle" if is_round(component) else "rect"
        for row in component_rows(game, component):
            for _ in range(row.qty):
                pieces.append(Piece(len(pieces), w, h, shape, f"{game.slug}/{component.id}"))
    return pieces


#: Sheet layouts already computed in this process, by every argument (see _sheet_layout).
_LAYOUTS: dict[tuple[object, ...], SheetLayout] = {}


def _sheet_layout(profile: Profile, size: tuple[float, float], marks: bool) -> SheetLayout:
    """``compute_layout`` for cards of ``size`` under ``profile``, once per process.

    Most decks share a card size, and a layout (a frozen value computed from
    these arguments alone) took a good part of planning every build, warm
    builds included.
    """
    from pnp.printing.papers import get_paper

    try:
        # the paper by its size, not its name: a name means what the table says now
        args: tuple[object, ...] = (
            get_paper(profile.paper), size, profile.layout, profile.bleed, marks,
            profile.mark_length, profile.margin, profile.min_bleed, profile.priority,
            profile.gutter)
        hit = _LAYOUTS.get(args)
    except (PnpError, TypeError):   # compute_layout says what is wrong, in its order
        hit, args = None, ()
    if hit is None:
        hit = compute_layout(profile.paper, size, kind=profile.layout, bleed=profile.bleed,
                             marks=marks, mark_length=profile.mark_length,
                             margin=profile.margin, min_bleed=profile.min_bleed,
                             priority=profile.priority, gutter=profile.gutter)
        if args:
            if len(_LAYOUTS) > 64:
                _LAYOUTS.clear()
            _LAYOUTS[args] = hit
    return hit


def bleed_note(game: GameData, profile: Profile, plan: SheetPlan,
               better: str | None = None) -> BleedNote:
    """Return the layout and the bleed each cut edge of one sheet file got."""
    slots = [s for sheet in plan.sheets for page in sheet for s in page.slots
             if s.side == "front"]
    sides = bleed_by_side(slots)

    def span(side: str) -> str:
        lo, hi = sides[side]
        return f"{lo:g}" if lo == hi else f"{lo:g}-{hi:g}"

    edges = [getattr(s.bleed, side) for s in slots for side in ("left", "right", "bottom", "top")]
    short = sum(1 for e in edges if e < profile.min_bleed - 1e-6)
    where = f"{game.slug}/{plan.stem}"
    if plan.layout is not None:
        lay = plan.layout
        head = (f"{lay.per_sheet} a sheet ({lay.columns}x{lay.rows} {lay.paper.name} "
                f"{lay.paper.orientation})")
    else:
        names = ", ".join(c.id for c in plan.components)
        head = f"shared sheet of {names}"
    tail = (f"every edge >= {to_mm(profile.min_bleed):g}" if not short else
            f"{short} of {len(edges)} edges under {to_mm(profile.min_bleed):g} mm"
            + (f" (--preset {better} gives every edge {to_mm(profile.min_bleed):g} mm)"
               if better else ""))
    detail = (f"{where} [{profile.name}]: {head}, {len(plan.sheets)} sheet(s); bleed mm left "
              f"{span('left')}, right {span('right')}, top {span('top')}, bottom "
              f"{span('bottom')}; {tail}")
    return BleedNote(profile.name, detail, short, len(edges),
                     round(to_mm(profile.min_bleed), 6), better)


def bleed_summary(notes: Sequence[BleedNote]) -> list[str]:
    """Return one line per profile summing up ``notes``, in the order profiles first appear.

    A default build has some thirty sheet files; a line for each read as
    noise, so ``pnp build`` shows these lines and ``pnp build -v`` the details.
    """
    by_profile: dict[str, list[BleedNote]] = {}
    for note in notes:
        by_profile.setdefault(note.profile, []).append(note)
    lines = []
    for name, group in by_profile.items():
        least = group[0].min_bleed_mm
        short = [n for n in group if n.short]
        if not short:
            lines.append(f"{name}: every cut edge of the {len(group)} sheet file(s) has at "
                         f"least {least:g} mm of bleed (-v: each file's layout)")
            continue
        better = next((n.better for n in short if n.better), None)
        lines.append(
            f"{name}: {len(short)} of {len(group)} sheet file(s) have cut edges under "
            f"{least:g} mm of bleed ({sum(n.short for n in short)} of "
            f"{sum(n.edges for n in group)} edges)"
            + (f"; --preset {better} gives every edge {least:g} mm" if better else "")
            + " (-v: each file's layout and bleed)")
    return lines


def plan_build(games: list[GameData], options: BuildOptions
               ) -> dict[tuple[str, str], list[SheetPlan]]:
    """Plan every sheet file of every game and profile; check ``--back-offset`` on each.

    Raises PnpError (one line) before anything is written.
    """
    profiles = options.profiles()
    offset = options.back_offset_mm
    sheet_profiles = [p for p in profiles if p.output == "sheets"]
    if offset != (0.0, 0.0) and not any(p.layout == "duplex" for p in sheet_profiles):
        check_back_offset([], offset, "this build")  # finite/limit checks, then refuses
    plans: dict[tuple[str, str], list[SheetPlan]] = {}
    for game in games:
        for profile in sheet_profiles:
            plan = plan_game_sheets(game, profile, options.marks, options.kit(game))
            if profile.layout == "duplex":
                for p in plan:
                    check_back_offset(p.sheets, offset,
                                      f"{game.slug}/{profile.sheet_file(p.stem)}")
            plans[(game.slug, profile.name)] = plan
    return plans


# --------------------------------------------------------------------------
# writing


def _write_sheet_files(game: GameData, profile: Profile, plans: list[SheetPlan],
                       cards: dict[str, list[ServiceCard]], options: BuildOptions,
                       result: BuildResult, progress: Progress | None,
                       env: PnpEnvironment | None = None,
                       sheet_store: SheetStore | None = None) -> None:
    """Write the home-sheet PDFs of one game for one profile (through ``sheet_store``)."""
    out = _ensure_dir(options.out_dir / game.slug)
    offset = (mm(options.back_offset_mm[0]), mm(options.back_offset_mm[1])) \
        if profile.layout == "duplex" else (0.0, 0.0)
    for plan in plans:
        items = [SheetItem(c.front, c.back) for comp in plan.components
                 for c in cards[comp.id] for _ in range(c.qty)]
        path = out / profile.sheet_file(plan.stem)
        title, label = _sheet_titles(game, plan)
        key = (_sheet_key(sheet_store, env, game, profile, plan, path, options, "write_pages",
                          title, label, repr(offset))
               if sheet_store is not None and env is not None else None)
        hit = sheet_store.get(key, 0) if sheet_store is not None and key else None
        if hit is not None:
            write_bytes_atomic(path, hit[1])
        else:
            write_pages(path, plan.sheets, items, place=placer(), title=title,
                        canvas_kwargs=canvas_kwargs(), label=label, back_offset=offset)
            if (sheet_store is not None and key
                    and not any(_draws_image(i) for i in items)):
                sheet_store.put(key, [], path)
        _sheet_done(game, profile, plan, path, len(items), options, result, progress)


def _sheet_titles(game: GameData, plan: SheetPlan) -> tuple[str, str]:
    """The PDF title and the under-grid label of one sheet file."""
    if plan.layout is not None:
        comp = plan.components[0]
        return (f"{game.manifest.title} — {comp.name} ({comp.name_ja})",
                f"{game.manifest.title} {comp.name}")
    what = "stickers" if plan.stem == STICKERS else "small parts"
    return (f"{game.manifest.title} — {what}",
            f"{game.manifest.title} " + ", ".join(c.name for c in plan.components))


def _sheet_done(game: GameData, profile: Profile, plan: SheetPlan, path: Path, n_items: int,
                options: BuildOptions, result: BuildResult, progress: Progress | None) -> None:
    """Record one sheet file: offset and bleed notes, the file, faces, progress."""
    if profile.layout == "duplex":
        result.notes.extend(check_back_offset(plan.sheets, options.back_offset_mm,
                                              f"{game.slug}/{path.name}"))
    result.bleed.append(bleed_note(game, profile, plan, _better(profile, options)))
    for comp in plan.components:
        result.add(profile.name, game.slug, comp.id, [path])
    result.faces += n_items
    if progress is not None:
        progress(n_items)


@dataclass
class _Drawn:
    """One sheet file ready to write: a drawn canvas, or the sheet cache's bytes."""

    path: Path
    canvas: Canvas | None
    pdf: bytes | None = None
    #: The sheet cache key to keep the written file under (None: not kept).
    key: str | None = None
    #: The progress steps its drawing made (kept with the file).
    steps: list[int] = field(default_factory=list)


def _draw_game_sheets(env: PnpEnvironment, game: GameData, profile: Profile,
                      plans: list[SheetPlan], options: BuildOptions,
                      progress: Progress | None,
                      sheet_store: SheetStore | None = None) -> tuple[BuildResult, list[_Drawn]]:
    """Render ``game``'s cards as its sheets need them and draw the sheets (nothing written).

    Returns what the build will have written and the drawn canvases, to be
    saved with :func:`pnp.printing.output.save_pending` once every game
    rendered. Every card of the kit is rendered (bad cards stop the build),
    but only a few are held at a time. A sheet found in ``sheet_store``
    (every input unchanged since an earlier build) is neither rendered nor
    drawn: its cards rendered without error then, and would now.
    """
    result = BuildResult()
    components = options.kit(game)
    result.skipped.extend(_faceless(game))
    if not components:
        result.skipped.append(f"{game.slug}: no layout templates yet")
        return result, []
    drawn: list[_Drawn] = []
    rendered: set[tuple[str, str]] = set()
    out = options.out_dir / game.slug
    offset = (mm(options.back_offset_mm[0]), mm(options.back_offset_mm[1])) \
        if profile.layout == "duplex" else (0.0, 0.0)
    named = canvas_kwargs().get("initialFontName")
    font = named if isinstance(named, str) else None
    for plan in plans:
        path = out / profile.sheet_file(plan.stem)
        title, label = _sheet_titles(game, plan)
        key = (_sheet_key(sheet_store, env, game, profile, plan, path, options, "draw_pages",
                          title, label, repr(font), repr(offset))
               if sheet_store is not None else None)
        rows = [(c.id, r) for c in plan.components for r in component_rows(game, c)
                if r.qty > 0]
        n_items = sum(r.qty for _, r in rows)
        hit = sheet_store.get(key, n_items) if sheet_store is not None and key else None
        if hit is not None:
            # the same progress steps as drawing it, and its cards count as rendered
            if progress is not None:
                for n in hit[0]:
                    progress(n)
            drawn.append(_Drawn(path, None, hit[1]))
            rendered |= {(cid, r.id) for cid, r in rows}
            _sheet_done(game, profile, plan, path, n_items, options, result, progress)
            continue
        steps: list[int] = []

        def step(n: int) -> None:
            """Forward a progress step, and note it for the sheet cache."""
            steps.append(n)
            if progress is not None:
                progress(n)

        items = _CardsOnDemand(env, game, plan.components, step)
        paper = plan.sheets[0][0].paper
        c = pending_canvas(path, (paper.width, paper.height), title=title,
                           canvas_kwargs=canvas_kwargs())
        draw_pages(c, plan.sheets, items, place=placer(), label=label, font=font,
                   back_offset=offset)
        drawn.append(_Drawn(path, c, key=None if items.images else key, steps=steps))
        rendered |= items.rendered
        _sheet_done(game, profile, plan, path, len(items), options, result, progress)
    rest = _CardsOnDemand(env, game, (), progress)
    rest.rendered = rendered
    rest.validate_rest(components)
    # the same messages, in the same order, as build_game's
    printed = [c for c in components if any(r.qty > 0 for r in component_rows(game, c))]
    result.skipped[:0] = [f"{game.slug}/{c.id}: no cards (every qty is 0)"
                          for c in components if c not in printed]
    for component in printed:
        if not _accepts(profile, component):
            _skip(result, profile, game, component, _refusal(profile, component), progress)
    return result, drawn


def _better(profile: Profile, options: BuildOptions) -> str | None:
    """Return a profile of the same paper and layout that puts bleed first, if any."""
    if profile.priority == "bleed":
        return None
    for other in options.table().profiles.values():
        if (other.output == "sheets" and other.priority == "bleed"
                and other.paper == profile.paper and other.layout == profile.layout):
            return other.name
    return None


def _skip(result: BuildResult, profile: Profile, game: GameData, component: Component,
          why: str, progress: Progress | None) -> None:
    """Record a component a profile leaves out, and advance the progress bar past it."""
    result.skipped.append(f"{game.slug}/{component.id} [{profile.name}]: {why}")
    if progress is not None:
        progress(_qty(game, component))


def _write_service(game: GameData, profile: Profile, cards: dict[str, list[ServiceCard]],
                   options: BuildOptions, result: BuildResult,
                   progress: Progress | None, png_store: PngStore | None = None) -> None:
    """Write one game's print-service files (card PDFs or card PNGs) for ``profile``."""
    from pnp.printing.service import (bleed_shortfall, page_geometry, service_product,
                                      write_card_pdf, write_card_pngs)

    folder = options.out_dir / game.slug / profile.out_folder()
    for component in options.kit(game):
        if not cards.get(component.id):
            continue
        if not _accepts(profile, component):
            _skip(result, profile, game, component,
                  _refusal(profile, component,
                           f"a {component.kind}; {profile.name} prints "
                           f"{', '.join(k + 's' for k in profile.kinds)} only (the home "
                           "sheets and tts have it)"), progress)
            continue
        size = component_size(component)
        try:
            product = service_product(profile, size, f"{component.id}")
        except PnpError as exc:
            _skip(result, profile, game, component, exc.message.split(": ", 1)[1], progress)
            continue
        deck = cards[component.id]
        page, trim = page_geometry(profile, product)
        short = max(bleed_shortfall(c.front, trim, page) for c in deck)
        if to_mm(short) > STRETCH_NOTE_MM:
            result.notes.append(f"{game.slug}/{component.id} [{profile.name}]: the design's "
                                f"bleed is {to_mm(short):.1f} mm short of the service's; "
                                "its edge art is stretched to fill it")
        def per_card(n: int) -> None:
            """Forward progress (physical cards)."""
            if progress is not None:
                progress(n)
        if profile.output == "card-pdf":
            path = _ensure_dir(folder) / f"{component.id}.pdf"
            write_card_pdf(path, deck, profile, product,
                           title=f"{game.manifest.title} — {component.name} "
                                 f"({profile.name} {product.name})",
                           canvas_kwargs=canvas_kwargs(), progress=per_card)
            result.add(profile.name, game.slug, component.id, [path])
        else:
            paths = write_card_pngs(folder / component.id, deck, profile, product,
                                    two_sided=component.two_sided, progress=None,
                                    store=png_store)
            result.add(profile.name, game.slug, component.id, paths)
            per_card(sum(c.qty for c in deck))


def _write_tts(game: GameData, profile: Profile, cards: dict[str, list[ServiceCard]],
               options: BuildOptions, result: BuildResult, used_keys: set[int],
               progress: Progress | None, png_store: PngStore | None = None) -> None:
    """Write one game's Tabletop Simulator sheets, images and saved objects."""
    # imported here: it loads Pillow, which PDF-only builds do not need
    from pnp.printing.tts import UrlMaker, export_deck, export_dice, export_tiles

    folder = options.out_dir / game.slug / profile.out_folder()
    urls = UrlMaker(options.out_dir, options.tts_base_url)
    for component in options.kit(game):
        deck = cards.get(component.id)
        if not deck:
            continue
        if not _accepts(profile, component):
            _skip(result, profile, game, component,
                  _refusal(profile, component,
                           f"{profile.name} does not take a {component.kind}"), progress)
            continue
        nickname = f"{game.manifest.title} - {component.name}"
        size = component_size(component)
        if print_kind(component) == "card":
            paths = export_deck(folder, game.slug, component.id, nickname, deck, size,
                                profile, two_sided=component.two_sided, urls=urls,
                                used_keys=used_keys, store=png_store)
        else:
            paths = export_tiles(folder, game.slug, component.id, nickname, deck, size,
                                 is_round(component), profile, urls=urls, store=png_store)
        result.add(profile.name, game.slug, component.id, paths)
        if progress is not None:
            progress(sum(c.qty for c in deck))
    # dice have no layout (not in the kit): TTS's own standard dice, from the
    # manifest's die components; --no-bought leaves bought ones out as it does decks
    for die in game.manifest.components.values():
        if die.kind == "die" and (options.bought or die.supply == "print") \
                and (not options.only or die.id in options.only):
            paths = export_dice(folder, game.slug, die.id,
                                f"{game.manifest.title} - {die.name}", die.sides or 6,
                                die.count, die.note or "")
            result.add(profile.name, game.slug, die.id, paths)


def render_game(env: PnpEnvironment, game: GameData, progress: Progress | None = None,
                components: list[Component] | None = None) -> dict[str, list[ServiceCard]]:
    """Render every printable component of ``game``: component id -> distinct cards."""
    if components is None:
        components = printable_components(game)
    return {c.id: render_cards(env, game, c, progress) for c in components}


def build_game(env: PnpEnvironment, game: GameData, options: BuildOptions,
               progress: Progress | None = None,
               plans: dict[tuple[str, str], list[SheetPlan]] | None = None,
               used_keys: set[int] | None = None,
               cards: dict[str, list[ServiceCard]] | None = None,
               sheet_store: SheetStore | None = None,
               png_store: PngStore | None = None) -> BuildResult:
    """Write every profile's files for ``game`` (plans and rendered cards if given).

    ``sheet_store``: the build's sheet cache (:mod:`pnp.builder.sheet_cache`);
    ``png_store``: its image cache (:mod:`pnp.printing.png_store`).
    """
    result = BuildResult()
    components = options.kit(game)
    result.skipped.extend(_faceless(game))
    if not components:
        result.skipped.append(f"{game.slug}: no layout templates yet")
        return result
    if plans is None:
        plans = plan_build([game], options)
    if cards is None:
        cards = render_game(env, game, progress, components)
    for component in components:
        if not cards[component.id]:  # every qty is 0: nothing to print, no empty file
            result.skipped.append(f"{game.slug}/{component.id}: no cards (every qty is 0)")
    keys = used_keys if used_keys is not None else set()
    for profile in options.profiles():
        if profile.output == "sheets":
            _write_sheet_files(game, profile, plans[(game.slug, profile.name)], cards,
                               options, result, progress, env, sheet_store)
            for component in components:
                if cards[component.id] and not _accepts(profile, component):
                    _skip(result, profile, game, component, _refusal(profile, component),
                          progress)
        elif profile.output in ("card-pdf", "card-png"):
            _write_service(game, profile, cards, options, result, progress, png_store)
        else:
            _write_tts(game, profile, cards, options, result, keys, progress, png_store)
    return result


def count_faces(games: list[GameData], options: BuildOptions | None = None) -> int:
    """Return the progress bar's length: physical cards x (rendering + each profile)."""
    profiles = len(options.profiles()) if options is not None else 1
    kit = options.kit if options is not None else printable_components
    cards = sum(_qty(g, c) for g in games for c in kit(g))
    return cards * (1 + profiles)


def load_for_build(slugs: list[str], options: BuildOptions) -> list[GameData]:
    """Check the options, then load and strictly check the games (bad data stops the build)."""
    profiles = options.profiles()  # unknown preset, paper or layout: one line, first
    url = options.tts_base_url
    if url is not None and not any(p.output == "tts" for p in profiles):
        # the address would go nowhere: a build without Tabletop Simulator files
        raise PnpError(f"--tts-url {url!r}: only the tts preset writes saved objects "
                       "with image addresses; add --preset tts")
    if url is not None and not (url.startswith(("https://", "http://")) and len(url) > 8
                                and " " not in url):
        raise PnpError(f"--tts-url {url!r}: expected a web address such as "
                       "https://example.org/my-game")
    root = resolve_data_dir(options.data_dir)
    games = [load_game_data(root, slug, strict=True) for slug in resolve_slugs(root, slugs)]
    for game in games:
        check_templates(game, options.templates_dir)
    return games


class GameStep(Protocol):
    """A step run after each game's files are written, returning the files it wrote.

    ``pnp build`` passes the rulebook export (:class:`pnp.rulebook.step.RulebookStep`:
    the rulebook layer sits above this one, so it is handed in, never imported).
    """

    def start(self, games: Sequence[GameData]) -> None:
        """Called once the build's input is checked, before any file is written."""

    def __call__(self, game: GameData) -> list[Path]:
        """Do the step for ``game``; return the files written."""

    def close(self) -> None:
        """Called when the build ends, whether it succeeded or not."""


def build(games: list[GameData], options: BuildOptions,
          progress: Progress | None = None, rulebooks: GameStep | None = None) -> BuildResult:
    """Build every game in ``games`` for every profile, plus the duplex calibration sheets.

    Everything that can fail on bad input happens before the first file is
    written: layouts and offsets are planned, then every card of every game
    is rendered (template, markup, icon and text-fit errors), then files
    are written. ``rulebooks``, if given, runs after each game's files are
    written; what it returns is listed in :attr:`BuildResult.rulebooks`. It
    is started once the plans are made (its work may then run beside the
    drawing) and closed when the build ends.
    """
    env = make_environment(resolve_templates_dir(options.templates_dir))
    # Jinja need not check every template's date again on each of the
    # hundreds of renders (`pnp watch` keeps checking). This alone does not
    # pin what is rendered: a template is loaded when first used, so one
    # saved mid-build would be read anew; use_build_caches serves the bytes
    # its keys were made of instead (ConfinedLoader.pin).
    env.auto_reload = False
    use_build_caches(env)
    # whole sheet files are kept only where every card side is markup-cached
    sheet_store = open_sheet_store(canvas_kwargs()) if env.markup_store is not None else None
    plans = plan_build(games, options)
    if rulebooks is None:
        return _build(env, games, options, progress, plans, sheet_store, None)
    rulebooks.start(games)
    try:
        return _build(env, games, options, progress, plans, sheet_store, rulebooks)
    finally:
        rulebooks.close()


def _build(env: PnpEnvironment, games: list[GameData], options: BuildOptions,
           progress: Progress | None, plans: dict[tuple[str, str], list[SheetPlan]],
           sheet_store: SheetStore | None, rulebooks: GameStep | None) -> BuildResult:
    """:func:`build` once the input is planned: every profile's files, then the step's."""
    profiles = options.profiles()
    if len(profiles) == 1 and profiles[0].output == "sheets":
        return _build_sheets_streaming(env, games, options, profiles[0], plans, progress,
                                       sheet_store, rulebooks)
    rendered = [render_game(env, game, progress, options.kit(game)) for game in games]
    # card images (service and TTS presets) are kept where every card side is
    from pnp.builder.serve import code_stamp

    png_store = (open_png_store(code_stamp(), canvas_kwargs())
                 if env.markup_store is not None and any(
                     p.output in ("card-png", "tts") for p in profiles) else None)
    total = BuildResult()
    used_keys: set[int] = set()
    for game, cards in zip(games, rendered):
        total.merge(build_game(env, game, options, progress, plans, used_keys, cards,
                               sheet_store, png_store))
        if rulebooks is not None:
            total.rulebooks.extend(rulebooks(game))
    _write_calibrations(options, total)
    return total


def _write_calibrations(options: BuildOptions, total: BuildResult) -> None:
    """Write the duplex calibration sheet of each paper the build printed duplex on."""
    papers = sorted({p.paper for p in options.profiles()
                     if p.output == "sheets" and p.layout == "duplex"})
    if total.files:
        for paper in papers:
            calibration = _ensure_dir(options.out_dir) / f"calibration-{paper}.pdf"
            write_calibration(calibration, paper)
            total.files.append(calibration)


def _build_sheets_streaming(env: PnpEnvironment, games: list[GameData], options: BuildOptions,
                            profile: Profile, plans: dict[tuple[str, str], list[SheetPlan]],
                            progress: Progress | None,
                            sheet_store: SheetStore | None = None,
                            rulebooks: GameStep | None = None) -> BuildResult:
    """:func:`build` for one home-sheet profile (the default), holding few cards at a time.

    Each card is rendered when its sheet is drawn and dropped soon after; the
    drawn PDFs stay in memory (forms compressed) and are written only when
    every game has rendered, so a bad card still stops the build before
    any file is written. Sheets from ``sheet_store`` are written from its bytes;
    drawn ones are kept there once written.
    """
    drawn = []
    for game in games:
        drawn.append(_draw_game_sheets(env, game, profile,
                                       plans.pop((game.slug, profile.name)), options,
                                       progress, sheet_store))
    total = BuildResult()
    for game, (result, sheets) in zip(games, drawn):
        if sheets:
            _ensure_dir(options.out_dir / game.slug)
        for sheet in sheets:
            if sheet.canvas is not None:
                save_pending(sheet.canvas, sheet.path)
                if sheet_store is not None and sheet.key is not None:
                    sheet_store.put(sheet.key, sheet.steps, sheet.path)
            else:
                assert sheet.pdf is not None
                write_bytes_atomic(sheet.path, sheet.pdf)
        total.merge(result)
        if rulebooks is not None:
            total.rulebooks.extend(rulebooks(game))
    _write_calibrations(options, total)
    return total
