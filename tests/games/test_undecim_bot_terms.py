"""Undecim heuristic bot: its fast valuation paths equal the plain definitions.

The bot values holdings from memoised terms and, for one more card, looks up
only the term that card's kind changes (lands and the enemy, or the build
plan); its build plan compares per-size develop gains from a table; a card's
die faces are grouped once per Story. Each fast path is compared here, float
for float, with the plain definition it replaced (written out below) on many
holdings drawn at random: an order of additions changed, a skipped candidate
or a wrong group fails.
"""

from __future__ import annotations

import random
from typing import Sequence

from pnp.games.undecim.bots import HeuristicBot, _Ctx
from pnp.games.undecim.engine import UndecimGame, UndecimObservation

from test_undecim_rules import undecim


def _reference_plan(bot: HeuristicBot, cnt: Sequence[int],
                    setl: Sequence[tuple[int, int, int]], builds: int, ctx: _Ctx) -> float:
    """The build plan as first written: every candidate scanned at every build."""
    table, last, m0, M = bot.table, bot.last, bot.M0, bot.M
    mats = list(cnt[m0:m0 + M])
    gold = cnt[bot.GOLD]
    left = bot.LEFTOVER_MATERIAL
    st = [list(x) for x in setl]
    for _ in range(builds):
        ns = len(st)
        best = 0.5
        op = None
        for i, (mat, mask, size) in enumerate(st):
            inc = table[size + 1 if size < last else last] - table[size if size < last else last]
            if mat >= 0:
                if mats[mat] and inc - left > best:
                    best, op = inc - left, (1, i, mat)
            else:
                for m in range(M):
                    if mats[m] and not mask >> m & 1 and inc - left > best:
                        best, op = inc - left, (1, i, m)
            if gold and inc - ns - ctx.gold_extra > best:
                best, op = inc - ns - ctx.gold_extra, (2, i, 0)
        new_set = gold + (ctx.gold_extra * gold if ns == 0 else 0)
        for m in range(M):
            c = mats[m]
            if c >= 3 and table[3] + new_set - 3 * left > best:
                best, op = table[3] + new_set - 3 * left, (3, m, 3)
            if c >= 2 and table[2] + new_set - 2 * left > best:
                best, op = table[2] + new_set - 2 * left, (3, m, 2)
        for a in range(M):
            for b in range(a + 1, M):
                if mats[a] and mats[b] and table[2] + new_set - 2 * left - 0.3 > best:
                    best, op = table[2] + new_set - 2 * left - 0.3, (4, a, b)
        if op is None:
            break
        kind, x, y = op
        if kind == 1:
            mats[y] -= 1
            st[x][2] += 1
            st[x][1] |= 1 << y
        elif kind == 2:
            gold -= 1
            st[x][2] += 1
        elif kind == 3:
            mats[x] -= y
            st.append([x, 1 << x, y])
        else:
            mats[x] -= 1
            mats[y] -= 1
            st.append([-1, (1 << x) | (1 << y), 2])
    v = float(sum([table[s[2] if s[2] < last else last] for s in st]))
    v += sum(mats) * (left + bot.LEFTOVER_FUTURE * min(ctx.builds, 3.0))
    if st:
        v += gold * (len(st) + ctx.gold_extra)
    elif ctx.builds >= 1:
        v += gold * 0.8
    return v


def _holding(game: UndecimGame, rng: random.Random) -> tuple[list[int], list[tuple[int, int, int]]]:
    """Random counts per kind and settlements (same-material and mixed, 2–8 cards)."""
    cnt = [rng.choice((0, 0, 1, 1, 2, 3, 4)) for _ in range(game.n_kinds)]
    setl = []
    for _ in range(rng.choice((0, 0, 1, 2, 3))):
        if rng.random() < 0.5:
            m = rng.randrange(game.n_mats)
            setl.append((m, 1 << m, rng.randint(2, 8)))
        else:
            a, b = rng.sample(range(game.n_mats), 2)
            mask = (1 << a) | (1 << b)
            if rng.random() < 0.4:
                mask |= 1 << rng.randrange(game.n_mats)
            setl.append((-1, mask, max(2, mask.bit_count()) + rng.randint(0, 2)))
    return cnt, setl


