"""Fortune Clover rules engine: the rulebook's three deals plus rulings C1–C9.

Cards are small ints, indices into the deck table (``deck.csv`` order), and
every card set the hot path touches (hands, the centre, won cards, the
trick, the Fortune card's targets) is an int bit mask: bit ``c`` is card
``c``. Legal plays are one or two mask operations; masks become the sorted
id lists the API wants through per-13-bit lookup tables.

The game is built from the loaded data: the deck's suits, ranks and
strengths come from ``deck.csv``, and the Fortune cards (which cards count,
the chips by place) from ``fortune.csv`` through the mini-languages of
:mod:`.fortunes` — editing a row changes what the simulation pays.

Flow of one deal (rulebook "ゲームの流れ"): deal (C1) → the Fortune card is
turned up → exchange (C2: every seat picks a discard, then every seat picks
two cards to pass left; choices are hidden and cards move only when all have
chosen) → tricks (C3–C5) → chips (C7). After the last deal: yellow return
and the winners (C8). The engine's own rulings C2a (exchange order and
timing) and C5a (what is public) are in docs/rules/fortune_clover-engine.md;
C6a and C6b are in docs/design/fortune_clover.md.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields
from itertools import combinations, repeat, starmap
from operator import add, itemgetter, sub
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence

from pnp.errors import PnpError
from pnp.games.chance import rng_shuffle
from pnp.games.api import TERMINAL, Game, IllegalAction, NotationError, Observation, Param, \
    State, illegal

from . import notation

if TYPE_CHECKING:
    from pnp.data.inventory import GameData
from .codec import DISCARD_BASE, MAX_CARDS, PASS_BASE, PASS_STRIDE, action_text, text_action
from .fortunes import RANKS, SUITS, FortuneCard, read_fortunes
from .scoring import deal_outcome, final_winners, yellow_return

#: Suit index of clubs, the suit that may always follow (C4) and competes in every trick (C5).
CLUB = SUITS.index("♣")
#: Void bits an only-clubs leader reveals: every suit but clubs (C3).
NONCLUB_SUITS = sum(1 << s for s in range(len(SUITS)) if s != CLUB)

#: Internal phases.
EX_DISCARD, EX_PASS, PLAY, OVER = range(4)
PHASE_NAMES = ("exchange_discard", "exchange_pass", "lead", "follow", "over")

EVENT_NAMES = (
    "deal", "exchange", "trick",
    "only_clubs_lead",          # an only-clubs leader played a club and passed the lead (C3)
    "last_player_sets_lead",    # every earlier player led only clubs; the last led a non-club
    "all_club_trick",           # every card was a club: the led suit is clubs (C3)
    "club_follow_holding_led",  # followed with a club while holding the led suit (C4)
    "void_discard",             # held neither led suit nor club: any card (C4)
    "club_wins_trick",          # a club beat a non-club led suit (C5)
    "led_beats_equal_club",     # the led-suit card beat a club of equal rank (C5)
    "centre_taken",             # the last trick's winner took a non-empty centre (C5)
    "tied_place",               # a paying place shared by 2+ seats (C7)
    "nobody_paid_place",        # a listed place that nobody was paid for (C7)
    "zero_card_excluded",       # a seat with no counted card at a paying place (C7)
    "nobody_paid",              # a deal whose Fortune card paid nobody at all
    "yellow_return",            # the game ended with a yellow return (C8)
    "shared_win",               # the winners are still tied after the yellow tie-break (C8)
)
(EV_DEAL, EV_EXCHANGE, EV_TRICK, EV_ONLY_CLUBS, EV_LAST_SETS, EV_ALL_CLUB, EV_CLUB_HOLDING,
 EV_VOID, EV_CLUB_WINS, EV_LED_EQUAL, EV_CENTRE, EV_TIED, EV_UNPAID, EV_ZERO, EV_NOBODY,
 EV_YELLOW_RETURN, EV_SHARED) = range(len(EVENT_NAMES))

_CHUNK = 13
_CHUNK_MASK = (1 << _CHUNK) - 1
_TABLES: dict[int, tuple[tuple[tuple[int, ...], ...], ...]] = {}


def _chunk_tables(chunks: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per 13-bit chunk k: the card ids (13k + bit) of every chunk value, shared by games."""
    if chunks not in _TABLES:
        base = tuple(tuple(b for b in range(_CHUNK) if m >> b & 1) for m in range(1 << _CHUNK))
        _TABLES[chunks] = tuple(
            base if k == 0 else tuple(tuple(_CHUNK * k + b for b in bits) for bits in base)
            for k in range(chunks))
    return _TABLES[chunks]


def _deal_order(n_cards: int, seed: int) -> list[int]:
    """A uniformly random order of the ``n_cards`` card ids, drawn from ``seed``.

    Sorting by one random float per card is a uniform shuffle (ties have
    probability ~n²/2⁵³) and is cheaper than ``Random.shuffle`` (about 9 µs
    against 16 µs for 52 cards): one C call per card instead of a
    Python-level ``_randbelow``.
    """
    draw = random.Random(seed).random
    keys = list(starmap(draw, repeat((), n_cards)))  # n_cards calls of draw(), in C
    return sorted(range(n_cards), key=keys.__getitem__)


#: Zone names by seat, built once (zones() runs at every checked step).
_HAND_ZONES = tuple(f"hand:{s}" for s in range(16))
_WON_ZONES = tuple(f"won:{s}" for s in range(16))


@dataclass(frozen=True)
class FortuneCloverObservation(Observation):
    """What one seat knows (ruling C5a: every played card is public, the centre is not)."""

    num_players: int
    #: Deal in progress, 1-based (the last deal's number once the game is over).
    deal: int
    #: This deal's Fortune card (index into ``game.fortunes``); -1 once over.
    fortune: int
    #: Fortune cards turned up so far, in order (the current one last).
    fortunes_seen: tuple[int, ...]
    #: Own hand, ascending card ids (a chosen discard/pass stays here until all chose).
    hand: tuple[int, ...]
    #: Own exchange discard (-1 not chosen yet).
    discard: int
    #: Own two cards passed left (empty: not chosen yet).
    passed: tuple[int, ...]
    #: The two cards received from the right neighbour (empty until the exchange is done).
    received: tuple[int, ...]
    #: Seat that played (or will play) the first card of the current trick.
    leader: int
    #: Cards of the current trick in play order.
    trick: tuple[int, ...]
    #: Suit index of the led suit (-1: not set yet).
    led_suit: int
    #: Cards each seat won in tricks this deal (public: every card was seen played).
    won: tuple[tuple[int, ...], ...]
    tricks_won: tuple[int, ...]
    #: Counted cards (or tricks) per seat for this deal's Fortune card, laid face up.
    counted: tuple[int, ...]
    #: Suits each seat has shown it lacks (bit per suit index).
    voids: tuple[int, ...]
    centre_count: int
    hand_sizes: tuple[int, ...]
    yellow: tuple[int, ...]
    white: tuple[int, ...]
    #: Counted cards per seat of each finished deal (their Fortune cards: fortunes_seen).
    past_counts: tuple[tuple[int, ...], ...]
    #: Yellow and white returned at the end (empty before).
    returned: tuple[tuple[int, int], ...]


