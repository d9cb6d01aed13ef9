"""Dark Future rulebook examples with numbers, replayed with scripted dice.

Each test names the example's page; the compiled kernel and the plain-Python reference replay
the same script (one entry per roll), and running out of script or leaving rolls unused fails.
"""

from fractions import Fraction

import numpy as np
import pytest

from simkit.core import dice
from simkit.core.errors import ScriptedDiceError
from simkit.core.exact import ScriptedDice, distribution
from simkit.dark_future import reference as REF
from simkit.dark_future.procedures import hazards as H
from simkit.dark_future import rules as R

HP = R.hazard_params()


def scripted(rolls):
    return dice.scripted_state(), dice.as_script(rolls)


def test_speed_factor_table_p12():
    for lo, hi, sf in [(1, 20, 1), (21, 40, 2), (41, 60, 3), (61, 80, 4), (81, 100, 5), (101, 120, 6)]:
        assert R.speed_factor(lo) == R.speed_factor(hi) == sf
    assert R.speed_factor(0) == 0
    # p12 example: the Interceptor at 15mph (SF 1) moves in phase 1 only, the Renegade at
    # 30mph (SF 2) in phases 1 and 2; p41: 50mph (SF 3) braking to 35mph (SF 2) loses phase 3
    assert R.speed_factor(15) == 1 and R.speed_factor(30) == 2
    assert R.speed_factor(50) == 3 and R.speed_factor(35) == 2


def test_interceptor_speed_change_example_p12():
    # 'an Interceptor has braking 40mph and acceleration 30mph. If it is travelling at 60mph
    # the player can set its speed anywhere between a minimum of 20mph and a maximum of 90mph.'
    assert R.speed_range(R.vehicle("interceptor"), 60) == (20, 90)


def test_excess_speed_example_p39():
    # 'a car going at 62mph encounters a hazard with a 50mph safety limit. The modifier for
    # excess speed is 2.'
    assert R.excess_modifier(62, 50) == 2
    assert R.excess_modifier(60, 50) == 1 and R.excess_modifier(50, 50) == 0


def test_hazard_roll_example_p39():
    # 90mph, optimum control 4, +2HE hit (limit 50mph), rolls a 5: 5 + 4 - 4 = 5, control loss
    limit = R.safety_limit("he_small")
    assert limit == 50
    st, script = scripted([5])
    out, mph = H.hazard_roll(st, script, 90, limit, 4, 40, HP.as_array())
    assert (out, mph) == (H.LOSS, 0) and dice.script_position(st) == 1
    sd = ScriptedDice([5])
    assert REF.hazard_roll_ref(sd, 90, limit, 4, 40, HP) == (H.LOSS, 0) and sd.exhausted


def test_renegade_panic_brake_example_p41():
    # Renegade (braking 30, handling 4) at 80mph onto a 50mph curve: 20mph panic brake (a
    # score of 4: a 5 rolled, +3 excess, -4). Later a 40mm GL hit (+8HE, 30mph limit) at 60mph:
    # another 20mph panic (a 5: +3 excess, -4) but only 10mph of braking is left: brakes 10mph
    # and goes out of control.
    ren = R.vehicle("renegade")
    oc = R.optimum_control(ren.handling, 3)
    assert oc == 4
    hp = HP.as_array()
    st, script = scripted([5, 5])
    out, mph = H.hazard_roll(st, script, 80, 50, oc, ren.braking, hp)
    assert (out, mph) == (H.PANIC, 20)
    speed, left = 80 - mph, ren.braking - mph
    assert (speed, left) == (60, 10)
    limit = R.safety_limit("he_large")
    assert limit == 30
    out, mph = H.hazard_roll(st, script, speed, limit, oc, left, hp)
    assert (out, mph) == (H.LOSS_BRAKES, 10) and speed - mph == 50
    # the same two tests as one sequence (curve first: higher limit), kernel and reference
    st, script = scripted([5, 5])
    outcomes = np.zeros(2, np.int64)
    res = H.hazard_sequence(st, script, 80, np.array([50, 30]), np.zeros(2, np.int64), 30, oc,
                            ren.braking, hp, outcomes)
    assert res == (50, 0, True) and list(outcomes) == [H.PANIC, H.LOSS_BRAKES]
    sd = ScriptedDice([5, 5])
    assert REF.hazard_sequence_ref(sd, 80, [(30, False), (50, False)], oc, ren.braking, HP) == \
        (50, 0, True, (H.PANIC, H.LOSS_BRAKES))


