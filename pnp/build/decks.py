"""`pnp build`: render every printable component of a game into print-ready PDFs."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Iterable

from reportlab.pdfgen.canvas import Canvas

from pnp import PROJECT_ROOT
from pnp.build.context import card_context
from pnp.data import load_game_data, resolve_data_dir, resolve_slugs
from pnp.data.inventory import GameData
from pnp.data.manifest import Component
from pnp.data.tables import Row
from pnp.errors import PnpError
from pnp.printing.calibration import write_calibration
from pnp.printing.sheets import SheetItem, write_card_pages, write_sheets
from pnp.render.draw import FormCache
from pnp.render.fonts import canvas_kwargs
from pnp.render.jinja_env import PnpEnvironment, make_environment
from pnp.render.layout import Layout, render_layout
from pnp.units import mm, to_mm

PAPERS = ("a4", "letter")
LAYOUTS = ("duplex", "gutterfold")
#: Size tolerance between a template's <card> and the manifest (points).
SIZE_TOLERANCE = 0.5

#: Called once per card side rendered (for progress bars).
Progress = Callable[[int], None]


@dataclass(frozen=True)
class BuildOptions:
    """Where to read from, where to write, and how to lay out sheets."""

    paper: str = "a4"
    layout: str = "duplex"
    out_dir: Path = Path("output")
    data_dir: Path | None = None
    templates_dir: Path | None = None
    marks: bool = True
    #: Also write one-card-per-page PDFs for print services (DriveThruCards order).
    print_service: bool = False
    #: Shift of duplex back pages in mm (dx, dy), read off the calibration sheet.
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    #: Also export each game's rulebook (A5 PDF) next to its sheets.
    rulebooks: bool = True


@dataclass
class BuildResult:
    """What a build wrote."""

    files: list[Path] = field(default_factory=list)
    rulebooks: list[Path] = field(default_factory=list)
    faces: int = 0
    skipped: list[str] = field(default_factory=list)


def resolve_templates_dir(templates_dir: Path | None) -> Path:
    """The templates folder: the option, else ./templates, else the checkout's."""
    if templates_dir is not None:
        path = Path(templates_dir)
    elif Path("templates").is_dir():
        path = Path("templates")
    else:
        path = PROJECT_ROOT / "templates"
    if not path.is_dir():
        raise PnpError(f"templates folder {str(path)!r} not found")
    return path


def printable_components(game: GameData) -> list[Component]:
    """Components we print that have a face template."""
    return [c for c in game.manifest.components.values() if c.supply == "print" and c.face]


def component_rows(game: GameData, component: Component) -> list[Row]:
    """The component's rows; a table-less component (identical counters) is one row."""
    if component.table is not None:
        return game.rows[component.id]
    return [Row(line=0, values=MappingProxyType({"id": component.id,
                                                 "qty": component.count}))]


def _check_size(layout: Layout, component: Component, where: str) -> None:
    expected = component.size or (component.diameter, component.diameter)
    if (abs(layout.width - expected[0]) > SIZE_TOLERANCE
            or abs(layout.height - expected[1]) > SIZE_TOLERANCE):
        raise PnpError(
            f"{where}: template {layout.template} draws a "
            f"{to_mm(layout.width):.1f}×{to_mm(layout.height):.1f} mm card but the manifest "
            f"says {to_mm(expected[0]):.1f}×{to_mm(expected[1]):.1f} mm: use "
            "width/height from the context in <card>")


def render_items(env: PnpEnvironment, game: GameData, component: Component,
                 progress: Progress | None = None,
                 only: Iterable[str] | None = None) -> list[tuple[str, SheetItem]]:
    """Render each distinct card once; return (card id, item) per physical copy."""
    wanted = set(only) if only is not None else None
    items: list[tuple[str, SheetItem]] = []
    for row in component_rows(game, component):
        if wanted is not None and row.id not in wanted:
            continue
        where = f"{game.slug}/{component.id} {row.id}"
        front = render_layout(env, component.face or "", card_context(game, component,
                                                                      row, "face"),
                              where=where)
        _check_size(front, component, where)
        back: Layout | None = None
        if component.back:
            # A shared back renders identically for every card; its cache key
            # makes it one form in the PDF either way.
            back = render_layout(env, component.back,
                                 card_context(game, component, row, "back"), where=where)
            _check_size(back, component, where)
        items.extend((row.id, SheetItem(front, back)) for _ in range(row.qty))
        if progress is not None:
            progress(row.qty)
    return items


