"""Dark Future shots: weapon data, the hit and damage rolls, critical chains, forced hazards.

The compiled shot kernel is held to the plain-Python reference on the same dice (random
scripts), to the exact distribution (G-test), and the exact oracle's stage-by-stage composition
is held to a whole-shot enumeration.
"""

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from simkit import cli, games
from simkit.core import dice
from simkit.core._numba import jit
from simkit.core.exact import RecordingDice, ScriptedDice, distribution
from simkit.core.runner import run
from simkit.core.stats import g_test
from simkit.dark_future import reference as REF
from simkit.dark_future import builds as D
from simkit.dark_future import rules as R
from simkit.dark_future.procedures import shooting as S


@pytest.fixture
def only_dark_future(monkeypatch):
    monkeypatch.setattr(games, "PACKAGES", {"dark-future": "simkit.dark_future"})


def one_cell(target, weapon, rng, **kw):
    sim = S.weapon_table_sim(target, kw.pop("mount", "hood"), [rng], weapon_keys=[weapon], **kw)
    return sim, sim.shots[0]


def test_weapon_characteristics_p83_to_p86():
    w = S.weapons()
    assert (w["chain_gun"].range, w["chain_gun"].accuracy, w["chain_gun"].damage,
            w["chain_gun"].shots, w["chain_gun"].cost, w["chain_gun"].weight) == (16, 3, 5, 6, 22000, 300)
    assert (w["gl40"].damage, w["gl40"].he, w["missile_pod"].range, w["heavy_laser"].range) == (8, True, 24, 30)
    assert (w["mg"].range, w["mg"].accuracy, w["mg"].damage, w["mg"].shots) == (16, 2, 1, 12)
    assert (w["lw_mg"].range, w["lw_gl20"].shots, w["lw_laser"].damage, w["rag40"].cost) == (8, 4, 1, 6000)
    assert S.weapons(chosen={"chain_gun_shots": "three"})["chain_gun"].shots == 3
    assert S.weapons(chosen={"rag_cost": "text"})["rag40"].cost == 5000
    assert S.weapons(chosen={"gl20_cost": "text"})["gl20"].cost == 5000
    assert S.weapons(chosen={"lightweight_laser_damage": "flat_one"})["lw_laser"].flat
    assert not S.weapons()["lw_laser"].flat


def test_ranges_and_tactical_factors_p26_p30_p64():
    rules = R.base_rules()
    # 'a machine gun is firing at a target 8 squares away. The range is counted as six'
    assert S.effective_range(rules, 8) == 6
    # 'three smoke markers ... the shot takes place with a -3 modifier'; four still -3
    assert S.tactical_modifier(rules, "wing", 60, 60, 3, False, 2) == -3
    assert S.tactical_modifier(rules, "wing", 60, 60, 4, False, 2) == -3
    assert S.tactical_modifier(rules, "hood", 81, 81, 0, False, 2) == -1
    assert S.tactical_modifier(rules, "turret", 80, 80, 0, True, 2) == 0
    assert S.tactical_modifier(rules, "side", 60, 60, 1, True, 1) == -3


def test_hit_roll_by_hand():
    # hood MG (+2, +1) at range 6 on a Renegade: d6 + 3 >= 6 -> 3-6
    sim, s = one_cell("renegade", "mg", 6)
    assert distribution(REF.hit_roll_ref, s) == {(True, False): Fraction(1, 2),
                                               (True, True): Fraction(1, 6),
                                               (False, False): Fraction(1, 3)}
    # a natural 1 misses at range 1 whatever the modifiers
    sim, s = one_cell("renegade", "chain_gun", 1)
    assert sum(p for (h, _), p in distribution(REF.hit_roll_ref, s).items() if h) == Fraction(5, 6)
    # beyond the weapon's range: wasted, and no die is rolled
    sim, s = one_cell("renegade", "lw_mg", 9, mount="wing")
    assert not s.in_range and REF.hit_roll_ref(ScriptedDice([]), s) == (False, False)
    # bike target with one lane in the corridor: -2
    sim, s = one_cell("bike", "mg", 3, mount="wing", bike_lanes=1)
    assert s.modifier == 0


