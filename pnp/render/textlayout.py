"""Text measurement, Japanese/Latin line breaking (kinsoku) and shrink-to-fit.

Text arrives as *pieces*: ``("t", fonts, color, text, tracking)`` (text in a
font fallback chain; ``tracking`` is letter-spacing in em), ``("i", icon, color)`` (an inline icon) and ``("b",)`` (a hard
line break). Pieces are measured once at 1 em and cut into unbreakable
*chunks*; every font size tried by shrink-to-fit is then only a greedy pass over
the chunks with the width budget scaled by 1/size. Results are cached, so
identical strings in identical boxes cost a dictionary look-up.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.errors import PnpError
from pnp.render import fonts, kinsoku
from pnp.render.colors import RGB
from pnp.render.kinsoku import is_cjk_cp
from pnp.render.nodes import Icon, IconUse, TextRun

#: A text piece: ("t", fonts, color, text[, tracking]), ("i", icon, color) or ("b",).
Piece = tuple

#: The kinsoku sets live in :mod:`pnp.render.kinsoku` (shared with the
#: rulebooks); re-exported here for callers that imported them from this module.
NO_START = kinsoku.NO_START
NO_END = kinsoku.NO_END
INSEPARABLE = kinsoku.INSEPARABLE
_KATAKANA = kinsoku.KATAKANA
#: A last line with this many characters or fewer is avoided when the line
#: before it can give up a word (a 1–2 character last line reads as a mistake).
SHORT_LAST_LINE = 2
#: The katakana-word rule (:func:`kinsoku.splits_word`) may leave a line at
#: most this many em short of the box edge, and at most :data:`WORD_GAP_SHARE`
#: of the line's width; beyond that the word splits where it falls. Why these:
#: left-aligned Japanese lines end within 1 em of the edge (kana and kanji are
#: all 1 em wide), so a line a few em short is what the eye catches as a hole.
#: 3 em still lets the words the rule is for (スート, チップ, ダメージ, split
#: after one or two letters) move down whole, but not a long word with most
#: of it on the line (the 第2話 aid's ゲームオーバー left a line 5 em short).
#: The share keeps a narrow card box from lines a third empty (8 em box: 2 em).
WORD_GAP_EM = 3.0
#: The same cap as a share of the line's width (see :data:`WORD_GAP_EM`).
WORD_GAP_SHARE = 0.25
#: Where the word cannot move down within :data:`WORD_GAP_EM` and the break
#: where the line is full would leave a fragment of fewer than
#: :data:`MIN_WORD_PART` characters on either side (キャンペー|ン, プレイ|ヤー,
#: ノーマル・クリ|ア), the line may end this many em short (still at most
#: :data:`WORD_GAP_SHARE` of it) to break at a better place: after the ``・``
#: or before the word, or inside a long word where both parts keep at least
#: :data:`MIN_WORD_PART` characters (ゲーム|オーバー). A fragment of one or two
#: kana is not a word the reader can take in, so it costs more than a ragged
#: line end; 5 em is what the shipped rulebooks' such words need (ゲームオーバー
#: split 3|4 in a line already 2.3 em short) and only a wide column can give
#: it (a quarter of a 20 em line; a card box's lines keep the quarter).
FRAGMENT_GAP_EM = 5.0
#: The fewest characters of a katakana word the line breaker leaves on either
#: side of a break it chose inside the word (a mora boundary: ``ー`` and small
#: kana never start a line anyway), see :data:`FRAGMENT_GAP_EM`.
MIN_WORD_PART = 3

_SPACE, _CJK, _LATIN, _ICON, _BREAK = range(5)
#: Inline icons are 1 em tall with this much space on each side (in em).
ICON_PAD = 0.06

@dataclass(slots=True)
class _Atom:
    """One character or icon with its font and width at 1 em."""

    kind: int
    ch: str              # the character ("" for icons and breaks)
    font: str
    color: RGB
    width: float
    icon: Icon | None = None
    track: float = 0.0   # letter-spacing (em) included in ``width``


@dataclass(slots=True)
class _Chunk:
    """Atoms that must stay on one line, with the glue (spaces) before them."""

    lead: list[_Atom]
    atoms: list[_Atom]
    glue: float
    width: float
    hard: bool = False


@dataclass(frozen=True, slots=True)
class TextFit:
    """Text laid out in a box: runs and icons relative to the box's top-left."""

    size: float
    lines: int
    runs: tuple[TextRun, ...]
    icons: tuple[tuple[Icon, float, float, float, float, RGB], ...]


