"""Lasting critical effects, linked weapons, locked-on layers, double hits and dummies in the road
engine (dark-future.txt p22-24, p31, p34-35, p83), each replayed with scripted dice on the
engine's own pieces and shown lasting over later moves and turns; then whole games where the
rules fire.

Scripted hits go through ``engine._take_hit`` as automatic hits (no hit roll): the dice are the
damage roll (6 = a critical), the target-matrix roll(s), the result roll, any check roll, then
the forced hazard rolls. Cars are Renegades of Game One (hood MG, oil layer; armour 3, braking
30, acceleration 20, handling 4) with drive skill 3.
"""

from pathlib import Path

import numpy as np
import pytest

from simkit.core import dice
from simkit.dark_future import engine as EG
from simkit.dark_future import scenario as GM
from simkit.dark_future import policies as PO
from simkit.dark_future.pieces import road as RD
from simkit.dark_future.procedures import shooting as SH
from simkit.dark_future.pieces import vehicle as VH
from test_dark_future_engine import World

SCEN = Path(__file__).resolve().parents[1] / "scenarios" / "dark-future"
FRONT, REAR, SIDE = 0, 1, 2


def world():
    w = World()
    w.place(0, 1, 2, 0, 60, side=0, role=1)
    w.place(1, 5, 2, 0, 60, side=1, role=0)
    return w


def hit(w, v, rolls, damage=0, facing=FRONT):
    st, s = w.script(rolls)
    EG._take_hit(st, s, w.B, w.V, w.WS, w.FIT, v, EG._auto_hit(damage, facing, 1 - v), w.common(),
                 EG.Log(w.E, w.EN, 1, 1))
    assert st[dice.POS] == len(rolls), "every scripted die used, and no other"


def move(w, v, rolls=(), steady=True):
    """One straight-ahead move and what follows it, at the start of a phase."""
    st, s = w.script(list(rolls))
    w.V[v, VH.V_BRKLEFT] = w.V[v, VH.V_BRK]
    nl = EG._advance(st, s, w.B, w.V, w.WS, w.FIT, 2, v, EG.Move(0, steady, False), w.common(),
                     EG.Log(w.E, w.EN, 1, 1))
    if nl != EG.MOVE_ENDED:
        EG._after_move(st, s, w.T, w.V, v, w.G, EG.Log(w.E, w.EN, 1, 1), w.K, nl, w.hp)
    assert st[dice.POS] == len(rolls)
    return nl


def shoot(w, v, slot, rolls):
    st, s = w.script(rolls)
    EG._shoot(st, s, w.B, w.V, w.WS, w.FIT, 2, v, slot, w.common(),
              EG.Log(w.E, w.EN, 1, 1))
    assert st[dice.POS] == len(rolls)


def end_turn(w, rolls):
    st, s = w.script(rolls)
    EG._end_of_turn(st, s, w.V, w.WS, 2, w.G, w.E, w.EN, 1)
    assert st[dice.POS] == len(rolls)


def events(w, code):
    E = w.E[:w.EN[0]]
    return E[E[:, 3] == code]


def slot_of(w, v, mount):
    for k in range(VH.MAXW):
        if w.WS[v, k, VH.W_KIND] != 0 and w.WS[v, k, VH.W_MOUNT] == mount:
            return k
    raise AssertionError(mount)


# --- 1. the shot kernel reports what it rolled ----------------------------------------------------
def test_kernel_records_lasting_results_only_in_engine_mode():
    """Front critical -> Bodywork 5 'weapon link severed': with the engine's parameter array the
    kernel rolls the front Weapons sub-table (4: hood) and records the hood station; the
    one-shot analysis (24 parameters) makes no such roll and records an unresolved link."""
    w = world()
    ct = SH.crit_tables("car")
    fit = w.FIT[0].copy()
    groups = w.crit[3][0]
    sp = np.zeros(32, np.int64)
    sp[[SH.S_IN_RANGE, SH.S_ARMOUR, SH.S_TDAMAGE, SH.S_FACING, SH.S_MPH, SH.S_HANDLING,
        SH.S_SKILL, SH.S_BRAKING, SH.S_EXPLODE]] = [SH.AUTO_HIT, 3, 18, FRONT, 0, 4, 3, 30, 1]
    ws = np.zeros(SH.SCRATCH, np.int64)
    out = np.zeros(8, np.int64)
    sp[SH.S_LASTING] = 1
    st, s = w.script([6, 1, 5, 4])
    SH.shot_ws(st, s, sp, ct.matrix, ct.rerolls, ct.effects, w.hp, fit, groups, out, ws)
    assert st[dice.POS] == 4 and ws[SH.WS_NRES] == 1
    assert tuple(ws[SH.WS_RES:SH.WS_RES + 2]) == (SH.L_LINK, SH.STATIONS.index("hood"))
    st, s = w.script([6, 1, 5])
    SH.shot_ws(st, s, sp[:24].copy(), ct.matrix, ct.rerolls, ct.effects, w.hp, fit, groups, out,
               ws)
    assert st[dice.POS] == 3 and ws[SH.WS_NRES] == 1
    assert tuple(ws[SH.WS_RES:SH.WS_RES + 2]) == (SH.L_LINK, -1)


