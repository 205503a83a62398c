"""List every katakana word the line breaker splits in a build's card text and rulebooks.

Runs ``pnp build`` (every game, rulebooks typeset in this process, build
caches off so every text is laid out) with the line breaker watched: each
laid-out paragraph whose line ends inside a katakana word (the characters
either side of the break are both katakana, :func:`pnp.render.kinsoku.splits_word`)
is printed once with its fragments, ``ノーマル・クリ|ア``, where it comes from
(a card text box, a rulebook paragraph, a picture label), how many em the
broken line is short of its box, and whether the break falls between two
known words of a compound (``スタート|プレイヤー``, :func:`pnp.render.kinsoku.word_boundaries`)
or not (``スター|トプレイヤー``, or inside a single word: ``キャン|ペーン``).
Read from the layout, not from the PDF text.

    .venv/bin/python benchmarks/katakana_splits.py [GAME ...] [--out DIR]

Two builds in one run, each in a process of its own with its own cache and
output folder: *before*, the line breaker told of no compound (the word
list still classifies the breaks; this is the breaker without its
word-boundary preference), and *after*, the breaker as it is. It prints
each build's splits, then the counts side by side and the output files
whose bytes differ between the two (cards and books the preference
re-broke). ``--only before|after`` runs one build.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PASSES = ("before", "after")


def _text(line: list[tuple[Any, bool]]) -> str:
    """The characters of one broken line (spaces between chunks kept)."""
    out = []
    for chunk, keep in line:
        if keep:
            out.extend(a.ch for a in chunk.lead)
        out.extend(a.ch or "\ufffc" for a in chunk.atoms)
    return "".join(out)


def splits(lines: list[tuple[list[tuple[Any, bool]], float]], budget: float,
           boundaries: Any = None) -> list[tuple[str, str, float, str]]:
    """(line-final fragment, line-initial fragment, em short, where) of each split katakana word.

    ``budget`` is the line's width in em. ``where`` is ``"between"`` for a
    break between two known words of a compound, ``"compound"`` for one
    elsewhere inside a known compound, ``"word"`` for one inside a single
    or unknown word. ``boundaries`` is the word splitter
    (default :func:`pnp.render.kinsoku.word_boundaries`).
    """
    from pnp.render import kinsoku

    boundaries = boundaries or kinsoku.word_boundaries
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
        cuts = boundaries(a[i:] + b[:j])
        where = "between" if len(a) - i in cuts else "compound" if cuts else "word"
        # a few characters of context before the word (a ・ compound shows whole)
        found.append((a[max(0, i - 6):], b[:j + 2], budget - width, where))
    return found


def watch_build(games: list[str], out: Path, before: bool) -> dict[tuple[str, str, str], tuple[float, float, str]]:
    """Build ``games`` into ``out`` with the line breaker watched; the splits it made.

    ``before``: the breaker is told of no compound (its word-boundary
    preference has nothing to act on); the splits are still classified
    with the real word list.
    """
    from pnp.render import kinsoku, textlayout

    classify = kinsoku.word_boundaries
    seen: dict[tuple[str, str, str], tuple[float, float, str]] = {}
    breaker = textlayout.break_lines
    placer = textlayout._place

    def watched_place(lines: Any, size: float, width: float, *rest: Any) -> Any:
        """A card text box's final lines (the size shrink-to-fit chose)."""
        for a, b, short, where in splits(lines, width / size, classify):
            seen.setdefault(("card", a, b), (short, width / size, where))
        return placer(lines, size, width, *rest)

    def watched_break(chs: Any, budget: float) -> Any:
        """Rulebook paragraphs and labels: every call not made by fit_text."""
        lines = breaker(chs, budget)
        caller = sys._getframe(1).f_code.co_name
        if lines is not None and caller != "attempt":
            kind = "book" if caller == "shared_cjk_lines" else "label"
            for a, b, short, where in splits(lines, budget, classify):
                seen.setdefault((kind, a, b), (short, budget, where))
        return lines

    textlayout._place = watched_place
    textlayout.break_lines = watched_break
    if before:
        kinsoku.word_boundaries = lambda run: frozenset()   # type: ignore[assignment]
    from pnp.cli import main as cli

    try:
        cli(["build", *games, "-j", "1", "-q", "--out", str(out)], standalone_mode=False)
    finally:
        textlayout._place, textlayout.break_lines = placer, breaker
        kinsoku.word_boundaries = classify                     # type: ignore[assignment]
    return seen


