"""Who wins a Dark Future Game, and how often? Scenario files, the simulation over trials, and
readable seeded game logs.

A scenario (``scenarios/dark-future/game-N.toml``) names the track (``straights``: seven in a
line, Game One; ``layouts``: a d6 picks one of Game Two's six layouts, RECONSTRUCTED;
``initial``: Initial Track Generation, p74; ``continuous``: p75 with random road hazards), the
start speed (a number, or ``"roll"``: Game Three's 2d6 x 10 with its re-rolls and vetoes), who
leads (``roles = "die"``: a d6, odd = the first side leads, p87; or ``"fixed"``), the victory
condition (``finish``: the lead car crosses the line / moves off the last section, the chase car
wins by stopping it; ``destroy``: Game Six, a side loses when all its vehicles are wrecked,
crashed, off the table or immobilised without weapons; ``gangs``: Game Seven's gang against
gang, the lead side the target: the attacker wins only by taking out the whole target gang, the
target by getting its vehicles out of play or by taking out or outdistancing the attackers),
and the sides: each with its policy, its cars
(compact strings or a Game Three ``car_table`` rolled by d6), drive skill (a number, or
``"roll"``: Game Four's table) and an optional ``budget`` every car (or the side's cars
together, ``budget_scope = "side"``) must meet.

Games whose rules need what the engine lacks are refused with the reason (``refuse`` in the
file). Bikes ride in gangs (Games Six-Eight) with their own profile, critical tables and rules
(:mod:`.engine`, p62-72). Game Eight's intercept is an
``[intercept]`` table (``attacker_section`` 5-7, ``attacker_mph``): seven sections laid by the
generation rules, the target side (the lead side) on the third at 60mph, the attacker facing
it against the direction of play.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..core.extras import Extras
from ..core import dice, eventlog, stats
from ..core.checks import get_field
from ..core.data import read_toml
from ..core.errors import UserInputError
from ..core.runner import run
from . import engine as EG
from . import policies as PO
from .pieces import road as RD
from . import rules as R
from .procedures import shooting as SH
from .pieces import vehicle as VH
from .builds import car_from, validate
from .pieces.vehicle import M_FAIRING_L, M_FAIRING_R
from .pieces.vehicle import (M_HOOD, M_PASSIVE, M_ROOF, M_SIDE_L, M_SIDE_R, M_TURRET, M_WING_L,
                             M_WING_R, MAXW, MOUNT_NAMES, W_ACC, W_AMMO, W_DMG, W_FLAT, W_HE,
                             W_KEY, W_KIND, W_LASER, W_MOUNT, W_PTYPE, W_RANGE, W_STATION, W_W,
                             WK_DIRECT, WK_PASSIVE)

TRACKS = ("straights", "layouts", "initial", "continuous")
MAX_VEHICLES = 6
_MOUNT_CODE = {"hood": M_HOOD, "roof": M_ROOF, "wing_left": M_WING_L, "wing_right": M_WING_R,
               "side_left": M_SIDE_L, "side_right": M_SIDE_R, "turret": M_TURRET,
               "passive": M_PASSIVE, "passive_left": M_PASSIVE, "passive_right": M_PASSIVE,
               "fairing_left": M_FAIRING_L, "fairing_right": M_FAIRING_R}
_PASSIVE_TYPE = {"oil": RD.OIL, "mines": RD.MINES, "spikes": RD.SPIKES, "smoke": RD.SMOKE}


@dataclass
class Side:
    name: str
    policy: str
    cars: list            # per vehicle: list of Car loadouts (6 for a rolled table)
    skill: object         # int or "roll"
    role: str | None
    budget: int | None = None     # dollars per car, or for the side (budget_scope "side")
    budget_scope: str = "car"


@dataclass
class Scenario:
    name: str
    path: str
    label: str
    track: str
    start: object
    roles: str
    victory: str
    max_turns: int
    road_hazards: bool
    layouts: list
    sides: list = field(default_factory=list)
    variants: dict = field(default_factory=dict)
    intercept: tuple | None = None   # Game Eight's intercept: (attacker's section 1-based, mph)


def _err(msg, path, fieldname):
    return UserInputError(msg, where=str(path), field=fieldname)


def load_scenario(path, policies=None, variants=None) -> Scenario:
    """Read and check a Dark Future scenario file; every bad value is a UserInputError."""
    path = str(path)
    raw = read_toml(path)
    if not isinstance(raw, dict):
        raise _err("expected a table", path, "")
    refuse = raw.get("refuse")
    if refuse is not None:
        raise _err(f"this Game is not modelled: {refuse}", path, "refuse")
    name = get_field(raw, "name", (str,), path, "name", default=Path(path).stem)
    label = get_field(raw, "label", (str,), path, "label", default="")
    track = get_field(raw, "track", (str,), path, "track")
    if track not in TRACKS:
        raise _err(f"unknown track {track!r} (known: {', '.join(TRACKS)})", path, "track")
    start = raw.get("start_mph", 60)
    if isinstance(start, bool) or not (isinstance(start, int) and 0 <= start <= 120
                                       or start == "roll"):
        raise _err(f"expected mph 0-120 or \"roll\", got {start!r}", path, "start_mph")
    roles = get_field(raw, "roles", (str,), path, "roles", default="die")
    if roles not in ("die", "fixed"):
        raise _err(f"expected \"die\" or \"fixed\", got {roles!r}", path, "roles")
    victory = get_field(raw, "victory", (str,), path, "victory", default="finish")
    if victory not in ("finish", "destroy", "gangs"):
        raise _err(f"expected \"finish\", \"destroy\" or \"gangs\", got {victory!r}", path,
                   "victory")
    max_turns = get_field(raw, "max_turns", (int,), path, "max_turns", default=60)
    if not 1 <= max_turns <= 500:
        raise _err(f"must be 1-500, got {max_turns}", path, "max_turns")
    hazards = get_field(raw, "road_hazards", (bool,), path, "road_hazards",
                        default=track == "continuous")
    chosen = dict(variants or {})
    file_variants = get_field(raw, "variants", (dict,), path, "variants", default={})
    for k, v in file_variants.items():
        if not isinstance(v, str):
            raise _err(f"expected a choice name, got {v!r}", path, f"variants.{k}")
        chosen.setdefault(k, v)
    try:
        rules = R.rules_for(chosen)
    except UserInputError as e:
        raise _err(e.detail if hasattr(e, "detail") else str(e), path, "variants") from None
    layouts = []
    if track == "layouts":
        raw_l = raw.get("layouts", rules.table("game_two_layouts")["layouts"])
        if not isinstance(raw_l, list) or not 1 <= len(raw_l) <= 6:
            raise _err("expected a list of 1-6 layouts", path, "layouts")
        for i, lay in enumerate(raw_l):
            if not isinstance(lay, list) or not 1 <= len(lay) <= 10:
                raise _err("expected a list of 1-10 sections", path, f"layouts[{i}]")
            try:
                RD.layout_codes(lay)
            except (ValueError, TypeError):
                raise _err(f"sections are S, BL, BR, CL or CR; got {lay!r}", path,
                           f"layouts[{i}]") from None
            layouts.append([str(x).upper() for x in lay])
    elif track == "straights":
        n = get_field(raw, "sections", (int,), path, "sections", default=7)
        if not 1 <= n <= 8:
            raise _err(f"the box holds 8 straights; got {n}", path, "sections")
        layouts.append(["S"] * n)
    raw_sides = raw.get("side")
    if not isinstance(raw_sides, list) or len(raw_sides) != 2:
        raise _err("expected two [[side]] tables", path, "side")
    sides = []
    total = 0
    for i, rs in enumerate(raw_sides):
        f = f"side[{i}]"
        if not isinstance(rs, dict):
            raise _err("expected a table", path, f)
        sname = get_field(rs, "name", (str,), path, f"{f}.name", default=f"side-{i + 1}")
        pol = (policies or {}).get(sname) or get_field(rs, "policy", (str,), path, f"{f}.policy",
                                                       default="standard")
        if pol not in PO.POLICIES:
            raise _err(f"unknown policy {pol!r} (known: {', '.join(PO.POLICIES)})", path,
                       f"{f}.policy")
        skill = rs.get("skill", 3)
        if isinstance(skill, bool) or not (isinstance(skill, int) and 0 <= skill <= 9
                                           or skill == "roll"):
            raise _err(f"expected a drive skill 0-9 or \"roll\", got {skill!r}", path, f"{f}.skill")
        role = rs.get("role")
        if roles == "fixed" and role not in ("lead", "chase"):
            raise _err("with roles = \"fixed\" each side needs role = \"lead\" or \"chase\"",
                       path, f"{f}.role")
        budget = get_field(rs, "budget", (int,), path, f"{f}.budget", default=None)
        scope = get_field(rs, "budget_scope", (str,), path, f"{f}.budget_scope", default="car")
        if scope not in ("car", "side"):
            raise _err(f"expected \"car\" or \"side\", got {scope!r}", path, f"{f}.budget_scope")
        table = rs.get("car_table")
        cars_raw = rs.get("cars")
        vehicles = []
        if table is not None:
            if table not in ("offensive", "defensive"):
                raise _err(f"expected \"offensive\" or \"defensive\", got {table!r}", path,
                           f"{f}.car_table")
            vehicles.append([car_from(c) for c in rules.table("game_three_cars")[table]])
        else:
            if not isinstance(cars_raw, list) or not 1 <= len(cars_raw) <= MAX_VEHICLES // 2 \
                    or not all(isinstance(c, str) for c in cars_raw):
                raise _err(f"expected a list of 1-{MAX_VEHICLES // 2} cars (compact strings)",
                           path, f"{f}.cars")
            for j, c in enumerate(cars_raw):
                try:
                    car = car_from(c) if not c.endswith(".toml") else car_from(
                        str(Path(path).parent / c))
                except UserInputError as e:
                    raise _err(str(e), path, f"{f}.cars[{j}]") from None
                vehicles.append([car])
        cost = 0
        for j, loads in enumerate(vehicles):
            for car in loads:
                try:
                    rep = validate(car, budget if scope == "car" else None, chosen)
                except UserInputError as e:
                    raise _err(str(e), path, f"{f}.cars[{j}]") from None
                if not any(True for _ in car.mounts):
                    raise _err("each vehicle needs at least one weapon (Games Four-Six)", path,
                               f"{f}.cars[{j}]")
                cost += rep.cost if len(loads) == 1 else 0
        if budget is not None and scope == "side" and cost > budget:
            raise _err(f"the side costs ${cost:,}, over its budget of ${budget:,}", path,
                       f"{f}.budget")
        sides.append(Side(sname, pol, vehicles, skill, role, budget, scope))
        total += len(vehicles)
    if policies:
        unknown = set(policies) - {s.name for s in sides}
        if unknown:
            raise UserInputError(f"no side named {', '.join(sorted(unknown))} (sides: "
                                 f"{', '.join(s.name for s in sides)})", field="--policy")
        for side_name, pol in policies.items():
            if pol not in PO.POLICIES:
                raise UserInputError(f"unknown policy {pol!r} (known: {', '.join(PO.POLICIES)})",
                                     field="--policy")
    if roles == "fixed" and {s.role for s in sides} != {"lead", "chase"}:
        raise _err("one side must lead and the other chase", path, "side")
    intercept = None
    raw_i = raw.get("intercept")
    if raw_i is not None:
        if not isinstance(raw_i, dict):
            raise _err("expected a table (attacker_section, attacker_mph)", path, "intercept")
        it = rules.table("intercept")
        if track != "continuous":
            raise _err("the intercept is played on continuous track (Game Eight)", path, "track")
        if roles != "fixed":
            raise _err("the intercept needs roles = \"fixed\" (the target side leads)", path,
                       "roles")
        if start != it["target_mph"]:
            raise _err(f"the target sets up at {it['target_mph']}mph (Game Eight)", path,
                       "start_mph")
        a_sec = get_field(raw_i, "attacker_section", (int,), path, "intercept.attacker_section",
                          default=it["attacker_sections"][0])
        if a_sec not in it["attacker_sections"]:
            raise _err(f"the attacker sets up on section {', '.join(map(str, it['attacker_sections']))}"
                       f"; got {a_sec}", path, "intercept.attacker_section")
        a_mph = get_field(raw_i, "attacker_mph", (int,), path, "intercept.attacker_mph",
                          default=60)
        top = min(R.vehicle(c.vehicle, rules).speed for s_ in sides if s_.role == "chase"
                  for loads in s_.cars for c in loads)
        if not 0 <= a_mph <= top:
            raise _err(f"must be 0-{top} (the attacker's maximum speed); got {a_mph}", path,
                       "intercept.attacker_mph")
        extra = set(raw_i) - {"attacker_section", "attacker_mph"}
        if extra:
            raise _err(f"unknown key {sorted(extra)[0]!r}", path, "intercept")
        intercept = (a_sec, a_mph)
    return Scenario(name, path, label, track, start, roles, victory, max_turns, hazards, layouts,
                    sides, chosen, intercept)


# --- arrays for the kernel -------------------------------------------------------------------------
@dataclass
class Arrays:
    G: np.ndarray
    VC: np.ndarray
    VPOS: np.ndarray
    LOAD: np.ndarray
    LFIT: np.ndarray
    PROF: np.ndarray
    SKILLS: np.ndarray
    LAY: np.ndarray
    curves: np.ndarray
    box: np.ndarray
    crit: tuple
    hp: np.ndarray
    cl_lows: np.ndarray
    cl_codes: np.ndarray
    spin_t: np.ndarray
    POL: np.ndarray
    names: list          # vehicle labels
    loadouts: list       # per vehicle: compact descriptions


def _weapon_rows(car, chosen):
    rules = R.rules_for(chosen)
    ws = SH.weapons(chosen)
    passives = rules.table("passives")
    rows = np.zeros((MAXW, W_W), np.int64)
    fit, groups = SH.station_layout(car.vehicle, car, chosen)
    slot = 0
    for mount, value in car.mounts.items():
        keys = value if isinstance(value, list) else [value]
        for i, key in enumerate(keys):
            key = str(key).lower()
            key = rules.table("weapons").get("aliases", {}).get(key, key)
            key = passives.get("aliases", {}).get(key, key)
            r = rows[slot]
            r[W_MOUNT] = _MOUNT_CODE[mount]
            station = f"turret_{'ab'[i]}" if mount == "turret" else mount
            r[W_STATION] = SH.STATIONS.index(station)
            if key in ws:
                w = ws[key]
                r[W_KIND] = WK_DIRECT
                r[W_RANGE] = w.range
                r[W_ACC] = w.accuracy
                r[W_DMG] = w.damage
                r[W_HE] = int(w.he)
                r[W_FLAT] = int(w.flat)
                r[W_AMMO] = w.shots if w.shots > 0 else -1
                r[W_LASER] = int("laser" in key)
                r[W_KEY] = list(ws).index(key)
                r[VH.W_GUIDED] = int(key == "missile_pod")   # guidance system (p34)
            else:
                r[W_KIND] = WK_PASSIVE
                r[W_AMMO] = passives["rows"][key][1]
                r[W_PTYPE] = _PASSIVE_TYPE[key.replace("lw_", "")]
                r[W_KEY] = 100 + list(passives["rows"]).index(key)
            for g, link in enumerate(getattr(car, "links", []) or []):
                if mount in link:
                    r[VH.W_LINK] = g + 1   # fires with the rest of its link (p83)
            slot += 1
    return rows, np.array(fit, np.int64), np.array(groups, np.int64).reshape(-1, 2)


def _compact(car) -> str:
    parts = []
    for m, v in car.mounts.items():
        parts.append(f"{m}={'+'.join(v) if isinstance(v, list) else v}")
    for link in car.links:
        parts.append(f"link={'+'.join(link)}")
    return f"{car.vehicle}: {', '.join(parts)}"


def to_arrays(sc: Scenario) -> Arrays:
    rules = R.rules_for(sc.variants)
    sel = R.selection(sc.variants)
    vehicles = [(si, loads) for si, s in enumerate(sc.sides) for loads in s.cars]
    n = len(vehicles)
    G = np.zeros(EG.G_W, np.int64)
    G[EG.G_MAXTURNS] = sc.max_turns
    G[EG.G_NV] = n
    G[EG.G_MODE] = {"straights": EG.MODE_FIXED, "layouts": EG.MODE_FIXED,
                    "initial": EG.MODE_INITIAL, "continuous": EG.MODE_CONTINUOUS}[sc.track]
    stretch = rules.variants["track_stretch"].choices[sel["track_stretch"]]["sections"]
    G[EG.G_WINDOW] = stretch
    G[EG.G_SIGHT] = rules.table("track_generation")["sight_straights"]
    G[EG.G_HAZARDS] = int(sc.road_hazards)
    G[EG.G_VICTORY] = {"finish": EG.VICTORY_FINISH, "destroy": EG.VICTORY_DESTROY,
                       "gangs": EG.VICTORY_GANGS}[sc.victory]
    setup = rules.table("game_setup")
    G[EG.G_SPEEDMODE] = 1 if sc.start == "roll" else 0
    G[EG.G_START_MPH] = 0 if sc.start == "roll" else sc.start
    G[EG.G_REROLL_MAX] = setup["reroll_max"]
    G[EG.G_ANY_VETO] = setup["either_veto_min"]
    G[EG.G_LEAD_VETO] = rules.variants["lead_start_veto"].choices[sel["lead_start_veto"]]["min_score"]
    G[EG.G_MPH_PIP] = setup["start_mph_per_pip"]
    G[EG.G_SIDE_CORRIDOR] = rules.variants["side_mount_corridor"].choices[
        sel["side_mount_corridor"]]["reach"]
    G[EG.G_NLAYOUT] = max(1, len(sc.layouts))
    G[EG.G_ROLEMODE] = 0 if sc.roles == "die" else 1
    G[EG.G_CRIT_HIT] = int(sel["critical_trigger"] == "hit_roll")
    G[EG.G_PENALTY] = R.control_loss_penalty(rules)
    sk = rules.table("skid_test")
    G[EG.G_SKID_S] = sk["straight_mph"]
    G[EG.G_SKID_D] = sk["drift_mph"]
    sl = rules.table("safety_limits")
    lim = sl["limits"]
    G[EG.G_L_DRIFT] = lim["drift"]
    G[EG.G_L_OIL_S] = lim["oil_straight"]
    G[EG.G_L_OIL_O] = lim["oil_other"]
    G[EG.G_L_MINE] = lim["pattern_mine"]
    G[EG.G_L_SMOKE] = lim["smoke"]
    G[EG.G_L_SAND] = lim["sand"]
    G[EG.G_L_DEBRIS] = lim["debris"]
    G[EG.G_L_RAIL] = lim["railroad"]
    G[EG.G_L_SHUNT] = lim["shunt"]
    G[EG.G_L_SS_NN] = lim["sideswipe_neck_and_neck_loser"]
    G[EG.G_L_TYRE] = lim["tyre_destroyed"]
    G[EG.G_HE_SMALL_MAX] = sl["he_small_max_damage"]
    G[EG.G_HE_SMALL] = lim["he_small"]
    G[EG.G_HE_LARGE] = lim["he_large"]
    G[EG.G_EXPLODE] = rules.table("terminal_damage")["explode_face"]
    tf = rules.table("tactical_factors")
    G[EG.G_T_HOOD] = tf["hood"]
    G[EG.G_T_TURRET] = tf["turret"]
    G[EG.G_T_SMOKE] = tf["smoke_per_marker"]
    G[EG.G_T_SMOKE_MAX] = tf["smoke_max"]
    G[EG.G_T_FAST] = tf["fast_mph"]
    G[EG.G_T_FAST_F] = tf["fast_firer"]
    G[EG.G_T_FAST_T] = tf["fast_target"]
    G[EG.G_RANGE_CAP] = rules.table("hit_roll")["range_cap"]
    di = rules.table("damage_increments")
    G[EG.G_I_SPEED] = di["max_speed_loss"]
    G[EG.G_I_ACC] = di["acc_loss"]
    G[EG.G_I_HAND] = di["handling_loss"]
    G[EG.G_MIN_BRK] = di["min_braking"]
    pe = rules.table("passive_effects")
    G[EG.G_OIL_MAX] = pe["oil_max"]
    G[EG.G_OIL_HAND] = pe["oil_handling"]
    G[EG.G_MINE_DMG] = pe["mine_damage"]
    G[EG.G_SPIKE_MPH] = pe["spike_immune_mph"]
    G[EG.G_SPIKE_DMG] = pe["spike_damage"]
    G[EG.G_SPIKE_RULE] = rules.variants["spike_damage"].choices[sel["spike_damage"]]["rule"]
    G[EG.G_SHUNT_MOVE] = rules.variants["shunt_target_move"].choices[
        sel["shunt_target_move"]]["always"]
    G[EG.G_STOPPED_BIKE] = rules.variants["stopped_bike_ram"].choices[
        sel["stopped_bike_ram"]]["head_on"]
    G[EG.G_BIKE_CUTUP] = rules.variants["bike_cut_up"].choices[
        sel["bike_cut_up"]]["between_bikes"]
    G[EG.G_DODGE_OBST] = rules.variants["dodge_obstacles"].choices[
        sel["dodge_obstacles"]]["one_lane"]
    mo = rules.table("motion")
    G[EG.G_COAST] = mo["coast_loss_mph"]
    G[EG.G_TYRE_LOSS] = mo["tyre_max_speed_loss"]
    G[EG.G_TYRE_CAP] = mo["tyre_max_speed_cap"]
    G[EG.G_REALIGN] = mo["realign_max_mph"]
    rm = rules.table("rams")
    G[EG.G_SS_LOSS] = rm["neck_and_neck_loss_mph"]
    G[EG.G_RAM_BONUS] = rm["rammer_bonus"]
    G[EG.G_SPEED_STEP] = rules.table("speed_factor")["mph_per_factor"]
    lc = rules.table("lasting_criticals")
    G[EG.G_DUMMIES] = rules.table("dummies")["per_vehicle"]
    G[EG.G_L_AXLE] = lim["broken_axle"]
    G[EG.G_L_MINE2] = lim["pattern_mine_double"]
    G[EG.G_LEAK_FACE] = lc["leak_face"]
    G[EG.G_JAM_CLEAR] = lc["jam_clear_face"]
    G[EG.G_DMG_ACC] = lc["damaged_accuracy"]
    G[EG.G_HALF] = lc["halve"]
    G[EG.G_TYRE_HAND] = lc["tyre_handling"]

    # the direction of travel (p14, p17, p57, Game Eight)
    G[EG.G_L_UTURN] = lim["uturn"]
    G[EG.G_UTURN_LOSS] = sl["uturn_control_loss_mph"]
    G[EG.G_SS_OPP_LOSS] = rm["opposed_loss_mph"]
    G[EG.G_L_SS_OPP_W] = lim["sideswipe_opposed_winner"]
    G[EG.G_L_SS_OPP_L] = lim["sideswipe_opposed_loser"]
    rev = rules.table("reverse")["rows"]
    # one reverse speed for the cars (bikes may not reverse, p64: the engine refuses it)
    G[EG.G_REV_MPH] = rev["renegade"][0]
    assert rev["interceptor"][0] == rev["renegade"][0]
    G[EG.G_INTERCEPT] = 0 if sc.intercept is None else sc.intercept[1] + 1
    ut = rules.table("uturn")
    if ut["zone_lanes"] != RD.LANES or ut["end_lanes"] != "same":
        # the engine's U-turn (engine._uturn_move) is this reading and no other
        raise UserInputError("the engine models the U-turn's zone across the whole road and the "
                             "car ending on the same lanes", field="uturn")
    G[EG.G_PLAYDIR] = 0

    kinds = list(R.VEHICLES)
    PROF = np.zeros((3, 9), np.int64)
    for k, name in enumerate(kinds):
        p = R.vehicle(name, rules)
        PROF[k, :6] = (p.damage, p.armour, p.speed, p.acc, p.braking, p.handling)
        for i, lv in enumerate(p.increments):
            PROF[k, 6 + i] = lv
    VC = np.zeros((n, EG.VC_W), np.int64)
    VPOS = np.zeros((n, 2, 3), np.int64)
    LOAD = np.zeros((n, 6, MAXW, W_W), np.int64)
    LFIT = np.zeros((n, 6, len(SH.STATIONS)), np.int64)
    groups = np.zeros((n, len(SH.WEAPON_GROUPS), 2), np.int64)
    POL = np.zeros((n, PO.P_W), np.int64)
    names, loadouts = [], []
    count = [0, 0]
    for v, (si, loads) in enumerate(vehicles):
        side = sc.sides[si]
        j = count[si]
        count[si] += 1
        VC[v, EG.VC_SIDE] = si
        VC[v, EG.VC_KIND] = kinds.index(loads[0].vehicle)
        VC[v, EG.VC_SKILLMODE] = 1 if side.skill == "roll" else 0
        VC[v, EG.VC_SKILL] = 0 if side.skill == "roll" else side.skill
        VC[v, EG.VC_NLOAD] = len(loads)
        VC[v, EG.VC_ROLE] = 0 if side.role == "lead" else 1
        for role in (0, 1):
            # the chase car on the first section, the lead car on the one in front (p87),
            # both at the front of their section; a gang spreads across the lanes
            VPOS[v, role] = (1 if role == 0 else 0, (2 + 2 * j) % 6 if j < 3 else (2 * j) % 6,
                             2 - j // 3)
        if sc.intercept is not None:
            # Game Eight's intercept: the target (lead side) on the third section, at its front;
            # the attacker on the section chosen, at its rear, facing the target
            sec_t = rules.table("intercept")["target_section"] - 1
            VPOS[v, 0] = (sec_t, (2 + 2 * j) % 6 if j < 3 else (2 * j) % 6, 2 - j // 3)
            VPOS[v, 1] = (sc.intercept[0] - 1, (2 + 2 * j) % 6 if j < 3 else (2 * j) % 6, j // 3)
        for li, car in enumerate(loads):
            rows, fit, grp = _weapon_rows(car, sc.variants)
            LOAD[v, li] = rows
            LFIT[v, li] = fit
            if li == 0:
                groups[v] = grp
        POL[v] = PO.policy_vector(side.policy)
        for pname, value in getattr(side, "params", {}).items():  # a point of the space
            POL[v, PO.PARAM_SPACE[pname][0]] = int(value)
        names.append(f"{side.name}#{j + 1}" if len(side.cars) > 1 else side.name)
        loadouts.append([_compact(c) for c in loads])
    SKILLS = np.array(rules.table("drive_skill_game_four")["rows"], np.int64)
    LAY = np.zeros((max(1, len(sc.layouts)), 10, 2), np.int64)
    nlay = max((len(x) for x in sc.layouts), default=0)
    if sc.layouts:
        LAY = np.zeros((len(sc.layouts), nlay, 2), np.int64)
        for i, lay in enumerate(sc.layouts):
            if len(lay) != nlay:
                raise UserInputError("every layout must have the same number of sections",
                                     where=sc.path, field="layouts")
            LAY[i] = RD.layout_codes(lay)
    matrix, rerolls, effects = _crit_stack(sc.variants)
    lows, codes = R.control_loss_table("car", rules)
    spin_t = np.array(rules.table("spin_template")["rows"], np.int64)
    _bike_globals(G, rules, kinds)
    hp = _hp_with_bikes(rules)
    _driver_rules(hp, G)
    return Arrays(G, VC, VPOS, LOAD, LFIT, PROF, SKILLS, LAY, RD.curve_array(rules),
                  RD.box_array(rules), (matrix, rerolls, effects, groups),
                  hp, lows, codes, spin_t, POL, names, loadouts)


def _driver_rules(hp, G):
    """The rule numbers the drivers price shots, swipes, passives and rams with, copied from
    the engine's G (the rules in force, variants applied) into hp's driver block
    (policies.HP_*): a variant that changes the engine's numbers changes the drivers' too."""
    for cell, g in ((PO.HP_RAM_BONUS, EG.G_RAM_BONUS), (PO.HP_SS_LOSS, EG.G_SS_LOSS),
                    (PO.HP_L_SWIPE, EG.G_L_SS_NN), (PO.HP_L_OIL_S, EG.G_L_OIL_S),
                    (PO.HP_L_OIL_O, EG.G_L_OIL_O), (PO.HP_L_MINE, EG.G_L_MINE),
                    (PO.HP_MINE_DMG, EG.G_MINE_DMG), (PO.HP_L_SMOKE, EG.G_L_SMOKE),
                    (PO.HP_SPIKE_MPH, EG.G_SPIKE_MPH), (PO.HP_OIL_MAX, EG.G_OIL_MAX),
                    (PO.HP_MPH_SF, EG.G_SPEED_STEP), (PO.HP_L_SHUNT, EG.G_L_SHUNT),
                    (PO.HP_CAR_SHUNT_SLOW, EG.G_CAR_SHUNT_SLOW),
                    (PO.HP_STOPPED_BIKE, EG.G_STOPPED_BIKE),
                    (PO.HP_DODGE_OBST, EG.G_DODGE_OBST)):
        hp[cell] = G[g]
    hp[PO.HP_TAKE_OUT] = int(G[EG.G_VICTORY] == EG.VICTORY_DESTROY)
    hp[PO.HP_OUTRUN] = int(G[EG.G_MODE] == EG.MODE_CONTINUOUS)
    hp[PO.HP_GET_AWAY] = int(G[EG.G_VICTORY] == EG.VICTORY_GANGS)
    hp[PO.HP_ROLL_CRASH] = G[EG.G_BIKE_CRASH]
    # the hit roll's tactical factors: the engine's shot reads them here too
    # (pieces.vehicle.hit_modifier), so both price and roll a shot alike
    for cell, g in ((VH.TF_HOOD, EG.G_T_HOOD), (VH.TF_TURRET, EG.G_T_TURRET),
                    (VH.TF_SMOKE, EG.G_T_SMOKE), (VH.TF_SMOKE_MAX, EG.G_T_SMOKE_MAX),
                    (VH.TF_FAST, EG.G_T_FAST), (VH.TF_FAST_F, EG.G_T_FAST_F),
                    (VH.TF_FAST_T, EG.G_T_FAST_T), (VH.TF_BIKE2, EG.G_T_BIKE2),
                    (VH.TF_BIKE1, EG.G_T_BIKE1), (VH.TF_RANGE_CAP, EG.G_RANGE_CAP)):
        hp[PO.HP_TF + cell] = G[g]
    nb = G[EG.G_BCL_N]
    codes = list(hp[EG.HP_BCL_CODES:EG.HP_BCL_CODES + nb])
    hp[PO.HP_ROLL_LOW] = hp[EG.HP_BCL + codes.index(EG.ROLL_CODE)]


def _crit_stack(chosen):
    """The car's critical tables with the bike's after them (facings 5-9, locations 7-13, the
    bike's re-roll lists numbered after the car's); :func:`engine._take_hit` picks a vehicle's
    half."""
    ct = SH.crit_tables("car", chosen)
    bt = SH.crit_tables("bike", chosen)
    shift = ct.rerolls.shape[0]

    def moved(a):
        a = a.copy()
        a[a >= SH.REROLL] += shift
        return a

    matrix = np.concatenate([ct.matrix, moved(bt.matrix)])
    rerolls = np.concatenate([ct.rerolls, moved(bt.rerolls)])
    effects = np.concatenate([ct.effects, bt.effects])
    return matrix, rerolls, effects


def _hp_with_bikes(rules):
    """Hazard parameters, then the bike tables the engine reads (engine.HP_*)."""
    hp = np.zeros(EG.HP_W, np.int64)
    base = R.hazard_params(rules).as_array()
    hp[:len(base)] = base
    hp[EG.HP_ROAD:EG.HP_ROAD + 8] = rules.table("road_damage")["rows"]
    lows, codes = R.control_loss_table("bike", rules)
    hp[EG.HP_BCL:EG.HP_BCL + len(lows)] = lows
    hp[EG.HP_BCL_CODES:EG.HP_BCL_CODES + len(codes)] = codes
    hp[EG.HP_ROLLFACE:EG.HP_ROLLFACE + 6] = [
        SH.FACINGS.index(f.replace("left_", "").replace("right_", ""))
        for f in rules.table("bike_roll_facing")["rows"]]
    return hp


def _bike_globals(G, rules, kinds):
    lim = rules.table("safety_limits")["limits"]
    br = rules.table("bike_rules")
    tf = rules.table("tactical_factors")
    G[EG.G_BIKE_KIND] = kinds.index("bike")
    G[EG.G_REDUCED] = rules.table("bike_hazards")["reduced_handling"]
    G[EG.G_L_OVERLAP] = lim["bike_overlap_neck_and_neck"]
    G[EG.G_L_OVERLAP_OPP] = lim["bike_overlap_opposed"]
    G[EG.G_L_DODGE] = lim["bike_dodge"]
    G[EG.G_L_OPP_WIN] = lim["sideswipe_opposed_winner"]
    G[EG.G_L_OPP_LOSE] = lim["sideswipe_opposed_loser"]
    G[EG.G_BIKE_CRASH] = rules.table("control_loss_bike")["crash_roll_mph"]
    G[EG.G_ROLL_LESS] = br["roll_damage_less"]
    G[EG.G_CAR_HEADON_SLOW] = br["car_head_on_slow_mph"]
    G[EG.G_CAR_SHUNT_SLOW] = br["car_shunt_slow_mph"]
    G[EG.G_PUSH_MPH] = br["push_mph"]
    G[EG.G_T_BIKE2] = tf["bike_two_lanes"]
    G[EG.G_T_BIKE1] = tf["bike_one_lane"]
    G[EG.G_BCL_N] = len(rules.table("control_loss_bike")["rows"])


class GameSim:
    """Games over trials for the runner; integer statistics only (bit-identical across
    threads and chunk sizes)."""

    def __init__(self, sc: Scenario):
        self.scenario = sc
        self.a = to_arrays(sc)
        self.name = f"dark-future {sc.name}"
        self.n_stats = EG.N_STATS

    def args(self):
        a = self.a
        return (a.G, a.VC, a.VPOS, a.LOAD, a.LFIT, a.PROF, a.SKILLS, a.LAY, a.curves, a.box,
                a.crit, a.hp, a.cl_lows, a.cl_codes, a.spin_t, a.POL)

    def chunk(self, key, first, n):
        return EG.games_chunk(np.uint64(key), first, n, *self.args(), dice.NO_SCRIPT)

    def summarise(self, totals, n_trials):
        t = np.asarray(totals)
        sc = self.scenario
        n = n_trials
        turns, t_lo, t_hi = stats.mean_ci(t[EG.ST_TURNS], t[EG.ST_TURNS_SQ], n)
        rows = []
        for i, side in enumerate(sc.sides):
            b = EG.ST_SIDE + i * EG.N_SIDE
            wins = int(t[b])
            lo, hi = stats.rate_ci(wins, n)
            led = int(t[b + 1])
            wl = int(t[b + 2])
            rows.append({
                "scenario": sc.name, "side": side.name, "policy": side.policy, "trials": n,
                "wins": wins, "draws": int(t[EG.ST_DRAWS]), "win_rate": wins / n,
                "win_lo": float(lo), "win_hi": float(hi),
                "games_as_lead": led, "wins_as_lead": wl,
                "wins_as_chase": wins - wl,
                "mean_turns": float(turns), "turns_lo": float(t_lo), "turns_hi": float(t_hi),
            })
        frame = pd.DataFrame(rows)
        lead_w = int(t[EG.ST_LEAD_WINS])
        chase_w = int(t[EG.ST_CHASE_WINS])
        role_rows = []
        for role, w in (("lead", lead_w), ("chase", chase_w)):
            lo, hi = stats.rate_ci(w, n)
            role_rows.append({"role": role, "wins": w, "win_rate": w / n, "win_lo": float(lo),
                              "win_hi": float(hi)})
        reasons = pd.DataFrame({"how the game ended": EG.REASON_NAMES,
                                "games": [int(t[EG.ST_REASON + i])
                                          for i in range(len(EG.REASON_NAMES))]})
        frame.attrs["columns"] = ["pairing", "side", "policy", "trials", "wins", "draws",
                                  "win_rate", "win_lo", "win_hi", "wins_as_lead", "wins_as_chase",
                                  "mean_turns"]
        frame.attrs["extra"] = Extras({
            "win rates by role (lead car / chase car)": pd.DataFrame(role_rows),
            "how games ended": reasons,
            "how games ended, per side": endings_frame(sc, t, n)})
        return frame


# the engine's CRASH_* codes, in order
_CRASH = _CRASH_CAUSES = ("off the road", "spinning on a curve", "no driver on a curve",
                          "hit by a train", "a roll at 81mph or more",
                          "a head-on collision with a car or obstacle", "into a wrecked bike",
                          "a wheel off at 81mph or more")
RESULT_NAMES = ("won", "lost", "drawn")
FATE_NAMES = ("crossed the line", "left play (outdistanced or got away)", "wrecked",
              *(f"crashed: {c}" for c in _CRASH_CAUSES), "stopped for good", "still running")


def endings_frame(sc: Scenario, totals, n_trials) -> pd.DataFrame:
    """How games ended for each side, from the summed statistics of :class:`GameSim`: a tidy
    frame, one row per (side, measure, ending) with the games counted, their share of all
    games and its 95% Wilson interval. ``measure`` is ``result`` (the side won, lost or drew,
    and why the game ended: every game in exactly one row per side) or ``vehicles`` (games in
    which at least one of the side's vehicles ended that way: crossed the line, got away,
    wrecked, crashed and how, stopped for good, still running; a game may count in several
    rows). Rows with no games are kept, so frames of different runs line up."""
    t = np.asarray(totals)
    rows = []
    for i, side in enumerate(sc.sides[:2]):
        b = EG.ST_END + i * EG.N_END
        for r, rname in enumerate(RESULT_NAMES):
            for k, why in enumerate(EG.REASON_NAMES):
                rows.append((side.name, side.policy, "result", f"{rname}: {why}",
                             int(t[b + r * EG.N_REASON + k])))
        b = EG.ST_FATE + i * EG.N_FATE
        for f, fname in enumerate(FATE_NAMES):
            rows.append((side.name, side.policy, "vehicles", fname, int(t[b + f])))
    frame = pd.DataFrame(rows, columns=["side", "policy", "measure", "ending", "games"])
    frame.insert(0, "scenario", sc.name)
    frame["trials"] = n_trials
    frame["rate"] = frame["games"] / n_trials
    lo, hi = stats.rate_ci(frame["games"].to_numpy(), n_trials)
    frame["rate_lo"] = lo
    frame["rate_hi"] = hi
    return frame


def how_games_ended(path, *, trials=10_000, seed=2026, policies=None, variants=None,
                    **run_opts) -> pd.DataFrame:
    """How the games of a scenario ended, per side, with intervals (:func:`endings_frame`)."""
    sc = load_scenario(path, policies=policies, variants=variants)
    return run(GameSim(sc), trials, seed, **run_opts).frame.attrs["extra"][
        "how games ended, per side"]


# --- one game, logged -----------------------------------------------------------------------------
def play_one(sc: Scenario, seed=2026, trial=0, script=None, max_events=20_000):
    """Play one game (seeded and recorded, or on scripted dice); returns (events, result,
    (track, meta, markers, marker count, vehicles, weapons, fittings, the rolls made), sim)."""
    sim = GameSim(sc)
    a = sim.a
    st = dice.new_state()
    if script is None:
        dice.seed_trial(st, dice.stream_key(seed), trial)
        dice.set_recording(st)
        rolls = np.zeros(200_000, dtype=np.int64)
    else:
        rolls = np.asarray(script, dtype=np.int64)
        dice.set_scripted(st)
    n = a.G[EG.G_NV]
    B = EG.new_board()
    T, TM, M, NM, _ = EG.board_views(B)
    V = np.zeros((n, EG.V_W), np.int64)
    WS = np.zeros((n, MAXW, W_W), np.int64)
    FIT = np.zeros((n, a.LFIT.shape[2]), np.int64)
    E = np.zeros((max_events, EG.LOG_W), np.int64)
    EN = np.zeros(1, np.int64)
    res = np.zeros(EG.R_W, np.int64)
    EG.play_game(st, rolls, B, V, WS, FIT, EG.rules_buffer(*sim.args()), E, EN, res)
    where = f"{sc.path}, trial {trial} of seed {seed}"
    used = (eventlog.rolls_made(st, rolls, where=where) if script is None
            else rolls[:int(st[dice.POS])]).copy()
    events = eventlog.EventLog(E, EN).table(where=where)
    return events, res, (T, TM, M, NM, V, WS, FIT, used), sim


_KIND = ("straight", "corner", "bend")
_CTRL = ("regains control", "skids, then regains control", "skids, still out of control",
         "spins", "rolls")
_HAZ = ("OK", "panic brake", "control lost", "control lost (out of braking)")
_BIKERAM = ("head-on", "shunt", "sideswipe (partial collision)", "into a wreck")


def render(sc: Scenario, events, res, sim) -> list[str]:
    a = sim.a
    names = a.names
    side_names = [s.name for s in sc.sides]
    out = [f"# {sc.name}; sides: " + ", ".join(f"{s.name} ({s.policy})" for s in sc.sides)]

    def nm(v):
        return names[v] if 0 <= v < len(names) else "?"

    for ev in events:
        turn, phase, v, code, x, y, z, w = (int(q) for q in ev[:8])
        if code == EG.EV_ROLES:
            out.append(f"lead car: {side_names[x]}; chase car: {side_names[1 - x]}")
        elif code == EG.EV_TRACK and x == EG.EV_TRACK_RENUMBER:
            out.append(f"track laid before section 0: every section number goes up by {y}")
        elif code == EG.EV_TRACK and x == EG.EV_TRACK_PLAYDIR:
            out.append("the direction of play changes: "
                       + ("towards the start of the track" if y else "towards its end"))
        elif code == EG.EV_TRACK:
            if x < 0:
                out.append(f"track: layout {y}")
            else:
                d = "" if z == 0 else (" left" if z < 0 else " right")
                prefix = "new section" if turn > 0 or phase > 0 else "section"
                out.append(f"{prefix} {x}: {_KIND[y]}{d}")
        elif code == EG.EV_START:
            out.append(f"{nm(v)}: starts on section {x}, lanes {y}-{y + 1}, space {z}, {w}mph")
        elif code == EG.EV_SPEED:
            out.append(f"{nm(v)}: drive skill {x}, car {a.loadouts[v][y]}, "
                       f"{'lead' if z == 0 else 'chase'} car")
        elif code == EG.EV_PHASE:
            out.append(f"-- turn {turn} phase {phase}")
        elif code == EG.EV_ACTION:
            what = PO.ACTION_NAMES[x]
            if x == PO.A_ACCEL:
                detail = f" +{y}mph"
            elif x == PO.A_BRAKE:
                detail = f" -{y}mph"
            elif x in (PO.A_DRIFT, PO.A_SWIPE, PO.A_DODGE):
                detail = " left" if y < 0 else " right"
            elif x == PO.A_LOCK:
                detail = f" ({MOUNT_NAMES[a.LOAD[v, 0, y if y >= 0 else -1 - y, W_MOUNT]]}" \
                    f"{'' if y >= 0 else ', off'})"
            elif x == PO.A_REVERSE:
                detail = {-1: " and drift left", 1: " and drift right", 2: " and U-turn"}.get(y, "")
            elif x == PO.A_OFF_DRIFT:
                detail = f" +{abs(y)}mph, drifting {'left' if y < 0 else 'right'}"
            elif x == PO.A_UTURN and y > 0:
                detail = f" moving off +{y}mph"
            elif x == PO.A_TURN_ROUND:
                detail = f" in its square, moving off the other way at {z}mph"
            elif x in (PO.A_SHOOT, PO.A_PASSIVE, PO.A_DUMMY):
                detail = f" ({MOUNT_NAMES[a.LOAD[v, 0, y, W_MOUNT]]})"
            else:
                detail = ""
            out.append(f"{nm(v)} declares {what}{detail} at {z}mph")
        elif code == EG.EV_MOVE:
            out.append(f"{nm(v)} moves to section {x}, lanes {y}-{y + 1}, space {z} ({w}mph)")
        elif code == EG.EV_HAZARD:
            out.append(f"{nm(v)}: hazard roll against {x}mph{' (oil)' if w else ''}: {_HAZ[y]}"
                       f", now {z}mph")
        elif code == EG.EV_CONTROL:
            out.append(f"{nm(v)}: control-loss test (SF {y}, adverse {z}{', +2' if w else ''}): "
                       f"{_CTRL[x]}")
        elif code == EG.EV_SKID:
            out.append(f"{nm(v)}: {'drift skid ' + ('left' if y < 0 else 'right') if x else 'straight skid'}"
                       f", -{z}mph")
        elif code == EG.EV_SPIN and x == 0:
            out.append(f"{nm(v)}: its rotation blocked by {nm(y)} (not moved, a sideswipe)")
        elif code == EG.EV_SPIN:
            out.append(f"{nm(v)}: spins {y} degrees {'clockwise' if x > 0 else 'anticlockwise'}"
                       f", -{z}mph, now {w}mph")
        elif code == EG.EV_ROLL:
            out.append(f"{nm(v)}: rolls{' where it was blocked' if z else ''}: {x} hits at +{x}")
        elif code == EG.EV_CRASH:
            out.append(f"{nm(v)} CRASHES ({_CRASH[x]})")
        elif code == EG.EV_SHOT:
            res_s = "out of range" if w < 0 else ("hit" if w else "miss")
            mount = MOUNT_NAMES[a.LOAD[v, 0, y, W_MOUNT]]
            out.append(f"{nm(v)} fires its {mount} weapon at {nm(x)}, range {z}: {res_s}")
        elif code == EG.EV_DAMAGE:
            src = {EG.SRC_OBSTACLE: "obstacle", EG.SRC_MINES: "mines", EG.SRC_SPIKES: "spikes",
                   EG.SRC_ROLL: "roll", EG.SRC_CRASH: "crash"}.get(x, nm(x))
            out.append(f"  {nm(v)} takes {y} damage ({src}), {z} left"
                       f"{', critical' if w else ''}")
        elif code == EG.EV_PASSIVE:
            if y < 0:
                out.append(f"{nm(v)}: {RD.MARKER_NAMES[x]} fails (tail-gated)")
            else:
                under = f" under {nm(z)}" if z >= 0 else ""
                out.append(f"{nm(v)} drops {RD.MARKER_NAMES[x]}{under}")
        elif code == EG.EV_MARKER:
            out.append(f"{nm(v)} runs onto {RD.MARKER_NAMES[x]}")
        elif code == EG.EV_ROADHAZ:
            out.append(f"road hazard on section {y}: {RD.MARKER_NAMES[x]} "
                       f"({'left' if z == 0 else 'right' if z == 3 else 'across'})")
        elif code == EG.EV_RAM:
            kind = "an obstacle" if x < 0 else nm(x)
            t = ("head-on, travelling at each other" if w else "head-on") if y == 0 else "shunt"
            out.append(f"{nm(v)} rams {kind} ({t}, {z} hits at +{z})")
        elif code == EG.EV_SHUNTMOVE:
            if x == 0:
                out.append(f"{nm(v)}, shunted by {nm(y)}, takes its move next ({z}mph)")
            else:
                out.append(f"{nm(v)} completes its move after the shunt, no action ({z}mph)")
        elif code == EG.EV_SWIPE:
            win = "draw" if w < 0 else nm(w)
            out.append(f"{nm(v)} sideswipes {nm(x)}: {y} vs {z}, winner {win}")
        elif code == EG.EV_TRAIN:
            out.append(f"{nm(v)} is hit by a train")
        elif code == EG.EV_WRECK:
            out.append(f"{nm(v)} is a wreck")
        elif code == EG.EV_FINISH:
            out.append(f"{nm(v)} crosses the finish")
        elif code == EG.EV_LEFT:
            out.append(f"{nm(v)} leaves play")
        elif code == EG.EV_ROADDMG:
            res_r = "unhurt" if z == 0 else f"rider critical {z}"
            out.append(f"  {nm(v)}: road damage (SF {w}): d6 {x} {y:+d}: {res_r}")
        elif code == EG.EV_OVERLAP:
            out.append(f"{nm(v)} overlaps {nm(x)} (hazard rolls over {y}mph)")
        elif code == EG.EV_BIKEROLL:
            out.append(f"{nm(v)}: the bike rolls at {z}mph: {x} hits at +{y}")
        elif code == EG.EV_FALL:
            out.append(f"{nm(v)}: the bike falls and halts")
        elif code == EG.EV_PICKUP:
            out.append(f"{nm(v)}: the rider picks the bike up")
        elif code == EG.EV_ABANDON:
            out.append(f"{nm(v)}: the rider abandons the bike (a wreck)")
        elif code == EG.EV_PUSH:
            out.append(f"{nm(v)}: the rider pushes the bike (5mph)")
        elif code == EG.EV_BIKERAM:
            kind = "an obstacle" if x < 0 else nm(x)
            out.append(f"{nm(v)} collides with {kind} ({_BIKERAM[y]}, {z} hit(s) at +{w})")
        elif code == EG.EV_LASTING:
            extra = f" ({MOUNT_NAMES[a.LOAD[v, 0, z, W_MOUNT]]})" if z >= 0 else ""
            out.append(f"  {nm(v)}: {SH.LASTING_NAMES[x]}{extra}")
        elif code == EG.EV_JAM:
            what = "jammed weapon" if w else "damaged weapon"
            out.append(f"  {nm(v)}: {what} ({MOUNT_NAMES[a.LOAD[v, 0, x, W_MOUNT]]}) rolls {y}: "
                       f"{'fires' if z else 'jams'}")
        elif code == EG.EV_LEAK:
            out.append(f"{nm(v)}: fuel leak rolls {x}{': ENGINE DISABLED' if y else ''}")
        elif code == EG.EV_SPLIT:
            out.append(f"{nm(v)}: split tyre rolls {x} at SF {y}{': the tyre shreds' if z else ''}")
        elif code == EG.EV_LOCK:
            what = ("switched off", "locked on", "dispersed (spinning)", "off (stopped)",
                    "off (empty or out of action)")[y]
            out.append(f"{nm(v)}: {MOUNT_NAMES[a.LOAD[v, 0, x, W_MOUNT]]} layer {what}")
        elif code == EG.EV_UTURN:
            if w < 0:
                out.append(f"{nm(v)}: faces against the direction of play at {-w - 1}mph")
            else:
                out.append(f"{nm(v)} U-turns to section {x}, lanes {y}-{y + 1}, space {z} "
                           f"({w}mph)")
        elif code == EG.EV_REVERSE:
            out.append(f"{nm(v)} reverses to section {x}, lanes {y}-{y + 1}, space {z}; now 0mph")
        elif code == EG.EV_CUTUP:
            out.append(f"{nm(v)}: the drift would cut up {nm(x)}, who has yet to move: not made")
        elif code == EG.EV_UTURN_LOSS:
            out.append(f"{nm(v)}: a U-turn at {x}mph: control lost before the move")
        elif code == EG.EV_OPPSWIPE:
            win = "draw" if w < 0 else nm(w)
            out.append(f"{nm(v)} sideswipes {nm(x)} (opposed): {y} vs {z}, winner {win}")
        elif code == EG.EV_END:
            who = "draw" if x < 0 else side_names[x]
            out.append(f"END after {turn} turns: {who} ({EG.REASON_NAMES[y]})")
    return out


def playthrough(path_or_scenario, seed=2026, trial=0):
    sc = path_or_scenario if isinstance(path_or_scenario, Scenario) else load_scenario(path_or_scenario)
    events, res, _, sim = play_one(sc, seed=seed, trial=trial)
    winner = int(res[EG.R_WINNER])
    return render(sc, events, res, sim), {
        "winner": sc.sides[winner].name if winner >= 0 else None,
        "reason": EG.REASON_NAMES[int(res[EG.R_REASON])], "turns": int(res[EG.R_TURNS])}
