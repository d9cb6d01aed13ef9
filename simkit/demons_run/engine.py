"""The whole race as one compiled kernel (202 Sequence of Play, 203-211, Reference Card).

One race, Turn by Turn until every ship has finished, been destroyed or left the board, or
the Turn limit (30) is done:

* Step A: every Buoy moves (204 G-I: Easy Buoys stay; Free Floaters d6 1-3 hexes, else a High
  Roller orbits; Astaroth/Belial/Lucifer orbit) through ``markers.kernel_marker_path``; the
  Initiative draw (204 B: a random order of the ships still racing); every ship's System Crises
  due this Turn take effect (contradictions become No. 7, 210 C c) and its pilot allocates
  (203: Main Engines A/D, Screens, Tractor, Laser, Scrambler within the current maxima, the
  crises and the Fuel; the Fuel is spent at once, 203 C). A ship with no Fuel allocates
  nothing (005 L). Systems Failure: no allocation, one PI Level lost. Must accelerate or
  decelerate: one die of Levels, within the Main Engines maximum, not below Velocity 0.
* Steps B-E, each ship in Initiative order: Laser and Scrambler fire (206: Field of Fire, Line
  of Fire with every modifier, Null blocks, range 12; a ship, or a Hell Hound with 2d6 Screens);
  the Null escape (errata: the Null attack again; escaped ships face a random hexside); the
  Hell Hole escape (204 M: Velocity 4+ escapes moving at V-3, else attacked again at
  Velocity 0); movement (:func:`move_plan`, the compiled twin of ``movement.move_ship``: one hex
  per MP, turning limits, Null and Hell Fire attacks as each hex is entered, Hell Hole capture
  at 5-8, the Gravity Whip, Hell Hounds at the closest approach, Buoy Recovery attempts, the
  Finish hex entered at Velocity 1, leaving the board). Turning movements cost their Fuel at
  the end of the move (203 C c); the Whip's Velocity is added at the end of the move (204 O).
* Step F: each Hell Hound moves as a Free Floater and detonates at its closest approach within
  two hexes of a ship (207 A). Step G: 5 Fuel for a ship in a Null hex, 5 per Fuel-leak crisis.
* Damage goes through the hazard kernels (``kernels.hazard_trial``: 209, 208, 207, 206, 205,
  210); a crisis takes effect this Turn if the ship has not moved yet, else next Turn (210 C a-b);
  a Buoy cast loose (210 C c) is put back in the ship's hex (an Easy one stays; any other moves
  again as a Free Floater).
* End (211 B): Victory Points = Buoys carried + 1 per Fuel Level (at most 100) + the finishing
  place (50/25/10/0 by order of finishing); a destroyed ship or one that left the board scores
  0. The winner has the most VP; a tie goes to the ship that finished first, else nobody wins.

Rules readings are listed in docs/rules/demons-run.md. Dice are drawn through
``simkit.core.dice`` via the hazard kernels' ``_roll``: a race replays exactly from a script.
"""

from __future__ import annotations

import threading
from typing import NamedTuple

import numpy as np

from simkit.core import dice, eventlog
from simkit.core._numba import jit
from simkit.core.blocks import sum_blocks
from simkit.core.hexgrid import DX, DZ, EVEN_LOWER, to_cube

from .procedures import kernels as K
from .pieces.board import HOLE, NULL, WELL
from .pieces.geometry import dist, nbr
from .pieces.layout import (A_LASER, A_ME, A_SCR, A_SCREENS, A_TRACTOR, BU_COL, BU_MKIND, BU_ROW,
                            BU_STATE, BU_VP, CARRIED, DESTROYED, FINISHED, GONE, MAX_CARRY,
                            OFF_BOARD, ON_BOARD, RACING, RP_CRISIS_REPL, RP_ESC_PEN, RP_ESC_V,
                            RP_F_ACC, RP_F_DEC, RP_F_LASER, RP_F_SCR, RP_F_SCREENS, RP_F_TRACTOR,
                            RP_F_TURN, RP_FIN_V, RP_HOLE_KEEP_V, RP_HOUND_RANGE, RP_LEAK_FUEL, RP_MAX_RANGE,
                            RP_MOVES_AT_MOST, RP_NULL_FUEL, RP_PASS_MIN, RP_PLACE0, RP_REC_FIRE0,
                            RP_REC_PER_HEX, RP_REC_PER_V, RP_REC_SUCC, RP_REC_VOVER, RP_REC_WELL,
                            RP_SCR_LASER, RP_SI_DEAD, RP_TURN_LIMIT, RP_VMAX, RP_VP0,
                            RP_VP_FUEL_MAX, RP_VP_FUEL_PER, RP_WHIP_GAIN, RP_WHIP_KMAX,
                            RP_WHIP_KMIN, RP_WHIP_STEPS, RP_WHIP_VMAX, RP_WHIP_VMIN, SV_SIZE,
                            V_CAPTURED, V_COL, V_CR_NEXT, V_CR_NOW, V_FACING, V_FIN_COL, V_FIN_ROW,
                            V_FIN_FIELD, V_FIN_TURN, V_FORCED, V_LEAKS, V_MOVED, V_NCARRY, V_NULL,
                            V_PILOT, V_PLACE, V_RECOVERED, V_ROW, V_STATUS, V_TARGET, V_TURNS,
                            V_TUSES, V_VEL, V_WHIP, VP_EASY)
from .pieces.markers import EASY, FREE, kernel_marker_path
from .policies import (INF, MAX_PLAN, MEMO_BITS, NV, PlanScratch, PP_ATTACK, PP_CRUISE, PP_FUEL_VP,
                       PP_FUEL_MARGIN, PP_SCREENS, PP_TIME_MARGIN, PP_TRACTOR_P, PP_SCREENS_HAZ,
                       PP_THREAT, PP_FIRE_RESERVE, PP_VPT, PlanSpec, add_recovery_attempts,
                       best_plan_in, choose_target, dv_cost, PP_PLAN_TOL, PP_RIVAL_LASER,
                       end_bound, ends_attack, fire_choice, guarded_finish_risk, p_recover,
                       PlanView, plan_scratch, plan_view, rival_within, turn_cost)
from .rules import BUOYS, FUEL, LASER, ME, MN, PI, SCRAMBLER, SCREENS, SI, TRACTOR


# crisis effect indices (layout.CRISIS_KEYS)
C_NO_TRACTOR, C_NO_WEAPONS, C_NO_TURNING, C_NO_ACC, C_FAILURE, C_NO_SCREENS, C_NO_DEC, \
    C_MUST_ACC, C_MUST_DEC, C_LEAK = range(10)

# --- event log: the shared layout (core.eventlog): turn, phase (none), ship, kind, a-e ---------
LOG_W = eventlog.WIDTH
(EV_TURN, EV_ALLOC, EV_FIRE, EV_NULL, EV_FIRE_HEX, EV_HOLE, EV_HOUND, EV_RECOVER, EV_WHIP,
 EV_MOVE, EV_DESTROYED, EV_FINISH, EV_OFF, EV_NULL_ESC, EV_HOLE_ESC, EV_CRISIS, EV_LOOSE,
 EV_STEP_G, EV_END, EV_HOUND_F, EV_SCRAMBLE, EV_HOLE_PASS, EV_HOUND_SHOT, EV_BUOY_SHOT) = range(24)

# --- what each ship did in a race, counted in extra columns of its state row -----------------
# Gravity Whips, Hell Fire hexes entered, Laser/Scrambler shots, shots that hit, Buoys recovered
# by class (easy, moving, Hell2, Hell3: the BU_VP index)
X_WHIPS, X_FIRE_HEX, X_SHOTS, X_HITS, X_B0 = range(SV_SIZE, SV_SIZE + 5)
N_COUNTS = 8
SVX = SV_SIZE + N_COUNTS
COUNT_NAMES = ("whips", "hell_fire_entries", "shots", "hits", "buoys_easy", "buoys_moving",
               "buoys_hell2", "buoys_hell3")

# --- per-ship statistics (int64 sums) ----------------------------------------------------------
(S_WINS, S_FINISHED, S_DESTROYED, S_OFF, S_VP, S_VP2, S_BUOYS, S_FUEL, S_PLACE1, S_PLACE2,
 S_PLACE3, S_PLACE4, S_FIN_TURN, S_SI_LOST, S_CRISES) = range(15)
S_COUNT0 = 15                # N_COUNTS sums, then N_COUNTS sums of squares (COUNT_NAMES order)
N_SHIP_STATS = S_COUNT0 + 2 * N_COUNTS
G_TURNS, G_TURNS2, G_NO_WINNER = range(3)
N_GLOBAL = 3
RES_COUNT0 = 7               # res columns: 7 fixed, then the N_COUNTS counts
RES_W = RES_COUNT0 + N_COUNTS


class Start(NamedTuple):
    """A race's set-up, ``S0``: every race copies it."""
    ships: np.ndarray     # int64[ship, *]: systems (reference.ship_from_build layout)
    sv: np.ndarray        # int64[ship, SV_SIZE]: position, velocity, status (layout.V_*)
    bu: np.ndarray        # int64[buoy, BU_SIZE]
    hd: np.ndarray        # int64[hound, *]
    pilots: np.ndarray    # float64[ship, NV]: the pilot parameter vectors


class Race(NamedTuple):
    """One race's changing state and the scratch its phases share, ``S``."""
    sv: np.ndarray        # int64[ship, SVX]
    ships: np.ndarray
    bu: np.ndarray
    hd: np.ndarray
    carry: np.ndarray     # int64[ship, MAX_CARRY]: Buoys in tow
    hound_at: np.ndarray  # int64[hound]: plan index where it strikes (-1 none)
    path: np.ndarray      # int64[MAX_PLAN, 2]: the hexes of the move being made
    spec: np.ndarray      # hazard kernels' scratch (kernels.N_SPEC)
    out: np.ndarray       # hazard kernels' outcome (kernels.OUT_SIZE)


class Fields(NamedTuple):
    """The pilots' route fields, ``FD`` (``policies.route_field``), one set per pilot slot."""
    fields: np.ndarray
    easy_field: np.ndarray
    ring_field: np.ndarray
    reach: np.ndarray     # float32[slot, field, 2, NV, col, row]: :func:`reach_table`
    fin_from: np.ndarray  # float64[slot, field, finish]: least cost from a field's goal to a
    #                       Finish (``policies.choose_target`` prices a detour's way home)
    ends_at: np.ndarray   # int64[V, limit, per_hex, facing, 2]: :func:`move_ends` rows
    ends: np.ndarray      # int64[k, 4]: where a move can end (cube dx, dz; facing; the
    #                       fewest turning movements to it)
    fields_v: np.ndarray  # float32[slot, field, NV, col, row, 6]: ``fields`` Velocity first
    #                       (``policies.by_velocity``), what the plan search and the ends
    #                       bound read
    fire_sum: np.ndarray  # int64[col + 1, row + 1]: Hell Fire hexes in the columns before
    #                       col and rows before row (:func:`fire_sums`): the allocation's look
    #                       round for Hell Fire in four reads, not (2V + 3)^2


def fire_sums(fire_class):
    """:attr:`Fields.fire_sum` of a board's ``fire_class``: [c, r] counts the Hell Fire hexes
    (class > 0) at columns < c and rows < r, so any box of hexes counts in four reads."""
    C, R = fire_class.shape
    out = np.zeros((C + 1, R + 1), np.int64)
    out[1:, 1:] = np.cumsum(np.cumsum(np.asarray(fire_class) > 0, axis=0), axis=1)
    return out


