"""The road: track sections as data, track generation, random road hazards, and the lane/space
geometry the engine uses for contact zones, fire corridors and ranges.

Models dark-future.txt:

* The grid (p10): straights of 3 spaces x 6 lanes; 90-degree corners and 60-degree bends with
  per-lane space counts and safety limits (``track.toml`` ``curve_sections``, RECONSTRUCTED from
  rules-data.md 4.2). A car occupies two lanes in one space. On a curve the pair of lanes is
  judged by the lane on the outside (p10, p13): its space count and its (higher) safety limit.
* Initial track generation (p74): three straights, then d6 1-4 straight / 5-6 curve; a curve
  rolls d6 for its type (5-6 corner, 1-4 bend) and d6 for its direction (odd left, even right);
  a straight always follows a curve; after two curves the same way the next curve turns the
  other way (the 180 degree rule: its direction is not rolled); out of one curve type use the
  other; out of straights the track ends. The stretch is seven sections (variant
  ``track_stretch``: ten as p74 prints).
* Continuous generation (p75): the lead car's line of sight is up to the next curve or three
  sections past its own; the straight after a curve is laid when the lead car is on the curve
  and nothing more until it has moved off it; never more than seven sections: placing an eighth
  removes the back one with everything on it (cars there leave play).
* Random road hazards (p76-77): d6 = 1 on each new section; two dice, the higher naming sand (6),
  debris (5) or obstacles (4 or less), the lower the number of markers and the side (odd left,
  even right); double 1 or 2 a railroad crossing; double 3+ obstacles on both sides (each side
  re-rolled, doubles ignored). Markers cover three lanes of one space on the road's edge, from
  the space nearest the start of the track forwards in the direction of play, left and right as
  the drivers going that way see them. Markers that do not fit the section are carried to the
  next section laid (p76's example: five sand on a straight's left, the fourth and fifth on the
  next track along) and placed there first, before that section's own; a change of the
  direction of play drops them (the section they were meant for is never laid).

Geometry model (``track.toml`` ``road_geometry``, RECONSTRUCTED: the book measures with a ruler
on printed curves). Lanes are numbered 0-5 from the left in the direction of play; a position is
(section, left lane of the pair, space). Lengths along the road are integers in 60ths of a
section (every space count 2-5 divides 60), so a space on a pair of lanes runs from
``sec*60 + sp*60/n`` to ``sec*60 + (sp+1)*60/n``. Contact zones overlap when lanes overlap and the
longitudinal intervals overlap. A range counts the spaces along the firer's lanes from its front
to the target's nearest edge, part of a space as one, plus the target's own space (p26). A fixed
fire corridor is the strip of the weapon's lanes ahead (hood and roof: the car's two lanes; a
wing: its side's lane); it follows the lane grid through straights; a curve between firer and
target blocks it, a curve ahead is seen one space deep, and from a curve only the first space of
the next section is seen (the ruler runs off the road, which cannot be fired across, p25).
"""

from __future__ import annotations

import numpy as np

from ...core import dice
from ...core._numba import jit
from .. import rules as R

STRAIGHT, CORNER, BEND = 0, 1, 2
KIND_NAMES = ("straight", "corner", "bend")
LANES = 6
UNITS = 60
MAXSEC = 256

# columns of the track array T[section]
T_KIND, T_DIR = 0, 1
T_SPACES = 2          # 2..7: spaces per lane 0-5
T_LIMITS = 8          # 8..13: safety limit per lane (0 on straights)
T_W = 14

# the track meta array TM
TM_FIRST, TM_NSEC, TM_STRAIGHTS, TM_CORNERS, TM_BENDS, TM_LASTDIR, TM_SAMEDIR, TM_ENDED, \
    TM_WINDOW, TM_BOX_S, TM_BOX_C, TM_BOX_B, TM_HAZARDS = range(13)
TM_W = 16
# road-hazard markers waiting for the next section (p76), on the drivers' left and right: a
# queue of marker kinds, three bits each, the first to place in the lowest bits
TM_CARRY_L, TM_CARRY_R = 13, 14
CARRY_MAX = 20          # 60 bits of an int64; the box holds far fewer markers of a kind
# the direction of play (p75): 0 towards higher sections, 1 towards lower ones; in the
# track meta, not G, because G is shared by every trial
TM_PLAYDIR = 15

# markers M[i]: passives and road hazards
MK_KIND, MK_SEC, MK_LLO, MK_LHI, MK_XLO, MK_XHI, MK_ACTIVE, MK_FACEUP, MK_UNDER, MK_OWNER = range(10)
MK_W = 10
MAXM = 96
OIL, MINES, SPIKES, SMOKE, SAND, DEBRIS, OBSTACLE, RAIL = range(8)
# a dummy passive marker (p22-23): face down like oil, mines and spikes; removed when hit
DUMMY = 8
MARKER_NAMES = ("oil", "mines", "spikes", "smoke", "sand", "debris", "obstacle", "railroad",
                "dummy")


