"""``simkit hazards demons-run``: the table, its exact columns, reproducibility across thread
counts and chunk sizes, and bad input (exit 2, one line)."""

import numpy as np
import pandas as pd
from pathlib import Path

import pytest

from simkit import cli, games
from simkit.core.runner import run
from simkit.demons_run.builds import worked_ship
from simkit.demons_run.procedures.tables import HAZARDS, HazardSim
from simkit.demons_run.rules import make_rules


@pytest.fixture(autouse=True)
def only_demons_run(monkeypatch):
    monkeypatch.setattr(games, "available", lambda: ["demons-run"])


def test_same_totals_for_any_chunk_size_and_thread_count():
    sim = HazardSim(make_rules(), worked_ship(), velocity=4, exact=False)
    a = run(sim, 20_000, 11, chunk_size=1000, threads=1, progress=False)
    b = run(sim, 20_000, 11, chunk_size=7777, threads=2, progress=False)
    assert np.array_equal(a.totals, b.totals)
    c = run(sim, 20_000, 12, chunk_size=7777, threads=2, progress=False)
    assert not np.array_equal(a.totals, c.totals)


def test_hazards_command_writes_every_hazard_with_exact_columns(tmp_path, capsys):
    out = tmp_path / "h.csv"
    assert cli.main(["hazards", "demons-run", "--si", "14", "--screens", "4", "--pi", "3",
                     "--velocity", "4", "--trials", "30000", "--seed", "5", "--no-progress",
                     "--out", str(out)]) == 0
    f = pd.read_csv(out, keep_default_na=False)  # the hazard "null" is not a missing value
    assert list(f.hazard) == list(HAZARDS)
    for col in ("hazard", "si", "screens", "pi", "velocity", "p_destroyed", "p_destroyed_exact",
                "p_destroyed_lo", "p_destroyed_hi", "mean_si_loss", "mean_si_loss_exact",
                "mean_criticals", "p_crisis"):
        assert col in f.columns
    # every exact value lies in (or next to) its 95% interval: allow one of 10 x 2 outside
    inside = ((f.p_destroyed_exact >= f.p_destroyed_lo - 1e-12) &
              (f.p_destroyed_exact <= f.p_destroyed_hi + 1e-12)).sum()
    inside += ((f.mean_si_loss_exact >= f.mean_si_loss_lo) &
               (f.mean_si_loss_exact <= f.mean_si_loss_hi)).sum()
    assert inside >= 19
    row = f.set_index("hazard").loc["hell_hole"]
    assert row.mean_si_loss_exact == pytest.approx(3.5) and row.p_effect_exact == pytest.approx(1)
    assert f.set_index("hazard").loc["null"].p_effect_exact == pytest.approx(10 / 36)
    assert "hell3_hole" in capsys.readouterr().out


def test_hazards_command_variant_changes_the_hound(capsys):
    assert cli.main(["hazards", "demons-run", "--hazard", "hell_hound_0", "--trials", "2000",
                     "--no-progress", "--variant", "hell_hound_subtraction=printed"]) == 0
    out = capsys.readouterr().out
    assert "hell_hound_0" in out and "hell3_hole" not in out


