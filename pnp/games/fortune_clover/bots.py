"""Fortune Clover bots: a heuristic player that sees only its observation.

The heuristic bot plays the way a careful player at the table would:

* **What the deal is worth.** From the Fortune card's rewards at this player
  count it values each place in chips *after* the end-of-game yellow return
  (ruling C8): a yellow chip is worth +1 while the bot stays below the most
  yellow held by anyone else, and costs it (the chip and a white one) once
  it would hold the most. From that it decides whether it *wants* counted
  cards (1st place is its best outcome), wants *none* (every paying place
  hurts it, e.g. a yellow-only card while leading the yellow race: taking
  none pays nothing, C7), or is lukewarm (a middle place pays best).
* **Exchange (C2).** Discards and passes the cards it least wants to keep:
  low, non-counted cards when it wants counted cards; high cards, clubs and
  counted cards when it wants none.
* **Tricks (C3–C5).** It wins a trick that holds counted cards it wants with
  the cheapest card that cannot be beaten by a later player (unseen cards
  and shown voids considered), sheds the highest card that still loses when
  the trick would hurt it, and otherwise sheds low cards — dumping counted
  cards into other players' tricks when it wants none. Leading, it cashes a
  sure winner when it wants counted cards, else leads low.

Decisions are deterministic functions of the observation (ties by card id),
so a redealt position (``resample_hidden``) gets the same choice.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, Callable, Sequence
from weakref import WeakKeyDictionary

from pnp.games.api import Observation
from pnp.games.bots import Bot

from .codec import DISCARD_BASE, MAX_CARDS, PASS_BASE, decode_pass
from .engine import CLUB, FortuneCloverGame, FortuneCloverObservation

#: Weight of the yellow-return penalty while deals remain (the race may still change).
EARLY_PENALTY = 0.6


def _return_cost(yellow: int, white: int, others_max: int) -> int:
    """Chips lost to the yellow return (C8) if the game ended with these holdings."""
    if yellow > 0 and yellow >= others_max:
        return yellow + min(white, yellow)
    return 0


def _trick_key(card: int, led: int, suit: Sequence[int], led_key: Sequence[int],
               club_key: Sequence[int]) -> int:
    """Key of ``card`` in a trick led in ``led`` (-1: the card sets the led suit), C5."""
    s = suit[card]
    if s == CLUB:
        return club_key[card]
    if led < 0 or s == led:
        return led_key[card]
    return -1


@lru_cache(maxsize=8)
def _beat_tables(suit: tuple[int, ...], led_key: tuple[int, ...], club_key: tuple[int, ...],
                 suits: int) -> tuple[tuple[int, ...], ...]:
    """Per led suit (−1 … suits − 1) and card: the mask of cards that beat it (C5)."""
    out = []
    for led in range(-1, suits):
        row = []
        for c in range(len(suit)):
            lead = suit[c] if led < 0 and suit[c] != CLUB else led
            mine = _trick_key(c, lead, suit, led_key, club_key)
            m = 0
            for u in range(len(suit)):
                if _trick_key(u, lead, suit, led_key, club_key) > mine:
                    m |= 1 << u
            row.append(m)
        out.append(tuple(row))
    return tuple(out)


@lru_cache(maxsize=8)
def _key_tables(suit: tuple[int, ...], led_key: tuple[int, ...], club_key: tuple[int, ...],
                suits: int) -> tuple[tuple[int, ...], ...]:
    """Per led suit (−1 … suits − 1) and card: its trick key (:func:`_trick_key`, C5)."""
    return tuple(tuple(_trick_key(c, led, suit, led_key, club_key) for c in range(len(suit)))
                 for led in range(-1, suits))


@lru_cache(maxsize=8)
def _open_suit_table(suit_mask: tuple[int, ...]) -> tuple[int, ...]:
    """Per void-bit set v: the cards of every suit not in v (C3/C4)."""
    return tuple(sum(m for s, m in enumerate(suit_mask) if not v >> s & 1)
                 for v in range(1 << len(suit_mask)))


#: Sort keys below fold a card-id tie-break into one int: ``k·SPAN + c``
#: orders as ``(k, c)`` and ``k·SPAN − c`` as ``(k, −c)`` (card ids < SPAN), so
#: min/max take a C-level ``__getitem__`` key instead of a lambda per card. The
#: key tables are lists: a list's bound ``__getitem__`` is a builtin method,
#: about half again as fast per call as a tuple's (a slot wrapper).
SPAN = 128
assert MAX_CARDS <= SPAN


class _Tables:
    """The heuristic bot's lookup tables for one game, shared by every bot seated in it.

    A searching bot seats a fresh bot per playout, so nothing here may be
    rebuilt per bot; tables that depend on the Fortune card fill in lazily.
    """

    def __init__(self, g: FortuneCloverGame) -> None:
        """Build the per-deck tables of ``g``."""
        suits = len(g.suit_mask)
        n = g.n_cards
        strength = g.strength
        # beats[L + 1][c]: the cards that would beat card c in a trick whose led
        # suit is L (L = -1: not set yet, c or a later card sets it), C5.
        self.beats = _beat_tables(g.suit, g.led_key, g.club_key, suits)
        # keys[L + 1][c]: the trick key of c (C5), looked up instead of computed.
        self.keys = tuple(list(row) for row in _key_tables(g.suit, g.led_key, g.club_key, suits))
        # open_suits[v]: the cards of every suit not in the void bits v (C3/C4)
        self.open_suits = _open_suit_table(g.suit_mask)
        #: min by (key, c) and max by (key, −c), per led suit + 1.
        self.key_low = tuple([k * SPAN + c for c, k in enumerate(row)] for row in self.keys)
        self.key_high = tuple([k * SPAN - c for c, k in enumerate(row)] for row in self.keys)
        #: max by (strength, −c).
        self.strength_high = [strength[c] * SPAN - c for c in range(n)]
        #: The card bits by id, as a list's ``__getitem__`` (see :data:`SPAN`).
        self.bit = list(g.bit).__getitem__
        self._low_strength = min(strength, default=0)
        self._strength_span = max(strength, default=0) - self._low_strength + 1
        #: (Fortune mask, want class) → min key of HeuristicBot's shed score and c.
        self.shed: dict[tuple[int, int], list[int]] = {}
        #: (Fortune mask, want class) → min key of the exchange keep value and c.
        self.keep: dict[tuple[int, int], list[int]] = {}
        #: (seat, players, (fortune, deal, yellow, white)) → HeuristicBot._want.
        self.wants: dict[tuple[Any, ...], float] = {}
        #: Fortune mask → max key of (counted, strength, −c).
        self.avoid: dict[int, list[int]] = {}
        #: later_seats[n][seat][t]: the seats still to play after ``seat`` in a
        #: trick of ``t`` cards at ``n`` players, in order.
        self.later_seats = tuple(
            tuple(tuple(tuple((seat + k) % n for k in range(1, n - t)) for t in range(n))
                  for seat in range(n))
            for n in range(g.max_players + 1))
        #: (led suit + 1) → {best key: the cards whose key beats it}, filled lazily.
        self.above_memo: tuple[dict[int, int], ...] = tuple({} for _ in self.keys)
        #: The last ``obs.won`` seen and its card mask: the seats of one state
        #: share that tuple until a trick ends (identity, so never stale).
        self.won_memo: tuple[object, int] = ((), 0)
        self._g = g

    def above(self, row: int, best: int) -> int:
        """The cards whose trick key in ``keys[row]`` is above ``best`` (C5)."""
        memo = self.above_memo[row]
        mask = memo.get(best)
        if mask is None:
            mask = memo[best] = sum(1 << c for c, k in enumerate(self.keys[row]) if k > best)
        return mask

    def shed_keys(self, fmask: int, want: float) -> list[int]:
        """Per card: its shed score (lower = better to throw away) · SPAN + c."""
        cls = want_class(want)
        keys = self.shed.get((fmask, cls))
        if keys is None:
            g = self._g
            counted_bonus = 8 * cls  # counted cards: keep (+8) when wanted, shed (−8) if not
            keys = self.shed[fmask, cls] = [
                (g.strength[c] + (5 if g.suit[c] == CLUB else 0)
                 + (counted_bonus if fmask >> c & 1 else 0)) * SPAN + c
                for c in range(g.n_cards)]
        return keys

    def keep_keys(self, fmask: int, want: float) -> list[int]:
        """Per card: :meth:`HeuristicBot._keep` · SPAN + c (min = the card to give away)."""
        cls = want_class(want)
        keys = self.keep.get((fmask, cls))
        if keys is None:
            g = self._g
            keys = self.keep[fmask, cls] = [
                _keep_value(g.strength[c], g.suit[c] == CLUB, bool(fmask >> c & 1), cls) * SPAN
                + c for c in range(g.n_cards)]
        return keys

    def avoid_keys(self, fmask: int) -> list[int]:
        """Per card: a max key ordered as (counted, strength, −c)."""
        keys = self.avoid.get(fmask)
        if keys is None:
            g, low, span = self._g, self._low_strength, self._strength_span
            keys = self.avoid[fmask] = [
                ((fmask >> c & 1) * span + g.strength[c] - low) * SPAN - c
                for c in range(g.n_cards)]
        return keys


def want_class(want: float) -> int:
    """What the bot wants from this deal: 1 counted cards, −1 none of them, 0 either.

    ``want`` is the worth of a counted card; the key tables are kept per class.
    """
    return 1 if want > 0.5 else (-1 if want < 0 else 0)


def _keep_value(strength: int, club: bool, counted: bool, cls: int) -> int:
    """How much the bot wants to keep a card through the exchange (low = give away).

    ``cls`` is :func:`want_class` of the deal.
    """
    if cls > 0:
        return strength + 4 * club + 6 * counted
    if cls < 0:
        # High cards and clubs win tricks, and counted cards are what it avoids.
        return (16 - strength) - 4 * club - 6 * counted
    return strength + 2 * club + 2 * counted


#: Tables per game (weak: a game and its tables go together).
_GAME_TABLES: "WeakKeyDictionary[FortuneCloverGame, _Tables]" = WeakKeyDictionary()


#: The last game asked for and its tables: a search seats four fresh bots per
#: playout, all of one game, and a weak-dictionary lookup costs more than this.
_LAST_TABLES: tuple[Any, Any] = (None, None)


def _tables_of(g: FortuneCloverGame) -> _Tables:
    """The shared :class:`_Tables` of ``g``."""
    global _LAST_TABLES
    if _LAST_TABLES[0] is g:
        return _LAST_TABLES[1]
    tables = _GAME_TABLES.get(g)
    if tables is None:
        tables = _GAME_TABLES[g] = _Tables(g)
    _LAST_TABLES = (g, tables)
    return tables


class HeuristicBot(Bot):
    """Trick-taking heuristics driven by the Fortune card and the yellow-chip race."""

    name = "heuristic"
    summary = ("values Fortune rewards after the yellow return, exchanges its worst cards, "
               "wins counted tricks cheaply, sheds losers low")
    needs_observation = True

    def __init__(self, game: Any, seat: int, rng: random.Random) -> None:
        """Keep the card tables of ``game`` (a :class:`FortuneCloverGame`)."""
        super().__init__(game, seat, rng)
        g: FortuneCloverGame = game
        self.g = g
        self.suit = g.suit
        self.strength = g.strength
        self.led_key = g.led_key
        self.club_key = g.club_key
        self.all_cards = (1 << g.n_cards) - 1
        self.suit_mask = g.suit_mask
        self.play_mask = g.play_mask
        self._want_memo: tuple[Any, float] = (None, 0.0)
        #: (Fortune mask, want) of ``_shed``, the shed keys' getter in use.
        self._shed_for: tuple[int, float] = (-1, 0.0)
        self._shed: Callable[[int], int] = int
        # Built once per game (see _Tables): a searching bot seats a fresh bot
        # for every playout.
        tables = self.tables = _tables_of(g)
        self.beats = tables.beats
        self.keys = tables.keys
        self.open_suits = tables.open_suits
        self.bit = tables.bit
        self.ids_of = g.ids_of

    # -- what the deal is worth ------------------------------------------------

    def chip_value(self, obs: FortuneCloverObservation, yellow: int, white: int) -> float:
        """Worth to this seat of gaining ``yellow`` and ``white`` chips now (C8 aware)."""
        me = obs.seat
        y, w = obs.yellow[me], obs.white[me]
        others = max((obs.yellow[s] for s in range(obs.num_players) if s != me), default=0)
        extra = _return_cost(y + yellow, w + white, others) - _return_cost(y, w, others)
        weight = 1.0 if obs.deal >= self.g.deals else EARLY_PENALTY
        return yellow + white - weight * extra

    def want(self, obs: FortuneCloverObservation) -> float:
        """+1: wants counted cards; −1: wants none; 0.3: some (a middle place pays best)."""
        last = self._want_memo[0]
        yellow, white = obs.yellow, obs.white
        # A state shares its chip tuples until a deal ends: the same objects
        # again mean the same chips, without comparing them (the usual case).
        if (last is not None and last[2] is yellow and last[3] is white
                and last[0] == obs.fortune and last[1] == obs.deal):
            return self._want_memo[1]
        memo = (obs.fortune, obs.deal, yellow, white)
        if memo != last:
            # Shared by the game's bots: a searching bot's playouts from one
            # position meet the same chips and Fortune card again and again.
            key = (obs.seat, obs.num_players, memo)
            wants = self.tables.wants
            value = wants.get(key)
            if value is None:
                if len(wants) >= 4096:
                    wants.clear()  # bounded: old positions are not coming back
                value = wants[key] = self._want(obs)
            self._want_memo = (memo, value)
        else:
            self._want_memo = (memo, self._want_memo[1])  # equal chips, new tuples: keep these
        return self._want_memo[1]

    def _want(self, obs: FortuneCloverObservation) -> float:
        """:meth:`want`, computed."""
        reward = self.g.fortunes[obs.fortune].rewards[obs.num_players]
        values = [self.chip_value(obs, y, w) for y, w in reward[1:]]
        first = values[0]
        if first > 0 and first >= max(values):
            return 1.0
        if max(values) <= 0:
            return -1.0
        return 0.3

    # -- acting ----------------------------------------------------------------

    def act(self, observation: Observation | None, legal_actions: Sequence[int]) -> int:
        """Choose an exchange discard, a pass pair or a card to play."""
        obs = observation
        assert isinstance(obs, FortuneCloverObservation)
        want = self.want(obs)
        fmask = self.g.fortune_mask[obs.fortune]
        first = legal_actions[0]
        if first >= PASS_BASE:
            return self._pass(obs, legal_actions, want, fmask)
        if first >= DISCARD_BASE:
            hand = [a - DISCARD_BASE for a in legal_actions]
            # the card it least wants to keep, ties to the lower id
            return DISCARD_BASE + min(hand, key=self.tables.keep_keys(fmask, want).__getitem__)
        return self._play(obs, legal_actions, want, fmask)

    def _keep(self, card: int, want: float, fmask: int) -> float:
        """How much the bot wants to keep ``card`` through the exchange (low = give away)."""
        return _keep_value(self.strength[card], self.suit[card] == CLUB,
                           bool(fmask >> card & 1), want_class(want))

    def _pass(self, obs: FortuneCloverObservation, legal: Sequence[int], want: float,
              fmask: int) -> int:
        """Pass the two cards the bot least wants to keep (C2)."""
        # the two it least wants to keep, ties to the lower id
        worst = sorted(obs.hand, key=self.tables.keep_keys(fmask, want).__getitem__)[:2]
        a, b = sorted(worst)
        action = PASS_BASE + a * 100 + b
        if action in legal:
            return action
        return min(legal, key=lambda x: sum(self._keep(c, want, fmask) for c in decode_pass(x)))

    def _play(self, obs: FortuneCloverObservation, legal: Sequence[int], want: float,
              fmask: int) -> int:
        """Pick a card to play (C3–C5 heuristics).

        Card sets are bit masks (bit c: card c) and each choice is one min or
        max over the ids of a mask: the bot runs at every step of a searching
        bot's playouts, and per-card lists and closures cost several times more.
        """
        # hand, won cards and trick are disjoint sets of distinct cards: the
        # sum of their bits is their union (summed in C)
        bit = self.bit
        tables = self.tables
        ids_of = self.ids_of
        trick = sum(map(bit, obs.trick))
        won = obs.won
        memo = tables.won_memo
        if memo[0] is won:
            won_mask = memo[1]
        else:
            won_mask = 0
            for cards in won:
                won_mask |= sum(map(bit, cards))
            tables.won_memo = (won, won_mask)
        hand = sum(map(bit, obs.hand))
        known = hand | trick | won_mask
        if obs.discard >= 0:
            known |= 1 << obs.discard
        led = obs.led_suit
        row = led + 1
        trick_cards = obs.trick
        # Unseen cards a later player of this trick may hold and play: the
        # suits each later seat has not shown void in (C3/C4).
        voids, open_suits = obs.voids, self.open_suits
        playable = 0
        for s in tables.later_seats[obs.num_players][obs.seat][len(trick_cards)]:
            playable |= open_suits[voids[s]]
        threat = self.all_cards & ~known & playable
        in_trick = (trick & fmask).bit_count()
        # The best card so far (-1 if none). Every card's key under the led suit
        # as the observation shows it: clubs keep their club key whether they came
        # before or after the card that set the led suit (C3), so no replay in
        # play order is needed.
        # (max without default=: a keyword argument makes the call parse its arguments)
        best = max(map(self.keys[row].__getitem__, trick_cards)) if trick_cards else -1
        if best < -1:
            best = -1
        # The legal cards are those C3/C4 allow from the hand (as legal_actions
        # lists them); built from ``legal`` only if it lists fewer (a caller's subset).
        legal_mask = hand & self.play_mask[row] or hand
        if legal_mask.bit_count() != len(legal):
            legal_mask = sum(map(bit, legal))
        above = tables.above_memo[row].get(best)
        if above is None:
            above = tables.above(row, best)
        winners = legal_mask & above  # cards that would take the lead
        losers = legal_mask ^ winners
        # A winner is safe when no threat card beats it.
        safe = 0
        if winners:
            beats = self.beats[row]
            for c in ids_of(winners):
                if not threat & beats[c]:
                    safe |= 1 << c
        leading = not trick_cards
        if want > 0:
            # Cash a sure winner when the trick (or the card itself) is worth it:
            # the trick already holds counted cards, the card is counted, every
            # trick counts (a trick-unit card counting all cards), or a leader
            # that wants counted cards leads its sure winner anyway.
            if ((leading and want > 0.5) or in_trick
                    or (fmask == self.all_cards and self.g.fortune_by_trick[obs.fortune])):
                worth = safe
            else:
                worth = safe & fmask
            if worth:
                return min(ids_of(worth & fmask or worth),  # counted ones first
                           key=tables.key_low[row].__getitem__)
            if not leading and winners and in_trick and want > 0.5:
                # No sure winner: the strongest try, unless losing is cheap anyway.
                return max(ids_of(winners), key=tables.key_high[row].__getitem__)
        if want < 0 and losers:
            # Avoid the trick: hand counted cards to whoever wins it, else throw
            # the most dangerous (highest) card that still loses.
            return max(ids_of(losers), key=tables.avoid_keys(fmask).__getitem__)
        # Shedding: the lowest shed score (strength, +5 for a club, ±8 for a
        # counted card as the bot wants them or not), ties to the lower id.
        if fmask != self._shed_for[0] or want != self._shed_for[1]:
            # The shed keys change only with the deal's Fortune card and want.
            self._shed_for = (fmask, want)
            self._shed = tables.shed_keys(fmask, want).__getitem__
        if losers:
            return min(ids_of(losers), key=self._shed)
        # Every card wins for now: the cheapest, or the highest if the trick is ours anyway.
        if safe == winners and want <= 0:
            return max(ids_of(winners), key=tables.strength_high.__getitem__)
        return min(ids_of(winners), key=self._shed)