def test_result_names_map_to_lasting_codes():
    car = SH.crit_tables("car")
    def eff(loc, face, f=SH.F_LASTING):
        return car.effects[SH.LOCATIONS.index(loc), face - 1, f]
    assert [eff("engine", f) for f in (2, 3, 4)] == [SH.L_CARB, SH.L_BRK_CYL, SH.L_GEN]
    assert eff("front_wheels", 1) == eff("rear_wheels", 1) == eff("bodywork", 4) == SH.L_BRK_HALF
    assert eff("front_wheels", 4) == SH.L_SPLIT and eff("rear_wheels", 5) == SH.L_TYRE
    assert eff("rear_wheels", 2, SH.F_THEN_LASTING) == SH.L_AXLE
    assert eff("front_wheels", 3, SH.F_THEN_LASTING) == SH.L_HAND0
    assert eff("bodywork", 1, SH.F_THEN_LASTING) == SH.L_ACC0
    assert [eff("bodywork", f) for f in (2, 3, 5)] == [SH.L_VDU, SH.L_LEAK, SH.L_LINK]
    assert [eff("weapons", f) for f in (1, 2, 3, 4, 5)] == [
        SH.L_W_DAMAGED, SH.L_W_DAMAGED, SH.L_W_JAMMED, SH.L_W_CMD, 0]
    assert eff("fuel", 1) == SH.L_LEAK and eff("driver", 5) == SH.L_LIMB
    bike = SH.crit_tables("bike")
    assert bike.effects[SH.LOCATIONS.index("engine"), 1, SH.F_LASTING] == SH.L_CARB3
    # the bike's own bodywork results (p69): clutch cable, weapons link, accelerator cable
    bw = bike.effects[SH.LOCATIONS.index("bodywork")]
    assert [bw[f - 1, SH.F_LASTING] for f in (2, 4, 5, 6)] == [
        SH.L_CLUTCH, SH.L_BRK_HALF, SH.L_LINK, SH.L_ACC0]
    assert bw[0, SH.F_THEN_LASTING] == SH.L_ACC0          # transmission, on a 6+


def test_clutch_cable_holds_a_bike_to_its_current_speed_factor_p69():
    V = np.zeros((1, VH.V_W), np.int64)
    V[0, VH.V_MPH], V[0, VH.V_MAXSPD], V[0, VH.V_ACC] = 47, 120, 30
    G = np.zeros(EG.G_W, np.int64)
    G[EG.G_SPEED_STEP] = 10
    K = EG.new_scratch()
    ws = K[EG.K_WS:EG.K_WS_END]
    ws[SH.WS_NRES], ws[SH.WS_RES], ws[SH.WS_RES + 1] = 1, SH.L_CLUTCH, -1
    E, EN = np.zeros((4, EG.LOG_W), np.int64), np.zeros(1, np.int64)
    EG._apply_lasting(V, np.zeros((1, VH.MAXW, VH.W_W), np.int64),
                      np.ones((1, len(SH.STATIONS)), np.int64), 0, K, G, EG.Log(E, EN, 1, 1))
    assert V[0, VH.V_MAXSPD] == 50 and V[0, VH.V_ACC] == 30      # speed factor 5 at 47mph
    assert EN[0] == 1 and E[0, 3] == EG.EV_LASTING and E[0, 4] == SH.L_CLUTCH


# --- 2. lasting effects ---------------------------------------------------------------------------
def test_carburettor_halves_acceleration_for_good_p34():
    w = world()
    hit(w, 0, [6, 5, 2])                 # damage 6 (critical), front 5 engine, 2 carburettor
    assert w.V[0, VH.V_ACC] == 10
    move(w, 0)
    move(w, 0)
    assert w.V[0, VH.V_ACC] == 10 and w.V[0, VH.V_MPH] == 60
    hit(w, 0, [6, 5, 2])
    assert w.V[0, VH.V_ACC] == 5
    assert list(events(w, EG.EV_LASTING)[:, 4]) == [SH.L_CARB, SH.L_CARB]


def test_brake_cylinder_leaves_5mph_and_a_later_panic_brake_runs_out_p34_p41():
    w = world()
    hit(w, 0, [6, 5, 3])                 # engine 3: brake cylinder
    assert w.V[0, VH.V_BRK] == 5
    # two moves later, a 40mph limit at 60mph: 3 + 2 - 4 = 1, a 5mph panic brake: within 5
    move(w, 0)
    w.lim[0], w.oil[0] = 40, 0
    w.V[0, VH.V_BRKLEFT] = w.V[0, VH.V_BRK]
    st, s = w.script([3])
    EG._hazards(st, s, w.V, 0, w.K, 1, w.G, w.hp, EG.Log(w.E, w.EN, 1, 2))
    assert w.V[0, VH.V_MPH] == 55 and w.V[0, VH.V_OOC] == VH.IN_CONTROL
    # next phase: 4 + 2 - 4 = 2, a 10mph panic brake: beyond the 5mph allowance -> control lost
    w.V[0, VH.V_BRKLEFT] = w.V[0, VH.V_BRK]
    st, s = w.script([4])
    EG._hazards(st, s, w.V, 0, w.K, 1, w.G, w.hp, EG.Log(w.E, w.EN, 1, 3))
    assert w.V[0, VH.V_MPH] == 50 and w.V[0, VH.V_OOC] == VH.OUT_OF_CONTROL