class TextTooLong(Exception):
    """Raised by :func:`fit_text` when the text fits at no allowed size."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


_atom_cache: dict[tuple, list[_Chunk]] = {}
#: Characters (atoms) the chunks in :data:`_atom_cache` hold, all entries together.
_atoms_held = 0
_fit_cache: dict[tuple, TextFit] = {}
#: Per (font chain, character): its kind, font and width at 1 em (what
#: :func:`_atoms` measures for each character; texts share their characters,
#: so a build of the shipped cards measures 602 instead of 16,500). Bounded
#: by the characters the fonts have, per chain. The only memo of a
#: character's font: :func:`_font_for` is asked once per entry.
_char_atom: dict[tuple[tuple[str, ...], str], tuple[int, str, float]] = {}
#: Measured characters :data:`_atom_cache` keeps (oldest texts go first), not
#: entries: a rulebook paragraph holds a thousand, a card title ten, and each
#: costs ~300 bytes. 1,024 entries of a full build kept 9 MB (30,000 atoms);
#: the texts chunked again are those a paragraph's repeated wraps ask for
#: soon after, so 8,192 (~2.5 MB) misses 3 % more of a full build's calls
#: and keeps a build of thousands of distinct cards as small.
_ATOM_LIMIT = 8192
#: Entries kept in :data:`_fit_cache` (a full build of the shipped games lays
#: out ~660 distinct boxes; each entry holds its runs, ~1.4 kB).
_FIT_LIMIT = 1024


def _font_for(chain: tuple[str, ...], ch: str) -> str:
    """Return the first font in ``chain`` (then IPAexGothic) that has ``ch``.

    Not remembered here: its one caller, :func:`_measure_char`, keeps the
    answer in :data:`_char_atom`.
    """
    cp = ord(ch)
    for f in chain + (fonts.FONT_JA,):
        if fonts.has_glyph(f, cp):
            return f
    raise PnpError(f"character {ch!r} (U+{cp:04X}) is in none of the fonts "
                   f"({', '.join(chain)}); remove it or use an icon")


def _measure_char(chain: tuple[str, ...], ch: str) -> tuple[int, str, float]:
    """Return ``ch``'s kind, font (first of ``chain`` that has it) and width at 1 em; remember it."""
    font = _font_for(chain, ch)
    cp = ord(ch)
    kind = _SPACE if ch == " " else _CJK if is_cjk_cp(cp) else _LATIN
    measured = _char_atom[(chain, ch)] = (kind, font, fonts.char_width(font, cp))
    return measured


def _atoms(pieces: tuple[Piece, ...]) -> list[_Atom]:
    """Measure pieces into atoms at 1 em."""
    out: list[_Atom] = []
    for piece in pieces:
        tag = piece[0]
        if tag == "t":
            chain, color, text = piece[1], piece[2], piece[3]
            track = piece[4] if len(piece) > 4 else 0.0
            known = _char_atom.get
            for ch in text:
                # one look-up per character once the (chain, character) was measured
                kind, font, width = known((chain, ch)) or _measure_char(chain, ch)
                out.append(_Atom(kind, ch, font, color, width + track, None, track))
        elif tag == "i":
            _, icon, color = piece
            vx, vy, vw, vh = icon.viewbox
            width = vw / vh + 2 * ICON_PAD
            out.append(_Atom(_ICON, "", "", color, width, icon))
        else:
            out.append(_Atom(_BREAK, "", "", (0.0, 0.0, 0.0), 0.0))
    return out


def _can_break(before: str, a: _Atom, b: _Atom) -> bool:
    """Return True if a line may break between adjacent atoms ``a`` and ``b``.

    ``before`` is the character before ``a``; the rules are
    :func:`pnp.render.kinsoku.keeps_together`'s. Latin text breaks only at
    spaces (handled by the caller), so two Latin atoms never break here.
    """
    if not (a.kind in (_CJK, _ICON) or b.kind in (_CJK, _ICON)):
        return False
    return not kinsoku.keeps_together(before, a.ch, b.ch)


