"""A game's data folder loaded whole: manifest, typed tables, and every problem found."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from pnp.data.csvio import read_table
from pnp.data.manifest import Component, Manifest, TomlLines, load_manifest
from pnp.data.rules import check_rule
from pnp.data.suggest import did_you_mean, unknown_name
from pnp.data.tables import Problem, Row, type_rows
from pnp.errors import PnpError
from pnp.fileio import read_user_text
from pnp.project import default_folder, shipped

#: The shipped games' data (the checkout's card_data/ or the installed copy).
DEFAULT_DATA_DIR = shipped("card_data")


@dataclass
class GameData:
    """Everything under ``card_data/<slug>/`` with the problems found while loading."""

    manifest: Manifest
    rows: dict[str, list[Row]] = field(default_factory=dict)
    encodings: dict[str, str] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    #: Components whose count rules were skipped because their rows have faults.
    unchecked: set[str] = field(default_factory=set)

    @property
    def slug(self) -> str:
        """The game's slug."""
        return self.manifest.slug

    def component(self, component: str) -> Component:
        """The component called ``component``; a one-line error with a hint if there is none."""
        try:
            return self.manifest.components[component]
        except KeyError:
            raise PnpError(f"{self.slug}: " + unknown_name(
                "component", component, self.manifest.components)) from None

    def row(self, component: str, card_id: str) -> Row:
        """The table row of card ``card_id`` in ``component`` (a hint on a typo)."""
        self.component(component)
        rows = self.rows.get(component, [])
        for row in rows:
            if row.id == card_id:
                return row
        raise PnpError(f"{self.slug}/{component}: " + unknown_name(
            "card", card_id, [r.id for r in rows]))

    def cards(self, component: str) -> list[Mapping[str, Any]]:
        """One mapping per physical copy of ``component`` (rows expanded by qty)."""
        self.component(component)
        return [row.values for row in self.rows.get(component, []) for _ in range(row.qty)]


def check_folder(path: Path, what: str, hint: str = "") -> Path:
    """Return ``path`` if it is a folder; else a one-line error saying what it is instead."""
    if path.is_dir():
        return path
    if path.exists():
        raise PnpError(f"{what} {str(path)!r} is a file, expected a folder{hint}")
    raise PnpError(f"{what} {str(path)!r} not found: expected a folder{hint}")


def resolve_data_dir(data_dir: Path | str | None) -> Path:
    """The data folder to use: ``data_dir``, else the project's (see :mod:`pnp.project`)."""
    path = Path(data_dir) if data_dir is not None else default_folder("card_data")
    return check_folder(path, "data folder",
                        " with one sub-folder per game (see docs/data-format.md)")


def game_slugs(data_dir: Path) -> list[str]:
    """Slugs of the games in ``data_dir`` (folders holding a manifest.toml)."""
    return sorted(p.parent.name for p in data_dir.glob("*/manifest.toml"))


def resolve_slugs(data_dir: Path, wanted: Iterable[str]) -> list[str]:
    """Validate ``wanted`` slugs (all games when empty); suggest the closest on a typo."""
    known = game_slugs(data_dir)
    wanted = list(wanted)
    # no games at all (also with games named: "unknown game 'x' (known: none)" said
    # nothing of where it looked)
    if not known:
        hint = ""
        if (data_dir / "manifest.toml").is_file():
            # the usual slip: --data-dir naming one game's folder, not the folder of games
            hint = (f" ({data_dir} is itself a game's folder: pass the folder above it, "
                    f"--data-dir {data_dir.parent})")
        elif (data_dir / "card_data").is_dir():
            hint = (f" ({data_dir} is a project folder: pass --project {data_dir}, or "
                    f"--data-dir {data_dir / 'card_data'})")
        raise PnpError(f"no games in {data_dir}: expected <slug>/manifest.toml "
                       f"folders{hint}")
    if not wanted:
        return known
    for slug in wanted:
        if slug not in known:
            if slug.strip(".") and "/" not in slug and (data_dir / slug).is_dir():
                raise PnpError(f"game {slug!r}: {data_dir / slug} has no manifest.toml "
                               "(see docs/data-format.md)")
            raise PnpError(unknown_name("game", slug, known))
    return list(dict.fromkeys(wanted))


def _load_component(game: GameData, component: Component) -> None:
    if component.table is None:
        return
    path = game.manifest.game_dir / component.table
    if not path.exists():
        raise _missing_table(game, component)
    table = read_table(path)
    game.encodings[component.id] = table.encoding
    rows, problems = type_rows(component, table)
    game.rows[component.id] = rows
    game.problems.extend(problems)
    if problems:
        # Counts over a table with broken rows only repeat the same faults.
        game.unchecked.add(component.id)


def _missing_table(game: GameData, component: Component) -> PnpError:
    """The manifest's ``table`` names no file: an error at that key, with the nearest name."""
    manifest = game.manifest
    assert component.table is not None
    known = sorted(p.name for p in manifest.game_dir.glob("*.csv"))
    line = TomlLines(read_user_text(manifest.path, "manifest")[0]).line(
        ("components", component.id, "table"))
    return PnpError(f"components.{component.id}.table: {component.table!r} not found in "
                    f"{manifest.game_dir}{did_you_mean(component.table, known)}",
                    path=manifest.path, line=line)


def load_game_data(data_dir: Path, slug: str, *, strict: bool = False) -> GameData:
    """Load and check one game. ``strict`` raises on the first problem (for engines)."""
    manifest = load_manifest(data_dir / slug / "manifest.toml")
    game = GameData(manifest=manifest)
    for component in manifest.components.values():
        try:
            _load_component(game, component)
        except PnpError as exc:
            game.problems.append(Problem(exc.path or manifest.path, exc.line, exc.message))
            game.unchecked.add(component.id)
    _check_ids(game)
    _check_counts(game)
    if strict and game.problems:
        raise PnpError(f"{game.problems[0]} (run `pnp check {slug}` for every problem)")
    return game


def _check_ids(game: GameData) -> None:
    first: dict[str, tuple[Path, int]] = {}
    for cid, rows in game.rows.items():
        path = game.manifest.game_dir / (game.manifest.components[cid].table or "")
        for row in rows:
            if row.id in first:
                other_path, other_line = first[row.id]
                where = (f"line {other_line}" if other_path == path
                         else f"{other_path.name}:{other_line}")
                game.problems.append(Problem(path, row.line, f"duplicate id {row.id!r} "
                                             f"(first used at {where}): ids must be unique"))
            else:
                first[row.id] = (path, row.line)


def _check_counts(game: GameData) -> None:
    manifest = game.manifest
    for cid, component in manifest.components.items():
        if component.table is None or cid in game.unchecked:
            continue
        rows = game.rows[cid]
        total = sum(r.qty for r in rows)
        if total != component.count:
            game.problems.append(Problem(
                manifest.game_dir / component.table, None,
                f"expected {component.count} cards in total (manifest "
                f"components.{cid}.count), found {total}"))
        for rule in component.rules:
            game.problems.extend(check_rule(component, rule, rows,
                                            manifest.game_dir / component.table))


def load_cards(slug: str, component: str, data_dir: Path | None = None) -> list[Mapping[str, Any]]:
    """Typed cards of one component, one mapping per physical copy (for rules engines).

    Raises :class:`PnpError` if the game's data has any problem.
    """
    game = load_game_data(resolve_data_dir(data_dir), slug, strict=True)
    return game.cards(component)
