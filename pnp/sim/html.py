"""Self-contained chart pages for simulation reports (``pnp simulate --html``).

One HTML file with inline CSS and inline SVG, no script and nothing fetched
from the network, so it opens anywhere (and offline) exactly as written. The
charts are drawn here as SVG rather than with a plotting library: they are
bars with interval whiskers, histograms and lines with interval bands — a
few hundred lines — and a library would add tens of megabytes to the install
and a JavaScript runtime or image step for the same figures.

Pages are deterministic (same report → same bytes): no dates, no paths, no
random ids. Text is at least 13 px, dark on light (contrast above 7:1).
Japanese text (titles such as 第2話, card names such as ♠A) must render on a
machine without Japanese fonts and without network: the page embeds a
subset of IPAexGothic holding exactly the non-Latin characters it uses (a
few kilobytes; the font ships with the required package matplotlib-fontja,
and its licence allows embedding), as WOFF with a matching unicode-range, by
the same subsetter as the HTML rulebook (:mod:`pnp.webfont`). Without the
font the page names the usual system fonts only.
"""

from __future__ import annotations

import importlib.util
import math
from html import escape
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from pnp.sim.findings import (LIFT, event_text, fired_share, group_average_text,
                              interval_text, keys_tested, otherwise_note)
from pnp.sim.report import param_value, params_text
from pnp.sim.paired import (CLIPPED, excludes_zero, outcome_label, paired_text,
                             sentence_family, shown_outcomes)
from pnp.sim.sweep import GENERIC_FIGURES, figure_label, is_rate
from pnp.webfont import FAMILY, cmap
from pnp.webfont import font_face as _webfont_face

#: Chart size (SVG user units = CSS px).
WIDTH = 720
#: Colours: ink, muted ink, bar, interval, reference line, flagged (all ≥ 4.5:1 on white
#: where they carry text).
INK, MUTED, BAR, WHISKER, REF, GOOD, BAD = ("#1a1a1a", "#4a4a4a", "#4c78a8", "#1f3b5c",
                                            "#b03a2e", "#1e6b34", "#9c2a1c")

CSS = f"""
body {{ font-family: "{FAMILY}", "IPAexGothic", "Hiragino Sans", "Yu Gothic", "Noto Sans CJK JP",
       "Noto Sans JP", system-ui, sans-serif; color: #1a1a1a; background: #ffffff;
       margin: 24px auto; max-width: 760px; font-size: 15px; line-height: 1.5; }}
h1 {{ font-size: 22px; margin: 0 0 4px; }}
h2 {{ font-size: 18px; margin: 28px 0 6px; border-bottom: 1px solid #999; }}
p.meta {{ color: #4a4a4a; margin: 0 0 12px; }}
ul.findings li {{ margin: 4px 0; }}
table {{ border-collapse: collapse; font-size: 14px; margin: 8px 0; }}
th, td {{ border-bottom: 1px solid #ccc; padding: 3px 8px; text-align: right; }}
th:first-child, td:first-child {{ text-align: left; }}
td.flag {{ color: #9c2a1c; font-weight: bold; text-align: left; }}
svg {{ display: block; margin: 8px 0; }}
svg text {{ font-family: inherit; fill: #1a1a1a; }}
.note {{ color: #4a4a4a; font-size: 14px; }}
td .key {{ display: block; font-family: ui-monospace, "DejaVu Sans Mono", "Liberation Mono",
          monospace; font-size: 12px; color: #4a4a4a; }}
pre {{ font-family: ui-monospace, "DejaVu Sans Mono", "Liberation Mono", "{FAMILY}", monospace;
      font-size: 12px; line-height: 1.4; overflow-x: auto; }}
"""


#: Characters drawn from the embedded IPAexGothic subset: CJK (from U+2E80) and
#: the card suits; punctuation such as – … → stays with the Latin fonts.
FIRST_EMBEDDED = 0x2E80
SUITS = range(0x2660, 0x2668)


def _ipaex() -> Path | None:
    """``ipaexg.ttf`` of matplotlib-fontja, found without importing matplotlib.

    The simulator never imports the renderer (whose ``ipaex_path`` raises
    when the font is missing); a chart page then just names system fonts.
    """
    spec = importlib.util.find_spec("matplotlib_fontja")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(list(spec.submodule_search_locations)[0]) / "fonts" / "ipaexg.ttf"
    return path if path.is_file() else None


def font_face(text: str) -> str:
    """An ``@font-face`` rule embedding IPAexGothic cut down to ``text``'s CJK and symbols.

    Empty when ``text`` needs none or the font is missing. The subset is
    :func:`pnp.webfont.font_face`'s, the HTML rulebook's: WOFF with the
    licence name records and a unicode-range, the same bytes every time.
    """
    chars = {ord(ch) for ch in text if ord(ch) >= FIRST_EMBEDDED or ord(ch) in SUITS}
    path = _ipaex()
    if not chars or path is None:
        return ""
    # as the rulebook: what the font has no glyph for stays with the reader's fonts
    return _webfont_face(sorted(chars & cmap(path)), font=path)