def chunks(pieces: tuple[Piece, ...]) -> list[_Chunk]:
    """Cut pieces into unbreakable chunks (cached by content)."""
    cached = _atom_cache.get(pieces)
    if cached is not None:
        return cached
    result: list[_Chunk] = []
    cur: _Chunk | None = None
    spaces: list[_Atom] = []
    prev: _Atom | None = None
    before = ""          # the character before ``prev`` (range and pair rules)
    for a in _atoms(pieces):
        if a.kind == _BREAK:
            if cur is None:
                result.append(_Chunk([], [], 0.0, 0.0, True))
            else:
                cur.hard = True
            cur, prev, spaces, before = None, None, [], ""
            continue
        if a.kind == _SPACE:
            spaces.append(a)
            continue
        if cur is None:
            cur = _Chunk(spaces, [a], sum(s.width for s in spaces), a.width)
            result.append(cur)
        elif spaces:
            assert prev is not None
            # a break at a space must still respect kinsoku on both sides
            if a.ch in NO_START or prev.ch in NO_END:
                cur.atoms.extend(spaces)
                cur.atoms.append(a)
                cur.width += sum(s.width for s in spaces) + a.width
            else:
                cur = _Chunk(spaces, [a], sum(s.width for s in spaces), a.width)
                result.append(cur)
        elif prev is not None and _can_break(before, prev, a):
            cur = _Chunk([], [a], 0.0, a.width)
            result.append(cur)
        else:
            cur.atoms.append(a)
            cur.width += a.width
        before = "" if spaces else (prev.ch if prev is not None else "")
        spaces = []
        prev = a
    _keep_chunks(pieces, result)
    return result


def _held(chs: list[_Chunk]) -> int:
    """Atoms (characters, icons, spaces) a chunk list holds."""
    return sum(len(c.lead) + len(c.atoms) for c in chs)


def _keep_chunks(pieces: tuple[Piece, ...], result: list[_Chunk]) -> None:
    """Remember ``result`` for ``pieces``, dropping the oldest texts past :data:`_ATOM_LIMIT` atoms."""
    global _atoms_held
    _atom_cache[pieces] = result
    _atoms_held += _held(result)
    while _atoms_held > _ATOM_LIMIT and len(_atom_cache) > 1:
        _atoms_held -= _held(_atom_cache.pop(next(iter(_atom_cache))))


def _remember(cache: dict, key: object, value: object, limit: int) -> None:
    """Store ``value`` under ``key``, dropping the oldest entries beyond ``limit``.

    Bounded caches keep a build's memory flat however many distinct cards
    it renders (each entry holds a text's laid-out runs).
    """
    cache[key] = value
    while len(cache) > limit:
        cache.pop(next(iter(cache)))


def _visible(line: list[tuple[_Chunk, bool]]) -> int:
    """Characters (and inline icons) on a line, spaces not counted."""
    return sum(len(ch.atoms) - sum(1 for a in ch.atoms if a.kind == _SPACE)
               for ch, _ in line)


def _width(line: list[tuple[_Chunk, bool]]) -> float:
    """Width of a line in em (glue counted for every chunk but the first)."""
    return sum(ch.width + (ch.glue if keep else 0.0) for ch, keep in line)


