"""What the rulebook line-breaking tests share: the forbidden-break checker and line text."""

from __future__ import annotations

from typing import Any

from pnp.render import kinsoku


def line_text(line: Any) -> str:
    """One wrapped line's characters (either of ReportLab's line shapes)."""
    if isinstance(line, tuple):
        return "".join(str(part) for part in line[1])
    return "".join(getattr(word, "text", "") for word in getattr(line, "words", []))


def faults(lines: list[str]) -> list[str]:
    """Every break in ``lines`` that the shared kinsoku rules forbid."""
    out = []
    for a, b in zip(lines, lines[1:]):
        if not a or not b:
            continue
        if b[0] in kinsoku.NO_START:
            out.append(f"starts with {b[0]}: {a}|{b}")
        if a[-1] in kinsoku.NO_END:
            out.append(f"ends with {a[-1]}: {a}|{b}")
        if a[-1] in kinsoku.DIGITS and (b[0] in kinsoku.UNITS or b[0] in kinsoku.JOINERS):
            out.append(f"number split from its unit or range: {a}|{b}")
        if len(a) >= 2 and a[-2] in kinsoku.DIGITS and a[-1] in kinsoku.JOINERS:
            out.append(f"range split: {a}|{b}")
    return out
