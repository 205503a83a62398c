"""Fortune Clover's rulebook content: tricks played by the engine, rankings and the Fortune cards.

The trick examples are scripted positions in the engine's notation
(:mod:`pnp.games.fortune_clover.notation`) played card by card with the
engine's actions; the chips of the ranking and end-of-game examples come
from the engine's scoring (rulings C7, C8) with the Fortune card's rewards
read from the data, so editing a Fortune card row changes the book. The
Fortune card list (with its reward lines per player count) is a table this
package registers, since the reward language is this game's.
"""

from __future__ import annotations

import re
from typing import Mapping, Sequence

from pnp.errors import PnpError
from pnp.games.fortune_clover.engine import FortuneCloverGame, FortuneCloverState
from pnp.games.fortune_clover.scoring import (competition_places, deal_payouts, final_winners,
                                              yellow_return)
from pnp.games.book_hooks import register_rulebook
from pnp.games.book_kit import MIN_LABEL, Book, Scene, card_width

SMALL = card_width(0.3)
_SUITS = "♠♥♦♣"


def _game(book: Book) -> FortuneCloverGame:
    game: FortuneCloverGame = book.engine()
    return game


def _cards(game: FortuneCloverGame, text: str) -> list[int]:
    """Card ids of a run of names such as ``♠A♥10``."""
    return [game.ids[name] for name in re.findall(r"[♠♥♦♣](?:10|[2-9AJQK])", text)]


def position(book: Book, hands: Sequence[str], *, lead: int = 0,
             fortune: str = "F01") -> FortuneCloverState:
    """A first-deal trick position: the given hands, every other card in the centre.

    The exchange is recorded as done (each seat's discard is a centre card;
    its two passed cards are cards it does not hold), as the notation needs.
    """
    game = _game(book)
    n = len(hands)
    used = {c for text in hands for c in _cards(game, text)}
    centre = [c for c in range(game.n_cards) if c not in used]
    ex = []
    for seat in range(n):
        others = [c for c in range(game.n_cards)
                  if c not in centre and c not in _cards(game, hands[seat])]
        ex.append(game.names[centre[seat]] + ":" + game.names[others[0]] + game.names[others[1]])
    ids = list(game.fortune_ids)
    if fortune not in ids:
        raise book.fail(f"no Fortune card {fortune!r} in the data")
    ids.remove(fortune)
    text = " ".join([
        "fortune_clover", f"p={n}", "deal=1", "fort=" + ",".join([fortune] + ids),
        "seeds=" + ",".join(str(11 + k) for k in range(game.deals - 1)),
        "chips=" + ",".join(["Y0W0"] * n), f"lead={lead}",
        "hands=" + "/".join(hands), "centre=" + "".join(game.names[c] for c in centre),
        "ex=" + "/".join(ex), "trick=-", "won=" + "/".join(["-"] * n),
        "void=" + "/".join(["-"] * n), "log=-", "ret=-", "t=0"])
    try:
        return game.state_from_notation(text)
    except PnpError as exc:
        raise book.fail(f"the scripted position does not fit the data: {exc.message}") from None


def _play(book: Book, state: FortuneCloverState, name: str) -> None:
    try:
        state.apply_action(state.string_to_action(f"play {name}"))
    except PnpError as exc:
        raise book.fail(f"the scripted play {name!r} is not legal: {exc.message}") from None


def _trick_picture(book: Book, plays: Sequence[tuple[int, str]], winner: int) -> Scene:
    """The cards of one trick in play order, each labelled with its player."""
    scene = book.scene()
    x = 0.0
    deck = book.game.manifest.components.get("deck")
    rows = {f"{r.values['suit']}{r.values['rank']}": r.id for r in book.game.rows.get("deck", [])}
    for seat, name in plays:
        if deck is not None and deck.face and name in rows:
            # The printed card when the data has a template for the deck.
            w, _ = scene.card(book.art.face("deck", rows[name]), x, 0, SMALL,
                              highlight=seat == winner)
        else:
            w, _ = scene.playing_card(name[1:], name[0], x, 0, SMALL, highlight=seat == winner)
        scene.label(book.t(f"{_player(seat)}さん", f"Player {_player(seat)}"), x + w / 2,
                    -MIN_LABEL - 4, anchor="middle")
        x += w + 8
    return scene


def _player(seat: int) -> str:
    return "ABCDEF"[seat]


_SUIT_EN = {"♠": "spade", "♥": "heart", "♦": "diamond", "♣": "club"}


def _names_in(text: str) -> list[str]:
    """Card names of a scripted hand such as ``♥3♣4``, in the order written."""
    return re.findall(r"[♠♥♦♣](?:10|[2-9AJQK])", text)


