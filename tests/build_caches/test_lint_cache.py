"""The card linter's caches: a warm ``pnp check`` renders and rasterises only what changed.

Each test lints the duo game (two decks of three cards, one shared back)
with a face template that draws a 4 pt text, a low-contrast text and, on
one card, text that overflows, into its own cache folder. A new
:class:`~pnp.lint.Linter` per run stands for a new process. Spies count the
Jinja renders and markup parses (per card side), the ``check_layout`` calls
and the rasters; the findings of every run are compared, in full, with a
run that has no caches (``PNP_BUILD_CACHE=0``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import pnp.lint as lint
import pnp.render.layout as layout_mod
from pnp.cli import main
from pnp.data import load_game_data
from pnp.render.diskcache import MAGIC, DiskCache

from cache_entries import BACK as DUO_BACK, damage, duo_game, entries, replace_in, shadow_icon

#: A face with findings on every card: line 5 a 4 pt text, line 6 a pale text
#: (cream on cream), line 7 a text over the icon's corner in the icon's colour
#: (passes while the icon is a bolt, which leaves that corner bare); card ``cards2`` overflows a tiny box (line 8).
FACE = ('<card width="{{ width }}" height="{{ height }}" bleed="3mm">\n'
        '  <background fill="#f4ead5"/>\n'
        '  <text x="6" y="8" width="51" height="10" size="12" font="display">{{ card.name }}'
        '</text>\n'
        '  <icon name="bolt" x="21.5" y="25" width="20" height="20" color="#6b4f1d"/>\n'
        '  <text id="tiny" x="6" y="50" width="51" height="6" size="4" min-size="4">'
        '{{ card.text }}</text>\n'
        '  <text id="pale" x="6" y="60" width="51" height="8" size="9" color="#c8bca8">'
        '{{ card.name }}</text>\n'
        '  <text id="on-icon" x="22" y="39" width="6" height="4" size="8" max-lines="1" '
        'color="#6b4f1d">ok</text>\n'
        "{% if card.id == 'cards2' %}  <text id=\"long\" x=\"6\" y=\"70\" width=\"8\" "
        'height="3" size="9" min-size="8">{{ card.name }} {{ card.name }}</text>{% endif %}\n'
        '</card>\n')
#: The shared back, with a 4 pt label on line 4 (reported once, on the first card).
BACK = DUO_BACK.replace("</card>", '  <text id="mark" x="6" y="78" width="51" height="4" '
                        'size="4" max-lines="1" color="#c9a227">Duo</text>\n</card>')
#: Sides the duo game has: three faces and a shared back in each of two decks.
SIDES = 2 * 3 * 2


@pytest.fixture()
def game(tmp_path: Path) -> tuple[Path, Path]:
    """(data folder, templates folder) of the duo game with the findings face and back."""
    data, templates = duo_game(tmp_path / "game")
    (templates / "duo" / "face.xml.j2").write_text(FACE, encoding="utf-8")
    (templates / "duo" / "back.xml.j2").write_text(BACK, encoding="utf-8")
    return data, templates


class Spy:
    """What a lint run rendered: Jinja renders, markup parses, checks and rasters."""

    def __init__(self) -> None:
        self.rendered: list[tuple[str, str]] = []   # (card id, side) per Jinja render
        self.parsed = 0
        self.checked: list[tuple[str, str]] = []    # (card id, side) per check_layout
        self.rasters = 0

    def clear(self) -> None:
        """Forget the last run."""
        self.__init__()  # type: ignore[misc]


@pytest.fixture()
def spy(monkeypatch: pytest.MonkeyPatch) -> Spy:
    """Count the work of this test's lint runs."""
    seen = Spy()
    render_template, parse_card = layout_mod.render_template, layout_mod.parse_card
    check_layout, raster_init = lint.check_layout, lint._Raster.__init__

    def rendering(env: Any, name: str, context: dict[str, Any], **kw: Any) -> str:
        seen.rendered.append((context["card"].get("id", "-"), context["side"]))
        return render_template(env, name, context, **kw)

    def parsing(*args: Any, **kw: Any) -> Any:
        seen.parsed += 1
        return parse_card(*args, **kw)

    def checking(layout: Any, card: Any, round_piece: bool = False) -> Any:
        seen.checked.append((card.card, card.side))
        return check_layout(layout, card, round_piece)

    def rastering(self: Any, layout: Any) -> None:
        seen.rasters += 1
        raster_init(self, layout)

    monkeypatch.setattr(layout_mod, "render_template", rendering)
    monkeypatch.setattr(layout_mod, "parse_card", parsing)
    monkeypatch.setattr(lint, "check_layout", checking)
    monkeypatch.setattr(lint._Raster, "__init__", rastering)
    return seen


