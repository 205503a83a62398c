"""Fortune card texts say what the card's reward columns pay, at every player count.

Love Fortune (F05) once said only "the last place, if it took any, earns
yellow" while at 4 players 3rd place earned yellow too (at 5 players 4th,
at 6 players 5th). Here every phrase of a card text that talks about
rewards (chips, colours, places) must be one of the claims below, and each
claim is checked against the parsed ``reward_3p`` … ``reward_6p`` cells:
a reworded text needs its claim stated here, and a changed reward table
that the text no longer describes fails. Ruling C7: a text that promises
chips to the bottom places must say "if they took any" (a player with no
counted card gets nothing).
"""

from __future__ import annotations

import re
from typing import Callable, Mapping

import pytest

from pnp import PROJECT_ROOT
from pnp.data import load_game_data
from pnp.games.fortune_clover.engine import FortuneCloverGame
from pnp.games.fortune_clover.fortunes import Chips, parse_reward

DATA = PROJECT_ROOT / "card_data"
PLAYERS = range(FortuneCloverGame.min_players, FortuneCloverGame.max_players + 1)
#: rewards[n][place] = (yellow, white), place 1 … n.
Rewards = Mapping[int, tuple[Chips, ...]]


def _yellow(r: Rewards, n: int) -> set[int]:
    return {p for p in range(1, n + 1) if r[n][p][0]}


def _white(r: Rewards, n: int) -> set[int]:
    return {p for p in range(1, n + 1) if r[n][p][1]}


def _paid(r: Rewards, n: int) -> set[int]:
    return _yellow(r, n) | _white(r, n)


def _middle_best(r: Rewards, n: int) -> bool:
    totals = [sum(r[n][p]) for p in range(1, n + 1)]
    best = max(totals)
    return totals.count(best) == 1 and 1 < totals.index(best) + 1 < n


def _bottom_two(n: int) -> set[int]:
    """The two lowest places, except at 3 players (where 2nd is a top place): 3rd only."""
    return {3} if n == 3 else {n - 1, n}


#: A claim: what it says, and the test of one player count's rewards.
Check = Callable[[Rewards, int], bool]
NO_YELLOW: Check = lambda r, n: not _yellow(r, n)
NO_WHITE: Check = lambda r, n: not _white(r, n)
ONLY_FIRST: Check = lambda r, n: _paid(r, n) == {1}
FIRST_PAID: Check = lambda r, n: 1 in _paid(r, n)        # ties share 1st's reward (C7)
FIRST_WHITE_SECOND_YELLOW: Check = lambda r, n: (
    1 in _white(r, n) - _yellow(r, n) and 2 in _yellow(r, n) - _white(r, n))
TOP_TWO_YELLOW: Check = lambda r, n: {1, 2} <= _yellow(r, n)
MIDDLE_BEST: Check = _middle_best
# "the top places earn white": 1st is white only, and so is every paid place
# the text does not give yellow
TOP_WHITE: Check = lambda r, n: 1 in _white(r, n) - _yellow(r, n)
YELLOW_AT_LAST_ONLY: Check = lambda r, n: _yellow(r, n) == {n}
YELLOW_AT_BOTTOM_TWO: Check = lambda r, n: (
    _yellow(r, n) == _bottom_two(n) and not _yellow(r, n) & _white(r, n)
    and _paid(r, n) - _bottom_two(n) <= _white(r, n))
NOTHING_FOR_NONE: Check = lambda r, n: True              # ruling C7 itself, engine-wide

#: Per language: (phrase as printed, check, whether it promises the bottom places chips).
CLAIMS: dict[str, list[tuple[str, Check, bool]]] = {
    "en": [
        ("Pays white chips only", NO_YELLOW, False),
        ("Every reward is yellow", NO_WHITE, False),
        ("take none and you get nothing", NOTHING_FOR_NONE, False),
        ("Only first place is paid", ONLY_FIRST, False),
        ("shared first places are common", FIRST_PAID, False),
        ("First earns white chips; second earns yellow", FIRST_WHITE_SECOND_YELLOW, False),
        ("The top two both earn yellow", TOP_TWO_YELLOW, False),
        ("The best reward goes to a middle place, not to first", MIDDLE_BEST, False),
        ("Top places earn white", TOP_WHITE, False),
        ("The most earns white chips", TOP_WHITE, False),
        ("the bottom two, if they took any, yellow (3 players: 3rd only)",
         YELLOW_AT_BOTTOM_TWO, True),
        ("the last place, if it took any, earns yellow", YELLOW_AT_LAST_ONLY, True),
    ],
    "ja": [
        ("白チップだけ", NO_YELLOW, False),
        ("報酬はすべて黄チップ", NO_WHITE, False),
        ("1枚も取らなければ何ももらえない", NOTHING_FOR_NONE, False),
        ("報酬は1位だけ", ONLY_FIRST, False),
        ("同率1位が多い", FIRST_PAID, False),
        ("1位は白、2位は黄", FIRST_WHITE_SECOND_YELLOW, False),
        ("上位ふたりに黄チップ", TOP_TWO_YELLOW, False),
        ("いちばん得なのは中ほどの順位", MIDDLE_BEST, False),
        ("上位は白", TOP_WHITE, False),
        ("下位2つの順位は、少しでも取っていれば黄（3人では3位だけ）", YELLOW_AT_BOTTOM_TWO, True),
        ("少しでも取った最下位は黄", YELLOW_AT_LAST_ONLY, True),
    ],
}
#: Words that talk about rewards; after the claims are taken out none may be left.
REWARD_TALK = {
    "en": re.compile(r"\b(white|yellow|paid|pays?|earns?|rewards?|chips?|"
                     r"(first|second|third|last|bottom|top|middle|lowest|highest) (place|two))\b",
                     re.I),
    "ja": re.compile(r"白|黄|報酬|チップ|\d位|上位|下位|最下位|順位"),
}
#: The C7 proviso a claim about the bottom places needs.
HEDGE = {"en": re.compile(r"if (it|they) took any"), "ja": re.compile(r"取っていれば|少しでも取った")}


