"""`pnp preflight` on foreign or hand-edited TTS saves: a failed check, never a traceback."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Iterator

from PIL import Image
from click.testing import CliRunner

from pnp.cli import main
from pnp.printing.preflight import preflight_files

#: A small saved object in the shape pnp writes (two cards on a 2 × 1 sheet).
SAVE: dict[str, Any] = {"ObjectStates": [{
    "Name": "DeckCustom", "DeckIDs": [100, 101],
    "CustomDeck": {"1": {"FaceURL": "faces.png", "BackURL": "back.png", "NumWidth": 2,
                         "NumHeight": 1, "UniqueBack": False}},
    "ContainedObjects": [{"Name": "Card", "CardID": 100, "Nickname": "a"},
                         {"Name": "Card", "CardID": 101, "Nickname": "b"}],
    "CustomImage": {"ImageURL": "tile.png"}}]}
#: Values of the wrong kind put in place of each value of the save.
WRONG: list[Any] = [None, 5, -1, "x", [], {}, [1, "a"], {"k": 3}, True, 1.5]


def _paths(node: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every key path of ``node`` (dicts and lists), the root's excluded."""
    items = node.items() if isinstance(node, dict) else enumerate(node) \
        if isinstance(node, list) else ()
    for key, value in items:
        yield at + (key,)
        yield from _paths(value, at + (key,))


def _replaced(base: Any, path: tuple[Any, ...], value: Any) -> Any:
    """A copy of ``base`` with the value at ``path`` replaced."""
    doc = copy.deepcopy(base)
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return doc


def test_every_wrong_value_fails_the_file_without_a_traceback(tmp_path: Path) -> None:
    Image.new("RGB", (20, 10), "white").save(tmp_path / "faces.png")
    Image.new("RGB", (10, 10), "white").save(tmp_path / "back.png")
    (tmp_path / "tile.png").write_bytes(b"not an image")
    target = tmp_path / "deck.json"
    paths = [tmp_path / "deck.json", tmp_path / "faces.png"]
    # file:/// URLs, so the checks open the images and the PNG's check finds the save
    base = json.loads(json.dumps(SAVE).replace('"faces.png"', json.dumps(
        (tmp_path / "faces.png").as_uri())).replace('"back.png"', json.dumps(
            (tmp_path / "back.png").as_uri())).replace('"tile.png"', json.dumps(
                (tmp_path / "tile.png").as_uri())))
    target.write_text(json.dumps(base), encoding="utf-8")
    good = preflight_files(paths)
    assert good[1].profile == "tts", good[1].checks   # the PNG is found in the save
    tried = 0
    for path in _paths(base):
        for value in WRONG:
            target.write_text(json.dumps(_replaced(base, path, value)), encoding="utf-8")
            # the JSON itself, and a PNG whose check reads the JSON beside it
            reports = preflight_files(paths)
            assert len(reports) == 2
            tried += 1
    assert tried > 100
    for doc in ({"ObjectStates": 5}, {"ObjectStates": [5, "x"]}, [1, 2], "text", 5):
        target.write_text(json.dumps(doc), encoding="utf-8")
        (report, _png) = preflight_files(paths)
        assert not report.ok


def test_a_non_list_object_states_is_one_failed_check_in_the_cli(tmp_path: Path) -> None:
    (tmp_path / "deck.json").write_text('{"ObjectStates": 5}', encoding="utf-8")
    result = CliRunner().invoke(main, ["preflight", str(tmp_path / "deck.json")])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "ERR  json: no ObjectStates: not a TTS saved object" in result.stdout


def test_an_unreadable_image_the_save_names_fails_its_images_check(tmp_path: Path) -> None:
    (tmp_path / "tile.png").write_bytes(b"not an image")
    doc = {"ObjectStates": [{"Name": "Custom_Tile", "CustomImage": {
        "ImageURL": (tmp_path / "tile.png").as_uri()}}]}
    (tmp_path / "deck.json").write_text(json.dumps(doc), encoding="utf-8")
    (report,) = preflight_files([tmp_path / "deck.json"])
    images = [c for c in report.checks if c.name == "images"]
    assert images and not images[0].ok
    assert "tile.png (not a readable image)" in images[0].detail


def test_a_folder_search_leaves_out_previews_and_other_json(tmp_path: Path) -> None:
    """`pnp preflight output/` after `pnp preview`: previews, book pictures and reports are left out."""
    out = tmp_path / "output"
    (out / "toy" / "preview").mkdir(parents=True)
    Image.new("RGB", (20, 10), "white").save(out / "toy" / "preview" / "card-face.png")
    (out / "toy" / "rulebook-en-images").mkdir()
    Image.new("RGB", (20, 10), "white").save(out / "toy" / "rulebook-en-images" / "01.png")
    (out / "toy" / "report.json").write_text('{"games": 3}', encoding="utf-8")
    (out / "toy" / "deck.json").write_text('{"ObjectStates": 5}', encoding="utf-8")
    (out / "toy" / "broken.json").write_text('{"Object', encoding="utf-8")
    result = CliRunner().invoke(main, ["preflight", str(out)])
    checked = [line.split()[1] for line in result.stdout.splitlines()
               if line.startswith(("PASS", "FAIL"))]
    # a save (even a broken one) and unreadable JSON are checked; the rest is left out
    assert checked == [str(out / "toy" / "broken.json"), str(out / "toy" / "deck.json")]
    assert result.stderr.splitlines()[-1].startswith("note: left out 3 file(s) not meant for "
                                                     "printing")
    named = CliRunner().invoke(main, ["preflight", str(out / "toy" / "preview" /
                                                       "card-face.png")])
    assert "FAIL" in named.stdout                      # named on the command line: checked
    (out / "toy" / "deck.json").unlink()
    (out / "toy" / "broken.json").unlink()
    empty = CliRunner().invoke(main, ["preflight", str(out)])
    assert empty.exit_code == 1
    assert empty.stderr.strip() == (
        "error: no PDF, PNG or JSON files to check (left out 3 not meant for printing: "
        "screen previews and rulebook pictures, JSON that is not a TTS save; name one to "
        "check it)")
