"""List every katakana word the line breaker splits in a build's card text and rulebooks.

Runs ``pnp build`` (every game, rulebooks typeset in this process, build
caches off so every text is laid out) with the line breaker watched: each
laid-out paragraph whose line ends inside a katakana word (the characters
either side of the break are both katakana, :func:`pnp.render.kinsoku.splits_word`)
is printed once with its fragments, ``ノーマル・クリ|ア``, where it comes from
(a card text box, a rulebook paragraph, a picture label) and how many em the
broken line is short of its box. Read from the layout, not from the PDF text.

    .venv/bin/python benchmarks/katakana_splits.py [GAME ...] [--out DIR]

Writes the build into ``--out`` (default: a temporary folder) with its own
cache folder; the last line is the count.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _text(line: list[tuple[Any, bool]]) -> str:
    """The characters of one broken line (spaces between chunks kept)."""
    out = []
    for chunk, keep in line:
        if keep:
            out.extend(a.ch for a in chunk.lead)
        out.extend(a.ch or "\ufffc" for a in chunk.atoms)
    return "".join(out)


def splits(lines: list[tuple[list[tuple[Any, bool]], float]], budget: float
           ) -> list[tuple[str, str, float]]:
    """(line-final fragment, line-initial fragment, em short) of each split katakana word.

    ``budget`` is the line's width in em.
    """
    from pnp.render import kinsoku

    found = []
    for (line, width), (nxt, _) in zip(lines, lines[1:]):
        left, right = line[-1][0], nxt[0][0]
        if left.hard or right.lead or not left.atoms or not right.atoms:
            continue
        if not kinsoku.splits_word(left.atoms[-1].ch, right.atoms[0].ch):
            continue
        a, b = _text(line), _text(nxt)
        i = len(a)
        while i > 0 and a[i - 1] in kinsoku.KATAKANA:
            i -= 1
        j = 0
        while j < len(b) and b[j] in kinsoku.KATAKANA:
            j += 1
        # a few characters of context before the word (a ・ compound shows whole)
        found.append((a[max(0, i - 6):], b[:j + 2], budget - width))
    return found


def main() -> None:
    """Build with the line breaker watched and print each split katakana word."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    tmp = tempfile.TemporaryDirectory()
    out = args.out or Path(tmp.name) / "out"
    os.environ.setdefault("PNP_CACHE_DIR", str(Path(tmp.name) / "cache"))
    os.environ["PNP_BUILD_CACHE"] = "0"

    from pnp.render import textlayout

    seen: dict[tuple[str, str, str], tuple[float, float]] = {}
    breaker = textlayout.break_lines
    placer = textlayout._place

    def watched_place(lines: Any, size: float, width: float, *rest: Any) -> Any:
        """A card text box's final lines (the size shrink-to-fit chose)."""
        for a, b, short in splits(lines, width / size):
            seen.setdefault(("card", a, b), (short, width / size))
        return placer(lines, size, width, *rest)

    def watched_break(chs: Any, budget: float) -> Any:
        """Rulebook paragraphs and labels: every call not made by fit_text."""
        lines = breaker(chs, budget)
        caller = sys._getframe(1).f_code.co_name
        if lines is not None and caller != "attempt":
            kind = "book" if caller == "shared_cjk_lines" else "label"
            for a, b, short in splits(lines, budget):
                seen.setdefault((kind, a, b), (short, budget))
        return lines

    textlayout._place = watched_place
    textlayout.break_lines = watched_break
    from pnp.cli import main as cli

    try:
        cli(["build", *args.games, "-j", "1", "-q", "--out", str(out)], standalone_mode=False)
    finally:
        textlayout._place, textlayout.break_lines = placer, breaker
    for (kind, a, b), (short, budget) in sorted(seen.items()):
        print(f"{kind:<5} {a}|{b}   (line {short:.1f} em short of {budget:.1f} em)")
    counts = {k: sum(1 for key in seen if key[0] == k) for k in ("card", "book", "label")}
    print(f"split katakana words: {sum(counts.values())} "
          f"(card text {counts['card']}, rulebook paragraphs {counts['book']}, "
          f"picture labels {counts['label']})")
    tmp.cleanup()


if __name__ == "__main__":
    main()