def move_ends(vturns, max_limit, max_per_hex):
    """Where a move without a Gravity Whip can end, for ``policies.end_bound``: for each Velocity
    V, turning limit, per-hex limit and start facing, every (cube dx, dz from the start hex,
    facing) reachable by V hexes forward with the turning movements (at most ``per_hex`` in a
    hex, ``limit`` in the Turn) before each hex and after the last, as the plan search makes
    them (204 C-E). Null and Well hexes, where no turning is allowed, only remove ends, so on
    any board the true ends are among these, each with the fewest turning movements that reach
    it (a plan pays at least that many, ``policies.turn_cost`` each). Returns (ends_at, ends):
    ``ends[ends_at[V, limit, per_hex, facing, 0]:...1]``, rows (dx, dz, facing, turning
    movements); limits above the Velocity's turns (204 E) are left empty."""
    nv = len(vturns)
    at = np.zeros((nv, max_limit + 1, max_per_hex + 1, 6, 2), np.int64)
    rows = []
    for v in range(nv):
        for lim in range(min(max_limit, int(vturns[v])) + 1):
            for ph in range(1, max_per_hex + 1):
                for f0 in range(6):
                    states = {(0, 0, f0, 0)}
                    for _ in range(v):
                        nxt = set()
                        for x, z, f, u in states:
                            for rot in range(-ph, ph + 1):
                                if u + abs(rot) <= lim:
                                    g = (f + rot) % 6
                                    nxt.add((x + int(DX[g]), z + int(DZ[g]), g, u + abs(rot)))
                        states = nxt
                    out = {}
                    for x, z, f, u in states:
                        for rot in range(-ph, ph + 1):
                            if u + abs(rot) <= lim:
                                e = (x, z, (f + rot) % 6)
                                out[e] = min(out.get(e, lim), u + abs(rot))
                    at[v, lim, ph, f0] = len(rows), len(rows) + len(out)
                    rows.extend(e + (out[e],) for e in sorted(out))
    return at, np.asarray(rows, np.int64).reshape(-1, 4)


def reach_table(fields, whip_gain):
    """What :func:`_reach_bound` scans, per field (``fields`` float32[field, col, row, 6, NV]):
    [field, 0, v, c, r] the least cost-to-go at (c, r) over the facings at Velocity v, and
    [field, 1, v, c, r] the same over the Velocities v..v+``whip_gain`` (a Turn with a Gravity
    Whip in reach can end there). Minima of the same float32 values, so the bound is exactly
    the one a scan of the field gives, in a sixth (or less) of the reads, the board's rows
    contiguous."""
    m = fields.min(axis=3)                                    # [field, c, r, v]
    nv = m.shape[-1]
    w = np.empty_like(m)
    for v in range(nv):
        w[..., v] = m[..., v:min(v + whip_gain, nv - 1) + 1].min(axis=-1)
    return np.ascontiguousarray(np.stack([m, w], axis=1).transpose(0, 1, 4, 2, 3))


class Plans(NamedTuple):
    """The pilots' planning scratch, ``P``, allocated once per race or block of races
    (:func:`play_race_in`)."""
    plan: np.ndarray      # int64[MAX_PLAN]: the plan being built (tokens)
    plan2: np.ndarray     # int64[MAX_PLAN]: the plan with its recovery attempts
    keep: np.ndarray      # int64[ship, K_PLAN + MAX_PLAN]: the plan kept from the allocation
    tab: PlanScratch      # ``policies.best_plan``'s scratch (dominance table, per-depth state)


class Log(NamedTuple):
    """The event log, ``L`` (zero rows when not logging)."""
    log: np.ndarray
    logn: np.ndarray


def race_state(ships, sv, bu, hd) -> Race:
    """A :class:`Race` over these arrays (used in place), with fresh scratch, for scripted
    positions."""
    ns = ships.shape[0]
    return Race(sv, ships, bu, hd, np.zeros((ns, MAX_CARRY), np.int64),
                np.full(hd.shape[0], -1, np.int64), np.zeros((MAX_PLAN, 2), np.int64),
                np.zeros(K.N_SPEC, np.int64), np.zeros(K.OUT_SIZE, np.int64))


# NO_NRT: the functions compiled with ``_nrt=False`` allocate no array, return none and call
# nothing that returns one; their callers hold every array they are given. numba then emits no
# reference counts for them: otherwise each call counted every array of the tuples it takes
# (the race state, the rules and board tables) on entry and exit, each count an atomic add, and
# those adds were a fifth of a four-ship race's time (perf). A function that allocates or
# returns an array (``plan_view``, ``_chase_pp``, ``policies.fire_prices``, ``play_race_in``)
# must keep them, and none of these may call it: numba compiles a callee it has not compiled
# before with its caller's flags, so an allocation below one of these fails to compile, and an
# array returned from one would be counted by nobody. ``allocate``, ``ship_phase`` and
# ``hound_targets`` work in the planning scratch for that.
@jit(_nrt=False)
def _log(L, turn, kind, s, a, b, c, d, e):
    """One event in the shared layout (:mod:`simkit.core.eventlog`): no phase, the ship as the
    actor."""
    log, logn = L.log, L.logn
    eventlog.write_event(log, logn, (turn, -1, s, kind, a, b, c, d, e, 0, 0))


@jit(_nrt=False)
def _resolve(mask, contra, repl):
    """210 C c: contradictory results in one Turn become result No. 7."""
    for i in range(contra.shape[0]):
        a, b = contra[i, 0], contra[i, 1]
        if (mask >> a) & 1 and (mask >> b) & 1:
            mask &= ~((1 << a) | (1 << b))
            mask |= 1 << repl
    return mask


@jit(_nrt=False)
def _has(mask, code, ccode):
    for r in range(2, 13):
        if (mask >> r) & 1 and ccode[r] == code:
            return True
    return False


@jit(_nrt=False)
def _apply_now(st, script, s, new, S, RT, turn, L):
    """Crises arriving before the ship has moved take effect on what is left of this Turn."""
    sv, ships = S.sv, S.ships
    crit, par, vturns, rp, mn_hex, mn_turn, pi_mod, ccode, contra = RT
    if _has(new, C_FAILURE, ccode):
        ships[s, PI] = max(0, ships[s, PI] - 1)
        sv[s, A_SCREENS] = 0
        sv[s, A_LASER] = 0
        sv[s, A_SCR] = 0
        sv[s, A_TRACTOR] = 0
    if _has(new, C_NO_SCREENS, ccode):
        sv[s, A_SCREENS] = 0
    if _has(new, C_NO_WEAPONS, ccode):
        sv[s, A_LASER] = 0
        sv[s, A_SCR] = 0
    if _has(new, C_NO_TRACTOR, ccode):
        sv[s, A_TRACTOR] = 0
    if _has(new, C_NO_ACC, ccode) and sv[s, A_ME] > 0:
        sv[s, V_VEL] = max(0, sv[s, V_VEL] - sv[s, A_ME])
        sv[s, A_ME] = 0
    if _has(new, C_NO_DEC, ccode) and sv[s, A_ME] < 0:
        sv[s, V_VEL] = min(rp[RP_VMAX], sv[s, V_VEL] - sv[s, A_ME])
        sv[s, A_ME] = 0
    if _has(new, C_MUST_ACC, ccode) or _has(new, C_MUST_DEC, ccode):
        k = min(K._roll(st, script, 1, 6), ships[s, ME])
        if _has(new, C_MUST_ACC, ccode):
            sv[s, V_VEL] = min(rp[RP_VMAX], sv[s, V_VEL] + k)
        else:
            sv[s, V_VEL] = max(0, sv[s, V_VEL] - k)


@jit(_nrt=False)
def _after(st, script, s, S, RT, turn, L):
    """Book what one hazard procedure did to ship ``s``: destruction, System Crises (with
    their timing), Buoys cast loose."""
    sv, ships, bu, carry, out = S.sv, S.ships, S.bu, S.carry, S.out
    crit, par, vturns, rp, mn_hex, mn_turn, pi_mod, ccode, contra = RT
    new = 0
    for j in range(11):
        if out[K.O_CRISIS_HIST + j] > 0:
            r = j + 2
            if ccode[r] == C_LEAK:
                sv[s, V_LEAKS] += out[K.O_CRISIS_HIST + j]
            else:
                new |= 1 << r
            _log(L, turn, EV_CRISIS, s, r, sv[s, V_MOVED], 0, 0, 0)
    if new:
        if sv[s, V_MOVED]:
            sv[s, V_CR_NEXT] = _resolve(sv[s, V_CR_NEXT] | new, contra, rp[RP_CRISIS_REPL])
        else:
            before = sv[s, V_CR_NOW]
            now = _resolve(before | new, contra, rp[RP_CRISIS_REPL])
            sv[s, V_CR_NOW] = now
            _apply_now(st, script, s, now & ~before, S, RT, turn, L)
    for _ in range(out[K.O_BUOYS_LOST]):
        n = sv[s, V_NCARRY]
        if n > 0:
            b = carry[s, n - 1]
            sv[s, V_NCARRY] = n - 1
            bu[b, BU_STATE] = ON_BOARD
            bu[b, BU_COL], bu[b, BU_ROW] = sv[s, V_COL], sv[s, V_ROW]
            if bu[b, BU_VP] != VP_EASY:
                bu[b, BU_MKIND] = FREE
            _log(L, turn, EV_LOOSE, s, b, sv[s, V_COL], sv[s, V_ROW], 0, 0)
    if (out[K.O_DESTROYED] or ships[s, SI] <= rp[RP_SI_DEAD]) and sv[s, V_STATUS] == RACING:
        sv[s, V_STATUS] = DESTROYED
        _log(L, turn, EV_DESTROYED, s, sv[s, V_COL], sv[s, V_ROW], 0, 0, 0)


class Proc(NamedTuple):
    """One hazard procedure's scalars, as :func:`_hazard` hands them to the kernels'
    spec (``kernels.SP_*``): a tuple of scalars crosses a call for free."""
    kind: int
    arg: int
    screens: int
    vel: int
    pi: int
    level: int
    rng: int
    mod: int


@jit(_nrt=False)
def _hazard(st, script, s, pr, S, RT):
    """Run procedure ``pr`` (:class:`Proc`) against ship ``s``; the outcome is in ``S.out``."""
    ships, spec, out = S.ships, S.spec, S.out
    crit, par, vturns, rp, mn_hex, mn_turn, pi_mod, ccode, contra = RT
    spec[:] = 0
    spec[K.SP_KIND], spec[K.SP_ARG], spec[K.SP_SCREENS] = pr.kind, pr.arg, pr.screens
    spec[K.SP_VELOCITY] = min(pr.vel, vturns.shape[0] - 1)
    spec[K.SP_PI], spec[K.SP_LEVEL] = pr.pi, pr.level
    spec[K.SP_RANGE], spec[K.SP_MOD] = pr.rng, pr.mod
    out[:] = 0
    K.hazard_trial(st, script, spec, ships[s], crit, par, vturns, out)


@jit(_nrt=False)
def _screens(s, sv, ships):
    return min(sv[s, A_SCREENS], ships[s, SCREENS])


@jit(_nrt=False)
def _tractor(s, sv, ships):
    # 210 A: a Function cut by a Critical Hit after the allocation works at the Level it has
    return min(sv[s, A_TRACTOR], ships[s, TRACTOR])


# --- movement (the compiled twin of movement.move_ship) ---------------------------------------

class Mover(NamedTuple):
    """Who moves, ``mv``: ship ``s`` in Turn ``turn``, for real (``wet``) or as the dry run that
    finds where the hounds strike (scalars only: free to pass down the move's calls)."""
    wet: bool
    s: int
    turn: int


class Entry(NamedTuple):
    """A hex being entered, ``hx``: where, at what Velocity, whether on a Gravity Whip's ring,
    and the length of the path with it."""
    col: int
    row: int
    vel: int
    through_whip: bool
    npath: int


