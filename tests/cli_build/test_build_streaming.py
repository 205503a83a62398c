"""Issue 10 item 7: the default build renders cards as its sheets need them.

A one-profile home-sheet build (plain ``pnp build``) draws each sheet file
while rendering its cards and holds only a few layouts at a time; the files
are written once every card of every game rendered. Checked here: the bytes
equal those of the all-cards-first path, a bad card (even one with qty 0,
even in the last deck) still leaves no file, and a back that never reads
``card`` is rendered once per deck while one that does is rendered per card.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pnp import PROJECT_ROOT
from pnp.builder import decks
from pnp.builder.decks import BuildOptions, build, build_game, load_for_build, reads_card
from pnp.errors import PnpError
from pnp.render.jinja_env import make_environment

FACE = """{% import "common/macros.xml.j2" as m %}
<card width="{{ width }}" height="{{ height }}" bleed="3mm">
  <background fill="linear-gradient(180deg, #f4ead5, #e0d0b0)"/>
  {{ m.frame("#6b4f1d") }}
  {{ m.title_bar(card.name, y=5) }}
  <icon name="{{ card.icon }}" x="21.5" y="18" width="20" height="20" color="#6b4f1d"/>
  {{ m.rules(card.text, y=58, height=24, min_size=6.5) }}
</card>
"""
BACK = """<card width="{{ width }}" height="{{ height }}" bleed="3mm">
  <background fill="#203040"/>
  <icon name="star" x="16.5" y="29" width="30" height="30" color="#c9a227"/>
</card>
"""
#: A back that shows the card's id: it must be rendered for every card.
BACK_WITH_ID = BACK.replace("</card>", """  <text x="5" y="80" width="53" height="6" size="7" color="#ffffff">{{ card.id }}</text>
</card>""")


def make_project(root: Path, rows: list[tuple[str, str, int]], back: str = BACK,
                 extra: list[tuple[str, str, int]] | None = None) -> BuildOptions:
    """A one-game project (cards: id, icon, qty) under ``root``; return its build options.

    ``extra`` adds a second deck ("extra", printed after "cards") with those rows.
    """
    data = root / "card_data" / "scale"
    data.mkdir(parents=True)
    (data / "manifest.toml").write_text(f"""[game]
slug = "scale"
title = "Scale"
players = [2, 4]
[components.cards]
name = "Cards"
kind = "card"
size = "poker"
count = {sum(q for _, _, q in rows)}
table = "cards.csv"
face = "scale/face.xml.j2"
back = "scale/back.xml.j2"
[components.cards.columns]
id = {{ type = "id" }}
name = {{ type = "str" }}
icon = {{ type = "str" }}
text = {{ type = "text" }}
qty = {{ type = "qty" }}
""", encoding="utf-8")
    if extra is not None:
        manifest = (data / "manifest.toml").read_text(encoding="utf-8")
        block = manifest[manifest.index("[components.cards]"):]
        block = (block.replace("components.cards", "components.extra")
                 .replace('"cards.csv"', '"extra.csv"').replace('"Cards"', '"Extra"'))
        block = block.replace(f"count = {sum(q for _, _, q in rows)}",
                              f"count = {sum(q for _, _, q in extra)}")
        (data / "manifest.toml").write_text(manifest + block, encoding="utf-8")
        (data / "extra.csv").write_text("\n".join(["id,name,icon,text,qty"] + [
            f"{cid},{cid},{icon},Card {cid}.,{qty}" for cid, icon, qty in extra]) + "\n",
            encoding="utf-8")
    lines = ["id,name,icon,text,qty"] + [
        f"{cid},カード{cid},{icon},このカードを出したら1枚引く。Card {cid}.,{qty}"
        for cid, icon, qty in rows]
    (data / "cards.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    templates = root / "templates"
    shutil.copytree(PROJECT_ROOT / "templates" / "common", templates / "common")
    (templates / "scale").mkdir()
    (templates / "scale" / "face.xml.j2").write_text(FACE, encoding="utf-8")
    (templates / "scale" / "back.xml.j2").write_text(back, encoding="utf-8")
    return BuildOptions(out_dir=root / "out", data_dir=root / "card_data",
                        templates_dir=templates)


ROWS = [(f"c{i}", "bolt" if i % 2 else "star", 1 + i % 3) for i in range(1, 31)]


def test_streamed_sheets_equal_the_render_first_path(tmp_path: Path) -> None:
    """`build` (streaming, one profile) writes the bytes build_game writes from a full render."""
    options = make_project(tmp_path, ROWS)
    games = load_for_build(["scale"], options)
    streamed = build(games, options)
    assert [p.name for p in streamed.files] == ["cards-a4.pdf", "calibration-a4.pdf"]
    assert streamed.faces == sum(q for _, _, q in ROWS)
    other = BuildOptions(out_dir=tmp_path / "other", data_dir=options.data_dir,
                         templates_dir=options.templates_dir)
    env = make_environment(other.templates_dir)  # type: ignore[arg-type]
    full = build_game(env, games[0], other)
    assert full.faces == streamed.faces and full.notes == streamed.notes
    assert full.bleed == streamed.bleed and len(streamed.bleed) == 1
    a = (tmp_path / "out" / "scale" / "cards-a4.pdf").read_bytes()
    b = (tmp_path / "other" / "scale" / "cards-a4.pdf").read_bytes()
    assert a == b


@pytest.mark.parametrize("bad_qty", [1, 0])
def test_a_bad_last_card_leaves_no_file(tmp_path: Path, bad_qty: int) -> None:
    """An unknown icon on the last card (printed or qty 0) stops the build: nothing written."""
    options = make_project(tmp_path, ROWS + [("c99", "no-such-icon", bad_qty)])
    games = load_for_build(["scale"], options)
    with pytest.raises(PnpError, match="no-such-icon"):
        build(games, options)
    out = tmp_path / "out"
    assert not out.exists() or not [p for p in out.rglob("*") if p.is_file()]


def test_a_bad_card_in_a_later_deck_leaves_no_file(tmp_path: Path) -> None:
    """The first deck's sheets are drawn, the second deck fails: neither file is written."""
    options = make_project(tmp_path, ROWS, extra=[("e1", "star", 1), ("e2", "no-such-icon", 1)])
    games = load_for_build(["scale"], options)
    with pytest.raises(PnpError, match="no-such-icon"):
        build(games, options)
    out = tmp_path / "out"
    assert not out.exists() or not [p for p in out.rglob("*") if p.is_file()]


