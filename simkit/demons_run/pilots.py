"""Pilots: compiled, parameterised policies that allocate, plan movement, recover Buoys and fire.

Every pilot is the same compiled code with a parameter vector (``PARAMS``); the three named
pilots differ only in their numbers:

* ``safe_runner``: heads for the Finish hex, pays a high price for hazards, never hunts ring
  Buoys, tries for a Buoy only when the route passes one; shoots Hell Hounds in its way.
* ``buoy_hunter``: chases the Buoy worth most for the time it costs -- Easy Buoys, High Rollers
  and, by its ``hunt_class``, the Hell2 (Astaroth, Belial) Buoys -- then goes home.
* ``raider``: runs for the Finish but ends its moves with enemies in its Field of Fire and fires
  its Laser and Scrambler at them.

How a pilot decides (pilots see the whole state, allocations included: the real game keeps
allocations secret, 203 A):

1. **Route fields** (``route_field``): for each target -- each Finish corner, each Easy Buoy,
   each Hell Hole's ring (where High Rollers and the Hell2/Hell3 Buoys orbit) -- a Dijkstra
   search over the state graph (hex, facing, Velocity) gives the cost-to-go of every state.
   Edges: one hex forward (1/V of a Turn, plus the hazard cost of the hex entered at that
   Velocity: Hell Fire by class, Null, a Gravity Whip, capture by a Hell Hole at Velocity 5-8,
   leaving the board impossible), one turning movement (not in Null or Well hexes, cheaper when
   the Velocity allows more turns), one Velocity Level up or down (Fuel). Computed once per
   board and pilot.
2. **Target**: the Finish, or the Buoy whose VP, less ``vp_per_turn`` for each extra Turn the
   detour costs, is best -- if the detour still leaves ``time_margin`` Turns and Fuel above
   ``fuel_margin``.
3. **Allocation** (Step A D): for each Main Engines setting it can afford (and the System Crises
   allow), the best movement plan at the resulting Velocity is searched (step 4); the setting
   with the lowest plan cost plus Fuel wins. Screens at ``screens`` of the maximum, raised to
   ``screens_hazard`` when a hazard is on the plan; Laser/Scrambler when a target is in the
   Field of Fire with a hit chance of at least ``min_p_hit``; the Tractor when a Buoy is
   within reach. Fuel is held back for deceleration to Velocity 1 plus ``fuel_margin``.
4. **Movement plan** (``best_plan``): an exhaustive search over every legal plan of the Turn at
   its Velocity -- turning movements in each hex within the Maneuver Engines' per-hex and the
   Velocity's per-Turn limits, none in Null or Well hexes, the Gravity Whip's 1-6 hexes when a
   Well is entered at Velocity 1-4 -- scored by the hazard cost of each hex entered, Hell Hound
   approaches (expected hits above the Screens), Fuel for turning, the chance of recovering
   the target Buoy on the way, and the route field at the end state. Buoy Recovery attempts are
   then placed after each hex where a Buoy is within reach with chance >= ``tractor_p``.
"""

from __future__ import annotations

import heapq

import numpy as np

from simkit.core._numba import jit

from .kernels import P_HOUND_DICE_0
from .geometry import dist, fire_solution, in_field_of_fire, nbr
from .layout import (A_LASER, A_SCR, A_SCREENS, A_TRACTOR, BU_COL, BU_MKIND, BU_ROW, BU_STATE,
                     BU_VP, ON_BOARD, RACING, RP_F_ACC, RP_F_DEC, RP_F_LASER, RP_F_SCR,
                     RP_F_SCREENS, RP_F_TRACTOR, RP_F_TURN, RP_HOUND_RANGE, RP_LOF_FIRE0,
                     RP_LOF_HOLE, RP_LOF_WELL, RP_MAX_RANGE, RP_PASS_MIN, RP_REC_FIRE0,
                     RP_REC_PER_HEX, RP_REC_PER_V, RP_REC_SUCC, RP_REC_SUCCESS, RP_REC_VOVER,
                     RP_REC_WELL, RP_TGT_HOUND, RP_TURN_LIMIT, RP_VMAX, RP_VP0, RP_WHIP_GAIN,
                     RP_WHIP_KMAX, RP_WHIP_KMIN, RP_WHIP_VMAX, RP_WHIP_VMIN, V_COL, V_FACING,
                     V_FIN_COL, V_FIN_ROW, V_ROW, V_STATUS, V_TARGET, V_VEL)
