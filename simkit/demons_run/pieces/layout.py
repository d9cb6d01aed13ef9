"""State layout and rules arrays shared by the compiled race (``engine.py``) and the pilots
(``policies.py``): named column constants for the per-ship state, the scalar rules numbers the
race reads (all taken from the tables by :func:`race_arrays`, never literals in the kernels),
and the board as plain arrays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ..procedures import kernels as K
from .board import Board
from .markers import _whip_steps, board_arrays
from ..rules import Rules

# --- per-ship race state: int64[n_ships, SV_SIZE] ------------------------------------------
(V_COL, V_ROW, V_FACING, V_VEL, V_STATUS, V_NULL, V_CAPTURED, V_WHIP, V_TURNS, V_TUSES,
 A_ME, A_SCREENS, A_LASER, A_SCR, A_TRACTOR, V_PLACE, V_CR_NOW, V_CR_NEXT, V_LEAKS, V_TARGET,
 V_FIN_COL, V_FIN_ROW, V_MOVED, V_FIN_TURN, V_NCARRY, V_PILOT, V_FORCED, V_FIN_FIELD,
 V_RECOVERED) = range(29)
SV_SIZE = 29
RACING, FINISHED, DESTROYED, OFF_BOARD = range(4)
STATUS_NAMES = ("racing", "finished", "destroyed", "off board")
MAX_CARRY = 16

# buoys: int64[n, BU_SIZE]; hounds: int64[n, 3] (col, row, alive)
BU_COL, BU_ROW, BU_MKIND, BU_VP, BU_STATE = range(5)
BU_SIZE = 5
ON_BOARD, CARRIED, GONE = range(3)
VP_EASY, VP_MOVING, VP_HELL2, VP_HELL3 = range(4)

# --- race rules numbers: int64[N_RP] -------------------------------------------------------
(RP_WHIP_VMIN, RP_WHIP_VMAX, RP_WHIP_KMIN, RP_WHIP_KMAX, RP_WHIP_GAIN, RP_CAP_MIN, RP_CAP_MAX,
 RP_PASS_MIN, RP_ESC_V, RP_ESC_PEN, RP_FIN_V, RP_TURN_LIMIT, RP_MOVES_AT_MOST, RP_WHIP_STEPS,
 RP_HOUND_RANGE, RP_F_ACC, RP_F_DEC, RP_F_TURN, RP_F_SCREENS, RP_F_TRACTOR, RP_F_LASER,
 RP_F_SCR, RP_NULL_FUEL, RP_LEAK_FUEL, RP_VMAX, RP_MAX_RANGE, RP_SCR_LASER, RP_CRISIS_REPL,
 RP_VP_FUEL_PER, RP_VP_FUEL_MAX, RP_REC_VOVER, RP_REC_PER_V, RP_REC_PER_HEX, RP_REC_SUCC,
 RP_REC_WELL, RP_LOF_WELL, RP_LOF_HOLE, RP_TGT_MOVING, RP_TGT_HOUND, RP_REC_SUCCESS) = range(40)
RP_VP0 = 40          # 4 entries: VP of an easy, moving, Hell2, Hell3 Buoy
RP_PLACE0 = 44       # 4 entries: finishing 1st..4th
RP_REC_FIRE0 = 48    # 4 entries: recovery terrain modifier by Hell Fire class 0-3
RP_LOF_FIRE0 = 52    # 4 entries: Line-of-Fire modifier by Hell Fire class 0-3
RP_SI_DEAD = 56      # 005 L: a ship with this many SI Levels (0) or fewer is destroyed
RP_HOLE_KEEP_V = 57  # 204 M variant hell_hole_escape: 1 = a failed escape keeps its Velocity
N_RP = 58

# System Crisis results (2d6 totals) the race acts on, by their key in the table
CRISIS_KEYS = ("no_tractor", "no_weapons", "no_turning", "no_accelerate", "systems_failure",
               "no_screens", "no_decelerate", "must_accelerate", "must_decelerate", "fuel_leak")


@dataclass
class RaceArrays:
    """Everything the compiled race reads, built once per (rules, board)."""

    crit: np.ndarray
    par: np.ndarray        # hazard kernel scalars (kernels.P_*)
    vturns: np.ndarray
    rp: np.ndarray         # race scalars (RP_*)
    mn_hex: np.ndarray     # Maneuver Engines: turning movements per hex, by Level
    mn_turn: np.ndarray    # ... per Turn
    pi_mod: np.ndarray     # PI modifier by Level
    crisis_code: np.ndarray  # int64[13]: index into CRISIS_KEYS by 2d6 total (-1 none)
    contra: np.ndarray     # int64[k, 2] contradictory result pairs
    board: "BoardTables"

    @property
    def tables(self) -> "RaceTables":
        return RaceTables(self.crit, self.par, self.vturns, self.rp, self.mn_hex, self.mn_turn,
                          self.pi_mod, self.crisis_code, self.contra)


class RaceTables(NamedTuple):
    """The rule tables compiled race code reads, passed as one argument ``RT``. Module level so
    numba's on-disk cache can name its type."""
    crit: np.ndarray       # hazard kernels' critical hit table
    par: np.ndarray        # hazard kernel scalars (kernels.P_*)
    vturns: np.ndarray     # turning movements by Velocity
    rp: np.ndarray         # race scalars (RP_*)
    mn_hex: np.ndarray     # Maneuver Engines: turning movements per hex, by Level
    mn_turn: np.ndarray    # ... per Turn
    pi_mod: np.ndarray     # PI modifier by Level
    ccode: np.ndarray      # int64[13]: System Crisis result by 2d6 total (-1 none)
    contra: np.ndarray     # int64[k, 2] contradictory result pairs


