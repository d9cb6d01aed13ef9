"""A whole Demo Derby, Figure-8 race or combined event (demo-derby.txt: Game Flow, Record Your
Move, Move and Crash, Record Sheet, Special Damage Cards, Winning the Game, Figure-8 Race,
Variants), as one compiled kernel driven by parameterised driver policies.

Each round every car still in the game plots a direction and speed (``plot_policy``: all plots
are made from the state at the start of the round, so they are secret and simultaneous), then
cars move in turn order from the starting player. The rules enforced on a plot: a car starts
stopped; it may gain up to 3 hexes of speed a round forward or 2 in reverse; lowering the speed
is braking; it must stop before changing direction; its speed is capped by its highest uncrossed
engine box. On its turn a car first rolls for each special damage card with a die (green listed
result: the card ends and goes under the deck; red: the car is out; otherwise its effect holds),
counts down a full radiator (two more turns, then it stalls), and rolls 5-6 to get out of mud or
the ditch. It then moves its speed less one hex per flat tire, hex by hex, each hex straight
ahead (behind when reversing) or to either side of its path (the policy steers), turning one
hexside as it moves. Entering:

* a car's hex (after the first round): a crash (``crash.crash_once``); the rammer stays on the
  hex it came from; both cars stop; a target that has not moved yet this round is "hit before
  moving" and may move only up to 3 forward / 2 reverse; the point of impact is the target's
  hexside the rammer comes through;
* a wall or light pole: damage table in the car's own speed column, roll unmodified, read in its
  front (rear when reversing) column; the car stops. A wreck (a car put out stays on the board
  as an obstacle) counts as an obstacle too;
* the access ramp: the car leaves the game;
* mud or ditch: the car enters and is stuck.

After each round a car that has neither crashed into a car nor been crashed into for eight
rounds in a row is disqualified, unless only two players have cars left (never in a race). The
last player with a car that can move wins; after 64 rounds with more than one player left, or if
the last cars go out together, it is a tie. In a Figure-8 race (``lim[LIM_LAPS]`` > 0) laps are
counted from the crossings of the line through the two poles (``_lap_step``) and the first car
to complete its laps wins at once. The combined event (``play_event``) plays a race, regroups
the survivors on the derby spots with their damage (``regroup``) and plays a derby.

Drivers (``plot_policy``) plan the whole recorded move: every legal (direction, speed) is driven
in the head hex by hex against a clearance map of the arena, counting the car's flat tires,
engine and cards, and costed by where it ends (a ram valued from the damage and hit-location
tables, a hazard, or a hex with room for the next move); see docs/rules/demo-derby.md.

Seating and ties: every event rolls an order of the cars (``draw_ranks``): turn order runs
clockwise over it from the starting player, and any choice among equals goes to the car first
in it, so nothing depends on a car's place in the scenario file (DESIGN.md "Ties never follow
list order"). Starting player: a uniform pick (a roll-off among equal dice is uniform). Start
spots: car k on spot k of the pool, or a uniform deal (``deal_spots``). Policies are numba
functions chosen by id with a parameter vector per car; a player (team) id per car lets a
player field several cars.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core.extras import Extras
from ..core import dice
from ..core._numba import jit
from ..core.blocks import sum_blocks
from ..core.stats import mean_ci, quantiles_from_histogram, rate_ci
from . import arena as A
from .crash import (CARDS_R, CARDS_T, N_OUT, OUT_SIZE, _damage_car, crash_once, new_deck,
                    return_card)
from .rules import (ENGINE, FRONT, FRONT_LEFT, FRONT_RIGHT, LAPS, RADIATOR, REAR, REAR_LEFT,
                    REAR_RIGHT, TRUNK, Tables, rules_data)
from .sheet import flat_tires, is_out, max_speed, radiator_full

# --- car state columns -------------------------------------------------------------------------
(C_ROW, C_COL, C_FACING, C_SPEED, C_DIR, C_ALIVE, C_OUT, C_RADT, C_STUCK, C_NOCRASH, C_HIT,
 C_MOVED, C_LOCKED, C_CRASHED, C_PLDIR, C_PLSPEED, C_LEFT, C_STRAIGHT, C_MODE, C_TARGET,
 C_LAPK, C_LAPSGN, C_LAPST, C_FIN, C_OUTRND, C_SPOT, C_RANK) = range(27)
N_CAR = 27
#: cars[i, C_RANK]: the car's seat in the event's rolled order (0 first). It is the seating
#: round the table (turn order runs clockwise over it from the starting player) and the
#: tie-break order: any choice among equals (equally near rivals, equally weak targets) goes to
#: the lower rank, never to the lower index. ``play_event`` draws it as a uniform permutation
#: from the trial's dice stream; ``setup`` leaves rank = index, which only scripted positions
#: and ``DerbyGame`` use (DESIGN.md "Ties never follow list order").
MAX_HELD = 8

OUT_REASONS = ("in_game", "wrecked", "stalled", "left_by_ramp", "disqualified", "red_card")
R_NONE, R_WRECKED, R_STALLED, R_LEFT, R_DQ, R_RED = range(6)

# card lights and effects (indices of rules.LIGHTS / rules.EFFECTS)
L_GREEN, L_RED = 1, 2
E_NONE, E_NO_MOVE, E_STRAIGHT, E_FORWARD_ONLY, E_FENDERS, E_SKIP, E_MAX_SPEED = range(7)

# limits vector
(LIM_ACC_F, LIM_ACC_R, LIM_COLL_F, LIM_COLL_R, LIM_FLAT, LIM_RAD_TURNS, LIM_NO_CRASH,
 LIM_MAX_TURNS, LIM_OBST_MOD, LIM_SAME_COL, LIM_FIRST_ROUND, LIM_VECTOR, LIM_PHASED,
 LIM_LAPS, LIM_CRASHES, LIM_DQ, LIM_ROUND0, LIM_PA_R, LIM_PA_C, LIM_PB_R, LIM_PB_C) = range(21)
N_LIM = 21

# log events: (round, car, event, a, b)
(EV_MOVE, EV_CRASH, EV_OBSTACLE, EV_STUCK, EV_FREE, EV_OUT, EV_CARD, EV_BLOCKED, EV_LAP, EV_PLOT,
 EV_DAMAGE) = range(11)
EVENTS = ("move", "crash", "obstacle", "stuck", "free", "out", "card", "blocked", "lap", "plot",
          "damage")

#: the target's point of impact by the hexside (relative to its facing) the rammer comes through
_SIDE_TO_IMPACT = np.array([FRONT, FRONT_RIGHT, REAR_RIGHT, REAR, REAR_LEFT, FRONT_LEFT],
                           np.int64)

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


def limits_vector(tables: Tables, arena=None, *, laps: int = 0, crashes: bool = True,
                  dq: bool = True) -> np.ndarray:
    """Rule switches and limits for the kernels; ``laps`` > 0 makes the game a Figure-8 race."""
    lim = tables.limits
    obst = int(rules_data().table("obstacle_crash")["roll_modifier"])
    (ar, ac), (br, bc) = arena.poles() if arena is not None else ((0, 0), (0, 0))
    return np.array([lim["accelerate_forward"], lim["accelerate_reverse"],
                     lim["collision_forward"], lim["collision_reverse"],
                     lim["flat_tire_penalty"], lim["radiator_turns"],
                     lim["rounds_without_crash"], lim["max_turns"], obst,
                     1 if tables.rammer_same_column else 0,
                     1 if lim["first_round_no_crash"] else 0,
                     1 if tables.vector_collisions else 0,
                     1 if tables.phased_moves else 0,
                     laps, 1 if crashes else 0, 1 if dq else 0, 0, ar, ac, br, bc], np.int64)


@jit
def _log(log, nlog, rnd, car, ev, a, b):
    k = nlog[0]
    if k < log.shape[0]:
        log[k, 0] = rnd
        log[k, 1] = car
        log[k, 2] = ev
        log[k, 3] = a
        log[k, 4] = b
    nlog[0] = k + 1


@jit
def _blocking(ter):
    return ter == A.WALL or ter == A.POLE or ter == A.F8_POLE


@jit
def _eliminate(i, reason, cars, held, occ, dk, log, nlog, rnd):
    if cars[i, C_ALIVE] == 0:
        return
    cars[i, C_ALIVE] = 0
    cars[i, C_OUT] = reason
    for h in range(MAX_HELD):  # an eliminated player returns its cards
        if held[i, h] >= 0:
            return_card(dk, held[i, h])
            held[i, h] = -1
    p = cars[i, C_LOCKED] - 1
    if p >= 0:
        cars[p, C_LOCKED] = 0
        cars[i, C_LOCKED] = 0
    if reason == R_LEFT:
        occ[cars[i, C_ROW], cars[i, C_COL]] = 0  # left the arena: no wreck
    _log(log, nlog, rnd, i, EV_OUT, reason, 0)


@jit
def _take_card(i, c, other, cars, held, dk, card_light, card_effect, log, nlog, rnd):
    """A drawn card: kept face up if it has a die or a lasting effect, else back under the deck."""
    if c < 0:
        return
    _log(log, nlog, rnd, i, EV_CARD, c, other)
    if card_light[c] == 0 and card_effect[c] == E_NONE:
        return_card(dk, c)
        return
    for h in range(MAX_HELD):
        if held[i, h] < 0:
            held[i, h] = c
            break
    if card_effect[c] == E_FENDERS and other >= 0 and cars[other, C_ALIVE] == 1:
        cars[i, C_LOCKED] = other + 1
        cars[other, C_LOCKED] = i + 1


@jit
def _after_damage(i, cars, sheets, capacity, lim, held, occ, dk, log, nlog, rnd):
    if radiator_full(sheets[i], capacity) and cars[i, C_RADT] < 0:
        cars[i, C_RADT] = lim[LIM_RAD_TURNS]
    if is_out(sheets[i], capacity):
        _eliminate(i, R_WRECKED, cars, held, occ, dk, log, nlog, rnd)


# --- what every driver sees: the board at the start of the round --------------------------------
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
def _impact_from(o, row, col, cars):
    """The point of impact on car ``o`` of a car entering its hex from (row, col)."""
    side = 0
    for f in range(6):
        ar, ac = A.neighbour(cars[o, C_ROW], cars[o, C_COL], f)
        if ar == row and ac == col:
            side = f
    return _SIDE_TO_IMPACT[(side - cars[o, C_FACING]) % 6]


@jit
def _weakness(j, cars, sheets, capacity, params_i):
    """How tempting car j is to an opportunist: stuck, stopped, stalling or badly damaged."""
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


# --- Figure-8 lap counting -----------------------------------------------------------------------
# A lap is read from the two poles alone. The line through them splits into the left ray (L, away
# from the right pole), the gap between them (G) and the right ray (R). A figure 8 crosses that
# line L, G, R, G, L... and every ray crossing goes the same way (say upward) while every gap
# crossing goes the other way; an oval round both poles (L up, R down) or a loop round one pole
# (L, G, L) never makes that sequence. Each crossing that continues the sequence counts; crossing
# straight back over the last counted one undoes it; any other crossing is ignored. Four counted
# crossings after the first ray crossing (the start/finish line of the default arena) make a lap.
SQRT3 = np.sqrt(3.0)


@jit
def _centre(row, col):
    return 1.5 * col, -SQRT3 * (row + 0.5 * (col & 1))


@jit
def _expected(k, p0, s):
    """(symbol, sign) of crossing number k + 1 after the start (0 L, 1 G, 2 R): the chain runs
    L G R G L ... from the starting ray p0, rays crossed with sign s and the gap with -s."""
    pos = (p0 + k + 1) % 4
    if pos % 2 == 1:
        return 1, -s
    return pos, s


@jit
def lap_crossing(r0, c0, r1, c1, lim):
    """Which part of the pole line a step from (r0, c0) to (r1, c1) crosses, and which way:
    (symbol 0 L / 1 G / 2 R, sign +1 to the left of the A->B direction), or (-1, 0)."""
    ax, ay = _centre(lim[LIM_PA_R], lim[LIM_PA_C])
    bx, by = _centre(lim[LIM_PB_R], lim[LIM_PB_C])
    ux = bx - ax
    uy = by - ay
    px, py = _centre(r0, c0)
    qx, qy = _centre(r1, c1)
    sp = ux * (py - ay) - uy * (px - ax)
    sq = ux * (qy - ay) - uy * (qx - ax)
    a = 1 if sp >= 0 else -1
    b = 1 if sq >= 0 else -1
    if a == b:
        return -1, 0
    f = sp / (sp - sq) if sp != sq else 0.0
    ix = px + f * (qx - px)
    iy = py + f * (qy - py)
    t = ((ix - ax) * ux + (iy - ay) * uy) / (ux * ux + uy * uy)
    if t < 0:
        return 0, b
    if t > 1:
        return 2, b
    return 1, b


@jit
def _lap_step(i, r0, c0, r1, c1, cars, lim):
    sym, sgn = lap_crossing(r0, c0, r1, c1, lim)
    if sym < 0:
        return
    k = cars[i, C_LAPK]
    if k < 0:
        if sym != 1:  # the first ray crossing starts the race and fixes its sense
            cars[i, C_LAPK] = 0
            cars[i, C_LAPSGN] = sgn
            cars[i, C_LAPST] = sym
        return
    s = cars[i, C_LAPSGN]
    p0 = cars[i, C_LAPST]
    es, eg = _expected(k, p0, s)
    if sym == es and sgn == eg:
        cars[i, C_LAPK] = k + 1
    elif k > 0:
        ls, lg = _expected(k - 1, p0, s)
        if sym == ls and sgn == -lg:
            cars[i, C_LAPK] = k - 1
    elif sym == p0 and sgn == -s:  # back behind the line: not started after all
        cars[i, C_LAPK] = -1


@jit
def laps_done(cars, i):
    k = cars[i, C_LAPK]
    return k // 4 if k > 0 else 0


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
def _point_value(sheet, capacity, overflow, part):
    """What one damage point aimed at ``part`` costs its car (a driver's judgement, not a rule):
    follows the overflow to the part it lands on; a point that puts the car out (last engine or
    trunk box) or fills the radiator (a stall two turns later) costs most, a flat tire a hex."""
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
def _hit_value(sheet, capacity, overflow, hit, column):
    """Mean cost of one point read in ``column`` of the hit-location table (one d6)."""
    v = 0.0
    for d in range(1, 7):
        v += _point_value(sheet, capacity, overflow, hit[d, column])
    return v / 6.0


@jit
def _ram_value(i, o, impact, speed, pdir, cars, sheets, capacity, overflow, damage, hit, params,
               lim):
    """Expected harm a ram at ``speed`` through ``impact`` does to car o, less the harm the
    rammer takes (weighted by its ``care``), from the damage and hit-location tables."""
    s = min(max(speed, 0), damage.shape[1] - 1)
    et = 0.0
    er = 0.0
    for d in range(1, 7):
        et += damage[d, s]
        er += damage[d - 1, s]
    et /= 6.0
    er /= 6.0
    rcol = impact if lim[LIM_SAME_COL] == 1 else (FRONT if pdir > 0 else REAR)
    v = et * _hit_value(sheets[o], capacity, overflow, hit, impact)
    v -= 0.1 * params[i, P_CARE] * er * _hit_value(sheets[i], capacity, overflow, hit, rcol)
    return v


@jit
def _helpless(j, cars):
    """A car that cannot get away this round: stuck, locked or stalling."""
    return cars[j, C_STUCK] == 1 or cars[j, C_LOCKED] > 0 or cars[j, C_RADT] >= 0


@jit
def _aim(i, target, cars, sheets, capacity, overflow, hit, params, occ, terrain):
    """The hex to ram ``target`` from: the side where a point hurts it most (an aiming driver),
    nearer sides first when they are about as good; the target's own hex for a non-aiming one."""
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
        hv = _hit_value(sheets[target], capacity, overflow, hit, imp)
        sc = A.distance(cars[i, C_ROW], cars[i, C_COL], ar, ac) - 3.0 * hv
        if sc < best:
            best = sc
            br = ar
            bc = ac
    return br, bc


@jit
def _exposure(i, row, col, facing, cars, sheets, capacity, overflow, hit, params):
    """How much the hits the car may take next from nearby enemies would hurt, given where it
    ends facing: each enemy within its reach strikes the side of the car that faces it."""
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
        e += _hit_value(sheets[i], capacity, overflow, hit, imp) / (1.0 + 0.25 * d)
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
def _salt(st, i, rnd):
    return np.int64((st[dice.S0] ^ (st[dice.S1] >> np.uint64(1))) >> np.uint64(2)) + 7919 * i + rnd


@jit
def _hex_cost(i, target, row, col, nr, nc, nf, pdir, speed, left, straight, cars, sheets,
              capacity, overflow, damage, hit, params, occ, terrain, clear, rnd, lim, ax, ay,
              aimr, aimc):
    """Cost (lower is better) of the car's next hex being (nr, nc), facing nf, with ``left``
    hexes still to move after it; and whether the move ends there (a crash, mud, the ramp)."""
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
                if pol == POL_OPPORTUNIST and _weakness(o, cars, sheets, capacity,
                                                        params[i]) >= 50:
                    return here, True  # stuck, locked or stopped
                return 2500.0, True
            if params[i, P_AIM] == 0:
                return (0.0 if o == target else 1.0), True
            pressed = cars[i, C_NOCRASH] >= params[i, P_MARGIN] and lim[LIM_DQ] == 1
            if speed < params[i, P_MIN_RAM] and not _helpless(o, cars) and not pressed:
                return 1500.0, True  # too slow to be worth it: wind up first
            v = _ram_value(i, o, imp, speed, pdir, cars, sheets, capacity, overflow, damage, hit,
                           params, lim)
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
            cost += 4.0 * _exposure(i, nr, nc, nf, cars, sheets, capacity, overflow, hit, params)
    return cost, False


@jit
def _choose_hex(i, target, row, col, facing, pdir, speed, left, straight, cars, sheets, capacity,
                overflow, damage, hit, params, occ, terrain, clear, rnd, lim, ax, ay, aimr, aimc,
                salt):
    """The best next hex: (turn -1/0/+1, its cost, whether the move ends there)."""
    best = 0
    best_cost = 1e18
    best_end = False
    for k in range(1 if straight else 3):
        turn = 0 if k == 0 else (-1 if k == 1 else 1)
        nf = (facing + turn) % 6
        travel = nf if pdir > 0 else (nf + 3) % 6
        nr, nc = A.neighbour(row, col, travel)
        c, end = _hex_cost(i, target, row, col, nr, nc, nf, pdir, speed, left, straight, cars,
                           sheets, capacity, overflow, damage, hit, params, occ, terrain, clear,
                           rnd, lim, ax, ay, aimr, aimc)
        c += _tie(salt, k)
        if c < best_cost:
            best_cost = c
            best = turn
            best_end = end
    return best, best_cost, best_end


@jit
def _target_of(i, cars, sheets, capacity, overflow, hit, params):
    """Whom a hunting car goes for: the nearest enemy (equally near: the lower rank); an aiming
    driver also weighs how much a hit on its weakest side would hurt (a stalling or badly
    damaged car a few hexes further is worth the trip)."""
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
            hv = max(hv, _hit_value(sheets[j], capacity, overflow, hit, imp))
        sc = d - 2.0 * hv
        if sc < bs or (sc == bs and cars[j, C_RANK] < cars[best, C_RANK]):
            bs = sc
            best = j
    return best


@jit
def _goal(i, cars, sheets, capacity, overflow, hit, params, lim, occ, terrain):
    """What car ``i`` drives at this round: (target car or -1, race aim x and y, the hex it aims
    at on the target)."""
    target = -1
    if cars[i, C_MODE] == M_HUNT:
        target = _target_of(i, cars, sheets, capacity, overflow, hit, params)
    ax = 0.0
    ay = 0.0
    if cars[i, C_MODE] == M_RACE:
        ax, ay = _race_aim(i, cars, lim)
    aimr = 0
    aimc = 0
    if target >= 0:
        aimr, aimc = _aim(i, target, cars, sheets, capacity, overflow, hit, params, occ, terrain)
    return target, ax, ay, aimr, aimc


@jit
def _steer(i, pdir, straight, cars, occ, terrain, rnd, lim, params, sheets, capacity, overflow,
           damage, hit, clear, salt):
    """The step (0 straight, -1 left, +1 right) the car's driver picks for its next hex, with
    cars[i, C_LEFT] hexes of its move still to go (this one included)."""
    target, ax, ay, aimr, aimc = _goal(i, cars, sheets, capacity, overflow, hit, params, lim,
                                       occ, terrain)
    turn, _, _ = _choose_hex(i, target, cars[i, C_ROW], cars[i, C_COL], cars[i, C_FACING], pdir,
                             cars[i, C_SPEED], cars[i, C_LEFT] - 1, straight, cars, sheets,
                             capacity, overflow, damage, hit, params, occ, terrain, clear, rnd,
                             lim, ax, ay, aimr, aimc, salt)
    return turn


@jit
def _plan_cost(i, target, pdir, speed, hexes, straight, cars, sheets, capacity, overflow, damage,
               hit, params, occ, terrain, clear, rnd, lim, ax, ay, aimr, aimc, salt):
    """Cost of plotting (pdir, speed): the move driven hex by hex as the driver would steer it,
    on the board as it stands; the cost of where it ends (a ram, a hazard, or the hex it stops
    on with room for the next move)."""
    row = cars[i, C_ROW]
    col = cars[i, C_COL]
    f = cars[i, C_FACING]
    if hexes <= 0:
        c, _ = _hex_cost(i, target, row, col, row, col, f, 1 if pdir >= 0 else -1, speed, 0,
                         straight, cars, sheets, capacity, overflow, damage, hit, params, occ,
                         terrain, clear, rnd, lim, ax, ay, aimr, aimc)
        return c
    cost = 0.0
    for h in range(hexes):
        turn, cost, end = _choose_hex(i, target, row, col, f, pdir, speed, hexes - h - 1,
                                      straight, cars, sheets, capacity, overflow, damage, hit,
                                      params, occ, terrain, clear, rnd, lim, ax, ay, aimr, aimc,
                                      salt + 31 * h)
        if end:
            return cost
        f = (f + turn) % 6
        row, col = A.neighbour(row, col, f if pdir > 0 else (f + 3) % 6)
    return cost


@jit
def _card_limits(i, held, card_effect, card_param):
    """What the car's own face-up cards allow: straight on only, forward only, a speed cap."""
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
def _plot_plan(i, want, cars, sheets, capacity, overflow, damage, hit, params, occ, terrain,
               clear, lim, held, card_effect, card_param, rnd, salt, only_dir, top_cap):
    """Choose the plot: every legal (direction, speed) is driven in the head and costed; a
    speed away from ``want`` hexes a round (the driver's preference) costs a little.
    ``only_dir`` (+1/-1, 0 for both) and ``top_cap`` narrow the choice (a car hit before
    moving)."""
    straight, fwd_only, cap = _card_limits(i, held, card_effect, card_param)
    cur_dir = cars[i, C_DIR]
    cur = cars[i, C_SPEED]
    maxs = min(max_speed(sheets[i], capacity), cap)
    flats = lim[LIM_FLAT] * flat_tires(sheets[i], capacity)
    target, ax, ay, aimr, aimc = _goal(i, cars, sheets, capacity, overflow, hit, params, lim,
                                       occ, terrain)
    # stopping (or staying stopped) first: always legal
    best_dir = cur_dir if cur_dir != 0 else 1
    best_speed = 0
    best_cost = _plan_cost(i, target, best_dir, 0, 0, straight, cars, sheets, capacity, overflow,
                           damage, hit, params, occ, terrain, clear, rnd, lim, ax, ay, aimr,
                           aimc, salt)
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
            c = _plan_cost(i, target, pdir, v, hexes, straight, cars, sheets, capacity,
                           overflow, damage, hit, params, occ, terrain, clear, rnd, lim, ax, ay,
                           aimr, aimc, salt + 101 * v + 17 * dd)
            c += 1.5 * abs(hexes - want) + (2.0 if pdir < 0 else 0.0)
            c += _tie(salt, 64 + 10 * dd + v)
            if c < best_cost:
                best_cost = c
                best_dir = pdir
                best_speed = v
    cars[i, C_PLDIR] = best_dir
    cars[i, C_PLSPEED] = best_speed


@jit
def plot_policy(i, params, cars, sheets, capacity, occ, terrain, lim, overflow, damage, hit,
                clear, held, card_effect, card_param, rnd, salt):
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
                    w = _weakness(j, cars, sheets, capacity, p)
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
        cars[i, C_TARGET] = _target_of(i, cars, sheets, capacity, overflow, hit, params)
    _plot_plan(i, want, cars, sheets, capacity, overflow, damage, hit, params, occ, terrain,
               clear, lim, held, card_effect, card_param, rnd, salt, 0, 1 << 20)


# --- one turn ----------------------------------------------------------------------------------
@jit
def _legal_plot(i, cars, sheets, capacity, lim):
    """Clamp a plot to the rules: stop before changing direction; acceleration limits; engine."""
    pdir = cars[i, C_PLDIR]
    ps = cars[i, C_PLSPEED]
    cur_dir = cars[i, C_DIR]
    cur = cars[i, C_SPEED]
    if ps < 0:
        ps = 0
    if cur_dir != 0 and pdir != cur_dir:  # must brake first: the plot becomes a stop
        pdir = cur_dir
        ps = 0
    if pdir > 0:
        ps = min(ps, cur + lim[LIM_ACC_F] if cur_dir >= 0 else lim[LIM_ACC_F])
    elif pdir < 0:
        ps = min(ps, cur + lim[LIM_ACC_R] if cur_dir <= 0 else lim[LIM_ACC_R])
    else:
        ps = 0
    return pdir, min(ps, max_speed(sheets[i], capacity))


@jit
def _start_turn(st, script, i, rnd, cars, sheets, held, occ, dk, terrain, damage, special, hit,
          capacity, overflow, on_draw, card_die, card_light, card_effect, card_param, ext_damage,
          ext_special, vec_sign, vec_div, lim,
          cout, log, nlog, params, clear):
    """The start of a car's turn: card dice, locks, radiator, mud; then its speed and the
    hexes it has to move (cars[i, C_LEFT])."""
    cars[i, C_LEFT] = 0
    can_move = True
    straight = False
    fwd_only = False
    cap = 1 << 20
    # special damage cards: the die is rolled each round before moving
    for h in range(MAX_HELD):
        c = held[i, h]
        if c < 0:
            continue
        light = card_light[c]
        eff = card_effect[c]
        if light != 0:
            r = dice.d6(st, script)
            if card_die[c, r] == 1:
                if light == L_RED:
                    _eliminate(i, R_RED, cars, held, occ, dk, log, nlog, rnd)
                    return
                held[i, h] = -1
                return_card(dk, c)
                if eff == E_FENDERS:
                    p = cars[i, C_LOCKED] - 1
                    if p >= 0:
                        cars[p, C_LOCKED] = 0
                    cars[i, C_LOCKED] = 0
                continue
        if eff == E_NO_MOVE:
            can_move = False
        elif eff == E_FENDERS:
            if cars[i, C_LOCKED] > 0:
                can_move = False
            else:  # the partner rolled free, or left the game: the card has ceased
                held[i, h] = -1
                return_card(dk, c)
        elif eff == E_STRAIGHT:
            straight = True
        elif eff == E_FORWARD_ONLY:
            fwd_only = True
        elif eff == E_MAX_SPEED:
            cap = min(cap, card_param[c])
        elif eff == E_SKIP:
            can_move = False
            held[i, h] = -1
            return_card(dk, c)
    # locked to a partner holding Fenders Locked: this car may roll to unlock too
    p = cars[i, C_LOCKED] - 1
    if p >= 0:
        for h in range(MAX_HELD):
            c = held[p, h]
            if c >= 0 and card_effect[c] == E_FENDERS:
                r = dice.d6(st, script)
                if card_die[c, r] == 1:
                    held[p, h] = -1
                    return_card(dk, c)
                    cars[p, C_LOCKED] = 0
                    cars[i, C_LOCKED] = 0
                else:
                    can_move = False
                break
    # a full radiator: two more turns, then the car stalls
    if cars[i, C_RADT] >= 0:
        if cars[i, C_RADT] == 0:
            _eliminate(i, R_STALLED, cars, held, occ, dk, log, nlog, rnd)
            return
        cars[i, C_RADT] -= 1
    if cars[i, C_STUCK] == 1:
        if dice.d6(st, script) >= 5:
            cars[i, C_STUCK] = 0
            _log(log, nlog, rnd, i, EV_FREE, 0, 0)
        else:
            can_move = False
    cars[i, C_MOVED] = 1
    if not can_move:
        cars[i, C_SPEED] = 0
        cars[i, C_DIR] = 0
        return
    if cars[i, C_HIT] == 1:
        # hit before moving: speed zero, may still move up to 3 forward or 2 in reverse
        # "without regard to what the player recorded": the driver picks the distance anew on
        # the board as it is now, wanting the hexes it plotted (keeping the plotted direction)
        pdir = cars[i, C_PLDIR]
        allow = lim[LIM_COLL_F] if pdir >= 0 else lim[LIM_COLL_R]
        want = max(cars[i, C_PLSPEED] - lim[LIM_FLAT] * flat_tires(sheets[i], capacity), 0)
        _plot_plan(i, want, cars, sheets, capacity, overflow, damage, hit, params,
                   occ, terrain, clear, lim, held, card_effect, card_param, rnd,
                   _salt(st, i, rnd), 1 if pdir >= 0 else -1, allow)
        ps = cars[i, C_PLSPEED] if cars[i, C_PLDIR] == pdir else 0
        ps = min(ps, allow, max_speed(sheets[i], capacity))
        if ps < 0:
            ps = 0
    else:
        pdir, ps = _legal_plot(i, cars, sheets, capacity, lim)
    ps = min(ps, cap)
    if fwd_only and pdir < 0:
        ps = 0
    if ps == 0:
        pdir = 0
    cars[i, C_SPEED] = ps
    cars[i, C_DIR] = pdir
    hexes = ps - lim[LIM_FLAT] * flat_tires(sheets[i], capacity)
    cars[i, C_LEFT] = max(hexes, 0)
    cars[i, C_STRAIGHT] = 1 if straight else 0


@jit
def _step(st, script, i, rnd, cars, sheets, held, occ, dk, terrain, damage, special, hit,
          capacity, overflow, on_draw, card_die, card_light, card_effect, card_param, ext_damage,
          ext_special, vec_sign, vec_div, lim,
          cout, log, nlog, params, clear):
    """One hex of a car's move (decrements cars[i, C_LEFT]; zero once the move ends)."""
    pdir = cars[i, C_DIR]
    ps = cars[i, C_SPEED]
    straight = cars[i, C_STRAIGHT] == 1
    turn = _steer(i, pdir, straight, cars, occ, terrain, rnd, lim, params, sheets, capacity,
                  overflow, damage, hit, clear, _salt(st, i, rnd))
    nf = (cars[i, C_FACING] + turn) % 6
    travel = nf if pdir > 0 else (nf + 3) % 6
    row = cars[i, C_ROW]
    col = cars[i, C_COL]
    nr, nc = A.neighbour(row, col, travel)
    o = occ[nr, nc] - 1
    ter = terrain[nr, nc]
    if o >= 0 and cars[o, C_ALIVE] == 1:
        if (rnd == lim[LIM_ROUND0] + 1 and lim[LIM_FIRST_ROUND] == 1) or lim[LIM_CRASHES] == 0:
            # no crashes in the first round (or in a race played without crashes): the car
            # goes no further
            _log(log, nlog, rnd, i, EV_BLOCKED, o, 0)
            cars[i, C_LEFT] = 0
            return
        # the rammer stays on the hex it came from; impact by the target's hexside
        impact = _impact_from(o, row, col, cars)
        rcol = impact if lim[LIM_SAME_COL] == 1 else (FRONT if pdir > 0 else REAR)
        if lim[LIM_VECTOR] == 1:
            # Vector Collisions: the column from both speeds, on the extended table
            col = ps + vec_sign[impact] * (cars[o, C_SPEED] // vec_div[impact])
            col = min(max(col, 0), ext_damage.shape[1] - 1)
            crash_once(st, script, col, impact, rcol, ext_damage, ext_special, hit,
                       capacity, overflow, on_draw, sheets[o], sheets[i], dk, cout)
        else:
            crash_once(st, script, ps, impact, rcol, damage, special, hit, capacity,
                       overflow, on_draw, sheets[o], sheets[i], dk, cout)
        _log(log, nlog, rnd, i, EV_CRASH, o, impact)
        _log(log, nlog, rnd, i, EV_DAMAGE, cout[0], cout[N_OUT])  # points to target, rammer
        _take_card(o, cout[CARDS_T], i, cars, held, dk, card_light, card_effect, log, nlog, rnd)
        _take_card(o, cout[CARDS_T + 1], i, cars, held, dk, card_light, card_effect, log,
                   nlog, rnd)
        _take_card(i, cout[CARDS_R], o, cars, held, dk, card_light, card_effect, log, nlog, rnd)
        _take_card(i, cout[CARDS_R + 1], o, cars, held, dk, card_light, card_effect, log,
                   nlog, rnd)
        for k in (i, o):  # each crash stops both cars
            cars[k, C_SPEED] = 0
            cars[k, C_DIR] = 0
            cars[k, C_CRASHED] = 1
        if cars[o, C_MOVED] == 0:
            cars[o, C_HIT] = 1
        _after_damage(o, cars, sheets, capacity, lim, held, occ, dk, log, nlog, rnd)
        _after_damage(i, cars, sheets, capacity, lim, held, occ, dk, log, nlog, rnd)
        cars[i, C_LEFT] = 0
        return
    if _blocking(ter) or o >= 0:
        # wall, light pole or wreck: the damage table at the car's own speed, roll unmodified
        r = dice.d6(st, script) + lim[LIM_OBST_MOD]
        r = min(max(r, 0), 6)
        _damage_car(st, script, r, ps, FRONT if pdir > 0 else REAR, damage, special, hit,
                    capacity, overflow, on_draw, sheets[i], dk, cout, 0, CARDS_T)
        _log(log, nlog, rnd, i, EV_OBSTACLE, ter, cout[0])
        _take_card(i, cout[CARDS_T], -1, cars, held, dk, card_light, card_effect, log, nlog, rnd)
        _take_card(i, cout[CARDS_T + 1], -1, cars, held, dk, card_light, card_effect, log,
                   nlog, rnd)
        cars[i, C_SPEED] = 0
        cars[i, C_DIR] = 0
        _after_damage(i, cars, sheets, capacity, lim, held, occ, dk, log, nlog, rnd)
        cars[i, C_LEFT] = 0
        return
    occ[row, col] = 0
    cars[i, C_ROW] = nr
    cars[i, C_COL] = nc
    cars[i, C_FACING] = nf
    if ter == A.RAMP:
        _eliminate(i, R_LEFT, cars, held, occ, dk, log, nlog, rnd)
        return
    occ[nr, nc] = i + 1
    _log(log, nlog, rnd, i, EV_MOVE, nr, nc)
    if lim[LIM_LAPS] > 0:
        before = laps_done(cars, i)
        _lap_step(i, row, col, nr, nc, cars, lim)
        done = laps_done(cars, i)
        if done != before:
            sheets[i, LAPS] = min(done, capacity[LAPS])  # laps are marked on the record sheet
            _log(log, nlog, rnd, i, EV_LAP, done, 0)
        if done >= lim[LIM_LAPS]:
            cars[i, C_FIN] = 1   # first to complete the laps: the race is over at once
            cars[i, C_LEFT] = 0
            return
    if ter == A.MUD or ter == A.DITCH:
        cars[i, C_STUCK] = 1
        cars[i, C_SPEED] = 0
        cars[i, C_DIR] = 0
        _log(log, nlog, rnd, i, EV_STUCK, ter, 0)
        cars[i, C_LEFT] = 0
        return
    cars[i, C_LEFT] -= 1


@jit
def _turn(st, script, i, rnd, cars, sheets, held, occ, dk, terrain, damage, special, hit,
          capacity, overflow, on_draw, card_die, card_light, card_effect, card_param, ext_damage,
          ext_special, vec_sign, vec_div, lim,
          cout, log, nlog, params, clear):
    """A whole turn in the rulebook's turn order."""
    _start_turn(st, script, i, rnd, cars, sheets, held, occ, dk, terrain, damage, special, hit,
                capacity, overflow, on_draw, card_die, card_light, card_effect, card_param,
                ext_damage, ext_special, vec_sign, vec_div, lim, cout, log, nlog, params, clear)
    while cars[i, C_ALIVE] == 1 and cars[i, C_LEFT] > 0:
        _step(st, script, i, rnd, cars, sheets, held, occ, dk, terrain, damage, special, hit,
              capacity, overflow, on_draw, card_die, card_light, card_effect, card_param,
              ext_damage, ext_special, vec_sign, vec_div, lim, cout, log, nlog, params, clear)


@jit
def _alive(cars):
    n = 0
    for i in range(cars.shape[0]):
        n += cars[i, C_ALIVE]
    return n


@jit
def setup(cars, sheets, held, occ, starts, n_cars):
    cars[:] = 0
    sheets[:] = 0
    held[:] = -1
    occ[:] = 0
    for i in range(n_cars):
        cars[i, C_ROW] = starts[i, 0]
        cars[i, C_COL] = starts[i, 1]
        cars[i, C_FACING] = starts[i, 2]
        cars[i, C_ALIVE] = 1
        cars[i, C_RADT] = -1
        cars[i, C_TARGET] = -1
        cars[i, C_LAPK] = -1
        cars[i, C_RANK] = i
        occ[starts[i, 0], starts[i, 1]] = i + 1


@jit
def draw_ranks(st, script, cars):
    """The event's seating and tie-break order (cars[:, C_RANK]): a uniform permutation of the
    cars from the dice stream (Fisher-Yates, one roll per car but the last)."""
    n = cars.shape[0]
    for i in range(n):
        cars[i, C_RANK] = i
    for k in range(n - 1, 0, -1):
        j = dice.roll(st, script, 1, k + 1) - 1
        for i in range(n):  # swap the ranks k and j
            if cars[i, C_RANK] == k:
                cars[i, C_RANK] = -1
        for i in range(n):
            if cars[i, C_RANK] == j:
                cars[i, C_RANK] = k
        for i in range(n):
            if cars[i, C_RANK] == -1:
                cars[i, C_RANK] = j


@jit
def regroup(cars, held, occ, dk, starts, card_effect):
    """Between the two parts of the combined event: the survivors line up on the derby start
    spots, stopped, with the damage and cards they carry; wrecks are cleared; a Fenders Locked
    pair is separated (the card has ceased to have an effect)."""
    occ[:] = 0
    for i in range(cars.shape[0]):
        if cars[i, C_LOCKED] > 0:
            cars[i, C_LOCKED] = 0
            for h in range(MAX_HELD):
                c = held[i, h]
                if c >= 0 and card_effect[c] == E_FENDERS:
                    held[i, h] = -1
                    return_card(dk, c)
        if cars[i, C_ALIVE] == 1:
            cars[i, C_ROW] = starts[i, 0]
            cars[i, C_COL] = starts[i, 1]
            cars[i, C_FACING] = starts[i, 2]
            occ[starts[i, 0], starts[i, 1]] = i + 1
        for k in (C_SPEED, C_DIR, C_STUCK, C_NOCRASH, C_HIT, C_MOVED, C_CRASHED, C_FIN):
            cars[i, k] = 0
        cars[i, C_LAPK] = -1


@jit
def play(st, script, params, cars, sheets, held, occ, dk, terrain, damage, special, hit,
         capacity, overflow, on_draw, card_die, card_light, card_effect, card_param, ext_damage,
         ext_special, vec_sign, vec_div, lim, log, nlog, first_player, phases, clear):
    """Play one derby (or, with lim[LIM_LAPS] > 0, one Figure-8 race) from the set-up state.

    Returns (winning player or -1 for a tie, rounds played, winning car or -1, tie at the round
    limit 0/1). Rounds are numbered from lim[LIM_ROUND0] + 1 in the log."""
    n = cars.shape[0]
    cout = np.zeros(OUT_SIZE, np.int64)
    first = first_player
    if first < 0:
        first = dice.roll(st, script, 1, n) - 1 if n > 1 else 0
    r0 = lim[LIM_ROUND0]
    rnd = 0
    seat = np.zeros(n, np.int64)  # turn order: clockwise over the rolled order (C_RANK)
    for i in range(n):
        seat[cars[i, C_RANK]] = i
    before = np.zeros(n, np.int64)
    finished = -1
    while rnd < lim[LIM_MAX_TURNS] and _players_alive(cars, params)[0] > 1:
        rnd += 1
        R = r0 + rnd
        for i in range(n):
            before[i] = cars[i, C_ALIVE]
        for i in range(n):  # secret, simultaneous plots from the state at the round's start
            if cars[i, C_ALIVE] == 1:
                plot_policy(i, params, cars, sheets, capacity, occ, terrain, lim, overflow,
                            damage, hit, clear, held, card_effect, card_param, R,
                            _salt(st, i, R))
        for i in range(n):  # logged after all plots: no plot can have seen another
            if cars[i, C_ALIVE] == 1:
                _log(log, nlog, R, i, EV_PLOT, cars[i, C_PLDIR] * cars[i, C_PLSPEED],
                     cars[i, C_MODE])
        over = False
        if lim[LIM_PHASED] == 0:
            for k in range(n):
                i = seat[(first + k) % n]
                if cars[i, C_ALIVE] == 1:
                    _turn(st, script, i, R, cars, sheets, held, occ, dk, terrain, damage,
                          special, hit, capacity, overflow, on_draw, card_die, card_light,
                          card_effect, card_param, ext_damage, ext_special, vec_sign, vec_div,
                          lim, cout, log, nlog, params, clear)
                if cars[i, C_FIN] == 1:
                    finished = i
                if finished >= 0 or _players_alive(cars, params)[0] <= 1:
                    over = True
                    break
        else:
            # Phased Moves: every car's turn starts in turn order, then one hex at a time by
            # phase, faster speeds first, turn order within a speed
            for k in range(n):
                i = seat[(first + k) % n]
                if cars[i, C_ALIVE] == 1:
                    _start_turn(st, script, i, R, cars, sheets, held, occ, dk, terrain, damage,
                                special, hit, capacity, overflow, on_draw, card_die, card_light,
                                card_effect, card_param, ext_damage, ext_special, vec_sign,
                                vec_div, lim, cout, log, nlog, params, clear)
            for ph in range(1, phases.shape[1]):
                for sp in range(phases.shape[0] - 1, 0, -1):
                    if phases[sp, ph] == 0:
                        continue
                    for k in range(n):
                        i = seat[(first + k) % n]
                        if cars[i, C_ALIVE] == 1 and cars[i, C_SPEED] == sp and cars[i, C_LEFT] > 0:
                            _step(st, script, i, R, cars, sheets, held, occ, dk, terrain,
                                  damage, special, hit, capacity, overflow, on_draw, card_die,
                                  card_light, card_effect, card_param, ext_damage, ext_special,
                                  vec_sign, vec_div, lim, cout, log, nlog, params, clear)
                            if cars[i, C_FIN] == 1:
                                finished = i
                                break
                    if finished >= 0:
                        break
                if finished >= 0 or _players_alive(cars, params)[0] <= 1:
                    over = True
                    break
        n_players = _players_alive(cars, params)[0]
        dq = np.zeros(n, np.bool_)
        for i in range(n):
            if cars[i, C_ALIVE] == 1:
                if cars[i, C_CRASHED] == 1:
                    cars[i, C_NOCRASH] = 0
                else:
                    cars[i, C_NOCRASH] += 1
                if (not over and lim[LIM_DQ] == 1 and n_players > 2
                        and cars[i, C_NOCRASH] >= lim[LIM_NO_CRASH]):
                    dq[i] = True
            cars[i, C_CRASHED] = 0
            cars[i, C_HIT] = 0
            cars[i, C_MOVED] = 0
        for i in range(n):  # disqualifications at the end of the round, all at once
            if dq[i]:
                _eliminate(i, R_DQ, cars, held, occ, dk, log, nlog, R)
        for i in range(n):
            if before[i] == 1 and cars[i, C_ALIVE] == 0:
                cars[i, C_OUTRND] = R
        if over:
            break
    if finished >= 0:
        return params[finished, P_PLAYER], rnd, finished, 0
    k, last = _players_alive(cars, params)
    if k == 1:  # the winner's surviving car seated first (never the lowest index)
        car = -1
        for i in range(n):
            if cars[i, C_ALIVE] == 1 and (car < 0 or cars[i, C_RANK] < cars[car, C_RANK]):
                car = i
        return last, rnd, car, 0
    return -1, rnd, -1, 1 if k > 1 else 0


@jit
def play_event(st, script, params, cars, sheets, held, occ, dk, terrain, damage, special, hit,
               capacity, overflow, on_draw, card_die, card_light, card_effect, card_param,
               ext_damage, ext_special, vec_sign, vec_div, lim, lim2, log, nlog, first_player,
               phases, derby_starts, out, clear):
    """A whole event: a derby or a race (lim), or, when lim2[LIM_MAX_TURNS] > 0, the combined
    event: the race under ``lim``, then a derby under ``lim2`` for the cars still in the game,
    from ``derby_starts`` with the damage and cards they carry. Fills ``out``: winning player,
    total rounds, winning car, tie at the round limit, race winner car, race rounds."""
    n = cars.shape[0]
    first = first_player
    if first < 0:
        first = dice.roll(st, script, 1, n) - 1 if n > 1 else 0
    draw_ranks(st, script, cars)
    w, rounds, car, tie64 = play(st, script, params, cars, sheets, held, occ, dk, terrain,
                                 damage, special, hit, capacity, overflow, on_draw, card_die,
                                 card_light, card_effect, card_param, ext_damage, ext_special,
                                 vec_sign, vec_div, lim, log, nlog, first, phases, clear)
    out[4] = car
    out[5] = rounds
    if lim2[LIM_MAX_TURNS] > 0:
        regroup(cars, held, occ, dk, derby_starts, card_effect)
        lim2[LIM_ROUND0] = rounds
        w, r2, car, tie64 = play(st, script, params, cars, sheets, held, occ, dk, terrain,
                                 damage, special, hit, capacity, overflow, on_draw, card_die,
                                 card_light, card_effect, card_param, ext_damage, ext_special,
                                 vec_sign, vec_div, lim2, log, nlog, first, phases, clear)
        rounds += r2
    out[0] = w
    out[1] = rounds
    out[2] = car
    out[3] = tie64


# --- Monte Carlo -------------------------------------------------------------------------------
MAX_ROUNDS = 128     # a combined event: up to 64 rounds of race, then 64 of derby
MAXC = 6
# stats (integers): wins per player, ties at the round limit, ties with every car out, rounds
# sum / sum of squares / histogram, out reasons per car, the round each car went out (0 = never),
# games with a car on each start spot and games its player won, race winner per car, race rounds
S_WINS = 0
S_TIES = MAXC
S_TIE64 = S_TIES + 1
S_ROUNDS = S_TIE64 + 1
S_ROUNDS_SQ = S_ROUNDS + 1
S_HIST = S_ROUNDS_SQ + 1
S_REASONS = S_HIST + MAX_ROUNDS + 1
S_OUTRND = S_REASONS + MAXC * 6
S_SPOTN = S_OUTRND + MAXC * (MAX_ROUNDS + 1)
S_SPOTWIN = S_SPOTN + MAXC
S_CARWIN = S_SPOTWIN + MAXC
S_RACEWIN = S_CARWIN + MAXC
S_RACE_ROUNDS = S_RACEWIN + MAXC
S_RACE_ROUNDS_SQ = S_RACE_ROUNDS + 1
N_DERBY_STATS = S_RACE_ROUNDS_SQ + 1


@jit
def deal_spots(st, script, pool, n_cars, random_spots, spot_of):
    """Which spot of ``pool`` each car starts on: car k on spot k, or a uniform draw of n_cars
    of the pool's spots (the rulebook's players choose their spots in turn; a uniform deal
    stands in for that choice)."""
    m = pool.shape[0]
    for k in range(m):
        spot_of[k] = k
    if random_spots == 1:
        for k in range(n_cars):
            j = k + dice.roll(st, script, 1, m - k) - 1 if m - k > 1 else k
            t = spot_of[k]
            spot_of[k] = spot_of[j]
            spot_of[j] = t


@jit
def _event_block(key, lo, hi, n_cars, params, pool, pool2, random_spots, terrain, damage,
                 special, hit, capacity, overflow, on_draw, card_die, card_light, card_effect,
                 card_param, ext_damage, ext_special, vec_sign, vec_div, lim, lim2, dk0, phases,
                 acc):
    st = np.zeros(dice.STATE_SIZE, np.uint64)
    cars = np.zeros((n_cars, N_CAR), np.int64)
    sheets = np.zeros((n_cars, capacity.shape[0]), np.int64)
    held = np.full((n_cars, MAX_HELD), -1, np.int64)
    occ = np.zeros(terrain.shape, np.int64)
    dk = dk0.copy()
    log = np.zeros((1, 5), np.int64)
    nlog = np.zeros(1, np.int64)
    spot_of = np.zeros(pool.shape[0], np.int64)
    starts = np.zeros((n_cars, 3), np.int64)
    starts2 = np.zeros((n_cars, 3), np.int64)
    out = np.zeros(6, np.int64)
    lim2c = lim2.copy()
    clear = np.zeros((2, terrain.shape[0], terrain.shape[1], 6), np.int64)
    clearance(terrain, clear)
    for t in range(lo, hi):
        dice.seed_trial(st, key, t)
        deal_spots(st, dice.NO_SCRIPT, pool, n_cars, random_spots, spot_of)
        for i in range(n_cars):
            starts[i] = pool[spot_of[i]]
            starts2[i] = pool2[spot_of[i]]
        setup(cars, sheets, held, occ, starts, n_cars)
        dk[:] = dk0
        nlog[0] = 0
        lim2c[:] = lim2
        play_event(st, dice.NO_SCRIPT, params, cars, sheets, held, occ, dk, terrain, damage,
                   special, hit, capacity, overflow, on_draw, card_die, card_light,
                   card_effect, card_param, ext_damage, ext_special, vec_sign, vec_div, lim,
                   lim2c, log, nlog, -1, phases, starts2, out, clear)
        w = out[0]
        rounds = out[1]
        if w >= 0:
            acc[S_WINS + w] += 1
            if cars[out[2], C_FIN] == 1:  # first across the line in a race
                acc[S_CARWIN + out[2]] += 1
            else:  # every car of the winning player still moving (never one by index)
                for i in range(n_cars):
                    if cars[i, C_ALIVE] == 1 and params[i, P_PLAYER] == w:
                        acc[S_CARWIN + i] += 1
        elif out[3] == 1:
            acc[S_TIE64] += 1
        else:
            acc[S_TIES] += 1
        acc[S_ROUNDS] += rounds
        acc[S_ROUNDS_SQ] += rounds * rounds
        acc[S_HIST + rounds] += 1
        if out[4] >= 0:
            acc[S_RACEWIN + out[4]] += 1
        acc[S_RACE_ROUNDS] += out[5]
        acc[S_RACE_ROUNDS_SQ] += out[5] * out[5]
        for i in range(n_cars):
            acc[S_REASONS + 6 * i + cars[i, C_OUT]] += 1
            acc[S_OUTRND + (MAX_ROUNDS + 1) * i + cars[i, C_OUTRND]] += 1
            acc[S_SPOTN + spot_of[i]] += 1
            if w >= 0 and params[i, P_PLAYER] == w:
                acc[S_SPOTWIN + spot_of[i]] += 1


def _event_chunk(key, first, n, n_cars, params, pool, pool2, random_spots, terrain, damage,
                 special, hit, capacity, overflow, on_draw, card_die, card_light, card_effect,
                 card_param, ext_damage, ext_special, vec_sign, vec_div, lim, lim2, dk0, phases):
    return sum_blocks(lambda lo, hi, acc: _event_block(
        key, lo, hi, n_cars, params, pool, pool2, random_spots, terrain, damage, special, hit,
        capacity, overflow, on_draw, card_die, card_light, card_effect, card_param, ext_damage,
        ext_special, vec_sign, vec_div, lim, lim2, dk0, phases, acc), first, n, N_DERBY_STATS)


def kernel_tables(tables: Tables):
    return (tables.damage, tables.special, tables.hit, tables.capacity, tables.overflow,
            tables.card_on_draw, tables.card_die, tables.card_light, tables.card_effect,
            tables.card_param, tables.ext_damage, tables.ext_special, tables.vec_sign,
            tables.vec_div)


@dataclass
class EventSimulation:
    """Many seeded derbies, races or combined events for the runner (integer statistics only).

    ``pool`` holds the start spots (row, col, facing) the cars are dealt from (car k on spot k
    unless ``random_spots``); ``pool2`` the derby spots of the combined event's second part."""
    tables: Tables
    arena: A.Arena
    params: np.ndarray
    pool: np.ndarray
    lim: np.ndarray
    lim2: np.ndarray
    pool2: np.ndarray | None = None
    random_spots: bool = False
    name: str = "demo-derby event"

    def __post_init__(self):
        self.params = expand_params(self.params)
        self.n_cars = int(self.params.shape[0])
        self.n_stats = N_DERBY_STATS
        self.pool = np.ascontiguousarray(self.pool, np.int64)
        self.pool2 = np.ascontiguousarray(self.pool if self.pool2 is None else self.pool2,
                                          np.int64)

    def chunk(self, key, first, n):
        return _event_chunk(np.uint64(key), first, n, self.n_cars, self.params, self.pool,
                            self.pool2, 1 if self.random_spots else 0, self.arena.terrain,
                            *kernel_tables(self.tables), self.lim, self.lim2,
                            new_deck(self.tables), self.tables.phases)

    def summarise(self, totals, n_trials):
        return pd.DataFrame({"statistic": np.arange(len(totals)), "total": np.asarray(totals)})


@dataclass
class DerbySimulation:
    """Derbies with every car on its own start spot (car k on spot k); the ``simkit derby``
    command and the benchmark. ``params`` rows: at least the cruise speed (a hunter)."""
    tables: Tables
    arena: A.Arena
    params: np.ndarray
    name: str = "demo-derby derby"

    def __post_init__(self):
        self.params = expand_params(self.params)
        self.n_cars = int(self.params.shape[0])
        self.n_stats = N_DERBY_STATS
        self.lim = limits_vector(self.tables, self.arena)
        self._sim = EventSimulation(self.tables, self.arena, self.params,
                                    self.arena.starts[:self.n_cars], self.lim,
                                    np.zeros(N_LIM, np.int64))

    def chunk(self, key, first, n):
        return self._sim.chunk(key, first, n)

    def summarise(self, totals, n_trials):
        """One row per car (car k starts on spot k, so this is also the win rate per start
        spot) and one per kind of tie, each rate with its 95% Wilson interval; how cars went
        out (every way out, with interval) and how games end are in ``attrs["extra"]``."""
        t = np.asarray(totals)
        n = n_trials
        rows = []
        went_out = []
        for i in range(self.n_cars):
            k = int(t[S_WINS + self.params[i, P_PLAYER]])
            lo, hi = rate_ci(k, n)
            reasons = t[S_REASONS + 6 * i: S_REASONS + 6 * i + 6]
            row = {"car": i + 1, "start_spot": i + 1,
                   "policy": POLICIES[self.params[i, P_POLICY]],
                   "cruise_speed": int(self.params[i, P_CRUISE]), "p_win": k / n,
                   "p_win_lo": float(lo), "p_win_hi": float(hi)}
            for r, name in enumerate(OUT_REASONS):
                kr = int(reasons[r])
                rlo, rhi = rate_ci(kr, n)
                if r > 0:
                    row[f"p_{name}"] = kr / n
                went_out.append({"car": i + 1, "start_spot": i + 1,
                                 "how": "still in at the end" if r == 0
                                 else name.replace("_", " "),
                                 "games": kr, "share": kr / n, "share_lo": float(rlo),
                                 "share_hi": float(rhi)})
            rows.append(row)
        ends = []
        for label, k in (("tie: more than one player left after 64 rounds", int(t[S_TIE64])),
                         ("tie: the last cars went out together", int(t[S_TIES]))):
            lo, hi = rate_ci(k, n)
            rows.append({"car": 0, "start_spot": 0, "policy": label, "cruise_speed": 0,
                         "p_win": k / n, "p_win_lo": float(lo), "p_win_hi": float(hi)})
        won = int(t[S_WINS:S_WINS + MAXC].sum())
        for label, k in (("a player won", won),
                         ("tie: more than one player left after 64 rounds", int(t[S_TIE64])),
                         ("tie: the last cars went out together", int(t[S_TIES]))):
            lo, hi = rate_ci(k, n)
            ends.append({"outcome": label, "games": k, "share": k / n, "share_lo": float(lo),
                         "share_hi": float(hi)})
        frame = pd.DataFrame(rows)
        m, mlo, mhi = mean_ci(t[S_ROUNDS], t[S_ROUNDS_SQ], n)
        q = quantiles_from_histogram(t[S_HIST:S_HIST + MAX_ROUNDS + 1])[0]
        frame.attrs["rounds"] = {"mean": float(m), "lo": float(mlo), "hi": float(mhi),
                                 "q05": int(q[0]), "median": int(q[1]), "q95": int(q[2])}
        frame.attrs["extra"] = Extras({
            "how cars went out (share of derbies, 95% Wilson)": pd.DataFrame(went_out),
            "how derbies end (share, 95% Wilson)": pd.DataFrame(ends),
        })
        return frame


class DerbyGame:
    """One game's state as arrays, for scripted positions, replays and golden playthroughs."""

    def __init__(self, tables: Tables, arena: A.Arena, n_cars: int = 6, starts=None, params=None,
                 log_size: int = 20_000, lim=None):
        self.tables, self.arena = tables, arena
        self.n = n_cars
        self.starts = np.ascontiguousarray(arena.starts[:n_cars] if starts is None else starts,
                                           dtype=np.int64)
        self.params = expand_params(np.full((n_cars, 1), 5, np.int64) if params is None
                                    else np.asarray(params, np.int64).reshape(n_cars, -1))
        self.lim = limits_vector(tables, arena) if lim is None else np.array(lim, np.int64)
        self.cars = np.zeros((n_cars, N_CAR), np.int64)
        self.sheets = np.zeros((n_cars, tables.capacity.shape[0]), np.int64)
        self.held = np.full((n_cars, MAX_HELD), -1, np.int64)
        self.occ = np.zeros(arena.terrain.shape, np.int64)
        self.dk = new_deck(tables)
        self.log = np.zeros((log_size, 5), np.int64)
        self.nlog = np.zeros(1, np.int64)
        self.cout = np.zeros(OUT_SIZE, np.int64)
        self.clear = new_clearance(arena.terrain)
        setup(self.cars, self.sheets, self.held, self.occ, self.starts, n_cars)
        self.st = dice.new_state()
        self.script = dice.NO_SCRIPT

    def seed(self, seed: int, trial: int = 0):
        dice.seed_trial(self.st, dice.stream_key(seed), trial)

    def scripted(self, rolls):
        self.st = dice.scripted_state()
        self.script = dice.as_script(rolls)

    def rolls_used(self) -> int:
        return dice.script_position(self.st)

    def give_card(self, car: int, name: str, partner: int = -1):
        c = list(self.tables.card_names).index(name)
        d = (self.dk.shape[0] - 3) // 2
        pool = self.dk[2 * d]
        i = int(np.flatnonzero(self.dk[:pool] == c)[0])  # take that card out of the pool
        self.dk[i], self.dk[pool - 1] = self.dk[pool - 1], self.dk[i]
        self.dk[2 * d] = pool - 1
        _take_card(car, c, partner, self.cars, self.held, self.dk, self.tables.card_light,
                   self.tables.card_effect, self.log, self.nlog, 0)

    def plot(self, car: int, direction: int, speed: int):
        self.cars[car, C_PLDIR] = direction
        self.cars[car, C_PLSPEED] = speed

    def policy_plot(self, car: int, rnd: int = 2, salt: int = 0):
        """What car's policy plots in the current position: (direction, speed, mode)."""
        T = self.tables
        plot_policy(car, self.params, self.cars, self.sheets, T.capacity, self.occ,
                    self.arena.terrain, self.lim, T.overflow, T.damage, T.hit, self.clear,
                    self.held, T.card_effect, T.card_param, rnd, salt)
        return (int(self.cars[car, C_PLDIR]), int(self.cars[car, C_PLSPEED]),
                ("hunt", "evade", "race")[self.cars[car, C_MODE]])

    def steer(self, car: int, direction: int = 1, rnd: int = 2, left: int | None = None,
              straight: bool = False, salt: int = 0) -> int:
        """The next hex the car's policy picks: -1 left of its path, 0 straight on, +1 right,
        with ``left`` hexes of its move to go (this one included; default: its plotted speed,
        at least 1), at its plotted speed."""
        T = self.tables
        keep = int(self.cars[car, C_LEFT]), int(self.cars[car, C_SPEED])
        self.cars[car, C_LEFT] = max(int(self.cars[car, C_PLSPEED]), 1) if left is None else left
        self.cars[car, C_SPEED] = self.cars[car, C_PLSPEED]
        try:
            return int(_steer(car, direction, straight, self.cars, self.occ, self.arena.terrain,
                              rnd, self.lim, self.params, self.sheets, T.capacity, T.overflow,
                              T.damage, T.hit, self.clear, salt))
        finally:
            self.cars[car, C_LEFT], self.cars[car, C_SPEED] = keep

    def turn(self, car: int, rnd: int = 2):
        _turn(self.st, self.script, car, rnd, self.cars, self.sheets, self.held, self.occ,
              self.dk, self.arena.terrain, *kernel_tables(self.tables), self.lim, self.cout,
              self.log, self.nlog, self.params, self.clear)

    def play(self, first_player: int = -1):
        """Play to the end; (winning player or -1, rounds)."""
        w, rounds, _, _ = play(self.st, self.script, self.params, self.cars, self.sheets,
                               self.held, self.occ, self.dk, self.arena.terrain,
                               *kernel_tables(self.tables), self.lim, self.log, self.nlog,
                               first_player, self.tables.phases, self.clear)
        return w, rounds

    def events(self) -> pd.DataFrame:
        k = min(int(self.nlog[0]), self.log.shape[0])
        f = pd.DataFrame(self.log[:k], columns=["round", "car", "event", "a", "b"])
        f["event"] = [EVENTS[e] for e in f["event"]]
        return f