def problems(text: str, lang: str, rewards: Rewards) -> list[str]:
    """What ``text`` (one card's, in ``lang``) says about rewards that the data does not pay."""
    # the first sentence says what is counted ("Rank by …", "…で順位をつける")
    rest = text.split("。", 1)[1] if lang == "ja" else text.split(". ", 1)[-1]
    found = []
    for phrase, check, bottom in CLAIMS[lang]:
        if phrase not in rest:
            continue
        rest = rest.replace(phrase, " ")
        wrong = [n for n in PLAYERS if not check(rewards, n)]
        if wrong:
            found.append(f"{phrase!r} is not what the data pays at {wrong} players")
        if bottom and not HEDGE[lang].search(phrase):
            found.append(f"{phrase!r} promises the bottom places chips without "
                         "'if they took any' (ruling C7)")
    left = REWARD_TALK[lang].findall(rest)
    if left:
        found.append(f"reward wording no claim covers in {rest.strip()!r}: state it in CLAIMS")
    return found


def _cards() -> list[tuple[str, Mapping[str, object], Rewards]]:
    game = load_game_data(DATA, "fortune_clover", strict=True)
    out = []
    for row in game.rows["fortune"]:
        rewards = {n: parse_reward(str(row.values[f"reward_{n}p"]), n, row.id) for n in PLAYERS}
        out.append((row.id, row.values, rewards))
    return out


@pytest.mark.parametrize("lang, column", [("ja", "text"), ("en", "text_en")])
def test_every_card_text_says_what_its_rewards_pay(lang: str, column: str) -> None:
    found = {cid: p for cid, values, rewards in _cards()
             if (p := problems(str(values[column]), lang, rewards))}
    assert not found, found


def test_the_old_love_fortune_text_is_caught() -> None:
    """F05's old wording: yellow for the last place only, but 4 players pay 3rd yellow too."""
    rewards = next(r for cid, _, r in _cards() if cid == "F05")
    en = ("Rank by hearts and the ♠Q taken. The most earns white chips; the last place, "
          "if it took any, earns yellow.")
    ja = "取った♥と♠Qの枚数で順位をつける。上位は白、少しでも取った最下位は黄。"
    for text, lang in ((en, "en"), (ja, "ja")):
        found = problems(text, lang, rewards)
        assert found and "[4, 5, 6] players" in found[0], found


def test_a_reward_change_the_text_does_not_describe_is_caught() -> None:
    """Pay F07's 2nd place white: 'second earns yellow' no longer holds."""
    cid, values, rewards = next(c for c in _cards() if c[0] == "F07")
    changed = {n: rewards[n][:2] + ((0, 2),) + rewards[n][3:] for n in PLAYERS}
    assert problems(str(values["text_en"]), "en", changed)
    assert problems(str(values["text"]), "ja", changed)


def test_unclaimed_reward_wording_and_a_missing_proviso_are_caught() -> None:
    rewards = next(r for cid, _, r in _cards() if cid == "F05")
    assert problems("Rank by hearts. Second place earns a bonus.", "en", rewards)
    bare = "取った♥の枚数で順位をつける。上位は白、下位2つの順位は、少しでも取っていれば黄（3人では3位だけ）。"
    assert not problems(bare, "ja", rewards)
    CLAIMS["ja"].append(("下位2つは黄", YELLOW_AT_BOTTOM_TWO, True))
    try:
        found = problems("取った♥の枚数で順位をつける。上位は白、下位2つは黄。", "ja", rewards)
    finally:
        CLAIMS["ja"].pop()
    assert any("C7" in p for p in found), found
