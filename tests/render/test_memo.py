"""pnp.render.memo.BoundedMemo, and the renderer's tables bounded by bytes with it."""

from __future__ import annotations

from typing import Any, Callable

import pytest

from pnp.render import draw, markup, pathdata
from pnp.render.memo import OP_BYTES, BoundedMemo, ops_bytes


def test_an_entry_count_limit_forgets_all_at_once() -> None:
    """Without a size function the limit counts entries; past it the table starts again."""
    memo: BoundedMemo[int, str] = BoundedMemo(3)
    for n in range(3):
        assert memo.put(n, str(n)) == str(n)
    assert len(memo) == 3 and memo.get(0) == "0"
    memo.put(3, "3")
    assert len(memo) == 1 and 3 in memo and memo.get(0) is None


def test_a_size_limit_counts_what_each_entry_costs() -> None:
    """With ``size_of`` the limit is a sum of estimates: two big entries do not fit."""
    memo: BoundedMemo[str, str] = BoundedMemo(100, lambda key, value: len(value))
    memo.put("a", "x" * 60)
    memo.put("b", "x" * 30)
    assert len(memo) == 2 and memo.used == 90
    memo.put("c", "x" * 20)                      # 110 > 100: forget all, then keep c
    assert list(memo.data) == ["c"] and memo.used == 20
    get = memo.get
    memo.clear()
    memo.put("d", "y")
    assert get("d") == "y"                       # ``get`` stays bound to the live table


def test_ops_bytes_grows_with_the_path() -> None:
    """A path's estimate is per operator (the long paths are what filled memory)."""
    short = (("M", 0.0, 0.0), ("L", 1.0, 1.0))
    assert ops_bytes(short * 50) - ops_bytes(short) == 98 * OP_BYTES


def _long_path(seed: int, segments: int = 100) -> str:
    """A distinct path of ``segments`` line segments."""
    return "M 1 1 " + " ".join(f"L {1 + (seed + j) % 60}.{j % 10} {1 + j % 80}.{seed % 997}"
                               for j in range(segments)) + " Z"


def test_long_distinct_paths_stay_within_the_byte_limits(card: Callable[..., Any],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Cards of long distinct paths: every table holding paths stays under its limit."""
    tables = {"parsed": (markup, "_PARSED"), "seen": (markup, "_SHAPES_SEEN"),
              "paths": (draw, "_PATHS"), "by_id": (draw, "_PATHS_BY_ID"),
              "text": (pathdata, "_PATHS_PARSED")}
    small = 60 * ops_bytes(range(101))           # room for about 60 such paths each
    for module, name in tables.values():
        old = getattr(module, name)
        monkeypatch.setattr(module, name, BoundedMemo(small, old.size_of))
    for i in range(40):
        layout = card("".join(f'<path d="{_long_path(i * 8 + k)}" stroke="#000"/>'
                              for k in range(8)))
        for node in layout.nodes:
            draw.path_code(node.ops)
    for label, (module, name) in tables.items():
        memo = getattr(module, name)
        assert 0 < memo.used <= small, label
        assert len(memo) < 320, label            # 320 paths went in: some were forgotten
