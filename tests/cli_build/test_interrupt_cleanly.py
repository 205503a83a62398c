"""Ctrl-C during `pnp build`, `pnp rulebook` or `pnp check`: one line, nothing half-written.

A new-user review found a bare "interrupted", a tts/ folder holding one image
and no saved object after SIGINT, and an empty game folder after stopping
`pnp rulebook`. Runs are stopped with a real SIGINT: at a chosen progress
step (``PNP_INTERRUPT_AFTER``, deterministic) or once the run has said it
started (its progress label on stderr).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from pnp.printing.staging import STAGE_PREFIX

LINE = re.compile(r"error: interrupted(: nothing was written|"
                  r" after writing (\d+) complete file\(s\) \(.*\); nothing else was written)$")


#: Runs pnp with SIGINT sent right after its Nth TTS sheet image is written
#: (sys.argv[1] = N): the moment a deck's images are there and its saved
#: object is not yet.
AFTER_SHEET = """
import os, signal, sys
import pnp.printing.tts as tts
from pnp.cli import main
stop, done, write = int(sys.argv[1]), [0], tts._write_sheet
def counted(*args, **kwargs):
    write(*args, **kwargs)
    done[0] += 1
    if done[0] == stop:
        os.kill(os.getpid(), signal.SIGINT)
tts._write_sheet = counted
main(sys.argv[2:], prog_name="pnp")
"""


def pnp(args: list[str], cache: Path, after: int | None = None,
        signal_on: str | None = None, after_sheet: int | None = None) -> tuple[int, str]:
    """Run pnp in a subprocess and stop it with SIGINT; return (exit code, stderr).

    At progress step ``after`` (``PNP_INTERRUPT_AFTER``), right after the
    ``after_sheet``-th TTS sheet image, or when stderr shows ``signal_on``.
    """
    env = dict(os.environ, PNP_CACHE_DIR=str(cache))
    env.pop("PNP_INTERRUPT_AFTER", None)
    if after is not None:
        env["PNP_INTERRUPT_AFTER"] = str(after)
    command = ([sys.executable, "-c", AFTER_SHEET, str(after_sheet)] if after_sheet
               else [sys.executable, "-m", "pnp.cli"])
    proc = subprocess.Popen(command + args, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    seen = []
    for line in proc.stderr:
        seen.append(line)
        if signal_on is not None and signal_on in line:
            proc.send_signal(signal.SIGINT)
            signal_on = None
    proc.wait(timeout=300)
    return proc.returncode, "".join(seen)


def check_one_line(code: int, err: str) -> int:
    """Exit 130, no traceback, the last line in simulate's words; return the count written."""
    assert code == 130, err
    assert "Traceback" not in err
    match = LINE.match(err.strip().splitlines()[-1])
    assert match, err
    return int(match.group(2) or 0)


def files_under(folder: Path) -> dict[Path, tuple[int, bytes]]:
    """Every file under ``folder``: (mtime, bytes)."""
    return {p: (p.stat().st_mtime_ns, p.read_bytes())
            for p in sorted(folder.rglob("*")) if p.is_file()} if folder.exists() else {}


def check_tts_whole(out: Path) -> None:
    """No staging folder or empty folder left; each saved object's images there, no stray ones."""
    for path in out.rglob("*"):
        assert not path.name.startswith(STAGE_PREFIX), path
        if path.is_dir():
            assert any(path.iterdir()), f"empty folder {path} left behind"
    for tts in out.rglob("tts"):
        named: set[str] = set()
        for saved in tts.glob("*.json"):
            text = saved.read_text()
            named |= {Path(u).name for u in re.findall(r'file://[^"]+\.png', text)}
        images = {p.name for p in tts.glob("*.png")}
        assert images == named, f"images without a saved object: {sorted(images - named)}"
        assert all((tts / n).exists() for n in named)


@pytest.mark.parametrize("sheet, decks", [(1, 0), (2, 0), (4, 1), (5, 2)])
def test_tts_build_stops_whole(tmp_path: Path, sheet: int, decks: int) -> None:
    """Stopped after any sheet image, a TTS export has whole decks or nothing, and says which.

    Fortuna's decks: reel (back, faces), aid (faces, backs), aid_en (faces,
    backs); a deck's saved object is written after its images.
    """
    out = tmp_path / "out"
    code, err = pnp(["build", "fortuna", "--preset", "tts", "--no-rulebook", "--out", str(out),
                     "-j", "1"], tmp_path / "cache", after_sheet=sheet)
    written = check_one_line(code, err)
    check_tts_whole(out)
    assert written == len(files_under(out)) == 3 * decks
    if written == 0:
        assert not out.exists(), "the run's empty output folder was left"


def test_build_stopped_while_drawing(tmp_path: Path) -> None:
    """Stopped at the third card face drawn (before any file): nothing, and no folder."""
    out = tmp_path / "out"
    code, err = pnp(["build", "fortuna", "--out", str(out), "-j", "1"], tmp_path / "cache",
                    after=3)
    assert check_one_line(code, err) == 0
    assert not out.exists()


def test_interrupted_rebuild_keeps_the_previous_export(tmp_path: Path) -> None:
    """A deck stopped half-way leaves the previous complete export of it untouched."""
    out, cache = tmp_path / "out", tmp_path / "cache"
    args = ["build", "fortuna", "--preset", "tts", "--no-rulebook", "--out", str(out), "-j", "1"]
    code, err = pnp(args, cache)
    assert code == 0, err
    before = files_under(out)
    code, err = pnp(args + ["--tts-url", "https://example.org/x"], cache, after_sheet=3)
    written = check_one_line(code, err)
    after = files_under(out)
    assert set(after) == set(before)
    changed = [p for p in before if after[p] != before[p]]
    assert len(changed) == written
    check_tts = {p.name for p in changed}
    # the finished deck (new URLs) moved in whole; the stopped one kept its old files
    assert check_tts == {"reel-back.png", "reel-faces-1.png", "reel.json"}
    assert "https://example.org/x" in (out / "fortuna" / "tts" / "reel.json").read_text()
    assert "https://" not in (out / "fortuna" / "tts" / "aid.json").read_text()
    json.loads((out / "fortuna" / "tts" / "aid.json").read_text())


def test_rulebook_stopped_after_a_game(tmp_path: Path) -> None:
    """Stopped after the first game's books: those two are named; no folder for the next."""
    out = tmp_path / "out"
    code, err = pnp(["rulebook", "fortuna", "episode2", "--out", str(out), "-j", "1"],
                    tmp_path / "cache", after=2)
    assert check_one_line(code, err) == 2
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == \
        ["fortuna", "fortuna/rulebook-a5.pdf", "fortuna/rulebook-en-a5.pdf"]


def test_rulebook_stopped_while_typesetting(tmp_path: Path) -> None:
    """Stopped while the first book is typeset: nothing written and no empty game folder."""
    out = tmp_path / "out"
    code, err = pnp(["rulebook", "fortuna", "--lang", "en", "--out", str(out), "-j", "1"],
                    tmp_path / "cache", signal_on="Writing rulebooks")
    assert check_one_line(code, err) == 0
    assert not out.exists()


def test_check_stopped_is_one_line(tmp_path: Path) -> None:
    """`pnp check` stopped while linting ends with simulate's line, no traceback."""
    code, err = pnp(["check", "fortuna"], tmp_path / "cache", signal_on="Linting")
    assert check_one_line(code, err) == 0
