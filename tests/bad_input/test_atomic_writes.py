"""Every file pnp writes goes through the one atomic writer (pnp.fileio.atomic_path).

The commands are run on the corpus project while every open-for-writing is
recorded. A file under ``output/`` may only ever be opened for writing under
a temp name (``.<name>.pnp<pid>-<hex>.tmp``); the final name appears only by
the rename that completes it. So a killed or failing run can never leave a
truncated file under a final name.
"""

from __future__ import annotations

import builtins
import io
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pnp.cli import main

PROJECT = Path(__file__).parent / "project"
TEMP = re.compile(r"^\..+\.pnp\d+-[0-9a-f]{8}\.tmp$")

#: Commands covering every kind of output: PDF sheets, print-service PDFs and
#: PNGs, Tabletop Simulator PNG + JSON, preview PNGs and contact sheet,
#: rulebook PDF, HTML and Markdown with its pictures.
COMMANDS = [
    ["build", "-q", "--no-rulebook", "--preset", "home-a4", "--preset", "drivethru",
     "--preset", "tgc", "--preset", "tts"],
    ["preview", "toy", "cards"],
    ["preview", "toy", "cards", "--sheet"],
    ["rulebook", "toy", "--lang", "ja", "--format", "all"],
]


@pytest.fixture()
def writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Run in a copy of the corpus project, recording every path opened for writing."""
    project = tmp_path / "project"
    shutil.copytree(PROJECT, project)
    monkeypatch.chdir(project)
    seen: list[Path] = []
    real_os_open, real_open = os.open, builtins.open

    def note(path: Any) -> None:
        if isinstance(path, (str, bytes, os.PathLike)):
            seen.append(Path(os.fsdecode(path)).absolute())

    def os_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            note(path)
        return real_os_open(path, flags, *args, **kwargs)

    def open_(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if set(mode) & set("wax+"):
            note(file)
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr(builtins, "open", open_)
    monkeypatch.setattr(io, "open", open_)
    return seen


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_outputs_are_written_through_a_temp(writes: list[Path], args: list[str]) -> None:
    """No output file is ever opened for writing under its final name."""
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    out = Path("output").absolute()
    produced = [p for p in out.rglob("*") if p.is_file()]
    assert produced, "the command wrote nothing"
    opened = [p for p in writes if p.is_relative_to(out)]
    direct = sorted({p.relative_to(out).as_posix() for p in opened if not TEMP.match(p.name)})
    assert not direct, f"opened for writing under the final name: {direct}"
    # and every produced file was written through a temp of its own name
    temps = {p.name for p in opened}
    for path in produced:
        assert any(t.startswith(f".{path.name}.pnp") for t in temps), path
