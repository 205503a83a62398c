"""Mistakes in a rules text's placeholders: one line naming the file and line as shown.

Run on a copy of the bad-input corpus project (game ``toy``, no rules
engine), in-process, with ``pnp rulebook toy --lang ja --format md``.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Iterator

import pytest
from click.testing import CliRunner

import pnp.games.book_hooks as book_hooks
import pnp.games.registry as registry
from pnp.cli import main
from pnp.errors import PnpError

CORPUS = Path(__file__).resolve().parent.parent / "bad_input" / "project"


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the corpus project, as the current folder; game ``toy`` has no engine.

    (The simulator's tests register a toy engine under the same slug; which
    tests ran before must not decide what this one sees.)
    """
    registry.registered_games()                     # discover the shipped engines first
    monkeypatch.delitem(registry._REGISTRY, "toy", raising=False)
    target = tmp_path / "project"
    shutil.copytree(CORPUS, target)
    monkeypatch.chdir(target)
    yield target


def _error(project: Path, line: str) -> str:
    """Add ``line`` to toy.md, make the book; return the one error line (nothing written)."""
    with (project / "rulebooks" / "toy.md").open("a", encoding="utf-8") as f:
        f.write("\n" + line + "\n")
    result = CliRunner().invoke(main, ["rulebook", "-q", "toy", "--lang", "ja", "--format", "md"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result
    assert result.exit_code == 1, result.output
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    assert not (project / "output" / "toy" / "rulebook.md").exists()
    return lines[0]


@pytest.mark.parametrize("line,message", [
    # nan ended in a traceback; -1 and 5 drew pictures mirrored or off the page
    ("{{ gallery cards=star-1 scale=nan }}",
     "gallery: scale='nan': expected a number above 0 and at most 1"),
    ("{{ gallery cards=star-1 scale=-1 }}", "gallery: scale='-1': expected a number above 0"),
    ("{{ gallery cards=star-1 scale=5 }}", "gallery: scale='5': expected"),
    # it said only "no rules engine for game 'toy'", without the file and line
    ("{{ param hand_size }}",
     "{{ param hand_size }}: no rules engine for game 'toy' (have: "),
    # it quoted Python's "[Errno 2] No such file or directory"
    ("{{ sweep nosuch.json cols=mean_steps }}",
     "sweep: card_data/toy/nosuch.json not found: expected a report saved by pnp simulate "
     "toy --sweep … --json card_data/toy/nosuch.json"),
])
def test_placeholder_mistakes_are_one_located_line(project: Path, line: str,
                                                   message: str) -> None:
    error = _error(project, line)
    # the rules text as the designer sees it (it was /tmp/…/rulebooks/toy.md)
    assert error.startswith("error: rulebooks/toy.md:14: "), error
    assert message in error, error


@pytest.mark.parametrize("fmt", ["pdf", "html", "md"])
def test_an_unclosed_strong_names_the_line_in_every_format(project: Path, fmt: str) -> None:
    """The PDF said only "unclosed **" (no file, no line); Markdown and HTML passed it on."""
    (project / "rulebooks" / "toy.md").write_text("# T\n\nok **a** and\n**b\n",
                                                  encoding="utf-8")
    result = CliRunner().invoke(main, ["rulebook", "-q", "toy", "--lang", "ja", "--format", fmt])
    assert result.exit_code == 1
    assert result.stderr.strip() == ("error: rulebooks/toy.md:3: unclosed ** in 'ok **a** and "
                                     "**b' (strong text needs a closing **)")


def test_a_picture_file_is_refused_not_printed_as_text(project: Path) -> None:
    """![…](art.png) was printed in the book as the literal text."""
    assert _error(project, "![the box](art/box.png)") == (
        "error: rulebooks/toy.md:14: a picture is drawn from the data, not read from a file: "
        "use {{ gallery COMPONENT=ID,… }} or {{ figure NAME }} (docs: rulebooks/README.md)")


def test_a_builder_that_raises_is_one_located_line(project: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A registered builder's error (its own, or a bug) names the rules-text line that asked."""
    def engine_says_no(book: object) -> None:
        raise PnpError("no card 2W left")          # not located by book.fail

    def buggy(book: object) -> None:
        raise KeyError("reel-9")

    monkeypatch.setitem(book_hooks._HOOKS, "toy", book_hooks.RulebookHooks(
        example={"refused": engine_says_no}, figure={"buggy": buggy}))
    assert _error(project, "{{ example refused }}") == (
        "error: rulebooks/toy.md:14: example-refused: no card 2W left")
    (project / "rulebooks" / "toy.md").write_text(
        (CORPUS / "rulebooks" / "toy.md").read_text(encoding="utf-8"), encoding="utf-8")
    error = _error(project, "{{ figure buggy }}")
    assert error.startswith("error: rulebooks/toy.md:14: figure-buggy: the builder failed "
                            "(KeyError: 'reel-9'); this is a bug in pnp/games/toy/examples.py")


def test_a_project_given_by_path_keeps_its_path(project: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """With --project, the rules text is named under the project path as typed."""
    (project / "rulebooks" / "toy.md").write_text("# T\n{{ nosuch }}\n", encoding="utf-8")
    monkeypatch.chdir(project.parent)
    result = CliRunner().invoke(main, ["--project", "project", "rulebook", "-q", "toy", "--lang",
                                       "ja", "--format", "md"])
    assert result.exit_code == 1
    assert result.stderr.startswith("error: project/rulebooks/toy.md:2: unknown placeholder")


def test_a_file_where_the_pictures_go_is_one_line(tmp_path: Path) -> None:
    """A file named rulebook-images (where the Markdown's pictures go) said only "File exists"."""
    from pnp.rulebook.export import export_markdown

    (tmp_path / "rulebook-images").write_text("x", encoding="utf-8")
    with pytest.raises(PnpError) as info:
        export_markdown("fortuna", tmp_path / "rulebook.md", lang="ja")
    assert str(info.value) == (
        f"cannot write the rulebook's pictures into {tmp_path / 'rulebook-images'}: it is a "
        "file, expected a folder (remove the file)")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rulebook-images"]
