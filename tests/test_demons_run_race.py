"""The compiled race: its movement held to movement.move_ship roll for roll, its geometry to
los.py hex for hex, the Finish rule, pilots in scripted positions, reproducibility across
threads and chunks, and the golden race log."""

import difflib
import os
import re
from pathlib import Path

import numpy as np
import pytest

from simkit.core import dice
from simkit.core.eventlog import A, ACTOR, KIND, TURN
from simkit.core.exact import ScriptedDice
from simkit.core.runner import run
from simkit.demons_run.pieces import geometry as G
from simkit.demons_run.procedures import kernels as K
from simkit.demons_run import engine as RK
from simkit.demons_run.pieces.board import load_board, neighbour, DIRECTIONS
from simkit.demons_run.pieces.layout import (DESTROYED, FINISHED, OFF_BOARD, V_CAPTURED, V_COL, V_FACING, V_NULL, V_ROW, V_STATUS, V_VEL)
from simkit.demons_run.pieces.los import fire_solution, in_field_of_fire
from simkit.demons_run.pieces.movement import ShipMove, _plan_tokens, move_ship
from simkit.demons_run.policies import MAX_PLAN, plan_scratch
from simkit.demons_run.policies import PARAM_NAMES
from simkit.demons_run.scenario import RaceSim, decide, load_scenario, playthrough, position
from simkit.demons_run.rules import SI, make_rules

ROOT = Path(__file__).resolve().parent.parent
SCEN = ROOT / "scenarios/demons-run"
DUEL = SCEN / "duel.toml"
R = make_rules()
B = load_board()


@pytest.fixture(scope="module")
def sim():
    return RaceSim(load_scenario(DUEL))


def test_compiled_fire_geometry_equals_los():
    rng = np.random.default_rng(7)
    ra = RaceSim.__new__(RaceSim)
    from simkit.demons_run.pieces.layout import RP_LOF_FIRE0, RP_LOF_HOLE, RP_LOF_WELL, race_arrays
    a = race_arrays(R, B)
    lf = a.rp[RP_LOF_FIRE0:RP_LOF_FIRE0 + 4]
    checked = 0
    for _ in range(1500):
        c0, r0 = int(rng.integers(1, 31)), int(rng.integers(1, 41))
        c1 = int(np.clip(c0 + rng.integers(-12, 13), 1, 30))
        r1 = int(np.clip(r0 + rng.integers(-12, 13), 1, 40))
        f = int(rng.integers(0, 6))
        want = fire_solution(R, B, (c0, r0), f, (c1, r1))
        got = G.fire_solution(c0, r0, f, c1, r1, G.Sight(a.board[0], a.board[1], lf, 12,
                                                         a.rp[RP_LOF_WELL], a.rp[RP_LOF_HOLE]))
        assert G.in_field_of_fire(c0, r0, f, c1, r1) == in_field_of_fire((c0, r0), f, (c1, r1))
        assert bool(got[0]) == want[0] and got[1] == want[1]
        if want[0]:
            assert got[2] == want[2], ((c0, r0), f, (c1, r1))
            checked += 1
    assert checked > 100


def test_compiled_neighbours_distance_and_field_of_fire_hex_for_hex():
    """The compiled ``nbr``, ``dist`` and ``in_field_of_fire`` are integer arithmetic written
    out (the plan search calls them at every node): held to the board's neighbours, the
    grid's distance and los.py's angle between hex centres for every hex of the board and one
    beyond, every facing, from a firer in an even and in an odd column (and every pair of a
    board quarter), edges of the 60-degree field included."""
    from simkit.demons_run.pieces import markers as M
    C, R_ = B.columns, B.rows
    for c in range(0, C + 2):
        for r in range(0, R_ + 2):
            for d in range(6):
                assert G.nbr(c, r, d) == M._nbr(c, r, d)
    rng = np.random.default_rng(3)
    for _ in range(3000):
        c1, r1, c2, r2 = (int(x) for x in rng.integers(0, 42, 4))
        assert G.dist(c1, r1, c2, r2) == M._hex_distance(c1, r1, c2, r2)
    inside = edges = 0
    for c0, r0 in ((10, 20), (11, 20), (1, 1), (C, R_)):
        for c in range(0, C + 2):
            for r in range(0, R_ + 2):
                for f in range(6):
                    want = in_field_of_fire((c0, r0), f, (c, r))
                    assert G.in_field_of_fire(c0, r0, f, c, r) == want, ((c0, r0), f, (c, r))
                    inside += want
    for c0 in range(1, 9):
        for r0 in range(1, 11):
            for c in range(1, 9):
                for r in range(1, 11):
                    for f in range(6):
                        assert G.in_field_of_fire(c0, r0, f, c, r) == \
                            in_field_of_fire((c0, r0), f, (c, r))
    assert inside > 5_000
    # the cone's edge (a hex two out, centre on it) is in, the hex beside the facing is out
    assert G.in_field_of_fire(10, 20, 0, 11, 19) and not G.in_field_of_fire(10, 20, 0, 11, 20)


