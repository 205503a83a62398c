"""9 Peak position notation, action codec, illegal actions and hidden-card resampling."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from pnp.games.api import IllegalAction, NotationError
from pnp.games.nine_peak import NinePeakGame, NinePeakState
from pnp.games.nine_peak.codec import ActionCodec, parse_cards, type_codes
from pnp.games.nine_peak.notation import Position, read, write

from gamedata import build_game

GAME = build_game("nine_peak")
assert isinstance(GAME, NinePeakGame)
CODES = GAME.type_code


def at(text: str) -> NinePeakState:
    """The position written as ``text``."""
    return GAME.state_from_notation(text)


def play(state: NinePeakState, *moves: str) -> None:
    """Apply moves given as action text."""
    for move in moves:
        state.apply_action(state.string_to_action(move))


def snapshot(state: NinePeakState) -> tuple[object, ...]:
    """Everything a state holds, caches and counters included (for no-change checks)."""
    return (state.to_notation(), [(n, list(z)) for n, z in state.zones()],
            [h[:] for h in state.hc], [h[:] for h in state.hn], state.ac[:],
            dict(state.events()), state.declared, state.last_pick, state.first_type,
            state.pending, [k[:] for k in state.known], state.turns())


# ---------------------------------------------------------------- codec

def test_type_codes_and_action_layout() -> None:
    """30 types coded number + suit letter; the action blocks as documented."""
    assert len(CODES) == 30 and CODES[:6] == ("1S", "1F", "1C", "1B", "1P", "2S")
    assert CODES[-1] == "6P"
    c = GAME.codec
    assert (c.A_PASS1, c.A_PASS2, c.A_PLAY, c.A_SECOND, c.A_TAKE, c.A_PICK, c.A_KEEP,
            c.A_PLACE_DRAWN, c.num_distinct_actions) == (0, 30, 60, 69, 99, 129, 159, 160, 161)
    assert GAME.A_PICK == c.A_PICK and GAME.num_distinct_actions == 161


def test_colour_letter_only_when_needed() -> None:
    """A colour letter is added only when number and suit do not identify a type."""
    assert type_codes([1, 1], [0, 1], [0, 0]) == ("1S", "1F")
    assert type_codes([1, 1, 2], [0, 0, 0], [0, 1, 0]) == ("1Sk", "1Sr", "2S")
    assert parse_cards("1Sr2S1Sk", {"1Sk": 0, "1Sr": 1, "2S": 2}) == [1, 2, 0]


@pytest.mark.parametrize("action,text", [
    (0, "pass 1S"), (29, "pass 6P"), (30, "pass2 1S"), (45, "pass2 4S"),
    (60, "declare 1"), (68, "declare 9"), (69, "second 1S"), (98, "second 6P"),
    (99, "take 1S"), (110, "take 3F"), (129, "pick 1S"), (158, "pick 6P"),
    (159, "keep"), (160, "place")])
def test_action_text_known_answers(action: int, text: str) -> None:
    """Each block's text, and its exact inverse."""
    assert GAME.codec.to_string(action) == text
    assert GAME.codec.from_string(text) == action


def test_every_action_text_round_trips() -> None:
    """Every action int has a distinct text that decodes back to it."""
    c = GAME.codec
    texts = [c.to_string(a) for a in range(c.num_distinct_actions)]
    assert len(set(texts)) == len(texts)
    assert [c.from_string(t) for t in texts] == list(range(c.num_distinct_actions))


@pytest.mark.parametrize("text", ["", "pass", "pass 7S", "pass 1X", "declare 0",
                                  "declare 10", "declare x", "keep 1S", "jump 1S",
                                  "pass 1S 2S"])
def test_bad_action_text(text: str) -> None:
    """Text that names no action raises IllegalAction."""
    with pytest.raises(IllegalAction):
        GAME.codec.from_string(text)


def test_out_of_range_int_and_illegal_text() -> None:
    """Out-of-range ints are not actions; a well-formed but illegal text is refused."""
    with pytest.raises(IllegalAction):
        GAME.codec.to_string(161)
    with pytest.raises(IllegalAction):
        GAME.codec.to_string(-1)
    s = at("n=4 hands=3S4F/6B/6B/6B")
    assert s.string_to_action("pass 4F") == 16
    with pytest.raises(IllegalAction):
        s.string_to_action("pass 5F")  # not in hand
    with pytest.raises(IllegalAction):
        s.string_to_action("keep")  # wrong phase


