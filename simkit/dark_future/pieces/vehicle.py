"""Vehicle and weapon state of the road engine (struct-of-arrays columns) and the queries the
engine and the drivers share: contact zones, fire corridors with the closest-target rule (p25),
turret target choice (p26-27), ranges (p26) and smoke in the corridor (p30).

See :mod:`.road` for the lane/space geometry these queries stand on.
"""

from __future__ import annotations

from ...core._numba import jit
from . import road as RD
from .road import (MK_ACTIVE, MK_KIND, MK_LHI, MK_LLO, MK_XHI, MK_XLO, SMOKE, front_x,
                   range_between, rear_x, sight_clear)

# --- vehicle columns V[v] ------------------------------------------------------------------------
# One ordered, gap-free list: a column goes in by name beside its kin and the numbers after it
# move up; the width V_W is the last name. The count in range() is checked by the unpacking
# itself (a wrong count fails at import).
(V_SIDE, V_ROLE, V_KIND, V_SEC, V_LANE, V_SP, V_MPH, V_STATUS, V_DMG, V_HAND, V_OIL, V_SKILL,
 V_ACC, V_BRK, V_MAXSPD, V_ARM, V_OOC, V_SPINDIR, V_ATT, V_ENGOFF, V_NODRIVER, V_BRKLEFT,
 V_SKIDDIR, V_LEVELS, V_TERMINAL, V_AXLE, V_PANIC, V_LOAD, V_NEEDALIGN, V_ACTED, V_MAXDMG,
 V_LOCKOIL, V_LOCKSMOKE, V_TYRE,
 # direction of travel
 V_DIR,        # 0 = facing the direction of play, 1 = facing against it (U-turns, p14; Game Eight)
 V_REV,        # 1 while the vehicle makes a reverse move (it travels against its own facing, p17)
 V_STAMP,      # turn * 8 + phase of the vehicle's last action (cutting up, p13: 'yet to move')
 # an action declared ahead of the vehicle's move (+ 1; 0 none) and its argument: vehicles
 # moving off together declare first, so that the one accelerating the most moves first (p15,
 # engine._moving_off)
 V_DECL, V_DECLARG,
 # lasting criticals (p34-35): split tyres still rolling, a fuel leak, limbs lost (bits 0-3 =
 # 2 * arm + right), dummy markers left (p22)
 V_SPLIT, V_LEAK, V_LIMBS, V_DUMMIES,
 # the reading of the side mounts' forward corridor (variant side_mount_corridor, p82-83): 0 the
 # car's own lane on that side, 1 the lane beside the car on that side
 V_SIDEREACH,
 # why the vehicle crashed, the engine's CRASH_* code + 1 (0: it did not crash); read only by the
 # end-of-game tally of how each side's vehicles ended
 V_WHY,
 # moving after a shunt ram (p56): the target + 1 of the shunt that stopped this vehicle's
 # straight-ahead move, until engine._take_turn has the target move and this move completed;
 # engine.SHUNTED_FORCED on a target told to take its move whatever its speed factor (variant
 # shunt_target_move = always)
 V_SHUNTED,
 # bikes (p62-72): 1 for a bike; the side of this move's single-lane dodge zone (-1 left lane,
 # +1 right lane, 0 none); a bike down after a roll or a head-on ram (p70); a halted engine-dead
 # bike its rider pushes at 5mph (p69)
 V_BIKE, V_DODGE, V_FALLEN, V_PUSH,
 # a bike that lost a wheel (p69 Wheel Bearing): it rolls on its next move and is not ridden again
 V_WHEELOFF,
 # 1 once a rider already out of control loses control afresh during its move (a bike-to-bike
 # shunt, p70): the control-loss result's regain at the end of that move ends only the loss it
 # was tested for (p42), so this one stands and the next move starts with a test
 V_LOSTAGAIN,
 # the control-loss result whose move is still under way (engine.REGAIN_PLAIN or REGAIN_SKID;
 # 0 none): a shunt stops that move until its target has moved and the rammer completes it
 # (p56), and control comes back only once the whole move is made (p42)
 V_REGAIN,
 # how a vehicle removed with a section of track (p75) stood when it went: 1 a wreck, 2 stopped
 # for good without weapons (p88), 0 in running order. The first two were taken out before
 # they left play, which Game Seven's verdict does not count as getting safely away (p89)
 V_LEFTOUT,
 # what is left of an out-of-control car's move a shunt interrupted (p58: it 'simply completes
 # the straight-ahead move, then tests for the skid and/or the spin'): the drift skid's side
 # (-1, 1; 0 none) and 1 for a spin just started, made when it completes the move
 V_CDRIFT, V_CSPIN,
 # the enemy + 1 a chase driver last chose to pursue (0 none), kept by drivers whose
 # ``focus`` parameter remembers it (policies._quarry): a player's own memory of its target
 V_QUARRY,
 # the places a driver has backed off from (p17) and how often, one per column (key * 16 +
 # times; 0 empty), counted by the engine as each reverse is made (policies.remember_backing)
 # and read by policies.decide: a player's memory of a reverse that led nowhere. Eight, so a
 # round of backing and filling over five places or more is caught too
 V_BACKED0, V_BACKED1, V_BACKED2, V_BACKED3, V_BACKED4, V_BACKED5, V_BACKED6, V_BACKED7,
 # a stand-off plan (policies._plan_standoff): the place a stopped driver with no shot set out
 # for, where it will have one (its place key + 1; 0 none), and the moves it still needs to get
 # there (the plan is dropped when the way grows longer), or, negative, the table on which it
 # last looked and found no such place: a player's memory of where it is going
 V_GOAL, V_GOALN,
 # whether the way on was found shut to weaving for this car (policies._weave_shut_at): the
 # table it was asked on (policies._table_key) + 1 where shut, -1 - that table where open,
 # 0 never asked: the search is dear, and the answer holds until something stands elsewhere
 V_WEAVE,
 V_W,          # the row's width: keep last
 ) = range(69)

