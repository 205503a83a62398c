"""A searching bot for every game: information-set Monte Carlo tree search.

:class:`SearchBot` (``--bots mcts`` or ``mcts:ITERATIONS[:PLAYOUT]``) is the
single-observer information-set MCTS of Cowling, Powley and Whitehouse
(2012) with vector rewards (one per seat, so it plays 3+ player games as
max-n): each iteration

1. **determinizes**: builds a full position consistent with the bot's
   observation, drawing every hidden card (other hands, deck order, future
   dice) from the bot's own generator — :func:`determinize`, which needs the
   game's ``state_from_observation`` hook and its ``resample_hidden``;
2. **selects** down one shared tree keyed by action sequences, among the
   children legal in *this* determinization, by UCB1 with availability counts
   (a child's exploration term uses how often it was available, not the
   parent's visits);
3. **expands** one untried legal action;
4. **plays out** to the end with the game's own bot at every seat (default;
   each playout bot sees only its own observation of the determinized
   position), another registered bot (``mcts:200:greedy``) or random moves
   (``mcts:200:random``: cheaper, but in these games much weaker) — or, with
   a depth (``mcts:200:d20``), at most that many moves and then *scores* the
   unfinished position with the game's registered evaluation (early playout
   termination: Lorentz, "Early Playout Termination in MCTS", ACG 2015;
   the evaluator-at-a-leaf of OpenSpiel's MCTS and AlphaZero is the depth-0
   case, ``mcts:200:d0``);
5. **backs up** the reward vector: each node adds the reward of the seat that
   chose the action leading to it.

The move played is the root's most visited child. Forced moves (one legal
action) never enter the tree. The bot sees only its observation: the
true state never reaches it, so it chooses the same on every position with
an equal observation (``tests/games/test_conformance.py`` checks that for
every registered bot).

Rewards: a winner gets ``1/k`` (``k`` co-winners), the others 0, plus a small
score term (:data:`SCORE_WEIGHT` × the seat's return over the spread of
returns) that breaks ties between lines that win equally often. In a solo
game (one seat, which always "wins") the reward is the return itself and the
exploration term is scaled by the largest return seen in the search.

A game may define ``search_reward(state) -> list[float]`` on its Game class
when winning is not what its players aim for (第2話: a solo run's outcome,
not its boss count); the bot then maximises that instead.

Truncated playouts need the game's position evaluation, ``evaluate(state) ->
list[float]``: each seat's *expected* reward of an unfinished position, in the
units of the terminal reward (:func:`rewards`, or the game's
``search_reward``); :func:`standing_rewards` turns per-seat standings into
such a vector. A game registers it (``register_game(..., evaluate=...)``,
which calls :func:`register_evaluation`) rather than defining it on its Game
class: the evaluation sits above the engine (Undecim's asks its heuristic
bot), so the engine must not import it. A game
may set ``search_depth`` (an int) on its Game class to make truncation the
default of its ``mcts`` and ``mcts:ITERATIONS`` (a named playout bot,
``mcts:200:random``, still plays to the end); ``mcts:200:full`` then asks
for whole playouts. A game without ``evaluate`` always plays out to the end.

A game gets this bot registered automatically when its :class:`Game` class
defines ``state_from_observation(observation) -> State`` (see
:func:`pnp.games.registry.register_game`).
"""

from __future__ import annotations

import math
import random
import re
from functools import partial
from typing import Any, Callable, ClassVar, Mapping, Sequence

from pnp.errors import PnpError
from pnp.games.api import Game, Observation, State
from pnp.games.bots import Bot, BotFactory, RandomBot

#: Iterations per decision when ``--bots mcts`` gives none.
DEFAULT_BUDGET = 100
#: Iterations of a bot built from the class alone (``SearchBot(game, seat, rng)``,
#: as generic tests do): a quick, weak searcher with random playouts.
CLASS_BUDGET = 4
#: Most iterations one decision may use (a typo such as mcts:2000000 fails fast).
MAX_BUDGET = 100_000
#: UCB1 exploration constant for rewards in [0, 1] (√2 / 2, a common choice
#: for win/loss rewards; larger explores more).
EXPLORATION = 0.7
#: Exploration constant of a solo game, per unit of the spread of returns seen.
SOLO_EXPLORATION = 0.25
#: Weight of the score term in the reward (win credit dominates).
SCORE_WEIGHT = 0.1
#: Progressive bias towards the playout bot's choice: a bonus of BIAS / (visits + 1)
#: in reward units (0.3 of a win at first, a tenth of that after nine visits).
BIAS = 0.3
#: Largest playout depth ``mcts:ITER:dDEPTH`` takes (a typo such as d20000000
#: fails fast; no game here lasts 10,000 moves).
MAX_DEPTH = 10_000
#: ``depth`` of a bot asked for whole playouts (``mcts:200:full``), whatever the
#: game's default.
FULL = -1


