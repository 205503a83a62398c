"""第2話's rulebook content: a fight played by the engine, the attack odds and the table layout.

The fight is a scripted position in the engine's notation
(:mod:`pnp.games.episode2.notation`) with its dice fixed (``dice=``), played
with the engine's actions: the totals, the damage that a failed reroll would
have done and the spoils are read from the engine, so changing the ♠ bonus,
the dice or a boss's HP in the data changes the book. The odds table is
computed from the same constants (moved here from the generic rulebook code:
it is this game's).
"""

from __future__ import annotations

import json
from itertools import product
from typing import Sequence

from pnp.errors import PnpError
from pnp.games.episode2.engine import Episode2Game, Episode2State
from pnp.games.book_hooks import register_rulebook
from pnp.games.book_kit import MIN_LABEL, Book, Scene, card_width
from pnp.units import mm

SMALL = card_width(0.3)


def _game(book: Book) -> Episode2Game:
    game: Episode2Game = book.engine()
    return game


def position(book: Book, *, hand: Sequence[str], deck: Sequence[str], boss: str,
             hp: str, dice: Sequence[int]) -> Episode2State:
    """A main-phase position; unlisted player cards are discarded, unlisted bosses wait."""
    game = _game(book)
    players = list(game.names[:game.num_player_cards])
    bosses = list(game.names[game.num_player_cards:])
    used = set(hand) | set(deck)
    discard = [c for c in players if c not in used]
    enemies = [b for b in bosses if b != boss]

    def cards(names: Sequence[str]) -> str:
        return ",".join(names) if names else "-"

    text = (f"episode2 main hp={hp} hand={cards(hand)} deck={cards(deck)} pool=- "
            f"discard={cards(discard)} boss={boss} enemies={cards(enemies)} spoils=- "
            f"dice={','.join(map(str, dice))}")
    try:
        return game.state_from_notation(text)
    except PnpError as exc:
        raise book.fail(f"the scripted position does not fit the data: {exc.message}") from None


def _act(book: Book, state: Episode2State, text: str) -> None:
    try:
        state.apply_action(state.string_to_action(text))
    except PnpError as exc:
        raise book.fail(f"the scripted action {text!r} is not legal: {exc.message}") from None


def _card(book: Book, scene: Scene, name: str, x: float, y: float, *, width: float = SMALL,
          highlight: bool = False, face_down: bool = False) -> float:
    """A card of either deck: its printed face when the data has a template, else a plain card."""
    for cid in ("enemies", "player"):
        component = book.game.manifest.components.get(cid)
        if component is None or not component.face:
            continue
        for row in book.game.rows.get(cid, []):
            if f"{row.values['suit']}{row.values['rank']}" == name:
                art = book.art.back if face_down else book.art.face
                w, _ = scene.card(art(cid, row.id), x, y, width, highlight=highlight)
                return w
    w, _ = scene.playing_card(name[1:], name[0], x, y, width, highlight=highlight,
                              face_down=face_down)
    return w


