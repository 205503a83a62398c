"""Japanese line-breaking rules (禁則処理), shared by card text and rulebooks.

One place says where a line may break, so cards and rulebooks break Japanese
the same way:

- :data:`NO_START` may not start a line (行頭禁則): closing brackets and
  punctuation, the prolonged sound mark ``ー``, small kana, iteration marks,
  wave dashes ``〜``/``～`` and the like (JIS X 4051 classes 2–6 and 10,
  simplified).
- :data:`NO_END` may not end a line (行末禁則): opening brackets and quotes,
  and prefix signs that belong to the number after them (``＋1``, ``×3``).
- :data:`INSEPARABLE` pairs (``……``, ``——``) are never split.
- Numbers stay with what qualifies them: a digit and the unit after it
  (``3枚``, ``2人``), and a range or value pair (``1〜3``, ``3枚9``,
  ``2×3``) never split. ``9VP`` is Latin and never splits anyway.
- A formula keeps its operators: a full-width sign right after a Latin
  letter or a digit joins the two sides (``n＋c``, ``2＝2``), so no line
  starts with the sign; after Japanese text (``土地＋1``) it is the number's
  own sign, and a line may break before it.

Those are hard rules. One rule is soft, a preference the line filler
follows when it can:

- A katakana word (a run of katakana with ``ー``, small kana and the
  iteration marks, e.g. ``スート``, ``チップ``, ``ボーナス``) is not split:
  when the line could also break outside the word, it breaks there and the
  whole word moves down (:func:`splits_word`). A word longer than a line
  still breaks inside, as it must; ``・`` ends a word (``カード・チップ``).
  The line filler gives the rule up where it would cost the paragraph a
  line or leave a visible hole at the line end (more than 3 em, or a
  quarter of the line, :data:`pnp.render.textlayout.WORD_GAP_EM`). Then,
  rather than leave one or two of the word's characters alone on either
  line (``キャンペー|ン``, ``ノーマル・クリ|ア``), it breaks before the word,
  after its ``・`` or inside it with three characters or more on each side
  and not before ``ン`` (``キャン|ペーン``), within 5 em and the same quarter
  (:data:`pnp.render.textlayout.FRAGMENT_GAP_EM`), never at the cost of a line.
- A compound of known words (a katakana run made wholly of words in
  :data:`WORD_LIST`, ``スタートプレイヤー``, ``ホイールオブフォーチュン``) that
  must split splits between two of its words (``スタート|プレイヤー``), not
  where the line happens to be full (``スター|トプレイヤー``): the line filler
  takes the latest such boundary, or the place before the word, within the
  same 5 em and quarter, with three characters or more on each side and at
  no cost of a line (:func:`word_boundaries`); where there is none it falls
  back to the rule above. A single word and a run with an unlisted part
  break as before.

Text code asks :func:`keeps_together` about each pair of neighbouring
characters; :func:`break_points` answers the same for a whole string.
Avoiding a last line of one or two characters and keeping katakana words
whole are line-filling decisions and live with the line filler
(:func:`pnp.render.textlayout.break_lines`), which asks :func:`splits_word`
and :func:`word_boundaries`.

Who uses it: card text (:mod:`pnp.render.textlayout`), and the rulebook
PDF's Japanese paragraphs, table cells and picture labels, which go through
the same :func:`~pnp.render.textlayout.chunks` and
:func:`~pnp.render.textlayout.break_lines` (:class:`pnp.rulebook.pdf.JaParagraph`,
:func:`pnp.rulebook.pictures.wrap_text`), so a rule changed here changes
cards and books alike. The HTML rulebook leaves wrapping to the browser
with CSS ``line-break: strict`` (the same no-start set, roughly).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Callable

from pnp.errors import PnpError

#: Characters that may not start a line (行頭禁則).
NO_START = frozenset(
    "。、，．・：；？！」』）］｝〉》】〕〗〙〛”’〟"
    "ーぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ"
    "々〻ゝゞヽヾ゛゜‐゠–〜～"
    ")]},.:;!?%\u2019\u201d"
    "ｧｨｩｪｫｯｬｭｮｰ｡､･｣）］｝，．：；？！％"
)
#: Characters that may not end a line (行末禁則): opening brackets and quotes,
#: and signs that belong to the number after them.
NO_END = frozenset("「『（［｛〈《【〔〖〘〚“‘〝([{\u2018\u201c＄￥＃｢（［｛＋－±×÷≦≧＜＞№")
#: Characters that may not be separated from each other (分離禁止).
INSEPARABLE = frozenset("…‥—―")
#: Digits (ASCII and full-width): a number never splits from its unit or range.
DIGITS = frozenset("0123456789０１２３４５６７８９")
#: Counters and units that follow a number (3枚, 2人, 10点, 1位 …).
UNITS = frozenset("枚点人個回位倍体本匹番目列段枠度秒分日週月年円組周戦話章歳名")
#: Marks that join two numbers into one range or pair (1〜3, 2×3, 4:3, 1/2).
JOINERS = frozenset("〜～~-‐–—－−×:：/／")
#: Full-width signs that join a formula's two sides after a letter or digit (n＋c).
INFIX = frozenset("＋－±×÷＝＜＞≦≧")


#: Katakana that make up a word: letters with the small ones (ァ–ヺ), ``ー``,
#: the iteration marks ヽヾ, the small-kana extension (ㇰ–ㇿ) and half-width
#: katakana with their ｰ and sound marks. ``・`` (U+30FB) and ``゠`` are left
#: out: they stand between words.
_KATAKANA_RANGES = ((0x30A1, 0x30FA), (0x30FC, 0x30FE), (0x31F0, 0x31FF), (0xFF66, 0xFF9F))
#: The same characters as a set: the line filler asks at every line end, and
#: a set look-up is several times faster than walking the ranges.
KATAKANA = frozenset(chr(cp) for lo, hi in _KATAKANA_RANGES for cp in range(lo, hi + 1))


def splits_word(a: str, b: str) -> bool:
    """Return True if a break between ``a`` and ``b`` would split a katakana word.

    A soft rule: the line filler avoids such a break when the line can
    break elsewhere, and takes it when the word is longer than the line.
    """
    return a in KATAKANA and b in KATAKANA


#: The katakana words the shipped games use (short units: スタート and プレイヤー,
#: never スタートプレイヤー), one a line; the format is in the file's header.
WORD_LIST = Path(__file__).with_name("katakana_words.txt")
#: Characters a listed word may not start with: they never start a word.
_NOT_WORD_START = NO_START & KATAKANA


def load_words(path: Path) -> frozenset[str]:
    """Read a katakana word list: one word a line, ``#`` comments and blank lines skipped.

    Raises :class:`~pnp.errors.PnpError` naming ``file:line`` for a line
    that is not one full-width katakana word, that starts with ``ー`` or a
    small kana, or that repeats an earlier word.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PnpError(f"{path}: cannot read the katakana word list ({exc})") from None
    words: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        word = raw.strip()
        if not word or word.startswith("#"):
            continue
        where = f"{path}:{number}"
        # half-width katakana (U+FF66..) are left out: the list is full-width
        if any(ch not in KATAKANA or ch >= "\uff00" for ch in word):
            raise PnpError(f"{where}: {word!r} is not a katakana word; expected one word "
                           f"of full-width katakana a line (# starts a comment)")
        if word[0] in _NOT_WORD_START:
            raise PnpError(f"{where}: {word!r} starts with {word[0]!r}, which never starts "
                           f"a word; expected a word such as スタート")
        if word in words:
            raise PnpError(f"{where}: {word!r} is listed twice (first on line {words[word]}); "
                           f"expected each word once")
        words[word] = number
    return frozenset(words)


