"""The card linter: each check fails on its own fixture, through `pnp check` too.

A one-component game is written to a temporary folder with one face
template per fixture; the linter must name the check, the card and the
template's own line (not the rendered markup's).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.data import load_game_data
from pnp.lint import MIN_BODY_PT, Linter, contrast, luminance

MANIFEST = """[game]
slug = "lintgame"
title = "Lint Game"
players = [1, 2]

[components.cards]
name = "Cards"
kind = "card"
size = "poker"
count = 2
table = "cards.csv"
face = "lintgame/face.xml.j2"
back = "lintgame/back.xml.j2"

[components.cards.columns]
id = { type = "id" }
name = { type = "str" }
qty = { type = "qty" }
"""

GOOD_BACK = """<card width="{{ width }}" height="{{ height }}" bleed="3mm">
  <background fill="#203040"/>
</card>
"""

#: A clean face: every fixture changes one line of it (line 4 is the text box).
GOOD_FACE = """<card width="{{ width }}" height="{{ height }}" bleed="3mm">
  <background fill="#ffffff"/>
  <rect x="5" y="5" width="53" height="20" fill="#eeeeee"/>
  <text id="name" x="6" y="30" width="51" height="10" size="9pt">{{ card.name }}</text>
</card>
"""

TEXT_LINE = 4


def face_with(line: str) -> str:
    """The clean face with its text box (line 4) replaced."""
    lines = GOOD_FACE.splitlines()
    lines[TEXT_LINE - 1] = line
    return "\n".join(lines) + "\n"


FIXTURES = {
    "syntax": ("{% if %}", "error"),
    "undefined": ('  <text id="name" x="6" y="30" width="51" height="10">{{ card.nope }}</text>',
                  "error"),
    "icon": ('  <icon name="no_such_icon" x="6" y="30" width="10" height="10"/>', "error"),
    "overflow": ('  <text id="name" x="6" y="30" width="10" height="4" size="9pt" '
                 'min-size="8pt">{{ card.name }} {{ card.name }} {{ card.name }}</text>',
                 "error"),
    "text-size": ('  <text id="name" x="6" y="30" width="51" height="10" size="4pt">'
                  '{{ card.name }}</text>', "error"),
    "contrast": ('  <text id="name" x="6" y="30" width="51" height="10" size="9pt" '
                 'color="#b4b4b4">{{ card.name }}</text>', "error"),
    "safe-area": ('  <text id="name" x="0.5" y="30" width="51" height="10" size="9pt">'
                  '{{ card.name }}</text>', "warning"),
}


@pytest.fixture()
def game(tmp_path: Path) -> tuple[Path, Path]:
    """(data folder, templates folder) of the clean one-deck game."""
    data = tmp_path / "card_data" / "lintgame"
    data.mkdir(parents=True)
    (data / "manifest.toml").write_text(MANIFEST, encoding="utf-8")
    (data / "cards.csv").write_text("id,name,qty\nc-1,Alpha card,1\nc-2,Beta card,1\n",
                                    encoding="utf-8")
    templates = tmp_path / "templates"
    (templates / "lintgame").mkdir(parents=True)
    (templates / "lintgame" / "face.xml.j2").write_text(GOOD_FACE, encoding="utf-8")
    (templates / "lintgame" / "back.xml.j2").write_text(GOOD_BACK, encoding="utf-8")
    return data.parent, templates


def lint(data: Path, templates: Path) -> list:
    """Findings of the lint game."""
    return Linter(templates).lint_game(load_game_data(data, "lintgame", strict=True))


def check(data: Path, templates: Path, *extra: str) -> tuple[int, str]:
    """Run `pnp check lintgame` (no simulation); return (exit code, output)."""
    result = CliRunner().invoke(main, ["check", "lintgame", "--no-sim", "--data-dir", str(data),
                                       "--templates-dir", str(templates), *extra])
    return result.exit_code, result.output


def test_clean_game_has_no_findings(game: tuple[Path, Path]) -> None:
    assert lint(*game) == []
    code, out = check(*game)
    assert code == 0 and "ok  lintgame" in out


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_each_check_has_a_failing_fixture(game: tuple[Path, Path], name: str) -> None:
    data, templates = game
    line, severity = FIXTURES[name]
    (templates / "lintgame" / "face.xml.j2").write_text(face_with(line), encoding="utf-8")
    findings = lint(data, templates)
    mine = [f for f in findings if f.check == name]
    assert mine, [f.text() for f in findings]
    f = mine[0]
    assert (f.severity, f.game, f.deck, f.side) == (severity, "lintgame", "cards", "face")
    assert f.card == "c-1"
    assert f.template == f"{templates.name}/lintgame/face.xml.j2"
    assert f.line == TEXT_LINE                      # the template's line
    code, out = check(data, templates)
    assert code == (1 if severity == "error" else 0), out
    assert f"face.xml.j2:{TEXT_LINE}: {severity} [{name}]" in out
    assert "Traceback" not in out


def test_inline_icon_that_does_not_exist(game: tuple[Path, Path]) -> None:
    data, templates = game
    csv = data / "lintgame" / "cards.csv"
    csv.write_text("id,name,qty\nc-1,Take {icon:no_such_icon},1\nc-2,Beta,1\n",
                   encoding="utf-8")
    (f,) = lint(data, templates)
    assert (f.check, f.card, f.line) == ("icon", "c-1", TEXT_LINE)
    assert "no_such_icon" in f.message


def test_art_that_stops_at_the_trim_is_a_bleed_warning(game: tuple[Path, Path]) -> None:
    data, templates = game
    face = GOOD_FACE.replace('<background fill="#ffffff"/>',
                             '<rect x="0" y="0" width="63" height="88" fill="#ffffff"/>')
    (templates / "lintgame" / "face.xml.j2").write_text(face, encoding="utf-8")
    findings = lint(data, templates)
    assert {(f.check, f.severity) for f in findings} == {("bleed", "warning")}
    assert "left" in findings[0].message and "bottom" in findings[0].message
    code, out = check(data, templates)
    assert code == 0 and "warning [bleed]" in out and "ok  lintgame" in out


def test_card_drawn_at_the_wrong_size(game: tuple[Path, Path]) -> None:
    data, templates = game
    face = GOOD_FACE.replace('<card width="{{ width }}" height="{{ height }}"',
                             '<card width="50mm" height="{{ height }}"')
    (templates / "lintgame" / "face.xml.j2").write_text(face, encoding="utf-8")
    assert "card-size" in {f.check for f in lint(data, templates)}


def test_a_macro_line_is_named_with_the_card_template(game: tuple[Path, Path]) -> None:
    """An element written by a macro reports the macro's line."""
    data, templates = game
    (templates / "lintgame" / "lib.xml.j2").write_text(
        '{% macro label(t) %}\n<text id="m" x="6" y="30" width="51" height="10" size="4pt">'
        '{{ t }}</text>\n{% endmacro %}\n', encoding="utf-8")
    face = face_with('  {{ lib.label(card.name) }}')
    (templates / "lintgame" / "face.xml.j2").write_text(
        '{% import "lintgame/lib.xml.j2" as lib %}\n' + face, encoding="utf-8")
    (f,) = [f for f in lint(data, templates) if f.check == "text-size" and f.card == "c-1"]
    assert f.template.endswith("lintgame/lib.xml.j2") and f.line == 2


