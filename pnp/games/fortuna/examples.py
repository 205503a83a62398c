"""Fortuna's rulebook content: worked examples played by the engine, and the set-up diagram.

Every example is a scripted position in the engine's notation
(:mod:`pnp.games.fortuna.notation`), played with the engine's own actions;
the numbers printed (card values, refills, scores) are read back from the
resulting state, so a change to the card data changes the book. Registered
with :func:`pnp.games.book_hooks.register_rulebook`; the rules text places
them with ``{{ example NAME }}`` and ``{{ figure setup }}``.
"""

from __future__ import annotations

from typing import Any, Sequence

from pnp.errors import PnpError
from pnp.games.fortuna.engine import FortunaGame, FortunaState, card_values as values_of
from pnp.games.book_hooks import register_rulebook
from pnp.games.book_kit import MIN_LABEL, Book, Scene, card_width, fit_width

#: Card width in the examples' pictures (a third of the real card).
SMALL = card_width(0.28)


def _game(book: Book) -> FortunaGame:
    game: FortunaGame = book.engine()
    return game


def _position(book: Book, text: str) -> FortunaState:
    """The scripted position, or an error naming the example when the data no longer fits."""
    try:
        return _game(book).state_from_notation(text)
    except PnpError as exc:
        raise book.fail(f"the scripted position does not fit the data: {exc.message}") from None


def _act(book: Book, state: FortunaState, text: str) -> None:
    """Apply an action written as the engine writes it (``set 5: 3B 4B …``)."""
    try:
        state.apply_action(state.string_to_action(text))
    except PnpError as exc:
        raise book.fail(f"the scripted action {text!r} is not legal: {exc.message}") from None


def _icon(book: Book, game: FortunaGame, card: int) -> str:
    return book.term(game.icons[game.card_icon[card]])


def _name(book: Book, game: FortunaGame, card: int) -> str:
    """``5（稲妻）`` / ``5 (lightning)``."""
    number = game.card_number[card]
    return book.t(f"{number}（{_icon(book, game, card)}）", f"{number} ({_icon(book, game, card)})")


def _values(book: Book, values: Sequence[int], number: int | None = None) -> str:
    """Values as the rules count them: from the printed number up, wrapping after 9."""
    if number is not None:
        values = sorted(values, key=lambda v: (v - number) % 10)
    return book.lang.choice([str(v) for v in values])


def _face(book: Book, game: FortunaGame, card: int) -> Any:
    """The rendered face of card id ``card``."""
    return book.art.face("reel", game.card_ids[card])


def _back(book: Book, game: FortunaGame, card: int) -> Any:
    """The rendered back of card id ``card``."""
    return book.art.back("reel", game.card_ids[card])


def _slot_column(scene: Scene, book: Book, game: FortunaGame, state: FortunaState,
                 n: int, x: float, y: float, *, label: bool = True) -> float:
    """Slot ``n`` drawn as a fanned pile of its cards (top card last); returns its width."""
    cards = state.slots[n]
    width = SMALL
    height = width * 88 / 63
    step = 7.0
    scene.zone(x - 3, y - 3, width + 6, height + 6 + step * max(0, len(cards) - 1))
    for i, card in enumerate(cards):
        scene.card(_face(book, game, card), x, y + step * (len(cards) - 1 - i), width)
    if label:
        scene.label(book.t(f"置き場{n}", f"Slot {n}"), x + width / 2, y - MIN_LABEL - 6,
                    anchor="middle", color="accent")
        scene.label(f"d({n}) = {state.discards(n)}", x + width / 2, y - 2 * MIN_LABEL - 9,
                    anchor="middle")
    return width + 6


