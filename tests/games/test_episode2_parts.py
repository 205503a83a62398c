"""第2話 engine parts: codec, scoring, observation, parameters from data, bots, stats."""

from __future__ import annotations

import dataclasses
import random
import re
import shutil
from pathlib import Path

import pytest

from pnp import PROJECT_ROOT
from pnp.data import load_game_data
from pnp.errors import PnpError
from pnp.games import make_game, registered_games
from pnp.games.api import IllegalAction, NotationError
from pnp.games.episode2 import (Episode2Game, Episode2Observation, Episode2State,
                                Episode2Stats, HeuristicBot, NoRetreatBot)
from pnp.games.episode2 import scoring
from pnp.games.episode2.codec import Codec

from gamedata import build_game
from test_episode2_rules import at, legal, play, position

GAME = build_game("episode2")
assert isinstance(GAME, Episode2Game)


# ---------------------------------------------------------------- scoring (pure)

def test_scoring_rules() -> None:
    """Damage, judgement, healing and how a dry run ends (E4, E2, E6)."""
    assert scoring.roll_total([3, 4, 2], 0) == 9
    assert scoring.damage(9, 12) == 3 and scoring.damage(12, 12) == 0
    assert scoring.defeats(12, 12) and not scoring.defeats(11, 12)
    assert scoring.healed(10, 20, 5, False) == 15
    assert scoring.healed(18, 20, 5, False) == 20
    assert scoring.healed(1, 20, 1, True) == 20
    assert scoring.run_end_cause(scoring.LAST_DEFEAT) == scoring.RUN_END_WON
    assert scoring.run_end_cause(scoring.LAST_FAIL) == scoring.RUN_END_LOST
    assert scoring.run_end_cause(scoring.LAST_NONE) == scoring.RUN_END_LOST  # E6b
    assert scoring.CAUSE_OUTCOME[scoring.RETREAT] == scoring.NORMAL_CLEAR
    assert scoring.spoils_score([35, 36, 40]) == 3.0


# ---------------------------------------------------------------- codec

def test_action_texts_and_inverse() -> None:
    """Short texts, exact inverse, ASCII suit letters accepted on input."""
    c = GAME.codec
    seven = c.index["♠7"]
    d4 = c.index["♦4"]
    assert c.to_string(c.attack + seven) == "attack ♠7"
    assert c.to_string(c.hold + seven) == "attack ♠7 then discard"
    assert c.to_string(c.reroll_action(d4, 0b101)) == "reroll 1,3 with ♦4"
    assert c.to_string(c.retreat + d4) == "retreat with ♦4"
    assert c.to_string(c.discard_action([c.index["♥5"], c.index["♥2"]])) == "discard ♥2 ♥5"
    for text in ("attack ♠7", "heal ♥3", "reroll 1,3 with ♦4", "retreat with ♦4",
                 "discard ♥2 ♥5", "roll", "take damage", "end run",
                 "attack ♣10 then discard"):
        assert c.to_string(c.from_string(text)) == text
    assert c.from_string("attack S7") == c.attack + seven
    for bad in ("", "attack", "attack ♠11", "reroll 1,1 with ♦4", "reroll 7 with ♦4",
                "discard ♥2 ♥2", "jump"):
        with pytest.raises(NotationError):
            c.from_string(bad)


def test_action_blocks_do_not_overlap() -> None:
    """Every block decodes to its own kind (stable ints across states)."""
    c = Codec([f"c{i}" for i in range(35)])
    kinds = [c.decode(a)[0] for a in (0, 1, 2, 3, c.attack, c.hold, c.heal, c.retreat,
                                      c.reroll + 1, c.reroll, c.discard + 1, c.discard)]
    assert kinds == ["fixed", "fixed", "fixed", "bad", "attack", "hold", "heal", "retreat",
                     "reroll", "bad", "discard", "bad"]


def test_string_to_action_rejects_illegal_text() -> None:
    """A well-formed text that is not legal here raises IllegalAction."""
    s = at(position(hand=["♥2", "♦4", "♣7"], deck=["♥5"]))
    with pytest.raises(IllegalAction):
        s.string_to_action("attack ♠7")
    with pytest.raises(IllegalAction):
        s.string_to_action("gibberish")


# ---------------------------------------------------------------- observation

