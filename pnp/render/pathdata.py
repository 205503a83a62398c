"""SVG path data (``d=``) and geometry helpers: everything becomes M/L/C/Z.

Path operations are tuples in absolute coordinates:
``("M", x, y)``, ``("L", x, y)``, ``("C", x1, y1, x2, y2, x, y)``, ``("Z",)``.
Quadratic curves and elliptical arcs are converted to cubic Béziers so the
drawing code has only one curve type to emit.
"""

from __future__ import annotations

import math

from pnp.errors import PnpError
from pnp.render.memo import BoundedMemo, ops_bytes

#: One path operation (see module docstring).
Op = tuple
#: A whole path.
Ops = tuple[Op, ...]
#: An affine matrix (a, b, c, d, e, f) as in PDF and SVG.
Matrix = tuple[float, float, float, float, float, float]

IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
#: Bézier handle length for a quarter circle of radius 1.
KAPPA = 0.5522847498307936

#: The largest coordinate a path may reach (mm on a card, viewBox units in an
#: icon): far beyond any card, and far inside what a PDF reader takes (its
#: reals stop near 3.4e38, and 1e400 or nan written there breaks the file).
MAX_COORD = 1_000_000.0

_CMD_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}
_NUM_START = set("+-.0123456789")


def brief(text: str, limit: int = 60) -> str:
    """``text`` quoted for a one-line message, cut short when it is long (path data can be)."""
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit]) + f"… ({len(text)} characters)"


def within(v: float, limit: float = MAX_COORD) -> bool:
    """Whether ``v`` lies from ``-limit`` to ``limit`` (False for nan and the infinities).

    The one range check of coordinates (path data, lengths, numbers,
    transforms, viewBoxes); :func:`coord_range` words it for messages.
    """
    return -limit <= v <= limit


def coord_range(limit: float = MAX_COORD, unit: str = "") -> str:
    """The range :func:`within` accepts, for a message: ``between -1000000 and 1000000``."""
    return f"between {-limit:.0f} and {limit:.0f}{unit}"


def check_coords(ops: Ops, d: str) -> Ops:
    """``ops``, or a PnpError when a coordinate is not finite or beyond :data:`MAX_COORD`."""
    for op in ops:
        for v in op[1:]:
            if not within(v):
                raise PnpError(f"bad path data {brief(d)}: a coordinate reaches {v:g}; "
                               f"expected numbers {coord_range()}")
    return ops


class _Scanner:
    """Tokenises path data by hand (arc flags may be written without separators)."""

    __slots__ = ("s", "i", "n")

    def __init__(self, s: str) -> None:
        self.s = s
        self.i = 0
        self.n = len(s)

    def skip(self) -> None:
        """Skip whitespace and commas."""
        s, n = self.s, self.n
        while self.i < n and s[self.i] in " \t\r\n,":
            self.i += 1

    def at_number(self) -> bool:
        """Return True if a number starts at the cursor (after separators)."""
        self.skip()
        return self.i < self.n and self.s[self.i] in _NUM_START

    def number(self) -> float:
        """Read one number."""
        self.skip()
        s, n, start = self.s, self.n, self.i
        j = start
        if j < n and s[j] in "+-":
            j += 1
        digits = False
        while j < n and s[j].isdigit():
            j += 1
            digits = True
        if j < n and s[j] == ".":
            j += 1
            while j < n and s[j].isdigit():
                j += 1
                digits = True
        if not digits:
            raise PnpError(f"bad path data {brief(self.s)}: expected a number at "
                           f"position {start}")
        if j < n and s[j] in "eE":
            k = j + 1
            if k < n and s[k] in "+-":
                k += 1
            if k < n and s[k].isdigit():
                while k < n and s[k].isdigit():
                    k += 1
                j = k
        self.i = j
        return float(s[start:j])

    def flag(self) -> float:
        """Read an arc flag: a single 0 or 1."""
        self.skip()
        if self.i < self.n and self.s[self.i] in "01":
            self.i += 1
            return float(self.s[self.i - 1])
        raise PnpError(f"bad path data {brief(self.s)}: expected an arc flag 0 or 1 "
                       f"at position {self.i}")


