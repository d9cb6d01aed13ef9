"""Demon's Run hazard procedures (205-210): rulebook examples replayed with scripted dice
through both the reference and the compiled kernel, the reference's full path enumeration
against the dynamic-programming oracle, and the kernels against that oracle (G-test, fixed
seed, alpha 1e-3)."""

from fractions import Fraction

import numpy as np
import pytest

from simkit.core import dice
from simkit.core.exact import ScriptedDice, distribution
from simkit.core.stats import g_test
from simkit.demons_run.procedures import kernels as K
from simkit.demons_run.reference import oracle
from simkit.demons_run import reference as ref
from simkit.demons_run.builds import Build, worked_ship
from simkit.demons_run.procedures.tables import hazard_specs
from simkit.demons_run.rules import BUOYS, FUEL, SCREENS, SI, TRACTOR, make_rules

R = make_rules()
ARR = K.kernel_arrays(R)


def kernel_replay(spec, ship, rolls, rules=None):
    """Run one procedure through the compiled kernel on scripted dice."""
    crit, par, vturns = K.kernel_arrays(rules) if rules else ARR
    st = dice.scripted_state()
    out, final = K.run_one(st, dice.as_script(rolls), np.asarray(spec, np.int64),
                           np.asarray(ship, np.int64), crit, par, vturns)
    assert dice.script_position(st) == len(rolls), "the kernel must use exactly the book's rolls"
    return out, final


def spec(kind, arg=0, screens=0, velocity=0, pi=0, level=0, rng=0, mod=0):
    return [kind, arg, screens, velocity, pi, level, rng, mod]


def kernel_damage(ship, hits, rolls):
    crit, par, _ = ARR
    st = dice.scripted_state()
    ship = np.asarray(ship, np.int64)
    out = np.zeros(K.OUT_SIZE, np.int64)
    K.apply_damage(st, dice.as_script(rolls), ship, hits, crit, par, out)
    assert dice.script_position(st) == len(rolls)
    return out, ship


# --- rulebook examples -----------------------------------------------------------------------

def test_buoy_recovery_example_205_D():
    """T10, die 4, Velocity 5 (-2), two hexes away (-4), Hell Fire (-1), PI 0: factor 7, recovered."""
    mod = ref.recovery_modifier(R, velocity=5, hexes_away=2, terrain="hell_fire", pi_modifier=0)
    assert mod == -7 and ref.tractor_factor(4, 10, mod) == 7
    assert ref.buoy_recovery(ScriptedDice([4]), R, 10, mod).effect
    assert not ref.buoy_recovery(ScriptedDice([1]), R, 10, mod).effect  # 10+1-7 = 4 < 5
    out, _ = kernel_replay(spec(K.K_RECOVERY, level=10, mod=mod), [0] * 10, [4])
    assert out[K.O_EFFECT] == 1
    out, _ = kernel_replay(spec(K.K_RECOVERY, level=10, mod=mod), [0] * 10, [1])
    assert out[K.O_EFFECT] == 0
    assert oracle.p_recovery_exact(R, 10, mod) == pytest.approx(5 / 6)
    # successive attempts (205 B g) and Level-0 Tractor (205 A)
    assert ref.recovery_modifier(R, velocity=3, hexes_away=0, attempt=3) == -2
    assert oracle.p_recovery_exact(R, 0, 10) == 0


