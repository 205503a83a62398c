"""Bots of 第2話: a careful player and the same player who never retreats.

Both see only the observation (and the rules tables of the game: roles,
values, boss HPs, parameters). Their rules, in order:

* **Last stand** (deck empty, no attack card, a ♦ in hand): the careful
  player retreats; ``no_retreat`` lets the run end.
* **Retreat** (careful player only, main phase, ♦ in hand, no ♠A in hand):
  when the chance of beating the face-up boss before HP runs out — repeated
  attacks with the best attack card in hand, counting the ♥ in hand as extra
  HP, ignoring rerolls — is below ``RETREAT_BELOW`` (50 %).
* **Heal** when the next failed attack could kill (HP ≤ boss HP − dice −
  bonus, the worst failure) with the ♥ that heals most, or when a ♥ other
  than the A heals without waste (value ≤ HP missing).
* **Attack** with a ♠ other than the A, else a ♣; the ♠A is kept for the
  toughest bosses (HP = the highest boss HP) or for a fight going badly.
* **Reroll** after a failed roll when the damage would kill (aiming to
  survive), or when the best subset gives ≥ ``REROLL_AT_LEAST`` (30 %) to win
  and a ♦ is left over (the careful player keeps one ♦ for a retreat once
  the deck is down to ``RESERVE_FROM_DECK`` = 12 cards). The subset is the
  one with the highest exact probability of reaching the target (every
  subset the parameters allow is scored).
* **Discard** only to dig: for an attack card when the hand has none, or
  for a ♦ when the damage would kill; the least useful cards go (♥ first,
  scored by the HP they would restore), keeping at least the best card.
* **Roll** at once after placing the attack card.
"""

from __future__ import annotations

import random
import weakref
from typing import Any, Sequence

from pnp.games.api import Game, Observation
from pnp.games.bots import Bot
from pnp.games.episode2.codec import END_RUN, MASKS, ROLL, TAKE_DAMAGE
from pnp.games.episode2.engine import Episode2Game, Episode2Observation

#: Retreat when P(beating the current boss before HP runs out) is below this.
RETREAT_BELOW = 0.5
#: Reroll a non-lethal failure when the best subset wins at least this often.
REROLL_AT_LEAST = 0.3
#: The careful player keeps one ♦ for a retreat once the deck is this small
#: (the run's end is in sight; earlier, a ♦ is worth more as a reroll).
RESERVE_FROM_DECK = 12
#: Cards scored below this are discarded when digging.
KEEP_AT_LEAST = 45


def _sum_distributions(max_dice: int) -> list[list[float]]:
    """``dist[m][s]`` = P(sum of m d6 = s), m = 0 … max_dice."""
    dist = [[1.0]]
    for _ in range(max_dice):
        prev = dist[-1]
        nxt = [0.0] * (len(prev) + 6)
        for s, p in enumerate(prev):
            if p:
                for face in range(1, 7):
                    nxt[s + face] += p / 6
        dist.append(nxt)
    return dist


