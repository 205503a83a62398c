"""A sheet's footer label goes up a side margin where the foot has no room (poker on Letter).

Pure geometry first (:func:`place_label`, :func:`side_label_box`, the layout's
rule 7), then drawn sheets: the label's glyphs must land inside the spot the
geometry chose. Clearances are measured from the label's ink as the font file
gives it (IPAexGothic's own ascender and descender), not from the module's
constants, so a wrong metric there shows as a label too close to a mark.
"""

from __future__ import annotations

import io
from functools import cache
from typing import Callable

import pypdfium2 as pdfium
import pytest
from fontTools.ttLib import TTFont
from reportlab.pdfbase.pdfmetrics import stringWidth

from pnp.printing.geometry import Bleed, Rect, Segment, Slot
from pnp.printing.imposition import (LABEL_CLEARANCE, LABEL_DEPTH, LABEL_MAX_SIZE, LABEL_MIN_SIZE,
                                     LABEL_ROOM_LENGTH, MARK_GAP, MARK_WIDTH, LabelSpot,
                                     PagePlan, compute_layout, label_box, place_label,
                                     inner_label_box, plan_sheet, side_label_box)
from pnp.printing.papers import get_paper
from pnp.printing.sheets import SheetItem, draw_pages, grid_sheets
from pnp.render import fonts
from pnp.units import mm, to_mm

from mark_geometry import PRESETS, TOL, distance, stroke  # tests/mark_geometry.py

#: Slack for clearances measured from the font's ink: the code rounds
#: IPAexGothic's 1802/2048 em ascender to 0.88, a 0.0007 pt difference at 6 pt.
INK_TOL = 0.01
MARGIN = mm(5)
#: Card sizes printed on grids (tokens go on packed small-parts pages, where a
#: page whose 25 mm grid of marks leaves no 46 mm stretch has no footer).
CARDS_MM = {"poker": (63.0, 88.0), "mini": (44.0, 67.0), "tarot": (70.0, 120.0)}
#: The longest shipped label, about 46 mm at 5 pt.
LONGEST = "Fortune Clover - Player aid (English) - fronts - sheet 1/1"


@pytest.fixture(autouse=True)
def _label_font() -> None:
    """Register the label font (IPAexGothic) with ReportLab for stringWidth."""
    fonts.register_fonts()


def width_of(text: str) -> Callable[[float], float]:
    """The label's length at a size, in the label font (as the sheet writer measures it)."""
    return lambda size: stringWidth(text, fonts.FONT_JA, size)


@cache
def font_extent() -> tuple[float, float]:
    """The label font's ink (ascender, deepest descender) in em, read from the font file.

    The ascender is IPAexGothic's hhea ascent; the descender is the deeper of
    its hhea descent and the lowest printable ASCII glyph (g j p q y reach
    below the em box), so a label in English is covered too.
    """
    with TTFont(str(fonts.ipaex_path()), lazy=True) as font:
        em = font["head"].unitsPerEm
        glyf, cmap = font["glyf"], font.getBestCmap()
        lowest = min(getattr(glyf[cmap[c]], "yMin", 0) for c in range(0x21, 0x7F) if c in cmap)
        return font["hhea"].ascent / em, max(-font["hhea"].descent, -lowest) / em


def ink_box(spot: LabelSpot, length: float) -> Rect:
    """The page area the label's line inks, from the font file's metrics (not the code's)."""
    ascent, descent = font_extent()
    depth = (ascent + descent) * spot.size
    if spot.rotation == 90:
        # turned +90 degrees about the baseline origin: the ascent points left
        return Rect(spot.x - ascent * spot.size, spot.y, depth, length)
    return Rect(spot.x, spot.y - descent * spot.size, length, depth)


def check_spot(page: PagePlan, spot: LabelSpot, length: float) -> Rect:
    """Assert the label's ink is inside the printable area, off the art, clear of marks."""
    line = ink_box(spot, length)
    # the geometry's own line box holds that ink, and is at most 0.01 em larger
    box = spot.line_box(length)
    slack = 0.01 * spot.size
    assert box.x <= line.x + TOL and box.y <= line.y + TOL, (box, line)
    assert box.x1 >= line.x1 - TOL and box.y1 >= line.y1 - TOL, (box, line)
    assert box.w + box.h <= line.w + line.h + slack, (box, line)
    w, h = page.paper.width, page.paper.height
    assert line.x >= MARGIN - INK_TOL and line.y >= MARGIN - INK_TOL, (line, spot)
    assert line.x + line.w <= w - MARGIN + INK_TOL and line.y + line.h <= h - MARGIN + INK_TOL
    assert spot.box.x - INK_TOL <= line.x and line.x + line.w <= spot.box.x1 + INK_TOL
    assert spot.box.y - INK_TOL <= line.y and line.y + line.h <= spot.box.y1 + INK_TOL
    for slot in page.slots:
        assert distance(line, slot.bleed_rect) >= MARK_GAP - INK_TOL, (line, slot)
    for seg in page.marks + page.folds:
        assert distance(line, stroke(seg)) >= LABEL_CLEARANCE - INK_TOL, (line, seg)
    assert spot.size >= LABEL_MIN_SIZE - TOL
    return line


