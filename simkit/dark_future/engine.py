"""The compiled road game: turns, phases, actions, hazards, shooting, passives and rams.

Models dark-future.txt (every rule's place in ``docs/rules/dark-future.md``):

* Turn sequence (p8-9, p12): a turn goes on while any vehicle's current speed factor is at
  least the next phase number (at least one phase; a car that speeds up mid-turn moves in the
  extra phases); in each phase vehicles act in descending order of mph fixed by the caller at
  the phase's start (ties: the one in front first; neck and neck, a d6 each, the lower moves
  first; vehicles moving off together: the one accelerating the most first, :func:`_moving_off`);
  a vehicle moves one space when its speed factor is at least the phase number.
* Actions (p11-17), one per phase: steady, accelerate, brake, drift (p13; outward only on a
  curve; 80mph limit), shoot a direct-fire weapon (p22-27) or drop a passive (p22-24), sideswipe
  (p54), re-align after a spin (p46). Vehicles too slow to move may only shoot direct-fire
  weapons or lay smoke (p9). Panic-braked or out-of-control drivers lose the action (p41-42).
* Hazards (p38-41): curves (every move ending on a curve over the pair's limit), drifts over
  80mph, passives and road hazards moved onto, HE hits and criticals (inside the shot kernel),
  rams; several tests in one move via :func:`procedures.hazards.hazard_sequence` (higher limits first, oil
  last, none once control is lost); the phase's braking allowance (the rest of the turn for a
  vehicle that no longer moves).
* Control loss (p42-46): a control-loss test before each move; skids (the sideswipe's forced
  direction, p57), spins by the spin template (RECONSTRUCTED) with four-lane contact zones and
  crashes off the road or when rotating on a curve (p58), rolls (speed-factor hits at +speed
  factor on the roof, then a wreck); no driver or zero handling: +2, 5mph lost per move, a crash
  after a move ending on a curve (p34, p58); a stationary angled car re-aligns (p46).
* Shooting (p25-29): the fire corridor and closest target of :mod:`.vehicle`; the hit roll,
  damage, criticals, terminal damage and the hazard rolls they force by the shot kernel
  (:func:`procedures.shooting.shot_ws`, reused); lasting effects applied to the target: damage levels
  (-10mph maximum, -3mph acceleration, -1 handling each, p28), handling and drive skill lost to
  criticals, disabled engines and fuel tanks, no driver, destroyed weapons (the kernel's fit).
* Passives (p22-31): oil (handling -1 to -2; 60mph straight and steady, else 30mph; tested
  last; 30mph after a panic brake), pattern mines (one +3 hit, 50mph, removed), spikes (base
  damage, a 6 a destroyed tyre; none at 20mph or less), smoke (60mph, -1 per marker in a fire
  corridor, persistent); tail-gating (an odd d6 fails; a marker laid under a pursuer hits it
  after its next move).
* Rams (p52-57): shunt (relative SF damage, speeds meet halfway, 40mph tests, the target
  ignores panic results; the target then moves next and the rammer completes its move with
  no action, :func:`_take_turn`), head-on into wrecks, obstacles and angled cars (combined SF damage,
  both halt), sideswipes neck and neck (test, relative SF hit to the loser or both, -10mph,
  40mph for the loser, the loser skids away from the rammer).
* Bikes (p62-72): their profile and critical tables; riders under control share lanes with
  upright moving bikes, and a move ending with zones overlapping forces hazard rolls on both
  (80mph, or 40mph opposed by ``V_DIR``); dodges (a one-lane zone for passives, 40mph test);
  reduced handling (-3) for the listed hazards; the bike control-loss table (rolls, not spins;
  a roll at 81mph+ is a crash), speed factor -2 hits and road damage (p68), fallen bikes picked
  up next phase; collisions bike-bike and bike-car (:func:`_bike_ram`), sideswipes between bikes;
  abandoning and pushing a dead bike (p69).
* Lasting criticals (p34-35): the shot kernel records each lasting result it rolls and
  :func:`_apply_lasting` keeps it: carburettor, brake cylinder / pipe / line, transmission,
  generator and VDU (turrets, lasers, missile pods out), disabled engines (turrets and guidance
  off at once, a laser's last shot), split tyres rolled after every move, destroyed tyres and
  their maximum speed, broken axles (a 40mph test every move, a wreck when halted), steering
  hits, fuel leaks rolled at every turn's end, damaged / jammed / severed weapons, limbs.
* Linked weapons fire together, one shot after another (p83, :func:`_shoot`); locked-on oil and
  smoke (p23-24, :func:`_locked_after_move`); double hits (p31, :func:`_markers_hit`); dummy
  markers the drivers cannot tell from real ones (p22, :func:`_lay_dummy`).

* Direction of travel (p12-17, p52-57, p75, p89): ``V_DIR`` 1 = facing against the direction
  of play; moves, drifts, passives laid behind, fire corridors and the phase order read it
  (:func:`_advance`, :func:`pieces.vehicle.find_target`); U-turns (p14: six-lane zone clear,
  not curve to curve, 10mph automatic, 11-30mph a hazard roll, 31mph+ a control-loss test
  instead), moving off with a U-turn or a drift (p15), reversing (p17: from a stop in phase 1,
  10mph, a drift or U-turn as part of it, no hazard rolls, 0mph after), head-on rams between cars
  travelling at each other and opposed sideswipes (p54-57), cutting up (p13), Game Eight's
  intercept set-up; cars against the direction of play leave play off the start of the track.

Changing the direction of play (p75, continuous track): the majority of the active cars sets
it (:func:`_play_direction`); new track is then laid before the first section for the most
advanced car going that way and the far end is removed (:func:`_extend_track_back`); with
section 0 still on the table every section, marker and car is first renumbered upwards
(:func:`_renumber`) to make room before it.

Readings for bikes (see the coverage doc): a wheel falling off is an automatic roll on the
rider's next move (a control loss, p69); a sideswipe-by-collision does not move the rammer
into contact.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core import dice, eventlog
from ..core._numba import jit
from ..core.blocks import sum_blocks
from .procedures import hazards as H
from .pieces import road as RD
from .pieces.vehicle import armed
from .procedures import shooting as SH
from .policies import (A_ACCEL, A_BRAKE, A_DRIFT, A_NONE, A_PASSIVE, A_REALIGN, A_SHOOT, A_SWIPE,
                       decide)
from .policies import A_DODGE, A_PUSH, bike_decide
from .pieces.vehicle import V_BIKE, V_DIR, V_DODGE, V_FALLEN, V_PUSH, V_WHEELOFF
from .pieces.vehicle import V_CDRIFT, V_CSPIN, V_LEFTOUT, V_LOSTAGAIN, V_REGAIN
from .policies import A_DUMMY, A_LOCK
from .pieces.vehicle import (OFF_DESTROYED, OFF_ENGINE, OFF_GEN, OFF_LASTSHOT, OFF_LINK, OFF_VDU,
                             V_DUMMIES, V_LEAK, V_LIMBS, V_SPLIT, W_DAMAGED, W_GUIDED, W_JAM,
                             W_LINK, W_LOCKED, W_OFF)
from .policies import A_REVERSE, A_UTURN, P_VETO, best_shot, remember_backing, renumber_backing
from .policies import A_OFF_DRIFT, A_TURN_ROUND, TURN_ROUND_MPH, setup_place
from .policies import HP_DRV, HP_DRV_END, HP_TF
from .pieces.vehicle import TF_RANGE_CAP, TF_W, hit_modifier
from .pieces.vehicle import V_REV, V_SIDEREACH, V_STAMP, ahead_key, travel_dir, uturn_zone
from .pieces.vehicle import play_majority
from .pieces.vehicle import HIT_NONE, HIT_OBSTACLE, OBLIQUE, V_WHY, hit_facing
from .pieces.vehicle import V_DECL, V_DECLARG, V_SHUNTED
from .pieces.vehicle import (ACTIVE, CHASE, CRASHED, FINISHED, IN_CONTROL, LEAD, LEFT, M_HOOD,
                             M_TURRET, MAXW, OUT_OF_CONTROL, SPINNING, V_ACC, V_ARM, V_ATT, V_AXLE,
                             V_BRK, V_BRKLEFT, V_DMG, V_ENGOFF, V_HAND, V_KIND, V_LANE, V_LEVELS,
                             V_LOAD, V_MAXDMG, V_MAXSPD, V_MPH, V_NEEDALIGN, V_NODRIVER, V_OIL,
                             V_OOC, V_PANIC, V_ROLE, V_SEC, V_SIDE, V_SKIDDIR, V_SKILL, V_SP,
                             V_SPINDIR, V_STATUS, V_TERMINAL, V_TYRE, V_W, W_ACC, W_AMMO, W_DMG,
                             W_FIRED, W_FLAT, W_HE, W_KIND, W_LASER, W_MOUNT, W_PTYPE, W_RANGE,
                             W_STATION, W_W, WK_DIRECT, WK_PASSIVE, WRECK, find_target, lanes_of,
                             marker_in_zone, on_road, v_front, v_rear, zone_hits)

# --- the global constants array G ---------------------------------------------------------------
# One ordered, gap-free list, as V and WS (pieces.vehicle): a cell goes in by name beside its kin;
# the width G_W is the last name, and the unpacking checks the count in range().
(G_MAXTURNS, G_NV, G_MODE, G_WINDOW, G_SIGHT, G_HAZARDS, G_VICTORY, G_SPEEDMODE, G_START_MPH,
 G_REROLL_MAX, G_ANY_VETO, G_LEAD_VETO, G_NLAYOUT, G_CRIT_HIT, G_PENALTY, G_SKID_S, G_SKID_D,
 G_L_DRIFT, G_L_OIL_S, G_L_OIL_O, G_L_MINE, G_L_SMOKE, G_L_SAND, G_L_DEBRIS, G_L_RAIL, G_L_SHUNT,
 G_L_SS_NN, G_L_TYRE, G_HE_SMALL_MAX, G_HE_SMALL, G_HE_LARGE, G_EXPLODE, G_T_HOOD, G_T_TURRET,
 G_T_SMOKE, G_T_SMOKE_MAX, G_T_FAST, G_T_FAST_F, G_T_FAST_T, G_RANGE_CAP, G_I_SPEED, G_I_ACC,
 G_I_HAND, G_MIN_BRK, G_OIL_MAX, G_MINE_DMG, G_SPIKE_MPH, G_COAST, G_TYRE_LOSS, G_TYRE_CAP,
 G_REALIGN, G_SS_LOSS, G_RAM_BONUS, G_MPH_PIP, G_SPEED_STEP, G_ROLEMODE, G_FINISH_SEC,
 G_OIL_HAND, G_SPIKE_DMG,
 # the side mounts' forward corridor, 0 the car's lane on that side, 1 the lane beside the car
 # (variant side_mount_corridor, p82-83)
 G_SIDE_CORRIDOR,
 # 0 = p30 (a 6 is a wheel critical at 0 damage, else nothing), 1 = the reference sheet's 'base
 # damage' (d6 - armour, a 6 a destroyed tyre) (variant spike_damage)
 G_SPIKE_RULE,
 # who moves after a shunt ram (p56, variant shunt_target_move): 0 = the target takes its move
 # and the rammer completes its own when its current speed factor reaches the phase (p12), 1 =
 # both move whatever their speed factors
 G_SHUNT_MOVE,
 # direction of travel: the U-turn's safety limit and control-loss speed (p14, p38), the reverse
 # speed (p17), the opposed sideswipe's speed loss and limits (p57), Game Eight's intercept
 # set-up (0 = none, else the attacker's speed + 1), the starting direction of play (0; p75; the
 # current one is TM[TM_PLAYDIR])
 G_L_UTURN, G_UTURN_LOSS, G_REV_MPH, G_SS_OPP_LOSS, G_L_SS_OPP_W, G_L_SS_OPP_L, G_INTERCEPT,
 G_PLAYDIR,
 # lasting criticals and linked weapons
 G_DUMMIES, G_L_AXLE, G_L_MINE2, G_LEAK_FACE, G_JAM_CLEAR, G_DMG_ACC, G_HALF, G_TYRE_HAND,
 # bikes (p62-72): the bike's vehicle kind, reduced handling (p70), overlap and dodge limits
 # (p64), the roll that is a crash (p70), speed-factor damage less 2 for a roll, a car's 30mph
 # after a head-on with a bike and 10mph after shunting one (p72), pushing (p69), bikes as
 # targets (p64), the bike control-loss table's length, opposed sideswipe limits (p57)
 G_BIKE_KIND, G_REDUCED, G_L_OVERLAP, G_L_OVERLAP_OPP, G_L_DODGE, G_BIKE_CRASH, G_ROLL_LESS,
 G_CAR_HEADON_SLOW, G_CAR_SHUNT_SLOW, G_PUSH_MPH, G_T_BIKE2, G_T_BIKE1, G_BCL_N, G_L_OPP_WIN,
 G_L_OPP_LOSE,
 # a car running into an upright bike stopped and facing its way: 1 a head-on, 0 a shunt
 # (variant stopped_bike_ram, p57, p70-72)
 G_STOPPED_BIKE,
 # 1 when a rider may not cut up a bike yet to move, 0 when it may (variant bike_cut_up, p13,
 # p64)
 G_BIKE_CUTUP,
 # 1 when a dodging rider meets an obstacle with its one lane, 0 with both (variant
 # dodge_obstacles, p62, p64, p76)
 G_DODGE_OBST,
 G_W,          # the row's width: keep last
 ) = range(97)
# the hazard-parameter array hp carries, after the hazard roll's cells (hazards.HP_*), the bike
# tables, each block starting where the one before ends:
HP_ROAD = H.HP_BASE_W            # road damage modifiers by speed factor 1..8+ (p68)
HP_BCL = HP_ROAD + 8             # the bike control-loss table's lowest scores (p70) ...
HP_BCL_CODES = HP_BCL + 4        # ... and its outcome codes
HP_ROLLFACE = HP_BCL_CODES + 4   # the roll facings by d6 (p70)
# ... and from policies.HP_DRV the rule numbers the drivers price their choices with, copied
# from G by the scenario (the drivers read hp, not G: policies.HP_*); the policies cannot import
# this module, so their block's start is written there and held to this one here
assert HP_DRV == HP_ROLLFACE + 6
HP_W = HP_DRV_END

MODE_FIXED, MODE_INITIAL, MODE_CONTINUOUS = 0, 1, 2
# VICTORY_GANGS: Game Seven's gang against gang (p89); the lead side is the target gang.
VICTORY_FINISH, VICTORY_DESTROY, VICTORY_GANGS = 0, 1, 2

# --- signals carried by return values and fields ------------------------------------------------
# A move (_advance, _uturn_move) returns how many hazard limits it gathered into K (>= 0), or:
MOVE_ENDED = -1      # the move ended the vehicle's part: it crashed, left play or was stopped
UTURN_REFUSED = -2   # _uturn_move only: the zone is not clear (or curves), no U-turn is tried
# What a move's contact zone runs into (_move_zone_clear): a vehicle index (>= 0), or
# pieces.vehicle's HIT_NONE or HIT_OBSTACLE, or from _cut_up:
HIT_CUT_UP = -3      # the drift would cut up a car yet to move (p13), so it is not made
# Who dealt a hit (Hit.shooter, EV_DAMAGE's source): a vehicle index (>= 0), or a source that
# is no vehicle:
SRC_OBSTACLE = -2    # an obstacle rammed (p77)
SRC_MINES = -3       # pattern mines (p30)
SRC_SPIKES = -4      # spikes (p30-31): the damage die is the spike roll
SRC_ROLL = -5        # a roll (p46, bikes p70)
SRC_CRASH = -6       # a bike's crash (p70)
# V_SHUNTED's value on a target told to take its move whatever its speed factor (variant
# shunt_target_move = always); otherwise V_SHUNTED holds a shunt's target + 1, or 0
SHUNTED_FORCED = -1
# V_REGAIN: the control-loss result whose move is under way (p42): regain control, whose
# driver rolls for the move's hazards, or skid and regain, out of control until the move is made
REGAIN_PLAIN, REGAIN_SKID = 1, 2

# --- per-vehicle set-up VC[v] -------------------------------------------------------------------
(VC_SIDE, VC_KIND, VC_SKILLMODE, VC_SKILL, VC_SEC, VC_LANE, VC_SP, VC_NLOAD, VC_ROLE,
 VC_W) = range(10)

# --- game log events ------------------------------------------------------------------------------
# One gap-free list: the codes only name events in the log (formatted by name, never stored).
# EV_SHUNTMOVE (p56 Moving After a Shunt Ram): (0, rammer) the shunted target takes its move
# now; (1, target) the rammer completes its move, with no action.
# Direction of travel: EV_UTURN: (section, lanes, space, mph) after the turn; EV_REVERSE: the
# reverse move made; EV_CUTUP: a drift refused as cutting up (the car it would cut up);
# EV_UTURN_LOSS: a U-turn tried at 31mph+ (control lost before the move); EV_OPPSWIPE: an
# opposed sideswipe (target, rammer's total, target's total, winner).
# Lasting criticals: EV_LASTING (code L_*, station/limb, weapon slot or -1), EV_JAM (slot, d6,
# fires 0/1), EV_LEAK (d6, engine disabled 0/1), EV_SPLIT (d6, speed factor, shredded 0/1),
# EV_LOCK (slot, LOCK_*). Then the bikes' events, EV_ROADDMG to EV_BIKERAM.
(EV_TRACK, EV_ROLES, EV_START, EV_MOVE, EV_ACTION, EV_HAZARD, EV_CONTROL, EV_SKID, EV_SPIN,
 EV_ROLL, EV_CRASH, EV_SHOT, EV_PASSIVE, EV_MARKER, EV_RAM, EV_SWIPE, EV_FINISH, EV_LEFT,
 EV_END, EV_ROADHAZ, EV_TRAIN, EV_WRECK, EV_PHASE, EV_SPEED, EV_DAMAGE,
 EV_SHUNTMOVE,
 EV_UTURN, EV_REVERSE, EV_CUTUP, EV_UTURN_LOSS, EV_OPPSWIPE,
 EV_LASTING, EV_JAM, EV_LEAK, EV_SPLIT, EV_LOCK,
 EV_ROADDMG, EV_OVERLAP, EV_BIKEROLL, EV_FALL, EV_PICKUP, EV_ABANDON, EV_PUSH, EV_BIKERAM,
 ) = range(44)
LOCK_OFF, LOCK_ON, LOCK_DISPERSED, LOCK_STOPPED, LOCK_EMPTY = range(5)
LOG_W = eventlog.WIDTH   # the shared event-log layout; columns e-g are unused here
# bike collisions (EV_BIKERAM's second field)
BR_HEAD_ON, BR_SHUNT, BR_SWIPE, BR_INTO_WRECK = range(4)

# --- results R[] of one game ----------------------------------------------------------------------
R_WINNER, R_REASON, R_TURNS, R_LEAD_SIDE, R_LEAD_FINISHED, R_W = range(6)
REASON_FINISH, REASON_LEAD_OUT, REASON_SIDE_OUT, REASON_TIME, REASON_TRACK_END = range(5)
# REASON_STALEMATE: every vehicle left in play is stopped for good and none has a shot, so
# nothing can change any more (Game Six-Eight: a side immobilised *with* weapons is not beaten,
# p88); a draw, ended at once instead of at the turn limit
REASON_STALEMATE = 5
# REASON_REPEAT: a whole turn rolled no dice and left the position as it found it, so every
# later turn would do the same (play_turns): a draw, ended at once
REASON_REPEAT = 6
REASON_NAMES = ("lead car crossed the finish", "lead car stopped", "a side was taken out",
                "turn limit", "the track ran out", "nothing could move or shoot",
                "the position repeated, no dice rolled")

CRASH_OFFROAD, CRASH_CURVE_SPIN, CRASH_NODRIVER_CURVE, CRASH_TRAIN = range(4)

from .pieces.board import (B_K, B_K_END, B_M, B_M_END, B_NM, B_NM_END, B_T, B_T_END, B_TM,
                           B_TM_END, B_W, K_LIM, K_LIM_END, K_O, K_O_END, K_OIL, K_OIL_END,
                           K_OUTC, K_OUTC_END, K_SP, K_SP_END, K_TBUF, K_TBUF_END, K_W, K_WS,
                           K_WS_END, board_views, new_board, new_scratch)


# --- the rules buffer RU --------------------------------------------------------------------------
# The read-only tables of a game (the rules G, the set-up, the profiles, the critical tables, the
# hazard parameters, the control-loss and spin tables, the drivers' policies) travel as one
# int64 buffer: numba counts a reference to every array that crosses a call, and a tuple of
# arrays counts each member, so one buffer is what makes the tables cheap to pass. A function
# views only the tables it reads itself (_tab1.._tab4: a view of table TB_* in its shape).
# Cells [TB_CELLS * i, TB_CELLS * (i + 1)) hold table i's start and its dimensions.
(TB_G, TB_VC, TB_VPOS, TB_LOAD, TB_LFIT, TB_PROF, TB_SKILLS, TB_LAY, TB_CURVES, TB_BOX,
 TB_MATRIX, TB_REROLLS, TB_EFFECTS, TB_GROUPS, TB_HP, TB_CL_LOWS, TB_CL_CODES, TB_SPIN,
 TB_POL) = range(19)
TB_NDIM = (1, 2, 3, 4, 3, 2, 1, 3, 3, 1, 2, 2, 3, 3, 1, 1, 1, 2, 2)
TB_CELLS = 5
RU_HEAD = TB_CELLS * len(TB_NDIM)


# rules_buffer's parameters (the scenario's Arrays fields of the same names)
RULES_ARGS = ("G", "VC", "VPOS", "LOAD", "LFIT", "PROF", "SKILLS", "LAY", "curves", "box", "crit",
              "hp", "cl_lows", "cl_codes", "spin_t", "POL")


def rules_buffer(G, VC, VPOS, LOAD, LFIT, PROF, SKILLS, LAY, curves, box, crit, hp, cl_lows,
                 cl_codes, spin_t, POL):
    """The rules buffer RU of a game's tables (:func:`games_chunk`'s, crit the four critical
    tables)."""
    tables = (G, VC, VPOS, LOAD, LFIT, PROF, SKILLS, LAY, curves, box, *crit, hp, cl_lows,
              cl_codes, spin_t, POL)
    assert len(tables) == len(TB_NDIM)
    RU = np.zeros(RU_HEAD + sum(np.size(t) for t in tables), np.int64)
    at = RU_HEAD
    for i, t in enumerate(tables):
        t = np.asarray(t)
        assert t.ndim == TB_NDIM[i] and t.dtype == np.int64, i
        RU[TB_CELLS * i] = at
        RU[TB_CELLS * i + 1:TB_CELLS * i + 1 + t.ndim] = t.shape
        RU[at:at + t.size] = t.ravel()
        at += t.size
    return RU


@jit
def _tab1(RU, i):
    s = RU[TB_CELLS * i]
    return RU[s:s + RU[TB_CELLS * i + 1]]


@jit
def _tab2(RU, i):
    b = TB_CELLS * i
    s, d0, d1 = RU[b], RU[b + 1], RU[b + 2]
    return RU[s:s + d0 * d1].reshape((d0, d1))


@jit
def _tab3(RU, i):
    b = TB_CELLS * i
    s, d0, d1, d2 = RU[b], RU[b + 1], RU[b + 2], RU[b + 3]
    return RU[s:s + d0 * d1 * d2].reshape((d0, d1, d2))


@jit
def _tab4(RU, i):
    b = TB_CELLS * i
    s, d0, d1, d2, d3 = RU[b], RU[b + 1], RU[b + 2], RU[b + 3], RU[b + 4]
    return RU[s:s + d0 * d1 * d2 * d3].reshape((d0, d1, d2, d3))
CRASH_BIKE_ROLL, CRASH_BIKE_CAR, CRASH_BIKE_WRECK = 4, 5, 6
CRASH_WHEEL_OFF = 7


class Log(NamedTuple):
    """The game log and the moment it is at, ``L``: what every compiled step passes on."""
    E: np.ndarray     # int64[event, LOG_W]: the shared event-log layout
    EN: np.ndarray    # int64[1]: events written (counted past the capacity)
    turn: int
    phase: int


class Move(NamedTuple):
    """How one move is made (:func:`_advance`, ``MV``): scalars only, which cross a compiled
    call for free."""
    drift: int           # -1, 0, 1: the drift after the space ahead
    steady: bool         # at a steady speed (the action was none or a shot or later)
    forced_drift: bool   # the drift is a skid, not a manoeuvre (no drift test)


class Action(NamedTuple):
    """A driver's action as the engine carries it out (``AC``): scalars only."""
    act: int      # A_*
    arg: int
    moves: bool   # the vehicle moves this phase


