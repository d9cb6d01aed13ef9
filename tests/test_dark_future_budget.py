"""Cars on a budget: the design space handed to the shared search, and a small search over
Game Four (issue 5 section 7)."""

from pathlib import Path

import numpy as np
import pytest

from simkit.core.errors import UserInputError
from simkit.dark_future import search as B
from simkit.dark_future.builds import check

SCEN = Path(__file__).resolve().parents[1] / "scenarios" / "dark-future"


def test_every_candidate_of_the_space_is_a_legal_design_within_the_budget():
    space = B.design_space("renegade", 50_000)
    rng = np.random.default_rng(1)
    seen = set()
    for _ in range(200):
        c = space.sample(rng)
        car = space.to_car(c)
        assert not check(car, 50_000).violations, space.describe(c)
        assert car.mounts
        seen.add(c)
    assert len(seen) > 20
    # the Game Three offensive car 'hood MG, oil layer' is a candidate; over budget it is not
    c = B.encode(space, "renegade: hood=mg, passive=oil")
    assert space.is_legal(c) and space.describe(c) == "renegade: hood=mg, passive=oil"
    with pytest.raises(UserInputError):
        B.encode(space, "renegade: hood=chain_gun, passive=mines")
    with pytest.raises(UserInputError):
        B.design_space("interceptor", 50_000)


def test_budget_search_on_game_four(capsys):
    board = B.budget_search(SCEN / "game-4.toml", budget=50_000, side="gunner",
                            include=["renegade: hood=autocannon, passive=mines"],
                            trials_budget=6_000, population=8, min_trials=100, finalists=3,
                            seed=3, progress=False)
    assert len(board) >= 3 and board["included"].any()
    assert (board["win_lo"] <= board["win_rate"]).all() and (board["win_rate"] <= board["win_hi"]).all()
    space = B.design_space("renegade", 50_000)
    for build in board["build"]:
        from simkit.dark_future.builds import car_from
        assert not check(car_from(build), 50_000).violations
    # the same seed gives the same board
    again = B.budget_search(SCEN / "game-4.toml", budget=50_000, side="gunner",
                            include=["renegade: hood=autocannon, passive=mines"],
                            trials_budget=6_000, population=8, min_trials=100, finalists=3,
                            seed=3, progress=False)
    assert list(board["build"]) == list(again["build"])
    assert np.allclose(board["win_rate"], again["win_rate"])