#: A depth field of the spec: ``d`` and a whole number (``d0``, ``d20``).
_DEPTH = re.compile(r"d[0-9]{1,9}")

#: A position evaluation: each seat's expected reward of an unfinished position.
Evaluation = Callable[[Any], list[float]]
#: Registered evaluations by Game class (:func:`register_evaluation`).
_EVALUATIONS: dict[type, Evaluation] = {}


def register_evaluation(game_class: type[Game[Any]], evaluate: Evaluation) -> None:
    """Give ``game_class``'s searching bot a position evaluation for truncated playouts."""
    _EVALUATIONS[game_class] = evaluate


def evaluation_of(game: Game[Any]) -> Evaluation | None:
    """The evaluation registered for ``game``'s class or the nearest base, or None."""
    for cls in type(game).__mro__:
        found = _EVALUATIONS.get(cls)
        if found is not None:
            return found
    return None


def can_search(game_class: type[Game[Any]]) -> bool:
    """True when ``game_class`` offers the ``state_from_observation`` hook."""
    return callable(getattr(game_class, "state_from_observation", None))


def determinize(game: Game[Any], observation: Observation, rng: random.Random) -> State[Any]:
    """A full position consistent with ``observation``, hidden parts drawn from ``rng``.

    ``game.state_from_observation(observation)`` builds *one* position that
    gives ``observation`` (hidden cards placed in a fixed order: a function of
    the observation alone); ``resample_hidden`` then redeals everything the
    seat cannot see with ``rng``. The result depends on nothing but the
    observation and the generator.
    """
    hook = getattr(game, "state_from_observation")
    base: State[Any] = hook(observation)
    return base.resample_hidden(observation.seat, rng)


def rewards(state: State[Any]) -> list[float]:
    """Reward per seat of a terminal ``state``: win credit plus a small score term."""
    ret = [float(v) for v in state.returns()]
    n = len(ret)
    if n == 1:
        return ret
    winners = set(state.winners())
    credit = 1.0 / len(winners) if winners else 0.0
    lo, hi = min(ret), max(ret)
    spread = hi - lo
    if spread <= 0:
        return [(credit if s in winners else 0.0) + SCORE_WEIGHT * 0.5 for s in range(n)]
    return [(credit if s in winners else 0.0) + SCORE_WEIGHT * (ret[s] - lo) / spread
            for s in range(n)]


def standing_rewards(standings: Sequence[float], scale: float) -> list[float]:
    """Expected :func:`rewards` of an unfinished position from each seat's standing.

    ``standings`` are the seats' scores as they stand (or as they would end
    if play stopped now), in the units of ``returns()``; ``scale`` is how far,
    in those units, the rest of the game may still move one seat against
    another (0 at the end). The win credit is a softmax of the standings at
    temperature ``scale`` — the logistic (Bradley–Terry) model of a lead
    surviving noise of that size — so a clear leader gets nearly 1 and seats
    level share it; the score term is :func:`rewards`' own. Every entry is in
    [0, 1 + SCORE_WEIGHT] and the credits sum to 1, as at a real end.
    """
    n = len(standings)
    top = max(standings)
    lo = min(standings)
    if scale <= 0:
        # No uncertainty left: the leaders share the win, as rewards() splits it.
        leaders = [s for s in range(n) if standings[s] == top]
        credit = [1.0 / len(leaders) if standings[s] == top else 0.0 for s in range(n)]
    else:
        # Shifted by the top standing so exp never overflows.
        w = [math.exp((v - top) / scale) for v in standings]
        total = sum(w)
        credit = [x / total for x in w]
    spread = top - lo
    if spread <= 0:
        return [c + SCORE_WEIGHT * 0.5 for c in credit]
    return [c + SCORE_WEIGHT * (v - lo) / spread for c, v in zip(credit, standings)]


class _Node:
    """One tree node: reached by ``action`` chosen by ``player``."""

    __slots__ = ("player", "visits", "avail", "total", "sq", "children")

    def __init__(self, player: int) -> None:
        self.player = player
        self.visits = 0
        self.avail = 1
        self.total = 0.0
        self.sq = 0.0
        self.children: dict[int, _Node] = {}


