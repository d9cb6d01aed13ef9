"""Compiled board geometry for the race: neighbours, distance, Field of Fire and Line of Fire
(206 A-D). The plain-Python originals are ``board.neighbour``/``board.distance`` and
``los.in_field_of_fire``/``los.fire_solution``; the tests hold these to them hex for hex.
"""

from __future__ import annotations

import math

from typing import NamedTuple

import numpy as np

from simkit.core import hexgrid
from simkit.core._numba import jit
from simkit.core.hexgrid import ODD_LOWER

from .board import HOLE, NULL, WELL

SQ3 = math.sqrt(3.0)


# The plan search calls these at every node. As calls into ``markers`` and ``hexgrid`` they
# stayed calls in the compiled search (LLVM inlined neither them nor the ``min``/``max`` they
# use), four calls deep for a distance; inlined here as integer arithmetic on the shared grid's
# cube coordinates (``hexgrid.to_cube``, EVEN_LOWER: 1-based columns, even ones lower), held
# to ``markers._nbr`` and ``markers._hex_distance`` hex for hex by the tests.
@jit(inline="always")
def cube_z(col, row):
    """The cube z of an offset hex (``hexgrid.to_cube`` for EVEN_LOWER; x is the column)."""
    # >> 1 is // 2 for every int (both floor); numba's // keeps a sign fix-up that the
    # distance, run at every node of the plan search, paid twice
    return row - ((col + (col & 1)) >> 1)


@jit(inline="always")
def offset_row(x, z):
    """The row of cube (x, z) (``hexgrid.to_offset`` for EVEN_LOWER; the column is x)."""
    return z + ((x + (x & 1)) >> 1)


@jit(inline="always")
def nbr(col, row, d):
    """The hex across hexside ``d`` (0-5 = N..NW), as markers._nbr."""
    # hexgrid's DX, DZ (N..NW) as conditions: a global array read from compiled code is a
    # reference counted at every call
    dx = 0 if d == 0 or d == 3 else (1 if d < 3 else -1)
    dz = -1 if d < 2 else (0 if d == 2 or d == 5 else 1)
    x = col + dx
    return x, offset_row(x, cube_z(col, row) + dz)


@jit(inline="always")
def dist(c1, r1, c2, r2):
    """Hexes from (c1, r1) to (c2, r2), as markers._hex_distance."""
    dx = c1 - c2
    dz = cube_z(c1, r1) - cube_z(c2, r2)
    ax = dx if dx >= 0 else -dx
    az = dz if dz >= 0 else -dz
    ay = dx + dz if dx + dz >= 0 else -dx - dz
    m = ax if ax >= az else az
    return m if m >= ay else ay


@jit
def centre(col, row):
    y = (row - 1) + (0.5 if col % 2 == 0 else 0.0)
    return 1.5 * (col - 1), -SQ3 * y


@jit
def in_field_of_fire(c0, r0, facing, c1, r1):
    """206 A: the target hex's centre within 30 degrees of the facing (los.in_field_of_fire,
    which measures the angle between hex centres), in integers: the pilots ask it at every
    leaf of a plan search, and the angle's atan2 and float remainder cost more than the search
    step. In cube coordinates a hex centre lies at (1.5 dx, -sqrt3 (dz + dx / 2)) from the
    firer's; turning the offset by 60 degrees a facing ((x, y, z) -> (-y, -z, -x) takes
    each facing's hexside to N's), the N cone of half-angle 30 degrees, its edges included,
    is 3 |x| <= -(2 z + x)."""
    if c0 == c1 and r0 == r1:
        return False
    x = c1 - c0
    z = cube_z(c1, r1) - cube_z(c0, r0)
    y = -x - z
    for _ in range(facing):
        x, y, z = -y, -z, -x
    ax = x if x >= 0 else -x
    return 3 * ax <= -(2 * z + x)


@jit
def pixel_to_hex(x, y):
    """los._pixel_to_hex (cube rounding; Python's round is half-to-even, kept here)."""
    cx = x / 1.5
    cz = (-y / SQ3) - cx / 2.0
    rx, _, rz = hexgrid.cube_round(cx, -cx - cz, cz)
    # 0-based columns here, odd ones lower: 1-based even columns lower, as on the board
    col0, row0 = hexgrid.to_offset(np.int64(rx), np.int64(rz), ODD_LOWER)
    return col0 + 1, row0 + 1


class Sight(NamedTuple):
    """What a Line of Fire is judged on, ``LS``: the board's terrain and Hell Fire classes, the
    modifier of a Hell Fire hex by class (index 0-3), the longest range, and the modifiers of
    a Gravity Well and a Hell Hole hex (206 D)."""
    terrain: np.ndarray
    fire_class: np.ndarray
    lof_fire: np.ndarray
    max_range: int
    lof_well: int
    lof_hole: int


@jit
def hex_fire_mod(c, r, LS):
    """206 D for one hex: its single most severe modifier; 1 marks a Null hex (no fire)."""
    terrain, fire_class, rp_lof_fire = LS.terrain, LS.fire_class, LS.lof_fire
    lof_well, lof_hole = LS.lof_well, LS.lof_hole
    t = terrain[c, r]
    if t == NULL:
        return 1
    m = 0
    fc = fire_class[c, r]
    if fc > 0 and rp_lof_fire[fc] < m:
        m = rp_lof_fire[fc]
    if t == WELL and lof_well < m:
        m = lof_well
    if t == HOLE and lof_hole < m:
        m = lof_hole
    return m


@jit
def line_mod(c0, r0, c1, r1, side, LS):
    """Summed Line-of-Fire modifier along the ruler offset to ``side``; (False, 0) if a Null
    hex is on the line (los.line_of_fire + hex_fire_modifier). ``LS``: :class:`Sight`."""
    terrain = LS.terrain
    n = dist(c0, r0, c1, r1)
    x0, y0 = centre(c0, r0)
    x1, y1 = centre(c1, r1)
    dx, dy = x1 - x0, y1 - y0
    norm = math.hypot(dx, dy)
    if norm == 0.0:
        norm = 1.0
    ox, oy = -dy / norm * 1e-6 * side, dx / norm * 1e-6 * side
    total = 0
    pc, pr = -1, -1
    for k in range(1, n + 1):
        t = k / n
        hc, hr = pixel_to_hex(x0 + dx * t + ox, y0 + dy * t + oy)
        if hc == pc and hr == pr:
            continue
        pc, pr = hc, hr
        if hc < 1 or hr < 1 or hc >= terrain.shape[0] or hr >= terrain.shape[1]:
            continue
        m = hex_fire_mod(hc, hr, LS)
        if m == 1:
            return False, 0
        total += m
    return True, total


@jit
def fire_solution(c0, r0, facing, c1, r1, LS):
    """(allowed, range, modifier) as los.fire_solution: Field of Fire, range <= ``LS.max_range``
    (12), Null blocks; the firer takes the better side of a ruler along a hexside. ``LS``:
    :class:`Sight`."""
    rng = dist(c0, r0, c1, r1)
    if rng > LS.max_range or not in_field_of_fire(c0, r0, facing, c1, r1):
        return False, rng, 0
    ok1, m1 = line_mod(c0, r0, c1, r1, 1, LS)
    ok2, m2 = line_mod(c0, r0, c1, r1, -1, LS)
    if ok1 and ok2:
        return True, rng, max(m1, m2)
    if ok1:
        return True, rng, m1
    if ok2:
        return True, rng, m2
    return False, rng, 0
