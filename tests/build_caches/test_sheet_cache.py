"""The sheet-file cache: a sheet whose inputs did not change is written, not drawn.

Each test builds a small generated game of two decks into its own cache
folder (``PNP_CACHE_DIR``) and spies on the drawing of sheet files, so it
sees which sheets a build drew and compares every byte with a build that
has no caches at all.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pnp.builder import decks
from pnp.builder.decks import BuildOptions, build, load_for_build
from pnp.cli import main
from pnp.render import fonts
from pnp.render.diskcache import MAGIC

from cache_entries import FACE as _FACE
from cache_entries import damage, entries, file_hashes, replace_in, shadow_icon
from cache_entries import duo_game as _game

@pytest.fixture()
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the sheet files the builds of this test drew (both drawing paths)."""
    names: list[str] = []
    real_draw, real_write = decks.draw_pages, decks.write_pages

    def draw_pages(c: Any, *args: Any, **kwargs: Any) -> int:
        names.append(Path(c._filename).name)
        return real_draw(c, *args, **kwargs)

    def write_pages(path: Path, *args: Any, **kwargs: Any) -> int:
        names.append(path.name)
        return real_write(path, *args, **kwargs)

    monkeypatch.setattr(decks, "draw_pages", draw_pages)
    monkeypatch.setattr(decks, "write_pages", write_pages)
    return names


def _build(data: Path, templates: Path, out: Path, **options: Any) -> dict[str, str]:
    """Build the game into ``out``; sha256 of every file written, by relative path."""
    opts = BuildOptions(out_dir=out, data_dir=data, templates_dir=templates,
                        **options)
    build(load_for_build([], opts), opts)
    fonts._subset_store = False   # the next build opens the subset cache anew, as a process
    return file_hashes(out)


def _uncached(data: Path, templates: Path, out: Path, monkeypatch: pytest.MonkeyPatch,
              **options: Any) -> dict[str, str]:
    """:func:`_build` with every build cache off (the reference bytes)."""
    with monkeypatch.context() as m:
        m.setenv("PNP_BUILD_CACHE", "0")
        return _build(data, templates, out, **options)