def _page(title: str, meta: str, sections: Iterable[str]) -> str:
    """The whole HTML document (with the Japanese font subset it needs)."""
    body = (f"<h1>{escape(title)}</h1>\n<p class=\"meta\">{escape(meta)}</p>\n"
            + "\n".join(part for part in sections if part))
    face = font_face(title + body)
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{escape(title)}</title>\n<style>{face}{CSS}</style>\n</head>\n"
            f"<body>\n{body}\n</body>\n</html>\n")


def _fmt(x: float, pct: bool, diff: bool = False) -> str:
    if diff:  # a change: signed, and a change of a share is in percentage points
        return f"{100 * x:+.1f} pt" if pct else f"{x:+.2f}"
    return f"{100 * x:.1f}%" if pct else f"{x:.2f}"


def _nice(x: float) -> float:
    """``x`` (≥ 0) rounded up to 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten."""
    if x <= 0:
        return 0.0
    power = 10.0 ** math.floor(math.log10(x))
    for step in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if x <= step * power * (1 + 1e-9):
            return step * power
    return 10 * power


#: Width of one character of a 13 px axis label, as a share of the font size:
#: generous for digits, signs and % in the page's sans-serif (about 0.55 em),
#: so an estimate never lets two labels touch.
CHAR_EM = 0.62
#: Least clear space between two axis labels, in pixels.
LABEL_GAP = 6.0


def axis_ticks(lo: float, hi: float, width: float, text: Callable[[float], str],
               font_px: float = 13.0) -> list[float]:
    """The ticks of a horizontal axis from ``lo`` to ``hi`` drawn ``width`` pixels wide.

    Candidates, most useful first: 0 (when the axis crosses it) and the two
    ends, else the ends and the middle. Each is kept only when its label,
    centred on it and as wide as ``text(value)`` estimates
    (:data:`CHAR_EM`), stays :data:`LABEL_GAP` clear of every label already
    kept: "-0.20" and "0.00" 8 px apart printed as "-0.20.00". Returned in
    axis order.
    """
    span = hi - lo
    if span <= 0:
        return [lo]
    if lo < 0 < hi:
        wanted = [0.0, hi, lo]
    else:
        wanted = [lo, hi, lo + span / 2]
    kept: list[tuple[float, float, float]] = []   # (value, centre px, half width px)
    for v in wanted:
        centre = (v - lo) / span * width
        half = len(text(v)) * CHAR_EM * font_px / 2
        if all(abs(centre - c) >= half + h + LABEL_GAP for _, c, h in kept):
            kept.append((v, centre, half))
    return sorted(v for v, _, _ in kept)