@jit(_nrt=False)
def move_plan(st, script, mv, S, plan, nplan, RT, BT, L):
    """Execute ship ``mv.s``'s plan (tokens 0 F, 1 L, 2 R, 10+k whip k hexes, 100+n Tractor at
    Buoy n). ``wet`` False is the dry run: no dice, no state change, the path in ``path``.
    Returns (code, hexes in path): code 0 moved, 1 stopped (Null, capture), 2 destroyed,
    3 off the board, 4 finished, -1..-6 an illegal plan (which rule, see PLAN_ERRORS)."""
    wet, s, turn = mv
    sv, ships, bu, carry, path, out = S.sv, S.ships, S.bu, S.carry, S.path, S.out
    crit, par, vturns, rp, mn_hex, mn_turn, pi_mod, ccode, contra = RT
    terrain, fire_class, hole_of, ring_pos, ring_hole, rings, rotation, side_dir, hole_cls, hcen = BT
    C, R = terrain.shape[0], terrain.shape[1]
    col, row, facing, vel = sv[s, V_COL], sv[s, V_ROW], sv[s, V_FACING], sv[s, V_VEL]
    fin_col, fin_row = sv[s, V_FIN_COL], sv[s, V_FIN_ROW]
    hd, hound_at = S.hd, S.hound_at
    nh = hd.shape[0]
    per_hex = mn_hex[ships[s, MN]]
    limit = min(mn_turn[ships[s, MN]], vturns[min(vel, vturns.shape[0] - 1)])
    if _has(sv[s, V_CR_NOW], C_NO_TURNING, ccode):
        limit = 0
    screens = _screens(s, sv, ships)
    tractor = _tractor(s, sv, ships)
    pim = pi_mod[ships[s, PI]]
    mp = vel
    in_hex = 0
    turns = 0
    whipped = 0
    gain = 0
    npath = 1
    path[0, 0], path[0, 1] = col, row
    last_attempt = 0
    tuses = 0
    code = 0
    i = 0
    # hounds: at the start hex already?
    if wet and _armed(hound_at):
        code = _hounds(st, script, mv, Entry(col, row, vel, False, npath), False, screens, S,
                       RT, L)
        if code:
            return code, npath
    while i < nplan:
        tok = plan[i]
        i += 1
        if tok == 1 or tok == 2:
            t = terrain[col, row]
            if t == NULL or t == WELL:
                return -1, npath
            if in_hex + 1 > per_hex:
                return -2, npath
            if turns + 1 > limit:
                return -3, npath
            facing = (facing + (1 if tok == 2 else 5)) % 6
            in_hex += 1
            turns += 1
            continue
        if tok >= 100:
            b = tok - 100
            if tractor <= 0:
                return -4, npath
            if npath - 1 <= last_attempt:
                return -5, npath
            last_attempt = npath - 1
            if not wet or bu[b, BU_STATE] != ON_BOARD:
                continue
            if tuses >= 1:                       # 203 C e: each further use costs again
                cost = tractor * rp[RP_F_TRACTOR]
                if ships[s, FUEL] < cost:
                    continue
                ships[s, FUEL] -= cost
            tuses += 1
            bc, br = bu[b, BU_COL], bu[b, BU_ROW]
            mod = rp[RP_REC_PER_V] * max(0, vel - rp[RP_REC_VOVER])
            mod += rp[RP_REC_PER_HEX] * dist(col, row, bc, br) + rp[RP_REC_SUCC] * (tuses - 1) + pim
            tm = rp[RP_REC_FIRE0 + fire_class[bc, br]]
            if terrain[bc, br] == WELL and rp[RP_REC_WELL] < tm:
                tm = rp[RP_REC_WELL]
            _hazard(st, script, s, Proc(K.K_RECOVERY, 0, 0, vel, pim, tractor, 0, mod + tm), S,
                    RT)
            ok = out[K.O_EFFECT]
            _log(L, turn, EV_RECOVER, s, b, ok, dist(col, row, bc, br), mod + tm, 0)
            if ok:
                n = sv[s, V_NCARRY]
                if n < MAX_CARRY:
                    carry[s, n] = b
                    sv[s, V_NCARRY] = n + 1
                    bu[b, BU_STATE] = CARRIED
                    sv[s, X_B0 + bu[b, BU_VP]] += 1
                    ships[s, BUOYS] += 1
                    sv[s, V_RECOVERED] += 1
            continue
        if tok >= 10:
            return -6, npath                     # a whip step where no whip happens
        if mp == 0:
            return -7, npath
        c2, r2 = _step(col, row, facing)
        mp -= 1
        in_hex = 0
        if c2 < 1 or c2 >= C or r2 < 1 or r2 >= R:
            if wet:
                sv[s, V_STATUS] = OFF_BOARD
                _log(L, turn, EV_OFF, s, c2, r2, 0, 0, 0)
                _store(s, sv, col, row, facing, vel, turns, gain, tuses)
            return 3, npath
        hole = hole_of[c2, r2] if terrain[c2, r2] == WELL else 0
        if hole > 0 and rp[RP_WHIP_VMIN] <= vel <= rp[RP_WHIP_VMAX] and not (whipped >> hole) & 1:
            if i >= nplan or plan[i] < 10 or plan[i] >= 100:
                return -8, npath
            k = plan[i] - 10
            i += 1
            if k < rp[RP_WHIP_KMIN] or k > rp[RP_WHIP_KMAX]:
                return -9, npath
            mp += 1
            whipped |= 1 << hole
            j = ring_pos[c2, r2]
            step = rotation[hole - 1]
            for n in range(k):
                col = rings[hole - 1, (j + step * n) % 6, 0]
                row = rings[hole - 1, (j + step * n) % 6, 1]
                path[npath, 0], path[npath, 1] = col, row
                npath += 1
                # a Well hex whipped through holds no Null, and neither a Hell Hole's capture
                # nor the Finish counts in a whip: with no Hell Fire and no hound striking at
                # this index of the path, _enter would only move the ship there (as below)
                plain = fire_class[col, row] == 0
                for q in range(nh):
                    if hound_at[q] == npath - 1 and hd[q, 2]:
                        plain = False
                if plain and terrain[col, row] != NULL:
                    if wet:
                        sv[s, V_COL], sv[s, V_ROW] = col, row
                    continue
                code, vel = _enter(st, script, mv, Entry(col, row, vel, True, npath), S, RT, BT,
                                   L)
                if code:
                    if wet:
                        _store(s, sv, col, row, facing, vel, turns, gain, tuses)
                    return code, npath
            gain = min(rp[RP_WHIP_GAIN], gain + k)
            if wet:
                _log(L, turn, EV_WHIP, s, k, col, row, 0, 0)
                sv[s, X_WHIPS] += 1
            continue
        col, row = c2, r2
        path[npath, 0], path[npath, 1] = col, row
        npath += 1
        # Nothing happens on entering a hex with no Null, Hell Fire or Hell Hole, not the
        # Finish, where no hound strikes at this index of the path (hound_targets; one that
        # strikes sooner has stopped the move or is gone): _enter would only move the ship
        # there. Decided here without the call (and without a helper taking arrays): a call
        # that takes the race's tuples counts a reference to each of their arrays, and that
        # counting was a sixth of a race's time.
        t = terrain[col, row]
        plain = not (t == NULL or t == HOLE or fire_class[col, row] > 0
                     or (col == fin_col and row == fin_row))
        if plain:
            for q in range(nh):
                if hound_at[q] == npath - 1 and hd[q, 2]:
                    plain = False
        if plain:
            if wet:
                sv[s, V_COL], sv[s, V_ROW] = col, row
            continue
        code, vel = _enter(st, script, mv, Entry(col, row, vel, False, npath), S, RT, BT, L)
        if code:
            if wet:
                _store(s, sv, col, row, facing, vel, turns, gain, tuses)
            return code, npath
    if mp > 0:
        return -10, npath
    if wet:
        _store(s, sv, col, row, facing, vel, turns, gain, tuses)
    return 0, npath


PLAN_ERRORS = {-1: "no turning movement in a Null or Gravity Well hex (204 E)",
               -2: "more turning movements in one hex than the Maneuver Engines allow (204 E)",
               -3: "more turning movements this Turn than allowed (204 E)",
               -4: "no Tractor Levels allocated: no Buoy Recovery attempt (205 A)",
               -5: "one Buoy Recovery attempt per hex moved (205 A, Reference Card)",
               -6: "a whip step where no Gravity Whip happens",
               -7: "more hexes than the Velocity (204 C)",
               -8: "a Gravity Whip needs its number of Well hexes (204 O)",
               -9: "a Gravity Whip moves 1-6 hexes (204 O)",
               -10: "fewer hexes than the Velocity (204 C)"}


@jit(_nrt=False)
def _step(col, row, facing):
    return nbr(col, row, facing)


@jit(_nrt=False)
def _store(s, sv, col, row, facing, vel, turns, gain, tuses):
    sv[s, V_COL], sv[s, V_ROW], sv[s, V_FACING], sv[s, V_VEL] = col, row, facing, vel
    sv[s, V_TURNS], sv[s, V_WHIP], sv[s, V_TUSES] = turns, gain, tuses


@jit(_nrt=False)
def _enter(st, script, mv, hx, S, RT, BT, L):
    """Hex effects on entering ``hx`` (:class:`Entry`; movement._execute.enter). Returns
    (code, Velocity)."""
    wet, s, turn = mv
    col, row, vel, through_whip, npath = hx
    sv, ships, out = S.sv, S.ships, S.out
    crit, par, vturns, rp, mn_hex, mn_turn, pi_mod, ccode, contra = RT
    terrain, fire_class, hole_of, ring_pos, ring_hole, rings, rotation, side_dir, hole_cls, hcen = BT
    t = terrain[col, row]
    stop = False
    screens = _screens(s, sv, ships)
    if t == NULL:
        if wet:
            _hazard(st, script, s, Proc(K.K_NULL, 0, 0, vel, pi_mod[ships[s, PI]], 0, 0, 0), S,
                    RT)
            _log(L, turn, EV_NULL, s, col, row, out[K.O_EFFECT], 0, 0)
            if out[K.O_EFFECT]:
                sv[s, V_NULL] = 1
                vel = 0
                sv[s, A_SCREENS] = 0
                sv[s, A_LASER] = 0
                sv[s, A_SCR] = 0
                sv[s, A_TRACTOR] = 0
                stop = True
    else:
        if fire_class[col, row] > 0 and wet:
            _hazard(st, script, s, Proc(K.K_FIRE, fire_class[col, row] - 1, screens, vel, 0, 0,
                                        0, 0), S, RT)
            _log(L, turn, EV_FIRE_HEX, s, col, row, fire_class[col, row], out[K.O_CRISES], 0)
            sv[s, X_FIRE_HEX] += 1
            sv[s, V_COL], sv[s, V_ROW] = col, row
            _after(st, script, s, S, RT, turn, L)
        if t == HOLE and not through_whip:
            if vel >= rp[RP_PASS_MIN]:
                if wet:
                    _log(L, turn, EV_HOLE_PASS, s, col, row, 0, 0, 0)
            else:
                if wet:
                    h = hole_of[col, row] - 1
                    _hazard(st, script, s, Proc(K.K_HOLE, hole_cls[h], 0, vel, 0, 0, 0, 0), S,
                            RT)
                    _log(L, turn, EV_HOLE, s, col, row, out[K.O_SI_LOSS], 0, 0)
                    sv[s, V_COL], sv[s, V_ROW] = col, row
                    _after(st, script, s, S, RT, turn, L)
                    sv[s, V_CAPTURED] = 1
                vel = 0
                stop = True
    if wet and sv[s, V_STATUS] == DESTROYED:
        return 2, vel
    if stop:
        if wet:
            sv[s, V_COL], sv[s, V_ROW] = col, row
            if _armed(S.hound_at):
                c = _hounds(st, script, mv, hx, True, screens, S, RT, L)
                if c:
                    return c, vel
        return 1, vel
    if wet:
        sv[s, V_COL], sv[s, V_ROW] = col, row
        if _armed(S.hound_at):
            c = _hounds(st, script, mv, hx, False, screens, S, RT, L)
            if c:
                return c, vel
    if col == sv[s, V_FIN_COL] and row == sv[s, V_FIN_ROW] and vel == rp[RP_FIN_V] \
            and not through_whip:
        if wet:
            sv[s, V_STATUS] = FINISHED
        return 4, vel
    return 0, vel