@pytest.mark.parametrize("paper,kind,priority", PRESETS)
@pytest.mark.parametrize("card", sorted(CARDS_MM))
def test_every_home_page_has_a_footer_clear_of_the_marks(paper: str, kind: str, priority: str,
                                                          card: str) -> None:
    w, h = CARDS_MM[card]
    lay = compute_layout(paper, (mm(w), mm(h)), kind=kind, priority=priority)
    for count in sorted({lay.per_sheet, max(1, lay.per_sheet - 2), 1}):
        for page in plan_sheet(lay, count):
            spot = place_label(page, width_of(LONGEST))
            assert spot is not None, (paper, kind, priority, card, count, page.part)
            check_spot(page, spot, stringWidth(LONGEST, fonts.FONT_JA, spot.size))


def test_letter_poker_label_stands_up_the_side_margin() -> None:
    """The foot keeps 1.5 mm under the grid, too little for 5 pt; the side takes the label."""
    lay = compute_layout("letter", (mm(63), mm(88)))
    assert lay.per_sheet == 9                            # rule 7 costs no card
    fronts, backs = plan_sheet(lay, 9)
    foot = label_box(fronts)
    assert foot is not None and foot.h < LABEL_MIN_SIZE * LABEL_DEPTH  # the foot cannot take it
    spot = place_label(fronts, width_of(LONGEST))
    assert spot is not None and spot.rotation == 90
    assert spot.box.x == pytest.approx(MARGIN)           # on the printer margin, left
    assert spot.size == pytest.approx(LABEL_MIN_SIZE, abs=1e-4)
    # between two rows' crop marks: a card's height less the clearances
    assert spot.box.h == pytest.approx(mm(88) - 2 * (LABEL_CLEARANCE + MARK_WIDTH / 2))
    # both side margins keep the room (the grid stays centred), so the
    # mirrored back page has it too
    back = place_label(backs, width_of(LONGEST))
    assert back is not None and back.rotation == 90
    right = side_label_box(backs)
    assert right is not None and right.w == pytest.approx(spot.box.w)


def test_rule_7_keeps_the_grid_centred_and_gives_up_little_bleed() -> None:
    lay = compute_layout("letter", (mm(63), mm(88)))
    x0 = min(s.trim.x for s in lay.fronts)
    x1 = max(s.trim.x1 for s in lay.fronts)
    assert x0 == pytest.approx(lay.paper.width - x1)
    # 2.22 mm a side before; each side margin kept a 5 pt label's ink depth - 1.5 mm more
    assert to_mm(lay.smallest_bleed()) == pytest.approx(0.0)      # gapless rows, as before
    sides = {round(to_mm(s.bleed.left), 3) for s in lay.fronts}
    assert sides == {round((13.3 - 2 * (to_mm(LABEL_MIN_SIZE * 1.08) - 1.5)) / 6, 3)} == {2.082}
    # where the foot has room nothing moves: A4 poker keeps its 1.23 mm columns
    a4 = compute_layout("a4", (mm(63), mm(88)))
    assert {round(to_mm(s.bleed.left), 2) for s in a4.fronts} == {1.23}
    assert place_label(plan_sheet(a4, 9)[0], width_of(LONGEST)).rotation == 0


def test_the_foot_wins_where_it_fits() -> None:
    lay = compute_layout("a4", (mm(63), mm(88)))
    fronts = plan_sheet(lay, lay.per_sheet)[0]
    spot = place_label(fronts, width_of("Fortuna - reel - fronts - sheet 1/9"))
    foot = label_box(fronts)
    assert spot is not None and foot is not None
    assert (spot.rotation, spot.box, spot.x) == (0, foot, foot.x)
    # the A4 poker foot band is 2.2 mm: a label whose ink (descenders
    # included, 1.08 em) fills it is 5.77 pt
    assert to_mm(foot.h) == pytest.approx(2.2, abs=1e-3)
    assert spot.size == pytest.approx(foot.h / 1.08) == pytest.approx(5.774, abs=1e-3)


