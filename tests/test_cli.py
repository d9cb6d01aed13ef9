"""The command line: real analyses, clean output files, bad input exits 2 with one line."""

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from simkit.cli import main

COLUMNS = ["weapon", "range", "p_hit", "p_hit_lo", "p_hit_hi", "p_hit_exact", "mean_damage",
           "mean_damage_exact", "mean_destroyed", "mean_destroyed_lo", "mean_destroyed_hi",
           "p_internal", "p_internal_lo", "p_internal_hi", "trials"]


def test_weapons_starfire_writes_csv_parquet_and_plot(tmp_path, capsys):
    csv, pq, png = tmp_path / "w.csv", tmp_path / "w.parquet", tmp_path / "w.png"
    assert main(["weapons", "starfire", "--trials", "20000", "--ranges", "0-20", "--out", str(csv),
                 "--plot", str(png), "--no-progress"]) == 0
    df = pd.read_csv(csv)
    assert set(COLUMNS) <= set(df.columns)
    assert set(df.weapon) == {"gun", "missile", "force_beam", "energy_beam", "primary_beam",
                              "laser_beam"}
    assert not ((df.weapon == "energy_beam") & (df.range == 0)).any()  # cannot fire (default)
    assert not ((df.weapon == "gun") & (df.range > 10)).any()
    assert png.stat().st_size > 10_000
    assert "Starfire weapon value" in capsys.readouterr().out
    assert main(["weapons", "starfire", "--trials", "2000", "--out", str(pq), "--no-progress",
                 "--variant", "energy_beam_range0=five_hits", "--volley", "3"]) == 0
    df2 = pd.read_parquet(pq)
    assert ((df2.weapon == "energy_beam") & (df2.range == 0)).any() and (df2.volley == 3).all()


@pytest.mark.parametrize("argv,needle", [
    (["weapons", "starfire", "--target", "S S A l I"], "--target: l: unknown system letter 'l'"),
    (["weapons", "starfire", "--variant", "missile_max_range=12"], "unknown choice '12'"),
    (["weapons", "starfire", "--variant", "nosuch=x"], "unknown variant 'nosuch'"),
    (["weapons", "starfire", "--ranges", "5-2"], "--ranges"),
    (["weapons", "starfire", "--trials", "0"], "--trials"),
    (["weapons", "starfire", "--out", "x.xlsx", "--trials", "10"], "x.xlsx: --out"),
    (["weapons", "nosuchgame"], "invalid choice"),
])
def test_bad_input_is_one_line_and_status_2(argv, needle, capsys):
    assert main(argv + ["--no-progress"] if argv[1] == "starfire" else argv) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err and len(err.splitlines()) == 1 and "Traceback" not in err


def test_console_script_exit_status_and_no_traceback():
    p = subprocess.run([sys.executable, "-m", "simkit.cli", "weapons", "starfire", "--target",
                        "S S Q"], capture_output=True, text=True)
    assert p.returncode == 2 and "Traceback" not in p.stderr and "'Q'" in p.stderr


def test_variants_and_tables_listing(capsys):
    assert main(["variants", "starfire"]) == 0
    out = capsys.readouterr().out
    assert "energy_beam_range0 (default: cannot_fire)" in out
    assert main(["tables", "starfire"]) == 0
    assert "probability_of_hit" in capsys.readouterr().out


def test_library_call_returns_the_same_frame():
    from simkit.analysis import weapon_table

    a = weapon_table("starfire", target="corvette", ranges=[2, 5], trials=5000, seed=1, progress=False)
    b = weapon_table("starfire", target="CT - S S A H R L I I", ranges=[2, 5], trials=5000, seed=1,
                     progress=False)
    pd.testing.assert_frame_equal(a, b)