def card_values(book: Book) -> None:
    """F1, F2: a card's values grow with its slot, and wrap from 9 to 0."""
    game = _game(book)
    state = _position(book, "players 3; seat 0 main; hand:0 3B 6W; hand:1 2B; hand:2 2W; "
                            "deck 1B 1W 1H; slot:3 3H 3R; slot:6 6B 6H 6R 6G 1G")
    three, six = state.hands[0]
    v3, v6 = state.values_of(three), state.values_of(six)
    scene = book.scene()
    x = 0.0
    for n, card, values in ((3, three, v3), (6, six, v6)):
        x += _slot_column(scene, book, game, state, n, x, 0)
        scene.arrow(x + 1, SMALL * 0.7, x + 15, SMALL * 0.7)
        x += 18
        w, h = scene.card(_face(book, game, card), x, 0, SMALL, highlight=True)
        scene.label(book.t("値：", "values: ") + _values(book, values, n), x + w / 2,
                    -MIN_LABEL - 6, anchor="middle")
        x += w + 20
    book.picture(scene, book.t("置き場の枚数だけ、同じ数字のカードの値が広がる",
                               "A slot's count widens the values of its number"))
    d3, d6 = state.discards(3), state.discards(6)
    book.para(
        f"3の置き場に{d3}枚あれば、手札の3のカードは{_values(book, v3, 3)}のどれとしても"
        f"使えます。6の置き場に{d6}枚（1のカードも交じっています）あれば、6のカードは"
        f"{_values(book, v6, 6)}のどれにもなります。9の次は0です。",
        f"With {d3} cards in slot 3, a 3 in hand may be used as {_values(book, v3, 3)}. "
        f"With {d6} cards in slot 6 (a 1 among them: every card in the slot counts), a 6 "
        f"may be {_values(book, v6, 6)}. After 9 comes 0.")


def set_and_score(book: Book) -> None:
    """F3, F5, F8: a set of five declared as 5, its refill and its score."""
    game = _game(book)
    state = _position(book, "players 3; seat 0 main; hand:0 3B 4B 5B 5W 5G 2H 6R; "
                            "hand:1 2B; hand:2 2W; deck 1B 1W 1H 1R 2R 3W; "
                            "slot:3 3H 3R; slot:4 4H")
    hand = list(state.hands[0])
    values = {card: state.values_of(card) for card in hand}
    _act(book, state, "set 5: 3B 4B 5B 5W 5G")
    value, up, down = state.sets[0][-1]
    size = len(up) + len(down)
    score = game.set_score(up, size)
    matches = game.icon_matches(up)
    drew = len(state.hands[0]) - (len(hand) - len(up))
    scene = book.scene()
    x = 0.0
    width = fit_width(len(hand), SMALL)
    for card in hand:
        chosen = card in up
        w, _ = scene.card(_face(book, game, card), x, 0, width, highlight=chosen,
                          dim=not chosen)
        if chosen:
            scene.label(book.t(f"{value}として", f"as {value}"), x + w / 2, -MIN_LABEL - 4,
                        anchor="middle")
        x += w + 4
    book.picture(scene, book.t(f"値{value}のセット：{size}枚を出す",
                               f"A set of value {value}: {size} cards"))
    bolt = _icon(book, game, up[0])
    goddess = book.term(game.icons[game.goddess])
    low = [c for c in up if game.card_number[c] != value]
    printed = len(up) - len(low)
    stretched = book.lang.list_sep.join(
        book.t(f"{game.card_number[c]}（{_values(book, values[c], game.card_number[c])}）",
               f"the {game.card_number[c]} (usable as "
               f"{_values(book, values[c], game.card_number[c])})") for c in low)
    book.para(
        f"3の置き場に{state.discards(3)}枚、4の置き場に{state.discards(4)}枚あります。"
        f"値{value}を宣言し、{stretched}と、数字{value}の{printed}枚を合わせた{size}枚をセットに"
        f"します。"
        f"出した後は{size}−2＝{drew}枚を山札から引きます。",
        f"Slot 3 holds {state.discards(3)} cards and slot 4 holds {state.discards(4)}. "
        f"The player declares {value} and lays {stretched} with the {printed} printed {value}s: "
        f"{size} cards. Then they draw {size} − 2 = {drew} cards.")
    book.para(
        f"得点は、{bolt}が{matches - 1}枚と{goddess}1枚で{matches}枚そろうので、"
        f"{size}×{matches}＝**{score}VP**です。",
        f"At the end this set scores: {matches - 1} {bolt} plus 1 {goddess} make "
        f"{matches} matching icons, so {size} × {matches} = **{score} VP**.")


