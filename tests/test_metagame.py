"""The build metagame's best-reply oracle on a toy build game whose strong region is far from
the start: every seed must reach it (issue 17: the Demon's Run supports of three seeds did not
agree, each stopped where its best-reply search had climbed)."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.core.errors import UserInputError

FIELDS = 8
HI = 4
POINTS = 12


def _far():
    """Eight fields of 0-4 bought from 12 points (every build spends them all). A build that
    puts everything into three fields (four each, the rest empty) wins every race against any
    other; among the rest the evener build wins, so the even start is the best of them and no
    step from it gains: the strong region is reached only by a draw that lands in it.
    Uniform draws spread the points (about 1.6% land there), a step from the start almost
    never does (0.07% of one-to-three mutations)."""
    from simkit.core.game import BuildGame
    from simkit.core.search import IntBoxSpace, IntField

    space = IntBoxSpace([IntField(f"f{i}", 0, HI) for i in range(FIELDS)], POINTS, fill=True)

    def strength(c):
        if sorted(c) == [0] * (FIELDS - POINTS // HI) + [HI] * (POINTS // HI):
            return 100
        return -(max(c) - min(c))

    def duel(a, b, n, seed):
        sa, sb = strength(a), strength(b)
        return np.array([n, 0] if sa > sb else [0, n] if sb > sa else [0, 0])

    start = (2, 2, 2, 2, 1, 1, 1, 1)
    return BuildGame("far", space, duel, start=[start], reference=[("even", start)]), strength


def _meta(seed, **kw):
    from simkit.analysis.metagame import metagame

    bg, strength = _far()
    out = metagame(bg, **{**dict(trials_budget=40_000, profile_trials=100, candidates=6,
                                 seed=seed, progress=False), **kw})
    support = out[out.role == "support"]
    builds = [tuple(int(kv.split("=")[1]) for kv in b.split(",")) for b in support.build]
    return out, [strength(b) for b in builds]


@pytest.mark.parametrize("seed", range(12))
def test_every_seed_reaches_the_strong_region_far_from_the_start(seed):
    # the old oracle (uniform draws and steps from the population, no archive) stopped on the
    # even start in seeds 6, 7, 8, 10 and 11 of these: nothing it proposed gained epsilon
    out, strengths = _meta(seed)
    assert strengths and all(s == 100 for s in strengths), out.to_string()
    even = out[out.role == "reference: even"]
    assert even.utility.iloc[0] == 0.0   # the field beats the start in every race


def test_a_metagame_run_dir_resumes_to_the_same_numbers(tmp_path):
    run = tmp_path / "run"
    first, _ = _meta(4, run_dir=run)
    again, _ = _meta(4, run_dir=run)
    assert first.equals(again)
    assert first.attrs["payoffs"].equals(again.attrs["payoffs"])
    with pytest.raises(UserInputError, match="other arguments"):
        _meta(5, run_dir=run)


def test_a_race_leaves_its_best_in_the_archive_and_the_next_races_and_breeds_from_it():
    from simkit.analysis import balance as B
    from simkit.core.game import Policy

    bg, strength = _far()
    P = lambda c: Policy("build", tuple((f"f{i:02d}", int(v)) for i, v in enumerate(c)))  # noqa
    seen = []

    def propose(rng, k, pop):
        seen.append(list(pop))
        return [P(bg.space.sample(rng)) for _ in range(k)]

    def play(profile, n, seed):
        a, b = (tuple(v for _, v in p.params) for p in profile)
        return bg.duel(a, b, n, seed)

    start = P(bg.start[0])
    side = B.Side("a", [start], propose=propose)
    est = B.Estimates(play, 2, rotate=True)
    pops, mix = [[start], [start]], [np.array([1.0]), np.array([1.0])]
    archive = []
    best, _ = B._best_reply(est, 0, side, pops, mix, 0.5, 100, 16, 1,
                            np.random.default_rng(0), 10**6, archive)
    assert archive[0] == best and 1 < len(archive) <= B.ARCHIVE_KEEP
    cands = B._candidates(side, pops, 0, 4, 1, np.random.default_rng(1), archive)
    assert all(e in cands for e in archive)           # raced again as they are
    assert seen[-1] == [start] + archive              # and bred from, the population first
    # a population member is never re-proposed from the archive
    cands = B._candidates(side, [[start, best]] * 2, 0, 4, 1, np.random.default_rng(1), archive)
    assert seen[-1] == [start, best] + archive[1:]


@pytest.mark.xdist_group("demons_run")  # on the worker that has compiled Demon's Run's kernels
def test_the_demons_run_metagame_is_the_same_for_any_thread_count():
    from simkit.demons_run.analyses import metagame

    one = metagame(trials=1500, seed=3, threads=1, progress=False)
    two = metagame(trials=1500, seed=3, threads=2, progress=False)
    assert one.equals(two) and one.attrs["payoffs"].equals(two.attrs["payoffs"])