def test_cold_warm_damaged_and_off_give_the_same_bytes(tmp_path: Path, cache: Path,
                                                       drawn: list[str],
                                                       monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    """A warm build draws no sheet and writes the cold build's bytes; damaged entries are redrawn."""
    data, templates = _game(tmp_path / "game")
    cold = _build(data, templates, tmp_path / "cold")
    assert sorted(drawn) == ["cards-a4.pdf", "chips-a4.pdf"]
    assert len(entries(cache, "sheets")) == 2
    drawn.clear()
    assert _build(data, templates, tmp_path / "warm") == cold
    assert drawn == []
    # truncated, one flipped byte: both are misses, drawn again and kept anew
    damage(*entries(cache, "sheets"))
    assert _build(data, templates, tmp_path / "damaged") == cold
    assert sorted(drawn) == ["cards-a4.pdf", "chips-a4.pdf"]
    assert all(e.read_bytes().startswith(MAGIC) for e in entries(cache, "sheets"))
    drawn.clear()
    assert _uncached(data, templates, tmp_path / "off", monkeypatch) == cold
    assert sorted(drawn) == ["cards-a4.pdf", "chips-a4.pdf"]


def test_a_data_edit_redraws_only_that_decks_sheet(tmp_path: Path, cache: Path,
                                                   drawn: list[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """After a row edit in one deck, only its sheet is drawn; the files equal an uncached build."""
    data, templates = _game(tmp_path / "game")
    _build(data, templates, tmp_path / "a")
    csv = data / "duo" / "chips.csv"
    replace_in(csv, "2枚引く", "2枚捨てる")
    drawn.clear()
    warm = _build(data, templates, tmp_path / "b")
    assert drawn == ["chips-a4.pdf"]
    assert warm == _uncached(data, templates, tmp_path / "c", monkeypatch)


@pytest.mark.parametrize("change", ["template", "icon", "letter", "no-marks", "back-offset",
                                    "gutterfold", "quantity"])
def test_what_shapes_a_sheet_redraws_it(tmp_path: Path, cache: Path, drawn: list[str],
                                        monkeypatch: pytest.MonkeyPatch, change: str) -> None:
    """Template, icon, paper, marks, offset, layout and quantity changes each redraw the sheets."""
    data, templates = _game(tmp_path / "game")
    before = _build(data, templates, tmp_path / "a")
    options: dict[str, Any] = {}
    if change == "template":
        face = templates / "duo" / "face.xml.j2"
        face.write_text(_FACE.replace('size="12"', 'size="11"'), encoding="utf-8")
    elif change == "icon":        # a game icon now shadows the common star of the back
        shadow_icon(templates, "duo", "star")
    elif change == "quantity":    # same cards, one more copy: another plan
        replace_in(data / "duo" / "manifest.toml", "count = 3", "count = 4", 1)
        replace_in(data / "duo" / "cards.csv", "cards 3,3枚引く。,1", "cards 3,3枚引く。,2")
    else:
        options = {"letter": {"paper": "letter"}, "no-marks": {"marks": False},
                   "back-offset": {"back_offset_mm": (0.5, -0.5)},
                   "gutterfold": {"layout": "gutterfold"}}[change]
    drawn.clear()
    after = _build(data, templates, tmp_path / "b", **options)
    assert drawn, f"{change}: no sheet was drawn"
    if change == "quantity":
        assert drawn == ["cards-a4.pdf"]
    assert after == _uncached(data, templates, tmp_path / "c", monkeypatch, **options)
    assert after != before


def test_warm_output_and_messages_equal_the_cold_ones(tmp_path: Path, cache: Path,
                                                      drawn: list[str]) -> None:
    """stdout and stderr of `pnp build`, the BuildResult and the progress steps: same warm."""
    data, templates = _game(tmp_path / "game")
    args = ["build", "--no-rulebook", "--out", str(tmp_path / "out"), "--data-dir", str(data),
            "--templates-dir", str(templates), "--back-offset", "0.2", "0"]
    runs = []
    for _ in range(2):
        done = CliRunner().invoke(main, args)
        assert done.exit_code == 0, done.output
        fonts._subset_store = False
        runs.append((done.stdout, done.stderr))
    assert drawn == ["cards-a4.pdf", "chips-a4.pdf"]   # the second run drew nothing
    assert runs[0] == runs[1]
    assert "wrote" in runs[0][0] and "note:" in runs[0][0]

    results, steps = [], []
    for k in range(2):
        opts = BuildOptions(out_dir=tmp_path / f"r{k}", data_dir=data, templates_dir=templates,
                            back_offset_mm=(0.2, 0.0))
        seen: list[int] = []
        result = build(load_for_build([], opts), opts, progress=seen.append)
        fonts._subset_store = False
        results.append((result.faces, result.skipped, result.notes, result.bleed,
                        [p.name for p in result.files],
                        {k: [p.name for p in v] for k, v in result.outputs.items()}))
        steps.append(seen)
    assert results[0] == results[1]
    assert steps[0] == steps[1] and sum(steps[0]) == 2 * 6   # rendering, then the sheets


def test_two_profiles_keep_their_sheets_too(tmp_path: Path, cache: Path, drawn: list[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A build of several profiles (not streamed) writes kept sheets without drawing them."""
    data, templates = _game(tmp_path / "game")
    presets = {"presets": ("home-a4", "home-letter")}
    cold = _build(data, templates, tmp_path / "a", **presets)
    assert len(drawn) == 4
    drawn.clear()
    assert _build(data, templates, tmp_path / "b", **presets) == cold
    assert drawn == []
    assert _uncached(data, templates, tmp_path / "c", monkeypatch, **presets) == cold


def test_sheets_with_raster_images_or_random_templates_are_not_kept(
        tmp_path: Path, cache: Path, drawn: list[str]) -> None:
    """A sheet drawing a PNG, or from a templates folder using ``random``, is always drawn."""
    from PIL import Image

    data, templates = _game(tmp_path / "game")
    Image.new("RGB", (8, 8), (200, 40, 40)).save(templates / "duo" / "dot.png")
    face = templates / "duo" / "face.xml.j2"
    face.write_text(_FACE.replace(
        "</card>", "{% if card.id == 'cards1' %}<image href=\"duo/dot.png\" x=\"2\" y=\"2\" "
                   "width=\"5\" height=\"5\"/>{% endif %}\n</card>"), encoding="utf-8")
    _build(data, templates, tmp_path / "a")
    assert sorted(drawn) == ["cards-a4.pdf", "chips-a4.pdf"]
    assert len(entries(cache, "sheets")) == 1        # the chips, which draw no image
    drawn.clear()
    _build(data, templates, tmp_path / "b")
    assert drawn == ["cards-a4.pdf"]
    (templates / "duo" / "extra.xml.j2").write_text("{{ [1, 2] | random }}", encoding="utf-8")
    drawn.clear()
    _build(data, templates, tmp_path / "c")
    _build(data, templates, tmp_path / "d")
    assert sorted(drawn) == ["cards-a4.pdf", "cards-a4.pdf", "chips-a4.pdf", "chips-a4.pdf"]


@pytest.mark.parametrize("part", ["printing code", "reportlab", "canvas"])
def test_code_and_library_changes_redraw_the_sheets(tmp_path: Path, cache: Path,
                                                    drawn: list[str],
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    part: str) -> None:
    """An edit to pnp's printing code (no card changes), another ReportLab or canvas options redraw."""
    import reportlab

    from pnp.builder import serve

    data, templates = _game(tmp_path / "game")
    _build(data, templates, tmp_path / "a")
    drawn.clear()
    if part == "printing code":
        real = serve.code_stamp
        # only the whole stamp changes (the card caches' stamp leaves printing/ out)
        monkeypatch.setattr(serve, "code_stamp",
                            lambda skip=(): real(skip) + ("" if skip else "-edited"))
    elif part == "reportlab":
        monkeypatch.setattr(reportlab, "Version", reportlab.Version + ".post1")
    else:
        real_kwargs = decks.canvas_kwargs
        monkeypatch.setattr(decks, "canvas_kwargs",
                            lambda: dict(real_kwargs(), initialFontSize=10.0))
    _build(data, templates, tmp_path / "b")
    assert sorted(drawn) == ["cards-a4.pdf", "chips-a4.pdf"]


def test_every_part_of_the_sheet_key_counts(tmp_path: Path, cache: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Changing any one input of a sheet's key (plan, profile, titles, cards, salt) changes it."""
    import dataclasses

    import reportlab

    from pnp.builder.sheet_cache import SheetStore, sheet_salt
    from pnp.render.diskcache import DiskCache
    from pnp.render.fonts import canvas_kwargs

    data, templates = _game(tmp_path / "game")
    options = BuildOptions(out_dir=tmp_path / "out", data_dir=data, templates_dir=templates)
    game = load_for_build([], options)[0]
    env = decks.make_environment(templates)
    decks.use_build_caches(env)
    profile = options.profiles()[0]
    plan = decks.plan_build([game], options)[(game.slug, profile.name)][0]
    folder = tmp_path / "keys"
    folder.mkdir()
    store = SheetStore(DiskCache(folder, 2**20), "salt")
    path = tmp_path / "out" / "cards-a4.pdf"

    def key(**change: Any) -> str | None:
        return decks._sheet_key(store, env, change.get("game", game),
                                change.get("profile", profile), change.get("plan", plan),
                                change.get("path", path), change.get("options", options),
                                *change.get("parts", ("title", "label")))

    base = key()
    first = plan.sheets[0][0]
    moved = dataclasses.replace(first, slots=first.slots[1:])
    other_game = load_for_build([], options)[0]
    row = other_game.rows["cards"][0]
    other_game.rows["cards"][0] = dataclasses.replace(
        row, values={**row.values, "text": "別の文"})
    variants = {
        "plan sheets": key(plan=dataclasses.replace(plan, sheets=[[moved, *plan.sheets[0][1:]]])),
        "plan layout": key(plan=dataclasses.replace(plan, layout=None)),
        "profile": key(profile=dataclasses.replace(profile, summary="other")),
        "file name": key(path=path.with_name("cards-b.pdf")),
        "marks": key(options=dataclasses.replace(options, marks=False)),
        "titles": key(parts=("title 2", "label")),
        "a card": key(game=other_game),
    }
    for what, value in variants.items():
        assert value not in (None, base), what
    salt = sheet_salt(canvas_kwargs())
    monkeypatch.setattr(reportlab, "Version", reportlab.Version + ".post1")
    assert sheet_salt(canvas_kwargs()) != salt
    monkeypatch.undo()
    assert sheet_salt(dict(canvas_kwargs(), initialFontSize=11)) != salt


def test_an_entry_whose_progress_steps_do_not_add_up_is_not_used(
        tmp_path: Path, cache: Path, drawn: list[str]) -> None:
    """A well-formed entry for another number of cards (or not a PDF) is a miss, then remade."""
    from pnp.render.diskcache import DiskCache

    data, templates = _game(tmp_path / "game")
    cold = _build(data, templates, tmp_path / "a")
    store = DiskCache(cache / "sheets", 2**30)
    first, second = entries(cache, "sheets")
    pdf = first.read_bytes().partition(b"\n%PDF-")[2]
    store.put(first.name[: -len(".entry")], b"[99]\n%PDF-" + pdf)
    store.put(second.name[: -len(".entry")], b"[1, 1, 1]\nnot a pdf")
    drawn.clear()
    assert _build(data, templates, tmp_path / "b") == cold
    assert sorted(drawn) == ["cards-a4.pdf", "chips-a4.pdf"]
