"""benchmarks/edit_loop.py --baseline: this checkout's code and the baseline take turns first."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from pnp import PROJECT_ROOT


def test_the_order_of_the_two_codes_turns_every_round() -> None:
    """Round 0: current then baseline; round 1: baseline then current; and so on."""
    spec = importlib.util.spec_from_file_location(
        "edit_loop_bench", PROJECT_ROOT / "benchmarks" / "edit_loop.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    codes = [("", Path("now")), (" (baseline)", Path("old"))]
    firsts = [bench.in_turn(codes, i)[0][0] for i in range(4)]
    assert firsts == [0, 1, 0, 1]
    assert sorted(bench.in_turn(codes, 1)) == list(enumerate(codes))   # each code once
    assert bench.in_turn(codes[:1], 1) == [(0, codes[0])]
