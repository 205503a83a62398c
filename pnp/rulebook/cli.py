"""Rulebook export for several games at once (what `pnp rulebook` and `pnp build` call)."""

from __future__ import annotations

from pathlib import Path

from pnp.data import resolve_data_dir, resolve_slugs
from pnp.errors import PnpError
from pnp.rulebook.export import export_rulebook, rulebook_markdown
from pnp.fileio import write_text_atomic


def export_rulebooks(slugs: list[str], *, fmt: str = "pdf", paper: str = "a5",
                     out_dir: Path = Path("output"), data_dir: Path | None = None) -> list[Path]:
    """Write each game's rulebook to ``out_dir/<slug>/rulebook.(pdf|md)``; return the paths."""
    root = resolve_data_dir(data_dir)
    written = []
    for slug in resolve_slugs(root, slugs):
        folder = out_dir / slug
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise PnpError(f"cannot create output folder {folder}: "
                           f"{exc.strerror or exc}") from None
        if fmt == "md":
            path = folder / "rulebook.md"
            write_text_atomic(path, rulebook_markdown(slug, root))
        else:
            path = export_rulebook(slug, folder / f"rulebook-{paper}.pdf", data_dir=root,
                                   paper=paper)
        written.append(path)
    return written
