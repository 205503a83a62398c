"""``pnp rulebook``: every game exports; counts, rulings and fonts come out right."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from reportlab.lib.pagesizes import A4, A5

from pnp import PROJECT_ROOT
from pnp.data import DEFAULT_DATA_DIR, load_game_data
from pnp.errors import PnpError
from pnp.rulebook import export_rulebook, rulebook_markdown

SLUGS = ["fortuna", "fortune_clover", "undecim", "episode2", "nine_peak"]
RULINGS = PROJECT_ROOT.parent / "shared" / "RULINGS.md"
#: First letter of a ruling ID → the game it belongs to.
PREFIX = {"F": "fortuna", "N": "nine_peak", "C": "fortune_clover", "E": "episode2",
          "U": "undecim"}


def _copy_game(tmp_path: Path, slug: str) -> Path:
    """A private copy of one game's data folder; returns the data dir."""
    data = tmp_path / "card_data"
    shutil.copytree(DEFAULT_DATA_DIR / slug, data / slug)
    return data


def _set_qty(csv_path: Path, row_id: str, qty: int) -> None:
    """Rewrite the qty (last column) of one row of a card table."""
    lines = csv_path.read_text(encoding="utf-8").splitlines()
    hits = 0
    for i, line in enumerate(lines):
        if line.startswith(row_id + ","):
            lines[i] = line.rsplit(",", 1)[0] + f",{qty}"
            hits += 1
    assert hits == 1, row_id
    csv_path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type /Page\b", pdf))


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """Every game's rulebook exported once (A5)."""
    out = tmp_path_factory.mktemp("rulebooks")
    return {slug: export_rulebook(slug, out / f"{slug}.pdf").read_bytes() for slug in SLUGS}


@pytest.mark.parametrize("slug", SLUGS)
def test_each_game_exports_a_multi_page_a5_pdf(exported: dict[str, bytes], slug: str) -> None:
    pdf = exported[slug]
    assert pdf.startswith(b"%PDF-")
    assert _pages(pdf) >= 3
    width, height = A5
    box = re.search(rb"/MediaBox \[ 0 0 ([\d.]+) ([\d.]+) \]", pdf)
    assert box and abs(float(box.group(1)) - width) < 0.01 and abs(float(box.group(2)) - height) < 0.01


@pytest.mark.parametrize("slug", SLUGS)
def test_every_font_is_embedded(exported: dict[str, bytes], slug: str) -> None:
    pdf = exported[slug]
    descriptors = pdf.count(b"/Type /FontDescriptor")
    assert descriptors >= 1
    assert pdf.count(b"/FontFile2") == descriptors
    assert b"/Helvetica" not in pdf and b"/Type1" not in pdf


def test_same_input_gives_identical_bytes(tmp_path: Path, exported: dict[str, bytes]) -> None:
    again = export_rulebook("undecim", tmp_path / "again.pdf").read_bytes()
    assert again == exported["undecim"]
    # A fresh process too (no state carried over in registered fonts).
    code = ("from pathlib import Path; from pnp.rulebook import export_rulebook; "
            f"export_rulebook('undecim', Path({str(tmp_path / 'fresh.pdf')!r}))")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=PROJECT_ROOT)
    assert (tmp_path / "fresh.pdf").read_bytes() == exported["undecim"]


def test_a4_option_and_folder_output(tmp_path: Path) -> None:
    path = export_rulebook("fortuna", tmp_path, paper="A4")
    assert path == tmp_path / "fortuna_rulebook.pdf"
    pdf = path.read_bytes()
    width, height = A4
    box = re.search(rb"/MediaBox \[ 0 0 ([\d.]+) ([\d.]+) \]", pdf)
    assert box and abs(float(box.group(1)) - width) < 0.01 and abs(float(box.group(2)) - height) < 0.01
    assert not list(tmp_path.glob("*.tmp"))       # the temporary file was renamed