def test_brake_pipe_and_brake_line_halve_braking_down_to_5mph_p34():
    w = world()
    hit(w, 0, [6, 3, 1])                 # front 3 wheels, 1 brake pipe: 30 -> 15
    assert w.V[0, VH.V_BRK] == 15
    move(w, 0)
    hit(w, 0, [6, 1, 4])                 # front 1 bodywork, 4 brake line: 15 -> 7
    assert w.V[0, VH.V_BRK] == 7
    hit(w, 0, [6, 3, 1])
    assert w.V[0, VH.V_BRK] == 5         # never below 5mph (p15)
    move(w, 0)
    assert w.V[0, VH.V_BRKLEFT] == 5


def test_transmission_sets_acceleration_0_and_the_car_coasts_p15_p34():
    w = world()
    hit(w, 0, [6, 1, 1, 4], damage=3)    # bodywork 1 transmission: 4 + 3 >= 7
    assert w.V[0, VH.V_ACC] == 0 and w.V[0, VH.V_ENGOFF] == 0
    move(w, 0)
    move(w, 0)
    assert w.V[0, VH.V_MPH] == 50        # 5mph after each move
    w.V[0, VH.V_MPH] = 5
    move(w, 0)
    assert EG._is_out(w.V, 0)            # stopped, and it can never move off again
    w2 = world()
    hit(w2, 0, [6, 1, 1, 3], damage=3)   # 3 + 3 = 6: wasted
    move(w2, 0)
    assert w2.V[0, VH.V_ACC] == 20 and w2.V[0, VH.V_MPH] == 60


def test_steering_hit_keeps_handling_at_0_p34():
    w = world()
    hit(w, 0, [6, 3, 2, 6])              # front wheels 2: steering hit, 6 + 0 >= 6
    assert w.V[0, VH.V_HAND] == 0 and w.V[0, VH.V_OOC] == VH.OUT_OF_CONTROL
    w.V[0, VH.V_OOC] = VH.IN_CONTROL     # even after a regained control...
    assert EG._no_control(w.V, 0)        # ...zero handling loses it again (p40)


def test_generator_and_vdu_put_turrets_lasers_and_missiles_out_of_action_p34_p35():
    w = world()
    WS = w.WS
    tur = 3
    WS[0, tur] = WS[0, slot_of(w, 0, VH.M_HOOD)]
    WS[0, tur, VH.W_MOUNT] = VH.M_TURRET
    WS[0, tur, VH.W_STATION] = SH.STATIONS.index("turret_a")
    w.FIT[0, SH.STATIONS.index("turret_a")] = 1
    hood = slot_of(w, 0, VH.M_HOOD)
    WS[0, hood, VH.W_LASER] = 1          # the hood weapon stands for a laser here
    w2 = world()
    w2.WS[0] = WS[0]
    w2.FIT[0] = w.FIT[0]
    hit(w, 0, [6, 5, 4])                 # engine 4: generator
    assert WS[0, tur, VH.W_OFF] & VH.OFF_GEN and WS[0, hood, VH.W_OFF] & VH.OFF_GEN
    hit(w2, 0, [6, 1, 2])                # bodywork 2: VDU destroyed -- the laser still works
    assert w2.WS[0, tur, VH.W_OFF] & VH.OFF_VDU and w2.WS[0, hood, VH.W_OFF] == 0
    # later: the turret never fires again (no dice, no shot), the driver no longer picks it
    w2.place(1, 2, 2, 0, 60, side=1, role=0)
    move(w2, 0)
    shoot(w2, 0, tur, [])
    assert len(events(w2, EG.EV_SHOT)) == 0 and w2.WS[0, tur, VH.W_AMMO] == WS[0, hood, VH.W_AMMO]
    slot, _ = PO.best_shot(w2.T, w2.M, w2.NM, w2.V, w2.WS, 2, 0, w2.hp, PO.policy_vector("reckless"), w2.tbuf)
    assert slot == hood


def test_disabled_engine_stops_turrets_and_gives_a_laser_one_last_shot_p34():
    w = world()
    hood = slot_of(w, 0, VH.M_HOOD)
    w.WS[0, hood, VH.W_LASER] = 1
    w.WS[0, hood, VH.W_AMMO] = -1
    w.place(1, 2, 2, 0, 60, side=1, role=0)
    hit(w, 0, [6, 5, 5])                 # engine 5: ignition
    assert w.V[0, VH.V_ENGOFF] and w.WS[0, hood, VH.W_OFF] == VH.OFF_LASTSHOT
    shoot(w, 0, hood, [1])               # the last shot (a natural 1: a miss)
    assert w.WS[0, hood, VH.W_OFF] & VH.OFF_ENGINE
    shoot(w, 0, hood, [])                # no power left
    assert len(events(w, EG.EV_SHOT)) == 1