def _tokens(plan):
    out = []
    for t in _plan_tokens(plan):
        if t in ("F", "L", "R"):
            out.append({"F": 0, "L": 1, "R": 2}[t])
        elif t[0] == "W":
            out.append(10 + t[1])
        else:
            out.append(100 + t[1])
    return np.asarray(out, np.int64)


#: the board the scripted positions below were laid out on (before the fair board of issue 14)
OLD_BOARD = ROOT / "tests" / "fixtures" / "demons-run-board-2025.toml"


@pytest.fixture(scope="module")
def reckless():
    """The worked ship flown with no fear of hazards, so its plans cross them (on the board its
    start positions were chosen for: they lead through a Hell Fire zone, Null, a whip and a
    Buoy)."""
    sc = load_scenario(DUEL)
    sc.ships[0].params = {"risk": 0.0}
    sc.board_path = str(OLD_BOARD)
    return RaceSim(sc)


def _both(sim, pos, facing, velocity, seed):
    """The pilot plans a move; the compiled move_plan executes it with recorded dice and
    movement.move_ship replays it on the same rolls: every outcome and every roll must agree."""
    state = position(sim, worked={"pos": pos, "facing": facing, "velocity": velocity,
                                  "fuel": 200}, runner={"pos": (30, 40)})
    d = decide(sim, "worked", state, turn=2)
    plan, velocity = d["plan"], d["velocity"]
    sh, sv, bu, hd = position(sim, worked={"pos": pos, "facing": facing, "velocity": velocity,
                                           "alloc": {"screens": d["screens"],
                                                     "tractor": d["tractor"]}},
                              runner={"pos": (30, 40)})
    sv[:, RK.V_MOVED] = 1
    toks = _tokens(plan)
    st = dice.new_state()
    dice.seed_trial(st, dice.stream_key(seed), 0)
    dice.set_recording(st)
    rolls = np.zeros(500, np.int64)
    S = RK.race_state(sh, sv, bu, hd)
    log = np.zeros((200, RK.LOG_W), np.int64)
    logn = np.zeros(1, np.int64)
    assert RK.hound_targets(0, S, toks, len(toks), sim.RT, sim.BT, plan_scratch()) >= 0
    code, _ = RK.move_plan(st, rolls, RK.Mover(True, 0, 1), S, toks, len(toks), sim.RT, sim.BT,
                           RK.Log(log, logn))
    used = rolls[:dice.script_position(st)]
    ship = [int(v) for v in sim.ships0[0]]
    pim = int(sim.ra.pi_mod[ship[8]])
    s = ShipMove(pos, facing, velocity, ship[4], d["screens"], pim, ship, tractor=d["tractor"])
    hounds = [tuple(int(v) for v in h[:2]) for h in sim.hd0]
    buoys = [[(int(b[0]), int(b[1])), "x"] for b in sim.bu0]
    dd = ScriptedDice(list(used))
    board = load_board(sim.sc.board_path) if sim.sc.board_path else B
    s = move_ship(dd, R, board, s, plan, hounds=hounds, buoys=buoys)
    assert dd.exhausted
    assert code >= 0, (plan, code)
    assert s.ship[SI] == sh[0, SI]
    if s.ship[SI] > 0 and not s.off_board:
        assert (s.pos, s.facing) == ((sv[0, V_COL], sv[0, V_ROW]), sv[0, V_FACING])
        assert bool(s.captured) == bool(sv[0, V_CAPTURED])
        assert bool(s.lost_in_null) == bool(sv[0, V_NULL])
        assert len(s.recovered) == int(sv[0, RK.V_RECOVERED])
        assert len(hounds) == int(hd[:, 2].sum())
    return plan, [e[0] for e in s.events]