def test_a_label_too_long_for_every_spot_is_left_out() -> None:
    lay = compute_layout("letter", (mm(63), mm(88)))
    fronts = plan_sheet(lay, lay.per_sheet)[0]
    assert place_label(fronts, lambda size: mm(90)) is None       # longer than a card
    assert place_label(fronts, lambda size: mm(80)) is not None


def test_side_strip_keeps_clear_of_marks_and_art() -> None:
    lay = compute_layout("letter", (mm(63), mm(88)))
    fronts = plan_sheet(lay, lay.per_sheet)[0]
    box = side_label_box(fronts)
    assert box is not None
    art_left = min(s.bleed_rect.x for s in fronts.slots)
    assert box.x1 <= art_left - MARK_GAP + TOL
    for seg in fronts.marks:
        assert distance(box, stroke(seg)) >= LABEL_CLEARANCE - TOL


def test_line_box_of_a_turned_label() -> None:
    """Turned by 90 degrees about its origin, the ascent points left: known answers.

    IPAexGothic rises 0.88 em above the baseline (1802 of 2048 units); its
    Latin descenders reach 0.196 em below it (g: 401 units), further than its
    em box's 0.12, so the line's box runs from 0.2 em under the baseline to
    0.88 em over it: 1.08 em deep.
    """
    spot = LabelSpot(x=20.0, y=100.0, size=5.0, rotation=90, box=Rect(15.6, 100, 5, 200))
    assert spot.line_box(50.0).as_mm() == pytest.approx(
        Rect(20.0 - 0.88 * 5, 100.0, 1.08 * 5, 50.0).as_mm())
    flat = LabelSpot(x=20.0, y=100.0, size=6.0, rotation=0, box=Rect(20, 98.8, 200, 6.48))
    assert flat.line_box(50.0).as_mm() == pytest.approx(
        Rect(20.0, 100.0 - 0.2 * 6, 50.0, 1.08 * 6).as_mm())


def _page(slots: list[Rect], marks: tuple[Segment, ...] = ()) -> PagePlan:
    """An A4 portrait page with art (no bleed) at ``slots`` and the given crop marks."""
    none = Bleed(0, 0, 0, 0)
    return PagePlan(tuple(Slot(i, "front", 0, r, none) for i, r in enumerate(slots)), marks,
                    (), False, "fronts", get_paper("a4", "portrait"), MARGIN)


def test_a_tight_foot_band_holds_the_labels_ink() -> None:
    """Art 5.94 pt + MARK_GAP above the printer margin: a 5.5 pt label whose ink fills the band.

    Its ascenders end at the band's top, MARK_GAP under the art, and its
    descenders at the printer margin (with the em box's 0.12 em below the
    baseline, a g or p reached 0.08 em into that margin).
    """
    art = Rect(mm(30), MARGIN + 5.5 * 1.08 + MARK_GAP, mm(63), mm(88))
    page = _page([art])
    spot = place_label(page, width_of(LONGEST))
    assert spot is not None and spot.rotation == 0
    assert spot.size == pytest.approx(5.5) and spot.box.h == pytest.approx(5.5 * 1.08)
    line = check_spot(page, spot, stringWidth(LONGEST, fonts.FONT_JA, spot.size))
    assert line.y1 == pytest.approx(art.y - MARK_GAP, abs=0.01)
    assert line.y == pytest.approx(MARGIN, abs=0.03)  # 0.2 em taken for 0.196


def _strip_page(left_gap: float, right_gap: float,
                marks: tuple[Segment, ...] = ()) -> PagePlan:
    """A page whose art leaves ``left_gap`` and ``right_gap`` (plus MARK_GAP) beside it."""
    paper = get_paper("a4", "portrait")
    x0 = MARGIN + left_gap + MARK_GAP
    x1 = paper.width - MARGIN - right_gap - MARK_GAP
    # art from the printer margin's foot to its head: no foot band, only the sides
    return _page([Rect(x0, MARGIN, x1 - x0, paper.height - 2 * MARGIN)], marks)


