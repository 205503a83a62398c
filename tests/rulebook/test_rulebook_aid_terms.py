"""Player aids say what the rulebooks say: their terms, their numbers, both editions.

The aids (and Undecim's summary cards) are rendered from the shipped
templates and data and read as plain text; each game's key terms must appear
both in its rulebook source and on its aids, and the variants the rulebooks
do not use must not. The English Undecim aid carries the same two sides as
the Japanese one (scoring, then the eleven actions); every game has an
English aid, held to the English rulebook's terms.
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
from pnp.render.jinja_env import make_environment

DATA = PROJECT_ROOT / "card_data"
TEMPLATES = PROJECT_ROOT / "templates"
RULEBOOKS = PROJECT_ROOT / "rulebooks"

#: Per game and edition: the rulebook's word for a thing, and the variants
#: the rulebook does not use (an aid must not say them either).
TERMS: dict[tuple[str, str], list[tuple[str, tuple[str, ...]]]] = {
    ("fortuna", "ja"): [("エンド山", ()), ("捨て札置き場", ()), ("オールインセット", ()),
                        ("ホイールオブフォーチュン", ()), ("女神", ())],
    ("nine_peak", "ja"): [("【エリア】", ()), ("簡単計算", ()), ("しっかり計算", ()),
                          ("ピーク札", ()), ("ペルソナ", ()), ("ピークを迎え", ())],
    ("episode2", "ja"): [("サイコロ", ("ダイス",)), ("プール", ()), ("戦利品", ()),
                         ("トゥルーエンド", ()), ("ノーマル・クリア", ()), ("ゲームオーバー", ()),
                         ("撤退", ())],
    ("fortune_clover", "ja"): [("フォーチュンカード", ()), ("トリック", ()), ("リード", ()),
                               ("フォロー", ()), ("ディール", ()), ("黄チップ", ())],
    ("undecim", "ja"): [("サイコロ", ("ダイス",)), ("タイムカウンター", ()), ("【場】", ()),
                        ("入植地", ()), ("赤い月の夜", ()), ("精算", ()), ("発展", ())],
    ("fortune_clover", "en"): [("Fortune card", ()), ("trick", ()), ("led suit", ()),
                               ("deal", ())],
    ("fortuna", "en"): [("end deck", ()), ("discard slot", ()), ("All-in set", ()),
                        ("Wheel of Fortune", ()), ("goddess", ())],
    ("nine_peak", "en"): [("peak pile", ("peak cards",)), ("Simple", ()), ("Full", ()),
                          ("Persona", ()), ("same suit", ()), ("mixed suits", ())],
    ("episode2", "en"): [("pool", ()), ("spoils", ("loot",)), ("true end", ()),
                         ("normal clear", ()), ("game over", ()), ("retreat", ())],
    ("undecim", "en"): [("Night of the Red Moon", ()), ("council", ("assembly",)),
                        ("settle", ()), ("develop", ()), ("material", ()),
                        ("time counters", ()), ("settlement", ())],
}

_TAG = re.compile(r"<[^>]+>")
_BR = re.compile(r"<br\b[^>]*>|</?text[^>]*>")   # <br _at="…"/> as rendered too
_JA = "\u3040-\u30ff\u4e00-\u9fff"


def _sides(game: GameData, component_id: str) -> list[str]:
    """Every rendered side of one component, as plain text (tags dropped, spaces folded)."""
    component = game.manifest.components[component_id]
    env = make_environment(TEMPLATES)
    out = []
    for row in component_rows(game, component)[:1]:
        for side, template in (("face", component.face), ("back", component.back)):
            assert template is not None
            markup = env.get_template(template).render(
                **card_context(game, component, row if component.table else None, side))
            # A line break reads as a space; any other tag as nothing (spans sit inside words).
            text = html.unescape(_TAG.sub("", _BR.sub(" ", markup))).replace("\u00a0", " ")
            out.append(re.sub(r"\s+", " ", text))
    return out


def _aid_text(game: GameData, lang: str) -> str:
    """All sides of a game's player aids (and summary cards) in one edition."""
    wanted = [cid for cid in game.manifest.components
              if (cid.startswith("aid") or cid.startswith("summary"))
              and cid.endswith("_en") == (lang == "en")]
    assert wanted, (game.slug, lang)
    return " ".join(t for cid in wanted for t in _sides(game, cid))