def test_laser_example_206_E_and_effects_206_F():
    """Range 7, Pilot +2, a Hell3 well hex (-6), roll 9: 9 + 2 - 6 = 5, missed."""
    mod = 2 + R.t("fire")["line_of_fire"]["hell3_fire"]
    ship = ref.ship_from_build(Build(si=14, screens=4, fuel=100))
    res = ref.laser_at_ship(ScriptedDice([9]), R, list(ship), 7, 7, mod)
    assert not res.effect and res.si_loss == 0
    out, _ = kernel_replay(spec(K.K_LASER, screens=4, level=7, rng=7, mod=mod), ship, [9])
    assert out[K.O_EFFECT] == 0
    # 206 F: Laser 7 vs Screens 4 -> three hits (SI 14 -> 11: even Levels 14 and 12 checked)
    res = ref.laser_at_ship(ScriptedDice([11, 1, 1]), R, list(ship), 7, 7, mod)
    assert res.effect and res.si_loss == 3 and res.checked_levels == [14, 12]
    out, final = kernel_replay(spec(K.K_LASER, screens=4, level=7, rng=7, mod=mod), ship, [11, 1, 1])
    assert out[K.O_SI_LOSS] == 3 and final[SI] == 11
    for screens in (7, 8):  # 7 - 7 = 0 and 7 - 8 = -1: no hits
        res = ref.laser_at_ship(ScriptedDice([12]), R, list(ship), 7, 1, 0, screens=screens)
        assert res.effect and res.si_loss == 0
    # a Null hex or range > 12: no fire; certain hits are not rolled
    assert oracle.p_hit_exact(R, 13, 10) == 0
    assert ref.fire_hits(ScriptedDice([]), R, 1, 0)


def test_laser_at_buoy_or_hound_and_scrambler_206_F_G():
    # Laser 10 at a Hell Hound (-4) 3 hexes: roll 8 hits; its Screen is 2d6 = 8 -> 2 hits: destroyed
    mod = R.t("fire")["target"]["hell_hound"]
    assert ref.laser_at_marker(ScriptedDice([8, 8]), R, 10, 3, mod).destroyed
    assert not ref.laser_at_marker(ScriptedDice([8, 9]), R, 10, 3, mod).destroyed
    out, _ = kernel_replay(spec(K.K_LASER_MARKER, level=10, rng=3, mod=mod), [0] * 10, [8, 8])
    assert out[K.O_DESTROYED] == 1
    # Laser 3 can never score 2 hits against a 2d6 Screen: that roll is not made
    assert not ref.laser_at_marker(ScriptedDice([8]), R, 3, 3, mod).destroyed
    # Scrambler 7 vs Screens 4: 3 > 2, one System Crisis roll; Scrambler 6 vs 4: nothing
    res = ref.scrambler_at_ship(ScriptedDice([10, 7]), R, 7, 5, 0, 4)
    assert res.effect and res.crises == [7]
    assert not ref.scrambler_at_ship(ScriptedDice([10]), R, 6, 5, 0, 4).effect
    out, _ = kernel_replay(spec(K.K_SCRAMBLER, screens=4, level=7, rng=5), [0] * 10, [10, 7])
    assert out[K.O_CRISES] == 1 and out[K.O_CRISIS_HIST + 5] == 1


def test_critical_hit_example_210_C_levels_8_and_6():
    """SI 9 takes 5 points: Levels 9..5 lost; one check for Level 8, then one for Level 6."""
    ship = ref.ship_from_build(worked_ship())
    ship[SI] = 9
    # Level 8: 5 -> Critical Hit, 2d6 = 7 'Lose 1 Screen Level'; Level 6: 2 -> none
    res = ref.apply_damage(ScriptedDice([5, 7, 2]), R, s := list(ship), 5, ref.Result(si0=9))
    assert res.checked_levels == [8, 6] and res.criticals == [7]
    assert s[SI] == 4 and s[SCREENS] == ship[SCREENS] - 1      # 210 A: 9 - 5 = 4
    out, final = kernel_damage(ship, 5, [5, 7, 2])
    assert out[K.O_CRITS] == 1 and final[SI] == 4 and final[SCREENS] == ship[SCREENS] - 1
    # two criticals that are both System Crises (2 and 12): each rolls the crisis table
    res = ref.apply_damage(ScriptedDice([6, 2, 8, 6, 12, 4]), R, list(ship), 5, ref.Result(si0=9))
    assert res.criticals == [2, 12] and res.crises == [8, 4]
    out, _ = kernel_damage(ship, 5, [6, 2, 8, 6, 12, 4])
    assert out[K.O_CRITS] == 2 and out[K.O_CRISES] == 2


