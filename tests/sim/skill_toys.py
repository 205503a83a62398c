"""Two tiny perfect-skill and pure-luck games for the skill-ladder tests.

* ``nim``: a pile of ``tokens``; players alternately take 1–3; whoever takes
  the last token wins. Skill provably matters: from a pile that is not a
  multiple of 4 the player to move wins with perfect play, and a searcher
  that looks further finds that play against a random opponent more often.
* ``coin``: five turns each of choosing 0 or 1, which changes nothing; the
  winner is a coin flipped at the deal and hidden from both players (and
  redrawn by ``resample_hidden``). No amount of search can help.

Both implement the whole engine API, including ``state_from_observation``,
so the registry gives them the searching bot ``mcts``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from pnp.data import load_game_data
from pnp.games.api import TERMINAL, Game, NotationError, Observation, Param, State, illegal
from pnp.games.registry import register_game

DATA = Path(__file__).resolve().parent / "toy_data"


@dataclass(frozen=True)
class PileObservation(Observation):
    """Everything public: the pile (nim) or the turns left (coin)."""

    left: int


class _TwoPlayer(State[Any]):
    """Shared parts: two seats alternating, ``left`` counting down to the end."""

    def __init__(self, game: Any, left: int, player: int = 0, coin: int = 0) -> None:
        """A position: ``left`` tokens or turns, ``player`` to move, the hidden ``coin``."""
        self.game = game
        self.num_players = 2
        self.left = left
        self.player = player
        self.coin = coin  # coin only: the hidden winner
        self.winner = -1
        self.n = 0

    def current_player(self) -> int:
        """Seat to move, or TERMINAL."""
        return TERMINAL if self.winner >= 0 else self.player

    def is_terminal(self) -> bool:
        """True once someone has won."""
        return self.winner >= 0

    def returns(self) -> list[float]:
        """1 for the winner, 0 for the other."""
        return [1.0 if s == self.winner else 0.0 for s in range(2)]

    def winners(self) -> list[int]:
        """The one winner."""
        return [self.winner]

    def clone(self) -> "_TwoPlayer":
        """An independent copy."""
        new = type(self)(self.game, self.left, self.player, self.coin)
        new.winner, new.n = self.winner, self.n
        return new

    def action_to_string(self, action: int) -> str:
        """The number itself."""
        return str(action)

    def string_to_action(self, text: str) -> int:
        """Inverse of action_to_string."""
        return int(text)

    def observation(self, player: int) -> PileObservation:
        """Everything but the coin."""
        return PileObservation(seat=player, current_player=self.current_player(),
                               phase=self.phase(), left=self.left)

    def zones(self) -> Iterable[tuple[str, Iterable[int]]]:
        """No cards."""
        return []

    def turns(self) -> int:
        """Moves made."""
        return self.n

    def events(self) -> Mapping[str, int]:
        """No rule events."""
        return {}

    def phase(self) -> str:
        """main or over."""
        return "over" if self.winner >= 0 else "main"

    def to_notation(self) -> str:
        """``left|player|coin|winner|moves``."""
        return f"{self.left}|{self.player}|{self.coin}|{self.winner}|{self.n}"


class NimState(_TwoPlayer):
    """A nim position."""

    def legal_actions(self) -> list[int]:
        """Take 1, 2 or 3 (no more than are left)."""
        return [] if self.winner >= 0 else [k for k in (1, 2, 3) if k <= self.left]

    def apply_action(self, action: int) -> None:
        """Take ``action`` tokens; taking the last one wins."""
        if action not in self.legal_actions():
            raise illegal(self, action)
        self.left -= action
        self.n += 1
        if self.left == 0:
            self.winner = self.player
        self.player = 1 - self.player

    def resample_hidden(self, player: int, rng: random.Random) -> "NimState":
        """Nothing is hidden: a copy."""
        clone = self.clone()
        assert isinstance(clone, NimState)
        return clone


class CoinState(_TwoPlayer):
    """A coin position."""

    def legal_actions(self) -> list[int]:
        """Two moves that change nothing."""
        return [] if self.winner >= 0 else [0, 1]

    def apply_action(self, action: int) -> None:
        """A dummy move; after the last turn the coin decides."""
        if action not in self.legal_actions():
            raise illegal(self, action)
        self.left -= 1
        self.n += 1
        self.player = 1 - self.player
        if self.left == 0:
            self.winner = self.coin

    def resample_hidden(self, player: int, rng: random.Random) -> "CoinState":
        """The coin, flipped again."""
        clone = self.clone()
        assert isinstance(clone, CoinState)
        clone.coin = int(rng.random() * 2)
        return clone


class _ToyBase(Game[Any]):
    min_players = 2
    max_players = 2
    state_class: type[_TwoPlayer]

    def deck(self) -> Sequence[int]:
        """No cards."""
        return ()

    def state_from_notation(self, text: str) -> Any:
        """Read :meth:`_TwoPlayer.to_notation`."""
        try:
            left, player, coin, winner, n = (int(x) for x in text.split("|"))
        except ValueError:
            raise NotationError(f"{self.slug}: bad notation {text!r}") from None
        st = self.state_class(self, left, player, coin)
        st.winner, st.n = winner, n
        return st

    def state_from_observation(self, obs: PileObservation) -> Any:
        """The public position; the coin (hidden) is set to 0 and redrawn by resampling."""
        st = self.state_class(self, obs.left, max(obs.current_player, 0), 0)
        return st


class NimGame(_ToyBase):
    """Nim: take 1–3, the last token wins."""

    slug = "nim"
    param_specs = (Param("tokens", 21, "tokens in the pile", minimum=1, maximum=200),)
    state_class = NimState

    def new_initial_state(self, num_players: int, seed: int) -> NimState:
        """A full pile, seat 0 to move."""
        self.check_players(num_players)
        return NimState(self, self.params["tokens"])


class CoinGame(_ToyBase):
    """Coin: nothing you do matters."""

    slug = "coin"
    state_class = CoinState

    def new_initial_state(self, num_players: int, seed: int) -> CoinState:
        """Ten dummy turns; the coin is flipped now, from the deal seed."""
        self.check_players(num_players)
        return CoinState(self, 10, 0, random.Random(seed).randrange(2))


register_game(NimGame)
register_game(CoinGame)


def toy_game(slug: str, params: Mapping[str, Any] | None = None) -> Game[Any]:
    """``nim`` or ``coin`` built from ``toy_data/<slug>``."""
    cls = NimGame if slug == "nim" else CoinGame
    return cls(load_game_data(DATA, slug, strict=True), params)