class BoardTables(NamedTuple):
    """The board as compiled code reads it, ``BT`` (every array int64)."""
    terrain: np.ndarray    # [col, row] terrain code
    fire_class: np.ndarray  # [col, row] Hell Fire class (0 none)
    hole_of: np.ndarray    # [col, row] Hell Hole whose fire or ring this is (+1; 0 none)
    ring_pos: np.ndarray   # [col, row] position on a hole's ring (-1 none)
    ring_hole: np.ndarray  # [col, row] hole of that ring (+1; 0 none)
    rings: np.ndarray      # [hole, 6, 2] ring hexes
    rotation: np.ndarray   # [hole] +1 clockwise, -1 counter-clockwise
    side_dir: np.ndarray   # [hexside number] direction index
    hole_cls: np.ndarray   # [hole] 0 Hell, 1 Hell 2, 2 Hell 3
    hcen: np.ndarray       # [hole, 2] centre hex


def board_tables(board: Board) -> BoardTables:
    ba = board_arrays(board)
    cls = {"hell": 0, "hell2": 1, "hell3": 2}
    hole_cls = np.asarray([cls[h.cls] for h in board.holes], np.int64)
    centre = np.asarray([h.center for h in board.holes], np.int64).reshape(-1, 2)
    i64 = lambda a: np.ascontiguousarray(a, np.int64)  # noqa: E731
    return BoardTables(i64(ba.terrain), i64(board.fire_class), i64(ba.hole_of), i64(ba.ring_pos),
                       i64(ba.ring_hole), i64(ba.rings), i64(ba.rotation), i64(ba.side_dir),
                       hole_cls, centre)


