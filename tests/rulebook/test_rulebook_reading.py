"""Points found reading the 第2話 and Undecim rulebooks as a player (issue 10 review)."""

from __future__ import annotations

import re

from pnp.rulebook import rulebook_markdown


def _section(markdown: str, heading: str) -> str:
    start = markdown.index(f"## {heading}\n")
    end = markdown.find("\n## ", start + 3)
    return markdown[start:end if end >= 0 else None]


def test_undecim_japanese_keeps_the_council_and_the_cards_in_front_of_you_apart() -> None:
    # 【場】 is the council (ruling U2); the draft-like plain 場 for the cards a
    # player has gained read as the council ("獲得します（場に出します）").
    text = rulebook_markdown("undecim", lang="ja")
    # 場 as a place on its own (場に/場の/場で), not 【場】, 置き場, 市場, 場合 or 場所.
    plain = [m.start() for m in re.finditer("(?<![【置市])場(?=[にのでへ])", text)]
    assert not plain, [text[i - 20:i + 10] for i in plain]
    assert "そのカードを獲得します（自分の前に出します）" in text
    assert "| 自分の前 |" in text
    assert "| In play |" in rulebook_markdown("undecim", lang="en")


def test_undecim_scenario_checks_wait_for_every_round_start_gain() -> None:
    # Ruling U1g: the round-start check is made once everyone has gained.
    assert "ラウンド開始の獲得の後（全員が出し終えてから）" in rulebook_markdown("undecim")
    assert "after the round-start gains (once everyone has placed theirs)" in \
        rulebook_markdown("undecim", lang="en")


def test_episode2_set_up_works_with_the_printed_decks_and_with_your_own() -> None:
    ja = _section(rulebook_markdown("episode2", lang="ja"), "準備")
    en = _section(rulebook_markdown("episode2", lang="en"), "Set-up")
    # The printed enemy deck is shuffled as it is; only a bought deck is sorted first.
    assert "敵の山札の12枚（手持ちのトランプならJ・Q・Kの12枚）" in ja
    assert "自分の山札の35枚（手持ちのトランプなら" in ja
    assert "Shuffle the 12 enemy cards (from a deck of your own" in en
    assert "Shuffle the 35 player cards (from a deck of your own" in en
    assert "トランプからJ・Q・Kの12枚を抜き出して" not in ja


def test_episode2_overview_names_both_ways_a_run_ends_without_attack_cards() -> None:
    # Ruling E6: out of attack cards after a win is a normal clear, after a miss game over.
    ja = _section(rulebook_markdown("episode2", lang="ja"), "概要")
    assert "攻撃に失敗した直後に攻撃カードが尽きれば" in ja
    en = _section(rulebook_markdown("episode2", lang="en"), "Overview")
    assert "run out of attack cards right after a failed attack" in en


def test_fortune_clover_follow_rule_says_a_player_holding_both_may_choose() -> None:
    # Ruling C4 ("either"): the review read the Japanese as "follow hearts when you can".
    assert "（両方あれば、どちらを出してもかまいません）" in rulebook_markdown("fortune_clover")
    assert "(holding both, you may play either)" in rulebook_markdown("fortune_clover", lang="en")