def test_fuel_tank_explosion_chain_replayed_on_kernel_and_reference():
    # MG hits a Renegade's rear (4), damage 6 (6+1-3 = 4 points and a critical), target matrix 5
    # -> roll again 3 -> fuel; fuel 4 -> explodes: a +8HE hit on the rear, damage roll 2 (7
    # points); the HE hit forces a 30mph hazard roll at 60mph: 1 + 3 - 4 = 0, OK.
    sim, s = one_cell("renegade", "mg", 3)
    script = [4, 6, 5, 3, 4, 2, 1]
    expect = (True, 11, 1, True, False, False, False)
    sd = ScriptedDice(script)
    assert REF.shot_ref(sd, s, sim.ct) == expect and sd.exhausted
    st = dice.scripted_state()
    out = np.zeros(7, np.int64)
    S.shot(st, dice.as_script(script), s.as_array(), sim.ct.matrix, sim.ct.rerolls,
           sim.ct.effects, sim.hp, sim.fit, sim.groups, out)
    assert tuple(out) == tuple(int(x) for x in expect) and dice.script_position(st) == len(script)


def test_hood_grenade_launcher_explodes_p35():
    # MG hits an armed Renegade's front (4); damage 6 (4 points and a critical); matrix 4 ->
    # weapons, roll again 4 -> hood: the 40mm GL; weapons result 5: destroyed; it is HE, the
    # explosion roll is odd (3): a +8HE hit, damage roll 2 (7 points). 11 points take the car
    # from 18 to 7, past the 12 and 8 levels: handling 4 -> 2, optimum control 3 (the driver);
    # the 30mph hazard roll at 60mph: 1 + 3 - 3 = 1, a 5mph panic brake.
    sim, s = one_cell(None, "mg", 3, facing="front", target_build="renegade: hood=gl40, wings=mg")
    script = [4, 6, 4, 4, 5, 3, 2, 1]
    sd = ScriptedDice(script)
    assert REF.shot_ref(sd, s, sim.ct) == (True, 11, 1, True, False, False, False) and sd.exhausted
    st = dice.scripted_state()
    out = np.zeros(7, np.int64)
    S.shot(st, dice.as_script(script), s.as_array(), sim.ct.matrix, sim.ct.rerolls,
           sim.ct.effects, sim.hp, sim.fit, sim.groups, out)
    assert tuple(out) == (1, 11, 1, 1, 0, 0, 0) and dice.script_position(st) == len(script)
    # an unarmed target wastes the same critical after the matrix rolls
    sim, s = one_cell("renegade", "mg", 3, facing="front")
    sd = ScriptedDice([4, 6, 4, 4])
    assert REF.shot_ref(sd, s, sim.ct) == (True, 4, 1, False, False, False, False) and sd.exhausted


def test_too_large_to_enumerate_leaves_exact_columns_empty():
    sim = S.weapon_table_sim(None, "hood", [2], weapon_keys=["missile_pod"], target_build=(
        "interceptor: turret=lw_gl20+lw_mg, side_left=gl40, wings=lw_gl20, passive_left=mines"))
    with pytest.raises(REF.TooLargeToEnumerate):
        REF.exact_shot(sim.shots[0], sim.ct, max_paths=2_000)


def test_station_layout():
    fit, groups = S.station_layout("interceptor", D.car_from(
        "interceptor: turret=gl20+mg, hood=heavy_laser, passive_left=mines"))
    ix = S.STATIONS.index
    assert fit[ix("turret_a")] == 2 and fit[ix("turret_b")] == 1 and fit[ix("hood")] == 1
    assert fit[ix("passive_left")] == 2 and fit[ix("passive_right")] == 0
    g = dict(zip(S.WEAPON_GROUPS, groups))
    assert g["weapon_roof"] == (ix("turret_a"), ix("turret_b"))
    assert g["weapon_passives"] == (ix("passive_left"), ix("passive_right"))
    _, groups = S.station_layout("renegade")
    assert dict(zip(S.WEAPON_GROUPS, groups))["weapon_passives"] == (ix("passive"), -1)