def test_observation_fields_and_hidden_information() -> None:
    """Tuples only, frozen; deck orders and future dice are not in it."""
    s = at(position(hand=["♥2", "♦4", "♣7"], deck=["♥5", "♥6", "♠2"], boss="♠K",
                    spoils=["♦J"], hp="15/20", extra="dice=1,2,3"))
    play(s, "attack ♣7")
    obs = s.observation(0)
    assert isinstance(obs, Episode2Observation)
    assert (obs.hp, obs.max_hp, obs.boss_hp, obs.dice, obs.phase) == (15, 20, 13,
                                                                      (1, 2, 3), "damage")
    assert obs.deck_size == 2 and obs.bosses_left == 10 and len(obs.spoils) == 1
    assert obs.enemy_hps == tuple(sorted(GAME.hp_of[b] for b in s.enemies))
    assert obs.attack_card == GAME.codec.index["♣7"]
    for f in dataclasses.fields(obs):
        value = getattr(obs, f.name)
        assert not isinstance(value, list), f.name
    with pytest.raises(dataclasses.FrozenInstanceError):
        obs.hp = 3  # type: ignore[misc]
    # Built with only the non-default fields in the instance dict: still equal to
    # (and hashing like) the same observation built field by field.
    for o in (obs, at(position(hand=["♥2", "♦4", "♣7"], deck=["♥5"])).observation(0)):
        full = Episode2Observation(**{f.name: getattr(o, f.name)
                                      for f in dataclasses.fields(o)})
        assert full == o and hash(full) == hash(o) and repr(full) == repr(o)
    other = s.resample_hidden(0, random.Random(1))
    assert other.observation(0) == obs and hash(other.observation(0)) == hash(obs)
    assert other.fixed == [] and other.legal_actions() == s.legal_actions()
    assert sorted(other.deck) == sorted(s.deck)


# ---------------------------------------------------------------- parameters and data

def test_parameters_default_from_the_manifest() -> None:
    """starting_hp, hand_size, attack_dice, spade_bonus come from [game.constants]."""
    consts = GAME.data.manifest.constants
    assert GAME.params["starting_hp"] == consts["starting_hp"]
    assert GAME.params["hand_size"] == consts["hand_size"]
    assert GAME.params["attack_dice"] == consts["attack_dice"]
    assert GAME.params["spade_bonus"] == consts["spade_bonus"]
    assert GAME.params["max_rerolls"] == 5 and GAME.params["reroll_dice"] == 3
    assert {p.name for p in Episode2Game.param_specs} == {
        "starting_hp", "hand_size", "attack_dice", "spade_bonus", "max_rerolls",
        "reroll_dice"}
    assert all(p.minimum is not None and p.maximum is not None
               for p in Episode2Game.param_specs)


def test_parameter_overrides_and_limits() -> None:
    """--param values win over the data; out-of-range values are PnpError (E3a)."""
    game = build_game("episode2", {"starting_hp": 12, "attack_dice": 2})
    assert isinstance(game, Episode2Game)
    s = game.new_initial_state(1, 0)
    assert (s.hp, s.max_hp) == (12, 12)
    assert game.params["reroll_dice"] == 2 and len(game.masks) == 3
    for bad in ({"starting_hp": 31}, {"starting_hp": 0}, {"hand_size": 1},
                {"nonsense": 1}):
        with pytest.raises(PnpError):
            build_game("episode2", bad)
    with pytest.raises(PnpError):
        GAME.new_initial_state(2, 0)


def test_engine_follows_edited_data(tmp_path: Path) -> None:
    """A copied data folder with other constants changes the engine (data-driven)."""
    shutil.copytree(PROJECT_ROOT / "card_data" / "episode2", tmp_path / "episode2")
    manifest = tmp_path / "episode2" / "manifest.toml"
    text = manifest.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^starting_hp = \d+", "starting_hp = 14", text)
    text = re.sub(r"(?m)^hand_size = 3", "hand_size = 4", text)
    text = re.sub(r"(?m)^spade_bonus = 1", "spade_bonus = 2", text)
    manifest.write_text(text, encoding="utf-8")
    game = make_game(load_game_data(tmp_path, "episode2", strict=True))
    assert isinstance(game, Episode2Game)
    s = game.new_initial_state(1, 4)
    assert (s.hp, s.max_hp, len(s.hand)) == (14, 14, 4)
    assert game.bonus[game.codec.index["♠7"]] == 2
    # 4+4+2 = 10 + 2 beats a 12-HP boss only with the edited bonus.
    t = game.state_from_notation(position(hand=["♠7", "♥2", "♦4", "♣7"], deck=["♥5"],
                                          hp="14/14", game=game, extra="dice=4,4,2"))
    play(t, "attack ♠7")
    assert len(t.spoils) == 1
    assert len(legal(game.state_from_notation(position(
        hand=["♥2", "♥3", "♥4", "♣7"], deck=["♥5", "♥6"], hp="14/14", game=game)))
        ) > 0


