"""Free Floater, High Roller and Hell Hound movement on the board (204 G-J, 204 O, Reference
Card 'Free Floater And Hell Hound Movement', 'High Roller Movement').

Modelled, per marker per Turn:

* Easy Buoys never move (204 G).
* Free Floaters and Hell Hounds (204 H, J): d6 of 1-3 moves that many hexes, 4-6 stays; a second
  d6 picks the hexside on the Buoy Movement diagram (the board's ``hexsides``). Movement stops in
  the last hex before it would leave the board (204 H; a marker at an edge therefore moves again
  only in a direction that leads back onto the board -- the rule's "3, 4 or 5" is this for the
  top edge). Null, Hell Fire and Hell Hole hexes do not affect it (card).
* Entering a Gravity Well hex (204 H, O; card): if that used its last hex of movement it becomes a
  High Roller of that hole; otherwise it is whipped round the hole in its rotation -- three Well
  hexes including the one entered (variant marker_whip=rules: three more) -- at no cost in
  movement, then continues in its original direction. A Well of a hole it has already been
  whipped by (or started in) this move does not whip it again (the rules are silent; this stops
  a loop).
* High Rollers (204 I): a Free Floater or Hell Hound in a Well is first checked as a Free Floater;
  if it does not move that way, it moves d6 Well hexes in the hole's rotation. The Astaroth,
  Belial and Lucifer Buoys only ever orbit (d6 Well hexes a Turn).
* A Null Well hex is "in the Null Zone only" (004 A): it does not capture or whip a marker, but
  a High Roller's orbit passes through all six hexes round the hole.

A Hell Hound's stop and attack at the closest approach to a ship (207 A) is
:func:`move_hell_hound` here and, compiled, in the race engine (``engine.py``), which reads the
hound's path from :func:`kernel_marker_path`.

:func:`move_marker` is the plain-Python reference; :func:`kernel_move_marker` the compiled
version; the tests replay the 204 H and 204 I examples and hold the two to each other on random
scripts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simkit.core import dice as cdice
from simkit.core import hexgrid
from simkit.core._numba import jit
from simkit.core.hexgrid import EVEN_LOWER

from .board import DIRECTIONS, WELL, Board, neighbour
from ..procedures.kernels import _roll

FREE, ORBIT_ONLY, EASY = 0, 1, 2   # marker kinds (hounds move as FREE)


def _whip_steps(rules) -> int:
    per = rules.t("marker_movement")["whip_hexes"]
    return per - 1 if rules.variants.get("marker_whip", "card") == "card" else per


@dataclass
class BoardArrays:
    """The board as plain arrays for the kernels."""

    terrain: np.ndarray      # int8[cols+1, rows+1]
    hole_of: np.ndarray      # int16[cols+1, rows+1] hole index + 1 (well and hole hexes)
    ring_pos: np.ndarray     # int8[cols+1, rows+1] position 0-5 round its hole, -1 if none
    ring_hole: np.ndarray    # int16[cols+1, rows+1] hole index + 1 of the ring a hex is on
    rings: np.ndarray        # int64[n_holes, 6, 2] ring hexes N..NW
    rotation: np.ndarray     # int64[n_holes] +1 clockwise, -1 counter-clockwise
    side_dir: np.ndarray     # int64[7] d6 result -> direction index 0-5 (N..NW)


def board_arrays(board: Board) -> BoardArrays:
    shape = board.terrain.shape
    ring_pos = np.full(shape, -1, dtype=np.int8)
    ring_hole = np.zeros(shape, dtype=np.int16)
    rings = np.zeros((len(board.holes), 6, 2), dtype=np.int64)
    rotation = np.zeros(len(board.holes), dtype=np.int64)
    for i, h in enumerate(board.holes):
        rotation[i] = 1 if h.rotation == "cw" else -1
        for j, d in enumerate(DIRECTIONS):
            c, r = neighbour(*h.center, d)
            rings[i, j] = (c, r)
            ring_pos[c, r] = j
            ring_hole[c, r] = i + 1
    side_dir = np.full(7, -1, dtype=np.int64)
    for j, d in enumerate(DIRECTIONS):
        side_dir[board.hexsides[d]] = j
    return BoardArrays(board.terrain, board.hole_of, ring_pos, ring_hole, rings, rotation,
                       side_dir)


# --- reference ---------------------------------------------------------------------------------

def _well_hole(board: Board, h) -> int:
    """Hole index + 1 if ``h`` is a Gravity Well hex that captures markers, else 0."""
    return int(board.hole_of[h]) if board.terrain[h] == WELL else 0


def _orbit(board: Board, pos, steps, path=None):
    hole = board.holes[_ring_hole(board, pos) - 1]
    j = hole.well.index(pos)
    step = 1 if hole.rotation == "cw" else -1
    if path is not None:
        path.extend(hole.well[(j + step * n) % 6] for n in range(1, steps + 1))
    return hole.well[(j + step * steps) % 6]


def _ring_hole(board, pos):
    for i, h in enumerate(board.holes):
        if pos in h.well:
            return i + 1
    return 0


def move_marker(dice, rules, board: Board, pos, kind: int, path=None):
    """One Turn of one marker: returns its new hex. ``kind`` FREE, ORBIT_ONLY or EASY.
    ``path``, if a list, receives every hex entered in order (whip and orbit hexes included)."""
    pos = tuple(pos)
    if kind == EASY:
        return pos
    if kind == ORBIT_ONLY:
        return _orbit(board, pos, dice.roll(1, 6), path)
    moves_at_most = rules.t("marker_movement")["moves_at_most"]
    n = dice.roll(1, 6)
    if n > moves_at_most:
        if _well_hole(board, pos):          # a High Roller: orbits instead (204 I NOTE)
            return _orbit(board, pos, dice.roll(1, 6), path)
        return pos
    direction = DIRECTIONS[list(board.hexsides.values()).index(dice.roll(1, 6))]
    whipped = {_well_hole(board, pos)} - {0}
    left = n
    while left > 0:
        nxt = neighbour(*pos, direction)
        if not board.on_board(*nxt):
            break                           # stops in the last full hex (204 H)
        pos = nxt
        if path is not None:
            path.append(pos)
        left -= 1
        hole = _well_hole(board, pos)
        if hole and hole not in whipped:
            if left == 0:
                break                       # ends in the first Well hex entered: High Roller
            pos = _orbit(board, pos, _whip_steps(rules), path)
            whipped.add(hole)
    return pos


def move_hell_hound(dice, rules, board: Board, pos, ships):
    """Step F for one Hell Hound (204 J, 207 A-B): it moves as a Free Floater but stops at its
    closest point of approach to any ship, if within two hexes, and detonates against that ship.

    ``ships`` are objects with ``pos``, ``ship`` (Function list) and ``screens``. The whole
    move is rolled first (it is one die roll of distance and one of direction), then the hound
    stops at the first hex of its path at the smallest distance from any ship; among ships at
    that distance, the first listed is attacked (the rules do not say). Returns (new hex, None)
    or (hex where it detonated, (ship index, distance, attack Result)); a hound that detonates
    is removed by the caller (202 F)."""
    from .board import distance
    from ..reference import hell_hound_attack

    pos = tuple(pos)
    path = [pos]
    end = move_marker(dice, rules, board, pos, FREE, path)
    reach = rules.t("marker_movement")["hound_attack_range"]
    best = None
    for k, h in enumerate(path):
        for i, sh in enumerate(ships):
            d = distance(h, sh.pos)
            if d <= reach and (best is None or d < best[0]):
                best = (d, k, i)
    if best is None:
        return end, None
    d, k, i = best
    res = hell_hound_attack(dice, rules, ships[i].ship, d, screens=ships[i].screens)
    return path[k], (i, d, res)


# --- kernel ------------------------------------------------------------------------------------

@jit
def _nbr(col, row, d):
    # 1-based columns, even ones lower (board.py): the shared grid's EVEN_LOWER
    return hexgrid.neighbour(col, row, d, EVEN_LOWER)


@jit
def _k_orbit(col, row, steps, ring_pos, ring_hole, rings, rotation):
    h = ring_hole[col, row] - 1
    j = (ring_pos[col, row] + rotation[h] * steps) % 6
    return rings[h, j, 0], rings[h, j, 1]


@jit
def kernel_move_marker(st, script, col, row, kind, BT, moves_at_most, whip_steps):
    """The compiled :func:`move_marker`: returns the new (col, row)."""
    c, r, _ = kernel_marker_path(st, script, col, row, kind, BT, moves_at_most, whip_steps,
                                 np.zeros((0, 2), np.int64))
    return c, r


@jit
def _record(path, n, col, row):
    if n < path.shape[0]:
        path[n, 0] = col
        path[n, 1] = row
    return n + 1


@jit
def _k_orbit_path(col, row, steps, ring_pos, ring_hole, rings, rotation, path, n):
    h = ring_hole[col, row] - 1
    for s in range(1, steps + 1):
        j = (ring_pos[col, row] + rotation[h] * s) % 6
        n = _record(path, n, rings[h, j, 0], rings[h, j, 1])
    c, r = _k_orbit(col, row, steps, ring_pos, ring_hole, rings, rotation)
    return c, r, n


@jit
def kernel_marker_path(st, script, col, row, kind, BT, moves_at_most, whip_steps, path):
    """:func:`move_marker` with its ``path``: every hex occupied, the start first, written into
    ``path`` (int64[k, 2]; a 0-row array records nothing). Returns (col, row, hexes in path)."""
    (terrain, hole_of, ring_pos, ring_hole, rings, rotation, side_dir) = (
        BT.terrain, BT.hole_of, BT.ring_pos, BT.ring_hole, BT.rings, BT.rotation, BT.side_dir)
    n = _record(path, 0, col, row)
    if kind == EASY:
        return col, row, n
    if kind == ORBIT_ONLY:
        return _k_orbit_path(col, row, _roll(st, script, 1, 6), ring_pos, ring_hole, rings,
                             rotation, path, n)
    k = _roll(st, script, 1, 6)
    start_well = hole_of[col, row] if terrain[col, row] == WELL else 0
    if k > moves_at_most:
        if start_well > 0:
            return _k_orbit_path(col, row, _roll(st, script, 1, 6), ring_pos, ring_hole, rings,
                                 rotation, path, n)
        return col, row, n
    d = side_dir[_roll(st, script, 1, 6)]
    cols = terrain.shape[0] - 1
    rows = terrain.shape[1] - 1
    # the holes whipped, a bit each (no array: the race calls this from code compiled without
    # reference counts, ``engine``'s NO_NRT note, for every moving marker every Turn)
    if rings.shape[0] > 62:
        raise ValueError("kernel_marker_path: more than 62 Hell Holes")
    whipped = np.int64(1) << start_well
    left = k
    while left > 0:
        c2, r2 = _nbr(col, row, d)
        if c2 < 1 or c2 > cols or r2 < 1 or r2 > rows:
            break
        col, row = c2, r2
        n = _record(path, n, col, row)
        left -= 1
        hole = hole_of[col, row] if terrain[col, row] == WELL else 0
        if hole > 0 and not (whipped >> hole) & 1:
            if left == 0:
                break
            col, row, n = _k_orbit_path(col, row, whip_steps, ring_pos, ring_hole, rings,
                                        rotation, path, n)
            whipped |= np.int64(1) << hole
    return col, row, n


# --- many Turns, many trials: where the markers drift (no ships on the board) -----------------

@jit
def _hex_distance(c1, r1, c2, r2):
    return hexgrid.distance(c1, r1, c2, r2, EVEN_LOWER)


@jit
def drift_stats(key, first, n, turns, starts, kinds, BT, moves_at_most, whip_steps):
    """Every marker moved once a Turn (in ``starts`` order) for ``turns`` Turns, trials
    first..first+n-1, trial i from stream (key, i). Returns (per-marker int64[k, 3]: trials
    ending in a Gravity Well, sum and sum of squares of the hex distance from the start;
    occupancy int64[cols+1, rows+1] of the moving markers' final hexes). Serial: a marker
    move is cheap, and a parallel version compiles several times slower."""
    terrain = BT.terrain
    k = starts.shape[0]
    per = np.zeros((k, 3), np.int64)
    occ = np.zeros((terrain.shape[0], terrain.shape[1]), np.int64)
    st = np.zeros(cdice.STATE_SIZE, np.uint64)
    pos = np.zeros((k, 2), np.int64)
    for i in range(first, first + n):
        cdice.seed_trial(st, key, i)
        for m in range(k):
            pos[m, 0] = starts[m, 0]
            pos[m, 1] = starts[m, 1]
        for _ in range(turns):
            for m in range(k):
                c, r = kernel_move_marker(st, cdice.NO_SCRIPT, pos[m, 0], pos[m, 1], kinds[m], BT,
                                          moves_at_most, whip_steps)
                pos[m, 0] = c
                pos[m, 1] = r
        for m in range(k):
            c, r = pos[m, 0], pos[m, 1]
            if terrain[c, r] == WELL:
                per[m, 0] += 1
            d = _hex_distance(c, r, starts[m, 0], starts[m, 1])
            per[m, 1] += d
            per[m, 2] += d * d
            if kinds[m] != EASY:
                occ[c, r] += 1
    return per, occ


MARKER_KIND = {"easy": EASY, "free_floater": FREE, "hell_hound": FREE, "astaroth": ORBIT_ONLY,
               "belial": ORBIT_ONLY, "lucifer": ORBIT_ONLY}


class DriftSim:
    """Runner simulation of the board's markers over ``turns`` Turns (no ships)."""

    name = "demons-run marker drift"

    def __init__(self, rules, board: Board, turns: int):
        self.rules, self.board, self.turns = rules, board, int(turns)
        self.labels, starts, kinds = [], [], []
        for kind, hexes in board.markers.items():
            for j, h in enumerate(hexes):
                self.labels.append((kind, j + 1, h))
                starts.append(h)
                kinds.append(MARKER_KIND[kind])
        self.starts = np.asarray(starts, dtype=np.int64).reshape(-1, 2)
        self.kinds = np.asarray(kinds, dtype=np.int64)
        from .layout import board_tables  # layout builds on this module
        self.tables = board_tables(board)
        self.shape = board.terrain.shape
        self.n_stats = len(self.labels) * 3 + self.shape[0] * self.shape[1]

    def chunk(self, key, first, n):
        per, occ = drift_stats(key, first, n, self.turns, self.starts, self.kinds, self.tables,
                               self.rules.t("marker_movement")["moves_at_most"],
                               _whip_steps(self.rules))
        return np.concatenate([per.ravel(), occ.ravel()])

    def summarise(self, totals, n_trials):
        import pandas as pd

        from simkit.core import stats
        k = len(self.labels)
        per = np.asarray(totals[:k * 3]).reshape(k, 3)
        self.occupancy = np.asarray(totals[k * 3:]).reshape(self.shape)
        rows = []
        for (kind, j, h), (w, s1, s2) in zip(self.labels, per):
            lo, hi = stats.rate_ci(w, n_trials)
            m, mlo, mhi = stats.mean_ci(s1, s2, n_trials)
            rows.append({"marker": kind, "number": j, "start": f"{h[0]},{h[1]}",
                         "turns": self.turns, "p_in_well": w / n_trials, "p_in_well_lo": float(lo),
                         "p_in_well_hi": float(hi), "mean_hexes_from_start": float(m),
                         "mean_hexes_lo": float(mlo), "mean_hexes_hi": float(mhi),
                         "trials": int(n_trials)})
        return pd.DataFrame(rows)