@jit
def _log(L, v, code, a, b, c, d):
    """One event in the shared layout (:mod:`simkit.core.eventlog`)."""
    eventlog.write_event(L.E, L.EN, (L.turn, L.phase, v, code, a, b, c, d, 0, 0, 0))


@jit
def speed_factor(mph, step):
    if mph <= 0:
        return 0
    return (mph + step - 1) // step


@jit
def _handling(V, v, G):
    return V[v, V_HAND]


@jit
def _no_control(V, v):
    return V[v, V_NODRIVER] == 1 or V[v, V_HAND] <= 0 or V[v, V_SKILL] <= 0


@jit
def _lose_control(V, v):
    """A forced loss of control (p40: 'forced to lose control as a result of critical damage
    hits'; p34 Limb Disabled: 'automatically loses control, and the driver makes a control loss
    test at the start of the next move'). During a regaining move (``V_REGAIN``) the car is
    still out of control, but the loss is a new one that the move's regain must not undo
    (:func:`_regain`), as a lost hazard roll's (:func:`_loses_control_testing`)."""
    if V[v, V_OOC] == IN_CONTROL:
        V[v, V_OOC] = OUT_OF_CONTROL
    elif V[v, V_REGAIN]:
        V[v, V_LOSTAGAIN] = 1


@jit
def _takes_tests(V, v):
    """Out of control a vehicle takes no hazard rolls (p41), but a driver on a regain-control
    move 'must roll for any new hazards encountered during the straight-ahead move' (p42): a
    shunt's 40mph test (p56) among them. A skid-and-regain move is 'out of control for the
    duration of this move' and tests nothing."""
    return V[v, V_OOC] == IN_CONTROL or V[v, V_REGAIN] == REGAIN_PLAIN


@jit
def _loses_control_testing(V, v):
    """A hazard roll lost: on a regain-control move the car is still out of control until the
    move is made, and this loss is a new one that the regain must not undo (as a bike shunt's,
    p70)."""
    if V[v, V_OOC] == IN_CONTROL:
        V[v, V_OOC] = OUT_OF_CONTROL
    else:
        V[v, V_LOSTAGAIN] = 1


@jit
def _apply_levels(V, v, RU):
    """Handling, maximum speed and acceleration lost to damage levels passed (p28)."""
    G = _tab1(RU, TB_G)
    PROF = _tab2(RU, TB_PROF)
    k = V[v, V_KIND]
    passed = 0
    for i in range(3):
        lv = PROF[k, 6 + i]
        if lv > 0 and V[v, V_DMG] < lv:
            passed += 1
    d = passed - V[v, V_LEVELS]
    if d > 0:
        V[v, V_LEVELS] = passed
        V[v, V_HAND] -= d * G[G_I_HAND]
        V[v, V_MAXSPD] -= d * G[G_I_SPEED]
        V[v, V_ACC] = max(0, V[v, V_ACC] - d * G[G_I_ACC])


class Hit(NamedTuple):
    """What :func:`_take_hit` is hit with: scalars only, which cross a compiled call for free
    (an array in a tuple is counted like a separate one)."""
    damage: int      # the weapon's damage, or the collision's
    he: int          # 1: an HE hit (its hazard roll, p38)
    facing: int      # the facing hit (with OBLIQUE)
    auto: bool       # hits without a hit roll
    rng_eff: int     # the range the hit roll needs
    mod: int         # the hit roll's modifier
    flat: int        # 1: the damage is not added to the d6 (shooting.S_FLAT; spikes, p30)
    shooter: int     # the vehicle that shot, rammed or swiped, or a negative source


@jit
def _auto_hit(damage, facing, shooter):
    """A hit without a hit roll (collisions, crashes, mines): no HE, damage added to the d6."""
    return Hit(damage, 0, facing, True, 0, 0, 0, shooter)


@jit
def _take_hit(st, script, B, V, WS, FIT, v, hit, RU, L):
    """One shot or hit (:class:`Hit`) on vehicle ``v`` through the shot kernel, with lasting
    effects applied. Returns True when it hit."""
    damage, he, facing, auto = hit.damage, hit.he, hit.facing, hit.auto
    rng_eff, mod, flat, shooter = hit.rng_eff, hit.mod, hit.flat, hit.shooter
    K = B[B_K:B_K_END]
    G = _tab1(RU, TB_G)
    hp = _tab1(RU, TB_HP)
    ws = K[K_WS:K_WS_END]
    sp = K[K_SP:K_SP_END]
    o = K[K_O:K_O_END]
    matrix, rerolls = _tab2(RU, TB_MATRIX), _tab2(RU, TB_REROLLS)
    effects, groups = _tab3(RU, TB_EFFECTS), _tab3(RU, TB_GROUPS)
    sp[SH.S_IN_RANGE] = SH.AUTO_HIT if auto else 1
    sp[SH.S_RANGE] = rng_eff
    sp[SH.S_MOD] = mod
    sp[SH.S_DAMAGE] = damage
    sp[SH.S_HE] = he
    sp[SH.S_FLAT] = flat
    sp[SH.S_ARMOUR] = V[v, V_ARM]
    sp[SH.S_TDAMAGE] = max(V[v, V_DMG], 0)
    sp[SH.S_FACING] = facing & ~OBLIQUE
    sp[SH.S_OBLIQUE] = 1 if facing & OBLIQUE else 0
    sp[SH.S_CRIT_HIT] = G[G_CRIT_HIT]
    # out of control a car takes no hazard rolls (p41), but on a regain-control move it rolls
    # for new hazards met during the move (p42): a critical's forced roll among them
    sp[SH.S_MPH] = V[v, V_MPH] if _takes_tests(V, v) else 0
    sp[SH.S_HANDLING] = V[v, V_HAND]
    sp[SH.S_SKILL] = V[v, V_SKILL]
    sp[SH.S_REDUCED] = G[G_REDUCED] if V[v, V_BIKE] else 0
    sp[SH.S_L1] = 0
    sp[SH.S_L2] = 0
    sp[SH.S_L3] = 0   # levels: applied here, so the kernel is told none remain
    sp[SH.S_LEVEL_LOSS] = G[G_I_HAND]
    sp[SH.S_BRAKING] = V[v, V_BRKLEFT]
    sp[SH.S_HE_SMALL_MAX] = G[G_HE_SMALL_MAX]
    sp[SH.S_HE_SMALL] = G[G_HE_SMALL]
    sp[SH.S_HE_LARGE] = G[G_HE_LARGE]
    sp[SH.S_EXPLODE] = G[G_EXPLODE]
    sp[SH.S_LASTING] = 1
    # a spike hit (SRC_SPIKES, p30): the d6 is the spike roll, a 6 a wheel critical at 0 damage
    sp[SH.S_WHEELS] = 1 if shooter == SRC_SPIKES else 0
    if shooter == SRC_SPIKES:
        sp[SH.S_CRIT_HIT] = 0
    if V[v, V_TERMINAL]:
        sp[SH.S_TDAMAGE] = 0
    b = _bike_tables(V, v, matrix)
    SH.shot_ws(st, script, sp, matrix[b * NFACE:b * NFACE + NFACE], rerolls,
               effects[b * NLOC:b * NLOC + NLOC], hp, FIT[v], groups[v], o, ws)
    if o[0] == 0:
        return False
    V[v, V_DMG] = max(0, V[v, V_DMG] - o[1])
    _log(L, v, EV_DAMAGE, shooter, o[1], V[v, V_DMG], o[2])
    _apply_levels(V, v, RU)
    flags = ws[:SH.NFLAGS]
    if flags[0] or flags[1]:
        V[v, V_ENGOFF] = 1
        V[v, V_ACC] = 0
    if flags[2]:
        V[v, V_NODRIVER] = 1
    V[v, V_HAND] += flags[4]
    V[v, V_SKILL] += flags[5]
    base = SH.NFLAGS + SH.MAX_TESTS + SH.MAX_HITS * 4
    for s in range(FIT.shape[1]):
        FIT[v, s] = ws[base + s]
    for w in range(MAXW):
        if WS[v, w, W_KIND] != 0 and WS[v, w, W_STATION] >= 0 and FIT[v, WS[v, w, W_STATION]] == 0:
            WS[v, w, W_AMMO] = 0   # destroyed (p35)
    if o[6] and not V[v, V_TERMINAL]:
        V[v, V_TERMINAL] = 1
        V[v, V_ENGOFF] = 1
        V[v, V_ACC] = 0
        V[v, V_HAND] = 0
        for w in range(MAXW):
            WS[v, w, W_AMMO] = 0   # all weapons cease functioning (p35)
    mph_hit = V[v, V_MPH]
    _apply_lasting(V, WS, FIT, v, K, G, L)
    braked = ws[SH.WS_BRAKED]
    if braked > 0:
        V[v, V_MPH] = max(0, V[v, V_MPH] - braked)
        V[v, V_BRKLEFT] -= braked
    if ws[SH.WS_PANIC]:
        V[v, V_PANIC] = 1
    if o[5] or o[4] or _no_control(V, v):
        _lose_control(V, v)
    if V[v, V_WHEELOFF] and V[v, V_STATUS] == ACTIVE:
        _wheel_off(st, script, V, v, mph_hit, RU, L)
    return True


@jit
def _wheel_off(st, script, V, v, mph, RU, L):
    """A bike's wheel off (p69), ``mph`` its speed when hit: at 81mph or more it crashes at once
    and the rider takes road damage (the crash damage is not rolled: the bike leaves play
    whatever it scores, and rolling it here would re-enter the hit); slower, the kernel's
    control loss stands and its next move is an automatic roll (``_out_of_control_move``);
    halted, the bike it cannot ride again is a wreck."""
    G = _tab1(RU, TB_G)
    if mph >= G[G_BIKE_CRASH]:
        _road_damage(st, script, V, v, speed_factor(mph, G[G_SPEED_STEP]), RU, L)
        _crash(V, v, CRASH_WHEEL_OFF, L)
    elif V[v, V_MPH] == 0:
        _bike_down(V, v, L)


@jit
def _hazards(st, script, V, v, K, nl, G, hp, L):
    """The hazard rolls of the move's list (the first ``nl`` cells of K's lim and oil)."""
    if nl == 0 or not _takes_tests(V, v):
        return
    _roll_hazards(st, script, V, v, K[K_LIM:K_LIM_END], K[K_OIL:K_OIL_END], nl, G, hp,
                  K[K_OUTC:K_OUTC_END], L)


@jit
def _roll_hazards(st, script, V, v, limits, oil, nl, G, hp, outcomes, L):
    """Hazard rolls of one move in the book's order (p41); oil tests come last."""
    if nl == 0 or not _takes_tests(V, v):
        return
    if V[v, V_BIKE]:
        _bike_hazards(st, script, V, v, limits, oil, nl, G, hp, outcomes, L)
        return
    # order: non-oil tests by descending limit, then oil
    for i in range(1, nl):
        x = limits[i]
        xo = oil[i]
        j = i - 1
        while j >= 0 and (oil[j] > xo or (oil[j] == xo and limits[j] < x)):
            limits[j + 1] = limits[j]
            oil[j + 1] = oil[j]
            j -= 1
        limits[j + 1] = x
        oil[j + 1] = xo
    speed0 = V[v, V_MPH]
    opt = max(V[v, V_HAND], V[v, V_SKILL])
    speed, left, lost = H.hazard_sequence(st, script, speed0, limits[:nl], oil[:nl],
                                          G[G_L_OIL_O], opt, V[v, V_BRKLEFT], hp, outcomes)
    for i in range(nl):
        # a test at or under its limit is no roll (p41): only the rolls made are logged
        if outcomes[i] > 0 or (outcomes[i] == 0 and limits[i] < speed0):
            _log(L, v, EV_HAZARD, limits[i], outcomes[i], speed, oil[i])
            if outcomes[i] == H.PANIC:
                V[v, V_PANIC] = 1
    V[v, V_MPH] = speed
    V[v, V_BRKLEFT] = left
    if lost:
        _loses_control_testing(V, v)


@jit
def _crash(V, v, why, L):
    V[v, V_STATUS] = CRASHED
    V[v, V_WHY] = why + 1
    V[v, V_MPH] = 0
    _log(L, v, EV_CRASH, why, 0, 0, 0)


@jit
def _speed_hits(st, script, B, V, WS, FIT, v, n_hits, hit, RU, L):
    """``n_hits`` hits of ``hit`` (:func:`_auto_hit`) while the vehicle is still in play."""
    for _ in range(n_hits):
        if V[v, V_STATUS] != ACTIVE and V[v, V_STATUS] != WRECK:
            break
        _take_hit(st, script, B, V, WS, FIT, v, hit, RU, L)


@jit
def _wreck_if_needed(V, v, L):
    if V[v, V_STATUS] == ACTIVE and V[v, V_MPH] == 0 and (V[v, V_TERMINAL] or V[v, V_AXLE]):
        V[v, V_STATUS] = WRECK
        _log(L, v, EV_WRECK, 0, 0, 0, 0)


@jit
def _ram(st, script, B, V, WS, FIT, v, u, RU, L):
    """The rammer ``v`` runs into ``u`` (HIT_OBSTACLE: an obstacle, a wreck of the road, p77).
    Returns 1 for a shunt (the target moves next, p56), else 0."""
    K = B[B_K:B_K_END]
    G = _tab1(RU, TB_G)
    hp = _tab1(RU, TB_HP)
    if V[v, V_BIKE] or (u >= 0 and V[u, V_BIKE]):
        return _bike_ram(st, script, B, V, WS, FIT, v, u, RU, L)
    step = G[G_SPEED_STEP]
    sfv = speed_factor(V[v, V_MPH], step)
    if u == HIT_OBSTACLE:
        # an obstacle: a head-on ram into a wreck (p77)
        _log(L, v, EV_RAM, -1, 0, sfv, 0)
        _speed_hits(st, script, B, V, WS, FIT, v, sfv, _auto_hit(sfv, 0, SRC_OBSTACLE), RU, L)
        V[v, V_MPH] = 0
        return 0
    sfu = speed_factor(V[u, V_MPH], step)
    head_on = V[u, V_STATUS] == WRECK or V[u, V_TERMINAL] or V[u, V_ATT] % 180 != 0 \
        or V[u, V_OOC] == SPINNING or V[v, V_OOC] == SPINNING
    # travelling in opposite directions, or into a stationary car facing the rammer (p52, p57)
    opp = travel_dir(V, u) != travel_dir(V, v)
    fv = 1 if V[v, V_REV] else 0     # a reversing car hits with its rear
    fu = 0 if opp else 1
    if head_on or opp:
        c = sfv + sfu
        _log(L, v, EV_RAM, u, 0, c, 1 if opp else 0)
        _speed_hits(st, script, B, V, WS, FIT, v, c, _auto_hit(c, fv, u), RU, L)
        _speed_hits(st, script, B, V, WS, FIT, u, c, _auto_hit(c, fu, v), RU, L)
        V[v, V_MPH] = 0
        V[u, V_MPH] = 0
        _wreck_if_needed(V, u, L)
        return 0
    # shunt (p55-57)
    rel = max(sfv - sfu, 0)
    _log(L, v, EV_RAM, u, 1, rel, 0)
    _speed_hits(st, script, B, V, WS, FIT, v, rel, _auto_hit(rel, fv, u), RU, L)
    _speed_hits(st, script, B, V, WS, FIT, u, rel, _auto_hit(rel, fu, v), RU, L)
    diff = V[v, V_MPH] - V[u, V_MPH]
    if diff > 0:
        half = (diff + 1) // 2
        V[u, V_MPH] = min(V[u, V_MPH] + half, max(V[u, V_MAXSPD], V[u, V_MPH]))
        V[v, V_MPH] -= half
    K[K_LIM] = G[G_L_SHUNT]
    K[K_OIL] = 0
    _hazards(st, script, V, v, K, 1, G, hp, L)
    if V[u, V_OOC] == IN_CONTROL and V[u, V_MPH] > G[G_L_SHUNT]:
        # the target ignores panic results (p41): give it an allowance nothing can exhaust and
        # restore its speed
        keep_mph = V[u, V_MPH]
        keep_left = V[u, V_BRKLEFT]
        V[u, V_BRKLEFT] = 1 << 20
        K[K_LIM] = G[G_L_SHUNT]
        K[K_OIL] = 0
        _hazards(st, script, V, u, K, 1, G, hp, L)
        V[u, V_MPH] = keep_mph
        V[u, V_BRKLEFT] = keep_left
        V[u, V_PANIC] = 0
    return 1


class Zone(NamedTuple):
    """A move's contact zone and how the vehicle moved into it (:func:`_markers_hit`):
    scalars only."""
    llo: int
    lhi: int                # lanes
    xlo: int
    xhi: int                # the zone along the road
    straight_steady: bool   # straight ahead at a steady speed (oil's lower limit, p30)
    straight: bool          # straight ahead (Double Hits, p31)


@jit
def _markers_hit(st, script, B, V, WS, FIT, v, Z, nl, RU, L):
    """Passives and road hazards in the move's contact zone ``Z`` (:class:`Zone`; p30, p76):
    damage now, hazard limits added to the move's list, in the order the markers were laid.
    Returns the new list length. Two identical markers after a straight-ahead move (p31 Double
    Hits): oil two hits, mines both damage rolls but one 30mph test, smoke one test, spikes one
    hit; odd sets and other moves: each hit separately. A dummy is turned over and removed
    (p22)."""
    llo, lhi, xlo, xhi = Z.llo, Z.lhi, Z.xlo, Z.xhi
    straight_steady, straight = Z.straight_steady, Z.straight
    T = B[B_T:B_T_END].reshape((RD.MAXSEC, RD.T_W))
    M = B[B_M:B_M_END].reshape((RD.MAXM, RD.MK_W))
    NM = B[B_NM:B_NM_END]
    K = B[B_K:B_K_END]
    G = _tab1(RU, TB_G)
    on_curve = T[V[v, V_SEC], RD.T_KIND] != RD.STRAIGHT
    n_mines, n_spikes, n_smoke = _double_counts(M, NM, v, llo, lhi, xlo, xhi)
    double = straight and (n_mines >= 2 or n_spikes >= 2 or n_smoke >= 2)
    mines_tested = False
    spikes_rolled = False
    smoke_tested = False
    for i in range(NM[0]):
        if not M[i, RD.MK_ACTIVE]:
            continue
        hit = M[i, RD.MK_UNDER] == v
        if not hit:
            if M[i, RD.MK_LHI] < llo or M[i, RD.MK_LLO] > lhi:
                continue
            if not (M[i, RD.MK_XLO] < xhi and xlo < M[i, RD.MK_XHI]):
                continue
            hit = True
        if M[i, RD.MK_UNDER] >= 0 and M[i, RD.MK_UNDER] != v:
            continue   # laid under another car: it hits that car after its next move
        M[i, RD.MK_UNDER] = -1
        kind = M[i, RD.MK_KIND]
        M[i, RD.MK_FACEUP] = 1
        _log(L, v, EV_MARKER, kind, i, 0, 0)
        if kind == RD.OBSTACLE:
            continue   # handled as a collision before the move
        if kind == RD.DUMMY:
            M[i, RD.MK_ACTIVE] = 0   # dummies are removed from play once turned over (p22)
            continue
        if kind == RD.OIL:
            if V[v, V_OIL] < G[G_OIL_MAX]:
                V[v, V_OIL] += 1
                V[v, V_HAND] += G[G_OIL_HAND]
                if V[v, V_HAND] <= 0:
                    _lose_control(V, v)
            if nl < SH.MAX_TESTS:
                K[K_LIM + nl] = G[G_L_OIL_S] if (straight_steady and not on_curve) else G[G_L_OIL_O]
                K[K_OIL + nl] = 1 if (straight_steady and not on_curve) else 1 + _rflag(V, v)
                nl += 1
        elif kind == RD.MINES:
            M[i, RD.MK_ACTIVE] = 0
            _take_hit(st, script, B, V, WS, FIT, v, _auto_hit(G[G_MINE_DMG], 3, SRC_MINES), RU, L)
            if nl < SH.MAX_TESTS and not (double and n_mines >= 2 and mines_tested):
                K[K_LIM + nl] = G[G_L_MINE2] if (double and n_mines >= 2) else G[G_L_MINE]
                K[K_OIL + nl] = _rflag(V, v)
                nl += 1
            mines_tested = True
        elif kind == RD.SPIKES:
            if double and n_spikes >= 2 and spikes_rolled:
                continue   # two spike markers are one hit (p31)
            spikes_rolled = True
            if V[v, V_MPH] > G[G_SPIKE_MPH] and G[G_SPIKE_RULE] == 0:
                # p30: a 6 is a wheel critical at 0 damage, on the Wheels table (front or rear
                # as a floor hit picks them); 5 or less, no effect
                _take_hit(st, script, B, V, WS, FIT, v, Hit(0, 0, 3, True, 0, 0, 1, SRC_SPIKES),
                          RU, L)
            elif V[v, V_MPH] > G[G_SPIKE_MPH]:
                # variant spike_damage = reference_sheet: base damage d6 - armour, a 6 destroys
                # a tyre
                r = dice.roll(st, script, 1, 6)
                pts = max(0, r + G[G_SPIKE_DMG] - V[v, V_ARM])
                V[v, V_DMG] = max(0, V[v, V_DMG] - pts)
                _log(L, v, EV_DAMAGE, SRC_SPIKES, pts, V[v, V_DMG], 1 if r == 6 else 0)
                _apply_levels(V, v, RU)
                if r == 6:
                    # a destroyed tyre (p34): handling -2, maximum speed down, a 20mph test
                    V[v, V_HAND] -= 2
                    V[v, V_TYRE] = 1
                    V[v, V_MAXSPD] = min(V[v, V_MAXSPD] - G[G_TYRE_LOSS], G[G_TYRE_CAP])
                    if nl < SH.MAX_TESTS:
                        K[K_LIM + nl] = G[G_L_TYRE]
                        K[K_OIL + nl] = _rflag(V, v)
                        nl += 1
                if V[v, V_DMG] == 0 and not V[v, V_TERMINAL]:
                    V[v, V_TERMINAL] = 1
                    V[v, V_ENGOFF] = 1
                    V[v, V_HAND] = 0
                if _no_control(V, v):
                    _lose_control(V, v)
        elif kind == RD.SMOKE or kind == RD.SAND or kind == RD.DEBRIS or kind == RD.RAIL:
            if kind == RD.SMOKE:
                if double and n_smoke >= 2 and smoke_tested:
                    continue   # one hazard roll for two smoke markers (p31)
                smoke_tested = True
            if nl < SH.MAX_TESTS:
                K[K_LIM + nl] = (G[G_L_SMOKE] if kind == RD.SMOKE else G[G_L_SAND]
                                 if kind == RD.SAND else G[G_L_DEBRIS] if kind == RD.DEBRIS
                                 else G[G_L_RAIL])
                K[K_OIL + nl] = _rflag(V, v) if (kind == RD.DEBRIS or (kind == RD.SAND
                                                                        and on_curve)) else 0
                nl += 1
            if kind == RD.RAIL:
                a = dice.roll(st, script, 1, 6)
                b = dice.roll(st, script, 1, 6)
                if a == 1 and b == 1:
                    _log(L, v, EV_TRAIN, 0, 0, 0, 0)
                    _crash(V, v, CRASH_TRAIN, L)
                    # 'The vehicle and all others on the railroad section are removed from
                    # play immediately' (p76): every vehicle (or wreck) on the crossing
                    for u in range(V.shape[0]):
                        if u == v or not on_road(V, u):
                            continue
                        ua, ub = lanes_of(V, u)
                        if ub < M[i, RD.MK_LLO] or ua > M[i, RD.MK_LHI]:
                            continue
                        if v_rear(T, V, u) < M[i, RD.MK_XHI] and M[i, RD.MK_XLO] < v_front(T, V, u):
                            _log(L, u, EV_TRAIN, 1, v, 0, 0)
                            _crash(V, u, CRASH_TRAIN, L)
                    return nl
    return nl