def test_bad_paper_and_unknown_game_are_pnp_errors(tmp_path: Path) -> None:
    with pytest.raises(PnpError, match="paper"):
        export_rulebook("fortuna", tmp_path / "x.pdf", paper="b7")
    with pytest.raises(PnpError, match="unknown game"):
        rulebook_markdown("fortunaa")
    assert not (tmp_path / "x.pdf").exists()


def _component_rows(markdown: str) -> dict[str, str]:
    """Component table rows: name (without the provisional mark) → count cell."""
    rows = {}
    for line in markdown.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and re.fullmatch(r"\d+[枚個]", cells[1]):
            rows[cells[0].replace("<br>（暫定）", "")] = cells[1]
    return rows


@pytest.mark.parametrize("slug", SLUGS)
def test_component_counts_match_the_data(slug: str) -> None:
    game = load_game_data(DEFAULT_DATA_DIR, slug)
    rows = _component_rows(rulebook_markdown(slug))
    for cid, component in game.manifest.components.items():
        expected = (sum(r.qty for r in game.rows[cid]) if component.table
                    else component.count)
        name = component.name_ja or component.name
        assert name in rows, (slug, name)
        assert int(rows[name][:-1]) == expected, (slug, cid)


def test_editing_a_qty_changes_the_rulebook(tmp_path: Path) -> None:
    before = rulebook_markdown("fortuna")
    assert "1〜6 各13枚：稲妻・小麦・兜・車輪 各3枚 + 女神1枚" in before
    data = _copy_game(tmp_path, "fortuna")
    _set_qty(data / "fortuna" / "reel.csv", "reel-3-goddess", 2)
    after = rulebook_markdown("fortuna", data)
    assert "| リールカード | 79枚 |" in after
    # Number 3 now differs from the others, so it gets a line of its own.
    assert "1・2・4・5・6 各13枚：稲妻・小麦・兜・車輪 各3枚 + 女神1枚" in after
    assert "3 14枚：稲妻・小麦・兜・車輪 各3枚 + 女神2枚" in after
    assert "印刷するカードは合計79枚" in after


def test_editing_chips_and_a_constant(tmp_path: Path) -> None:
    data = _copy_game(tmp_path, "fortune_clover")
    _set_qty(data / "fortune_clover" / "chips.csv", "chip-yellow", 12)
    text = rulebook_markdown("fortune_clover", data)
    assert "黄チップ12個 + 白チップ20個" in text and "| 32個 |" in text

    data = _copy_game(tmp_path / "e", "episode2")
    manifest = data / "episode2" / "manifest.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "starting_hp = 8", "starting_hp = 17\nstarting_hp_status = \"provisional\""),
        encoding="utf-8")
    text = rulebook_markdown("episode2", data)
    assert "HPを**17（暫定）**にします" in text
    assert "**8**" not in text


#: The authoritative rulings' IDs (../shared/RULINGS.md), kept here so the
#: suite runs from a clone without shared/; checked against the file when present.
AUTHORITATIVE = {
    "fortuna": {f"F{i}" for i in range(1, 9)},
    "nine_peak": {f"N{i}" for i in range(1, 7)},
    "fortune_clover": {f"C{i}" for i in range(1, 10)},
    "episode2": {f"E{i}" for i in range(1, 7)},
    "undecim": {f"U{i}" for i in range(1, 8)},
}


def _authoritative_ids(path: Path) -> dict[str, set[str]]:
    """Ruling IDs per game section of a RULINGS.md file."""
    ids: dict[str, set[str]] = {slug: set() for slug in SLUGS}
    slug = None
    for line in path.read_text(encoding="utf-8").splitlines():
        header = re.match(r"## .*\(`(\w+)`\)", line)
        if header:
            slug = header.group(1)
        found = re.match(r"- \*\*([A-Z]\d+) ", line)
        if found and slug:
            ids[slug].add(found.group(1))
    return ids