# status
ACTIVE, WRECK, CRASHED, LEFT, FINISHED = range(5)
STATUS_NAMES = ("active", "wreck", "crashed", "left play", "finished")
# control
IN_CONTROL, OUT_OF_CONTROL, SPINNING = 0, 1, 2
# roles
LEAD, CHASE = 0, 1

# --- weapon columns WS[v, slot] -------------------------------------------------------------------
(W_KIND, W_MOUNT, W_STATION, W_RANGE, W_ACC, W_DMG, W_HE, W_FLAT, W_AMMO, W_LASER, W_PTYPE,
 W_FIRED, W_KEY,
 # lasting weapon criticals and links
 W_DAMAGED,    # accuracy already cut, an odd d6 jams each shot (p35)
 W_JAM,        # jammed until a 6
 W_OFF,        # out of action, a bit per cause (OFF_*)
 W_LINK,       # link group + 1 (p83)
 W_GUIDED,     # a missile pod (guidance, p34)
 W_LOCKED,     # a locked-on oil or smoke layer (p23-24)
 W_W,          # the row's width: keep last
 ) = range(20)
OFF_LINK, OFF_GEN, OFF_VDU, OFF_ENGINE, OFF_LASTSHOT, OFF_DESTROYED = 1, 2, 4, 8, 16, 32
MAXW = 8
WK_NONE, WK_DIRECT, WK_PASSIVE = 0, 1, 2
M_HOOD, M_ROOF, M_WING_L, M_WING_R, M_SIDE_L, M_SIDE_R, M_TURRET, M_PASSIVE = range(8)
# a bike's fairing mounts fire along the two lanes ahead, both sides alike (p64)
M_FAIRING_L, M_FAIRING_R = 8, 9
MOUNT_NAMES = ("hood", "roof", "wing_left", "wing_right", "side_left", "side_right", "turret",
               "passive", "fairing_left", "fairing_right")


@jit
def on_road(V, u):
    """A vehicle still on the road surface: active, or a wreck left in place (p46, p57)."""
    return V[u, V_STATUS] == ACTIVE or V[u, V_STATUS] == WRECK


@jit
def lanes_of(V, u):
    """Lanes covered by a vehicle's contact zone: four when at an angle to the grid (p44, p52)."""
    lo = V[u, V_LANE]
    if V[u, V_ATT] % 180 != 0 or V[u, V_OOC] == SPINNING:
        return lo - 1, lo + 2
    return lo, lo + 1


@jit
def v_rear(T, V, u):
    return rear_x(T, V[u, V_SEC], V[u, V_LANE], V[u, V_SP])


@jit
def v_front(T, V, u):
    return front_x(T, V[u, V_SEC], V[u, V_LANE], V[u, V_SP])


