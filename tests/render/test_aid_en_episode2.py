"""第2話's English player aid says what the rules and the data say.

Both sides are rendered from the shipped templates and data and read as
plain text (suit icons read as their suit glyphs). The text must be English
(the game's name 第2話 is the only Japanese on it), use the English
rulebook's terms, and print a worked fight whose numbers are the ones the
game's own rules arithmetic (``pnp.games.episode2.scoring``) gives for the
manifest's constants and the boss table; a changed constant or boss HP must
change the English aid as it changes the Japanese one, and the aid must pass
the card linter at the widest starting HP the tracker allows.
"""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

import pytest

from pnp import PROJECT_ROOT
from pnp.builder.cards import component_rows
from pnp.builder.context import card_context
from pnp.data import load_game_data
from pnp.data.inventory import GameData
from pnp.games.episode2 import scoring
from pnp.lint import Linter
from pnp.render.jinja_env import make_environment

DATA = PROJECT_ROOT / "card_data"
TEMPLATES = PROJECT_ROOT / "templates"
RULEBOOK_EN = PROJECT_ROOT / "rulebooks" / "episode2.en.md"

#: The inline suit icons (templates/episode2/style.xml.j2, SUITS) read as glyphs.
_SUIT_ICONS = {"spade": "♠", "heart": "♥", "diamond": "♦", "club": "♣"}
_ICON = re.compile(r'<icon\b[^>]*\bname="(\w+)"[^>]*/>')
_BR = re.compile(r"<br\b[^>]*>|</?text\b[^>]*>")
_TAG = re.compile(r"<[^>]+>")
#: Kana, kanji, CJK punctuation and full-width forms (＋, （, ：, the ideographic space).
_JAPANESE = re.compile("[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]")

#: The English rulebook's word for a thing, and variants it does not use.
TERMS: list[tuple[str, tuple[str, ...]]] = [
    ("enemy deck", ("boss deck",)),
    ("pool", ("discard pile",)),
    ("spoils", ("loot", "trophies")),
    ("attack card", ()),
    ("True end", ()),
    ("Normal clear", ()),
    ("Game over", ()),
    ("retreat", ("flee", "escape")),
    ("Discard and draw", ()),
    ("reroll", ()),
    ("dice", ("die ",)),
]


def _sides(game: GameData, component_id: str) -> list[str]:
    """Face and back of one aid as plain text (icons as suit glyphs, tags dropped)."""
    component = game.manifest.components[component_id]
    env = make_environment(TEMPLATES)
    out = []
    for side, template in (("face", component.face), ("back", component.back)):
        assert template is not None
        markup = env.get_template(template).render(**card_context(game, component, None, side))
        markup = _ICON.sub(lambda m: _SUIT_ICONS.get(m.group(1), ""), markup)
        # A line break reads as a space; any other tag as nothing (spans sit inside words).
        text = html.unescape(_TAG.sub("", _BR.sub(" ", markup))).replace("\u00a0", " ")
        out.append(re.sub(r"\s+", " ", text).strip())
    return out


def _copy(tmp_path: Path, constants: dict[str, int]) -> Path:
    """A copy of 第2話's data whose manifest sets the given [game.constants]."""
    data = tmp_path / "card_data"
    shutil.copytree(DATA / "episode2", data / "episode2")
    manifest = data / "episode2" / "manifest.toml"
    lines = manifest.read_text(encoding="utf-8").splitlines()
    for name, value in constants.items():
        hits = [i for i, line in enumerate(lines) if line.startswith(f"{name} =")]
        assert len(hits) == 1, f"manifest has no single {name}"
        lines[hits[0]] = f"{name} = {value}"
    manifest.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return data


def _hp(game: GameData, rank: str) -> int:
    """The HP the boss table gives a rank (every suit alike, ruling E1)."""
    hps = {r.values["hp"] for r in game.rows["enemies"] if r.values["rank"] == rank}
    assert len(hps) == 1, (rank, hps)
    return int(hps.pop())


