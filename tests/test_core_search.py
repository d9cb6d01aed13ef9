"""The shared build search (simkit.core.search) against a synthetic race with an exact answer.

``ToyRace``: each field's level sets the chance of one event (a d1000 per field per trial,
drawn in the same order for every candidate), a win is >= 3 events; its exact win rate is a
Poisson-binomial sum, so the true ranking of every candidate is known.
"""

import numpy as np
import pandas as pd
import pytest

from simkit import cliutil, plots
from simkit.core import search as S
from simkit.core.errors import UserInputError
from simkit.core.search import IntBoxSpace, IntField, ToyRace, toy_table

# 4 fields at 0,2,...,10 costing their value, 20 to spend: 146 maximal builds, and a true best
# 0.015 ahead of the second (toy_table seed 1, roughness 60)
TABLE = toy_table(4, 11, seed=1, rough=60)


def small_space():
    return IntBoxSpace([IntField(n, 0, 10, 2, cost=2) for n in "abcd"], 20)


def truth(space, ev):
    cands = space.enumerate()
    ex = ev.exact(cands)
    ex["cand"] = cands
    return ex.sort_values("win_rate", ascending=False, kind="stable").reset_index(drop=True)


@pytest.fixture(scope="module")
def board():
    ev = ToyRace(TABLE, need=3)
    b = S.search(small_space(), ev, trials_budget=400_000, seed=11, population=16,
                 finalists=8, progress=False, threads=1)
    return b, ev


def cands_of(board, space):
    return [tuple(int(x) for x in r) for r in board[list(space.columns)].to_numpy()]


def test_search_ranks_the_true_best_first(board):
    b, ev = board
    space = small_space()
    t = truth(space, ev)
    assert t.win_rate[0] - t.win_rate[1] > 0.01  # the ground truth is clear-cut
    assert cands_of(b, space)[0] == t.cand[0]
    # the finalists are all from the true top 15 of 146
    assert set(cands_of(b, space)) <= set(t.cand[:15])


def test_leaderboard_intervals_cover_the_exact_rates(board):
    b, ev = board
    ex = ev.exact(cands_of(b, small_space()))
    inside = ((b.win_lo.to_numpy() <= ex.win_rate) & (ex.win_rate <= b.win_hi.to_numpy()))
    inside_vp = ((b.vp_lo.to_numpy() <= ex.mean_vp) & (ex.mean_vp <= b.vp_hi.to_numpy()))
    # 95% intervals on 8 rows: more than two misses would happen with chance < 1%
    assert inside.sum() >= 6 and inside_vp.sum() >= 6


def test_leaderboard_columns_and_progress(board):
    b, _ = board
    want = ["rank", "a", "b", "c", "d", "build", "win_rate", "win_lo", "win_hi", "mean_vp",
            "vp_lo", "vp_hi", "destroyed_rate", "trials", "search_trials"]
    assert all(c in b.columns for c in want)
    assert list(b["rank"]) == list(range(1, len(b) + 1))
    assert (np.diff(b.win_rate.to_numpy()) <= 0).all()
    assert b.build[0] == ",".join(f"{k}={b[k][0]}" for k in "abcd")
    prog = S.progress_frame(b)
    assert list(prog.columns[:6]) == ["generation", "trials_used", "candidates", "best_score",
                                      "best_build", "best_trials"]
    assert (np.diff(prog.trials_used) >= 0).all() and (np.diff(prog.candidates) >= 0).all()
    # a 146-build space runs dry long before 400,000 trials: the rest goes to second looks,
    # deeper rungs and the finals, so the whole budget is spent (to the last finalist's share)
    assert 400_000 - len(b) < b.attrs["trials_used"] <= b.attrs["trials_budget"] == 400_000
    assert b.attrs["candidates"] == 146
    assert b.attrs["objective"] == "win_rate"