@jit
def _move_zone_clear(T, M, NM, V, n, v, sec, llo, lhi, xlo, xhi, olo, ohi):
    """What the move's contact zone runs into: a vehicle index, HIT_OBSTACLE or HIT_NONE.
    Obstacles are looked for on lanes ``olo``-``ohi`` when given (a dodge's one lane, p62,
    p64), else on the zone's own lanes."""
    u = zone_hits(T, V, n, v, sec, llo, lhi, xlo, xhi)
    if u >= 0:
        return u
    if olo < 0:
        olo, ohi = llo, lhi
    if marker_in_zone(M, NM, RD.OBSTACLE, olo, ohi, xlo, xhi) >= 0:
        return HIT_OBSTACLE
    return HIT_NONE


@jit
def _advance(st, script, B, V, WS, FIT, n, v, MV, RU, L):
    """One move: one space in the travel direction (with play; against it for a car facing
    against play, p75, or reversing, p17), then an optional drift (a manoeuvre, or a skid when
    ``forced_drift``). Collisions stop the mover where it was (p52). Returns the number of
    hazard limits gathered in lim/oil, or MOVE_ENDED."""
    drift, steady, forced_drift = MV.drift, MV.steady, MV.forced_drift
    T = B[B_T:B_T_END].reshape((RD.MAXSEC, RD.T_W))
    TM = B[B_TM:B_TM_END]
    M = B[B_M:B_M_END].reshape((RD.MAXM, RD.MK_W))
    NM = B[B_NM:B_NM_END]
    K = B[B_K:B_K_END]
    G = _tab1(RU, TB_G)
    d = travel_dir(V, v)
    sec = V[v, V_SEC]
    lane = V[v, V_LANE]
    nsec, nsp = RD.step_space(T, sec, lane, V[v, V_SP], d)
    if d == 0 and nsec >= TM[RD.TM_NSEC]:
        # off the end of the road
        V[v, V_SEC] = nsec
        V[v, V_SP] = 0
        if TM[RD.TM_ENDED] and V[v, V_ROLE] == LEAD or G[G_MODE] != MODE_CONTINUOUS:
            V[v, V_STATUS] = FINISHED
            _log(L, v, EV_FINISH, 0, 0, 0, 0)
        else:
            V[v, V_STATUS] = LEFT
            _log(L, v, EV_LEFT, 0, 0, 0, 0)
        return MOVE_ENDED
    if d == 1 and (nsec < 0 or nsec < TM[RD.TM_FIRST]):
        # off the start of the track: the car drives off the edge and leaves play (p75)
        V[v, V_STATUS] = LEFT
        _log(L, v, EV_LEFT, 2, 0, 0, 0)
        return MOVE_ENDED
    llo, lhi = lanes_of(V, v)
    if llo < 0 or lhi > 5:
        _crash(V, v, CRASH_OFFROAD, L)
        return MOVE_ENDED
    xlo = RD.rear_x(T, nsec, lane, nsp)
    xhi = RD.front_x(T, nsec, lane, nsp)
    olo = ohi = -1
    if V[v, V_DODGE] != 0 and G[G_DODGE_OBST]:
        # a dodging rider squeezes past an obstacle in its other lane (p62: 'Bikes are
        # allowed to dodge around obstacles'; variant dodge_obstacles); vehicles and wrecks
        # it still meets with both lanes (p64)
        olo = ohi = lane + (1 if V[v, V_DODGE] > 0 else 0)
    u = _move_zone_clear(T, M, NM, V, n, v, nsec, llo, lhi, xlo, xhi, olo, ohi)
    while u != HIT_NONE:
        if _ram(st, script, B, V, WS, FIT, v, u, RU, L):
            V[v, V_SHUNTED] = u + 1   # the target moves next, then this move (_take_turn)
        if not _goes_on(V, v, u):   # a car that took a bike out of play goes on (p72)
            return MOVE_ENDED
        # going on into the space, it meets whatever else is there (p52): bikes share lanes
        # (p64), and a car that took one of two out drove on into the other unhit (seeded
        # gang pursues 1172, session 26: the two on one space to a repeated position)
        u = _move_zone_clear(T, M, NM, V, n, v, nsec, llo, lhi, xlo, xhi, olo, ohi)
    V[v, V_SEC] = nsec
    V[v, V_SP] = nsp
    zlo = llo
    zhi = lhi
    moved_drift = False
    if drift != 0:
        nl2 = lane + drift
        curve = T[nsec, RD.T_KIND] != RD.STRAIGHT
        outward = 1 if T[nsec, RD.T_DIR] < 0 else -1
        legal = forced_drift or not curve or drift == outward
        if V[v, V_REV] and not forced_drift and (curve or T[sec, RD.T_KIND] != RD.STRAIGHT):
            legal = False   # no drift while reversing on a curve (p17)
        if legal:
            if nl2 < 0 or nl2 > 4:
                if forced_drift:
                    _crash(V, v, CRASH_OFFROAD, L)
                    return MOVE_ENDED
            else:
                if d == 0:
                    nsp2 = RD.remap_space(T, nsec, lane, nl2, nsp)
                else:
                    nsp2 = _remap_back(T, nsec, lane, nl2, nsp)
                x2lo = RD.rear_x(T, nsec, nl2, nsp2)
                x2hi = RD.front_x(T, nsec, nl2, nsp2)
                u = _move_zone_clear(T, M, NM, V, n, v, nsec, nl2, nl2 + 1, x2lo, x2hi, -1, -1)
                if u == HIT_NONE and not forced_drift:
                    u = _cut_up(T, V, n, v, d, nsec, nsp, lane, nl2, G, L)
                if u == HIT_NONE:
                    V[v, V_LANE] = nl2
                    V[v, V_SP] = nsp2
                    zlo = min(llo, nl2)
                    zhi = max(lhi, nl2 + 1)
                    xlo = min(xlo, x2lo)
                    xhi = max(xhi, x2hi)
                    moved_drift = True
                elif forced_drift:
                    # a skid into another vehicle: treated as a sideswipe-like collision (p58)
                    _ram(st, script, B, V, WS, FIT, v, u, RU, L)
    _log(L, v, EV_MOVE, V[v, V_SEC], V[v, V_LANE], V[v, V_SP], V[v, V_MPH])
    nl = 0
    if T[V[v, V_SEC], RD.T_KIND] != RD.STRAIGHT:
        K[K_LIM + nl] = RD.pair_limit(T, V[v, V_SEC], V[v, V_LANE])
        K[K_OIL + nl] = 0
        nl += 1
    if moved_drift and not forced_drift:
        K[K_LIM + nl] = G[G_L_DRIFT]
        K[K_OIL + nl] = 0
        nl += 1
    if V[v, V_DODGE] != 0:
        zlo = zhi = V[v, V_LANE] + (1 if V[v, V_DODGE] > 0 else 0)   # single-lane zone (p64)
    nl = _markers_hit(st, script, B, V, WS, FIT, v,
                      Zone(zlo, zhi, xlo, xhi, steady and not moved_drift,
                           not moved_drift and (steady or V[v, V_OOC] == IN_CONTROL)), nl, RU, L)
    if V[v, V_STATUS] != ACTIVE:
        return MOVE_ENDED
    return nl


@jit
def _turn_round(V, v, arg, moves, L):
    """p64 Moving Off: 'Bikes which are moving off are allowed to travel in either direction
    ... A bike moving off in a different direction is turned around and aligned against the
    dividing lines at the opposite end of the square. Bikes can only do this when they're
    moving off and aren't accelerating to more than 20mph (such a manoeuvre will effectively
    take up the whole turn).' A bike stationary at the start of phase 1, its engine running and
    upright, turns to face the other way in its own space at the acceleration declared (20mph
    at most): the turn-round is its move (a speed factor of 1 moves in phase 1 only, and this
    is phase 1's). Anywhere else it is no action."""
    if V[v, V_BIKE] == 0 or V[v, V_MPH] != 0 or L.phase != 1 or moves or V[v, V_ENGOFF] \
            or V[v, V_FALLEN] or arg <= 0:
        return
    mph = min(arg, TURN_ROUND_MPH, V[v, V_ACC], V[v, V_MAXSPD])
    if mph <= 0:
        return
    # a rider's backing off (it may not reverse, p64): the driver's memory, as a car's reverse
    remember_backing(V, v)
    V[v, V_DIR] = 1 - V[v, V_DIR]
    V[v, V_MPH] = mph
    _log(L, v, EV_ACTION, A_TURN_ROUND, arg, mph, 0)


@jit
def _move_off_drifting(st, script, B, V, WS, FIT, n, v, AC, RU, L):
    """Moving off with a drift (p15): a vehicle stationary at the start of phase 1 may
    accelerate and drift in the one action, and moves in phase 1 after every other vehicle (the
    phase order puts stationary vehicles last): its speed set to the acceleration, the
    straight-ahead move, then the drift (outwards only on a curve, p13; a hazard over 80mph;
    refused into a vehicle or off the road, as any drift). ``|arg|`` is the acceleration in
    mph, its sign the drift's side. Anywhere else it is no action."""
    arg, moves = AC.arg, AC.moves
    T = B[B_T:B_T_END].reshape((RD.MAXSEC, RD.T_W))
    K = B[B_K:B_K_END]
    G = _tab1(RU, TB_G)
    hp = _tab1(RU, TB_HP)
    if V[v, V_MPH] != 0 or L.phase != 1 or moves or V[v, V_ENGOFF] or arg == 0:
        return
    V[v, V_MPH] = min(abs(arg), V[v, V_ACC], V[v, V_MAXSPD])
    if V[v, V_MPH] <= 0:
        V[v, V_MPH] = 0
        return
    _log(L, v, EV_ACTION, A_OFF_DRIFT, arg, V[v, V_MPH], 0)
    nl = _advance(st, script, B, V, WS, FIT, n, v, Move(1 if arg > 0 else -1, False, False), RU, L)
    if nl == MOVE_ENDED:
        return
    if V[v, V_BIKE]:
        nl = _bike_after_move(st, script, B, V, n, v, A_DRIFT, G, hp, nl, L)
    _after_move(st, script, T, V, v, G, L, K, nl, hp)
    _locked_after_move(st, script, B, V, WS, n, v, A_DRIFT, 0, G, L)


@jit
def _move_off_straight(st, script, B, V, WS, FIT, n, v, arg, RU, L):
    """Moving off (p15): a vehicle stationary at the start of phase 1 that accelerates sets its
    speed and moves straight ahead in phase 1, after every other vehicle (the phase order puts
    stationary vehicles last), as the drift and U-turn moves off do."""
    T = B[B_T:B_T_END].reshape((RD.MAXSEC, RD.T_W))
    K = B[B_K:B_K_END]
    G = _tab1(RU, TB_G)
    hp = _tab1(RU, TB_HP)
    V[v, V_MPH] = min(arg, V[v, V_ACC], V[v, V_MAXSPD])
    if V[v, V_MPH] <= 0:
        V[v, V_MPH] = 0
        return
    _log(L, v, EV_ACTION, A_ACCEL, arg, V[v, V_MPH], 0)
    nl = _advance(st, script, B, V, WS, FIT, n, v, Move(0, False, False), RU, L)
    if nl == MOVE_ENDED:
        return
    if V[v, V_BIKE]:
        nl = _bike_after_move(st, script, B, V, n, v, A_ACCEL, G, hp, nl, L)
    _after_move(st, script, T, V, v, G, L, K, nl, hp)
    _locked_after_move(st, script, B, V, WS, n, v, A_ACCEL, arg, G, L)


@jit
def _after_move(st, script, T, V, v, G, L, K, nl, hp):
    """Coasting without an engine or driver (p34), the tyre/max-speed test, crash on a curve
    with no driver (p58)."""
    nl = _lasting_after_move(st, script, V, v, G, K, nl, L)
    # acceleration zero (p15): no engine or driver: 5mph off after each move
    coasting = V[v, V_ENGOFF] or V[v, V_NODRIVER]
    if coasting:
        V[v, V_MPH] = max(0, V[v, V_MPH] - G[G_COAST])
    above = V[v, V_MPH] > V[v, V_MAXSPD]
    if above and V[v, V_TYRE] and nl < SH.MAX_TESTS:
        # a destroyed tyre: a test against the new maximum at the end of each move still above
        # it (p34)
        K[K_LIM + nl] = max(V[v, V_MAXSPD], 0)
        K[K_OIL + nl] = 0
        nl += 1
    _hazards(st, script, V, v, K, nl, G, hp, L)
    if above and not coasting:
        # left above a reduced maximum speed, the acceleration counts as zero 'until its speed
        # has reached the new limit' (p15-16): 5mph off after the move, as for p15's zero
        # acceleration (after the move's tests)
        V[v, V_MPH] = max(0, V[v, V_MPH] - G[G_COAST])
    if V[v, V_NODRIVER] and T[V[v, V_SEC], RD.T_KIND] != RD.STRAIGHT and V[v, V_STATUS] == ACTIVE:
        _crash(V, v, CRASH_NODRIVER_CURVE, L)


@jit
def _spin(st, script, B, V, WS, FIT, n, v, first, RU, L, rolling):
    """The rotation of a spin (p44); a rotation on a curve, or a four-lane zone off the road,
    is a crash (p44, p58). A vehicle in the rotation's four-lane zone blocks it (p44, p58):
    no roll for rotation, the car is not moved, the collision is a sideswipe, and a car still
    moving after it is still spinning (its direction, if this was to be its first rotation,
    rolled at its next). Returns False when the car crashed."""
    T = B[B_T:B_T_END].reshape((RD.MAXSEC, RD.T_W))
    G = _tab1(RU, TB_G)
    spin_t = _tab2(RU, TB_SPIN)
    if T[V[v, V_SEC], RD.T_KIND] != RD.STRAIGHT:
        _crash(V, v, CRASH_CURVE_SPIN, L)
        return False
    lane = V[v, V_LANE]
    u = zone_hits(T, V, n, v, V[v, V_SEC], lane - 1, lane + 2, v_rear(T, V, v), v_front(T, V, v))
    if u >= 0:
        # p58: 'The rotation of a spinning model may cause it to hit another vehicle. In these
        # cases, there is no need to roll for rotation. The car model isn't actually moved,
        # and the collision is treated as a sideswipe.' (a wreck there is hit by no swipe,
        # _sideswipe takes only active vehicles, but it still blocks the rotation)
        _log(L, v, EV_SPIN, 0, u, 0, V[v, V_MPH])
        if first:
            V[v, V_SPINDIR] = 0
        a, b = lanes_of(V, u)
        _sideswipe(st, script, B, V, WS, FIT, n, v, 1 if a > lane else -1, RU, L)
        if V[v, V_STATUS] == ACTIVE:
            if V[v, V_MPH] > 0 or rolling:
                V[v, V_OOC] = SPINNING
                V[v, V_SKIDDIR] = 0
            else:
                _halted(V, v)
        return True
    sf = speed_factor(V[v, V_MPH], G[G_SPEED_STEP])
    d, rot, ded = H.spin_test(st, script, sf, first, V[v, V_SPINDIR], spin_t)
    V[v, V_SPINDIR] = d
    V[v, V_ATT] = (V[v, V_ATT] + d * rot + 720) % 360
    if not rolling:
        V[v, V_MPH] = max(0, V[v, V_MPH] - ded)
    V[v, V_OOC] = SPINNING
    _log(L, v, EV_SPIN, d, rot, ded, V[v, V_MPH])
    if V[v, V_LANE] - 1 < 0 or V[v, V_LANE] + 2 > 5:
        _crash(V, v, CRASH_OFFROAD, L)
        return False
    if V[v, V_MPH] == 0:
        V[v, V_OOC] = IN_CONTROL
        V[v, V_NEEDALIGN] = 1 if V[v, V_ATT] != 0 else 0
    return True


@jit
def _halted(V, v):
    """A car brought to a halt while skidding or spinning (by a ram, a hit or its own speed
    losses) is no longer out of control: a spin lasts 'until it comes to halt' and a car
    halted at an angle must re-align next (p46)."""
    V[v, V_OOC] = IN_CONTROL
    V[v, V_SKIDDIR] = 0
    V[v, V_NEEDALIGN] = 1 if V[v, V_ATT] != 0 else 0


@jit
def _regain(V, v):
    """The end of a regain-control or skid-and-regain move (p42)."""
    V[v, V_OOC] = OUT_OF_CONTROL if V[v, V_LOSTAGAIN] else IN_CONTROL
    V[v, V_SKIDDIR] = 0
    V[v, V_LOSTAGAIN] = 0
    V[v, V_REGAIN] = 0


@jit
def _shunt_stopped(V, v, nl):
    """The move a shunt stopped, the rammer still in play: it completes the move once its
    target has moved (p56, engine._take_turn)."""
    return nl == MOVE_ENDED and V[v, V_SHUNTED] > 0 and V[v, V_STATUS] == ACTIVE


@jit
def _move_to_complete(V, v, nl):
    """A regaining move a shunt stopped (p56): the target moves first and the rammer then
    completes the move (engine._take_turn), and only then is the move made and control back
    (p42)."""
    return nl == MOVE_ENDED and V[v, V_SHUNTED] > 0 and V[v, V_STATUS] == ACTIVE


@jit
def _roll_over(st, script, B, V, WS, FIT, v, RU, L, blocked):
    """A car's roll (p46): one hit per current speed factor, each at +speed factor, criticals
    on the roof (the spin template's speed reductions ignored); then speed 0 and a wreck.
    ``blocked``: a stage of the move ran into a vehicle and the car rolls where it stood (p58);
    its speed is the one the collision left it (a head-on halts it: no hits)."""
    sf = speed_factor(V[v, V_MPH], _tab1(RU, TB_G)[G_SPEED_STEP])
    _log(L, v, EV_ROLL, sf, 0, 1 if blocked else 0, 0)
    _speed_hits(st, script, B, V, WS, FIT, v, sf, _auto_hit(sf, 4, SRC_ROLL), RU, L)
    V[v, V_MPH] = 0
    V[v, V_STATUS] = WRECK
    _log(L, v, EV_WRECK, 0, 0, 0, 0)


