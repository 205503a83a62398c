"""Undecim plays the same seeded games as before its hot paths were reworked.

The hashes were taken with the engine and heuristic bot of commit 7566bb1
(before the speed work of issue 13, item 7, session 16): per case a few
dozen to two hundred games, each game's actions, returns, winners, length
and rule counters, with the simulator's seeding (deal and bot seeds from
``derive_seed``, bots rotated by game index, forced moves not asked). Both
seat counts (3 and 4), random and heuristic bots, and the three-season
campaign (which adds the marker decision and season set-ups). A change that
alters any seeded game, or what the heuristic bot chooses, fails here.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

import pytest

import gamedata
from gamedata import fingerprint

EXPECTED: dict[str, str] = {
    "3/random": "c542ed0f194cee0149a95dfff327847285cf5aab58f87a6c393dfec279d26e99",
    "3/heuristic": "e0bd425ba63bc06cc37fd7870a9619a0c8247d3de03a9fbae07ae64e1cd1345f",
    "3/heuristic,random": "1be5a123f3e43d216ed8bb4b58706453df2d756d20e13aa43cf6d6fe19acfaf1",
    "3/campaign:random": "4b488d04da2b34b8ea5a35eec8f952c2a16f7c6ff731add68278471b2526cde3",
    "3/campaign:heuristic": "5bd25642d460312a277047ded9fbe52926d5c3d04770ee24ad2d7d24088cb5d9",
    "4/random": "4da63875a62c962f0363a1a4b073d7d2728362ba83b234eb80d57865dc3e7a0c",
    "4/heuristic": "805f49f1c9cdbbb5258a83b32825ebd4d3f69b0c323f58e09a9d3d4c4152d53a",
    "4/heuristic,random": "3b348fe748e4d69577a64d5657afc4d089fdbcc25a4fc6d247c8b704c4a08652",
    "4/campaign:random": "520e2fdbd19a72c66fce80d7d5df2a34c39c163cace9922864b8a9d29a351065",
    "4/campaign:heuristic": "6adfe1142c71673f6bd0c82a3f44818c7713898be8ce32b06597a90fda134f99",
}
#: Games per case: random games are cheap, heuristic and campaign games are not.
GAMES = {"random": 300, "heuristic": 80, "heuristic,random": 80,
         "campaign:random": 100, "campaign:heuristic": 20}


@contextmanager
def _campaign() -> Iterator[None]:
    """Make ``fingerprint`` build the campaign variant (it builds the default game)."""
    plain = gamedata.build_game

    def build(slug: str, params: Any = None) -> Any:
        return plain(slug, {**(params or {}), "campaign": True})

    gamedata.build_game = build
    try:
        yield
    finally:
        gamedata.build_game = plain


def _fingerprint(case: str) -> str:
    """Hash of the seeded games of ``case`` (``"4/heuristic"``, ``"3/campaign:random"``)."""
    n, kind = case.split("/")
    bots = tuple(kind.removeprefix("campaign:").split(","))
    if kind.startswith("campaign:"):
        with _campaign():
            return fingerprint("undecim", int(n), bots, GAMES[kind], events=True)
    return fingerprint("undecim", int(n), bots, GAMES[kind], events=True)


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_same_games_as_before(case: str) -> None:
    """Every seeded game is move-for-move the game the engine played before the rework."""
    assert _fingerprint(case) == EXPECTED[case]


def test_every_case_is_pinned() -> None:
    """The table covers both seat counts and every kind of game (none dropped by accident)."""
    assert sorted(EXPECTED) == sorted(f"{n}/{kind}" for n in (3, 4) for kind in GAMES)


if __name__ == "__main__":  # print the table (only when the rules change on purpose)
    for n in (3, 4):
        for kind in GAMES:
            print(f'    "{n}/{kind}": "{_fingerprint(f"{n}/{kind}")}",')