def test_finalists_are_rerun_on_a_fresh_stream(board):
    b, ev = board
    racing, final = b.attrs["racing_key"], b.attrs["final_key"]
    assert racing != final
    keys = {k for k, *_ in ev.calls}
    assert keys == {racing, final}
    rungs = b.attrs["rungs"]
    bounds = [0] + rungs
    for key, first, n, k in ev.calls:
        if key == racing:  # racing calls cover exactly one rung's segment of trials
            seg = bounds.index(first)
            assert first + n == bounds[seg + 1]
        else:
            assert (first, n) == (0, int(b.trials[0]))
    n_final = int(b.trials[0])
    assert n_final not in rungs and (b.trials != b.search_trials).all()
    # the reported figures are the fresh-stream ones, reproducible by hand
    cands = np.array(cands_of(b, small_space()))
    again = ToyRace(TABLE, need=3).evaluate(cands, 0, n_final, np.uint64(final))
    assert np.allclose(b.win_rate, again[:, 0] / n_final)
    racing_again = ToyRace(TABLE, need=3).evaluate(cands[:1], 0, int(b.search_trials[0]),
                                                   np.uint64(racing))
    assert b.search_score[0] == racing_again[0, 0] / int(b.search_trials[0])


def test_same_seed_same_leaderboard_for_any_threads_and_chunking(board):
    b, _ = board
    kw = dict(trials_budget=400_000, seed=11, population=16, finalists=8, progress=False)
    b2 = S.search(small_space(), ToyRace(TABLE, need=3), threads=2, chunk_size=777, **kw)
    pd.testing.assert_frame_equal(b, b2)
    assert b.attrs == b2.attrs
    b3 = S.search(small_space(), ToyRace(TABLE, need=3), trials_budget=400_000, seed=12,
                  population=16, finalists=8, progress=False, threads=1)
    assert b3.attrs["racing_key"] != b.attrs["racing_key"]
    assert not b3.win_rate.equals(b.win_rate)


def test_toy_race_draws_common_random_numbers_and_matches_its_exact_rates():
    ev = ToyRace(TABLE, need=3)
    lo, hi = (2, 2, 2, 2), (10, 10, 10, 10)
    assert (TABLE[:, 10] >= TABLE[:, 2]).all()
    key = np.uint64(12345)
    for n in (7, 50, 333):  # same dice: the stronger build wins every race the weaker wins
        t = ev.evaluate(np.array([lo, hi]), 1000, n, key)
        assert t[1, 0] >= t[0, 0] and t[1, 1] >= t[0, 1] and t[1, 3] <= t[0, 3]
    n = 200_000
    cands = np.array([lo, hi, (4, 6, 6, 4)])
    tot = ev.evaluate(cands, 0, n, key)
    ex = ev.exact(cands)
    for i in range(3):
        s = ev.summarise(tot[i], n)
        p = ex.win_rate[i]
        assert abs(s["win_rate"] - p) < 4 * np.sqrt(p * (1 - p) / n)
        assert abs(s["mean_vp"] - ex.mean_vp[i]) < 4 * (s["vp_hi"] - s["vp_lo"]) / 3.92
    # split into pieces, the totals are the same integers
    parts = sum(ev.evaluate(cands, f, m, key) for f, m in ((0, 1), (1, 99_999), (100_000, 100_000)))
    assert np.array_equal(parts, tot)


def test_stat_evaluator_objective_scale_and_minimising():
    class Ev(S.StatEvaluator):
        stats = (S.Rate("win", 0), S.Mean("vp", 1, 2, scale=0.5), S.Rate("destroyed", 3))
        objective = "-destroyed_rate"

    # an evaluator that cannot evaluate is refused when built, not deep inside a search
    with pytest.raises(TypeError, match="evaluate"):
        Ev()

    class Ev(Ev):
        def evaluate(self, candidates, first_trial, n_trials, key):
            return np.zeros((len(candidates), self.n_stats), np.int64)

    ev = Ev()
    assert ev.n_stats == 4
    tot = np.array([[5, 20, 60, 1], [6, 10, 20, 3]])
    assert list(ev.score(tot, 10)) == [-0.1, -0.3]
    s = ev.summarise(tot[0], 10)
    assert s["mean_vp"] == pytest.approx(1.0) and s["win_rate"] == 0.5
    assert s["destroyed_lo"] < 0.1 < s["destroyed_hi"]
    ev.objective = "mean_vp"
    assert list(ev.score(tot, 10)) == [1.0, 0.5]
    ev.objective = "nonsense"
    with pytest.raises(ValueError, match="nonsense"):
        ev.score(tot, 10)