def _avoid_short_last_line(lines: list[tuple[list[tuple[_Chunk, bool]], float]],
                           start: int, budget: float) -> None:
    """Pull words down from the line before a paragraph's 1–2 character last line.

    ``start`` is the index of the paragraph's first line. Only done when the
    moved words fit on the last line and the line before keeps at least one
    word, so the line count never changes; otherwise the lines stay as they were.
    Where the fewest words that mend the last line would split a katakana
    word the lines kept whole, the whole word comes down if it can within
    the rule's limits (:func:`_word_gap`); if not, the fewest words do.
    """
    last = len(lines) - 1
    if last <= start or _visible(lines[last][0]) > SHORT_LAST_LINE:
        return
    prev = list(lines[last - 1][0])
    tail = list(lines[last][0])
    was_split = _splits_word(prev[-1][0], tail[0][0])
    eps = 1e-9

    def pull(prev: list[tuple[_Chunk, bool]], tail: list[tuple[_Chunk, bool]]
             ) -> tuple[list[tuple[_Chunk, bool]], list[tuple[_Chunk, bool]]] | None:
        """Move ``prev``'s last chunk to the front of ``tail``; None if it cannot go."""
        if len(prev) < 2:
            return None                  # the line before would be empty
        moved, _ = prev[-1]
        first, _ = tail[0]
        candidate = [(moved, False), (first, True)] + tail[1:]
        if _width(candidate) > budget + eps:
            return None
        return prev[:-1], candidate

    # the fewest words that lengthen the last line enough
    while _visible(tail) <= SHORT_LAST_LINE:
        step = pull(prev, tail)
        if step is None:
            return
        prev, tail = step
    # If the new break splits a katakana word the lines kept whole, the whole
    # word comes down too where it fits and leaves the line before no more
    # than the rule's gap short (as in _word_start); else the soft rule gives
    # way and the word splits where the pull left it.
    if not was_split:
        whole: tuple[list[tuple[_Chunk, bool]], list[tuple[_Chunk, bool]]] | None = (prev, tail)
        while whole is not None and _splits_word(whole[0][-1][0], whole[1][0][0]):
            whole = pull(*whole)
        if whole is not None and budget - _width(whole[0]) <= _word_gap(budget) + eps:
            prev, tail = whole
    lines[last - 1] = (prev, _width(prev))
    lines[last] = (tail, _width(tail))


def _word_gap(budget: float) -> float:
    """The most (in em) the katakana-word rule may leave a line of ``budget`` em short."""
    return min(WORD_GAP_EM, WORD_GAP_SHARE * budget)


def _fragment_gap(budget: float) -> float:
    """The most (in em) a line may be left short to avoid a 1–2 character word fragment."""
    return min(FRAGMENT_GAP_EM, WORD_GAP_SHARE * budget)


def _splits_word(left: _Chunk, right: _Chunk) -> bool:
    """True if a break between two neighbouring chunks would split a katakana word.

    A break at a space or a hard break never does; otherwise the rule is
    :func:`pnp.render.kinsoku.splits_word` on the characters either side.
    """
    if left.hard or right.lead or not left.atoms or not right.atoms:
        return False
    return kinsoku.splits_word(left.atoms[-1].ch, right.atoms[0].ch)


def _kana_before(line: list[tuple[_Chunk, bool]], p: int) -> int:
    """Katakana characters that end ``line[:p]``, back to the word's start."""
    count = 0
    for q in range(p - 1, -1, -1):
        chunk = line[q][0]
        for atom in reversed(chunk.atoms):
            if atom.ch not in _KATAKANA:
                return count
            count += 1
        if chunk.lead:
            return count             # a space before the chunk ends the word
    return count


def _kana_after(chunks: list[_Chunk]) -> int:
    """Katakana characters that start ``chunks``, up to the word's end."""
    count = 0
    for n, chunk in enumerate(chunks):
        if n and chunk.lead:
            return count
        for atom in chunk.atoms:
            if atom.ch not in _KATAKANA:
                return count
            count += 1
        if chunk.hard:
            return count
    return count


def _kana_run(line: list[tuple[_Chunk, bool]], rest: list[_Chunk]) -> str:
    """The katakana word a break between ``line`` and ``rest`` splits (both its parts).

    The characters :func:`_kana_before` and :func:`_kana_after` count (they
    are contiguous atoms at the line's end and the rest's start), so they
    decide where the word ends rather than a second copy of their scan.
    """
    head = "".join(atom.ch for chunk, _ in line for atom in chunk.atoms)
    tail = "".join(atom.ch for chunk in rest for atom in chunk.atoms)
    return head[len(head) - _kana_before(line, len(line)):] + tail[:_kana_after(rest)]


#: Kana that close the syllable before them (the moraic nasal): a break
#: inside a word never puts one at a line's start (オールイ|ンセット).
_SYLLABLE_END = frozenset("ンﾝ")


def _fair_split(line: list[tuple[_Chunk, bool]], p: int, rest: list[_Chunk]) -> bool:
    """True if a break before ``line[p]`` (``rest``: the word's chunks after it) splits fairly.

    Fair: :data:`MIN_WORD_PART` or more of the word's characters on each
    side, and the next line does not start with ``ン`` (the break falls
    between syllables, not inside one: ``ー`` and small kana never start a
    line anyway).
    """
    return (_kana_before(line, p) >= MIN_WORD_PART and _kana_after(rest) >= MIN_WORD_PART
            and rest[0].atoms[0].ch not in _SYLLABLE_END)


