"""`pnp build --preset ...` end to end: every profile's files for all five games.

One build of the issue's "done when" command (tgc, drivethru, tts) plus two
home-sheet presets, checked against the manifests: page and image counts,
exact sizes and boxes, no white frame, TTS grids and ids, preflight.
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from urllib.parse import unquote, urlparse

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from PIL import Image

from pnp import PROJECT_ROOT
from pnp.builder.decks import component_rows, is_round, printable_components
from pnp.cli import main
from pnp.data import load_game_data
from pnp.data.inventory import GameData
from pnp.printing.preflight import expand_paths, preflight_files
from pnp.printing.profiles import builtin_profiles

DATA = PROJECT_ROOT / "card_data"
TEMPLATES = PROJECT_ROOT / "templates"
GAMES = ("episode2", "fortuna", "fortune_clover", "nine_peak", "undecim")
#: Service page / image sizes typed in from REFERENCE "Print services" (points, px).
POKER_PAGE_PT = (2.75 * 72, 3.75 * 72)
TAROT_PAGE_PT = (3.0 * 72, 5.0 * 72)
TGC_PX = {"poker": (825, 1125), "tarot": (900, 1500)}


def run(*args: str) -> tuple[int, str]:
    """Run the CLI in-process; return (exit code, output)."""
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def games() -> dict[str, GameData]:
    """The shipped games, loaded strictly."""
    return {slug: load_game_data(DATA, slug, strict=True) for slug in GAMES}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """Build every game for tgc, drivethru, tts and two home presets once."""
    out = tmp_path_factory.mktemp("presets")
    code, text = run("build", "--preset", "tgc", "--preset", "drivethru", "--preset", "tts",
                     "--preset", "home-a4", "--preset", "gutterfold-letter", "--no-rulebook",
                     "-q", "-v", "--out", str(out), "--data-dir", str(DATA),
                     "--templates-dir", str(TEMPLATES))
    assert code == 0, text
    return out, text


def cards_of(game: GameData) -> list[tuple[str, list[tuple[str, int]]]]:
    """(component id, [(row id, qty) with qty > 0]) of every printed card deck."""
    return [(c.id, [(r.id, r.qty) for r in component_rows(game, c) if r.qty > 0])
            for c in printable_components(game) if c.kind == "card"]


def product(game: GameData, component: str) -> str:
    """Return the service product name of a deck (poker or tarot here)."""
    size = game.manifest.components[component].size
    assert size is not None
    return "tarot" if size[1] > 300 else "poker"


def not_white(pixel: tuple[int, ...]) -> bool:
    """True if an RGB pixel is not (near) white paper."""
    return min(pixel[:3]) < 250


def assert_no_white_frame(image: Image.Image, what: str) -> None:
    """Corners and every edge line of ``image`` carry art (no white frame)."""
    rgb = image.convert("RGB")
    w, h = rgb.size
    for xy in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)):
        assert not_white(rgb.getpixel(xy)), f"{what}: white corner at {xy}"
    for box in ((0, 0, w, 1), (0, h - 1, w, h), (0, 0, 1, h), (w - 1, 0, w, h)):
        assert rgb.crop(box).convert("L").getextrema()[0] < 250, f"{what}: white edge {box}"


def test_required_profiles_are_rows_of_the_table() -> None:
    table = builtin_profiles()
    for name in ("home-a4", "home-letter", "gutterfold-a4", "gutterfold-letter", "tgc",
                 "mpc", "drivethru", "tts"):
        assert name in table.profiles
    assert table.get("tgc").output == "card-png"
    assert table.get("drivethru").output == "card-pdf"
    assert table.get("tts").output == "tts"
    code, text = run("build", "--list-presets")
    assert code == 0 and "drivethru" in text and "tgc" in text


def test_drivethru_one_pdf_per_deck_back_then_front(built: tuple[Path, str],
                                                    games: dict[str, GameData]) -> None:
    out, _ = built
    for slug, game in games.items():
        for component, rows in cards_of(game):
            pdf = pdfium.PdfDocument(out / slug / "drivethru" / f"{component}.pdf")
            assert len(pdf) == 2 * sum(q for _, q in rows), (slug, component)
            pw, ph = POKER_PAGE_PT if product(game, component) == "poker" else TAROT_PAGE_PT
            for i in (0, len(pdf) - 1):
                page = pdf[i]
                assert page.get_mediabox() == pytest.approx((0, 0, pw, ph), abs=0.01)
                assert page.get_bleedbox() == pytest.approx((0, 0, pw, ph), abs=0.01)
                assert page.get_trimbox() == pytest.approx((9, 9, pw - 9, ph - 9), abs=0.01)
            # No white frame on any page (rendered small: corners and edges).
            for i in range(len(pdf)):
                assert_no_white_frame(pdf[i].render(scale=0.25).to_pil(),
                                      f"{slug}/{component} page {i + 1}")
            if not game.manifest.components[component].two_sided and len(pdf) >= 4:
                # back1, front1, back2 ...: pages 1 and 3 are the same shared back.
                a = pdf[0].render(scale=0.2).to_pil().tobytes()
                b = pdf[2].render(scale=0.2).to_pil().tobytes()
                assert a == b


def test_tgc_one_png_per_face_shared_back_and_quantities(built: tuple[Path, str],
                                                         games: dict[str, GameData]) -> None:
    out, _ = built
    for slug, game in games.items():
        for component, rows in cards_of(game):
            folder = out / slug / "tgc" / component
            two_sided = game.manifest.components[component].two_sided
            size = TGC_PX[product(game, component)]
            faces = sorted(p.name for p in folder.glob("*.png") if not p.stem.endswith("back"))
            assert faces == sorted(f"{rid}.png" for rid, _ in rows), (slug, component)
            backs = sorted(p.name for p in folder.glob("*back.png"))
            assert backs == (sorted(f"{rid}-back.png" for rid, _ in rows) if two_sided
                             else ["back.png"])
            for png in folder.glob("*.png"):
                with Image.open(png) as im:
                    assert im.size == size and im.mode == "RGB", png
                    assert round(im.info["dpi"][0]) == 300
                    assert_no_white_frame(im, str(png))
            with open(folder / "quantities.csv", encoding="utf-8", newline="") as f:
                table = list(csv.DictReader(f))
            assert {r["file"]: int(r["quantity"]) for r in table} == \
                {f"{rid}.png": q for rid, q in rows}
            assert sum(int(r["quantity"]) for r in table) == \
                game.manifest.components[component].count


def test_services_skip_tokens_and_boards_with_a_message(built: tuple[Path, str]) -> None:
    out, text = built
    assert "skipped undecim/score_markers [tgc]: a token" in text
    assert "skipped fortune_clover/chips [drivethru]: a token" in text
    assert "skipped episode2/hp_tracker [tgc]: a board" in text
    assert not (out / "undecim" / "tgc" / "score_markers").exists()


def test_mpc_size_and_unsold_size_is_skipped() -> None:
    mpc = builtin_profiles().get("mpc")
    poker = mpc.product_for((63 * 72 / 25.4, 88 * 72 / 25.4))
    assert poker is not None
    k = mpc.dpi / 72
    assert (round((poker.width + 2 * mpc.bleed) * k),
            round((poker.height + 2 * mpc.bleed) * k)) == (822, 1122)
    assert mpc.product_for((69.9 * 72 / 25.4, 120.7 * 72 / 25.4)) is None  # no tarot row


def _local(url: str) -> Path:
    """The file a ``file:///`` URL names."""
    parsed = urlparse(url)
    assert parsed.scheme == "file", url
    return Path(unquote(parsed.path))