def bar_chart(rows: Sequence[tuple[str, float, float | None, float | None]], *,
              pct: bool = True,
              ref: float | None = None, ref_label: str = "", flags: Sequence[str] = (),
              diff: bool = False,
              ref_band: tuple[float | None, float | None] | None = None) -> str:
    """Horizontal bars with 95% interval whiskers and an optional reference line.

    ``rows`` are (label, value, low, high), low and high None for a value
    without an interval (no whisker is drawn); ``flags`` (same length, may be
    empty) colour a bar green ("dominant") or red ("trap"). ``diff`` marks
    the values as differences (signed labels; shares in points).
    ``ref_band`` (low, high) shades the reference's own 95 % interval (a
    group average is an estimate too); nothing is shaded when either is None.
    """
    if not rows:
        return ""
    label_w, right = 170, 90
    row_h = 22
    top = 22 if ref is not None else 6
    h = top + row_h * len(rows) + 24
    # Axis ends rounded out to readable values (40%, not 34.7%).
    band = ref_band if ref_band and None not in ref_band else None
    hi = _nice(max([r[1] if r[3] is None else r[3] for r in rows] + [ref or 0.0]
                   + ([float(band[1] or 0.0)] if band else [])))
    least = min([r[1] if r[2] is None else r[2] for r in rows] + [0.0])
    lo = -_nice(-least) if least < 0 else 0.0  # never "-0.0%"
    if hi == lo:
        hi = 1.0
    span = hi - lo
    plot_w = WIDTH - label_w - right

    def x(v: float) -> float:
        return label_w + (v - lo) / span * plot_w

    out = [f'<svg width="{WIDTH}" height="{h}" viewBox="0 0 {WIDTH} {h}" role="img">']
    if ref is not None and band:
        b_lo, b_hi = x(float(band[0] or 0.0)), x(float(band[1] or 0.0))
        # drawn first, under the bars: the band of values the average may take
        out.append(f'<rect x="{b_lo:.1f}" y="{top - 4}" width="{max(b_hi - b_lo, 0.5):.1f}" '
                   f'height="{row_h * len(rows) + 4}" fill="{REF}" fill-opacity="0.12"/>')
    for i, (label, value, low, high) in enumerate(rows):
        y = top + i * row_h
        flag = flags[i] if i < len(flags) else ""
        fill = GOOD if flag == "dominant" else BAD if flag == "trap" else BAR
        x0, x1 = x(min(0.0, value)), x(max(0.0, value))
        out.append(f'<text x="{label_w - 6}" y="{y + 15}" text-anchor="end" '
                   f'font-size="13">{escape(label)}</text>')
        out.append(f'<rect x="{x0:.1f}" y="{y + 4}" width="{max(x1 - x0, 0.5):.1f}" '
                   f'height="{row_h - 8}" fill="{fill}"/>')
        if low is not None and high is not None:
            out.append(f'<line x1="{x(low):.1f}" y1="{y + row_h / 2:.1f}" x2="{x(high):.1f}" '
                       f'y2="{y + row_h / 2:.1f}" stroke="{WHISKER}" stroke-width="2"/>')
            for v in (low, high):
                out.append(f'<line x1="{x(v):.1f}" y1="{y + 6}" x2="{x(v):.1f}" '
                           f'y2="{y + row_h - 6}" stroke="{WHISKER}" stroke-width="2"/>')
        out.append(f'<text x="{WIDTH - right + 6}" y="{y + 15}" font-size="13">'
                   f'{_fmt(value, pct, diff)}</text>')
    if ref is not None:
        out.append(f'<line x1="{x(ref):.1f}" y1="{top - 4}" x2="{x(ref):.1f}" '
                   f'y2="{top + row_h * len(rows)}" stroke="{REF}" stroke-width="1.5" '
                   f'stroke-dasharray="4 3"/>')
        out.append(f'<text x="{x(ref):.1f}" y="{top - 8}" text-anchor="middle" '
                   f'font-size="13" fill="{REF}">{escape(ref_label)}</text>')
    axis_y = top + row_h * len(rows) + 16
    for v in axis_ticks(lo, hi, plot_w, lambda t: _fmt(t, pct, diff)):
        out.append(f'<text x="{x(v):.1f}" y="{axis_y}" text-anchor="middle" font-size="13" '
                   f'fill="{MUTED}">{_fmt(v, pct, diff)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def histogram(hist: dict[str, int], *, label: str, width: int = WIDTH, height: int = 150,
              span: tuple[int, int] | None = None) -> str:
    """Vertical bars of value → count (keys are whole numbers as text).

    ``span`` (lowest, highest value) fixes the x range, so histograms drawn
    one above the other (score by seat) line up value for value.
    """
    if not hist:
        return ""
    items = sorted((int(k), v) for k, v in hist.items())
    lo, hi = span if span is not None else (items[0][0], items[-1][0])
    counts = dict(items)
    top = max(counts.values()) or 1
    left, bottom = 8, 34
    n = hi - lo + 1
    bw = (width - 2 * left) / n
    plot_h = height - bottom - 18
    out = [f'<svg width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
           f'role="img"><text x="{left}" y="14" font-size="13">{escape(label)}</text>']
    for i in range(n):
        c = counts.get(lo + i, 0)
        bh = c / top * plot_h
        out.append(f'<rect x="{left + i * bw:.1f}" y="{18 + plot_h - bh:.1f}" '
                   f'width="{max(bw - 1, 0.5):.1f}" height="{bh:.1f}" fill="{BAR}"/>')
    ticks = sorted({lo, (lo + hi) // 2, hi})
    for v in ticks:
        out.append(f'<text x="{left + (v - lo + 0.5) * bw:.1f}" y="{height - 14}" '
                   f'text-anchor="middle" font-size="13" fill="{MUTED}">{v}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _runs(flags: Sequence[bool]) -> list[list[int]]:
    """Indices of each run of consecutive true ``flags`` (where a band can be drawn)."""
    runs: list[list[int]] = []
    for i, flag in enumerate(flags):
        if not flag:
            continue
        if runs and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


def line_chart(xs: Sequence[str],
               series: Sequence[tuple[str, Sequence[float], Sequence[float | None],
                                      Sequence[float | None]]],
               *, pct: bool = True, ref: float | None = None, ref_label: str = "",
               x_label: str = "") -> str:
    """Lines over categories ``xs`` with 95% interval bands (one band per series).

    A point whose interval is None (one game, or every game alike) has no
    band: the band is drawn over each run of points that have one (a lone
    point gets a whisker), and the point itself is an open circle, so a
    band pinched to zero width never reads as certainty.
    """
    if not xs or not series:
        return ""
    h = 260
    left, right, top, bottom = 64, 20, 16, 46
    vals = [v for _, values, lows, highs in series
            for v in (*values, *(x for x in (*lows, *highs) if x is not None))]
    if ref is not None:
        vals.append(ref)
    least = min(vals + [0.0])
    lo = -_nice(-least) if least < 0 else 0.0
    hi = _nice(max(vals)) or 1.0    # a readable top tick (20.0, not 15.02)
    span = (hi - lo) or 1.0
    pw, ph = WIDTH - left - right, h - top - bottom

    def px(i: int) -> float:
        return left + (i / (len(xs) - 1) * pw if len(xs) > 1 else pw / 2)

    def py(v: float) -> float:
        return top + (1 - (v - lo) / span) * ph

    palette = (BAR, "#8c4f00", "#5b3f8c", "#2f6f5e")
    out = [f'<svg width="{WIDTH}" height="{h}" viewBox="0 0 {WIDTH} {h}" role="img">']
    for v in (lo, lo + span / 2, hi):
        out.append(f'<line x1="{left}" y1="{py(v):.1f}" x2="{WIDTH - right}" y2="{py(v):.1f}" '
                   f'stroke="#dddddd"/>')
        out.append(f'<text x="{left - 6}" y="{py(v) + 4:.1f}" text-anchor="end" font-size="13" '
                   f'fill="{MUTED}">{_fmt(v, pct)}</text>')
    for k, (name, values, lows, highs) in enumerate(series):
        colour = palette[k % len(palette)]
        have = [lows[i] is not None and highs[i] is not None for i in range(len(values))]
        for run in _runs(have):
            if len(run) == 1:
                i = run[0]
                out.append(f'<line x1="{px(i):.1f}" y1="{py(lows[i] or 0.0):.1f}" '
                           f'x2="{px(i):.1f}" y2="{py(highs[i] or 0.0):.1f}" '
                           f'stroke="{colour}" stroke-opacity="0.5" stroke-width="6"/>')
                continue
            band = [f"{px(i):.1f},{py(highs[i] or 0.0):.1f}" for i in run]
            band += [f"{px(i):.1f},{py(lows[i] or 0.0):.1f}" for i in reversed(run)]
            out.append(f'<polygon points="{" ".join(band)}" fill="{colour}" '
                       'fill-opacity="0.18"/>')
        pts = " ".join(f"{px(i):.1f},{py(v):.1f}" for i, v in enumerate(values))
        out.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for i, v in enumerate(values):
            # open circle: no interval at this point (see the table beside the chart)
            fill = colour if have[i] else "#ffffff"
            out.append(f'<circle cx="{px(i):.1f}" cy="{py(v):.1f}" r="3.5" fill="{fill}"'
                       + ("" if have[i] else f' stroke="{colour}" stroke-width="2"') + "/>")
        if len(series) > 1:
            out.append(f'<text x="{left + 6}" y="{top + 14 + 16 * k}" font-size="13" '
                       f'fill="{colour}">{escape(name)}</text>')
    if ref is not None:
        out.append(f'<line x1="{left}" y1="{py(ref):.1f}" x2="{WIDTH - right}" '
                   f'y2="{py(ref):.1f}" stroke="{REF}" stroke-dasharray="4 3"/>')
        out.append(f'<text x="{WIDTH - right}" y="{py(ref) - 5:.1f}" text-anchor="end" '
                   f'font-size="13" fill="{REF}">{escape(ref_label)}</text>')
    for i, label in enumerate(xs):
        # The end labels hang inwards, so a long one is not cut at the edge.
        anchor = ("middle" if len(xs) == 1 else "start" if i == 0
                  else "end" if i == len(xs) - 1 else "middle")
        out.append(f'<text x="{px(i):.1f}" y="{h - bottom + 18}" text-anchor="{anchor}" '
                   f'font-size="13" fill="{MUTED}">{escape(label)}</text>')
    if x_label:
        out.append(f'<text x="{left + pw / 2:.1f}" y="{h - 6}" text-anchor="middle" '
                   f'font-size="13">{escape(x_label)}</text>')
    out.append("</svg>")
    return "\n".join(out)


class _Markup(str):
    """A table cell that is HTML already (built from escaped parts): not escaped again."""


def _event_cell(name: str, labels: Mapping[str, str] | None) -> str:
    """A rule event's table cell: its label with the machine name under it (as the JSON
    and the engine spell it, for searching), or the machine name alone."""
    label = (labels or {}).get(name)
    if not label:
        return name
    # the label wraps in its narrow column; the name keeps a line of its own
    return _Markup(f'{escape(label)}<span class="key">{escape(name)}</span>')


def _table(head: Sequence[str], rows: Iterable[Sequence[Any]],
           flag_col: int | None = None) -> str:
    """A plain HTML table (cells escaped, except :class:`_Markup` cells)."""
    out = ["<table><thead><tr>" + "".join(f"<th>{escape(h)}</th>" for h in head)
           + "</tr></thead><tbody>"]
    for row in rows:
        cells = []
        for i, cell in enumerate(row):
            cls = ' class="flag"' if i == flag_col else ""
            text = cell if isinstance(cell, _Markup) else escape(str(cell))
            cells.append(f"<td{cls}>{text}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def _section(title: str, *parts: str) -> str:
    return f"<h2>{escape(title)}</h2>\n" + "\n".join(p for p in parts if p)


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def _few_note(few: Sequence[tuple[str, str]]) -> str:
    """One note naming the rules whose columns rest on only a few games (and how few)."""
    if not few:
        return ""
    names = "; ".join(f"{escape(name)} {escape(note.strip())}" for name, note in few)
    return (f'<p class="note">Some columns rest on only a few games, so read them as '
            f"noise: {names}.</p>")


def _failures(rep: dict[str, Any]) -> str:
    """The failed games, one row each ("" for a clean run).

    The text report has the traces; the page names each failure so that a
    broken run is not mistaken for a clean one.
    """
    fails = rep.get("failures") or []
    if not fails:
        return ""
    more = f" {len(fails) - 20} more in the JSON." if len(fails) > 20 else ""
    return _section(
        "Failures", _table(["game", "kind", "seed", "bots", "message"],
                           [(f["game_index"], f["kind"], f["seed"], ",".join(f["seats"]),
                             f["message"]) for f in fails[:20]]),
        '<p class="note">Replay a game from the trace in the text report or the JSON '
        f"(pnp.sim.replay).{more}</p>")


def _shift_cell(shift: dict[str, float] | None, digits: int) -> str:
    """A rule's shift (fired minus not) ± its 95 % Welch half-width (symmetric), or a dash."""
    if not shift:
        return "—"
    # no-break spaces: "+0.41 ± 2.19" must not wrap inside a narrow column
    half = (shift["high"] - shift["low"]) / 2
    return f"{shift['difference']:+.{digits}f}\u00a0±\u00a0{half:.{digits}f}"


def report_page(rep: dict[str, Any], figure_lines: Sequence[str] = ()) -> str:
    """The chart page of one simulation report (:func:`pnp.sim.report.build_report`).

    ``figure_lines`` are the game's own report lines (its ``GameStats.format``),
    shown as in the text report so the page holds every figure the text does.
    """
    g, cfg = rep["game"], rep["config"]
    meta = (f"{cfg['players']} player{'s' if cfg['players'] != 1 else ''}, {cfg['games']} "
            f"games, seed {cfg['seed']}, bots "
            f"{','.join(cfg['bots'])}; parameters "
            + params_text(g["params"])
            + ". Intervals are 95%.")
    sections = []
    said = (rep.get("findings") or {}).get("sentences") or []
    if said:
        sections.append(_section("Findings", "<ul class=\"findings\">" + "".join(
            f"<li>{escape(s)}</li>" for s in said) + "</ul>"))
    seats = rep["seats"]
    n = cfg["players"]
    if rep["length_turns"] is None:
        sections.append(_section("No game completed", "<p>No statistics.</p>"))
        sections.append(_failures(rep))
        return _page(f"{g['title']} — simulation", meta, sections)
    if n > 1:
        sections.append(_section(
            "Win shares by seat",
            bar_chart([(f"seat {s['seat']}", s["win_share"], s["ci_low"], s["ci_high"])
                       for s in seats], ref=rep["fair_share"],
                      ref_label=f"fair {_pct(rep['fair_share'])}"),
            '<p class="note">Wins as the rules decide them (shared wins split). Seats are '
            "numbered from 0, the start player.</p>"))
    # One x range for every seat, so the seats' histograms can be compared by eye.
    values = [int(k) for s in seats for k in s["score_histogram"]]
    span = (min(values), max(values)) if values else None
    unit = cfg.get("score_unit") or ""
    sections.append(_section("Score distribution by seat" + (f" ({unit})" if unit else ""), *[
        histogram(s["score_histogram"], label=f"seat {s['seat']}: mean "
                  f"{s['score_mean']:.2f} {interval_text(s, rep['completion']['completed'])}",
                  height=130, span=span) for s in seats]))
    ln = rep["length_turns"]
    length = cfg.get("length_unit") or "turns"
    sections.append(_section(f"Game length ({length})", histogram(
        ln["histogram"], label=f"median {ln['median']:g}, p95 {ln['p95']}, max {ln['max']}")))
    bots = rep.get("bots")
    if bots:
        rows = [(name, bots["win"][name]["win_share"], bots["win"][name]["ci_low"],
                 bots["win"][name]["ci_high"]) for name in bots["names"]]
        if n > 1:
            sections.append(_section("Win shares by bot (per seat-game)", bar_chart(
                rows, ref=rep["fair_share"], ref_label=f"luck {_pct(rep['fair_share'])}"),
                '<p class="note">Intervals count games, not seats: a bot\'s seats in one '
                "game are not independent (at most one of them wins, or they share the "
                "win).</p>"))
            # The win matrix as the text gives it (row finishes ahead of column).
            names = bots["names"]
            sections.append(_section("Head to head", _table(
                ["row finishes ahead of column"] + list(names),
                [(a, *("—" if a == b else _pct(bots["head_to_head"][a][b]) for b in names))
                 for a in names]),
                '<p class="note">Share of seat pairs in one game where the row\'s bot '
                "finished ahead (winner first, then score; equal counts half).</p>"))
        else:
            sections.append(_section("Mean score by bot", bar_chart(
                [(name, bots["win"][name]["score_mean"], bots["win"][name]["score_ci_low"],
                  bots["win"][name]["score_ci_high"]) for name in bots["names"]], pct=False)))
    cards = (rep.get("findings") or {}).get("cards") or []
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in cards:
        groups.setdefault(row["group"], []).append(row)
    for group, items in groups.items():
        shown = items if len(items) <= 24 else items[:12] + items[-12:]
        solo = n == 1
        chart = bar_chart(
            [(r.get("label") or r["name"], r["score_mean"] if solo else r["win_share"],
              r["score_ci_low"] if solo else r["ci_low"],
              r["score_ci_high"] if solo else r["ci_high"]) for r in shown],
            pct=not solo,
            ref=items[0]["group_score_mean"] if solo else items[0]["group_win_share"],
            ref_label="group average " + group_average_text(items[0], solo),
            flags=[r["flag"] for r in shown],
            ref_band=((items[0]["group_score_ci_low"], items[0]["group_score_ci_high"]) if solo
                      else (items[0]["group_ci_low"], items[0]["group_ci_high"])))
        # Rule keys are often things that happen to a seat, not choices (as in
        # the findings): green and red say "goes with winning/losing" for them.
        colours = ("Green: goes with winning, red: with losing" if group == "rule"
                   else "Green: dominant, red: trap")
        tested = keys_tested(cards)
        rule = (f"{colours}: at least {LIFT:g}× the group average (or at most 1/{LIFT:g} "
                "of it) beyond noise, by a test of the difference that counts the games "
                f"key and group share, corrected for the {tested} key"
                f"{'s' if tested != 1 else ''} of every group tested together (Holm). Each "
                "whisker is its key's own 95% interval; the shaded band is the group "
                "average's own 95% interval.")
        note = (f'<p class="note">{len(items)} keys; best and worst 12 shown (all in the '
                f"JSON). {rule}</p>" if len(items) > 24 else f'<p class="note">{rule}</p>')
        sections.append(_section(f"Cards: {group}" + (" (mean score)" if solo else
                                                       " (win share of seats with it)"),
                                 chart, note))
    rules = [r for r in (rep.get("findings") or {}).get("rules") or [] if r["games"]]
    if rules:
        key = "best_score" if n == 1 else "margin"
        labels = rep.get("event_labels") or {}     # the designer's names of the events
        sections.append(_section("Rules: games where each fired vs the others", _table(
            ["rule", "games", "per game", f"{length} (fired)", f"{length} (not)",
             "shift", "score (fired)" if n == 1 else "margin (fired)",
             "score (not)" if n == 1 else "margin (not)", "shift"],
            [(_event_cell(r["event"], labels),
              fired_share(r["games"], r["games"] + r["games_otherwise"]),
              f"{r['per_game']:.2f}", f"{r['turns_when_fired']:.1f}",
              "—" if r["turns_otherwise"] is None else f"{r['turns_otherwise']:.1f}",
              _shift_cell(r.get("turns_shift"), 1),
              f"{r[f'{key}_when_fired']:.2f}",
              "—" if r[f"{key}_otherwise"] is None else f"{r[f'{key}_otherwise']:.2f}",
              _shift_cell(r.get(f"{key}_shift"), 2))
             for r in rules]),
            '<p class="note">Shift: the mean where the rule fired minus where it did not, '
            "± its 95% interval (Welch t; each game counts once). An association, not a "
            "cause.</p>",
            # A figure from a handful of games is noise: say how many, in one note.
            _few_note([(event_text(r["event"], labels), note) for r in rules
                       if (note := otherwise_note(r["games_otherwise"], r["games"]))])))
    if figure_lines and rep.get("game_figures"):
        sections.append(_section(rep["game_figures"]["title"],
                                 "<pre>" + escape("\n".join(figure_lines)) + "</pre>"))
    sections.append(_failures(rep))
    d = (rep.get("findings") or {}).get("drama")
    if d:
        sections.append(_section("Drama", f"<p>The eventual winner was behind at the "
                                 f"start of the last third in "
                                 f"{_pct(d['winner_behind_at_last_third'])} of games "
                                 f"({_pct(d['ci_low'])}–{_pct(d['ci_high'])}); the lead "
                                 f"changed {d['lead_changes_mean']:.2f} times per game.</p>"))
    return _page(f"{g['title']} — simulation", meta, sections)


def ladder_page(doc: dict[str, Any]) -> str:
    """The skill ladder: win share (or score, solo) against budget with intervals."""
    rungs = doc["rungs"]
    solo = doc["players"] == 1
    # The line to beat: luck's share, or (solo) the field bot's own mean score.
    base = doc.get("baseline") if solo else None
    ref = (base["score_mean"] if base else None) if solo else doc["fair_share"]
    ref_label = ((f"{doc['field']} alone {base['score_mean']:.2f}" if base else "") if solo
                 else f"luck {_pct(doc['fair_share'])}")
    chart = line_chart([str(r["budget"]) for r in rungs],
                       [("mcts", [r["win_share"] for r in rungs], [r["ci_low"] for r in rungs],
                         [r["ci_high"] for r in rungs])],
                       pct=not solo, ref=ref, ref_label=ref_label,
                       x_label="iterations per decision")
    def score(r: dict[str, Any]) -> str:
        return f"{r['score_mean']:.2f} {interval_text(r, doc['games'])}"

    if solo:
        # As the text: the field bot alone first, then each rung's paired
        # difference from it on the same deals (what the ladder is read by).
        base = doc.get("baseline")
        rows: list[tuple[Any, ...]] = ([(f"{doc['field']} alone", base["seat_games"],
                                         score(base), "—")] if base else [])
        rows += [(r["budget"], r["seat_games"], score(r),
                  paired_text(r["paired_vs_field"]) if r.get("paired_vs_field") else "—")
                 for r in rungs]
        table = _table(["iterations", "games", "score mean (95%)",
                        f"difference vs {doc['field']} (paired 95%)"], rows)
    else:
        table = _table(["iterations", "seat-games", "score mean (95%)", "win share (95%)"],
                       [(r["budget"], r["seat_games"], score(r),
                         f"{_pct(r['win_share'])} ({_pct(r['ci_low'])}–{_pct(r['ci_high'])})")
                        for r in rungs])
    n = doc["players"]
    meta = (f"{n} player{'s' if n != 1 else ''}, {doc['games']} games per budget on the same "
            f"deals, seed {doc['seed']}, "
            + (f"against {doc['field']} alone on the same deals" if solo else
               f"field {doc['field']}, seats rotated")
            # --ladder-search: how every rung searched (mcts:B:d16)
            + (f", every rung mcts:B:{doc['search']}" if doc.get("search") else "")
            + ". Intervals are 95%.")
    sections = []
    if doc.get("sentences"):
        sections.append(_section("Findings", "<ul class=\"findings\">" + "".join(
            f"<li>{escape(s)}</li>" for s in doc["sentences"]) + "</ul>"))
    unit = doc.get("score_unit") or ""
    # the chart's open circles: a rung without an interval (interval_text says why)
    bare = ('<p class="note">An open circle has no interval band: that rung\'s games all '
            "gave the same score.</p>" if any(r["ci_low"] is None for r in rungs) else "")
    sections.append(_section("Skill ladder" + ((f" (mean {unit})" if unit else " (mean score)")
                                               if solo else
                                               " (searching bot's win share)"), chart, table,
                             bare))
    bad = [str(r["budget"]) for r in rungs if not r.get("ok", True)]
    if bad:  # as the text's FAILURES flag
        sections.insert(0, _section("Failures", f"<p>Some games failed at {', '.join(bad)} "
                                    "iterations: the figures count only the games that "
                                    "finished.</p>"))
    return _page(f"{doc['title']} — skill ladder", meta, sections)


def _figure_series(rows: Sequence[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    # Only figures every row has: a variant whose games all failed has no seat
    # or game figures (the page crashed on it; its failure is named above).
    have = [{f["name"]: f for f in r["figures"]} for r in rows]
    names = [f["name"] for f in rows[0]["figures"] if all(f["name"] in h for h in have)]
    return [(name, [h[name] for h in have]) for name in names]


def _variant_failures(rows: Sequence[dict[str, Any]]) -> str:
    """A warning naming the variants in which some games failed ("" when none did)."""
    bad = [params_text(r["values"]) if r["values"] else "the rules as given"
           for r in rows if not r.get("ok", True)]
    if not bad:
        return ""
    return _section("Failures", f"<p>Some games failed with {escape('; '.join(bad))}: run "
                    "that variant alone (pnp simulate --param …) for the traces; its "
                    "figures below count only the games that finished.</p>")


def _bound(f: dict[str, Any], end: str) -> float | None:
    """A key figure's ``low`` or ``high``, None when its interval has no width.

    A sweep row's mean over games that were all alike comes with low = high
    = the mean: the chart leaves that point without a band (an open circle)
    rather than draw one of zero width.
    """
    low, high = f.get("low"), f.get("high")
    if low is None or high is None or high - low <= 1e-6 * max(1.0, abs(f["value"])):
        return None
    return float(f[end])


def sweep_page(doc: dict[str, Any]) -> str:
    """Sweep curves: every key figure against the swept values, with intervals."""
    rows = doc["rows"]
    # One swept parameter: its name is the axis title, so the ticks are just values.
    xs = [" ".join(param_value(v) if len(doc["swept"]) == 1 else f"{k}={param_value(v)}"
                   for k, v in r["values"].items()) for r in rows]
    sections = []
    unit = doc.get("length_unit") or "turns"
    for name, figs in _figure_series(rows):
        sections.append(_section(figure_label(name, unit, doc.get("figure_labels"))
                                 .replace("_", " "), line_chart(
            xs, [(name, [f["value"] for f in figs], [_bound(f, "low") for f in figs],
                  [_bound(f, "high") for f in figs])], pct=is_rate(name),
            x_label=", ".join(doc["swept"]))))
    paired = [r for r in rows if r.get("paired")]
    if paired:
        # The text report's columns: a solo game has no margin and always "wins".
        names = (["turns", "score_seat0"] if doc["players"] == 1
                 else ["turns", "winner_margin", "win_seat0"])

        def cell(d: dict[str, Any], rate: bool) -> str:
            return (f"{_fmt(d['mean'], rate, True)} ({_fmt(d['low'], rate, True)} … "
                    f"{_fmt(d['high'], rate, True)})")
        sections.append(_section("Paired differences against the first row", _table(
            ["values"] + [outcome_label(n, doc["bots"], unit) for n in names],
            [(params_text(r["values"], " "),
              *(cell(r["paired"]["differences"][n], n.startswith("win_")) for n in names))
             for r in paired]),
            "" if doc["players"] == 1 else
            '<p class="note">win_seat0 changes in percentage points (pt).</p>'))
    meta = (f"{doc['players']} player{'s' if doc['players'] != 1 else ''}, {doc['games']} "
            f"games per value on the same deals, "
            f"seed {doc['seed']}, bots {','.join(doc['bots'])}. Intervals are 95%.")
    return _page(f"{doc['title']} — sweep of {', '.join(doc['swept'])}", meta,
                 [_variant_failures(rows), *sections])


def compare_page(doc: dict[str, Any]) -> str:
    """A comparison: paired differences of each change with their intervals."""
    sections = []
    solo = doc["players"] == 1
    unit = doc.get("length_unit") or "turns"
    for row in doc["rows"][1:]:
        label = params_text(row["values"])
        diffs = row["paired"]["differences"]
        outcomes = shown_outcomes(diffs, doc["players"], doc["bots"])
        # The numbers behind the bars, as the text report gives them: base and
        # changed means, and whether the paired interval excludes 0.
        shown = ([n for n in outcomes if n.startswith("win_")]
                 + [n for n in outcomes if not n.startswith("win_")])
        wins = [(outcome_label(n, doc["bots"]), diffs[n]["mean"], diffs[n]["low"],
                 diffs[n]["high"]) for n in shown if n.startswith("win_")]
        other = [(outcome_label(n, doc["bots"], unit), diffs[n]["mean"], diffs[n]["low"],
                  diffs[n]["high"]) for n in shown if not n.startswith("win_")]
        table = _table(
            ["outcome", "base", "changed", "difference (95% paired)", "two runs would give",
             "own interval excludes 0"],
            [(outcome_label(n, doc["bots"], unit),
              _fmt(diffs[n]["base_mean"], n.startswith("win_")),
              _fmt(diffs[n]["variant_mean"], n.startswith("win_")),
              f"{_fmt(diffs[n]['mean'], n.startswith('win_'), True)} "
              f"({_fmt(diffs[n]['low'], n.startswith('win_'), True)} … "
              f"{_fmt(diffs[n]['high'], n.startswith('win_'), True)})"
              # every game alike: a bound, not a t interval (pnp.intervals.paired_interval)
              + (" bound, every game alike" if diffs[n].get("no_spread") else "")
              + (f", {CLIPPED}" if diffs[n].get("clipped") else ""),
              "±" + _fmt(diffs[n]["unpaired_half_width"], n.startswith("win_")).rstrip("%")
              + (" pt" if n.startswith("win_") else ""),
              "yes" if excludes_zero(diffs[n]) else "")
             for n in shown])
        # The game's own figures, base → changed, as the text lists them (unpaired).
        base_own = {f["name"]: f for f in doc["rows"][0]["figures"]}
        own = [(f["name"], base_own[f["name"]], f) for f in row["figures"]
               if f["name"] not in GENERIC_FIGURES and f["name"] in base_own]

        def fig(f: dict[str, Any], rate: bool) -> str:
            # a mean over games that were all alike has no interval (figure_dict)
            if f["low"] is None or f["high"] is None or f["high"] - f["low"] <= 1e-6 * max(
                    1.0, abs(f["value"])):
                return f"{_fmt(f['value'], rate)} (every game alike: no interval)"
            return (f"{_fmt(f['value'], rate)} ({_fmt(f['low'], rate)}–"
                    f"{_fmt(f['high'], rate)})")
        labels = doc.get("figure_labels") or {}
        own_table = _table(["the game's own figure", "base (95%)", "changed (95%)"],
                           [(labels.get(n, n), fig(b, is_rate(n)), fig(f, is_rate(n)))
                            for n, b, f in own]) if own else ""
        sections.append(_section(
            f"{label}: change in " + ("scores and length (paired)" if solo
                                      else "win shares (paired)"),
            f"<p>{escape(row['sentence'])}</p>" if row.get("sentence") else "",
            bar_chart(wins, ref=0.0, ref_label="0", diff=True),
            bar_chart(other, pct=False, ref=0.0, ref_label="0", diff=True), table, own_table,
            f'<p class="note">{row["paired"]["games_paired"]} games paired with the base '
            "rules (same deals); win shares change in percentage points (pt). The sentence "
            "names only changes that hold up with the "
            f"{len(sentence_family(diffs, doc['players'], doc['bots']))} outcomes it could "
            "name tested together (Holm); the last column judges each interval on its "
            "own.</p>"))
    meta = (f"{doc['players']} player{'s' if doc['players'] != 1 else ''}, {doc['games']} "
            f"games per variant on the same deals, "
            f"seed {doc['seed']}, bots {','.join(doc['bots'])}. Intervals are 95%.")
    return _page(f"{doc['title']} — comparison", meta,
                 [_variant_failures(doc["rows"]), *sections])


__all__ = ["bar_chart", "compare_page", "histogram", "ladder_page", "line_chart",
           "report_page", "sweep_page"]