def _word_start(line: list[tuple[_Chunk, bool]], chs: list[_Chunk], i: int,
                budget: float) -> int:
    """Where a full line should end when chunk ``chs[i]`` does not fit on it.

    ``line`` holds the chunks ``chs[i - len(line):i]``. Returns ``len(line)``
    (break before ``chs[i]``, the greedy choice) unless that break would
    split a katakana word and a better break costs nothing:

    1. the word moves down whole: the line has another break before the
       word, the word fits on one line, the line is left at most
       :func:`_word_gap` short, and the paragraph needs no more lines for
       it (:func:`_costs_a_line`); or, failing that,
    2. where the greedy break is not fair (:func:`_fair_split`: it would
       leave one or two of the word's characters on either side, or put
       ``ン`` at the next line's start), the latest break
       that leaves none, within :func:`_fragment_gap` and again at no cost
       of a line: before the word (after its ``・``), or inside it with
       :data:`MIN_WORD_PART` characters or more on each side and not before
       ``ン`` (:func:`_fair_split`).

    Before 2., a compound of known words (:func:`kinsoku.word_boundaries`:
    スタートプレイヤー) whose greedy break is not fair or not between two of
    its words takes the latest fair break between two of its words, or
    before it, within the same gap and at no cost of a line; if there is
    none, 2. applies as to any word.

    Then it returns the index in ``line`` of the chunk the next line starts with.
    """
    if not _splits_word(line[-1][0], chs[i]):
        return len(line)
    k = len(line) - 1
    while k > 0 and _splits_word(line[k - 1][0], line[k][0]):
        k -= 1
    j = i
    while j + 1 < len(chs) and _splits_word(chs[j], chs[j + 1]):
        j += 1
    # the word fits on one line (else it splits anyway: moving it gains nothing)
    fits = sum(c.width for c, _ in line[k:]) + sum(c.width for c in chs[i:j + 1]) \
        <= budget + 1e-9
    first = i - len(line)                # chs index of the line's first chunk
    if k > 0 and fits and budget - _width(line[:k]) <= _word_gap(budget) + 1e-9 \
            and not _costs_a_line(chs, first + k, i, budget):
        return k
    word = chs[i:j + 1]
    fair = _fair_split(line, len(line), word)
    # a compound of known words (kinsoku.word_boundaries) splits between them
    bounds = kinsoku.word_boundaries(_kana_run(line, word))
    if fair and (not bounds or _kana_before(line, len(line)) in bounds):
        return len(line)             # both parts read as parts of a word
    limit = _fragment_gap(budget) + 1e-9
    # A known compound first looks for a fair break between two of its words
    # or before it (スター|トプレイヤー reads as a misspelling); then, as for
    # any word, a greedy break that is not fair looks for any fair one.
    for between_words in ((True, False) if bounds else (False,)):
        if fair and not between_words:
            break
        for p in range(len(line) - 1, k - 1, -1):
            if budget - _width(line[:p]) > limit:
                break                # earlier breaks leave the line shorter still
            if p == k:
                # the whole word (after its ・) moves down; one longer than a line
                # then splits on the next, by this same rule
                ok = k > 0
            else:
                ok = (not between_words or _kana_before(line, p) in bounds) and \
                    _fair_split(line, p, [c for c, _ in line[p:]] + word)
            if ok and not _costs_a_line(chs, first + p, i, budget):
                return p
    return len(line)


def _next_line(chs: list[_Chunk], p: int, budget: float) -> int:
    """Index of the chunk after the greedy line that starts with ``chs[p]``.

    Plain greedy filling (no katakana rule): the line ends at a hard break
    or before the first chunk that does not fit.
    """
    lw = chs[p].width
    q = p
    while not chs[q].hard and q + 1 < len(chs):
        nxt = chs[q + 1]
        lw += nxt.glue + nxt.width
        if lw > budget + 1e-9:
            break
        q += 1
    return q + 1


