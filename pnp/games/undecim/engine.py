"""Undecim rules engine: the draft-12 rulebook plus rulings U1–U7 and our U-a rulings.

Built from the loaded data (:mod:`.effects` reads and checks it): the 100
resource cards and their halves, the 11 action cards' effects, the scenario
cards' goals and lasting effects, and the manifest's constants. Editing a
CSV row changes what the simulation does; no card is named in this module.

Cards are small ints: resource cards ``0 … 99`` (``resources.csv`` rows
expanded by qty), action cards ``100 … 110`` (action number − 1 + 100).
Copies of one resource row are interchangeable, so every decision names a
row ("type") and a half, never a copy.

Flow (rulebook ■ゲームの進行, engine rulings in docs/rules/undecim-engine.md):
set-up and the mulligan (U2, U2a) → five rounds of: refill the resource hand
to 5, draw 1 and gain it (U3a) → choose an action face down, reveal together
→ the Red Moon phase (die, counters, maybe a Red Moon Night, U5) → actions in
number order: gold boost, gains, time, builds (U1a–U1e, U4) → pick an action
from the council (U2) → round-end land VP (U6) → final scoring (U6). Scenario
checks follow U1g. With ``campaign`` on, three such games are one match (U7,
U1h, U7a).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import repeat, starmap
from operator import itemgetter
from typing import Any, Iterator, Mapping, Sequence

from pnp.errors import PnpError
from pnp.games.api import TERMINAL, Game, IllegalAction, NotationError, Observation, Param, \
    State, illegal

from . import notation
from .codec import (BOOST_BASE, BUILD_DONE, CHOOSE_BASE, DEV_BASE, DEV_GOLD, DEV_STRIDE,
                    MARKER_BASE, MIX_STRIDE, MULL_BASE, MULL_KEEP, MULL_STRIDE, NIGHT_BASE,
                    PICK_BASE, SETTLE_MIX, SETTLE_SAME, Namer)
from .effects import (C_ENEMIES, C_GOLD, C_LAND_EACH, C_LAND_ONE, C_LANDS, C_NIGHT_DISCARD,
                      C_SETTLED_RES, C_MIXED_SIZE, C_SETTLEMENTS, C_SIZE, E_ACTION_BONUS, E_COUNTERS,
                      E_ENEMY_LIMIT, E_ENEMY_VP, E_GOLD_VP, E_HAND_SIZE, E_LAND_VP, GAIN_QUANTITIES,
                      Q_ANY, Q_DEVELOP, Q_SETTLE, Q_TIME, Q_VP, QUANTITIES, ActionSpec,
                      ScenarioSpec, read_data)
from .scoring import campaign_start_vp, final_breakdown, round_land_vp, shared_bonus, winners

PH_MULL, PH_START, PH_CHOOSE, PH_NIGHT, PH_BOOST, PH_GAIN, PH_BUILD, PH_PICK, PH_MARKER, \
    PH_OVER = range(10)
PHASE_NAMES = ("mulligan", "start_gain", "choose_action", "red_moon_night", "gold_boost",
               "gain", "build", "pick_action", "campaign_marker", "over")

#: Where a Red Moon Night was set off (it resumes there).
NIGHT_MOON, NIGHT_ACTION = 0, 1

EVENT_NAMES = (
    "round",
    "mulligan_swap",          # a player swapped at the mulligan (U2, U2a)
    "red_moon_night",         # a Red Moon Night (U5)
    "night_in_moon_phase",    # ... set off by the die in the Red Moon phase
    "night_mid_action",       # ... set off by a time effect during the action phase (U1e)
    "time_lost",              # removals beyond the last counter were lost (U1e)
    "majority_discard",       # a most-enemies player discarded more than the limit (U5)
    "gain_lost",              # a named gain the hand could not supply (U1c)
    "gold_boost",             # gold discarded to raise an action (U1d)
    "settle_same",            # a same-material settlement founded (U4)
    "settle_mixed",           # a two-material settlement founded (U4)
    "develop_material",       # a settlement grew by a material (U4)
    "develop_gold",           # a settlement grew by a gold standing in (U4)
    "full_land_set",          # a round end paid the every-kind bonus (U6)
    "scenario_achieved",      # a scenario card achieved (U1g)
    "scenario_split",         # ... by several players at once: half each (U6)
    "deck_reshuffled",        # the discard pile became the deck (U3b)
    "draw_short",             # a draw found no card at all (U3b)
    "tie_break",              # the top score was tied: the lower action number won (U6)
    "season",                 # a campaign season began (U7)
)
(EV_ROUND, EV_MULL, EV_NIGHT, EV_NIGHT_MOON, EV_NIGHT_ACTION, EV_TIME_LOST, EV_MAJORITY,
 EV_GAIN_LOST, EV_BOOST, EV_SETTLE_SAME, EV_SETTLE_MIX, EV_DEV_MAT, EV_DEV_GOLD, EV_FULL_SET,
 EV_SCEN, EV_SCEN_SPLIT, EV_RESHUFFLE, EV_SHORT, EV_TIE, EV_SEASON) = range(len(EVENT_NAMES))

#: Gain-queue letters (notation) by gain quantity.
GAIN_LETTERS = "RLGEA"
#: VP sources a state banks during play: round-end lands, Red Moon enemies,
#: scenario bonuses, immediate action VP, campaign starting VP.
VP_SOURCES = ("round_lands", "enemies", "scenarios", "actions", "campaign_start")
V_ROUND, V_ENEMY, V_SCEN, V_ACTION, V_START = range(len(VP_SOURCES))
#: Final sources computed at the end (U6).
FINAL_SOURCES = ("final_lands", "settlements", "gold")
#: A finished campaign season's VP per seat: banked, then end VP (notation ``done=``).
SEASON_SOURCES = VP_SOURCES + FINAL_SOURCES
assert len(SEASON_SOURCES) == notation.SEASON_FIELDS


def _shuffled(items: list[int], rng: random.Random) -> list[int]:
    """A shuffled copy of ``items`` (one random float per item; uniform)."""
    # rng.random() once per item, in order, called from C (starmap over empty
    # argument tuples) instead of a comprehension's loop: the same floats.
    keys = list(starmap(rng.random, repeat((), len(items))))
    order = sorted(range(len(items)), key=keys.__getitem__)
    if len(order) > 1:
        return list(itemgetter(*order)(items))     # one C call instead of a list loop
    return [items[i] for i in order]


#: ``_SET(x)`` is ``x >= 0`` for an int: a card drawn, an action chosen (-1 none).
_SET = (-1).__lt__


def _mask(indices: Sequence[int]) -> int:
    """The bit mask of action indices ``indices``."""
    m = 0
    for a in indices:
        m |= 1 << a
    return m


@dataclass(frozen=True)
class UndecimObservation(Observation):
    """What one seat knows: its own hands and choices, the whole table, public history.

    Per-player tuples are indexed by seat. Cards in play are given as counts
    by upper half (the lower halves are public but count for nothing, U3).
    """

    num_players: int
    season: int
    #: Round in progress, 1-based (the last round's number once over).
    round: int
    rounds: int
    #: This round's Red Moon die (0 until rolled).
    die: int
    counters: int
    #: Own resource hand, as distinct-card types (sorted, with repeats).
    hand: tuple[int, ...]
    #: Own card drawn at round start, not yet placed (type, -1 none).
    drawn: int
    hand_sizes: tuple[int, ...]
    #: Whether each seat still has a drawn card to place.
    drawing: tuple[bool, ...]
    deck_size: int
    #: Discarded cards (types, face up).
    discard: tuple[int, ...]
    #: Loose cards in play per seat: count per kind (game.kind_names order).
    loose: tuple[tuple[int, ...], ...]
    #: Settlements per seat: (material or -1 if mixed, material mask, size).
    settlements: tuple[tuple[tuple[int, int, int], ...], ...]
    #: VP banked so far per seat, by VP_SOURCES.
    vp: tuple[tuple[int, ...], ...]
    #: Own action hand (action indices = number − 1).
    actions: tuple[int, ...]
    council: tuple[int, ...]
    #: Per seat: the action cards known to be in its hand (own: all of them).
    known: tuple[tuple[int, ...], ...]
    action_counts: tuple[int, ...]
    #: Own face-down choice this round (-1 none); whether each seat has chosen.
    chosen: int
    has_chosen: tuple[bool, ...]
    #: Action played per seat this round (-1 before the reveal).
    played: tuple[int, ...]
    #: Seats in action order this round (empty before the reveal).
    order: tuple[int, ...]
    #: Actions played in earlier rounds (and this one once revealed), per seat.
    log: tuple[tuple[int, ...], ...]
    #: Scenario cards in the Story (indices into game.scenarios), and per card
    #: the round it was achieved (-1 not yet) and the mask of achievers.
    story: tuple[int, ...]
    achieved: tuple[tuple[int, int], ...]
    #: Current action resolution: acting seat (-1), gains still to take (Q_*),
    #: time still to pass, builds left (extra settles, extra develops, auto).
    acting: int
    gains: tuple[int, ...]
    time_left: int
    builds: tuple[int, int, int]
    #: Red Moon Night in progress: most enemies held at its start (-1 none),
    #: and discards so far per seat.
    night_most: int
    night_discards: tuple[int, ...]
    #: Campaign: scenario ids carrying a marker, in season order.
    markers: tuple[int, ...]
    #: Per Story card: its place in the order of achievement (0 not yet); public,
    #: and the campaign marker goes to the first card achieved (U1h).
    achieved_order: tuple[int, ...]
    #: Own action cards the others saw this seat take (field pick, mulligan, U2a).
    shown: tuple[int, ...]
    #: Cards in play per seat, in the order they were placed, as ``2·type + half``
    #: (the half that is up): both halves of a card on the table are public (U3).
    table: tuple[tuple[int, ...], ...]
    #: Settlement cards per seat and settlement, as ``2·type + half``.
    settled: tuple[tuple[tuple[int, ...], ...], ...]


class UndecimGame(Game["UndecimState"]):
    """Undecim: a five-round pocket 4X of eleven numbered actions and a Red Moon."""

    slug = "undecim"
    min_players = 3
    max_players = 4
    param_specs = (
        Param("mulligan", True, "offer the mulligan (swap one action card with the council)"),
        Param("story", "", "scenario ids in the Story, comma-separated (default: the "
                           "season-1 cards); their lasting effects apply"),
        Param("campaign", False, "play the three-season campaign (U7, U1h) as one game"),
    )
    event_names = EVENT_NAMES
    phase_names = PHASE_NAMES

    def __init__(self, data: Any, params: Mapping[str, Any] | None = None) -> None:
        """Read and check the cards and constants of ``data`` (PnpError on a bad effect)."""
        super().__init__(data, params)
        ud, problems = read_data(data)
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise PnpError(f"{problems[0]}{more}; run `pnp check undecim`")
        k = ud.kinds
        c = ud.constants
        self.kind_names: tuple[str, ...] = k.names
        self.n_lands = len(k.lands)
        self.n_mats = len(k.materials)
        self.n_kinds = len(k.names)
        self.EN = k.enemy
        self.GOLD = k.gold
        self.MAT0 = k.enemy + 1
        self.lands = range(self.n_lands)
        self.materials: tuple[str, ...] = k.materials
        #: (top kind, bottom kind) per type.
        self.types: tuple[tuple[int, int], ...] = ud.types
        #: Per resource card c and kind k shown, at c·n_kinds + k: the card as the
        #: observation names it in play, 2·type + half (-1 where k is not a half).
        card_codes: list[int] = []
        for t in ud.card_types:
            top, bottom = ud.types[t]
            card_codes.extend(2 * t if kind == top else 2 * t + 1 if kind == bottom else -1
                              for kind in range(len(k.names)))
        self.card_codes: tuple[int, ...] = tuple(card_codes)
        self.type_ids: tuple[str, ...] = ud.type_ids
        self.n_types = len(ud.types)
        self.card_type: tuple[int, ...] = ud.card_types
        self.n_res = len(ud.card_types)
        #: Gain actions of type t under gain quantity q (a half of the named kind).
        cat = [k.category(x) for x in range(self.n_kinds)]
        self.category: tuple[int, ...] = tuple(cat)
        self.gain_opts: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(tuple(2 * t + h for h in (0, 1)
                        if q == Q_ANY or cat[self.types[t][h]] == q)
                  for t in range(self.n_types))
            for q in range(len(GAIN_QUANTITIES)))
        #: The bit of each resource card's type (a hand's type mask).
        self.type_bit: tuple[int, ...] = tuple(1 << t for t in ud.card_types)
        #: Gain options by ``type mask · 8 + quantity`` (filled as hands are met; a
        #: pure function of the key, so sharing it between states changes nothing).
        self._gain_memo: dict[int, tuple[int, ...]] = {}
        #: Settle options by a seat's material counts (likewise).
        self._settle_memo: dict[tuple[int, ...], tuple[int, ...]] = {}
        #: Per Story: the resolved quantities of (action, die, gold boost) (U1a, U1b,
        #: U1d), as (gain queue, time, settles, develops, VP).
        self._amount_memo: dict[tuple[int, ...], dict[tuple[int, int, int], tuple[Any, ...]]] = {}
        self.actions: tuple[ActionSpec, ...] = ud.actions
        self.n_actions = len(ud.actions)
        # Card ids of every action-card bit set, and the zone names per seat:
        # zones() runs at every checked step, so it only looks things up.
        base = len(ud.card_types)
        self.action_ids: tuple[list[int], ...] = tuple(
            [base + a for a in range(self.n_actions) if m >> a & 1]
            for m in range(1 << self.n_actions)) if self.n_actions <= 16 else ()
        #: Action indices of every action-card bit set (observations).
        self.bit_tuples: tuple[tuple[int, ...], ...] = tuple(
            tuple(a for a in range(self.n_actions) if m >> a & 1)
            for m in range(1 << self.n_actions)) if self.n_actions <= 16 else ()
        #: Choose and pick actions of every action-card bit set (legal actions of
        #: those phases are a lookup).
        self.choose_lists: tuple[tuple[int, ...], ...] = tuple(
            tuple(CHOOSE_BASE + a for a in bits) for bits in self.bit_tuples)
        self.pick_lists: tuple[tuple[int, ...], ...] = tuple(
            tuple(PICK_BASE + a for a in bits) for bits in self.bit_tuples)
        self.zone_names: tuple[tuple[str, str, str, str, str], ...] = tuple(
            (f"hand:{p}", f"drawn:{p}", f"play:{p}", f"settlements:{p}", f"actions:{p}")
            for p in range(8))
        #: story_rules results by Story (a few distinct Stories per run).
        self._rules_memo: dict[tuple[int, ...], tuple[Any, ...]] = {}
        self.scenarios: tuple[ScenarioSpec, ...] = ud.scenarios
        self.scen_index: dict[str, int] = {s.id: i for i, s in enumerate(ud.scenarios)}
        self.rounds: int = c["rounds"]
        self.base_hand: int = c["resource_hand"]
        self.action_hand: int = c["action_hand"]
        self.start_gain: int = c["round_start_gain"]
        self.base_counters: int = c["time_counters"]
        self.base_enemy_vp: int = c["red_moon_enemy_vp"]
        self.land_kind_vp: int = c["land_kind_vp"]
        self.full_min: int = c["land_full_set_min"]
        self.base_full_vp: int = c["land_full_set_vp"]
        self.land_card_vp: int = c["land_card_vp"]
        self.settle_table: tuple[int, ...] = tuple(c["settlement_vp"])
        self.divisor: int = c["scenario_shared_divisor"]
        self.start_vp: tuple[tuple[int, ...], ...] = (
            tuple(c["campaign_start_vp_season2"]), tuple(c["campaign_start_vp_season3"]))
        self.mulligan: bool = bool(self.params["mulligan"])
        self.campaign: bool = bool(self.params["campaign"])
        self.seasons = 3 if self.campaign else 1
        story_text = str(self.params["story"]).strip()
        if story_text:
            story = []
            for sid in story_text.split(","):
                sid = sid.strip()
                if sid not in self.scen_index:
                    raise PnpError(f"undecim: parameter story: unknown scenario {sid!r} "
                                   f"(have: {', '.join(self.scen_index)})")
                story.append(self.scen_index[sid])
            if len(set(story)) != len(story):
                raise PnpError("undecim: parameter story names a scenario twice")
            if self.campaign:
                raise PnpError("undecim: campaign chooses the Story itself; leave story empty")
        else:
            story = [i for i, s in enumerate(self.scenarios) if s.season == 1]
        self.default_story: tuple[int, ...] = tuple(story)
        if self.campaign and any(len(s.unlocks) != 2 for s in self.scenarios if s.season < 3):
            raise PnpError("undecim: the campaign needs two unlocks on every season-1 and "
                           "season-2 scenario card")
        # Names for actions and notation.
        names = self.kind_names
        self.type_names: tuple[str, ...] = tuple(
            f"{names[a]}/{names[b]}" for a, b in self.types)
        self.namer = Namer(self.type_names, [(names[a], names[b]) for a, b in self.types],
                           k.materials, names[self.GOLD], [s.id for s in self.scenarios])
        codes = [n[0] for n in names]
        if len(set(codes)) != len(codes) or any(ch in "/,.-;:|" for ch in codes):
            codes = [chr(ord("A") + i) for i in range(len(names))]
        #: One-character code per kind (notation).
        self.kind_codes: tuple[str, ...] = tuple(codes)
        if self.n_res + self.n_actions > 10_000:
            raise PnpError("undecim: too many cards")

    # -- helpers --------------------------------------------------------------

    def deck(self) -> Sequence[int]:
        """Every card id: the resource cards, then the action cards."""
        return range(self.n_res + self.n_actions)

    def card_name(self, card: int) -> str:
        """``草原/石`` for a resource card, ``7 月呼び`` for an action card."""
        if card < self.n_res:
            return self.type_names[self.card_type[card]]
        a = self.actions[card - self.n_res]
        return f"{a.number} {a.name}"

    def action_card(self, index: int) -> int:
        """Card id of action index ``index`` (number − 1)."""
        return self.n_res + index

    def story_rules(self, story: Sequence[int]) -> tuple[Any, ...]:
        """The lasting effects of the Story's cards (ruling U1h), as engine numbers.

        Returns (bonus per action and quantity, night limit, enemy VP, counters,
        full-set VP per kind, extra VP per gold, resource hand size).
        action_bonus and gold_vp add up; each other effect sets a number and the
        largest of the Story wins (ruling U1h-a in the engine docs).
        """
        key = tuple(story)
        memo = self._rules_memo.get(key)
        if memo is not None:
            return memo
        bonus = [[0] * len(QUANTITIES) for _ in range(self.n_actions)]
        limit, enemy_vp, counters = 1, self.base_enemy_vp, self.base_counters
        full_vp, gold_extra, hand = self.base_full_vp, 0, self.base_hand
        sets: dict[int, int] = {}
        for i in story:
            s = self.scenarios[i]
            if s.effect == E_ACTION_BONUS:
                bonus[s.effect_action][s.effect_target] += s.effect_value
            elif s.effect == E_GOLD_VP:
                gold_extra += s.effect_value
            elif s.effect:
                sets[s.effect] = max(sets.get(s.effect, 0), s.effect_value)
        limit = sets.get(E_ENEMY_LIMIT, limit)
        enemy_vp = sets.get(E_ENEMY_VP, enemy_vp)
        counters = sets.get(E_COUNTERS, counters)
        full_vp = sets.get(E_LAND_VP, full_vp)
        hand = sets.get(E_HAND_SIZE, hand)
        rules = (tuple(tuple(b) for b in bonus), limit, enemy_vp, counters, full_vp,
                 gold_extra, hand)
        self._rules_memo[key] = rules
        return rules

    # -- states -----------------------------------------------------------------

    def new_initial_state(self, num_players: int, seed: int) -> "UndecimState":
        """Set up (rulebook ■ゲームの準備): shuffle, deal two actions each, the mulligan."""
        self.check_players(num_players)
        if self.action_hand * num_players > self.n_actions:
            raise PnpError(f"undecim: {self.n_actions} action cards are too few for "
                           f"{num_players} players")
        rng = random.Random(seed)
        st = UndecimState(self, num_players)
        st.rs = rng.getrandbits(63)
        st._set_story(list(self.default_story))
        st._setup_season(rng)
        return st

    def state_from_notation(self, text: str) -> "UndecimState":
        """The state written as ``text`` (grammar in :mod:`.notation`)."""
        pos = notation.read(text, self)
        return UndecimState.from_position(self, pos)

    def state_from_observation(self, obs: UndecimObservation) -> "UndecimState":
        """One position that gives ``obs`` to its seat (for searching bots).

        Everything on the table is public and copied as it is. What the seat
        cannot see is filled in a fixed order, a function of ``obs`` alone, for
        ``resample_hidden`` to redeal: the unseen resource cards (ascending
        type) go to the other seats' hands, then their drawn cards, then the
        deck; the other seats' unknown action cards are the ones unaccounted
        for, ascending, and a face-down choice is the lowest card held; dice
        not yet rolled are 1s and the reshuffle seed 0. The decision count and
        the event counters start at zero; a campaign's earlier season totals
        (a record only, never read by the rules) are left out.
        """
        n, me = obs.num_players, obs.seat
        ph = PHASE_NAMES.index(obs.phase)
        ended = ph in (PH_OVER, PH_MARKER)
        rnd = self.rounds if ended else obs.round - 1
        dice = [1] * self.rounds
        if obs.die and not ended:
            dice[rnd] = obs.die
        # Unseen resource cards: every copy not in own hand/drawn, the discard or play.
        left = [0] * self.n_types
        for t in self.card_type:
            left[t] += 1
        seen = list(obs.hand) + list(obs.discard) + ([obs.drawn] if obs.drawn >= 0 else [])
        seen += [code >> 1 for row in obs.table for code in row]
        seen += [code >> 1 for row in obs.settled for cards in row for code in cards]
        for t in seen:
            left[t] -= 1
        pool = [t for t in range(self.n_types) for _ in range(left[t])]
        k = 0
        hands: list[list[int]] = []
        for p in range(n):
            if p == me:
                hands.append(list(obs.hand))
            else:
                hands.append(pool[k:k + obs.hand_sizes[p]])
                k += obs.hand_sizes[p]
        drawn = [-1] * n
        for p in range(n):
            if p == me:
                drawn[p] = obs.drawn
            elif obs.drawing[p]:
                drawn[p] = pool[k]
                k += 1
        deck = pool[k:]
        # Action cards: own hand and what the others are known to hold, the rest
        # (unaccounted for) dealt to the others up to their counts.
        mask_of = _mask
        ahand = [mask_of(obs.actions) if p == me else mask_of(obs.known[p]) for p in range(n)]
        council = mask_of(obs.council)
        placed = council
        for m in ahand:
            placed |= m
        free = [a for a in range(self.n_actions) if not placed >> a & 1]
        for p in range(n):
            if p != me:
                for _ in range(obs.action_counts[p] - ahand[p].bit_count()):
                    ahand[p] |= 1 << free.pop(0)
        known = [mask_of(obs.shown) if p == me else mask_of(obs.known[p]) for p in range(n)]
        chosen = [-1] * n
        for p in range(n):
            if p == me:
                chosen[p] = obs.chosen
            elif obs.has_chosen[p]:
                chosen[p] = (ahand[p] & -ahand[p]).bit_length() - 1
        # Positions within the phase's order (the notation's i and night index).
        order = list(obs.order)
        idx = night_idx = 0
        origin = -1
        if ph == PH_MULL:
            idx = obs.current_player
        elif ph == PH_PICK:
            idx = order.index(obs.current_player)
        elif ph in (PH_BOOST, PH_GAIN, PH_BUILD):
            idx = order.index(obs.acting)
        elif ph == PH_NIGHT:
            night_idx = order.index(obs.current_player)
            origin = NIGHT_MOON if obs.acting < 0 else NIGHT_ACTION
            idx = order.index(obs.acting) if obs.acting >= 0 else 0
        pos = notation.Position(
            num_players=n, season=obs.season - 1, rnd=rnd, phase=ph, counters=obs.counters,
            die=obs.die, dice=dice, rs=0, deck=deck, discard=list(obs.discard), hands=hands,
            drawn=drawn,
            loose=[[(code >> 1, code & 1) for code in row] for row in obs.table],
            settlements=[[[(code >> 1, code & 1) for code in cards] for cards in row]
                         for row in obs.settled],
            vp=[list(v) for v in obs.vp], ahand=ahand, known=known, council=council,
            chosen=chosen, log=[list(r) for r in obs.log], story=list(obs.story),
            ach=[[r, seq, m] for (r, m), seq in zip(obs.achieved, obs.achieved_order)],
            ach_seq=max(obs.achieved_order, default=0), markers=list(obs.markers),
            season_vp=[], idx=idx, gq=list(obs.gains), time_left=obs.time_left,
            builds=list(obs.builds), night_origin=origin, night_most=obs.night_most,
            night_idx=night_idx, night_disc=list(obs.night_discards), turns=0)
        return UndecimState.from_position(self, pos)


class UndecimState(State[UndecimGame]):
    """A position of Undecim in progress."""

    def __init__(self, game: UndecimGame, num_players: int) -> None:
        """An empty table for ``num_players`` (filled by set-up or the notation reader)."""
        g = self.game = game
        n = self.num_players = num_players
        self.season = 0
        self.rnd = 0
        self.ph = PH_MULL
        self.cur = 0
        self.deck: list[int] = []
        self.disc: list[int] = []
        self.hand: list[list[int]] = [[] for _ in range(n)]
        self.drawn: list[int] = [-1] * n
        #: Upper-half kind of every resource card in play or in a settlement (-1 elsewhere).
        self.up: list[int] = [-1] * g.n_res
        self.loose: list[list[int]] = [[] for _ in range(n)]
        self.cnt: list[list[int]] = [[0] * g.n_kinds for _ in range(n)]
        #: Land halves in play per seat, sum(cnt[p][:n_lands]) kept as it changes (a
        #: land never leaves play, U3, U4), for the land goals checked every action.
        self.nland: list[int] = [0] * n
        #: Settlements per seat: (material or -1 if mixed, material mask, card ids).
        self.setl: list[list[tuple[int, int, tuple[int, ...]]]] = [[] for _ in range(n)]
        self.vp: list[list[int]] = [[0] * len(VP_SOURCES) for _ in range(n)]
        self.ahand: list[int] = [0] * n
        self.known: list[int] = [0] * n
        self.council = 0
        self.chosen: list[int] = [-1] * n
        self.order: list[int] = []
        self.log: list[tuple[int, ...]] = []
        self.counters = 0
        self.die = 0
        self.dice: list[int] = []
        self.rs = 0
        self.story: list[int] = []
        #: Per Story card: round achieved (-1), achievement sequence number, achievers mask.
        self.ach: list[list[int]] = []
        self.ach_seq = 0
        self.markers: list[int] = []
        self.idx = 0                     # mulligan / night / action / pick position
        self.gq: list[int] = []          # gains still to take (quantities), next first
        self.time_left = 0
        self.b_set = 0
        self.b_dev = 0
        self.b_auto = 0
        self.n_origin = -1               # where the current night resumes
        self.n_most = -1
        self.n_disc: list[int] = [0] * n
        self.n_idx = 0
        self.n_turns = 0
        self.ev: list[int] = [0] * len(EVENT_NAMES)
        #: Campaign: per finished season, per seat, its VP by SEASON_SOURCES (what
        #: the season paid and banked; the current season is in vp and final_vp).
        self.season_vp: list[tuple[tuple[int, ...], ...]] = []
        self._legal: list[int] | None = None
        #: The observation's public cards, kept until a card moves (observations
        #: are asked for far more often): per seat (table, settled, loose counts,
        #: settlements) or None, and the discard's types or None.
        self._tab: list[tuple[Any, ...] | None] = [None] * n
        self._disc_t: tuple[int, ...] | None = None
        #: Per seat, the codes of its first loose cards (their table row), or None:
        #: loose cards are only ever appended between removals, so a row is
        #: extended by the cards placed since, and forgotten where one leaves
        #: (_take_loose). Per seat, its (settled, settlements) rows or None:
        #: forgotten where a settlement is founded or grows.
        self._tl: list[tuple[int, ...] | None] = [None] * n
        self._ts: list[tuple[Any, ...] | None] = [None] * n
        #: The observation's (loose, settlements, table, settled) built from ``_tab``;
        #: valid while no entry of ``_tab`` is None.
        self._rows: tuple[tuple[Any, ...], ...] = ()
        #: Per seat, the observation's action-card fields (actions, council, known,
        #: action_counts, shown) or None; the list is replaced, never emptied in
        #: place, whenever an action card moves (_acts_moved).
        self._acts: list[tuple[Any, ...] | None] = [None] * n
        #: The observation's (achieved, achieved_order), or None after a change.
        self._ach_t: tuple[tuple[Any, ...], tuple[int, ...]] | None = None
        #: The observation's VP rows, or None after VP were banked (_vp_moved).
        self._vp_t: tuple[tuple[int, ...], ...] | None = None
        self._set_rules()

    # -- derived rules ----------------------------------------------------------

    def _set_story(self, story: list[int]) -> None:
        """Put ``story`` in the Story (nothing achieved) and derive its lasting effects."""
        self.story = story
        self.ach = [[-1, 0, 0] for _ in story]
        self.ach_seq = 0
        self._ach_t = None
        self._set_rules()

    def _set_rules(self) -> None:
        """Derive the lasting effects of the Story (U1h)."""
        (self.bonus, self.limit, self.enemy_vp, self.full_counters, self.full_vp,
         self.gold_extra, self.hand_size) = self.game.story_rules(self.story)
        #: The Story's resolved action quantities (shared by clones: a pure cache).
        self._amt = self.game._amount_memo.setdefault(tuple(self.story), {})

    # -- clone ------------------------------------------------------------------

    def clone(self) -> "UndecimState":
        """An independent copy (hand-written; generators are plain seeds here)."""
        new = UndecimState.__new__(UndecimState)
        d = self.__dict__.copy()
        new.__dict__ = d
        d["deck"] = self.deck[:]
        d["disc"] = self.disc[:]
        d["hand"] = [h[:] for h in self.hand]
        d["drawn"] = self.drawn[:]
        d["up"] = self.up[:]
        d["loose"] = [x[:] for x in self.loose]
        d["cnt"] = [x[:] for x in self.cnt]
        d["nland"] = self.nland[:]
        d["setl"] = [x[:] for x in self.setl]
        d["vp"] = [x[:] for x in self.vp]
        d["ahand"] = self.ahand[:]
        d["known"] = self.known[:]
        d["chosen"] = self.chosen[:]
        d["order"] = self.order[:]
        d["log"] = self.log[:]
        d["dice"] = self.dice[:]
        d["story"] = self.story[:]
        d["ach"] = [a[:] for a in self.ach]
        d["markers"] = self.markers[:]
        d["gq"] = self.gq[:]
        d["n_disc"] = self.n_disc[:]
        d["ev"] = self.ev[:]
        d["season_vp"] = self.season_vp[:]
        d["_legal"] = None
        d["_tab"] = self._tab[:]
        d["_tl"] = self._tl[:]
        d["_ts"] = self._ts[:]
        d["_acts"] = self._acts[:]
        return new

    # -- set-up -------------------------------------------------------------------

    def _setup_season(self, rng: random.Random) -> None:
        """Shuffle everything, deal the actions, set the counters; the mulligan next."""
        g = self.game
        n = self.num_players
        self.deck = _shuffled(list(range(g.n_res)), rng)
        self.disc = []
        self._disc_t = None
        self.hand = [[] for _ in range(n)]
        self.drawn = [-1] * n
        self.up = [-1] * g.n_res
        self.loose = [[] for _ in range(n)]
        self.cnt = [[0] * g.n_kinds for _ in range(n)]
        self.nland = [0] * n
        self.setl = [[] for _ in range(n)]
        self._tab = [None] * n
        self._tl = [None] * n
        self._ts = [None] * n
        order = _shuffled(list(range(g.n_actions)), rng)
        self.ahand = [0] * n
        k = 0
        for p in range(n):
            for _ in range(g.action_hand):
                self.ahand[p] |= 1 << order[k]
                k += 1
        self.council = 0
        for a in order[k:]:
            self.council |= 1 << a
        self.known = [0] * n
        self._acts_moved()
        self.chosen = [-1] * n
        self.order = []
        self.counters = self.full_counters
        self.die = 0
        self.dice = [1 + int(rng.random() * 6) for _ in range(g.rounds)]
        self.rnd = 0
        self.idx = 0
        if g.mulligan:
            self.ph = PH_MULL
            self.cur = 0
        else:
            self._start_round()

    # -- chance -------------------------------------------------------------------

    def _draw(self) -> int:
        """The top card of the deck; the discard pile reshuffled first if it is empty (U3b)."""
        if not self.deck:
            if not self.disc:
                self.ev[EV_SHORT] += 1
                return -1
            rng = random.Random(self.rs)
            self.deck = _shuffled(self.disc, rng)
            self.disc = []
            self._disc_t = None
            self.rs = rng.getrandbits(63)
            self.ev[EV_RESHUFFLE] += 1
        return self.deck.pop()

    # -- API: queries -------------------------------------------------------------

    def current_player(self) -> int:
        """Seat to decide, or TERMINAL (``cur`` is TERMINAL exactly when the game is over)."""
        return self.cur

    def is_terminal(self) -> bool:
        """True once the last round (of the last season) is scored."""
        return self.ph == PH_OVER

    def phase(self) -> str:
        """The kind of decision pending."""
        return PHASE_NAMES[self.ph]

    def turns(self) -> int:
        """Decisions taken so far."""
        return self.n_turns

    def events(self) -> Mapping[str, int]:
        """How often each rule event fired."""
        return dict(zip(EVENT_NAMES, self.ev))

    def final_vp(self, p: int) -> tuple[int, int, int]:
        """End VP of seat ``p`` by FINAL_SOURCES for what it holds now (U6)."""
        g = self.game
        cnt = self.cnt[p]
        return final_breakdown(sum(cnt[:g.n_lands]), [len(s[2]) for s in self.setl[p]],
                               cnt[g.GOLD], g.land_card_vp, g.settle_table, self.gold_extra)

    def totals(self) -> list[int]:
        """Banked plus end VP per seat (the score if the game ended now)."""
        return [sum(self.vp[p]) + sum(self.final_vp(p)) for p in range(self.num_players)]

    def returns(self) -> list[float]:
        """Final VP per seat (the last season's, in a campaign)."""
        return [float(t) for t in self.totals()]

    def last_numbers(self) -> list[int]:
        """Action numbers each seat played in the latest revealed round (-1 none)."""
        if not self.log:
            return [-1] * self.num_players
        return [a + 1 for a in self.log[-1]]

    def winners(self) -> list[int]:
        """Highest VP; a tie goes to the lower action number of the last round (U6)."""
        return winners(self.totals(), self.last_numbers())

    def _season_row(self, p: int) -> tuple[int, ...]:
        """Seat ``p``'s VP of the season in play by SEASON_SOURCES."""
        return tuple(self.vp[p]) + self.final_vp(p)

    @property
    def seasons_done(self) -> list[tuple[int, ...]]:
        """Each finished campaign season's totals by seat."""
        return [tuple(sum(row) for row in season) for season in self.season_vp]

    def season_results(self) -> list[tuple[tuple[tuple[int, ...], ...], int]]:
        """Per season played to its end: VP per seat by SEASON_SOURCES, and its winner.

        A season's winner is the highest total with the U6 tie-break by that
        season's last round (U7a: the ranks set the next season's starting
        VP); in a finished game the last season is included, and its winner is
        the game's (the campaign's, U7a).
        """
        n = self.num_players
        rounds = self.game.rounds
        seasons = list(enumerate(self.season_vp))
        if self.ph == PH_OVER:
            seasons.append((self.season, tuple(self._season_row(p) for p in range(n))))
        out = []
        for s, rows in seasons:
            last = [a + 1 for a in self.log[(s + 1) * rounds - 1]]
            out.append((rows, winners([sum(r) for r in rows], last)[0]))
        return out

    # -- legal actions ----------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        """Legal actions of the current player, ascending."""
        if self._legal is not None:
            return self._legal
        ph = self.ph
        p = self.cur
        g = self.game
        out: list[int]
        if ph == PH_GAIN:
            out = list(self._gain_options(p, self.gq[0]))
        elif ph == PH_BUILD:
            out = self._build_options(p)
        elif ph == PH_START:
            t = g.card_type[self.drawn[p]]
            out = [2 * t, 2 * t + 1]
        elif ph == PH_CHOOSE:
            if g.choose_lists:
                out = list(g.choose_lists[self.ahand[p]])
            else:
                out = [CHOOSE_BASE + a for a in range(g.n_actions) if self.ahand[p] >> a & 1]
        elif ph == PH_PICK:
            # Any council card but the one this seat just played (rulebook 4).
            mask = self.council & ~(1 << self.log[-1][p])
            if g.pick_lists:
                out = list(g.pick_lists[mask])
            else:
                out = [PICK_BASE + a for a in range(g.n_actions) if mask >> a & 1]
        elif ph == PH_NIGHT:
            out = [NIGHT_BASE + k for k in range(self._night_max(p) + 1)]
        elif ph == PH_BOOST:
            spec = g.actions[self.log[-1][p]]
            most = min(spec.boost_max, self.cnt[p][g.GOLD])
            out = [BOOST_BASE + k for k in range(most + 1)]
        elif ph == PH_MULL:
            out = [MULL_KEEP]
            for give in range(g.n_actions):
                if self.ahand[p] >> give & 1:
                    base = MULL_BASE + give * MULL_STRIDE
                    out.extend(base + take for take in range(g.n_actions)
                               if self.council >> take & 1)
        elif ph == PH_MARKER:
            out = [MARKER_BASE + i for i in self._marker_options()]
        else:
            out = []
        self._legal = out
        return out

    def _gain_options(self, p: int, q: int) -> tuple[int, ...]:
        """Gain actions for quantity ``q`` from seat ``p``'s hand (U1c: matching halves only).

        They depend only on which types the hand holds, so they are looked up by
        the hand's type mask (a gain is the commonest step of a game).
        """
        g = self.game
        bit = g.type_bit
        seen = 0
        for c in self.hand[p]:
            seen |= bit[c]
        key = seen << 3 | q
        out = g._gain_memo.get(key)
        if out is None:
            # Hands are varied (the memo misses often): walk the set bits only.
            opts = g.gain_opts[q]
            found: list[int] = []
            while seen:
                low = seen & -seen
                found.extend(opts[low.bit_length() - 1])
                seen ^= low
            out = g._gain_memo[key] = tuple(sorted(found))
        return out

    def _build_options(self, p: int) -> list[int]:
        """Settles and develops seat ``p`` may make now, and ``done`` (U4)."""
        g = self.game
        out = [BUILD_DONE]
        cnt = self.cnt[p]
        m0 = g.MAT0
        nm = g.n_mats
        can_settle = self.b_set > 0 or self.b_auto > 0
        can_develop = self.b_dev > 0 or self.b_auto > 0
        if can_settle:
            # The settles depend on the material counts alone: looked up.
            mats = tuple(cnt[m0:m0 + nm])
            settles = g._settle_memo.get(mats)
            if settles is None:
                settles = g._settle_memo[mats] = self._settle_options(mats)
            out.extend(settles)
        if can_develop and self.setl[p]:
            gold = cnt[g.GOLD] > 0
            seen = set()
            for i, (mat, mask, cards) in enumerate(self.setl[p]):
                key = (mat, mask, len(cards))
                if key in seen:
                    continue        # an identical settlement earlier in the list (symmetry)
                seen.add(key)
                base = DEV_BASE + DEV_STRIDE * i
                if mat >= 0:
                    if cnt[m0 + mat]:
                        out.append(base + mat)
                else:
                    for m in range(nm):
                        if cnt[m0 + m] and not mask >> m & 1:
                            out.append(base + m)
                if gold:
                    out.append(base + DEV_GOLD)   # ruling U4a: gold develops any settlement
        return out

    @staticmethod
    def _settle_options(mats: tuple[int, ...]) -> tuple[int, ...]:
        """Settles the material counts ``mats`` allow (U4): 2 or 3 alike, or 2 different."""
        out: list[int] = []
        nm = len(mats)
        for m in range(nm):
            c = mats[m]
            if c >= 2:
                out.append(SETTLE_SAME + 2 * m)
                if c >= 3:
                    out.append(SETTLE_SAME + 2 * m + 1)
        for a in range(nm):
            if mats[a]:
                for b in range(a + 1, nm):
                    if mats[b]:
                        out.append(SETTLE_MIX + MIX_STRIDE * a + b)
        return tuple(out)

    def _night_max(self, p: int) -> int:
        """Most enemies seat ``p`` may discard at this night (U5, U5a)."""
        have = self.cnt[p][self.game.EN]
        if have == self.n_most:
            return have            # the most enemies: any number
        return min(have, self.limit)

    def _marker_options(self) -> list[int]:
        """Scenario cards of the season just played that may take the marker (U1h)."""
        season = self.season + 1
        return sorted(i for i in self.story if self.game.scenarios[i].season == season)

    # -- API: apply ----------------------------------------------------------------------

    def apply_action(self, action: int) -> None:
        """Apply ``action`` for the current player (IllegalAction, nothing changed, if illegal)."""
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        if action not in legal:
            raise illegal(self, action)
        self._legal = None
        self.n_turns += 1
        ph = self.ph
        p = self.cur
        if ph == PH_GAIN:
            self._gain(p, action)
            del self.gq[0]
            self._gain_next(p)
        elif ph == PH_BUILD:
            if action == BUILD_DONE:
                self._end_action()
            else:
                self._build(p, action)
                self._build_next(p)
        elif ph == PH_START:
            c = self.drawn[p]
            self.drawn[p] = -1
            self._place(p, c, action & 1)
            self._start_next()
        elif ph == PH_CHOOSE:
            self.chosen[p] = action - CHOOSE_BASE
            if p + 1 < self.num_players:
                self.cur = p + 1
            else:
                self._reveal()
        elif ph == PH_PICK:
            bit = 1 << (action - PICK_BASE)
            self.council &= ~bit
            self.ahand[p] |= bit
            self.known[p] |= bit
            self._acts_moved()
            self.idx += 1
            self._pick_next()
        elif ph == PH_NIGHT:
            self._night_discard(p, action - NIGHT_BASE)
            self.n_idx += 1
            self._night_next()
        elif ph == PH_BOOST:
            self._boost(p, action - BOOST_BASE)
        elif ph == PH_MULL:
            if action != MULL_KEEP:
                give, take = divmod(action - MULL_BASE, MULL_STRIDE)
                self.ahand[p] ^= (1 << give) | (1 << take)
                self.council ^= (1 << give) | (1 << take)
                self.known[p] |= 1 << take        # taken in view of everyone (U2a)
                self._acts_moved()
                self.ev[EV_MULL] += 1
            self.idx += 1
            if self.idx < self.num_players:
                self.cur = self.idx
            else:
                self._start_round()
        elif ph == PH_MARKER:
            self.markers.append(action - MARKER_BASE)
            self._next_season()

    # -- card movements -------------------------------------------------------------------

    def _place(self, p: int, c: int, half: int) -> None:
        """Put card ``c`` in play for ``p`` with ``half`` up (U3)."""
        k = self.game.types[self.game.card_type[c]][half]
        self.up[c] = k
        self._tab[p] = None
        self.loose[p].append(c)
        self.cnt[p][k] += 1
        if k < self.game.n_lands:
            self.nland[p] += 1

    def _gain(self, p: int, action: int) -> None:
        """Gain a hand card of the action's type with the action's half up."""
        g = self.game
        t = action >> 1
        ct = g.card_type
        hand = self.hand[p]
        for i, c in enumerate(hand):
            if ct[c] == t:
                del hand[i]
                # _place, inline (the commonest card movement)
                k = g.types[t][action & 1]
                self.up[c] = k
                self._tab[p] = None
                self.loose[p].append(c)
                self.cnt[p][k] += 1
                if k < g.n_lands:
                    self.nland[p] += 1
                return
        raise AssertionError("gain of a type not in hand")  # legal actions exclude it

    def _take_loose(self, p: int, kind: int, k: int) -> list[int]:
        """Remove ``k`` loose cards showing ``kind`` from ``p``'s play area; return them."""
        loose = self.loose[p]
        up = self.up
        out: list[int] = []
        self._tab[p] = None
        self._tl[p] = None
        i = len(loose) - 1
        while len(out) < k:
            c = loose[i]
            if up[c] == kind:
                out.append(c)
                del loose[i]
            i -= 1
        self.cnt[p][kind] -= k
        return out

    def _acts_moved(self) -> None:
        """Forget the observations' action-card fields (an action card moved)."""
        self._acts = [None] * self.num_players

    def _discard(self, cards: list[int]) -> None:
        """Cards to the discard pile (face up; their orientation is forgotten)."""
        for c in cards:
            self.up[c] = -1
        self.disc.extend(cards)
        self._disc_t = None

    # -- round start ------------------------------------------------------------------------

    def _start_round(self) -> None:
        """Refill resource hands, draw the round-start card (rulebook 1: ラウンド開始)."""
        g = self.game
        n = self.num_players
        self.ev[EV_ROUND] += 1
        self.die = 0
        self.chosen = [-1] * n
        self.order = []
        for p in range(n):
            hand = self.hand[p]
            need = self.hand_size - len(hand)
            deck = self.deck
            if 0 < need <= len(deck):
                # Card by card from the top, as _draw would (no reshuffle can happen).
                hand.extend(deck[:-need - 1:-1])
                del deck[-need:]
                continue
            while len(hand) < self.hand_size:
                c = self._draw()
                if c < 0:
                    break
                hand.append(c)
        if g.start_gain:
            for p in range(n):
                self.drawn[p] = self._draw()
        self._start_next()

    def _start_next(self) -> None:
        """Next seat to place its drawn card; after the last, the scenario check (U1g)."""
        for p in range(self.num_players):
            if self.drawn[p] >= 0:
                self.ph = PH_START
                self.cur = p
                return
        self._check_scenarios(-1)
        self.ph = PH_CHOOSE
        self.cur = 0

    def _reveal(self) -> None:
        """Reveal the chosen actions; the Red Moon phase (rulebook 2: 赤い月フェイズ)."""
        n = self.num_players
        for p in range(n):
            bit = 1 << self.chosen[p]
            self.ahand[p] &= ~bit
            self.known[p] &= ~bit
            self.council |= bit       # played cards lie face up in the council (U2)
        self._acts_moved()
        self.log.append(tuple(self.chosen))
        self.chosen = [-1] * n
        played = self.log[-1]
        self.order = sorted(range(n), key=played.__getitem__)
        self.idx = 0
        # The lowest number rolls; the die is this round's (U1b).
        self.die = self.dice[self.rnd]
        self.counters -= self.die
        if self.counters <= 0:
            if self.counters < 0:
                self.ev[EV_TIME_LOST] += 1      # ruling U1e: the rest is lost
                self.counters = 0
            self.ev[EV_NIGHT_MOON] += 1
            self._start_night(NIGHT_MOON)
        else:
            self._begin_action()

    # -- Red Moon Night ------------------------------------------------------------------------

    def _start_night(self, origin: int) -> None:
        """A Red Moon Night (U5): most enemies fixed now, decisions in action order (U5a)."""
        self.ev[EV_NIGHT] += 1
        en = self.game.EN
        self.n_origin = origin
        self.n_most = max(self.cnt[p][en] for p in range(self.num_players))
        self.n_disc = [0] * self.num_players
        self.n_idx = 0
        self._night_next()

    def _night_next(self) -> None:
        """Next player with an enemy to decide on; after the last, end the night."""
        en = self.game.EN
        order = self.order
        while self.n_idx < len(order):
            p = order[self.n_idx]
            if self.cnt[p][en] > 0:
                self.ph = PH_NIGHT
                self.cur = p
                return
            self.n_idx += 1
        self._end_night()

    def _night_discard(self, p: int, k: int) -> None:
        """Seat ``p`` discards ``k`` enemies for their VP (U5)."""
        if k:
            self._discard(self._take_loose(p, self.game.EN, k))
            self.vp[p][V_ENEMY] += k * self.enemy_vp
            self._vp_t = None
            if k > self.limit:
                self.ev[EV_MAJORITY] += 1
        self.n_disc[p] = k

    def _end_night(self) -> None:
        """Scenario check (U1g), counters back (U5), resume where the night began (U1e)."""
        self._check_scenarios(C_NIGHT_DISCARD)
        self.counters = self.full_counters
        self.n_disc = [0] * self.num_players
        self.n_most = -1
        origin = self.n_origin
        self.n_origin = -1
        if origin == NIGHT_MOON:
            self.idx = 0
            self._begin_action()
        else:
            self._begin_builds(self.order[self.idx])

    # -- action phase ---------------------------------------------------------------------------

    def _amounts(self, a: int, boost: int) -> tuple[Any, ...]:
        """Action ``a`` this round: fixed + Story + die + gold (U1a, U1b, U1d).

        Returns (gain queue, time, settles, develops, VP), the gain queue in the
        order U1a takes them. A function of the Story, action, die and boost
        only, so it is kept per Story (``self._amt``).
        """
        key = (a, self.die, boost)
        got = self._amt.get(key)
        if got is not None:
            return got
        spec = self.game.actions[a]
        amt = list(spec.amounts)
        for q, extra in enumerate(self.bonus[a]):
            amt[q] += extra
        if spec.die_target >= 0:
            amt[spec.die_target] += spec.die_add[self.die - 1]
        if boost:
            amt[spec.boost_target] += boost
        gq: list[int] = []
        for q in range(len(GAIN_QUANTITIES)):
            gq.extend([q] * amt[q])
        got = self._amt[key] = (tuple(gq), amt[Q_TIME], amt[Q_SETTLE], amt[Q_DEVELOP],
                                amt[Q_VP])
        return got

    def _begin_action(self) -> None:
        """The next player in action order resolves (rulebook 3: アクションフェイズ)."""
        if self.idx >= self.num_players:
            self._start_picks()
            return
        p = self.order[self.idx]
        g = self.game
        spec = g.actions[self.log[-1][p]]
        if spec.boost_target >= 0 and self.cnt[p][g.GOLD] > 0:
            self.ph = PH_BOOST
            self.cur = p
            return
        self._boost(p, 0)

    def _boost(self, p: int, k: int) -> None:
        """Discard ``k`` gold for the gold boost (U1d), then queue the gains (U1a)."""
        if k:
            self._discard(self._take_loose(p, self.game.GOLD, k))
            self.ev[EV_BOOST] += 1
        gq, self.time_left, self.b_set, self.b_dev, vp = self._amounts(self.log[-1][p], k)
        self.gq = list(gq)
        if vp:
            self.vp[p][V_ACTION] += vp
            self._vp_t = None
        self._gain_next(p)

    def _gain_next(self, p: int) -> None:
        """Take the next gain: lost without a matching card (U1c), automatic when forced."""
        gq = self.gq
        while gq:
            opts = self._gain_options(p, gq[0])
            if len(opts) > 1:
                self.ph = PH_GAIN
                self.cur = p
                self._legal = list(opts)
                return
            if opts:
                self._gain(p, opts[0])
            else:
                self.ev[EV_GAIN_LOST] += 1
            del gq[0]
        # Time passes after the gains (U1a); the last counter sets off the night (U1e).
        t = self.time_left
        if t:
            self.time_left = 0
            self.counters -= t
            if self.counters <= 0:
                if self.counters < 0:
                    self.ev[EV_TIME_LOST] += 1  # ruling U1e: the rest is lost
                    self.counters = 0
                self.ev[EV_NIGHT_ACTION] += 1
                self._start_night(NIGHT_ACTION)
                return
        self._begin_builds(p)

    def _begin_builds(self, p: int) -> None:
        """The card's extra builds and the auto action (U1a, U4)."""
        self.b_auto = 1
        self._build_next(p)

    def _build_next(self, p: int) -> None:
        """Offer the builds left, or end the action when none is possible."""
        if self.b_set or self.b_dev or self.b_auto:
            opts = self._build_options(p)
            if len(opts) > 1:
                self.ph = PH_BUILD
                self.cur = p
                self._legal = opts
                return
        self._end_action()

    def _build(self, p: int, action: int) -> None:
        """Settle or develop; use the card's own allowance before the auto action (U4b)."""
        g = self.game
        m0 = g.MAT0
        self._tab[p] = None
        self._ts[p] = None
        if action < DEV_BASE:
            if action < SETTLE_MIX:
                m, extra = divmod(action - SETTLE_SAME, 2)
                cards = self._take_loose(p, m0 + m, 2 + extra)
                self.setl[p].append((m, 1 << m, tuple(cards)))
                self.ev[EV_SETTLE_SAME] += 1
            else:
                a, b = divmod(action - SETTLE_MIX, MIX_STRIDE)
                cards = self._take_loose(p, m0 + a, 1) + self._take_loose(p, m0 + b, 1)
                self.setl[p].append((-1, (1 << a) | (1 << b), tuple(cards)))
                self.ev[EV_SETTLE_MIX] += 1
            if self.b_set:
                self.b_set -= 1
            else:
                self.b_auto = 0
        else:
            s, m = divmod(action - DEV_BASE, DEV_STRIDE)
            mat, mask, held = self.setl[p][s]
            if m == DEV_GOLD:
                (c,) = self._take_loose(p, g.GOLD, 1)
                self.ev[EV_DEV_GOLD] += 1
            else:
                (c,) = self._take_loose(p, m0 + m, 1)
                mask |= 1 << m
                self.ev[EV_DEV_MAT] += 1
            self.setl[p][s] = (mat, mask, held + (c,))
            if self.b_dev:
                self.b_dev -= 1
            else:
                self.b_auto = 0

    def _end_action(self) -> None:
        """After a player's whole action: scenario check (U1g), next player."""
        self.b_set = self.b_dev = self.b_auto = 0
        self._check_scenarios(-1)
        self.idx += 1
        self._begin_action()

    # -- action refill and round end ------------------------------------------------------------

    def _start_picks(self) -> None:
        """Rulebook 4: in action order, take a council card other than your own."""
        if self.rnd + 1 >= self.game.rounds:
            # Ruling U2b: the last round's pick changes nothing, so it is skipped.
            self._end_round()
            return
        self.idx = 0
        self._pick_next()

    def _pick_next(self) -> None:
        """Next picker, automatic when it has one choice."""
        n = self.num_players
        own_of = self.log[-1]
        while self.idx < n:
            p = self.order[self.idx]
            opts = self.council & ~(1 << own_of[p])
            if opts & (opts - 1):
                self.ph = PH_PICK
                self.cur = p
                return
            if opts:
                self.council &= ~opts
                self.ahand[p] |= opts
                self.known[p] |= opts
                self._acts_moved()
            self.idx += 1
        self._end_round()

    def _end_round(self) -> None:
        """Rulebook 5: land VP by kinds held (U6), the scenario check, the next round."""
        g = self.game
        for p in range(self.num_players):
            lands = self.cnt[p][:g.n_lands]
            self.vp[p][V_ROUND] += round_land_vp(lands, g.land_kind_vp, g.full_min, self.full_vp)
            if min(lands) >= g.full_min:
                self.ev[EV_FULL_SET] += 1
        self._vp_t = None
        self._check_scenarios(-1)
        self.rnd += 1
        self.order = []
        self.die = 0
        if self.rnd < g.rounds:
            self._start_round()
            return
        self._end_season()

    def _end_season(self) -> None:
        """The game (season) is over: final scoring, or the campaign's next season."""
        g = self.game
        totals = self.totals()
        if len(winners(totals, self.last_numbers())) == 1 and totals.count(max(totals)) > 1:
            self.ev[EV_TIE] += 1
        if not g.campaign or self.season + 1 >= g.seasons:
            self.ph = PH_OVER
            self.cur = TERMINAL
            return
        # Campaign (U1h): the first achieved card of this season takes the marker.
        season = self.season + 1
        done = [(self.ach[j][0], self.ach[j][1], i) for j, i in enumerate(self.story)
                if g.scenarios[i].season == season and self.ach[j][0] >= 0]
        if done:
            self.markers.append(min(done)[2])
            self._next_season()
            return
        options = self._marker_options()
        if len(options) == 1:
            self.markers.append(options[0])
            self._next_season()
            return
        # Nobody achieved one: the winner picks (U1h).
        self.ph = PH_MARKER
        self.cur = self.winners()[0]

    def _next_season(self) -> None:
        """Ranks give starting VP (rulebook ■精算), the marked cards build the Story (U1h)."""
        g = self.game
        totals = self.totals()
        self.season_vp.append(tuple(self._season_row(p) for p in range(self.num_players)))
        start = campaign_start_vp(totals, self.last_numbers(), g.start_vp[self.season])
        self.season += 1
        story = [self.markers[0]]
        if self.season == 2:
            story.append(self.markers[1])
        last = g.scenarios[self.markers[-1]]
        story.extend(g.scen_index[u] for u in last.unlocks)
        self._set_story(story)
        self.vp = [[0] * len(VP_SOURCES) for _ in range(self.num_players)]
        for p in range(self.num_players):
            self.vp[p][V_START] = start[p]
        self._vp_t = None
        self.ev[EV_SEASON] += 1
        rng = random.Random(self.rs)
        self.rs = rng.getrandbits(63)
        self._setup_season(rng)

    # -- scenarios ---------------------------------------------------------------------------------

    def _meets(self, p: int, s: ScenarioSpec, night: bool) -> bool:
        """Whether seat ``p`` meets scenario ``s`` now (U1g counts only loose halves)."""
        g = self.game
        cond = s.condition
        thr = s.threshold
        if cond == C_NIGHT_DISCARD:
            return night and self.n_disc[p] >= thr
        cnt = self.cnt[p]
        if cond == C_LANDS:
            return sum(cnt[:g.n_lands]) >= thr
        if cond == C_SETTLEMENTS:
            return len(self.setl[p]) >= thr
        if cond == C_SIZE:
            return any(len(x[2]) >= thr for x in self.setl[p])
        if cond == C_GOLD:
            return cnt[g.GOLD] >= thr
        if cond == C_ENEMIES:
            return cnt[g.EN] >= thr
        if cond == C_LAND_EACH:
            return min(cnt[:g.n_lands]) >= thr
        if cond == C_LAND_ONE:
            return max(cnt[:g.n_lands]) >= thr
        if cond == C_SETTLED_RES:
            mask = 0
            for x in self.setl[p]:
                mask |= x[1]
            return mask.bit_count() >= thr
        if cond == C_MIXED_SIZE:
            return any(x[0] < 0 and len(x[2]) >= thr for x in self.setl[p])
        return False

    def _check_scenarios(self, kind: int) -> None:
        """Award every unachieved Story card met now; simultaneous achievers split (U1g, U6)."""
        g = self.game
        night = kind == C_NIGHT_DISCARD
        n = self.num_players
        for j, i in enumerate(self.story):
            rec = self.ach[j]
            if rec[0] >= 0:
                continue
            s = g.scenarios[i]
            cond = s.condition
            if cond == C_NIGHT_DISCARD and not night:
                continue
            # The commonest goals inline (this check follows every action); the
            # rest through _meets, which defines them all.
            if cond == C_LANDS:
                thr = s.threshold
                if max(self.nland) < thr:
                    continue        # the common case, without building a list
                who = [p for p, x in enumerate(self.nland) if x >= thr]
            elif cond == C_SETTLEMENTS:
                thr = s.threshold
                if max(map(len, self.setl)) < thr:
                    continue        # the common case, without building a list
                who = [p for p, x in enumerate(self.setl) if len(x) >= thr]
            else:
                who = [p for p in range(n) if self._meets(p, s, night)]
            if not who:
                continue
            vp = shared_bonus(s.bonus, len(who), g.divisor)
            mask = 0
            for p in who:
                self.vp[p][V_SCEN] += vp
                mask |= 1 << p
            self._vp_t = None
            self.ach_seq += 1
            rec[0], rec[1], rec[2] = self.rnd, self.ach_seq, mask
            self._ach_t = None
            self.ev[EV_SCEN] += 1
            if len(who) > 1:
                self.ev[EV_SCEN_SPLIT] += 1

    # -- text ----------------------------------------------------------------------------------------

    def action_to_string(self, action: int) -> str:
        """Short text of ``action``."""
        return self.game.namer.text(action)

    def string_to_action(self, text: str) -> int:
        """The legal action whose text is ``text``."""
        action = self.game.namer.action(text)
        if action not in self.legal_actions():
            raise IllegalAction(f"undecim: {text!r} is not legal for seat "
                                f"{self.current_player()} in phase {self.phase()!r}")
        return action

    # -- zones -----------------------------------------------------------------------------------------

    def zones(self) -> Iterator[tuple[str, list[int]]]:
        """``deck``, ``discard``, ``council`` and per seat ``hand``, ``drawn``, ``play``,
        ``settlements``, ``actions`` (an unrevealed choice stays in ``actions``)."""
        g = self.game
        yield "deck", self.deck
        yield "discard", self.disc
        base = g.n_res
        ids = g.action_ids
        if not ids:  # more than 16 action cards: no lookup table
            yield "council", [base + a for a in range(g.n_actions) if self.council >> a & 1]
        else:
            yield "council", ids[self.council]
        for p in range(self.num_players):
            hand, drawn, play, setl, acts = g.zone_names[p]
            yield hand, self.hand[p]
            d = self.drawn[p]
            yield drawn, [d] if d >= 0 else []
            yield play, self.loose[p]
            yield setl, [c for s in self.setl[p] for c in s[2]]
            yield acts, (ids[self.ahand[p]] if ids else
                         [base + a for a in range(g.n_actions) if self.ahand[p] >> a & 1])

    # -- observation ------------------------------------------------------------------------------------

    def observation(self, player: int) -> UndecimObservation:
        """What ``player`` may know (see :class:`UndecimObservation`)."""
        g = self.game
        n = self.num_players
        ct = g.card_type
        na = g.n_actions
        revealed = bool(self.order)
        acting = -1
        if self.ph in (PH_BOOST, PH_GAIN, PH_BUILD) or (
                self.ph == PH_NIGHT and self.n_origin == NIGHT_ACTION):
            acting = self.order[self.idx]

        tab = self._tab
        if None in tab:
            codes = g.card_codes
            kinds = g.n_kinds
            up = self.up
            for p in range(n):
                if tab[p] is None:
                    # Most moves place a card: extend the loose row by the cards
                    # placed since it was made; settlements change at builds only.
                    loose_p = self.loose[p]
                    row = self._tl[p]
                    if row is None:
                        row = tuple([codes[c * kinds + up[c]] for c in loose_p])
                    elif len(row) < len(loose_p):
                        row += tuple([codes[c * kinds + up[c]] for c in loose_p[len(row):]])
                    self._tl[p] = row
                    built = self._ts[p]
                    if built is None:
                        setl = self.setl[p]
                        built = self._ts[p] = (
                            tuple([tuple([codes[c * kinds + up[c]] for c in cards])
                                   for _m, _k, cards in setl]),
                            tuple([(m, mask, len(cards)) for m, mask, cards in setl]))
                    tab[p] = (row, built[0], tuple(self.cnt[p]), built[1])
            # Every seat's row is built now. Most steps move one seat's cards: the
            # other seats' rows are reused, and these tuples until the next move.
            table_t, settled, loose, settlements = zip(*tab)
            self._rows = (loose, settlements, table_t, settled)
        loose, settlements, table_t, settled = self._rows
        disc = self._disc_t
        if disc is None:
            disc = self._disc_t = tuple(sorted([ct[c] for c in self.disc]))
        # The action-card fields change a few times a round (reveal, picks, mulligan).
        acts = self._acts[player]
        if acts is None:
            bit_tuples = g.bit_tuples

            def bits(mask: int) -> tuple[int, ...]:
                if bit_tuples:
                    return bit_tuples[mask]
                return tuple(a for a in range(na) if mask >> a & 1)

            acts = self._acts[player] = (
                bits(self.ahand[player]), bits(self.council),
                tuple([bits(self.ahand[p]) if p == player else bits(self.known[p])
                       for p in range(n)]),
                tuple([m.bit_count() for m in self.ahand]), bits(self.known[player]))
        ach = self._ach_t
        if ach is None:
            ach = self._ach_t = (tuple([(a[0], a[2]) for a in self.ach]),
                                 tuple([a[1] for a in self.ach]))
        # VP change a few times a round (hands at most steps): kept.
        vp = self._vp_t
        if vp is None:
            vp = self._vp_t = tuple(map(tuple, self.vp))
        # -1 < x, i.e. x >= 0 (a card drawn, a choice made), mapped without a
        # list comprehension's frame.
        set_ = _SET
        # A frozen dataclass's __init__ sets its 40 fields one object.__setattr__
        # at a time, most of an observation's cost (bots ask for one at every
        # decision of every playout); the instance dict is filled at once
        # instead: the same object, equal field for field (tested).
        obs = object.__new__(UndecimObservation)
        obs.__dict__.update(
            seat=player,
            current_player=self.cur,
            phase=PHASE_NAMES[self.ph],
            num_players=n,
            season=self.season + 1,
            round=min(self.rnd, g.rounds - 1) + 1,
            rounds=g.rounds,
            die=self.die,
            counters=self.counters,
            hand=tuple(sorted([ct[c] for c in self.hand[player]])),
            drawn=ct[self.drawn[player]] if self.drawn[player] >= 0 else -1,
            hand_sizes=tuple(map(len, self.hand)),
            drawing=tuple(map(set_, self.drawn)),
            deck_size=len(self.deck),
            discard=disc,
            loose=loose,
            settlements=settlements,
            vp=vp,
            actions=acts[0],
            council=acts[1],
            known=acts[2],
            action_counts=acts[3],
            chosen=self.chosen[player],
            has_chosen=tuple(map(set_, self.chosen)),
            played=self.log[-1] if revealed else (-1,) * n,
            order=tuple(self.order),
            log=tuple(self.log),
            story=tuple(self.story),
            achieved=ach[0],
            acting=acting,
            gains=tuple(self.gq) if acting >= 0 else (),
            time_left=self.time_left,
            builds=(self.b_set, self.b_dev, self.b_auto),
            night_most=self.n_most,
            night_discards=tuple(self.n_disc),
            markers=tuple(self.markers),
            achieved_order=ach[1],
            shown=acts[4],
            table=table_t,
            settled=settled,
        )
        return obs

    def resample_hidden(self, player: int, rng: random.Random) -> "UndecimState":
        """A copy with what ``player`` cannot see redealt.

        Redealt: the other seats' resource hands and unplaced drawn cards with
        the deck (same sizes); the other seats' action cards not known to be
        theirs (same counts; a pending face-down choice is redrawn from the new
        hand); the dice of rounds not yet rolled and the reshuffle seed.
        """
        new = self.clone()
        n = self.num_players
        others = [p for p in range(n) if p != player]
        pool = list(self.deck)
        for p in others:
            pool.extend(self.hand[p])
            if self.drawn[p] >= 0:
                pool.append(self.drawn[p])
        pool = _shuffled(pool, rng)
        k = 0
        for p in others:
            size = len(self.hand[p])
            new.hand[p] = pool[k:k + size]
            k += size
            if self.drawn[p] >= 0:
                new.drawn[p] = pool[k]
                k += 1
        new.deck = pool[k:]
        # Action cards: unknown ones of the other seats, same counts.
        unknown = [a for p in others for a in range(self.game.n_actions)
                   if (self.ahand[p] & ~self.known[p]) >> a & 1]
        unknown = _shuffled(unknown, rng)
        k = 0
        for p in others:
            count = (self.ahand[p] & ~self.known[p]).bit_count()
            mask = self.known[p]
            for a in unknown[k:k + count]:
                mask |= 1 << a
            k += count
            new.ahand[p] = mask
            new._acts_moved()
            if self.chosen[p] >= 0:
                held = [a for a in range(self.game.n_actions) if mask >> a & 1]
                new.chosen[p] = held[int(rng.random() * len(held))]
        first = self.rnd + (1 if self.die else 0)
        for r in range(first, len(new.dice)):
            new.dice[r] = 1 + int(rng.random() * 6)
        new.rs = rng.getrandbits(63)
        new._legal = None
        return new

    # -- notation ---------------------------------------------------------------------------------------

    def to_position(self) -> notation.Position:
        """This state as plain values (types for resource cards)."""
        ct = self.game.card_type
        up = self.up
        types = self.game.types
        n = self.num_players

        def placed(c: int) -> tuple[int, int]:
            t = ct[c]
            return (t, 0 if types[t][0] == up[c] else 1)

        return notation.Position(
            num_players=n, season=self.season, rnd=self.rnd, phase=self.ph,
            counters=self.counters, die=self.die, dice=list(self.dice), rs=self.rs,
            deck=[ct[c] for c in self.deck], discard=[ct[c] for c in self.disc],
            hands=[sorted(ct[c] for c in h) for h in self.hand],
            drawn=[ct[c] if c >= 0 else -1 for c in self.drawn],
            loose=[sorted(placed(c) for c in x) for x in self.loose],
            settlements=[[[placed(c) for c in s[2]] for s in x] for x in self.setl],
            vp=[list(v) for v in self.vp],
            ahand=list(self.ahand), known=list(self.known), council=self.council,
            chosen=list(self.chosen), log=[list(r) for r in self.log],
            story=list(self.story), ach=[list(a) for a in self.ach], ach_seq=self.ach_seq,
            markers=list(self.markers),
            season_vp=[[list(row) for row in season] for season in self.season_vp],
            idx=self.idx, gq=list(self.gq), time_left=self.time_left,
            builds=[self.b_set, self.b_dev, self.b_auto], night_origin=self.n_origin,
            night_most=self.n_most, night_idx=self.n_idx, night_disc=list(self.n_disc),
            turns=self.n_turns)

    def to_notation(self) -> str:
        """This position as one line (grammar in :mod:`.notation`)."""
        return notation.write(self.to_position(), self.game)

    @classmethod
    def from_position(cls, g: UndecimGame, pos: notation.Position) -> "UndecimState":
        """Build and check a state from a parsed position (NotationError on nonsense)."""
        def fail(reason: str) -> NotationError:
            return NotationError(f"undecim notation: {reason}")

        n = pos.num_players
        if not g.min_players <= n <= g.max_players:
            raise fail(f"p={n}: the game is for {g.min_players}–{g.max_players} players")
        st = cls(g, n)
        st.season, st.rnd, st.ph = pos.season, pos.rnd, pos.phase
        st.counters, st.die, st.dice, st.rs = pos.counters, pos.die, list(pos.dice), pos.rs
        # Resource cards: hand out copies of each type in zone order.
        free: list[list[int]] = [[] for _ in range(g.n_types)]
        for c in range(g.n_res - 1, -1, -1):
            free[g.card_type[c]].append(c)

        def take(t: int, where: str) -> int:
            if not 0 <= t < g.n_types or not free[t]:
                raise fail(f"{where}: more {g.type_names[t] if 0 <= t < g.n_types else t} "
                           "cards than the data has")
            return free[t].pop()

        st.deck = [take(t, "deck") for t in pos.deck]
        st.disc = [take(t, "discard") for t in pos.discard]
        st.hand = [[take(t, "hands") for t in h] for h in pos.hands]
        st.drawn = [take(t, "drawn") if t >= 0 else -1 for t in pos.drawn]
        for p in range(n):
            for t, h in pos.loose[p]:
                c = take(t, "play")
                st._place(p, c, h)
            for cards in pos.settlements[p]:
                ids = []
                mats = []
                for t, h in cards:
                    c = take(t, "settlements")
                    k = g.types[t][h]
                    st.up[c] = k
                    ids.append(c)
                    if k == g.GOLD:
                        continue
                    if not g.MAT0 <= k < g.GOLD:
                        raise fail("settlements: only materials and gold lie in settlements")
                    mats.append(k - g.MAT0)
                distinct = sorted(set(mats))
                if len(cards) < 2 or not distinct:
                    raise fail("settlements: a settlement has 2+ cards and a material")
                mat = distinct[0] if len(distinct) == 1 else -1
                mask = 0
                for m in distinct:
                    mask |= 1 << m
                if mat < 0 and len(distinct) != len(mats):
                    raise fail("settlements: a mixed settlement repeats a material (U4)")
                st.setl[p].append((mat, mask, tuple(ids)))
        left = [t for t in range(g.n_types) for _ in free[t]]
        if left:
            raise fail(f"{len(left)} resource cards are missing (e.g. {g.type_names[left[0]]})")
        st.vp = [list(v) for v in pos.vp]
        st._vp_t = None
        st.ahand, st.known, st.council = list(pos.ahand), list(pos.known), pos.council
        seen = st.council
        for p in range(n):
            if seen & st.ahand[p]:
                raise fail("actions: an action card is in two places")
            seen |= st.ahand[p]
            if st.known[p] & ~st.ahand[p]:
                raise fail("known: a known card is not in that hand")
        if seen != (1 << g.n_actions) - 1:
            raise fail("actions: every action card must be in a hand or the council")
        st.chosen = list(pos.chosen)
        for p in range(n):
            if st.chosen[p] >= 0 and not st.ahand[p] >> st.chosen[p] & 1:
                raise fail(f"chosen: seat {p}'s choice is not in its hand")
        st.log = [tuple(r) for r in pos.log]
        st.story = list(pos.story)
        st.ach = [list(a) for a in pos.ach]
        st.ach_seq = pos.ach_seq
        st._ach_t = None
        st._acts_moved()
        st.markers = list(pos.markers)
        # A record only (the rules never read it; a position built from an
        # observation leaves it out), so only its shape is checked.
        if len(pos.season_vp) > st.season:
            raise fail(f"done: {len(pos.season_vp)} finished seasons recorded in season "
                       f"{st.season + 1}")
        for season in pos.season_vp:
            if any(len(row) != len(SEASON_SOURCES) for row in season):
                raise fail(f"done: each seat's season has {len(SEASON_SOURCES)} numbers "
                           "(VP by source)")
        st.season_vp = [tuple(tuple(row) for row in season) for season in pos.season_vp]
        st._set_rules()
        st.idx = pos.idx
        st.gq = list(pos.gq)
        st.time_left = pos.time_left
        st.b_set, st.b_dev, st.b_auto = pos.builds
        st.n_origin, st.n_most, st.n_idx = pos.night_origin, pos.night_most, pos.night_idx
        st.n_disc = list(pos.night_disc)
        st.n_turns = pos.turns
        expected_log = st.season * g.rounds + st.rnd + (
            1 if st.ph in (PH_NIGHT, PH_BOOST, PH_GAIN, PH_BUILD, PH_PICK) else 0)
        if st.ph == PH_OVER or st.ph == PH_MARKER:
            expected_log = (st.season + 1) * g.rounds
        if len(st.log) != expected_log:
            raise fail(f"log: {len(st.log)} revealed rounds, expected {expected_log}")
        if st.log:
            for r in st.log:
                if len(r) != n or len(set(r)) != n or not all(0 <= a < g.n_actions for a in r):
                    raise fail("log: each round lists a different action per seat")
        if expected_log > st.season * g.rounds + st.rnd and st.ph != PH_OVER \
                and st.ph != PH_MARKER:
            played = st.log[-1]
            st.order = sorted(range(n), key=played.__getitem__)
        st.cur = st._derive_current(fail)
        if st.ph != PH_OVER and not st.legal_actions():
            raise fail(f"phase {PHASE_NAMES[st.ph]}: seat {st.cur} has nothing to decide")
        return st

    def _derive_current(self, fail: Any) -> int:
        """The seat to act, derived from the phase and its position (checked)."""
        n = self.num_players
        ph = self.ph
        if ph == PH_OVER:
            return TERMINAL
        if ph == PH_MULL:
            if not 0 <= self.idx < n:
                raise fail("mulligan: position out of range")
            return self.idx
        if ph == PH_START:
            for p in range(n):
                if self.drawn[p] >= 0:
                    return p
            raise fail("start_gain: nobody has a drawn card")
        if ph == PH_CHOOSE:
            k = 0
            while k < n and self.chosen[k] >= 0:
                k += 1
            if k == n or any(c >= 0 for c in self.chosen[k:]):
                raise fail("choose_action: choices are made in seat order")
            return k
        if ph == PH_MARKER:
            return self.winners()[0]
        if not self.order:
            raise fail(f"{PHASE_NAMES[ph]}: the actions are not revealed")
        if ph == PH_NIGHT:
            if not 0 <= self.n_idx < n:
                raise fail("night: position out of range")
            return self.order[self.n_idx]
        if not 0 <= self.idx < n:
            raise fail(f"{PHASE_NAMES[ph]}: position out of range")
        if ph == PH_GAIN and not self.gq:
            raise fail("gain: no gain pending")
        return self.order[self.idx]
