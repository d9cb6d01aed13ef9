"""``simkit balance`` on interchangeable sides (one population, seats rotated on the same dice),
the engines' proof that a scenario's sides are interchangeable, and the loop's guard against a
reply whose gain the search seed underestimates."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.analysis import balance as B
from simkit.core.game import Param, Policy, PolicySpace

RPS_SPACE = {"throw": PolicySpace("throw", (Param("hand", "int", 0, 2, 0),))}


def _hand(p):
    return 0 if p == B.FILE else p.values.get("hand", 0)


def _rps_seat_a_wins_a_fifth_of_draws(profile, n, seed):
    """Rock-paper-scissors where the first seat also wins a fifth of the games that would be
    draws: a game with a seat advantage the rotated search must not hide."""
    a, b = (_hand(p) for p in profile)
    if a == b:
        return np.array([n // 5, 0])
    return np.array([n, 0]) if (a - b) % 3 == 1 else np.array([0, n])


def _sides(space=RPS_SPACE, start=("throw",)):
    return [B.Side(s, [Policy(p) for p in start], space) for s in ("a", "b")]


def test_one_population_with_rotated_seats_is_even_and_still_shows_the_seat_advantage():
    out = B.balance_game(_sides(), _rps_seat_a_wins_a_fifth_of_draws, trials_budget=100_000,
                         profile_trials=100, candidates=8, seed=3, progress=False,
                         symmetric=True, rotate=True)
    assert (out.method == B.ONE_POPULATION).all()
    assert out.support.iloc[0] == out.support.iloc[1]   # one mixture for both seats
    weights = [float(x.rsplit(" ", 1)[1]) for x in out.support.iloc[0].split("; ")]
    assert weights == pytest.approx([1 / 3] * 3, abs=0.006)
    # each seat measured as it sits: a third of the games won, and the first seat a fifth of
    # the third that are draws on top
    assert out.equilibrium_win_rate.to_numpy() == pytest.approx([0.4, 1 / 3], abs=0.004)
    # the search's payoffs are the seat-rotated averages: exactly constant-sum across the
    # diagonal, and a policy against itself scores one half whatever the seat bias
    pay = out.attrs["payoffs"]
    assert (pay.utility_a + pay.utility_b).to_numpy() == pytest.approx(1.0)
    diag = pay[pay.a == pay.b]
    assert len(diag) == 3 and (diag.utility_a == 0.5).all()
    lookup = {(r.a, r.b): r.utility_a for r in pay.itertuples()}
    for (p, q), u in lookup.items():
        assert lookup[(q, p)] == pytest.approx(1 - u)


def test_a_rotated_profile_plays_half_the_games_each_way_on_the_same_seed():
    seen = []

    def play(profile, n, seed):
        seen.append((tuple(_hand(p) for p in profile), n, seed))
        return _rps_seat_a_wins_a_fifth_of_draws(profile, n, seed)

    est = B.Estimates(play, 2, rotate=True)
    rock, paper = Policy.of("throw", {"hand": 0}), Policy.of("throw", {"hand": 1})
    u = est.utility((rock, paper), 1000, 7)
    assert sorted(seen) == [((0, 1), 500, 7), ((1, 0), 500, 7)] and est.used == 1000
    assert list(est.utility((paper, rock), 1000, 7)) == list(u[::-1])
    assert len(seen) == 2                      # the other order reads the same two estimates
    assert list(est.utility((rock, rock), 1000, 7)) == [0.5, 0.5]


def _plain_or_sneaky(search_seed):
    """Two identical sides; ``hand=1`` (sneaky) beats plain by 0.06 in truth, but the search
    seed's games happen to show only 0.01, under epsilon."""
    def play(profile, n, seed):
        a, b = (_hand(p) for p in profile)
        if a == b:
            return np.array([0, 0])
        edge = 0.01 if seed == search_seed else 0.06
        w = int(round(n * (0.5 + edge)))
        return np.array([w, n - w]) if a > b else np.array([n - w, w])
    return play


def test_a_reply_under_epsilon_on_the_search_seed_is_confirmed_on_more_games_before_stopping():
    space = {"throw": PolicySpace("throw", (Param("hand", "int", 0, 1, 0),))}
    sides = [B.Side(s, [B.FILE], space) for s in ("a", "b")]
    out = B.balance_game(sides, _plain_or_sneaky(5), trials_budget=200_000, profile_trials=200,
                         candidates=4, epsilon=0.02, seed=5, progress=False)
    # without the confirmation the loop stopped on the search seed's 0.01 and the report
    # measured the sneaky reply's true 0.06 against a mixture of plain policies
    assert out.exploitability.to_numpy() == pytest.approx([0, 0], abs=1e-9)
    for support in out.support:
        assert "hand=1" in support
    rounds = out.attrs["rounds"]
    assert rounds.confirmed_a.iloc[0] == pytest.approx(0.06)
    assert "no best reply gained more than epsilon" in out.attrs["stopped"]


