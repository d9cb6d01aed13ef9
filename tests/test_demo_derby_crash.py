"""Crash damage (demo-derby.txt, Crash Damage): the rulebook example replayed with scripted dice,
the exact oracle against brute-force dice-path enumeration, the compiled kernel against the
exact oracle, reproducibility, and the command line."""

import dataclasses
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from simkit import cli, games
from simkit.core import dice, exact
from simkit.core.errors import ScriptedDiceError
from simkit.core.runner import run
from simkit.core.stats import g_test
from simkit.demo_derby import procedures, reference
from simkit.demo_derby.pieces.sheet import fresh_sheet
from simkit.demo_derby.rules import (BODY_R, ENGINE, FRONT, FRONT_RIGHT, IMPACTS, PARTS,
                                     RADIATOR, REAR, REAR_LEFT, TIRE_RF, TRUNK, build_tables,
                                     rammer_column)

T = build_tables()
SAME = build_tables(variants={"rammer_hit_column": "same_as_target"})


def sheet_with(**crossed):
    s = fresh_sheet()
    for part, n in crossed.items():
        s[PARTS.index(part)] = n
    return s


# --- the rulebook's example --------------------------------------------------------------------
# "if the rammer's speed was 4 and the rammer's driver rolls a 5, the damage table result is
#  '2 - S' ... If the rammer has hit the front right of the target ... If they roll a '2' and a
#  '4', the target's driver looks in the 'Front Right' column, and would have to cross off one
#  box on their record sheet in 'Body Right' and one box in 'Right Front Tire'."
# The script continues past the narration: card roll 1 (the first card of the canonical deck,
# Fenders Locked, no immediate effect); the target rolls 1 (1 - 1 = row 0: 2 points at speed 4);
# the rammer's hit rolls 1 and 6 in its Front column: Engine and Radiator.
EXAMPLE = [5, 2, 4, 1, 1, 1, 6]


def test_rulebook_example_speed_4_roll_5_front_right_through_the_kernel():
    out, target, rammer, used = procedures.crash_scripted(T, EXAMPLE, 4, FRONT_RIGHT)
    assert used == len(EXAMPLE)
    assert out[procedures.O_DAMAGE] == 2 and out[procedures.O_SPECIAL] == 1  # "2 - S"
    assert out[procedures.O_CARDS] == 1 and out[procedures.CARDS_T] == T.deck[0]  # Fenders Locked
    expected = fresh_sheet()
    expected[BODY_R] = 1
    expected[TIRE_RF] = 1
    assert np.array_equal(target, expected)
    assert rammer[ENGINE] == 1 and rammer[RADIATOR] == 1 and rammer.sum() == 2
    ram_out = out[procedures.N_OUT:]
    assert ram_out[procedures.O_DAMAGE] == 2 and ram_out[procedures.O_SPECIAL] == 0


def test_rulebook_example_through_the_reference():
    d = exact.ScriptedDice(EXAMPLE)
    t, r, target, rammer = reference.crash_reference(d, T, 4, FRONT_RIGHT, return_sheets=True)
    assert d.exhausted
    assert t[:2] == (2, 1)
    assert target[BODY_R] == 1 and target[TIRE_RF] == 1 and target.sum() == 2
    assert rammer[ENGINE] == 1 and rammer[RADIATOR] == 1
    out, kt, kr, _ = procedures.crash_scripted(T, EXAMPLE, 4, FRONT_RIGHT)
    assert (tuple(out[:7]), tuple(out[7:14])) == (t, r)
    assert np.array_equal(kt, target) and np.array_equal(kr, rammer)


