"""The edit loop: contact sheets, `pnp watch`, caches; and what `pnp build` prints.

Timings are not asserted here (benchmarks/edit_loop.py measures them); these
tests check what each step writes and that the caches change nothing but speed.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from PIL import Image

from pnp import PROJECT_ROOT
from pnp.builder.watch import Watcher
from pnp.cli import main

DATA = PROJECT_ROOT / "card_data"
TEMPLATES = PROJECT_ROOT / "templates"


def run(*args: str) -> tuple[int, str]:
    """Run the CLI in-process; return (exit code, output)."""
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_contact_sheet_shows_every_distinct_card(tmp_path: Path) -> None:
    import re
    import zlib

    from pnp.builder.preview import render_sides, sheet_pdf
    from pnp.data import load_game_data
    from pnp.render.jinja_env import make_environment

    game = load_game_data(DATA, "fortune_clover", strict=True)
    sides = render_sides(make_environment(TEMPLATES), game, game.manifest.components["deck"])
    pdf = sheet_pdf("deck", sides)
    placed = 0
    for m in re.finditer(rb"stream\r?\n(.*?)endstream", pdf, re.S):
        try:
            content = zlib.decompress(m.group(1))
        except zlib.error:
            continue
        if b"BT" in content and b"pnpL_" in content:        # the page, not a form
            placed = len(re.findall(rb"/FormXob\.pnpL_\w+ Do", content))
    assert placed == 53                              # 52 faces and the one back
    code, out = run("preview", "fortune_clover", "deck", "--sheet", "--dpi", "36",
                    "--out", str(tmp_path), "--data-dir", str(DATA))
    assert code == 0, out
    assert len(pdfium.PdfDocument(pdf)) == 1 and (tmp_path / "deck-sheet.png").exists()


def test_contact_sheets_of_every_deck_of_a_game(tmp_path: Path) -> None:
    code, out = run("preview", "episode2", "--sheet", "--dpi", "36", "--out", str(tmp_path),
                    "--data-dir", str(DATA))
    assert code == 0, out
    names = sorted(p.name for p in tmp_path.glob("*-sheet.png"))
    assert names == ["aid-sheet.png", "aid_en-sheet.png", "enemies-sheet.png",
                     "enemies_stickers-sheet.png",
                     "hp_tracker-sheet.png", "player-sheet.png", "player_stickers-sheet.png"]


def test_preview_needs_a_deck_unless_sheet(tmp_path: Path) -> None:
    code, out = run("preview", "fortuna", "--out", str(tmp_path), "--data-dir", str(DATA))
    assert code == 1 and "name a deck of fortuna" in out and "reel" in out


def test_previews_are_byte_identical(tmp_path: Path) -> None:
    for out in ("a", "b"):
        code, text = run("preview", "fortuna", "reel", "reel-2-wheel", "--dpi", "50",
                         "--out", str(tmp_path / out), "--data-dir", str(DATA))
        assert code == 0, text
    assert ((tmp_path / "a" / "reel-2-wheel-face.png").read_bytes()
            == (tmp_path / "b" / "reel-2-wheel-face.png").read_bytes())


def test_watch_rewrites_only_the_card_that_changed(tmp_path: Path) -> None:
    data = tmp_path / "card_data"
    shutil.copytree(DATA / "fortune_clover", data / "fortune_clover")
    lines: list[str] = []
    w = Watcher("fortune_clover", data_dir=data, templates_dir=TEMPLATES,
                out_dir=tmp_path / "out", dpi=30, pdf=True, echo=lines.append)
    first = w.rebuild()
    assert any("fortune_clover/deck: 52 card preview(s)" in line for line in first)
    assert (tmp_path / "out" / "fortune_clover" / "deck-a4.pdf").exists()
    assert (tmp_path / "out" / "fortune_clover" / "preview" / "deck-sheet.png").exists()
    table = data / "fortune_clover" / "fortune.csv"
    text = table.read_text(encoding="utf-8")
    table.write_text(text.replace("4枚しかないので", "4枚だけなので", 1), encoding="utf-8")
    again = w.rebuild({table})
    previews = [line for line in again if "card preview" in line]
    assert len(previews) == 1 and "fortune_clover/fortune: 1 card preview(s) (F03)" in previews[0]
    assert any(line.endswith("ms]") and "fortune-a4.pdf" in line for line in again)
    assert not any("deck" in line for line in again)
    # nothing changed: nothing written
    assert "nothing changed" in w.rebuild(set())[0]


def test_watch_reports_a_broken_template_in_one_line(tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES, templates)
    lines: list[str] = []
    w = Watcher("nine_peak", data_dir=DATA, templates_dir=templates, out_dir=tmp_path / "out",
                dpi=36, pdf=False, echo=lines.append)
    w._report(None)
    face = templates / "nine_peak" / "peak_face.xml.j2"
    face.write_text(face.read_text(encoding="utf-8") + "{% if %}\n", encoding="utf-8")
    w._report({face})
    assert lines[-1].startswith("error: templates/nine_peak/peak_face.xml.j2:")
    assert "Traceback" not in "\n".join(lines)


def test_build_prints_the_whole_kit_and_no_bought_leaves_out_decks(tmp_path: Path) -> None:
    code, out = run("build", "episode2", "fortuna", "--no-rulebook", "-q", "--out",
                    str(tmp_path / "all"), "--data-dir", str(DATA))
    assert code == 0, out
    kit = {p.name for p in (tmp_path / "all" / "episode2").glob("*.pdf")}
    assert {"enemies-a4.pdf", "player-a4.pdf", "aid-a4.pdf", "small-parts-a4.pdf"} <= kit
    assert (tmp_path / "all" / "fortuna" / "aid-a4.pdf").exists()   # found in the templates
    code, out = run("build", "episode2", "--no-bought", "--no-rulebook", "-q", "--out",
                    str(tmp_path / "own"), "--data-dir", str(DATA))
    assert code == 0, out
    own = {p.name for p in (tmp_path / "own" / "episode2").glob("*.pdf")}
    assert "enemies-a4.pdf" not in own and "player-a4.pdf" not in own
    # the stickers for the bought deck get a sheet of their own, for label paper
    assert "stickers-a4.pdf" in own and "stickers-a4.pdf" not in kit
    pages = len(pdfium.PdfDocument(tmp_path / "own" / "episode2" / "small-parts-a4.pdf"))
    pages_all = len(pdfium.PdfDocument(tmp_path / "all" / "episode2" / "small-parts-a4.pdf"))
    assert pages == pages_all


def test_caches_change_nothing_but_speed(tmp_path: Path) -> None:
    """A build with cold caches and one with warm caches write the same bytes."""
    script = ("import sys; from pathlib import Path; "
              "from pnp.builder.decks import BuildOptions, build, load_for_build; "
              "o = BuildOptions(out_dir=Path(sys.argv[1])); "
              "build(load_for_build(['nine_peak'], o), o)")
    env = {"PNP_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin",
           "PYTHONPATH": str(PROJECT_ROOT)}
    for out in ("cold", "warm"):
        subprocess.run([sys.executable, "-c", script, str(tmp_path / out)], check=True,
                       env=env, cwd=PROJECT_ROOT)
    assert list((tmp_path / "cache" / "jinja").iterdir())      # templates were cached
    assert list((tmp_path / "cache" / "fonts").iterdir())      # and the font tables
    for name in ("hats-a4.pdf", "numbers-a4.pdf", "aid-a4.pdf"):
        assert ((tmp_path / "cold" / "nine_peak" / name).read_bytes()
                == (tmp_path / "warm" / "nine_peak" / name).read_bytes()), name


def test_unwritable_cache_folder_only_costs_speed(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    script = ("import sys; from pathlib import Path; "
              "from pnp.builder.preview import write_previews; "
              "write_previews('fortuna', 'reel', ['reel-1-bolt'], out_dir=Path(sys.argv[1]), "
              "dpi=36, show_bleed=True, data_dir=None, templates_dir=None)")
    env = {"PNP_CACHE_DIR": str(blocker / "sub"), "PATH": "/usr/bin:/bin",
           "PYTHONPATH": str(PROJECT_ROOT)}
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "out")], env=env,
                          cwd=PROJECT_ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out" / "reel-1-bolt-face.png").exists()


def test_a_running_watch_answers_preview(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While `pnp watch` runs, a preview of its game is drawn by it, with the same result."""
    import os
    import socket
    import threading
    import time

    import pnp.builder.serve as serve
    from pnp.builder.serve import ask, socket_path, where_key

    # the watcher's speed in acknowledging a request is not tested here: on a
    # loaded machine the default 2 s wait would make the client draw itself
    monkeypatch.setattr(serve, "ACCEPT_TIMEOUT", 60.0)

    out = tmp_path / "out"
    if not hasattr(socket, "AF_UNIX"):          # Windows: no server; preview renders itself
        assert ask({"cwd": os.getcwd()}, out) is None
        return
    w = Watcher("nine_peak", data_dir=DATA, templates_dir=TEMPLATES, out_dir=out, dpi=30,
                pdf=False, echo=lambda line: None)
    # Runs until the requests are answered (however loaded the machine is),
    # then stops at its next poll.
    stop = threading.Event()
    thread = threading.Thread(target=w.run, kwargs={"interval": 0.05, "stop": stop})
    thread.start()
    try:
        for _ in range(1200):
            if socket_path(out).exists():
                break
            time.sleep(0.05)
        request = {"cwd": os.getcwd(), "game": "nine_peak", "deck": "peaks", "card_ids": ["peak-2"],
                   "dpi": 40, "show_bleed": True, "sheet": False, "preset": None,
                   "out_dir": str(tmp_path / "served"),
                   "where": where_key(str(DATA), str(TEMPLATES))}
        answer = ask(request, out)
        assert answer is not None and "paths" in answer, answer
        assert sorted(Path(p).name for p in answer["paths"]) == ["peak-2-back.png",
                                                                 "peak-2-face.png"]
        bad = ask(dict(request, card_ids=["peak-9"]), out)
        assert bad is not None and "has no card 'peak-9'" in bad["error"]
        # another folder choice is declined: the client renders it itself
        assert ask(dict(request, where=where_key(None, None)), out) is None
    finally:
        stop.set()
        thread.join(60)
    assert not thread.is_alive()                          # the stop event ended it
    assert not socket_path(out).exists()                  # removed when the watch ends
    cold = tmp_path / "cold"
    code, text = run("preview", "nine_peak", "peaks", "peak-2", "--dpi", "40", "--out",
                     str(cold), "--data-dir", str(DATA), "--templates-dir", str(TEMPLATES))
    assert code == 0, text
    for name in ("peak-2-face.png", "peak-2-back.png"):
        assert (cold / name).read_bytes() == (tmp_path / "served" / name).read_bytes()