@jit
def _armed(hound_at):
    """Whether some hound is set to strike during this move (:func:`hound_targets`): with
    none :func:`_hounds` does nothing, and a call that takes the race's tuples counts a
    reference to each of their arrays (numba), at every hex with a hazard entered."""
    for q in range(hound_at.shape[0]):
        if hound_at[q] >= 0:
            return True
    return False


@jit(_nrt=False)
def _hounds(st, script, mv, hx, final, screens, S, RT, L):
    """207 A during a ship's move: a hound detonates at the first hex of the planned path at
    its closest approach; a ship stopped earlier is attacked where it stops at the closest
    distance it reached (movement.move_ship.hound_attacks). ``hx``: the hex just entered."""
    s, turn = mv.s, mv.turn
    col, row, npath = hx.col, hx.row, hx.npath
    sv, hd, hound_at, path, out = S.sv, S.hd, S.hound_at, S.path, S.out
    crit, par, vturns, rp, mn_hex, mn_turn, pi_mod, ccode, contra = RT
    for q in range(hd.shape[0]):
        at = hound_at[q]
        if at < 0 or not hd[q, 2]:
            continue
        d = -1
        if at == npath - 1:
            d = dist(col, row, hd[q, 0], hd[q, 1])
        elif final and at > npath - 1:
            m = 99
            for p in range(npath):
                m = min(m, dist(path[p, 0], path[p, 1], hd[q, 0], hd[q, 1]))
            if m <= rp[RP_HOUND_RANGE]:
                d = m
        if d < 0:
            continue
        _hazard(st, script, s, Proc(K.K_HOUND, d, screens, 0, 0, 0, 0, 0), S, RT)
        _log(L, turn, EV_HOUND, s, q, d, out[K.O_SI_LOSS], 0, 0)
        hound_at[q] = -1
        hd[q, 2] = 0
        _after(st, script, s, S, RT, turn, L)
        if sv[s, V_STATUS] == DESTROYED:
            return 2
    return 0


@jit(_nrt=False)
def hound_targets(s, S, plan, nplan, RT, BT, tab):
    """Dry-run the plan and mark, per live hound within reach, the first path index at its
    smallest distance (movement.move_ship). Returns the dry run's code, or 0 when no live
    hound is near enough for the run to be needed. The dry run works in ``tab`` (the
    planning scratch, ``policies.plan_scratch``): no arrays are made (NO_NRT)."""
    (sv, ships, bu, hd, carry, hound_at, path, spec, out) = (
        S.sv, S.ships, S.bu, S.hd, S.carry, S.hound_at, S.path, S.spec, S.out)
    crit, par, vturns, rp, mn_hex, mn_turn, pi_mod, ccode, contra = RT
    # every hex of the path is within as many hexes of the start as the plan moves (a forward
    # token one, a whip its k): with no live hound within that and the attack range, none
    # strikes, and the dry run (a copy of the state, two calls' worth of counted references)
    # is not needed. Its code is then the plan's legality alone, which ship_phase ignores
    reach = 0
    for i in range(nplan):
        if plan[i] == 0:
            reach += 1
        elif 10 <= plan[i] < 100:
            reach += plan[i] - 10
    near = False
    for q in range(hd.shape[0]):
        hound_at[q] = -1
        if hd[q, 2] and dist(sv[s, V_COL], sv[s, V_ROW], hd[q, 0], hd[q, 1]) \
                <= reach + rp[RP_HOUND_RANGE]:
            near = True
    if not near:
        return 0
    ns, nc = sv.shape[0], sv.shape[1]
    if ns * nc > tab.dry.shape[0]:
        raise ValueError("hound_targets: more ships than the plan scratch holds")
    dsv = tab.dry[:ns * nc].reshape((ns, nc))
    for i in range(ns):
        for j in range(nc):
            dsv[i, j] = sv[i, j]
    st = tab.dst
    for i in range(st.shape[0]):
        st[i] = 0
    tab.dlogn[0] = 0
    dry = Race(dsv, ships, bu, hd, carry, hound_at, path, spec, out)
    code, npath = move_plan(st, dice.NO_SCRIPT, Mover(False, s, 0), dry, plan, nplan, RT, BT,
                            Log(tab.dlog, tab.dlogn))
    for q in range(hd.shape[0]):
        hound_at[q] = -1
        if not hd[q, 2]:
            continue
        best, at = 99, -1
        for p in range(npath):
            dd = dist(path[p, 0], path[p, 1], hd[q, 0], hd[q, 1])
            if dd < best:
                best, at = dd, p
        if best <= rp[RP_HOUND_RANGE]:
            hound_at[q] = at
    return code


# --- the pilot's allocation (Step A D) --------------------------------------------------------

# the plan kept from the allocation: its length, the Velocity, turn limit and target Buoy it
# was planned for, the position, how many hounds and Buoys were live, the turning movements
# allowed in one hex, the Tractor Level allocated, then the tokens
K_N, K_V, K_LIMIT, K_TB, K_COL, K_ROW, K_FACING, K_HOUNDS, K_BUOYS, K_PER_HEX, K_TRACTOR = range(11)
K_PLAN = 16


@jit(_nrt=False)
def _live(bu, hd):
    nb = 0
    for b in range(bu.shape[0]):
        nb += bu[b, BU_STATE] == ON_BOARD
    nh = 0
    for q in range(hd.shape[0]):
        nh += hd[q, 2] != 0
    return nb, nh


@jit(_nrt=False)
def _kept_plan(keep, s, V, limit, per_hex, tb, S):
    """Whether the plan found at allocation still stands: same position, Velocity, turning
    limits (per Turn and per hex) and target, Tractor Level, and no hound or Buoy gone since
    (fire, detonations, recoveries by ships that moved first). Anything else (a crisis, a Null
    escape's new facing, a Critical Hit on the Maneuver Engines or the Tractor before the ship
    moves, 210 A) plans afresh within the allocation."""
    sv, bu, hd = S.sv, S.bu, S.hd
    if keep[K_N] < 0:
        return False
    nb, nh = _live(bu, hd)
    return (keep[K_V] == V and keep[K_LIMIT] == limit and keep[K_PER_HEX] == per_hex
            and keep[K_TB] == tb
            and keep[K_COL] == sv[s, V_COL] and keep[K_ROW] == sv[s, V_ROW]
            and keep[K_FACING] == sv[s, V_FACING] and keep[K_HOUNDS] == nh
            and keep[K_BUOYS] == nb and keep[K_TRACTOR] == _tractor(s, sv, S.ships))


@jit(_nrt=False)
def _reach_bound(RB, c0, r0, V2, rp, hcen):
    """A lower bound on the route-field cost a Turn at Velocity V2 from (c0, r0) can end at:
    the least cost-to-go of any state within the hexes the move can reach (V2 forward MPs; a
    Gravity Whip at Velocity 1-4 moves the ship round a hole for no MP -- at most 3 hexes
    further from where it entered the Well -- and adds up to 4 Velocity Levels, 204 O) at any
    facing and any Velocity the Turn can end at. Unlike the cost-to-go at (c0, r0) it does
    not let the Velocity change in the middle of this Turn, which the real move cannot (203 C);
    a plan that finishes this Turn ends at the Finish hex at Velocity 1, a goal state (0).
    ``RB``: the field's :func:`reach_table`. Returns (bound, the reach in hexes)."""
    rad, kind = _reach_radius(c0, r0, V2, rp, hcen)
    return _reach_scan(RB[kind, min(V2, RB.shape[1] - 1)], c0, r0, rad), rad


@jit(_nrt=False)
def _reach_radius(c0, r0, V2, rp, hcen):
    """How far a Turn at Velocity V2 from (c0, r0) can end, and whether a Gravity Whip can be
    made in it (:func:`_reach_bound`): (hexes, 1 if a whip, else 0)."""
    rad = V2
    kind = 0
    if rp[RP_WHIP_VMIN] <= V2 <= rp[RP_WHIP_VMAX]:
        # each hole whipped (once a Turn each) adds at most 3 hexes: its Well is entered for
        # no MP, so a Well hex one beyond the reach (its centre two beyond) can be whipped,
        # and the whip ends at most 2 hexes round the ring. Grow the reach until no further
        # hole comes within it
        n = 0
        while True:
            m = 0
            for h in range(hcen.shape[0]):
                m += dist(c0, r0, hcen[h, 0], hcen[h, 1]) <= rad + 2
            if m == n:
                break
            n = m
            rad = V2 + 3 * n
        if n > 0:
            kind = 1
    return rad, kind


# The allocation's bounds, kept by their arguments in the planning scratch (``mend``,
# ``mreach``): a key packs every argument that varies (the pilot's field slot, the field, the
# Velocity, hex, facing, turning limits; the turning price is kept beside it), so a slot
# answers only for exactly the call that filled it and the bound is the one computed afresh.
# Out of the packing's range (a board over 511 columns or rows, say) the bound is computed.
@jit(_nrt=False)
def _memo_slot(key):
    """The memo slot of ``key`` (>= 0): the top MEMO_BITS of a multiplicative hash."""
    return np.int64((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - MEMO_BITS))


@jit(_nrt=False)
def _end_bound_kept(mend, p, fld, at, ends, Jv, V2, c0, r0, f0, lim, per_hex, tc):
    """``end_bound(at, ends, Jv, V2, c0, r0, f0, V2, lim, per_hex, tc)`` for field ``fld`` of
    pilot slot ``p`` (``Jv`` = ``FD.fields_v[p, fld]``), from ``mend`` when computed before."""
    if not (0 <= p < 16 and 0 <= fld < 256 and 0 <= V2 < 16 and 0 <= c0 < 512 and 0 <= r0 < 512
            and 0 <= f0 < 8 and 0 <= lim < 32 and 0 <= per_hex < 16):
        return end_bound(at, ends, Jv, V2, c0, r0, f0, V2, lim, per_hex, tc)
    key = (((((((p * 256 + fld) * 16 + V2) * 512 + c0) * 512 + r0) * 8 + f0) * 32 + lim) * 16
           + per_hex)
    j = _memo_slot(key)
    fk = np.float64(key + 1)                 # exact: the key is under 2**46; 0 is an empty slot
    if mend[j, 0] == fk and mend[j, 1] == tc:
        return mend[j, 2], mend[j, 3]
    b, bt = end_bound(at, ends, Jv, V2, c0, r0, f0, V2, lim, per_hex, tc)
    mend[j, 0], mend[j, 1], mend[j, 2], mend[j, 3] = fk, tc, b, bt
    return b, bt


@jit(_nrt=False)
def _reach_scan_kept(mreach, p, fld, kind, V2, T, c0, r0, rad):
    """``_reach_scan(T, c0, r0, rad)`` for ``T`` = ``FD.reach[p, fld, kind, V2]``, from
    ``mreach`` when computed before."""
    if not (0 <= p < 16 and 0 <= fld < 256 and 0 <= kind < 2 and 0 <= V2 < 16
            and 0 <= c0 < 512 and 0 <= r0 < 512 and 0 <= rad < 128):
        return _reach_scan(T, c0, r0, rad)
    key = ((((((p * 256 + fld) * 2 + kind) * 16 + V2) * 512 + c0) * 512 + r0) * 128 + rad)
    j = _memo_slot(key)
    fk = np.float64(key + 1)                 # exact: the key is under 2**45
    if mreach[j, 0] == fk:
        return mreach[j, 1]
    x = _reach_scan(T, c0, r0, rad)
    mreach[j, 0], mreach[j, 1] = fk, x
    return x