from .markers import EASY
from .rules import FUEL, LASER, ME, PI, SCRAMBLER, SCREENS, TRACTOR

# --- parameters ------------------------------------------------------------------------------
PARAM_NAMES = ("risk", "cruise", "hunt_class", "vp_per_turn", "screens", "screens_hazard",
               "fire_ships", "fire_hounds", "min_p_hit", "tractor_p", "fuel_margin",
               "attack_bonus", "time_margin", "w_null", "w_fire1", "w_fire2", "w_fire3",
               "w_whip", "w_hound", "w_turn", "w_dv", "w_fuel")
(PP_RISK, PP_CRUISE, PP_HUNT, PP_VPT, PP_SCREENS, PP_SCREENS_HAZ, PP_FIRE_SHIPS,
 PP_FIRE_HOUNDS, PP_MIN_PHIT, PP_TRACTOR_P, PP_FUEL_MARGIN, PP_ATTACK, PP_TIME_MARGIN,
 PP_W_NULL, PP_W_FIRE1, PP_W_FIRE2, PP_W_FIRE3, PP_W_WHIP, PP_W_HOUND, PP_W_TURN, PP_W_DV,
 PP_W_FUEL) = range(22)
N_PP = 22

_COMMON = dict(w_null=3.0, w_fire1=0.6, w_fire2=2.5, w_fire3=5.0, w_whip=0.4, w_hound=0.3,
               w_turn=0.05, w_dv=0.05, w_fuel=0.01)
PARAMS = {
    "safe_runner": dict(risk=3.0, cruise=7, hunt_class=-1, vp_per_turn=40.0, screens=0.0,
                        screens_hazard=1.0, fire_ships=0, fire_hounds=1, min_p_hit=0.4,
                        tractor_p=0.5, fuel_margin=60, attack_bonus=0.0, time_margin=6,
                        **_COMMON),
    "buoy_hunter": dict(risk=1.0, cruise=6, hunt_class=1, vp_per_turn=8.0, screens=0.3,
                        screens_hazard=1.0, fire_ships=0, fire_hounds=1, min_p_hit=0.4,
                        tractor_p=0.3, fuel_margin=50, attack_bonus=0.0, time_margin=4,
                        **_COMMON),
    "raider": dict(risk=1.5, cruise=7, hunt_class=-1, vp_per_turn=30.0, screens=0.5,
                   screens_hazard=1.0, fire_ships=1, fire_hounds=0, min_p_hit=0.25,
                   tractor_p=0.5, fuel_margin=50, attack_bonus=1.5, time_margin=6, **_COMMON),
}
POLICIES = {name: i for i, name in enumerate(PARAMS)}
NV = 13                     # Velocities the route fields cover (0-12)
INF = 1e9
MAX_PLAN = 96


TABLE_SIZE = 2048


def plan_scratch():
    """The dominance table :func:`best_plan` works in (allocated once per race)."""
    return np.zeros((2, TABLE_SIZE), np.float64)


def param_vector(name: str, overrides: dict | None = None) -> np.ndarray:
    p = dict(PARAMS[name])
    p.update(overrides or {})
    return np.asarray([float(p[k]) for k in PARAM_NAMES], np.float64)


# --- costs shared by the route fields and the plan search ------------------------------------

@jit
def hex_cost(c, r, v, terrain, fire_class, vturns, rp, pp):
    """The pilot's price (in Turn units) for entering hex (c, r) at Velocity v."""
    t = terrain[c, r]
    cost = 0.0
    if t == 2:                                  # Null
        cost += pp[PP_W_NULL]
    fc = fire_class[c, r]
    if fc > 0:
        w = pp[PP_W_FIRE1] if fc == 1 else (pp[PP_W_FIRE2] if fc == 2 else pp[PP_W_FIRE3])
        cost += w * (1.0 + vturns[min(v, vturns.shape[0] - 1)] / 4.0)
    if t == 3 and rp[RP_WHIP_VMIN] <= v <= rp[RP_WHIP_VMAX]:
        cost += pp[PP_W_WHIP]
    cost *= pp[PP_RISK]
    if t == 4 and v < rp[RP_PASS_MIN]:          # captured by the Hell Hole (204 M)
        cost += 1000.0
    return cost


