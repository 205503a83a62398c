"""`pnp check` on the shipped data and on corrupted copies of it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp import PROJECT_ROOT
from pnp.cli import main
from pnp.data import load_cards, load_game_data

DATA = PROJECT_ROOT / "card_data"

#: What the issue says each rulebook promises: game -> component -> count.
PROMISED = {
    "fortuna": {"reel": 78},
    "nine_peak": {"hats": 78, "numbers": 7, "peaks": 6},
    "fortune_clover": {"fortune": 10, "chips": 30, "deck": 52},
    "undecim": {"actions": 11, "red_moon": 1, "scenarios": 14, "resources": 100,
                "score_cards": 4, "score_markers": 4, "time_counters": 10, "summary": 4,
                "die": 1},
    "episode2": {"enemies": 12, "player": 35, "hp_tracker": 1, "dice": 3},
}


def run(*args: str) -> tuple[int, str]:
    """Run the CLI in-process; return (exit code, combined output)."""
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


@pytest.fixture()
def data(tmp_path: Path) -> Path:
    """A private copy of the shipped card data to corrupt."""
    target = tmp_path / "card_data"
    shutil.copytree(DATA, target)
    return target


def edit(path: Path, old: str, new: str) -> None:
    """Replace ``old`` (which must occur) with ``new`` in a UTF-8 file."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize("slug", sorted(PROMISED))
def test_shipped_counts_match_the_rulebook(slug: str) -> None:
    game = load_game_data(DATA, slug)
    assert game.problems == []
    for component, count in PROMISED[slug].items():
        if game.manifest.components[component].table is None:  # dice: bought, no table
            assert game.manifest.components[component].count == count
        else:
            assert len(game.cards(component)) == count


def test_fortuna_reel_distribution() -> None:
    cards = load_cards("fortuna", "reel", DATA)
    for number in range(1, 7):
        of_number = [c for c in cards if c["number"] == number]
        assert len(of_number) == 13
        icons = [c["icon"] for c in of_number]
        assert {i: icons.count(i) for i in set(icons)} == {
            "稲妻": 3, "小麦": 3, "兜": 3, "車輪": 3, "女神": 1}


def test_nine_peak_hats_distribution() -> None:
    cards = load_cards("nine_peak", "hats", DATA)
    persona = [c for c in cards if c["suit"] == "ペルソナ"]
    assert sorted(c["number"] for c in persona) == [1, 2, 3, 4, 5, 6]
    black = [c for c in cards if c["color"] == "black"]
    red = [c for c in cards if c["color"] == "red"]
    assert len(black) == len(red) == 36
    assert {c["suit"] for c in black} == {"シルクハット", "フェドーラ"}


def test_fortune_clover_chips_and_deck() -> None:
    chips = load_cards("fortune_clover", "chips", DATA)
    assert sorted(c["colour"] for c in chips).count("yellow") == 10
    assert len(chips) - 10 == 20
    deck = load_cards("fortune_clover", "deck", DATA)
    assert len({(c["suit"], c["rank"]) for c in deck}) == 52


def test_episode2_decks_follow_ruling_e1() -> None:
    enemies = load_cards("episode2", "enemies", DATA)
    assert sorted(c["hp"] for c in enemies) == [11] * 4 + [12] * 4 + [13] * 4
    player = load_cards("episode2", "player", DATA)
    diamonds = sorted(c["value"] for c in player if c["suit"] == "♦")
    assert diamonds == [1, 2, 3, 4, 5]  # ruling E1: ♦6–♦10 removed
    assert len(player) == 35


def test_undecim_resources_follow_ruling_u1() -> None:
    cards = load_cards("undecim", "resources", DATA)
    assert len(cards) == 100
    land = [c for c in cards if c["kind"] == "land_resource"]
    assert len(land) == 80
    for name in ("草原", "森", "沼地", "山"):
        assert sum(1 for c in land if c["top"] == name) == 20
    for name in ("石", "木", "粘土", "鉄"):
        assert sum(1 for c in land if c["bottom"] == name) == 20
    actions = load_cards("undecim", "actions", DATA)
    assert sorted(c["number"] for c in actions) == list(range(1, 12))
    seasons = [c["season"] for c in load_cards("undecim", "scenarios", DATA)]
    assert [seasons.count(s) for s in (1, 2, 3)] == [2, 4, 8]


def test_check_passes_on_shipped_data() -> None:
    code, out = run("check", "--no-sim", "--data-dir", str(DATA))
    assert code == 0, out
    assert "ok  fortuna: reel 78" in out


def test_check_json_lists_every_component() -> None:
    code, out = run("check", "--no-sim", "--json", "--data-dir", str(DATA))
    assert code == 0
    report = json.loads(out)
    assert report["problems"] == []
    for slug, components in PROMISED.items():
        for cid, count in components.items():
            entry = report["games"][slug]["components"][cid]
            assert entry["quantity"] == count
            if entry["table"]:
                assert sum(card["qty"] for card in entry["cards"]) == count


def test_missing_column(data: Path) -> None:
    path = data / "fortuna" / "reel.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(",".join(c for i, c in enumerate(line.split(",")) if i != 2)
                              for line in lines) + "\n", encoding="utf-8")
    code, out = run("check", "fortuna", "--no-sim", "--data-dir", str(data))
    assert code == 1
    assert "reel.csv:1: missing column 'icon'" in out
    # Count rules over a broken table would only repeat the fault.
    assert "count rule" not in out