def _observations(game: UndecimGame, count: int) -> list[UndecimObservation]:
    """Observations of the deciding seat along seeded random games."""
    out = []
    seed = 0
    while len(out) < count:
        st = game.new_initial_state(4, 900 + seed)
        rng = random.Random(seed)
        seed += 1
        while not st.is_terminal() and len(out) < count:
            legal = st.legal_actions()
            if len(legal) > 1 and rng.random() < 0.2:
                out.append(st.observation(st.current_player()))
            st.apply_action(legal[int(rng.random() * len(legal))])
    return out


def test_build_plan_equals_the_plain_scan() -> None:
    """The table-driven plan gives the plain scan's float on 3,000 random holdings."""
    game = undecim()
    bot = HeuristicBot(game, 0, random.Random(0))
    rng = random.Random(5)
    checked = 0
    for _ in range(3000):
        # A plan reads the builds to expect and the gold VP of its context only
        # (a fresh context: the bots' shared ones are not to be touched).
        ctx = _Ctx()
        ctx.builds = rng.choice((0.0, 1.2, 2.4, 3.6, 4.8, 6.0))
        ctx.gold_extra = rng.choice((0, 0, 1, 2))
        cnt, setl = _holding(game, rng)
        builds = rng.randint(0, 6)
        assert bot._plan(cnt, setl, builds, ctx) == _reference_plan(bot, cnt, setl, builds, ctx), \
            (cnt, setl, builds, ctx.gold_extra, ctx.builds)
        checked += 1
    assert checked == 3000


def test_margins_and_gains_equal_whole_valuations() -> None:
    """One more half of a kind: the term-by-term margin equals value(after) − value(before),
    and the chosen gain is the first option whose whole valuation is strictly best."""
    game = undecim()
    rng = random.Random(11)
    for obs in _observations(game, 150):
        bot = HeuristicBot(game, obs.seat, random.Random(0))
        ctx = bot._ctx(obs)
        cnt, setl = _holding(game, rng)
        base = bot._margins(list(cnt), tuple(setl), [], ctx)
        assert base == bot.value(cnt, setl, 1, ctx)
        for k in range(game.n_kinds):
            more = cnt[:]
            more[k] += 1
            assert bot._margin[k] == bot.value(more, setl, 1, ctx) - base, (cnt, setl, k)
        # Gains: every half of every type, some repeated (same kind, lower action wins).
        legal = sorted(rng.sample(range(2 * game.n_types), 6))
        now = rng.randint(0, 3)
        want = legal[0]
        want_v = -1e9
        for a in legal:
            more = cnt[:]
            more[game.types[a >> 1][a & 1]] += 1
            v = bot.value(more, setl, now, ctx)
            if v > want_v + 1e-9:
                want, want_v = a, v
        assert bot._best_gain(list(cnt), tuple(setl), now, ctx, legal) == want


def test_die_faces_are_grouped_without_losing_a_face() -> None:
    """Every card's six faces, read back through their groups, are its quantities on
    that face (fixed + Story bonus + die, U1a, U1b, U1h); equal faces share a group."""
    for game in (undecim(), undecim(story="s2_a1,s3_b1b")):
        bot = HeuristicBot(game, 0, random.Random(0))
        story = game.default_story if not game.params["story"] else tuple(
            game.scen_index[s] for s in str(game.params["story"]).split(","))
        bonus = game.story_rules(story)[0]
        grouped = 0
        for card, spec in enumerate(game.actions):
            groups, index = bot._faces(tuple(story), card)
            assert len(set(groups)) == len(groups)
            for die in range(1, 7):
                want = [a + b for a, b in zip(spec.amounts, bonus[card])]
                if spec.die_target >= 0:
                    want[spec.die_target] += spec.die_add[die - 1]
                assert groups[index[die - 1]] == tuple(want), (card, die)
            grouped += 6 - len(groups)
        assert grouped > 0          # some card has faces in common (most have no die effect)
