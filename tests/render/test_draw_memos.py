"""Per-process memos of drawing and layout: the same output, found without recomputing."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.render import draw
from pnp.render.layout import render_layout
from pnp.render.memo import BoundedMemo


def test_path_code_by_identity_and_by_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """A shared ops tuple is answered by identity; an equal copy gets the same text."""
    monkeypatch.setattr(draw, "_PATHS", BoundedMemo(draw._PATHS.limit, draw._PATHS.size_of))
    monkeypatch.setattr(draw, "_PATHS_BY_ID", BoundedMemo(draw._PATHS_BY_ID.limit,
                                                          draw._PATHS_BY_ID.size_of))
    made: list[int] = []
    real = draw._path_code

    def spy(ops: draw.Ops) -> str:
        made.append(len(ops))
        return real(ops)

    monkeypatch.setattr(draw, "_path_code", spy)
    ops = (("M", 0.0, 0.0), ("L", 10.5, 0.0), ("C", 1.0, 2.0, 3.0, 4.0, 5.0, 6.25), ("Z",))
    first = draw.path_code(ops)
    assert first == "0 0 m 10.5 0 l 1 2 3 4 5 6.25 c h"
    assert draw.path_code(ops) == first
    copy = tuple(tuple(op) for op in ops)
    assert copy is not ops and draw.path_code(copy) == first
    assert made == [4]                                   # formatted once
    other = (("M", 1.0, 1.0), ("L", 2.0, 2.0))
    assert draw.path_code(other) == "1 1 m 2 2 l"
    assert draw._PATHS_BY_ID.data[id(other)][0] is other       # the entry holds its tuple


def test_icon_folders_are_per_template(templates: Path, env) -> None:
    """Each template's icon folders are worked out once and are its own game's."""
    (templates / "test" / "icons" / "dot.svg").write_text(
        '<svg viewBox="0 0 10 10"><circle cx="5" cy="5" r="4"/></svg>', encoding="utf-8")
    (templates / "other" / "icons").mkdir(parents=True)
    (templates / "other" / "icons" / "dot.svg").write_text(
        '<svg viewBox="0 0 10 10"><rect x="0" y="0" width="10" height="10"/></svg>',
        encoding="utf-8")
    body = '<card width="63mm" height="88mm"><icon name="dot" x="1" y="1" width="{{ w }}" ' \
           'height="5"/></card>'
    for game in ("test", "other"):
        (templates / game / "face.xml.j2").write_text(body, encoding="utf-8")
    mine = [render_layout(env, "test/face.xml.j2", {"w": w}, where="t") for w in (5, 6)]
    theirs = render_layout(env, "other/face.xml.j2", {"w": 5}, where="o")
    assert env.icon_folders["test/face.xml.j2"][1] == ("test/icons", "common/icons")
    assert env.icon_folders["other/face.xml.j2"][1] == ("other/icons", "common/icons")
    assert mine[0].icons[0].icon is mine[1].icons[0].icon
    assert mine[0].icons[0].icon.path.parent.parent.name == "test"
    assert theirs.icons[0].icon.path.parent.parent.name == "other"
    assert theirs.key != mine[0].key             # same markup, other icon folders


def test_an_entry_under_a_reused_id_is_not_another_paths(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """An id entry whose tuple is not the one asked about is ignored (ids are reused)."""
    monkeypatch.setattr(draw, "_PATHS", BoundedMemo(draw._PATHS.limit, draw._PATHS.size_of))
    monkeypatch.setattr(draw, "_PATHS_BY_ID", BoundedMemo(draw._PATHS_BY_ID.limit,
                                                          draw._PATHS_BY_ID.size_of))
    ops = (("M", 0.0, 0.0), ("L", 3.0, 4.0))
    stale = (("M", 9.0, 9.0), ("L", 8.0, 8.0))
    # what the table would hold had a freed tuple once had ops's id
    draw._PATHS_BY_ID.data[id(ops)] = (stale, "9 9 m 8 8 l")
    assert draw.path_code(ops) == "0 0 m 3 4 l"
    assert draw._PATHS_BY_ID.data[id(ops)][0] is ops      # and the entry is now its own
