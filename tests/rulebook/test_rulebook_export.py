"""``pnp rulebook``: every game exports in both languages; counts, papers, errors, determinism."""

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
from pnp.rulebook import (export_html, export_markdown, export_rulebook, prepare,
                          rulebook_markdown)
from pnp.rulebook.pdf import HALF_LETTER
from rulebook_books import LANGS, SLUGS, book


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


def _box(pdf: bytes) -> tuple[float, float]:
    box = re.search(rb"/MediaBox \[ 0 0 ([\d.]+) ([\d.]+) \]", pdf)
    assert box
    return float(box.group(1)), float(box.group(2))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SLUGS)
def test_each_edition_exports_an_a5_book(slug: str, lang: str) -> None:
    pdf, layout = book(slug, lang)
    assert pdf.startswith(b"%PDF-")
    assert layout.pages >= 6          # title, contents and the rules
    width, height = _box(pdf)
    assert abs(width - A5[0]) < 0.01 and abs(height - A5[1]) < 0.01
    assert f"/Lang ({lang})".encode() in pdf


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SLUGS)
def test_every_font_is_embedded(slug: str, lang: str) -> None:
    pdf, _ = book(slug, lang)
    descriptors = pdf.count(b"/Type /FontDescriptor")
    assert descriptors >= 1
    assert pdf.count(b"/FontFile2") == descriptors
    assert b"/Helvetica" not in pdf and b"/Type1" not in pdf


def test_same_input_gives_identical_bytes(tmp_path: Path) -> None:
    pdf, _ = book("undecim", "en")
    again = export_rulebook("undecim", tmp_path / "again.pdf", lang="en").read_bytes()
    assert again == pdf
    # A fresh process too, and from another working folder.
    code = ("from pathlib import Path; from pnp.rulebook import export_rulebook; "
            f"export_rulebook('nine_peak', Path({str(tmp_path / 'fresh.pdf')!r}), lang='ja')")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=tmp_path)
    assert (tmp_path / "fresh.pdf").read_bytes() == book("nine_peak", "ja")[0]


def test_papers_and_folder_output(tmp_path: Path) -> None:
    path = export_rulebook("fortuna", tmp_path, paper="A4")
    assert path == tmp_path / "fortuna_rulebook.pdf"
    width, height = _box(path.read_bytes())
    assert abs(width - A4[0]) < 0.01 and abs(height - A4[1]) < 0.01
    half = export_rulebook("fortuna", tmp_path / "half.pdf", paper="half-letter", lang="en")
    width, height = _box(half.read_bytes())
    assert abs(width - HALF_LETTER[0]) < 0.01 and abs(height - HALF_LETTER[1]) < 0.01
    assert not list(tmp_path.glob("*.tmp"))       # the temporary files were renamed


def test_bad_options_and_unknown_game_are_pnp_errors(tmp_path: Path) -> None:
    with pytest.raises(PnpError, match="paper"):
        export_rulebook("fortuna", tmp_path / "x.pdf", paper="b7")
    with pytest.raises(PnpError, match="language 'fr'"):
        export_rulebook("fortuna", tmp_path / "x.pdf", lang="fr")
    with pytest.raises(PnpError, match="imposition 'saddle'"):
        export_rulebook("fortuna", tmp_path / "x.pdf", imposition="saddle")
    with pytest.raises(PnpError, match="unknown game"):
        rulebook_markdown("fortunaa")
    assert not (tmp_path / "x.pdf").exists()


def _component_rows(markdown: str) -> dict[str, str]:
    """Component table rows: name (the cell's first line, without a note) → count cell."""
    rows = {}
    for line in markdown.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and re.fullmatch(r"\d+ ?(枚|個|cards?|tokens?|dice|die|boards?)",
                                            cells[1]):
            rows[cells[0].split("<br>")[0]] = cells[1]
    return rows


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SLUGS)
def test_component_counts_match_the_data(slug: str, lang: str) -> None:
    game = load_game_data(DEFAULT_DATA_DIR, slug)
    rows = _component_rows(rulebook_markdown(slug, lang=lang))
    for cid, component in game.manifest.components.items():
        expected = (sum(r.qty for r in game.rows[cid]) if component.table
                    else component.count)
        name = (component.name_ja or component.name) if lang == "ja" else component.name
        assert name in rows, (slug, name)
        assert int(re.match(r"\d+", rows[name]).group()) == expected, (slug, cid)


@pytest.mark.parametrize("slug", SLUGS)
def test_player_aids_are_in_both_component_lists(slug: str) -> None:
    """Every aid the build prints is a manifest component, so both books list it."""
    from pnp.builder.cards import aid_components

    game = load_game_data(DEFAULT_DATA_DIR, slug)
    # Aids found only in the templates folder would print but stay out of the books.
    assert aid_components(game) == [], slug
    aids = [c for cid, c in game.manifest.components.items() if cid.startswith("aid")]
    assert aids, slug
    for lang, each in (("ja", "1人1枚（両面）"), ("en", "one per player, two-sided")):
        markdown = rulebook_markdown(slug, lang=lang)
        counts = _component_rows(markdown)
        for aid in aids:
            name = aid.name_ja if lang == "ja" else aid.name
            assert counts[name].startswith(f"{aid.count}"), (slug, lang, name)
            row = next(line for line in markdown.splitlines() if line.startswith(f"| {name} |"))
            if aid.count == game.manifest.players[1]:
                assert row.rstrip().endswith(f"| {each} |"), (slug, lang, row)