def attack_reroll(book: Book) -> None:
    """E2, E4: a ♠ attack that falls short, saved by a ♦ reroll."""
    game = _game(book)
    bonus = int(game.params["spade_bonus"])
    state = position(book, hand=["♠7", "♦3", "♥2"], deck=["♣5", "♥4", "♠9"], boss="♥Q",
                     hp="8/8", dice=[4, 3, 2, 6])
    boss_hp = game.hp_of[state.boss]
    _act(book, state, "attack ♠7")
    if state.phase() != "damage":
        raise book.fail("the scripted attack no longer fails (check the dice and the boss HP)")
    roll = list(state.dice)
    total = sum(roll) + bonus
    # What taking the damage instead would cost (the same position, another choice).
    instead = state.clone()
    hp_before = instead.hp
    _act(book, instead, "take damage")
    damage = hp_before - instead.hp
    low = min(range(len(roll)), key=roll.__getitem__)
    reroll = next((state.action_to_string(a) for a in state.legal_actions()
                   if state.action_to_string(a).startswith(f"reroll {low + 1} with ")), None)
    if reroll is None:
        raise book.fail("no reroll of the lowest die is legal in the scripted fight")
    # The reroll takes the next die of the position's fixed queue (dice=…).
    new_face = state.fixed[0]
    _act(book, state, reroll)
    won = game.names.index("♥Q") in state.spoils
    new_roll = roll[:]
    new_roll[low] = new_face
    new_total = sum(new_roll) + bonus
    scene = book.scene()
    x = _card(book, scene, "♥Q", 0, 0, highlight=True)
    scene.label(f"HP {boss_hp}", x / 2, -MIN_LABEL - 4, anchor="middle", color="accent")
    x += 16
    w = _card(book, scene, "♠7", x, 0)
    scene.label(book.t("攻撃", "attack"), x + w / 2, -MIN_LABEL - 4, anchor="middle")
    x += w + 16
    size = mm(9)
    for i, face in enumerate(roll):
        scene.die(x + i * (size + 4), SMALL * 0.9, size, face, highlight=i == low)
    scene.label(f"{' + '.join(map(str, roll))} + {bonus} = {total}", x, SMALL * 0.9 - 12,
                size=7.5)
    for i, face in enumerate(new_roll):
        scene.die(x + i * (size + 4), SMALL * 0.05, size, face, highlight=i == low)
    scene.label(f"{' + '.join(map(str, new_roll))} + {bonus} = {new_total}", x,
                SMALL * 0.05 - 12, size=7.5)
    scene.arrow(x + 3 * (size + 4) + 6, SMALL * 0.9 + size / 2, x + 3 * (size + 4) + 6,
                SMALL * 0.05 + size + 2)
    scene.label(book.t("♦で振り直し", "reroll with ♦"), x + 3 * (size + 4) + 12,
                SMALL * 0.5, size=7.5)
    book.picture(scene, book.t("♠7の攻撃と♦の振り直し", "An attack with the ♠7 and a ♦ reroll"))
    roll_text = book.lang.list_sep.join(map(str, roll))
    book.para(
        f"HP{boss_hp}のQに、♠7で攻撃します。サイコロは{roll_text}で、合計{sum(roll)}＋{bonus}＝"
        f"{total}。{boss_hp}に届かないので失敗です。ダメージを記録する前に♦を出し、"
        f"{roll[low]}の目を振り直すと{new_face}が出ました。"
        f"{'＋'.join(map(str, new_roll))}＋{bonus}＝{new_total}で"
        + (f"勝ち。Qを戦利品にし、捨てて引いてから次のボスを表にします。" if won else
           "まだ届きません。")
        + f"もし振り直さずにダメージを受けていたら、{boss_hp}−{total}＝{damage}のダメージでした。",
        f"Against the Q (HP {boss_hp}) the player attacks with the ♠7 and rolls {roll_text}: "
        f"{sum(roll)} + {bonus} = {total}, short of {boss_hp}, so the attack fails. Before "
        f"the damage is recorded the player spends a ♦ to reroll the {roll[low]}, and rolls "
        f"a {new_face}: {' + '.join(map(str, new_roll))} + {bonus} = {new_total}"
        + (". The Q is defeated and taken as spoils; the player may discard and draw, and "
           "the next boss is turned up." if won else ", still short.")
        + f" Taking the damage instead would have cost {boss_hp} − {total} = {damage} HP.")


def dice_at_least(dice: int, sides: int, target: int) -> float:
    """Probability that ``dice`` fair dice with ``sides`` faces total at least ``target``."""
    hits = sum(1 for roll in product(range(1, sides + 1), repeat=dice) if sum(roll) >= target)
    return hits / sides ** dice


