"""9 Peak's rulebook content: the area diagram and worked examples played by the engine.

Each example is a scripted position in the engine's notation
(:mod:`pnp.games.nine_peak.notation`) played with the engine's actions; what
the book prints (a column's limit, whether a number peaks, a set's score by
both methods) is read from the resulting state, so a change to the data
(base points, cards) changes the book. The area is drawn as the table shows
it: number cards 2–8 down the left, peak card n level with row n, and the
hats of number n hanging below their peak card, so the number card beside
the lowest hat shows the column's limit.
"""

from __future__ import annotations

from typing import Sequence

from pnp.errors import PnpError
from pnp.games.nine_peak.engine import NinePeakGame, NinePeakState
from pnp.games.book_hooks import register_rulebook
from pnp.games.book_kit import MIN_LABEL, Book, Scene, card_width

#: Width of a card in the area pictures.
SMALL = card_width(0.22)
#: Height of one row of the area (cards overlap, showing their top strip).
ROW = SMALL * 88 / 63 * 0.36
#: The value at which a number peaks (one below the last number card).
PEAK = 9


def _game(book: Book, scoring: str | None = None) -> NinePeakGame:
    game: NinePeakGame = book.engine({"scoring": scoring} if scoring else None)
    return game


def _position(book: Book, text: str, scoring: str | None = None) -> NinePeakState:
    """The scripted position, or an error naming the example when the data no longer fits."""
    try:
        return _game(book, scoring).state_from_notation(text)
    except PnpError as exc:
        raise book.fail(f"the scripted position does not fit the data: {exc.message}") from None


def _act(book: Book, state: NinePeakState, text: str) -> None:
    """Apply an action written as the engine writes it (``pass2 5B``, ``take 2S`` …)."""
    try:
        state.apply_action(state.string_to_action(text))
    except PnpError as exc:
        raise book.fail(f"the scripted action {text!r} is not legal: {exc.message}") from None


def _row_id(book: Book, card: int) -> str:
    """The CSV row of hat card id ``card`` (the engine numbers cards in table order)."""
    return str(book.game.cards("hats")[card]["id"])


def limit(state: NinePeakState, number: int) -> int:
    """The highest value a hat of ``number`` may take now (ruling N1; 9 once peaked)."""
    if state.peaked[number - 1]:
        return PEAK
    return min(PEAK, number + len(state.area[number - 1]))


def _values(book: Book, low: int, high: int) -> str:
    """``5・6・7`` / ``5, 6 or 7``."""
    return book.lang.choice([str(v) for v in range(low, high + 1)])


def _span(book: Book, low: int, high: int) -> str:
    """``4〜6`` / ``4–6`` (or just ``3``)."""
    return str(low) if low == high else f"{low}{book.lang.range_sep}{high}"


def draw_area(book: Book, state: NinePeakState, *, numbers: Sequence[int] = range(1, 7),
              highlight: Sequence[int] = ()) -> Scene:
    """The area as laid out on the table, for the numbers asked for."""
    scene = book.scene()
    number_rows = {int(r.values["value"]): r.id for r in book.game.rows["numbers"]}
    peak_rows = {int(r.values["number"]): r.id for r in book.game.rows["peaks"]}
    height = SMALL * 88 / 63
    shown = list(numbers)
    last_row = max([8] + [n + len(state.area[n - 1]) for n in shown])
    top = (last_row + 1) * ROW

    def y_of(row: int) -> float:
        return top - row * ROW - height

    scene.label(book.t("1の段", "row 1"), SMALL / 2, y_of(1) + height - MIN_LABEL - 2,
                anchor="middle", color="accent")
    for value in sorted(number_rows):
        scene.card(book.art.face("numbers", number_rows[value]), 0, y_of(value), SMALL,
                   layer=1 + value)
    for i, n in enumerate(shown):
        x = SMALL + 8 + i * SMALL
        art = book.art.back if state.peaked[n - 1] else book.art.face
        scene.card(art("peaks", peak_rows[n]), x, y_of(n), SMALL, layer=1 + n)
        for depth, card in enumerate(state.area[n - 1], start=1):
            scene.card(book.art.face("hats", _row_id(book, card)), x, y_of(n + depth), SMALL,
                       layer=1 + n + depth, highlight=card in highlight)
    return scene


def setup_area(book: Book) -> None:
    """The area after set-up: six hats under their peak cards, no number peaked."""
    state = _position(book, "n=4 area=1F2C4S4B5P6S hands=3S/3F/3C/3B")
    scene = draw_area(book, state)
    book.picture(scene, book.t(
        "【エリア】：左にナンバーカード2〜8、ピークカードnはnの段、その下に数字nの帽子",
        "The area: number cards 2–8 on the left, peak card n level with row n, "
        "hats of number n below it"))
    book.para("この【エリア】では、手札の帽子は次の値として使えます。",
              "With this area, a hat in hand may be used as these values:")
    book.table([book.t("帽子の数字", "Hat number")] + [str(n) for n in range(1, 7)],
               [[book.t("使える値", "Values")] + [_span(book, n, limit(state, n))
                                                 for n in range(1, 7)]], "lcccccc")