@jit
def route_field(goal, vlo, vhi, vmax, enter_only, terrain, fire_class, vturns, rp, pp):
    """Cost-to-go over (col, row, facing, Velocity) to any state with a ``goal`` hex and a
    Velocity in vlo..vhi (Dijkstra on the reversed state graph). ``enter_only``: the goal
    counts only when entered by a forward move (the Finish hex, 211 A), not reached by turning
    or by a Velocity change in it. float32[cols+1, rows+1, 6, NV]."""
    C, R = terrain.shape[0], terrain.shape[1]
    J = np.full((C, R, 6, NV), np.float32(INF))
    h = [(0.0, np.int64(0))]
    h.pop()
    for c in range(1, C):
        for r in range(1, R):
            if goal[c, r]:
                for f in range(6):
                    for v in range(vlo, vhi + 1):
                        J[c, r, f, v] = 0.0
                        heapq.heappush(h, (0.0, np.int64(((c * R + r) * 6 + f) * NV + v)))
    while len(h) > 0:
        d, u = heapq.heappop(h)
        v = u % NV
        f = (u // NV) % 6
        r = (u // (NV * 6)) % R
        c = u // (NV * 6 * R)
        if d > J[c, r, f, v]:
            continue
        # forward: from the hex behind, same facing and Velocity
        if v >= 1:
            pc, pr = nbr(c, r, (f + 3) % 6)
            if 1 <= pc < C and 1 <= pr < R:
                nd = d + 1.0 / v + hex_cost(c, r, v, terrain, fire_class, vturns, rp, pp)
                if nd < J[pc, pr, f, v]:
                    J[pc, pr, f, v] = nd
                    heapq.heappush(h, (nd, np.int64(((pc * R + pr) * 6 + f) * NV + v)))
        if enter_only and goal[c, r] and vlo <= v <= vhi:
            continue
        # a turning movement in this hex
        if vturns[v] > 0 and terrain[c, r] != 2 and terrain[c, r] != 3:
            w = pp[PP_W_TURN] * (1.0 + 1.0 / vturns[v])
            for df in (1, 5):
                pf = (f + df) % 6
                nd = d + w
                if nd < J[c, r, pf, v]:
                    J[c, r, pf, v] = nd
                    heapq.heappush(h, (nd, np.int64(((c * R + r) * 6 + pf) * NV + v)))
        # a Velocity change (allocation)
        for pv in (v - 1, v + 1):
            if 0 <= pv <= vmax and pv < NV:
                nd = d + pp[PP_W_DV]
                if nd < J[c, r, f, pv]:
                    J[c, r, f, pv] = nd
                    heapq.heappush(h, (nd, np.int64(((c * R + r) * 6 + f) * NV + pv)))
    return J


# --- recovery and fire odds the pilot uses ---------------------------------------------------

@jit
def p_recover(tractor, velocity, hexes, attempt, pi_mod, bc, br, terrain, fire_class, rp):
    """205 B-D: chance that d6 + Tractor + modifiers >= 5."""
    if tractor <= 0:
        return 0.0
    mod = rp[RP_REC_PER_V] * max(0, velocity - rp[RP_REC_VOVER]) + rp[RP_REC_PER_HEX] * hexes
    mod += rp[RP_REC_SUCC] * (attempt - 1) + pi_mod
    tm = rp[RP_REC_FIRE0 + fire_class[bc, br]]
    if terrain[bc, br] == 3 and rp[RP_REC_WELL] < tm:
        tm = rp[RP_REC_WELL]
    need = rp[RP_REC_SUCCESS] - tractor - mod - tm
    if need <= 1:
        return 1.0
    if need > 6:
        return 0.0
    return (7 - need) / 6.0


@jit
def p_2d6_at_least(k):
    if k <= 2:
        return 1.0
    if k > 12:
        return 0.0
    n = 0
    for a in range(1, 7):
        for b in range(1, 7):
            if a + b >= k:
                n += 1
    return n / 36.0


# --- the movement plan search ----------------------------------------------------------------

@jit
def best_plan(s, V, limit, per_hex, tractor, screens, pi_mod, sv, bu, hd, J, tb, out_plan,
              terrain, fire_class, hole_of, ring_pos, ring_hole, rings, rotation, vturns, par,
              rp, pp, tab):
    """Search every legal movement plan of ship ``s`` at Velocity ``V`` (see module doc);
    write the best as tokens into ``out_plan`` (0 F, 1 L, 2 R, 10+k whip k hexes) and return
    (cost, tokens). ``J`` is the target's route field, ``tb`` the target Buoy (-1 none),
    ``tab`` float64[2, TS] scratch for the dominance table (:func:`plan_scratch`)."""
    C, R = terrain.shape[0], terrain.shape[1]
    nh = hd.shape[0]
    D = V + 8                                 # rotation slots: before each hex and at the end
    #                                           (a Gravity Whip refunds its MP: one more hex)
    nrot = 2 * per_hex + 1
    # per-depth state
    pc = np.zeros(D + 1, np.int64)
    pr = np.zeros(D + 1, np.int64)
    pf = np.zeros(D + 1, np.int64)
    pu = np.zeros(D + 1, np.int64)
    pg = np.zeros(D + 1, np.int64)              # whip gain so far
    pw = np.zeros(D + 1, np.int64)              # whipped holes bitmask
    pcost = np.zeros(D + 1, np.float64)
    pbd = np.zeros(D + 1, np.int64)             # closest approach to the target Buoy
    pm = np.zeros(D + 1, np.int64)              # MPs left before the slot
    best_pm = np.zeros(D + 1, np.int64)
    phd = np.zeros((D + 1, max(nh, 1)), np.int64)
    choice = np.full(D + 1, -1, np.int64)
    best_choice = np.full(D + 1, -1, np.int64)
    best = 1e30                                  # any plan beats none, even one off the board
    best_depth = -1
    fin_c, fin_r = sv[s, V_FIN_COL], sv[s, V_FIN_ROW]
    pc[0], pr[0], pf[0] = sv[s, V_COL], sv[s, V_ROW], sv[s, V_FACING]
    pbd[0] = 99
    pm[0] = V
    for k in range(nh):
        phd[0, k] = dist(pc[0], pr[0], hd[k, 0], hd[k, 1]) if hd[k, 2] else 99
    vmax_f = J.shape[3] - 1
    # Dominance table: a partial plan that reaches the same (hex, facing, turning movements
    # used, MPs left, whip gain, wells whipped) as an earlier one at no lower cost is not
    # expanded again. The search stays exhaustive over distinct states, but no longer over
    # every order of reaching them (that was exponential in the turning movements).
    TS = tab.shape[1]
    tkey = tab[0]
    tval = tab[1]
    tkey[:] = -1.0
    bonus_w = rp[RP_VP0 + bu[tb, BU_VP]] / max(pp[PP_VPT], 1.0) if tb >= 0 else 0.0
    d = 0
    nodes = 0
    while d >= 0:
        choice[d] += 1
        if choice[d] >= nrot * 6 or nodes > 20000:
            d -= 1
            continue
        nodes += 1
        # choice = rotation index * 6 + (whip hexes - 1); a move without a whip uses only
        # the first of its six slots and skips the rest
        rot = choice[d] // 6 - per_hex
        k = choice[d] % 6 + 1
        c, r, f = pc[d], pr[d], pf[d]
        if rot != 0:
            if terrain[c, r] == 2 or terrain[c, r] == 3 or pu[d] + abs(rot) > limit:
                choice[d] += 5
                continue
        f = (f + rot) % 6
        u = pu[d] + abs(rot)
        cost = pcost[d] + abs(rot) * pp[PP_W_FUEL]
        g, w, bd = pg[d], pw[d], pbd[d]
        terminal = False
        mleft = pm[d]
        last = mleft == 0 or d >= D - 1
        if last:                                 # the last slot: turning only
            choice[d] += 5
        else:
            c2, r2 = nbr(c, r, f)
            if c2 < 1 or c2 >= C or r2 < 1 or r2 >= R:
                choice[d] += 5
                # off the board is disqualification (211 A): worse than any plan that stays,
                # even one ending where the route field sees no way home (INF)
                cost += 10 * INF
                c, r = c2, r2
                terminal = True
            else:
                hole = hole_of[c2, r2] if terrain[c2, r2] == 3 else 0
                whip = hole > 0 and rp[RP_WHIP_VMIN] <= V <= rp[RP_WHIP_VMAX] and not (w >> hole) & 1
                if whip:
                    if k < rp[RP_WHIP_KMIN] or k > rp[RP_WHIP_KMAX]:
                        continue
                    w |= 1 << hole
                    mleft += 1                   # the whip's hexes cost no MP (204 O)
                    j = ring_pos[c2, r2]
                    step = rotation[hole - 1]
                    for n in range(k):
                        c2 = rings[hole - 1, (j + step * n) % 6, 0]
                        r2 = rings[hole - 1, (j + step * n) % 6, 1]
                        cost += hex_cost(c2, r2, V, terrain, fire_class, vturns, rp, pp)
                    g = min(rp[RP_WHIP_GAIN], g + k)
                    c, r = c2, r2
                else:
                    choice[d] += 5
                    c, r = c2, r2
                    cost += hex_cost(c, r, V, terrain, fire_class, vturns, rp, pp)
                    if terrain[c, r] == 4 and V < rp[RP_PASS_MIN]:
                        terminal = True          # captured: the plan ends here
                    if c == fin_c and r == fin_r and V == 1:
                        terminal = True          # finished
                if tb >= 0:
                    bd = min(bd, dist(c, r, bu[tb, BU_COL], bu[tb, BU_ROW]))
            mleft -= 1
        # store the state at depth d+1 (or evaluate)
        pc[d + 1], pr[d + 1], pf[d + 1], pu[d + 1] = c, r, f, u
        pg[d + 1], pw[d + 1], pbd[d + 1] = g, w, bd
        hpen = 0.0
        for q in range(nh):
            phd[d + 1, q] = phd[d, q]
            if hd[q, 2] and 1 <= c < C and 1 <= r < R:
                phd[d + 1, q] = min(phd[d, q], dist(c, r, hd[q, 0], hd[q, 1]))
            if phd[d + 1, q] <= rp[RP_HOUND_RANGE]:
                e = 3.5 * par[P_HOUND_DICE_0 + phd[d + 1, q]] - screens
                hpen += pp[PP_W_HOUND] * pp[PP_RISK] * max(0.5, e)
        pcost[d + 1] = cost
        pm[d + 1] = mleft
        rec = 0.0
        if tb >= 0 and bd < 99:
            rec = p_recover(tractor, V, bd, 1, pi_mod, bu[tb, BU_COL], bu[tb, BU_ROW],
                            terrain, fire_class, rp) * bonus_w
        if last or terminal:
            total = cost + hpen - rec
            if not terminal:
                total += J[c, r, f, min(V + g, vmax_f)]
                if pp[PP_ATTACK] > 0:
                    for t in range(sv.shape[0]):
                        if t != s and sv[t, V_STATUS] == RACING and dist(c, r, sv[t, V_COL], sv[t, V_ROW]) <= 8 \
                                and in_field_of_fire(c, r, f, sv[t, V_COL], sv[t, V_ROW]):
                            total -= pp[PP_ATTACK]
                            break
            if total < best:
                best = total
                best_depth = d
                for q in range(d + 1):
                    best_choice[q] = choice[q]
                    best_pm[q] = pm[q]
            continue
        eff = cost + hpen - rec
        key = ((((c * R + r) * 6 + f) * 8 + u) * 32 + mleft) * 8 + g
        key = key * 256 + w
        fkey = np.float64(key)
        slot = key % TS
        pruned = False
        for _ in range(16):
            kk = tkey[slot]
            if kk == -1.0:
                tkey[slot] = fkey
                tval[slot] = eff
                break
            if kk == fkey:
                if tval[slot] <= eff:
                    pruned = True
                else:
                    tval[slot] = eff
                break
            slot = (slot + 1) % TS
        if pruned:
            continue
        d += 1
        choice[d] = -1
    # tokens
    n = 0
    if best_depth < 0:
        return INF, 0
    c, r, f = pc[0], pr[0], pf[0]
    w = 0
    for q in range(best_depth + 1):
        rot = best_choice[q] // 6 - per_hex
        k = best_choice[q] % 6 + 1
        for _ in range(abs(rot)):
            out_plan[n] = 2 if rot > 0 else 1
            n += 1
        f = (f + rot) % 6
        if best_pm[q] > 0 and q < D - 1:
            out_plan[n] = 0
            n += 1
            c2, r2 = nbr(c, r, f)
            if c2 < 1 or c2 >= C or r2 < 1 or r2 >= R:
                break
            hole = hole_of[c2, r2] if terrain[c2, r2] == 3 else 0
            if hole > 0 and rp[RP_WHIP_VMIN] <= V <= rp[RP_WHIP_VMAX] and not (w >> hole) & 1:
                w |= 1 << hole
                out_plan[n] = 10 + k
                n += 1
                j = ring_pos[c2, r2]
                step = rotation[hole - 1]
                c2 = rings[hole - 1, (j + step * (k - 1)) % 6, 0]
                r2 = rings[hole - 1, (j + step * (k - 1)) % 6, 1]
            c, r = c2, r2
    return best, n


@jit
def add_recovery_attempts(s, V, tractor, pi_mod, fuel, plan, n, out_plan, sv, bu, terrain,
                          fire_class, hole_of, ring_pos, rings, rotation, rp, pp):
    """Copy ``plan`` into ``out_plan`` with a Buoy Recovery attempt (100 + Buoy index) after
    each hex entered from which some Buoy on the board has a chance >= tractor_p (one per hex
    moved, 205 A; each attempt after the first costs the Tractor's Fuel again, 203 C e)."""
    C, R = terrain.shape[0], terrain.shape[1]
    c, r, f = sv[s, V_COL], sv[s, V_ROW], sv[s, V_FACING]
    m = 0
    attempts = 0
    fuel_left = fuel
    for i in range(n):
        tok = plan[i]
        out_plan[m] = tok
        m += 1
        if tok == 1:
            f = (f + 5) % 6
            continue
        if tok == 2:
            f = (f + 1) % 6
            continue
        if tok == 0:
            c2, r2 = nbr(c, r, f)
            if c2 < 1 or c2 >= C or r2 < 1 or r2 >= R:
                break
            c, r = c2, r2
            if i + 1 < n and plan[i + 1] >= 10:
                continue                          # the whip token follows; attempt after it
        elif tok >= 10:
            k = tok - 10
            hole = hole_of[c, r]
            j = ring_pos[c, r]
            step = rotation[hole - 1]
            c = rings[hole - 1, (j + step * (k - 1)) % 6, 0]
            r = rings[hole - 1, (j + step * (k - 1)) % 6, 1]
        if tractor <= 0 or m >= out_plan.shape[0] - 2:
            continue
        if attempts >= 1 and fuel_left < tractor * rp[RP_F_TRACTOR]:
            continue
        best_p, best_b = 0.0, -1
        for b in range(bu.shape[0]):
            if bu[b, BU_STATE] != ON_BOARD:
                continue
            hx = dist(c, r, bu[b, BU_COL], bu[b, BU_ROW])
            p = p_recover(tractor, V, hx, attempts + 1, pi_mod, bu[b, BU_COL], bu[b, BU_ROW],
                          terrain, fire_class, rp)
            p *= rp[RP_VP0 + bu[b, BU_VP]]
            if p > best_p:
                best_p, best_b = p, b
        if best_b >= 0:
            hx = dist(c, r, bu[best_b, BU_COL], bu[best_b, BU_ROW])
            p = p_recover(tractor, V, hx, attempts + 1, pi_mod, bu[best_b, BU_COL],
                          bu[best_b, BU_ROW], terrain, fire_class, rp)
            if p >= pp[PP_TRACTOR_P]:
                out_plan[m] = 100 + best_b
                m += 1
                if attempts >= 1:
                    fuel_left -= tractor * rp[RP_F_TRACTOR]
                attempts += 1
    return m


# --- target choice and allocation -------------------------------------------------------------

@jit
def choose_target(s, turn, sv, ships, bu, J, easy_field, ring_field, hole_cls, fin_from,
                  ring_hole, rp, pp, fin_field):
    """The route field the pilot follows this Turn: its Finish or a Buoy (returns field, Buoy)."""
    c, r, f, v = sv[s, V_COL], sv[s, V_ROW], sv[s, V_FACING], min(sv[s, V_VEL], NV - 1)
    if pp[PP_HUNT] < 0 or ships[s, TRACTOR] <= 0:
        return fin_field, -1
    tleft = rp[RP_TURN_LIMIT] - turn + 1
    jfin = J[fin_field, c, r, f, v]
    # Fuel for the way home: the margin, Screens at the base level for each Turn, and a
    # deceleration from the Velocity of the moment
    home = pp[PP_FUEL_MARGIN] + rp[RP_F_DEC] * max(0, sv[s, V_VEL] - 1) \
        + min(jfin, 30.0) * pp[PP_SCREENS] * ships[s, SCREENS] * rp[RP_F_SCREENS]
    if ships[s, FUEL] < home + 2 * ships[s, TRACTOR]:
        return fin_field, -1
    best, bf, bb = 0.0, fin_field, -1
    for b in range(bu.shape[0]):
        if bu[b, BU_STATE] != ON_BOARD:
            continue
        fi = -1
        if bu[b, BU_MKIND] == EASY and easy_field[b] >= 0:
            fi = easy_field[b]
        else:
            hr = ring_hole[bu[b, BU_COL], bu[b, BU_ROW]]
            if hr > 0 and hole_cls[hr - 1] <= pp[PP_HUNT]:
                fi = ring_field[hr - 1]
        if fi < 0:
            continue
        jt = J[fi, c, r, f, v]
        if jt >= INF / 2:
            continue
        back = fin_from[fi, fin_field]
        if jt + back + pp[PP_TIME_MARGIN] > tleft:
            continue
        score = rp[RP_VP0 + bu[b, BU_VP]] - pp[PP_VPT] * (jt + back - jfin)
        if score > best:
            best, bf, bb = score, fi, b
    return bf, bb


@jit
def fire_choice(s, sv, ships, hd, laser, terrain, fire_class, rp, pp, pi_mod, ships_ok):
    """The best Laser target now: (kind 0 ship / 1 hound / -1 none, index, range, modifier,
    expected value). Ships only if ``ships_ok``; Hell Hounds if the pilot shoots them."""
    c, r, f = sv[s, V_COL], sv[s, V_ROW], sv[s, V_FACING]
    lf = rp[RP_LOF_FIRE0:RP_LOF_FIRE0 + 4]
    bk, bi, brg, bm, bv = -1, -1, 0, 0, 0.0
    if ships_ok and pp[PP_FIRE_SHIPS] > 0:
        for t in range(sv.shape[0]):
            if t == s or sv[t, V_STATUS] != RACING:
                continue
            ok, rng, mod = fire_solution(c, r, f, sv[t, V_COL], sv[t, V_ROW], rp[RP_MAX_RANGE],
                                         terrain, fire_class, lf, rp[RP_LOF_WELL], rp[RP_LOF_HOLE])
            if not ok:
                continue
            scr = min(sv[t, A_SCREENS], ships[t, SCREENS])
            p = p_2d6_at_least(rng - mod - pi_mod)
            val = p * max(0, laser - scr)
            if p >= pp[PP_MIN_PHIT] and val > bv:
                bk, bi, brg, bm, bv = 0, t, rng, mod, val
    if bk < 0 and pp[PP_FIRE_HOUNDS] > 0:
        for q in range(hd.shape[0]):
            if not hd[q, 2] or dist(c, r, hd[q, 0], hd[q, 1]) > 4:
                continue
            ok, rng, mod = fire_solution(c, r, f, hd[q, 0], hd[q, 1], rp[RP_MAX_RANGE],
                                         terrain, fire_class, lf, rp[RP_LOF_WELL], rp[RP_LOF_HOLE])
            if not ok:
                continue
            mod += rp[RP_TGT_HOUND]
            p = p_2d6_at_least(rng - mod - pi_mod)
            val = p * (1.0 - p_2d6_at_least(laser - 1))   # destroyed when 2d6 <= laser - 2
            if p >= pp[PP_MIN_PHIT] and val > bv:
                bk, bi, brg, bm, bv = 1, q, rng, mod, val
    return bk, bi, brg, bm, bv