def counts(seen: dict[tuple[str, str, str], tuple[float, float, str]]) -> dict[str, int]:
    """Split words by origin and by where the break falls."""
    out = {k: sum(1 for key in seen if key[0] == k) for k in ("card", "book", "label")}
    out["all"] = len(seen)
    for where in ("between", "compound", "word"):
        out[where] = sum(1 for v in seen.values() if v[2] == where)
    out["off"] = out["compound"] + out["word"]
    out["fragments"] = sum(1 for (_, a, b) in seen if _part(a, True) < 3 or _part(b, False) < 3)
    return out


def _part(text: str, at_end: bool) -> int:
    """Katakana characters at the end (or start) of ``text``."""
    from pnp.render import kinsoku

    s = text[::-1] if at_end else text
    n = 0
    while n < len(s) and s[n] in kinsoku.KATAKANA:
        n += 1
    return n


def digests(folder: Path) -> dict[str, str]:
    """sha256 of every file under ``folder`` by its relative path."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def run_pass(name: str, games: list[str], tmp: Path) -> dict[str, Any]:
    """One build in a fresh process (own cache and output folder); its splits and file digests."""
    out, cache, report = tmp / name / "out", tmp / name / "cache", tmp / name / "splits.json"
    env = dict(os.environ, PNP_CACHE_DIR=str(cache), PNP_BUILD_CACHE="0",
               PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, __file__, "--pass", name, "--report", str(report),
                    "--out", str(out), *games], check=True, env=env, cwd=ROOT)
    data = json.loads(report.read_text(encoding="utf-8"))
    data["files"] = digests(out)
    return data


def show(name: str, splits_found: list[list[Any]]) -> None:
    """Print one build's splits, one a line."""
    print(f"-- {name}")
    for kind, a, b, short, budget, where in splits_found:
        print(f"{kind:<5} {a}|{b}   (line {short:.1f} em short of {budget:.1f} em; {where})")


def main() -> None:
    """Build before and after the word-boundary preference; print the splits and the counts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*")
    parser.add_argument("--out", type=Path, default=None,
                        help="folder for the builds (default: a temporary folder)")
    parser.add_argument("--only", choices=PASSES, default=None)
    parser.add_argument("--pass", dest="one", choices=PASSES, help=argparse.SUPPRESS)
    parser.add_argument("--report", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:                         # a child process: one watched build
        sys.path.insert(0, str(ROOT))
        seen = watch_build(args.games, args.out, args.one == "before")
        rows = [[kind, a, b, short, budget, where]
                for (kind, a, b), (short, budget, where) in sorted(seen.items())]
        args.report.write_text(json.dumps({"splits": rows}, ensure_ascii=False), encoding="utf-8")
        return
    sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory() as name:
        tmp = args.out or Path(name)
        passes = [args.only] if args.only else list(PASSES)
        results = {p: run_pass(p, args.games, tmp) for p in passes}
        for p in passes:
            show(p, results[p]["splits"])
        seen_of = {p: {(r[0], r[1], r[2]): (r[3], r[4], r[5]) for r in results[p]["splits"]}
                   for p in passes}
        table = {p: counts(seen_of[p]) for p in passes}
        labels = [("split katakana words", "all"), ("  card text", "card"),
                  ("  rulebook paragraphs", "book"), ("  picture labels", "label"),
                  ("  at a boundary between two known words", "between"),
                  ("  not at a word boundary", "off"),
                  ("    inside a known compound", "compound"),
                  ("    inside a single or unknown word", "word"),
                  ("  with a 1-2 character part", "fragments")]
        print(f"{'':<50}" + "".join(f"{p:>8}" for p in passes))
        for label, key in labels:
            print(f"{label:<50}" + "".join(f"{table[p][key]:>8}" for p in passes))
        if len(passes) == 2:
            a, b = (results[p]["files"] for p in passes)
            changed = sorted(f for f in a.keys() | b.keys() if a.get(f) != b.get(f))
            print(f"output files that differ between the builds: {len(changed)} of {len(b)}")
            for f in changed:
                print(f"  {f}")


if __name__ == "__main__":
    main()