def test_editing_a_qty_changes_both_editions(tmp_path: Path) -> None:
    before = rulebook_markdown("fortuna")
    assert "1〜6 各13枚：稲妻・小麦・兜・車輪 各3枚 + 女神1枚" in before
    data = _copy_game(tmp_path, "fortuna")
    _set_qty(data / "fortuna" / "reel.csv", "reel-3-goddess", 2)
    after = rulebook_markdown("fortuna", data)
    assert "| リールカード | 79枚 |" in after
    # Number 3 now differs from the others, so it gets a line of its own.
    assert "1・2・4・5・6 各13枚：稲妻・小麦・兜・車輪 各3枚 + 女神1枚" in after
    assert "3 14枚：稲妻・小麦・兜・車輪 各3枚 + 女神2枚" in after
    # The printed total counts the player aids too (one per player, each edition).
    aids = sum(c.count for cid, c in load_game_data(data, "fortuna").manifest.components.items()
               if cid.startswith("aid"))
    assert aids == 8
    assert f"印刷するカードは合計{79 + aids}枚" in after
    english = rulebook_markdown("fortuna", data, lang="en")
    assert "| Reel cards | 79 cards |" in english
    assert "3 (14): lightning, wheat, helmet, wheel ×3 each + goddess ×2" in english
    assert f"In all, {79 + aids} cards to print." in english


def test_editing_chips_and_a_constant(tmp_path: Path) -> None:
    data = _copy_game(tmp_path, "fortune_clover")
    _set_qty(data / "fortune_clover" / "chips.csv", "chip-yellow", 12)
    text = rulebook_markdown("fortune_clover", data)
    assert "黄チップ12個 + 白チップ20個" in text and "| 32個 |" in text
    assert "yellow chips ×12 + white chips ×20" in rulebook_markdown("fortune_clover", data,
                                                                   lang="en")

    data = _copy_game(tmp_path / "e", "episode2")
    manifest = data / "episode2" / "manifest.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "starting_hp = 8", "starting_hp = 17\nstarting_hp_status = \"provisional\""),
        encoding="utf-8")
    text = rulebook_markdown("episode2", data)
    assert "HPを**17**にします" in text and "**8**" not in text
    assert "暫定" not in text                          # players see no working notes
    designer = rulebook_markdown("episode2", data, designer=True)
    assert "HPを**17（暫定）**にします" in designer
    assert "Set your HP to **17**." in rulebook_markdown("episode2", data, lang="en")


def test_title_line_shows_the_draft_and_players_from_the_manifest(tmp_path: Path) -> None:
    """{{ draft }} is the manifest's 草案N, "Draft N" in English; {{ players }} its range."""
    data = _copy_game(tmp_path, "nine_peak")
    manifest = data / "nine_peak" / "manifest.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        'draft = "草案12"', 'draft = "草案13"'), encoding="utf-8")
    # nine_peak.md line 4 and nine_peak.en.md line 4; the manifest says players = [3, 5]
    assert "**草案13**　／　3〜5人用" in rulebook_markdown("nine_peak", data).splitlines()
    assert "**Draft 13** / for 3–5 players" in rulebook_markdown(
        "nine_peak", data, lang="en").splitlines()


def test_markdown_and_html_exports(tmp_path: Path) -> None:
    files = export_markdown("nine_peak", tmp_path / "rulebook-en.md", lang="en")
    text = files[0].read_text(encoding="utf-8")
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert pictures and all((tmp_path / p).is_file() for p in pictures)
    assert {p.name for p in files[1:]} == {Path(p).name for p in pictures}
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in files[1:])
    html = export_html("nine_peak", tmp_path / "rulebook.html").read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and '<html lang="ja">' in html
    anchors = re.findall(r'<h[23] id="([^"]+)"', html)
    links = re.findall(r'<a href="#([^"]+)"', html)
    assert anchors and links == anchors              # the contents link every section
    assert html.count("data:image/png;base64,") == len(pictures)
    assert "{{" not in html and "<!--" not in html
    # Contents entries are unnumbered, as in the PDF: headings carry their own
    # numbers ("1. Enemy phase"), which a numbered list would print twice.
    toc_rule = re.search(r"nav\.toc ol \{([^}]*)\}", html)
    assert toc_rule and "list-style: none" in toc_rule.group(1)
    # Right-aligned cells are quantities ("100 cards"): they never wrap.
    assert re.search(r"td\.r \{[^}]*white-space: nowrap", html)
    assert '<td class="r">' in html