def test_compiled_movement_equals_move_ship(reckless):
    kinds = set()
    for seed in range(6):
        for pos, facing, v in (((15, 15), 3, 4), ((11, 13), 2, 3), ((6, 8), 3, 3),
                               ((15, 14), 3, 6), ((4, 6), 1, 2), ((12, 12), 3, 2),
                               ((16, 24), 0, 5), ((20, 9), 4, 4)):
            plan, events = _both(reckless, pos, facing, v, seed)
            kinds.update(events)
    # the plans met the hazards the comparison is about
    assert {"hell_fire", "null", "whip", "recovery"} <= kinds, kinds


def test_finish_hex_at_velocity_1_only_211_A(sim):
    for velocity, plan, want in ((1, "F", 4), (2, "FF", 3)):
        sh, sv, bu, hd = position(sim, worked={"pos": (31, 39), "facing": 3, "velocity": velocity})
        toks = _tokens(plan)
        st = dice.new_state()
        dice.seed_trial(st, dice.stream_key(1), 0)
        L = RK.Log(np.zeros((50, RK.LOG_W), np.int64), np.zeros(1, np.int64))
        code, _ = RK.move_plan(st, dice.NO_SCRIPT, RK.Mover(True, 0, 1),
                               RK.race_state(sh, sv, bu, hd), toks, len(toks), sim.RT, sim.BT, L)
        assert code == want
        assert sv[0, V_STATUS] == (FINISHED if want == 4 else OFF_BOARD)


def test_safe_runner_keeps_out_of_hell_fire_the_hunter_goes_for_the_buoy(sim):
    # both ships next to the Easy Buoy at (5, 5); the Hell Fire patch (10-11, 5-6) lies east
    near = {"pos": (5, 6), "facing": 1, "velocity": 2, "fuel": 200}
    state = position(sim, worked=near, runner={"pos": (30, 40)})
    hunter = decide(sim, "worked", state)                  # worked = buoy_hunter
    assert hunter["target"].startswith("easy buoy") or hunter["target"].startswith("ring")
    assert hunter["tractor"] > 0 and "T0" in hunter["plan"]
    sc = load_scenario(DUEL, policies={"worked": "safe_runner"})
    safe_sim = RaceSim(sc)
    safe = decide(safe_sim, "worked", position(safe_sim, worked=near, runner={"pos": (30, 40)}))
    assert safe["target"] == "finish D"


def test_pilot_plans_round_the_hell3_ring_not_through_it(sim):
    # heading south straight at the Hell3 hole (15, 20) from (15, 15) at Velocity 4
    state = position(sim, worked={"pos": (15, 15), "facing": 3, "velocity": 4, "fuel": 200},
                     runner={"pos": (30, 40)})
    d = decide(sim, "worked", state)
    pos, f = (15, 15), 3
    fire = 0
    for t in d["plan"]:
        if t == "F":
            pos = neighbour(*pos, DIRECTIONS[f])
            fire += B.fire_class[pos] >= 2
        elif t in "LR":
            f = (f + (1 if t == "R" else 5)) % 6
    assert fire == 0 and "W" not in d["plan"], d
    # the same position flown with no fear of hazards goes straight at the hole's ring
    sc = load_scenario(DUEL)
    sc.ships[0].params = {"risk": 0.0}
    bold = RaceSim(sc)
    d2 = decide(bold, "worked", position(bold, worked={"pos": (15, 15), "facing": 3,
                                                       "velocity": 4, "fuel": 200},
                                         runner={"pos": (30, 40)}))
    assert d2["plan"] != d["plan"]


