"""Stickers for a bought deck print on a sheet of their own, for label paper.

Before, 第2話's stickers shared the ``small-parts`` sheet with its HP
tracker (a board for card stock), while the README said to print that
sheet on label paper.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from pnp import PROJECT_ROOT
from pnp.builder.cards import is_sticker
from pnp.builder.decks import SMALL_PARTS, STICKERS, BuildOptions, plan_game_sheets
from pnp.cli import main
from pnp.data import load_game_data
from pnp.printing.packing import LABEL_PAPER
from pnp.printing.profiles import builtin_profiles

DATA = PROJECT_ROOT / "card_data"
HOME_PRESETS = ("home-a4", "home-letter", "home-a4-bleed", "home-letter-bleed",
                "gutterfold-a4", "gutterfold-letter")


@pytest.mark.parametrize("preset", HOME_PRESETS)
def test_stickers_get_their_own_one_sided_sheet(preset: str) -> None:
    game = load_game_data(DATA, "episode2")
    profile = builtin_profiles().get(preset)
    kit = BuildOptions(data_dir=DATA, bought=False).kit(game)
    plans = {p.stem: p for p in plan_game_sheets(game, profile, True, kit)}
    stickers, small = plans[STICKERS], plans[SMALL_PARTS]
    assert {c.id for c in stickers.components} == {"enemies_stickers", "player_stickers"}
    assert all(is_sticker(c) for c in stickers.components)
    # the tracker stays with the boards, and nothing else joins the stickers
    assert [c.id for c in small.components] == ["hp_tracker"]
    assert not any(is_sticker(c) for p in plans.values() if p.stem != STICKERS
                   for c in p.components)
    # label paper is printed on one side: one fronts page a sheet, whatever the layout
    for sheet in stickers.sheets:
        assert len(sheet) == 1
        (page,) = sheet
        assert page.part == LABEL_PAPER and not page.back and not page.folds
        assert {s.side for s in page.slots} == {"front"}
    assert sum(len(p.slots) for s in stickers.sheets for p in s) == 12 + 35
    assert profile.sheet_file(STICKERS).startswith("stickers-")


def test_with_the_bought_deck_there_are_no_stickers() -> None:
    game = load_game_data(DATA, "episode2")
    profile = builtin_profiles().get("home-a4")
    plans = plan_game_sheets(game, profile, True, BuildOptions(data_dir=DATA).kit(game))
    assert STICKERS not in {p.stem for p in plans}


def test_build_writes_stickers_a4_with_only_stickers(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["build", "episode2", "--no-bought", "--no-rulebook",
                                       "-q", "--out", str(tmp_path), "--data-dir", str(DATA)])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "episode2"
    assert f"wrote {folder / 'stickers-a4.pdf'}" in result.output
    stickers = pdfium.PdfDocument(folder / "stickers-a4.pdf")
    assert len(stickers) == 1   # 47 stickers of 24 x 15 mm fit on one A4 page, no backs
    text = stickers[0].get_textpage().get_text_range()
    assert "label paper" in text and "HP tracker" not in text
    small = pdfium.PdfDocument(folder / "small-parts-a4.pdf")
    assert len(small) == 2      # the tracker's fronts and backs page, no stickers
    text = small[0].get_textpage().get_text_range()
    assert "HP tracker" in text and "Stickers" not in text


def test_tts_skips_stickers_with_a_reason(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["build", "episode2", "--no-bought", "--no-rulebook",
                                       "-q", "--preset", "tts", "--out", str(tmp_path),
                                       "--data-dir", str(DATA)])
    assert result.exit_code == 0, result.output
    assert "skipped episode2/player_stickers [tts]: stickers go on a bought deck" \
        in result.output
    assert not list((tmp_path / "episode2" / "tts").glob("*stickers*"))