def test_the_rammer_reads_its_damage_in_its_own_front_or_rear_column_or_the_targets():
    # target rolls 4 -> row 3, speed 4: 2 points; rammer's hit rolls 4 and 4.
    script = [1, 4, 4, 4]  # rammer rolls 1: row 1 at speed 4 = 2 points on the target (4, 4)
    script = [1, 4, 4, 4, 4, 4]
    _, tgt, ram, _ = procedures.crash_scripted(T, script, 4, REAR_LEFT)
    assert tgt[PARTS.index("body_left")] == 2            # Rear Left, row 4: Left body
    assert ram[TIRE_RF] == 2                              # rammer's Front, row 4: Right front tire
    _, _, ram_rev, _ = procedures.crash_scripted(T, script, 4, REAR_LEFT, reverse=True)
    assert ram_rev[TRUNK] == 2                            # reversing: its Rear, row 4: Trunk
    _, _, ram_same, _ = procedures.crash_scripted(SAME, script, 4, REAR_LEFT)
    assert ram_same[PARTS.index("body_left")] == 2        # variant: the target's column


def test_no_rolls_are_made_for_a_car_already_out():
    # target's trunk has one box left; rear impact at speed 8, rammer rolls 6 (7S): the first
    # hit roll 3 (Trunk) puts it out - no more hit rolls, no card draw for the target.
    nearly = sheet_with(trunk=9)
    script = [6, 3, 1, 1, 1, 1, 1, 1, 1]  # then the target rolls 1: row 0 = 6 points on the rammer
    out, tgt, _, used = procedures.crash_scripted(T, script, 8, REAR, sheet_t=nearly)
    assert used == len(script)
    assert out[procedures.O_OUT] == 1 and out[procedures.O_CARDS] == 0
    assert out[procedures.O_SPECIAL] == 1
    assert tgt[TRUNK] == 10


def test_card_effects_on_draw():
    names = list(T.card_names)
    burst = list(T.deck).index(names.index("Radiator Burst")) + 1
    blown = list(T.deck).index(names.index("Blown Tire")) + 1
    # speed 4, roll 5 (2S), hits 1 1 (engine twice), card Radiator Burst; target rolls 2: row 1
    out, tgt, _, _ = procedures.crash_scripted(T, [5, 1, 1, burst, 2, 1, 1], 4, FRONT)
    assert tgt[RADIATOR] == 2 and tgt[ENGINE] == 2 and out[procedures.O_STALL] == 1
    # Blown Tire: 1d4 = 2 flattens the right front tire
    out, tgt, _, _ = procedures.crash_scripted(T, [5, 1, 1, blown, 2, 2, 1, 1], 4, FRONT)
    assert tgt[TIRE_RF] == 3 and out[procedures.O_FLATS] == 1


def test_a_script_too_short_is_a_clear_error():
    with pytest.raises(ScriptedDiceError, match="ran out"):
        procedures.crash_scripted(T, [5, 2], 4, FRONT_RIGHT)


# --- the exact oracle against brute-force enumeration of the reference ------------------------
def small_tables():
    """Every cell 0-1 point, each with a card; a 3-card deck: cheap to enumerate path by path,
    yet both cars draw, the deck couples them, and immediate card effects fire."""
    dmg = np.minimum(T.damage, 1)
    spc = np.where(T.damage > 0, 1, 0)
    names = list(T.card_names)
    deck = np.array([names.index(n) for n in ("Radiator Burst", "Blown Tire", "Stalled")],
                    np.int64)
    return dataclasses.replace(T, damage=dmg, special=spc, deck=deck)


@pytest.mark.parametrize("tables, speed, impact, reverse, sheets", [
    (T, 2, FRONT, False, {}),
    (T, 2, REAR_LEFT, True, {"sheet_r": sheet_with(trunk=9)}),
    (small_tables(), 4, FRONT_RIGHT, False, {}),
    (small_tables(), 6, FRONT, False, {"sheet_t": sheet_with(engine=7, radiator=2, body_left=6),
                                       "sheet_r": sheet_with(trunk=9, tire_left_rear=3)}),
    (small_tables(), 5, REAR, True, {"sheet_t": sheet_with(trunk=8, tire_right_rear=2),
                                     "sheet_r": sheet_with(trunk=9, tire_right_rear=3)}),
])
def test_oracle_equals_enumeration_of_every_dice_path(tables, speed, impact, reverse, sheets):
    brute = exact.distribution(reference.crash_reference, tables, speed, impact, reverse, **sheets)
    assert reference.crash_exact(tables, speed, impact, reverse, **sheets) == brute