# What a zone runs into, where a vehicle's index (>= 0) is the other answer
HIT_NONE = -1        # nothing: the move (or drift) is made
HIT_OBSTACLE = -2    # an obstacle, a wreck of the road (p77): rammed head-on


@jit
def zone_hits(T, V, n, me, sec, llo, lhi, xlo, xhi):
    """The vehicle (other than ``me``) whose contact zone overlaps the zone given, or
    HIT_NONE."""
    for u in range(n):
        if u == me or not on_road(V, u):
            continue
        if me >= 0 and may_overlap(V, me, u):
            continue
        a, b = lanes_of(V, u)
        if b < llo or a > lhi:
            continue
        if v_rear(T, V, u) < xhi and xlo < v_front(T, V, u):
            return u
    return HIT_NONE


@jit
def may_overlap(V, v, u):
    """Bikes may share one or both lanes of their contact zones with other bikes (p64):
    both bikes upright and moving in the same or the opposite direction, the mover under
    control (an out-of-control bike that runs into one collides, p70)."""
    return (V[v, V_BIKE] == 1 and V[u, V_BIKE] == 1 and V[u, V_STATUS] == ACTIVE
            and V[v, V_OOC] == IN_CONTROL and V[u, V_FALLEN] == 0 and V[u, V_MPH] > 0
            and V[v, V_FALLEN] == 0)


@jit
def marker_over(M, i, llo, lhi, xlo, xhi):
    """Marker ``i`` shares a lane of ``llo``-``lhi`` and overlaps ``xlo``-``xhi`` (open)."""
    return not (M[i, MK_LHI] < llo or M[i, MK_LLO] > lhi) and M[i, MK_XLO] < xhi \
        and xlo < M[i, MK_XHI]


@jit
def marker_in_zone(M, NM, kind, llo, lhi, xlo, xhi):
    for i in range(NM[0]):
        if M[i, MK_ACTIVE] and M[i, MK_KIND] == kind and marker_over(M, i, llo, lhi, xlo, xhi):
            return i
    return -1


@jit
def smoke_in_fire(T, V, M, NM, v, u, llo, lhi, xa, xb):
    """Smoke markers a shot from ``v`` at ``u`` counts (p30): each one partly or wholly in the
    fire corridor (lanes ``llo``-``lhi``, between ``xa`` and ``xb``), and each one underneath the
    target ('shooters count any smoke marker which is actually underneath the target model').
    Those underneath the firer count once, however many there are: p31's Double Hits table has
    a car firing out of the two markers underneath it at 'only a minus one'; one marker there
    is then -1 too, since two would not be 'only' -1 if a lone one counted nothing."""
    sa, sb = lanes_of(V, v)
    s0, s1 = min(v_rear(T, V, v), v_front(T, V, v)), max(v_rear(T, V, v), v_front(T, V, v))
    ta, tb = lanes_of(V, u)
    t0, t1 = min(v_rear(T, V, u), v_front(T, V, u)), max(v_rear(T, V, u), v_front(T, V, u))
    k = 0
    under = 0
    for i in range(NM[0]):
        if not M[i, MK_ACTIVE] or M[i, MK_KIND] != SMOKE:
            continue
        if marker_over(M, i, sa, sb, s0, s1):
            under = 1
        elif marker_over(M, i, llo, lhi, xa, xb) or marker_over(M, i, ta, tb, t0, t1):
            k += 1
    return k + under


# --- the hit roll's modifier (p26 Tactical Factors, p30 Smoke, p64 Bike Targets) ---------------
# The rule numbers, one block of the hazard-parameter array hp (policies.HP_TF, filled by the
# scenario from the rules' tactical_factors and hit_roll tables): the engine's shot and the
# drivers' estimate of it read the same cells through the same function, so they cannot drift
(TF_HOOD, TF_TURRET, TF_SMOKE, TF_SMOKE_MAX, TF_FAST, TF_FAST_F, TF_FAST_T, TF_BIKE2, TF_BIKE1,
 TF_RANGE_CAP,
 TF_W,         # the block's width: keep last
 ) = range(11)


@jit
def bike_target_mod(V, v, u, mount, tf):
    """Bikes as targets (p64): -1 with both its lanes in the fire corridor, -2 with one (a
    turret's corridor is the bike itself: both lanes)."""
    if not V[u, V_BIKE]:
        return 0
    if mount == M_TURRET:
        return tf[TF_BIKE2]
    # the corridor find_target shot along: a car facing against play has its wings mirrored
    # (with today's one-lane wing and side corridors the count comes out the same either way)
    clo, chi = corridor_lanes_dir(V, v, mount) if V[v, V_DIR] != 0 else corridor_lanes(V, v, mount)
    a = V[u, V_LANE]
    k = (1 if clo <= a <= chi else 0) + (1 if clo <= a + 1 <= chi else 0)
    return tf[TF_BIKE2] if k >= 2 else tf[TF_BIKE1]