def test_builds_cli_search_and_bad_input(capsys):
    from simkit.cli import main

    assert main(["builds", "dark-future", "--budget", "50000", "--vehicle", "renegade",
                 "--scenario", str(SCEN / "game-4.toml"), "--trials-budget", "3000",
                 "--population", "6", "--finalists", "2", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "win_rate" in out and "renegade:" in out
    assert main(["builds", "dark-future", "--budget", "30000",
                 "--scenario", str(SCEN / "game-4.toml")]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    assert main(["builds", "dark-future", "--budget", "50000", "--side", "nobody",
                 "--scenario", str(SCEN / "game-4.toml")]) == 2


def test_leaderboard_rows_replay_as_scenarios_for_sensitivity(tmp_path, capsys):
    """A budget-search leaderboard row becomes its scenario with the row's design driving its
    side (the build_scenario hook), so `simkit sensitivity LEADERBOARD.csv` works here too."""
    import pandas as pd

    from simkit.cli import main
    from simkit.dark_future.scenario import load_scenario

    design = "renegade: hood=autocannon, passive=mines"
    row = {"game": "dark-future", "rank": 1, "build": design,
           "scenario": str(SCEN / "game-4.toml"), "side": "grenadier"}
    sc = load_scenario(B.build_scenario(row, tmp_path))
    original = load_scenario(SCEN / "game-4.toml")
    assert [s.name for s in sc.sides] == [s.name for s in original.sides]
    assert sc.sides[1].cars != original.sides[1].cars      # the searched side drives the row
    assert sc.sides[0].cars == original.sides[0].cars      # the other side is untouched
    with pytest.raises(UserInputError, match="side"):
        B.build_scenario(dict(row, side="nobody"), tmp_path)
    board = tmp_path / "board.csv"
    pd.DataFrame([row]).to_csv(board, index=False)
    capsys.readouterr()
    assert main(["sensitivity", str(board), "--variants", "none", "--policies", "none",
                 "--trials", "30", "--no-progress"]) == 0
    assert "grenadier" in capsys.readouterr().out


def test_search_space_has_two_weapon_turrets_and_linked_weapons_p83():
    """Issue 15: the $ search tries two medium weapons in a turret ('one heavy weapon or two
    medium weapons', p83) and linked identical weapons (free, p83); both round-trip through
    the leaderboard's compact string."""
    from simkit.dark_future.builds import car_from
    space = B.design_space("interceptor", 130_000)
    text = "interceptor: wing_left=mg, wing_right=mg, turret=mg+lw_gl20, link=wing_left+wing_right"
    c = B.encode(space, text)
    assert space.is_legal(c)
    car = space.to_car(c)
    assert sorted(car.mounts["turret"]) == ["lw_gl20", "mg"] and car.links == [["wing_left", "wing_right"]]
    assert not check(car_from(space.describe(c)), 130_000).violations
    assert car_from(space.describe(c)).links == car.links
    # a heavy weapon and a medium one in the turret is no candidate
    with pytest.raises(UserInputError):
        B.encode(space, "interceptor: turret=heavy_laser+mg")
    rng = np.random.default_rng(4)
    pairs = links = 0
    for _ in range(300):
        car = space.to_car(space.sample(rng))
        assert not check(car, 130_000).violations
        pairs += len(car.mounts.get("turret", [])) == 2
        links += bool(car.links)
    assert pairs > 0 and links > 0


def test_search_faces_a_field_of_opponents_in_turn():
    """With opponents, trial t faces opponent (t // 16) mod k whatever the candidate: one
    opponent equal to the scenario's own car gives the scenario's own figures; two split the
    trials between them in blocks."""
    space = B.design_space("renegade", 50_000)
    c = B.encode(space, "renegade: hood=autocannon, passive=mines")
    own = "renegade: wings=gl20, passive=smoke"          # game-4's grenadier
    other = "renegade: hood=mg, passive=oil"
    key = 99
    plain = B.GameEvaluator(SCEN / "game-4.toml", "gunner", space)
    one = B.GameEvaluator(SCEN / "game-4.toml", "gunner", space, opponents=[own])
    assert (plain.evaluate([c], 0, 64, key) == one.evaluate([c], 0, 64, key)).all()
    two = B.GameEvaluator(SCEN / "game-4.toml", "gunner", space, opponents=[own, other])
    alt = B.GameEvaluator(SCEN / "game-4.toml", "gunner", space, opponents=[other])
    want = (one.evaluate([c], 0, 16, key) + alt.evaluate([c], 16, 16, key)
            + one.evaluate([c], 32, 16, key) + alt.evaluate([c], 48, 8, key))
    assert (two.evaluate([c], 0, 56, key) == want).all()
    with pytest.raises(UserInputError):
        B.GameEvaluator(SCEN / "game-4.toml", "gunner", space,
                        opponents=["renegade: hood=chain_gun, passive=mines"])   # over budget


def test_builds_cli_takes_a_field_of_opponents(capsys):
    from simkit.cli import main

    base = ["builds", "dark-future", "--budget", "50000", "--side", "gunner",
            "--scenario", str(SCEN / "game-4.toml")]
    assert main(base + ["--opponent", "renegade: wings=gl20, passive=smoke",
                        "--opponent", "renegade: hood=mg, passive=oil", "--trials-budget", "2000",
                        "--population", "4", "--finalists", "2", "--no-progress"]) == 0
    assert "win_rate" in capsys.readouterr().out
    for bad in ("renegade: hood=chain_gun, passive=mines", "renegade: hood=nitro"):
        assert main(base + ["--opponent", bad]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "--opponent" in err[0], err
