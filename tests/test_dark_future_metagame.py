"""The Dark Future ``$`` build metagame (issue 17 item 5): both sides of Game Four drive
searched designs, with the sides swapped on the same seeded games."""

import numpy as np
import pandas as pd
import pytest

from simkit.cli import main


@pytest.fixture(scope="module")
def game_four():
    from simkit.dark_future import _metagame

    return _metagame("dark-future/game-4", budget=50_000)


def test_the_duel_swaps_the_sides_on_the_same_games(game_four):
    from simkit.dark_future.search import encode

    sp = game_four.space
    gunner, grenadier = game_four.start
    mg = encode(sp, "renegade: hood=mg")
    for a, b in ((gunner, grenadier), (gunner, mg), (grenadier, mg)):
        ab = game_four.duel(a, b, 200, 7)
        ba = game_four.duel(b, a, 200, 7)
        # the same 100 games each way round: which build is named first cannot matter
        assert list(ab) == list(ba[::-1])
        assert ab.sum() <= 200
    # a design against itself: each half is the other half with the sides swapped
    same = game_four.duel(gunner, gunner, 200, 7)
    assert same[0] == same[1]
    # an odd count plays the extra game with the second build on the first side
    assert game_four.duel(gunner, mg, 201, 7).sum() <= 201


def test_later_games_of_a_duel_add_up_to_one_longer_duel(game_four):
    from simkit.dark_future.search import encode

    gunner, _ = game_four.start
    mg = encode(game_four.space, "renegade: hood=mg")
    assert game_four.extend
    whole = game_four.duel(gunner, mg, 301, 7)
    for cut in (100, 101, 150):
        head = game_four.duel(gunner, mg, cut, 7)
        tail = game_four.duel(gunner, mg, 301 - cut, 7, cut)
        assert list(head + tail) == list(whole), cut
    # later games are other games: not all of three windows of 100 come out alike (two
    # windows alone may, by chance: 53-47 both, session 30)
    assert len({tuple(game_four.duel(gunner, mg, 100, 7, k)) for k in (0, 100, 200)}) > 1


def test_the_metagame_starts_from_the_scenarios_cars(game_four):
    sp = game_four.space
    described = [sp.describe(c) for c in game_four.start]
    assert described == ["renegade: hood=autocannon, passive=mines",
                         "renegade: wing_left=gl20, wing_right=gl20, passive=smoke"]
    assert [name for name, _ in game_four.reference] == ["Game Four's gunner car",
                                                         "Game Four's grenadier car"]
    assert all(sp.is_legal(c) for c in game_four.start)


def test_the_metagame_command_reports_the_field_and_the_scenarios_cars(tmp_path, capsys):
    out = tmp_path / "meta.csv"
    assert main(["builds", "dark-future", "--metagame", "--scenario", "dark-future/game-4",
                 "--budget", "50000", "--trials-budget", "2000", "--seed", "3",
                 "--no-progress", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Which build beats which" in text
    frame = pd.read_csv(out)
    support = frame[frame.role == "support"]
    assert len(support) >= 1 and support.weight.sum() == pytest.approx(1.0, abs=1e-6)
    assert set(frame.role) >= {"reference: Game Four's gunner car",
                               "reference: Game Four's grenadier car"}
    assert (frame.win_lo <= frame.win_rate).all() and (frame.win_rate <= frame.win_hi).all()
    assert np.isfinite(frame.utility).all()


@pytest.mark.parametrize("argv, field", [
    (["--metagame", "--budget", "50000"], "--metagame"),
    (["--metagame", "--scenario", "dark-future/game-4", "--budget", "50000", "--opponent",
      "renegade: hood=mg"], "--metagame"),
    (["--metagame", "--scenario", "dark-future/game-4", "--budget", "5000"], "--budget"),
])
def test_bad_metagame_input_is_one_line_and_exit_2(argv, field, capsys):
    assert main(["builds", "dark-future", *argv, "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert field in err and len(err.splitlines()) == 1