#: ``object.__new__``, to create an observation whose fields are then set at once.
_new_observation = object.__new__
#: ``object.__new__``, for a clone whose slots are then set one by one.
_new_state = object.__new__
#: ``object.__setattr__``, to give an observation its filled instance dict.
_set_attr = object.__setattr__
#: Every observation field, in declaration order, with the values of fields
#: that are empty until the exchange or the end (copied: a dict's copy is one
#: block copy, cheaper than building it key by key).
_OBS_BASE: dict[str, Any] = {f.name: () for f in fields(FortuneCloverObservation)}


def _public_fields(state: "FortuneCloverState") -> dict[str, Any]:
    """An observation template: every field in order, the per-trick public ones filled.

    Won cards (as ids), tricks won, counted cards and voids are the same for
    every seat and change only when a trick ends or a void shows (the state
    then drops its template); the caller sets every other field.
    """
    g = state.game
    d = _OBS_BASE.copy()
    d["num_players"] = state.num_players
    t4 = g.tables4
    if t4 is not None:  # decks of 40–52 cards: the lookups written out
        t0, t1, t2, t3 = t4
        d["won"] = tuple([(*t0[m & 8191], *t1[m >> 13 & 8191], *t2[m >> 26 & 8191], *t3[m >> 39])
                          for m in state.won])
    else:
        d["won"] = tuple([tuple(g.ids_of(m)) for m in state.won])
    d["tricks_won"] = tuple(state.ntricks)
    d["counted"] = tuple(state.counted)
    d["voids"] = tuple(state.voids)
    return d