def test_oracle_sees_cars_put_out_from_damaged_sheets():
    row = procedures.exact_row(T, 5, FRONT, sheet_t=sheet_with(engine=6, body_left=6, body_right=6))
    assert 0 < row["p_out_target_exact"] < 1
    # from fresh sheets a single crash cannot finish a car with these tables (7 points at most
    # against 8 engine and 10 trunk boxes; no card ends a car when drawn)
    assert procedures.exact_row(T, 8, REAR)["p_out_target_exact"] == 0


def test_exact_means_and_special_rates_follow_the_damage_table():
    for speed in range(1, 9):
        num = Fraction if speed <= 4 else float  # rationals where they are cheap
        row = procedures.exact_row(T, speed, FRONT_RIGHT, num=num)
        expect = {
            "mean_damage_target_exact": Fraction(int(T.damage[1:7, speed].sum()), 6),
            "mean_damage_rammer_exact": Fraction(int(T.damage[0:6, speed].sum()), 6),
            "p_special_target_exact": Fraction(int((T.special[1:7, speed] > 0).sum()), 6),
            "p_special_rammer_exact": Fraction(int((T.special[0:6, speed] > 0).sum()), 6)}
        for k, v in expect.items():
            assert row[k] == v if num is Fraction else abs(row[k] - float(v)) < 1e-12, (speed, k)
        if speed <= 4:  # the marginal shortcut agrees with the full joint
            d = reference.crash_exact(T, speed, FRONT_RIGHT)
            stall = procedures.O_STALL
            assert row["p_stall_rammer_exact"] == exact.probability(d, lambda o: o[1][stall])
            assert row["p_stall_target_exact"] == exact.probability(d, lambda o: o[0][stall])


# --- the compiled kernel against the exact oracle ----------------------------------------------
def _g_test_cell(tables, speed, impact, reverse=False, n=200_000, seed=11, **sheets):
    sheet_t = sheets.get("sheet_t", fresh_sheet())
    sheet_r = sheets.get("sheet_r", fresh_sheet())
    dist = reference.crash_exact(tables, speed, impact, reverse, sheet_t, sheet_r, num=float)
    keys = list(dist)
    index = {k: i for i, k in enumerate(keys)}
    res = procedures._outcomes(dice.stream_key(seed), 0, n, speed, impact,
                               rammer_column(tables, impact, reverse),
                               procedures.kernel_tables(tables), sheet_t, sheet_r,
                               procedures.new_deck(tables))
    counts = np.zeros(len(keys))
    for row in map(tuple, res):
        counts[index[(row[:7], row[7:14])]] += 1  # KeyError = an outcome the oracle rules out
    probs = np.array([dist[k] for k in keys])
    return g_test(counts, probs / probs.sum()).pvalue


@pytest.mark.parametrize("speed, impact, reverse, sheets", [
    (8, FRONT, False, {}),
    (6, REAR_LEFT, True, {}),
    (4, FRONT_RIGHT, False, {}),
    (7, REAR, False, {"sheet_t": sheet_with(trunk=7, tire_left_rear=2),
                      "sheet_r": sheet_with(engine=5, body_left=5, body_right=5)}),
])
def test_kernel_joint_outcomes_match_the_exact_oracle(speed, impact, reverse, sheets):
    assert _g_test_cell(T, speed, impact, reverse, **sheets) > 1e-3


def test_kernel_matches_oracle_on_the_extended_table_where_each_car_draws_two_cards():
    v = build_tables(variants={"collisions": "vector"}).as_vector()
    assert v.special[6, 12] == 2
    assert _g_test_cell(v, 12, FRONT, n=100_000) > 1e-3


def test_vector_column_follows_the_printed_rule():
    v = build_tables(variants={"collisions": "vector"})
    assert v.vector_column(5, REAR, 3) == 2 and v.vector_column(5, FRONT, 3) == 8
    assert v.vector_column(5, REAR_LEFT, 3) == 4 and v.vector_column(5, FRONT_RIGHT, 3) == 6
    assert v.vector_column(2, REAR, 6) == 0 and v.vector_column(8, FRONT, 8) == 16


