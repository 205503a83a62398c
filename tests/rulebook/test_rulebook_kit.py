"""The rulebooks' component lists are the kit ``pnp build`` prints, and the examples obey C3/C4.

Issue 10's review found the books listing the standard deck only under
"You also need" (Fortune Clover: 22 cards to print; 第2話: 2) while the
default build prints it. The list now comes from the build's own choice
(:func:`pnp.builder.cards.kit_components`), so these tests compare each
book with that function, in both editions, for every game.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from pnp.builder.cards import is_sticker, kit_components
from pnp.data import DEFAULT_DATA_DIR, load_game_data
from pnp.errors import PnpError
from pnp.games.fortune_clover.engine import FortuneCloverState
from pnp.rulebook import rulebook_markdown
from rulebook_books import LANGS, SLUGS


def _section(markdown: str, anchor_heading: tuple[str, str], lang: str) -> str:
    """The components section of a book: from its heading to the next ``##``."""
    heading = anchor_heading[0] if lang == "ja" else anchor_heading[1]
    start = markdown.index(f"## {heading}\n")
    end = markdown.find("\n## ", start + 3)
    return markdown[start:end if end >= 0 else None]


def _components(markdown: str, lang: str) -> str:
    return _section(markdown, ("内容物", "Components"), lang)


def _printed_table(section: str, lang: str) -> dict[str, int]:
    """The first table of the section (what to print): name's first line → count."""
    rows: dict[str, int] = {}
    head = "| 内容物 |" if lang == "ja" else "| Component |"
    lines = section.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(head))
    for line in lines[at + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0].split("<br>")[0]] = int(re.match(r"\d+", cells[1]).group(0))
    return rows


def _card_total(game_slug: str, *, bought: bool) -> int:
    game = load_game_data(DEFAULT_DATA_DIR, game_slug)
    total = 0
    for component in kit_components(game, bought=bought):
        if component.kind in ("card", "deck"):
            total += (sum(r.qty for r in game.rows[component.id]) if component.table
                      else component.count)
    return total


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SLUGS)
def test_component_list_is_the_default_build_and_says_what_no_bought_leaves_out(
        slug: str, lang: str) -> None:
    game = load_game_data(DEFAULT_DATA_DIR, slug)
    section = _components(rulebook_markdown(slug, lang=lang), lang)
    printed = _printed_table(section, lang)
    kit = kit_components(game, bought=True)
    names = [(c.name_ja or c.name) if lang == "ja" else c.name for c in kit]
    assert list(printed) == names, (slug, lang)
    total = _card_total(slug, bought=True)
    assert (f"印刷するカードは合計{total}枚です。" if lang == "ja"
            else f"In all, {total} cards to print.") in section
    own = [c for c in kit if c.supply == "buy"]
    if own:
        # The decks a player may own instead are marked, and the sentence gives the
        # option and the total without them (what `pnp build --no-bought` prints).
        lean = _card_total(slug, bought=False)
        assert "pnp build --no-bought" in section
        assert (f"印刷するカードは{lean}枚になります" if lang == "ja"
                else f"then {lean} cards are left to print") in section
        marked = [line for line in section.splitlines()
                  if "（手持ちのものでも可）" in line or "(or your own)" in line]
        assert len(marked) == len(own)
    else:
        assert "--no-bought" not in section
    stickers = [c for c in kit_components(game, bought=False) if is_sticker(c)]
    if stickers:
        count = sum(c.count for c in stickers)
        assert (f"シール{count}枚（24×15mm）" if lang == "ja"
                else f"{count} stickers (24 × 15 mm;") in section
    else:
        assert "シール" not in section and "sticker" not in section
    # Nothing the default build prints is listed as something to get elsewhere.
    also = section.split("**別途用意するもの**" if lang == "ja" else "**You also need**")
    if len(also) == 2:
        for name in names:
            assert f"| {name} |" not in also[1], (slug, name)


def test_the_two_standard_deck_games_state_the_whole_kit() -> None:
    # The figures the review quoted, now with the printed decks in them.
    fc_en = _components(rulebook_markdown("fortune_clover", lang="en"), "en")
    assert "In all, 74 cards to print." in fc_en and "22 cards are left to print" in fc_en
    ep_ja = _components(rulebook_markdown("episode2", lang="ja"), "ja")
    assert "印刷するカードは合計49枚です。" in ep_ja and "印刷するカードは2枚になります" in ep_ja
    assert "シール47枚" in ep_ja
    ep_en = _components(rulebook_markdown("episode2", lang="en"), "en")
    assert "In all, 49 cards to print." in ep_en and "47 stickers" in ep_en