def race_arrays(rules: Rules, board: Board) -> RaceArrays:
    crit, par, vturns = K.kernel_arrays(rules)
    m = rules.t("movement")
    mm = rules.t("marker_movement")
    fe = rules.t("fuel_expenditure")
    vp = rules.t("victory_points")
    br = rules.t("buoy_recovery")
    fi = rules.t("fire")
    sc = rules.t("system_crisis")
    rp = np.zeros(N_RP, np.int64)
    rp[RP_WHIP_VMIN], rp[RP_WHIP_VMAX] = m["whip_velocity_min"], m["whip_velocity_max"]
    rp[RP_WHIP_KMIN], rp[RP_WHIP_KMAX] = m["whip_hexes_min"], m["whip_hexes_max"]
    rp[RP_WHIP_GAIN] = m["whip_gain_max"]
    rp[RP_CAP_MIN], rp[RP_CAP_MAX], rp[RP_PASS_MIN] = m["capture_min"], m["capture_max"], m["pass_min"]
    rp[RP_ESC_V], rp[RP_ESC_PEN] = m["escape_velocity"], m["escape_penalty"]
    rp[RP_FIN_V], rp[RP_TURN_LIMIT] = m["finish_velocity"], m["turn_limit"]
    rp[RP_MOVES_AT_MOST], rp[RP_WHIP_STEPS] = mm["moves_at_most"], _whip_steps(rules)
    rp[RP_HOUND_RANGE] = mm["hound_attack_range"]
    per = fe["per_level"]
    rp[RP_F_ACC], rp[RP_F_DEC], rp[RP_F_TURN] = per["acceleration"], per["deceleration"], per["turning_movement"]
    rp[RP_F_SCREENS], rp[RP_F_TRACTOR] = per["screens"], per["tractor"]
    rp[RP_F_LASER], rp[RP_F_SCR] = per["laser"], per["scrambler"]
    rp[RP_NULL_FUEL], rp[RP_LEAK_FUEL] = fe["per_turn"]["lost_in_null"], sc["fuel_leak_per_turn"]
    rp[RP_VMAX], rp[RP_MAX_RANGE] = rules.max_velocity, fi["max_range"]
    rp[RP_SCR_LASER] = int(rules.scrambler_uses_laser)
    rp[RP_CRISIS_REPL] = sc["replacement"]
    rp[RP_VP_FUEL_PER], rp[RP_VP_FUEL_MAX] = vp["per_fuel_level"], vp["fuel_points_max"]
    rp[RP_VP0:RP_VP0 + 4] = (vp["easy_buoy"], vp["free_floater_or_high_roller"],
                             vp["hell2_buoy"], vp["hell3_buoy"])
    rp[RP_PLACE0:RP_PLACE0 + 4] = vp["finish_place"]
    rp[RP_REC_VOVER], rp[RP_REC_PER_V] = br["per_velocity_over"], br["per_velocity_level"]
    rp[RP_REC_PER_HEX], rp[RP_REC_SUCC] = br["per_hex_away"], br["successive_attempt"]
    rp[RP_REC_SUCCESS] = br["success_at_least"]
    ter = br["terrain"]
    rp[RP_REC_WELL] = ter["gravity_well"]
    rp[RP_REC_FIRE0:RP_REC_FIRE0 + 4] = (ter["plain"], ter["hell_fire"], ter["hell2_fire"],
                                         ter["hell3_fire"])
    lof = fi["line_of_fire"]
    rp[RP_LOF_WELL], rp[RP_LOF_HOLE] = lof["gravity_well"], lof["hell_hole"]
    rp[RP_LOF_FIRE0:RP_LOF_FIRE0 + 4] = (0, lof["hell_fire"], lof["hell2_fire"], lof["hell3_fire"])
    rp[RP_SI_DEAD] = rules.si_destroyed_at
    rp[RP_HOLE_KEEP_V] = int(rules.hole_keeps_velocity)
    rp[RP_TGT_MOVING], rp[RP_TGT_HOUND] = fi["target"]["moving_buoy"], fi["target"]["hell_hound"]
    mrows = rules.t("maneuver_engine")["rows"]
    code = np.full(13, -1, np.int64)
    for roll, key in zip(sc["rolls"], sc["key"]):
        code[roll] = CRISIS_KEYS.index(key)
    contra = np.asarray(sc["contradicts"], np.int64).reshape(-1, 2)
    bt = board_tables(board)
    return RaceArrays(crit, par, vturns, rp, np.asarray(mrows["per_hex"], np.int64),
                      np.asarray(mrows["per_turn"], np.int64), rules.pi_modifiers.copy(), code,
                      contra, bt)