def hat_values(book: Book) -> None:
    """N1: two 5s in the area make a 5 in hand worth 5, 6 or 7."""
    state = _position(book, "n=4 area=5S5F hands=5C/3F/3C/3B")
    top = limit(state, 5)
    book.note(
        f"例：【エリア】に5の帽子が{len(state.area[4])}枚あれば、手札の5の帽子は"
        f"{_values(book, 5, top)}のどれとしても使えます。いちばん下の帽子の横のナンバーカードが"
        f"{top}です。",
        f"Example: with {len(state.area[4])} hats of number 5 in the area, a 5 in hand may be "
        f"used as {_values(book, 5, top)}. The number card beside the lowest hat reads {top}.")


def _pass_peak(book: Book, in_column: int, take_back: bool) -> tuple[NinePeakState, int]:
    """Seat 0 places two 5s on ``in_column`` 5s and takes one card (a 5 or the 2)."""
    column = "".join(("5S", "5F", "5C", "5B", "5S")[:in_column])
    state = _position(book, f"n=4 hands=5B5P3S/6B/6B/6B area=2S{column}")
    _act(book, state, "pass2 5B")
    _act(book, state, "second 5P")
    placed = len(state.area[4])
    _act(book, state, "take 5B" if take_back else "take 2S")
    return state, placed


def peak_pass(book: Book) -> None:
    """N2, N3: a 2-for-1 pass that peaks the 5s; the player keeps the column."""
    before = 3
    state, placed = _pass_peak(book, before, take_back=False)
    pile = len(state.piles[0])
    if not state.peaked[4]:
        raise book.fail("the scripted pass no longer peaks the 5s")
    scene = book.scene()
    x = 0.0
    for card in state.piles[0]:
        w, _ = scene.card(book.art.face("hats", _row_id(book, card)), x, 0, SMALL)
        x += w * 0.55
    book.picture(scene, book.t(f"ピーク札になった5の帽子{pile}枚",
                               f"The {pile} hats of the 5 column, now a peak pile"))
    book.para(
        f"【エリア】に5が{before}枚あるとき、パスで5を2枚置いて列を{placed}枚にし、【エリア】から"
        f"2の帽子を1枚取ります。5の上限は5＋{placed}＝{5 + placed}で9以上なので、ピークです。5の列の"
        f"{pile}枚を受け取り、ピーク札として{pile}VPになります。ピークカード5を裏返し、以後"
        f"5の帽子は1〜9のどの値にもなります。",
        f"The area holds {before} hats of number 5. A player passes by placing 2 of their 5s, "
        f"making the column {placed} cards, and takes 1 hat of number 2 from the area. The 5s "
        f"now reach 5 + {placed} = {5 + placed}, 9 or more: they peak. The player takes the "
        f"{pile} cards of the 5 column as a peak pile, {pile} VP at the end, and flips peak "
        f"card 5: from now on a hat of number 5 may be any value from 1 to 9.")


def peak_takeback(book: Book) -> None:
    """N2, N3: the peak check comes after the take, and taking a 5 back may still peak."""
    peaks, _ = _pass_peak(book, 3, take_back=True)
    short, _ = _pass_peak(book, 2, take_back=True)
    high = 5 + len(peaks.area[4]) if not peaks.peaked[4] else 5 + len(peaks.piles[0])
    low = 5 + len(short.area[4])
    book.para(
        "ピーク判定は、置いて取るのをすべて終えた後に行います。"
        f"5が3枚あるところに5を2枚置き、置いたばかりの5を1枚取り返すと、列は"
        f"{high - 5}枚で上限は{high}。" + ("9に届くので、やはりピークです。"
                                          if peaks.peaked[4] else "ピークにはなりません。")
        + f"5が2枚のところで同じことをすると、上限は{low}で"
        + ("ピークです。" if short.peaked[4] else "ピークにはなりません。"),
        "The peak check comes after all placing and taking. With 3 hats of number 5 in the "
        "area, a player who places 2 of their 5s and takes 1 of those 5s back leaves "
        f"{high - 5} in the column: the limit is {high}, "
        + ("and reaching 9 it still peaks. " if peaks.peaked[4] else "so it does not peak. ")
        + f"With only 2 hats of number 5 there, the same pass leaves a limit of {low}: "
        + ("it peaks." if short.peaked[4] else "no peak."))


