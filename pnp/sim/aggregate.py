"""Streaming totals of a simulation: counts and sums only, merged chunk by chunk.

Memory stays flat however many games are played: nothing here grows with the
number of games except the length histogram (bounded by the step cap) and the
kept failures (bounded by ``max_failures``). Every total is an int (wins are
counted per number of co-winners, so shares are exact fractions), so merging
chunks in game order gives identical reports for any number of processes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Sequence

from pnp.games.api import State
from pnp.games.stats import GameStats


@dataclass(slots=True)
class Failure:
    """A game that broke an invariant, raised, or hit the step cap.

    ``replay(game, num_players, deal_seed, actions)`` reproduces it: for an
    ``invariant`` failure the returned state fails the checks, for an ``error``
    the last action (or set-up, when ``actions`` is empty) raises again, and
    for ``step_cap`` the state is still not terminal.
    """

    #: "invariant", "error" or "step_cap".
    kind: str
    game_index: int
    seed: int
    deal_seed: int
    seats: tuple[str, ...]
    message: str
    #: Actions applied before the failure was seen (None when dropped).
    actions: list[int] | None = None
    #: ``action_to_string`` of each action, in the state it was taken in.
    action_texts: list[str] | None = None


def _grid(rows: int, cols: int) -> list[list[int]]:
    return [[0] * cols for _ in range(rows)]


@dataclass
class Aggregate:
    """Totals over a contiguous range of games (a chunk, or the whole run)."""

    num_players: int
    event_names: tuple[str, ...]
    bot_names: tuple[str, ...]
    max_failures: int = 1000
    games: int = 0
    completed: int = 0
    #: Game length (turns) → games.
    lengths: Counter[int] = field(default_factory=Counter)
    #: Per seat: sum and sum of squares of returns.
    score_sum: list[float] = field(default_factory=list)
    score_sq: list[float] = field(default_factory=list)
    #: wins[s][k-1]: games seat s won together with k-1 others, by winners().
    wins: list[list[int]] = field(default_factory=list)
    #: top[s][k-1]: games seat s had the top return shared by k seats.
    top: list[list[int]] = field(default_factory=list)
    #: Games where winners() named more than one seat / the top return was shared.
    shared_wins: int = 0
    top_ties: int = 0
    #: Winner's margin over the best other return: sum and sum of squares.
    margin_sum: float = 0.0
    margin_sq: float = 0.0
    #: Per seat: return (rounded to a whole number) → games, for score charts.
    score_hist: list[Counter[int]] = field(default_factory=list)
    #: Best return of each game, summed (a solo game's score), and squared.
    best_sum: float = 0.0
    best_sq: float = 0.0
    #: Per seat: decisions taken, decisions with ≥ 2 legal actions, games with none.
    decisions: list[int] = field(default_factory=list)
    real: list[int] = field(default_factory=list)
    no_decision: list[int] = field(default_factory=list)
    #: Per phase: [decisions, legal actions summed, decisions with ≥ 2].
    phases: dict[str, list[int]] = field(default_factory=dict)
    #: Per event: [total, games where it fired].
    events: list[list[int]] = field(default_factory=list)
    #: Per bot: [seat-games, wins counted per co-winner number …].
    bot_games: dict[str, int] = field(default_factory=dict)
    bot_wins: dict[str, list[int]] = field(default_factory=dict)
    #: Per bot: [sum, sum of squares] of its seats' returns.
    bot_score: dict[str, list[float]] = field(default_factory=dict)
    #: Per bot, over games rather than seats (its seats in one game are not
    #: independent): [games it sat in, Σ seats², Σ (its returns summed)²,
    #: Σ returns summed × seats], for intervals clustered by game.
    bot_by_game: dict[str, list[float]] = field(default_factory=dict)
    #: (a, b) → [seat pairs, half-points a finished ahead of b] (ahead = 2, equal = 1).
    pairs: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    failures: list[Failure] = field(default_factory=list)
    failure_kinds: Counter[str] = field(default_factory=Counter)
    stats: GameStats | None = None
    #: Per event: [games it fired, winner's margin, turns and best return summed over
    #: them, then the same three squared and summed] (rule shifts with intervals).
    event_games: list[list[float]] = field(default_factory=list)
    #: Card and rule findings (``pnp.sim.findings``): key → [seat-games, win
    #: credit, return sum, return sum of squares, then per game the key was in
    #: (clusters): games, Σ m², Σ c², Σ c·m, Σ S², Σ S·m, then against its
    #: group's totals M, C, T in the same game: Σ c·C, Σ c·M, Σ m·C, Σ m·M,
    #: Σ S·T, Σ S·M, Σ m·T] (see ``_add_cards``), from the game's ``card_uses``.
    cards: dict[str, list[float]] = field(default_factory=dict)
    #: Per key group ("played", "rule"), over the games any of its keys was in:
    #: [games, Σ M, Σ C, Σ T, Σ M², Σ C², Σ C·M, Σ T², Σ T·M], where M, C, T
    #: are one game's uses, win credit and returns summed over every key of
    #: the group (the pooled average a key is judged against, clustered by game).
    card_groups: dict[str, list[float]] = field(default_factory=dict)
    #: Games whose standings were followed during play, games the eventual
    #: winner was behind at the start of the last third, lead changes summed
    #: and summed squared.
    drama: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    #: Per-game outcomes for paired comparisons (kept only when asked for, and
    #: emptied by the parent after pairing, so memory stays flat).
    outcomes: list[tuple[float, ...]] | None = None

    def __post_init__(self) -> None:
        """Size the per-seat tables."""
        n = self.num_players
        if not self.score_sum:
            self.score_sum = [0.0] * n
            self.score_sq = [0.0] * n
            self.score_hist = [Counter() for _ in range(n)]
            self.wins = _grid(n, n)
            self.top = _grid(n, n)
            self.decisions = [0] * n
            self.real = [0] * n
            self.no_decision = [0] * n
            self.events = [[0, 0] for _ in self.event_names]
            self.event_games = [[0, 0.0, 0, 0.0, 0.0, 0, 0.0] for _ in self.event_names]

    # -- adding games ---------------------------------------------------------

    def add_game(self, state: State[Any], seats: Sequence[str],
                 decisions: Sequence[int], real: Sequence[int],
                 standings: Sequence[Sequence[float]] | None = None,
                 positions: Sequence[int] | None = None) -> None:
        """Count one completed game (``state`` is terminal).

        ``standings`` are the game's ``standing`` snapshots, one per turn,
        when the game offers them (drama and lead changes); ``positions``
        give each seat's index in the ``--bots`` list (per-game outcomes).
        """
        n = self.num_players
        self.games += 1
        self.completed += 1
        self.lengths[state.turns()] += 1
        ret = [float(v) for v in state.returns()]
        for s in range(n):
            self.score_sum[s] += ret[s]
            self.score_sq[s] += ret[s] * ret[s]
            self.score_hist[s][round(ret[s])] += 1
            self.decisions[s] += decisions[s]
            self.real[s] += real[s]
            if decisions[s] == 0:
                self.no_decision[s] += 1
        winners = sorted(set(state.winners()))
        k = len(winners)
        for w in winners:
            self.wins[w][k - 1] += 1
        if k > 1:
            self.shared_wins += 1
        best = max(ret)
        tops = [s for s in range(n) if ret[s] == best]
        for s in tops:
            self.top[s][len(tops) - 1] += 1
        if len(tops) > 1:
            self.top_ties += 1
        others = [ret[s] for s in range(n) if s not in winners]
        margin = max(ret[w] for w in winners) - max(others) if others else 0.0
        self.margin_sum += margin
        self.margin_sq += margin * margin
        self.best_sum += best
        self.best_sq += best * best
        ev = state.events()
        turns = state.turns()
        for i, name in enumerate(self.event_names):
            c = ev.get(name, 0)
            if c:
                self.events[i][0] += c
                self.events[i][1] += 1
                row = self.event_games[i]
                row[0] += 1
                row[1] += margin
                row[2] += turns
                row[3] += best
                row[4] += margin * margin
                row[5] += turns * turns
                row[6] += best * best
        if len(set(self.bot_names)) > 1:
            self._add_bots(seats, winners, ret)
        credit = [0.0] * n
        for w in winners:
            credit[w] = 1.0 / k
        if self.stats is not None:
            self.stats.add(state, seats)
            uses = getattr(self.stats, "card_uses", None)
            if uses is not None:
                self._add_cards(uses(state), credit, ret)
        if standings:
            self._add_drama(standings, winners)
        if self.outcomes is not None:
            by_pos = [0.0] * len(self.bot_names)
            count = [0] * len(self.bot_names)
            for s, pos in enumerate(positions or [s % len(self.bot_names) for s in range(n)]):
                by_pos[pos] += credit[s]
                count[pos] += 1
            self.outcomes.append((float(turns), margin, *ret, *credit,
                                  *(c / m if m else 0.0 for c, m in zip(by_pos, count))))

    def _add_cards(self, uses: Sequence[Any], credit: list[float], ret: list[float]) -> None:
        """Count each seat's card and rule keys once per game, and each key's game once.

        Per seat-game: uses, win credit, return and its square. Per game the
        key was in (its holders' results in one game are not independent:
        exactly one win is shared among all seats): the games, and Σ m², Σ c²,
        Σ c·m, Σ S², Σ S·m over them, where ``m`` is the seats that had the
        key, ``c`` their win credit and ``S`` their returns summed, for
        intervals clustered by game (:func:`pnp.intervals.ratio_share_interval`,
        :func:`pnp.intervals.ratio_mean_interval`). A fixed number of sums per
        key, whatever the number of games.

        The key's group (the part before ":") pools every use of its keys in
        the game: M, C, T. The group keeps the same sums over games, and each
        key its cross sums with its group's M, C, T, so the key's figure
        minus the pooled average gets a cluster-robust variance that counts
        the games they share (:func:`pnp.sim.findings.card_table`).
        """
        cards = self.cards
        in_game: dict[str, list[float]] = {}  # key → [m, c, S] of this game
        for s, keys in enumerate(uses):
            r = ret[s]
            c = credit[s]
            for key in set(keys):
                row = cards.get(key)
                if row is None:
                    row = cards[key] = [0, 0.0, 0.0, 0.0, 0, 0.0, 0.0, 0.0, 0.0, 0.0,
                                        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
                row[0] += 1
                row[1] += c
                row[2] += r
                row[3] += r * r
                mine = in_game.get(key)
                if mine is None:
                    mine = in_game[key] = [0.0, 0.0, 0.0]
                mine[0] += 1
                mine[1] += c
                mine[2] += r
        pooled: dict[str, list[float]] = {}  # group → [M, C, T] of this game
        # Sorted: in_game's order follows set(keys), which changes with the
        # process's hash seed, and float sums must not (same seed → same report).
        for key in sorted(in_game):
            m, c, total = in_game[key]
            g = pooled.get(key.partition(":")[0])
            if g is None:
                g = pooled[key.partition(":")[0]] = [0.0, 0.0, 0.0]
            g[0] += m
            g[1] += c
            g[2] += total
        for key, (m, c, total) in in_game.items():
            row = cards[key]
            row[4] += 1
            row[5] += m * m
            row[6] += c * c
            row[7] += c * m
            row[8] += total * total
            row[9] += total * m
            big_m, big_c, big_t = pooled[key.partition(":")[0]]
            row[10] += c * big_c
            row[11] += c * big_m
            row[12] += m * big_c
            row[13] += m * big_m
            row[14] += total * big_t
            row[15] += total * big_m
            row[16] += m * big_t
        groups = self.card_groups
        for name, (big_m, big_c, big_t) in pooled.items():
            grow = groups.get(name)
            if grow is None:
                grow = groups[name] = [0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
            grow[0] += 1
            grow[1] += big_m
            grow[2] += big_c
            grow[3] += big_t
            grow[4] += big_m * big_m
            grow[5] += big_c * big_c
            grow[6] += big_c * big_m
            grow[7] += big_t * big_t
            grow[8] += big_t * big_m

    def _add_drama(self, standings: Sequence[Sequence[float]], winners: list[int]) -> None:
        """Was the winner behind at the start of the last third; how often the lead changed."""
        d = self.drama
        d[0] += 1
        at = standings[(2 * len(standings)) // 3]
        best = max(at)
        if not any(at[w] == best for w in winners):
            d[1] += 1
        changes = 0
        leader = -1
        for row in standings:
            top = max(row)
            leads = [s for s, v in enumerate(row) if v == top]
            if len(leads) == 1:
                if leader >= 0 and leads[0] != leader:
                    changes += 1
                leader = leads[0]
        d[2] += changes
        d[3] += changes * changes

    def _add_bots(self, seats: Sequence[str], winners: list[int], ret: list[float]) -> None:
        """Per-bot wins and head-to-head half-points for a mixed-bot game."""
        n = self.num_players
        k = len(winners)
        rank = [((s in winners), ret[s]) for s in range(n)]
        for s, bot in enumerate(seats):
            self.bot_games[bot] = self.bot_games.get(bot, 0) + 1
            row = self.bot_wins.setdefault(bot, [0] * n)
            if s in winners:
                row[k - 1] += 1
            sc = self.bot_score.get(bot)
            if sc is None:
                sc = self.bot_score[bot] = [0.0, 0.0]
            sc[0] += ret[s]
            sc[1] += ret[s] * ret[s]
        per_game: dict[str, list[float]] = {}  # bot → [its seats, its returns summed]
        for s, bot in enumerate(seats):
            mine = per_game.get(bot)
            if mine is None:
                mine = per_game[bot] = [0.0, 0.0]
            mine[0] += 1
            mine[1] += ret[s]
        for bot, (m, total) in per_game.items():
            g = self.bot_by_game.get(bot)
            if g is None:
                g = self.bot_by_game[bot] = [0, 0.0, 0.0, 0.0]
            g[0] += 1
            g[1] += m * m
            g[2] += total * total
            g[3] += total * m
        for s in range(n):
            for t in range(n):
                a, b = seats[s], seats[t]
                if a == b:
                    continue
                cell = self.pairs.setdefault((a, b), [0, 0])
                cell[0] += 1
                cell[1] += 2 if rank[s] > rank[t] else 1 if rank[s] == rank[t] else 0

    def add_decision(self, phase: str, legal_count: int) -> None:
        """Count one decision point (used by the checked loop; the fast loop inlines it)."""
        row = self.phases.get(phase)
        if row is None:
            row = self.phases[phase] = [0, 0, 0]
        row[0] += 1
        row[1] += legal_count
        if legal_count > 1:
            row[2] += 1

    def add_failure(self, failure: Failure) -> None:
        """Count a game that did not complete; keep at most ``max_failures`` of them."""
        self.games += 1
        self.failure_kinds[failure.kind] += 1
        if len(self.failures) < self.max_failures:
            self.failures.append(failure)

    # -- merging --------------------------------------------------------------

    def merge(self, other: "Aggregate") -> None:
        """Add ``other`` (the next chunk in game order) into this aggregate."""
        n = self.num_players
        self.games += other.games
        self.completed += other.completed
        self.lengths.update(other.lengths)
        for s in range(n):
            self.score_sum[s] += other.score_sum[s]
            self.score_sq[s] += other.score_sq[s]
            self.score_hist[s].update(other.score_hist[s])
            self.decisions[s] += other.decisions[s]
            self.real[s] += other.real[s]
            self.no_decision[s] += other.no_decision[s]
            for k in range(n):
                self.wins[s][k] += other.wins[s][k]
                self.top[s][k] += other.top[s][k]
        self.shared_wins += other.shared_wins
        self.top_ties += other.top_ties
        self.margin_sum += other.margin_sum
        self.best_sum += other.best_sum
        self.best_sq += other.best_sq
        self.margin_sq += other.margin_sq
        for name, row in other.phases.items():
            mine = self.phases.setdefault(name, [0, 0, 0])
            for i in range(3):
                mine[i] += row[i]
        for i, (total, games) in enumerate(other.events):
            self.events[i][0] += total
            self.events[i][1] += games
        for mine_ev, ev_row in zip(self.event_games, other.event_games):
            for i, v in enumerate(ev_row):
                mine_ev[i] += v
        for card, card_row in other.cards.items():
            mine_c = self.cards.get(card)
            if mine_c is None:
                self.cards[card] = card_row[:]
            else:
                for i, v in enumerate(card_row):
                    mine_c[i] += v
        for name, group_row in other.card_groups.items():
            mine_g = self.card_groups.get(name)
            if mine_g is None:
                self.card_groups[name] = group_row[:]
            else:
                for i, v in enumerate(group_row):
                    mine_g[i] += v
        for i in range(4):
            self.drama[i] += other.drama[i]
        for bot, g in other.bot_games.items():
            self.bot_games[bot] = self.bot_games.get(bot, 0) + g
            row = self.bot_wins.setdefault(bot, [0] * n)
            for k, c in enumerate(other.bot_wins[bot]):
                row[k] += c
            sc = self.bot_score.setdefault(bot, [0.0, 0.0])
            sc[0] += other.bot_score[bot][0]
            sc[1] += other.bot_score[bot][1]
        for bot, by_game in other.bot_by_game.items():
            mine_g = self.bot_by_game.setdefault(bot, [0, 0.0, 0.0, 0.0])
            for i in range(4):
                mine_g[i] += by_game[i]
        for key, cell in other.pairs.items():
            mine = self.pairs.setdefault(key, [0, 0])
            mine[0] += cell[0]
            mine[1] += cell[1]
        self.failure_kinds.update(other.failure_kinds)
        room = self.max_failures - len(self.failures)
        if room > 0:
            self.failures.extend(other.failures[:room])
        if self.stats is not None and other.stats is not None:
            self.stats.merge(other.stats)
