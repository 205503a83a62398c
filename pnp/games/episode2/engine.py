"""Rules engine of 第2話 (solo boss rush): rulebook 2-1 … 2-2-6 with rulings E1–E6.

The game is built from the loaded card data: the player deck from
``player.csv`` (card ids ``0 … N−1`` in table order) and the enemy deck from
``enemies.csv`` (ids ``N … N+M−1``); the constants of ``[game.constants]``
are the parameters' defaults. Rules as implemented, the draw windows and the
new rulings (E2a, E5a …) are in ``docs/rules/episode2-engine.md``.

Turn structure (phases):

* ``mulligan`` — opening hand without an attack card: discard and refill
  until one appears (E5), or retreat.
* ``main`` — attack, heal, retreat, and discard inside a draw window (2-2-6).
* ``pre_roll`` — the window right after the attack card is placed, entered
  only by ``attack … then discard``: discard, retreat, or roll (E5d).
* ``damage`` — the roll failed: reroll with a ♦ (E2), discard (the "damage is
  certain" window), or take the damage.
* ``over`` — terminal.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence

from pnp.errors import PnpError
from pnp.games.api import (TERMINAL, Game, IllegalAction, NotationError, Observation, Param,
                           State, illegal)
from pnp.games.episode2 import notation
from pnp.games.episode2.codec import BASE, END_RUN, MASKS, ROLL, TAKE_DAMAGE, Codec
from pnp.games.episode2.scoring import (ALL_BOSSES, CAUSE_OUTCOME, GAME_OVER, HP_ZERO,
                                        LAST_DEFEAT, LAST_FAIL, LAST_NONE, NO_CAUSE,
                                        NORMAL_CLEAR, RETREAT, TRUE_END, run_end_cause)

if TYPE_CHECKING:
    from pnp.data.inventory import GameData

MULLIGAN, MAIN, PRE_ROLL, DAMAGE, OVER = range(5)
PHASES: tuple[str, ...] = ("mulligan", "main", "pre_roll", "damage", "over")

#: Card roles (player.csv ``role``, ruling E2).
ATTACK, HEAL, DIAMOND = range(3)
ROLES: dict[str, int] = {"attack": ATTACK, "heal": HEAL, "reroll_or_retreat": DIAMOND}

EVENTS: tuple[str, ...] = (
    "attack", "spade_ace", "roll", "defeat", "fail", "reroll", "reroll_win", "damage",
    "heal", "draw_window", "discard", "mulligan", "retreat", "run_end", "true_end",
    "normal_clear", "game_over")
(EV_ATTACK, EV_SPADE_ACE, EV_ROLL, EV_DEFEAT, EV_FAIL, EV_REROLL, EV_REROLL_WIN,
 EV_DAMAGE, EV_HEAL, EV_WINDOW, EV_DISCARD, EV_MULLIGAN, EV_RETREAT, EV_RUN_END,
 EV_TRUE_END, EV_NORMAL_CLEAR, EV_GAME_OVER) = range(len(EVENTS))
_OUTCOME_EVENT = {TRUE_END: EV_TRUE_END, NORMAL_CLEAR: EV_NORMAL_CLEAR,
                  GAME_OVER: EV_GAME_OVER}

#: Parameters whose default is the manifest constant of the same name.
_FROM_MANIFEST = ("starting_hp", "hand_size", "attack_dice", "spade_bonus")


@dataclass(frozen=True)
class Episode2Observation(Observation):
    """What the (only) player knows: everything but the deck orders and future dice.

    Card ids index ``game.card_name``; bosses are ids ≥ ``game.num_player_cards``.
    Every field has a default (the value outside a fight): see
    :meth:`Episode2State.observation` for why.
    """

    seat: int = 0
    current_player: int = 0
    phase: str = "main"
    #: Own hand, card-id order.
    hand: tuple[int, ...] = ()
    #: Current and maximum HP (maximum = starting HP, ruling E3).
    hp: int = 0
    max_hp: int = 0
    #: Face-up boss id (−1 after the true end) and its HP.
    boss: int = -1
    boss_hp: int = 0
    #: Bosses still face down in the enemy deck, and their HPs (ascending):
    #: the set is public by elimination, the order is not.
    bosses_left: int = 0
    enemy_hps: tuple[int, ...] = ()
    #: Bosses taken so far (oldest first).
    spoils: tuple[int, ...] = ()
    #: Used cards (attack, ♥, ♦), oldest first (public).
    pool: tuple[int, ...] = ()
    #: Discarded cards, oldest first (public).
    discard: tuple[int, ...] = ()
    #: Cards left in the face-down player deck (their set is known, not their order).
    deck_size: int = 0
    #: Pending roll (damage phase) by die position, and the roll's bonus.
    dice: tuple[int, ...] = ()
    bonus: int = 0
    #: Attack card of the fight in progress (−1 outside a fight).
    attack_card: int = -1
    #: ♦ rerolls used on the pending roll.
    rerolls_used: int = 0
    #: True inside a main-phase draw window (discards allowed).
    window: bool = False
    #: Result of the last finished attack (scoring.LAST_*).
    last_attack: int = 0


#: Frozen-dataclass fast path (see Episode2State.observation).
_new = object.__new__
_set = object.__setattr__


def _shuffle(cards: list[int], rnd: Callable[[], float]) -> None:
    """Fisher–Yates shuffle drawing ``rnd()`` floats (about 2× faster than
    ``random.shuffle``; the ``int(random() * n)`` bias is ≈ n / 2**53)."""
    for i in range(len(cards) - 1, 0, -1):
        j = int(rnd() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


def _advance_by_words(token: int, draws: int) -> random.Random:
    """``Random(token)`` after ``draws`` calls of ``random()``, advanced in one C call.

    CPython's ``random()`` takes two 32-bit Mersenne Twister words and
    ``getrandbits(64 * k)`` takes exactly 2k, so the generator ends in the
    same state as after the calls; that is checked once at import
    (:data:`_ADVANCE_MATCHES`), else :func:`_rng_at` calls ``random()``.
    """
    rng = random.Random(token)
    if draws:
        rng.getrandbits(64 * draws)
    return rng


def _advance_by_calls(token: int, draws: int) -> random.Random:
    """``Random(token)`` after ``draws`` calls of ``random()``, called one by one."""
    rng = random.Random(token)
    rnd = rng.random
    for _ in range(draws):
        rnd()
    return rng


#: Whether the one-call advance reproduces the calls on this interpreter.
_ADVANCE_MATCHES = all(
    _advance_by_words(t, d).getstate() == _advance_by_calls(t, d).getstate()
    for t in (0, 1, 2**64 - 1) for d in (0, 1, 2, 45, 311, 1000))


def _rng_at(token: int, draws: int) -> random.Random:
    """The dice generator of a state: ``Random(token)`` after ``draws`` calls of
    ``random()`` (every draw of the engine is one such call; see Episode2State).

    Rebuilding it this way is about 3× faster than copying a generator's
    state (``getstate`` builds a tuple of 625 ints), which makes ``clone``
    cheap.
    """
    if _ADVANCE_MATCHES:
        return _advance_by_words(token, draws)
    return _advance_by_calls(token, draws)


#: Card ids (ascending) of each discard bit set seen (bit c = card id c), shared
#: by every game of the process: a discard looks its cards up instead of
#: testing every hand card's bit.
_CARDS_OF: dict[int, tuple[int, ...]] = {}

#: Per-process legal-action caches by action rules (see Episode2Game._legal_key).
_LEGAL_CACHES: dict[tuple[Any, ...], list[dict[tuple[int, ...], tuple[int, ...]]]] = {}


def _legal_cache_for(key: tuple[Any, ...]) -> list[dict[tuple[int, ...], tuple[int, ...]]]:
    """The shared cache tables for games whose legal actions depend on ``key``."""
    tables = _LEGAL_CACHES.get(key)
    if tables is None:
        tables = _LEGAL_CACHES[key] = [{} for _ in range(len(PHASES) << 3)]
    return tables


class Episode2Game(Game["Episode2State"]):
    """第2話: beat twelve court-card bosses with 3d6 rolls and a three-card hand.

    Parameters default to the manifest's ``[game.constants]`` (data wins over
    the class defaults shown here, which equal the shipped data); the
    ``max_rerolls`` and ``reroll_dice`` defaults mean "no limit" as the
    rulebook has it. Solo: ``returns()`` is the spoils count, ``winners()`` is
    always ``[0]`` — the outcome (true end / normal clear / game over) is
    reported by :class:`~pnp.games.episode2.stats.Episode2Stats`.
    """

    slug = "episode2"
    min_players = 1
    max_players = 1
    param_specs = (
        Param("starting_hp", 20, "starting and maximum HP (ruling E3; default from the "
              "manifest's starting_hp, range 1–starting_hp_max, ruling E3a)",
              minimum=1, maximum=30),
        Param("hand_size", 3, "cards in a full hand (ruling E5)", minimum=2, maximum=6),
        Param("attack_dice", 3, "d6 rolled per attack (ruling E4)", minimum=1, maximum=6),
        Param("spade_bonus", 1, "added to every ♠ attack roll and its rerolls (ruling E2)",
              minimum=0, maximum=18),
        Param("max_rerolls", 5, "♦ rerolls one attack roll may use; the rulebook sets no "
              "limit, and the default (every ♦ of the deck) is exactly that (E2, E3b)",
              minimum=0, maximum=64),
        Param("reroll_dice", 3, "dice one ♦ reroll may change; the rulebook allows all of "
              "them, and the default is attack_dice (E2, E3b)", minimum=1, maximum=6),
    )
    params_from_manifest = _FROM_MANIFEST
    event_names = EVENTS
    phase_names = PHASES

    def __init__(self, data: "GameData", params: Mapping[str, Any] | None = None) -> None:
        """Build the card tables from ``data`` and resolve the parameters."""
        super().__init__(data, params)
        given = set(params or {})
        constants = data.manifest.constants
        values = dict(self.params)
        hp_cap = constants.get("starting_hp_max")
        if isinstance(hp_cap, int) and values["starting_hp"] > hp_cap:
            # ruling E3a: the printed HP track bounds the parameter.
            raise PnpError(f"parameter starting_hp={values['starting_hp']}: the HP track "
                           f"runs to {hp_cap} (manifest starting_hp_max, ruling E3a)")

        players = data.cards("player")
        bosses = data.cards("enemies")
        if not players or not bosses:
            raise PnpError("episode2 needs a player deck and an enemy deck")
        n, m = len(players), len(bosses)
        names: list[str] = []
        role: list[int] = []
        value: list[int] = []
        for card in players:
            if card["role"] not in ROLES:
                raise PnpError(f"episode2 card {card['id']!r}: role {card['role']!r}: "
                               f"expected one of {', '.join(ROLES)}")
            names.append(f"{card['suit']}{card['rank']}")
            role.append(ROLES[card["role"]])
            value.append(int(card["value"]))
        for boss in bosses:
            names.append(f"{boss['suit']}{boss['rank']}")
        # Copies of one card (edited data) get #2, #3 … so the notation stays exact.
        seen: dict[str, int] = {}
        for i, name in enumerate(names):
            seen[name] = seen.get(name, 0) + 1
            if seen[name] > 1:
                names[i] = f"{name}#{seen[name]}"
        diamonds = sum(1 for r in role if r == DIAMOND)
        if "max_rerolls" not in given:
            # "One reroll per ♦, several ♦ in turn" (E2): no limit by default.
            values["max_rerolls"] = max(values["max_rerolls"], diamonds)
        if "reroll_dice" not in given:
            values["reroll_dice"] = values["attack_dice"]
        self.params = values

        #: Player cards, then bosses.
        self.num_player_cards: int = n
        self.num_bosses: int = m
        self.names: tuple[str, ...] = tuple(names)
        self.role: tuple[int, ...] = tuple(role)
        self.value: tuple[int, ...] = tuple(value)
        self.is_attack: tuple[bool, ...] = tuple(r == ATTACK for r in role)
        self.is_heal: tuple[bool, ...] = tuple(r == HEAL for r in role)
        self.is_diamond: tuple[bool, ...] = tuple(r == DIAMOND for r in role)
        spade_bonus = int(values["spade_bonus"])
        #: Roll bonus of each attack card: +spade_bonus for ♠ (ruling E2).
        self.bonus: tuple[int, ...] = tuple(
            spade_bonus if (r == ATTACK and c["suit"] == "♠") else 0
            for r, c in zip(role, players))
        #: The ♠A (instant_defeat column) beats a boss without a roll (ruling E2).
        self.instant: tuple[bool, ...] = tuple(
            bool(c.get("instant_defeat")) and r == ATTACK for r, c in zip(role, players))
        #: ♥A heals to full (ruling E2).
        self.full_heal: tuple[bool, ...] = tuple(
            r == HEAL and c["rank"] == "A" for r, c in zip(role, players))
        #: HP of each card id (0 for player cards); bosses from enemies.csv (E1).
        self.hp_of: tuple[int, ...] = (0,) * n + tuple(int(b["hp"]) for b in bosses)

        self.starting_hp: int = int(values["starting_hp"])
        self.hand_size: int = int(values["hand_size"])
        self.attack_dice: int = int(values["attack_dice"])
        self.max_rerolls: int = int(values["max_rerolls"])
        #: Reroll masks allowed: any non-empty set of at most reroll_dice dice (E2, E3).
        limit = min(int(values["reroll_dice"]), self.attack_dice)
        self.masks: tuple[int, ...] = tuple(
            mk for mk in range(1, 1 << self.attack_dice) if bin(mk).count("1") <= limit)
        #: Discard choices by hand length: position tuples of 1 … hand_size−1 cards,
        #: never the whole hand (ruling E5, E5c).
        self.discard_sets: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(combo for k in range(1, min(self.hand_size - 1, h - 1) + 1)
                  for combo in combinations(range(h), k))
            for h in range(self.hand_size + 1))
        self.codec = Codec(names[:n])
        self.attack_base = self.codec.attack
        self.hold_base = self.codec.hold
        self.heal_base = self.codec.heal
        self.retreat_base = self.codec.retreat
        self.reroll_base = self.codec.reroll
        self.discard_base = self.codec.discard
        self._boss_index: dict[str, int] = {names[i]: i for i in range(n, n + m)}
        self._deck = tuple(range(n + m))
        #: Legal-action tuples by hand, one table per (phase, deck not empty,
        #: window, reroll allowed) variant (see Episode2State.legal_actions);
        #: shared by every game of this process with the same action rules,
        #: so a sweep over starting_hp does not start cold for each value.
        self._legal_cache = _legal_cache_for(self._legal_key())

    def _legal_key(self) -> tuple[Any, ...]:
        """Everything the legal-action lists depend on (besides the state)."""
        return (self.num_player_cards, self.role, self.instant, self.hand_size,
                self.max_rerolls, self.masks)

    def __getstate__(self) -> dict[str, Any]:
        """Pickle without the legal-action cache (workers attach their own)."""
        state = super().__getstate__()
        state["_legal_cache"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Unpickle and attach this process's cache for the same action rules."""
        self.__dict__.update(state)
        self._legal_cache = _legal_cache_for(self._legal_key())

    # ------------------------------------------------------------- contract
    def deck(self) -> Sequence[int]:
        """Every card id: the player deck, then the bosses."""
        return self._deck

    def card_name(self, card: int) -> str:
        """``♠7``, ``♥A``, ``♦K`` …"""
        return self.names[card]

    def new_initial_state(self, num_players: int, seed: int) -> "Episode2State":
        """Shuffle both decks, reveal the first boss and draw the opening hand."""
        self.check_players(num_players)
        # One generator deals and then rolls: Random(token) after `draws` calls
        # of random() is the whole chance state, so the notation can hold it.
        token = abs(seed)  # random.seed(int) uses |seed|
        rng = random.Random(token)
        rnd = rng.random
        n = self.num_player_cards
        deck = list(range(n))
        enemies = list(range(n, n + self.num_bosses))
        _shuffle(deck, rnd)
        _shuffle(enemies, rnd)
        s = Episode2State(self, rng, token, max(0, len(deck) - 1) + max(0, len(enemies) - 1))
        s.deck = deck
        s.enemies = enemies
        s.hp = s.max_hp = self.starting_hp
        s.boss = enemies.pop()  # 1. enemy phase: reveal the top boss
        size = self.hand_size  # ≥ 2, so the slices below are never deck[-0:]
        s.hand = tuple(sorted(deck[-size:]))  # draw from the top (the end)
        del deck[-size:]
        is_attack = self.is_attack
        for c in s.hand:
            if is_attack[c]:
                s.phase_i = MAIN
                s.window = False  # an opening hand with an attack card opens no window
                return s
        s.phase_i = MULLIGAN  # 2-2-6 first window / E5 mulligan
        s._check_run_end()
        return s

    def search_reward(self, state: "Episode2State") -> list[float]:
        """What a searching bot maximises at the end of a run: bosses taken, halved by a
        game over.

        ``returns()`` counts bosses taken whatever the ending (ruling E6), so a
        search on it alone would not mind dying; a retreat keeps its bosses
        (a normal clear) and a game over keeps half their worth here, so the
        searcher presses on only while the odds justify it.
        """
        share = len(state.spoils) / self.num_bosses
        return [share * 0.5 if CAUSE_OUTCOME[state.cause] == GAME_OVER else share]

    def state_from_observation(self, obs: Episode2Observation) -> "Episode2State":
        """One position that gives ``obs`` (for searching bots).

        The player deck and the enemy deck hold the cards not seen elsewhere in
        ascending id order and the dice generator is seeded with 0, so the
        result depends on ``obs`` alone; ``resample_hidden`` then shuffles
        both decks and reseeds the dice. Event and turn counters start at zero.
        """
        n = self.num_player_cards
        s = Episode2State(self, random.Random(0), 0, 0)
        seen = set(obs.hand) | set(obs.pool) | set(obs.discard)
        s.deck = [c for c in range(n) if c not in seen]
        gone = set(obs.spoils) | {obs.boss}
        s.enemies = [b for b in range(n, n + self.num_bosses) if b not in gone]
        s.hand, s.pool, s.discard = obs.hand, obs.pool, obs.discard
        s.spoils = obs.spoils
        s.boss = obs.boss
        s.hp, s.max_hp = obs.hp, obs.max_hp
        s.phase_i = PHASES.index(obs.phase)
        s.window = obs.window
        s.last = obs.last_attack
        if s.phase_i in (PRE_ROLL, DAMAGE):
            s.dice = list(obs.dice)
            s.attack = obs.attack_card
            s.rerolls = obs.rerolls_used
        return s

    def state_from_notation(self, text: str) -> "Episode2State":
        """The state written as ``text`` (grammar in :mod:`.notation`)."""
        pos = notation.read(text, self.codec.index, self._boss_index, PHASES, EVENTS)
        return Episode2State.from_position(self, pos)