def _arc_to_beziers(x1: float, y1: float, rx: float, ry: float, phi_deg: float,
                    large: bool, sweep: bool, x2: float, y2: float) -> list[Op]:
    """Convert an SVG endpoint arc to cubic Béziers (SVG spec F.6.5/F.6.6)."""
    if (x1 == x2 and y1 == y2):
        return []
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0:
        return [("L", x2, y2)]
    phi = math.radians(phi_deg % 360.0)
    cos_p, sin_p = math.cos(phi), math.sin(phi)
    dx, dy = (x1 - x2) / 2.0, (y1 - y2) / 2.0
    x1p = cos_p * dx + sin_p * dy
    y1p = -sin_p * dx + cos_p * dy
    lam = (x1p * x1p) / (rx * rx) + (y1p * y1p) / (ry * ry)
    if lam > 1:  # radii too small: scale up (SVG F.6.6)
        s = math.sqrt(lam)
        rx, ry = rx * s, ry * s
    num = rx * rx * ry * ry - rx * rx * y1p * y1p - ry * ry * x1p * x1p
    den = rx * rx * y1p * y1p + ry * ry * x1p * x1p
    coef = math.sqrt(max(0.0, num / den)) if den else 0.0
    if large == sweep:
        coef = -coef
    cxp = coef * rx * y1p / ry
    cyp = -coef * ry * x1p / rx
    cx = cos_p * cxp - sin_p * cyp + (x1 + x2) / 2.0
    cy = sin_p * cxp + cos_p * cyp + (y1 + y2) / 2.0

    def angle(ux: float, uy: float, vx: float, vy: float) -> float:
        """Return the signed angle from vector u to vector v."""
        return math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)

    t1 = angle(1.0, 0.0, (x1p - cxp) / rx, (y1p - cyp) / ry)
    dt = angle((x1p - cxp) / rx, (y1p - cyp) / ry, (-x1p - cxp) / rx, (-y1p - cyp) / ry)
    if not sweep and dt > 0:
        dt -= 2 * math.pi
    elif sweep and dt < 0:
        dt += 2 * math.pi
    segments = max(1, math.ceil(abs(dt) / (math.pi / 2) - 1e-9))
    delta = dt / segments
    k = 4.0 / 3.0 * math.tan(delta / 4.0)
    ops: list[Op] = []
    t = t1
    for _ in range(segments):
        c1, s1 = math.cos(t), math.sin(t)
        c2, s2 = math.cos(t + delta), math.sin(t + delta)
        # unit-circle control points, then scale by radii, rotate, translate
        pts = ((c1 - k * s1, s1 + k * c1), (c2 + k * s2, s2 - k * c2), (c2, s2))
        out: list[float] = []
        for ux, uy in pts:
            ex, ey = ux * rx, uy * ry
            out.append(cos_p * ex - sin_p * ey + cx)
            out.append(sin_p * ex + cos_p * ey + cy)
        ops.append(("C", *out))
        t += delta
    # land exactly on the requested end point (no drift from trigonometry)
    last = ops[-1]
    ops[-1] = (last[0], last[1], last[2], last[3], last[4], x2, y2)
    return ops


#: Parsed path data by its text: icons and frames recur. Bounded by an estimate
#: of bytes, not entries: 8,192 long distinct paths (2,500 cards of
#: hundred-segment paths) kept over 100 MB.
_PATHS_PARSED: BoundedMemo[str, Ops] = BoundedMemo(
    4 * 2**20, lambda d, ops: ops_bytes(ops) + len(d))