class SearchBot(Bot):
    """Information-set MCTS over determinizations of the bot's observation."""

    name = "mcts"
    summary = ("information-set Monte Carlo tree search; mcts:ITERATIONS[:PLAYOUT][:dDEPTH] "
               f"(default {DEFAULT_BUDGET} iterations, the game's own bot plays out to the "
               "end; :dDEPTH stops each playout after DEPTH moves and scores the position, "
               ":full plays out to the end)")
    needs_observation = True
    #: True for every searching bot (the ladder looks for it).
    searches: ClassVar[bool] = True

    def __init__(self, game: Game[Any], seat: int, rng: random.Random,
                 budget: int = CLASS_BUDGET,
                 playout: type[Bot] | None = None, depth: int | None = None) -> None:
        """Seat the bot with ``budget`` iterations per decision, a playout bot class
        and a playout depth.

        ``depth`` None takes the game's ``search_depth`` (whole playouts if it
        has none), :data:`FULL` plays to the end, ``d ≥ 0`` stops after ``d``
        moves and scores the position with the game's registered evaluation
        (:func:`evaluation_of`). The defaults
        (:data:`CLASS_BUDGET`, random playouts) make a quick bot for generic
        tests; ``--bots mcts`` goes through :meth:`configure`.
        """
        super().__init__(game, seat, rng)
        self.budget = budget
        self.playout = playout if playout is not None and playout is not RandomBot else None
        evaluate = evaluation_of(game)
        if depth is None:
            depth = getattr(game, "search_depth", None) if evaluate is not None else None
        if depth is not None and depth >= 0 and evaluate is None:
            raise PnpError(f"--bots {self.name}:…:d{depth}: {game.slug} has no position "
                           "evaluation (register_game(evaluate=...)), so its playouts go to "
                           f"the end; leave out :d{depth}")
        #: Moves a playout may make before the position is scored; None: to the end.
        self.depth: int | None = depth if depth is not None and depth >= 0 else None
        self._evaluate: Callable[[State[Any]], list[float]] | None = (
            evaluate if self.depth is not None else None)

    @classmethod
    def configure(cls, option: str | None, bots: Mapping[str, type[Bot]]) -> BotFactory:
        """The factory for ``mcts`` or ``mcts:ITERATIONS[:PLAYOUT][:dDEPTH|:full]``.

        Without a playout name the game's own playing bot plays the playouts
        (the first registered bot that neither searches nor is random), or
        random moves if it has none; ``:random`` asks for random playouts.
        ``:dDEPTH`` stops every playout after DEPTH moves (0 ≤ DEPTH ≤
        :data:`MAX_DEPTH`) and scores the position with the game's ``evaluate``;
        ``:full`` plays to the end even where the game's default truncates;
        without either, the game's ``search_depth`` decides for the default
        playouts only: a named playout bot (``mcts:200:random``) plays to the
        end, as it always did. The fields after ITERATIONS may come in either
        order.
        """
        text, _, rest = (option or "").partition(":")
        usage = (f"expected {cls.name}:ITERATIONS with 1 ≤ ITERATIONS ≤ {MAX_BUDGET}, "
                 f"optionally :PLAYOUT and :dDEPTH (0 ≤ DEPTH ≤ {MAX_DEPTH}) or :full "
                 f"(e.g. {cls.name}:200, {cls.name}:200:random or {cls.name}:200:d20)")
        budget = DEFAULT_BUDGET
        if text:
            try:
                budget = int(text)
            except ValueError:
                budget = -1
        if not 1 <= budget <= MAX_BUDGET:
            raise PnpError(f"--bots {cls.name}:{option}: {usage}")
        playable = {n: b for n, b in bots.items() if not getattr(b, "searches", False)}
        playout_name: str | None = None
        depth: int | None = None
        for field in rest.split(":") if rest else ():
            if field == "full" or _DEPTH.fullmatch(field):
                if depth is not None:
                    raise PnpError(f"--bots {cls.name}:{option}: two depths; {usage}")
                depth = FULL if field == "full" else int(field[1:])
                if depth > MAX_DEPTH:
                    raise PnpError(f"--bots {cls.name}:{option}: {usage}")
            elif playout_name is None and field in playable:
                playout_name = field
            else:
                what = "two playout bots" if playout_name is not None and field in playable \
                    else f"no playout bot {field!r} (have: {', '.join(sorted(playable))})"
                raise PnpError(f"--bots {cls.name}:{option}: {what}; {usage}")
        if playout_name is not None:
            playout: type[Bot] | None = playable[playout_name]
            if depth is None:
                # A game's default depth was measured with its own bot's playouts;
                # a named playout bot keeps the whole playouts it always had.
                depth = FULL
        else:
            playout = next((b for n, b in playable.items() if b is not RandomBot), None)
        return partial(cls, budget=budget, playout=playout, depth=depth)

    def act(self, observation: Observation | None, legal_actions: Sequence[int]) -> int:
        """The root action searched most often in ``budget`` iterations."""
        assert observation is not None
        rng = self.rng
        rnd = rng.random
        game = self.game
        root = _Node(self.seat)
        playout = self.playout
        # The playout bot also guides the tree (progressive bias): its choice
        # is expanded first and gets a bonus that fades with visits, so a small
        # budget refines the heuristic's play instead of sampling blindly.
        guides: dict[int, Bot] = {}
        solo = game.max_players == 1
        c = EXPLORATION
        bias = BIAS
        lo_r: float | None = None
        hi_r: float | None = None
        reward_of: Callable[[State[Any]], list[float]] = getattr(game, "search_reward", rewards)
        depth = self.depth
        evaluate = self._evaluate
        root_hint = -1
        for _ in range(self.budget):
            state = determinize(game, observation, rng)
            node = root
            path = [root]
            expanded = False
            while True:
                p = state.current_player()
                if p < 0:
                    break
                legal = state.legal_actions()
                if len(legal) == 1:
                    state.apply_action(legal[0])
                    continue
                hint = -1
                if playout is not None:
                    guide = guides.get(p)
                    if guide is None:
                        guide = guides[p] = playout(game, p, rng)
                    hint = guide.act(state.observation(p) if guide.needs_observation else None,
                                     legal)
                    if node is root and root_hint < 0:
                        root_hint = hint
                children = node.children
                if hint >= 0 and hint not in children:
                    untried = [hint]
                else:
                    untried = [a for a in legal if a not in children]
                if untried:
                    a = untried[int(rnd() * len(untried))]
                    child = children[a] = _Node(p)
                    for b in legal:
                        if b != a and b in children:
                            children[b].avail += 1
                    state.apply_action(a)
                    path.append(child)
                    expanded = True
                    break
                # Every legal action has a child: UCB1 with availability counts.
                best = -math.inf
                pick = legal[0]
                for b in legal:
                    ch = children[b]
                    v = ch.visits
                    score = ch.total / v + c * math.sqrt(math.log(ch.avail) / v)
                    if b == hint:
                        score += bias / (v + 1)
                    if score > best:
                        best, pick = score, b
                    ch.avail += 1
                node = children[pick]
                state.apply_action(pick)
                path.append(node)
            if expanded:
                _playout(state, rnd, playout, game, rng, depth)
            if evaluate is not None and state.current_player() >= 0:
                # A truncated playout: score the unfinished position.
                reward = evaluate(state)
            else:
                reward = reward_of(state)
            if solo:
                # Returns are not in [0, 1]: scale exploration and bias by the
                # spread of returns seen so far in this search.
                r0 = reward[0]
                lo_r = r0 if lo_r is None or r0 < lo_r else lo_r
                hi_r = r0 if hi_r is None or r0 > hi_r else hi_r
                spread = max(hi_r - lo_r, 1e-9)
                c, bias = SOLO_EXPLORATION * spread, BIAS * spread
            for n in path:
                r = reward[n.player]
                n.visits += 1
                n.total += r
                n.sq += r * r
        kids = root.children
        best = max(legal_actions,
                   key=lambda a: (kids[a].visits, kids[a].total) if a in kids else (-1, 0.0))
        if root_hint >= 0 and root_hint != best and root_hint in kids:
            # Keep the playout bot's own move unless the search found a move
            # better by more than its noise (one standard error of the gap).
            top, own = kids[best], kids[root_hint]
            if top.visits < 2 or own.visits < 2:
                return root_hint  # no evidence yet: one playout each says little

            def var(n: _Node) -> float:
                return max(n.sq / n.visits - (n.total / n.visits) ** 2, 0.0) / n.visits

            gap = top.total / top.visits - own.total / own.visits
            if gap <= math.sqrt(var(top) + var(own)):
                return root_hint
        return best


