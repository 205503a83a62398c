"""`watch`, `preview` and `build` say when text is set below the minimum size.

Only `pnp check` reported lint problems: a 4 pt line in a template went
through `watch` ("rebuilt …"), `preview` and `build` without a word. The
text-size check needs the layout alone, so the commands that lay cards out
run it on the cards they draw and point at `pnp check GAME` for the rest;
the files they write are the same bytes as before.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.builder.watch import Watcher
from pnp.cli import main
from pnp.data import load_game_data
from pnp.lint import Linter
from pnp.render.jinja_env import LAYOUT_LISTENERS

PROJECT = Path(__file__).resolve().parent.parent / "bad_input" / "project"
#: Line 4 of the toy face: the card's name, a one-line label (floor 6 pt).
NAME_LINE = 4


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    """A copy of the toy project (one deck of three cards)."""
    root = tmp_path / "project"
    shutil.copytree(PROJECT, root)
    return root


def _shrink(project: Path, size: str) -> None:
    """Set the toy face's name (line 4) at ``size`` with no room to grow."""
    face = project / "templates" / "toy" / "face.xml.j2"
    lines = face.read_text(encoding="utf-8").splitlines()
    assert 'id="name"' in lines[NAME_LINE - 1]
    lines[NAME_LINE - 1] = lines[NAME_LINE - 1].replace(
        'size="14pt" min-size="8pt"', f'size="{size}" min-size="{size}"')
    face.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _cli(project: Path, *args: str) -> tuple[int, list[str]]:
    """Run pnp in ``project``; (exit code, output lines)."""
    result = CliRunner().invoke(main, ["--project", str(project), *args])
    return result.exit_code, result.output.splitlines()


def _warnings(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("warning: ")]


def test_preview_names_the_card_the_size_and_the_template_line(project: Path) -> None:
    _shrink(project, "4pt")
    code, lines = _cli(project, "preview", "toy", "cards", "star-1", "--no-server",
                       "--out", str(project / "png"))
    assert code == 0
    assert _warnings(lines) == [
        f"warning: toy/cards star-1: text 4.0 pt below 6 pt (templates/toy/face.xml.j2:"
        f"{NAME_LINE}); pnp check toy for all"]
    # a contact sheet counts the other cards with the same line
    code, lines = _cli(project, "preview", "toy", "cards", "--sheet", "--no-server",
                       "--out", str(project / "png"))
    assert code == 0
    (line,) = _warnings(lines)
    assert line.startswith("warning: toy/cards ") and " (and 2 more): text 4.0 pt" in line


def test_clean_cards_print_no_warning(project: Path) -> None:
    code, lines = _cli(project, "preview", "toy", "cards", "star-1", "--no-server",
                       "--out", str(project / "png"))
    assert code == 0 and _warnings(lines) == []
    code, lines = _cli(project, "build", "toy", "--no-rulebook", "-q",
                       "--out", str(project / "out"))
    assert code == 0 and _warnings(lines) == []


def test_watch_warns_for_the_cards_it_redraws(project: Path) -> None:
    face = project / "templates" / "toy" / "face.xml.j2"
    echoed: list[str] = []
    watcher = Watcher("toy", data_dir=project / "card_data", templates_dir=project / "templates",
                      out_dir=project / "out", dpi=30, pdf=False, echo=echoed.append)
    watcher._report(None)
    assert _warnings(echoed) == []
    _shrink(project, "4pt")
    watcher._report({face})
    warned = _warnings(echoed)
    assert len(warned) == 1 and warned[0].endswith(
        f": text 4.0 pt below 6 pt (templates/toy/face.xml.j2:{NAME_LINE}); "
        "pnp check toy for all")
    assert "(and 2 more)" in warned[0]
    # printed after what was rebuilt, without the "rebuilt" prefix
    assert echoed[-1] == warned[0] and echoed[-2].startswith("rebuilt ")


def test_build_says_problems_exist_and_writes_the_same_bytes(project: Path,
                                                             tmp_path: Path) -> None:
    _shrink(project, "4pt")
    code, lines = _cli(project, "build", "toy", "--no-rulebook", "-q",
                       "--out", str(tmp_path / "warned"))
    assert code == 0
    assert _warnings(lines) == [
        "warning: toy: text set below 6.5 pt (one-line labels 6 pt) on 3 distinct card "
        f"side(s) drawn, first at templates/toy/face.xml.j2:{NAME_LINE}; `pnp check toy` "
        "lists every lint problem"]
    assert LAYOUT_LISTENERS == []                       # the build's listener is gone
    # the same build without the count (a listener that never fires) writes the same bytes
    from pnp.builder.decks import BuildOptions, build

    options = BuildOptions(out_dir=tmp_path / "plain", data_dir=project / "card_data",
                           templates_dir=project / "templates")
    game = load_game_data(project / "card_data", "toy", strict=True)
    result = build([game], options)
    warned = sorted((tmp_path / "warned").rglob("*.pdf"))
    assert warned and len(warned) == len({p for p in result.files if p.suffix == ".pdf"})
    for path in warned:
        twin = tmp_path / "plain" / path.relative_to(tmp_path / "warned")
        assert twin.read_bytes() == path.read_bytes(), path.name


def test_the_quick_check_agrees_with_the_linter(project: Path) -> None:
    """watch/preview/build and `pnp check` find the same small text."""
    _shrink(project, "5.5pt")
    game = load_game_data(project / "card_data", "toy", strict=True)
    findings = Linter(project / "templates", caches=False).lint_game(game)
    sized = sorted((f.card, f.line) for f in findings if f.check == "text-size")
    assert sized == [(card, NAME_LINE) for card in sorted({f.card for f in findings
                                                          if f.check == "text-size"})]
    assert len(sized) == 3
    code, lines = _cli(project, "preview", "toy", "cards", "--sheet", "--no-server",
                       "--out", str(project / "png"))
    assert code == 0 and len(_warnings(lines)) == 1 and "5.5 pt below 6 pt" in lines[-1]


def test_a_warm_process_answer_prints_its_warnings(project: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A preview drawn by a warm process prints the warning lines its answer carries."""
    import pnp.cli

    line = "warning: toy/cards star-1: text 4.0 pt below 6 pt (templates/toy/face.xml.j2:4)"
    monkeypatch.setattr(pnp.cli, "_ask_warm_process", lambda where, request: (
        {"paths": ["png/star-1-face.png"], "warnings": [line]}, None))
    monkeypatch.setenv("PNP_PREVIEW_SERVER", "1")
    code, lines = _cli(project, "preview", "toy", "cards", "star-1")
    assert code == 0 and lines == ["wrote png/star-1-face.png", line]


def test_a_warm_process_collects_the_warnings_it_answers_with(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The preview server (here the watcher's answerer) puts the small-text lines in its answer."""
    import os

    _shrink(project, "4pt")
    monkeypatch.chdir(project)
    w = Watcher("toy", out_dir=project / "output", dpi=36, pdf=False, echo=lambda line: None)
    request = {"cwd": os.getcwd(), "game": "toy", "deck": "cards", "card_ids": ["star-1"],
               "dpi": 36, "show_bleed": True, "sheet": False, "preset": None,
               "out_dir": "served", "where": w.where()}
    answer = w.answer_preview(request)
    assert answer["paths"] == ["served/star-1-face.png", "served/star-1-back.png"]
    (line,) = answer["warnings"]
    assert line.startswith("warning: toy/cards star-1: text 4.0 pt below 6 pt") \
        and "face.xml.j2:4" in line
