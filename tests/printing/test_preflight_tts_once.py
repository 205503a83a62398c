"""`pnp preflight` parses each JSON file once per run, with the same messages as before."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from PIL import Image

from pnp.cli import main
from pnp.printing.preflight import JsonFiles, expand_paths, preflight_files

#: Not JSON, and not UTF-8: the two ways a read fails, each with its own message.
BROKEN = b'{"Obj'
LATIN = b'{"ObjectStates": "\xff"}'


def _save(folder: Path) -> Path:
    """Write a two-card TTS save using faces.png and back.png beside it; return its path."""
    Image.new("RGB", (400, 200), (10, 10, 10)).save(folder / "faces.png")
    Image.new("RGB", (200, 200), (10, 10, 10)).save(folder / "back.png")
    deck = {"FaceURL": (folder / "faces.png").as_uri(), "BackURL": (folder / "back.png").as_uri(),
            "NumWidth": 2, "NumHeight": 1, "UniqueBack": False}
    obj = {"Name": "DeckCustom", "DeckIDs": [100, 101], "CustomDeck": {"1": deck},
           "ContainedObjects": [{"Name": "Card", "CardID": i, "Nickname": str(i)}
                                for i in (100, 101)]}
    path = folder / "deck.json"
    path.write_text(json.dumps({"ObjectStates": [obj]}), encoding="utf-8")
    return path


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """An output folder: a save with its two sheets, damaged saves and a simulate report."""
    tts = tmp_path / "out" / "toy" / "tts"
    tts.mkdir(parents=True)
    _save(tts)
    (tts / "bad.json").write_text('{"ObjectStates": 5}', encoding="utf-8")
    (tts / "broken.json").write_bytes(BROKEN)
    (tts / "latin.json").write_bytes(LATIN)
    (tmp_path / "out" / "toy" / "report.json").write_text('{"games": 3}', encoding="utf-8")
    return tmp_path / "out"


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Count every read of a ``.json`` file by name (read_text and read_bytes)."""
    counts: Counter[str] = Counter()
    read_text, read_bytes = Path.read_text, Path.read_bytes

    def counted_text(self: Path, *args: Any, **kwargs: Any) -> str:
        if self.suffix == ".json":
            counts[self.name] += 1
        return read_text(self, *args, **kwargs)

    def counted_bytes(self: Path) -> bytes:
        if self.suffix == ".json":
            counts[self.name] += 1
        return read_bytes(self)

    monkeypatch.setattr(Path, "read_text", counted_text)
    monkeypatch.setattr(Path, "read_bytes", counted_bytes)
    return counts


def _decode_error(raw: bytes) -> str:
    """The message Python's own read gives for ``raw`` (what preflight always printed)."""
    try:
        json.loads(raw.decode("utf-8"))
    except ValueError as exc:
        return str(exc)
    raise AssertionError("expected a bad file")


def test_a_folder_run_reads_every_json_once(folder: Path, reads: Counter[str]) -> None:
    result = CliRunner().invoke(main, ["preflight", str(folder)])
    assert result.exit_code == 1, result.output
    # the folder search, the save's check and both sheets' checks share one parse
    assert reads == {"deck.json": 1, "bad.json": 1, "broken.json": 1, "latin.json": 1,
                     "report.json": 1}
    tts = folder / "toy" / "tts"
    assert result.stdout.splitlines() == [
        f"PASS {tts / 'back.png'}  [tts]",
        "  ok   colour: mode RGB",
        "  ok   size: 200 x 200 px, 1 x 1 grid of deck.json",
        f"FAIL {tts / 'bad.json'}  [tts]",
        "  ERR  json: no ObjectStates: not a TTS saved object",
        f"FAIL {tts / 'broken.json'}  [tts]",
        f"  ERR  json: not JSON: {_decode_error(BROKEN)}",
        f"PASS {tts / 'deck.json'}  [tts]",
        "  ok   objects: 3 object(s); grids, ids and contained cards consistent",
        "  ok   images: 2 local image(s) present, within 4096 px",
        f"PASS {tts / 'faces.png'}  [tts]",
        "  ok   colour: mode RGB",
        "  ok   size: 400 x 200 px, 2 x 1 grid of deck.json",
        f"FAIL {tts / 'latin.json'}  [tts]",
        "  ERR  json: not JSON: 'utf-8' codec can't decode byte 0xff in position 18: "
        "invalid start byte",
        "3 file(s) ready, 3 not ready"]
    assert result.stderr.splitlines()[-1].startswith("note: left out 1 file(s) not meant")