def run(data: Path, templates: Path) -> list[dict[str, Any]]:
    """Lint the duo game as a new process would; every finding as JSON."""
    game = load_game_data(data, "duo", strict=True)
    return [f.to_json() for f in lint.Linter(templates).lint_game(game)]


def run_off(data: Path, templates: Path, monkeypatch: pytest.MonkeyPatch
            ) -> list[dict[str, Any]]:
    """The findings with the build caches turned off."""
    with monkeypatch.context() as m:
        m.setenv("PNP_BUILD_CACHE", "0")
        linter = lint.Linter(templates)
        assert linter.store is None and linter.env.markup_store is None
        return [f.to_json() for f in
                linter.lint_game(load_game_data(data, "duo", strict=True))]


def checks(findings: list[dict[str, Any]]) -> set[tuple[str, str, str, int | None]]:
    """(check, card, side, line) of each finding."""
    return {(f["check"], f["card"], f["side"], f["line"]) for f in findings}


def test_cold_warm_damaged_and_off_report_the_same(game: tuple[Path, Path], cache: Path,
                                                   spy: Spy, monkeypatch: pytest.MonkeyPatch
                                                   ) -> None:
    """A warm run renders only the side that fails to render; damaged entries are misses."""
    data, templates = game
    cold = run(data, templates)
    # the fixture's findings: every face, 4 pt and pale; cards2 overflows (no layout)
    faces = [f"{deck}{i}" for deck in ("cards", "chips") for i in (1, 2, 3)]
    assert checks(cold) == ({("text-size", c, "face", 5) for c in faces if c != "cards2"}
                            | {("contrast", c, "face", 6) for c in faces if c != "cards2"}
                            | {("overflow", "cards2", "face", 8)}
                            | {("text-size", "cards1", "back", 4)})   # the shared back: once
    assert len(spy.rendered) == SIDES and spy.rasters == 6    # five faces and one back
    kept = entries(cache, "lint")
    assert len(kept) == SIDES - 1                               # not the overflowing side
    spy.clear()
    assert run(data, templates) == cold
    # only the side that does not render is rendered again, and nothing is rasterised
    assert spy.rendered == [("cards2", "face")] and spy.checked == [] and spy.rasters == 0
    damage(kept[0], kept[1])
    spy.clear()
    assert run(data, templates) == cold
    assert spy.rendered == [("cards2", "face")]     # the markup cache still has the rest
    assert 1 <= spy.parsed - 1 <= 2                 # the two damaged sides are laid out again
    assert all(e.read_bytes().startswith(MAGIC) for e in entries(cache, "lint"))
    assert len(entries(cache, "lint")) == SIDES - 1
    spy.clear()
    assert run_off(data, templates, monkeypatch) == cold
    assert len(spy.rendered) == SIDES and spy.rasters == 6