def test_tts_decks_grids_ids_and_quantities(built: tuple[Path, str],
                                           games: dict[str, GameData]) -> None:
    out, _ = built
    for slug, game in games.items():
        for component, rows in cards_of(game):
            data = json.loads((out / slug / "tts" / f"{component}.json").read_text("utf-8"))
            (obj,) = data["ObjectStates"]
            total = sum(q for _, q in rows)
            if total == 1:
                assert obj["Name"] == "CardCustom"
                continue
            assert obj["Name"] == "DeckCustom"
            assert len(obj["DeckIDs"]) == len(obj["ContainedObjects"]) == total
            assert [c["CardID"] for c in obj["ContainedObjects"]] == obj["DeckIDs"]
            faces_seen = set()
            for key, deck in obj["CustomDeck"].items():
                assert 1 <= deck["NumWidth"] <= 10 and 1 <= deck["NumHeight"] <= 7
                with Image.open(_local(deck["FaceURL"])) as sheet:
                    w, h = sheet.size
                    assert w <= 4096 and h <= 4096 and sheet.mode == "RGB"
                    assert w % deck["NumWidth"] == 0 and h % deck["NumHeight"] == 0
                assert _local(deck["BackURL"]).is_file()
                assert deck["UniqueBack"] == game.manifest.components[component].two_sided
            for card in obj["ContainedObjects"]:
                key, cell = divmod(card["CardID"], 100)
                deck = obj["CustomDeck"][str(key)]
                assert card["CustomDeck"] == {str(key): deck}
                assert cell < min(69, deck["NumWidth"] * deck["NumHeight"])
                faces_seen.add((key, cell, card["Nickname"]))
            assert len(faces_seen) == len(rows)  # one cell per distinct card
            assert sorted(n for _, _, n in faces_seen) == sorted(rid for rid, _ in rows)


