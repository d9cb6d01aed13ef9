"""``simkit balance``: the meta-game solvers on games with known equilibria, the loop on toy
games whose equilibrium is known exactly, checkpoints, and bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest

from simkit.analysis import balance as B
from simkit.core.errors import UserInputError
from simkit.core.game import Param, Policy, PolicySpace

# utility to the row player (win 1, draw 1/2, loss 0) of rock, paper, scissors
RPS = np.array([[0.5, 0.0, 1.0],
                [1.0, 0.5, 0.0],
                [0.0, 1.0, 0.5]])


def test_maximin_of_rock_paper_scissors_is_uniform_with_value_one_half():
    x, y, v = B.maximin(RPS)
    assert x == pytest.approx([1 / 3] * 3, abs=1e-9)
    assert y == pytest.approx([1 / 3] * 3, abs=1e-9)
    assert v == pytest.approx(0.5, abs=1e-12)


def test_maximin_finds_a_saddle_point_and_a_skewed_mixture():
    # a pure saddle point: row 1 / column 0 (0.4 is the least of its row, the most of its column)
    x, y, v = B.maximin(np.array([[0.2, 0.9], [0.4, 0.6]]))
    assert x == pytest.approx([0, 1], abs=1e-9) and y == pytest.approx([1, 0], abs=1e-9)
    assert v == pytest.approx(0.4)
    # matching pennies with unequal stakes: x* = (d - c) / (a - b - c + d) = 0.25, v = 0.55
    U = np.array([[1.0, 0.4], [0.4, 0.6]])
    x, y, v = B.maximin(U)
    assert x == pytest.approx([0.2 / 0.8, 0.6 / 0.8], abs=1e-9)
    assert y == pytest.approx([0.25, 0.75], abs=1e-9) and v == pytest.approx(0.55, abs=1e-9)


def test_fictitious_play_three_sides_finds_dominant_strategies():
    rng = np.random.default_rng(1)
    U = rng.random((3, 2, 3, 2)) * 0.1
    U[0, 1] += 1.0          # side 0: policy 1 dominates
    U[1, :, 2] += 1.0       # side 1: policy 2 dominates
    U[2, :, :, 0] += 1.0    # side 2: policy 0 dominates
    mix = B.fictitious_play(U, iterations=400)
    assert mix[0].argmax() == 1 and mix[1].argmax() == 2 and mix[2].argmax() == 0
    assert min(m.max() for m in mix) > 0.99


def _rps_play(profile, n, seed):
    """Deterministic rock-paper-scissors: the hand is the ``hand`` parameter; the file's own
    policy throws rock."""
    a, b = (0 if p == B.FILE else p.values.get("hand", 0) for p in profile)
    if a == b:
        return np.array([0, 0])
    return np.array([n, 0]) if (a - b) % 3 == 1 else np.array([0, n])


RPS_SPACE = {"throw": PolicySpace("throw", (Param("hand", "int", 0, 2, 0),))}


def _rps_sides():
    return [B.Side(s, [B.FILE, Policy("throw")], RPS_SPACE) for s in ("a", "b")]


def test_rock_paper_scissors_from_rock_only_reaches_the_exact_equilibrium():
    out = B.balance_game(_rps_sides(), _rps_play, trials_budget=200_000, profile_trials=100,
                         candidates=8, epsilon=0.02, seed=3, progress=False)
    assert list(out.columns) == B.COLUMNS and list(out.side) == ["a", "b"]
    # the file's rock mirror is all draws; at equilibrium each hand is played a third of the
    # time, so each side wins a third of the games, exactly (the toy has no noise)
    assert (out.default_win_rate == 0).all()
    assert out.equilibrium_win_rate.to_numpy() == pytest.approx([1 / 3, 1 / 3], abs=1e-6)
    assert out.exploitability.to_numpy() == pytest.approx([0, 0], abs=1e-6)
    for support in out.support:
        hands = sorted(part.split(" ")[0] for part in support.split("; "))
        assert hands in (["as", "throw(hand=1)", "throw(hand=2)"], ["throw", "throw(hand=1)", "throw(hand=2)"],
                         ["throw(hand=0)", "throw(hand=1)", "throw(hand=2)"]), support
        weights = [float(part.rsplit(" ", 1)[1]) for part in support.split("; ")]
        assert sum(weights) == pytest.approx(1.0, abs=0.011)
    pay = out.attrs["payoffs"]
    assert set(pay.columns) == {"a", "b", "utility_a", "utility_b"}
    assert (pay.utility_a + pay.utility_b).to_numpy() == pytest.approx(1.0)


def _noisy_mirror(profile, n, seed):
    """Two identical sides: the side playing higher ``aim`` (0-4) wins more, each game a coin
    with that bias, seeded per profile so the estimates are genuinely noisy."""
    aims = [0 if p == B.FILE else p.values.get("aim", 0) for p in profile]
    p_a = 0.5 + 0.08 * (aims[0] - aims[1])
    rng = np.random.default_rng([seed, *aims])
    wins_a = int(rng.binomial(n, p_a))
    return np.array([wins_a, n - wins_a])


def test_identical_sides_come_out_even_at_equilibrium_within_the_interval():
    space = {"aimer": PolicySpace("aimer", (Param("aim", "int", 0, 4, 0),))}
    sides = [B.Side(s, [B.FILE, Policy("aimer")], space) for s in ("a", "b")]
    out = B.balance_game(sides, _noisy_mirror, trials_budget=300_000, profile_trials=2000,
                         candidates=8, epsilon=0.02, seed=5, progress=False)
    # both end on the best aim, and the mirror at the top is even within its interval
    for support in out.support:
        assert "aimer(aim=4)" in support
    for r in out.itertuples():
        assert r.equilibrium_lo <= 0.5 <= r.equilibrium_hi
        assert r.exploit_lo <= 0.02


def test_a_run_dir_resumes_to_the_same_numbers_without_replaying(tmp_path):
    calls = []

    def play(profile, n, seed):
        calls.append(1)
        return _rps_play(profile, n, seed)

    kw = dict(trials_budget=200_000, profile_trials=100, candidates=8, seed=3, progress=False,
              run_dir=tmp_path / "run", key="k")
    first = B.balance_game(_rps_sides(), play, **kw)
    n_first = len(calls)
    again = B.balance_game(_rps_sides(), play, **kw)
    assert len(calls) == n_first          # every estimate read back
    assert first.drop(columns="trials_used").equals(again.drop(columns="trials_used"))
    with pytest.raises(UserInputError, match="other arguments"):
        B.balance_game(_rps_sides(), play, **{**kw, "key": "other"})


def _per_trial(profile, n, seed, first=0):
    """Each trial's winner from the trial's own stream, so a run over trials a..b is a piece
    of the run over 0..b (as the engines' per-trial streams make it)."""
    aims = [0 if p == B.FILE else p.values.get("aim", 0) for p in profile]
    u = np.random.default_rng([seed, *aims]).random(first + n)[first:]
    wins_a = int((u < 0.5 + 0.08 * (aims[0] - aims[1])).sum())
    return np.array([wins_a, n - wins_a])


def test_a_longer_estimate_plays_only_the_trials_it_lacks(tmp_path):
    calls = []

    def play(profile, n, seed, first=0):
        calls.append((first, n))
        return _per_trial(profile, n, seed, first)

    prof = (Policy("aimer", (("aim", 3),)), B.FILE)
    est = B.Estimates(play, 2, tmp_path / "run", "k", extend=True)
    short = est.wins(prof, 100, 7).copy()
    long = est.wins(prof, 250, 7)
    assert calls == [(0, 100), (100, 150)]
    assert np.array_equal(long, _per_trial(prof, 250, 7)) and not np.array_equal(long, short)
    assert est.used == 250
    # shorter than anything held: played from the start again, and counted
    est.wins(prof, 50, 7)
    assert calls[-1] == (0, 50) and est.used == 300
    # read back from the run dir: nothing played, the same games counted in the same order
    again = B.Estimates(play, 2, tmp_path / "run", "k", extend=True)
    n_calls = len(calls)
    assert np.array_equal(again.wins(prof, 100, 7), short)
    assert np.array_equal(again.wins(prof, 250, 7), long)
    assert len(calls) == n_calls and again.used == 250


def test_extending_estimates_changes_the_games_spent_never_a_payoff():
    sides = lambda: [B.Side(s, [B.FILE, Policy("aimer")],  # noqa: E731
                            {"aimer": PolicySpace("aimer", (Param("aim", "int", 0, 4, 0),))})
                     for s in ("a", "b")]
    kw = dict(trials_budget=300_000, profile_trials=1000, candidates=8, seed=5, progress=False)
    old = B.search(sides(), lambda p, n, s: _per_trial(p, n, s), **kw)
    new = B.search(sides(), _per_trial, extend=True, **kw)
    # the same decisions on the same payoffs, fewer games
    assert [list(p) for p in new.pops] == [list(p) for p in old.pops]
    assert all(np.array_equal(a, b) for a, b in zip(new.mix, old.mix))
    assert new.est.used < 0.8 * old.est.used


def test_a_budget_too_small_for_the_first_profiles_is_one_clear_error():
    with pytest.raises(UserInputError) as e:
        B.balance_game(_rps_sides(), _rps_play, trials_budget=300, profile_trials=100)
    assert e.value.field == "--trials-budget" and "4 starting profiles" in str(e.value)


def test_policy_points_are_checked_against_their_space():
    sp = RPS_SPACE["throw"]
    assert sp.check({"hand": 2}) == {"hand": 2}
    for bad in ({"hand": 3}, {"hand": 1.5}, {"foot": 1}, {"hand": "x"}):
        with pytest.raises(UserInputError):
            sp.check(bad, where="f.toml")
    assert Policy.of("throw", {"hand": 1}).label() == "throw(hand=1)"
    assert sp.from_unit([1.0]) == {"hand": 2} and sp.from_unit([0.0]) == {"hand": 0}


# --- the command, on a real scenario (small budget: this checks the plumbing, not the answer) --

@pytest.mark.xdist_group("starfire")  # on the worker that has compiled Starfire's kernels
def test_balance_command_on_a_starfire_scenario_writes_frame_payoffs_and_plot(tmp_path, capsys):
    import pandas as pd

    from simkit.cli import main

    out, png, run = tmp_path / "b.csv", tmp_path / "b.png", tmp_path / "run"
    argv = ["balance", "starfire/mirror", "--trials-budget", "8000", "--profile-trials", "100",
            "--candidates", "4", "--seed", "4", "--threads", "1", "--no-progress",
            "--run-dir", str(run)]
    assert main(argv + ["--out", str(out), "--plot", str(png)]) == 0
    text = capsys.readouterr().out
    frame = pd.read_csv(out)
    assert list(frame.columns) == B.COLUMNS and list(frame.side) == ["blue", "red"]
    assert png.stat().st_size > 10_000 and "payoffs of the final population" in text
    # a run the budget stopped says it has not converged and how to get further
    stopped = next(line for line in text.splitlines() if line.startswith("stopped: "))
    assert ("larger --trials-budget" in text) == stopped.startswith("stopped: budget")
    for r in frame.itertuples():
        assert r.default_lo <= r.default_win_rate <= r.default_hi
        assert r.equilibrium_lo <= r.equilibrium_win_rate <= r.equilibrium_hi
        assert r.support and r.trials_used <= 8000 + 4 * 16 * 100   # search budget + validation
    # `simkit resume` replays the command on its run dir, reading every estimate back
    out.unlink()
    assert main(["resume", str(run)]) == 0
    assert pd.read_csv(out).equals(frame)


@pytest.mark.parametrize("extra, needle", [
    (["--trials-budget", "50"], "--trials-budget"),
    (["--epsilon", "2"], "--epsilon"),
    (["--profile-trials", "0"], "--profile-trials"),
])
def test_balance_bad_input_is_one_line_and_status_2(extra, needle, capsys):
    from simkit.cli import main

    assert main(["balance", "starfire/mirror", "--no-progress"] + extra) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err and len(err.splitlines()) == 1 and "Traceback" not in err


# --- the build metagame ------------------------------------------------------------------------

def _toy_builds():
    """Three fields bought from 6 points; the bigger product x*y*z wins every race."""
    from simkit.core.game import BuildGame
    from simkit.core.search import IntBoxSpace, IntField

    space = IntBoxSpace([IntField(n, 0, 6) for n in "xyz"], 6, fill=True)

    def duel(a, b, n, seed):
        pa, pb = math.prod(a), math.prod(b)
        return np.array([n, 0] if pa > pb else [0, n] if pb > pa else [0, 0])

    return BuildGame("toy", space, duel, start=[(6, 0, 0)],
                     reference=[("lopsided", (6, 0, 0)), ("even", (2, 2, 2))])


def test_the_metagame_finds_the_dominant_build_and_reports_the_references():
    from simkit.analysis.metagame import COLUMNS, metagame

    out = metagame(_toy_builds(), trials_budget=60_000, profile_trials=100, candidates=12,
                   seed=2, progress=False)
    assert list(out.columns) == COLUMNS
    support = out[out.role == "support"]
    # (2, 2, 2) beats every other build: the field plays it alone, and it only draws itself
    assert len(support) == 1 and support.weight.iloc[0] == pytest.approx(1.0)
    assert support.build.iloc[0] == "x=2,y=2,z=2"
    assert support.utility.iloc[0] == pytest.approx(0.5) and support.win_rate.iloc[0] == 0
    ref = out.set_index("role")
    assert ref.loc["reference: lopsided", "utility"] == 0.0
    assert ref.loc["reference: even", "utility"] == pytest.approx(0.5)
    pay = out.attrs["payoffs"]
    assert pay.shape[0] == pay.shape[1] >= 2
    assert np.allclose(pay.to_numpy() + pay.to_numpy().T, 1.0)   # constant-sum, seats rotated


def test_a_game_without_a_policy_space_is_one_clear_error(monkeypatch, capsys):
    import dataclasses

    from simkit import games
    from simkit.cli import main

    real = games.get("starfire")
    bare = dataclasses.replace(real, scenario=dataclasses.replace(real.scenario,
                                                                  policies=lambda: {}))
    monkeypatch.setattr(games, "get", lambda n: bare)
    assert main(["balance", "starfire/mirror", "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert "no policy space" in err and "mirror.toml" in err and len(err.splitlines()) == 1


def test_a_side_given_another_policy_starts_from_that_policys_defaults():
    """The file's parameters belong to the file's policy (base-assault's defenders hold range 4
    as standoff); a pairing or a balance search that gives the side another policy must not
    fail on them, and a point of the space sets exactly what it names."""
    from simkit import games, shipped
    from simkit.starfire.policies import default_params

    eng = games.get("starfire").scenario
    path = shipped.resolve("starfire/base-assault")
    i = eng.load(path).sides.index("defenders")
    assert eng.load(path).side_params[i]["range"] == 4
    sc = eng.load_profile(path, {"defenders": "closer"})
    assert sc.side_policy[i] == "closer" and sc.side_params[i] == default_params("closer")
    sc = eng.load_profile(path, {"defenders": Policy.of("standoff", {"range": 7})})
    assert sc.side_params[i]["range"] == 7
    with pytest.raises(UserInputError) as e:
        eng.load_profile(path, {"defenders": Policy.of("standoff", {"range": 99})})
    assert e.value.field == "sides.defenders.params.range"


def test_balance_is_the_same_for_any_thread_count_and_chunk_size():
    from simkit import shipped

    path = shipped.resolve("starfire/mirror")
    kw = dict(trials_budget=3000, profile_trials=100, candidates=2, seed=9, progress=False)
    one = B.balance(path, threads=1, **kw)
    two = B.balance(path, threads=2, chunk_size=17, **kw)
    pd_testing = pytest.importorskip("pandas").testing
    pd_testing.assert_frame_equal(one, two)
    pd_testing.assert_frame_equal(one.attrs["payoffs"], two.attrs["payoffs"])


def test_a_budget_that_stops_the_race_midway_still_names_the_leader_so_far():
    space = {"aimer": PolicySpace("aimer", (Param("aim", "int", 0, 4, 0),))}
    side = B.Side("a", [Policy("aimer")], space)
    est = B.Estimates(_noisy_mirror, 2)
    pops = [[Policy("aimer")], [Policy("aimer")]]
    mix = [np.array([1.0]), np.array([1.0])]
    rng = np.random.default_rng(0)
    # five candidates (aim 0-4) at 50 games each fit; the next round (three at 100) does not
    best, gain = B._best_reply(est, 0, side, pops, mix, 0.5, 200, 4, 1, rng, left=5 * 50 + 100)
    assert best is not None and best.values.get("aim") == 4 and gain > 0.2


@pytest.mark.xdist_group("demons_run")  # on the worker that has compiled Demon's Run's kernels
def test_demons_run_metagame_command_reports_the_field_and_the_worked_ship(tmp_path, capsys):
    import pandas as pd

    from simkit.cli import main

    out = tmp_path / "meta.csv"
    assert main(["builds", "demons-run", "--metagame", "--trials-budget", "1000",
                 "--seed", "3", "--no-progress", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    frame = pd.read_csv(out)
    assert "Which build beats which" in text
    assert (frame.role == "support").any()
    worked = frame[frame.role == "reference: the rulebook's worked ship"]
    assert len(worked) == 1 and worked.build.iloc[0].startswith("fuel=210,si=14")
    assert (frame.win_lo <= frame.win_rate).all() and (frame.win_rate <= frame.win_hi).all()
    assert frame[frame.role == "support"].weight.sum() == pytest.approx(1.0, abs=1e-6)
    assert main(["builds", "demons-run", "--metagame", "--versus",
                 "fuel=210,si=14,pi=3,me=6,mn=6,tractor=10,screens=4,laser=10,scrambler=0"]) == 2
    assert "--metagame" in capsys.readouterr().err


@pytest.mark.xdist_group("demons_run")
def test_later_races_of_a_demons_run_duel_add_up_to_one_longer_duel():
    from simkit.demons_run import _metagame

    bg = _metagame()
    worked = bg.start[0]
    other = tuple(bg.space.sample(np.random.default_rng(4)))
    assert bg.extend and bg.space.is_legal(other)
    whole = bg.duel(worked, other, 61, 9)
    for cut in (20, 21):
        assert list(bg.duel(worked, other, cut, 9) + bg.duel(worked, other, 61 - cut, 9, cut)) \
            == list(whole)


# each on its game's xdist worker (tests/conftest.py), where the game's kernels are compiled
# already: on another worker the Dark Future point alone spent 214 s of CI compiling them again
@pytest.mark.parametrize("scenario", [
    pytest.param(s, marks=pytest.mark.xdist_group(s.split("/")[0].replace("-", "_")))
    for s in ("starfire/mirror", "dark-future/game-1", "demons-run/duel",
              "demo-derby/two-car-duel")])
def test_every_game_plays_a_point_of_every_policy_space(scenario):
    """Each game's engine takes a policy with parameters away from its defaults (the points a
    balance search plays), and a value outside the space is one clear error."""
    from simkit import games, shipped

    path = shipped.resolve(scenario)
    eng = games.for_scenario(path).scenario
    side = eng.sides(eng.load(path))[0]
    spaces = eng.policies()
    assert spaces and all(sp.params for sp in spaces.values())
    for name, sp in spaces.items():
        p = sp.params[0]
        moved = p.hi if sp.defaults()[p.name] != p.hi else p.lo
        sc = eng.load_profile(path, {side: Policy.of(name, {p.name: moved})})
        frame = eng.frame(sc, 20, 1, progress=False)
        assert int(frame["trials"].iloc[0]) == 20
        with pytest.raises(UserInputError):
            eng.load_profile(path, {side: Policy.of(name, {p.name: p.hi + 1})})