@jit
def _out_of_control_move(st, script, B, V, WS, FIT, n, v, RU, L):
    """The control-loss test and its compulsory move (p42-46); a bike's (p70) rolls on the
    bike table (no spins), rolls automatically with no rider (p69), crashes without moving on a
    roll at 81mph+, and on a roll at 80mph or less makes the skid test and the move, takes speed
    factor -2 hits and road damage, and halts, fallen."""
    T = B[B_T:B_T_END].reshape((RD.MAXSEC, RD.T_W))
    K = B[B_K:B_K_END]
    G = _tab1(RU, TB_G)
    hp = _tab1(RU, TB_HP)
    cl_lows = _tab1(RU, TB_CL_LOWS)
    cl_codes = _tab1(RU, TB_CL_CODES)
    bike = V[v, V_BIKE] != 0
    step = G[G_SPEED_STEP]
    V[v, V_LOSTAGAIN] = 0
    V[v, V_REGAIN] = 0
    V[v, V_CDRIFT] = 0
    V[v, V_CSPIN] = 0
    if not bike and V[v, V_OOC] == SPINNING:
        nl = _advance(st, script, B, V, WS, FIT, n, v, Move(0, False, False), RU, L)
        if nl == MOVE_ENDED or V[v, V_STATUS] != ACTIVE:
            return
        if V[v, V_MPH] > 0:
            # a spin whose first rotation a collision stopped rolls its direction now (p44)
            _spin(st, script, B, V, WS, FIT, n, v, V[v, V_SPINDIR] == 0, RU, L, False)
        _after_spinning_move(st, script, V, v, G, L)
        return
    sf = speed_factor(V[v, V_MPH], step)
    if bike and (V[v, V_NODRIVER] or V[v, V_WHEELOFF]):
        res = ROLL_CODE
        _log(L, v, EV_CONTROL, res, sf, 0, 0)
    else:
        adverse = min(V[v, V_HAND], V[v, V_SKILL])
        pen = G[G_PENALTY] if _no_control(V, v) else 0
        if bike:
            nb = G[G_BCL_N]
            res = H.control_loss_test(st, script, sf, adverse, pen, hp[HP_BCL:HP_BCL + nb],
                                      hp[HP_BCL_CODES:HP_BCL_CODES + nb])
        else:
            res = H.control_loss_test(st, script, sf, adverse, pen, cl_lows, cl_codes)
        _log(L, v, EV_CONTROL, res, sf, adverse, pen)
    if res == 0:
        V[v, V_REGAIN] = REGAIN_PLAIN
        nl = _advance(st, script, B, V, WS, FIT, n, v, Move(0, True, False), RU, L)
        if _move_to_complete(V, v, nl):
            return
        # p42: control comes back once the move is made, ending the loss this test was for; a
        # loss the move itself caused (a bike-to-bike shunt, p70; a lost hazard roll) stands
        _regain(V, v)
        if nl != MOVE_ENDED:
            _after_move(st, script, T, V, v, G, L, K, nl, hp)
        return
    if bike and res == ROLL_CODE and V[v, V_MPH] >= G[G_BIKE_CRASH]:
        # no forward move; others are not affected (p70)
        _bike_crash(st, script, B, V, WS, FIT, v, CRASH_BIKE_ROLL, RU, L, True)
        return
    # skid first (skid_regain, skid_out, spin, roll)
    on_curve = T[V[v, V_SEC], RD.T_KIND] != RD.STRAIGHT
    if V[v, V_SKIDDIR] != 0:
        drift, ddir, loss = 1, V[v, V_SKIDDIR], G[G_SKID_D]   # after a sideswipe (p57)
    else:
        drift, ddir, loss = H.skid_test(st, script, on_curve, G[G_SKID_S], G[G_SKID_D])
    if ddir == 2:
        ddir = 1 if T[V[v, V_SEC], RD.T_DIR] < 0 else -1   # outwards
    _log(L, v, EV_SKID, drift, ddir, loss, 0)
    if res == 1:
        V[v, V_REGAIN] = REGAIN_SKID
    lane0 = V[v, V_LANE]
    nl = _advance(st, script, B, V, WS, FIT, n, v, Move(ddir if drift else 0, False, drift == 1),
                  RU, L)
    V[v, V_MPH] = max(0, V[v, V_MPH] - loss)
    if not bike and res == 4 and V[v, V_STATUS] == ACTIVE \
            and (nl == MOVE_ENDED or (drift == 1 and V[v, V_LANE] == lane0)):
        # p58: 'Vehicles which are rolling may have one of the four stages of their move
        # blocked by another vehicle - in which case take as many of the stages as possible,
        # and work out the collision at that speed. The car then rolls and comes to a halt.'
        # The forward move or the drift skid ran into a vehicle (a move still going ends where
        # it stood; a blocked drift leaves the car in its lanes): no rotation, the roll there.
        # A shunted target still takes its move (p56); the wreck completes nothing.
        _roll_over(st, script, B, V, WS, FIT, v, RU, L, True)
        return
    if not bike and res == 3 and V[v, V_STATUS] == ACTIVE and nl != MOVE_ENDED \
            and drift == 1 and V[v, V_LANE] == lane0:
        # p57: 'forward moves, drift skids and spins, in that order ... if a collision will
        # occur, the move comes to an end': the drift skid ran into a vehicle or an obstacle,
        # so there is no rotation this move. The result was a spin (p42: 'Once a vehicle
        # starts spinning it stays out of control and automatically spins in every subsequent
        # move until it comes to halt'): still moving, it spins from its next move, rolling
        # its direction then, as a car whose rotation was blocked (p58)
        if V[v, V_MPH] > 0:
            V[v, V_OOC] = SPINNING
            V[v, V_SPINDIR] = 0
        else:
            _halted(V, v)
        return
    if not bike and res <= 3 and _shunt_stopped(V, v, nl):
        # the skid's drift and a spin come after the straight-ahead part a shunt stopped: they
        # are made once the rammer completes it (p58, engine._complete_move)
        V[v, V_CDRIFT] = ddir if drift else 0
        V[v, V_CSPIN] = 1 if res == 3 else 0
    if res == 1 and _move_to_complete(V, v, nl):
        return
    if nl == MOVE_ENDED or V[v, V_STATUS] != ACTIVE:
        if res == 1 and V[v, V_STATUS] == ACTIVE:
            # a move a collision ended is made: control comes back (p42, p52)
            _regain(V, v)
        return
    if res == 1:
        _regain(V, v)
    elif bike:
        if res == ROLL_CODE:
            sf_now = speed_factor(V[v, V_MPH], step)
            hits = max(0, sf_now - G[G_ROLL_LESS])
            _log(L, v, EV_BIKEROLL, hits, hits, V[v, V_MPH], sf_now)
            _bike_hits(st, script, B, V, WS, FIT, v, hits, RU, L, SRC_ROLL)
            if V[v, V_STATUS] == ACTIVE:
                _road_damage(st, script, V, v, sf_now, RU, L)
            _bike_down(V, v, L)
            return
    elif res >= 3:
        rolling = res == 4
        if not _spin(st, script, B, V, WS, FIT, n, v, True, RU, L, rolling):
            return
        if rolling:
            _roll_over(st, script, B, V, WS, FIT, v, RU, L, False)
            return
    if V[v, V_STATUS] == ACTIVE and (bike or V[v, V_OOC] != SPINNING):
        _after_move(st, script, T, V, v, G, L, K, 0, hp)
    else:
        _after_spinning_move(st, script, V, v, G, L)


@jit
def _drop_marker(st, script, B, V, WS, n, v, w, bsec, bsp, L):
    """Weapon ``w``'s marker in space (bsec, bsp) on the car's two lanes, whichever way it faces;
    laid under a car it fails on an odd d6 (tail-gating, p24), smoke excepted."""
    lane = V[v, V_LANE]
    T = B[B_T:B_T_END].reshape((RD.MAXSEC, RD.T_W))
    M = B[B_M:B_M_END].reshape((RD.MAXM, RD.MK_W))
    NM = B[B_NM:B_NM_END]
    xlo = RD.rear_x(T, bsec, lane, bsp)
    xhi = RD.front_x(T, bsec, lane, bsp)
    kind = WS[v, w, W_PTYPE]
    WS[v, w, W_AMMO] -= 1
    under = zone_hits(T, V, n, v, bsec, lane, lane + 1, xlo, xhi)
    if under >= 0 and kind != RD.SMOKE:
        if dice.roll(st, script, 1, 6) % 2 == 1:
            _log(L, v, EV_PASSIVE, kind, -1, under, 0)
            return
    i = RD._add_marker(M, NM, kind, bsec, lane, lane + 1, xlo, xhi, 1 if kind == RD.SMOKE else 0, v)
    if i >= 0 and under >= 0 and kind != RD.SMOKE:
        M[i, RD.MK_UNDER] = under
    _log(L, v, EV_PASSIVE, kind, i, under, 0)


@jit
def _lay_passive(st, script, B, V, WS, n, v, w, L):
    """Drop a passive marker in the two lanes behind the car (p23-24); tail-gating (p24)."""
    T = B[B_T:B_T_END].reshape((RD.MAXSEC, RD.T_W))
    TM = B[B_TM:B_TM_END]
    if V[v, V_DIR] != 0:
        _lay_passive_back(st, script, B, V, WS, n, v, w, L)
        return
    sec = V[v, V_SEC]
    lane = V[v, V_LANE]
    sp = V[v, V_SP]
    if sp > 0:
        bsec, bsp = sec, sp - 1
    else:
        bsec = sec - 1
        if bsec < TM[RD.TM_FIRST]:
            return   # nothing behind: the marker would be off the table
        bsp = RD.pair_spaces(T, bsec, lane) - 1
    _drop_marker(st, script, B, V, WS, n, v, w, bsec, bsp, L)


@jit
def _fire(st, script, B, V, WS, FIT, n, v, w, RU, L):
    T = B[B_T:B_T_END].reshape((RD.MAXSEC, RD.T_W))
    M = B[B_M:B_M_END].reshape((RD.MAXM, RD.MK_W))
    NM = B[B_NM:B_NM_END]
    K = B[B_K:B_K_END]
    tbuf = K[K_TBUF:K_TBUF_END]
    mount = WS[v, w, W_MOUNT]
    u = find_target(T, V, n, v, mount, tbuf)
    if u < 0:
        return
    if WS[v, w, W_AMMO] > 0:
        WS[v, w, W_AMMO] -= 1
    if WS[v, w, W_LASER]:
        WS[v, w, W_FIRED] = 1
    rng = tbuf[1]
    in_range = rng <= WS[v, w, W_RANGE]
    # the tactical factors from the cells and the function the drivers price the shot with
    # (hp's driver block, filled from G's tactical-factor cells by the scenario)
    tf = _tab1(RU, TB_HP)[HP_TF:HP_TF + TF_W]
    mod = hit_modifier(T, V, M, NM, v, u, mount, WS[v, w, W_ACC], tbuf, tf, 0)
    facing = hit_facing(T, V, v, u, tbuf[2])
    if not in_range:
        _log(L, v, EV_SHOT, u, w, rng, -1)
        return
    hit = _take_hit(st, script, B, V, WS, FIT, u,
                    Hit(WS[v, w, W_DMG], WS[v, w, W_HE], facing, False,
                        min(rng, tf[TF_RANGE_CAP]), mod, WS[v, w, W_FLAT], v), RU, L)
    _log(L, v, EV_SHOT, u, w, rng, 1 if hit else 0)


@jit
def _sideswipe(st, script, B, V, WS, FIT, n, v, d, RU, L):
    """A neck-and-neck sideswipe after a straight move (p54-57)."""
    T = B[B_T:B_T_END].reshape((RD.MAXSEC, RD.T_W))
    K = B[B_K:B_K_END]
    G = _tab1(RU, TB_G)
    hp = _tab1(RU, TB_HP)
    if V[v, V_BIKE]:
        _bike_sideswipe(st, script, B, V, WS, FIT, n, v, d, RU, L)
        return
    lane = V[v, V_LANE]
    xlo = v_rear(T, V, v)
    xhi = v_front(T, V, v)
    tgt = -1
    for u in range(n):
        if u == v or V[u, V_STATUS] != ACTIVE:
            continue
        a, b = lanes_of(V, u)
        if not (v_rear(T, V, u) < xhi and xlo < v_front(T, V, u)):
            continue
        if (d > 0 and a == lane + 2) or (d < 0 and b == lane - 1):
            tgt = u
            break
    if tgt < 0:
        return
    u = tgt
    if V[u, V_DIR] != V[v, V_DIR] or V[u, V_MPH] == 0:
        _sideswipe_opposed(st, script, B, V, WS, FIT, v, u, d, RU, L)
        return
    sv = dice.roll(st, script, 1, 6) + G[G_RAM_BONUS] + (
        max(V[v, V_HAND], V[v, V_SKILL]) if V[v, V_OOC] == IN_CONTROL else min(V[v, V_HAND], V[v, V_SKILL]))
    su = dice.roll(st, script, 1, 6) + (
        max(V[u, V_HAND], V[u, V_SKILL]) if V[u, V_OOC] == IN_CONTROL else min(V[u, V_HAND], V[u, V_SKILL]))
    step = G[G_SPEED_STEP]
    rel = abs(speed_factor(V[v, V_MPH], step) - speed_factor(V[u, V_MPH], step))
    winner = v if sv > su else (u if su > sv else -1)
    if V[u, V_BIKE] and not V[v, V_BIKE]:
        winner = v   # a bike taking a sideswipe test against a car loses (p72)
    _log(L, v, EV_SWIPE, u, sv, su, winner)
    if winner != v:
        _take_hit(st, script, B, V, WS, FIT, v, _auto_hit(rel, 2, u), RU, L)
    if winner != u:
        _take_hit(st, script, B, V, WS, FIT, u, _auto_hit(rel, 2, v), RU, L)
    V[v, V_MPH] = max(0, V[v, V_MPH] - G[G_SS_LOSS])
    V[u, V_MPH] = max(0, V[u, V_MPH] - G[G_SS_LOSS])
    for k in range(2):
        x = v if k == 0 else u
        if winner == x:
            continue
        K[K_LIM] = G[G_L_SS_NN]
        K[K_OIL] = _rflag(V, x)
        was = V[x, V_OOC]
        _hazards(st, script, V, x, K, 1, G, hp, L)
        if was == IN_CONTROL and V[x, V_OOC] != IN_CONTROL:
            # the loser skids away from the car that hit it (p57)
            V[x, V_SKIDDIR] = d if x == u else -d


@jit
def _act(st, script, B, V, WS, FIT, n, v, RU, L):
    T = B[B_T:B_T_END].reshape((RD.MAXSEC, RD.T_W))
    K = B[B_K:B_K_END]
    G = _tab1(RU, TB_G)
    hp = _tab1(RU, TB_HP)
    POL = _tab2(RU, TB_POL)
    turn = L.turn
    phase = L.phase
    step = G[G_SPEED_STEP]
    # a shunted target told to take its move whatever its speed factor (G_SHUNT_MOVE = 1)
    forced = V[v, V_SHUNTED] == SHUNTED_FORCED and V[v, V_MPH] > 0
    V[v, V_SHUNTED] = 0
    decl = V[v, V_DECL]   # declared ahead, moving off with others (_moving_off)
    V[v, V_DECL] = 0
    moves = speed_factor(V[v, V_MPH], step) >= phase or forced
    V[v, V_STAMP] = turn * 8 + phase
    if V[v, V_BIKE] and _bike_act_start(st, script, B, V, WS, FIT, n, v, moves, RU, L):
        return
    if _no_control(V, v) and V[v, V_OOC] == IN_CONTROL and V[v, V_MPH] > 0:
        _lose_control(V, v)
    if V[v, V_OOC] != IN_CONTROL and V[v, V_MPH] == 0:
        # bikes too (they do not spin, so never re-align): a Game Eight bike halted by a
        # sideswipe while skidding stayed out of control for the rest of the game
        _halted(V, v)
    if V[v, V_OOC] != IN_CONTROL:
        if moves:
            _out_of_control_move(st, script, B, V, WS, FIT, n, v, RU, L)
            _locked_after_move(st, script, B, V, WS, n, v, A_NONE, 0, G, L)
        return
    if V[v, V_PANIC] or V[v, V_NODRIVER]:
        act, arg = A_NONE, 0
    elif V[v, V_NEEDALIGN]:
        act, arg = A_REALIGN, 0
    elif decl > 0:
        act, arg = decl - 1, V[v, V_DECLARG]
    else:
        # the drivers' equal choices are dice rolls (policies._pick), drawn only on a tie
        act, arg = decide(B, T, V, WS, n, v, moves, hp, POL[v], st, script)
        if V[v, V_BIKE]:
            act, arg = bike_decide(B, T, V, WS, n, v, moves, hp, POL[v], act, arg, st, script)
    if act == A_UTURN or act == A_REVERSE:
        _act_dir(st, script, B, V, WS, FIT, n, v, Action(act, arg, moves), RU, L)
        return
    if act == A_OFF_DRIFT:
        _move_off_drifting(st, script, B, V, WS, FIT, n, v, Action(A_OFF_DRIFT, arg, moves), RU, L)
        return
    if act == A_TURN_ROUND:
        _turn_round(V, v, arg, moves, L)
        return
    if not moves and act != A_SHOOT and not (act == A_PASSIVE and WS[v, arg, W_PTYPE] == RD.SMOKE):
        if act == A_ACCEL and V[v, V_MPH] == 0 and not V[v, V_ENGOFF]:
            # p15: only a vehicle stationary at the start of phase 1 may accelerate without
            # moving fast enough for the phase, and it moves at once; later in the turn a
            # stopped vehicle may only shoot
            if phase == 1:
                _move_off_straight(st, script, B, V, WS, FIT, n, v, arg, RU, L)
        elif act == A_REALIGN:
            V[v, V_NEEDALIGN] = 0
            V[v, V_ATT] = 0
            V[v, V_MPH] = min(G[G_REALIGN], V[v, V_ACC])
            _log(L, v, EV_ACTION, A_REALIGN, 0, V[v, V_MPH], 0)
        return
    if act != A_NONE:
        _log(L, v, EV_ACTION, act, arg, V[v, V_MPH], 0)
    if moves:
        drift = arg if act == A_DRIFT else 0
        if act == A_DODGE:
            V[v, V_DODGE] = arg
        nl = _advance(st, script, B, V, WS, FIT, n, v,
                      Move(drift, act == A_NONE or act >= A_SHOOT, False), RU, L)
        if nl == MOVE_ENDED:
            return
        if V[v, V_BIKE]:
            nl = _bike_after_move(st, script, B, V, n, v, act, G, hp, nl, L)
        if act == A_ACCEL and not V[v, V_ENGOFF] and V[v, V_MPH] < V[v, V_MAXSPD]:
            # above a reduced maximum the acceleration counts as zero (p15-16)
            V[v, V_MPH] = min(V[v, V_MPH] + min(arg, V[v, V_ACC]), max(V[v, V_MAXSPD], 0))
        elif act == A_BRAKE:
            b = min(arg, V[v, V_BRKLEFT], V[v, V_MPH])
            V[v, V_MPH] -= b
            V[v, V_BRKLEFT] -= b
        _after_move(st, script, T, V, v, G, L, K, nl, hp)
        _locked_after_move(st, script, B, V, WS, n, v, act, arg, G, L)
        if V[v, V_STATUS] != ACTIVE or V[v, V_OOC] != IN_CONTROL or V[v, V_PANIC]:
            return
    if act == A_SHOOT:
        _shoot(st, script, B, V, WS, FIT, n, v, arg, RU, L)
    elif act == A_PASSIVE and WS[v, arg, W_AMMO] != 0 and WS[v, arg, W_OFF] == 0 \
            and _weapon_works(st, script, WS, v, arg, G, L):
        _lay_passive(st, script, B, V, WS, n, v, arg, L)
    elif act == A_LOCK and arg >= 0 and moves:
        _lock_on(st, script, B, V, WS, n, v, arg, G, L)
    elif act == A_DUMMY and moves:
        _lay_dummy(st, script, B, V, WS, n, v, arg, G, L)
    elif act == A_SWIPE and moves:
        _sideswipe(st, script, B, V, WS, FIT, n, v, arg, RU, L)


@jit
def _after_turn(st, script, B, V, WS, n, v, RU, L):
    _wreck_if_needed(V, v, L)
    if _tab1(RU, TB_G)[G_MODE] == MODE_CONTINUOUS:
        _extend_track(st, script, B, V, WS, n, RU, L)


@jit
def _complete_move(st, script, B, V, WS, FIT, n, v, u, RU, L):
    """The rammer ``v`` completes the straight-ahead move a shunt of ``u`` interrupted, once
    the target has taken its move (p56): no action (p52: none in the phase of a ram), so no
    drift, speed change, shot or dodge; the move's hazards, markers and a collision as in any
    move (p56: 'If either vehicle's move results in another collision see p52'). A skidding or
    spinning rammer 'simply completes the straight-ahead move, then tests for the skid and/or
    the spin' (p58): the drift skid rolled before the move (p43) and the spin's rotation (p44)
    follow the straight-ahead part (``V_CDRIFT``, ``V_CSPIN``). A car already spinning never
    shunts (its collisions are head-on, :func:`_ram`, p57), so the spin here is a first one."""
    T = B[B_T:B_T_END].reshape((RD.MAXSEC, RD.T_W))
    K = B[B_K:B_K_END]
    G = _tab1(RU, TB_G)
    hp = _tab1(RU, TB_HP)
    _log(L, v, EV_SHUNTMOVE, 1, u, V[v, V_MPH], 0)
    V[v, V_DODGE] = 0
    drift = V[v, V_CDRIFT]
    spin = V[v, V_CSPIN]
    V[v, V_CDRIFT] = 0
    V[v, V_CSPIN] = 0
    nl = _advance(st, script, B, V, WS, FIT, n, v, Move(drift, True, drift != 0), RU, L)
    if nl == MOVE_ENDED:
        return
    if V[v, V_BIKE]:
        nl = _bike_after_move(st, script, B, V, n, v, A_NONE, G, hp, nl, L)
    if spin != 0:
        # a spinning car's move takes no hazard roll after its rotation, as in
        # _out_of_control_move
        if _spin(st, script, B, V, WS, FIT, n, v, True, RU, L, False) \
                and V[v, V_OOC] != SPINNING:
            _after_move(st, script, T, V, v, G, L, K, 0, hp)
        else:
            _after_spinning_move(st, script, V, v, G, L)
        _locked_after_move(st, script, B, V, WS, n, v, A_NONE, 0, G, L)
        return
    _after_move(st, script, T, V, v, G, L, K, nl, hp)
    _locked_after_move(st, script, B, V, WS, n, v, A_NONE, 0, G, L)