def test_unknown_icon(data: Path) -> None:
    edit(data / "fortuna" / "reel.csv", "reel-2-bolt,2,稲妻,3", "reel-2-bolt,2,雷,3")
    code, out = run("check", "fortuna", "--no-sim", "--data-dir", str(data))
    assert code == 1
    assert "reel.csv:7: column 'icon': unknown value '雷': expected one of 稲妻" in out


def test_unknown_suit_and_colour(data: Path) -> None:
    edit(data / "nine_peak" / "hats.csv", "hat-1-silk,1,シルクハット,black,3",
         "hat-1-silk,1,シルク,grey,3")
    code, out = run("check", "nine_peak", "--no-sim", "--data-dir", str(data))
    assert code == 1
    assert "hats.csv:2: column 'suit': unknown value 'シルク'" in out
    assert "hats.csv:2: column 'color': unknown value 'grey'" in out


@pytest.mark.parametrize("qty, message", [
    ("three", "column 'qty': 'three': expected a whole number ≥ 0"),
    ("-1", "column 'qty': -1: expected ≥ 0"),
    ("2.5", "column 'qty': '2.5': expected a whole number ≥ 0"),
])
def test_bad_qty(data: Path, qty: str, message: str) -> None:
    edit(data / "fortuna" / "reel.csv", "reel-1-wheat,1,小麦,3", f"reel-1-wheat,1,小麦,{qty}")
    code, out = run("check", "fortuna", "--no-sim", "--data-dir", str(data))
    assert code == 1
    assert f"reel.csv:3: {message}" in out


def test_duplicate_id(data: Path) -> None:
    edit(data / "fortuna" / "reel.csv", "reel-1-wheat,1,", "reel-1-bolt,1,")
    code, out = run("check", "fortuna", "--no-sim", "--data-dir", str(data))
    assert code == 1
    assert "reel.csv:3: duplicate id 'reel-1-bolt' (first used at line 2)" in out


def test_count_mismatch_names_expected_and_found(data: Path) -> None:
    edit(data / "fortuna" / "reel.csv", "reel-2-bolt,2,稲妻,3", "reel-2-bolt,2,稲妻,2")
    code, out = run("check", "fortuna", "--no-sim", "--data-dir", str(data))
    assert code == 1
    assert "expected 78 cards in total (manifest components.reel.count), found 77" in out
    assert "number=2, icon=稲妻: expected 3 cards, found 2" in out


def test_shift_jis_table_is_read_correctly(data: Path) -> None:
    path = data / "fortuna" / "reel.csv"
    path.write_bytes(path.read_text(encoding="utf-8").encode("cp932"))
    game = load_game_data(data, "fortuna")
    assert game.problems == []
    assert game.encodings["reel"] == "cp932"
    assert {c["icon"] for c in game.cards("reel")} == {"稲妻", "小麦", "兜", "車輪", "女神"}


def test_utf8_bom_is_accepted(data: Path) -> None:
    path = data / "fortuna" / "reel.csv"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    code, out = run("check", "fortuna", "--no-sim", "--data-dir", str(data))
    assert code == 0, out


def test_undecodable_table(data: Path) -> None:
    path = data / "fortuna" / "reel.csv"
    path.write_bytes(path.read_bytes() + b"reel-x,1,\xff\xfe,1\n")
    code, out = run("check", "fortuna", "--no-sim", "--data-dir", str(data))
    assert code == 1
    assert "save the table as 'CSV UTF-8'" in out


def test_empty_table(data: Path) -> None:
    (data / "fortuna" / "reel.csv").write_bytes(b"")
    code, out = run("check", "fortuna", "--no-sim", "--data-dir", str(data))
    assert code == 1
    assert "reel.csv: table is empty" in out


def test_manifest_syntax_error_names_line(data: Path) -> None:
    edit(data / "fortuna" / "manifest.toml", "count = 13\n", "count = 13x\n")
    manifest = (data / "fortuna" / "manifest.toml").read_text(encoding="utf-8")
    line = manifest.splitlines().index("count = 13x") + 1
    code, out = run("check", "fortuna", "--no-sim", "--data-dir", str(data))
    assert code == 1
    assert f"manifest.toml:{line}: TOML syntax error" in out
    assert "Traceback" not in out


def test_manifest_unknown_key(data: Path) -> None:
    edit(data / "fortuna" / "manifest.toml", 'kind = "card"', 'kind = "card"\ncolour = "red"')
    code, out = run("check", "fortuna", "--no-sim", "--data-dir", str(data))
    assert code == 1
    assert "components.reel: unknown key 'colour'" in out


def test_unknown_slug_suggests_closest() -> None:
    code, out = run("check", "fortna", "--data-dir", str(DATA))
    assert code == 1
    assert "unknown game 'fortna'" in out and "did you mean 'fortuna'?" in out


def test_missing_data_dir(tmp_path: Path) -> None:
    code, out = run("check", "--data-dir", str(tmp_path / "nope"))
    assert code == 1
    assert "not found" in out


def test_list_shows_components() -> None:
    code, out = run("list", "--data-dir", str(DATA))
    assert code == 0
    assert "nine_peak" in out and "peaks" in out and "two-sided" in out


def test_list_json() -> None:
    code, out = run("list", "--json", "--data-dir", str(DATA))
    assert code == 0
    listing = json.loads(out)
    assert set(PROMISED) <= set(listing)
    assert listing["nine_peak"]["players"] == {"min": 3, "max": 5}
    assert "cards" not in listing["fortuna"]["components"]["reel"]