def test_versus_races_the_mirror_as_a_reference_row():
    space = small_space()
    made = []

    def against(opponent):  # a game would build a duel kernel around the opponent here
        made.append(opponent)
        return ToyRace(TABLE, need=3)

    opp = (4, 4, 6, 6)
    b = S.versus(space, against, opp, trials_budget=60_000, seed=3, population=8, finalists=3,
                 progress=False, threads=1)
    assert made == [opp]
    assert b.attrs["versus"] == "a=4,b=4,c=6,d=6"
    mirror = b[b.included]
    assert len(mirror) == 1 and tuple(mirror[list("abcd")].iloc[0]) == opp
    assert len(b) == 4


def test_budget_needed_asks_every_larger_budget_to_succeed_often_enough():
    from simkit.core.search.bench import budget_needed

    share = pd.Series([1.0, 0.5, 0.9, 1.0], index=[400, 100, 300, 200])  # unsorted on purpose
    assert budget_needed(share, 1.0) == 400           # 300 missed once
    assert budget_needed(share, 0.9) == 200           # 100 succeeds half the time only
    assert budget_needed(share, 0.5) == 100
    assert budget_needed(pd.Series([1.0, 0.8], index=[1, 2]), 0.9) is None  # the largest fails


def test_efficiency_frame_against_exhaustive_evaluation():
    space = small_space()
    ev = ToyRace(TABLE, need=3)
    t = truth(space, ev)
    exact_scores = ev.exact(space.enumerate()).win_rate.to_numpy()
    f = S.efficiency(space, ev, budgets=[30_000, 150_000], top=3, repeats=1, seed=5,
                     truth=exact_scores, population=12, finalists=5, threads=1)
    assert list(f.columns) == ["method", "trials_budget", "repeat", "trials_used",
                               "top_recall", "found_all", "best_found"]
    assert set(f.method) == {"search", "exhaustive"} and len(f) == 4
    assert f.attrs["true_top"] == [space.describe(c) for c in t.cand[:3]]
    assert (f.trials_used <= f.trials_budget).all()
    assert list(f.attrs["summary"]) == ["search", "exhaustive"]
    # attrs hold plain data, so grouping and concatenating the frames works
    pd.concat([f, f]).groupby("method").top_recall.mean()


def test_bad_search_settings_are_user_errors():
    space, ev = small_space(), ToyRace(TABLE, need=3)
    with pytest.raises(UserInputError, match="--trials-budget.*at least"):
        S.search(space, ev, trials_budget=1_000, progress=False)
    with pytest.raises(UserInputError, match="include"):
        S.search(space, ev, trials_budget=100_000, include=[(10, 10, 10, 10)], progress=False)
    with pytest.raises(UserInputError, match="--seed"):
        S.search(space, ev, trials_budget=100_000, seed=-1, progress=False)
    with pytest.raises(UserInputError, match="--workers"):
        S.search(space, ev, trials_budget=100_000, workers=4, progress=False)
    # a run flag left unset (cliutil.run_options) is no reason to refuse
    b = S.search(space, ev, trials_budget=20_000, population=4, finalists=2, workers=None,
                 progress=None, threads=1)
    assert len(b) == 2


def test_plot_leaderboard_writes_a_figure(board, tmp_path):
    path = plots.plot_leaderboard(board[0], tmp_path / "board.png")
    assert path.exists() and path.stat().st_size > 10_000


def test_paired_gaps_to_the_leader_are_sharper_than_two_intervals(board):
    b, ev = board
    ex = ev.exact(cands_of(b, small_space())).win_rate.to_numpy()
    assert b.gap[0] == 0 and (b.gap[1:] >= 0).all()
    exact_gap = ex[0] - ex
    covered = ((b.gap_lo <= exact_gap) & (exact_gap <= b.gap_hi))[1:]
    assert covered.sum() >= len(covered) - 2
    paired = (b.gap_hi - b.gap_lo)[1:].mean()
    unpaired = np.sqrt(((b.win_hi - b.win_lo) ** 2)[1:] + (b.win_hi[0] - b.win_lo[0]) ** 2).mean()
    assert paired < 0.7 * unpaired  # common random numbers at work