def test_excess_damage_210_B_adds_si_levels_and_checks():
    """'Lose 2 Tractor Levels' with one left: 1 Tractor and 1 SI (210 B); the SI lost is an even
    Level, so it has its own Critical Hit check."""
    ship = ref.ship_from_build(Build(si=10, tractor=1, fuel=100, laser=5))
    res = ref.apply_damage(ScriptedDice([5, 4, 1]), R, s := list(ship), 2, ref.Result(si0=10))
    assert s[TRACTOR] == 0 and s[SI] == 7 and res.si_loss == 3
    assert res.checked_levels == [10, 8]
    out, final = kernel_damage(ship, 2, [5, 4, 1])
    assert final[SI] == 7 and final[TRACTOR] == 0 and out[K.O_SI_LOSS] == 3


def test_critical_against_level_0_function_210_C_c_d():
    ship = ref.ship_from_build(Build(si=10, fuel=100))  # Scrambler at Level 0
    # no Buoys: 'Lose 1 Scrambler Level' (2d6 = 9) becomes 'Lose 30 Fuel Levels'
    ref.apply_damage(ScriptedDice([6, 9]), R, s := list(ship), 1, ref.Result(si0=10))
    assert s[FUEL] == 70
    out, final = kernel_damage(ship, 1, [6, 9])
    assert final[FUEL] == 70 and out[K.O_FUEL_LOSS] == 30
    # with a Buoy carried: the last Buoy is cast loose instead
    ship[BUOYS] = 1
    res = ref.apply_damage(ScriptedDice([6, 9]), R, s := list(ship), 1, ref.Result(si0=10))
    assert s[FUEL] == 100 and s[BUOYS] == 0 and res.buoys_lost == 1
    out, final = kernel_damage(ship, 1, [6, 9])
    assert final[BUOYS] == 0 and out[K.O_BUOYS_LOST] == 1
    # a ship destroyed by the attack makes no checks
    ship[SI] = 2
    res = ref.apply_damage(ScriptedDice([]), R, list(ship), 5, ref.Result(si0=2))
    assert res.destroyed and res.si_loss == 2 and res.checked_levels == []


def test_hell_fire_208_and_hound_207_scripted():
    ship = ref.ship_from_build(worked_ship())  # Screens 4
    # Hell3 Fire at Velocity 4: 2d6 = 7, + 4 + 3 = 14; 14 - 4 = 10 -> five crisis rolls
    # (variant hell_fire_damage=crisis: nothing more)
    crisis = make_rules({"hell_fire_damage": "crisis"})
    res = ref.hell_fire_attack(ScriptedDice([7, 2, 3, 4, 5, 6]), crisis, list(ship), 2, 4)
    assert res.factor == 14 and res.crises == [2, 3, 4, 5, 6] and res.si_loss == 0
    out, _ = kernel_replay(spec(K.K_FIRE, 2, screens=4, velocity=4), ship, [7, 2, 3, 4, 5, 6],
                           rules=crisis)
    assert out[K.O_CRISES] == 5 and out[K.O_SI_LOSS] == 0
    # plain Hell Fire at Velocity 9: 2d6 = 4 + 0 + 1 - 4 = 1 < 2: no damage
    assert not ref.hell_fire_attack(ScriptedDice([4]), R, list(ship), 0, 9).effect
    # Hell Hound in the same hex: 4d6 = 10 - Screens 4 = 6 hits
    res = ref.hell_hound_attack(ScriptedDice([10, 1, 1, 1]), R, list(ship), 0)
    assert res.si_loss == 6 and res.checked_levels == [14, 12, 10]
    # as printed in 207 B: Screens - Attack = 4 - 10 < 1: undamaged
    printed = make_rules({"hell_hound_subtraction": "printed"})
    assert ref.hell_hound_attack(ScriptedDice([10]), printed, list(ship), 0).si_loss == 0
    out, _ = kernel_replay(spec(K.K_HOUND, 0, screens=4), ship, [10], rules=printed)
    assert out[K.O_SI_LOSS] == 0