def test_optimum_speed_example_p41():
    # optimum control 4, 60mph limit -> optimum speed 80mph; at 81+ a 6 means control loss
    assert R.optimum_speed(60, 4) == 80
    at80 = distribution(REF.hazard_roll_ref, 80, 60, 4, 10 ** 6, HP)
    at81 = distribution(REF.hazard_roll_ref, 81, 60, 4, 10 ** 6, HP)
    assert sum(p for (o, _), p in at80.items() if o >= H.LOSS) == 0
    assert at80[(H.PANIC, 20)] == Fraction(1, 6)  # the worst roll, a 6: total 4
    assert sum(p for (o, _), p in at81.items() if o >= H.LOSS) == Fraction(1, 6)


def test_multiple_tests_example_p41():
    # 65mph onto a '60' curve and pattern mines (50mph): curve first; a 20mph panic brake takes
    # the car to 45mph, so there is no roll for the mines. The book gives no optimum control: a
    # 20mph panic needs a score of 4 = d6 + 1 - control, so control 3 and a 6 (control 4 cannot
    # reach it: its worst is 6 + 1 - 4 = 3).
    mines = R.safety_limit("pattern_mine")
    assert mines == 50
    tests = [(mines, False), (60, False)]
    assert [t[0] for t in REF.order_tests(tests)] == [60, 50]
    assert REF.order_tests([(60, True), (30, False)])[-1] == (60, True)  # oil always last
    st, script = scripted([6])
    outcomes = np.zeros(2, np.int64)
    res = H.hazard_sequence(st, script, 65, np.array([60, 50]), np.zeros(2, np.int64), 30, 3, 40,
                            HP.as_array(), outcomes)
    assert res == (45, 20, False) and list(outcomes) == [H.PANIC, H.OK]
    assert dice.script_position(st) == 1  # one roll only: no test for the mines
    sd = ScriptedDice([6])
    assert REF.hazard_sequence_ref(sd, 65, tests, 3, 40, HP) == (45, 20, False, (H.PANIC, H.OK))
    assert sd.exhausted
    curve = distribution(REF.hazard_roll_ref, 65, 60, 4, 40, HP)
    assert (H.PANIC, 20) not in curve and max(m for _, m in curve) == 15


def test_oil_on_a_curve_example_p30():
    # 80mph onto oil on a 50mph curve: the curve is tested first (oil always last); its panic
    # brake means the oil is tested against 30mph. Optimum control 4, braking 40 (Interceptor):
    # curve 5 + 3 - 4 = 4, 20mph -> 60mph; oil at 60 against 30: 2 + 3 - 4 = 1, 5mph -> 55mph.
    tests = [(R.safety_limit("oil_straight"), True), (50, False)]
    assert REF.order_tests(tests) == [(50, False), (60, True)]
    st, script = scripted([5, 2])
    outcomes = np.zeros(2, np.int64)
    res = H.hazard_sequence(st, script, 80, np.array([50, 60]), np.array([0, 1]),
                            R.safety_limit("oil_other"), 4, 40, HP.as_array(), outcomes)
    assert res == (55, 15, False) and list(outcomes) == [H.PANIC, H.PANIC]
    sd = ScriptedDice([5, 2])
    assert REF.hazard_sequence_ref(sd, 80, tests, 4, 40, HP) == (55, 15, False, (H.PANIC, H.PANIC))
    # without the panic brake the straight-ahead oil limit (60mph) would have spared the roll
    st, script = scripted([1])
    res = H.hazard_sequence(st, script, 60, np.array([50, 60]), np.array([0, 1]), 30, 4, 40,
                            HP.as_array(), outcomes)
    assert res == (60, 40, False) and dice.script_position(st) == 1


def test_spin_example_p44():
    # control loss -> spin: skid test even (straight ahead), direction 4 (clockwise), rotation
    # 2 + speed factor 2 = 4. The template position is RECONSTRUCTED (rules-data 4.1): 90, -20mph.
    template = np.array(R.base_rules().table("spin_template")["rows"], dtype=np.int64)
    skid = R.base_rules().table("skid_test")
    st, script = scripted([2, 4, 2])
    assert H.skid_test(st, script, False, skid["straight_mph"], skid["drift_mph"]) == (0, 0, 5)
    assert H.spin_test(st, script, 2, True, 0, template) == (1, 90, 20)
    assert dice.script_position(st) == 3
    sd = ScriptedDice([2, 4, 2])
    assert REF.skid_test_ref(sd, False, 5, 10) == (0, 0, 5)
    assert REF.spin_ref(sd, 2, True, 0, template.tolist()) == (1, 90, 20) and sd.exhausted