@jit
def _take_turn(st, script, B, V, WS, FIT, n, v, RU, L):
    """Vehicle ``v``'s part of the phase (:func:`_act`), then the moves its collisions set
    going (p56 Moving After a Shunt Ram; p72 for bikes): the shunted target takes its move at
    once (its driver declares an action, or makes the control-loss test when out of control),
    then the rammer completes its own with no action (:func:`_complete_move`). A collision in
    either move is resolved as usual and may set another target moving first.

    A target that has already taken its part of this phase does not move again (one move and
    one action a phase, p11-12): the rammer's move then ends where it stood, as it would run
    into the same car again. Under the default reading (``G_SHUNT_MOVE`` 0) the target and the
    rammer move only when their speed factors after the shunt reach the phase (p12, the
    current speed factor); a target too slow still takes its action now (a shot, p9).

    The chain needs no cap: a rammer waits only on a target taking its first part of the
    phase, so at most ``n`` moves wait at once and each is completed at most once (the assert
    checks the bound)."""
    G = _tab1(RU, TB_G)
    now = L.turn * 8 + L.phase
    _act(st, script, B, V, WS, FIT, n, v, RU, L)
    _after_turn(st, script, B, V, WS, n, v, RU, L)
    if V[v, V_SHUNTED] <= 0:
        V[v, V_SHUNTED] = 0
        return
    wait = np.empty(2 * n, np.int64)   # (rammer, target) pairs, the latest last
    top = 0
    x = v
    while True:
        u = V[x, V_SHUNTED] - 1
        V[x, V_SHUNTED] = 0
        if u >= 0 and V[u, V_STATUS] == ACTIVE and V[u, V_STAMP] != now:
            assert top < n
            wait[2 * top] = x
            wait[2 * top + 1] = u
            top += 1
            _log(L, u, EV_SHUNTMOVE, 0, x, V[u, V_MPH], 0)
            if G[G_SHUNT_MOVE] == 1:
                V[u, V_SHUNTED] = SHUNTED_FORCED
            _act(st, script, B, V, WS, FIT, n, u, RU, L)
            _after_turn(st, script, B, V, WS, n, u, RU, L)
            x = u
            continue
        if V[x, V_REGAIN]:
            _regain(V, x)   # a regaining move that ends where it stood is made (p42, p56)
        x = -1
        while top > 0 and x < 0:
            top -= 1
            r = wait[2 * top]
            if V[r, V_STATUS] == ACTIVE and V[r, V_MPH] > 0 and (
                    G[G_SHUNT_MOVE] == 1
                    or speed_factor(V[r, V_MPH], G[G_SPEED_STEP]) >= L.phase):
                _complete_move(st, script, B, V, WS, FIT, n, r, wait[2 * top + 1], RU, L)
                if V[r, V_REGAIN]:
                    _regain(V, r)   # the regaining move is made (p42)
                _after_turn(st, script, B, V, WS, n, r, RU, L)
                x = r
            else:
                V[r, V_CDRIFT] = 0  # its move ends where it stood: made as far as it goes
                V[r, V_CSPIN] = 0
                if V[r, V_REGAIN]:
                    _regain(V, r)
        if x < 0:
            return


@jit
def _moving_off(st, script, B, V, WS, n, order, lo, hi, RU, L):
    """p15: vehicles stationary at the start of phase 1 move after all others, and 'when there
    are 2 or more vehicles moving off together, the one which is accelerating the most moves
    first'. When the phase reaches them (``order[lo:hi]``), every driver among them who will be
    asked for an action (in control, no panic, a driver, aligned; a bike upright and not
    pushed) declares it now, before any of them moves, and ``order[lo:hi]`` is re-ordered by
    the speed each moves off at: an accelerate, drift or U-turn move-off's speed (the
    acceleration, within the car's characteristics), a reverse's 10mph (p17: 'assumed to be
    travelling at 10mph'); vehicles not moving off count 0. Ties keep the phase order (the
    one in front first). :func:`_act` then takes the declared action. With fewer than two
    declarations nothing is asked early, so the dice fall as before."""
    T = B[B_T:B_T_END].reshape((RD.MAXSEC, RD.T_W))
    G = _tab1(RU, TB_G)
    hp = _tab1(RU, TB_HP)
    POL = _tab2(RU, TB_POL)
    now = L.turn * 8 + L.phase
    asked = 0
    for i in range(lo, hi):
        v = order[i]
        if _declares_moving_off(V, v, now) or (
                V[v, V_STATUS] == ACTIVE and V[v, V_MPH] == 0 and V[v, V_STAMP] != now
                and V[v, V_OOC] != IN_CONTROL):
            asked += 1
    if asked < 2:
        return
    key = np.zeros(hi - lo, np.int64)
    for i in range(lo, hi):
        v = order[i]
        if V[v, V_STATUS] == ACTIVE and V[v, V_MPH] == 0 and V[v, V_STAMP] != now \
                and V[v, V_OOC] != IN_CONTROL:
            _halted(V, v)   # as _act would first: stopped, the control loss is over (p46)
        if not _declares_moving_off(V, v, now):
            continue
        if V[v, V_BIKE]:
            V[v, V_DODGE] = 0   # as _bike_act_start would first: last phase's dodge is over
        act, arg = decide(B, T, V, WS, n, v, False, hp, POL[v], st, script)
        if V[v, V_BIKE]:
            act, arg = bike_decide(B, T, V, WS, n, v, False, hp, POL[v], act, arg, st, script)
        V[v, V_DECL] = act + 1
        V[v, V_DECLARG] = arg
        cap = 0 if V[v, V_ENGOFF] else min(V[v, V_ACC], V[v, V_MAXSPD])
        if act == A_ACCEL or act == A_OFF_DRIFT or act == A_TURN_ROUND \
                or (act == A_UTURN and arg > 0):
            key[i - lo] = max(0, min(abs(arg), cap))
        elif act == A_REVERSE and cap > 0:
            key[i - lo] = G[G_REV_MPH]
    # a stable insertion sort, the fastest start first
    for i in range(lo + 1, hi):
        x = order[i]
        kx = key[i - lo]
        j = i - 1
        while j >= lo and key[j - lo] < kx:
            order[j + 1] = order[j]
            key[j + 1 - lo] = key[j - lo]
            j -= 1
        order[j + 1] = x
        key[j + 1 - lo] = kx


@jit
def _declares_moving_off(V, v, now):
    """Will ``v``, stationary at the start of phase 1, be asked for an action by _act?"""
    return (V[v, V_STATUS] == ACTIVE and V[v, V_MPH] == 0 and V[v, V_STAMP] != now
            and V[v, V_OOC] == IN_CONTROL and not V[v, V_PANIC] and not V[v, V_NODRIVER]
            and not V[v, V_NEEDALIGN] and not _no_control(V, v)
            and not (V[v, V_BIKE] and (V[v, V_FALLEN] or V[v, V_PUSH])))


@jit
def _is_out(V, v):
    """Out of the fight: off the road, wrecked, or stopped for good (p34-35, p40, Game Six).
    A driver whose skill fell to zero is unconscious for the rest of the game (p50) and a car
    whose maximum speed fell to zero cannot move off (p16): stopped, neither moves again (the
    drivers knew it, policies._move_off; the engine did not, and seeded Game One trial 208
    waited for it to the turn limit)."""
    if V[v, V_STATUS] != ACTIVE:
        return True
    if V[v, V_BIKE] and V[v, V_MPH] == 0 and _bike_can_push(V, v):
        return False   # its rider may push it or abandon it at the next turn's start (p69)
    if V[v, V_MPH] == 0 and (V[v, V_ENGOFF] or V[v, V_NODRIVER] or V[v, V_HAND] <= 0
                             or V[v, V_TERMINAL] or V[v, V_AXLE] or V[v, V_ACC] <= 0
                             or V[v, V_SKILL] <= 0 or V[v, V_MAXSPD] <= 0):
        return True
    return False


@jit
def _leaves_with_track(V, WS, u, L):
    """A vehicle on a section removed from the track leaves play (p75); a wreck, or one stopped
    for good without weapons, was taken out first (p88) and is remembered so (V_LEFTOUT)."""
    if V[u, V_STATUS] == WRECK:
        V[u, V_LEFTOUT] = 1
    else:
        V[u, V_LEFTOUT] = 2 if _taken_out(V, WS, u) else 0
        _log(L, u, EV_LEFT, 1, 0, 0, 0)
    V[u, V_STATUS] = LEFT


@jit
def _extend_track(st, script, B, V, WS, n, RU, L):
    """Continuous generation (p75) for the lead vehicle; removes the back section past the
    window with the cars and markers on it."""
    T = B[B_T:B_T_END].reshape((RD.MAXSEC, RD.T_W))
    TM = B[B_TM:B_TM_END]
    M = B[B_M:B_M_END].reshape((RD.MAXM, RD.MK_W))
    NM = B[B_NM:B_NM_END]
    G = _tab1(RU, TB_G)
    curves = _tab3(RU, TB_CURVES)
    box = _tab1(RU, TB_BOX)
    if _play_direction(st, script, T, TM, V, n, G, L) != 0:
        _extend_track_back(st, script, B, V, WS, n, RU, L)
        return
    lead = -1
    best = -1
    for v in range(n):
        if V[v, V_STATUS] == ACTIVE and V[v, V_DIR] == 0:
            x = v_front(T, V, v)
            if x > best:
                best = x
                lead = v
    if lead < 0:
        return
    while RD.sight_needs_more(T, TM, V[lead, V_SEC], G[G_SIGHT]):
        if TM[RD.TM_NSEC] - TM[RD.TM_FIRST] >= G[G_WINDOW]:
            RD.remove_back(T, TM)
            gone = TM[RD.TM_FIRST] - 1
            for u in range(n):
                if on_road(V, u) and V[u, V_SEC] <= gone:
                    _leaves_with_track(V, WS, u, L)
            for i in range(NM[0]):
                if M[i, RD.MK_SEC] <= gone:
                    M[i, RD.MK_ACTIVE] = 0
        if not RD.gen_section(st, script, T, TM, curves, box):
            break
        s = TM[RD.TM_NSEC] - 1
        _log(L, -1, EV_TRACK, s, T[s, RD.T_KIND], T[s, RD.T_DIR], 0)
        if G[G_HAZARDS]:
            k0 = NM[0]
            RD.road_hazards(st, script, T, TM, M, NM, s, 0)
            for i in range(k0, NM[0]):
                _log(L, -1, EV_ROADHAZ, M[i, RD.MK_KIND], s, M[i, RD.MK_LLO], 0)


# --- one game -------------------------------------------------------------------------------------
@jit
def _order(st, script, T, V, n, order):
    """Phase order (p12): descending mph; the one in front first; neck and neck, a d6 each and
    the lower moves first (re-rolled on a tie)."""
    k = 0
    for v in range(n):
        if V[v, V_STATUS] == ACTIVE:
            order[k] = v
            k += 1
    for i in range(1, k):
        x = order[i]
        j = i - 1
        while j >= 0:
            y = order[j]
            if V[y, V_MPH] > V[x, V_MPH]:
                break
            if V[y, V_MPH] == V[x, V_MPH]:
                fy = ahead_key(T, V, y)
                fx = ahead_key(T, V, x)
                # travelling in different directions: a d6 each, like neck and neck (p12)
                opp = V[y, V_DIR] != V[x, V_DIR]
                if fy > fx and not opp:
                    break
                if (fy == fx or opp) and V[x, V_MPH] > 0:
                    a = dice.roll(st, script, 1, 6)
                    b = dice.roll(st, script, 1, 6)
                    while a == b:
                        a = dice.roll(st, script, 1, 6)
                        b = dice.roll(st, script, 1, 6)
                    if a < b:   # y (already ahead in the order) rolled lower: it moves first
                        break
                elif fy == fx or opp:
                    break
            order[j + 1] = y
            j -= 1
        order[j + 1] = x
    return k


@jit
def _side_out(V, n, side):
    for v in range(n):
        if V[v, V_SIDE] == side and not _is_out(V, v):
            return False
    return True


@jit
def _taken_out(V, WS, v):
    """Game Six (p88): wrecked, crashed, or immobilised *without weapons* (a stopped car that
    can still shoot stays in the game). Vehicles that left play are not counted here."""
    if V[v, V_STATUS] == WRECK or V[v, V_STATUS] == CRASHED:
        return True
    return V[v, V_STATUS] == ACTIVE and _is_out(V, v) and not armed(V, WS, v)


@jit
def _beaten(V, WS, n, side):
    """Game Six: every vehicle of the side wrecked, crashed, immobilised without weapons, or
    gone from the table (outdistanced off the back of the stretch, p75)."""
    for v in range(n):
        if V[v, V_SIDE] == side and V[v, V_STATUS] == ACTIVE and not _taken_out(V, WS, v):
            return False
    return True


@jit
def _gangs_verdict(V, WS, n, res, target):
    """Game Seven, gang against gang (p89): 'the attacker may only claim a victory if the
    entire target gang is taken out. The target gang win by managing to get all its vehicles
    safely out of play and/or taking out or outdistancing the attackers.' A target vehicle
    that left play is safe, not taken out; the game ends when either side has nothing left in
    play. Target vehicles partly escaped and partly taken out, with attackers still in play: a
    draw (neither claim is met)."""
    attacker = 1 - target
    t_play = False
    a_play = False
    t_left = 0
    t_taken = 0
    for v in range(n):
        st = V[v, V_STATUS]
        # a wreck or a hulk removed with the track was taken out, not got away
        gone = (st == LEFT and V[v, V_LEFTOUT] == 0) or st == FINISHED
        if V[v, V_SIDE] == target:
            if gone:
                t_left += 1
            elif _taken_out(V, WS, v) or st != ACTIVE:
                t_taken += 1
            else:
                t_play = True
        elif not gone and not _taken_out(V, WS, v) and st == ACTIVE:
            a_play = True
    if t_play and a_play:
        return False
    res[R_REASON] = REASON_SIDE_OUT
    if not a_play and (t_play or t_left > 0):
        res[R_WINNER] = target          # the attackers taken out or outdistanced
    elif not t_play and t_left == 0 and a_play:
        res[R_WINNER] = attacker        # the entire target gang taken out
    elif not t_play and t_taken == 0:
        res[R_WINNER] = target          # every target vehicle got safely out of play
    else:
        res[R_WINNER] = -1
    return True


@jit
def _verdict(V, WS, n, G, res, lead_side):
    """Has the game ended? Fills res (winner side, reason) and returns True when it has."""
    chase_side = 1 - lead_side
    if G[G_VICTORY] == VICTORY_GANGS:
        return _gangs_verdict(V, WS, n, res, lead_side)
    if G[G_VICTORY] == VICTORY_FINISH:
        for v in range(n):
            if V[v, V_SIDE] == lead_side and V[v, V_STATUS] == FINISHED:
                res[R_WINNER] = lead_side
                res[R_REASON] = REASON_FINISH
                res[R_LEAD_FINISHED] = 1
                return True
        if _side_out(V, n, lead_side):
            res[R_WINNER] = chase_side
            res[R_REASON] = REASON_LEAD_OUT
            return True
        return False
    a = _beaten(V, WS, n, 0)
    b = _beaten(V, WS, n, 1)
    if a or b:
        res[R_WINNER] = -1 if (a and b) else (1 if a else 0)
        res[R_REASON] = REASON_SIDE_OUT
        return True
    return False


@jit
def _stalemate(B, T, V, WS, n, POL, K, hp):
    """Nothing left in play can move, and no driver has a shot it would take: the game can no
    longer change (checked at a turn's end)."""
    tbuf = K[K_TBUF:K_TBUF_END]
    M = B[B_M:B_M_END].reshape((RD.MAXM, RD.MK_W))
    NM = B[B_NM:B_NM_END]
    for v in range(n):
        if V[v, V_STATUS] == ACTIVE and not _is_out(V, v):
            return False
    for v in range(n):
        if V[v, V_STATUS] == ACTIVE and not V[v, V_NODRIVER]:
            slot, u = best_shot(T, M, NM, V, WS, n, v, hp, POL[v], tbuf)
            if slot >= 0:
                return False
    return True


@jit
def _lead_vetoes(V, n, lead_side, POL, mph):
    """'The driver of the lead car may choose to roll again' (p88): the lead side's first
    driver's choice (P_VETO: the highest start speed it keeps; 0 = re-roll whenever allowed)."""
    for v in range(n):
        if V[v, V_SIDE] == lead_side:
            keep = POL[v, P_VETO]
            return keep == 0 or mph > keep
    return True


@jit
def setup_game(st, script, B, V, WS, FIT, RU, E, EN, res):
    T = B[B_T:B_T_END].reshape((RD.MAXSEC, RD.T_W))
    TM = B[B_TM:B_TM_END]
    NM = B[B_NM:B_NM_END]
    G = _tab1(RU, TB_G)
    VC = _tab2(RU, TB_VC)
    VPOS = _tab3(RU, TB_VPOS)
    LOAD = _tab4(RU, TB_LOAD)
    LFIT = _tab3(RU, TB_LFIT)
    PROF = _tab2(RU, TB_PROF)
    SKILLS = _tab1(RU, TB_SKILLS)
    LAY = _tab3(RU, TB_LAY)
    curves = _tab3(RU, TB_CURVES)
    box = _tab1(RU, TB_BOX)
    POL = _tab2(RU, TB_POL)
    n = G[G_NV]
    RD.reset_track(TM, G[G_WINDOW])
    TM[TM_PLAYDIR] = G[G_PLAYDIR]
    NM[0] = 0
    for i in range(res.shape[0]):
        res[i] = 0
    res[R_WINNER] = -1
    # 1. who leads (p87): a d6, odd -> side 0's driver is the lead car
    lead_side = 0
    if G[G_ROLEMODE] == 0:
        lead_side = 0 if dice.roll(st, script, 1, 6) % 2 == 1 else 1
    res[R_LEAD_SIDE] = lead_side
    _log(Log(E, EN, 0, 0), -1, EV_ROLES, lead_side, 0, 0, 0)
    # 2. the track
    if G[G_MODE] == MODE_FIXED:
        li = 0
        if G[G_NLAYOUT] > 1:
            li = dice.roll(st, script, 1, G[G_NLAYOUT]) - 1
        RD.lay_fixed(T, TM, LAY[li], curves, box)
        _log(Log(E, EN, 0, 0), -1, EV_TRACK, -1, li + 1, 0, 0)
    elif G[G_MODE] == MODE_INITIAL:
        RD.generate_initial(st, script, T, TM, curves, box, G[G_WINDOW])
        TM[RD.TM_ENDED] = 1
    else:
        for i in range(3):
            RD.place(T, TM, RD.STRAIGHT, 0, curves, box)
    for s in range(TM[RD.TM_NSEC]):
        _log(Log(E, EN, 0, 0), -1, EV_TRACK, s, T[s, RD.T_KIND], T[s, RD.T_DIR], 0)
    # 3. the vehicles: loadout (Game Three rolls it), drive skill (Game Four's table)
    for v in range(n):
        for c in range(V.shape[1]):
            V[v, c] = 0
        side = VC[v, VC_SIDE]
        role = LEAD if side == lead_side else CHASE
        if G[G_ROLEMODE] == 1:
            role = VC[v, VC_ROLE]
        k = VC[v, VC_KIND]
        V[v, V_SIDE] = side
        V[v, V_ROLE] = role
        V[v, V_SIDEREACH] = G[G_SIDE_CORRIDOR]
        V[v, V_KIND] = k
        V[v, V_SEC] = VPOS[v, role, 0]
        V[v, V_LANE] = VPOS[v, role, 1]
        V[v, V_SP] = VPOS[v, role, 2]
        V[v, V_DMG] = PROF[k, 0]
        V[v, V_MAXDMG] = PROF[k, 0]
        V[v, V_ARM] = PROF[k, 1]
        V[v, V_MAXSPD] = PROF[k, 2]
        V[v, V_ACC] = PROF[k, 3]
        V[v, V_BRK] = PROF[k, 4]
        V[v, V_BRKLEFT] = PROF[k, 4]
        V[v, V_HAND] = PROF[k, 5]
        V[v, V_BIKE] = 1 if k == G[G_BIKE_KIND] else 0
        lo = 0
        if VC[v, VC_NLOAD] > 1:
            lo = dice.roll(st, script, 1, VC[v, VC_NLOAD]) - 1
        V[v, V_LOAD] = lo
        for w in range(MAXW):
            for c in range(WS.shape[2]):
                WS[v, w, c] = LOAD[v, lo, w, c]
        for s in range(FIT.shape[1]):
            FIT[v, s] = LFIT[v, lo, s]
        _setup_lasting(V, WS, v, G)
        if VC[v, VC_SKILLMODE] == 1:
            V[v, V_SKILL] = SKILLS[dice.roll(st, script, 1, 6) - 1]
        else:
            V[v, V_SKILL] = VC[v, VC_SKILL]
    # 4. start speed (Game Three): 2d6 x 10, re-rolled on 2-4 and on the vetoes
    mph = G[G_START_MPH]
    if G[G_SPEEDMODE] == 1:
        while True:
            score = dice.roll(st, script, 2, 6)
            if score <= G[G_REROLL_MAX] or score >= G[G_ANY_VETO]:
                continue
            if G[G_LEAD_VETO] > 0 and score >= G[G_LEAD_VETO] \
                    and _lead_vetoes(V, n, lead_side, POL, score * G[G_MPH_PIP]):
                continue
            break
        mph = score * G[G_MPH_PIP]
    if G[G_INTERCEPT] > 0:
        # the track is laid before the sides set up on it (p89)
        _setup_intercept(st, script, B, V, n, RU, E, EN, lead_side)
    for v in range(n):
        V[v, V_MPH] = min(mph, V[v, V_MAXSPD])
        _log(Log(E, EN, 0, 0), v, EV_START, V[v, V_SEC], V[v, V_LANE], V[v, V_SP], V[v, V_MPH])
        _log(Log(E, EN, 0, 0), v, EV_SPEED, V[v, V_SKILL], V[v, V_LOAD], V[v, V_ROLE], 0)
    if G[G_INTERCEPT] > 0:
        for v in range(n):
            if V[v, V_SIDE] != lead_side:
                V[v, V_MPH] = min(G[G_INTERCEPT] - 1, V[v, V_MAXSPD])
                _log(Log(E, EN, 0, 0), v, EV_UTURN, V[v, V_SEC], V[v, V_LANE], V[v, V_SP],
                     -V[v, V_MPH] - 1)
    if G[G_MODE] == MODE_CONTINUOUS:
        _extend_track(st, script, B, V, WS, n, RU, Log(E, EN, 0, 0))
    return lead_side


@jit
def play_game(st, script, B, V, WS, FIT, RU, E, EN, res):
    """Play one game to its end; res = [winner side (-1 draw), reason, turns, lead side, ...]."""
    lead_side = setup_game(st, script, B, V, WS, FIT, RU, E, EN, res)
    play_turns(st, script, B, V, WS, FIT, RU, Log(E, EN, 0, 0), res, lead_side, 1)


@jit
def _keep(flat, snap, k, skip, width):
    """Compare ``flat`` with ``snap[k:]`` and save it there; column ``skip`` of rows of
    ``width`` counts as 0."""
    same = True
    for i in range(flat.size):
        x = flat[i]
        if skip >= 0 and i % width == skip:
            x = 0
        if snap[k + i] != x:
            same = False
            snap[k + i] = x
    return same


@jit
def _same_position(T, TM, M, NM, V, WS, FIT, snap):
    """Is the position the one saved in ``snap`` (which then holds this one)? Every array a
    turn reads, but V_STAMP: it tells this turn's movers from earlier ones (cutting up, p13),
    and a turn later it still does."""
    # the track rows and markers in use (TM and NM, compared too, say how many)
    k = 0
    same = _keep(T[:TM[RD.TM_NSEC]].ravel(), snap, k, -1, 1)
    k += T.size
    same = _keep(TM, snap, k, -1, 1) and same
    k += TM.size
    same = _keep(M[:NM[0]].ravel(), snap, k, -1, 1) and same
    k += M.size
    same = _keep(NM, snap, k, -1, 1) and same
    k += NM.size
    same = _keep(V.ravel(), snap, k, V_STAMP, V.shape[1]) and same
    k += V.size
    same = _keep(WS.ravel(), snap, k, -1, 1) and same
    k += WS.size
    same = _keep(FIT.ravel(), snap, k, -1, 1) and same
    return same


