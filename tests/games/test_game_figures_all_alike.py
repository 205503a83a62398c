"""A game's own means over values all alike have no interval in the JSON either.

The report's text says "[all alike: no interval]" for such a mean; its
JSON wrote low = high = mean, which reads as a certain figure (issue 13).
"""

from __future__ import annotations

from pnp.games.episode2.stats import _hist_mean
from pnp.games.stats import key_figure, mean_bounds, span_text
from pnp.games.undecim.stats import _mean as undecim_mean


def test_mean_bounds_null_only_without_width() -> None:
    """Equal bounds give None; a real interval is kept, rounded."""
    assert mean_bounds(3.0, 3.0, 3.0) == (None, None)
    assert mean_bounds(3.0, 2.1234567, 3.9) == (2.123457, 3.9)


def test_episode2_spoils_all_alike_is_null() -> None:
    """Five runs that all took one boss: no bounds; two values: bounds."""
    same = _hist_mean([0, 5])
    assert same["mean"] == 1.0 and same["low"] is None and same["high"] is None
    spread = _hist_mean([2, 3])
    assert spread["low"] is not None and spread["high"] is not None
    assert spread["low"] < spread["mean"] < spread["high"]


def test_undecim_vp_all_alike_is_null() -> None:
    """An action card played 3 times, 4 VP each time: no bounds; none played: none."""
    same = undecim_mean(12.0, 48.0, 3)
    assert same["low"] is None and same["high"] is None and same["mean"] == 4.0
    assert undecim_mean(0.0, 0.0, 0)["low"] is None


def test_null_bounds_read_as_no_interval() -> None:
    """The text and the sweep's key figure treat null bounds as no interval."""
    assert span_text(4.0, None, None) == "[all alike: no interval]"
    assert span_text(4.0, 3.0, 5.0) == "[3.00–5.00]"
    assert key_figure("mean_spoils", 4.0, None, None) == ("mean_spoils", 4.0, 4.0, 4.0)
    assert key_figure("mean_spoils", 4.0, 3.0, 5.0) == ("mean_spoils", 4.0, 3.0, 5.0)