def parse_path(d: str) -> Ops:
    """Parse SVG path data into absolute M/L/C/Z operations (remembered, bounded).

    Supports M L H V C S Q T A Z in absolute and relative forms, implicit
    repeated commands, and compact number syntax (``1-2``, ``.5.5``).
    """
    hit = _PATHS_PARSED.get(d)
    return hit if hit is not None else _PATHS_PARSED.put(d, _parse_path(d))


def _parse_path(d: str) -> Ops:
    """:func:`parse_path` without the memo (errors are never remembered)."""
    sc = _Scanner(d)
    ops: list[Op] = []
    cx = cy = 0.0          # current point
    sx = sy = 0.0          # start of current subpath
    last_c2: tuple[float, float] | None = None   # last cubic control point (for S)
    last_q: tuple[float, float] | None = None    # last quadratic control (for T)
    cmd = ""
    while True:
        sc.skip()
        if sc.i >= sc.n:
            break
        ch = d[sc.i]
        if ch.isalpha():
            if ch.upper() not in _CMD_ARGS:
                raise PnpError(f"bad path data {brief(d)}: unknown command {ch!r}")
            cmd = ch
            sc.i += 1
        elif not cmd:
            raise PnpError(f"bad path data {brief(d)}: must start with a command (M)")
        elif cmd in "Zz":
            raise PnpError(f"bad path data {brief(d)}: numbers after Z")
        up = cmd.upper()
        rel = cmd.islower()
        if up == "Z":
            ops.append(("Z",))
            cx, cy = sx, sy
            last_c2 = last_q = None
            continue
        if not sc.at_number():
            raise PnpError(f"bad path data {brief(d)}: command {cmd!r} needs "
                           f"{_CMD_ARGS[up]} numbers")
        ox, oy = (cx, cy) if rel else (0.0, 0.0)
        if up == "M":
            x, y = sc.number() + ox, sc.number() + oy
            ops.append(("M", x, y))
            cx, cy = sx, sy = x, y
            cmd = "l" if rel else "L"   # further pairs are implicit line-tos
            last_c2 = last_q = None
        elif up == "L":
            cx, cy = sc.number() + ox, sc.number() + oy
            ops.append(("L", cx, cy))
            last_c2 = last_q = None
        elif up == "H":
            cx = sc.number() + ox
            ops.append(("L", cx, cy))
            last_c2 = last_q = None
        elif up == "V":
            cy = sc.number() + oy
            ops.append(("L", cx, cy))
            last_c2 = last_q = None
        elif up == "C":
            x1, y1 = sc.number() + ox, sc.number() + oy
            x2, y2 = sc.number() + ox, sc.number() + oy
            cx, cy = sc.number() + ox, sc.number() + oy
            ops.append(("C", x1, y1, x2, y2, cx, cy))
            last_c2, last_q = (x2, y2), None
        elif up == "S":
            x1, y1 = (2 * cx - last_c2[0], 2 * cy - last_c2[1]) if last_c2 else (cx, cy)
            x2, y2 = sc.number() + ox, sc.number() + oy
            cx, cy = sc.number() + ox, sc.number() + oy
            ops.append(("C", x1, y1, x2, y2, cx, cy))
            last_c2, last_q = (x2, y2), None
        elif up in "QT":
            if up == "Q":
                qx, qy = sc.number() + ox, sc.number() + oy
            else:
                qx, qy = (2 * cx - last_q[0], 2 * cy - last_q[1]) if last_q else (cx, cy)
            x, y = sc.number() + ox, sc.number() + oy
            ops.append(("C", cx + 2.0 / 3.0 * (qx - cx), cy + 2.0 / 3.0 * (qy - cy),
                        x + 2.0 / 3.0 * (qx - x), y + 2.0 / 3.0 * (qy - y), x, y))
            cx, cy = x, y
            last_c2, last_q = None, (qx, qy)
        else:  # A
            rx, ry, rot = sc.number(), sc.number(), sc.number()
            large, sweep = sc.flag(), sc.flag()
            x, y = sc.number() + ox, sc.number() + oy
            ops.extend(_arc_to_beziers(cx, cy, rx, ry, rot, bool(large), bool(sweep), x, y))
            cx, cy = x, y
            last_c2 = last_q = None
    if ops and ops[0][0] != "M":
        raise PnpError(f"bad path data {brief(d)}: must start with M")
    return check_coords(tuple(ops), d)


