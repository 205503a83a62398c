"""Undecim bots: a heuristic player that sees only its observation.

The heuristic bot values a holding the way the scoring does (ruling U6) and
picks, at every decision, the option whose resulting holding it values most:

* **Lands** are worth their end VP plus the round-end VP they keep paying for
  every round end still to come, so a new kind (and the every-kind bonus at
  2 of each) is worth more early.
* **Materials, gold and settlements** are valued by a *build plan*: with the
  builds it can still expect (this action's allowances, then about one per
  remaining round), it greedily settles and develops what it holds, taking
  the settlement VP table and the gold-per-settlement score into account; a
  gold can stand in for a develop (U4) at the price of its end value.
* **Enemies** are worth 5 VP for each Red Moon Night it expects before the
  end (from the counters left and the die and time still to come), all of
  them when it holds the most (U5).
* **Scenarios** in the Story add their bonus when met and a share of it for
  progress.

It **times the Red Moon**: when it chooses an action card it scores each card
by its expected gain over the six die faces (gains taken greedily from its
hand, gold boost, builds, and a Night its time effect would set off, less
what such a Night gives the other players). The pick from the council and the
mulligan use the same estimate with its hand topped up by the most common
unseen cards. At a Night it discards as many enemies as it may. In a
campaign, when it must choose which scenario card takes the marker (U1h), it
marks the card whose goal and unlocked goals its own season came closest to.

Decisions are deterministic functions of the observation (ties by action
int), so a redealt position (``resample_hidden``) gets the same choice.
A holding's value is a sum of terms (lands, enemies, the build plan, each
goal) added in a fixed order; the terms, build plans, the margins of a
holding and the action cards' die faces are memoised per game, keyed by
everything they depend on, so searching bots (which value the same holdings
in playout after playout) pay for each once; the memos change no decision.
"""

from __future__ import annotations

import random
import weakref
from typing import Any, Sequence

from pnp.games.api import Observation
from pnp.games.bots import Bot

from .codec import (BOOST_BASE, BUILD_DONE, CHOOSE_BASE, DEV_BASE, DEV_GOLD, DEV_STRIDE,
                    MARKER_BASE, MIX_STRIDE, MULL_BASE, MULL_KEEP, MULL_STRIDE, NIGHT_BASE,
                    PICK_BASE, SETTLE_MIX, SETTLE_SAME)
from .effects import (C_ENEMIES, C_GOLD, C_LAND_EACH, C_LAND_ONE, C_LANDS, C_SETTLED_RES,
                      C_MIXED_SIZE, C_SETTLEMENTS, C_SIZE, GAIN_QUANTITIES, Q_ANY, Q_DEVELOP, Q_SETTLE,
                      Q_TIME, Q_VP)
from .engine import UndecimGame, UndecimObservation

#: Most build plans kept per game before that memo starts afresh (bounded memory).
PLAN_MEMO = 200_000
#: Most decision contexts kept per game, and entries in their term tables in all
#: (likewise).
CTX_MEMO = 2_000
TERM_MEMO = 300_000


class _Shared:
    """What every heuristic bot of one game shares: tables of the game, and memos.

    The tables are functions of the (immutable) game, built once instead of
    in every bot (a searching bot seats fresh playout bots in every playout);
    the memos are pure functions of their keys, so sharing them changes no
    decision, only how often one is computed.
    """

    __slots__ = ("type_total", "gain_kinds", "goals", "inc", "dev_gain", "plans", "plan_count",
                 "ctxs", "by_ctx", "stored", "faces")

    def __init__(self, g: UndecimGame) -> None:
        """The tables of ``g`` and empty memos."""
        # Copies of each type in the whole game (for the unseen-card estimate).
        counts = [0] * g.n_types
        for t in g.card_type:
            counts[t] += 1
        self.type_total: tuple[int, ...] = tuple(counts)
        #: Kinds a hand card of type t may be gained as under gain quantity q, in
        #: the engine's option order: gain_kinds[q][t].
        self.gain_kinds: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(tuple(g.types[a >> 1][a & 1] for a in opts) for opts in per_type)
            for per_type in g.gain_opts)
        self.goals: tuple[tuple[int, int, int], ...] = tuple(
            (s.condition, s.threshold, s.bonus) for s in g.scenarios)
        #: Per settlement size (any size the resource cards allow), the VP one more
        #: card adds (the table's last size pays no more), and that less a
        #: material's leftover value: the develop gain a build plan compares.
        table = g.settle_table
        last = len(table) - 1
        self.inc: tuple[int, ...] = tuple(
            table[s + 1 if s < last else last] - table[s if s < last else last]
            for s in range(g.n_res + 1))
        self.dev_gain: tuple[float, ...] = tuple(
            inc - HeuristicBot.LEFTOVER_MATERIAL for inc in self.inc)
        #: Build-plan values (see HeuristicBot._plan and value) by the plan's
        #: context, (gold VP, builds to expect), and the number stored in all.
        self.plans: dict[tuple[int, float], dict[tuple[Any, ...], float]] = {}
        self.plan_count = 0
        #: Decision contexts by the numbers of the observation they depend on.
        self.ctxs: dict[tuple[Any, ...], _Ctx] = {}
        #: Value terms by decision context (see _Terms).
        self.by_ctx: dict[tuple[Any, ...], _Terms] = {}
        #: Land and margin entries stored in ``by_ctx`` (bounded by TERM_MEMO).
        self.stored = 0
        #: Per (Story, action card): its distinct quantities over die faces 1–6
        #: before a gold boost (U1a, U1b; the Story's action bonuses included,
        #: U1h), and per face the index of its quantities among them.
        self.faces: dict[tuple[tuple[int, ...], int],
                         tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]] = {}


