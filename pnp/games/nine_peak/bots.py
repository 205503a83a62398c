"""Greedy bot for 9 Peak: one-ply heuristics that read only the observation.

:class:`GreedyBot` (``--bots greedy``) is registered with the game; it never
draws from its generator, so its choices depend on the observation alone.

Plan, by phase:

* main: on the last turn (trigger pulled) take whatever scores most now;
  otherwise grab a peak when a pass completes one, else play the best set
  whose value per card clears a threshold that drops late in the game and
  that does not burn a size the rest of the hand cannot follow (N4), else
  pass the least useful card (or 2-for-1 when an area card is worth more
  than the second-worst hand card), avoiding leaving a column one short of a
  peak for the next player;
* pick: complete the best-scoring set for the declared value;
* take: the most useful area card, without spoiling our own peak;
* keep: keep a Persona-less draw when it is at least as useful as the hand
  average and the game is not ending.
"""

from __future__ import annotations

import random
from functools import lru_cache
from operator import add
from typing import Any, Sequence, cast

from pnp.games.api import Game, Observation
from pnp.games.bots import Bot
from pnp.games.nine_peak.engine import NinePeakGame, NinePeakObservation
from pnp.games.nine_peak.scoring import PERSONA, score_set_full, score_set_simple

_SIX = range(6)


#: (peaked, column sizes) → the value ranges (lo, hi) of numbers 1–6: every
#: decision needs them and few distinct boards occur. Bounded like _SCORES.
_RANGES: dict[tuple[tuple[bool, ...], tuple[int, ...]],
              tuple[tuple[int, ...], tuple[int, ...]]] = {}