def test_split_tyre_rolls_after_every_move_until_it_shreds_p34():
    w = world()
    hit(w, 0, [6, 3, 4])                 # wheels 4: split tyre
    assert w.V[0, VH.V_SPLIT] == 1
    move(w, 0, [3])                      # SF 3: 3 is not below it
    move(w, 0, [5])
    assert w.V[0, VH.V_SPLIT] == 1 and w.V[0, VH.V_TYRE] == 0
    # 2 < 3: shreds -> handling 4 - 2, maximum speed 60, a 20mph test: 1 + 4 - 3 = 2, 10mph
    move(w, 0, [2, 1])
    assert w.V[0, VH.V_SPLIT] == 0 and w.V[0, VH.V_TYRE] == 1
    assert w.V[0, VH.V_HAND] == 2 and w.V[0, VH.V_MAXSPD] == 60 and w.V[0, VH.V_MPH] == 50
    move(w, 0)                           # no more rolls
    assert list(events(w, EG.EV_SPLIT)[:, 6]) == [0, 0, 1]
    w2 = world()
    w2.V[0, VH.V_MPH] = 20               # SF 1: no face is below 1, so no roll is made
    hit(w2, 0, [6, 3, 4])
    move(w2, 0, [])


def test_a_spinning_car_rolls_its_split_tyre_after_each_move_too_p34_p44():
    """p34: 'After each move the driver ... rolls a dice'; a spinning car's move is a move. At
    100mph, spinning clockwise: the rotation roll 1 (135 degrees, -25mph: 75mph, speed factor
    4), then the split tyre's d6. A 4 is not below 4: it holds. A 3 shreds it (handling 4 - 2,
    maximum speed 60) and the car spins on: its 20mph test is moot, as a spinning car takes no
    tests (p42-44), so no die is rolled for it. The old engine ran no after-move step for a
    spinning car and rolled no die for the tyre."""
    for roll, shreds in ((4, False), (3, True)):
        w = world()
        w.V[0, VH.V_MPH] = 100
        w.V[0, VH.V_OOC] = VH.SPINNING
        w.V[0, VH.V_SPINDIR] = 1
        w.V[0, VH.V_SPLIT] = 1
        st, s = w.script([1, roll])
        EG._out_of_control_move(st, s, w.B, w.V, w.WS, w.FIT, 2, 0, w.common(),
                                EG.Log(w.E, w.EN, 1, 1))
        assert st[dice.POS] == 2
        assert [tuple(e[4:7]) for e in events(w, EG.EV_SPLIT)] == [(roll, 4, int(shreds))]
        assert w.V[0, VH.V_MPH] == 75 and w.V[0, VH.V_OOC] == VH.SPINNING
        assert w.V[0, VH.V_SPLIT] == (0 if shreds else 1)
        assert w.V[0, VH.V_TYRE] == int(shreds)
        assert w.V[0, VH.V_HAND] == (2 if shreds else 4)
        assert w.V[0, VH.V_MAXSPD] == (60 if shreds else 100)


def test_fuel_leak_rolls_each_turn_and_a_1_disables_the_engine_p34_p35():
    w = world()
    hit(w, 0, [6, 1, 3])                 # bodywork 3: fuel line
    w2 = world()
    hit(w2, 0, [6, 5, 3, 1], facing=REAR)   # rear 5: internal, 3 fuel, 1 holed
    for x in (w, w2):
        assert x.V[0, VH.V_LEAK] == 1
        end_turn(x, [4])
        end_turn(x, [2])
        assert not x.V[0, VH.V_ENGOFF]
        end_turn(x, [1])
        assert x.V[0, VH.V_ENGOFF] and x.V[0, VH.V_ACC] == 0
        end_turn(x, [])                  # a disabled engine needs no more rolls
        move(x, 0)
        assert x.V[0, VH.V_MPH] == 55    # it coasts (p34)


def test_damaged_weapon_loses_2_accuracy_and_jams_on_odd_rolls_p35():
    w = world()
    hood = slot_of(w, 0, VH.M_HOOD)
    acc = w.WS[0, hood, VH.W_ACC]
    ammo = w.WS[0, hood, VH.W_AMMO]
    hit(w, 0, [6, 4, 4, 1])              # front 4 weapons, 4 hood, weapons 1: damaged
    assert w.WS[0, hood, VH.W_DAMAGED] and w.WS[0, hood, VH.W_ACC] == acc - 2
    w.place(1, 2, 2, 0, 60, side=1, role=0)
    shoot(w, 0, hood, [3])               # odd: jams, does not fire
    assert len(events(w, EG.EV_SHOT)) == 0 and w.WS[0, hood, VH.W_AMMO] == ammo
    shoot(w, 0, hood, [2, 1])            # even: fires (hit roll 1, a miss)
    shoot(w, 0, hood, [5])               # the jam recurs
    assert len(events(w, EG.EV_SHOT)) == 1 and w.WS[0, hood, VH.W_AMMO] == ammo - 1
    # a damaged passive rolls too, even for a dummy
    oil = slot_of(w, 0, VH.M_PASSIVE)
    w.WS[0, oil, VH.W_DAMAGED] = 1
    w.V[0, VH.V_DUMMIES] = 2
    st, s = w.script([1])
    EG._lay_dummy(st, s, w.B, w.V, w.WS, 2, 0, oil, w.G, EG.Log(w.E, w.EN, 1, 1))
    assert w.NM[0] == 0 and w.V[0, VH.V_DUMMIES] == 2


