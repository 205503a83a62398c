"""`pnp watch` on bad input: a missing template, an unknown game, an unwritable output folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.builder.watch import Watcher
from pnp.cli import main
from pnp.errors import PnpError

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


def test_watch_of_an_unknown_game_stops_at_once(tmp_path: Path) -> None:
    """A mistyped game is one line and exit 1, not a watcher waiting for its files."""
    project = tmp_path / "corpus"
    shutil.copytree(CORPUS, project)
    with pytest.raises(PnpError, match=r"unknown game 'tyo' \(known: duo, toy\); did you "
                                       r"mean 'toy'\?"):
        Watcher("tyo", data_dir=project / "card_data", templates_dir=project / "templates",
                out_dir=tmp_path / "out", pdf=False)
    result = CliRunner().invoke(main, ["--project", str(project), "watch", "tyo"])
    assert result.exit_code == 1
    assert result.stderr.startswith("error: unknown game 'tyo'")
    assert "watching" not in result.stdout


def test_watch_into_an_unwritable_folder_stops_at_once(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """No edit can fix an output folder that cannot be made: one error, no watching."""
    project = tmp_path / "corpus"
    shutil.copytree(CORPUS, project)
    out = tmp_path / "locked"
    real_mkdir = Path.mkdir

    def mkdir(self: Path, *args: object, **kwargs: object) -> None:
        if self == out or out in self.parents:
            raise PermissionError(13, "Permission denied", str(self))
        real_mkdir(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "mkdir", mkdir)
    lines: list[str] = []
    watcher = Watcher("toy", data_dir=project / "card_data",
                      templates_dir=project / "templates", out_dir=out, pdf=False,
                      echo=lines.append)
    with pytest.raises(PnpError, match="cannot create .*locked/toy/preview: Permission denied"):
        watcher.run(0.05, rounds=0, serve=False)
    assert lines == []