def test_hell_fire_damages_si_202_B_D1():
    """202 Step B D 1 and the card: 'Conduct Hell Fire attack, Check for Critical Hit, Note all
    damage received, Remove ship if destroyed' (default hell_fire_damage=si): the result is SI
    damage after the crisis rolls; each even SI Level lost is checked (210 C)."""
    ship = ref.ship_from_build(worked_ship())  # SI 14, Screens 4
    # Hell3 Fire at Velocity 4: 14 - 4 = 10: five crises, then SI 14 -> 4 (Levels 14..5 lost,
    # checks on 14, 12, 10, 8, 6; all five dice 1-4: no Critical Hit)
    rolls = [7, 2, 3, 4, 5, 6, 1, 2, 3, 4, 1]
    s = list(ship)
    res = ref.hell_fire_attack(ScriptedDice(rolls), R, s, 2, 4)
    assert res.crises == [2, 3, 4, 5, 6] and res.si_loss == 10 and s[SI] == 4
    assert res.checked_levels == [14, 12, 10, 8, 6] and not res.destroyed
    out, sh = kernel_replay(spec(K.K_FIRE, 2, screens=4, velocity=4), ship, rolls)
    assert out[K.O_CRISES] == 5 and out[K.O_SI_LOSS] == 10 and sh[SI] == 4
    # the same roll against SI 9 destroys the ship (no checks once SI is 0)
    weak = list(ship)
    weak[SI] = 9
    res = ref.hell_fire_attack(ScriptedDice([7, 2, 3, 4, 5, 6]), R, weak, 2, 4)
    assert res.destroyed and weak[SI] == 0 and res.checked_levels == []
    out, _ = kernel_replay(spec(K.K_FIRE, 2, screens=4, velocity=4), weak, [7, 2, 3, 4, 5, 6])
    assert out[K.O_DESTROYED] == 1
    # a result of +1 is no damage at all (208 B)
    assert ref.hell_fire_attack(ScriptedDice([2]), R, list(ship), 0, 4).si_loss == 0  # 2+3-4
    # the exact oracle: Hell3 Fire can now destroy the worked ship; crisis-only never can
    d = oracle.summary(oracle.hazard_distribution(R, ship, "hell3_fire", velocity=4))
    c = oracle.summary(oracle.hazard_distribution(make_rules({"hell_fire_damage": "crisis"}),
                                                  ship, "hell3_fire", velocity=4))
    assert d["p_destroyed"] > 0 and d["mean_si_loss"] > 5
    assert c["p_destroyed"] == 0 and c["mean_si_loss"] == 0


def test_null_attack_by_pilot_level():
    assert ref.null_attack(ScriptedDice([5]), R, 0).effect
    assert not ref.null_attack(ScriptedDice([6]), R, 0).effect
    assert not ref.null_attack(ScriptedDice([]), R, 4).effect   # 2 + 4 > 5: no roll
    assert oracle.hazard_distribution(R, [5] * 10, "null", pi_modifier=-2)[
        (False, 0, 0, 0, True)] == pytest.approx(21 / 36)      # 2d6 <= 7


# --- the oracle against full path enumeration of the reference --------------------------------

SMALL = Build(fuel=20, si=5, pi=1, me=1, mn=0, tractor=1, screens=1, laser=1, scrambler=0)

REF = {
    "hell_hole": lambda d, r, s: ref.hell_hole_attack(d, r, s, 0),
    "hell2_hole": lambda d, r, s: ref.hell_hole_attack(d, r, s, 1),
    "hell_hound_1": lambda d, r, s: ref.hell_hound_attack(d, r, s, 1),
    "hell_hound_2": lambda d, r, s: ref.hell_hound_attack(d, r, s, 2),
    # Screens 8 at Velocity 6 keeps the crisis rolls (11 paths each) few enough to enumerate
    "hell_fire": lambda d, r, s: ref.hell_fire_attack(d, r, s, 0, 6, screens=8),
}


