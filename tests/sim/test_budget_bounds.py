"""``--budgets`` and ``--sweep`` ranges are checked before any loop over the numbers.

``--budgets 0:4`` once doubled 0 forever (memory filled until the host's
OOM killer fired): the parser is run here under a line-count bound (a trace
function stops it after a fixed number of executed lines), so a loop that
never ends fails the test instead of hanging it. No timing is involved.
"""

from __future__ import annotations

import sys
from types import FrameType
from typing import Any, Callable

import pytest

from pnp.errors import PnpError
from pnp.games.search import MAX_BUDGET
from pnp.sim import _parse_budgets
from pnp.sim.sweep import parse_sweep

#: Lines any honest parse of a short spec executes, with a wide margin.
LINE_BOUND = 20_000


class Runaway(Exception):
    """The parser ran more lines than any finite parse of the spec needs."""


def bounded(func: Callable[[Any], Any], arg: Any) -> Any:
    """Call ``func(arg)``, raising :class:`Runaway` after :data:`LINE_BOUND` lines."""
    count = 0

    def trace(frame: FrameType, event: str, _arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
            if count > LINE_BOUND:
                raise Runaway(f"{func.__name__}({arg!r}) ran over {LINE_BOUND} lines")
        return trace

    sys.settrace(trace)
    try:
        return func(arg)
    finally:
        sys.settrace(None)


@pytest.mark.parametrize("spec", ["0:4", "-4:4", "0:0", "-1:-1", "0:100000", "-8:0",
                                  f"1:{MAX_BUDGET + 1}", f"1:{10 ** 30}", "5:3", "0,4",
                                  "8,8", "16,8", "1:1"])
def test_bad_budgets_fail_in_one_line_before_looping(spec: str) -> None:
    """LO ≤ 0 (which doubling never grows), LO > HI, HI beyond MAX_BUDGET: one line."""
    with pytest.raises(PnpError) as err:
        bounded(_parse_budgets, spec)
    assert "\n" not in err.value.message and spec in err.value.message
    assert f"1–{MAX_BUDGET}" in err.value.message


@pytest.mark.parametrize("spec, expected", [("8:256", [8, 16, 32, 64, 128, 256]),
                                            ("1:2", [1, 2]), ("3:100", [3, 6, 12, 24, 48, 96]),
                                            (f"{MAX_BUDGET // 2}:{MAX_BUDGET}",
                                             [MAX_BUDGET // 2, MAX_BUDGET]),
                                            ("8,16,32", [8, 16, 32])])
def test_good_budgets_double_up_to_hi(spec: str, expected: list[int]) -> None:
    """The doubling stops at the last value ≤ HI, HI itself included when reached."""
    assert bounded(_parse_budgets, spec) == expected


@pytest.mark.parametrize("spec", ["n=1:5:0", "n=1:5:-1", "n=5:1:1", "n=1:5:-0.0",
                                  "n=0:1:1e-300", "n=1:1e300:1"])
def test_sweep_ranges_with_no_step_forward_fail(spec: str) -> None:
    """A --sweep range with STEP ≤ 0, HI < LO or far too many values fails in one line."""
    with pytest.raises(PnpError) as err:
        bounded(parse_sweep, spec)
    assert "\n" not in err.value.message