def attack_odds(book: Book) -> None:
    """The chance that one attack roll beats each boss HP (no reroll), ♣ and ♠."""
    game = _game(book)
    dice = int(game.params["attack_dice"])
    bonus = int(game.params["spade_bonus"])
    by_hp: dict[int, list[str]] = {}
    for row in book.game.rows.get("enemies", []):
        by_hp.setdefault(int(row.values["hp"]), []).append(str(row.values.get("rank", "")))
    rows = []
    for hp in sorted(by_hp):
        ranks = book.lang.list_sep.join(dict.fromkeys(by_hp[hp]))
        rows.append([book.t(f"{hp}（{ranks}）", f"{hp} ({ranks})"),
                     f"{dice_at_least(dice, 6, hp):.1%}", f"{dice_at_least(dice, 6, hp - bonus):.1%}"])
    book.table([book.t("ボスのHP", "Boss HP"),
                book.t(f"♣で攻撃（{dice}D6）", f"♣ attack ({dice}d6)"),
                book.t(f"♠で攻撃（{dice}D6＋{bonus}）", f"♠ attack ({dice}d6 + {bonus})")],
               rows, "lrr")


def layout(book: Book) -> None:
    """The table: enemy deck and boss above, the player's deck, hand and pool below."""
    game = _game(book)
    hand_size = int(game.params["hand_size"])
    hp = int(game.params["starting_hp"])
    dice = int(game.params["attack_dice"])
    scene = book.scene()
    w = card_width(0.26)
    h = w * 88 / 63
    gap = 6.0
    # Row 2 (the player's): deck, hand, pool; row 1 above it: enemy deck, boss, dice.
    row1 = h + MIN_LABEL + 16
    for i in range(4):
        _card(book, scene, "♥K", i * 1.2, row1 + i * 1.2, width=w, face_down=True)
    scene.label(book.t("敵の山札", "Enemy deck"), w / 2, row1 - MIN_LABEL - 4, anchor="middle")
    _card(book, scene, "♥Q", w + 2 * gap, row1, width=w, highlight=True)
    scene.label(book.t("ボス", "Boss"), w * 1.5 + 2 * gap, row1 - MIN_LABEL - 4,
                anchor="middle")
    for i in range(4):
        _card(book, scene, "♠A", i * 1.2, i * 1.2, width=w, face_down=True)
    scene.label(book.t("自分の山札", "Your deck"), w / 2, -MIN_LABEL - 4, anchor="middle")
    hand = ["♠7", "♦3", "♥2", "♣5", "♥6", "♣9"][:hand_size]
    x = w + 2 * gap
    for name in hand:
        x += _card(book, scene, name, x, 0, width=w) + 3
    scene.label(book.t(f"手札（{hand_size}枚）", f"Hand ({hand_size} cards)"),
                (w + 2 * gap + x) / 2, -MIN_LABEL - 4, anchor="middle")
    scene.zone(x + gap, 0, w * 1.2, h, book.t("プール", "Pool"), label_pos="bottom")
    size = mm(7)
    dx = w * 2 + 4 * gap
    for i in range(dice):
        scene.die(dx + i * (size + 4), row1 + h / 2 - size / 2, size, (3, 5, 6, 2, 4, 1)[i % 6])
    scene.label(book.t(f"サイコロ{dice}個", f"{dice} dice"), dx, row1 + h / 2 - size / 2 - 11,
                size=7)
    tracker = next(iter(book.game.rows.get("hp_tracker", [])), None)
    if tracker is not None:
        board = book.art.face("hp_tracker", tracker.id)
        width = min(board.width * 0.5, 290.0)
        y = -MIN_LABEL - 24 - board.height * width / board.width
        scene.card(board, 0, y, width)
        scene.label(book.t(f"HPトラッカー（開始HP {hp}）", f"HP tracker (start at {hp})"),
                    width / 2, y - MIN_LABEL - 4, anchor="middle")
    book.picture(scene, book.t("テーブルの配置", "The table"))