def test_jammed_weapon_needs_a_6_then_works_for_good_p35():
    w = world()
    hood = slot_of(w, 0, VH.M_HOOD)
    hit(w, 0, [6, 4, 4, 3])              # weapons 3: jammed
    assert w.WS[0, hood, VH.W_JAM] == 1
    w.place(1, 2, 2, 0, 60, side=1, role=0)
    shoot(w, 0, hood, [5])
    shoot(w, 0, hood, [4])
    assert len(events(w, EG.EV_SHOT)) == 0
    shoot(w, 0, hood, [6, 1])            # a 6: the shot takes place (a miss)
    shoot(w, 0, hood, [1])               # no more rolls needed
    assert len(events(w, EG.EV_SHOT)) == 2 and w.WS[0, hood, VH.W_JAM] == 0


def test_command_link_and_weapon_link_severed_put_the_weapon_out_of_action_p35():
    for rolls in ([6, 4, 4, 4], [6, 1, 5, 4]):   # weapons 4; bodywork 5 then the hood
        w = world()
        hood = slot_of(w, 0, VH.M_HOOD)
        hit(w, 0, rolls)
        assert w.WS[0, hood, VH.W_OFF] == VH.OFF_LINK
        w.place(1, 2, 2, 0, 60, side=1, role=0)
        shoot(w, 0, hood, [])
        assert len(events(w, EG.EV_SHOT)) == 0
    w = world()
    hit(w, 0, [6, 1, 5, 1])              # bodywork 5 then wings: nothing fitted -> wasted
    assert (w.WS[0, :, VH.W_OFF] == 0).all()


def test_broken_axle_tests_after_every_move_and_is_a_wreck_when_it_stops_p34_p57():
    w = world()
    # rear 3 wheels, 2 axle hit: 4 + 3 >= 7 broken; the immediate 40mph test at 60mph:
    # 1 + 2 - 3 (skill; handling 4 - 2) = 0, OK
    hit(w, 0, [6, 3, 2, 4, 1], damage=3, facing=REAR)
    assert w.V[0, VH.V_AXLE] and w.V[0, VH.V_ACC] == 0 and w.V[0, VH.V_HAND] == 2
    move(w, 0, [1])                      # 55mph after the move: a 40mph test
    move(w, 0, [1])                      # 50mph: another
    assert w.V[0, VH.V_MPH] == 50
    n_tests = (events(w, EG.EV_HAZARD)[:, 4] == 40).sum()
    assert n_tests == 2
    w.V[0, VH.V_MPH] = 5
    move(w, 0)
    EG._wreck_if_needed(w.V, 0, EG.Log(w.E, w.EN, 1, 1))
    assert w.V[0, VH.V_STATUS] == VH.WRECK


def test_limb_disabled_rolls_which_limb_and_two_legs_mean_no_driver_p34():
    w = world()
    hit(w, 0, [6, 6, 5, 1, 1])           # driver 5: limb; odd = a leg, odd = left
    assert w.V[0, VH.V_SKILL] == 2 and w.V[0, VH.V_LIMBS] == 1
    w.V[0, VH.V_OOC] = VH.IN_CONTROL
    hit(w, 0, [6, 6, 5, 2, 1])           # even = an arm: drive skill -2
    assert w.V[0, VH.V_SKILL] == 0 and w.V[0, VH.V_NODRIVER] == 0
    w2 = world()
    hit(w2, 0, [6, 6, 5, 1, 1])
    hit(w2, 0, [6, 6, 5, 1, 2])          # the other leg
    assert w2.V[0, VH.V_NODRIVER] == 1 and w2.V[0, VH.V_SKILL] == 0


def test_tyre_destroyed_by_a_shot_cuts_the_maximum_speed_and_tests_it_each_move_p34():
    w = world()
    w.V[0, VH.V_MPH] = 70
    # front 3 wheels, 5 tyre destroyed; the 20mph test at 70: 1 + 5 - 3 = 3, 15mph -> 55mph
    hit(w, 0, [6, 3, 5, 1])
    assert w.V[0, VH.V_TYRE] and w.V[0, VH.V_MAXSPD] == 60 and w.V[0, VH.V_MPH] == 55
    w.V[0, VH.V_MPH] = 65
    move(w, 0, [1])                      # over the new maximum: a 60mph test (1 + 1 - 3: OK)
    assert (events(w, EG.EV_HAZARD)[:, 4] == 60).sum() == 1