@jit
def hit_modifier(T, V, M, NM, v, u, mount, acc, tbuf, tf, more_smoke):
    """What ``v``'s shot from ``mount`` (accuracy ``acc``) at ``u`` adds to its d6 (p26): the
    accuracy, +1 from a hood or turret, -1 a smoke marker counted (:func:`smoke_in_fire`,
    plus ``more_smoke`` not laid yet; at most -3), -1 for a firer and -1 for a target at
    81mph or more, a bike target's -1 or -2 (p64). ``tbuf`` is :func:`find_target`'s answer
    for this mount. Everything here is on the table for the firer to see: the engine rolls
    the shot with it and the drivers price the shot with it."""
    smoke = smoke_in_fire(T, V, M, NM, v, u, tbuf[3], tbuf[4], tbuf[5], tbuf[6]) + more_smoke
    mod = acc
    if mount == M_HOOD:
        mod += tf[TF_HOOD]
    elif mount == M_TURRET:
        mod += tf[TF_TURRET]
    mod += max(tf[TF_SMOKE_MAX], tf[TF_SMOKE] * smoke)
    if V[v, V_MPH] >= tf[TF_FAST]:
        mod += tf[TF_FAST_F]
    if V[u, V_MPH] >= tf[TF_FAST]:
        mod += tf[TF_FAST_T]
    return mod + bike_target_mod(V, v, u, mount, tf)


@jit
def corridor_lanes(V, v, mount):
    """Lanes of a fixed mount's fire corridor, straight ahead (p25). Every fixed mount fires
    forward (p82-83), the Interceptor's side mounts too: along the car's lane on that side, or
    the lane beside it (V_SIDEREACH, variant side_mount_corridor)."""
    lo = V[v, V_LANE]
    if mount == M_WING_L:
        return lo, lo
    if mount == M_WING_R:
        return lo + 1, lo + 1
    if mount == M_SIDE_L:
        return lo - V[v, V_SIDEREACH], lo - V[v, V_SIDEREACH]
    if mount == M_SIDE_R:
        return lo + 1 + V[v, V_SIDEREACH], lo + 1 + V[v, V_SIDEREACH]
    return lo, lo + 1