def curve_array(rules=None) -> np.ndarray:
    """curves[kind, 0|1, i] = spaces|limit of lane i counted from the inside (row 0 unused)."""
    t = (rules or R.base_rules()).table("curve_sections")
    c = np.zeros((3, 2, LANES), dtype=np.int64)
    for kind, name in ((CORNER, "corner"), (BEND, "bend")):
        c[kind, 0] = t[name]["spaces"]
        c[kind, 1] = t[name]["limits"]
    return c


def box_array(rules=None) -> np.ndarray:
    t = (rules or R.base_rules()).table("track_box")
    return np.array([t["straights"], t["corners"], t["bends"], t["straight_spaces"]], np.int64)


def layout_codes(tokens) -> np.ndarray:
    """["S", "BL", ...] -> [[kind, dir], ...] (dir -1 left, +1 right)."""
    out = []
    for t in tokens:
        t = str(t).upper()
        if t == "S":
            out.append((STRAIGHT, 0))
        elif len(t) == 2 and t[0] in "CB" and t[1] in "LR":
            out.append((CORNER if t[0] == "C" else BEND, -1 if t[1] == "L" else 1))
        else:
            raise ValueError(t)
    return np.array(out, dtype=np.int64).reshape(-1, 2)


# --- sections --------------------------------------------------------------------------------
@jit
def place(T, TM, kind, dirn, curves, box):
    """Append a section (kind, direction) to the track."""
    i = TM[TM_NSEC]
    T[i, T_KIND] = kind
    T[i, T_DIR] = dirn
    for lane in range(LANES):
        if kind == STRAIGHT:
            T[i, T_SPACES + lane] = box[3]
            T[i, T_LIMITS + lane] = 0
        else:
            inner = lane if dirn < 0 else LANES - 1 - lane
            T[i, T_SPACES + lane] = curves[kind, 0, inner]
            T[i, T_LIMITS + lane] = curves[kind, 1, inner]
    TM[TM_NSEC] = i + 1
    TM[TM_STRAIGHTS + kind] += 1
    if kind != STRAIGHT:
        if dirn == TM[TM_LASTDIR]:
            TM[TM_SAMEDIR] += 1
        else:
            TM[TM_LASTDIR] = dirn
            TM[TM_SAMEDIR] = 1


@jit
def remove_back(T, TM):
    """Take the back section off the table (it returns to the box)."""
    f = TM[TM_FIRST]
    TM[TM_STRAIGHTS + T[f, T_KIND]] -= 1
    TM[TM_FIRST] = f + 1


@jit
def gen_section(st, script, T, TM, curves, box):
    """Generate and place the next section (p74). Returns False when the track ends."""
    n = TM[TM_NSEC]
    if TM[TM_ENDED] or n >= MAXSEC:
        TM[TM_ENDED] = 1
        return False
    have_s = TM[TM_STRAIGHTS] < box[0]
    after_curve = n > 0 and T[n - 1, T_KIND] != STRAIGHT
    curve = False
    if not after_curve and n >= 3:
        curve = dice.roll(st, script, 1, 6) >= 5
    if curve:
        have_c = TM[TM_CORNERS] < box[1]
        have_b = TM[TM_BENDS] < box[2]
        if not have_c and not have_b:
            curve = False
        else:
            kind = CORNER if dice.roll(st, script, 1, 6) >= 5 else BEND
            if kind == CORNER and not have_c:
                kind = BEND
            elif kind == BEND and not have_b:
                kind = CORNER
            if TM[TM_SAMEDIR] >= 2:
                dirn = -TM[TM_LASTDIR]   # the 180 degree rule: nothing to roll
            else:
                dirn = -1 if dice.roll(st, script, 1, 6) % 2 == 1 else 1
            place(T, TM, kind, dirn, curves, box)
            return True
    if not have_s:
        TM[TM_ENDED] = 1
        return False
    place(T, TM, STRAIGHT, 0, curves, box)
    return True


@jit
def reset_track(TM, window):
    for i in range(TM_W):
        TM[i] = 0
    TM[TM_WINDOW] = window


@jit
def generate_initial(st, script, T, TM, curves, box, n):
    """Initial Track Generation (p74): three straights, then rolled sections up to ``n``."""
    while TM[TM_NSEC] < n:
        if not gen_section(st, script, T, TM, curves, box):
            break