# --- 3. linked weapons ----------------------------------------------------------------------------
def test_linked_weapons_fire_together_each_shot_in_turn_p83():
    car = GM.car_from("renegade: wing_left=mg, wing_right=mg, link=wing_left+wing_right")
    rows, fit, groups = GM._weapon_rows(car, {})
    assert rows[0, VH.W_LINK] == rows[1, VH.W_LINK] == 1
    w = world()
    w.WS[0] = rows
    w.FIT[0] = fit
    w.place(1, 2, 2, 0, 60, side=1, role=0)   # in both wings' corridors
    shoot(w, 0, 0, [1, 1])               # two hit rolls, both natural 1s
    assert list(events(w, EG.EV_SHOT)[:, 5]) == [0, 1]
    # one of them jammed: the other still fires
    w.WS[0, 0, VH.W_JAM] = 1
    shoot(w, 0, 0, [2, 1])
    assert list(events(w, EG.EV_SHOT)[:, 5]) == [0, 1, 1]
    w.WS[0, :, VH.W_LINK] = 0            # unlinked: one weapon per action
    shoot(w, 0, 1, [1])
    assert len(events(w, EG.EV_SHOT)) == 4


# --- 4. locked-on oil and smoke -------------------------------------------------------------------
def lock_world():
    w = world()
    w.place(0, 2, 2, 0, 60, side=0, role=0)
    w.place(1, 5, 2, 0, 60, side=1, role=1)
    return w, slot_of(w, 0, VH.M_PASSIVE)


def locked_after(w, slot, act=PO.A_NONE, arg=0, rolls=()):
    st, s = w.script(list(rolls))
    EG._locked_after_move(st, s, w.B, w.V, w.WS, 2, 0, act, arg, w.G,
                          EG.Log(w.E, w.EN, 1, 1))
    assert st[dice.POS] == len(rolls)


def test_locked_on_oil_lays_after_every_move_until_switched_off_p23():
    w, oil = lock_world()
    ammo = w.WS[0, oil, VH.W_AMMO]
    st, s = w.script([])
    EG._lock_on(st, s, w.B, w.V, w.WS, 2, 0, oil, w.G, EG.Log(w.E, w.EN, 1, 1))
    assert w.WS[0, oil, VH.W_LOCKED] == 1 and w.NM[0] == 1
    for _ in range(2):                   # two moves without an action: a marker after each
        move(w, 0)
        locked_after(w, oil)
    assert w.NM[0] == 3 and w.WS[0, oil, VH.W_AMMO] == ammo - 3
    move(w, 0)
    locked_after(w, oil, PO.A_LOCK, -1 - oil)   # switched off: no marker, no ammunition
    assert w.NM[0] == 3 and w.WS[0, oil, VH.W_AMMO] == ammo - 3 and not w.WS[0, oil, VH.W_LOCKED]
    move(w, 0)
    locked_after(w, oil)
    assert w.NM[0] == 3


def test_switching_off_fails_when_the_move_ends_in_a_panic_brake_p23():
    w, oil = lock_world()
    w.WS[0, oil, VH.W_LOCKED] = 1
    move(w, 0)
    w.V[0, VH.V_PANIC] = 1
    locked_after(w, oil, PO.A_LOCK, -1 - oil)
    assert w.WS[0, oil, VH.W_LOCKED] == 1 and w.NM[0] == 1


def test_spinning_disperses_a_locked_on_layer_and_a_stopped_car_turns_oil_off_p23_p24():
    w, oil = lock_world()
    ammo = w.WS[0, oil, VH.W_AMMO]
    w.WS[0, oil, VH.W_LOCKED] = 1
    w.V[0, VH.V_OOC] = VH.SPINNING
    locked_after(w, oil)
    assert w.NM[0] == 0 and w.WS[0, oil, VH.W_AMMO] == ammo - 1 and w.WS[0, oil, VH.W_LOCKED]
    w.V[0, VH.V_OOC] = VH.IN_CONTROL
    w.V[0, VH.V_MPH] = 0
    locked_after(w, oil)                 # the last move's marker, then it turns itself off
    assert w.NM[0] == 1 and not w.WS[0, oil, VH.W_LOCKED]
    # smoke stays locked on a stopped car
    w.WS[0, oil, VH.W_PTYPE] = RD.SMOKE
    w.WS[0, oil, VH.W_LOCKED] = 1
    locked_after(w, oil)
    end_turn(w, [])
    assert w.WS[0, oil, VH.W_LOCKED] == 1


def test_layer_driver_locks_on_and_switches_off_standard_never_does():
    w, oil = lock_world()
    w.place(1, 1, 2, 2, 60, side=1, role=1)  # right on its tail, same lanes
    par = PO.policy_vector("layer")
    assert PO.decide(w.B, w.T, w.V, w.WS, 2, 0, True, w.hp, par, *w.dice) == (PO.A_LOCK, oil)
    std = PO.decide(w.B, w.T, w.V, w.WS, 2, 0, True, w.hp, PO.policy_vector("standard"), *w.dice)
    assert std == (PO.A_PASSIVE, oil)
    w.WS[0, oil, VH.W_LOCKED] = 1
    w.place(1, 6, 0, 0, 60, side=1, role=1)  # now far ahead of the lead car: nobody behind
    w.V[0, VH.V_MPH] = w.V[0, VH.V_MAXSPD]   # at its cruising speed (no escape acceleration)
    assert PO.decide(w.B, w.T, w.V, w.WS, 2, 0, True, w.hp, par, *w.dice) == (PO.A_LOCK, -1 - oil)


