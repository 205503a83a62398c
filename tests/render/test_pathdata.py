"""SVG path-data parser: known coordinates for every command."""

from __future__ import annotations

import math

import pytest

from pnp.errors import PnpError
from pnp.render.pathdata import parse_path, rotation, multiply


def close(a: tuple, b: tuple, tol: float = 1e-6) -> bool:
    """Return True if two ops match (same letter, coordinates within tol)."""
    return a[0] == b[0] and len(a) == len(b) and all(
        abs(x - y) <= tol for x, y in zip(a[1:], b[1:]))


def bezier(p0: tuple[float, float], op: tuple, t: float) -> tuple[float, float]:
    """Evaluate a cubic ("C", x1, y1, x2, y2, x, y) starting at p0."""
    x1, y1, x2, y2, x3, y3 = op[1:]
    u = 1 - t
    x = u ** 3 * p0[0] + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t ** 3 * x3
    y = u ** 3 * p0[1] + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t ** 3 * y3
    return x, y


def test_absolute_lines_and_close() -> None:
    ops = parse_path("M10 20 L30 40 H50 V60 Z")
    assert ops == (("M", 10, 20), ("L", 30, 40), ("L", 50, 40), ("L", 50, 60), ("Z",))


def test_relative_commands_accumulate() -> None:
    ops = parse_path("m10 20 l5 5 h10 v-5 z m1 1 l1 0")
    assert ops[:5] == (("M", 10, 20), ("L", 15, 25), ("L", 25, 25), ("L", 25, 20), ("Z",))
    # after z the current point is the subpath start (10, 20)
    assert ops[5] == ("M", 11, 21)
    assert ops[6] == ("L", 12, 21)


def test_implicit_lineto_and_compact_numbers() -> None:
    assert parse_path("M0 0 10 10 20 0") == (("M", 0, 0), ("L", 10, 10), ("L", 20, 0))
    assert parse_path("M0,0L.5.5-1e1-2") == (("M", 0, 0), ("L", 0.5, 0.5), ("L", -10, -2))
    assert parse_path("m1 1 2 2") == (("M", 1, 1), ("L", 3, 3))


def test_smooth_cubic_reflects_control_point() -> None:
    ops = parse_path("M0 0 C0 10 10 10 10 0 S20 -10 20 0")
    assert close(ops[2], ("C", 10, -10, 20, -10, 20, 0))


def test_quadratic_and_smooth_quadratic_become_cubics() -> None:
    ops = parse_path("M0 0 Q10 10 20 0 T40 0")
    assert close(ops[1], ("C", 20 / 3, 20 / 3, 40 / 3, 20 / 3, 20, 0))
    # T reflects the control point (10,10) about (20,0) -> (30,-10)
    assert close(ops[2], ("C", 20 + 20 / 3, -20 / 3, 40 - 20 / 3, -20 / 3, 40, 0))


def test_arc_semicircle_points_lie_on_the_circle() -> None:
    ops = parse_path("M0 0 A10 10 0 0 1 20 0")
    assert [op[0] for op in ops] == ["M", "C", "C"]
    # sweep=1 in y-down space goes through the top point (10, -10)
    assert abs(ops[1][5] - 10) < 1e-9 and abs(ops[1][6] + 10) < 1e-9
    assert ops[2][5:] == (20, 0)
    p0 = (0.0, 0.0)
    for op in ops[1:]:
        for t in (0.25, 0.5, 0.75):
            x, y = bezier(p0, op, t)
            assert abs(math.hypot(x - 10, y) - 10) < 0.01
        p0 = (op[5], op[6])


def test_relative_arc_with_packed_flags() -> None:
    ops = parse_path("M0 0 a10 10 0 0020 0")
    # sweep=0: the other half, through (10, 10)
    assert abs(ops[1][5] - 10) < 1e-9 and abs(ops[1][6] - 10) < 1e-9
    assert ops[-1][5:] == (20, 0)


def test_large_arc_flag_takes_the_long_way() -> None:
    small = parse_path("M0 0 A10 10 0 0 1 10 10")
    large = parse_path("M0 0 A10 10 0 1 1 10 10")
    assert len(small) - 1 == 1      # a quarter circle: one Bézier
    assert len(large) - 1 == 3      # three quarters: three Béziers


def test_arc_radius_too_small_is_scaled_up() -> None:
    ops = parse_path("M0 0 A1 1 0 0 1 20 0")
    assert abs(ops[1][6] + 10) < 1e-9     # scaled to radius 10


@pytest.mark.parametrize("bad", ["L 1 2", "M0 0 X3", "M0 0 L1", "M0 0 A1 1 0 2 1 3 3"])
def test_bad_path_data_is_a_pnp_error(bad: str) -> None:
    with pytest.raises(PnpError, match="path data"):
        parse_path(bad)


def test_rotation_about_a_point() -> None:
    m = rotation(90, 10, 10)
    a, b, c, d, e, f = m
    x, y = 20, 10
    assert abs(a * x + c * y + e - 10) < 1e-9 and abs(b * x + d * y + f - 20) < 1e-9
    assert multiply((1, 0, 0, 1, 5, 0), (2, 0, 0, 2, 0, 0)) == (2, 0, 0, 2, 5, 0)
