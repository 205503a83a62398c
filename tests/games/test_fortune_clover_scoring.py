"""Fortune Clover pure scoring (C7, C8) and the Fortune cards' mini-languages, data-driven."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from gamedata import DATA
from pnp.data import load_game_data
from pnp.errors import PnpError
from pnp.games import make_game
from pnp.games.fortune_clover.engine import FortuneCloverGame, FortuneCloverState
from pnp.games.fortune_clover.fortunes import parse_reward, parse_selector
from pnp.games.fortune_clover.scoring import (competition_places, deal_outcome, deal_payouts,
                                              final_winners, tied_paid_places, unpaid_places,
                                              yellow_return, zero_excluded)

F01_4P = parse_reward("1st:Y1W2;2nd:W2;3rd:W1", 4)


# -- C7: places and rewards -------------------------------------------------------------

def test_rulebook_ranking_example_two_tied_first() -> None:
    """Two tied for 1st both take 1st's reward; the next takes 3rd's; 2nd pays nobody."""
    counts = [3, 3, 2, 1]
    assert competition_places(counts) == [1, 1, 3, 4]
    ys, ws = deal_payouts(counts, F01_4P)
    assert (ys, ws) == ([1, 1, 0, 0], [2, 2, 1, 0])
    assert unpaid_places(counts, F01_4P) == [2]
    assert tied_paid_places(counts, F01_4P) == 1


def test_zero_counted_cards_pay_nothing_and_unreached_places_pay_nobody() -> None:
    """C7: with counts 3, 2, 1, 0 a listed 4th place pays nobody."""
    reward = parse_reward("1st:W3;2nd:W1;3rd:Y1;4th:Y2", 4)
    counts = [3, 2, 1, 0]
    assert competition_places(counts) == [1, 2, 3, 0]
    assert deal_payouts(counts, reward) == ([0, 0, 1, 0], [3, 1, 0, 0])
    assert unpaid_places(counts, reward) == [4]
    assert zero_excluded(counts, reward) == 1
    # Everybody took one: all four tie for 1st and take 1st's reward.
    assert deal_payouts([1, 1, 1, 1], reward) == ([0, 0, 0, 0], [3, 3, 3, 3])
    # Nobody took a counted card: nobody is paid.
    assert deal_payouts([0, 0, 0, 0], reward) == ([0] * 4, [0] * 4)
    assert unpaid_places([0, 0, 0, 0], reward) == [1, 2, 3, 4]


def test_zero_excluded_counts_every_zero_seat_at_a_paying_place() -> None:
    """Two seats with zero tie at the place after the last scorer."""
    assert zero_excluded([4, 0, 0], parse_reward("1st:W1;2nd:W2", 3)) == 2
    assert zero_excluded([4, 0, 0], parse_reward("1st:W1;3rd:W2", 3)) == 0


def test_deal_outcome_equals_the_separate_functions() -> None:
    """The engine's one-pass deal_outcome agrees with the per-rule functions everywhere.

    Every count vector of 3–5 seats with counts 0–3 (and a sample at 6
    seats), against every shipped reward table and two with gaps (C6b) and
    a last place that pays.
    """
    from itertools import product

    from gamedata import build_game
    game = build_game("fortune_clover")
    for n in range(3, 7):
        rewards = [f.rewards[n] for f in game.fortunes]
        rewards += [parse_reward("2nd:W2;3rd:Y1", n), parse_reward("3rd:Y2" if n == 3 else f"{n}th:Y2", n)]
        vectors = list(product(range(4), repeat=n))
        for counts in vectors if n < 6 else vectors[::7]:
            for reward in rewards:
                want = (*deal_payouts(counts, reward), tied_paid_places(counts, reward),
                        len(unpaid_places(counts, reward)), zero_excluded(counts, reward))
                assert deal_outcome(counts, reward) == want, (counts, reward)


# -- C8: the yellow return and the winners -------------------------------------------------

def test_rulebook_yellow_return_example() -> None:
    """Most yellow (4): return 4 yellow and 4 white."""
    ret_y, ret_w = yellow_return([4, 2, 1, 0], [6, 3, 5, 2])
    assert ret_y == [4, 0, 0, 0] and ret_w == [4, 0, 0, 0]


def test_yellow_return_short_of_white_and_ties() -> None:
    """Fewer white than yellow: return what there is; every tied leader returns."""
    assert yellow_return([3, 3, 1], [1, 5, 9]) == ([3, 3, 0], [1, 3, 0])
    assert yellow_return([0, 0, 0], [4, 5, 6]) == ([0, 0, 0], [0, 0, 0])


def test_final_winners_tie_breaks() -> None:
    """Most chips; ties to more yellow (after the return); then shared."""
    assert final_winners([0, 1, 0], [5, 4, 3]) == [1]  # 5 vs 5: more yellow wins
    assert final_winners([1, 1, 0], [4, 4, 6]) == [2]  # totals 5, 5, 6
    assert final_winners([2, 2, 0], [4, 4, 3]) == [0, 1]  # shared win
    assert final_winners([1, 0, 0], [4, 5, 5]) == [0]


# -- the counts selector ------------------------------------------------------------------

@pytest.mark.parametrize("text, size", [
    ("♣", 13), ("red", 26), ("♥ | ♠Q", 14), ("2-5", 16), ("black & face", 6),
    ("face | A", 16), ("!(red) & 2-5", 8), ("all", 52), ("Q", 4), ("♠Q", 1),
    ("♥ | ♠ & Q", 14), ("(♥ | ♠) & Q", 2), ("!!♣", 13), ("10-A & ♦", 5), ("♠ 10", 1),
])
def test_selector_sizes(text: str, size: int) -> None:
    """Design-doc examples and precedence: & binds tighter than |."""
    assert len(parse_selector(text, "T1")) == size


@pytest.mark.parametrize("text, fragment", [
    ("", "empty selector"), ("♣ |", "unexpected end"), ("5-2", "empty rank range"),
    ("purple", "unknown word"), ("(♣", "missing ')'"), ("♣ ♥", "unexpected '♥'"),
    ("♣#", "unexpected character '#'"), ("2-♣", "expected a rank"), (")", "unexpected ')'"),
])
def test_selector_errors_name_card_and_column(text: str, fragment: str) -> None:
    """One-line errors naming the card id and the ``counts`` column."""
    with pytest.raises(PnpError) as err:
        parse_selector(text, "F42")
    msg = str(err.value)
    assert "F42" in msg and "counts" in msg and fragment in msg and "\n" not in msg


# -- the reward language --------------------------------------------------------------------

def test_reward_table() -> None:
    """Places map to (yellow, white); unlisted places pay (0, 0) (C6b)."""
    assert parse_reward("1st:Y1W2;3rd:W1", 4) == ((0, 0), (1, 2), (0, 0), (0, 1), (0, 0))
    assert parse_reward(" 1st : Y2 ; 2nd:W1 ", 3) == ((0, 0), (2, 0), (0, 1), (0, 0))


@pytest.mark.parametrize("text, fragment", [
    ("", "no place listed"), ("2nd:W1;1st:W2", "increasing order"),
    ("1st:W1;5th:W1", "beyond 4 players"), ("1st:", "pays no chips"),
    ("1st:Y0", "at least 1"), ("first:W1", "cannot read entry"), ("2st:W1", "bad place"),
    ("1st:W1;1st:W2", "increasing order"), ("1st:W2Y1", "cannot read entry"),
])
def test_reward_errors_name_card_and_column(text: str, fragment: str) -> None:
    """One-line errors naming the card id and the ``reward_Np`` column."""
    with pytest.raises(PnpError) as err:
        parse_reward(text, 4, "F42", "reward_4p")
    msg = str(err.value)
    assert "F42" in msg and "reward_4p" in msg and fragment in msg and "\n" not in msg


def test_every_shipped_fortune_card_parses() -> None:
    """The ten designed cards parse; their target counts match the design doc."""
    from gamedata import build_game
    g = build_game("fortune_clover")
    assert isinstance(g, FortuneCloverGame)
    sizes = {f.id: m.bit_count() for f, m in zip(g.fortunes, g.fortune_mask)}
    assert sizes == {"F01": 13, "F02": 26, "F03": 4, "F04": 52, "F05": 14, "F06": 16,
                     "F07": 52, "F08": 6, "F09": 16, "F10": 13}
    assert [f.id for f in g.fortunes if f.unit == "trick"] == ["F04"]


# -- data-driven: a designer edits fortune.csv ------------------------------------------------

def _copy_data(tmp_path: Path) -> Path:
    """A copy of the game's data folder to edit."""
    shutil.copytree(DATA / "fortune_clover", tmp_path / "fortune_clover")
    return tmp_path / "fortune_clover" / "fortune.csv"


