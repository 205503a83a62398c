"""Multi-file exports are moved in whole or not at all (pnp.printing.staging), without rendering."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pnp.printing.preflight import expand_paths
from pnp.printing.staging import STAGE_PREFIX, staged_files


def test_files_move_in_together(tmp_path: Path) -> None:
    """While the block runs the folder holds nothing new; after it, every file, no stage."""
    with staged_files(tmp_path, "deck") as stage:
        for name in ("deck-faces-1.png", "deck.json"):
            stage(tmp_path / name).write_text(name)
            assert not (tmp_path / name).exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck-faces-1.png", "deck.json"]


@pytest.mark.parametrize("stop", [KeyboardInterrupt, OSError])
def test_a_stopped_export_leaves_the_old_one(tmp_path: Path, stop: type[BaseException]) -> None:
    """Ctrl-C or an error half-way: the previous files stay as they were, no stage left."""
    (tmp_path / "deck-faces-1.png").write_text("old image")
    (tmp_path / "deck.json").write_text("old object")
    with pytest.raises(stop):
        with staged_files(tmp_path, "deck") as stage:
            stage(tmp_path / "deck-faces-1.png").write_text("new image")
            raise stop()
    assert (tmp_path / "deck-faces-1.png").read_text() == "old image"
    assert (tmp_path / "deck.json").read_text() == "old object"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck-faces-1.png", "deck.json"]


def test_a_killed_runs_stage_is_cleared_and_left_out_of_preflight(tmp_path: Path) -> None:
    """A stage a killed run left is not checked by preflight and goes on the next export."""
    left = tmp_path / f"{STAGE_PREFIX}deck"
    left.mkdir()
    (left / "deck-faces-1.png").write_bytes(b"\x89PNG half")
    (left / "deck.json").write_text(json.dumps({"ObjectStates": []}))
    (tmp_path / "sheet.pdf").write_bytes(b"%PDF-1.4")
    assert expand_paths([tmp_path]) == [tmp_path / "sheet.pdf"]
    (tmp_path / "sheet.pdf").unlink()
    with staged_files(tmp_path, "deck") as stage:
        stage(tmp_path / "deck.json").write_text("{}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.json"]