def test_the_deeper_side_strip_wins() -> None:
    """Right margin 5.5 pt deep, left 4 pt: the label goes up the right one."""
    page = _strip_page(4.0, 5.5)
    box = side_label_box(page)
    assert box is not None
    assert box.w == pytest.approx(5.5)
    assert box.x1 == pytest.approx(page.paper.width - MARGIN)
    # and mirrored, the left one
    box = side_label_box(_strip_page(5.5, 4.0))
    assert box is not None and box.x == pytest.approx(MARGIN) and box.w == pytest.approx(5.5)
    # a 5.5 pt strip holds a label of 5.5 / 1.08 pt (its ink, descenders included)
    spot = place_label(page, width_of(LONGEST))
    assert spot is not None and spot.size == pytest.approx(5.5 / 1.08)


def test_strips_deeper_than_a_label_compare_by_length() -> None:
    """Both strips hold a full 6 pt label: depth beyond that buys nothing, length decides.

    The left strip is 20 mm deep but a crop mark reaches into it halfway up;
    the right one is 10 mm deep and free. Both count as deep as a 6 pt
    label's ink (6.48 pt), so the longer (right) stretch wins; the box is
    6.48 pt wide, on the printer margin.
    """
    paper = get_paper("a4", "portrait")
    mid = paper.height / 2
    mark = (Segment(MARGIN, mid, MARGIN + mm(3), mid),)
    page = _strip_page(mm(20), mm(10), mark)
    box = side_label_box(page)
    assert box is not None
    assert box.w == pytest.approx(LABEL_MAX_SIZE * 1.08)
    assert box.x1 == pytest.approx(paper.width - MARGIN)
    assert box.h == pytest.approx(paper.height - 2 * MARGIN)
    spot = place_label(page, width_of(LONGEST))
    assert spot is not None and spot.rotation == 90 and spot.size == pytest.approx(6.0)
    check_spot(page, spot, stringWidth(LONGEST, fonts.FONT_JA, spot.size))


def test_a_tie_between_the_side_strips_goes_left() -> None:
    """Equal depth and length on both sides: the left strip (the documented tie rule)."""
    box = side_label_box(_strip_page(5.5, 5.5))
    assert box is not None and box.x == pytest.approx(MARGIN)


def _drawn_label(paper: str, label: str
                 ) -> tuple[LabelSpot, str, list[tuple[str, tuple[float, ...]]]]:
    """Draw a full poker sheet on ``paper`` labelled ``label``; return its fronts page's spot,
    the page's text and each drawn character with its glyph box (pdfium, points)."""
    from reportlab.pdfgen.canvas import Canvas

    lay = compute_layout(paper, (mm(63), mm(88)))
    sheets = grid_sheets(lay, lay.per_sheet)
    text = f"{label} - fronts - sheet 1/1"
    spot = place_label(sheets[0][0], width_of(text))
    assert spot is not None
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(lay.paper.width, lay.paper.height), invariant=1,
               **fonts.canvas_kwargs())
    draw_pages(c, sheets, [SheetItem(None, None)] * lay.per_sheet, place=lambda *a: None,
               label=label, font=fonts.FONT_JA)
    c.save()
    pdf = pdfium.PdfDocument(buf.getvalue())
    try:
        page = pdf[0].get_textpage()
        found = page.get_text_range().strip()
        glyphs = [(page.get_text_range(i, 1), page.get_charbox(i))
                  for i in range(page.count_chars()) if page.get_text_range(i, 1).strip()]
    finally:
        pdf.close()
    return spot, found, glyphs


def test_drawn_letter_sheet_puts_the_label_where_the_geometry_says() -> None:
    """The sheet writer only draws: the label's glyphs land in the chosen spot, turned."""
    label = "Fortune Clover - deck"
    text = f"{label} - fronts - sheet 1/1"
    spot, found, glyphs = _drawn_label("letter", label)
    assert spot.rotation == 90 and found == text
    boxes = [b for _ch, b in glyphs]
    x0 = min(b[0] for b in boxes)
    x1 = max(b[2] for b in boxes)
    y0 = min(b[1] for b in boxes)
    y1 = max(b[3] for b in boxes)
    line = spot.line_box(stringWidth(text, fonts.FONT_JA, spot.size))
    # inside the strip (the '/' reaches a hair, < 0.1 mm, below the em box)
    assert line.x - 0.05 <= x0 and x1 <= line.x1 + 0.25
    assert y1 - y0 > 5 * (x1 - x0)                                  # turned: tall and thin
    assert line.y - 0.5 <= y0 and y1 <= line.y1 + 0.5