def _edit_row(path: Path, card_id: str, **changes: str) -> None:
    """Rewrite ``fortune.csv`` with ``changes`` applied to row ``card_id``."""
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    fields = list(rows[0])
    for row in rows:
        if row["id"] == card_id:
            row.update(changes)
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)


def _last_trick(g: FortuneCloverGame) -> FortuneCloverState:
    """F01's deal (the third) one trick from its end: seat 2 wins ♠A and the centre."""
    text = ("fortune_clover p=4 deal=3 fort=F02,F03,F01,F04,F05,F06,F07,F08,F09,F10 seeds=- "
            "chips=Y0W0,Y0W0,Y0W0,Y0W0 lead=0 hands=♠2/♠3/♠A/♠4 centre=♥2♥3♥4♥5 "
            "ex=♥2:♦2♦3/♥3:♦4♦5/♥4:♦6♦7/♥5:♦8♦9 trick=- "
            "won=♣2♣3♣4♣5,♣6♦2♦3♦4/♣7♣8♣9♦5,♦6♦7♦8♦9/"
            "♣10♣J♣Q♣K,♣A♦10♦J♦Q,♦K♦A♥6♥7/♥8♥9♥10♥J,♥Q♥K♥A♠5,♠6♠7♠8♠9,♠10♠J♠Q♠K "
            "void=-/-/-/- log=0.0.0.0,0.0.0.0 ret=- t=0")
    st = g.state_from_notation(text)
    for name in ("♠2", "♠3", "♠A", "♠4"):
        st.apply_action(st.string_to_action(f"play {name}"))
    return st