def test_kernel_matches_oracle_on_the_small_tables_with_card_coupling():
    assert _g_test_cell(small_tables(), 6, FRONT, n=100_000,
                        sheet_t=sheet_with(engine=7, radiator=2)) > 1e-3


def test_every_cell_of_the_table_agrees_with_its_exact_value():
    sim = procedures.CrashSimulation(T)
    res = run(sim, 60_000, seed=5, progress=False)
    f = res.frame
    assert len(f) == 48 and set(f["impact"]) == set(IMPACTS)
    n = res.n_trials
    for col in ("p_special_target", "p_special_rammer", "p_stall_target", "p_stall_rammer",
                "p_out_target", "p_out_rammer"):
        p = f[f"{col}_exact"].to_numpy()
        se = np.sqrt(np.maximum(p * (1 - p), 1e-12) / n)
        z = (f[col].to_numpy() - p) / se
        assert np.abs(z).max() < 4.5, col  # 288 comparisons: 4.5 sigma keeps false alarms rare
    for side in ("target", "rammer"):
        m, ex = f[f"mean_damage_{side}"], f[f"mean_damage_{side}_exact"]
        half = (f[f"mean_damage_{side}_hi"] - f[f"mean_damage_{side}_lo"]) / 2
        assert ((m - ex).abs() <= 2.5 * half + 1e-12).all()


def test_results_are_identical_for_any_chunk_size_and_thread_count():
    sim = procedures.CrashSimulation(T, speeds=[3, 8], impacts=[FRONT, REAR])
    a = run(sim, 20_000, seed=9, chunk_size=1000, threads=1, progress=False)
    b = run(sim, 20_000, seed=9, chunk_size=7777, threads=2, progress=False)
    c = run(sim, 20_000, seed=10, chunk_size=7777, threads=2, progress=False)
    assert np.array_equal(a.totals, b.totals)
    assert not np.array_equal(a.totals, c.totals)


# --- the command line --------------------------------------------------------------------------
@pytest.fixture
def only_this_game(monkeypatch):
    # the CLI imports every installed game; keep these tests about this one
    monkeypatch.setattr(games, "PACKAGES", {"demo-derby": "simkit.demo_derby"})


def test_crash_command_writes_the_table(only_this_game, tmp_path, capsys):
    out = tmp_path / "crash.csv"
    rc = cli.main(["crash", "demo-derby", "--trials", "2000", "--seed", "3", "--speeds", "4,8",
                   "--impacts", "front,rear_right", "--no-progress", "--out", str(out)])
    assert rc == 0
    f = pd.read_csv(out)
    for col in ("speed", "impact", "mean_damage_target", "mean_damage_target_exact",
                "mean_damage_rammer", "mean_damage_rammer_exact", "p_special_target",
                "p_special_rammer", "p_special_target_exact", "p_out_target_exact",
                "p_stall_rammer_lo", "p_stall_rammer_hi"):
        assert col in f.columns
    assert list(zip(f["speed"], f["impact"])) == [(4, "front"), (4, "rear_right"),
                                                  (8, "front"), (8, "rear_right")]
    assert "mean_damage_target_exact" in capsys.readouterr().out


@pytest.mark.parametrize("argv, needle", [
    (["--impacts", "sideways"], "--impacts"),
    (["--speeds", "0-9"], "--speeds"),
    (["--trials", "0"], "--trials"),
    (["--variant", "rammer_hit_column=both"], "rammer_hit_column"),
    (["--out", "table.xlsx"], "--out"),
    (["--target-speed", "3"], "--target-speed"),
])
def test_bad_input_exits_2_with_one_line(only_this_game, capsys, argv, needle, tmp_path):
    if "--out" in argv:
        argv = ["--out", str(tmp_path / "table.xlsx"), "--trials", "1000"]
    rc = cli.main(["crash", "demo-derby", "--no-progress", *argv])
    err = capsys.readouterr().err.strip()
    assert rc == 2 and needle in err and len(err.splitlines()) == 1
