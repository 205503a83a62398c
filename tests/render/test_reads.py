"""pnp.render.reads: the files a piece of work opened, for keys that follow what was read."""

from __future__ import annotations

import os
from pathlib import Path

from pnp.render.reads import note_read, recording


def test_every_kind_of_open_and_noted_reads_are_recorded(tmp_path: Path) -> None:
    """open, Path.read_bytes and os.open count; note_read too; nothing outside the block."""
    files = [tmp_path / f"f{i}" for i in range(5)]
    for f in files:
        f.write_text("x", encoding="utf-8")
    files[4].read_bytes()                               # before: not recorded
    with recording() as outer:
        with open(files[0], encoding="utf-8") as handle:
            handle.read()
        with recording() as inner:                      # nested: both see what is inside
            files[1].read_bytes()
            os.close(os.open(files[2], os.O_RDONLY))
        note_read(files[3])
    files[4].read_bytes()                               # after: not recorded
    assert {str(f) for f in files[:4]} <= outer
    assert str(files[4]) not in outer
    assert {str(files[1]), str(files[2])} <= inner and str(files[0]) not in inner
    assert str(files[3]) not in inner


def test_two_equal_recordings_end_each_their_own(tmp_path: Path) -> None:
    """Ending the inner of two recordings that hold equal sets leaves the outer running."""
    f = tmp_path / "f"
    f.write_text("x", encoding="utf-8")
    with recording() as outer:
        with recording():
            pass                                        # both empty: equal sets
        f.read_bytes()
    assert str(f) in outer
