"""Issue 14 item 5: a build search whose answer holds.

* Demon's Run side (``simkit/demons_run/search.py``): every candidate raced from every seat in
  rotation on common random numbers; ``trial_scores`` race by race equal to ``evaluate``'s
  totals; SI 0 never handed out, not even by the polish's one-move neighbours.
* The shared racing (``simkit.core.search``, ``method="race"``) on the synthetic race with an
  exact answer: successive elimination on paired per-trial values finds the true best, the
  polish ends on a local optimum (no one-move neighbour better beyond its interval), seeded
  runs are bit-identical for any thread count and chunk size, three seeds agree on the leader.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from simkit.core import dice, search as S
from simkit.core.search import IntBoxSpace, IntField, ToyRace, toy_table
from simkit.demons_run import search as DS
from simkit.demons_run.builds import violations, worked_ship
from simkit.demons_run.scenario import ShipEntry
from simkit.demons_run.rules import make_rules

RULES = make_rules()


# --- seats in rotation ------------------------------------------------------------------------

def test_every_race_of_a_range_belongs_to_exactly_one_seat_rotation():
    for k, field in ((2, 1), (3, 2), (4, 3)):
        ev = DS.RaceEvaluator([ShipEntry("w", "D", worked_ship(), "buoy_hunter")] * field)
        assert ev.seats == DS.SEATS[k] and len(ev.seats) == k
        for first, n in ((0, 12), (5, 7), (3, 1), (10, 0)):
            spans = ev._spans(first, n, dice.stream_key(1))
            races = sorted(j * k + r for r, _, lo, m in spans for j in range(lo, lo + m))
            assert races == list(range(first, first + n))
            # each rotation is its own stream: the same for every candidate
            assert len({int(rk) for _, rk, _, _ in spans}) == len(spans)
        scen = [ev.scenario(worked_ship(), r) for r in range(k)]
        # the candidate sits in every seat once per k races, and no seat is taken twice
        assert [s.ships[0].corner for s in scen] == list(ev.seats)
        for s in scen:
            assert sorted(x.corner for x in s.ships) == sorted(ev.seats)


def test_race_by_race_scores_are_the_races_evaluate_sums():
    ev = DS.RaceEvaluator()
    cands = np.array([DS.candidate_of(worked_ship()),
                      DS.candidate_of(DS.parse_build(
                          "fuel=250,si=12,pi=3,me=6,mn=8,tractor=6,screens=10,laser=0,"
                          "scrambler=0"))], np.int64)
    key = dice.stream_key(3)
    tot = ev.evaluate(cands, 2, 6, key)
    per = ev.trial_scores(cands, 2, 6, key)
    assert per.shape == (2, 6) and set(np.unique(per)) <= {0, 1}
    assert (per.sum(axis=1) == tot[:, DS.E_WIN]).all()
    # cut differently, the same races
    assert (ev.evaluate(cands, 2, 3, key) + ev.evaluate(cands, 5, 3, key) == tot).all()
    vp = DS.RaceEvaluator(objective="mean_vp").trial_scores(cands, 2, 6, key)
    assert (vp.sum(axis=1) == tot[:, DS.E_VP]).all()


def test_si_0_never_appears_in_the_space_nor_among_neighbours():
    space = DS.design_space(RULES)
    rng = np.random.default_rng(14)
    si = DS.FIELDS.index("si")
    c = space.sample(rng)
    for _ in range(30):
        assert c[si] >= 1 and not violations(DS.build_of(c), RULES)
        near = space.neighbours(c, rng)
        assert near and all(n[si] >= 1 and space.is_legal(n) for n in near)
        # one move of points: some field one value down, another up, the rest only raised
        for n in near:
            diff = np.array(n) - np.array(c)
            assert (diff < 0).sum() == 1
        c = near[int(rng.integers(len(near)))]
    worked = DS.candidate_of(worked_ship())
    low_si = list(worked)
    low_si[si] = 1
    assert all(n[si] >= 1 for n in space.neighbours(tuple(low_si), rng))


# --- the shared racing on a synthetic race with a known answer -------------------------------

def toy_space():
    return IntBoxSpace([IntField(n, 0, 10, 2, cost=2) for n in "abcd"], 20)


TABLE = toy_table(4, 11, seed=1, rough=60)   # true best 0.015 ahead of the second


def _truth(space, ev):
    cands = space.enumerate()
    ex = ev.exact(cands)
    return [cands[i] for i in np.lexsort((np.arange(len(cands)), -ex.win_rate.to_numpy()))], ex


def test_race_method_finds_the_best_with_a_fraction_of_the_trials():
    space = toy_space()
    ev = ToyRace(TABLE, need=3)
    order, _ = _truth(space, ev)
    b = S.search(space, ev, trials_budget=60_000, seed=5, method="race", finalists=5,
                 progress=False, threads=1)
    assert b.attrs["method"] == "race" and b.attrs["candidates"] == 146
    assert tuple(int(x) for x in b.loc[0, list("abcd")]) == order[0]
    assert b.attrs["trials_used"] <= 60_000
    # the racing dropped most candidates early: far fewer trials than 146 x the leader's
    assert b.attrs["trials_used"] < 146 * int(b.search_trials[0]) / 3
    assert {"gap", "gap_lo", "gap_hi", "search_trials"} <= set(b.columns)


def test_race_method_is_the_same_for_any_threads_and_chunking():
    kw = dict(trials_budget=30_000, seed=9, method="race", finalists=4, progress=False)
    b1 = S.search(toy_space(), ToyRace(TABLE, need=3), threads=1, **kw)
    b2 = S.search(toy_space(), ToyRace(TABLE, need=3), threads=2, chunk_size=777, **kw)
    pd.testing.assert_frame_equal(b1, b2)
    assert b1.attrs == b2.attrs


def test_the_finals_choose_the_leader_and_a_reference_build_bounds_it():
    # A tight budget: the racing's best mean is partly luck (a winner's curse). The old
    # search crowned it by the racing alone: in seed 4 the included reference beat it on the
    # finals' fresh races by 8 points, beyond the paired interval. The leader is now ranked by
    # the racing's and the finals' races pooled (the fresh ones weigh most where the racing
    # gave few), and the reference is always a finalist.
    space = toy_space()
    ev = ToyRace(TABLE, need=3)
    order, _ = _truth(space, ev)
    ref = order[3]   # the 4th best, standing for the field's own build
    for seed in range(1, 9):
        b = S.search(space, ev, trials_budget=8_000, seed=seed, method="race", finalists=4,
                     include=[ref], progress=False, threads=1)
        builds = [tuple(int(x) for x in r) for r in b[list("abcd")].to_numpy()]
        assert ref in builds and bool(b.included[builds.index(ref)])
        # no finalist beats the leader beyond the paired interval on the fresh finals
        assert (b.gap_hi >= 0).all(), (seed, b.gap_lo, b.gap_hi)


def big_space():
    # 6 fields: too many builds to race whole, so the GA finds the region and the polish
    # walks the leader's one-move neighbours
    return IntBoxSpace([IntField(n, 0, 10, 1, cost=1) for n in "abcdef"], 24)


BIG = toy_table(6, 11, seed=3, rough=20)


def test_the_polished_leader_is_a_local_optimum_and_three_seeds_agree():
    space = big_space()
    assert len(space.enumerate(limit=100_000)) > S.ENUMERATE_POOL
    ev = ToyRace(BIG, need=4)
    leaders = []
    for seed in (1, 2, 3):
        b = S.search(space, ev, trials_budget=150_000, seed=seed, method="race", finalists=4,
                     population=24, progress=False, threads=1)
        assert b.attrs["trials_used"] <= 150_000
        pol = pd.DataFrame(b.attrs["polish"])
        assert len(pol) >= 1 and b.attrs["local_optimum"] is True
        lead = tuple(int(x) for x in b.loc[0, list(space.columns)])
        # exactly: no one-move neighbour of the leader is better beyond the interval of the
        # difference (exact rates; the interval is the finals' paired one for the gap)
        ex = ev.exact([lead] + space.neighbours(lead)).win_rate.to_numpy()
        half = (b.gap_hi - b.gap_lo).abs().max() / 2 if len(b) > 1 else 0.02
        assert (ex[1:] - ex[0] <= max(half, 0.01)).all(), (lead, ex)
        leaders.append((lead, float(b.win_lo[0]), float(b.win_hi[0])))
    # three seeds agree: the same build, or leaders whose intervals overlap
    for (a, alo, ahi), (c, clo, chi) in zip(leaders, leaders[1:]):
        assert a == c or (alo <= chi and clo <= ahi), leaders


# A reference build on a hill of its own and a stronger region far from it: any three fields
# at 0 (as a Demon's Run ship without Screens or weapons). Every step from the reference towards
# that region loses, so a GA that breeds from the reference stays on its hill.
DECOY_START = (4, 4, 4, 4, 4, 4)


def _decoy_chance(c):
    c = np.asarray(c)
    if (c == 0).sum() >= 3:
        return 0.62 - 0.005 * np.abs(np.sort(c)[-3:] - 8).sum()
    return 0.50 - 0.005 * np.abs(c - np.asarray(DECOY_START)).sum()


def _uniforms(key, first, n):
    """One uniform per trial from the stream key alone: the same for every candidate."""
    x = np.uint64(key) + np.arange(first, first + n, dtype=np.uint64) * np.uint64(
        0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    x = x ^ (x >> np.uint64(31))
    return (x >> np.uint64(11)).astype(np.float64) / float(1 << 53)


class DecoyRace(S.StatEvaluator):
    name = "decoy race"
    stats = (S.Rate("win", 0),)
    objective = "win_rate"

    def trial_scores(self, candidates, first_trial, n_trials, key):
        p = np.array([_decoy_chance(c) for c in np.asarray(candidates).reshape(-1, 6)])
        return (_uniforms(key, first_trial, n_trials)[None, :] < p[:, None]).astype(np.int64)

    def evaluate(self, candidates, first_trial, n_trials, key):
        return self.trial_scores(candidates, first_trial, n_trials, key).sum(axis=1,
                                                                             keepdims=True)


def test_every_seed_reaches_a_strong_region_far_from_the_reference_build():
    # The old search's single GA, seeded with the reference, ended on it in seeds 1, 3 and 5
    # (win 0.50 against the region's 0.60-0.62); islands started from archetypes reach the
    # region in every seed, and every start's best is a finalist.
    space = big_space()
    leaders = []
    for seed in range(1, 6):
        b = S.search(space, DecoyRace(), trials_budget=60_000, seed=seed, method="race",
                     finalists=4, population=24, include=[DECOY_START], progress=False,
                     threads=1)
        assert b.attrs["trials_used"] <= 60_000 and b.attrs["starts"] == S.STARTS
        # the islands' and the merged GA's best
        assert len(b.attrs["start_best"]) == S.STARTS + 1
        assert set(b.attrs["start_best"]) <= set(b.build)
        lead = tuple(int(x) for x in b.loc[0, list(space.columns)])
        leaders.append((seed, lead, _decoy_chance(lead)))
    assert all(p >= 0.58 for _, _, p in leaders), leaders


def test_islands_are_the_same_for_any_threads_and_chunking():
    # a big space: the islands, the merged GA and the polish run, not only the elimination
    kw = dict(trials_budget=40_000, seed=4, method="race", finalists=4, population=24,
              progress=False)
    b1 = S.search(big_space(), ToyRace(BIG, need=4), threads=1, **kw)
    b2 = S.search(big_space(), ToyRace(BIG, need=4), threads=2, chunk_size=777, **kw)
    assert b1.attrs["starts"] == S.STARTS and len(pd.DataFrame(b1.attrs["polish"])) >= 1
    pd.testing.assert_frame_equal(b1, b2)
    assert b1.attrs == b2.attrs
    # a population too small to split (under S.STARTS x 6 newcomers) keeps one GA
    small = S.search(big_space(), ToyRace(BIG, need=4), threads=1,
                     **{**kw, "population": 8, "trials_budget": 15_000})
    assert small.attrs["starts"] == 1 and len(small.attrs["start_best"]) == 1


def test_race_method_needs_per_trial_values():
    class NoTrials(S.StatEvaluator):
        name = "no trials"
        stats = (S.Rate("win", 0),)

        def evaluate(self, candidates, first_trial, n_trials, key):
            return np.zeros((len(candidates), 1), np.int64)

    from simkit.core.errors import UserInputError
    with pytest.raises(UserInputError, match="trial_scores"):
        S.search(toy_space(), NoTrials(), trials_budget=10_000, method="race", progress=False)