def test_dark_future_weapon_table_from_the_library_equals_the_command(tmp_path):
    from simkit.analysis import weapon_table

    lib = weapon_table("dark-future", target="renegade", mount="turret", ranges=[2, 7],
                       trials=3000, seed=5, weapon_keys=["mg", "gl40"], progress=False)
    out = tmp_path / "w.csv"
    assert main(["weapons", "dark-future", "--target", "renegade", "--mount", "turret",
                 "--ranges", "2,7", "--weapons", "mg,gl40", "--trials", "3000", "--seed", "5",
                 "--no-progress", "--out", str(out)]) == 0
    cli = pd.read_csv(out)
    assert list(lib.weapon) == list(cli.weapon) and len(lib) == 4
    assert np.allclose(lib["p_hit"], cli["p_hit"]) and np.allclose(lib["damage_per_shot"],
                                                                   cli["damage_per_shot"])


def test_scenario_run_prints_win_rates_and_writes_outputs(tmp_path, capsys):
    out, png, log = tmp_path / "w.csv", tmp_path / "w.png", tmp_path / "g.log"
    assert main(["scenario", "run", "starfire/mirror", "--trials", "400",
                 "--out", str(out), "--plot", str(png), "--log", str(log), "--no-progress"]) == 0
    df = pd.read_csv(out)
    for col in ["side", "policy", "trials", "wins", "draws", "win_rate", "win_lo", "win_hi",
                "mean_turns"]:
        assert col in df
    assert (df.wins.sum() + df.draws[0]) == 400
    assert png.stat().st_size > 5_000 and log.read_text().startswith("# Mirror")


def test_scenario_log_plays_the_policies_and_variants_asked_for(tmp_path):
    """--log writes one of the games the table counted, so it takes --policy too."""
    log = tmp_path / "g.log"
    assert main(["scenario", "run", "starfire/mirror", "--trials", "20",
                 "--policy", "red=standoff", "--log", str(log), "--no-progress"]) == 0
    assert "policies: blue=closer, red=standoff" in log.read_text().splitlines()[0]


def test_scenario_run_all_policy_pairings(tmp_path):
    out = tmp_path / "m.csv"
    assert main(["scenario", "run", "starfire/mirror", "--trials", "60",
                 "--policies", "all", "--out", str(out), "--no-progress"]) == 0
    df = pd.read_csv(out)
    assert df.pairing.nunique() == 9 and len(df) == 18


@pytest.mark.parametrize("content,needle", [
    ('game = "chess"\n', "game: unknown game 'chess'"),
    ('name = "x"\n', "game: missing"),
    ('game = "starfire"\nlabel = "ORIGINAL"\nsource = "t"\nturns = "ten"\n',
     "turns: expected int, got 'ten'"),
    ('game = "starfire"\nlabel = "GUESS"\n', "label: must be one of"),
    ("game = [", "not valid TOML"),
])
def test_scenario_file_errors_name_file_and_field(tmp_path, capsys, content, needle):
    p = tmp_path / "bad.toml"
    p.write_text(content)
    assert main(["scenario", "run", str(p), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert str(p) in err and needle in err and len(err.splitlines()) == 1


def test_unknown_policy_is_named(capsys):
    assert main(["scenario", "run", "starfire/mirror", "--policy", "blue=bold",
                 "--no-progress"]) == 2
    assert "unknown policy 'bold'" in capsys.readouterr().err


def test_every_printed_estimate_brings_its_interval():
    """Intervals named after the quantity (turns_lo for mean_turns) are printed too."""
    from simkit.cliutil import with_intervals

    f = pd.DataFrame(columns=["side", "win_rate", "win_lo", "win_hi", "mean_turns", "turns_lo",
                              "turns_hi", "mean_vp", "mean_vp_lo", "mean_vp_hi", "wins"])
    got = with_intervals(f, ["side", "wins", "win_rate", "win_lo", "win_hi", "mean_vp",
                             "mean_turns"])
    assert got == ["side", "wins", "win_rate", "win_lo", "win_hi", "mean_vp", "mean_vp_lo",
                   "mean_vp_hi", "mean_turns", "turns_lo", "turns_hi"]