@pytest.mark.parametrize("slug, lang", sorted(TERMS))
def test_aids_use_the_rulebooks_terms(slug: str, lang: str) -> None:
    game = load_game_data(DATA, slug, strict=True)
    aid = _aid_text(game, lang)
    book = (RULEBOOKS / (f"{slug}.md" if lang == "ja" else f"{slug}.en.md")).read_text(
        encoding="utf-8")
    if lang == "en":   # a term may open a sentence or a heading: case does not count
        aid, book = aid.lower(), book.lower()
    for term, avoided in TERMS[slug, lang]:
        if lang == "en":
            term, avoided = term.lower(), tuple(v.lower() for v in avoided)
        assert term in book, f"{slug}/{lang}: the rulebook no longer says {term!r}"
        assert term in aid, f"{slug}/{lang}: the aid does not say {term!r}"
        for variant in avoided:
            assert variant not in aid, f"{slug}/{lang}: the aid says {variant!r}, not {term!r}"
    if lang == "ja":
        # Japanese text takes full-width brackets, as the rulebooks do.
        assert not re.search(rf"\([^)]*[{_JA}]", aid), f"{slug}: half-width ( in Japanese"
    if slug == "nine_peak":
        assert not re.search(r"(?<!【)エリア", aid), "9 Peak: エリア without 【】"


def test_english_undecim_aid_has_the_action_side() -> None:
    """Side 2 of the English aid lists every action (number, English name and text)."""
    game = load_game_data(DATA, "undecim", strict=True)
    scoring, actions = _sides(game, "aid_en")
    for row in game.rows["actions"]:
        v = row.values
        assert re.search(rf"\b{v['number']} {re.escape(v['name_en'])} ", actions), v["name_en"]
        assert re.sub(r"\s+", " ", v["text_en"]) in actions, v["name_en"]
        assert v["name"] not in actions                     # English, not the Japanese names
    assert "Worked example" in scoring and "Scenarios:" in scoring
    # The same two sides as the Japanese aid, in the same order.
    ja_scoring, ja_actions = _sides(game, "aid")
    assert "得点のしくみ" in ja_scoring and "アクション早見表" in ja_actions
    # The round moved to the English summary card: every phase of text_en is on it.
    summary = " ".join(_sides(game, "summary_en"))
    for phase in ("1 Start", "2 Red Moon", "3 Actions", "4 Refill", "5 End"):
        head = phase.split(" ", 1)[1]
        assert f"{phase[0]} {head}:" in summary, phase
    assert "Ties:" in summary and "Final:" in summary


def test_episode2_aid_follows_the_boss_table(tmp_path: Path) -> None:
    """Boss HP on the aid come from enemies.csv (a changed K is printed, example included).

    The column allows 11–13, so the kings drop to 12 (the manifest's per-rank
    rule then objects, which does not stop the aid from rendering).
    """
    data = tmp_path / "card_data"
    shutil.copytree(DATA / "episode2", data / "episode2")
    table = data / "episode2" / "enemies.csv"
    text = table.read_text(encoding="utf-8")
    table.write_text(re.sub(r"(,K),13,", r"\1,12,", text), encoding="utf-8")
    game = load_game_data(data, "episode2")
    assert all(r.values["hp"] == 12 for r in game.rows["enemies"] if r.values["rank"] == "K")
    aid = _aid_text(game, "ja")
    assert "K12" in aid and "K13" not in aid
    hp = game.manifest.constants["starting_hp"]
    assert "K（HP12）" in aid and f"HP {hp}－3＝{hp - 3}" in aid
    shipped = _aid_text(load_game_data(DATA, "episode2", strict=True), "ja")
    assert "J11・Q12・K13" in shipped and "12体のボス" in shipped
