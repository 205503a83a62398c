"""Every template of every game is rendered, and every shipped card passes the linter.

One linter run renders every side of every distinct card of every component
the games can print (buyable decks, player aids and stickers included) and
must find nothing at all, warnings included: the legibility floor (6.5 pt body
text, 6 pt one-line labels, 4.5:1 contrast), art to the bleed and text inside
the safe area hold for everything we ship.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp import PROJECT_ROOT
from pnp.builder.cards import all_components, component_rows
from pnp.data import load_game_data
from pnp.lint import Linter

DATA = PROJECT_ROOT / "card_data"
TEMPLATES = PROJECT_ROOT / "templates"
GAMES = ("episode2", "fortuna", "fortune_clover", "nine_peak", "undecim")


@pytest.fixture(scope="module")
def linter() -> Linter:
    """One linter (compiled templates shared by the games)."""
    return Linter(TEMPLATES)


@pytest.mark.parametrize("slug", GAMES)
def test_every_shipped_card_passes_the_linter(linter: Linter, slug: str) -> None:
    game = load_game_data(DATA, slug, strict=True)
    findings = linter.lint_game(game)
    assert [f.text() for f in findings] == []


def test_every_template_file_is_used_by_some_component() -> None:
    """No card template lies around unrendered (so the test above sees them all)."""
    used: set[str] = set()
    for slug in GAMES:
        game = load_game_data(DATA, slug, strict=True)
        for component in all_components(game, TEMPLATES):
            assert component_rows(game, component), component.id
            used.update(t for t in (component.face, component.back) if t)
    shipped = {p.relative_to(TEMPLATES).as_posix() for p in TEMPLATES.rglob("*.xml.j2")}
    # libraries of macros are imported by the card templates, not rendered alone
    libraries = {t for t in shipped if t.endswith("style.xml.j2")
                 or t in {"common/macros.xml.j2", "common/aid.xml.j2", "common/base.xml.j2",
                          "common/demo_card.xml.j2"}}
    assert shipped - libraries - used == set()


def test_every_game_has_a_player_aid_for_each_player() -> None:
    for slug in GAMES:
        game = load_game_data(DATA, slug, strict=True)
        aids = [c for c in all_components(game, TEMPLATES)
                if c.id in ("aid", "summary")]
        assert aids, slug
        assert max(c.count for c in aids) >= game.manifest.players[1], slug


def test_every_game_has_an_english_aid() -> None:
    """Each game has an English rulebook, so each has an English player aid too."""
    for slug in ("episode2", "fortuna", "fortune_clover", "nine_peak", "undecim"):
        game = load_game_data(DATA, slug, strict=True)
        assert "aid_en" in {c.id for c in all_components(game, TEMPLATES)}, slug


def test_standard_deck_draws_all_52_distinct_cards() -> None:
    from pnp.builder.preview import render_sides
    from pnp.render.jinja_env import make_environment

    game = load_game_data(DATA, "fortune_clover", strict=True)
    deck = game.manifest.components["deck"]
    sides = render_sides(make_environment(TEMPLATES), game, deck)
    faces = {s.layout.key for s in sides if s.side == "face"}
    backs = {s.layout.key for s in sides if s.side == "back"}
    assert len(faces) == 52 and len(backs) == 1


def test_boss_and_hero_cards_show_hp_and_role() -> None:
    from pnp.builder.preview import render_sides
    from pnp.render.jinja_env import make_environment
    from pnp.render.nodes import Group, Text

    def texts(nodes: tuple) -> list[str]:
        out: list[str] = []
        for n in nodes:
            if isinstance(n, Text):
                out.append("".join(r.text for r in n.runs))
            elif isinstance(n, Group):
                out.extend(texts(n.children))
        return out

    env = make_environment(TEMPLATES)
    game = load_game_data(DATA, "episode2", strict=True)
    bosses = render_sides(env, game, game.manifest.components["enemies"], ["boss-H-Q"],
                          backs=False)
    assert texts(bosses[0].layout.nodes).count("12") == 2       # HP in two corners
    heroes = {s.card: texts(s.layout.nodes) for s in render_sides(
        env, game, game.manifest.components["player"], ["S-7", "S-A", "H-A", "H-6", "D-2",
                                                        "C-3"], backs=False)}
    bonus = game.manifest.constants["spade_bonus"]
    assert f"＋{bonus}" in heroes["S-7"] and "攻撃" in heroes["S-7"]
    assert "即撃破" in heroes["S-A"]
    assert "全回復" in heroes["H-A"] and "＋6" in heroes["H-6"]
    assert "振り直し" in heroes["D-2"] and "攻撃" in heroes["C-3"] and f"＋{bonus}" \
        not in heroes["C-3"]


def test_hp_tracker_marks_the_starting_hp_from_the_data(tmp_path: Path) -> None:
    """Changing starting_hp moves the 開始HP tag to that heart (ruling E3)."""
    import shutil

    from pnp.builder.preview import render_sides
    from pnp.render.jinja_env import make_environment
    from pnp.render.nodes import Text

    data = tmp_path / "card_data"
    shutil.copytree(DATA, data)
    manifest = data / "episode2" / "manifest.toml"
    text = manifest.read_text(encoding="utf-8")
    env = make_environment(TEMPLATES)
    tags = {}
    for hp in (8, 20):
        manifest.write_text(text.replace("starting_hp = 8\n", f"starting_hp = {hp}\n"),
                            encoding="utf-8")
        game = load_game_data(data, "episode2", strict=True)
        (side,) = render_sides(env, game, game.manifest.components["hp_tracker"], backs=False)
        boxes = {n.id: n for n in side.layout.nodes if isinstance(n, Text)}
        start, heart = boxes["start"], boxes[f"hp-{hp}"]
        # the tag sits over the heart of that value, in its row
        assert abs((start.box[0] + start.box[2] / 2) - (heart.box[0] + heart.box[2] / 2)) < 1
        assert abs(start.box[1] - heart.box[1]) < 30
        tags[hp] = start.box
    assert tags[8] != tags[20]


def test_hp_tracker_speaks_the_rulebooks_words() -> None:
    """The tracker's reminder uses the rulebook's and the aid's terms, one clause a line.

    It once said 初期HP, ダイス and 通常クリア where the rulebook and the player
    aid say 開始HP, サイコロ and ノーマル・クリア, and let its lines break
    inside the HP list "（J11・/Q12・K13）".
    """
    from pnp.builder.preview import render_sides
    from pnp.render.jinja_env import make_environment
    from pnp.render.nodes import Text

    game = load_game_data(DATA, "episode2", strict=True)
    (side,) = render_sides(make_environment(TEMPLATES), game,
                           game.manifest.components["hp_tracker"], backs=False)
    boxes = {n.id: n for n in side.layout.nodes if isinstance(n, Text)}
    everything = "".join(r.text for n in boxes.values() for r in n.runs)
    rulebook = (PROJECT_ROOT / "rulebooks" / "episode2.md").read_text(encoding="utf-8")
    for word, variant in (("開始HP", "初期HP"), ("サイコロ", "ダイス"),
                          ("ノーマル・クリア", "通常クリア")):
        assert word in rulebook and word in everything and variant not in everything
    for i in range(1, 5):
        # every line ends a sentence (each rule is two clauses of one line each)
        lines: dict[float, str] = {}
        for r in boxes[f"line-{i}"].runs:
            lines[round(r.y, 1)] = lines.get(round(r.y, 1), "") + r.text
        assert len(lines) == 2 and all(t.endswith("。") for t in lines.values()), lines


def test_undecim_card_text_breaks_between_sentences() -> None:
    """Action cards set one sentence a line; scenario lasting effects end in 「。」.

    The wrap used to split compounds across lines (入/植, 獲/得, 時/間経過)
    and the scenario card dropped the lasting effect's full stop.
    """
    from pnp.builder.preview import render_sides
    from pnp.render.jinja_env import make_environment
    from pnp.render.nodes import Text

    def lines(box: Text) -> list[str]:
        by_y: dict[float, str] = {}
        for r in box.runs:
            by_y[round(r.y, 1)] = by_y.get(round(r.y, 1), "") + r.text
        return [by_y[y] for y in sorted(by_y)]

    env = make_environment(TEMPLATES)
    game = load_game_data(DATA, "undecim", strict=True)
    for side in render_sides(env, game, game.manifest.components["actions"], backs=False):
        rules = next(n for n in side.layout.nodes if isinstance(n, Text) and n.id == "rules")
        text = next(r.values["text"] for r in game.rows["actions"] if r.id == side.card)
        assert lines(rules) == [s + "。" for s in text.split("。") if s], side.card
    for side in render_sides(env, game, game.manifest.components["scenarios"], backs=False):
        always = [n for n in side.layout.nodes if isinstance(n, Text) and n.id == "always"]
        for box in always:
            assert "".join(lines(box)).endswith("。"), side.card