@jit(_nrt=False)
def _reach_scan(T, c0, r0, rad):
    """The least of ``T`` (a :func:`reach_table` layer) over the hexes within ``rad`` of
    (c0, r0)."""
    C, R = T.shape[0], T.shape[1]
    best = np.inf
    # the hexes within ``rad`` of a column make one run of rows: in cube coordinates dz lies
    # in [max(-rad, -rad - dx), min(rad, rad - dx)] (the hex distance is the largest of |dx|,
    # |dz|, |dx + dz|), and a column's row is its z plus a fixed offset
    _, _, z0 = to_cube(c0, r0, EVEN_LOWER)
    for c in range(max(1, c0 - rad), min(C, c0 + rad + 1)):
        dx = c - c0
        _, _, zc = to_cube(c, 0, EVEN_LOWER)        # z of row r is zc + r
        lo = max(max(1, r0 - rad - 1), z0 + max(-rad, -rad - dx) - zc)
        hi = min(min(R, r0 + rad + 2) - 1, z0 + min(rad, rad - dx) - zc)
        for r in range(lo, hi + 1):
            x = np.float64(T[c, r])
            if x < best:
                best = x
    return best


@jit(_nrt=False)
def _first_least(x):
    """``np.argmin(x)`` (the first least; the first NaN if any) as a plain loop: numba's
    argmin tested every element for NaN twice, and the allocation takes it once per setting
    it weighs and tightens."""
    ia = 0
    m = x[0]
    if np.isnan(m):
        return 0
    for i in range(1, x.shape[0]):
        v = x[i]
        if np.isnan(v):
            return i
        if v < m:
            m = v
            ia = i
    return ia


@jit(_nrt=False)
def _chase_ok(pp, s, turn, S, Jfin, rp):
    """Whether the pilot's ``attack_bonus`` stands for this Turn's plan: not when the ship
    cannot afford to end its moves on a rival -- the Turns left do not cover the way to its
    Finish (the route field) and ``time_margin``, or its Fuel does not cover coming down to
    Velocity 1, ``fuel_margin`` and the base Screens on the way (what ``choose_target`` keeps
    for a Buoy detour). An attack bonus above one Turn outweighs the Turn a chase costs, so
    without this a raider chases until its Fuel is gone and it can neither brake nor turn."""
    if pp[PP_ATTACK] <= 0:
        return True
    sv, ships = S.sv, S.ships
    v = sv[s, V_VEL]
    jfin = min(np.float64(Jfin[sv[s, V_COL], sv[s, V_ROW], sv[s, V_FACING], min(v, NV - 1)]),
               30.0)
    home = pp[PP_FUEL_MARGIN] + rp[RP_F_DEC] * max(0, v - 1) \
        + jfin * pp[PP_SCREENS] * ships[s, SCREENS] * rp[RP_F_SCREENS]
    return not (jfin + pp[PP_TIME_MARGIN] > rp[RP_TURN_LIMIT] - turn + 1
                or ships[s, FUEL] < home)


@jit(_nrt=False)
def _without_attack(pp, pq):
    """Write ``pp`` with ``attack_bonus`` 0 into ``pq`` (the scratch's: NO_NRT)."""
    for i in range(pp.shape[0]):
        pq[i] = pp[i]
    pq[PP_ATTACK] = 0.0


@jit
def _chase_pp(pp, s, turn, S, Jfin, rp):
    """The pilot's parameters for this Turn's plan: as they are, or with ``attack_bonus`` 0
    when :func:`_chase_ok` says the ship cannot afford to chase (a copy: for callers outside
    the race; the race writes them into its scratch)."""
    if _chase_ok(pp, s, turn, S, Jfin, rp):
        return pp
    q = pp.copy()
    q[PP_ATTACK] = 0.0
    return q


@jit(_nrt=False)
def _holds(s, S, pp, rp, scr_max, C, R):
    """Whether ship ``s``, heading for its Finish, does better keeping the Victory Points it
    holds (211 B: its Buoys and Fuel count without finishing) than entering a Finish Hex that
    racing rivals watch: VP in hand > (1 - chance of destruction) x (VP in hand + the place it
    would take). The rivals' Lasers are not seen (203 A): the pilot assumes ``rival_laser``
    against the Screens it can raise."""
    sv, ships, bu, carry = S.sv, S.ships, S.bu, S.carry
    if pp[PP_RIVAL_LASER] <= 0 or sv[s, V_CAPTURED] or sv[s, V_NULL]:
        return False
    harm = np.int64(pp[PP_RIVAL_LASER]) - scr_max
    if harm <= 0 or 2 * harm < ships[s, SI]:
        return False
    pd = guarded_finish_risk(sv, s, harm, ships[s, SI], C, R, rp[RP_MAX_RANGE])
    if pd <= 0.0:
        return False
    vp = min(ships[s, FUEL] * rp[RP_VP_FUEL_PER], rp[RP_VP_FUEL_MAX])
    for i in range(sv[s, V_NCARRY]):
        vp += rp[RP_VP0 + bu[carry[s, i], BU_VP]]
    done = 0
    for t in range(sv.shape[0]):
        done += sv[t, V_STATUS] == FINISHED
    place = rp[RP_PLACE0 + min(done, 3)]
    return vp > (1.0 - pd) * (vp + place)


