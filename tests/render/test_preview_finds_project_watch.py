"""`pnp --project DIR preview` asks the watcher of that project, from any working folder.

The watcher listens in the project's output folder; the preview used to
look in ``./output`` of the working folder instead, so with ``--project``
naming another folder it never found the watcher and rendered cold.
"""

from __future__ import annotations

import shutil
import socket
import threading
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pnp.builder.serve import PreviewServer
from pnp.builder.watch import Watcher
from pnp.cli import main

PROJECT = Path(__file__).resolve().parent.parent / "bad_input" / "project"


def test_preview_with_project_is_answered_by_the_projects_watcher(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    project = tmp_path / "project"
    shutil.copytree(PROJECT, project)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    data, templates = project / "card_data", project / "templates"
    watcher = Watcher("toy", data_dir=data, templates_dir=templates, out_dir=project / "output",
                      dpi=36, pdf=False, echo=lambda line: None)
    asked: list[dict[str, Any]] = []

    def answer(request: dict[str, Any]) -> dict[str, Any]:
        asked.append(request)
        return watcher.answer_preview(request)

    server = PreviewServer(project / "output", answer, watcher.lock)
    if not hasattr(socket, "AF_UNIX"):     # Windows: no server; previews render themselves
        assert not server.start()
        return
    assert server.start()
    try:
        result = CliRunner().invoke(main, ["--project", str(project), "preview", "toy", "cards",
                                           "star-1", "--dpi", "36", "--data-dir", str(data),
                                           "--templates-dir", str(templates)])
    finally:
        assert server.sock is not None
        server.sock.shutdown(socket.SHUT_RDWR)     # wake the serving thread, then stop
        for thread in threading.enumerate():
            if "_serve" in thread.name:
                thread.join(10)
        server.stop()
    assert result.exit_code == 0, result.output
    assert len(asked) == 1 and asked[0]["card_ids"] == ["star-1"]
    assert sorted(p.name for p in (project / "output" / "toy" / "preview").iterdir()) == [
        "star-1-back.png", "star-1-face.png"]
    assert not (elsewhere / "output").exists()