def test_authoritative_id_list_matches_rulings_file() -> None:
    if RULINGS.exists():
        assert _authoritative_ids(RULINGS) == AUTHORITATIVE
    # Without shared/ beside the clone, at least the sources must cite every ID.
    for slug, ids in AUTHORITATIVE.items():
        source = (PROJECT_ROOT / "rulebooks" / f"{slug}.md").read_text(encoding="utf-8")
        assert all(f"**{i} " in source for i in ids), slug


def _ruling_ids() -> dict[str, set[str]]:
    """Ruling IDs per game: the authoritative ones plus the IDs our docs added."""
    ids = {slug: set(AUTHORITATIVE[slug]) for slug in SLUGS}
    for doc in sorted((PROJECT_ROOT / "docs").glob("*/*.md")):
        for found in re.finditer(r"\*\*([FNCEU]\d+[a-z]) ", doc.read_text(encoding="utf-8")):
            ids[PREFIX[found.group(1)[0]]].add(found.group(1))
    return ids


def test_ruling_parser_finds_the_known_rulings() -> None:
    ids = _ruling_ids()
    assert {"F1", "F8", "F4a"} <= ids["fortuna"]
    assert len([i for i in ids["fortune_clover"] if i[1:].isdigit()]) == 9
    assert {"U1", "U7", "U1i"} <= ids["undecim"]


@pytest.mark.parametrize("slug", SLUGS)
def test_every_ruling_is_stated_with_its_id(slug: str) -> None:
    text = rulebook_markdown(slug)
    section = text.split("## 裁定", 1)[1]
    for ruling in sorted(_ruling_ids()[slug]):
        assert f"**{ruling} " in section, ruling


def test_designed_cards_are_listed_and_marked_provisional() -> None:
    clover = load_game_data(DEFAULT_DATA_DIR, "fortune_clover")
    text = rulebook_markdown("fortune_clover")
    for row in clover.rows["fortune"]:
        assert f"| {row.id} | {row.values['name']} |" in text
    assert "このフォーチュンカード10枚はルールブックの草案に記載がなく" in text
    undecim = load_game_data(DEFAULT_DATA_DIR, "undecim")
    text = rulebook_markdown("undecim")
    for cid in ("actions", "scenarios"):
        for row in undecim.rows[cid]:
            assert f"| {row.values['name']} | {row.values['text']} |" in text
    assert text.count("> **暫定**") == 2


def test_unknown_placeholder_names_file_and_line(tmp_path: Path) -> None:
    data = _copy_game(tmp_path, "fortuna")
    source = tmp_path / "rulebooks" / "fortuna.md"
    source.parent.mkdir()
    source.write_text("# {{ title }}\n\n本文です。{{ nonsense 3 }}\n", encoding="utf-8")
    with pytest.raises(PnpError) as info:
        rulebook_markdown("fortuna", data)     # rulebooks/ beside card_data/ is used
    message = str(info.value)
    assert f"{source}:3:" in message and "nonsense" in message
    with pytest.raises(PnpError, match=re.escape(f"{source}:3:")):
        export_rulebook("fortuna", tmp_path / "out.pdf", data_dir=data)
    assert not (tmp_path / "out.pdf").exists()


def test_placeholder_faults_are_pnp_errors(tmp_path: Path) -> None:
    source = tmp_path / "book.md"
    cases = {
        "{{ count nosuch }}": "unknown component 'nosuch'",
        "{{ const nosuch }}": "unknown constant 'nosuch'",
        "{{ components reel=colour }}": "no column 'colour'",
        "本文 {{ components }}": "line of its own",
        "{{ title": "unbalanced",
    }
    for line, expected in cases.items():
        source.write_text(f"# T\n\n{line}\n", encoding="utf-8")
        with pytest.raises(PnpError, match=re.escape(expected)) as info:
            rulebook_markdown("fortuna", source=source)
        assert str(info.value).startswith(f"{source}:3:"), line