def all_in(book: Book) -> None:
    """F4, F4a, F5: an all-in set filled face down from the slots."""
    game = _game(book)
    state = _position(book, "players 3; seat 0 main; hand:0 5B 5W 5G; hand:1 1B; hand:2 1W; "
                            "deck 2B 2W 2H; slot:1 1H 1R; slot:3 3H 3R")
    before = len(state.hands[0])
    _act(book, state, "set 5: 5B 5W 5G +2")
    while state.phase() == "fill" and state.current_player() == 0:
        _act(book, state, state.action_to_string(state.legal_actions()[-1]))
    value, up, down = state.sets[0][-1]
    size = len(up) + len(down)
    score = game.set_score(up, size)
    drew = max(0, before - 2)
    scene = book.scene()
    x = 0.0
    for card in up:
        w, _ = scene.card(_face(book, game, card), x, 0, SMALL, highlight=True)
        x += w + 4
    for card in down:
        w, _ = scene.card(_back(book, game, card), x, 0, SMALL)
        scene.label(book.t("裏向き", "face down"), x + w / 2, -MIN_LABEL - 4, anchor="middle")
        x += w + 4
    book.picture(scene, book.t(f"オールインセット：手札{len(up)}枚＋裏向き{len(down)}枚",
                               f"All-in set: {len(up)} from hand + {len(down)} face down"))
    book.para(
        f"手札は{before}枚で、どれも{value}として使えますが、値{value}には{value}枚必要です。"
        f"手札をすべて出し、足りない{len(down)}枚を捨て札置き場から取って裏向きに加えます。"
        f"このセットは{size}枚として数え、得点は{size}×{game.icon_matches(up)}＝"
        f"**{score}VP**です（裏向きのカードにアイコンはありません）。補充は"
        f"{before}−2＝{drew}枚です。",
        f"The hand holds {before} cards, all usable as {value}, but a set of {value} needs "
        f"{value} cards. The player lays the whole hand and takes the missing {len(down)} "
        f"from the discard slots, face down. The set counts as {size} cards and scores "
        f"{size} × {game.icon_matches(up)} = **{score} VP** (face-down cards show no icon). "
        f"The refill is {before} − 2 = {drew}.")


def wheel(book: Book) -> None:
    """F6: the Wheel of Fortune, fired by a discard that makes n + d(n) = 10."""
    game = _game(book)
    state = _position(book, "players 3; seat 0 main; hand:0 6B 2B; hand:1 2W; hand:2 2H; "
                            "deck 1B 1W; slot:1 1B; slot:5 5B 5W 5H 3B 3W; slot:6 6W 6H 6R")
    d6 = state.discards(6)
    before1 = state.discards(1)
    _act(book, state, "pass 6B")
    if state.phase() != "wheel":
        raise book.fail("the scripted discard no longer fires the Wheel of Fortune")
    d6_after = state.discards(6)
    d5 = state.discards(5)
    _act(book, state, "wheel 5>1x3")
    after1 = state.discards(1)
    range_before = values_of(1, before1)
    range_after = values_of(1, after1)
    scene = book.scene()
    x = 0.0
    for n in (1, 5, 6):
        x += _slot_column(scene, book, game, state, n, x, 0) + 14
    book.picture(scene, book.t("ホイールオブフォーチュンの後の置き場1・5・6",
                               "Slots 1, 5 and 6 after the Wheel of Fortune"))
    book.para(
        f"6の置き場に{d6}枚あるときに6を捨てると、6＋{d6_after}＝10になり、"
        f"ホイールオブフォーチュンが起こります。捨てた人は、5の置き場の{d5}枚から3枚を"
        f"1の置き場へ移しました。1の置き場は{before1}枚から{after1}枚になり、1のカードの値は"
        f"{_values(book, range_before, 1)}から{_values(book, range_after, 1)}に広がります。",
        f"Slot 6 holds {d6} cards. Discarding a 6 makes 6 + {d6_after} = 10, and the Wheel of "
        f"Fortune turns. The player moves 3 of the {d5} cards in slot 5 to slot 1: slot 1 "
        f"grows from {before1} to {after1} cards, and a 1 may now be "
        f"{_values(book, range_after, 1)} instead of only {_values(book, range_before, 1)}.")


