"""`pnp watch` names the manifest line of a missing face template, as build and preview do."""

from __future__ import annotations

import shutil
from pathlib import Path

from pnp.builder.watch import Watcher

CORPUS = Path(__file__).parent / "project"


def test_watch_reports_the_manifest_line_of_a_missing_template(tmp_path: Path) -> None:
    project = tmp_path / "corpus"
    shutil.copytree(CORPUS, project)
    manifest = project / "card_data" / "toy" / "manifest.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        'face = "toy/face.xml.j2"', 'face = "toy/fac.xml.j2"'), encoding="utf-8")
    lines: list[str] = []
    watcher = Watcher("toy", data_dir=project / "card_data",
                      templates_dir=project / "templates", out_dir=tmp_path / "out",
                      pdf=False, echo=lines.append)
    watcher.run(0.05, rounds=0, serve=False)
    errors = [line for line in lines if line.startswith("error:")]
    assert errors == [
        f"error: {manifest}:18: components.cards.face: template 'toy/fac.xml.j2' not found "
        f"in {project / 'templates'}; did you mean 'toy/face.xml.j2'?"], lines
    assert not (tmp_path / "out" / "toy" / "preview").exists() or not any(
        (tmp_path / "out" / "toy" / "preview").iterdir())