def _ranges(peaked: tuple[bool, ...], cols: tuple[int, ...]
            ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Lowest and highest value a hand card of each number may stand for (N1, N2)."""
    key = (peaked, cols)
    found = _RANGES.get(key)
    if found is None:
        if len(_RANGES) > 100_000:
            _RANGES.clear()
        found = _RANGES[key] = (
            tuple(1 if peaked[i] else i + 1 for i in _SIX),
            tuple(9 if peaked[i] or i + 1 + cols[i] >= 9 else i + 1 + cols[i] for i in _SIX))
    return found


class _View:
    """Derived facts about one observation (ranges, hand counts, usefulness)."""

    __slots__ = ("g", "obs", "lo", "hi", "cols", "peaked", "hand_types", "u_hand",
                 "weight", "num_count", "held", "sums", "gain0")

    def __init__(self, g: NinePeakGame, obs: NinePeakObservation) -> None:
        """Read ranges and hand counts from ``obs``; usefulness rows (and the
        per-number counts they sum) are lazy: a pick never needs them."""
        self.g = g
        self.obs = obs
        peaked = self.peaked = obs.peaked
        cols = self.cols = tuple(map(len, obs.area))
        self.lo, self.hi = _ranges(peaked, cols)  # read-only, shared
        counts: dict[int, int] = {}
        ctype = g.card_type
        for c in obs.hand:
            t = ctype[c]
            counts[t] = counts.get(t, 0) + 1
        self.hand_types = counts
        self.num_count: list[list[int]] | None = None
        #: Numbers with hand cards (set with num_count).
        self.held: list[int] = []
        #: The five overlap sums of _row by the set of overlapping numbers (a bit
        #: mask): columns whose ranges meet the same hand numbers share them.
        self.sums: dict[int, tuple[float, float, float, float, float]] = {}
        self.weight: list[list[float] | None] = [None] * 6
        self.u_hand: dict[int, float] = {}
        #: Peak VP of the columns as they are (−1: not computed yet; see gain_and_gift).
        self.gain0 = -1

    def _num_count(self) -> list[list[int]]:
        """Per number: hand cards by suit (indices 0–4), all (5) and by colour (6–8).

        The usefulness sums read the suits and the total; :func:`_set_value`
        adds up whole rows of the numbers usable as a value.
        """
        g = self.g
        tcol, ts, tc = g.type_col, g.type_suit, g.type_color
        by_num = [[0] * 9 for _ in _SIX]
        for t, k in self.hand_types.items():
            row = by_num[tcol[t]]
            row[ts[t]] += k
            row[5] += k
            row[6 + tc[t]] += k
        self.num_count = by_num
        self.held = [j for j in _SIX if by_num[j][5]]
        return by_num

    def _row(self, i: int) -> list[float]:
        """Usefulness by suit of a card of number i+1 against the hand (cached).

        A hand card whose value range overlaps it adds 0.5, plus 1 more when
        the two can share a suit (same suit, or either is a Persona); a wider
        own range and being a Persona add a little on top.
        """
        w = self.weight[i]
        if w is not None:
            return w
        lo, hi, by_num = self.lo, self.hi, self.num_count or self._num_count()
        li, hii = lo[i], hi[i]
        mask = 0
        for j in self.held:
            if lo[j] <= hii and hi[j] >= li:
                mask |= 1 << j
        sums = self.sums.get(mask)
        if sums is None:
            # the sums in the same order as ever (float results, and so the
            # choices, stay bit-identical)
            w0 = w1 = w2 = w3 = wp = 0.0
            for j in self.held:
                if mask >> j & 1:
                    row = by_num[j]
                    half = 0.5 * row[5] + row[PERSONA]
                    w0 += half + row[0]
                    w1 += half + row[1]
                    w2 += half + row[2]
                    w3 += half + row[3]
                    wp += 1.5 * row[5]
            sums = self.sums[mask] = (w0, w1, w2, w3, wp)
        w0, w1, w2, w3, wp = sums
        extra = 0.3 * (hii - li)
        w = [w0 + extra, w1 + extra, w2 + extra, w3 + extra, wp + extra]
        w[PERSONA] += 4.0
        self.weight[i] = w
        return w

    def _u(self, t: int, in_hand: bool) -> float:
        """Usefulness of type t (minus its own copy when it is in hand)."""
        g = self.g
        i, s = g.type_col[t], g.type_suit[t]
        v = (self.weight[i] or self._row(i))[s]
        if in_hand:
            v -= 1.5  # the card itself overlaps and shares its suit
        return v

    def usefulness(self, t: int, in_hand: bool = True) -> float:
        """How much card type ``t`` helps build sets with the rest of the hand."""
        if in_hand:
            v = self.u_hand.get(t)
            if v is None:
                g = self.g
                i = g.type_col[t]
                v = self.u_hand[t] = (self.weight[i] or self._row(i))[g.type_suit[t]] - 1.5
            return v
        return self._u(t, False)

    def single(self, n: int) -> tuple[int, float]:
        """:meth:`gain_and_gift` for a pass placing one card of number n (O(1))."""
        i = n - 1
        if self.peaked[i]:
            return 0, 0.0
        c = self.cols[i] + 1
        reach = n + c
        if reach >= 9:
            return c, 0.0
        if reach == 8:
            return 0, 0.6 * (c + 1)
        return 0, 0.0

    def gain_and_gift(self, placed: Sequence[int], taken: int = -1) -> tuple[int, float]:
        """Peak VP captured by a pass placing numbers ``placed`` (and taking
        type ``taken``), and a penalty for columns it leaves one short of 9."""
        # Only the columns the pass touches differ from the view's; the others
        # add their current peak VP (gain0, usually 0) and never a gift, so the
        # touched ones are scored alone, ascending as before (the same float sum).
        old, peaked = self.cols, self.peaked
        gain = self.gain0
        if gain < 0:
            gain = self.gain0 = sum(old[i] for i in _SIX
                                    if not peaked[i] and i + 1 + old[i] >= 9)
        new: dict[int, int] = {}
        for n in placed:
            new[n - 1] = new.get(n - 1, old[n - 1]) + 1
        if taken >= 0:
            i = self.g.type_number[taken] - 1
            new[i] = new.get(i, old[i]) - 1
        gift = 0.0
        for i in sorted(new):
            if peaked[i]:
                continue
            c, c0 = new[i], old[i]
            if i + 1 + c0 >= 9:
                gain -= c0  # counted in gain0 at its old size
            reach = i + 1 + c
            if reach >= 9:
                gain += c
            elif reach == 8 and c != c0:
                gift += 0.6 * (c + 1)
        return gain, gift


@lru_cache(maxsize=8)
def _fill_keys(tsuit: tuple[int, ...], tcolor: tuple[int, ...]
               ) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...],
                          tuple[bool, ...]]:
    """Per type, the sort keys of :func:`_best_set`'s fill orders.

    ``by_suit[s]``: 0 for suit s, 1 for a Persona, 2 else; ``by_color[c]``:
    0 for colour c, 1 for both colours, 2 else; ``personas_last``: Persona or not.
    """
    by_suit = tuple(tuple(0 if x == s else 1 if x == PERSONA else 2 for x in tsuit)
                    for s in range(4))
    by_color = tuple(tuple(0 if x == c else 1 if x == 2 else 2 for x in tcolor)
                     for c in (0, 1))
    return by_suit, by_color, tuple(x == PERSONA for x in tsuit)


#: Set values already scored, per (method, base-point table): suit (or colour)
#: tuple → value. _best_set scores several fill orders per decision, and in
#: searching playouts the same tuples come back again and again.
_SCORES: dict[tuple[bool, tuple[int, ...]], dict[tuple[int, ...], int]] = {}
#: Entries one table may hold before it is emptied (bounds memory in long runs).
_SCORES_MAX = 200_000


def _score_table(full: bool, base: tuple[int, ...]) -> dict[tuple[int, ...], int]:
    """The memo of set values for one scoring method and base-point table."""
    table = _SCORES.get((full, base))
    if table is None or len(table) > _SCORES_MAX:
        table = _SCORES[(full, base)] = {}
    return table


def _best_set(g: NinePeakGame, prefix: Sequence[int], pool: Sequence[tuple[int, int]],
              k: int) -> tuple[float, list[int]]:
    """Best k card types from ``pool`` ((type, count) pairs) to add to ``prefix`` types.

    Tries a few fill orders (one per suit or colour, mixed-suit, Personas
    last) and keeps the best value; ties prefer fewer Personas.
    """
    tsuit, tcolor = g.type_suit, g.type_color
    full = g.params["scoring"] == "full"
    slots = [t for t, c in pool for _ in range(c)]
    orders: list[list[int]] = []
    # sort keys per type looked up in C (sorted is stable: the same orders as
    # the key functions they tabulate)
    by_suit, by_color, personas_last = _fill_keys(tsuit, tcolor)
    if full:
        for s in range(4):
            # suit s first, then Personas, then the rest
            orders.append(sorted(slots, key=by_suit[s].__getitem__))
        have = {tsuit[t] for t in prefix if tsuit[t] != PERSONA}
        first, rest = [], []
        for t in slots:
            s = tsuit[t]
            if s != PERSONA and s not in have:
                have.add(s)
                first.append(t)
            else:
                rest.append(t)
        missing = 4 - len(have)
        personas = [t for t in rest if tsuit[t] == PERSONA]
        others = [t for t in rest if tsuit[t] != PERSONA]
        orders.append(first + personas[:missing] + others + personas[missing:])
    else:
        for col in (0, 1):
            # colour col first, then the both-colour cards, then the rest
            orders.append(sorted(slots, key=by_color[col].__getitem__))
    orders.append(sorted(slots, key=personas_last.__getitem__))
    best_v, best = -1.0, []
    base = g.base_points
    scores = _score_table(full, base)
    of_type = tsuit.__getitem__ if full else tcolor.__getitem__
    head = tuple(map(of_type, prefix))
    for order in orders:
        chosen = order[:k]
        if len(chosen) < k:
            continue
        # the suits (colours) of prefix + chosen, read in C
        key = head + tuple(map(of_type, chosen))
        value = scores.get(key)
        if value is None:
            value = scores[key] = (score_set_full(key, base) if full
                                   else score_set_simple(key, base))
        # the same int and float operations as ever: bit-identical values
        v: float = value - 0.01 * sum(map(personas_last.__getitem__, chosen))
        if v > best_v:
            best_v, best = v, chosen
    return best_v, sorted(best)


def _set_value(g: NinePeakGame, view: "_View", x: int) -> int:
    """Best value of a set of x hand cards usable as x, from suit/colour counts only."""
    lo, hi = view.lo, view.hi
    by_num = view.num_count or view._num_count()
    # suit, total and colour counts of the usable hand cards: the per-number
    # rows of the numbers usable as x, added up in C (int sums: exact)
    counts = [0] * 9
    for i in view.held:
        if lo[i] <= x <= hi[i]:
            counts = list(map(add, counts, by_num[i]))
    if counts[5] < x:
        return -1
    suits, colors = counts, counts[6:]
    b = g.base_points[x - 1]
    p = suits[PERSONA]
    if g.params["scoring"] != "full":
        top = colors[0] if colors[0] >= colors[1] else colors[1]
        return b * min(x, top + colors[2])
    best = 0
    for s in range(4):
        a = suits[s] if suits[s] < x else x
        pp = p if p < x - a else x - a
        v = b * (a + pp + 1) if a + pp == x else b * (a + pp)
        if v > best:
            best = v
    d = (suits[0] > 0) + (suits[1] > 0) + (suits[2] > 0) + (suits[3] > 0)
    if d > x:
        d = x
    v = x * min(4, d + min(p, x - d))
    return v if v > best else best


def _usable_pool(view: _View, x: int, start: int = 0,
                 exclude: Sequence[int] = ()) -> list[tuple[int, int]]:
    """Hand (type, count) pairs usable as value x, types ≥ start."""
    g = view.g
    pool = []
    for t in sorted(view.hand_types):
        if t < start:
            continue
        i = g.type_number[t] - 1
        if view.lo[i] <= x <= view.hi[i]:
            pool.append((t, view.hand_types[t]))
    return pool


class GreedyBot(Bot):
    """One-ply greedy play from the observation (plan in the module docstring)."""

    name = "greedy"
    summary = "grabs peaks, plays good sets, passes its least useful cards"
    needs_observation = True

    def __init__(self, game: Game[Any], seat: int, rng: random.Random) -> None:
        """Seat the bot; ``game`` must be a 9 Peak game."""
        super().__init__(game, seat, rng)
        if not isinstance(game, NinePeakGame):
            raise TypeError(f"GreedyBot plays nine_peak, not {game.slug}")
        self.nine_peak: NinePeakGame = game

    def act(self, observation: Observation | None, legal_actions: Sequence[int]) -> int:
        """The greedy choice among ``legal_actions`` for ``observation``."""
        return greedy_action(self.nine_peak, cast(NinePeakObservation, observation),
                             legal_actions, self.rng)


def greedy_action(g: NinePeakGame, obs: NinePeakObservation,
                  legal: Sequence[int], rng: random.Random) -> int:
    """Pick a sensible action from ``legal`` using only ``obs`` (see module doc).

    ``rng`` is accepted for the bot interface but never drawn from: the
    heuristics are deterministic.
    """
    if len(legal) == 1:
        return legal[0]
    action = _choose(g, obs, legal)
    # never return an illegal move, whatever the heuristics concluded
    return action if action in legal else legal[0]


def _choose(g: NinePeakGame, obs: NinePeakObservation, legal: Sequence[int]) -> int:
    """Phase dispatch for :func:`greedy_action`."""
    view = _View(g, obs)
    phase = obs.phase
    if phase == "main":
        return _main(g, obs, view, legal)
    if phase == "pick":
        pool = _usable_pool(view, obs.declared, obs.last_pick)
        prefix = [g.card_type[c] for c in obs.picked]
        _, plan = _best_set(g, prefix, pool, obs.declared - len(prefix))
        action = g.A_PICK + plan[0] if plan else -1
        return action if action in legal else legal[0]
    if phase == "second":
        best, best_v = legal[0], None
        for a in legal:
            t = a - g.A_SECOND
            gain, gift = view.single(g.type_number[t])
            v = -view.usefulness(t) + gain - gift
            if best_v is None or v > best_v:
                best, best_v = a, v
        return best
    if phase == "take":
        best, best_v = legal[0], None
        # a take's peak VP and gift depend only on its column: scored once per
        # column; usefulness(t, in_hand=False) written out (the same floats)
        by_col: dict[int, tuple[int, float]] = {}
        tcol, tsuit, weight = g.type_col, g.type_suit, view.weight
        a0 = g.A_TAKE
        for a in legal:
            t = a - a0
            i = tcol[t]
            gg = by_col.get(i)
            if gg is None:
                gg = by_col[i] = view.gain_and_gift((), taken=t)
            v = (weight[i] or view._row(i))[tsuit[t]] + gg[0] - gg[1]
            if best_v is None or v > best_v:
                best, best_v = a, v
        return best
    if phase == "keep":
        t = g.card_type[obs.pending]
        if obs.triggered:
            return g.A_PLACE_DRAWN
        u = view.usefulness(t, in_hand=False)
        mean = (sum(view.usefulness(h) * k for h, k in view.hand_types.items())
                / max(1, len(obs.hand)))
        _, gift = view.single(g.type_number[t])
        keep = u >= mean or gift > 0
        return g.A_KEEP if keep and g.A_KEEP in legal else g.A_PLACE_DRAWN
    return legal[0]


def _main(g: NinePeakGame, obs: NinePeakObservation, view: _View,
          legal: Sequence[int]) -> int:
    """Main-phase choice: capture, play, or pass (see module doc)."""
    me = obs.seat
    h = len(obs.hand)
    legal_set = set(legal)
    # usefulness of each hand type (view.usefulness(t), written out: a main
    # decision needs all of them; the same float operations, the same order)
    tcol, tsuit, weight = g.type_col, g.type_suit, view.weight
    uh = {}
    for t in view.hand_types:
        i = tcol[t]
        uh[t] = (weight[i] or view._row(i))[tsuit[t]] - 1.5
    # --- pass options
    best_p1, best_p1_v, best_gain1 = -1, None, 0
    for t in view.hand_types:
        gain, gift = view.single(g.type_number[t])
        v = -uh[t] + 1.5 * gain - gift
        if best_p1_v is None or v > best_p1_v:
            best_p1, best_p1_v, best_gain1 = t, v, gain
    best_p2, best_p2_v, best_gain2 = -1, None, 0
    if h >= 2:
        # two of one number completing a peak a single card cannot
        for t, k in view.hand_types.items():
            i = g.type_col[t]
            if view.peaked[i] or i + 1 + view.cols[i] + 2 < 9:
                continue
            partners = [u for u, m in view.hand_types.items()
                        if g.type_col[u] == i and (u > t or (u == t and m >= 2))]
            if not partners:
                continue
            u = min(partners, key=uh.__getitem__)
            gain, gift = view.gain_and_gift([i + 1, i + 1])
            v = -uh[t] - uh[u] + 1.5 * gain - gift + 2.0
            if best_p2_v is None or v > best_p2_v:
                best_p2, best_p2_v, best_gain2 = t, v, gain
        # swap the two least useful cards for the best area card
        ranked = sorted(uh, key=uh.__getitem__)
        worst = [ranked[0], ranked[0]] if view.hand_types[ranked[0]] >= 2 else ranked[:2]
        if len(worst) == 2:
            area_types = {g.card_type[c] for col in obs.area for c in col}
            area_types.update(worst)
            # view.usefulness(t, in_hand=False) of each, written out as above
            ua = {t: (weight[tcol[t]] or view._row(tcol[t]))[tsuit[t]] for t in area_types}
            take = max(area_types, key=ua.__getitem__)  # the first best, as before
            gain, gift = view.gain_and_gift([g.type_number[w] for w in worst], taken=take)
            v = (ua[take] - uh[worst[0]]
                 - uh[worst[1]] + 1.5 * gain - gift - 0.5)
            if best_p2_v is None or v > best_p2_v:
                best_p2, best_p2_v, best_gain2 = min(worst), v, gain
    # --- play options
    plays: list[tuple[float, int]] = []
    for a in legal:
        if g.A_PLAY <= a < g.A_PLAY + 9:
            x = a - g.A_PLAY + 1
            plays.append((_set_value(g, view, x), x))
    others = [n for p, n in enumerate(obs.hand_sizes) if p != me]
    if obs.triggered:  # my last turn: score now
        options: list[tuple[float, int]] = [(1 + best_gain1, g.A_PASS1 + best_p1)]
        if best_p2 >= 0:
            options.append((1 + best_gain2, g.A_PASS2 + best_p2))
        options += [(s + x, g.A_PLAY + x - 1) for s, x in plays]
        return max(options)[1]
    late = h <= 7 or min(others) <= 3 or obs.deck_size <= 2 * obs.num_players
    best_gain = max(best_gain1, best_gain2)
    threshold = 2.0 if late else 3.0
    good = [(s, x) for s, x in plays
            if s >= threshold * x and (late or h - x >= x or h - x <= 1)]
    play = max(good, key=lambda sx: (sx[0], -sx[1])) if good else None
    if best_gain >= 3 and (play is None or play[0] < 4 * best_gain):
        if best_gain2 > best_gain1 and best_p2 >= 0:
            return g.A_PASS2 + best_p2
        return g.A_PASS1 + best_p1
    if play is not None:
        return g.A_PLAY + play[1] - 1
    if best_p2 >= 0 and best_p2_v is not None and best_p1_v is not None \
            and best_p2_v > best_p1_v and g.A_PASS2 + best_p2 in legal_set:
        return g.A_PASS2 + best_p2
    return g.A_PASS1 + best_p1