@pytest.mark.parametrize("argv,needle", [
    (["--si", "0"], "si must be at least 1"),
    (["--pi", "13"], "pi=13 outside 0-12"),
    (["--velocity", "99"], "velocity=99"),
    (["--trials", "0"], "--trials"),
    (["--variant", "max_si=big"], "unknown choice 'big'"),
    (["--build", "fuel=300"], "fuel=300 outside 0-290"),
])
def test_bad_input_exits_2_with_one_line(argv, needle, capsys):
    assert cli.main(["hazards", "demons-run", "--no-progress", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and needle in err


def test_fire_command_and_the_scrambler_variant(tmp_path):
    """206 G: Scrambler 2 vs Screens 4 does nothing; read as the card's 'Laser Level' (10 - 4 > 2)
    it gives a System Crisis on every hit."""
    out = tmp_path / "f.csv"
    argv = ["fire", "demons-run", "--laser", "10", "--scrambler", "2", "--pi", "3",
            "--range", "3,7", "--trials", "20000", "--no-progress", "--out", str(out)]
    assert cli.main(argv) == 0
    f = pd.read_csv(out).set_index(["weapon", "range"])
    assert f.loc[("laser", 7), "p_hit_exact"] == pytest.approx(21 / 36)   # 2d6 >= 7
    assert f.loc[("laser", 7), "mean_si_loss_exact"] == pytest.approx(6 * 21 / 36)
    assert f.loc[("scrambler", 7), "p_crisis_exact"] == 0 and f.loc[("scrambler", 7), "p_crisis"] == 0
    assert cli.main(argv + ["--variant", "scrambler_level=laser"]) == 0
    g = pd.read_csv(out).set_index(["weapon", "range"])
    assert g.loc[("scrambler", 7), "p_crisis_exact"] == pytest.approx(21 / 36)
    assert abs(g.loc[("scrambler", 7), "p_crisis"] - 21 / 36) < 0.02


def test_recovery_command_205_D_setting(tmp_path):
    out = tmp_path / "r.csv"
    assert cli.main(["recovery", "demons-run", "--tractor", "10", "--velocity", "5", "--distance",
                     "2", "--terrain", "hell_fire", "--pi", "3", "--trials", "20000",
                     "--no-progress", "--out", str(out)]) == 0
    row = pd.read_csv(out).iloc[0]
    assert row.modifier == -7 and row.p_recover_exact == pytest.approx(5 / 6)
    assert row.p_recover_lo <= 5 / 6 <= row.p_recover_hi


@pytest.mark.parametrize("argv,needle", [
    (["fire", "demons-run", "--laser", "12"], "--laser 12 outside 0-11"),
    (["fire", "demons-run", "--laser", "0", "--target", "hell_hound"], "only the Laser"),
    (["fire", "demons-run", "--range", "0-13"], "--range"),
    (["recovery", "demons-run", "--terrain", "lava"], "--terrain 'lava' unknown"),
])
def test_fire_and_recovery_bad_input(argv, needle, capsys):
    assert cli.main(argv + ["--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and needle in err


def test_hazards_without_exact_columns(capsys):
    assert cli.main(["hazards", "demons-run", "--hazard", "null", "--trials", "1000",
                     "--no-progress", "--no-exact"]) == 0
    out = capsys.readouterr().out
    assert "null" in out and "_exact" not in out


def test_fire_on_the_board_206_E_setting(tmp_path, capsys):
    """Range 7 past a Hell3 Well hex with Pilot +2 (PI box 7): hit on 2d6 + 2 - 6 >= 7."""
    out = tmp_path / "s.csv"
    assert cli.main(["fire", "demons-run", "--firer", "13,25", "--facing", "NE", "--at", "17,20",
                     "--pi", "7", "--trials", "5000", "--no-progress", "--out", str(out),
                     # the pre-issue-14 board: this setting was laid out on its hexes
                     "--board", str(Path(__file__).parent / "fixtures" / "demons-run-board-2025.toml")]) == 0
    row = pd.read_csv(out).iloc[0]
    assert row["range"] == 7 and row["modifier"] == -4
    assert row.p_hit_exact == pytest.approx(3 / 36)                  # 2d6 >= 11
    assert "range 7, terrain modifier -6" in capsys.readouterr().out
    assert cli.main(["fire", "demons-run", "--firer", "12,19", "--facing", "N", "--at", "12,13",
                     "--no-progress"]) == 0
    assert "no shot" in capsys.readouterr().out                      # Null on the line
    assert cli.main(["fire", "demons-run", "--firer", "0,19", "--facing", "N", "--at", "12,13",
                     "--no-progress"]) == 2