def scale_ops(ops: Ops, k: float) -> Ops:
    """Return ``ops`` with every coordinate multiplied by ``k``."""
    if k == 1.0:
        return ops
    return tuple((op[0], *(v * k for v in op[1:])) for op in ops)


def rect_ops(x: float, y: float, w: float, h: float, rx: float = 0.0, ry: float = 0.0) -> Ops:
    """Return a rectangle (optionally with rounded corners) as path ops."""
    rx = max(0.0, min(rx, w / 2.0))
    ry = max(0.0, min(ry, h / 2.0))
    if rx == 0 or ry == 0:
        return (("M", x, y), ("L", x + w, y), ("L", x + w, y + h), ("L", x, y + h), ("Z",))
    kx, ky = rx * KAPPA, ry * KAPPA
    r, b = x + w, y + h
    return (
        ("M", x + rx, y), ("L", r - rx, y),
        ("C", r - rx + kx, y, r, y + ry - ky, r, y + ry), ("L", r, b - ry),
        ("C", r, b - ry + ky, r - rx + kx, b, r - rx, b), ("L", x + rx, b),
        ("C", x + rx - kx, b, x, b - ry + ky, x, b - ry), ("L", x, y + ry),
        ("C", x, y + ry - ky, x + rx - kx, y, x + rx, y), ("Z",),
    )


def ellipse_ops(cx: float, cy: float, rx: float, ry: float) -> Ops:
    """Return an ellipse as four cubic Béziers."""
    kx, ky = rx * KAPPA, ry * KAPPA
    return (
        ("M", cx + rx, cy),
        ("C", cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry),
        ("C", cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy),
        ("C", cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry),
        ("C", cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy),
        ("Z",),
    )


def poly_ops(points: list[float], closed: bool) -> Ops:
    """Return a polyline/polygon through ``points`` (flat x, y list)."""
    ops: list[Op] = [("M", points[0], points[1])]
    for i in range(2, len(points) - 1, 2):
        ops.append(("L", points[i], points[i + 1]))
    if closed:
        ops.append(("Z",))
    return tuple(ops)


def bbox(ops: Ops) -> tuple[float, float, float, float]:
    """Return (x0, y0, x1, y1) covering every point and control point."""
    xs: list[float] = []
    ys: list[float] = []
    for op in ops:
        xs.extend(op[1::2])
        ys.extend(op[2::2])
    if not xs:
        return (0.0, 0.0, 0.0, 0.0)
    return (min(xs), min(ys), max(xs), max(ys))


def multiply(m: Matrix, n: Matrix) -> Matrix:
    """Return the matrix that applies ``n`` first, then ``m`` (PDF order m·n)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + c * b2, b * a2 + d * b2,
            a * c2 + c * d2, b * c2 + d * d2,
            a * e2 + c * f2 + e, b * e2 + d * f2 + f)


def rotation(deg: float, cx: float = 0.0, cy: float = 0.0) -> Matrix:
    """Return a rotation by ``deg`` degrees about (cx, cy); positive turns
    clockwise on the card because y points down (as in SVG)."""
    r = math.radians(deg)
    co, si = math.cos(r), math.sin(r)
    if abs(co) < 1e-12:
        co = 0.0
    if abs(si) < 1e-12:
        si = 0.0
    m = (co, si, -si, co, 0.0, 0.0)
    if cx or cy:
        m = multiply(multiply((1.0, 0.0, 0.0, 1.0, cx, cy), m), (1.0, 0.0, 0.0, 1.0, -cx, -cy))
    return m