#: The saved sweep the "How the starting HP was chosen" section shows first
#: (the careful player), whose figures the choice sentence reads.
HP_SWEEP = "sweeps/starting_hp-heuristic.json"
#: Game over in at least this share of the careful player's runs is "a real
#: danger" (one run in ten or more; the default 8 HP: 14.4 %) …
GAME_OVER_REAL = 0.10
#: … below this share it "hardly happens" (fewer than one run in thirty: at
#: 14+ HP it is 2–3 %, the deck and not HP ending the runs, E3); between the
#: two it is "possible but uncommon" (12 HP: 3.7 %).
GAME_OVER_RARE = 0.03
#: The true end "is rare" below this share of runs (6 HP: 3.8 %) …
TRUE_END_RARE = 0.10
#: … and "comes in a good share of runs" from this one (12 HP: 41.8 %);
#: between the two it is "within reach but not easy" (8 HP: 19.6 %).
TRUE_END_COMMON = 0.35


def _sweep_row(book: Book, hp: int) -> dict[str, float] | None:
    """The careful player's outcome rates at ``hp`` from the saved sweep, None if not in it."""
    path = book.game.manifest.game_dir / HP_SWEEP
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        rows = doc["rows"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise book.fail(f"hp_choice: cannot read {path} as a saved sweep (pnp simulate "
                        f"episode2 --sweep starting_hp=… --json {HP_SWEEP}): {exc}") from None
    for row in rows:
        if str(row.get("values", {}).get("starting_hp")) == str(hp):
            return {f["name"]: float(f["value"]) for f in row.get("figures", [])}
    return None


def hp_choice(book: Book) -> None:
    """Why the starting HP is what the data says, worded from the measured rates (E3).

    The sentence used to be fixed text written for the default 8 ("game over
    remains a real danger"); a designer who set 12 got that justification
    beside a table showing 3.7 % game over. Now the words follow the careful
    player's rates at the chosen HP in the saved sweep, by the thresholds
    above; an HP the sweep did not play is said as such, with the command.
    """
    hp = int(_game(book).params["starting_hp"])
    rates = _sweep_row(book, hp)
    if rates is None or "game_over" not in rates or "true_end" not in rates:
        book.para(f"開始HPは{hp}です。上の表はこの値を試していません。表に加えるには "
                  f"`pnp simulate episode2 --sweep starting_hp=…,{hp} --json {HP_SWEEP}` "
                  "を実行してください。{E3}",
                  f"The starting HP is {hp}. The tables above do not include that value; "
                  f"to add it, run `pnp simulate episode2 --sweep starting_hp=…,{hp} --json "
                  f"{HP_SWEEP}`. {{E3}}")
        return
    over, true_end = rates["game_over"], rates["true_end"]
    g, t = f"{100 * over:.1f}%", f"{100 * true_end:.1f}%"
    if true_end < TRUE_END_RARE:
        te_ja, te_en = f"トゥルーエンドはまれ（{t}）", f"the true end is rare ({t} of runs)"
    elif true_end < TRUE_END_COMMON:
        te_ja = f"トゥルーエンドは届くものの簡単ではなく（{t}）"
        te_en = f"the true end is within reach but not easy ({t} of runs)"
    else:
        te_ja = f"トゥルーエンドにはかなりの割合で届き（{t}）"
        te_en = f"the true end comes in a good share of runs ({t})"
    if over >= GAME_OVER_REAL:
        go_ja, go_en = (f"ゲームオーバーも現実の危険です（{g}）",
                        f"game over remains a real danger ({g})")
    elif over >= GAME_OVER_RARE:
        go_ja, go_en = (f"ゲームオーバーは起こりうるものの多くはありません（{g}）",
                        f"game over is possible but uncommon ({g})")
    else:
        go_ja, go_en = (f"ゲームオーバーはほとんど起きません（{g}）",
                        f"game over hardly happens ({g}): the challenge is the true end")
    book.para(f"開始HPは{hp}にしました。慎重なプレイヤーでは、{te_ja}、{go_ja}。{{E3}}",
              f"We chose {hp}. For the careful player {te_en}, and {go_en}. {{E3}}")


register_rulebook("episode2", examples={"attack_reroll": attack_reroll,
                                        "hp_choice": hp_choice},
                  tables={"attack_odds": attack_odds}, figures={"layout": layout})
