"""Field of Fire and Line of Fire on the board (206 A-D).

* Field of Fire (206 A): a 60-degree cone from the firing ship's front hexside. On flat-topped
  hexes the cone's edges run from the front hexside's corners along the lines through the
  ship's centre at +-30 degrees of its facing; those lines run along hexsides or through hex
  centres, so a hex is "fully or partially shaded" exactly when its centre lies within 30
  degrees of the facing (edges included). The firer's own hex is not a target hex.
* Line of Fire (206 C): the hexes a ruler from centre to centre passes through, exclusive of the
  firer's hex, inclusive of the target's; the range is their count, which is the hex distance.
  Traced by sampling the segment (cube interpolation, one sample per hex). A ruler lying exactly
  along a hexside touches two hexes at each step; the two sides are traced separately (a tiny
  offset either way) and the firing player -- who places the ruler -- gets the side better for
  the shot. This is an interpretation: the rules do not say.
* Modifiers (206 D): per hex on the Line of Fire, its single most severe terrain modifier (the
  206 E example counts a Hell3 well hex at -6 only); a Null hex on the line is an automatic miss.
"""

from __future__ import annotations

import math

from .board import DIRECTIONS, HOLE, NULL, WELL, Board, distance
from ..rules import Rules

_ANGLE = {"N": 90.0, "NE": 30.0, "SE": -30.0, "S": -90.0, "SW": -150.0, "NW": 150.0}


def centre(col: int, row: int) -> tuple[float, float]:
    """Hex centre, y up, hex radius 1 (flat-topped, even columns half a hex lower)."""
    return 1.5 * (col - 1), -math.sqrt(3) * ((row - 1) + (0.5 if col % 2 == 0 else 0.0))


def in_field_of_fire(firer, facing: int, target) -> bool:
    if tuple(firer) == tuple(target):
        return False
    (x0, y0), (x1, y1) = centre(*firer), centre(*target)
    ang = math.degrees(math.atan2(y1 - y0, x1 - x0))
    diff = (ang - _ANGLE[DIRECTIONS[facing]] + 180.0) % 360.0 - 180.0
    return abs(diff) <= 30.0 + 1e-9


def _pixel_to_hex(x: float, y: float) -> tuple[int, int]:
    """The hex containing the point (cube rounding)."""
    q = x / 1.5                       # axial column (0-based)
    r = (-y / math.sqrt(3)) - q / 2.0  # axial row, odd-q offset folded in below
    cx, cz = q, r
    cy = -cx - cz
    rx, ry, rz = round(cx), round(cy), round(cz)
    dx, dy, dz = abs(rx - cx), abs(ry - cy), abs(rz - cz)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    col0 = rx
    row0 = rz + (col0 - (col0 & 1)) // 2
    return col0 + 1, row0 + 1


def line_of_fire(firer, target, side: int = 0) -> list[tuple[int, int]]:
    """Hexes along the ruler, exclusive of the firer's, inclusive of the target's. ``side``
    (+1 or -1) offsets the ruler a hair to one side, to resolve a line along a hexside."""
    n = distance(firer, target)
    (x0, y0), (x1, y1) = centre(*firer), centre(*target)
    dx, dy = x1 - x0, y1 - y0
    norm = math.hypot(dx, dy) or 1.0
    ox, oy = -dy / norm * 1e-6 * side, dx / norm * 1e-6 * side
    out = []
    for k in range(1, n + 1):
        t = k / n
        h = _pixel_to_hex(x0 + dx * t + ox, y0 + dy * t + oy)
        if not out or out[-1] != h:
            out.append(h)
    return out


def hex_fire_modifier(rules: Rules, board: Board, h) -> int | None:
    """206 D a-e for one hex (single most severe), or None for a Null hex (no fire passes)."""
    t = board.terrain[h]
    if t == NULL:
        return None
    lof = rules.t("fire")["line_of_fire"]
    mods = [0]
    fc = board.fire_class[h]
    if fc:
        mods.append(lof[("hell_fire", "hell2_fire", "hell3_fire")[fc - 1]])
    if t == WELL:
        mods.append(lof["gravity_well"])
    if t == HOLE:
        mods.append(lof["hell_hole"])
    return min(mods)


def fire_solution(rules: Rules, board: Board, firer, facing: int, target):
    """(allowed, range, Line-of-Fire modifier, hexes) for a shot from ``firer`` facing
    ``facing`` at ``target``: not allowed outside the Field of Fire, beyond 12 hexes, or through
    Null (the better of the two ruler sides when the line runs along a hexside)."""
    rng = distance(firer, target)
    if not in_field_of_fire(firer, facing, target) or rng > rules.t("fire")["max_range"]:
        return False, rng, 0, []
    best = None
    for side in (1, -1):
        hexes = line_of_fire(firer, target, side)
        mods = [hex_fire_modifier(rules, board, h) for h in hexes]
        if None in mods:
            continue
        cand = (sum(mods), hexes)
        if best is None or cand[0] > best[0]:
            best = cand
    if best is None:
        return False, rng, 0, line_of_fire(firer, target, 1)
    return True, rng, best[0], best[1]