def test_payouts_follow_an_edited_reward(tmp_path: Path) -> None:
    """Change F01's 4-player rewards in a copied fortune.csv: the chips paid follow."""
    original = make_game(load_game_data(DATA, "fortune_clover", strict=True))
    assert isinstance(original, FortuneCloverGame)
    st = _last_trick(original)
    assert st.log[-1] == (5, 3, 5, 0)
    # F01 4p: 1st Y1W2 (seats 0 and 2, tied), 2nd W2 unpaid, 3rd W1 (seat 1).
    assert st.ret_y == [1, 0, 1, 0]
    assert (st.yellow, st.white) == ((0, 0, 0, 0), (1, 1, 1, 0))

    csv_path = _copy_data(tmp_path)
    _edit_row(csv_path, "F01", reward_4p="1st:W5;3rd:Y2")
    edited = make_game(load_game_data(tmp_path, "fortune_clover", strict=True))
    assert isinstance(edited, FortuneCloverGame)
    st = _last_trick(edited)
    assert st.ret_y == [0, 2, 0, 0] and st.ret_w == [0, 0, 0, 0]
    assert (st.yellow, st.white) == ((0, 0, 0, 0), (5, 0, 5, 0))


def test_counts_follow_an_edited_selector(tmp_path: Path) -> None:
    """Change what F01 counts (clubs → spades): the deal's counts follow."""
    csv_path = _copy_data(tmp_path)
    _edit_row(csv_path, "F01", counts="♠")
    edited = make_game(load_game_data(tmp_path, "fortune_clover", strict=True))
    assert isinstance(edited, FortuneCloverGame)
    st = _last_trick(edited)
    # Seat 3 took ♠5–♠K in tricks (9 spades); seat 2 takes the last trick's 4 spades.
    assert st.log[-1] == (0, 0, 4, 9)


def test_unit_trick_edit(tmp_path: Path) -> None:
    """Turn F01 into a trick-unit card: tricks holding a club count, not clubs (C6a)."""
    csv_path = _copy_data(tmp_path)
    _edit_row(csv_path, "F01", unit="trick")
    edited = make_game(load_game_data(tmp_path, "fortune_clover", strict=True))
    assert isinstance(edited, FortuneCloverGame)
    assert _last_trick(edited).log[-1] == (2, 1, 2, 0)


@pytest.mark.parametrize("column, value, fragment", [
    ("counts", "♣ & purple", "column counts"),
    ("reward_5p", "1st:W1;6th:Y1", "column reward_5p"),
])
def test_bad_fortune_text_is_a_one_line_error(tmp_path: Path, column: str, value: str,
                                              fragment: str) -> None:
    """A mistyped cell stops the engine with the card id, the column and the file."""
    csv_path = _copy_data(tmp_path)
    _edit_row(csv_path, "F07", **{column: value})
    data = load_game_data(tmp_path, "fortune_clover", strict=True)
    with pytest.raises(PnpError) as err:
        make_game(data)
    msg = str(err.value)
    assert "F07" in msg and fragment in msg and "fortune.csv" in msg and "\n" not in msg