def test_scripts_that_do_not_fit_the_procedure_fail():
    st, script = scripted([])
    with pytest.raises(ScriptedDiceError):
        H.hazard_roll(st, script, 90, 50, 4, 40, HP.as_array())
    st, script = scripted([7])
    with pytest.raises(ScriptedDiceError):
        H.hazard_roll(st, script, 90, 50, 4, 40, HP.as_array())


def _shot(target, weapon, rng, **kw):
    from simkit.dark_future.procedures import shooting as S
    sim = S.weapon_table_sim(target, kw.pop("mount", "hood"), [rng], weapon_keys=[weapon], **kw)
    return S, sim, sim.shots[0]


def _replay_shot(S, sim, s, script):
    """Run one shot on the kernel and on the reference with the same script; both must agree
    and use every roll."""
    st = dice.scripted_state()
    out = np.zeros(7, np.int64)
    S.shot(st, dice.as_script(script), s.as_array(), sim.ct.matrix, sim.ct.rerolls,
           sim.ct.effects, sim.hp, sim.fit, sim.groups, out)
    assert dice.script_position(st) == len(script)
    sd = ScriptedDice(script)
    ref = REF.shot_ref(sd, s, sim.ct)
    assert sd.exhausted and tuple(out) == tuple(int(x) for x in ref)
    return ref


def test_renegade_panic_brake_example_p41_with_the_40mm_gl_shot():
    # The second half of the p41 example as a shot: the Renegade at 60mph with 10mph of braking
    # left is hit by a 40mm GL (hit roll 5 at range 3, damage roll 1: 1 + 8 - 3 = 6 points,
    # 18 -> 12, not below the 12 level); the +8HE hit forces a 30mph hazard roll,
    # 5 + 3 - 4 = 4, a 20mph panic brake it cannot make: control loss.
    from dataclasses import replace
    S, sim, s = _shot("renegade", "gl40", 3, target_mph=60)
    s = replace(s, braking=10)
    assert (s.handling, s.skill) == (4, 3)
    assert _replay_shot(S, sim, s, [5, 1, 5]) == (True, 6, 0, True, False, True, False)
    # the hazard roll comes after the damage (p40): a damage roll of 3 (8 points, 18 -> 10)
    # passes the 12 level, handling 4 -> 3, optimum control 3, and even a 3 on the hazard roll
    # (3 + 3 - 3 = 3, 15mph) is more than the 10mph left
    assert _replay_shot(S, sim, s, [5, 3, 3]) == (True, 8, 0, True, False, True, False)
    assert _replay_shot(S, sim, s, [5, 1, 3]) == (True, 6, 0, True, False, False, False)


def test_panic_brake_costs_a_move_example_p41():
    # a car at 50mph hit by a 40mm GL panic brakes 15mph (a score of 3: with optimum control 4,
    # a 5 rolled, +2 for 20mph over the 30mph limit); in phase 3 it has lost its move
    st, script = scripted([5])
    out, mph = H.hazard_roll(st, script, 50, R.safety_limit("he_large"), 4, 30, HP.as_array())
    assert (out, mph) == (H.PANIC, 15)
    assert R.speed_factor(50 - mph) == 2 < 3 <= R.speed_factor(50)


def test_terminal_damage_example_p35():
    # 'a car with only 2 points of damage left takes a hit which causes 4 points': engine
    # disabled, handling zero (control lost), weapons dead; the explosion roll scores 2: no
    # explosion. An autocannon (+3) on a Renegade (armour 3): damage roll 4 -> 4 points.
    S, sim, s = _shot("renegade", "autocannon", 2, target_damage=2)
    out = _replay_shot(S, sim, s, [4, 4, 2])
    assert out == (True, 2, 0, False, True, True, True)
    # an explosion roll of 1 blows the car up: a driver critical (here 3: injured, 20mph test
    # not taken because control is already lost)
    out = _replay_shot(S, sim, s, [4, 4, 1, 3])
    assert out == (True, 2, 0, False, True, True, True)


def test_bike_overlap_example_p64():
    # a bike at 70mph passes one at 30mph going the other way (opposed, 40mph limit): the fast
    # rider rolls, the slow one does not
    limit = R.safety_limit("bike_overlap_opposed")
    st, script = scripted([])
    assert H.hazard_roll(st, script, 30, limit, 6, 40, HP.as_array()) == (H.OK, 0)
    st, script = scripted([1])
    H.hazard_roll(st, script, 70, limit, 6, 40, HP.as_array())
    assert dice.script_position(st) == 1


def test_road_damage_example_p68():
    # 'an out of control bike rolls at 35mph, which is speed factor 2 ... subtracts two'
    assert R.base_rules().table("road_damage")["rows"][R.speed_factor(35) - 1] == -2