def _playout(state: State[Any], rnd: Callable[[], float], playout: type[Bot] | None,
             game: Game[Any], rng: random.Random, depth: int | None = None) -> None:
    """Play ``state`` on: random moves, or the playout bot at every seat.

    To the end when ``depth`` is None, else for at most ``depth`` moves
    (every applied action counts, forced ones too: the depth is a number of
    plies, as in Lorentz's early playout termination).
    """
    cur = state.current_player
    legal_of = state.legal_actions
    apply = state.apply_action
    # Whole playouts count down from a number no game reaches (the runner's
    # step cap stops far earlier), so both kinds share one loop.
    left = depth if depth is not None else 1 << 62
    if playout is None:
        while left > 0 and cur() >= 0:
            legal = legal_of()
            apply(legal[int(rnd() * len(legal))])
            left -= 1
        return
    bots: dict[int, Bot] = {}
    observe = state.observation
    wants = playout.needs_observation
    while left > 0 and (p := cur()) >= 0:
        left -= 1
        legal = legal_of()
        if len(legal) == 1:
            apply(legal[0])
            continue
        bot = bots.get(p)
        if bot is None:
            bot = bots[p] = playout(game, p, rng)
        apply(bot.act(observe(p) if wants else None, legal))


__all__ = ["BotFactory", "DEFAULT_BUDGET", "evaluation_of", "register_evaluation", "EXPLORATION", "FULL", "MAX_DEPTH", "SearchBot",
           "can_search", "determinize", "rewards", "standing_rewards"]
