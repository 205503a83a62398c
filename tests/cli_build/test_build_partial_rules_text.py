"""`pnp build` of a game with the rules text of one edition only writes that edition's book.

The corpus game ``toy`` has ``rulebooks/toy.md`` (Japanese) but no
``toy.en.md``: the build wrote no book at all and said the English text was
missing, while ``pnp rulebook toy --lang ja`` wrote the Japanese one.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main

PROJECT = Path(__file__).resolve().parent.parent / "bad_input" / "project"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_build_writes_the_edition_that_has_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                jobs: str) -> None:
    project = tmp_path / "project"
    shutil.copytree(PROJECT, project)
    monkeypatch.chdir(project)
    result = CliRunner().invoke(main, ["build", "-q", "-j", jobs, "toy"])
    assert result.exit_code == 0, result.output
    assert (project / "output" / "toy" / "rulebook-a5.pdf").is_file()
    assert not (project / "output" / "toy" / "rulebook-en-a5.pdf").exists()
    lines = result.stdout.splitlines()
    assert "wrote output/toy/rulebook-a5.pdf" in lines
    notes = [line for line in lines if "no rules text" in line]
    assert notes == ["note: no rulebook for toy (en): no rules text rulebooks/toy.en.md yet "
                     "(its format: rulebooks/README.md; --no-rulebook leaves the books out)"]