@jit
def play_turns(st, script, B, V, WS, FIT, RU, L, res, lead_side, first):
    """Play turns ``first``, ``first`` + 1, ... of a game set up on the arrays until it ends.

    A turn that rolls no dice and leaves the position as the turn before left it will be
    played the same way again and again, the turn number being read only for the log and for
    V_STAMP: nothing can change any more, so the game ends at once as a draw
    (REASON_REPEAT), as it would at the turn limit."""
    E, EN = L.E, L.EN   # each phase logs under its own turn and phase: L.turn, L.phase unread
    T = B[B_T:B_T_END].reshape((RD.MAXSEC, RD.T_W))
    TM = B[B_TM:B_TM_END]
    M = B[B_M:B_M_END].reshape((RD.MAXM, RD.MK_W))
    NM = B[B_NM:B_NM_END]
    G = _tab1(RU, TB_G)
    POL = _tab2(RU, TB_POL)
    n = G[G_NV]
    # the scratch starts every game zeroed, as when it was a buffer of its own
    K = B[B_K:B_K_END]
    K[:] = 0
    order = np.zeros(n, np.int64)
    late = np.zeros(n, np.int64)
    step = G[G_SPEED_STEP]
    snap = np.zeros(T.size + TM.size + M.size + NM.size + V.size + WS.size + FIT.size, np.int64)
    for turn in range(first, G[G_MAXTURNS] + 1):
        res[R_TURNS] = turn
        rolls = st[dice.NROLLS]
        for v in range(n):
            late[v] = 0
            for w in range(MAXW):
                WS[v, w, W_FIRED] = 0
        _bike_turn_start(V, WS, n, G, E, EN, turn)
        phase = 1
        # phase 1 is always played; later phases while any vehicle's current speed factor
        # reaches them, so a car that speeds up mid-turn moves in the extra phases (p9, p12)
        while True:
            L = Log(E, EN, turn, phase)
            _log(L, -1, EV_PHASE, 0, 0, 0, 0)
            k = _order(st, script, T, V, n, order)
            # stationary vehicles come last in the order (p15)
            k0 = 0
            while k0 < k and V[order[k0], V_MPH] > 0:
                k0 += 1
            for v in range(n):
                V[v, V_PANIC] = 0
                if speed_factor(V[v, V_MPH], step) >= phase:
                    V[v, V_BRKLEFT] = V[v, V_BRK]
                elif late[v] == 0:
                    # no move now: one allowance for the rest of the turn (p41)
                    V[v, V_BRKLEFT] = V[v, V_BRK]
                    late[v] = 1
            for i in range(k):
                if phase == 1 and i == k0 and k - k0 >= 2:
                    _moving_off(st, script, B, V, WS, n, order, k0, k, RU, L)
                v = order[i]
                if V[v, V_STATUS] != ACTIVE or V[v, V_STAMP] == turn * 8 + phase:
                    continue   # out, or it took its move already, shunted (p56)
                _take_turn(st, script, B, V, WS, FIT, n, v, RU, L)
                if _verdict(V, WS, n, G, res, lead_side):
                    _log(L, -1, EV_END, res[R_WINNER], res[R_REASON], 0, 0)
                    return
            # the turn lasts while anything is fast enough to move in the next phase (p9)
            more = False
            for v in range(n):
                if V[v, V_STATUS] == ACTIVE and speed_factor(V[v, V_MPH], step) > phase:
                    more = True
            if not more:
                break
            phase += 1
        _end_of_turn(st, script, V, WS, n, G, E, EN, turn)
        if G[G_VICTORY] != VICTORY_FINISH \
                and _stalemate(B, T, V, WS, n, POL, K, _tab1(RU, TB_HP)):
            res[R_WINNER] = -1
            res[R_REASON] = REASON_STALEMATE
            _log(Log(E, EN, turn, 0), -1, EV_END, -1, REASON_STALEMATE, 0, 0)
            return
        # saved every turn (a turn that rolls dice may still leave the position a later one
        # repeats); the first turn played has nothing to compare with
        same = _same_position(T, TM, M, NM, V, WS, FIT, snap)
        if same and turn > first and st[dice.NROLLS] == rolls:
            res[R_WINNER] = -1
            res[R_REASON] = REASON_REPEAT
            _log(Log(E, EN, turn, 0), -1, EV_END, -1, REASON_REPEAT, 0, 0)
            return
    res[R_WINNER] = -1
    res[R_REASON] = REASON_TIME
    _log(Log(E, EN, G[G_MAXTURNS], 0), -1, EV_END, -1, REASON_TIME, 0, 0)


# --- many games -----------------------------------------------------------------------------------
ST_DRAWS, ST_TURNS, ST_TURNS_SQ, ST_LEAD_WINS, ST_CHASE_WINS = range(5)
ST_REASON = 5            # one count per reason
ST_SIDE = ST_REASON + len(REASON_NAMES)   # per side: wins, times lead, wins as lead
N_SIDE = 3
# How each game ended for each side (issue 15): games won / lost / drawn by each reason, and
# games in which at least one of the side's vehicles ended each way (FATE_*): a game-level
# count, so the binomial intervals of the report hold (vehicles of one game are not
# independent).
ST_END = ST_SIDE + 2 * N_SIDE
N_RESULT = 3             # won, lost, drawn
N_REASON = len(REASON_NAMES)
N_END = N_RESULT * N_REASON
FATE_FINISHED, FATE_LEFT, FATE_WRECK, FATE_CRASH = range(4)   # FATE_CRASH + the CRASH_* code
N_CRASH = 8
FATE_STOPPED = FATE_CRASH + N_CRASH   # still on the road, stopped for good (p34-35, p88)
FATE_RUNNING = FATE_STOPPED + 1       # still able to move when the game ended
N_FATE = FATE_RUNNING + 1
ST_FATE = ST_END + 2 * N_END
N_STATS = ST_FATE + 2 * N_FATE


@jit
def _fate(V, v):
    st = V[v, V_STATUS]
    if st == FINISHED:
        return FATE_FINISHED
    if st == LEFT and V[v, V_LEFTOUT] == 0:
        return FATE_LEFT
    if st == WRECK or V[v, V_LEFTOUT] == 1:
        return FATE_WRECK
    if st == CRASHED:
        return FATE_CRASH + max(V[v, V_WHY] - 1, 0)
    if V[v, V_LEFTOUT] == 2 or _is_out(V, v):
        return FATE_STOPPED
    return FATE_RUNNING


@jit
def _tally_endings(V, n, res, acc):
    w = res[R_WINNER]
    for s in range(2):
        r = 2 if w < 0 else (0 if w == s else 1)
        acc[ST_END + s * N_END + r * N_REASON + res[R_REASON]] += 1
        mask = 0
        for v in range(n):
            if V[v, V_SIDE] == s:
                mask |= 1 << _fate(V, v)
        for f in range(N_FATE):
            if (mask >> f) & 1:
                acc[ST_FATE + s * N_FATE + f] += 1


@jit
def _games_block(key, lo, hi, RU, script, acc):
    G = _tab1(RU, TB_G)
    LFIT = _tab3(RU, TB_LFIT)
    n = G[G_NV]
    st = np.zeros(dice.STATE_SIZE, dtype=np.uint64)
    B = np.zeros(B_W, np.int64)
    V = np.zeros((n, V_W), np.int64)
    WS = np.zeros((n, MAXW, W_W), np.int64)
    FIT = np.zeros((n, LFIT.shape[2]), np.int64)
    E = np.zeros((0, LOG_W), np.int64)
    EN = np.zeros(1, np.int64)
    res = np.zeros(R_W, np.int64)
    for t in range(lo, hi):
        dice.seed_trial(st, key, t)
        play_game(st, script, B, V, WS, FIT, RU, E, EN, res)
        w = res[R_WINNER]
        ls = res[R_LEAD_SIDE]
        acc[ST_TURNS] += res[R_TURNS]
        acc[ST_TURNS_SQ] += res[R_TURNS] * res[R_TURNS]
        acc[ST_REASON + res[R_REASON]] += 1
        _tally_endings(V, n, res, acc)
        acc[ST_SIDE + ls * N_SIDE + 1] += 1
        if w < 0:
            acc[ST_DRAWS] += 1
        else:
            acc[ST_SIDE + w * N_SIDE] += 1
            if w == ls:
                acc[ST_LEAD_WINS] += 1
                acc[ST_SIDE + w * N_SIDE + 2] += 1
            else:
                acc[ST_CHASE_WINS] += 1


def games_chunk(key, first, n, G, VC, VPOS, LOAD, LFIT, PROF, SKILLS, LAY, curves, box, crit, hp,
                cl_lows, cl_codes, spin_t, POL, script):
    """Summed statistics of games first..first+n-1 (game t from stream (key, t))."""
    RU = rules_buffer(G, VC, VPOS, LOAD, LFIT, PROF, SKILLS, LAY, curves, box, crit, hp, cl_lows,
                      cl_codes, spin_t, POL)
    return sum_blocks(lambda lo, hi, acc: _games_block(key, lo, hi, RU, script, acc), first, n,
                      N_STATS)


# --- bikes (p62-72) ---------------------------------------------------------------------------------
NFACE = len(SH.FACINGS)
NLOC = len(SH.LOCATIONS)
ROLL_CODE = 4   # rules.CONTROL_OUTCOMES.index("roll")
DISABLES_DRIVER = SH.DISABLES["driver"]


@jit
def _rflag(V, v):
    """Hazard-list flag of a test a bike takes against its reduced handling (p70)."""
    return 2 if V[v, V_BIKE] else 0


@jit
def _bike_tables(V, v, matrix):
    """1 when ``v`` is a bike and the bike's critical tables follow the car's (to_arrays)."""
    return 1 if V[v, V_BIKE] and matrix.shape[0] >= 2 * NFACE else 0


@jit
def _bike_can_push(V, v):
    return (V[v, V_ENGOFF] == 1 and V[v, V_NODRIVER] == 0 and V[v, V_TERMINAL] == 0
            and V[v, V_HAND] > 0 and V[v, V_FALLEN] == 0)


@jit
def _bike_hazards(st, script, V, v, limits, oil, nl, G, hp, outcomes, L):
    """A bike's hazard rolls of one move (p41 order; oil last): the tests flagged ``oil & 2``
    are taken against reduced handling (p70: HE, oil on curves or after a speed change,
    criticals, mines, debris, sand on curves, collisions), the rest against full handling."""
    for i in range(1, nl):
        x = limits[i]
        xo = oil[i]
        j = i - 1
        while j >= 0 and ((oil[j] & 1) > (xo & 1) or ((oil[j] & 1) == (xo & 1) and limits[j] < x)):
            limits[j + 1] = limits[j]
            oil[j + 1] = oil[j]
            j -= 1
        limits[j + 1] = x
        oil[j + 1] = xo
    speed = V[v, V_MPH]
    left = V[v, V_BRKLEFT]
    full = max(V[v, V_HAND], V[v, V_SKILL])
    red = max(V[v, V_HAND] - G[G_REDUCED], V[v, V_SKILL])
    panicked = False
    lost = False
    for i in range(nl):
        outcomes[i] = -1
    for i in range(nl):
        limit = limits[i]
        if (oil[i] & 1) and panicked:
            limit = min(limit, G[G_L_OIL_O])
        before = speed
        out, mph = H.hazard_roll(st, script, speed, limit, red if oil[i] & 2 else full, left, hp)
        speed -= mph
        left -= mph
        outcomes[i] = out
        if limit < before:
            _log(L, v, EV_HAZARD, limit, out, speed, oil[i] & 1)
        if out == H.PANIC:
            panicked = True
            V[v, V_PANIC] = 1
        if out >= H.LOSS:
            lost = True
            break
    V[v, V_MPH] = speed
    V[v, V_BRKLEFT] = left
    if lost:
        _loses_control_testing(V, v)


@jit
def _road_damage(st, script, V, v, sf, RU, L):
    """Road damage (p68): a driver critical on the bike's rider table, the d6 modified by the
    speed factor; a score under 1 leaves the rider unhurt, over 6 counts as 6."""
    hp = _tab1(RU, TB_HP)
    effects = _tab3(RU, TB_EFFECTS)
    if effects.shape[0] < 2 * NLOC:
        return
    k = min(max(sf, 1), 8) - 1
    mod = hp[HP_ROAD + k]
    r = dice.roll(st, script, 1, 6)
    face = min(r + mod, 6)
    if face < 1:
        _log(L, v, EV_ROADDMG, r, mod, 0, sf)
        return
    e = effects[NLOC + SH.DRIVER, face - 1]
    V[v, V_SKILL] += e[SH.F_SKILL]
    V[v, V_HAND] += e[SH.F_HANDLING]
    if e[SH.F_DISABLES] == DISABLES_DRIVER:
        V[v, V_NODRIVER] = 1
    _log(L, v, EV_ROADDMG, r, mod, face, sf)


@jit
def _bike_hits(st, script, B, V, WS, FIT, v, sf, RU, L, source):
    """Speed-factor damage, ``sf`` hits at +``sf`` (p46, p58), each on a random facing (p70:
    1 left, 2 right, 3 roof, 4 floor, 5 front, 6 rear)."""
    hp = _tab1(RU, TB_HP)
    for _ in range(sf):
        if V[v, V_STATUS] != ACTIVE and V[v, V_STATUS] != WRECK:
            break
        facing = hp[HP_ROLLFACE + dice.roll(st, script, 1, 6) - 1]
        _take_hit(st, script, B, V, WS, FIT, v, _auto_hit(sf, facing, source), RU, L)


@jit
def _bike_down(V, v, L):
    """The bike halts and falls (p70); a wreck with terminal damage, no rider or a wheel off."""
    V[v, V_MPH] = 0
    V[v, V_OOC] = IN_CONTROL
    V[v, V_SKIDDIR] = 0
    V[v, V_DODGE] = 0
    if V[v, V_STATUS] != ACTIVE:
        return
    if V[v, V_TERMINAL] or V[v, V_NODRIVER] or V[v, V_WHEELOFF]:
        V[v, V_STATUS] = WRECK
        V[v, V_FALLEN] = 1
        _log(L, v, EV_WRECK, 0, 0, 0, 0)
    else:
        V[v, V_FALLEN] = 1
        _log(L, v, EV_FALL, 0, 0, 0, 0)


@jit
def _bike_crash(st, script, B, V, WS, FIT, v, why, RU, L, damage):
    """A bike crashes (p70): crash damage (speed factor hits at +speed factor, p58) when
    ``damage``, road damage, then off the table."""
    G = _tab1(RU, TB_G)
    sf = speed_factor(V[v, V_MPH], G[G_SPEED_STEP])
    if damage:
        _bike_hits(st, script, B, V, WS, FIT, v, sf, RU, L, SRC_CRASH)
    _road_damage(st, script, V, v, sf, RU, L)
    _crash(V, v, why, L)


@jit
def _shared_lanes(V, v, u):
    a, b = lanes_of(V, v)
    c, d = lanes_of(V, u)
    return max(0, min(b, d) - max(a, c) + 1)


@jit
def _one_test(st, script, V, u, limit, reduced, ignore_panic, K, G, hp, L):
    """One immediate hazard roll of ``u`` (a collision's, an overlap's), in scratch cells of
    ``ws`` so that the mover's own list is kept; the target of a shunt ignores panic (p41)."""
    ws = K[K_WS:K_WS_END]
    if V[u, V_STATUS] != ACTIVE or not _takes_tests(V, u) or V[u, V_MPH] <= limit:
        return
    keep_mph = V[u, V_MPH]
    keep_left = V[u, V_BRKLEFT]
    if ignore_panic:
        V[u, V_BRKLEFT] = 1 << 20
    ws[0] = limit
    ws[1] = 2 if (reduced and V[u, V_BIKE]) else 0
    _roll_hazards(st, script, V, u, ws[0:1], ws[1:2], 1, G, hp, ws[2:3], L)
    if ignore_panic:
        V[u, V_MPH] = keep_mph
        V[u, V_BRKLEFT] = keep_left
        V[u, V_PANIC] = 0


@jit
def _swipe_loser(st, script, V, x, d, limit, K, G, hp, L):
    """The loser of a sideswipe tests (reduced handling for a bike) and skids away (p57)."""
    was = V[x, V_OOC]
    _one_test(st, script, V, x, limit, True, False, K, G, hp, L)
    if was == IN_CONTROL and V[x, V_OOC] != IN_CONTROL:
        V[x, V_SKIDDIR] = d


@jit
def _bike_ram(st, script, B, V, WS, FIT, v, u, RU, L):
    """Collisions with a bike (p70-72). Bike vs bike: head-on (opposed, stationary or fallen
    bikes) combined speed-factor damage, both halt and fall, road damage; into a wrecked bike
    the mover crashes; shunts as usual but both riders lose control outright. Bike vs car: a
    partial (one lane in common) collision is a sideswipe the bike loses; head-on one combined
    hit each, road damage, the bike crashes, the car -30mph and out of control (a car rammer
    completes its move, :func:`_goes_on`); shunts relative hits, a bike rammer slows to the car's
    speed, a car rammer pushes the bike to its speed and slows 10mph. A bike into an obstacle
    is a head-on ram with a wreck (p77)."""
    K = B[B_K:B_K_END]
    G = _tab1(RU, TB_G)
    hp = _tab1(RU, TB_HP)
    step = G[G_SPEED_STEP]
    sfv = speed_factor(V[v, V_MPH], step)
    if u == HIT_OBSTACLE:
        _log(L, v, EV_BIKERAM, -1, BR_HEAD_ON, 1, sfv)
        _take_hit(st, script, B, V, WS, FIT, v, _auto_hit(sfv, 0, SRC_OBSTACLE), RU, L)
        _bike_crash(st, script, B, V, WS, FIT, v, CRASH_BIKE_CAR, RU, L, False)
        return 0
    sfu = speed_factor(V[u, V_MPH], step)
    opposed = V[u, V_DIR] != V[v, V_DIR]
    if V[v, V_BIKE] and V[u, V_BIKE]:
        if V[u, V_STATUS] == WRECK:
            _log(L, v, EV_BIKERAM, u, BR_INTO_WRECK, sfv, sfv)
            _bike_crash(st, script, B, V, WS, FIT, v, CRASH_BIKE_WRECK, RU, L, True)
            return 0
        if opposed or V[u, V_MPH] == 0 or V[u, V_FALLEN]:
            c = sfv + sfu
            _log(L, v, EV_BIKERAM, u, BR_HEAD_ON, c, c)
            _speed_hits(st, script, B, V, WS, FIT, v, c, _auto_hit(c, 0, u), RU, L)
            _speed_hits(st, script, B, V, WS, FIT, u, c, _auto_hit(c, 0, v), RU, L)
            for x in (v, u):
                if V[x, V_STATUS] == ACTIVE:
                    _road_damage(st, script, V, x, sfv if x == v else sfu, RU, L)
                _bike_down(V, x, L)
            return 0
        rel = max(sfv - sfu, 0)
        _log(L, v, EV_BIKERAM, u, BR_SHUNT, rel, rel)
        _speed_hits(st, script, B, V, WS, FIT, v, rel, _auto_hit(rel, 0, u), RU, L)
        _speed_hits(st, script, B, V, WS, FIT, u, rel, _auto_hit(rel, 1, v), RU, L)
        diff = V[v, V_MPH] - V[u, V_MPH]
        if diff > 0:
            half = (diff + 1) // 2
            V[u, V_MPH] = min(V[u, V_MPH] + half, max(V[u, V_MAXSPD], V[u, V_MPH]))
            V[v, V_MPH] -= half
        # both riders lose control, no hazard roll (p70); the rammer is always already out of
        # control (an upright rider under control passes through a moving bike, p64), and this
        # loss is a new one that the end of its move must not undo
        if V[v, V_OOC] != IN_CONTROL:
            V[v, V_LOSTAGAIN] = 1
        _lose_control(V, v)
        if V[u, V_STATUS] == ACTIVE:
            _lose_control(V, u)
        return 1
    bike = v if V[v, V_BIKE] else u
    car = u if bike == v else v
    sfb = sfv if bike == v else sfu
    sfc = sfu if bike == v else sfv
    # a wrecked, angled or spinning car is a head-on whichever way it faces (p57); a car merely
    # stopped is one only when it faces the rammer (``opposed``): stopped and facing the bike's
    # way it is shunted, as between cars (p57, 'the usual rules', p70)
    car_still = V[car, V_STATUS] == WRECK or V[car, V_TERMINAL] or V[car, V_ATT] % 180 != 0 \
        or V[car, V_OOC] == SPINNING
    fallen = V[bike, V_FALLEN] == 1 or V[bike, V_STATUS] == WRECK
    if not fallen and _shared_lanes(V, v, u) == 1 and V[car, V_STATUS] == ACTIVE:
        # a partial collision with a bike is a sideswipe, which the bike loses (p72)
        d = 1 if V[car, V_LANE] < V[bike, V_LANE] else -1   # the bike skids away from the car
        if opposed:
            c = sfb + sfc
            _log(L, v, EV_BIKERAM, u, BR_SWIPE, 1, c)
            _take_hit(st, script, B, V, WS, FIT, bike, _auto_hit(c, 2, car), RU, L)
            _one_test(st, script, V, car, G[G_L_OPP_WIN], False, False, K, G, hp, L)
            _swipe_loser(st, script, V, bike, d, G[G_L_OPP_LOSE], K, G, hp, L)
        else:
            rel = abs(sfb - sfc)
            _log(L, v, EV_BIKERAM, u, BR_SWIPE, 1, rel)
            _take_hit(st, script, B, V, WS, FIT, bike, _auto_hit(rel, 2, car), RU, L)
            V[v, V_MPH] = max(0, V[v, V_MPH] - G[G_SS_LOSS])
            V[u, V_MPH] = max(0, V[u, V_MPH] - G[G_SS_LOSS])
            _swipe_loser(st, script, V, bike, d, G[G_L_SS_NN], K, G, hp, L)
        return 0
    if fallen or opposed or car_still or (V[bike, V_MPH] == 0 and G[G_STOPPED_BIKE]):
        # head-on: one combined speed-factor hit each (p72)
        c = sfb + sfc
        _log(L, v, EV_BIKERAM, u, BR_HEAD_ON, 1, c)
        _take_hit(st, script, B, V, WS, FIT, bike, _auto_hit(c, 0, car), RU, L)
        _take_hit(st, script, B, V, WS, FIT, car, _auto_hit(c, 0, bike), RU, L)
        if V[bike, V_STATUS] == ACTIVE:
            _road_damage(st, script, V, bike, sfb, RU, L)
        _crash(V, bike, CRASH_BIKE_CAR, L)
        if V[car, V_STATUS] == ACTIVE and V[car, V_MPH] > 0:
            V[car, V_MPH] = max(0, V[car, V_MPH] - G[G_CAR_HEADON_SLOW])
            _lose_control(V, car)
        return 0
    # shunts
    rel = max(sfv - sfu, 0)
    _log(L, v, EV_BIKERAM, u, BR_SHUNT, rel, rel)
    _speed_hits(st, script, B, V, WS, FIT, v, rel, _auto_hit(rel, 0, u), RU, L)
    _speed_hits(st, script, B, V, WS, FIT, u, rel, _auto_hit(rel, 1, v), RU, L)
    if bike == v:
        V[v, V_MPH] = min(V[v, V_MPH], V[u, V_MPH])
    else:
        impact = V[v, V_MPH]
        V[u, V_MPH] = min(impact, max(V[u, V_MAXSPD], V[u, V_MPH]))
        V[v, V_MPH] = max(0, V[v, V_MPH] - G[G_CAR_SHUNT_SLOW])
    _one_test(st, script, V, v, G[G_L_SHUNT], True, False, K, G, hp, L)
    _one_test(st, script, V, u, G[G_L_SHUNT], True, True, K, G, hp, L)
    return 1