class FortuneCloverGame(Game["FortuneCloverState"]):
    """Fortune Clover: three deals of trick-taking where clubs always may follow."""

    slug = "fortune_clover"
    min_players = 3
    max_players = 6
    param_specs = (
        Param("deals", 3, "deals per game (rulebook: 3; default from the manifest's "
              "deals, which the player aid prints)", minimum=1, maximum=10),
        Param("yellow_return", True,
              "at the end the yellow leaders return their yellow and as many white (C8)"),
    )
    params_from_manifest = ("deals",)
    event_names = EVENT_NAMES
    phase_names = PHASE_NAMES

    def __init__(self, data: "GameData", params: Mapping[str, Any] | None = None) -> None:
        """Read the deck and the Fortune cards from ``data``, parse the mini-languages."""
        super().__init__(data, params)
        deck_path = self._table_path(data, "deck")
        rows = data.cards("deck")
        if not 0 < len(rows) <= MAX_CARDS:
            raise PnpError(f"fortune_clover: the deck has {len(rows)} cards "
                           f"(expected 1–{MAX_CARDS})", path=deck_path)
        names: list[str] = []
        suit: list[int] = []
        rank: list[str] = []
        strength: list[int] = []
        for row in rows:
            s, r = str(row["suit"]), str(row["rank"])
            if s not in SUITS or r not in RANKS:
                raise PnpError(f"fortune_clover deck card {row['id']}: unknown suit/rank "
                               f"{s}{r}", path=deck_path)
            names.append(s + r)
            suit.append(SUITS.index(s))
            rank.append(r)
            strength.append(int(row["strength"]))
        if len(set(names)) != len(names):
            raise PnpError("fortune_clover: every deck card must be a different suit and rank "
                           "(names identify cards in actions and positions)", path=deck_path)
        self.n_cards: int = len(rows)
        self.names: tuple[str, ...] = tuple(names)
        self.ids: dict[str, int] = {name: c for c, name in enumerate(names)}
        self.suit: tuple[int, ...] = tuple(suit)
        self.strength: tuple[int, ...] = tuple(strength)
        self.bit: tuple[int, ...] = tuple(1 << c for c in range(self.n_cards))
        self.suit_mask: tuple[int, ...] = tuple(
            sum(1 << c for c in range(self.n_cards) if suit[c] == s) for s in range(len(SUITS)))
        self.club_mask: int = self.suit_mask[CLUB]
        self.nonclub_mask: int = ((1 << self.n_cards) - 1) & ~self.club_mask
        # ruling C4: with a led suit, the cards that must be played if held.
        self.follow_mask: tuple[int, ...] = tuple(m | self.club_mask for m in self.suit_mask)
        # Trick keys (ruling C5): a led-suit card beats a club of equal rank.
        self.led_key: tuple[int, ...] = tuple(2 * x + 1 for x in strength)
        self.club_key: tuple[int, ...] = tuple(2 * x for x in strength)
        # The hot path indexes both tables below by led suit + 1 (the led
        # suit is -1 while none is set), so one lookup serves leading and
        # following.
        #: play_mask[led + 1]: cards that must be played if held (C4), or, for
        #: led = -1, the non-clubs a leader must lead if it holds one (C3).
        self.play_mask: tuple[int, ...] = (self.nonclub_mask, *self.follow_mask)
        #: trick_key[led + 1][c]: card c's key in a trick with that led suit
        #: (C5); -1 for a card of neither the led suit nor clubs. Row 0: c
        #: would lead (a club keeps its club key, C3; anything else sets the suit).
        self.trick_key: tuple[tuple[int, ...], ...] = (
            tuple(self.club_key[c] if suit[c] == CLUB else self.led_key[c]
                  for c in range(self.n_cards)),
            *(tuple(self.led_key[c] if suit[c] == led else
                    self.club_key[c] if suit[c] == CLUB else -1 for c in range(self.n_cards))
              for led in range(len(SUITS))))

        #: equal_club[c]: the clubs as strong as card c (ruling C5: a led-suit
        #: card beats them; a trick's event test is one mask operation).
        self.equal_club: tuple[int, ...] = tuple(
            sum(1 << k for k in range(self.n_cards) if suit[k] == CLUB and strength[k] == x)
            for x in strength)

        fortune_path = self._table_path(data, "fortune")
        data.component("fortune")     # no such component: the one-line error with a hint
        fortunes, bad = read_fortunes(data, self.min_players, self.max_players)
        if bad:
            # every bad cell has its own line in `pnp check`; one is enough to stop here
            more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
            raise PnpError(f"{bad[0]}{more}; run `pnp check {self.slug}` for the list")
        self.fortunes: tuple[FortuneCard, ...] = fortunes
        self.deals: int = int(self.params["deals"])
        if len(self.fortunes) < self.deals:
            raise PnpError(f"fortune_clover: {self.deals} deals need {self.deals} Fortune "
                           f"cards, the data has {len(self.fortunes)}", path=fortune_path)
        self.fortune_ids: tuple[str, ...] = tuple(f.id for f in self.fortunes)
        self.fortune_mask: tuple[int, ...] = tuple(
            sum(1 << c for c in range(self.n_cards)
                if (SUITS[suit[c]], rank[c]) in f.matches) for f in self.fortunes)
        self.fortune_by_trick: tuple[bool, ...] = tuple(f.unit == "trick" for f in self.fortunes)
        self.yellow_return: bool = bool(self.params["yellow_return"])
        #: Action of passing each pair of cards (a, b), a < b (C2).
        self.pass_action: dict[tuple[int, int], int] = {
            (a, b): PASS_BASE + a * PASS_STRIDE + b
            for a in range(self.n_cards) for b in range(a + 1, self.n_cards)}
        #: pass_base[a] + b: the action passing a and b, a < b.
        self.pass_base: tuple[int, ...] = tuple(
            PASS_BASE + a * PASS_STRIDE for a in range(self.n_cards))

        #: pair_ids memo: pass masks → ids (0: no pass chosen).
        self._pair_memo: dict[int, tuple[int, ...]] = {0: ()}
        self._set_tables()

    @staticmethod
    def _table_path(data: "GameData", component: str) -> Path | None:
        """Path of ``component``'s table (for error messages)."""
        comp = data.manifest.components.get(component)
        if comp is None or comp.table is None:
            return None
        return data.manifest.game_dir / comp.table

    def __getstate__(self) -> dict[str, Any]:
        """Pickle without the shared lookup tables (rebuilt on load)."""
        state = super().__getstate__()
        state["_tables"] = None
        state["tables4"] = None
        state.pop("ids_of", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Restore and rebuild the lookup tables."""
        self.__dict__.update(state)
        self._set_tables()

    def _set_tables(self) -> None:
        """Install the mask → ids tables (and the unrolled reader for ≤ 52 cards)."""
        chunks = (self.n_cards + _CHUNK - 1) // _CHUNK
        tables = self._tables = _chunk_tables(chunks)
        self.tables4: tuple[tuple[tuple[int, ...], ...], ...] | None = None

        def ids_any(mask: int) -> list[int]:
            """Card ids of ``mask``, ascending."""
            out: list[int] = []
            for table in tables:
                out += table[mask & _CHUNK_MASK]
                mask >>= _CHUNK
            return out

        #: Card ids of a mask, ascending (written out for decks of 40–52 cards).
        self.ids_of: Callable[[int], list[int]] = ids_any
        if chunks == 4:
            self.tables4 = tables
            t0, t1, t2, t3 = tables

            def ids4(m: int) -> list[int]:
                """Card ids of ``m`` for a deck of 40–52 cards (hot path: no loop)."""
                return [*t0[m & 8191], *t1[m >> 13 & 8191], *t2[m >> 26 & 8191], *t3[m >> 39]]
            self.ids_of = ids4

    # -- helpers used by the state --------------------------------------------

    def pair_ids(self, mask: int) -> tuple[int, ...]:
        """The card ids of a pass (two cards, or none) as a tuple, memoised (C2).

        Observations show every seat its pass and the pass it received at
        each decision; there are only n·(n − 1)/2 pairs.
        """
        ids = self._pair_memo.get(mask)
        if ids is None:
            ids = self._pair_memo[mask] = tuple(self.ids_of(mask))
        return ids

    def mask_of(self, cards: Sequence[int]) -> int:
        """The bit mask of ``cards``."""
        bit = self.bit
        m = 0
        for c in cards:
            m |= bit[c]
        return m

    def card_name(self, card: int) -> str:
        """Suit symbol and rank, e.g. ``♠Q``."""
        return self.names[card]

    def deck(self) -> Sequence[int]:
        """Every playing card id (Fortune cards and chips are not cards in zones)."""
        return range(self.n_cards)

    def hand_size(self, num_players: int) -> int:
        """Cards dealt to each seat (C1: the deck split evenly)."""
        return self.n_cards // num_players

    # -- states ----------------------------------------------------------------

    def new_initial_state(self, num_players: int, seed: int) -> "FortuneCloverState":
        """Shuffle the Fortune pile, draw the deal seeds, deal the first deal (led by seat 0)."""
        self.check_players(num_players)
        if self.hand_size(num_players) < 3:
            raise PnpError(f"fortune_clover: {self.n_cards} cards are too few for "
                           f"{num_players} players (each must discard 1 and pass 2)")
        rng = random.Random(seed)
        order = list(range(len(self.fortunes)))
        rng_shuffle(order, rng)  # rng.shuffle(order), the same draws
        state = FortuneCloverState(self, num_players)
        state.fortune_order = order
        state.future_seeds = [rng.getrandbits(64) for _ in range(self.deals)]
        state._start_deal()  # ruling C9: the first deal's leader is seat 0
        return state

    def state_from_notation(self, text: str) -> "FortuneCloverState":
        """The state written as ``text`` (grammar in :mod:`.notation`)."""
        pos = notation.read(text, self.ids, SUITS, self.fortune_ids, self.deals,
                            (self.min_players, self.max_players))
        return FortuneCloverState.from_position(self, pos, text)


    def state_from_observation(self, obs: "FortuneCloverObservation") -> "FortuneCloverState":
        """One position that gives ``obs`` to its seat (for searching bots).

        Unseen cards go to the other hands and the centre in ascending id
        order (each to the first holder with room that has shown no void in
        its suit), the other seats' hidden exchange choices are placeholders,
        future deal seeds zero and unseen Fortune cards in index order: all a
        function of ``obs`` alone, and all redrawn by ``resample_hidden``.
        Won cards form one trick per seat (only their union and the trick
        count are public), and the turn and event counters start at zero.
        """
        n, me = obs.num_players, obs.seat
        st = FortuneCloverState(self, n)
        bit, mask_of = self.bit, self.mask_of
        over = obs.phase == PHASE_NAMES[4]
        ph = OVER if over else min(PHASE_NAMES.index(obs.phase), PLAY)
        st.phase_id = ph
        st.deal = self.deals if over else obs.deal - 1
        st.lead = obs.leader
        seen_f = list(obs.fortunes_seen)
        st.fortune_order = seen_f + [f for f in range(len(self.fortunes)) if f not in seen_f]
        st.future_seeds = [] if over else [0] * (self.deals - obs.deal)
        st.yellow, st.white = tuple(obs.yellow), tuple(obs.white)
        st.log = tuple(obs.past_counts)
        st.voids = list(obs.voids)
        st.ntricks = list(obs.tricks_won)
        st.counted = list(obs.counted)
        st.won = [mask_of(w) for w in obs.won]
        st.tricks = [(s, m) for s, m in enumerate(st.won) if m]
        st.hands[me] = mask_of(obs.hand)
        st.discards[me] = obs.discard
        st.passes[me] = mask_of(obs.passed)
        right, left = (me - 1) % n, (me + 1) % n
        if ph == PLAY and obs.received:
            st.passes[right] = mask_of(obs.received)
        st.trick = list(obs.trick)
        st.tmask = mask_of(obs.trick)
        if over:
            st.cur = TERMINAL
            st.fortune = st.fortune_order[self.deals - 1]
            if obs.returned:
                st.ret_y = [y for y, _ in obs.returned]
                st.ret_w = [w for _, w in obs.returned]
            return st
        st.cur = obs.current_player
        st.fortune = obs.fortune
        st.fmask = self.fortune_mask[obs.fortune]
        st.ftrick = self.fortune_by_trick[obs.fortune]
        known = st.hands[me] | st.tmask
        for m in st.won:
            known |= m
        centre_known = 0
        if ph >= EX_PASS and obs.discard >= 0:
            centre_known = bit[obs.discard]  # own discard lies in the centre
        held_left = 0
        if ph == PLAY:
            held_left = st.passes[me] & ~known  # passed left and not yet played
        known |= centre_known | held_left
        st.hands[left] |= held_left
        holders = [s for s in range(n) if s != me]
        room = [obs.hand_sizes[s] - (st.hands[s].bit_count()) for s in holders]
        room.append(obs.centre_count - centre_known.bit_count())
        voids = [obs.voids[s] for s in holders] + [0]
        masks = [0] * len(room)
        places = range(len(room))
        suit = self.suit
        for c in range(self.n_cards):
            if known >> c & 1:
                continue
            s = suit[c]
            for i in places:  # the first holder with room and no void in the suit
                if room[i] > 0 and not voids[i] >> s & 1:
                    break
            else:
                i = next(i for i in places if room[i] > 0)
            room[i] -= 1
            masks[i] |= bit[c]
        for i, s in enumerate(holders):
            st.hands[s] |= masks[i]
        st.centre = masks[-1] | centre_known
        # Hidden exchange choices of the seats that already chose (turn order
        # from the leader): placeholders that keep the position legal.
        order = [(obs.leader + k) % n for k in range(n)]
        done = order[:order.index(obs.current_player)] if obs.current_player in order else []
        if ph == EX_DISCARD:
            for s in done:
                if s != me:
                    st.discards[s] = self.ids_of(st.hands[s])[0]
        else:
            pool = [c for c in self.ids_of(st.centre & ~centre_known)]
            for s in holders:
                st.discards[s] = pool.pop(0)
            if ph == EX_PASS:
                for s in done:
                    if s != me:
                        a, b = self.ids_of(st.hands[s])[:2]
                        st.passes[s] = bit[a] | bit[b]
            else:
                played = st.tmask
                for m in st.won:
                    played |= m
                for s in holders:
                    if s != right:
                        recv = (s + 1) % n
                        a, b = self.ids_of((st.hands[recv] if recv != me else 0) | played)[:2]
                        st.passes[s] = bit[a] | bit[b]
        self.replay_trick(st, st.trick)
        return st

    def replay_trick(self, st: "FortuneCloverState", trick: Sequence[int]) -> None:
        """Set the led suit and the best card so far from the cards of ``trick`` (C3, C5)."""
        n = st.num_players
        for k, c in enumerate(trick):
            s = self.suit[c]
            if st.led < 0:
                if s == CLUB:
                    key = self.club_key[c]
                else:
                    st.led = s
                    key = self.led_key[c]
            elif s == st.led:
                key = self.led_key[c]
            elif s == CLUB:
                key = self.club_key[c]
            else:
                key = -1
            if key > st.best_key:
                st.best_key = key
                st.best_seat = (st.lead + k) % n


class FortuneCloverState(State[FortuneCloverGame]):
    """A Fortune Clover position: deal, Fortune card, hands, exchange, trick, chips."""

    # Slots: the hot path reads and writes these at every step, and slot
    # access is cheaper than a dict of 30+ keys (measured: about 10 % fewer
    # instructions per card played, and a cheaper clone).
    __slots__ = ("game", "num_players", "deal", "phase_id", "cur", "lead", "fortune_order",
                 "future_seeds", "fortune", "fmask", "ftrick", "hands", "centre", "discards",
                 "passes", "trick", "tmask", "led", "best_key", "best_seat", "tricks", "won",
                 "ntricks", "counted", "voids", "yellow", "white", "log", "ret_y", "ret_w",
                 "n_turns", "ev", "_pub")

    def __init__(self, game: FortuneCloverGame, num_players: int) -> None:
        """An empty table (callers deal or load a position)."""
        n = num_players
        self.game = game
        self.num_players = n
        self.deal = 0
        self.phase_id = EX_DISCARD
        self.cur = 0
        self.lead = 0
        self.fortune_order: list[int] = []
        self.future_seeds: list[int] = []
        self.fortune = 0
        self.fmask = 0
        self.ftrick = False
        self.hands = [0] * n
        self.centre = 0
        self.discards = [-1] * n
        self.passes = [0] * n
        self.trick: list[int] = []
        self.tmask = 0
        self.led = -1
        self.best_key = -1
        self.best_seat = 0
        self.tricks: list[tuple[int, int]] = []
        self.won = [0] * n
        self.ntricks = [0] * n
        self.counted = [0] * n
        self.voids = [0] * n
        # Chips and the deal log are tuples: they change only between deals, and
        # observations and clones share them instead of copying at every step.
        self.yellow: tuple[int, ...] = (0,) * n
        self.white: tuple[int, ...] = (0,) * n
        self.log: tuple[tuple[int, ...], ...] = ()
        self.ret_y: list[int] = []
        self.ret_w: list[int] = []
        self.n_turns = 0
        self.ev = [0] * len(EVENT_NAMES)
        #: Observation template with the public per-trick fields (won,
        #: tricks_won, counted, voids) filled; None once one of them changed.
        self._pub: dict[str, Any] | None = None

    # -- dealing ---------------------------------------------------------------

    def _start_deal(self) -> None:
        """Deal ``self.deal`` (C1) and turn up its Fortune card; the exchange begins.

        ``self.lead`` already holds the leader (seat 0, or the last trick's
        winner, C9); the exchange choices are asked in turn order from there
        (C2a).
        """
        g = self.game
        n = self.num_players
        seed = self.future_seeds.pop(0)
        # The card bits in deal order, fetched in one C call; a hand is the sum
        # of its slice (distinct bits: the sum is the union), also in C.
        dealt = itemgetter(*_deal_order(g.n_cards, seed))(g.bit)
        h = g.n_cards // n
        hands = self.hands
        for s in range(n):
            hands[s] = sum(dealt[s * h:(s + 1) * h])
        # ruling C1: the remainder goes face down to the centre
        self.centre = sum(dealt[n * h:])
        # Rulebook: the top card of the shuffled Fortune pile is turned up each deal.
        self.fortune = self.fortune_order[self.deal]
        self.fmask = g.fortune_mask[self.fortune]
        self.ftrick = g.fortune_by_trick[self.fortune]
        self.discards = [-1] * n
        self.passes = [0] * n
        self.trick = []
        self.tmask = 0
        self.led = -1
        self.best_key = -1
        self.tricks = []
        self.won = [0] * n
        self.ntricks = [0] * n
        self.counted = [0] * n
        self.voids = [0] * n
        self._pub = None
        self.phase_id = EX_DISCARD
        self.cur = self.lead
        self.ev[EV_DEAL] += 1

    # -- the API ---------------------------------------------------------------

    def current_player(self) -> int:
        """Seat to act, or TERMINAL (``cur`` is set to TERMINAL when the game ends)."""
        return self.cur

    def is_terminal(self) -> bool:
        """True after the last deal's chips and the yellow return."""
        return self.phase_id == OVER

    def phase(self) -> str:
        """exchange_discard, exchange_pass, lead (no led suit yet), follow, or over."""
        ph = self.phase_id
        if ph == PLAY:
            return "lead" if self.led < 0 else "follow"
        return PHASE_NAMES[ph if ph < PLAY else 4]

    def legal_actions(self) -> list[int]:
        """Legal actions of the player on turn, ascending."""
        ph = self.phase_id
        if ph == PLAY:  # most steps: tested first
            g = self.game
            h = self.hands[self.cur]
            # ruling C3 (no led suit yet): no club lead while holding a non-club;
            # ruling C4: led suit or club if holding either, else anything.
            m = h & g.play_mask[self.led + 1] or h
            t4 = g.tables4
            if t4 is not None:  # decks of 40–52 cards: the lookups written out
                t0, t1, t2, t3 = t4
                return [*t0[m & 8191], *t1[m >> 13 & 8191], *t2[m >> 26 & 8191], *t3[m >> 39]]
            return g.ids_of(m)
        if ph == OVER:
            return []
        g = self.game
        ids = g.ids_of(self.hands[self.cur])
        if ph == EX_DISCARD:
            return [DISCARD_BASE + c for c in ids]
        # every pair a < b of the hand (combinations are in ascending order,
        # and so are the pair actions)
        base = g.pass_base
        return [base[a] + b for a, b in combinations(ids, 2)]

    def apply_action(self, action: int) -> None:
        """Apply ``action`` for the player on turn (validated first; C2–C5, C7–C9).

        Playing a card is written out in one function: it is most of a game's
        work and a call per card would cost a tenth of the run time.
        """
        ph = self.phase_id
        g = self.game
        p = self.cur
        if ph != PLAY:
            self._apply_exchange(ph, p, action)
            return
        hands = self.hands
        h = hands[p]
        led = self.led
        # One mask test is the whole of C3 and C4: the cards legal_actions lists
        # (a negative action would make the shift raise, so it is refused first).
        if action < 0 or not (h & g.play_mask[led + 1] or h) >> action & 1:
            raise illegal(self, action)
        # Validated: from here on the state changes.
        card = 1 << action
        hands[p] = h ^ card
        trick = self.trick
        suit = g.suit[action]
        if suit != led:  # following suit (the common case) fires no event
            if led < 0:
                if suit == CLUB:
                    # ruling C3: an only-clubs leader's club sets no led suit and passes
                    # the lead on; it still competes as a club (C5). It shows the
                    # seat holds nothing but clubs.
                    self.ev[EV_ONLY_CLUBS] += 1
                    self.voids[p] |= NONCLUB_SUITS
                    self._pub = None
                else:
                    self.led = suit
                    if trick and len(trick) == self.num_players - 1:
                        # ruling C3: the restriction binds the last player too.
                        self.ev[EV_LAST_SETS] += 1
            elif suit == CLUB:
                if h & g.suit_mask[led]:
                    # ruling C4: a club may follow while holding the led suit.
                    self.ev[EV_CLUB_HOLDING] += 1
            else:
                self.ev[EV_VOID] += 1
                self.voids[p] |= (1 << led) | (1 << CLUB)  # ruling C4: held neither
                self._pub = None
        # The key under the led suit as it was before this card (C5; row 0:
        # this card leads, see FortuneCloverGame.trick_key).
        key = g.trick_key[led + 1][action]
        if key > self.best_key:
            self.best_key = key
            self.best_seat = p
        trick.append(action)
        self.tmask |= card
        self.n_turns += 1
        if len(trick) == self.num_players:
            self._finish_trick()
        else:
            self.cur = p + 1 if p + 1 < self.num_players else 0

    def _apply_exchange(self, ph: int, p: int, action: int) -> None:
        """Validate and apply an exchange choice (discard or pass) of seat ``p``."""
        g = self.game
        if ph == EX_DISCARD:
            c = action - DISCARD_BASE
            if not (0 <= c < g.n_cards and self.hands[p] >> c & 1):
                raise illegal(self, action)
            self._discard(p, c)
        elif ph == EX_PASS:
            a, b = divmod(action - PASS_BASE, PASS_STRIDE)
            h = self.hands[p]
            if not (0 <= a < b < g.n_cards and h >> a & 1 and h >> b & 1):
                raise illegal(self, action)
            self._pass(p, (1 << a) | (1 << b))
        else:
            raise illegal(self, action)

    def _finish_trick(self) -> None:
        """Give the complete trick to its winner (C5); end the deal after the last one."""
        g = self.game
        ev = self.ev
        w = self.best_seat
        m = self.tmask
        led = self.led
        ev[EV_TRICK] += 1
        if led < 0:
            ev[EV_ALL_CLUB] += 1  # ruling C3: every card a club, the led suit is clubs
        elif m & g.club_mask and led != CLUB:  # both events below need a club in the trick
            win_card = self.trick[(w - self.lead) % self.num_players]
            ws = g.suit[win_card]
            if ws == CLUB:
                ev[EV_CLUB_WINS] += 1
            elif ws == led and m & g.equal_club[win_card]:
                ev[EV_LED_EQUAL] += 1  # ruling C5: led suit beats the equal club
        self.won[w] |= m
        self.ntricks[w] += 1
        self.tricks.append((w, m))
        fm = m & self.fmask
        if fm:
            # ruling C6a: a trick-unit Fortune card counts tricks holding a target.
            self.counted[w] += 1 if self.ftrick else fm.bit_count()
        self.trick = []
        self.tmask = 0
        self.led = -1
        self.best_key = -1
        self._pub = None
        self.lead = w  # ruling C5: the winner leads the next trick
        self.cur = w
        if not self.hands[w]:
            self._end_deal()

    def _end_deal(self) -> None:
        """Centre to the last winner, chips by the Fortune card (C5, C7); next deal or end."""
        g = self.game
        ev = self.ev
        n = self.num_players
        w = self.lead
        if self.centre:
            ev[EV_CENTRE] += 1
            if not self.ftrick:
                # ruling C5: the centre counts for the Fortune card; C6a: not a trick.
                self.counted[w] += (self.centre & self.fmask).bit_count()
        counts = tuple(self.counted)
        reward = g.fortunes[self.fortune].rewards[n]
        ys, ws, tied, unpaid, zero = deal_outcome(counts, reward)  # ruling C7
        self.yellow = tuple(map(add, self.yellow, ys))
        self.white = tuple(map(add, self.white, ws))
        ev[EV_TIED] += tied
        ev[EV_UNPAID] += unpaid
        ev[EV_ZERO] += zero
        if not any(ys) and not any(ws):
            ev[EV_NOBODY] += 1
        self.log += (counts,)
        self.deal += 1
        if self.deal < g.deals:
            # ruling C9: the last trick's winner (self.lead) leads the next deal.
            self._start_deal()
            return
        self.phase_id = OVER
        self.cur = TERMINAL
        self._pub = None
        n_ret = [0] * n
        if g.yellow_return:
            ret_y, ret_w = yellow_return(self.yellow, self.white)  # ruling C8
        else:
            ret_y, ret_w = n_ret, n_ret[:]
        self.ret_y, self.ret_w = ret_y, ret_w
        self.yellow = tuple(map(sub, self.yellow, ret_y))
        self.white = tuple(map(sub, self.white, ret_w))
        if any(ret_y):
            ev[EV_YELLOW_RETURN] += 1
        if len(final_winners(self.yellow, self.white)) > 1:
            ev[EV_SHARED] += 1

    def _discard(self, p: int, card: int) -> None:
        """Record seat ``p``'s hidden discard; when all have chosen, they go to the centre (C2)."""
        self.discards[p] = card
        self.n_turns += 1
        # ruling C2a: choices go round from the deal's leader; the card stays in
        # the hand (hidden from everyone else) until the last seat has chosen.
        nxt = p + 1 if p + 1 < self.num_players else 0
        if nxt != self.lead:
            self.cur = nxt
            return
        bit = self.game.bit
        for s, c in enumerate(self.discards):
            self.hands[s] ^= bit[c]
            self.centre |= bit[c]
        self.phase_id = EX_PASS
        self.cur = self.lead

    def _pass(self, p: int, pair: int) -> None:
        """Record seat ``p``'s hidden pass; when all have chosen, cards move left (C2)."""
        self.passes[p] = pair
        self.n_turns += 1
        n = self.num_players
        # ruling C2a: passes are chosen from the hand after the discards left and
        # before anything is received; all move together once every seat chose.
        nxt = p + 1 if p + 1 < n else 0
        if nxt != self.lead:
            self.cur = nxt
            return
        hands = self.hands
        passes = self.passes
        for s in range(n):
            hands[s] ^= passes[s]
        for s in range(n):
            hands[s + 1 if s + 1 < n else 0] |= passes[s]  # ruling C2: seat i → seat i + 1
        self.ev[EV_EXCHANGE] += 1
        self.phase_id = PLAY
        self.cur = self.lead

    def returns(self) -> list[float]:
        """Chips per seat (after the yellow return once the game is over)."""
        return [float(y + w) for y, w in zip(self.yellow, self.white)]

    def winners(self) -> list[int]:
        """Most chips, ties to more yellow, then shared (C8)."""
        return final_winners(self.yellow, self.white)

    def clone(self) -> "FortuneCloverState":
        """Independent copy (lists copied, ints and tuples shared); every slot is set."""
        new = _new_state(FortuneCloverState)
        new.game, new.num_players, new.deal, new.phase_id = (
            self.game, self.num_players, self.deal, self.phase_id)
        new.cur, new.lead, new.fortune, new.fmask, new.ftrick = (
            self.cur, self.lead, self.fortune, self.fmask, self.ftrick)
        new.centre, new.tmask, new.led, new.best_key, new.best_seat = (
            self.centre, self.tmask, self.led, self.best_key, self.best_seat)
        # The observation template is shared: observations copy it before filling.
        new.n_turns, new._pub = self.n_turns, self._pub
        new.fortune_order, new.future_seeds = self.fortune_order[:], self.future_seeds[:]
        new.hands, new.discards, new.passes = self.hands[:], self.discards[:], self.passes[:]
        new.trick, new.tricks, new.won = self.trick[:], self.tricks[:], self.won[:]
        new.ntricks, new.counted, new.voids = self.ntricks[:], self.counted[:], self.voids[:]
        new.yellow, new.white, new.log = self.yellow, self.white, self.log  # tuples: shared
        new.ret_y, new.ret_w, new.ev = self.ret_y[:], self.ret_w[:], self.ev[:]
        return new

    def action_to_string(self, action: int) -> str:
        """``play ♠Q``, ``discard ♥3`` or ``pass ♠Q ♥3``."""
        return action_text(action, self.game.names)

    def string_to_action(self, text: str) -> int:
        """The legal action written ``text`` (inverse of :meth:`action_to_string`)."""
        action = text_action(text, self.game.ids)
        if action not in self.legal_actions():
            raise IllegalAction(f"fortune_clover: {text!r} is not legal for seat "
                                f"{self.current_player()} in phase {self.phase()!r}")
        return action

    def turns(self) -> int:
        """Decisions taken so far (discards, passes and plays)."""
        return self.n_turns

    def events(self) -> Mapping[str, int]:
        """How often each rule event fired."""
        return dict(zip(EVENT_NAMES, self.ev))

    def zone_masks(self) -> Iterator[tuple[str, int]]:
        """The zones of :meth:`zones` as bit sets (bit c for card c), for the
        simulator's per-step conservation check."""
        centre_taken = self.phase_id == OVER
        yield from zip(_HAND_ZONES, self.hands)
        if not centre_taken:
            yield "centre", self.centre
        trick = 0
        for c in self.trick:
            trick |= 1 << c
        yield "trick", trick
        for s, m in enumerate(self.won):
            if centre_taken and s == self.lead:
                m |= self.centre
            yield _WON_ZONES[s], m

    def zones(self) -> Iterator[tuple[str, list[int]]]:
        """Zones ``hand:n``, ``centre``, ``trick``, ``won:n`` (centre: last winner's at the end)."""
        ids_of = self.game.ids_of
        centre_taken = self.phase_id == OVER
        for s, mask in enumerate(self.hands):
            yield _HAND_ZONES[s], ids_of(mask)
        if not centre_taken:
            yield "centre", ids_of(self.centre)
        yield "trick", list(self.trick)
        for s, m in enumerate(self.won):
            if centre_taken and s == self.lead:
                m |= self.centre
            yield _WON_ZONES[s], ids_of(m)

    # -- observation and redeal --------------------------------------------------

    def observation(self, player: int) -> FortuneCloverObservation:
        """What ``player`` knows: own hand and choices, public table, chips (C5a).

        Built for speed (the heuristic bot, also as a searching bot's playout
        policy, asks at every decision): the instance dict is a copy of a
        template that already holds every field in order, with the public
        per-trick fields (won cards as ids, tricks won, counted cards, voids)
        filled in once per change of them (a trick ends, a void shows); the
        fields below are then set in it. Copying a dict and setting items
        costs about a third of filling an empty one from keywords.
        """
        g = self.game
        ph = self.phase_id
        d = self._pub
        if d is None:
            d = self._pub = _public_fields(self)
        d = d.copy()
        h = self.hands[player]
        t4 = g.tables4
        if t4 is not None:  # decks of 40–52 cards: the lookups written out
            t0, t1, t2, t3 = t4
            d["hand"] = (*t0[h & 8191], *t1[h >> 13 & 8191], *t2[h >> 26 & 8191], *t3[h >> 39])
        else:
            d["hand"] = tuple(g.ids_of(h))
        # pair_ids' memo read here (a call per pass costs more than the lookup);
        # 0, no pass chosen yet, is in it from the start.
        pairs = g._pair_memo
        passed = pairs.get(self.passes[player])
        if passed is None:
            passed = g.pair_ids(self.passes[player])
        d["passed"] = passed
        if ph >= PLAY:  # exchanged: the pass received (the template holds ())
            received = pairs.get(self.passes[player - 1])
            if received is None:
                received = g.pair_ids(self.passes[player - 1])
            d["received"] = received
        deal = self.deal
        if ph == PLAY:
            d["current_player"] = self.cur
            d["phase"] = "lead" if self.led < 0 else "follow"
            d["fortune"] = self.fortune
        elif ph == OVER:
            d["current_player"] = TERMINAL
            d["phase"] = "over"
            deal = g.deals - 1  # the last deal (self.deal is past it)
            d["fortune"] = -1
        else:
            d["current_player"] = self.cur
            d["phase"] = PHASE_NAMES[ph]
            d["fortune"] = self.fortune
        d["seat"] = player
        d["deal"] = deal + 1
        d["fortunes_seen"] = tuple(self.fortune_order[:deal + 1])
        d["discard"] = self.discards[player]
        d["leader"] = self.lead
        d["trick"] = tuple(self.trick)
        d["led_suit"] = self.led
        d["centre_count"] = self.centre.bit_count()
        d["hand_sizes"] = tuple(map(int.bit_count, self.hands))
        d["yellow"] = self.yellow
        d["white"] = self.white
        d["past_counts"] = self.log
        if self.ret_y:  # empty until the end (the template holds ())
            d["returned"] = tuple(zip(self.ret_y, self.ret_w))
        obs = _new_observation(FortuneCloverObservation)
        _set_attr(obs, "__dict__", d)  # the frozen dataclass's own setattr refuses
        return obs

    def resample_hidden(self, player: int, rng: random.Random) -> "FortuneCloverState":
        """A copy with what ``player`` cannot know redealt (other hands, centre, future).

        Kept: own hand and choices; public cards (tricks); the cards ``player``
        passed left while still in that seat's hand; own discard in the
        centre; every seat's shown voids (C3, C4). The other seats' hidden
        exchange choices are drawn afresh from their new hands, future deal
        seeds are redrawn and the unseen Fortune cards reshuffled.
        """
        new = self.clone()
        g = self.game
        n = self.num_players
        if self.phase_id == OVER:
            return new
        bit = g.bit
        known = [0] * n
        known_centre = 0
        if self.phase_id >= EX_PASS and self.discards[player] >= 0:
            known_centre = bit[self.discards[player]]
        if self.phase_id == PLAY:
            left = (player + 1) % n
            known[left] = self.passes[player] & self.hands[left]
        # Holders of unknown cards: the other seats, then the centre (no constraint).
        holders = [s for s in range(n) if s != player]
        caps = [(self.hands[s] & ~known[s]).bit_count() for s in holders]
        voids = [self.voids[s] for s in holders]
        unknown = 0
        for s in holders:
            unknown |= self.hands[s] & ~known[s]
        unknown |= self.centre & ~known_centre
        caps.append((self.centre & ~known_centre).bit_count())
        voids.append(0)
        dealt = _redeal(g.ids_of(unknown), caps, voids, g.suit, rng)
        if dealt is not None:
            for i, s in enumerate(holders):
                new.hands[s] = dealt[i] | known[s]
            new.centre = dealt[-1] | known_centre
        # The other seats' exchange choices are hidden from player: redraw them so
        # the copy stays a possible world (pending choices from the new hands,
        # made discards from the new centre, made passes from the receiver's
        # hand), keeping those player knows: its own and the pass it received.
        ph = self.phase_id
        right = (player - 1) % n
        if ph == EX_DISCARD:
            for s in holders:
                if self.discards[s] >= 0:
                    new.discards[s] = rng.choice(g.ids_of(new.hands[s]))
        elif dealt is not None:
            played = self.tmask
            for m in self.won:
                played |= m
            pool = g.ids_of(new.centre & ~known_centre)
            picks = rng.sample(pool, n - 1)
            for s, c in zip(holders, picks):
                new.discards[s] = c
            for s in holders:
                if ph == EX_PASS and self.passes[s]:
                    a, b = rng.sample(g.ids_of(new.hands[s]), 2)
                    new.passes[s] = bit[a] | bit[b]
                elif ph == PLAY and s != right:
                    # Cards the receiver may hold (not player's own knowledge) or played.
                    options = g.ids_of(new.hands[(s + 1) % n] & ~known[(s + 1) % n] | played)
                    a, b = rng.sample(options, 2)
                    new.passes[s] = bit[a] | bit[b]
        new.future_seeds = [rng.getrandbits(64) for _ in self.future_seeds]
        rest = new.fortune_order[self.deal + 1:]
        rng_shuffle(rest, rng)  # rng.shuffle(rest), the same draws
        new.fortune_order[self.deal + 1:] = rest
        return new

    # -- notation --------------------------------------------------------------

    def to_position(self) -> notation.Position:
        """This state as a :class:`notation.Position`."""
        g = self.game
        n = self.num_players
        ids_of = g.ids_of
        won: list[list[list[int]]] = [[] for _ in range(n)]
        for w, m in self.tricks:
            won[w].append(ids_of(m))
        return notation.Position(
            num_players=n, deal=self.deal, over=self.phase_id == OVER,
            fortune_ids=[g.fortune_ids[f] for f in self.fortune_order],
            seeds=list(self.future_seeds), yellow=list(self.yellow), white=list(self.white),
            lead=self.lead, hands=[ids_of(h) for h in self.hands], centre=ids_of(self.centre),
            discards=list(self.discards), passes=[tuple(ids_of(p)) for p in self.passes],
            trick=list(self.trick), won=won, voids=list(self.voids), log=list(self.log),
            ret_yellow=list(self.ret_y), ret_white=list(self.ret_w), turns=self.n_turns)

    def to_notation(self) -> str:
        """This position as one line (grammar in :mod:`.notation`)."""
        return notation.write(self.to_position(), self.game.names, SUITS)

    @classmethod
    def from_position(cls, g: FortuneCloverGame, pos: notation.Position,
                      text: str = "") -> "FortuneCloverState":
        """Build and check a state from a parsed position (NotationError on nonsense)."""
        def fail(reason: str) -> NotationError:
            return NotationError(f"fortune_clover notation: {reason}")

        n = pos.num_players
        if not g.min_players <= n <= g.max_players:
            raise fail(f"p={n}: the game is for {g.min_players}–{g.max_players} players")
        st = cls(g, n)
        st.deal = pos.deal
        st.lead = pos.lead
        order: list[int] = []
        free = list(range(len(g.fortunes)))
        for fid in pos.fortune_ids:
            k = next(i for i in free if g.fortune_ids[i] == fid)
            free.remove(k)
            order.append(k)
        st.fortune_order = order
        st.future_seeds = list(pos.seeds)
        st.yellow, st.white = tuple(pos.yellow), tuple(pos.white)
        st.hands = [g.mask_of(h) for h in pos.hands]
        st.centre = g.mask_of(pos.centre)
        st.discards = list(pos.discards)
        st.passes = [g.mask_of(p) for p in pos.passes]
        st.trick = list(pos.trick)
        st.tmask = g.mask_of(pos.trick)
        st.voids = list(pos.voids)
        st.log = tuple(pos.log)
        st.ret_y, st.ret_w = list(pos.ret_yellow), list(pos.ret_white)
        st.n_turns = pos.turns
        # Every card exactly once (C1: the whole deck is in play every deal).
        seen = [0] * g.n_cards
        for cards in (*pos.hands, pos.centre, pos.trick, *(t for s in pos.won for t in s)):
            for c in cards:
                seen[c] += 1
        if any(k != 1 for k in seen):
            bad = [g.names[c] for c, k in enumerate(seen) if k != 1][:6]
            raise fail(f"every card must appear exactly once (wrong: {' '.join(bad)})")
        for s, tricks in enumerate(pos.won):
            for t in tricks:
                m = g.mask_of(t)
                st.tricks.append((s, m))
                st.won[s] |= m
                st.ntricks[s] += 1
        done = g.deals if pos.over else pos.deal
        if len(pos.log) != done:
            raise fail(f"log: {len(pos.log)} finished deals recorded, expected {done}")
        if pos.over:
            st.phase_id = OVER
            st.cur = TERMINAL
            st.deal = g.deals
            if any(pos.hands) or pos.trick:
                raise fail("deal=end with cards still in hands or in a trick")
            st.fortune = st.fortune_order[g.deals - 1]
            st.counted = list(pos.log[-1]) if pos.log else [0] * n
            if not pos.ret_yellow:
                st.ret_y, st.ret_w = [0] * n, [0] * n
            return st
        if pos.ret_yellow:
            raise fail("ret: chips are returned only at the end")
        st.fortune = st.fortune_order[st.deal]
        st.fmask = g.fortune_mask[st.fortune]
        st.ftrick = g.fortune_by_trick[st.fortune]
        st.counted = [0] * n
        for s, m in st.tricks:
            fm = m & st.fmask
            if fm:
                st.counted[s] += 1 if st.ftrick else fm.bit_count()
        order_seats = [(st.lead + k) % n for k in range(n)]
        chosen_d = [st.discards[s] >= 0 for s in order_seats]
        chosen_p = [bool(st.passes[s]) for s in order_seats]

        def prefix(flags: list[bool]) -> int:
            k = 0
            while k < n and flags[k]:
                k += 1
            if any(flags[k:]):
                raise fail("ex: choices are made in turn order from the leader")
            return k

        kd = prefix(chosen_d)
        kp = prefix(chosen_p)
        if kd < n:
            if kp or pos.trick or st.tricks:
                raise fail("ex: passes or tricks before every discard is chosen")
            st.phase_id = EX_DISCARD
            st.cur = order_seats[kd]
            for s in range(n):
                if st.discards[s] >= 0 and not st.hands[s] >> st.discards[s] & 1:
                    raise fail(f"ex: seat {s}'s pending discard is not in its hand")
            sizes = {h.bit_count() for h in st.hands}
            if len(sizes) != 1:
                raise fail("hands: every hand has the same size before the exchange")
            return st
        for s in range(n):
            if not st.centre >> st.discards[s] & 1:
                raise fail(f"ex: seat {s}'s discard is not in the centre")
        if kp < n:
            if pos.trick or st.tricks:
                raise fail("ex: tricks before every pass is chosen")
            st.phase_id = EX_PASS
            st.cur = order_seats[kp]
            for s in range(n):
                if st.passes[s] and st.passes[s] & ~st.hands[s]:
                    raise fail(f"ex: seat {s}'s pending pass is not in its hand")
            sizes = {h.bit_count() for h in st.hands}
            if len(sizes) != 1:
                raise fail("hands: every hand has the same size before the passes")
            return st
        st.phase_id = PLAY
        for s in range(n):
            # ruling C2: passed cards left their owner for good (the neighbour
            # holds or played them).
            if st.passes[s] & (st.hands[s] | st.centre):
                raise fail(f"ex: seat {s}'s passed cards are in its hand or the centre")
        if len(pos.trick) >= n:
            raise fail("trick: a complete trick must be in won")
        played = {(st.lead + k) % n for k in range(len(pos.trick))}
        sizes = {st.hands[s].bit_count() + (s in played) for s in range(n)}
        if len(sizes) != 1 or 0 in sizes:
            raise fail("hands: sizes do not fit the trick in progress")
        st.cur = (st.lead + len(pos.trick)) % n
        g.replay_trick(st, pos.trick)
        return st


def _redeal(cards: list[int], caps: list[int], voids: list[int], suit: Sequence[int],
            rng: random.Random, tries: int = 30) -> list[int] | None:
    """Random masks giving holder ``i`` ``caps[i]`` of ``cards``, none of a suit it is void in.

    Cards are placed most-constrained first, each to an eligible holder
    chosen with probability proportional to its remaining room (without voids
    this is a uniform deal). Returns None if ``tries`` attempts dead-end; the
    caller then keeps the real deal, which always satisfies the constraints.
    """
    holders = range(len(caps))
    eligible = {s: [i for i in holders if not voids[i] >> s & 1] for s in set(suit)}
    # Without voids every suit has the same holders and the (stable) sort
    # below would leave the shuffled order as it is: skip it then.
    constrained = len({len(e) for e in eligible.values()}) > 1
    for _ in range(tries):
        order = cards[:]
        rng_shuffle(order, rng)  # rng.shuffle(order), the same draws
        if constrained:
            order.sort(key=lambda c: len(eligible[suit[c]]))
        room = caps[:]
        masks = [0] * len(caps)
        for c in order:
            options = [i for i in eligible[suit[c]] if room[i] > 0]
            total = sum([room[i] for i in options])
            if not total:
                break
            r = rng.random() * total
            for i in options:
                r -= room[i]
                if r < 0:
                    break
            room[i] -= 1
            masks[i] |= 1 << c
        else:
            return masks
    return None
