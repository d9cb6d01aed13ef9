"""Cars on a budget: the design space handed to the shared search, and a small search over
Game Four (issue 5 section 7)."""

from pathlib import Path

import numpy as np
import pytest

from simkit.core.errors import UserInputError
from simkit.dark_future import budget as B
from simkit.dark_future.design import check

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
        from simkit.dark_future.design import car_from
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