@jit
def lay_fixed(T, TM, layout, curves, box):
    for i in range(layout.shape[0]):
        place(T, TM, layout[i, 0], layout[i, 1], curves, box)
    TM[TM_ENDED] = 1


@jit
def sight_needs_more(T, TM, lead_sec, sight):
    """Continuous generation (p75): may the lead car see (and so lay) another section?"""
    n = TM[TM_NSEC]
    last = n - 1
    if TM[TM_ENDED]:
        return False
    for c in range(lead_sec + 1, n):
        if T[c, T_KIND] != STRAIGHT:
            return False          # a curve ahead blocks the view
    if T[lead_sec, T_KIND] != STRAIGHT:
        return last == lead_sec   # on a curve: only the straight that must follow it
    return last - lead_sec < sight


# --- positions ---------------------------------------------------------------------------------
@jit
def judge_lane(T, sec, lane):
    """The lane of a pair that judges position and limits on a curve: the outer one (p10)."""
    if T[sec, T_DIR] < 0:
        return lane + 1
    return lane


@jit
def pair_spaces(T, sec, lane):
    return T[sec, T_SPACES + judge_lane(T, sec, lane)]


@jit
def pair_limit(T, sec, lane):
    """Safety limit of a pair on a curve: the higher, outer lane's (p38); 0 on a straight."""
    return T[sec, T_LIMITS + judge_lane(T, sec, lane)]