@pytest.mark.parametrize("hazard,variant", [
    ("hell_hole", {}), ("hell2_hole", {}), ("hell2_hole", {"fuel_excess": "none"}),
    ("hell_hound_1", {}), ("hell_hound_1", {"hell_hound_subtraction": "printed"}),
    ("hell_hound_2", {}), ("hell_fire", {}), ("hell_fire", {"hell_fire_subtraction": "printed"}),
    ("hell_fire", {"hell_fire_damage": "crisis"}),
    ("hell_fire", {"hell_fire_damage": "crisis", "hell_fire_subtraction": "printed"})])
def test_oracle_equals_reference_enumeration(hazard, variant):
    """Small ship with Fuel 20, Tractor 1, Laser 1, one Buoy, Scrambler 0: every Excess and
    Level-0 rule can happen. Exact equality of Fractions."""
    rules = make_rules(variant)
    ship = tuple(ref.ship_from_build(SMALL, buoys=1))
    enum = distribution(lambda d: REF[hazard](d, rules, list(ship)).key())
    screens = 8 if hazard == "hell_fire" else None
    assert enum == oracle.hazard_distribution(rules, ship, hazard, velocity=6, screens=screens)


def test_fuel_excess_variant_changes_the_outcome():
    ship = tuple(ref.ship_from_build(SMALL, buoys=0))
    a = oracle.summary(oracle.hazard_distribution(make_rules(), ship, "hell2_hole"))
    b = oracle.summary(oracle.hazard_distribution(make_rules({"fuel_excess": "none"}), ship,
                                                  "hell2_hole"))
    assert a["p_destroyed"] > b["p_destroyed"]


def test_laser_oracle_equals_reference_enumeration():
    ship = tuple(ref.ship_from_build(SMALL, buoys=1))
    enum = distribution(lambda d: ref.laser_at_ship(d, R, list(ship), 4, 8, -1).key())
    assert enum == oracle.laser_distribution(R, ship, 4, 8, -1)


# --- the compiled kernels against the oracle --------------------------------------------------

def _g_test_kernel(rules, ship, hazard, *, velocity=4, pi_modifier=0, n=200_000, seed=7):
    crit, par, vturns = K.kernel_arrays(rules)
    sp = hazard_specs([hazard], screens=ship[SCREENS], velocity=velocity,
                      pi_modifier=pi_modifier)[0]
    rows = K.outcomes(dice.stream_key(seed), 0, n, sp, np.asarray(ship, np.int64),
                      crit, par, vturns)
    exact = oracle.hazard_distribution(rules, ship, hazard, velocity=velocity,
                                       pi_modifier=pi_modifier)
    keys = list(exact)
    index = {k: i for i, k in enumerate(keys)}
    counts = np.zeros(len(keys) + 1)
    cols = [K.O_DESTROYED, K.O_SI_LOSS, K.O_CRITS, K.O_CRISES, K.O_EFFECT]
    uniq, cnt = np.unique(rows[:, cols], axis=0, return_counts=True)
    for u, c in zip(uniq, cnt):
        k = (bool(u[0]), int(u[1]), int(u[2]), int(u[3]), bool(u[4]))
        counts[index.get(k, len(keys))] += c  # an impossible outcome lands in the last cell
    probs = np.array([float(exact[k]) for k in keys] + [0.0])
    return g_test(counts, probs).pvalue, rows


@pytest.mark.parametrize("hazard", list(oracle.HAZARDS))
def test_kernel_matches_exact_worked_ship(hazard):
    ship = ref.ship_from_build(worked_ship())
    p, _ = _g_test_kernel(R, ship, hazard)
    assert p > 1e-3


@pytest.mark.parametrize("hazard,variant", [("hell2_hole", {"fuel_excess": "none"}),
                                            ("hell_hound_1", {}), ("hell3_hole", {}),
                                            ("hell_hound_0", {"hell_hound_subtraction": "printed"}),
                                            ("hell_fire", {"hell_fire_subtraction": "printed"}),
                                            ("hell2_fire", {}), ("hell3_fire", {}),
                                            ("hell2_fire", {"hell_fire_damage": "crisis"}),
                                            ("hell3_fire", {"hell_fire_damage": "crisis"})])