class _Tables:
    """Probability tables for one game's parameters (shared by every bot of it)."""

    def __init__(self, game: Episode2Game) -> None:
        """Precompute sum tails, mask sizes and the survival table per boss HP."""
        n = game.attack_dice
        self.g = game
        self.dist = _sum_distributions(n)
        #: tail[m][x] = P(sum of m d6 ≥ x) for 0 ≤ x ≤ 6m + 1.
        self.tail: list[list[float]] = []
        for m, d in enumerate(self.dist):
            t = [0.0] * (6 * m + 2)
            acc = 0.0
            for x in range(6 * m, -1, -1):
                acc += d[x] if x < len(d) else 0.0
                t[x] = acc
            self.tail.append(t)
        self.masks = game.masks
        self.mask_dice = {mk: [i for i in range(n) if mk >> i & 1] for mk in game.masks}
        self.max_hp = game.starting_hp
        self.top_boss_hp = max(game.hp_of[game.num_player_cards:])
        self.n = n
        self._survive: dict[tuple[int, int], list[float]] = {}
        #: The same tables keyed by boss_hp << 8 | bonus (one int: a faster lookup).
        self.survive_by: dict[int, list[float]] = {}
        #: How much each card is worth keeping when digging (−1: a ♥, scored
        #: by the HP it would restore at the time).
        self.keep_score: tuple[int, ...] = tuple(
            (100 if game.instant[c] else 55 + 5 * game.bonus[c]) if game.is_attack[c]
            else 50 if game.is_diamond[c] else -1
            for c in range(game.num_player_cards))
        #: Per-hand summaries and best reroll subsets, filled on first use.
        self.hands: dict[tuple[int, ...], tuple[Any, ...]] = {}
        self.rerolls: dict[tuple[tuple[int, ...], int], tuple[int, float]] = {}

    def p_at_least(self, m: int, x: int) -> float:
        """P(sum of m d6 ≥ x)."""
        if x <= m:
            return 1.0
        tail = self.tail[m]
        return tail[x] if x < len(tail) else 0.0

    def survive(self, boss_hp: int, bonus: int) -> list[float]:
        """``f[hp]``: P(beating a boss of ``boss_hp`` before HP runs out, attacking
        repeatedly with ``bonus``), for hp = 0 … max HP (no rerolls, no heals)."""
        key = (boss_hp, bonus)
        table = self._survive.get(key)
        if table is None:
            need = boss_hp - bonus
            win = self.p_at_least(self.n, need)
            fails = [(p, need - s) for s, p in enumerate(self.dist[self.n])
                     if p and s < need]
            table = [0.0] * (self.max_hp + 1)
            for hp in range(1, self.max_hp + 1):
                f = win
                for p, dmg in fails:
                    if dmg < hp:
                        f += p * table[hp - dmg]
                table[hp] = f
            self._survive[key] = table
            self.survive_by[boss_hp << 8 | bonus] = table
        return table

    def best_reroll(self, dice: tuple[int, ...], need: int) -> tuple[int, float]:
        """The allowed reroll subset with the highest P(dice total ≥ need), and it.

        Exact: the kept dice are fixed, the rerolled ones follow the sum law;
        ties keep the subset found first (fewest low-numbered dice).
        """
        key = (dice, need)
        found = self.rerolls.get(key)
        if found is None:
            full = sum(dice)
            best_p = -1.0
            best_mask = 0
            for mk in self.masks:
                idx = self.mask_dice[mk]
                kept = full
                for i in idx:
                    kept -= dice[i]
                p = self.p_at_least(len(idx), need - kept)
                if p > best_p + 1e-12:
                    best_p, best_mask = p, mk
            found = self.rerolls[key] = (best_mask, best_p)
        return found

    def hand_info(self, hand: tuple[int, ...]) -> tuple[Any, ...]:
        """Summary of a hand: (best non-ace attack, its bonus, ♠A or −1, ♦ cards,
        ♥ cards, ♥ total of the non-full heals, holds a full heal)."""
        info = self.hands.get(hand)
        if info is None:
            g = self.g
            best, bonus, ace = -1, -1, -1
            for c in hand:
                if g.is_attack[c]:
                    if g.instant[c]:
                        ace = c
                    elif g.bonus[c] > bonus:
                        best, bonus = c, g.bonus[c]
            diamonds = tuple(c for c in hand if g.is_diamond[c])
            hearts = tuple(c for c in hand if g.is_heal[c])
            heal_sum = sum(g.value[c] for c in hearts if not g.full_heal[c])
            full = any(g.full_heal[c] for c in hearts)
            info = self.hands[hand] = (best, max(bonus, 0), ace, diamonds, hearts,
                                       heal_sum, full)
        return info


_TABLES: "weakref.WeakKeyDictionary[Episode2Game, _Tables]" = weakref.WeakKeyDictionary()


def tables_for(game: Episode2Game) -> _Tables:
    """The tables for ``game`` (built once per game object; bots are made per run)."""
    tables = _TABLES.get(game)
    if tables is None:
        tables = _TABLES[game] = _Tables(game)
    return tables