@jit
def _goes_on(V, v, u):
    """A car that took a bike out of play completes its move (p72)."""
    return (u >= 0 and V[v, V_BIKE] == 0 and V[u, V_BIKE] == 1 and V[u, V_STATUS] == CRASHED
            and V[v, V_STATUS] == ACTIVE)


@jit
def _bike_sideswipe(st, script, B, V, WS, FIT, n, v, d, RU, L):
    """A rider sideswipes a bike going its way whose zone overlaps its own (p70): the usual
    test (a rider out of control uses reduced handling), relative speed-factor hit, -10mph
    each, the loser tests at 40mph on reduced handling and skids away."""
    T = B[B_T:B_T_END].reshape((RD.MAXSEC, RD.T_W))
    K = B[B_K:B_K_END]
    G = _tab1(RU, TB_G)
    hp = _tab1(RU, TB_HP)
    tgt = -1
    for u in range(n):
        if u == v or V[u, V_STATUS] != ACTIVE or V[u, V_BIKE] == 0 or V[u, V_FALLEN] \
                or V[u, V_DIR] != V[v, V_DIR]:
            continue
        if _shared_lanes(V, v, u) == 0 or (V[u, V_LANE] - V[v, V_LANE]) * d <= 0:
            continue
        if v_rear(T, V, u) < v_front(T, V, v) and v_rear(T, V, v) < v_front(T, V, u):
            tgt = u
            break
    if tgt < 0:
        return
    u = tgt
    red = G[G_REDUCED]
    sv = dice.roll(st, script, 1, 6) + G[G_RAM_BONUS] + (
        max(V[v, V_HAND], V[v, V_SKILL]) if V[v, V_OOC] == IN_CONTROL
        else min(V[v, V_HAND] - red, V[v, V_SKILL]))
    su = dice.roll(st, script, 1, 6) + (
        max(V[u, V_HAND], V[u, V_SKILL]) if V[u, V_OOC] == IN_CONTROL
        else min(V[u, V_HAND] - red, V[u, V_SKILL]))
    step = G[G_SPEED_STEP]
    rel = abs(speed_factor(V[v, V_MPH], step) - speed_factor(V[u, V_MPH], step))
    winner = v if sv > su else (u if su > sv else -1)
    _log(L, v, EV_SWIPE, u, sv, su, winner)
    if winner != v:
        _take_hit(st, script, B, V, WS, FIT, v, _auto_hit(rel, 2, u), RU, L)
    if winner != u:
        _take_hit(st, script, B, V, WS, FIT, u, _auto_hit(rel, 2, v), RU, L)
    V[v, V_MPH] = max(0, V[v, V_MPH] - G[G_SS_LOSS])
    V[u, V_MPH] = max(0, V[u, V_MPH] - G[G_SS_LOSS])
    for k in range(2):
        x = v if k == 0 else u
        if winner == x:
            continue
        _swipe_loser(st, script, V, x, d if x == u else -d, G[G_L_SS_NN], K, G, hp, L)


@jit
def _bike_after_move(st, script, B, V, n, v, act, G, hp, nl, L):
    """After a rider's move: the dodge's 40mph test (full handling, p64) and overlapping
    contact zones (p64): the other rider tests at once, the mover with its move's tests (80mph
    going the same way, 40mph opposed)."""
    T = B[B_T:B_T_END].reshape((RD.MAXSEC, RD.T_W))
    K = B[B_K:B_K_END]
    if act == A_DODGE and nl < SH.MAX_TESTS:
        K[K_LIM + nl] = G[G_L_DODGE]
        K[K_OIL + nl] = 0
        nl += 1
    worst = -1
    xlo = v_rear(T, V, v)
    xhi = v_front(T, V, v)
    for u in range(n):
        if u == v or V[u, V_STATUS] != ACTIVE or V[u, V_BIKE] == 0 or V[u, V_FALLEN]:
            continue
        if _shared_lanes(V, v, u) == 0 or not (v_rear(T, V, u) < xhi and xlo < v_front(T, V, u)):
            continue
        limit = G[G_L_OVERLAP_OPP] if V[u, V_DIR] != V[v, V_DIR] else G[G_L_OVERLAP]
        _log(L, v, EV_OVERLAP, u, limit, 0, 0)
        _one_test(st, script, V, u, limit, False, False, K, G, hp, L)
        if worst < 0 or limit < worst:
            worst = limit
    if worst >= 0 and nl < SH.MAX_TESTS:
        K[K_LIM + nl] = worst
        K[K_OIL + nl] = 0
        nl += 1
    return nl


@jit
def _bike_act_start(st, script, B, V, WS, FIT, n, v, moves, RU, L):
    """A rider's phase begins: the dodge zone ends, a fallen bike is picked up (p70), a pushed
    bike moves at 5mph (p69). True when the phase's part is done."""
    K = B[B_K:B_K_END]
    G = _tab1(RU, TB_G)
    hp = _tab1(RU, TB_HP)
    V[v, V_DODGE] = 0
    if V[v, V_FALLEN]:
        V[v, V_FALLEN] = 0
        _log(L, v, EV_PICKUP, 0, 0, 0, 0)
    if not V[v, V_PUSH]:
        return False
    if not moves:
        if V[v, V_MPH] == 0:
            V[v, V_MPH] = G[G_PUSH_MPH]
            _log(L, v, EV_ACTION, A_PUSH, 0, V[v, V_MPH], 0)
        return True
    _log(L, v, EV_ACTION, A_PUSH, 0, V[v, V_MPH], 0)
    nl = _advance(st, script, B, V, WS, FIT, n, v, Move(0, True, False), RU, L)
    if nl > 0:
        _hazards(st, script, V, v, K, nl, G, hp, L)
    return True


@jit
def _bike_turn_start(V, WS, n, G, E, EN, turn):
    """Before a turn's first phase (p69): the rider of a halted bike with a dead engine pushes
    it when it still has a working weapon, else abandons it (left as a wreck)."""
    for v in range(n):
        if V[v, V_STATUS] != ACTIVE or not V[v, V_BIKE] or V[v, V_PUSH] or V[v, V_MPH] != 0 \
                or not _bike_can_push(V, v):
            continue
        armed = False
        for w in range(MAXW):
            if WS[v, w, W_KIND] == WK_DIRECT and WS[v, w, W_AMMO] != 0:
                armed = True
        if armed:
            V[v, V_PUSH] = 1
            V[v, V_MAXSPD] = G[G_PUSH_MPH]
            V[v, V_ACC] = G[G_PUSH_MPH]
            _log(Log(E, EN, turn, 0), v, EV_PUSH, 0, 0, 0, 0)
        else:
            V[v, V_STATUS] = WRECK
            _log(Log(E, EN, turn, 0), v, EV_ABANDON, 0, 0, 0, 0)


# --- lasting criticals, linked weapons, locked-on layers, dummies (p22-24, p31, p34-35, p83) ---
@jit
def _slot_at(WS, v, station):
    for w in range(MAXW):
        if WS[v, w, W_KIND] != 0 and WS[v, w, W_STATION] == station:
            return w
    return -1


@jit
def _engine_out(V, WS, v):
    """A disabled engine (p34): acceleration 0 (it coasts, :func:`_after_move`); turrets and
    missile guidance stop at once; a laser keeps one last shot this turn unless it has fired."""
    V[v, V_ENGOFF] = 1
    V[v, V_ACC] = 0
    for w in range(MAXW):
        if WS[v, w, W_KIND] != WK_DIRECT:
            continue
        if WS[v, w, W_MOUNT] == M_TURRET or WS[v, w, W_GUIDED]:
            WS[v, w, W_OFF] |= OFF_ENGINE
        elif WS[v, w, W_LASER] and not WS[v, w, W_OFF] & OFF_ENGINE:
            if WS[v, w, W_FIRED]:
                WS[v, w, W_OFF] = (WS[v, w, W_OFF] & ~OFF_LASTSHOT) | OFF_ENGINE
            else:
                WS[v, w, W_OFF] |= OFF_LASTSHOT


@jit
def _tyre_gone(V, v, G):
    """Tyre Destroyed's lasting part (p34): maximum speed down 10mph or to 60mph, whichever is
    slower, and the over-the-maximum test after each move (V_TYRE)."""
    V[v, V_TYRE] = 1
    V[v, V_MAXSPD] = min(V[v, V_MAXSPD] - G[G_TYRE_LOSS], G[G_TYRE_CAP])