@lru_cache(maxsize=1)
def known_words() -> frozenset[str]:
    """The shipped word list (:data:`WORD_LIST`), read once on first use."""
    return load_words(WORD_LIST)


@lru_cache(maxsize=4096)
def word_boundaries(run: str) -> frozenset[int]:
    """Offsets inside the katakana run ``run`` where two known words meet.

    The run is cut into words of :func:`known_words`, longest match first
    (backing off where the rest would not split into known words):
    ``スタートプレイヤー`` → ``{4}``, ``ホイールオブフォーチュン`` → ``{4, 6}``. A run
    that is one word, or that has any part not in the list, gives no
    offsets: only a known compound has boundaries to prefer.
    """
    words = known_words()
    longest = max(map(len, words), default=0)
    n = len(run)
    # cuts[i]: the word ends after position i when run[i:] splits into known
    # words, taking the longest first word that lets the rest split too
    cuts: list[tuple[int, ...] | None] = [None] * (n + 1)
    cuts[n] = ()
    for i in range(n - 1, -1, -1):
        for end in range(min(n, i + longest), i, -1):
            rest = cuts[end]
            if rest is not None and run[i:end] in words:
                cuts[i] = (end, *rest)
                break
    found = cuts[0]
    return frozenset(found[:-1]) if found else frozenset()