def scoring(book: Book) -> None:
    """F8: a finished player's sets, each scored by the engine, and the total."""
    game = _game(book)
    state = _position(book, "players 3; over; hand:0; hand:1; hand:2; "
                            "sets:0 5:5B,5B,5H,5R,5G 2:2W,2W 7:4H,4H,4W,4G/1B,1W,1R 0:6G")
    rows = []
    scene = book.scene()
    y = 0.0
    width = fit_width(max(len(u) + len(d) for _, u, d in state.sets[0]), SMALL * 0.75, 3)
    height = width * 88 / 63
    for value, up, down in reversed(state.sets[0]):
        size = len(up) + len(down)
        score = game.set_score(up, size)
        matches = game.icon_matches(up)
        icons = book.lang.list_sep.join(_icon(book, game, c) for c in up)
        label = book.t(f"値{value}（{size}枚" + (f"、うち裏向き{len(down)}枚" if down else "")
                       + "）", f"value {value} ({size} card{'' if size == 1 else 's'}"
                       + (f", {len(down)} face down" if down else "") + ")")
        rows.append((label, icons, f"{size}×{matches}", score))
        x = 0.0
        for card in up:
            w, _ = scene.card(_face(book, game, card), x, y, width)
            x += w + 3
        for card in down:
            w, _ = scene.card(_back(book, game, card), x, y, width)
            x += w + 3
        scene.label(label, 0, y + height + 3, size=7, color="accent")
        y += height + 16
    rows.reverse()
    total = int(state.returns()[0])
    book.picture(scene, book.t("ゲーム終了時のセット", "Sets at the end of the game"))
    book.table([book.t("セット", "Set"), book.t("表向きのアイコン", "Face-up icons"),
                book.t("計算", "Calculation"), book.t("得点", "VP")],
               rows + [[book.t("**合計**", "**Total**"), "", "", f"**{total}**"]], "lllr")


def setup(book: Book) -> None:
    """The table at the start: deck, end deck, six empty slots, hands."""
    game = _game(book)
    hand_size = game.params["hand_size"]
    end_size = game.params["end_deck_size"]
    first = book.game.rows["reel"][0].id
    back = book.art.back("reel", first)
    scene = book.scene()
    w = fit_width(6, SMALL, 9)
    h = w * 88 / 63
    # Slots 1–6 in a row, empty at the start.
    for n in range(1, 7):
        x = (n - 1) * (w + 9)
        scene.zone(x, 0, w, h, book.t(f"置き場{n}", f"Slot {n}"), label_pos="bottom")
        scene.label(str(n), x + w / 2, h / 2 - 6, size=16, anchor="middle", color="accent")
    top = h + 26
    for i in range(4):
        scene.card(back, 40 + i * 1.2, top + i * 1.2, w)
    scene.label(book.t("山札", "Deck"), 40 + w / 2, top + h + 10, anchor="middle")
    for i in range(min(end_size, 4)):
        scene.card(back, 40 + w + 40 + i * 1.2, top + i * 1.2, w)
    scene.label(book.t(f"エンド山（{end_size}枚）", f"End deck ({end_size})"),
                40 + w + 40 + w / 2, top + h + 10, anchor="middle")
    book.picture(scene, book.t(
        f"準備：山札、エンド山、空の捨て札置き場1〜6。各自の手札は{hand_size}枚",
        f"Set-up: deck, end deck and the empty discard slots 1–6; {hand_size} cards per hand"))


register_rulebook("fortuna", examples={
    "card_values": card_values, "set_score": set_and_score, "all_in": all_in,
    "wheel": wheel, "scoring": scoring,
}, figures={"setup": setup})