def _costs_a_line(chs: list[_Chunk], w: int, i: int, budget: float) -> bool:
    """True if lines from ``chs[w]`` need more lines to the paragraph's end than from ``chs[i]``.

    ``w < i``, both starting a line of the same paragraph. Greedy filling
    needs the fewest lines, and the lines the katakana rule makes from a
    start need no more than greedy from there (this check, each time), so
    comparing greedy from both starts decides whether moving a word down to
    start at ``w`` instead of ``i`` costs the paragraph a line. The two
    layouts are stepped line by line: a line from the earlier start never
    ends after one from the later, and once two lines end at the same chunk
    the rest is the same, so this usually stops after a line or two.
    """
    a, b = w, i
    while a != b:
        if b == len(chs) or chs[b - 1].hard:
            return True          # from i the paragraph is done, from w it is not
        a, b = _next_line(chs, a, budget), _next_line(chs, b, budget)
    return False


#: Broken lines: (list of (chunk, keep its glue), line width in em).
_Lines = list[tuple[list[tuple[_Chunk, bool]], float]]


def break_lines(chs: list[_Chunk], budget: float) -> list[tuple[list[tuple[_Chunk, bool]], float]] | None:
    """Greedy line filling in em units; None if some chunk is wider than ``budget``.

    Returns lines as (list of (chunk, keep_glue), line width in em).
    """
    eps = 1e-9
    lines: list[tuple[list[tuple[_Chunk, bool]], float]] = []
    line: list[tuple[_Chunk, bool]] = []
    lw = 0.0
    para = 0             # index of the current paragraph's first line
    for i, ch in enumerate(chs):
        if ch.width > budget + eps:
            return None
        if line and lw + ch.glue + ch.width > budget + eps:
            # most line ends are not inside a katakana word: two set look-ups
            # decide that before any function call (this loop is hot)
            k = len(line)
            if not ch.lead and ch.atoms and ch.atoms[0].ch in _KATAKANA \
                    and line[-1][0].atoms[-1].ch in _KATAKANA:
                k = _word_start(line, chs, i, budget)
            if k == len(line):
                lines.append((line, lw))
                line, lw = [], 0.0
            else:
                # the katakana word moves down whole (kinsoku.splits_word)
                lines.append((line[:k], _width(line[:k])))
                line = [(c, j > 0) for j, (c, _) in enumerate(line[k:])]
                lw = _width(line)
        if line:
            lw += ch.glue + ch.width
            line.append((ch, True))
        else:
            lw = ch.width
            line.append((ch, False))
        if ch.hard:
            lines.append((line, lw))
            _avoid_short_last_line(lines, para, budget)
            para = len(lines)
            line, lw = [], 0.0
    if line:
        lines.append((line, lw))
        _avoid_short_last_line(lines, para, budget)
    return lines


def plain_lines(pieces: tuple[Piece, ...], width_em: float) -> list[str]:
    """Return the text of each line when broken at ``width_em`` (for tests/debug)."""
    lines = break_lines(chunks(pieces), width_em)
    if lines is None:
        raise TextTooLong("a word is wider than the box")
    out = []
    for line, _ in lines:
        text = ""
        for ch, keep in line:
            if keep:
                text += "".join(a.ch for a in ch.lead)
            text += "".join(a.ch if a.kind != _ICON else "\ufffc" for a in ch.atoms)
        out.append(text)
    return out