def test_codec_for_another_table() -> None:
    """The layout follows the number of types in the data."""
    c = ActionCodec(["1S", "2S"])
    assert (c.A_PLAY, c.A_SECOND, c.A_KEEP, c.num_distinct_actions) == (4, 13, 19, 21)
    assert c.decode(5) == ("declare", 2) and c.to_string(14) == "second 2S"


# ---------------------------------------------------------------- notation: known answers

def test_defaults_expand_to_the_canonical_text() -> None:
    """Omitted fields take their defaults; the writer spells out the canonical form."""
    s = at("n=3 hands=1S/2S/3S deck=4S4F")
    text = s.to_notation()
    assert text.startswith("n=3 turn=1 to=0 phase=main area=- hands=1S/2S/3S deck=4S4F "
                           "discard=1S1S1F")
    assert s.to_notation() == at(text).to_notation()
    # deck= absent: every card named nowhere forms the deck, lowest id on top
    t = at("n=3 hands=1S/2S/3S")
    assert t.to_notation().endswith("discard=-")
    assert " deck=1S1S1F1F1F" in t.to_notation()
    assert len(t.deck) == 75 and GAME.card_name(t.deck[-1]) == "1S"


def test_initial_state_notation() -> None:
    """A dealt state writes every zone and reads back card for card."""
    s = GAME.new_initial_state(4, 3)
    text = s.to_notation()
    fields = dict(f.split("=", 1) for f in text.split())
    assert list(fields) == ["n", "turn", "to", "phase", "area", "hands", "deck", "discard"]
    assert fields["n"] == "4" and fields["phase"] == "main"
    assert [len(h) // 2 for h in fields["hands"].split("/")] == [13] * 4
    assert len(fields["deck"]) // 2 == len(s.deck)
    again = at(text)
    assert [[GAME.card_name(c) for c in h] for h in again.hands] == \
        [[GAME.card_name(c) for c in h] for h in s.hands]
    assert [GAME.card_name(c) for c in again.deck] == [GAME.card_name(c) for c in s.deck]
    assert again.legal_actions() == s.legal_actions()


def test_mid_pass_positions_round_trip() -> None:
    """The 2-for-1 sub-phases write the first card; the take records a known card."""
    s = at("n=4 hands=5B5P3S/6B/6B/6B area=2S5S5F5C deck=1S")
    play(s, "pass2 5B")
    assert "phase=second:5B area=2S5S5F5C5B hands=5P3S/" in s.to_notation()
    play(s, "second 5P")
    assert "phase=take:5B area=2S5S5F5C5B5P hands=3S/" in s.to_notation()
    assert at(s.to_notation()).legal_actions() == s.legal_actions()
    play(s, "take 2S")
    text = s.to_notation()
    assert text.startswith("n=4 turn=2 to=1 phase=main peaked=5 area=- hands=3S2S/6B/6B/6B "
                           "known=2S/-/-/- peaks=5S5F5C5B5P/-/-/- deck=1S discard=")
    assert at(text).to_notation() == text


def test_pick_and_keep_positions_round_trip() -> None:
    """A set being picked and a drawn card awaiting the keep choice are written."""
    s = at("n=4 hands=2S2F2C2B5S/6B/6B/6B deck=1S")
    play(s, "declare 2", "pick 2F")
    text = s.to_notation()
    assert "phase=pick:2:2F " in text and "hands=2S2C2B5S/" in text
    again = at(text)
    assert again.to_notation() == text
    assert again.legal_actions() == s.legal_actions() == [GAME.A_PICK + 7, GAME.A_PICK + 8]
    play(s, "pick 2B")
    text = s.to_notation()
    assert "phase=keep:1S " in text and "sets=2F2B/-/-/-" in text and "deck=- " in text
    assert at(text).to_notation() == text
    assert at(text).observation(0).pending >= 0


def test_trigger_prev_and_over_round_trip() -> None:
    """The end trigger, an overridden previous size and the end of the game are written."""
    s = at("n=4 to=1 prev=0,0,3,0 hands=1S4S/2S/3S4F/1C4C")
    assert "prev=0,0,3,0" in s.to_notation()
    play(s, "pass 2S")
    assert "trigger=1" in s.to_notation() and s.trigger_seat == 1
    play(s, "pass 3S", "pass 1C")
    text = s.to_notation()
    assert text.startswith("n=4 turn=3 to=3 phase=over trigger=1 ")
    over = at(text)
    assert over.is_terminal() and over.to_notation() == text
    assert over.returns() == s.returns()
    # prev equal to the last set's size is the default and not written
    t = at("n=3 hands=1S/2S/3S sets=4S4F/-/- prev=2,0,0")
    assert "prev=" not in t.to_notation() and t.prev == [2, 0, 0]


def test_position_writer_and_reader() -> None:
    """The notation module reads and writes plain positions without the engine."""
    pos = Position(3, turn=5, seat=2, phase="pick", declared=3, picked=[0],
                   peaked=[False, True, False, False, False, False], area=[5],
                   hands=[[1], [], [2, 2]], known=[[], [], [2]], sets=[[], [[7, 8]], []],
                   prev=[0, 2, 0], peaks=[[], [], [9]], deck=[10], discard=[11])
    text = write(pos, CODES)
    assert text == ("n=3 turn=5 to=2 phase=pick:3:1S peaked=2 area=2S hands=1F/-/1C1C "
                    "known=-/-/1C sets=-/2C2B/- peaks=-/-/2P deck=3S discard=3F")
    back = read(text, CODES)
    assert write(back, CODES) == text and back.hands == pos.hands and back.sets == pos.sets


@pytest.mark.parametrize("text,match", [
    ("hands=1S/2S/3S", "required"),
    ("n=3", "required"),
    ("n=3 hands=1S/2S", "entries"),
    ("n=2 hands=1S/2S", "3–5 players"),
    ("n=3 hands=1S/2S/3S colour=red", "unknown key"),
    ("n=3 hands=1S/2S/3S n=3", "twice"),
    ("n=3 hands=1S/2S/3S turn", "key=value"),
    ("n=3 hands=1S/2S/7S", "card code"),
    ("n=3 hands=1P1P/2S/3S", "printed"),
    ("n=3 hands=1S/2S/3S phase=dance", "phase"),
    ("n=3 hands=1S/2S/3S phase=second", "names one card"),
    ("n=3 hands=1S/2S/3S phase=pick:2:1S2S", "complete"),
    ("n=3 hands=1S/2S/3S phase=main:1S", "no argument"),
    ("n=3 hands=1S/2S/3S to=3", "to="),
    ("n=3 hands=1S/2S/3S peaked=77", "peaked"),
    ("n=3 hands=1S/2S/3S deck=- discard=-", "in no zone"),
    ("n=3 hands=1S/2S/3S discard=-", "needs deck"),
    ("n=3 hands=-/2S/3S", "no legal action"),
    ("n=3 hands=1S/2S/3S known=2S/-/-", "known"),
    ("n=3 hands=1S/2S/3S sets=1F,,2F/-/-", "empty set"),
    ("n=3 hands=1S/2S/3S phase=take:4S area=-", "no legal action"),
])
def test_bad_notation(text: str, match: str) -> None:
    """Unreadable or impossible positions raise NotationError with a reason."""
    with pytest.raises(NotationError, match=match):
        at(text)


# ---------------------------------------------------------------- illegal actions change nothing

def test_half_applied_defects_are_gone() -> None:
    """Moves the old engine half-applied (or wrongly accepted) now raise and change nothing."""
    cases = [
        # declare 2 with one card usable as 2: the old engine laid a one-card "set"
        ("n=4 hands=1S2S/6B/6B/6B", GAME.A_PLAY + 1),
        # declare 3 with only two cards in hand
        ("n=4 hands=3S3F/6B/6B/6B", GAME.A_PLAY + 2),
        # 2-for-1 starting with the highest type held once: no second card may follow
        ("n=4 hands=2S3S/6B/6B/6B", GAME.A_PASS2 + GAME.codec.index["3S"]),
        # a pick after which the set of 3 could not be finished
        ("n=4 hands=3S3F3C3B3P/6B/6B/6B phase=pick:3:- ", GAME.A_PICK + GAME.codec.index["3P"]),
        # a second card of a type below the first
        ("n=4 hands=1S4S/6B/6B/6B area=3S phase=second:3S", GAME.A_SECOND + 0),
        # taking a card the area does not hold
        ("n=4 hands=1S/6B/6B/6B area=2S3S phase=take:2S", GAME.A_TAKE + 0),
    ]
    for text, action in cases:
        s = at(text)
        before = snapshot(s)
        assert action not in s.legal_actions()
        with pytest.raises(IllegalAction):
            s.apply_action(action)
        assert snapshot(s) == before, text


def _states_in_every_phase() -> list[NinePeakState]:
    """Positions from seeded random games, including every sub-phase several times."""
    found: list[NinePeakState] = []
    per_phase: Counter[str] = Counter()
    for seed in range(40):
        s = GAME.new_initial_state(3 + seed % 3, seed)
        rng = random.Random(seed)
        while True:
            if per_phase[s.phase()] < 25 and rng.random() < 0.3:
                found.append(s.clone())
                per_phase[s.phase()] += 1
            if s.is_terminal():
                break
            la = s.legal_actions()
            s.apply_action(la[int(rng.random() * len(la))])
    assert set(per_phase) == set(GAME.phase_names), per_phase
    return found


def test_illegal_actions_change_nothing_in_any_phase() -> None:
    """Every int that is not legal raises IllegalAction and leaves the state as it was."""
    states = _states_in_every_phase()
    tried = 0
    for s in states:
        before = snapshot(s)
        la = set(s.legal_actions())
        for a in range(-3, GAME.num_distinct_actions + 3):
            if a in la:
                continue
            with pytest.raises(IllegalAction):
                s.apply_action(a)
            tried += 1
        assert snapshot(s) == before, s.to_notation()
        for a in la:  # and every legal one still applies afterwards
            s.clone().apply_action(a)
    assert tried > 10_000


# ---------------------------------------------------------------- observation and resampling

def test_resample_keeps_what_the_player_saw() -> None:
    """Other hands and the deck are redealt with sizes kept; own hand and public zones stay."""
    s = GAME.new_initial_state(4, 21)
    for _ in range(12):
        la = s.legal_actions()
        s.apply_action(la[len(la) // 2])
    p = s.current_player()
    obs = s.observation(p)
    changed = 0
    for k in range(20):
        other = s.resample_hidden(p, random.Random(k))
        assert other.observation(p) == obs
        assert other.legal_actions() == s.legal_actions()
        assert [len(h) for h in other.hands] == [len(h) for h in s.hands]
        assert Counter(c for _, z in other.zones() for c in z) == Counter(GAME.deck())
        changed += other.hands != s.hands or other.deck != s.deck
    assert changed >= 19
    assert s.observation(p) == obs  # the original is untouched


def test_resample_keeps_cards_seen_taken_into_a_hand() -> None:
    """A card everyone saw taken by a 2-for-1 pass stays in that hand when redealt."""
    s = at("n=4 hands=1S2F3C/4B4B/4C4C/4F4F area=6P")
    play(s, "pass2 1S", "second 2F", "take 6P")
    assert s.known[0] == (GAME.codec.index["6P"],)
    for k in range(30):
        other = s.resample_hidden(1, random.Random(k))
        assert "6P" in [GAME.card_name(c) for c in other.hands[0]]
        assert len(other.hands[0]) == 2
    # the Persona is the only 6P: once passed, nothing about seat 0's hand is known
    play(s, "pass 4B", "pass 4C", "pass 4F")
    play(s, "pass 6P")
    assert s.known[0] == () and "known=" not in s.to_notation()


def test_resample_hides_another_seats_drawn_card() -> None:
    """The drawn card awaiting a keep choice is seen by the drawer only (N4a)."""
    s = at("n=4 hands=3S3F3C1B/6B/6B/6B deck=6C2S")
    play(s, "declare 3")
    assert s.phase() == "keep"
    mine = s.resample_hidden(0, random.Random(1))
    assert mine.pending == s.pending
    drawn = {GAME.card_name(s.resample_hidden(1, random.Random(k)).pending) for k in range(40)}
    assert len(drawn) > 1 and drawn <= {"2S", "6C", "1B", "6B"}
    assert all(s.resample_hidden(1, random.Random(k)).observation(1) == s.observation(1)
               for k in range(5))