def _worked_fight(game: GameData) -> list[str]:
    """The example's lines as the rules arithmetic computes them (rulings E2, E3, E4).

    A ♠ attack on a Q rolls 3, 4, 2 and fails; a ♦ rerolls the 2 into a 5
    (the ♠ bonus still counts) and wins; a ♣ attack on a K rolls 2, 3, 4
    and deals damage; a ♥5 heals, capped at the starting HP.
    """
    c = game.manifest.constants
    hp, bonus = int(c["starting_hp"]), int(c["spade_bonus"])
    queen, king = _hp(game, "Q"), _hp(game, "K")
    first = scoring.roll_total([3, 4, 2], bonus)
    assert not scoring.defeats(first, queen), "the example's first roll must fail"
    second = scoring.roll_total([3, 4, 5], bonus)
    assert scoring.defeats(second, queen), "the example's reroll must win"
    third = scoring.roll_total([2, 3, 4], 0)
    lost = scoring.damage(third, king)
    after = hp - lost
    assert after > 0, "the example must not end the run"
    return [
        f"Example: HP {hp} against a Q (HP {queen})",
        f"♠ attack: 3 + 4 + 2 + {bonus} = {first} → {scoring.damage(first, queen)} short",
        f"♦ rerolls the 2, rolling a 5: 3 + 4 + 5 + {bonus} = {second} → defeated",
        f"Next, a K (HP {king}), ♣ attack: 2 + 3 + 4 = {third} → HP {hp} − {lost} = {after}",
        f"♥5 heals → HP {scoring.healed(after, hp, 5, False)} (max {hp})",
    ]


@pytest.fixture(scope="module")
def shipped() -> GameData:
    """第2話 as shipped."""
    return load_game_data(DATA, "episode2", strict=True)


def test_both_sides_render_in_english(shipped: GameData) -> None:
    """Both sides render, titled like the Japanese aid's; only the game's name is Japanese."""
    face, back = _sides(shipped, "aid_en")
    ja_face, ja_back = _sides(shipped, "aid")
    assert face.startswith("One fight") and "1/2" in face
    assert back.startswith("Endings, example") and "2/2" in back
    assert "1回の戦い" in ja_face and "結末と計算の例" in ja_back
    # The game's name in the English rulebook's form: 第2話 (Episode 2).
    title = shipped.manifest.title
    assert f"{title} (Episode 2)" in RULEBOOK_EN.read_text(encoding="utf-8").replace(
        "{{ title }}", title)
    for side in (face, back):
        assert f"{title} (Episode 2)" in side
        assert not _JAPANESE.search(side.replace(title, "")), _JAPANESE.findall(side)


def test_the_aid_uses_the_english_rulebooks_terms(shipped: GameData) -> None:
    aid = " ".join(_sides(shipped, "aid_en"))
    book = RULEBOOK_EN.read_text(encoding="utf-8")
    for term, avoided in TERMS:
        assert term.lower() in book.lower(), f"the English rulebook no longer says {term!r}"
        assert term in aid, f"the English aid does not say {term!r}"
        for variant in avoided:
            assert variant not in aid, f"the English aid says {variant!r}, not {term!r}"


def test_the_turn_prints_the_constants_and_boss_table(shipped: GameData) -> None:
    """Side 1 quotes starting HP, dice, ♠ bonus, hand size and each rank's HP from the data."""
    c = shipped.manifest.constants
    face = _sides(shipped, "aid_en")[0]
    assert f"start HP {c['starting_hp']}" in face
    assert f"HP: J {_hp(shipped, 'J')}, Q {_hp(shipped, 'Q')}, K {_hp(shipped, 'K')}." in face
    assert f"roll {c['attack_dice']} dice" in face
    assert f"(+{c['spade_bonus']} for ♠)" in face
    assert f"draw up to {c['hand_size']} " in face
    assert "♠A: no roll." in face                             # ruling E2a
    back = _sides(shipped, "aid_en")[1]
    total = sum(r.values["qty"] for r in shipped.rows["enemies"])
    assert f"defeat all {total} bosses" in back