# --- 5. double hits -------------------------------------------------------------------------------
def markers_ahead(w, kinds, lane=2):
    """Markers on the space in front of car 0 (section 1, space 0 -> space 1)."""
    sec, sp = 1, 1
    for k in kinds:
        RD._add_marker(w.M, w.NM, k, sec, lane, lane + 1, RD.rear_x(w.T, sec, lane, sp),
                       RD.front_x(w.T, sec, lane, sp), 1 if k == RD.SMOKE else 0, 1)


def advance(w, rolls, steady=True):
    st, s = w.script(rolls)
    nl = EG._advance(st, s, w.B, w.V, w.WS, w.FIT, 2, 0, EG.Move(0, steady, False), w.common(),
                     EG.Log(w.E, w.EN, 1, 1))
    assert st[dice.POS] == len(rolls)
    return sorted(zip(w.lim[:nl], w.oil[:nl]))


@pytest.mark.parametrize("kinds, rolls, limits, handling", [
    ((RD.MINES, RD.MINES), [2, 2], [(30, 0)], 4),            # both damage rolls, one 30mph test
    ((RD.MINES,), [2], [(50, 0)], 4),
    ((RD.SPIKES, RD.SPIKES), [2], [], 4),                    # one hit
    ((RD.SMOKE, RD.SMOKE), [], [(60, 0)], 4),                # one test, the usual limit
    ((RD.OIL, RD.OIL), [], [(60, 1), (60, 1)], 2),           # two hits
    ((RD.OIL, RD.MINES), [2], [(50, 0), (60, 1)], 3),        # odd set: each hit separately
])
def test_double_hits_after_a_straight_ahead_move_p31(kinds, rolls, limits, handling):
    w = world()
    w.V[0, VH.V_MPH] = 70
    markers_ahead(w, kinds)
    assert advance(w, rolls) == limits
    assert w.V[0, VH.V_HAND] == handling
    assert (events(w, EG.EV_MARKER)[:, 4] == list(kinds)).all()   # in the order laid


def test_two_mines_after_a_drift_are_two_separate_hits_p31():
    w = world()
    w.V[0, VH.V_MPH] = 70
    w.V[0, VH.V_OOC] = VH.OUT_OF_CONTROL     # a skid's straight move is not 'straight ahead'
    markers_ahead(w, (RD.MINES, RD.MINES))
    assert advance(w, [2, 2], steady=False) == [(50, 0), (50, 0)]


def test_interceptor_lays_oil_and_mines_on_top_of_each_other_p23():
    """A locked-on oil layer on one passive position and a mines action on the other in the same
    phase: two markers on one spot; the pursuer then takes both, oil last (p23, p30-31)."""
    w, _ = lock_world()
    oil = 4
    mines = 5
    for k, ptype in ((oil, RD.OIL), (mines, RD.MINES)):
        w.WS[0, k] = 0
        w.WS[0, k, VH.W_KIND] = VH.WK_PASSIVE
        w.WS[0, k, VH.W_MOUNT] = VH.M_PASSIVE
        w.WS[0, k, VH.W_PTYPE] = ptype
        w.WS[0, k, VH.W_AMMO] = 6
        w.WS[0, k, VH.W_STATION] = SH.STATIONS.index(
            "passive_left" if k == oil else "passive_right")
    w.WS[0, slot_of(w, 0, VH.M_PASSIVE), VH.W_KIND] = 0
    w.WS[0, oil, VH.W_LOCKED] = 1
    move(w, 0)
    locked_after(w, oil)
    st, s = w.script([])
    EG._lay_passive(st, s, w.B, w.V, w.WS, 2, 0, mines, EG.Log(w.E, w.EN, 1, 1))
    M = w.M[:w.NM[0]]
    assert list(M[:, RD.MK_KIND]) == [RD.OIL, RD.MINES]
    assert (M[0, 1:6] == M[1, 1:6]).all()
    # the pursuer comes up behind and drives over both
    w.place(1, int(M[0, RD.MK_SEC]), 2, 0, 70, side=1, role=1)
    w.place(0, 5, 2, 0, 60, side=0, role=0)
    st, s = w.script([2])
    zlo, zhi = 2, 3
    nl = EG._markers_hit(st, s, w.B, w.V, w.WS, w.FIT, 1,
                         EG.Zone(zlo, zhi, int(M[0, 4]), int(M[0, 5]), True, True), 0, w.common(),
                         EG.Log(w.E, w.EN, 1, 1))
    assert sorted(zip(w.lim[:nl], w.oil[:nl])) == [(50, 0), (60, 1)]
    assert w.V[1, VH.V_HAND] == 3 and st[dice.POS] == 1