def _legal(book: Book, state: FortuneCloverState, seat: int) -> list[str]:
    """The engine's legal plays for ``seat`` (whose turn it is), in their hand's order."""
    game = _game(book)
    if state.current_player() != seat:
        raise book.fail(f"the scripted trick expected player {_player(seat)} to play next")
    return [game.names[a] for a in state.legal_actions()]


def _check(book: Book, seat: int, engine: list[str], ruled: list[str], ruling: str) -> None:
    """Stop the book when the engine's legal plays are not what the ruling allows."""
    if sorted(engine) != sorted(ruled):
        raise book.fail(f"player {_player(seat)}'s legal plays are {', '.join(engine)} in the "
                        f"engine but {', '.join(ruled)} by ruling {ruling}")


def _cards_text(book: Book, names: Sequence[str], *, last: str = "or") -> str:
    """``♥3・♣4`` / ``♥3 and ♣4`` (``last`` joins the final two in English)."""
    if book.lang.ja:
        return "・".join(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" {last} " + names[-1]


def _follow(book: Book, state: FortuneCloverState, seat: int, hand: str, led: str,
            card: str) -> str:
    """One follower's sentence (ruling C4): the hand, what it may play, what it plays.

    The choices come from the engine and must equal ruling C4 (the led suit or
    a club, either, when the hand holds one; else any card), so an example
    whose words and engine disagree stops the book instead of misleading it.
    """
    names = _names_in(hand)
    legal = _legal(book, state, seat)
    has_led = [c for c in names if c[0] == led]
    clubs = [c for c in names if c[0] == "♣" and led != "♣"]
    ruled = has_led + clubs if has_led or clubs else names
    _check(book, seat, legal, ruled, "C4")
    p = _player(seat)
    held = _cards_text(book, names, last="and")
    choice = _cards_text(book, legal)
    suit_en = _SUIT_EN[led]
    if has_led and clubs:
        ja = (f"{p}さんの手札は{held}です。{led}もクラブも持っているので、そのどちらを出しても"
              f"かまいません（{choice}）。{p}さんは{card}を出します。")
        en = (f"{p} holds {held}: a {suit_en} and a club, so either may be played ({choice}); "
              f"{p} plays the {card}.")
    elif clubs or has_led:
        # Only one way to follow (C4): the reason differs, the obligation reads alike.
        why_ja, why_en = ((f"{led}はありませんがクラブがある", f"no {suit_en} but a club")
                          if clubs else (f"クラブはなく{led}がある", f"a {suit_en} and no club"))
        ja = (f"{p}さんの手札は{held}です。{why_ja}ので、"
              f"{choice}を出さなければなりません" + ("" if len(legal) == 1 else
                                                  f"。{p}さんは{card}を出します") + "。")
        en = (f"{p} holds {held}: {why_en}, so {p} must play "
              + (f"the {card}." if len(legal) == 1 else f"the {choice}, and plays the {card}."))
    else:
        ja = (f"{p}さんの手札は{held}です。{led}もクラブもないので、どのカードを出してもかまい"
              f"ません。{p}さんは{card}を出します。")
        en = (f"{p} holds {held}: neither a {suit_en} nor a club, so any card may be played; "
              f"{p} plays the {card}.")
    return book.t(ja, en)


def club_trick(book: Book) -> None:
    """C4, C5: a follower may play the led suit or a club, and the led suit wins a tie."""
    hands = ["♥10♠2", "♥3♣4", "♣Q♦5", "♥Q♦6"]
    state = position(book, hands)
    plays = [(0, "♥10"), (1, "♥3"), (2, "♣Q"), (3, "♥Q")]
    led = plays[0][1][0]
    lead_choices = _legal(book, state, 0)
    _check(book, 0, lead_choices, [c for c in _names_in(hands[0]) if c[0] != "♣"]
           or _names_in(hands[0]), "C3")
    sentences = [book.t(f"Aさんの手札は{_cards_text(book, _names_in(hands[0]))}です。"
                        f"{plays[0][1]}でリードします。",
                        f"Player A holds {_cards_text(book, _names_in(hands[0]), last='and')} "
                        f"and leads the {plays[0][1]}.")]
    _play(book, state, plays[0][1])
    for seat, name in plays[1:]:
        sentences.append(_follow(book, state, seat, hands[seat], led, name))
        _play(book, state, name)
    winner = state.lead
    scene = _trick_picture(book, plays, winner)
    book.picture(scene, book.t("♥のリードにクラブでフォローしたトリック",
                               "A heart trick followed with a club"))
    sentences.append(book.t(
        f"♣Qと♥Qは同じ強さなので、リードされたスートの♥Qが勝ち、{_player(winner)}さんが"
        "このトリックを取って次をリードします。",
        f"The ♣Q and ♥Q are equal in rank, so the card of the led suit wins: player "
        f"{_player(winner)} takes the trick and leads the next one."))
    # Each sentence is already in this edition's language (the choices are the engine's).
    text = ("" if book.lang.ja else " ").join(sentences)
    book.para(text, text)


def clubs_lead(book: Book) -> None:
    """C3: a leader holding only clubs plays one, and the next player leads in their place."""
    hands = ["♣2♣5", "♥K♣3", "♥2♠4", "♥A♣A"]
    state = position(book, hands)
    plays = [(0, "♣5"), (1, "♥K"), (2, "♥2"), (3, "♣A")]
    a_hand = _names_in(hands[0])
    legal0 = _legal(book, state, 0)
    non_clubs = [c for c in a_hand if c[0] != "♣"]
    _check(book, 0, legal0, non_clubs or a_hand, "C3")
    _play(book, state, plays[0][1])
    b_hand = _names_in(hands[1])
    legal1 = _legal(book, state, 1)
    _check(book, 1, legal1, [c for c in b_hand if c[0] != "♣"] or b_hand, "C3")
    b_only = len(legal1) == 1
    _play(book, state, plays[1][1])
    led = plays[1][1][0]
    follows = []
    for seat, name in plays[2:]:
        follows.append(_follow(book, state, seat, hands[seat], led, name))
        _play(book, state, name)
    winner = state.lead
    scene = _trick_picture(book, plays, winner)
    book.picture(scene, book.t("クラブしか持っていない人のリード", "A lead from a hand of clubs"))
    # Both texts are built; the follow sentences are already in this edition's language.
    ja = (f"Aさんの手札はクラブだけ（{_cards_text(book, a_hand)}）なので、好きなクラブを"
          f"出せます。Aさんの{plays[0][1]}ではリードするスートが決まらず、Bさんが代わりに"
          f"リードします。Bさんの手札は{_cards_text(book, b_hand)}です。クラブ以外のカードを"
          f"持っているのでクラブはリードできず、"
          + (f"出せるのは{legal1[0]}だけです。" if b_only else
             f"{_cards_text(book, legal1)}のどれかを出します。{plays[1][1]}を出します。")
          + f"これで{led}がリードされたスートになります。" + "".join(follows)
          + f"いちばん強い{plays[3][1]}を出した{_player(winner)}さんが勝ちます。"
          f"Aさんの{plays[0][1]}もクラブとして勝負に加わっています。")
    en = (f"Player A holds only clubs ({_cards_text(book, a_hand, last='and')}) and may play "
          f"any of them. A's {plays[0][1]} sets no led suit, so B leads in A's place. B holds "
          f"{_cards_text(book, b_hand, last='and')}; holding a non-club, B may not lead a "
          "club, so "
          + (f"B's only play is the {legal1[0]}." if b_only else
             f"B leads one of {_cards_text(book, legal1)}: the {plays[1][1]}.")
          + f" That makes {_SUIT_EN[led]}s the led suit. " + " ".join(follows)
          + f" The strongest card, the {plays[3][1]}, wins for player {_player(winner)}. "
          f"A's {plays[0][1]} still competed as a club.")
    text = ja if book.lang.ja else en
    book.para(text, text)


def _reward_of(book: Book, fortune: str, players: int) -> tuple[tuple[int, int], ...]:
    game = _game(book)
    for card in game.fortunes:
        if card.id == fortune:
            return card.rewards[players]
    raise book.fail(f"no Fortune card {fortune!r} in the data")


def _chips(book: Book, yellow: int, white: int) -> str:
    parts = []
    if yellow:
        parts.append(book.t(f"黄{yellow}", f"{yellow} yellow"))
    if white:
        parts.append(book.t(f"白{white}", f"{white} white"))
    return book.lang.list_sep.join(parts) or book.t("なし", "none")


def _place(book: Book, place: int) -> str:
    if not place:
        return "—"
    return book.t(f"{place}位", {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th"))


def ranking(book: Book) -> None:
    """C7: two players tied for 1st both take 1st's reward; the next is 3rd."""
    fortune = "F01"
    counts = [5, 5, 3, 0]
    reward = _reward_of(book, fortune, len(counts))
    places = competition_places(counts)
    yellow, white = deal_payouts(counts, reward)
    row = next(r for r in book.game.rows["fortune"] if r.id == fortune)
    name = book.name_of(row.values)
    listed = book.t("、", "; ").join(
        f"{_place(book, p)} {_chips(book, *reward[p])}" for p in range(1, len(reward))
        if reward[p] != (0, 0))
    book.para(
        f"{len(counts)}人で、フォーチュンカード「{name}」（{listed}）のディールだったとします。",
        f"{len(counts)} players; the Fortune card is {name} ({listed}).")
    rows = []
    for seat, (count, place) in enumerate(zip(counts, places)):
        got = _chips(book, yellow[seat], white[seat])
        if not count:
            got += book.t("（数えるカードなし）", " (took none)")
        rows.append([_player(seat), book.t(f"{count}枚", str(count)), _place(book, place), got])
    book.table([book.t("プレイヤー", "Player"), book.t("取ったクラブ", "Clubs taken"),
                book.t("順位", "Place"), book.t("もらうチップ", "Chips")], rows, "lrll")
    second = reward[2] != (0, 0) and 2 not in places
    if second:
        book.para("2人が1位なので、次の人は3位です。2位の報酬は誰ももらいません。",
                  "2 players share 1st place, so the next player is 3rd; nobody is paid 2nd "
                  "place's reward.")


def yellow_penalty(book: Book) -> None:
    """C8: whoever holds the most yellow gives it back, with as many white."""
    yellow = [4, 4, 2]
    white = [3, 6, 5]
    ret_y, ret_w = yellow_return(yellow, white)
    left_y = [y - r for y, r in zip(yellow, ret_y)]
    left_w = [w - r for w, r in zip(white, ret_w)]
    winners = final_winners(left_y, left_w)
    rows = []
    for seat in range(len(yellow)):
        back = _chips(book, ret_y[seat], ret_w[seat])
        if ret_w[seat] < ret_y[seat]:
            back += book.t("（白は持っている分だけ）", " (all the white there is)")
        rows.append([_player(seat), str(yellow[seat]), str(white[seat]), back,
                     str(left_y[seat] + left_w[seat]),
                     book.t("**勝ち**", "**wins**") if seat in winners else ""])
    book.table([book.t("プレイヤー", "Player"), book.t("黄", "Yellow"), book.t("白", "White"),
                book.t("返すチップ", "Returned"), book.t("残り", "Left"),
                book.t("結果", "Result")], rows, "lrrlrl")


def _reward_text(book: Book, text: str) -> str:
    """``1st:Y1W2;2nd:W2`` → ``1位 黄1白2、2位 白2`` / ``1st 1 yellow + 2 white; 2nd 2 white``."""
    out = []
    for entry in filter(None, (e.strip() for e in text.split(";"))):
        place, _, chips = entry.partition(":")
        y = re.search(r"Y(\d+)", chips)
        w = re.search(r"W(\d+)", chips)
        number = int(re.sub(r"\D", "", place) or 0)
        amount = _chips(book, int(y.group(1)) if y else 0, int(w.group(1)) if w else 0)
        out.append(f"{_place(book, number)} {amount}")
    return book.t("、", "; ").join(out)


def _reward_lines(book: Book, values: Mapping[str, object]) -> list[str]:
    """One line per run of player counts with the same reward: ``3・4人：1位 黄3、2位 白1``."""
    columns = sorted(c for c in values if re.fullmatch(r"reward_\dp", c))
    groups: list[tuple[list[int], str]] = []
    for col in columns:
        if not values.get(col):
            continue
        players = int(col[len("reward_"):-1])
        text = _reward_text(book, str(values[col]))
        if groups and groups[-1][1] == text and groups[-1][0][-1] == players - 1:
            groups[-1][0].append(players)
        else:
            groups.append(([players], text))
    lines = []
    for counts, text in groups:
        who = book.lang.players(counts[0], counts[-1]) if len(counts) != 2 else book.t(
            f"{counts[0]}・{counts[1]}人", f"{counts[0]} or {counts[1]} players")
        lines.append(f"{who}{book.lang.colon}{text}")
    return lines


def fortune_cards(book: Book) -> None:
    """The Fortune cards: what each counts and pays, per player count."""
    rows = []
    for row in book.game.rows["fortune"]:
        values = row.values
        text = book.text_of(values)
        text += "".join(f"<br>{line}" for line in _reward_lines(book, values))
        rows.append([str(values["id"]), book.name_of(values), text])
    book.table(["No.", book.t("名前", "Name"), book.t("内容と報酬", "Counts and pays")], rows)


def deal_table(book: Book) -> None:
    """C1: cards per hand and face-down centre cards for each player count."""
    game = _game(book)
    counts = list(range(game.min_players, game.max_players + 1))
    hands = [game.hand_size(n) for n in counts]
    book.table([book.t("人数", "Players")] + [book.t(f"{n}人", str(n)) for n in counts],
               [[book.t("手札", "Hand")] + [book.t(f"{h}枚", str(h)) for h in hands],
                [book.t("中央の余り", "Centre")]
                + [book.t(f"{game.n_cards - n * h}枚", str(game.n_cards - n * h))
                   for n, h in zip(counts, hands)]],
               "l" + "r" * len(counts))


register_rulebook("fortune_clover", examples={
    "club_trick": club_trick, "clubs_lead": clubs_lead, "ranking": ranking,
    "yellow_penalty": yellow_penalty,
}, tables={"fortunes": fortune_cards, "deal": deal_table})