def play_set(book: Book) -> None:
    """N1, N4: a set of 5 using 3s stretched by the area, and the card drawn after it."""
    state = _position(book, "n=4 hands=3S3F5C5B5S1S/6B/6B/6B area=3C3B "
                            "deck=2S4F")
    hand = list(state.hands[0])
    _act(book, state, "declare 5")
    while state.phase() == "pick":
        _act(book, state, state.action_to_string(state.legal_actions()[0]))
    played = state.sets[0][-1]
    persona = any(book.game.cards("hats")[c]["suit"] == "ペルソナ" for c in played)
    scene = book.scene()
    x = 0.0
    for card in hand:
        chosen = card in played
        w, _ = scene.card(book.art.face("hats", _row_id(book, card)), x, 0, SMALL * 1.1,
                          highlight=chosen, dim=not chosen)
        if chosen:
            scene.label(book.t("5として", "as 5"), x + w / 2, -MIN_LABEL - 4, anchor="middle")
        x += w + 4
    book.picture(scene, book.t("3・3・5・5・5で値5のセット", "3, 3, 5, 5, 5 as a set of 5"))
    top3 = limit(state, 3)
    book.para(
        f"【エリア】に3が{len(state.area[2])}枚あるので、3の帽子は{_values(book, 3, top3)}"
        f"として使えます。値5を宣言し、3・3・5・5・5の{len(played)}枚でセットにします。"
        + ("このセットにはペルソナが入っているので、山札から引いた1枚は【エリア】に置きます。"
           if persona else "ペルソナが入っていないので、山札から引いた1枚は、見てから手札に"
           "加えることもできます。"),
        f"With {len(state.area[2])} hats of number 3 in the area, a 3 may be used as "
        f"{_values(book, 3, top3)}. The player declares 5 and lays 3, 3, 5, 5, 5: "
        f"{len(played)} cards. " + ("The set holds a Persona, so the player then draws 1 "
                                    "card and it goes to the area." if persona else
                                    "The set has no Persona, so the player then draws 1 "
                                    "card and may look at it and keep it in hand."))


#: The scoring example: seat 0's sets, peak pile and hand at the end.
SCORING = ("n=4 phase=over hands=2S6C/-/-/- sets=4S4S4F4P,2B3B3B4B4B5P/-/-/- "
           "peaks=5S5S5F5C5B/-/-/-")


def scoring(book: Book) -> None:
    """N6: one player's sets scored by the simple and by the full method."""
    simple = _position(book, SCORING, "simple")
    full = _position(book, SCORING, "full")
    g_simple, g_full = _game(book, "simple"), _game(book, "full")
    hats = book.game.cards("hats")
    rows = []
    scene = book.scene()
    y = 0.0
    for cards in reversed(simple.sets[0]):
        x = 0.0
        for card in cards:
            w, _ = scene.card(book.art.face("hats", _row_id(book, card)), x, y, SMALL * 0.9)
            x += w + 3
        y += SMALL * 0.9 * 88 / 63 + 6
    for cards in simple.sets[0]:
        size = len(cards)
        base = g_full.base_points[size - 1]
        suits: dict[str, int] = {}
        for c in cards:
            suits[hats[c]["suit"]] = suits.get(hats[c]["suit"], 0) + 1
        make_up = book.lang.list_sep.join(f"{book.term(s)}{n}" if book.ja else
                                          f"{book.term(s)} ×{n}" for s, n in suits.items())
        rows.append([book.t(f"{size}枚（基礎点{base}）", f"{size} cards (base {base})")
                     + "<br>" + make_up, str(g_simple.score_set(cards)),
                     str(g_full.score_set(cards))])
    pile, hand = len(simple.piles[0]), len(simple.hands[0])
    rows.append([book.t(f"ピーク札{pile}枚", f"Peak pile: {pile} cards"), f"+{pile}", f"+{pile}"])
    rows.append([book.t(f"手札{hand}枚", f"{hand} cards left in hand"), f"−{hand}", f"−{hand}"])
    rows.append([book.t("**合計**", "**Total**"), f"**{int(simple.returns()[0])}**",
                 f"**{int(full.returns()[0])}**"])
    book.picture(scene, book.t(f"ゲーム終了時の{len(simple.sets[0])}つのセット",
                               f"{len(simple.sets[0])} sets at the end of the game"))
    sets = len(simple.sets[0])
    book.para(f"あるプレイヤーが次の{sets}つのセットを持ち、ピーク札{pile}枚、手札{hand}枚でゲームを"
              "終えました。",
              f"A player ends the game with these {sets} sets, a peak pile of {pile} cards and "
              f"{hand} cards in hand.")
    book.table([book.t("セット", "Set"), book.t("簡単計算", "Simple"),
                book.t("しっかり計算", "Full")], rows, "lrr")


register_rulebook("nine_peak", examples={
    "hat_values": hat_values, "peak_pass": peak_pass, "peak_takeback": peak_takeback,
    "play_set": play_set, "scoring": scoring,
}, figures={"area": setup_area})
