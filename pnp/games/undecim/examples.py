"""Undecim's rulebook content: settling and scoring played by the engine, and the table layout.

Examples are scripted positions in the engine's notation
(:mod:`pnp.games.undecim.notation`); settling is played with the engine's
build actions, and the scores are the engine's own (round-end land VP and the
final breakdown of ruling U6), so a change to a constant such as
``settlement_vp`` changes the book. Resource cards are drawn with the half
that counts on top (a card whose lower half counts is turned round).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pnp.errors import PnpError
from pnp.games.undecim.engine import UndecimGame, UndecimState
from pnp.games.undecim.scoring import round_land_vp
from pnp.games.book_hooks import register_rulebook
from pnp.games.book_kit import MIN_LABEL, Book, Scene, card_width

SMALL = card_width(0.24)
#: Fields a scripted position leaves at their start-of-game values.
_ORDER = ("p", "s", "r", "ph", "ctr", "die", "dice", "rs", "deck", "disc", "hands", "drawn",
          "play", "setl", "vp", "acts", "known", "council", "chosen", "log", "story",
          "markers", "done", "i", "gq", "tl", "b", "night", "t")


def _game(book: Book) -> UndecimGame:
    game: UndecimGame = book.engine()
    return game


def _pairs(text: str) -> list[str]:
    """Two-character card codes of a run (``-`` for none)."""
    if text in ("", "-"):
        return []
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def _type_of(game: UndecimGame, code: str) -> int:
    """The resource row of a card code written either way round (石草 or 草石)."""
    kc = game.kind_codes
    a, b = kc.index(code[0]), kc.index(code[1])
    top, bottom = (a, b) if a <= game.EN else (b, a)
    return game.types.index((top, bottom))


def position(book: Book, **fields: str) -> UndecimState:
    """A 4-player position from notation fields; unnamed resource cards fill the deck."""
    game = _game(book)
    n = int(fields.get("p", "4"))
    seats = "/".join(["-"] * n)
    f: dict[str, str] = {
        "p": str(n), "s": "1", "r": "1", "ph": "choose_action", "ctr": "10", "die": "0",
        "dice": ",".join(["1"] * game.rounds), "rs": "1", "disc": "-", "hands": seats,
        "drawn": seats, "play": seats, "setl": seats, "vp": "/".join(["0.0.0.0.0"] * n),
        "acts": "/".join(["-"] * n), "known": seats, "chosen": seats, "log": "-",
        "story": ",".join(s.id for s in game.scenarios if s.season == 1), "markers": "-",
        "done": "-", "i": "0", "gq": "-", "tl": "0", "b": "0.0.0", "night": "-", "t": "0"}
    f.update(fields)
    if "council" not in fields:
        held = {int(x) for part in f["acts"].split("/") if part != "-" for x in part.split(".")}
        f["council"] = ".".join(str(a) for a in range(1, game.n_actions + 1)
                                if a not in held) or "-"
    try:
        used: Counter[int] = Counter()
        for key in ("disc", "hands", "drawn", "play", "setl"):
            for part in f[key].replace(",", "/").split("/"):
                for code in _pairs(part):
                    used[_type_of(game, code)] += 1
        total = Counter(game.card_type)
        kc = game.kind_codes
        code_of = [kc[a] + kc[b] for a, b in game.types]
        if any(total[t] < used[t] for t in used):
            raise PnpError("more cards of one kind than the data has")
        f["deck"] = "".join(code_of[t] for t in range(game.n_types)
                            for _ in range(total[t] - used[t])) or "-"
        return game.state_from_notation("undecim " + " ".join(f"{k}={f[k]}" for k in _ORDER))
    except (PnpError, ValueError) as exc:
        message = exc.message if isinstance(exc, PnpError) else str(exc)
        raise book.fail(f"the scripted position does not fit the data: {message}") from None


def _act(book: Book, state: UndecimState, text: str) -> None:
    try:
        state.apply_action(state.string_to_action(text))
    except PnpError as exc:
        raise book.fail(f"the scripted action {text!r} is not legal: {exc.message}") from None


def _draw(book: Book, scene: Scene, state: UndecimState, card: int, x: float, y: float,
          width: float = SMALL, highlight: bool = False) -> float:
    """A resource card in play, the half that counts on top; returns its width."""
    game = _game(book)
    t = game.card_type[card]
    layout: Any = book.art.face("resources", game.type_ids[t])
    w, _ = scene.card(layout, x, y, width, rotate=180 if state.up[card] == game.types[t][1]
                      else 0, highlight=highlight)
    return w


def _kind(book: Book, game: UndecimGame, kind: int) -> str:
    return book.term(game.kind_names[kind])


def settle(book: Book) -> None:
    """U3, U4: three stones become a settlement, and a gold develops it."""
    game = _game(book)
    state = position(book, ph="build", die="1", log="6.7.8.9", acts="1/2/3/4", i="0",
                     b="0.0.1", play="石草石森石沼粘山金敵草木/-/-/-")
    loose_before = list(state.loose[0])
    _act(book, state, "settle 石+石+石")
    built = state.setl[0][-1][2]
    scene = book.scene()
    x = 0.0
    for card in loose_before:
        x += _draw(book, scene, state, card, x, 0, highlight=card in built) + 4
    book.picture(scene, book.t(f"自分の前のカード：石の{len(built)}枚で入植する",
                               f"Cards in play: the {len(built)} stones found a settlement"))
    grown = position(book, ph="build", die="1", log="6.7.8.9", acts="1/2/3/4", i="0",
                     b="0.0.1", play="金敵草木/-/-/-", setl="石草石森石沼/-/-/-")
    before = len(grown.setl[0][0][2])
    _act(book, grown, "develop #1 with 金")
    after = len(grown.setl[0][0][2])
    stone = _kind(book, game, game.MAT0)
    gold = _kind(book, game, game.GOLD)
    book.para(
        f"自分の前に{stone}が上のカードが{len(built)}枚あるので、オートアクションでまとめて入植地に"
        f"します（同じ資源の入植地）。次の機会に、{gold}を必要な資源の代わりにして発展させると、"
        f"入植地は{before}枚から{after}枚になります。",
        f"{len(built)} cards in play show {stone}, so the auto action turns them into a settlement "
        f"(a same-material one). At a later chance, a {gold} stands in for the missing "
        f"{stone} and develops it: the settlement grows from {before} to {after} cards.")


def round_end(book: Book) -> None:
    """U6: land VP at the end of a round, by kinds held, doubled with a full set."""
    game = _game(book)
    full_min = int(book.constants["land_full_set_min"])
    kinds = [2, 2, 2, 1][:game.n_lands]
    one = round_land_vp(kinds, game.land_kind_vp, full_min,
                        int(book.constants["land_full_set_vp"]))
    more = [max(k, full_min) for k in kinds]
    two = round_land_vp(more, game.land_kind_vp, full_min,
                        int(book.constants["land_full_set_vp"]))
    names = [_kind(book, game, k) for k in game.lands]
    held = book.lang.list_sep.join(f"{n}{c}" if book.ja else f"{c} {n}"
                                   for n, c in zip(names, kinds))
    book.para(
        f"ラウンド終了時に{held}を持っていれば、{sum(1 for k in kinds if k)}種類で{one}VPです。"
        f"{names[-1]}がもう1枚あれば、全種類{full_min}枚以上なので{two}VPになります。",
        f"Holding {held} at the end of a round scores {one} VP for "
        f"{sum(1 for k in kinds if k)} kinds. 1 more {names[-1]} makes {full_min} or more of "
        f"every kind: {two} VP.")


def final_score(book: Book) -> None:
    """U6: the end-of-game VP of lands, settlements and gold, computed by the engine."""
    game = _game(book)
    state = position(book, ph="over", r=str(game.rounds + 1),
                     log=",".join(["1.2.3.4"] * game.rounds), acts="5/6/7/8",
                     play="草石草木森木森粘沼石山鉄金敵金敵/-/-/-",
                     setl="石草石森石沼,石山木森粘沼金敵/-/-/-", vp="9.5.6.0.0/0.0.0.0.0/"
                     "0.0.0.0.0/0.0.0.0.0")
    lands, settled, gold = state.final_vp(0)
    banked = sum(state.vp[0])
    total = int(state.returns()[0])
    sizes = [len(s[2]) for s in state.setl[0]]
    n_lands = sum(state.cnt[0][k] for k in game.lands)
    n_gold = state.cnt[0][game.GOLD]
    scene = book.scene()
    y = 0.0
    for settlement in reversed(state.setl[0]):
        x = 0.0
        for card in settlement[2]:
            x += _draw(book, scene, state, card, x, y, SMALL * 0.85) + 3
        y += SMALL * 0.85 * 88 / 63 + 8
    book.picture(scene, book.t(f"入植地{len(sizes)}つ（{sizes[0]}枚と{sizes[1]}枚）",
                               f"{len(sizes)} settlements ({sizes[0]} and {sizes[1]} cards)"))
    rows = [[book.t("土地", "Lands"), book.t(f"{n_lands}枚 × {game.land_card_vp}",
                                             f"{n_lands} × {game.land_card_vp}"), str(lands)]]
    for size in sizes:
        rows.append([book.t(f"入植地（{size}枚）", f"Settlement ({size} cards)"),
                     book.t("表より", "from the table"),
                     str(game.settle_table[min(size, len(game.settle_table) - 1)])])
    rows.append([book.t("金", "Gold"), book.t(f"{n_gold}枚 × 入植地{len(sizes)}つ",
                                              f"{n_gold} × {len(sizes)} settlements"),
                 str(gold)])
    rows.append([book.t("ゲーム中に得たVP", "VP banked during the game"), "", str(banked)])
    rows.append([book.t("**合計**", "**Total**"), "", f"**{total}**"])
    if sum(game.settle_table[min(s, len(game.settle_table) - 1)] for s in sizes) != settled:
        raise book.fail("the settlement rows disagree with the engine's settlement VP")
    book.para(
        f"ゲーム終了時に、土地{n_lands}枚、入植地{len(sizes)}つ、入植地に入っていない金{n_gold}枚"
        f"を持ち、ゲーム中に{banked}VPを得ていた場合：",
        f"At the end a player holds {n_lands} lands, {len(sizes)} settlements and {n_gold} "
        f"loose gold, and banked {banked} VP during the game:")
    book.table([book.t("項目", "Item"), book.t("計算", "Calculation"), "VP"], rows, "llr")


def table_layout(book: Book) -> None:
    """The table at the start: Red Moon with its counters, council, Story, deck, a seat."""
    game = _game(book)
    counters = int(book.constants["time_counters"])
    scene = book.scene()
    w = SMALL
    h = w * 88 / 63
    moon = book.game.rows["red_moon"][0].id
    scene.card(book.art.face("red_moon", moon), 0, 0, w)
    # The counters lie on the Red Moon card.
    per_row = 5
    for i in range(counters):
        scene.token(w * 0.18 + (i % per_row) * w * 0.16, h * 0.2 + (i // per_row) * w * 0.16,
                    w * 0.07, fill="accent")
    scene.label(book.t("【赤い月】", "Red Moon"), w / 2, -MIN_LABEL - 4, anchor="middle",
                color="accent")
    scene.label(book.t(f"カウンター{counters}個", f"{counters} counters"), w / 2,
                -2 * MIN_LABEL - 7, anchor="middle")
    story = [s for s in book.game.rows["scenarios"] if int(s.values["season"]) == 1]
    x = w + 26
    for row in story:
        x += scene.card(book.art.face("scenarios", row.id), x, 0, w)[0] + 4
    scene.label(book.t("【ストーリー】", "Story"), (w + 26 + x) / 2, -MIN_LABEL - 4,
                anchor="middle", color="accent")
    deck_x = x + 14
    back = book.art.back("resources", game.type_ids[0])
    for i in range(3):
        scene.card(back, deck_x + i * 1.2, i * 1.2, w)
    scene.label(book.t("リソースの山札", "Resource deck"), deck_x + w / 2, -MIN_LABEL - 4,
                anchor="middle")
    council = [r for r in book.game.rows["actions"]][:3]
    y = -h - 30
    x = 0.0
    for row in council:
        x += scene.card(book.art.face("actions", row.id), x, y, w)[0] + 4
    scene.label(book.t("【場】（表向きのアクションカード）", "Council (face-up actions)"), 0,
                y - MIN_LABEL - 4, size=7, color="accent")
    book.picture(scene, book.t("テーブルの中央", "The middle of the table"))


register_rulebook("undecim", examples={
    "settle": settle, "round_end": round_end, "final_score": final_score,
}, figures={"table": table_layout})