def test_starting_hp_above_the_track_is_rejected(tmp_path: Path) -> None:
    """The manifest's starting_hp_max bounds the parameter (ruling E3a)."""
    shutil.copytree(PROJECT_ROOT / "card_data" / "episode2", tmp_path / "episode2")
    manifest = tmp_path / "episode2" / "manifest.toml"
    text = manifest.read_text(encoding="utf-8")
    default = int(re.search(r"(?m)^starting_hp = (\d+)", text).group(1))  # type: ignore[union-attr]
    cap = default - 1  # a track shorter than the default starting HP
    manifest.write_text(re.sub(r"(?m)^starting_hp_max = 30", f"starting_hp_max = {cap}", text),
                        encoding="utf-8")
    data = load_game_data(tmp_path, "episode2", strict=True)
    with pytest.raises(PnpError, match="E3a"):
        make_game(data)
    assert make_game(data, {"starting_hp": cap}).params["starting_hp"] == cap


# ---------------------------------------------------------------- bots

def _act(bot_cls: type[HeuristicBot], s: Episode2State) -> str:
    bot = bot_cls(GAME, 0, random.Random(0))
    return s.action_to_string(bot.act(s.observation(0), s.legal_actions()))


def test_registered_bots() -> None:
    """random, heuristic and no_retreat are registered with the stats."""
    entry = registered_games()["episode2"]
    # The random and searching bots are registered for every game; these are 第2話's own.
    assert set(entry.bots) - {"random", "mcts"} == {"heuristic", "no_retreat"}
    assert entry.stats is Episode2Stats


def test_bot_rerolls_the_best_subset() -> None:
    """Dice 1,6,6 against 13: rerolling only the 1 always wins."""
    s = at(position(hand=["♦2", "♦4", "♣7"], deck=["♥5", "♥6", "♠2"], boss="♠K",
                    extra="dice=1,6,5"))
    play(s, "attack ♣7")
    assert _act(HeuristicBot, s) == "reroll 1 with ♦2"
    assert _act(NoRetreatBot, s) == "reroll 1 with ♦2"


def test_bot_aims_to_survive_a_lethal_failure() -> None:
    """At 2 HP a roll of 1,1,1 vs 11 kills: reroll even with the last ♦."""
    s = at(position(hand=["♦2", "♥9", "♣7"], deck=["♥5", "♥6", "♠2"], boss="♠J",
                    hp="2/20", extra="dice=1,1,1"))
    play(s, "attack ♣7")
    assert _act(HeuristicBot, s).startswith("reroll 1,2,3")


def test_bot_heals_when_a_failure_could_kill() -> None:
    """HP 9 vs a king (worst failure 10): heal first; at full HP, attack."""
    s = at(position(hand=["♥4", "♠7", "♣7"], deck=["♥5"], boss="♠K", hp="9/20"))
    assert _act(HeuristicBot, s) == "heal ♥4"
    s = at(position(hand=["♥4", "♠7", "♣7"], deck=["♥5"], boss="♠K", hp="20/20"))
    assert _act(HeuristicBot, s) == "attack ♠7"  # ♠ before ♣ (bonus)


def test_retreat_rule_differs_between_the_bots() -> None:
    """At 1 HP against a king the careful player retreats; no_retreat attacks."""
    s = at(position(hand=["♦2", "♠7", "♣7"], deck=["♥5", "♥6"], boss="♠K", hp="1/20"))
    assert _act(HeuristicBot, s) == "retreat with ♦2"
    assert _act(NoRetreatBot, s).startswith("attack")
    last = at(position(hand=["♦2"], boss="♠K", hp="5/20", extra="last=fail"))
    assert legal(last) == ["end run", "retreat with ♦2"]
    assert _act(HeuristicBot, last) == "retreat with ♦2"
    assert _act(NoRetreatBot, last) == "end run"


