"""The 9 Peak greedy bot's shortcuts (issue 13, item 7) give the plain answers.

The bot's view shares the value ranges of equal boards, sums usefulness rows
once per set of overlapping hand numbers, scores only the columns a pass
touches, remembers set values and counts a set's suits and colours by whole
per-number rows; each is compared here, bit for bit, with
the plain definition on views of positions from seeded games (the seeded
greedy games themselves are pinned in ``test_fingerprints.py``).
"""

from __future__ import annotations

import random

from pnp.games.nine_peak import NinePeakGame, NinePeakState, bots
from pnp.games.nine_peak.scoring import PERSONA, score_set_full

from gamedata import build_game

GAME = build_game("nine_peak")
assert isinstance(GAME, NinePeakGame)


def _views(games: int, players: int) -> list[bots._View]:
    """The bot's view of every position (seat on turn) of seeded random games."""
    out = []
    for seed in range(games):
        state = GAME.new_initial_state(players, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            out.append(bots._View(GAME, state.observation(state.current_player())))
            state.apply_action(rng.choice(state.legal_actions()))
    # a written position whose column is already at 9 (gain before any pass)
    full = GAME.state_from_notation("n=4 hands=1S2S/6B/6B/6B area=5F5F5C5S")
    out.append(bots._View(GAME, full.observation(0)))
    return out


def _plain_row(view: bots._View, i: int) -> list[float]:
    """The usefulness row of number i + 1, summed over every number as written."""
    g, obs = view.g, view.obs
    by_num = [[0] * 6 for _ in range(6)]
    for c in obs.hand:
        t = g.card_type[c]
        by_num[g.type_col[t]][g.type_suit[t]] += 1
        by_num[g.type_col[t]][5] += 1
    lo = [1 if obs.peaked[j] else j + 1 for j in range(6)]
    hi = [min(9, j + 1 + len(obs.area[j])) if not obs.peaked[j] else 9 for j in range(6)]
    w0 = w1 = w2 = w3 = wp = 0.0
    for j in range(6):
        row = by_num[j]
        if row[5] and lo[j] <= hi[i] and hi[j] >= lo[i]:
            half = 0.5 * row[5] + row[PERSONA]
            w0 += half + row[0]
            w1 += half + row[1]
            w2 += half + row[2]
            w3 += half + row[3]
            wp += 1.5 * row[5]
    extra = 0.3 * (hi[i] - lo[i])
    return [w0 + extra, w1 + extra, w2 + extra, w3 + extra, wp + extra + 4.0]


def _plain_gain_and_gift(view: bots._View, placed: list[int], taken: int) -> tuple[int, float]:
    """Peak VP and gift of a pass, every column scored."""
    cols = list(view.cols)
    for n in placed:
        cols[n - 1] += 1
    if taken >= 0:
        cols[GAME.type_number[taken] - 1] -= 1
    gain, gift = 0, 0.0
    for i in range(6):
        if view.peaked[i]:
            continue
        reach = i + 1 + cols[i]
        if reach >= 9:
            gain += cols[i]
        elif reach == 8 and cols[i] != view.cols[i]:
            gift += 0.6 * (cols[i] + 1)
    return gain, gift


def test_rows_ranges_and_passes_match_the_plain_sums() -> None:
    """Rows, ranges and pass scores equal the plain ones exactly on every view."""
    checked = 0
    for view in _views(8, 3) + _views(8, 5):
        obs = view.obs
        assert list(view.lo) == [1 if obs.peaked[j] else j + 1 for j in range(6)]
        for i in range(6):
            assert view._row(i) == _plain_row(view, i)
        area_types = sorted({GAME.card_type[c] for col in obs.area for c in col})
        for taken in [-1] + area_types:
            for placed in ([], [1], [3, 5], [4, 4], [6, 2]):
                got = view.gain_and_gift(placed, taken)
                assert got == _plain_gain_and_gift(view, placed, taken)
                assert type(got[1]) is float
        checked += 1
    assert checked > 1000


def test_remembered_set_values_are_the_scores() -> None:
    """A set value read from the memo is the value scoring computes."""
    rng = random.Random(5)
    table = bots._score_table(True, GAME.base_points)
    for _ in range(300):
        suits = tuple(rng.choice(range(5)) for _ in range(rng.randint(1, 9)))
        table.pop(suits, None)
        prefix: list[int] = []
        pool = [(t, 1) for t in range(GAME.num_types) if GAME.type_suit[t] in suits][:9]
        bots._best_set(GAME, prefix, pool, min(len(pool), 3))
    for suits, value in table.items():
        assert value == score_set_full(suits, GAME.base_points)


def _plain_set_value(g: NinePeakGame, view: bots._View, x: int) -> int:
    """The bot's set value of x, its counts taken card type by card type."""
    suits, colors, total = [0] * 5, [0] * 3, 0
    for t, k in view.hand_types.items():
        i = g.type_col[t]
        if view.lo[i] <= x <= view.hi[i]:
            suits[g.type_suit[t]] += k
            colors[g.type_color[t]] += k
            total += k
    if total < x:
        return -1
    b, p = g.base_points[x - 1], suits[PERSONA]
    if g.params["scoring"] != "full":
        return b * min(x, max(colors[0], colors[1]) + colors[2])
    best = 0
    for s in range(4):
        a = min(suits[s], x)
        pp = min(p, x - a)
        best = max(best, b * (a + pp + 1) if a + pp == x else b * (a + pp))
    d = min(x, sum(1 for s in range(4) if suits[s]))
    return max(best, x * min(4, d + min(p, x - d)))


def test_set_values_from_number_rows_match_the_type_counts() -> None:
    """_set_value adds whole per-number rows; the plain count goes type by type.

    Both scoring methods (ruling N6), every value 1–9, on views of seeded games.
    """
    simple = build_game("nine_peak", {"scoring": "simple"})
    assert isinstance(simple, NinePeakGame)
    checked = playable = 0
    for view in _views(6, 4):
        for g in (GAME, simple):
            view.g = g
            for x in range(1, 10):
                got = bots._set_value(g, view, x)
                assert got == _plain_set_value(g, view, x), (x, view.obs.hand)
                playable += got >= 0
                checked += 1
    assert checked > 5000 and playable > 1000