def test_pilot_decelerates_to_finish_and_raider_fires(sim):
    # worked, flown by the safe runner, two hexes from its Finish D (31, 40), facing it, at
    # Velocity 3: it must come down (at 3 it would fly past the corner and off the board)
    safe = RaceSim(load_scenario(DUEL, policies={"worked": "safe_runner"}))
    state = position(safe, worked={"pos": (31, 38), "facing": 3, "velocity": 3, "fuel": 150},
                     runner={"pos": (1, 1), "status": FINISHED})
    d = decide(safe, "worked", state)
    assert d["me"] < 0 and d["velocity"] <= 2, d
    sc = load_scenario(SCEN / "raid.toml")
    rs = RaceSim(sc)
    names = sc.sides
    st = position(rs, **{names[0]: {"pos": (10, 10), "facing": 3, "velocity": 3},
                         names[1]: {"pos": (10, 14), "facing": 0, "velocity": 3}})
    raider = next(s.name for s in sc.ships if s.pilot == "raider")
    other = next(s.name for s in sc.ships if s.pilot != "raider")
    assert decide(rs, raider, st)["laser"] > 0
    # the buoy hunter fires too when a hit pays (issue 14: every pilot weighs its weapons);
    # with fire_ships = 0 it never allocates its Laser at a ship
    assert decide(rs, other, st)["laser"] > 0
    calm = RaceSim(load_scenario(SCEN / "raid.toml"))
    calm.pilots[[s.name for s in sc.ships].index(other), PARAM_NAMES.index("fire_ships")] = 0
    assert decide(calm, other, st)["laser"] == 0


def test_a_ship_at_si_0_is_destroyed_005_L():
    """005 L: a ship with Level 0 SI is destroyed at any moment, whatever the cause: a ship
    that reaches Turn 1 at SI 0 is removed before it moves and scores nothing (212 C)."""
    from simkit.demons_run.scenario import play_one
    s0 = RaceSim(load_scenario(DUEL))
    s0.ships0 = s0.ships0.copy()
    s0.ships0[0, SI] = 0
    log, res, turns, _ = play_one(s0, seed=5, trial=0)
    assert res[0, 0] == DESTROYED and res[0, 1] == 0 and res[0, 5] == 0
    first = log[log[:, TURN] == 1]
    kinds = [int(r[KIND]) for r in first if r[ACTOR] == 0]
    assert kinds[0] == RK.EV_DESTROYED and RK.EV_MOVE not in kinds and RK.EV_ALLOC not in kinds
    # and in the middle of a race: SI set to 0 between hazards still removes the ship
    sh, sv, bu, hd = position(s0, worked={"si": 0})
    lg = np.zeros((10, RK.LOG_W), np.int64)
    RK._after(dice.new_state(), dice.NO_SCRIPT, 0, RK.race_state(sh, sv, bu, hd), s0.RT, 3,
              RK.Log(lg, np.zeros(1, np.int64)))
    assert sv[0, V_STATUS] == DESTROYED


def _kernel_position(rs, sh, sv, bu, hd, seed):
    """A hand-set position ready for the compiled allocation and ship phase: the race state,
    the board tables, empty plan stores, a seeded dice stream and an empty log."""
    from simkit.demons_run.policies import plan_scratch
    S = RK.race_state(sh, sv, bu, hd)
    _, FD, RT, BT = rs.args()
    P = RK.Plans(np.zeros(MAX_PLAN, np.int64), np.zeros(MAX_PLAN, np.int64),
                 np.full((len(sh), RK.K_PLAN + MAX_PLAN), -1, np.int64), plan_scratch())
    st = dice.new_state()
    dice.seed_trial(st, dice.stream_key(seed), 0)
    L = RK.Log(np.zeros((200, RK.LOG_W), np.int64), np.zeros(1, np.int64))
    return S, FD, RT, BT, P, st, L