@jit
def _apply_lasting(V, WS, FIT, v, K, G, L):
    """The lasting results the shot kernel recorded (p34-35), in the order rolled."""
    ws = K[K_WS:K_WS_END]
    for w in range(MAXW):
        st_ = WS[v, w, W_STATION]
        if WS[v, w, W_KIND] != 0 and st_ >= 0 and FIT[v, st_] == 0:
            WS[v, w, W_OFF] |= OFF_DESTROYED   # no dummies from a destroyed passive either
    if V[v, V_ENGOFF]:
        _engine_out(V, WS, v)
    for i in range(ws[SH.WS_NRES]):
        code = ws[SH.WS_RES + 2 * i]
        where = ws[SH.WS_RES + 2 * i + 1]
        slot = -1
        if code == SH.L_CARB:
            V[v, V_ACC] = V[v, V_ACC] // G[G_HALF]
        elif code == SH.L_CARB3:
            V[v, V_ACC] = V[v, V_ACC] // (G[G_HALF] + 1)   # a third (p69)
        elif code == SH.L_BRK_CYL:
            V[v, V_BRK] = G[G_MIN_BRK]
            V[v, V_BRKLEFT] = min(V[v, V_BRKLEFT], V[v, V_BRK])
        elif code == SH.L_BRK_HALF:
            V[v, V_BRK] = max(G[G_MIN_BRK], V[v, V_BRK] // G[G_HALF])
            V[v, V_BRKLEFT] = min(V[v, V_BRKLEFT], V[v, V_BRK])
        elif code == SH.L_GEN or code == SH.L_VDU:
            bit = OFF_GEN if code == SH.L_GEN else OFF_VDU
            for w in range(MAXW):
                if WS[v, w, W_KIND] == WK_DIRECT and (
                        WS[v, w, W_MOUNT] == M_TURRET or WS[v, w, W_GUIDED]
                        or (code == SH.L_GEN and WS[v, w, W_LASER])):
                    WS[v, w, W_OFF] |= bit
        elif code == SH.L_SPLIT:
            V[v, V_SPLIT] += 1
        elif code == SH.L_TYRE:
            _tyre_gone(V, v, G)
        elif code == SH.L_AXLE:
            V[v, V_AXLE] = 1
            V[v, V_ACC] = 0
        elif code == SH.L_HAND0:
            V[v, V_HAND] = min(V[v, V_HAND], 0)
        elif code == SH.L_ACC0:
            V[v, V_ACC] = 0
        elif code == SH.L_CLUTCH:
            # the bike cannot exceed its current speed factor for the rest of the game (p69)
            top = max(1, speed_factor(V[v, V_MPH], G[G_SPEED_STEP])) * G[G_SPEED_STEP]
            V[v, V_MAXSPD] = min(V[v, V_MAXSPD], top)
        elif code == SH.L_LEAK:
            V[v, V_LEAK] = 1
        elif code == SH.L_WHEEL_OFF:
            V[v, V_WHEELOFF] = 1
        elif code == SH.L_LINK or code == SH.L_W_CMD:
            slot = _slot_at(WS, v, where)
            if slot >= 0:
                WS[v, slot, W_OFF] |= OFF_LINK
        elif code == SH.L_W_DAMAGED:
            slot = _slot_at(WS, v, where)
            if slot >= 0 and WS[v, slot, W_DAMAGED] == 0:
                # a second Damaged result on the same weapon changes nothing (the book is silent)
                WS[v, slot, W_DAMAGED] = 1
                WS[v, slot, W_ACC] += G[G_DMG_ACC]
        elif code == SH.L_W_JAMMED:
            slot = _slot_at(WS, v, where)
            if slot >= 0:
                WS[v, slot, W_JAM] = 1
        elif code == SH.L_LIMB:
            bit = 1 << where
            if not V[v, V_LIMBS] & bit:
                V[v, V_LIMBS] |= bit
                V[v, V_SKILL] = max(0, V[v, V_SKILL] - (2 if where >= 2 else 1))
                if (V[v, V_LIMBS] & 3) == 3 or (V[v, V_LIMBS] & 12) == 12:
                    V[v, V_SKILL] = 0     # both legs or both arms: no driver (p34)
                    V[v, V_NODRIVER] = 1
        _log(L, v, EV_LASTING, code, where, slot, 0)


@jit
def _split_tyres(st, script, V, v, G, L):
    """p34 Split tyre: 'After each move the driver ... rolls a dice', one roll a split tyre at
    the current speed factor; below it the tyre shreds into a destroyed tyre (handling -2, the
    maximum speed cut). Returns how many shredded: the caller sets their 20mph tests."""
    shredded = 0
    for _ in range(V[v, V_SPLIT]):
        sf = speed_factor(V[v, V_MPH], G[G_SPEED_STEP])
        if sf <= 1:
            break   # no face of a d6 is below 1: the roll cannot shred the tyre
        r = dice.roll(st, script, 1, 6)
        shred = r < sf
        _log(L, v, EV_SPLIT, r, sf, 1 if shred else 0, 0)
        if shred:
            V[v, V_SPLIT] -= 1
            V[v, V_HAND] += G[G_TYRE_HAND]
            _tyre_gone(V, v, G)
            shredded += 1
    return shredded


@jit
def _after_spinning_move(st, script, V, v, G, L):
    """What follows a spinning car's move (p44): it slows by the spin template and takes no
    tests (it stays out of control and does not test, p42-44), so of the after-move steps only
    the split tyres' rolls are left (p34: after each move); a shredded tyre's 20mph test and the
    over-the-maximum test are moot for a car already spinning out of control."""
    if V[v, V_STATUS] == ACTIVE and not V[v, V_BIKE] and V[v, V_OOC] == SPINNING:
        _split_tyres(st, script, V, v, G, L)


@jit
def _lasting_after_move(st, script, V, v, G, K, nl, L):
    """After each move: a car with acceleration 0 slows 5mph (p15); every split tyre rolls a
    d6, below the speed factor it shreds into a destroyed tyre (p34: handling -2, the maximum
    speed cut, a 20mph test); a broken axle's 40mph test (p34). Returns the new list length."""
    if V[v, V_ACC] <= 0 and not V[v, V_ENGOFF] and not V[v, V_NODRIVER]:
        V[v, V_MPH] = max(0, V[v, V_MPH] - G[G_COAST])
    for _ in range(_split_tyres(st, script, V, v, G, L)):
        if _no_control(V, v):
            _lose_control(V, v)
        if nl < SH.MAX_TESTS:
            K[K_LIM + nl] = G[G_L_TYRE]
            K[K_OIL + nl] = 0
            nl += 1
    if V[v, V_AXLE] and nl < SH.MAX_TESTS:
        K[K_LIM + nl] = G[G_L_AXLE]
        K[K_OIL + nl] = 0
        nl += 1
    return nl


@jit
def _end_of_turn(st, script, V, WS, n, G, E, EN, turn):
    """Lasers that kept one last shot lose it; a fuel leak rolls a d6 and a 1 disables the
    engine (p34-35); a stopped car's locked-on oil turns itself off (p24)."""
    for v in range(n):
        for w in range(MAXW):
            if WS[v, w, W_OFF] & OFF_LASTSHOT:
                WS[v, w, W_OFF] = (WS[v, w, W_OFF] & ~OFF_LASTSHOT) | OFF_ENGINE
            if WS[v, w, W_LOCKED] and WS[v, w, W_PTYPE] == RD.OIL and V[v, V_MPH] == 0:
                WS[v, w, W_LOCKED] = 0
                _log(Log(E, EN, turn, 0), v, EV_LOCK, w, LOCK_STOPPED, 0, 0)
        if V[v, V_STATUS] == ACTIVE and V[v, V_LEAK] and not V[v, V_ENGOFF]:
            r = dice.roll(st, script, 1, 6)
            out = r == G[G_LEAK_FACE]
            _log(Log(E, EN, turn, 0), v, EV_LEAK, r, 1 if out else 0, 0, 0)
            if out:
                _engine_out(V, WS, v)


@jit
def _weapon_works(st, script, WS, v, w, G, L):
    """A jammed weapon fires again on a 6, then for good; a damaged one jams on an odd d6 at
    every shot, passives and dummies included (p35). No roll for a sound weapon."""
    if WS[v, w, W_JAM]:
        r = dice.roll(st, script, 1, 6)
        ok = r >= G[G_JAM_CLEAR]
        _log(L, v, EV_JAM, w, r, 1 if ok else 0, 1)
        if not ok:
            return False
        WS[v, w, W_JAM] = 0
    if WS[v, w, W_DAMAGED]:
        r = dice.roll(st, script, 1, 6)
        ok = r % 2 == 0
        _log(L, v, EV_JAM, w, r, 1 if ok else 0, 0)
        if not ok:
            return False
    return True


@jit
def _fire_one(st, script, B, V, WS, FIT, n, v, w, RU, L):
    G = _tab1(RU, TB_G)
    if WS[v, w, W_KIND] != WK_DIRECT or WS[v, w, W_AMMO] == 0 or WS[v, w, W_OFF] & ~OFF_LASTSHOT:
        return
    if WS[v, w, W_LASER] and WS[v, w, W_FIRED]:
        return
    if not _weapon_works(st, script, WS, v, w, G, L):
        return
    _fire(st, script, B, V, WS, FIT, n, v, w, RU, L)
    if WS[v, w, W_OFF] & OFF_LASTSHOT and WS[v, w, W_FIRED]:
        WS[v, w, W_OFF] = (WS[v, w, W_OFF] & ~OFF_LASTSHOT) | OFF_ENGINE


@jit
def _shoot(st, script, B, V, WS, FIT, n, v, w, RU, L):
    """One shoot action: the weapon declared, then every other weapon linked to it, each shot
    rolled and resolved in turn (p83 Linking Weapons)."""
    _fire_one(st, script, B, V, WS, FIT, n, v, w, RU, L)
    g = WS[v, w, W_LINK]
    if g > 0:
        for x in range(MAXW):
            if x != w and WS[v, x, W_LINK] == g:
                _fire_one(st, script, B, V, WS, FIT, n, v, x, RU, L)


@jit
def _put_marker(st, script, B, V, n, v, kind, L):
    """A face-down marker of ``kind`` in the two lanes behind the car, tail-gating included, as
    :func:`_lay_passive` lays it (a dummy must look like the real thing, p22-24)."""
    T = B[B_T:B_T_END].reshape((RD.MAXSEC, RD.T_W))
    TM = B[B_TM:B_TM_END]
    M = B[B_M:B_M_END].reshape((RD.MAXM, RD.MK_W))
    NM = B[B_NM:B_NM_END]
    sec = V[v, V_SEC]
    lane = V[v, V_LANE]
    sp = V[v, V_SP]
    if sp > 0:
        bsec, bsp = sec, sp - 1
    else:
        bsec = sec - 1
        if bsec < TM[RD.TM_FIRST]:
            return
        bsp = RD.pair_spaces(T, bsec, lane) - 1
    xlo = RD.rear_x(T, bsec, lane, bsp)
    xhi = RD.front_x(T, bsec, lane, bsp)
    under = zone_hits(T, V, n, v, bsec, lane, lane + 1, xlo, xhi)
    if under >= 0 and kind != RD.SMOKE:
        if dice.roll(st, script, 1, 6) % 2 == 1:
            _log(L, v, EV_PASSIVE, kind, -1, under, 0)
            return
    i = RD._add_marker(M, NM, kind, bsec, lane, lane + 1, xlo, xhi, 1 if kind == RD.SMOKE else 0, v)
    if i >= 0 and under >= 0 and kind != RD.SMOKE:
        M[i, RD.MK_UNDER] = under
    _log(L, v, EV_PASSIVE, kind, i, under, 0)


@jit
def _lay_dummy(st, script, B, V, WS, n, v, w, G, L):
    """A dummy marker (p22): only from a working passive weapon, while dummies are left; a
    damaged layer makes its jam roll even for a dummy (p35)."""
    if V[v, V_DUMMIES] <= 0 or WS[v, w, W_KIND] != WK_PASSIVE or WS[v, w, W_OFF] != 0:
        return
    if not _weapon_works(st, script, WS, v, w, G, L):
        return
    V[v, V_DUMMIES] -= 1
    _put_marker(st, script, B, V, n, v, RD.DUMMY, L)


@jit
def _lock_on(st, script, B, V, WS, n, v, w, G, L):
    """Lock an oil or smoke layer on as a shoot action (p23-24): this action lays a marker, and
    every later move of the car lays one without an action (:func:`_locked_after_move`)."""
    k = WS[v, w, W_PTYPE]
    if WS[v, w, W_KIND] != WK_PASSIVE or (k != RD.OIL and k != RD.SMOKE) \
            or WS[v, w, W_AMMO] == 0 or WS[v, w, W_OFF] != 0:
        return
    if not _weapon_works(st, script, WS, v, w, G, L):
        return
    WS[v, w, W_LOCKED] = 1
    _log(L, v, EV_LOCK, w, LOCK_ON, 0, 0)
    _lay_passive(st, script, B, V, WS, n, v, w, L)


@jit
def _locked_after_move(st, script, B, V, WS, n, v, act, arg, G, L):
    """Locked-on layers after one of the car's moves (p23-24): a switch-off action declared for
    this move takes effect if the car is still under control (no marker, no ammunition); a
    spinning car's oil or smoke is dispersed (no marker, one shot spent); otherwise a marker
    (jam rolls and tail-gating as for any passive). Oil turns itself off once the car stops."""
    for w in range(MAXW):
        if not WS[v, w, W_LOCKED]:
            continue
        if V[v, V_STATUS] != ACTIVE:
            return
        if WS[v, w, W_AMMO] == 0 or WS[v, w, W_OFF] != 0:
            WS[v, w, W_LOCKED] = 0
            _log(L, v, EV_LOCK, w, LOCK_EMPTY, 0, 0)
            continue
        if act == A_LOCK and arg == -1 - w and V[v, V_OOC] == IN_CONTROL and not V[v, V_PANIC]:
            WS[v, w, W_LOCKED] = 0
            _log(L, v, EV_LOCK, w, LOCK_OFF, 0, 0)
            continue
        if V[v, V_OOC] == SPINNING or V[v, V_NEEDALIGN]:
            if WS[v, w, W_AMMO] > 0:
                WS[v, w, W_AMMO] -= 1
            _log(L, v, EV_LOCK, w, LOCK_DISPERSED, 0, 0)
        elif _weapon_works(st, script, WS, v, w, G, L):
            _lay_passive(st, script, B, V, WS, n, v, w, L)
        if V[v, V_MPH] == 0 and WS[v, w, W_PTYPE] == RD.OIL:
            WS[v, w, W_LOCKED] = 0
            _log(L, v, EV_LOCK, w, LOCK_STOPPED, 0, 0)


@jit
def _double_counts(M, NM, v, llo, lhi, xlo, xhi):
    """How many mines, spikes and smoke markers the move touches (as :func:`_markers_hit`
    decides a hit: in the contact zone, or laid under this car; not under another car)."""
    a = 0
    b = 0
    c = 0
    for i in range(NM[0]):
        if not M[i, RD.MK_ACTIVE]:
            continue
        if M[i, RD.MK_UNDER] >= 0 and M[i, RD.MK_UNDER] != v:
            continue
        if M[i, RD.MK_UNDER] != v:
            if M[i, RD.MK_LHI] < llo or M[i, RD.MK_LLO] > lhi:
                continue
            if not (M[i, RD.MK_XLO] < xhi and xlo < M[i, RD.MK_XHI]):
                continue
        k = M[i, RD.MK_KIND]
        if k == RD.MINES:
            a += 1
        elif k == RD.SPIKES:
            b += 1
        elif k == RD.SMOKE:
            c += 1
    return a, b, c


@jit
def _setup_lasting(V, WS, v, G):
    """Dummy markers for a vehicle with a passive weapon (p22: none without)."""
    for w in range(MAXW):
        if WS[v, w, W_KIND] == WK_PASSIVE:
            V[v, V_DUMMIES] = G[G_DUMMIES]
            return


# --- the direction of travel: against the direction of play, U-turns, reversing, opposed rams ---
@jit
def _remap_back(T, sec, lane_from, lane_to, sp):
    """:func:`pieces.road.remap_space` for a car travelling against play: the space on the new pair
    whose rear edge is nearest ahead of (below) or level with the car's nose (p13)."""
    n0 = RD.pair_spaces(T, sec, lane_from)
    n1 = RD.pair_spaces(T, sec, lane_to)
    s = (sp * n1) // n0
    return min(max(s, 0), n1 - 1)


@jit
def _cut_up(T, V, n, v, d, nsec, nsp, lane, nl2, G, L):
    """Cutting up (p13): a drift may not finish in front of a car, level with the mover at the
    start of its move, that has yet to move this phase; a stationary car may be cut up unless
    it could be moving off (phase 1, engine running, driver in control: its driver's declaration
    is not asked). A rider cutting up a bike: variant ``bike_cut_up``. Returns HIT_CUT_UP (the
    drift is not made) or HIT_NONE."""
    turn = L.turn
    phase = L.phase
    sec0, sp0 = RD.step_space(T, nsec, lane, nsp, 1 - d)
    if sec0 < 0:
        return HIT_NONE
    x0lo = RD.rear_x(T, sec0, lane, sp0)
    x0hi = RD.front_x(T, sec0, lane, sp0)
    now = turn * 8 + phase
    step = G[G_SPEED_STEP]
    for u in range(n):
        if u == v or V[u, V_STATUS] != ACTIVE or V[u, V_STAMP] == now:
            continue
        if travel_dir(V, u) != d:
            continue
        if speed_factor(V[u, V_MPH], step) < phase:
            if not (phase == 1 and V[u, V_MPH] == 0 and not V[u, V_ENGOFF]
                    and not _no_control(V, u) and V[u, V_OOC] == IN_CONTROL):
                continue
        if V[v, V_BIKE] and V[u, V_BIKE] and not G[G_BIKE_CUTUP]:
            continue   # bikes may share lanes (p64): no collision is forced
        a, b = lanes_of(V, u)
        if b < nl2 or a > nl2 + 1:
            continue
        if v_rear(T, V, u) < x0hi and x0lo < v_front(T, V, u):
            _log(L, v, EV_CUTUP, u, 0, 0, 0)
            return HIT_CUT_UP
    return HIT_NONE


@jit
def _uturn_move(st, script, B, V, WS, FIT, n, v, reversing, RU, L):
    """A U-turn (p14): the straight-ahead (or reverse) move into the next space, then the car
    turns through 180 degrees there, on the same lanes (RECONSTRUCTED: the book's diagram is not
    transcribed), with a six-lane contact zone that must be clear. Returns the hazard limits
    gathered (the curve, the U-turn's own limit unless reversing, markers across the six lanes),
    MOVE_ENDED when the car's part ended, UTURN_REFUSED when the U-turn may not be attempted."""
    T = B[B_T:B_T_END].reshape((RD.MAXSEC, RD.T_W))
    TM = B[B_TM:B_TM_END]
    M = B[B_M:B_M_END].reshape((RD.MAXM, RD.MK_W))
    NM = B[B_NM:B_NM_END]
    K = B[B_K:B_K_END]
    G = _tab1(RU, TB_G)
    nsec, nsp = uturn_zone(T, TM, M, NM, V, n, v, reversing)
    if nsec < 0:
        return UTURN_REFUSED
    lane = V[v, V_LANE]
    xlo = RD.rear_x(T, nsec, lane, nsp)
    xhi = RD.front_x(T, nsec, lane, nsp)
    V[v, V_SEC] = nsec
    V[v, V_SP] = nsp
    V[v, V_DIR] = 1 - V[v, V_DIR]
    _log(L, v, EV_UTURN, nsec, lane, nsp, V[v, V_MPH])
    nl = 0
    if T[nsec, RD.T_KIND] != RD.STRAIGHT:
        K[K_LIM + nl] = RD.pair_limit(T, nsec, lane)
        K[K_OIL + nl] = 0
        nl += 1
    if not reversing:
        K[K_LIM + nl] = G[G_L_UTURN]
        K[K_OIL + nl] = 0
        nl += 1
    nl = _markers_hit(st, script, B, V, WS, FIT, v, Zone(0, RD.LANES - 1, xlo, xhi, False, False),
                      nl, RU, L)
    if V[v, V_STATUS] != ACTIVE:
        return MOVE_ENDED
    return nl


@jit
def _act_dir(st, script, B, V, WS, FIT, n, v, AC, RU, L):
    """The U-turn (p14) and reverse (p17) actions, moving off with a U-turn (p15)."""
    act, arg, moves = AC.act, AC.arg, AC.moves
    T = B[B_T:B_T_END].reshape((RD.MAXSEC, RD.T_W))
    K = B[B_K:B_K_END]
    G = _tab1(RU, TB_G)
    hp = _tab1(RU, TB_HP)
    phase = L.phase
    moving_off = V[v, V_MPH] == 0 and phase == 1 and not moves
    if act == A_UTURN:
        if moving_off:
            if V[v, V_ENGOFF]:
                return
            V[v, V_MPH] = min(arg, V[v, V_ACC], V[v, V_MAXSPD])
            if V[v, V_MPH] <= 0:
                V[v, V_MPH] = 0
                return
        elif not moves:
            return   # too slow to move this phase: no manoeuvre (p13)
        _log(L, v, EV_ACTION, A_UTURN, arg, V[v, V_MPH], 0)
        if V[v, V_MPH] >= G[G_UTURN_LOSS]:
            # full lock at 31mph+: control is lost before the move, no U-turn (p14, p40)
            _log(L, v, EV_UTURN_LOSS, V[v, V_MPH], 0, 0, 0)
            _lose_control(V, v)
            _out_of_control_move(st, script, B, V, WS, FIT, n, v, RU, L)
            return
        nl = _uturn_move(st, script, B, V, WS, FIT, n, v, False, RU, L)
        if nl == UTURN_REFUSED:
            # the zone is not clear (or curves): the U-turn is not attempted, straight ahead
            nl = _advance(st, script, B, V, WS, FIT, n, v, Move(0, True, False), RU, L)
        if nl == MOVE_ENDED:
            return
        _after_move(st, script, T, V, v, G, L, K, nl, hp)
        return
    # reverse: only a car stationary at the start of phase 1, at the reverse speed, no hazard
    # rolls, back to 0mph after the move (p17)
    if not moving_off or V[v, V_ENGOFF] or G[G_REV_MPH] <= 0:
        return
    if arg != 2:
        remember_backing(V, v)   # the driver's memory (policies.P_BACKOFFS)
    V[v, V_MPH] = G[G_REV_MPH]
    V[v, V_REV] = 1
    _log(L, v, EV_ACTION, A_REVERSE, arg, V[v, V_MPH], 0)
    nl = UTURN_REFUSED
    if arg == 2:
        nl = _uturn_move(st, script, B, V, WS, FIT, n, v, True, RU, L)
    if nl == UTURN_REFUSED:
        nl = _advance(st, script, B, V, WS, FIT, n, v, Move(arg if arg != 2 else 0, True, False),
                      RU, L)
    V[v, V_REV] = 0
    if V[v, V_STATUS] == ACTIVE:
        _log(L, v, EV_REVERSE, V[v, V_SEC], V[v, V_LANE], V[v, V_SP], 0)
    V[v, V_MPH] = 0


@jit
def _sideswipe_opposed(st, script, B, V, WS, FIT, v, u, d, RU, L):
    """An opposed sideswipe (p54-57): the target is stationary or travelling the other way. The
    loser takes one combined speed factor hit (both on a draw), both lose 20mph, the winner
    tests at 40mph and the loser at 20mph; a loser losing control skids away from the other."""
    K = B[B_K:B_K_END]
    G = _tab1(RU, TB_G)
    hp = _tab1(RU, TB_HP)
    sv = dice.roll(st, script, 1, 6) + G[G_RAM_BONUS] + (
        max(V[v, V_HAND], V[v, V_SKILL]) if V[v, V_OOC] == IN_CONTROL else min(V[v, V_HAND], V[v, V_SKILL]))
    su = dice.roll(st, script, 1, 6) + (
        max(V[u, V_HAND], V[u, V_SKILL]) if V[u, V_OOC] == IN_CONTROL else min(V[u, V_HAND], V[u, V_SKILL]))
    step = G[G_SPEED_STEP]
    c = speed_factor(V[v, V_MPH], step) + speed_factor(V[u, V_MPH], step)
    winner = v if sv > su else (u if su > sv else -1)
    _log(L, v, EV_OPPSWIPE, u, sv, su, winner)
    if winner != v:
        _take_hit(st, script, B, V, WS, FIT, v, _auto_hit(c, 2, u), RU, L)
    if winner != u:
        _take_hit(st, script, B, V, WS, FIT, u, _auto_hit(c, 2, v), RU, L)
    V[v, V_MPH] = max(0, V[v, V_MPH] - G[G_SS_OPP_LOSS])
    V[u, V_MPH] = max(0, V[u, V_MPH] - G[G_SS_OPP_LOSS])
    for k in range(2):
        x = v if k == 0 else u
        if V[x, V_STATUS] != ACTIVE:
            continue
        K[K_LIM] = G[G_L_SS_OPP_W] if winner == x else G[G_L_SS_OPP_L]
        K[K_OIL] = 0
        was = V[x, V_OOC]
        _hazards(st, script, V, x, K, 1, G, hp, L)
        if was == IN_CONTROL and V[x, V_OOC] != IN_CONTROL:
            V[x, V_SKIDDIR] = d if x == u else -d


@jit
def _lay_passive_back(st, script, B, V, WS, n, v, w, L):
    """:func:`_lay_passive` for a car facing against play: 'behind' is the next space in the
    direction of play."""
    T = B[B_T:B_T_END].reshape((RD.MAXSEC, RD.T_W))
    TM = B[B_TM:B_TM_END]
    sec = V[v, V_SEC]
    lane = V[v, V_LANE]
    bsec, bsp = RD.step_space(T, sec, lane, V[v, V_SP], 0)
    if bsec >= TM[RD.TM_NSEC]:
        return
    _drop_marker(st, script, B, V, WS, n, v, w, bsec, bsp, L)


@jit
def _setup_intercept(st, script, B, V, n, RU, E, EN, lead_side):
    """Game Eight's intercept (p89): seven sections laid by the generation rules; the target
    side (the lead side) on the third section, heading towards the attacker, who faces it from
    the section the scenario names; each car's lanes and space on its section chosen with the
    road in view (:func:`policies.setup_place`). Speeds are set by the caller."""
    T = B[B_T:B_T_END].reshape((RD.MAXSEC, RD.T_W))
    TM = B[B_TM:B_TM_END]
    M = B[B_M:B_M_END].reshape((RD.MAXM, RD.MK_W))
    NM = B[B_NM:B_NM_END]
    G = _tab1(RU, TB_G)
    curves = _tab3(RU, TB_CURVES)
    box = _tab1(RU, TB_BOX)
    while TM[RD.TM_NSEC] < G[G_WINDOW]:
        if not RD.gen_section(st, script, T, TM, curves, box):
            break
        s = TM[RD.TM_NSEC] - 1
        _log(Log(E, EN, 0, 0), -1, EV_TRACK, s, T[s, RD.T_KIND], T[s, RD.T_DIR], 0)
        if G[G_HAZARDS]:
            k0 = NM[0]
            RD.road_hazards(st, script, T, TM, M, NM, s, 0)
            for i in range(k0, NM[0]):
                _log(Log(E, EN, 0, 0), -1, EV_ROADHAZ, M[i, RD.MK_KIND], s, M[i, RD.MK_LLO], 0)
    for v in range(n):
        if V[v, V_SIDE] != lead_side:
            V[v, V_DIR] = 1
    # each player sets up on the section the rules give, seeing the road laid: the target side
    # first, as the book lists it
    for side in (lead_side, 1 - lead_side):
        for v in range(n):
            if V[v, V_SIDE] == side:
                setup_place(st, script, T, M, NM, V, n, v)


# --- changing the direction of play (p75) ---------------------------------------------------------
TM_PLAYDIR = RD.TM_PLAYDIR
# EV_TRACK's section field for a change of the direction of play (its second field the new
# direction) and for a renumbering of the sections (its second field the shift, _renumber)
EV_TRACK_PLAYDIR, EV_TRACK_RENUMBER = -2, -3


@jit
def _play_direction(st, script, T, TM, V, n, G, L):
    """The direction of play by the majority of the active cars; on equal numbers the old one
    stays (p75). A change is logged (EV_TRACK with section ``EV_TRACK_PLAYDIR``)."""
    if G[G_MODE] != MODE_CONTINUOUS:
        return 0
    d = play_majority(V, n, TM[TM_PLAYDIR])
    if d != TM[TM_PLAYDIR]:
        TM[TM_PLAYDIR] = d
        # the 180 degree rule starts again for the new stretch of road
        TM[RD.TM_LASTDIR] = 0
        TM[RD.TM_SAMEDIR] = 0
        TM[RD.TM_ENDED] = 0
        # hazard markers waiting for the next section the old way: it is never laid now
        TM[RD.TM_CARRY_L] = 0
        TM[RD.TM_CARRY_R] = 0
        _log(L, -1, EV_TRACK, EV_TRACK_PLAYDIR, d, 0, 0)
    return d


@jit
def _sight_needs_more_back(T, TM, lead_sec, sight):
    """:func:`pieces.road.sight_needs_more` for play towards lower sections (section 0
    reached or not: :func:`_renumber` makes room before it)."""
    first = TM[RD.TM_FIRST]
    if TM[RD.TM_ENDED]:
        return False
    for c in range(first, lead_sec):
        if T[c, RD.T_KIND] != RD.STRAIGHT:
            return False
    if T[lead_sec, RD.T_KIND] != RD.STRAIGHT:
        return first == lead_sec
    return lead_sec - first < sight


@jit
def _gen_section_back(st, script, T, TM, curves, box):
    """:func:`pieces.road.gen_section` laying the new section before the first one (p74-75): a new
    stretch of road replaces what was removed there. Directions are rolled for the drivers
    going that way (their left is the play-right). False when the track cannot grow."""
    first = TM[RD.TM_FIRST]
    if TM[RD.TM_ENDED] or first <= 0:
        TM[RD.TM_ENDED] = 1
        return False
    have_s = TM[RD.TM_STRAIGHTS] < box[0]
    after_curve = T[first, RD.T_KIND] != RD.STRAIGHT
    curve = False
    kind = RD.STRAIGHT
    dirn = 0
    if not after_curve:
        curve = dice.roll(st, script, 1, 6) >= 5
    if curve:
        have_c = TM[RD.TM_CORNERS] < box[1]
        have_b = TM[RD.TM_BENDS] < box[2]
        if not have_c and not have_b:
            curve = False
        else:
            kind = RD.CORNER if dice.roll(st, script, 1, 6) >= 5 else RD.BEND
            if kind == RD.CORNER and not have_c:
                kind = RD.BEND
            elif kind == RD.BEND and not have_b:
                kind = RD.CORNER
            if TM[RD.TM_SAMEDIR] >= 2:
                dirn = -TM[RD.TM_LASTDIR]
            else:
                dirn = 1 if dice.roll(st, script, 1, 6) % 2 == 1 else -1   # left for them
    if not curve:
        if not have_s:
            TM[RD.TM_ENDED] = 1
            return False
        kind = RD.STRAIGHT
        dirn = 0
    # place() writes at TM_NSEC: point it at the slot before the first section
    nsec = TM[RD.TM_NSEC]
    TM[RD.TM_NSEC] = first - 1
    RD.place(T, TM, kind, dirn, curves, box)
    TM[RD.TM_NSEC] = nsec
    TM[RD.TM_FIRST] = first - 1
    return True


# sections added before section 0 at a time when play turns back towards the start (p75)
RENUMBER = 32


@jit
def _renumber(B, V, n, k, L):
    """Make room for track before section 0: every section, marker and vehicle moves ``k``
    sections up the numbering (positions along the road are measured from section 0, so
    markers' extents move with them), as do the places the drivers remember backing off from.
    The book lays new track in the new direction however early play turns round (p75: 'When
    the direction of play is changed, new track is generated using all the rules given
    above'); with numbers that may not go below 0, a change with section 0 still on the table
    used to lay nothing, and the cars going that way drove off the start. Logged (EV_TRACK,
    section ``EV_TRACK_RENUMBER``) so that a reader of the log can follow the numbers."""
    T = B[B_T:B_T_END].reshape((RD.MAXSEC, RD.T_W))
    TM = B[B_TM:B_TM_END]
    M = B[B_M:B_M_END].reshape((RD.MAXM, RD.MK_W))
    NM = B[B_NM:B_NM_END]
    first = TM[RD.TM_FIRST]
    for s in range(TM[RD.TM_NSEC] - 1, first - 1, -1):
        T[s + k, :] = T[s, :]
    TM[RD.TM_FIRST] = first + k
    TM[RD.TM_NSEC] += k
    for i in range(NM[0]):
        M[i, RD.MK_SEC] += k
        M[i, RD.MK_XLO] += k * RD.UNITS
        M[i, RD.MK_XHI] += k * RD.UNITS
    for v in range(n):
        V[v, V_SEC] += k
        renumber_backing(V, v, k)
    _log(L, -1, EV_TRACK, EV_TRACK_RENUMBER, k, 0, 0)


@jit
def _extend_track_back(st, script, B, V, WS, n, RU, L):
    """Continuous generation with the direction of play reversed (p75): track is laid before
    the first section for the lead car going that way, and the far end (the new back) is
    removed with the cars and markers on it."""
    T = B[B_T:B_T_END].reshape((RD.MAXSEC, RD.T_W))
    TM = B[B_TM:B_TM_END]
    M = B[B_M:B_M_END].reshape((RD.MAXM, RD.MK_W))
    NM = B[B_NM:B_NM_END]
    G = _tab1(RU, TB_G)
    curves = _tab3(RU, TB_CURVES)
    box = _tab1(RU, TB_BOX)
    lead = -1
    best = 1 << 40
    for v in range(n):
        if V[v, V_STATUS] == ACTIVE and V[v, V_DIR] == 1:
            x = v_rear(T, V, v)
            if x < best:
                best = x
                lead = v
    if lead < 0:
        return
    if TM[RD.TM_FIRST] == 0 and TM[RD.TM_NSEC] + RENUMBER < RD.MAXSEC \
            and _sight_needs_more_back(T, TM, V[lead, V_SEC], G[G_SIGHT]):
        _renumber(B, V, n, RENUMBER, L)
    while TM[RD.TM_FIRST] > 0 and _sight_needs_more_back(T, TM, V[lead, V_SEC], G[G_SIGHT]):
        if TM[RD.TM_NSEC] - TM[RD.TM_FIRST] >= G[G_WINDOW]:
            gone = TM[RD.TM_NSEC] - 1
            TM[RD.TM_STRAIGHTS + T[gone, RD.T_KIND]] -= 1
            TM[RD.TM_NSEC] = gone
            for u in range(n):
                if on_road(V, u) and V[u, V_SEC] >= gone:
                    _leaves_with_track(V, WS, u, L)
            for i in range(NM[0]):
                if M[i, RD.MK_SEC] >= gone:
                    M[i, RD.MK_ACTIVE] = 0
        if not _gen_section_back(st, script, T, TM, curves, box):
            break
        s = TM[RD.TM_FIRST]
        _log(L, -1, EV_TRACK, s, T[s, RD.T_KIND], T[s, RD.T_DIR], 0)
        if G[G_HAZARDS]:
            k0 = NM[0]
            RD.road_hazards(st, script, T, TM, M, NM, s, 1)
            for i in range(k0, NM[0]):
                _log(L, -1, EV_ROADHAZ, M[i, RD.MK_KIND], s, M[i, RD.MK_LLO], 0)
