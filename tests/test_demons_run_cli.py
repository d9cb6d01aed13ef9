"""``simkit hazards demons-run``: the table, its exact columns, reproducibility across thread
counts and chunk sizes, and bad input (exit 2, one line)."""

import numpy as np
import pandas as pd
import pytest

from simkit import cli, games
from simkit.core.runner import run
from simkit.demons_run.builds import worked_ship
from simkit.demons_run.hazards import HAZARDS, HazardSim
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