@jit
def rear_x(T, sec, lane, sp):
    return sec * UNITS + sp * (UNITS // pair_spaces(T, sec, lane))


@jit
def front_x(T, sec, lane, sp):
    return sec * UNITS + (sp + 1) * (UNITS // pair_spaces(T, sec, lane))


@jit
def remap_space(T, sec, lane_from, lane_to, sp):
    """The space on another pair of lanes whose front edge is nearest ahead of or level with
    the car's front (drifts onto uneven lanes are judged by the outer divider, p13)."""
    n0 = pair_spaces(T, sec, lane_from)
    n1 = pair_spaces(T, sec, lane_to)
    s = ((sp + 1) * n1 + n0 - 1) // n0 - 1
    return min(max(s, 0), n1 - 1)


@jit
def space_at(T, sec, lane, x):
    """The space of a pair of lanes holding longitudinal point x (x inside section sec)."""
    n = pair_spaces(T, sec, lane)
    return min(n - 1, ((x - sec * UNITS) * n) // UNITS)


@jit
def along(T, lane, xa, xb):
    """Length from xa to xb (xa <= xb) along a pair of lanes, in 60ths of a space."""
    total = 0
    if xb <= xa:
        return 0
    s0 = xa // UNITS
    s1 = (xb - 1) // UNITS
    for s in range(s0, s1 + 1):
        lo = max(xa, s * UNITS)
        hi = min(xb, (s + 1) * UNITS)
        total += (hi - lo) * pair_spaces(T, s, lane)
    return total


@jit
def range_between(T, lane, x_from, x_to):
    """Range in spaces (p26): the gap counted along the firer's lanes, part of a space as one,
    plus the space the target occupies."""
    g = along(T, lane, x_from, x_to)
    return (g + UNITS - 1) // UNITS + 1


@jit
def sight_clear(T, sec_a, sp_b_first, sec_b):
    """Line of fire along the lanes from a firer on sec_a to a target starting on sec_b
    (sec_b >= sec_a); ``sp_b_first`` is True when the target's rear is in sec_b's first space."""
    if sec_b == sec_a:
        return True
    for s in range(sec_a + 1, sec_b):
        if T[s, T_KIND] != STRAIGHT:
            return False
    if T[sec_a, T_KIND] != STRAIGHT:
        return sec_b == sec_a + 1 and sp_b_first
    if T[sec_b, T_KIND] != STRAIGHT:
        return sp_b_first
    return True


# --- random road hazards -----------------------------------------------------------------------
@jit
def _add_marker(M, NM, kind, sec, llo, lhi, xlo, xhi, faceup, owner):
    n = NM[0]
    if n >= MAXM:
        # reuse an inactive slot; with none left the marker is not placed (p76: place as many
        # as you can)
        for i in range(MAXM):
            if M[i, MK_ACTIVE] == 0:
                n = i
                break
        if n >= MAXM:
            return -1
    else:
        NM[0] = n + 1
    M[n, MK_KIND] = kind
    M[n, MK_SEC] = sec
    M[n, MK_LLO] = llo
    M[n, MK_LHI] = lhi
    M[n, MK_XLO] = xlo
    M[n, MK_XHI] = xhi
    M[n, MK_ACTIVE] = 1
    M[n, MK_FACEUP] = faceup
    M[n, MK_UNDER] = -1
    M[n, MK_OWNER] = owner
    return n


@jit
def _carry_len(q):
    k = 0
    while q != 0:
        q >>= 3
        k += 1
    return k


@jit
def _carry_push(q, kind, count):
    """``count`` markers of ``kind`` queued after those already waiting for a side."""
    k = _carry_len(q)
    for _ in range(count):
        if k >= CARRY_MAX:
            break
        q |= kind << (3 * k)
        k += 1
    return q


@jit
def _lay_edge(T, M, NM, sec, q, left, d):
    """Lay the queued markers ``q`` on one edge (three lanes) of section ``sec``, one per space
    from the space nearest the start of the track in the direction of play ``d``; ``left`` is
    the drivers' left going that way. Returns the queue of those that did not fit (p76)."""
    play_left = left if d == 0 else not left
    llo = 0 if play_left else 3
    outer = llo + 2 if T[sec, T_DIR] < 0 else llo   # the strip is judged on its outer lane
    n = T[sec, T_SPACES + outer]
    step = UNITS // n
    k = 0
    while q != 0 and k < n:
        j = k if d == 0 else n - 1 - k
        _add_marker(M, NM, q & 7, sec, llo, llo + 2, sec * UNITS + j * step,
                    sec * UNITS + (j + 1) * step, 1, -1)
        q >>= 3
        k += 1
    return q


@jit
def _two_dice(st, script):
    a = dice.roll(st, script, 1, 6)
    b = dice.roll(st, script, 1, 6)
    return max(a, b), min(a, b)


@jit
def _hazard_kind(hi):
    if hi == 6:
        return SAND
    if hi == 5:
        return DEBRIS
    return OBSTACLE


@jit
def road_hazards(st, script, T, TM, M, NM, sec, d):
    """Random road hazards on a new section (p76-77) laid in the direction of play ``d`` (0
    towards higher sections): first the markers carried from the section before, then the
    section's own, each side from the space nearest the start; what does not fit waits in
    ``TM`` for the next section."""
    ql = TM[TM_CARRY_L]
    qr = TM[TM_CARRY_R]
    if dice.roll(st, script, 1, 6) == 1:
        hi, lo = _two_dice(st, script)
        if hi == lo and hi <= 2:
            # across the central spaces of a straight, the end space of a curve (p76); the
            # space is taken on the central lanes, whose extent the marker spans
            n = pair_spaces(T, sec, 2)
            k = n // 2 if T[sec, T_KIND] == STRAIGHT else (n - 1 if d == 0 else 0)
            _add_marker(M, NM, RAIL, sec, 0, LANES - 1, rear_x(T, sec, 2, k),
                        front_x(T, sec, 2, k), 1, -1)
        elif hi == lo:
            for side in range(2):
                hi2, lo2 = _two_dice(st, script)
                while hi2 == lo2:
                    hi2, lo2 = _two_dice(st, script)
                if side == 0:
                    ql = _carry_push(ql, _hazard_kind(hi2), lo2)
                else:
                    qr = _carry_push(qr, _hazard_kind(hi2), lo2)
        elif lo % 2 == 1:
            ql = _carry_push(ql, _hazard_kind(hi), lo)
        else:
            qr = _carry_push(qr, _hazard_kind(hi), lo)
    TM[TM_CARRY_L] = _lay_edge(T, M, NM, sec, ql, True, d)
    TM[TM_CARRY_R] = _lay_edge(T, M, NM, sec, qr, False, d)


def track_from_layout(tokens, rules=None):
    """(T, TM) of a fixed layout (Games One to Four), for tests and the Python side."""
    T = np.zeros((MAXSEC, T_W), np.int64)
    TM = np.zeros(TM_W, np.int64)
    reset_track(TM, 7)
    lay_fixed(T, TM, layout_codes(tokens), curve_array(rules), box_array(rules))
    return T, TM


def describe(T, TM) -> list[str]:
    out = []
    for s in range(TM[TM_FIRST], TM[TM_NSEC]):
        k = T[s, T_KIND]
        if k == STRAIGHT:
            out.append("S")
        else:
            out.append(("C" if k == CORNER else "B") + ("L" if T[s, T_DIR] < 0 else "R"))
    return out


@jit
def step_space(T, sec, lane, sp, d):
    """One space along a pair of lanes: d = 0 with the direction of play, 1 against it."""
    if d == 0:
        sp += 1
        if sp >= pair_spaces(T, sec, lane):
            return sec + 1, 0
        return sec, sp
    sp -= 1
    if sp < 0:
        if sec <= 0:
            return -1, 0
        return sec - 1, pair_spaces(T, sec - 1, lane) - 1
    return sec, sp
