"""Dark Future hazard rolls and control-loss tests: data, kernels against exact oracles, CLI."""

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from simkit import cli, games
from simkit.core.exact import distribution
from simkit.core.runner import run
from simkit.core.stats import g_test
from simkit.dark_future import reference as REF
from simkit.dark_future.procedures import hazards as H
from simkit.dark_future import rules as R


@pytest.fixture
def only_dark_future(monkeypatch):
    # The CLI imports every installed game package; keep these tests about this one.
    monkeypatch.setattr(games, "PACKAGES", {"dark-future": "simkit.dark_future"})


def test_vehicle_profiles_match_the_p83_summary_and_the_scattered_rules():
    ren, inter, bike = (R.vehicle(v) for v in R.VEHICLES)
    assert (ren.damage, ren.armour, ren.speed, ren.acc, ren.braking, ren.handling) == (18, 3, 100, 20, 30, 4)
    assert (inter.damage, inter.armour, inter.speed, inter.acc, inter.braking, inter.handling) == (24, 4, 120, 30, 40, 5)
    assert (bike.damage, bike.armour, bike.speed, bike.acc, bike.braking, bike.handling) == (9, 2, 110, 40, 40, 6)
    assert (ren.increments, inter.increments, bike.increments) == ((12, 8, 4), (18, 12, 6), (6, 3))
    assert (ren.cost, inter.cost, bike.cost) == (35000, 70000, 15000)
    assert (ren.payload, inter.payload, bike.payload) == (600, 850, 250)


def test_every_table_has_label_and_source_and_the_reconstructions_say_so():
    rules = R.base_rules()
    for name, label, source in rules.provenance():
        assert label and source, name
    assert rules.table("spin_template").label == "RECONSTRUCTED"
    assert "rules-data.md 4.1" in rules.table("spin_template").source
    assert rules.table("curve_sections").label == "RECONSTRUCTED"
    assert rules.table("curve_sections")["corner"]["limits"] == [30, 40, 40, 50, 50, 60]
    assert rules.table("spin_template")["rows"][3] == [7, 7, 180, 30]


def test_safety_limits_list_p38():
    lim = R.base_rules().table("safety_limits")["limits"]
    assert (lim["drift"], lim["uturn"], lim["pattern_mine"], lim["smoke"]) == (80, 10, 50, 60)
    assert (lim["he_small"], lim["he_large"], lim["driver_injured"], lim["exploding_fuel"]) == (50, 30, 20, 30)


def test_hazard_reference_by_hand():
    hp = R.hazard_params()
    # 40mph over with optimum control 4: score = d6 + 4 - 4 -> 1-4 panic, 5-6 loss
    d = distribution(REF.hazard_roll_ref, 90, 50, 4, 40, hp)
    assert d == {(H.PANIC, 5): Fraction(1, 6), (H.PANIC, 10): Fraction(1, 6),
                 (H.PANIC, 15): Fraction(1, 6), (H.PANIC, 20): Fraction(1, 6),
                 (H.LOSS, 0): Fraction(1, 3)}
    # with only 10mph of braking left, 15 and 20mph panic brakes run out: brake 10, lose control
    d = distribution(REF.hazard_roll_ref, 90, 50, 4, 10, hp)
    assert d[(H.LOSS_BRAKES, 10)] == Fraction(1, 3)
    # at the limit there is no roll at all
    assert distribution(REF.hazard_roll_ref, 50, 50, 0, 40, hp) == {(H.OK, 0): 1}


@pytest.mark.parametrize("braking", [None, 15])
def test_hazard_kernel_matches_exact_distribution(braking):
    sim = H.HazardSim([10, 30, 50], [2, 4], braking)
    totals = run(sim, 200_000, 11, progress=False).totals.reshape(-1, H.N_HAZARD_STATS)
    for (e, c), k in zip(sim.cells, totals):
        ex = sim.exact(e, c)
        probs = [float(sum(p for (o, m), p in ex.items() if o == H.OK))]
        probs += [float(ex.get((H.PANIC, 5 * j), 0)) for j in range(1, 5)]
        probs += [float(sum(p for (o, m), p in ex.items() if o == H.LOSS)),
                  float(sum(p for (o, m), p in ex.items() if o == H.LOSS_BRAKES))]
        observed = np.append(k[:5], [k[5] - k[6], k[6]])
        assert g_test(observed, probs).pvalue > 1e-3, (e, c)