def _place(lines: list[tuple[list[tuple[_Chunk, bool]], float]], size: float,
           width: float, height: float, line_height: float, align: str,
           valign: str) -> TextFit:
    """Turn broken lines into positioned runs and icons at ``size``."""
    step = line_height * size
    total = step * len(lines)
    if valign == "middle":
        top = (height - total) / 2.0
    elif valign == "bottom":
        top = height - total
    else:
        top = 0.0
    runs: list[TextRun] = []
    icons: list[tuple[Icon, float, float, float, float, RGB]] = []
    for i, (line, lw) in enumerate(lines):
        baseline = top + i * step + (step - size) / 2.0 + fonts.EM_ASCENT * size
        # letter-spacing after the last character is not part of the line
        ink = lw - line[-1][0].atoms[-1].track if line and line[-1][0].atoms else lw
        if align == "center":
            x = (width - ink * size) / 2.0
        elif align == "right":
            x = width - ink * size
        else:
            x = 0.0
        run_x = x
        run_font = ""
        run_color: RGB | None = None
        run_track = 0.0
        buf: list[str] = []

        def flush() -> None:
            """Emit the characters collected for the current run."""
            if buf:
                runs.append(TextRun(run_x, baseline, run_font, size, run_color,  # type: ignore[arg-type]
                                    "".join(buf), run_track * size))
                buf.clear()

        for ch, keep in line:
            atoms = (ch.lead + ch.atoms) if keep else ch.atoms
            for a in atoms:
                if a.kind == _ICON:
                    flush()
                    assert a.icon is not None
                    vx, vy, vw, vh = a.icon.viewbox
                    icons.append((a.icon, x + ICON_PAD * size, baseline - fonts.EM_ASCENT * size,
                                  vw / vh * size, size, a.color))
                    x += a.width * size
                    run_font = ""
                    continue
                if a.font != run_font or a.color != run_color or a.track != run_track:
                    flush()
                    run_x, run_font, run_color, run_track = x, a.font, a.color, a.track
                buf.append(a.ch)
                x += a.width * size
        flush()
    return TextFit(size, len(lines), tuple(runs), tuple(icons))


def fit_text(pieces: tuple[Piece, ...], width: float, height: float, size: float,
             min_size: float, line_height: float, align: str, valign: str,
             max_lines: int | None) -> TextFit:
    """Lay out ``pieces`` in a width × height box (points), shrinking if needed.

    Tries ``size`` first, then steps down by 0.25 pt to ``min_size``.
    Raises :class:`TextTooLong` with a reason if nothing fits.
    """
    key = (pieces, width, height, size, min_size, line_height, align, valign, max_lines)
    hit = _fit_cache.get(key)
    if hit is not None:
        return hit
    chs = chunks(pieces)

    def attempt(s: float) -> _Lines | str:
        """Break the lines at size ``s``; return them or why they do not fit."""
        lines = break_lines(chs, width / s)
        if lines is None:
            return "a word or unbreakable group is wider than the box"
        if max_lines is not None and len(lines) > max_lines:
            return f"needs {len(lines)} lines, max-lines is {max_lines}"
        if len(lines) * line_height * s > height + 1e-6:
            room = int((height + 1e-6) // (line_height * s))
            return f"needs {len(lines)} lines, room for {room}"
        return lines

    # only the size finally chosen is placed (the search tries several)
    chosen = size
    found = attempt(size)
    if isinstance(found, str) and min_size < size:
        # Sizes tried: size, size - 0.25, ... down to min_size. Greedy line
        # counts never grow as the font shrinks, so "fits" is monotonic and a
        # binary search over the steps finds the largest size that fits.
        steps = int((size - min_size) / 0.25 + 1e-9)
        grid = [round(size - 0.25 * k, 4) for k in range(1, steps + 1)]
        if not grid or grid[-1] > min_size + 1e-9:
            grid.append(min_size)
        lo, hi = 0, len(grid) - 1
        last = attempt(grid[hi])
        if isinstance(last, str):
            raise TextTooLong(f"{last} at {min_size:g}pt")
        best, chosen = last, grid[hi]
        hi -= 1
        while lo <= hi:
            mid = (lo + hi) // 2
            r = attempt(grid[mid])
            if isinstance(r, str):
                lo = mid + 1
            else:
                best, chosen, hi = r, grid[mid], mid - 1
        found = best
    if isinstance(found, str):
        raise TextTooLong(f"{found} at {size:g}pt")
    result = _place(found, chosen, width, height, line_height, align, valign)
    _remember(_fit_cache, key, result, _FIT_LIMIT)
    return result


def icon_uses(fit: TextFit, dx: float, dy: float) -> tuple[IconUse, ...]:
    """Return the inline icons of ``fit`` as IconUse nodes offset by (dx, dy)."""
    out = []
    for icon, x, y, w, h, color in fit.icons:
        vx, vy, vw, vh = icon.viewbox
        k = min(w / vw, h / vh)
        ox = dx + x + (w - vw * k) / 2.0 - vx * k
        oy = dy + y + (h - vh * k) / 2.0 - vy * k
        out.append(IconUse(icon, (k, 0.0, 0.0, k, ox, oy), color))
    return tuple(out)
