"""Command-line interface: parses options and calls library functions (nothing more)."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence, TypedDict, TypeVar

import click

from pnp import __version__
from pnp.errors import PnpError
from pnp.options import MAX_JOBS, FiniteFloat, FilePath, FolderPath, OneLineGroup

if TYPE_CHECKING:
    from pnp.builder.serve import ServerFiles
    from pnp.project import Project

F = TypeVar("F", bound=Callable[..., Any])


class _LazyChoice(click.Choice):
    """A ``click.Choice`` whose choices are looked up on first use.

    The simulator and the print profiles are large imports; loading them only
    when a command actually needs their names keeps ``pnp preview`` and
    ``pnp watch`` quick to start.
    """

    def __init__(self, load: Callable[[], Sequence[str]], case_sensitive: bool = True) -> None:
        """Remember how to get the choices (nothing is imported yet)."""
        self._load = load
        self._choices: tuple[str, ...] | None = None
        self.case_sensitive = case_sensitive

    # click.Choice sets ``choices`` as a plain attribute in __init__; a read-only
    # property in its place is what makes the lookup lazy, and mypy flags any
    # property overriding a writable attribute.
    @property
    def choices(self) -> tuple[str, ...]:  # type: ignore[override]
        """The choices, computed once."""
        if self._choices is None:
            self._choices = tuple(self._load())
        return self._choices


def _invariant_levels() -> tuple[str, ...]:
    """The simulator's invariant-check levels (imported when first needed)."""
    from pnp.sim.invariants import LEVELS

    return tuple(LEVELS)


def _default_level() -> str:
    """The simulator's default invariant-check level."""
    from pnp.sim.invariants import DEFAULT_LEVEL

    return DEFAULT_LEVEL


def user_errors(func: F) -> F:
    """Turn :class:`PnpError` into one line on stderr and its exit status (1; Ctrl-C 130).

    Ctrl-C anywhere in the command becomes the one line of
    :func:`_interrupt_report` (what was written), the same for every command.
    """

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            with _interrupt_report():
                return func(*args, **kwargs)
        except PnpError as exc:
            if exc.exit_code == 130 and sys.stderr.isatty():
                click.echo(err=True)     # end the terminal's "^C" echo first, as click does
            click.echo(f"error: {exc}", err=True)
            sys.exit(exc.exit_code)

    return wrapper  # type: ignore[return-value]


def data_dir_option(func: F) -> F:
    """The ``--data-dir`` option shared by every command that reads card data."""
    return click.option(
        "--data-dir", type=FolderPath(must_exist=True), default=None,
        help="Folder with one sub-folder of card data per game [default: the project's "
             "card_data/, else the shipped games].",
    )(func)


def templates_dir_option(func: F) -> F:
    """The ``--templates-dir`` option of commands that render layouts."""
    return click.option(
        "--templates-dir", type=FolderPath(must_exist=True), default=None,
        help="Folder of layout templates [default: the project's templates/, else the "
             "shipped ones].")(func)


