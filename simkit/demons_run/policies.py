"""Pilots: compiled, parameterised policies that allocate, plan movement, recover Buoys and fire.

Every pilot is the same compiled code with a parameter vector (``PARAMS``); the three named
pilots differ only in their numbers:

* ``safe_runner``: heads for the Finish hex, pays a high price for hazards, never hunts ring
  Buoys, tries for a Buoy only when the route passes one; shoots Hell Hounds in its way.
* ``buoy_hunter``: chases the Buoy worth most for the time it costs -- Easy Buoys, High Rollers
  and, by its ``hunt_class``, the Hell2 (Astaroth, Belial) Buoys -- then goes home.
* ``raider``: runs for the Finish but ends its moves with enemies in its Field of Fire and fires
  its Laser and Scrambler at them.

How a pilot decides (a pilot reads its own ship and of its rivals only what is on the board:
hex, facing, Velocity, whether still racing; their allocations and Set Up Sheets are secret,
203 A, so it assumes their Screens and Laser by its parameters ``rival_screens``,
``rival_laser``):

1. **Route fields** (``route_field``): for each target -- each Finish corner, each Easy Buoy,
   each Hell Hole's ring (where High Rollers and the Hell2/Hell3 Buoys orbit) -- a Dijkstra
   search over the state graph (hex, facing, Velocity) gives the cost-to-go of every state.
   Edges: one hex forward (1/V of a Turn, plus the hazard cost of the hex entered at that
   Velocity: Hell Fire by class, Null, a Gravity Whip, capture by a Hell Hole at Velocity 5-8,
   leaving the board impossible), one turning movement (not in Null or Well hexes, cheaper when
   the Velocity allows more turns), one Velocity Level up or down (Fuel). Computed once per
   board and pilot. Its cost is a lower bound on the Turns (plus the pilot's prices) of flying
   there, in the same currency as a plan's cost (``turn_cost``, ``dv_cost``, ``whip_cost``).
2. **Target**: the Finish, or the Buoy whose VP, less ``vp_per_turn`` for each extra Turn the
   detour costs, is best -- if the detour still leaves ``time_margin`` Turns and Fuel above
   ``fuel_margin``.
3. **Allocation** (Step A D): for each Main Engines setting it can afford (and the System Crises
   allow), the best movement plan at the resulting Velocity is searched (step 4), cheapest
   route-field bound first, until no bound left can beat the best plan; the setting with the
   lowest plan cost plus its Velocity change (``dv_cost``) wins. Screens at ``screens`` of the maximum, raised to
   ``screens_hazard`` when a hazard is on the plan or a racing rival is within
   ``threat_range`` hexes of where the Turn can end; Laser/Scrambler when a target is in the
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

from typing import NamedTuple

import numpy as np

from simkit.core import dice, eventlog
from simkit.core._numba import jit

from .procedures.kernels import (P_DESTROY_AT_LEAST, P_FIRE_CARD, P_FIRE_DICE, P_FIRE_MOD_0, P_FIRE_PER,
                      P_FIRE_SI, P_FIRE_THRESHOLD, P_HOUND_DICE_0, P_MARKER_DICE, P_SCR_ABOVE,
                      P_SCR_ROLLS)
from .pieces.geometry import (Sight, cube_z, dist, fire_solution, in_field_of_fire, nbr,
                              offset_row)
from .pieces.layout import (BU_COL, BU_MKIND, BU_ROW, BU_STATE, BU_VP, ON_BOARD, RACING, RP_F_ACC, RP_F_DEC, RP_F_TURN,
                            RP_F_SCREENS, RP_F_TRACTOR, RP_HOUND_RANGE, RP_LOF_FIRE0, RP_LOF_HOLE,
                            RP_LOF_WELL, RP_MAX_RANGE, RP_PASS_MIN, RP_REC_FIRE0, RP_REC_PER_HEX,
                            RP_REC_PER_V, RP_REC_SUCC, RP_REC_SUCCESS, RP_REC_VOVER, RP_REC_WELL,
                            RP_TGT_HOUND, RP_TGT_MOVING, RP_TURN_LIMIT, RP_VP0, RP_WHIP_GAIN,
                            RP_WHIP_KMAX, RP_WHIP_KMIN, RP_WHIP_VMAX, RP_WHIP_VMIN, V_COL,
                            V_FACING, V_FIN_COL, V_FIN_ROW, V_FORCED, V_PILOT, V_ROW, V_STATUS,
                            V_VEL)
from .pieces.board import HOLE, NULL, WELL
from .pieces.markers import EASY
from .rules import FUEL, SCREENS, TRACTOR

# --- parameters ------------------------------------------------------------------------------
# The pilots' parameter space (DESIGN.md: a typed space a search can explore): name -> (kind,
# low, high, meaning). Units: "turn" prices are in Turns of the route fields (a Turn of racing
# is the common currency of route, hazard and Fuel), "vp" values in Victory Points.
PARAM_SPACE = {
    "risk": ("float", 0.0, 10.0, "multiplier on every hazard price"),
    "cruise": ("int", 1, 12, "highest Velocity the pilot accelerates to"),
    "hunt_class": ("int", -1, 2, "richest Hell Hole class whose ring Buoys it hunts (-1 none, "
                                 "0 hell, 1 Hell2, 2 Hell3 = Lucifer)"),
    "vp_per_turn": ("float", 1.0, 200.0, "VP a Turn of detour must pay to chase a Buoy"),
    "screens": ("float", 0.0, 1.0, "share of the Screens allocated with no hazard near"),
    "screens_hazard": ("float", 0.0, 1.0, "share of the Screens allocated near a hazard"),
    "fire_ships": ("float", 0.0, 1.0, "1: fires Laser and Scrambler at rival ships"),
    "fire_hounds": ("float", 0.0, 100.0, "VP of destroying a Hell Hound near it (0: never)"),
    "min_p_hit": ("float", 0.0, 1.0, "lowest hit chance it fires at"),
    "tractor_p": ("float", 0.0, 1.0, "lowest recovery chance it spends an attempt on"),
    "fuel_margin": ("int", 0, 290, "Fuel kept beyond what coming down to Velocity 1 needs"),
    "attack_bonus": ("float", 0.0, 10.0, "Turns a plan is worth that ends with a rival in the "
                                         "Field of Fire"),
    "time_margin": ("int", 0, 30, "Turns kept in hand when chasing a Buoy"),
    "w_null": ("float", 0.0, 20.0, "Turns a Null hex costs"),
    "w_fire1": ("float", 0.0, 20.0, "Turns a plain Hell Fire hex costs beyond its expected harm"),
    "w_fire2": ("float", 0.0, 20.0, "the same for a Hell2 Hell Fire hex"),
    "w_fire3": ("float", 0.0, 20.0, "the same for a Hell3 Hell Fire hex"),
    "w_whip": ("float", 0.0, 20.0, "Turns a Gravity Whip costs (the Velocity it gives is "
                                   "priced by the route field)"),
    "w_hound": ("float", 0.0, 20.0, "Turns per expected hit of a Hell Hound"),
    # at least 0.001: when the route field's Dijkstra kept float32 costs, free turns or
    # Velocity changes let it re-push the same states until memory ran out; it searches in
    # float64 now, and the bound stays so that no manoeuvre is free
    "w_turn": ("float", 0.001, 5.0, "Turns a turning movement costs in the route field"),
    "w_dv": ("float", 0.001, 5.0, "Turns a Velocity Level of change costs in the route field"),
    "w_fuel": ("float", 0.0, 1.0, "Turns a Fuel Level costs"),
    "w_crisis": ("float", 0.0, 20.0, "Turns an expected System Crisis roll costs"),
    "w_si": ("float", 0.0, 20.0, "Turns an expected SI Level lost costs"),
    "rival_screens": ("int", 0, 11, "Screens it assumes a rival has allocated (allocations "
                                    "are secret, 203 A)"),
    "vp_per_hit": ("float", 0.0, 100.0, "VP worth of one SI hit on a rival"),
    "vp_per_crisis": ("float", 0.0, 100.0, "VP worth of one System Crisis on a rival"),
    "fire_buoys": ("float", 0.0, 1.0, "share of a Buoy's VP that denying it to a nearer rival "
                                      "is worth (0: never shoots Buoys)"),
    "fuel_vp": ("float", 0.0, 2.0, "VP a Fuel Level is worth when firing (1 per Level at the "
                                   "end, 211 B)"),
    # a rival's Laser and allocation are hidden (203 A), its hex is not: any racing rival this
    # close to where the ship can end its Turn may be armed, and 206 hits fall off with range
    "threat_range": ("int", 0, 12, "hexes from the Turn's reach within which a racing rival "
                                   "raises Screens to screens_hazard (0: rivals never do)"),
    "fire_reserve": ("float", 0.0, 1.0, "share of the Fuel held beyond braking (margin, Screens "
                                        "to come) a shot that pays may spend"),
    # a rival's facing and hex are public (it fires only into its 60-degree Field of Fire,
    # 206 A, at 12 hexes at most, 206 C), its Laser Level is not (203 A)
    "rival_laser": ("int", 0, 11, "Laser Level it assumes a racing rival fires at a ship "
                                  "ending its move in that rival's Field of Fire: priced in "
                                  "each plan, and weighed against the VP in hand before "
                                  "entering a watched Finish Hex (0: such fire is ignored)"),
    # how hard the pilot thinks, not what it wants: the plan search and the allocation stop
    # proving a plan best once nothing left can beat it by more than this (most of an exact
    # search's nodes come after its best plan is found, only to prove it best)
    "plan_tol": ("float", 0.0, 1.0, "Turns within which a plan counts as good as the best "
                                    "(0: the exact search)"),
}
PARAM_NAMES = tuple(PARAM_SPACE)
(PP_RISK, PP_CRUISE, PP_HUNT, PP_VPT, PP_SCREENS, PP_SCREENS_HAZ, PP_FIRE_SHIPS,
 PP_FIRE_HOUNDS, PP_MIN_PHIT, PP_TRACTOR_P, PP_FUEL_MARGIN, PP_ATTACK, PP_TIME_MARGIN,
 PP_W_NULL, PP_W_FIRE1, PP_W_FIRE2, PP_W_FIRE3, PP_W_WHIP, PP_W_HOUND, PP_W_TURN, PP_W_DV,
 PP_W_FUEL, PP_W_CRISIS, PP_W_SI, PP_RIVAL_SCR, PP_VP_HIT, PP_VP_CRISIS, PP_FIRE_BUOYS,
 PP_FUEL_VP, PP_THREAT, PP_FIRE_RESERVE, PP_RIVAL_LASER, PP_PLAN_TOL) = range(33)
N_PP = len(PARAM_NAMES)

_COMMON = dict(w_null=3.0, w_fire1=0.3, w_fire2=0.5, w_fire3=0.8, w_whip=0.2, w_hound=0.3,
               w_turn=0.05, w_dv=0.05, w_fuel=0.01, w_crisis=0.6, w_si=0.4, rival_screens=2,
               vp_per_hit=4.0, vp_per_crisis=8.0, fuel_vp=0.5, plan_tol=0.0)
PARAMS = {
    "safe_runner": dict(risk=3.0, cruise=7, hunt_class=-1, vp_per_turn=40.0, screens=0.0,
                        screens_hazard=1.0, fire_ships=0, fire_hounds=15.0, min_p_hit=0.4,
                        tractor_p=0.5, fuel_margin=60, attack_bonus=0.0, time_margin=6,
                        fire_buoys=0.0, threat_range=8, fire_reserve=0.0, rival_laser=10,
                        **_COMMON),
    "buoy_hunter": dict(risk=1.0, cruise=6, hunt_class=2, vp_per_turn=8.0, screens=0.3,
                        screens_hazard=1.0, fire_ships=1, fire_hounds=15.0, min_p_hit=0.4,
                        tractor_p=0.3, fuel_margin=50, attack_bonus=0.0, time_margin=4,
                        fire_buoys=0.5, threat_range=6, fire_reserve=1.0, rival_laser=10,
                        **_COMMON),
    "raider": dict(risk=1.5, cruise=7, hunt_class=-1, vp_per_turn=30.0, screens=0.5,
                   screens_hazard=1.0, fire_ships=1, fire_hounds=0.0, min_p_hit=0.25,
                   tractor_p=0.5, fuel_margin=50, attack_bonus=1.5, time_margin=6,
                   fire_buoys=1.0, threat_range=6, fire_reserve=1.0, rival_laser=10,
                   **dict(_COMMON, vp_per_hit=8.0, vp_per_crisis=12.0)),
}
POLICIES = {name: i for i, name in enumerate(PARAMS)}
NV = 13                     # Velocities the route fields cover (0-12)
INF = 1e9
MAX_PLAN = 96


def param_space(pilot: str = "buoy_hunter"):
    """The parameter space as a frame-ready list of dicts (name, kind, low, high, default of
    ``pilot``, meaning)."""
    return [dict(name=k, kind=kind, low=lo, high=hi, default=PARAMS[pilot][k], meaning=m)
            for k, (kind, lo, hi, m) in PARAM_SPACE.items()]


TABLE_SIZE = 2048
MAX_DEPTH = 32              # per-depth rows kept in the scratch (a plan needs Velocity + 9)
MAX_HOUNDS = 16             # Hell Hounds the scratch tracks at least (plan_scratch(hounds))
FIRE_KEY = 6                # fire price cache: Screens and the five weights, then 4 prices
SCRATCH_SHIPS = 4           # ships whose fire prices the scratch keeps (2-4 race, 100 A)
EXPO_SIZE = 4096            # hexes whose exposure the scratch keeps (more: computed each time)
DRY_SIZE = 1024             # ship-state values the hounds' dry run copies (ships x columns)
END_DEPTH = 1               # plan slots from the root at which the search bounds by the ends
MAX_SETS = 2 * 24 + 1       # Main Engines settings the allocation weighs (-ME..+ME; ship.toml:
#                             ME at most 11 Levels; a bigger ME is refused, never cut short)
MEMO_BITS = 12              # the allocation's bound memos: 4,096 slots each (engine.allocate)


class PlanScratch(NamedTuple):
    """What :func:`best_plan` works in, allocated once per race or block of races (it is
    called a few times per allocation, and fresh arrays each call cost as much as a short
    search): the dominance table, the per-depth state, and the Hell Fire prices by Velocity,
    kept with the Screens and pilot weights they were computed for (not the rules tables: one
    scratch serves the races of one scenario, ``engine.play_race_in``), and the allocation's
    bounds by their arguments (not the fields or board, for the same reason)."""
    tab: np.ndarray       # float64[TABLE_SIZE, 3]: dominance table (key, cost, search no. of
    #                       each slot side by side: a probe reads one cache line, not three)
    gen: np.ndarray       # int64[2]: the number of the last search; nodes searched in all
    depth: np.ndarray     # int64[11, MAX_DEPTH]: hex, facing, turns... per depth
    cost: np.ndarray      # float64[MAX_DEPTH]
    phd: np.ndarray       # int64[MAX_DEPTH, MAX_HOUNDS]: closest approach to each hound
    rel: np.ndarray       # int64[MAX_HOUNDS]: the hounds in reach
    fire: np.ndarray      # float64[ship, NV, 4, FIRE_KEY + 4]: fire prices by Velocity and
    #                       Screens mod 4 (the allocation's and the move's differ), with key
    rec: np.ndarray       # float64[100]: recovery chance by closest approach (-1 unknown)
    expo: np.ndarray      # float64[2, EXPO_SIZE]: :func:`exposure` by hex (col * rows + row)
    #                       and the search number it was computed in
    # the allocation's (``engine.allocate``), kept here so that it makes no arrays:
    pq: np.ndarray        # float64[N_PP]: the pilot's parameters as this Turn's plan weighs
    #                       them, when they differ from its own (``engine._chase_ok``)
    pq2: np.ndarray       # float64[N_PP]: the same without the attack bonus, for a setting
    #                       none of whose ends can earn it
    sets: np.ndarray      # float64[5, MAX_SETS]: each Main Engines setting's bound, fixed
    #                       charge, whether the bound is tightened, whether no end of the
    #                       move can earn the attack bonus, and the bound with the turning
    #                       movements to the ends charged
    # the hounds' dry run's (``engine.hound_targets``): the ship states it moves, the dice
    # state it starts from, and a log of no rows
    dry: np.ndarray       # int64[DRY_SIZE]
    dst: np.ndarray       # uint64[dice.STATE_SIZE]
    dlog: np.ndarray      # int64[0, eventlog.WIDTH]
    dlogn: np.ndarray     # int64[1]
    # the allocation's bounds by what they are computed from (``engine.allocate``): a
    # setting's ends bound and reach scan depend on the pilot's field, the Velocity, the hex,
    # facing and turning limits alone, and races from one start meet the same ones again. A
    # slot keeps the last bound hashed to it, with its whole key (never a partial match);
    # the fields (``FD``) and board (``BT``) are those of the one scenario a scratch serves
    mend: np.ndarray      # float64[2**MEMO_BITS, 4]: key + 1, turning price, the two bounds
    mreach: np.ndarray    # float64[2**MEMO_BITS, 2]: key + 1, the reach scan's least


@jit
def plan_scratch(hounds=MAX_HOUNDS):
    """The scratch :func:`best_plan` works in (allocated once per race or block of races),
    for a board of at most ``hounds`` Hell Hounds (at least MAX_HOUNDS)."""
    nh = max(hounds, MAX_HOUNDS)
    return PlanScratch(np.zeros((TABLE_SIZE, 3), np.float64), np.zeros(2, np.int64),
                       np.zeros((11, MAX_DEPTH), np.int64), np.zeros(MAX_DEPTH, np.float64),
                       np.zeros((MAX_DEPTH, nh), np.int64),
                       np.zeros(nh, np.int64),
                       np.full((SCRATCH_SHIPS, NV, 4, FIRE_KEY + 4), -1.0),
                       np.zeros(100, np.float64),
                       np.zeros((2, EXPO_SIZE), np.float64),
                       np.zeros(N_PP, np.float64), np.zeros(N_PP, np.float64),
                       np.zeros((5, MAX_SETS), np.float64),
                       np.zeros(DRY_SIZE, np.int64), np.zeros(dice.STATE_SIZE, np.uint64),
                       np.zeros((0, eventlog.WIDTH), np.int64), np.zeros(1, np.int64),
                       np.zeros((1 << MEMO_BITS, 4), np.float64),
                       np.zeros((1 << MEMO_BITS, 2), np.float64))


def param_vector(name: str, overrides: dict | None = None) -> np.ndarray:
    """The named pilot's vector with ``overrides``, each checked against PARAM_SPACE (a
    ValueError names the parameter and its bounds)."""
    p = dict(PARAMS[name])
    for k, x in (overrides or {}).items():
        if k not in PARAM_SPACE:
            raise KeyError(f"unknown pilot parameter {k!r}")
        kind, lo, hi, _ = PARAM_SPACE[k]
        if isinstance(x, bool) or not lo <= x <= hi or (kind == "int" and int(x) != x):
            raise ValueError(f"pilot parameter {k}={x!r} outside {kind} [{lo}, {hi}]")
        p[k] = x
    return np.asarray([float(p[k]) for k in PARAM_NAMES], np.float64)


# --- costs shared by the route fields and the plan search ------------------------------------

# ``_nrt=False``: no reference counts for the arrays these take (``engine``'s NO_NRT note):
# they allocate nothing, return no array and call nothing that does
@jit(_nrt=False)
def fire_harm(cls, v, screens, vturns, par):
    """208: the expected System Crisis rolls and SI Levels lost entering a Hell Fire hex of
    class ``cls`` (1-3) at Velocity v behind ``screens`` (exact over the attack dice)."""
    nd = par[P_FIRE_DICE]
    base = par[P_FIRE_MOD_0 + cls - 1] + vturns[min(v, vturns.shape[0] - 1)]
    cr, si, tot = 0.0, 0.0, 0.0
    # the sum of nd dice, enumerated (nd is 2 in the rules)
    n = 6 ** nd
    for i in range(n):
        x, k = 0, i
        for _ in range(nd):
            x += k % 6 + 1
            k //= 6
        f = x + base
        res = f - screens if par[P_FIRE_CARD] == 1 else screens - f
        if res >= par[P_FIRE_THRESHOLD]:
            cr += res // par[P_FIRE_PER]
            if par[P_FIRE_SI] == 1:
                si += res
        tot += 1.0
    return cr / tot, si / tot


@jit
def fire_prices(v, screens, vturns, par, pp):
    """The pilot's price of a Hell Fire hex of each class (index 1-3) entered at Velocity v
    behind ``screens``: its own weight plus the expected System Crises and SI loss."""
    out = np.zeros(4)
    for fc in range(1, 4):
        out[fc] = fire_price(fc, v, screens, vturns, par, pp)
    return out


@jit(_nrt=False)
def fire_price(fc, v, screens, vturns, par, pp):
    """:func:`fire_prices` of class ``fc`` alone (a scalar: the plan search's callees make no
    arrays, ``engine``'s NO_NRT note)."""
    w = pp[PP_W_FIRE1] if fc == 1 else (pp[PP_W_FIRE2] if fc == 2 else pp[PP_W_FIRE3])
    ecr, esi = fire_harm(fc, v, screens, vturns, par)
    return w + pp[PP_W_CRISIS] * ecr + pp[PP_W_SI] * esi


@jit(_nrt=False)
def hex_cost(c, r, v, terrain, fire_class, rp, pp, ftab):
    """The pilot's price (in Turn units) for entering hex (c, r) at Velocity v: Hell Fire by
    ``ftab`` (:func:`fire_prices` at this Velocity and the ship's Screens, so a ship with the
    Screens for it dives where another would not), Null, a Gravity Whip, capture."""
    return hex_price(terrain[c, r], fire_class[c, r], v, pp[PP_W_NULL], pp[PP_RISK],
                     rp[RP_PASS_MIN], ftab[1], ftab[2], ftab[3])


@jit(_nrt=False)
def hex_price(t, fc, v, w_null, risk, pass_min, f1, f2, f3):
    """:func:`hex_cost` of a hex of terrain ``t`` and fire class ``fc`` from values already
    read: the plan search prices a hex at every node, and a call that takes arrays pays two
    atomic reference counts per array (numba's runtime), more than the price itself."""
    cost = 0.0
    if t == NULL:
        cost += w_null
    if fc > 0:
        cost += f1 if fc == 1 else (f2 if fc == 2 else f3)
    # a Gravity Whip's own price (w_whip) is charged once per whip by its callers
    # (:func:`whip_cost`), not once per Well hex it passes: the parameter is what "a Gravity
    # Whip costs", and the hexes hold no hazard of their own (204 O)
    cost *= risk
    if t == HOLE and v < pass_min:              # captured by the Hell Hole (204 M)
        cost += 1000.0
    return cost


@jit(_nrt=False)
def whip_cost(pp):
    """The pilot's price of making a Gravity Whip, once per whip (the Well hexes it passes are
    priced by :func:`hex_cost` for what they hold)."""
    return pp[PP_W_WHIP] * pp[PP_RISK]


@jit(_nrt=False)
def turn_cost(v, vturns, rp, pp):
    """The price of one turning movement at Velocity v, the same in the route field and the
    plan search (so a plan's cost and the field's cost-to-go are in one currency): ``w_turn``,
    dearer when the Velocity allows fewer turns (204 E), plus the Fuel it burns (203 C)."""
    return pp[PP_W_TURN] * (1.0 + 1.0 / max(vturns[v], 1)) + pp[PP_W_FUEL] * rp[RP_F_TURN]


@jit(_nrt=False)
def dv_cost(a, rp, pp):
    """The price of changing the Velocity by ``a`` Levels at an allocation (203 C): ``w_dv`` a
    Level plus the Fuel of the acceleration or deceleration -- the same in the route field and
    in the allocation, which compares settings by plan cost plus this."""
    if a > 0:
        return a * (pp[PP_W_DV] + pp[PP_W_FUEL] * rp[RP_F_ACC])
    if a < 0:
        return -a * (pp[PP_W_DV] + pp[PP_W_FUEL] * rp[RP_F_DEC])
    return 0.0


@jit
def route_field(goal, vlo, vhi, vmax, enter_only, BT, RT, pp, screens):
    """Cost-to-go over (col, row, facing, Velocity) to any state with a ``goal`` hex and a
    Velocity in vlo..vhi (Dijkstra on the reversed state graph). ``enter_only``: the goal
    counts only when entered by a forward move (the Finish hex, 211 A), not reached by turning
    or by a Velocity change in it. Entering a Gravity Well at Velocity 1-4 is a Gravity Whip
    (204 O): 1-6 Well hexes round the hole, no MP for them, and the Velocity they add (at most
    4) counted at once, so the field knows where a whip saves time and Fuel. Hell Fire is priced
    at ``screens``. float32[cols+1, rows+1, 6, NV].

    The cost is in Turns plus the pilot's prices: 1/V a hex moved forward (a Turn at Velocity V
    enters V hexes, 204 C), a turning movement and a Velocity Level of change at the same
    prices the plan search and the allocation charge (:func:`turn_cost`, :func:`dv_cost`),
    hazards by :func:`hex_cost`. The real game changes Velocity only between Turns; the field
    lets it change between hexes, so it never prices a course above what flying it costs: it is
    a lower bound on the Turns (and prices) of flying there; ``engine.allocate`` relies on that
    bound to search the Velocity settings in order and stop."""
    (terrain, fire_class, hole_of, ring_pos, rings, rotation) = (
        BT.terrain, BT.fire_class, BT.hole_of, BT.ring_pos, BT.rings, BT.rotation)
    par, vturns, rp = RT.par, RT.vturns, RT.rp
    C, R = terrain.shape[0], terrain.shape[1]
    # the search keeps float64 costs: a float32 table rounds a pushed cost below the float64
    # one popped, which then looked stale and was never expanded (with w_dv at its lower bound
    # only 34 of 102,336 states were reached)
    J = np.full((C, R, 6, NV), INF)
    ftab = np.zeros((NV, 4))
    for v in range(1, NV):
        ftab[v] = fire_prices(v, screens, vturns, par, pp)
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
        # forward: from the hex behind, same facing and Velocity (not into a Well at a
        # whipping Velocity: that move is the whip below)
        well = terrain[c, r] == WELL
        if v >= 1 and not (well and rp[RP_WHIP_VMIN] <= v <= rp[RP_WHIP_VMAX]):
            pc, pr = nbr(c, r, (f + 3) % 6)
            if 1 <= pc < C and 1 <= pr < R:
                nd = d + 1.0 / v + hex_cost(c, r, v, terrain, fire_class, rp, pp, ftab[v])
                if nd < J[pc, pr, f, v]:
                    J[pc, pr, f, v] = nd
                    heapq.heappush(h, (nd, np.int64(((pc * R + pr) * 6 + f) * NV + v)))
        # a Gravity Whip of k hexes that ends here: entered from the hex behind its first Well
        # hex at Velocity v0, leaving at v0 + min(k, gain)
        if well and hole_of[c, r] > 0:
            hole = hole_of[c, r]
            j = ring_pos[c, r]
            step = rotation[hole - 1]
            for k in range(rp[RP_WHIP_KMIN], rp[RP_WHIP_KMAX] + 1):
                v0 = v - min(k, rp[RP_WHIP_GAIN])
                if v0 < rp[RP_WHIP_VMIN] or v0 > rp[RP_WHIP_VMAX]:
                    continue
                j0 = (j - step * (k - 1)) % 6
                ec, er = rings[hole - 1, j0, 0], rings[hole - 1, j0, 1]
                pc, pr = nbr(ec, er, (f + 3) % 6)
                if not (1 <= pc < C and 1 <= pr < R):
                    continue
                if terrain[pc, pr] == WELL and hole_of[pc, pr] == hole:
                    continue
                # the whip's hexes, the Well hex entered included, cost no MP (204 O), so no
                # time; its price once, and what each hex holds
                nd = d + whip_cost(pp)
                for n in range(k):
                    jj = (j0 + step * n) % 6
                    nd += hex_cost(rings[hole - 1, jj, 0], rings[hole - 1, jj, 1], v0, terrain,
                                   fire_class, rp, pp, ftab[v0])
                if nd < J[pc, pr, f, v0]:
                    J[pc, pr, f, v0] = nd
                    heapq.heappush(h, (nd, np.int64(((pc * R + pr) * 6 + f) * NV + v0)))
        if enter_only and goal[c, r] and vlo <= v <= vhi:
            continue
        # a turning movement in this hex
        if vturns[v] > 0 and terrain[c, r] != NULL and terrain[c, r] != WELL:
            w = turn_cost(v, vturns, rp, pp)
            for df in (1, 5):
                pf = (f + df) % 6
                nd = d + w
                if nd < J[c, r, pf, v]:
                    J[c, r, pf, v] = nd
                    heapq.heappush(h, (nd, np.int64(((c * R + r) * 6 + pf) * NV + v)))
        # a Velocity change (allocation) from pv to v, priced as the allocation prices it
        for pv in (v - 1, v + 1):
            if 0 <= pv <= vmax and pv < NV:
                nd = d + dv_cost(v - pv, rp, pp)
                if nd < J[c, r, f, pv]:
                    J[c, r, f, pv] = nd
                    heapq.heappush(h, (nd, np.int64(((c * R + r) * 6 + f) * NV + pv)))
    return J.astype(np.float32)


def by_velocity(field):
    """A route field (float32[..., col, row, 6, NV], :func:`route_field`) laid out Velocity
    first ([..., NV, col, row, 6]) for :func:`best_plan`: the search reads the field at one
    Velocity at every node, over hexes near each other, and the field's own layout put every
    such read on a cache line of its own (the same values, so the same plans)."""
    return np.ascontiguousarray(np.moveaxis(field, -1, -4))


# --- recovery and fire odds the pilot uses ---------------------------------------------------

@jit(_nrt=False)
def p_recover(tractor, velocity, hexes, attempt, pi_mod, bc, br, terrain, fire_class, rp):
    """205 B-D: chance that d6 + Tractor + modifiers >= 5."""
    if tractor <= 0:
        return 0.0
    mod = rp[RP_REC_PER_V] * max(0, velocity - rp[RP_REC_VOVER]) + rp[RP_REC_PER_HEX] * hexes
    mod += rp[RP_REC_SUCC] * (attempt - 1) + pi_mod
    tm = rp[RP_REC_FIRE0 + fire_class[bc, br]]
    if terrain[bc, br] == WELL and rp[RP_REC_WELL] < tm:
        tm = rp[RP_REC_WELL]
    need = rp[RP_REC_SUCCESS] - tractor - mod - tm
    if need <= 1:
        return 1.0
    if need > 6:
        return 0.0
    return (7 - need) / 6.0


@jit(_nrt=False)
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

@jit(_nrt=False)
def rival_within(sv, s, c, r, k):
    """Whether a racing ship other than ``s`` is within ``k`` hexes of (c, r)."""
    for t in range(sv.shape[0]):
        if t != s and sv[t, V_STATUS] == RACING and dist(c, r, sv[t, V_COL], sv[t, V_ROW]) <= k:
            return True
    return False


# wraparound=False (``simkit.core._numba``): no index here is negative (the table's limits
# are checked, the ends' hexes are on the board)
@jit(_nrt=False, wraparound=False)   # allocates nothing: no reference counts for its arrays
def end_bound(at, ends, Jv, vl, c0, r0, f0, V2, limit, per_hex, tc):
    """The least cost-to-go, in field ``Jv`` (Velocity first, :func:`by_velocity`) at Velocity
    ``vl``, of any state a move of V2 hexes without a Gravity Whip can end in from (c0, r0)
    facing f0 (``engine.move_ends``: the hexes and facings its turning limits reach, not every
    hex within V2 at any facing): (that least, the least with each end's turning movements at
    ``tc`` apiece, :func:`turn_cost`, which a plan pays on the way); -inf (no bound) for
    limits the table does not hold. ``at``,
    ``ends``: ``FD.ends_at``, ``FD.ends`` (passed alone: numba counts a reference to every
    array of a tuple a call takes)."""
    if V2 >= at.shape[0] or limit >= at.shape[1] or per_hex >= at.shape[2]:
        return -np.inf, -np.inf
    lo, hi = at[V2, limit, per_hex, f0, 0], at[V2, limit, per_hex, f0, 1]
    if hi == lo:
        return -np.inf, -np.inf
    Jl = Jv[vl]
    C, R = Jl.shape[0], Jl.shape[1]
    # the grid's cube coordinates by geometry's inlined forms: hexgrid's calls were not inlined
    z0 = cube_z(c0, r0)
    best = np.inf
    best_t = np.inf
    for k in range(lo, hi):
        c = c0 + ends[k, 0]
        r = offset_row(c, z0 + ends[k, 1])
        if 1 <= c < C and 1 <= r < R:
            x = np.float64(Jl[c, r, ends[k, 2]])
            best = x if x < best else best
            x += ends[k, 3] * tc
            best_t = x if x < best_t else best_t
    return best, best_t


@jit(_nrt=False, wraparound=False)    # no negative index: as end_bound
def ends_attack(at, ends, sv, s, c0, r0, f0, V2, limit, per_hex, C, R):
    """Whether a move of V2 hexes without a Gravity Whip from (c0, r0) facing f0 can end with
    a racing rival within 8 hexes in its Field of Fire (the plan's attack bonus): over the
    ends its turning limits reach (``engine.move_ends`` rows ``at``, ``ends``: a superset of
    the true ends); True when the table does not hold these limits (an empty table: always).
    Worked in the cube offsets the table keeps, rival by rival (the plan search asks it a few
    hundred times a race, and the end's offset hex and the geometry's calls cost more than
    the test)."""
    if V2 >= at.shape[0] or limit >= at.shape[1] or per_hex >= at.shape[2]:
        return True
    lo, hi = at[V2, limit, per_hex, f0, 0], at[V2, limit, per_hex, f0, 1]
    if hi == lo:
        return True
    z0 = cube_z(c0, r0)
    for t in range(sv.shape[0]):
        if t == s or sv[t, V_STATUS] != RACING:
            continue
        # the rival from the start hex; no end lies more than V2 hexes from it
        rx = sv[t, V_COL] - c0
        rz = cube_z(sv[t, V_COL], sv[t, V_ROW]) - z0
        ax, az, ay = abs(rx), abs(rz), abs(rx + rz)
        if max(ax, max(az, ay)) > V2 + 8:
            continue
        for k in range(lo, hi):
            # the rival from the end: within 8 hexes, not in it (in_field_of_fire's own test)
            x = rx - ends[k, 0]
            z = rz - ends[k, 1]
            y = -x - z
            if max(abs(x), max(abs(z), abs(y))) > 8 or (x == 0 and z == 0):
                continue
            # in_field_of_fire's cone: the offset turned to the N facing, 3 |x| <= -(2 z + x)
            # (turned f times by (x, y, z) -> (-y, -z, -x), written out: it was a loop of up
            # to five turns at every end); asked before the end's hex is on the board, which
            # holds for nearly every end and costs its offset row
            f = ends[k, 2]
            if f == 1:
                x, z = -y, -x
            elif f == 2:
                x, z = z, y
            elif f == 3:
                x, z = -x, -z
            elif f == 4:
                x, z = y, x
            elif f == 5:
                x, z = -z, -y
            if 3 * abs(x) > -(2 * z + x):
                continue
            c = c0 + ends[k, 0]
            r = offset_row(c, z0 + ends[k, 1])
            if 1 <= c < C and 1 <= r < R:
                return True
    return False


@jit(_nrt=False)
def exposure(sv, s, c, r, max_range):
    """The hits ship ``s`` ending its move at (c, r) expects from the next shot of each racing
    rival whose Field of Fire (its facing now: both public) holds that hex within range (206
    A, C): the chance 2d6 reach the range (206 E; Line of Fire modifiers and the rival's PI
    are not counted, so never less than the true chance but for a PI bonus)."""
    e = 0.0
    for t in range(sv.shape[0]):
        if t == s or sv[t, V_STATUS] != RACING:
            continue
        d = dist(sv[t, V_COL], sv[t, V_ROW], c, r)
        if d <= max_range and in_field_of_fire(sv[t, V_COL], sv[t, V_ROW], sv[t, V_FACING], c, r):
            e += p_2d6_at_least(d)
    return e


@jit(_nrt=False)
def guarded_finish_risk(sv, s, harm, si, C, R, max_range):
    """The chance ship ``s`` (``si`` SI) is destroyed entering its Finish Hex past the racing
    rivals that watch it, each hit taking ``harm`` SI (the Laser it assumes less the Screens it
    can raise). Entering at Velocity 1 (211 A) means ending a Turn beside the Finish first; a
    rival may fire at that hex after the ship's move and again before its next one (206 B,
    once a Turn; the worst of the Initiative draws), so two shots, each hitting as 2d6 reach
    the range (:func:`exposure`). The ship takes the safest hex beside the Finish."""
    fc, fr = sv[s, V_FIN_COL], sv[s, V_FIN_ROW]
    best = 1.0
    for k in range(6):
        c, r = nbr(fc, fr, k)
        if c < 1 or c >= C or r < 1 or r >= R:
            continue
        worst = 0.0
        for t in range(sv.shape[0]):
            if t == s or sv[t, V_STATUS] != RACING:
                continue
            d = dist(sv[t, V_COL], sv[t, V_ROW], c, r)
            if d > max_range or not in_field_of_fire(sv[t, V_COL], sv[t, V_ROW],
                                                     sv[t, V_FACING], c, r):
                continue
            p = p_2d6_at_least(d)
            if harm >= si:
                q = 1.0 - (1.0 - p) * (1.0 - p)
            elif 2 * harm >= si:
                q = p * p
            else:
                q = 0.0
            worst = max(worst, q)
        best = min(best, worst)
    return best


class PlanView(NamedTuple):
    """What :func:`best_plan` and :func:`fire_choice` read of the race state (``S``), board
    (``BT``) and tables (``RT``), ``W``: a narrow view, since numba passes a tuple's every
    member on every call and the allocation calls them once per setting it weighs."""
    sv: np.ndarray
    bu: np.ndarray
    hd: np.ndarray
    terrain: np.ndarray
    fire_class: np.ndarray
    hole_of: np.ndarray
    ring_pos: np.ndarray
    rings: np.ndarray
    rotation: np.ndarray
    par: np.ndarray
    vturns: np.ndarray
    rp: np.ndarray


@jit
def plan_view(S, BT, RT):
    return PlanView(S.sv, S.bu, S.hd, BT.terrain, BT.fire_class, BT.hole_of, BT.ring_pos,
                    BT.rings, BT.rotation, RT.par, RT.vturns, RT.rp)


@jit(_nrt=False)
def _fire_tab(cache, s, V, screens, vturns, par, pp):
    """:func:`fire_prices` at Velocity V behind ``screens`` of the three Hell Fire classes, from
    ``cache`` (the scratch's ``fire``) for ship ``s`` when the same Screens and weights were
    priced before. Takes the cache alone and returns scalars: every array a compiled call takes
    or returns is reference-counted, and this runs once per plan search."""
    if s >= cache.shape[0] or V >= cache.shape[1]:
        return (fire_price(1, V, screens, vturns, par, pp),
                fire_price(2, V, screens, vturns, par, pp),
                fire_price(3, V, screens, vturns, par, pp))
    k = screens & 3
    if not (cache[s, V, k, 0] == screens and cache[s, V, k, 1] == pp[PP_W_FIRE1]
            and cache[s, V, k, 2] == pp[PP_W_FIRE2] and cache[s, V, k, 3] == pp[PP_W_FIRE3]
            and cache[s, V, k, 4] == pp[PP_W_CRISIS] and cache[s, V, k, 5] == pp[PP_W_SI]):
        cache[s, V, k, 0], cache[s, V, k, 1] = screens, pp[PP_W_FIRE1]
        cache[s, V, k, 2], cache[s, V, k, 3] = pp[PP_W_FIRE2], pp[PP_W_FIRE3]
        cache[s, V, k, 4], cache[s, V, k, 5] = pp[PP_W_CRISIS], pp[PP_W_SI]
        cache[s, V, k, FIRE_KEY] = 0.0
        for fc in range(1, 4):
            cache[s, V, k, FIRE_KEY + fc] = fire_price(fc, V, screens, vturns, par, pp)
    return (cache[s, V, k, FIRE_KEY + 1], cache[s, V, k, FIRE_KEY + 2],
            cache[s, V, k, FIRE_KEY + 3])


class PlanSpec(NamedTuple):
    """What a plan is searched for, ``q`` (scalars only: free to pass): ship ``s`` at Velocity
    ``V`` with at most ``limit`` turning movements, ``per_hex`` in one hex, its Tractor,
    Screens and PI modifier, the target Buoy ``tb`` (-1 none), its Fuel (recovery attempts
    after the first cost Fuel), and ``ub``: only a plan cheaper than this is wanted (1e30:
    any)."""
    s: int
    V: int
    limit: int
    per_hex: int
    tractor: int
    screens: int
    pi_mod: int
    tb: int
    fuel: int
    ub: float


@jit
def best_plan(q, W, J, out_plan, pp, scr):
    """:func:`best_plan_in` without the table of where moves end (the same plan and cost; its
    search proves that plan best with more nodes): for callers outside the race."""
    return best_plan_in(q, W, J, out_plan, pp, scr, np.zeros((0, 1, 1, 6, 2), np.int64),
                        np.zeros((0, 4), np.int64))


# no reference counts (``engine``'s NO_NRT note): a call counted its two dozen arrays on
# entry and exit, ~140 calls a four-ship race. No wraparound (``simkit.core._numba``): no
# index here is negative -- depths from 0, hexes on the board (a move off it is a leaf, never
# expanded), facings and ring positions taken % 6, distances and closest approaches from 0,
# the target Buoy read only when there is one (tb >= 0), hash slots unsigned; a test runs it
# compiled with bounds checks to hold it to that
@jit(_nrt=False, wraparound=False)
def best_plan_in(q, W, J, out_plan, pp, scr, ends_at, ends):
    """Search every legal movement plan of ship ``q.s`` at Velocity ``q.V`` (see module doc;
    ``q`` a :class:`PlanSpec`); write the best as tokens into ``out_plan`` (0 F, 1 L, 2 R,
    10+k whip k hexes) and return (cost, tokens). ``W`` is the race as :func:`plan_view`
    shows it, ``J`` the target's route field laid out Velocity first (:func:`by_velocity`),
    ``scr`` the race's :class:`PlanScratch`
    (:func:`plan_scratch`), ``ends_at``/``ends`` the table of where a move without a Gravity
    Whip can end (``engine.move_ends``; empty in :func:`best_plan`): with it the search bounds
    a partial plan near the root by the least cost-to-go at the ends it can still reach (each
    with the turning movements it takes), and
    drops one kept only by the attack bonus when none of those ends has a rival in its Field
    of Fire -- the same plan, fewer nodes. ``q.ub``: only a plan cheaper than this is wanted
    (the allocation's best at another setting): partial plans that cannot beat it are dropped,
    and (INF, 0) is returned when none does."""
    s, V, limit, per_hex, tractor, screens, pi_mod, tb, _, ub = q
    sv, bu, hd = W.sv, W.bu, W.hd
    (terrain, fire_class, hole_of, ring_pos, rings, rotation) = (
        W.terrain, W.fire_class, W.hole_of, W.ring_pos, W.rings, W.rotation)
    par, vturns, rp = W.par, W.vturns, W.rp
    C, R = terrain.shape[0], terrain.shape[1]
    nh = hd.shape[0]
    D = V + 8                                 # rotation slots: before each hex and at the end
    #                                           (a Gravity Whip refunds its MP: one more hex)
    nrot = 2 * per_hex + 1
    # per-depth state (sized for the board's hounds by :func:`plan_scratch`; no arrays are
    # made here)
    if D + 1 > scr.depth.shape[1] or nh > scr.rel.shape[0]:
        raise ValueError("best_plan: the plan scratch is too small for this Velocity or "
                         "these Hell Hounds (plan_scratch(hounds))")
    dep, pcost, phd, rel = scr.depth, scr.cost, scr.phd, scr.rel
    # dep's rows, indexed in place (a row taken as a view is one more array whose reference
    # numba counts at every call): 0-3 hex, facing, turning movements used; 4 whip gain so
    # far; 5 whipped holes (bitmask); 6 closest approach to the target Buoy; 7 MPs left
    # before the slot; 8 the best plan's MPs left, 9 the choice made, 10 the best plan's
    # (only the root's row is set here: a deeper row is written before it is read, the state
    # when the search steps down to it, the best plan's columns when a plan is kept)
    for j in range(9):
        dep[j, 0] = 0
    dep[9, 0] = -1
    dep[10, 0] = -1
    pcost[0] = 0.0
    best = ub                                    # by default any plan beats none, even one
    #                                              off the board
    best_depth = -1
    fin_c, fin_r = sv[s, V_FIN_COL], sv[s, V_FIN_ROW]
    dep[0, 0], dep[1, 0], dep[2, 0] = sv[s, V_COL], sv[s, V_ROW], sv[s, V_FACING]
    dep[6, 0] = 99
    dep[7, 0] = V
    # only hounds the ship can come within reach of this Turn matter (it ends at most V hexes
    # away, a whip's ring and its refunded MP add 3)
    nrel = 0
    for k in range(nh):
        if hd[k, 2] and dist(dep[0, 0], dep[1, 0], hd[k, 0], hd[k, 1]) \
                <= V + 3 + rp[RP_HOUND_RANGE]:
            rel[nrel] = k
            phd[0, nrel] = dist(dep[0, 0], dep[1, 0], hd[k, 0], hd[k, 1])
            nrel += 1
    # the Hell Fire prices kept in the scratch, read here when they are there: the call that
    # computes them counts references to the arrays it takes, each search
    fire = scr.fire
    k3 = screens & 3
    if s < fire.shape[0] and V < fire.shape[1] and fire[s, V, k3, 0] == screens \
            and fire[s, V, k3, 1] == pp[PP_W_FIRE1] and fire[s, V, k3, 2] == pp[PP_W_FIRE2] \
            and fire[s, V, k3, 3] == pp[PP_W_FIRE3] and fire[s, V, k3, 4] == pp[PP_W_CRISIS] \
            and fire[s, V, k3, 5] == pp[PP_W_SI]:
        f1, f2, f3 = (fire[s, V, k3, FIRE_KEY + 1], fire[s, V, k3, FIRE_KEY + 2],
                      fire[s, V, k3, FIRE_KEY + 3])
    else:
        f1, f2, f3 = _fire_tab(fire, s, V, screens, vturns, par, pp)
    w_null, risk, pass_min = pp[PP_W_NULL], pp[PP_RISK], rp[RP_PASS_MIN]
    tc = turn_cost(V, vturns, rp, pp)           # the route field's price of a turning movement
    dvmax = max(dv_cost(1, rp, pp), dv_cost(-1, rp, pp))   # and of a Velocity Level
    vmax_f = J.shape[0] - 1
    # the bound reads the field at this Velocity at every node: one board-sized layer
    vb = min(V, vmax_f)
    hound_range = rp[RP_HOUND_RANGE]
    w_hound = pp[PP_W_HOUND] * pp[PP_RISK]
    whip_vmin, whip_vmax, whip_kmin, whip_kmax = (rp[RP_WHIP_VMIN], rp[RP_WHIP_VMAX],
                                                  rp[RP_WHIP_KMIN], rp[RP_WHIP_KMAX])
    whip_gain = rp[RP_WHIP_GAIN]
    # the bound below allows for the Velocity a whip still to come may add and for the MP
    # it refunds (one hex more, 1/V in the field). A whip is made on entering a Well hex at a
    # Velocity in the whip range, and before one the move stays within V hexes of its start:
    # with no Well hex that near (or outside the range) none is made, the leaves read the
    # field at V itself (g 0) after exactly the MPs left, and neither allowance is needed
    # A hole's ring is its centre's six neighbours, N first (``markers.board_arrays``): a
    # ring hex lies within k hexes only if the centre lies within k + 1. The holes a whip of
    # this move can be made at are kept by their centres: a node from which no unwhipped one
    # of them has its centre within the MPs left + 1 (a Well hex is entered by a forward move,
    # an MP at least) can make no whip in the rest of the move, and is bounded as a move
    # without one (below). A whip moves the ship at most 2 hexes round its ring and refunds an
    # MP, so the holes in play grow with the reach as in ``engine._reach_radius``; two are
    # kept, more (none on the shipped boards, whose holes lie 10 hexes apart) leave every node
    # bounded as before.
    can_whip = False
    wh1 = wh2 = -1
    wc1 = wr1 = wc2 = wr2 = 0
    if whip_vmin <= V <= whip_vmax:
        rad = V
        nwh = 0
        while True:
            m = 0
            for h in range(rings.shape[0]):
                hc, hr = nbr(rings[h, 0, 0], rings[h, 0, 1], 3)
                dh = dist(dep[0, 0], dep[1, 0], hc, hr)
                if dh - 1 <= rad:
                    m += 1
                    if m == 1:
                        wh1, wc1, wr1 = h + 1, hc, hr
                    elif m == 2:
                        wh2, wc2, wr2 = h + 1, hc, hr
                    # a whip can be made when a Well hex is within V of the start
                    if nwh == 0 and dh <= V + 1:
                        for j in range(6):
                            if dist(dep[0, 0], dep[1, 0], rings[h, j, 0], rings[h, j, 1]) <= V:
                                can_whip = True
            if m == nwh:
                break
            nwh = m
            rad = V + 3 * m
        if nwh > 2:
            wh1 = 0                              # not tracked: every node may still whip
    whip_allow = whip_gain if can_whip else 0
    refund = 1.0 if can_whip else 0.0
    tb_c = bu[tb, BU_COL] if tb >= 0 else 0
    tb_r = bu[tb, BU_ROW] if tb >= 0 else 0
    # Dominance table: a partial plan that reaches the same (hex, facing, turning movements
    # used, MPs left, whip gain, wells whipped) as an earlier one at no lower cost is not
    # expanded again. The search stays exhaustive over distinct states, but no longer over
    # every order of reaching them (that was exponential in the turning movements).
    TS = scr.tab.shape[0]
    # A state's slot is its key scattered by a multiplicative hash: the key's low bits are the
    # wells whipped and the whip gain, 0 in nearly every state, so the key itself (key % TS)
    # sent nearly every state to slot 0 and its 15 neighbours -- the table kept 16 states a
    # search and every later state probed all 16 before giving up. A power-of-two table
    # (TABLE_SIZE) takes the hash's top bits, with a mask for the next slot
    mask = TS - 1 if TS & (TS - 1) == 0 else -1
    shift = 64
    while shift > 0 and (1 << (64 - shift)) < TS:
        shift -= 1
    ushift = np.uint64(shift)
    tab = scr.tab                     # a slot's key, cost, search number
    # a slot belongs to this search only if stamped with its number: the table is empty at
    # each call without clearing all its slots (the memset cost as much as a short search)
    scr.gen[0] += 1
    gen = np.float64(scr.gen[0])
    bonus_w = rp[RP_VP0 + bu[tb, BU_VP]] / max(pp[PP_VPT], 1.0) if tb >= 0 else 0.0
    # the attack bonus needs a racing rival within 8 hexes of where the move ends; without a
    # Gravity Whip it ends within V hexes, so with no rival within V + 8 no plan can earn it
    # (neither the bound below nor the leaves need count it)
    att = pp[PP_ATTACK]
    if att > 0 and not can_whip and not rival_within(sv, s, dep[0, 0], dep[1, 0], V + 8):
        att = 0.0
    # a rival's next shot at the hex where the move ends (206: Field of Fire, range 12), priced
    # as the SI the assumed Laser takes through this Turn's Screens (none when no rival can be
    # within range of the end: a move without a whip ends within V hexes)
    expo_w = pp[PP_W_SI] * pp[PP_RISK] * max(0.0, pp[PP_RIVAL_LASER] - screens)
    if expo_w > 0 and not can_whip \
            and not rival_within(sv, s, dep[0, 0], dep[1, 0], V + rp[RP_MAX_RANGE]):
        expo_w = 0.0
    # the recovery chance depends on the closest approach alone (one Buoy, one Velocity)
    prec = scr.rec
    expo = scr.expo
    if tb >= 0:
        prec[:] = -1.0
    # the most any plan's Buoy bonus can come to: the recovery chance at the best closest
    # approach a plan can still make, worked out once (the bound below used to allow the
    # whole bonus on top of what the partial plan had already earned)
    rec_cap = bonus_w
    if tb >= 0 and bonus_w >= 0.0:
        # over every closest approach a leaf can price (0-98 hexes): the chance is monotone in
        # the hexes (205 B: a fixed modifier a hex), so its largest is at one end (this was a
        # loop of 99 calls at every search with a target Buoy)
        pmax = max(p_recover(tractor, V, 0, 1, pi_mod, tb_c, tb_r, terrain, fire_class, rp),
                   p_recover(tractor, V, 98, 1, pi_mod, tb_c, tb_r, terrain, fire_class, rp))
        rec_cap = pmax * bonus_w
    # Tighter, node by node, when no Gravity Whip can be made (a whip moves the ship round a
    # hole for no MP): each hex entered changes the distance to the Buoy by at most 1, so the
    # rest of the move comes no closer than its distance now less the MPs left; when the chance
    # falls with the hexes (205 B: a non-positive modifier a hex away) the bonus still to come
    # is at most that approach's. Likewise the attack bonus: the move ends within the MPs left,
    # so only a rival within that and 8 hexes makes it possible.
    # (Both, node by node, also in a move with a whip in reach once no whip can come.)
    near_rec = tb >= 0 and bonus_w >= 0.0 and rp[RP_REC_PER_HEX] <= 0
    near_att = att > 0
    # the ends of a move without a whip (``engine.move_ends``), when the caller has the table
    use_ends = ends_at.shape[0] > 0
    # a partial plan that cannot beat the best by more than plan_tol is not searched on: the
    # plan returned costs at most plan_tol more than the best (0: exactly the best)
    tol = pp[PP_PLAN_TOL]
    d = 0
    nodes = 0
    while d >= 0:
        dep[9, d] += 1
        if dep[9, d] >= nrot * 6 or nodes > 20000:
            d -= 1
            continue
        nodes += 1
        # choice = rotation index * 6 + (whip hexes - 1); a move without a whip uses only
        # the first of its six slots and skips the rest. Rotations in the order 0, -1, +1,
        # -2, +2, ...: going straight on first finds a good plan early for the bound below.
        ri = dep[9, d] // 6
        rot = ((ri + 1) // 2) * (-1 if ri % 2 == 1 else 1)
        k = dep[9, d] % 6 + 1
        c, r, f = dep[0, d], dep[1, d], dep[2, d]
        if rot != 0:
            if terrain[c, r] == NULL or terrain[c, r] == WELL or dep[3, d] + abs(rot) > limit:
                dep[9, d] += 5
                continue
        f = (f + rot) % 6
        u = dep[3, d] + abs(rot)
        cost = pcost[d] + abs(rot) * tc
        g, w, bd = dep[4, d], dep[5, d], dep[6, d]
        terminal = False
        mleft = dep[7, d]
        last = mleft == 0 or d >= D - 1
        if last:                                 # the last slot: turning only
            dep[9, d] += 5
        else:
            c2, r2 = nbr(c, r, f)
            if c2 < 1 or c2 >= C or r2 < 1 or r2 >= R:
                dep[9, d] += 5
                # off the board is disqualification (211 A): worse than any plan that stays,
                # even one ending where the route field sees no way home (INF)
                cost += 10 * INF
                c, r = c2, r2
                terminal = True
            else:
                hole = hole_of[c2, r2] if terrain[c2, r2] == WELL else 0
                whip = hole > 0 and whip_vmin <= V <= whip_vmax and not (w >> hole) & 1
                if whip:
                    if k < whip_kmin or k > whip_kmax:
                        continue
                    w |= 1 << hole
                    mleft += 1                   # the whip's hexes cost no MP (204 O)
                    j = ring_pos[c2, r2]
                    step = rotation[hole - 1]
                    cost += whip_cost(pp)        # once a whip, as the route field charges it
                    for n in range(k):
                        c2 = rings[hole - 1, (j + step * n) % 6, 0]
                        r2 = rings[hole - 1, (j + step * n) % 6, 1]
                        cost += hex_price(terrain[c2, r2], fire_class[c2, r2], V, w_null, risk,
                                          pass_min, f1, f2, f3)
                    g = g + k if g + k < whip_gain else whip_gain
                    c, r = c2, r2
                else:
                    dep[9, d] += 5
                    c, r = c2, r2
                    cost += hex_price(terrain[c, r], fire_class[c, r], V, w_null, risk, pass_min,
                                      f1, f2, f3)
                    if terrain[c, r] == HOLE and V < rp[RP_PASS_MIN]:
                        terminal = True          # captured: the plan ends here
                    if c == fin_c and r == fin_r and V == 1:
                        terminal = True          # finished
                if tb >= 0:
                    db = dist(c, r, tb_c, tb_r)
                    if db < bd:
                        bd = db
            mleft -= 1
        # store the state at depth d+1 (or evaluate)
        dep[0, d + 1], dep[1, d + 1], dep[2, d + 1], dep[3, d + 1] = c, r, f, u
        dep[4, d + 1], dep[5, d + 1], dep[6, d + 1] = g, w, bd
        hpen = 0.0
        on = 1 <= c < C and 1 <= r < R
        for q in range(nrel):
            x = phd[d, q]
            if on:
                dh = dist(c, r, hd[rel[q], 0], hd[rel[q], 1])
                if dh < x:
                    x = dh
            phd[d + 1, q] = x
            if x <= hound_range:
                e = 3.5 * par[P_HOUND_DICE_0 + x] - screens
                hpen += w_hound * (e if e > 0.5 else 0.5)
        pcost[d + 1] = cost
        dep[7, d + 1] = mleft
        rec = 0.0
        if tb >= 0 and bd < 99:
            pb = prec[bd]
            if pb < 0.0:
                pb = p_recover(tractor, V, bd, 1, pi_mod, bu[tb, BU_COL], bu[tb, BU_ROW],
                               terrain, fire_class, rp)
                prec[bd] = pb
            rec = pb * bonus_w
        if last or terminal:
            total = cost + hpen - rec
            if not terminal:
                total += J[V + g if V + g < vmax_f else vmax_f, c, r, f]
                if att > 0:
                    for t in range(sv.shape[0]):
                        if t != s and sv[t, V_STATUS] == RACING and dist(c, r, sv[t, V_COL], sv[t, V_ROW]) <= 8 \
                                and in_field_of_fire(c, r, f, sv[t, V_COL], sv[t, V_ROW]):
                            total -= pp[PP_ATTACK]
                            break
                if expo_w > 0:
                    # many leaves end in one hex at different facings: the rivals' fire
                    # depends on the hex alone, so it is worked out once a search
                    hx = c * R + r
                    if hx < expo.shape[1]:
                        if expo[1, hx] != gen:
                            expo[0, hx] = exposure(sv, s, c, r, rp[RP_MAX_RANGE])
                            expo[1, hx] = gen
                        total += expo_w * expo[0, hx]
                    else:
                        total += expo_w * exposure(sv, s, c, r, rp[RP_MAX_RANGE])
            if total < best:
                best = total
                best_depth = d
                for q in range(d + 1):
                    dep[10, q] = dep[9, q]
                    dep[8, q] = dep[7, q]
            continue
        eff = cost + hpen - rec
        # Branch and bound: the route field is a lower bound on what the rest of the Turn can
        # cost (it prices the same hexes, turning movements and whips as this search, plus 1/V
        # a hex), so a partial plan that cannot beat the best complete one even with every
        # allowance (the whole Buoy bonus, the end-of-move attack bonus, the Velocity of a whip
        # made or still to come) is dropped. The field is float32: its rounding (a relative
        # 6e-8) is allowed for, so that a plan within rounding of the best is still searched.
        if V > 0 and best < 1e29:
            jn = J[vb, c, r, f]
            if jn < INF / 2:
                # no whip in the rest of this move: none in reach at all, or no hole of the
                # move's left unwhipped with a ring hex within the MPs left (a Well hex is
                # entered by a forward move, one MP at least)
                nw = not can_whip
                if can_whip and wh1 != 0:
                    nw = (wh1 < 0 or ((w >> wh1) & 1) == 1
                          or dist(c, r, wc1, wr1) - 1 > mleft) \
                        and (wh2 < 0 or ((w >> wh2) & 1) == 1
                             or dist(c, r, wc2, wr2) - 1 > mleft)
                rc = rec_cap
                if near_rec and nw:
                    x = dist(c, r, tb_c, tb_r) - mleft
                    x = x if x > 0 else 0
                    if x < 99:
                        pb = prec[x]
                        if pb < 0.0:
                            pb = p_recover(tractor, V, x, 1, pi_mod, tb_c, tb_r, terrain,
                                           fire_class, rp)
                            prec[x] = pb
                        rc = pb * bonus_w
                        rc = rc if rc > rec else rec
                a2 = att
                if near_att and nw:
                    a2 = 0.0
                    for t in range(sv.shape[0]):
                        if t != s and sv[t, V_STATUS] == RACING \
                                and dist(c, r, sv[t, V_COL], sv[t, V_ROW]) <= mleft + 8:
                            a2 = att
                            break
                pre = (eff + rec - rc if bonus_w >= 0.0 else eff - bonus_w) - a2
                if nw:
                    # the leaves read the field at V + g, g the whips' gain so far
                    lb = pre + jn - (mleft + 0.0) / V - g * dvmax - 1e-6 * (1.0 + jn)
                else:
                    lb = pre + jn - (mleft + refund) / V \
                        - (g + whip_allow) * dvmax - 1e-6 * (1.0 + jn)
                if lb >= best - tol:
                    continue
                # only the attack bonus keeps this partial plan: it stands only if some end
                # the rest of the move can reach (its MPs left, the turning movements left;
                # ``ends_at``, ``ends``: ``engine.move_ends``) has a rival within 8 hexes in
                # its Field of Fire. Asked only here, where the answer prunes: the raider's
                # bound is loose by its whole bonus wherever a rival is near
                if near_att and nw and a2 > 0.0 and lb + a2 >= best - tol \
                        and not ends_attack(ends_at, ends, sv, s, c, r, f, mleft, limit - u,
                                            per_hex, C, R):
                    continue
                # near the root, where a cut saves a whole subtree: the least cost-to-go at
                # the ends the rest of the move can reach at this Velocity (the field at this
                # state lets the Velocity change on the way, 203 C forbids it; a capture is
                # 1,000 and more, leaving the board more still; a plan that finishes has no
                # cost-to-go, so not when the Finish is in reach)
                if d < END_DEPTH and use_ends and nw and g == 0 \
                        and not (V == 1 and dist(c, r, fin_c, fin_r) <= mleft):
                    _, eb = end_bound(ends_at, ends, J, vb, c, r, f, mleft, limit - u,
                                      per_hex, tc)
                    eb = eb if eb < 1000.0 else 1000.0
                    if pre + eb - 1e-6 * (1.0 + abs(eb)) >= best - tol:
                        continue
        key = ((((c * R + r) * 6 + f) * 8 + u) * 32 + mleft) * 8 + g
        key = key * 256 + w
        fkey = np.float64(key)
        hk = np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)
        slot = np.int64(hk >> ushift) if mask >= 0 else np.int64(hk % np.uint64(TS))
        pruned = False
        for _ in range(16):
            if tab[slot, 2] != gen:
                tab[slot, 0] = fkey
                tab[slot, 1] = eff
                tab[slot, 2] = gen
                break
            if tab[slot, 0] == fkey:
                if tab[slot, 1] <= eff:
                    pruned = True
                else:
                    tab[slot, 1] = eff
                break
            slot = (slot + 1) & mask if mask >= 0 else (slot + 1) % TS
        if pruned:
            continue
        d += 1
        dep[9, d] = -1
    scr.gen[1] += nodes                       # counted for the benchmark's node figures
    # tokens
    n = 0
    if best_depth < 0:
        return INF, 0
    c, r, f = dep[0, 0], dep[1, 0], dep[2, 0]
    w = 0
    for q in range(best_depth + 1):
        ri = dep[10, q] // 6
        rot = ((ri + 1) // 2) * (-1 if ri % 2 == 1 else 1)
        k = dep[10, q] % 6 + 1
        for _ in range(abs(rot)):
            out_plan[n] = 2 if rot > 0 else 1
            n += 1
        f = (f + rot) % 6
        if dep[8, q] > 0 and q < D - 1:
            out_plan[n] = 0
            n += 1
            c2, r2 = nbr(c, r, f)
            if c2 < 1 or c2 >= C or r2 < 1 or r2 >= R:
                break
            hole = hole_of[c2, r2] if terrain[c2, r2] == WELL else 0
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


@jit(_nrt=False)
def add_recovery_attempts(q, plan, n, out_plan, W, pp):
    """Copy ``plan`` (``n`` tokens, flown as ``q`` asks, :class:`PlanSpec`) into ``out_plan``
    with a Buoy Recovery attempt (100 + Buoy index) after each hex entered from which some
    Buoy on the board has a chance >= tractor_p (one per hex moved, 205 A; each attempt after
    the first costs the Tractor's Fuel again, 203 C e)."""
    s, V, tractor, pi_mod, fuel = q.s, q.V, q.tractor, q.pi_mod, q.fuel
    sv, bu, rp = W.sv, W.bu, W.rp
    (terrain, fire_class, hole_of, ring_pos, rings, rotation) = (
        W.terrain, W.fire_class, W.hole_of, W.ring_pos, W.rings, W.rotation)
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

@jit(_nrt=False)
def choose_target(s, turn, S, J, FD, BT, rp, pp, fin_field):
    """The route field the pilot follows this Turn: its Finish or a Buoy (returns field, Buoy)."""
    sv, ships, bu = S.sv, S.ships, S.bu
    easy_field, ring_field = FD.easy_field, FD.ring_field
    fin_from = FD.fin_from[sv[s, V_PILOT]]
    ring_hole, hole_cls = BT.ring_hole, BT.hole_cls
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


@jit(_nrt=False)
def _p_marker_destroyed(level, par):
    """206 F: a Buoy or Hell Hound hit is destroyed when Laser - 2d6 'Screens' >= 2."""
    need = level - par[P_DESTROY_AT_LEAST]          # destroyed when the dice total <= need
    if par[P_MARKER_DICE] != 2:
        return 0.0
    return 1.0 - p_2d6_at_least(need + 1)


@jit(_nrt=False)
def fire_choice(st, script, s, W, level, scrambler, pp, pi_mod):
    """The best target for the Laser (``scrambler`` False) or the Scrambler now, priced in VP:
    (kind 0 ship / 1 Hell Hound / 2 Buoy / -1 none, index, range, modifier, value).

    A rival ship: the hit chance times the SI hits (Laser) or the System Crisis rolls
    (Scrambler, only if its Level beats the Screens by more than 2) the pilot expects against
    ``rival_screens`` -- it cannot see what a rival allocated (203 A) -- at ``vp_per_hit`` /
    ``vp_per_crisis``. A Hell Hound within 4 hexes: chance of destroying it times
    ``fire_hounds``. A Buoy a rival is nearer to and can reach this Turn (its Velocity is on
    the board) and that this pilot is not after itself: chance of destroying it times its VP
    times ``fire_buoys``. Targets below ``min_p_hit`` are skipped; equal values are settled by
    the dice, never by list order. ``W``: :func:`plan_view`."""
    sv, bu, hd = W.sv, W.bu, W.hd
    terrain, fire_class = W.terrain, W.fire_class
    par, rp = W.par, W.rp
    c, r, f = sv[s, V_COL], sv[s, V_ROW], sv[s, V_FACING]
    LS = Sight(terrain, fire_class, rp[RP_LOF_FIRE0:RP_LOF_FIRE0 + 4], rp[RP_MAX_RANGE],
               rp[RP_LOF_WELL], rp[RP_LOF_HOLE])
    bk, bi, brg, bm, bv = -1, -1, 0, 0, 0.0
    nt = 0
    if pp[PP_FIRE_SHIPS] > 0:
        for t in range(sv.shape[0]):
            if t == s or sv[t, V_STATUS] != RACING:
                continue
            ok, rng, mod = fire_solution(c, r, f, sv[t, V_COL], sv[t, V_ROW], LS)
            if not ok:
                continue
            p = p_2d6_at_least(rng - mod - pi_mod)
            if p < pp[PP_MIN_PHIT]:
                continue
            scr = pp[PP_RIVAL_SCR]
            if scrambler:
                val = 0.0
                if level - scr > par[P_SCR_ABOVE]:
                    val = p * par[P_SCR_ROLLS] * pp[PP_VP_CRISIS]
            else:
                val = p * max(0.0, level - scr) * pp[PP_VP_HIT]
            val *= pp[PP_FIRE_SHIPS]
            if val <= 0.0:
                continue
            if val > bv:
                bk, bi, brg, bm, bv, nt = 0, t, rng, mod, val, 1
            elif val == bv:
                nt += 1
                if dice.roll(st, script, 1, nt) == 1:
                    bk, bi, brg, bm = 0, t, rng, mod
    if scrambler:
        return bk, bi, brg, bm, bv
    pd = _p_marker_destroyed(level, par)
    if pp[PP_FIRE_HOUNDS] > 0:
        for q in range(hd.shape[0]):
            if not hd[q, 2] or dist(c, r, hd[q, 0], hd[q, 1]) > 4:
                continue
            ok, rng, mod = fire_solution(c, r, f, hd[q, 0], hd[q, 1], LS)
            if not ok:
                continue
            mod += rp[RP_TGT_HOUND]
            p = p_2d6_at_least(rng - mod - pi_mod)
            val = p * pd * pp[PP_FIRE_HOUNDS]
            if p < pp[PP_MIN_PHIT] or val <= 0.0:
                continue
            if val > bv:
                bk, bi, brg, bm, bv, nt = 1, q, rng, mod, val, 1
            elif val == bv:
                nt += 1
                if dice.roll(st, script, 1, nt) == 1:
                    bk, bi, brg, bm = 1, q, rng, mod
    if pp[PP_FIRE_BUOYS] > 0:
        for b in range(bu.shape[0]):
            if bu[b, BU_STATE] != ON_BOARD or b == sv[s, V_FORCED]:
                continue
            bc, br = bu[b, BU_COL], bu[b, BU_ROW]
            mine = dist(c, r, bc, br)
            if mine > rp[RP_MAX_RANGE]:
                continue
            threat = False
            for t in range(sv.shape[0]):
                if t != s and sv[t, V_STATUS] == RACING:
                    dt = dist(sv[t, V_COL], sv[t, V_ROW], bc, br)
                    if dt < mine and dt <= sv[t, V_VEL] + 2:
                        threat = True
            if not threat:
                continue
            ok, rng, mod = fire_solution(c, r, f, bc, br, LS)
            if not ok:
                continue
            if bu[b, BU_MKIND] != EASY:
                mod += rp[RP_TGT_MOVING]
            p = p_2d6_at_least(rng - mod - pi_mod)
            val = p * pd * rp[RP_VP0 + bu[b, BU_VP]] * pp[PP_FIRE_BUOYS]
            if p < pp[PP_MIN_PHIT] or val <= 0.0:
                continue
            if val > bv:
                bk, bi, brg, bm, bv, nt = 2, b, rng, mod, val, 1
            elif val == bv:
                nt += 1
                if dice.roll(st, script, 1, nt) == 1:
                    bk, bi, brg, bm = 2, b, rng, mod
    return bk, bi, brg, bm, bv
