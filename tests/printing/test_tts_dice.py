"""Tabletop Simulator export of a game's dice (issue 10, m4).

第2話 rolls three six-sided dice (ruling E4) and Undecim one (the Red Moon
die, ruling U1b); before, the TTS export had no dice at all. The dice come
from the manifest's ``kind = "die"`` components (one source: the count and
sides are data), as TTS's own standard dice, and ``pnp preflight`` passes the
saved object and refuses a die TTS does not have.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pnp import PROJECT_ROOT
from pnp.builder.decks import BuildOptions, BuildResult, _write_tts
from pnp.data import load_game_data
from pnp.errors import PnpError
from pnp.printing.preflight import preflight_files
from pnp.printing.profiles import builtin_profiles
from pnp.printing.tts import export_dice

DATA = PROJECT_ROOT / "card_data"


def _objects(path: Path) -> list[dict[str, Any]]:
    """The ObjectStates of a saved object file."""
    return json.loads(path.read_text(encoding="utf-8"))["ObjectStates"]


def _tts_dice(tmp_path: Path, slug: str, bought: bool = True) -> dict[str, list[Path]]:
    """Write only the dice of ``slug``'s TTS export (no cards rendered); component -> files."""
    game = load_game_data(DATA, slug, strict=True)
    options = BuildOptions(out_dir=tmp_path, data_dir=DATA, bought=bought)
    result = BuildResult()
    _write_tts(game, builtin_profiles().get("tts"), {}, options, result, set(), None)
    return {component: files for (_, _, component), files in result.outputs.items()}


@pytest.mark.parametrize("slug, component, count", [("episode2", "dice", 3),
                                                     ("undecim", "die", 1)])
def test_the_export_holds_the_manifests_dice(tmp_path: Path, slug: str, component: str,
                                             count: int) -> None:
    game = load_game_data(DATA, slug, strict=True)
    die = game.manifest.components[component]
    assert (die.kind, die.sides, die.count) == ("die", 6, count)
    written = _tts_dice(tmp_path, slug)
    (path,) = written[component]
    assert path == tmp_path / slug / "tts" / f"{component}.json"
    dice = _objects(path)
    assert [d["Name"] for d in dice] == ["Die_6"] * count
    assert len({d["GUID"] for d in dice}) == count
    # side by side, not stacked in one spot
    assert len({d["Transform"]["posX"] for d in dice}) == count
    (report,) = preflight_files([path])
    assert report.ok, [c.detail for c in report.checks]


def test_a_changed_count_in_the_manifest_changes_the_export(tmp_path: Path) -> None:
    """The count is read from the data, not written into the code."""
    data = tmp_path / "card_data" / "episode2"
    data.mkdir(parents=True)
    for f in (DATA / "episode2").iterdir():
        if f.is_file():
            text = f.read_text(encoding="utf-8")
            if f.name == "manifest.toml":
                assert 'sides = 6\ncount = 3\n' in text
                text = text.replace('sides = 6\ncount = 3\n', 'sides = 6\ncount = 5\n')
            (data / f.name).write_text(text, encoding="utf-8")
    game = load_game_data(tmp_path / "card_data", "episode2")
    options = BuildOptions(out_dir=tmp_path / "out", data_dir=tmp_path / "card_data")
    result = BuildResult()
    _write_tts(game, builtin_profiles().get("tts"), {}, options, result, set(), None)
    assert len(_objects(tmp_path / "out" / "episode2" / "tts" / "dice.json")) == 5


def test_no_bought_leaves_bought_dice_out(tmp_path: Path) -> None:
    assert "dice" not in _tts_dice(tmp_path, "episode2", bought=False)
    assert not (tmp_path / "episode2" / "tts" / "dice.json").exists()


def test_same_inputs_same_bytes(tmp_path: Path) -> None:
    a = export_dice(tmp_path / "a", "g", "dice", "G - Dice", 6, 3, "roll")[0]
    b = export_dice(tmp_path / "b", "g", "dice", "G - Dice", 6, 3, "roll")[0]
    assert a.read_bytes() == b.read_bytes()
    assert [d["Description"] for d in _objects(a)] == ["roll"] * 3


def test_a_die_tts_lacks_is_one_line_and_writes_nothing(tmp_path: Path) -> None:
    with pytest.raises(PnpError) as err:
        export_dice(tmp_path / "x", "g", "dice", "G - Dice", 7, 2)
    assert "no standard die with 7 sides" in str(err.value)
    assert "\n" not in str(err.value)
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("obj, ok", [
    ({"Name": "Die_6"}, True),
    ({"Name": "Die_7"}, False),
    ({"Name": "Custom_Dice"}, False),
    ({"Name": "Custom_Dice", "CustomImage": {"ImageURL": "https://example.org/d.png"}}, True),
])
def test_preflight_checks_die_objects(tmp_path: Path, obj: dict[str, Any], ok: bool) -> None:
    path = tmp_path / "save.json"
    path.write_text(json.dumps({"ObjectStates": [obj]}), encoding="utf-8")
    (report,) = preflight_files([path])
    objects = next(c for c in report.checks if c.name == "objects")
    assert objects.ok is ok, objects.detail