def test_control_loss_kernel_matches_exact_distribution():
    sim = H.ControlLossSim(["car", "bike"], [1, 4, 6], [0, 3], (False, True))
    totals = run(sim, 100_000, 5, progress=False).totals.reshape(-1, 5)
    for i, k in enumerate(totals):
        ex = sim.exact(i)
        assert g_test(k, [float(ex.get(j, 0)) for j in range(5)]).pvalue > 1e-3, sim.cells[i]


def test_control_loss_tables_by_hand():
    lows, codes = R.control_loss_table("car")
    # SF 4, adverse 3, +2: score = d6 + 3 -> 4,5 skid out; 6,7 spin; 8,9 roll
    d = distribution(REF.control_loss_ref, 4, 3, 2, list(lows), list(codes))
    assert d == {2: Fraction(1, 3), 3: Fraction(1, 3), 4: Fraction(1, 3)}
    lows, codes = R.control_loss_table("bike")
    d = distribution(REF.control_loss_ref, 4, 3, 2, list(lows), list(codes))
    assert d == {2: Fraction(1, 3), 4: Fraction(2, 3)}  # bikes roll from 6 up


def test_runs_are_identical_for_any_chunking_and_thread_count():
    sim = H.HazardSim([20, 40], [3], 20)
    a = run(sim, 20_000, 3, chunk_size=1000, threads=1, progress=False).totals
    b = run(sim, 20_000, 3, chunk_size=7777, threads=2, progress=False).totals
    assert np.array_equal(a, b)
    sim = H.ControlLossSim(["car"], [3], [2])
    a = run(sim, 20_000, 3, chunk_size=1000, threads=1, progress=False).totals
    b = run(sim, 20_000, 3, chunk_size=7777, threads=2, progress=False).totals
    assert np.array_equal(a, b)


def test_hazards_cli_writes_both_tables(tmp_path, only_dark_future, capsys):
    out = tmp_path / "hz.csv"
    rc = cli.main(["hazards", "dark-future", "--control", "4", "--excess", "0-40", "--trials",
                   "20000", "--speed-factors", "3", "--adverse", "3", "--out", str(out),
                   "--no-progress"])
    assert rc == 0
    h = pd.read_csv(out)
    for col in ("excess_mph", "control", "p_ok", "p_panic", "p_loss", "p_ok_exact",
                "p_panic_exact", "p_loss_exact"):
        assert col in h.columns
    assert list(h.excess_mph) == [0, 10, 20, 30, 40]
    row = h[h.excess_mph == 40].iloc[0]
    assert row.p_loss_exact == pytest.approx(1 / 3) and row.p_ok_exact == 0
    c = pd.read_csv(tmp_path / "hz-control-loss.csv")
    car = c[c.vehicle == "car"].iloc[0]
    assert car.p_spin_exact == pytest.approx(1 / 6) and car.p_regain_exact == pytest.approx(1 / 6)


@pytest.mark.parametrize("argv, where", [
    (["--control", "x"], "--control"),
    (["--braking", "-5"], "--braking"),
    (["--trials", "0"], "--trials"),
    (["--variant", "chain_gun_shots=nine"], "chain_gun_shots"),
])
def test_hazards_cli_bad_input_is_one_line_and_exit_2(argv, where, only_dark_future, capsys):
    rc = cli.main(["hazards", "dark-future", *argv, "--no-progress"])
    err = capsys.readouterr().err.strip()
    assert rc == 2
    assert len(err.splitlines()) == 1 and where in err
