"""`pnp watch GAME`: rebuild previews and sheets whenever a CSV, template or icon changes.

The watcher keeps one warm process: templates stay compiled, fonts loaded,
and every card's last layout is remembered. After a change it re-renders
the game's cards (unchanged cards cost a cache look-up), writes PNGs only
for the card sides whose drawing changed, redraws the contact sheet of
each deck that changed and, with ``pdf``, that deck's print sheets. It
prints what it rebuilt, or the one-line error, and keeps watching.

Files are polled (modification time and size) so it works the same on
every system and on network folders; a poll of a game's few dozen files
costs well under a millisecond.

Ctrl-C (or SIGTERM, SIGHUP) is how a watch ends, so stopping it while it
waits is no error: :meth:`Watcher.run` returns and the CLI prints
:meth:`Watcher.stop_line`, exit 0, as a development server does (Django's
``runserver``, ``python -m http.server``), so ``pnp watch GAME && …`` and
a supervisor see a normal end; the files on disk are those of the last
rebuild. Stopped *during* a rebuild, what is on disk is partly older than
the sources: that is a real interruption, raised as such (the CLI's one
line on the files that rebuild completed, exit 130).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from pnp.builder.cards import check_templates, kit_components, resolve_templates_dir
from pnp.builder.preview import (CardSide, load_game, preview_folder, render_sides,
                               small_text_lines, write_card_pngs, write_sheet)
# the file snapshot, the cache clearing and the preview answers are the preview server's
from pnp.builder.preview_server import (IMAGE_SUFFIXES, PreviewAnswerer, changed_files,
                                      clear_render_caches, snapshot)
from pnp.data.inventory import GameData
from pnp.data.manifest import Component
from pnp.errors import PnpError
from pnp.render.jinja_env import make_environment


def _signature(side: CardSide) -> str:
    """What a side's image depends on: its markup and the contents of its icons."""
    icons = ",".join(sorted(use.icon.key for use in side.layout.icons))
    return f"{side.layout.key}|{icons}"