def test_a_critical_hit_on_the_maneuver_engines_before_the_move_replans_within_the_allocation():
    """210 A: damage is noted at once, and a Function at a lower Level works at that Level;
    203 A: the Maneuver Engines are not allocated, their maximum Level is what the Turn
    allows. So a ship that loses a Maneuver Engine Level to fire (206, Step B A) after
    allocating but before moving moves with the turning movements it has left; its
    allocation (Velocity, Screens, weapons, Tractor) stands (203 A, "may not be done over").
    The raid golden log's T07 showed the old fault: the hunter, allocated at Maneuver Engines
    5 (2 turning movements a hex), lost one Level to the raider's Laser and then tried the
    plan made at 5 (two turning movements in its first hex): an illegal plan, no move."""
    from simkit.core.hexgrid import EVEN_LOWER, to_cube
    from simkit.demons_run.rules import MN
    rs = RaceSim(load_scenario(SCEN / "raid.toml"))
    h = rs.sc.sides.index("hunter")
    sh, sv, bu, hd = position(rs, hunter={"pos": (15, 19), "facing": 0, "velocity": 3,
                                          "fuel": 150},
                              raider={"pos": (14, 20), "facing": 1, "velocity": 0})
    sh[h, MN] = 5
    S, FD, RT, BT, P, st, L = _kernel_position(rs, sh, sv, bu, hd, 14)
    RK.allocate(st, dice.NO_SCRIPT, RK.Mover(True, h, 7), S, FD, rs.pilots[h], P, RT, BT, L)
    kept = P.keep[h, RK.K_PLAN:RK.K_PLAN + P.keep[h, RK.K_N]]
    V = int(sv[h, V_VEL])
    # the position is the one that matters: the plan made at Maneuver Engines 5 turns twice
    # in its first hex, which Maneuver Engines 4 do not allow (204 E)
    assert V == 1 and list(kept[:3]) == [1, 1, 0], (V, kept)
    assert rs.ra.mn_hex[5] == 2 and rs.ra.mn_hex[4] == 1
    sh[h, MN] = 4                       # the Critical Hit "Lose 1 Maneuver Engine Level"
    limit = min(rs.ra.mn_turn[4], rs.ra.vturns[V])
    c0, r0 = int(sv[h, V_COL]), int(sv[h, V_ROW])
    RK.ship_phase(st, dice.NO_SCRIPT, RK.Mover(True, h, 7), S, FD, rs.pilots[h], P, RT, BT, L)
    moves = [r for r in L.log[:int(L.logn[0])] if r[KIND] == RK.EV_MOVE and r[ACTOR] == h]
    assert len(moves) == 1 and moves[0][A] > -1000, moves          # a legal move was made
    assert sv[h, V_STATUS] != DESTROYED and (sv[h, V_COL], sv[h, V_ROW]) != (c0, r0)
    # and it ends where V hexes with one turning movement a hex can take it
    at, ends = rs.ends
    lo, hi = at[V, limit, 1, 0]
    x0, _, z0 = to_cube(c0, r0, EVEN_LOWER)
    x, _, z = to_cube(int(sv[h, V_COL]), int(sv[h, V_ROW]), EVEN_LOWER)
    assert (int(x - x0), int(z - z0), int(sv[h, V_FACING])) in \
        {tuple(int(v) for v in e[:3]) for e in ends[lo:hi]}
    # the allocation stands: Velocity 1, as allocated
    assert moves[0][A + 3] == 1


def _recovery_after_a_tractor_critical(level_now):
    """The worked ship two hexes from Buoy 0 at Velocity 1, facing it: it allocates its
    Tractor, then (before it moves) a Critical Hit leaves its Tractor at ``level_now``. Its
    recovery attempts (EV_RECOVER rows) and the Tractor Level it allocated."""
    from simkit.demons_run.pieces.layout import A_TRACTOR, BU_COL, BU_ROW
    from simkit.demons_run.rules import TRACTOR
    rs = RaceSim(load_scenario(DUEL))
    c, r = int(rs.bu0[0, BU_COL]), int(rs.bu0[0, BU_ROW])
    p2 = neighbour(*neighbour(c, r, DIRECTIONS[0]), DIRECTIONS[0])
    sh, sv, bu, hd = position(rs, worked={"pos": p2, "facing": 3, "velocity": 1, "fuel": 200},
                              runner={"pos": (30, 40)})
    S, FD, RT, BT, P, st, L = _kernel_position(rs, sh, sv, bu, hd, 3)
    RK.allocate(st, dice.NO_SCRIPT, RK.Mover(True, 0, 2), S, FD, rs.pilots[0], P, RT, BT, L)
    allocated = int(sv[0, A_TRACTOR])
    sh[0, TRACTOR] = level_now           # "Lose Tractor Levels" between allocation and move
    RK.ship_phase(st, dice.NO_SCRIPT, RK.Mover(True, 0, 2), S, FD, rs.pilots[0], P, RT, BT, L)
    rows = [r for r in L.log[:int(L.logn[0])] if r[ACTOR] == 0 and r[KIND] == RK.EV_RECOVER]
    return rows, allocated