def test_natural_six_is_a_critical_even_through_armour_p28():
    # hits_ref -> (damage, criticals, forced limits, direct loss, terminal)
    # lightweight MG on an Interceptor: d6 + 1 - 4 -> faces 1-3 do nothing, a 6 also crits
    sim, s = one_cell("interceptor", "lw_mg", 1)
    d = distribution(REF.hits_ref, s, sim.ct, False)
    assert sum(p for o, p in d.items() if o[0] == 0) == Fraction(1, 2)
    assert sum(p for o, p in d.items() if o[1] >= 1) == Fraction(1, 6)
    # flat-one variant: 1 - 2 armour never damages a bike, yet a six is still a critical (and
    # any damage then comes only from the explosions a critical sets off)
    sim, s = one_cell("bike", "lw_laser", 1, chosen={"lightweight_laser_damage": "flat_one"})
    d = distribution(REF.hits_ref, s, sim.ct, False)
    assert sum(p for o, p in d.items() if o[1] >= 1) == Fraction(1, 6)
    assert sum(p for o, p in d.items() if o[0] > 0 and o[1] == 0) == 0
    # hit-roll variant: the damage roll's six no longer matters, the hit roll's does
    sim, s = one_cell("renegade", "mg", 1, chosen={"critical_trigger": "hit_roll"})
    d = distribution(REF.hits_ref, s, sim.ct, False)
    assert sum(p for o, p in d.items() if o[1] >= 1) == 0
    d = distribution(REF.hits_ref, s, sim.ct, True)
    assert sum(p for o, p in d.items() if o[1] >= 1) == 1



CASES = [
    dict(target="renegade", weapon="mg", rng=3),
    dict(target="interceptor", weapon="gl40", rng=2, facing="oblique-rear", target_mph=90),
    dict(target="bike", weapon="gl40", rng=1, target_mph=70, facing="front"),
    dict(target="bike", weapon="rag40", rng=1, facing="side", chosen={"bike_fuel_explosion": "plus_four"}),
    dict(target="renegade", weapon="missile_pod", rng=4, target_damage=5, facing="floor"),
    dict(target="interceptor", weapon="chain_gun", rng=2, facing="roof",
         chosen={"critical_trigger": "hit_roll"}),
    # armed targets: weapons criticals find stations, HE weapons can explode
    dict(target=None, weapon="missile_pod", rng=2, facing="rear",
         target_build="renegade: hood=gl40, wings=lw_gl20, passive=mines"),
    dict(target=None, weapon="gl40", rng=1, facing="oblique-front", target_mph=80,
         target_build="interceptor: turret=lw_gl20+lw_mg, side_left=gl40, wings=lw_gl20, passive_left=mines"),
    dict(target=None, weapon="lw_gl20", rng=1, facing="floor", mount="fairing",
         target_build="bike: fairings=lw_gl20, passive=lw_mines"),
]


@pytest.mark.parametrize("case", CASES)
def test_kernel_replays_the_reference_on_the_same_dice(case):
    case = dict(case)
    sim, s = one_cell(case.pop("target"), case.pop("weapon"), case.pop("rng"), **case)
    out = np.zeros(7, np.int64)
    for seed in range(1500):
        rec = RecordingDice(seed)
        expect = REF.shot_ref(rec, s, sim.ct)
        st = dice.scripted_state()
        S.shot(st, dice.as_script(rec.rolls), s.as_array(), sim.ct.matrix, sim.ct.rerolls,
               sim.ct.effects, sim.hp, sim.fit, sim.groups, out)
        assert tuple(out) == tuple(int(x) for x in expect), (seed, rec.rolls)
        assert dice.script_position(st) == len(rec.rolls)


@pytest.mark.parametrize("case", [CASES[0], CASES[1]])
def test_exact_composition_equals_whole_shot_enumeration(case):
    case = dict(case)
    sim, s = one_cell(case.pop("target"), case.pop("weapon"), case.pop("rng"), **case)
    assert REF.exact_shot(s, sim.ct) == distribution(REF.shot_ref, s, sim.ct)