@click.group(cls=OneLineGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pnp")
@click.option("--project", "project_dir", type=FolderPath(must_exist=True, what="project folder"),
              default=None, metavar="DIR",
              help="Project folder holding card_data/, templates/, rulebooks/ and output/ "
                   "[default: the current folder]; a folder it lacks comes from the shipped "
                   "games (see `pnp init`).")
@click.pass_context
def main(ctx: click.Context, project_dir: Path | None) -> None:
    """pnp: print-and-play sheets, rulebooks and a rules validator for card games."""
    from pnp.project import Project

    # Resolved once for the whole run; library defaults read it (pnp.project.current)
    # until the command ends.
    ctx.obj = ctx.with_resource(Project.resolve(project_dir).activated())
    args = ctx.meta.get("pnp.command_args", [])
    above = (ctx.obj.enclosing_project() if _reads_default_games(ctx.invoked_subcommand, args)
             else None)
    if above is not None:
        # inside a project's sub-folder the shipped games would be read without a word
        here = "this folder" if project_dir is None else str(project_dir)
        click.echo(f"note: {here} has no card_data/, templates/ or rulebooks/, so the shipped "
                   f"games are used; the project folder {above} is above it: run pnp there "
                   f"or pass --project {shlex.quote(str(above))}", err=True)


def _reads_default_games(command: str | None, args: list[str]) -> bool:
    """True when ``command`` with ``args`` reads the games from the default folder.

    ``init`` and ``preflight`` read no games, and ``--data-dir`` names them:
    only then may the shipped games be read without the user knowing it.
    """
    if command in (None, "init", "preflight"):
        return False
    return not any(a == "--data-dir" or a.startswith("--data-dir=") for a in args)


def project() -> Project:
    """The run's :class:`pnp.project.Project` (``--project`` or the current folder)."""
    from pnp.project import current

    return current()


@main.command("init")
# as typed (a str): Path("") would be ".", the current folder, not the empty name it is
@click.argument("name", metavar="FOLDER")
@user_errors
def init_command(name: str) -> None:
    """Create the project FOLDER with copies of the shipped games, ready to edit.

    FOLDER gets card_data/, templates/, rulebooks/ and an empty output/; run
    pnp inside it (or with --project FOLDER) and it uses them. An existing,
    non-empty folder is never overwritten. Ctrl-C exits 130 with one line;
    the project appears whole or not at all (it is copied into a hidden
    folder first).
    """
    from pnp.data import game_slugs
    from pnp.project import init_project

    # Ctrl-C: the copy is staged and moved into place whole (init_project), so
    # the line names the whole project or nothing; its empty output/ is part
    # of it (no tidying)
    folder = Path(name)
    with _interrupt_report(folder, tidy=False):
        for path in init_project(name, progress=_progress(None)):
            click.echo(f"created {path}/")
        games = game_slugs(folder / "card_data")
    # quoted, so the line can be pasted into a shell for a folder with spaces in its name;
    # no `cd .` for the folder the user stands in
    here = folder.resolve() == Path.cwd().resolve()
    go = "" if here else f"cd {shlex.quote(str(folder))} && "
    click.echo(f"{len(games)} games ({', '.join(games)}); next: {go}pnp check && pnp build")


@main.command("list")
@data_dir_option
@click.option("--json", "as_json", is_flag=True,
              help="Print games and components as JSON (without the card rows).")
@user_errors
def list_command(data_dir: Path | None, as_json: bool) -> None:
    """Show the games and their components."""
    from pnp.data import resolve_data_dir, resolve_slugs
    from pnp.data.report import game_inventory, list_lines, load_many

    root = resolve_data_dir(data_dir)
    games, fatal = load_many(root, resolve_slugs(root, []))
    if as_json:
        listing = {}
        for game in games:
            entry = game_inventory(game)
            for component in entry["components"].values():
                component.pop("cards", None)
            listing[game.slug] = entry
        click.echo(json.dumps(listing, ensure_ascii=False, indent=2))
    else:
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
@click.option("--sim-games", default=100, show_default=True, type=click.IntRange(1, 100_000),
              help="Games per player count in that simulation.")
@click.option("--lint/--no-lint", default=True, show_default=True,
              help="Also render every card face and back and lint it (template errors, "
                   "unknown icons, overflow, text size, contrast, bleed).")
@templates_dir_option
@user_errors
def check_command(games: tuple[str, ...], data_dir: Path | None, as_json: bool,
                  sim: bool, sim_games: int, lint: bool, templates_dir: Path | None) -> None:
    """Validate card data against each game's manifest (all games if none named).

    Exits 0 when everything holds, otherwise 1 with one line per problem.
    Card lint warnings are printed but do not fail the check. Ctrl-C exits
    130 with one line.
    """
    from pnp.check import run_check

    # Ctrl-C: user_errors' one line (a check writes no output files, only
    # cache entries, each whole)
    text, report, code = run_check(list(games), data_dir, simulate=sim,
                                   sim_games=sim_games, progress=not as_json,
                                   lint=lint, templates_dir=templates_dir)
    if as_json:
        click.echo(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        click.echo(text)
    sys.exit(code)


def book_jobs_option(func: F) -> F:
    """The ``--jobs`` option of commands that typeset rulebooks (default: the CPU count)."""
    return click.option(
        "--jobs", "-j", type=click.IntRange(1, MAX_JOBS),
        # click checks a default against the range too: above MAX_JOBS CPUs it
        # would refuse every build
        default=lambda: min(os.cpu_count() or 1, MAX_JOBS),
        show_default=f"the CPU count, at most {MAX_JOBS}",
        help=f"Processes that typeset the PDF rulebooks, 1–{MAX_JOBS} (the files are the "
             "same for any number).")(func)


def _preset_names() -> list[str]:
    """Return the built-in profile names (for --help); never fails the CLI's import."""
    try:
        from pnp.printing.profiles import builtin_profiles

        return builtin_profiles().names()
    except PnpError:  # pragma: no cover - a broken package table is reported on use
        return []


class _PresetOption(click.Option):
    """``--preset``: its help lists the built-in presets, looked up only when help is shown."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        """Fill in the preset names, then format as usual."""
        self.help = ("Print profile to build (repeatable): " + ", ".join(_preset_names())
                     + ". Default: home-a4 (or the one --paper/--layout name).")
        return super().get_help_record(ctx)


def _paper_names() -> list[str]:
    """Return the built-in paper names (for --paper's choices)."""
    try:
        from pnp.printing.profiles import builtin_profiles

        table = builtin_profiles()
        return [k for k in table.papers
                if any(p.output == "sheets" and p.paper == k for p in table.profiles.values())]
    except PnpError:  # pragma: no cover
        return ["a4", "letter"]


def _layout_names() -> tuple[str, ...]:
    """Return the sheet layouts (for --layout's choices)."""
    from pnp.printing.profiles import LAYOUTS

    return LAYOUTS


def _report_partial(written: list[Path], out_dir: Path) -> None:
    """Say which output files a failing build did finish before it stopped."""
    mine = [p for p in dict.fromkeys(written) if _inside(p, out_dir)]
    for path in mine:
        click.echo(f"wrote {path}")
    if mine:
        click.echo(f"note: the build stopped early: only the {len(mine)} file(s) above were "
                   "written (each complete); the rest were not")


def _inside(path: Path, folder: Path) -> bool:
    """True if ``path`` lies in ``folder`` (both as given or resolved)."""
    try:
        path.resolve().relative_to(folder.resolve())
    except (OSError, ValueError):
        return False
    return True


#: Test hook: Ctrl-C (a real SIGINT to this process) once a run's progress
#: reaches this many steps (build: card faces; rulebook: books; preview and
#: watch: files written; init: folders copied, then the move into place), so
#: tests can stop a run at a chosen point rather than after a delay.
INTERRUPT_AFTER_ENV = "PNP_INTERRUPT_AFTER"


def _progress(update: Callable[[int], Any] | None) -> Callable[[int], Any] | None:
    """``update``, or a stand-in that also sends SIGINT at ``PNP_INTERRUPT_AFTER`` steps."""
    limit = os.environ.get(INTERRUPT_AFTER_ENV, "")
    if not limit.isdigit():
        return update
    done = [0]

    def counted(steps: int = 1) -> None:
        """Count ``steps``; at the limit, interrupt this process as Ctrl-C would."""
        if update is not None:
            update(steps)
        before = done[0]
        done[0] += steps
        if before < int(limit) <= done[0]:
            import signal

            os.kill(os.getpid(), signal.SIGINT)

    return counted


def _tree(folder: Path) -> tuple[set[Path], dict[Path, tuple[int, int]]]:
    """The folders under ``folder`` (itself included) and each file's (mtime, inode)."""
    folders: set[Path] = set()
    files: dict[Path, tuple[int, int]] = {}
    for root, _, names in os.walk(folder):
        here = Path(root)
        folders.add(here)
        for name in names:
            try:
                st = (here / name).stat()
            except OSError:
                continue
            files[here / name] = (st.st_mtime_ns, st.st_ino)
    return folders, files


class RunWrites:
    """What a run has written so far: the line Ctrl-C ends a command with, and its tidying.

    Two sources, because neither sees everything: the files that appeared
    or changed in the run's output folders (an export moved into place
    from its hidden stage is never "written" under its own name), and the
    files :func:`pnp.fileio.atomic_path` completed anywhere else (``pnp
    simulate --json r.json``) — cache entries aside, which are no output.
    """

    def __init__(self, folders: Sequence[Path], journal: list[Path], tidy: bool) -> None:
        """Remember the folders' state now; ``journal`` is a :func:`recording_writes` list."""
        self.folders = list(folders)
        self.journal = journal
        self.tidy = tidy
        #: What another process may still write for this run (said after the line).
        self.elsewhere = ""
        self.reset()

    def reset(self) -> None:
        """Count from now on: the files so far are not this step's (each `pnp watch` rebuild)."""
        from pnp.project import missing_parents

        #: per folder, the parents it lacks now, which a run's `mkdir -p` would make
        self.made_parents = [missing_parents(f) for f in self.folders]
        self.before = [_tree(f) for f in self.folders]
        self.journal.clear()

    def remove_empty_folders(self) -> None:
        """Remove the folders this run created that hold nothing (deepest first)."""
        for folder, (had, _), parents in zip(self.folders, self.before, self.made_parents):
            # deepest first, so a game folder whose only sub-folder was empty goes too
            for root, _, _ in sorted(os.walk(folder), key=lambda w: -len(Path(w[0]).parts)):
                if Path(root) not in had:
                    with contextlib.suppress(OSError):
                        os.rmdir(root)        # only ever an empty folder
            for path in parents:              # parents `mkdir -p` made on the way
                with contextlib.suppress(OSError):
                    os.rmdir(path)

    def written(self) -> list[Path]:
        """The complete files this run wrote: the folders' new ones, then the journal's others."""
        from pnp.builder.serve import cache_root

        made: dict[str, Path] = {}
        for folder, (_, files) in zip(self.folders, self.before):
            for path, stamp in sorted(_tree(folder)[1].items()):
                if files.get(path) != stamp:
                    made.setdefault(os.path.abspath(path), path)
        # caches are no output: the user's cache folder, and the stores kept beside
        # pnp's own code (compiled templates, parsed font tables in pnp/__pycache__)
        caches = [os.path.abspath(cache_root()),
                  os.path.abspath(Path(__file__).resolve().parent / "__pycache__")]
        for path in self.journal:
            key = os.path.abspath(path)
            # a staged file moved into place (or removed with its stage) is not there
            # by this name any more
            if key not in made and os.path.isfile(key) \
                    and all(os.path.commonpath([key, c]) != c for c in caches):
                made[key] = path
        return list(made.values())


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ignore further Ctrl-C for the block (the run is already ending: tidy it and say so)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def _interrupt_report(*folders: Path, tidy: bool = True) -> Iterator[RunWrites]:
    """Turn Ctrl-C into one line saying what was written; yield the :class:`RunWrites`.

    The one Ctrl-C handling of every command (:func:`user_errors` wraps each
    in it; a command that writes into folders wraps its work once more,
    naming them). Every file is written whole (atomically) and every
    multi-file export all together, so what is there is complete; with
    ``tidy``, a folder this run created that holds nothing is removed
    (``pnp init`` keeps its project's empty output/). The line is
    :func:`pnp.sim.stopped.interrupted_after`'s: ``interrupted: nothing was
    written``, or ``interrupted after writing N complete file(s) (...);
    nothing else was written``; exit 130.
    """
    from pnp.fileio import recording_writes

    with recording_writes() as journal:
        writes = RunWrites(folders, journal, tidy)
        try:
            yield writes
        except KeyboardInterrupt:
            # a second Ctrl-C must not cut the tidying short or print a traceback
            with _sigint_ignored():
                if writes.tidy:
                    writes.remove_empty_folders()
                made = writes.written()
                from pnp.sim.stopped import interrupted_after

                error = interrupted_after(made, writes.elsewhere)
            raise error from None


def _missing_rules_text(skipped: Sequence[tuple[str, str]]) -> list[str]:
    """One line per game whose rulebook step left books out for want of rules text.

    A game the designer has just added has cards before it has rules: its
    build writes the cards (and the books it has text for) and says which
    texts are missing, rather than stopping.
    """
    if not skipped:     # the usual case: no rulebook module to load for it
        return []
    from pnp.rulebook.lang import LANGS
    from pnp.rulebook.sources import source_name

    missing: dict[str, list[str]] = {}
    for slug, code in skipped:
        missing.setdefault(slug, []).append(code)
    lines = []
    for slug, codes in missing.items():
        texts = " or ".join(f"rulebooks/{source_name(slug, code)}" for code in codes)
        # every edition missing: no book at all; else the editions left out
        which = "" if set(codes) >= set(LANGS) else f" ({', '.join(codes)})"
        lines.append(f"no rulebook for {slug}{which}: no rules text {texts} yet (its format: "
                     "rulebooks/README.md; --no-rulebook leaves the books out)")
    return lines


@main.command("build")
@click.argument("games", nargs=-1)
@click.option("--preset", "presets", multiple=True, metavar="NAME", cls=_PresetOption,
              help="Print profile to build (repeatable).")
@click.option("--paper", type=_LazyChoice(_paper_names, case_sensitive=False),
              default="a4", show_default=True,
              help="Shorthand: the home-sheet preset for this paper.")
@click.option("--layout", type=_LazyChoice(_layout_names), default="duplex",
              show_default=True,
              help="Shorthand: duplex (a page of fronts then a page of mirrored backs; "
                   "flip on the long edge) or gutterfold (fronts and backs on one page "
                   "around a fold line).")
@click.option("--out", "out_dir", type=FolderPath(), default=None,
              help="Output folder [default: output/ in the project folder].")
@click.option("--marks/--no-marks", default=True, show_default=True, help="Crop marks.")
@click.option("--print-service", is_flag=True,
              help="Shorthand for adding --preset drivethru (one card per page, TrimBox "
                   "set, back1, front1, back2 … order).")
@click.option("--back-offset", nargs=2, type=FiniteFloat(-10, 10, " mm"), default=(0.0, 0.0),
              metavar="DX DY", show_default=True,
              help="Shift duplex back pages by DX DY mm to correct your printer's "
                   "misregistration (read it off output/calibration-*.pdf).")
@click.option("--profiles", "profiles_file", type=FilePath(),
              default=None, help="TOML file with more [profiles.NAME] rows (see "
                                 "docs/printing.md).")
@click.option("--tts-url", "tts_url", default=None, metavar="URL",
              help="Base URL where the TTS images will be uploaded (default: file:/// "
                   "URLs for local play).")
@click.option("--list-presets", is_flag=True, help="List the print profiles and exit.")
@click.option("--rulebook/--no-rulebook", default=True, show_default=True,
              help="Also export each game's rulebook as a PDF of pages half the first "
                   "home-sheet preset's paper: A5 with A4, half-letter with Letter (A5 "
                   "without one; see `pnp rulebook`).")
@click.option("--bought/--no-bought", default=True, show_default=True,
              help="Also print what a player can buy (supply = \"buy\" in the manifest, "
                   "e.g. the standard deck of Fortune Clover and 第2話); with --no-bought, "
                   "stickers for the bought deck where a game has them.")
@book_jobs_option
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--verbose", "-v", is_flag=True,
              help="Also a line per sheet file: its layout and the bleed of each edge "
                   "(by default, one summary line per preset).")
@data_dir_option
@templates_dir_option
@click.pass_context
@user_errors
def build_command(ctx: click.Context, games: tuple[str, ...], presets: tuple[str, ...],
                  paper: str, layout: str, out_dir: Path | None, marks: bool,
                  print_service: bool,
                  back_offset: tuple[float, float], profiles_file: Path | None,
                  tts_url: str | None, list_presets: bool, rulebook: bool, bought: bool,
                  jobs: int, quiet: bool, verbose: bool, data_dir: Path | None,
                  templates_dir: Path | None) -> None:
    """Render print-ready files of GAMES (all games if none named) into --out.

    Home sheets, print-service exports and Tabletop Simulator decks all come
    from one table of print profiles (--list-presets shows it). Ctrl-C exits
    130 with one line saying what was written: whole files, and whole decks
    of a multi-file export, never part of one.
    """
    from pnp.builder.decks import (BuildOptions, bleed_summary, build, count_faces,
                                   load_for_build)
    from pnp.fileio import recording_writes, sweep_stale_temps

    out_dir = out_dir if out_dir is not None else project().out_dir
    from pnp.printing.profiles import load_profiles

    if list_presets:
        table = load_profiles(profiles_file)
        for name, profile in table.profiles.items():
            click.echo(f"{name:<18} {profile.summary}")
        return
    explicit = [name for name in ("paper", "layout")
                if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE]
    if presets and explicit:
        raise PnpError(f"--{explicit[0]} is a shorthand for a preset; with --preset, name the "
                       "preset instead (e.g. --preset home-letter or --preset gutterfold-a4)")
    names = tuple(presets) + (("drivethru",) if print_service and presets else ())
    options = BuildOptions(paper=paper.lower(), layout=layout, out_dir=out_dir,
                           data_dir=data_dir, templates_dir=templates_dir, marks=marks,
                           print_service=print_service, back_offset_mm=back_offset,
                           presets=names, profiles_file=profiles_file,
                           tts_base_url=tts_url, bought=bought)
    # Ctrl-C: one line on what was written; folders this run made that hold
    # nothing are removed (every file is written whole)
    with _interrupt_report(out_dir):
        loaded = load_for_build(list(games), options)
        from pnp.data.manifest import check_constants

        for game_data in loaded:         # a bad rule parameter stops it before any file
            check_constants(game_data.manifest)
        total = count_faces(loaded, options)
        books = None
        if rulebook:
            from pnp.rulebook.step import BookOptions, rulebook_step

            # half the sheets' paper (the profiles' [papers] table): Letter users get
            # half-letter books, A4 users A5
            book = BookOptions(paper=options.table().rulebook_paper(options.profiles()))
            # a game without (some of) its rules text yet gets the books it has text for
            books = rulebook_step(options.out_dir, options.data_dir, options.templates_dir,
                                  jobs, book, skip_missing=True)
        # Temps a killed run left (it never got to rename them) go before we write.
        removed = sweep_stale_temps(out_dir, recursive=True)
        with recording_writes() as written, _small_text_count() as small:
            try:
                if quiet or total == 0:
                    result = build(loaded, options, progress=_progress(None), rulebooks=books)
                else:
                    with click.progressbar(length=total, label="Building", file=sys.stderr,
                                           show_eta=False) as bar:
                        result = build(loaded, options, progress=_progress(bar.update),
                                       rulebooks=books)
            except (PnpError, OSError):
                # Files finished before the failure stay (each is complete); say which.
                _report_partial(written, out_dir)
                raise
    if removed:
        click.echo(f"note: removed {len(removed)} unfinished temp file(s) left by an "
                   "interrupted run")
    for line in result.skipped:
        click.echo(f"skipped {line}")
    for line in result.notes:
        click.echo(f"note: {line}")
    # the bleed of every sheet file is one line per preset; -v shows each file's
    for line in ([n.detail for n in result.bleed] if verbose
                 else bleed_summary(result.bleed)):
        click.echo(f"note: {line}")
    for line in _missing_rules_text(books.skipped if books is not None else []):
        click.echo(f"note: {line}")
    for path in dict.fromkeys(result.files + result.rulebooks):  # a shared sheet once
        click.echo(f"wrote {path}")
    for line in _small_text_lines(small, templates_dir):
        click.echo(line)
    # a shared sheet is listed once per component it holds: count it once
    click.echo(f"{len(dict.fromkeys(result.files))} file(s) for "
               + ", ".join(p.name for p in options.profiles())
               + (f", {len(result.rulebooks)} rulebook(s)" if result.rulebooks else ""))


@contextlib.contextmanager
def _small_text_count() -> Iterator[dict[str, dict[str, str]]]:
    """Collect, while a build lays out cards, the sides with text set too small.

    Yields {game: {layout key: "template:line" of the first small text}};
    the build's own layouts are looked at as they are made
    (:data:`pnp.render.jinja_env.LAYOUT_LISTENERS`), so no card is laid out
    twice. Sides the build takes whole from its sheet cache were looked at
    by the build that drew them.
    """
    from pnp.render.jinja_env import LAYOUT_LISTENERS
    from pnp.render.srcmap import small_texts

    found: dict[str, dict[str, str]] = {}

    def look(layout: Any) -> None:
        small = small_texts(layout)
        if small:
            game = str(layout.template).split("/", 1)[0]
            found.setdefault(game, {})[layout.key] = small[0].at or layout.template

    LAYOUT_LISTENERS.append(look)
    try:
        yield found
    finally:
        LAYOUT_LISTENERS.remove(look)


def _small_text_lines(found: Mapping[str, Mapping[str, str]],
                      templates_dir: Path | None) -> list[str]:
    """``pnp build``'s one warning line per game whose cards have text set too small."""
    from pnp.builder.cards import resolve_templates_dir
    from pnp.render.srcmap import MIN_BODY_PT, MIN_LABEL_PT

    label = resolve_templates_dir(templates_dir).name
    lines = []
    for game, sides in sorted(found.items()):
        first = sorted(sides.values())[0]
        lines.append(f"warning: {game}: text set below {MIN_BODY_PT:g} pt (one-line labels "
                     f"{MIN_LABEL_PT:g} pt) on {len(sides)} distinct card side(s) drawn, first at "
                     f"{label}/{first}; `pnp check {game}` lists every lint problem")
    return lines


@main.command("preview")
@click.argument("game", required=False)
@click.argument("deck", required=False)
@click.argument("card_ids", nargs=-1)
@click.option("--out", "out_dir", type=FolderPath(), default=None,
              help="Folder for the PNGs [default: output/<game>/preview in the project].")
@click.option("--dpi", type=click.IntRange(36, 1200), default=150, show_default=True,
              help="Resolution of the PNGs (cards and contact sheets).")
@click.option("--no-bleed", is_flag=True, help="Crop the images at the trim line.")
@click.option("--sheet", is_flag=True,
              help="Write a contact sheet instead: every distinct card of DECK (of every "
                   "deck if none named) on one page.")
@click.option("--preset", default=None, metavar="NAME",
              help="Write the exact print-service images of a card-png profile (tgc, mpc).")
@click.option("--profiles", "profiles_file", type=FilePath(),
              default=None, help="TOML file with more [profiles.NAME] rows.")
@click.option("--no-server", is_flag=True,
              help="Draw the cards in this process: ask no preview server or watcher and "
                   "start none (PNP_PREVIEW_SERVER=0 turns the server off for good).")
@click.option("--stop-server", is_flag=True,
              help="Stop this project's preview server, if one runs, and exit.")
@data_dir_option
@templates_dir_option
@click.pass_context
@user_errors
def preview_command(ctx: click.Context, game: str | None, deck: str | None,
                    card_ids: tuple[str, ...], out_dir: Path | None, dpi: int,
                    no_bleed: bool, sheet: bool, preset: str | None,
                    profiles_file: Path | None, no_server: bool, stop_server: bool,
                    data_dir: Path | None, templates_dir: Path | None) -> None:
    """Write PNG images of DECK's cards (all distinct cards if no CARD_IDS given).

    The first run starts a background preview server for the project, which
    draws the cards of every later run from its warm process (exactly the
    same pictures; it stops after 10 idle minutes); while `pnp watch GAME`
    runs, the watcher draws them. Ctrl-C exits 130 with one line naming the
    PNGs written (each complete).
    """
    where = None
    if stop_server or (preset is None and not no_server):
        from pnp.builder.serve import where_key

        where = where_key(None if data_dir is None else str(data_dir),
                          None if templates_dir is None else str(templates_dir))
    if stop_server:
        _stop_preview_server(where)
        return
    if game is None:
        raise click.UsageError("Missing argument 'GAME'.")
    if preset is not None:
        # a service image is the service's exact file: an option that would change it
        # must not be dropped without a word
        given = [f"--{name.replace('_', '-')}" for name in ("sheet", "dpi", "no_bleed")
                 if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE]
        if given:
            raise PnpError(f"{given[0]} with --preset {preset}: the preset's images are the "
                           "service's exact files (its resolution and bleed, one per card "
                           f"side); leave out {given[0]}")
    if out_dir is None:
        out_dir = project().out_dir / game / "preview"
    # Ctrl-C: one line on which PNGs are there (each is complete: written to a
    # temporary name and renamed); folders the run made for nothing are removed
    warnings: list[str] = []
    with _interrupt_report(out_dir) as writes:
        paths = _preview(writes, where, game, deck, card_ids, out_dir, dpi, no_bleed, sheet,
                         preset, profiles_file, data_dir, templates_dir, warnings)
    for path in paths:
        click.echo(f"wrote {path}")
    for line in warnings:
        click.echo(line)


def _preview(writes: RunWrites, where: list[Any] | None, game: str, deck: str | None,
             card_ids: tuple[str, ...], out_dir: Path, dpi: int, no_bleed: bool, sheet: bool,
             preset: str | None, profiles_file: Path | None, data_dir: Path | None,
             templates_dir: Path | None, warnings: list[str]) -> list[Path | str]:
    """``pnp preview``'s drawing (see :func:`preview_command`): by a warm process, else here.

    ``warnings`` gets a line per text set too small on the cards: drawn
    here, from :func:`pnp.builder.preview.write_previews`; by a warm
    process, from its answer's ``warnings`` (the preview server and the
    watcher collect them as a cold run does).
    """
    server = None
    if where is not None:
        from pnp.builder.serve import process_umask

        # stopped while a warm process draws, the pictures are its to finish
        writes.elsewhere = (f"a preview server or `pnp watch` asked to draw them may still "
                            f"write them into {out_dir}, each complete")
        answer, server = _ask_warm_process(where, {
            "cwd": where[0], "game": game, "deck": deck, "card_ids": list(card_ids),
            "dpi": dpi, "show_bleed": not no_bleed, "sheet": sheet, "preset": preset,
            "out_dir": str(out_dir), "where": where, "umask": process_umask()})
        writes.elsewhere = ""
        if answer is not None:
            if "error" in answer:
                error = PnpError(str(answer["error"]))
                error.exit_code = int(answer.get("exit_code", 1))
                raise error
            # a warm process that reports small text answers with its lines too
            warnings.extend(str(line) for line in answer.get("warnings", ()))
            return [str(name) for name in answer["paths"]]
    from pnp.builder.preview import write_previews

    try:
        paths = write_previews(game, deck, list(card_ids), out_dir=out_dir, dpi=dpi,
                               show_bleed=not no_bleed, data_dir=data_dir,
                               templates_dir=templates_dir, preset=preset,
                               profiles_file=profiles_file, sheet=sheet,
                               progress=_progress(None), warnings=warnings)
    except PnpError:
        _start_preview_server(server)        # a typo now should not make the next run cold
        raise
    _start_preview_server(server)
    return list(paths)


def _start_preview_server(files: ServerFiles | None) -> None:
    """Start the project's preview server for the next run (``files`` None: start none)."""
    if files is not None:
        from pnp.builder.serve import start_server

        start_server(files)


def _ask_warm_process(where: list[Any], request: dict[str, Any]
                      ) -> tuple[dict[str, Any] | None, ServerFiles | None]:
    """Ask a running `pnp watch`, then the project's preview server, to draw ``request``.

    Returns (answer, server to start): the answer (``paths`` written or a
    user ``error``) is None when the client must render itself; the server
    files are set when no preview server runs (or the one that ran has just
    exited) and one should be started.
    """
    from pnp.builder import serve

    def usable(answer: dict[str, Any] | None) -> bool:
        return answer is not None and ("paths" in answer or "error" in answer)

    # where `pnp watch` listens by default: the project's output folder (not
    # ./output, which differs when --project names another folder)
    answer = serve.ask(request, project().out_dir)
    if usable(answer) or not serve.server_enabled():
        return (answer if usable(answer) else None), None
    files = serve.server_files(where, request["umask"])
    if files is None:
        return None, None                         # no server possible here
    answer = serve.exchange(request, files.socket)
    if answer is None:
        return None, files                        # nobody listens: start one afterwards
    if usable(answer) and not answer.get("fallback"):
        return answer, None
    return None, files if answer.get("restart") else None


def _stop_preview_server(where: list[Any] | None) -> None:
    """``pnp preview --stop-server``: stop this project's preview server and say so."""
    from pnp.builder import serve

    # (whatever PNP_PREVIEW_SERVER says now: it may have been on when the server started)
    files = serve.server_files(where or [])
    pid = serve.stop_server(files) if files is not None else None
    click.echo(f"stopped the preview server (process {pid})" if pid is not None
               else "no preview server runs for this project")


@main.command("watch")
@click.argument("game")
@click.option("--out", "out_dir", type=FolderPath(), default=None,
              help="Output folder: previews go to OUT/GAME/preview, sheets to OUT/GAME "
                   "[default: output/ in the project folder].")
@click.option("--dpi", type=click.IntRange(36, 1200), default=150, show_default=True,
              help="Resolution of the card previews (contact sheets use half).")
@click.option("--pdf/--no-pdf", default=True, show_default=True,
              help="Also rewrite the affected decks' print sheets (OUT/GAME/*-a4.pdf).")
@click.option("--paper", type=_LazyChoice(_paper_names, case_sensitive=False), default="a4",
              show_default=True, help="Paper of the print sheets.")
@click.option("--interval", type=click.FloatRange(0.05, 10), default=0.2, show_default=True,
              help="Seconds between looks at the files.")
@data_dir_option
@templates_dir_option
@user_errors
def watch_command(game: str, out_dir: Path | None, dpi: int, pdf: bool, paper: str,
                  interval: float, data_dir: Path | None, templates_dir: Path | None) -> None:
    """Rebuild GAME's previews and sheets whenever a CSV, template or icon changes.

    Prints what it rebuilt (or the one-line error) after each change; stop
    with Ctrl-C: "stopped watching GAME after the first build and N
    rebuild(s)", exit 0 (stopping is how a watch ends, as for a development
    server). Ctrl-C during a rebuild exits 130 with one line naming the
    files that rebuild completed (the rest are older than the sources).
    """
    from pnp.builder.watch import Watcher

    out_dir = out_dir if out_dir is not None else project().out_dir
    # Ctrl-C during a rebuild: one line on what that rebuild wrote (each file
    # whole), counted from its start (on_rebuild); before the first build, the
    # preview folder it made is removed again
    with _interrupt_report(out_dir / game / "preview") as writes:
        watcher = Watcher(game, data_dir=data_dir, templates_dir=templates_dir,
                          out_dir=out_dir, dpi=dpi, pdf=pdf, paper=paper.lower(),
                          echo=click.echo, progress=_progress(None),
                          on_rebuild=writes.reset)
        with _stopped_like_ctrl_c():
            watcher.run(interval)
    if sys.stdout.isatty():
        click.echo()        # off the line the terminal's "^C" echo is on
    click.echo(watcher.stop_line())


@contextlib.contextmanager
def _stopped_like_ctrl_c() -> Iterator[None]:
    """Treat SIGTERM and SIGHUP (``kill``, ``timeout``, a closed terminal) as Ctrl-C.

    Python's default for them ends the process at once, leaving the watcher's
    socket file in the output folder; as Ctrl-C the watcher closes it.
    """
    import signal

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    wanted = [getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)]
    try:
        before = {sig: signal.signal(sig, stop) for sig in wanted}
    except ValueError:          # not the main thread: leave the signals alone
        before = {}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


@main.command("preflight")
@click.argument("files", nargs=-1, required=True,
                type=click.Path(path_type=Path))
@click.option("--profile", "profile_name", default=None, metavar="NAME",
              help="Check against this print profile instead of guessing it from the size.")
@click.option("--profiles", "profiles_file", type=FilePath(),
              default=None, help="TOML file with more [profiles.NAME] rows.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@user_errors
def preflight_command(files: tuple[Path, ...], profile_name: str | None,
                      profiles_file: Path | None, as_json: bool, quiet: bool) -> None:
    """Check that FILES (PDF, PNG or TTS saved-object JSON; folders are searched) are print-ready.

    Fonts embedded, page boxes nested, size matching a print profile, images
    at 300 ppi or more, ink inside the printer margin on home sheets, colour
    space. Exits 1 if any file fails.
    """
    from pnp.printing.preflight import JsonFiles, expand_paths, preflight_files, render_text

    left_out: list[Path] = []
    json_files = JsonFiles()                  # the folder search's parses, reused by the checks
    paths = expand_paths(list(files), left_out, json_files)
    if left_out and not as_json:
        click.echo(f"note: left out {len(left_out)} file(s) not meant for printing (screen "
                   "previews and rulebook pictures, JSON that is not a TTS save); name one to "
                   "check it", err=True)
    if quiet or len(paths) < 20:
        reports = preflight_files(paths, profile=profile_name, profiles_file=profiles_file,
                                  json_files=json_files)
    else:
        with click.progressbar(length=len(paths), label="Checking", file=sys.stderr,
                               show_eta=False) as bar:
            reports = preflight_files(paths, profile=profile_name, profiles_file=profiles_file,
                                      progress=bar.update, json_files=json_files)
    if as_json:
        click.echo(json.dumps([r.to_json() for r in reports], ensure_ascii=False, indent=2))
    else:
        click.echo(render_text(reports), nl=False)
    sys.exit(0 if all(r.ok for r in reports) else 1)


@main.command("rulebook")
@click.argument("games", nargs=-1)
@click.option("--lang", "langs", type=click.Choice(["ja", "en", "all"], case_sensitive=False),
              multiple=True, help="Edition(s) to write (repeatable) [default: all = ja and en].")
@click.option("--format", "formats", type=click.Choice(["pdf", "html", "md", "all"]),
              multiple=True, help="pdf: the printed book; html: one page for reading on a "
              "screen; md: Markdown with its pictures (repeatable) [default: pdf].")
@click.option("--paper", type=click.Choice(["a5", "a4", "half-letter", "letter"],
                                           case_sensitive=False), default="a5",
              show_default=True, help="Page size of the PDF; with --imposition booklet, "
              "a4 or a5 give A5 pages on A4 sheets, letter or half-letter give half-letter "
              "pages on Letter sheets.")
@click.option("--imposition", type=click.Choice(["none", "booklet"]), default="none",
              show_default=True, help="booklet: pad to a multiple of 4 pages and print two "
              "pages a side for folding and stapling, on the --paper sheet (A5 pages on A4, "
              "half-letter on Letter); print double-sided, flip on the short edge. PDF only.")
@click.option("--designer", is_flag=True,
              help="Designer's edition: add the appendix of every ruling with its ID and mark "
              "the contents we designed as provisional.")
@click.option("--out", "out_dir", type=FolderPath(), default=None,
              help="Output folder (files go to <out>/<game>/) [default: output/ in the "
                   "project folder].")
@book_jobs_option
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@data_dir_option
@templates_dir_option
@user_errors
def rulebook_command(games: tuple[str, ...], langs: tuple[str, ...], formats: tuple[str, ...],
                     paper: str, imposition: str, designer: bool, out_dir: Path | None,
                     jobs: int, quiet: bool, data_dir: Path | None,
                     templates_dir: Path | None) -> None:
    """Write the rulebooks of GAMES (all if none named) in Japanese and English.

    Component lists, card lists, worked examples (played by each game's rules
    engine), card pictures and set-up diagrams all come from the data, so the
    books follow every edit. Japanese files are rulebook-<paper>.pdf,
    rulebook.html and rulebook.md; English ones add -en (rulebook-en-a5.pdf).
    Ctrl-C exits 130 with one line saying which books were written (each
    complete).
    """
    from pnp.data import resolve_data_dir, resolve_slugs
    from pnp.printing.papers import book_paper
    from pnp.rulebook.step import BookOptions, Slug, rulebook_step
    from pnp.rulebook.cli import FORMATS, export_rulebooks
    from pnp.rulebook.lang import LANGS

    out_dir = out_dir if out_dir is not None else project().out_dir
    codes = [c.lower() for c in langs] or ["all"]
    chosen_langs = list(LANGS) if "all" in codes else list(dict.fromkeys(codes))
    names = list(formats) or ["pdf"]
    chosen_formats = list(FORMATS) if "all" in names else list(dict.fromkeys(names))
    if imposition == "booklet" and "pdf" not in chosen_formats:
        # an option that would do nothing is refused, as --paper with --preset is
        raise PnpError(f"--imposition booklet imposes the PDF's pages; --format "
                       f"{' '.join(chosen_formats)} has none: add --format pdf or drop "
                       "--imposition")
    # a booklet on A4 sheets has A5 pages (its files are named after the page)
    paper = book_paper(paper, imposition)
    root = resolve_data_dir(data_dir)
    slugs = [Slug(s) for s in resolve_slugs(root, list(games))]
    from pnp.data.manifest import check_constants, load_manifest

    for slug in slugs:      # a bad rule parameter: its manifest line, before any book
        check_constants(load_manifest(root / slug.slug / "manifest.toml"))
    # PDFs through the rulebook cache, the ones not kept typeset in worker processes
    books = rulebook_step(out_dir, data_dir, templates_dir, jobs,
                          BookOptions(paper.lower(), imposition, designer, tuple(chosen_langs)))
    others = [f for f in chosen_formats if f != "pdf"]
    # one step per book (game x edition x format), as `pnp build` counts card faces
    total = len(slugs) * len(chosen_langs) * len(chosen_formats)
    done: list[Path] = []
    bar: Any = (contextlib.nullcontext() if quiet or total == 0 else
                click.progressbar(length=total, label="Writing rulebooks", file=sys.stderr,
                                  show_eta=False))
    # Ctrl-C: one line on what was written, no empty game folder left behind
    with _interrupt_report(out_dir):
        if "pdf" in chosen_formats:
            books.start(slugs)
        try:
            with bar as progress:
                step = _progress(progress.update if progress is not None else None)
                for game in slugs:
                    if "pdf" in chosen_formats:
                        done += books(game)
                        if step is not None:
                            step(len(chosen_langs))
                    for fmt in others:
                        done += export_rulebooks([game.slug], fmt=fmt, paper=paper.lower(),
                                                 out_dir=out_dir, data_dir=data_dir,
                                                 langs=chosen_langs, imposition=imposition,
                                                 designer=designer,
                                                 templates_dir=templates_dir)
                        if step is not None:
                            step(len(chosen_langs))
        finally:
            books.close()
    # after the bar, as `pnp build` lists its files (lines written under a
    # running bar would break it up on a terminal)
    for path in done:
        click.echo(f"wrote {path}")


class _RunOptions(TypedDict):
    """The options every ``pnp simulate`` mode passes on to ``pnp.sim.run_*`` (keyword names)."""

    players: int | None
    games: int
    seed: int
    jobs: int
    params: Mapping[str, str]
    invariants: str
    step_cap: int
    json_path: Path | None
    progress: bool
    cluster: str | None
    html_path: Path | None


def _parse_params(pairs: tuple[str, ...]) -> dict[str, str]:
    """``key=value`` pairs from repeated ``--param`` options."""
    params: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise PnpError(f"--param {pair!r}: expected key=value, e.g. end_deck_size=10")
        key = key.strip()
        if key in params and params[key] != value.strip():
            # the last one silently won before: say which the user meant
            raise PnpError(f"--param {key}: given twice ({params[key]!r} and "
                           f"{value.strip()!r}); expected one value per parameter")
        params[key] = value.strip()
    return params


@main.command("simulate")
@click.argument("game")
@click.option("--players", "-p", type=int, default=None,
              help="Number of players [default: the game's maximum].")
@click.option("--games", "-n", type=int, default=1000, show_default=True,
              help="How many games to play (per value when sweeping).")
@click.option("--bots", default=None,
              help="Comma-separated bots assigned to seats in turn, e.g. "
                   "mcts:200,heuristic [default: random; with --ladder, the field: the "
                   "game's own bot]; `--bots list` shows the game's bots.")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Seed; the same seed gives the same results for any --jobs.")
@click.option("--jobs", "-j", type=int,
              # All cores by default, as `pnp build` does: the report is the same
              # for any number, and a run never starts more workers than it has
              # chunks of games (250, or 5 when a bot searches), so a short run
              # stays in one process.
              default=lambda: min(os.cpu_count() or 1, MAX_JOBS),
              show_default=f"the CPU count, at most {MAX_JOBS}",
              help=f"Worker processes, 1–{MAX_JOBS} (never more than the run has chunks "
                   "of games).")
@click.option("--param", "params", multiple=True, metavar="KEY=VALUE",
              help="Override a rule parameter (repeatable).")
@click.option("--sweep", "sweeps", multiple=True, metavar="KEY=LO:HI:STEP|KEY=a,b,c",
              help="Play the same deals for every value of a parameter and print one row "
                   "per value (repeat for a grid).")
@click.option("--invariants", type=_LazyChoice(_invariant_levels), default=_default_level,
              show_default="sample",
              help="full: apply every legal action to a clone at every step; sample: "
                   "cheap checks every step, full checks on the first games; off: none.")
@click.option("--no-invariants", is_flag=True, help="Shorthand for --invariants off.")
@click.option("--step-cap", type=int, default=10_000, show_default=True,
              help="A game taking more decisions than this counts as not ending.")
@click.option("--compare", "compares", multiple=True, metavar="KEY=VALUE[,KEY=VALUE]",
              help="Play the same deals with the rules as given and with this change, and "
                   "report the differences with paired intervals (repeatable).")
@click.option("--ladder", is_flag=True,
              help="Skill ladder: the searching bot (mcts) at doubling budgets against a "
                   "fixed field (--bots, default the game's own bot), seats rotated.")
@click.option("--budgets", default=None, metavar="8,16,32|LO:HI",
              help="Ladder budgets (iterations per decision) [default: 8:256].")
@click.option("--ladder-search", default=None, metavar="d16|random|…",
              help="With --ladder: the searching bot's fields after its iteration count, "
                   "the same on every rung, e.g. d16 (playouts cut after 16 moves and the "
                   "position scored: much faster in long games) [default: whole playouts "
                   "with the game's own bot].")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Also write the report as JSON to this file (- for stdout).")
@click.option("--html", "html_path", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Also write a self-contained chart page to this file.")
@click.option("--cluster", default=None, metavar="local|tcp://HOST:PORT",
              help="Run the chunks on Dask: 'local' starts a LocalCluster of --jobs "
                   "workers, an address uses a running scheduler (needs pnp[cluster]); "
                   "results equal a local run.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@data_dir_option
@user_errors
def simulate_command(**options: Any) -> None:
    """Play GAME many times with automated players and report how it plays.

    Exits 1 if any game broke an invariant or hit the step cap (the report
    shows the seed and action trace that reproduce it). Ctrl-C exits 130 with
    one line saying what was written (usually nothing: reports are written
    at the end, each atomically).
    """
    # by name: the options are typed once, on _simulate (click passes them by
    # name, so an option added out of order cannot shift the rest). Ctrl-C
    # before the worker pool or the cluster took it over (loading the data, a
    # one-process run, writing the reports) is user_errors' one line, in the
    # same words as theirs (pnp.sim.stopped), naming a report already written.
    sys.exit(_simulate(**options))


def _simulate(game: str, players: int | None, games: int, bots: str | None, seed: int,
              jobs: int, params: tuple[str, ...], sweeps: tuple[str, ...], invariants: str,
              no_invariants: bool, step_cap: int, compares: tuple[str, ...], ladder: bool,
              budgets: str | None, ladder_search: str | None, json_path: Path | None,
              html_path: Path | None,
              cluster: str | None, quiet: bool, data_dir: Path | None) -> int:
    """``pnp simulate``'s work (see :func:`simulate_command`); returns the exit code."""
    from pnp.data import load_game_data, resolve_data_dir, resolve_slugs
    from pnp.games import game_entry
    from pnp.sim import run_compare, run_ladder, run_simulation, run_sweep

    root = resolve_data_dir(data_dir)
    slug = resolve_slugs(root, [game])[0]
    entry = game_entry(slug)
    if bots is not None and bots.strip() in ("list", "help"):
        for name, cls in entry.bots.items():
            click.echo(f"{name:<12} {cls.summary or cls.__doc__ or ''}".rstrip())
        return 0
    modes = [name for name, on in (("--sweep", sweeps), ("--compare", compares),
                                   ("--ladder", ladder)) if on]
    if len(modes) > 1:
        raise PnpError(f"{' and '.join(modes)}: give one of --sweep, --compare, --ladder")
    if budgets is not None and not ladder:
        raise PnpError("--budgets: only with --ladder")
    if ladder_search is not None and not ladder:
        raise PnpError("--ladder-search: only with --ladder")
    data = load_game_data(root, slug, strict=True)
    level = "off" if no_invariants else invariants
    parsed = _parse_params(params)
    common: _RunOptions = {"players": players, "games": games, "seed": seed, "jobs": jobs,
                           "params": parsed, "invariants": level, "step_cap": step_cap,
                           "json_path": json_path, "progress": not quiet, "cluster": cluster,
                           "html_path": html_path}
    # Only an absent --bots means random bots: `--bots ""` is refused downstream.
    played = "random" if bots is None else bots
    if ladder:
        text, _doc, code = run_ladder(data, field=bots, budgets=budgets, search=ladder_search,
                                      **common)
    elif sweeps:
        text, _doc, code = run_sweep(data, list(sweeps), bots=played, **common)
    elif compares:
        text, _doc, code = run_compare(data, list(compares), bots=played, **common)
    else:
        # "asked for N" only when --jobs was given; the default is the CPU count
        ctx = click.get_current_context(silent=True)
        given = ctx is None or ctx.get_parameter_source("jobs") is not \
            click.core.ParameterSource.DEFAULT
        text, _report, code = run_simulation(data, bots=played, jobs_given=given, **common)
    # With --json - the JSON owns standard output; the readable report goes to stderr.
    click.echo(text, nl=False, err=json_path is not None and str(json_path) == "-")
    return code


if __name__ == "__main__":  # pragma: no cover
    main()