def test_a_tractor_cut_by_a_critical_hit_after_allocation_works_at_its_new_level():
    """210 A: damage is noted at once and a Function works at the Level it has left; the
    allocated Tractor Level (203 A) cannot exceed it. A ship whose Tractor is cut to 0 after
    allocating makes no recovery attempt; the engine used to attempt at the allocated Level."""
    kept, allocated = _recovery_after_a_tractor_critical(10)
    assert allocated > 0 and len(kept) == 1, (allocated, kept)     # the position attempts
    cut, _ = _recovery_after_a_tractor_critical(0)
    assert cut == []


def _hole_escape_race(variant):
    """The worked ship captured in a plain Hell Hole at Velocity 0 with Main Engines 2: the
    Turns of its escape attempts (EV_HOLE_ESC: 1 escaped, 0 failed) until it leaves or dies."""
    from simkit.demons_run.scenario import play_one
    from simkit.demons_run.rules import ME
    sim = RaceSim(load_scenario(DUEL, variants=variant))
    hole = next(h for h in B.holes if h.cls == "hell")
    sim.ships0 = sim.ships0.copy()
    sim.ships0[0, ME] = 2
    sim.sv0 = sim.sv0.copy()
    sim.sv0[0, V_COL], sim.sv0[0, V_ROW] = hole.center
    sim.sv0[0, V_VEL] = 0
    sim.sv0[0, V_CAPTURED] = 1
    out = []
    for seed in range(4):
        log, res, turns, _ = play_one(sim, seed=seed, trial=0)
        out.append([(int(r[TURN]), int(r[A])) for r in log
                    if r[KIND] == RK.EV_HOLE_ESC and r[ACTOR] == 0])
    return out


def test_hell_hole_escape_after_a_failed_attempt_204_M():
    """Default hell_hole_escape=keep: Main Engines 2 reach Velocity 4 on the second Turn and
    escape; variant reset: the Velocity goes back to 0 after each failure, never escapes."""
    for attempts in _hole_escape_race({}):
        assert attempts[:2] == [(1, 0), (2, 1)], attempts
    for attempts in _hole_escape_race({"hell_hole_escape": "reset"}):
        assert attempts and all(ok == 0 for _, ok in attempts), attempts


def test_compiled_race_victory_points_211_B():
    """211 B as the compiled race scores it (race.play_race), against turn.victory_points:
    Buoys carried, 1 VP per Fuel Level to 100, 50/25/10/0 by finishing place; a destroyed
    ship or one that left the board scores 0; the most VP wins, a tie goes to the earlier
    finisher, else nobody wins. Every ship is already out of the race, so play_race goes
    straight to the scoring."""
    from simkit.demons_run.pieces.layout import BU_VP, V_NCARRY, V_PLACE, VP_HELL2
    from simkit.demons_run.scenario import play_one
    from simkit.demons_run.rules import FUEL
    from simkit.demons_run.reference.turn import victory_points

    def score(states):
        s0 = RaceSim(load_scenario(DUEL))
        s0.ships0, s0.sv0, s0.bu0 = s0.ships0.copy(), s0.sv0.copy(), s0.bu0.copy()
        s0.bu0[0, BU_VP] = VP_HELL2                # the carried Buoys are Buoy 0: Hell2 (70)
        for i, (status, place, fuel, carried) in enumerate(states):
            s0.sv0[i, V_STATUS], s0.sv0[i, V_PLACE] = status, place
            s0.ships0[i, FUEL], s0.sv0[i, V_NCARRY] = fuel, carried
        _, res, turns, _ = play_one(s0, seed=1)
        assert turns == 0
        return [int(v) for v in res[:, 1]], [int(v) for v in res[:, 5]]

    def book(status, place, fuel, carried):
        return victory_points(R, buoys=["astaroth"] * carried, fuel=fuel,
                              place=place if status == FINISHED else None,
                              left_board=status == OFF_BOARD, destroyed=status == DESTROYED)

    cases = [
        # second with two Hell2 Buoys and Fuel 150 (capped at 100) beats the winner of the race
        ([(FINISHED, 2, 150, 2), (FINISHED, 1, 40, 0)], [265, 90], [1, 0]),
        # destroyed (212 C) and off the board (211 B): nothing, and nobody wins the tie at 0
        ([(DESTROYED, 0, 150, 2), (OFF_BOARD, 0, 40, 0)], [0, 0], [0, 0]),
        # equal VP: the earlier finisher wins
        ([(FINISHED, 2, 75, 0), (FINISHED, 1, 50, 0)], [100, 100], [0, 1]),
    ]
    for states, vp, won in cases:
        assert score(states) == (vp, won), states
        assert [book(*st) for st in states] == vp