def test_the_json_report_reads_every_json_once(folder: Path, reads: Counter[str]) -> None:
    result = CliRunner().invoke(main, ["preflight", "--json", str(folder)])
    assert result.exit_code == 1
    assert set(reads.values()) == {1} and len(reads) == 5
    details = {Path(r["file"]).name: [c["detail"] for c in r["checks"]]
               for r in json.loads(result.stdout)}
    assert details["broken.json"] == [f"not JSON: {_decode_error(BROKEN)}"]


def test_the_checks_share_one_parse_without_a_folder_search(tmp_path: Path,
                                                            reads: Counter[str]) -> None:
    save = _save(tmp_path)
    (tmp_path / "broken.json").write_bytes(BROKEN)
    files = [tmp_path / "faces.png", tmp_path / "back.png", save, tmp_path / "broken.json"]
    reports = preflight_files(files)
    assert [r.ok for r in reports] == [True, True, True, False]
    assert [r.profile for r in reports] == ["tts"] * 4       # both sheets found in the save
    assert reads == {"deck.json": 1, "broken.json": 1}


def test_expand_paths_hands_its_parses_to_the_checks(folder: Path, reads: Counter[str]) -> None:
    json_files = JsonFiles()
    skipped: list[Path] = []
    paths = expand_paths([folder], skipped, json_files)
    assert [p.name for p in skipped] == ["report.json"]
    searched = dict(reads)
    assert searched == {"deck.json": 1, "bad.json": 1, "broken.json": 1, "latin.json": 1,
                        "report.json": 1}
    reports = preflight_files(paths, json_files=json_files)
    assert reads == searched                                 # nothing read a second time
    assert sum(r.ok for r in reports) == 3
    # without the shared reader the checks parse the saves again (what used to happen)
    preflight_files(paths)
    assert reads["deck.json"] == 2 and reads["report.json"] == 1


def test_a_read_error_is_kept_as_its_message(tmp_path: Path, reads: Counter[str]) -> None:
    (tmp_path / "latin.json").write_bytes(LATIN)
    json_files = JsonFiles()
    first = json_files.read(tmp_path / "latin.json")
    assert first.data is None and first.error is not None
    assert first.error.startswith("'utf-8' codec can't decode byte 0xff")
    assert json_files.read(tmp_path / "latin.json") is first
    missing = json_files.read(tmp_path / "gone.json")
    assert missing.error is not None and "No such file" in missing.error
    assert reads == {"latin.json": 1, "gone.json": 1}


def test_only_what_the_checks_use_is_kept(folder: Path, reads: Counter[str]) -> None:
    """After the search a non-save keeps no data, a save only its ObjectStates."""
    json_files = JsonFiles()
    expand_paths([folder], [], json_files)
    report = json_files.read(folder / "toy" / "report.json")
    assert report.data is None and report.error is None and not report.is_save
    save = json_files.read(folder / "toy" / "tts" / "deck.json")
    assert save.is_save and list(save.data or {}) == ["ObjectStates"]
    assert len(save.data["ObjectStates"]) == 1            # type: ignore[index]
    damaged = json_files.read(folder / "toy" / "tts" / "bad.json")
    assert damaged.data == {"ObjectStates": 5}            # still checked, and fails
    assert reads["report.json"] == 1 and reads["deck.json"] == 1


def test_a_large_report_is_not_held_after_the_search(tmp_path: Path) -> None:
    """A simulate report beside the saves is parsed once and let go: the search holds no
    more than a few kB afterwards, although parsing it took megabytes."""
    import gc
    import tracemalloc

    seats = [{"seat": i, "score": i / 2, "bot": "greedy", "cards": [1, 2, 3]}
             for i in range(40_000)]
    (tmp_path / "report.json").write_text(json.dumps({"games": 3, "seats": seats}),
                                          encoding="utf-8")
    _save(tmp_path)
    del seats
    gc.collect()
    json_files = JsonFiles()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        expand_paths([tmp_path], [], json_files)
        gc.collect()
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak - before > 5_000_000          # the parse itself was large
    assert held - before < 50_000, f"{held - before} bytes held after the search"
    assert json_files.read(tmp_path / "report.json").data is None
