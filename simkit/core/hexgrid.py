"""Hex grids of flat-topped hexes in vertical columns: offset and cube coordinates, distance,
neighbours, rounding and lines, compiled, for every hex game.

All three hex games print their maps the same way -- columns of flat-topped hexes, every other
column half a hex lower -- and differ only in which columns are lower and where numbering
starts. ``lower`` names the parity of the lower columns *in the game's own numbering*:

* Starfire (CCRR labels) and Demon's Run (1-based columns): even columns lower, ``EVEN_LOWER``.
* Demo Derby (0-based columns): odd columns lower, ``ODD_LOWER``.

Rows may start at 0 or 1: distances and neighbours do not depend on it. Facings run clockwise
from "up" (towards a lower row): 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW.

Cube coordinates (x, y, z) with x + y + z = 0 (Red Blob Games' "Hexagonal Grids", the usual
reference): x is the column, z the row made straight.
"""

from __future__ import annotations

import math

import numpy as np

from ._numba import jit

EVEN_LOWER, ODD_LOWER = 0, 1
#: cube steps (dx, dz) across each facing, N..NW (dy = -dx - dz)
DX = np.array([0, 1, 1, 0, -1, -1], np.int64)
DZ = np.array([-1, -1, 0, 1, 1, 0], np.int64)


@jit
def to_cube(col, row, lower):
    """(x, y, z) of the hex at (col, row) of a grid whose ``lower`` columns sit lower."""
    # a lower column's row k sits half a hex below row k of its neighbours
    if lower == EVEN_LOWER:
        z = row - (col + (col & 1)) // 2
    else:
        z = row - (col - (col & 1)) // 2
    return col, -col - z, z


@jit
def to_offset(x, z, lower):
    """(col, row) of the cube hex (x, -x - z, z)."""
    if lower == EVEN_LOWER:
        return x, z + (x + (x & 1)) // 2
    return x, z + (x - (x & 1)) // 2


@jit
def distance(c1, r1, c2, r2, lower):
    """Hexes from one hex to another (0: the same hex)."""
    x1, y1, z1 = to_cube(c1, r1, lower)
    x2, y2, z2 = to_cube(c2, r2, lower)
    return max(abs(x1 - x2), abs(y1 - y2), abs(z1 - z2))


@jit
def neighbour(col, row, facing, lower):
    """The hex across hexside ``facing`` (0-5, N..NW clockwise)."""
    x, _, z = to_cube(col, row, lower)
    return to_offset(x + DX[facing], z + DZ[facing], lower)


@jit
def round_half_even(v):
    """Python's ``round`` (ties to even), which the plain-Python references use."""
    f = math.floor(v)
    d = v - f
    if d > 0.5:
        return f + 1.0
    if d < 0.5:
        return f
    return f if f % 2.0 == 0.0 else f + 1.0


@jit
def cube_round(x, y, z):
    """The cube hex containing the fractional cube point (x, y, z)."""
    rx, ry, rz = round_half_even(x), round_half_even(y), round_half_even(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return int(rx), int(ry), int(rz)


@jit
def line(c1, r1, c2, r2, lower, out):
    """The hexes on the straight line between two hexes, both ends included, into ``out``
    (rows of (col, row)); returns how many. Points are nudged off hexsides the same way for
    every call (``+1e-6, +2e-6, -3e-6``) so a line along a hexside picks one side."""
    x1, y1, z1 = to_cube(c1, r1, lower)
    x2, y2, z2 = to_cube(c2, r2, lower)
    n = max(abs(x1 - x2), abs(y1 - y2), abs(z1 - z2))
    for i in range(n + 1):
        t = i / n if n > 0 else 0.0
        x, y, z = cube_round(x1 + (x2 - x1) * t + 1e-6, y1 + (y2 - y1) * t + 2e-6,
                             z1 + (z2 - z1) * t - 3e-6)
        out[i, 0], out[i, 1] = to_offset(x, z, lower)
    return n + 1