@jit(_nrt=False)
def allocate(st, script, mv, S, FD, pp, P, RT, BT, L):
    """Step A D for ship ``mv.s`` in Turn ``mv.turn`` (:class:`Mover`): crises due now, then the pilot's allocation, Fuel spent.
    ``keep`` receives the movement plan found for the chosen setting and what it was planned
    for (see :func:`_kept_plan`), so the ship's phase need not search again."""
    s, turn = mv.s, mv.turn
    plan, keep, tab = P.plan, P.keep[s], P.tab
    # what the planner reads, passed narrow (not plan_view: NO_NRT)
    W = PlanView(S.sv, S.bu, S.hd, BT.terrain, BT.fire_class, BT.hole_of, BT.ring_pos,
                 BT.rings, BT.rotation, RT.par, RT.vturns, RT.rp)
    sv, ships, bu, hd = S.sv, S.ships, S.bu, S.hd
    fields = FD.fields
    crit, par, vturns, rp, mn_hex, mn_turn, pi_mod, ccode, contra = RT
    terrain, fire_class, hole_of, ring_pos, ring_hole, rings, rotation, side_dir, hole_cls, hcen = BT
    now = _resolve(sv[s, V_CR_NEXT], contra, rp[RP_CRISIS_REPL])
    sv[s, V_CR_NOW] = now
    sv[s, V_CR_NEXT] = 0
    sv[s, A_ME] = 0
    sv[s, A_SCREENS] = 0
    sv[s, A_LASER] = 0
    sv[s, A_SCR] = 0
    sv[s, A_TRACTOR] = 0
    keep[K_N] = -1
    fin_field = sv[s, V_FIN_FIELD]
    if _has(now, C_FAILURE, ccode):
        ships[s, PI] = max(0, ships[s, PI] - 1)
        _log(L, turn, EV_ALLOC, s, 0, 0, 0, 0, -1)
        return
    fuel = ships[s, FUEL]
    if fuel <= 0:
        _log(L, turn, EV_ALLOC, s, 0, 0, 0, 0, -2)
        return
    V = sv[s, V_VEL]
    me_max = ships[s, ME]
    forced = 0
    if _has(now, C_MUST_ACC, ccode) or _has(now, C_MUST_DEC, ccode):
        k = min(K._roll(st, script, 1, 6), me_max)
        forced = k if _has(now, C_MUST_ACC, ccode) else -min(k, V)
    F = fields[sv[s, V_PILOT]]
    fld, tb = choose_target(s, turn, S, F, FD, BT, rp, pp, fin_field)
    sv[s, V_TARGET] = fld
    sv[s, V_FORCED] = tb
    per_hex = mn_hex[ships[s, MN]]
    pim = pi_mod[ships[s, PI]]
    tractor = ships[s, TRACTOR] if not _has(now, C_NO_TRACTOR, ccode) else 0
    scr_max = ships[s, SCREENS] if not _has(now, C_NO_SCREENS, ccode) else 0
    best_a, best_c = 0, 1e18
    if forced != 0:
        best_a = forced
    elif fld == fin_field and _holds(s, S, pp, rp, scr_max, terrain.shape[0],
                                     terrain.shape[1]):
        # 211 B: finishing past the rival is expected to be worth less than the VP in hand;
        # stop (as fast as the Main Engines, the Fuel and the crises allow) and keep them
        if not _has(now, C_NO_DEC, ccode):
            best_a = -min(V, me_max, fuel // rp[RP_F_DEC])
    elif sv[s, V_CAPTURED]:
        # 204 M: only Velocity 4+ escapes; accelerate all out if that reaches it, else wait --
        # unless a failed attempt keeps its Velocity (variant hell_hole_escape=keep): then
        # every Turn's acceleration counts towards the escape
        a = min(me_max, rp[RP_VMAX] - V, fuel // rp[RP_F_ACC])
        best_a = a if V + a >= rp[RP_ESC_V] or rp[RP_HOLE_KEEP_V] == 1 else 0
    else:
        cruise = np.int64(pp[PP_CRUISE])
        if not _chase_ok(pp, s, turn, S, F[fin_field], rp):
            _without_attack(pp, tab.pq)
            pp = tab.pq
        # Every legal setting is first given a lower bound on what its plan can cost, from the
        # route field alone, plus its Velocity change (``dv_cost``, the price the field charges
        # for one). The field is a lower bound on the Turns and prices of flying a course (see
        # ``route_field``), so the plan costs at least the cost-to-go here at that Velocity
        # less the one Turn the plan takes, and at least the least cost-to-go where the Turn
        # can end (``_reach_bound``); both less the bonuses only the plan sees (the target
        # Buoy, an attack). Settings are searched move by move from the cheapest bound up,
        # until the next bound cannot beat the best plan found: a setting is never left out
        # because the field, which lets Velocity change between hexes, flatters another (it
        # took a safe runner two hexes from its Finish at Velocity 3 round the corner instead
        # of braking when only the two settings it ranked best were searched). (The field
        # prices Hell Fire behind the Screens the pilot raises near it, screens_hazard of the
        # maximum; the plan behind the maximum: for a pilot with screens_hazard below 1 the
        # bound can be a little high near Hell Fire, and the search a little short.)
        # (the three rows of the scratch's ``sets``: no arrays are made here, NO_NRT)
        if 2 * me_max + 1 > tab.sets.shape[1]:
            raise ValueError("allocate: more Main Engines Levels than the scratch holds")
        sets = tab.sets
        est, fixed, tight = sets[0, :2 * me_max + 1], sets[1, :2 * me_max + 1], \
            sets[2, :2 * me_max + 1]
        no_att = sets[3, :2 * me_max + 1]
        # the tight bound with the turning movements to each end charged (``end_bound``): it
        # skips a setting that cannot win, never reorders them (``est`` does: when two settings
        # cost the same the first searched wins, so the order is kept)
        cut = sets[4, :2 * me_max + 1]
        for i in range(2 * me_max + 1):
            est[i] = np.inf
            cut[i] = -np.inf
            fixed[i] = 0.0          # Velocity change and Fuel-reserve charge
            tight[i] = 0.0          # 1: the bound is the tight one
            no_att[i] = 0.0         # 1: no end of the move can earn the attack bonus
        # The bound comes in two strengths. The loose one (the cost-to-go here less one Turn,
        # the target Buoy's bonus as if recovered from the closest hex) is cheap; the tight one
        # adds what ``_reach_bound`` finds where the Turn can end, a scan of every hex in reach
        # that cost more than the plan searches it saved. Every setting starts loose and is
        # tightened only when it comes up for search (lazy evaluation: a tight bound is never
        # below its loose one, so the order settings are searched in and the point where the
        # search stops are those of tightening all first; only settings the loose bound
        # already rules out skip the scan).
        c0, r0, f0 = sv[s, V_COL], sv[s, V_ROW], sv[s, V_FACING]
        bonus_w = rp[RP_VP0 + bu[tb, BU_VP]] / max(pp[PP_VPT], 1.0) if tb >= 0 else 0.0
        tdist = dist(c0, r0, bu[tb, BU_COL], bu[tb, BU_ROW]) if tb >= 0 else 0
        Jt = F[fld]
        # what every setting weighs, taken once: each call or view that takes an array inside
        # the loops below counts its references (numba), per setting and per search
        Jv = FD.fields_v[sv[s, V_PILOT], fld]
        no_acc, no_dec = _has(now, C_NO_ACC, ccode), _has(now, C_NO_DEC, ccode)
        no_turning = _has(now, C_NO_TURNING, ccode)
        for a in range(-me_max, me_max + 1):
            V2 = V + a
            if V2 < 0 or V2 > rp[RP_VMAX] or V2 >= NV:
                continue
            if a > 0 and (V2 > cruise or no_acc):
                continue
            if a < 0 and no_dec:
                continue
            fcost = (rp[RP_F_ACC] if a > 0 else rp[RP_F_DEC]) * abs(a)
            if fcost > fuel:
                continue
            if a > 0 and fuel - fcost < rp[RP_F_DEC] * max(0, V2 - 1):
                continue            # never accelerate beyond the Fuel to come back down
            # (the field's cost here already allows for turning first, at the plan's price)
            e = np.float64(Jt[c0, r0, f0, V2])
            allow = pp[PP_ATTACK]
            if e < INF / 2:
                e = e - 1.0
                if tb >= 0:
                    # the most the plan's recovery chance can be worth (loose: from the
                    # Buoy's own hex; the chance falls with the hexes, 205 B)
                    allow += p_recover(tractor, V2, 0, 1, pim, bu[tb, BU_COL], bu[tb, BU_ROW],
                                       terrain, fire_class, rp) * bonus_w
            else:
                allow += bonus_w
                tight[a + me_max] = 1.0         # no route: nothing to tighten
            # the Fuel-reserve charge is fixed by the setting alone and added to its plan's
            # cost below, so it belongs in the bound too (exact: it tightens, never flatters)
            pen = rp[RP_F_DEC] * max(0, V2 - 1) + pp[PP_FUEL_MARGIN] - (fuel - fcost)
            fixed[a + me_max] = dv_cost(a, rp, pp) + 0.05 * max(0.0, pen)
            est[a + me_max] = e + fixed[a + me_max] - allow
        for _ in range(2 * est.shape[0]):
            ia = _first_least(est)
            # float32 fields: a bound within rounding of the best is still searched
            # (and with plan_tol a setting that cannot beat the best by more than that is not
            # searched: a plan within plan_tol of the best counts as as good)
            if not np.isfinite(est[ia]) or est[ia] > best_c + 1e-5 - pp[PP_PLAN_TOL]:
                break
            if tight[ia] == 0.0:
                # tighten it: the least cost-to-go where the Turn can end, and the Buoy's
                # bonus only from the closest the move can bring the ship; then look again
                tight[ia] = 1.0
                V2 = V + ia - me_max
                rad, kind = _reach_radius(c0, r0, V2, rp, hcen)
                RB = FD.reach[sv[s, V_PILOT], fld, kind]
                reach = -np.inf
                reach_t = -np.inf
                if kind == 0 and not (V2 == 1 and dist(c0, r0, sv[s, V_FIN_COL],
                                                       sv[s, V_FIN_ROW]) <= 1):
                    # no whip can be made, nor the Finish reached (a plan that ends there has
                    # no cost-to-go): the plan ends where its turning limits take it, at a
                    # cost-to-go no lower than the least of those ends -- or is captured by a
                    # Hell Hole (1,000 and up) or leaves the board (more). Those ends lie
                    # within the reach at some facing, so this bound is at least the reach
                    # scan's whenever it is below 1,000, and the scan is not needed
                    a = ia - me_max
                    fcost = (rp[RP_F_ACC] if a > 0 else rp[RP_F_DEC]) * abs(a)
                    lim = min(mn_turn[ships[s, MN]], vturns[V2], max(0, fuel - fcost))
                    if no_turning:
                        lim = 0
                    reach, reach_t = _end_bound_kept(tab.mend, sv[s, V_PILOT], fld,
                                                     FD.ends_at, FD.ends, Jv, V2, c0, r0, f0,
                                                     lim, per_hex, turn_cost(V2, vturns, rp, pp))
                    reach = min(reach, 1000.0)
                    reach_t = min(reach_t, 1000.0)
                    # nor can the plan earn the attack bonus unless one of those ends has a
                    # rival in its Field of Fire: then neither this bound nor the setting's
                    # plan search allows for it (exact: no leaf of that search earns it)
                    if pp[PP_ATTACK] > 0 and not ends_attack(
                            FD.ends_at, FD.ends, sv, s, c0, r0, f0, V2, lim, per_hex,
                            terrain.shape[0], terrain.shape[1]):
                        no_att[ia] = 1.0
                if not 0.0 <= reach < 1000.0:
                    v2 = min(V2, RB.shape[0] - 1)
                    reach = max(reach, _reach_scan_kept(tab.mreach, sv[s, V_PILOT], fld, kind,
                                                        v2, RB[v2], c0, r0, rad))
                # the attack bonus only where a rival can be within 8 hexes of the Turn's end
                allow = pp[PP_ATTACK] if pp[PP_ATTACK] > 0 and no_att[ia] == 0.0 and \
                    rival_within(sv, s, c0, r0, rad + 8) else 0.0
                if tb >= 0:
                    allow += p_recover(tractor, V2, max(0, tdist - rad), 1, pim,
                                       bu[tb, BU_COL], bu[tb, BU_ROW], terrain, fire_class,
                                       rp) * bonus_w
                bound = max(np.float64(Jt[c0, r0, f0, V2]) - 1.0, reach)
                est[ia] = bound + fixed[ia] - allow
                cut[ia] = max(bound, reach_t) + fixed[ia] - allow
                continue
            est[ia] = np.inf
            if cut[ia] > best_c + 1e-5 - pp[PP_PLAN_TOL]:
                continue            # its plan cannot beat the best: not searched
            a = ia - me_max
            V2 = V + a
            fcost = (rp[RP_F_ACC] if a > 0 else rp[RP_F_DEC]) * abs(a)
            # Fuel still needed to come down to Velocity 1 at the Finish
            reserve = rp[RP_F_DEC] * max(0, V2 - 1) + pp[PP_FUEL_MARGIN]
            limit = min(mn_turn[ships[s, MN]], vturns[V2], max(0, fuel - fcost))
            if no_turning:
                limit = 0
            # only a plan that beats the best setting so far, its Velocity change and its
            # Fuel-reserve charge paid, counts
            dv = dv_cost(a, rp, pp)
            pen = 0.05 * (reserve - (fuel - fcost)) if fuel - fcost < reserve else 0.0
            q = PlanSpec(s, V2, limit, per_hex, tractor, scr_max, pim, tb, fuel - fcost,
                         best_c - dv - pen if best_c < 1e17 else 1e30)
            pa = pp
            if no_att[ia] == 1.0:
                _without_attack(pp, tab.pq2)
                pa = tab.pq2
            c, n = best_plan_in(q, W, Jv, plan, pa, tab, FD.ends_at, FD.ends)
            if best_c < 1e17 and n == 0 and c >= INF:
                continue            # nothing at this setting beats the best
            c += dv
            c += pen
            if c < best_c:
                best_c, best_a = c, a
                keep[K_N] = n
                keep[K_V], keep[K_LIMIT], keep[K_TB] = V2, limit, tb
                keep[K_PER_HEX] = per_hex
                for i in range(n):
                    keep[K_PLAN + i] = plan[i]
    keep[K_COL], keep[K_ROW], keep[K_FACING] = sv[s, V_COL], sv[s, V_ROW], sv[s, V_FACING]
    keep[K_BUOYS], keep[K_HOUNDS] = _live(bu, hd)
    fcost = (rp[RP_F_ACC] if best_a > 0 else rp[RP_F_DEC]) * abs(best_a)
    fcost = min(fcost, fuel)
    fuel -= fcost
    sv[s, A_ME] = best_a
    V2 = min(rp[RP_VMAX], max(0, V + best_a))
    sv[s, V_VEL] = V2
    # Screens: more when the ship's surroundings hold hazards
    haz = False
    c0, r0 = sv[s, V_COL], sv[s, V_ROW]
    for q in range(hd.shape[0]):
        if hd[q, 2] and dist(c0, r0, hd[q, 0], hd[q, 1]) <= V2 + 3:
            haz = True
    # Hell Fire in the box of hexes within V2 + 1 columns and rows (on the board): counted
    # from the board's sums (it was a scan of the (2 V2 + 3)^2 hexes)
    if not haz:
        ca, cb = max(1, c0 - V2 - 1), min(terrain.shape[0] - 1, c0 + V2 + 1)
        ra, rb = max(1, r0 - V2 - 1), min(terrain.shape[1] - 1, r0 + V2 + 1)
        fs = FD.fire_sum
        if ca <= cb and ra <= rb and \
                fs[cb + 1, rb + 1] - fs[ca, rb + 1] - fs[cb + 1, ra] + fs[ca, ra] > 0:
            haz = True
    # a racing rival near where the Turn can end may fire on the ship before its next
    # allocation (206): it counts as a hazard. Only its hex is seen, not its Laser (203 A)
    if pp[PP_THREAT] > 0 and rival_within(sv, s, c0, r0, V2 + np.int64(pp[PP_THREAT])):
        haz = True
    frac = pp[PP_SCREENS_HAZ] if haz else pp[PP_SCREENS]
    # Fuel held back: coming down to Velocity 1, the margin, and a Turn's base Screens for each
    # Turn the route field says the Finish is away
    est = min(np.float64(F[fin_field, c0, r0, sv[s, V_FACING], min(V2, NV - 1)]), 30.0)
    brake = rp[RP_F_DEC] * max(0, V2 - 1)
    reserve = brake + np.int64(pp[PP_FUEL_MARGIN]) \
        + np.int64(est * pp[PP_SCREENS] * scr_max * rp[RP_F_SCREENS])
    spare = max(0, fuel - reserve)
    want = min(scr_max, np.int64(frac * scr_max + 0.5))
    sc = min(want, spare // max(1, rp[RP_F_SCREENS]))
    if haz:
        # a hazard ahead: Screens come before the margin, never before the Fuel to come down
        # to Velocity 1 -- a ship that cannot brake flies off the board, disqualified (211 A)
        sc = min(want, max(0, fuel - brake) // max(1, rp[RP_F_SCREENS]))
    fuel -= sc * rp[RP_F_SCREENS]
    sv[s, A_SCREENS] = sc
    # weapons: a target in the Field of Fire now (fire comes before this ship's movement),
    # allocated only when the shot's expected VP pays for the Fuel it burns (211 B counts Fuel).
    # The value test already charges the Fuel, so a pilot may let a paying shot dip into the
    # Fuel held beyond braking: beside a guarded Finish that reserve is all it has left
    spare = max(0, fuel - reserve + np.int64(pp[PP_FIRE_RESERVE] * max(0, reserve - brake)))
    if not _has(now, C_NO_WEAPONS, ccode):
        lz = ships[s, LASER]
        if lz > 0 and lz * rp[RP_F_LASER] <= spare:
            kind, idx, rng, mod, val = fire_choice(st, script, s, W, lz, False, pp, pim)
            if kind >= 0 and val >= pp[PP_FUEL_VP] * lz * rp[RP_F_LASER]:
                sv[s, A_LASER] = lz
                fuel -= lz * rp[RP_F_LASER]
                spare -= lz * rp[RP_F_LASER]
        sz = ships[s, SCRAMBLER]
        if sz > 0 and sz * rp[RP_F_SCR] <= spare:
            lvl = sv[s, A_LASER] if rp[RP_SCR_LASER] else sz
            kind, idx, rng, mod, val = fire_choice(st, script, s, W, lvl, True, pp, pim)
            if kind == 0 and val >= pp[PP_FUEL_VP] * sz * rp[RP_F_SCR]:
                sv[s, A_SCR] = sz
                fuel -= sz * rp[RP_F_SCR]
                spare -= sz * rp[RP_F_SCR]
    # Tractor: a Buoy within reach of this Turn's move; only the Levels that make an attempt
    # from an adjacent hex sure (205 B), since every Level costs Fuel (203 C e)
    spare = max(0, fuel - reserve)
    if tractor > 0:
        for b in range(bu.shape[0]):
            if bu[b, BU_STATE] != ON_BOARD or dist(c0, r0, bu[b, BU_COL], bu[b, BU_ROW]) > V2 + 2:
                continue
            lvl = tractor
            for t in range(1, tractor + 1):
                if p_recover(t, V2, 1, 1, pim, bu[b, BU_COL], bu[b, BU_ROW], BT.terrain,
                             BT.fire_class, rp) >= 5.0 / 6.0:
                    lvl = t
                    break
            if p_recover(lvl, V2, 1, 1, pim, bu[b, BU_COL], bu[b, BU_ROW], BT.terrain,
                         BT.fire_class, rp) < pp[PP_TRACTOR_P]:
                continue
            if lvl * rp[RP_F_TRACTOR] <= spare:
                sv[s, A_TRACTOR] = max(sv[s, A_TRACTOR], lvl)
    fuel -= sv[s, A_TRACTOR] * rp[RP_F_TRACTOR]
    keep[K_TRACTOR] = sv[s, A_TRACTOR]
    ships[s, FUEL] = fuel
    _log(L, turn, EV_ALLOC, s, best_a, sv[s, A_SCREENS], sv[s, A_LASER], sv[s, A_TRACTOR],
         sv[s, A_SCR])


# --- one ship's phase (Steps B-E) --------------------------------------------------------------

@jit(_nrt=False)
def _fire_phase(st, script, s, turn, S, pp, RT, BT, L):
    sv, ships, bu, hd, out = S.sv, S.ships, S.bu, S.hd, S.out
    W = PlanView(S.sv, S.bu, S.hd, BT.terrain, BT.fire_class, BT.hole_of, BT.ring_pos,
                 BT.rings, BT.rotation, RT.par, RT.vturns, RT.rp)   # not plan_view: NO_NRT
    crit, par, vturns, rp, mn_hex, mn_turn, pi_mod, ccode, contra = RT
    terrain, fire_class, hole_of, ring_pos, ring_hole, rings, rotation, side_dir, hole_cls, hcen = BT
    pim = pi_mod[ships[s, PI]]
    lz = min(sv[s, A_LASER], ships[s, LASER])
    if lz > 0:
        kind, t, rng, mod, val = fire_choice(st, script, s, W, lz, False, pp, pim)
        if kind == 0:
            _hazard(st, script, t, Proc(K.K_LASER, 0, _screens(t, sv, ships), 0, 0, lz, rng,
                                        mod + pim), S, RT)
            _log(L, turn, EV_FIRE, s, t, rng, out[K.O_EFFECT], out[K.O_SI_LOSS], 0)
            sv[s, X_SHOTS] += 1
            sv[s, X_HITS] += out[K.O_EFFECT]
            _after(st, script, t, S, RT, turn, L)
        elif kind == 1 or kind == 2:
            _hazard(st, script, s, Proc(K.K_LASER_MARKER, 0, 0, 0, 0, lz, rng, mod + pim), S, RT)
            _log(L, turn, EV_HOUND_SHOT if kind == 1 else EV_BUOY_SHOT, s, t, rng,
                 out[K.O_EFFECT], out[K.O_DESTROYED], 0)
            sv[s, X_SHOTS] += 1
            sv[s, X_HITS] += out[K.O_EFFECT]
            if out[K.O_DESTROYED]:
                if kind == 1:
                    hd[t, 2] = 0
                else:
                    bu[t, BU_STATE] = GONE
    sz = min(sv[s, A_SCR], ships[s, SCRAMBLER])
    if sz > 0 and sv[s, V_STATUS] == RACING:
        lvl = lz if rp[RP_SCR_LASER] else sz
        kind, t, rng, mod, val = fire_choice(st, script, s, W, lvl, True, pp, pim)
        if kind == 0:
            _hazard(st, script, t, Proc(K.K_SCRAMBLER, 0, _screens(t, sv, ships), 0, 0, lvl, rng,
                                        mod + pim), S, RT)
            _log(L, turn, EV_SCRAMBLE, s, t, rng, out[K.O_EFFECT], out[K.O_CRISES], 0)
            sv[s, X_SHOTS] += 1
            sv[s, X_HITS] += out[K.O_EFFECT]
            _after(st, script, t, S, RT, turn, L)


@jit(_nrt=False)
def ship_phase(st, script, mv, S, FD, pp, P, RT, BT, L):
    """Steps B-E for ship ``mv.s`` (:class:`Mover`): fire, Null and Hell Hole escapes,
    movement."""
    s, turn = mv.s, mv.turn
    fields = FD.fields
    plan, plan2, keep, tab = P.plan, P.plan2, P.keep[s], P.tab
    sv, ships, bu, out = S.sv, S.ships, S.bu, S.out
    crit, par, vturns, rp, mn_hex, mn_turn, pi_mod, ccode, contra = RT
    terrain, fire_class, hole_of, ring_pos, ring_hole, rings, rotation, side_dir, hole_cls, hcen = BT
    _fire_phase(st, script, s, turn, S, pp, RT, BT, L)
    if sv[s, V_STATUS] != RACING:
        return
    pim = pi_mod[ships[s, PI]]
    if sv[s, V_NULL]:
        _hazard(st, script, s, Proc(K.K_NULL, 0, 0, 0, pim, 0, 0, 0), S, RT)
        if out[K.O_EFFECT]:
            _log(L, turn, EV_NULL_ESC, s, 0, -1, 0, 0, 0)
            sv[s, V_VEL] = 0
            sv[s, V_MOVED] = 1
            return
        sv[s, V_FACING] = side_dir[K._roll(st, script, 1, 6)]
        sv[s, V_NULL] = 0
        _log(L, turn, EV_NULL_ESC, s, 1, sv[s, V_FACING], 0, 0, 0)
    if sv[s, V_CAPTURED]:
        if sv[s, V_VEL] >= rp[RP_ESC_V]:
            sv[s, V_VEL] -= rp[RP_ESC_PEN]
            sv[s, V_CAPTURED] = 0
            _log(L, turn, EV_HOLE_ESC, s, 1, sv[s, V_VEL], 0, 0, 0)
        else:
            h = hole_of[sv[s, V_COL], sv[s, V_ROW]] - 1
            _hazard(st, script, s, Proc(K.K_HOLE, hole_cls[h], 0, 0, 0, 0, 0, 0), S, RT)
            _log(L, turn, EV_HOLE_ESC, s, 0, out[K.O_SI_LOSS], 0, 0, 0)
            if rp[RP_HOLE_KEEP_V] == 0:   # variant hell_hole_escape=reset
                sv[s, V_VEL] = 0
            sv[s, V_MOVED] = 1
            _after(st, script, s, S, RT, turn, L)
            return
    # movement: the pilot plans at the Velocity it has now
    V = sv[s, V_VEL]
    fuel = ships[s, FUEL]
    limit = min(mn_turn[ships[s, MN]], vturns[min(V, vturns.shape[0] - 1)], max(0, fuel))
    if _has(sv[s, V_CR_NOW], C_NO_TURNING, ccode):
        limit = 0
    fld = sv[s, V_TARGET]
    tb = sv[s, V_FORCED]
    if tb >= 0 and bu[tb, BU_STATE] != ON_BOARD:
        tb = -1
    q = PlanSpec(s, V, limit, mn_hex[ships[s, MN]], _tractor(s, sv, ships),
                 _screens(s, sv, ships), pim, tb, ships[s, FUEL], 1e30)
    W = PlanView(S.sv, S.bu, S.hd, BT.terrain, BT.fire_class, BT.hole_of, BT.ring_pos,
                 BT.rings, BT.rotation, RT.par, RT.vturns, RT.rp)   # not plan_view: NO_NRT
    if _kept_plan(keep, s, V, limit, mn_hex[ships[s, MN]], tb, S):
        n = keep[K_N]
        for i in range(n):
            plan[i] = keep[K_PLAN + i]
    else:
        pt = pp                 # the parameters this Turn's plan weighs (_chase_ok)
        if not _chase_ok(pp, s, turn, S, fields[sv[s, V_PILOT], sv[s, V_FIN_FIELD]], rp):
            _without_attack(pp, tab.pq)
            pt = tab.pq
        c, n = best_plan_in(q, W, FD.fields_v[sv[s, V_PILOT], fld], plan, pt, tab, FD.ends_at,
                            FD.ends)
    m = add_recovery_attempts(q, plan, n, plan2, W, pp)
    hound_targets(s, S, plan2, m, RT, BT, tab)
    # a crisis suffered during its own movement comes after the ship has moved (210 C a)
    sv[s, V_MOVED] = 1
    code, npath = move_plan(st, script, Mover(True, s, turn), S, plan2, m, RT, BT, L)
    sv[s, V_MOVED] = 1
    if code < 0:
        # the pilot's own plan broke a rule: a bug, reported through the log and the ship stops
        _log(L, turn, EV_MOVE, s, -1000 + code, 0, 0, 0, 0)
        return
    if sv[s, V_STATUS] == RACING or sv[s, V_STATUS] == FINISHED:
        ships[s, FUEL] = max(0, ships[s, FUEL] - rp[RP_F_TURN] * sv[s, V_TURNS])
        sv[s, V_VEL] = min(rp[RP_VMAX], sv[s, V_VEL] + sv[s, V_WHIP])
        _log(L, turn, EV_MOVE, s, sv[s, V_COL], sv[s, V_ROW], sv[s, V_FACING], sv[s, V_VEL],
             sv[s, V_TURNS])
    if code == 4:
        # the finishing order: this ship is one more of those finished (a finished ship stays
        # finished, and only a move finishes one)
        place = 0
        for q in range(sv.shape[0]):
            place += sv[q, V_STATUS] == FINISHED
        sv[s, V_PLACE] = place
        sv[s, V_FIN_TURN] = turn
        _log(L, turn, EV_FINISH, s, place, 0, 0, 0, 0)


@jit(_nrt=False)
def step_f(st, script, turn, S, hpath, RT, BT, L):
    """Step F: each Hell Hound moves and detonates at its closest approach (207 A, 204 J)."""
    sv, ships, hd, out = S.sv, S.ships, S.hd, S.out
    crit, par, vturns, rp, mn_hex, mn_turn, pi_mod, ccode, contra = RT
    terrain, fire_class, hole_of, ring_pos, ring_hole, rings, rotation, side_dir, hole_cls, hcen = BT
    ns = sv.shape[0]
    for q in range(hd.shape[0]):
        if not hd[q, 2]:
            continue
        c, r, n = kernel_marker_path(st, script, hd[q, 0], hd[q, 1], FREE, BT,
                                     rp[RP_MOVES_AT_MOST], rp[RP_WHIP_STEPS], hpath)
        n = min(n, hpath.shape[0])
        best, bk, bs = 99, -1, -1
        for k in range(n):
            for s in range(ns):
                if sv[s, V_STATUS] != RACING:
                    continue
                d = dist(hpath[k, 0], hpath[k, 1], sv[s, V_COL], sv[s, V_ROW])
                if d <= rp[RP_HOUND_RANGE] and d < best:
                    best, bk, bs = d, k, s
        if bs < 0:
            hd[q, 0], hd[q, 1] = c, r
            continue
        # ships at the same closest distance from that hex: the dice pick, not ship order
        nt = 0
        for s in range(ns):
            if sv[s, V_STATUS] == RACING and \
                    dist(hpath[bk, 0], hpath[bk, 1], sv[s, V_COL], sv[s, V_ROW]) == best:
                nt += 1
                if nt > 1 and K._roll(st, script, 1, nt) == 1:
                    bs = s
        hd[q, 0], hd[q, 1] = hpath[bk, 0], hpath[bk, 1]
        _hazard(st, script, bs, Proc(K.K_HOUND, best, _screens(bs, sv, ships), 0, 0, 0, 0, 0),
                S, RT)
        _log(L, turn, EV_HOUND_F, bs, q, best, out[K.O_SI_LOSS], hd[q, 0], hd[q, 1])
        hd[q, 2] = 0
        _after(st, script, bs, S, RT, turn, L)


@jit
def plans(ns, hounds):
    """The pilots' planning scratch (:class:`Plans`) for races of ``ns`` ships on a board of
    ``hounds`` Hell Hounds."""
    return Plans(np.zeros(MAX_PLAN, np.int64), np.zeros(MAX_PLAN, np.int64),
                 np.full((ns, K_PLAN + MAX_PLAN), -1, np.int64), plan_scratch(hounds))


@jit
def play_race(st, script, S0, FD, RT, BT, L, res):
    """:func:`play_race_in` with a fresh planning scratch."""
    return play_race_in(st, script, S0, FD, RT, BT, L, res,
                        plans(S0.ships.shape[0], S0.hd.shape[0]))


@jit
def play_race_in(st, script, S0, FD, RT, BT, L, res, P):
    """One whole race. ``res`` int64[n_ships, RES_W] receives per ship: status, VP, finishing
    place (0 none), Buoys carried, Turn finished (0 none), won (0/1), PI Level at the end (the
    Racing Season carries PI damage, 212 C); returns the number of Turns played.

    Planned in ``P`` (:func:`plans`), which races of one scenario (one ``RT``) may share: what
    it keeps between plan searches is stamped with the search it belongs to or keyed by what
    it depends on (the Hell Fire prices, by ship, Velocity, Screens and weights), so sharing it
    changes no choice, and saves its allocation and those prices each race."""
    ns = S0.ships.shape[0]
    ships = S0.ships.copy()
    sv = np.zeros((ns, SVX), np.int64)
    sv[:, :SV_SIZE] = S0.sv[:, :SV_SIZE]
    bu = S0.bu.copy()
    hd = S0.hd.copy()
    carry = np.zeros((ns, MAX_CARRY), np.int64)
    P.keep[:] = -1
    path = np.zeros((MAX_PLAN, 2), np.int64)
    hpath = np.zeros((32, 2), np.int64)
    hound_at = np.full(hd.shape[0], -1, np.int64)
    spec = np.zeros(K.N_SPEC, np.int64)
    out = np.zeros(K.OUT_SIZE, np.int64)
    S = Race(sv, ships, bu, hd, carry, hound_at, path, spec, out)
    return _race_turns(st, script, S, np.zeros(ns, np.int64), hpath, S0.pilots, FD, RT, BT, L,
                       res, P)


# the race's Turns, NO_NRT: as part of ``play_race_in`` (which makes the race's arrays) every
# pilot's row and view it took was reference-counted, Turn by Turn
@jit(_nrt=False)
def _race_turns(st, script, S, order, hpath, pilots, FD, RT, BT, L, res, P):
    """:func:`play_race_in`'s Turns and result, in the race state ``S`` it made."""
    crit, par, vturns, rp, mn_hex, mn_turn, pi_mod, ccode, contra = RT
    terrain, fire_class, hole_of, ring_pos, ring_hole, rings, rotation, side_dir, hole_cls, hcen = BT
    sv, ships, bu, carry = S.sv, S.ships, S.bu, S.carry
    ns = ships.shape[0]
    turn = 0
    for turn in range(1, rp[RP_TURN_LIMIT] + 1):
        racing = 0
        for s in range(ns):
            # 005 L: a ship with Level 0 SI is destroyed at any moment, whatever brought it there
            # (the hazard kernels destroy a ship they drive to 0; this catches any other cause,
            # e.g. a ship that starts the race at SI 0)
            if sv[s, V_STATUS] == RACING and ships[s, SI] <= rp[RP_SI_DEAD]:
                sv[s, V_STATUS] = DESTROYED
                _log(L, turn, EV_DESTROYED, s, sv[s, V_COL], sv[s, V_ROW], 0, 0, 0)
            if sv[s, V_STATUS] == RACING:
                racing += 1
        if racing == 0:
            turn -= 1
            break
        # Step A: Buoys (Free Floaters, High Rollers, the Hell2/Hell3 orbiters)
        for b in range(bu.shape[0]):
            if bu[b, BU_STATE] == ON_BOARD and bu[b, BU_MKIND] != EASY:
                c, r, n = kernel_marker_path(st, script, bu[b, BU_COL], bu[b, BU_ROW],
                                             bu[b, BU_MKIND], BT, rp[RP_MOVES_AT_MOST],
                                             rp[RP_WHIP_STEPS], hpath[:0])
                bu[b, BU_COL], bu[b, BU_ROW] = c, r
        # Initiative draw (204 B): a random order of the ships still racing
        k = 0
        for s in range(ns):
            if sv[s, V_STATUS] == RACING:
                order[k] = s
                k += 1
        for i in range(k - 1, 0, -1):
            j = K._roll(st, script, 1, i + 1) - 1
            order[i], order[j] = order[j], order[i]
        _log(L, turn, EV_TURN, -1, order[0], order[1] if k > 1 else -1, order[2] if k > 2 else -1,
             order[3] if k > 3 else -1, k)
        for i in range(k):
            s = order[i]
            sv[s, V_MOVED] = 0
            sv[s, V_TURNS] = 0
            sv[s, V_WHIP] = 0
            allocate(st, script, Mover(True, s, turn), S, FD, pilots[s], P, RT, BT, L)
        # Steps B-E
        for i in range(k):
            s = order[i]
            if sv[s, V_STATUS] != RACING:
                continue
            ship_phase(st, script, Mover(True, s, turn), S, FD, pilots[s], P, RT, BT, L)
        # Step F
        step_f(st, script, turn, S, hpath, RT, BT, L)
        # Step G
        for s in range(ns):
            if sv[s, V_STATUS] != RACING:
                continue
            lost = rp[RP_LEAK_FUEL] * sv[s, V_LEAKS]
            if terrain[sv[s, V_COL], sv[s, V_ROW]] == 2:
                lost += rp[RP_NULL_FUEL]
            if lost > 0:
                ships[s, FUEL] = max(0, ships[s, FUEL] - lost)
                _log(L, turn, EV_STEP_G, s, lost, ships[s, FUEL], 0, 0, 0)
    # 211 B: Victory Points and the winner
    best, win, tie = -1, -1, False
    for s in range(ns):
        st_ = sv[s, V_STATUS]
        vp = 0
        if st_ != DESTROYED and st_ != OFF_BOARD:
            for i in range(sv[s, V_NCARRY]):
                vp += rp[RP_VP0 + bu[carry[s, i], BU_VP]]
            vp += min(ships[s, FUEL] * rp[RP_VP_FUEL_PER], rp[RP_VP_FUEL_MAX])
            if st_ == FINISHED:
                vp += rp[RP_PLACE0 + min(sv[s, V_PLACE], 4) - 1]
        res[s, 0] = st_
        res[s, 1] = vp
        res[s, 2] = sv[s, V_PLACE] if st_ == FINISHED else 0
        res[s, 3] = sv[s, V_NCARRY]
        res[s, 4] = sv[s, V_FIN_TURN] if st_ == FINISHED else 0
        res[s, 5] = 0
        res[s, 6] = ships[s, PI]
        for j in range(N_COUNTS):
            res[s, RES_COUNT0 + j] = sv[s, SV_SIZE + j]
    for s in range(ns):
        vp = res[s, 1]
        if vp > best:
            best, win, tie = vp, s, False
        elif vp == best and best >= 0:
            a, b = res[win, 2], res[s, 2]
            if b > 0 and (a == 0 or b < a):
                win, tie = s, False
            elif not (a > 0 and (b == 0 or a < b)):
                tie = True
    _log(L, turn, EV_END, win if not tie else -1, res[0, 1], res[1, 1] if ns > 1 else 0,
         res[2, 1] if ns > 2 else 0, res[3, 1] if ns > 3 else 0, 0)
    if win >= 0 and not tie:
        res[win, 5] = 1
    return turn


N_BLOCKS = 32


@jit
def _race_block(key, lo, hi, S0, FD, RT, BT, acc, P):
    ns = S0.ships.shape[0]
    st = np.zeros(dice.STATE_SIZE, np.uint64)
    L = Log(np.zeros((0, LOG_W), np.int64), np.zeros(1, np.int64))  # nothing kept
    res = np.zeros((ns, RES_W), np.int64)
    tie = np.zeros(ns, np.int64)
    for i in range(lo, hi):
        dice.seed_trial(st, key, i)
        turns = play_race_in(st, dice.NO_SCRIPT, S0, FD, RT, BT, L, res, P)
        acc[G_TURNS] += turns
        acc[G_TURNS2] += turns * turns
        anywin = 0
        # places by VP, ties by finishing order, then by the trial's own dice (drawn after the
        # race, so the race itself is untouched), never by ship order
        for s in range(ns):
            tie[s] = dice.roll(st, dice.NO_SCRIPT, 1, 1 << 20)
        for s in range(ns):
            o = N_GLOBAL + s * N_SHIP_STATS
            won = res[s, 5]
            anywin += won
            vp = res[s, 1]
            acc[o + S_WINS] += won
            acc[o + S_FINISHED] += res[s, 0] == FINISHED
            acc[o + S_DESTROYED] += res[s, 0] == DESTROYED
            acc[o + S_OFF] += res[s, 0] == OFF_BOARD
            acc[o + S_VP] += vp
            acc[o + S_VP2] += vp * vp
            acc[o + S_BUOYS] += res[s, 3]
            rank = 0
            for t in range(ns):
                if t == s:
                    continue
                if res[t, 1] > vp:
                    rank += 1
                elif res[t, 1] == vp:
                    a, b = res[t, 2], res[s, 2]
                    if (a > 0 and (b == 0 or a < b)) or (a == b and (tie[t] < tie[s] or
                                                                     (tie[t] == tie[s] and t < s))):
                        rank += 1
            acc[o + S_PLACE1 + min(rank, 3)] += 1
            if res[s, 0] == FINISHED:
                acc[o + S_FIN_TURN] += res[s, 4]
            for j in range(N_COUNTS):
                x = res[s, RES_COUNT0 + j]
                acc[o + S_COUNT0 + j] += x
                acc[o + S_COUNT0 + N_COUNTS + j] += x * x
        if anywin == 0:
            acc[G_NO_WINNER] += 1


def race_stats(key, first, n, S0, FD, RT, BT):
    """Sum per-ship statistics over races first..first+n-1 (race i from stream (key, i)) from
    the set-up :class:`Start` ``S0``.

    The blocks a thread runs in one call share its planning scratch (:func:`plans`): a race
    plays in it exactly as in a fresh one (``play_race_in``), and what it keeps between
    races -- the Hell Fire prices, the allocation's bounds by their arguments -- is found
    again by later races from the same start (a block of a quick run is a few races). No
    two threads share one, and no call keeps one for the next."""
    mine = threading.local()

    def block(lo, hi, acc):
        P = getattr(mine, "P", None)
        if P is None:
            P = mine.P = plans(S0.ships.shape[0], S0.hd.shape[0])
        _race_block(key, lo, hi, S0, FD, RT, BT, acc, P)

    return sum_blocks(block, first, n, N_GLOBAL + S0.ships.shape[0] * N_SHIP_STATS, N_BLOCKS)