def test_pnp_check_prints_the_same_cold_warm_and_off(game: tuple[Path, Path], cache: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """``pnp check`` (text and --json) says the same with and without kept results."""
    data, templates = game

    def check(*extra: str) -> tuple[int, str]:
        result = CliRunner().invoke(main, ["check", "duo", "--no-sim", "--data-dir", str(data),
                                           "--templates-dir", str(templates), *extra])
        return result.exit_code, result.output

    cold = check(), check("--json")
    assert cold[0][0] == 1 and "[text-size] duo/cards cards1 (face)" in cold[0][1]
    assert len(json.loads(cold[1][1])["lint"]) == 12
    assert (check(), check("--json")) == cold
    monkeypatch.setenv("PNP_BUILD_CACHE", "0")
    assert (check(), check("--json")) == cold


def test_a_row_edit_relints_only_that_card(game: tuple[Path, Path], cache: Path, spy: Spy,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """An edited CSV row renders that card's sides again and checks its new face only."""
    data, templates = game
    run(data, templates)
    spy.clear()
    replace_in(data / "duo" / "chips.csv", "chips 3,3枚引く。", "chips 3,5枚引く。")
    warm = run(data, templates)
    assert set(spy.rendered) == {("chips3", "face"), ("chips3", "back"), ("cards2", "face")}
    assert spy.checked == [("chips3", "face")] and spy.rasters == 1   # its back is the shared one
    assert warm == run_off(data, templates, monkeypatch)


@pytest.mark.parametrize("edit", ["icon", "template"])
def test_an_icon_or_template_edit_relints(game: tuple[Path, Path], cache: Path, spy: Spy,
                                          edit: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A changed icon file or template is linted anew and its new findings reported."""
    data, templates = game
    before = run(data, templates)
    assert not any(f["line"] == 7 for f in before)   # the text on the thin bolt passes
    spy.clear()
    if edit == "icon":
        # the same markup; the bolt becomes a square in the text's own colour
        shadow_icon(templates, "duo", "bolt")
    else:
        replace_in(templates / "duo" / "face.xml.j2", 'size="8" max-lines="1" '
                   'color="#6b4f1d"', 'size="8" max-lines="1" color="#ddd2bd"')
    warm = run(data, templates)
    assert spy.rasters >= 5
    assert checks(warm) - checks(before) == {("contrast", c, "face", 7) for c in
                                             ("cards1", "cards3", "chips1", "chips2", "chips3")}
    assert warm == run_off(data, templates, monkeypatch)


def test_the_same_markup_on_two_cards_names_each_card(game: tuple[Path, Path], cache: Path,
                                                      spy: Spy, monkeypatch: pytest.MonkeyPatch
                                                      ) -> None:
    """Identical sides are reported once, under the card that has the side now."""
    data, templates = game
    # chips1 draws exactly what cards1 draws: its findings are reported once, as cards1's
    replace_in(data / "duo" / "chips.csv", "chips1,chips 1,", "chips1,cards 1,")
    cold = run(data, templates)
    assert {f["card"] for f in cold if f["line"] == 5} == {"cards1", "cards3", "chips2",
                                                           "chips3"}
    assert run(data, templates) == cold
    # cards1 changes: chips1 is now the first (and only) card with that face
    replace_in(data / "duo" / "cards.csv", "cards1,cards 1,", "cards1,cards one,")
    spy.clear()
    warm = run(data, templates)
    assert ("chips1", "face") in spy.checked
    assert {f["card"] for f in warm if f["line"] == 5} == {"cards1", "cards3", "chips1",
                                                           "chips2", "chips3"}
    assert warm == run_off(data, templates, monkeypatch)


def test_sides_that_place_a_raster_image_are_checked_every_run(game: tuple[Path, Path],
                                                                cache: Path, spy: Spy) -> None:
    """A face placing a PNG is linted on every run (its key does not cover the pixels)."""
    from PIL import Image

    data, templates = game
    Image.new("RGB", (8, 8), (200, 40, 40)).save(templates / "duo" / "dot.png")
    replace_in(templates / "duo" / "face.xml.j2", "</card>",
               "{% if card.id == 'chips1' %}<image href=\"duo/dot.png\" x=\"2\" y=\"2\" "
               "width=\"5\" height=\"5\"/>{% endif %}\n</card>")
    cold = run(data, templates)
    spy.clear()
    assert run(data, templates) == cold
    assert spy.checked == [("chips1", "face")] and spy.rasters == 1
    # its markup is kept, its layout is not (it places an image): parsed again
    assert spy.parsed == 1 + 1                      # and cards2, which overflows


def test_the_key_covers_the_side_the_shape_and_the_folder(tmp_path: Path) -> None:
    """Every part of a lint key counts; a foreign payload is a miss."""
    store = lint.LintStore(DiskCache(tmp_path, 2**20), "salt")
    base = store.key("m", round_piece=False, templates="templates")
    others = {store.key("m2", round_piece=False, templates="templates"),
              store.key("m", round_piece=True, templates="templates"),
              store.key("m", round_piece=False, templates="other"),
              lint.LintStore(store.cache, "salt2").key("m", round_piece=False,
                                                        templates="templates")}
    assert base not in others and len(others) == 4
    result = lint.SideResult(1 / 3, 252.0, "k", (("error", "contrast", "t/f.j2", 5, "é"),))
    store.put(base, result)
    assert store.get(base) == result
    unchecked = lint.SideResult(1.0, 2.0, "k", None)
    store.put(base, unchecked)
    assert store.get(base) == unchecked
    for payload in (b"not json", b'{"width": 1}', b'{"width": 1, "height": 2, '
                    b'"layout_key": "k", "findings": [[1, 2]]}'):
        store.cache.put(base, payload)
        assert store.get(base) is None


@pytest.mark.parametrize("part", ["code", "fonts"])
def test_the_salt_covers_the_code_and_the_fonts(part: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Other pnp code or another font file gives other lint keys."""
    from pnp.builder import serve
    from pnp.render import fonts

    before = lint.lint_salt()
    if part == "code":
        monkeypatch.setattr(serve, "code_stamp", lambda skip=(): "another pnp")
    else:
        tag = fonts.font_tag
        monkeypatch.setattr(fonts, "font_tag", lambda name: tag(name) + "'")
    assert lint.lint_salt() != before