class HeuristicBot(Bot):
    """A careful player: heals before a failure could kill, rerolls the best dice,
    retreats when beating the current boss gets unlikely (rules in the module doc)."""

    name = "heuristic"
    summary = ("careful: heals when a failure could kill, rerolls the best dice subset, "
               "retreats when P(beat this boss) < 50%")
    needs_observation = True
    #: The careful player retreats; the subclass below never does.
    retreats = True

    def __init__(self, game: Game[Any], seat: int, rng: random.Random) -> None:
        """Bind the game's rules tables."""
        super().__init__(game, seat, rng)
        assert isinstance(game, Episode2Game)
        self.g: Episode2Game = game
        self.t = tables_for(game)

    def act(self, observation: Observation | None, legal_actions: Sequence[int]) -> int:
        """Choose by phase (see the module docstring)."""
        obs = observation
        assert isinstance(obs, Episode2Observation)
        phase = obs.phase
        if phase == "main":
            choice = self._main(obs, legal_actions)
        elif phase == "damage":
            choice = self._damage(obs, legal_actions)
        elif phase == "pre_roll":
            choice = ROLL
        else:
            choice = self._dig(obs, legal_actions, deep=False)
        return choice if choice in legal_actions else legal_actions[0]

    # ------------------------------------------------------------ helpers
    def _dig(self, obs: Episode2Observation, legal: Sequence[int], deep: bool) -> int:
        """Discard the least useful cards (all but the best when ``deep``).

        Worth keeping: ♠A 100 > other attack cards 55 (+5 per bonus point) >
        ♦ 50 > ♥ 20 + the HP it would restore now.
        """
        g = self.g
        static = self.t.keep_score
        missing = obs.max_hp - obs.hp
        scored = []
        for c in obs.hand:
            score = static[c]
            if score < 0:  # a ♥: worth the HP it would restore now
                score = 20 + (missing if g.full_heal[c] else min(g.value[c], missing))
            scored.append((score, c))
        scored.sort()
        limit = min(len(scored) - 1, g.hand_size - 1)
        if deep:
            out = [c for _, c in scored[:limit]]
        else:
            out = [c for score, c in scored[:limit] if score < KEEP_AT_LEAST]
            if not out:
                out = [scored[0][1]]
        bits = 0
        for c in out:
            bits |= 1 << c
        action = g.discard_base + bits
        if action in legal:
            return action
        # No discard possible (empty deck): the first legal action.
        return legal[0]

    def _main(self, obs: Episode2Observation, legal: Sequence[int]) -> int:
        """Main phase: last stand, retreat, heal, attack, or dig for an attack card."""
        g = self.g
        hand = obs.hand
        t = self.t
        info = t.hands.get(hand)
        if info is None:
            info = t.hand_info(hand)
        best, bonus, ace, diamonds, hearts, heal_sum, full = info
        if legal[0] == END_RUN:
            if self.retreats and diamonds:
                return g.retreat_base + diamonds[0]
            return END_RUN
        hp, max_hp, boss_hp = obs.hp, obs.max_hp, obs.boss_hp
        survive = 1.0  # only the retreat and ♠A rules need it
        if ace >= 0 or (self.retreats and diamonds):
            effective = max_hp if full else min(max_hp, hp + heal_sum)
            table = t.survive_by.get(boss_hp << 8 | bonus)
            if table is None:
                table = t.survive(boss_hp, bonus)
            survive = table[effective]
            if self.retreats and diamonds and ace < 0 and survive < RETREAT_BELOW:
                return g.retreat_base + diamonds[0]
        if hearts and len(hand) > 1:
            missing = max_hp - hp
            if hp <= boss_hp - t.n - bonus:  # the worst failure could kill
                top, top_key = -1, (-1, 0)
                for c in hearts:
                    key = (missing if g.full_heal[c] else min(missing, g.value[c]), -c)
                    if key > top_key:
                        top, top_key = c, key
                return g.heal_base + top
            top, top_value = -1, 0
            for c in hearts:  # a ♥ that heals without waste
                v = g.value[c]
                if not g.full_heal[c] and top_value < v <= missing:
                    top, top_value = c, v
            if top >= 0:
                return g.heal_base + top
        # Attack: ♠ > ♣; the ♠A for the toughest bosses or a fight going badly.
        if ace >= 0 and (best < 0 or boss_hp >= t.top_boss_hp
                         or survive < RETREAT_BELOW):
            return g.attack_base + ace
        if best >= 0:
            return g.attack_base + best
        return self._dig(obs, legal, deep=False)

    def _damage(self, obs: Episode2Observation, legal: Sequence[int]) -> int:
        """Failed roll: reroll the best subset, dig for a ♦ if dying, else take it."""
        g = self.g
        dice = obs.dice
        hp = obs.hp
        dmg = obs.boss_hp - sum(dice) - obs.bonus
        lethal = dmg >= hp
        info = self.t.hands.get(obs.hand)
        diamonds = (info if info is not None else self.t.hand_info(obs.hand))[3]
        if diamonds and len(legal) > 1 and g.reroll_base <= legal[1] < g.discard_base:
            target = obs.boss_hp - hp + 1 if lethal else obs.boss_hp
            mask, p = self.t.best_reroll(dice, target - obs.bonus)
            reserve = 1 if self.retreats and obs.deck_size <= RESERVE_FROM_DECK else 0
            if p > 0 and (lethal or (len(diamonds) > reserve and p >= REROLL_AT_LEAST)):
                return g.reroll_base + MASKS * diamonds[0] + mask
        if lethal and not diamonds and legal[-1] >= g.discard_base:
            return self._dig(obs, legal, deep=True)
        return TAKE_DAMAGE


class NoRetreatBot(HeuristicBot):
    """The careful player who never retreats (ruling E3 judges by both)."""

    name = "no_retreat"
    summary = "the heuristic player, but never retreats (uses every ♦ to reroll)"
    retreats = False