@dataclass
class Watcher:
    """Rebuilds one game's previews (and sheets) as its files change."""

    slug: str
    data_dir: Path | None = None
    templates_dir: Path | None = None
    out_dir: Path | None = None
    dpi: int = 150
    pdf: bool = True
    paper: str = "a4"
    echo: Callable[[str], None] = print
    #: Called with 1 after each file a rebuild writes (the CLI's Ctrl-C test hook).
    progress: Callable[[int], object] | None = None
    #: Called as each rebuild starts (the CLI counts the files written from there).
    on_rebuild: Callable[[], None] | None = None
    #: Rebuilds after a change (the first build not counted), and whether the
    #: last build or rebuild ended in an error.
    rebuilds: int = 0
    failed: bool = False
    _busy: bool = False
    _last: dict[tuple[str, str, str], str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        """Resolve folders and start one warm Jinja environment."""
        from pnp.data import resolve_data_dir, resolve_slugs

        self.tdir = resolve_templates_dir(self.templates_dir)
        self.out = self.out_dir if self.out_dir is not None else Path("output")
        self.root = resolve_data_dir(self.data_dir)
        # an unknown game is a typo to report and stop at, not a file to wait for
        (self.slug,) = resolve_slugs(self.root, [self.slug])
        self.env = make_environment(self.tdir)
        # the file loop and the preview server take turns on the warm environment
        self.lock = threading.Lock()
        # `pnp preview` of this game is answered by the same code as the preview
        # server's, with this watcher's environment
        self.answerer = PreviewAnswerer(self.where(), only_slug=self.slug,
                                        envs={self.tdir: self.env})

    def folders(self) -> list[Path]:
        """The folders watched: the game's data, its templates and the shared ones."""
        return [self.root / self.slug, self.tdir / self.slug, self.tdir / "common"]

    def rebuild(self, changed: set[Path] | None = None) -> list[str]:
        """Render the game, write what changed; return the report lines.

        Lines starting ``warning: `` come last: text set below the minimum
        size on a card redrawn (one line per template line; ``pnp check``
        reports every lint problem).

        ``changed`` are the files that changed (None: the first build). An
        icon or image file changing clears the render caches, whose keys
        depend on the markup alone. Card previews are written first (what the
        designer is looking at), then contact sheets, then print sheets.
        """
        start = time.perf_counter()

        def ms() -> str:
            """Time since the change was seen."""
            return f"[{(time.perf_counter() - start) * 1000:.0f} ms]"

        if changed is None or any(p.suffix.lower() in IMAGE_SUFFIXES for p in changed):
            clear_render_caches(self.env)
        game = load_game(self.slug, self.root)
        check_templates(game, self.tdir)
        folder = preview_folder(self.out / game.slug / "preview", game.slug)
        lines: list[str] = []
        # text set too small on the cards redrawn (the one lint check that needs
        # only the layout; `pnp check` runs them all)
        warnings: list[str] = []
        changed_decks: list[tuple[Component, list[CardSide]]] = []
        for component in kit_components(game, self.tdir):
            sides = render_sides(self.env, game, component)
            fresh = [s for s in sides
                     if self._last.get((s.deck, s.card, s.side)) != _signature(s)]
            for s in sides:
                self._last[(s.deck, s.card, s.side)] = _signature(s)
            if not fresh:
                continue
            changed_decks.append((component, sides))
            warnings += small_text_lines(game.slug, fresh, self.tdir.name)
            write_card_pngs(fresh, folder, self.dpi, True, self.progress)
            cards = list(dict.fromkeys(s.card for s in fresh))
            shown = ", ".join(cards[:6]) + (" …" if len(cards) > 6 else "")
            lines.append(f"{game.slug}/{component.id}: {len(cards)} card preview(s) "
                         f"({shown}) {ms()}")
        for component, sides in changed_decks:
            path = write_sheet(game, component, sides, folder, max(36, self.dpi // 2),
                               self.progress)
            lines.append(f"{path} {ms()}")
        if self.pdf and changed_decks:
            for path in self._write_pdfs(game, [c for c, _ in changed_decks]):
                lines.append(f"{path} {ms()}")
        if not lines:
            lines.append(f"{game.slug}: nothing changed on the cards {ms()}")
        return lines + warnings

    def _write_pdfs(self, game: GameData, components: list[Component]) -> list[Path]:
        """Rewrite the home print sheets of the changed decks (their whole files)."""
        from pnp.builder.decks import BuildOptions, build_game

        options = BuildOptions(paper=self.paper, out_dir=self.out, data_dir=self.root,
                               templates_dir=self.tdir,
                               only=tuple(c.id for c in components))
        result = build_game(self.env, game, options)
        files = list(dict.fromkeys(result.files))
        if self.progress is not None:
            self.progress(len(files))
        return files

    def run(self, interval: float = 0.2, *, rounds: int | None = None,
            serve: bool = True, stop: threading.Event | None = None) -> None:
        """Build once, then poll every ``interval`` seconds (``rounds`` polls, or forever).

        With ``serve`` the watcher also answers ``pnp preview`` of this game
        (see :mod:`pnp.builder.serve`). Setting ``stop`` (from another thread)
        ends the watch at its next poll, as its last round would. Ctrl-C
        while waiting ends it the same way (see the module's docstring); Ctrl-C
        during a rebuild is raised (KeyboardInterrupt).
        """
        from pnp.builder.serve import PreviewServer

        # an output folder that cannot be made is not fixed by any edit: stop at once
        preview_folder(self.out / self.slug / "preview", self.slug)
        self.echo(f"watching {', '.join(str(f) for f in self.folders())} (Ctrl-C stops)")
        server = PreviewServer(self.out, self.answer_preview, self.lock) if serve else None
        try:
            # everything after the socket is made inside the try: stopped at any point
            # (Ctrl-C, SIGTERM), the server's socket file is still removed
            if server is not None and server.start():
                self.echo(f"answering `pnp preview {self.slug} …` from this process "
                          f"({server.path})")
            before = snapshot(self.folders())
            self._report(None)
            n = 0
            while rounds is None or n < rounds:
                n += 1
                if stop is None:
                    time.sleep(interval)
                elif stop.wait(interval):
                    break
                now = snapshot(self.folders())
                if now == before:
                    continue
                changed = changed_files(before, now)
                before = now
                self.rebuilds += 1
                self._report(changed)
        except KeyboardInterrupt:
            if self._busy:
                raise               # a rebuild cut short: its files are partly old
            # waiting: Ctrl-C is the normal way to stop watching
        finally:
            if server is not None:
                server.stop()

    def stop_line(self) -> str:
        """The line a watch ends with: the game, how many rebuilds, and whether the last failed."""
        line = f"stopped watching {self.slug} after the first build and {self.rebuilds} rebuild(s)"
        if self.failed:
            # what is on disk is older than the files: say so, not "up to date"
            line += (" (the last ended in the error above, so the pictures are older than "
                     "the files)")
        return line

    def answer_preview(self, request: dict[str, Any]) -> dict[str, Any]:
        """Render a `pnp preview` request with the warm environment, as a cold run would.

        Only a request made in the same folder with the same folder options
        (``--data-dir``, ``--templates-dir``, ``--project``) for this game is
        answered; any other request, or a print-service preset, is declined
        (``fallback``) and the client renders it itself. The work is
        :class:`pnp.builder.preview_server.PreviewAnswerer`'s, shared with the
        preview server.
        """
        return self.answerer.answer(request)

    def where(self) -> list[Any]:
        """What decides the folders: working folder, --project and the folder options."""
        from pnp.builder.serve import where_key

        return where_key(None if self.data_dir is None else str(self.data_dir),
                         None if self.templates_dir is None else str(self.templates_dir))

    def _report(self, changed: set[Path] | None) -> None:
        """Rebuild and print the result, or the one-line error (and keep going)."""
        if changed:
            names = ", ".join(sorted(p.name for p in changed))
            self.echo(f"changed: {names}")
        try:
            with self.lock:
                if self.on_rebuild is not None:
                    self.on_rebuild()
                # busy until the rebuild ends: Ctrl-C meanwhile stays an
                # interruption (run() re-raises it), so no finally here
                self._busy = True
                lines = self.rebuild(changed)
                self._busy = False
            self.failed = False
            for line in lines:
                self.echo(line if line.startswith("warning: ") else f"rebuilt {line}")
        except PnpError as exc:
            self._busy = False
            self.failed = True
            self.echo(f"error: {exc}")