def _placer() -> Callable[[Canvas, Any, float, float], None]:
    """A place callback that draws layouts through one FormCache per canvas."""
    caches: dict[int, FormCache] = {}

    def place(canvas: Canvas, layout: Any, x: float, y: float) -> None:
        cache = caches.get(id(canvas))
        if cache is None:
            cache = caches[id(canvas)] = FormCache(canvas)
        cache.place(layout, x, y)

    return place


def _ensure_dir(path: Path) -> Path:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PnpError(f"cannot create output folder {path}: {exc.strerror or exc}") from None
    return path


def build_game(env: PnpEnvironment, game: GameData, options: BuildOptions,
               progress: Progress | None = None) -> BuildResult:
    """Write the sheets of every printable component of ``game``."""
    result = BuildResult()
    components = printable_components(game)
    if not components:
        result.skipped.append(f"{game.slug}: no layout templates yet")
        return result
    out = _ensure_dir(options.out_dir / game.slug)
    suffix = options.paper + ("" if options.layout == "duplex" else f"-{options.layout}")
    offset = (mm(options.back_offset_mm[0]), mm(options.back_offset_mm[1]))
    for component in components:
        items = [item for _, item in render_items(env, game, component, progress)]
        if not items:  # every qty is 0: nothing to print, no empty PDF
            result.skipped.append(f"{game.slug}/{component.id}: no cards (every qty is 0)")
            continue
        first = items[0].front
        size = component.size or (component.diameter, component.diameter)
        title = f"{game.manifest.title} — {component.name} ({component.name_ja})"
        path = out / f"{component.id}-{suffix}.pdf"
        write_sheets(path, items, paper=options.paper, layout=options.layout,
                     card_size=size, bleed=first.bleed, place=_placer(), title=title,
                     canvas_kwargs=canvas_kwargs(), marks=options.marks,
                     label=f"{game.manifest.title} {component.name}",
                     back_offset=offset)
        result.files.append(path)
        result.faces += len(items)
        if options.print_service:
            service = _ensure_dir(out / "print-service")
            spath = service / f"{component.id}.pdf"
            write_card_pages(spath, items, card_size=size, place=_placer(), title=title,
                             canvas_kwargs=canvas_kwargs())
            result.files.append(spath)
    return result


def count_faces(games: list[GameData]) -> int:
    """Physical cards to render across ``games`` (progress bar length)."""
    return sum(sum(r.qty for r in component_rows(g, c)) for g in games
               for c in printable_components(g))


def load_for_build(slugs: list[str], options: BuildOptions) -> list[GameData]:
    """Load and strictly check the games to build (bad data stops the build)."""
    if options.paper not in PAPERS:
        raise PnpError(f"--paper {options.paper!r}: expected one of {', '.join(PAPERS)}")
    if options.layout not in LAYOUTS:
        raise PnpError(f"--layout {options.layout!r}: expected one of {', '.join(LAYOUTS)}")
    root = resolve_data_dir(options.data_dir)
    return [load_game_data(root, slug, strict=True) for slug in resolve_slugs(root, slugs)]


def build(games: list[GameData], options: BuildOptions,
          progress: Progress | None = None) -> BuildResult:
    """Build every game in ``games`` plus the duplex calibration sheet."""
    env = make_environment(resolve_templates_dir(options.templates_dir))
    total = BuildResult()
    for game in games:
        part = build_game(env, game, options, progress)
        total.files.extend(part.files)
        total.faces += part.faces
        total.skipped.extend(part.skipped)
        if options.rulebooks:
            from pnp.rulebook.cli import export_rulebooks

            total.rulebooks.extend(export_rulebooks([game.slug], out_dir=options.out_dir,
                                                    data_dir=options.data_dir))
    if total.files and options.layout == "duplex":
        calibration = _ensure_dir(options.out_dir) / f"calibration-{options.paper}.pdf"
        write_calibration(calibration, options.paper)
        total.files.append(calibration)
    return total