def test_tts_tokens_and_board_are_tiles(built: tuple[Path, str]) -> None:
    out, _ = built
    chips = json.loads((out / "fortune_clover" / "tts" / "chips.json").read_text("utf-8"))
    (bag,) = chips["ObjectStates"]
    assert bag["Name"] == "Bag" and len(bag["ContainedObjects"]) == 30
    tile = bag["ContainedObjects"][0]
    assert tile["Name"] == "Custom_Tile" and tile["CustomImage"]["CustomTile"]["Type"] == 2
    assert _local(tile["CustomImage"]["ImageURL"]).is_file()
    board = json.loads((out / "episode2" / "tts" / "hp_tracker.json").read_text("utf-8"))
    (obj,) = board["ObjectStates"]
    assert obj["Name"] == "Custom_Tile" and obj["CustomImage"]["CustomTile"]["Type"] == 0
    with Image.open(_local(obj["CustomImage"]["ImageURL"])) as im:
        assert im.size[0] > im.size[1]  # 140 x 60 mm keeps its shape


def test_home_sheets_report_bleed_per_edge(built: tuple[Path, str],
                                           games: dict[str, GameData]) -> None:
    """With -v, a line per deck and preset (the default prints one per preset)."""
    out, text = built
    for slug, game in games.items():
        for component, _ in cards_of(game):
            for preset in ("home-a4", "gutterfold-letter"):
                assert f"note: {slug}/{component} [{preset}]:" in text
    line = next(l for l in text.splitlines() if l.startswith("note: fortuna/reel [home-a4]"))
    assert "bleed mm left 1.23, right 1.23, top 3, bottom 3" in line
    assert "--preset home-a4-bleed" in line


def test_small_parts_share_one_sheet_per_game(built: tuple[Path, str]) -> None:
    out, _ = built
    pdf = pdfium.PdfDocument(out / "undecim" / "small-parts-a4.pdf")
    assert len(pdf) == 2  # 4 markers and 10 counters: one duplex sheet
    assert not (out / "undecim" / "score_markers-a4.pdf").exists()
    assert len(pdfium.PdfDocument(out / "episode2" / "small-parts-letter-gutterfold.pdf")) == 1
    # Home sheets: page counts per deck follow the layout's capacity.
    reel = pdfium.PdfDocument(out / "fortuna" / "reel-a4.pdf")
    assert len(reel) == 2 * math.ceil(78 / 9)


def test_preflight_passes_on_every_output(built: tuple[Path, str]) -> None:
    out, _ = built
    files = expand_paths([out])
    kinds = {p.suffix for p in files}
    assert kinds == {".pdf", ".png", ".json"}
    reports = preflight_files(files)
    failed = [(r.path, [c for c in r.checks if not c.ok and c.level == "error"])
              for r in reports if not r.ok]
    assert not failed, failed[:3]
    assert all(r.profile for r in reports), [r.path for r in reports if not r.profile][:3]
    by_profile = {r.profile for r in reports}
    # Letter pages match home-letter first (gutter-fold sheets share the paper).
    assert {"tgc", "drivethru", "tts", "home-a4", "home-letter"} <= by_profile


def test_preflight_cli_json(built: tuple[Path, str]) -> None:
    out, _ = built
    files = [out / "fortuna" / "drivethru" / "reel.pdf",
             out / "fortuna" / "tgc" / "reel" / "back.png", out / "fortuna" / "tts" / "reel.json"]
    code, text = run("preflight", "--json", *map(str, files))
    assert code == 0, text
    data = json.loads(text)
    assert [d["ok"] for d in data] == [True, True, True]
    assert data[0]["profile"] == "drivethru"
    names = {c["name"]: c for c in data[0]["checks"]}
    assert names["fonts"]["ok"] and names["boxes"]["ok"]
    assert names["cmyk"]["level"] == "warning"  # the service asks for CMYK: a note


def test_same_bytes_whatever_folder(tmp_path: Path) -> None:
    """Item 6: the same inputs in two different folders give byte-identical files."""
    import shutil

    outs = []
    for where in ("a", "b/deeper/folder"):
        root = tmp_path / where
        shutil.copytree(DATA, root / "card_data")
        shutil.copytree(TEMPLATES, root / "templates")
        out = root / "out"
        code, text = run("build", "fortune_clover", "--preset", "home-a4", "--preset",
                         "drivethru", "--no-rulebook", "-q", "--out", str(out),
                         "--data-dir", str(root / "card_data"),
                         "--templates-dir", str(root / "templates"))
        assert code == 0, text
        outs.append(out)
    files = sorted(p.relative_to(outs[0]) for p in outs[0].rglob("*.pdf"))
    assert len(files) >= 3
    for rel in files:
        assert (outs[0] / rel).read_bytes() == (outs[1] / rel).read_bytes(), rel
