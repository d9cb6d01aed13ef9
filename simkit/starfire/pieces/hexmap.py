"""The Starfire hex map (starfire.txt (2.2), (4.4), (4.8), (5.3), (12.4), (12.6)).

Hexes are numbered CCRR: 0608 is column 06, row 08. Columns are vertical with flat-topped hexes
and even columns shifted half a hex down, which is the only layout in which every step of the
movement example (4.8) is a move into an adjacent hex (0709 -> 0809 -> 0910 -> 1010,
1720 -> 1619 -> 1519 -> 1418). Facings 0-5 run clockwise from "up" (towards a lower row):
0 up, 1 up-right, 2 down-right, 3 down, 4 down-left, 5 up-left.

Range is the hex distance (5.3: count the target's hex, not the firer's). Compiled helpers work
on (col, row) integers; the Python helpers parse and format CCRR labels.
"""

from __future__ import annotations

import math

from ...core import hexgrid
from ...core._numba import jit
from ...core.hexgrid import EVEN_LOWER
from ...core.errors import UserInputError

# the map's lower columns are the even ones (module doc): the shared grid does the arithmetic
LOWER = EVEN_LOWER


@jit
def neighbour(col, row, facing):
    """The hex adjacent to (col, row) across the hexside ``facing``."""
    return hexgrid.neighbour(col, row, facing, LOWER)


@jit
def distance(c1, r1, c2, r2):
    """Hex distance: the range of (5.3)."""
    return hexgrid.distance(c1, r1, c2, r2, LOWER)


@jit
def center(col, row):
    """Pixel centre (x right, y down) of a flat-topped hex with unit size."""
    x = 1.5 * col
    y = math.sqrt(3.0) * (row + 0.5 * (col % 2 == 0))
    return x, y


@jit
def bearing_off_facing(col, row, facing, tcol, trow):
    """Angle in degrees (0-180) between the ship's facing and the direction to the target."""
    x0, y0 = center(col, row)
    x1, y1 = center(tcol, trow)
    ang = math.degrees(math.atan2(x1 - x0, -(y1 - y0)))  # 0 = up, clockwise
    d = abs(ang - 60.0 * facing) % 360.0
    return min(d, 360.0 - d)


@jit
def in_rear_arc(col, row, facing, tcol, trow):
    """(12.6): the target lies through the rear hexside (the 60-degree blind spot)."""
    if col == tcol and row == trow:
        return False
    return bearing_off_facing(col, row, facing, tcol, trow) > 150.0 + 1e-9


@jit
def line_passes(c1, r1, c2, r2, pc, pr):
    """(12.4): does the line between hex centres pass through any part of hex (pc, pr)?

    Sampled along the segment densely enough (and nudged both ways at hexside spines) that a
    line grazing the hex counts as passing through it.
    """
    n = distance(c1, r1, c2, r2)
    if n == 0:
        return False
    x0, y0, z0 = hexgrid.to_cube(c1, r1, LOWER)
    x1, y1, z1 = hexgrid.to_cube(c2, r2, LOWER)
    px, py, pz = hexgrid.to_cube(pc, pr, LOWER)
    steps = 4 * n
    for k in range(1, steps):
        t = k / steps
        for eps in (1e-6, -1e-6):
            fx = x0 + (x1 - x0) * t + eps
            fy = y0 + (y1 - y0) * t + eps
            fz = z0 + (z1 - z0) * t - 2 * eps
            rx, ry, rz = hexgrid.cube_round(fx, fy, fz)
            if rx == px and ry == py and rz == pz:
                return True
    return False


def parse_hex(label, *, where: str = "scenario", field: str = "hex") -> tuple[int, int]:
    """'0608' -> (6, 8)."""
    text = str(label)
    if len(text) != 4 or not text.isdigit():
        raise UserInputError(f"hex must be four digits CCRR (e.g. 0608), got {label!r}",
                             where=where, field=field)
    return int(text[:2]), int(text[2:])


def hex_label(col: int, row: int) -> str:
    return f"{col:02d}{row:02d}"


FACINGS = {"up": 0, "n": 0, "up-right": 1, "ne": 1, "down-right": 2, "se": 2, "down": 3, "s": 3,
           "down-left": 4, "sw": 4, "up-left": 5, "nw": 5}


def parse_facing(value, col: int, row: int, *, where: str, field: str) -> int:
    """A facing given as 0-5, a name (up, down-left, ...) or the hex faced ('0609')."""
    if isinstance(value, int) and 0 <= value <= 5:
        return value
    text = str(value).lower()
    if text in FACINGS:
        return FACINGS[text]
    if len(text) == 4 and text.isdigit():
        tc, tr = parse_hex(text, where=where, field=field)
        for f in range(6):
            if neighbour(col, row, f) == (tc, tr):
                return f
        raise UserInputError(f"hex {text} is not adjacent to {hex_label(col, row)}",
                             where=where, field=field)
    raise UserInputError(f"facing must be 0-5, a direction (up, up-right, ...) or an adjacent "
                         f"hex, got {value!r}", where=where, field=field)