def test_races_reproducible_across_threads_and_chunks(sim):
    a = run(sim, 300, 11, chunk_size=100, threads=1, progress=False).totals
    b = run(sim, 300, 11, chunk_size=77, threads=2, progress=False).totals
    assert np.array_equal(a, b)
    c = run(sim, 300, 12, chunk_size=100, threads=1, progress=False).totals
    assert not np.array_equal(a, c)


def test_races_sharing_one_planning_scratch_play_as_with_a_fresh_one():
    """A block of races shares one planning scratch (``play_race_in``: the dominance table,
    the Hell Fire prices kept between searches, the kept plans); every race plays exactly as
    it does with a scratch of its own (``play_race``), on a board where the pilots fire, hunt
    Buoys and meet hounds."""
    sim = RaceSim(load_scenario(Path(__file__).resolve().parent.parent
                                / "scenarios/demons-run/four-corners.toml"))
    args = sim.args()
    ns = args[0].ships.shape[0]
    L = RK.Log(np.zeros((0, RK.LOG_W), np.int64), np.zeros(1, np.int64))
    P = RK.plans(ns, args[0].hd.shape[0])
    st = dice.new_state()
    for i in range(40):
        got, want = np.zeros((ns, RK.RES_W), np.int64), np.zeros((ns, RK.RES_W), np.int64)
        dice.seed_trial(st, dice.stream_key(9), i)
        t1 = RK.play_race_in(st, dice.NO_SCRIPT, *args, L, got, P)
        dice.seed_trial(st, dice.stream_key(9), i)
        t2 = RK.play_race(st, dice.NO_SCRIPT, *args, L, want)
        assert t1 == t2 and np.array_equal(got, want), i


def test_a_race_replays_from_its_recorded_rolls(sim):
    from simkit.demons_run.scenario import play_one
    log, res, turns, rolls = play_one(sim, seed=5, trial=3)
    log2, res2, turns2, _ = play_one(sim, script=list(rolls))
    assert turns == turns2 and np.array_equal(res, res2) and np.array_equal(log, log2)


def test_a_race_log_too_small_is_refused_not_cut(sim):
    """The log counts every event, kept or not (core.eventlog): a race that overflows its log
    is an error naming the race, never a silently shortened playthrough."""
    from simkit.core.eventlog import COLUMNS, LogOverflow
    from simkit.demons_run.scenario import play_one
    log, _, _, _ = play_one(sim, seed=5, trial=3)
    assert log.shape[1] == len(COLUMNS) and len(log) > 10
    with pytest.raises(LogOverflow, match=f"{len(log):,} events.*capacity 10"):
        play_one(sim, seed=5, trial=3, cap=10)