def test_kernel_matches_exact_small_ship(hazard, variant):
    ship = ref.ship_from_build(SMALL, buoys=1)
    p, _ = _g_test_kernel(make_rules(variant), ship, hazard, velocity=1)
    assert p > 1e-3


def test_crisis_results_follow_2d6():
    """The System Crisis table roll is a fair 2d6 (Hell3 Fire makes several per attack)."""
    from simkit.core.exact import sum_distribution
    ship = ref.ship_from_build(worked_ship())
    _, rows = _g_test_kernel(R, ship, "hell3_fire", n=50_000)
    hist = rows[:, K.O_CRISIS_HIST:K.O_CRISIS_HIST + 11].sum(axis=0)
    probs = np.array([float(p) for _, p in sum_distribution(2, 6)])
    assert g_test(hist, probs).pvalue > 1e-3


def test_null_kernel_by_pilot_level():
    for pi_box in (0, 1, 3, 9):
        mod = R.pi_modifier(pi_box)
        p, _ = _g_test_kernel(R, ref.ship_from_build(worked_ship()), "null", pi_modifier=mod,
                              n=50_000)
        assert p > 1e-3


def test_recovery_and_fire_kernels_match_exact():
    crit, par, vturns = ARR
    ship = np.asarray(ref.ship_from_build(worked_ship()), np.int64)
    n = 100_000
    cases = [(spec(K.K_RECOVERY, level=6, mod=-5), float(oracle.p_recovery_exact(R, 6, -5))),
             (spec(K.K_LASER_MARKER, level=9, rng=6, mod=-3),
              float(oracle.p_marker_destroyed_exact(R, 9, 6, -3))),
             (spec(K.K_SCRAMBLER, screens=2, level=6, rng=9, mod=1),
              float(oracle.p_scrambler_exact(R, 6, 9, 1, 2)))]
    for sp, p in cases:
        rows = K.outcomes(dice.stream_key(3), 0, n, np.asarray(sp, np.int64), ship, crit, par, vturns)
        col = K.O_DESTROYED if sp[0] == K.K_LASER_MARKER else K.O_EFFECT
        k = rows[:, col].sum()
        assert g_test([k, n - k], [p, 1 - p]).pvalue > 1e-3
    # Laser at a ship: the joint outcome against the oracle
    sp = np.asarray(spec(K.K_LASER, screens=1, level=9, rng=8, mod=-2), np.int64)
    rows = K.outcomes(dice.stream_key(4), 0, n, sp, ship, crit, par, vturns)
    exact = oracle.laser_distribution(R, ship, 9, 8, -2, screens=1)
    mean_si = sum(float(p) * k[1] for k, p in exact.items())
    sd = rows[:, K.O_SI_LOSS].std() / np.sqrt(n)
    assert abs(rows[:, K.O_SI_LOSS].mean() - mean_si) < 4 * sd


def test_contradictory_crises_become_result_7():
    """208 B / 210 C c: 'must accelerate' (10) with 'must decelerate' (11) -> result 7."""
    assert ref.resolve_crises(R, [10, 11]) == [7]
    assert ref.resolve_crises(R, [6, 10, 3]) == [3, 7]      # may not / must accelerate
    assert ref.resolve_crises(R, [9, 11, 11]) == [7]
    assert ref.resolve_crises(R, [2, 4, 12]) == [2, 4, 12]  # nothing contradicts


@pytest.mark.parametrize("hazard", ["hell2_hole", "hell_hound_0", "hell_fire", "hell3_fire",
                                    "null"])
def test_summary_oracle_equals_full_distribution(hazard):
    """The CLI's expectation-carrying chain gives exactly the figures of the full distribution."""
    for rules in (R, make_rules({"fuel_excess": "none"}), make_rules({"hell_fire_damage": "crisis"})):
        ship = ref.ship_from_build(SMALL, buoys=1)
        a = oracle.hazard_summary(rules, ship, hazard, velocity=2, num=Fraction)
        b = oracle.summary(oracle.hazard_distribution(rules, ship, hazard, velocity=2))
        assert a.pop("exact_error") == 0 and a == b
