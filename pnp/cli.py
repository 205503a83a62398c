"""Command-line interface: parses options and calls library functions (nothing more)."""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import Any, Callable, TypeVar

import click

from pnp import __version__
from pnp.errors import PnpError

F = TypeVar("F", bound=Callable[..., Any])


def user_errors(func: F) -> F:
    """Turn :class:`PnpError` into one line on stderr and exit status 1."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except PnpError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(1)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)

    return wrapper  # type: ignore[return-value]


def data_dir_option(func: F) -> F:
    """The ``--data-dir`` option shared by every command that reads card data."""
    return click.option(
        "--data-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
        help="Folder with one sub-folder of card data per game [default: card_data/].",
    )(func)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pnp")
def main() -> None:
    """pnp: print-and-play sheets, rulebooks and a rules validator for card games."""


@main.command("list")
@data_dir_option
@user_errors
def list_command(data_dir: Path | None) -> None:
    """Show the games and their components."""
    from pnp.data import resolve_data_dir, resolve_slugs
    from pnp.data.report import list_lines, load_many

    root = resolve_data_dir(data_dir)
    games, fatal = load_many(root, resolve_slugs(root, []))
    for game in games:
        click.echo("\n".join(list_lines(game)))
    for line in fatal:
        click.echo(f"error: {line}", err=True)
    if fatal:
        sys.exit(1)


@main.command("check")
@click.argument("games", nargs=-1)
@data_dir_option
@click.option("--json", "as_json", is_flag=True,
              help="Print the inventory and problems as JSON on stdout.")
@click.option("--sim/--no-sim", default=True, show_default=True,
              help="Also play a short seeded simulation of games that have a rules engine.")
@click.option("--sim-games", default=200, show_default=True, type=click.IntRange(1),
              help="Games per player count in that simulation.")
@user_errors
def check_command(games: tuple[str, ...], data_dir: Path | None, as_json: bool,
                  sim: bool, sim_games: int) -> None:
    """Validate card data against each game's manifest (all games if none named).

    Exits 0 when everything holds, otherwise 1 with one line per problem.
    """
    from pnp.check import run_check

    text, report, code = run_check(list(games), data_dir, simulate=sim,
                                   sim_games=sim_games, progress=not as_json)
    if as_json:
        click.echo(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        click.echo(text)
    sys.exit(code)


if __name__ == "__main__":  # pragma: no cover
    main()