class Episode2State(State[Episode2Game]):
    """One run in progress (mutable)."""

    def __init__(self, game: Episode2Game, rng: random.Random, token: int,
                 draws: int) -> None:
        """A shell around the dice generator ``rng`` = Random(token) after
        ``draws`` calls; :meth:`Episode2Game.new_initial_state` fills the rest."""
        self.game = game
        self.num_players = 1
        self.hp = 0
        self.max_hp = 0
        #: Player cards: hand (sorted), deck (top = last), pool, discard. The
        #: public zones are tuples, so observations share them without copying.
        self.hand: tuple[int, ...] = ()
        self.deck: list[int] = []
        self.pool: tuple[int, ...] = ()
        self.discard: tuple[int, ...] = ()
        #: Bosses: face-up boss (−1 after the true end), enemy deck (top = last), spoils.
        self.boss = -1
        self.enemies: list[int] = []
        self.spoils: tuple[int, ...] = ()
        #: Fight in progress: dice by position, attack card, ♦ rerolls used.
        self.dice: list[int] = []
        self.attack = -1
        self.rerolls = 0
        self.phase_i = MAIN
        self.window = True
        self.last = LAST_NONE
        self.cause = NO_CAUSE
        self.nturns = 0
        self.ev = [0] * len(EVENTS)
        #: Dice generator: random.Random(token) after `draws` calls of random().
        #: Every use of it is one random() call counted in `draws` (clone rebuilds
        #: the generator from the two numbers, _rng_at).
        self.rng = rng
        self.token = token
        self.draws = draws
        #: Fixed next dice (notation ``dice=``, tests), used before the generator.
        self.fixed: list[int] = []
        self._legal: list[int] | None = None
        #: Sorted HPs of the enemy deck, recomputed when its length changes.
        self._enemy_hps: tuple[int, ...] = ()
        self._enemy_len = -1

    # ------------------------------------------------------------ notation
    @classmethod
    def from_position(cls, game: Episode2Game, pos: notation.Position) -> "Episode2State":
        """Build and check a state from parsed notation; NotationError if inconsistent."""
        n = game.num_player_cards
        s = cls(game, _rng_at(pos.token, pos.draws), pos.token, pos.draws)
        player_zones = pos.hand + pos.deck + pos.pool + pos.discard
        if sorted(player_zones) != list(range(n)):
            raise NotationError("every player card must be in exactly one of hand, deck, "
                                "pool, discard")
        boss_zones = pos.enemies + pos.spoils + ([pos.boss] if pos.boss >= 0 else [])
        if sorted(boss_zones) != list(range(n, n + game.num_bosses)):
            raise NotationError("every boss must be in exactly one of boss, enemies, spoils")
        if len(pos.hand) > game.hand_size:
            raise NotationError(f"hand holds {len(pos.hand)} cards (hand size "
                                f"{game.hand_size})")
        if pos.hp > pos.max_hp:
            raise NotationError(f"hp {pos.hp} above max {pos.max_hp}")
        phase = PHASES.index(pos.phase)
        over = phase == OVER
        if over != (pos.cause != 0):
            raise NotationError("phase 'over' needs an end= cause, and only it")
        if pos.boss < 0 and not (over and pos.cause == ALL_BOSSES):
            raise NotationError("boss=- only after the true end")
        if pos.hp == 0 and not over:
            raise NotationError("hp 0 only when the game is over")
        fight = phase in (PRE_ROLL, DAMAGE)
        if fight != (pos.attack >= 0):
            raise NotationError("attack= names the attack card exactly in pre_roll/damage")
        if fight and pos.attack not in pos.pool:
            raise NotationError("the attack card must be in the pool")
        if fight and not game.is_attack[pos.attack]:
            raise NotationError(f"{game.names[pos.attack]} is not an attack card")
        if (phase == DAMAGE) != bool(pos.roll):
            raise NotationError("roll= holds the pending dice exactly in the damage phase")
        if pos.roll and len(pos.roll) != game.attack_dice:
            raise NotationError(f"roll= needs {game.attack_dice} dice")
        if phase == DAMAGE and (sum(pos.roll) + game.bonus[pos.attack]
                                >= game.hp_of[pos.boss]):
            raise NotationError("a damage phase needs a roll below the boss's HP")
        if pos.rerolls and not fight:
            raise NotationError("rerolls= only during a fight")
        s.hp, s.max_hp = pos.hp, pos.max_hp
        s.hand = tuple(sorted(pos.hand))
        s.deck = pos.deck[::-1]
        s.pool = tuple(pos.pool)
        s.discard = tuple(pos.discard)
        s.boss = pos.boss
        s.enemies = pos.enemies[::-1]
        s.spoils = tuple(pos.spoils)
        s.dice = list(pos.roll)
        s.attack = pos.attack
        s.rerolls = pos.rerolls
        s.phase_i = phase
        s.window = pos.window
        s.last = pos.last
        s.cause = pos.cause
        s.nturns = pos.turns
        s.ev = [pos.events.get(name, 0) for name in EVENTS]
        s.fixed = pos.dice[::-1]
        if phase == MULLIGAN and (any(game.is_attack[c] for c in s.hand) or not s.deck):
            raise NotationError("a mulligan hand holds no attack card and the deck is "
                                "not empty")
        if phase in (MULLIGAN, MAIN) and not s.deck and not any(
                game.is_attack[c] or game.is_diamond[c] for c in s.hand):
            raise NotationError("this run has already ended (deck empty, no attack card, "
                                "no ♦): write phase over")
        if not over and not s.legal_actions():
            raise NotationError("no legal action in this position")
        return s

    def to_notation(self) -> str:
        """This position as one line (see :mod:`pnp.games.episode2.notation`)."""
        pos = notation.Position(
            phase=PHASES[self.phase_i], hp=self.hp, max_hp=self.max_hp,
            hand=list(self.hand), deck=self.deck[::-1], pool=list(self.pool),
            discard=list(self.discard),
            boss=self.boss, enemies=self.enemies[::-1], spoils=list(self.spoils),
            roll=self.dice, attack=self.attack, rerolls=self.rerolls, window=self.window,
            last=self.last, cause=self.cause, turns=self.nturns, token=self.token,
            draws=self.draws, dice=self.fixed[::-1],
            events=dict(zip(EVENTS, self.ev)))
        return notation.write(pos, self.game.names, EVENTS)

    # ------------------------------------------------------------ contract
    def current_player(self) -> int:
        """0, or TERMINAL once the run is over."""
        return TERMINAL if self.phase_i == OVER else 0

    def is_terminal(self) -> bool:
        """True once the run has an outcome (E6)."""
        return self.phase_i == OVER

    def phase(self) -> str:
        """Name of the pending decision."""
        return PHASES[self.phase_i]

    def turns(self) -> int:
        """Attacks declared so far (one per 2-2-1 fight round)."""
        return self.nturns

    def events(self) -> Mapping[str, int]:
        """Rule-event counters by name."""
        return dict(zip(EVENTS, self.ev))

    def outcome(self) -> int:
        """scoring.TRUE_END / NORMAL_CLEAR / GAME_OVER (NO_OUTCOME while running)."""
        return CAUSE_OUTCOME[self.cause]

    def returns(self) -> list[float]:
        """Spoils taken, kept in every outcome (ruling E6)."""
        return [float(len(self.spoils))]

    def winners(self) -> list[int]:
        """Always ``[0]``: a solo run has no loser seat; the outcome is in the stats."""
        return [0]

    def zones(self) -> Iterable[tuple[str, Iterable[int]]]:
        """Player cards in deck/hand/pool/discard; bosses in enemy deck/boss/spoils."""
        return (("deck", self.deck), ("hand:0", self.hand), ("pool", self.pool),
                ("discard", self.discard), ("enemy_deck", self.enemies),
                ("boss", [self.boss] if self.boss >= 0 else []),
                ("spoils:0", self.spoils))

    def clone(self) -> "Episode2State":
        """An independent copy, dice generator included."""
        # the generator is Random(token) after `draws` calls: rebuilt, not copied
        return self._copy(_rng_at(self.token, self.draws))

    def _copy(self, rng: random.Random) -> "Episode2State":
        """An independent copy whose dice generator is ``rng``."""
        s = Episode2State.__new__(Episode2State)
        d = s.__dict__
        d.update(self.__dict__)
        d["deck"] = self.deck[:]
        d["enemies"] = self.enemies[:]
        d["dice"] = self.dice[:]
        d["ev"] = self.ev[:]
        d["fixed"] = self.fixed[:]
        d["_legal"] = None  # never share the cached list between two states
        d["rng"] = rng
        return s

    def action_to_string(self, action: int) -> str:
        """Short text, e.g. ``attack ♠7``, ``reroll 1,3 with ♦4``, ``discard ♥2 ♥5``."""
        return self.game.codec.to_string(action)

    def string_to_action(self, text: str) -> int:
        """Inverse of :meth:`action_to_string` for legal actions."""
        try:
            action = self.game.codec.from_string(text)
        except NotationError as exc:
            raise illegal_text(self, text, str(exc)) from None
        if action not in self.legal_actions():
            raise illegal_text(self, text, "not legal here")
        return action

    def observation(self, player: int) -> Episode2Observation:
        """Hand, HP, boss, counts of the face-down decks, public piles, pending dice.

        Built for speed (the heuristic bot asks at every decision): the
        generated ``__init__`` of a frozen dataclass calls
        ``object.__setattr__`` once per field, so the instance dict is set in
        one step instead; and fields still at their class default (``seat``
        0, ``phase`` main, the fight fields outside a fight) are left out of
        that dict — attribute lookup, ``==``, ``hash`` and ``repr`` read the
        class default, and every dict entry costs time (~0.1 µs each).
        """
        enemies = self.enemies
        if self._enemy_len != len(enemies):
            hp_of = self.game.hp_of
            self._enemy_len = len(enemies)
            self._enemy_hps = tuple(sorted([hp_of[b] for b in enemies]))
        boss = self.boss
        values = {
            "hand": self.hand,
            "hp": self.hp,
            "max_hp": self.max_hp,
            "boss": boss,
            "boss_hp": self.game.hp_of[boss] if boss >= 0 else 0,
            "bosses_left": len(enemies),
            "enemy_hps": self._enemy_hps,
            "spoils": self.spoils,
            "pool": self.pool,
            "discard": self.discard,
            "deck_size": len(self.deck),
            "window": self.window,
            "last_attack": self.last,
        }
        if player:
            values["seat"] = player
        phase = self.phase_i
        if phase != MAIN:
            values["phase"] = PHASES[phase]
            if phase == OVER:
                values["current_player"] = TERMINAL
            elif phase != MULLIGAN:  # a fight: pre_roll or damage
                attack = self.attack
                values["dice"] = tuple(self.dice)
                values["bonus"] = self.game.bonus[attack]
                values["attack_card"] = attack
                values["rerolls_used"] = self.rerolls
        obs = _new(Episode2Observation)
        _set(obs, "__dict__", values)
        return obs

    def resample_hidden(self, player: int, rng: random.Random) -> "Episode2State":
        """A copy with both deck orders reshuffled and the future dice reseeded."""
        # the copy gets a fresh generator below: the old one is not worth copying
        s = self._copy(self.rng)
        _shuffle(s.deck, rng.random)
        _shuffle(s.enemies, rng.random)
        s.token = rng.getrandbits(64)
        s.rng = random.Random(s.token)
        s.draws = 0
        s.fixed = []
        return s

    # --------------------------------------------------------------- legal
    def legal_actions(self) -> list[int]:
        """Legal actions, ascending (cached until the next action; do not mutate)."""
        legal = self._legal
        if legal is None:
            ph = self.phase_i
            if ph == OVER:
                legal = self._legal = []
                return legal
            # The legal set depends only on the phase, these flags and the hand;
            # hands repeat across runs, so the game caches the answers.
            variant = (ph << 3 | (4 if self.deck else 0) | (2 if self.window else 0)
                       | (1 if ph == DAMAGE and self.rerolls < self.game.max_rerolls else 0))
            table = self.game._legal_cache[variant]
            found = table.get(self.hand)
            if found is None:
                found = table[self.hand] = tuple(self._build_legal())
            legal = self._legal = list(found)
        return legal

    def _build_legal(self) -> list[int]:
        """Build the legal-action list of the current phase (cache miss)."""
        ph = self.phase_i
        g = self.game
        hand = self.hand
        is_diamond = g.is_diamond
        out: list[int]
        if ph == MAIN:
            is_attack = g.is_attack
            base = g.attack_base
            out = [base + c for c in hand if is_attack[c]]
            if not out and not self.deck:
                # Deck empty, no attack card, a ♦ in hand (ruling E6a): retreat or end.
                base = g.retreat_base
                return [END_RUN] + [base + c for c in hand if is_diamond[c]]
            if self.deck:
                # Attack and stay in the pre-roll window to discard (E5d); never
                # for the ♠A, which wins without a roll (E2, E2a).
                base = g.hold_base
                out += [base + c for c in hand if is_attack[c] and not g.instant[c]]
            if len(hand) > 1:  # ♥ never as the last card (E2), even at full HP (E2b)
                is_heal = g.is_heal
                base = g.heal_base
                out += [base + c for c in hand if is_heal[c]]
            base = g.retreat_base
            out += [base + c for c in hand if is_diamond[c]]
            if self.window and self.deck:  # a discard needs a deck to refill from (E5b)
                out += self._discards()
            return out
        if ph == PRE_ROLL:
            base = g.retreat_base
            out = [ROLL] + [base + c for c in hand if is_diamond[c]]
            if self.deck:
                out += self._discards()
            return out
        if ph == DAMAGE:
            out = [TAKE_DAMAGE]
            if self.rerolls < g.max_rerolls:
                base = g.reroll_base
                masks = g.masks
                for c in hand:
                    if is_diamond[c]:
                        first = base + MASKS * c
                        out += [first + mk for mk in masks]
            if self.deck:
                out += self._discards()
            return out
        # MULLIGAN: the deck is never empty here (_check_run_end moved on).
        base = g.retreat_base
        return [base + c for c in hand if is_diamond[c]] + self._discards()

    def _discards(self) -> list[int]:
        """Discard actions for the current hand (1 … hand_size−1 cards, E5), ascending."""
        hand = self.hand
        base = self.game.discard_base
        out = []
        for combo in self.game.discard_sets[len(hand)]:
            bits = 0
            for i in combo:
                bits |= 1 << hand[i]
            out.append(base + bits)
        out.sort()
        return out

    # --------------------------------------------------------------- apply
    def apply_action(self, action: int) -> None:
        """Validate, then apply ``action`` (IllegalAction leaves the state untouched)."""
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        if action not in legal:
            raise illegal(self, action)
        self._legal = None
        g = self.game
        if action >= g.discard_base:  # the commonest move of a random playout: tested first
            self._discard(action - g.discard_base)
        elif action < BASE:
            if action == ROLL:
                self._roll()
            elif action == TAKE_DAMAGE:
                self._take_damage()
            else:  # END_RUN, ruling E6a
                self.ev[EV_RUN_END] += 1
                self._end(run_end_cause(self.last))
        elif action < g.hold_base:
            self._attack(action - g.attack_base, True)
        elif action < g.heal_base:
            self._attack(action - g.hold_base, False)
        elif action < g.retreat_base:
            self._heal(action - g.heal_base)
        elif action < g.reroll_base:
            self._use_and_refill(action - g.retreat_base, False)
            self.ev[EV_RETREAT] += 1
            self._end(RETREAT)  # ruling E2: a retreat is a normal clear
        else:
            card, mask = divmod(action - g.reroll_base, MASKS)
            self._reroll(card, mask)

    def _use_and_refill(self, card: int, refill: bool) -> None:
        """Move ``card`` from the hand to the pool (E5); with ``refill`` draw back
        up to a full hand, as every draw window starts (2-1, ruling E5a)."""
        hand = list(self.hand)
        hand.remove(card)
        self.pool += (card,)
        if refill:
            deck = self.deck
            size = self.game.hand_size
            while len(hand) < size and deck:
                hand.append(deck.pop())
            hand.sort()
        self.hand = tuple(hand)

    def _refill(self) -> None:
        """Draw up to a full hand (E5); the hand stays in card-id order."""
        if len(self.hand) < self.game.hand_size and self.deck:
            self._fill(list(self.hand))

    def _fill(self, hand: list[int]) -> None:
        """Make ``hand`` topped up from the deck the state's hand (E5), in card-id order.

        The missing cards come off the top (the end) of the deck in one slice,
        fewer if the deck runs out.
        """
        need = self.game.hand_size - len(hand)
        if need > 0:  # (deck[-0:] would be the whole deck)
            deck = self.deck
            hand += deck[-need:]
            del deck[-need:]
        hand.sort()
        self.hand = tuple(hand)

    def _open_window(self, phase: int, refill: bool = True) -> None:
        """Open a 2-2-6 draw window: refill the hand, then the player decides.

        The refill to a full hand comes first (2-1: after a card is used the
        player draws back up); discards follow as actions (ruling E5a).
        ``refill=False`` when the caller has just refilled.
        """
        if refill and len(self.hand) < self.game.hand_size and self.deck:
            self._refill()
        self.ev[EV_WINDOW] += 1
        self.phase_i = phase
        self.window = True
        if phase == MAIN and not self.deck:
            self._check_run_end()

    def _check_run_end(self) -> None:
        """End the run when the deck is empty and no attack card is in hand (E6).

        With a ♦ in hand the player still chooses: retreat or let it end (E6a).
        """
        if self.deck:
            return
        g = self.game
        hand = self.hand
        is_attack = g.is_attack
        for c in hand:
            if is_attack[c]:
                return
        is_diamond = g.is_diamond
        for c in hand:
            if is_diamond[c]:
                self.phase_i = MAIN
                return
        self.ev[EV_RUN_END] += 1
        self._end(run_end_cause(self.last))

    def _end(self, cause: int) -> None:
        """Finish the run with ``cause`` (its outcome follows, E6)."""
        self.cause = cause
        self.phase_i = OVER
        self.attack = -1  # a retreat may abandon a fight before its roll
        self.dice = []
        self.rerolls = 0
        self.ev[_OUTCOME_EVENT[CAUSE_OUTCOME[cause]]] += 1

    def _die(self) -> int:
        """Next die face: the fixed queue first (tests), else the generator."""
        if self.fixed:
            return self.fixed.pop()
        self.draws += 1
        return int(self.rng.random() * 6) + 1

    def _attack(self, card: int, roll: bool) -> None:
        """2-2-1: put the attack card in the pool; the ♠A wins at once (E2).

        The window right after placing it (2-2-6) refills the hand; with
        ``roll`` the player passes on its discards and rolls (E5d). This is
        the hottest path of a playout, so the common case is written inline.
        """
        ev = self.ev
        ev[EV_ATTACK] += 1
        self.nturns += 1
        self.attack = card
        self.rerolls = 0
        g = self.game
        if g.instant[card]:  # E2a: no pre-roll window, no dice
            self._use_and_refill(card, False)
            ev[EV_SPADE_ACE] += 1
            self._defeat()
            return
        # 2-2-6: a window right after the attack card is placed, before the roll.
        hand = list(self.hand)
        hand.remove(card)
        self.pool += (card,)
        deck = self.deck
        size = g.hand_size
        while len(hand) < size and deck:
            hand.append(deck.pop())
        hand.sort()
        self.hand = tuple(hand)
        ev[EV_WINDOW] += 1
        self.window = True
        if not roll:
            self.phase_i = PRE_ROLL
            return
        if self.fixed or g.attack_dice != 3:
            self.phase_i = PRE_ROLL
            self._roll()
            return
        ev[EV_ROLL] += 1
        rnd = self.rng.random
        a, b, c = int(rnd() * 6) + 1, int(rnd() * 6) + 1, int(rnd() * 6) + 1
        self.draws += 3
        self.dice = [a, b, c]
        # Total ≥ boss HP defeats it; otherwise the damage window opens (E4).
        if a + b + c + g.bonus[card] >= g.hp_of[self.boss]:
            enemies = self.enemies
            if not enemies or not deck:
                self._defeat()
                return
            # _defeat inlined: spoils, next boss, window with a hand already full.
            self.spoils += (self.boss,)
            ev[EV_DEFEAT] += 1
            ev[EV_WINDOW] += 1
            self.last = LAST_DEFEAT
            self.dice = []
            self.attack = -1
            self.boss = enemies.pop()
            self.phase_i = MAIN
        else:
            ev[EV_FAIL] += 1
            ev[EV_WINDOW] += 1  # 2-2-6 "damage is certain"; the hand is already full
            self.phase_i = DAMAGE

    def _roll(self) -> None:
        """Roll the attack dice (3d6 by default, ruling E4) and judge."""
        self.ev[EV_ROLL] += 1
        g = self.game
        n = g.attack_dice
        if self.fixed or n != 3:
            dice = [self._die() for _ in range(n)]
        else:
            rnd = self.rng.random
            dice = [int(rnd() * 6) + 1, int(rnd() * 6) + 1, int(rnd() * 6) + 1]
            self.draws += 3
        self.dice = dice
        # Total ≥ boss HP defeats it; otherwise the damage window opens (E4).
        if sum(dice) + g.bonus[self.attack] >= g.hp_of[self.boss]:
            self._defeat()
        else:
            self.ev[EV_FAIL] += 1
            # 2-2-6: "damage is certain" window; rerolls and discards interleave (E5a).
            self._open_window(DAMAGE)

    def _reroll(self, card: int, mask: int) -> None:
        """2-2-4: spend a ♦ to reroll the chosen dice (♠ bonus still applies, E2)."""
        self._use_and_refill(card, True)  # the window after a reroll starts full
        self.rerolls += 1
        ev = self.ev
        ev[EV_REROLL] += 1
        dice = self.dice
        for i in range(len(dice)):
            if mask >> i & 1:
                dice[i] = self._die()
        g = self.game
        if sum(dice) + g.bonus[self.attack] >= g.hp_of[self.boss]:
            ev[EV_REROLL_WIN] += 1
            self._defeat()
        else:
            ev[EV_FAIL] += 1
            self._open_window(DAMAGE, False)

    def _take_damage(self) -> None:
        """2-2-2: lose boss HP − total; at 0 HP the game is over (E4)."""
        g = self.game
        self.hp -= g.hp_of[self.boss] - (sum(self.dice) + g.bonus[self.attack])
        self.ev[EV_DAMAGE] += 1
        self.last = LAST_FAIL
        self.dice = []
        self.attack = -1
        self.rerolls = 0
        if self.hp <= 0:
            self.hp = 0
            self._end(HP_ZERO)
            return
        # 2-2-6: window after the HP track has moved; the boss stays (E4).
        self._open_window(MAIN)

    def _defeat(self) -> None:
        """The boss becomes spoils; reveal the next one or reach the true end (E4, E6)."""
        self.spoils += (self.boss,)
        self.ev[EV_DEFEAT] += 1
        self.last = LAST_DEFEAT
        self.dice = []
        self.attack = -1
        self.rerolls = 0
        if not self.enemies:
            self.boss = -1
            self._end(ALL_BOSSES)
            return
        self.boss = self.enemies.pop()
        # 2-2-6: window after a win (also after a winning reroll) and the new boss.
        self._open_window(MAIN)

    def _heal(self, card: int) -> None:
        """2-2-3: heal the ♥'s value, the A to full, never above max HP (E2, E3)."""
        self._use_and_refill(card, True)  # 2-2-6: window after healing
        g = self.game
        if g.full_heal[card]:
            self.hp = self.max_hp
        else:
            self.hp = min(self.max_hp, self.hp + g.value[card])
        self.ev[EV_HEAL] += 1
        self._open_window(MAIN, False)

    def _discard(self, bits: int) -> None:
        """2-2-6 / E5: discard the chosen cards and refill; the window stays open."""
        gone = _CARDS_OF.get(bits)
        if gone is None:
            gone = _CARDS_OF[bits] = tuple(c for c in range(bits.bit_length()) if bits >> c & 1)
        hand = list(self.hand)
        for c in gone:  # legal: every discarded card is in the hand
            hand.remove(c)
        self.discard += gone
        ev = self.ev
        ev[EV_DISCARD] += 1
        self._fill(hand)
        if self.phase_i == MULLIGAN:
            ev[EV_MULLIGAN] += 1
            is_attack = self.game.is_attack
            if any(is_attack[c] for c in self.hand):
                self.phase_i = MAIN
                self.window = False  # the mulligan window closes once an attack appears
                return
            self._check_run_end()
        elif self.phase_i == MAIN and not self.deck:
            self._check_run_end()


def illegal_text(state: Episode2State, text: str, why: str) -> IllegalAction:
    """IllegalAction for an action text that names no legal action."""
    return IllegalAction(f"episode2: {text!r} is not a legal action in phase "
                         f"{state.phase()!r} ({why})")