def test_the_budget_the_search_leaves_measures_the_report():
    space = {"throw": PolicySpace("throw", (Param("hand", "int", 0, 1, 0),))}
    sides = [B.Side(s, [B.FILE], space) for s in ("a", "b")]
    kw = dict(trials_budget=200_000, profile_trials=200, candidates=4, seed=5, progress=False)
    out = B.search(sides, _plain_or_sneaky(5), **kw, spend_left=True)
    assert out.validation_trials > 200
    assert out.validation_trials <= B.VALIDATION_MAX * 200
    assert B.search(sides, _plain_or_sneaky(5), **kw).validation_trials == 200


# --- which scenarios have interchangeable sides ------------------------------------------------

def _check(name_or_path):
    from simkit import games, shipped

    path = shipped.resolve(str(name_or_path))
    eng = games.for_scenario(path).scenario
    return eng.sides_interchangeable(eng.load(path))


@pytest.mark.parametrize("scenario, expected", [
    ("starfire/mirror", True), ("demo-derby/two-car-duel", True),
    ("starfire/first-contact", False), ("starfire/escalation", False),
    ("dark-future/game-1", False), ("demons-run/duel", False),
    ("demo-derby/spots-fixed", False), ("demo-derby/three-car-derby", False),
])
def test_shipped_scenarios_interchangeable_or_not(scenario, expected):
    ok, why = _check(scenario)
    assert ok is expected, why


def _mirror_text():
    from pathlib import Path

    return (Path(__file__).resolve().parent.parent / "scenarios/starfire/mirror.toml").read_text()


@pytest.mark.parametrize("change, needle", [
    (("columns = 29", "columns = 30"), "map is not its own mirror"),
    (('initiative = "roll"', 'initiative = "blue"'), "initiative is fixed"),
    (('hex = "2514"', 'hex = "2516"'), "not placed at the mirror"),
    (('facing = "down-left"\n[[sides.red.ships]]', 'facing = "down"\n[[sides.red.ships]]'),
     "not placed at the mirror"),
    (('sheet = "DD - (2) - S S A A G R L F I I I I I I (6)"\nhex = "2514"',
      'sheet = "DD - (2) - S S A A G R L F I I I I I (5)"\nhex = "2514"'), "differ"),
])
def test_a_starfire_mirror_broken_anywhere_is_not_interchangeable(tmp_path, change, needle):
    text = _mirror_text()
    assert change[0] in text
    p = tmp_path / "m.toml"
    p.write_text(text.replace(change[0], change[1], 1))
    ok, why = _check(p)
    assert not ok and needle in why


def test_a_derby_duel_of_unequal_teams_is_not_interchangeable(tmp_path):
    p = tmp_path / "d.toml"
    p.write_text('game = "demo-derby"\nname = "x"\nlabel = "ORIGINAL"\nsource = "test"\n'
                 '[[cars]]\nname = "a1"\nplayer = "a"\n[[cars]]\nname = "a2"\nplayer = "a"\n'
                 '[[cars]]\nname = "b"\n')
    ok, why = _check(p)
    assert not ok and "2 and 1 cars" in why


# --- on the Starfire mirror (small budget) -----------------------------------------------------

@pytest.mark.xdist_group("starfire")
def test_the_starfire_mirror_is_solved_as_one_population_and_comes_out_even():
    from simkit import shipped

    path = shipped.resolve("starfire/mirror")
    # 8,000 trials: the method and the support do not depend on the budget, and the two seats'
    # intervals (about +-0.04) still catch a mirror that favours one seat by a tenth; 24,000
    # cost the suite's longest worker a minute and a half
    kw = dict(trials_budget=8_000, profile_trials=200, candidates=2, seed=8, progress=False,
              threads=1)
    out = B.balance(path, **kw)
    assert (out.method == B.ONE_POPULATION).all() and "mirrored" in out.attrs["method"]
    assert out.support.iloc[0] == out.support.iloc[1]
    blue, red = out.itertuples()
    assert blue.equilibrium_lo <= red.equilibrium_hi and red.equilibrium_lo <= blue.equilibrium_hi
    forced = B.balance(path, asymmetric=True, **kw)
    assert (forced.method == B.TWO_POPULATIONS).all()
    assert "--asymmetric" in forced.attrs["method"]