def test_drawn_foot_label_inks_inside_its_line_box() -> None:
    """A4: the foot label's drawn glyphs stay inside the line box the geometry reports.

    Kanji nearly fill IPAexGothic's em box (here 第 reaches 0.83 em above
    the baseline, the em box 0.88): with the baseline 0.24 em up, as it was,
    they stood 0.07 em above the box the clearances were measured from.
    Latin descenders (g, p, y) go 0.2 em down, 0.08 em below the em box:
    that much below the line box is allowed, and no more.
    """
    label = "第2話 山札 (playing cards)"
    text = f"{label} - fronts - sheet 1/1"
    spot, found, glyphs = _drawn_label("a4", label)
    assert spot.rotation == 0 and found == text
    line = spot.line_box(stringWidth(text, fonts.FONT_JA, spot.size))
    kanji = [b for ch, b in glyphs if ord(ch) >= 0x3000]
    assert len(kanji) == 4
    # the kanji's tops come within 0.06 em of the line box's top, and stay under it
    assert max(b[3] for b in kanji) <= line.y1 + INK_TOL
    assert max(b[3] for b in kanji) >= line.y1 - 0.06 * spot.size
    assert min(b[1] for b in kanji) >= line.y - INK_TOL
    assert max(b[3] for _ch, b in glyphs) <= line.y1 + INK_TOL
    assert min(b[1] for _ch, b in glyphs) >= line.y - 0.08 * spot.size
    assert min(b[0] for _ch, b in glyphs) >= line.x - INK_TOL


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("kind", ["duplex", "gutterfold"])
def test_packed_pages_have_a_footer_between_their_rows(paper: str, kind: str) -> None:
    """Pieces reaching the foot and both sides: the label goes in a free band between rows."""
    from pnp.printing.packing import Piece, pack_pieces

    # 40 chips of 20 mm (Fortune Clover's small parts are 30): rows to every edge
    pieces = [Piece(i, mm(20), mm(20), "circle", "chip") for i in range(40)]
    pages = [page for sheet in pack_pieces(paper, pieces, kind=kind, bleed=mm(3))
             for page in sheet]
    inner_used = 0
    for page in pages:
        spot = place_label(page, width_of(LONGEST))
        assert spot is not None, (paper, kind, page.part)
        check_spot(page, spot, stringWidth(LONGEST, fonts.FONT_JA, spot.size))
        inner_used += spot.box == inner_label_box(page) and spot.box != label_box(page)
    if (paper, kind) == ("a4", "gutterfold"):
        assert inner_used >= 1          # the fold page's foot and sides are full


def test_inner_band_known_answer() -> None:
    """Two rows of art with a 20 mm gap: the band is the gap less MARK_GAP each side."""
    paper = get_paper("a4", "portrait")
    none = Bleed(0, 0, 0, 0)
    low = Slot(0, "front", 0, Rect(MARGIN, MARGIN, mm(200), mm(50)), none)
    high = Slot(1, "front", 0, Rect(MARGIN, MARGIN + mm(70), mm(200), mm(50)), none)
    page = PagePlan((low, high), (), (), False, "fronts", paper, MARGIN)
    box = inner_label_box(page)
    assert box is not None
    assert box.as_mm() == pytest.approx(Rect(MARGIN, MARGIN + mm(50) + MARK_GAP,
                                             paper.width - 2 * MARGIN,
                                             mm(20) - 2 * MARK_GAP).as_mm())
    # a fold line 2 mm above the lower row leaves too little under it: the
    # band starts 2 mm above the fold's stroke
    fold = Segment(MARGIN, MARGIN + mm(52), paper.width - MARGIN, MARGIN + mm(52))
    page = PagePlan((low, high), (), (fold,), False, "fold", paper, MARGIN)
    box = inner_label_box(page)
    assert box is not None
    assert box.y == pytest.approx(MARGIN + mm(52) + MARK_WIDTH / 2 + LABEL_CLEARANCE)
    assert box.y1 == pytest.approx(MARGIN + mm(70) - MARK_GAP)
    # rows 1 mm apart leave no band between them: the next free band is above both
    near = Slot(1, "front", 0, Rect(MARGIN, MARGIN + mm(51), mm(200), mm(50)), none)
    box = inner_label_box(PagePlan((low, near), (), (), False, "fronts", paper, MARGIN))
    assert box is not None
    assert box.y == pytest.approx(MARGIN + mm(101) + MARK_GAP)
    assert box.y1 == pytest.approx(paper.height - MARGIN)