#: Per game (weak keys: the memos go with their game).
_SHARED: "weakref.WeakKeyDictionary[UndecimGame, _Shared]" = weakref.WeakKeyDictionary()


class _Terms:
    """One decision context's terms of a holding's value, kept as they are met.

    :meth:`HeuristicBot.value` adds the same terms in the same order as a
    whole-holding valuation did; each term depends on a small part of the
    holding (the lands, the enemies, the progress towards one goal), so the
    options of a decision, and later decisions in the same context, mostly
    find their terms here instead of valuing whole holdings again.
    """

    __slots__ = ("head", "builds", "plans", "story", "margins")

    def __init__(self) -> None:
        """Empty tables (``story`` is set from the first context)."""
        #: Land and enemy counts → (their VP to expect, land cards).
        self.head: dict[tuple[int, ...], tuple[float, int]] = {}
        #: Builds this action still allows → builds the plan may expect.
        self.builds: dict[int, int] = {}
        #: Build plans of the contexts with this one's gold VP and builds to expect
        #: (shared with them): (material and gold counts, settlements, builds) → VP.
        self.plans: dict[tuple[Any, ...], float] = {}
        #: Holdings (counts, settlements) → their value and the margin of each kind.
        self.margins: dict[tuple[Any, ...], tuple[float, list[float]]] = {}
        #: Per unmet Story goal: (condition, threshold, VP added by progress
        #: 0 … threshold; None adds nothing).
        self.story: tuple[tuple[int, int, tuple[float | int | None, ...]], ...] = ()


class _Ctx:
    """What a valuation needs besides the holding (computed once per decision)."""

    __slots__ = ("ends", "builds", "nights", "major_gap", "story", "full_vp", "gold_extra",
                 "limit", "enemy_vp", "terms")

    def __init__(self) -> None:
        """Empty context."""
        self.ends = 0
        self.builds = 0.0
        self.nights = 0.0
        self.major_gap = 0
        #: Unmet Story goals: (condition, threshold, bonus VP).
        self.story: tuple[tuple[int, int, int], ...] = ()
        self.full_vp = 0
        self.gold_extra = 0
        self.limit = 1
        self.enemy_vp = 5
        #: The context's value terms (set by HeuristicBot._ctx).
        self.terms = _EMPTY_TERMS


_EMPTY_TERMS = _Terms()