@jit
def find_target(T, V, n, v, mount, out):
    """Target of a weapon on ``mount`` (p25-27): out = [target, range, facing, smoke lanes lo,
    hi, x from, x to]; target -1 when nothing may be shot. Fixed mounts shoot the closest
    vehicle in their corridor, friend or foe (a friend blocks); turrets the nearest enemy,
    the one behind on a tie. Side mounts are fixed mounts and fire forward (p82-83). For a car
    facing against the direction of play 'ahead' is towards lower x and its left side is the
    play-right side; a target facing the other way shows its front to a shot from ahead
    (p25-27, p32)."""
    back = V[v, V_DIR] != 0
    out[0] = -1
    best = 1 << 30
    if back:
        nose = v_rear(T, V, v)
        tail = v_front(T, V, v)
    else:
        nose = v_front(T, V, v)
        tail = v_rear(T, V, v)
    for u in range(n):
        if u == v or not on_road(V, u):
            continue
        if mount == M_TURRET and (V[u, V_SIDE] == V[v, V_SIDE] or V[u, V_STATUS] != ACTIVE):
            continue
        if V[u, V_FALLEN] and mount != M_TURRET:
            continue   # a fallen bike: only turret weapons may shoot it (p66)
        a, b = lanes_of(V, u)
        ur = v_rear(T, V, u)
        uf = v_front(T, V, u)
        # the target's end nearer to the firer's nose, and its far end
        near = uf if back else ur
        far = ur if back else uf
        rng = -1
        facing = 1  # rear
        if (near <= nose) if back else (near >= nose):                     # ahead
            if mount != M_TURRET:
                if back:
                    clo, chi = corridor_lanes_dir(V, v, mount)
                else:
                    clo, chi = corridor_lanes(V, v, mount)
                if b < clo or a > chi:
                    continue
            if back:
                last = RD.space_at(T, V[u, V_SEC], V[u, V_LANE], uf - 1) == \
                    RD.pair_spaces(T, V[u, V_SEC], V[u, V_LANE]) - 1
                seen = sight_clear_back(T, V[v, V_SEC], last, V[u, V_SEC])
            else:
                seen = sight_clear(T, V[v, V_SEC], V[u, V_SP] == 0, V[u, V_SEC])
            if not seen:
                continue
            x_from = near if back else nose
            x_to = nose if back else near
            facing = 1
        elif mount == M_TURRET and ((far >= tail) if back else (far <= tail)):  # behind
            if back:
                seen = sight_clear_back(T, V[u, V_SEC], V[v, V_SP] == RD.pair_spaces(
                    T, V[v, V_SEC], V[v, V_LANE]) - 1, V[v, V_SEC])
            else:
                seen = sight_clear(T, V[u, V_SEC], V[v, V_SP] == 0, V[v, V_SEC])
            if not seen:
                continue
            x_from = tail if back else far
            x_to = far if back else tail
            facing = 0
        elif mount == M_TURRET:               # level with the car
            x_from = tail if back else far
            x_to = far if back else tail
            facing = 2
        else:
            continue
        rng = 1 if facing == 2 else range_between(T, V[v, V_LANE], x_from, x_to)
        # closest; a turret prefers the target behind on a tie (p27)
        if rng < best or (rng == best and mount == M_TURRET and facing == 0):
            best = rng
            out[0] = u
            out[1] = rng
            out[2] = facing
            out[5] = x_from
            out[6] = x_to
            out[3] = min(a, V[v, V_LANE])
            out[4] = max(b, V[v, V_LANE] + 1)
    if out[0] >= 0 and mount != M_TURRET:
        u = out[0]
        if V[u, V_SIDE] == V[v, V_SIDE] or V[u, V_STATUS] != ACTIVE:
            out[0] = -1   # the closest vehicle in the corridor is a friend or a wreck: no shot
    if out[0] >= 0 and V[out[0], V_DIR] != V[v, V_DIR] and out[2] < 2:
        out[2] = 1 - out[2]   # a target facing the firer shows its front (and vice versa)
    return out[0]


# a facing code with this bit set is an oblique hit: the critical's d6 picks the facing given
# (even) or the side (odd), p32
OBLIQUE = 8
F_FRONT, F_REAR, F_SIDE = 0, 1, 2


@jit
def hit_facing(T, V, v, u, facing):
    """The facing a shot from ``v`` strikes on ``u`` (p32), from the front/rear/side facing of
    the corridor geometry (:func:`find_target`): a target spun through 90 degrees shows its
    side; one spun round to face the other way swaps front and rear; a target at 45 degrees,
    a shot onto or from a curve, or a target in a completely different pair of lanes is an
    oblique hit (``facing | OBLIQUE``). Both on straights with a lane in common: front or rear."""
    if facing == F_SIDE:
        return F_SIDE
    att = V[u, V_ATT] % 360
    if att == 90 or att == 270:
        return F_SIDE
    if att == 180:
        facing = 1 - facing
    oblique = att % 90 != 0
    if T[V[v, V_SEC], RD.T_KIND] != RD.STRAIGHT or T[V[u, V_SEC], RD.T_KIND] != RD.STRAIGHT:
        oblique = True
    a, b = lanes_of(V, u)
    c, d = lanes_of(V, v)
    if b < c or a > d:
        oblique = True
    return facing | OBLIQUE if oblique else facing


@jit
def longitudinal_gap(T, V, v, u):
    """Spaces from v's front to u's rear along v's lanes (negative: u is not ahead)."""
    fx = v_front(T, V, v)
    ur = v_rear(T, V, u)
    if ur < fx:
        return -(RD.along(T, V[v, V_LANE], ur, fx) + RD.UNITS - 1) // RD.UNITS
    return (RD.along(T, V[v, V_LANE], fx, ur) + RD.UNITS - 1) // RD.UNITS


# --- the direction of travel (p13-17, p52-57, p75) ------------------------------------------------
@jit
def v_nose(T, V, u):
    """The leading edge of a vehicle in the direction it faces (longitudinal x)."""
    if V[u, V_DIR] == 0:
        return v_front(T, V, u)
    return v_rear(T, V, u)