@jit
def _outcomes(key, n, sp, matrix, rerolls, effects, hp, fit, groups):
    st = np.zeros(dice.STATE_SIZE, np.uint64)
    res = np.zeros((n, 7), np.int64)
    o = np.zeros(7, np.int64)
    for t in range(n):
        dice.seed_trial(st, key, t)
        S.shot(st, dice.NO_SCRIPT, sp, matrix, rerolls, effects, hp, fit, groups, o)
        res[t] = o
    return res


ARMED_SMALL = [
    dict(target=None, weapon="mg", rng=1, facing="front", target_build="renegade: hood=gl40"),
    dict(target=None, weapon="gl40", rng=1, facing="oblique-front", target_mph=80,
         target_build="interceptor: hood=gl40, wings=lw_mg"),
]


@pytest.mark.parametrize("case", CASES[1:4] + ARMED_SMALL)
def test_kernel_matches_exact_distribution(case):
    case = dict(case)
    sim, s = one_cell(case.pop("target"), case.pop("weapon"), case.pop("rng"), **case)
    ex = REF.exact_shot(s, sim.ct)
    res = _outcomes(dice.stream_key(99), 200_000, s.as_array(), sim.ct.matrix, sim.ct.rerolls,
                    sim.ct.effects, sim.hp, sim.fit, sim.groups)
    keys = [tuple(int(x) for x in k) for k in ex]
    index = {k: i for i, k in enumerate(keys)}
    counts = np.zeros(len(keys))
    for row, c in zip(*np.unique(res, axis=0, return_counts=True)):
        counts[index[tuple(int(x) for x in row)]] += c  # KeyError = an impossible outcome
    assert g_test(counts, [float(p) for p in ex.values()]).pvalue > 1e-3


def test_weapon_table_is_reproducible_across_chunks_and_threads():
    sim = S.weapon_table_sim("interceptor", "turret", [2, 7], weapon_keys=["gl40", "mg"])
    a = run(sim, 20_000, 4, chunk_size=1000, threads=1, progress=False).totals
    b = run(sim, 20_000, 4, chunk_size=7777, threads=2, progress=False).totals
    assert np.array_equal(a, b)


def test_weapons_cli_columns_and_values(tmp_path, only_dark_future):
    out = tmp_path / "w.csv"
    rc = cli.main(["weapons", "dark-future", "--target", "renegade", "--mount", "wing",
                   "--ranges", "1-3,6,17", "--weapons", "mg,gl20", "--trials", "20000",
                   "--out", str(out), "--no-progress"])
    assert rc == 0
    f = pd.read_csv(out)
    for col in ("weapon", "range", "p_hit", "p_hit_exact", "mean_damage", "mean_damage_exact",
                "p_critical", "p_critical_exact", "damage_per_kilodollar"):
        assert col in f.columns
    mg6 = f[(f.weapon == "mg") & (f.range == 6)].iloc[0]
    assert mg6.p_hit_exact == pytest.approx(0.5)  # wing MG: d6 + 2 >= 6
    assert f[(f.weapon == "mg") & (f.range == 17)].iloc[0].p_hit_exact == 0  # beyond 16
    assert mg6.p_hit_lo <= mg6.p_hit_exact <= mg6.p_hit_hi
    assert mg6.damage_per_kilodollar == pytest.approx(mg6.damage_per_shot / 5.0)


@pytest.mark.parametrize("argv, where", [
    (["--weapons", "ray_gun"], "--weapons"),
    (["--mount", "wing", "--weapons", "chain_gun"], "--mount"),
    (["--target-damage", "99"], "--target-damage"),
    (["--ranges", "0-3"], "--ranges"),
    (["--smoke", "-1"], "--smoke"),
    (["--target", "tank"], "--target"),
    (["--target-build", "renegade: wings=chain_gun"], "wing_left"),
    (["--target", "bike", "--target-build", "renegade: hood=mg"], "--target"),
])
def test_weapons_cli_bad_input(argv, where, only_dark_future, capsys):
    rc = cli.main(["weapons", "dark-future", *argv, "--trials", "100", "--no-progress"])
    err = capsys.readouterr().err.strip()
    assert rc == 2 and len(err.splitlines()) == 1 and where in err, err