def test_trial_scores_are_the_same_trials_as_evaluate():
    ev = ToyRace(TABLE, need=3)
    cands = np.array([(4, 6, 6, 4), (10, 10, 0, 0), (2, 2, 8, 8)])
    key = np.uint64(77)
    tot = ev.evaluate(cands, 123, 5_000, key)
    assert np.array_equal(ev.trial_scores(cands, 123, 5_000, key).sum(axis=1), tot[:, 0])
    ev.objective = "mean_vp"
    assert np.array_equal(ev.trial_scores(cands, 123, 5_000, key).sum(axis=1), tot[:, 1])
    ev.objective = "-destroyed_rate"
    assert np.array_equal(ev.trial_scores(cands, 123, 5_000, key).sum(axis=1), -tot[:, 3])


def test_command_line_search_options():
    import argparse

    p = argparse.ArgumentParser()
    cliutil.add_search_options(p)
    args = p.parse_args(["--trials-budget", "50000", "--finalists", "3", "--population", "8"])
    kw = cliutil.search_options(args)
    assert kw["trials_budget"] == 50_000 and kw["finalists"] == 3 and kw["final_trials"] is None
    b = S.search(small_space(), ToyRace(TABLE, need=3), seed=1, progress=False, threads=1, **kw)
    assert len(b) == 3
    args = p.parse_args(["--finalists", "0"])
    with pytest.raises(UserInputError, match="--finalists"):
        S.search(small_space(), ToyRace(TABLE, need=3), **cliutil.search_options(args))


def test_efficiency_estimates_its_ground_truth_on_its_own_stream():
    space, ev = small_space(), ToyRace(TABLE, need=3)
    f = S.efficiency(space, ev, budgets=[30_000], top=3, repeats=1, seed=5, truth_trials=20_000,
                     population=12, finalists=4, threads=1)
    # the best build is 0.015 ahead: 20,000 trials each on common random numbers find it
    assert f.attrs["true_top"][0] == space.describe(truth(space, ev).cand[0])
    assert {k for k, *_ in ev.calls} >= {S._derived_key(S.stream_key(5), S._TRUTH_SALT)}


class _Needle(S.StatEvaluator):
    """Every build ties (one half-point a trial) except one, which wins every trial: a flat
    landscape no GA climbs, so only a search that starts from the needle finds it."""
    name, search_method, trial_scale = "needle", "race", 0.5
    stats, objective = (S.Rate("win", 0), S.Mean("utility", 1, 2, scale=0.5)), "mean_utility"

    def __init__(self, needle):
        self.needle = tuple(needle)

    def trial_scores(self, cands, first, n, key):
        return np.array([[2 if tuple(int(v) for v in c) == self.needle else 1] * n
                         for c in cands], np.int64)

    def evaluate(self, cands, first, n, key):
        v = self.trial_scores(cands, first, n, key)
        return np.stack([(v == 2).sum(1), v.sum(1), (v * v).sum(1)], axis=1)


def test_a_race_search_starts_from_its_seeds_without_reserving_finals_for_them():
    # six fields of 0..10 from 30 points: far too many builds to race whole
    space = IntBoxSpace([IntField(n, 0, 10) for n in "abcdef"], 30)
    # no archetype (every field above its lowest), one of thousands of maximal builds
    needle = (7, 3, 5, 2, 8, 5)
    dud = (0, 0, 0, 10, 10, 10)
    kw = dict(trials_budget=30_000, seed=4, progress=False, threads=1)
    plain = S.search(space, _Needle(needle), **kw)
    assert plain.build.iloc[0] != space.describe(needle)
    seeded = S.search(space, _Needle(needle), seeds=[dud, needle], **kw)
    assert seeded.build.iloc[0] == space.describe(needle)
    assert not seeded.included.iloc[0]
    assert seeded.mean_utility.iloc[0] == 1.0
    with pytest.raises(UserInputError, match="seeds"):
        S.search(space, _Needle(needle), seeds=[(10, 10, 10, 10, 0, 0)], **kw)
    with pytest.raises(UserInputError, match="seeds"):
        S.search(space, _Needle(needle), seeds=[needle], method="halving", **kw)