class HeuristicBot(Bot):
    """Values holdings by the scoring, times the Red Moon, picks actions by expected gain."""

    name = "heuristic"
    summary = ("values lands, settlements, gold and enemies by the scoring; chooses its "
               "action card by expected gain over the die, timing the Red Moon")
    needs_observation = True

    #: Mean time counters removed per round by action cards (beyond the die).
    TIME_PER_ROUND = 1.0
    #: Builds a future round is expected to bring (auto action plus some extras).
    BUILDS_PER_ROUND = 1.2
    #: End value of a material no planned build uses (more while rounds remain).
    LEFTOVER_MATERIAL = 0.4
    LEFTOVER_FUTURE = 0.5
    #: Weight of the other players' VP from a Night this bot would set off.
    RIVAL_WEIGHT = 0.7
    #: Share of a scenario's bonus credited for progress (squared fraction).
    PROGRESS = 0.35
    #: Weight of enemies beyond the expected Nights when holding the most / not.
    MAJOR = 0.8
    MINOR = 0.15

    def __init__(self, game: Any, seat: int, rng: random.Random) -> None:
        """Keep the tables of ``game`` (an :class:`UndecimGame`)."""
        super().__init__(game, seat, rng)
        g: UndecimGame = game
        self.g = g
        self.L = g.n_lands
        self.M = g.n_mats
        self.EN = g.EN
        self.GOLD = g.GOLD
        self.M0 = g.MAT0
        self.K = g.n_kinds
        self.table = g.settle_table
        self.last = len(g.settle_table) - 1
        self.types = g.types
        # value() splits a holding's kinds at M0: lands and the enemy before it,
        # materials and gold from it on (each part has its own term).
        assert g.n_lands <= g.EN < g.MAT0 <= g.GOLD, "kind order"
        shared = _SHARED.get(g)
        if shared is None:
            shared = _SHARED[g] = _Shared(g)
        self._shared = shared
        self._inc = shared.inc
        self._dev_gain = shared.dev_gain
        self.type_total = shared.type_total
        self._gain_kinds = shared.gain_kinds
        #: Per scenario card: its goal (condition, threshold, bonus VP).
        self._goals = shared.goals
        #: Per decision: marginal value of one more half of each kind, rivals' enemies.
        self._margin: list[float] = []
        self._hand: list[int] = []
        self._gain_order: list[list[tuple[int, int]] | None] = []
        self._most_other = 0

    # -- context -----------------------------------------------------------------

    def _ctx(self, obs: UndecimObservation) -> _Ctx:
        """Round ends left, builds to expect, Nights to expect, the Story's goals.

        A context is a function of a few numbers of the observation; equal ones
        share one context object (read-only once made) across decisions and bots.
        """
        me = obs.seat
        en = self.EN
        loose = obs.loose
        others = max([row[en] for p, row in enumerate(loose) if p != me], default=0)
        pending = self._my_action_pending(obs)
        over = obs.phase == "over"
        key = (obs.round, over, pending, obs.die == 0, obs.counters, obs.story, obs.achieved,
               loose[me][en] - others)
        ctxs = self._shared.ctxs
        ctx = ctxs.get(key)
        if ctx is None:
            if len(ctxs) >= CTX_MEMO:
                ctxs.clear()
            ctx = ctxs[key] = self._new_ctx(obs, over, pending, loose[me][en] - others)
        return ctx

    def _new_ctx(self, obs: UndecimObservation, over: bool, pending: bool,
                 major_gap: int) -> _Ctx:
        """:meth:`_ctx`, computed."""
        g = self.g
        ctx = _Ctx()
        rounds = obs.rounds
        rnd = obs.round
        ctx.ends = rounds - rnd + 1 if not over else 0
        future_actions = rounds - rnd + (1 if pending else 0)
        ctx.builds = future_actions * self.BUILDS_PER_ROUND
        # Red Moon: counters still to fall before the end.
        moons_left = rounds - rnd + (1 if obs.die == 0 else 0)
        removal = moons_left * 3.5 + (rounds - rnd + 1) * self.TIME_PER_ROUND
        c = max(obs.counters, 1)
        rules = g.story_rules(obs.story)
        full = rules[3]
        if removal >= c:
            ctx.nights = 1.0 + (removal - c) / full
        else:
            ctx.nights = (removal / c) ** 3
        ctx.major_gap = major_gap
        ctx.limit = rules[1]
        ctx.enemy_vp = rules[2]
        ctx.full_vp = rules[4]
        ctx.gold_extra = rules[5]
        goals = self._goals
        ctx.story = tuple([goals[i] for i, (r, _m) in zip(obs.story, obs.achieved) if r < 0])
        ctx.terms = self._terms(ctx)
        return ctx

    def _terms(self, ctx: _Ctx) -> _Terms:
        """The value terms of ``ctx`` (shared with earlier decisions and other bots
        of the game that met the same context)."""
        key = (ctx.ends, ctx.builds, ctx.nights, ctx.major_gap, ctx.story, ctx.full_vp,
               ctx.gold_extra, ctx.limit, ctx.enemy_vp)
        shared = self._shared
        by_ctx = shared.by_ctx
        if shared.stored >= TERM_MEMO or len(by_ctx) >= CTX_MEMO:
            by_ctx.clear()
            shared.ctxs.clear()     # they hold terms: let those go too
            shared.stored = 0
        terms = by_ctx.get(key)
        if terms is None:
            terms = by_ctx[key] = _Terms()
            terms.plans = shared.plans.setdefault((ctx.gold_extra, ctx.builds), {})
            # Per goal, what each step of progress adds (U1g goals, PROGRESS share).
            progress = self.PROGRESS
            terms.story = tuple(
                (cond, thr, tuple(bonus if have >= thr else
                                  progress * bonus * (have / thr) ** 2 if have > 0 else None
                                  for have in range(thr + 1)))
                for cond, thr, bonus in ctx.story)
        return terms

    @staticmethod
    def _my_action_pending(obs: UndecimObservation) -> bool:
        """Whether this seat still resolves an action this round (the current one excluded)."""
        ph = obs.phase
        if ph in ("mulligan", "start_gain", "choose_action"):
            return True
        if ph in ("pick_action", "over", "campaign_marker") or not obs.order:
            return False
        if obs.acting < 0:
            return True          # a Night of the Red Moon phase: nobody has acted yet
        order = obs.order
        return order.index(obs.seat) > order.index(obs.acting)

    # -- valuation ---------------------------------------------------------------

    def _plan(self, cnt: Sequence[int], setl: Sequence[tuple[int, int, int]],
              builds: int, ctx: _Ctx) -> float:
        """VP of settlements, gold and materials after ``builds`` greedy builds (U4, U6).

        A pure function of its inputs, memoised across decisions and bots of one
        game by :meth:`value` (searching bots value the same holdings over and over).
        Each build takes the first strictly best of: a develop by a material
        (settlement order, then material order), a develop by gold, a new
        settlement of 3 or 2 alike, then of the first two different materials.
        """
        table = self.table
        last = self.last
        m0 = self.M0
        M = self.M
        mats = list(cnt[m0:m0 + M])
        gold = cnt[self.GOLD]
        LEFTOVER_MATERIAL = self.LEFTOVER_MATERIAL
        # Per settlement size: what one more card adds (int) and that less a
        # material's leftover value (the same float the comparison used inline).
        inc_of = self._inc
        dev_of = self._dev_gain
        gold_extra = ctx.gold_extra
        st = [list(x) for x in setl]
        for _ in range(builds):
            if not gold and not any(mats):
                break                   # nothing left to build with
            ns = len(st)
            best = 0.5
            op: tuple[int, int, int] | None = None
            for i, (mat, mask, size) in enumerate(st):
                dev = dev_of[size]
                if mat >= 0:
                    if mats[mat] and dev > best:
                        best, op = dev, (1, i, mat)
                elif dev > best:
                    for m in range(M):
                        if mats[m] and not mask >> m & 1:
                            best, op = dev, (1, i, m)
                            break       # a later material gains the same: not better
                if gold:
                    g = inc_of[size] - ns - gold_extra
                    if g > best:
                        best, op = g, (2, i, 0)
            new_set = gold + (gold_extra * gold if ns == 0 else 0)
            gain3 = table[3] + new_set - 3 * LEFTOVER_MATERIAL
            gain2 = table[2] + new_set - 2 * LEFTOVER_MATERIAL
            for m in range(M):
                c = mats[m]
                if c >= 2:
                    if c >= 3 and gain3 > best:
                        best, op = gain3, (3, m, 3)
                    if gain2 > best:
                        best, op = gain2, (3, m, 2)
            # Every two-material settlement gains the same, so only the first pair
            # can improve on the best (a later equal gain is not strictly better).
            a = 0
            while a < M and not mats[a]:
                a += 1
            b = a + 1
            while b < M and not mats[b]:
                b += 1
            if b < M:
                gain = table[2] + new_set - 2 * LEFTOVER_MATERIAL - 0.3
                if gain > best:
                    best, op = gain, (4, a, b)
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
        ns = len(st)
        v = float(sum([table[s[2] if s[2] < last else last] for s in st]))
        v += sum(mats) * (LEFTOVER_MATERIAL + self.LEFTOVER_FUTURE * min(ctx.builds, 3.0))
        if ns:
            v += gold * (ns + ctx.gold_extra)
        elif ctx.builds >= 1:
            v += gold * 0.8       # a settlement is still likely to come
        return v

    def value(self, cnt: Sequence[int], setl: Sequence[tuple[int, int, int]],
              now_builds: int, ctx: _Ctx) -> float:
        """Expected end VP of a holding (banked VP excluded).

        The terms (lands and the enemy, the build plan, each unmet goal) are
        added in this order from the context's tables, each computed the first
        time its part of the holding is met (:meth:`_head_value`,
        :meth:`_plan_value`, :meth:`_add_goals`): the same floats as valuing
        the whole holding each time, for a few lookups.
        """
        hv, n_lands = self._head_value(cnt, ctx)
        return self._add_goals(hv + self._plan_value(cnt, setl, now_builds, ctx), n_lands,
                               cnt, setl, ctx)

    def _head_value(self, cnt: Sequence[int], ctx: _Ctx) -> tuple[float, int]:
        """The lands' and the enemy's term of :meth:`value` (the kinds before M0) and
        the number of land cards, looked up (computed by :meth:`_head_term` once)."""
        terms = ctx.terms
        head = tuple(cnt[:self.M0])
        got = terms.head.get(head)
        if got is None:
            got = terms.head[head] = self._head_term(head, ctx)
            self._shared.stored += 1
        return got

    def _plan_value(self, cnt: Sequence[int], setl: Sequence[tuple[int, int, int]],
                    now_builds: int, ctx: _Ctx) -> float:
        """The build plan's term of :meth:`value` (the kinds from M0 on, the
        settlements and the builds to expect), looked up (:meth:`_plan` once)."""
        terms = ctx.terms
        builds = terms.builds.get(now_builds)
        if builds is None:
            builds = terms.builds[now_builds] = min(6, int(now_builds + ctx.builds + 0.5))
        key = (tuple(cnt[self.M0:]), tuple(setl), builds)
        plans = terms.plans
        pv = plans.get(key)
        if pv is None:
            shared = self._shared
            if shared.plan_count >= PLAN_MEMO:
                for memo in shared.plans.values():
                    memo.clear()        # in place: the contexts' terms keep them
                shared.plan_count = 0
            pv = plans[key] = self._plan(cnt, setl, builds, ctx)
            shared.plan_count += 1
        return pv

    def _add_goals(self, v: float, n_lands: int, cnt: Sequence[int],
                   setl: Sequence[tuple[int, int, int]], ctx: _Ctx) -> float:
        """``v`` plus each unmet goal's term of :meth:`value`, in the Story's order."""
        for cond, thr, adds in ctx.terms.story:
            # The commonest goals inline; _progress defines them all.
            if cond == C_LANDS:
                have = n_lands
            elif cond == C_SETTLEMENTS:
                have = len(setl)
            else:
                have = self._progress(cond, cnt, setl)
            add = adds[have if have < thr else thr]
            if add is not None:
                v += add
        return v

    def _head_term(self, head: tuple[int, ...], ctx: _Ctx) -> tuple[float, int]:
        """End VP of the lands plus the round-end VP they pay while rounds remain (U6),
        plus the enemies' expected VP; and the number of land cards.

        ``head``: the counts of the kinds before the materials (lands, the enemy).
        """
        g = self.g
        L = self.L
        lands = head[:L]
        n_lands = sum(lands)
        v = float(n_lands * g.land_card_vp)
        if ctx.ends:
            # round_land_vp (U6), inline: the same numbers, without a call.
            if L and min(lands) >= g.full_min:
                v += ctx.ends * (ctx.full_vp * L)
            else:
                v += ctx.ends * (g.land_kind_vp * (L - lands.count(0)))
        e = head[self.EN]
        if e:
            v += self._enemy_term(e, ctx)
        return v, n_lands

    def _enemy_term(self, e: int, ctx: _Ctx) -> float:
        """Expected VP of ``e`` enemies: cashed at the Nights to come (U5), all of them
        only when holding the most."""
        nights = ctx.nights
        sure = min(float(e), max(nights, 0.0))
        p1 = min(1.0, nights)
        rest = e - sure
        major = self.MAJOR if ctx.major_gap >= 0 else self.MINOR
        return ctx.enemy_vp * (sure * p1 + rest * p1 * major)

    def _progress(self, cond: int, cnt: Sequence[int],
                  setl: Sequence[tuple[int, int, int]]) -> int:
        """The number a scenario condition compares with its threshold (U1g)."""
        L = self.L
        if cond == C_LANDS:
            return sum(cnt[:L])
        if cond == C_SETTLEMENTS:
            return len(setl)
        if cond == C_SIZE:
            return max((s[2] for s in setl), default=0)
        if cond == C_GOLD:
            return cnt[self.GOLD]
        if cond == C_ENEMIES:
            return cnt[self.EN]
        if cond == C_LAND_EACH:
            return min(cnt[:L])
        if cond == C_LAND_ONE:
            return max(cnt[:L])
        if cond == C_SETTLED_RES:
            mask = 0
            for s in setl:
                mask |= s[1]
            return mask.bit_count()
        if cond == C_MIXED_SIZE:
            return max((s[2] for s in setl if s[0] < 0), default=0)
        return 0     # red_moon_discard: judged at the Night itself

    # -- acting -------------------------------------------------------------------

    def act(self, observation: Observation | None, legal_actions: Sequence[int]) -> int:
        """Choose by phase (see the module docstring)."""
        obs = observation
        assert isinstance(obs, UndecimObservation)
        ph = obs.phase
        if ph == "red_moon_night":
            return legal_actions[-1]          # cash every enemy it may (U5)
        ctx = self._ctx(obs)
        me = obs.seat
        cnt = list(obs.loose[me])
        setl = obs.settlements[me]       # a tuple: read only, and hashed as it is
        if ph in ("gain", "start_gain"):
            now = sum(obs.builds) + (1 if ph == "gain" else 0)
            if ph == "start_gain":
                now = 0
            return self._best_gain(cnt, setl, now, ctx, legal_actions)
        if ph == "build":
            return self._best_build(obs, cnt, setl, ctx, legal_actions)
        if ph == "choose_action":
            return CHOOSE_BASE + self._best_card(obs, ctx, [a - CHOOSE_BASE for a in legal_actions],
                                                 pad=False)
        if ph == "pick_action":
            return PICK_BASE + self._best_card(obs, ctx, [a - PICK_BASE for a in legal_actions],
                                               pad=True)
        if ph == "gold_boost":
            return self._best_boost(obs, cnt, setl, ctx, legal_actions)
        if ph == "mulligan":
            return self._mulligan(obs, ctx, legal_actions)
        if ph == "campaign_marker":
            return self._best_marker(obs, cnt, setl, legal_actions)
        return legal_actions[0]

    def _best_marker(self, obs: UndecimObservation, cnt: list[int],
                     setl: Sequence[tuple[int, int, int]], legal: Sequence[int]) -> int:
        """The scenario card to mark (U1h): the one whose goal, and its unlocks' goals,
        this seat's season came closest to (its play will likely aim there again).

        A marked card stays in the Story and its unlocks join the next season, so
        each option is worth the bonuses of those goals weighted by how far this
        season's holding got towards each (capped at the goal); ties go to the
        lower action.
        """
        g = self.g
        best = legal[0]
        best_v = -1.0
        for a in legal:
            s = g.scenarios[a - MARKER_BASE]
            cards = [s] + [g.scenarios[g.scen_index[u]] for u in s.unlocks]
            v = sum(c.bonus * min(1.0, self._progress(c.condition, cnt, setl) / c.threshold)
                    for c in cards if c.threshold > 0)
            if v > best_v + 1e-9:
                best, best_v = a, v
        return best

    def _best_gain(self, cnt: list[int], setl: Sequence[tuple[int, int, int]], now: int,
                   ctx: _Ctx, legal: Sequence[int]) -> int:
        """The gain whose placed half adds the most value (same half: lowest action)."""
        types = self.types
        cache: dict[int, float] = {}
        best = legal[0]
        best_v = -1e9
        m0 = self.M0
        # Each option adds one half: it changes the lands-and-enemy term or the
        # build plan's, and the other is the holding's own (see _margins).
        hv, n_lands = self._head_value(cnt, ctx)
        pv: float | None = None
        for a in legal:
            k = types[a >> 1][a & 1]
            v = cache.get(k)
            if v is None:
                cnt[k] += 1
                if k < m0:
                    if pv is None:
                        pv = self._plan_value(cnt, setl, now, ctx)
                    hk, nk = self._head_value(cnt, ctx)
                    v = self._add_goals(hk + pv, nk, cnt, setl, ctx)
                else:
                    v = self._add_goals(hv + self._plan_value(cnt, setl, now, ctx), n_lands,
                                        cnt, setl, ctx)
                cache[k] = v
                cnt[k] -= 1
            if v > best_v + 1e-9:
                best, best_v = a, v
        return best

    def _best_build(self, obs: UndecimObservation, cnt: list[int],
                    setl: Sequence[tuple[int, int, int]], ctx: _Ctx, legal: Sequence[int]) -> int:
        """The build (or done) that leaves the most valuable holding."""
        b_set, b_dev, b_auto = obs.builds
        m0 = self.M0
        best = BUILD_DONE
        # A build moves materials and gold into settlements: the lands-and-enemy
        # term stays the holding's own (looked up once, as value() would).
        hv, n_lands = self._head_value(cnt, ctx)
        plan_value = self._plan_value
        add_goals = self._add_goals
        best_v = add_goals(hv + plan_value(cnt, setl, 0, ctx), n_lands, cnt, setl, ctx)
        for a in legal:
            if a == BUILD_DONE:
                continue
            c2 = cnt[:]
            s2 = list(setl)
            if a < DEV_BASE:
                if a < SETTLE_MIX:
                    m, extra = divmod(a - SETTLE_SAME, 2)
                    c2[m0 + m] -= 2 + extra
                    s2.append((m, 1 << m, 2 + extra))
                else:
                    x, y = divmod(a - SETTLE_MIX, MIX_STRIDE)
                    c2[m0 + x] -= 1
                    c2[m0 + y] -= 1
                    s2.append((-1, (1 << x) | (1 << y), 2))
                left = (b_set - 1 + b_dev + b_auto) if b_set else (b_dev if b_auto else 0)
            else:
                i, m = divmod(a - DEV_BASE, DEV_STRIDE)
                mat, mask, size = s2[i]
                if m == DEV_GOLD:
                    c2[self.GOLD] -= 1
                else:
                    c2[m0 + m] -= 1
                    mask |= 1 << m
                s2[i] = (mat, mask, size + 1)
                left = (b_set + b_dev - 1 + b_auto) if b_dev else (b_set if b_auto else 0)
            v = add_goals(hv + plan_value(c2, s2, left, ctx), n_lands, c2, s2, ctx)
            if v > best_v + 1e-9:
                best, best_v = a, v
        return best

    # -- action cards -----------------------------------------------------------------

    def _unseen_pad(self, obs: UndecimObservation, hand: list[int]) -> list[int]:
        """``hand`` topped up to the refill size with the most common unseen types."""
        g = self.g
        left = list(self.type_total)
        for t in obs.hand:
            left[t] -= 1
        for t in obs.discard:
            left[t] -= 1
        # Cards in play: only their upper half is in the observation; approximate
        # by removing nothing more (the estimate needs a likely hand, not a count).
        want = g.base_hand - len(hand)
        out = list(hand)
        for _ in range(max(0, want)):
            t = left.index(max(left))       # the commonest, the lowest type among equals
            out.append(t)
            left[t] -= 1
        return out

    def _faces(self, story: tuple[int, ...], card: int
               ) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
        """The distinct quantities of ``card`` over die faces 1–6 before a gold boost
        (U1a, U1b, U1h), and per face the index of its quantities among them.

        Most cards have no die effect, so one set of quantities serves all six
        faces: grouped once per Story and card instead of at every decision.
        """
        key = (story, card)
        faces = self._shared.faces.get(key)
        if faces is None:
            spec = self.g.actions[card]
            bonus = self.g.story_rules(story)[0][card]
            fixed = [a + b for a, b in zip(spec.amounts, bonus)]
            groups: list[tuple[int, ...]] = []
            index = []
            for die in range(1, 7):
                amt = fixed[:]
                if spec.die_target >= 0:
                    amt[spec.die_target] += spec.die_add[die - 1]
                t = tuple(amt)
                if t not in groups:
                    groups.append(t)
                index.append(groups.index(t))
            faces = self._shared.faces[key] = (tuple(groups), tuple(index))
        return faces

    def _margins(self, cnt: list[int], setl: Sequence[tuple[int, int, int]], hand: list[int],
                 ctx: _Ctx) -> float:
        """Value of the holding now; sets the per-decision tables of :meth:`_card_gain`.

        ``_margin[k]``: the value one more half of kind ``k`` adds;
        ``_gain_order[q]``: the hand cards (position, kind) a gain of quantity
        ``q`` can take, best first: each card as its best kind (the first of the
        highest margin, in the engine's option order), cards by margin, then by
        position. The greedy gains of every card and die face read the order.
        """
        key = (tuple(cnt), tuple(setl))
        memo = ctx.terms.margins
        got = memo.get(key)
        if got is None:
            # One more half changes either the lands-and-enemy term (kinds before
            # M0) or the build plan's (the rest), never both: the other term is
            # the holding's own, reused (value() would look up the same float).
            hv, n_lands = self._head_value(cnt, ctx)
            pv = self._plan_value(cnt, setl, 1, ctx)
            add_goals = self._add_goals
            base = add_goals(hv + pv, n_lands, cnt, setl, ctx)
            margin = []
            m0 = self.M0
            for k in range(self.K):
                cnt[k] += 1
                if k < m0:
                    hk, nk = self._head_value(cnt, ctx)
                    v = add_goals(hk + pv, nk, cnt, setl, ctx)
                else:
                    v = add_goals(hv + self._plan_value(cnt, setl, 1, ctx), n_lands, cnt, setl,
                                  ctx)
                margin.append(v - base)
                cnt[k] -= 1
            got = memo[key] = (base, margin)
            self._shared.stored += 1
        base, margin = got
        self._margin = margin
        self._hand = hand
        self._gain_order = [None] * len(GAIN_QUANTITIES)   # made as a card needs one
        return base

    def _order(self, q: int) -> list[tuple[int, int]]:
        """``_gain_order[q]`` (see :meth:`_margins`), made and kept for this decision."""
        margin = self._margin
        kinds_q = self._gain_kinds[q]
        hand = self._hand
        best: dict[int, tuple[float, int] | None] = {}
        for t in hand:
            if t in best:
                continue
            best_v = -1e9
            best_k = -1
            for k in kinds_q[t]:
                mv = margin[k]
                if mv > best_v:
                    best_v, best_k = mv, k
            best[t] = (best_v, best_k) if best_k >= 0 else None
        # Highest margin first, the earlier card among equals: the order in which
        # a greedy scan of the hand (first strictly best, card removed) takes them.
        ranked = [(-b[0], i, b[1]) for i, t in enumerate(hand) if (b := best[t]) is not None]
        ranked.sort()
        order = self._gain_order[q] = [(i, k) for _v, i, k in ranked]
        return order

    def _card_gain(self, obs: UndecimObservation, ctx: _Ctx, card: int, base: float,
                   loose: tuple[int, ...], setl: tuple[tuple[int, int, int], ...],
                   rivals: list[int]) -> float:
        """Expected value added by playing ``card`` now, over the six die faces.

        ``loose`` and ``setl``: this seat's holding; ``rivals``: the other seats'
        enemies. Needs the tables :meth:`_margins` set for this decision.
        """
        spec = self.g.actions[card]
        gold = self.GOLD
        counters = obs.counters
        cnt0 = list(loose)
        # The gold boost (U1d) takes the same gold on every face: settled once.
        boost_q = -1
        boost_k = 0
        if spec.boost_target >= 0 and cnt0[gold]:
            boost_k = min(spec.boost_max, cnt0[gold])
            if spec.boost_target != Q_TIME:
                cnt0[gold] -= boost_k
                boost_q = spec.boost_target
        # A face's value depends only on its quantities and on whether this card's
        # time sets off a Night; faces that share both (most cards have no die
        # effect) are valued once, at 2 · group + sets_off, and every face still
        # adds its term in face order (the same float sum).
        groups, index = self._faces(obs.story, card)
        values: list[float | None] = [None] * (2 * len(groups))
        total = 0.0
        for die in range(1, 7):
            g = index[die - 1]
            time_q = groups[g][Q_TIME]
            # A die that sets off the Night itself leaves this card's time no Night.
            sets_off = counters - die > 0 and time_q and counters - die - time_q <= 0
            j = 2 * g + 1 if sets_off else 2 * g
            v = values[j]
            if v is None:
                amt = groups[g]
                if boost_q >= 0:
                    boosted = list(amt)
                    boosted[boost_q] += boost_k
                    amt = tuple(boosted)
                v = values[j] = self._face_value(ctx, amt, bool(sets_off), cnt0, setl, rivals)
            total += v - base
        return total / 6.0

    def _face_value(self, ctx: _Ctx, amt: tuple[int, ...], sets_off: bool, cnt0: list[int],
                    setl: tuple[tuple[int, int, int], ...], rivals: list[int]) -> float:
        """The holding's value after one face's quantities ``amt`` (U1a), plus the VP
        of a Night this card's time sets off (``sets_off``, U1e) and its own VP."""
        en = self.EN
        cnt = cnt0[:]
        # The gains, taken greedily by marginal value (first best in hand
        # order): the best cards not yet taken, in gain_order.
        gain_order = self._gain_order
        used = 0
        for q in range(len(GAIN_QUANTITIES)):
            n_q = amt[q]
            if n_q <= 0:
                continue
            order = gain_order[q]
            if order is None:
                order = self._order(q)
            for i, k in order:
                if not used >> i & 1:
                    used |= 1 << i
                    cnt[k] += 1
                    n_q -= 1
                    if not n_q:
                        break
        night = 0.0
        if sets_off:
            # This card's time sets off a Night (U1e): cash now, rivals cash too.
            e = cnt[en]
            most_other = self._most_other
            mine = e if e >= most_other else min(e, ctx.limit)
            top = max(most_other, e)
            total = 0
            for pe in rivals:
                total += pe if pe == top else min(pe, ctx.limit)
            rivals_avg = total / max(1, len(rivals))
            cnt[en] -= mine
            night = mine * ctx.enemy_vp - self.RIVAL_WEIGHT * rivals_avg * ctx.enemy_vp
        now = 1 + amt[Q_SETTLE] + amt[Q_DEVELOP]
        return self.value(cnt, setl, now, ctx) + night + amt[Q_VP]

    def _best_card(self, obs: UndecimObservation, ctx: _Ctx, cards: list[int], pad: bool) -> int:
        """The action card with the highest expected gain (ties: the lower number)."""
        me = obs.seat
        hand = list(obs.hand)
        if pad:
            hand = self._unseen_pad(obs, hand)
        loose = obs.loose[me]
        setl = obs.settlements[me]
        base = self._margins(list(loose), setl, hand, ctx)
        en = self.EN
        rivals = [row[en] for p, row in enumerate(obs.loose) if p != me]
        self._most_other = max(rivals, default=0)
        best = cards[0]
        best_v = -1e9
        for c in cards:
            v = self._card_gain(obs, ctx, c, base, loose, setl, rivals)
            if v > best_v + 1e-9:
                best, best_v = c, v
        return best

    def _best_boost(self, obs: UndecimObservation, cnt: list[int],
                    setl: Sequence[tuple[int, int, int]], ctx: _Ctx, legal: Sequence[int]) -> int:
        """Spend gold when what it adds is worth more than the gold kept (U1d)."""
        g = self.g
        spec = g.actions[obs.played[obs.seat]]
        q = spec.boost_target
        base = self.value(cnt, setl, 1, ctx)
        best = legal[0]
        best_v = base
        hand = list(obs.hand)
        types = self.types
        for a in legal[1:]:
            k = a - BOOST_BASE
            c2 = cnt[:]
            c2[self.GOLD] -= k
            extra = 0.0
            if q < len(GAIN_QUANTITIES):
                left = list(hand)
                for _ in range(k):
                    opts = [(self._kind_gain(c2, setl, types[x >> 1][x & 1], ctx), i, x)
                            for i, t in enumerate(left) for x in g.gain_opts[q][t]]
                    if not opts:
                        break
                    _, i, x = max(opts)
                    c2[types[x >> 1][x & 1]] += 1
                    del left[i]
            elif q in (Q_SETTLE, Q_DEVELOP):
                v = self.value(c2, setl, 1 + k, ctx)
                if v > best_v + 1e-9:
                    best, best_v = a, v
                continue
            elif q == Q_VP:
                extra = k
            v = self.value(c2, setl, 1, ctx) + extra
            if v > best_v + 1e-9:
                best, best_v = a, v
        return best

    def _kind_gain(self, cnt: list[int], setl: Sequence[tuple[int, int, int]], k: int,
                   ctx: _Ctx) -> float:
        """Value of ``cnt`` with one more half of kind ``k``."""
        cnt[k] += 1
        v = self.value(cnt, setl, 1, ctx)
        cnt[k] -= 1
        return v

    def _mulligan(self, obs: UndecimObservation, ctx: _Ctx, legal: Sequence[int]) -> int:
        """Swap the weakest card in hand for the strongest in the council if clearly better."""
        hand = self._unseen_pad(obs, [])
        me = obs.seat
        loose = obs.loose[me]
        setl = obs.settlements[me]
        base = self._margins(list(loose), setl, hand, ctx)
        self._most_other = 0
        en = self.EN
        rivals = [row[en] for p, row in enumerate(obs.loose) if p != me]
        worth = {c: self._card_gain(obs, ctx, c, base, loose, setl, rivals)
                 for c in set(obs.actions) | set(obs.council)}
        give = min(obs.actions, key=lambda c: (worth[c], -c))
        take = max(obs.council, key=lambda c: (worth[c], -c))
        action = MULL_BASE + give * MULL_STRIDE + take
        if worth[take] > worth[give] + 0.5 and action in legal:
            return action
        return MULL_KEEP


__all__ = ["HeuristicBot", "MARKER_BASE", "NIGHT_BASE"]