# --- 6. dummies -----------------------------------------------------------------------------------
def test_dummy_steers_a_pursuer_like_real_oil_and_vanishes_when_hit_p22():
    w, oil = lock_world()
    # the chase car two spaces behind a marker: with nothing there it drives on; a face-down
    # marker of any kind makes it drift round
    w.place(1, 1, 2, 0, 60, side=1, role=1)
    par = PO.policy_vector("standard")

    def chaser_action():
        return PO.decide(w.B, w.T, w.V, w.WS, 2, 1, True, w.hp, par, *w.dice)

    clear = chaser_action()
    # a marker on lanes 3-4 (laid by a car on those lanes): a drift left clears it
    RD._add_marker(w.M, w.NM, RD.OIL, 1, 3, 4, RD.rear_x(w.T, 1, 3, 2), RD.front_x(w.T, 1, 3, 2),
                   0, 0)
    real = chaser_action()
    w.M[0, RD.MK_KIND] = RD.DUMMY
    fake = chaser_action()
    assert real == fake and real[0] == PO.A_DRIFT and clear != real
    # run onto it: turned over, removed, no test
    w.V[1, VH.V_SP] = 1
    st, s = w.script([])
    nl = EG._markers_hit(st, s, w.B, w.V, w.WS, w.FIT, 1,
                         EG.Zone(2, 3, int(w.M[0, 4]), int(w.M[0, 5]), True, True), 0, w.common(),
                         EG.Log(w.E, w.EN, 1, 1))
    assert nl == 0 and w.M[0, RD.MK_ACTIVE] == 0 and w.V[1, VH.V_HAND] == 4


def test_dummies_only_from_cars_with_passives_and_the_layer_driver_bluffs_when_spent_p22():
    w, oil = lock_world()
    w.V[0, VH.V_DUMMIES] = 0
    EG._setup_lasting(w.V, w.WS, 0, w.G)
    assert w.V[0, VH.V_DUMMIES] == w.G[EG.G_DUMMIES] == 5
    w.WS[1] = 0
    w.V[1, VH.V_DUMMIES] = 0
    EG._setup_lasting(w.V, w.WS, 1, w.G)
    assert w.V[1, VH.V_DUMMIES] == 0
    w.WS[0, oil, VH.W_AMMO] = 0
    w.place(1, 1, 2, 2, 60, side=1, role=1)
    par = PO.policy_vector("layer")
    act = PO.decide(w.B, w.T, w.V, w.WS, 2, 0, True, w.hp, par, *w.dice)
    assert act == (PO.A_DUMMY, oil)
    st, s = w.script([2])                # tail-gated: an even roll places it
    EG._lay_dummy(st, s, w.B, w.V, w.WS, 2, 0, oil, w.G, EG.Log(w.E, w.EN, 1, 1))
    assert w.NM[0] == 1 and w.M[0, RD.MK_KIND] == RD.DUMMY and w.M[0, RD.MK_FACEUP] == 0
    assert w.V[0, VH.V_DUMMIES] == 4 and w.WS[0, oil, VH.W_AMMO] == 0


# --- whole games ----------------------------------------------------------------------------------
def _count(sc, trials, codes):
    out = {c: 0 for c in codes}
    for t in range(trials):
        ev, _, _, _ = GM.play_one(sc, seed=7, trial=t)
        for c in codes:
            out[c] += int((np.asarray(ev)[:, 3] == c).sum())
    return out


def test_whole_games_apply_lasting_criticals_and_lock_on():
    sc = GM.load_scenario(SCEN / "game-1.toml", policies={"player-1": "layer", "player-2": "layer"})
    n = _count(sc, 60, (EG.EV_LASTING, EG.EV_LOCK, EG.EV_PASSIVE, EG.EV_LEAK, EG.EV_JAM))
    assert n[EG.EV_LASTING] > 0 and n[EG.EV_LOCK] > 0 and n[EG.EV_PASSIVE] > n[EG.EV_LOCK]
    lines, info = GM.playthrough(sc, seed=7, trial=0)
    assert info["turns"] >= 1 and any("declares" in x for x in lines)


def test_whole_games_fire_linked_wing_guns_together(tmp_path):
    """Game One with wing MGs: unlinked, a shoot action fires at most one gun; linked, every
    action fires the second gun too whenever its own corridor holds a target (p83)."""
    counts = {}
    for linked in (False, True):
        p = tmp_path / f"linked-{linked}.toml"
        car = "renegade: wing_left=mg, wing_right=mg, passive=oil" + (
            ", link=wing_left+wing_right" if linked else "")
        p.write_text((SCEN / "game-1.toml").read_text().replace(
            '"renegade: hood=mg, passive=oil"', f'"{car}"'))
        sc = GM.load_scenario(p)
        actions = shots = 0
        for t in range(40):
            ev, _, _, _ = GM.play_one(sc, seed=11, trial=t)
            ev = np.asarray(ev)
            actions += int(((ev[:, 3] == EG.EV_ACTION) & (ev[:, 4] == PO.A_SHOOT)).sum())
            shots += int((ev[:, 3] == EG.EV_SHOT).sum())
        counts[linked] = (actions, shots)
    assert counts[False][0] > 0 and counts[False][1] <= counts[False][0]
    assert counts[True][0] > 0 and counts[True][1] > 1.1 * counts[True][0]