def is_formula_term(ch: str) -> bool:
    """Return True for a Latin letter or a digit, ASCII or full-width (a formula's term)."""
    return (ch in DIGITS or "a" <= ch <= "z" or "A" <= ch <= "Z"
            or "ａ" <= ch <= "ｚ" or "Ａ" <= ch <= "Ｚ")


def is_digit(ch: str) -> bool:
    """Return True for an ASCII or full-width digit."""
    return ch in DIGITS


def keeps_together(before: str, a: str, b: str) -> bool:
    """Return True if a line must not break between ``a`` and ``b``.

    ``before`` is the character before ``a`` ("" at the start). This covers
    every rule above except the CJK/Latin question of whether the pair is a
    break opportunity at all (Latin text breaks only at spaces).
    """
    if b in NO_START or a in NO_END:
        return True
    if a in INSEPARABLE and b in INSEPARABLE:
        return True
    if a in DIGITS and (b in UNITS or b in JOINERS):
        return True                     # 3枚, 2人, 1〜 …
    if b in DIGITS and before in DIGITS and (a in UNITS or a in JOINERS):
        return True                     # 1〜3, 3枚9, 2×3
    if b in INFIX and is_formula_term(a):
        return True                     # n｜＋c: no line starts with the sign
    if a in INFIX and is_formula_term(before) and is_formula_term(b):
        return True                     # 2＝｜2: nor ends with it (＝ is not in NO_END)
    return False


_CJK_RANGES = (
    (0x1100, 0x11FF), (0x2E80, 0x2FDF), (0x3000, 0x303F), (0x3040, 0x30FF),
    (0x3100, 0x31FF), (0x3200, 0x32FF), (0x3300, 0x33FF), (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF), (0xA960, 0xA97F), (0xAC00, 0xD7FF), (0xF900, 0xFAFF),
    (0xFE30, 0xFE4F), (0xFF00, 0xFFEF), (0x20000, 0x3FFFF),
)


def is_cjk_cp(cp: int) -> bool:
    """Return True for ideographs, kana, hangul and full-width forms.

    Lines may break between two such characters (subject to kinsoku);
    Latin text breaks only at spaces.
    """
    if cp < 0x1100:
        return False
    for lo, hi in _CJK_RANGES:
        if lo <= cp <= hi:
            return True
    return cp in (0x2026, 0x2025, 0x2014, 0x2015)  # … ‥ — ― behave as CJK


def break_points(text: str, is_cjk: Callable[[str], bool] | None = None) -> list[bool]:
    """Return, for each index ``i`` in ``1..len(text)-1``, whether a line may break before it.

    The list has ``len(text)`` entries; entry 0 is always False. A break is
    allowed at a space (the space is dropped at the line end) or between two
    characters of which one is CJK, unless :func:`keeps_together` forbids it.
    """
    if is_cjk is None:
        def is_cjk(ch: str) -> bool:
            """CJK test on a character (see :func:`is_cjk_cp`)."""
            return is_cjk_cp(ord(ch))

    out = [False] * len(text)
    for i in range(1, len(text)):
        a, b = text[i - 1], text[i]
        before = text[i - 2] if i >= 2 else ""
        if b == " ":
            continue
        if a == " ":
            # a break at a space still honours the characters around it
            j = i - 1
            while j > 0 and text[j - 1] == " ":
                j -= 1
            prev = text[j - 1] if j > 0 else ""
            out[i] = bool(prev) and not (b in NO_START or prev in NO_END)
            continue
        if not (is_cjk(a) or is_cjk(b)):
            continue
        out[i] = not keeps_together(before, a, b)
    return out