def test_a_deck_marked_print_leaves_the_no_bought_sentence_out(tmp_path: Path) -> None:
    data = tmp_path / "card_data"
    shutil.copytree(DEFAULT_DATA_DIR / "fortune_clover", data / "fortune_clover")
    manifest = data / "fortune_clover" / "manifest.toml"
    text = manifest.read_text(encoding="utf-8")
    assert text.count('supply = "buy"') == 1
    manifest.write_text(text.replace('supply = "buy"', 'supply = "print"'), encoding="utf-8")
    section = _components(rulebook_markdown("fortune_clover", data, lang="en"), "en")
    assert "In all, 74 cards to print." in section
    assert "--no-bought" not in section and "(or your own)" not in section


def _example(slug: str, name: str, lang: str) -> str:
    from pnp.games.book_hooks import rulebook_hooks
    from pnp.rulebook.context import BookContext, CardArt, PictureStore
    from pnp.rulebook.export import rulebook_source
    from pnp.rulebook.lang import load_lang

    game = load_game_data(DEFAULT_DATA_DIR, slug)
    book = BookContext(game, load_lang(lang, rulebook_source(slug, DEFAULT_DATA_DIR, lang)),
                       PictureStore(), CardArt(game, None), name=f"example-{name}")
    rulebook_hooks(slug).example[name](book)
    return book.markdown()


def _c4(hand: list[str], led: str) -> list[str]:
    """Ruling C4: the led suit or a club (either) when held; otherwise any card."""
    allowed = [c for c in hand if c[0] in (led, "♣")]
    return allowed or hand


def test_fortune_clover_trick_examples_give_every_hand_and_exactly_c4s_choices() -> None:
    card = r"[♠♥♦♣](?:10|[2-9AJQK])"
    for name, led in (("club_trick", "♥"), ("clubs_lead", "♥")):
        text = _example("fortune_clover", name, "en")
        follows = re.findall(rf"([B-D]) holds ((?:{card}(?:, | and )?)+): ([^.;]*)[.;]", text)
        assert len(follows) >= 2, text
        for player, held, why in follows:
            hand = re.findall(card, held)
            if player == "B" and name == "clubs_lead":
                continue                          # B leads (C3), checked below
            choices = _c4(hand, led)
            if len(choices) > 1:
                listed = re.search(rf"may be played \(({card}) or ({card})\)", text[
                    text.index(f"{player} holds"):])
                assert listed and sorted(listed.groups()) == sorted(choices), (player, text)
            else:
                assert f"must play the {choices[0]}" in why, (player, why)
    lead = _example("fortune_clover", "clubs_lead", "en")
    assert "B holds ♥K and ♣3; holding a non-club, B may not lead a club" in lead
    assert "B's only play is the ♥K" in lead
    # The Japanese edition no longer says B follows hearts because it holds hearts.
    ja = _example("fortune_clover", "club_trick", "ja")
    assert "Bさんの手札は♥3・♣4です。♥もクラブも持っているので、そのどちらを出しても" in ja
    assert "Bさんは♥を持っているので♥3を出します" not in ja


def test_an_engine_that_broke_c4_would_stop_the_example(monkeypatch: pytest.MonkeyPatch) -> None:
    original = FortuneCloverState.legal_actions

    def follow_suit_only(self: FortuneCloverState) -> list[int]:
        # A wrong rule: a follower holding the led suit may not play a club.
        actions = original(self)
        names = [self.game.names[a] for a in actions]
        if self.trick and any(n[0] == "♥" for n in names):
            return [a for a, n in zip(actions, names) if n[0] == "♥"]
        return actions

    monkeypatch.setattr(FortuneCloverState, "legal_actions", follow_suit_only)
    with pytest.raises(PnpError, match="ruling C4"):
        _example("fortune_clover", "club_trick", "en")


def test_a_missing_templates_folder_is_one_located_line(tmp_path: Path) -> None:
    # The list depends on the templates folder (aids and stickers found there).
    from pnp.rulebook import prepare

    source = tmp_path / "fortune_clover.md"
    source.write_text("# 題\n\n## 内容物 {#components}\n\n{{ components }}\n", encoding="utf-8")
    with pytest.raises(PnpError) as caught:
        prepare("fortune_clover", source=source, templates_dir=tmp_path / "missing")
    assert caught.value.line == 5
    assert caught.value.message.startswith("components: templates folder")
    assert "missing" in caught.value.message