SCENARIOS = sorted(SCEN.glob("*.toml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_golden_race_log(path):
    """One seeded race per scenario; regenerate with SIMKIT_UPDATE_GOLDEN=1 and review."""
    lines, _ = playthrough(path, seed=2026, trial=0)
    text = "\n".join(lines) + "\n"
    gold = ROOT / "tests/golden" / f"demons-run-{path.stem}.log"
    if os.environ.get("SIMKIT_UPDATE_GOLDEN") or not gold.exists():
        gold.write_text(text)
        if not os.environ.get("SIMKIT_UPDATE_GOLDEN"):
            pytest.fail(f"{gold} did not exist; written now -- review and commit it")
    want = gold.read_text()
    if text != want:
        diff = "".join(difflib.unified_diff(want.splitlines(True), text.splitlines(True),
                                            str(gold), "this run", n=2))
        pytest.fail("race log changed:\n" + diff[:4000])


@pytest.mark.parametrize("pilot", ["safe_runner", "buoy_hunter", "raider"])
def test_start_facing_points_along_the_route_from_every_corner(pilot, tmp_path):
    """204 A lets a ship start facing any hexside; the pilot takes the one its route field
    prices best. Judged at the start Velocity alone every facing of a corner hex was a dead end,
    so facing 0 was taken and some pilots flew straight off the board on Turn 1."""
    text = (SCEN / "four-corners.toml").read_text()
    text = re.sub(r'pilot = "\w+"', f'pilot = "{pilot}"', text)
    path = tmp_path / "corners.toml"
    path.write_text(text)
    sim = RaceSim(load_scenario(path))
    b = load_board(None)
    for i, ship in enumerate(sim.sc.ships):
        c, r = int(sim.sv0[i, V_COL]), int(sim.sv0[i, V_ROW])
        ahead = G.nbr(c, r, int(sim.sv0[i, V_FACING]))
        assert 1 <= ahead[0] <= b.terrain.shape[0] - 1 and 1 <= ahead[1] <= b.terrain.shape[1] - 1, \
            (pilot, ship.corner, ahead)
    # and the first Turn keeps every ship on the board
    lines, _ = playthrough(load_scenario(path), seed=3, trial=0)
    assert not [x for x in lines if x.startswith("T01 OFF")]


def test_races_leave_no_compiled_allocation_behind():
    """The race's hot functions are compiled without numba's reference counting (engine's
    NO_NRT note): safe only while none of them makes or returns an array. Every array the
    runtime allocated over a block of races and logged races is freed again, no more and no
    fewer (an array returned uncounted would be freed early or never)."""
    from numba.core.runtime import _nrt_python as nrt, rtsys
    sim = RaceSim(load_scenario(Path(__file__).resolve().parent.parent
                                / "scenarios/demons-run/four-corners.toml"))
    RK.race_stats(dice.stream_key(3), 0, 2, *sim.args())          # compiled and warm
    was = nrt.memsys_stats_enabled()
    nrt.memsys_enable_stats()
    try:
        before = rtsys.get_allocation_stats()
        RK.race_stats(dice.stream_key(3), 0, 60, *sim.args())
        from simkit.demons_run.scenario import play_one
        for i in range(5):
            play_one(sim, 3, i)
        after = rtsys.get_allocation_stats()
    finally:
        if not was:
            nrt.memsys_disable_stats()
    made = after.mi_alloc - before.mi_alloc
    assert made > 0 and after.mi_free - before.mi_free == made
    assert after.alloc - before.alloc == after.free - before.free


def test_races_that_differ_only_in_levels_share_their_fields():
    """A build search sets up hundreds of races whose ships differ only in their Levels: they
    share one copy of the route fields, reach tables and move ends (each copy of a four-ship
    race's is ~57 MB), and that copy is what a set-up from nothing builds."""
    from dataclasses import replace
    from simkit.demons_run import scenario as S

    sc = load_scenario(SCEN / "four-corners.toml")
    a = RaceSim(sc)
    s0 = sc.ships[0]
    other = replace(sc, ships=[replace(s0, build=replace(s0.build, fuel=s0.build.fuel - 10,
                                                         si=s0.build.si + 1))] + sc.ships[1:])
    b = RaceSim(other)
    names = ("fields", "fields_v", "fin_from", "reach")
    assert all(getattr(b, n) is getattr(a, n) for n in names) and b.ends is a.ends
    assert not np.array_equal(b.ships0, a.ships0)
    S._SLOT_CACHE.clear()
    S._move_ends.cache_clear()
    fresh = RaceSim(other)
    assert fresh.fields is not b.fields
    for n in names:
        np.testing.assert_array_equal(getattr(fresh, n), getattr(b, n))
    for x, y in zip(fresh.ends, b.ends):
        np.testing.assert_array_equal(x, y)