@jit
def ahead_key(T, V, u):
    """Larger = further forward in the vehicle's own direction (the phase order, p12)."""
    if V[u, V_DIR] == 0:
        return v_front(T, V, u)
    return -v_rear(T, V, u)


@jit
def travel_dir(V, u):
    """0 = travelling with the direction of play, 1 = against it (a reversing car travels
    against its facing, p17)."""
    return V[u, V_DIR] ^ V[u, V_REV]


@jit
def corridor_lanes_dir(V, v, mount):
    """Fixed corridors of a car facing against play: its left wing is on the play-right lane."""
    lo = V[v, V_LANE]
    if mount == M_WING_L:
        return lo + 1, lo + 1
    if mount == M_WING_R:
        return lo, lo
    if mount == M_SIDE_L:
        return lo + 1 + V[v, V_SIDEREACH], lo + 1 + V[v, V_SIDEREACH]
    if mount == M_SIDE_R:
        return lo - V[v, V_SIDEREACH], lo - V[v, V_SIDEREACH]
    return lo, lo + 1


@jit
def play_majority(V, n, old):
    """The direction of play the vehicles in play set (p75: 'determined by the majority of cars
    ... Whenever there are equal numbers of vehicles in opposite directions, the old direction of
    play remains in force'): 0 or 1, ``old`` on equal numbers."""
    k0 = 0
    k1 = 0
    for v in range(n):
        if V[v, V_STATUS] == ACTIVE:
            if V[v, V_DIR] == 0:
                k0 += 1
            else:
                k1 += 1
    if k0 > k1:
        return 0
    if k1 > k0:
        return 1
    return old


@jit
def sight_clear_back(T, sec_a, sp_b_last, sec_b):
    """:func:`pieces.road.sight_clear` looking against the direction of play: firer on sec_a, target
    on sec_b <= sec_a whose front is in sec_b's last space when ``sp_b_last``."""
    if sec_b == sec_a:
        return True
    for s in range(sec_b + 1, sec_a):
        if T[s, RD.T_KIND] != RD.STRAIGHT:
            return False
    if T[sec_a, RD.T_KIND] != RD.STRAIGHT:
        return sec_b == sec_a - 1 and sp_b_last
    if T[sec_b, RD.T_KIND] != RD.STRAIGHT:
        return sp_b_last
    return True


@jit
def uturn_zone(T, TM, M, NM, V, n, v, reversing):
    """Where a U-turn would end, or (-1, -1) when it may not be attempted (p14): the move's
    space must exist, the six-lane contact zone must hold no vehicle or obstacle, and the car
    may not U-turn from a curve onto a curve (only across a straight section; from a straight
    it may U-turn across the edge of a curve)."""
    d = V[v, V_DIR] ^ (1 if reversing else 0)
    sec = V[v, V_SEC]
    lane = V[v, V_LANE]
    sp = V[v, V_SP]
    if d == 0:
        sp += 1
        if sp >= RD.pair_spaces(T, sec, lane):
            sec += 1
            sp = 0
        if sec >= TM[RD.TM_NSEC]:
            return -1, -1
    else:
        sp -= 1
        if sp < 0:
            sec -= 1
            if sec < TM[RD.TM_FIRST]:
                return -1, -1
            sp = RD.pair_spaces(T, sec, lane) - 1
    if T[V[v, V_SEC], RD.T_KIND] != RD.STRAIGHT and T[sec, RD.T_KIND] != RD.STRAIGHT:
        return -1, -1
    xlo = RD.rear_x(T, sec, lane, sp)
    xhi = RD.front_x(T, sec, lane, sp)
    if zone_hits(T, V, n, v, sec, 0, RD.LANES - 1, xlo, xhi) >= 0:
        return -1, -1
    if marker_in_zone(M, NM, RD.OBSTACLE, 0, RD.LANES - 1, xlo, xhi) >= 0:
        return -1, -1
    return sec, sp


@jit
def has_gun(WS, v):
    """A direct-fire weapon with ammunition left and not out of action."""
    for w in range(MAXW):
        if WS[v, w, W_KIND] == WK_DIRECT and WS[v, w, W_AMMO] != 0 and WS[v, w, W_OFF] == 0:
            return True
    return False


@jit
def armed(V, WS, v):
    """A vehicle that can still shoot: a driver and :func:`has_gun`. What 'immobilised
    *without weapons*' turns on (p88), for the verdict and for the drivers who must not waste
    shots on a hulk alike."""
    return not V[v, V_NODRIVER] and has_gun(WS, v)