def test_two_decks_are_both_written(tmp_path: Path) -> None:
    """With good cards both decks' files appear (the deferred writes all happen)."""
    options = make_project(tmp_path, ROWS, extra=[("e1", "star", 2)])
    result = build(load_for_build(["scale"], options), options)
    assert sorted(p.name for p in result.files) == ["calibration-a4.pdf", "cards-a4.pdf",
                                                    "extra-a4.pdf"]
    assert all(p.is_file() for p in result.files)


def test_sheets_hold_few_cards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While sheets are drawn, at most KEEP rendered cards are held (not the whole deck)."""
    monkeypatch.setattr(decks._CardsOnDemand, "KEEP", 4)
    held: list[int] = []
    real = decks._CardsOnDemand.__getitem__

    def spy(self: decks._CardsOnDemand, i: int) -> object:
        item = real(self, i)
        held.append(len(self._kept))
        return item

    monkeypatch.setattr(decks._CardsOnDemand, "__getitem__", spy)
    options = make_project(tmp_path, ROWS)
    build(load_for_build(["scale"], options), options)
    assert held and max(held) == 4


def _count_back_renders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, back: str) -> int:
    """Build a project with ``back``; return how many times the back template was rendered."""
    calls: list[str] = []
    real = decks.render_layout

    def spy(env: object, name: str, *args: object, **kwargs: object) -> object:
        calls.append(name)
        return real(env, name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(decks, "render_layout", spy)
    options = make_project(tmp_path, ROWS, back)
    build(load_for_build(["scale"], options), options)
    return calls.count("scale/back.xml.j2")


def test_a_card_free_back_is_rendered_once(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A back that never reads ``card`` renders once for the deck."""
    assert _count_back_renders(tmp_path, monkeypatch, BACK) == 1


def test_a_back_that_reads_card_is_rendered_per_card(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A back showing the card's id renders for every card (and shows each id)."""
    assert _count_back_renders(tmp_path, monkeypatch, BACK_WITH_ID) == len(ROWS)


@pytest.mark.parametrize(("source", "helper", "reads"), [
    ("{{ width }}", "", False),
    ("{{ card.id }}", "", True),
    ("{% if card %}x{% endif %}", "", True),
    ("{% set x = card %}", "", True),
    ('{% include "t/helper.j2" %}', "{{ card.name }}", True),
    ('{% include "t/helper.j2" %}', "{{ game.title }}", False),
    ('{% extends "t/helper.j2" %}', "{{ card.name }}", True),
    ('{% import "t/helper.j2" as h %}{{ h.m(1) }}',
     "{% macro m(card) %}{{ card }}{% endmacro %}", False),
    ('{% import "t/helper.j2" as h %}{{ h.m(card) }}',
     "{% macro m(x) %}{{ x }}{% endmacro %}", True),
    ('{% import "t/helper.j2" as h with context %}{{ h.m() }}',
     "{% macro m() %}{{ card.id }}{% endmacro %}", True),
    ('{% from "t/helper.j2" import m with context %}{{ m() }}',
     "{% macro m() %}{{ card.id }}{% endmacro %}", True),
    ('{% include game.slug ~ "/helper.j2" %}', "{{ width }}", True),
    ('{% macro m() %}{{ card.id }}{% endmacro %}', "", True),
    ('{% include "t/self.j2" %}', "", True),
])
def test_reads_card(tmp_path: Path, source: str, helper: str, reads: bool) -> None:
    """What counts as reading ``card``: names, includes, imports with and without context."""
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "self.j2").write_text(source, encoding="utf-8")
    (tmp_path / "t" / "helper.j2").write_text(helper, encoding="utf-8")
    env = make_environment(tmp_path)
    assert reads_card(env, "t/self.j2") is reads


def test_identical_gradients_share_one_shading(tmp_path: Path) -> None:
    """Thirty faces with the same gradient background carry one shading object, not thirty."""
    options = make_project(tmp_path, ROWS)
    build(load_for_build(["scale"], options), options)
    data = (tmp_path / "out" / "scale" / "cards-a4.pdf").read_bytes()
    assert data.count(b"/ShadingType") == 1
    # every card form still names it in its own resources
    assert data.count(b"/Shading <<") >= len(ROWS)
