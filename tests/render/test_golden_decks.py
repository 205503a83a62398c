"""Golden images of every deck, sharp enough that a changed number, an icon moved
by 0.5 mm or a missing line of text fails.

Per deck the first and last distinct faces and the first back are drawn side
by side (bleed included) at :data:`DPI` and compared with
``tests/golden/decks/<game>-<deck>.png`` block by block: the mean difference
of any 3 × 3 pixel block (about 1 mm; tests/golden_compare.py) may not exceed
:data:`BLOCK_TOLERANCE`. A whole-page mean would let a single changed digit
through; a per-block limit does not, and still ignores anti-aliasing.

The mutation tests at the end apply exactly those three changes to a copy
of the templates and check that the comparison fails. Re-bless after an
intended change with ``pytest --bless``.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from pnp import PROJECT_ROOT
from pnp.builder.cards import all_components, component_rows
from pnp.builder.preview import CardSide, render_sides
from pnp.data import load_game_data
from pnp.render.draw import FormCache
from pnp.render.fonts import canvas_kwargs
from pnp.render.jinja_env import make_environment
from golden_compare import BLOCK_TOLERANCE, worst_block  # tests/golden_compare.py

DATA = PROJECT_ROOT / "card_data"
TEMPLATES = PROJECT_ROOT / "templates"
GOLDEN = PROJECT_ROOT / "tests" / "golden" / "decks"
GAMES = ("episode2", "fortuna", "fortune_clover", "nine_peak", "undecim")
#: Raster resolution (0.5 mm is 1.4 px).
DPI = 72


def decks() -> list[tuple[str, str]]:
    """(game, component) of every deck with a layout, stickers and aids included."""
    out = []
    for slug in GAMES:
        game = load_game_data(DATA, slug, strict=True)
        out += [(slug, c.id) for c in all_components(game, TEMPLATES)]
    return out


def sample(templates: Path, slug: str, deck: str) -> list[CardSide]:
    """The first and last distinct faces of a deck, then its first back."""
    game = load_game_data(DATA, slug, strict=True)
    component = next(c for c in all_components(game, templates) if c.id == deck)
    ids = [r.id for r in component_rows(game, component)]
    picks = list(dict.fromkeys([ids[0], ids[-1]]))
    env = make_environment(templates)
    sides = render_sides(env, game, component, picks)
    faces = [s for s in sides if s.side == "face"]
    backs = [s for s in sides if s.side == "back"][:1]
    return faces + backs


def draw(sides: list[CardSide]) -> Image.Image:
    """The sides side by side with their bleed, rasterised at DPI."""
    gap = 4.0
    w = sum(s.layout.width + 2 * s.layout.bleed for s in sides) + gap * (len(sides) - 1)
    h = max(s.layout.height + 2 * s.layout.bleed for s in sides)
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(w, h), invariant=1, **canvas_kwargs())
    forms = FormCache(c)
    x = 0.0
    for s in sides:
        b = s.layout.bleed
        forms.place(s.layout, x + b, h - s.layout.height - b)
        x += s.layout.width + 2 * b + gap
    c.showPage()
    c.save()
    pdf = pdfium.PdfDocument(buf.getvalue())
    try:
        return pdf[0].render(scale=DPI / 72).to_pil().convert("RGB")
    finally:
        pdf.close()


@pytest.mark.parametrize("slug, deck", decks())
def test_deck_matches_its_golden(slug: str, deck: str, bless: bool) -> None:
    image = draw(sample(TEMPLATES, slug, deck))
    golden = GOLDEN / f"{slug}-{deck}.png"
    if bless:
        golden.parent.mkdir(parents=True, exist_ok=True)
        image.save(golden, optimize=True)
        return
    if not golden.exists():
        pytest.fail(f"missing golden {golden.name}: run pytest --bless once")
    expected = Image.open(golden).convert("RGB")
    assert image.size == expected.size, f"{slug}/{deck}: size changed"
    worst = worst_block(image, expected)
    assert worst <= BLOCK_TOLERANCE, f"{slug}/{deck} drifted: a block differs by {worst:.0f}"


# --------------------------------------------------------------------------
# the mutations the goldens must catch


@pytest.fixture()
def templates_copy(tmp_path: Path) -> Path:
    """A private copy of the templates to mutate."""
    target = tmp_path / "templates"
    shutil.copytree(TEMPLATES, target)
    return target


def mutated(templates: Path, rel: str, old: str, new: str) -> None:
    """Replace ``old`` (which must occur) by ``new`` in one template."""
    path = templates / rel
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {rel}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def drift(templates: Path, slug: str, deck: str) -> float:
    """How far a deck drawn from ``templates`` is from its golden (worst block)."""
    expected = Image.open(GOLDEN / f"{slug}-{deck}.png").convert("RGB")
    return worst_block(draw(sample(templates, slug, deck)), expected)


def test_unchanged_copy_matches(templates_copy: Path) -> None:
    assert drift(templates_copy, "fortuna", "reel") <= BLOCK_TOLERANCE


def test_a_changed_number_fails(templates_copy: Path) -> None:
    mutated(templates_copy, "fortuna/reel_face.xml.j2",
            'color="{{ t.dark }}">{{ card.number }}</text>',
            'color="{{ t.dark }}">{{ card.number + 1 }}</text>')
    assert drift(templates_copy, "fortuna", "reel") > BLOCK_TOLERANCE


def test_an_icon_moved_half_a_millimetre_fails(templates_copy: Path) -> None:
    mutated(templates_copy, "fortuna/reel_face.xml.j2",
            '<icon name="{{ t.icon }}" x="{{ cx - 13.5 }}"',
            '<icon name="{{ t.icon }}" x="{{ cx - 13.0 }}"')
    assert drift(templates_copy, "fortuna", "reel") > BLOCK_TOLERANCE


def test_a_missing_line_of_small_text_fails(templates_copy: Path) -> None:
    # the one-line 6.8 pt label under a hat ("紳士の帽子")
    mutated(templates_copy, "nine_peak/hat_face.xml.j2", "{{ info.group }}の帽子", "")
    assert drift(templates_copy, "nine_peak", "hats") > BLOCK_TOLERANCE