def test_bots_play_whole_runs() -> None:
    """Both bots finish seeded runs and win more bosses than random play."""
    means = {}
    for name, cls in registered_games()["episode2"].bots.items():
        total = 0
        for seed in range(150):
            s = GAME.new_initial_state(1, seed)
            bot = cls(GAME, 0, random.Random(seed))
            while not s.is_terminal():
                acts = s.legal_actions()
                obs = s.observation(0) if cls.needs_observation else None
                s.apply_action(bot.act(obs, acts) if len(acts) > 1 else acts[0])
            total += len(s.spoils)
        means[name] = total / 150
    assert means["heuristic"] > means["random"] + 3
    assert means["no_retreat"] > means["random"] + 3


# ---------------------------------------------------------------- stats

def _finished(text: str, *moves: str) -> Episode2State:
    s = at(text)
    play(s, *moves)
    assert s.is_terminal()
    return s


def test_stats_figures() -> None:
    """Outcome rates with intervals, spoils and HP histograms, causes, retreats."""
    retreat = _finished(position(hand=["♦4", "♣7", "♥2"], deck=["♥5"],
                                 spoils=["♦J", "♣Q"]), "retreat with ♦4")
    over = _finished(position(hand=["♥2", "♦4", "♣7"], deck=["♥5"], boss="♠K",
                              hp="3/20", extra="dice=1,1,1"), "attack ♣7", "take damage")
    dry = _finished(position(hand=["♣7", "♥2"], boss="♥J", extra="dice=1,1,1"),
                    "attack ♣7", "take damage")
    # The positions run at max HP 20, so count them as a 20-HP game does.
    game20 = build_game("episode2", {"starting_hp": 20})
    stats = Episode2Stats(game20, 1)
    stats.add(retreat, ["heuristic"])
    other = Episode2Stats(game20, 1)
    other.add(over, ["heuristic"])
    other.add(dry, ["heuristic"])
    stats.merge(other)
    fig = stats.to_dict()
    assert fig["games"] == 3
    assert fig["outcomes"]["normal_clear"]["count"] == 1
    assert fig["outcomes"]["game_over"]["count"] == 2
    assert fig["outcomes"]["true_end"]["count"] == 0
    go = fig["outcomes"]["game_over"]
    assert go["low"] < go["rate"] < go["high"]
    assert fig["spoils"]["histogram"][:3] == [2, 0, 1] and len(fig["spoils"]["histogram"]) == 13
    assert fig["spoils"]["mean"] == pytest.approx(2 / 3, abs=1e-6)
    assert fig["hp_end"]["histogram"][0] == 1 and fig["hp_end"]["histogram"][20] == 1
    assert fig["game_over_causes"]["hp_zero"]["count"] == 1
    assert fig["game_over_causes"]["run_end_after_fail"]["count"] == 1
    assert fig["retreat"]["count"] == 1 and fig["retreat"]["spoils_histogram"][2] == 1
    names = [k[0] for k in stats.key_figures(fig)]
    assert names == ["true_end", "normal_clear", "game_over", "mean_spoils"]
    lines = stats.format(fig)
    assert any(line.startswith("game over") for line in lines)
    assert all(isinstance(line, str) and "\n" not in line for line in lines)


def test_legal_action_cache_is_shared_only_between_equal_action_rules() -> None:
    """Games differing in HP share legal-action tables; other hand sizes do not;
    a pickled game (a worker's copy) plays the same."""
    import pickle
    a = build_game("episode2", {"starting_hp": 12})
    b = build_game("episode2", {"starting_hp": 18})
    c = build_game("episode2", {"hand_size": 4})
    assert isinstance(a, Episode2Game) and isinstance(b, Episode2Game)
    assert isinstance(c, Episode2Game)
    assert a._legal_cache is b._legal_cache and a._legal_cache is not c._legal_cache
    copy = pickle.loads(pickle.dumps(a))
    s, t = a.new_initial_state(1, 9), copy.new_initial_state(1, 9)
    for _ in range(12):
        if s.is_terminal():
            break
        assert s.legal_actions() == t.legal_actions()
        s.apply_action(s.legal_actions()[-1])
        t.apply_action(t.legal_actions()[-1])
    assert s.to_notation() == t.to_notation()