def test_others_leaves_out_what_an_earlier_gallery_showed(tmp_path: Path) -> None:
    # A long gallery split in two (Undecim's): the second's ``others`` must
    # not picture the first's components again; the title page's does not count.
    source = tmp_path / "book.md"

    def captions(text: str) -> list[str]:
        source.write_text(f"# T\n\n{{{{ gallery reel=reel-1-bolt cover }}}}\n\n{text}",
                          encoding="utf-8")
        return re.findall(r"!\[([^\]]*)\]", rulebook_markdown("fortuna", source=source))

    both = "カード見本：リールカード・サマリーカード・サマリーカード（英語）"
    aids = "カード見本：サマリーカード・サマリーカード（英語）"
    assert captions("{{ gallery others }}\n")[1] == both
    assert captions("{{ gallery reel=reel-1-bolt }}\n\n{{ gallery others }}\n")[2] == aids
    with pytest.raises(PnpError, match=rf"^{re.escape(str(source))}:7: gallery: 'others' found no"):
        captions("{{ gallery others }}\n\n{{ gallery others }}\n")


def test_a_gallery_keeps_a_components_pieces_on_one_row_under_one_line() -> None:
    # Fortune Clover's two chips: the white one wrapped to the next row and
    # the name broke as フォーチュ / チップ under the yellow one alone.
    scene = prepare("fortune_clover", lang="ja").pictures["gallery-fortune-chips-deck-aid-aid_en"]
    pieces = sorted((i.box for i in scene.items if i.layer == 1), key=lambda b: b[2] - b[0])
    chips = pieces[:2]
    assert chips[0][1] == chips[1][1]                         # same row
    left, right = min(b[0] for b in chips), max(b[2] for b in chips)
    labels = [b for b in (i.box for i in scene.items if i.layer == 3)
              if left - 20 <= (b[0] + b[2]) / 2 <= right + 20 and b[3] <= chips[0][1]
              and b[1] >= chips[0][1] - 30]
    assert len(labels) == 1                                   # the name on one line


def test_unknown_placeholder_names_file_and_line(tmp_path: Path) -> None:
    data = _copy_game(tmp_path, "fortuna")
    source = tmp_path / "rulebooks" / "fortuna.en.md"
    source.parent.mkdir()
    source.write_text("# {{ title }}\n\nText.{{ nonsense 3 }}\n", encoding="utf-8")
    with pytest.raises(PnpError) as info:
        rulebook_markdown("fortuna", data, lang="en")   # rulebooks/ beside card_data/ is used
    message = str(info.value)
    assert f"{source}:3:" in message and "nonsense" in message
    with pytest.raises(PnpError, match=re.escape(f"{source}:3:")):
        export_rulebook("fortuna", tmp_path / "out.pdf", data_dir=data, lang="en")
    assert not (tmp_path / "out.pdf").exists()


def test_placeholder_faults_are_pnp_errors(tmp_path: Path) -> None:
    source = tmp_path / "book.md"
    cases = {
        "{{ count nosuch }}": "unknown component 'nosuch'",
        "{{ const nosuch }}": "unknown constant 'nosuch'",
        "{{ param nosuch }}": "unknown parameter 'nosuch'",
        "{{ components reel=colour }}": "no column 'colour'",
        "本文 {{ components }}": "line of its own",
        "{{ title": "unbalanced",
        "{{ example nosuch }}": "unknown example 'nosuch' for fortuna",
        "{{ gallery reel=reel-9-bolt }}": "has no card 'reel-9-bolt'",
        "{{ gallery reel }}": "has 30 distinct cards",
    }
    for line, expected in cases.items():
        source.write_text(f"# T\n\n{line}\n", encoding="utf-8")
        with pytest.raises(PnpError, match=re.escape(expected)) as info:
            rulebook_markdown("fortuna", source=source)
        assert str(info.value).startswith(f"{source}:3:"), line


def test_missing_english_for_a_data_value_is_named(tmp_path: Path) -> None:
    data = _copy_game(tmp_path, "fortuna")
    rulebooks = tmp_path / "rulebooks"
    shutil.copytree(PROJECT_ROOT / "rulebooks", rulebooks)
    terms = rulebooks / "fortuna.terms.toml"
    terms.write_text(terms.read_text(encoding="utf-8").replace('"兜" = "helmet"\n', ""),
                     encoding="utf-8")
    with pytest.raises(PnpError, match=re.escape(f"no English for the data value '兜': add it "
                                                 f"under [en] in {terms}")):
        rulebook_markdown("fortuna", data, lang="en")


def test_build_and_cli_write_both_editions(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pnp.cli import main
    from pnp.rulebook.cli import export_rulebooks

    # What `pnp build` calls: the A5 PDF of every edition.
    written = export_rulebooks(["episode2"], out_dir=tmp_path)
    assert [p.name for p in written] == ["rulebook-a5.pdf", "rulebook-en-a5.pdf"]
    result = CliRunner().invoke(main, ["rulebook", "episode2", "--lang", "en", "--format",
                                       "html", "--format", "md", "--out", str(tmp_path / "c")])
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (tmp_path / "c" / "episode2").iterdir())
    assert names == ["rulebook-en-images", "rulebook-en.html", "rulebook-en.md"]
    result = CliRunner().invoke(main, ["rulebook", "episode2", "--lang", "fr"])
    assert result.exit_code != 0 and "fr" in result.output
