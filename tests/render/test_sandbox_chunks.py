"""render_bounded checks the time once per CHUNKS_PER_CHECK chunks of output.

A template without loops, calls or attribute lookups reaches no other time
check; its chunks are bounded by its length, but a long one still stops.
"""

from __future__ import annotations

import time

import jinja2
import pytest

from pnp.errors import PnpError
from pnp.render import sandbox


def test_chunks_per_check_is_a_power_of_two() -> None:
    """The check masks the chunk count, which needs a power of two."""
    n = sandbox.CHUNKS_PER_CHECK
    assert n > 1 and n & (n - 1) == 0


def test_bounded_concat_refuses_a_check_interval_that_is_not_a_power_of_two() -> None:
    """A mask of 255 chunks would check at the wrong counts: refused."""
    with pytest.raises(ValueError, match="power of two"):
        sandbox.bounded_concat(["a"], 255)


def _render_past_deadline(monkeypatch: pytest.MonkeyPatch, chunks: int) -> str:
    """Render a template of about ``chunks`` chunks with the time already used up."""
    template = jinja2.Environment().from_string("{{ x }}." * (chunks // 2))
    # an outer budget already past its deadline (render_bounded leaves it in charge)
    monkeypatch.setattr(sandbox._deadline, "at", time.monotonic() - 1.0)
    try:
        return sandbox.render_bounded(template, {"x": "a"})
    finally:
        sandbox._deadline.at = None


def test_a_long_template_without_loops_stops_at_a_chunk_check(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Many chunks, no loop, call or lookup: the chunk check alone stops it."""
    with pytest.raises(PnpError, match="longer than"):
        _render_past_deadline(monkeypatch, 4 * sandbox.CHUNKS_PER_CHECK)


def test_fewer_chunks_than_one_check_reach_no_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """Below CHUNKS_PER_CHECK chunks nothing checks (what bounds this one's time: its length)."""
    text = _render_past_deadline(monkeypatch, sandbox.CHUNKS_PER_CHECK - 2)
    assert text == "a." * ((sandbox.CHUNKS_PER_CHECK - 2) // 2)