def test_json_lists_every_card_with_template_and_line(game: tuple[Path, Path]) -> None:
    data, templates = game
    line, _ = FIXTURES["text-size"]
    (templates / "lintgame" / "face.xml.j2").write_text(face_with(line), encoding="utf-8")
    code, out = check(data, templates, "--json")
    assert code == 1
    report = json.loads(out)
    entries = [e for e in report["lint"] if e["check"] == "text-size"]
    assert {e["card"] for e in entries} == {"c-1", "c-2"}       # per card in the JSON
    for e in entries:
        assert set(e) >= {"game", "deck", "card", "side", "template", "line", "severity",
                          "message"}
        assert (e["game"], e["deck"], e["line"]) == ("lintgame", "cards", TEXT_LINE)
        assert e["template"].endswith("lintgame/face.xml.j2")
    # the text report groups the cards of one template line
    code, text = check(data, templates)
    assert text.count("[text-size]") == 1 and "also 1 more: c-2" in text


def test_no_lint_skips_the_card_checks(game: tuple[Path, Path]) -> None:
    data, templates = game
    (templates / "lintgame" / "face.xml.j2").write_text(face_with("{% if %}"), encoding="utf-8")
    code, _ = check(data, templates, "--no-lint")
    assert code == 0


def test_wcag_contrast_maths() -> None:
    assert contrast(luminance((0, 0, 0)), luminance((1, 1, 1))) == pytest.approx(21.0)
    assert contrast(luminance((1, 1, 1)), luminance((1, 1, 1))) == pytest.approx(1.0)
    # #767676 on white is the classic 4.5:1 boundary grey
    grey = 0x76 / 255
    assert contrast(luminance((grey,) * 3), 1.0) == pytest.approx(4.54, abs=0.02)
    # the channels weigh differently (WCAG 2: 0.2126 R, 0.7152 G, 0.0722 B):
    # pure red on white is 4.0:1, green 1.37:1, blue 8.59:1
    white = luminance((1, 1, 1))
    assert contrast(luminance((1, 0, 0)), white) == pytest.approx(3.998, abs=0.005)
    assert contrast(luminance((0, 1, 0)), white) == pytest.approx(1.372, abs=0.005)
    assert contrast(luminance((0, 0, 1)), white) == pytest.approx(8.592, abs=0.005)


def _findings_of(game: tuple[Path, Path], line: str, check_name: str) -> list:
    """Findings of ``check_name`` with the face's text box replaced by ``line``."""
    data, templates = game
    (templates / "lintgame" / "face.xml.j2").write_text(face_with(line), encoding="utf-8")
    return [f for f in lint(data, templates) if f.check == check_name]


@pytest.mark.parametrize("size, max_lines, fails", [
    ("6.5pt", "", False), ("6.4pt", "", True),                 # body text floor (guide: 6.5)
    ("6pt", ' max-lines="1"', False), ("5.9pt", ' max-lines="1"', True),   # a one-line label
])
def test_text_size_floor_is_exact(game: tuple[Path, Path], size: str, max_lines: str,
                                  fails: bool) -> None:
    """Body text at 6.5 pt passes and 6.4 pt fails; a one-line label may go to 6 pt."""
    line = (f'  <text id="name" x="6" y="30" width="51" height="10" size="{size}"'
            f'{max_lines}>{{{{ card.name }}}}</text>')
    assert bool(_findings_of(game, line, "text-size")) is fails
    assert MIN_BODY_PT == 6.5


@pytest.mark.parametrize("size, fails", [("9pt", True), ("20pt", False)])
def test_large_text_needs_only_three_to_one(game: tuple[Path, Path], size: str,
                                            fails: bool) -> None:
    """#888888 on white (3.54:1) fails at body size but passes as large text (18 pt+)."""
    line = (f'  <text id="name" x="6" y="30" width="51" height="10" size="{size}" '
            f'color="#888888">{{{{ card.name }}}}</text>')
    assert bool(_findings_of(game, line, "contrast")) is fails
