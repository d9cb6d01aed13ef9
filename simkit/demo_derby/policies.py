"""The Demo Derby drivers: named policies, each a parameter vector per car (``POLICIES``,
``PARAM_SPACE``, ``DEFAULTS``), and the compiled decisions the derby kernel (``engine``) calls:
``plot_policy`` plots every car's move at the start of a round, ``_steer`` picks each hex.

Drivers (``plot_policy``) plan the whole recorded move: every legal (direction, speed) is driven
in the head hex by hex against a clearance map of the arena, counting the car's flat tires,
engine and cards, and costed by where it ends (a ram valued from the damage and hit-location
tables, a hazard, or a hex with room for the next move); see docs/rules/demo-derby.md.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core._numba import jit
from .pieces import arena as A
from .pieces.layout import (C_ALIVE, C_COL, C_DIR, C_FACING, C_LAPK, C_LAPSGN, C_LAPST, C_LEFT,
                            C_LOCKED, C_MODE, C_NOCRASH, C_PLDIR, C_PLSPEED, C_RADT, C_RANK, C_ROW,
                            C_SPEED, C_STUCK, C_TARGET, E_FORWARD_ONLY, E_MAX_SPEED, E_STRAIGHT,
                            LIM_ACC_F, LIM_ACC_R, LIM_CRASHES, LIM_DQ, LIM_FIRST_ROUND, LIM_FLAT,
                            LIM_LAPS, LIM_PA_C, LIM_PA_R, LIM_PB_C, LIM_PB_R, LIM_ROUND0,
                            LIM_SAME_COL, MAX_HELD, _SIDE_TO_IMPACT, SQRT3, _blocking, _centre,
                            _impact_from)
from .pieces.sheet import flat_tires, max_speed
from .rules import ENGINE, FRONT, RADIATOR, REAR, TRUNK

# --- driver policies: id and parameter vector per car (DESIGN.md "Policies are data too") ------
POLICIES = ("hunter", "rammer", "survivor", "opportunist")
POL_HUNTER, POL_RAMMER, POL_SURVIVOR, POL_OPPORTUNIST = range(4)
#: params[car, k]: attack speed, policy id, player (cars of one player are a team), speed in a
#: race, rounds without a crash before a cautious driver goes looking for one, the opportunist's
#: reach (hexes) and the crossed boxes that make a car "weak" to it, the cautious speed (hexes a
#: round: flat tires are added to the plot), whether it aims at the side where the damage tables
#: hurt most, the lowest speed it rams at (below it, it winds up first), whether it hunts when
#: two players are left (a tie is not a win), how much its own damage counts against a ram (in
#: tenths: 10 = as much as the target's), whether it ends its move turned so that likely hits
#: land where they hurt least
(P_CRUISE, P_POLICY, P_PLAYER, P_RACE_SPEED, P_MARGIN, P_REACH, P_WEAK, P_SAFE, P_AIM,
 P_MIN_RAM, P_DUEL, P_CARE, P_GUARD) = range(13)
N_PARAMS = 13
PARAM_NAMES = ("cruise", "policy", "player", "race_speed", "margin", "reach", "weak", "safe",
               "aim", "min_ram", "duel", "care", "guard")
#: The drivers' parameter space (DESIGN.md "Balance is an equilibrium"): name -> (column, kind,
#: low, high). "policy" and "player" are set per car, not searched. Defaults per policy below.
PARAM_SPACE = {
    "cruise": (P_CRUISE, "int", 1, 8),
    "race_speed": (P_RACE_SPEED, "int", 1, 8),
    "margin": (P_MARGIN, "int", 1, 8),
    "reach": (P_REACH, "int", 1, 40),
    "weak": (P_WEAK, "int", 1, 60),
    "safe": (P_SAFE, "int", 1, 8),
    "aim": (P_AIM, "bool", 0, 1),
    "min_ram": (P_MIN_RAM, "int", 0, 8),
    "duel": (P_DUEL, "bool", 0, 1),
    "care": (P_CARE, "int", 0, 20),
    "guard": (P_GUARD, "bool", 0, 1),
}
#: defaults per policy; "policy" and "player" are filled in per car. The hunter keeps the
#: original style (closes straight in, rams any side at any speed, ignores its own damage) but
#: plans its moves like every driver.
_COMMON = {"race_speed": 6, "margin": 6, "reach": 4, "weak": 8, "safe": 3, "duel": 1,
           "care": 10, "guard": 1, "aim": 1, "min_ram": 4}
DEFAULTS = {
    "hunter": dict(_COMMON, cruise=5, aim=0, min_ram=0, care=0, guard=0),
    "rammer": dict(_COMMON, cruise=8, care=6),   # counts its own damage at 60%: aggressive
    "survivor": dict(_COMMON, cruise=6),
    "opportunist": dict(_COMMON, cruise=7, safe=2),
}
M_HUNT, M_EVADE, M_RACE = range(3)


def policy_params(policy: str, player: int, **overrides) -> np.ndarray:
    """One car's parameter vector (defaults of its policy, then ``overrides``), checked against
    the kinds and bounds of ``PARAM_SPACE``."""
    for name, x in overrides.items():
        if name not in PARAM_SPACE:
            raise KeyError(f"unknown driver parameter {name!r}")
        _, kind, lo, hi = PARAM_SPACE[name]
        if isinstance(x, bool) or int(x) != x or not lo <= int(x) <= hi:
            raise ValueError(f"driver parameter {name}={x!r} outside {kind} [{lo}, {hi}]")
    vals = dict(DEFAULTS[policy], **overrides)
    vals.update(policy=POLICIES.index(policy), player=player)
    return np.array([int(vals[k]) for k in PARAM_NAMES], np.int64)


def expand_params(params) -> np.ndarray:
    """Full parameter rows; a short row (e.g. just a cruise speed) is a hunter on its own team."""
    p = np.asarray(params, np.int64)
    p = p.reshape(p.shape[0], -1)
    if p.shape[1] >= N_PARAMS:
        return np.ascontiguousarray(p[:, :N_PARAMS])
    out = np.stack([policy_params("hunter", i) for i in range(p.shape[0])])
    out[:, :p.shape[1]] = p
    if p.shape[1] <= P_PLAYER:
        out[:, P_PLAYER] = np.arange(p.shape[0])
    return out


# --- what every driver sees: the board at the start of the round --------------------------------
class Damage(NamedTuple):
    """The damage tables a driver reads, ``D``: a narrow view of the engine's ``T``, so the
    planner's hot functions, called for every hex of every candidate plan, are passed four
    arrays, not fifteen (numba passes a tuple's every member on every call)."""
    damage: np.ndarray
    hit: np.ndarray
    capacity: np.ndarray
    overflow: np.ndarray


@jit
def driver_tables(T):
    """The :class:`Damage` view of the engine's table arrays."""
    return Damage(T.damage, T.hit, T.capacity, T.overflow)


class Board(NamedTuple):
    """What a driver reads while it drives candidate moves in the head, ``B``: built once a
    plot (each member is a reference numba counts when the tuple is made)."""
    S: tuple            # the derby state (engine.Derby)
    D: Damage
    params: np.ndarray
    G: tuple            # the ground (engine.Ground)
    lim: np.ndarray


class Drive(NamedTuple):
    """One candidate move, ``C``: what stays the same for every hex of it (scalars only, so
    making one a plan costs nothing)."""
    i: int              # the car
    goal: tuple         # what it drives at this round (:func:`_goal`)
    pdir: int           # +1 forward, -1 reverse
    speed: int          # the plotted speed
    straight: bool      # a card holds it straight on
    rnd: int


@jit
def _enemy(i, j, cars, params):
    return j != i and cars[j, C_ALIVE] == 1 and params[j, P_PLAYER] != params[i, P_PLAYER]


@jit
def _nearest(i, cars, params):
    """The nearest car of another player (-1 if none); equally near cars: the lower rank."""
    best = -1
    bd = 1 << 30
    for j in range(cars.shape[0]):
        if _enemy(i, j, cars, params):
            d = A.distance(cars[i, C_ROW], cars[i, C_COL], cars[j, C_ROW], cars[j, C_COL])
            if d < bd or (d == bd and cars[j, C_RANK] < cars[best, C_RANK]):
                bd = d
                best = j
    return best


@jit
def _players_alive(cars, params):
    """How many players still have a car in the game, and the last one found."""
    seen = np.zeros(cars.shape[0] + 1, np.bool_)
    k = 0
    last = -1
    for i in range(cars.shape[0]):
        if cars[i, C_ALIVE] == 1:
            p = params[i, P_PLAYER]
            if not seen[p]:
                seen[p] = True
                k += 1
                last = p
    return k, last


@jit
def _weakness(j, S, capacity, params_i):
    """How tempting car j is to an opportunist: stuck, stopped, stalling or badly damaged."""
    cars, sheets = S.cars, S.sheets
    w = 0
    if cars[j, C_STUCK] == 1 or cars[j, C_LOCKED] > 0:
        w += 100
    if cars[j, C_SPEED] == 0:
        w += 50
    if cars[j, C_RADT] >= 0:
        w += 40
    dmg = 0
    for k in range(capacity.shape[0] - 1):  # every part but the laps
        dmg += sheets[j, k]
    if dmg >= params_i[P_WEAK]:
        w += 20 + dmg
    return w


@jit
def _race_aim(i, cars, lim):
    """Where a racing car steers: round the pole it must go round next, then across the line."""
    ax, ay = _centre(lim[LIM_PA_R], lim[LIM_PA_C])
    bx, by = _centre(lim[LIM_PB_R], lim[LIM_PB_C])
    mx = 0.5 * (ax + bx)
    my = 0.5 * (ay + by)
    x, y = _centre(cars[i, C_ROW], cars[i, C_COL])
    rad = 2.0 * SQRT3       # two hexes out from the pole
    k = cars[i, C_LAPK]
    if k < 0:  # not started: across the nearer outer ray, away from the car's side of the line
        side = 1.0 if (bx - ax) * (y - ay) - (by - ay) * (x - ax) >= 0 else -1.0
        if abs(x - ax) <= abs(x - bx):
            return ax - rad, ay - side * SQRT3
        return bx + rad, by - side * SQRT3
    s = float(cars[i, C_LAPSGN])
    pos = (cars[i, C_LAPST] + k + 1) % 4
    if pos == 1:    # after L: over pole A, then down through the gap
        if x < ax:
            return ax, ay + s * rad
        return mx, my - s * SQRT3
    if pos == 2:    # under pole B, then up across R
        if x < bx:
            return bx, by - s * rad
        return bx + rad, by + s * SQRT3
    if pos == 3:    # over pole B, then back through the gap
        if x > bx:
            return bx, by + s * rad
        return mx, my - s * SQRT3
    if x > ax:      # under pole A, then up across L
        return ax, ay - s * rad
    return ax - rad, ay + s * SQRT3


# --- planning: the whole recorded move, hex by hex ---------------------------------------------
# A car must move its full recorded distance, each hex straight on or one hexside to a side. The
# drivers plan with ``clearance``: for every hex and facing, how many hexes a car can still drive
# forward (reverse: the opposite facing) without entering a wall, pole, ramp, mud or ditch, with
# and without steering (a straight-only card). A move whose hexes exceed the clearance of where
# it starts must end in a crash; each hex is chosen so the rest of the move still fits.
CL_CAP = 8


@jit
def _hazard(ter):
    return _blocking(ter) or ter == A.RAMP or ter == A.MUD or ter == A.DITCH


@jit
def clearance(terrain, clear):
    """Fill clear[s, row, col, facing] (s = 1: straight on only) with the number of hexes a car
    there can drive without entering a hazard, capped at CL_CAP (static terrain only)."""
    nr_, nc_ = terrain.shape
    clear[:] = 0
    for k in range(1, CL_CAP + 1):
        for s in range(2):
            for r in range(1, nr_ - 1):
                for c in range(1, nc_ - 1):
                    if _hazard(terrain[r, c]):
                        continue
                    for f in range(6):
                        if clear[s, r, c, f] < k - 1:
                            continue
                        ok = False
                        for t in range(-1, 2):
                            if s == 1 and t != 0:
                                continue
                            nf = (f + t) % 6
                            ar, ac = A.neighbour(r, c, nf)
                            if 0 <= ar < nr_ and 0 <= ac < nc_ and not _hazard(terrain[ar, ac]):
                                if clear[s, ar, ac, nf] >= k - 1:
                                    ok = True
                        if ok:
                            clear[s, r, c, f] = k


def new_clearance(terrain) -> np.ndarray:
    cl = np.zeros((2,) + terrain.shape + (6,), np.int64)
    clearance(terrain, cl)
    return cl


@jit
def _point_value(sheet, D, part):
    """What one damage point aimed at ``part`` costs its car (a driver's judgement, not a rule):
    follows the overflow to the part it lands on; a point that puts the car out (last engine or
    trunk box) or fills the radiator (a stall two turns later) costs most, a flat tire a hex."""
    capacity, overflow = D.capacity, D.overflow
    p = part
    while sheet[p] >= capacity[p]:
        p = overflow[p]
        if p < 0:
            return 0.0
    left = capacity[p] - sheet[p]
    if p == ENGINE:
        return 0.5 + 10.0 / left
    if p == TRUNK:
        return 10.0 / left
    if p == RADIATOR:
        return 8.0 / left if left > 1 else 8.0
    if p < 4:  # a tire
        return 2.5 if left == 1 else 0.5
    return 1.0 if left == 1 else 0.3  # a body side: full, the next point reaches the engine


@jit
def _hit_value(sheet, D, column):
    """Mean cost of one point read in ``column`` of the hit-location table (one d6)."""
    hit = D.hit
    v = 0.0
    for d in range(1, 7):
        v += _point_value(sheet, D, hit[d, column])
    return v / 6.0


@jit
def _ram_value(i, o, impact, speed, pdir, S, D, params, lim):
    """Expected harm a ram at ``speed`` through ``impact`` does to car o, less the harm the
    rammer takes (weighted by its ``care``), from the damage and hit-location tables."""
    sheets = S.sheets
    damage = D.damage
    s = min(max(speed, 0), damage.shape[1] - 1)
    et = 0.0
    er = 0.0
    for d in range(1, 7):
        et += damage[d, s]
        er += damage[d - 1, s]
    et /= 6.0
    er /= 6.0
    rcol = impact if lim[LIM_SAME_COL] == 1 else (FRONT if pdir > 0 else REAR)
    v = et * _hit_value(sheets[o], D, impact)
    v -= 0.1 * params[i, P_CARE] * er * _hit_value(sheets[i], D, rcol)
    return v


@jit
def _helpless(j, cars):
    """A car that cannot get away this round: stuck, locked or stalling."""
    return cars[j, C_STUCK] == 1 or cars[j, C_LOCKED] > 0 or cars[j, C_RADT] >= 0


@jit
def _aim(i, target, S, D, params, terrain):
    """The hex to ram ``target`` from: the side where a point hurts it most (an aiming driver),
    nearer sides first when they are about as good; the target's own hex for a non-aiming one."""
    cars, sheets, occ = S.cars, S.sheets, S.occ
    tr = cars[target, C_ROW]
    tc = cars[target, C_COL]
    if params[i, P_AIM] == 0:
        return tr, tc
    best = 1e18
    br = tr
    bc = tc
    for side in range(6):
        ar, ac = A.neighbour(tr, tc, side)
        if _hazard(terrain[ar, ac]):
            continue
        o = occ[ar, ac] - 1
        if o >= 0 and o != i:
            continue
        imp = _SIDE_TO_IMPACT[(side - cars[target, C_FACING]) % 6]
        hv = _hit_value(sheets[target], D, imp)
        sc = A.distance(cars[i, C_ROW], cars[i, C_COL], ar, ac) - 3.0 * hv
        if sc < best:
            best = sc
            br = ar
            bc = ac
    return br, bc


@jit
def _exposure(i, row, col, facing, S, D, params):
    """How much the hits the car may take next from nearby enemies would hurt, given where it
    ends facing: each enemy within its reach strikes the side of the car that faces it."""
    cars, sheets = S.cars, S.sheets
    e = 0.0
    for j in range(cars.shape[0]):
        if not _enemy(i, j, cars, params):
            continue
        d = A.distance(row, col, cars[j, C_ROW], cars[j, C_COL])
        if d > 9:
            continue
        bd = 1 << 30
        side = 0
        for f in range(6):
            ar, ac = A.neighbour(row, col, f)
            dd = A.distance(ar, ac, cars[j, C_ROW], cars[j, C_COL])
            if dd < bd:
                bd = dd
                side = f
        imp = _SIDE_TO_IMPACT[(side - facing) % 6]
        e += _hit_value(sheets[i], D, imp) / (1.0 + 0.25 * d)
    return e


@jit
def _tie(salt, k):
    """A tiny jitter from the trial's dice stream: ties between equally good choices go to the
    stream, never to the order they were listed in."""
    z = np.uint64(salt) + np.uint64(k + 1) * np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return float(z >> np.uint64(11)) * (1.0 / 9007199254740992.0) * 1e-6


@jit
def _hex_cost(C, B, row, col, nr, nc, nf, left):
    """Cost (lower is better) of the car's next hex being (nr, nc), facing nf, with ``left``
    hexes still to move after it; and whether the move ends there (a crash, mud, the ramp)."""
    i, pdir, speed, straight, rnd = C.i, C.pdir, C.speed, C.straight, C.rnd
    S, D, params, G, lim = B.S, B.D, B.params, B.G, B.lim
    target, ax, ay, aimr, aimc = C.goal
    cars, sheets, occ = S.cars, S.sheets, S.occ
    capacity = D.capacity
    terrain, clear = G.terrain, G.clear
    pol = params[i, P_POLICY]
    mode = cars[i, C_MODE]
    o = occ[nr, nc] - 1
    if o >= 0 and o != i:
        if cars[o, C_ALIVE] == 1:
            if (rnd == lim[LIM_ROUND0] + 1 and lim[LIM_FIRST_ROUND] == 1) or lim[LIM_CRASHES] == 0:
                return 50.0, True  # the car goes no further this round
            if params[o, P_PLAYER] == params[i, P_PLAYER]:
                return 3500.0, True
            if mode == M_EVADE:
                return 2500.0, True
            imp = _impact_from(o, row, col, cars)
            if mode == M_RACE:
                # a ram on the way is taken, not sought: it costs what stopping here would
                x, y = _centre(row, col)
                here = 9.0 + np.sqrt((x - ax) ** 2 + (y - ay) ** 2)
                if pol == POL_HUNTER:
                    return here, True
                if imp == FRONT:
                    return 2500.0, True
                if pol == POL_RAMMER:
                    return here, True
                if pol == POL_OPPORTUNIST and _weakness(o, S, capacity, params[i]) >= 50:
                    return here, True  # stuck, locked or stopped
                return 2500.0, True
            if params[i, P_AIM] == 0:
                return (0.0 if o == target else 1.0), True
            pressed = cars[i, C_NOCRASH] >= params[i, P_MARGIN] and lim[LIM_DQ] == 1
            if speed < params[i, P_MIN_RAM] and not _helpless(o, cars) and not pressed:
                return 1500.0, True  # too slow to be worth it: wind up first
            v = _ram_value(i, o, imp, speed, pdir, S, D, params, lim)
            if pressed:
                v += 5.0  # the eight-round rule is closing in: any crash will do
            if v <= 0.0:
                return 1500.0 - v, True
            return -10.0 * v - (1.0 if o == target else 0.0), True
        return 3000.0, True  # a wreck is an obstacle
    ter = terrain[nr, nc]
    if _blocking(ter):
        return 3000.0, True
    if ter == A.RAMP:
        return 5000.0, True
    if ter == A.MUD or ter == A.DITCH:
        return 2000.0, True
    tf = nf if pdir > 0 else (nf + 3) % 6
    s = 1 if straight else 0
    cost = 0.0
    room = clear[s, nr, nc, tf]
    ram = (mode == M_HUNT and target >= 0
           and A.distance(nr, nc, cars[target, C_ROW], cars[target, C_COL]) <= left
           and (params[i, P_AIM] == 0 or speed >= params[i, P_MIN_RAM]
                or _helpless(target, cars)
                or (cars[i, C_NOCRASH] >= params[i, P_MARGIN] and lim[LIM_DQ] == 1)))
    if left > room and not ram:  # the rest of the move no longer fits: it ends in a hazard
        cost += 1000.0 + 100.0 * (left - room)
    if mode == M_RACE:
        x, y = _centre(nr, nc)
        cost += 10.0 + np.sqrt((x - ax) ** 2 + (y - ay) ** 2)
    elif mode == M_EVADE:
        near = 1 << 30
        for j in range(cars.shape[0]):
            if j != i and cars[j, C_ALIVE] == 1:
                near = min(near, A.distance(nr, nc, cars[j, C_ROW], cars[j, C_COL]))
        cost += 10.0 + max(0, 12 - near)
    elif target >= 0:
        cost += 10.0 + A.distance(nr, nc, aimr, aimc)
        if params[i, P_AIM] == 1 and (nr != aimr or nc != aimc):
            # the hex in front of a moving target is where it rams us, not we it
            fr, fc = A.neighbour(cars[target, C_ROW], cars[target, C_COL],
                                 cars[target, C_FACING])
            if nr == fr and nc == fc and cars[target, C_SPEED] > 0:
                cost += 3.0
    else:
        cost += 10.0
    if left == 0:
        # the next move: room to keep this speed, and where the next hits would land
        nxt = speed - lim[LIM_FLAT] * flat_tires(sheets[i], capacity)
        if nxt > room:
            cost += 2.0 * (nxt - room)
        if params[i, P_GUARD] == 1 and mode != M_RACE:
            cost += 4.0 * _exposure(i, nr, nc, nf, S, D, params)
    return cost, False


@jit
def _choose_hex(C, B, row, col, facing, left, salt):
    """The best next hex: (turn -1/0/+1, its cost, whether the move ends there)."""
    best = 0
    best_cost = 1e18
    best_end = False
    for k in range(1 if C.straight else 3):
        turn = 0 if k == 0 else (-1 if k == 1 else 1)
        nf = (facing + turn) % 6
        travel = nf if C.pdir > 0 else (nf + 3) % 6
        nr, nc = A.neighbour(row, col, travel)
        c, end = _hex_cost(C, B, row, col, nr, nc, nf, left)
        c += _tie(salt, k)
        if c < best_cost:
            best_cost = c
            best = turn
            best_end = end
    return best, best_cost, best_end


@jit
def _target_of(i, S, D, params):
    """Whom a hunting car goes for: the nearest enemy (equally near: the lower rank); an aiming
    driver also weighs how much a hit on its weakest side would hurt (a stalling or badly
    damaged car a few hexes further is worth the trip)."""
    cars, sheets = S.cars, S.sheets
    if cars[i, C_TARGET] >= 0 and cars[cars[i, C_TARGET], C_ALIVE] == 1:
        return cars[i, C_TARGET]
    if params[i, P_AIM] == 0:
        return _nearest(i, cars, params)
    best = -1
    bs = 1e18
    for j in range(cars.shape[0]):
        if not _enemy(i, j, cars, params):
            continue
        d = A.distance(cars[i, C_ROW], cars[i, C_COL], cars[j, C_ROW], cars[j, C_COL])
        hv = 0.0
        for imp in range(6):
            hv = max(hv, _hit_value(sheets[j], D, imp))
        sc = d - 2.0 * hv
        if sc < bs or (sc == bs and cars[j, C_RANK] < cars[best, C_RANK]):
            bs = sc
            best = j
    return best


@jit
def _goal(i, S, D, params, lim, terrain):
    """What car ``i`` drives at this round: (target car or -1, race aim x and y, the hex it aims
    at on the target)."""
    cars = S.cars
    target = -1
    if cars[i, C_MODE] == M_HUNT:
        target = _target_of(i, S, D, params)
    ax = 0.0
    ay = 0.0
    if cars[i, C_MODE] == M_RACE:
        ax, ay = _race_aim(i, cars, lim)
    aimr = 0
    aimc = 0
    if target >= 0:
        aimr, aimc = _aim(i, target, S, D, params, terrain)
    return target, ax, ay, aimr, aimc


@jit
def _steer(i, pdir, straight, S, G, rnd, lim, params, D, salt):
    """The step (0 straight, -1 left, +1 right) the car's driver picks for its next hex, with
    cars[i, C_LEFT] hexes of its move still to go (this one included)."""
    cars = S.cars
    terrain = G.terrain
    C = Drive(i, _goal(i, S, D, params, lim, terrain), pdir, cars[i, C_SPEED], straight, rnd)
    turn, _, _ = _choose_hex(C, Board(S, D, params, G, lim), cars[i, C_ROW], cars[i, C_COL],
                             cars[i, C_FACING], cars[i, C_LEFT] - 1, salt)
    return turn


@jit
def _plan_cost(C, B, hexes, salt):
    """Cost of plotting (C.pdir, C.speed): the move driven hex by hex as the driver would steer
    it, on the board as it stands; the cost of where it ends (a ram, a hazard, or the hex it
    stops on with room for the next move). ``C.pdir`` is +1 or -1, never 0."""
    cars = B.S.cars
    i = C.i
    row = cars[i, C_ROW]
    col = cars[i, C_COL]
    f = cars[i, C_FACING]
    if hexes <= 0:
        c, _ = _hex_cost(C, B, row, col, row, col, f, 0)
        return c
    cost = 0.0
    for h in range(hexes):
        turn, cost, end = _choose_hex(C, B, row, col, f, hexes - h - 1, salt + 31 * h)
        if end:
            return cost
        f = (f + turn) % 6
        row, col = A.neighbour(row, col, f if C.pdir > 0 else (f + 3) % 6)
    return cost


@jit
def _card_limits(i, held, T):
    """What the car's own face-up cards allow: straight on only, forward only, a speed cap."""
    card_effect, card_param = T.card_effect, T.card_param
    straight = False
    fwd_only = False
    cap = 1 << 20
    for h in range(MAX_HELD):
        c = held[i, h]
        if c < 0:
            continue
        e = card_effect[c]
        if e == E_STRAIGHT:
            straight = True
        elif e == E_FORWARD_ONLY:
            fwd_only = True
        elif e == E_MAX_SPEED:
            cap = min(cap, card_param[c])
    return straight, fwd_only, cap


@jit
def _plot_plan(i, want, S, T, params, G, lim, rnd, salt, only_dir, top_cap):
    """Choose the plot: every legal (direction, speed) is driven in the head and costed; a
    speed away from ``want`` hexes a round (the driver's preference) costs a little.
    ``only_dir`` (+1/-1, 0 for both) and ``top_cap`` narrow the choice (a car hit before
    moving)."""
    D = driver_tables(T)
    cars, sheets, held = S.cars, S.sheets, S.held
    capacity = T.capacity
    terrain = G.terrain
    straight, fwd_only, cap = _card_limits(i, held, T)
    cur_dir = cars[i, C_DIR]
    cur = cars[i, C_SPEED]
    maxs = min(max_speed(sheets[i], capacity), cap)
    flats = lim[LIM_FLAT] * flat_tires(sheets[i], capacity)
    goal = _goal(i, S, D, params, lim, terrain)
    # stopping (or staying stopped) first: always legal
    best_dir = cur_dir if cur_dir != 0 else 1
    best_speed = 0
    B = Board(S, D, params, G, lim)
    best_cost = _plan_cost(Drive(i, goal, best_dir, 0, straight, rnd), B, 0, salt)
    best_cost += 1.5 * abs(want) + _tie(salt, 63)
    for dd in range(2):
        pdir = 1 if dd == 0 else -1
        if cur_dir != 0 and cur > 0 and pdir != cur_dir:
            continue  # must stop before changing direction
        if (pdir < 0 and fwd_only) or (only_dir != 0 and pdir != only_dir):
            continue
        acc = lim[LIM_ACC_F] if pdir > 0 else lim[LIM_ACC_R]
        top = min(maxs, (cur + acc) if cur_dir == pdir else acc, top_cap)
        for v in range(1, top + 1):
            hexes = max(v - flats, 0)
            c = _plan_cost(Drive(i, goal, pdir, v, straight, rnd), B, hexes,
                           salt + 101 * v + 17 * dd)
            c += 1.5 * abs(hexes - want) + (2.0 if pdir < 0 else 0.0)
            c += _tie(salt, 64 + 10 * dd + v)
            if c < best_cost:
                best_cost = c
                best_dir = pdir
                best_speed = v
    cars[i, C_PLDIR] = best_dir
    cars[i, C_PLSPEED] = best_speed


@jit
def plot_policy(i, params, S, T, G, lim, rnd, salt):
    """Car i's secret plot (direction, speed) and its intent for the round (hunt a target, keep
    away, race). Reads only positions, speeds, facings, record sheets and its own cards as they
    stand at the start of the round, never another car's plot for this round. Every driver
    plans the whole move (``_plot_plan``): it counts its flat tires, engine and cards, keeps
    clear of walls, poles, mud, ditches and the ramp unless a crash is the point, and ends with
    room for the next move.

    * hunter: hunts the nearest car at its cruise speed, any point of impact, any speed;
    * rammer: hunts at its cruise speed, choosing target, side and line where the damage tables
      hurt most and its own damage least; winds up to ``min_ram`` before ramming;
    * survivor: keeps away from every car at its safe speed, until it has gone ``margin`` rounds
      without a crash while the eight-round disqualification applies, or (``duel``) only two
      players are left and a tie would not be a win: then it hunts like the rammer;
    * opportunist: prowls at its safe speed and pounces (cruise speed) on the weakest car within
      ``reach`` hexes that is stuck, locked, stopped, stalling or has ``weak`` boxes crossed;
      otherwise as the survivor.
    In a Figure-8 race every policy drives the 8 at its race speed; on its path the hunter rams
    any car, the rammer takes side and rear rams, the opportunist those on a helpless car, the
    survivor none.
    """
    D = driver_tables(T)
    cars, sheets = S.cars, S.sheets
    capacity = T.capacity
    p = params[i]
    pol = p[P_POLICY]
    cars[i, C_TARGET] = -1
    flats = lim[LIM_FLAT] * flat_tires(sheets[i], capacity)
    if lim[LIM_LAPS] > 0:
        cars[i, C_MODE] = M_RACE
        want = p[P_RACE_SPEED]
    elif pol == POL_HUNTER or pol == POL_RAMMER:
        cars[i, C_MODE] = M_HUNT
        want = p[P_CRUISE] - flats
    else:
        cars[i, C_MODE] = M_EVADE
        want = p[P_SAFE]
        if pol == POL_OPPORTUNIST:
            best = -1
            bw = 0
            for j in range(cars.shape[0]):
                if not _enemy(i, j, cars, params):
                    continue
                d = A.distance(cars[i, C_ROW], cars[i, C_COL], cars[j, C_ROW], cars[j, C_COL])
                if d <= p[P_REACH]:
                    w = _weakness(j, S, capacity, p)
                    if w > bw or (w == bw and best >= 0 and cars[j, C_RANK] < cars[best, C_RANK]):
                        bw = w
                        best = j
            if best >= 0:
                cars[i, C_MODE] = M_HUNT
                cars[i, C_TARGET] = best
                want = p[P_CRUISE] - flats
        if cars[i, C_MODE] == M_EVADE:
            n_players, _ = _players_alive(cars, params)
            if ((lim[LIM_DQ] == 1 and n_players > 2 and cars[i, C_NOCRASH] >= p[P_MARGIN])
                    or (p[P_DUEL] == 1 and n_players == 2)):
                cars[i, C_MODE] = M_HUNT  # disqualification closing in, or a tie is no win
                want = p[P_CRUISE] - flats
    if cars[i, C_MODE] == M_HUNT and p[P_AIM] == 1 and cars[i, C_TARGET] < 0:
        # an aiming driver keeps the rival it chose for the round (choosing weighs every side
        # of every rival: too dear to redo each hex)
        cars[i, C_TARGET] = _target_of(i, S, D, params)
    _plot_plan(i, want, S, T, params, G, lim, rnd, salt, 0, 1 << 20)