def _name(ct, c):
    if c >= S.REROLL:
        return ct.reroll_names[c - S.REROLL]
    if c >= S.GROUP_BASE:
        return S.WEAPON_GROUPS[c - S.GROUP_BASE]
    return S.LOCATIONS[c]


def _decode(ct, facing):
    """Target matrix row as names, re-rolls expanded one level."""
    out = []
    for code in ct.matrix[S.FACINGS.index(facing)]:
        if code >= S.REROLL:
            out.append([_name(ct, c) for c in ct.rerolls[code - S.REROLL]])
        else:
            out.append(_name(ct, code))
    return out


def test_target_matrices_spot_checks_p32_p68():
    car = S.crit_tables("car")
    # Rear facing: 1,2 bodywork; 3 rear wheels; 4 weapons; 5,6 roll again 1,2 engine 3,4 fuel 5,6 driver
    rear = _decode(car, "rear")
    assert rear[:3] == ["bodywork", "bodywork", "rear_wheels"]
    assert rear[4] == rear[5] == ["engine", "engine", "fuel", "fuel", "driver", "driver"]
    assert rear[3] == ["weapon_passives"] * 3 + ["weapon_sides"] + ["weapon_roof"] * 2
    assert _decode(car, "front")[3] == ["weapon_wings", "weapon_wings", "weapon_sides",
                                        "weapon_hood", "weapon_roof", "weapon_roof"]
    # Floor facing 5,6: roll again 1 weapons (roll again), 2,3 engine, 4 fuel, 5,6 driver
    assert _decode(car, "floor")[4] == ["floor_weapons", "engine", "engine", "fuel", "driver", "driver"]
    # Side facing 5: roll again 1-4 engine, 5-6 fuel
    assert _decode(car, "side")[4] == ["engine"] * 4 + ["fuel"] * 2
    bike = S.crit_tables("bike")
    # Bike front 6: roll again 1-2 fuel, 3-6 rider; roof 1-3 bodywork, 4-6 rider
    assert _decode(bike, "front")[5] == ["fuel", "fuel"] + ["driver"] * 4
    assert _decode(bike, "roof") == ["bodywork"] * 3 + ["driver"] * 3


def test_critical_result_spot_checks_p34_p69():
    car = S.crit_tables("car")
    eff = lambda ct, loc, face: ct.effects[S.LOCATIONS.index(loc), face - 1]  # noqa: E731
    assert eff(car, "driver", 1)[S.F_HAZARD] == 40 and eff(car, "driver", 3)[S.F_HAZARD] == 20
    assert eff(car, "driver", 6)[S.F_CONTROL] == 1
    assert (eff(car, "engine", 6)[S.F_EXPLOSION], eff(car, "engine", 6)[S.F_EXPL_FACING]) == (2, S.FACINGS.index("side"))
    assert (eff(car, "fuel", 4)[S.F_EXPLOSION], eff(car, "fuel", 4)[S.F_EXPL_FACING]) == (8, S.FACINGS.index("rear"))
    assert (eff(car, "rear_wheels", 2)[S.F_CHECK], eff(car, "rear_wheels", 2)[S.F_THEN_HAZARD]) == (7, 40)
    assert (eff(car, "front_wheels", 3)[S.F_CHECK], eff(car, "front_wheels", 3)[S.F_THEN_CONTROL]) == (6, 1)
    assert eff(car, "bodywork", 6)[S.F_HAZARD] == 30 and eff(car, "front_wheels", 5)[S.F_HAZARD] == 20
    assert car.names[S.LOCATIONS.index("bodywork")][1] == "vdu_destroyed"
    bike = S.crit_tables("bike")
    assert eff(bike, "engine", 1)[S.F_CHECK] == 6 and eff(bike, "bodywork", 1)[S.F_CHECK] == 6
    assert eff(bike, "fuel", 5)[S.F_EXPLOSION] == 8
    four = S.crit_tables("bike", {"bike_fuel_explosion": "plus_four"})
    assert eff(four, "fuel", 5)[S.F_EXPLOSION] == 4 and eff(four, "fuel", 1)[S.F_EXPLOSION] == 0