def test_the_worked_fight_is_what_the_rules_compute(shipped: GameData) -> None:
    back = _sides(shipped, "aid_en")[1]
    for line in _worked_fight(shipped):
        assert line in back, f"{line!r} not on the aid: {back}"
    # The shipped numbers, written out once (8 HP, ♠ +1, Q 12, K 13).
    assert "= 10 → 2 short" in back and "= 13 → defeated" in back
    assert "HP 8 − 4 = 4" in back and "heals → HP 8 (max 8)" in back


@pytest.mark.parametrize("constants", [
    {"starting_hp": 12, "spade_bonus": 2, "hand_size": 4},
    {"starting_hp": 30, "spade_bonus": 0},
])
def test_changed_constants_change_both_aids(tmp_path: Path, constants: dict[str, int]) -> None:
    """A changed rule prints on the English aid as on the Japanese one; both still fit."""
    game = load_game_data(_copy(tmp_path, constants), "episode2", strict=True)
    c = game.manifest.constants
    assert all(c[k] == v for k, v in constants.items())
    face, back = _sides(game, "aid_en")
    ja_face, ja_back = _sides(game, "aid")
    assert f"start HP {c['starting_hp']}" in face and "start HP 8" not in face
    assert f"開始HP {c['starting_hp']}" in ja_face
    assert f"(+{c['spade_bonus']} for ♠)" in face and f"＋{c['spade_bonus']}" in ja_face
    assert f"draw up to {c['hand_size']} " in face and f"手札{c['hand_size']}枚" in ja_face
    for line in _worked_fight(game):
        assert line in back, f"{line!r} not on the aid: {back}"
    assert f"HP{c['starting_hp']}でQ" in ja_back
    findings = [f.text() for f in Linter(TEMPLATES).lint_game(game)
                if f.deck in ("aid", "aid_en")]
    assert findings == []


def test_the_number_of_dice_follows_the_manifest(tmp_path: Path) -> None:
    """attack_dice = 4: both aids tell the player to roll 4 dice (ruling E4).

    The worked fight on side 2 rolls three dice in both editions, so it is
    not checked here: a designer who changes the dice writes a new example.
    """
    game = load_game_data(_copy(tmp_path, {"attack_dice": 4}), "episode2", strict=True)
    face, ja_face = _sides(game, "aid_en")[0], _sides(game, "aid")[0]
    assert "roll 4 dice" in face and "roll 3 dice" not in face
    assert "サイコロ4個" in ja_face


def test_the_aid_follows_the_boss_table(tmp_path: Path) -> None:
    """Kings at 12 HP in enemies.csv: side 1 lists K 12 and the example's K hits for 3."""
    data = _copy(tmp_path, {})
    table = data / "episode2" / "enemies.csv"
    text = table.read_text(encoding="utf-8")
    table.write_text(re.sub(r"(,K),13,", r"\1,12,", text), encoding="utf-8")
    game = load_game_data(data, "episode2")      # not strict: the per-rank rule objects
    face, back = _sides(game, "aid_en")
    assert "K 12." in face and "K 13" not in face
    hp = game.manifest.constants["starting_hp"]
    assert "a K (HP 12)" in back and f"HP {hp} − 3 = {hp - 3}" in back
    assert _worked_fight(game)[3] in back


def test_the_shipped_aid_passes_the_linter(shipped: GameData) -> None:
    """No lint finding on either side; printed like the Japanese aid (kind, count, sides)."""
    findings = [f.text() for f in Linter(TEMPLATES).lint_game(shipped) if f.deck == "aid_en"]
    assert findings == []
    assert "aid_en" in shipped.manifest.components
    aid, aid_en = (shipped.manifest.components[k] for k in ("aid", "aid_en"))
    assert (aid_en.kind, aid_en.supply, aid_en.size, aid_en.count, aid_en.two_sided) == (
        aid.kind, aid.supply, aid.size, aid.count, aid.two_sided)
    assert (aid_en.face, aid_en.back) == ("episode2/aid_en_face.xml.j2",
                                          "episode2/aid_en_back.xml.j2")
    order = list(shipped.manifest.components)
    assert order.index("aid_en") == order.index("aid") + 1
    assert component_rows(shipped, aid_en)
