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


def club_trick(book: Book) -> None:
    """C4, C5: clubs may always follow, and the led suit wins a tie of ranks."""
    game = _game(book)
    state = position(book, ["♥10♠2", "♥3♠4", "♣Q♦5", "♥Q♦6"])
    plays = [(0, "♥10"), (1, "♥3"), (2, "♣Q"), (3, "♥Q")]
    legal_for_c: list[str] = []
    for seat, name in plays:
        if seat == 2:
            legal_for_c = sorted(game.names[a] for a in state.legal_actions())
        _play(book, state, name)
    winner = state.lead
    scene = _trick_picture(book, plays, winner)
    book.picture(scene, book.t("♥のリードにクラブでフォローしたトリック",
                               "A heart trick followed with a club"))
    if len(legal_for_c) == 1:
        must_ja = f"{legal_for_c[0]}を出さなければなりません"
        must_en = f"must play the {legal_for_c[0]}"
    else:
        must_ja = f"{book.lang.list_sep.join(legal_for_c)}のどれかを出さなければならず、♣Qを出しました"
        must_en = f"must play one of {', '.join(legal_for_c)}, and plays the ♣Q"
    book.para(
        f"Aさんが♥10でリードします。Bさんは♥を持っているので♥3を出します。Cさんは♥を持って"
        f"いませんが、クラブを持っているので、{must_ja}。Dさんは♥Qを出します。♣Qと♥Qは同じ"
        f"強さなので、リードされたスートの♥Qが勝ち、{_player(winner)}さんがこのトリックを"
        f"取って次をリードします。",
        f"Player A leads the ♥10. B holds hearts and plays the ♥3. C has no heart but holds "
        f"a club, so C {must_en}. D plays the ♥Q. The ♣Q and ♥Q are equal in rank, so the "
        f"card of the led suit wins: player {_player(winner)} takes the trick and leads the "
        f"next one.")


def clubs_lead(book: Book) -> None:
    """C3: a leader holding only clubs plays one, and the next player leads in their place."""
    game = _game(book)
    state = position(book, ["♣2♣5", "♥K♣3", "♥2♠4", "♥A♣A"])
    legal0 = book.lang.list_sep.join(sorted(game.names[a] for a in state.legal_actions()))
    plays = [(0, "♣5"), (1, "♥K"), (2, "♥2"), (3, "♣A")]
    legal1 = ""
    for seat, name in plays:
        if seat == 1:
            legal1 = book.lang.list_sep.join(sorted(game.names[a]
                                                    for a in state.legal_actions()))
        _play(book, state, name)
    winner = state.lead
    scene = _trick_picture(book, plays, winner)
    book.picture(scene, book.t("クラブしか持っていない人のリード", "A lead from a hand of clubs"))
    book.para(
        f"Aさんの手札はクラブだけ（{legal0}）なので、好きなクラブを出します。♣5ではスートが"
        f"決まらず、Bさんが代わりにリードします。Bさんはクラブ以外も持っているので、出せるのは"
        f"{legal1}だけです。CさんとDさんがフォローし、いちばん強い♣Aを出した"
        f"{_player(winner)}さんが勝ちます。Aさんの♣5もクラブとして勝負に加わっています。",
        f"Player A holds only clubs ({legal0}) and plays any of them. The ♣5 sets no led "
        f"suit, so B leads in A's place. B holds a non-club, so B may only lead {legal1}. "
        f"C and D follow, and the strongest card, the ♣A, wins for player "
        f"{_player(winner)}. A's ♣5 still competed as a club.")


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
